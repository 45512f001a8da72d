/*-------------------------------------------------------------------------
 *
 * pax_pushdown.h
 *	  Pushed predicates of PaxScan: what pax_pushdown_clauses.c makes of a WHERE
 *	  clause, and the typed kernels of pax_filter.c that run it on the
 *	  minipages.
 *
 * Nothing here knows an executor node: pax_customscan.h (the scan) and
 * pax_aggscan.c (the aggregate mode) build on it, never the other way.
 *
 * pax_am/pax_pushdown.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_PUSHDOWN_H
#define PAX_PUSHDOWN_H

#include <math.h>

#include "access/stratnum.h"
#include "catalog/pg_type_d.h"
#include "nodes/execnodes.h"

#include "pax_encoding.h"
#include "pax_page.h"

struct PlannerInfo;

typedef enum PaxPredKind
{
	PAX_PRED_CMP,				/* column op value */
	PAX_PRED_IN,				/* column = ANY (values) */
	PAX_PRED_NOTIN,				/* column <> ALL (values) */
	PAX_PRED_ISNULL,
	PAX_PRED_NOTNULL,
	PAX_PRED_OR,				/* any of args, all on one column */
	PAX_PRED_LIKE,				/* column [NOT] LIKE a constant pattern of
								 * literal characters and % only */
	PAX_PRED_COLS				/* column op another column of the row */
} PaxPredKind;

typedef enum PaxValClass
{
	PAX_VC_INT,					/* signed integers, dates, times: as int64 */
	PAX_VC_UINT,				/* bool, "char", oid: as unsigned */
	PAX_VC_FLOAT,				/* float4, float8: as double, NaN largest */
	PAX_VC_BYTES,				/* text, varchar, bpchar: bytewise (C
								 * collation, or equality under a
								 * deterministic collation); bpchar without
								 * its trailing spaces (blankpad) */
	PAX_VC_NUMERIC,				/* numeric: as scaled 128-bit integers where
								 * both sides fit, else the function */
	PAX_VC_FMGR					/* anything else: the operator's function */
} PaxValClass;

/*
 * The strategy of a negated btree equality (<>), which btree has no number
 * for: ROWCOMPARE_NE of 15's RowCompareType, COMPARE_NE of 18's CompareType,
 * both 6, one past the btree strategies.
 */
#define PAX_STRATEGY_NE (BTMaxStrategyNumber + 1)

typedef struct PaxPred
{
	PaxPredKind kind;
	int			attno;			/* zero-based column */
	int			attno2;			/* PAX_PRED_COLS: the other column */
	int			strategy;		/* BT*StrategyNumber or PAX_STRATEGY_NE */
	Oid			opfamily;		/* btree family of the operator */
	PaxValClass vclass;
	bool		varonleft;		/* FMGR: column is the operator's left arg */
	bool		blankpad;		/* BYTES: bpchar, whose trailing spaces do
								 * not count (bcTruelen() in varchar.c) */
	int			prefix;			/* BYTES: the column's first prefix
								 * characters compared (substring(col, 1,
								 * n), left(col, n)), or 0 */
	bool		rtrimcol;		/* BYTES: a bpchar column read as text, its
								 * trailing spaces dropped (value kept) */
	Oid			collation;
	FmgrInfo	fn;				/* operator function (FMGR class) */
	Oid			valtype;		/* type of the value side */
	bool		datets;			/* date column, timestamp value: compared as
								 * dates (PaxPredEvaluateDateTs) */
	int			datets_strategy;	/* then: the clause's own strategy */
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
#ifdef HAVE_INT128
	bool		numfast;		/* PAX_VC_NUMERIC: nval, nscale hold val */
	int			nscale;
	int128		nval;
	bool		numkey;			/* and nkey, nkeyscale (PaxNumKeyMake) */
	int			nkeyscale;
	int64		nkey;
#endif
	const char *sval;			/* BYTES: val's bytes (bpchar: without its
								 * trailing blanks), detoasted */
	int			slen;
	const char **svals;			/* BYTES: vals' bytes, likewise */
	int		   *slens;
	int			nvals;			/* IN lists */
	Datum	   *vals;
	int64	   *ivals;			/* sorted ascending */
	double	   *fvals;

	List	   *args;			/* PAX_PRED_OR: PaxPred * */

	/*
	 * PAX_PRED_LIKE: the pattern's literal runs between its %s, whether the
	 * first must start the string and the last end it, and whether the
	 * operator is NOT LIKE (set by PaxPredEvaluate)
	 */
	bool		likeneg;
	bool		likestart;
	bool		likeend;
	bool		likepercent;	/* the pattern has a % at all */
	int			nsegs;
	const char **segs;
	int		   *seglens;

	/* set by PaxPredsInit */
	bool		lazy;			/* value computed at its first use */
	bool		early;			/* safe on any stored row (PaxPredIsEarly) */
	bool		last;			/* runs after the join filters (two columns:
								 * a hash probe is cheaper) */
	bool		zone_ok;		/* may skip pages by zone maps */
} PaxPred;

/*
 * PaxStrategyHolds tells whether a three-way comparison result satisfies a
 * btree strategy (or PAX_STRATEGY_NE).
 */
static inline bool
PaxStrategyHolds(int strategy, int cmp)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			return cmp < 0;
		case BTLessEqualStrategyNumber:
			return cmp <= 0;
		case BTEqualStrategyNumber:
			return cmp == 0;
		case BTGreaterEqualStrategyNumber:
			return cmp >= 0;
		case BTGreaterStrategyNumber:
			return cmp > 0;
		default:				/* PAX_STRATEGY_NE */
			return cmp != 0;
	}
}

/*
 * PaxColumnNulls returns the null bitmap of column attno's minipage on the
 * page, or NULL when the page has no NULL in it: no bitmap, or a bitmap
 * without a NULL in it (HASNULL covers every stored row).
 */
static inline const bits8 *
PaxColumnNulls(Page page, const PaxColumnLayout *col, int attno)
{
	if (col->nullmap == 0 ||
		!PaxBitIsSet(PaxPageGetDirMap(page, PAX_DIR_HASNULL), attno))
		return NULL;
	return (const bits8 *) page + col->nullmap;
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

/*
 * PaxCmpDouble compares doubles as float8_cmp_internal() in float.c
 * (PostgreSQL 15) does: NaN is equal to NaN and larger than anything else.
 */
static inline int
PaxCmpDouble(double a, double b)
{
	if (unlikely(isnan(a)))
		return isnan(b) ? 0 : 1;
	if (unlikely(isnan(b)))
		return -1;
	return (a > b) - (a < b);
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

/* How PaxScan runs a pushed clause (PaxClauseRun's bits) */
#define PAX_RUN_INLINE		0x01	/* in a typed loop, not an fmgr call a row */
#define PAX_RUN_LAST		0x02	/* after the join filters (PaxPredPhase) */

/* pax_pushdown_clauses.c */
extern bool pax_enable_pushdown;
extern bool PaxAnalyzeClause(Node *clause, Index varno, PaxPred *pred);
extern int	PaxClauseRun(Node *clause, Index varno, TupleDesc tupdesc);
extern bool PaxMayFail(Node *node);
extern void PaxSplitClauses(struct PlannerInfo *root, List *clauses,
							Index relid, List **pushed, List **rest);

/* pax_preds.c */
extern List *PaxPredsInit(List *clauses, Index varno, List *zone_ok,
						  TupleDesc tupdesc, PlanState *ps, bool *secure);
extern bool PaxPredsLazyPending(List *preds);
extern void PaxPredsStart(List *preds, ExprContext *econtext,
						  MemoryContext mcxt);

/* pax_predvalues.c */
extern void PaxResolveClass(PaxPred *pred, TupleDesc tupdesc);
extern void PaxPredEvaluate(PaxPred *pred, ExprContext *econtext,
							MemoryContext mcxt);
extern bool PaxPredIsLazy(PaxPred *pred);
extern bool PaxOuterParam(struct PlannerInfo *root, Expr *value);
extern bool PaxPredIsEarly(PaxPred *pred);

/* pax_zonecheck.c */
extern bool pax_enable_zonemaps;
extern bool PaxPredsRefutePage(List *preds, Page page,
							   const PaxPageLayout *layout,
							   TupleDesc tupdesc);

/*
 * When a page's predicates run (PaxPredsFilter): the early ones on every
 * stored row, the late ones on visible rows, the last ones (two-column
 * predicates, PaxPred.last) after the scan's runtime join filters
 */
typedef enum PaxPredPhase
{
	PAX_PHASE_EARLY,
	PAX_PHASE_LATE,
	PAX_PHASE_LAST
} PaxPredPhase;

/* pax_filter_cols.c */
extern int	PaxFilterColumns(PaxPred *pred, Page page, const PaxPageLayout *layout,
							 TupleDesc tupdesc, uint16 *sel, int n);

/* pax_filter.c */
extern int	PaxPredsFilter(List *preds, PaxPredPhase phase, Page page,
						   const PaxPageLayout *layout, TupleDesc tupdesc,
						   uint16 *sel, int n, ExprContext *econtext,
						   MemoryContext mcxt);

#endif							/* PAX_PUSHDOWN_H */
