/*-------------------------------------------------------------------------
 *
 * pax_prune.c
 *	  Pruning a row-form pax page: dead versions of HOT chains freed at
 *	  once, dead rows reduced to items, without waiting for VACUUM.
 *
 * A reader that finds a page nearly full (no free row slot, or little room
 * in its value area) and whose pd_prune_xid says some row may be dead to
 * everyone prunes it, as heap_page_prune_opt does, when it can get the
 * cleanup lock at once: dead heap-only versions become UNUSED slots (no
 * index entry points at them), the dead root of a chain that goes on
 * becomes a REDIRECT to the first version still needed, and a dead row
 * (or a chain dead to its end) becomes a DEAD item, whose index entries
 * VACUUM removes.  Their values are freed and the value area compacted, in
 * one WAL record (PaxPagePruneApply).  VACUUM prunes each page it can
 * cleanup-lock the same way before judging its rows.  pax_am/README.update
 * describes the design.
 *
 * pax_am/pax_prune.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heapam_xlog.h"
#include "access/htup_details.h"
#include "access/transam.h"
#include "access/xlog.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_tableam.h"
#include "pax_tidmap.h"

/* The state of one page's pruning; adapted from PruneState in pruneheap.c. */
typedef struct PaxPruneState
{
	Relation	rel;
	Page		page;
	BlockNumber blkno;
	uint16		rowhdrs;
	int			nrows;
	int			maxtid;			/* PaxPageMaxTid */
	TransactionId new_prune_xid;	/* the page's next pd_prune_xid */
	TransactionId horizon;		/* newest xid of the DEAD rows' headers */
	HTSV_Result htsv[PAX_MAX_CAPACITY];	/* by slot */
	bool		marked[PAX_MAX_CAPACITY];	/* by TID offset - 1: planned */
	PaxPrunePlan plan;
} PaxPruneState;

/*
 * PaxPageWantsPrune tells whether a page is one pruning may help: a valid
 * row-form page an UPDATE left (PD_PAGE_FULL, heap's hint), or nearly
 * full, with at most a tenth of its row slots free
 * (never used: UNUSED ones are free already) or at most a tenth of its
 * value area left (heap's "less than 10% free", pruneheap.c, on either of
 * the two things a pax row needs); a compact page always (it takes no new
 * rows, full or not).  Read without a lock by PaxPagePruneOpt first (as
 * heap's PageIsFull), then again under the cleanup lock.
 */
static bool
PaxPageWantsPrune(Page page)
{
	PageHeader	phdr = (PageHeader) page;
	PaxPageHeader hdr;

	if (PageIsNew(page) || !PaxPageHeaderIsValid(page))
		return false;
	hdr = PaxPageGetHeader(page);
	if (hdr->pp_flags & PAX_PAGE_HEADERS)
		return false;
	if (hdr->pp_flags & PAX_PAGE_COMPACT)
		return hdr->pp_nrows > 0 && hdr->pp_nrows <= hdr->pp_capacity;
	if (PageIsFull(page) || !PaxPageHasFreeSlot(page) ||
		(!(hdr->pp_flags & PAX_PAGE_HAS_UNUSED) &&
		 hdr->pp_capacity - hdr->pp_nrows <= hdr->pp_capacity / 10))
		return true;
	return phdr->pd_lower <= phdr->pd_upper &&
		phdr->pd_upper <= phdr->pd_special &&
		phdr->pd_upper < phdr->pd_special &&
		(phdr->pd_upper - phdr->pd_lower) * 10 <
		phdr->pd_special - phdr->pd_lower;
}

/*
 * PaxPagePruneOpt prunes the buffer's page (pinned, not locked) when that
 * is worth it and cheap: pd_prune_xid names an xid every snapshot sees as
 * ended, the page is nearly full, and its cleanup lock is free at once.
 * Index fetches, bitmap scans and table scans call it on each page they
 * come to, before they lock it.  Adapted from heap_page_prune_opt() in
 * pruneheap.c, PostgreSQL 15.
 */
void
PaxPagePruneOpt(Relation rel, Buffer buffer)
{
	Page		page = BufferGetPage(buffer);
	TransactionId prune_xid = ((PageHeader) page)->pd_prune_xid;
	GlobalVisState *vistest;

	/* a standby's pages change only by replay */
	if (!TransactionIdIsValid(prune_xid) || RecoveryInProgress())
		return;
	vistest = GlobalVisTestFor(rel);
	if (!GlobalVisTestIsRemovableXid(vistest, prune_xid))
		return;
	if (!PaxPageWantsPrune(page))
		return;

	/*
	 * Not under ALTER TABLE's rewrite, whose scan reads pages laid out for
	 * the old columns while the relation has the new ones (it holds the
	 * relation AccessExclusive, as every rewrite does).
	 */
	if (CheckRelationLockedByMe(rel, AccessExclusiveLock, true))
		return;
	if (!ConditionalLockBufferForCleanup(buffer))
		return;
	if (PaxPageWantsPrune(page))
		PaxPagePrune(rel, buffer, InvalidTransactionId, vistest);
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
}

/* PaxPruneRecord adds TID offset off to one of the plan's lists, marked. */
static void
PaxPruneRecord(PaxPruneState *ps, OffsetNumber *list, int *n, int off)
{
	Assert(off >= 1 && off <= PAX_MAX_CAPACITY && !ps->marked[off - 1]);
	list[(*n)++] = off;
	ps->marked[off - 1] = true;
}

/*
 * PaxPruneRemove plans the removal of the dead heap-only version in slot
 * slot, TID offset off: a free TID (and slot), or a DEAD item when stale
 * index entries may name it (PaxRowHasStaleEntries), which VACUUM must
 * remove first.
 */
static void
PaxPruneRemove(PaxPruneState *ps, int off, int slot)
{
	if (PaxRowHasStaleEntries(PaxRowHeader(ps->page, ps->rowhdrs, slot)))
		PaxPruneRecord(ps, ps->plan.dead, &ps->plan.ndead, off);
	else
		PaxPruneRecord(ps, ps->plan.unused, &ps->plan.nunused, off);
}

/*
 * PaxPrunePrunable notes an xid whose end may make a row of the page dead:
 * the page's next pd_prune_xid is the oldest such.
 */
static void
PaxPrunePrunable(PaxPruneState *ps, TransactionId xid)
{
	if (!TransactionIdIsValid(ps->new_prune_xid) ||
		TransactionIdPrecedes(xid, ps->new_prune_xid))
		ps->new_prune_xid = xid;
}

/*
 * PaxPruneChain plans the pruning of the HOT chain whose root is TID offset
 * root (a row that is not heap-only, or a REDIRECT): the DEAD versions at
 * its start go, the root becoming a REDIRECT to the first version left or,
 * when none is left, a DEAD item.  A heap-only version no chain reaches
 * (an aborted update's, or one whose root went before) goes when it is
 * DEAD and ends its chain.  The chain is followed by TID offsets, which
 * name rows and items alike (PaxTidWhat).  Adapted from heap_prune_chain()
 * in pruneheap.c, PostgreSQL 15.
 */
static void
PaxPruneChain(PaxPruneState *ps, int root)
{
	TransactionId prior_xmax = InvalidTransactionId;
	int			chain[PAX_MAX_CAPACITY];
	int			nchain = 0;
	int			latestdead = 0;
	int			cur = root;
	int			rslot;
	int			rtarget;
	PaxTidKind	rkind = PaxTidWhat(ps->page, ps->rowhdrs, root, &rslot,
								   &rtarget);

	if (rkind == PAX_TIDK_ROW)
	{
		HeapTupleHeader rhdr = PaxRowHeader(ps->page, ps->rowhdrs, rslot);

		if (HeapTupleHeaderIsHeapOnly(rhdr))
		{
			if (ps->htsv[rslot] == HEAPTUPLE_DEAD &&
				!HeapTupleHeaderIsHotUpdated(rhdr))
				PaxPruneRemove(ps, root, rslot);
			return;
		}
	}
	else if (rkind != PAX_TIDK_REDIRECT)
		return;					/* nothing, or a DEAD item */

	while (cur >= 1 && cur <= ps->maxtid && !ps->marked[cur - 1] &&
		   nchain < ps->maxtid)
	{
		HeapTupleHeader hdr;
		int			slot;
		int			target;
		PaxTidKind	kind = PaxTidWhat(ps->page, ps->rowhdrs, cur, &slot,
									  &target);
		bool		dead = false;
		bool		recent = false;

		if (kind != PAX_TIDK_ROW)
		{
			if (kind != PAX_TIDK_REDIRECT || nchain > 0)
				break;
			chain[nchain++] = cur;
			cur = target;
			continue;
		}
		hdr = PaxRowHeader(ps->page, ps->rowhdrs, slot);
		if (cur != root && !HeapTupleHeaderIsHeapOnly(hdr))
			break;
		if (TransactionIdIsValid(prior_xmax) &&
			!TransactionIdEquals(HeapTupleHeaderGetXmin(hdr), prior_xmax))
			break;
		chain[nchain++] = cur;

		switch (ps->htsv[slot])
		{
			case HEAPTUPLE_DEAD:
				dead = true;
				break;
			case HEAPTUPLE_RECENTLY_DEAD:
				recent = true;
				PaxPrunePrunable(ps, HeapTupleHeaderGetUpdateXid(hdr));
				break;
			case HEAPTUPLE_DELETE_IN_PROGRESS:
				PaxPrunePrunable(ps, HeapTupleHeaderGetUpdateXid(hdr));
				break;
			default:
				break;
		}

		/*
		 * Past RECENTLY_DEAD versions in case a DEAD one follows, never past
		 * anything else: no DEAD version may keep its values.
		 */
		if (dead)
			latestdead = cur;
		else if (!recent)
			break;
		if (!HeapTupleHeaderIsHotUpdated(hdr) ||
			ItemPointerGetBlockNumber(&hdr->t_ctid) != ps->blkno)
			break;
		prior_xmax = HeapTupleHeaderGetUpdateXid(hdr);
		cur = ItemPointerGetOffsetNumber(&hdr->t_ctid);
	}

	if (latestdead > 0)
	{
		int			i;

		for (i = 1; i < nchain && chain[i - 1] != latestdead; i++)
			PaxPruneRemove(ps, chain[i],
						   PaxTidSlot(ps->page, ps->rowhdrs, chain[i]));
		if (i >= nchain)
			PaxPruneRecord(ps, ps->plan.dead, &ps->plan.ndead, root);
		else
		{
			ps->plan.redirect_to[ps->plan.nredirect] = chain[i];
			PaxPruneRecord(ps, ps->plan.redirect_from, &ps->plan.nredirect,
						   root);
		}
	}
	else if (nchain < 2 && rkind == PAX_TIDK_REDIRECT)
	{
		/* a REDIRECT whose chain went: its entries must go too */
		PaxPruneRecord(ps, ps->plan.dead, &ps->plan.ndead, root);
	}
}

/*
 * PaxPruneIsFutile tells whether pruning the page could free nothing, so
 * that its rows need not be judged: a row-form page at the most slots a
 * page has (PAX_MAX_CAPACITY), none free, without a heap-only version.
 * Its dead rows could only become DEAD items, which free no slot (a chain
 * root's REDIRECT and a dead heap-only version's UNUSED slot need a
 * heap-only version), and it cannot be laid out with more slots: PaxPagePrune
 * would leave it as it is.  Every UPDATE of a row of such a page
 * (pgbench_accounts' after COPY) would otherwise have the next reader judge
 * all 291 rows in vain.
 */
static bool
PaxPruneIsFutile(PaxPruneState *ps, const PaxPageLayout *layout)
{
	if (layout->compact || PaxPageHasTidMap(ps->page) ||
		ps->nrows < PAX_MAX_CAPACITY || PaxPageHasFreeSlot(ps->page))
		return false;
	for (int r = 0; r < ps->nrows; r++)
	{
		HeapTupleHeader hdr = PaxRowHeader(ps->page, ps->rowhdrs, r);

		if (!PaxRowIsUnused(hdr) && HeapTupleHeaderIsHeapOnly(hdr))
			return false;
	}
	return true;
}

/* PaxPageHasRedirect tells whether a row-form page has a REDIRECT item. */
static bool
PaxPageHasRedirect(Page page, uint16 rowhdrs)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	if (!(hdr->pp_flags & PAX_PAGE_HAS_ITEMS))
		return false;
	for (int r = 0; r < hdr->pp_nrows; r++)
		if (PaxRowIsRedirect(PaxRowHeader(page, rowhdrs, r)))
			return true;
	return false;
}

/*
 * PaxCompactMayGoRowForm tells whether a compact page could go back to the
 * row form at all, however many of its rows died: in its own shape with a
 * header a row once every value is freed, or laid out plain with a header
 * and the fixed-width values of each row (PaxPruneCompact).  A page that
 * cannot is not judged row by row in vain.  A page of narrow rows (up to
 * 291) goes to its own shape at its first dead row, so that VACUUM's
 * phase 3 finds DEAD items to free into slots for heap-only versions;
 * after that, pruning leaves its full row form alone (PaxPagePrune).
 */
static bool
PaxCompactMayGoRowForm(Page page, const PaxPageLayout *layout,
					   TupleDesc tupdesc)
{
	Size		perrow = PAX_ROWHDR_SIZE;

	if (((PageHeader) page)->pd_lower +
		PaxRowAreaSize(false, layout->capacity) -
		PaxRowAreaSize(true, layout->capacity) <= PAX_SPECIAL_START)
		return true;
	for (int i = 0; i < layout->natts; i++)
		if (layout->cols[i].data != 0 && TupleDescAttr(tupdesc, i)->attlen > 0)
			perrow += TupleDescAttr(tupdesc, i)->attlen;
	return layout->rowhdrs + (Size) PaxPageGetHeader(page)->pp_nrows * perrow <
		PAX_SPECIAL_START;
}

/*
 * PaxPruneCompact carries out the plan of a compact page (its DEAD rows,
 * no chains: no row of a compact page is HOT-updated) when the room they
 * leave holds a header for each row: the page goes back to the row form,
 * its DEAD rows become DEAD items, and its header page, if any, is freed
 * after the page's record.  The row form has free slots when the room
 * allows (PaxPageRegrow), else the compact page's shape
 * (PaxCompactToRowForm, as VACUUM's phase 3 turns it), which a later
 * pruning lays out with free slots once more rows died
 * (PaxCompactMayGoRowForm said it could).  Heap-only versions and inserts
 * can then use the page, as heap's pruned pages.  Otherwise nothing
 * changes: the page's pd_prune_xid becomes the next xid that may make a
 * row dead, so the page is judged again only after another row of it may
 * have died.  Returns whether the page changed.
 */
static bool
PaxPruneCompact(PaxPruneState *ps, Buffer buffer, PaxPageLayout *layout,
				TupleDesc tupdesc)
{
	char	   *scratch = palloc(2 * BLCKSZ);	/* MAXALIGNed, as pages */
	Page		page = scratch;
	Page		page2 = scratch + BLCKSZ;
	BlockNumber hblk = PaxCompactHeaderPage(ps->page, ps->rowhdrs);
	PaxChange	chg;
	Page		copy;

	memcpy(page, ps->page, BLCKSZ);
	(void) PaxPagePruneApply(page, layout, tupdesc, &ps->plan, ps->blkno,
							 ps->rel);
	if (PaxPageRegrow(ps->rel, page, layout, ps->blkno, ps->plan.dead,
					  ps->plan.ndead, 1, page2) ||
		PaxPageRegrowMapped(ps->rel, page, layout, ps->blkno, ps->plan.dead,
							ps->plan.ndead, true, page2))
		page = page2;
	else if (PaxCompactToRowForm(ps->rel, page, layout, ps->blkno))
	{
		for (int k = 0; k < ps->plan.ndead; k++)
			PaxRowHeaderSetItem(PaxRowHeader(page, ps->rowhdrs,
											 ps->plan.dead[k] - 1),
								ps->blkno, -1);
		PaxPageGetHeader(page)->pp_flags |= PAX_PAGE_HAS_ITEMS;
	}
	else
	{
		pfree(scratch);
		((PageHeader) ps->page)->pd_prune_xid = ps->new_prune_xid;
		MarkBufferDirtyHint(buffer, true);
		return false;
	}
	((PageHeader) page)->pd_prune_xid = ps->new_prune_xid;

	copy = PaxChangeStart(&chg, ps->rel, buffer, false);
	PaxChangeRemoves(&chg, true, ps->horizon);
	memcpy(copy, page, BLCKSZ);
	PaxChangeDiffPage(&chg);
	PaxChangeFinish(&chg);
	if (hblk != 0)
		PaxCompactFreeHeaderPage(ps->rel, hblk, NULL);
	pfree(scratch);
	return true;
}

/*
 * PaxPruneRegrow lays a row-form page (pruned or not) out again in *out
 * with more row slots when fewer than an eighth of its slots (at least 2)
 * are free but it has room for more rows (PaxPageRegrow): heap adds line
 * pointers as long as it has room, and a heap-only version needs a slot.
 * Returns whether it did (*out palloc'd, for the caller to free).
 */
static bool
PaxPruneRegrow(PaxPruneState *ps, Page page, PaxPageLayout *layout,
			   Page *out)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	bool		spare = PaxPageFreeSlots(page) >= Max(2, hdr->pp_capacity / 8);

	/*
	 * (a mapped page's items take no slots: it is not laid out again; a
	 * page with slots to spare that an UPDATE left had encodings that did
	 * not take the new version: it may get roomier ones)
	 */
	if (PaxPageHasTidMap(page) ||
		(spare && !(PageIsFull(ps->page) && PaxPageIsEncoded(page))))
		return false;
	*out = palloc(BLCKSZ);
	if ((!spare &&
		 PaxPageRegrow(ps->rel, page, layout, ps->blkno, NULL, 0, 1, *out)) ||
		PaxPageRegrowMapped(ps->rel, page, layout, ps->blkno, NULL, 0, true,
							*out))
		return true;
	pfree(*out);
	return false;
}

/*
 * PaxPruneMakeRoom gives a pruned page (copy, in layout) room for its
 * chains' next versions, or returns a page laid out again for it
 * (palloc'd) or NULL.  REDIRECTs made or kept on a page without a TID
 * map would keep their slots for as long as their chains live: the map
 * frees them (and the DEAD items' slots), in place when the page has room
 * for it, else laid out again; else the page may be laid out with more
 * slots (PaxPruneRegrow).  DEAD items alone wait for VACUUM, which frees
 * their slots (deletes and moved rows): a map would only cost their page
 * its bytes.
 */
static Page
PaxPruneMakeRoom(PaxPruneState *ps, Page copy, PaxPageLayout *layout,
				 TupleDesc tupdesc)
{
	Page		regrown = NULL;

	if (!PaxPageHasTidMap(copy) &&
		PaxPageHasRedirect(copy, layout->rowhdrs) &&
		!PaxTidMapCreate(copy, layout, tupdesc, ps->blkno))
	{
		regrown = palloc(BLCKSZ);
		if (PaxPageRegrowMapped(ps->rel, copy, layout, ps->blkno, NULL, 0,
								false, regrown))
			return regrown;
		pfree(regrown);
		regrown = NULL;
	}
	if (!PaxPruneRegrow(ps, copy, layout, &regrown))
		regrown = NULL;
	return regrown;
}

/*
 * PaxPruneGainsNothing tells whether a pruning is better left to VACUUM
 * than written and logged: it made only DEAD items, laid nothing out
 * again, on an encoded page an UPDATE hinted full because its encodings
 * did not take the version, and
 * none of whose columns keeps values in the value area (PaxInValueArea):
 * the DEAD rows' packed values free nothing a version could use, and the
 * next pruning judges the same rows again, when it may lay the page out
 * in roomier encodings.  (Freed value-area bytes are what a version's
 * text needs, and add up to the room a TID map or more slots take
 * later.)  Asked of pruning on access only: VACUUM's pruning makes the
 * DEAD items it then frees.
 */
static bool
PaxPruneGainsNothing(PaxPruneState *ps, const PaxPageLayout *layout,
					 Page copy)
{
	if (ps->plan.nunused > 0 || ps->plan.nredirect > 0 ||
		!PageIsFull(ps->page) || !PaxPageIsEncoded(copy))
		return false;
	for (int i = 0; i < layout->natts; i++)
		if (PaxInValueArea(&layout->cols[i]))
			return false;
	return true;
}

/*
 * PaxPruneWrite carries out a pruning's plan (pruned) or a page laid out
 * again (regrown, palloc'd, freed here) on the buffer's page in one WAL
 * record, and returns true; or false, nothing written, when a pruning on
 * access gains nothing (PaxPruneGainsNothing).
 */
static bool
PaxPruneWrite(PaxPruneState *ps, Buffer buffer, PaxPageLayout *layout,
			  bool pruned, Page regrown, TransactionId oldest_xmin)
{
	PaxChange	chg;
	Page		copy = PaxChangeStart(&chg, ps->rel, buffer, false);
	PageHeader	phdr = (PageHeader) copy;
	bool		moved = false;

	if (pruned)
	{
		moved = PaxPagePruneApply(copy, layout, RelationGetDescr(ps->rel),
								  &ps->plan, ps->blkno, ps->rel);
		regrown = PaxPruneMakeRoom(ps, copy, layout, RelationGetDescr(ps->rel));
		/* (a TID map made in place moved the value area below it) */
		moved |= PaxPageHasTidMap(copy) && !PaxPageHasTidMap(ps->page);
		if (regrown == NULL && !TransactionIdIsValid(oldest_xmin) &&
			PaxPruneGainsNothing(ps, layout, copy))
			return false;		/* the page keeps its rows for VACUUM */
	}
	if (regrown != NULL)
	{
		memcpy(copy, regrown, BLCKSZ);
		pfree(regrown);
		moved = true;
	}

	/*
	 * Only a change that moved values needs the cleanup lock at replay: the
	 * rows whose slots it freed were dead to every snapshot that replay
	 * leaves running (PaxChangeRemoves).
	 */
	PaxChangeRemoves(&chg, moved, pruned ? ps->horizon : InvalidTransactionId);
	phdr->pd_prune_xid = ps->new_prune_xid;
	PageClearFull(copy);
	if (moved)
		PaxChangeDiffPage(&chg);
	else
	{
		/* slots, headers and the TID map changed; the value area did not */
		PaxChangeDiff(&chg, 0, phdr->pd_lower);
		PaxChangeDiff(&chg, phdr->pd_special, BLCKSZ - phdr->pd_special);
	}
	PaxChangeFinish(&chg);
	return true;
}

/*
 * PaxPagePrune prunes the buffer's page, which the caller holds
 * cleanup-locked: each row is judged against oldest_xmin (VACUUM's) or,
 * when that is invalid, vistest (GlobalVisTestFor's horizons), every chain
 * pruned (PaxPruneChain) and the plan carried out in one WAL record.  The
 * page's pd_prune_xid becomes the oldest xid whose end may make one of the
 * rows left dead.  Returns the rows whose slots became UNUSED (the dead
 * heap-only versions; rows become DEAD items are VACUUM's to count).
 * Adapted from heap_page_prune() in pruneheap.c, PostgreSQL 15.
 */
int
PaxPagePrune(Relation rel, Buffer buffer, TransactionId oldest_xmin,
			 GlobalVisState *vistest)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPruneState *ps = palloc(sizeof(PaxPruneState));
	PaxLayoutCache cache;
	PaxPageLayout *layout;
	Page		regrown = NULL;
	bool		pruned;
	bool		written;
	int			nunused;

	ps->rel = rel;
	ps->page = BufferGetPage(buffer);
	ps->blkno = BufferGetBlockNumber(buffer);
	ps->nrows = PaxPageGetHeader(ps->page)->pp_nrows;
	ps->maxtid = PaxPageMaxTid(ps->page);
	ps->new_prune_xid = InvalidTransactionId;
	ps->horizon = InvalidTransactionId;
	ps->plan.nunused = ps->plan.ndead = ps->plan.nredirect = 0;
	memset(ps->marked, 0, sizeof(ps->marked));
	Assert(ps->nrows <= PAX_MAX_CAPACITY);

	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
	layout = PaxPageGetLayout(rel, tupdesc, ps->page, ps->blkno, &cache);
	ps->rowhdrs = layout->rowhdrs;
	if ((layout->compact && !PaxCompactMayGoRowForm(ps->page, layout, tupdesc)) ||
		(!TransactionIdIsValid(oldest_xmin) && PaxPruneIsFutile(ps, layout)))
	{
		/*
		 * Nothing pruning could do here (VACUUM frees its rows); the next
		 * change of one of its rows names the page again (PageSetPrunable).
		 */
		((PageHeader) ps->page)->pd_prune_xid = InvalidTransactionId;
		MarkBufferDirtyHint(buffer, true);
		PaxLayoutCacheFree(&cache);
		pfree(ps);
		return 0;
	}

	for (int r = 0; r < ps->nrows; r++)
	{
		HeapTupleData tuple;
		TransactionId dead_after = InvalidTransactionId;

		if (PaxRowUnused(ps->page, ps->rowhdrs, r))
			continue;
		PaxRowTuple(&tuple, rel, ps->page, ps->rowhdrs, ps->blkno, r);
		PaxPageCheckRowNatts(rel, ps->page, ps->blkno, tuple.t_data);
		if (TransactionIdIsValid(oldest_xmin))
			ps->htsv[r] = PaxRowVacuumStatus(&tuple, oldest_xmin, buffer, NULL);
		else
		{
			ps->htsv[r] = HeapTupleSatisfiesVacuumHorizon(&tuple, buffer,
														  &dead_after);
			if (ps->htsv[r] == HEAPTUPLE_RECENTLY_DEAD &&
				GlobalVisTestIsRemovableXid(vistest, dead_after))
				ps->htsv[r] = HEAPTUPLE_DEAD;
		}
		if (ps->htsv[r] == HEAPTUPLE_DEAD)
			PaxAdvanceConflictHorizon(tuple.t_data, &ps->horizon);
		if (!layout->compact)
			continue;
		/* a compact page's rows are never HOT-updated: each is a chain */
		if (ps->htsv[r] == HEAPTUPLE_DEAD)
			PaxPruneRecord(ps, ps->plan.dead, &ps->plan.ndead, r + 1);
		else if (ps->htsv[r] == HEAPTUPLE_RECENTLY_DEAD ||
				 ps->htsv[r] == HEAPTUPLE_DELETE_IN_PROGRESS)
			PaxPrunePrunable(ps, HeapTupleHeaderGetUpdateXid(tuple.t_data));
	}
	if (layout->compact)
	{
		if (ps->plan.ndead > 0)
			(void) PaxPruneCompact(ps, buffer, layout, tupdesc);
		else if (((PageHeader) ps->page)->pd_prune_xid != ps->new_prune_xid)
		{
			((PageHeader) ps->page)->pd_prune_xid = ps->new_prune_xid;
			MarkBufferDirtyHint(buffer, true);
		}
		PaxLayoutCacheFree(&cache);
		pfree(ps);
		return 0;
	}
	for (int off = 1; off <= ps->maxtid; off++)
		if (!ps->marked[off - 1])
			PaxPruneChain(ps, off);

	nunused = ps->plan.nunused;
	pruned = ps->plan.nunused + ps->plan.ndead + ps->plan.nredirect > 0;

	/*
	 * Rows that would only become DEAD items on a page with every slot
	 * taken and no slot to add (PAX_MAX_CAPACITY) gain nothing before
	 * VACUUM: no slot frees, and freed values serve no new row.  They are
	 * left to VACUUM, and pd_prune_xid no longer names them.
	 */
	if (pruned && ps->plan.nunused == 0 && ps->plan.nredirect == 0 &&
		ps->nrows >= PAX_MAX_CAPACITY && !PaxPageHasFreeSlot(ps->page) &&
		!PaxPageHasTidMap(ps->page))
		pruned = false;
	written = (pruned || PaxPruneRegrow(ps, ps->page, layout, &regrown)) &&
		PaxPruneWrite(ps, buffer, layout, pruned, regrown, oldest_xmin);
	if (!written &&
		(((PageHeader) ps->page)->pd_prune_xid != ps->new_prune_xid ||
		 PageIsFull(ps->page)))
	{
		/* nothing written: the new pd_prune_xid is a hint, as heap's */
		((PageHeader) ps->page)->pd_prune_xid = ps->new_prune_xid;
		PageClearFull(ps->page);
		MarkBufferDirtyHint(buffer, true);
	}
	PaxLayoutCacheFree(&cache);
	pfree(ps);
	return nunused;
}
