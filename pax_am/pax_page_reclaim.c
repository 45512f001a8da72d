/*-------------------------------------------------------------------------
 *
 * pax_page_reclaim.c
 *	  Reclaiming a pax page's dead rows: VACUUM's and pruning's compaction.
 *
 * Under a cleanup lock, PaxPageReclaim (VACUUM) and PaxPagePruneApply
 * (pruning) clear dead rows' slots, move the surviving values of the value
 * area together and recompute the page's has-null bits and zone maps
 * (invariant 3 of pax_am/README: values move only under a cleanup lock).
 *
 * pax_am/pax_page_reclaim.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc_details.h"
#include "access/tupmacs.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "storage/buf_internals.h"
#include "storage/procarray.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_tidmap.h"

static bool PaxCompactValueArea(Page page, const char *scratch,
								const PaxPageLayout *layout,
								TupleDesc tupdesc, BlockNumber blkno,
								bool maps);

/*
 * PaxReclaimMove copies one stored variable-length value, at *offp in the
 * scratch copy of the page (at or above old_upper), down to *upper in the
 * page and points *offp at it: for a row's value (row >= 0) or a
 * dictionary entry (row -1).  False when alignment padding leaves no room
 * above pd_lower.
 */
static inline bool
PaxReclaimMove(Page page, const char *scratch, Form_pg_attribute att,
			   uint16 *offp, int old_upper, int *upper, BlockNumber blkno,
			   int attno, int row)
{
	uint16		special = ((PageHeader) scratch)->pd_special;
	const char *src;
	int			size;
	int			align;

	if (*offp < old_upper || *offp >= special)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid value offset in pax page: block %u, column %d, row %d",
						blkno, attno + 1, row + 1)));
	src = scratch + *offp;
	size = PaxStoredSize(att, src, special - *offp, &align);
	if (size < 0 || *offp + size > special)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid value length in pax page: block %u, column %d, row %d",
						blkno, attno + 1, row + 1)));
	*upper = (*upper - size) & ~(align - 1);
	if (*upper < ((PageHeader) page)->pd_lower)
		return false;
	/* in place already: no value written since lies at or below *upper */
	if (*offp != *upper)
	{
		memcpy(page + *upper, src, size);
		*offp = (uint16) *upper;
	}
	return true;
}

/*
 * PaxReclaimTid carries out one entry of a reclaim or a pruning on a page
 * with a TID map (pax_tidmap.h): TID offset off becomes free (unused:
 * VACUUM's dead row or DEAD item whose index entries are gone, pruning's
 * dead heap-only version), a REDIRECT to TID offset target, or a DEAD item
 * (target 0).  A row's slot is freed at once: items take none.  A live
 * heap-only version listed as unused only loses its stale-entries mark.
 */
static void
PaxReclaimTid(Page page, const PaxPageLayout *layout, int off, bool unused,
			  int target, BlockNumber blkno, Relation rel)
{
	PaxTidMap	map = PaxPageTidMap(page);
	int			slot;
	int			cur;
	PaxTidKind	kind = PaxTidWhat(page, layout->rowhdrs, off, &slot, &cur);

	if (unused && kind == PAX_TIDK_ROW &&
		PaxRowHasStaleEntries(PaxRowHeader(page, layout->rowhdrs, slot)))
	{
		PaxRowHeader(page, layout->rowhdrs, slot)->t_infomask2 &= ~PAX_ROW_ITEM;
		return;
	}
	if (kind == PAX_TIDK_NONE || (unused && kind == PAX_TIDK_REDIRECT) ||
		(!unused && kind == PAX_TIDK_DEAD))
		elog(ERROR, "dead row (%u,%d) of relation \"%s\" is not a row",
			 blkno, off, RelationGetRelationName(rel));
	if (slot >= 0)
	{
		PaxRowClear(page, layout, slot, true);
		PaxTidMapSlots(map)[slot] = 0;
	}
	PaxTidMapTids(map)[off - 1] = unused ? PAX_TID_FREE :
		PAX_TID_ITEM | Max(target, 0);
}

/*
 * PaxReclaimCore clears the slots a reclaim or a pruning frees (a PaxChange
 * copy, with the buffer cleanup-locked): the rows of unused become UNUSED
 * slots (a DEAD item among them too: VACUUM's phase 3), those of dead DEAD
 * items and those of redirect_from REDIRECTs to redirect_to (pruning);
 * lowers pp_nrows past trailing UNUSED slots that are not items, and with
 * values compacts the value area and, with maps too, recomputes HASNULL,
 * ZONESET and the zone maps from the rows left; a live heap-only version
 * listed in unused only loses its stale-entries mark
 * (PaxRowHasStaleEntries).  Returns the value-area bytes freed.
 *
 * The compaction is one linear pass without a sort: the page is copied to
 * a scratch block, then the values of the rows left are copied back in
 * row order, growing down from pd_special, and their offsets rewritten.
 * Everything that must survive stays outside the hole between pd_lower
 * and pd_upper (README, invariant 1): slots, headers and minipages below
 * pd_lower, values above the new pd_upper.  The compaction plays the part
 * of PageRepairFragmentation() (bufpage.c) in lazy_vacuum_heap_page()
 * (vacuumlazy.c) and heap_page_prune_execute() (pruneheap.c),
 * PostgreSQL 15.
 */
static int
PaxReclaimCore(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
			   const OffsetNumber *unused, int nunused,
			   const OffsetNumber *dead, int ndead,
			   const OffsetNumber *redirect_from,
			   const OffsetNumber *redirect_to, int nredirect,
			   BlockNumber blkno, Relation rel, bool values, bool maps)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	PaxIOBlock	scratch;
	int			nrows = hdr->pp_nrows;
	int			keep = 0;		/* rows below stay (compact DEAD rows) */
	bool		any_unused = false;
	bool		any_item = false;
	int			freed;

	for (int k = 0; k < nunused + ndead + nredirect; k++)
	{
		int			r;
		int			target = -1;
		bool		item = k >= nunused;

		if (k < nunused)
			r = unused[k] - 1;
		else if (k < nunused + ndead)
			r = dead[k - nunused] - 1;
		else
		{
			r = redirect_from[k - nunused - ndead] - 1;
			target = redirect_to[k - nunused - ndead] - 1;
		}
		if (PaxPageHasTidMap(page))
		{
			PaxReclaimTid(page, layout, r + 1, !item, target + 1, blkno, rel);
			continue;
		}

		/*
		 * VACUUM removed the index entries a heap-only version's slot kept
		 * from its DEAD item (PaxRowHasStaleEntries): the version stays.
		 */
		if (k < nunused && r >= 0 && r < nrows && !layout->compact &&
			PaxRowHasStaleEntries(PaxRowHeader(page, layout->rowhdrs, r)))
		{
			PaxRowHeader(page, layout->rowhdrs, r)->t_infomask2 &= ~PAX_ROW_ITEM;
			continue;
		}
		/* a row, or an item VACUUM frees or pruning turns into another */
		if (r < 0 || r >= nrows ||
			(PaxRowUnused(page, layout->rowhdrs, r) &&
			 (layout->compact ||
			  !PaxRowIsItem(PaxRowHeader(page, layout->rowhdrs, r)))))
			elog(ERROR, "dead row (%u,%d) of relation \"%s\" is not a row",
				 blkno, r + 1, RelationGetRelationName(rel));
		PaxRowClear(page, layout, r, true);
		/* a compact page's DEAD row keeps its row number: the caller's item */
		if (item && layout->compact)
			keep = Max(keep, r + 1);
		else if (item)
			PaxRowHeaderSetItem(PaxRowHeader(page, layout->rowhdrs, r),
								blkno, target);
	}
	while (nrows > keep && PaxRowUnused(page, layout->rowhdrs, nrows - 1) &&
		   (layout->compact ||
			!PaxRowIsItem(PaxRowHeader(page, layout->rowhdrs, nrows - 1))))
		PaxRowClear(page, layout, --nrows, false);
	hdr->pp_nrows = nrows;
	if (PaxPageHasTidMap(page))
		PaxTidMapTrim(page);

	freed = 0;					/* the values stay in place */
	if (values)
	{
		memcpy(scratch.data, page, BLCKSZ);
		if (PaxCompactValueArea(page, scratch.data, layout, tupdesc, blkno,
								maps))
			freed = ((PageHeader) page)->pd_upper -
				((PageHeader) scratch.data)->pd_upper;
	}

	for (int r = 0; r < nrows; r++)
	{
		if (!PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		any_unused = true;
		any_item |= !layout->compact &&
			PaxRowIsItem(PaxRowHeader(page, layout->rowhdrs, r));
	}
	if (any_unused)
		hdr->pp_flags |= PAX_PAGE_HAS_UNUSED;
	else
		hdr->pp_flags &= ~PAX_PAGE_HAS_UNUSED;
	if (any_item)
		hdr->pp_flags |= PAX_PAGE_HAS_ITEMS;
	else
		hdr->pp_flags &= ~PAX_PAGE_HAS_ITEMS;
	return freed;
}

/*
 * PaxCompactMaps recomputes a page's HASNULL and ZONESET bits and its zone
 * maps from the rows it keeps (the caller cleared the bits).
 */
static void
PaxCompactMaps(Page page, const PaxPageLayout *layout, TupleDesc tupdesc)
{
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;

	for (int r = 0; r < nrows; r++)
	{
		if (PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		for (int i = 0; i < layout->natts; i++)
		{
			const PaxColumnLayout *col = &layout->cols[i];

			if (col->data == 0)
				continue;
			if (col->nullmap != 0 && PaxBitIsSet((bits8 *) page + col->nullmap, r))
				PaxBitSet(hasnull, i);
			else if (col->attlen > 0 && col->zone >= 0 && !col->dropped)
				PaxZoneUpdate(page, layout, TupleDescAttr(tupdesc, i), i,
							  PaxFixedValue(page, col, r));
		}
	}
}

/*
 * PaxCompactValueArea moves the values of a page's rows (and dictionary
 * entries) together below its pd_special, reading them from scratch, a copy
 * of the page taken before (whose pd_special bounds the values), and with
 * maps recomputes HASNULL, ZONESET and the zone maps from the rows.  The
 * compaction is one linear pass without a sort: values are copied back in
 * row order, growing down, and their offsets rewritten; a value already
 * where the pass puts it is not copied, and a value rows share (versions
 * of a row, PaxValueShared) is copied once.  Only the columns whose rows'
 * values lie behind offsets in the value area are visited (not fixed-width,
 * dictionary or in-minipage ones).  When alignment padding leaves no room,
 * the page is restored from scratch and false returned.
 */
static bool
PaxCompactValueArea(Page page, const char *scratch, const PaxPageLayout *layout,
					TupleDesc tupdesc, BlockNumber blkno, bool maps)
{
	PageHeader	phdr = (PageHeader) page;
	int			maplen = PaxDirMapLen(layout->natts);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			upper = phdr->pd_special;
	int			old_upper = ((PageHeader) scratch)->pd_upper;
	int16		varcols[MaxTupleAttributeNumber];
	int			nvar = 0;
	uint64		moved[BLCKSZ / 64];
	uint16		newoff[BLCKSZ];

	if (maps)
	{
		memset(PaxPageGetDirMap(page, PAX_DIR_HASNULL), 0, maplen);
		memset(PaxPageGetDirMap(page, PAX_DIR_ZONESET), 0, maplen);
		PaxCompactMaps(page, layout, tupdesc);
	}
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (PaxInValueArea(col))
			varcols[nvar++] = i;
	}

	/*
	 * The rows left: values back from the scratch copy.  A value versions
	 * of a row share (PaxValueShared) moves once: moved[] marks the old
	 * offsets already moved, newoff[] (set only where marked) their new
	 * ones.
	 */
	memset(moved, 0, sizeof(moved));
	for (int r = 0; r < nrows && nvar > 0; r++)
	{
		if (PaxRowUnused(page, layout->rowhdrs, r))
			continue;
		for (int k = 0; k < nvar; k++)
		{
			int			i = varcols[k];
			const PaxColumnLayout *col = &layout->cols[i];
			uint16	   *offp = &((uint16 *) (page + col->data))[r];
			uint16		old = *offp;

			if (col->nullmap != 0 && PaxBitIsSet((bits8 *) page + col->nullmap, r))
				continue;
			if (old < BLCKSZ && (moved[old / 64] & (UINT64CONST(1) << (old % 64))))
			{
				*offp = newoff[old];
				continue;
			}
			if (!PaxReclaimMove(page, scratch, TupleDescAttr(tupdesc, i),
								offp, old_upper, &upper, blkno, i, r))
				goto overflow;
			moved[old / 64] |= UINT64CONST(1) << (old % 64);	/* (old < special) */
			newoff[old] = *offp;
		}
	}

	/* a dictionary keeps all its entries, used by some row or not */
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		uint16	   *dict;
		int			used;

		if (col->dict == 0)
			continue;
		dict = (uint16 *) (page + col->dict);
		used = PaxDictUsed(page, col);
		if (used > col->dictcap)
			ereport(ERROR,
					(errcode(ERRCODE_DATA_CORRUPTED),
					 errmsg("invalid dictionary in pax page: block %u, column %d has %d entries of %d",
							blkno, i + 1, used, col->dictcap)));
		for (int e = 0; e < used; e++)
			if (!PaxReclaimMove(page, scratch, TupleDescAttr(tupdesc, i),
								&dict[e], old_upper, &upper, blkno, i, -1))
				goto overflow;
	}
	phdr->pd_upper = upper;
	return true;

overflow:
	/* padding outgrew what was freed: keep the values in place */
	memcpy(page, scratch, BLCKSZ);
	return false;
}

/*
 * PaxPageMoveSpecial lowers the pd_special of a page (a private copy of a
 * cleanup-locked buffer, in layout) to special, moving its values below
 * it; the opaque data moves with it, the rest of the special space is
 * zeroed for the caller (PaxTidMapCreate).  Returns false, the page
 * unchanged, when the values do not fit below special.
 */
static bool
PaxPageMoveSpecial(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
				   BlockNumber blkno, int special)
{
	PaxIOBlock	scratch;
	PageHeader	phdr = (PageHeader) page;
	int			old_special = phdr->pd_special;

	Assert(special == MAXALIGN(special) && special <= old_special);
	if (special < phdr->pd_lower)
		return false;
	memcpy(scratch.data, page, BLCKSZ);
	phdr->pd_special = special;
	if (!PaxCompactValueArea(page, scratch.data, layout, tupdesc, blkno,
							 false))
		return false;			/* (restored, pd_special too) */
	memcpy(page + special, scratch.data + old_special,
		   sizeof(PaxPageOpaqueData));
	memset(page + special + sizeof(PaxPageOpaqueData), 0,
		   BLCKSZ - special - sizeof(PaxPageOpaqueData));
	return true;
}

/*
 * PaxTidMapCreate gives a row-form page without a map (a private copy of a
 * cleanup-locked buffer, in layout) a TID map with room for twice its
 * slots' TID offsets (at most MaxHeapTuplesPerPage): each row keeps TID
 * offset slot + 1, each item (PAX_ROW_ITEM) becomes a map entry and its
 * slot a free one.  Returns false, the page unchanged, when its values
 * leave no room for the map.
 */
bool
PaxTidMapCreate(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
				BlockNumber blkno)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			capacity = layout->capacity;
	int			nrows = hdr->pp_nrows;
	int			maxtids = Min(MaxHeapTuplesPerPage, 2 * capacity);
	int			special = BLCKSZ - PaxTidMapSpecialSize(maxtids, capacity);
	bool		any_free = false;
	PaxTidMap	map;
	uint16	   *tids;
	uint16	   *slots;

	Assert(!layout->compact && !PaxPageHasTidMap(page));
	Assert(nrows <= capacity && capacity <= maxtids);
	if (special < ((PageHeader) page)->pd_lower ||
		!PaxPageMoveSpecial(page, layout, tupdesc, blkno, special))
		return false;
	hdr->pp_flags |= PAX_PAGE_TIDMAP;
	map = PaxPageTidMap(page);
	map->maxtids = maxtids;
	map->ntids = nrows;
	tids = PaxTidMapTids(map);
	slots = PaxTidMapSlots(map);
	for (int s = 0; s < nrows; s++)
	{
		HeapTupleHeader rh = PaxRowHeader(page, layout->rowhdrs, s);

		if (PaxRowIsItem(rh))
		{
			tids[s] = PAX_TID_ITEM |
				ItemPointerGetOffsetNumberNoCheck(&rh->t_ctid);
			PaxRowClear(page, layout, s, true);
			any_free = true;
		}
		else if (PaxRowIsUnused(rh))
			any_free = true;
		else
			tids[s] = slots[s] = s + 1;
	}
	hdr->pp_flags &= ~PAX_PAGE_HAS_ITEMS;
	if (any_free)
		hdr->pp_flags |= PAX_PAGE_HAS_UNUSED;
	PaxTidMapTrim(page);
	return true;
}

/*
 * PaxPageReclaim is VACUUM's phase 3 on a page (a PaxChange copy, with the
 * buffer cleanup-locked): the dead rows and DEAD items whose TID offsets
 * rows holds, their index entries gone, become UNUSED slots
 * (PaxReclaimCore).  Returns the value-area bytes freed.
 */
int
PaxPageReclaim(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
			   const OffsetNumber *rows, int nrows_dead, BlockNumber blkno,
			   Relation rel)
{
	return PaxReclaimCore(page, layout, tupdesc, rows, nrows_dead, NULL, 0,
						  NULL, NULL, 0, blkno, rel, true, true);
}

/*
 * PaxPruneFreesValues tells whether the rows a pruning's plan takes off a
 * row-form page (before it is carried out) hold a value-area value that
 * no row kept names.  When none does, compacting the value area would
 * leave every value where it is (versions of a row share the values they
 * keep, PaxValueShared: a HOT update of counters frees no value-area
 * byte), so it is skipped, and with it the record's naming of the whole
 * value area.
 */
static bool
PaxPruneFreesValues(Page page, const PaxPageLayout *layout,
					const PaxPrunePlan *plan)
{
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			ngone = plan->nunused + plan->ndead + plan->nredirect;
	bool		gone[PAX_MAX_CAPACITY];
	uint64		kept[BLCKSZ / 64];
	uint16		freed[PAX_MAX_CAPACITY];
	int			nfreed = 0;

	memset(gone, 0, sizeof(gone));
	for (int k = 0; k < ngone; k++)
	{
		int			off;
		int			slot;
		int			target;

		if (k < plan->nunused)
			off = plan->unused[k];
		else if (k < plan->nunused + plan->ndead)
			off = plan->dead[k - plan->nunused];
		else
			off = plan->redirect_from[k - plan->nunused - plan->ndead];
		if (PaxTidWhat(page, layout->rowhdrs, off, &slot, &target) ==
			PAX_TIDK_ROW)
			gone[slot] = true;
	}
	memset(kept, 0, sizeof(kept));
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		const uint16 *offs = (const uint16 *) (page + col->data);

		if (!PaxInValueArea(col))
			continue;
		for (int r = 0; r < nrows; r++)
		{
			uint16		off = offs[r];

			if (off == 0 || off >= BLCKSZ ||
				(col->nullmap != 0 &&
				 PaxBitIsSet((bits8 *) page + col->nullmap, r)))
				continue;
			if (!gone[r])
			{
				if (!PaxRowUnused(page, layout->rowhdrs, r))
					kept[off / 64] |= UINT64CONST(1) << (off % 64);
			}
			else if (nfreed == PAX_MAX_CAPACITY)
				return true;	/* (more than it remembers: some free bytes) */
			else
				freed[nfreed++] = off;
		}
	}
	for (int k = 0; k < nfreed; k++)
		if (!(kept[freed[k] / 64] & (UINT64CONST(1) << (freed[k] % 64))))
			return true;
	return false;
}

/*
 * PaxPagePruneApply carries out a pruning's plan on a page (a PaxChange
 * copy, or a scratch copy, with the buffer cleanup-locked): PaxReclaimCore
 * with its UNUSED rows, DEAD items and REDIRECTs.  On a compact page the
 * plan has DEAD rows only: they become UNUSED states whose row numbers stay
 * below pp_nrows, for the caller to make DEAD items once the page is in
 * row form (PaxPruneCompact).  The page's maps (HASNULL, the zone maps)
 * are recomputed only when at least a quarter of its rows go: a pruning
 * runs about as often as a page's rows are updated, and recomputing them
 * reads every value of every zone-mapped column; maps left wider than the
 * rows need are what readers allow (a zone map bounds the page's values,
 * HASNULL says some row may be NULL), and skip no fewer pages than before
 * the rows went.  The value area is compacted only when the rows that go
 * free some of its bytes (PaxPruneFreesValues).  Returns whether it was:
 * whether values may have moved.
 */
bool
PaxPagePruneApply(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
				  const PaxPrunePlan *plan, BlockNumber blkno, Relation rel)
{
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			ngone = plan->nunused + plan->ndead + plan->nredirect;
	bool		values = layout->compact ||
		PaxPruneFreesValues(page, layout, plan);

	Assert(!layout->compact || (plan->nunused == 0 && plan->nredirect == 0));
	(void) PaxReclaimCore(page, layout, tupdesc, plan->unused, plan->nunused,
						  plan->dead, plan->ndead, plan->redirect_from,
						  plan->redirect_to, plan->nredirect, blkno, rel,
						  values, 4 * ngone >= nrows);
	return values;
}
