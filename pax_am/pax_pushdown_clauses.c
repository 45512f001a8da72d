/*-------------------------------------------------------------------------
 *
 * pax_pushdown_clauses.c
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
 * The comparison classes and the predicates' values are
 * pax_predvalues.c's (PaxResolveClass, PaxPredEvaluate, PaxPredIsLazy,
 * PaxPredIsEarly).
 *
 * Nothing here knows the executor node: pax_customscan_plan.c calls
 * PaxSplitClauses, pax_customscan_exec.c PaxPredsInit and PaxPredsStart
 * (pax_preds.c; for the aggregate mode too, through PaxScanBeginPreds and
 * PaxScanStart), pax_aggscan.c PaxSplitClauses, and pax_filter.c
 * PaxPredEvaluate (pax_predvalues.c) for a lazy predicate's first use.
 *
 * pax_am/pax_pushdown_clauses.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/nbtree.h"
#include "access/sysattr.h"
#include "catalog/pg_am_d.h"
#include "catalog/pg_proc_d.h"
#include "catalog/pg_type_d.h"
#include "executor/executor.h"
#include "mb/pg_wchar.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/restrictinfo.h"
#include "utils/fmgroids.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/typcache.h"

#include "pax_encoding.h"
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
 * The verdicts of PaxCheckOperator, per operator and function: the planner
 * asks for every clause of every pax relation of every statement, and the
 * catalog lookups behind a verdict cost a single-row statement more than
 * its scan.  Emptied when pg_operator, pg_amop or pg_proc change (an
 * operator family gains a member, a function becomes volatile).
 */
typedef struct PaxOperatorKey
{
	Oid			opno;
	Oid			opfuncid;
} PaxOperatorKey;

typedef struct PaxOperatorVerdict
{
	PaxOperatorKey key;
	bool		ok;
	int			strategy;
	Oid			opfamily;
} PaxOperatorVerdict;

static HTAB *pax_operator_verdicts = NULL;

static void
PaxOperatorVerdictsInval(Datum arg, int cacheid, uint32 hashvalue)
{
	HASH_SEQ_STATUS seq;
	PaxOperatorVerdict *v;

	if (pax_operator_verdicts == NULL)
		return;
	hash_seq_init(&seq, pax_operator_verdicts);
	while ((v = hash_seq_search(&seq)) != NULL)
		(void) hash_search(pax_operator_verdicts, &v->key, HASH_REMOVE, NULL);
}

/*
 * PaxCheckOperator tells whether an operator can be pushed: a strict btree
 * comparison operator whose function is not volatile.  It returns the
 * operator's strategy and family.
 */
static bool
PaxCheckOperator(Oid opno, Oid opfuncid, int *strategy, Oid *opfamily)
{
	PaxOperatorKey key;
	PaxOperatorVerdict *v;
	bool		found;

	if (pax_operator_verdicts == NULL)
	{
		HASHCTL		ctl;

		ctl.keysize = sizeof(PaxOperatorKey);
		ctl.entrysize = sizeof(PaxOperatorVerdict);
		ctl.hcxt = CacheMemoryContext;
		pax_operator_verdicts = hash_create("pax operator verdicts", 64, &ctl,
											HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
		CacheRegisterSyscacheCallback(OPEROID, PaxOperatorVerdictsInval, (Datum) 0);
		CacheRegisterSyscacheCallback(AMOPOPID, PaxOperatorVerdictsInval, (Datum) 0);
		CacheRegisterSyscacheCallback(PROCOID, PaxOperatorVerdictsInval, (Datum) 0);
	}
	memset(&key, 0, sizeof(key));
	key.opno = opno;
	key.opfuncid = opfuncid;
	v = hash_search(pax_operator_verdicts, &key, HASH_FIND, NULL);
	if (v == NULL)
	{
		int			s = 0;
		Oid			f = InvalidOid;
		bool		ok;

		/* looked up first: an invalidation meanwhile empties the table */
		ok = PaxBtreeStrategy(opno, &s, &f) &&
			func_strict(opfuncid) &&
			func_volatile(opfuncid) != PROVOLATILE_VOLATILE;
		v = hash_search(pax_operator_verdicts, &key, HASH_ENTER, &found);
		v->ok = ok;
		v->strategy = s;
		v->opfamily = f;
	}
	*strategy = v->strategy;
	*opfamily = v->opfamily;
	return v->ok;
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
static bool PaxAnalyzeColumns(OpExpr *op, Index varno, PaxPred *pred);
static bool PaxAnalyzePrefix(Node *colside, Node *valside, Oid opno,
							 Oid opfuncid, Oid collid, PaxPredKind kind,
							 Index varno, PaxPred *pred);

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
	if (PaxVarAttno(left, varno) != 0 && PaxVarAttno(right, varno) != 0)
		return PaxAnalyzeColumns(op, varno, pred);
	if (IsA(left, FuncExpr))
		return PaxAnalyzePrefix(left, right, op->opno, op->opfuncid,
								op->inputcollid, PAX_PRED_CMP, varno, pred);
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
 * PaxAnalyzeColumns is PaxAnalyzeClause for "column op column", two columns
 * of the row (l_commitdate < l_receiptdate): a strict, non-volatile btree
 * operator, evaluated on the page's values of both columns (PaxFilter-
 * Columns) with no row formed.  The strategy is the left column's; the
 * other column's type is the value type.  Pushed clauses cannot fail on a
 * row: comparisons of two columns of conflicting collations are not pushed.
 */
static bool
PaxAnalyzeColumns(OpExpr *op, Index varno, PaxPred *pred)
{
	Node	   *right = lsecond(op->args);
	AttrNumber	attno = PaxVarAttno(linitial(op->args), varno);
	AttrNumber	attno2 = PaxVarAttno(right, varno);
	int			strategy;
	Oid			opfamily;

	/*
	 * Two collatable columns of different collations leave the operator
	 * none: it raises an error on the first row it meets, which must be
	 * the row heap's qual meets first (the executor keeps the clause)
	 */
	if (attno == attno2 ||
		(!OidIsValid(op->inputcollid) && type_is_collatable(exprType(right))) ||
		!PaxCheckOperator(op->opno, op->opfuncid, &strategy, &opfamily))
		return false;
	if (pred == NULL)
		return true;

	PaxPredSetOperator(pred, PAX_PRED_COLS, attno - 1, strategy, opfamily,
					   op->inputcollid, op->opfuncid);
	pred->attno2 = attno2 - 1;
	pred->valtype = exprType(right);
	return true;
}

/*
 * PaxPrefixAttno returns the column of "substring(col FROM 1 FOR n)",
 * "substr(col, 1, n)" or "left(col, n)" with a constant n > 0, col a text
 * or varchar column of relation varno (under binary-compatible
 * relabelling), or a bpchar column cast to text (*rtrim: the cast drops its
 * trailing spaces), n in *nchars; 0 if expr is not one.
 */
static AttrNumber
PaxPrefixAttno(Node *expr, Index varno, int *nchars, bool *rtrim)
{
	FuncExpr   *f = (FuncExpr *) expr;
	Node	   *arg;
	Node	   *len;
	Node	   *start;
	Oid			type;

	if (f->funcid == F_LEFT && list_length(f->args) == 2)
		len = lsecond(f->args);
	else if ((f->funcid == F_SUBSTR_TEXT_INT4_INT4 ||
			  f->funcid == F_SUBSTRING_TEXT_INT4_INT4) &&
			 list_length(f->args) == 3 &&
			 IsA((start = lsecond(f->args)), Const) &&
			 !((Const *) start)->constisnull &&
			 DatumGetInt32(((Const *) start)->constvalue) == 1)
		len = lthird(f->args);
	else
		return 0;
	if (!IsA(len, Const) || ((Const *) len)->constisnull ||
		DatumGetInt32(((Const *) len)->constvalue) <= 0)
		return 0;
	*nchars = DatumGetInt32(((Const *) len)->constvalue);
	arg = linitial(f->args);
	*rtrim = IsA(arg, FuncExpr) && ((FuncExpr *) arg)->funcid == F_TEXT_BPCHAR;
	if (*rtrim)
		arg = linitial(((FuncExpr *) arg)->args);
	while (IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (!IsA(arg, Var))
		return 0;
	type = getBaseType(((Var *) arg)->vartype);
	if (*rtrim ? type != BPCHAROID : (type != TEXTOID && type != VARCHAROID))
		return 0;
	return PaxVarAttno(arg, varno);
}

/*
 * PaxAnalyzePrefix is PaxAnalyzeClause for a column's prefix (PaxPrefix-
 * Attno) compared by text's equality or inequality, = ANY or <> ALL, under
 * a deterministic collation, where text equality is bytewise: the first n
 * characters of the stored bytes compared with the values (TPC-H Q22's
 * substring(c_phone FROM 1 FOR 2) IN ('13', '31', ...)).
 */
static bool
PaxAnalyzePrefix(Node *colside, Node *valside, Oid opno, Oid opfuncid,
				 Oid collid, PaxPredKind kind, Index varno, PaxPred *pred)
{
	int			nchars;
	bool		rtrim;
	AttrNumber	attno = PaxPrefixAttno(colside, varno, &nchars, &rtrim);
	int			strategy;
	Oid			opfamily;

	if (attno == 0 || !PaxValueSideOk(valside, varno) ||
		!PaxCheckOperator(opno, opfuncid, &strategy, &opfamily) ||
		opfamily != lookup_type_cache(TEXTOID, TYPECACHE_BTREE_OPFAMILY)->btree_opf ||
		strategy != (kind == PAX_PRED_NOTIN ? PAX_STRATEGY_NE :
					 kind == PAX_PRED_IN ? BTEqualStrategyNumber : strategy) ||
		(strategy != BTEqualStrategyNumber && strategy != PAX_STRATEGY_NE) ||
		!OidIsValid(collid) || !get_collation_isdeterministic(collid))
		return false;
	if (pred == NULL)
		return true;

	PaxPredSetOperator(pred, kind, attno - 1, strategy, opfamily, collid,
					   opfuncid);
	pred->prefix = nchars;
	pred->rtrimcol = rtrim;
	pred->valtype = kind == PAX_PRED_CMP ? exprType(valside) :
		get_element_type(exprType(valside));
	pred->valexpr = (Expr *) valside;
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

	if (IsA(linitial(saop->args), FuncExpr))
		return PaxAnalyzePrefix(linitial(saop->args), arr, saop->opno,
								saop->opfuncid, saop->inputcollid,
								saop->useOr ? PAX_PRED_IN : PAX_PRED_NOTIN,
								varno, pred);

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
			sub.kind == PAX_PRED_OR || sub.kind == PAX_PRED_COLS ||
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
 * Planner: which clauses are pushed
 * ----------------------------------------------------------------
 */

/*
 * PaxPredIsInline tells whether PaxScan evaluates a resolved predicate
 * at a fraction of an operator call per row: a typed loop, a bytewise or
 * scaled-integer comparison, a null test or the LIKE matcher.  Not a
 * bytewise comparison of bpchar, which strips each value's trailing blanks
 * first, at about an operator call's cost a row.
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
 * PaxClauseRun tells how PaxScan runs a pushable clause on relation varno,
 * whose columns tupdesc describes: PAX_RUN_INLINE if it is evaluated inline
 * (PaxPredIsInline; the planner charges those a share of an operator's
 * cost per row, the others what the executor's qual would pay for them),
 * PAX_RUN_LAST if it runs in the last phase, after the scan's join filters
 * (PaxPredsInit: two columns).
 */
int
PaxClauseRun(Node *clause, Index varno, TupleDesc tupdesc)
{
	PaxPred		pred;
	int			run = 0;

	if (!PaxAnalyzeClause(clause, varno, &pred))
		return 0;
	if (pred.kind == PAX_PRED_COLS)
		run |= PAX_RUN_LAST;
	PaxResolveClass(&pred, tupdesc);
	if (PaxPredIsInline(&pred))
		run |= PAX_RUN_INLINE;
	return run;
}

/*
 * PaxCollationConflictWalker finds a function or operator call with
 * collatable arguments and no input collation (two columns of conflicting
 * collations compared): however leakproof its function, it raises "could
 * not determine which collation to use" at its first call, whatever the
 * row.
 */
static bool
PaxCollationConflictWalker(Node *node, void *context)
{
	List	   *args = NIL;
	ListCell   *lc;

	if (node == NULL)
		return false;
	if (IsA(node, OpExpr) || IsA(node, DistinctExpr) || IsA(node, NullIfExpr))
		args = ((OpExpr *) node)->args;
	else if (IsA(node, FuncExpr))
		args = ((FuncExpr *) node)->args;
	else if (IsA(node, ScalarArrayOpExpr))
		args = ((ScalarArrayOpExpr *) node)->args;
	if (args != NIL && !OidIsValid(exprInputCollation(node)))
		foreach(lc, args)
			if (type_is_collatable(exprType(lfirst(lc))))
				return true;
	return expression_tree_walker(node, PaxCollationConflictWalker, context);
}

/*
 * PaxMayFail tells whether evaluating an expression on a row may raise an
 * error: a function not leakproof (contain_leaked_vars), or a call with
 * conflicting collations (PaxCollationConflictWalker).  What PaxScan runs
 * ahead of heap's order (pushed clauses, join filters) must meet only
 * quals that cannot.
 */
bool
PaxMayFail(Node *node)
{
	return contain_leaked_vars(node) ||
		PaxCollationConflictWalker(node, NULL);
}

/*
 * PaxClauseMayFail tells whether evaluating a clause on a row may raise an
 * error: unless it cannot (PaxMayFail), yes, but for LIKE
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
		return PaxMayFail(clause);
	arg = linitial(((OpExpr *) clause)->args);
	while (IsA(arg, RelabelType))
		arg = (Node *) ((RelabelType *) arg)->arg;
	if (!IsA(arg, Var))
		return PaxMayFail(clause);
	t = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(pat->constvalue));
	len = VARSIZE_ANY_EXHDR(t);
	while (escapes < len && VARDATA_ANY(t)[len - 1 - escapes] == '\\')
		escapes++;
	return escapes % 2 == 1;
}

/*
 * An OR's implied clause (PaxImpliedOrClauses) is pushed when it is
 * expected to remove at least this share of the rows.
 */
#define PAX_IMPLIED_OR_MIN_REMOVED	0.5

/*
 * PaxImpliedOrColumn returns, for an OR whose every arm (a clause, or an AND
 * of clauses) has a pushable conjunct on column attno, the OR of the least
 * selective such conjunct of each arm (equal ones once); else NULL.  A row
 * that fails it fails every arm, so fails the OR (or makes it NULL).  A
 * conjunct's value must be computable ahead of the OR (not lazy, but for
 * a reference to the outer row: TPC-DS Q41's subquery).
 */
static Expr *
PaxImpliedOrColumn(PlannerInfo *root, List *arms, Index relid, int attno)
{
	List	   *picked = NIL;
	ListCell   *lc;

	foreach(lc, arms)
	{
		Node	   *arm = lfirst(lc);
		List	   *conjuncts = is_andclause(arm) ?
			((BoolExpr *) arm)->args : list_make1(arm);
		Node	   *best = NULL;
		Selectivity best_sel = 2.0;
		ListCell   *lc2;

		foreach(lc2, conjuncts)
		{
			Node	   *conj = lfirst(lc2);
			PaxPred		pred;
			Selectivity sel;

			if (!PaxAnalyzeClause(conj, relid, &pred) || pred.attno != attno ||
				pred.kind == PAX_PRED_OR || pred.kind == PAX_PRED_COLS ||
				(PaxPredIsLazy(&pred) && !PaxOuterParam(root, pred.valexpr)))
				continue;
			sel = clause_selectivity(root, conj, relid, JOIN_INNER, NULL);
			if (sel < best_sel)
			{
				best = conj;
				best_sel = sel;
			}
		}
		if (best == NULL)
			return NULL;
		picked = list_append_unique(picked, best);
	}
	return list_length(picked) == 1 ? linitial(picked) : make_orclause(picked);
}

/*
 * PaxImpliedOrClauses returns pushable clauses implied by the ORs among
 * rest (RestrictInfos left to the executor, in their order): for each
 * column on which every arm of an OR has a pushable conjunct, the OR of
 * those conjuncts (PaxImpliedOrColumn), when it is expected to remove at
 * least PAX_IMPLIED_OR_MIN_REMOVED of the rows (TPC-H Q19: p_brand's and
 * p_container's ORs of values).  The OR stays with the executor.
 *
 * The implied clauses run before every clause left to the executor, and
 * drop rows the OR would drop: only an OR that cannot raise an error
 * (PaxClauseMayFail), after no clause left to the executor that can, gives
 * them, so that heap's errors come from the same rows.  Being leakproof,
 * they may run ahead of security quals (PaxSplitClauses), at the OR's
 * security level (which keeps zone maps from skipping pages for them
 * above the lowest level: PaxScanPlan).
 */
static List *
PaxImpliedOrClauses(PlannerInfo *root, List *rest, Index relid)
{
	List	   *implied = NIL;
	ListCell   *lc;

	foreach(lc, rest)
	{
		RestrictInfo *ri = lfirst_node(RestrictInfo, lc);
		Bitmapset  *attnos = NULL;
		int			x = -1;

		if (ri->pseudoconstant || PaxClauseMayFail((Node *) ri->clause))
			break;
		if (!is_orclause(ri->clause))
			continue;
		pull_varattnos((Node *) ri->clause, relid, &attnos);
		while ((x = bms_next_member(attnos, x)) >= 0)
		{
			int			attno = x + FirstLowInvalidHeapAttributeNumber - 1;
			Expr	   *or;
			RestrictInfo *iri;

			if (attno < 0)
				continue;
			or = PaxImpliedOrColumn(root, ((BoolExpr *) ri->clause)->args,
									relid, attno);
			if (or == NULL || !PaxAnalyzeClause((Node *) or, relid, NULL) ||
				clause_selectivity(root, (Node *) or, relid, JOIN_INNER, NULL) >
				1.0 - PAX_IMPLIED_OR_MIN_REMOVED)
				continue;
			iri = make_simple_restrictinfo(root, or);
			iri->security_level = ri->security_level;
			iri->leakproof = true;
			implied = lappend(implied, iri);
		}
	}
	return implied;
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
PaxSplitClauses(PlannerInfo *root, List *clauses, Index relid, List **pushed,
				List **rest)
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
		lazy[i] = push[i] && PaxPredIsLazy(&pred) &&
			!(root != NULL && PaxOuterParam(root, pred.valexpr));
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
	 * zero; not a reference to the outer row, PaxOuterParam).  Pushed, it
	 * runs before the executor's quals, on rows heap would have filtered
	 * out first and never computed it for: with any clause left to the
	 * executor, lazy clauses stay there too, and all run in heap's order.
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
	if (root != NULL && *rest != NIL && pax_enable_pushdown)
		*pushed = list_concat(*pushed, PaxImpliedOrClauses(root, *rest, relid));
}
