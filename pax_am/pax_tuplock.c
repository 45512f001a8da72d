/*-------------------------------------------------------------------------
 *
 * pax_tuplock.c
 *	  Row lock rules of pax rows: tuple lock modes, multixact members,
 *	  waiting for the holders of an xmax, and the xmax a new holder leaves.
 *
 * A pax row header is a HeapTupleHeaderData, so its xmax means what a heap
 * tuple's does (src/backend/access/heap/README.tuplock): an updater's or
 * locker's xid, or a MultiXactId standing for several, with infomask bits
 * giving the strength.  The routines here are heap's rules, re-derived
 * from heapam.c (PostgreSQL 15) because heap keeps them static; each
 * comment names its model.  They read and compute header fields and wait
 * for transactions; they never touch a page, so the caller (pax_modify.c)
 * decides what is locked while they run (waiting needs the buffer
 * unlocked).
 *
 * pax_am/pax_tuplock.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/multixact.h"
#include "access/xact.h"
#include "storage/lmgr.h"
#include "storage/procarray.h"
#include "utils/rel.h"

#include "pax_page.h"
#include "pax_mvcc.h"

/* ----------------------------------------------------------------
 * Lock modes and multixact members
 * ----------------------------------------------------------------
 */

/*
 * Per tuple lock mode: the heavyweight lock a waiter takes, and the
 * multixact statuses of a locker and of an updater (-1: cannot update).
 * Adapted from tupleLockExtraInfo in heapam.c, PostgreSQL 15.
 */
static const struct
{
	LOCKMODE	hwlock;
	int			lockstatus;
	int			updstatus;
}			PaxLockModes[MaxLockTupleMode + 1] =
{
	{AccessShareLock, MultiXactStatusForKeyShare, -1},
	{RowShareLock, MultiXactStatusForShare, -1},
	{ExclusiveLock, MultiXactStatusForNoKeyUpdate, MultiXactStatusNoKeyUpdate},
	{AccessExclusiveLock, MultiXactStatusForUpdate, MultiXactStatusUpdate}
};

/*
 * PaxTupleLockHeavyMode is the heavyweight lock a waiter for a tuple lock
 * of `mode` takes on the tuple (LockTuple).
 */
LOCKMODE
PaxTupleLockHeavyMode(LockTupleMode mode)
{
	Assert(mode >= LockTupleKeyShare && mode <= MaxLockTupleMode);
	return PaxLockModes[mode].hwlock;
}


/*
 * PaxModeOfStatus is the tuple lock mode a multixact member status stands
 * for.  Adapted from TUPLOCK_from_mxstatus() in heapam.c, PostgreSQL 15.
 */
static LockTupleMode
PaxModeOfStatus(MultiXactStatus status)
{
	switch (status)
	{
		case MultiXactStatusForKeyShare:
			return LockTupleKeyShare;
		case MultiXactStatusForShare:
			return LockTupleShare;
		case MultiXactStatusForNoKeyUpdate:
		case MultiXactStatusNoKeyUpdate:
			return LockTupleNoKeyExclusive;
		case MultiXactStatusForUpdate:
		case MultiXactStatusUpdate:
			return LockTupleExclusive;
	}
	elog(ERROR, "invalid multixact status %d", (int) status);
	return LockTupleExclusive;	/* keep compiler quiet */
}

/*
 * PaxStatusFor is the multixact member status of a taker of `mode`, as a
 * locker or (is_update) as an updater.  Adapted from
 * get_mxact_status_for_lock() in heapam.c, PostgreSQL 15.
 */
static MultiXactStatus
PaxStatusFor(LockTupleMode mode, bool is_update)
{
	int			status = is_update ? PaxLockModes[mode].updstatus :
		PaxLockModes[mode].lockstatus;

	if (status < 0)
		elog(ERROR, "invalid lock tuple mode %d", (int) mode);
	return (MultiXactStatus) status;
}

/*
 * PaxXmaxStatus is the status a single-xid xmax holds, from its infomask
 * bits.  Adapted from the old-status step of compute_new_xmax_infomask() in
 * heapam.c, PostgreSQL 15.
 */
MultiXactStatus
PaxXmaxStatus(uint16 infomask, uint16 infomask2)
{
	if (HEAP_XMAX_IS_LOCKED_ONLY(infomask))
	{
		if (HEAP_XMAX_IS_KEYSHR_LOCKED(infomask))
			return MultiXactStatusForKeyShare;
		if (HEAP_XMAX_IS_SHR_LOCKED(infomask))
			return MultiXactStatusForShare;
		return (infomask2 & HEAP_KEYS_UPDATED) ?
			MultiXactStatusForUpdate : MultiXactStatusForNoKeyUpdate;
	}
	return (infomask2 & HEAP_KEYS_UPDATED) ?
		MultiXactStatusUpdate : MultiXactStatusNoKeyUpdate;
}

/*
 * PaxHolderConflicts tells whether a holder of `status` keeps us from
 * taking `mode`, by the tuple lock conflict table.  Adapted from the
 * DoLockModesConflict() test of DoesMultiXactIdConflict() in heapam.c,
 * PostgreSQL 15.
 */
static bool
PaxHolderConflicts(MultiXactStatus status, LockTupleMode mode)
{
	return DoLockModesConflict(PaxLockModes[PaxModeOfStatus(status)].hwlock,
							   PaxLockModes[mode].hwlock);
}

/* What a member of a multixact xmax is to a taker of some lock mode. */
typedef enum PaxMemberRole
{
	PAX_MEMBER_OURS,			/* our own transaction */
	PAX_MEMBER_CONFLICTS,		/* another's, conflicting with the mode */
	PAX_MEMBER_COMPATIBLE		/* another's, compatible with it */
} PaxMemberRole;

/*
 * PaxMemberRoleFor classifies a multixact member for a taker of `mode`.
 * Adapted from the member loops of DoesMultiXactIdConflict() and
 * Do_MultiXactIdWait() in heapam.c, PostgreSQL 15.
 */
static PaxMemberRole
PaxMemberRoleFor(const MultiXactMember *member, LockTupleMode mode)
{
	if (TransactionIdIsCurrentTransactionId(member->xid))
		return PAX_MEMBER_OURS;
	return PaxHolderConflicts(member->status, mode) ?
		PAX_MEMBER_CONFLICTS : PAX_MEMBER_COMPATIBLE;
}

/*
 * PaxMultiMembers sets *members to the members of a multixact xmax with the
 * given infomask (only the lockers' being looked up for a lock-only one),
 * palloc'd, and returns their number.
 */
int
PaxMultiMembers(MultiXactId multi, uint16 infomask, MultiXactMember **members)
{
	return GetMultiXactIdMembers(multi, members, false,
								 HEAP_XMAX_IS_LOCKED_ONLY(infomask));
}

/*
 * PaxMultiConflicts tells whether a member of a multixact xmax, other than
 * our own transaction, conflicts with `mode` and still matters (a live
 * locker, an updater that did not abort), and reports the strongest mode
 * our own transaction holds in it (-1 if none).  Adapted from
 * DoesMultiXactIdConflict() in heapam.c, PostgreSQL 15.
 */
static bool
PaxMultiConflicts(MultiXactId multi, uint16 infomask, LockTupleMode mode,
				  int *own_mode)
{
	MultiXactMember *members;
	int			nmembers;
	bool		conflict = false;

	*own_mode = -1;
	nmembers = PaxMultiMembers(multi, infomask, &members);
	for (int i = 0; i < nmembers; i++)
	{
		TransactionId xid = members[i].xid;
		MultiXactStatus status = members[i].status;

		switch (PaxMemberRoleFor(&members[i], mode))
		{
			case PAX_MEMBER_OURS:
				*own_mode = Max(*own_mode, (int) PaxModeOfStatus(status));
				break;
			case PAX_MEMBER_CONFLICTS:
				/* a live locker, or an updater that did not abort */
				if (!conflict &&
					(ISUPDATE_from_mxstatus(status) ?
					 !TransactionIdDidAbort(xid) :
					 TransactionIdIsInProgress(xid)))
					conflict = true;
				break;
			case PAX_MEMBER_COMPATIBLE:
				break;
		}
	}
	if (nmembers > 0)
		pfree(members);
	return conflict;
}

/* ----------------------------------------------------------------
 * Waiting for holders
 * ----------------------------------------------------------------
 */

/*
 * PaxNoLock is what a row lock we could not get without waiting means under
 * wait_policy (not LockWaitBlock): an error for NOWAIT, false for SKIP
 * LOCKED.  Adapted from the LockWaitSkip / LockWaitError cases of
 * heap_lock_tuple() in heapam.c, PostgreSQL 15.
 */
bool
PaxNoLock(Relation rel, LockWaitPolicy wait_policy)
{
	if (wait_policy == LockWaitError)
		ereport(ERROR,
				(errcode(ERRCODE_LOCK_NOT_AVAILABLE),
				 errmsg("could not obtain lock on row in relation \"%s\"",
						RelationGetRelationName(rel))));
	return false;
}

/*
 * PaxWaitXact waits for transaction xid to end as wait_policy allows:
 * always with LockWaitBlock, else only if it has ended already; returns
 * false (SKIP LOCKED) or errors (NOWAIT) when it has not.  Adapted from the
 * single-xid wait of heap_lock_tuple() in heapam.c, PostgreSQL 15.
 */
bool
PaxWaitXact(Relation rel, ItemPointer tid, TransactionId xid,
			LockWaitPolicy wait_policy, XLTW_Oper oper)
{
	if (wait_policy == LockWaitBlock)
	{
		XactLockTableWait(xid, rel, tid, oper);
		return true;
	}
	return PaxConditionalXactLockTableWait(xid) || PaxNoLock(rel, wait_policy);
}

/*
 * PaxMultiWait waits for the members of a multixact that conflict with
 * `mode` (without blocking unless wait_policy is LockWaitBlock: then it
 * returns false at the first it would have to wait for, or errors for
 * LockWaitError), and counts in *remaining the members still running,
 * our own included.  Adapted from Do_MultiXactIdWait() in heapam.c,
 * PostgreSQL 15.
 */
bool
PaxMultiWait(Relation rel, ItemPointer tid, MultiXactId multi,
			 uint16 infomask, LockTupleMode mode, LockWaitPolicy wait_policy,
			 XLTW_Oper oper, int *remaining)
{
	MultiXactMember *members;
	int			nmembers;
	bool		ok = true;

	*remaining = 0;
	nmembers = PaxMultiMembers(multi, infomask, &members);
	for (int i = 0; i < nmembers && ok; i++)
	{
		TransactionId xid = members[i].xid;

		switch (PaxMemberRoleFor(&members[i], mode))
		{
			case PAX_MEMBER_OURS:
				(*remaining)++;
				break;
			case PAX_MEMBER_COMPATIBLE:
				if (TransactionIdIsInProgress(xid))
					(*remaining)++;
				break;
			case PAX_MEMBER_CONFLICTS:
				ok = PaxWaitXact(rel, tid, xid, wait_policy, oper);
				break;
		}
	}
	if (nmembers > 0)
		pfree(members);
	return ok;
}

/*
 * PaxMultiUpdater is the updating member of a multixact that has one, else
 * InvalidTransactionId.  Adapted from MultiXactIdGetUpdateXid() in
 * heapam.c, PostgreSQL 15.
 */
TransactionId
PaxMultiUpdater(MultiXactId multi)
{
	MultiXactMember *members;
	int			nmembers;
	TransactionId updater = InvalidTransactionId;

	nmembers = GetMultiXactIdMembers(multi, &members, false, false);
	for (int i = 0; i < nmembers; i++)
		if (ISUPDATE_from_mxstatus(members[i].status))
			updater = members[i].xid;
	if (nmembers > 0)
		pfree(members);
	return updater;
}

/*
 * PaxMultiHintBits sets the infomask bits of a multixact we just made, from
 * its members.  Adapted from GetMultiXactIdHintBits() in heapam.c,
 * PostgreSQL 15.
 */
void
PaxMultiHintBits(MultiXactId multi, uint16 *infomask, uint16 *infomask2)
{
	MultiXactMember *members;
	int			nmembers;
	LockTupleMode strongest = LockTupleKeyShare;
	bool		has_update = false;
	uint16		bits = HEAP_XMAX_IS_MULTI;
	uint16		bits2 = 0;

	nmembers = GetMultiXactIdMembers(multi, &members, false, false);
	for (int i = 0; i < nmembers; i++)
	{
		MultiXactStatus status = members[i].status;

		strongest = Max(strongest, PaxModeOfStatus(status));
		if (ISUPDATE_from_mxstatus(status))
			has_update = true;
		if (status == MultiXactStatusForUpdate ||
			status == MultiXactStatusUpdate)
			bits2 |= HEAP_KEYS_UPDATED;
	}
	if (nmembers > 0)
		pfree(members);

	if (strongest >= LockTupleNoKeyExclusive)
		bits |= HEAP_XMAX_EXCL_LOCK;
	else if (strongest == LockTupleShare)
		bits |= HEAP_XMAX_SHR_LOCK;
	else
		bits |= HEAP_XMAX_KEYSHR_LOCK;
	if (!has_update)
		bits |= HEAP_XMAX_LOCK_ONLY;
	*infomask = bits;
	*infomask2 = bits2;
}

/* ----------------------------------------------------------------
 * Deciding and computing an xmax
 * ----------------------------------------------------------------
 */

/*
 * PaxComputeNewXmax computes the xmax and infomask bits of a row after our
 * transaction (xid) takes `mode` on it, as a lock or (is_update) as an
 * update or delete, keeping the holders that still matter: the new xmax is
 * our xid alone, or a multixact of us and them.  May create a multixact.
 * Adapted from compute_new_xmax_infomask() in heapam.c, PostgreSQL 15.
 */
void
PaxComputeNewXmax(TransactionId xmax, uint16 infomask, uint16 infomask2,
				  TransactionId xid, LockTupleMode mode, bool is_update,
				  TransactionId *new_xmax, uint16 *new_infomask,
				  uint16 *new_infomask2)
{
	MultiXactStatus new_status;

	for (;;)
	{
		*new_infomask = 0;
		*new_infomask2 = 0;

		if (infomask & HEAP_XMAX_INVALID)
		{
			/* no holder: our xid alone */
			*new_xmax = xid;
			if (is_update)
			{
				if (mode == LockTupleExclusive)
					*new_infomask2 |= HEAP_KEYS_UPDATED;
				return;
			}
			*new_infomask |= HEAP_XMAX_LOCK_ONLY;
			switch (mode)
			{
				case LockTupleKeyShare:
					*new_infomask |= HEAP_XMAX_KEYSHR_LOCK;
					break;
				case LockTupleShare:
					*new_infomask |= HEAP_XMAX_SHR_LOCK;
					break;
				case LockTupleNoKeyExclusive:
					*new_infomask |= HEAP_XMAX_EXCL_LOCK;
					break;
				case LockTupleExclusive:
					*new_infomask |= HEAP_XMAX_EXCL_LOCK;
					*new_infomask2 |= HEAP_KEYS_UPDATED;
					break;
			}
			return;
		}

		new_status = PaxStatusFor(mode, is_update);

		if (infomask & HEAP_XMAX_IS_MULTI)
		{
			/* a multixact of lockers all gone, or of an aborted updater */
			if (!MultiXactIdIsRunning(xmax, HEAP_XMAX_IS_LOCKED_ONLY(infomask)) &&
				(HEAP_XMAX_IS_LOCKED_ONLY(infomask) ||
				 !TransactionIdDidCommit(PaxMultiUpdater(xmax))))
			{
				infomask = (infomask & ~HEAP_XMAX_IS_MULTI) | HEAP_XMAX_INVALID;
				continue;
			}
			*new_xmax = MultiXactIdExpand((MultiXactId) xmax, xid, new_status);
			PaxMultiHintBits(*new_xmax, new_infomask, new_infomask2);
			return;
		}

		if (!HEAP_XMAX_IS_LOCKED_ONLY(infomask) &&
			((infomask & HEAP_XMAX_COMMITTED) || TransactionIdDidCommit(xmax)))
		{
			/* a committed updater stays the updater */
			*new_xmax = MultiXactIdCreate(xmax, PaxXmaxStatus(infomask, infomask2),
										  xid, new_status);
			PaxMultiHintBits(*new_xmax, new_infomask, new_infomask2);
			return;
		}

		if (!(infomask & HEAP_XMAX_COMMITTED) && TransactionIdIsInProgress(xmax))
		{
			MultiXactStatus old_status = PaxXmaxStatus(infomask, infomask2);

			if (TransactionIdEquals(xmax, xid))
			{
				/* our own lock: keep the stronger of both */
				mode = Max(mode, PaxModeOfStatus(old_status));
				infomask |= HEAP_XMAX_INVALID;
				continue;
			}
			*new_xmax = MultiXactIdCreate(xmax, old_status, xid, new_status);
			PaxMultiHintBits(*new_xmax, new_infomask, new_infomask2);
			return;
		}

		/* the holder ended (a locker, or an aborted updater) */
		infomask |= HEAP_XMAX_INVALID;
	}
}

/*
 * PaxXmaxChanged tells whether a row's xmax changed while we waited: another
 * xid, or other lock bits than infomask's.  Adapted from
 * xmax_infomask_changed() in heapam.c, PostgreSQL 15.
 */
bool
PaxXmaxChanged(HeapTupleHeader hdr, TransactionId xwait, uint16 infomask)
{
	const uint16 interesting =
		HEAP_XMAX_IS_MULTI | HEAP_XMAX_LOCK_ONLY | HEAP_LOCK_MASK;

	return (hdr->t_infomask & interesting) != (infomask & interesting) ||
		!TransactionIdEquals(HeapTupleHeaderGetRawXmax(hdr), xwait);
}

/*
 * PaxTestHolder tells what a holder of `status` on a newer version means
 * for our taking `mode` on it.  Adapted from test_lockmode_for_conflict()
 * in heapam.c, PostgreSQL 15.
 */
TM_Result
PaxTestHolder(MultiXactStatus status, TransactionId xid, LockTupleMode mode,
			  HeapTuple tp, bool *needwait)
{
	*needwait = false;
	if (TransactionIdIsCurrentTransactionId(xid))
		return TM_SelfModified;
	if (TransactionIdIsInProgress(xid))
	{
		*needwait = PaxHolderConflicts(status, mode);
		return TM_Ok;
	}
	if (TransactionIdDidAbort(xid) || !TransactionIdDidCommit(xid) ||
		!ISUPDATE_from_mxstatus(status) || !PaxHolderConflicts(status, mode))
		return TM_Ok;
	return PaxRowCtidIsSelf(tp) ?
		TM_Deleted : TM_Updated;
}

/*
 * PaxHolderVerdict tells whether the current holders of an xmax (a
 * multixact, or a single xid) keep us from taking `mode`, so that we must
 * wait ("sleep"), and sets *own_mode to the strongest mode our own
 * transaction holds among them (-1 if none).  Adapted from the holder
 * checks of heap_lock_tuple() in heapam.c, PostgreSQL 15.
 */
bool
PaxHolderVerdict(TransactionId xwait, uint16 infomask, uint16 infomask2,
				 LockTupleMode mode, int *own_mode)
{
	*own_mode = -1;
	if (infomask & HEAP_XMAX_IS_MULTI)
		return PaxMultiConflicts(xwait, infomask, mode, own_mode);
	if (TransactionIdIsCurrentTransactionId(xwait))
	{
		*own_mode = PaxModeOfStatus(PaxXmaxStatus(infomask, infomask2));
		return false;
	}
	return PaxHolderConflicts(PaxXmaxStatus(infomask, infomask2), mode);
}
