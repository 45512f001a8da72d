/*-------------------------------------------------------------------------
 *
 * pax_mvcc.h
 *	  Row headers, visibility and row locks of pax.
 *
 * Rows carry heap's row header (HeapTupleHeaderData's fixed part), so
 * heap's visibility rules apply unchanged (pax_visibility.c), as do its
 * row lock rules (pax_tuplock.c).  A compact page's rows share one header
 * until a change gives a row its own (pax_compact.c).
 *
 * pax_am/pax_mvcc.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_MVCC_H
#define PAX_MVCC_H

#include "access/heapam.h"
#include "access/multixact.h"
#include "storage/lmgr.h"

#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_tidmap.h"
#include "pax_xlog.h"

extern HeapTupleHeader PaxOverflowHeaderCopy(Relation rel, Page page,
											 uint16 rowhdrs, int row);

/*
 * PaxRowHeaderOf is PaxRowHeader for any row: the header of a row whose
 * header is on its page's header page is a copy (PaxOverflowHeaderCopy),
 * valid until the PAX_OVERFLOW_COPIES-th next copy; hint bits set on it
 * are not kept.  The caller holds the page locked.
 */
static inline HeapTupleHeader
PaxRowHeaderOf(Relation rel, const char *page, uint16 rowhdrs, int row)
{
	if (PaxPageIsCompact(page) &&
		PaxCompactStates(page, rowhdrs)[row] == PAX_STATE_OVERFLOW)
		return PaxOverflowHeaderCopy(rel, (Page) page, rowhdrs, row);
	return PaxRowHeader(page, rowhdrs, row);
}

/*
 * PaxRowTuple points a HeapTupleData at the header of the row in slot row,
 * so heap's visibility routines run on it unchanged; t_self is the row's
 * TID (PaxSlotTid).
 */
static inline void
PaxRowTuple(HeapTuple tuple, Relation rel, Page page, uint16 rowhdrs,
			BlockNumber blkno, int row)
{
	tuple->t_data = PaxRowHeaderOf(rel, page, rowhdrs, row);
	tuple->t_len = PAX_ROWHDR_SIZE;
	tuple->t_tableOid = RelationGetRelid(rel);
	ItemPointerSet(&tuple->t_self, blkno, PaxSlotTid(page, row));
}

/* pax_compact.c */
extern void PaxHeaderPageInit(Page page);
extern HeapTupleHeader PaxHeaderPageRow(Page hpage, int row);
extern Buffer PaxHeaderPageRead(Relation rel, Page page, uint16 rowhdrs,
								int mode);
extern bool PaxCompactToRowForm(Relation rel, Page page,
								const PaxPageLayout *layout, BlockNumber blkno);
extern int	PaxCompactFreeSlot(Page page, uint16 rowhdrs);
extern int	PaxCompactOwnHeader(Page page, uint16 rowhdrs, BlockNumber blkno,
								int row, int k, PaxChange *chg);
extern void PaxCompactOwnCopy(HeapTupleHeader dst, Page page, uint16 rowhdrs,
							  BlockNumber blkno, int row);
extern bool PaxCompactHasOverflow(Page page, uint16 rowhdrs);

/* pax_hot.c */
extern bool PaxHotSearch(Relation rel, Buffer buffer, uint16 rowhdrs,
						 ItemPointer tid, Snapshot snapshot, HeapTuple tuple,
						 bool *all_dead, bool first_call);
extern void PaxHotRootRows(Relation rel, Page page, uint16 rowhdrs,
						   BlockNumber blkno, OffsetNumber *root_of);
extern bool PaxHotRedirect(Relation rel, Buffer buffer, ItemPointer tid);
extern void PaxHotChainMembers(Relation rel, Page page, uint16 rowhdrs,
							   BlockNumber blkno, int off, bool *member);
struct GlobalVisState;
extern bool PaxHotChainDead(Relation rel, Buffer buffer, uint16 rowhdrs,
							ItemPointer tid, struct GlobalVisState *vistest,
							bool knowndead, TransactionId *latest);

/* pax_visibility.c */
extern bool PaxReadRow(Relation rel, Buffer buffer, ItemPointer tid,
					   HeapTuple tuple);
extern int	PaxReadRowSlot(Relation rel, Buffer buffer, ItemPointer tid,
						   HeapTuple tuple);
extern int	PaxReadRowAt(Relation rel, Buffer buffer, uint16 rowhdrs,
						 ItemPointer tid, HeapTuple tuple);
extern void PaxTableScanCollectVisible(PaxTableScanDesc scan, Page page,
									   uint16 rowhdrs, const uint16 *cand,
									   int ncand);
extern int	PaxTableScanVisibleAll(PaxTableScanDesc scan, Page page,
								   uint16 rowhdrs, const uint16 *cand,
								   int ncand, uint16 *out);
extern HTSV_Result PaxRowVacuumStatus(HeapTuple tuple,
									  TransactionId oldest_xmin,
									  Buffer buffer, TransactionId *xact);
extern bool PaxKeepRow(Relation rel, Page page, uint16 rowhdrs,
					   BlockNumber blkno, int row, Buffer buffer,
					   TransactionId OldestXmin, double *tups_vacuumed,
					   double *tups_recently_dead);
extern bool PaxAnalyzeRow(Relation rel, Page page, uint16 rowhdrs,
						  BlockNumber blkno, int row, Buffer buffer,
						  TransactionId OldestXmin, double *liverows,
						  double *deadrows);
extern bool PaxRowsAllVisible(Relation rel, Page page, uint16 rowhdrs,
								  Buffer buffer, BlockNumber blkno,
								  TransactionId oldest_xmin,
								  TransactionId *cutoff, bool *all_frozen);
extern void PaxClearAllVisible(Relation rel, Buffer buffer, Buffer vmbuffer);
extern void PaxVisibilityMapSet(Relation rel, BlockNumber blkno, Buffer buffer,
								Buffer vmbuffer, TransactionId cutoff,
								uint8 flags);

/* pax_tuplock.c */
extern LOCKMODE PaxTupleLockHeavyMode(LockTupleMode mode);
extern MultiXactStatus PaxXmaxStatus(uint16 infomask, uint16 infomask2);
extern int	PaxMultiMembers(MultiXactId multi, uint16 infomask,
							MultiXactMember **members);
extern bool PaxNoLock(Relation rel, LockWaitPolicy wait_policy);
extern bool PaxWaitXact(Relation rel, ItemPointer tid, TransactionId xid,
						LockWaitPolicy wait_policy, XLTW_Oper oper);
extern bool PaxMultiWait(Relation rel, ItemPointer tid, MultiXactId multi,
						 uint16 infomask, LockTupleMode mode,
						 LockWaitPolicy wait_policy, XLTW_Oper oper,
						 int *remaining);
extern TransactionId PaxMultiUpdater(MultiXactId multi);
extern void PaxMultiHintBits(MultiXactId multi, uint16 *infomask,
							 uint16 *infomask2);
extern void PaxComputeNewXmax(TransactionId xmax, uint16 infomask,
							  uint16 infomask2, TransactionId xid,
							  LockTupleMode mode, bool is_update,
							  TransactionId *new_xmax, uint16 *new_infomask,
							  uint16 *new_infomask2);
extern bool PaxXmaxChanged(HeapTupleHeader hdr, TransactionId xwait,
						   uint16 infomask);
extern TM_Result PaxTestHolder(MultiXactStatus status, TransactionId xid,
							   LockTupleMode mode, HeapTuple tp,
							   bool *needwait);
extern bool PaxHolderVerdict(TransactionId xwait, uint16 infomask,
							 uint16 infomask2, LockTupleMode mode,
							 int *own_mode);

#endif							/* PAX_MVCC_H */
