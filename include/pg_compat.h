/*-------------------------------------------------------------------------
 *
 * pg_compat.h
 *	  What differs between the PostgreSQL major versions the bundle builds
 *	  against (15 to 18), named once.
 *
 * Each entry is a rename, a moved field or a changed signature of
 * PostgreSQL's internal API, wrapped so that the code of the three modules
 * reads the same on every supported version.  Changes of behaviour (VACUUM's
 * freeze plans, the bitmap scan and ANALYZE read stream interfaces, memory
 * context method tables) are not here: they are #if PG_VERSION_NUM blocks in
 * the file that owns the concern, where the reasoning can be read next to
 * the code.
 *
 * Include it after postgres.h.  The macros expand to calls of functions
 * whose headers the including file includes anyway.  An entry's version
 * test is the release that changed the API.
 *
 * include/pg_compat.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PG_COMPAT_H
#define PG_COMPAT_H

#if PG_VERSION_NUM < 150000 || PG_VERSION_NUM >= 190000
#error "the pax_am bundle supports PostgreSQL 15 to 18"
#endif

#if PG_VERSION_NUM >= 160000
#include "storage/relfilelocator.h"
#else
#include "storage/relfilenode.h"
#endif

/*
 * Functions that do not return: 18 declares them with a prefix
 * (pg_noreturn, C11's _Noreturn), older versions with an attribute that
 * GCC and Clang accept in front of the declaration too.
 */
#ifndef pg_noreturn
#define pg_noreturn pg_attribute_noreturn()
#endif

/*
 * A relation's physical file: RelFileNode became RelFileLocator in 16
 * (rd_node -> rd_locator, relation_set_new_filenode -> _filelocator).
 */
#if PG_VERSION_NUM >= 160000
typedef RelFileLocator PaxFileLocator;
#define PaxRelationFile(rel) ((rel)->rd_locator)
#else
typedef RelFileNode PaxFileLocator;
#define PaxRelationFile(rel) ((rel)->rd_node)
#endif

/*
 * PaxExecuteFreeze carries out a row's freeze plan (heap_prepare_freeze_tuple):
 * xmax, xvac frozen or cleared by the plan's flags, then the infomasks.
 * 15 exports heap_execute_freeze_tuple and 18 declares it static inline in
 * heapam.h; in 16 and 17 it is static in heapam.c, so the bundle does what
 * it does there.  The including file includes access/heapam_xlog.h.
 */
#if PG_VERSION_NUM >= 160000 && PG_VERSION_NUM < 180000
#define PaxExecuteFreeze(tuple, frz) \
	do { \
		HeapTupleHeader pax_frz_tuple_ = (tuple); \
		const HeapTupleFreeze *pax_frz_ = (frz); \
		HeapTupleHeaderSetXmax(pax_frz_tuple_, pax_frz_->xmax); \
		if (pax_frz_->frzflags & XLH_FREEZE_XVAC) \
			HeapTupleHeaderSetXvac(pax_frz_tuple_, FrozenTransactionId); \
		if (pax_frz_->frzflags & XLH_INVALID_XVAC) \
			HeapTupleHeaderSetXvac(pax_frz_tuple_, InvalidTransactionId); \
		pax_frz_tuple_->t_infomask = pax_frz_->t_infomask; \
		pax_frz_tuple_->t_infomask2 = pax_frz_->t_infomask2; \
	} while (0)
#else
#define PaxExecuteFreeze(tuple, frz) heap_execute_freeze_tuple((tuple), (frz))
#endif

/* xl_heap_visible's cutoff_xid became snapshotConflictHorizon in 16. */
#if PG_VERSION_NUM >= 160000
#define PaxVisibleCutoff(xlrec) ((xlrec).snapshotConflictHorizon)
#else
#define PaxVisibleCutoff(xlrec) ((xlrec).cutoff_xid)
#endif

/* The counters of pgstat's per-table entry lost their t_ prefix in 16. */
#if PG_VERSION_NUM >= 160000
#define PaxCountTuplesReturned(rel, n) \
	((rel)->pgstat_info->counts.tuples_returned += (n))
#else
#define PaxCountTuplesReturned(rel, n) \
	((rel)->pgstat_info->t_counts.t_tuples_returned += (n))
#endif

/*
 * pgstat_count_heap_update() counts HOT updates, and learned whether the
 * new version moved page (16): a HOT one never does.
 */
#if PG_VERSION_NUM >= 160000
#define PaxCountUpdate(rel, hot) pgstat_count_heap_update((rel), (hot), !(hot))
#else
#define PaxCountUpdate(rel, hot) pgstat_count_heap_update((rel), (hot))
#endif

/*
 * The index columns whose change rules out a HOT update (16 split out the
 * summarizing indexes' columns, whose change allows one).
 */
#if PG_VERSION_NUM >= 160000
#define PAX_INDEX_ATTR_HOT_BLOCKING INDEX_ATTR_BITMAP_HOT_BLOCKING
#else
#define PAX_INDEX_ATTR_HOT_BLOCKING INDEX_ATTR_BITMAP_ALL
#endif

/* A backend's local transaction id moved into PGPROC's vxid in 17. */
#if PG_VERSION_NUM >= 170000
#define PaxMyLocalXid() (MyProc->vxid.lxid)
#else
#define PaxMyLocalXid() (MyProc->lxid)
#endif

/* The shared transaction counters were renamed TransamVariables in 17. */
#if PG_VERSION_NUM >= 170000
#define PaxTransamVariables TransamVariables
#else
#define PaxTransamVariables ShmemVariableCache
#endif

/*
 * Conditional row and transaction locks take whether a failure is logged
 * (the log_lock_failures GUC) from 18 on.
 */
#if PG_VERSION_NUM >= 180000
#define PaxConditionalLockTuple(rel, tid, mode) \
	ConditionalLockTuple((rel), (tid), (mode), log_lock_failures)
#define PaxConditionalXactLockTableWait(xid) \
	ConditionalXactLockTableWait((xid), log_lock_failures)
#else
#define PaxConditionalLockTuple(rel, tid, mode) \
	ConditionalLockTuple((rel), (tid), (mode))
#define PaxConditionalXactLockTableWait(xid) \
	ConditionalXactLockTableWait(xid)
#endif

/* index_beginscan() takes the scan's instrumentation from 18 on. */
#if PG_VERSION_NUM >= 180000
#define PaxIndexBeginScan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), NULL, (nkeys), (norderbys))
#else
#define PaxIndexBeginScan(heap, index, snapshot, nkeys, norderbys) \
	index_beginscan((heap), (index), (snapshot), (nkeys), (norderbys))
#endif

/* tuplesort_getdatum() says whether to copy a by-reference value (16). */
#if PG_VERSION_NUM >= 160000
#define PaxTuplesortGetDatum(state, forward, val, isnull, abbrev) \
	tuplesort_getdatum((state), (forward), false, (val), (isnull), (abbrev))
#else
#define PaxTuplesortGetDatum(state, forward, val, isnull, abbrev) \
	tuplesort_getdatum((state), (forward), (val), (isnull), (abbrev))
#endif

/*
 * heap_form_minimal_tuple() reserves extra leading bytes on request (18);
 * before 18 nobody asks for any.
 */
#if PG_VERSION_NUM >= 180000
#define PaxFormMinimalTuple(desc, values, isnull, extra) \
	heap_form_minimal_tuple((desc), (values), (isnull), (extra))
#else
#define PaxFormMinimalTuple(desc, values, isnull, extra) \
	((void) (extra), heap_form_minimal_tuple((desc), (values), (isnull)))
#endif

/*
 * A TID range scan's bounds moved into a union of the scan descriptor in
 * 18.
 */
#if PG_VERSION_NUM >= 180000
#define PaxScanMinTid(sscan) ((sscan)->st.tidrange.rs_mintid)
#define PaxScanMaxTid(sscan) ((sscan)->st.tidrange.rs_maxtid)
#else
#define PaxScanMinTid(sscan) ((sscan)->rs_mintid)
#define PaxScanMaxTid(sscan) ((sscan)->rs_maxtid)
#endif

/* vacuum_delay_point() tells VACUUM from ANALYZE from 18 on. */
#if PG_VERSION_NUM >= 180000
#define PaxVacuumDelayPoint() vacuum_delay_point(false)
#define PaxAnalyzeDelayPoint() vacuum_delay_point(true)
#else
#define PaxVacuumDelayPoint() vacuum_delay_point()
#define PaxAnalyzeDelayPoint() vacuum_delay_point()
#endif

/* A block buffer aligned for direct I/O, as smgrread() wants from 16 on. */
#if PG_VERSION_NUM >= 160000
typedef PGIOAlignedBlock PaxIOBlock;
#else
typedef PGAlignedBlock PaxIOBlock;
#endif

/*
 * Checking a page read around the buffer manager: PageIsVerifiedExtended()
 * became PageIsVerified() with a checksum-failure result in 18.
 */
#if PG_VERSION_NUM >= 180000
#define PaxPageIsVerified(page, blkno) \
	PageIsVerified((page), (blkno), 0, NULL)
#else
#define PaxPageIsVerified(page, blkno) \
	PageIsVerifiedExtended((page), (blkno), 0)
#endif

/* Renamed in 16: the newest xid a removed row's header shows. */
#if PG_VERSION_NUM >= 160000
#define PaxAdvanceConflictHorizon(tuple, xid) \
	HeapTupleHeaderAdvanceConflictHorizon((tuple), (xid))
#else
#define PaxAdvanceConflictHorizon(tuple, xid) \
	HeapTupleHeaderAdvanceLatestRemovedXid((tuple), (xid))
#endif

/*
 * A standby's queries that could see rows a replayed record removes:
 * ResolveRecoveryConflictWithSnapshot takes whether the relation is a
 * catalog from 16 on (pax tables never are).
 */
#if PG_VERSION_NUM >= 160000
#define PaxResolveSnapshotConflict(horizon, locator) \
	ResolveRecoveryConflictWithSnapshot((horizon), false, (locator))
#else
#define PaxResolveSnapshotConflict(horizon, locator) \
	ResolveRecoveryConflictWithSnapshot((horizon), (locator))
#endif

/* Renamed in 17. */
#if PG_VERSION_NUM >= 170000
#define PaxIsAutoVacuumWorker() AmAutoVacuumWorkerProcess()
#else
#define PaxIsAutoVacuumWorker() IsAutoVacuumWorkerProcess()
#endif

/*
 * Whether a collation sorts bytewise: lc_collate_is_c() is gone in 18,
 * where the collation's pg_locale_t says so (utils/pg_locale.h).
 */
#if PG_VERSION_NUM >= 180000
#define PaxCollateIsC(collid) (pg_newlocale_from_collation(collid)->collate_is_c)
#else
#define PaxCollateIsC(collid) lc_collate_is_c(collid)
#endif

#endif							/* PG_COMPAT_H */
