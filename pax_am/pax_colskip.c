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
 * Which columns: those the query's text names for the relation (the range
 * table entry's selectedCols, the columns whose SELECT privilege the
 * executor checks: every Var the parser makes is marked there, a
 * whole-row reference included; and the selectedCols of the relation's
 * other entries, such as the OLD and NEW of a rule whose actions the
 * rewriter merged in, moving their Vars onto the relation's entry),
 * together with the Vars of the scan node's
 * own expressions (its quals, index recheck quals, and its target list when
 * it projects), which hold what the rewriter and planner added: row-level
 * security quals, equivalence-class derived clauses.  A column no plan node
 * can read is never asked for; a scan that hands its slot up unprojected
 * (a "physical" target list) does not make every column needed, since the
 * nodes above read only the columns the query names.  Slots other than the
 * scan nodes' own (EvalPlanQual rechecks, triggers, RETURNING, the old row
 * of UPDATE, ModifyTable's fetches) are never restricted.
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
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/optimizer.h"
#include "parser/parse_relation.h"
#include "parser/parsetree.h"
#include "utils/acl.h"
#include "utils/rel.h"

#include "pax.h"

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
			pull_varattnos((Node *) ((IndexScan *) scan)->indexqualorig, varno, cols);
			pull_varattnos((Node *) ((IndexScan *) scan)->indexorderbyorig, varno, cols);
			break;
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

/*
 * PaxSkipColumns restricts the scan's pax slot to the columns its query
 * can read, where they are known and fewer than all.
 */
static void
PaxSkipColumns(ScanState *ss, EState *estate)
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
	if (!PaxSelectedColumns(estate, ((Scan *) ss->ps.plan)->scanrelid, &cols))
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

static bool
PaxColSkipWalker(PlanState *ps, void *context)
{
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
			PaxSkipColumns((ScanState *) ps, (EState *) context);
			break;
		default:
			break;
	}
	return planstate_tree_walker(ps, PaxColSkipWalker, context);
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
		(void) PaxColSkipWalker(queryDesc->planstate, queryDesc->estate);
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
