/*-------------------------------------------------------------------------
 *
 * pax_vacuum.c
 *	  VACUUM of pax relations: reclaiming dead rows' space, freezing,
 *	  all-visible pages and the visibility map, the free space map, tail
 *	  truncation, statistics.
 *
 * VACUUM works in the phases of heap's vacuumlazy.c:
 *
 * 1. Scan.  Every page is visited under an exclusive buffer lock.  Each
 *	  row is judged by HeapTupleSatisfiesVacuum with the vacuum's
 *	  OldestXmin: the TIDs of HEAPTUPLE_DEAD rows (aborted inserts; rows
 *	  whose deleter or updater committed before OldestXmin) go to a sorted
 *	  dead-TID array bounded by maintenance_work_mem (autovacuum_work_mem in
 *	  autovacuum workers).  Dead rows are invisible to every snapshot
 *	  already, so nothing else marks them.  In the same generic WAL record
 *	  per page, xmins older than the freeze limit are frozen and pages whose
 *	  rows are all visible to everyone become PD_ALL_VISIBLE (with their
 *	  visibility map bits, set as visibilitymap_set does: PaxVisibilityMapSet).
 * 2. Indexes.  When the array is full, and at the end, every index gets
 *	  vac_bulkdel_one_index with the array (its callback bsearches it), and
 *	  at the very end vac_cleanup_one_index.  With INDEX_CLEANUP off and
 *	  indexes present, dead rows are left in place: index entries still
 *	  point at them, so their slots must not be reused.
 * 3. Reclaim.  Each page with dead TIDs is changed under a cleanup lock
 *	  (readers holding only a pin may point into the value area) in one
 *	  generic WAL record: the dead rows become UNUSED slots (PAX_ROW_UNUSED,
 *	  pax_page.h), trailing UNUSED slots lower pp_nrows, the value area is
 *	  compacted in one linear pass (PaxPageReclaim) and HASNULL, ZONESET
 *	  and the zone maps are recomputed from the rows left.  Its free space
 *	  goes to the free space map.  Without indexes this happens right after
 *	  the page is scanned.  VACUUM does not wait for a cleanup lock another
 *	  backend's pin holds up (an open cursor's, for as long as it likes):
 *	  as heap's lazy_scan_noprune, it leaves that page's dead rows for a
 *	  later VACUUM, unless it is aggressive and must freeze them.
 *
 * Then empty pages at the end of the relation are truncated (as heap
 * does, under a conditional AccessExclusiveLock, honouring the TRUNCATE
 * option and the vacuum_truncate reloption), and relpages, reltuples,
 * relallvisible, relfrozenxid, relminmxid and the cumulative statistics
 * are updated.
 *
 * A page whose rows this VACUUM reclaimed is marked all-visible when every
 * row left is visible to everyone, as heap's second pass does; an insert
 * into it clears the flag and the map bits first (PaxClearAllVisible).
 *
 * Inserts reuse the slots: PaxFreeSpacePage (pax_hio.c) finds a page
 * through the free space map, and PaxPageHasFreeSlot and PaxPageTakeSlot
 * (pax_page.c) find the slot for a new row (the first UNUSED one, else the
 * one after the last row).  Rows are judged by PaxRowVacuumStatus and
 * all-visible pages found by PaxRowsAllVisible (pax_visibility.c).
 *
 * This file holds the work on the whole relation: the dead-TID array, the
 * index passes, truncation and statistics.  The work on one page, phase 1
 * (PaxVacScanPage) and phase 3 (PaxVacReclaimPage), is in
 * pax_vacuum_page.c.
 *
 * pax_am/pax_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/multixact.h"
#include "access/transam.h"
#include "access/visibilitymap.h"
#include "catalog/storage.h"
#include "commands/dbcommands.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/autovacuum.h"
#include "storage/bufmgr.h"
#include "storage/freespace.h"
#include "storage/lmgr.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_tidmap.h"
#include "pax_hio.h"
#include "pax_tableam.h"

/* Tail truncation, as heap's vacuumlazy.c */
#define PAX_TRUNCATE_MINIMUM		1000	/* pages */
#define PAX_TRUNCATE_FRACTION		16
#define PAX_TRUNCATE_WAIT_INTERVAL	50	/* ms */
#define PAX_TRUNCATE_TIMEOUT		5000	/* ms */

/* How many dead TIDs a PaxDeadItems (pax_tableam.h) of size bytes holds */
#define PAX_MAX_DEAD_ITEMS(size) \
	((int64) (((size) - offsetof(PaxDeadItems, items)) / sizeof(ItemPointerData)))

/*
 * PaxOldSnapshotsOff: truncation is off while old_snapshot_threshold is set
 * (15; the feature is gone from 17 on), as in heap's
 * should_attempt_truncation().
 */
static inline bool
PaxOldSnapshotsOff(void)
{
#if PG_VERSION_NUM >= 170000
	return true;
#else
	return old_snapshot_threshold < 0;
#endif
}

/* PaxVacWorkMem is the work memory of this VACUUM, in kB. */
static int
PaxVacWorkMem(void)
{
	if (PaxIsAutoVacuumWorker() && autovacuum_work_mem != -1)
		return autovacuum_work_mem;
	return maintenance_work_mem;
}

/*
 * PaxDeadItemsAlloc sizes the dead-TID array: what the work memory holds,
 * no more than the relation can have, and one page's worth when there are
 * no indexes (each page is reclaimed at once).  Adapted from
 * dead_items_alloc() and dead_items_max_items() in vacuumlazy.c,
 * PostgreSQL 15 (serial only: no parallel index vacuuming).
 */
static PaxDeadItems *
PaxDeadItemsAlloc(PaxVacState *vs)
{
	int64		max_items;
	PaxDeadItems *items;

	if (vs->nindexes == 0)
		max_items = PAX_MAX_CAPACITY;
	else
	{
		max_items = (int64) PaxVacWorkMem() * 1024 / sizeof(ItemPointerData);
		max_items = Min(max_items, PAX_MAX_DEAD_ITEMS(MaxAllocSize));
		max_items = Min(max_items, (int64) Max(vs->rel_pages, 1) * PAX_MAX_CAPACITY);
		max_items = Max(max_items, PAX_MAX_CAPACITY);
	}
	items = palloc(offsetof(PaxDeadItems, items) +
				   sizeof(ItemPointerData) * max_items);
	items->max_items = (int) max_items;
	items->num_items = 0;
	return items;
}

/* ----------------------------------------------------------------
 * VACUUM
 * ----------------------------------------------------------------
 */

/* PaxTidCmp: ItemPointerCompare for bsearch */
static int
PaxTidCmp(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

/*
 * PaxVacTidReaped tells an index AM's bulk delete whether a TID is one of
 * the dead ones.  Adapted from vac_tid_reaped() in vacuum.c,
 * PostgreSQL 15.
 */
static bool
PaxVacTidReaped(ItemPointer itemptr, void *state)
{
	PaxDeadItems *dead = (PaxDeadItems *) state;

	if (dead->num_items == 0 ||
		ItemPointerCompare(itemptr, &dead->items[0]) < 0 ||
		ItemPointerCompare(itemptr, &dead->items[dead->num_items - 1]) > 0)
		return false;
	return bsearch(itemptr, dead->items, dead->num_items,
				   sizeof(ItemPointerData), PaxTidCmp) != NULL;
}

/*
 * PaxVacIndexInfo fills in *ivinfo what index AM i is told about this
 * VACUUM: estimated_count, and the table's row count num_heap_tuples.
 */
static void
PaxVacIndexInfo(PaxVacState *vs, int i, bool estimated_count,
				double num_heap_tuples, IndexVacuumInfo *ivinfo)
{
	MemSet(ivinfo, 0, sizeof(*ivinfo));
	ivinfo->index = vs->indrels[i];
#if PG_VERSION_NUM >= 160000
	ivinfo->heaprel = vs->rel;
#endif
	ivinfo->analyze_only = false;
	ivinfo->report_progress = false;
	ivinfo->estimated_count = estimated_count;
	ivinfo->message_level = vs->elevel;
	ivinfo->num_heap_tuples = num_heap_tuples;
	ivinfo->strategy = vs->bstrategy;
}

/*
 * PaxVacCleanupIndexes gives every index its cleanup pass and records the
 * indexes' new statistics.  Adapted from lazy_cleanup_all_indexes() and
 * update_relstats_all_indexes() in vacuumlazy.c, PostgreSQL 15.
 */
static void
PaxVacCleanupIndexes(PaxVacState *vs)
{
	for (int i = 0; i < vs->nindexes; i++)
	{
		IndexVacuumInfo ivinfo;

		PaxVacIndexInfo(vs, i, false, vs->live + vs->recently_dead, &ivinfo);
		vs->indstats[i] = vac_cleanup_one_index(&ivinfo, vs->indstats[i]);
		if (vs->indstats[i] != NULL && !vs->indstats[i]->estimated_count)
			vac_update_relstats(vs->indrels[i], vs->indstats[i]->num_pages,
								vs->indstats[i]->num_index_tuples, 0,
#if PG_VERSION_NUM >= 180000
								0,
#endif
								false, InvalidTransactionId,
								InvalidMultiXactId, NULL, NULL, false);
	}
}

/*
 * PaxVacIndexesAndReclaim removes the index entries of the dead TIDs
 * collected so far (phase 2), then reclaims their rows page by page
 * (phase 3), and empties the array.  Adapted from lazy_vacuum(),
 * lazy_vacuum_all_indexes() and lazy_vacuum_heap_rel() in vacuumlazy.c,
 * PostgreSQL 15 (without the index bypass heuristics).
 */
static void
PaxVacIndexesAndReclaim(PaxVacState *vs)
{
	PaxDeadItems *dead = vs->dead_items;
	int			k = 0;

	if (dead->num_items == 0)
		return;

	if (vs->nindexes > 0)
	{
		for (int i = 0; i < vs->nindexes; i++)
		{
			IndexVacuumInfo ivinfo;

			PaxVacIndexInfo(vs, i, true, vs->rel->rd_rel->reltuples, &ivinfo);
			/* as vac_bulkdel_one_index() in vacuum.c, PostgreSQL 15 */
			vs->indstats[i] = index_bulk_delete(&ivinfo, vs->indstats[i],
												PaxVacTidReaped, dead);
			ereport(ivinfo.message_level,
					(errmsg("scanned index \"%s\" to remove %d row versions",
							RelationGetRelationName(ivinfo.index),
							dead->num_items)));
		}
		vs->num_index_scans++;
	}

	/* the TIDs are sorted: each page's are a run */
	while (k < dead->num_items)
	{
		BlockNumber blkno = ItemPointerGetBlockNumber(&dead->items[k]);
		int			end = k;
		Buffer		buffer;

		while (end < dead->num_items &&
			   ItemPointerGetBlockNumber(&dead->items[end]) == blkno)
			end++;
		PaxVacuumDelayPoint();
		buffer = ReadBufferExtended(vs->rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
									vs->bstrategy);
		PaxVacReclaimPage(vs, buffer, &dead->items[k], end - k);
		ReleaseBuffer(buffer);
		k = end;
	}
	dead->num_items = 0;
}

/*
 * PaxVacTruncate truncates the empty pages at the end of the relation:
 * only with AccessExclusiveLock got without waiting long, only if the
 * relation did not grow meanwhile, and after checking the pages again
 * under the lock.  Adapted from lazy_truncate_heap() and
 * count_nondeletable_pages() in vacuumlazy.c, PostgreSQL 15 (one attempt,
 * no prefetching).
 */
static void
PaxVacTruncate(PaxVacState *vs)
{
	Relation	rel = vs->rel;
	BlockNumber new_pages;
	int			tries = 0;

	while (!ConditionalLockRelation(rel, AccessExclusiveLock))
	{
		CHECK_FOR_INTERRUPTS();
		if (++tries > PAX_TRUNCATE_TIMEOUT / PAX_TRUNCATE_WAIT_INTERVAL)
		{
			ereport(vs->elevel,
					(errmsg("\"%s\": stopping truncate due to conflicting lock request",
							RelationGetRelationName(rel))));
			return;
		}
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 PAX_TRUNCATE_WAIT_INTERVAL, WAIT_EVENT_VACUUM_TRUNCATE);
		ResetLatch(MyLatch);
	}

	if (RelationGetNumberOfBlocks(rel) != vs->rel_pages)
	{
		/* pages were added meanwhile: they presumably hold rows */
		UnlockRelation(rel, AccessExclusiveLock);
		return;
	}

	/* again, from the end: inserts may have filled pages meanwhile */
	new_pages = vs->rel_pages;
	while (new_pages > vs->nonempty_pages)
	{
		Buffer		buffer;
		Page		page;
		bool		empty;

		CHECK_FOR_INTERRUPTS();
		buffer = ReadBufferExtended(rel, MAIN_FORKNUM, new_pages - 1,
									RBM_NORMAL, vs->bstrategy);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buffer);
		empty = PageIsNew(page) ||
			(PaxPageMaxTid(page) == 0 &&
			 !(PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HEADERS));
		UnlockReleaseBuffer(buffer);
		if (!empty)
			break;
		new_pages--;
	}
	if (new_pages < vs->rel_pages)
	{
		RelationTruncate(rel, new_pages);
		ereport(vs->elevel,
				(errmsg("table \"%s\": truncated %u to %u pages",
						RelationGetRelationName(rel), vs->rel_pages, new_pages)));
		vs->pages_removed = vs->rel_pages - new_pages;
		vs->rel_pages = new_pages;
	}
	UnlockRelation(rel, AccessExclusiveLock);
}

/*
 * pax_relation_vacuum is VACUUM (not FULL) of a pax relation, with the
 * phases described at the top of this file.  The caller holds
 * ShareUpdateExclusiveLock on the relation.  Adapted from heap_vacuum_rel()
 * in vacuumlazy.c, PostgreSQL 15.
 */
void
pax_relation_vacuum(Relation rel, VacuumParams *params,
					BufferAccessStrategy bstrategy)
{
	PaxVacState vs;
	BlockNumber scanned;
	BlockNumber freeable;
	bool		frozenxid_updated;
	bool		minmulti_updated;

	PaxBulkPlaceFor(rel);
	memset(&vs, 0, sizeof(vs));
	vs.rel = rel;
	vs.tupdesc = RelationGetDescr(rel);
	vs.bstrategy = bstrategy;
	vs.elevel = (params->options & VACOPT_VERBOSE) ? INFO : DEBUG2;
	vs.vmbuffer = InvalidBuffer;

	vs.starttime = GetCurrentTimestamp();
#if PG_VERSION_NUM >= 160000
	vs.aggressive = vacuum_get_cutoffs(rel, params, &vs.cutoffs);
	vs.oldest_xmin = vs.cutoffs.OldestXmin;
	vs.oldest_mxact = vs.cutoffs.OldestMxact;
	vs.freeze_limit = vs.cutoffs.FreezeLimit;
	vs.multi_cutoff = vs.cutoffs.MultiXactCutoff;
#else
	vs.aggressive = vacuum_set_xid_limits(rel,
								 params->freeze_min_age,
								 params->freeze_table_age,
								 params->multixact_freeze_min_age,
								 params->multixact_freeze_table_age,
								 &vs.oldest_xmin, &vs.oldest_mxact,
								 &vs.freeze_limit, &vs.multi_cutoff);
#endif
	if (params->options & VACOPT_DISABLE_PAGE_SKIPPING)
		vs.aggressive = true;

	/* heap_vacuum_rel's messages, in its order */
	if ((params->options & VACOPT_VERBOSE) && vs.aggressive)
		ereport(INFO,
				(errmsg("aggressively vacuuming \"%s.%s.%s\"",
						get_database_name(MyDatabaseId),
						get_namespace_name(RelationGetNamespace(rel)),
						RelationGetRelationName(rel))));
	else if (params->options & VACOPT_VERBOSE)
		ereport(INFO,
				(errmsg("vacuuming \"%s.%s.%s\"",
						get_database_name(MyDatabaseId),
						get_namespace_name(RelationGetNamespace(rel)),
						RelationGetRelationName(rel))));
	vs.new_frozen_xid = vs.oldest_xmin;
	vs.new_min_mxid = vs.oldest_mxact;

	vac_open_indexes(rel, RowExclusiveLock, &vs.nindexes, &vs.indrels);
	vs.indstats = palloc0(Max(vs.nindexes, 1) * sizeof(IndexBulkDeleteResult *));
	Assert(params->index_cleanup != VACOPTVALUE_UNSPECIFIED);
	Assert(params->truncate != VACOPTVALUE_UNSPECIFIED);
	/* AUTO: always vacuum the indexes (no bypass heuristics yet) */
	vs.do_index_vacuuming = params->index_cleanup != VACOPTVALUE_DISABLED;
	vs.do_index_cleanup = params->index_cleanup != VACOPTVALUE_DISABLED;
	vs.do_truncate = params->truncate == VACOPTVALUE_ENABLED;

	/*
	 * Indexes are vacuumed serially; heap would use parallel workers where
	 * dead_items_alloc does, and warns as it does where it cannot.
	 */
	if (params->nworkers > 0 && vs.nindexes > 1 && vs.do_index_vacuuming &&
		RelationUsesLocalBuffers(rel))
		ereport(WARNING,
				(errmsg("disabling parallel option of vacuum on \"%s\" --- cannot vacuum temporary tables in parallel",
						RelationGetRelationName(rel))));

	vs.rel_pages = RelationGetNumberOfBlocks(rel);
	vs.dead_items = PaxDeadItemsAlloc(&vs);
	PaxLayoutCacheInit(&vs.lcache, vs.tupdesc->natts, CurrentMemoryContext);

	/* phase 1, with phases 2 and 3 whenever the dead TIDs fill the array */
	for (BlockNumber blkno = 0; blkno < vs.rel_pages; blkno++)
	{
		PaxVacuumDelayPoint();
		if (vs.dead_items->max_items - vs.dead_items->num_items < PAX_MAX_CAPACITY)
			PaxVacIndexesAndReclaim(&vs);
		PaxVacScanPage(&vs, blkno);
	}
	PaxVacIndexesAndReclaim(&vs);
	if (BufferIsValid(vs.vmbuffer))
	{
		ReleaseBuffer(vs.vmbuffer);
		vs.vmbuffer = InvalidBuffer;
	}
	scanned = vs.rel_pages;
	FreeSpaceMapVacuum(rel);

	/* index cleanup, and the indexes' statistics */
	if (vs.nindexes > 0 && vs.do_index_cleanup)
		PaxVacCleanupIndexes(&vs);
	vac_close_indexes(vs.nindexes, vs.indrels, NoLock);

	/* empty pages at the end, as heap's should_attempt_truncation */
	freeable = vs.rel_pages - vs.nonempty_pages;
	if (vs.do_truncate && PaxOldSnapshotsOff() && freeable > 0 &&
		(freeable >= PAX_TRUNCATE_MINIMUM ||
		 freeable >= vs.rel_pages / PAX_TRUNCATE_FRACTION))
		PaxVacTruncate(&vs);

#if PG_VERSION_NUM >= 180000
	{
		BlockNumber all_visible;
		BlockNumber all_frozen;

		/* 18 also records the all-frozen pages: the map has them */
		visibilitymap_count(rel, &all_visible, &all_frozen);
		vac_update_relstats(rel, vs.rel_pages, vs.live,
							Min(vs.all_visible_pages, vs.rel_pages),
							Min(all_frozen, vs.rel_pages), vs.nindexes > 0,
							vs.new_frozen_xid, vs.new_min_mxid,
							&frozenxid_updated, &minmulti_updated, false);
	}
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared,
						 (PgStat_Counter) vs.live,
						 (PgStat_Counter) (vs.recently_dead + vs.dead_kept),
						 vs.starttime);
#else
	vac_update_relstats(rel, vs.rel_pages, vs.live,
						Min(vs.all_visible_pages, vs.rel_pages), vs.nindexes > 0,
						vs.new_frozen_xid, vs.new_min_mxid,
						&frozenxid_updated, &minmulti_updated, false);
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared,
						 (PgStat_Counter) vs.live,
						 (PgStat_Counter) (vs.recently_dead + vs.dead_kept));
#endif

	ereport(vs.elevel,
			(errmsg("finished vacuuming \"%s.%s.%s\": index scans: %d",
					get_database_name(MyDatabaseId),
					get_namespace_name(RelationGetNamespace(rel)),
					RelationGetRelationName(rel), vs.num_index_scans),
			 errdetail_internal("pages: %u removed, %u remain, %u scanned, %u all-visible, %u with rows reclaimed\n"
								"rows: %.0f removed, %.0f remain, %.0f are dead but not yet removable, %.0f dead left for indexes\n"
								"value area: " INT64_FORMAT " bytes freed\n"
								"frozen: %.0f rows; aborted rows newly marked: %.0f",
								vs.pages_removed, vs.rel_pages, scanned,
								vs.all_visible_pages, vs.pages_reclaimed,
								vs.removed, vs.live + vs.recently_dead + vs.dead_kept,
								vs.recently_dead, vs.dead_kept,
								vs.bytes_freed, vs.frozen, vs.invalidated)));

	PaxLayoutCacheFree(&vs.lcache);
	pfree(vs.dead_items);
	pfree(vs.indstats);
}
