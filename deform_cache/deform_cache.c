/*-------------------------------------------------------------------------
 *
 * deform_cache.c
 *	  Tuple-deform and memory-context counters per plan node and relation:
 *	  module initialisation, GUC, executor hooks, results and SQL functions.
 *
 * When deform_cache.track is on, the executor hooks instrument every plan
 * node of each top-level statement and count two things:
 *
 * 1. Attribute extraction ("deform"): how many times a slot's tts_nvalid
 *	  grew, how many tuples and attributes that covered, the highest attribute
 *	  reached and, for heap and minimal tuples, how many bytes of tuple data
 *	  were walked.  Each count is charged to the plan node that owns the slot
 *	  (its scan slot or result slot), whoever did the deforming.  The
 *	  ExprState and DestReceiver wrappers that see them are in deform_wrap.c.
 *
 * 2. The per-tuple memory context of each node's ExprContext: reset requests,
 *	  requests that found nothing to free, allocations, bytes and the peak
 *	  between two resets (deform_memctx.c).
 *
 * Why not wrap the slots' TupleTableSlotOps, as the design note proposed?
 * Because PostgreSQL 15 identifies slot types by the address of their ops:
 * ExecStoreBufferHeapTuple, ExecStoreHeapTuple and ExecStoreMinimalTuple
 * raise "wrong type of slot" unless slot->tts_ops is exactly &TTSOpsXxx, so a
 * per-slot copy of the ops breaks every heap scan on its first tuple.  We
 * watch tts_nvalid instead.  Deforms done by C code outside expressions
 * (hashed aggregation's grouping keys, merge join's keys, ModifyTable, ...)
 * are not seen; README.md lists exactly what is and is not counted.
 *
 * pax_am's PaxScan forms rows without deforming a tuple; it reports them
 * through the report-read hook of pax_am_hooks.h, which we set when we are
 * loaded, and pax_am publishes its slot type there for us to name.
 *
 * Lifetime and locking contract:
 *	- Everything is backend-local; there is no shared memory and no locking.
 *	  Parallel workers are not instrumented (their deforms are not counted).
 *	- At most one statement is instrumented at a time (dc_active): the first
 *	  top-level statement (executor nesting level 0) to start while tracking
 *	  is on.  Its DCStatement and all wrapper structs live in its
 *	  es_query_cxt, so they die with the objects they wrap.
 *	- Normal end: ExecutorEnd restores every evalfunc and context method
 *	  before standard_ExecutorEnd frees the executor state, then stores the
 *	  counters.  ExecutorRun restores the statement's DestReceiver in
 *	  PG_FINALLY.
 *	- Error: the statement's counters are discarded.  A wrapped context that
 *	  is deleted restores its own methods first; a reset callback on
 *	  es_query_cxt forgets the statement when that context goes away; a
 *	  transaction abort callback unwraps whatever is still alive as a
 *	  backstop.
 *	- Results (last statement, per-relation totals) live in a child of
 *	  TopMemoryContext until deform_cache_reset().
 *
 * deform_cache/deform_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/parallel.h"
#include "access/xact.h"
#include "commands/defrem.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "funcapi.h"
#include "jit/jit.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"

#include "deform_cache.h"
#include "deform_cache_private.h"
#include "pax_am_hooks.h"

#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "deform_cache", .version = "1.0");
#else
PG_MODULE_MAGIC;
#endif

/* columns of the SQL functions (the Asserts check the 1.0 script agrees) */
#define DC_LAST_COLS_V1_0		17
#define DC_RELATIONS_COLS_V1_0	14
#define DC_INFO_COLS_V1_0		2

/* slot types that can be named (built-in ones plus registered ones) */
#define DC_MAX_SLOT_TYPES		16

/* initial size of the per-relation totals table */
#define DC_RELATIONS_INIT_SIZE	64

/*---- results (live in dc_cxt) ----*/

typedef struct DCNodeResult
{
	int			node_id;
	int			parent_id;
	char	   *node_type;
	Oid			relid;
	Oid			amoid;
	const char *slot_type;		/* NULL if nothing was deformed */
	bool		jit_deform;
	DCCounters	c;
} DCNodeResult;

typedef struct DCRelEntry
{
	Oid			relid;			/* hash key */
	Oid			amoid;
	int64		statements;
	int64		scans;
	DCCounters	c;
} DCRelEntry;

typedef struct DCSlotType
{
	const TupleTableSlotOps *ops;
	const char *name;
} DCSlotType;

/*---- module state ----*/

static bool dc_track = false;

static ExecutorStart_hook_type prev_ExecutorStart = NULL;
static ExecutorRun_hook_type prev_ExecutorRun = NULL;
static ExecutorFinish_hook_type prev_ExecutorFinish = NULL;
static ExecutorEnd_hook_type prev_ExecutorEnd = NULL;

static int	dc_nesting_level = 0;

static MemoryContext dc_cxt = NULL; /* results */
static MemoryContext dc_last_cxt = NULL;	/* the last statement's rows */
static DCNodeResult *dc_last = NULL;
static int	dc_nlast = 0;
static HTAB *dc_relations = NULL;

static DCSlotType dc_slot_types[DC_MAX_SLOT_TYPES];
static int	dc_nslot_types = 0;

/* the link with pax_am (pax_am_hooks.h), or NULL */
static PaxAmHooks *dc_pax_hooks = NULL;

void		_PG_init(void);

static void dc_ExecutorStart(QueryDesc *queryDesc, int eflags);
/* ExecutorRun lost its execute_once argument in 18 */
#if PG_VERSION_NUM >= 180000
#define DC_RUN_ARGS QueryDesc *queryDesc, ScanDirection direction, uint64 count
#define DC_RUN_PASS(a) queryDesc, (a)->direction, (a)->count
#else
#define DC_RUN_ARGS QueryDesc *queryDesc, ScanDirection direction, uint64 count, \
	bool execute_once
#define DC_RUN_PASS(a) queryDesc, (a)->direction, (a)->count, (a)->execute_once
#endif
static void dc_ExecutorRun(DC_RUN_ARGS);
static void dc_ExecutorFinish(QueryDesc *queryDesc);
static void dc_ExecutorEnd(QueryDesc *queryDesc);
static void dc_xact_callback(XactEvent event, void *arg);


/*
 * _PG_init defines the GUC, remembers the built-in slot types, sets the
 * report-read hook of pax_am (whether or not pax_am is loaded yet) and
 * installs the executor hooks.
 */
void
_PG_init(void)
{
	DefineCustomBoolVariable("deform_cache.track",
							 "Counts tuple deforming and per-tuple memory "
							 "context use of each plan node.",
							 "Only top-level statements are counted.",
							 &dc_track,
							 false,
							 PGC_SUSET,
							 0,
							 NULL,
							 NULL,
							 NULL);
	MarkGUCPrefixReserved("deform_cache");

	dc_pax_hooks = PaxAmHooksAttach();
	if (dc_pax_hooks)
		dc_pax_hooks->report_read = DeformCacheReportRead;

	DeformCacheRegisterSlotOps(&TTSOpsVirtual, "Virtual");
	DeformCacheRegisterSlotOps(&TTSOpsHeapTuple, "HeapTuple");
	DeformCacheRegisterSlotOps(&TTSOpsMinimalTuple, "MinimalTuple");
	DeformCacheRegisterSlotOps(&TTSOpsBufferHeapTuple, "BufferHeapTuple");

	prev_ExecutorStart = ExecutorStart_hook;
	ExecutorStart_hook = dc_ExecutorStart;
	prev_ExecutorRun = ExecutorRun_hook;
	ExecutorRun_hook = dc_ExecutorRun;
	prev_ExecutorFinish = ExecutorFinish_hook;
	ExecutorFinish_hook = dc_ExecutorFinish;
	prev_ExecutorEnd = ExecutorEnd_hook;
	ExecutorEnd_hook = dc_ExecutorEnd;

	RegisterXactCallback(dc_xact_callback, NULL);
}


/* ----------------------------------------------------------------
 *		Interface for other modules (deform_cache.h, pax_am_hooks.h)
 * ----------------------------------------------------------------
 */

/*
 * DeformCacheRegisterSlotOps names a slot type for deform_cache_last().
 *
 * The name is copied; registering the same ops again renames it.  Callable
 * from other modules (see deform_cache.h).
 */
void
DeformCacheRegisterSlotOps(const TupleTableSlotOps *ops, const char *name)
{
	int			i;

	for (i = 0; i < dc_nslot_types; i++)
		if (dc_slot_types[i].ops == ops)
			break;
	if (i == DC_MAX_SLOT_TYPES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("too many slot types registered with deform_cache"),
				 errdetail("At most %d slot types can be named.",
						   DC_MAX_SLOT_TYPES)));
	dc_slot_types[i].ops = ops;
	dc_slot_types[i].name = MemoryContextStrdup(TopMemoryContext, name);
	if (i == dc_nslot_types)
		dc_nslot_types++;
}

/*
 * DeformCacheReportRead counts a row that scan node ps formed by reading
 * natts columns (the highest being max_attno) straight from its storage,
 * without deforming a tuple: PaxScan reports its projected columns this
 * way, as one deform call of natts attributes, through pax_am's
 * report-read hook (pax_am_hooks.h).  It costs a comparison when no
 * statement is instrumented.
 */
void
DeformCacheReportRead(PlanState *ps, int natts, int max_attno)
{
	DCStatement *stmt = dc_active;
	DCNode	   *node;
	DCCounters *c;

	if (likely(stmt == NULL) || !stmt->running)
		return;
	/* the cache lives in the statement: nodes die with their statement */
	if (stmt->report_last != NULL && stmt->report_last->ps == ps)
		node = stmt->report_last;
	else
	{
		node = DCFindNode(stmt, ps);
		if (node == NULL)
			return;
		stmt->report_last = node;
	}
	c = &node->c;
	c->deform_calls++;
	c->tuples++;
	c->attributes += natts;
	c->bytes_unknown = true;
	if (max_attno > c->max_attribute)
		c->max_attribute = max_attno;
	/* the row lands in the scan's virtual slot */
	if (node->slot_ops == NULL)
		node->slot_ops = &TTSOpsVirtual;
	else if (node->slot_ops != &TTSOpsVirtual)
		node->slot_mixed = true;
}

/*
 * dc_slot_type_name returns the registered name of a slot type, pax_am's
 * name for its own slot type once pax_am is loaded, or "other".
 */
static const char *
dc_slot_type_name(const TupleTableSlotOps *ops)
{
	for (int i = 0; i < dc_nslot_types; i++)
		if (dc_slot_types[i].ops == ops)
			return dc_slot_types[i].name;
	if (dc_pax_hooks != NULL && dc_pax_hooks->slot_ops == ops)
		return dc_pax_hooks->slot_name;
	return "other";
}


/* ----------------------------------------------------------------
 *		Results
 * ----------------------------------------------------------------
 */

/* dc_counters_add adds src to dst (maxima for the max and peak columns). */
static void
dc_counters_add(DCCounters *dst, const DCCounters *src)
{
	dst->deform_calls += src->deform_calls;
	dst->tuples += src->tuples;
	dst->attributes += src->attributes;
	dst->max_attribute = Max(dst->max_attribute, src->max_attribute);
	dst->bytes_unknown |= src->bytes_unknown;
	dst->bytes += src->bytes;
	dst->resets += src->resets;
	dst->resets_empty += src->resets_empty;
	dst->allocs += src->allocs;
	dst->alloc_bytes += src->alloc_bytes;
	dst->peak_bytes = Max(dst->peak_bytes, src->peak_bytes);
}

/* dc_results_init creates the result memory and the per-relation table. */
static void
dc_results_init(void)
{
	HASHCTL		ctl;

	if (dc_cxt)
		return;
	dc_cxt = AllocSetContextCreate(TopMemoryContext, "deform_cache",
								   ALLOCSET_SMALL_SIZES);
	dc_last_cxt = AllocSetContextCreate(dc_cxt, "deform_cache last statement",
										ALLOCSET_SMALL_SIZES);
	ctl.keysize = sizeof(Oid);
	ctl.entrysize = sizeof(DCRelEntry);
	ctl.hcxt = dc_cxt;
	dc_relations = hash_create("deform_cache relations",
							   DC_RELATIONS_INIT_SIZE, &ctl,
							   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/*
 * dc_store keeps the counters of a finished, uninstrumented statement: as
 * the last statement's rows, and added to the per-relation totals.
 */
static void
dc_store(DCStatement *stmt)
{
	MemoryContext oldcxt;

	dc_results_init();
	MemoryContextReset(dc_last_cxt);
	oldcxt = MemoryContextSwitchTo(dc_last_cxt);
	dc_last = palloc0(sizeof(DCNodeResult) * stmt->nnodes);
	dc_nlast = stmt->nnodes;

	for (int i = 0; i < stmt->nnodes; i++)
	{
		DCNode	   *node = stmt->nodes[i];
		DCNodeResult *r = &dc_last[i];
		bool		is_scan;

		r->node_id = node->node_id;
		r->parent_id = node->parent_id;
		if (IsA(node->ps->plan, CustomScan))
		{
			CustomScan *cscan = (CustomScan *) node->ps->plan;

			r->node_type = psprintf("Custom Scan (%s)",
									cscan->methods->CustomName);
		}
		else
			r->node_type = pstrdup(DCNodeTypeName(node->ps->plan, &is_scan));
		r->relid = node->relid;
		r->amoid = node->amoid;
		if (node->slot_mixed)
			r->slot_type = "mixed";
		else if (node->slot_ops)
			r->slot_type = dc_slot_type_name(node->slot_ops);
		r->jit_deform = stmt->jit_deform;
		r->c = node->c;
	}
	MemoryContextSwitchTo(oldcxt);

	/* per-relation totals; a relation scanned twice counts one statement */
	for (int i = 0; i < stmt->nnodes; i++)
	{
		DCNode	   *node = stmt->nodes[i];
		DCRelEntry *entry;
		bool		found;
		bool		first = true;

		if (!OidIsValid(node->relid))
			continue;
		for (int j = 0; j < i; j++)
			if (stmt->nodes[j]->relid == node->relid)
				first = false;
		entry = hash_search(dc_relations, &node->relid, HASH_ENTER, &found);
		if (!found)
		{
			memset(&entry->c, 0, sizeof(DCCounters));
			entry->statements = 0;
			entry->scans = 0;
		}
		entry->amoid = node->amoid;
		if (first)
			entry->statements++;
		entry->scans++;
		dc_counters_add(&entry->c, &node->c);
	}
}


/* ----------------------------------------------------------------
 *		Executor hooks
 * ----------------------------------------------------------------
 */

/*
 * dc_ExecutorStart instruments a top-level statement while tracking is on
 * and no other statement is instrumented.
 */
static void
dc_ExecutorStart(QueryDesc *queryDesc, int eflags)
{
	if (prev_ExecutorStart)
		prev_ExecutorStart(queryDesc, eflags);
	else
		standard_ExecutorStart(queryDesc, eflags);

	if (dc_track && dc_nesting_level == 0 && dc_active == NULL &&
		!IsParallelWorker() &&
		(eflags & EXEC_FLAG_EXPLAIN_ONLY) == 0 &&
		queryDesc->planstate != NULL)
		DCInstrument(queryDesc);
}

/* the two executor steps that run a statement's plan */
typedef enum DCStep
{
	DC_STEP_RUN,				/* ExecutorRun */
	DC_STEP_FINISH				/* ExecutorFinish (AFTER triggers run here) */
} DCStep;

/* the arguments of ExecutorRun, unused by ExecutorFinish */
typedef struct DCRunArgs
{
	ScanDirection direction;
	uint64		count;
#if PG_VERSION_NUM < 180000
	bool		execute_once;
#endif
} DCRunArgs;

/* dc_call_step calls the previous hook of step, or the standard routine. */
static void
dc_call_step(DCStep step, QueryDesc *queryDesc, const DCRunArgs *args)
{
	if (step == DC_STEP_RUN)
	{
		if (prev_ExecutorRun)
			prev_ExecutorRun(DC_RUN_PASS(args));
		else
			standard_ExecutorRun(DC_RUN_PASS(args));
	}
	else if (prev_ExecutorFinish)
		prev_ExecutorFinish(queryDesc);
	else
		standard_ExecutorFinish(queryDesc);
}

/*
 * dc_nested_step runs step one executor nesting level deeper, so that the
 * statements it runs (functions, triggers) are not instrumented.  While the
 * instrumented statement's own step runs, the statement is marked running
 * and, for ExecutorRun, its DestReceiver is proxied; both are undone however
 * the step ends.  With tracking off and nothing instrumented, it only calls
 * the step.
 */
static void
dc_nested_step(DCStep step, QueryDesc *queryDesc, const DCRunArgs *args)
{
	DCStatement *stmt = dc_active;
	DestReceiver *dest = queryDesc->dest;
	bool		mine = stmt != NULL && stmt->queryDesc == queryDesc;

	if (!dc_track && stmt == NULL)
	{
		dc_call_step(step, queryDesc, args);
		return;
	}

	if (mine)
	{
		if (step == DC_STEP_RUN)
			DCProxyDest(stmt, queryDesc);
		stmt->running = true;
	}
	dc_nesting_level++;
	PG_TRY();
	{
		dc_call_step(step, queryDesc, args);
	}
	PG_FINALLY();
	{
		dc_nesting_level--;
		if (step == DC_STEP_RUN)
			queryDesc->dest = dest;
		if (mine)
			stmt->running = false;
	}
	PG_END_TRY();
}

/*
 * dc_ExecutorRun runs the plan one nesting level deeper, with the
 * instrumented statement's DestReceiver proxied (dc_nested_step).
 */
static void
dc_ExecutorRun(DC_RUN_ARGS)
{
#if PG_VERSION_NUM >= 180000
	DCRunArgs	args = {direction, count};
#else
	DCRunArgs	args = {direction, count, execute_once};
#endif

	dc_nested_step(DC_STEP_RUN, queryDesc, &args);
}

/*
 * dc_ExecutorFinish finishes the plan one nesting level deeper
 * (dc_nested_step).
 */
static void
dc_ExecutorFinish(QueryDesc *queryDesc)
{
	dc_nested_step(DC_STEP_FINISH, queryDesc, NULL);
}

/*
 * dc_ExecutorEnd uninstruments the statement before its executor state is
 * freed, and keeps its counters unless it read them.
 */
static void
dc_ExecutorEnd(QueryDesc *queryDesc)
{
	DCStatement *stmt = dc_active;

	if (stmt && stmt->queryDesc == queryDesc)
	{
		EState	   *estate = queryDesc->estate;

		/* es_jit exists once an expression was actually compiled */
		stmt->jit_deform = estate->es_jit != NULL &&
			(estate->es_jit_flags & PGJIT_EXPR) &&
			(estate->es_jit_flags & PGJIT_DEFORM);
		DCUninstrument(stmt);
		if (!stmt->readout)
			dc_store(stmt);
	}

	if (prev_ExecutorEnd)
		prev_ExecutorEnd(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
}


/*
 * dc_xact_callback is the backstop at abort: nothing of an aborted statement
 * may stay instrumented.
 */
static void
dc_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
	{
		if (dc_active)
			DCUninstrument(dc_active);
		dc_nesting_level = 0;
	}
}


/* ----------------------------------------------------------------
 *		SQL functions
 * ----------------------------------------------------------------
 */

PG_FUNCTION_INFO_V1(deform_cache_last_1_0);
PG_FUNCTION_INFO_V1(deform_cache_relations_1_0);
PG_FUNCTION_INFO_V1(deform_cache_reset_1_0);
PG_FUNCTION_INFO_V1(deform_cache_info_1_0);

/*
 * dc_mark_readout marks the instrumented statement as one that read our
 * counters: a statement that reads them does not replace them.  The caller is
 * the instrumented statement (or nested in it) only while that one runs; an
 * instrumented cursor between two fetches is left alone.
 */
static void
dc_mark_readout(void)
{
	if (dc_active && dc_active->running)
		dc_active->readout = true;
}

/*
 * dc_counters_values fills values/nulls from counters, starting at column i,
 * and returns the next column.
 */
static int
dc_counters_values(const DCCounters *c, Datum *values, bool *nulls, int i)
{
	values[i++] = Int64GetDatum(c->deform_calls);
	values[i++] = Int64GetDatum(c->tuples);
	values[i++] = Int64GetDatum(c->attributes);
	values[i++] = Int32GetDatum(c->max_attribute);
	if (c->bytes_unknown)
		nulls[i++] = true;
	else
		values[i++] = Int64GetDatum(c->bytes);
	values[i++] = Int64GetDatum(c->resets);
	values[i++] = Int64GetDatum(c->resets_empty);
	values[i++] = Int64GetDatum(c->allocs);
	values[i++] = Int64GetDatum(c->alloc_bytes);
	values[i++] = Int64GetDatum(c->peak_bytes);
	return i;
}

/*
 * dc_relation_values fills the relid and access method columns, starting at
 * column i (NULL for a node that scans no relation), and returns the next
 * column.
 */
static int
dc_relation_values(Oid relid, Oid amoid, Datum *values, bool *nulls, int i)
{
	char	   *amname = OidIsValid(amoid) ? get_am_name(amoid) : NULL;

	if (OidIsValid(relid))
		values[i++] = ObjectIdGetDatum(relid);
	else
		nulls[i++] = true;
	if (amname)
		values[i++] = CStringGetTextDatum(amname);
	else
		nulls[i++] = true;
	return i;
}

/*
 * dc_put_row fills the counter columns from column i on, checks that this
 * makes ncols columns, and stores the row in rsinfo's tuplestore.
 */
static void
dc_put_row(ReturnSetInfo *rsinfo, const DCCounters *c, Datum *values,
		   bool *nulls, int i, int ncols)
{
	i = dc_counters_values(c, values, nulls, i);
	Assert(i == ncols);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * deform_cache_last() RETURNS SETOF record
 *
 * One row per plan node of the last statement counted, in EXPLAIN order.
 */
Datum
deform_cache_last_1_0(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	dc_mark_readout();
	InitMaterializedSRF(fcinfo, 0);

	for (int n = 0; n < dc_nlast; n++)
	{
		DCNodeResult *r = &dc_last[n];
		Datum		values[DC_LAST_COLS_V1_0] = {0};
		bool		nulls[DC_LAST_COLS_V1_0] = {0};
		int			i = 0;

		values[i++] = Int32GetDatum(r->node_id);
		if (r->parent_id < 0)
			nulls[i++] = true;
		else
			values[i++] = Int32GetDatum(r->parent_id);
		values[i++] = CStringGetTextDatum(r->node_type);
		i = dc_relation_values(r->relid, r->amoid, values, nulls, i);
		if (r->slot_type)
			values[i++] = CStringGetTextDatum(r->slot_type);
		else
			nulls[i++] = true;
		values[i++] = BoolGetDatum(r->jit_deform);
		dc_put_row(rsinfo, &r->c, values, nulls, i, DC_LAST_COLS_V1_0);
	}
	return (Datum) 0;
}

/*
 * deform_cache_relations() RETURNS SETOF record
 *
 * Totals per relation over the statements counted since the last reset.
 */
Datum
deform_cache_relations_1_0(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	HASH_SEQ_STATUS hs;
	DCRelEntry *entry;

	dc_mark_readout();
	InitMaterializedSRF(fcinfo, 0);
	if (dc_relations == NULL)
		return (Datum) 0;

	hash_seq_init(&hs, dc_relations);
	while ((entry = hash_seq_search(&hs)) != NULL)
	{
		Datum		values[DC_RELATIONS_COLS_V1_0] = {0};
		bool		nulls[DC_RELATIONS_COLS_V1_0] = {0};
		int			i = 0;

		i = dc_relation_values(entry->relid, entry->amoid, values, nulls, i);
		values[i++] = Int64GetDatum(entry->statements);
		values[i++] = Int64GetDatum(entry->scans);
		dc_put_row(rsinfo, &entry->c, values, nulls, i,
				   DC_RELATIONS_COLS_V1_0);
	}
	return (Datum) 0;
}

/*
 * deform_cache_reset() RETURNS void
 *
 * Forget the last statement and the per-relation totals of this backend.
 */
Datum
deform_cache_reset_1_0(PG_FUNCTION_ARGS)
{
	dc_mark_readout();
	if (dc_cxt)
	{
		MemoryContextReset(dc_last_cxt);
		dc_last = NULL;
		dc_nlast = 0;
		hash_destroy(dc_relations);
		dc_relations = NULL;
		MemoryContextDelete(dc_cxt);
		dc_cxt = NULL;
		dc_last_cxt = NULL;
	}
	PG_RETURN_VOID();
}

/*
 * deform_cache_info(OUT tracking boolean, OUT instrumented_statements integer)
 *
 * Whether tracking is on, and how many statements are instrumented right
 * now (0 or 1; 1 when the calling statement itself is).
 */
Datum
deform_cache_info_1_0(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[DC_INFO_COLS_V1_0];
	bool		nulls[DC_INFO_COLS_V1_0] = {0};

	dc_mark_readout();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	Assert(tupdesc->natts == DC_INFO_COLS_V1_0);

	values[0] = BoolGetDatum(dc_track);
	values[1] = Int32GetDatum(dc_active ? 1 : 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
