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
 * size.  Under the cleanup lock,
 * in one WAL record: nobody holds a pointer into the page.
 *
 * pax_am/pax_regrow.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "utils/rel.h"

#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_tableam.h"
#include "pax_tidmap.h"

/*
 * PaxRegrowRow reads row r of page into row (values and isnull given) as a
 * plain row ready to be placed (PaxAddRowToPage): its non-null
 * variable-length columns and its value-area bytes when placed below
 * *below, which it lowers past them.  False when the new layout, which
 * keeps the page's null bitmaps and absent columns, could not hold it.
 */
static bool
PaxRegrowRow(TupleDesc tupdesc, Page page, const PaxPageLayout *layout,
			 int r, char **cells, PaxRow *row, int *below)
{
	int			natts = tupdesc->natts;
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
	upper = PaxRowPlace(tupdesc, row, *below, 0, NULL, NULL, 0, false);
	if (upper < 0)
		return false;
	row->varbytes = *below - upper;
	*below = upper;
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

	if (!PaxRegrowRow(tupdesc, page, layout, r, cells, row, &below) ||
		PaxRowPlace(tupdesc, row, ((PageHeader) out)->pd_upper,
					((PageHeader) out)->pd_lower, out, nl, s, false) < 0)
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
 * PaxPageRegrow lays page (a pruned scratch copy of block blkno, row form
 * or compact, in layout) out again in out as a plain row-form page with at
 * least minextra more row slots than its pp_nrows, when its rows' values
 * leave room for them: every row keeps its row number, header and values;
 * a free slot stays free and an item stays an item; the rows of dead (TID
 * offsets), free slots of a compact page, become DEAD items.  Returns false,
 * out undefined, when the rows do not leave the room, or when the page has
 * fewer columns than the relation or a column the plain layout could not
 * hold.  The capacity is the largest, up to half as many slots again, that
 * leaves room for minextra rows of the page's average value-area size.
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
	PaxLayoutCache cache;
	PaxPageLayout *nl;
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
		if (!PaxRegrowRow(tupdesc, page, layout, r, &cells, &row, &below))
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

	memset(out, 0, BLCKSZ);
	PaxPageInit(out, tupdesc, &shape);
	PaxLayoutCacheInit(&cache, natts, CurrentMemoryContext);
	nl = PaxPageGetLayout(rel, tupdesc, out, blkno, &cache);
	for (int r = 0; r < nrows; r++)
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
		if (!PaxRegrowMove(rel, page, layout, blkno, r, out, nl, r, &cells,
						   &row))
			goto free;
	}
	PaxRegrowFinish(rel, page, out, nl, blkno);
	ok = true;

free:
	PaxLayoutCacheFree(&cache);
done:
	if (cells)
		pfree(cells);
	pfree(row.values);
	pfree(row.isnull);
	return ok;
}

/*
 * PaxPageRegrowMapped lays a row-form page without a TID map (a pruned
 * scratch copy of block blkno, in layout) out again in out as a plain page
 * with a map, for when the page has no room for one in place
 * (PaxTidMapCreate): its live rows, in their order, take the first slots,
 * each keeping its TID offset through the map, its header and values; its
 * items become map entries; free slots go.  The capacity is the largest,
 * up to half as many slots again as live rows, that leaves room for the
 * map and a row of the average value-area size.  Returns false, out
 * undefined, when the rows do not leave that room, or the page has fewer
 * columns than the relation or a column the plain layout could not hold.
 */
bool
PaxPageRegrowMapped(Relation rel, Page page, const PaxPageLayout *layout,
					BlockNumber blkno, Page out)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			natts = tupdesc->natts;
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	uint16		entry[PAX_MAX_CAPACITY];	/* each old TID's map entry */
	char	   *cells = NULL;
	PaxRow		row;
	PaxPageShape shape;
	PaxLayoutCache cache;
	PaxPageLayout *nl;
	PaxTidMap	map;
	Size		total;
	int			nlive = 0;
	int			below = PAX_SPECIAL_START;
	int			maxtids = 0;
	int			special;
	int			cap;
	int			s = 0;
	bool		ok = false;

	Assert(!layout->compact && !PaxPageHasTidMap(page));
	if (PaxPageGetHeader(page)->pp_natts != natts || nrows == 0)
		return false;
	PaxPageShapeOf(page, &shape);
	shape.widths = NULL;
	shape.compact = false;
	row.values = palloc(Max(natts, 1) * sizeof(Datum));
	row.isnull = palloc(Max(natts, 1) * sizeof(bool));

	/* the live rows' plain sizes; each old TID's entry, rows' filled below */
	for (int r = 0; r < nrows; r++)
	{
		HeapTupleHeader rh = PaxRowHeader(page, layout->rowhdrs, r);

		entry[r] = PAX_TID_FREE;
		if (PaxRowIsItem(rh))
			entry[r] = PAX_TID_ITEM |
				ItemPointerGetOffsetNumberNoCheck(&rh->t_ctid);
		if (PaxRowIsUnused(rh))
			continue;
		if (!PaxRegrowRow(tupdesc, page, layout, r, &cells, &row, &below))
			goto done;
		nlive++;
	}
	total = PAX_SPECIAL_START - below;
	for (cap = Min(PAX_MAX_CAPACITY, nlive + Max(1, nlive / 2));
		 cap > nlive; cap--)
	{
		shape.capacity = cap;
		maxtids = Min(MaxHeapTuplesPerPage, Max(nrows, 2 * cap));
		if (PaxLayoutSize(tupdesc, &shape, NULL) + total +
			total / Max(nlive, 1) + PaxTidMapSpecialSize(maxtids, cap) <=
			BLCKSZ)
			break;
	}
	if (cap <= nlive)
		goto done;

	/* the new page, its special space made room for the map */
	memset(out, 0, BLCKSZ);
	PaxPageInit(out, tupdesc, &shape);
	PaxLayoutCacheInit(&cache, natts, CurrentMemoryContext);
	nl = PaxPageGetLayout(rel, tupdesc, out, blkno, &cache);
	special = BLCKSZ - PaxTidMapSpecialSize(maxtids, cap);
	memcpy(out + special, out + PAX_SPECIAL_START, sizeof(PaxPageOpaqueData));
	memset(out + special + sizeof(PaxPageOpaqueData), 0,
		   BLCKSZ - special - sizeof(PaxPageOpaqueData));
	((PageHeader) out)->pd_special = special;
	((PageHeader) out)->pd_upper = special;

	/* the live rows in the first slots, as on a page without a map yet */
	for (int r = 0; r < nrows; r++)
	{
		if (PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		if (!PaxRegrowMove(rel, page, layout, blkno, r, out, nl, s, &cells,
						   &row))
			goto free;
		entry[r] = s + 1;
		s++;
	}

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
	ok = true;

free:
	PaxLayoutCacheFree(&cache);
done:
	if (cells)
		pfree(cells);
	pfree(row.values);
	pfree(row.isnull);
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
