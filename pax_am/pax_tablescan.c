/*-------------------------------------------------------------------------
 *
 * pax_tablescan.c
 *	  Sequential, parallel, TID, TID range, sample and ANALYZE scans of pax
 *	  relations, and row fetches by TID.
 *
 * Scans work a page at a time, as heap's page mode does: with the buffer
 * share-locked, the visibility of every row is decided with heap's own
 * HeapTupleSatisfiesVisibility on the row headers (setting hint bits), and
 * the indexes of the visible rows are kept; then the lock is released and
 * the rows are handed out from the pinned page.  Stored values never move
 * while the row exists, so reading them with only a pin is safe.  Pages
 * marked all-visible skip the per-row checks.  The visibility decisions
 * live in pax_visibility.c, the pinning of blocks (recent buffers and
 * buffer guessing) in pax_buffers.c.
 *
 * Most routines here re-derive heap's (heapam.c, heapam_handler.c,
 * PostgreSQL 15) for pax pages; each comment names its model.
 *
 * pax_am/pax_tablescan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/tsmapi.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "nodes/execnodes.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#if PG_VERSION_NUM >= 170000
#include "storage/read_stream.h"
#endif

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/*
 * Scans of relations larger than 1/this of shared buffers read through a
 * bulk-read ring, as heap's initscan() decides.
 */
#define PAX_BULKREAD_FRACTION	4

/*
 * PaxTableScanLockPage reads block blkno into the scan (dropping the pin on the
 * previous page) and returns it share-locked, or NULL (and unlocked) for a
 * page that was never initialised, e.g. left by a crash after extension.
 */
Page
PaxTableScanLockPage(PaxTableScanDesc scan, BlockNumber blkno)
{
	Buffer		buffer;
	Page		page;

	CHECK_FOR_INTERRUPTS();

	if (BufferIsValid(scan->rs_cbuf))
	{
		ReleaseBuffer(scan->rs_cbuf);
		scan->rs_cbuf = InvalidBuffer;
	}
	if (BufferIsValid(scan->rs_nextbuf) &&
		BufferGetBlockNumber(scan->rs_nextbuf) == blkno)
		buffer = scan->rs_nextbuf;	/* pinned ahead: its pin is ours now */
	else
	{
		if (BufferIsValid(scan->rs_nextbuf))
			ReleaseBuffer(scan->rs_nextbuf);
		buffer = PaxReadBuffer(scan, blkno);
	}
	scan->rs_nextbuf = InvalidBuffer;
	scan->rs_cbuf = buffer;
	scan->rs_cblock = blkno;
	scan->rs_nvis = 0;

	/* a nearly full page with dead versions is pruned first, as heap's */
	PaxPagePruneOpt(scan->rs_base.rs_rd, buffer);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	if (PageIsNew(page))
	{
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
		return NULL;
	}
	return page;
}

/*
 * PaxTableScanPinAhead pins block blkno, the one the scan reads next, while the
 * current page's rows are still being worked on, and returns its page (not
 * locked: for prefetch hints only), so that the caller can ask the CPU to
 * start loading the parts of it it will read; PaxTableScanLockPage then takes
 * over the pin.
 */
Page
PaxTableScanPinAhead(PaxTableScanDesc scan, BlockNumber blkno)
{
	if (BufferIsValid(scan->rs_nextbuf))
		ReleaseBuffer(scan->rs_nextbuf);
	scan->rs_nextbuf = PaxReadBuffer(scan, blkno);
	return BufferGetPage(scan->rs_nextbuf);
}

/*
 * PaxTableScanCollectPage reads block blkno into the scan and collects the
 * indexes of the rows visible to the scan's snapshot.
 */
static void
PaxTableScanCollectPage(PaxTableScanDesc scan, BlockNumber blkno)
{
	Page		page = PaxTableScanLockPage(scan, blkno);

	if (page == NULL)
		return;
	PaxTableScanCollectVisible(scan, page,
						  PaxPageRowHeaders(scan->rs_base.rs_rd, page, blkno),
						  NULL, 0);
	LockBuffer(scan->rs_cbuf, BUFFER_LOCK_UNLOCK);
}

/*
 * PaxTableScanInitBlocks sets the scan up to start (again) from its first
 * block: the relation's (or the parallel scan's) block count, and unless
 * keep_startblock (a rescan keeps a TID range's), the whole relation.
 * Adapted from initscan() in heapam.c, PostgreSQL 15.
 */
static void
PaxTableScanInitBlocks(PaxTableScanDesc scan, bool keep_startblock)
{
	ParallelBlockTableScanDesc bpscan =
		(ParallelBlockTableScanDesc) scan->rs_base.rs_parallel;

	if (bpscan != NULL)
		scan->rs_nblocks = bpscan->phs_nblocks;
	else
		scan->rs_nblocks = RelationGetNumberOfBlocks(scan->rs_base.rs_rd);
	if (!keep_startblock)
	{
		scan->rs_startblock = 0;
		scan->rs_numblocks = InvalidBlockNumber;
	}
	scan->rs_inited = false;
	scan->rs_cblock = InvalidBlockNumber;
	scan->rs_pnext = InvalidBlockNumber;
	PaxBufferGuessInit(scan);
	scan->rs_nvis = 0;
	scan->rs_cindex = -1;
}

/*
 * pax_scan_begin starts a scan of a pax relation.  Adapted from
 * heap_beginscan() in heapam.c, PostgreSQL 15.
 */
TableScanDesc
pax_scan_begin(Relation relation, Snapshot snapshot, int nkeys,
			   struct ScanKeyData *key, ParallelTableScanDesc parallel_scan,
			   uint32 flags)
{
	PaxTableScanDesc scan;

	PaxBulkPlaceFor(relation);
	RelationIncrementReferenceCount(relation);

	scan = (PaxTableScanDesc) palloc0(sizeof(PaxTableScanDescData));
	scan->rs_base.rs_rd = relation;
	scan->rs_base.rs_snapshot = snapshot;
	scan->rs_base.rs_nkeys = nkeys;
	scan->rs_base.rs_key = NULL;
	scan->rs_base.rs_flags = flags;
	scan->rs_base.rs_parallel = parallel_scan;
	scan->rs_cbuf = InvalidBuffer;
	scan->rs_nextbuf = InvalidBuffer;
	scan->rs_sharedbufs = NULL;
	scan->rs_nsharedbufs = 0;

	/* rows of non-MVCC snapshots (e.g. SnapshotAny) are not page-wise */
	if (!(snapshot && IsMVCCSnapshot(snapshot)))
		scan->rs_base.rs_flags &= ~SO_ALLOW_PAGEMODE;

	if (flags & (SO_TYPE_SEQSCAN | SO_TYPE_SAMPLESCAN))
		PredicateLockRelation(relation, snapshot);
	scan->rs_conflict_check = snapshot && IsMVCCSnapshot(snapshot) &&
		CheckForSerializableConflictOutNeeded(relation, snapshot);

	if (parallel_scan != NULL)
		scan->rs_pbsw = palloc0(sizeof(ParallelBlockTableScanWorkerData));

	PaxTableScanInitBlocks(scan, false);

	/* a bulk-read ring for tables larger than a quarter of shared buffers */
	if ((flags & SO_ALLOW_STRAT) &&
		scan->rs_nblocks > (BlockNumber) NBuffers / PAX_BULKREAD_FRACTION)
		scan->rs_strategy = GetAccessStrategy(BAS_BULKREAD);

	if (flags & SO_TYPE_SEQSCAN)
		pgstat_count_heap_scan(relation);

	return (TableScanDesc) scan;
}

/*
 * pax_scan_end ends a scan and drops its pins.  Adapted from heap_endscan()
 * in heapam.c, PostgreSQL 15.
 */
void
pax_scan_end(TableScanDesc sscan)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	if (BufferIsValid(scan->rs_cbuf))
		ReleaseBuffer(scan->rs_cbuf);
	if (BufferIsValid(scan->rs_nextbuf))
		ReleaseBuffer(scan->rs_nextbuf);
	RelationDecrementReferenceCount(sscan->rs_rd);
	if (scan->rs_strategy)
		FreeAccessStrategy(scan->rs_strategy);
	if (sscan->rs_flags & SO_TEMP_SNAPSHOT)
		UnregisterSnapshot(sscan->rs_snapshot);
	if (scan->rs_pbsw)
		pfree(scan->rs_pbsw);
	pfree(scan);
}

/*
 * pax_scan_rescan restarts a scan, with new parameters when set_params.
 * Adapted from heap_rescan() in heapam.c, PostgreSQL 15.
 */
void
pax_scan_rescan(TableScanDesc sscan, struct ScanKeyData *key, bool set_params,
				bool allow_strat, bool allow_sync, bool allow_pagemode)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	if (set_params)
	{
		if (allow_strat)
			sscan->rs_flags |= SO_ALLOW_STRAT;
		else
			sscan->rs_flags &= ~SO_ALLOW_STRAT;
		if (allow_sync)
			sscan->rs_flags |= SO_ALLOW_SYNC;
		else
			sscan->rs_flags &= ~SO_ALLOW_SYNC;
		if (allow_pagemode && sscan->rs_snapshot &&
			IsMVCCSnapshot(sscan->rs_snapshot))
			sscan->rs_flags |= SO_ALLOW_PAGEMODE;
		else
			sscan->rs_flags &= ~SO_ALLOW_PAGEMODE;
	}
	PaxTableScanFinish(scan);
	PaxTableScanInitBlocks(scan, true);
	/* heap's initscan counts a rescan as a scan */
	if (sscan->rs_flags & SO_TYPE_SEQSCAN)
		pgstat_count_heap_scan(sscan->rs_rd);
}

/*
 * PaxTableScanFinish drops the current page at the end of a scan and rewinds,
 * so the next fetch starts over.
 */
void
PaxTableScanFinish(PaxTableScanDesc scan)
{
	if (BufferIsValid(scan->rs_cbuf))
		ReleaseBuffer(scan->rs_cbuf);
	scan->rs_cbuf = InvalidBuffer;
	if (BufferIsValid(scan->rs_nextbuf))
		ReleaseBuffer(scan->rs_nextbuf);
	scan->rs_nextbuf = InvalidBuffer;
	scan->rs_cblock = InvalidBlockNumber;
	scan->rs_pnext = InvalidBlockNumber;
	scan->rs_inited = false;
}

/*
 * PaxTableScanNextBlock returns the next block to read in the given direction,
 * or InvalidBlockNumber at the end of the scan.  Adapted from the block
 * stepping of heapgettup_pagemode() in heapam.c, PostgreSQL 15 (without
 * synchronized scans).
 */
BlockNumber
PaxTableScanNextBlock(PaxTableScanDesc scan, ScanDirection direction)
{
	ParallelBlockTableScanDesc bpscan =
		(ParallelBlockTableScanDesc) scan->rs_base.rs_parallel;
	BlockNumber first = scan->rs_startblock;
	BlockNumber last;

	if (bpscan != NULL)
	{
		BlockNumber blkno = scan->rs_pnext;

		Assert(ScanDirectionIsForward(direction));
		if (!scan->rs_inited)
		{
			table_block_parallelscan_startblock_init(scan->rs_base.rs_rd,
													 scan->rs_pbsw, bpscan);
			scan->rs_inited = true;
		}
		/* a block PaxTableScanPeekNextBlock claimed is this participant's */
		scan->rs_pnext = InvalidBlockNumber;
		if (blkno != InvalidBlockNumber)
			return blkno;
		return table_block_parallelscan_nextpage(scan->rs_base.rs_rd,
												 scan->rs_pbsw, bpscan);
	}

	if (scan->rs_nblocks == 0 || first >= scan->rs_nblocks)
		return InvalidBlockNumber;
	if (scan->rs_numblocks != InvalidBlockNumber &&
		scan->rs_numblocks < scan->rs_nblocks - first)
		last = first + scan->rs_numblocks - 1;
	else
		last = scan->rs_nblocks - 1;
	if (scan->rs_numblocks == 0)
		return InvalidBlockNumber;

	if (!scan->rs_inited)
	{
		scan->rs_inited = true;
		return ScanDirectionIsForward(direction) ? first : last;
	}
	if (ScanDirectionIsForward(direction))
		return scan->rs_cblock < last ? scan->rs_cblock + 1 : InvalidBlockNumber;
	return scan->rs_cblock > first ? scan->rs_cblock - 1 : InvalidBlockNumber;
}

/*
 * PaxTableScanPeekNextBlock is the block a forward scan reads after the current
 * one, or InvalidBlockNumber (the end, or a scan whose next block is not
 * known in advance).  A parallel scan claims that block from the shared
 * allocator now, one block early; PaxTableScanNextBlock then returns it, so every
 * block is still read by exactly one participant.
 */
BlockNumber
PaxTableScanPeekNextBlock(PaxTableScanDesc scan)
{
	BlockNumber last;

	if (!scan->rs_inited || scan->rs_cblock == InvalidBlockNumber)
		return InvalidBlockNumber;
	if (scan->rs_base.rs_parallel != NULL)
	{
		ParallelBlockTableScanDesc bpscan =
			(ParallelBlockTableScanDesc) scan->rs_base.rs_parallel;

		if (scan->rs_pnext == InvalidBlockNumber)
			scan->rs_pnext = table_block_parallelscan_nextpage(scan->rs_base.rs_rd,
															   scan->rs_pbsw,
															   bpscan);
		return scan->rs_pnext;
	}
	if (scan->rs_numblocks == 0)
		return InvalidBlockNumber;
	if (scan->rs_numblocks != InvalidBlockNumber &&
		scan->rs_numblocks < scan->rs_nblocks - scan->rs_startblock)
		last = scan->rs_startblock + scan->rs_numblocks - 1;
	else
		last = scan->rs_nblocks - 1;
	return scan->rs_cblock < last ? scan->rs_cblock + 1 : InvalidBlockNumber;
}

/*
 * PaxTableScanStoreNext advances the scan to the next visible row of the
 * current page in the given direction and stores it in the slot; false
 * when the page has no more.
 */
static inline bool
PaxTableScanStoreNext(PaxTableScanDesc scan, bool forward,
					  TupleTableSlot *slot)
{
	int			next = forward ? scan->rs_cindex + 1 : scan->rs_cindex - 1;

	if (next < 0 || next >= scan->rs_nvis)
		return false;
	Assert(scan->rs_nvis <= PAX_MAX_CAPACITY);
	scan->rs_cindex = next;
	PaxSlotStoreRow(slot, scan->rs_base.rs_rd, scan->rs_cbuf, scan->rs_cblock,
					scan->rs_vis[next]);
	return true;
}

/*
 * PaxTableScanNextRow advances the scan to the next visible row and stores it
 * in the slot; returns false at the end of the scan.
 */
static bool
PaxTableScanNextRow(PaxTableScanDesc scan, ScanDirection direction, TupleTableSlot *slot)
{
	bool		forward = ScanDirectionIsForward(direction);

	for (;;)
	{
		BlockNumber blkno;

		if (scan->rs_cblock != InvalidBlockNumber &&
			PaxTableScanStoreNext(scan, forward, slot))
			return true;

		blkno = PaxTableScanNextBlock(scan, direction);
		if (blkno == InvalidBlockNumber)
		{
			PaxTableScanFinish(scan);
			ExecClearTuple(slot);
			return false;
		}
		PaxTableScanCollectPage(scan, blkno);
		scan->rs_cindex = forward ? -1 : scan->rs_nvis;
	}
}

/*
 * pax_scan_getnextslot stores the scan's next visible row in the slot.
 * Adapted from heap_getnextslot() in heapam.c, PostgreSQL 15.
 */
bool
pax_scan_getnextslot(TableScanDesc sscan, ScanDirection direction,
					 TupleTableSlot *slot)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	if (!PaxTableScanNextRow(scan, direction, slot))
		return false;
	pgstat_count_heap_getnext(sscan->rs_rd);
	return true;
}

/* ------------------------------------------------------------------------
 * TID range scans
 * ------------------------------------------------------------------------
 */

/*
 * pax_scan_set_tidrange limits the scan to the blocks of the TID range
 * [mintid, maxtid].  Adapted from heap_set_tidrange() in heapam.c,
 * PostgreSQL 15.
 */
void
pax_scan_set_tidrange(TableScanDesc sscan, ItemPointer mintid,
					  ItemPointer maxtid)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;
	BlockNumber startblk = ItemPointerGetBlockNumberNoCheck(mintid);
	BlockNumber endblk = ItemPointerGetBlockNumberNoCheck(maxtid);

	PaxScanMinTid(sscan) = *mintid;
	PaxScanMaxTid(sscan) = *maxtid;
	PaxTableScanInitBlocks(scan, false);
	if (ItemPointerCompare(mintid, maxtid) > 0 || startblk >= scan->rs_nblocks)
	{
		scan->rs_numblocks = 0;
		return;
	}
	scan->rs_startblock = startblk;
	scan->rs_numblocks = Min(endblk, scan->rs_nblocks - 1) - startblk + 1;
}

/*
 * pax_scan_getnextslot_tidrange stores the scan's next visible row within
 * the TID range in the slot.  Adapted from heap_getnextslot_tidrange() in
 * heapam.c, PostgreSQL 15.
 */
bool
pax_scan_getnextslot_tidrange(TableScanDesc sscan, ScanDirection direction,
							  TupleTableSlot *slot)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	while (PaxTableScanNextRow(scan, direction, slot))
	{
		if (ItemPointerCompare(&slot->tts_tid, &PaxScanMinTid(sscan)) < 0 ||
			ItemPointerCompare(&slot->tts_tid, &PaxScanMaxTid(sscan)) > 0)
			continue;
		pgstat_count_heap_getnext(sscan->rs_rd);
		return true;
	}
	return false;
}

/* ------------------------------------------------------------------------
 * Rows by TID
 * ------------------------------------------------------------------------
 */

/*
 * pax_fetch_row_version stores the row at tid in the slot if it is visible
 * to the snapshot.
 *
 * The slot is normally a pax slot (table_slot_create), but EvalPlanQual
 * fetches the row of a ROW_MARK_REFERENCE relation into the scan node's own
 * scan slot, which for PaxScan is a virtual one: the row is then fetched
 * into a pax slot of our own and copied.  Adapted from
 * heapam_fetch_row_version() and heap_fetch() in heapam_handler.c and
 * heapam.c, PostgreSQL 15.
 */
bool
pax_fetch_row_version(Relation relation, ItemPointer tid, Snapshot snapshot,
					  TupleTableSlot *slot)
{
	BlockNumber blkno = ItemPointerGetBlockNumber(tid);
	Buffer		buffer;
	HeapTupleData tuple;
	bool		visible;
	int			row;

	PaxBulkPlaceFor(relation);
	if (slot->tts_ops != &TTSOpsPaxTuple)
	{
		TupleTableSlot *pslot;

		pslot = MakeSingleTupleTableSlot(RelationGetDescr(relation),
										 &TTSOpsPaxTuple);
		visible = pax_fetch_row_version(relation, tid, snapshot, pslot);
		if (visible)
		{
			ExecCopySlot(slot, pslot);
			slot->tts_tid = pslot->tts_tid;
			slot->tts_tableOid = pslot->tts_tableOid;
		}
		else
			ExecClearTuple(slot);
		ExecDropSingleTupleTableSlot(pslot);
		return visible;
	}

	/*
	 * The TID comes from a scan, an index, a trigger's queue or a TID scan
	 * that checked it (pax_tuple_tid_valid), so its block exists, as
	 * heap_fetch assumes: no relation size lookup (an lseek) per fetch.
	 */
	buffer = ReadBuffer(relation, blkno);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	row = PaxReadRowSlot(relation, buffer, tid, &tuple);
	if (row < 0)
	{
		UnlockReleaseBuffer(buffer);
		return false;
	}
	visible = HeapTupleSatisfiesVisibility(&tuple, snapshot, buffer);
	HeapCheckForSerializableConflictOut(visible, relation, &tuple, buffer,
										snapshot);
	if (visible)
		PredicateLockTID(relation, tid, snapshot,
						 HeapTupleHeaderGetXmin(tuple.t_data));
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	if (visible)
		PaxSlotStoreRow(slot, relation, buffer, blkno, row);
	ReleaseBuffer(buffer);
	return visible;
}

/*
 * pax_tuple_tid_valid tells whether tid could name a row of the scan's
 * relation.  Adapted from heapam_tuple_tid_valid() in heapam_handler.c,
 * PostgreSQL 15.
 */
bool
pax_tuple_tid_valid(TableScanDesc sscan, ItemPointer tid)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	return ItemPointerIsValid(tid) &&
		ItemPointerGetBlockNumber(tid) < scan->rs_nblocks;
}

/*
 * pax_tuple_satisfies_snapshot tells whether the row in a pax slot is
 * visible to the snapshot.  Adapted from heapam_tuple_satisfies_snapshot()
 * in heapam_handler.c, PostgreSQL 15.
 */
bool
pax_tuple_satisfies_snapshot(Relation rel, TupleTableSlot *slot,
							 Snapshot snapshot)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
	HeapTupleData tuple;
	bool		visible;

	if (slot->tts_ops != &TTSOpsPaxTuple || !BufferIsValid(pslot->buffer))
		elog(ERROR, "pax visibility check on a slot without a pax page");

	LockBuffer(pslot->buffer, BUFFER_LOCK_SHARE);
	PaxRowTuple(&tuple, rel, pslot->page, pslot->lcache.layout->rowhdrs,
				ItemPointerGetBlockNumber(&slot->tts_tid), pslot->row);
	visible = HeapTupleSatisfiesVisibility(&tuple, snapshot, pslot->buffer);
	LockBuffer(pslot->buffer, BUFFER_LOCK_UNLOCK);
	return visible;
}

/* ------------------------------------------------------------------------
 * Bitmap heap scans
 * ------------------------------------------------------------------------
 */

/*
 * PaxBitmapPage collects the visible rows of one page of the bitmap among
 * the offsets it names (all of a lossy page: noffsets < 0), as heap does;
 * the executor rechecks the quals where the bitmap says so.  Returns
 * whether the page has any.  Adapted from heapam_scan_bitmap_next_block()
 * in heapam_handler.c, PostgreSQL 15.
 */
static bool
PaxBitmapPage(PaxTableScanDesc scan, BlockNumber blkno,
			  const OffsetNumber *offsets, int noffsets)
{
	TableScanDesc sscan = &scan->rs_base;
	Page		page;
	uint16		rowhdrs;
	uint16		cand[PAX_MAX_CAPACITY];
	int			ncand = 0;
	int			nrows;

	scan->rs_cindex = -1;
	scan->rs_nvis = 0;

	/* the bitmap may name blocks added after the scan began: ignore them */
	if (blkno >= scan->rs_nblocks)
		return false;
	page = PaxTableScanLockPage(scan, blkno);
	if (page == NULL)
		return false;
	rowhdrs = PaxPageRowHeaders(sscan->rs_rd, page, blkno);
	nrows = PaxPageGetHeader(page)->pp_nrows;
	if (noffsets >= 0)
	{
		bool		member[PAX_MAX_CAPACITY];

		/* each entry's HOT chain: the version the snapshot sees is on it */
		memset(member, 0, nrows * sizeof(bool));
		for (int i = 0; i < noffsets; i++)
			PaxHotChainMembers(sscan->rs_rd, page, rowhdrs, blkno,
							   offsets[i], member);
		for (int row = 0; row < nrows; row++)
			if (member[row])
				cand[ncand++] = row;
	}
	else
	{
		for (int row = 0; row < nrows; row++)
			if (!PaxRowUnused(page, rowhdrs, row))
				cand[ncand++] = row;
	}
	PaxTableScanCollectVisible(scan, page, rowhdrs, cand, ncand);

	/* as heap: a predicate lock on each row the scan returns */
	for (int k = 0; k < scan->rs_nvis; k++)
	{
		ItemPointerData tid;

		ItemPointerSet(&tid, blkno, PaxSlotTid(page, scan->rs_vis[k]));
		PredicateLockTID(sscan->rs_rd, &tid, sscan->rs_snapshot,
						 HeapTupleHeaderGetXmin(PaxRowHeader(page, rowhdrs,
															 scan->rs_vis[k])));
	}
	LockBuffer(scan->rs_cbuf, BUFFER_LOCK_UNLOCK);
	return scan->rs_nvis > 0;
}

#if PG_VERSION_NUM >= 180000

/*
 * pax_scan_bitmap_next_tuple stores the next visible row of the bitmap in
 * the slot, reading the bitmap's pages in its order from the iterator the
 * executor placed in the scan (18 moved the page loop into the table AM).
 * Pax reads each page as it comes rather than through a read stream.
 * Adapted from heapam_scan_bitmap_next_tuple() and
 * BitmapHeapScanNextBlock() in heapam_handler.c, PostgreSQL 18.
 */
bool
pax_scan_bitmap_next_tuple(TableScanDesc sscan, TupleTableSlot *slot,
						   bool *recheck, uint64 *lossy_pages,
						   uint64 *exact_pages)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	for (;;)
	{
		TBMIterateResult tbmres;
		OffsetNumber offsets[TBM_MAX_TUPLES_PER_PAGE];
		int			noffsets = -1;

		if (PaxTableScanStoreNext(scan, true, slot))
		{
			pgstat_count_heap_fetch(sscan->rs_rd);
			return true;
		}

		CHECK_FOR_INTERRUPTS();
		if (!tbm_iterate(&sscan->st.rs_tbmiterator, &tbmres))
			return false;
		if (!tbmres.lossy)
			noffsets = tbm_extract_page_tuple(&tbmres, offsets,
											  TBM_MAX_TUPLES_PER_PAGE);
		*recheck = tbmres.recheck;
		if (tbmres.blockno < scan->rs_nblocks)
		{
			if (tbmres.lossy)
				(*lossy_pages)++;
			else
				(*exact_pages)++;
		}
		(void) PaxBitmapPage(scan, tbmres.blockno, offsets, noffsets);
	}
}

#else

/*
 * pax_scan_bitmap_next_block collects the visible rows of the bitmap's next
 * page (PaxBitmapPage).
 */
bool
pax_scan_bitmap_next_block(TableScanDesc sscan, TBMIterateResult *tbmres)
{
	return PaxBitmapPage((PaxTableScanDesc) sscan, tbmres->blockno,
						 tbmres->offsets, tbmres->ntuples);
}

/*
 * pax_scan_bitmap_next_tuple stores the next visible row of the bitmap's
 * page in the slot.  Adapted from heapam_scan_bitmap_next_tuple() in
 * heapam_handler.c, PostgreSQL 15.
 */
bool
pax_scan_bitmap_next_tuple(TableScanDesc sscan, TBMIterateResult *tbmres,
						   TupleTableSlot *slot)
{
	if (!PaxTableScanStoreNext((PaxTableScanDesc) sscan, true, slot))
		return false;
	pgstat_count_heap_fetch(sscan->rs_rd);
	return true;
}

#endif

/* ------------------------------------------------------------------------
 * ANALYZE
 * ------------------------------------------------------------------------
 */

#if PG_VERSION_NUM >= 170000

/*
 * pax_scan_analyze_next_block takes ANALYZE's next sample block, pinned, from
 * its read stream (17) and keeps it share-locked for
 * pax_scan_analyze_next_tuple.  Adapted from
 * heapam_scan_analyze_next_block() in heapam_handler.c, PostgreSQL 18.
 */
bool
pax_scan_analyze_next_block(TableScanDesc sscan, ReadStream *stream)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	scan->rs_cbuf = read_stream_next_buffer(stream, NULL);
	if (!BufferIsValid(scan->rs_cbuf))
		return false;
	LockBuffer(scan->rs_cbuf, BUFFER_LOCK_SHARE);
	scan->rs_cblock = BufferGetBlockNumber(scan->rs_cbuf);
	scan->rs_cindex = 0;
	return true;
}

#else

/*
 * pax_scan_analyze_next_block reads block blockno for ANALYZE and keeps it
 * share-locked for pax_scan_analyze_next_tuple.  Adapted from
 * heapam_scan_analyze_next_block() in heapam_handler.c, PostgreSQL 15.
 */
bool
pax_scan_analyze_next_block(TableScanDesc sscan, BlockNumber blockno,
							BufferAccessStrategy bstrategy)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;

	scan->rs_cblock = blockno;
	scan->rs_cbuf = ReadBufferExtended(sscan->rs_rd, MAIN_FORKNUM, blockno,
									   RBM_NORMAL, bstrategy);
	scan->rs_cindex = 0;
	LockBuffer(scan->rs_cbuf, BUFFER_LOCK_SHARE);
	return true;
}

#endif

/*
 * pax_scan_analyze_next_tuple returns the next row of the block that
 * ANALYZE should sample, counting live and dead rows as heap does
 * (PaxAnalyzeRow).  The buffer stays share-locked until the block is
 * exhausted.  Adapted from heapam_scan_analyze_next_tuple() in
 * heapam_handler.c, PostgreSQL 15.
 */
bool
pax_scan_analyze_next_tuple(TableScanDesc sscan, TransactionId OldestXmin,
							double *liverows, double *deadrows,
							TupleTableSlot *slot)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;
	Relation	rel = sscan->rs_rd;
	Page		page = BufferGetPage(scan->rs_cbuf);
	uint16		rowhdrs = 0;
	int			nrows = 0;

	if (!PageIsNew(page))
	{
		rowhdrs = PaxPageRowHeaders(rel, page, scan->rs_cblock);
		nrows = PaxPageGetHeader(page)->pp_nrows;
	}

	for (; scan->rs_cindex < nrows; scan->rs_cindex++)
	{
		Assert(BufferIsValid(scan->rs_cbuf));
		if (PaxRowUnused(page, rowhdrs, scan->rs_cindex))
			continue;			/* a slot VACUUM reclaimed: no row */
		if (PaxAnalyzeRow(rel, page, rowhdrs, scan->rs_cblock,
						  scan->rs_cindex, scan->rs_cbuf, OldestXmin,
						  liverows, deadrows))
		{
			PaxSlotStoreRow(slot, rel, scan->rs_cbuf, scan->rs_cblock,
							scan->rs_cindex);
			scan->rs_cindex++;
			return true;
		}
	}

	UnlockReleaseBuffer(scan->rs_cbuf);
	scan->rs_cbuf = InvalidBuffer;
	ExecClearTuple(slot);
	return false;
}

/* ------------------------------------------------------------------------
 * TABLESAMPLE
 * ------------------------------------------------------------------------
 */

/*
 * pax_scan_sample_next_block reads the next block the TABLESAMPLE method
 * chooses and collects its visible rows.  Adapted from
 * heapam_scan_sample_next_block() in heapam_handler.c, PostgreSQL 15.
 */
bool
pax_scan_sample_next_block(TableScanDesc sscan, SampleScanState *scanstate)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;
	TsmRoutine *tsm = scanstate->tsmroutine;
	BlockNumber blkno;

	if (scan->rs_nblocks == 0)
		return false;

	if (tsm->NextSampleBlock)
		blkno = tsm->NextSampleBlock(scanstate, scan->rs_nblocks);
	else if (!scan->rs_inited)
		blkno = 0;
	else if (scan->rs_cblock + 1 < scan->rs_nblocks)
		blkno = scan->rs_cblock + 1;
	else
		blkno = InvalidBlockNumber;

	if (!BlockNumberIsValid(blkno))
	{
		PaxTableScanFinish(scan);
		return false;
	}
	PaxTableScanCollectPage(scan, blkno);
	scan->rs_inited = true;
	return true;
}

/*
 * pax_scan_sample_next_tuple stores the next row the TABLESAMPLE method
 * chooses on the current block, if visible, in the slot.  Adapted from
 * heapam_scan_sample_next_tuple() in heapam_handler.c, PostgreSQL 15.
 */
bool
pax_scan_sample_next_tuple(TableScanDesc sscan, SampleScanState *scanstate,
						   TupleTableSlot *slot)
{
	PaxTableScanDesc scan = (PaxTableScanDesc) sscan;
	TsmRoutine *tsm = scanstate->tsmroutine;
	BlockNumber blkno = scan->rs_cblock;
	OffsetNumber maxoffset = 0;
	Page		page = NULL;

	if (BufferIsValid(scan->rs_cbuf) && !PageIsNew(BufferGetPage(scan->rs_cbuf)))
	{
		page = BufferGetPage(scan->rs_cbuf);
		maxoffset = PaxPageMaxTid(page);
	}

	for (;;)
	{
		OffsetNumber off;
		int			row;
		int			lo = 0,
					hi = scan->rs_nvis - 1;

		CHECK_FOR_INTERRUPTS();
		off = tsm->NextSampleTuple(scanstate, blkno, maxoffset);
		if (!OffsetNumberIsValid(off))
		{
			ExecClearTuple(slot);
			return false;
		}

		/*
		 * The TID's slot (a map entry a visible row keeps while the page is
		 * pinned), then a binary search among the visible slots, sorted
		 */
		row = PaxPageHasTidMap(page) ?
			PaxTidSlot(page, PaxRowHeadersAt(page), off) : off - 1;
		while (row >= 0 && lo <= hi)
		{
			int			mid = (lo + hi) / 2;

			if (scan->rs_vis[mid] == row)
			{
				PaxSlotStoreRow(slot, sscan->rs_rd, scan->rs_cbuf, blkno,
								row);
				pgstat_count_heap_getnext(sscan->rs_rd);
				return true;
			}
			if (scan->rs_vis[mid] < row)
				lo = mid + 1;
			else
				hi = mid - 1;
		}
	}
}
