/*-------------------------------------------------------------------------
 *
 * pax_colskip.c
 *	  Column skipping: the plain scans of a pax table (sequential, index,
 *	  bitmap, TID and sample scans) read only the columns their query
 *	  uses.
 *
 * A heap tuple's columns lie side by side: deforming the first n costs a
 * walk along one tuple.  A pax row's columns lie in n minipages, one cache
 * line each (at least) when rows are fetched one by one through an index
 * or a bitmap; and the executor asks a slot for every column up to the last
 * one it needs (slot_getsomeattrs), so that a query reading columns 2 and
 * 11 of a row has the pax slot read eleven minipages.  Here each such
 * scan's pax slot learns which columns the query can read, and reads only
 * those; the others read as NULL.
 *
 * Which columns: those the scan slot's readers read.  These are the scan
 * node's own expressions (its quals, index recheck quals unless the index
 * is a btree, which never asks for a recheck, and its target list when it
 * projects), which hold what the rewriter and planner added:
 * row-level security quals, equivalence-class derived clauses.  A scan that
 * projects hands up another slot, so they are all.  A scan that hands its
 * slot up unprojected (a "physical" target list) to a join has the join's
 * expressions read it too (a nested loop's inner index scan, whose join
 * reads the columns by number as INNER_VAR Vars): the columns they name on
 * the scan's side, and nothing above the join, which always projects.
 * Under any other node, the columns the query's text names for the relation
 * bound what can be read (the range
 * table entry's selectedCols, the columns whose SELECT privilege the
 * executor checks: every Var the parser makes is marked there, a
 * whole-row reference included; and the selectedCols of the relation's
 * other entries, such as the OLD and NEW of a rule whose actions the
 * rewriter merged in, moving their Vars onto the relation's entry):
 * the nodes above read only the columns the query names.  So the index
 * column of a nested loop's inner scan, which only its index condition
 * names, is not read from the row.  Slots other than the scan nodes' own
 * (EvalPlanQual rechecks, triggers, RETURNING, the old row of UPDATE,
 * ModifyTable's fetches) are never restricted.
 *
 * Where the columns are not known for sure the slot reads them all: a
 * range table entry without SELECT permission bits (an inheritance child,
 * or an entry built by code that skipped them), a whole-row reference,
 * virtual generated columns (18, expanded by the planner into expressions
 * over columns the query does not name), or pax.enable_column_skipping
 * off.
 *
 * pax_am/pax_colskip.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/sysattr.h"
#include "catalog/pg_am_d.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_relation.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/rel.h"

#include "pax_slot.h"

/* GUC: pax.enable_column_skipping */
bool		pax_enable_column_skipping = true;

static ExecutorStart_hook_type prev_ExecutorStart = NULL;

/*
 * PaxRteSelectedColumns adds the columns an entry's query reads for SELECT
 * to *cols; false if the entry has no permissions recorded at all.
 */
static bool
PaxRteSelectedColumns(EState *estate, RangeTblEntry *rte, Bitmapset **cols)
{
#if PG_VERSION_NUM >= 160000
	RTEPermissionInfo *perminfo;

	if (rte->perminfoindex == 0)
		return false;
	perminfo = getRTEPermissionInfo(estate->es_rteperminfos, rte);
	if (perminfo->requiredPerms == 0)
		return false;
	if (perminfo->requiredPerms & ACL_SELECT)
		*cols = bms_union(*cols, perminfo->selectedCols);
#else
	if (rte->requiredPerms == 0)
		return false;
	if (rte->requiredPerms & ACL_SELECT)
		*cols = bms_union(*cols, rte->selectedCols);
#endif
	return true;
}

/*
 * PaxSelectedColumns adds the columns the query names for the scanned
 * relation to *cols: those of the scan's range table entry, and those of
 * every other entry of the same relation, for the rewriter moves the Vars
 * of a rule's OLD and NEW onto the entry of the rule's relation, and their
 * columns are listed in the selectedCols of the OLD and NEW entries it
 * leaves behind (a DO ALSO action reading OLD.salary of an UPDATE that
 * reads no salary).  False if it cannot tell: the scan's entry reads
 * nothing for SELECT, or an entry of the relation has no permissions
 * recorded (an inheritance child, or an entry built without them).
 */
static bool
PaxSelectedColumns(EState *estate, Index scanrelid, Bitmapset **cols)
{
	RangeTblEntry *rte = exec_rt_fetch(scanrelid, estate);
	Bitmapset  *own = NULL;
	ListCell   *lc;

	if (rte->rtekind != RTE_RELATION ||
		!PaxRteSelectedColumns(estate, rte, &own) || bms_is_empty(own))
		return false;
	*cols = bms_union(*cols, own);
	foreach(lc, estate->es_range_table)
	{
		RangeTblEntry *other = lfirst_node(RangeTblEntry, lc);

		if (other != rte && other->rtekind == RTE_RELATION &&
			other->relid == rte->relid &&
			!PaxRteSelectedColumns(estate, other, cols))
			return false;
	}
	return true;
}

/*
 * PaxScanNodeColumns adds the columns that the scan node's own expressions
 * read to *cols.
 */
static void
PaxScanNodeColumns(ScanState *ss, Bitmapset **cols)
{
	Scan	   *scan = (Scan *) ss->ps.plan;
	Index		varno = scan->scanrelid;

	pull_varattnos((Node *) scan->plan.qual, varno, cols);
	if (ss->ps.ps_ProjInfo != NULL)
		pull_varattnos((Node *) scan->plan.targetlist, varno, cols);
	switch (nodeTag(scan))
	{
		case T_IndexScan:
			{
				Relation	index = ((IndexScanState *) ss)->iss_RelationDesc;

				/*
				 * The index conditions are rechecked on the row only where
				 * the index AM asks for it (xs_recheck), which btree never
				 * does: there they read nothing of the row.
				 */
				if (index == NULL || index->rd_rel->relam != BTREE_AM_OID)
					pull_varattnos((Node *) ((IndexScan *) scan)->indexqualorig,
								   varno, cols);
				pull_varattnos((Node *) ((IndexScan *) scan)->indexorderbyorig,
							   varno, cols);
				break;
			}
		case T_BitmapHeapScan:
			pull_varattnos((Node *) ((BitmapHeapScan *) scan)->bitmapqualorig, varno, cols);
			break;
		case T_TidScan:
			pull_varattnos((Node *) ((TidScan *) scan)->tidquals, varno, cols);
			break;
		case T_TidRangeScan:
			pull_varattnos((Node *) ((TidRangeScan *) scan)->tidrangequals, varno, cols);
			break;
		case T_SampleScan:
			pull_varattnos((Node *) ((SampleScan *) scan)->tablesample, varno, cols);
			break;
		default:
			break;
	}
}

/* PaxSideVarsContext: what PaxSideVarsWalker collects. */
typedef struct PaxSideVarsContext
{
	int			varno;			/* OUTER_VAR or INNER_VAR */
	Bitmapset  *cols;			/* their attnos, offset as pull_varattnos's */
} PaxSideVarsContext;

static bool
PaxSideVarsWalker(Node *node, PaxSideVarsContext *cxt)
{
	if (node == NULL)
		return false;
	if (IsA(node, Var))
	{
		Var		   *var = (Var *) node;

		if (var->varno == cxt->varno && var->varlevelsup == 0)
			cxt->cols = bms_add_member(cxt->cols,
									   var->varattno - FirstLowInvalidHeapAttributeNumber);
		return false;
	}
	return expression_tree_walker(node, PaxSideVarsWalker, cxt);
}

/*
 * PaxJoinReadColumns adds to *cols the columns that a join node reads of
 * the rows its child hands it from an unprojected scan (the scan itself, or
 * a Memoize or Material node over it): the Vars of the join's expressions
 * that refer to that side (OUTER_VAR or INNER_VAR, whose attnos are the
 * scan's column numbers when it does not project).  False if reader is not
 * a join with child as a child.  A join always projects, so nothing above
 * it reads the scan's rows: only the join's own expressions do.
 */
static bool
PaxJoinReadColumns(PlanState *reader, PlanState *child, Bitmapset **cols)
{
	Plan	   *plan;
	PaxSideVarsContext cxt;

	if (reader == NULL || reader->ps_ProjInfo == NULL)
		return false;
	if (outerPlanState(reader) == child)
		cxt.varno = OUTER_VAR;
	else if (innerPlanState(reader) == child)
		cxt.varno = INNER_VAR;
	else
		return false;
	cxt.cols = *cols;

	plan = reader->plan;
	switch (nodeTag(plan))
	{
		case T_NestLoop:
			{
				ListCell   *lc;

				foreach(lc, ((NestLoop *) plan)->nestParams)
					(void) PaxSideVarsWalker((Node *) ((NestLoopParam *) lfirst(lc))->paramval,
											 &cxt);
				break;
			}
		case T_MergeJoin:
			(void) PaxSideVarsWalker((Node *) ((MergeJoin *) plan)->mergeclauses, &cxt);
			break;
		case T_HashJoin:
			(void) PaxSideVarsWalker((Node *) ((HashJoin *) plan)->hashclauses, &cxt);
			(void) PaxSideVarsWalker((Node *) ((HashJoin *) plan)->hashkeys, &cxt);
			break;
		default:
			return false;
	}
	(void) PaxSideVarsWalker((Node *) ((Join *) plan)->joinqual, &cxt);
	(void) PaxSideVarsWalker((Node *) plan->qual, &cxt);
	(void) PaxSideVarsWalker((Node *) plan->targetlist, &cxt);
	*cols = cxt.cols;
	return true;
}

/*
 * PaxSkipColumns restricts the scan's pax slot to the columns its query
 * can read, where they are known and fewer than all.
 */
static void
PaxSkipColumns(ScanState *ss, EState *estate, PlanState *reader,
			   PlanState *child)
{
	Relation	rel = ss->ss_currentRelation;
	TupleTableSlot *slot = ss->ss_ScanTupleSlot;
	TupleDesc	tupdesc;
	Bitmapset  *cols = NULL;
	int16	   *needed;
	int			nneeded = 0;

	if (rel == NULL || slot == NULL || slot->tts_ops != &TTSOpsPaxTuple)
		return;
	tupdesc = slot->tts_tupleDescriptor;
#if PG_VERSION_NUM >= 180000
	if (tupdesc->constr && tupdesc->constr->has_generated_virtual)
		return;
#endif

	/*
	 * The slot's readers: the scan's own expressions (its quals, and its
	 * projection when it projects), and when it hands the slot up
	 * unprojected, the node above: a join's reads are known exactly, any
	 * other node's are bounded by the columns the query names.
	 */
	if (ss->ps.ps_ProjInfo == NULL &&
		!PaxJoinReadColumns(reader, child, &cols) &&
		!PaxSelectedColumns(estate, ((Scan *) ss->ps.plan)->scanrelid, &cols))
		return;
	PaxScanNodeColumns(ss, &cols);
	if (bms_is_member(InvalidAttrNumber - FirstLowInvalidHeapAttributeNumber, cols))
		return;					/* a whole-row reference */

	needed = MemoryContextAlloc(slot->tts_mcxt, Max(tupdesc->natts, 1) * sizeof(int16));
	for (int i = 0; i < tupdesc->natts; i++)
		if (bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber, cols))
			needed[nneeded++] = i;
	bms_free(cols);
	if (nneeded == tupdesc->natts)
	{
		pfree(needed);
		return;
	}
	PaxSlotSetNeeded(slot, needed, nneeded);
}

/*
 * PaxColSkipContext: the walk's state.  reader is the nearest node above
 * the node visited that reads its children's slots itself; via is that
 * reader's child on the way down when it is a node that only stores and
 * hands on its child's rows (Memoize, Material), else NULL.
 */
typedef struct PaxColSkipContext
{
	EState	   *estate;
	PlanState  *reader;
	PlanState  *via;
} PaxColSkipContext;

static bool
PaxColSkipWalker(PlanState *ps, void *context)
{
	PaxColSkipContext *cxt = (PaxColSkipContext *) context;
	PaxColSkipContext saved = *cxt;
	bool		result;

	if (ps == NULL)
		return false;
	switch (nodeTag(ps))
	{
		case T_SeqScanState:
		case T_SampleScanState:
		case T_IndexScanState:
		case T_BitmapHeapScanState:
		case T_TidScanState:
		case T_TidRangeScanState:
			PaxSkipColumns((ScanState *) ps, cxt->estate, cxt->reader,
						   cxt->via ? cxt->via : ps);
			break;
		default:
			break;
	}
	if ((IsA(ps, MemoizeState) || IsA(ps, MaterialState)) && cxt->reader != NULL)
	{
		/* the reader above reads this node's copies of its child's rows */
		if (cxt->via == NULL)
			cxt->via = ps;
	}
	else
	{
		cxt->reader = ps;
		cxt->via = NULL;
	}
	result = planstate_tree_walker(ps, PaxColSkipWalker, cxt);
	*cxt = saved;
	return result;
}

/*
 * PaxColSkipExecutorStart starts the executor, then restricts the slots of
 * the plain scans of pax tables in the plan (and its subplans) to the
 * columns the query reads.
 */
static void
PaxColSkipExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);

	if (pax_enable_column_skipping && queryDesc->planstate != NULL)
	{
		PaxColSkipContext cxt;

		cxt.estate = queryDesc->estate;
		cxt.reader = NULL;
		cxt.via = NULL;
		(void) PaxColSkipWalker(queryDesc->planstate, &cxt);
	}
}

/*
 * PaxColSkipInit installs the ExecutorStart hook; called from _PG_init.
 */
void
PaxColSkipInit(void)
{
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PaxColSkipExecutorStart;
}
