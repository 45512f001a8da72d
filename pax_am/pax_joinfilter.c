/*-------------------------------------------------------------------------
 *
 * pax_joinfilter.c
 *	  Runtime join filters: a hash join's built hash table, summarised as a
 *	  Bloom filter of its hash values, drops rows of a PaxScan on its probe
 *	  side column-at-a-time, before any row is formed.
 *
 * At ExecutorStart the plan state tree is searched for hash joins whose
 * unmatched outer rows contribute nothing (inner, semi, right joins, and
 * 16+'s right anti and 18's right semi joins) and whose every outer hash
 * key is a column of one plain PaxScan, reached through the outer sides
 * of joins that only pass that column up, and through sorts and the
 * aggregates or Unique nodes that make a semi join's outer side unique by
 * grouping on it (TPC-H Q04's lineitem).  The PaxScan gets a filter that
 * refers to the join.  Once the join has built its hash table (one batch;
 * shared or private), the first page the scan reads after that summarises
 * the table's hash values into a Bloom filter; from then on each page's
 * selected rows are hashed the way the join hashes its outer keys (the
 * outer hash functions, combined by rotating as ExecHashGetHashValue in
 * nodeHash.c does in PostgreSQL 15 and ExecBuildHash32Expr's steps in 18)
 * and rows whose hash the table cannot hold, or whose key is NULL (hash
 * join operators are strict), are dropped.  One integer key whose table
 * values span few bits is tested against an exact bitmap of them instead.
 * A Bloom filter has false positives but no false negatives: the join
 * still matches each row that passes, so results are exact.
 *
 * A join's inner side is filtered too, from its outer side's keys, when
 * the outer side is a small plain PaxScan that gives the same rows on
 * every scan: a copy of it runs to its end when the inner scan reads its
 * first page (PaxJfAttachPrescan, PaxJfBuildPrescan).
 *
 * Heap is the oracle for errors: a dropped row must not be one on which
 * heap's plan would have raised an error or whose count shows.  So a
 * filter is attached only where everything the row passes on the way to
 * the join is leakproof (the scan's remaining quals and target list, and
 * each intermediate join's clauses and target list), and never to a scan
 * under security quals (PaxScanPlan's verdict on its quals is
 * custom_private's third item; the target list is checked here).
 *
 * A filter that removes few rows costs more than it saves: after
 * PAX_JF_TRIAL_ROWS rows, it stops when it removed less than
 * 1/PAX_JF_MIN_REMOVED_SHARE of them.  Summarising a table of many more
 * tuples than that costs more than the trial: for such a table the trial
 * comes first, each row's hash looked up in the join's table itself
 * (PaxJfTableHolds; rows it cannot hold are dropped already), and the
 * filter is built only if the trial says it is worth it (TPC-H Q14: the
 * 200,000 parts of its table match every lineitem row).
 *
 * Costs.  The planner's join paths price a PaxScan under a hash join as if
 * every row came up.  So a set_join_pathlist_hook (PaxJfJoinPaths) adds,
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
 * pax_am/pax_joinfilter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "executor/executor.h"
#include "executor/hashjoin.h"
#include "executor/nodeHash.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/clauses.h"
#include "optimizer/cost.h"
#include "optimizer/optimizer.h"
#include "optimizer/pathnode.h"
#include "optimizer/paths.h"
#include "optimizer/restrictinfo.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

/* Bloom filter bits per hash value of the table, and the filter's bounds. */
#define PAX_JF_BITS_PER_VALUE	16
#define PAX_JF_MIN_WORDS		8
#define PAX_JF_MAX_WORDS		(1 << 21)	/* 16 MB */

/*
 * Exact key sets: at most this many bits per key value (a Bloom filter
 * takes PAX_JF_BITS_PER_VALUE), or this many whatever the keys (1 MB,
 * within a core's L2 cache), and at most 16 MB.
 */
#define PAX_JF_EXACT_BITS_PER_VALUE	128
#define PAX_JF_EXACT_MIN_BITS		(UINT64CONST(1) << 23)
#define PAX_JF_EXACT_MAX_BITS		(UINT64CONST(1) << 27)

/*
 * A filter built from an outer side's keys: the outer side must have this
 * many times fewer rows than the inner scan and cost this many times less,
 * and take at most PAX_JF_PRESCAN_MAX_ROWS rows.
 */
#define PAX_JF_PRESCAN_RATIO	4
#define PAX_JF_PRESCAN_MAX_ROWS	(INT64CONST(1) << 22)

/* Trial: rows tested before the filter's worth is judged, and the bar. */
#define PAX_JF_TRIAL_ROWS		32768
#define PAX_JF_MIN_REMOVED_SHARE	16

/* The planner's estimate of the share of unmatched rows a filter passes. */
#define PAX_JF_FALSE_POSITIVES	0.02

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

/* GUC pax.enable_joinfilter, defined in _PG_init */
bool		pax_enable_joinfilter = true;

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static set_join_pathlist_hook_type prev_set_join_pathlist_hook = NULL;

/* ----------------------------------------------------------------
 * Attaching filters (ExecutorStart)
 * ----------------------------------------------------------------
 */

/*
 * PaxJfTlistLeaky tells whether an entry of a target list could raise an
 * error that depends on the row (contain_leaked_vars takes expressions,
 * not target entries).
 */
static bool
PaxJfTlistLeaky(List *tlist)
{
	ListCell   *lc;

	foreach(lc, tlist)
		if (contain_leaked_vars((Node *) lfirst_node(TargetEntry, lc)->expr))
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
	return !contain_leaked_vars(clauses) &&
		!contain_leaked_vars((Node *) ((Join *) ps->plan)->joinqual) &&
		!contain_leaked_vars((Node *) ps->plan->qual) &&
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
static bool
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
		contain_leaked_vars((Node *) cscan->scan.plan.qual))
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

	/* worth a scan of the outer side: far fewer rows, far cheaper */
	if (outer->plan->plan_rows * PAX_JF_PRESCAN_RATIO > scan->plan->plan_rows ||
		outer->plan->total_cost * PAX_JF_PRESCAN_RATIO > scan->plan->total_cost)
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

/* ----------------------------------------------------------------
 * Building and applying filters (PaxScanNextPage)
 * ----------------------------------------------------------------
 */

/*
 * PaxJfWord and PaxJfBits place a hash value in the filter: one 64-bit
 * word, picked by the multiplied value's high bits, and two of its bits.
 */
static inline uint64
PaxJfBits(uint32 h)
{
	return (UINT64CONST(1) << (h & 63)) | (UINT64CONST(1) << ((h >> 6) & 63));
}

static inline uint32
PaxJfWord(const PaxJoinFilter *jf, uint32 h)
{
	return jf->wordshift >= 32 ? 0 : (h * 0x9E3779B1U) >> jf->wordshift;
}

static inline void
PaxJfAdd(PaxJoinFilter *jf, uint32 h)
{
	jf->words[PaxJfWord(jf, h)] |= PaxJfBits(h);
}

/* PaxJfMayHold tells whether the Bloom filter may hold hash value h. */
static inline bool
PaxJfMayHold(const PaxJoinFilter *jf, uint32 h)
{
	uint64		bits = PaxJfBits(h);

	return (jf->words[PaxJfWord(jf, h)] & bits) == bits;
}

/*
 * PaxJfTableWhole tells whether the join's table is built and whole in
 * memory (one batch), so that what it holds is every inner row.  The scan
 * is on the join's outer side, so the join is not building its table
 * while the scan runs: a table that exists is complete.
 */
static inline bool
PaxJfTableWhole(HashJoinTable ht)
{
	return ht != NULL && ht->nbatch == 1 && ht->curbatch == 0;
}

/*
 * PaxJfWalkTable calls fn for each tuple of a hash table whole in memory,
 * shared or private (with the skew buckets: tuples of the outer side's
 * most common values are kept apart).
 */
static void
PaxJfWalkTable(HashJoinTable ht, void (*fn) (HashJoinTuple, void *), void *arg)
{
	if (ht->parallel_state != NULL)
	{
		for (int b = 0; b < ht->nbuckets; b++)
		{
			dsa_pointer p = dsa_pointer_atomic_read(&ht->buckets.shared[b]);

			while (DsaPointerIsValid(p))
			{
				HashJoinTuple t = (HashJoinTuple) dsa_get_address(ht->area, p);

				fn(t, arg);
				p = t->next.shared;
			}
		}
		return;
	}
	for (int b = 0; b < ht->nbuckets; b++)
		for (HashJoinTuple t = ht->buckets.unshared[b]; t != NULL;
			 t = t->next.unshared)
			fn(t, arg);
	if (ht->skewEnabled)
		for (int i = 0; i < ht->nSkewBuckets; i++)
		{
			HashSkewBucket *sb = ht->skewBucket[ht->skewBucketNums[i]];

			for (HashJoinTuple t = sb ? sb->tuples : NULL; t != NULL;
				 t = t->next.unshared)
				fn(t, arg);
		}
}

static void
PaxJfAddTuple(HashJoinTuple t, void *arg)
{
	PaxJfAdd((PaxJoinFilter *) arg, t->hashvalue);
}

/* Key values collected for an exact set (PaxJfSetExact). */
typedef struct PaxJfKeys
{
	PaxJoinFilter *jf;
	TupleTableSlot *slot;		/* of the table's tuples (PaxJfCollectKey) */
	int64	   *values;
	int64		n;
	int64		cap;			/* values has room for cap */
	int64		kmin;
	int64		kmax;
} PaxJfKeys;

/* PaxJfKeysInit starts an empty collection with room for cap values. */
static void
PaxJfKeysInit(PaxJfKeys *keys, PaxJoinFilter *jf, int64 cap,
			  MemoryContext mcxt)
{
	keys->jf = jf;
	keys->slot = NULL;
	keys->cap = Max(cap, 1);
	keys->values = MemoryContextAllocHuge(mcxt, sizeof(int64) * keys->cap);
	keys->n = 0;
	keys->kmin = PG_INT64_MAX;
	keys->kmax = PG_INT64_MIN;
}

/* PaxJfKeysAdd adds a key, as a Datum of jf->innertype. */
static void
PaxJfKeysAdd(PaxJfKeys *keys, Datum d)
{
	int64		v = PaxToInt64(d, keys->jf->innertype);

	if (keys->n == keys->cap)
	{
		keys->cap *= 2;
		keys->values = repalloc_huge(keys->values, sizeof(int64) * keys->cap);
	}
	keys->values[keys->n++] = v;
	keys->kmin = Min(keys->kmin, v);
	keys->kmax = Max(keys->kmax, v);
}

static void
PaxJfCollectKey(HashJoinTuple t, void *arg)
{
	PaxJfKeys  *keys = (PaxJfKeys *) arg;
	Datum		d;
	bool		isnull;

	ExecStoreMinimalTuple(HJTUPLE_MINTUPLE(t), keys->slot, false);
	d = slot_getattr(keys->slot, keys->jf->innerattno, &isnull);
	/* a NULL key (kept for a right join) matches nothing */
	if (!isnull)
		PaxJfKeysAdd(keys, d);
}

/*
 * PaxJfSetExact gives jf an exact bitmap of the collected key values if
 * they span at most
 * PAX_JF_EXACT_BITS_PER_VALUE bits per value (or PAX_JF_EXACT_MIN_BITS),
 * PAX_JF_EXACT_MAX_BITS in all.
 */
static void
PaxJfSetExact(PaxJoinFilter *jf, const PaxJfKeys *keys, MemoryContext mcxt)
{
	const int64 *values = keys->values;
	int64		n = keys->n;
	int64		kmin = keys->kmin;
	int64		kmax = keys->kmax;
	uint64		limit = Max((uint64) n * PAX_JF_EXACT_BITS_PER_VALUE,
							PAX_JF_EXACT_MIN_BITS);

	limit = Min(limit, PAX_JF_EXACT_MAX_BITS);
	if (n == 0)
	{
		/* no key matches: an empty set */
		jf->kmin = 0;
		jf->span = 0;
		jf->bitmap = MemoryContextAllocZero(mcxt, sizeof(uint64));
	}
	else if ((uint64) kmax - (uint64) kmin < limit)
	{
		jf->kmin = kmin;
		jf->span = (uint64) kmax - (uint64) kmin;
		jf->bitmap = MemoryContextAllocZero(mcxt,
											(jf->span / 64 + 1) * sizeof(uint64));
		for (int64 i = 0; i < n; i++)
		{
			uint64		d = (uint64) values[i] - (uint64) kmin;

			jf->bitmap[d / 64] |= UINT64CONST(1) << (d % 64);
		}
	}
}

/*
 * PaxJfBuildExact gives jf an exact bitmap of the table's key values, if
 * they span few enough bits (PaxJfSetExact).
 */
static void
PaxJfBuildExact(PaxJoinFilter *jf, HashJoinTable ht, MemoryContext mcxt)
{
	PaxJfKeys	keys;

	if (ht->totalTuples > PAX_JF_EXACT_MAX_BITS)
		return;
	PaxJfKeysInit(&keys, jf, (int64) ht->totalTuples, mcxt);
	keys.slot = MakeSingleTupleTableSlot(ExecGetResultType(innerPlanState(jf->hj)),
										 &TTSOpsMinimalTuple);
	PaxJfWalkTable(ht, PaxJfCollectKey, &keys);
	ExecDropSingleTupleTableSlot(keys.slot);
	PaxJfSetExact(jf, &keys, mcxt);
	pfree(keys.values);
}

/* PaxJfAllocWords allocates an empty Bloom filter for nvalues values. */
static void
PaxJfAllocWords(PaxJoinFilter *jf, double nvalues, MemoryContext mcxt)
{
	uint64		nwords;
	int			log2words;

	nwords = (uint64) Min(nvalues, (double) PG_INT32_MAX) *
		PAX_JF_BITS_PER_VALUE / 64;
	nwords = Max(nwords, PAX_JF_MIN_WORDS);
	nwords = Min(nwords, PAX_JF_MAX_WORDS);
	log2words = pg_ceil_log2_64(nwords);
	nwords = UINT64CONST(1) << log2words;
	jf->wordshift = 32 - log2words;
	jf->words = MemoryContextAllocZero(mcxt, nwords * sizeof(uint64));
}

/*
 * PaxJfBuildPrescan builds a filter of the join's inner side from its outer
 * side: a serial copy of the outer PaxScan is run to its end (the same
 * snapshot, quals and target list: the rows the join will probe with), and
 * the filter holds their keys' hashes, as the join hashes outer keys, and
 * for one integer key the exact set.  Rows with a NULL key match nothing.
 * Off when the outer side has more than PAX_JF_PRESCAN_MAX_ROWS rows.
 */
static void
PaxJfBuildPrescan(PaxJoinFilter *jf, EState *estate, MemoryContext mcxt)
{
	Plan	   *plan;
	PlanState  *ps;
	int64		cap = 1024;
	int64		n = 0;
	uint32	   *hashes = MemoryContextAlloc(mcxt, cap * sizeof(uint32));
	PaxJfKeys	keys;
	MemoryContext oldcxt;

	if (jf->innerattno)
		PaxJfKeysInit(&keys, jf, cap, mcxt);
	oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);

	plan = copyObject(jf->prescan_plan);
	plan->parallel_aware = false;
	ps = ExecInitNode(plan, estate, 0);
	/* heap's plan scans the outer side once: so does the statistics' count */
	((PaxScanState *) ps)->nostats = true;
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(ps);
		uint32		h = 0;
		bool		isnull = false;
		Datum		d = 0;

		CHECK_FOR_INTERRUPTS();
		if (TupIsNull(slot))
			break;
		for (int k = 0; k < jf->nkeys && !isnull; k++)
		{
			d = slot_getattr(slot, jf->prescan_cols[k], &isnull);
			if (isnull)
				break;
			h = pg_rotate_left32(h, 1) ^
				DatumGetUInt32(FunctionCall1Coll(&jf->prescan_hash[k],
												 jf->prescan_coll[k], d));
		}
		if (isnull)
			continue;			/* (strict operators) */
		if (n == PAX_JF_PRESCAN_MAX_ROWS)
		{
			jf->off = true;
			break;
		}
		if (n == cap)
		{
			cap *= 2;
			hashes = repalloc_huge(hashes, cap * sizeof(uint32));
		}
		hashes[n++] = h;
		if (jf->innerattno)
			PaxJfKeysAdd(&keys, d);
	}
	ExecEndNode(ps);
	MemoryContextSwitchTo(oldcxt);
	if (!jf->off)
	{
		PaxJfAllocWords(jf, (double) n, mcxt);
		for (int64 i = 0; i < n; i++)
			PaxJfAdd(jf, hashes[i]);
		if (jf->innerattno)
			PaxJfSetExact(jf, &keys, mcxt);
		jf->ready = true;
	}
	pfree(hashes);
	if (jf->innerattno)
		pfree(keys.values);
}

/*
 * PaxJfTableHolds tells whether a hash table whole in memory, shared or
 * private, holds a tuple of hash value h: the bucket the join would look
 * in (ExecHashGetBucketAndBatch with one batch), or the skew bucket that
 * took the value's tuples.  A row whose keys hash to a value the table
 * does not hold matches none of its tuples.
 */
static bool
PaxJfTableHolds(HashJoinTable ht, uint32 h)
{
	int			b = h & (ht->nbuckets - 1);

	if (ht->parallel_state != NULL)
	{
		dsa_pointer p = dsa_pointer_atomic_read(&ht->buckets.shared[b]);

		while (DsaPointerIsValid(p))
		{
			HashJoinTuple t = (HashJoinTuple) dsa_get_address(ht->area, p);

			if (t->hashvalue == h)
				return true;
			p = t->next.shared;
		}
		return false;
	}
	if (ht->skewEnabled)
	{
		int			sb = ExecHashGetSkewBucket(ht, h);

		if (sb != INVALID_SKEW_BUCKET_NO)
		{
			for (HashJoinTuple t = ht->skewBucket[sb]->tuples; t != NULL;
				 t = t->next.unshared)
				if (t->hashvalue == h)
					return true;
		}
	}
	for (HashJoinTuple t = ht->buckets.unshared[b]; t != NULL;
		 t = t->next.unshared)
		if (t->hashvalue == h)
			return true;
	return false;
}

/*
 * PaxJfBuild summarises the join's hash table, if it is built and whole in
 * memory (one batch), into the filter; else the filter stays unbuilt (no
 * table yet) or is off (batches: the table holds only part of the rows).
 */
static void
PaxJfBuild(PaxJoinFilter *jf, MemoryContext mcxt)
{
	HashJoinTable ht = jf->hj->hj_HashTable;

	if (ht == NULL)
		return;
	if (!PaxJfTableWhole(ht))
	{
		jf->off = true;
		return;
	}
	/* a table larger than a trial: the trial first (PaxJoinFiltersApply) */
	if (!jf->judged && ht->totalTuples > PAX_JF_TRIAL_ROWS)
	{
		jf->probing = true;
		return;
	}
	PaxJfAllocWords(jf, ht->totalTuples, mcxt);
	PaxJfWalkTable(ht, PaxJfAddTuple, jf);
	if (jf->innerattno != 0)
		PaxJfBuildExact(jf, ht, mcxt);
	jf->ready = true;
}

/*
 * PaxJfHash32 returns hash_bytes_uint32(k) (common/hashfn.c, the hash of
 * hashint2, hashint4, hashoid and, folded, hashint8): Bob Jenkins' final
 * mix of the three words (seed + k, seed, seed), seed = 0x9e3779b9 + 4 +
 * 3923095.  Computed here so that the per-row loops need no call; a
 * different value would drop rows that match, which every join filter
 * test would show.
 */
static inline uint32
PaxJfHash32(uint32 k)
{
	const uint32 seed = 0x9e3779b9U + 4 + 3923095;
	uint32		a = seed + k;
	uint32		b = seed;
	uint32		c = seed;

	/* each step: x ^= y, x -= y rotated left by n */
#define PAX_JF_MIX(x, y, n) ((x) ^= (y), (x) -= pg_rotate_left32((y), (n)))
	PAX_JF_MIX(c, b, 14);
	PAX_JF_MIX(a, c, 11);
	PAX_JF_MIX(b, a, 25);
	PAX_JF_MIX(c, b, 16);
	PAX_JF_MIX(a, c, 4);
	PAX_JF_MIX(b, a, 14);
	PAX_JF_MIX(c, b, 24);
#undef PAX_JF_MIX
	return c;
}

/* PaxJfHashFixed hashes row r of a fixed-width key column's values. */
static inline uint32
PaxJfHashFixed(PaxJfHash how, const char *data, int r)
{
	switch (how)
	{
		case PAX_JF_HASH_INT2:
			return PaxJfHash32((uint32) (int32) ((const int16 *) data)[r]);
		case PAX_JF_HASH_INT4:
			return PaxJfHash32(((const uint32 *) data)[r]);
		default:
			{
				/* as hashint8: fold the high half into the low */
				int64		v = ((const int64 *) data)[r];
				uint32		lo = (uint32) v;
				uint32		hi = (uint32) (v >> 32);

				lo ^= v >= 0 ? hi : ~hi;
				return PaxJfHash32(lo);
			}
	}
}

/* PaxJfFixedKey: a key whose hash PaxJfHashFixed computes from the page. */
static inline bool
PaxJfFixedKey(const PaxJoinKey *key, const PaxPageLayout *layout)
{
	const PaxColumnLayout *col;

	if (key->how == PAX_JF_HASH_CALL || key->attno >= layout->natts)
		return false;
	col = &layout->cols[key->attno];
	return !col->dropped && col->data != 0;
}

/*
 * PaxJfHashRows computes, for the rows sel[0..n) of a page, the hash the
 * join computes for their keys into hashes[], and marks rows with a NULL
 * key in keep[] as dropped (keep[k] = false).
 */
static void
PaxJfHashRows(PaxJoinFilter *jf, Page page, const PaxPageLayout *layout,
			  TupleDesc tupdesc, const uint16 *sel, int n, uint32 *hashes,
			  bool *keep)
{
	for (int k = 0; k < n; k++)
	{
		hashes[k] = 0;
		keep[k] = true;
	}
	for (int i = 0; i < jf->nkeys; i++)
	{
		PaxJoinKey *key = &jf->keys[i];
		const PaxColumnLayout *col = key->attno < layout->natts ?
		&layout->cols[key->attno] : NULL;
		const bits8 *nulls;
		const char *data;

		/* combine successive keys by rotating, as the join does */
		if (i > 0)
			for (int k = 0; k < n; k++)
				hashes[k] = pg_rotate_left32(hashes[k], 1);

		if (!PaxJfFixedKey(key, layout))
		{
			/* the general way: a Datum per row, the function called */
			for (int k = 0; k < n; k++)
			{
				Datum		value;
				bool		isnull;

				if (!keep[k])
					continue;
				if (key->attno < layout->natts)
					value = PaxPageGetValue(page, layout, sel[k], key->attno,
											&isnull);
				else
					value = getmissingattr(tupdesc, key->attno + 1, &isnull);
				if (isnull)
				{
					keep[k] = false;
					continue;
				}
				hashes[k] ^= DatumGetUInt32(FunctionCall1Coll(&key->flinfo,
															  key->collation,
															  value));
			}
			continue;
		}

		nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
		data = PaxColumnFixedData(page, col, PaxPageGetHeader(page)->pp_nrows,
								  PaxDecodeScratch);
		for (int k = 0; k < n; k++)
		{
			int			r = sel[k];

			if (nulls && PaxBitIsSet(nulls, r))
			{
				keep[k] = false;
				continue;
			}
			hashes[k] ^= PaxJfHashFixed(key->how, data, r);
		}
	}
}

/*
 * PaxJfFilterFixed is PaxJfHashRows and the filter's test in one pass, for
 * a filter on one fixed-width key column: it keeps in sel[0..n) the rows
 * whose key is not NULL and is in the exact set, or, without one, whose
 * hash the Bloom filter may hold, and returns how many.
 */
static int
PaxJfFilterFixed(PaxJoinFilter *jf, Page page, const PaxPageLayout *layout,
				 uint16 *sel, int n)
{
	const PaxJoinKey *key = &jf->keys[0];
	const PaxColumnLayout *col = &layout->cols[key->attno];
	const bits8 *nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
	const char *data = PaxColumnFixedData(page, col,
										  PaxPageGetHeader(page)->pp_nrows,
										  PaxDecodeScratch);
	int			m = 0;

	/* a loop per key type and NULL case, so that none of it is per row */
#define PAX_JF_FILTER_LOOP(how, nullable) \
	for (int k = 0; k < n; k++) \
	{ \
		int			r = sel[k]; \
		uint32		h; \
		\
		if ((nullable) && PaxBitIsSet(nulls, r)) \
			continue; \
		h = PaxJfHashFixed((how), data, r); \
		sel[m] = r; \
		m += PaxJfMayHold(jf, h); \
	}
#define PAX_JF_FILTER_NULLS(how) \
	do { \
		if (nulls) \
			PAX_JF_FILTER_LOOP(how, true) \
		else \
			PAX_JF_FILTER_LOOP(how, false) \
	} while (0)

	/* with an exact set: the key's offset from its least value, one bit */
#define PAX_JF_EXACT_LOOP(type, nullable) \
	for (int k = 0; k < n; k++) \
	{ \
		int			r = sel[k]; \
		uint64		d; \
		\
		if ((nullable) && PaxBitIsSet(nulls, r)) \
			continue; \
		d = (uint64) (int64) ((const type *) data)[r] - (uint64) kmin; \
		sel[m] = r; \
		m += d <= span && (bitmap[d / 64] >> (d % 64)) & 1; \
	}
#define PAX_JF_EXACT_NULLS(type) \
	do { \
		if (nulls) \
			PAX_JF_EXACT_LOOP(type, true) \
		else \
			PAX_JF_EXACT_LOOP(type, false) \
	} while (0)

	if (jf->bitmap)
	{
		const uint64 *bitmap = jf->bitmap;
		int64		kmin = jf->kmin;
		uint64		span = jf->span;

		switch (key->how)
		{
			case PAX_JF_HASH_INT2:
				PAX_JF_EXACT_NULLS(int16);
				break;
			case PAX_JF_HASH_INT4:
				PAX_JF_EXACT_NULLS(int32);
				break;
			default:
				PAX_JF_EXACT_NULLS(int64);
				break;
		}
	}
	else
		switch (key->how)
		{
			case PAX_JF_HASH_INT2:
				PAX_JF_FILTER_NULLS(PAX_JF_HASH_INT2);
				break;
			case PAX_JF_HASH_INT4:
				PAX_JF_FILTER_NULLS(PAX_JF_HASH_INT4);
				break;
			default:
				PAX_JF_FILTER_NULLS(PAX_JF_HASH_INT8);
				break;
		}
#undef PAX_JF_EXACT_NULLS
#undef PAX_JF_EXACT_LOOP
#undef PAX_JF_FILTER_NULLS
#undef PAX_JF_FILTER_LOOP
	return m;
}

/*
 * PaxJoinFiltersApply drops from sel[0..n) of the current page the rows
 * no attached join can match, and returns how many are left; it builds
 * filters whose join has built its table since the last page.  The page
 * is pinned.
 */
int
PaxJoinFiltersApply(PaxScanState *state, Page page, TupleDesc tupdesc, int n)
{
	MemoryContext mcxt = state->css.ss.ps.state->es_query_cxt;
	uint32		hashes[PAX_MAX_CAPACITY];
	bool		keep[PAX_MAX_CAPACITY];
	ListCell   *lc;

	foreach(lc, state->joinfilters)
	{
		PaxJoinFilter *jf = lfirst(lc);
		int			m = 0;

		if (n == 0)
			break;
		if (jf->off)
			continue;
		if (!jf->ready && !jf->probing)
		{
			if (jf->prescan)
				PaxJfBuildPrescan(jf, state->css.ss.ps.state, mcxt);
			else
				PaxJfBuild(jf, mcxt);
			if (!jf->ready && !jf->probing)
				continue;
		}
		if (jf->probing && !PaxJfTableWhole(jf->hj->hj_HashTable))
		{
			/* (not seen: the table is complete before the scan) */
			jf->probing = false;
			jf->off = true;
			continue;
		}
		if (!jf->probing && jf->nkeys == 1 &&
			PaxJfFixedKey(&jf->keys[0], state->layout))
			m = PaxJfFilterFixed(jf, page, state->layout, state->sel, n);
		else
		{
			/* the rows' hashes, tested by the filter or, on trial, the table */
			HashJoinTable ht = jf->hj->hj_HashTable;

			PaxJfHashRows(jf, page, state->layout, tupdesc, state->sel, n,
						  hashes, keep);
			for (int k = 0; k < n; k++)
				if (keep[k] && (jf->probing ? PaxJfTableHolds(ht, hashes[k]) :
								PaxJfMayHold(jf, hashes[k])))
					state->sel[m++] = state->sel[k];
		}
		jf->tested += n;
		jf->removed += n - m;
		state->join_removed += n - m;
		n = m;

		/* judge the filter's worth once, after its trial */
		if (!jf->judged && jf->tested >= PAX_JF_TRIAL_ROWS)
		{
			jf->judged = true;
			jf->off = jf->removed * PAX_JF_MIN_REMOVED_SHARE < jf->tested;
			/* worth it: the filter the trial looked up the table for */
			if (jf->probing && !jf->off)
			{
				jf->probing = false;
				PaxJfBuild(jf, mcxt);
			}
		}
	}
	return n;
}

/*
 * PaxJoinFiltersReset forgets what the filters were built from: after a
 * rescan the joins may build new tables (a filter built from an outer side
 * without parameters is kept).  The words stay in the query's
 * memory until it ends (a filter is rebuilt at most once per rescan).
 */
void
PaxJoinFiltersReset(PaxScanState *state)
{
	ListCell   *lc;

	foreach(lc, state->joinfilters)
	{
		PaxJoinFilter *jf = lfirst(lc);

		jf->tested = jf->removed = 0;
		jf->judged = false;
		if (jf->prescan)
		{
			/* the outer side has no parameters: its keys stay the same */
			if (jf->ready)
				jf->off = false;
			continue;
		}
		if (jf->words)
			pfree(jf->words);
		if (jf->bitmap)
			pfree(jf->bitmap);
		jf->words = NULL;
		jf->bitmap = NULL;
		jf->ready = jf->off = jf->judged = jf->probing = false;
		jf->tested = jf->removed = 0;
	}
}

/*
 * PaxJoinFiltersDescribe lists the filtered columns for EXPLAIN, one
 * parenthesised group per join: "(l_orderkey), (l_partkey, l_suppkey)".
 */
char *
PaxJoinFiltersDescribe(PaxScanState *state, TupleDesc tupdesc)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, state->joinfilters)
	{
		PaxJoinFilter *jf = lfirst(lc);

		appendStringInfoString(&buf, foreach_current_index(lc) > 0 ? ", (" : "(");
		for (int i = 0; i < jf->nkeys; i++)
			appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
							 quote_identifier(NameStr(TupleDescAttr(tupdesc, jf->keys[i].attno)->attname)));
		appendStringInfoChar(&buf, ')');
	}
	return buf.data;
}

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
	PaxSplitClauses(outerrel->baserestrictinfo, outerrel->relid, &pushed, &rest);
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
 * filters and the join path hook that costs them; called from _PG_init.
 */
void
PaxJoinFilterInit(void)
{
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PaxJfExecutorStart;
	prev_set_join_pathlist_hook = set_join_pathlist_hook;
	set_join_pathlist_hook = PaxJfJoinPaths;
}
