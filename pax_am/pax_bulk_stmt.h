/*-------------------------------------------------------------------------
 *
 * pax_bulk_stmt.h
 *	  The INSERT statements whose rows pax_bulk.c keeps (pax_bulk_stmt.c).
 *
 * pax_am/pax_bulk_stmt.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_BULK_STMT_H
#define PAX_BULK_STMT_H

#include "executor/execdesc.h"
#include "executor/tuptable.h"
#include "utils/relcache.h"

/*
 * An INSERT statement's rows are kept where its plan expects this many at
 * least: fewer fill no page, and a short VALUES list that fails on a later
 * row then leaves the table as heap would (its first rows written).
 */
#define PAX_BULK_MIN_STATEMENT_ROWS	100

/* pax_bulk_stmt.c */
extern void PaxBulkStatementBegin(QueryDesc *queryDesc);
extern bool PaxBulkStatementRunning(QueryDesc *queryDesc);
extern void PaxBulkStatementPop(void);
extern void PaxBulkStatementsAbortSub(SubTransactionId subid);
extern void PaxBulkStatementsReset(void);
extern bool PaxBulkStatementInserts(Relation rel, CommandId cid,
									SubTransactionId subid);
extern bool PaxBulkSwitching(int nrows);
extern bool PaxBulkTableKeeps(Relation rel, int options, bool indexed);
extern bool PaxBulkStatementIndexes(Oid relid, CommandId cid,
									SubTransactionId subid);
extern void PaxBulkIndexKept(Oid relid, CommandId cid, SubTransactionId subid,
							 TupleTableSlot **slots, int n);
extern void PaxBulkIndexOne(Relation rel, TupleTableSlot *slot,
							CommandId cid);

#endif							/* PAX_BULK_STMT_H */
