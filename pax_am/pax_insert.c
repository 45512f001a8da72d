/*-------------------------------------------------------------------------
 *
 * pax_insert.c
 *	  Inserting rows into pax pages: single rows and whole COPY batches.
 *
 * A row is first prepared: its values are taken from the slot, large or
 * external values go through heap's TOAST code (so the table's TOAST
 * relation holds them, exactly as for heap), and the bytes it needs in the
 * value area are computed.  It is then placed on the relation's current
 * insert target page when it fits there (a free row slot, room in the
 * value area, null bitmaps for its NULL columns, the same column count),
 * or on a new page whose shape (capacity, null bitmaps, zone maps) is
 * chosen for it.
 *
 * Every page change is one generic WAL record (a PaxChange of pax_wal.c
 * logging the bytes each row wrote; a full image for a new page), so crash
 * recovery and physical standbys replay it; no WAL is written for
 * unlogged and temporary relations (and for relations created in the same
 * transaction under wal_level = minimal).  multi_insert (COPY) fills a
 * whole page per record.
 *
 * Locking: at most one buffer lock is held at a time; the relation
 * extension lock is taken only to add a page.
 *
 * pax_am/pax_insert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/hio.h"
#include "access/htup_details.h"
#include "access/detoast.h"
#include "access/toast_internals.h"
#include "access/tupmacs.h"
#include "access/genam.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplesort.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_encode.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/* GUC pax.compact_rows: bulk loads build compact pages (PaxCompactTakes) */
bool		pax_compact_rows = true;

/* Kept rows (pax.h): set by pax_bulk.c when it is loaded. */
Oid			pax_bulk_relid = InvalidOid;
PaxBulkKeepFunc PaxBulkKeepHook = NULL;
PaxBulkPlaceFunc PaxBulkPlaceHook = NULL;
PaxBulkMultiFunc PaxBulkMultiHook = NULL;

/* The running average of a row's value bytes moves 1/this of the way. */
#define PAX_VAR_AVG_WEIGHT		64.0

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

/* Pages with free slots an insert takes from the free space map, at most. */
#define PAX_INSERT_FSM_TRIES	4

/* The insert hints of the relation's backend-local cache (pax_buffers.c). */
static PaxRelCache *
PaxGetInsertHints(Relation rel)
{
	return PaxGetRelCache(rel, 0);
}

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
static void
PaxShapeFree(PaxPageShape *shape)
{
	pfree(shape->absent);
	pfree(shape->nullmap);
	pfree(shape->zone);
	PaxShapeFreeEncodings(shape);
}

/*
 * PaxValuePlace places one non-null variable-length value of a column in
 * the value area below `upper`, never below `lower`.  With page != NULL it
 * writes the value and its offset at *offp (the row's slot in the column's
 * minipage, or a dictionary entry); either way it returns the new upper,
 * or -1 when the value does not fit.  Adapted from fill_val() in
 * heaptuple.c, PostgreSQL 15.
 */
static inline int
PaxValuePlace(Form_pg_attribute att, Datum value, int upper, int lower,
			  Page page, uint16 *offp)
{
	Size		size;
	int			align;
	bool		toshort;

	size = PaxVarStorage(att, value, &align, &toshort);
	upper -= size;
	upper &= ~(align - 1);
	if (upper < lower)
		return -1;
	if (page == NULL)
		return upper;

	if (toshort)
	{
		SET_VARSIZE_SHORT(page + upper, size);
		memcpy(page + upper + 1, VARDATA(DatumGetPointer(value)), size - 1);
	}
	else
		memcpy(page + upper, DatumGetPointer(value), size);
	*offp = (uint16) upper;
	return upper;
}

/*
 * PaxPrefixPlace is PaxValuePlace for a column of a page whose values start
 * with `prefix` (a length byte, the bytes: pax.h, "Prefix encoding"): it
 * places the rest of the value's data as a short varlena, writing into dest
 * when not NULL; -1 also when the value is not stored short or does not
 * start with the prefix.
 */
static inline int
PaxPrefixPlace(Form_pg_attribute att, const uint8 *prefix, Datum value,
			   int upper, int lower, char *dest, uint16 *offp)
{
	const char *data;
	int			len;
	int			size;

	if (!PaxShortData(att, value, &data, &len) || len < prefix[0] ||
		memcmp(data, prefix + 1, prefix[0]) != 0)
		return -1;
	size = VARHDRSZ_SHORT + len - prefix[0];
	upper -= size;
	if (upper < lower)
		return -1;
	if (dest == NULL)
		return upper;
	SET_VARSIZE_SHORT(dest + upper, size);
	memcpy(dest + upper + VARHDRSZ_SHORT, data + prefix[0], len - prefix[0]);
	*offp = (uint16) upper;
	return upper;
}

/*
 * PaxFixRestPlace tells whether a value fits column col of fixed-width
 * rests (pax.h, "Prefix encoding with fixed-width rests") on the page:
 * stored short, starting with the column's prefix, with a rest of at most
 * its width that does not end with a zero byte, and, for rests in symbols,
 * whose bytes are all in the page's alphabet.  With rowidx >= 0, the rest
 * goes in row rowidx's slot, zero-padded.
 */
static inline bool
PaxFixRestPlace(Form_pg_attribute att, Page page, const PaxColumnLayout *col,
				Datum value, int rowidx)
{
	const uint8 *prefix = (const uint8 *) page + col->prefix;
	int			width = col->restwidth;
	const char *data;
	int			len;
	int			rest;
	uint8		padded[PAX_FIXREST_MAX];

	if (!PaxShortData(att, value, &data, &len) || len < prefix[0] ||
		memcmp(data, prefix + 1, prefix[0]) != 0)
		return false;
	rest = len - prefix[0];
	if ((uint32) rest > (uint32) width || (rest > 0 && data[len - 1] == 0))
		return false;
	data += prefix[0];
	memcpy(padded, data, rest);
	memset(padded + rest, 0, width - rest);
	/* in symbols: the codes of the bytes, each in the page's alphabet */
	for (int j = 0; col->symbits != 0 && j < rest; j++)
	{
		int			c = PaxSymCode(prefix + PAX_FIXREST_AREA, padded[j]);

		if (c < 0)
			return false;
		padded[j] = (uint8) c;
	}
	if (rowidx >= 0)
		PaxRestStore(page, col, rowidx, padded);
	return true;
}

/*
 * PaxNumScalePlace tells whether a value fits decimal-scaled numeric column
 * col on the page (pax.h, PAX_NUMSCALE_BASE): read back exactly from its
 * scaled integer (PaxNumScaledKey), of the page's display scale, within
 * base .. base + factor (2^bits - 1), a multiple of the factor from the
 * base.  With rowidx >= 0, its offset goes in row rowidx's bits.
 */
static inline bool
PaxNumScalePlace(Form_pg_attribute att, Page page, const PaxColumnLayout *col,
				 Datum value, int rowidx)
{
	int64		slot[3];		/* base, factor, display scale */
	const char *data;
	int			len;
	int64		k;
	int			dscale;

	PaxNumSlot(page, col, slot);
	if (!PaxShortData(att, value, &data, &len) ||
		!PaxNumScaledKey(data, len, &k, &dscale) || dscale != slot[2] ||
		!PaxEncodedValueFits(k, slot[0], (uint64) slot[1],
							 (UINT64CONST(1) << col->bits) - 1))
		return false;
	if (rowidx >= 0)
		PaxPackedPut(page + col->data, col->bits, rowidx,
					 (uint32) (((uint64) k - (uint64) slot[0]) / (uint64) slot[1]));
	return true;
}

/*
 * PaxRowPlace places a row's variable-length values in the value area below
 * `upper`, never below `lower`, as PaxValuePlace places each, and returns
 * the new upper, or -1 when they do not fit.  On a page with
 * dictionary-encoded columns (page and layout given), a value already in
 * its column's dictionary takes no room and its row gets its code; another
 * needs a free dictionary entry; a value of a prefix-encoded column takes
 * the room of its rest, and does not fit unless it starts with the prefix
 * (PaxPrefixPlace).  With write, the values, offsets, codes and entries go
 * on the page (row slot rowidx); without, the page is only read.  Adapted
 * from heap_fill_tuple() in heaptuple.c, PostgreSQL 15.
 */
static int
PaxRowPlace(TupleDesc tupdesc, const PaxRow *row, int upper, int lower,
			Page page, const PaxPageLayout *layout, int rowidx, bool write)
{
	/*
	 * The dictionary codes the last look at a row found (PaxRowFits, just
	 * before the same row is placed on the same, unchanged, page): -1 for
	 * a value not in its dictionary.
	 */
	static const PaxRow *memo_row = NULL;
	static Page memo_page = NULL;
	static int	memo_upper = -1;
	static int16 memo_codes[MaxTupleAttributeNumber];
	bool		memo_ok = write && memo_row == row && memo_page == page &&
		page != NULL && memo_upper == ((PageHeader) page)->pd_upper;
	int			nvisit = row->nvar >= 0 ? row->nvar : tupdesc->natts;

	if (!write && page != NULL)
	{
		memo_row = row;
		memo_page = page;
		memo_upper = ((PageHeader) page)->pd_upper;
	}
	else
		memo_row = NULL;
	if (upper < lower)
	{
		memo_row = NULL;
		return -1;				/* the minipages alone overflow the page */
	}
	for (int k = 0; k < nvisit && upper >= 0; k++)
	{
		int			i = row->nvar >= 0 ? row->var[k] : k;
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const PaxColumnLayout *col = layout ? &layout->cols[i] : NULL;

		if (att->attlen > 0 || row->isnull[i])
			continue;
		if (col != NULL && col->dict != 0)
		{
			int			code = memo_ok ? memo_codes[i] :
				PaxDictFind(page, col, att, row->values[i]);
			uint16		used = PaxDictUsed(page, col);

			if (!write)
				memo_codes[i] = (int16) code;

			if (code < 0)
			{
				if (used >= col->dictcap)
				{
					memo_row = NULL;
					return -1;	/* the dictionary is full */
				}
				upper = PaxValuePlace(att, row->values[i], upper, lower,
									  write ? page : NULL,
									  &((uint16 *) (page + col->dict))[used]);
				if (upper < 0 || !write)
					continue;
				code = used++;
				memcpy(page + col->dictused, &used, sizeof(uint16));
			}
			if (write)
				PaxDictCodeSet(page, col, rowidx, code);
			continue;
		}
		if (col != NULL && col->numslot != 0)
		{
			/* a decimal-scaled numeric: its bits, no room in the value area */
			if (!PaxNumScalePlace(att, page, col, row->values[i],
								  write ? rowidx : -1))
				upper = -1;
			continue;
		}
		if (col != NULL && col->restwidth != 0)
		{
			/* a fixed-width rest: no room in the value area */
			if (!PaxFixRestPlace(att, page, col, row->values[i],
								 write ? rowidx : -1))
				upper = -1;
			continue;
		}
		if (col != NULL && col->prefix != 0)
		{
			/* (a value without the page's prefix does not fit) */
			upper = PaxPrefixPlace(att, (const uint8 *) page + col->prefix,
								   row->values[i], upper, lower,
								   write ? page : NULL,
								   &((uint16 *) (page + col->data))[rowidx]);
			continue;
		}
		upper = PaxValuePlace(att, row->values[i], upper, lower,
							  write ? page : NULL,
							  write ? &((uint16 *) (page + col->data))[rowidx] : NULL);
	}
	if (upper < 0)
		memo_row = NULL;		/* the row goes elsewhere */
	return upper;
}

/*
 * PaxPageGroupValues lays out again, column by column, the value-area bytes
 * of the rows rows[0..n) that this change has just placed row by row at
 * page slots rowidx[0..n), all of them below `top` (the page's pd_upper
 * before the first of them): each column's values of the group then lie
 * together, so a filter or aggregate over one variable-length column (a
 * numeric, a char(n)) reads a few cache lines of the page instead of the
 * whole value area.  Nobody else sees the rows yet (the page is the
 * change's private copy under an exclusive lock), and a value never moves
 * once its change is written (invariant 3).  Where alignment makes the
 * grouped layout larger than the free space, the rows keep their order.
 */
static void
PaxPageGroupValues(TupleDesc tupdesc, const PaxRow *rows, const int *rowidx,
				   int n, Page page, const PaxPageLayout *layout, int top,
				   PaxChange *chg)
{
	PGAlignedBlock buf;
	int			lower = ((PageHeader) page)->pd_lower;
	int			first = ((PageHeader) page)->pd_upper;
	int			upper = top;

	if (n < 2)
		return;

	/*
	 * Place into a scratch page at the same offsets; the page itself
	 * changes only once all of it fits.  A dictionary-encoded column's
	 * values are its entries this change added (those below top), copied
	 * as stored.
	 */
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const PaxColumnLayout *col = &layout->cols[i];

		if (att->attlen > 0 || col->data == 0 || PaxInMinipage(col))
			continue;
		if (col->dict != 0)
		{
			const uint16 *dict = (const uint16 *) (page + col->dict);
			uint16	   *newdict = (uint16 *) (buf.data + col->dict);
			int			used = PaxDictUsed(page, col);

			for (int e = 0; e < used; e++)
			{
				int			align;
				int			size;

				if (dict[e] < first || dict[e] >= top)
					continue;	/* an older entry, above top */
				size = PaxStoredSize(att, page + dict[e], top - dict[e], &align);
				upper = (upper - size) & ~(align - 1);
				if (size < 0 || upper < lower)
					return;		/* keep the rows' order */
				memcpy(buf.data + upper, page + dict[e], size);
				newdict[e] = (uint16) upper;
			}
			continue;
		}
		for (int k = 0; k < n; k++)
		{
			uint16	   *offp = &((uint16 *) (buf.data + col->data))[rowidx[k]];

			if (rows[k].isnull[i])
				continue;
			if (col->prefix != 0)
				upper = PaxPrefixPlace(att, (const uint8 *) page + col->prefix,
									   rows[k].values[i], upper, lower,
									   buf.data, offp);
			else
				upper = PaxValuePlace(att, rows[k].values[i], upper, lower,
									  buf.data, offp);
			if (upper < 0)
				return;			/* keep the rows' order */
		}
	}
	Assert(upper >= lower);

	/* the offsets went to the scratch page's minipages: take them over */
	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->attlen > 0 || col->data == 0 || PaxInMinipage(col))
			continue;
		if (col->dict != 0)
		{
			uint16	   *dict = (uint16 *) (page + col->dict);
			int			used = PaxDictUsed(page, col);

			for (int e = 0; e < used; e++)
				if (dict[e] >= first && dict[e] < top)
					dict[e] = ((uint16 *) (buf.data + col->dict))[e];
			continue;
		}
		for (int k = 0; k < n; k++)
			if (!rows[k].isnull[i])
				((uint16 *) (page + col->data))[rowidx[k]] =
					((uint16 *) (buf.data + col->data))[rowidx[k]];
	}
	memcpy(page + upper, buf.data + upper, top - upper);
	((PageHeader) page)->pd_upper = upper;
	PaxChangeRange(chg, upper, top - upper);
}

/*
 * PaxCheckHeapRowSize raises heap's error for a row heap_insert refuses:
 * one whose tuple, as heap_form_tuple would build it from the values the
 * TOAST code left, is longer than MaxHeapTupleSize.  Adapted from the size
 * check of RelationGetBufferForTuple() in hio.c, PostgreSQL 15.
 */
static void
PaxCheckHeapRowSize(TupleDesc tupdesc, const PaxRow *row)
{
	Size		len = SizeofHeapTupleHeader;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		if (row->isnull[i])
		{
			len += BITMAPLEN(tupdesc->natts);
			break;
		}
	}
	len = MAXALIGN(len) + heap_compute_data_size(tupdesc, row->values,
												 row->isnull);
	len = MAXALIGN(len);
	if (len > MaxHeapTupleSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("row is too big: size %zu, maximum size %zu",
						len, MaxHeapTupleSize)));
}

/*
 * PaxRowFitsEmptyPage tells whether a row fits a page laid out for it
 * alone: capacity 1, no zone maps, no minipage for its NULL columns (the
 * last shape PaxChooseShape tries).
 */
static bool
PaxRowFitsEmptyPage(TupleDesc tupdesc, const PaxRow *row)
{
	int			maplen = PaxDirMapLen(tupdesc->natts);
	PaxPageShape shape;
	bool		fits;

	shape.natts = tupdesc->natts;
	shape.capacity = 1;
	shape.absent = palloc0(maplen);
	shape.nullmap = palloc0(maplen);
	shape.zone = palloc0(maplen);
	shape.widths = NULL;
	shape.bases = NULL;
	shape.factors = NULL;
	shape.prefixes = NULL;
	shape.compact = false;
	for (int i = 0; i < tupdesc->natts; i++)
		if (row->isnull[i] || TupleDescAttr(tupdesc, i)->attisdropped)
			PaxBitSet(shape.absent, i);
	fits = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START,
					   PaxLayoutSize(tupdesc, &shape, NULL), NULL, NULL, 0,
					   false) >= 0;
	PaxShapeFree(&shape);
	return fits;
}

/*
 * PaxRowMoveOut makes a row heap would store (PaxCheckHeapRowSize) fit an
 * empty pax page: it moves its largest variable-length values, of types
 * that can be toasted, to the TOAST table, as the TOAST code would for
 * a column of storage EXTERNAL, even when the column's storage is PLAIN
 * (where heap keeps them in line): the only other choice would be to
 * refuse a row heap takes.  Values read back the same either way.  A row
 * of fixed-width columns too wide for a pax page (heap's own room then is
 * only the pax directory's 5 bits per column larger) still raises an
 * error.
 */
static void
PaxRowMoveOut(Relation rel, TupleDesc tupdesc, PaxRow *row, int options)
{
	Datum	   *values = palloc(tupdesc->natts * sizeof(Datum));

	memcpy(values, row->values, tupdesc->natts * sizeof(Datum));
	row->values = values;
	for (;;)
	{
		int			biggest = -1;
		Size		biggest_size = 0;
		int			upper;

		for (int i = 0; i < tupdesc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(tupdesc, i);
			Pointer		p = DatumGetPointer(values[i]);

			if (row->isnull[i] || att->attlen != -1 || att->attisdropped ||
				VARATT_IS_EXTERNAL(p) || VARSIZE_ANY(p) <= TOAST_POINTER_SIZE ||
				VARSIZE_ANY(p) <= biggest_size)
				continue;
			if (!TypeIsToastable(att->atttypid))
				continue;
			biggest = i;
			biggest_size = VARSIZE_ANY(p);
		}
		if (biggest < 0 || !OidIsValid(rel->rd_rel->reltoastrelid))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("row is too big for a pax page: %zu bytes of variable-length values",
							row->varbytes),
					 errdetail("A pax page holds a little less than a heap page; a row of %d columns holds less still.",
							   tupdesc->natts)));
		values[biggest] = toast_save_datum(rel, values[biggest], NULL, options);
		upper = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START, 0, NULL, NULL, 0,
							false);
		row->varbytes = PAX_SPECIAL_START - upper;
		if (PaxRowFitsEmptyPage(tupdesc, row))
			return;
	}
}

/*
 * PaxPrepareRow takes a row's values from the slot, toasting them if the
 * row is large or carries external values, and measures its value-area
 * needs.  Arrays are allocated in the current memory context.  Adapted from
 * heap_prepare_insert() in heapam.c, PostgreSQL 15 (its TOAST step).
 */
void
PaxPrepareRow(Relation rel, TupleTableSlot *slot, int options,
			  HeapTuple oldtup, PaxRow *row)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			natts = tupdesc->natts;
	Size		datasize = 0;
	bool		external = false;
	int			upper;

	slot_getallattrs(slot);
	row->slot = slot;
	row->srchdr = NULL;
	row->init = NULL;
	row->values = slot->tts_values;
	row->isnull = slot->tts_isnull;
	row->nvar = 0;
	row->hasnull = false;

	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (row->isnull[i])
		{
			row->hasnull = true;
			continue;
		}
		if (att->attlen > 0)
			datasize += att->attlen;
		else
		{
			if (row->nvar >= PAX_ROW_VARATTS)
				row->nvar = -1;
			else if (row->nvar >= 0)
				row->var[row->nvar++] = (int16) i;
			if (att->attlen == -1 &&
				VARATT_IS_EXTERNAL(DatumGetPointer(row->values[i])))
				external = true;
			datasize += att->attlen == -1 ?
				VARSIZE_ANY(DatumGetPointer(row->values[i])) :
				strlen(DatumGetCString(row->values[i])) + 1;
		}
	}

	/*
	 * Large rows and external values (TOAST pointers of other relations,
	 * expanded and indirect datums) go through a heap tuple: forming it
	 * flattens expanded datums, and heap's TOAST code compresses values
	 * and moves them to our TOAST relation until the row is small enough.
	 * The old version of an updated row (oldtup) has external values: the
	 * TOAST code keeps those the new version shares and deletes the others.
	 */
	if (external || oldtup != NULL ||
		(OidIsValid(rel->rd_rel->reltoastrelid) &&
		 MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(natts)) + datasize >
		 TOAST_TUPLE_THRESHOLD))
	{
		HeapTuple	tuple = heap_form_tuple(tupdesc, row->values, row->isnull);

		if (OidIsValid(rel->rd_rel->reltoastrelid))
			tuple = heap_toast_insert_or_update(rel, tuple, oldtup, options);
		row->values = palloc(natts * sizeof(Datum));
		row->isnull = palloc(natts * sizeof(bool));
		heap_deform_tuple(tuple, tupdesc, row->values, row->isnull);
	}

	upper = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START, 0, NULL, NULL, 0,
						false);
	row->varbytes = PAX_SPECIAL_START - upper;

	/*
	 * The largest row a pax table takes is heap's: refuse a row heap would
	 * (with heap's error, before any page is touched), and make room for
	 * one heap would take that an empty pax page, whose directory and
	 * value offsets cost a few bytes more than heap's line pointer, cannot
	 * hold.  A row anywhere near that size has been through heap's TOAST
	 * code above when it could, so the exact checks run for few rows.
	 */
	if (row->values != slot->tts_values ||
		MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(natts)) + datasize +
		natts * (MAXIMUM_ALIGNOF - 1) > MaxHeapTupleSize)
	{
		PaxCheckHeapRowSize(tupdesc, row);
		if (!PaxRowFitsEmptyPage(tupdesc, row))
			PaxRowMoveOut(rel, tupdesc, row, options);
	}
}

/*
 * The layout cache of single-row inserts and updates, kept across them
 * while they go to one relation (a multi-row insert has a cache of its
 * own): a cache made afresh for each row computed its page's layout afresh,
 * a sixth of an INSERT ... SELECT's instructions.  A page's layout depends
 * on its shape, which each lookup compares, and on the relation's columns
 * (attlen, attalign, attbyval, attisdropped): the cache is emptied when the
 * relation's relcache entry is invalidated (ALTER TABLE, DROP COLUMN) and
 * when rows go to another relation.
 */
static PaxLayoutCache pax_single_layouts;
static Oid	pax_single_relid = InvalidOid;
static bool pax_single_valid = false;

/* PaxSingleLayoutsInval is the relcache callback of pax_single_layouts. */
static void
PaxSingleLayoutsInval(Datum arg, Oid relid)
{
	if (!OidIsValid(relid) || relid == pax_single_relid)
		pax_single_valid = false;
}

/* PaxSingleInsertLayouts returns the layout cache for a single-row insert. */
static PaxLayoutCache *
PaxSingleInsertLayouts(Relation rel)
{
	static bool registered = false;
	int			natts = RelationGetDescr(rel)->natts;

	if (!registered)
	{
		CacheRegisterRelcacheCallback(PaxSingleLayoutsInval, (Datum) 0);
		registered = true;
	}
	if (pax_single_valid && pax_single_relid == RelationGetRelid(rel) &&
		pax_single_layouts.maxatts == natts)
		return &pax_single_layouts;
	if (OidIsValid(pax_single_relid))
		PaxLayoutCacheFree(&pax_single_layouts);
	PaxLayoutCacheInit(&pax_single_layouts, natts, TopMemoryContext);
	pax_single_relid = RelationGetRelid(rel);
	pax_single_valid = true;
	return &pax_single_layouts;
}

/*
 * PaxFitList: the columns of one page that a row's values are checked
 * against before the row goes there (PaxRowFits), gathered once per page
 * of a bulk insert rather than found again for every row among all the
 * columns: those whose minipage has no null bitmap (no NULLs), those
 * absent from the page (only NULLs), and the encoded ones (values within
 * base .. base + maxdelta, times the factor of a factored column, of a
 * scaled column as integers, as PaxEncodedFits tells).
 */
typedef struct PaxFitList
{
	int			nnotnull;
	int			nabsent;
	int			nencoded;
	int16	   *notnull;
	int16	   *absent;
	int16	   *encoded;
	int16	   *attlen;			/* of each encoded column */
	int64	   *base;
	uint64	   *maxdelta;
	uint64	   *factor;			/* 1 unless the column is factored */
	int64	   *divisor;		/* a scaled column's, else 0 */
} PaxFitList;

/* PaxFitListInit allocates a fit list for natts columns. */
static void
PaxFitListInit(PaxFitList *fl, int natts)
{
	fl->nnotnull = fl->nabsent = fl->nencoded = 0;
	fl->notnull = palloc(natts * sizeof(int16));
	fl->absent = palloc(natts * sizeof(int16));
	fl->encoded = palloc(natts * sizeof(int16));
	fl->attlen = palloc(natts * sizeof(int16));
	fl->base = palloc(natts * sizeof(int64));
	fl->maxdelta = palloc(natts * sizeof(uint64));
	fl->factor = palloc(natts * sizeof(uint64));
	fl->divisor = palloc(natts * sizeof(int64));
}

/* PaxFitListFree frees a fit list's arrays. */
static void
PaxFitListFree(PaxFitList *fl)
{
	pfree(fl->notnull);
	pfree(fl->absent);
	pfree(fl->encoded);
	pfree(fl->attlen);
	pfree(fl->base);
	pfree(fl->maxdelta);
	pfree(fl->factor);
	pfree(fl->divisor);
}

/* PaxFitListBuild gathers the fit list of a page laid out in layout. */
static void
PaxFitListBuild(PaxFitList *fl, Page page, const PaxPageLayout *layout)
{
	fl->nnotnull = fl->nabsent = fl->nencoded = 0;
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data == 0)
		{
			fl->absent[fl->nabsent++] = (int16) i;
			continue;
		}
		if (col->nullmap == 0)
			fl->notnull[fl->nnotnull++] = (int16) i;
		if (col->base != 0)
		{
			int			k = fl->nencoded++;

			fl->encoded[k] = (int16) i;
			fl->attlen[k] = col->attlen;
			fl->base[k] = PaxColumnBase(page, col);
			fl->maxdelta[k] = PaxEncodedMaxDelta(col);
			fl->factor[k] = col->factored ?
				(uint64) PaxColumnFactor(page, col) : 1;
			fl->divisor[k] = PaxColumnDivisor(page, col);
		}
	}
}

/*
 * PaxRowFits tells whether a prepared row can go on a page: a free row
 * slot, the same column count, a null bitmap for each of its NULL
 * columns, encoded values within their columns' ranges, and room for its
 * values.  fl, when given, is the page's fit list (PaxFitListBuild).
 */
static bool
PaxRowFits(TupleDesc tupdesc, const PaxRow *row, Page page,
		   const PaxPageLayout *layout, const PaxFitList *fl)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	if (!PaxPageHasFreeSlot(page) || hdr->pp_natts != tupdesc->natts)
		return false;
	if (fl != NULL)
	{
		for (int k = 0; k < fl->nnotnull; k++)
			if (row->isnull[fl->notnull[k]])
				return false;
		for (int k = 0; k < fl->nabsent; k++)
			if (!row->isnull[fl->absent[k]])
				return false;
		for (int k = 0; k < fl->nencoded; k++)
		{
			int			i = fl->encoded[k];
			int64		v;

			if (!row->isnull[i] &&
				(!PaxEncodedKey(row->values[i], fl->attlen[k], fl->divisor[k], &v) ||
				 !PaxEncodedValueFits(v, fl->base[k], fl->factor[k],
									  fl->maxdelta[k])))
				return false;
		}
	}
	else
	{
		for (int i = 0; i < tupdesc->natts; i++)
		{
			const PaxColumnLayout *col = &layout->cols[i];

			if (row->isnull[i] ? (col->data != 0 && col->nullmap == 0) :
				col->data == 0)
				return false;
			if (col->base != 0 && !row->isnull[i] &&
				!PaxEncodedFits(page, col, row->values[i]))
				return false;
		}
	}
	/* (with the layout: values in a dictionary take no room) */
	return PaxRowPlace(tupdesc, row, ((PageHeader) page)->pd_upper,
					   ((PageHeader) page)->pd_lower, page, layout, 0,
					   false) >= 0;
}

static bool PaxRowFrozenPlain(HeapTupleHeader hdr);

/*
 * PaxCompactTakes tells whether a row can go on a compact page: only a row
 * of the batch whose rows the page holds (not a new version of an updated
 * row), which would get the very header they share: a fresh row of the same
 * inserting transaction, command and freezing, with the header not yet
 * changed by VACUUM or a hint (an in-progress transaction gets none), or a
 * rewrite's frozen row without xmax (PaxRowFrozenPlain) beside others.  An
 * emptied page takes a new batch.
 */
static bool
PaxCompactTakes(Page page, const PaxPageLayout *layout, const PaxRow *row,
				TransactionId xid, CommandId cid, int options)
{
	HeapTupleHeader shared = (HeapTupleHeader) (page + layout->rowhdrs);
	uint16		infomask = HEAP_XMAX_INVALID;

	Assert(layout->compact);
	if (row->init || (row->srchdr && !PaxRowFrozenPlain(row->srchdr)))
		return false;
	if (PaxPageGetHeader(page)->pp_nrows == 0)
		return true;
	if (row->srchdr)
	{
		/* a rewrite's frozen rows share the canonical frozen header */
		xid = FrozenTransactionId;
		cid = FirstCommandId;
		infomask |= HEAP_XMIN_FROZEN;
	}
	else if (options & HEAP_INSERT_FROZEN)
		infomask |= HEAP_XMIN_FROZEN;
	return HeapTupleHeaderGetRawXmin(shared) == xid &&
		HeapTupleHeaderGetRawCommandId(shared) == cid &&
		shared->t_infomask == infomask;
}

/*
 * PaxRowFrozenPlain tells whether a row a rewrite keeps has a frozen xmin
 * and no xmax: its header then says only "visible to everyone", which the
 * canonical frozen header (FrozenTransactionId, HEAP_XMIN_FROZEN) a compact
 * page's rows may share says as well.
 */
static bool
PaxRowFrozenPlain(HeapTupleHeader hdr)
{
	return HeapTupleHeaderXminFrozen(hdr) &&
		(hdr->t_infomask & HEAP_XMAX_INVALID) &&
		!TransactionIdIsValid(HeapTupleHeaderGetRawXmax(hdr)) &&
		!HeapTupleHeaderIsSpeculative(hdr);
}

/*
 * PaxPageAddRow stores a prepared row on a page (the private copy of a
 * PaxChange, whose ranges it names), sets its TID in the row's slot and
 * returns the row's index on the page.
 * Adapted from heap_prepare_insert() and RelationPutHeapTuple() in heapam.c
 * and hio.c, PostgreSQL 15.
 */
static int
PaxPageAddRow(Relation rel, const PaxRow *row, Page page,
			  const PaxPageLayout *layout, BlockNumber blkno,
			  TransactionId xid, CommandId cid, int options, PaxChange *chg)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			old_upper = ((PageHeader) page)->pd_upper;
	int			r = PaxPageTakeSlot(page, layout);	/* UNUSED slot or nrows */
	HeapTupleHeader rowhdr = PaxRowHeader(page, (layout)->rowhdrs, r);
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	int			upper;

	Assert(r < layout->capacity && layout->capacity <= PAX_MAX_CAPACITY);
	if (layout->compact && hdr->pp_nrows > 0)
	{
		/* the rows of a compact page share the header its first row set */
		Assert(!row->init);
	}
	else if (layout->compact && row->srchdr)
	{
		/* the canonical frozen header (PaxRowFrozenPlain) */
		memset(rowhdr, 0, PAX_ROWHDR_SIZE);
		rowhdr->t_infomask = HEAP_XMIN_FROZEN | HEAP_XMAX_INVALID;
		HeapTupleHeaderSetXmin(rowhdr, FrozenTransactionId);
		HeapTupleHeaderSetCmin(rowhdr, FirstCommandId);
		HeapTupleHeaderSetNatts(rowhdr, tupdesc->natts);
	}
	else if (row->srchdr)
	{
		/* a rewrite keeps the row's transaction information */
		memcpy(rowhdr, row->srchdr, PAX_ROWHDR_SIZE);
		HeapTupleHeaderSetNatts(rowhdr, tupdesc->natts);
	}
	else
	{
		/* the row header, as heap_prepare_insert sets it */
		memset(rowhdr, 0, PAX_ROWHDR_SIZE);
		rowhdr->t_infomask = HEAP_XMAX_INVALID;
		HeapTupleHeaderSetXmin(rowhdr, xid);
		if (options & HEAP_INSERT_FROZEN)
			HeapTupleHeaderSetXminFrozen(rowhdr);
		HeapTupleHeaderSetCmin(rowhdr, cid);
		HeapTupleHeaderSetXmax(rowhdr, 0);
		HeapTupleHeaderSetNatts(rowhdr, tupdesc->natts);
		if (row->init)
		{
			/* a new row version: HEAP_UPDATED and carried-over lockers */
			rowhdr->t_infomask = row->init->infomask;
			rowhdr->t_infomask2 |= row->init->infomask2;
			HeapTupleHeaderSetXmax(rowhdr, row->init->xmax);
		}
	}
	rowhdr->t_hoff = PAX_ROWHDR_SIZE;
	if (layout->compact)
		ItemPointerSet(&rowhdr->t_ctid, blkno, PAX_CTID_SELF);
	else if (row->init && row->init->spectoken != 0)
		HeapTupleHeaderSetSpeculativeToken(rowhdr, row->init->spectoken);
	else
		ItemPointerSet(&rowhdr->t_ctid, blkno, r + 1);

	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data == 0)
			continue;
		if (row->isnull[i])
		{
			PaxBitSet((bits8 *) page + col->nullmap, r);
			PaxBitSet(hasnull, i);
			if (col->dict != 0)
				PaxDictCodeSet(page, col, r, 0);
			else if (col->restwidth != 0)
				PaxRestStore(page, col, r, NULL);
			else if (col->numslot != 0)
				PaxPackedPut(page + col->data, col->bits, r, 0);
			else if (col->attlen < 0)
				((uint16 *) (page + col->data))[r] = 0;
			continue;
		}
		if (col->attlen <= 0)
			continue;			/* placed below */

		if (col->base != 0)
			PaxEncodedStore(page, col, r, row->values[i]);
		else if (col->byval)
			store_att_byval(page + col->data + r * col->attlen,
							row->values[i], col->attlen);
		else
			memcpy(page + col->data + r * col->attlen,
				   DatumGetPointer(row->values[i]), col->attlen);
		/* (zone maps: PaxInsertRows, for all the page's new rows at once) */
	}

	upper = PaxRowPlace(tupdesc, row, ((PageHeader) page)->pd_upper,
						((PageHeader) page)->pd_lower, page, layout, r, true);
	if (upper < 0)
		elog(ERROR, "pax row does not fit the page it was placed on");
	((PageHeader) page)->pd_upper = upper;
	hdr->pp_nrows = Max(hdr->pp_nrows, r + 1);

	/*
	 * What the row wrote: the headers, directory and zone maps, its row
	 * header, its slot in each minipage (and null bitmap byte), its values;
	 * nothing to name when the whole page is logged (a new page).
	 */
	if (!chg->full)
	{
		PaxChangeRange(chg, 0, layout->rowhdrs);
		PaxChangeRange(chg, (char *) rowhdr - (char *) page, PAX_ROWHDR_SIZE);
		for (int i = 0; i < layout->natts; i++)
		{
			const PaxColumnLayout *col = &layout->cols[i];

			if (col->nullmap != 0)
				PaxChangeRange(chg, col->nullmap + (r >> 3), 1);
			if (col->data != 0)
			{
				uint32		off,
							len;

				PaxRowBytes(col, r, &off, &len);
				PaxChangeRange(chg, off, len);
			}
			if (col->dict != 0)
				PaxChangeRange(chg, col->dict, col->dictcap * sizeof(uint16));
		}
		PaxChangeRange(chg, upper, old_upper - upper);
	}

	if (row->slot)
	{
		ItemPointerSet(&row->slot->tts_tid, blkno, r + 1);
		row->slot->tts_tableOid = RelationGetRelid(rel);

		/*
		 * RETURNING xmin, cmin, ... read the new row's header, as heap's
		 * slot holds the tuple heap_insert/heap_update stamped.
		 */
		if (row->slot->tts_ops == &TTSOpsPaxTuple &&
			!BufferIsValid(((PaxTupleTableSlot *) row->slot)->buffer))
		{
			PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) row->slot;

			memcpy(pslot->rowhdr.bytes, rowhdr, PAX_ROWHDR_SIZE);
			pslot->hashdr = true;
		}
	}
	return r;
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
 * header (PaxCompactTakes).  Maps are allocated in the current memory
 * context.
 */
static void
PaxChooseShape(TupleDesc tupdesc, const PaxRow *rows, int nrows,
			   double var_avg, bool eager, double pack, const PaxRelCache *hints,
			   bool compact, PaxPageShape *shape)
{
	int			natts = tupdesc->natts;
	int			maplen = PaxDirMapLen(natts);
	int			nzones = 0;
	int			nnullable = 0;
	double		saved;
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
							   pack, eager, shape);
	if (shape->widths &&
		PaxKeepUsefulEncodings(tupdesc, shape, Max(var_avg - saved, 0), var_avg))
		var_avg = Max(var_avg - saved, 0);

	/* eager null bitmaps only while they stay cheap */
	if (PaxShapeCapacity(tupdesc, shape, var_avg) &&
		(!eager || nnullable * BITMAPLEN(shape->capacity) <= PAX_EAGER_BITMAP_BYTES))
		return;
	for (int i = 0; i < natts; i++)
	{
		bool		hasnull = false;

		for (int r = 0; r < nrows && anynull && !hasnull; r++)
			hasnull = rows[r].isnull[i];
		if (!hasnull)
			shape->nullmap[i >> 3] &= ~(1 << (i & 7));
	}
	if (PaxShapeCapacity(tupdesc, shape, var_avg))
		return;

	/* very wide rows: no zone maps, no minipages for all-NULL columns */
	memset(shape->zone, 0, maplen);
	if (PaxShapeCapacity(tupdesc, shape, var_avg))
		return;
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
}

/*
 * PaxPageReinit lays out a page afresh, empty, for rows of the relation as
 * it is now (VACUUM reuses an orphan page this way).  The page is a
 * private page copy whose change is logged as a full image.  The caller holds
 * the buffer cleanup-locked.
 */
void
PaxPageReinit(Relation rel, Page page)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxRelCache *hints = PaxGetInsertHints(rel);
	PaxPageShape shape;

	PaxChooseShape(tupdesc, NULL, 0, hints->var_valid ? hints->var_avg : 0,
				   0,
				   true, NULL, false, &shape);
	PaxPageInit(page, tupdesc, &shape);
	PaxShapeFree(&shape);
}

/*
 * PaxExistingPageFor returns a page the row fits on, exclusively locked and
 * laid out in *layout (through cache): the insert target page, else one of
 * a few pages with free slots (VACUUM reclaimed) the free space map offers;
 * or InvalidBuffer.  *vmbuffer is pinned for an all-visible page.  Adapted
 * from RelationGetBufferForTuple() in hio.c, PostgreSQL 15, with the
 * fitting test (PaxRowFits) in place of heap's free space test.
 */
static Buffer
PaxExistingPageFor(Relation rel, const PaxRow *row, BulkInsertState bistate,
				   Buffer *vmbuffer, PaxLayoutCache *cache,
				   PaxPageLayout **layout)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	Buffer		buffer = PaxTargetPage(rel, bistate, vmbuffer);

	if (BufferIsValid(buffer))
	{
		/* (PaxTargetPage returns only pages this transaction may use) */
		*layout = PaxPageGetLayout(rel, tupdesc, BufferGetPage(buffer),
								   BufferGetBlockNumber(buffer), cache);
		if (PaxRowFits(tupdesc, row, BufferGetPage(buffer), *layout, NULL))
			return buffer;
		UnlockReleaseBuffer(buffer);
	}

	for (int tries = 0; tries < PAX_INSERT_FSM_TRIES; tries++)
	{
		buffer = PaxFreeSpacePage(rel, row->varbytes,
								  bistate ? bistate->strategy : NULL,
								  vmbuffer);
		if (!BufferIsValid(buffer))
			break;
		if (!PaxPageLayoutUsable(BufferGetPage(buffer)))
		{
			UnlockReleaseBuffer(buffer);
			continue;
		}
		*layout = PaxPageGetLayout(rel, tupdesc, BufferGetPage(buffer),
								   BufferGetBlockNumber(buffer), cache);
		if (PaxRowFits(tupdesc, row, BufferGetPage(buffer), *layout, NULL))
			return buffer;
		PaxFreeSpaceUpdate(rel, buffer);
		UnlockReleaseBuffer(buffer);
	}
	return InvalidBuffer;
}

/* PaxShapeIsPacked tells whether a shape bit-packs some column. */
static bool
PaxShapeIsPacked(const PaxPageShape *shape)
{
	for (int i = 0; shape->widths != NULL && i < shape->natts; i++)
		if (PaxPackedWidthOk(shape->widths[i]) ||
			PaxFactorWidthOk(shape->widths[i]) ||
			PaxNumScaleWidthOk(shape->widths[i]) ||
			(PaxDictWidthOk(shape->widths[i]) &&
			 PaxDictIsPacked(shape->widths[i])))
			return true;
	return false;
}

/*
 * PaxShapeForRows chooses the shape of a new page for rows[0..nrows), the
 * first of which goes on it: shaped for the rows that will go on it (when
 * fewer fit than were looked at, it looks again at only those), with a
 * capacity small enough for the first row's values.  eager: the rows are
 * inserted one at a time; compact: they share a row header
 * (PaxChooseShape).
 */
static void
PaxShapeForRows(TupleDesc tupdesc, const PaxRow *rows, int nrows, bool eager,
				bool compact, PaxRelCache *hints, PaxPageShape *shape)
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
					   compact, shape);
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

			if (PaxPackedWidthOk(w))
				h->packbits = PaxPackedBits(w);
			if (pack < 1)
				continue;
			h->lastwidth = PaxWidthPackedBits(w) != 0 &&
				TupleDescAttr(tupdesc, i)->attlen > 0 ? w : 0;
			h->lastbase = h->lastwidth != 0 ? shape->bases[i] : 0;
			h->lastfactor = PaxFactorWidthOk(h->lastwidth) ?
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
		if ((PaxFixRestWidthOk(shape->widths[i]) ||
			 PaxSymRestWidthOk(shape->widths[i]) ||
			 PaxNumScaleWidthOk(shape->widths[i])) && !first.isnull[i])
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

/*
 * PaxStartNewPage adds a page shaped for rows[0..nrows) (PaxShapeForRows)
 * and starts its change (a full image) in *chg; returns the page copy, laid
 * out in *layout, with the new buffer, exclusively locked, in *buffer.
 */
static Page
PaxStartNewPage(Relation rel, const PaxRow *rows, int nrows, bool eager,
				bool compact, int options,
				BulkInsertState bistate, PaxRelCache *hints,
				PaxLayoutCache *cache, PaxChange *chg, Buffer *buffer,
				PaxPageLayout **layout)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPageShape shape;
	Page		page;

	PaxShapeForRows(tupdesc, rows, nrows, eager, compact, hints, &shape);
	Assert(shape.capacity >= 1 && shape.capacity <= PAX_MAX_CAPACITY);
	/* the hints start afresh with the rows of the new page */
	for (int i = 0; i < PAX_HINT_ATTS; i++)
	{
		hints->hints[i].set = false;
		hints->hints[i].nvhash = 0;
		hints->hints[i].nvrows = 0;
		hints->hints[i].vbytes = 0;
	}
	*buffer = PaxNewPage(rel, bistate);
	page = PaxChangeStart(chg, rel, *buffer, true);
	PaxPageInit(page, tupdesc, &shape);
	/* rewrites and frozen inserts need none (see PaxLayoutXid) */
	if (!rows[0].srchdr && !(options & HEAP_INSERT_FROZEN))
		PaxPageGetOpaque(page)->pax_layout_xid = PaxLayoutXid(rel);
	PaxShapeFree(&shape);
	*layout = PaxPageGetLayout(rel, tupdesc, page,
							   BufferGetBlockNumber(*buffer), cache);
	return page;
}

/*
 * PaxInsertRows places prepared rows, in order, on the target page and on
 * as many new pages as they need, one generic WAL record per page, as rows
 * of transaction xid (InvalidTransactionId: the current one; rows keeping
 * their headers have theirs).  The caller holds no buffer lock.  Adapted
 * from heap_multi_insert() in
 * heapam.c, PostgreSQL 15 (a page per record, as there).
 */
int
PaxInsertRows(Relation rel, PaxRow *rows, int nrows, CommandId cid,
			  int options, BulkInsertState bistate, TransactionId xid,
			  bool keep_tail)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxRelCache *hints = PaxGetInsertHints(rel);
	PaxLayoutCache local;
	PaxLayoutCache *cache;
	PaxFitList	fits;
	Buffer		vmbuffer = InvalidBuffer;
	int			next = 0;
	bool		compact;

	/*
	 * Rows for logical decoding: not a rewrite's (rows keeping their
	 * headers), nor an update's new version (pax_tuple_update logs the
	 * update whole).
	 */
	bool		logical = rows[0].srchdr == NULL &&
		!(rows[0].init && (rows[0].init->infomask & HEAP_UPDATED)) &&
		PaxLogicalWanted(rel, options);

	if (rows[0].srchdr)
		xid = InvalidTransactionId;
	else if (!TransactionIdIsValid(xid))
		xid = GetCurrentTransactionId();
	compact = pax_compact_rows && nrows > 1 && rows[0].init == NULL;
	for (int k = 0; compact && rows[0].srchdr && k < nrows; k++)
		compact = PaxRowFrozenPlain(rows[k].srchdr);
	if (nrows > 1)
	{
		cache = &local;
		PaxLayoutCacheInit(cache, tupdesc->natts, CurrentMemoryContext);
	}
	else
		cache = PaxSingleInsertLayouts(rel);
	if (nrows > 1)
		PaxFitListInit(&fits, tupdesc->natts);

	/* keep the running estimate of value-area bytes per row */
	for (int i = 0; i < nrows; i++)
	{
		if (!hints->var_valid)
		{
			hints->var_avg = rows[i].varbytes;
			hints->var_valid = true;
		}
		else
			hints->var_avg += (rows[i].varbytes - hints->var_avg) /
				PAX_VAR_AVG_WEIGHT;
	}

	while (next < nrows)
	{
		PaxChange	chg;
		Page		page;
		PaxPageLayout *layout = NULL;
		Buffer		buffer;
		BlockNumber blkno;
		int			first = next;
		int			top;
		int			rowidx[PAX_MAX_CAPACITY];

		buffer = PaxExistingPageFor(rel, &rows[next], bistate, &vmbuffer,
									cache, &layout);
		if (BufferIsValid(buffer) && layout->compact &&
			!PaxCompactTakes(BufferGetPage(buffer), layout, &rows[next], xid,
							 cid, options))
		{
			UnlockReleaseBuffer(buffer);
			buffer = InvalidBuffer;
		}
		/* too few rows left to fill a new page: the caller keeps them */
		if (!BufferIsValid(buffer) && keep_tail &&
			nrows - next < hints->bulk_capacity)
			break;
		if (BufferIsValid(buffer))
		{
			/* a page VACUUM marked all-visible stops being so */
			if (PageIsAllVisible(BufferGetPage(buffer)))
				PaxClearAllVisible(rel, buffer, vmbuffer);
			page = PaxChangeStart(&chg, rel, buffer, false);
		}
		else
			page = PaxStartNewPage(rel, &rows[next], nrows - next, nrows == 1,
								   compact, options, bistate, hints, cache,
								   &chg, &buffer, &layout);
		blkno = BufferGetBlockNumber(buffer);

		/* the page is the change's private copy until PaxChangeFinish */
		top = ((PageHeader) page)->pd_upper;
		if (nrows > 1)
			PaxFitListBuild(&fits, page, layout);
		do
		{
			rowidx[next - first] = PaxPageAddRow(rel, &rows[next], page,
												 layout, blkno, xid, cid,
												 options, &chg);
			next++;
		} while (next < nrows &&
				 PaxRowFits(tupdesc, &rows[next], page, layout, &fits));
		for (int i = 0; i < layout->natts; i++)
		{
			const PaxColumnLayout *col = &layout->cols[i];

			if (col->data != 0 && col->zone >= 0 && col->attlen > 0)
				PaxZoneUpdateRows(page, layout, TupleDescAttr(tupdesc, i), i,
								  &rows[first], next - first);
		}

		/*
		 * The hints count this page's rows where the next page may be
		 * shaped from them (no rows left, or too few to go by: the next page
		 * holds about as many rows as this one); else only the range of all
		 * rows placed, as the page's counts start afresh on the next page.
		 */
		if (pax_encode_minipages)
			PaxEncodeHintsUpdate(tupdesc, &rows[first], next - first,
								 nrows - next >= PAX_SHAPE_SAMPLE_ROWS &&
								 next - first >= PAX_SHAPE_SAMPLE_ROWS,
								 hints);
		PaxPageGroupValues(tupdesc, &rows[first], rowidx, next - first, page,
						   layout, top, &chg);
		PaxChangeFinish(&chg);

		UnlockReleaseBuffer(buffer);
		RelationSetTargetBlock(rel, blkno);
		Assert(next > first);

		/* a record per page, after the page's (as heap_multi_insert) */
		if (logical)
			PaxLogicalLogInserts(rel, &rows[first], next - first,
								 rows[0].init && rows[0].init->spectoken != 0,
								 next == nrows);
	}
	if (BufferIsValid(vmbuffer))
		ReleaseBuffer(vmbuffer);
	if (nrows > 1)
	{
		PaxLayoutCacheFree(cache);
		PaxFitListFree(&fits);
	}
	return next;
}

/*
 * PaxMaterializeSource materialises a pax slot that still reads a row of
 * some page (INSERT ... SELECT from a pax table hands us the scan's slot),
 * as heap's slot is by ExecFetchSlotHeapTuple, so that the new row's
 * header can replace the source row's in it (PaxPageAddRow) for
 * RETURNING's system columns.
 */
static void
PaxMaterializeSource(TupleTableSlot *slot)
{
	if (slot->tts_ops == &TTSOpsPaxTuple &&
		BufferIsValid(((PaxTupleTableSlot *) slot)->buffer))
		ExecMaterializeSlot(slot);
}

/*
 * pax_tuple_insert inserts the slot's row and sets the slot's TID.  Adapted
 * from heapam_tuple_insert() and heap_insert() in heapam_handler.c and
 * heapam.c, PostgreSQL 15.
 */
void
pax_tuple_insert(Relation relation, TupleTableSlot *slot, CommandId cid,
				 int options, BulkInsertState bistate)
{
	PaxRow		row;

	PaxLogicalCheckWrite(relation);
	/* the rows of a new table's bulk insert go in batches (pax_bulk.c) */
	if (PaxBulkKeepHook && PaxBulkKeepHook(relation, slot, cid, options,
											  bistate))
		return;
	PaxMaterializeSource(slot);
	PaxPrepareRow(relation, slot, options, NULL, &row);

	/* as heap_insert: a conflict check against the whole relation */
	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

	PaxInsertRows(relation, &row, 1, cid, options, bistate,
				  InvalidTransactionId, false);
	pgstat_count_heap_insert(relation, 1);
}

/*
 * PaxInsertVersion inserts the slot's row as a new row version: with the
 * xmax and flags of init (HEAP_UPDATED for an UPDATE, the speculative
 * token of INSERT ... ON CONFLICT), toasting it against oldtup, the old
 * version, when that has external values.  Sets the slot's TID.  With
 * newtup, returns there the row as a heap tuple as stored (TOAST pointers
 * included), for logical decoding.  The caller holds no buffer lock and
 * does the SSI and statistics work.
 */
void
PaxInsertVersion(Relation relation, TupleTableSlot *slot, CommandId cid,
				 int options, const PaxRowInit *init, HeapTuple oldtup,
				 HeapTuple *newtup)
{
	PaxRow		row;

	PaxLogicalCheckWrite(relation);
	PaxMaterializeSource(slot);
	PaxPrepareRow(relation, slot, options, oldtup, &row);
	row.init = init;
	if (newtup)
		*newtup = heap_form_tuple(RelationGetDescr(relation), row.values,
								  row.isnull);
	PaxInsertRows(relation, &row, 1, cid, options, NULL, InvalidTransactionId,
				  false);
}

/*
 * pax_multi_insert inserts the rows of slots (COPY), a page per WAL record.
 * Adapted from heap_multi_insert() in heapam.c, PostgreSQL 15.
 */
void
pax_multi_insert(Relation relation, TupleTableSlot **slots, int ntuples,
				 CommandId cid, int options, BulkInsertState bistate)
{
	/* the rows of a batch that would start a page go with the next one */
	if (PaxBulkMultiHook && PaxBulkMultiHook(relation, slots, ntuples, cid,
											 options, bistate))
		return;
	PaxMultiInsert(relation, slots, ntuples, cid, options, bistate,
				   InvalidTransactionId, false);
}

/*
 * PaxMultiInsert is pax_multi_insert for rows of transaction xid (one of
 * ours), InvalidTransactionId for the current one.  Rows of a given xid
 * (pax_bulk.c's kept rows) are counted in the statistics by the caller.
 * With keep_tail, the last rows, too few to fill a new page, are left out
 * (PaxInsertRows); returns the number of rows inserted, the first ones.
 */
int
PaxMultiInsert(Relation relation, TupleTableSlot **slots, int ntuples,
			   CommandId cid, int options, BulkInsertState bistate,
			   TransactionId xid, bool keep_tail)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	PaxRow	   *rows;
	int			placed;

	if (!keep_tail)
		PaxBulkPlaceFor(relation);
	PaxLogicalCheckWrite(relation);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "pax multi_insert",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	rows = palloc(ntuples * sizeof(PaxRow));
	for (int i = 0; i < ntuples; i++)
		PaxPrepareRow(relation, slots[i], options, NULL, &rows[i]);

	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

	placed = PaxInsertRows(relation, rows, ntuples, cid, options, bistate, xid,
						   keep_tail);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	/* kept rows were counted when kept, as heap counts each row inserted */
	if (!TransactionIdIsValid(xid))
		pgstat_count_heap_insert(relation, ntuples);
	return placed;
}

/*
 * pax_finish_bulk_insert ends a bulk insert: the rows pax_tuple_insert kept
 * go in (pax_bulk.c).  Every page is complete in WAL when written.
 */
void
pax_finish_bulk_insert(Relation relation, int options)
{
	PaxBulkPlaceFor(relation);
}
