/*-------------------------------------------------------------------------
 *
 * pax_hio.c
 *	  Finding the page a new row goes on: the relation's insert target
 *	  page, a page with free row slots from the free space map, or a new
 *	  page at the end of the relation; and the free space map's values.
 *
 * This is the pax counterpart of heap's hio.c (RelationGetBufferForTuple),
 * split the same way: the caller (pax_insert.c) decides whether its row
 * fits a page offered here, and asks for the next candidate when it does
 * not.
 *
 * A pax page has room for a row when it has a free row slot (below
 * pp_capacity, or an UNUSED slot VACUUM reclaimed) and its value area
 * holds the row's variable-length values.  The free space map records,
 * for a page with a free slot, the value area's room plus
 * PAX_FSM_SLOT_BONUS, and nothing for a page without one, so that a
 * request for a row's value bytes finds only pages with a slot.
 *
 * Locking: the pages returned are exclusively locked, with the visibility
 * map page pinned first (before the buffer lock, as heap does) when the
 * page is all-visible; the relation extension lock is held only while a
 * page is added.
 *
 * pax_am/pax_hio.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/hio.h"
#include "access/visibilitymap.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "storage/lmgr.h"
#include "utils/rel.h"

#include "pax_page.h"
#include "pax_tidmap.h"
#include "pax_hio.h"

/* Kept rows (pax_hio.h): set by pax_bulk.c's PaxBulkInit. */
Oid			pax_bulk_relid = InvalidOid;
PaxBulkKeepFunc PaxBulkKeepHook = NULL;
PaxBulkPlaceFunc PaxBulkPlaceHook = NULL;
PaxBulkMultiFunc PaxBulkMultiHook = NULL;
PaxBulkIndexFunc PaxBulkIndexHook = NULL;
int			pax_bulk_indexing = 0;

/*
 * Free space map value of a page with a free row slot: the value area's
 * room plus one FSM category, so that a page with a slot but (fixed-width
 * rows) no value area left is still found, by a request of varbytes plus
 * the same bonus.
 */
#define PAX_FSM_SLOT_BONUS		(BLCKSZ / 256)

/* Pages the free space map offers one request, at most. */
#define PAX_FSM_MAX_TRIES		8

/*
 * PaxNewPage adds a page to the relation and returns it exclusively locked,
 * not initialised.  Adapted from the extension step of
 * RelationGetBufferForTuple() in hio.c, PostgreSQL 15 (one page at a time:
 * no bulk extension).
 */
Buffer
PaxNewPage(Relation rel, BulkInsertState bistate)
{
	Buffer		buffer;
	bool		local = RELATION_IS_LOCAL(rel);

	if (!local)
		LockRelationForExtension(rel, ExclusiveLock);
	buffer = ReadBufferExtended(rel, MAIN_FORKNUM, P_NEW, RBM_NORMAL,
								bistate ? bistate->strategy : NULL);
	LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	if (!local)
		UnlockRelationForExtension(rel, ExclusiveLock);
	return buffer;
}

/*
 * PaxLockForInsert exclusively locks a page an insert may change, with the
 * visibility map page pinned into *vmbuffer if the page is all-visible
 * (the insert clears it): pinning may need I/O, so it happens without the
 * buffer lock, as heap does.  The caller holds the buffer pinned.  Adapted
 * from the visibility map dance of RelationGetBufferForTuple() in hio.c
 * (GetVisibilityMapPins), PostgreSQL 15.
 */
void
PaxLockForInsert(Relation rel, Buffer buffer, Buffer *vmbuffer)
{
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	Page		page = BufferGetPage(buffer);

	if (PageIsAllVisible(page))
		visibilitymap_pin(rel, blkno, vmbuffer);
	LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	while (PageIsAllVisible(page) && !visibilitymap_pin_ok(blkno, *vmbuffer))
	{
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
		visibilitymap_pin(rel, blkno, vmbuffer);
		LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	}
}

/*
 * PaxTargetPage returns the relation's insert target page, exclusively
 * locked (with *vmbuffer pinned for it if it is all-visible), or
 * InvalidBuffer when there is none (or it is not a pax page with room for
 * more rows).  Adapted from the target block step of
 * RelationGetBufferForTuple() in hio.c, PostgreSQL 15.
 */
Buffer
PaxTargetPage(Relation rel, BulkInsertState bistate, Buffer *vmbuffer)
{
	BlockNumber target = RelationGetTargetBlock(rel);
	BlockNumber nblocks;
	Buffer		buffer;
	Page		page;

	if (target == InvalidBlockNumber)
	{
		/* start where the relation ends: its last page may have room */
		nblocks = RelationGetNumberOfBlocks(rel);
		if (nblocks == 0)
			return InvalidBuffer;
		target = nblocks - 1;
	}
	buffer = ReadBufferExtended(rel, MAIN_FORKNUM, target, RBM_NORMAL,
								bistate ? bistate->strategy : NULL);
	PaxLockForInsert(rel, buffer, vmbuffer);
	page = BufferGetPage(buffer);
	if (PageIsNew(page) || !PaxPageHasFreeSlot(page) ||
		!PaxPageLayoutUsable(page))
	{
		UnlockReleaseBuffer(buffer);
		RelationSetTargetBlock(rel, InvalidBlockNumber);
		return InvalidBuffer;
	}
	return buffer;
}

/*
 * PaxPageFreeSlots counts a row-form page's free row slots: those never
 * used, and the UNUSED ones that are not items.
 */
int
PaxPageFreeSlots(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	uint32		rowhdrs = PaxRowHeadersAt(page);
	int			nfree = hdr->pp_capacity - hdr->pp_nrows;

	if (!(hdr->pp_flags & PAX_PAGE_HAS_UNUSED) ||
		rowhdrs + (uint32) hdr->pp_nrows * PAX_ROWHDR_SIZE >
		((PageHeader) page)->pd_lower)
		return nfree;
	for (int r = 0; r < hdr->pp_nrows; r++)
		nfree += PaxRowIsFree((HeapTupleHeader) ((char *) page + rowhdrs +
												 r * PAX_ROWHDR_SIZE));
	return nfree;
}

/*
 * PaxPageInReserve tells whether nrows more rows would take row slots of
 * a row-form page's fillfactor reserve: the (100 - fillfactor) per cent of
 * its row slots that inserts, and new versions an UPDATE puts on another
 * page, leave for the heap-only versions of the page's own rows, as
 * heap_insert leaves RelationGetTargetPageFreeSpace's bytes (hio.c).  A
 * page's capacity is chosen for its rows' values to fill it (PaxShape-
 * ForRows), so the slots kept free keep their share of the value area
 * free too.  Heap-only versions may use the reserve.  A compact page has
 * none (a fillfactor below 100 makes none: PaxInsertRows).
 */
bool
PaxPageInReserve(Page page, int fillfactor, int nrows)
{
	if (fillfactor >= 100 || PaxPageIsCompact(page))
		return false;
	return PaxPageFreeSlots(page) - nrows <
		PaxPageGetHeader(page)->pp_capacity * (100 - fillfactor) / 100;
}

/*
 * PaxFsmValue is the free space a page records in the free space map: none
 * for pages without a free slot beyond the fillfactor reserve
 * (PaxPageInReserve), else the value area's room plus
 * PAX_FSM_SLOT_BONUS.  The caller holds the buffer locked.
 */
Size
PaxFsmValue(Relation rel, Page page)
{
	/* a compact page takes only its own batch's rows (PaxCompactTakes) */
	if (PageIsNew(page) || !PaxPageHasFreeSlot(page) || PaxPageIsCompact(page) ||
		PaxPageInReserve(page,
						 RelationGetFillFactor(rel, HEAP_DEFAULT_FILLFACTOR), 1))
		return 0;
	return ((PageHeader) page)->pd_upper - ((PageHeader) page)->pd_lower +
		PAX_FSM_SLOT_BONUS;
}

/*
 * PaxFreeSpacePage asks the free space map for a page with a free slot and
 * varbytes of value area, and returns it exclusively locked, or
 * InvalidBuffer (with the visibility map page pinned into *vmbuffer if the
 * page is all-visible).  Pages that turn out to have no slot get their
 * entry corrected.  The caller still checks that the row fits, and calls
 * PaxFreeSpaceUpdate when it does not.  Adapted from the free space map
 * loop of RelationGetBufferForTuple() in hio.c, PostgreSQL 15.
 */
Buffer
PaxFreeSpacePage(Relation rel, Size varbytes, BufferAccessStrategy strategy,
				 Buffer *vmbuffer)
{
	/*
	 * A page qualifies when its value area holds the row's values (with
	 * room for alignment to differ): requests add the slot bonus that
	 * recorded values carry, so "a free slot" alone is not taken for room.
	 * A row without variable-length values asks for the bonus alone: the
	 * map rounds recorded values down and requests up to its 32-byte
	 * categories, so any more would pass over every page whose value area
	 * is nearly or wholly used, which is every page of a table of
	 * fixed-width columns (its slots freed by VACUUM were never reused).
	 */
	Size		need = (varbytes > 0 ? varbytes + MAXIMUM_ALIGNOF : 0) +
		PAX_FSM_SLOT_BONUS;
	BlockNumber blkno;

	if (need > MaxHeapTupleSize)	/* the free space map's largest request */
		return InvalidBuffer;
	blkno = GetPageWithFreeSpace(rel, need);

	for (int tries = 0;
		 blkno != InvalidBlockNumber && tries < PAX_FSM_MAX_TRIES;
		 tries++)
	{
		Buffer		buffer;
		Page		page;
		Size		avail;

		if (blkno >= RelationGetNumberOfBlocks(rel))
			break;				/* stale entry past the end */
		buffer = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
									strategy);
		PaxLockForInsert(rel, buffer, vmbuffer);
		page = BufferGetPage(buffer);
		if (!PageIsNew(page))
			(void) PaxPageRowHeaders(rel, page, blkno); /* verifies */
		avail = PaxFsmValue(rel, page);
		if (avail >= need)
			return buffer;
		UnlockReleaseBuffer(buffer);
		blkno = RecordAndGetPageWithFreeSpace(rel, blkno, avail, need);
	}
	return InvalidBuffer;
}

/*
 * PaxFreeSpaceUpdate records a page's current free space, for a page the
 * free space map offered but a row did not fit.  The caller holds the
 * buffer locked.
 */
void
PaxFreeSpaceUpdate(Relation rel, Buffer buffer)
{
	Assert(PaxBufferLockedByMe(buffer, false));
	RecordPageWithFreeSpace(rel, BufferGetBlockNumber(buffer),
							PaxFsmValue(rel, BufferGetPage(buffer)));
}
