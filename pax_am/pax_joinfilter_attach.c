/*-------------------------------------------------------------------------
 *
 * pax_joinfilter_attach.c
 *	  Attaching runtime join filters (pax_joinfilter.c) to PaxScans, at
 *	  ExecutorStart.
 *
 * At ExecutorStart the plan state tree is searched for hash joins whose
 * unmatched outer rows contribute nothing (inner, semi, right joins, and
 * 16+'s right anti and 18's right semi joins) and whose every outer hash
 * key is a column of one plain PaxScan, reached through the outer sides
 * of joins that only pass that column up, and through sorts and the
 * aggregates or Unique nodes that make a semi join's outer side unique by
 * grouping on it (TPC-H Q04's lineitem).  The PaxScan gets a filter that
 * refers to the join.
 *
 * A join's inner side gets a filter too, from its outer side's keys, when
 * the outer side is a small plain PaxScan that gives the same rows on every
 * scan (PaxJfAttachPrescan).
 *
 * Heap is the oracle for errors: a dropped row must not be one on which
 * heap's plan would have raised an error or whose count shows.  So a
 * filter is attached only where everything the row passes on the way to
 * the join is leakproof (the scan's remaining quals and target list, and
 * each intermediate join's clauses and target list), and never to a scan
 * under security quals (PaxScanPlan's verdict on its quals is
 * custom_private's third item; the target list is checked here).
 *
 * pax_am/pax_joinfilter_attach.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_statistic.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "port/pg_bitutils.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "pax_customscan.h"
#include "pax_pushdown.h"

/*
 * A filter built from an outer side's keys: the outer side must have this
 * many times fewer rows than the inner scan and cost this many times less
 * than the inner scan and its hash table's build (and take at most
 * PAX_JF_PRESCAN_MAX_ROWS rows, pax_joinfilter.c).
 */
#define PAX_JF_PRESCAN_RATIO	4

/*
 * A filter expected to keep this share of its scan's rows or more
 * (PaxJfKeepsAll) is not attached: it would check every row for nothing.
 */
#define PAX_JF_KEEPS_ALL		0.9

/* GUC pax.enable_joinfilter, defined in _PG_init */
bool		pax_enable_joinfilter = true;

static ExecutorStart_hook_type prev_ExecutorStart = NULL;

/* ----------------------------------------------------------------
 * Attaching filters (ExecutorStart)
 * ----------------------------------------------------------------
 */

/*
 * PaxJfTlistLeaky tells whether an entry of a target list could raise an
 * error that depends on the row (PaxMayFail takes expressions,
 * not target entries).
 */
static bool
PaxJfTlistLeaky(List *tlist)
{
	ListCell   *lc;

	foreach(lc, tlist)
		if (PaxMayFail((Node *) lfirst_node(TargetEntry, lc)->expr))
			return true;
	return false;
}

/*
 * PaxJfIsPlainScan tells whether a plan state is a plain PaxScan that may
 * take join filters (PaxScanPlan's verdict, custom_private's third item);
 * the aggregate mode has no scan relation.
 */
static bool
PaxJfIsPlainScan(PlanState *ps)
{
	CustomScan *cscan;

	if (!IsA(ps, CustomScanState))
		return false;
	cscan = (CustomScan *) ps->plan;
	/*
	 * The target list is checked here, not by PaxScanPlan: a projection the
	 * planner puts on the scan later replaces it.
	 */
	return strcmp(cscan->methods->CustomName, PAX_SCAN_NAME) == 0 &&
		cscan->scan.scanrelid != 0 &&
		list_length(cscan->custom_private) >= 3 &&
		linitial_int(lthird(cscan->custom_private)) != 0 &&
		!PaxJfTlistLeaky(cscan->scan.plan.targetlist);
}

/*
 * PaxJfGroupsByKey tells whether expr, an entry of a grouping node's target
 * list, is one of the node's grouping columns cols[0..ncols) (1-based
 * resnos of its outer plan's target list), grouped by an equality that the
 * join's (hashop, under collation) agrees with: rows a group holds are then
 * equal under the join's operator too, so the filter keeps or drops a group
 * whole.  (Under a coarser grouping, a nondeterministic collation say, a
 * filter could drop the row that would have been the group's value and
 * keep another that the join matches.)
 */
static bool
PaxJfGroupsByKey(Expr *expr, int ncols, const AttrNumber *cols,
				 const Oid *ops, const Oid *colls, Oid hashop, Oid collation)
{
	while (IsA(expr, RelabelType))
		expr = ((RelabelType *) expr)->arg;
	if (!IsA(expr, Var) || ((Var *) expr)->varno != OUTER_VAR)
		return false;
	for (int i = 0; i < ncols; i++)
		if (cols[i] == ((Var *) expr)->varattno)
			return colls[i] == collation &&
				equality_ops_are_compatible(ops[i], hashop);
	return false;
}

/*
 * PaxJfPassesThrough tells whether a node may lie between the scan and
 * the filtering join, the key column coming up from its outer side as
 * expr (the node's target list entry), so that every row the filter drops
 * would only have produced rows the join drops, and nothing on the way can
 * raise an error on a row heap's plan would have sent through:
 *
 * - a join: a dropped row would only have produced rows with the same key
 *   (dropped above) or, where it was an inner match, null-extended rows
 *   (whose NULL key the strict join above drops too);
 * - a Sort, which only reorders;
 * - an Agg without aggregates, HAVING or grouping sets (a semi join's
 *   unique-ified side), or a Unique, that groups by the key column among
 *   others, by an equality the join's operator agrees with
 *   (PaxJfGroupsByKey): a dropped row only belongs to groups with its key.
 *
 * A Sort, Agg or Unique may keep its output for a rescan without reading
 * the scan again; *holds is set, so that the join's table must never
 * change between rescans.
 */
static bool
PaxJfPassesThrough(PlanState *ps, Expr *expr, Oid hashop, Oid collation,
				   bool *holds)
{
	Node	   *clauses = NULL;

	switch (nodeTag(ps))
	{
		case T_HashJoinState:
			clauses = (Node *) ((HashJoin *) ps->plan)->hashclauses;
			break;
		case T_MergeJoinState:
			clauses = (Node *) ((MergeJoin *) ps->plan)->mergeclauses;
			break;
		case T_NestLoopState:
			break;
		case T_SortState:
			*holds = true;
			return true;
		case T_AggState:
			{
				Agg		   *agg = (Agg *) ps->plan;

				if (((AggState *) ps)->numaggs != 0 || agg->groupingSets != NIL ||
					agg->plan.qual != NIL || agg->aggstrategy == AGG_PLAIN ||
					!PaxJfGroupsByKey(expr, agg->numCols, agg->grpColIdx,
									  agg->grpOperators, agg->grpCollations,
									  hashop, collation) ||
					PaxJfTlistLeaky(agg->plan.targetlist))
					return false;
				*holds = true;
				return true;
			}
		case T_UniqueState:
			{
				Unique	   *uniq = (Unique *) ps->plan;

				if (!PaxJfGroupsByKey(expr, uniq->numCols, uniq->uniqColIdx,
									  uniq->uniqOperators, uniq->uniqCollations,
									  hashop, collation))
					return false;
				*holds = true;
				return true;
			}
		default:
			return false;
	}
	return !PaxMayFail(clauses) &&
		!PaxMayFail((Node *) ((Join *) ps->plan)->joinqual) &&
		!PaxMayFail((Node *) ps->plan->qual) &&
		!PaxJfTlistLeaky(ps->plan->targetlist);
}

/*
 * PaxJfSource follows an expression of a join's outer hash keys down the
 * outer sides of the nodes PaxJfPassesThrough allows to a plain PaxScan:
 * its state, and in *attno the zero-based column; NULL if the key is
 * anything else.  *holds is set if a node on the way may keep its output.
 */
static PlanState *
PaxJfSource(PlanState *ps, Expr *expr, Oid hashop, Oid collation, int *attno,
			bool *holds)
{
	for (;;)
	{
		PlanState  *child;
		TargetEntry *tle;
		Var		   *var;

		while (IsA(expr, RelabelType))
			expr = ((RelabelType *) expr)->arg;
		if (!IsA(expr, Var))
			return NULL;
		var = (Var *) expr;
		child = outerPlanState(ps);
		if (var->varno != OUTER_VAR || child == NULL || var->varattno <= 0 ||
			var->varattno > list_length(child->plan->targetlist))
			return NULL;
		tle = list_nth(child->plan->targetlist, var->varattno - 1);
		expr = tle->expr;
		if (PaxJfIsPlainScan(child))
		{
			Index		scanrelid = ((Scan *) child->plan)->scanrelid;

			while (IsA(expr, RelabelType))
				expr = ((RelabelType *) expr)->arg;
			var = (Var *) expr;
			if (!IsA(var, Var) || var->varno != scanrelid ||
				var->varlevelsup != 0 || var->varattno <= 0 ||
				var->varattno > RelationGetDescr(((ScanState *) child)->ss_currentRelation)->natts)
				return NULL;
			*attno = var->varattno - 1;
			return child;
		}
		if (!PaxJfPassesThrough(child, expr, hashop, collation, holds))
			return NULL;
		ps = child;
	}
}

/* PaxJfHashHow picks the inline form of a known hash function. */
static PaxJfHash
PaxJfHashHow(Oid fnoid, Form_pg_attribute att)
{
	switch (fnoid)
	{
		case F_HASHINT2:
			if (att->attlen == 2 && att->attbyval)
				return PAX_JF_HASH_INT2;
			break;
		case F_HASHINT4:
		case F_HASHOID:
			if (att->attlen == 4 && att->attbyval)
				return PAX_JF_HASH_INT4;
			break;
		case F_HASHINT8:
			if (att->attlen == 8 && att->attbyval)
				return PAX_JF_HASH_INT8;
			break;
	}
	return PAX_JF_HASH_CALL;
}

/* PaxJfJoinDropsUnmatchedOuter: outer rows without a match add nothing. */
bool
PaxJfJoinDropsUnmatchedOuter(JoinType jointype)
{
	switch (jointype)
	{
		case JOIN_INNER:
		case JOIN_SEMI:
		case JOIN_RIGHT:
#if PG_VERSION_NUM >= 160000
		case JOIN_RIGHT_ANTI:
#endif
#if PG_VERSION_NUM >= 180000
		case JOIN_RIGHT_SEMI:
#endif
			return true;
		default:
			return false;
	}
}

/* PaxJfIntegerType: the key types an exact set holds (as PaxToInt64). */
static bool
PaxJfIntegerType(Oid typid)
{
	return typid == INT2OID || typid == INT4OID || typid == INT8OID ||
		typid == DATEOID;
}

/* PaxJfIntegerEquality: the integer (and date) types' own equality. */
static bool
PaxJfIntegerEquality(Oid opno)
{
	switch (get_opcode(opno))
	{
		case F_INT2EQ:
		case F_INT4EQ:
		case F_INT8EQ:
		case F_INT24EQ:
		case F_INT42EQ:
		case F_INT28EQ:
		case F_INT82EQ:
		case F_INT48EQ:
		case F_INT84EQ:
		case F_DATE_EQ:
			return true;
		default:
			return false;
	}
}

/*
 * PaxJfIntegerKeys: keys of these types (one on each side) compared by
 * this operator may be held as values, in an exact set.
 */
static bool
PaxJfIntegerKeys(Oid type1, Oid type2, Oid opno)
{
	return PaxJfIntegerType(type1) && PaxJfIntegerType(type2) &&
		PaxJfIntegerEquality(opno);
}

/*
 * PaxJfKeyUsable tells whether a key may be filtered: it comes from src,
 * the same scan as the keys before it (scan, or NULL for the first), and
 * its operator is strict and hashable (its hash functions in *left and
 * *right).
 */
static bool
PaxJfKeyUsable(PlanState *src, PlanState *scan, Oid hashop, Oid *left,
			   Oid *right)
{
	return src != NULL && (scan == NULL || src == scan) && op_strict(hashop) &&
		get_op_hash_functions(hashop, left, right);
}

/* PaxJfDiscard frees a filter that is not attached after all. */
static void
PaxJfDiscard(PaxJoinFilter *jf)
{
	pfree(jf->keys);
	if (jf->prescan)
	{
		pfree(jf->prescan_cols);
		pfree(jf->prescan_hash);
		pfree(jf->prescan_coll);
	}
	pfree(jf);
}

/*
 * PaxJfIntegerKey notes where the table's tuples hold the key, if the one
 * key of jf is an integer (or date) column on both sides compared by the
 * types' own equality, so that the filter can hold the key values
 * themselves.  Other operators, user-defined ones included, may equate
 * different values: they keep the hash values only.
 */
static void
PaxJfIntegerKey(PaxJoinFilter *jf, HashJoin *plan, TupleDesc tupdesc)
{
	Hash	   *hash = (Hash *) innerPlan(plan);
	Expr	   *inner;

	if (!IsA(hash, Hash) || list_length(hash->hashkeys) != 1)
		return;
	inner = linitial(hash->hashkeys);
	while (IsA(inner, RelabelType))
		inner = ((RelabelType *) inner)->arg;
	if (!IsA(inner, Var) || ((Var *) inner)->varno != OUTER_VAR ||
		((Var *) inner)->varattno <= 0 ||
		!PaxJfIntegerKeys(TupleDescAttr(tupdesc, jf->keys[0].attno)->atttypid,
						  exprType((Node *) inner),
						  linitial_oid(plan->hashoperators)))
		return;
	jf->innerattno = ((Var *) inner)->varattno;
	jf->innertype = exprType((Node *) inner);
}

/*
 * PaxJfSetKey sets a filter key: column attno of scan's relation, hashed
 * by hashfn; returns the relation's descriptor.
 */
static TupleDesc
PaxJfSetKey(PaxJoinKey *key, PlanState *scan, int attno, Oid hashfn,
			Oid collation)
{
	TupleDesc	tupdesc = RelationGetDescr(((ScanState *) scan)->ss_currentRelation);

	key->attno = attno;
	key->how = PaxJfHashHow(hashfn, TupleDescAttr(tupdesc, attno));
	fmgr_info(hashfn, &key->flinfo);
	key->collation = collation;
	return tupdesc;
}

/*
 * PaxJfKeyDistinct is the number of distinct values of a filter's keys in
 * its scan's relation, from the relation's statistics (pg_statistic's
 * stadistinct of each key column, their product at most reltuples); 0
 * when a column has none.
 */
static double
PaxJfKeyDistinct(PaxJoinFilter *jf, PlanState *scan)
{
	Relation	rel = ((ScanState *) scan)->ss_currentRelation;
	double		tuples = rel->rd_rel->reltuples;
	double		distinct = 1;

	if (tuples <= 0)
		return 0;
	for (int k = 0; k < jf->nkeys; k++)
	{
		HeapTuple	tup;
		float4		stadistinct;

		tup = SearchSysCache3(STATRELATTINH,
							  ObjectIdGetDatum(RelationGetRelid(rel)),
							  Int16GetDatum(jf->keys[k].attno + 1),
							  BoolGetDatum(false));
		if (!HeapTupleIsValid(tup))
			return 0;
		stadistinct = ((Form_pg_statistic) GETSTRUCT(tup))->stadistinct;
		ReleaseSysCache(tup);
		if (stadistinct == 0)
			return 0;
		distinct *= stadistinct > 0 ? stadistinct : -stadistinct * tuples;
	}
	return Min(distinct, tuples);
}

/*
 * PaxJfKeepsAll tells whether the statistics say a filter of the scan's
 * keys built from other_rows rows (at most that many distinct keys) would
 * keep PAX_JF_KEEPS_ALL of the scan's rows or more: a hash table of every
 * part under TPC-H Q14's lineitem, orders under all their order lines.
 * The planner's row estimates decide, as they decide the join; with no
 * statistics the filter is kept.
 */
static bool
PaxJfKeepsAll(PaxJoinFilter *jf, PlanState *scan, double other_rows)
{
	double		distinct = PaxJfKeyDistinct(jf, scan);

	return distinct > 0 && other_rows >= PAX_JF_KEEPS_ALL * distinct;
}

/*
 * PaxJfAttach gives the PaxScan every outer hash key of hj comes from a
 * filter on hj's hash table, if the join allows one.
 */
static void
PaxJfAttach(HashJoinState *hj)
{
	HashJoin   *plan = (HashJoin *) hj->js.ps.plan;
	PlanState  *scan = NULL;
	PaxScanState *state;
	PaxJoinFilter *jf;
	TupleDesc	tupdesc = NULL;
	int			nkeys = list_length(plan->hashkeys);
	int			k = 0;
	ListCell   *lc;
	ListCell   *lo;
	ListCell   *lcoll;
	bool		holds = false;

	if (!PaxJfJoinDropsUnmatchedOuter(plan->join.jointype) || nkeys == 0 ||
		list_length(plan->hashoperators) != nkeys)
		return;

	jf = palloc0(sizeof(PaxJoinFilter));
	jf->hj = hj;
	jf->nkeys = nkeys;
	jf->keys = palloc0(sizeof(PaxJoinKey) * nkeys);
	forthree(lc, plan->hashkeys, lo, plan->hashoperators,
			 lcoll, plan->hashcollations)
	{
		int			attno;
		PlanState  *src = PaxJfSource(&hj->js.ps, lfirst(lc), lfirst_oid(lo),
									  lfirst_oid(lcoll), &attno, &holds);
		Oid			hashop = lfirst_oid(lo);
		Oid			left_hashfn;
		Oid			right_hashfn;

		if (!PaxJfKeyUsable(src, scan, hashop, &left_hashfn, &right_hashfn))
		{
			PaxJfDiscard(jf);
			return;
		}
		scan = src;
		tupdesc = PaxJfSetKey(&jf->keys[k++], scan, attno, left_hashfn,
							  lfirst_oid(lcoll));
	}

	if (nkeys == 1)
		PaxJfIntegerKey(jf, plan, tupdesc);

	/*
	 * A node that keeps its output across rescans (a hashed Agg, a Sort)
	 * would hand a rescanned join rows filtered by an older table: only a
	 * table that no parameter can change may filter through one.
	 */
	if (holds && !bms_is_empty(innerPlan(plan)->allParam))
	{
		PaxJfDiscard(jf);
		return;
	}
	if (PaxJfKeepsAll(jf, scan, innerPlan(plan)->plan_rows))
	{
		PaxJfDiscard(jf);
		return;
	}
	state = (PaxScanState *) scan;
	state->joinfilters = lappend(state->joinfilters, jf);
}

/*
 * PaxJfVaries tells whether an expression may give other values on another
 * scan in the same query: a volatile function, or a parameter set during
 * execution (a nested loop's, a correlated subquery's, an initplan's).  A
 * Gather's rescan signal is in the allParam of every node below it, but in
 * no expression.
 */
static bool
PaxJfParamWalker(Node *node, void *context)
{
	if (node == NULL)
		return false;
	if (IsA(node, Param) && ((Param *) node)->paramkind == PARAM_EXEC)
		return true;
	return expression_tree_walker(node, PaxJfParamWalker, context);
}

static bool
PaxJfVaries(Node *node)
{
	return contain_volatile_functions(node) || PaxJfParamWalker(node, NULL);
}

/* PaxJfJoinDropsUnmatchedInner: inner rows without a match add nothing. */
static bool
PaxJfJoinDropsUnmatchedInner(JoinType jointype)
{
	return jointype == JOIN_INNER || jointype == JOIN_SEMI ||
		jointype == JOIN_LEFT || jointype == JOIN_ANTI;
}

/*
 * PaxJfAttachPrescan gives the PaxScan every inner hash key of hj comes
 * from (through the nodes PaxJfPassesThrough allows) a filter built from
 * hj's outer side, if that is a plain PaxScan much cheaper than the inner
 * scan, whose rows never change (no parameter set during execution, nothing
 * volatile: PaxJfVaries) and whose
 * quals and target list cannot fail (leakproof: heap's plan would not scan
 * the outer side at all when the table is empty), and the join drops inner
 * rows without a match.  The inner scan then drops rows whose key no outer
 * row has before the join's table is built: a big table (TPC-H Q04's
 * parallel hash semi join of orders with lineitem) holds only the rows
 * that can match.
 */
static void
PaxJfAttachPrescan(HashJoinState *hj)
{
	HashJoin   *plan = (HashJoin *) hj->js.ps.plan;
	PlanState  *outer = outerPlanState(hj);
	PlanState  *hashps = innerPlanState(hj);
	Hash	   *hash = (Hash *) hashps->plan;
	CustomScan *cscan;
	PlanState  *scan = NULL;
	PaxJoinFilter *jf;
	TupleDesc	tupdesc = NULL;
	int			nkeys = list_length(plan->hashkeys);
	bool		holds = false;
	int			k = 0;
	ListCell   *lo;
	ListCell   *li;
	ListCell   *lop;
	ListCell   *lcoll;

	if (!PaxJfJoinDropsUnmatchedInner(plan->join.jointype) || nkeys == 0 ||
		!IsA(hash, Hash) || list_length(hash->hashkeys) != nkeys ||
		list_length(plan->hashoperators) != nkeys || !PaxJfIsPlainScan(outer))
		return;
	cscan = (CustomScan *) outer->plan;
	if (PaxJfVaries((Node *) cscan->custom_exprs) ||
		PaxJfVaries((Node *) cscan->scan.plan.qual) ||
		PaxJfVaries((Node *) cscan->scan.plan.targetlist) ||
		PaxMayFail((Node *) cscan->scan.plan.qual))
		return;

	jf = palloc0(sizeof(PaxJoinFilter));
	jf->hj = hj;
	jf->prescan = true;
	jf->prescan_plan = outer->plan;
	jf->nkeys = nkeys;
	jf->keys = palloc0(sizeof(PaxJoinKey) * nkeys);
	jf->prescan_cols = palloc0(sizeof(AttrNumber) * nkeys);
	jf->prescan_hash = palloc0(sizeof(FmgrInfo) * nkeys);
	jf->prescan_coll = palloc0(sizeof(Oid) * nkeys);
	forfour(lo, plan->hashkeys, li, hash->hashkeys, lop, plan->hashoperators,
			lcoll, plan->hashcollations)
	{
		Expr	   *okey = lfirst(lo);
		int			attno;
		PlanState  *src = PaxJfSource(hashps, lfirst(li), lfirst_oid(lop),
									  lfirst_oid(lcoll), &attno, &holds);
		Oid			hashop = lfirst_oid(lop);
		Oid			left_hashfn;
		Oid			right_hashfn;

		while (IsA(okey, RelabelType))
			okey = ((RelabelType *) okey)->arg;
		if (src == outer || !IsA(okey, Var) || ((Var *) okey)->varno != OUTER_VAR ||
			((Var *) okey)->varattno <= 0 ||
			((Var *) okey)->varattno > list_length(cscan->scan.plan.targetlist) ||
			!PaxJfKeyUsable(src, scan, hashop, &left_hashfn, &right_hashfn))
		{
			PaxJfDiscard(jf);
			return;
		}
		scan = src;
		jf->prescan_cols[k] = ((Var *) okey)->varattno;
		fmgr_info(left_hashfn, &jf->prescan_hash[k]);
		jf->prescan_coll[k] = lfirst_oid(lcoll);
		tupdesc = PaxJfSetKey(&jf->keys[k++], scan, attno, right_hashfn,
							  lfirst_oid(lcoll));
	}

	/*
	 * worth a scan of the outer side: far fewer rows, far cheaper than the
	 * inner scan and the hash table's build of its rows (charged as
	 * initial_cost_hashjoin() in costsize.c does), which the filter spares
	 * the rows it removes
	 */
	if (outer->plan->plan_rows * PAX_JF_PRESCAN_RATIO > scan->plan->plan_rows ||
		outer->plan->total_cost * PAX_JF_PRESCAN_RATIO >
		scan->plan->total_cost + scan->plan->plan_rows *
		(cpu_operator_cost * nkeys + cpu_tuple_cost) ||
		PaxJfKeepsAll(jf, scan, outer->plan->plan_rows))
	{
		PaxJfDiscard(jf);
		return;
	}

	/* one integer key: the outer values make an exact set */
	if (nkeys == 1 &&
		PaxJfIntegerKeys(TupleDescAttr(tupdesc, jf->keys[0].attno)->atttypid,
						 exprType(linitial(plan->hashkeys)),
						 linitial_oid(plan->hashoperators)))
	{
		jf->innerattno = jf->prescan_cols[0];
		jf->innertype = exprType(linitial(plan->hashkeys));
	}
	((PaxScanState *) scan)->joinfilters =
		lappend(((PaxScanState *) scan)->joinfilters, jf);
}

/* PaxJfWalker attaches filters below every hash join of a plan state tree. */
static bool
PaxJfWalker(PlanState *ps, void *context)
{
	if (ps == NULL)
		return false;
	if (IsA(ps, HashJoinState))
	{
		PaxJfAttach((HashJoinState *) ps);
		PaxJfAttachPrescan((HashJoinState *) ps);
	}
	return planstate_tree_walker(ps, PaxJfWalker, context);
}

/*
 * PaxJfExecutorStart starts the executor, then attaches the join filters
 * (in the query's memory, so that they live as long as the plan state).
 */
static void
PaxJfExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);

	if (pax_enable_joinfilter && pax_enable_customscan &&
		queryDesc->planstate != NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(queryDesc->estate->es_query_cxt);

		PaxJfWalker(queryDesc->planstate, NULL);
		MemoryContextSwitchTo(oldcxt);
	}
}

/*
 * PaxJfAttachInit installs the ExecutorStart hook that attaches join
 * filters; called from PaxJoinFilterInit.
 */
void
PaxJfAttachInit(void)
{
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PaxJfExecutorStart;
}
