/*-------------------------------------------------------------------------
 *
 * pax_aggscan.c
 *	  The aggregate mode of PaxScan: count, sum, avg, min and max of a pax
 *	  table, grouped or not, computed on the minipages without forming rows.
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
 * of this file.
 *
 * Parallel plans: where the relation may be scanned by workers, a second
 * path aggregates partially: each participant's PaxScan (parallel-aware,
 * sharing the plain scan's DSM callbacks and block allocator) folds the
 * pages it claims and returns, per group, the partial states that
 * PostgreSQL's own aggregates would have (count and int sums as int8,
 * avg of int2/int4 as the int8[] {count, sum}, min/max as the value,
 * numeric sums and averages as numeric_avg_serialize's bytea), under a
 * Gather and a Finalize Aggregate that combines them with the aggregates'
 * combine and final functions, as core's partial aggregation does.
 *
 * pax_am/pax_aggscan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tableam.h"
#include "catalog/pg_type_d.h"
#include "common/hashfn.h"
#include "catalog/pg_aggregate_d.h"
#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
#include "executor/executor.h"
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
#include "rewrite/rewriteManip.h"
#include "storage/bufmgr.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/typcache.h"
#include "utils/fmgroids.h"
#include "utils/numeric.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/selfuncs.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"
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
	PAX_AGG_MAX,				/* max of an integer-like type */
	PAX_AGG_SUM_NUMERIC,		/* sum of a numeric expression */
	PAX_AGG_AVG_NUMERIC			/* avg of a numeric expression */
} PaxAggKind;

#define PAX_AGG_NKINDS	(PAX_AGG_AVG_NUMERIC + 1)

/* Names of the aggregates for EXPLAIN, by PaxAggKind. */
static const char *const PaxAggNames[PAX_AGG_NKINDS] = {
	"count", "count", "sum", "avg", "min", "max", "sum", "avg"
};

/* An aggregate's running state, per group. */
typedef struct PaxAggAcc
{
	int64		count;			/* non-null values seen */
	int64		acc;			/* sum, or min/max so far */
#ifdef PAX_HAVE_FAST_NUMERIC
	PaxNumSum	nsum;			/* numeric kinds */
#endif
} PaxAggAcc;

typedef struct PaxAgg
{
	PaxAggKind	kind;
	int			attno;			/* zero-based column, -1 for count(*) and
								 * numeric kinds */
	Oid			type;			/* the column's type */
	Node	   *arg;			/* numeric kinds: the argument, for EXPLAIN */
#ifdef PAX_HAVE_FAST_NUMERIC
	PaxNumExpr *num;			/* numeric kinds: its evaluation tree */
#endif
} PaxAgg;

/* A GROUP BY column: how its values are hashed and compared. */
typedef struct PaxGroupCol
{
	int			attno;			/* zero-based */
	int16		attlen;
	bool		byval;
	bool		bpchar;			/* trailing blanks are insignificant */
} PaxGroupCol;

/*
 * Positions in the aggregate-mode plan's custom_private (PaxAggPlan); the
 * first is the plain scan's list of projected columns, always NIL here.
 */
#define PAX_AGG_PRIVATE_SPEC	1	/* (kind, column) pairs */
#define PAX_AGG_PRIVATE_CLAUSES	2	/* the pushed clauses */
#define PAX_AGG_PRIVATE_RTI		3	/* the relation's index at planning */
#define PAX_AGG_PRIVATE_GROUP	4	/* zero-based GROUP BY columns */
#define PAX_AGG_PRIVATE_LEN		5

/* The executor state: PaxScanState first, for the page loop. */
typedef struct PaxAggScanState
{
	PaxScanState base;

	PaxAgg	   *aggs;			/* one result row of these per group */
	int			naggs;
	PaxGroupCol *gcols;			/* GROUP BY columns */
	int			ngcols;
	bool		has_numeric;	/* some aggregate is of a numeric kind */
	bool		partial;		/* returns partial states (parallel plans) */
	bool		aggregated;		/* every row is folded in */
	int			next_group;		/* the group to return next */
	List	   *clauses;		/* the pushed clauses, for EXPLAIN */

	/* groups: keys, their hashes, and naggs accumulators each */
	MemoryContext groupcxt;		/* keys, accumulators, numeric sums */
	MemoryContext rowcxt;		/* per page: detoasted keys, slow numerics */
	int			ngroups;
	int			maxgroups;
	Datum	   *gkeys;			/* ngcols per group */
	bool	   *gnulls;
	uint64	   *gpacked;		/* ngcols per group, where gpackok */
	bool	   *gpackok;
	uint32	   *ghashes;
	PaxAggAcc  *accs;			/* naggs per group */
	int32	   *slots;			/* open addressing: group index or -1 */
	int			nslots;			/* a power of two */

	/* a row's values, by column, for GROUP BY keys and slow numerics */
	Datum	   *values;
	bool	   *isnull;
	uint64	   *rowpacked;		/* its packed GROUP BY key (PaxGroupReadKey) */
#ifdef PAX_HAVE_FAST_NUMERIC
	/* the numeric columns the aggregates read, parsed per page */
	int		   *numattnos;
	int			nnumcols;
	PaxNumColumn *numcols;
#endif
	int32		gid[PAX_MAX_CAPACITY];	/* group of each selected row */
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
#ifdef PAX_HAVE_FAST_NUMERIC
		case F_SUM_NUMERIC:
			return PAX_AGG_SUM_NUMERIC;
		case F_AVG_NUMERIC:
			return PAX_AGG_AVG_NUMERIC;
#endif
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
#ifdef PAX_HAVE_FAST_NUMERIC
		if (kind == PAX_AGG_SUM_NUMERIC || kind == PAX_AGG_AVG_NUMERIC)
		{
			if (list_length(aggref->args) != 1 ||
				!PaxNumExprSupported((Node *) ((TargetEntry *) linitial(aggref->args))->expr,
									 relid))
				return false;
		}
		else
#endif
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

/*
 * PaxAggPartialPaths offers, where workers may scan the relation, the
 * aggregate mode under a Gather: each participant's PaxScan folds the pages
 * it claims into partial states (PaxAggPartial), and a Finalize Aggregate
 * (hashed with GROUP BY) combines them and applies HAVING, as core's
 * partial aggregation does (add_paths_to_grouping_rel() and
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
	List	   *gcols;
	List	   *gvars;
	List	   *having;
	ListCell   *lc;
	CustomPath *cpath;
	double		ntuples;
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
	PaxSplitClauses(input_rel->baserestrictinfo, input_rel->relid,
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
	PaxPageCosts(root, input_rel, &disk_page, &cached_page);
	disk = input_rel->pages * disk_page;
	cpu = input_rel->pages * cached_page +
		ntuples * PaxPushedRowCost(PaxPushedClausesCost(root, input_rel, pushed),
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

	/* with the relation's index, as planning knows it */
	cpath = PaxAggMakePath(output_rel, output_rel->reltarget, disk + cpu,
						   ngroups, 0,
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
		Assert(agg->attno < tupdesc->natts);
		if (agg->attno >= 0)
			agg->type = TupleDescAttr(tupdesc, agg->attno)->atttypid;
#ifdef PAX_HAVE_FAST_NUMERIC
		if (agg->kind == PAX_AGG_SUM_NUMERIC || agg->kind == PAX_AGG_AVG_NUMERIC)
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
 * PaxAggColumn folds one column's values of the selected rows of a page
 * into an aggregate of the one group of a query without GROUP BY, in a
 * loop per width with no call per value.  Sums accumulate in int64 as
 * int2_sum() and int4_sum() in int.c (PostgreSQL 15) do, which cannot
 * overflow for int2 and int4 values.
 */
static void
PaxAggColumn(PaxAgg *agg, PaxAggAcc *accum, Page page,
			 const PaxPageLayout *layout, TupleDesc tupdesc,
			 const uint16 *sel, int nsel)
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
		count = nsel;
		if (agg->kind != PAX_AGG_COUNT)
		{
			v = len == 2 ? DatumGetInt16(d) : len == 4 ? DatumGetInt32(d) :
				DatumGetInt64(d);
			sum = v * nsel;
			lo = hi = v;
		}
	}
	else
	{
		col = &layout->cols[agg->attno];
		if (col->data == 0)
			return;				/* NULL in every row */
		nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;

#define PAX_AGG_LOOP(ctype) \
		do { \
			const ctype *v = (const ctype *) data; \
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
		else if (col->bits != 0 && nulls == NULL && nsel > 0 &&
				 nsel == PaxPageGetHeader(page)->pp_nrows)
		{
			/* every row of a bit-packed column (sel ascends: 0 .. nsel-1) */
			PaxPackedColumnStats(page, col, nsel, &sum, &lo, &hi);
			count = nsel;
		}
		else
		{
			/* encoded values decoded first */
			const char *data = PaxColumnFixedData(page, col,
												  PaxPageGetHeader(page)->pp_nrows,
												  PaxDecodeScratch);

			if (col->attlen == 2)
				PAX_AGG_LOOP(int16);
			else if (col->attlen == 4)
				PAX_AGG_LOOP(int32);
			else
				PAX_AGG_LOOP(int64);
		}
#undef PAX_AGG_LOOP
	}

	if (count == 0)
		return;
	if (agg->kind == PAX_AGG_MIN)
		accum->acc = accum->count == 0 ? lo : Min(accum->acc, lo);
	else if (agg->kind == PAX_AGG_MAX)
		accum->acc = accum->count == 0 ? hi : Max(accum->acc, hi);
	else
		accum->acc += sum;
	accum->count += count;
}

/*
 * PaxAggFoldRow folds one row's value of an integer-like aggregate into
 * its group's accumulator (the GROUP BY form of PaxAggColumn's loops).
 */
static inline void
PaxAggFoldRow(PaxAgg *agg, PaxAggAcc *accum, Datum d, bool isnull, int16 len)
{
	int64		x;

	if (isnull)
		return;
	if (agg->kind == PAX_AGG_COUNT)
	{
		accum->count++;
		return;
	}
	x = len == 2 ? DatumGetInt16(d) : len == 4 ? DatumGetInt32(d) :
		DatumGetInt64(d);
	if (agg->kind == PAX_AGG_MIN)
		accum->acc = accum->count == 0 ? x : Min(accum->acc, x);
	else if (agg->kind == PAX_AGG_MAX)
		accum->acc = accum->count == 0 ? x : Max(accum->acc, x);
	else
		accum->acc += x;
	accum->count++;
}

/*
 * PaxAggValue reads one column of a row of the page (the caller holds a
 * pin), or its missing value for a column added after the page was laid
 * out.
 */
static inline Datum
PaxAggValue(Page page, const PaxPageLayout *layout, TupleDesc tupdesc,
			int row, int attno, bool *isnull)
{
	if (attno < layout->natts)
		return PaxPageGetValue(page, layout, row, attno, isnull);
	return getmissingattr(tupdesc, attno + 1, isnull);
}

/* ----------------------------------------------------------------
 * Groups
 * ----------------------------------------------------------------
 */

/*
 * PaxGroupKeyLen gives the significant length of a key's n bytes at p:
 * for bpchar without trailing blanks, as bpchareq compares them.
 */
static inline int
PaxGroupKeyLen(const PaxGroupCol *gc, const char *p, int n)
{
	return gc->bpchar ? PaxBlankTrimmedLen(p, n) : n;
}

/*
 * PaxGroupKeyBytes gives a varlena key's significant bytes: detoasted (in
 * the current memory context) and, for bpchar, without trailing blanks,
 * as bpchareq compares them.
 */
static inline const char *
PaxGroupKeyBytes(const PaxGroupCol *gc, Datum d, int *len)
{
	return PaxStringDatumBytes(d, gc->bpchar, len);
}

/* PaxGroupHash hashes a row's GROUP BY values (state->values/isnull). */
static uint32
PaxGroupHash(PaxAggScanState *state)
{
	uint32		h = 0;

	for (int i = 0; i < state->ngcols; i++)
	{
		const PaxGroupCol *gc = &state->gcols[i];
		Datum		d = state->values[gc->attno];
		uint32		k;

		if (state->isnull[gc->attno])
			k = 0x9e3779b9;
		else if (gc->byval)
			k = murmurhash32((uint32) d ^ (uint32) ((uint64) d >> 32));
		else
		{
			int			len;
			const char *p = PaxGroupKeyBytes(gc, d, &len);

			k = hash_bytes((const unsigned char *) p, len);
		}
		h = hash_combine(h, k);
	}
	return h;
}

/* PaxGroupEqual: is the row's key (state->values/isnull) group g's? */
static bool
PaxGroupEqual(PaxAggScanState *state, int g)
{
	const Datum *keys = &state->gkeys[g * state->ngcols];
	const bool *nulls = &state->gnulls[g * state->ngcols];

	for (int i = 0; i < state->ngcols; i++)
	{
		const PaxGroupCol *gc = &state->gcols[i];
		Datum		d = state->values[gc->attno];
		bool		isnull = state->isnull[gc->attno];

		if (isnull != nulls[i])
			return false;
		if (isnull)
			continue;
		if (gc->byval)
		{
			if (d != keys[i])
				return false;
		}
		else
		{
			int			alen;
			int			blen;
			const char *a = PaxGroupKeyBytes(gc, d, &alen);
			const char *b = PaxGroupKeyBytes(gc, keys[i], &blen);

			if (alen != blen || memcmp(a, b, alen) != 0)
				return false;
		}
	}
	return true;
}

/* PaxGroupResize doubles the slots and rehashes the groups into them. */
static void
PaxGroupResize(PaxAggScanState *state)
{
	int			nslots = state->nslots == 0 ? 1024 : state->nslots * 2;

	if (state->slots)
		pfree(state->slots);
	state->slots = MemoryContextAlloc(state->groupcxt, sizeof(int32) * nslots);
	memset(state->slots, 0xff, sizeof(int32) * nslots);
	state->nslots = nslots;
	for (int g = 0; g < state->ngroups; g++)
	{
		uint32		i = state->ghashes[g] & (nslots - 1);

		while (state->slots[i] >= 0)
			i = (i + 1) & (nslots - 1);
		state->slots[i] = g;
	}
}

/*
 * PaxGroupNew adds a group for the row's key (state->values/isnull, and
 * state->rowpacked when packed), copying the key into the groups' memory,
 * and returns its index.
 */
static int
PaxGroupNew(PaxAggScanState *state, uint32 h, bool packed)
{
	int			g = state->ngroups;
	MemoryContext old = MemoryContextSwitchTo(state->groupcxt);

	if (g == state->maxgroups)
	{
		int			n = Max(64, state->maxgroups * 2);
		int			nk = Max(state->ngcols, 1);

		if (state->maxgroups == 0)
		{
			state->gkeys = palloc(sizeof(Datum) * n * nk);
			state->gnulls = palloc(sizeof(bool) * n * nk);
			state->gpacked = palloc(sizeof(uint64) * n * nk);
			state->gpackok = palloc(sizeof(bool) * n);
			state->ghashes = palloc(sizeof(uint32) * n);
			state->accs = palloc(sizeof(PaxAggAcc) * n * Max(state->naggs, 1));
		}
		else
		{
			state->gkeys = repalloc(state->gkeys, sizeof(Datum) * n * nk);
			state->gnulls = repalloc(state->gnulls, sizeof(bool) * n * nk);
			state->gpacked = repalloc(state->gpacked, sizeof(uint64) * n * nk);
			state->gpackok = repalloc(state->gpackok, sizeof(bool) * n);
			state->ghashes = repalloc(state->ghashes, sizeof(uint32) * n);
			state->accs = repalloc(state->accs,
								   sizeof(PaxAggAcc) * n * Max(state->naggs, 1));
		}
		state->maxgroups = n;
	}
	for (int i = 0; i < state->ngcols; i++)
	{
		const PaxGroupCol *gc = &state->gcols[i];
		bool		isnull = state->isnull[gc->attno];
		Datum		d = state->values[gc->attno];

		state->gnulls[g * state->ngcols + i] = isnull;
		if (isnull || gc->byval)
			state->gkeys[g * state->ngcols + i] = isnull ? (Datum) 0 : d;
		else
			state->gkeys[g * state->ngcols + i] =
				PointerGetDatum(PG_DETOAST_DATUM_COPY(d));
	}
	state->gpackok[g] = packed;
	if (packed)
		memcpy(&state->gpacked[g * state->ngcols], state->rowpacked,
			   sizeof(uint64) * state->ngcols);
	state->ghashes[g] = h;
	memset(&state->accs[g * state->naggs], 0, sizeof(PaxAggAcc) * state->naggs);
	state->ngroups++;
	MemoryContextSwitchTo(old);

	if (state->ngroups * 2 > state->nslots)
		PaxGroupResize(state);
	else
	{
		uint32		i = h & (state->nslots - 1);

		while (state->slots[i] >= 0)
			i = (i + 1) & (state->nslots - 1);
		state->slots[i] = g;
	}
	return g;
}

/* A packed varlena key's bytes: at most this many (one more holds the length). */
#define PAX_PACKED_KEY_BYTES	7

/* PaxHashPacked hashes a packed key (the 64-bit finalizer of MurmurHash3). */
static inline uint32
PaxHashPacked(uint64 k)
{
	k ^= k >> 33;
	k *= UINT64CONST(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64CONST(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return (uint32) k;
}

/*
 * PaxGroupReadKey reads GROUP BY column gc of a row into state->values and
 * state->isnull and tells whether its value packs into one uint64 (*pk): a
 * by-value Datum, or a varlena whose significant bytes (PaxGroupKeyBytes)
 * are at most PAX_PACKED_KEY_BYTES, with their length.  Whether a value
 * packs depends on the value alone (not on how it is stored), so a key
 * always takes the same way: rows whose every key column packs are hashed
 * and compared as integers (PaxGroupRows).  Short varlenas are read inline.
 */
static inline bool
PaxGroupReadKey(PaxAggScanState *state, const PaxGroupCol *gc, Page page,
				const PaxPageLayout *layout, TupleDesc tupdesc, int row,
				uint64 *pk)
{
	int			a = gc->attno;
	const char *p = NULL;
	const char *b;
	int			n;
	uint64		v = 0;

	if (gc->attlen == -1 && a < layout->natts && layout->cols[a].data != 0)
		p = PaxPageShortValue(page, &layout->cols[a], row,
							  PaxDecodes(&layout->cols[a]) ? PaxDecodeCell(a) : NULL);
	if (p != NULL)
	{
		state->values[a] = PointerGetDatum(p);
		state->isnull[a] = false;
		b = p + VARHDRSZ_SHORT;
		n = PaxGroupKeyLen(gc, b, VARSIZE_1B(p) - VARHDRSZ_SHORT);
	}
	else
	{
		state->values[a] = PaxAggValue(page, layout, tupdesc, row, a,
									   &state->isnull[a]);
		if (state->isnull[a])
			return false;
		if (gc->byval)
		{
			*pk = (uint64) state->values[a];
			return true;
		}
		if (gc->attlen != -1)
			return false;
		b = PaxGroupKeyBytes(gc, state->values[a], &n);
	}
	if (n > PAX_PACKED_KEY_BYTES)
		return false;
	for (int i = 0; i < n; i++)
		v |= (uint64) (uint8) b[i] << (8 * i);
	*pk = (v << 8) | (uint64) n;
	return true;
}

/*
 * PaxGroupRows finds (or makes) the group of each selected row of the page
 * into state->gid[], reading the GROUP BY columns into state->values.
 */
static void
PaxGroupRows(PaxAggScanState *state, Page page, const PaxPageLayout *layout,
			 TupleDesc tupdesc, const uint16 *sel, int nsel)
{
	int			ngcols = state->ngcols;

	for (int k = 0; k < nsel; k++)
	{
		uint32		h = 0;
		uint32		i;
		int			g;
		bool		packed = true;

		for (int c = 0; c < ngcols; c++)
			packed &= PaxGroupReadKey(state, &state->gcols[c], page, layout,
									  tupdesc, sel[k], &state->rowpacked[c]);
		if (packed)
		{
			for (int c = 0; c < ngcols; c++)
				h = hash_combine(h, PaxHashPacked(state->rowpacked[c]));
		}
		else
			h = PaxGroupHash(state);
		i = h & (state->nslots - 1);
		for (;;)
		{
			g = state->slots[i];
			if (g < 0)
			{
				g = PaxGroupNew(state, h, packed);
				break;
			}
			if (state->ghashes[g] == h)
			{
				/* a packed key equals only a packed key, bit for bit */
				if (packed && state->gpackok[g])
				{
					const uint64 *gk = &state->gpacked[g * ngcols];
					int			c = 0;

					while (c < ngcols && gk[c] == state->rowpacked[c])
						c++;
					if (c == ngcols)
						break;
				}
				else if (!packed && !state->gpackok[g] &&
						 PaxGroupEqual(state, g))
					break;
			}
			i = (i + 1) & (state->nslots - 1);
		}
		state->gid[k] = g;
	}
}

#ifdef PAX_HAVE_FAST_NUMERIC
/*
 * PaxAggNumericSlow folds selected row r's numeric expression, which the
 * fast path could not compute, into the group's sum with numeric
 * functions.
 */
static void
PaxAggNumericSlow(PaxAggScanState *state, PaxAgg *agg, PaxAggAcc *accum,
				  Page page, TupleDesc tupdesc, int r)
{
	bool		resnull;
	Datum		d;
	MemoryContext old = MemoryContextSwitchTo(state->rowcxt);

	for (int i = 0; i < state->nnumcols; i++)
	{
		int			a = state->numattnos[i];

		state->values[a] = PaxAggValue(page, state->base.layout, tupdesc,
									   state->base.sel[r], a,
									   &state->isnull[a]);
	}
	d = PaxNumEvalSlow(agg->num, state->values, state->isnull, &resnull);
	MemoryContextSwitchTo(old);
	if (!resnull)
	{
		PaxNumSumAddSlow(&accum->nsum, d, state->groupcxt);
		accum->count++;
	}
}
#endif

/*
 * PaxAggPage folds the selected rows of the current page into the groups'
 * accumulators.  The page is pinned; values never move while it is.
 */
static void
PaxAggPage(PaxAggScanState *state, Page page, TupleDesc tupdesc)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int			nsel = state->base.nsel;

	MemoryContextReset(state->rowcxt);
	if (state->ngcols == 0)
	{
		/* one group: a loop per column */
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];

			if (agg->kind == PAX_AGG_COUNT_STAR)
				state->accs[k].count += nsel;
			else if (agg->attno >= 0)
				PaxAggColumn(agg, &state->accs[k], page, layout, tupdesc,
							 sel, nsel);
		}
		for (int r = 0; r < nsel; r++)
			state->gid[r] = 0;
	}
	else
	{
		MemoryContext old = MemoryContextSwitchTo(state->rowcxt);

		PaxGroupRows(state, page, layout, tupdesc, sel, nsel);
		MemoryContextSwitchTo(old);
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];
			int16		len;

			if (agg->kind == PAX_AGG_COUNT_STAR)
			{
				for (int r = 0; r < nsel; r++)
					state->accs[state->gid[r] * state->naggs + k].count++;
				continue;
			}
			if (agg->attno < 0)
				continue;
			len = TupleDescAttr(tupdesc, agg->attno)->attlen;
			for (int r = 0; r < nsel; r++)
			{
				bool		isnull;
				Datum		d = PaxAggValue(page, layout, tupdesc, sel[r],
											agg->attno, &isnull);

				PaxAggFoldRow(agg, &state->accs[state->gid[r] * state->naggs + k],
							  d, isnull, len);
			}
		}
	}

#ifdef PAX_HAVE_FAST_NUMERIC
	if (state->has_numeric)
	{
		/* each numeric column parsed once, then every expression */
		for (int i = 0; i < state->nnumcols; i++)
		{
			PaxNumColumn *c = &state->numcols[i];
			int			a = state->numattnos[i];
			const PaxColumnLayout *col = a < layout->natts &&
				layout->cols[a].data != 0 ? &layout->cols[a] : NULL;

			for (int r = 0; r < nsel; r++)
			{
				const char *p = col ? PaxPageShortValue(page, col, sel[r],
														PaxDecodes(col) ? PaxDecodeCell(a) : NULL) : NULL;
				bool		isnull;
				Datum		d;

				if (p != NULL &&
					PaxNumParseShort(p + VARHDRSZ_SHORT,
									 VARSIZE_1B(p) - VARHDRSZ_SHORT,
									 &c->v[r], &c->scale[r]))
				{
					c->status[r] = PAX_NUM_OK;
					continue;
				}
				d = PaxAggValue(page, layout, tupdesc, sel[r], a, &isnull);
				c->status[r] = PaxNumParseDatum(d, isnull, &c->v[r],
												&c->scale[r]);
			}
		}
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];
			const PaxNumColumn *res;

			if (agg->num == NULL)
				continue;
			res = PaxNumEvalPage(agg->num, state->numcols, nsel);
			for (int r = 0; r < nsel; r++)
			{
				PaxAggAcc  *accum = &state->accs[state->gid[r] * state->naggs + k];

				if (res->status[r] == PAX_NUM_OK)
				{
					PaxNumSumAdd(&accum->nsum, res->v[r], res->scale[r],
								 state->groupcxt);
					accum->count++;
				}
				else if (res->status[r] == PAX_NUM_SLOW)
					PaxAggNumericSlow(state, agg, accum, page, tupdesc, r);
			}
		}
	}
#endif
}

/*
 * PaxAggResult is the value of an aggregate once every row is folded in.
 * avg of integers is computed as int8_avg() in numeric.c (PostgreSQL 15)
 * does, sum and avg of numerics as numeric_sum() and numeric_avg().
 */
static Datum
PaxAggResult(PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = false;
	if (agg->kind == PAX_AGG_COUNT_STAR || agg->kind == PAX_AGG_COUNT)
		return Int64GetDatum(accum->count);
	if (accum->count == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}
	switch (agg->kind)
	{
		case PAX_AGG_SUM:
			return Int64GetDatum(accum->acc);
		case PAX_AGG_AVG:
			/* as int8_avg: numeric sum / numeric count */
			return DirectFunctionCall2(numeric_div,
									   NumericGetDatum(int64_to_numeric(accum->acc)),
									   NumericGetDatum(int64_to_numeric(accum->count)));
#ifdef PAX_HAVE_FAST_NUMERIC
		case PAX_AGG_SUM_NUMERIC:
		case PAX_AGG_AVG_NUMERIC:
			return PaxNumSumResult(&accum->nsum, accum->count,
								   agg->kind == PAX_AGG_AVG_NUMERIC, isnull);
#endif
		default:
			switch (agg->type)
			{
				case INT2OID:
					return Int16GetDatum((int16) accum->acc);
				case INT4OID:
				case DATEOID:
					return Int32GetDatum((int32) accum->acc);
				default:
					return Int64GetDatum(accum->acc);
			}
	}
}

/*
 * PaxAggPartial returns an aggregate's partial state for a Finalize
 * Aggregate above a Gather: what the aggregate's transition function (and
 * serial function) would have made of the same values, in PostgreSQL 15's
 * pg_aggregate: count and sum of int2/int4 as int8 (sums NULL with no
 * value), avg of int2/int4 as int8[] {count, sum} (int4_avg_accum's
 * state, never NULL), min and max as the value, and numeric sum and avg as
 * numeric_avg_serialize()'s bytea (NULL with no value, as its state).
 */
static Datum
PaxAggPartial(PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = false;
	switch (agg->kind)
	{
		case PAX_AGG_AVG:
			{
				Datum		elems[2];

				elems[0] = Int64GetDatum(accum->count);
				elems[1] = Int64GetDatum(accum->acc);
				return PointerGetDatum(construct_array(elems, 2, INT8OID,
													   sizeof(int64),
													   FLOAT8PASSBYVAL,
													   TYPALIGN_DOUBLE));
			}
#ifdef PAX_HAVE_FAST_NUMERIC
		case PAX_AGG_SUM_NUMERIC:
		case PAX_AGG_AVG_NUMERIC:
			{
				Datum		total = PaxNumSumResult(&accum->nsum, accum->count,
													false, isnull);

				if (*isnull)
					return (Datum) 0;
				return PaxNumAvgStateSerialize(total, accum->count);
			}
#endif
		default:
			return PaxAggResult(agg, accum, isnull);
	}
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
		slot->tts_values[agss->ngcols + k] = agss->partial ?
			PaxAggPartial(&agss->aggs[k], &agss->accs[g * agss->naggs + k],
						  &slot->tts_isnull[agss->ngcols + k]) :
			PaxAggResult(&agss->aggs[k], &agss->accs[g * agss->naggs + k],
						 &slot->tts_isnull[agss->ngcols + k]);
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
						 PaxAggNames[agg->kind], arg);
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
