/*-------------------------------------------------------------------------
 *
 * pax_vacuum_page.c
 *	  VACUUM of pax relations, a page at a time: judging and freezing the
 *	  rows of a page, marking it all-visible (phase 1), and reclaiming the
 *	  space of its dead rows (phase 3).
 *
 * pax_relation_vacuum (pax_vacuum.c, whose header comment describes the
 * phases) visits every page with PaxVacScanPage and, after the index pass,
 * hands each page's dead TIDs to PaxVacReclaimPage; both work on the
 * VACUUM's PaxVacState (pax_tableam.h).  Scanning a page, each row is
 * judged by PaxRowVacuumStatus with the VACUUM's OldestXmin and planned by
 * heap_prepare_freeze_tuple; what is decided (frozen headers, aborted rows
 * marked invalid, the layout xid cleared, a compact page's rows sharing
 * its header again, PD_ALL_VISIBLE) is written in one generic WAL record
 * of the page (and one of its header page).  Reclaiming a page compacts
 * its value area under a cleanup lock (PaxPageReclaim), or leaves its dead
 * rows for a later VACUUM when the lock is not free.
 *
 * pax_am/pax_vacuum_page.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/multixact.h"
#include "access/transam.h"
#include "access/visibilitymap.h"
#include "access/xloginsert.h"
#include "commands/vacuum.h"
#include "storage/bufmgr.h"
#include "storage/procarray.h"
#include "storage/freespace.h"
#include "utils/rel.h"

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_tableam.h"

/*
 * A row's freeze plan: what heap_prepare_freeze_tuple decides and
 * heap_execute_freeze_tuple carries out.  16 renamed the struct and made
 * the decision per page (see PaxVacDecideFreeze).
 */
#if PG_VERSION_NUM >= 160000
typedef HeapTupleFreeze PaxFreezePlan;
#else
typedef xl_heap_freeze_tuple PaxFreezePlan;
#endif

/* What VACUUM decided for one row in the scan. */
typedef enum PaxVacAction
{
	PAX_VAC_NONE,
	PAX_VAC_FREEZE,				/* heap_execute_freeze_tuple: xmin, xmax */
	PAX_VAC_INVALIDATE			/* aborted, kept: set HEAP_XMIN_INVALID */
} PaxVacAction;

/* ----------------------------------------------------------------
 * Reclaiming a page's dead rows (phase 3)
 * ----------------------------------------------------------------
 */

/*
 * PaxVacCleanupLockOrKeep is called when the cleanup lock of a page with
 * dead rows is not free: another backend holds a pin (an open cursor can
 * hold one for as long as it likes).  As heap's lazy_scan_noprune, VACUUM
 * then leaves the rows in place for a later VACUUM rather than wait, unless
 * it is aggressive and one of them holds an xid or multixact older than the
 * freeze limit: relfrozenxid could not advance past it, so it waits as heap
 * does.  Returns true with the cleanup lock held; false, with the buffer
 * unlocked, when the rows stay.
 *
 * Rows that stay are harmless even when their index entries are gone
 * already (phase 2): nothing points at them, a later VACUUM finds them dead
 * again and reclaims them.  Their xids keep relfrozenxid and relminmxid
 * back, as a dead row kept for INDEX_CLEANUP off does.  Adapted from
 * lazy_scan_noprune() in vacuumlazy.c, PostgreSQL 15.
 */
static bool
PaxVacCleanupLockOrKeep(PaxVacState *vs, Buffer buffer,
						const OffsetNumber *rows, int nitems)
{
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	TransactionId frozen_xid = vs->new_frozen_xid;
	MultiXactId min_mxid = vs->new_min_mxid;
	bool		must_wait = false;
	Page		page;
	uint16		rowhdrs;

	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	rowhdrs = PaxPageRowHeaders(vs->rel, page, blkno);
	for (int k = 0; k < nitems; k++)
	{
		int			r = PaxTidSlot(page, rowhdrs, rows[k]);
		HeapTupleHeader hdr;

		if (r < 0)
			continue;			/* a DEAD item: no xid left */
		hdr = PaxRowHeaderOf(vs->rel, page, rowhdrs, r);

#if PG_VERSION_NUM >= 160000
		if (heap_tuple_should_freeze(hdr, &vs->cutoffs, &frozen_xid, &min_mxid))
#else
		if (heap_tuple_would_freeze(hdr, vs->freeze_limit, vs->multi_cutoff,
									&frozen_xid, &min_mxid))
#endif
			must_wait |= vs->aggressive;
	}
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);

	if (must_wait)
	{
		LockBufferForCleanup(buffer);
		return true;
	}
	vs->new_frozen_xid = frozen_xid;
	vs->new_min_mxid = min_mxid;
	vs->dead_kept += nitems;
	vs->nonempty_pages = Max(vs->nonempty_pages, blkno + 1);
	return false;
}

/*
 * PaxVacReclaimHorizon: the newest xid the headers of the rows VACUUM
 * removes from the page show (the rows pruning made DEAD items showed
 * theirs in its record), the standby conflict horizon of the reclaim.
 */
static TransactionId
PaxVacReclaimHorizon(PaxVacState *vs, Page page, uint16 rowhdrs,
					 const OffsetNumber *rows, int nrows)
{
	TransactionId horizon = InvalidTransactionId;

	for (int k = 0; k < nrows; k++)
	{
		int			r = PaxTidSlot(page, rowhdrs, rows[k]);

		if (r < 0)
			continue;
		PaxAdvanceConflictHorizon(PaxRowHeaderOf(vs->rel, page, rowhdrs, r),
								  &horizon);
	}
	return horizon;
}

/*
 * PaxVacReclaimPage reclaims the dead rows of one page, whose buffer the
 * caller has pinned (not locked): cleanup lock, one generic WAL record,
 * free space map.  Without waiting for the cleanup lock, the rows may be
 * left in place (PaxVacCleanupLockOrKeep).  Adapted from
 * lazy_vacuum_heap_page() in vacuumlazy.c, PostgreSQL 15.
 */
void
PaxVacReclaimPage(PaxVacState *vs, Buffer buffer, const ItemPointerData *items,
				  int nitems)
{
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	OffsetNumber rows[PAX_MAX_CAPACITY];
	PaxChange	chg;
	PaxPageLayout *layout;
	Page		page;
	Size		avail;
	bool		all_visible;
	bool		all_frozen;
	TransactionId cutoff;
	BlockNumber hblk;

	Assert(nitems <= PAX_MAX_CAPACITY);
	for (int k = 0; k < nitems; k++)
	{
		Assert(ItemPointerGetBlockNumber(&items[k]) == blkno);
		rows[k] = ItemPointerGetOffsetNumber(&items[k]);
	}

	visibilitymap_pin(vs->rel, blkno, &vs->vmbuffer);
	if (!ConditionalLockBufferForCleanup(buffer) &&
		!PaxVacCleanupLockOrKeep(vs, buffer, rows, nitems))
		return;
	if (PaxPageIsOrphan(BufferGetPage(buffer)))
	{
		hblk = PaxPageIsCompact(BufferGetPage(buffer)) ?
			PaxCompactHeaderPage(BufferGetPage(buffer),
								 PaxRowHeadersAt(BufferGetPage(buffer))) : 0;

		/*
		 * Every row of an orphan page is dead (and VACUUM found them so):
		 * the page is laid out afresh, empty, for the relation's columns.
		 */
		page = PaxChangeStart(&chg, vs->rel, buffer, true);
		PaxChangeRemoves(&chg, true, InvalidTransactionId);
		PaxReinitOrphan(vs->rel, page);
		PaxChangeFinish(&chg);
		if (hblk != 0)
			PaxCompactFreeHeaderPage(vs->rel, hblk, vs->bstrategy);
		avail = PaxFsmValue(vs->rel, BufferGetPage(buffer));
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
		RecordPageWithFreeSpace(vs->rel, blkno, avail);
		vs->removed += nitems;
		vs->pages_reclaimed++;
		return;
	}
	layout = PaxPageGetLayout(vs->rel, vs->tupdesc, BufferGetPage(buffer),
							  blkno, &vs->lcache);

	/* rows that only lose their stale-entries mark are not removed */
	for (int k = 0; k < nitems && !layout->compact; k++)
	{
		int			r = PaxTidSlot(BufferGetPage(buffer), layout->rowhdrs,
								   rows[k]);

		if (r >= 0 &&
			PaxRowHasStaleEntries(PaxRowHeader(BufferGetPage(buffer),
											   layout->rowhdrs, r)))
			vs->removed--;
	}
	/*
	 * Compaction moves most of the value area and rewrites offsets: log the
	 * page's contents (all but the hole) rather than have GenericXLog find
	 * that out byte by byte (a third of VACUUM's time, by perf).
	 */
	page = PaxChangeStart(&chg, vs->rel, buffer, false);
	PaxChangeRemoves(&chg, true,
					 PaxVacReclaimHorizon(vs, page, layout->rowhdrs, rows, nitems));
	vs->bytes_freed += PaxPageReclaim(page, layout, vs->tupdesc, rows, nitems,
									  blkno, vs->rel);
	hblk = layout->compact ? PaxCompactHeaderPage(page, layout->rowhdrs) : 0;

	/*
	 * A compact page takes no rows but its batch's: once it has none left,
	 * it is laid out afresh, empty, and once the room its dead rows left
	 * holds a header for each row, it goes back to the row form (the
	 * headers of the rows on its header page with them), so that inserts
	 * can use its free slots.
	 */
	if (layout->compact && PaxPageGetHeader(page)->pp_nrows == 0)
		PaxReinitOrphan(vs->rel, page);
	else if (layout->compact && PaxCompactToRowForm(vs->rel, page, layout, blkno))
		;						/* its header page (hblk) is free now */
	else if (hblk != 0 && PaxCompactHasOverflow(page, layout->rowhdrs))
		hblk = 0;				/* still in use */
	else if (hblk != 0)
		PaxCompactHeaderPage(page, layout->rowhdrs) = 0;	/* (below pd_lower) */
	all_visible = PaxRowsAllVisible(vs->rel, page, layout->rowhdrs,
										buffer, blkno, vs->oldest_xmin,
										&cutoff, &all_frozen);
	if (all_visible)
		PageSetAllVisible(page);
	PaxChangeDiffPage(&chg);
	PaxChangeFinish(&chg);
	if (hblk != 0)
		PaxCompactFreeHeaderPage(vs->rel, hblk, vs->bstrategy);
	if (all_visible)
	{
		uint8		flags = VISIBILITYMAP_ALL_VISIBLE;

		if (all_frozen)
			flags |= VISIBILITYMAP_ALL_FROZEN;
		/* pinned above, before the buffer lock */
		PaxVisibilityMapSet(vs->rel, blkno, buffer, vs->vmbuffer, cutoff,
							flags);
		vs->all_visible_pages++;
	}

	page = BufferGetPage(buffer);
	avail = PaxFsmValue(vs->rel, page);
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
	RecordPageWithFreeSpace(vs->rel, blkno, avail);
	vs->removed += nitems;
	vs->pages_reclaimed++;
}

/* ----------------------------------------------------------------
 * Scanning a page (phase 1)
 * ----------------------------------------------------------------
 */

/*
 * PaxVacKeepXid makes relfrozenxid stay at or below xid, an xid left
 * behind on a page.
 */
static inline void
PaxVacKeepXid(PaxVacState *vs, TransactionId xid)
{
	if (TransactionIdIsNormal(xid) &&
		TransactionIdPrecedes(xid, vs->new_frozen_xid))
		vs->new_frozen_xid = xid;
}

/*
 * PaxVacKeepXmax makes relfrozenxid / relminmxid stay at or below the xmax
 * of a dead row left in place (INDEX_CLEANUP off); rows that stay are
 * frozen by heap_prepare_freeze_tuple, which keeps them itself.
 */
static inline void
PaxVacKeepXmax(PaxVacState *vs, HeapTupleHeader hdr)
{
	TransactionId xmax = HeapTupleHeaderGetRawXmax(hdr);

	if (hdr->t_infomask & HEAP_XMAX_INVALID)
		return;
	if (hdr->t_infomask & HEAP_XMAX_IS_MULTI)
	{
		if (MultiXactIdIsValid(xmax) &&
			MultiXactIdPrecedes(xmax, vs->new_min_mxid))
			vs->new_min_mxid = xmax;
	}
	else
		PaxVacKeepXid(vs, xmax);
}

/*
 * PaxVacPage: what phase 1 found on one page, and what it will change.
 */
typedef struct PaxVacPage
{
	BlockNumber blkno;
	Buffer		buffer;			/* exclusively locked */
	Page		page;
	uint16		rowhdrs;
	int			nrows;			/* pp_nrows */
	int			nleft;			/* rows that stay (not UNUSED, not reclaimed) */
	bool		all_visible;	/* every row left visible to everyone */
	bool		all_frozen;		/* ... and frozen */
	bool		changes;		/* a row is invalidated or the layout xid
								 * cleared (freezing is counted in nfreeze) */
	bool		clear_layout_xid;
	int			nfreeze;		/* rows with a PAX_VAC_FREEZE plan */
	TransactionId visibility_cutoff;	/* newest xmin of the rows left */
#if PG_VERSION_NUM >= 160000
	HeapPageFreeze pagefrz;		/* the page's freeze decision so far */
#endif
	int			nshare;			/* rows that may share the header again */
	bool		share[PAX_MAX_CAPACITY];	/* (PaxVacMayShare) */
	PaxVacAction actions[PAX_MAX_CAPACITY];
	PaxFreezePlan frz[PAX_MAX_CAPACITY];
} PaxVacPage;

/*
 * PaxVacXmaxGone tells whether the xmax of a live row's header no longer
 * means anything: none, an updater or deleter that aborted (or crashed),
 * or lockers that all ended.  Such an xmax is ignored by every reader, as
 * heap's routines ignore it.
 */
static bool
PaxVacXmaxGone(HeapTupleHeader hdr)
{
	TransactionId xmax = HeapTupleHeaderGetRawXmax(hdr);

	if ((hdr->t_infomask & HEAP_XMAX_INVALID) || !TransactionIdIsValid(xmax))
		return true;
	if (hdr->t_infomask & HEAP_XMAX_IS_MULTI)
		return HEAP_XMAX_IS_LOCKED_ONLY(hdr->t_infomask) &&
			!MultiXactIdIsRunning(xmax, true);
	if (TransactionIdIsInProgress(xmax))
		return false;
	return HEAP_XMAX_IS_LOCKED_ONLY(hdr->t_infomask) ||
		!TransactionIdDidCommit(xmax);
}

/*
 * PaxVacMayShare tells whether row r of a compact page, whose header is its
 * own (a slot's or on the header page), may share the page's header again:
 * it is live, its xmax is gone (PaxVacXmaxGone), and its xmin is the
 * shared one's, committed, so that its command id no longer matters.
 */
static bool
PaxVacMayShare(PaxVacPage *vp, int r, HeapTupleHeader hdr, HTSV_Result htsv)
{
	const uint8 *states = PaxCompactStates(vp->page, vp->rowhdrs);
	HeapTupleHeader shared = (HeapTupleHeader) (vp->page + vp->rowhdrs);

	if (!PaxPageIsCompact(vp->page) || states[r] == PAX_STATE_SHARED ||
		states[r] == PAX_STATE_UNUSED || htsv != HEAPTUPLE_LIVE)
		return false;
	return HeapTupleHeaderGetRawXmin(hdr) == HeapTupleHeaderGetRawXmin(shared) &&
		!HeapTupleHeaderXminInvalid(shared) &&
		PaxVacXmaxGone(hdr);
}

/* PaxVacTidCmp orders TIDs, for qsort. */
static int
PaxVacTidCmp(const void *a, const void *b)
{
	return ItemPointerCompare((ItemPointer) a, (ItemPointer) b);
}

/* PaxVacCollect adds TID offset off of block blkno to the dead TIDs. */
static void
PaxVacCollect(PaxVacState *vs, BlockNumber blkno, int off)
{
	PaxDeadItems *dead = vs->dead_items;

	Assert(dead->num_items < dead->max_items);
	ItemPointerSet(&dead->items[dead->num_items], blkno, off);
	dead->num_items++;			/* not in the macro: it evaluates twice */
}

/*
 * PaxVacJudgeItem judges the item at TID offset off for phase 1 (a slot of
 * a page without a TID map, an entry of one with): a REDIRECT stays, a
 * DEAD item's TID is collected for its index entries to go (phase 2) and
 * the item to be freed (phase 3), as heap's LP_DEAD line pointers are
 * (lazy_scan_prune in vacuumlazy.c, PostgreSQL 15).
 */
static void
PaxVacJudgeItem(PaxVacState *vs, PaxVacPage *vp, int off)
{
	int			slot;
	int			target;
	PaxTidKind	kind;

	if (PaxPageIsCompact(vp->page))
		return;
	kind = PaxTidWhat(vp->page, vp->rowhdrs, off, &slot, &target);
	if (kind == PAX_TIDK_REDIRECT)
		vp->nleft++;
	if (kind != PAX_TIDK_DEAD)
		return;
	vp->all_visible = vp->all_frozen = false;
	if (vs->nindexes == 0 || vs->do_index_vacuuming)
		PaxVacCollect(vs, vp->blkno, off);
	else
	{
		vs->dead_kept += 1;
		vp->nleft++;
	}
}

/*
 * PaxVacJudgeRow judges row r of the page for phase 1: freeze planning for
 * a row that stays, counting, the all-visible bookkeeping, and collecting
 * a dead row's TID (or leaving the row in place when its index entries
 * must stay).  Adapted from the per-tuple loop of lazy_scan_prune() in
 * vacuumlazy.c, PostgreSQL 15 (without pruning: pax has no HOT chains and
 * no line pointers to redirect).
 */
static void
PaxVacJudgeRow(PaxVacState *vs, PaxVacPage *vp, int r)
{
	Relation	rel = vs->rel;
	HeapTupleData tuple;
	HeapTupleHeader hdr;
	uint16		infomask_before;
	TransactionId xmin;
	HTSV_Result htsv;

	Assert(r < vp->nrows);
	vp->actions[r] = PAX_VAC_NONE;
	vp->share[r] = false;
	if (PaxRowUnused(vp->page, vp->rowhdrs, r))
	{
		/* (a page with a TID map has its items in the map) */
		if (!PaxPageHasTidMap(vp->page))
			PaxVacJudgeItem(vs, vp, r + 1);
		return;
	}
	PaxRowTuple(&tuple, rel, vp->page, vp->rowhdrs, vp->blkno, r);
	hdr = tuple.t_data;
	infomask_before = hdr->t_infomask;

	/*
	 * A heap-only version in a former DEAD item's slot: the item's index
	 * entries go (phase 2), then its mark (phase 3); the row stays.
	 */
	if (!PaxPageIsCompact(vp->page) && PaxRowHasStaleEntries(hdr))
	{
		/* index-only scans must not trust the page's entries meanwhile */
		vp->all_visible = vp->all_frozen = false;
		if (vs->nindexes == 0 || vs->do_index_vacuuming)
			PaxVacCollect(vs, vp->blkno, PaxSlotTid(vp->page, r));
	}

	htsv = PaxRowVacuumStatus(&tuple, vs->oldest_xmin, vp->buffer, NULL);
	vp->share[r] = PaxVacMayShare(vp, r, hdr, htsv);
	if (vp->share[r])
	{
		vp->nshare++;
		vp->changes = true;
	}

	/*
	 * Rows that stay: heap's own freeze planning on their header (xmin, and
	 * xmax: lockers and aborted updaters gone, old multixacts replaced),
	 * which also keeps relfrozenxid / relminmxid at or below every xid and
	 * multixact left (directly until 15, through the page's trackers from
	 * 16 on: PaxVacDecideFreeze).
	 */
	if (htsv != HEAPTUPLE_DEAD)
	{
		bool		totally_frozen;

#if PG_VERSION_NUM >= 160000
		if (heap_prepare_freeze_tuple(hdr, &vs->cutoffs, &vp->pagefrz,
									  &vp->frz[r], &totally_frozen))
#else
		if (heap_prepare_freeze_tuple(hdr, rel->rd_rel->relfrozenxid,
									  rel->rd_rel->relminmxid,
									  vs->freeze_limit, vs->multi_cutoff,
									  &vp->frz[r], &totally_frozen,
									  &vs->new_frozen_xid,
									  &vs->new_min_mxid))
#endif
		{
			vp->actions[r] = PAX_VAC_FREEZE;
			vp->nfreeze++;
		}
		if (!totally_frozen)
			vp->all_frozen = false;
	}

	switch (htsv)
	{
		case HEAPTUPLE_LIVE:
			vs->live += 1;
			vp->nleft++;
			xmin = HeapTupleHeaderGetXmin(hdr);

			/*
			 * The newest xmin is the page's conflict horizon even when the
			 * row's freeze plan would freeze it: from 16 on the plan may not
			 * be carried out, and a newer horizon is always safe.
			 */
			if (HeapTupleHeaderXminFrozen(hdr))
				break;
			if (!TransactionIdPrecedes(xmin, vs->oldest_xmin))
				vp->all_visible = false;
			else if (!TransactionIdIsValid(vp->visibility_cutoff) ||
					 TransactionIdFollows(xmin, vp->visibility_cutoff))
				vp->visibility_cutoff = xmin;
			break;
		case HEAPTUPLE_DEAD:
			vp->all_visible = vp->all_frozen = false;

			/*
			 * A version of a HOT chain goes only by pruning (the page's
			 * cleanup lock was not free): its root's index entries serve the
			 * versions after it.
			 */
			if ((vs->nindexes == 0 || vs->do_index_vacuuming) &&
				!HeapTupleHeaderIsHeapOnly(hdr) &&
				!HeapTupleHeaderIsHotUpdated(hdr))
			{
				PaxVacCollect(vs, vp->blkno, PaxSlotTid(vp->page, r));
				break;
			}
			/* left in place (index entries point at it) */
			vs->dead_kept += 1;
			vp->nleft++;
			if (HeapTupleHeaderXminInvalid(hdr) &&
				!(infomask_before & HEAP_XMIN_INVALID))
			{
				/* aborted: make the hint HTSV just set durable */
				vp->actions[r] = PAX_VAC_INVALIDATE;
				vp->changes = true;
			}
			else if (!HeapTupleHeaderXminInvalid(hdr))
			{
				PaxVacKeepXid(vs, HeapTupleHeaderGetXmin(hdr));
				PaxVacKeepXmax(vs, hdr);
			}
			break;
		case HEAPTUPLE_RECENTLY_DEAD:
		case HEAPTUPLE_INSERT_IN_PROGRESS:
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			if (htsv == HEAPTUPLE_RECENTLY_DEAD)
				vs->recently_dead += 1;
			else
				vs->live += 1;
			vp->nleft++;
			vp->all_visible = vp->all_frozen = false;
			break;
	}
}

/*
 * PaxVacDecideFreeze decides, once every row of the page is judged, whether
 * the rows' freeze plans are carried out, and how far back the page keeps
 * relfrozenxid and relminmxid.
 *
 * Until 15, heap_prepare_freeze_tuple plans to freeze exactly the xids and
 * multixacts older than the freeze limits, and each plan is carried out: the
 * trackers were kept by the call itself.
 *
 * From 16 on, the plans cover every xid older than OldestXmin, and the page
 * is frozen whole or not at all.  Adapted from the freeze decision of
 * heap_page_prune_and_freeze() in pruneheap.c, PostgreSQL 18:
 *  - freezing is required when some xid or multixact is older than
 *    FreezeLimit / MultiXactCutoff (pagefrz.freeze_required), since
 *    relfrozenxid must be able to reach them;
 *  - otherwise the page is frozen opportunistically only when that makes it
 *    all-frozen and its WAL record carries a full-page image anyway (the
 *    first change of the page since the last checkpoint, in a WAL-logged
 *    relation), heap's approximation of "freezing is nearly free now".
 * Frozen or not, the page's lowest unfrozen xid and multixact come from the
 * matching pair of trackers; those only move back from where the page
 * started, and rows kept dead (PaxVacKeepXid) may have moved the VACUUM's
 * values back further, so the older of the two is kept.
 *
 * Before a freeze is written, the plans' pg_xact checks run (xmin committed,
 * a frozen-away xmax not committed): adapted from heap_pre_freeze_checks()
 * in heapam.c, PostgreSQL 18.
 */
static void
PaxVacDecideFreeze(PaxVacState *vs, PaxVacPage *vp)
{
#if PG_VERSION_NUM >= 160000
	HeapPageFreeze *pagefrz = &vp->pagefrz;
	bool		do_freeze;
	TransactionId frozen_xid;
	MultiXactId min_mxid;

	if (pagefrz->freeze_required)
		do_freeze = true;
	else
		do_freeze = vp->nfreeze > 0 && vp->all_visible && vp->all_frozen &&
			RelationNeedsWAL(vs->rel) &&
			XLogCheckBufferNeedsBackup(vp->buffer);

	if (do_freeze)
	{
		for (int r = 0; r < vp->nrows; r++)
		{
			HeapTupleHeader hdr;

			if (vp->actions[r] != PAX_VAC_FREEZE)
				continue;
			hdr = PaxRowHeaderOf(vs->rel, vp->page, vp->rowhdrs, r);
			if ((vp->frz[r].checkflags & HEAP_FREEZE_CHECK_XMIN_COMMITTED) &&
				unlikely(!TransactionIdDidCommit(HeapTupleHeaderGetRawXmin(hdr))))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("uncommitted xmin %u needs to be frozen",
										 HeapTupleHeaderGetRawXmin(hdr))));
			if ((vp->frz[r].checkflags & HEAP_FREEZE_CHECK_XMAX_ABORTED) &&
				unlikely(TransactionIdDidCommit(HeapTupleHeaderGetRawXmax(hdr))))
				ereport(ERROR,
						(errcode(ERRCODE_DATA_CORRUPTED),
						 errmsg_internal("cannot freeze committed xmax %u",
										 HeapTupleHeaderGetRawXmax(hdr))));
		}
		frozen_xid = pagefrz->FreezePageRelfrozenXid;
		min_mxid = pagefrz->FreezePageRelminMxid;
	}
	else
	{
		if (vp->nfreeze > 0)
		{
			/* plans not carried out: the page is not all-frozen */
			for (int r = 0; r < vp->nrows; r++)
				if (vp->actions[r] == PAX_VAC_FREEZE)
					vp->actions[r] = PAX_VAC_NONE;
			vp->nfreeze = 0;
			vp->all_frozen = false;
		}
		frozen_xid = pagefrz->NoFreezePageRelfrozenXid;
		min_mxid = pagefrz->NoFreezePageRelminMxid;
	}
	if (TransactionIdPrecedes(frozen_xid, vs->new_frozen_xid))
		vs->new_frozen_xid = frozen_xid;
	if (MultiXactIdPrecedes(min_mxid, vs->new_min_mxid))
		vs->new_min_mxid = min_mxid;
#else
	/* every plan is carried out; the trackers were kept by the planning */
	(void) vs;
	(void) vp;
#endif
}

/*
 * PaxVacLayoutXid looks at the page's layout xid (PaxLayoutXid): it is
 * cleared once it committed, so that no xid older than relfrozenxid stays
 * behind; while it runs, the page can be neither all-visible nor frozen.
 * An aborted one makes the page an orphan, whose rows are all dead and are
 * reclaimed as such.
 */
static void
PaxVacLayoutXid(PaxVacState *vs, PaxVacPage *vp)
{
	TransactionId layout_xid = PaxPageGetOpaque(vp->page)->pax_layout_xid;

	if (!TransactionIdIsValid(layout_xid))
		return;
	if (TransactionIdIsInProgress(layout_xid))
	{
		vp->all_visible = vp->all_frozen = false;
		PaxVacKeepXid(vs, layout_xid);
	}
	else if (TransactionIdDidCommit(layout_xid))
		vp->clear_layout_xid = vp->changes = true;
}

/*
 * PaxVacFreezeHorizon: the standby conflict horizon of freezing, the xid
 * before VACUUM's oldest_xmin (every xid frozen precedes it), as heap's
 * freezing uses when a page is not all frozen.
 */
static TransactionId
PaxVacFreezeHorizon(PaxVacState *vs)
{
	TransactionId horizon = vs->oldest_xmin;

	TransactionIdRetreat(horizon);
	return horizon;
}

/*
 * PaxVacApplyChanges writes what phase 1 decided for the page in one
 * generic WAL record: frozen headers, aborted rows marked invalid, the
 * layout xid cleared, PD_ALL_VISIBLE set.  Adapted from the freeze step of
 * lazy_scan_prune() in vacuumlazy.c (heap_execute_freeze_tuple per row),
 * PostgreSQL 15.
 */
static BlockNumber PaxVacShareHeaders(PaxVacState *vs, PaxVacPage *vp,
									  Page copy, PaxChange *chg);
static void PaxVacApplyOverflow(PaxVacState *vs, PaxVacPage *vp);
static bool PaxVacApplyRow(PaxVacState *vs, PaxVacPage *vp,
						   HeapTupleHeader hdr, int r);

static void
PaxVacApplyChanges(PaxVacState *vs, PaxVacPage *vp)
{
	PaxChange	chg;
	Page		copy = PaxChangeStart(&chg, vs->rel, vp->buffer, false);
	int			noverflow = 0;
	BlockNumber hblk = 0;
	double		frozen = vs->frozen;

	if (vp->clear_layout_xid)
	{
		PaxPageGetOpaque(copy)->pax_layout_xid = InvalidTransactionId;
		PaxChangeRange(&chg, ((PageHeader) copy)->pd_special,
					   sizeof(PaxPageOpaqueData));
	}

	for (int r = 0; r < vp->nrows; r++)
	{
		HeapTupleHeader hdr;

		if (vp->actions[r] == PAX_VAC_NONE)
			continue;
		if (PaxPageIsCompact(copy) &&
			PaxCompactStates(copy, vp->rowhdrs)[r] == PAX_STATE_OVERFLOW)
		{
			noverflow++;
			continue;			/* on the header page, below */
		}
		hdr = PaxRowHeader(copy, vp->rowhdrs, r);
		if (PaxVacApplyRow(vs, vp, hdr, r))
			PaxChangeRange(&chg, (char *) hdr - (char *) copy, PAX_ROWHDR_SIZE);
	}
	if (vp->nshare > 0)
		hblk = PaxVacShareHeaders(vs, vp, copy, &chg);
	if (vp->all_visible && vp->nrows > 0)
		PageSetAllVisible(copy);
	PaxChangeRange(&chg, 0, SizeOfPageHeaderData);
	if (vs->frozen > frozen)
		PaxChangeRemoves(&chg, false, PaxVacFreezeHorizon(vs));
	PaxChangeFinish(&chg);
	if (noverflow > 0)
		PaxVacApplyOverflow(vs, vp);
	if (hblk != 0)
		PaxCompactFreeHeaderPage(vs->rel, hblk, vs->bstrategy);
}

/*
 * PaxVacShareHeaders gives the rows PaxVacMayShare found the page's shared
 * header again (PAX_STATE_SHARED), freeing their header slots, when that
 * does not unfreeze them: their xmin is frozen only if the shared one is
 * (freezing the shared header, by its rows' plans, came first).  Rows
 * whose plan froze or invalidated their own header this time keep it (so
 * the rows PaxVacApplyOverflow changes stay on the header page).  Returns
 * the header page the page no longer needs (its name cleared on the copy),
 * or 0.
 */
static BlockNumber
PaxVacShareHeaders(PaxVacState *vs, PaxVacPage *vp, Page copy,
				   PaxChange *chg)
{
	uint16		rowhdrs = vp->rowhdrs;
	uint8	   *states = PaxCompactStates(copy, rowhdrs);
	HeapTupleHeader shared = (HeapTupleHeader) (copy + rowhdrs);
	BlockNumber hblk = PaxCompactHeaderPage(copy, rowhdrs);

	for (int r = 0; r < vp->nrows; r++)
	{
		HeapTupleHeader own;

		if (!vp->share[r] || vp->actions[r] != PAX_VAC_NONE)
			continue;
		own = PaxRowHeaderOf(vs->rel, copy, rowhdrs, r);
		if (HeapTupleHeaderXminFrozen(own) && !HeapTupleHeaderXminFrozen(shared))
			continue;
		if (states[r] <= PAX_COMPACT_SLOTS)
		{
			/* the slot is free again (an entry on the header page stays, unread) */
			memset(own, 0, PAX_ROWHDR_SIZE);
			PaxChangeRange(chg, (char *) own - (char *) copy, PAX_ROWHDR_SIZE);
		}
		states[r] = PAX_STATE_SHARED;
		PaxChangeRange(chg, rowhdrs + PAX_COMPACT_STATES + r, 1);
	}
	if (hblk == 0 || PaxCompactHasOverflow(copy, rowhdrs))
		return 0;
	PaxCompactHeaderPage(copy, rowhdrs) = 0;
	PaxChangeRange(chg, rowhdrs + PAX_COMPACT_HDRPAGE, sizeof(BlockNumber));
	return hblk;
}

/*
 * PaxVacApplyOverflow carries out phase 1's decisions for the rows of a
 * compact page whose headers are on its header page, in one record of the
 * header page, which it exclusively locks (after the compact page).
 */
static void
PaxVacApplyOverflow(PaxVacState *vs, PaxVacPage *vp)
{
	Buffer		hbuf = PaxHeaderPageRead(vs->rel, vp->page, vp->rowhdrs,
										 BUFFER_LOCK_EXCLUSIVE);
	PaxChange	chg;
	Page		copy = PaxChangeStart(&chg, vs->rel, hbuf, false);
	double		frozen = vs->frozen;

	for (int r = 0; r < vp->nrows; r++)
	{
		HeapTupleHeader hdr;

		if (vp->actions[r] == PAX_VAC_NONE ||
			PaxCompactStates(vp->page, vp->rowhdrs)[r] != PAX_STATE_OVERFLOW)
			continue;
		hdr = PaxHeaderPageRow(copy, r);
		if (PaxVacApplyRow(vs, vp, hdr, r))
			PaxChangeRange(&chg, (char *) hdr - (char *) copy, PAX_ROWHDR_SIZE);
	}
	if (vs->frozen > frozen)
		PaxChangeRemoves(&chg, false, PaxVacFreezeHorizon(vs));
	PaxChangeFinish(&chg);
	UnlockReleaseBuffer(hbuf);
}

/*
 * PaxVacApplyRow carries out phase 1's decision for row r on its header
 * hdr: freezing, or marking an aborted insert invalid.  Returns whether
 * the header changed.
 */
static bool
PaxVacApplyRow(PaxVacState *vs, PaxVacPage *vp, HeapTupleHeader hdr, int r)
{
	if (vp->actions[r] == PAX_VAC_FREEZE)
	{
		PaxExecuteFreeze(hdr, &vp->frz[r]);
		vs->frozen += 1;

		/*
		 * An aborted updater's xmax frozen away: the row has no newer
		 * version, so t_ctid points at itself again rather than at the dead
		 * one, which may be truncated away (pax_verify checks such a
		 * t_ctid).  (Not a compact page's shared header, which stands for
		 * every row: its t_ctid says "itself" already.)
		 */
		if ((hdr->t_infomask & HEAP_XMAX_INVALID) &&
			!TransactionIdIsValid(HeapTupleHeaderGetRawXmax(hdr)) &&
			ItemPointerGetOffsetNumberNoCheck(&hdr->t_ctid) != PAX_CTID_SELF)
			ItemPointerSet(&hdr->t_ctid, vp->blkno, PaxSlotTid(vp->page, r));
		return true;
	}
	if (vp->actions[r] == PAX_VAC_INVALIDATE)
	{
		hdr->t_infomask &= ~HEAP_XMIN_COMMITTED;
		hdr->t_infomask |= HEAP_XMIN_INVALID;
		vs->invalidated += 1;
		return true;
	}
	return false;
}

/*
 * PaxVacScanPage is phase 1 for one page: judge every row, collect the dead
 * ones, freeze, mark the page all-visible, record its free space (or, with
 * no indexes, reclaim the dead rows at once).  Adapted from
 * lazy_scan_heap() and lazy_scan_prune() in vacuumlazy.c, PostgreSQL 15.
 */
void
PaxVacScanPage(PaxVacState *vs, BlockNumber blkno)
{
	Relation	rel = vs->rel;
	int			first_dead = vs->dead_items->num_items;
	PaxVacPage	vp;

	vp.blkno = blkno;
	vp.buffer = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
								   vs->bstrategy);
	vp.page = BufferGetPage(vp.buffer);

	/*
	 * A row-form page is pruned first when its cleanup lock is free, as
	 * heap's lazy_scan_prune does: dead versions of HOT chains go, dead
	 * rows become DEAD items.  Otherwise the page is judged as it is, HOT
	 * chains left for a later VACUUM.
	 */
	if (ConditionalLockBufferForCleanup(vp.buffer))
	{
		if (!PageIsNew(vp.page) && PaxPageHeaderIsValid(vp.page) &&
			!(PaxPageGetHeader(vp.page)->pp_flags &
			  (PAX_PAGE_COMPACT | PAX_PAGE_HEADERS)) &&
			!PaxPageIsOrphan(vp.page))
			vs->removed += PaxPagePrune(rel, vp.buffer, vs->oldest_xmin, NULL);
	}
	else
		LockBuffer(vp.buffer, BUFFER_LOCK_EXCLUSIVE);
	if (PageIsNew(vp.page))
	{
		/* left by a crash after extension: nothing to do, truncatable */
		UnlockReleaseBuffer(vp.buffer);
		return;
	}
	if (PaxPageGetHeader(vp.page)->pp_flags & PAX_PAGE_HEADERS)
	{
		/* a compact page's header page: changed through that page only */
		vs->nonempty_pages = blkno + 1;
		UnlockReleaseBuffer(vp.buffer);
		return;
	}
	vp.rowhdrs = PaxPageRowHeaders(rel, vp.page, blkno);
	vp.nrows = PaxPageGetHeader(vp.page)->pp_nrows;
	vp.nleft = 0;
	vp.all_visible = vp.all_frozen = true;
	vp.changes = vp.clear_layout_xid = false;
	vp.nfreeze = 0;
	vp.nshare = 0;
	vp.visibility_cutoff = InvalidTransactionId;
#if PG_VERSION_NUM >= 160000
	vp.pagefrz.freeze_required = false;
	vp.pagefrz.FreezePageRelfrozenXid = vs->new_frozen_xid;
	vp.pagefrz.FreezePageRelminMxid = vs->new_min_mxid;
	vp.pagefrz.NoFreezePageRelfrozenXid = vs->new_frozen_xid;
	vp.pagefrz.NoFreezePageRelminMxid = vs->new_min_mxid;
#endif

	for (int r = 0; r < vp.nrows; r++)
		PaxVacJudgeRow(vs, &vp, r);
	if (PaxPageHasTidMap(vp.page))
	{
		for (int off = 1; off <= PaxPageMaxTid(vp.page); off++)
			PaxVacJudgeItem(vs, &vp, off);
		/* the index passes bsearch the TIDs: slots are not in TID order */
		qsort(&vs->dead_items->items[first_dead],
			  vs->dead_items->num_items - first_dead,
			  sizeof(ItemPointerData), PaxVacTidCmp);
	}
	PaxVacLayoutXid(vs, &vp);
	PaxVacDecideFreeze(vs, &vp);

	if (vp.changes || vp.nfreeze > 0 ||
		(vp.all_visible && vp.nrows > 0 && !PageIsAllVisible(vp.page)))
		PaxVacApplyChanges(vs, &vp);

	if (vp.all_visible && vp.nrows > 0)
	{
		uint8		flags = VISIBILITYMAP_ALL_VISIBLE;

		if (vp.all_frozen)
			flags |= VISIBILITYMAP_ALL_FROZEN;
		visibilitymap_pin(rel, blkno, &vs->vmbuffer);
		if ((visibilitymap_get_status(rel, blkno, &vs->vmbuffer) & flags) != flags)
			PaxVisibilityMapSet(rel, blkno, vp.buffer, vs->vmbuffer,
								vp.visibility_cutoff, flags);
		vs->all_visible_pages++;
	}
	if (vp.nleft > 0)
		vs->nonempty_pages = blkno + 1;

	if (vs->dead_items->num_items > first_dead && vs->nindexes == 0)
	{
		/* no index points at the dead rows: reclaim them now */
		LockBuffer(vp.buffer, BUFFER_LOCK_UNLOCK);
		PaxVacReclaimPage(vs, vp.buffer, &vs->dead_items->items[first_dead],
						  vs->dead_items->num_items - first_dead);
		vs->dead_items->num_items = first_dead;
		ReleaseBuffer(vp.buffer);
		return;
	}
	if (vs->dead_items->num_items == first_dead)
	{
		Size		avail = PaxFsmValue(rel, vp.page);

		UnlockReleaseBuffer(vp.buffer);
		RecordPageWithFreeSpace(rel, blkno, avail);
		return;
	}
	/* reclaimed after the index pass; the free space is recorded then */
	UnlockReleaseBuffer(vp.buffer);
}
