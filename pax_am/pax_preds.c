/*-------------------------------------------------------------------------
 *
 * pax_preds.c
 *	  The predicates of a plan's pushed clauses, as PaxScan's plain and
 *	  aggregate modes set them up at executor start and evaluate their
 *	  values at scan start.
 *
 * The clauses were pushed by pax_pushdown_clauses.c (PaxSplitClauses) at
 * planning; their comparison classes and values are pax_predvalues.c's.
 *
 * pax_am/pax_preds.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"

#include "pax_pushdown.h"

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
		pred->last = pred->kind == PAX_PRED_COLS;
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
