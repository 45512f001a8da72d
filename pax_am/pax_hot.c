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
	Page		page = BufferGetPage(buffer);
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			row = ItemPointerGetOffsetNumber(tid) - 1;
	TransactionId prev_xmax = InvalidTransactionId;
	GlobalVisState *vistest = NULL;
	bool		at_chain_start = first_call;
	bool		skip = !first_call;
	bool		compact = PaxPageIsCompact(page);

	Assert(PaxBufferLockedByMe(buffer, false));
	if (all_dead)
		*all_dead = first_call;

	/* a chain has at most one version per row slot */
	for (int steps = 0; steps <= nrows; steps++)
	{
		ItemPointerData cur;

		if (row < 0 || row >= nrows)
			break;
		if (!compact)
		{
			HeapTupleHeader hdr = PaxRowHeader(page, rowhdrs, row);

			if (PaxRowIsUnused(hdr))
			{
				/* only the index entry's own slot may redirect */
				if (!PaxRowIsRedirect(hdr) || !at_chain_start)
					break;
				row = ItemPointerGetOffsetNumber(&hdr->t_ctid) - 1;
				at_chain_start = false;
				continue;
			}
		}
		ItemPointerSet(&cur, blkno, row + 1);
		if (!PaxReadRowAt(rel, buffer, rowhdrs, &cur, tuple))
			break;

		/* an index entry never names a heap-only version */
		if (at_chain_start && HeapTupleIsHeapOnly(tuple))
			break;

		/* the slot was reused by a row of another chain */
		if (TransactionIdIsValid(prev_xmax) &&
			!TransactionIdEquals(prev_xmax,
								 HeapTupleHeaderGetXmin(tuple->t_data)))
			break;

		if (!skip)
		{
			bool		valid = HeapTupleSatisfiesVisibility(tuple, snapshot,
															 buffer);

			HeapCheckForSerializableConflictOut(valid, rel, tuple, buffer,
												snapshot);
			if (valid)
			{
				*tid = cur;
				PredicateLockTID(rel, &cur, snapshot,
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
		row = PaxHotNext(tuple, blkno, &prev_xmax);
		at_chain_start = false;
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
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	TransactionId prev_xmax = InvalidTransactionId;
	bool		compact = PaxPageIsCompact(page);
	bool		at_start = true;	/* the entry's own slot */

	for (int steps = 0; row >= 0 && row < nrows && steps <= nrows; steps++)
	{
		HeapTupleHeader hdr;
		HeapTupleData tuple;

		if (compact)
		{
			if (!PaxRowUnused(page, rowhdrs, row))
				member[row] = true;
			return;
		}
		hdr = PaxRowHeader(page, rowhdrs, row);
		if (PaxRowIsUnused(hdr))
		{
			if (!PaxRowIsRedirect(hdr) || !at_start)
				return;
			row = ItemPointerGetOffsetNumber(&hdr->t_ctid) - 1;
			at_start = false;
			continue;
		}
		if (TransactionIdIsValid(prev_xmax) &&
			!TransactionIdEquals(prev_xmax, HeapTupleHeaderGetXmin(hdr)))
			return;
		/* an entry's own slot holds its root, never a heap-only version */
		if (at_start && HeapTupleHeaderIsHeapOnly(hdr))
			return;
		at_start = false;
		member[row] = true;
		PaxRowTuple(&tuple, rel, page, rowhdrs, blkno, row);
		row = PaxHotNext(&tuple, blkno, &prev_xmax);
	}
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
	Page		page = BufferGetPage(buffer);
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			row = ItemPointerGetOffsetNumber(tid) - 1;
	TransactionId prev_xmax = InvalidTransactionId;
	TransactionId horizon = *latest;
	bool		compact = PaxPageIsCompact(page);
	bool		at_start = true;	/* the entry's own slot */

	for (int steps = 0; row >= 0 && row < nrows && steps <= nrows; steps++)
	{
		HeapTupleData tuple;
		ItemPointerData cur;

		if (!compact)
		{
			HeapTupleHeader hdr = PaxRowHeader(page, rowhdrs, row);

			if (PaxRowIsUnused(hdr))
			{
				if (!PaxRowIsRedirect(hdr) || !at_start)
					break;
				row = ItemPointerGetOffsetNumber(&hdr->t_ctid) - 1;
				at_start = false;
				continue;
			}
		}
		ItemPointerSet(&cur, blkno, row + 1);
		if (!PaxReadRowAt(rel, buffer, rowhdrs, &cur, &tuple))
			break;
		if (TransactionIdIsValid(prev_xmax) &&
			!TransactionIdEquals(prev_xmax,
								 HeapTupleHeaderGetXmin(tuple.t_data)))
			break;
		/* a heap-only version in the entry's own slot: a stale entry */
		if (at_start && HeapTupleIsHeapOnly(&tuple))
			break;
		at_start = false;
		if (!knowndead && !HeapTupleIsSurelyDead(&tuple, vistest))
			return false;
		PaxAdvanceConflictHorizon(tuple.t_data, &horizon);
		row = PaxHotNext(&tuple, blkno, &prev_xmax);
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
