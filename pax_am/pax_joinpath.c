/*-------------------------------------------------------------------------
 *
 * pax_joinpath.c
 *	  Costing runtime join filters: hash join paths whose outer PaxScan is
 *	  costed with the filter the join's table will give it.
 *
 * The planner's join paths price a PaxScan under a hash join as if every
 * row came up.  So a set_join_pathlist_hook (PaxJfJoinPaths) adds,
 * for a join of a pax base relation (outer, probed) with a relation whose
 * hash table fits in memory, a hash join path whose outer PaxScan is
 * costed with the filter: only the rows expected to match (the join's
 * estimate, plus the filter's false positives, PAX_JF_FALSE_POSITIVES)
 * are formed and returned.  It is added only where a filter would be
 * attached to its plan (each outer hash key a column of the relation,
 * strict operators, no security quals, leakproof remaining quals) and
 * would remove at least half the rows; add_path keeps it where it is the
 * cheapest.  Where parallel workers may scan the relation, partial hash
 * join paths with a filtered parallel PaxScan are added the same way, so
 * that serial and parallel plans compete with their filters costed alike.
 *
 * PaxJoinFilterInit installs this file's set_join_pathlist_hook and, through
 * PaxJfAttachInit, the ExecutorStart hook that attaches the filters.
 *
 * pax_am/pax_joinpath.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "utils/lsyscache.h"

#include "pax_pushdown.h"
#include "pax_customscan.h"

/* The planner's estimate of the share of unmatched rows a filter passes. */
#define PAX_JF_FALSE_POSITIVES	0.02

static set_join_pathlist_hook_type prev_set_join_pathlist_hook = NULL;

/* ----------------------------------------------------------------
 * Costs (set_join_pathlist_hook)
 * ----------------------------------------------------------------
 */

/*
 * PaxJfHashClauses returns the join's hash clauses as hash_inner_and_outer()
 * in joinpath.c (PostgreSQL 15) picks them, with outer_is_left set, if the
 * outer side of each is a column of outerrel (a base relation) under a
 * strict operator, so that a filter can be attached; else NIL.
 */
static List *
PaxJfHashClauses(RelOptInfo *joinrel, RelOptInfo *outerrel,
				 RelOptInfo *innerrel, JoinType jointype,
				 JoinPathExtraData *extra)
{
	List	   *hashclauses = NIL;
	ListCell   *lc;

	foreach(lc, extra->restrictlist)
	{
		RestrictInfo *rinfo = lfirst_node(RestrictInfo, lc);
		Expr	   *outer;

		if (IS_OUTER_JOIN(jointype) &&
			RINFO_IS_PUSHED_DOWN(rinfo, joinrel->relids))
			continue;
		if (!rinfo->can_join || !OidIsValid(rinfo->hashjoinoperator))
			continue;
		if (bms_is_subset(rinfo->left_relids, outerrel->relids) &&
			bms_is_subset(rinfo->right_relids, innerrel->relids))
			rinfo->outer_is_left = true;
		else if (bms_is_subset(rinfo->left_relids, innerrel->relids) &&
				 bms_is_subset(rinfo->right_relids, outerrel->relids))
			rinfo->outer_is_left = false;
		else
			continue;
		outer = rinfo->outer_is_left ? (Expr *) get_leftop(rinfo->clause) :
			(Expr *) get_rightop(rinfo->clause);
		while (outer && IsA(outer, RelabelType))
			outer = ((RelabelType *) outer)->arg;
		if (outer == NULL || !IsA(outer, Var) ||
			((Var *) outer)->varno != outerrel->relid ||
			((Var *) outer)->varattno <= 0 ||
			!op_strict(rinfo->hashjoinoperator))
			return NIL;
		hashclauses = lappend(hashclauses, rinfo);
	}
	return hashclauses;
}

/*
 * PaxJfTryPath adds a hash join path of joinrel with the given (filtered)
 * outer path, serial or partial, if it may be the cheapest.  Adapted from
 * try_hashjoin_path() and try_partial_hashjoin_path() in joinpath.c,
 * PostgreSQL 15, for unparameterized paths.
 */
static void
PaxJfTryPath(PlannerInfo *root, RelOptInfo *joinrel, JoinType jointype,
			 JoinPathExtraData *extra, Path *outer, Path *inner,
			 List *hashclauses, bool partial, bool parallel_hash)
{
	JoinCostWorkspace workspace;
	Path	   *path;

	if (!bms_is_empty(PATH_REQ_OUTER(inner)))
		return;
	initial_cost_hashjoin(root, &workspace, jointype, hashclauses,
						  outer, inner, extra, parallel_hash);
#if PG_VERSION_NUM >= 180000
	if (partial ? !add_partial_path_precheck(joinrel, workspace.disabled_nodes,
											 workspace.total_cost, NIL) :
		!add_path_precheck(joinrel, workspace.disabled_nodes,
						   workspace.startup_cost, workspace.total_cost,
						   NIL, NULL))
		return;
#else
	if (partial ? !add_partial_path_precheck(joinrel, workspace.total_cost, NIL) :
		!add_path_precheck(joinrel, workspace.startup_cost,
						   workspace.total_cost, NIL, NULL))
		return;
#endif
	path = (Path *) create_hashjoin_path(root, joinrel, jointype, &workspace,
										 extra, outer, inner, parallel_hash,
										 extra->restrictlist, NULL,
										 hashclauses);
	if (partial)
		add_partial_path(joinrel, path);
	else
		add_path(joinrel, path);
}

/*
 * PaxJfJoinPaths adds hash join paths of joinrel whose outer side, a
 * PaxScan of outerrel, is costed with the filter the join's table will
 * give it (see "Costs" above): a serial path, and where workers may scan
 * the relation, partial paths with a shared table (parallel hash) or a
 * table per process, which the filter summarises alike.  Adapted from
 * hash_inner_and_outer() in joinpath.c, PostgreSQL 15, for the cheapest
 * inner paths.
 */
static void
PaxJfJoinPaths(PlannerInfo *root, RelOptInfo *joinrel, RelOptInfo *outerrel,
			   RelOptInfo *innerrel, JoinType jointype,
			   JoinPathExtraData *extra)
{
	Path	   *base = NULL;
	Path	   *pbase = NULL;
	Path	   *inner;
	Path	   *outer;
	List	   *hashclauses;
	List	   *pushed;
	List	   *rest;
	ListCell   *lc;
	double		matched;
	double		share;

	if (prev_set_join_pathlist_hook)
		prev_set_join_pathlist_hook(root, joinrel, outerrel, innerrel,
									jointype, extra);

	if (!pax_enable_joinfilter || !pax_enable_customscan || !enable_hashjoin ||
		!PaxJfJoinDropsUnmatchedOuter(jointype) ||
		outerrel->reloptkind != RELOPT_BASEREL ||
		innerrel->cheapest_total_path == NULL ||
		innerrel->cheapest_total_path->param_info != NULL)
		return;

	/* the relation's unparameterized PaxScan paths, serial and partial */
	foreach(lc, outerrel->pathlist)
	{
		Path	   *path = lfirst(lc);

		if (PaxIsPlainScanPath(path) && path->param_info == NULL &&
			path->parallel_workers == 0)
			base = path;
	}
	foreach(lc, outerrel->partial_pathlist)
	{
		Path	   *path = lfirst(lc);

		if (PaxIsPlainScanPath(path) && path->param_info == NULL)
			pbase = path;
	}
	if (base == NULL && pbase == NULL)
		return;

	/* where the plan would take a filter */
	PaxSplitClauses(root, outerrel->baserestrictinfo, outerrel->relid, &pushed, &rest);
	if (!PaxJoinFilterAllowed(outerrel->baserestrictinfo, rest))
		return;

	/* one batch: the table must fit in memory to be summarised */
	inner = innerrel->cheapest_total_path;
	if (innerrel->rows * (MAXALIGN(inner->pathtarget->width) + 64) >
		get_hash_memory_limit())
		return;

	hashclauses = PaxJfHashClauses(joinrel, outerrel, innerrel, jointype, extra);
	if (hashclauses == NIL)
		return;

	/* the outer rows with a match, and the false positives */
	matched = Min(joinrel->rows, outerrel->rows);
	share = (matched + (outerrel->rows - matched) * PAX_JF_FALSE_POSITIVES) /
		Max(outerrel->rows, 1.0);
	if (share > 0.5)
		return;

	if (base != NULL)
		PaxJfTryPath(root, joinrel, jointype, extra,
					 PaxJoinFilteredPath(root, base, pushed, rest,
										 list_length(hashclauses), share),
					 inner, hashclauses, false, false);

	/*
	 * Partial paths, as hash_inner_and_outer() makes them for the joins a
	 * filter serves (inner and semi: a right join's unmatched inner rows
	 * need every process's match flags), with the cheapest partial inner
	 * path (a shared table) and the cheapest parallel-safe one (a table per
	 * process).
	 */
	if (pbase != NULL && joinrel->consider_parallel &&
		bms_is_empty(joinrel->lateral_relids) &&
		(jointype == JOIN_INNER || jointype == JOIN_SEMI))
	{
		Path	   *safe_inner;

		outer = PaxJoinFilteredPath(root, pbase, pushed, rest,
									list_length(hashclauses), share);
		if (innerrel->partial_pathlist != NIL && enable_parallel_hash)
			PaxJfTryPath(root, joinrel, jointype, extra, outer,
						 linitial(innerrel->partial_pathlist),
						 hashclauses, true, true);
		safe_inner = inner->parallel_safe ? inner :
			get_cheapest_parallel_safe_total_inner(innerrel->pathlist);
		if (safe_inner != NULL)
			PaxJfTryPath(root, joinrel, jointype, extra, outer,
						 safe_inner, hashclauses, true, false);
	}
}

/*
 * PaxJoinFilterInit installs the ExecutorStart hook that attaches join
 * filters (PaxJfAttachInit) and the join path hook that costs them; called
 * from _PG_init.
 */
void
PaxJoinFilterInit(void)
{
	PaxJfAttachInit();
	prev_set_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = PaxJfJoinPaths;
}
