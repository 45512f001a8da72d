/*-------------------------------------------------------------------------
 *
 * pax_aggscan.c
 *	  The aggregate mode of PaxScan: count, sum, avg, min and max of a whole
 *	  pax table computed on the minipages, without forming rows.
 *
 * For a query that aggregates one pax table without GROUP BY, and whose
 * every restriction clause is pushable with constant values, the
 * create_upper_paths_hook offers a CustomScan of the grouping relation in
 * place of Agg over a scan.  It has no scan relation of its own (scanrelid
 * 0): its scan tuple is the aggregates (custom_scan_tlist) plus a junk ctid
 * Var that tells the executor which relation to open.  Pages are read
 * through the plain scan's loop (PaxScanNextPage), and each aggregate
 * folds the selected rows of its column in a loop per width.
 *
 * The plan node carries PaxScan's one CustomScanMethods, so that EXPLAIN
 * shows "Custom Scan (PaxScan)" as before; PaxScanCreateState hands plans
 * with scanrelid 0 to PaxAggCreateState, which sets the executor methods
 * of this file.  The mode is never parallel (its path is not
 * parallel-safe), so it has no DSM callbacks.
 *
 * pax_am/pax_aggscan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "catalog/pg_aggregate_d.h"
#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
#include "executor/executor.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/planner.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "rewrite/rewriteManip.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/numeric.h"
#include "utils/rel.h"

#include "pax_customscan.h"

/*
 * Aggregates the mode computes itself, column-at-a-time (see
 * PaxUpperPaths).  The order is that of PaxAggNames.
 */
typedef enum PaxAggKind
{
	PAX_AGG_COUNT_STAR,			/* count(*) */
	PAX_AGG_COUNT,				/* count(col) */
	PAX_AGG_SUM,				/* sum(int2/int4) -> int8 */
	PAX_AGG_AVG,				/* avg(int2/int4) -> numeric */
	PAX_AGG_MIN,				/* min of an integer-like type */
	PAX_AGG_MAX					/* max of an integer-like type */
} PaxAggKind;

#define PAX_AGG_NKINDS	(PAX_AGG_MAX + 1)

/* Names of the aggregates for EXPLAIN, by PaxAggKind. */
static const char *const PaxAggNames[PAX_AGG_NKINDS] = {
	"count", "count", "sum", "avg", "min", "max"
};

typedef struct PaxAgg
{
	PaxAggKind	kind;
	int			attno;			/* zero-based column, -1 for count(*) */
	Oid			type;			/* the column's type */
	int64		count;			/* non-null values seen */
	int64		acc;			/* sum, or min/max so far */
} PaxAgg;

/*
 * Positions in the aggregate-mode plan's custom_private (PaxAggPlan); the
 * first is the plain scan's list of projected columns, always NIL here.
 */
#define PAX_AGG_PRIVATE_SPEC	1	/* (kind, column) pairs */
#define PAX_AGG_PRIVATE_CLAUSES	2	/* the pushed clauses */
#define PAX_AGG_PRIVATE_RTI		3	/* the relation's index at planning */
#define PAX_AGG_PRIVATE_LEN		4

/* The executor state: PaxScanState first, for the page loop. */
typedef struct PaxAggScanState
{
	PaxScanState base;

	PaxAgg	   *aggs;			/* one result row of these */
	int			naggs;
	bool		done;			/* the row was returned */
	List	   *clauses;		/* the pushed clauses, for EXPLAIN */
} PaxAggScanState;

/* GUC pax.enable_aggpushdown, defined in _PG_init */
bool		pax_enable_aggpushdown = true;

static create_upper_paths_hook_type prev_create_upper_paths_hook = NULL;

/* ----------------------------------------------------------------
 * Planner
 * ----------------------------------------------------------------
 */

static Plan *PaxAggPlan(PlannerInfo *root, RelOptInfo *rel,
						struct CustomPath *best_path, List *tlist,
						List *clauses, List *custom_plans);

static const CustomPathMethods PaxAggPathMethods = {
	.CustomName = PAX_SCAN_NAME,
	.PlanCustomPath = PaxAggPlan,
};

/* PaxAggKindOf maps an aggregate function to what PaxScan computes, or -1. */
static int
PaxAggKindOf(Oid aggfnoid)
{
	switch (aggfnoid)
	{
		case F_COUNT_:
			return PAX_AGG_COUNT_STAR;
		case F_COUNT_ANY:
			return PAX_AGG_COUNT;
		case F_SUM_INT2:
		case F_SUM_INT4:
			return PAX_AGG_SUM;
		case F_AVG_INT2:
		case F_AVG_INT4:
			return PAX_AGG_AVG;
		case F_MIN_INT2:
		case F_MIN_INT4:
		case F_MIN_INT8:
		case F_MIN_DATE:
		case F_MIN_TIMESTAMP:
		case F_MIN_TIMESTAMPTZ:
			return PAX_AGG_MIN;
		case F_MAX_INT2:
		case F_MAX_INT4:
		case F_MAX_INT8:
		case F_MAX_DATE:
		case F_MAX_TIMESTAMP:
		case F_MAX_TIMESTAMPTZ:
			return PAX_AGG_MAX;
	}
	return -1;
}

/*
 * PaxConstOnlyWalker accepts the expressions a pushed clause of aggregate
 * mode may contain: columns, constants and the operators between them
 * (its clauses are kept out of setrefs' reach, so no Params or functions).
 */
static bool
PaxConstOnlyWalker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	switch (nodeTag(node))
	{
		case T_Var:
		case T_Const:
		case T_OpExpr:
		case T_ScalarArrayOpExpr:
		case T_BoolExpr:
		case T_NullTest:
		case T_BooleanTest:
		case T_RelabelType:
		case T_List:
			return expression_tree_walker(node, PaxConstOnlyWalker, context);
		default:
			return true;
	}
}

/*
 * PaxAggSpec checks the aggregates of the query (Aggrefs of relation relid)
 * and lists them as (kind, zero-based column) pairs in *aggspec; false if
 * one is not computed by the aggregate mode.
 */
static bool
PaxAggSpec(List *aggrefs, Index relid, List **aggspec)
{
	ListCell   *lc;

	*aggspec = NIL;
	foreach(lc, aggrefs)
	{
		Aggref	   *aggref = lfirst(lc);
		int			kind;
		int			attno = -1;

		if (!IsA(aggref, Aggref) || aggref->aggdistinct != NIL ||
			aggref->aggorder != NIL || aggref->aggfilter != NULL ||
			aggref->agglevelsup != 0 || aggref->aggsplit != AGGSPLIT_SIMPLE ||
			aggref->aggkind != AGGKIND_NORMAL ||
			(kind = PaxAggKindOf(aggref->aggfnoid)) < 0)
			return false;
		if (kind != PAX_AGG_COUNT_STAR)
		{
			TargetEntry *tle;
			Var		   *var;

			if (list_length(aggref->args) != 1)
				return false;
			tle = linitial(aggref->args);
			var = (Var *) tle->expr;
			if (!IsA(var, Var) || var->varno != relid ||
				var->varlevelsup != 0 || var->varattno <= 0)
				return false;
			attno = var->varattno - 1;
		}
		*aggspec = lappend_int(lappend_int(*aggspec, kind), attno);
	}
	return true;
}

/*
 * PaxAggRelation tells whether the query and its one relation allow the
 * aggregate mode: aggregates without GROUP BY, HAVING, window functions,
 * set-returning functions or row marks, over a pax table that is not an
 * inheritance parent, not sampled and not under security quals.
 */
static bool
PaxAggRelation(PlannerInfo *root, RelOptInfo *input_rel)
{
	Query	   *parse = root->parse;
	RangeTblEntry *rte;

	if (!parse->hasAggs || parse->groupClause != NIL ||
		parse->groupingSets != NIL || parse->havingQual != NULL ||
		parse->hasWindowFuncs || parse->hasTargetSRFs ||
		parse->rowMarks != NIL || root->hasHavingQual)
		return false;
	if (input_rel->reloptkind != RELOPT_BASEREL ||
		input_rel->rtekind != RTE_RELATION ||
		!bms_is_empty(input_rel->lateral_relids))
		return false;
	rte = planner_rt_fetch(input_rel->relid, root);
	if (rte->inh || rte->tablesample != NULL ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW) ||
		!PaxIsPaxRelation(rte->relid))
		return false;

	/*
	 * Under row-level security or security_barrier views the plain scan's
	 * ordering of quals and its counters apply: no aggregate mode.
	 */
	return root->qual_security_level == 0;
}

/*
 * PaxUpperPaths offers, for a query that aggregates one pax table without
 * GROUP BY (count(*), count, sum and avg of int2/int4, min and max of
 * integer-like columns), a PaxScan that computes the aggregates itself on
 * the minipages: a loop per column and page instead of a row formed and
 * fed to the Agg node for each row.  Every restriction clause must be
 * pushable with constant values; anything else keeps the usual plan.
 */
static void
PaxUpperPaths(PlannerInfo *root, UpperRelationKind stage,
			  RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	List	   *pushed;
	List	   *rest;
	List	   *aggrefs;
	List	   *aggspec;
	CustomPath *cpath;
	double		ntuples;
	double		npass;
	Cost		cost;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !pax_enable_customscan ||
		!pax_enable_aggpushdown || !pax_enable_pushdown ||
		!PaxAggRelation(root, input_rel))
		return;
	PaxSplitClauses(input_rel->baserestrictinfo, input_rel->relid,
					&pushed, &rest);
	if (rest != NIL)
		return;
	pushed = extract_actual_clauses(pushed, false);
	if (PaxConstOnlyWalker((Node *) pushed, NULL))
		return;

	aggrefs = pull_var_clause((Node *) output_rel->reltarget->exprs,
							  PVC_INCLUDE_AGGREGATES);
	if (aggrefs == NIL || !PaxAggSpec(aggrefs, input_rel->relid, &aggspec))
		return;

	/*
	 * PaxScan's own cost (pages, visibility, the pushed clauses), with one
	 * cheap fold per aggregate in place of forming each passing row.
	 */
	ntuples = input_rel->tuples;
	npass = clamp_row_est(ntuples *
						  clauselist_selectivity(root, pushed, input_rel->relid,
												 JOIN_INNER, NULL));
	cost = input_rel->pages * seq_page_cost +
		ntuples * PaxPushedRowCost(list_length(pushed)) +
		npass * list_length(aggrefs) * PAX_AGG_FOLD_COST_SHARE * cpu_operator_cost;

	/*
	 * It reads the whole table, as a sequential scan does (and takes a
	 * sequential scan's relation-level SIREAD lock): enable_seqscan = off
	 * must discourage it as it does PaxScan's and heap's scans.
	 */
	if (!enable_seqscan)
		cost += disable_cost;

	cpath = makeNode(CustomPath);
	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = output_rel;
	cpath->path.pathtarget = output_rel->reltarget;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = false;
	cpath->path.parallel_safe = false;
	cpath->path.parallel_workers = 0;
	cpath->path.rows = 1;
	cpath->path.startup_cost = cost;
	cpath->path.total_cost = cost + cpu_tuple_cost;
	cpath->path.pathkeys = NIL;
	cpath->flags = 0;
	cpath->custom_paths = NIL;
	/* with the relation's index, as planning knows it */
	cpath->custom_private = list_make4(aggspec, pushed, aggrefs,
									   list_make1_int(input_rel->relid));
	cpath->methods = &PaxAggPathMethods;
	add_path(output_rel, &cpath->path);
}

/*
 * PaxAggPlan makes the aggregate-mode CustomScan: no scan relation of its
 * own, the aggregates as its scan tuple (custom_scan_tlist, which the
 * target list refers to, and a last junk ctid Var naming the relation), and
 * in custom_private: no columns to project, the aggregates (kind, column)
 * pairs, the pushed clauses, the relation's planning-time index.
 */
static Plan *
PaxAggPlan(PlannerInfo *root, RelOptInfo *rel, struct CustomPath *best_path,
		   List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *aggspec = linitial(best_path->custom_private);
	List	   *pushed = lsecond(best_path->custom_private);
	List	   *aggrefs = lthird(best_path->custom_private);
	List	   *relidl = lfourth(best_path->custom_private);
	List	   *scan_tlist = NIL;
	ListCell   *lc;
	int			resno = 1;

	foreach(lc, aggrefs)
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry((Expr *) copyObject(lfirst(lc)),
											 resno++, NULL, false));

	/*
	 * A custom scan of an upper relation gets no custom_relids, and setrefs
	 * may renumber the range table (subqueries): a Var of the relation,
	 * which setrefs keeps right, tells the executor which relation to open.
	 */
	scan_tlist = lappend(scan_tlist,
						 makeTargetEntry((Expr *) makeVar(linitial_int(relidl),
														  SelfItemPointerAttributeNumber,
														  TIDOID, -1, InvalidOid, 0),
										 resno++, NULL, true));
	fix_opfuncids((Node *) pushed);

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = NIL;
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_exprs = NIL;
	cscan->custom_private = list_make4(NIL, aggspec, pushed, relidl);
	Assert(list_length(cscan->custom_private) == PAX_AGG_PRIVATE_LEN);
	cscan->methods = &PaxScanPlanMethods;
	return &cscan->scan.plan;
}

/* ----------------------------------------------------------------
 * Executor
 * ----------------------------------------------------------------
 */

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
	.ExplainCustomScan = PaxAggExplain,
};

/*
 * PaxAggCreateState makes the executor state of an aggregate-mode plan;
 * called through PaxScanCreateUpper for plans without a scan relation.
 */
static Node *
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
 * opens the relation the junk ctid Var names, and sets up the aggregates
 * and the pushed clauses (kept in custom_private with the relation's index
 * at planning time).
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
	state->naggs = list_length(aggspec) / 2;
	/* one scan column per aggregate, and the junk ctid */
	Assert(state->naggs + 1 == list_length(cscan->custom_scan_tlist));
	state->aggs = palloc0(sizeof(PaxAgg) * state->naggs);
	for (int k = 0; k < state->naggs; k++)
	{
		PaxAgg	   *agg = &state->aggs[k];

		agg->kind = list_nth_int(aggspec, 2 * k);
		agg->attno = list_nth_int(aggspec, 2 * k + 1);
		Assert(agg->kind >= 0 && agg->kind < PAX_AGG_NKINDS);
		Assert(agg->attno < tupdesc->natts);
		if (agg->attno >= 0)
			agg->type = TupleDescAttr(tupdesc, agg->attno)->atttypid;
	}

	/* no zone_ok list: the mode is never planned under security quals */
	PaxScanBeginPreds(&state->base, clauses, rti, NIL);
}

/*
 * PaxAggColumn folds one column's values of the selected rows of a page
 * into an aggregate, in a loop per width with no call per value.  Sums
 * accumulate in int64 as int2_sum() and int4_sum() in int.c (PostgreSQL 15)
 * do, which cannot overflow for int2 and int4 values.
 */
static void
PaxAggColumn(PaxAgg *agg, Page page, const PaxPageLayout *layout,
			 TupleDesc tupdesc, const uint16 *sel, int nsel)
{
	const PaxColumnLayout *col;
	const bits8 *nulls;
	int64		count = 0;
	int64		sum = 0;
	int64		lo = PG_INT64_MAX;
	int64		hi = PG_INT64_MIN;

	Assert(agg->attno >= 0 && agg->attno < tupdesc->natts);
	Assert(PaxSelIsValid(sel, nsel, PaxPageGetHeader(page)->pp_nrows));
	if (agg->attno >= layout->natts)
	{
		/* a column added after the page was laid out: its missing value */
		bool		isnull;
		Datum		d = getmissingattr(tupdesc, agg->attno + 1, &isnull);
		int16		len = TupleDescAttr(tupdesc, agg->attno)->attlen;
		int64		v;

		if (isnull || nsel == 0)
			return;
		v = len == 2 ? DatumGetInt16(d) : len == 4 ? DatumGetInt32(d) :
			DatumGetInt64(d);
		count = nsel;
		sum = v * nsel;
		lo = hi = v;
	}
	else
	{
		col = &layout->cols[agg->attno];
		if (col->data == 0)
			return;				/* NULL in every row */
		nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;

#define PAX_AGG_LOOP(ctype) \
		do { \
			const ctype *v = (const ctype *) (page + col->data); \
			for (int k = 0; k < nsel; k++) \
			{ \
				int			r = sel[k]; \
				int64		x; \
				if (nulls && PaxBitIsSet(nulls, r)) \
					continue; \
				x = v[r]; \
				count++; \
				sum += x; \
				if (x < lo) lo = x; \
				if (x > hi) hi = x; \
			} \
		} while (0)

		if (agg->kind == PAX_AGG_COUNT)
		{
			if (nulls == NULL)
				count = nsel;
			else
				for (int k = 0; k < nsel; k++)
					count += !PaxBitIsSet(nulls, sel[k]);
		}
		else if (col->attlen == 2)
			PAX_AGG_LOOP(int16);
		else if (col->attlen == 4)
			PAX_AGG_LOOP(int32);
		else
			PAX_AGG_LOOP(int64);
#undef PAX_AGG_LOOP
	}

	if (count == 0)
		return;
	if (agg->kind == PAX_AGG_MIN)
		agg->acc = agg->count == 0 ? lo : Min(agg->acc, lo);
	else if (agg->kind == PAX_AGG_MAX)
		agg->acc = agg->count == 0 ? hi : Max(agg->acc, hi);
	else
		agg->acc += sum;
	agg->count += count;
}

/*
 * PaxAggResult is the value of an aggregate once every row is folded in.
 * avg is computed as int8_avg() in numeric.c (PostgreSQL 15) does.
 */
static Datum
PaxAggResult(PaxAgg *agg, bool *isnull)
{
	*isnull = false;
	if (agg->kind == PAX_AGG_COUNT_STAR || agg->kind == PAX_AGG_COUNT)
		return Int64GetDatum(agg->count);
	if (agg->count == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}
	switch (agg->kind)
	{
		case PAX_AGG_SUM:
			return Int64GetDatum(agg->acc);
		case PAX_AGG_AVG:
			/* as int8_avg: numeric sum / numeric count */
			return DirectFunctionCall2(numeric_div,
									   NumericGetDatum(int64_to_numeric(agg->acc)),
									   NumericGetDatum(int64_to_numeric(agg->count)));
		default:
			switch (agg->type)
			{
				case INT2OID:
					return Int16GetDatum((int16) agg->acc);
				case INT4OID:
				case DATEOID:
					return Int32GetDatum((int32) agg->acc);
				default:
					return Int64GetDatum(agg->acc);
			}
	}
}

/*
 * PaxAggNext computes the aggregates over every visible row that passes
 * the pushed clauses, page by page, and returns them as the one row: the
 * access method of ExecScan() for the aggregate mode.
 */
static TupleTableSlot *
PaxAggNext(ScanState *ss)
{
	PaxAggScanState *agss = (PaxAggScanState *) ss;
	PaxScanState *state = &agss->base;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	TupleDesc	tupdesc = RelationGetDescr(ss->ss_currentRelation);

	ExecClearTuple(slot);
	if (agss->done)
		return slot;
	agss->done = true;
	if (!state->started)
		PaxScanStart(state);
	for (int k = 0; k < agss->naggs; k++)
		agss->aggs[k].count = agss->aggs[k].acc = 0;

	state->dir = ForwardScanDirection;
	while (PaxScanNextPage(state))
	{
		Page		page = BufferGetPage(state->scan->rs_cbuf);

		/* values never move while the page is pinned */
		for (int k = 0; k < agss->naggs; k++)
		{
			PaxAgg	   *agg = &agss->aggs[k];

			if (agg->kind == PAX_AGG_COUNT_STAR)
				agg->count += state->nsel;
			else
				PaxAggColumn(agg, page, state->layout, tupdesc, state->sel,
							 state->nsel);
		}
		state->nsel = 0;
		CHECK_FOR_INTERRUPTS();
	}
	for (int k = 0; k < agss->naggs; k++)
		slot->tts_values[k] = PaxAggResult(&agss->aggs[k], &slot->tts_isnull[k]);
	slot->tts_isnull[agss->naggs] = true;	/* the junk ctid */
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
 * recheck: normally.  No qual: aggregate mode has none.  Adapted from
 * ExecScan() in execScan.c, PostgreSQL 15, without the EvalPlanQual branch
 * of ExecScanFetch() and without a qual.
 */
static TupleTableSlot *
PaxAggExecEPQ(CustomScanState *node)
{
	ExprContext *econtext = node->ss.ps.ps_ExprContext;
	TupleTableSlot *slot;

	ResetExprContext(econtext);
	slot = PaxAggNext(&node->ss);
	if (TupIsNull(slot) || node->ss.ps.ps_ProjInfo == NULL)
		return slot;
	econtext->ecxt_scantuple = slot;
	return ExecProject(node->ss.ps.ps_ProjInfo);
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
	PaxScanReScan(node);
	((PaxAggScanState *) node)->done = false;
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

	ExplainPropertyText("Pax Aggregated Relation",
						quote_identifier(RelationGetRelationName(rel)), es);
	initStringInfo(&aggs);
	for (int k = 0; k < state->naggs; k++)
	{
		PaxAgg	   *agg = &state->aggs[k];

		appendStringInfo(&aggs, "%s%s(%s)", k > 0 ? ", " : "",
						 PaxAggNames[agg->kind], agg->attno < 0 ? "*" :
						 quote_identifier(NameStr(TupleDescAttr(tupdesc, agg->attno)->attname)));
	}
	ExplainPropertyText("Pax Aggregates", aggs.data, es);
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

/*
 * PaxAggScanInit installs the create_upper_paths_hook that offers the
 * aggregate mode, and lets PaxScanCreateState reach this mode's executor
 * state; called from _PG_init after PaxCustomScanInit.
 */
void
PaxAggScanInit(void)
{
	PaxScanCreateUpper = PaxAggCreateState;
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = PaxUpperPaths;
}
