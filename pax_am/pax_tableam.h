/*-------------------------------------------------------------------------
 *
 * pax_tableam.h
 *	  The pax table AM's access paths.
 *
 * The entry points of the access paths that pax_handler.c wires into the
 * TableAmRoutine and that call each other: scans, inserts and kept rows,
 * DELETE, UPDATE and row locks, VACUUM, rewrites, index support and the
 * records of logical decoding; and the state that the files of one access
 * path share: a row being changed (PaxTarget, pax_lock.c and pax_modify.c)
 * and one VACUUM's (PaxVacState, pax_vacuum.c and pax_vacuum_page.c).
 *
 * pax_am/pax_tableam.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_TABLEAM_H
#define PAX_TABLEAM_H

#include "access/heapam.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "commands/vacuum.h"

#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_xlog.h"
#include "pax_hio.h"

/*
 * What an UPDATE tells the executor about index entries: a bool until 15,
 * TU_UpdateIndexes (none, all, summarizing only) from 16 on.  A new version
 * placed elsewhere needs an entry in every index; a heap-only one (HOT)
 * none, or from 16 on only in the summarizing indexes whose columns
 * changed.
 */
#if PG_VERSION_NUM >= 160000
typedef TU_UpdateIndexes PaxUpdateIndexes;
#define PAX_UPDATE_ALL_INDEXES TU_All
#define PAX_UPDATE_NO_INDEXES TU_None
#else
typedef bool PaxUpdateIndexes;
#define PAX_UPDATE_ALL_INDEXES true
#define PAX_UPDATE_NO_INDEXES false
#endif

/* pax_tablescan.c */
extern TableScanDesc pax_scan_begin(Relation relation, Snapshot snapshot,
									int nkeys, struct ScanKeyData *key,
									ParallelTableScanDesc parallel_scan,
									uint32 flags);
extern void pax_scan_end(TableScanDesc sscan);
extern void pax_scan_rescan(TableScanDesc sscan, struct ScanKeyData *key,
							bool set_params, bool allow_strat,
							bool allow_sync, bool allow_pagemode);
extern bool pax_scan_getnextslot(TableScanDesc sscan,
								 ScanDirection direction,
								 TupleTableSlot *slot);
extern void pax_scan_set_tidrange(TableScanDesc sscan, ItemPointer mintid,
								  ItemPointer maxtid);
extern bool pax_scan_getnextslot_tidrange(TableScanDesc sscan,
										  ScanDirection direction,
										  TupleTableSlot *slot);
extern bool pax_fetch_row_version(Relation relation, ItemPointer tid,
								  Snapshot snapshot, TupleTableSlot *slot);
extern bool pax_tuple_tid_valid(TableScanDesc scan, ItemPointer tid);
extern bool pax_tuple_satisfies_snapshot(Relation rel, TupleTableSlot *slot,
										 Snapshot snapshot);
#if PG_VERSION_NUM >= 170000
extern bool pax_scan_analyze_next_block(TableScanDesc scan,
										struct ReadStream *stream);
#else
extern bool pax_scan_analyze_next_block(TableScanDesc scan,
										BlockNumber blockno,
										BufferAccessStrategy bstrategy);
#endif
extern bool pax_scan_analyze_next_tuple(TableScanDesc scan,
										TransactionId OldestXmin,
										double *liverows, double *deadrows,
										TupleTableSlot *slot);
#if PG_VERSION_NUM >= 180000
extern bool pax_scan_bitmap_next_tuple(TableScanDesc scan,
									   TupleTableSlot *slot, bool *recheck,
									   uint64 *lossy_pages,
									   uint64 *exact_pages);
#else
extern bool pax_scan_bitmap_next_block(TableScanDesc scan,
									   struct TBMIterateResult *tbmres);
extern bool pax_scan_bitmap_next_tuple(TableScanDesc scan,
									   struct TBMIterateResult *tbmres,
									   TupleTableSlot *slot);
#endif
extern bool pax_scan_sample_next_block(TableScanDesc scan,
									   struct SampleScanState *scanstate);
extern bool pax_scan_sample_next_tuple(TableScanDesc scan,
									   struct SampleScanState *scanstate,
									   TupleTableSlot *slot);

extern BlockNumber PaxTableScanNextBlock(PaxTableScanDesc scan,
										 ScanDirection direction);
extern void PaxTableScanFinish(PaxTableScanDesc scan);
extern Page PaxTableScanPinAhead(PaxTableScanDesc scan, BlockNumber blkno);
extern BlockNumber PaxTableScanPeekNextBlock(PaxTableScanDesc scan);
extern Page PaxTableScanLockPage(PaxTableScanDesc scan, BlockNumber blkno);

/* pax_bulk.c */
extern bool pax_batch_bulk_inserts;
extern void PaxBulkInit(void);

/* pax_insert.c */
extern bool pax_compact_rows;
extern void pax_tuple_insert(Relation relation, TupleTableSlot *slot,
							 CommandId cid, int options,
							 struct BulkInsertStateData *bistate);
extern void pax_multi_insert(Relation relation, TupleTableSlot **slots,
							 int ntuples, CommandId cid, int options,
							 struct BulkInsertStateData *bistate);
extern void pax_finish_bulk_insert(Relation relation, int options);
extern int	PaxMultiInsert(Relation relation, TupleTableSlot **slots,
						   int ntuples, CommandId cid, int options,
						   struct BulkInsertStateData *bistate,
						   TransactionId xid, bool keep_tail);
extern int	PaxInsertRows(Relation rel, PaxRow *rows, int nrows,
						  CommandId cid, int options,
						  struct BulkInsertStateData *bistate,
						  TransactionId xid, bool keep_tail);
extern void PaxReinitOrphan(Relation rel, Page page);
extern bool PaxRowFitsColumns(TupleDesc tupdesc, const PaxRow *row, Page page,
							  const PaxPageLayout *layout);
extern int	PaxAddRowToPage(Relation rel, const PaxRow *row, Page page,
							const PaxPageLayout *layout, BlockNumber blkno,
							TransactionId xid, CommandId cid, int options,
							PaxChange *chg);
extern void PaxInsertVersion(Relation relation, TupleTableSlot *slot,
							 CommandId cid, int options,
							 const PaxRowInit *init, HeapTuple oldtup,
							 HeapTuple *newtup);
extern int	PaxPlaceOnPage(Relation rel, TupleTableSlot *slot,
						   const PaxRowInit *init, Buffer buffer,
						   Buffer vmbuffer, CommandId cid, PaxChange *chg,
						   Page *copy, PaxRow *row);

/* pax_place.c */
extern int	PaxRowPlace(TupleDesc tupdesc, const PaxRow *row, int upper,
						int lower, Page page, const PaxPageLayout *layout,
						int rowidx, bool write);
extern void PaxPlaceGroupValues(TupleDesc tupdesc, const PaxRow *rows,
							   const int *rowidx, int n, Page page,
							   const PaxPageLayout *layout, int top,
							   PaxChange *chg);

/* pax_prepare.c */
extern bool PaxRowWouldToast(Relation rel, TupleTableSlot *slot);
extern void PaxPrepareRow(Relation rel, TupleTableSlot *slot, int options,
						  HeapTuple oldtup, PaxRow *row);

/* pax_shape.c */
extern void PaxShapeFree(PaxPageShape *shape);
extern void PaxChooseShape(TupleDesc tupdesc, const PaxRow *rows, int nrows,
						   double var_avg, bool eager, double pack,
						   const PaxRelCache *hints, bool compact,
						   bool updatable, PaxPageShape *shape);
extern void PaxShapeForRows(TupleDesc tupdesc, const PaxRow *rows, int nrows,
							bool eager, bool compact, bool updatable,
							PaxRelCache *hints, PaxPageShape *shape);

/* pax_lock.c */
/* A row being changed: its pinned, exclusively locked page. */
typedef struct PaxTarget
{
	Relation	rel;
	Buffer		buffer;
	Buffer		vmbuffer;		/* pinned map page, or InvalidBuffer */
	Page		page;
	int			row;			/* the row's slot */
	HeapTupleData tuple;		/* t_data points into the page, or at own:
								 * see PaxTargetRefresh */
	union
	{
		char		bytes[PAX_ROWHDR_SIZE];
		uint64		align;
	}			own;			/* the header of a row on a header page */
	bool		have_tuple_lock;
	LockTupleMode tuplock_mode;
	bool		noop;			/* we already hold a lock strong enough */
	bool		checked_lockers;	/* lockers were waited for or checked */
	bool		locker_remains; /* ... and some are still running */
} PaxTarget;

extern void PaxTargetOpen(Relation rel, ItemPointer tid, PaxTarget *t);
extern void PaxTargetLock(PaxTarget *t);
extern void PaxTargetClose(PaxTarget *t);
extern TM_Result PaxTargetAcquire(PaxTarget *t, CommandId cid,
								  LockTupleMode mode, bool is_update,
								  LockWaitPolicy wait_policy,
								  bool nowait_modified, bool follow_updates,
								  Snapshot crosscheck, TM_FailureData *tmfd);
extern void PaxTargetSetXmax(PaxTarget *t, TransactionId xmax,
							 uint16 infomask, uint16 infomask2, CommandId cid,
							 bool iscombo, const ItemPointerData *ctid);
extern void PaxSetPrunable(Page copy, uint16 infomask, PaxChange *chg);
extern void PaxTargetStampIn(PaxTarget *t, Page copy, PaxChange *chg,
							 TransactionId xmax, uint16 infomask,
							 uint16 infomask2, CommandId cid, bool iscombo,
							 const ItemPointerData *ctid);
extern TM_Result pax_tuple_lock(Relation relation, ItemPointer tid,
								Snapshot snapshot, TupleTableSlot *slot,
								CommandId cid, LockTupleMode mode,
								LockWaitPolicy wait_policy, uint8 flags,
								TM_FailureData *tmfd);

/* pax_modify.c */
extern TM_Result pax_tuple_delete(Relation relation, ItemPointer tid,
								  CommandId cid, Snapshot snapshot,
								  Snapshot crosscheck, bool wait,
								  TM_FailureData *tmfd, bool changingPart);
extern TM_Result pax_tuple_update(Relation relation, ItemPointer otid,
								  TupleTableSlot *slot, CommandId cid,
								  Snapshot snapshot, Snapshot crosscheck,
								  bool wait, TM_FailureData *tmfd,
								  LockTupleMode *lockmode,
								  PaxUpdateIndexes *update_indexes);
extern void pax_tuple_insert_speculative(Relation relation,
										 TupleTableSlot *slot, CommandId cid,
										 int options,
										 struct BulkInsertStateData *bistate,
										 uint32 specToken);
extern void pax_tuple_complete_speculative(Relation relation,
										   TupleTableSlot *slot,
										   uint32 specToken, bool succeeded);
extern void pax_get_latest_tid(TableScanDesc sscan, ItemPointer tid);

/* pax_prune.c */
struct GlobalVisState;
extern void PaxPagePruneOpt(Relation rel, Buffer buffer);
extern int	PaxPagePrune(Relation rel, Buffer buffer, TransactionId oldest_xmin,
						 struct GlobalVisState *vistest);

/* pax_regrow.c */
extern bool PaxPageRegrow(Relation rel, Page page, const PaxPageLayout *layout,
						  BlockNumber blkno, const OffsetNumber *dead,
						  int ndead, int minextra, Page out);
extern bool PaxPageIsRoomy(Page page, TupleDesc tupdesc);
extern bool PaxPageRegrowMapped(Relation rel, Page page,
								const PaxPageLayout *layout, BlockNumber blkno,
								const OffsetNumber *dead, int ndead,
								bool encoded, Page out);
extern void PaxCompactFreeHeaderPage(Relation rel, BlockNumber hblk,
									 BufferAccessStrategy strategy);

/* pax_vacuum.c */
/*
 * The dead TIDs collected for index vacuuming and reclaim, sorted.  Ours
 * rather than vacuum.h's (VacDeadItems until 16, a TidStore from 17): the
 * reclaim pass walks them a page at a time, and index AMs are called with
 * our own callback (PaxVacTidReaped), so every version uses one array.
 */
typedef struct PaxDeadItems
{
	int			max_items;
	int			num_items;
	ItemPointerData items[FLEXIBLE_ARRAY_MEMBER];
} PaxDeadItems;

/* State of one VACUUM of a pax relation. */
typedef struct PaxVacState
{
	Relation	rel;
	TupleDesc	tupdesc;
	BufferAccessStrategy bstrategy;
	int			elevel;

	/* indexes */
	int			nindexes;
	Relation   *indrels;
	IndexBulkDeleteResult **indstats;
	bool		do_index_vacuuming;
	bool		do_index_cleanup;
	bool		do_truncate;
	bool		aggressive;		/* must advance relfrozenxid to freeze_limit */

	/* cutoffs and what the relation's new ones may be */
#if PG_VERSION_NUM >= 160000
	struct VacuumCutoffs cutoffs;	/* what the fields below come from */
#endif
	TransactionId oldest_xmin;
	TransactionId freeze_limit;
	MultiXactId multi_cutoff;
	MultiXactId oldest_mxact;
	TransactionId new_frozen_xid;
	MultiXactId new_min_mxid;

	/* dead TIDs, sorted, waiting for index vacuuming and reclaim */
	PaxDeadItems *dead_items;

	PaxLayoutCache lcache;
	Buffer		vmbuffer;

	/* counters */
	BlockNumber rel_pages;
	BlockNumber nonempty_pages; /* last page with rows left, + 1 */
	BlockNumber all_visible_pages;
	BlockNumber pages_reclaimed;
	BlockNumber pages_removed;
	int			num_index_scans;
	double		live;
	double		recently_dead;
	double		dead_kept;		/* dead, but left in place */
	double		removed;		/* made UNUSED */
	double		frozen;
	double		invalidated;
	int64		bytes_freed;
	TimestampTz starttime;
} PaxVacState;

extern void pax_relation_vacuum(Relation rel, struct VacuumParams *params,
								BufferAccessStrategy bstrategy);

/* pax_vacuum_page.c */
extern void PaxVacReclaimPage(PaxVacState *vs, Buffer buffer,
							  const ItemPointerData *items, int nitems);
extern void PaxVacScanPage(PaxVacState *vs, BlockNumber blkno);

/* pax_rewrite.c */
extern void pax_relation_copy_for_cluster(Relation OldTable,
										  Relation NewTable,
										  Relation OldIndex, bool use_sort,
										  TransactionId OldestXmin,
										  TransactionId *xid_cutoff,
										  MultiXactId *multi_cutoff,
										  double *num_tuples,
										  double *tups_vacuumed,
										  double *tups_recently_dead);

/* pax_index.c */
extern IndexFetchTableData *pax_index_fetch_begin(Relation rel);
extern void pax_index_fetch_reset(IndexFetchTableData *scan);
extern void pax_index_fetch_end(IndexFetchTableData *scan);
extern bool pax_index_fetch_tuple(struct IndexFetchTableData *scan,
								  ItemPointer tid, Snapshot snapshot,
								  TupleTableSlot *slot, bool *call_again,
								  bool *all_dead);
extern TransactionId pax_index_delete_tuples(Relation rel,
											 TM_IndexDeleteOp *delstate);
extern double pax_index_build_range_scan(Relation tableRelation,
										 Relation indexRelation,
										 struct IndexInfo *indexInfo,
										 bool allow_sync, bool anyvisible,
										 bool progress,
										 BlockNumber start_blockno,
										 BlockNumber numblocks,
										 IndexBuildCallback callback,
										 void *callback_state,
										 TableScanDesc scan);
extern void pax_index_validate_scan(Relation tableRelation,
									Relation indexRelation,
									struct IndexInfo *indexInfo,
									Snapshot snapshot,
									struct ValidateIndexState *state);

/* pax_logical.c */
extern void PaxLogicalInit(void);
extern bool PaxLogicalWanted(Relation rel, int options);
extern void PaxLogicalLogInserts(Relation rel, const PaxRow *rows, int nrows,
								 bool speculative, bool last,
								 TransactionId xid);
extern void PaxLogicalPageRows(Relation rel, PaxChange *chg, StringInfo buf,
							   int nrows, bool last, TransactionId xid);
extern void PaxLogicalKeep(Relation rel, int options);
extern void PaxLogicalLogUpdate(Relation rel, HeapTuple oldkey, HeapTuple newtup);
extern void PaxLogicalLogDelete(Relation rel, HeapTuple oldkey, bool super);
extern void PaxLogicalLogConfirm(Relation rel);
extern HeapTuple PaxLogicalOldKey(Relation rel, Datum *values, bool *isnull,
								  bool key_required);
extern void PaxLogicalRefuseWrite(Relation rel);

/*
 * PaxLogicalCheckWrite is called at every write to a pax relation, before
 * any change: with wal_level = logical and pax_am not preloaded (no
 * resource manager to log the change for decoding), a write to a
 * logically logged relation is an error, but for the transient table of
 * a rewrite, whose changes decoding skips (PaxLogicalRefuseWrite).
 */
static inline void
PaxLogicalCheckWrite(Relation rel)
{
	if (unlikely(XLogLogicalInfoActive()) && !pax_rmgr_registered)
		PaxLogicalRefuseWrite(rel);
}

#endif							/* PAX_TABLEAM_H */
