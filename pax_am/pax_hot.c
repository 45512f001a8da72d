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

/*
 * PaxHotNext tells where the chain goes after row tuple points at: the row
 * index of the next version on the same page, with *prev_xmax set to the
 * updater that next version's xmin must equal; -1 at the chain's end.
 */
static inline int
PaxHotNext(HeapTuple tuple, BlockNumber blkno, TransactionId *prev_xmax)
{
	if (!HeapTupleIsHotUpdated(tuple) ||
		ItemPointerGetBlockNumber(&tuple->t_data->t_ctid) != blkno)
		return -1;
	*prev_xmax = HeapTupleHeaderGetUpdateXid(tuple->t_data);
	return ItemPointerGetOffsetNumber(&tuple->t_data->t_ctid) - 1;
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
	int			nrows;
	int			row;			/* the slot to look at next; -1: the end */
	int			steps;			/* a chain has a version per slot, at most */
	TransactionId prev_xmax;	/* the next version's xmin, or invalid */
	bool		at_start;		/* row is the index entry's own slot */
} PaxHotWalk;

static void
PaxHotWalkStart(PaxHotWalk *w, Relation rel, Page page, BlockNumber blkno,
				uint16 rowhdrs, int row, bool at_start)
{
	w->rel = rel;
	w->page = page;
	w->blkno = blkno;
	w->rowhdrs = rowhdrs;
	w->nrows = PaxPageGetHeader(page)->pp_nrows;
	w->row = row;
	w->steps = 0;
	w->prev_xmax = InvalidTransactionId;
	w->at_start = at_start;
}

/*
 * PaxHotWalkNext points tuple at the chain's next version, false at its
 * end, by heap_hot_search_buffer()'s rules (heapam.c, PostgreSQL 15): a
 * REDIRECT only in the entry's own slot; never a heap-only version there
 * (a stale entry's: PaxRowHasStaleEntries); each version's xmin the update
 * xid of the one before, else the slot was reused by another chain.
 */
static bool
PaxHotWalkNext(PaxHotWalk *w, HeapTuple tuple)
{
	while (w->row >= 0 && w->row < w->nrows && w->steps++ <= w->nrows)
	{
		HeapTupleHeader hdr = PaxRowHeader(w->page, w->rowhdrs, w->row);

		if (PaxRowUnused(w->page, w->rowhdrs, w->row))
		{
			if (PaxPageIsCompact(w->page) || !w->at_start ||
				!PaxRowIsRedirect(hdr))
				return false;
			w->row = ItemPointerGetOffsetNumber(&hdr->t_ctid) - 1;
			w->at_start = false;
			continue;
		}
		PaxPageCheckRowNatts(w->rel, w->page, w->blkno, hdr);
		PaxRowTuple(tuple, w->rel, w->page, w->rowhdrs, w->blkno, w->row);
		if ((w->at_start && HeapTupleIsHeapOnly(tuple)) ||
			(TransactionIdIsValid(w->prev_xmax) &&
			 !TransactionIdEquals(w->prev_xmax,
								  HeapTupleHeaderGetXmin(tuple->t_data))))
			return false;
		w->at_start = false;
		w->row = PaxHotNext(tuple, w->blkno, &w->prev_xmax);
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
					rowhdrs, ItemPointerGetOffsetNumber(tid) - 1, first_call);
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
 * PaxHotRootRows sets root_of[r], for each row r of a page, to the TID
 * offset of the root of r's HOT chain (the slot its index entries name):
 * r + 1 for a row that is not heap-only, the root's for a heap-only
 * version reached from one, InvalidOffsetNumber for slots without a row
 * and heap-only versions no chain reaches (an aborted update's).  Adapted
 * from heap_get_root_tuples() in pruneheap.c, PostgreSQL 15.
 */
void
PaxHotRootRows(Relation rel, Page page, uint16 rowhdrs, BlockNumber blkno,
			   OffsetNumber *root_of)
{
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	bool		compact = PaxPageIsCompact(page);

	memset(root_of, 0, nrows * sizeof(OffsetNumber));
	for (int r = 0; r < nrows; r++)
	{
		HeapTupleHeader hdr = PaxRowHeader(page, rowhdrs, r);
		TransactionId prev_xmax = InvalidTransactionId;
		HeapTupleData tuple;
		int			next;

		if (compact)
		{
			if (!PaxRowUnused(page, rowhdrs, r))
				root_of[r] = r + 1;
			continue;
		}
		if (PaxRowIsUnused(hdr))
		{
			if (!PaxRowIsRedirect(hdr))
				continue;
			next = ItemPointerGetOffsetNumber(&hdr->t_ctid) - 1;
		}
		else
		{
			if (HeapTupleHeaderIsHeapOnly(hdr))
				continue;
			root_of[r] = r + 1;
			PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, r);
			next = PaxHotNext(&tuple, blkno, &prev_xmax);
		}

		for (int steps = 0; next >= 0 && next < nrows && steps < nrows; steps++)
		{
			HeapTupleHeader nhdr = PaxRowHeader(page, rowhdrs, next);

			if (PaxRowIsUnused(nhdr) || !HeapTupleHeaderIsHeapOnly(nhdr))
				break;
			if (TransactionIdIsValid(prev_xmax) &&
				!TransactionIdEquals(prev_xmax, HeapTupleHeaderGetXmin(nhdr)))
				break;
			root_of[next] = r + 1;
			PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, next);
			next = PaxHotNext(&tuple, blkno, &prev_xmax);
		}
	}
}

/*
 * PaxHotChainMembers sets member[k] for each row k on the HOT chain that
 * starts at row index row (a row that is not heap-only, or a REDIRECT), as
 * a bitmap heap scan visits the versions an index entry stands for.
 * Adapted from the use of heap_hot_search_buffer() in
 * heapam_scan_bitmap_next_block() in heapam_handler.c, PostgreSQL 15.
 */
void
PaxHotChainMembers(Relation rel, Page page, uint16 rowhdrs, BlockNumber blkno,
				   int row, bool *member)
{
	HeapTupleData tuple;
	PaxHotWalk	w;

	PaxHotWalkStart(&w, rel, page, blkno, rowhdrs, row, true);
	while (PaxHotWalkNext(&w, &tuple))
		member[ItemPointerGetOffsetNumber(&tuple.t_self) - 1] = true;
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
					rowhdrs, ItemPointerGetOffsetNumber(tid) - 1, true);
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
	int			row = ItemPointerGetOffsetNumber(tid) - 1;
	HeapTupleHeader hdr;

	Assert(PaxBufferLockedByMe(buffer, false));
	if (PageIsNew(page) || row < 0 ||
		row >= PaxPageGetHeader(page)->pp_nrows || PaxPageIsCompact(page))
		return false;
	hdr = PaxRowHeader(page, PaxPageRowHeaderOffset(rel, page,
													BufferGetBlockNumber(buffer)),
					   row);
	if (!PaxRowIsRedirect(hdr))
		return false;
	*tid = hdr->t_ctid;
	return true;
}
