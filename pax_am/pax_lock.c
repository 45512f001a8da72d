/*-------------------------------------------------------------------------
 *
 * pax_lock.c
 *	  Row locks: the page of a row being changed, waiting for the row's
 *	  holders, the new xmax, and pax_tuple_lock.
 *
 * A PaxTarget (pax_tableam.h) is a row being locked, deleted or updated:
 * its page pinned and exclusively locked, its header at hand (a compact
 * page's row may have its own header, in a slot or on the header page).
 * PaxTargetAcquire decides whether our transaction may take a lock mode on
 * it, waiting for the holders that conflict as heap_lock_tuple does (the
 * rules, from pax_tuplock.c: HeapTupleSatisfiesUpdate, the heavyweight
 * tuple lock, the holders' transactions, the newer versions of the row a
 * KEY SHARE locker must lock too); PaxTargetSetXmax stores the new xmax in
 * one generic WAL record.  pax_modify.c's DELETE and UPDATE use them, and
 * so does pax_tuple_lock here (SELECT ... FOR UPDATE / SHARE, and the
 * rows EvalPlanQual locks).
 *
 * Locking: at most one buffer lock at a time (a compact page, then its
 * header page); a visibility map page is pinned before the buffer lock is
 * taken, as heap does.
 *
 * pax_am/pax_lock.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/multixact.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

static void PaxTargetPinVm(PaxTarget *t);
static void PaxTargetRefresh(PaxTarget *t);
static void PaxStampXmax(HeapTupleHeader hdr, TransactionId xmax,
						 uint16 infomask, uint16 infomask2, CommandId cid,
						 bool iscombo, const ItemPointerData *ctid);
static void PaxTargetSetXmaxOverflow(PaxTarget *t, uint16 rowhdrs, int row,
									 TransactionId xmax, uint16 infomask,
									 uint16 infomask2, CommandId cid,
									 bool iscombo, const ItemPointerData *ctid);

/* ----------------------------------------------------------------
 * Targets: a row's page, pinned and locked
 * ----------------------------------------------------------------
 */

/*
 * PaxTargetTryOpen pins and exclusively locks the page of the row at tid;
 * returns false, holding nothing, if there is no such row.  The block
 * exists (TIDs come from scans, indexes and update chains), as heap_update
 * and heap_lock_tuple assume: no relation size lookup per row change.
 */
static bool
PaxTargetTryOpen(Relation rel, ItemPointer tid, PaxTarget *t)
{
	BlockNumber blkno = ItemPointerGetBlockNumber(tid);

	memset(t, 0, sizeof(PaxTarget));
	t->rel = rel;
	t->buffer = ReadBuffer(rel, blkno);
	t->vmbuffer = InvalidBuffer;
	t->page = BufferGetPage(t->buffer);
	if (PageIsAllVisible(t->page))
		visibilitymap_pin(rel, blkno, &t->vmbuffer);
	LockBuffer(t->buffer, BUFFER_LOCK_EXCLUSIVE);

	t->row = PaxReadRowSlot(rel, t->buffer, tid, &t->tuple);
	if (t->row < 0)
	{
		UnlockReleaseBuffer(t->buffer);
		if (BufferIsValid(t->vmbuffer))
			ReleaseBuffer(t->vmbuffer);
		return false;
	}
	PaxTargetRefresh(t);
	return true;
}

/*
 * PaxTargetRefresh points the target tuple at its row's header as it is
 * now: on a compact page a row's header moves when it gets one of its own
 * (PaxTargetSetXmax, by us or by whoever held the page while we waited),
 * and one on the header page is copied into the target.  The buffer is
 * locked.
 */
static void
PaxTargetRefresh(PaxTarget *t)
{
	uint16		rowhdrs;
	int			row;

	if (!PaxPageIsCompact(t->page))
		return;
	rowhdrs = PaxRowHeadersAt(t->page);
	row = t->row;
	t->tuple.t_data = PaxRowHeaderOf(t->rel, t->page, rowhdrs, row);
	if (PaxCompactStates(t->page, rowhdrs)[row] == PAX_STATE_OVERFLOW)
	{
		/* a copy PaxRowHeaderOf hands out for a while: keep our own */
		memcpy(t->own.bytes, t->tuple.t_data, PAX_ROWHDR_SIZE);
		t->tuple.t_data = (HeapTupleHeader) t->own.bytes;
	}
}

/*
 * PaxTargetLock exclusively locks the target's page again (after a wait)
 * and refreshes its tuple (PaxTargetRefresh).
 */
void
PaxTargetLock(PaxTarget *t)
{
	LockBuffer(t->buffer, BUFFER_LOCK_EXCLUSIVE);
	PaxTargetRefresh(t);
}

/* PaxTargetOpen is PaxTargetTryOpen for a row that must exist. */
void
PaxTargetOpen(Relation rel, ItemPointer tid, PaxTarget *t)
{
	if (!PaxTargetTryOpen(rel, tid, t))
		elog(ERROR, "pax row (%u,%u) of relation \"%s\" does not exist",
			 ItemPointerGetBlockNumber(tid), ItemPointerGetOffsetNumber(tid),
			 RelationGetRelationName(rel));
}

/* PaxTargetClose drops the target's locks and pins; the buffer is unlocked. */
void
PaxTargetClose(PaxTarget *t)
{
	ReleaseBuffer(t->buffer);
	if (BufferIsValid(t->vmbuffer))
		ReleaseBuffer(t->vmbuffer);
	if (t->have_tuple_lock)
		UnlockTuple(t->rel, &t->tuple.t_self,
					PaxTupleLockHeavyMode(t->tuplock_mode));
}

/*
 * PaxTargetTuplock takes the heavyweight tuple lock that orders waiters,
 * following wait_policy; false when it is not free and we must not wait.
 * The buffer is unlocked.  Adapted from heap_acquire_tuplock() in heapam.c,
 * PostgreSQL 15.
 */
static bool
PaxTargetTuplock(PaxTarget *t, LockTupleMode mode, LockWaitPolicy wait_policy)
{
	LOCKMODE	hw = PaxTupleLockHeavyMode(mode);

	if (t->have_tuple_lock)
		return true;
	if (wait_policy == LockWaitBlock)
		LockTuple(t->rel, &t->tuple.t_self, hw);
	else if (!PaxConditionalLockTuple(t->rel, &t->tuple.t_self, hw))
		return PaxNoLock(t->rel, wait_policy);
	t->have_tuple_lock = true;
	t->tuplock_mode = mode;
	return true;
}

/*
 * PaxXmaxHint hints a finished single-xid xmax of the target row.  The
 * buffer is exclusively locked.  Adapted from UpdateXmaxHintBits() in
 * heapam.c, PostgreSQL 15.
 */
static void
PaxXmaxHint(PaxTarget *t, TransactionId xid)
{
	HeapTupleHeader hdr = t->tuple.t_data;

	if (hdr->t_infomask & (HEAP_XMAX_COMMITTED | HEAP_XMAX_INVALID))
		return;
	if (!HEAP_XMAX_IS_LOCKED_ONLY(hdr->t_infomask) &&
		TransactionIdDidCommit(xid))
		HeapTupleSetHintBits(hdr, t->buffer, HEAP_XMAX_COMMITTED, xid);
	else
		HeapTupleSetHintBits(hdr, t->buffer, HEAP_XMAX_INVALID,
							 InvalidTransactionId);
}

/*
 * PaxLockUpdatedChain takes `mode` on every version newer than the one
 * whose xmax and t_ctid are given (an updater we did not wait for, or
 * waited for), so a lock taken on an old version holds for the versions
 * its updater made.  The caller holds no buffer lock.  Adapted from
 * heap_lock_updated_tuple() and heap_lock_updated_tuple_rec() in heapam.c,
 * PostgreSQL 15.
 */
static TM_Result
PaxLockUpdatedChain(Relation rel, uint16 prior_infomask,
					TransactionId prior_raw_xmax,
					const ItemPointerData *prior_ctid, LockTupleMode mode)
{
	TransactionId xid = GetCurrentTransactionId();
	TransactionId prior_xmax;
	ItemPointerData tid = *prior_ctid;

	if (ItemPointerIndicatesMovedPartitions(prior_ctid))
		return TM_Ok;
	MultiXactIdSetOldestMember();
	prior_xmax = (prior_infomask & HEAP_XMAX_IS_MULTI) ?
		PaxMultiUpdater(prior_raw_xmax) : prior_raw_xmax;

	for (;;)
	{
		PaxTarget	t;
		HeapTupleHeader hdr;
		TM_Result	result = TM_Ok;
		bool		needwait = false;
		bool		done;

		if (!PaxTargetTryOpen(rel, &tid, &t))
			return TM_Ok;
retry:
		hdr = t.tuple.t_data;
		CHECK_FOR_INTERRUPTS();

		/*
		 * The page may have become all-visible before we locked it, or while
		 * we waited: pin its visibility map page now, before the checks,
		 * for PaxTargetSetXmax may have to clear the bits.
		 */
		PaxTargetPinVm(&t);
		if ((TransactionIdIsValid(prior_xmax) &&
			 !TransactionIdEquals(HeapTupleHeaderGetXmin(hdr), prior_xmax)) ||
			TransactionIdDidAbort(HeapTupleHeaderGetXmin(hdr)))
		{
			/* the chain ends here */
			LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
			PaxTargetClose(&t);
			return TM_Ok;
		}

		if (!(hdr->t_infomask & HEAP_XMAX_INVALID))
		{
			TransactionId raw = HeapTupleHeaderGetRawXmax(hdr);
			TransactionId waitfor = InvalidTransactionId;

			if (hdr->t_infomask & HEAP_XMAX_IS_MULTI)
			{
				MultiXactMember *members;
				int			nmembers;

				nmembers = PaxMultiMembers(raw, hdr->t_infomask, &members);
				for (int i = 0; i < nmembers; i++)
				{
					result = PaxTestHolder(members[i].status, members[i].xid,
										   mode, &t.tuple, &needwait);
					if (needwait)
						waitfor = members[i].xid;
					if (result != TM_Ok || needwait)
						break;
				}
				if (nmembers > 0)
					pfree(members);
			}
			else
			{
				result = PaxTestHolder(PaxXmaxStatus(hdr->t_infomask,
													 hdr->t_infomask2),
									   raw, mode, &t.tuple, &needwait);
				if (needwait)
					waitfor = raw;
			}
			if (needwait)
			{
				LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
				XactLockTableWait(waitfor, rel, &t.tuple.t_self,
								  XLTW_LockUpdated);
				PaxTargetLock(&t);
				goto retry;
			}
			if (result != TM_Ok && result != TM_SelfModified)
			{
				LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
				PaxTargetClose(&t);
				return result;
			}
		}

		/* already ours (TM_SelfModified): on to the next version */
		if (result == TM_Ok)
		{
			TransactionId new_xmax;
			uint16		im,
						im2;

			PaxComputeNewXmax(HeapTupleHeaderGetRawXmax(hdr), hdr->t_infomask,
							  hdr->t_infomask2, xid, mode, false,
							  &new_xmax, &im, &im2);
			PaxTargetSetXmax(&t, new_xmax, im, im2, InvalidCommandId, false,
							 NULL);
		}

		done = (hdr->t_infomask & HEAP_XMAX_INVALID) ||
			HeapTupleHeaderIndicatesMovedPartitions(hdr) ||
			PaxRowCtidIsSelf(&t.tuple) ||
			HeapTupleHeaderIsOnlyLocked(hdr);
		if (!done)
		{
			prior_xmax = HeapTupleHeaderGetUpdateXid(hdr);
			tid = PaxRowCtid(&t.tuple);
		}
		LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);
		PaxTargetClose(&t);
		if (done)
			return TM_Ok;
	}
}

/* What PaxTargetAwait tells PaxTargetAcquire to do next. */
typedef enum PaxAwait
{
	PAX_AWAIT_GO,				/* (internal) go on with the next step */
	PAX_AWAIT_DONE,				/* *result is the outcome; buffer locked */
	PAX_AWAIT_NOOP,				/* we hold a strong enough lock already */
	PAX_AWAIT_RETRY				/* the row changed meanwhile: look again */
} PaxAwait;

/*
 * PaxTargetPinVm pins the visibility map page for a target page that became
 * all-visible while its buffer was not locked by us, so that a change can
 * clear the bits (PaxClearAllVisible).  The buffer is exclusively locked on
 * entry and on exit.
 */
static void
PaxTargetPinVm(PaxTarget *t)
{
	if (BufferIsValid(t->vmbuffer) || !PageIsAllVisible(t->page))
		return;
	LockBuffer(t->buffer, BUFFER_LOCK_UNLOCK);
	visibilitymap_pin(t->rel, ItemPointerGetBlockNumber(&t->tuple.t_self),
					  &t->vmbuffer);
	PaxTargetLock(t);
}

/*
 * PaxTargetKeyShareChain handles a KEY SHARE lock beside an update that
 * kept the key: it locks the newer versions too (follow_updates), then
 * makes sure the row is still in that state.  The buffer is exclusively
 * locked on entry and on exit.  Adapted from the LockTupleKeyShare case of
 * heap_lock_tuple() in heapam.c, PostgreSQL 15.
 */
static PaxAwait
PaxTargetKeyShareChain(PaxTarget *t, TransactionId xwait, uint16 infomask,
					   LockTupleMode mode, bool follow_updates,
					   TM_Result *result)
{
	HeapTuple	tp = &t->tuple;
	ItemPointerData ctid = PaxRowCtid(tp);

	LockBuffer(t->buffer, BUFFER_LOCK_UNLOCK);
	if (follow_updates)
	{
		*result = PaxLockUpdatedChain(t->rel, infomask, xwait, &ctid, mode);
		if (*result != TM_Ok)
		{
			PaxTargetLock(t);
			return PAX_AWAIT_DONE;
		}
	}
	PaxTargetLock(t);
	if (PaxXmaxChanged(tp->t_data, xwait, infomask) ||
		(tp->t_data->t_infomask2 & HEAP_KEYS_UPDATED))
		return PAX_AWAIT_RETRY;
	return PAX_AWAIT_GO;
}

/*
 * PaxTargetSleep waits, as wait_policy allows, for the holders of the
 * target's xmax that conflict with `mode`: queueing on the heavyweight
 * tuple lock first (unless we hold a weaker lock in the multixact
 * ourselves), then on their transactions, then locking the newer versions
 * an updater made (follow_updates).  The buffer is exclusively locked on
 * entry and on exit.  Adapted from the waiting part of heap_lock_tuple()
 * (and of heap_update() and heap_delete()) in heapam.c, PostgreSQL 15.
 */
static PaxAwait
PaxTargetSleep(PaxTarget *t, TransactionId xwait, uint16 infomask,
			   int own_mode, LockTupleMode mode, LockWaitPolicy wait_policy,
			   XLTW_Oper oper, bool follow_updates, TM_Result *result)
{
	HeapTuple	tp = &t->tuple;
	bool		multi = (infomask & HEAP_XMAX_IS_MULTI) != 0;
	int			remain = 0;

	LockBuffer(t->buffer, BUFFER_LOCK_UNLOCK);

	/* our own weaker lock in a multixact: upgrade without queueing */
	if ((own_mode < 0 && !PaxTargetTuplock(t, mode, wait_policy)) ||
		!(multi ?
		  PaxMultiWait(t->rel, &tp->t_self, xwait, infomask, mode,
					   wait_policy, oper, &remain) :
		  PaxWaitXact(t->rel, &tp->t_self, xwait, wait_policy, oper)))
	{
		PaxTargetLock(t);
		*result = TM_WouldBlock;
		return PAX_AWAIT_DONE;
	}
	t->checked_lockers = true;
	if (multi)
		t->locker_remains = remain != 0;

	if (follow_updates && !HEAP_XMAX_IS_LOCKED_ONLY(infomask) &&
		!PaxRowCtidIsSelf(tp))
	{
		ItemPointerData ctid = PaxRowCtid(tp);

		*result = PaxLockUpdatedChain(t->rel, infomask, xwait, &ctid, mode);
		if (*result != TM_Ok)
		{
			PaxTargetLock(t);
			return PAX_AWAIT_DONE;
		}
	}

	PaxTargetLock(t);
	if (PaxXmaxChanged(tp->t_data, xwait, infomask))
		return PAX_AWAIT_RETRY;
	if (!multi)
		PaxXmaxHint(t, xwait);
	return PAX_AWAIT_GO;
}

/*
 * PaxTargetAwait deals with the holders of a target row that
 * HeapTupleSatisfiesUpdate found busy (*result TM_BeingModified, or for a
 * lock TM_Updated / TM_Deleted): nothing to do if we hold a strong enough
 * lock (first look only), a failure if a committed update or delete
 * conflicts, else waiting for the holders that conflict and deciding the
 * outcome in *result.  The buffer is exclusively locked on entry and on
 * exit.
 */
static PaxAwait
PaxTargetAwait(PaxTarget *t, LockTupleMode mode, bool is_update,
			   LockWaitPolicy wait_policy, bool follow_updates, bool first,
			   XLTW_Oper oper, TM_Result *result)
{
	HeapTuple	tp = &t->tuple;
	TransactionId xwait = HeapTupleHeaderGetRawXmax(tp->t_data);
	uint16		infomask = tp->t_data->t_infomask;
	uint16		infomask2 = tp->t_data->t_infomask2;
	bool		multi = (infomask & HEAP_XMAX_IS_MULTI) != 0;
	int			own_mode;
	bool		sleep;
	PaxAwait	step = PAX_AWAIT_GO;

	sleep = PaxHolderVerdict(xwait, infomask, infomask2, mode, &own_mode);

	/* a lock of ours at least as strong: nothing to do */
	if (first && !is_update && own_mode >= (int) mode)
	{
		t->noop = true;
		return PAX_AWAIT_NOOP;
	}
	if (sleep && *result != TM_BeingModified)
		return PAX_AWAIT_DONE;	/* committed update or delete */

	if (!sleep && mode == LockTupleKeyShare &&
		!HEAP_XMAX_IS_LOCKED_ONLY(infomask) &&
		!PaxRowCtidIsSelf(tp))
		step = PaxTargetKeyShareChain(t, xwait, infomask, mode,
									  follow_updates, result);
	if (step != PAX_AWAIT_GO)
		return step;

	if (sleep)
		step = PaxTargetSleep(t, xwait, infomask, own_mode, mode, wait_policy,
							  oper, follow_updates, result);
	else if (!multi)
	{
		/* a compatible single holder stays, beside us */
		t->checked_lockers = true;
		t->locker_remains = true;
	}
	if (step != PAX_AWAIT_GO)
		return step;

	if (!sleep ||
		(tp->t_data->t_infomask & HEAP_XMAX_INVALID) ||
		HEAP_XMAX_IS_LOCKED_ONLY(tp->t_data->t_infomask) ||
		HeapTupleHeaderIsOnlyLocked(tp->t_data))
		*result = TM_Ok;
	else if (!PaxRowCtidIsSelf(tp))
		*result = TM_Updated;
	else
		*result = TM_Deleted;
	return PAX_AWAIT_DONE;
}

/*
 * PaxTargetAcquire decides whether our transaction may take `mode` on the
 * target row (is_update: to update or delete it), waiting for the holders
 * that conflict as wait_policy allows.  Returns TM_Ok with the buffer
 * exclusively locked and t->noop set if we hold a strong enough lock
 * already, or the failure, with *tmfd filled and the buffer still locked.
 * nowait_modified: return TM_BeingModified instead of waiting (the
 * wait = false of table_tuple_delete/update).  The caller holds the buffer
 * exclusively locked.  Adapted from heap_lock_tuple(), and the
 * corresponding parts of heap_update() and heap_delete(), in heapam.c,
 * PostgreSQL 15.
 */
TM_Result
PaxTargetAcquire(PaxTarget *t, CommandId cid, LockTupleMode mode,
				 bool is_update, LockWaitPolicy wait_policy,
				 bool nowait_modified, bool follow_updates,
				 Snapshot crosscheck, TM_FailureData *tmfd)
{
	HeapTuple	tp = &t->tuple;
	XLTW_Oper	oper = !is_update ? XLTW_Lock :
		mode == LockTupleExclusive ? XLTW_Delete : XLTW_Update;
	bool		first = true;
	TM_Result	result;

	for (;;)
	{
		PaxAwait	step;

		PaxTargetPinVm(t);
		t->checked_lockers = t->locker_remains = false;

		result = HeapTupleSatisfiesUpdate(tp, cid, t->buffer);
		if (result == TM_Invisible)
			return result;
		if (result == TM_BeingModified && nowait_modified)
			break;
		if (result != TM_BeingModified &&
			(is_update || (result != TM_Updated && result != TM_Deleted)))
			break;

		step = PaxTargetAwait(t, mode, is_update, wait_policy, follow_updates,
							  first, oper, &result);
		first = false;
		if (step == PAX_AWAIT_NOOP)
			return TM_Ok;
		if (step == PAX_AWAIT_DONE)
			break;
		Assert(step == PAX_AWAIT_RETRY);
	}

	if (result == TM_Ok && crosscheck != InvalidSnapshot &&
		!HeapTupleSatisfiesVisibility(tp, crosscheck, t->buffer))
		result = TM_Updated;

	if (result != TM_Ok)
	{
		tmfd->ctid = PaxRowCtid(tp);
		tmfd->xmax = HeapTupleHeaderGetUpdateXid(tp->t_data);
		tmfd->cmax = result == TM_SelfModified ?
			HeapTupleHeaderGetCmax(tp->t_data) : InvalidCommandId;
	}
	return result;
}

/*
 * PaxTargetSetXmax stores a new xmax and its infomask bits in the target
 * row, and with a valid cid its cmax, and with ctid its t_ctid, in one
 * generic WAL record.  The buffer is exclusively locked.  Adapted from the
 * xmax stamping of heap_delete() and heap_lock_tuple() in heapam.c,
 * PostgreSQL 15.
 */
void
PaxTargetSetXmax(PaxTarget *t, TransactionId xmax, uint16 infomask,
				 uint16 infomask2, CommandId cid, bool iscombo,
				 const ItemPointerData *ctid)
{
	PaxChange	chg;
	Page		copy;
	HeapTupleHeader hdr;
	int			off = (char *) t->tuple.t_data - (char *) t->page;
	int			row = t->row;
	uint16		rowhdrs = 0;
	int			slot = 0;		/* a compact page's free header slot */

	Assert(PaxBufferLockedByMe(t->buffer, true));
	if (PageIsAllVisible(t->page))
		PaxClearAllVisible(t->rel, t->buffer, t->vmbuffer);
	if (PaxPageIsCompact(t->page))
	{
		uint8		state;

		rowhdrs = PaxRowHeadersAt(t->page);
		state = PaxCompactStates(t->page, rowhdrs)[row];
		if (state == PAX_STATE_SHARED)
			slot = PaxCompactFreeSlot(t->page, rowhdrs);
		if (state == PAX_STATE_OVERFLOW ||
			(state == PAX_STATE_SHARED && slot == 0))
		{
			PaxTargetSetXmaxOverflow(t, rowhdrs, row, xmax, infomask,
									 infomask2, cid, iscombo, ctid);
			return;
		}
	}

	copy = PaxChangeStart(&chg, t->rel, t->buffer, false);
	if (slot != 0)
		off = PaxCompactOwnHeader(copy, rowhdrs,
								  BufferGetBlockNumber(t->buffer), row, slot,
								  &chg);
	hdr = (HeapTupleHeader) (copy + off);
	PaxStampXmax(hdr, xmax, infomask, infomask2, cid, iscombo, ctid);
	PaxChangeRange(&chg, off, PAX_ROWHDR_SIZE);
	PaxSetPrunable(copy, infomask, &chg);
	PaxChangeFinish(&chg);
	t->tuple.t_data = (HeapTupleHeader) (t->page + off);
}

/*
 * PaxSetPrunable notes on a page (a PaxChange copy) that a row deleted or
 * updated by the current transaction may become prunable (pd_prune_xid, as
 * heap's PageSetPrunable in heap_delete and heap_update); a lock-only xmax
 * makes nothing prunable.  A compact page is pruned into a row-form page
 * (PaxPagePrune).
 */
void
PaxSetPrunable(Page copy, uint16 infomask, PaxChange *chg)
{
	if (HEAP_XMAX_IS_LOCKED_ONLY(infomask))
		return;
	PageSetPrunable(copy, GetCurrentTransactionId());
	PaxChangeRange(chg, offsetof(PageHeaderData, pd_prune_xid),
				   sizeof(TransactionId));
}

/*
 * PaxTargetStampIn is PaxTargetSetXmax within a change the caller started
 * on the target's row-form page (copy, the private copy of chg): an
 * UPDATE's old version stamped in the record that also places its
 * heap-only new version (PaxPlaceOnPage).
 */
void
PaxTargetStampIn(PaxTarget *t, Page copy, PaxChange *chg, TransactionId xmax,
				 uint16 infomask, uint16 infomask2, CommandId cid,
				 bool iscombo, const ItemPointerData *ctid)
{
	int			off = (char *) t->tuple.t_data - (char *) t->page;

	Assert(!PaxPageIsCompact(copy) && PaxBufferLockedByMe(t->buffer, true));
	PaxStampXmax((HeapTupleHeader) (copy + off), xmax, infomask, infomask2,
				 cid, iscombo, ctid);
	PaxChangeRange(chg, off, PAX_ROWHDR_SIZE);
	PaxSetPrunable(copy, infomask, chg);
}

/*
 * PaxStampXmax stores a new xmax and its infomask bits in a row header,
 * with a valid cid its cmax, and with ctid its t_ctid.
 */
static void
PaxStampXmax(HeapTupleHeader hdr, TransactionId xmax, uint16 infomask,
			 uint16 infomask2, CommandId cid, bool iscombo,
			 const ItemPointerData *ctid)
{
	/*
	 * A delete, an update (a HOT one sets it again) or a lock-only xmax ends
	 * the HOT link; a lock beside an updater that stays (no ctid) keeps it,
	 * as heap_lock_tuple does.
	 */
	hdr->t_infomask &= ~HEAP_XMAX_BITS;
	hdr->t_infomask2 &= ~HEAP_KEYS_UPDATED;
	if (ctid != NULL || HEAP_XMAX_IS_LOCKED_ONLY(infomask))
		hdr->t_infomask2 &= ~HEAP_HOT_UPDATED;
	hdr->t_infomask |= infomask;
	hdr->t_infomask2 |= infomask2;
	HeapTupleHeaderSetXmax(hdr, xmax);
	if (cid != InvalidCommandId)
		HeapTupleHeaderSetCmax(hdr, cid, iscombo);
	if (ctid)
		hdr->t_ctid = *ctid;
}

/*
 * PaxTargetSetXmaxOverflow is PaxTargetSetXmax for a row of a compact page
 * whose header is, or goes, on the page's header page: every header slot
 * of the page is taken.  The header page is added (a new page, logged
 * whole) if the page has none yet.  The header page's record comes first,
 * then the compact page's (its header page and the row's state), so that a
 * crash between the two leaves only an unused header.  Lock order: the
 * compact page, then its header page.
 */
static void
PaxTargetSetXmaxOverflow(PaxTarget *t, uint16 rowhdrs, int row,
						 TransactionId xmax, uint16 infomask,
						 uint16 infomask2, CommandId cid, bool iscombo,
						 const ItemPointerData *ctid)
{
	BlockNumber blkno = BufferGetBlockNumber(t->buffer);
	uint8		state = PaxCompactStates(t->page, rowhdrs)[row];
	bool		new_page = PaxCompactHeaderPage(t->page, rowhdrs) == 0;
	PaxChange	hchg;
	Page		hcopy;
	Buffer		hbuf;
	HeapTupleHeader hdr;

	if (new_page)
	{
		hbuf = PaxNewPage(t->rel, NULL);
		hcopy = PaxChangeStart(&hchg, t->rel, hbuf, true);
		PaxHeaderPageInit(hcopy);
	}
	else
	{
		hbuf = PaxHeaderPageRead(t->rel, t->page, rowhdrs,
								 BUFFER_LOCK_EXCLUSIVE);
		hcopy = PaxChangeStart(&hchg, t->rel, hbuf, false);
	}
	hdr = PaxHeaderPageRow(hcopy, row);
	if (state != PAX_STATE_OVERFLOW)
		PaxCompactOwnCopy(hdr, t->page, rowhdrs, blkno, row);
	PaxStampXmax(hdr, xmax, infomask, infomask2, cid, iscombo, ctid);
	PaxChangeRange(&hchg, (char *) hdr - (char *) hcopy, PAX_ROWHDR_SIZE);
	PaxChangeFinish(&hchg);
	memcpy(t->own.bytes, PaxHeaderPageRow(BufferGetPage(hbuf), row),
		   PAX_ROWHDR_SIZE);
	t->tuple.t_data = (HeapTupleHeader) t->own.bytes;

	if (new_page || state != PAX_STATE_OVERFLOW)
	{
		PaxChange	chg;
		Page		copy = PaxChangeStart(&chg, t->rel, t->buffer, false);

		if (new_page)
		{
			PaxCompactHeaderPage(copy, rowhdrs) = BufferGetBlockNumber(hbuf);
			PaxChangeRange(&chg, rowhdrs + PAX_COMPACT_HDRPAGE,
						   sizeof(BlockNumber));
		}
		PaxCompactStates(copy, rowhdrs)[row] = PAX_STATE_OVERFLOW;
		PaxChangeRange(&chg, rowhdrs + PAX_COMPACT_STATES + row, 1);
		PaxSetPrunable(copy, infomask, &chg);
		PaxChangeFinish(&chg);
	}
	UnlockReleaseBuffer(hbuf);
}

/* ------------------------------------------------------------------------
 * Row locks
 * ------------------------------------------------------------------------
 */

/*
 * PaxFollowUpdate walks the update chain from tmfd->ctid to the newest
 * version (the TUPLE_LOCK_FLAG_FIND_LAST_VERSION case of table_tuple_lock):
 * sets *tid to the version to lock next and returns TM_Ok, or the outcome
 * when there is none.  Adapted from the chain-following loop of
 * heapam_tuple_lock() in heapam_handler.c, PostgreSQL 15.
 */
static TM_Result
PaxFollowUpdate(Relation rel, ItemPointer tid, CommandId cid,
				LockWaitPolicy wait_policy, TM_FailureData *tmfd)
{
	TransactionId prior_xmax = tmfd->xmax;
	ItemPointerData next = tmfd->ctid;
	SnapshotData dirty;

	InitDirtySnapshot(dirty);
	for (;;)
	{
		Buffer		buffer;
		HeapTupleData tp;
		bool		visible;

		if (ItemPointerIndicatesMovedPartitions(&next))
			ereport(ERROR,
					(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
					 errmsg("tuple to be locked was already moved to another partition due to concurrent update")));
		if (ItemPointerGetBlockNumber(&next) >= RelationGetNumberOfBlocks(rel))
			return TM_Deleted;

		buffer = ReadBuffer(rel, ItemPointerGetBlockNumber(&next));
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		if (!PaxReadRow(rel, buffer, &next, &tp) ||
			!TransactionIdEquals(HeapTupleHeaderGetXmin(tp.t_data), prior_xmax))
		{
			UnlockReleaseBuffer(buffer);
			return TM_Deleted;
		}
		visible = HeapTupleSatisfiesVisibility(&tp, &dirty, buffer);
		if (visible)
		{
			/* the version's cmin means something only if we inserted it */
			bool		ours = TransactionIdIsCurrentTransactionId(prior_xmax);
			CommandId	cmin = ours ? HeapTupleHeaderGetCmin(tp.t_data) :
				InvalidCommandId;

			UnlockReleaseBuffer(buffer);
			/* the inserter of this version is still running: wait */
			if (TransactionIdIsValid(dirty.xmin))
			{
				if (!PaxWaitXact(rel, &next, dirty.xmin, wait_policy,
								 XLTW_FetchUpdated))
					return TM_WouldBlock;
				continue;
			}
			if (ours && cmin >= cid)
			{
				tmfd->xmax = prior_xmax;
				tmfd->cmax = cmin;
				return TM_SelfModified;
			}
			*tid = next;
			return TM_Ok;
		}

		/* not visible even to a dirty snapshot: follow it if updated */
		if (PaxRowCtidIsSelf(&tp) ||
			HeapTupleHeaderIsOnlyLocked(tp.t_data))
		{
			UnlockReleaseBuffer(buffer);
			return TM_Deleted;
		}
		next = PaxRowCtid(&tp);
		prior_xmax = HeapTupleHeaderGetUpdateXid(tp.t_data);
		UnlockReleaseBuffer(buffer);
	}
}

/*
 * pax_tuple_lock locks the row at tid in `mode` for our transaction and
 * stores it in the slot, following its update chain when flags ask.
 * Adapted from heapam_tuple_lock() in heapam_handler.c and heap_lock_tuple()
 * in heapam.c, PostgreSQL 15.
 */
TM_Result
pax_tuple_lock(Relation relation, ItemPointer tid, Snapshot snapshot,
			   TupleTableSlot *slot, CommandId cid, LockTupleMode mode,
			   LockWaitPolicy wait_policy, uint8 flags, TM_FailureData *tmfd)
{
	PaxTarget	t;
	TM_Result	result;

	PaxBulkPlaceFor(relation);
	tmfd->traversed = false;
	for (;;)
	{
		PaxTargetOpen(relation, tid, &t);
		result = PaxTargetAcquire(&t, cid, mode, false, wait_policy, false,
								  (flags & TUPLE_LOCK_FLAG_LOCK_UPDATE_IN_PROGRESS) != 0,
								  InvalidSnapshot, tmfd);
		if (result == TM_Ok && !t.noop)
		{
			TransactionId xmax;
			uint16		im,
						im2;

			MultiXactIdSetOldestMember();
			PaxComputeNewXmax(HeapTupleHeaderGetRawXmax(t.tuple.t_data),
							  t.tuple.t_data->t_infomask,
							  t.tuple.t_data->t_infomask2,
							  GetCurrentTransactionId(), mode, false,
							  &xmax, &im, &im2);
			/* a lock beside a kept updater leaves t_ctid at the new version */
			PaxTargetSetXmax(&t, xmax, im, im2, InvalidCommandId, false,
							 HEAP_XMAX_IS_LOCKED_ONLY(im) ? &t.tuple.t_self : NULL);
		}
		LockBuffer(t.buffer, BUFFER_LOCK_UNLOCK);

		if (result == TM_Updated &&
			(flags & TUPLE_LOCK_FLAG_FIND_LAST_VERSION) &&
			!ItemPointerEquals(&tmfd->ctid, tid))
		{
			PaxTargetClose(&t);
			result = PaxFollowUpdate(relation, tid, cid, wait_policy, tmfd);
			if (result != TM_Ok)
				return result;
			tmfd->traversed = true;
			continue;
		}
		break;
	}

	PaxSlotStoreRow(slot, relation, t.buffer, ItemPointerGetBlockNumber(tid),
					t.row);
	PaxTargetClose(&t);
	return result;
}
