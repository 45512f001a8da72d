/*-------------------------------------------------------------------------
 *
 * pax_customscan_plan.c
 *	  PaxScan: a custom scan of pax relations that reads only the columns
 *	  the plan needs and evaluates pushed-down selections on the minipages,
 *	  before any row is formed.
 *
 * Planner side: set_rel_pathlist_hook adds a PaxScan path (and a partial
 * path for parallel plans) to every pax relation scanned as a base or
 * partition relation.  The restriction clauses that PaxScan can evaluate
 * itself (pax_pushdown_clauses.c) go to custom_exprs and are costed as cheap
 * column-at-a-time work; the others stay in the plan's qual.
 *
 * This file holds the planner side and the definition of PaxScan (its
 * path, plan and executor methods, and their registration).  The executor
 * side, with the page loop and the parallel DSM callbacks, is
 * pax_customscan_exec.c; EXPLAIN's lines are pax_customscan_explain.c.
 *
 * pax_am/pax_customscan_plan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/table.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/plancat.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "utils/rel.h"
#include "utils/spccache.h"

#include "pax_slot.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

/* GUC pax.enable_customscan, defined in _PG_init */
bool		pax_enable_customscan = true;

/*
 * PaxScanCreateUpper makes the executor state of a PaxScan plan that scans
 * no relation of its own: the aggregate mode's, which pax_aggscan.c sets
 * when it installs its planner hook.  The plain scan sits below the
 * aggregate mode and reaches it only through this pointer.
 */
Node	   *(*PaxScanCreateUpper) (CustomScan *cscan) = NULL;

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;

/* ----------------------------------------------------------------
 * Planner
 * ----------------------------------------------------------------
 */

/* Defined at the end of the file, with PaxScan's other methods. */
static const CustomPathMethods PaxScanPathMethods;
static const CustomExecMethods PaxScanExecMethods;

/*
 * PaxIsPaxRelation tells whether a relation uses the pax access method.
 * The planner already holds a lock on it.
 */
bool
PaxIsPaxRelation(Oid relid)
{
	Relation	rel = table_open(relid, NoLock);
	bool		pax = PaxIsPaxAm(rel->rd_tableam);

	table_close(rel, NoLock);
	return pax;
}

/*
 * PaxMinSecurityLevel returns the lowest security level of the clauses.
 */
static Index
PaxMinSecurityLevel(List *clauses)
{
	Index		min_level = UINT_MAX;
	ListCell   *lc;

	foreach(lc, clauses)
		min_level = Min(min_level, lfirst_node(RestrictInfo, lc)->security_level);
	return min_level;
}

/*
 * PaxNeededAttrs sets *attrs to the columns a scan of rel reads, those of
 * the target list and of the restriction clauses (offset by
 * FirstLowInvalidHeapAttributeNumber); false when it reads them all (a
 * whole-row reference) or rel has no columns to tell.
 */
static bool
PaxNeededAttrs(RelOptInfo *rel, Bitmapset **attrs)
{
	ListCell   *lc;

	*attrs = NULL;
	if (rel->max_attr <= 0)
		return false;
	pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, attrs);
	foreach(lc, rel->baserestrictinfo)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause,
					   rel->relid, attrs);
	if (bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, *attrs))
	{
		bms_free(*attrs);
		*attrs = NULL;
		return false;
	}
	return true;
}

/*
 * PaxNeededShare estimates the share of the relation's columns a scan
 * reads (PaxNeededAttrs).
 */
static double
PaxNeededShare(RelOptInfo *rel)
{
	Bitmapset  *attrs;
	int			n = 0;

	if (!PaxNeededAttrs(rel, &attrs))
		return 1.0;
	for (int attno = 1; attno <= rel->max_attr; attno++)
		if (bms_is_member(attno - FirstLowInvalidHeapAttributeNumber, attrs))
			n++;
	bms_free(attrs);
	return (double) n / rel->max_attr;
}

/*
 * PaxNeededByteShare estimates the share of a page's bytes a scan of rel
 * reads: the average widths of the columns it reads (PaxNeededAttrs) over
 * the row's, as set_rel_width() in costsize.c estimates them
 * (get_relation_data_width: pg_statistic, else the types'; cached in
 * rel->attr_widths).  A pax page's minipages of the other columns are
 * never touched.
 */
static double
PaxNeededByteShare(PlannerInfo *root, RelOptInfo *rel)
{
	int32	   *widths = rel->attr_widths - rel->min_attr;
	Bitmapset  *attrs;
	double		needed = 0;
	double		all;

	if (!PaxNeededAttrs(rel, &attrs))
		return 1.0;
	all = get_relation_data_width(planner_rt_fetch(rel->relid, root)->relid,
								  widths);
	for (int attno = 1; attno <= rel->max_attr; attno++)
		if (bms_is_member(attno - FirstLowInvalidHeapAttributeNumber, attrs))
			needed += widths[attno];
	bms_free(attrs);
	return all > 0 ? needed / all : 1.0;
}

/*
 * PaxPushedClausesCost is the cost per stored row of rel's pushed clauses
 * (RestrictInfos or bare clauses): a share of an operator's cost for each
 * one PaxScan evaluates inline (PaxClauseRun), and for each other one its
 * own cost, its operator's function being called per row as the executor's
 * qual would call it.  With first not NULL, the clauses that run in the
 * last phase, after the join filters, are split off: their cost goes to
 * *last_cost, and the others are appended to *first.
 */
Cost
PaxPushedClausesCost(PlannerInfo *root, RelOptInfo *rel, List *pushed,
					 List **first, Cost *last_cost)
{
	Relation	relation;
	Cost		cost = 0;
	ListCell   *lc;

	if (last_cost != NULL)
		*last_cost = 0;
	if (pushed == NIL)
		return 0;
	relation = table_open(planner_rt_fetch(rel->relid, root)->relid, NoLock);
	foreach(lc, pushed)
	{
		Node	   *clause = lfirst(lc);
		int			run;
		Cost		one;

		if (IsA(clause, RestrictInfo))
			clause = (Node *) ((RestrictInfo *) clause)->clause;
		run = PaxClauseRun(clause, rel->relid, RelationGetDescr(relation));
		if (run & PAX_RUN_INLINE)
			one = PAX_PUSHED_CLAUSE_COST_SHARE * cpu_operator_cost;
		else
		{
			QualCost	qc;

			cost_qual_eval_node(&qc, clause, root);
			one = qc.per_tuple;
		}
		if (first != NULL && (run & PAX_RUN_LAST))
			*last_cost += one;
		else
		{
			cost += one;
			if (first != NULL)
				*first = lappend(*first, lfirst(lc));
		}
	}
	table_close(relation, NoLock);
	return cost;
}

/*
 * PaxCostPath estimates a PaxScan path as cost_seqscan would, with pages in
 * memory charged less (PaxScanPageCosts), the pushed clauses evaluated
 * column-at-a-time (PaxPushedClausesCost) and rows formed only when they
 * pass them.  Under a hash join whose table filters its rows (jf_keys > 0
 * key columns, pax_joinfilter.c), the rows that pass the pushed clauses are
 * checked against the filter, and only the share jf_share of them that
 * passes it is formed and returned.
 * Adapted from cost_seqscan() in costsize.c, PostgreSQL 15, with the
 * parallel divisor of get_parallel_divisor() there.
 */
static void
PaxCostPath(PlannerInfo *root, RelOptInfo *rel, CustomPath *cpath,
			List *pushed, List *rest, int jf_keys, double jf_share)
{
	Path	   *path = &cpath->path;
	Cost		startup_cost = 0;
	Cost		cpu_run_cost;
	Cost		disk_run_cost;
	Cost		disk_page;
	Cost		cached_page;
	QualCost	rest_cost;
	Selectivity pushed_sel;
	double		ntuples = rel->tuples;
	double		npass;
	double		nfirst;
	List	   *first = NIL;
	Cost		first_cost;
	Cost		last_cost;
	Cost		form_cost;

	/* a sequential scan, which enable_seqscan = off discourages */
	if (!enable_seqscan)
		startup_cost += disable_cost;

	PaxScanPageCosts(root, rel, &disk_page, &cached_page);
	disk_run_cost = disk_page * rel->pages;

	/*
	 * Under a join filter, few rows are formed: a page in memory costs
	 * what reading its minipages does, a fixed part and the rest in
	 * proportion to the share of its bytes the scan reads.
	 */
	if (jf_keys > 0)
		cached_page *= PAX_PAGE_FIXED_SHARE +
			(1.0 - PAX_PAGE_FIXED_SHARE) * PaxNeededByteShare(root, rel);

	/*
	 * Two-column clauses run last, after the join filter (PaxPredPhase):
	 * charged for the rows that reach them.  The selectivities use the
	 * RestrictInfos themselves, which cache them.
	 */
	first_cost = PaxPushedClausesCost(root, rel, pushed, &first, &last_cost);
	pushed_sel = clauselist_selectivity(root, pushed, rel->relid, JOIN_INNER,
										NULL);
	npass = clamp_row_est(ntuples * pushed_sel);
	nfirst = clamp_row_est(ntuples *
						   clauselist_selectivity(root, first, rel->relid,
												  JOIN_INNER, NULL));
	cost_qual_eval(&rest_cost, extract_actual_clauses(rest, false), root);
	startup_cost += rest_cost.startup + path->pathtarget->cost.startup;

	/*
	 * Each row is checked for visibility and for each pushed clause in a
	 * typed loop; only passing rows are formed, at a cost that grows with
	 * the share of the columns read (the plain scan's slot reads every
	 * column up to the last one needed), and meet the other quals and the
	 * target list.
	 */
	form_cost = cpu_tuple_cost * (PAX_FORM_FIXED_SHARE +
								  PAX_FORM_COLUMN_SHARE * PaxNeededShare(rel));
	cpu_run_cost = cached_page * rel->pages +
		ntuples * PaxPushedRowCost(first_cost, rel->allvisfrac);
	if (jf_keys > 0)
	{
		cpu_run_cost += nfirst * jf_keys * PAX_PUSHED_CLAUSE_COST_SHARE * cpu_operator_cost;
		nfirst = clamp_row_est(nfirst * jf_share);
		npass = clamp_row_est(npass * jf_share);
		path->rows = clamp_row_est(path->rows * jf_share);
	}
	cpu_run_cost += nfirst * last_cost;
	cpu_run_cost += npass * (form_cost + rest_cost.per_tuple) +
		path->rows * path->pathtarget->cost.per_tuple;

	if (path->parallel_workers > 0)
	{
		double		divisor = PaxParallelDivisor(path->parallel_workers);

		cpu_run_cost /= divisor;
		path->rows = clamp_row_est(path->rows / divisor);
	}

	path->startup_cost = startup_cost;
	path->total_cost = startup_cost + cpu_run_cost + disk_run_cost;
}

/*
 * PaxMakePath makes a PaxScan path of a base relation, parallel-aware if
 * parallel_workers > 0.  Adapted from create_seqscan_path() in pathnode.c,
 * PostgreSQL 15.
 */
static CustomPath *
PaxMakePath(PlannerInfo *root, RelOptInfo *rel, Relids required_outer,
			int parallel_workers)
{
	CustomPath *cpath = makeNode(CustomPath);
	List	   *clauses = rel->baserestrictinfo;
	List	   *pushed;
	List	   *rest;

	cpath->path.pathtype = T_CustomScan;
	cpath->path.parent = rel;
	cpath->path.pathtarget = rel->reltarget;
	cpath->path.param_info = get_baserel_parampathinfo(root, rel, required_outer);
	cpath->path.parallel_aware = parallel_workers > 0;
	cpath->path.parallel_safe = rel->consider_parallel;
	cpath->path.parallel_workers = parallel_workers;
	cpath->path.pathkeys = NIL;
	cpath->path.rows = cpath->path.param_info ?
		cpath->path.param_info->ppi_rows : rel->rows;
	/*
	 * ExecScan projects the scan tuple (PaxScanExec), so the planner need
	 * not put a Result node above the scan to compute a target list: it
	 * gives the scan the projection's target list after PaxScanPlan.
	 */
	cpath->flags = CUSTOMPATH_SUPPORT_BACKWARD_SCAN |
		CUSTOMPATH_SUPPORT_PROJECTION;
	cpath->methods = &PaxScanPathMethods;

	if (cpath->path.param_info)
		clauses = list_concat_copy(clauses, cpath->path.param_info->ppi_clauses);
	PaxSplitClauses(root, clauses, rel->relid, &pushed, &rest);
	PaxCostPath(root, rel, cpath, pushed, rest, 0, 1.0);
	return cpath;
}

/*
 * PaxJoinFilterAllowed tells whether runtime join filters (pax_joinfilter.c)
 * may drop rows of a scan with these restriction clauses, rest being those
 * not pushed down: filters drop rows before the quals left to the executor
 * see them, so only where those cannot raise an error on a row
 * (leakproof), and never under security quals, whose hidden rows a
 * filter's counter would show.  The plan (PaxScanPlan) and the costs
 * (PaxJfJoinPaths) decide alike.
 */
bool
PaxJoinFilterAllowed(List *clauses, List *rest)
{
	ListCell   *lc;

	foreach(lc, clauses)
		if (lfirst_node(RestrictInfo, lc)->security_level > 0)
			return false;
	return !PaxMayFail((Node *) extract_actual_clauses(rest, false));
}

/*
 * PaxIsPlainScanPath tells whether a path is a plain (not aggregate) PaxScan
 * path.
 */
bool
PaxIsPlainScanPath(Path *path)
{
	return IsA(path, CustomPath) &&
		((CustomPath *) path)->methods == &PaxScanPathMethods;
}

/*
 * PaxJoinFilteredPath copies an unparameterized PaxScan path, serial or
 * partial, whose relation's restriction clauses split into pushed and rest,
 * and costs the copy as the outer side of a hash join whose table filters
 * it on jf_keys columns, passing the share jf_share of its rows (see
 * PaxCostPath).  The plan is the same: the filter is attached when the
 * executor starts (pax_joinfilter.c).
 */
Path *
PaxJoinFilteredPath(PlannerInfo *root, Path *base, List *pushed, List *rest,
					int jf_keys, double jf_share)
{
	CustomPath *cpath = makeNode(CustomPath);

	Assert(PaxIsPlainScanPath(base) && base->param_info == NULL);
	memcpy(cpath, base, sizeof(CustomPath));
	/* the relation's rows, which PaxCostPath shares among the workers */
	cpath->path.rows = base->parent->rows;
	PaxCostPath(root, base->parent, cpath, pushed, rest, jf_keys, jf_share);
	return &cpath->path;
}

/*
 * PaxIndexPathWins tells whether rel, of one row or none after its
 * restriction clauses, has an unparameterized index path cheaper than a
 * PaxScan of it could be: a PaxScan visits every page at no less than its
 * page costs (PaxScanPageCosts, the cached share cut to what a page costs
 * under a join filter), whatever its clauses.  A point query (an OLTP
 * statement, planned on each execution under the simple protocol) then
 * skips analysing and costing the clauses for a path that cannot win:
 * with one row, no LIMIT favours a cheaper startup either.
 */
static bool
PaxIndexPathWins(PlannerInfo *root, RelOptInfo *rel)
{
	Cost		disk;
	Cost		cached;
	Cost		floor;
	ListCell   *lc;

	if (rel->rows > 1.0 || rel->pages == 0)
		return false;
	PaxScanPageCosts(root, rel, &disk, &cached);
	floor = (disk + cached * PAX_PAGE_FIXED_SHARE) * rel->pages;
	foreach(lc, rel->pathlist)
	{
		Path	   *path = (Path *) lfirst(lc);

		if (IsA(path, IndexPath) && path->param_info == NULL &&
			path->total_cost < floor)
			return true;
	}
	return false;
}

/*
 * PaxSetRelPathlist adds PaxScan paths for pax relations.  It leaves the
 * relation alone when a system column other than ctid or tableoid is
 * needed (PaxScan forms virtual rows), the scan samples the table, or
 * pax.enable_pushdown is off.  The partial path follows
 * create_plain_partial_paths() in allpaths.c, PostgreSQL 15.
 *
 * pax.enable_pushdown = off means heap's plan: the core planner's paths
 * alone.  A PaxScan without pushed clauses would still be costed apart
 * from a sequential scan (pages in memory, rows formed from the columns
 * read), and a cheaper scan can turn a join round: which side is read
 * first decides which rows the other side's expressions meet, and so
 * whether a query raises an error or returns a row.
 */
static void
PaxSetRelPathlist(PlannerInfo *root, RelOptInfo *rel, Index rti,
				  RangeTblEntry *rte)
{
	Relids		required_outer;
	int			workers;

	if (prev_set_rel_pathlist_hook)
		prev_set_rel_pathlist_hook(root, rel, rti, rte);

	/*
	 * An inheritance parent (rte->inh) stands for itself and its children:
	 * its rows are scanned by the Append of its member relations, where the
	 * parent appears again without inh, and a path of the parent's relation
	 * alone here would compete with that Append and lose the children's
	 * rows.  rte->inh stays set even when the last child is gone.
	 */
	if (!pax_enable_customscan || !pax_enable_pushdown || rte->inh ||
		rte->rtekind != RTE_RELATION || rte->tablesample != NULL ||
		(rel->reloptkind != RELOPT_BASEREL &&
		 rel->reloptkind != RELOPT_OTHER_MEMBER_REL) ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW) ||
		!PaxIsPaxRelation(rte->relid))
		return;

	for (int attno = rel->min_attr; attno < 0; attno++)
	{
		if (attno != SelfItemPointerAttributeNumber &&
			attno != TableOidAttributeNumber &&
			!bms_is_empty(rel->attr_needed[attno - rel->min_attr]))
			return;
	}
	/*
	 * attr_needed does not cover the relation's own restriction clauses, nor
	 * the columns a member of an inheritance or partition tree provides for
	 * its parent (its reltarget, translated from the parent's, does)
	 */
	{
		Bitmapset  *attrs = NULL;
		ListCell   *lc;

		pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, &attrs);
		foreach(lc, rel->baserestrictinfo)
			pull_varattnos((Node *) ((RestrictInfo *) lfirst(lc))->clause,
						   rel->relid, &attrs);
		for (int attno = rel->min_attr; attno < 0; attno++)
		{
			if (attno != SelfItemPointerAttributeNumber &&
				attno != TableOidAttributeNumber &&
				bms_is_member(attno - FirstLowInvalidHeapAttributeNumber, attrs))
				return;
		}
	}

	required_outer = rel->lateral_relids;
	if (required_outer == NULL && PaxIndexPathWins(root, rel))
		return;
	PaxCostIndexPathsCached(root, rel);
	add_path(rel, &PaxMakePath(root, rel, required_outer, 0)->path);

	if (rel->consider_parallel && required_outer == NULL)
	{
		workers = compute_parallel_worker(rel, rel->pages, -1,
										  max_parallel_workers_per_gather);
		if (workers > 0)
			add_partial_path(rel, &PaxMakePath(root, rel, NULL, workers)->path);
	}
}

/*
 * PaxScanPlan makes the CustomScan: pushed clauses in custom_exprs, the
 * others in the qual, and in custom_private the columns to read, per
 * pushed clause whether zone maps may skip pages for it, and whether the
 * scan may take runtime join filters (a one-element integer list).
 */
static Plan *
PaxScanPlan(PlannerInfo *root, RelOptInfo *rel, struct CustomPath *best_path,
			List *tlist, List *clauses, List *custom_plans)
{
	CustomScan *cscan = makeNode(CustomScan);
	List	   *pushed;
	List	   *rest;
	Bitmapset  *attrs = NULL;
	List	   *projected = NIL;
	List	   *zone_ok = NIL;
	Index		min_level;
	bool		joinfilter_ok;
	ListCell   *lc;
	int			natts;

	PaxSplitClauses(root, clauses, rel->relid, &pushed, &rest);

	/*
	 * Zone maps, and the counters of rows and pages PaxScan removes, see
	 * every row stored, including rows that quals of a lower security level
	 * (row-level security) would hide.  A pushed clause above the lowest
	 * level may still run first, being leakproof, but it must not skip
	 * pages, and what it removes is counted with the other quals' rows
	 * (PaxScanExplain), so that EXPLAIN ANALYZE tells nothing about hidden
	 * rows that heap's would not.
	 */
	min_level = PaxMinSecurityLevel(clauses);
	foreach(lc, pushed)
		zone_ok = lappend_int(zone_ok,
							  lfirst_node(RestrictInfo, lc)->security_level <= min_level);

	cscan->scan.plan.targetlist = tlist;
	cscan->scan.plan.qual = extract_actual_clauses(rest, false);
	cscan->scan.scanrelid = rel->relid;
	cscan->flags = best_path->flags;
	cscan->methods = &PaxScanPlanMethods;
	cscan->custom_exprs = extract_actual_clauses(pushed, false);

	/*
	 * The columns read: those of the target list and of the other quals.
	 * A projection the planner puts on the scan (CUSTOMPATH_SUPPORT_PROJEC-
	 * TION) comes with no target list here (CP_IGNORE_TLIST) and replaces
	 * it later; its columns are those of the path's target.
	 */
	pull_varattnos((Node *) tlist, rel->relid, &attrs);
	pull_varattnos((Node *) best_path->path.pathtarget->exprs, rel->relid,
				   &attrs);
	pull_varattnos((Node *) cscan->scan.plan.qual, rel->relid, &attrs);
	natts = rel->max_attr;
	for (int attno = 1; attno <= natts; attno++)
	{
		if (bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs) ||
			bms_is_member(attno - FirstLowInvalidHeapAttributeNumber, attrs))
			projected = lappend_int(projected, attno);
	}

	joinfilter_ok = PaxJoinFilterAllowed(clauses, rest);
	cscan->custom_private = list_make3(projected, zone_ok,
									   list_make1_int(joinfilter_ok));

	/* create_customscan_plan turns outer Vars into nestloop Params */
	return &cscan->scan.plan;
}

/* ----------------------------------------------------------------
 * Definition of PaxScan
 *
 * The executor methods name the callbacks of pax_customscan_exec.c and
 * pax_customscan_explain.c.
 * ----------------------------------------------------------------
 */

/*
 * PaxScanCreateState makes the executor state of a PaxScan plan: the
 * aggregate mode's (PaxScanCreateUpper) when the plan has no scan relation
 * of its own (PaxAggPlan), else the plain scan's.  Both plans carry
 * PaxScanPlanMethods; the split is in the executor methods.
 */
static Node *
PaxScanCreateState(CustomScan *cscan)
{
	PaxScanState *state;

	if (cscan->scan.scanrelid == 0)
	{
		if (PaxScanCreateUpper == NULL)
			elog(ERROR, "PaxScan plan without a scan relation, and no aggregate mode");
		return PaxScanCreateUpper(cscan);
	}
	state = (PaxScanState *) newNode(sizeof(PaxScanState), T_CustomScanState);
	state->css.methods = &PaxScanExecMethods;
	return (Node *) state;
}

static const CustomPathMethods PaxScanPathMethods = {
	.CustomName = PAX_SCAN_NAME,
	.PlanCustomPath = PaxScanPlan,
};

/*
 * The one CustomScanMethods of PaxScan, registered by name so that plans
 * copied to parallel workers find it.  The aggregate mode's plans use it
 * too, so that EXPLAIN names both "PaxScan"; PaxScanCreateState picks the
 * executor methods.
 */
const CustomScanMethods PaxScanPlanMethods = {
	.CustomName = PAX_SCAN_NAME,
	.CreateCustomScanState = PaxScanCreateState,
};

static const CustomExecMethods PaxScanExecMethods = {
	.CustomName = PAX_SCAN_NAME,
	.BeginCustomScan = PaxScanBegin,
	.ExecCustomScan = PaxScanExec,
	.EndCustomScan = PaxScanEnd,
	.ReScanCustomScan = PaxScanReScan,
	.EstimateDSMCustomScan = PaxScanEstimateDSM,
	.InitializeDSMCustomScan = PaxScanInitializeDSM,
	.ReInitializeDSMCustomScan = PaxScanReInitializeDSM,
	.InitializeWorkerCustomScan = PaxScanInitializeWorker,
	.ShutdownCustomScan = PaxScanShutdown,
	.ExplainCustomScan = PaxScanExplain,
};

/*
 * PaxCustomScanInit installs the planner hook of the plain PaxScan and
 * registers its CustomScanMethods; called from _PG_init once the GUCs are
 * defined, before PaxAggScanInit.
 */
void
PaxCustomScanInit(void)
{
	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = PaxSetRelPathlist;
	RegisterCustomScanMethods(&PaxScanPlanMethods);
}
