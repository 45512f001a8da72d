/*-------------------------------------------------------------------------
 *
 * pax_handler.c
 *	  TableAmRoutine adapter of the pax table access method.
 *
 * This file is a thin adapter in TableAmRoutine order, in the manner of
 * heapam_handler.c: the work lives in the concern files (pax_tablescan.c,
 * pax_slot.c, pax_index.c, pax_insert.c, pax_modify.c, pax_vacuum.c,
 * pax_rewrite.c).  Every callback of TableAmRoutine is provided.
 *
 * pax_am/pax_handler.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/multixact.h"
#include "access/skey.h"
#include "access/tableam.h"
#include "catalog/storage.h"
#include "catalog/index.h"
#include "catalog/pg_am_d.h"
#include "catalog/storage_xlog.h"
#include "commands/vacuum.h"
#include "nodes/execnodes.h"
#include "executor/tuptable.h"
#include "fmgr.h"
#include "storage/bufmgr.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_page.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

PG_FUNCTION_INFO_V1(pax_tableam_handler);

/* ------------------------------------------------------------------------
 * Slot related callbacks
 * ------------------------------------------------------------------------
 */


/* ------------------------------------------------------------------------
 * Table scan callbacks
 * ------------------------------------------------------------------------
 */

/* ------------------------------------------------------------------------
 * DDL related callbacks
 * ------------------------------------------------------------------------
 */

/*
 * pax_relation_set_new_filenode creates the storage of a new relfilenode,
 * with an init fork for an unlogged relation, as heap does.  Adapted from
 * heapam_relation_set_new_filenode() in heapam_handler.c, PostgreSQL 15.
 */
static void
pax_relation_set_new_filenode(Relation rel,
							  const PaxFileLocator *newrnode,
							  char persistence,
							  TransactionId *freezeXid,
							  MultiXactId *minmulti)
{
	SMgrRelation srel;

	/* rows kept for the old storage go there first, as they would have */
	PaxBulkPlaceFor(rel);

	/* No xact older than RecentXmin can still put rows in the relation. */
	*freezeXid = RecentXmin;
	*minmulti = GetOldestMultiXactId();

	srel = RelationCreateStorage(*newrnode, persistence, true);

	/*
	 * An unlogged relation needs an init fork so that it is reset on
	 * restart; it is WAL-logged (and, before 17, synced at once: 17's
	 * smgrcreate registers the fork for the next checkpoint's sync).
	 */
	if (persistence == RELPERSISTENCE_UNLOGGED)
	{
		Assert(rel->rd_rel->relkind == RELKIND_RELATION ||
			   rel->rd_rel->relkind == RELKIND_MATVIEW ||
			   rel->rd_rel->relkind == RELKIND_TOASTVALUE);
		smgrcreate(srel, INIT_FORKNUM, false);
		log_smgrcreate(newrnode, INIT_FORKNUM);
#if PG_VERSION_NUM < 170000
		smgrimmedsync(srel, INIT_FORKNUM);
#endif
	}

	smgrclose(srel);
}

/*
 * pax_relation_nontransactional_truncate empties the relation in place.
 * Adapted from heapam_relation_nontransactional_truncate() in
 * heapam_handler.c, PostgreSQL 15.
 */
static void
pax_relation_nontransactional_truncate(Relation rel)
{
	PaxBulkPlaceFor(rel);
	RelationTruncate(rel, 0);
}

/*
 * pax_relation_copy_data copies every fork of the relation block by block
 * into a new relfilenode (ALTER TABLE ... SET TABLESPACE).  The caller holds
 * AccessExclusiveLock on the relation.  Adapted from
 * heapam_relation_copy_data() in heapam_handler.c, PostgreSQL 15.
 */
static void
pax_relation_copy_data(Relation rel, const PaxFileLocator *newrnode)
{
	SMgrRelation dstrel;
	char		persistence = rel->rd_rel->relpersistence;

	/* The copy reads the files, so the buffers must be on disk first. */
	PaxBulkPlaceFor(rel);
	FlushRelationBuffers(rel);

	dstrel = RelationCreateStorage(*newrnode, persistence, true);
	RelationCopyStorage(RelationGetSmgr(rel), dstrel, MAIN_FORKNUM,
						persistence);

	for (ForkNumber fork = MAIN_FORKNUM + 1; fork <= MAX_FORKNUM; fork++)
	{
		if (!smgrexists(RelationGetSmgr(rel), fork))
			continue;

		smgrcreate(dstrel, fork, false);
		if (RelationIsPermanent(rel) ||
			(persistence == RELPERSISTENCE_UNLOGGED && fork == INIT_FORKNUM))
			log_smgrcreate(newrnode, fork);
		RelationCopyStorage(RelationGetSmgr(rel), dstrel, fork, persistence);
	}

	RelationDropStorage(rel);
	smgrclose(dstrel);
}

/* ------------------------------------------------------------------------
 * Miscellaneous callbacks
 * ------------------------------------------------------------------------
 */

/*
 * pax_relation_needs_toast_table decides as heap does: a TOAST table when
 * some toastable column could make a row exceed TOAST_TUPLE_THRESHOLD.
 * Adapted from heapam_relation_needs_toast_table() in heapam_handler.c,
 * PostgreSQL 15.
 */
static bool
pax_relation_needs_toast_table(Relation rel)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int32		data_length = 0;
	bool		toastable = false;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		int32		maxlen;

		if (att->attisdropped)
			continue;
		data_length = att_align_nominal(data_length, att->attalign);
		if (att->attlen > 0)
		{
			data_length += att->attlen;
			continue;
		}
		if (att->attstorage != TYPSTORAGE_PLAIN)
			toastable = true;
		maxlen = type_maximum_size(att->atttypid, att->atttypmod);
		if (maxlen < 0)
			data_length = TOAST_TUPLE_THRESHOLD + 1;	/* unbounded */
		else if (data_length <= TOAST_TUPLE_THRESHOLD)
			data_length += maxlen;
	}
	return toastable &&
		MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(tupdesc->natts)) +
		MAXALIGN(data_length) > TOAST_TUPLE_THRESHOLD;
}

/* The TOAST table of a pax relation is a heap. */
static Oid
pax_relation_toast_am(Relation rel)
{
	return HEAP_TABLE_AM_OID;
}


/* ------------------------------------------------------------------------
 * Planner related callbacks
 * ------------------------------------------------------------------------
 */

/*
 * pax_relation_estimate_size estimates the relation's size for the planner
 * from its block count, as heap does, so plans are sane before ANALYZE.
 * Adapted from heapam_estimate_rel_size() in heapam_handler.c, PostgreSQL 15.
 */
static void
pax_relation_estimate_size(Relation rel, int32 *attr_widths,
						   BlockNumber *pages, double *tuples,
						   double *allvisfrac)
{
	table_block_relation_estimate_size(rel, attr_widths, pages, tuples,
									   allvisfrac,
									   PAX_ROWHDR_SIZE,
									   BLCKSZ - SizeOfPageHeaderData -
									   sizeof(PaxPageHeaderData) -
									   MAXALIGN(sizeof(PaxPageOpaqueData)));
}


/* ------------------------------------------------------------------------
 * Definition of the pax table access method
 * ------------------------------------------------------------------------
 */

static const TableAmRoutine pax_methods = {
	.type = T_TableAmRoutine,

	.slot_callbacks = pax_slot_callbacks,

	.scan_begin = pax_scan_begin,
	.scan_end = pax_scan_end,
	.scan_rescan = pax_scan_rescan,
	.scan_getnextslot = pax_scan_getnextslot,

	.scan_set_tidrange = pax_scan_set_tidrange,
	.scan_getnextslot_tidrange = pax_scan_getnextslot_tidrange,

	.parallelscan_estimate = table_block_parallelscan_estimate,
	.parallelscan_initialize = table_block_parallelscan_initialize,
	.parallelscan_reinitialize = table_block_parallelscan_reinitialize,

	.index_fetch_begin = pax_index_fetch_begin,
	.index_fetch_reset = pax_index_fetch_reset,
	.index_fetch_end = pax_index_fetch_end,
	.index_fetch_tuple = pax_index_fetch_tuple,

	.tuple_insert = pax_tuple_insert,
	.tuple_insert_speculative = pax_tuple_insert_speculative,
	.tuple_complete_speculative = pax_tuple_complete_speculative,
	.multi_insert = pax_multi_insert,
	.tuple_delete = pax_tuple_delete,
	.tuple_update = pax_tuple_update,
	.tuple_lock = pax_tuple_lock,
	.finish_bulk_insert = pax_finish_bulk_insert,

	.tuple_fetch_row_version = pax_fetch_row_version,
	.tuple_get_latest_tid = pax_get_latest_tid,
	.tuple_tid_valid = pax_tuple_tid_valid,
	.tuple_satisfies_snapshot = pax_tuple_satisfies_snapshot,
	.index_delete_tuples = pax_index_delete_tuples,

#if PG_VERSION_NUM >= 160000
	.relation_set_new_filelocator = pax_relation_set_new_filenode,
#else
	.relation_set_new_filenode = pax_relation_set_new_filenode,
#endif
	.relation_nontransactional_truncate = pax_relation_nontransactional_truncate,
	.relation_copy_data = pax_relation_copy_data,
	.relation_copy_for_cluster = pax_relation_copy_for_cluster,
	.relation_vacuum = pax_relation_vacuum,
	.scan_analyze_next_block = pax_scan_analyze_next_block,
	.scan_analyze_next_tuple = pax_scan_analyze_next_tuple,
	.index_build_range_scan = pax_index_build_range_scan,
	.index_validate_scan = pax_index_validate_scan,

	.relation_size = table_block_relation_size,
	.relation_needs_toast_table = pax_relation_needs_toast_table,
	.relation_toast_am = pax_relation_toast_am,
	.relation_fetch_toast_slice = heap_fetch_toast_slice,

	.relation_estimate_size = pax_relation_estimate_size,

#if PG_VERSION_NUM < 180000
	.scan_bitmap_next_block = pax_scan_bitmap_next_block,
#endif
	.scan_bitmap_next_tuple = pax_scan_bitmap_next_tuple,

	.scan_sample_next_block = pax_scan_sample_next_block,
	.scan_sample_next_tuple = pax_scan_sample_next_tuple
};

/*
 * pax_tableam_handler(internal) RETURNS table_am_handler
 *
 * The handler of the pax table access method.
 */
Datum
pax_tableam_handler(PG_FUNCTION_ARGS)
{
	PG_RETURN_POINTER(&pax_methods);
}
