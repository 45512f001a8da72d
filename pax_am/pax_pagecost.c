/*-------------------------------------------------------------------------
 *
 * pax_pagecost.c
 *	  What a page in memory costs the planner's paths of a pax relation:
 *	  PaxScan's pages, and index and bitmap paths charged for them as
 *	  PaxScan is.
 *
 * PaxScan charges the pages of the query's tables that effective_cache_size
 * holds at pax.cached_page_cost (PaxScanPageCosts), where the core's
 * cost_seqscan() charges seq_page_cost.  The core's index and bitmap paths
 * of the same relation still charge every page fetch at random_page_cost
 * (four times seq_page_cost by default) for the table and the index alike,
 * so a full PaxScan under a hash join looked cheaper than a nested loop of
 * index fetches that takes a third of its time (TPC-H Q19: 0.20 s against
 * 0.06 s).  A page in memory costs an index fetch what it costs a scan.
 *
 * So the set_rel_pathlist hook has the core build a pax relation's index
 * and bitmap paths again (create_index_paths) with the page costs of its
 * tablespace blended as PaxScanPageCosts blends them: the share of the
 * query's pages in memory at pax.cached_page_cost, the rest at the
 * tablespace's cost; a plain index scan also pays for each row fetched
 * beyond the distinct pages (PaxVisitSurcharge).  Each such path replaces
 * the core's path of the same kind where it is cheaper, and paths the
 * core's round rejected get their chance.  Heap relations of the same
 * query keep the core's costs: heap is charged as PostgreSQL charges it.
 *
 * pax_am/pax_pagecost.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "optimizer/cost.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "utils/spccache.h"

#include "pax_customscan.h"

/* GUC pax.cached_page_cost */
double		pax_cached_page_cost = PAX_CACHED_PAGE_COST;

/*
 * PaxCachedShare is the share of rel's query's table pages taken to be in
 * memory: as far as effective_cache_size holds them, as index_pages_fetched()
 * in costsize.c assumes for repeated index scans.
 */
double
PaxCachedShare(PlannerInfo *root)
{
	double		total = Max(root->total_table_pages, 1.0);

	return Min(1.0, (double) effective_cache_size / total);
}

/*
 * PaxScanPageCosts sets what a PaxScan is charged per page of rel: *disk for
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
PaxScanPageCosts(PlannerInfo *root, RelOptInfo *rel, Cost *disk, Cost *cached)
{
	double		spc_seq_page_cost;
	double		share = PaxCachedShare(root);

	get_tablespace_page_costs(rel->reltablespace, NULL, &spc_seq_page_cost);
	*disk = (1.0 - share) * spc_seq_page_cost;
	*cached = share * Min(pax_cached_page_cost, spc_seq_page_cost);
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
 * PaxLoopCount is the number of times a path parameterized by outer_relids
 * is expected to be repeated: the smallest row count among those
 * relations.  Adapted from get_loop_count() in indxpath.c, PostgreSQL 15,
 * without its allowance for semijoins (which only lowers the count).
 */
static double
PaxLoopCount(PlannerInfo *root, Relids outer_relids)
{
	double		result = 0.0;
	int			relid = -1;

	while ((relid = bms_next_member(outer_relids, relid)) >= 0)
	{
		RelOptInfo *outer;

		if (relid >= root->simple_rel_array_size ||
			(outer = root->simple_rel_array[relid]) == NULL ||
			IS_DUMMY_REL(outer) || outer->rows <= 0)
			continue;
		if (result == 0.0 || result > outer->rows)
			result = outer->rows;
	}
	return result > 0.0 ? result : 1.0;
}

/*
 * PaxVisitSurcharge adds to an index scan path what its row fetches cost
 * beyond the pages the core charged: in memory, each fetch of a pax row
 * (its chain followed, its page's layout read, its columns formed) costs a
 * page visit whether or not the page was visited before, where
 * cost_index() charges the distinct pages it expects to read
 * (index_pages_fetched(), at most the relation's pages, shared among the
 * repetitions of a parameterized scan).  An index-only
 * scan fetches only the rows of pages not all-visible.  Bitmap heap scans
 * visit each page once, as charged.
 */
static void
PaxVisitSurcharge(PlannerInfo *root, RelOptInfo *rel, Path *path,
				  double share, double cached)
{
	IndexPath  *ipath = (IndexPath *) path;
	double		tuples;
	double		pages;
	double		loops;
	Cost		extra;

	if (!IsA(path, IndexPath))
		return;
	tuples = clamp_row_est(ipath->indexselectivity * rel->tuples);
	if (path->pathtype == T_IndexOnlyScan)
		tuples = clamp_row_est(tuples * (1.0 - rel->allvisfrac));
	/* cost_index() shares the pages of repeated scans among them */
	loops = PaxLoopCount(root, PATH_REQ_OUTER(path));
	pages = index_pages_fetched(tuples * loops, rel->pages,
								(double) ipath->indexinfo->pages, root) / loops;
	if (tuples <= pages)
		return;
	extra = share * cached * (tuples - pages);
	if (path->parallel_workers > 0)
		extra /= PaxParallelDivisor(path->parallel_workers);
	path->total_cost += extra;
}

/*
 * PaxCostIndexPathsCached builds rel's index and bitmap paths again with
 * page costs for pages in memory (into empty path lists, where they compete
 * among themselves), adds their row visits (PaxVisitSurcharge), and offers
 * them to rel's path lists, where each replaces the core's path of the
 * same kind if cheaper.  It does nothing for a relation without indexes,
 * or whose tablespace sets page costs of its own (the core reads those,
 * not the variables this sets), or where nothing would be cheaper, nor for
 * a relation of one page that is its query's only one (an UPDATE of
 * pgbench's tellers, TPC-C's district): no index path reads fewer of its
 * pages than PaxScan, and no join can use a parameterized one, so a
 * second costing would change no page read.  The core's cost variables
 * are restored on error too.
 */
void
PaxCostIndexPathsCached(PlannerInfo *root, RelOptInfo *rel)
{
	double		spc_random;
	double		spc_seq;
	double		share;
	double		cached;
	double		new_random;
	double		new_seq;
	double		save_random = random_page_cost;
	double		save_seq = seq_page_cost;
	List	   *saved = rel->pathlist;
	List	   *saved_partial = rel->partial_pathlist;
	List	   *fresh;
	List	   *fresh_partial;
	ListCell   *lc;

	if (rel->indexlist == NIL || rel->pages == 0 ||
		(rel->pages == 1 &&
		 bms_membership(root->all_baserels) == BMS_SINGLETON))
		return;
	get_tablespace_page_costs(rel->reltablespace, &spc_random, &spc_seq);
	if (spc_random != random_page_cost || spc_seq != seq_page_cost)
		return;
	share = PaxCachedShare(root);
	cached = Min(pax_cached_page_cost, spc_random);
	new_random = (1.0 - share) * spc_random + share * cached;
	new_seq = (1.0 - share) * spc_seq + share * Min(cached, spc_seq);
	if (new_random >= spc_random && new_seq >= spc_seq)
		return;

	rel->pathlist = NIL;
	rel->partial_pathlist = NIL;
	PG_TRY();
	{
		random_page_cost = new_random;
		seq_page_cost = new_seq;
		create_index_paths(root, rel);
	}
	PG_FINALLY();
	{
		random_page_cost = save_random;
		seq_page_cost = save_seq;
		fresh = rel->pathlist;
		fresh_partial = rel->partial_pathlist;
		rel->pathlist = saved;
		rel->partial_pathlist = saved_partial;
	}
	PG_END_TRY();

	foreach(lc, fresh)
	{
		PaxVisitSurcharge(root, rel, lfirst(lc), share, cached);
		add_path(rel, lfirst(lc));
	}
	foreach(lc, fresh_partial)
	{
		PaxVisitSurcharge(root, rel, lfirst(lc), share, cached);
		add_partial_path(rel, lfirst(lc));
	}
}
