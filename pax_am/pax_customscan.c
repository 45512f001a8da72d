/*-------------------------------------------------------------------------
 *
 * pax_customscan.c
 *	  PaxScan: a custom scan of pax relations that reads only the columns
 *	  the plan needs and evaluates pushed-down selections on the minipages,
 *	  before any row is formed.
 *
 * Planner side: set_rel_pathlist_hook adds a PaxScan path (and a partial
 * path for parallel plans) to every pax relation scanned as a base or
 * partition relation.  The restriction clauses that PaxScan can evaluate
 * itself (pax_pushdown.c) go to custom_exprs and are costed as cheap
 * column-at-a-time work; the others stay in the plan's qual.
 *
 * Executor side: for each page, the zone maps are checked first (a page
 * whose min/max refutes a pushed predicate is skipped without touching
 * its minipages); then the early predicates (typed loops over fixed-width
 * minipages, pax_filter.c) filter the selection vector of every stored
 * row, only the rows left are checked for visibility, the late predicates
 * filter the visible ones, and only the rows left are materialised into a
 * virtual slot, with only the needed columns, for the remaining quals and
 * the projection.  The page loop (PaxScanNextPage) also serves the
 * aggregate mode of pax_aggscan.c.
 *
 * The constant side of a predicate may be any expression without Vars of
 * the scanned relation and without volatile functions.  Constants and
 * parameters supplied from outside ($n of prepared statements) are
 * evaluated at scan start and again on rescan; anything else (nestloop
 * parameters, initplans, stable functions) when a visible row first
 * reaches the predicate (pax_pushdown.c, PaxPredIsLazy).  Parallel scans
 * share counters and a recent-buffer map (PaxScanShared).
 *
 * pax_am/pax_customscan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
#include "executor/executor.h"
#include "executor/nodeCustom.h"
#include "miscadmin.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/plancat.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "parser/parsetree.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/spccache.h"

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

/* GUC pax.enable_customscan, defined in _PG_init */
bool		pax_enable_customscan = true;

/* GUC pax.cached_page_cost */
double		pax_cached_page_cost = PAX_CACHED_PAGE_COST;

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

/* Defined at the end of the file, with the callbacks they name. */
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
 * PaxParallelDivisor is the share of a parallel scan's rows each of its
 * processes is expected to handle, as get_parallel_divisor() in costsize.c
 * (PostgreSQL 15) computes it: the workers, and the leader's share.
 */
double
PaxParallelDivisor(int workers)
{
	double		divisor = workers;
	double		leader = 1.0 - (PAX_LEADER_SHARE_PER_WORKER * workers);

	if (parallel_leader_participation && leader > 0)
		divisor += leader;
	return divisor;
}

/*
 * PaxPageCosts sets what a PaxScan is charged per page of rel: *disk for
 * reading it, *cached for visiting it in memory.  cost_seqscan() charges
 * every page as read from disk (seq_page_cost), which is what a page costs
 * a pax scan too when it is not in memory; a page in memory costs a scan
 * that reads a few of its minipages far less (pax.cached_page_cost), where
 * heap's scan still forms every row.  As index_pages_fetched() in
 * costsize.c does for repeated index scans, the query's tables
 * (root->total_table_pages) are taken to be in memory as far as
 * effective_cache_size holds them: a lower effective_cache_size charges
 * more of each page as a disk read.  The disk share is I/O, which parallel
 * workers do not divide (cost_seqscan()); the cached share is CPU work,
 * which they do.
 */
void
PaxPageCosts(PlannerInfo *root, RelOptInfo *rel, Cost *disk, Cost *cached)
{
	double		spc_seq_page_cost;
	double		total = Max(root->total_table_pages, 1.0);
	double		share = Min(1.0, (double) effective_cache_size / total);

	get_tablespace_page_costs(rel->reltablespace, NULL, &spc_seq_page_cost);
	*disk = (1.0 - share) * spc_seq_page_cost;
	*cached = share * Min(pax_cached_page_cost, spc_seq_page_cost);
}

/*
 * PaxPushedClausesCost is the cost per stored row of rel's pushed clauses
 * (RestrictInfos or bare clauses): a share of an operator's cost for each
 * one PaxScan evaluates inline (PaxClauseIsInline), and for each other one
 * its own cost, its operator's function being called per row as the
 * executor's qual would call it.
 */
Cost
PaxPushedClausesCost(PlannerInfo *root, RelOptInfo *rel, List *pushed)
{
	Relation	relation;
	Cost		cost = 0;
	ListCell   *lc;

	if (pushed == NIL)
		return 0;
	relation = table_open(planner_rt_fetch(rel->relid, root)->relid, NoLock);
	foreach(lc, pushed)
	{
		Node	   *clause = lfirst(lc);
		QualCost	qc;

		if (IsA(clause, RestrictInfo))
			clause = (Node *) ((RestrictInfo *) clause)->clause;
		if (PaxClauseIsInline(clause, rel->relid, RelationGetDescr(relation)))
			cost += PAX_PUSHED_CLAUSE_COST_SHARE * cpu_operator_cost;
		else
		{
			cost_qual_eval_node(&qc, clause, root);
			cost += qc.per_tuple;
		}
	}
	table_close(relation, NoLock);
	return cost;
}

/*
 * PaxCostPath estimates a PaxScan path as cost_seqscan would, with pages in
 * memory charged less (PaxPageCosts), the pushed clauses evaluated
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
	Cost		form_cost;

	/* a sequential scan, which enable_seqscan = off discourages */
	if (!enable_seqscan)
		startup_cost += disable_cost;

	PaxPageCosts(root, rel, &disk_page, &cached_page);
	disk_run_cost = disk_page * rel->pages;

	/*
	 * Under a join filter, few rows are formed: a page in memory costs
	 * what reading its minipages does, a fixed part and the rest in
	 * proportion to the share of its bytes the scan reads.
	 */
	if (jf_keys > 0)
		cached_page *= PAX_PAGE_FIXED_SHARE +
			(1.0 - PAX_PAGE_FIXED_SHARE) * PaxNeededByteShare(root, rel);

	pushed_sel = clauselist_selectivity(root, extract_actual_clauses(pushed, false),
										rel->relid, JOIN_INNER, NULL);
	npass = clamp_row_est(ntuples * pushed_sel);
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
		ntuples * PaxPushedRowCost(PaxPushedClausesCost(root, rel, pushed),
								   rel->allvisfrac);
	if (jf_keys > 0)
	{
		cpu_run_cost += npass * jf_keys * PAX_PUSHED_CLAUSE_COST_SHARE * cpu_operator_cost;
		npass = clamp_row_est(npass * jf_share);
		path->rows = clamp_row_est(path->rows * jf_share);
	}
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
	cpath->flags = CUSTOMPATH_SUPPORT_BACKWARD_SCAN;
	cpath->methods = &PaxScanPathMethods;

	if (cpath->path.param_info)
		clauses = list_concat_copy(clauses, cpath->path.param_info->ppi_clauses);
	PaxSplitClauses(clauses, rel->relid, &pushed, &rest);
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
	return !contain_leaked_vars((Node *) extract_actual_clauses(rest, false));
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
 * PaxSetRelPathlist adds PaxScan paths for pax relations.  It leaves the
 * relation alone when a system column other than ctid or tableoid is
 * needed (PaxScan forms virtual rows) or the scan samples the table.  The
 * partial path follows create_plain_partial_paths() in allpaths.c,
 * PostgreSQL 15.
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
	if (!pax_enable_customscan || rte->inh ||
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

	PaxSplitClauses(clauses, rel->relid, &pushed, &rest);

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

	/* the columns read: those of the target list and of the other quals */
	pull_varattnos((Node *) tlist, rel->relid, &attrs);
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
 * Executor
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
	state->has_early = state->has_late = false;
	foreach(lc, state->preds)
	{
		if (((PaxPred *) lfirst(lc))->early)
			state->has_early = true;
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
static void
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
 * passes over most pages without a row, and stalled on each of them while
 * it ran only for pages with rows (age = 20 AND i0 = 17 in bench/run
 * age32 took 1.4 times as long).
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
 * PaxScanFilter applies the early (or the late) pushed predicates to the
 * selection vector sel[0..n) of the current page and returns how many rows
 * are left.  It is called twice a page: it does not call out when there is
 * nothing to do.
 */
static inline int
PaxScanFilter(PaxScanState *state, Page page, TupleDesc tupdesc, int n,
			  bool early)
{
	if (n == 0 || !(early ? state->has_early : state->has_late))
		return n;
	return PaxPredsFilter(state->preds, early, page, state->layout, tupdesc,
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
			n = PaxScanFilter(state, page, tupdesc, n, true);
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
			n = PaxScanFilter(state, page, tupdesc, n, true);
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
		n = PaxScanFilter(state, page, tupdesc, n, false);
		if (state->lazy_pending)
			state->lazy_pending = PaxPredsLazyPending(state->preds);
		if (exact && !state->secure)
			state->rows_removed += ncand - n;
		else if (exact)
			InstrCountFiltered1(&state->css.ss.ps, ncand - n);
		if (state->joinfilters != NIL && n > 0)
			n = PaxJoinFiltersApply(state, page, tupdesc, n);
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
	ItemPointerSet(&slot->tts_tid, state->scan->rs_cblock, row + 1);
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
static TupleTableSlot *
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

/* ----------------------------------------------------------------
 * EXPLAIN
 * ----------------------------------------------------------------
 */

/*
 * PaxExplainFilter shows pushed clauses as the "Pax Filter" line, deparsed
 * in the context of the node's plan.
 */
void
PaxExplainFilter(CustomScanState *node, List *clauses, List *ancestors,
				 ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context = set_deparse_context_plan(es->deparse_cxt,
												   &cscan->scan.plan,
												   ancestors);
	char	   *str = deparse_expression((Node *) make_ands_explicit(clauses),
										 context, es->verbose, false);

	ExplainPropertyText("Pax Filter", str, es);
}

/*
 * PaxScanExplain adds a plain PaxScan's lines to EXPLAIN: the pushed
 * clauses, the columns read and, under ANALYZE, what pushdown removed.
 */
static void
PaxScanExplain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	PaxScanState *state = (PaxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	tupdesc = RelationGetDescr(node->ss.ss_currentRelation);
	StringInfoData cols;

	if (cscan->custom_exprs != NIL)
		PaxExplainFilter(node, cscan->custom_exprs, ancestors, es);

	initStringInfo(&cols);
	for (int i = 0; i < state->nprojected; i++)
		appendStringInfo(&cols, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(NameStr(TupleDescAttr(tupdesc, state->projected[i])->attname)));
	ExplainPropertyText("Pax Projected Columns",
						state->nprojected > 0 ? cols.data : "(none)", es);
	if (state->joinfilters != NIL)
		ExplainPropertyText("Pax Join Filter",
							PaxJoinFiltersDescribe(state, tupdesc), es);

	if (es->analyze)
	{
		/* under security quals, counted in "Rows Removed by Filter" */
		if (cscan->custom_exprs != NIL && !state->secure)
			ExplainPropertyUInteger("Rows Removed by Pax Filter", NULL,
									state->rows_removed, es);
		ExplainPropertyUInteger("Pages Skipped by Zone Maps", NULL,
								state->pages_skipped, es);
		if (state->joinfilters != NIL)
			ExplainPropertyUInteger("Rows Removed by Pax Join Filter", NULL,
									state->join_removed, es);
	}
}

/* ----------------------------------------------------------------
 * Definition of PaxScan
 * ----------------------------------------------------------------
 */

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
