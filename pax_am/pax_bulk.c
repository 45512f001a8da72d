/*-------------------------------------------------------------------------
 *
 * pax_bulk.c
 *	  Rows of INSERT ... SELECT, CREATE TABLE AS, REFRESH MATERIALIZED
 *	  VIEW and ALTER TABLE's rewrites, kept and placed in batches as COPY's
 *	  are.
 *
 * PostgreSQL inserts the rows of those commands one at a time
 * (table_tuple_insert; with a BulkInsertState, then table_finish_bulk_insert
 * once, for all but INSERT), where COPY hands its rows over in batches
 * (table_multi_insert).
 * Placed one at a time, a pax page is shaped without seeing the rows that
 * will fill it, and copied, changed and logged once for every row, where a
 * batch is shaped, encoded and logged once a page.  So pax_tuple_insert
 * keeps such rows, copied into
 * slots of its own, and hands them to pax_multi_insert in batches of
 * COPY's size (PAX_BULK_MAX_ROWS rows, PAX_BULK_MAX_BYTES bytes); the
 * last batch at table_finish_bulk_insert.  The pages are then COPY's:
 * shaped from the batch, encoded, one WAL record (a full image) each.
 *
 * A kept row is not in the table yet and has no TID.  Rows are kept only
 * where nothing asks for either before the batch is placed:
 *
 *   - the caller is a bulk insert into a relation created in this
 *     transaction (a BulkInsertState, rd_createSubid): CREATE TABLE AS,
 *     materialized views and ALTER TABLE rewrites (which call
 *     table_finish_bulk_insert when their rows are in), and COPY's
 *     row-at-a-time path (taken for volatile defaults, and which does
 *     not); or the innermost statement running is an INSERT of 100 rows
 *     or more (by the plan's estimate) without RETURNING, ON CONFLICT or
 *     view check options (PaxBulkInsertTarget, at ExecutorStart), whose
 *     rows are placed at its ExecutorFinish; into a pax table or into a
 *     partitioned table without indexes or such triggers (below), whose
 *     pax partitions keep the rows routed to them, one partition at a
 *     time (rows that keep alternating between partitions go one at a
 *     time after a few short batches);
 *   - it has no triggers that read a new row by its TID (AFTER ROW INSERT
 *     triggers, INSERT transition tables: PaxBulkTriggersReadRows), and
 *     no indexes, unless the caller is such an INSERT into a pax table:
 *     then the statement makes the rows' index entries, a batch at a time
 *     (pax_bulk_stmt.c);
 *   - under logical decoding too: the rows' decoding records, written
 *     when they are placed, name the subtransaction that inserted them
 *     when another one is current then (below), and that subtransaction
 *     first writes a record telling decoding its parent (PaxLogicalKeep).
 *     The rows are decoded where they are placed.  Any query that the
 *     statement's functions or triggers start places them first (below),
 *     so they come before its changes as on heap; only a query inside a
 *     subtransaction of its own (a PL/pgSQL block with an EXCEPTION
 *     clause) does not, and its writes to other tables are decoded before
 *     rows that heap's decoding would show first.
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

#include "access/detoast.h"
#include "access/heaptoast.h"
#include "access/parallel.h"
#include "access/table.h"
#include "access/xact.h"
#include "executor/executor.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/predicate.h"
#include "tcop/utility.h"
#include "utils/datum.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "pax_bulk_stmt.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/* A batch's rows and value bytes, at most: COPY's (copyfrom.c, 15). */
#define PAX_BULK_MAX_ROWS	1000
#define PAX_BULK_MAX_BYTES	65535

/* Rows whose values take more bytes than this are not kept: TOAST's size. */
#define PAX_BULK_MAX_ROW_BYTES	TOAST_TUPLE_THRESHOLD

/* GUC pax.batch_bulk_inserts */
bool		pax_batch_bulk_inserts = true;

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
	bool		filled;			/* a full batch was placed before */
	bool		indexed;		/* its statement makes their index entries */
	bool		failed;			/* placing them inside a later
								 * subtransaction failed: */
	int			failcode;		/* with this SQLSTATE */
	char	   *failmsg;		/* and message */
	TupleTableSlot *slots[PAX_BULK_MAX_ROWS];	/* made as needed, reused */
} PaxBulkBatch;

static PaxBulkBatch *pax_bulk = NULL;

static Size PaxBulkRowBytes(TupleTableSlot *slot);

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;
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
 * PaxBulkKeepRest ends a placing of the batch's first n rows, of which the
 * first `placed` went in: those are cleared, the others kept, first in
 * the batch and in their order.
 */
static void
PaxBulkKeepRest(PaxBulkBatch *b, int placed, int n)
{
	for (int i = 0; i < placed; i++)
		ExecClearTuple(b->slots[i]);
	/* rotate the rest to the front: each swap moves a cleared slot behind */
	for (int i = placed; placed > 0 && i < n; i++)
	{
		TupleTableSlot *t = b->slots[i - placed];

		b->slots[i - placed] = b->slots[i];
		b->slots[i] = t;
	}
	b->nrows = n - placed;
	b->bytes = 0;
	for (int i = 0; i < b->nrows; i++)
		b->bytes += PaxBulkRowBytes(b->slots[i]);
	if (b->nrows > 0)
		pax_bulk_relid = b->relid;
}

/*
 * PaxBulkPlace places the kept rows in rel, the batch's relation, with
 * bistate (NULL when the caller's may be gone).  With keep_tail (a full
 * batch, more rows to come), the last rows, too few to fill a new page,
 * stay kept, to go with the next batch (PaxInsertRows).
 */
static void
PaxBulkPlace(Relation rel, BulkInsertState bistate, bool keep_tail)
{
	PaxBulkBatch *b = pax_bulk;
	int			n = b->nrows;
	int			placed = 0;

	Assert(RelationGetRelid(rel) == b->relid);
	if (b->failed)
		ereport(ERROR,
				(errcode(b->failcode),
				 errmsg("%s", b->failmsg),
				 errdetail("Rows inserted into \"%s\" earlier in this statement could not be written when a subtransaction read the table.",
						   RelationGetRelationName(rel))));
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
	 * clause, run by the query that feeds CREATE TABLE AS, that reads the
	 * table places them inside the block's subtransaction, whose abort must
	 * not take them.  If placing them fails there (no disk space, say: rows
	 * too big for a page are never kept), the block's handler may catch the
	 * error, but the statement that inserted them must not go on
	 * without them: it fails at its next row or its end (b->failed), and
	 * the rows placed so far go with its subtransaction.
	 */
	PG_TRY();
	{
		placed = PaxMultiInsert(rel, b->slots, n, b->cid, b->options, bistate,
								b->xid, keep_tail);
		/* (a batch that starts no page at all: placed whole) */
		if (placed == 0)
			placed = PaxMultiInsert(rel, b->slots, n, b->cid, b->options,
									bistate, b->xid, false);
		if (b->indexed)
			PaxBulkIndexKept(b->relid, b->cid, b->subid, b->slots, placed);
	}
	PG_CATCH();
	{
		/* (in their own subtransaction, its abort drops the batch anyway) */
		MemoryContext ecxt = MemoryContextSwitchTo(b->cxt);
		ErrorData  *edata = CopyErrorData();

		MemoryContextSwitchTo(ecxt);
		b->failed = true;
		b->failcode = edata->sqlerrcode;
		b->failmsg = edata->message;
		pax_bulk_relid = b->relid;
		PG_RE_THROW();
	}
	PG_END_TRY();
	PaxBulkKeepRest(b, placed, n);
}

/*
 * PaxBulkPlaceAll places the kept rows, whatever their relation (opened
 * here: the inserting command holds its lock until the transaction ends).
 * A relation dropped since takes its rows with it.
 */
static void
PaxBulkPlaceAll(void)
{
	Relation	rel;

	if (pax_bulk == NULL || (pax_bulk->nrows == 0 && !pax_bulk->failed))
		return;

	rel = try_table_open(pax_bulk->relid, NoLock);
	if (rel == NULL)
	{
		PaxBulkForget();
		return;
	}
	PaxBulkPlace(rel, NULL, false);
	table_close(rel, NoLock);
}

/*
 * PaxBulkPlaceOwn places the kept rows if the current subtransaction
 * inserted them.  The hooks that place rows whatever the query or command
 * use it: another subtransaction's rows wait for their own, unless
 * something reads their table (PaxBulkPlaceFor).
 */
static void
PaxBulkPlaceOwn(void)
{
	if (pax_bulk != NULL && pax_bulk->subid == GetCurrentSubTransactionId())
		PaxBulkPlaceAll();
}

/* PaxBulkPlaceForRel: PaxBulkPlaceFor's work, rows kept for rel. */
static void
PaxBulkPlaceForRel(Relation rel)
{
	Assert(pax_bulk != NULL && pax_bulk->relid == RelationGetRelid(rel));
	PaxBulkPlace(rel, NULL, false);
}

/*
 * PaxBulkRowBytes is the bytes of the slot's values, a TOAST pointer
 * counting its value's (it is fetched when the row is placed).
 */
static Size
PaxBulkRowBytes(TupleTableSlot *slot)
{
	TupleDesc	desc = slot->tts_tupleDescriptor;
	Size		bytes = 0;

	slot_getallattrs(slot);
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Datum		value = slot->tts_values[i];

		if (slot->tts_isnull[i])
			continue;
		bytes += att->attlen > 0 ? att->attlen :
			att->attlen == -1 ? toast_raw_datum_size(value) :
			datumGetSize(value, att->attbyval, att->attlen);
	}
	return bytes;
}

/*
 * PaxBulkMayKeep tells whether this backend may keep rel's new rows now:
 * batching is on, the table may keep rows (PaxBulkTableKeeps), and this
 * is neither bootstrap nor a parallel worker.
 */
static bool
PaxBulkMayKeep(Relation rel, int options, bool indexed)
{
	return pax_batch_bulk_inserts && !IsBootstrapProcessingMode() &&
		!IsParallelWorker() && PaxBulkTableKeeps(rel, options, indexed);
}

/*
 * PaxBulkIsFor tells whether batch b keeps rows of rel inserted by this
 * subtransaction, command cid and options: one batch at a time.
 */
static bool
PaxBulkIsFor(const PaxBulkBatch *b, Relation rel, CommandId cid, int options)
{
	return b->relid == RelationGetRelid(rel) &&
		b->subid == GetCurrentSubTransactionId() &&
		b->cid == cid && b->options == options &&
		b->tupdesc->natts == RelationGetDescr(rel)->natts;
}

/*
 * PaxBulkStart starts a batch of kept rows for rel, of the current
 * subtransaction, command cid and options.
 */
static PaxBulkBatch *
PaxBulkStart(Relation rel, CommandId cid, int options)
{
	MemoryContext cxt = AllocSetContextCreate(TopTransactionContext,
											  "pax kept rows",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext oldcxt = MemoryContextSwitchTo(cxt);
	PaxBulkBatch *b = palloc0(sizeof(PaxBulkBatch));

	b->cxt = cxt;
	b->relid = RelationGetRelid(rel);
	b->subid = GetCurrentSubTransactionId();
	b->xid = GetCurrentTransactionId();
	b->cid = cid;
	b->options = options;
	b->tupdesc = CreateTupleDescCopy(RelationGetDescr(rel));
	MemoryContextSwitchTo(oldcxt);
	PaxLogicalKeep(rel, options);
	pax_bulk = b;
	return b;
}

/*
 * PaxBulkCopyIn copies the slot's row, with its values, into slot k of the
 * batch (made on first use, in the batch's memory).  The slot's TID is set
 * invalid: the row is not in rel yet.
 */
static void
PaxBulkCopyIn(PaxBulkBatch *b, int k, Relation rel, TupleTableSlot *slot)
{
	if (b->slots[k] == NULL)
	{
		MemoryContext oldcxt = MemoryContextSwitchTo(b->cxt);

		b->slots[k] = MakeSingleTupleTableSlot(b->tupdesc, &TTSOpsVirtual);
		MemoryContextSwitchTo(oldcxt);
	}
	ExecCopySlot(b->slots[k], slot);
	ItemPointerSetInvalid(&slot->tts_tid);
	slot->tts_tableOid = RelationGetRelid(rel);
}

/*
 * PaxBulkMulti places a batch of COPY's rows (pax_multi_insert) after the
 * rows kept from its last batch, keeping the last ones, too few to fill a
 * new page, for the next (the end of COPY places them: its
 * table_finish_bulk_insert, or the ProcessUtility hook): every page of
 * the load is then shaped from a page's worth of rows.  COPY's batches
 * (1,000 rows or 64 kB) otherwise each end in a page shaped from their
 * last rows, which the next batch's rows seldom fit.  Only where rows may
 * be kept at all (PaxBulkTableKeeps),
 * else false: the caller places them.
 */
static bool
PaxBulkMulti(Relation rel, TupleTableSlot **slots, int nslots, CommandId cid,
			 int options, BulkInsertState bistate)
{
	PaxBulkBatch *b = pax_bulk;
	TupleTableSlot **all;
	int			m;
	int			placed;
	int			rest;

	if (bistate == NULL || nslots == 0 || !PaxBulkMayKeep(rel, options, false))
		return false;
	if (b != NULL && !PaxBulkIsFor(b, rel, cid, options))
	{
		PaxBulkPlaceAll();
		PaxBulkForget();
		b = NULL;
	}
	if (b == NULL)
		b = PaxBulkStart(rel, cid, options);
	if (b->failed)
		PaxBulkPlace(rel, bistate, false);	/* reports the failure */

	/* the kept rows first, then these; nothing kept while they go in */
	m = b->nrows;
	all = palloc((m + nslots) * sizeof(TupleTableSlot *));
	memcpy(all, b->slots, m * sizeof(TupleTableSlot *));
	memcpy(all + m, slots, nslots * sizeof(TupleTableSlot *));
	b->nrows = 0;
	b->bytes = 0;
	pax_bulk_relid = InvalidOid;
	/* counted now, as heap counts a row inserted before a later error */
	pgstat_count_heap_insert(rel, nslots);
	placed = PaxMultiInsert(rel, all, m + nslots, cid, options, bistate,
							b->xid, true);
	rest = m + nslots - placed;
	if (rest > PAX_BULK_MAX_ROWS)
		elog(ERROR, "pax kept %d rows of a batch, more than %d", rest,
			 PAX_BULK_MAX_ROWS);

	/* the kept rows that went in cleared, the others first; then COPY's */
	PaxBulkKeepRest(b, Min(placed, m), m);
	for (int k = Max(placed, m); k < m + nslots; k++)
	{
		PaxBulkCopyIn(b, b->nrows++, rel, all[k]);
		b->bytes += PaxBulkRowBytes(all[k]);
	}
	if (b->nrows > 0)
		pax_bulk_relid = b->relid;
	pfree(all);
	return true;
}

/*
 * PaxBulkKeep keeps the slot's row for rel, to be placed with the rows
 * after it, where pax_tuple_insert may (see above); true if it did.  The
 * slot's TID is set invalid.
 */
static bool
PaxBulkKeep(Relation rel, TupleTableSlot *slot, CommandId cid, int options,
			BulkInsertState bistate)
{
	PaxBulkBatch *b = pax_bulk;
	SubTransactionId subid = GetCurrentSubTransactionId();
	Size		rowbytes;
	bool		indexed = false;

	if (bistate != NULL)
	{
		if (rel->rd_createSubid == InvalidSubTransactionId)
			return false;
	}
	else
	{
		if (!PaxBulkStatementInserts(rel, cid, subid))
			return false;
		indexed = PaxBulkStatementIndexes(RelationGetRelid(rel), cid, subid);
	}
	if (!PaxBulkMayKeep(rel, options, indexed))
		return false;

	/*
	 * A row of TOAST size goes in at once, after the rows kept before it:
	 * the errors of its placing (a row too big) then come at its turn, as
	 * on heap, not at the end of its batch, behind a later row's error.
	 */
	rowbytes = PaxBulkRowBytes(slot);
	if (rowbytes > PAX_BULK_MAX_ROW_BYTES)
	{
		if (b != NULL && b->relid == RelationGetRelid(rel))
			PaxBulkPlace(rel, bistate, false);
		return false;
	}

	if (b != NULL && !PaxBulkIsFor(b, rel, cid, options))
	{
		bool		rowwise = bistate == NULL &&
			b->relid != RelationGetRelid(rel) &&
			PaxBulkSwitching(b->filled ? PAX_BULK_MIN_STATEMENT_ROWS : b->nrows);

		PaxBulkPlaceAll();
		PaxBulkForget();
		b = NULL;
		if (rowwise)
			return false;
	}
	if (b == NULL)
	{
		b = PaxBulkStart(rel, cid, options);
		b->indexed = indexed;
	}

	/* as heap_insert, for each row: a conflict with a reader of the table */
	CheckForSerializableConflictIn(rel, NULL, InvalidBlockNumber);

	PaxBulkCopyIn(b, b->nrows, rel, slot);
	b->bytes += rowbytes;
	b->nrows++;
	pax_bulk_relid = b->relid;
	/* counted now, as heap counts a row inserted before a later error */
	pgstat_count_heap_insert(rel, 1);

	if (b->nrows == PAX_BULK_MAX_ROWS || b->bytes >= PAX_BULK_MAX_BYTES)
	{
		b->filled = true;
		PaxBulkPlace(rel, bistate, true);
	}
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
			PaxBulkStatementsReset();
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
	/* the statements of an aborted subtransaction end without ExecutorEnd */
	if (event == SUBXACT_EVENT_ABORT_SUB)
		PaxBulkStatementsAbortSub(mySubid);
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

/*
 * PaxBulkExecutorStart places kept rows before any query runs, and notes an
 * INSERT whose rows may be kept (PaxBulkStatementBegin).
 */
static void
PaxBulkExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (pax_bulk_relid != InvalidOid)
		PaxBulkPlaceOwn();
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);

	if (pax_batch_bulk_inserts && !(eflags & EXEC_FLAG_EXPLAIN_ONLY) &&
		!IsParallelWorker())
		PaxBulkStatementBegin(queryDesc);
}

/*
 * PaxBulkStatementEnd places the kept rows of the query and forgets it, if
 * it is the innermost noted statement.
 */
static void
PaxBulkStatementEnd(QueryDesc *queryDesc)
{
	if (PaxBulkStatementRunning(queryDesc))
	{
		if (pax_bulk_relid != InvalidOid)
			PaxBulkPlaceAll();
		PaxBulkStatementPop();
	}
}

/*
 * PaxBulkExecutorFinish places the rows an INSERT kept when its plan has
 * run, before its AFTER STATEMENT work.
 */
static void
PaxBulkExecutorFinish(QueryDesc *queryDesc)
{
	PaxBulkStatementEnd(queryDesc);
	if (prev_ExecutorFinish)
		prev_ExecutorFinish(queryDesc);
	else
		standard_ExecutorFinish(queryDesc);
}

/* PaxBulkExecutorEnd: a query ended without ExecutorFinish (EXPLAIN). */
static void
PaxBulkExecutorEnd(QueryDesc *queryDesc)
{
	PaxBulkStatementEnd(queryDesc);
	if (prev_ExecutorEnd)
		prev_ExecutorEnd(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
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
		PaxBulkPlaceOwn();
	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
							queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);
	if (pax_bulk_relid != InvalidOid)
		PaxBulkPlaceOwn();
}

/*
 * PaxBulkInit installs the hooks and callbacks that place kept rows;
 * called from _PG_init.
 */
void
PaxBulkInit(void)
{
	PaxBulkKeepHook = PaxBulkKeep;
	PaxBulkPlaceHook = PaxBulkPlaceForRel;
	PaxBulkMultiHook = PaxBulkMulti;
	PaxBulkIndexHook = PaxBulkIndexOne;
	RegisterXactCallback(PaxBulkXactCallback, NULL);
	RegisterSubXactCallback(PaxBulkSubXactCallback, NULL);
	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = PaxBulkExecutorStart;
	prev_ExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = PaxBulkExecutorFinish;
	prev_ExecutorEnd = ExecutorEnd_hook;
	ExecutorEnd_hook = PaxBulkExecutorEnd;
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PaxBulkProcessUtility;
}
