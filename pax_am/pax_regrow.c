/*-------------------------------------------------------------------------
 *
 * pax_regrow.c
 *	  A pruned page laid out again with more row slots, its rows keeping
 *	  their row numbers; header pages a compact page no longer needs.
 *
 * A row-form page has a fixed number of row slots (its capacity), chosen
 * when it was laid out so that its rows' values filled it.  Heap adds a line
 * pointer wherever it has four bytes; a pax page whose slots are all taken
 * (rows, REDIRECTs and DEAD items) takes no heap-only version however much
 * of its value area pruning freed, and a compact page, laid out for its
 * batch, has no slot to spare at all.  Pruning (pax_prune.c) therefore lays
 * such a page out again when its rows leave the room: every row, item and
 * free slot keeps its row number (TIDs, chains and index entries stay
 * valid), its header is copied whole, its values are placed anew in a
 * plain (unencoded) layout, and the capacity grows by up to half, as far
 * as the room left holds the new slots and a row of the page's average
 * size.  A page that has no room for a TID map, or whose rows the plain
 * layout does not hold (a bulk load's dense page), is laid out with a map
 * instead, its live rows in the first slots; the dense page in encodings
 * with room for updated values.  Under the cleanup lock, in one WAL
 * record: nobody holds a pointer into the page.
 *
 * pax_am/pax_regrow.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type_d.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "pax_page.h"
#include "pax_encode.h"
#include "pax_minipage.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_tableam.h"
#include "pax_tidmap.h"

/*
 * the free slots a page laid out again may get beyond half its rows, where
 * its bytes hold versions for them: a page of a few rows would otherwise
 * get a slot or two (pgbench's branches: one row, two slots, pruned on 86%
 * of transactions).  Pruning (some 20,000 instructions) against the dead
 * versions a scan steps over (some 150 each) is cheapest near 16 versions
 * a pruning.
 */
#define PAX_REGROW_SPARE	16

/*
 * PaxRegrowRow reads row r of page into row (values and isnull given) as a
 * plain row ready to be placed (PaxAddRowToPage): its non-null
 * variable-length columns and its value-area bytes when placed below
 * *below, which it lowers past them.  False when the new layout, which
 * keeps the page's null bitmaps and absent columns, could not hold it.
 * With measure, the rows are only measured for encodings to be chosen,
 * which may hold them in far fewer bytes (a dictionary of one blank-padded
 * filler, pgbench's accounts): each row's bytes are those it takes placed
 * alone, and *below goes as low as their sum takes it, below zero too.
 */
static bool
PaxRegrowRow(TupleDesc tupdesc, Page page, const PaxPageLayout *layout,
			 int r, char **cells, PaxRow *row, int *below, bool measure)
{
	int			natts = tupdesc->natts;
	int			base;
	int			upper;

	PaxPageFillValues(tupdesc, page, layout, r, 0, natts, NULL, 0,
					  row->values, row->isnull,
					  PaxDecodeCellsFor(cells, layout, natts,
										CurrentMemoryContext));
	row->slot = NULL;
	row->srchdr = NULL;
	row->init = NULL;
	row->nvar = 0;
	row->hasnull = false;
	for (int i = 0; i < natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (row->isnull[i])
		{
			if (col->data != 0 && col->nullmap == 0)
				return false;
			row->hasnull = true;
			continue;
		}
		if (col->data == 0)
			return false;
		if (TupleDescAttr(tupdesc, i)->attlen > 0)
			continue;
		if (row->nvar >= PAX_ROW_VARATTS)
			row->nvar = -1;
		else if (row->nvar >= 0)
			row->var[row->nvar++] = (int16) i;
	}
	base = measure ? PAX_SPECIAL_START : *below;
	upper = PaxRowPlace(tupdesc, row, base, 0, NULL, NULL, 0, false);
	if (upper < 0)
		return false;
	row->varbytes = base - upper;
	*below -= row->varbytes;
	return true;
}

/*
 * PaxRegrowHeader copies row r's header from page into dst: its own (a
 * row-form slot's, a compact page's slot or header page entry), or its copy
 * of the header a compact page's rows share, with its own t_ctid.
 */
static void
PaxRegrowHeader(Relation rel, Page page, const PaxPageLayout *layout,
				BlockNumber blkno, int r, HeapTupleHeader dst)
{
	if (layout->compact &&
		PaxCompactStates(page, layout->rowhdrs)[r] == PAX_STATE_SHARED)
		PaxCompactOwnCopy(dst, page, layout->rowhdrs, blkno, r);
	else
		memcpy(dst, PaxRowHeaderOf(rel, page, layout->rowhdrs, r),
			   PAX_ROWHDR_SIZE);
}

/*
 * PaxRegrowMove places row r of page (read as PaxRegrowRow reads it) in
 * slot s of out, laid out in nl, with its header: false when the row does
 * not fit there.
 */
static bool
PaxRegrowMove(Relation rel, Page page, const PaxPageLayout *layout,
			  BlockNumber blkno, int r, Page out, const PaxPageLayout *nl,
			  int s, char **cells, PaxRow *row)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			below = PAX_SPECIAL_START;

	if (!PaxRegrowRow(tupdesc, page, layout, r, cells, row, &below, false) ||
		PaxRowPlace(tupdesc, row, ((PageHeader) out)->pd_upper,
					((PageHeader) out)->pd_lower, out, nl, s, false) < 0)
		return false;
	/* (a plain layout keeps the page's maps; an encoded one may not) */
	if (!PaxRowFitsColumns(tupdesc, row, out, nl))
		return false;
	if (PaxAddRowToPage(rel, row, out, nl, blkno, InvalidTransactionId,
						FirstCommandId, 0, NULL) != s)
		elog(ERROR, "row %d of block %u of relation \"%s\" did not take slot %d when its page was laid out again",
			 r + 1, blkno, RelationGetRelationName(rel), s + 1);
	PaxRegrowHeader(rel, page, layout, blkno, r,
					PaxRowHeader(out, nl->rowhdrs, s));
	return true;
}

/*
 * PaxRegrowFinish completes a page laid out again from page: the null
 * bits, zone maps and free and item flags of the rows placed, and the
 * page's own pd_flags, pd_prune_xid and layout xid.
 */
static void
PaxRegrowFinish(Relation rel, Page page, Page out, const PaxPageLayout *nl,
				BlockNumber blkno)
{
	(void) PaxPageReclaim(out, nl, RelationGetDescr(rel), NULL, 0, blkno, rel);
	((PageHeader) out)->pd_flags = ((PageHeader) page)->pd_flags;
	((PageHeader) out)->pd_prune_xid = ((PageHeader) page)->pd_prune_xid;
	PaxPageGetOpaque(out)->pax_layout_xid = PaxPageGetOpaque(page)->pax_layout_xid;
}

/*
 * PaxRegrowInPlace lays page (block blkno, in layout) out again in out in
 * shape: every row keeps its row number, header and values; a dead row
 * (isdead, by row index) becomes a DEAD item, a compact page's other
 * unused rows free slots, a row-form page's items stay.  False, out
 * undefined, when a row does not fit the shape.
 */
static bool
PaxRegrowInPlace(Relation rel, Page page, const PaxPageLayout *layout,
				 BlockNumber blkno, const bool *isdead, PaxPageShape *shape,
				 char **cells, PaxRow *row, Page out)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	PaxLayoutCache cache;
	PaxPageLayout *nl;
	bool		ok = true;

	memset(out, 0, BLCKSZ);
	PaxPageInit(out, tupdesc, shape);
	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
	nl = PaxPageGetLayout(rel, tupdesc, out, blkno, &cache);
	for (int r = 0; r < nrows && ok; r++)
	{
		HeapTupleHeader dst = PaxRowHeader(out, nl->rowhdrs, r);

		if (PaxRowUnused(page, layout->rowhdrs, r))
		{
			/* a dead row made a DEAD item, a free slot, or an item */
			if (isdead[r])
				PaxRowHeaderSetItem(dst, blkno, -1);
			else if (layout->compact)
				PaxRowHeaderSetUnused(dst);
			else
				memcpy(dst, PaxRowHeader(page, layout->rowhdrs, r),
					   PAX_ROWHDR_SIZE);
			PaxPageGetHeader(out)->pp_nrows = r + 1;
			continue;
		}
		ok = PaxRegrowMove(rel, page, layout, blkno, r, out, nl, r, cells,
						   row);
	}
	if (ok)
		PaxRegrowFinish(rel, page, out, nl, blkno);
	PaxLayoutCacheFree(&cache);
	return ok;
}

/*
 * PaxRegrowMaxTids is the TID map's room of a page of nrows TID offsets laid
 * out again with cap slots: every old offset, and twice the slots at most
 * MaxHeapTuplesPerPage.
 */
static inline int
PaxRegrowMaxTids(int nrows, int cap)
{
	return Min(MaxHeapTuplesPerPage, Max(nrows, 2 * cap));
}

/*
 * PaxRegrowCapacity is the largest capacity from lo to hi (at most
 * PAX_MAX_CAPACITY) at which a page laid out in shape holds its nlive live
 * rows' values (total bytes) and avg more bytes for each slot beyond them,
 * and, mapped, a TID map for them (of nrows TIDs at least, twice the slots
 * at most); lo - 1 when even lo does not fit.  A slot is given only with
 * room for a version's values.  The layout's size grows with the
 * capacity: the largest is found by bisection.
 */
static int
PaxRegrowCapacity(TupleDesc tupdesc, PaxPageShape *shape, int nrows,
				  int nlive, Size total, Size avg, bool mapped, int lo, int hi)
{
	Size		limit = mapped ? BLCKSZ : PAX_SPECIAL_START;

	hi = Min(hi, PAX_MAX_CAPACITY);
	lo--;						/* the largest known to fit, or none */
	while (lo < hi)
	{
		int			cap = lo + (hi - lo + 1) / 2;
		Size		need;

		shape->capacity = cap;
		need = PaxLayoutSize(tupdesc, shape, NULL) + total +
			(Size) Max(cap - nlive, 0) * avg;
		if (mapped)
			need += PaxTidMapSpecialSize(PaxRegrowMaxTids(nrows, cap), cap);
		if (need <= limit)
			lo = cap;
		else
			hi = cap - 1;
	}
	return lo;
}

/*
 * PaxPageRegrow lays page (a pruned scratch copy of block blkno, row form
 * or compact, in layout) out again in out as a plain row-form page with at
 * least minextra more row slots than its pp_nrows, when its rows' values
 * leave room for them: every row keeps its row number, header and values;
 * a free slot stays free and an item stays an item; the rows of dead (TID
 * offsets), free slots of a compact page, become DEAD items.  Returns false,
 * out undefined, when the rows do not leave the room, or when the page has
 * fewer columns than the relation or a column the plain layout could not
 * hold.  The capacity is the largest, up to half as many slots again, that
 * leaves room for minextra rows of the page's average value-area size, or
 * up to PAX_REGROW_SPARE more where the bytes hold such a row a slot
 * (PaxRegrowCapacity).
 */
bool
PaxPageRegrow(Relation rel, Page page, const PaxPageLayout *layout,
			  BlockNumber blkno, const OffsetNumber *dead, int ndead,
			  int minextra, Page out)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			natts = tupdesc->natts;
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	bool		isdead[PAX_MAX_CAPACITY] = {false};
	char	   *cells = NULL;
	PaxRow		row;
	PaxPageShape shape;
	Size		total = 0;
	int			nlive = 0;
	int			below = PAX_SPECIAL_START;
	int			avg;
	int			cap;
	bool		ok = false;

	if (PaxPageGetHeader(page)->pp_natts != natts || nrows == 0 ||
		nrows + minextra > PAX_MAX_CAPACITY)
		return false;

	/*
	 * The plain layout, and a first test without decoding a row (pruning
	 * asks often, and most pages it asks about are full): the values the
	 * page holds take at least as many bytes plain.
	 */
	PaxPageShapeOf(page, &shape);
	shape.widths = NULL;
	shape.compact = false;
	shape.capacity = nrows + minextra;
	total = PAX_SPECIAL_START - ((PageHeader) page)->pd_upper;
	for (int r = 0; r < nrows; r++)
		nlive += !PaxRowUnused(page, layout->rowhdrs, r);
	if (PaxLayoutSize(tupdesc, &shape, NULL) + total +
		(Size) minextra * (total / Max(nlive, 1)) > PAX_SPECIAL_START)
		return false;
	nlive = 0;

	for (int k = 0; k < ndead; k++)
		isdead[dead[k] - 1] = true;
	row.values = palloc(Max(natts, 1) * sizeof(Datum));
	row.isnull = palloc(Max(natts, 1) * sizeof(bool));

	/* the rows' plain sizes, placed in row order as below */
	for (int r = 0; r < nrows; r++)
	{
		if (PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		if (!PaxRegrowRow(tupdesc, page, layout, r, &cells, &row, &below, false))
			goto done;
		nlive++;
	}
	total = PAX_SPECIAL_START - below;
	avg = nlive > 0 ? total / nlive : 0;

	/*
	 * The capacity: up to half as many slots again (REDIRECTs take slots and
	 * no values), with room left for minextra rows of the average size.
	 */
	for (cap = Min(PAX_MAX_CAPACITY, nrows + Max(minextra, nrows / 2));
		 cap >= nrows + minextra; cap--)
	{
		shape.capacity = cap;
		if (PaxLayoutSize(tupdesc, &shape, NULL) + total +
			(Size) minextra * avg <= PAX_SPECIAL_START)
			break;
	}
	if (cap < nrows + minextra)
		goto done;
	/* or up to PAX_REGROW_SPARE more, where the bytes hold them */
	cap = Max(cap, PaxRegrowCapacity(tupdesc, &shape, nrows, nlive, total, avg,
									 false, cap + 1,
									 nrows + PAX_REGROW_SPARE));
	shape.capacity = cap;

	ok = PaxRegrowInPlace(rel, page, layout, blkno, isdead, &shape, &cells,
						  &row, out);
done:
	if (cells)
		pfree(cells);
	pfree(row.values);
	pfree(row.isnull);
	return ok;
}

/*
 * PaxPageIsRoomy tells whether an encoded page's integer and numeric
 * columns all have room for updated values (byte widths, numerics
 * decimal-scaled in at least 24 bits or plain: PaxShapeRoomy's), so that
 * laying it out in encodings again would give it no room it lacks.
 */
bool
PaxPageIsRoomy(Page page, TupleDesc tupdesc)
{
	const uint8 *widths;

	if (!PaxPageIsEncoded(page))
		return false;
	widths = PaxPageGetWidths(page);
	for (int i = 0; i < PaxPageGetHeader(page)->pp_natts; i++)
	{
		uint8		w = widths[i];

		if (PaxNumScaleWidthOk(w) ? PaxNumScaleBits(w) < 24 :
			(PaxPackedWidthOk(w) || PaxFactorWidthOk(w) ||
			 w == PAX_CONST_WIDTH ||
			 (w != 0 && TupleDescAttr(tupdesc, i)->atttypid == NUMERICOID)))
			return false;
	}
	return true;
}

/*
 * PaxRegrowMappedBuild lays page (block blkno, in layout) out in out in
 * shape, with a TID map of maxtids entries: the live rows, in their order,
 * in the first slots, each keeping its TID offset through the map; entries
 * names what every other old TID offset holds (an item, or nothing).
 * False, out undefined, when a row does not fit.
 */
static bool
PaxRegrowMappedBuild(Relation rel, Page page, const PaxPageLayout *layout,
					 BlockNumber blkno, PaxPageShape *shape, int maxtids,
					 const uint16 *entries, char **cells, PaxRow *row,
					 Page out)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	uint16		entry[PAX_MAX_CAPACITY];
	PaxLayoutCache cache;
	PaxPageLayout *nl;
	PaxTidMap	map;
	int			special;
	int			s = 0;
	bool		ok = true;

	/* the new page, its special space made room for the map */
	memcpy(entry, entries, nrows * sizeof(uint16));
	memset(out, 0, BLCKSZ);
	PaxPageInit(out, tupdesc, shape);
	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
	nl = PaxPageGetLayout(rel, tupdesc, out, blkno, &cache);
	special = BLCKSZ - PaxTidMapSpecialSize(maxtids, shape->capacity);
	memcpy(out + special, out + PAX_SPECIAL_START, sizeof(PaxPageOpaqueData));
	memset(out + special + sizeof(PaxPageOpaqueData), 0,
		   BLCKSZ - special - sizeof(PaxPageOpaqueData));
	((PageHeader) out)->pd_special = special;
	((PageHeader) out)->pd_upper = special;

	/* the live rows in the first slots, as on a page without a map yet */
	for (int r = 0; r < nrows && ok; r++)
	{
		if (PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		ok = PaxRegrowMove(rel, page, layout, blkno, r, out, nl, s, cells,
						   row);
		entry[r] = ++s;
	}
	if (ok)
	{
		/* the map: every old TID offset keeps what it named */
		PaxPageGetHeader(out)->pp_flags |= PAX_PAGE_TIDMAP;
		map = PaxPageTidMap(out);
		map->maxtids = maxtids;
		map->ntids = nrows;
		for (int r = 0; r < nrows; r++)
		{
			PaxTidMapTids(map)[r] = entry[r];
			if (entry[r] != PAX_TID_FREE && !(entry[r] & PAX_TID_ITEM))
				PaxTidMapSlots(map)[entry[r] - 1] = r + 1;
		}
		PaxTidMapTrim(out);
		PaxRegrowFinish(rel, page, out, nl, blkno);
	}
	PaxLayoutCacheFree(&cache);
	return ok;
}

/*
 * PaxRegrowMayFit tells, without decoding a row, whether page's nlive live
 * rows (of nrows slots) could fit a row-form page with a free slot and a
 * TID map, laid out again by PaxPageRegrowMapped.
 * Plain (encoded false), in its own shape, its value area (compacted: the
 * caller pruned it) moving whole, less a sixteenth for alignment padding:
 * a lower bound.  In PaxShapeRoomy's encodings, each row takes a header
 * and at least 2 bytes a roomy integer column, its width a column of
 * another fixed-width type (a lower bound), and, estimated from the page's
 * own bytes, its minipages' bytes a slot and its values' bytes a live row
 * with the page's header, directory and zone maps: encodings chosen for
 * fewer rows are seldom narrower (one page of 2,761 that fit was refused
 * in a TPC-C run, to be laid out when another of its rows dies).  Pruning
 * asks about full pages often: a compact page of 291 narrow rows
 * (pgbench_accounts') never fits, nor one of 26 wide rows with one or two
 * dead (TPC-C's stock), nor a row-form page filled by inserts.
 */
static bool
PaxRegrowMayFit(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
				int nrows, int nlive, bool encoded)
{
	PageHeader	phdr = (PageHeader) page;
	Size		values = phdr->pd_special - phdr->pd_upper;
	Size		tidmap = PaxTidMapSpecialSize(PaxRegrowMaxTids(nrows, nlive + 1),
											  nlive + 1);
	Size		perrow = PAX_ROWHDR_SIZE;
	Size		minipages;
	Size		need;
	PaxPageShape shape;

	if (nlive >= PAX_MAX_CAPACITY)
		return false;
	if (!encoded)
	{
		PaxPageShapeOf(page, &shape);
		shape.widths = NULL;
		shape.compact = false;
		values -= values / 16;
		return PaxRegrowCapacity(tupdesc, &shape, nrows, nlive, values,
								 values / Max(nlive, 1), true, nlive + 1,
								 nlive + 1) == nlive + 1;
	}
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (att->attisdropped || att->attlen < 0)
			continue;
		perrow += PaxEncodeEligible(att) && att->attlen > 2 ? 2 : att->attlen;
	}

	/*
	 * The page's header, directory and zone maps, its minipages' bytes a
	 * slot (sized by capacity) and its values' bytes a live row (the
	 * caller pruned it: dead rows' values are gone), each row with a header
	 */
	minipages = phdr->pd_lower - layout->rowhdrs -
		PaxRowAreaSize(layout->compact, layout->capacity);
	need = layout->rowhdrs + tidmap +
		(nlive + 1) * (PAX_ROWHDR_SIZE + minipages / Max(layout->capacity, 1) +
					   values / Max(nlive, 1));
	return SizeOfPageHeaderData + (Size) (nlive + 1) * perrow + tidmap <= BLCKSZ &&
		need <= BLCKSZ;
}

/*
 * PaxPageRegrowMapped lays a page without a TID map (a pruned scratch copy
 * of block blkno, row form or compact, in layout) out again in out as a
 * row-form page with a map: its live rows, in their order, take the first
 * slots, each keeping its TID offset through the map, its header and
 * values; its items become map entries, and so do the rows of dead (TID
 * offsets: a compact page's rows pruning made dead) as DEAD items; free
 * slots go.  Plain, for a page that has no room for a map in place
 * (PaxTidMapCreate); or, with encoded, for a page whose rows the plain
 * layout does not hold (a bulk load's dense page, TPC-C's stock: a header
 * a row on top of its values leaves no room for a new version, and the
 * constant and packed columns of its batch's encodings take no updated
 * value), in encodings chosen for its live rows as a batch's page's
 * (PaxChooseShape) with room in the integer and numeric columns for
 * updated values (PaxShapeRoomy), its null bitmaps kept.  The capacity is
 * the largest that leaves room for the map and a row of the average
 * value-area size for each slot beyond the live rows, up to half as many
 * slots again or PAX_REGROW_SPARE more (PaxRegrowCapacity).  Returns
 * false, out undefined, when the rows do not leave that room, when the
 * page has fewer columns than the relation or a column the layout could
 * not hold, or, with encoded, when it is a plain row-form page (rows
 * inserted one at a time, whose plain values take any update) or already
 * so encoded (PaxPageIsRoomy).
 */
bool
PaxPageRegrowMapped(Relation rel, Page page, const PaxPageLayout *layout,
					BlockNumber blkno, const OffsetNumber *dead, int ndead,
					bool encoded, Page out)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			natts = tupdesc->natts;
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	uint16		entry[PAX_MAX_CAPACITY];	/* each old TID's map entry */
	MemoryContext cxt,
				old;
	char	   *cells = NULL;
	PaxRow	   *rows;
	PaxRow		row;
	PaxPageShape shape,
				was;
	Size		total;
	int			nlive = 0;
	int			below = PAX_SPECIAL_START;
	int			maxtids = 0;
	int			cap;
	bool		ok = false;

	if (PaxPageGetHeader(page)->pp_natts != natts || nrows == 0 ||
		PaxPageHasTidMap(page) ||
		(encoded && (!pax_encode_minipages ||
					 (!layout->compact && (!PaxPageIsEncoded(page) ||
										   PaxPageIsRoomy(page, tupdesc))))))
		return false;
	for (int r = 0; r < nrows; r++)
		nlive += !PaxRowUnused(page, layout->rowhdrs, r);
	if (!PaxRegrowMayFit(page, layout, tupdesc, nrows, nlive, encoded))
		return false;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "pax page laid out again",
								ALLOCSET_DEFAULT_SIZES);
	old = MemoryContextSwitchTo(cxt);

	/* each old TID's entry (rows' filled as they are placed) */
	for (int r = 0; r < nrows; r++)
	{
		HeapTupleHeader rh;

		entry[r] = PAX_TID_FREE;
		if (layout->compact || !PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		rh = PaxRowHeader(page, layout->rowhdrs, r);
		if (PaxRowIsItem(rh))
			entry[r] = PAX_TID_ITEM |
				ItemPointerGetOffsetNumberNoCheck(&rh->t_ctid);
	}
	for (int k = 0; k < ndead; k++)
		entry[dead[k] - 1] = PAX_TID_ITEM;

	/*
	 * The live rows' plain sizes; with encoded, each row kept (its values
	 * copied) to choose the encodings from, else one row read after another.
	 */
	rows = palloc0((encoded ? nrows : 1) * sizeof(PaxRow));
	for (int r = 0, k = 0; r < nrows; r++)
	{
		PaxRow	   *pr = &rows[encoded ? k : 0];

		if (PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		if (pr->values == NULL)
		{
			pr->values = palloc(Max(natts, 1) * sizeof(Datum));
			pr->isnull = palloc(Max(natts, 1) * sizeof(bool));
		}
		if (!PaxRegrowRow(tupdesc, page, layout, r, &cells, pr, &below,
						  encoded))
			goto done;
		for (int i = 0; i < natts && encoded; i++)
			if (!pr->isnull[i] && !TupleDescAttr(tupdesc, i)->attbyval)
				pr->values[i] = datumCopy(pr->values[i], false,
										  TupleDescAttr(tupdesc, i)->attlen);
		k++;
	}
	total = PAX_SPECIAL_START - below;
	row.values = palloc(Max(natts, 1) * sizeof(Datum));
	row.isnull = palloc(Max(natts, 1) * sizeof(bool));
	if (!encoded)
	{
		PaxPageShapeOf(page, &shape);
		shape.widths = NULL;
		shape.compact = false;
	}
	else
	{
		/* a batch's encodings with room, the page's null bitmaps kept */
		if (nlive == 0)
			goto done;
		PaxChooseShape(tupdesc, rows, nlive, (double) total / nlive, false,
					   1.0, NULL, false, true, &shape);
		PaxShapeRoomy(tupdesc, rows, nlive, &shape);
		PaxPageShapeOf(page, &was);
		for (int i = 0; i < natts; i++)
			if (PaxBitIsSet(was.nullmap, i) && !PaxBitIsSet(shape.absent, i))
				PaxBitSet(shape.nullmap, i);
		shape.compact = false;

		/* laid out with one free slot first, which tells the values' bytes */
		shape.capacity = nlive + 1;
		maxtids = PaxRegrowMaxTids(nrows, shape.capacity);
		if (shape.capacity > PAX_MAX_CAPACITY ||
			PaxLayoutSize(tupdesc, &shape, NULL) +
			PaxTidMapSpecialSize(maxtids, shape.capacity) > BLCKSZ ||
			!PaxRegrowMappedBuild(rel, page, layout, blkno, &shape, maxtids,
								  entry, &cells, &row, out))
			goto done;
		total = ((PageHeader) out)->pd_special - ((PageHeader) out)->pd_upper;
	}
	/*
	 * As many slots beyond the live rows as the bytes hold a row of the
	 * average value-area size for each, up to half as many again or
	 * PAX_REGROW_SPARE: a slot without room for its version's values would
	 * only take its minipages' bytes from the versions that fit.
	 */
	cap = PaxRegrowCapacity(tupdesc, &shape, nrows, nlive, total,
							total / Max(nlive, 1), true, nlive + 1,
							nlive + Max(nlive / 2, PAX_REGROW_SPARE));
	if (cap <= nlive)
		goto done;
	shape.capacity = cap;
	maxtids = PaxRegrowMaxTids(nrows, cap);
	ok = (encoded && cap == nlive + 1) ||
		PaxRegrowMappedBuild(rel, page, layout, blkno, &shape, maxtids,
							 entry, &cells, &row, out);
done:
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return ok;
}

/*
 * PaxCompactFreeHeaderPage lays out afresh, empty, for the relation's rows,
 * the header page hblk that a compact page no longer names (no row's header
 * is on it any more: the caller logged the page without the name first, so
 * a crash in between leaves only a header page nobody reads), and offers it
 * to inserts.  The caller holds the compact page, or the row-form page it
 * became, locked (the lock order: it, then this).
 */
void
PaxCompactFreeHeaderPage(Relation rel, BlockNumber hblk,
						 BufferAccessStrategy strategy)
{
	Buffer		hbuf = ReadBufferExtended(rel, MAIN_FORKNUM, hblk,
										  RBM_NORMAL, strategy);
	PaxChange	chg;
	Page		copy;
	Size		avail;

	LockBuffer(hbuf, BUFFER_LOCK_EXCLUSIVE);
	if (!(PaxPageGetHeader(BufferGetPage(hbuf))->pp_flags & PAX_PAGE_HEADERS))
	{
		UnlockReleaseBuffer(hbuf);
		return;
	}
	copy = PaxChangeStart(&chg, rel, hbuf, true);
	PaxReinitOrphan(rel, copy);
	PaxChangeFinish(&chg);
	avail = PaxFsmValue(rel, BufferGetPage(hbuf));
	UnlockReleaseBuffer(hbuf);
	RecordPageWithFreeSpace(rel, hblk, avail);
}
