/*-------------------------------------------------------------------------
 *
 * pax_modify.c
 *	  Changing stored rows: DELETE, UPDATE, speculative insertion, update
 *	  chains.
 *
 * Row headers are HeapTupleHeaderData, so the rules are heap's (see
 * src/backend/access/heap/README.tuplock, and pax_tuplock.c for the lock
 * modes, multixacts and xmax computation): an updater or locker stores its
 * xid, or a MultiXactId standing for several, as xmax, with infomask bits
 * giving the strength; HeapTupleSatisfiesUpdate says what the current
 * holders mean for us; a waiter queues on the heavyweight tuple lock, then
 * on the holders' transactions.  An UPDATE writes a new row version where
 * the insert path puts it and points the old version's t_ctid at it.
 * There are no HOT chains: every update inserts index entries.
 *
 * A KEY SHARE lock (foreign key checks) is compatible with an update
 * that keeps the key: the locker locks the old version and, following
 * t_ctid, every newer one (PaxLockUpdatedChain, heap's
 * heap_lock_updated_tuple), so the key it protects cannot go away in a
 * later version either.
 *
 * WAL: each change is one generic WAL record of the bytes changed
 * (PaxChange).  A change on a page marked all-visible first clears
 * PD_ALL_VISIBLE and the visibility map bits in a record of its own
 * (PaxClearAllVisible, pax_visibility.c): generic WAL cannot carry the map
 * page.
 *
 * Row locks, and the targets (a row's page, pinned and locked) through
 * which DELETE and UPDATE acquire a row, are in pax_lock.c.
 *
 * Most routines here re-derive heapam.c's (PostgreSQL 15); each comment
 * names its model.
 *
 * Locking: at most one buffer lock at a time; a visibility map page is
 * pinned before the buffer lock is taken, as heap does.
 *
 * pax_am/pax_modify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/heaptoast.h"
#include "access/multixact.h"
#include "access/rmgr.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "access/xloginsert.h"
#include "catalog/catalog.h"
#include "miscadmin.h"
#include "nodes/bitmapset.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/datum.h"
#include "utils/rel.h"
#include "utils/relcache.h"
#include "utils/snapmgr.h"

#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_tableam.h"

/* ----------------------------------------------------------------
 * Targets: the row's values, its keys, acquiring it for a change
 * ----------------------------------------------------------------
 */

/*
 * PaxTargetValues reads the target row's values into arrays allocated in
 * the current memory context (and those of prefix-encoded columns into
 * decode cells allocated there).  Values are read with the page pinned (they
 * never move while the row exists).
 */
static void
PaxTargetValues(PaxTarget *t, Datum **values, bool **isnull)
{
	TupleDesc	tupdesc = RelationGetDescr(t->rel);
	PaxLayoutCache cache;
	PaxPageLayout *layout;
	int			row = t->row;
	char	   *cells = NULL;

	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
	layout = PaxPageGetLayout(t->rel, tupdesc, t->page,
							  BufferGetBlockNumber(t->buffer), &cache);
	*values = palloc(tupdesc->natts * sizeof(Datum));
	*isnull = palloc(tupdesc->natts * sizeof(bool));
	PaxPageFillValues(tupdesc, t->page, layout, row, 0, tupdesc->natts, NULL, 0,
					  *values, *isnull,
					  PaxDecodeCellsFor(&cells, layout, tupdesc->natts,
										CurrentMemoryContext));
	PaxLayoutCacheFree(&cache);
}

/*
 * PaxTargetHasExternal tells whether the target row has a value stored in
 * the TOAST relation, reading its variable-length columns only.
 */
static bool
PaxTargetHasExternal(PaxTarget *t)
{
	TupleDesc	tupdesc = RelationGetDescr(t->rel);
	PaxPageLayout *layout = PaxPageGetLayout(t->rel, tupdesc, t->page,
											 BufferGetBlockNumber(t->buffer),
											 PaxRelLayouts(t->rel));
	int			row = t->row;

	for (int i = 0; i < layout->natts; i++)
	{
		bool		isnull;
		Datum		v;

		if (TupleDescAttr(tupdesc, i)->attlen != -1 || layout->cols[i].data == 0)
			continue;
		v = PaxPageGetValue(t->page, layout, row, i, &isnull);
		if (!isnull && VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(v)))
			return true;
	}
	return false;
}

/*
 * PaxTargetOldTuple forms the target row as a heap tuple when its TOAST
 * values matter (the relation has a TOAST table and the row has values
 * stored there), for heap's TOAST code; else returns NULL.
 */
static HeapTuple
PaxTargetOldTuple(PaxTarget *t)
{
	TupleDesc	tupdesc = RelationGetDescr(t->rel);
	Datum	   *values;
	bool	   *isnull;
	bool		external = false;
	HeapTuple	tuple = NULL;

	if (!OidIsValid(t->rel->rd_rel->reltoastrelid) || !PaxTargetHasExternal(t))
		return NULL;
	PaxTargetValues(t, &values, &isnull);
	for (int i = 0; i < tupdesc->natts && !external; i++)
		external = !isnull[i] && TupleDescAttr(tupdesc, i)->attlen == -1 &&
			VARATT_IS_EXTERNAL_ONDISK(DatumGetPointer(values[i]));
	if (external)
	{
		tuple = heap_form_tuple(tupdesc, values, isnull);
		tuple->t_self = t->tuple.t_self;
		tuple->t_tableOid = RelationGetRelid(t->rel);
	}
	pfree(values);
	pfree(isnull);
	return tuple;
}

/*
 * PaxColumnsModified returns the columns of attrs (attribute numbers offset
 * by FirstLowInvalidHeapAttributeNumber, as RelationGetIndexAttrBitmap's)
 * whose values in the slot differ from the target row's, as stored; with
 * first, only the first such column.  The target's buffer is exclusively
 * locked.  Adapted from HeapDetermineColumnsInfo() in heapam.c,
 * PostgreSQL 15.
 */
static Bitmapset *
PaxColumnsModified(PaxTarget *t, TupleTableSlot *slot, const Bitmapset *attrs,
				   bool first)
{
	Relation	rel = t->rel;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPageLayout *layout = NULL;
	int			row = t->row;
	Bitmapset  *modified = NULL;
	int			k = -1;

	while ((k = bms_next_member(attrs, k)) >= 0)
	{
		int			attno = k + FirstLowInvalidHeapAttributeNumber;
		Form_pg_attribute att;
		Datum		oldval;
		bool		oldnull;

		if (attno <= 0)
			continue;			/* system columns never change */
		if (layout == NULL)
			layout = PaxPageGetLayout(rel, tupdesc, t->page,
									  BufferGetBlockNumber(t->buffer),
									  PaxRelLayouts(rel));
		att = TupleDescAttr(tupdesc, attno - 1);
		if (attno <= layout->natts)
			oldval = PaxPageGetValue(t->page, layout, row, attno - 1, &oldnull);
		else
			oldval = getmissingattr(tupdesc, attno, &oldnull);
		if (oldnull != slot->tts_isnull[attno - 1] ||
			(!oldnull && !datumIsEqual(oldval, slot->tts_values[attno - 1],
									   att->attbyval, att->attlen)))
		{
			modified = bms_add_member(modified, k);
			if (first)
				break;
		}
	}
	return modified;
}

/*
 * PaxColumnsChanged tells whether the slot's new values change one of the
 * target row's columns of the index attribute set kind (PaxColumnsModified):
 * INDEX_ATTR_BITMAP_IDENTITY_KEY, the replica identity's (logical decoding
 * then gets the old key).
 */
static bool
PaxColumnsChanged(PaxTarget *t, TupleTableSlot *slot, IndexAttrBitmapKind kind)
{
	Bitmapset  *attrs = RelationGetIndexAttrBitmap(t->rel, kind);
	Bitmapset  *modified = PaxColumnsModified(t, slot, attrs, true);
	bool		changed = modified != NULL;

	bms_free(modified);
	bms_free(attrs);
	return changed;
}

/*
 * PaxUpdateColumns compares the slot's new values with the target row's
 * once, for the index attribute sets an UPDATE asks about, as heap_update
 * does: whether a "key" column changes (INDEX_ATTR_BITMAP_KEY, the columns
 * some unique index or foreign key could reference: the update then takes
 * LockTupleExclusive, else LockTupleNoKeyExclusive), whether a column of
 * an index that blocks HOT changes (*hot_blocked), and (16 on) whether a
 * summarizing index's column changes (*summarized).
 */
static bool
PaxUpdateColumns(PaxTarget *t, TupleTableSlot *slot, bool *hot_blocked,
				 bool *summarized)
{
	Relation	rel = t->rel;
	Bitmapset  *key = RelationGetIndexAttrBitmap(rel, INDEX_ATTR_BITMAP_KEY);
	Bitmapset  *hotb = RelationGetIndexAttrBitmap(rel, PAX_INDEX_ATTR_HOT_BLOCKING);
	Bitmapset  *summ = NULL;
	Bitmapset  *attrs;
	Bitmapset  *modified;
	bool		key_changed;

#if PG_VERSION_NUM >= 160000
	summ = RelationGetIndexAttrBitmap(rel, INDEX_ATTR_BITMAP_SUMMARIZED);
#endif
	attrs = bms_union(key, hotb);
	attrs = bms_add_members(attrs, summ);
	modified = PaxColumnsModified(t, slot, attrs, false);
	key_changed = bms_overlap(modified, key);
	*hot_blocked = bms_overlap(modified, hotb);
	*summarized = bms_overlap(modified, summ);
	bms_free(modified);
	bms_free(attrs);
	bms_free(summ);
	bms_free(hotb);
	bms_free(key);
	return key_changed;
}

/*
 * PaxTargetOldKey returns what logical decoding is told of the target row
 * by an update to the slot's values (newslot) or a delete (newslot NULL):
 * PaxLogicalOldKey's tuple, the key required when a replica identity
 * column changes (always for a delete).  Adapted from heap_update()'s and
 * heap_delete()'s use of ExtractReplicaIdentity() in heapam.c,
 * PostgreSQL 15.
 */
static HeapTuple
PaxTargetOldKey(PaxTarget *t, TupleTableSlot *newslot)
{
	Relation	rel = t->rel;
	Datum	   *values;
	bool	   *isnull;
	bool		key_required;
	HeapTuple	key;

	if (rel->rd_rel->relreplident == REPLICA_IDENTITY_NOTHING)
		return NULL;
	key_required = newslot == NULL ||
		(rel->rd_rel->relreplident != REPLICA_IDENTITY_FULL &&
		 PaxColumnsChanged(t, newslot, INDEX_ATTR_BITMAP_IDENTITY_KEY));
	PaxTargetValues(t, &values, &isnull);
	key = PaxLogicalOldKey(rel, values, isnull, key_required);
	pfree(values);
	pfree(isnull);
	return key;
}

/*
 * PaxTargetForChange acquires the target row for a delete (deleting) or an
 * update: on TM_Ok the page stays locked, after the SSI conflict check
 * (safe without a recheck: the page stays locked until the change is made);
 * otherwise the target is closed and the outcome returned.
 */
static TM_Result
PaxTargetForChange(PaxTarget *t, CommandId cid, LockTupleMode mode, bool wait,
				   Snapshot crosscheck, TM_FailureData *tmfd, bool deleting)
{
	TM_Result	result;

	result = PaxTargetAcquire(t, cid, mode, true, LockWaitBlock, !wait, false,
							  crosscheck, tmfd);
	if (result == TM_Invisible && deleting)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("attempted to delete invisible tuple")));
	if (result == TM_Invisible)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("attempted to update invisible tuple")));
	if (result != TM_Ok)
	{
		LockBuffer(t->buffer, BUFFER_LOCK_UNLOCK);
		PaxTargetClose(t);
		return result;
	}
	CheckForSerializableConflictIn(t->rel, &t->tuple.t_self,
								   BufferGetBlockNumber(t->buffer));
	return TM_Ok;
}

/* ------------------------------------------------------------------------
 * DELETE
 * ------------------------------------------------------------------------
 */

/*
 * pax_tuple_delete deletes the row at tid: its xmax becomes our xid (or a
 * multixact with the lockers that stay), its TOAST values are deleted.
 * Adapted from heap_delete() in heapam.c, PostgreSQL 15.
 */
TM_Result
pax_tuple_delete(Relation relation, ItemPointer tid, CommandId cid,
				 Snapshot snapshot, Snapshot crosscheck, bool wait,
				 TM_FailureData *tmfd, bool changingPart)
{
	TransactionId xid = GetCurrentTransactionId();
	PaxTarget	t;
	TM_Result	result;
	TransactionId new_xmax;
	uint16		new_infomask,
				new_infomask2;
	bool		iscombo;
	ItemPointerData ctid;
	HeapTuple	oldtup;
	HeapTuple	oldkey = NULL;
	bool		logical = PaxLogicalWanted(relation, 0);

	PaxBulkPlaceFor(relation);
	PaxLogicalCheckWrite(relation);

	if (IsInParallelMode())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("cannot delete tuples during a parallel operation")));

	PaxTargetOpen(relation, tid, &t);
	result = PaxTargetForChange(&t, cid, LockTupleExclusive, wait, crosscheck,
								tmfd, true);
	if (result != TM_Ok)
		return result;

	HeapTupleHeaderAdjustCmax(t.tuple.t_data, &cid, &iscombo);
	MultiXactIdSetOldestMember();
	PaxComputeNewXmax(HeapTupleHeaderGetRawXmax(t.tuple.t_data),
					  t.tuple.t_data->t_infomask, t.tuple.t_data->t_infomask2,
					  xid, LockTupleExclusive, true,
					  &new_xmax, &new_infomask, &new_infomask2);
	oldtup = PaxTargetOldTuple(&t);
	if (logical)
		oldkey = PaxTargetOldKey(&t, NULL);

	ctid = *tid;
	if (changingPart)
		ItemPointerSetMovedPartitions(&ctid);
	PaxTargetSetXmax(&t, new_xmax, new_infomask, new_infomask2, cid, iscombo,
					 &ctid);
	LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
	if (logical)
		PaxLogicalLogDelete(relation, oldkey, false);

	/* the row's TOAST values go with it (deleted by our transaction) */
	if (oldtup)
		heap_toast_delete(relation, oldtup, false);

	PaxTargetClose(&t);
	pgstat_count_heap_delete(relation);
	return TM_Ok;
}

/* ------------------------------------------------------------------------
 * UPDATE
 * ------------------------------------------------------------------------
 */

/*
 * PaxUpdateOnPage makes the slot's row the new version of the target row
 * (exclusively locked, acquired for the update) on the target's page, in
 * one WAL record with the old version's new xmax (xmax_old and its infomask
 * bits, t_ctid naming the new version), when the page is in row form, the
 * new version needs no TOAST work (which must not run under our buffer
 * lock) and it fits the page, as heap_update keeps a new version on its
 * old page whenever it fits (the fillfactor reserve included).  When no
 * column of a HOT-blocking index changes (*hot, as the caller found it:
 * PaxUpdateColumns), the new version is heap-only and the old one
 * HEAP_HOT_UPDATED; else it is a version of its own, whose index entries
 * the executor makes (summarized: only a summarizing index's column
 * changed, 16 on).  Then the target's page is
 * unlocked, *newtup (when asked) is the new version as a heap tuple for
 * logical decoding, *update_indexes says which indexes need entries, and
 * it returns true; else false, with nothing changed.  Adapted from the
 * same-page branch of heap_update() in heapam.c, PostgreSQL 15.
 */
static bool
PaxUpdateOnPage(PaxTarget *t, TupleTableSlot *slot, CommandId cid,
				PaxRowInit *init, TransactionId xmax_old, uint16 im_old,
				uint16 im2_old, CommandId cmax, bool iscombo, HeapTuple *newtup,
				PaxUpdateIndexes *update_indexes, bool *hot, bool summarized)
{
	Relation	rel = t->rel;
	PaxRow		row;
	PaxChange	chg;
	Page		copy;
	int			r;
	ItemPointerData newtid;

	if (PaxPageIsCompact(t->page) || PaxRowWouldToast(rel, slot))
		return false;
	if (*hot ? !PaxPageHasHotSlot(t->page) : !PaxPageHasFreeSlot(t->page))
		return false;
	if (*hot)
		init->infomask2 |= HEAP_ONLY_TUPLE;
	/* values equal to the old version's share its bytes (PaxRowPlace) */
	init->share_row = t->row;
	r = PaxPlaceOnPage(rel, slot, init, t->buffer, t->vmbuffer, cid, &chg,
					   &copy, &row);
	init->share_row = -1;
	if (r < 0)
	{
		init->infomask2 &= ~HEAP_ONLY_TUPLE;
		return false;
	}
	ItemPointerSet(&newtid, BufferGetBlockNumber(t->buffer),
				   PaxSlotTid(copy, r));
	PaxTargetStampIn(t, copy, &chg, xmax_old, im_old,
					 im2_old | (*hot ? HEAP_HOT_UPDATED : 0), cmax, iscombo,
					 &newtid);
	PaxChangeFinish(&chg);
	*update_indexes = *hot ? PAX_UPDATE_NO_INDEXES : PAX_UPDATE_ALL_INDEXES;
#if PG_VERSION_NUM >= 160000
	if (*hot && summarized)
		*update_indexes = TU_Summarizing;
#endif
	LockBuffer(t->buffer, BUFFER_LOCK_UNLOCK);

	if (newtup)
		*newtup = heap_form_tuple(RelationGetDescr(rel), row.values,
								  row.isnull);
	return true;
}

/*
 * pax_tuple_update writes the slot's row as a new version of the row at
 * otid, where the insert path puts it, and points the old version at it.
 * Adapted from heap_update() in heapam.c, PostgreSQL 15 (no HOT).
 */
TM_Result
pax_tuple_update(Relation relation, ItemPointer otid, TupleTableSlot *slot,
				 CommandId cid, Snapshot snapshot, Snapshot crosscheck,
				 bool wait, TM_FailureData *tmfd, LockTupleMode *lockmode,
				 PaxUpdateIndexes *update_indexes)
{
	TransactionId xid = GetCurrentTransactionId();
	PaxTarget	t;
	TM_Result	result;
	HeapTupleHeader old;
	TransactionId xmax_old,
				xmax_lock;
	uint16		im_old,
				im2_old,
				im_lock,
				im2_lock;
	PaxRowInit	init;
	CommandId	cmax = cid;
	bool		iscombo;
	HeapTuple	oldtup;
	HeapTuple	oldkey = NULL;
	HeapTuple	newtup = NULL;
	bool		logical = PaxLogicalWanted(relation, 0);
	bool		hot;
	bool		hot_blocked;
	bool		summarized;
	ItemPointerData newtid;

	PaxBulkPlaceFor(relation);
	if (IsInParallelMode())
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TRANSACTION_STATE),
				 errmsg("cannot update tuples during a parallel operation")));

	slot_getallattrs(slot);
	PaxTargetOpen(relation, otid, &t);
	*lockmode = PaxUpdateColumns(&t, slot, &hot_blocked, &summarized) ?
		LockTupleExclusive : LockTupleNoKeyExclusive;
	hot = !hot_blocked;
	if (*lockmode == LockTupleNoKeyExclusive)
		MultiXactIdSetOldestMember();

	result = PaxTargetForChange(&t, cid, *lockmode, wait, crosscheck, tmfd,
								false);
	if (result != TM_Ok)
		return result;

	old = t.tuple.t_data;
	MultiXactIdSetOldestMember();
	PaxComputeNewXmax(HeapTupleHeaderGetRawXmax(old), old->t_infomask,
					  old->t_infomask2, xid, *lockmode, true,
					  &xmax_old, &im_old, &im2_old);

	/*
	 * The new version keeps the KEY SHARE lockers that remain (an update
	 * that keeps the key lets them stay), as heap does.
	 */
	memset(&init, 0, sizeof(init));
	if ((old->t_infomask & HEAP_XMAX_INVALID) ||
		(t.checked_lockers && !t.locker_remains))
		init.xmax = InvalidTransactionId;
	else
		init.xmax = HeapTupleHeaderGetRawXmax(old);
	if (!TransactionIdIsValid(init.xmax))
		init.infomask = HEAP_XMAX_INVALID;
	else if (old->t_infomask & HEAP_XMAX_IS_MULTI)
		PaxMultiHintBits(init.xmax, &init.infomask, &init.infomask2);
	else
		init.infomask = HEAP_XMAX_KEYSHR_LOCK | HEAP_XMAX_LOCK_ONLY;
	init.infomask |= HEAP_UPDATED;
	init.share_row = -1;

	HeapTupleHeaderAdjustCmax(old, &cmax, &iscombo);
	oldtup = PaxTargetOldTuple(&t);
	if (logical)
		oldkey = PaxTargetOldKey(&t, slot);

	/* the new version on the same page (heap-only if it may be), if it fits */
	if (oldtup == NULL &&
		PaxUpdateOnPage(&t, slot, cid, &init, xmax_old, im_old, im2_old, cmax,
						iscombo, logical ? &newtup : NULL, update_indexes,
						&hot, summarized))
	{
		PaxTargetClose(&t);
		if (logical)
			PaxLogicalLogUpdate(relation, oldkey, newtup);
		PaxCountUpdate(relation, hot);
		return TM_Ok;
	}

	/*
	 * The new version goes where the insert path puts it, which needs the
	 * page unlocked: meanwhile the old version is marked locked by us, so
	 * nobody else updates, deletes or locks it exclusively.
	 */
	PaxComputeNewXmax(HeapTupleHeaderGetRawXmax(old), old->t_infomask,
					  old->t_infomask2, xid, *lockmode, false,
					  &xmax_lock, &im_lock, &im2_lock);
	PaxTargetSetXmax(&t, xmax_lock, im_lock, im2_lock, cmax, iscombo,
					 &t.tuple.t_self);
	LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);

	PaxInsertVersion(relation, slot, cid, 0, &init, oldtup,
					 logical ? &newtup : NULL);
	newtid = slot->tts_tid;

	PaxTargetLock(&t);
	PaxTargetSetXmax(&t, xmax_old, im_old, im2_old, cmax, iscombo, &newtid);

	/*
	 * A hint that the old page could use a pruning (heap_update's
	 * PageSetFull), for an encoded page whose encodings may not have taken
	 * the version and that pruning may lay out in roomier ones
	 * (PaxPageIsRoomy); pax's pruning costs more than heap's, and other
	 * pages are pruned when they are nearly full (PaxPageWantsPrune).
	 */
	if (!PageIsFull(t.page) && !PaxPageIsCompact(t.page) &&
		PaxPageIsEncoded(t.page) &&
		!PaxPageIsRoomy(t.page, RelationGetDescr(relation)))
	{
		PageSetFull(t.page);
		MarkBufferDirtyHint(t.buffer, true);
	}
	LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
	PaxTargetClose(&t);
	if (logical)
		PaxLogicalLogUpdate(relation, oldkey, newtup);

	PaxCountUpdate(relation, false);
	*update_indexes = PAX_UPDATE_ALL_INDEXES;
	return TM_Ok;
}

/* ------------------------------------------------------------------------
 * Speculative insertion (INSERT ... ON CONFLICT)
 * ------------------------------------------------------------------------
 */

/*
 * pax_tuple_insert_speculative inserts the slot's row with a speculative
 * insertion token (INSERT ... ON CONFLICT).  Adapted from
 * heapam_tuple_insert_speculative() in heapam_handler.c, PostgreSQL 15.
 */
void
pax_tuple_insert_speculative(Relation relation, TupleTableSlot *slot,
							 CommandId cid, int options,
							 BulkInsertState bistate, uint32 specToken)
{
	PaxRowInit	init;

	memset(&init, 0, sizeof(init));
	init.infomask = HEAP_XMAX_INVALID;
	init.spectoken = specToken;
	init.share_row = -1;

	PaxBulkPlaceFor(relation);
	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);
	PaxInsertVersion(relation, slot, cid, options | HEAP_INSERT_SPECULATIVE,
					 &init, NULL, NULL);
	pgstat_count_heap_insert(relation, 1);
}

/*
 * pax_tuple_complete_speculative ends a speculative insertion: on success
 * the row's t_ctid points at itself again, like any row's; on failure the
 * row is killed (xmin invalid: invisible to everyone, removable by VACUUM
 * at once) and its TOAST values deleted.  Adapted from
 * heap_finish_speculative() and heap_abort_speculative() in heapam.c,
 * PostgreSQL 15.
 */
void
pax_tuple_complete_speculative(Relation relation, TupleTableSlot *slot,
							   uint32 specToken, bool succeeded)
{
	ItemPointer tid = &slot->tts_tid;
	PaxTarget	t;
	PaxChange	chg;
	Page		copy;
	HeapTupleHeader hdr;
	HeapTuple	oldtup = NULL;
	int			off;

	PaxTargetOpen(relation, tid, &t);
	if (!HeapTupleHeaderIsSpeculative(t.tuple.t_data))
		elog(ERROR, "pax row (%u,%u) is not a speculative insertion",
			 ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid));
	if (!succeeded)
		oldtup = PaxTargetOldTuple(&t);

	if (!succeeded && PageIsAllVisible(t.page))
		PaxClearAllVisible(relation, t.buffer, t.vmbuffer);
	off = (char *) t.tuple.t_data - (char *) t.page;
	copy = PaxChangeStart(&chg, relation, t.buffer, false);
	hdr = (HeapTupleHeader) (copy + off);
	hdr->t_ctid = *tid;
	if (!succeeded)
	{
		hdr->t_infomask &= ~HEAP_XMAX_BITS;
		hdr->t_infomask |= HEAP_XMAX_INVALID;
		hdr->t_infomask2 &= ~HEAP_KEYS_UPDATED;
		HeapTupleHeaderSetXmin(hdr, InvalidTransactionId);
	}
	PaxChangeRange(&chg, off, PAX_ROWHDR_SIZE);
	PaxChangeFinish(&chg);
	LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
	if (PaxLogicalWanted(relation, 0))
	{
		if (succeeded)
			PaxLogicalLogConfirm(relation);
		else
			PaxLogicalLogDelete(relation, NULL, true);
	}

	if (oldtup)
		heap_toast_delete(relation, oldtup, true);
	PaxTargetClose(&t);
	if (!succeeded)
		pgstat_count_heap_delete(relation);
}

/* ------------------------------------------------------------------------
 * Following update chains
 * ------------------------------------------------------------------------
 */

/*
 * pax_get_latest_tid follows the update chain from *tid and leaves in it
 * the newest version visible to the scan's snapshot (currtid_byrelname,
 * WHERE CURRENT OF).  Adapted from heap_get_latest_tid() in heapam.c,
 * PostgreSQL 15.
 */
void
pax_get_latest_tid(TableScanDesc sscan, ItemPointer tid)
{
	Relation	rel = sscan->rs_rd;
	Snapshot	snapshot = sscan->rs_snapshot;
	BlockNumber nblocks = RelationGetNumberOfBlocks(rel);
	ItemPointerData ctid = *tid;
	TransactionId prior_xmax = InvalidTransactionId;

	for (;;)
	{
		Buffer		buffer;
		HeapTupleData tp;
		bool		valid;

		if (ItemPointerGetBlockNumber(&ctid) >= nblocks)
			break;
		buffer = ReadBuffer(rel, ItemPointerGetBlockNumber(&ctid));
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		/* the row at tid may be a pruned chain root: a REDIRECT to its chain */
		if (!TransactionIdIsValid(prior_xmax))
			PaxHotRedirect(rel, buffer, &ctid);
		if (!PaxReadRow(rel, buffer, &ctid, &tp) ||
			(TransactionIdIsValid(prior_xmax) &&
			 !TransactionIdEquals(prior_xmax, HeapTupleHeaderGetXmin(tp.t_data))))
		{
			UnlockReleaseBuffer(buffer);
			break;
		}
		valid = HeapTupleSatisfiesVisibility(&tp, snapshot, buffer);
		HeapCheckForSerializableConflictOut(valid, rel, &tp, buffer, snapshot);
		if (valid)
			*tid = ctid;
		if ((tp.t_data->t_infomask & HEAP_XMAX_INVALID) ||
			HeapTupleHeaderIsOnlyLocked(tp.t_data) ||
			HeapTupleHeaderIndicatesMovedPartitions(tp.t_data) ||
			PaxRowCtidIsSelf(&tp))
		{
			UnlockReleaseBuffer(buffer);
			break;
		}
		ctid = PaxRowCtid(&tp);
		prior_xmax = HeapTupleHeaderGetUpdateXid(tp.t_data);
		UnlockReleaseBuffer(buffer);
	}
}
