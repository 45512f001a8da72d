/*-------------------------------------------------------------------------
 *
 * pax_rewrite.c
 *	  VACUUM FULL and CLUSTER of pax relations: copying the rows that may
 *	  still be visible to anyone into a new relfilenode.
 *
 * The rows are copied in physical order, in the order of an index scan,
 * or sorted on an index's keys (tuplesort, on heap tuples formed from the
 * rows), keeping their transaction information: each kept row's header is
 * copied and frozen as heap's rewrite freezes it (PaxRewriteHeader), and
 * the insert path (PaxInsertRows) places it with that header instead of a
 * new one.  Rows dead to everyone are dropped (PaxKeepRow,
 * pax_visibility.c).  Update chains among recently dead rows are not kept:
 * such a row's t_ctid points at itself in the new relation.
 *
 * Locking: both relations are locked AccessExclusive by the caller; a page
 * of the old relation is share-locked while its row headers are read, and
 * its values are read with the pin only.
 *
 * pax_am/pax_rewrite.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/tableam.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplesort.h"

#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/*
 * Infomask bits that describe a heap tuple's data (null bitmap, varlena,
 * external values): meaningless in a pax row header, whose values live in
 * the minipages, so they are cleared when a header moves between the two.
 */
#define PAX_HEAP_DATA_BITS	(HEAP_HASNULL | HEAP_HASVARWIDTH | HEAP_HASEXTERNAL)

/* A batch of sorted or index-ordered rows is written at these sizes. */
#define PAX_REWRITE_BATCH_ROWS	4096
#define PAX_REWRITE_BATCH_BYTES	(8 * 1024 * 1024)

/* Rows of a CLUSTER in index order, gathered to be written a batch at a time. */
typedef struct PaxRewrite
{
	Relation	rel;			/* the new relation */
	TupleTableSlot *hslot;		/* heap tuple slot, to prepare rows */
	MemoryContext cxt;			/* the batch's memory */
	PaxRow	   *rows;
	int			nrows;
	Size		bytes;
} PaxRewrite;

/* What one copy_for_cluster works with, besides the batch. */
typedef struct PaxRewriteState
{
	Relation	old_rel;
	Relation	new_rel;
	TransactionId oldest_xmin;
	TransactionId xid_cutoff;
	MultiXactId multi_cutoff;
	TupleTableSlot *slot;		/* pax slot on the old relation */
	MemoryContext cxt;			/* per-row or per-page memory */
	double		num_tuples;
	double		tups_vacuumed;
	double		tups_recently_dead;
} PaxRewriteState;

/*
 * PaxRewriteHeader copies a kept row's header for its new place and freezes
 * it as heap's rewrite does (rewrite_heap_tuple calls heap_freeze_tuple): an
 * xmin older than the cutoff, and an xmax that only locked the row or whose
 * transaction is gone, so that no xid or multixact older than the new
 * relation's relfrozenxid and relminmxid (the cutoffs) stays behind.
 * Adapted from rewrite_heap_tuple() in rewriteheap.c, PostgreSQL 15.
 */
static HeapTupleHeader
PaxRewriteHeader(PaxRewriteState *rs, HeapTupleHeader hdr)
{
	HeapTupleHeader copy = palloc(PAX_ROWHDR_SIZE);

	memcpy(copy, hdr, PAX_ROWHDR_SIZE);
	copy->t_infomask &= ~PAX_HEAP_DATA_BITS;
	/* chains are not kept: each row is its own root in the new relation */
	copy->t_infomask2 &= ~(HEAP_HOT_UPDATED | HEAP_ONLY_TUPLE);
	heap_freeze_tuple(copy, rs->old_rel->rd_rel->relfrozenxid,
					  rs->old_rel->rd_rel->relminmxid, rs->xid_cutoff,
					  rs->multi_cutoff);
	return copy;
}

/*
 * PaxRewritePrepare prepares the row in slot for the new relation rel, with
 * srchdr as its header, with copies of its value arrays (the slot's are
 * reused for the next row).  Values may still point into the slot's row.
 */
static void
PaxRewritePrepare(Relation rel, TupleTableSlot *slot, HeapTupleHeader srchdr,
				  PaxRow *row)
{
	int			natts = RelationGetDescr(rel)->natts;

	PaxPrepareRow(rel, slot, 0, NULL, row);
	row->values = memcpy(palloc(natts * sizeof(Datum)), row->values,
						 natts * sizeof(Datum));
	row->isnull = memcpy(palloc(natts * sizeof(bool)), row->isnull,
						 natts * sizeof(bool));
	row->slot = NULL;
	row->srchdr = srchdr;
}

/*
 * PaxRewriteFlush writes the batch's rows to the new relation and starts
 * an empty batch.
 */
static void
PaxRewriteFlush(PaxRewrite *rw)
{
	if (rw->nrows > 0)
		PaxInsertRows(rw->rel, rw->rows, rw->nrows, InvalidCommandId, 0, NULL,
					  InvalidTransactionId, false);
	MemoryContextReset(rw->cxt);
	rw->rows = MemoryContextAlloc(rw->cxt, PAX_REWRITE_BATCH_ROWS * sizeof(PaxRow));
	rw->nrows = 0;
	rw->bytes = 0;
}

/*
 * PaxRewriteAdd appends a row, a heap tuple whose header holds the row's
 * transaction information, to the batch, and writes the batch when full.
 */
static void
PaxRewriteAdd(PaxRewrite *rw, HeapTuple tuple)
{
	MemoryContext old = MemoryContextSwitchTo(rw->cxt);
	HeapTuple	copy = heap_copytuple(tuple);
	HeapTupleHeader srchdr = palloc(PAX_ROWHDR_SIZE);

	Assert(rw->nrows < PAX_REWRITE_BATCH_ROWS);
	memcpy(srchdr, copy->t_data, PAX_ROWHDR_SIZE);
	srchdr->t_infomask &= ~PAX_HEAP_DATA_BITS;
	ExecStoreHeapTuple(copy, rw->hslot, false);
	PaxRewritePrepare(rw->rel, rw->hslot, srchdr, &rw->rows[rw->nrows]);
	ExecClearTuple(rw->hslot);
	rw->nrows++;
	rw->bytes += copy->t_len;
	MemoryContextSwitchTo(old);
	if (rw->nrows == PAX_REWRITE_BATCH_ROWS || rw->bytes >= PAX_REWRITE_BATCH_BYTES)
		PaxRewriteFlush(rw);
}

/*
 * PaxRowAsHeapTuple forms the row in a pax slot as a heap tuple carrying
 * the given row header's transaction information (for tuplesort and the
 * heap tuple slot of PaxRewriteAdd).
 */
static HeapTuple
PaxRowAsHeapTuple(TupleTableSlot *slot, HeapTupleHeader hdr)
{
	HeapTuple	tuple;

	slot_getallattrs(slot);
	tuple = heap_form_tuple(slot->tts_tupleDescriptor, slot->tts_values,
							slot->tts_isnull);
	tuple->t_data->t_choice = hdr->t_choice;
	tuple->t_data->t_ctid = hdr->t_ctid;
	tuple->t_data->t_infomask = (tuple->t_data->t_infomask & PAX_HEAP_DATA_BITS) |
		(hdr->t_infomask & ~PAX_HEAP_DATA_BITS);
	tuple->t_data->t_infomask2 = (tuple->t_data->t_infomask2 & HEAP_NATTS_MASK) |
		(hdr->t_infomask2 & ~HEAP_NATTS_MASK);
	tuple->t_self = slot->tts_tid;
	return tuple;
}

/*
 * PaxRewriteByIndex copies the kept rows in the order of an index scan of
 * OldIndex (CLUSTER without a sort), a batch at a time.
 */
static void
PaxRewriteByIndex(PaxRewriteState *rs, Relation OldIndex, PaxRewrite *rw)
{
	TupleTableSlot *slot = rs->slot;
	IndexScanDesc iscan = PaxIndexBeginScan(rs->old_rel, OldIndex, SnapshotAny,
										  0, 0);

	index_rescan(iscan, NULL, 0, NULL, 0);
	while (index_getnext_slot(iscan, ForwardScanDirection, slot))
	{
		PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
		HeapTupleHeader hdr = NULL;
		HeapTuple	tuple;
		MemoryContext oldcxt;

		CHECK_FOR_INTERRUPTS();
		LockBuffer(pslot->buffer, BUFFER_LOCK_SHARE);
		if (PaxKeepRow(rs->old_rel, pslot->page, pslot->lcache.layout->rowhdrs,
					   ItemPointerGetBlockNumber(&slot->tts_tid), pslot->row,
					   pslot->buffer, rs->oldest_xmin, &rs->tups_vacuumed,
					   &rs->tups_recently_dead))
			hdr = PaxRewriteHeader(rs, PaxRowHeaderOf(rs->old_rel, pslot->page,
													  pslot->lcache.layout->rowhdrs,
													  pslot->row));
		LockBuffer(pslot->buffer, BUFFER_LOCK_UNLOCK);
		if (hdr == NULL)
			continue;
		oldcxt = MemoryContextSwitchTo(rs->cxt);
		tuple = PaxRowAsHeapTuple(slot, hdr);
		MemoryContextSwitchTo(oldcxt);
		PaxRewriteAdd(rw, tuple);
		MemoryContextReset(rs->cxt);
		rs->num_tuples += 1;
	}
	index_endscan(iscan);
	PaxRewriteFlush(rw);
}

/*
 * PaxRewritePage copies the kept rows of one page of the old relation:
 * into the sort when there is one, else straight to the new relation.
 * Memory is allocated in rs->cxt, which the caller resets.
 */
static void
PaxRewritePage(PaxRewriteState *rs, BlockNumber blkno, PaxLayoutCache *cache,
			   Tuplesortstate *sort)
{
	TupleDesc	tupdesc = RelationGetDescr(rs->old_rel);
	Buffer		buffer;
	Page		page;
	PaxPageLayout *layout;
	PaxRow	   *rows;
	int			nrows;
	int			nkeep = 0;

	buffer = ReadBuffer(rs->old_rel, blkno);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	if (PageIsNew(page))
	{
		UnlockReleaseBuffer(buffer);
		return;
	}
	if (PaxPageIsOrphan(page))
	{
		/* an orphan page's rows are all dead */
		rs->tups_vacuumed += PaxPageGetHeader(page)->pp_nrows;
		UnlockReleaseBuffer(buffer);
		return;
	}
	layout = PaxPageGetLayout(rs->old_rel, tupdesc, page, blkno, cache);
	nrows = PaxPageGetHeader(page)->pp_nrows;
	Assert(nrows <= layout->capacity);
	rows = palloc(nrows * sizeof(PaxRow));

	for (int r = 0; r < nrows; r++)
	{
		HeapTupleHeader hdr;

		if (!PaxKeepRow(rs->old_rel, page, layout->rowhdrs, blkno, r, buffer,
						rs->oldest_xmin, &rs->tups_vacuumed,
						&rs->tups_recently_dead))
			continue;
		rs->num_tuples += 1;
		hdr = PaxRewriteHeader(rs, PaxRowHeaderOf(rs->old_rel, page,
												  layout->rowhdrs, r));
		PaxSlotStoreRow(rs->slot, rs->old_rel, buffer, blkno, r);
		if (sort)
			tuplesort_putheaptuple(sort, PaxRowAsHeapTuple(rs->slot, hdr));
		else
		{
			PaxRow	   *row = &rows[nkeep++];

			PaxRewritePrepare(rs->new_rel, rs->slot, hdr, row);
			/* a decoded column's value lies in the slot's cells */
			for (int i = 0; layout->hasprefix && i < layout->natts; i++)
				if (PaxDecodes(&layout->cols[i]) && !row->isnull[i])
					row->values[i] = datumCopy(row->values[i], false, -1);
		}
	}
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);

	/*
	 * Values still point into the old page, which stays pinned (those of
	 * prefix-encoded columns: into copies)
	 */
	if (nkeep > 0)
		PaxInsertRows(rs->new_rel, rows, nkeep, InvalidCommandId, 0, NULL,
					  InvalidTransactionId, false);
	ExecClearTuple(rs->slot);
	ReleaseBuffer(buffer);
}

/*
 * PaxRewriteSorted writes the rows of the finished sort in order, a batch
 * at a time, and ends the sort.
 */
static void
PaxRewriteSorted(Tuplesortstate *sort, PaxRewrite *rw)
{
	HeapTuple	tuple;

	tuplesort_performsort(sort);
	while ((tuple = tuplesort_getheaptuple(sort, true)) != NULL)
	{
		CHECK_FOR_INTERRUPTS();
		PaxRewriteAdd(rw, tuple);
	}
	PaxRewriteFlush(rw);
	tuplesort_end(sort);
}

/*
 * pax_relation_copy_for_cluster copies the rows of OldTable that may still
 * be visible to anyone into NewTable (VACUUM FULL, CLUSTER), keeping their
 * transaction information and freezing xmins older than *xid_cutoff, as
 * heap's rewrite does: in physical order, in the order of an index scan of
 * OldIndex, or sorted on OldIndex's keys (use_sort).  Both relations are
 * locked AccessExclusive.  Adapted from heapam_relation_copy_for_cluster()
 * in heapam_handler.c, PostgreSQL 15.
 */
void
pax_relation_copy_for_cluster(Relation OldTable, Relation NewTable,
							  Relation OldIndex, bool use_sort,
							  TransactionId OldestXmin,
							  TransactionId *xid_cutoff,
							  MultiXactId *multi_cutoff,
							  double *num_tuples, double *tups_vacuumed,
							  double *tups_recently_dead)
{
	TupleDesc	tupdesc = RelationGetDescr(OldTable);
	BlockNumber nblocks = RelationGetNumberOfBlocks(OldTable);
	PaxRewriteState rs;
	PaxRewrite	rw;

	PaxBulkPlaceFor(OldTable);
	memset(&rs, 0, sizeof(rs));
	rs.old_rel = OldTable;
	rs.new_rel = NewTable;
	rs.oldest_xmin = OldestXmin;
	rs.xid_cutoff = *xid_cutoff;
	rs.multi_cutoff = *multi_cutoff;
	rs.slot = MakeSingleTupleTableSlot(tupdesc, &TTSOpsPaxTuple);
	rs.cxt = AllocSetContextCreate(CurrentMemoryContext, "pax rewrite",
								   ALLOCSET_DEFAULT_SIZES);
	memset(&rw, 0, sizeof(rw));
	rw.rel = NewTable;
	rw.hslot = MakeSingleTupleTableSlot(RelationGetDescr(NewTable),
										&TTSOpsHeapTuple);
	rw.cxt = AllocSetContextCreate(CurrentMemoryContext, "pax rewrite batch",
								   ALLOCSET_DEFAULT_SIZES);
	PaxRewriteFlush(&rw);

	if (OldIndex != NULL && !use_sort)
		PaxRewriteByIndex(&rs, OldIndex, &rw);
	else
	{
		Tuplesortstate *sort = NULL;
		PaxLayoutCache cache;

		if (use_sort)
			sort = tuplesort_begin_cluster(tupdesc, OldIndex,
										   maintenance_work_mem, NULL,
										   TUPLESORT_NONE);
		PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
		for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
		{
			MemoryContext oldcxt;

			CHECK_FOR_INTERRUPTS();
			oldcxt = MemoryContextSwitchTo(rs.cxt);
			PaxRewritePage(&rs, blkno, &cache, sort);
			MemoryContextSwitchTo(oldcxt);
			MemoryContextReset(rs.cxt);
		}
		PaxLayoutCacheFree(&cache);
		if (sort)
			PaxRewriteSorted(sort, &rw);
	}

	*num_tuples = rs.num_tuples;
	*tups_vacuumed = rs.tups_vacuumed;
	*tups_recently_dead = rs.tups_recently_dead;
	ExecDropSingleTupleTableSlot(rw.hslot);
	MemoryContextDelete(rw.cxt);
	ExecDropSingleTupleTableSlot(rs.slot);
	MemoryContextDelete(rs.cxt);
}
