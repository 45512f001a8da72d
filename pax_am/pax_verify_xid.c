/*-------------------------------------------------------------------------
 *
 * pax_verify_xid.c
 *	  pax_verify()'s transaction ID bounds: the valid range of xids, read
 *	  from the cluster and cached, and whether a row's xmin failed.
 *
 * pax_verify.c checks every row header's xids against the range
 * (PaxVerifyXidBounds), and pax_verify_col.c asks whether a row's
 * inserting transaction failed (PaxVerifyXminFailed) when two rows share
 * a value; clog is consulted only for xids inside the range.
 *
 * pax_am/pax_verify_xid.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/transam.h"
#include "access/xact.h"
#include "storage/lwlock.h"
#include "storage/procarray.h"

#include "pg_compat.h"
#include "pax_stats.h"

/*
 * PaxVerifyFullXid widens a 32-bit xid to the full xid it stands for,
 * taking it to lie within 2^31 of the next xid.  An xid that would fall
 * before the first epoch (possible only when corrupt) becomes the first
 * normal xid, older than any horizon of a running cluster.  Adapted from
 * FullTransactionIdFromXidAndCtx() in contrib/amcheck/verify_heapam.c,
 * PostgreSQL 15.
 */
static FullTransactionId
PaxVerifyFullXid(const PaxVerifyContext *ctx, TransactionId xid)
{
	uint64		next = U64FromFullTransactionId(ctx->next_fxid);
	int32		age = (int32) (ctx->next_xid - xid);

	if (!TransactionIdIsNormal(xid))
		return FullTransactionIdFromEpochAndXid(0, xid);
	if (age > 0 && next - FirstNormalTransactionId < (uint64) age)
		return FirstNormalFullTransactionId;
	return FullTransactionIdFromU64(next - (int64) age);
}

/*
 * PaxVerifyReadXidRange caches the cluster's next xid and oldest
 * datfrozenxid, and the widened relfrozenxid.  Adapted from
 * update_cached_xid_range() in contrib/amcheck/verify_heapam.c,
 * PostgreSQL 15.
 */
void
PaxVerifyReadXidRange(PaxVerifyContext *ctx)
{
	TransactionId oldest;

	LWLockAcquire(XidGenLock, LW_SHARED);
	ctx->next_fxid = PaxTransamVariables->nextXid;
	oldest = PaxTransamVariables->oldestXid;
	LWLockRelease(XidGenLock);

	ctx->next_xid = XidFromFullTransactionId(ctx->next_fxid);
	ctx->oldest_fxid = PaxVerifyFullXid(ctx, oldest);
	ctx->relfrozenfxid = PaxVerifyFullXid(ctx, ctx->relfrozenxid);
}

/*
 * PaxVerifyXidBounds places a normal xid against the cached range,
 * re-reading the range once before calling it out of bounds (it only
 * moves forward, and the row was written after the xid was assigned).
 * Adapted from get_xid_status() in contrib/amcheck/verify_heapam.c,
 * PostgreSQL 15.
 */
PaxXidBounds
PaxVerifyXidBounds(PaxVerifyContext *ctx, TransactionId xid,
				   FullTransactionId *fxid)
{
	for (int attempt = 0;; attempt++)
	{
		PaxXidBounds result = PAX_XID_OK;

		*fxid = PaxVerifyFullXid(ctx, xid);
		if (FullTransactionIdFollowsOrEquals(*fxid, ctx->next_fxid))
			result = PAX_XID_IN_FUTURE;
		else if (FullTransactionIdPrecedes(*fxid, ctx->oldest_fxid))
			result = PAX_XID_BEFORE_CLUSTER;
		else if (TransactionIdIsNormal(ctx->relfrozenxid) &&
				 FullTransactionIdPrecedes(*fxid, ctx->relfrozenfxid))
			result = PAX_XID_BEFORE_REL;
		if (result == PAX_XID_OK || attempt > 0)
			return result;
		PaxVerifyReadXidRange(ctx);
	}
}

/*
 * PaxVerifyXminFailed tells whether a row's inserting transaction is known
 * to have ended without committing (its xmin hinted invalid, or aborted or
 * crashed); false when its xmin lies outside the valid range
 * (PaxVerifyRowHeader reports those).
 */
bool
PaxVerifyXminFailed(PaxVerifyContext *ctx, HeapTupleHeader hdr)
{
	TransactionId xid = HeapTupleHeaderGetRawXmin(hdr);
	FullTransactionId fxid;

	if (HeapTupleHeaderXminInvalid(hdr))
		return true;
	if (HeapTupleHeaderXminCommitted(hdr) || !TransactionIdIsNormal(xid) ||
		PaxVerifyXidBounds(ctx, xid, &fxid) != PAX_XID_OK)
		return false;
	return !TransactionIdIsCurrentTransactionId(xid) &&
		!TransactionIdIsInProgress(xid) && !TransactionIdDidCommit(xid);
}
