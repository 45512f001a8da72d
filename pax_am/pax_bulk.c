/*-------------------------------------------------------------------------
 *
 * pax_bulk.c
 *	  Rows of CREATE TABLE AS, REFRESH MATERIALIZED VIEW and ALTER TABLE's
 *	  rewrites, kept and placed in batches as COPY's are.
 *
 * PostgreSQL inserts the rows of those commands one at a time
 * (table_tuple_insert with a BulkInsertState, then table_finish_bulk_insert
 * once), where COPY hands its rows over in batches (table_multi_insert).
 * Placed one at a time, a pax page is shaped without seeing the rows that
 * will fill it, and copied, changed and logged once for every row: CREATE
 * TABLE AS of 500,000 SSB rows took 5x heap's time and made pages a third
 * larger than COPY's.  So pax_tuple_insert keeps such rows, copied into
 * slots of its own, and hands them to pax_multi_insert in batches of
 * COPY's size (PAX_BULK_MAX_ROWS rows, PAX_BULK_MAX_BYTES bytes); the
 * last batch at table_finish_bulk_insert.  The pages are then COPY's:
 * shaped from the batch, encoded, one WAL record (a full image) each.
 *
 * A kept row is not in the table yet and has no TID.  Rows are kept only
 * where nothing asks for either before the batch is placed:
 *
 *   - the caller gave a BulkInsertState: CREATE TABLE AS, materialized
 *     views and ALTER TABLE rewrites (which call table_finish_bulk_insert
 *     when their rows are in), and COPY's row-at-a-time path (taken for
 *     volatile defaults, and which does not);
 *   - the relation was created in this transaction (rd_createSubid):
 *     the target of those commands, which no other session can see;
 *   - it has no indexes and no triggers, which are what read a new row's
 *     TID (index entries, AFTER ROW triggers and their transition
 *     tables);
 *   - it is not logically decoded (pax's decoding records are written
 *     under the current subtransaction, which may not be the rows' when
 *     they are placed: below).
 *
 * Anything that could look at the relation before the batch is placed
 * places it first: any query (the ExecutorStart hook: a volatile function
 * of the SELECT feeding CREATE TABLE AS that reads the new table sees the
 * rows so far, as on heap), any utility command, before and after it (the
 * ProcessUtility hook: TRUNCATE, ALTER TABLE, VACUUM ..., and the end of
 * COPY, whose row-at-a-time path never calls table_finish_bulk_insert),
 * and pax's own entry points that read or change a relation's rows or
 * storage (PaxBulkPlaceFor: scans, index fetches, row locks, UPDATE,
 * DELETE, truncation, copies).
 *
 * The rows get the xid and command id they would have got one at a time:
 * those of the subtransaction that inserted them and of the caller, even
 * when they are placed inside a later subtransaction (a PL/pgSQL block with
 * an EXCEPTION clause in a function the query calls, which no hook
 * announces: its queries place them), so that its abort does not take
 * them.  Kept rows of a subtransaction that aborts are dropped with it;
 * ones a subtransaction or the transaction still holds at its commit are
 * placed then, before the commit record.
 *
 * pax_am/pax_bulk.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/table.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "tcop/utility.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "pax.h"

/* A batch's rows and value bytes, at most: COPY's (copyfrom.c, 15). */
#define PAX_BULK_MAX_ROWS	1000
#define PAX_BULK_MAX_BYTES	65535

/* GUC pax.batch_bulk_inserts */
bool		pax_batch_bulk_inserts = true;

/* The relation whose rows are kept, InvalidOid when none are. */
Oid			pax_bulk_relid = InvalidOid;

typedef struct PaxBulkBatch
{
	MemoryContext cxt;			/* holds this struct, the slots and values */
	Oid			relid;
	SubTransactionId subid;		/* the subtransaction that inserted them */
	TransactionId xid;			/* and its xid, which they get */
	CommandId	cid;
	int			options;
	TupleDesc	tupdesc;		/* the relation's, copied */
	int			nrows;
	Size		bytes;			/* value bytes of the rows kept */
	TupleTableSlot *slots[PAX_BULK_MAX_ROWS];	/* made as needed, reused */
} PaxBulkBatch;

static PaxBulkBatch *pax_bulk = NULL;

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/* PaxBulkForget drops the batch and its rows. */
static void
PaxBulkForget(void)
{
	if (pax_bulk != NULL)
		MemoryContextDelete(pax_bulk->cxt);
	pax_bulk = NULL;
	pax_bulk_relid = InvalidOid;
}

/*
 * PaxBulkPlace places the kept rows in rel, the batch's relation, with
 * bistate (NULL when the caller's may be gone).
 */
static void
PaxBulkPlace(Relation rel, BulkInsertState bistate)
{
	PaxBulkBatch *b = pax_bulk;
	int			n = b->nrows;

	Assert(RelationGetRelid(rel) == b->relid);
	if (n == 0)
		return;

	if (RelationGetDescr(rel)->natts != b->tupdesc->natts)
		elog(ERROR, "pax relation \"%s\" changed its columns while rows for it were kept",
			 RelationGetRelationName(rel));

	/* nothing kept from here on, whatever happens below */
	b->nrows = 0;
	b->bytes = 0;
	pax_bulk_relid = InvalidOid;

	/*
	 * With the xid of the subtransaction that inserted them, which may not
	 * be the current one: a query of a PL/pgSQL block with an EXCEPTION
	 * clause, run by the query that feeds CREATE TABLE AS, places them
	 * inside the block's subtransaction, whose abort must not take them.
	 */
	PaxMultiInsert(rel, b->slots, n, b->cid, b->options, bistate, b->xid);
	for (int i = 0; i < n; i++)
		ExecClearTuple(b->slots[i]);
}

/*
 * PaxBulkPlaceAll places the kept rows, whatever their relation (opened
 * here: the inserting command holds its lock until the transaction ends).
 * A relation dropped since takes its rows with it.
 */
void
PaxBulkPlaceAll(void)
{
	Relation	rel;

	if (pax_bulk == NULL || pax_bulk->nrows == 0)
		return;

	rel = try_table_open(pax_bulk->relid, NoLock);
	if (rel == NULL)
	{
		PaxBulkForget();
		return;
	}
	PaxBulkPlace(rel, NULL);
	table_close(rel, NoLock);
}

/* PaxBulkPlaceForSlow: PaxBulkPlaceFor's work, rows kept for rel. */
void
PaxBulkPlaceForSlow(Relation rel)
{
	Assert(pax_bulk != NULL && pax_bulk->relid == RelationGetRelid(rel));
	PaxBulkPlace(rel, NULL);
}

/*
 * PaxBulkKeep keeps the slot's row for rel, to be placed with the rows
 * after it, where pax_tuple_insert may (see above); true if it did.  The
 * slot's TID is set invalid.
 */
bool
PaxBulkKeep(Relation rel, TupleTableSlot *slot, CommandId cid, int options,
			BulkInsertState bistate)
{
	PaxBulkBatch *b = pax_bulk;
	SubTransactionId subid = GetCurrentSubTransactionId();
	TupleDesc	tupdesc = RelationGetDescr(rel);
	TupleTableSlot *kept;

	if (!pax_batch_bulk_inserts || bistate == NULL ||
		rel->rd_createSubid == InvalidSubTransactionId ||
		rel->rd_rel->relhasindex || rel->trigdesc != NULL ||
		PaxLogicalWanted(rel, options) ||
		IsBootstrapProcessingMode() || IsParallelWorker())
		return false;

	/* one batch at a time, of one relation, command and subtransaction */
	if (b != NULL &&
		(b->relid != RelationGetRelid(rel) || b->subid != subid ||
		 b->cid != cid || b->options != options ||
		 b->tupdesc->natts != tupdesc->natts))
	{
		PaxBulkPlaceAll();
		PaxBulkForget();
		b = NULL;
	}
	if (b == NULL)
	{
		MemoryContext cxt = AllocSetContextCreate(TopTransactionContext,
												  "pax kept rows",
												  ALLOCSET_DEFAULT_SIZES);
		MemoryContext oldcxt = MemoryContextSwitchTo(cxt);

		b = palloc0(sizeof(PaxBulkBatch));
		b->cxt = cxt;
		b->relid = RelationGetRelid(rel);
		b->subid = subid;
		b->xid = GetCurrentTransactionId();
		b->cid = cid;
		b->options = options;
		b->tupdesc = CreateTupleDescCopy(tupdesc);
		MemoryContextSwitchTo(oldcxt);
		pax_bulk = b;
	}

	/* the row, copied with its values into the batch's memory */
	if (b->slots[b->nrows] == NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(b->cxt);

		b->slots[b->nrows] = MakeSingleTupleTableSlot(b->tupdesc,
													  &TTSOpsVirtual);
		MemoryContextSwitchTo(oldcxt);
	}
	kept = b->slots[b->nrows];
	ExecCopySlot(kept, slot);
	for (int i = 0; i < b->tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(b->tupdesc, i);

		if (kept->tts_isnull[i])
			continue;
		b->bytes += att->attlen > 0 ? att->attlen :
			datumGetSize(kept->tts_values[i], att->attbyval, att->attlen);
	}
	b->nrows++;
	pax_bulk_relid = b->relid;

	ItemPointerSetInvalid(&slot->tts_tid);
	slot->tts_tableOid = RelationGetRelid(rel);

	if (b->nrows == PAX_BULK_MAX_ROWS || b->bytes >= PAX_BULK_MAX_BYTES)
		PaxBulkPlace(rel, bistate);
	return true;
}

/* PaxBulkXactCallback places kept rows before a commit, drops them after. */
static void
PaxBulkXactCallback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_PRE_COMMIT:
		case XACT_EVENT_PARALLEL_PRE_COMMIT:
		case XACT_EVENT_PRE_PREPARE:
			PaxBulkPlaceAll();
			break;
		default:
			/* the memory goes with TopTransactionContext */
			pax_bulk = NULL;
			pax_bulk_relid = InvalidOid;
			break;
	}
}

/*
 * PaxBulkSubXactCallback places the kept rows of a subtransaction about to
 * commit (they keep its xid) and drops those of one that aborts.
 */
static void
PaxBulkSubXactCallback(SubXactEvent event, SubTransactionId mySubid,
					   SubTransactionId parentSubid, void *arg)
{
	if (pax_bulk == NULL || pax_bulk->subid != mySubid)
		return;
	if (event == SUBXACT_EVENT_PRE_COMMIT_SUB)
	{
		PaxBulkPlaceAll();
		PaxBulkForget();
	}
	else if (event == SUBXACT_EVENT_ABORT_SUB)
		PaxBulkForget();
}

/* PaxBulkExecutorStart places kept rows before any query runs. */
static void
PaxBulkExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (pax_bulk_relid != InvalidOid)
		PaxBulkPlaceAll();
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);
}

/*
 * PaxBulkProcessUtility places kept rows before any utility command, and
 * after it: COPY's row-at-a-time path never calls table_finish_bulk_insert
 * (copyfrom.c).
 */
static void
PaxBulkProcessUtility(PlannedStmt *pstmt, const char *queryString,
					  bool readOnlyTree, ProcessUtilityContext context,
					  ParamListInfo params, QueryEnvironment *queryEnv,
					  DestReceiver *dest, QueryCompletion *qc)
{
	if (pax_bulk_relid != InvalidOid)
		PaxBulkPlaceAll();
	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
							queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
	if (pax_bulk_relid != InvalidOid)
		PaxBulkPlaceAll();
}

/*
 * PaxBulkInit installs the hooks and callbacks that place kept rows;
 * called from _PG_init.
 */
void
PaxBulkInit(void)
{
	RegisterXactCallback(PaxBulkXactCallback, NULL);
	RegisterSubXactCallback(PaxBulkSubXactCallback, NULL);
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PaxBulkExecutorStart;
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PaxBulkProcessUtility;
}
