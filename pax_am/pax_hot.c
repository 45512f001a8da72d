/*-------------------------------------------------------------------------
 *
 * pax_hot.c
 *	  HOT chains of the pax table access method: following a chain from the
 *	  row an index entry names, and finding each row's chain root.
 *
 * An UPDATE that changes no indexed column and whose new version fits the
 * old version's page puts it there as a heap-only version (HEAP_ONLY_TUPLE)
 * and marks the old one HEAP_HOT_UPDATED with t_ctid naming it, without
 * new index entries: the entries of the chain's root serve every version.
 * A chain never leaves its page.  Pruning (pax_prune.c) may replace a dead
 * root with a REDIRECT item (PAX_ROW_ITEM, pax_page.h) naming the first
 * version still needed.  pax_am/README.update describes the design.
 *
 * Locking: the caller holds the page share- or exclusively locked.
 *
 * pax_am/pax_hot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/htup_details.h"
#include "storage/bufmgr.h"
#include "storage/predicate.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_page.h"
#include "pax_mvcc.h"
#include "pax_tidmap.h"

/*
 * PaxHotNext tells where the chain goes after row tuple points at: the TID
 * offset of the next version on the same page, with *prev_xmax set to the
 * updater that next version's xmin must equal; 0 at the chain's end.
 */
static inline int
PaxHotNext(HeapTuple tuple, BlockNumber blkno, TransactionId *prev_xmax)
{
	if (!HeapTupleIsHotUpdated(tuple) ||
		ItemPointerGetBlockNumber(&tuple->t_data->t_ctid) != blkno)
		return 0;
	*prev_xmax = HeapTupleHeaderGetUpdateXid(tuple->t_data);
	return ItemPointerGetOffsetNumber(&tuple->t_data->t_ctid);
}

/*
 * A walk along the HOT chain an index entry names, one version at a time
 * (PaxHotWalkNext), for the fetch, the bitmap scan and index entry
 * deletion alike.
 */
typedef struct PaxHotWalk
{
	Relation	rel;
	Page		page;
	BlockNumber blkno;
	uint16		rowhdrs;
	int			maxtid;			/* PaxPageMaxTid */
	int			off;			/* the TID offset to look at next; 0: the end */
	int			steps;			/* a chain has a version per TID, at most */
	TransactionId prev_xmax;	/* the next version's xmin, or invalid */
	bool		at_start;		/* off is the index entry's own */
} PaxHotWalk;

static void
PaxHotWalkStart(PaxHotWalk *w, Relation rel, Page page, BlockNumber blkno,
				uint16 rowhdrs, int off, bool at_start)
{
	w->rel = rel;
	w->page = page;
	w->blkno = blkno;
	w->rowhdrs = rowhdrs;
	w->maxtid = PaxPageMaxTid(page);
	w->off = off;
	w->steps = 0;
	w->prev_xmax = InvalidTransactionId;
	w->at_start = at_start;
}

/*
 * PaxHotWalkNext points tuple at the chain's next version, false at its
 * end, by heap_hot_search_buffer()'s rules (heapam.c, PostgreSQL 15): a
 * REDIRECT only at the entry's own TID; never a heap-only version there
 * (a stale entry's: PaxRowHasStaleEntries); each version's xmin the update
 * xid of the one before, else the TID was reused by another chain.
 */
static bool
PaxHotWalkNext(PaxHotWalk *w, HeapTuple tuple)
{
	while (w->off > 0 && w->steps++ <= w->maxtid)
	{
		int			slot;
		int			target;
		PaxTidKind	kind = PaxTidWhat(w->page, w->rowhdrs, w->off, &slot,
									  &target);

		if (kind != PAX_TIDK_ROW)
		{
			if (kind != PAX_TIDK_REDIRECT || !w->at_start)
				return false;
			w->off = target;
			w->at_start = false;
			continue;
		}
		PaxPageCheckRowNatts(w->rel, w->page, w->blkno,
							 PaxRowHeader(w->page, w->rowhdrs, slot));
		PaxRowTuple(tuple, w->rel, w->page, w->rowhdrs, w->blkno, slot);
		if ((w->at_start && HeapTupleIsHeapOnly(tuple)) ||
			(TransactionIdIsValid(w->prev_xmax) &&
			 !TransactionIdEquals(w->prev_xmax,
								  HeapTupleHeaderGetXmin(tuple->t_data))))
			return false;
		w->at_start = false;
		w->off = PaxHotNext(tuple, w->blkno, &w->prev_xmax);
		return true;
	}
	return false;
}

/*
 * PaxHotSearch finds the version of the HOT chain that starts at *tid
 * (a row, or a REDIRECT item) that the snapshot sees, as an index fetch
 * needs it: true with *tid set to that version's TID and tuple pointing at
 * its header; false when no version of the chain is visible.  With
 * first_call false the search resumes after *tid, the version returned
 * last (non-MVCC snapshots may see several).  *all_dead, when asked, tells
 * whether every version is dead to everyone, so the index AM may mark its
 * entry dead.  Adapted from heap_hot_search_buffer() in heapam.c,
 * PostgreSQL 15.
 */
bool
PaxHotSearch(Relation rel, Buffer buffer, uint16 rowhdrs, ItemPointer tid,
			 Snapshot snapshot, HeapTuple tuple, bool *all_dead,
			 bool first_call)
{
	GlobalVisState *vistest = NULL;
	bool		skip = !first_call;
	PaxHotWalk	w;

	Assert(PaxBufferLockedByMe(buffer, false));
	if (all_dead)
		*all_dead = first_call;
	PaxHotWalkStart(&w, rel, BufferGetPage(buffer), BufferGetBlockNumber(buffer),
					rowhdrs, ItemPointerGetOffsetNumber(tid), first_call);
	while (PaxHotWalkNext(&w, tuple))
	{
		if (!skip)
		{
			bool		valid = HeapTupleSatisfiesVisibility(tuple, snapshot,
															 buffer);

			HeapCheckForSerializableConflictOut(valid, rel, tuple, buffer,
												snapshot);
			if (valid)
			{
				*tid = tuple->t_self;
				PredicateLockTID(rel, &tuple->t_self, snapshot,
								 HeapTupleHeaderGetXmin(tuple->t_data));
				if (all_dead)
					*all_dead = false;
				return true;
			}
		}
		skip = false;

		if (all_dead && *all_dead)
		{
			if (vistest == NULL)
				vistest = GlobalVisTestFor(rel);
			if (!HeapTupleIsSurelyDead(tuple, vistest))
				*all_dead = false;
		}
	}
	return false;
}

/*
 * PaxHotRootRows sets root_of[r], for each slot r of a page, to the TID
 * offset of the root of its row's HOT chain (the TID its index entries
 * name): the row's own for a row that is not heap-only, the root's (a row
 * or a REDIRECT) for a heap-only version reached from one,
 * InvalidOffsetNumber for free slots and heap-only versions no chain
 * reaches (an aborted update's).  Adapted from heap_get_root_tuples() in
 * pruneheap.c, PostgreSQL 15.
 */
void
PaxHotRootRows(Relation rel, Page page, uint16 rowhdrs, BlockNumber blkno,
			   OffsetNumber *root_of)
{
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			maxtid = PaxPageMaxTid(page);
	bool		compact = PaxPageIsCompact(page);

	memset(root_of, 0, nrows * sizeof(OffsetNumber));
	for (int off = 1; off <= maxtid; off++)
	{
		TransactionId prev_xmax = InvalidTransactionId;
		HeapTupleData tuple;
		int			slot;
		int			next;
		PaxTidKind	kind = PaxTidWhat(page, rowhdrs, off, &slot, &next);

		if (kind == PAX_TIDK_ROW && compact)
			root_of[slot] = off;
		if (compact || (kind != PAX_TIDK_ROW && kind != PAX_TIDK_REDIRECT))
			continue;
		if (kind == PAX_TIDK_ROW)
		{
			if (HeapTupleHeaderIsHeapOnly(PaxRowHeader(page, rowhdrs, slot)))
				continue;
			root_of[slot] = off;
			PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, slot);
			next = PaxHotNext(&tuple, blkno, &prev_xmax);
		}

		for (int steps = 0; next > 0 && steps < maxtid; steps++)
		{
			int			nslot;
			int			ntarget;
			HeapTupleHeader nhdr;

			if (PaxTidWhat(page, rowhdrs, next, &nslot, &ntarget) != PAX_TIDK_ROW)
				break;
			nhdr = PaxRowHeader(page, rowhdrs, nslot);
			if (!HeapTupleHeaderIsHeapOnly(nhdr))
				break;
			if (TransactionIdIsValid(prev_xmax) &&
				!TransactionIdEquals(prev_xmax, HeapTupleHeaderGetXmin(nhdr)))
				break;
			root_of[nslot] = off;
			PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, nslot);
			next = PaxHotNext(&tuple, blkno, &prev_xmax);
		}
	}
}

/*
 * PaxHotChainMembers sets member[k] for the slot k of each version on the
 * HOT chain that starts at TID offset off (a row that is not heap-only, or
 * a REDIRECT), as a bitmap heap scan visits the versions an index entry
 * stands for.  Adapted from the use of heap_hot_search_buffer() in
 * heapam_scan_bitmap_next_block() in heapam_handler.c, PostgreSQL 15.
 */
void
PaxHotChainMembers(Relation rel, Page page, uint16 rowhdrs, BlockNumber blkno,
				   int off, bool *member)
{
	HeapTupleData tuple;
	PaxHotWalk	w;

	PaxHotWalkStart(&w, rel, page, blkno, rowhdrs, off, true);
	while (PaxHotWalkNext(&w, &tuple))
		member[PaxTidSlot(page, rowhdrs,
						  ItemPointerGetOffsetNumber(&tuple.t_self))] = true;
}

/*
 * PaxHotChainDead tells whether every version of the HOT chain an index
 * entry at *tid stands for is dead to everyone (vistest), or its slot holds
 * no row, so that the index AM may delete the entry; *latest is advanced
 * past the xids of the versions removed, the entry's recovery conflict
 * horizon.  Adapted from heap_index_delete_tuples() in heapam.c,
 * PostgreSQL 15.
 */
bool
PaxHotChainDead(Relation rel, Buffer buffer, uint16 rowhdrs, ItemPointer tid,
				struct GlobalVisState *vistest, bool knowndead,
				TransactionId *latest)
{
	TransactionId horizon = *latest;
	HeapTupleData tuple;
	PaxHotWalk	w;

	PaxHotWalkStart(&w, rel, BufferGetPage(buffer), BufferGetBlockNumber(buffer),
					rowhdrs, ItemPointerGetOffsetNumber(tid), true);
	while (PaxHotWalkNext(&w, &tuple))
	{
		if (!knowndead && !HeapTupleIsSurelyDead(&tuple, vistest))
			return false;
		PaxAdvanceConflictHorizon(tuple.t_data, &horizon);
	}
	*latest = horizon;
	return true;
}

/*
 * PaxHotRedirect moves *tid, when the slot it names on the buffer's page
 * (share-locked) is a REDIRECT, to the version the REDIRECT names: the
 * chain an old TID of a pruned root stands for.  Returns whether it did.
 */
bool
PaxHotRedirect(Relation rel, Buffer buffer, ItemPointer tid)
{
	Page		page = BufferGetPage(buffer);
	int			slot;
	int			target;

	Assert(PaxBufferLockedByMe(buffer, false));
	if (PageIsNew(page) || ItemPointerGetOffsetNumber(tid) < 1 ||
		PaxPageIsCompact(page) ||
		PaxTidWhat(page, PaxPageRowHeaderOffset(rel, page,
												BufferGetBlockNumber(buffer)),
				   ItemPointerGetOffsetNumber(tid), &slot,
				   &target) != PAX_TIDK_REDIRECT)
		return false;
	ItemPointerSetOffsetNumber(tid, target);
	return true;
}
