/*-------------------------------------------------------------------------
 *
 * pax_tidmap.c
 *	  Row slots and TID offsets of row-form pax pages: where a new row
 *	  goes (a free slot, and on a page with a TID map a free TID offset),
 *	  and checking a TID map.
 *
 * pax_tidmap.h draws the map and states its invariants.  A map is created
 * by pruning (PaxTidMapCreate, pax_page_reclaim.c), on the private copy
 * of a cleanup-locked page, when the pruning made or kept items: the
 * value area moves down below the map, each item becomes a map entry and
 * frees its slot, each row keeps its TID offset (slot + 1).  Inserts and
 * heap-only versions then take a free slot and a free TID offset apart
 * (PaxPageTakeSlot); pruning and VACUUM free them (PaxPagePruneApply,
 * PaxPageReclaim).
 *
 * Locking: changing a map needs the page exclusively locked, as changing
 * a row header does; creating one needs the cleanup lock (values move).
 *
 * pax_am/pax_tidmap.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"

#include "pax_page.h"
#include "pax_tidmap.h"

/*
 * PaxTidMapTake returns a TID offset free for a new row on a mapped page:
 * the first free entry, else the one after ntids; 0 when the map is full.
 * The caller names the row in it (PaxTidMapSetRow).
 */
int
PaxTidMapTake(Page page)
{
	PaxTidMap	map = PaxPageTidMap(page);
	uint16	   *tids = PaxTidMapTids(map);

	for (int off = 1; off <= map->ntids; off++)
		if (tids[off - 1] == PAX_TID_FREE)
			return off;
	if (map->ntids < map->maxtids)
		return map->ntids + 1;
	return 0;
}

/* PaxTidMapHasFree tells whether a mapped page has a TID offset free. */
bool
PaxTidMapHasFree(Page page)
{
	return PaxTidMapTake(page) != 0;
}

/*
 * PaxTidMapSetRow names the row in slot s by TID offset off (from
 * PaxTidMapTake), raising ntids past it.
 */
void
PaxTidMapSetRow(Page page, int off, int s)
{
	PaxTidMap	map = PaxPageTidMap(page);

	Assert(off >= 1 && off <= map->maxtids);
	Assert(s >= 0 && s < PaxPageGetHeader(page)->pp_capacity);
	PaxTidMapTids(map)[off - 1] = s + 1;
	PaxTidMapSlots(map)[s] = off;
	map->ntids = Max(map->ntids, off);
}

/*
 * PaxTidMapTrim lowers ntids past trailing free entries, as heap truncates
 * its line pointer array (PageTruncateLinePointerArray): no index entry
 * names a free TID offset.
 */
void
PaxTidMapTrim(Page page)
{
	PaxTidMap	map = PaxPageTidMap(page);
	uint16	   *tids = PaxTidMapTids(map);

	while (map->ntids > 0 && tids[map->ntids - 1] == PAX_TID_FREE)
		map->ntids--;
}

/* ----------------------------------------------------------------
 * Row slots: where a new row goes
 * ----------------------------------------------------------------
 */

/*
 * PaxRowFormScanSlots looks through a full row-form page's row headers
 * for a free slot (UNUSED, not an item) if want_free, and for a DEAD item
 * if want_dead (PaxPageHasHotSlot).  A page whose row headers would pass
 * pd_lower is not one to insert into.  Reads the headers in place: this
 * runs on every HOT update of a full page.
 */
static bool
PaxRowFormScanSlots(Page page, bool want_free, bool want_dead)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	uint32		rowhdrs = PaxRowHeadersAt(page);
	const char *p;

	Assert(!PaxPageIsCompact(page));
	if (rowhdrs + (uint32) hdr->pp_nrows * PAX_ROWHDR_SIZE >
		((PageHeader) page)->pd_lower)
		return false;
	p = (const char *) page + rowhdrs;
	for (int r = 0; r < hdr->pp_nrows; r++, p += PAX_ROWHDR_SIZE)
	{
		HeapTupleHeader rh = (HeapTupleHeader) p;

		if ((rh->t_infomask2 & PAX_ROW_UNUSED) == 0)
			continue;
		if ((rh->t_infomask2 & PAX_ROW_ITEM) == 0 ? want_free :
			(want_dead && !PaxRowIsRedirect(rh)))
			return true;
	}
	return false;
}

/*
 * PaxPageHasFreeSlot tells whether a pax page has a slot for one more row:
 * one never used (below pp_capacity) or an UNUSED one VACUUM or pruning
 * freed, not an item (PAX_ROW_ITEM) that index entries still point at.
 */
bool
PaxPageHasFreeSlot(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	/*
	 * (no Asserts on the header: callers ask before verifying the page)  A
	 * compact page's UNUSED rows stay unused: a new row there would need a
	 * header of its own.  A header page takes no rows.
	 */
	if (hdr->pp_flags & PAX_PAGE_HEADERS)
		return false;
	/* a mapped page's row needs a free slot and a free TID offset */
	if (hdr->pp_flags & PAX_PAGE_TIDMAP)
		return (hdr->pp_nrows < hdr->pp_capacity ||
				(hdr->pp_flags & PAX_PAGE_HAS_UNUSED) != 0) &&
			PaxTidMapHasFree(page);
	if (hdr->pp_nrows < hdr->pp_capacity)
		return true;
	if ((hdr->pp_flags & PAX_PAGE_HAS_UNUSED) == 0 ||
		(hdr->pp_flags & PAX_PAGE_COMPACT) != 0)
		return false;
	if ((hdr->pp_flags & PAX_PAGE_HAS_ITEMS) == 0)
		return true;
	return PaxRowFormScanSlots(page, true, false);
}

/*
 * PaxPageHasHotSlot tells whether a row-form page has a slot for a
 * heap-only version: a free one (PaxPageHasFreeSlot) or a DEAD item, whose
 * index entries then find a heap-only version there (PAX_ROW_ITEM on a
 * live row, pax_page.h).
 */
bool
PaxPageHasHotSlot(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	/* PaxPageHasFreeSlot's tests, then one pass for either kind of slot */
	if (hdr->pp_flags & PAX_PAGE_HEADERS)
		return false;
	if (hdr->pp_flags & PAX_PAGE_TIDMAP)
		return PaxPageHasFreeSlot(page);	/* DEAD items take no slot */
	if (hdr->pp_nrows < hdr->pp_capacity)
		return true;
	if (hdr->pp_flags & PAX_PAGE_COMPACT)
		return false;
	if ((hdr->pp_flags & PAX_PAGE_HAS_ITEMS) == 0)
		return (hdr->pp_flags & PAX_PAGE_HAS_UNUSED) != 0;
	return PaxRowFormScanSlots(page,
							   (hdr->pp_flags & PAX_PAGE_HAS_UNUSED) != 0, true);
}

/*
 * PaxPageTakeMappedSlot is PaxPageTakeSlot on a page with a TID map: the
 * first free slot (or pp_nrows) and the first free TID offset, which name
 * each other from now on (PaxTidMapSetRow).
 */
static int
PaxPageTakeMappedSlot(Page page, const PaxPageLayout *layout)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			slot = hdr->pp_nrows;
	int			off = PaxTidMapTake(page);

	if (off == 0)
		elog(ERROR, "pax page has no TID offset free");
	if (hdr->pp_flags & PAX_PAGE_HAS_UNUSED)
	{
		int			nunused = 0;

		for (int r = 0; r < hdr->pp_nrows && nunused < 2; r++)
		{
			if (!PaxRowIsUnused(PaxRowHeader(page, layout->rowhdrs, r)))
				continue;
			if (nunused++ == 0)
				slot = r;
		}
		if (nunused <= 1)
			hdr->pp_flags &= ~PAX_PAGE_HAS_UNUSED;
	}
	if (slot >= hdr->pp_capacity)
		elog(ERROR, "pax page has no row slot free");
	for (int i = 0; i < layout->natts && slot < hdr->pp_nrows; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		/* the row's writer sets the null bits of its NULLs */
		if (col->nullmap != 0)
			((bits8 *) page + col->nullmap)[slot >> 3] &= ~(1 << (slot & 7));
	}
	PaxTidMapSetRow(page, off, slot);
	return slot;
}

/*
 * PaxPageTakeSlot returns the row index a new row goes to on a page (a
 * private copy of the exclusively locked buffer), which must have a free
 * slot (for a heap-only version, heaponly: PaxPageHasHotSlot): the first
 * UNUSED slot that is not an item, else for a heap-only version the first
 * DEAD item (*dead_item set: its row is marked PAX_ROW_ITEM), made ready
 * for the row (its null bits cleared), or pp_nrows.  Clears
 * PAX_PAGE_HAS_UNUSED when it takes the last UNUSED slot.  The caller
 * raises pp_nrows past the row.
 */
int
PaxPageTakeSlot(Page page, const PaxPageLayout *layout, bool heaponly,
				bool *dead_item)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			nrows = hdr->pp_nrows;
	int			slot = -1;
	int			dead = -1;

	*dead_item = false;
	Assert(heaponly ? PaxPageHasHotSlot(page) : PaxPageHasFreeSlot(page));
	if (hdr->pp_flags & PAX_PAGE_TIDMAP)
		return PaxPageTakeMappedSlot(page, layout);
	if ((hdr->pp_flags & PAX_PAGE_HAS_UNUSED) && !layout->compact)
	{
		int			nunused = 0;

		for (int r = 0; r < nrows; r++)
		{
			HeapTupleHeader rh = PaxRowHeader(page, layout->rowhdrs, r);

			if (!PaxRowIsUnused(rh))
				continue;
			nunused++;
			if (slot < 0 && !PaxRowIsItem(rh))
				slot = r;
			else if (dead < 0 && PaxRowIsItem(rh) && !PaxRowIsRedirect(rh))
				dead = r;
			if (slot >= 0 && nunused > 1)
				break;
		}
		if (slot < 0 && heaponly && dead >= 0 && nrows == hdr->pp_capacity)
		{
			slot = dead;
			*dead_item = true;
		}
		if (slot >= 0 && nunused == 1)
			hdr->pp_flags &= ~PAX_PAGE_HAS_UNUSED;
	}
	if (slot < 0)
	{
		Assert(nrows < hdr->pp_capacity);
		return nrows;
	}
	/* the row's writer sets the null bits of its NULLs, so clear them */
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->nullmap != 0)
			((bits8 *) page + col->nullmap)[slot >> 3] &= ~(1 << (slot & 7));
	}
	return slot;
}

/*
 * PaxTidMapProblem says what is wrong with a mapped page's map (its
 * header checked), or returns NULL: entries out of range, a row and its
 * slot that do not name each other, a free slot whose header is not
 * UNUSED, an item's header in a slot, a REDIRECT that names no row.
 */
const char *
PaxTidMapProblem(Page page, uint16 rowhdrs)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	PaxTidMap	map = PaxPageTidMap(page);
	uint16	   *tids = PaxTidMapTids(map);
	uint16	   *slots = PaxTidMapSlots(map);

	for (int off = 1; off <= map->ntids; off++)
	{
		uint16		e = tids[off - 1];
		int			target = e & PAX_TID_TARGET;

		if (e == PAX_TID_FREE)
			continue;
		if (e & PAX_TID_ITEM)
		{
			if (target > map->ntids ||
				(target != 0 && (tids[target - 1] & PAX_TID_ITEM) != 0) ||
				(target != 0 && tids[target - 1] == PAX_TID_FREE))
				return "a TID map REDIRECT names no row";
			continue;
		}
		if (e > hdr->pp_nrows || slots[e - 1] != off)
			return "a TID map entry and its slot do not name each other";
	}
	for (int s = 0; s < hdr->pp_capacity; s++)
	{
		HeapTupleHeader rh;

		if (s >= hdr->pp_nrows)
		{
			if (slots[s] != 0)
				return "a slot beyond the rows has a TID offset";
			continue;
		}
		rh = PaxRowHeader(page, rowhdrs, s);
		if (rh->t_infomask2 & PAX_ROW_ITEM && PaxRowIsUnused(rh))
			return "an item in a slot of a page with a TID map";
		if (slots[s] == 0)
		{
			if (!PaxRowIsUnused(rh))
				return "a row without a TID offset";
			continue;
		}
		if (slots[s] > map->ntids || tids[slots[s] - 1] != s + 1)
			return "a slot and its TID map entry do not name each other";
		if (PaxRowIsUnused(rh))
			return "a TID offset names an UNUSED slot";
	}
	return NULL;
}
