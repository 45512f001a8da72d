/*-------------------------------------------------------------------------
 *
 * pax_customscan.h
 *	  Private declarations of PaxScan, the custom scan of pax relations:
 *	  shared by the files of PaxScan's layer only.
 *
 * Dependency direction inside the layer: pax_predvalues.c, pax_pushdown_clauses.c,
 * pax_filter.c and pax_zonecheck.c (predicates, their values, their
 * kernels and zone-map checks, pax_pushdown.h: no executor node) <-
 * pax_joinfilter.c (runtime join filters: built and applied by the page
 * loop) <- pax_customscan_exec.c and pax_customscan_explain.c (the plain
 * scan's executor, which also drives the page loop, and its EXPLAIN) <-
 * pax_customscan_plan.c (the plain scan's planner side and PaxScan's methods)
 * <- pax_joinfilter_attach.c (join filters attached at ExecutorStart) <-
 * pax_joinpath.c (join paths costed with their filters); and
 * pax_customscan_plan.c <- pax_agggroups.c <- pax_aggdefs.c <- pax_aggfold.c
 * <- pax_aggexec.c <- pax_aggscan.c (the aggregate mode, which reuses the
 * page loop: its groups, its aggregates, a page's folding, executor and
 * planning).  The plain scan reaches the aggregate mode only through
 * PaxScanCreateUpper, which pax_aggscan.c sets.  Nothing here is visible to the table AM.
 *
 * Layout follows contrib/bloom's bloom.h: constants, state structs, then
 * externs grouped by defining file.
 *
 * pax_am/pax_customscan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_CUSTOMSCAN_H
#define PAX_CUSTOMSCAN_H

#include "catalog/pg_type_d.h"
#include "nodes/execnodes.h"
#include "nodes/extensible.h"
#include "nodes/pathnodes.h"
#include "optimizer/optimizer.h"

#include "pax_encoding.h"
#include "pax_numeric.h"
#include "pax_page.h"
#include "pax_relscan.h"
#include "pax_am_hooks.h"

/* ----------------------------------------------------------------
 * Constants
 * ----------------------------------------------------------------
 */

/*
 * Name of the custom scan, shown by EXPLAIN ("Custom Scan (PaxScan)") for
 * the plain scan and the aggregate mode alike; the plan node carries one
 * registered CustomScanMethods of this name (see PaxScanCreateState).
 */
#define PAX_SCAN_NAME			"PaxScan"

/*
 * Cost model (provisional, see "heuristics" in pax_am/README): per stored
 * row, a visibility check costs this share of cpu_tuple_cost, and each
 * pushed clause evaluated inline (a typed loop, PaxClauseRun) this
 * share of cpu_operator_cost; the others cost what the executor's qual
 * would pay.
 */
#define PAX_VISIBILITY_COST_SHARE	0.05
#define PAX_PUSHED_CLAUSE_COST_SHARE	0.25

/*
 * Forming a passing row costs cpu_tuple_cost times the fixed share plus the
 * column share times the share of the relation's columns read.
 */
#define PAX_FORM_FIXED_SHARE	0.3
#define PAX_FORM_COLUMN_SHARE	0.7

/*
 * Default of pax.cached_page_cost, the cost of a page a PaxScan finds in
 * memory (its pin, its header and the minipages of the columns read); see
 * PaxScanPageCosts.  A pax page in memory whose rows a pushed clause all
 * removes costs a quarter of a unit of heap's scan cost; the default is
 * twice that, to leave room for the CPU costs of PostgreSQL's own nodes
 * above the scan, which a cheap page exposes (the calibration:
 * README.paxscan, "Heuristics").
 */
#define PAX_CACHED_PAGE_COST	0.5

/*
 * Of a page in memory, the share a scan under a join filter pays whatever
 * columns it reads (pin, header, layout); the rest in proportion to the
 * share of the row's bytes that the columns it reads take
 * (PaxNeededByteShare): a scan reading a tenth of a page's bytes costs
 * about a tenth of a unit of heap's scan cost a page (the calibration:
 * README.paxscan, "Heuristics").
 */
#define PAX_PAGE_FIXED_SHARE	0.2

/* Folding a passing row into one pushed-down aggregate: of an operator. */
#define PAX_AGG_FOLD_COST_SHARE	0.1

/*
 * Share of a worker's effort a parallel leader loses per worker (as
 * get_parallel_divisor() in costsize.c).
 */
#define PAX_LEADER_SHARE_PER_WORKER	0.3

/* Prefetching: at most this many bytes of one range, one line at a time. */
#define PAX_PREFETCH_MAX_BYTES	1024

/* ----------------------------------------------------------------
 * Executor state (pax_customscan_exec.c, pax_aggexec.c)
 * ----------------------------------------------------------------
 */

/*
 * What the participants of a parallel scan share: counters, and a map of
 * block to the buffer that holds it.  The leader fills the map from its
 * recent-buffer cache, each worker starts its own cache from it (a new
 * process would otherwise look up every block in the buffer mapping table,
 * which was most of a worker's time), every participant records the
 * buffers it looks up, and at shutdown the leader keeps what the map holds.
 * The map only ever holds hints (ReadRecentBuffer checks each), so it may
 * be read while workers still write it.
 */
typedef struct PaxScanShared
{
	pg_atomic_uint64 rows_removed;
	pg_atomic_uint64 pages_skipped;
	pg_atomic_uint64 join_removed;
	Size		bufs_offset;	/* of the map, from the struct's start */
	BlockNumber nbufs;			/* map entries (pg_atomic_uint32 each) */
	/* ParallelBlockTableScanDescData follows, at a MAXALIGN'd offset */
} PaxScanShared;

#define PaxScanSharedBufs(shared) \
	((pg_atomic_uint32 *) ((char *) (shared) + (shared)->bufs_offset))

#define PaxScanSharedPscan(shared) \
	((ParallelTableScanDesc) ((char *) (shared) + MAXALIGN(sizeof(PaxScanShared))))

/*
 * PaxScanState: the executor state of a plain PaxScan, and the first
 * member of the aggregate mode's PaxAggScanState, which reads pages through
 * the same loop (PaxScanNextPage).
 */
typedef struct PaxScanState
{
	CustomScanState css;

	List	   *preds;			/* PaxPred * */
	bool		has_early;		/* some of them are early (PaxPred.early) */
	bool		has_late;		/* some are not */
	bool		has_last;		/* some run after the join filters */
	bool		lazy_pending;	/* a lazy predicate has no value yet */
	ExprState  *recheck;		/* the pushed clauses, for EvalPlanQual */
	int		   *projected;		/* zero-based columns to read, ascending */
	int			nprojected;
	/* per projected column, on the current page: by-value fixed width? */
	int16	   *fast_len;		/* its attlen, or 0: read the general way */
	uint16	   *fast_data;		/* offset of its values */
	uint8	   *fast_width;		/* bytes a row takes there (< fast_len:
								 * encoded, read with PaxFixedValue) */
	uint16	   *fast_nulls;		/* offset of its null bitmap, or 0 */
	PaxTableScanDesc scan;
	bool		started;		/* predicate values evaluated */
	PaxLayoutCache lcache;
	MemoryContext predcxt;		/* values of the predicates */

	PaxPageLayout *layout;		/* of the current page */
	uint16		sel[PAX_MAX_CAPACITY];	/* qualifying rows of the page,
										 * ascending */
	int			nsel;
	int			cur;			/* index into sel of the last row returned */
	ScanDirection dir;

	List	   *joinfilters;	/* PaxJoinFilter * (pax_joinfilter.c) */
	uint64		join_removed;	/* rows they removed */

	int			max_attno;		/* highest column read, one-based */
	PaxReportReadHook report;	/* an observer's (pax_am_hooks.h), or NULL */

	PaxScanShared *shared;		/* parallel scans */
	BlockNumber dsm_nbufs;		/* map entries PaxScanEstimateDSM sized */
	uint64		rows_removed;	/* visible rows, counted under EXPLAIN ANALYZE */
	uint64		pages_skipped;
	bool		secure;			/* a pushed clause outranks a security qual:
								 * no zone maps for it, no counters of ours */

	/*
	 * seq_tup_read counts the rows heap's scan would have returned: every
	 * visible row of the pages read, whatever the pushed clauses and zone
	 * maps left out, but of a page left mid-way (a LIMIT stops heap's scan)
	 * only the rows up to the last one returned, each time it is stepped
	 * over (scroll cursors).  allvis[0..nallvis) are the visible rows of
	 * the current page; allvis_pos is the index of the last one heap's
	 * scan would have returned (-1 or nallvis: none yet).
	 */
	bool		count_read;		/* counting (track_counts) */
	bool		nostats;		/* a join filter's look at the rows: no
								 * seq_scan, seq_tup_read or SIREAD lock */
	bool		allvis_all;		/* every row 0..nallvis-1 is visible: allvis
								 * is not filled in */
	uint16		allvis[PAX_MAX_CAPACITY];
	int			nallvis;
	int			allvis_pos;
	char	   *cells;			/* decode cells of the scan slot's
								 * prefix-encoded columns, allocated on
								 * first use, or NULL */
} PaxScanState;

/*
 * PaxPushedRowCost is the CPU cost of one stored row before it is formed:
 * its visibility check, on the pages not marked all-visible (allvisfrac,
 * the share that are, as the planner estimates it for index-only scans:
 * rows of all-visible pages are not checked one by one), and the pushed
 * clauses (pushed_cost, PaxPushedClausesCost).
 */
static inline Cost
PaxPushedRowCost(Cost pushed_cost, double allvisfrac)
{
	return PAX_VISIBILITY_COST_SHARE * cpu_tuple_cost * (1.0 - allvisfrac) +
		pushed_cost;
}

/* ----------------------------------------------------------------
 * Aggregate mode (pax_aggscan.c, pax_aggexec.c, pax_aggfold.c,
 * pax_aggdefs.c, pax_agggroups.c)
 * ----------------------------------------------------------------
 */

/*
 * Aggregates the mode computes itself, column-at-a-time (see
 * PaxUpperPaths): each kind is one row of PaxAggDefs (pax_aggdefs.c),
 * which says which aggregate functions it stands for and how it folds,
 * finishes and hands over partial states.  README.paxscan, "Adding an
 * aggregate", says how to add one.
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
	PAX_AGG_AVG_NUMERIC,		/* avg of a numeric expression */
	PAX_AGG_BOOL_AND,			/* bool_and(bool) */
	PAX_AGG_BOOL_OR,			/* bool_or(bool) */
	PAX_AGG_EVERY,				/* every(bool), bool_and by another name */
	PAX_AGG_NKINDS
} PaxAggKind;

/* An aggregate's running state, per group; zeroed for a new group. */
typedef struct PaxAggAcc
{
	int64		count;			/* non-null values seen */
	int64		acc;			/* sum, min/max so far, or a kind's flag */
#ifdef PAX_HAVE_FAST_NUMERIC
	PaxNumSum	nsum;			/* numeric kinds */
#endif
} PaxAggAcc;

typedef struct PaxAggDef PaxAggDef;

typedef struct PaxAgg
{
	PaxAggKind	kind;
	const PaxAggDef *def;		/* PaxAggDefs[kind] */
	int			attno;			/* zero-based column, -1 for count(*) and
								 * numeric kinds */
	Oid			type;			/* the column's type */
	Node	   *arg;			/* numeric kinds: the argument, for EXPLAIN */
#ifdef PAX_HAVE_FAST_NUMERIC
	PaxNumExpr *num;			/* numeric kinds: its evaluation tree */
#endif
} PaxAgg;

/* What an aggregate's argument must be for the mode to compute it. */
typedef enum PaxAggArg
{
	PAX_AGG_ARG_NONE,			/* no argument: count(*) */
	PAX_AGG_ARG_COLUMN,			/* a plain column of the relation */
	PAX_AGG_ARG_NUMERIC			/* a numeric expression of its columns
								 * (PaxNumExprSupported), which the page
								 * loop parses and evaluates per page */
} PaxAggArg;

struct PaxAggScanState;

/*
 * PaxAggFoldFn folds the selected rows of the current page (state->base:
 * sel, nsel, layout; the page pinned) into aggregate k (agg)'s
 * accumulators: state->accs[k] without GROUP BY, else
 * state->accs[gid[r] * naggs + k] for selected row r.  Called once per page
 * and aggregate: the loop over the rows is the function's own, with no
 * call per value.  Its parameters, as PG_FUNCTION_ARGS names fmgr's:
 */
#define PAX_AGG_FOLD_ARGS \
	struct PaxAggScanState *state, const PaxAgg *agg, int k, Page page, \
	TupleDesc tupdesc

typedef void (*PaxAggFoldFn) (PAX_AGG_FOLD_ARGS);

/* PaxAggFinalFn gives a group's result or partial state from accum. */
typedef Datum (*PaxAggFinalFn) (const PaxAgg *agg, PaxAggAcc *accum,
								bool *isnull);

/* The most aggregate functions (pg_proc OIDs) one kind stands for. */
#define PAX_AGG_MAX_FNOIDS	8

/*
 * One aggregate the mode computes: a row of PaxAggDefs, by kind.  Planning
 * matches an Aggref by its function (fnoids) and checks its argument (arg)
 * and result type (restype); the executor folds each page with fold_one
 * (no GROUP BY: the one group) or fold_groups, and returns final's value,
 * or under a Gather partial's: exactly the transition state (serialised,
 * where the state type is internal) that the aggregate's own transition
 * and serial functions would have built from the same rows, which the
 * Finalize Aggregate combines with the aggregate's combine function.
 */
struct PaxAggDef
{
	const char *name;			/* for EXPLAIN: "name(argument)" */
	Oid			fnoids[PAX_AGG_MAX_FNOIDS]; /* the aggregates' pg_proc OIDs
											 * (F_*), InvalidOid after the
											 * last */
	PaxAggArg	arg;
	Oid			restype;		/* the result's type; InvalidOid: the
								 * argument's */
	PaxAggFoldFn fold_one;
	PaxAggFoldFn fold_groups;
	PaxAggFinalFn final;
	PaxAggFinalFn partial;		/* NULL: no parallel plan */
};

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

/* ----------------------------------------------------------------
 * Runtime join filters (pax_joinfilter.c, pax_joinfilter_attach.c)
 * ----------------------------------------------------------------
 */

/* How a key column's hash is computed (PaxJoinKey.how). */
typedef enum PaxJfHash
{
	PAX_JF_HASH_INT2,			/* hashint2 */
	PAX_JF_HASH_INT4,			/* hashint4, hashoid, hashchar-free 4 bytes */
	PAX_JF_HASH_INT8,			/* hashint8 */
	PAX_JF_HASH_CALL			/* call the hash function */
} PaxJfHash;

typedef struct PaxJoinKey
{
	int			attno;			/* zero-based column of the scan relation */
	PaxJfHash	how;
	FmgrInfo	flinfo;			/* the join's outer hash function */
	Oid			collation;
} PaxJoinKey;

/* One runtime filter of a PaxScan. */
typedef struct PaxJoinFilter
{
	HashJoinState *hj;			/* the join whose hash table it summarises */

	/*
	 * A filter of the join's inner side (its table's rows) is built instead
	 * from a scan of its outer side, the plain PaxScan prescan_plan, before
	 * the table is: the outer rows' keys (columns prescan_cols of its
	 * output), hashed by the outer hash functions.
	 */
	bool		prescan;
	Plan	   *prescan_plan;
	AttrNumber *prescan_cols;
	FmgrInfo   *prescan_hash;
	Oid		   *prescan_coll;
	int			nkeys;
	PaxJoinKey *keys;
	bool		ready;			/* built from the join's table */
	bool		off;			/* unusable (batches) or not worth it */
	bool		judged;			/* its trial is over */
	bool		probing;		/* on trial against the join's table itself,
								 * unbuilt (PaxJfTableHolds) */
	uint64	   *words;			/* the Bloom filter */
	uint32		wordshift;		/* 32 - log2(number of words) */

	/*
	 * One integer key compared by integer equality: the table's key values
	 * are read too (innerattno, the column of its tuples), and a table whose
	 * keys span few enough values gets an exact bitmap over kmin..kmin+span,
	 * which the one-pass loop tests instead of the Bloom filter.
	 */
	AttrNumber	innerattno;		/* 0: hash values only */
	Oid			innertype;
	uint64	   *bitmap;			/* NULL: no exact set */
	int64		kmin;
	uint64		span;
	uint64		tested;			/* rows tested since the last rescan */
	uint64		removed;
} PaxJoinFilter;

/* ----------------------------------------------------------------
 * Externs
 * ----------------------------------------------------------------
 */

/* pax_customscan_plan.c */
extern bool pax_enable_customscan;
extern Node *(*PaxScanCreateUpper) (CustomScan *cscan);
extern void PaxCustomScanInit(void);
extern const CustomScanMethods PaxScanPlanMethods;
extern bool PaxIsPlainScanPath(Path *path);
extern Cost PaxPushedClausesCost(PlannerInfo *root, RelOptInfo *rel,
								 List *pushed, List **first, Cost *last_cost);
extern bool PaxJoinFilterAllowed(List *clauses, List *rest);
extern Path *PaxJoinFilteredPath(PlannerInfo *root, Path *base, List *pushed,
								 List *rest, int jf_keys, double jf_share);
extern bool PaxIsPaxRelation(Oid relid);

/* pax_pagecost.c */
extern double pax_cached_page_cost;
extern double PaxCachedShare(PlannerInfo *root);
extern void PaxScanPageCosts(PlannerInfo *root, RelOptInfo *rel, Cost *disk,
							 Cost *cached);
extern double PaxParallelDivisor(int workers);
extern void PaxCostIndexPathsCached(PlannerInfo *root, RelOptInfo *rel);

/* pax_customscan_exec.c */
extern void PaxScanBeginPreds(PaxScanState *state, List *clauses,
							  Index varno, List *zone_ok);
extern void PaxScanBegin(CustomScanState *node, EState *estate, int eflags);
extern void PaxScanStart(PaxScanState *state);
extern bool PaxScanNextPage(PaxScanState *state);
extern TupleTableSlot *PaxScanExec(CustomScanState *node);
extern void PaxScanEnd(CustomScanState *node);
extern void PaxScanReScan(CustomScanState *node);
extern Size PaxScanEstimateDSM(CustomScanState *node, ParallelContext *pcxt);
extern void PaxScanInitializeDSM(CustomScanState *node, ParallelContext *pcxt,
								 void *coordinate);
extern void PaxScanReInitializeDSM(CustomScanState *node,
								   ParallelContext *pcxt, void *coordinate);
extern void PaxScanInitializeWorker(CustomScanState *node, shm_toc *toc,
									void *coordinate);
extern void PaxScanShutdown(CustomScanState *node);

/* pax_customscan_explain.c */
extern void PaxExplainFilter(CustomScanState *node, List *clauses,
							 List *ancestors, struct ExplainState *es);
extern void PaxScanExplain(CustomScanState *node, List *ancestors,
						   struct ExplainState *es);

/* pax_joinfilter.c */
extern int	PaxJoinFiltersApply(PaxScanState *state, Page page,
								TupleDesc tupdesc, int n);
extern void PaxJoinFiltersReset(PaxScanState *state);
extern char *PaxJoinFiltersDescribe(PaxScanState *state, TupleDesc tupdesc);

/* pax_joinfilter_attach.c */
extern bool pax_enable_joinfilter;
extern bool PaxJfJoinDropsUnmatchedOuter(JoinType jointype);
extern void PaxJfAttachInit(void);

/* pax_joinpath.c */
extern void PaxJoinFilterInit(void);

/* pax_aggscan.c */
extern bool pax_enable_aggpushdown;
extern void PaxAggScanInit(void);

/* pax_aggexec.c */
extern Node *PaxAggCreateState(CustomScan *cscan);

/* pax_aggdefs.c */
extern const PaxAggDef PaxAggDefs[PAX_AGG_NKINDS];
extern int	PaxAggKindOf(Oid aggfnoid);

/* pax_aggfold.c */
extern void PaxAggPage(PaxAggScanState *state, Page page, TupleDesc tupdesc);

/* pax_agggroups.c */
extern void PaxGroupResize(PaxAggScanState *state);
extern int	PaxGroupNew(PaxAggScanState *state, uint32 h, bool packed);
extern void PaxGroupRows(PaxAggScanState *state, Page page,
						 const PaxPageLayout *layout, TupleDesc tupdesc,
						 const uint16 *sel, int nsel);

#endif							/* PAX_CUSTOMSCAN_H */
