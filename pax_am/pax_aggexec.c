/*-------------------------------------------------------------------------
 *
 * pax_aggexec.c
 *	  The executor of PaxScan's aggregate mode: its CustomExecMethods
 *	  (begin, the scan that folds every row at the first call and then
 *	  returns a row per group, EvalPlanQual, rescan) and its EXPLAIN lines.
 *
 * Plans with no scan relation reach PaxAggCreateState through
 * PaxScanCreateUpper (pax_customscan_plan.c); the relation is the one the junk
 * ctid Var of the scan tuple names.  Pages are read through the plain
 * scan's loop (PaxScanNextPage), and the other methods (end, parallel DSM,
 * shutdown) are the plain scan's.  The groups are pax_agggroups.c's, the
 * page step pax_aggfold.c's, each aggregate's folding, result and partial
 * state its row's in PaxAggDefs (pax_aggdefs.c); planning is
 * pax_aggscan.c's.
 *
 * pax_am/pax_aggexec.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
#include "executor/executor.h"
#include "miscadmin.h"
#include "rewrite/rewriteManip.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "pax_numeric.h"
#include "pax_customscan.h"

static void PaxAggBegin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *PaxAggExec(CustomScanState *node);
static void PaxAggReScan(CustomScanState *node);
static void PaxAggExplain(CustomScanState *node, List *ancestors,
						  ExplainState *es);

static const CustomExecMethods PaxAggExecMethods = {
	.CustomName = PAX_SCAN_NAME,
	.BeginCustomScan = PaxAggBegin,
	.ExecCustomScan = PaxAggExec,
	.EndCustomScan = PaxScanEnd,
	.ReScanCustomScan = PaxAggReScan,
	.EstimateDSMCustomScan = PaxScanEstimateDSM,
	.InitializeDSMCustomScan = PaxScanInitializeDSM,
	.ReInitializeDSMCustomScan = PaxScanReInitializeDSM,
	.InitializeWorkerCustomScan = PaxScanInitializeWorker,
	.ShutdownCustomScan = PaxScanShutdown,
	.ExplainCustomScan = PaxAggExplain,
};

/*
 * PaxAggCreateState makes the executor state of an aggregate-mode plan;
 * called through PaxScanCreateUpper for plans without a scan relation.
 */
Node *
PaxAggCreateState(CustomScan *cscan)
{
	PaxAggScanState *state = (PaxAggScanState *) newNode(sizeof(PaxAggScanState),
														 T_CustomScanState);

	Assert(cscan->scan.scanrelid == 0 &&
		   list_length(cscan->custom_private) == PAX_AGG_PRIVATE_LEN);
	state->base.css.methods = &PaxAggExecMethods;
	return (Node *) state;
}

/*
 * PaxAggBegin initialises an aggregate-mode scan (BeginCustomScan): it
 * opens the relation the junk ctid Var names, and sets up the GROUP BY
 * columns, the aggregates and the pushed clauses (kept in custom_private
 * with the relation's index at planning time).
 */
static void
PaxAggBegin(CustomScanState *node, EState *estate, int eflags)
{
	PaxAggScanState *state = (PaxAggScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;

	/* setrefs kept the ctid Var of the last scan column pointing at it */
	Var		   *ctid = (Var *) ((TargetEntry *) llast(cscan->custom_scan_tlist))->expr;
	Index		rti = ctid->varno;
	List	   *aggspec = list_nth(cscan->custom_private, PAX_AGG_PRIVATE_SPEC);
	List	   *gcols = list_nth(cscan->custom_private, PAX_AGG_PRIVATE_GROUP);
	Index		plan_rti = linitial_int(list_nth(cscan->custom_private,
												 PAX_AGG_PRIVATE_RTI));
	TupleDesc	tupdesc;
	List	   *clauses;

	Assert(IsA(ctid, Var) && ctid->varattno == SelfItemPointerAttributeNumber);
	node->ss.ss_currentRelation = ExecOpenScanRelation(estate, rti, eflags);
	tupdesc = RelationGetDescr(node->ss.ss_currentRelation);
	clauses = copyObject(list_nth(cscan->custom_private,
								  PAX_AGG_PRIVATE_CLAUSES));
	if (plan_rti != rti)
		ChangeVarNodes((Node *) clauses, plan_rti, rti, 0);
	state->clauses = clauses;

	state->ngcols = list_length(gcols);
	state->gcols = palloc0(sizeof(PaxGroupCol) * Max(state->ngcols, 1));
	for (int i = 0; i < state->ngcols; i++)
	{
		PaxGroupCol *gc = &state->gcols[i];
		Form_pg_attribute att;

		gc->attno = list_nth_int(gcols, i);
		Assert(gc->attno >= 0 && gc->attno < tupdesc->natts);
		att = TupleDescAttr(tupdesc, gc->attno);
		gc->attlen = att->attlen;
		gc->byval = att->attbyval;
		gc->bpchar = att->atttypid == BPCHAROID;
	}

	state->naggs = list_length(aggspec) / 2;
	/* a scan column per GROUP BY column and aggregate, and the junk ctid */
	Assert(state->ngcols + state->naggs + 1 == list_length(cscan->custom_scan_tlist));
	state->aggs = palloc0(sizeof(PaxAgg) * state->naggs);
	for (int k = 0; k < state->naggs; k++)
	{
		PaxAgg	   *agg = &state->aggs[k];

		agg->kind = list_nth_int(aggspec, 2 * k);
		agg->attno = list_nth_int(aggspec, 2 * k + 1);
		Assert(agg->kind >= 0 && agg->kind < PAX_AGG_NKINDS);
		agg->def = &PaxAggDefs[agg->kind];
		Assert(agg->attno < tupdesc->natts);
		Assert((agg->attno >= 0) == (agg->def->arg == PAX_AGG_ARG_COLUMN));
		if (agg->attno >= 0)
			agg->type = TupleDescAttr(tupdesc, agg->attno)->atttypid;
#ifdef PAX_HAVE_FAST_NUMERIC
		if (agg->def->arg == PAX_AGG_ARG_NUMERIC)
		{
			TargetEntry *tle = list_nth(cscan->custom_scan_tlist,
										state->ngcols + k);
			Aggref	   *aggref = (Aggref *) tle->expr;

			Assert(IsA(aggref, Aggref));
			agg->arg = (Node *) ((TargetEntry *) linitial(aggref->args))->expr;
			if (state->numattnos == NULL)
				state->numattnos = palloc(sizeof(int) * tupdesc->natts);
			agg->num = PaxNumCompile(agg->arg, state->numattnos,
									 &state->nnumcols);
			state->has_numeric = true;
		}
#endif
	}
	/* partial aggregates (under Gather) return their transition states */
	if (state->naggs > 0)
	{
		TargetEntry *tle = list_nth(cscan->custom_scan_tlist, state->ngcols);

		Assert(IsA(tle->expr, Aggref));
		state->partial = DO_AGGSPLIT_SKIPFINAL(((Aggref *) tle->expr)->aggsplit);
	}
	state->values = palloc0(sizeof(Datum) * tupdesc->natts);
	state->rowpacked = palloc0(sizeof(uint64) * Max(state->ngcols, 1));
	state->isnull = palloc0(sizeof(bool) * tupdesc->natts);
#ifdef PAX_HAVE_FAST_NUMERIC
	state->numcols = palloc0(sizeof(PaxNumColumn) * Max(state->nnumcols, 1));
	for (int i = 0; i < state->nnumcols; i++)
	{
		state->numcols[i].v = palloc(sizeof(int128) * PAX_MAX_CAPACITY);
		state->numcols[i].scale = palloc(sizeof(int) * PAX_MAX_CAPACITY);
		state->numcols[i].status = palloc(sizeof(uint8) * PAX_MAX_CAPACITY);
	}
#endif
	state->groupcxt = AllocSetContextCreate(estate->es_query_cxt,
											"PaxScan groups",
											ALLOCSET_DEFAULT_SIZES);
	state->rowcxt = AllocSetContextCreate(estate->es_query_cxt,
										  "PaxScan group rows",
										  ALLOCSET_DEFAULT_SIZES);

	/* no zone_ok list: the mode is never planned under security quals */
	PaxScanBeginPreds(&state->base, clauses, rti, NIL);
}

/*
 * PaxAggNext folds every visible row that passes the pushed clauses into
 * its group, page by page, at the first call, then returns a row per
 * group (one row without GROUP BY, even for no rows): the access method of
 * ExecScan() for the aggregate mode.
 */
static TupleTableSlot *
PaxAggNext(ScanState *ss)
{
	PaxAggScanState *agss = (PaxAggScanState *) ss;
	PaxScanState *state = &agss->base;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	TupleDesc	tupdesc = RelationGetDescr(ss->ss_currentRelation);
	MemoryContext old;
	int			g;

	ExecClearTuple(slot);
	if (!agss->aggregated)
	{
		agss->aggregated = true;
		agss->next_group = 0;
		if (!state->started)
			PaxScanStart(state);
		if (agss->nslots == 0)
			PaxGroupResize(agss);
		if (agss->ngcols == 0)
			(void) PaxGroupNew(agss, 0, false);

		state->dir = ForwardScanDirection;
		while (PaxScanNextPage(state))
		{
			Page		page = BufferGetPage(state->scan->rs_cbuf);

			PaxAggPage(agss, page, tupdesc);
			state->nsel = 0;
			CHECK_FOR_INTERRUPTS();
		}
	}
	if (agss->next_group >= agss->ngroups)
		return slot;
	g = agss->next_group++;

	/* results live as long as the row (ExecScan resets this per row) */
	old = MemoryContextSwitchTo(ss->ps.ps_ExprContext->ecxt_per_tuple_memory);
	for (int i = 0; i < agss->ngcols; i++)
	{
		slot->tts_values[i] = agss->gkeys[g * agss->ngcols + i];
		slot->tts_isnull[i] = agss->gnulls[g * agss->ngcols + i];
	}
	for (int k = 0; k < agss->naggs; k++)
	{
		const PaxAgg *agg = &agss->aggs[k];

		slot->tts_values[agss->ngcols + k] =
			(agss->partial ? agg->def->partial : agg->def->final)
			(agg, &agss->accs[g * agss->naggs + k],
			 &slot->tts_isnull[agss->ngcols + k]);
	}
	MemoryContextSwitchTo(old);
	slot->tts_isnull[agss->ngcols + agss->naggs] = true;	/* the junk ctid */
	return ExecStoreVirtualTuple(slot);
}

/* PaxAggRecheck: the aggregate mode has no row of a relation to recheck. */
static bool
PaxAggRecheck(ScanState *ss, TupleTableSlot *slot)
{
	return true;
}

/*
 * PaxAggExecEPQ runs an aggregate-mode scan inside an EvalPlanQual recheck
 * (as part of a subquery, e.g. x <> ALL (SELECT count(*) FROM p)).  Its
 * scanrelid is 0, which ExecScan there takes for a pushed-down join whose
 * recheck supplies the row, and would return an empty slot.  The relation
 * it aggregates has no row mark (the path is not offered to a query with
 * row marks), so it scans as heap's scan of such a relation does in a
 * recheck: normally.  Its qual is HAVING.  Adapted from ExecScan() in
 * execScan.c, PostgreSQL 15, without the EvalPlanQual branch of
 * ExecScanFetch().
 */
static TupleTableSlot *
PaxAggExecEPQ(CustomScanState *node)
{
	ExprContext *econtext = node->ss.ps.ps_ExprContext;
	TupleTableSlot *slot;

	for (;;)
	{
		ResetExprContext(econtext);
		slot = PaxAggNext(&node->ss);
		if (TupIsNull(slot))
			return slot;
		econtext->ecxt_scantuple = slot;
		/* HAVING */
		if (node->ss.ps.qual != NULL && !ExecQual(node->ss.ps.qual, econtext))
			continue;
		if (node->ss.ps.ps_ProjInfo == NULL)
			return slot;
		return ExecProject(node->ss.ps.ps_ProjInfo);
	}
}

/* PaxAggExec returns the one row of the aggregates (ExecCustomScan). */
static TupleTableSlot *
PaxAggExec(CustomScanState *node)
{
	if (node->ss.ps.state->es_epq_active != NULL)
		return PaxAggExecEPQ(node);
	return ExecScan(&node->ss, PaxAggNext, PaxAggRecheck);
}

/* PaxAggReScan restarts an aggregate-mode scan (ReScanCustomScan). */
static void
PaxAggReScan(CustomScanState *node)
{
	PaxAggScanState *state = (PaxAggScanState *) node;

	PaxScanReScan(node);
	state->aggregated = false;
	state->ngroups = state->maxgroups = state->nslots = 0;
	state->gkeys = NULL;
	state->gnulls = NULL;
	state->ghashes = NULL;
	state->accs = NULL;
	state->slots = NULL;
	MemoryContextReset(state->groupcxt);
}

/*
 * PaxAggExplain adds the aggregate mode's lines to EXPLAIN: the relation,
 * the aggregates, the pushed clauses and, under ANALYZE, what pushdown
 * removed.
 */
static void
PaxAggExplain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	PaxAggScanState *state = (PaxAggScanState *) node;
	Relation	rel = node->ss.ss_currentRelation;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	StringInfoData aggs;

	List	   *context = NIL;

	ExplainPropertyText("Pax Aggregated Relation",
						quote_identifier(RelationGetRelationName(rel)), es);
	if (state->ngcols > 0)
	{
		StringInfoData keys;

		initStringInfo(&keys);
		for (int i = 0; i < state->ngcols; i++)
			appendStringInfo(&keys, "%s%s", i > 0 ? ", " : "",
							 quote_identifier(NameStr(TupleDescAttr(tupdesc, state->gcols[i].attno)->attname)));
		ExplainPropertyText("Pax Group Key", keys.data, es);
	}
	initStringInfo(&aggs);
	for (int k = 0; k < state->naggs; k++)
	{
		PaxAgg	   *agg = &state->aggs[k];
		const char *arg;

		if (agg->arg != NULL)
		{
			if (context == NIL)
				context = set_deparse_context_plan(es->deparse_cxt,
												   node->ss.ps.plan, ancestors);
			arg = deparse_expression(agg->arg, context, false, false);
		}
		else if (agg->attno < 0)
			arg = "*";
		else
			arg = quote_identifier(NameStr(TupleDescAttr(tupdesc, agg->attno)->attname));
		appendStringInfo(&aggs, "%s%s(%s)", k > 0 ? ", " : "",
						 agg->def->name, arg);
	}
	ExplainPropertyText(state->partial ? "Pax Partial Aggregates" : "Pax Aggregates",
						aggs.data, es);
	if (state->clauses != NIL)
		PaxExplainFilter(node, state->clauses, ancestors, es);
	if (es->analyze)
	{
		if (state->clauses != NIL)
			ExplainPropertyUInteger("Rows Removed by Pax Filter", NULL,
									state->base.rows_removed, es);
		ExplainPropertyUInteger("Pages Skipped by Zone Maps", NULL,
								state->base.pages_skipped, es);
	}
}
