/*-------------------------------------------------------------------------
 *
 * pax_shape.c
 *	  Choosing the shape of a new pax page: its capacity, which columns get
 *	  a minipage, a null bitmap or a zone map, and its encodings, for the
 *	  rows (a batch, or a single row) that will go on it.
 *
 * A page's shape is fixed when the page is initialised (PaxPageInit): the
 * insert path of pax_insert.c asks for one (PaxShapeForRows) when a row
 * fits no existing page.  The shape looks ahead at about a page's worth of
 * the rows at hand, and at the relation's hints (PaxRelCache) for rows
 * inserted one at a time; its encodings come from pax_encode.c, and its
 * capacity is the largest at which the page holds its minipages and the
 * rows' average value-area bytes.
 *
 * pax_am/pax_shape.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "utils/rel.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_hio.h"
#include "pax_encode.h"
#include "pax_tableam.h"

/* Times a new page's shape looks ahead again at the rows encoding fits. */
#define PAX_ENCODE_REGROW		1

/*
 * A page whose batch ends (no more rows at hand) before this share of its
 * capacity is not bit-packed (PaxShapeForRows).
 */
#define PAX_PACK_MIN_FILL_NUM	3
#define PAX_PACK_MIN_FILL_DEN	4

/* PaxRowsPerPageGuess errs high: a quarter more page, a few more rows. */
#define PAX_GUESS_OVERSHOOT		1.25
#define PAX_GUESS_EXTRA_ROWS	4

/*
 * PaxShapeFreeEncodings frees a shape's encodings (widths, bases, factors,
 * prefixes): it is then unencoded.
 */
static void
PaxShapeFreeEncodings(PaxPageShape *shape)
{
	if (shape->widths)
		pfree(shape->widths);
	if (shape->bases)
		pfree(shape->bases);
	if (shape->prefixes)
		pfree(shape->prefixes);
	if (shape->factors)
		pfree(shape->factors);
	shape->widths = NULL;
	shape->bases = NULL;
	shape->prefixes = NULL;
	shape->factors = NULL;
}

/* PaxShapeFree frees the maps of a shape PaxChooseShape allocated. */
void
PaxShapeFree(PaxPageShape *shape)
{
	pfree(shape->absent);
	pfree(shape->nullmap);
	pfree(shape->zone);
	PaxShapeFreeEncodings(shape);
}

/*
 * PaxCapacityFits tells whether a page of the shape at this capacity holds
 * its minipages and capacity rows of var_avg value-area bytes each; *size
 * is then the minipages' end (PaxLayoutSize).
 */
static inline bool
PaxCapacityFits(TupleDesc tupdesc, PaxPageShape *shape, double var_avg,
				int capacity, Size *size)
{
	shape->capacity = capacity;
	*size = PaxLayoutSize(tupdesc, shape, NULL);
	return *size + capacity * var_avg <= PAX_SPECIAL_START;
}

/*
 * The capacity PaxShapeCapacity last found, for shapes without and with
 * encodings: where its search starts, since the pages of one load mostly
 * hold about as many rows as the page before (a hint only).
 */
static int	pax_last_capacity[2] = {64, 64};

/*
 * PaxShapeCapacity sets the largest capacity at which a page of the shape
 * holds its minipages and capacity rows of var_avg value-area bytes each,
 * and tells whether even one row fits.  It gallops from the capacity it
 * last found, by steps that double, until it brackets the answer, then
 * bisects: a page like the one before costs two layout computations, not
 * the nine of a bisection of 1 .. PAX_MAX_CAPACITY.
 */
static bool
PaxShapeCapacity(TupleDesc tupdesc, PaxPageShape *shape, double var_avg)
{
	int		   *last = &pax_last_capacity[shape->widths != NULL];
	int			start = Max(1, Min(*last, PAX_MAX_CAPACITY));
	int			lo,
				hi;
	int			step = 1;
	Size		size;
	Size		lo_size = 0;	/* PaxLayoutSize at lo, 0 until known */

	/* bracket: lo fits (or is 1), nothing above hi does */
	if (PaxCapacityFits(tupdesc, shape, var_avg, start, &size))
	{
		lo = start;
		lo_size = size;
		hi = PAX_MAX_CAPACITY;
		while (lo < hi)
		{
			int			probe = Min(lo + step, hi);

			if (!PaxCapacityFits(tupdesc, shape, var_avg, probe, &size))
			{
				hi = probe - 1;
				break;
			}
			lo = probe;
			lo_size = size;
			step *= 2;
		}
	}
	else
	{
		lo = 1;
		hi = start - 1;
		while (lo < hi)
		{
			int			probe = Max(hi - step + 1, lo);

			if (probe == lo)
				break;
			if (PaxCapacityFits(tupdesc, shape, var_avg, probe, &size))
			{
				lo = probe;
				lo_size = size;
				break;
			}
			hi = probe - 1;
			step *= 2;
		}
	}
	while (lo < hi)
	{
		int			mid = (lo + hi + 1) / 2;

		if (PaxCapacityFits(tupdesc, shape, var_avg, mid, &size))
		{
			lo = mid;
			lo_size = size;
		}
		else
			hi = mid - 1;
	}
	*last = lo;
	shape->capacity = lo;
	if (lo_size == 0)
		lo_size = PaxLayoutSize(tupdesc, shape, NULL);
	return lo_size + var_avg <= PAX_SPECIAL_START;
}

/*
 * PaxRowsPerPageGuess guesses, a little high, how many rows like this one
 * a page holds, so that a page's shape is chosen looking at about the rows
 * that will go on it (wide rows: a handful, not PAX_MAX_CAPACITY).
 */
static int
PaxRowsPerPageGuess(TupleDesc tupdesc, const PaxRow *row)
{
	Size		bytes = PAX_ROWHDR_SIZE + row->varbytes;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		bytes += att->attlen > 0 ? att->attlen : PAX_VAROFF_SIZE;
	}
	return Min(PAX_MAX_CAPACITY,
			   (int) (BLCKSZ * PAX_GUESS_OVERSHOOT / bytes) + PAX_GUESS_EXTRA_ROWS);
}

/*
 * PaxCompactKeepTids leaves TIDs free on a compact page that its bytes
 * would fill with PAX_MAX_CAPACITY rows and more: a new version an UPDATE
 * keeps on its page needs a TID there, which no byte freed can buy, and so
 * does the REDIRECT slot its chain's root keeps once pruned.  A page of
 * rows that narrow (pgbench's accounts: 291 rows in 1.3 kB of values)
 * would take no heap-only version until VACUUM freed its dead rows' TIDs.
 * It keeps a TID for each version of its average row (its row header
 * included) that the bytes its rows leave free hold, so that a page its
 * bytes about fill keeps about all its rows, down to half the TIDs (every
 * row then has a root and a version), but not below the rows the page
 * would hold unencoded (encoding never makes a table larger) unless these
 * are more than PAX_COMPACT_TID_ROWS: as many as heap's page holds of its
 * narrowest rows (a header and one column of 4 bytes, 32 bytes MAXALIGNed,
 * and a line pointer: 226 on 8 kB pages), so that every page keeps TIDs
 * for a chain in four of its rows.  No table takes more pages than heap's
 * for it: heap's rows carry a 24-byte header and a line pointer each.  The
 * TIDs are taken once pruning lays the page out again (PaxPruneCompact).
 */
#define PAX_COMPACT_TID_ROWS \
	((int) ((BLCKSZ - SizeOfPageHeaderData) / \
			(MAXALIGN(SizeofHeapTupleHeader + sizeof(int32)) + sizeof(ItemIdData))))

static void
PaxCompactKeepTids(TupleDesc tupdesc, PaxPageShape *shape, double var_avg,
				   double var_plain)
{
	double		used = PaxLayoutSize(tupdesc, shape, NULL) +
		shape->capacity * var_avg;
	double		free = Max((double) PAX_SPECIAL_START - used, 0);
	double		version = PAX_ROWHDR_SIZE + used / shape->capacity;
	int			capacity = shape->capacity;
	int			floor = PAX_COMPACT_TID_ROWS;
	int			keep;

	if (shape->widths != NULL)
	{
		uint8	   *widths = shape->widths;

		shape->widths = NULL;
		(void) PaxShapeCapacity(tupdesc, shape, var_plain);
		floor = Min(shape->capacity, floor);
		shape->widths = widths;
	}
	floor = Max(floor, PAX_MAX_CAPACITY / 2);
	keep = (int) Min(free / version, capacity - floor);
	shape->capacity = capacity - Max(keep, 0);
}

/*
 * PaxKeepUsefulEncodings drops a shape's encodings unless the page holds
 * more rows with them than without (the encoding directory takes a byte a
 * column and 8 bytes an encoded column: with very many columns, or very
 * few rows, that outweighs what it saves), or holds as many as a page can
 * (a compact page of narrow rows) either way: then the encoded minipages
 * are the smaller ones for a scan to read.
 */
static bool
PaxKeepUsefulEncodings(TupleDesc tupdesc, PaxPageShape *shape,
					   double var_avg_encoded, double var_avg)
{
	uint8	   *widths = shape->widths;
	bool		fits_encoded = PaxShapeCapacity(tupdesc, shape, var_avg_encoded);
	int			capacity = shape->capacity;
	bool		fits_plain;

	shape->widths = NULL;
	fits_plain = PaxShapeCapacity(tupdesc, shape, var_avg);
	if (fits_encoded &&
		(!fits_plain || capacity > shape->capacity ||
		 (shape->compact && capacity == PAX_MAX_CAPACITY)))
	{
		shape->widths = widths;
		shape->capacity = capacity;
		return true;
	}
	shape->widths = widths;
	PaxShapeFreeEncodings(shape);
	return false;
}

/*
 * PaxChooseShape chooses the shape of a new page for rows like the given
 * ones, whose value-area needs average var_avg bytes: columns dropped now
 * get no minipage, zone-map-eligible columns get zone maps within a
 * budget, the columns with NULLs in the given rows get null bitmaps (and
 * with `eager`, for rows inserted one at a time whose successors are not
 * known yet, every nullable column while that stays cheap), and the
 * capacity is the largest that fits.  When not even one row fits (very wide rows,
 * e.g. 1,600 columns), the zone maps go, and then the columns NULL in all
 * the given rows get no minipage either.  compact: the rows share one row
 * header (PaxCompactTakes), and TIDs are left for their new versions
 * (PaxCompactKeepTids); updatable: PaxChooseEncodings.  Maps are
 * allocated in the current memory context.
 */
void
PaxChooseShape(TupleDesc tupdesc, const PaxRow *rows, int nrows,
			   double var_avg, bool eager, double pack, const PaxRelCache *hints,
			   bool compact, bool updatable, PaxPageShape *shape)
{
	int			natts = tupdesc->natts;
	int			maplen = PaxDirMapLen(natts);
	int			nzones = 0;
	int			nnullable = 0;
	double		saved;
	double		var_plain = var_avg;
	bool		anynull = false;

	/* most loads have no NULLs: then no column needs looking at for them */
	for (int r = 0; r < nrows && !anynull; r++)
		anynull = rows[r].hasnull;

	shape->natts = natts;
	shape->absent = palloc0(maplen);
	shape->nullmap = palloc0(maplen);
	shape->zone = palloc0(maplen);
	shape->widths = NULL;
	shape->bases = NULL;
	shape->factors = NULL;
	shape->prefixes = NULL;
	shape->compact = compact;

	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		bool		hasnull = false;

		if (att->attisdropped)
		{
			PaxBitSet(shape->absent, i);
			continue;
		}
		if (PaxZoneEligible(att) && nzones < PAX_MAX_ZONES &&
			(nzones + 1) * sizeof(PaxZone) <= PAX_MAX_ZONE_BYTES &&
			!(nrows >= PAX_SHAPE_SAMPLE_ROWS && !eager && hints != NULL &&
			  i < PAX_HINT_ATTS &&
			  PaxZoneUseless(att, &hints->hints[i], rows, nrows, i)))
		{
			PaxBitSet(shape->zone, i);
			nzones++;
		}
		if (!att->attnotnull)
			nnullable++;
		for (int r = 0; r < nrows && anynull && !hasnull; r++)
			hasnull = rows[r].isnull[i];
		if (hasnull || (eager && !att->attnotnull))
			PaxBitSet(shape->nullmap, i);
	}
	saved = PaxChooseEncodings(tupdesc, rows, nrows, hints,
							   nrows > 0 ? PaxRowsPerPageGuess(tupdesc, &rows[0]) : 0,
							   pack, eager, updatable, shape);
	if (shape->widths &&
		PaxKeepUsefulEncodings(tupdesc, shape, Max(var_avg - saved, 0), var_avg))
		var_avg = Max(var_avg - saved, 0);

	/* eager null bitmaps only while they stay cheap */
	if (PaxShapeCapacity(tupdesc, shape, var_avg) &&
		(!eager || nnullable * BITMAPLEN(shape->capacity) <= PAX_EAGER_BITMAP_BYTES))
		goto capped;
	for (int i = 0; i < natts; i++)
	{
		bool		hasnull = false;

		for (int r = 0; r < nrows && anynull && !hasnull; r++)
			hasnull = rows[r].isnull[i];
		if (!hasnull)
			shape->nullmap[i >> 3] &= ~(1 << (i & 7));
	}
	if (PaxShapeCapacity(tupdesc, shape, var_avg))
		goto capped;

	/* very wide rows: no zone maps, no minipages for all-NULL columns */
	memset(shape->zone, 0, maplen);
	if (PaxShapeCapacity(tupdesc, shape, var_avg))
		goto capped;
	for (int i = 0; i < natts; i++)
	{
		bool		allnull = true;

		for (int r = 0; r < nrows && allnull; r++)
			allnull = rows[r].isnull[i];
		if (allnull)
		{
			PaxBitSet(shape->absent, i);
			shape->nullmap[i >> 3] &= ~(1 << (i & 7));
		}
	}
	(void) PaxShapeCapacity(tupdesc, shape, var_avg);

capped:
	if (compact && shape->capacity >= PAX_MAX_CAPACITY)
		PaxCompactKeepTids(tupdesc, shape, var_avg, var_plain);
}

/* PaxShapeIsPacked tells whether a shape bit-packs some column. */
static bool
PaxShapeIsPacked(const PaxPageShape *shape)
{
	for (int i = 0; shape->widths != NULL && i < shape->natts; i++)
	{
		uint8		w = shape->widths[i];
		PaxEncoding enc = PaxEncodingOf(w, NULL);

		if (PaxEncodingOpsOf(enc)->packed ||
			(enc == PAX_ENC_DICT && PaxDictIsPacked(w)))
			return true;
	}
	return false;
}

/*
 * PaxShapeForRows chooses the shape of a new page for rows[0..nrows), the
 * first of which goes on it: shaped for the rows that will go on it (when
 * fewer fit than were looked at, it looks again at only those), with a
 * capacity small enough for the first row's values.  eager: the rows are
 * inserted one at a time; compact: they share a row header; updatable:
 * the table keeps room for updates (PaxChooseShape).
 */
void
PaxShapeForRows(TupleDesc tupdesc, const PaxRow *rows, int nrows, bool eager,
				bool compact, bool updatable, PaxRelCache *hints,
				PaxPageShape *shape)
{
	int			ahead = Min(nrows, PaxRowsPerPageGuess(tupdesc, &rows[0]));
	int			regrow = 0;
	double		pack = eager ? 0 : 1;
	PaxRow		first;

	/* a bulk insert's pages are alike: start from the last one's capacity */
	if (!eager && hints->bulk_capacity > 0)
		ahead = Min(nrows, hints->bulk_capacity);

	for (;;)
	{
		double		var_avg = 0;

		for (int i = 0; i < ahead; i++)
			var_avg += rows[i].varbytes;
		var_avg = ahead >= PAX_SHAPE_SAMPLE_ROWS ? var_avg / ahead :
			Max(var_avg / ahead, hints->var_avg);
		PaxChooseShape(tupdesc, rows, ahead, var_avg, eager, pack, hints,
					   compact, updatable, shape);
		if (shape->capacity < ahead && ahead > 1)
			ahead = Max(shape->capacity, 1);
		else if (shape->widths != NULL && shape->capacity > ahead &&
				 ahead < nrows && regrow++ < PAX_ENCODE_REGROW)
		{
			/* encoded values make room for more rows: look at them too */
			ahead = Min(nrows, shape->capacity);
		}
		else if (pack == 1 && shape->capacity > ahead && PaxShapeIsPacked(shape))
		{
			/*
			 * The rows looked at do not fill the page.  Packing made room
			 * for a few more: the packed ranges get room for as many more
			 * rows (rising values need it), once.  The batch ends well
			 * before the page does: the next batch's rows go on too, and
			 * so few rows tell too little about the ranges they need (a
			 * random column's whole range, say): byte widths, whose ranges
			 * keep room.
			 */
			pack = ahead == nrows &&
				ahead * PAX_PACK_MIN_FILL_DEN < shape->capacity * PAX_PACK_MIN_FILL_NUM ?
				0 : (double) shape->capacity / ahead;
		}
		else
			break;
		PaxShapeFree(shape);
	}
	if (!eager)
	{
		hints->bulk_capacity = shape->capacity;
		/*
		 * The bits of the columns packed, for the next page's (sticky); of
		 * a page's worth of rows, its packed encodings, for a batch's end
		 */
		for (int i = 0; i < Min(tupdesc->natts, PAX_HINT_ATTS); i++)
		{
			PaxEncodeHint *h = &hints->hints[i];
			uint8		w = shape->widths ? shape->widths[i] : 0;
			PaxEncoding enc = PaxEncodingOf(w, TupleDescAttr(tupdesc, i));

			if (enc == PAX_ENC_PACKED)
				h->packbits = PaxPackedBits(w);
			if (pack < 1)
				continue;
			/* bit-packed integers and floats, maybe factored or scaled */
			h->lastwidth = enc == PAX_ENC_PACKED || enc == PAX_ENC_FACTOR ||
				enc == PAX_ENC_SCALED_FLOAT ? w : 0;
			h->lastbase = h->lastwidth != 0 ? shape->bases[i] : 0;
			h->lastfactor = enc == PAX_ENC_FACTOR || enc == PAX_ENC_SCALED_FLOAT ?
				shape->factors[i] : 0;
		}
	}

	/*
	 * A row larger than the average may need a smaller capacity.  (Its
	 * values of columns with fixed-width rests or decimal-scaled numerics
	 * take none of the value area: their minipages, in the layout's size,
	 * hold them.)
	 */
	first = rows[0];
	for (int i = 0; shape->widths != NULL && i < tupdesc->natts; i++)
		if (PaxEncodingOpsOf(PaxEncodingOf(shape->widths[i],
										   TupleDescAttr(tupdesc, i)))->inminipage &&
			!first.isnull[i])
		{
			if (first.isnull == rows[0].isnull)
			{
				first.isnull = palloc(tupdesc->natts * sizeof(bool));
				memcpy(first.isnull, rows[0].isnull, tupdesc->natts * sizeof(bool));
			}
			first.isnull[i] = true;
		}
	while (PaxRowPlace(tupdesc, &first, PAX_SPECIAL_START,
					   PaxLayoutSize(tupdesc, shape, NULL),
					   NULL, NULL, 0, false) < 0)
	{
		if (shape->capacity == 1)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("row is too big for a pax page: %zu bytes of variable-length values",
							rows[0].varbytes),
					 errhint("Values of columns with storage PLAIN are never moved to the TOAST table.")));
		shape->capacity /= 2;
	}
	if (first.isnull != rows[0].isnull)
		pfree(first.isnull);
}
