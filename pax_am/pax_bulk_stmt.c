/*-------------------------------------------------------------------------
 *
 * pax_bulk_stmt.c
 *	  The INSERT statements whose rows pax_bulk.c keeps, and the index
 *	  entries of those rows.
 *
 * PaxBulkStatementBegin notes, at ExecutorStart, an INSERT whose rows
 * nothing asks for once inserted (PaxBulkInsertTarget); pax_bulk.c keeps
 * the rows such a statement inserts (PaxBulkStatementInserts) and places
 * them before the statement ends (PaxBulkStatementRunning,
 * PaxBulkStatementPop).  Statements nest (a function of one query runs
 * another), innermost last.
 *
 * Index entries.  The executor makes a row's index entries right after
 * table_tuple_insert, from the TID it returns, which a kept row does not
 * have.  So an INSERT into a pax table with indexes (and nothing else in
 * the way: pax_bulk.c) takes its table's index entries over:
 * PaxBulkTakeIndexes opens the indexes (PostgreSQL 15 opens them at
 * ExecInitModifyTable, 18 at the first row) and hides them from the
 * executor (ri_NumIndices 0), and every row of the statement gets its
 * entries here, by ExecInsertIndexTuples, as COPY's rows get theirs after
 * table_multi_insert: a kept row once its batch is placed
 * (PaxBulkIndexKept), any other at once (PaxBulkIndexOne, through
 * PaxBulkIndexRow).  The statement's end places its last rows and gives
 * the indexes back before the executor closes them.  Unique and exclusion
 * constraints are then checked a batch at a time, as COPY checks them: a
 * duplicate key raises heap's error, but after the rest of its batch (up
 * to PAX_BULK_MAX_ROWS rows) was read and evaluated, so volatile
 * expressions of those rows ran (sequences advanced) where heap would
 * have stopped.  Deferrable constraints come with AFTER ROW triggers (their
 * rechecks), so never here.
 *
 * pax_am/pax_bulk_stmt.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/partition.h"
#include "commands/trigger.h"
#include "executor/executor.h"
#include "utils/rel.h"

#include "pax_bulk_stmt.h"
#include "pax_hio.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/*
 * Statements whose rows are kept: INSERTs that PaxBulkStatementBegin found
 * to ask nothing of their rows once inserted, innermost last.
 */
#define PAX_BULK_MAX_LEAVES	16

typedef struct PaxBulkStatement
{
	QueryDesc  *query;
	Oid			relid;			/* the target */
	CommandId	cid;			/* its rows' command id */
	SubTransactionId subid;		/* the subtransaction it runs in */
	bool		partitioned;	/* the target is a partitioned table: */
	int			nleaves;		/* partitions found under it so far */
	Oid			leaves[PAX_BULK_MAX_LEAVES];	/* the latest of them */
	int			short_batches;	/* batches placed short, another
								 * partition's row coming */
	bool		rowwise;		/* too many: the rest go one at a time */
	ResultRelInfo *rri;			/* with nindexes > 0: its target, whose */
	int			nindexes;		/* indexes it took (ri_NumIndices) */
	ExprContext *econtext;		/* for their expressions and predicates */
} PaxBulkStatement;

#define PAX_BULK_MAX_STATEMENTS	32

/*
 * An INSERT into a partitioned table keeps one partition's rows at a time:
 * rows that alternate between partitions (hash partitioning, unsorted
 * input) would place batches of a few rows each, so after this many
 * batches of fewer than PAX_BULK_MIN_STATEMENT_ROWS placed that way, the
 * statement's rows go one at a time.
 */
#define PAX_BULK_MAX_SHORT_BATCHES	4

static PaxBulkStatement pax_bulk_statements[PAX_BULK_MAX_STATEMENTS];
static int	pax_bulk_nstatements = 0;

static Relation PaxBulkInsertTarget(QueryDesc *queryDesc,
									ResultRelInfo **indexed);

/* PaxBulkInnermost returns the innermost statement whose rows are kept. */
static PaxBulkStatement *
PaxBulkInnermost(void)
{
	return pax_bulk_nstatements > 0 ?
		&pax_bulk_statements[pax_bulk_nstatements - 1] : NULL;
}

/*
 * PaxBulkIndexer returns the running INSERT that makes the index entries of
 * relid's rows it inserts as command cid of subtransaction subid, or NULL.
 */
static PaxBulkStatement *
PaxBulkIndexer(Oid relid, CommandId cid, SubTransactionId subid)
{
	for (int i = pax_bulk_nstatements - 1; i >= 0; i--)
	{
		PaxBulkStatement *st = &pax_bulk_statements[i];

		if (st->nindexes > 0 && st->relid == relid && st->cid == cid &&
			st->subid == subid)
			return st;
	}
	return NULL;
}

/*
 * PaxBulkIndexEntries makes the index entries of slots[0..n), rows of st's
 * target table that are in it (their TIDs set), as ExecInsert would have
 * made them, in an expression context of st's own: when a full batch is
 * placed, the executor's per-tuple context holds the row being inserted.
 */
static void
PaxBulkIndexEntries(PaxBulkStatement *st, TupleTableSlot **slots, int n)
{
	EState	   *estate = st->query->estate;
	ExprContext *saved = estate->es_per_tuple_exprcontext;

	if (st->econtext == NULL)
		st->econtext = CreateExprContext(estate);
	estate->es_per_tuple_exprcontext = st->econtext;
	st->rri->ri_NumIndices = st->nindexes;
	PG_TRY();
	{
		for (int i = 0; i < n; i++)
		{
			List	   *recheck;

			Assert(ItemPointerIsValid(&slots[i]->tts_tid));
			recheck = ExecInsertIndexTuples(st->rri, slots[i], estate,
											false, false, NULL, NIL
#if PG_VERSION_NUM >= 160000
											,false
#endif
				);
			/* (deferrable constraints come with triggers: never here) */
			if (recheck != NIL)
				elog(ERROR, "pax bulk insert met a deferred index constraint");
			ResetExprContext(st->econtext);
		}
	}
	PG_FINALLY();
	{
		st->rri->ri_NumIndices = 0;
		estate->es_per_tuple_exprcontext = saved;
	}
	PG_END_TRY();
}

/*
 * PaxBulkIndexOne makes the index entries of a row of rel that
 * pax_tuple_insert put in at once, as command cid, if the running INSERT
 * that inserted it makes them (PaxBulkIndexRow).
 */
void
PaxBulkIndexOne(Relation rel, TupleTableSlot *slot, CommandId cid)
{
	PaxBulkStatement *st = PaxBulkIndexer(RelationGetRelid(rel), cid,
										  GetCurrentSubTransactionId());

	if (st != NULL)
		PaxBulkIndexEntries(st, &slot, 1);
}

/*
 * PaxBulkTakeIndexes has statement st make its target's index entries
 * (rri's): opened as ExecInsert would open them, then hidden from the
 * executor until PaxBulkGiveIndexes.
 */
static void
PaxBulkTakeIndexes(PaxBulkStatement *st, ResultRelInfo *rri)
{
	if (rri->ri_IndexRelationDescs == NULL)
		ExecOpenIndices(rri, false);
	if (rri->ri_NumIndices == 0)
		return;
	st->rri = rri;
	st->nindexes = rri->ri_NumIndices;
	rri->ri_NumIndices = 0;
	pax_bulk_indexing++;
}

/* PaxBulkGiveIndexes gives st's indexes back to the executor, to close. */
static void
PaxBulkGiveIndexes(PaxBulkStatement *st)
{
	if (st->nindexes == 0)
		return;
	st->rri->ri_NumIndices = st->nindexes;
	st->nindexes = 0;
	pax_bulk_indexing--;
}

/*
 * PaxBulkStatementInserts tells whether the innermost statement running is
 * an INSERT whose rows are kept, into rel, as command cid of subtransaction
 * subid.
 */
bool
PaxBulkStatementInserts(Relation rel, CommandId cid, SubTransactionId subid)
{
	PaxBulkStatement *st = PaxBulkInnermost();
	Oid			relid = RelationGetRelid(rel);
	List	   *ancestors;
	bool		under;

	if (st == NULL || st->cid != cid || st->subid != subid || st->rowwise)
		return false;
	if (st->relid == relid)
		return true;
	if (!st->partitioned || !rel->rd_rel->relispartition)
		return false;

	/* a partition the statement's rows are routed to, at any level */
	for (int i = 0; i < Min(st->nleaves, PAX_BULK_MAX_LEAVES); i++)
		if (st->leaves[i] == relid)
			return true;
	ancestors = get_partition_ancestors(relid);
	under = list_member_oid(ancestors, st->relid);
	list_free(ancestors);
	if (under)
	{
		/* the latest ones, when there are more */
		st->leaves[st->nleaves % PAX_BULK_MAX_LEAVES] = relid;
		st->nleaves++;
	}
	return under;
}

/*
 * PaxBulkSwitching notes that the innermost statement's rows move on to
 * another partition while nrows rows of the previous one are kept (the
 * caller passes PAX_BULK_MIN_STATEMENT_ROWS when a full batch of it went
 * before: sorted input reaching the partition's end); true if its rows
 * must go one at a time from now on (PAX_BULK_MAX_SHORT_BATCHES).
 */
bool
PaxBulkSwitching(int nrows)
{
	PaxBulkStatement *st = PaxBulkInnermost();

	if (st == NULL || !st->partitioned || nrows >= PAX_BULK_MIN_STATEMENT_ROWS)
		return false;
	if (++st->short_batches >= PAX_BULK_MAX_SHORT_BATCHES)
		st->rowwise = true;
	return st->rowwise;
}

/*
 * PaxBulkHasIndexes tells whether rel has indexes now.  relhasindex alone
 * says "has or had": DROP INDEX leaves it set until a VACUUM clears it,
 * so it is only the cheap first test, as in ExecOpenIndices.  Then the
 * relcache's index list (filled once by RelationGetIndexList), without
 * the copy RelationGetIndexList returns: this runs for every row an
 * INSERT hands to PaxBulkKeep.
 */
static bool
PaxBulkHasIndexes(Relation rel)
{
	if (!rel->rd_rel->relhasindex)
		return false;
	if (!rel->rd_indexvalid)
		list_free(RelationGetIndexList(rel));
	return rel->rd_indexlist != NIL;
}

/*
 * PaxBulkTriggersReadRows tells whether rel has triggers that read a new
 * row by its TID once it is inserted: AFTER ROW INSERT triggers (a foreign
 * key's check, a deferrable constraint's recheck among them) and INSERT
 * transition tables.  Other triggers allow kept rows: BEFORE ROW triggers
 * run before the row is handed over, AFTER STATEMENT triggers once the
 * statement's rows are placed (at its ExecutorFinish, or by the query or
 * scan that reads the table first), and the triggers of a table that
 * foreign keys reference fire on UPDATE and DELETE.
 */
static bool
PaxBulkTriggersReadRows(Relation rel)
{
	TriggerDesc *td = rel->trigdesc;

	return td != NULL && (td->trig_insert_after_row || td->trig_insert_new_table);
}

/*
 * PaxBulkTableKeeps tells whether rel's new rows may be kept at all: it has
 * no trigger to read them by TID, and no index unless `indexed` (the
 * inserting statement makes their entries), and has no fillfactor below
 * 100, whose pages keep room for updates (PaxPageInReserve) where kept
 * rows would fill compact pages.  Logically decoded tables keep rows too:
 * their decoding records name the rows' subtransaction (pax_logical.c).
 */
bool
PaxBulkTableKeeps(Relation rel, int options, bool indexed)
{
	return RelationGetFillFactor(rel, HEAP_DEFAULT_FILLFACTOR) >= 100 &&
		!PaxBulkTriggersReadRows(rel) &&
		(indexed || !PaxBulkHasIndexes(rel));
}

/*
 * PaxBulkInsertTarget returns the pax table into which the query, just
 * started, inserts rows whose TIDs and headers nothing asks for, or NULL:
 * a plain INSERT (no RETURNING, ON CONFLICT, view check options or
 * data-modifying WITH, whose rows share its command id and may return
 * their TIDs) of at least PAX_BULK_MIN_STATEMENT_ROWS rows by the
 * planner's estimate into one pax table without
 * triggers that read its rows by TID (PaxBulkTriggersReadRows), or into a
 * partitioned table without indexes or such triggers.  Its
 * CHECK and NOT NULL constraints are checked before a row is handed over.
 * When the pax table has indexes, *indexed is its result relation, whose
 * index entries the statement is to make (else NULL).
 */
static Relation
PaxBulkInsertTarget(QueryDesc *queryDesc, ResultRelInfo **indexed)
{
	PlannedStmt *stmt = queryDesc->plannedstmt;
	EState	   *estate = queryDesc->estate;
	ModifyTable *mt;
	ResultRelInfo *rri;
	Relation	rel;

	if (stmt->commandType != CMD_INSERT || stmt->hasReturning ||
		stmt->hasModifyingCTE ||
		estate == NULL || (queryDesc->operation != CMD_INSERT) ||
		stmt->planTree == NULL || !IsA(stmt->planTree, ModifyTable))
		return NULL;
	mt = (ModifyTable *) stmt->planTree;
	if (mt->operation != CMD_INSERT || mt->returningLists != NIL ||
		mt->onConflictAction != ONCONFLICT_NONE ||
		mt->withCheckOptionLists != NIL ||
		list_length(mt->resultRelations) != 1 ||
		outerPlan(mt) == NULL ||
		outerPlan(mt)->plan_rows < PAX_BULK_MIN_STATEMENT_ROWS)
		return NULL;
	*indexed = NULL;
	if (estate->es_result_relations == NULL)
		return NULL;
	rri = estate->es_result_relations[linitial_int(mt->resultRelations) - 1];
	if (rri == NULL)
		return NULL;
	rel = rri->ri_RelationDesc;
	/* a partitioned table's partitions are checked as rows come (PaxBulkKeep) */
	if (rel->rd_rel->relkind == RELKIND_PARTITIONED_TABLE)
		return PaxBulkTableKeeps(rel, 0, false) ? rel : NULL;
	if (rel->rd_rel->relkind != RELKIND_RELATION ||
		!PaxIsPaxAm(rel->rd_tableam) || !PaxBulkTableKeeps(rel, 0, true))
		return NULL;
	if (PaxBulkHasIndexes(rel))
		*indexed = rri;
	return rel;
}


/*
 * PaxBulkStatementBegin notes the query, just started, if it is an INSERT
 * whose rows may be kept (PaxBulkInsertTarget), and takes its target's
 * index entries over when it has indexes.
 */
void
PaxBulkStatementBegin(QueryDesc *queryDesc)
{
	Relation	target;
	ResultRelInfo *indexed;
	PaxBulkStatement *st;

	if (pax_bulk_nstatements == PAX_BULK_MAX_STATEMENTS)
		return;
	target = PaxBulkInsertTarget(queryDesc, &indexed);
	if (target == NULL)
		return;
	st = &pax_bulk_statements[pax_bulk_nstatements++];
	memset(st, 0, sizeof(PaxBulkStatement));
	st->query = queryDesc;
	st->relid = RelationGetRelid(target);
	st->cid = queryDesc->estate->es_output_cid;
	st->subid = GetCurrentSubTransactionId();
	st->partitioned = target->rd_rel->relkind == RELKIND_PARTITIONED_TABLE;
	if (indexed != NULL)
		PaxBulkTakeIndexes(st, indexed);
}

/* PaxBulkStatementRunning tells whether the query is the innermost noted. */
bool
PaxBulkStatementRunning(QueryDesc *queryDesc)
{
	return PaxBulkInnermost() != NULL && PaxBulkInnermost()->query == queryDesc;
}

/*
 * PaxBulkStatementPop forgets the innermost statement, whose rows are
 * placed, giving its indexes back.
 */
void
PaxBulkStatementPop(void)
{
	Assert(pax_bulk_nstatements > 0);
	PaxBulkGiveIndexes(PaxBulkInnermost());
	pax_bulk_nstatements--;
}

/*
 * PaxBulkStatementsAbortSub forgets the statements of a subtransaction that
 * aborts: they end without ExecutorEnd, their executor state with them.
 */
void
PaxBulkStatementsAbortSub(SubTransactionId subid)
{
	while (PaxBulkInnermost() != NULL && PaxBulkInnermost()->subid == subid)
	{
		if (PaxBulkInnermost()->nindexes > 0)
			pax_bulk_indexing--;
		pax_bulk_nstatements--;
	}
}

/* PaxBulkStatementsReset forgets every statement, at the transaction's end. */
void
PaxBulkStatementsReset(void)
{
	pax_bulk_nstatements = 0;
	pax_bulk_indexing = 0;
}

/*
 * PaxBulkStatementIndexes tells whether a running INSERT makes the index
 * entries of relid's rows it inserts as command cid of subtransaction
 * subid.
 */
bool
PaxBulkStatementIndexes(Oid relid, CommandId cid, SubTransactionId subid)
{
	return PaxBulkIndexer(relid, cid, subid) != NULL;
}

/*
 * PaxBulkIndexKept makes the index entries of slots[0..n), kept rows of
 * relid just placed, for the INSERT that kept them (cid, subid).
 */
void
PaxBulkIndexKept(Oid relid, CommandId cid, SubTransactionId subid,
				 TupleTableSlot **slots, int n)
{
	PaxBulkStatement *st = PaxBulkIndexer(relid, cid, subid);

	if (st == NULL)
		elog(ERROR, "pax kept rows of relation %u after the INSERT that makes their index entries ended",
			 relid);
	PaxBulkIndexEntries(st, slots, n);
}
