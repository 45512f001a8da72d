/*-------------------------------------------------------------------------
 *
 * pax_customscan.h
 *	  Private declarations of PaxScan, the custom scan of pax relations:
 *	  shared by pax_pushdown.c, pax_customscan.c and pax_aggscan.c only.
 *
 * Dependency direction inside the layer: pax_pushdown.c (clauses and
 * predicates, no executor node) <- pax_customscan.c (the plain scan, which
 * also drives the page loop) <- pax_aggscan.c (the aggregate mode, which
 * reuses that page loop).  Nothing here is visible to the table AM.
 *
 * Layout follows pax_am.h: constants, state structs, then externs grouped
 * by defining file.
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

#include "pax_am.h"
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
 * pushed clause, evaluated in a typed loop, this share of
 * cpu_operator_cost.
 */
#define PAX_VISIBILITY_COST_SHARE	0.05
#define PAX_PUSHED_CLAUSE_COST_SHARE	0.25

/*
 * Forming a passing row costs cpu_tuple_cost times the fixed share plus the
 * column share times the share of the relation's columns read.
 */
#define PAX_FORM_FIXED_SHARE	0.3
#define PAX_FORM_COLUMN_SHARE	0.7

/* Folding a passing row into one pushed-down aggregate: of an operator. */
#define PAX_AGG_FOLD_COST_SHARE	0.1

/*
 * Share of a worker's effort a parallel leader loses per worker (as
 * get_parallel_divisor() in costsize.c).
 */
#define PAX_LEADER_SHARE_PER_WORKER	0.3

/* Prefetching: at most this many bytes of one range, one line at a time. */
#define PAX_PREFETCH_MAX_BYTES	1024
#define PAX_CACHE_LINE_SIZE		64

/* ----------------------------------------------------------------
 * Pushed predicates (pax_pushdown.c)
 * ----------------------------------------------------------------
 */

typedef enum PaxPredKind
{
	PAX_PRED_CMP,				/* column op value */
	PAX_PRED_IN,				/* column = ANY (values) */
	PAX_PRED_NOTIN,				/* column <> ALL (values) */
	PAX_PRED_ISNULL,
	PAX_PRED_NOTNULL,
	PAX_PRED_OR					/* any of args, all on one column */
} PaxPredKind;

typedef enum PaxValClass
{
	PAX_VC_INT,					/* signed integers, dates, times: as int64 */
	PAX_VC_UINT,				/* bool, "char", oid: as unsigned */
	PAX_VC_FLOAT,				/* float4, float8: as double, NaN largest */
	PAX_VC_BYTES,				/* text: bytewise (C collation, or equality
								 * under a deterministic collation) */
	PAX_VC_FMGR					/* anything else: the operator's function */
} PaxValClass;

typedef struct PaxPred
{
	PaxPredKind kind;
	int			attno;			/* zero-based column */
	int			strategy;		/* BT*StrategyNumber or ROWCOMPARE_NE */
	Oid			opfamily;		/* btree family of the operator */
	PaxValClass vclass;
	bool		varonleft;		/* FMGR: column is the operator's left arg */
	Oid			collation;
	FmgrInfo	fn;				/* operator function (FMGR class) */
	Oid			valtype;		/* type of the value side */
	Oid			coltype;		/* base type of the column */
	Expr	   *valexpr;		/* value side, Vars-free */
	ExprState  *valstate;

	/* set by PaxPredEvaluate at scan start and rescan, or first use */
	bool		evaluated;
	bool		never;			/* no row can qualify (NULL value) */
	bool		always;			/* every row qualifies, NULL included:
								 * x <> ALL of an empty array */
	Datum		val;
	int64		ival;
	double		fval;
	int			nvals;			/* IN lists */
	Datum	   *vals;
	int64	   *ivals;			/* sorted ascending */
	double	   *fvals;

	List	   *args;			/* PAX_PRED_OR: PaxPred * */

	/* set by PaxPredsInit */
	bool		lazy;			/* value computed at its first use */
	bool		early;			/* safe on any stored row (PaxPredIsEarly) */
	bool		zone_ok;		/* may skip pages by zone maps */
} PaxPred;

/* ----------------------------------------------------------------
 * Executor state (pax_customscan.c, pax_aggscan.c)
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
	ExprState  *recheck;		/* the pushed clauses, for EvalPlanQual */
	int		   *projected;		/* zero-based columns to read, ascending */
	int			nprojected;
	/* per projected column, on the current page: by-value fixed width? */
	int16	   *fast_len;		/* its attlen, or 0: read the general way */
	uint16	   *fast_data;		/* offset of its values */
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
	bool		allvis_all;		/* every row 0..nallvis-1 is visible: allvis
								 * is not filled in */
	uint16		allvis[PAX_MAX_CAPACITY];
	int			nallvis;
	int			allvis_pos;
} PaxScanState;

/*
 * PaxPushedRowCost is the CPU cost of one stored row before it is formed:
 * its visibility check and the pushed clauses' typed loops.
 */
static inline Cost
PaxPushedRowCost(int npushed)
{
	return PAX_VISIBILITY_COST_SHARE * cpu_tuple_cost +
		npushed * PAX_PUSHED_CLAUSE_COST_SHARE * cpu_operator_cost;
}

/* PaxToInt64 converts a value of an integer-like type to int64. */
static inline int64
PaxToInt64(Datum d, Oid type)
{
	switch (type)
	{
		case INT2OID:
			return DatumGetInt16(d);
		case INT4OID:
		case DATEOID:
			return DatumGetInt32(d);
		case BOOLOID:
			return DatumGetBool(d) ? 1 : 0;
		case CHAROID:
			return (uint8) DatumGetChar(d);
		case OIDOID:
			return (int64) DatumGetObjectId(d);
		default:
			return DatumGetInt64(d);
	}
}

/* PaxToDouble converts a value of a float type to double. */
static inline double
PaxToDouble(Datum d, Oid type)
{
	return type == FLOAT4OID ? (double) DatumGetFloat4(d) : DatumGetFloat8(d);
}

/* PaxCmpInt64 is a qsort and bsearch comparator of int64 values. */
static inline int
PaxCmpInt64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

#ifdef USE_ASSERT_CHECKING
/*
 * PaxSelIsValid tells whether sel[0..n) is a selection vector of a page of
 * nrows rows: row indexes strictly ascending and below nrows.  The filter
 * loops compact it in place and PaxTableScanCollectVisible relies on the
 * order.
 */
static inline bool
PaxSelIsValid(const uint16 *sel, int n, int nrows)
{
	if (n < 0 || n > nrows || nrows > PAX_MAX_CAPACITY)
		return false;
	for (int k = 0; k < n; k++)
		if (sel[k] >= nrows || (k > 0 && sel[k] <= sel[k - 1]))
			return false;
	return true;
}
#endif

/* ----------------------------------------------------------------
 * Externs
 * ----------------------------------------------------------------
 */

/* pax_pushdown.c */
extern bool PaxAnalyzeClause(Node *clause, Index varno, PaxPred *pred);
extern void PaxSplitClauses(List *clauses, Index relid, List **pushed,
							List **rest);
extern List *PaxPredsInit(List *clauses, Index varno, List *zone_ok,
						  TupleDesc tupdesc, PlanState *ps, bool *secure);
extern void PaxPredsStart(List *preds, ExprContext *econtext,
						  MemoryContext mcxt);
extern void PaxPredEvaluate(PaxPred *pred, ExprContext *econtext,
							MemoryContext mcxt);

/* pax_filter.c */
extern bool PaxPredsRefutePage(List *preds, Page page,
							   const PaxPageLayout *layout,
							   TupleDesc tupdesc);
extern int	PaxPredsFilter(List *preds, bool early, Page page,
						   const PaxPageLayout *layout, TupleDesc tupdesc,
						   uint16 *sel, int n, ExprContext *econtext,
						   MemoryContext mcxt);

/* pax_customscan.c */
extern const CustomScanMethods PaxScanPlanMethods;
extern bool PaxIsPaxRelation(Oid relid);
extern void PaxScanBeginPreds(PaxScanState *state, List *clauses,
							  Index varno, List *zone_ok);
extern void PaxScanStart(PaxScanState *state);
extern bool PaxScanNextPage(PaxScanState *state);
extern void PaxScanEnd(CustomScanState *node);
extern void PaxScanReScan(CustomScanState *node);
extern void PaxExplainFilter(CustomScanState *node, List *clauses,
							 List *ancestors, struct ExplainState *es);

/* pax_aggscan.c */
extern void PaxAggScanInit(void);
extern Node *PaxAggCreateState(CustomScan *cscan);

#endif							/* PAX_CUSTOMSCAN_H */
