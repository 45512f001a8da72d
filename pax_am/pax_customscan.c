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
 * itself ("pushable": column op constant, IN lists, IS [NOT] NULL, boolean
 * columns, ORs of those on one column) go to custom_exprs and are costed
 * as cheap column-at-a-time work; the others stay in the plan's qual.
 *
 * Executor side: for each page, the zone maps are checked first (a page
 * whose min/max refutes a pushed predicate is skipped without touching
 * its minipages); then the visible rows are collected, each pushed
 * predicate filters that selection vector over its column's minipage in a
 * tight typed loop (or one fmgr call per value for other types), and only
 * the rows left are materialised into a virtual slot, with only the
 * needed columns, for the remaining quals and the projection.
 *
 * The constant side of a predicate may be any expression without Vars of
 * the scanned relation and without volatile functions: Params ($n of
 * prepared statements, nestloop parameters, initplans) and stable
 * functions are evaluated once per scan and again on rescan.
 *
 * pax_am/pax_customscan.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/nbtree.h"
#include "access/relscan.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_collation_d.h"
#include "catalog/pg_opfamily_d.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_type_d.h"
#include "commands/explain.h"
#include "executor/executor.h"
#include "executor/nodeCustom.h"
#include "access/parallel.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/plancat.h"
#include "optimizer/restrictinfo.h"
#include "optimizer/planner.h"
#include "parser/parsetree.h"
#include "pgstat.h"
#include "rewrite/rewriteManip.h"
#include "catalog/pg_aggregate_d.h"
#include "storage/bufmgr.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/float.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/numeric.h"
#include "utils/pg_locale.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"
#include "utils/snapmgr.h"
#include "utils/spccache.h"

#include "pax_am.h"
#include "pax_am_hooks.h"

/* btree operator families with fast paths (stable OIDs, pg_opfamily.dat) */
#define PAX_CHAR_BTREE_FAM		429
#define PAX_DATETIME_BTREE_FAM	434
#define PAX_FLOAT_BTREE_FAM		1970
#define PAX_TIME_BTREE_FAM		1996

/* GUCs */
bool		pax_enable_customscan = true;
bool		pax_enable_pushdown = true;
bool		pax_enable_zonemaps = true;
bool		pax_enable_aggpushdown = true;

static set_rel_pathlist_hook_type prev_set_rel_pathlist_hook = NULL;
static create_upper_paths_hook_type prev_create_upper_paths_hook = NULL;

/*
 * Aggregates PaxScan computes itself, column-at-a-time, for a query that
 * aggregates one pax table without GROUP BY (see PaxUpperPaths).
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

typedef struct PaxAgg
{
	PaxAggKind	kind;
	int			attno;			/* zero-based column, -1 for count(*) */
	Oid			type;			/* the column's type */
	int64		count;			/* non-null values seen */
	int64		acc;			/* sum, or min/max so far */
} PaxAgg;

/* ----------------------------------------------------------------
 * Pushed predicates
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
	PaxValClass vclass;
	bool		varonleft;		/* FMGR: column is the operator's left arg */
	Oid			collation;
	FmgrInfo	fn;				/* operator function (FMGR class) */
	Oid			valtype;		/* type of the value side */
	Oid			coltype;		/* base type of the column */
	Expr	   *valexpr;		/* value side, Vars-free */
	ExprState  *valstate;

	/* set by PaxPredsEvaluate at scan start and rescan, or first use */
	bool		evaluated;
	bool		never;			/* no row can qualify (NULL value) */
	bool		always;			/* every row qualifies, NULL included:
								 * x <> ALL of an empty array */
	Datum		val;
	int64		ival;
	double		fval;
	int			nvals;			/* IN lists */
	Datum	   *vals;
	int64	   *ivals;
	double	   *fvals;

	List	   *args;			/* PAX_PRED_OR: PaxPred * */

	/* set by PaxScanBegin */
	bool		lazy;			/* value computed at its first use */
	bool		early;			/* safe on any stored row (PaxPredIsEarly) */
	bool		zone_ok;		/* may skip pages by zone maps */
} PaxPred;

/*
 * PaxVarAttno returns the attribute number of a Var of relation varno
 * (below binary-compatible relabelling), or 0 if expr is not one.
 */
static AttrNumber
PaxVarAttno(Node *expr, Index varno)
{
	while (expr && IsA(expr, RelabelType))
		expr = (Node *) ((RelabelType *) expr)->arg;
	if (expr && IsA(expr, Var) &&
		((Var *) expr)->varno == varno &&
		((Var *) expr)->varlevelsup == 0 &&
		((Var *) expr)->varattno > 0)
		return ((Var *) expr)->varattno;
	return 0;
}

/* PaxValueSideOk tells whether an expression can be a predicate's value. */
static bool
PaxValueSideOk(Node *expr, Index varno)
{
	Relids		relids = pull_varnos(NULL, expr);

	return !bms_is_member(varno, relids) &&
		!contain_volatile_functions(expr) &&
		!contain_subplans(expr);
}

/*
 * PaxBtreeStrategy finds the btree strategy of an operator (or
 * ROWCOMPARE_NE for a negated equality) and its operator family.
 */
static bool
PaxBtreeStrategy(Oid opno, int *strategy, Oid *opfamily)
{
	List	   *interps = get_op_btree_interpretation(opno);

	if (interps == NIL)
		return false;
	*strategy = ((OpBtreeInterpretation *) linitial(interps))->strategy;
	*opfamily = ((OpBtreeInterpretation *) linitial(interps))->opfamily_id;
	list_free_deep(interps);
	return true;
}

/*
 * PaxAnalyzeClause tells whether a clause is pushable for relation varno
 * and, if pred is not NULL, fills it (the value side is not evaluated).
 * Operators must be strict btree comparison operators whose function is
 * not volatile.
 */
static bool
PaxAnalyzeClause(Node *clause, Index varno, PaxPred *pred)
{
	if (clause == NULL)
		return false;

	if (IsA(clause, OpExpr))
	{
		OpExpr	   *op = (OpExpr *) clause;
		Node	   *left,
				   *right;
		AttrNumber	attno;
		bool		varonleft = true;
		int			strategy;
		Oid			opfamily;

		if (list_length(op->args) != 2)
			return false;
		left = linitial(op->args);
		right = lsecond(op->args);
		if ((attno = PaxVarAttno(left, varno)) == 0)
		{
			if ((attno = PaxVarAttno(right, varno)) == 0)
				return false;
			varonleft = false;
			right = left;
		}
		if (!PaxValueSideOk(right, varno) ||
			!PaxBtreeStrategy(op->opno, &strategy, &opfamily) ||
			!func_strict(op->opfuncid) ||
			func_volatile(op->opfuncid) == PROVOLATILE_VOLATILE)
			return false;
		if (pred)
		{
			memset(pred, 0, sizeof(PaxPred));
			pred->kind = PAX_PRED_CMP;
			pred->attno = attno - 1;
			pred->varonleft = varonleft;
			/* the strategy as seen from the column's side */
			if (!varonleft)
				strategy = strategy == BTLessStrategyNumber ? BTGreaterStrategyNumber :
					strategy == BTLessEqualStrategyNumber ? BTGreaterEqualStrategyNumber :
					strategy == BTGreaterStrategyNumber ? BTLessStrategyNumber :
					strategy == BTGreaterEqualStrategyNumber ? BTLessEqualStrategyNumber :
					strategy;
			pred->strategy = strategy;
			pred->collation = op->inputcollid;
			fmgr_info(op->opfuncid, &pred->fn);
			pred->valtype = exprType(right);
			pred->valexpr = (Expr *) right;
			pred->vclass = (PaxValClass) opfamily;	/* resolved later */
		}
		return true;
	}

	if (IsA(clause, ScalarArrayOpExpr))
	{
		ScalarArrayOpExpr *saop = (ScalarArrayOpExpr *) clause;
		Node	   *arr = lsecond(saop->args);
		AttrNumber	attno = PaxVarAttno(linitial(saop->args), varno);
		int			strategy;
		Oid			opfamily;

		if (attno == 0 || !PaxValueSideOk(arr, varno) ||
			!PaxBtreeStrategy(saop->opno, &strategy, &opfamily) ||
			!func_strict(saop->opfuncid) ||
			func_volatile(saop->opfuncid) == PROVOLATILE_VOLATILE)
			return false;
		if (saop->useOr ? strategy != BTEqualStrategyNumber :
			strategy != ROWCOMPARE_NE)
			return false;
		if (pred)
		{
			memset(pred, 0, sizeof(PaxPred));
			pred->kind = saop->useOr ? PAX_PRED_IN : PAX_PRED_NOTIN;
			pred->attno = attno - 1;
			pred->varonleft = true;
			pred->strategy = strategy;
			pred->collation = saop->inputcollid;
			fmgr_info(saop->opfuncid, &pred->fn);
			pred->valtype = get_element_type(exprType(arr));
			pred->valexpr = (Expr *) arr;
			pred->vclass = (PaxValClass) opfamily;
		}
		return true;
	}

	if (IsA(clause, NullTest))
	{
		NullTest   *nt = (NullTest *) clause;
		AttrNumber	attno = PaxVarAttno((Node *) nt->arg, varno);

		if (attno == 0 || nt->argisrow)
			return false;
		if (pred)
		{
			memset(pred, 0, sizeof(PaxPred));
			pred->kind = nt->nulltesttype == IS_NULL ? PAX_PRED_ISNULL : PAX_PRED_NOTNULL;
			pred->attno = attno - 1;
		}
		return true;
	}

	/* a boolean column, or its negation */
	if (IsA(clause, Var) || (is_notclause(clause)))
	{
		bool		negated = !IsA(clause, Var);
		Node	   *var = negated ? (Node *) get_notclausearg((Expr *) clause) : clause;
		AttrNumber	attno = PaxVarAttno(var, varno);

		if (attno == 0 || exprType(var) != BOOLOID)
			return false;
		if (pred)
		{
			memset(pred, 0, sizeof(PaxPred));
			pred->kind = PAX_PRED_CMP;
			pred->attno = attno - 1;
			pred->strategy = BTEqualStrategyNumber;
			pred->varonleft = true;
			pred->valtype = BOOLOID;
			pred->valexpr = (Expr *) makeBoolConst(!negated, false);
			fmgr_info(F_BOOLEQ, &pred->fn);
			pred->vclass = (PaxValClass) BOOL_BTREE_FAM_OID;
		}
		return true;
	}

	/* OR of pushable predicates on one column */
	if (is_orclause(clause))
	{
		ListCell   *lc;
		int			attno = -1;

		foreach(lc, ((BoolExpr *) clause)->args)
		{
			PaxPred		sub;

			if (!PaxAnalyzeClause(lfirst(lc), varno, &sub) ||
				sub.kind == PAX_PRED_OR ||
				(attno >= 0 && sub.attno != attno))
				return false;
			attno = sub.attno;
		}
		if (pred)
		{
			memset(pred, 0, sizeof(PaxPred));
			pred->kind = PAX_PRED_OR;
			pred->attno = attno;
			foreach(lc, ((BoolExpr *) clause)->args)
			{
				PaxPred    *sub = palloc(sizeof(PaxPred));

				PaxAnalyzeClause(lfirst(lc), varno, sub);
				pred->args = lappend(pred->args, sub);
			}
		}
		return true;
	}

	return false;
}

/*
 * PaxResolveClass picks the comparison class of a predicate from its
 * operator family (stashed in vclass by PaxAnalyzeClause), the column's
 * type and the value's type.
 */
static void
PaxResolveClass(PaxPred *pred, TupleDesc tupdesc)
{
	Oid			opfamily = (Oid) pred->vclass;
	Oid			coltype;
	Oid			valtype = pred->valtype;

	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			PaxResolveClass(lfirst(lc), tupdesc);
		return;
	}
	coltype = getBaseType(TupleDescAttr(tupdesc, pred->attno)->atttypid);
	pred->coltype = coltype;
	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL)
		return;

	valtype = getBaseType(valtype);
	pred->vclass = PAX_VC_FMGR;

	switch (opfamily)
	{
		case INTEGER_BTREE_FAM_OID:
			if ((coltype == INT2OID || coltype == INT4OID || coltype == INT8OID) &&
				(valtype == INT2OID || valtype == INT4OID || valtype == INT8OID))
				pred->vclass = PAX_VC_INT;
			break;
		case PAX_DATETIME_BTREE_FAM:
		case PAX_TIME_BTREE_FAM:
			if (coltype == valtype &&
				(coltype == DATEOID || coltype == TIMESTAMPOID ||
				 coltype == TIMESTAMPTZOID || coltype == TIMEOID))
				pred->vclass = PAX_VC_INT;
			break;
		case PAX_FLOAT_BTREE_FAM:
			if ((coltype == FLOAT4OID || coltype == FLOAT8OID) &&
				(valtype == FLOAT4OID || valtype == FLOAT8OID))
				pred->vclass = PAX_VC_FLOAT;
			break;
		case BOOL_BTREE_FAM_OID:
			if (coltype == BOOLOID && valtype == BOOLOID)
				pred->vclass = PAX_VC_UINT;
			break;
		case PAX_CHAR_BTREE_FAM:
			if (coltype == CHAROID && valtype == CHAROID)
				pred->vclass = PAX_VC_UINT;
			break;
		case OID_BTREE_FAM_OID:
			if (coltype == OIDOID && valtype == OIDOID)
				pred->vclass = PAX_VC_UINT;
			break;
		case TEXT_BTREE_FAM_OID:
			if ((coltype == TEXTOID || coltype == VARCHAROID) &&
				(valtype == TEXTOID || valtype == VARCHAROID) &&
				OidIsValid(pred->collation) &&
				(lc_collate_is_c(pred->collation) ||
				 ((pred->strategy == BTEqualStrategyNumber ||
				   pred->strategy == ROWCOMPARE_NE) &&
				  get_collation_isdeterministic(pred->collation))))
				pred->vclass = PAX_VC_BYTES;
			break;
	}
}

/* PaxToInt64 converts a value of an integer-like type to int64. */
static int64
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

static double
PaxToDouble(Datum d, Oid type)
{
	return type == FLOAT4OID ? (double) DatumGetFloat4(d) : DatumGetFloat8(d);
}

static int
PaxCmpInt64(const void *a, const void *b)
{
	int64		x = *(const int64 *) a;
	int64		y = *(const int64 *) b;

	return (x > y) - (x < y);
}

static void PaxPredsEvaluate(List *preds, ExprContext *econtext,
							 MemoryContext mcxt);

/*
 * PaxPredEvaluate computes the value side of a predicate, in the scan's
 * per-query memory: at scan start and rescan unless it is lazy, else when a
 * row first reaches it (PaxScanFilter).
 */
static void
PaxPredEvaluate(PaxPred *pred, ExprContext *econtext, MemoryContext mcxt)
{
	Oid			base;
	Datum		value;
	bool		isnull;
	MemoryContext old;

	pred->evaluated = true;
	if (pred->kind == PAX_PRED_OR)
	{
		PaxPredsEvaluate(pred->args, econtext, mcxt);
		return;
	}
	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL)
		return;

	base = getBaseType(pred->valtype);
	value = ExecEvalExprSwitchContext(pred->valstate, econtext, &isnull);
	pred->never = false;
	pred->always = false;
	if (isnull)
	{
		/* strict operator against NULL: never true */
		pred->never = true;
		return;
	}

	old = MemoryContextSwitchTo(mcxt);
	if (pred->kind == PAX_PRED_CMP)
	{
		pred->val = datumCopy(value, get_typbyval(pred->valtype),
							  get_typlen(pred->valtype));
		if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
			pred->ival = PaxToInt64(pred->val, base);
		else if (pred->vclass == PAX_VC_FLOAT)
			pred->fval = PaxToDouble(pred->val, base);
	}
	else
	{
		ArrayType  *arr = DatumGetArrayTypePCopy(value);
		int16		typlen;
		bool		typbyval;
		char		typalign;
		Datum	   *elems;
		bool	   *nulls;
		int			nelems;
		int			n = 0;
		bool		hasnull = false;

		get_typlenbyvalalign(ARR_ELEMTYPE(arr), &typlen, &typbyval, &typalign);
		deconstruct_array(arr, ARR_ELEMTYPE(arr), typlen, typbyval, typalign,
						  &elems, &nulls, &nelems);
		pred->vals = palloc(sizeof(Datum) * Max(nelems, 1));
		for (int i = 0; i < nelems; i++)
		{
			if (nulls[i])
				hasnull = true;
			else
				pred->vals[n++] = elems[i];
		}
		pred->nvals = n;
		/*
		 * x <> ALL (.., NULL, ..) is never true; NULLs never match IN.
		 * Over an empty array, ANY is false and ALL true for every x,
		 * NULL included (ExecEvalScalarArrayOp decides before looking
		 * at x).
		 */
		if (pred->kind == PAX_PRED_NOTIN && hasnull)
			pred->never = true;
		else if (nelems == 0)
		{
			if (pred->kind == PAX_PRED_NOTIN)
				pred->always = true;
			else
				pred->never = true;
		}
		if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
		{
			pred->ivals = palloc(sizeof(int64) * Max(n, 1));
			for (int i = 0; i < n; i++)
				pred->ivals[i] = PaxToInt64(pred->vals[i], base);
			qsort(pred->ivals, n, sizeof(int64), PaxCmpInt64);
		}
		else if (pred->vclass == PAX_VC_FLOAT)
		{
			pred->fvals = palloc(sizeof(double) * Max(n, 1));
			for (int i = 0; i < n; i++)
				pred->fvals[i] = PaxToDouble(pred->vals[i], base);
		}
	}
	MemoryContextSwitchTo(old);
}

/* PaxPredsEvaluate computes the values of a list of predicates. */
static void
PaxPredsEvaluate(List *preds, ExprContext *econtext, MemoryContext mcxt)
{
	ListCell   *lc;

	foreach(lc, preds)
		PaxPredEvaluate(lfirst(lc), econtext, mcxt);
}

/* ----------------------------------------------------------------
 * Evaluation over a page
 * ----------------------------------------------------------------
 */

/* Compare doubles as float8_cmp_internal does: NaN is the largest. */
static inline int
PaxCmpDouble(double a, double b)
{
	if (unlikely(isnan(a)))
		return isnan(b) ? 0 : 1;
	if (unlikely(isnan(b)))
		return -1;
	return (a > b) - (a < b);
}

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
		default:				/* ROWCOMPARE_NE */
			return cmp != 0;
	}
}

/*
 * PaxFilterIntCmp keeps the rows of sel whose integer value satisfies
 * "value strategy c"; one loop per width and strategy, so the compiler
 * gets a tight loop without branches on either.
 */
#define PAX_INT_LOOP(T, OP) \
	do { \
		const T *vals = (const T *) base; \
		for (int k = 0; k < n; k++) \
		{ \
			int			r = sel[k]; \
			if ((int64) vals[r] OP c) \
				sel[m++] = r; \
		} \
	} while (0)

#define PAX_INT_STRATEGY(T) \
	switch (strategy) \
	{ \
		case BTLessStrategyNumber: PAX_INT_LOOP(T, <); break; \
		case BTLessEqualStrategyNumber: PAX_INT_LOOP(T, <=); break; \
		case BTEqualStrategyNumber: PAX_INT_LOOP(T, ==); break; \
		case BTGreaterEqualStrategyNumber: PAX_INT_LOOP(T, >=); break; \
		case BTGreaterStrategyNumber: PAX_INT_LOOP(T, >); break; \
		default: PAX_INT_LOOP(T, !=); break; \
	}

static int
PaxFilterIntCmp(const char *base, int attlen, bool isunsigned, int strategy,
				int64 c, uint16 *sel, int n)
{
	int			m = 0;

	switch (attlen)
	{
		case 1:
			PAX_INT_STRATEGY(uint8);
			break;
		case 2:
			PAX_INT_STRATEGY(int16);
			break;
		case 4:
			if (isunsigned)
				PAX_INT_STRATEGY(uint32)
			else
				PAX_INT_STRATEGY(int32)
			break;
		default:
			PAX_INT_STRATEGY(int64);
			break;
	}
	return m;
}

/*
 * PaxTextBytes returns a text value's bytes when it needs no detoasting, or
 * false when it does (compressed, or stored out of line).
 */
static inline bool
PaxTextBytes(Datum d, const char **data, int *len)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	/*
	 * An external TOAST pointer has a one-byte header too (VARATT_IS_SHORT
	 * holds for it): its bytes are the pointer, not the string.
	 */
	if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
		return false;
	*data = VARDATA_ANY(v);
	*len = VARSIZE_ANY_EXHDR(v);
	return true;
}

static inline int
PaxCmpBytes(const char *a, int alen, const char *b, int blen)
{
	int			r = memcmp(a, b, Min(alen, blen));

	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

/*
 * PaxValueQualifies evaluates one predicate on one non-null value: the
 * general path, used for the classes without a loop of their own and for
 * OR members.
 */
static bool
PaxValueQualifies(PaxPred *pred, Datum value, int16 attlen)
{
	if (pred->never)
		return false;
	if (pred->always)
		return true;
	switch (pred->kind)
	{
		case PAX_PRED_ISNULL:
			return false;
		case PAX_PRED_NOTNULL:
			return true;
		case PAX_PRED_OR:
			{
				ListCell   *lc;

				foreach(lc, pred->args)
					if (PaxValueQualifies(lfirst(lc), value, attlen))
						return true;
				return false;
			}
		default:
			break;
	}

	if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
	{
		/* value is a Datum of the column type: widen per its length */
		int64		v = attlen == 1 ? (int64) (uint8) DatumGetChar(value) :
			attlen == 2 ? (int64) DatumGetInt16(value) :
			attlen == 4 ? (pred->vclass == PAX_VC_UINT ?
						   (int64) DatumGetObjectId(value) :
						   (int64) DatumGetInt32(value)) :
			DatumGetInt64(value);
		if (pred->kind == PAX_PRED_CMP)
			return PaxStrategyHolds(pred->strategy, (v > pred->ival) - (v < pred->ival));
		else
		{
			bool		found = bsearch(&v, pred->ivals, pred->nvals,
										sizeof(int64), PaxCmpInt64) != NULL;

			return pred->kind == PAX_PRED_IN ? found : !found;
		}
	}
	if (pred->vclass == PAX_VC_FLOAT)
	{
		double		v = attlen == 4 ? (double) DatumGetFloat4(value) : DatumGetFloat8(value);

		if (pred->kind == PAX_PRED_CMP)
			return PaxStrategyHolds(pred->strategy, PaxCmpDouble(v, pred->fval));
		for (int i = 0; i < pred->nvals; i++)
			if (PaxCmpDouble(v, pred->fvals[i]) == 0)
				return pred->kind == PAX_PRED_IN;
		return pred->kind != PAX_PRED_IN;
	}
	if (pred->vclass == PAX_VC_BYTES)
	{
		const char *a;
		int			alen;

		if (PaxTextBytes(value, &a, &alen))
		{
			if (pred->kind == PAX_PRED_CMP)
			{
				const char *b;
				int			blen;

				if (PaxTextBytes(pred->val, &b, &blen))
					return PaxStrategyHolds(pred->strategy,
											PaxCmpBytes(a, alen, b, blen));
			}
		}
		/* fall through to the operator for toasted values and IN lists */
	}

	if (pred->kind == PAX_PRED_CMP)
		return DatumGetBool(pred->varonleft ?
							FunctionCall2Coll(&pred->fn, pred->collation, value, pred->val) :
							FunctionCall2Coll(&pred->fn, pred->collation, pred->val, value));
	for (int i = 0; i < pred->nvals; i++)
	{
		bool		r = DatumGetBool(FunctionCall2Coll(&pred->fn, pred->collation,
													   value, pred->vals[i]));

		if (pred->kind == PAX_PRED_IN && r)
			return true;
		if (pred->kind == PAX_PRED_NOTIN && !r)
			return false;
	}
	return pred->kind != PAX_PRED_IN;
}

/* PaxPredAcceptsNull tells whether a NULL value satisfies a predicate. */
static bool
PaxPredAcceptsNull(PaxPred *pred)
{
	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (PaxPredAcceptsNull(lfirst(lc)))
				return true;
		return false;
	}
	return pred->kind == PAX_PRED_ISNULL || pred->always;
}

/*
 * PaxPredIsLazy tells whether a predicate's value must wait until a row
 * reaches it, as heap computes a qual's arguments only when it evaluates
 * the qual on a row: unless it is a constant or a parameter supplied from
 * outside, computing it may raise an error heap would not (a domain's
 * check, an InitPlan's division by zero) or run a subquery for an empty
 * table.
 */
static bool
PaxPredIsLazy(PaxPred *pred)
{
	Node	   *value = (Node *) pred->valexpr;

	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (PaxPredIsLazy(lfirst(lc)))
				return true;
		return false;
	}
	if (value == NULL)
		return false;			/* IS [NOT] NULL */
	while (IsA(value, RelabelType))
		value = (Node *) ((RelabelType *) value)->arg;
	return !(IsA(value, Const) ||
			 (IsA(value, Param) && ((Param *) value)->paramkind == PARAM_EXTERN));
}

/*
 * PaxPredIsEarly tells whether a predicate may run on rows the scan's
 * snapshot cannot see: only if it reads nothing but a fixed-width minipage
 * or the null bitmap, in a typed loop that is right for any bytes there.
 * Values of such rows may belong to a column type that a rolled-back
 * ALTER TABLE left behind, be TOAST pointers whose chunks VACUUM removed,
 * or be hidden by row-level security: detoasting them, or handing them to
 * an operator's function, is not safe.  See "What PaxScan reads" in
 * pax_am/README.
 */
static bool
PaxPredIsEarly(PaxPred *pred)
{
	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (!PaxPredIsEarly(lfirst(lc)))
				return false;
		return true;
	}
	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL)
		return true;
	/* a lazy value is computed with the page unlocked: among the late */
	if (pred->lazy)
		return false;
	return pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT ||
		pred->vclass == PAX_VC_FLOAT;
}

/*
 * PaxFilter applies one predicate to the selection vector sel[0..n) of row
 * indexes of a page and returns how many rows are left (compacted in
 * place).
 */
static pg_attribute_always_inline int
PaxFilter(PaxPred *pred, Page page, const PaxPageLayout *layout,
		  TupleDesc tupdesc, uint16 *sel, int n)
{
	const PaxColumnLayout *col;
	const bits8 *nulls;
	int			m = 0;

	if (pred->attno >= layout->natts)
	{
		/* a column added after the page was laid out: one value for all */
		bool		isnull;
		Datum		value = getmissingattr(tupdesc, pred->attno + 1, &isnull);

		if (isnull)
			return PaxPredAcceptsNull(pred) ? n : 0;
		return PaxValueQualifies(pred, value,
								 TupleDescAttr(tupdesc, pred->attno)->attlen) ? n : 0;
	}

	col = &layout->cols[pred->attno];
	if (col->data == 0 || col->dropped)
		return PaxPredAcceptsNull(pred) ? n : 0;	/* every row NULL */
	nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
	/* a null bitmap without a NULL in it (HASNULL covers every stored row) */
	if (nulls && !PaxBitIsSet(PaxPageGetDirMap(page, PAX_DIR_HASNULL), pred->attno))
		nulls = NULL;

	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL)
	{
		bool		want = pred->kind == PAX_PRED_ISNULL;

		if (nulls == NULL)
			return want ? 0 : n;
		for (int k = 0; k < n; k++)
			if ((bool) PaxBitIsSet(nulls, sel[k]) == want)
				sel[m++] = sel[k];
		return m;
	}
	if (pred->never)
		return 0;
	if (pred->always)
		return n;

	/* NULLs never satisfy a strict comparison: drop them first */
	if (nulls)
	{
		bool		anynull = false;

		for (int k = 0; k < n && !anynull; k++)
			anynull = PaxBitIsSet(nulls, sel[k]);
		if (anynull && pred->kind != PAX_PRED_OR)
		{
			for (int k = 0; k < n; k++)
				if (!PaxBitIsSet(nulls, sel[k]))
					sel[m++] = sel[k];
			n = m;
			m = 0;
		}
	}

	/* the tight loops */
	if (pred->kind == PAX_PRED_CMP && col->attlen > 0 &&
		(pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT))
		return PaxFilterIntCmp(page + col->data, col->attlen,
							   pred->vclass == PAX_VC_UINT, pred->strategy,
							   pred->ival, sel, n);
	if (pred->kind == PAX_PRED_CMP && pred->vclass == PAX_VC_FLOAT)
	{
		double		c = pred->fval;

		if (col->attlen == 8)
		{
			const float8 *vals = (const float8 *) (page + col->data);

			for (int k = 0; k < n; k++)
				if (PaxStrategyHolds(pred->strategy, PaxCmpDouble(vals[sel[k]], c)))
					sel[m++] = sel[k];
		}
		else
		{
			const float4 *vals = (const float4 *) (page + col->data);

			for (int k = 0; k < n; k++)
				if (PaxStrategyHolds(pred->strategy, PaxCmpDouble(vals[sel[k]], c)))
					sel[m++] = sel[k];
		}
		return m;
	}

	/* the general path: one value at a time, still without forming rows */
	{
		Datum		value;
		bool		isnull;

		for (int k = 0; k < n; k++)
		{
			int			r = sel[k];

			value = PaxPageGetValue(page, layout, r, pred->attno, &isnull);
			if (isnull ? PaxPredAcceptsNull(pred) :
				PaxValueQualifies(pred, value, col->attlen))
				sel[m++] = r;
		}
	}
	return m;
}

/*
 * PaxZoneRefutes tells whether a page's zone map proves that no row of the
 * page satisfies the predicate.  Zone maps cover every row stored on the
 * page, visible or not, so refutation is always safe.
 */
static bool
PaxZoneRefutes(PaxPred *pred, Page page, const PaxPageLayout *layout,
			   TupleDesc tupdesc)
{
	const PaxColumnLayout *col;
	bits8	   *zoneset = PaxPageGetDirMap(page, PAX_DIR_ZONESET);
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	PaxZone    *zone;
	Oid			type;
	int64		imin,
				imax;
	double		fmin,
				fmax;

	if (pred->attno >= layout->natts)
		return false;
	col = &layout->cols[pred->attno];
	if (col->dropped)
		return false;
	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (!PaxZoneRefutes(lfirst(lc), page, layout, tupdesc))
				return false;
		return true;
	}
	if (pred->kind == PAX_PRED_ISNULL)
		return col->data != 0 && !PaxBitIsSet(hasnull, pred->attno);
	if (pred->never)
		return true;
	if (pred->always)
		return false;
	if (col->data == 0)
		return true;			/* all NULL: no strict comparison holds */
	if (pred->kind == PAX_PRED_NOTNULL)
		return col->zone >= 0 && !PaxBitIsSet(zoneset, pred->attno) &&
			PaxPageGetHeader(page)->pp_nrows > 0;
	if (col->zone < 0)
		return false;
	if (!PaxBitIsSet(zoneset, pred->attno))
		return PaxPageGetHeader(page)->pp_nrows > 0;	/* all NULL */

	zone = (PaxZone *) (page + layout->zones) + col->zone;
	type = pred->coltype;

	if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
	{
		imin = PaxToInt64(zone->min, type);
		imax = PaxToInt64(zone->max, type);
		if (pred->kind == PAX_PRED_IN)
		{
			for (int i = 0; i < pred->nvals; i++)
				if (pred->ivals[i] >= imin && pred->ivals[i] <= imax)
					return false;
			return true;
		}
		if (pred->kind == PAX_PRED_NOTIN)
			return imin == imax && pred->nvals > 0 &&
				bsearch(&imin, pred->ivals, pred->nvals, sizeof(int64), PaxCmpInt64);
		switch (pred->strategy)
		{
			case BTLessStrategyNumber:
				return imin >= pred->ival;
			case BTLessEqualStrategyNumber:
				return imin > pred->ival;
			case BTEqualStrategyNumber:
				return pred->ival < imin || pred->ival > imax;
			case BTGreaterEqualStrategyNumber:
				return imax < pred->ival;
			case BTGreaterStrategyNumber:
				return imax <= pred->ival;
			default:
				return imin == imax && imin == pred->ival;
		}
	}
	if (pred->vclass == PAX_VC_FLOAT)
	{
		fmin = PaxToDouble(zone->min, type);
		fmax = PaxToDouble(zone->max, type);
		if (pred->kind == PAX_PRED_IN)
		{
			for (int i = 0; i < pred->nvals; i++)
				if (PaxCmpDouble(pred->fvals[i], fmin) >= 0 &&
					PaxCmpDouble(pred->fvals[i], fmax) <= 0)
					return false;
			return true;
		}
		if (pred->kind != PAX_PRED_CMP)
			return false;
		switch (pred->strategy)
		{
			case BTLessStrategyNumber:
				return PaxCmpDouble(fmin, pred->fval) >= 0;
			case BTLessEqualStrategyNumber:
				return PaxCmpDouble(fmin, pred->fval) > 0;
			case BTEqualStrategyNumber:
				return PaxCmpDouble(pred->fval, fmin) < 0 ||
					PaxCmpDouble(pred->fval, fmax) > 0;
			case BTGreaterEqualStrategyNumber:
				return PaxCmpDouble(fmax, pred->fval) < 0;
			case BTGreaterStrategyNumber:
				return PaxCmpDouble(fmax, pred->fval) <= 0;
			default:
				return PaxCmpDouble(fmin, fmax) == 0 &&
					PaxCmpDouble(fmin, pred->fval) == 0;
		}
	}
	return false;
}

/* ----------------------------------------------------------------
 * Planner
 * ----------------------------------------------------------------
 */

static Plan *PaxScanPlan(PlannerInfo *root, RelOptInfo *rel,
						 struct CustomPath *best_path, List *tlist,
						 List *clauses, List *custom_plans);
static Node *PaxScanCreateState(CustomScan *cscan);
static void PaxScanBegin(CustomScanState *node, EState *estate, int eflags);
static TupleTableSlot *PaxScanExec(CustomScanState *node);
static void PaxScanEnd(CustomScanState *node);
static void PaxScanReScan(CustomScanState *node);
static void PaxScanExplain(CustomScanState *node, List *ancestors,
						   ExplainState *es);
static Size PaxScanEstimateDSM(CustomScanState *node, ParallelContext *pcxt);
static void PaxScanInitializeDSM(CustomScanState *node, ParallelContext *pcxt,
								 void *coordinate);
static void PaxScanReInitializeDSM(CustomScanState *node,
								   ParallelContext *pcxt, void *coordinate);
static void PaxScanInitializeWorker(CustomScanState *node, shm_toc *toc,
									void *coordinate);
static void PaxScanShutdown(CustomScanState *node);

static const CustomPathMethods PaxScanPathMethods = {
	.CustomName = "PaxScan",
	.PlanCustomPath = PaxScanPlan,
};

static const CustomScanMethods PaxScanPlanMethods = {
	.CustomName = "PaxScan",
	.CreateCustomScanState = PaxScanCreateState,
};

static const CustomExecMethods PaxScanExecMethods = {
	.CustomName = "PaxScan",
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
 * PaxIsPaxRelation tells whether a relation uses the pax access method.
 * The planner already holds a lock on it.
 */
static bool
PaxIsPaxRelation(Oid relid)
{
	Relation	rel = table_open(relid, NoLock);
	bool		pax = rel->rd_tableam == PaxGetTableAmRoutine();

	table_close(rel, NoLock);
	return pax;
}

/*
 * PaxSplitClauses splits RestrictInfos into those PaxScan evaluates on the
 * minipages and the others, keeping the order of each.
 *
 * The pushed clauses run before all the others, so a clause is pushed only
 * if no clause left behind has a lower security level (row-level security
 * policies, security_barrier views), or if it is leakproof: the rule
 * order_qual_clauses and restriction_is_securely_promotable apply.
 */
static void
PaxSplitClauses(List *clauses, Index relid, List **pushed, List **rest)
{
	int			n = list_length(clauses);
	bool	   *push = palloc(sizeof(bool) * Max(n, 1));
	Index		min_rest = UINT_MAX;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		int			i = foreach_current_index(lc);

		push[i] = pax_enable_pushdown && !ri->pseudoconstant &&
			PaxAnalyzeClause((Node *) ri->clause, relid, NULL);
		if (!push[i])
			min_rest = Min(min_rest, ri->security_level);
	}
	/*
	 * A clause kept back for this reason has a level above min_rest, so it
	 * does not lower min_rest: one pass settles the split.
	 */
	foreach(lc, clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		int			i = foreach_current_index(lc);

		if (push[i] && ri->security_level > min_rest && !ri->leakproof)
			push[i] = false;
	}

	*pushed = *rest = NIL;
	foreach(lc, clauses)
	{
		if (push[foreach_current_index(lc)])
			*pushed = lappend(*pushed, lfirst(lc));
		else
			*rest = lappend(*rest, lfirst(lc));
	}
	pfree(push);
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
 * PaxNeededShare estimates the share of the relation's columns a scan
 * reads: those of the target list and of the restriction clauses.
 */
static double
PaxNeededShare(RelOptInfo *rel)
{
	Bitmapset  *attrs = NULL;
	ListCell   *lc;
	int			n = 0;

	if (rel->max_attr <= 0)
		return 1.0;
	pull_varattnos((Node *) rel->reltarget->exprs, rel->relid, &attrs);
	foreach(lc, rel->baserestrictinfo)
		pull_varattnos((Node *) lfirst_node(RestrictInfo, lc)->clause,
					   rel->relid, &attrs);
	if (bms_is_member(0 - FirstLowInvalidHeapAttributeNumber, attrs))
		return 1.0;				/* whole-row reference */
	for (int attno = 1; attno <= rel->max_attr; attno++)
		if (bms_is_member(attno - FirstLowInvalidHeapAttributeNumber, attrs))
			n++;
	bms_free(attrs);
	return (double) n / rel->max_attr;
}

/*
 * PaxCostPath estimates a PaxScan path as cost_seqscan would, with the
 * pushed clauses evaluated column-at-a-time at a fraction of an operator's
 * cost and rows formed only when they pass them.
 */
static void
PaxCostPath(PlannerInfo *root, RelOptInfo *rel, CustomPath *cpath,
			List *pushed, List *rest)
{
	Path	   *path = &cpath->path;
	double		spc_seq_page_cost;
	Cost		startup_cost = 0;
	Cost		cpu_run_cost;
	Cost		disk_run_cost;
	QualCost	rest_cost;
	Selectivity pushed_sel;
	double		ntuples = rel->tuples;
	double		npass;
	Cost		form_cost;

	/* a sequential scan, which enable_seqscan = off discourages */
	if (!enable_seqscan)
		startup_cost += disable_cost;

	get_tablespace_page_costs(rel->reltablespace, NULL, &spc_seq_page_cost);
	disk_run_cost = spc_seq_page_cost * rel->pages;

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
	form_cost = cpu_tuple_cost * (0.3 + 0.7 * PaxNeededShare(rel));
	cpu_run_cost = ntuples * (0.05 * cpu_tuple_cost +
							  list_length(pushed) * 0.25 * cpu_operator_cost) +
		npass * (form_cost + rest_cost.per_tuple) +
		path->rows * path->pathtarget->cost.per_tuple;

	if (path->parallel_workers > 0)
	{
		double		divisor = path->parallel_workers;
		double		leader = 1.0 - (0.3 * path->parallel_workers);

		if (parallel_leader_participation && leader > 0)
			divisor += leader;
		cpu_run_cost /= divisor;
		path->rows = clamp_row_est(path->rows / divisor);
	}

	path->startup_cost = startup_cost;
	path->total_cost = startup_cost + cpu_run_cost + disk_run_cost;
}

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
	PaxCostPath(root, rel, cpath, pushed, rest);
	return cpath;
}

/*
 * PaxSetRelPathlist adds PaxScan paths for pax relations.  It leaves the
 * relation alone when a system column other than ctid or tableoid is
 * needed (PaxScan forms virtual rows) or the scan samples the table.
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
 * others in the qual, and in custom_private the columns to read.
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
	cscan->custom_private = list_make2(projected, zone_ok);

	/* create_customscan_plan turns outer Vars into nestloop Params */
	return &cscan->scan.plan;
}

/* ----------------------------------------------------------------
 * Aggregate pushdown
 * ----------------------------------------------------------------
 */

static Plan *PaxAggPlan(PlannerInfo *root, RelOptInfo *rel,
						struct CustomPath *best_path, List *tlist,
						List *clauses, List *custom_plans);

static const CustomPathMethods PaxAggPathMethods = {
	.CustomName = "PaxScan",
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
	Query	   *parse = root->parse;
	RangeTblEntry *rte;
	List	   *pushed;
	List	   *rest;
	List	   *aggrefs;
	List	   *aggspec = NIL;
	ListCell   *lc;
	CustomPath *cpath;
	double		ntuples;
	double		npass;
	Cost		cost;

	if (prev_create_upper_paths_hook)
		prev_create_upper_paths_hook(root, stage, input_rel, output_rel, extra);

	if (stage != UPPERREL_GROUP_AGG || !pax_enable_customscan ||
		!pax_enable_aggpushdown || !pax_enable_pushdown)
		return;
	if (!parse->hasAggs || parse->groupClause != NIL ||
		parse->groupingSets != NIL || parse->havingQual != NULL ||
		parse->hasWindowFuncs || parse->hasTargetSRFs ||
		parse->rowMarks != NIL || root->hasHavingQual)
		return;
	if (input_rel->reloptkind != RELOPT_BASEREL ||
		input_rel->rtekind != RTE_RELATION ||
		!bms_is_empty(input_rel->lateral_relids))
		return;
	rte = planner_rt_fetch(input_rel->relid, root);
	if (rte->inh || rte->tablesample != NULL ||
		(rte->relkind != RELKIND_RELATION && rte->relkind != RELKIND_MATVIEW) ||
		!PaxIsPaxRelation(rte->relid))
		return;

	/*
	 * Under row-level security or security_barrier views the plain scan's
	 * ordering of quals and its counters apply: no aggregate mode.
	 */
	if (root->qual_security_level > 0)
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
	if (aggrefs == NIL)
		return;
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
			return;
		if (kind != PAX_AGG_COUNT_STAR)
		{
			TargetEntry *tle;
			Var		   *var;

			if (list_length(aggref->args) != 1)
				return;
			tle = linitial(aggref->args);
			var = (Var *) tle->expr;
			if (!IsA(var, Var) || var->varno != input_rel->relid ||
				var->varlevelsup != 0 || var->varattno <= 0)
				return;
			attno = var->varattno - 1;
		}
		aggspec = lappend_int(lappend_int(aggspec, kind), attno);
	}

	/*
	 * PaxScan's own cost (pages, visibility, the pushed clauses), with one
	 * cheap fold per aggregate in place of forming each passing row.
	 */
	ntuples = input_rel->tuples;
	npass = clamp_row_est(ntuples *
						  clauselist_selectivity(root, pushed, input_rel->relid,
												 JOIN_INNER, NULL));
	cost = input_rel->pages * seq_page_cost +
		ntuples * (0.05 * cpu_tuple_cost +
				   list_length(pushed) * 0.25 * cpu_operator_cost) +
		npass * list_length(aggrefs) * 0.1 * cpu_operator_cost;

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
	cpath->custom_private = list_make3(aggspec, pushed, aggrefs);
	cpath->methods = &PaxAggPathMethods;
	/* the relation's index, as planning knows it */
	cpath->custom_private = lappend(cpath->custom_private,
									list_make1_int(input_rel->relid));
	add_path(output_rel, &cpath->path);
}

/*
 * PaxAggPlan makes the aggregate-mode CustomScan: no scan relation of its
 * own, the aggregates as its scan tuple (custom_scan_tlist, which the
 * target list refers to, and a last junk ctid Var naming the relation), and in
 * custom_private: no columns to project, the aggregates (kind, column)
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
	cscan->methods = &PaxScanPlanMethods;
	return &cscan->scan.plan;
}

/* ----------------------------------------------------------------
 * Executor
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

typedef struct PaxScanState
{
	CustomScanState css;

	List	   *preds;			/* PaxPred * */
	ExprState  *recheck;		/* the pushed clauses, for EvalPlanQual */
	int		   *projected;		/* zero-based columns to read */
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
	uint16		sel[PAX_MAX_CAPACITY];	/* qualifying rows of the page */
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

	/* aggregate mode: one result row of these, computed on the minipages */
	PaxAgg	   *aggs;
	int			naggs;			/* 0: a plain scan */
	bool		agg_done;
	List	   *agg_clauses;	/* the pushed clauses, for EXPLAIN */

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

static Node *
PaxScanCreateState(CustomScan *cscan)
{
	PaxScanState *state = (PaxScanState *) newNode(sizeof(PaxScanState),
												   T_CustomScanState);

	state->css.methods = &PaxScanExecMethods;
	return (Node *) state;
}

static void
PaxScanBegin(CustomScanState *node, EState *estate, int eflags)
{
	PaxScanState *state = (PaxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Relation	rel;
	TupleDesc	tupdesc;
	List	   *projected = linitial(cscan->custom_private);
	List	   *zone_ok = NIL;
	List	   *clauses = cscan->custom_exprs;
	Index		varno = cscan->scan.scanrelid;
	ListCell   *lc;
	int			i = 0;

	/*
	 * Aggregate mode (PaxAggPlan): no scan relation of the plan's own; the
	 * pushed clauses are kept in custom_private with the relation's index
	 * at planning time.
	 */
	if (list_length(cscan->custom_private) == 4)
	{
		/* setrefs kept the ctid Var of the last scan column pointing at it */
		Var		   *ctid = (Var *) ((TargetEntry *) llast(cscan->custom_scan_tlist))->expr;
		Index		rti = ctid->varno;
		List	   *aggspec = lsecond(cscan->custom_private);
		Index		plan_rti = linitial_int(lfourth(cscan->custom_private));

		node->ss.ss_currentRelation = ExecOpenScanRelation(estate, rti, eflags);
		clauses = copyObject(lthird(cscan->custom_private));
		if (plan_rti != rti)
			ChangeVarNodes((Node *) clauses, plan_rti, rti, 0);
		varno = rti;
		state->agg_clauses = clauses;
		state->naggs = list_length(aggspec) / 2;
		state->aggs = palloc0(sizeof(PaxAgg) * state->naggs);
		for (int k = 0; k < state->naggs; k++)
		{
			state->aggs[k].kind = list_nth_int(aggspec, 2 * k);
			state->aggs[k].attno = list_nth_int(aggspec, 2 * k + 1);
			if (state->aggs[k].attno >= 0)
				state->aggs[k].type =
					TupleDescAttr(RelationGetDescr(node->ss.ss_currentRelation),
								  state->aggs[k].attno)->atttypid;
		}
	}
	else
		zone_ok = lsecond(cscan->custom_private);
	rel = node->ss.ss_currentRelation;
	tupdesc = RelationGetDescr(rel);

	/*
	 * An EvalPlanQual recheck hands the scan a row in a pax slot, not in our
	 * virtual scan slot: the projection and quals, compiled for a virtual
	 * slot whose values are always all there, must deform it instead.
	 * (Not in aggregate mode, which has no scan relation: PaxAggExecEPQ.)
	 */
	if (estate->es_epq_active != NULL && cscan->scan.scanrelid != 0)
	{
		node->ss.ps.scanopsfixed = false;
		ExecAssignScanProjectionInfoWithVarno(&node->ss, cscan->scan.scanrelid);
		node->ss.ps.qual = ExecInitQual(cscan->scan.plan.qual, &node->ss.ps);
	}

	state->projected = palloc(sizeof(int) * Max(list_length(projected), 1));
	foreach(lc, projected)
	{
		state->projected[i++] = lfirst_int(lc) - 1;
		state->max_attno = Max(state->max_attno, lfirst_int(lc));
	}
	state->nprojected = i;

	state->fast_len = palloc0(sizeof(int16) * Max(i, 1));
	state->fast_data = palloc0(sizeof(uint16) * Max(i, 1));
	state->fast_nulls = palloc0(sizeof(uint16) * Max(i, 1));

	state->report = (state->naggs > 0 || PaxHooks == NULL) ? NULL :
		PaxHooks->report_read;

	state->predcxt = AllocSetContextCreate(estate->es_query_cxt,
										   "PaxScan predicate values",
										   ALLOCSET_SMALL_SIZES);
	foreach(lc, clauses)
	{
		PaxPred    *pred = palloc(sizeof(PaxPred));

		if (!PaxAnalyzeClause(lfirst(lc), varno, pred))
			elog(ERROR, "PaxScan cannot evaluate a pushed clause");
		PaxResolveClass(pred, tupdesc);
		pred->lazy = PaxPredIsLazy(pred);
		pred->early = PaxPredIsEarly(pred);
		/* aggregate mode is never planned under security quals */
		pred->zone_ok = zone_ok == NIL ||
			list_nth_int(zone_ok, foreach_current_index(lc));
		if (!pred->zone_ok)
			state->secure = true;
		if (pred->kind == PAX_PRED_OR)
		{
			ListCell   *lc2;

			foreach(lc2, pred->args)
			{
				PaxPred    *sub = lfirst(lc2);

				if (sub->valexpr)
					sub->valstate = ExecInitExpr(sub->valexpr, &node->ss.ps);
			}
		}
		else if (pred->valexpr)
			pred->valstate = ExecInitExpr(pred->valexpr, &node->ss.ps);
		state->preds = lappend(state->preds, pred);
	}
	state->recheck = ExecInitQual(cscan->custom_exprs, &node->ss.ps);
	PaxLayoutCacheInit(&state->lcache, tupdesc->natts, estate->es_query_cxt);
	if (state->naggs == 0)
	{
		memset(node->ss.ss_ScanTupleSlot->tts_isnull, true,
			   sizeof(bool) * tupdesc->natts);
		memset(node->ss.ss_ScanTupleSlot->tts_values, 0,
			   sizeof(Datum) * tupdesc->natts);
	}
	state->nsel = 0;
	state->cur = -1;
}

/*
 * PaxScanStart opens the table scan (unless the parallel setup did) and
 * evaluates the predicates' values.
 */
static void
PaxScanStart(PaxScanState *state)
{
	EState	   *estate = state->css.ss.ps.state;
	ListCell   *lc;

	if (state->scan == NULL)
		state->scan = (PaxTableScanDesc)
			table_beginscan(state->css.ss.ss_currentRelation,
							estate->es_snapshot, 0, NULL);
	state->started = true;
	state->count_read = pgstat_should_count_relation(state->scan->rs_base.rs_rd);
	MemoryContextReset(state->predcxt);
	foreach(lc, state->preds)
	{
		PaxPred    *pred = lfirst(lc);

		pred->evaluated = false;
		if (!pred->lazy)
			PaxPredEvaluate(pred, state->css.ss.ps.ps_ExprContext,
							state->predcxt);
	}
}

/* PaxPrefetchRange hints the CPU to load bytes [off, off + len) of a page. */
static inline void
PaxPrefetchRange(const char *page, int off, int len)
{
	len = Min(len, 1024);		/* the first lines are what a page's rows need */
	for (int b = 0; b < len; b += 64)
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
		const uint16 *offs;

		if (a >= layout->natts || layout->cols[a].attlen >= 0 ||
			layout->cols[a].data == 0)
			continue;
		offs = (const uint16 *) (page + layout->cols[a].data);
		for (int i = 0; i < state->nsel; i++)
		{
			uint16		off = offs[state->sel[i]];

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
 * mostly to such stalls.
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
							 layout->capacity * (col->attlen > 0 ?
												 col->attlen : PAX_VAROFF_SIZE));
		}
	}
	for (int k = 0; k < state->nprojected; k++)
	{
		int			a = state->projected[k];

		if (state->fast_len[k] > 0)
			PaxPrefetchRange(page, state->fast_data[k],
							 layout->capacity * state->fast_len[k]);
		else if (a < layout->natts && layout->cols[a].data != 0 &&
				 layout->cols[a].attlen < 0)
			PaxPrefetchRange(page, layout->cols[a].data,
							 layout->capacity * PAX_VAROFF_SIZE);
	}
}

/*
 * PaxScanFilter applies the early (or the late) pushed predicates to the
 * selection vector sel[0..n) of the current page and returns how many rows
 * are left.
 */
static pg_attribute_always_inline int
PaxScanFilter(PaxScanState *state, Page page, TupleDesc tupdesc, int n,
			  bool early)
{
	ListCell   *lc;

	foreach(lc, state->preds)
	{
		PaxPred    *pred = lfirst(lc);

		if (n == 0)
			break;
		if (pred->early != early)
			continue;
		if (!pred->evaluated)
		{
			/* a lazy one's first use: the page is not locked (late) */
			Assert(!early);
			PaxPredEvaluate(pred, state->css.ss.ps.ps_ExprContext,
							state->predcxt);
		}
		n = PaxFilter(pred, page, state->layout, tupdesc, state->sel, n);
	}
	return n;
}

/* PaxCountRead adds n rows to the relation's seq_tup_read. */
static inline void
PaxCountRead(PaxScanState *state, int n)
{
	Relation	rel = state->scan->rs_base.rs_rd;

	if (n > 0 && pgstat_should_count_relation(rel))
		rel->pgstat_info->t_counts.t_tuples_returned += n;
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
 * PaxScanNextPage reads pages until one has rows that pass the pushed
 * predicates, leaving them in state->sel; false at the end of the scan.
 */
static bool
PaxScanNextPage(PaxScanState *state)
{
	PaxTableScanDesc scan = state->scan;
	Relation	rel = scan->rs_base.rs_rd;
	TupleDesc	tupdesc = RelationGetDescr(rel);

	for (;;)
	{
		BlockNumber blkno = PaxTableScanNextBlock(scan, state->dir);
		Page		page;
		ListCell   *lc;
		bool		refuted = false;
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

		if (pax_enable_zonemaps)
		{
			foreach(lc, state->preds)
			{
				PaxPred    *pred = lfirst(lc);

				if (pred->zone_ok && pred->evaluated &&
					PaxZoneRefutes(pred, page, state->layout, tupdesc))
				{
					refuted = true;
					break;
				}
			}
		}
		if (refuted)
		{
			/* heap would have read (and filtered) its visible rows */
			PaxCountPage(state, page, state->layout->rowhdrs, NULL, 0);
			LockBuffer(scan->rs_cbuf, BUFFER_LOCK_UNLOCK);
			state->pages_skipped++;
			continue;
		}

		n = PaxPageGetHeader(page)->pp_nrows;
		if (PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HAS_UNUSED)
		{
			/* slots VACUUM reclaimed hold no row, and no values to filter */
			int			nall = n;

			n = 0;
			for (int k = 0; k < nall; k++)
				if (!PaxRowIsUnused(PaxRowHeader(page, state->layout->rowhdrs, k)))
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

		n = scan->rs_nvis;
		for (int k = 0; k < n; k++)
			state->sel[k] = scan->rs_vis[k];
		ncand = n;
		if (exact)
			n = PaxScanFilter(state, page, tupdesc, n, true);
		n = PaxScanFilter(state, page, tupdesc, n, false);
		if (exact && !state->secure)
			state->rows_removed += ncand - n;
		else if (exact)
			InstrCountFiltered1(&state->css.ss.ps, ncand - n);
		if (n == 0)
			continue;
		state->nsel = n;

		/* the projected columns read inline: by-value, fixed width, here */
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
			state->fast_nulls[k] = col->nullmap;
		}
		PaxScanPrefetchValues(state, page);
		PaxScanPrefetchNext(state);
		state->cur = ScanDirectionIsForward(state->dir) ? -1 : n;
		return true;
	}
}

/* PaxScanNext returns the next qualifying row, with the needed columns. */
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
	/* columns not read stay NULL (set once in PaxScanBegin) */
	ExecClearTuple(slot);
	for (int k = 0; k < state->nprojected; k++)
	{
		int			a = state->projected[k];
		int16		len = state->fast_len[k];

		if (len == 0)
			PaxPageFillValues(tupdesc, page, state->layout, row, a, a + 1,
							  slot->tts_values, slot->tts_isnull);
		else if (state->fast_nulls[k] != 0 &&
				 PaxBitIsSet((bits8 *) page + state->fast_nulls[k], row))
		{
			slot->tts_values[a] = (Datum) 0;
			slot->tts_isnull[a] = true;
		}
		else
		{
			slot->tts_values[a] = fetch_att(page + state->fast_data[k] + row * len,
											true, len);
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

/* ---- aggregate mode ---- */

/*
 * PaxAggColumn folds one column's values of the selected rows of a page
 * into an aggregate, in a loop per width with no call per value.
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

/* PaxAggResult is the value of an aggregate once every row is folded in. */
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
 * the pushed clauses, page by page, and returns them as the one row.
 */
static TupleTableSlot *
PaxAggNext(ScanState *ss)
{
	PaxScanState *state = (PaxScanState *) ss;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	TupleDesc	tupdesc = RelationGetDescr(ss->ss_currentRelation);

	ExecClearTuple(slot);
	if (state->agg_done)
		return slot;
	state->agg_done = true;
	if (!state->started)
		PaxScanStart(state);
	for (int k = 0; k < state->naggs; k++)
		state->aggs[k].count = state->aggs[k].acc = 0;

	state->dir = ForwardScanDirection;
	while (PaxScanNextPage(state))
	{
		Page		page = BufferGetPage(state->scan->rs_cbuf);

		/* values never move while the page is pinned */
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];

			if (agg->kind == PAX_AGG_COUNT_STAR)
				agg->count += state->nsel;
			else
				PaxAggColumn(agg, page, state->layout, tupdesc, state->sel,
							 state->nsel);
		}
		state->nsel = 0;
		CHECK_FOR_INTERRUPTS();
	}
	for (int k = 0; k < state->naggs; k++)
		slot->tts_values[k] = PaxAggResult(&state->aggs[k], &slot->tts_isnull[k]);
	slot->tts_isnull[state->naggs] = true;	/* the junk ctid */
	return ExecStoreVirtualTuple(slot);
}

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
 * recheck: normally.  No qual: aggregate mode has none.
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

static TupleTableSlot *
PaxScanExec(CustomScanState *node)
{
	if (((PaxScanState *) node)->naggs > 0)
	{
		if (node->ss.ps.state->es_epq_active != NULL)
			return PaxAggExecEPQ(node);
		return ExecScan(&node->ss, PaxAggNext, PaxAggRecheck);
	}
	return ExecScan(&node->ss, PaxScanNext, PaxScanRecheck);
}

static void
PaxScanAccumulate(PaxScanState *state)
{
	if (state->shared)
	{
		pg_atomic_fetch_add_u64(&state->shared->rows_removed, state->rows_removed);
		pg_atomic_fetch_add_u64(&state->shared->pages_skipped, state->pages_skipped);
		state->rows_removed = state->pages_skipped = 0;
	}
}

static void
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

static void
PaxScanReScan(CustomScanState *node)
{
	PaxScanState *state = (PaxScanState *) node;

	ExecScanReScan(&node->ss);
	if (state->scan)
		table_rescan(&state->scan->rs_base, NULL);
	/* parameters may have changed: evaluate the values again */
	state->started = false;
	state->agg_done = false;
	state->nsel = 0;
	state->cur = -1;
	state->nallvis = 0;
	state->allvis_pos = -1;
}

/* ---- parallel scans ---- */

/* PaxScanPscanSize is the size of the table AM's parallel scan descriptor. */
static Size
PaxScanPscanSize(CustomScanState *node)
{
	return MAXALIGN(table_parallelscan_estimate(node->ss.ss_currentRelation,
												node->ss.ps.state->es_snapshot));
}

static Size
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
 * PaxScanAdoptBufs copies the shared map's known buffers into this
 * backend's recent-buffer cache.
 */
static void
PaxScanAdoptBufs(Relation rel, PaxScanShared *shared)
{
	pg_atomic_uint32 *bufs = PaxScanSharedBufs(shared);
	PaxRelCache *cache = PaxGetRelCache(rel, shared->nbufs);
	BlockNumber n = Min(cache->nbufs, shared->nbufs);

	for (BlockNumber b = 0; b < n; b++)
	{
		Buffer		buf = (Buffer) pg_atomic_read_u32(&bufs[b]);

		if (BufferIsValid(buf))
			cache->bufs[b] = buf;
	}
}

/* PaxScanShareBufs points the scan at the shared recent-buffer map. */
static void
PaxScanShareBufs(PaxScanState *state, PaxScanShared *shared)
{
	state->scan->rs_sharedbufs = PaxScanSharedBufs(shared);
	state->scan->rs_nsharedbufs = shared->nbufs;
}

static void
PaxScanInitializeDSM(CustomScanState *node, ParallelContext *pcxt,
					 void *coordinate)
{
	PaxScanState *state = (PaxScanState *) node;
	PaxScanShared *shared = coordinate;
	Relation	rel = node->ss.ss_currentRelation;
	PaxRelCache *cache = (PaxRelCache *) rel->rd_amcache;
	pg_atomic_uint32 *bufs;
	BlockNumber known = 0;

	pg_atomic_init_u64(&shared->rows_removed, 0);
	pg_atomic_init_u64(&shared->pages_skipped, 0);
	shared->bufs_offset = MAXALIGN(sizeof(PaxScanShared)) + PaxScanPscanSize(node);
	shared->nbufs = state->dsm_nbufs;
	bufs = PaxScanSharedBufs(shared);
	if (cache != NULL)
		known = Min(cache->nbufs, shared->nbufs);
	for (BlockNumber b = 0; b < shared->nbufs; b++)
		pg_atomic_init_u32(&bufs[b], b < known ? (uint32) cache->bufs[b] : 0);
	table_parallelscan_initialize(rel, PaxScanSharedPscan(shared),
								  node->ss.ps.state->es_snapshot);
	state->shared = shared;
	state->scan = (PaxTableScanDesc)
		table_beginscan_parallel(rel, PaxScanSharedPscan(shared));
	PaxScanShareBufs(state, shared);
}

static void
PaxScanReInitializeDSM(CustomScanState *node, ParallelContext *pcxt,
					   void *coordinate)
{
	PaxScanShared *shared = coordinate;

	table_parallelscan_reinitialize(node->ss.ss_currentRelation,
									PaxScanSharedPscan(shared));
}

static void
PaxScanInitializeWorker(CustomScanState *node, shm_toc *toc, void *coordinate)
{
	PaxScanState *state = (PaxScanState *) node;
	PaxScanShared *shared = coordinate;
	Relation	rel = node->ss.ss_currentRelation;

	state->shared = shared;
	state->scan = (PaxTableScanDesc)
		table_beginscan_parallel(rel, PaxScanSharedPscan(shared));
	PaxScanShareBufs(state, shared);
	/* start this process's recent buffers from the leader's */
	PaxScanAdoptBufs(rel, shared);
}

/*
 * PaxScanShutdown runs before the parallel DSM goes away: the leader adds
 * its own counters to the shared ones and keeps the totals and the shared
 * map's buffers; a worker adds its counters.  The leader's runs before the
 * Gather waits for its workers (children shut down first), which are done
 * when the Gather was read to its end but not when the leader stopped early
 * (a LIMIT): then the totals can miss what workers add later.
 */
static void
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
		/* keep the buffers the participants looked up */
		PaxScanAdoptBufs(node->ss.ss_currentRelation, state->shared);
	}
	if (state->scan)
	{
		state->scan->rs_sharedbufs = NULL;
		state->scan->rs_nsharedbufs = 0;
	}
	state->shared = NULL;
}

/* ---- EXPLAIN ---- */

static void
PaxScanExplain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	PaxScanState *state = (PaxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	Relation	rel = node->ss.ss_currentRelation;
	TupleDesc	tupdesc = RelationGetDescr(rel);
	StringInfoData cols;

	if (state->naggs > 0)
	{
		static const char *const names[] = {"count", "count", "sum", "avg", "min", "max"};

		ExplainPropertyText("Pax Aggregated Relation",
							quote_identifier(RelationGetRelationName(rel)), es);
		initStringInfo(&cols);
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];

			appendStringInfo(&cols, "%s%s(%s)", k > 0 ? ", " : "",
							 names[agg->kind], agg->attno < 0 ? "*" :
							 quote_identifier(NameStr(TupleDescAttr(tupdesc, agg->attno)->attname)));
		}
		ExplainPropertyText("Pax Aggregates", cols.data, es);
		if (state->agg_clauses != NIL)
		{
			List	   *context = set_deparse_context_plan(es->deparse_cxt,
														   &cscan->scan.plan,
														   ancestors);

			ExplainPropertyText("Pax Filter",
								deparse_expression((Node *) make_ands_explicit(state->agg_clauses),
												   context, es->verbose, false), es);
		}
		if (es->analyze)
		{
			if (state->agg_clauses != NIL)
				ExplainPropertyUInteger("Rows Removed by Pax Filter", NULL,
										state->rows_removed, es);
			ExplainPropertyUInteger("Pages Skipped by Zone Maps", NULL,
									state->pages_skipped, es);
		}
		return;
	}

	if (cscan->custom_exprs != NIL)
	{
		List	   *context = set_deparse_context_plan(es->deparse_cxt,
													   &cscan->scan.plan,
													   ancestors);
		char	   *str = deparse_expression((Node *) make_ands_explicit(cscan->custom_exprs),
											 context, es->verbose, false);

		ExplainPropertyText("Pax Filter", str, es);
	}

	initStringInfo(&cols);
	for (int i = 0; i < state->nprojected; i++)
		appendStringInfo(&cols, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(NameStr(TupleDescAttr(tupdesc, state->projected[i])->attname)));
	ExplainPropertyText("Pax Projected Columns",
						state->nprojected > 0 ? cols.data : "(none)", es);

	if (es->analyze)
	{
		/* under security quals, counted in "Rows Removed by Filter" */
		if (cscan->custom_exprs != NIL && !state->secure)
			ExplainPropertyUInteger("Rows Removed by Pax Filter", NULL,
									state->rows_removed, es);
		ExplainPropertyUInteger("Pages Skipped by Zone Maps", NULL,
								state->pages_skipped, es);
	}
}

/*
 * PaxCustomScanInit registers the GUCs and the planner hook; called from
 * _PG_init.
 */
void
PaxCustomScanInit(void)
{
	DefineCustomBoolVariable("pax.enable_customscan",
							 "Enables the PaxScan custom scan of pax tables.",
							 NULL, &pax_enable_customscan, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_pushdown",
							 "Lets PaxScan evaluate WHERE clauses on the minipages.",
							 NULL, &pax_enable_pushdown, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_zonemaps",
							 "Lets PaxScan skip pages whose zone maps refute the pushed clauses.",
							 NULL, &pax_enable_zonemaps, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_aggpushdown",
							 "Lets PaxScan compute count, sum, avg, min and max of a whole pax table itself.",
							 NULL, &pax_enable_aggpushdown, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	MarkGUCPrefixReserved("pax");

	prev_set_rel_pathlist_hook = set_rel_pathlist_hook;
	set_rel_pathlist_hook = PaxSetRelPathlist;
	prev_create_upper_paths_hook = create_upper_paths_hook;
	create_upper_paths_hook = PaxUpperPaths;
	RegisterCustomScanMethods(&PaxScanPlanMethods);
}
