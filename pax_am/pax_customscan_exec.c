/*-------------------------------------------------------------------------
 *
 * pax_customscan_exec.c
 *	  The executor side of PaxScan: the plain scan's callbacks, the page
 *	  loop that the aggregate mode shares, prefetching, and the parallel
 *	  scan's DSM callbacks.
 *
 * For each page, the zone maps are checked first (a page whose min/max
 * refutes a pushed predicate is skipped without touching its minipages);
 * then the early predicates (typed loops over fixed-width minipages,
 * pax_filter.c) filter the selection vector of every stored row, only the
 * rows left are checked for visibility, the late predicates filter the
 * visible ones, and only the rows left are materialised into a virtual
 * slot, with only the needed columns, for the remaining quals and the
 * projection.  The page loop (PaxScanNextPage) also serves the aggregate
 * mode of pax_aggscan.c.
 *
 * The constant side of a predicate may be any expression without Vars of
 * the scanned relation and without volatile functions.  Constants and
 * parameters supplied from outside ($n of prepared statements) are
 * evaluated at scan start and again on rescan; anything else (nestloop
 * parameters, initplans, stable functions) when a visible row first
 * reaches the predicate (pax_pushdown_clauses.c, PaxPredIsLazy).  Parallel scans
 * share counters and a recent-buffer map (PaxScanShared).
 *
 * The executor state is made by PaxScanCreateState (pax_customscan_plan.c),
 * whose executor methods name the callbacks of this file.
 *
 * pax_am/pax_customscan_exec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/tableam.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

/* ----------------------------------------------------------------
 * Executor
 * ----------------------------------------------------------------
 */

/*
 * PaxScanBeginPreds sets up what the plain scan and the aggregate mode
 * share: the predicates of the pushed clauses (Vars of relation varno;
 * zone_ok as in PaxPredsInit), the EvalPlanQual recheck, the layout cache.
 * The scan relation is open.
 */
void
PaxScanBeginPreds(PaxScanState *state, List *clauses, Index varno,
				  List *zone_ok)
{
	EState	   *estate = state->css.ss.ps.state;
	CustomScan *cscan = (CustomScan *) state->css.ss.ps.plan;
	TupleDesc	tupdesc = RelationGetDescr(state->css.ss.ss_currentRelation);
	ListCell   *lc;

	state->predcxt = AllocSetContextCreate(estate->es_query_cxt,
										   "PaxScan predicate values",
										   ALLOCSET_SMALL_SIZES);
	state->preds = PaxPredsInit(clauses, varno, zone_ok, tupdesc,
								&state->css.ss.ps, &state->secure);
	state->has_early = state->has_late = state->has_last = false;
	foreach(lc, state->preds)
	{
		PaxPred    *pred = lfirst(lc);

		if (pred->early)
			state->has_early = true;
		else if (pred->last)
			state->has_last = true;
		else
			state->has_late = true;
	}
	state->recheck = ExecInitQual(cscan->custom_exprs, &state->css.ss.ps);
	PaxLayoutCacheInit(&state->lcache, tupdesc->natts, estate->es_query_cxt);
	state->nsel = 0;
	state->cur = -1;
}

/*
 * PaxScanBegin initialises a plain PaxScan (BeginCustomScan): custom_exprs
 * holds the pushed clauses, custom_private the columns to read and, per
 * pushed clause, whether it may skip pages by zone maps (PaxScanPlan).
 */
void
PaxScanBegin(CustomScanState *node, EState *estate, int eflags)
{
	PaxScanState *state = (PaxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	tupdesc = RelationGetDescr(node->ss.ss_currentRelation);
	List	   *projected = linitial(cscan->custom_private);
	ListCell   *lc;
	int			i = 0;

	Assert(cscan->scan.scanrelid != 0 &&
		   list_length(cscan->custom_private) == 3);

	/*
	 * An EvalPlanQual recheck hands the scan a row in a pax slot, not in our
	 * virtual scan slot: the projection and quals, compiled for a virtual
	 * slot whose values are always all there, must deform it instead.
	 */
	if (estate->es_epq_active != NULL)
	{
		node->ss.ps.scanopsfixed = false;
		ExecAssignScanProjectionInfoWithVarno(&node->ss, cscan->scan.scanrelid);
		node->ss.ps.qual = ExecInitQual(cscan->scan.plan.qual, &node->ss.ps);
	}

	state->projected = palloc(sizeof(int) * Max(list_length(projected), 1));
	foreach(lc, projected)
	{
		/* PaxScanPlan lists them ascending, within the relation */
		Assert(lfirst_int(lc) >= 1 && lfirst_int(lc) <= tupdesc->natts);
		Assert(lfirst_int(lc) > state->max_attno);
		state->projected[i++] = lfirst_int(lc) - 1;
		state->max_attno = Max(state->max_attno, lfirst_int(lc));
	}
	state->nprojected = i;

	state->fast_len = palloc0(sizeof(int16) * Max(i, 1));
	state->fast_data = palloc0(sizeof(uint16) * Max(i, 1));
	state->fast_width = palloc0(sizeof(uint8) * Max(i, 1));
	state->fast_nulls = palloc0(sizeof(uint16) * Max(i, 1));

	state->report = PaxHooks == NULL ? NULL : PaxHooks->report_read;

	PaxScanBeginPreds(state, cscan->custom_exprs, cscan->scan.scanrelid,
					  lsecond(cscan->custom_private));
	memset(node->ss.ss_ScanTupleSlot->tts_isnull, true,
		   sizeof(bool) * tupdesc->natts);
	memset(node->ss.ss_ScanTupleSlot->tts_values, 0,
		   sizeof(Datum) * tupdesc->natts);
}

/*
 * PaxScanStart opens the table scan (unless the parallel setup did) and
 * evaluates the predicates' values: at the first row, and after a rescan.
 */
void
PaxScanStart(PaxScanState *state)
{
	EState	   *estate = state->css.ss.ps.state;

	if (state->scan == NULL && state->nostats)
	{
		Relation	rel = state->css.ss.ss_currentRelation;

		/* not a sequential scan to the statistics or to SSI */
		state->scan = (PaxTableScanDesc)
			rel->rd_tableam->scan_begin(rel, estate->es_snapshot, 0, NULL,
										NULL, SO_ALLOW_PAGEMODE);
	}
	else if (state->scan == NULL)
		state->scan = (PaxTableScanDesc)
			table_beginscan(state->css.ss.ss_currentRelation,
							estate->es_snapshot, 0, NULL);
	state->started = true;
	state->count_read = !state->nostats &&
		pgstat_should_count_relation(state->scan->rs_base.rs_rd);
	MemoryContextReset(state->predcxt);
	PaxPredsStart(state->preds, state->css.ss.ps.ps_ExprContext,
				  state->predcxt);
	state->lazy_pending = PaxPredsLazyPending(state->preds);
}

/* PaxPrefetchRange hints the CPU to load bytes [off, off + len) of a page. */
static inline void
PaxPrefetchRange(const char *page, int off, int len)
{
	/* the first lines are what a page's rows need */
	len = Min(len, PAX_PREFETCH_MAX_BYTES);
	for (int b = 0; b < len; b += PAX_CACHE_LINE_SIZE)
		__builtin_prefetch(page + off + b);
}

/*
 * PaxScanPrefetchValues asks the CPU to load the variable-length values of
 * the projected columns of the rows just selected: they lie scattered over
 * the value area, and loading them one row at a time as the executor asks
 * for them serialises a cache miss per value.
 */
static void
PaxScanPrefetchValues(PaxScanState *state, Page page)
{
	const PaxPageLayout *layout = state->layout;

	for (int k = 0; k < state->nprojected; k++)
	{
		int			a = state->projected[k];

		if (a >= layout->natts || layout->cols[a].attlen >= 0 ||
			layout->cols[a].data == 0 || PaxInMinipage(&layout->cols[a]))
			continue;
		for (int i = 0; i < state->nsel; i++)
		{
			uint16		off = PaxVarOffset(page, &layout->cols[a], state->sel[i]);

			if (off != 0 && off < BLCKSZ)
				__builtin_prefetch(page + off);
		}
	}
}

/*
 * PaxScanPrefetchNext pins the page a forward scan reads next and asks the
 * CPU to start loading what the scan will read of it (headers, zone maps,
 * the special space, and the minipages of the pushed and projected columns
 * at the offsets of the current page's layout, the commonest case), so that
 * the loads overlap with the work on the current page's rows instead of
 * stalling the next PaxScanNextPage: after pushdown, a scan's time goes
 * mostly to such stalls.  It runs for every page read, as soon as the page
 * is unlocked, whether or not any of its rows qualify: a selective scan
 * passes over most pages without a row, and would stall on each of them
 * if it ran only for pages with rows.
 */
static void
PaxScanPrefetchNext(PaxScanState *state)
{
	BlockNumber next = ScanDirectionIsForward(state->dir) ?
		PaxTableScanPeekNextBlock(state->scan) : InvalidBlockNumber;
	const PaxPageLayout *layout = state->layout;
	const char *page;
	ListCell   *lc;

	if (next == InvalidBlockNumber)
		return;
	page = PaxTableScanPinAhead(state->scan, next);
	if (state->scan->rs_base.rs_parallel == NULL)
		PaxPrefetchBufferHeader(state->scan, next + 1);
	PaxPrefetchRange(page, 0, layout->rowhdrs);
	/* the special space, whose magic number verification reads */
	__builtin_prefetch(page + PAX_SPECIAL_START);
	foreach(lc, state->preds)
	{
		PaxPred    *pred = lfirst(lc);

		if (pred->attno >= 0 && pred->attno < layout->natts &&
			layout->cols[pred->attno].data != 0)
		{
			const PaxColumnLayout *col = &layout->cols[pred->attno];

			if (col->nullmap)
				__builtin_prefetch(page + col->nullmap);
			PaxPrefetchRange(page, col->data,
							 PaxMinipageBytes(col, layout->capacity));
		}
	}
	for (int k = 0; k < state->nprojected; k++)
	{
		int			a = state->projected[k];

		if (state->fast_len[k] > 0)
			PaxPrefetchRange(page, state->fast_data[k],
							 PaxMinipageBytes(&layout->cols[a], layout->capacity));
		else if (a < layout->natts && layout->cols[a].data != 0 &&
				 layout->cols[a].attlen < 0)
			PaxPrefetchRange(page, layout->cols[a].data,
							 PaxMinipageBytes(&layout->cols[a], layout->capacity));
	}
}

/*
 * PaxScanFilter applies the pushed predicates of one phase to the
 * selection vector sel[0..n) of the current page and returns how many rows
 * are left.  It is called for each phase on each page: it does not call out
 * when there is nothing to do.
 */
static inline int
PaxScanFilter(PaxScanState *state, Page page, TupleDesc tupdesc, int n,
			  PaxPredPhase phase)
{
	if (n == 0 || !(phase == PAX_PHASE_EARLY ? state->has_early :
					phase == PAX_PHASE_LATE ? state->has_late : state->has_last))
		return n;
	return PaxPredsFilter(state->preds, phase, page, state->layout, tupdesc,
						  state->sel, n, state->css.ss.ps.ps_ExprContext,
						  state->predcxt);
}

/*
 * PaxCountRead adds n rows to the relation's seq_tup_read, as
 * pgstat_count_heap_getnext() does per row in heap_getnextslot() (heapam.c,
 * PostgreSQL 15).
 */
static inline void
PaxCountRead(PaxScanState *state, int n)
{
	Relation	rel = state->scan->rs_base.rs_rd;

	if (n > 0 && pgstat_should_count_relation(rel))
		PaxCountTuplesReturned(rel, n);
}

/*
 * PaxCountReturned counts the visible rows of the current page that heap's
 * scan steps over to return row (visible), in the scan's direction.
 */
static inline void
PaxCountReturned(PaxScanState *state, int row, bool forward)
{
	int			pos = state->allvis_pos;

	if (!state->count_read)
		return;
	if (state->allvis_all)
		pos = row;
	else if (forward)
	{
		while (pos + 1 < state->nallvis && state->allvis[pos + 1] <= row)
			pos++;
	}
	else
	{
		while (pos - 1 >= 0 && state->allvis[pos - 1] >= row)
			pos--;
	}
	PaxCountRead(state, forward ? pos - state->allvis_pos : state->allvis_pos - pos);
	state->allvis_pos = pos;
}

/*
 * PaxCountRest counts the rows heap's scan steps over to leave the current
 * page in the scan's direction.
 */
static inline void
PaxCountRest(PaxScanState *state, bool forward)
{
	if (state->nallvis > 0)
		PaxCountRead(state, forward ? state->nallvis - 1 - state->allvis_pos :
					 state->allvis_pos);
	state->nallvis = 0;
	state->allvis_pos = -1;
}

/*
 * PaxCountPage lists the current page's visible rows for seq_tup_read
 * (cand: the rows whose visibility the scan checked, see
 * PaxTableScanVisibleAll).  The page is share-locked.
 */
static void
PaxCountPage(PaxScanState *state, Page page, uint16 rowhdrs,
			 const uint16 *cand, int ncand)
{
	state->nallvis = 0;
	state->allvis_all = false;
	if (!state->count_read)
		return;
	if (PageIsAllVisible(page) &&
		!state->scan->rs_base.rs_snapshot->takenDuringRecovery &&
		!(PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HAS_UNUSED))
	{
		/* the common case, without a pass over the rows */
		state->allvis_all = true;
		state->nallvis = PaxPageGetHeader(page)->pp_nrows;
	}
	else
		state->nallvis = PaxTableScanVisibleAll(state->scan, page, rowhdrs,
										   cand, ncand, state->allvis);
	state->allvis_pos = ScanDirectionIsForward(state->dir) ? -1 : state->nallvis;
}

/*
 * PaxScanSetFastColumns notes which projected columns of the current page
 * PaxScanNext reads inline: by-value, fixed width, stored on the page.
 */
static void
PaxScanSetFastColumns(PaxScanState *state)
{
	for (int k = 0; k < state->nprojected; k++)
	{
		int			a = state->projected[k];
		const PaxColumnLayout *col;

		state->fast_len[k] = 0;
		if (a >= state->layout->natts)
			continue;
		col = &state->layout->cols[a];
		if (col->data == 0 || col->dropped || col->attlen <= 0 || !col->byval)
			continue;
		state->fast_len[k] = col->attlen;
		state->fast_data[k] = col->data;
		state->fast_width[k] = col->width;
		state->fast_nulls[k] = col->nullmap;
	}
}

/*
 * PaxScanNextPage reads pages until one has rows that pass the pushed
 * predicates, leaving them in state->sel (ascending) with the page pinned
 * but not locked; false at the end of the scan.  Used by the plain scan
 * and the aggregate mode.
 */
bool
PaxScanNextPage(PaxScanState *state)
{
	PaxTableScanDesc scan = state->scan;
	Relation	rel = scan->rs_base.rs_rd;
	TupleDesc	tupdesc = RelationGetDescr(rel);

	for (;;)
	{
		BlockNumber blkno = PaxTableScanNextBlock(scan, state->dir);
		Page		page;
		bool		exact;
		int			n;
		int			ncand;

		PaxCountRest(state, ScanDirectionIsForward(state->dir));	/* the page before */
		if (blkno == InvalidBlockNumber)
		{
			PaxTableScanFinish(scan);
			return false;
		}
		page = PaxTableScanLockPage(scan, blkno);
		if (page == NULL)
			continue;
		if (PaxPageIsOrphan(page))
		{
			/* dead rows only: nothing to evaluate or return */
			LockBuffer(scan->rs_cbuf, BUFFER_LOCK_UNLOCK);
			continue;
		}
		state->layout = PaxPageGetLayout(rel, tupdesc, page, blkno, &state->lcache);

		if (pax_enable_zonemaps &&
			PaxPredsRefutePage(state->preds, page, state->layout, tupdesc))
		{
			/* heap would have read (and filtered) its visible rows */
			PaxCountPage(state, page, state->layout->rowhdrs, NULL, 0);
			LockBuffer(scan->rs_cbuf, BUFFER_LOCK_UNLOCK);
			state->pages_skipped++;
			continue;
		}

		n = PaxPageGetHeader(page)->pp_nrows;
		Assert(n <= state->layout->capacity && n <= PAX_MAX_CAPACITY);
		if (PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HAS_UNUSED)
		{
			/* slots VACUUM reclaimed hold no row, and no values to filter */
			int			nall = n;

			n = 0;
			for (int k = 0; k < nall; k++)
				if (!PaxRowUnused(page, state->layout->rowhdrs, k))
					state->sel[n++] = k;
		}
		else
			for (int k = 0; k < n; k++)
				state->sel[k] = k;

		/*
		 * The early predicates (typed loops over fixed-width minipages, safe
		 * for any bytes) run first, over every stored row, and only the rows
		 * that pass are checked for visibility; the others run on visible
		 * rows only, with the page unlocked (values never move while it is
		 * pinned).  Under EXPLAIN ANALYZE visibility comes first, so that
		 * "Rows Removed by Pax Filter" counts visible rows only, as heap's
		 * "Rows Removed by Filter" does.
		 */
		exact = state->css.ss.ps.instrument != NULL;
		if (!exact)
			n = PaxScanFilter(state, page, tupdesc, n, PAX_PHASE_EARLY);
		if (n > 0)
			PaxTableScanCollectVisible(scan, page, state->layout->rowhdrs,
								  state->sel, n);
		else
			scan->rs_nvis = 0;
		PaxCountPage(state, page, state->layout->rowhdrs, state->sel, n);
		LockBuffer(scan->rs_cbuf, BUFFER_LOCK_UNLOCK);
		PaxScanPrefetchNext(state);

		Assert(scan->rs_nvis <= n);
		n = scan->rs_nvis;
		for (int k = 0; k < n; k++)
			state->sel[k] = scan->rs_vis[k];
		ncand = n;
		if (exact)
			n = PaxScanFilter(state, page, tupdesc, n, PAX_PHASE_EARLY);
		if (n > 0 && state->lazy_pending)
		{
			/*
			 * A lazy predicate computes its value when a row first reaches
			 * it, and may raise an error there, as heap's qual does on that
			 * row: count the visible rows heap's scan has read by then, the
			 * seq_tup_read of a statement that fails there.
			 */
			PaxCountReturned(state,
							 ScanDirectionIsForward(state->dir) ?
							 state->sel[0] : state->sel[n - 1],
							 ScanDirectionIsForward(state->dir));
		}
		n = PaxScanFilter(state, page, tupdesc, n, PAX_PHASE_LATE);
		if (state->lazy_pending)
			state->lazy_pending = PaxPredsLazyPending(state->preds);
		if (exact && !state->secure)
			state->rows_removed += ncand - n;
		else if (exact)
			InstrCountFiltered1(&state->css.ss.ps, ncand - n);
		if (state->joinfilters != NIL && n > 0)
			n = PaxJoinFiltersApply(state, page, tupdesc, n);
		if (state->has_last && n > 0)
		{
			ncand = n;
			n = PaxScanFilter(state, page, tupdesc, n, PAX_PHASE_LAST);
			if (exact && !state->secure)
				state->rows_removed += ncand - n;
			else if (exact)
				InstrCountFiltered1(&state->css.ss.ps, ncand - n);
		}
		if (n == 0)
			continue;
		Assert(PaxSelIsValid(state->sel, n, PaxPageGetHeader(page)->pp_nrows));
		state->nsel = n;
		PaxScanSetFastColumns(state);
		PaxScanPrefetchValues(state, page);
		state->cur = ScanDirectionIsForward(state->dir) ? -1 : n;
		return true;
	}
}

/*
 * PaxScanNext returns the next qualifying row, with the needed columns: the
 * access method of ExecScan() for the plain scan.
 */
static TupleTableSlot *
PaxScanNext(ScanState *ss)
{
	PaxScanState *state = (PaxScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	TupleDesc	tupdesc = slot->tts_tupleDescriptor;
	bool		forward;
	int			row;
	Page		page;

	state->dir = ss->ps.state->es_direction;
	forward = ScanDirectionIsForward(state->dir);
	if (!state->started)
		PaxScanStart(state);

	for (;;)
	{
		int			next = forward ? state->cur + 1 : state->cur - 1;

		if (state->scan->rs_cblock != InvalidBlockNumber &&
			next >= 0 && next < state->nsel)
		{
			state->cur = next;
			break;
		}
		if (!PaxScanNextPage(state))
			return ExecClearTuple(slot);
	}

	row = state->sel[state->cur];
	PaxCountReturned(state, row, forward);
	page = BufferGetPage(state->scan->rs_cbuf);
	Assert(row < PaxPageGetHeader(page)->pp_nrows);
	/* columns not read stay NULL (set once in PaxScanBegin) */
	ExecClearTuple(slot);
	for (int k = 0; k < state->nprojected; k++)
	{
		int			a = state->projected[k];
		int16		len = state->fast_len[k];

		Assert(a >= 0 && a < tupdesc->natts);
		if (len == 0)
			PaxPageFillValues(tupdesc, page, state->layout, row, a, a + 1, NULL, 0,
							  slot->tts_values, slot->tts_isnull,
							  PaxDecodeCellsFor(&state->cells, state->layout,
												tupdesc->natts,
												ss->ps.state->es_query_cxt));
		else if (state->fast_nulls[k] != 0 &&
				 PaxBitIsSet((bits8 *) page + state->fast_nulls[k], row))
		{
			slot->tts_values[a] = (Datum) 0;
			slot->tts_isnull[a] = true;
		}
		else
		{
			slot->tts_values[a] = state->fast_width[k] == len ?
				fetch_att(page + state->fast_data[k] + row * len, true, len) :
				PaxFixedValue(page, &state->layout->cols[a], row);
			slot->tts_isnull[a] = false;
		}
	}
	ExecStoreVirtualTuple(slot);
	if (state->report)
		state->report(&ss->ps, state->nprojected, state->max_attno);
	ItemPointerSet(&slot->tts_tid, state->scan->rs_cblock,
				   PaxSlotTid(page, row));
	slot->tts_tableOid = RelationGetRelid(ss->ss_currentRelation);
	return slot;
}

/* PaxScanRecheck evaluates the pushed clauses on an EvalPlanQual row. */
static bool
PaxScanRecheck(ScanState *ss, TupleTableSlot *slot)
{
	PaxScanState *state = (PaxScanState *) ss;
	ExprContext *econtext = ss->ps.ps_ExprContext;

	econtext->ecxt_scantuple = slot;
	return ExecQual(state->recheck, econtext);
}

/* PaxScanExec returns the next row of a plain PaxScan (ExecCustomScan). */
TupleTableSlot *
PaxScanExec(CustomScanState *node)
{
	return ExecScan(&node->ss, PaxScanNext, PaxScanRecheck);
}

/*
 * PaxScanAccumulate adds this participant's counters to the parallel scan's
 * shared ones, and zeroes its own.
 */
static void
PaxScanAccumulate(PaxScanState *state)
{
	if (state->shared)
	{
		pg_atomic_fetch_add_u64(&state->shared->rows_removed, state->rows_removed);
		pg_atomic_fetch_add_u64(&state->shared->pages_skipped, state->pages_skipped);
		pg_atomic_fetch_add_u64(&state->shared->join_removed, state->join_removed);
		state->rows_removed = state->pages_skipped = state->join_removed = 0;
	}
}

/*
 * PaxScanEnd ends a PaxScan, plain or aggregate mode (EndCustomScan).
 */
void
PaxScanEnd(CustomScanState *node)
{
	PaxScanState *state = (PaxScanState *) node;

	PaxScanAccumulate(state);
	ExecClearTuple(node->ss.ss_ScanTupleSlot);
	if (state->scan)
		table_endscan(&state->scan->rs_base);
	state->scan = NULL;
	PaxLayoutCacheFree(&state->lcache);
}

/*
 * PaxScanReScan restarts a PaxScan, plain or aggregate mode
 * (ReScanCustomScan).
 */
void
PaxScanReScan(CustomScanState *node)
{
	PaxScanState *state = (PaxScanState *) node;

	ExecScanReScan(&node->ss);
	if (state->scan)
		table_rescan(&state->scan->rs_base, NULL);
	/* parameters may have changed: evaluate the values again */
	state->started = false;
	state->nsel = 0;
	state->cur = -1;
	state->nallvis = 0;
	state->allvis_pos = -1;
	/* the joins above may build new hash tables */
	PaxJoinFiltersReset(state);
}

/* ----------------------------------------------------------------
 * Parallel scans
 *
 * The DSM callbacks follow ExecSeqScanEstimate(), ExecSeqScanInitializeDSM(),
 * ExecSeqScanReInitializeDSM() and ExecSeqScanInitializeWorker() in
 * nodeSeqscan.c, PostgreSQL 15, with PaxScanShared before the table AM's
 * parallel scan descriptor and the recent-buffer map after it.
 * ----------------------------------------------------------------
 */

/* PaxScanPscanSize is the size of the table AM's parallel scan descriptor. */
static Size
PaxScanPscanSize(CustomScanState *node)
{
	return MAXALIGN(table_parallelscan_estimate(node->ss.ss_currentRelation,
												node->ss.ps.state->es_snapshot));
}

/*
 * PaxScanEstimateDSM sizes the shared state: PaxScanShared, the table AM's
 * parallel scan descriptor, and one recent-buffer map entry per block.
 */
Size
PaxScanEstimateDSM(CustomScanState *node, ParallelContext *pcxt)
{
	PaxScanState *state = (PaxScanState *) node;

	/* no more blocks than shared buffers can be cached at once */
	state->dsm_nbufs = Min(RelationGetNumberOfBlocks(node->ss.ss_currentRelation),
						   Min(NBuffers, PAX_RECENT_BUFFERS_MAX));
	return MAXALIGN(sizeof(PaxScanShared)) + PaxScanPscanSize(node) +
		mul_size(state->dsm_nbufs, sizeof(pg_atomic_uint32));
}

/*
 * PaxScanInitializeDSM sets up the shared state of a parallel scan in the
 * leader: counters, the recent-buffer map seeded from this backend's, and
 * the table AM's parallel scan descriptor.
 */
void
PaxScanInitializeDSM(CustomScanState *node, ParallelContext *pcxt,
					 void *coordinate)
{
	PaxScanState *state = (PaxScanState *) node;
	PaxScanShared *shared = coordinate;
	Relation	rel = node->ss.ss_currentRelation;

	pg_atomic_init_u64(&shared->rows_removed, 0);
	pg_atomic_init_u64(&shared->pages_skipped, 0);
	pg_atomic_init_u64(&shared->join_removed, 0);
	shared->bufs_offset = MAXALIGN(sizeof(PaxScanShared)) + PaxScanPscanSize(node);
	shared->nbufs = state->dsm_nbufs;
	Assert(shared->nbufs <= PAX_RECENT_BUFFERS_MAX);
	PaxSharedBuffersInit(rel, PaxScanSharedBufs(shared), shared->nbufs);
	table_parallelscan_initialize(rel, PaxScanSharedPscan(shared),
								  node->ss.ps.state->es_snapshot);
	state->shared = shared;
	state->scan = (PaxTableScanDesc)
		table_beginscan_parallel(rel, PaxScanSharedPscan(shared));
	PaxSharedBuffersAttach(state->scan, PaxScanSharedBufs(shared),
						   shared->nbufs);
}

/* PaxScanReInitializeDSM resets the shared block allocator for a rescan. */
void
PaxScanReInitializeDSM(CustomScanState *node, ParallelContext *pcxt,
					   void *coordinate)
{
	PaxScanShared *shared = coordinate;

	table_parallelscan_reinitialize(node->ss.ss_currentRelation,
									PaxScanSharedPscan(shared));
}

/* PaxScanInitializeWorker attaches a parallel worker to the shared state. */
void
PaxScanInitializeWorker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	PaxScanState *state = (PaxScanState *) node;
	PaxScanShared *shared = coordinate;
	Relation	rel = node->ss.ss_currentRelation;

	Assert(shared->nbufs <= PAX_RECENT_BUFFERS_MAX &&
		   shared->bufs_offset >= MAXALIGN(sizeof(PaxScanShared)));
	state->shared = shared;
	state->scan = (PaxTableScanDesc)
		table_beginscan_parallel(rel, PaxScanSharedPscan(shared));
	PaxSharedBuffersAttach(state->scan, PaxScanSharedBufs(shared),
						   shared->nbufs);
	/* start this process's recent buffers from the leader's */
	PaxSharedBuffersAdopt(rel, PaxScanSharedBufs(shared), shared->nbufs);
}

/*
 * PaxScanShutdown runs before the parallel DSM goes away: the leader adds
 * its own counters to the shared ones and keeps the totals and the shared
 * map's buffers; a worker adds its counters.  The leader's runs before the
 * Gather waits for its workers (children shut down first), which are done
 * when the Gather was read to its end but not when the leader stopped early
 * (a LIMIT): then the totals can miss what workers add later.
 */
void
PaxScanShutdown(CustomScanState *node)
{
	PaxScanState *state = (PaxScanState *) node;

	if (state->shared == NULL)
		return;
	PaxScanAccumulate(state);
	if (!IsParallelWorker())
	{
		state->rows_removed = pg_atomic_read_u64(&state->shared->rows_removed);
		state->pages_skipped = pg_atomic_read_u64(&state->shared->pages_skipped);
		state->join_removed = pg_atomic_read_u64(&state->shared->join_removed);
		/* keep the buffers the participants looked up */
		PaxSharedBuffersAdopt(node->ss.ss_currentRelation,
							  PaxScanSharedBufs(state->shared),
							  state->shared->nbufs);
	}
	if (state->scan)
		PaxSharedBuffersAttach(state->scan, NULL, 0);
	state->shared = NULL;
}
