/*-------------------------------------------------------------------------
 *
 * pax_logical.c
 *	  What logical decoding sees of pax relations, and saying so.
 *
 * Logical decoding decodes heap's WAL records only.  Every change to a pax
 * relation is a generic WAL record (pax_wal.c), which decodes as nothing,
 * and the one heap record pax writes (PaxClearAllVisible's) is one that
 * decoding skips; so a logical slot, and a publication's subscribers,
 * receive no pax change, only the BEGIN and COMMIT around it (and TRUNCATE,
 * which core logs for every table).  Nothing may decode as a wrong change.
 *
 * Since changes are silently missing downstream, we say so where we can:
 *
 * - CREATE PUBLICATION, and ALTER PUBLICATION ... ADD / SET, warn when the
 *   publication then includes pax tables (FOR TABLE, FOR TABLES IN SCHEMA,
 *   FOR ALL TABLES, partitions of published partitioned tables), through
 *   ProcessUtility_hook.  The hook exists only in backends that have loaded
 *   the module: with pax_am in shared_preload_libraries every backend has;
 *   otherwise one that has not touched a pax relation yet does not warn.
 * - The first write to a pax relation in a session, while a logical slot
 *   of the session's database exists, warns once per session.  A write
 *   loads the module, so this one does not depend on preloading.  Slots are
 *   looked for once per transaction at most, and only with wal_level =
 *   logical (PaxLogicalCheckWrite, pax.h).
 *
 * Creating the slot itself cannot warn: pg_create_logical_replication_slot
 * is a builtin function, which fmgr calls without consulting fmgr_hook,
 * and a walsender's CREATE_REPLICATION_SLOT has no hook at all.
 *
 * pax_am/pax_logical.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/catalog.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_publication.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "replication/slot.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/spin.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "pax.h"

/* at most this many table names in the publication warning's detail */
#define PAX_LOGICAL_MAX_NAMES	10

static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/* the slot check of PaxLogicalWarnSlots: last transaction, and done */
static LocalTransactionId pax_logical_checked_lxid = InvalidLocalTransactionId;
static bool pax_logical_warned = false;

/*
 * PaxAmIsPax tells whether the access method amoid is pax (its handler
 * returns our routine), remembering the last answer.
 */
static bool
PaxAmIsPax(Oid amoid)
{
	static Oid	last_amoid = InvalidOid;
	static bool last_answer = false;
	HeapTuple	tp;

	if (!OidIsValid(amoid))
		return false;
	if (amoid == last_amoid)
		return last_answer;
	tp = SearchSysCache1(AMOID, ObjectIdGetDatum(amoid));
	if (!HeapTupleIsValid(tp))
		return false;
	last_answer = ((Form_pg_am) GETSTRUCT(tp))->amtype == AMTYPE_TABLE &&
		GetTableAmRoutine(((Form_pg_am) GETSTRUCT(tp))->amhandler) ==
		PaxGetTableAmRoutine();
	last_amoid = amoid;
	ReleaseSysCache(tp);
	return last_answer;
}

/*
 * PaxWarnPublication warns when the publication named pubname includes pax
 * tables, whose changes its subscribers will not receive.  Called after
 * the statement that created or extended it.
 */
static void
PaxWarnPublication(const char *pubname)
{
	Oid			pubid = get_publication_oid(pubname, true);
	Publication *pub;
	List	   *relids;
	ListCell   *lc;
	StringInfoData names;
	int			npax = 0;

	if (!OidIsValid(pubid))
		return;
	/* see the statement's own catalog changes */
	CommandCounterIncrement();
	pub = GetPublication(pubid);
	if (pub->alltables)
		relids = GetAllTablesPublicationRelations(false);
	else
		relids = list_concat_unique_oid(GetPublicationRelations(pubid, PUBLICATION_PART_LEAF),
										GetAllSchemaPublicationRelations(pubid, PUBLICATION_PART_LEAF));

	initStringInfo(&names);
	foreach(lc, relids)
	{
		Oid			relid = lfirst_oid(lc);
		HeapTuple	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
		Form_pg_class classform;

		if (!HeapTupleIsValid(tp))
			continue;
		classform = (Form_pg_class) GETSTRUCT(tp);
		if (PaxAmIsPax(classform->relam))
		{
			if (npax < PAX_LOGICAL_MAX_NAMES)
				appendStringInfo(&names, "%s%s", npax > 0 ? ", " : "",
								 quote_qualified_identifier(get_namespace_name(classform->relnamespace),
															NameStr(classform->relname)));
			else if (npax == PAX_LOGICAL_MAX_NAMES)
				appendStringInfoString(&names, ", ...");
			npax++;
		}
		ReleaseSysCache(tp);
	}

	if (npax > 0)
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg_plural("publication \"%s\" includes %d table using the pax access method, whose changes are not replicated",
							   "publication \"%s\" includes %d tables using the pax access method, whose changes are not replicated",
							   npax, pubname, npax),
				 errdetail("Logical decoding does not decode changes to tables using the pax access method: %s.",
						   names.data),
				 errhint("Use the heap access method for tables that must be replicated (ALTER TABLE ... SET ACCESS METHOD heap).")));
	pfree(names.data);
	list_free(relids);
}

/*
 * PaxProcessUtility runs the statement, then warns about the pax tables of
 * a publication it created or added tables to.
 */
static void
PaxProcessUtility(PlannedStmt *pstmt, const char *queryString,
				  bool readOnlyTree, ProcessUtilityContext context,
				  ParamListInfo params, QueryEnvironment *queryEnv,
				  DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;
	char	   *pubname = NULL;

	if (IsA(parsetree, CreatePublicationStmt))
		pubname = pstrdup(((CreatePublicationStmt *) parsetree)->pubname);
	else if (IsA(parsetree, AlterPublicationStmt))
	{
		AlterPublicationStmt *stmt = (AlterPublicationStmt *) parsetree;

		if (stmt->pubobjects != NIL &&
			(stmt->action == AP_AddObjects || stmt->action == AP_SetObjects))
			pubname = pstrdup(stmt->pubname);
	}

	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
							queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);

	if (pubname)
		PaxWarnPublication(pubname);
}

/*
 * PaxLogicalWarnSlots warns, once per session, at a write to a pax
 * relation while a logical replication slot of this database exists: the
 * slot receives none of these changes.  Called through
 * PaxLogicalCheckWrite with wal_level = logical, before any buffer lock.
 */
void
PaxLogicalWarnSlots(Relation rel)
{
	char		slotname[NAMEDATALEN];
	bool		found = false;

	if (pax_logical_warned || PaxMyLocalXid() == pax_logical_checked_lxid ||
		!RelationIsLogicallyLogged(rel))
		return;
	pax_logical_checked_lxid = PaxMyLocalXid();
	if (ReplicationSlotCtl == NULL || max_replication_slots == 0)
		return;

	LWLockAcquire(ReplicationSlotControlLock, LW_SHARED);
	for (int i = 0; i < max_replication_slots && !found; i++)
	{
		ReplicationSlot *s = &ReplicationSlotCtl->replication_slots[i];

		if (!s->in_use)
			continue;
		SpinLockAcquire(&s->mutex);
		if (s->data.database == MyDatabaseId)
		{
			strlcpy(slotname, NameStr(s->data.name), NAMEDATALEN);
			found = true;
		}
		SpinLockRelease(&s->mutex);
	}
	LWLockRelease(ReplicationSlotControlLock);

	if (found)
	{
		pax_logical_warned = true;
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("changes to table \"%s\" are not decoded by logical decoding",
						RelationGetRelationName(rel)),
				 errdetail("Table \"%s\" uses the pax access method; logical replication slot \"%s\" of this database receives none of its changes.",
						   RelationGetRelationName(rel), slotname),
				 errhint("Use the heap access method for tables that must be replicated (ALTER TABLE ... SET ACCESS METHOD heap).")));
	}
}

/*
 * PaxLogicalInit installs the ProcessUtility hook; called from _PG_init.
 */
void
PaxLogicalInit(void)
{
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PaxProcessUtility;
}
