/*-------------------------------------------------------------------------
 *
 * pax_predvalues.c
 *	  The comparison classes and the values of PaxScan's pushed predicates:
 *	  how a predicate compares (PaxResolveClass), and its value side
 *	  computed for the typed loops (PaxPredEvaluate).
 *
 * A predicate's comparison class is resolved once its column's type is
 * known (PaxPredsInit, PaxClauseRun in pax_pushdown_clauses.c): a typed loop
 * stands in for the operator only where the operator belongs to the
 * default btree operator family of the column's type.  Its value is
 * computed at scan start and rescan (PaxPredsStart), or, for a lazy
 * predicate, when a row first reaches it (PaxPredsFilter in pax_filter.c),
 * and prepared for the class: an integer, a double, a scaled numeric,
 * bytes, IN lists, a LIKE pattern's literal runs.  Whether a predicate is
 * lazy, and whether it may run early (before visibility is checked), is
 * decided here too.
 *
 * pax_am/pax_predvalues.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "catalog/pg_type_d.h"
#include "executor/executor.h"
#include "nodes/pathnodes.h"
#include "utils/array.h"
#include "utils/datum.h"
#include "utils/lsyscache.h"
#include "utils/pg_locale.h"
#include "utils/timestamp.h"
#include "utils/typcache.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"

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
void
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
	if (pred->prefix > 0)
	{
		/* text equality under a deterministic collation (PaxAnalyzePrefix) */
		pred->vclass = PAX_VC_BYTES;
		return;
	}
	if (pred->kind == PAX_PRED_COLS)
	{
		/*
		 * Two integer-like columns compare as int64 where the operator is
		 * their type's default family's (integer_ops is cross-type); any
		 * other pair through the operator's function.  valtype becomes the
		 * other column's base type, which the filter converts by.
		 */
		pred->valtype = valtype;
		tc = lookup_type_cache(coltype, TYPECACHE_BTREE_OPFAMILY);
		if (OidIsValid(tc->btree_opf) && pred->opfamily == tc->btree_opf &&
			(((coltype == INT2OID || coltype == INT4OID || coltype == INT8OID) &&
			  (valtype == INT2OID || valtype == INT4OID || valtype == INT8OID)) ||
			 (valtype == coltype && PaxSameTypeClass(coltype) == PAX_VC_INT)))
			pred->vclass = PAX_VC_INT;
		return;
	}
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
	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL ||
		pred->kind == PAX_PRED_COLS)
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
bool
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
 * PaxOuterParam tells whether a value is a parameter an outer query level
 * sets before each scan of this level (a correlated or lateral subquery's
 * reference to the outer row): reading it raises no error, unlike an
 * InitPlan's output.  Paths see them in the parent levels' plan_params,
 * the plan in root->outer_params, less outer InitPlans' and worktables'.
 */
bool
PaxOuterParam(PlannerInfo *root, Expr *value)
{
	int			paramid;
	bool		outer;

	while (value != NULL && IsA(value, RelabelType))
		value = ((RelabelType *) value)->arg;
	if (value == NULL || !IsA(value, Param) ||
		((Param *) value)->paramkind != PARAM_EXEC)
		return false;
	paramid = ((Param *) value)->paramid;
	outer = bms_is_member(paramid, root->outer_params);
	for (PlannerInfo *r = root->parent_root; r != NULL; r = r->parent_root)
	{
		ListCell   *lc;

		foreach(lc, r->plan_params)
			outer |= ((PlannerParamItem *) lfirst(lc))->paramId == paramid;
		foreach(lc, r->init_plans)
			if (list_member_int(lfirst_node(SubPlan, lc)->setParam, paramid))
				return false;
		if (r->wt_param_id == paramid)
			return false;
	}
	return outer;
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
bool
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
	/* two columns' values are read by PaxPageGetValue: among the late */
	if (pred->kind == PAX_PRED_COLS)
		return false;
	return pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT ||
		pred->vclass == PAX_VC_FLOAT;
}
