/*-------------------------------------------------------------------------
 *
 * pax_aggscan.c
 *	  The aggregate mode of PaxScan: the aggregates of PaxAggDefs over a
 *	  pax table, grouped or not, computed on the minipages without forming
 *	  rows.
 *	  This file offers and plans it; the other pax_agg*.c files run it.
 *
 * For a query that aggregates one pax table, and whose every restriction
 * clause is pushable with constant values, the create_upper_paths_hook
 * offers a CustomScan of the grouping relation in place of Agg over a
 * scan.  It has no scan relation of its own (scanrelid 0): its scan tuple
 * is the GROUP BY columns and the aggregates (custom_scan_tlist) plus a
 * junk ctid Var that tells the executor which relation to open; HAVING is
 * its qual.  Pages are read through the plain scan's loop
 * (PaxScanNextPage); each selected row's group is found in a hash table
 * of groups, and each aggregate folds the selected rows of its column (or
 * of its numeric expression, pax_numeric.c) into the groups' accumulators.
 * All rows are folded at the first call; then a row per group is returned.
 *
 * The plan node carries PaxScan's one CustomScanMethods, so that EXPLAIN
 * shows "Custom Scan (PaxScan)" as before; PaxScanCreateState hands plans
 * with scanrelid 0 to PaxAggCreateState, which sets the executor methods
 * of pax_aggexec.c.
 *
 * Parallel plans: where the relation may be scanned by workers, a second
 * path aggregates partially: each participant's PaxScan (parallel-aware,
 * sharing the plain scan's DSM callbacks and block allocator) folds the
 * pages it claims and returns, per group, the partial states that
 * PostgreSQL's own aggregates would have (each kind's partial function in
 * PaxAggDefs), under a Gather and a Finalize Aggregate that combines them
 * with the aggregates' combine and final functions, as core's partial
 * aggregation does.
 *
 * The mode's files, each using only those before it: pax_agggroups.c
 * (the hash table of groups), pax_aggdefs.c (the aggregates: what each
 * stands for, its folding, results and partial states), pax_aggfold.c (a
 * page's selected rows grouped and folded), pax_aggexec.c (the executor
 * methods and EXPLAIN) and this one (the create_upper_paths_hook, the
 * paths and the plan, PaxAggScanInit).
 * Their types and shared functions are in pax_customscan.h.
 *
 * pax_am/pax_aggscan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "catalog/pg_aggregate_d.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/planmain.h"
#include "optimizer/planner.h"
#include "optimizer/prep.h"
#include "optimizer/tlist.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"
#include "utils/selfuncs.h"

#include "pax_numeric.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

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
 * PaxAggArgOk tells whether an aggregate's arguments are what its kind's
 * row asks for (PaxAggDef.arg), and gives its column (zero-based, -1 for
 * none) in *attno and the argument's type in *argtype.
 */
static bool
PaxAggArgOk(const PaxAggDef *def, Aggref *aggref, Index relid, int *attno,
			Oid *argtype)
{
	Node	   *arg;
	Var		   *var;

	*attno = -1;
	*argtype = InvalidOid;
	if (def->arg == PAX_AGG_ARG_NONE)
		return aggref->args == NIL;
	if (list_length(aggref->args) != 1)
		return false;
	arg = (Node *) ((TargetEntry *) linitial(aggref->args))->expr;
	*argtype = exprType(arg);
	if (def->arg == PAX_AGG_ARG_NUMERIC)
	{
#ifdef PAX_HAVE_FAST_NUMERIC
		return PaxNumExprSupported(arg, relid);
#else
		return false;
#endif
	}
	Assert(def->arg == PAX_AGG_ARG_COLUMN);
	var = (Var *) arg;
	if (!IsA(var, Var) || var->varno != relid ||
		var->varlevelsup != 0 || var->varattno <= 0)
		return false;
	*attno = var->varattno - 1;
	return true;
}

/*
 * PaxAggSpec checks the aggregates of the query (Aggrefs of relation relid)
 * against PaxAggDefs and lists them as (kind, zero-based column) pairs in
 * *aggspec; false if one is not computed by the aggregate mode.
 */
static bool
PaxAggSpec(List *aggrefs, Index relid, List **aggspec)
{
	ListCell   *lc;

	*aggspec = NIL;
	foreach(lc, aggrefs)
	{
		Aggref	   *aggref = lfirst(lc);
		const PaxAggDef *def;
		int			kind;
		int			attno;
		Oid			argtype;

		if (!IsA(aggref, Aggref) || aggref->aggdistinct != NIL ||
			aggref->aggorder != NIL || aggref->aggfilter != NULL ||
			aggref->agglevelsup != 0 || aggref->aggsplit != AGGSPLIT_SIMPLE ||
			aggref->aggkind != AGGKIND_NORMAL ||
			(kind = PaxAggKindOf(aggref->aggfnoid)) < 0)
			return false;
		def = &PaxAggDefs[kind];
		if (!PaxAggArgOk(def, aggref, relid, &attno, &argtype) ||
			aggref->aggtype != (OidIsValid(def->restype) ? def->restype : argtype))
			return false;
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

	if (!parse->hasAggs ||
		parse->groupingSets != NIL ||
		parse->hasWindowFuncs || parse->hasTargetSRFs ||
		parse->rowMarks != NIL ||
		contain_subplans(parse->havingQual))
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
 * PaxGroupColumns lists the GROUP BY columns (zero-based, in *gcols, and
 * their Vars in *gvars): each a plain column of relation relid whose
 * values group by their bytes, as the type's default equality does
 * (integers, date, timestamps, bool, "char", oid; text, varchar and
 * bpchar under a deterministic collation, bpchar without its trailing
 * blanks).  False if one is anything else, or if a column outside the
 * aggregates of the target is not one of them.
 */
static bool
PaxGroupColumns(PlannerInfo *root, Index relid, List *targetexprs,
				List **gcols, List **gvars)
{
	Query	   *parse = root->parse;
	ListCell   *lc;

	*gcols = *gvars = NIL;
	foreach(lc, parse->groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);
		Var		   *var = (Var *) get_sortgroupclause_expr(sgc, parse->targetList);
		TypeCacheEntry *tce;

		if (!IsA(var, Var) || var->varno != relid || var->varlevelsup != 0 ||
			var->varattno <= 0)
			return false;
		switch (var->vartype)
		{
			case INT2OID:
			case INT4OID:
			case INT8OID:
			case DATEOID:
			case TIMESTAMPOID:
			case TIMESTAMPTZOID:
			case BOOLOID:
			case CHAROID:
			case OIDOID:
				/* compared as Datums: by value only */
				if (!get_typbyval(var->vartype))
					return false;
				break;
			case TEXTOID:
			case VARCHAROID:
			case BPCHAROID:
				if (!OidIsValid(var->varcollid) ||
					!get_collation_isdeterministic(var->varcollid))
					return false;
				break;
			default:
				return false;
		}
		tce = lookup_type_cache(var->vartype, TYPECACHE_EQ_OPR);
		if (sgc->eqop != tce->eq_opr)
			return false;
		*gcols = lappend_int(*gcols, var->varattno - 1);
		*gvars = lappend(*gvars, var);
	}

	/* plain columns of the output must be grouped ones */
	foreach(lc, targetexprs)
	{
		Var		   *var = lfirst(lc);

		if (IsA(var, Aggref))
			continue;
		if (!IsA(var, Var) || var->varno != relid || var->varlevelsup != 0 ||
			!list_member_int(*gcols, var->varattno - 1))
			return false;
	}
	return true;
}

/*
 * PaxAggMakePath makes an aggregate-mode path of the grouping relation with
 * the given target and cost, parallel-aware (a partial path) if workers >
 * 0.
 */
static CustomPath *
PaxAggMakePath(RelOptInfo *output_rel, PathTarget *target, Cost cost,
			   double rows, int workers, List *custom_private)
{
	CustomPath *cpath = makeNode(CustomPath);

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = output_rel;
	cpath->path.pathtarget = target;
	cpath->path.param_info = NULL;
	cpath->path.parallel_aware = workers > 0;
	cpath->path.parallel_safe = workers > 0;
	cpath->path.parallel_workers = workers;
	cpath->path.rows = rows;
	cpath->path.startup_cost = cost;
	cpath->path.total_cost = cost + rows * cpu_tuple_cost;
	cpath->path.pathkeys = NIL;
	cpath->flags = 0;
	cpath->custom_paths = NIL;
	cpath->custom_private = custom_private;
	cpath->methods = &PaxAggPathMethods;
	return cpath;
}

/* PaxAggPartialOk: has every aggregate of aggspec partial states? */
static bool
PaxAggPartialOk(List *aggspec)
{
	for (int i = 0; i < list_length(aggspec); i += 2)
		if (PaxAggDefs[list_nth_int(aggspec, i)].partial == NULL)
			return false;
	return true;
}

/*
 * PaxAggPartialPaths offers, where workers may scan the relation, the
 * aggregate mode under a Gather: each participant's PaxScan folds the pages
 * it claims into partial states (PaxAggDef.partial), and a Finalize
 * Aggregate (hashed with GROUP BY) combines them and applies HAVING, as
 * core's partial aggregation does (add_paths_to_grouping_rel() and
 * create_partial_grouping_paths() in planner.c, PostgreSQL 15).  disk and
 * cpu are the serial path's costs: the CPU share is divided among the
 * processes.
 */
static void
PaxAggPartialPaths(PlannerInfo *root, RelOptInfo *input_rel,
				   RelOptInfo *output_rel, List *aggspec, List *pushed,
				   List *aggrefs, List *gcols, List *gvars, Cost disk,
				   Cost cpu, double ngroups)
{
	Query	   *parse = root->parse;
	List	   *groupClause;
	PathTarget *ptarget;
	List	   *paggrefs = NIL;
	CustomPath *cpath;
	Path	   *gather;
	AggClauseCosts costs;
	double		total_groups;
	int			workers;
	ListCell   *lc;

#if PG_VERSION_NUM >= 160000
	groupClause = root->processed_groupClause;
#else
	groupClause = parse->groupClause;
#endif
	if (!input_rel->consider_parallel || !output_rel->consider_parallel ||
		root->hasNonPartialAggs || root->hasNonSerialAggs ||
		!PaxAggPartialOk(aggspec) ||
		list_length(groupClause) != list_length(gvars) ||
		(groupClause != NIL && !grouping_is_hashable(groupClause)))
		return;
	workers = compute_parallel_worker(input_rel, input_rel->pages, -1,
									  max_parallel_workers_per_gather);
	if (workers <= 0)
		return;

	/* the GROUP BY columns, with their references, and partial aggregates */
	ptarget = create_empty_pathtarget();
	foreach(lc, groupClause)
	{
		SortGroupClause *sgc = lfirst_node(SortGroupClause, lc);

		add_column_to_pathtarget(ptarget,
								 (Expr *) copyObject(get_sortgroupclause_expr(sgc, parse->targetList)),
								 sgc->tleSortGroupRef);
	}
	foreach(lc, aggrefs)
	{
		Aggref	   *aggref = copyObject(lfirst_node(Aggref, lc));

		Assert(OidIsValid(aggref->aggtranstype));
		mark_partial_aggref(aggref, AGGSPLIT_INITIAL_SERIAL);
		add_column_to_pathtarget(ptarget, (Expr *) aggref, 0);
		paggrefs = lappend(paggrefs, aggref);
	}
	set_pathtarget_cost_width(root, ptarget);

	cpath = PaxAggMakePath(output_rel, ptarget,
						   disk + cpu / PaxParallelDivisor(workers),
						   ngroups, workers,
						   list_make5(aggspec, pushed, paggrefs,
									  list_make1_int(input_rel->relid),
									  list_make3(gcols, gvars, NIL)));
	total_groups = ngroups * workers;
	gather = (Path *) create_gather_path(root, output_rel, &cpath->path,
										 ptarget, NULL, &total_groups);
	MemSet(&costs, 0, sizeof(costs));
	get_agg_clause_costs(root, AGGSPLIT_FINAL_DESERIAL, &costs);
	add_path(output_rel, (Path *)
			 create_agg_path(root, output_rel, gather, output_rel->reltarget,
							 groupClause != NIL ? AGG_HASHED : AGG_PLAIN,
							 AGGSPLIT_FINAL_DESERIAL, groupClause,
							 (List *) parse->havingQual, &costs, ngroups));
}

/*
 * PaxUpperPaths offers, for a query that aggregates one pax table, grouped
 * by plain columns or not, with aggregates of PaxAggDefs only, a PaxScan
 * that computes the aggregates itself on the minipages: a loop per column
 * and page instead of a row formed and fed to the Agg node for each row.
 * Every restriction clause must be pushable with constant values; anything
 * else keeps the usual plan.
 */
static void
PaxUpperPaths(PlannerInfo *root, UpperRelationKind stage,
			  RelOptInfo *input_rel, RelOptInfo *output_rel, void *extra)
{
	List	   *pushed;
	List	   *rest;
	List	   *aggrefs;
	List	   *aggspec;
	List	   *gcols;
	List	   *gvars;
	List	   *having;
	ListCell   *lc;
	CustomPath *cpath;
	double		ntuples;
	double		rows;
	Cost		having_cost;
	double		npass;
	double		ngroups;
	Cost		disk;
	Cost		cpu;
	Cost		disk_page;
	Cost		cached_page;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !pax_enable_customscan ||
		!pax_enable_aggpushdown || !pax_enable_pushdown ||
		!PaxAggRelation(root, input_rel))
		return;
	PaxSplitClauses(NULL, input_rel->baserestrictinfo, input_rel->relid,
					&pushed, &rest);
	if (rest != NIL)
		return;
	pushed = extract_actual_clauses(pushed, false);
	if (PaxConstOnlyWalker((Node *) pushed, NULL))
		return;

	/* the target's and HAVING's aggregates; HAVING runs as the plan's qual */
	having = (List *) copyObject(root->parse->havingQual);
	aggrefs = list_concat_unique(pull_var_clause((Node *) output_rel->reltarget->exprs,
												 PVC_INCLUDE_AGGREGATES),
								 pull_var_clause((Node *) having,
												 PVC_INCLUDE_AGGREGATES));
	if (!PaxGroupColumns(root, input_rel->relid, aggrefs, &gcols, &gvars))
		return;
	/* the aggregates alone, in their order */
	aggrefs = list_copy(aggrefs);
	foreach(lc, aggrefs)
		if (!IsA(lfirst(lc), Aggref))
			aggrefs = foreach_delete_current(aggrefs, lc);
	if (aggrefs == NIL || !PaxAggSpec(aggrefs, input_rel->relid, &aggspec))
		return;

	/*
	 * PaxScan's own cost (pages, charged as PaxCostPath does, visibility,
	 * the pushed clauses), with one cheap fold per aggregate in place of
	 * forming each passing row.
	 */
	ntuples = input_rel->tuples;
	npass = clamp_row_est(ntuples *
						  clauselist_selectivity(root, pushed, input_rel->relid,
												 JOIN_INNER, NULL));
	PaxScanPageCosts(root, input_rel, &disk_page, &cached_page);
	disk = input_rel->pages * disk_page;
	cpu = input_rel->pages * cached_page +
		ntuples * PaxPushedRowCost(PaxPushedClausesCost(root, input_rel, pushed,
														 NULL, NULL),
								   input_rel->allvisfrac) +
		npass * list_length(aggrefs) * PAX_AGG_FOLD_COST_SHARE * cpu_operator_cost;
	ngroups = 1;
	if (gcols != NIL)
	{
		/* hashing and looking up each passing row's group */
		ngroups = estimate_num_groups(root, gvars, npass, NULL, NULL);
		cpu += npass * list_length(gcols) * cpu_operator_cost;

		/*
		 * The groups stay in memory (nothing spills to disk, as HashAgg's
		 * batches do): only where they fit in hash_mem, as HashAgg plans.
		 */
		if (ngroups * (list_length(gcols) * (sizeof(Datum) + sizeof(bool)) +
					   sizeof(uint32) + 2 * sizeof(int32) +
					   list_length(aggrefs) * sizeof(PaxAggAcc)) >
			get_hash_memory_limit())
			return;
	}

	/*
	 * It reads the whole table, as a sequential scan does (and takes a
	 * sequential scan's relation-level SIREAD lock): enable_seqscan = off
	 * must discourage it as it does PaxScan's and heap's scans.
	 */
	if (!enable_seqscan)
		disk += disable_cost;

	/*
	 * HAVING runs as the plan's qual, once per group: its cost, and the
	 * groups it passes, as cost_agg() in costsize.c (PostgreSQL 15)
	 * estimates them for an Agg node's HAVING.
	 */
	rows = ngroups;
	having_cost = 0;
	if (having != NIL)
	{
		QualCost	qc;

		cost_qual_eval(&qc, having, root);
		having_cost = qc.startup + ngroups * qc.per_tuple;
		rows = clamp_row_est(ngroups *
							 clauselist_selectivity(root, having, 0,
													JOIN_INNER, NULL));
	}

	/* with the relation's index, as planning knows it */
	cpath = PaxAggMakePath(output_rel, output_rel->reltarget,
						   disk + cpu + having_cost, rows, 0,
						   list_make5(aggspec, pushed, aggrefs,
									  list_make1_int(input_rel->relid),
									  list_make3(gcols, gvars, having)));
	add_path(output_rel, &cpath->path);

	PaxAggPartialPaths(root, input_rel, output_rel, aggspec, pushed, aggrefs,
					   gcols, gvars, disk, cpu, ngroups);
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
	List	   *groups = list_nth(best_path->custom_private, 4);
	List	   *scan_tlist = NIL;
	ListCell   *lc;
	int			resno = 1;

	/* the GROUP BY columns, then the aggregates, then the junk ctid */
	foreach(lc, (List *) lsecond(groups))
		scan_tlist = lappend(scan_tlist,
							 makeTargetEntry((Expr *) copyObject(lfirst(lc)),
											 resno++, NULL, false));
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
	/* HAVING, on the scan tuple's aggregates once setrefs is done */
	cscan->scan.plan.qual = (List *) lthird(groups);
	cscan->scan.scanrelid = 0;
	cscan->flags = best_path->flags;
	cscan->custom_scan_tlist = scan_tlist;
	cscan->custom_exprs = NIL;
	cscan->custom_private = list_make5(NIL, aggspec, pushed, relidl,
									   linitial(groups));
	Assert(list_length(cscan->custom_private) == PAX_AGG_PRIVATE_LEN);
	cscan->methods = &PaxScanPlanMethods;
	return &cscan->scan.plan;
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
