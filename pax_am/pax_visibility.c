/*-------------------------------------------------------------------------
 *
 * pax_visibility.c
 *	  Visibility of pax rows: the MVCC fast path of page-at-a-time scans,
 *	  the one HeapTupleSatisfiesVacuum entry point and the verdicts that
 *	  CLUSTER, ANALYZE and VACUUM draw from it, and all-visible pages.
 *
 * A pax row header is a HeapTupleHeaderData, so every decision here is
 * heap's own (heapam_visibility.c), run on a HeapTupleData that points at
 * the row header (PaxRowTuple).  What this file adds is the pax side: which
 * rows of a page exist (UNUSED slots do not), the inline shortcut for the
 * commonest MVCC case, and how each caller reads a HeapTupleSatisfiesVacuum
 * result.  The callers read it differently, as heap's own callers do:
 *
 *	result                 VACUUM        CLUSTER       ANALYZE      index build
 *	---------------------- ------------- ------------- ------------ -------------
 *	DEAD                   reclaim       drop          dead         skip
 *	RECENTLY_DEAD          keep          keep (rd)     dead         index, !alive
 *	LIVE                   keep          keep          live, sample index, alive
 *	INSERT_IN_PROGRESS     keep          keep          live if ours wait unless ours
 *	DELETE_IN_PROGRESS     keep          keep (rd)     dead if ours wait unless ours
 *
 * ("rd": counted as recently dead; "ours": our own transaction's insert or
 * delete; the index build's waiting applies to uniqueness checks only.)
 * VACUUM's column lives in pax_vacuum.c (PaxVacScanPage), the index
 * build's in pax_index.c (PaxBuildDecision); both call PaxRowVacuumStatus.
 *
 * Locking: every routine here reads row headers, so the caller holds the
 * buffer at least share-locked; hint bits may be set under a share lock,
 * as heap does (SetHintBits).  PaxClearAllVisible needs the exclusive lock.
 *
 * pax_am/pax_visibility.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_mvcc.h"

/* ----------------------------------------------------------------
 * Rows by TID
 * ----------------------------------------------------------------
 */

/*
 * PaxReadRow points tuple at the row at tid on the buffer's page for heap's
 * visibility routines; false if there is no such row (beyond the page's
 * TIDs, an item, or a free TID or slot).  The caller holds the buffer
 * pinned and locked.
 */
bool
PaxReadRow(Relation rel, Buffer buffer, ItemPointer tid, HeapTuple tuple)
{
	return PaxReadRowSlot(rel, buffer, tid, tuple) >= 0;
}

/* PaxReadRowSlot is PaxReadRow returning the row's slot, or -1. */
int
PaxReadRowSlot(Relation rel, Buffer buffer, ItemPointer tid, HeapTuple tuple)
{
	Page		page = BufferGetPage(buffer);

	Assert(PaxBufferLockedByMe(buffer, false));
	if (PageIsNew(page) || ItemPointerGetOffsetNumber(tid) < 1)
		return -1;
	/* the row's own header vouches for the page's column count */
	return PaxReadRowAt(rel, buffer,
						PaxPageRowHeaderOffset(rel, page,
											   BufferGetBlockNumber(buffer)),
						tid, tuple);
}

/*
 * PaxReadRowAt is PaxReadRowSlot on a page whose header has been verified
 * and whose row headers start at rowhdrs (PaxPageRowHeaderOffset, or the
 * page's layout).
 */
int
PaxReadRowAt(Relation rel, Buffer buffer, uint16 rowhdrs, ItemPointer tid,
			 HeapTuple tuple)
{
	Page		page = BufferGetPage(buffer);
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	int			row;

	Assert(PaxBufferLockedByMe(buffer, false));
	row = PaxTidSlot(page, rowhdrs, ItemPointerGetOffsetNumber(tid));
	if (row < 0)
		return -1;
	PaxPageCheckRowNatts(rel, page, blkno, PaxRowHeader(page, rowhdrs, row));
	PaxRowTuple(tuple, rel, page, rowhdrs, blkno, row);
	return row;
}

/* ----------------------------------------------------------------
 * The MVCC fast path of page-at-a-time scans
 * ----------------------------------------------------------------
 */

/*
 * PaxXidPrecedes is TransactionIdPrecedes without the call.
 */
static inline bool
PaxXidPrecedes(TransactionId a, TransactionId b)
{
	if (!TransactionIdIsNormal(a) || !TransactionIdIsNormal(b))
		return a < b;
	return (int32) (a - b) < 0;
}

/*
 * PaxRowVisibleByHints decides the commonest case of HeapTupleSatisfiesMVCC
 * without the call: a row inserted by a transaction that committed (hint
 * bit set) before the MVCC snapshot was taken, and never deleted.  False
 * means "ask HeapTupleSatisfiesVisibility", not "invisible".  This is the
 * first branch of HeapTupleSatisfiesMVCC() in heapam_visibility.c,
 * PostgreSQL 15, with XidInMVCCSnapshot reduced to the xmin test that
 * decides it for a committed xid older than the snapshot's xmin.
 */
static inline bool
PaxRowVisibleByHints(HeapTupleHeader hdr, Snapshot snapshot)
{
	return (hdr->t_infomask & (HEAP_XMIN_COMMITTED | HEAP_XMAX_INVALID)) ==
		(HEAP_XMIN_COMMITTED | HEAP_XMAX_INVALID) &&
		(HeapTupleHeaderXminFrozen(hdr) ||
		 PaxXidPrecedes(HeapTupleHeaderGetRawXmin(hdr), snapshot->xmin));
}

/*
 * PaxRowInvisibleByHints decides the commonest case of a dead version in
 * HeapTupleSatisfiesMVCC without the call: a row whose inserter and
 * deleter (or updater, not a locker) committed (hint bits set), the
 * deleter before the MVCC snapshot was taken, as the dead versions of a
 * HOT chain not yet pruned.  False means "ask HeapTupleSatisfiesVisibility",
 * not "visible".  HeapTupleSatisfiesMVCC() in heapam_visibility.c,
 * PostgreSQL 15, returns false on every path for such a row: with xmin
 * committed, after the xmax tests, XidInMVCCSnapshot of an xmax older than
 * the snapshot's xmin is false.
 */
static inline bool
PaxRowInvisibleByHints(HeapTupleHeader hdr, Snapshot snapshot)
{
	uint16		mask = hdr->t_infomask;

	return (mask & (HEAP_XMIN_COMMITTED | HEAP_XMAX_COMMITTED |
					HEAP_XMAX_INVALID | HEAP_XMAX_IS_MULTI)) ==
		(HEAP_XMIN_COMMITTED | HEAP_XMAX_COMMITTED) &&
		!HEAP_XMAX_IS_LOCKED_ONLY(mask) &&
		PaxXidPrecedes(HeapTupleHeaderGetRawXmax(hdr), snapshot->xmin);
}

/*
 * PaxTableScanCollectVisible collects into rs_vis the indexes of the rows
 * of the scan's current page visible to its snapshot: of all rows, or of
 * the ncand rows in cand (ascending) when cand is not NULL.  rowhdrs is the
 * offset of the page's row headers.  The caller holds the page
 * share-locked.  Adapted from heapgetpage() in heapam.c, PostgreSQL 15.
 */
void
PaxTableScanCollectVisible(PaxTableScanDesc scan, Page page, uint16 rowhdrs,
						   const uint16 *cand, int ncand)
{
	Relation	rel = scan->rs_base.rs_rd;
	Snapshot	snapshot = scan->rs_base.rs_snapshot;
	Buffer		buffer = scan->rs_cbuf;
	BlockNumber blkno = scan->rs_cblock;
	int			nrows;
	int			nvis = 0;
	bool		all_visible;
	bool		mvcc = snapshot->snapshot_type == SNAPSHOT_MVCC;
	bool		has_unused = (PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HAS_UNUSED) != 0;

	nrows = cand ? ncand : PaxPageGetHeader(page)->pp_nrows;
	all_visible = PageIsAllVisible(page) && !snapshot->takenDuringRecovery;
	Assert(PaxBufferLockedByMe(buffer, false));
	Assert(nrows <= PAX_MAX_CAPACITY);

	/* an all-visible page without reclaimed slots: every row, unread */
	if (all_visible && !has_unused && !scan->rs_conflict_check)
	{
		StaticAssertStmt(sizeof(scan->rs_vis[0]) == sizeof(uint16),
						 "rs_vis holds row numbers as cand does");
		if (cand)
			memcpy(scan->rs_vis, cand, nrows * sizeof(uint16));
		else
			for (int k = 0; k < nrows; k++)
				scan->rs_vis[k] = k;
		scan->rs_nvis = nrows;
		return;
	}

	for (int k = 0; k < nrows; k++)
	{
		int			row = cand ? cand[k] : k;
		HeapTupleHeader hdr = PaxRowHeaderOf(rel, page, rowhdrs, row);
		bool		visible;

		Assert(row < PaxPageGetHeader(page)->pp_nrows);
		if (has_unused && PaxRowUnused(page, rowhdrs, row))
			continue;			/* a slot VACUUM reclaimed: no row */
		if (all_visible && !scan->rs_conflict_check)
			visible = true;
		else if (mvcc && !scan->rs_conflict_check &&
				 PaxRowVisibleByHints(hdr, snapshot))
			visible = true;
		else if (mvcc && !scan->rs_conflict_check &&
				 PaxRowInvisibleByHints(hdr, snapshot))
			visible = false;
		else
		{
			HeapTupleData tuple;

			PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, row);
			visible = all_visible ||
				HeapTupleSatisfiesVisibility(&tuple, snapshot, buffer);
			if (scan->rs_conflict_check)
				HeapCheckForSerializableConflictOut(visible, rel, &tuple,
													buffer, snapshot);
		}
		if (visible)
			scan->rs_vis[nvis++] = row;
	}
	scan->rs_nvis = nvis;
}

/*
 * PaxTableScanVisibleAll lists in out[] (ascending) every row of the current
 * page visible to the scan's snapshot, for seq_tup_read: the rows heap's
 * scan would return before any qual ran.  The rows in cand[0..ncand) were
 * already checked by PaxTableScanCollectVisible (those visible are in
 * rs_vis); the others, left out by pushed predicates or by a zone map, are
 * checked here, without the SSI conflict check (no value of theirs is
 * read).  The caller holds the page share-locked.  Returns the number of
 * rows listed.
 */
int
PaxTableScanVisibleAll(PaxTableScanDesc scan, Page page, uint16 rowhdrs,
					   const uint16 *cand, int ncand, uint16 *out)
{
	Relation	rel = scan->rs_base.rs_rd;
	Snapshot	snapshot = scan->rs_base.rs_snapshot;
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	bool		has_unused = (PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HAS_UNUSED) != 0;
	bool		all_visible = PageIsAllVisible(page) && !snapshot->takenDuringRecovery;
	bool		mvcc = snapshot->snapshot_type == SNAPSHOT_MVCC;
	int			ci = 0,
				vi = 0,
				n = 0;

	for (int row = 0; row < nrows; row++)
	{
		HeapTupleHeader hdr = PaxRowHeaderOf(rel, page, rowhdrs, row);
		bool		visible;

		if (ci < ncand && cand[ci] == row)
		{
			ci++;
			while (vi < scan->rs_nvis && scan->rs_vis[vi] < row)
				vi++;
			if (vi < scan->rs_nvis && scan->rs_vis[vi] == row)
				out[n++] = row;
			continue;
		}
		if (has_unused && PaxRowUnused(page, rowhdrs, row))
			continue;
		if (all_visible)
			visible = true;
		else if (mvcc && PaxRowVisibleByHints(hdr, snapshot))
			visible = true;
		else if (mvcc && PaxRowInvisibleByHints(hdr, snapshot))
			visible = false;
		else
		{
			HeapTupleData tuple;

			PaxRowTuple(&tuple, rel, page, rowhdrs, scan->rs_cblock, row);
			visible = HeapTupleSatisfiesVisibility(&tuple, snapshot,
												   scan->rs_cbuf);
		}
		if (visible)
			out[n++] = row;
	}
	return n;
}

/* ----------------------------------------------------------------
 * HeapTupleSatisfiesVacuum and what its callers make of it
 * ----------------------------------------------------------------
 */

/*
 * PaxRowVacuumStatus is the one place pax rows meet
 * HeapTupleSatisfiesVacuum: it judges the row tuple points at (PaxRowTuple)
 * against oldest_xmin and, when xact is not NULL, sets *xact to the
 * transaction an in-progress result is about: the inserter for
 * HEAPTUPLE_INSERT_IN_PROGRESS, the deleter (or updater) for
 * HEAPTUPLE_DELETE_IN_PROGRESS, else InvalidTransactionId.  The caller holds
 * the buffer share- or exclusively locked; hint bits may be set.
 */
HTSV_Result
PaxRowVacuumStatus(HeapTuple tuple, TransactionId oldest_xmin, Buffer buffer,
				   TransactionId *xact)
{
	HTSV_Result result;

	Assert(!PaxRowIsUnused(tuple->t_data));
	Assert(PaxBufferLockedByMe(buffer, false));
	result = HeapTupleSatisfiesVacuum(tuple, oldest_xmin, buffer);
	if (xact != NULL)
	{
		if (result == HEAPTUPLE_INSERT_IN_PROGRESS)
			*xact = HeapTupleHeaderGetXmin(tuple->t_data);
		else if (result == HEAPTUPLE_DELETE_IN_PROGRESS)
			*xact = HeapTupleHeaderGetUpdateXid(tuple->t_data);
		else
			*xact = InvalidTransactionId;
	}
	return result;
}

/*
 * PaxKeepRow decides whether VACUUM FULL or CLUSTER copies row `row` of a
 * page: not if it is dead to everyone (counted in *tups_vacuumed); recently
 * dead rows, and rows whose delete is in progress, are kept and counted in
 * *tups_recently_dead.  The caller holds the page share-locked.  Adapted
 * from the HeapTupleSatisfiesVacuum switch of
 * heapam_relation_copy_for_cluster() in heapam_handler.c, PostgreSQL 15.
 */
bool
PaxKeepRow(Relation rel, Page page, uint16 rowhdrs, BlockNumber blkno,
		   int row, Buffer buffer, TransactionId OldestXmin,
		   double *tups_vacuumed, double *tups_recently_dead)
{
	HeapTupleData tuple;

	if (PaxRowUnused(page, rowhdrs, row))
		return false;
	PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, row);			/* a slot VACUUM reclaimed */
	switch (PaxRowVacuumStatus(&tuple, OldestXmin, buffer, NULL))
	{
		case HEAPTUPLE_DEAD:
			*tups_vacuumed += 1;
			return false;
		case HEAPTUPLE_RECENTLY_DEAD:
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			*tups_recently_dead += 1;
			return true;
		case HEAPTUPLE_LIVE:
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			return true;
	}
	elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
	return false;				/* keep compiler quiet */
}

/*
 * PaxAnalyzeRow counts row `row` of a page as live or dead for ANALYZE and
 * tells whether it goes into the sample: live rows, and the inserts and
 * not the deletes of our own transaction, as the end of the transaction
 * will see them.  The caller holds the page share-locked and skips UNUSED
 * slots.  Adapted from heapam_scan_analyze_next_tuple() in
 * heapam_handler.c, PostgreSQL 15.
 */
bool
PaxAnalyzeRow(Relation rel, Page page, uint16 rowhdrs, BlockNumber blkno,
			  int row, Buffer buffer, TransactionId OldestXmin,
			  double *liverows, double *deadrows)
{
	HeapTupleData tuple;
	TransactionId xact;

	PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, row);
	switch (PaxRowVacuumStatus(&tuple, OldestXmin, buffer, &xact))
	{
		case HEAPTUPLE_LIVE:
			*liverows += 1;
			return true;
		case HEAPTUPLE_DEAD:
		case HEAPTUPLE_RECENTLY_DEAD:
			*deadrows += 1;
			return false;
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			/* our own inserts count as live, as the end of xact will see */
			if (!TransactionIdIsCurrentTransactionId(xact))
				return false;
			*liverows += 1;
			return true;
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			/* our own deletes count as dead; others' as live, sampled */
			if (TransactionIdIsCurrentTransactionId(xact))
			{
				*deadrows += 1;
				return false;
			}
			*liverows += 1;
			return true;
	}
	elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
	return false;				/* keep compiler quiet */
}

/* ----------------------------------------------------------------
 * All-visible pages
 * ----------------------------------------------------------------
 */

/*
 * PaxRowsAllVisible tells whether every row left on a page (the buffer's
 * page, or a copy of it being changed) is visible to everyone as of
 * oldest_xmin, with in *cutoff the newest xmin among them and in
 * *all_frozen whether all are frozen.  False for a page without rows.  The
 * caller holds the buffer locked.  Adapted from heap_page_is_all_visible()
 * in vacuumlazy.c, PostgreSQL 15.
 */
bool
PaxRowsAllVisible(Relation rel, Page page, uint16 rowhdrs, Buffer buffer,
					  BlockNumber blkno, TransactionId oldest_xmin,
					  TransactionId *cutoff, bool *all_frozen)
{
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	bool		any = false;

	*cutoff = InvalidTransactionId;
	*all_frozen = true;
	for (int r = 0; r < nrows; r++)
	{
		HeapTupleData tuple;
		TransactionId xmin;

		/*
		 * Index-only scans trust an all-visible page's index entries: none
		 * may name a DEAD item or a slot whose entries are stale, as heap's
		 * heap_page_is_all_visible refuses LP_DEAD line pointers.
		 */
		if (!PaxPageIsCompact(page))
		{
			HeapTupleHeader hdr = PaxRowHeader(page, rowhdrs, r);

			if ((PaxRowIsItem(hdr) && !PaxRowIsRedirect(hdr)) ||
				PaxRowHasStaleEntries(hdr))
				return false;
		}
		if (PaxRowUnused(page, rowhdrs, r))
			continue;
		PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, r);
		any = true;
		if (PaxRowVacuumStatus(&tuple, oldest_xmin, buffer, NULL) !=
			HEAPTUPLE_LIVE)
			return false;
		if (!(tuple.t_data->t_infomask & HEAP_XMAX_INVALID))
			*all_frozen = false;
		if (HeapTupleHeaderXminFrozen(tuple.t_data))
			continue;
		*all_frozen = false;
		xmin = HeapTupleHeaderGetXmin(tuple.t_data);
		if (!TransactionIdPrecedes(xmin, oldest_xmin))
			return false;
		if (!TransactionIdIsValid(*cutoff) || TransactionIdFollows(xmin, *cutoff))
			*cutoff = xmin;
	}
	return any;
}

/*
 * PaxClearAllVisible clears PD_ALL_VISIBLE and the visibility map bits of
 * a page before a change that makes a row not visible to all.  The caller
 * holds the buffer exclusively locked and the map page pinned.
 *
 * Generic WAL cannot log the map page (its bits lie in what generic WAL
 * takes for the page's hole), so the clearing is logged as one of heap's
 * own records whose redo clears the map bits before it looks at the block:
 * XLOG_HEAP2_MULTI_INSERT of no rows, with XLH_INSERT_ALL_VISIBLE_CLEARED.
 * Its redo of our page adds no row: it clears PD_ALL_VISIBLE, sets the LSN
 * and only reads the rest (heap's free-space estimate, which goes to the
 * free space map, as a prune record's does before 17: a pax insert checks
 * the page's room itself).  So the record carries no image of our page but
 * the one full_page_writes asks for after a checkpoint, as heap's own
 * clearing record carries none.  Only when wal_consistency_checking covers
 * heap2 is the image forced: replay would otherwise compare our page after
 * heap_mask, which reads it as a heap page (see PaxVisibilityMapSet); a
 * restored image is compared with nothing.  Logical decoding ignores a
 * multi-insert record without XLH_INSERT_CONTAINS_NEW_TUPLE (heap writes
 * such records for catalogs), so the record decodes as nothing, as every
 * pax change does; a heap DELETE record decoded as a DELETE of no tuple.
 * The change itself follows in a record of its own; a crash between the
 * two leaves a page merely no longer all-visible.  The clearing follows
 * heap_insert()'s and heap_delete()'s in heapam.c, PostgreSQL 15.
 */
void
PaxClearAllVisible(Relation rel, Buffer buffer, Buffer vmbuffer)
{
	Page		page = BufferGetPage(buffer);
	BlockNumber blkno = BufferGetBlockNumber(buffer);

	Assert(PaxBufferLockedByMe(buffer, true));
	Assert(BufferIsValid(vmbuffer));
	Assert(visibilitymap_pin_ok(blkno, vmbuffer));
	START_CRIT_SECTION();
	PageClearAllVisible(page);
	visibilitymap_clear(rel, blkno, vmbuffer, VISIBILITYMAP_VALID_BITS);
	MarkBufferDirty(buffer);
	if (RelationNeedsWAL(rel))
	{
		xl_heap_multi_insert xlrec;
		XLogRecPtr	recptr;

		memset(&xlrec, 0, sizeof(xlrec));
		xlrec.flags = XLH_INSERT_ALL_VISIBLE_CLEARED;
		xlrec.ntuples = 0;
		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, SizeOfHeapMultiInsert);
		XLogRegisterBuffer(0, buffer, REGBUF_STANDARD |
						   (wal_consistency_checking[RM_HEAP2_ID] ?
							REGBUF_FORCE_IMAGE : 0));
		recptr = XLogInsert(RM_HEAP2_ID, XLOG_HEAP2_MULTI_INSERT);
		PageSetLSN(page, recptr);
	}
	END_CRIT_SECTION();
}

/*
 * The visibility map's addressing, as visibilitymap.c computes it (its
 * macros are private to it): two bits per page after the map page's header.
 */
#define PAX_VM_MAPSIZE			(BLCKSZ - MAXALIGN(SizeOfPageHeaderData))
#define PAX_VM_PAGES_PER_BYTE	(BITS_PER_BYTE / BITS_PER_HEAPBLOCK)
#define PAX_VM_PAGES_PER_MAP	(PAX_VM_MAPSIZE * PAX_VM_PAGES_PER_BYTE)

/*
 * PaxVisibilityMapSet sets the visibility map bits of a page VACUUM found
 * all-visible (the caller has set PD_ALL_VISIBLE and logged it, and holds
 * the buffer locked and the map page pinned), as visibilitymap_set does.
 *
 * visibilitymap_set logs heap's XLOG_HEAP2_VISIBLE record, which registers
 * our page without an image.  With wal_consistency_checking covering heap2,
 * the record carries the page's image anyway, for replay to compare after
 * heap_mask: which reads our page as a heap page, takes column directory
 * bytes for line pointers and writes into memory outside the page (a
 * standby's startup process crashed so).  So in that case the record is
 * written here, the same record with our page's image forced: replay then
 * restores the image and compares nothing.  Adapted from
 * visibilitymap_set() in visibilitymap.c and log_heap_visible() in
 * heapam.c, PostgreSQL 15.
 */
void
PaxVisibilityMapSet(Relation rel, BlockNumber blkno, Buffer buffer,
					Buffer vmbuffer, TransactionId cutoff, uint8 flags)
{
	uint32		mapbyte = (blkno % PAX_VM_PAGES_PER_MAP) / PAX_VM_PAGES_PER_BYTE;
	uint8		mapoffset = (blkno % PAX_VM_PAGES_PER_BYTE) * BITS_PER_HEAPBLOCK;
	uint8	   *map;

	if (!RelationNeedsWAL(rel) || !wal_consistency_checking[RM_HEAP2_ID])
	{
		visibilitymap_set(rel, blkno, buffer, InvalidXLogRecPtr, vmbuffer,
						  cutoff, flags);
		return;
	}

	Assert(PageIsAllVisible(BufferGetPage(buffer)));
	if (!BufferIsValid(vmbuffer) ||
		BufferGetBlockNumber(vmbuffer) != blkno / PAX_VM_PAGES_PER_MAP)
		elog(ERROR, "wrong visibility map buffer for block %u", blkno);
	map = (uint8 *) PageGetContents(BufferGetPage(vmbuffer));
	LockBuffer(vmbuffer, BUFFER_LOCK_EXCLUSIVE);
	if (((map[mapbyte] >> mapoffset) & VISIBILITYMAP_VALID_BITS) != flags)
	{
		xl_heap_visible xlrec;
		XLogRecPtr	recptr;

		START_CRIT_SECTION();
		map[mapbyte] |= (flags << mapoffset);
		MarkBufferDirty(vmbuffer);
		memset(&xlrec, 0, sizeof(xlrec));
		PaxVisibleCutoff(xlrec) = cutoff;
		xlrec.flags = flags;
#ifdef VISIBILITYMAP_XLOG_CATALOG_REL
		if (RelationIsAccessibleInLogicalDecoding(rel))
			xlrec.flags |= VISIBILITYMAP_XLOG_CATALOG_REL;
#endif
		XLogBeginInsert();
		XLogRegisterData((char *) &xlrec, SizeOfHeapVisible);
		XLogRegisterBuffer(0, vmbuffer, 0);
		XLogRegisterBuffer(1, buffer, REGBUF_STANDARD | REGBUF_FORCE_IMAGE);
		recptr = XLogInsert(RM_HEAP2_ID, XLOG_HEAP2_VISIBLE);
		PageSetLSN(BufferGetPage(buffer), recptr);
		PageSetLSN(BufferGetPage(vmbuffer), recptr);
		END_CRIT_SECTION();
	}
	LockBuffer(vmbuffer, BUFFER_LOCK_UNLOCK);
}
