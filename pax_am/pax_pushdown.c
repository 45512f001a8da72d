/*-------------------------------------------------------------------------
 *
 * pax_pushdown.c
 *	  PaxScan's pushed-down selections: which clauses it evaluates itself,
 *	  the predicates they become, their comparison classes and their
 *	  values.  The typed loops that run them on a page's selection vector,
 *	  and the zone-map checks that skip pages, are pax_filter.c's.
 *
 * A pushable clause is "column op value" for a strict, non-volatile btree
 * comparison operator, an IN list (= ANY) or its negation (<> ALL), IS
 * [NOT] NULL, a boolean column or its negation, or an OR of those on one
 * column.  The value side is any expression without Vars of the scanned
 * relation, volatile functions or subplans; it is evaluated once per scan
 * (PaxPredsStart), or, when computing it could raise an error heap would
 * not, when a row first reaches it (a lazy predicate).
 *
 * Each predicate gets a comparison class: the integer-like, float and text
 * classes compare in typed loops over the minipage (pax_filter.c), valid
 * exactly when the operator belongs to the default btree operator family of
 * the column's type (looked up in the type cache); any other operator is
 * called through fmgr, one value at a time.  Early predicates (typed loops
 * over fixed-width minipages, safe on any bytes) may run before visibility
 * is checked; see "What PaxScan reads" in pax_am/README.
 *
 * Nothing here knows the executor node: pax_customscan.c calls
 * PaxSplitClauses, PaxPredsInit and PaxPredsStart at the end of this file
 * (for the aggregate mode too, through PaxScanBeginPreds and PaxScanStart),
 * pax_aggscan.c PaxSplitClauses, and pax_filter.c PaxPredEvaluate for a
 * lazy predicate's first use.
 *
 * pax_am/pax_pushdown.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/nbtree.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_type_d.h"
#include "executor/executor.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "utils/array.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "pax_encoding.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"

/* GUC pax.enable_pushdown, defined in _PG_init */
bool		pax_enable_pushdown = true;

/* ----------------------------------------------------------------
 * Clause analysis
 * ----------------------------------------------------------------
 */

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
 * PAX_STRATEGY_NE for a negated equality) and its btree operator family.
 * 18 generalised the lookup to every index AM that translates its
 * strategies: only a btree family's interpretation is taken.
 */
static bool
PaxBtreeStrategy(Oid opno, int *strategy, Oid *opfamily)
{
	bool		found = false;
#if PG_VERSION_NUM >= 180000
	List	   *interps = get_op_index_interpretation(opno);
	ListCell   *lc;

	StaticAssertStmt((int) COMPARE_NE == PAX_STRATEGY_NE &&
					 (int) COMPARE_GT == BTGreaterStrategyNumber,
					 "CompareType no longer matches btree strategy numbers");
	foreach(lc, interps)
	{
		OpIndexInterpretation *interp = lfirst(lc);

		if (get_opfamily_method(interp->opfamily_id) != BTREE_AM_OID ||
			interp->cmptype < COMPARE_LT || interp->cmptype > COMPARE_NE)
			continue;
		*strategy = (int) interp->cmptype;
		*opfamily = interp->opfamily_id;
		found = true;
		break;
	}
#else
	List	   *interps = get_op_btree_interpretation(opno);

	StaticAssertStmt((int) ROWCOMPARE_NE == PAX_STRATEGY_NE,
					 "RowCompareType no longer matches btree strategy numbers");
	if (interps != NIL)
	{
		*strategy = ((OpBtreeInterpretation *) linitial(interps))->strategy;
		*opfamily = ((OpBtreeInterpretation *) linitial(interps))->opfamily_id;
		found = true;
	}
#endif
	list_free_deep(interps);
	return found;
}

/*
 * PaxCheckOperator tells whether an operator can be pushed: a strict btree
 * comparison operator whose function is not volatile.  It returns the
 * operator's strategy and family.
 */
static bool
PaxCheckOperator(Oid opno, Oid opfuncid, int *strategy, Oid *opfamily)
{
	return PaxBtreeStrategy(opno, strategy, opfamily) &&
		func_strict(opfuncid) &&
		func_volatile(opfuncid) != PROVOLATILE_VOLATILE;
}

/*
 * PaxPredSetOperator starts a predicate comparing zero-based column attno
 * through an operator: its btree strategy as seen from the column's side,
 * its family, input collation and function.  The column is the left
 * argument unless the caller says otherwise.
 */
static void
PaxPredSetOperator(PaxPred *pred, PaxPredKind kind, int attno, int strategy,
				   Oid opfamily, Oid collation, Oid opfuncid)
{
	memset(pred, 0, sizeof(PaxPred));
	pred->kind = kind;
	pred->attno = attno;
	pred->varonleft = true;
	pred->strategy = strategy;
	pred->opfamily = opfamily;
	pred->collation = collation;
	fmgr_info(opfuncid, &pred->fn);
}

/*
 * PaxLikePatternSimple tells whether a LIKE pattern matches as literal
 * bytes and %s only: no _ and no escape character (the default escape,
 * backslash).  Under a single-byte encoding or UTF-8, such a pattern's
 * literal runs match where their bytes occur, as GenericMatchText() in
 * like.c (PostgreSQL 15) finds them; other multibyte encodings compare
 * character by character and are left to the operator.
 */
static bool
PaxLikePatternSimple(const char *p, int len)
{
	if (pg_database_encoding_max_length() != 1 &&
		GetDatabaseEncoding() != PG_UTF8)
		return false;
	for (int i = 0; i < len; i++)
		if (p[i] == '_' || p[i] == '\\')
			return false;
	return true;
}

/* PaxIsLikeFunc tells whether a function is that of [NOT] LIKE (~~, !~~). */
static inline bool
PaxIsLikeFunc(Oid fn)
{
	return fn == F_TEXTLIKE || fn == F_TEXTNLIKE ||
		fn == F_BPCHARLIKE || fn == F_BPCHARNLIKE;
}

/*
 * PaxLikeConst returns the pattern of "x [NOT] LIKE pattern" (text, varchar
 * or bpchar) where it is a non-null constant and the collation is
 * deterministic, or NULL for any other clause.
 */
static Const *
PaxLikeConst(OpExpr *op)
{
	Node	   *right;

	if (list_length(op->args) != 2 || !PaxIsLikeFunc(op->opfuncid))
		return NULL;
	right = lsecond(op->args);
	while (IsA(right, RelabelType))
		right = (Node *) ((RelabelType *) right)->arg;
	if (!IsA(right, Const) || ((Const *) right)->constisnull ||
		getBaseType(((Const *) right)->consttype) != TEXTOID ||
		!OidIsValid(op->inputcollid) ||
		!get_collation_isdeterministic(op->inputcollid))
		return NULL;
	return (Const *) right;
}

/*
 * PaxAnalyzeLike is PaxAnalyzeClause for "column [NOT] LIKE pattern" of a
 * text, varchar or bpchar column: pushed only where its result is that of
 * comparing bytes, which cannot fail on any value (a constant, simple
 * pattern under a deterministic collation: PaxLikeConst); other patterns
 * stay with the executor, whose function also raises LIKE's errors in
 * heap's order.
 */
static bool
PaxAnalyzeLike(OpExpr *op, Index varno, PaxPred *pred)
{
	AttrNumber	attno = PaxVarAttno(linitial(op->args), varno);
	Const	   *pat = PaxLikeConst(op);
	text	   *t;
	bool		simple;

	if (attno == 0 || pat == NULL)
		return false;
	t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(pat->constvalue));
	simple = PaxLikePatternSimple(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
	if ((Pointer) t != DatumGetPointer(pat->constvalue))
		pfree(t);
	if (!simple)
		return false;
	if (pred == NULL)
		return true;

	memset(pred, 0, sizeof(PaxPred));
	pred->kind = PAX_PRED_LIKE;
	pred->attno = attno - 1;
	pred->varonleft = true;
	pred->collation = op->inputcollid;
	fmgr_info(op->opfuncid, &pred->fn);
	pred->likeneg = op->opfuncid == F_TEXTNLIKE || op->opfuncid == F_BPCHARNLIKE;
	pred->valtype = pat->consttype;
	pred->valexpr = (Expr *) pat;
	return true;
}

/* PaxAnalyzeOpExpr is PaxAnalyzeClause for "column op value". */
static bool
PaxAnalyzeOpExpr(OpExpr *op, Index varno, PaxPred *pred)
{
	Node	   *left,
			   *right;
	AttrNumber	attno;
	bool		varonleft = true;
	int			strategy;
	Oid			opfamily;

	if (list_length(op->args) != 2)
		return false;
	if (PaxIsLikeFunc(op->opfuncid))
		return PaxAnalyzeLike(op, varno, pred);
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
		!PaxCheckOperator(op->opno, op->opfuncid, &strategy, &opfamily))
		return false;
	if (pred == NULL)
		return true;

	/* the strategy as seen from the column's side */
	if (!varonleft && strategy != PAX_STRATEGY_NE)
		strategy = BTCommuteStrategyNumber(strategy);
	PaxPredSetOperator(pred, PAX_PRED_CMP, attno - 1, strategy, opfamily,
					   op->inputcollid, op->opfuncid);
	pred->varonleft = varonleft;
	pred->valtype = exprType(right);
	pred->valexpr = (Expr *) right;
	return true;
}

/*
 * PaxAnalyzeArrayOp is PaxAnalyzeClause for "column = ANY (values)" and
 * "column <> ALL (values)".
 */
static bool
PaxAnalyzeArrayOp(ScalarArrayOpExpr *saop, Index varno, PaxPred *pred)
{
	Node	   *arr = lsecond(saop->args);
	AttrNumber	attno = PaxVarAttno(linitial(saop->args), varno);
	int			strategy;
	Oid			opfamily;

	if (attno == 0 || !PaxValueSideOk(arr, varno) ||
		!PaxCheckOperator(saop->opno, saop->opfuncid, &strategy, &opfamily))
		return false;
	if (saop->useOr ? strategy != BTEqualStrategyNumber :
		strategy != PAX_STRATEGY_NE)
		return false;
	if (pred == NULL)
		return true;

	PaxPredSetOperator(pred, saop->useOr ? PAX_PRED_IN : PAX_PRED_NOTIN,
					   attno - 1, strategy, opfamily, saop->inputcollid,
					   saop->opfuncid);
	pred->valtype = get_element_type(exprType(arr));
	pred->valexpr = (Expr *) arr;
	return true;
}

/* PaxAnalyzeNullTest is PaxAnalyzeClause for "column IS [NOT] NULL". */
static bool
PaxAnalyzeNullTest(NullTest *nt, Index varno, PaxPred *pred)
{
	AttrNumber	attno = PaxVarAttno((Node *) nt->arg, varno);

	if (attno == 0 || nt->argisrow)
		return false;
	if (pred == NULL)
		return true;

	memset(pred, 0, sizeof(PaxPred));
	pred->kind = nt->nulltesttype == IS_NULL ? PAX_PRED_ISNULL : PAX_PRED_NOTNULL;
	pred->attno = attno - 1;
	return true;
}

/*
 * PaxAnalyzeBoolColumn is PaxAnalyzeClause for a boolean column, or its
 * negation: "column = true", or "column = false".
 */
static bool
PaxAnalyzeBoolColumn(Node *clause, Index varno, PaxPred *pred)
{
	bool		negated = !IsA(clause, Var);
	Node	   *var = negated ? (Node *) get_notclausearg((Expr *) clause) : clause;
	AttrNumber	attno = PaxVarAttno(var, varno);

	if (attno == 0 || exprType(var) != BOOLOID)
		return false;
	if (pred == NULL)
		return true;

	PaxPredSetOperator(pred, PAX_PRED_CMP, attno - 1, BTEqualStrategyNumber,
					   lookup_type_cache(BOOLOID,
										 TYPECACHE_BTREE_OPFAMILY)->btree_opf,
					   InvalidOid, F_BOOLEQ);
	pred->valtype = BOOLOID;
	pred->valexpr = (Expr *) makeBoolConst(!negated, false);
	return true;
}

/*
 * PaxAnalyzeOr is PaxAnalyzeClause for an OR of pushable predicates, none
 * an OR itself, all on one column.
 */
static bool
PaxAnalyzeOr(BoolExpr *clause, Index varno, PaxPred *pred)
{
	ListCell   *lc;
	int			attno = -1;

	foreach(lc, clause->args)
	{
		PaxPred		sub;

		if (!PaxAnalyzeClause(lfirst(lc), varno, &sub) ||
			sub.kind == PAX_PRED_OR ||
			(attno >= 0 && sub.attno != attno))
			return false;
		attno = sub.attno;
	}
	if (pred == NULL)
		return true;

	memset(pred, 0, sizeof(PaxPred));
	pred->kind = PAX_PRED_OR;
	pred->attno = attno;
	foreach(lc, clause->args)
	{
		PaxPred    *sub = palloc(sizeof(PaxPred));

		PaxAnalyzeClause(lfirst(lc), varno, sub);
		pred->args = lappend(pred->args, sub);
	}
	return true;
}

/*
 * PaxAnalyzeClause tells whether a clause is pushable for relation varno
 * and, if pred is not NULL, fills it (the value side is not evaluated, and
 * the comparison class is left for PaxResolveClass).
 */
bool
PaxAnalyzeClause(Node *clause, Index varno, PaxPred *pred)
{
	if (clause == NULL)
		return false;
	if (IsA(clause, OpExpr))
		return PaxAnalyzeOpExpr((OpExpr *) clause, varno, pred);
	if (IsA(clause, ScalarArrayOpExpr))
		return PaxAnalyzeArrayOp((ScalarArrayOpExpr *) clause, varno, pred);
	if (IsA(clause, NullTest))
		return PaxAnalyzeNullTest((NullTest *) clause, varno, pred);
	if (IsA(clause, Var) || is_notclause(clause))
		return PaxAnalyzeBoolColumn(clause, varno, pred);
	if (is_orclause(clause))
		return PaxAnalyzeOr((BoolExpr *) clause, varno, pred);
	return false;
}

/* ----------------------------------------------------------------
 * Comparison classes
 * ----------------------------------------------------------------
 */

/*
 * PaxSameTypeClass is the comparison class of "column op value" with both
 * sides of the column's type, for the types not compared across types:
 * dates and times as int64, bool, "char" and oid as unsigned.
 */
static PaxValClass
PaxSameTypeClass(Oid type)
{
	switch (type)
	{
		case DATEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
		case TIMEOID:
			return PAX_VC_INT;
		case BOOLOID:
		case CHAROID:
		case OIDOID:
			return PAX_VC_UINT;
		default:
			return PAX_VC_FMGR;
	}
}

/*
 * PaxResolveClass picks the comparison class of a predicate from its
 * operator family, the column's type and the value's type.  A typed loop
 * compares as the default btree operator class of the column's type does,
 * so it stands in for the operator only when the operator belongs to that
 * family (looked up through the type cache, not by OID).
 */
static void
PaxResolveClass(PaxPred *pred, TupleDesc tupdesc)
{
	Oid			coltype;
	Oid			valtype;
	TypeCacheEntry *tc;

	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			PaxResolveClass(lfirst(lc), tupdesc);
		return;
	}
	Assert(pred->attno >= 0 && pred->attno < tupdesc->natts);
	coltype = getBaseType(TupleDescAttr(tupdesc, pred->attno)->atttypid);
	pred->coltype = coltype;
	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL)
		return;

	valtype = getBaseType(pred->valtype);
	pred->vclass = PAX_VC_FMGR;
	if (pred->kind == PAX_PRED_LIKE)
		return;
	tc = lookup_type_cache(coltype, TYPECACHE_BTREE_OPFAMILY);
	if (!OidIsValid(tc->btree_opf) || pred->opfamily != tc->btree_opf)
		return;

	switch (coltype)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
			/* integer_ops is cross-type */
			if (valtype == INT2OID || valtype == INT4OID || valtype == INT8OID)
				pred->vclass = PAX_VC_INT;
			break;
		case FLOAT4OID:
		case FLOAT8OID:
			if (valtype == FLOAT4OID || valtype == FLOAT8OID)
				pred->vclass = PAX_VC_FLOAT;
			break;
#ifdef PAX_HAVE_FAST_NUMERIC
		case NUMERICOID:
			if (valtype == NUMERICOID && pred->kind == PAX_PRED_CMP)
				pred->vclass = PAX_VC_NUMERIC;
			break;
#endif
		case TEXTOID:
		case VARCHAROID:
		case BPCHAROID:
			/*
			 * bytewise: in C order, or equality under a deterministic one;
			 * bpchar with bpchar only, without its trailing blanks, as
			 * bpcharcmp()
			 */
			if ((coltype == BPCHAROID ? valtype == BPCHAROID :
				 (valtype == TEXTOID || valtype == VARCHAROID)) &&
				OidIsValid(pred->collation) &&
				(PaxCollateIsC(pred->collation) ||
				 ((pred->strategy == BTEqualStrategyNumber ||
				   pred->strategy == PAX_STRATEGY_NE) &&
				  get_collation_isdeterministic(pred->collation))))
			{
				pred->vclass = PAX_VC_BYTES;
				pred->blankpad = coltype == BPCHAROID;
			}
			break;
		default:
			/*
			 * datetime_ops is cross-type too: like with like, and a date
			 * column against a timestamp (date '...' + interval '...')
			 */
			if (valtype == coltype)
				pred->vclass = PaxSameTypeClass(coltype);
			else if (coltype == DATEOID && valtype == TIMESTAMPOID &&
					 pred->kind == PAX_PRED_CMP)
			{
				pred->vclass = PAX_VC_INT;
				pred->datets = true;
				pred->datets_strategy = pred->strategy;
			}
			break;
	}
}

/* ----------------------------------------------------------------
 * Predicate values
 * ----------------------------------------------------------------
 */

static void PaxPredsEvaluate(List *preds, ExprContext *econtext,
							 MemoryContext mcxt);

/*
 * PaxPredEvaluateArray sets up the values of an IN list (= ANY, <> ALL)
 * from the array the value side computed, in the current memory context.
 * The rules for NULL elements and empty arrays follow
 * ExecEvalScalarArrayOp() in execExprInterp.c, PostgreSQL 15.
 */
static void
PaxPredEvaluateArray(PaxPred *pred, Datum value, Oid base)
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
	 * x <> ALL (.., NULL, ..) is never true; NULLs never match IN. Over an
	 * empty array, ANY is false and ALL true for every x, NULL included
	 * (ExecEvalScalarArrayOp decides before looking at x).
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
		/* sorted, for bsearch in the filter and the zone-map check */
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

/*
 * PaxPredEvaluateDateTs sets a date column's comparison with timestamp ts
 * as one with a date: ival and the strategy.  date_cmp_timestamp() in
 * date.c, PostgreSQL 15, compares the date's midnight with ts, dates past
 * the end of the timestamp range after every finite ts but before
 * infinity, and the infinities with the infinities.  So with q the day of
 * ts (rounded down): at midnight, "d op ts" is "d op q"; inside the day, d
 * at midnight is never equal to ts, below it exactly when d <= q and
 * above it when d > q.  -infinity and infinity are the dates -infinity and
 * infinity (INT32_MIN, INT32_MAX), which sort below and above every date.
 */
static void
PaxPredEvaluateDateTs(PaxPred *pred, Timestamp ts)
{
	int			strategy = pred->datets_strategy;
	int64		q;

	if (TIMESTAMP_IS_NOBEGIN(ts))
		q = PG_INT32_MIN;
	else if (TIMESTAMP_IS_NOEND(ts))
		q = PG_INT32_MAX;
	else
	{
		q = ts / USECS_PER_DAY;
		if (ts % USECS_PER_DAY != 0)
		{
			if (ts < 0)
				q--;			/* round down */
			switch (strategy)
			{
				case BTLessStrategyNumber:
					strategy = BTLessEqualStrategyNumber;
					break;
				case BTGreaterEqualStrategyNumber:
					strategy = BTGreaterStrategyNumber;
					break;
				case BTEqualStrategyNumber:
				case PAX_STRATEGY_NE:
					q = PG_INT64_MAX;	/* no date is equal */
					break;
				default:
					break;
			}
		}
	}
	pred->strategy = strategy;
	pred->ival = q;
}

/*
 * PaxPredEvaluateLike splits a simple LIKE pattern (PaxLikePatternSimple)
 * into its literal runs, in the current memory context.
 */
static void
PaxPredEvaluateLike(PaxPred *pred)
{
	text	   *t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(pred->val));
	const char *p = VARDATA_ANY(t);
	int			len = VARSIZE_ANY_EXHDR(t);
	int			start = 0;

	pred->nsegs = 0;
	pred->segs = palloc(sizeof(char *) * (len / 2 + 1));
	pred->seglens = palloc(sizeof(int) * (len / 2 + 1));
	pred->likepercent = memchr(p, '%', len) != NULL;
	pred->likestart = len == 0 || p[0] != '%';
	pred->likeend = len == 0 || p[len - 1] != '%';
	for (int i = 0; i <= len; i++)
	{
		if (i < len && p[i] != '%')
			continue;
		if (i > start)
		{
			pred->segs[pred->nsegs] = p + start;
			pred->seglens[pred->nsegs] = i - start;
			pred->nsegs++;
		}
		start = i + 1;
	}
}

/*
 * PaxPredEvaluateBytes sets the bytes a bytewise predicate (PAX_VC_BYTES)
 * compares the column's against: the value's, or each IN list element's.
 */
static void
PaxPredEvaluateBytes(PaxPred *pred)
{
	if (pred->kind == PAX_PRED_CMP)
	{
		pred->sval = PaxStringDatumBytes(pred->val, pred->blankpad, &pred->slen);
		return;
	}
	pred->svals = palloc(sizeof(char *) * Max(pred->nvals, 1));
	pred->slens = palloc(sizeof(int) * Max(pred->nvals, 1));
	for (int i = 0; i < pred->nvals; i++)
		pred->svals[i] = PaxStringDatumBytes(pred->vals[i], pred->blankpad,
											 &pred->slens[i]);
}

/*
 * PaxPredEvaluate computes the value side of a predicate, in mcxt (the
 * scan's predicate memory): at scan start and rescan unless it is lazy,
 * else when a row first reaches it (PaxPredsFilter).
 */
void
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
	if (pred->kind == PAX_PRED_LIKE)
	{
		pred->val = datumCopy(value, false, -1);
		PaxPredEvaluateLike(pred);
	}
	else if (pred->kind == PAX_PRED_CMP)
	{
		pred->val = datumCopy(value, get_typbyval(pred->valtype),
							  get_typlen(pred->valtype));
		if (pred->datets)
			PaxPredEvaluateDateTs(pred, DatumGetTimestamp(pred->val));
		else if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
			pred->ival = PaxToInt64(pred->val, base);
		else if (pred->vclass == PAX_VC_FLOAT)
			pred->fval = PaxToDouble(pred->val, base);
#ifdef PAX_HAVE_FAST_NUMERIC
		else if (pred->vclass == PAX_VC_NUMERIC)
		{
			pred->numfast = PaxNumParseConst(pred->val, &pred->nval,
											 &pred->nscale);
			pred->numkey = pred->numfast &&
				PaxNumKeyMake(pred->nval, pred->nscale, &pred->nkey,
							  &pred->nkeyscale);
		}
#endif
	}
	else
		PaxPredEvaluateArray(pred, value, base);
	if (pred->vclass == PAX_VC_BYTES && !pred->never && !pred->always)
		PaxPredEvaluateBytes(pred);
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
	/*
	 * A lazy value is computed with the page unlocked: among the late.  An
	 * OR is lazy when one of its members is (PaxPredIsLazy), and only the
	 * top-level predicate's flag is set, so look at it before the members.
	 */
	if (pred->lazy)
		return false;
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
	return pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT ||
		pred->vclass == PAX_VC_FLOAT;
}

/* ----------------------------------------------------------------
 * Planner: which clauses are pushed
 * ----------------------------------------------------------------
 */

/*
 * PaxPredIsInline tells whether PaxScan evaluates a resolved predicate
 * at a fraction of an operator call per row: a typed loop, a bytewise or
 * scaled-integer comparison, a null test or the LIKE matcher.  Not a
 * bytewise comparison of bpchar, which strips each value's trailing blanks
 * first: measured on TPC-H's lineitem (two bpchar clauses, on dictionary
 * pages), about 8 ns a row, an operator call's cost.
 */
static bool
PaxPredIsInline(PaxPred *pred)
{
	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (!PaxPredIsInline(lfirst(lc)))
				return false;
		return true;
	}
	return pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL ||
		pred->kind == PAX_PRED_LIKE ||
		(pred->vclass != PAX_VC_FMGR && !pred->blankpad);
}

/*
 * PaxClauseIsInline tells whether a pushable clause on relation varno, whose
 * columns tupdesc describes, is evaluated inline (PaxPredIsInline): the
 * planner charges those a share of an operator's cost per row, and the
 * others what the executor's qual would pay for them.
 */
bool
PaxClauseIsInline(Node *clause, Index varno, TupleDesc tupdesc)
{
	PaxPred		pred;

	if (!PaxAnalyzeClause(clause, varno, &pred))
		return false;
	PaxResolveClass(&pred, tupdesc);
	return PaxPredIsInline(&pred);
}

/*
 * PaxClauseMayFail tells whether evaluating a clause on a row may raise an
 * error: unless it is leakproof (contain_leaked_vars), yes, but for LIKE
 * and NOT LIKE of a column with a constant pattern that does not end in an
 * escape character, under a deterministic collation: those compare bytes
 * (GenericMatchText() in like.c, PostgreSQL 15), whatever the pattern.
 */
static bool
PaxClauseMayFail(Node *clause)
{
	Node	   *arg;
	Const	   *pat;
	text	   *t;
	int			len;
	int			escapes = 0;

	if (!IsA(clause, OpExpr) || (pat = PaxLikeConst((OpExpr *) clause)) == NULL)
		return contain_leaked_vars(clause);
	arg = linitial(((OpExpr *) clause)->args);
	while (IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (!IsA(arg, Var))
		return contain_leaked_vars(clause);
	t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(pat->constvalue));
	len = VARSIZE_ANY_EXHDR(t);
	while (escapes < len && VARDATA_ANY(t)[len - 1 - escapes] == '\\')
		escapes++;
	return escapes % 2 == 1;
}

/*
 * PaxSplitClauses splits RestrictInfos into those PaxScan evaluates on the
 * minipages and the others, keeping the order of each.
 *
 * The pushed clauses run before all the others, so a clause is pushed only
 * if no clause left behind has a lower security level (row-level security
 * policies, security_barrier views), or if it is leakproof: the rule
 * of order_qual_clauses() in createplan.c and
 * restriction_is_securely_promotable() in restrictinfo.c (PostgreSQL 15)
 * applies.  And a clause after one left behind that can raise an error is
 * left behind too (see below), so that errors come from the same rows as
 * heap's.
 */
void
PaxSplitClauses(List *clauses, Index relid, List **pushed, List **rest)
{
	int			n = list_length(clauses);
	bool	   *push = palloc(sizeof(bool) * Max(n, 1));
	bool	   *lazy = palloc(sizeof(bool) * Max(n, 1));
	Index		min_rest = UINT_MAX;
	bool		any_rest = false;
	bool		failing_rest = false;
	ListCell   *lc;

	foreach(lc, clauses)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		int			i = foreach_current_index(lc);
		PaxPred		pred;

		/*
		 * A clause left to the executor that can raise an error (one that
		 * is not leakproof) runs, in heap's plan, on every row the clauses
		 * before it pass: a clause after it pushed ahead would spare it
		 * rows, and its error with them.  So what follows such a clause
		 * stays with the executor, in heap's order (the plan's clauses
		 * come in order_qual_clauses' order).
		 */
		push[i] = pax_enable_pushdown && !ri->pseudoconstant && !failing_rest &&
			PaxAnalyzeClause((Node *) ri->clause, relid, &pred);
		lazy[i] = push[i] && PaxPredIsLazy(&pred);
		if (!push[i])
			min_rest = Min(min_rest, ri->security_level);
		if (!push[i] && !ri->pseudoconstant)
			failing_rest |= PaxClauseMayFail((Node *) ri->clause);
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

	/*
	 * A lazy predicate computes its value when a row first reaches it, and
	 * that may raise an error (a domain's check, an InitPlan's division by
	 * zero).  Pushed, it runs before the executor's quals, on rows heap
	 * would have filtered out first and never computed it for: with any
	 * clause left to the executor, lazy clauses stay there too, and all run
	 * in heap's order.
	 */
	for (int i = 0; i < n; i++)
		any_rest |= !push[i];
	for (int i = 0; any_rest && i < n; i++)
		push[i] &= !lazy[i];

	*pushed = *rest = NIL;
	foreach(lc, clauses)
	{
		if (push[foreach_current_index(lc)])
			*pushed = lappend(*pushed, lfirst(lc));
		else
			*rest = lappend(*rest, lfirst(lc));
	}
	pfree(push);
	pfree(lazy);
}

/* ----------------------------------------------------------------
 * Lists of predicates: what the scan nodes call
 * ----------------------------------------------------------------
 */

/*
 * PaxPredsInit turns the pushed clauses of a plan (Vars of relation varno)
 * into predicates, their value sides initialised as expressions of ps.
 * zone_ok, if not NIL, tells per clause whether it may skip pages by zone
 * maps (PaxScanPlan); *secure is set when one may not.
 */
List *
PaxPredsInit(List *clauses, Index varno, List *zone_ok, TupleDesc tupdesc,
			 PlanState *ps, bool *secure)
{
	List	   *preds = NIL;
	ListCell   *lc;

	Assert(zone_ok == NIL || list_length(zone_ok) == list_length(clauses));
	foreach(lc, clauses)
	{
		PaxPred    *pred = palloc(sizeof(PaxPred));

		if (!PaxAnalyzeClause(lfirst(lc), varno, pred))
			elog(ERROR, "PaxScan cannot evaluate a pushed clause");
		PaxResolveClass(pred, tupdesc);
		pred->lazy = PaxPredIsLazy(pred);
		pred->early = PaxPredIsEarly(pred);
		/* the aggregate mode is never planned under security quals */
		pred->zone_ok = zone_ok == NIL ||
			list_nth_int(zone_ok, foreach_current_index(lc));
		if (!pred->zone_ok)
			*secure = true;
		if (pred->kind == PAX_PRED_OR)
		{
			ListCell   *lc2;

			foreach(lc2, pred->args)
			{
				PaxPred    *sub = lfirst(lc2);

				if (sub->valexpr)
					sub->valstate = ExecInitExpr(sub->valexpr, ps);
			}
		}
		else if (pred->valexpr)
			pred->valstate = ExecInitExpr(pred->valexpr, ps);
		preds = lappend(preds, pred);
	}
	return preds;
}

/*
 * PaxPredsLazyPending tells whether some lazy predicate (or lazy member of
 * an OR) has not computed its value yet in this scan.
 */
bool
PaxPredsLazyPending(List *preds)
{
	ListCell   *lc;

	foreach(lc, preds)
	{
		PaxPred    *pred = lfirst(lc);

		if (pred->kind == PAX_PRED_OR ? PaxPredsLazyPending(pred->args) :
			(pred->lazy && !pred->evaluated))
			return true;
	}
	return false;
}

/*
 * PaxPredsStart evaluates the value sides of the predicates that are not
 * lazy, in mcxt, which the caller has just reset: at scan start and rescan.
 */
void
PaxPredsStart(List *preds, ExprContext *econtext, MemoryContext mcxt)
{
	ListCell   *lc;

	foreach(lc, preds)
	{
		PaxPred    *pred = lfirst(lc);

		pred->evaluated = false;
		if (!pred->lazy)
			PaxPredEvaluate(pred, econtext, mcxt);
	}
}
