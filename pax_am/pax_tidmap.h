/*-------------------------------------------------------------------------
 *
 * pax_tidmap.h
 *	  Row slots and TID offsets of row-form pax pages: the TID map.
 *
 * A row-form page without a map names the row in slot s by TID offset
 * s + 1, and an item (a REDIRECT, a DEAD item) keeps a whole slot: a row
 * header and a cell in every minipage, where heap's line pointer takes
 * four bytes.  Pruning gives a page a TID map (PAX_PAGE_TIDMAP in
 * pp_flags) when it would make items: in the special space, after
 * PaxPageOpaqueData,
 *
 *	+---------------------------+  pd_special
 *	| PaxPageOpaqueData         |
 *	| maxtids, ntids (2 x 2 B)  |  TID offsets 1 .. ntids are in use
 *	| tids[maxtids] (2 B each)  |  what each TID offset names
 *	| slots[capacity] (2 B each)|  the TID offset of each slot's row
 *	+---------------------------+  BLCKSZ (MAXALIGN'd)
 *
 * tids[off - 1] is PAX_TID_FREE (nothing), s + 1 (the row in slot s), or
 * PAX_TID_ITEM | target: a REDIRECT to TID offset target, a DEAD item when
 * target is 0.  slots[s] is the row's TID offset, 0 for a free slot.  Items
 * then take two bytes and no slot; a row keeps its TID offset for life, its
 * slot too (values never move between slots).  The value area ends at
 * pd_special, below the map, as on every page.
 *
 * Invariants (checked by pax_verify): a mapped page is in row form; ntids
 * <= maxtids <= MaxHeapTuplesPerPage (TID bitmaps hold no more offsets a
 * page); tids[] and slots[] name each other for every row; no slot header
 * has PAX_ROW_ITEM (items live in tids[]), and a free slot (slots[s] 0)
 * has an UNUSED header.  Pages without a map read as before: every
 * accessor here answers for both.  The map's on-disk struct is in
 * pax_page.h (PaxTidMapData); PaxTidMapCreate (pax_page_reclaim.c) makes
 * one, PaxPageTakeSlot (here) takes a slot and a TID offset for a row.
 *
 * pax_am/pax_tidmap.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_TIDMAP_H
#define PAX_TIDMAP_H

#include "pax_page.h"

typedef PaxTidMapData *PaxTidMap;

#define PAX_TID_FREE		0
#define PAX_TID_ITEM		0x8000
#define PAX_TID_TARGET		0x7FFF

/* What a TID offset names (PaxTidWhat). */
typedef enum PaxTidKind
{
	PAX_TIDK_NONE,				/* nothing: beyond the page's TIDs, free */
	PAX_TIDK_ROW,				/* a row, in *slot */
	PAX_TIDK_REDIRECT,			/* a REDIRECT to TID offset *target */
	PAX_TIDK_DEAD				/* a DEAD item */
} PaxTidKind;

static inline bool
PaxPageHasTidMap(const char *page)
{
	return (PaxPageGetHeader((Page) page)->pp_flags & PAX_PAGE_TIDMAP) != 0;
}

static inline PaxTidMap
PaxPageTidMap(const char *page)
{
	return (PaxTidMap) (page + ((PageHeader) page)->pd_special + PAX_TIDMAP_AT);
}

static inline uint16 *
PaxTidMapTids(PaxTidMap map)
{
	return map->entries;
}

static inline uint16 *
PaxTidMapSlots(PaxTidMap map)
{
	return map->entries + map->maxtids;
}

/* PaxSlotTid is the TID offset of the row in slot s of a row-form page. */
static inline OffsetNumber
PaxSlotTid(const char *page, int s)
{
	if (!PaxPageHasTidMap(page))
		return (OffsetNumber) (s + 1);
	return PaxTidMapSlots(PaxPageTidMap(page))[s];
}

/*
 * PaxPageMaxTid is the greatest TID offset that may name something on the
 * page: ntids on a mapped page, else pp_nrows.
 */
static inline int
PaxPageMaxTid(const char *page)
{
	if (PaxPageHasTidMap(page))
		return PaxPageTidMap(page)->ntids;
	return PaxPageGetHeader((Page) page)->pp_nrows;
}

/*
 * PaxTidWhat tells what TID offset off names on a page whose row headers
 * start at rowhdrs: a row (*slot set), a REDIRECT (*target set to the TID
 * offset it names), a DEAD item or nothing.  On a page without a map the
 * slot is off - 1, and items are slots marked PAX_ROW_ITEM.
 */
static inline PaxTidKind
PaxTidWhat(const char *page, uint16 rowhdrs, int off, int *slot, int *target)
{
	PaxPageHeader hdr = PaxPageGetHeader((Page) page);

	*slot = *target = -1;
	if (PaxPageHasTidMap(page))
	{
		PaxTidMap	map = PaxPageTidMap(page);
		uint16		e;

		if (off < 1 || off > map->ntids)
			return PAX_TIDK_NONE;
		e = PaxTidMapTids(map)[off - 1];
		if (e == PAX_TID_FREE)
			return PAX_TIDK_NONE;
		if (e & PAX_TID_ITEM)
		{
			if ((e & PAX_TID_TARGET) == 0)
				return PAX_TIDK_DEAD;
			*target = e & PAX_TID_TARGET;
			return PAX_TIDK_REDIRECT;
		}
		if (e > hdr->pp_nrows ||
			PaxRowIsUnused(PaxRowHeader(page, rowhdrs, e - 1)))
			return PAX_TIDK_NONE;	/* (pax_verify reports it) */
		*slot = e - 1;
		return PAX_TIDK_ROW;
	}
	if (off < 1 || off > hdr->pp_nrows)
		return PAX_TIDK_NONE;
	if (!PaxRowUnused(page, rowhdrs, off - 1))
	{
		*slot = off - 1;
		return PAX_TIDK_ROW;
	}
	if (PaxPageIsCompact(page) ||
		!PaxRowIsItem(PaxRowHeader(page, rowhdrs, off - 1)))
		return PAX_TIDK_NONE;
	*target = ItemPointerGetOffsetNumberNoCheck(&PaxRowHeader(page, rowhdrs,
															  off - 1)->t_ctid);
	if (*target == 0)
		return PAX_TIDK_DEAD;
	return PAX_TIDK_REDIRECT;
}

/*
 * PaxTidSlot is the slot of the row TID offset off names, or -1 when it
 * names no row (an item, nothing).
 */
static inline int
PaxTidSlot(const char *page, uint16 rowhdrs, int off)
{
	int			slot;
	int			target;

	if (PaxTidWhat(page, rowhdrs, off, &slot, &target) != PAX_TIDK_ROW)
		return -1;
	return slot;
}

/* pax_tidmap.c */
extern bool PaxPageHasFreeSlot(Page page);
extern bool PaxPageHasHotSlot(Page page);
extern int	PaxPageTakeSlot(Page page, const PaxPageLayout *layout,
							bool heaponly, bool *dead_item);
extern int	PaxTidMapTake(Page page);
extern bool PaxTidMapHasFree(Page page);
extern void PaxTidMapSetRow(Page page, int off, int s);
extern void PaxTidMapTrim(Page page);
extern const char *PaxTidMapProblem(Page page, uint16 rowhdrs);

#endif							/* PAX_TIDMAP_H */
