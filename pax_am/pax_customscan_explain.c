/*-------------------------------------------------------------------------
 *
 * pax_customscan_explain.c
 *	  EXPLAIN for PaxScan: the pushed clauses, the columns read, the join
 *	  filters and, under ANALYZE, what pushdown removed.
 *
 * PaxExplainFilter serves the aggregate mode (pax_aggscan.c) too; the
 * counters shown are those of the executor state (pax_customscan_exec.c),
 * summed over a parallel scan's participants by PaxScanShutdown.
 *
 * pax_am/pax_customscan_explain.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/explain.h"
#if PG_VERSION_NUM >= 180000
#include "commands/explain_format.h"
#endif
#include "nodes/makefuncs.h"
#include "utils/builtins.h"
#include "utils/rel.h"
#include "utils/ruleutils.h"

#include "pax_customscan.h"

/*
 * PaxExplainFilter shows pushed clauses as the "Pax Filter" line, deparsed
 * in the context of the node's plan.
 */
void
PaxExplainFilter(CustomScanState *node, List *clauses, List *ancestors,
				 ExplainState *es)
{
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	List	   *context = set_deparse_context_plan(es->deparse_cxt,
												   &cscan->scan.plan,
												   ancestors);
	char	   *str = deparse_expression((Node *) make_ands_explicit(clauses),
										 context, es->verbose, false);

	ExplainPropertyText("Pax Filter", str, es);
}

/*
 * PaxScanExplain adds a plain PaxScan's lines to EXPLAIN: the pushed
 * clauses, the columns read and, under ANALYZE, what pushdown removed.
 */
void
PaxScanExplain(CustomScanState *node, List *ancestors, ExplainState *es)
{
	PaxScanState *state = (PaxScanState *) node;
	CustomScan *cscan = (CustomScan *) node->ss.ps.plan;
	TupleDesc	tupdesc = RelationGetDescr(node->ss.ss_currentRelation);
	StringInfoData cols;

	if (cscan->custom_exprs != NIL)
		PaxExplainFilter(node, cscan->custom_exprs, ancestors, es);

	initStringInfo(&cols);
	for (int i = 0; i < state->nprojected; i++)
		appendStringInfo(&cols, "%s%s", i > 0 ? ", " : "",
						 quote_identifier(NameStr(TupleDescAttr(tupdesc, state->projected[i])->attname)));
	ExplainPropertyText("Pax Projected Columns",
						state->nprojected > 0 ? cols.data : "(none)", es);
	if (state->joinfilters != NIL)
		ExplainPropertyText("Pax Join Filter",
							PaxJoinFiltersDescribe(state, tupdesc), es);

	if (es->analyze)
	{
		/* under security quals, counted in "Rows Removed by Filter" */
		if (cscan->custom_exprs != NIL && !state->secure)
			ExplainPropertyUInteger("Rows Removed by Pax Filter", NULL,
									state->rows_removed, es);
		ExplainPropertyUInteger("Pages Skipped by Zone Maps", NULL,
								state->pages_skipped, es);
		if (state->joinfilters != NIL)
			ExplainPropertyUInteger("Rows Removed by Pax Join Filter", NULL,
									state->join_removed, es);
	}
}
