/*-------------------------------------------------------------------------
 *
 * pax_index.c
 *	  Index support of the pax table access method: fetching rows by TID
 *	  for index scans, building and validating indexes, and telling index
 *	  AMs which of their entries point at dead rows.
 *
 * A pax row keeps its TID for life.  An UPDATE that changes no indexed
 * column and fits its page makes a heap-only version (pax_hot.c): an index
 * entry then names the root of a HOT chain, which a fetch follows to the
 * version its snapshot sees (call_again for snapshots that may see more),
 * and a build indexes each version under its root's TID.
 *
 * pax_am/pax_index.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/index.h"
#include "commands/progress.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "storage/procarray.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/tuplesort.h"

#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/* Index fetch state: keeps the last page pinned for the next fetch. */
typedef struct IndexFetchPaxData
{
	IndexFetchTableData xs_base;
	Buffer		xs_cbuf;		/* pinned page of the last fetch, or Invalid */
} IndexFetchPaxData;

/* ------------------------------------------------------------------------
 * Index scans
 * ------------------------------------------------------------------------
 */

/*
 * pax_index_fetch_begin starts fetching rows by TID for an index scan.
 * Adapted from heapam_index_fetch_begin() in heapam_handler.c,
 * PostgreSQL 15.
 */
IndexFetchTableData *
pax_index_fetch_begin(Relation rel)
{
	IndexFetchPaxData *pscan = palloc0(sizeof(IndexFetchPaxData));

	PaxBulkPlaceFor(rel);
	pscan->xs_base.rel = rel;
	pscan->xs_cbuf = InvalidBuffer;
	return &pscan->xs_base;
}

/*
 * pax_index_fetch_reset drops the pin on the page of the last fetch.
 * Adapted from heapam_index_fetch_reset() in heapam_handler.c,
 * PostgreSQL 15.
 */
void
pax_index_fetch_reset(IndexFetchTableData *scan)
{
	IndexFetchPaxData *pscan = (IndexFetchPaxData *) scan;

	if (BufferIsValid(pscan->xs_cbuf))
	{
		ReleaseBuffer(pscan->xs_cbuf);
		pscan->xs_cbuf = InvalidBuffer;
	}
}

/*
 * pax_index_fetch_end ends fetching rows by TID.  Adapted from
 * heapam_index_fetch_end() in heapam_handler.c, PostgreSQL 15.
 */
void
pax_index_fetch_end(IndexFetchTableData *scan)
{
	pax_index_fetch_reset(scan);
	pfree(scan);
}

/*
 * pax_index_fetch_tuple stores in the slot the version of the HOT chain at
 * tid that the snapshot sees (PaxHotSearch), and sets tid to its TID.
 * *call_again asks to be called again for the next version a non-MVCC
 * snapshot may see; *all_dead (when asked) tells the index AM that every
 * version is dead to everyone, so it may mark its entry dead.  A page is
 * pruned when the fetch comes to it (PaxPagePruneOpt).  Adapted from
 * heapam_index_fetch_tuple() in heapam_handler.c, PostgreSQL 15.
 */
bool
pax_index_fetch_tuple(IndexFetchTableData *scan, ItemPointer tid,
					  Snapshot snapshot, TupleTableSlot *slot,
					  bool *call_again, bool *all_dead)
{
	IndexFetchPaxData *pscan = (IndexFetchPaxData *) scan;
	Relation	rel = scan->rel;
	BlockNumber blkno = ItemPointerGetBlockNumber(tid);
	int			row;
	bool		first_call = !*call_again;
	HeapTupleData tp;
	Page		page;
	uint16		rowhdrs;
	bool		visible;

	if (!BufferIsValid(pscan->xs_cbuf) ||
		BufferGetBlockNumber(pscan->xs_cbuf) != blkno)
	{
		pscan->xs_cbuf = ReleaseAndReadBuffer(pscan->xs_cbuf, rel, blkno);
		PaxPagePruneOpt(rel, pscan->xs_cbuf);
	}

	/*
	 * A page fetched by TID is seldom in the CPU's cache: have the lines its
	 * verification reads first (the page header, the special space at its
	 * end) loading while the buffer lock is taken.
	 */
	page = BufferGetPage(pscan->xs_cbuf);
	__builtin_prefetch(page);
	__builtin_prefetch(page + BLCKSZ - PAX_CACHE_LINE_SIZE);
	LockBuffer(pscan->xs_cbuf, BUFFER_LOCK_SHARE);
	if (PageIsNew(page))
	{
		/* left by a crash after extension: no row is there */
		LockBuffer(pscan->xs_cbuf, BUFFER_LOCK_UNLOCK);
		*call_again = false;
		if (all_dead)
			*all_dead = first_call;
		return false;
	}
	if (slot->tts_ops == &TTSOpsPaxTuple &&
		PaxPageGetHeader(page)->pp_natts <= slot->tts_tupleDescriptor->natts &&
		!PaxPageIsOrphan(page) && ItemPointerGetOffsetNumber(tid) >= 1 &&
		ItemPointerGetOffsetNumber(tid) <= PaxPageMaxTid(page))
	{
		/*
		 * Lay the page out in the slot now (not an orphan page, laid out by a
		 * rolled-back ADD COLUMN for columns the relation may since have
		 * got otherwise: its rows are all dead), and have the row's lines
		 * loading while we look at its header: the visibility check below and the
		 * executor's reading of the columns then find them in cache.
		 */
		const PaxPageLayout *layout;

		/* fetches come back to pages: the slot's layouts may grow */
		((PaxTupleTableSlot *) slot)->lcache.grows = true;
		layout = PaxSlotPinPage(slot, rel, pscan->xs_cbuf, blkno);

		rowhdrs = layout->rowhdrs;
		row = PaxTidSlot(page, rowhdrs, ItemPointerGetOffsetNumber(tid));
		if (row >= 0)
			PaxSlotPrefetchRow(slot, row);
	}
	else
		rowhdrs = PaxPageRowHeaderOffset(rel, page, blkno);

	visible = PaxHotSearch(rel, pscan->xs_cbuf, rowhdrs, tid, snapshot, &tp,
						   all_dead, first_call);
	row = visible ? PaxTidSlot(page, rowhdrs, ItemPointerGetOffsetNumber(tid)) : -1;
	LockBuffer(pscan->xs_cbuf, BUFFER_LOCK_UNLOCK);
	*call_again = visible && !IsMVCCSnapshot(snapshot);
	if (visible)
		PaxSlotStoreRow(slot, rel, pscan->xs_cbuf, blkno, row);
	return visible;
}

/* ------------------------------------------------------------------------
 * Index entry deletion (btree's simple and bottom-up deletion)
 * ------------------------------------------------------------------------
 */

/*
 * PaxDeltidKey: a deletion candidate's TID as one number, block then
 * offset, so that candidates sort by TID with one comparison.
 */
static inline uint64
PaxDeltidKey(const TM_IndexDelete *d)
{
	return ((uint64) ItemPointerGetBlockNumberNoCheck(&d->tid) << 16) |
		ItemPointerGetOffsetNumberNoCheck(&d->tid);
}

/*
 * pax_sort_deltids sorts deletion candidates by TID, the comparison inlined
 * (sort_template.h): btree hands over every entry of an index page, and
 * qsort()'s call per comparison cost more than the pages' visits.
 */
#define ST_SORT pax_sort_deltids
#define ST_ELEMENT_TYPE TM_IndexDelete
#define ST_COMPARE(a, b) \
	(PaxDeltidKey(a) < PaxDeltidKey(b) ? -1 : PaxDeltidKey(a) > PaxDeltidKey(b))
#define ST_SCOPE static
#define ST_DEFINE
#include "lib/sort_template.h"

/* the most table pages one bottom-up deletion reads, as heap's */
#define PAX_BOTTOMUP_MAX_BLOCKS		6

/* PaxDelBlock: one table page's candidates, for bottom-up deletion */
typedef struct PaxDelBlock
{
	BlockNumber blkno;
	int			first;			/* its first candidate, in TID order */
	int			n;				/* its candidates */
	int			npromising;		/* of them, those the index AM marked */
} PaxDelBlock;

/*
 * PaxDelBlockCompare puts the pages likeliest to free index entries first:
 * more promising candidates, then more candidates, then lower blocks.
 */
static int
PaxDelBlockCompare(const void *a, const void *b)
{
	const PaxDelBlock *x = a;
	const PaxDelBlock *y = b;

	if (x->npromising != y->npromising)
		return x->npromising > y->npromising ? -1 : 1;
	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->blkno < y->blkno ? -1 : x->blkno > y->blkno ? 1 : 0;
}

/*
 * PaxBottomUpOrder reorders the candidates (in TID order) of a bottom-up
 * deletion by page, the most promising pages first (PaxDelBlockCompare),
 * keeping only the first PAX_BOTTOMUP_MAX_BLOCKS pages' candidates.
 * Adapted in spirit from bottomup_sort_and_shrink() in heapam.c,
 * PostgreSQL 15 (ranked by counts alone, without its block groups).
 */
static void
PaxBottomUpOrder(TM_IndexDeleteOp *delstate)
{
	PaxDelBlock *blocks = palloc(delstate->ndeltids * sizeof(PaxDelBlock));
	TM_IndexDelete *sorted;
	int			nblocks = 0;
	int			n = 0;

	for (int i = 0; i < delstate->ndeltids; i++)
	{
		TM_IndexDelete *del = &delstate->deltids[i];
		BlockNumber blkno = ItemPointerGetBlockNumber(&del->tid);

		if (nblocks == 0 || blocks[nblocks - 1].blkno != blkno)
		{
			blocks[nblocks].blkno = blkno;
			blocks[nblocks].first = i;
			blocks[nblocks].n = 0;
			blocks[nblocks].npromising = 0;
			nblocks++;
		}
		blocks[nblocks - 1].n++;
		blocks[nblocks - 1].npromising += delstate->status[del->id].promising;
	}
	qsort(blocks, nblocks, sizeof(PaxDelBlock), PaxDelBlockCompare);
	nblocks = Min(nblocks, PAX_BOTTOMUP_MAX_BLOCKS);
	sorted = palloc(delstate->ndeltids * sizeof(TM_IndexDelete));
	for (int b = 0; b < nblocks; b++)
	{
		memcpy(&sorted[n], &delstate->deltids[blocks[b].first],
			   blocks[b].n * sizeof(TM_IndexDelete));
		n += blocks[b].n;
	}
	memcpy(delstate->deltids, sorted, n * sizeof(TM_IndexDelete));
	delstate->ndeltids = n;
	pfree(sorted);
	pfree(blocks);
}

/*
 * pax_index_delete_tuples marks the entries whose rows are dead to
 * everyone as deletable and returns the newest xid among the rows so
 * removed, for the index AM's recovery conflict horizon: an entry whose
 * every HOT chain version is dead (PaxHotChainDead).  A simple deletion's
 * candidates are all checked.  A bottom-up deletion's are checked a page
 * at a time, the most promising pages first and at most
 * PAX_BOTTOMUP_MAX_BLOCKS of them (PaxBottomUpOrder), until the entries
 * found deletable free the bottomupfreespace bytes the index AM asked for:
 * it asks on every page split it tries to avoid, with every entry of the
 * index page as a candidate.  Adapted from heap_index_delete_tuples() in
 * heapam.c, PostgreSQL 15.
 */
TransactionId
pax_index_delete_tuples(Relation rel, TM_IndexDeleteOp *delstate)
{
	TransactionId latest = InvalidTransactionId;
	GlobalVisState *vistest = GlobalVisTestFor(rel);
	Buffer		buffer = InvalidBuffer;
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	uint16		rowhdrs = 0;
	int			freed = 0;
	int			final = 0;

	/* visit each page once: deltids in TID order, by page */
	pax_sort_deltids(delstate->deltids, delstate->ndeltids);
	if (delstate->bottomup)
		PaxBottomUpOrder(delstate);

	for (int i = 0; i < delstate->ndeltids; i++)
	{
		TM_IndexDelete *del = &delstate->deltids[i];
		TM_IndexStatus *status = &delstate->status[del->id];
		BlockNumber blkno = ItemPointerGetBlockNumber(&del->tid);

		if (delstate->bottomup && freed >= delstate->bottomupfreespace &&
			(!BufferIsValid(buffer) || BufferGetBlockNumber(buffer) != blkno))
			break;				/* enough room, and a new page */
		if (blkno < nblocks &&
			(!BufferIsValid(buffer) || BufferGetBlockNumber(buffer) != blkno))
		{
			if (BufferIsValid(buffer))
				UnlockReleaseBuffer(buffer);
			buffer = ReadBuffer(rel, blkno);
			LockBuffer(buffer, BUFFER_LOCK_SHARE);
			/* a page verified once for all its candidates */
			if (!PageIsNew(BufferGetPage(buffer)))
				rowhdrs = PaxPageRowHeaderOffset(rel, BufferGetPage(buffer),
												 blkno);
		}

		/*
		 * The entry goes when its whole HOT chain is dead, or its page is
		 * truncated (the row long gone) or new (left by a crash after
		 * extension: no row is there).
		 */
		if (blkno < nblocks && !PageIsNew(BufferGetPage(buffer)) &&
			!PaxHotChainDead(rel, buffer, rowhdrs,
							 &del->tid, vistest, status->knowndeletable,
							 &latest))
			continue;
		status->knowndeletable = true;
		freed += status->freespace;
		final = i + 1;
	}
	if (BufferIsValid(buffer))
		UnlockReleaseBuffer(buffer);

	/*
	 * As heap: the entries after the last deletable one are dropped, so an
	 * index AM may rely on ndeltids being zero when nothing is deletable.
	 * The index AM sorts deltids back into its own order.
	 */
	Assert(final > 0 || delstate->bottomup);
	delstate->ndeltids = final;
	return latest;
}

/* ------------------------------------------------------------------------
 * Building indexes
 * ------------------------------------------------------------------------
 */

/*
 * PaxBuildDecision decides, under the page's share lock, whether a row
 * goes into an index being built with SnapshotAny and whether it counts
 * as alive, as heap's build does; returns the xid to wait for (then
 * decide again) when a concurrent transaction's insert or delete must end
 * first for a uniqueness check, or for a HOT-updated row whose updater may
 * yet abort.  A HOT chain is indexed by its live end only (under the
 * root's TID): a HOT-updated row that older snapshots may still see is not
 * indexed, and the index is marked unsafe for them (ii_BrokenHotChain).
 * Adapted from the HeapTupleSatisfiesVacuum switch of
 * heapam_index_build_range_scan() in heapam_handler.c, PostgreSQL 15.
 */
static TransactionId
PaxBuildDecision(Relation rel, HeapTuple tp, Buffer buffer,
				 TransactionId oldest_xmin, bool anyvisible,
				 bool checking_uniqueness, IndexInfo *indexInfo,
				 bool *index_it, bool *alive, double *reltuples)
{
	TransactionId xact;
	HTSV_Result htsv;
	bool		hot_updated = HeapTupleIsHotUpdated(tp);

	*index_it = true;
	*alive = true;
	htsv = PaxRowVacuumStatus(tp, oldest_xmin, buffer, &xact);
	switch (htsv)
	{
		case HEAPTUPLE_DEAD:
			*index_it = false;
			*alive = false;
			return InvalidTransactionId;
		case HEAPTUPLE_LIVE:
			*reltuples += 1;
			return InvalidTransactionId;
		case HEAPTUPLE_RECENTLY_DEAD:
			/* older snapshots may still see it: index it, unless HOT */
			*alive = false;
			if (hot_updated)
			{
				*index_it = false;
				indexInfo->ii_BrokenHotChain = true;
			}
			return InvalidTransactionId;
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			/* indexed: if the build commits, the row is good */
			if (!anyvisible && !TransactionIdIsCurrentTransactionId(xact))
			{
				if (!IsSystemRelation(rel))
					elog(WARNING, "concurrent insert in progress within table \"%s\"",
						 RelationGetRelationName(rel));
				if (checking_uniqueness)
					return xact;
			}
			*reltuples += 1;
			return InvalidTransactionId;
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			break;
		default:
			elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
	}

	/* a delete in progress: the row is not alive for uniqueness checks */
	*alive = false;
	if (anyvisible)
		*reltuples += 1;
	else if (!TransactionIdIsCurrentTransactionId(xact))
	{
		if (!IsSystemRelation(rel))
			elog(WARNING, "concurrent delete in progress within table \"%s\"",
				 RelationGetRelationName(rel));

		/*
		 * A HOT-updated row is indexed only if its updater aborts after all,
		 * which only waiting tells; as is a uniqueness check's.
		 */
		if (checking_uniqueness || hot_updated)
			return xact;
		*reltuples += 1;
	}
	else if (hot_updated)
	{
		/* our own HOT update: as a RECENTLY_DEAD one (we may commit) */
		*index_it = false;
		indexInfo->ii_BrokenHotChain = true;
	}
	return InvalidTransactionId;
}

/*
 * PaxBuildRoot sets *root, the TID of row row (a heap-only version on the
 * share-locked page), to its chain root's, the TID its index entries name;
 * root_of (PaxHotRootRows) is computed again when it does not know the row
 * (a version added since), and a version without a root is corruption.
 */
static void
PaxBuildRoot(Relation rel, Page page, uint16 rowhdrs, int row,
			 OffsetNumber *root_of, ItemPointer root)
{
	BlockNumber blkno = ItemPointerGetBlockNumber(root);

	if (root_of[row] == InvalidOffsetNumber)
		PaxHotRootRows(rel, page, rowhdrs, blkno, root_of);
	if (root_of[row] == InvalidOffsetNumber)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg_internal("failed to find parent tuple for heap-only tuple at (%u,%u) in table \"%s\"",
								 blkno, PaxSlotTid(page, row),
								 RelationGetRelationName(rel))));
	ItemPointerSetOffsetNumber(root, root_of[row]);
}

/*
 * pax_index_build_range_scan feeds the index build callback every row of
 * blocks [start_blockno, start_blockno + numblocks) the index must hold:
 * with an MVCC snapshot (CREATE INDEX CONCURRENTLY, parallel builds of
 * one) the rows it sees; otherwise every row not yet dead to everyone,
 * flagged alive or not.  Partial indexes' predicates and expression
 * columns are evaluated on a pax slot.  Returns the live row count.
 * Adapted from heapam_index_build_range_scan() in heapam_handler.c,
 * PostgreSQL 15.
 */
double
pax_index_build_range_scan(Relation tableRelation, Relation indexRelation,
						   IndexInfo *indexInfo, bool allow_sync,
						   bool anyvisible, bool progress,
						   BlockNumber start_blockno, BlockNumber numblocks,
						   IndexBuildCallback callback, void *callback_state,
						   TableScanDesc scan)
{
	bool		checking_uniqueness = indexInfo->ii_Unique ||
		indexInfo->ii_ExclusionOps != NULL;
	EState	   *estate = CreateExecutorState();
	ExprContext *econtext = GetPerTupleExprContext(estate);
	TupleTableSlot *slot = table_slot_create(tableRelation, NULL);
	ExprState  *predicate;
	Snapshot	snapshot;
	bool		unregister = false;
	TransactionId oldest_xmin = InvalidTransactionId;
	PaxTableScanDesc pscan;
	BlockNumber blkno;
	BlockNumber done = 0;
	double		reltuples = 0;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	OffsetNumber root_of[PAX_MAX_CAPACITY];

	/* a serial build of a non-concurrent index gets its rows with SnapshotAny */
	Assert(!(anyvisible && checking_uniqueness));
	econtext->ecxt_scantuple = slot;
	predicate = ExecPrepareQual(indexInfo->ii_Predicate, estate);

	if (scan == NULL)
	{
		if (IsBootstrapProcessingMode() || indexInfo->ii_Concurrent)
		{
			snapshot = RegisterSnapshot(GetTransactionSnapshot());
			unregister = true;
		}
		else
			snapshot = SnapshotAny;
		scan = table_beginscan_strat(tableRelation, snapshot, 0, NULL, true,
									 allow_sync);
	}
	else
		snapshot = scan->rs_snapshot;
	if (!IsMVCCSnapshot(snapshot))
		oldest_xmin = GetOldestNonRemovableTransactionId(tableRelation);

	pscan = (PaxTableScanDesc) scan;
	if (scan->rs_parallel == NULL &&
		(start_blockno != 0 || numblocks != InvalidBlockNumber))
	{
		pscan->rs_startblock = start_blockno;
		pscan->rs_numblocks = numblocks;
	}
	if (progress)
		pgstat_progress_update_param(PROGRESS_SCAN_BLOCKS_TOTAL,
									 scan->rs_parallel ?
									 ((ParallelBlockTableScanDesc) scan->rs_parallel)->phs_nblocks :
									 pscan->rs_nblocks);

	while ((blkno = PaxTableScanNextBlock(pscan, ForwardScanDirection)) !=
		   InvalidBlockNumber)
	{
		Page		page = PaxTableScanLockPage(pscan, blkno);
		Buffer		buffer = pscan->rs_cbuf;
		uint16		rowhdrs;
		int			nrows;

		if (progress)
			pgstat_progress_update_param(PROGRESS_SCAN_BLOCKS_DONE, ++done);
		if (page == NULL)
			continue;
		rowhdrs = PaxPageRowHeaders(tableRelation, page, blkno);
		nrows = PaxPageGetHeader(page)->pp_nrows;
		PaxHotRootRows(tableRelation, page, rowhdrs, blkno, root_of);

		for (int row = 0; row < nrows; row++)
		{
			HeapTupleData tp;
			ItemPointerData root;
			bool		index_it;
			bool		alive;

			if (PaxRowUnused(page, rowhdrs, row))
				continue;
			PaxRowTuple(&tp, tableRelation, page, rowhdrs, blkno, row);
			if (IsMVCCSnapshot(snapshot))
			{
				index_it = HeapTupleSatisfiesVisibility(&tp, snapshot, buffer);
				alive = true;
				if (index_it)
					reltuples += 1;
			}
			else
			{
				TransactionId xwait;

				xwait = PaxBuildDecision(tableRelation, &tp, buffer,
										 oldest_xmin, anyvisible,
										 checking_uniqueness, indexInfo,
										 &index_it, &alive, &reltuples);
				if (TransactionIdIsValid(xwait))
				{
					/* wait for it, then look at the row again */
					LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
					XactLockTableWait(xwait, tableRelation, &tp.t_self,
									  XLTW_InsertIndexUnique);
					CHECK_FOR_INTERRUPTS();
					LockBuffer(buffer, BUFFER_LOCK_SHARE);
					row--;
					continue;
				}
			}
			if (!index_it)
				continue;

			/* a heap-only version is indexed under its chain's root */
			root = tp.t_self;
			if (HeapTupleIsHeapOnly(&tp))
				PaxBuildRoot(tableRelation, page, rowhdrs, row, root_of,
							 &root);

			/* values are read with the pin only; the lock is for headers */
			LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
			MemoryContextReset(econtext->ecxt_per_tuple_memory);
			PaxSlotStoreRow(slot, tableRelation, buffer, blkno, row);
			if (predicate == NULL || ExecQual(predicate, econtext))
			{
				FormIndexDatum(indexInfo, slot, estate, values, isnull);
				callback(indexRelation, &root, values, isnull, alive,
						 callback_state);
			}
			LockBuffer(buffer, BUFFER_LOCK_SHARE);
		}
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	}

	table_endscan(scan);
	if (unregister)
		UnregisterSnapshot(snapshot);
	ExecDropSingleTupleTableSlot(slot);
	FreeExecutorState(estate);

	/* these may have been pointing to the now-gone estate */
	indexInfo->ii_ExpressionsState = NIL;
	indexInfo->ii_PredicateState = NULL;
	return reltuples;
}

/*
 * pax_index_validate_scan is the second table pass of CREATE INDEX
 * CONCURRENTLY: every row the snapshot sees whose TID the index (its TIDs
 * sorted in state->tuplesort) lacks is inserted into the index.  Adapted
 * from heapam_index_validate_scan() in heapam_handler.c, PostgreSQL 15.
 */
void
pax_index_validate_scan(Relation tableRelation, Relation indexRelation,
						IndexInfo *indexInfo, Snapshot snapshot,
						ValidateIndexState *state)
{
	EState	   *estate = CreateExecutorState();
	ExprContext *econtext = GetPerTupleExprContext(estate);
	TupleTableSlot *slot = table_slot_create(tableRelation, NULL);
	ExprState  *predicate;
	TableScanDesc scan;
	PaxTableScanDesc pscan;
	BlockNumber blkno;
	ItemPointerData indexcursor;
	OffsetNumber root_of[PAX_MAX_CAPACITY];
	bool		in_index[PAX_MAX_CAPACITY];
	bool		have_index = false;
	bool		index_done = false;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];

	econtext->ecxt_scantuple = slot;
	predicate = ExecPrepareQual(indexInfo->ii_Predicate, estate);
	ItemPointerSetInvalid(&indexcursor);

	scan = table_beginscan_strat(tableRelation, snapshot, 0, NULL, true, false);
	pscan = (PaxTableScanDesc) scan;
	pgstat_progress_update_param(PROGRESS_SCAN_BLOCKS_TOTAL, pscan->rs_nblocks);

	while ((blkno = PaxTableScanNextBlock(pscan, ForwardScanDirection)) !=
		   InvalidBlockNumber)
	{
		Page		page = PaxTableScanLockPage(pscan, blkno);
		uint16		rowhdrs;

		pgstat_progress_update_param(PROGRESS_SCAN_BLOCKS_DONE, blkno + 1);
		if (page == NULL)
			continue;
		rowhdrs = PaxPageRowHeaders(tableRelation, page, blkno);
		PaxTableScanCollectVisible(pscan, page, rowhdrs, NULL, 0);
		PaxHotRootRows(tableRelation, page, rowhdrs, blkno, root_of);
		LockBuffer(pscan->rs_cbuf, BUFFER_LOCK_UNLOCK);
		memset(in_index, 0, sizeof(in_index));
		if (have_index && ItemPointerGetBlockNumber(&indexcursor) == blkno &&
			ItemPointerGetOffsetNumber(&indexcursor) <= PAX_MAX_CAPACITY)
			in_index[ItemPointerGetOffsetNumber(&indexcursor) - 1] = true;

		for (int k = 0; k < pscan->rs_nvis; k++)
		{
			ItemPointerData tid;
			OffsetNumber rootoff = root_of[pscan->rs_vis[k]];

			/* a heap-only version's entry names its chain's root */
			if (rootoff == InvalidOffsetNumber)
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("failed to find parent tuple for heap-only tuple at (%u,%u) in table \"%s\"",
										 blkno, PaxSlotTid(page, pscan->rs_vis[k]),
										 RelationGetRelationName(tableRelation))));
			ItemPointerSet(&tid, blkno, rootoff);

			/*
			 * Advance the sorted index TIDs up to this root, noting those of
			 * this page (roots are not in row order).
			 */
			while (!index_done &&
				   (!have_index || ItemPointerCompare(&indexcursor, &tid) < 0))
			{
				Datum		ts_val;
				bool		ts_isnull;

				have_index = PaxTuplesortGetDatum(state->tuplesort, true,
												&ts_val, &ts_isnull, NULL);
				if (!have_index)
				{
					index_done = true;
					break;
				}
				Assert(!ts_isnull);
				itemptr_decode(&indexcursor, DatumGetInt64(ts_val));
#ifndef USE_FLOAT8_BYVAL
				pfree(DatumGetPointer(ts_val));
#endif
				if (ItemPointerGetBlockNumber(&indexcursor) == blkno &&
					ItemPointerGetOffsetNumber(&indexcursor) <= PAX_MAX_CAPACITY)
					in_index[ItemPointerGetOffsetNumber(&indexcursor) - 1] = true;
			}
			if (in_index[rootoff - 1])
				continue;		/* already in the index */

			MemoryContextReset(econtext->ecxt_per_tuple_memory);
			PaxSlotStoreRow(slot, tableRelation, pscan->rs_cbuf, blkno,
							pscan->rs_vis[k]);
			if (predicate != NULL && !ExecQual(predicate, econtext))
				continue;
			FormIndexDatum(indexInfo, slot, estate, values, isnull);
			index_insert(indexRelation, values, isnull, &tid, tableRelation,
						 indexInfo->ii_Unique ? UNIQUE_CHECK_YES : UNIQUE_CHECK_NO,
						 false, indexInfo);
			state->tups_inserted += 1;
			in_index[rootoff - 1] = true;
		}
	}

	table_endscan(scan);
	ExecDropSingleTupleTableSlot(slot);
	FreeExecutorState(estate);
	indexInfo->ii_ExpressionsState = NIL;
	indexInfo->ii_PredicateState = NULL;
}
