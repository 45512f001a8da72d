/*-------------------------------------------------------------------------
 *
 * deform_cache.c
 *	  Tuple-deform and memory-context counters per plan node and relation.
 *
 * When deform_cache.track is on, the executor hooks instrument every plan
 * node of each top-level statement and count two things:
 *
 * 1. Attribute extraction ("deform"): how many times a slot's tts_nvalid
 *	  grew, how many tuples and attributes that covered, the highest attribute
 *	  reached and, for heap and minimal tuples, how many bytes of tuple data
 *	  were walked.  Each count is charged to the plan node that owns the slot
 *	  (its scan slot or result slot), whoever did the deforming.
 *
 * 2. The per-tuple memory context of each node's ExprContext: reset requests,
 *	  requests that found nothing to free, allocations, bytes and the peak
 *	  between two resets.
 *
 * Why not wrap the slots' TupleTableSlotOps, as the design note proposed?
 * Because PostgreSQL 15 identifies slot types by the address of their ops:
 * ExecStoreBufferHeapTuple, ExecStoreHeapTuple and ExecStoreMinimalTuple
 * raise "wrong type of slot" unless slot->tts_ops is exactly &TTSOpsXxx, so a
 * per-slot copy of the ops breaks every heap scan on its first tuple.  We
 * watch tts_nvalid instead, around the two places tuples get deformed from:
 *
 *	- every ExprState of a node that fetches attributes (qual, projection,
 *	  join quals, hash keys, aggregate transition input, ...):
 *	  ExprState.evalfunc is replaced by dc_eval, which reads tts_nvalid of the
 *	  expression context slots the expression fetches from (scan, outer,
 *	  inner) before and after calling the original.  This works for
 *	  any slot type (pax's too) and also sees JIT-compiled deform, which
 *	  updates tts_nvalid like slot_getsomeattrs does.
 *	- the statement's DestReceiver (client output, COPY TO, CREATE TABLE AS,
 *	  a tuplestore): a proxy receiver does the same around receiveSlot.
 *
 * Deforms done by C code outside expressions (hashed aggregation's grouping
 * keys, merge join's keys, ModifyTable, ...) are not seen; README.md lists
 * exactly what is and is not counted.
 *
 * Per-tuple contexts are wrapped by giving the context a private copy of its
 * MemoryContextMethods whose alloc, realloc, reset and delete_context count
 * and call the original.  MemoryContextReset() skips the reset method when
 * the context's isReset flag says nothing was allocated since the last
 * reset, which would hide exactly the empty resets we want to count.  So each
 * wrapped context gets a childless "sentinel" child: MemoryContextReset()
 * deletes children first, the sentinel's delete_context clears isReset, the
 * reset method therefore always runs, counts, skips the real reset when we
 * know nothing was allocated (as PostgreSQL would have), and re-attaches the
 * sentinel.
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

#include <sys/stat.h>

#include "access/parallel.h"
#include "access/xact.h"
#include "commands/defrem.h"
#include "executor/execExpr.h"
#include "executor/executor.h"
#include "executor/nodeAgg.h"
#include "fmgr.h"
#include "funcapi.h"
#include "jit/jit.h"
#include "miscadmin.h"
#include "nodes/extensible.h"
#include "nodes/memnodes.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/hsearch.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "deform_cache.h"

PG_MODULE_MAGIC;

/* columns of the SQL functions (the Asserts check the 1.0 script agrees) */
#define DC_LAST_COLS_V1_0		17
#define DC_RELATIONS_COLS_V1_0	14
#define DC_INFO_COLS_V1_0		2

/* slot types that can be named (built-in ones plus registered ones) */
#define DC_MAX_SLOT_TYPES		16

/*---- counters ----*/

typedef struct DCCounters
{
	/* attribute extraction */
	int64		deform_calls;	/* times a slot's tts_nvalid grew */
	int64		tuples;			/* ... starting from tts_nvalid = 0 */
	int64		attributes;		/* sum of tts_nvalid growth */
	int32		max_attribute;	/* highest tts_nvalid reached */
	bool		bytes_unknown;	/* a slot type without a known offset */
	int64		bytes;			/* tuple data walked, heap/minimal slots */
	/* per-tuple memory context */
	int64		resets;			/* reset requests */
	int64		resets_empty;	/* ... with nothing allocated since last */
	int64		allocs;			/* palloc and repalloc calls */
	int64		alloc_bytes;	/* sum of requested sizes */
	int64		peak_bytes;		/* most requested between two resets */
} DCCounters;

/*---- per-statement instrumentation (lives in es_query_cxt) ----*/

struct DCStatement;

/* one plan node */
typedef struct DCNode
{
	PlanState  *ps;
	int			node_id;		/* Plan.plan_node_id */
	int			parent_id;		/* -1 for the root */
	Oid			relid;			/* scanned relation, or InvalidOid */
	Oid			amoid;			/* its access method */
	TupleTableSlot *own[2];		/* scan slot, result slot (may be NULL) */
	struct DCNode *near[3];		/* self, outer and inner child */
	const TupleTableSlotOps *slot_ops;	/* type of the slots deformed */
	bool		slot_mixed;		/* ... if more than one type */
	DCCounters	c;
} DCNode;

/* the last slot a deformer charged, and its owner (slots never move) */
typedef struct DCOwnerCache
{
	TupleTableSlot *slot;
	DCNode	   *owner;
} DCOwnerCache;

/* one wrapped ExprState */
typedef struct DCExpr
{
	ExprState  *state;
	ExprStateEvalFunc orig;		/* the evalfunc we call */
	DCNode	   *node;			/* the node that evaluates it */
	int			nslots;			/* how many expression context slots ... */
	uint16		slotoff[3];		/* ... it reads, by offset in ExprContext */
	DCOwnerCache cache;
} DCExpr;

/* the slot of an ExprContext at offset off */
#define DC_ECXT_SLOT(econtext, off) \
	(*(TupleTableSlot **) ((char *) (econtext) + (off)))

/* one wrapped per-tuple memory context */
typedef struct DCContext
{
	MemoryContextMethods methods;	/* first: cxt->methods points here */
	const MemoryContextMethods *orig;
	MemoryContext cxt;
	DCNode	   *node;
	Size		since_reset;	/* bytes requested since the last reset */
	bool		dirty;			/* allocated since the last reset */
	bool		dead;			/* context deleted, methods restored */
	bool		sentinel_attached;
	MemoryContextData sentinel; /* childless child, see file header */
	struct DCContext *next;
} DCContext;

/* proxy of the statement's DestReceiver during ExecutorRun */
typedef struct DCDest
{
	DestReceiver pub;			/* first: passed as self */
	DestReceiver *orig;
	struct DCStatement *stmt;
	DCOwnerCache cache;
} DCDest;

typedef struct DCStatement
{
	QueryDesc  *queryDesc;
	int			nnodes;
	DCNode	  **nodes;			/* in EXPLAIN order; nodes[0] is the root */
	DCExpr	  **hash;			/* open addressing on ExprState address */
	uint32		hashmask;
	DCContext  *contexts;
	bool		jit_deform;		/* expressions were JIT-compiled with deform */
	bool		running;		/* inside its ExecutorRun or ExecutorFinish */
	bool		readout;		/* ran one of our SQL functions */
	DCNode	   *report_last;	/* node DeformCacheReportRead last charged */
	DCDest		dest;
	MemoryContextCallback on_delete;
} DCStatement;

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
static DCStatement *dc_active = NULL;

static MemoryContext dc_cxt = NULL; /* results */
static MemoryContext dc_last_cxt = NULL;	/* the last statement's rows */
static DCNodeResult *dc_last = NULL;
static int	dc_nlast = 0;
static HTAB *dc_relations = NULL;

static DCSlotType dc_slot_types[DC_MAX_SLOT_TYPES];
static int	dc_nslot_types = 0;

void		_PG_init(void);

static void dc_ExecutorStart(QueryDesc *queryDesc, int eflags);
static void dc_ExecutorRun(QueryDesc *queryDesc, ScanDirection direction,
						   uint64 count, bool execute_once);
static void dc_ExecutorFinish(QueryDesc *queryDesc);
static void dc_ExecutorEnd(QueryDesc *queryDesc);
static void dc_xact_callback(XactEvent event, void *arg);

static Datum dc_eval(ExprState *state, ExprContext *econtext, bool *isNull);

static void *dc_cxt_alloc(MemoryContext context, Size size);
static void *dc_cxt_realloc(MemoryContext context, void *pointer, Size size);
static void dc_cxt_reset(MemoryContext context);
static void dc_cxt_delete(MemoryContext context);

static void *dc_sentinel_alloc(MemoryContext context, Size size);
static void dc_sentinel_free(MemoryContext context, void *pointer);
static void *dc_sentinel_realloc(MemoryContext context, void *pointer,
								 Size size);
static void dc_sentinel_reset(MemoryContext context);
static void dc_sentinel_delete(MemoryContext context);
static Size dc_sentinel_chunk_space(MemoryContext context, void *pointer);
static bool dc_sentinel_is_empty(MemoryContext context);
static void dc_sentinel_stats(MemoryContext context,
							  MemoryStatsPrintFunc printfunc, void *passthru,
							  MemoryContextCounters *totals,
							  bool print_to_stderr);
#ifdef MEMORY_CONTEXT_CHECKING
static void dc_sentinel_check(MemoryContext context);
#endif

static const MemoryContextMethods dc_sentinel_methods = {
	dc_sentinel_alloc,
	dc_sentinel_free,
	dc_sentinel_realloc,
	dc_sentinel_reset,
	dc_sentinel_delete,
	dc_sentinel_chunk_space,
	dc_sentinel_is_empty,
	dc_sentinel_stats
#ifdef MEMORY_CONTEXT_CHECKING
	,dc_sentinel_check
#endif
};


/*
 * Module load: define the GUC, remember the built-in slot types, install
 * the hooks.
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

	/* scans that form rows without deforming report through this */
	*find_rendezvous_variable(DEFORM_CACHE_REPORT_READ) =
		(void *) DeformCacheReportRead;

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
 * DeformCacheReportRead counts a row that a scan node formed by reading
 * natts columns (the highest being max_attno) straight from its storage,
 * without deforming a tuple: PaxScan reports its projected columns this
 * way, as one deform call of natts attributes.  Callable from other
 * modules through the rendezvous variable DEFORM_CACHE_REPORT_READ; it
 * costs a comparison when no statement is instrumented.
 */
void
DeformCacheReportRead(PlanState *ps, int natts, int max_attno)
{
	DCStatement *stmt = dc_active;
	DCNode	   *node = NULL;
	DCCounters *c;

	if (likely(stmt == NULL) || !stmt->running)
		return;
	/* the cache lives in the statement: nodes die with their statement */
	if (stmt->report_last != NULL && stmt->report_last->ps == ps)
		node = stmt->report_last;
	else
	{
		for (int i = 0; i < stmt->nnodes; i++)
			if (stmt->nodes[i]->ps == ps)
			{
				node = stmt->nodes[i];
				break;
			}
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
 * Return the registered name of a slot type, or "other".
 *
 * The first unknown slot type makes us look for pax_am's slot type, which
 * is in the same bundle: if pax_am is installed, its TTSOpsPaxTuple is
 * named "PaxTuple" (pax_am does not depend on deform_cache being loaded).
 */
static const char *
dc_slot_type_name(const TupleTableSlotOps *ops)
{
	static bool pax_looked_up = false;

	for (int i = 0; i < dc_nslot_types; i++)
		if (dc_slot_types[i].ops == ops)
			return dc_slot_types[i].name;
	if (!pax_looked_up)
	{
		char		path[MAXPGPATH];
		struct stat st;
		void	   *paxops = NULL;

		pax_looked_up = true;
		get_pkglib_path(my_exec_path, path);
		strlcat(path, "/pax_am" DLSUFFIX, sizeof(path));
		if (stat(path, &st) == 0)
			paxops = (void *) load_external_function(path, "TTSOpsPaxTuple",
													 false, NULL);
		if (paxops)
		{
			DeformCacheRegisterSlotOps((const TupleTableSlotOps *) paxops,
									   "PaxTuple");
			return dc_slot_type_name(ops);
		}
	}
	return "other";
}


/* ----------------------------------------------------------------
 *		Counting deforms
 * ----------------------------------------------------------------
 */

/*
 * Return where slot_deform_heap_tuple (or JIT deform) stopped in the tuple
 * data, or -1 for slot types whose deform position we cannot see.
 */
static inline int64
dc_slot_offset(TupleTableSlot *slot)
{
	if (slot->tts_ops == &TTSOpsBufferHeapTuple ||
		slot->tts_ops == &TTSOpsHeapTuple)
		return ((HeapTupleTableSlot *) slot)->off;
	if (slot->tts_ops == &TTSOpsMinimalTuple)
		return ((MinimalTupleTableSlot *) slot)->off;
	return -1;
}

/* Return the node that owns slot: near nodes first, then any node. */
static DCNode *
dc_slot_owner(DCStatement *stmt, DCNode *node, TupleTableSlot *slot)
{
	for (int i = 0; i < 3; i++)
	{
		DCNode	   *n = node->near[i];

		if (n && (n->own[0] == slot || n->own[1] == slot))
			return n;
	}
	for (int i = 0; i < stmt->nnodes; i++)
	{
		DCNode	   *n = stmt->nodes[i];

		if (n->own[0] == slot || n->own[1] == slot)
			return n;
	}
	return node;
}

/*
 * Charge the growth of slot's tts_nvalid from nvalid/offset (read before the
 * deforming call) to the slot's owner; node is the node that deformed it,
 * cache its memory of the last owner it looked up.
 */
static inline void
dc_count_deform(DCStatement *stmt, DCNode *node, DCOwnerCache *cache,
				TupleTableSlot *slot, AttrNumber nvalid, int64 offset)
{
	DCNode	   *owner;
	DCCounters *c;
	int64		after = dc_slot_offset(slot);

	if (likely(cache->slot == slot))
		owner = cache->owner;
	else
	{
		owner = dc_slot_owner(stmt, node, slot);
		cache->slot = slot;
		cache->owner = owner;
	}
	c = &owner->c;

	c->deform_calls++;
	if (nvalid == 0)
		c->tuples++;
	c->attributes += slot->tts_nvalid - nvalid;
	if (slot->tts_nvalid > c->max_attribute)
		c->max_attribute = slot->tts_nvalid;
	if (after < 0)
		c->bytes_unknown = true;
	else
		c->bytes += after - (nvalid == 0 ? 0 : offset);

	if (owner->slot_ops == NULL)
		owner->slot_ops = slot->tts_ops;
	else if (owner->slot_ops != slot->tts_ops)
		owner->slot_mixed = true;
}

/* Find the DCExpr of a wrapped ExprState of the active statement. */
static inline DCExpr *
dc_expr_lookup(DCStatement *stmt, ExprState *state)
{
	uint32		h = (uint32) (((uintptr_t) state >> 3) * 0x9E3779B1u);

	if (likely(stmt != NULL))
	{
		for (uint32 i = 0; i <= stmt->hashmask; i++, h++)
		{
			DCExpr	   *e = stmt->hash[h & stmt->hashmask];

			if (likely(e != NULL && e->state == state))
				return e;
			if (e == NULL)
				break;
		}
	}
	elog(ERROR, "deform_cache: expression is not instrumented");
	return NULL;				/* keep compiler quiet */
}

/* Call the original evalfunc; adopt and rewrap a replacement it installs. */
static inline Datum
dc_eval_orig(DCExpr *e, ExprState *state, ExprContext *econtext, bool *isNull)
{
	Datum		result = e->orig(state, econtext, isNull);

	if (unlikely(state->evalfunc != dc_eval))
	{
		e->orig = state->evalfunc;
		state->evalfunc = dc_eval;
	}
	return result;
}

/* dc_eval for expressions that read more than one slot (joins). */
static pg_noinline Datum
dc_eval_slots(DCStatement *stmt, DCExpr *e, ExprState *state,
			  ExprContext *econtext, bool *isNull)
{
	TupleTableSlot *slot[3];
	AttrNumber	nvalid[3];
	int64		offset[3];
	Datum		result;

	for (int i = 0; i < e->nslots; i++)
	{
		slot[i] = econtext ? DC_ECXT_SLOT(econtext, e->slotoff[i]) : NULL;
		if (slot[i] == NULL)
			continue;
		nvalid[i] = slot[i]->tts_nvalid;
		offset[i] = nvalid[i] > 0 ? dc_slot_offset(slot[i]) : 0;
	}

	result = dc_eval_orig(e, state, econtext, isNull);

	for (int i = 0; i < e->nslots; i++)
	{
		if (slot[i] == NULL || slot[i]->tts_nvalid <= nvalid[i])
			continue;
		/* the same slot in two roles is counted once */
		if ((i > 0 && slot[i] == slot[0]) || (i > 1 && slot[i] == slot[1]))
			continue;
		dc_count_deform(stmt, e->node, &e->cache, slot[i], nvalid[i],
						offset[i]);
	}
	return result;
}

/*
 * dc_eval is the evalfunc of every wrapped ExprState: call the original and
 * count how far the slots it fetches from (scan, outer or inner tuple of the
 * expression context) got deformed meanwhile.
 *
 * The original may replace state->evalfunc on its first call (interpreted
 * expressions check their validity once, JIT-compiled ones look up their
 * function once); we then adopt the replacement and wrap it again.
 */
static Datum
dc_eval(ExprState *state, ExprContext *econtext, bool *isNull)
{
	DCStatement *stmt = dc_active;
	DCExpr	   *e = dc_expr_lookup(stmt, state);
	TupleTableSlot *slot;
	AttrNumber	nvalid;
	int64		offset;
	Datum		result;

	if (unlikely(e->nslots != 1 || econtext == NULL))
		return dc_eval_slots(stmt, e, state, econtext, isNull);

	slot = DC_ECXT_SLOT(econtext, e->slotoff[0]);
	if (unlikely(slot == NULL))
		return dc_eval_orig(e, state, econtext, isNull);
	nvalid = slot->tts_nvalid;
	offset = nvalid > 0 ? dc_slot_offset(slot) : 0;

	result = dc_eval_orig(e, state, econtext, isNull);

	if (slot->tts_nvalid > nvalid)
		dc_count_deform(stmt, e->node, &e->cache, slot, nvalid, offset);
	return result;
}

/* The DestReceiver proxy: count what the receiver deforms. */
static bool
dc_receive_slot(TupleTableSlot *slot, DestReceiver *self)
{
	DCDest	   *d = (DCDest *) self;
	AttrNumber	nvalid = slot->tts_nvalid;
	int64		offset = nvalid > 0 ? dc_slot_offset(slot) : 0;
	bool		ok;

	ok = d->orig->receiveSlot(slot, d->orig);
	if (slot->tts_nvalid > nvalid)
		dc_count_deform(d->stmt, d->stmt->nodes[0], &d->cache, slot, nvalid,
						offset);
	return ok;
}

static void
dc_dest_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	DCDest	   *d = (DCDest *) self;

	d->orig->rStartup(d->orig, operation, typeinfo);
}

static void
dc_dest_shutdown(DestReceiver *self)
{
	DCDest	   *d = (DCDest *) self;

	d->orig->rShutdown(d->orig);
}

static void
dc_dest_destroy(DestReceiver *self)
{
	DCDest	   *d = (DCDest *) self;

	d->orig->rDestroy(d->orig);
}


/* ----------------------------------------------------------------
 *		Counting per-tuple memory context use
 * ----------------------------------------------------------------
 */

static inline DCContext *
dc_context_of(MemoryContext context)
{
	return (DCContext *) unconstify(MemoryContextMethods *, context->methods);
}

static inline void
dc_count_alloc(DCContext *w, Size size)
{
	DCCounters *c = &w->node->c;

	c->allocs++;
	c->alloc_bytes += size;
	w->since_reset += size;
	if ((int64) w->since_reset > c->peak_bytes)
		c->peak_bytes = w->since_reset;
	w->dirty = true;
}

static void *
dc_cxt_alloc(MemoryContext context, Size size)
{
	DCContext  *w = dc_context_of(context);

	dc_count_alloc(w, size);
	return w->orig->alloc(context, size);
}

static void *
dc_cxt_realloc(MemoryContext context, void *pointer, Size size)
{
	DCContext  *w = dc_context_of(context);

	dc_count_alloc(w, size);
	return w->orig->realloc(context, pointer, size);
}

/*
 * Count a reset; do the real reset only if something was allocated since
 * the last one (PostgreSQL would have skipped it too), then give the context
 * its sentinel back so the next MemoryContextReset() reaches us again.
 */
static void
dc_cxt_reset(MemoryContext context)
{
	DCContext  *w = dc_context_of(context);
	DCCounters *c = &w->node->c;

	c->resets++;
	if (w->dirty)
		w->orig->reset(context);
	else
		c->resets_empty++;
	w->dirty = false;
	w->since_reset = 0;
	if (!w->sentinel_attached)
	{
		MemoryContextSetParent(&w->sentinel, context);
		w->sentinel_attached = true;
	}
}

/* The context goes away (error path): restore its methods, then delete. */
static void
dc_cxt_delete(MemoryContext context)
{
	DCContext  *w = dc_context_of(context);

	context->methods = w->orig;
	w->dead = true;
	context->methods->delete_context(context);
}

/* The sentinel is deleted by MemoryContextReset/Delete of its parent. */
static void
dc_sentinel_delete(MemoryContext context)
{
	DCContext  *w = (DCContext *) ((char *) context -
								   offsetof(DCContext, sentinel));

	w->sentinel_attached = false;
	if (!w->dead)
		w->cxt->isReset = false;
}

static void *
dc_sentinel_alloc(MemoryContext context, Size size)
{
	elog(ERROR, "cannot allocate in the deform_cache sentinel context");
	return NULL;
}

static void
dc_sentinel_free(MemoryContext context, void *pointer)
{
	elog(ERROR, "cannot free in the deform_cache sentinel context");
}

static void *
dc_sentinel_realloc(MemoryContext context, void *pointer, Size size)
{
	elog(ERROR, "cannot reallocate in the deform_cache sentinel context");
	return NULL;
}

static void
dc_sentinel_reset(MemoryContext context)
{
	/* nothing is ever allocated in it */
}

static Size
dc_sentinel_chunk_space(MemoryContext context, void *pointer)
{
	elog(ERROR, "the deform_cache sentinel context has no chunks");
	return 0;
}

static bool
dc_sentinel_is_empty(MemoryContext context)
{
	return true;
}

static void
dc_sentinel_stats(MemoryContext context, MemoryStatsPrintFunc printfunc,
				  void *passthru, MemoryContextCounters *totals,
				  bool print_to_stderr)
{
	if (printfunc)
		printfunc(context, passthru, "0 total in 0 blocks", print_to_stderr);
}

#ifdef MEMORY_CONTEXT_CHECKING
static void
dc_sentinel_check(MemoryContext context)
{
}
#endif


/* ----------------------------------------------------------------
 *		Instrumenting a statement
 * ----------------------------------------------------------------
 */

/* Return the EXPLAIN name of a plan node (custom scans get theirs later). */
static const char *
dc_node_type(Plan *plan, bool *is_scan)
{
	*is_scan = false;
	switch (nodeTag(plan))
	{
		case T_Result:
			return "Result";
		case T_ProjectSet:
			return "ProjectSet";
		case T_ModifyTable:
			return "ModifyTable";
		case T_Append:
			return "Append";
		case T_MergeAppend:
			return "Merge Append";
		case T_RecursiveUnion:
			return "Recursive Union";
		case T_BitmapAnd:
			return "BitmapAnd";
		case T_BitmapOr:
			return "BitmapOr";
		case T_NestLoop:
			return "Nested Loop";
		case T_MergeJoin:
			return "Merge Join";
		case T_HashJoin:
			return "Hash Join";
		case T_Material:
			return "Materialize";
		case T_Memoize:
			return "Memoize";
		case T_Sort:
			return "Sort";
		case T_IncrementalSort:
			return "Incremental Sort";
		case T_Group:
			return "Group";
		case T_Agg:
			switch (((Agg *) plan)->aggstrategy)
			{
				case AGG_SORTED:
					return "GroupAggregate";
				case AGG_HASHED:
					return "HashAggregate";
				case AGG_MIXED:
					return "MixedAggregate";
				default:
					return "Aggregate";
			}
		case T_WindowAgg:
			return "WindowAgg";
		case T_Unique:
			return "Unique";
		case T_Gather:
			return "Gather";
		case T_GatherMerge:
			return "Gather Merge";
		case T_Hash:
			return "Hash";
		case T_SetOp:
			return "SetOp";
		case T_LockRows:
			return "LockRows";
		case T_Limit:
			return "Limit";
		default:
			break;
	}

	*is_scan = true;
	switch (nodeTag(plan))
	{
		case T_SeqScan:
			return "Seq Scan";
		case T_SampleScan:
			return "Sample Scan";
		case T_IndexScan:
			return "Index Scan";
		case T_IndexOnlyScan:
			return "Index Only Scan";
		case T_BitmapIndexScan:
			return "Bitmap Index Scan";
		case T_BitmapHeapScan:
			return "Bitmap Heap Scan";
		case T_TidScan:
			return "Tid Scan";
		case T_TidRangeScan:
			return "Tid Range Scan";
		case T_SubqueryScan:
			return "Subquery Scan";
		case T_FunctionScan:
			return "Function Scan";
		case T_ValuesScan:
			return "Values Scan";
		case T_TableFuncScan:
			return "Table Function Scan";
		case T_CteScan:
			return "CTE Scan";
		case T_NamedTuplestoreScan:
			return "Named Tuplestore Scan";
		case T_WorkTableScan:
			return "WorkTable Scan";
		case T_ForeignScan:
			return "Foreign Scan";
		case T_CustomScan:
			return "Custom Scan";
		default:
			break;
	}
	*is_scan = false;
	return "???";
}

/* state of the plan tree walk */
typedef struct DCBuild
{
	DCStatement *stmt;
	List	   *nodes;			/* DCNode * */
	List	   *exprs;			/* DCExpr * */
	int			parent_id;
} DCBuild;

/*
 * Find the expression context slots evaluating e->state can deform: those of
 * its EEOP_*_FETCHSOME steps, all three for a whole-row Var.  Set e->nslots
 * (0 if it never deforms) and e->slotoff.
 */
static void
dc_expr_slots(DCExpr *e)
{
	ExprState  *state = e->state;
	bool		scan = false;
	bool		outer = false;
	bool		inner = false;

	for (int i = 0; i < state->steps_len; i++)
	{
		switch (ExecEvalStepOp(state, &state->steps[i]))
		{
			case EEOP_SCAN_FETCHSOME:
				scan = true;
				break;
			case EEOP_OUTER_FETCHSOME:
				outer = true;
				break;
			case EEOP_INNER_FETCHSOME:
				inner = true;
				break;
			case EEOP_WHOLEROW:
				scan = outer = inner = true;
				break;
			default:
				break;
		}
	}
	e->nslots = 0;
	if (scan)
		e->slotoff[e->nslots++] = offsetof(ExprContext, ecxt_scantuple);
	if (outer)
		e->slotoff[e->nslots++] = offsetof(ExprContext, ecxt_outertuple);
	if (inner)
		e->slotoff[e->nslots++] = offsetof(ExprContext, ecxt_innertuple);
}

/*
 * Wrap one ExprState of node.  NULL ones, already wrapped ones and those
 * that never deform (no wrapper cost for them) are skipped.
 */
static void
dc_wrap_expr(DCBuild *b, DCNode *node, ExprState *state)
{
	DCExpr	   *e;

	if (state == NULL || state->evalfunc == dc_eval)
		return;
	e = palloc0(sizeof(DCExpr));
	e->state = state;
	dc_expr_slots(e);
	if (e->nslots == 0)
	{
		pfree(e);
		return;
	}
	e->orig = state->evalfunc;
	e->node = node;
	state->evalfunc = dc_eval;
	b->exprs = lappend(b->exprs, e);
}

static void
dc_wrap_expr_list(DCBuild *b, DCNode *node, List *states)
{
	ListCell   *lc;

	foreach(lc, states)
		dc_wrap_expr(b, node, (ExprState *) lfirst(lc));
}

/* Wrap every ExprState the executor evaluates for a plan node. */
static void
dc_wrap_node_exprs(DCBuild *b, DCNode *node)
{
	PlanState  *ps = node->ps;

	dc_wrap_expr(b, node, ps->qual);
	if (ps->ps_ProjInfo)
		dc_wrap_expr(b, node, &ps->ps_ProjInfo->pi_state);

	switch (nodeTag(ps))
	{
		case T_NestLoopState:
		case T_MergeJoinState:
			dc_wrap_expr(b, node, ((JoinState *) ps)->joinqual);
			break;
		case T_HashJoinState:
			dc_wrap_expr(b, node, ((JoinState *) ps)->joinqual);
			dc_wrap_expr(b, node, ((HashJoinState *) ps)->hashclauses);
			dc_wrap_expr_list(b, node, ((HashJoinState *) ps)->hj_OuterHashKeys);
			break;
		case T_HashState:
			dc_wrap_expr_list(b, node, ((HashState *) ps)->hashkeys);
			break;
		case T_AggState:
			{
				AggState   *agg = (AggState *) ps;

				for (int i = 0; i < agg->numphases; i++)
					dc_wrap_expr(b, node, agg->phases[i].evaltrans);
				break;
			}
		case T_IndexScanState:
			dc_wrap_expr(b, node, ((IndexScanState *) ps)->indexqualorig);
			break;
		case T_IndexOnlyScanState:
			dc_wrap_expr(b, node, ((IndexOnlyScanState *) ps)->recheckqual);
			break;
		case T_BitmapHeapScanState:
			dc_wrap_expr(b, node, ((BitmapHeapScanState *) ps)->bitmapqualorig);
			break;
		case T_ResultState:
			dc_wrap_expr(b, node, ((ResultState *) ps)->resconstantqual);
			break;
		case T_GroupState:
			dc_wrap_expr(b, node, ((GroupState *) ps)->eqfunction);
			break;
		case T_UniqueState:
			dc_wrap_expr(b, node, ((UniqueState *) ps)->eqfunction);
			break;
		case T_WindowAggState:
			dc_wrap_expr(b, node, ((WindowAggState *) ps)->partEqfunction);
			dc_wrap_expr(b, node, ((WindowAggState *) ps)->ordEqfunction);
			break;
		default:
			break;
	}
}

/* Wrap the per-tuple memory context of node's ExprContext. */
static void
dc_wrap_context(DCStatement *stmt, DCNode *node)
{
	MemoryContext cxt;
	DCContext  *w;

	if (node->ps->ps_ExprContext == NULL)
		return;
	cxt = node->ps->ps_ExprContext->ecxt_per_tuple_memory;
	/* two nodes sharing an ExprContext: the first one gets the counts */
	if (cxt->methods->alloc == dc_cxt_alloc)
		return;

	w = palloc0(sizeof(DCContext));
	w->methods = *cxt->methods;
	w->methods.alloc = dc_cxt_alloc;
	w->methods.realloc = dc_cxt_realloc;
	w->methods.reset = dc_cxt_reset;
	w->methods.delete_context = dc_cxt_delete;
	w->orig = cxt->methods;
	w->cxt = cxt;
	w->node = node;
	w->dirty = !cxt->isReset;
	MemoryContextCreate(&w->sentinel, T_AllocSetContext, &dc_sentinel_methods,
						cxt, "deform_cache sentinel");
	w->sentinel_attached = true;
	cxt->methods = &w->methods;
	cxt->isReset = false;
	w->next = stmt->contexts;
	stmt->contexts = w;
}

/* planstate_tree_walker callback: one DCNode per plan node, pre-order. */
static bool
dc_build_walker(PlanState *ps, void *context)
{
	DCBuild    *b = (DCBuild *) context;
	DCNode	   *node = palloc0(sizeof(DCNode));
	bool		is_scan;
	int			saved_parent = b->parent_id;
	bool		result;

	node->ps = ps;
	node->node_id = ps->plan->plan_node_id;
	node->parent_id = b->parent_id;
	(void) dc_node_type(ps->plan, &is_scan);
	if (is_scan)
	{
		ScanState  *ss = (ScanState *) ps;

		node->own[0] = ss->ss_ScanTupleSlot;
		if (ss->ss_currentRelation)
		{
			node->relid = RelationGetRelid(ss->ss_currentRelation);
			node->amoid = ss->ss_currentRelation->rd_rel->relam;
		}
	}
	node->own[1] = ps->ps_ResultTupleSlot;
	b->nodes = lappend(b->nodes, node);

	dc_wrap_node_exprs(b, node);
	dc_wrap_context(b->stmt, node);

	b->parent_id = node->node_id;
	result = planstate_tree_walker(ps, dc_build_walker, context);
	b->parent_id = saved_parent;
	return result;
}

/* Return the DCNode of a PlanState, or NULL. */
static DCNode *
dc_find_node(DCStatement *stmt, PlanState *ps)
{
	if (ps == NULL)
		return NULL;
	for (int i = 0; i < stmt->nnodes; i++)
		if (stmt->nodes[i]->ps == ps)
			return stmt->nodes[i];
	return NULL;
}

static void dc_statement_deleted(void *arg);

/*
 * Instrument the plan of queryDesc (after standard_ExecutorStart).  All
 * allocations go to es_query_cxt.
 */
static void
dc_instrument(QueryDesc *queryDesc)
{
	EState	   *estate = queryDesc->estate;
	MemoryContext oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);
	DCStatement *stmt = palloc0(sizeof(DCStatement));
	DCBuild		b;
	ListCell   *lc;
	int			i;
	uint32		size;

	stmt->queryDesc = queryDesc;

	b.stmt = stmt;
	b.nodes = NIL;
	b.exprs = NIL;
	b.parent_id = -1;
	dc_build_walker(queryDesc->planstate, &b);

	stmt->nnodes = list_length(b.nodes);
	stmt->nodes = palloc(sizeof(DCNode *) * stmt->nnodes);
	i = 0;
	foreach(lc, b.nodes)
		stmt->nodes[i++] = (DCNode *) lfirst(lc);
	for (i = 0; i < stmt->nnodes; i++)
	{
		DCNode	   *node = stmt->nodes[i];

		node->near[0] = node;
		node->near[1] = dc_find_node(stmt, outerPlanState(node->ps));
		node->near[2] = dc_find_node(stmt, innerPlanState(node->ps));
	}

	/* the ExprState lookup table, at most half full */
	for (size = 16; size < 2 * (uint32) list_length(b.exprs); size *= 2)
		;
	stmt->hash = palloc0(sizeof(DCExpr *) * size);
	stmt->hashmask = size - 1;
	foreach(lc, b.exprs)
	{
		DCExpr	   *e = (DCExpr *) lfirst(lc);
		uint32		h = (uint32) (((uintptr_t) e->state >> 3) * 0x9E3779B1u);

		while (stmt->hash[h & stmt->hashmask] != NULL)
			h++;
		stmt->hash[h & stmt->hashmask] = e;
	}

	stmt->on_delete.func = dc_statement_deleted;
	stmt->on_delete.arg = stmt;
	MemoryContextRegisterResetCallback(estate->es_query_cxt, &stmt->on_delete);

	MemoryContextSwitchTo(oldcxt);
	dc_active = stmt;
}

/*
 * Remove all wrappers of stmt whose objects are still alive and forget the
 * statement.
 */
static void
dc_uninstrument(DCStatement *stmt)
{
	DCContext  *w;

	for (uint32 i = 0; i <= stmt->hashmask; i++)
	{
		DCExpr	   *e = stmt->hash[i];

		if (e && e->state->evalfunc == dc_eval)
			e->state->evalfunc = e->orig;
	}
	for (w = stmt->contexts; w; w = w->next)
	{
		if (w->dead)
			continue;
		w->cxt->methods = w->orig;
		if (w->sentinel_attached)
			MemoryContextSetParent(&w->sentinel, NULL);
		w->sentinel_attached = false;
		if (!w->dirty)
			w->cxt->isReset = true;
		w->dead = true;
	}
	if (dc_active == stmt)
		dc_active = NULL;
}

/*
 * es_query_cxt of an instrumented statement is being deleted without
 * ExecutorEnd (error).  Its children, the wrapped contexts, are gone already
 * (their delete_context restored their methods); the ExprStates still exist.
 */
static void
dc_statement_deleted(void *arg)
{
	DCStatement *stmt = (DCStatement *) arg;

	if (dc_active == stmt)
		dc_uninstrument(stmt);
}

/* Backstop: nothing of an aborted statement may stay instrumented. */
static void
dc_xact_callback(XactEvent event, void *arg)
{
	if (event == XACT_EVENT_ABORT || event == XACT_EVENT_PARALLEL_ABORT)
	{
		if (dc_active)
			dc_uninstrument(dc_active);
		dc_nesting_level = 0;
	}
}


/* ----------------------------------------------------------------
 *		Results
 * ----------------------------------------------------------------
 */

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

/* Create the result memory and the per-relation table on first use. */
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
	dc_relations = hash_create("deform_cache relations", 64, &ctl,
							   HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
}

/* Keep the counters of a finished statement: last statement and totals. */
static void
dc_store(DCStatement *stmt)
{
	dc_results_init();
	MemoryContextReset(dc_last_cxt);
	dc_last = MemoryContextAllocZero(dc_last_cxt,
									 sizeof(DCNodeResult) * stmt->nnodes);
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

			r->node_type = MemoryContextAlloc(dc_last_cxt, NAMEDATALEN + 16);
			snprintf(r->node_type, NAMEDATALEN + 16, "Custom Scan (%s)",
					 cscan->methods->CustomName);
		}
		else
			r->node_type = MemoryContextStrdup(dc_last_cxt,
											   dc_node_type(node->ps->plan,
															&is_scan));
		r->relid = node->relid;
		r->amoid = node->amoid;
		if (node->slot_mixed)
			r->slot_type = "mixed";
		else if (node->slot_ops)
			r->slot_type = dc_slot_type_name(node->slot_ops);
		r->jit_deform = stmt->jit_deform;
		r->c = node->c;
	}

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
 * ExecutorStart hook: instrument a top-level statement while tracking is on.
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
		dc_instrument(queryDesc);
}

/*
 * Return whether a plan node always returns its own virtual result slot,
 * which cannot be deformed: then the DestReceiver needs no proxy.  True of
 * nodes that project through ExecProject whenever they have a projection.
 */
static bool
dc_output_is_virtual(PlanState *ps)
{
	bool		is_scan;

	if (ps->ps_ProjInfo == NULL || ps->ps_ResultTupleSlot == NULL ||
		ps->ps_ResultTupleSlot->tts_ops != &TTSOpsVirtual)
		return false;
	(void) dc_node_type(ps->plan, &is_scan);
	if (is_scan)
		return !IsA(ps, CustomScanState);	/* ExecScan projects */
	switch (nodeTag(ps))
	{
		case T_ResultState:
		case T_NestLoopState:
		case T_MergeJoinState:
		case T_HashJoinState:
		case T_AggState:
			return true;
		default:
			return false;
	}
}

/*
 * ExecutorRun hook: keep the nesting level, and proxy the DestReceiver of
 * the instrumented statement.
 */
static void
dc_ExecutorRun(QueryDesc *queryDesc, ScanDirection direction, uint64 count,
			   bool execute_once)
{
	DCStatement *stmt = dc_active;
	DestReceiver *dest = queryDesc->dest;

	if (!dc_track && stmt == NULL)
	{
		if (prev_ExecutorRun)
			prev_ExecutorRun(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
		return;
	}

	if (stmt && stmt->queryDesc == queryDesc &&
		!dc_output_is_virtual(queryDesc->planstate))
	{
		DCDest	   *d = &stmt->dest;

		d->pub.receiveSlot = dc_receive_slot;
		d->pub.rStartup = dc_dest_startup;
		d->pub.rShutdown = dc_dest_shutdown;
		d->pub.rDestroy = dc_dest_destroy;
		d->pub.mydest = dest->mydest;
		d->orig = dest;
		d->stmt = stmt;
		d->cache.slot = NULL;
		queryDesc->dest = &d->pub;
	}

	if (stmt && stmt->queryDesc == queryDesc)
		stmt->running = true;
	dc_nesting_level++;
	PG_TRY();
	{
		if (prev_ExecutorRun)
			prev_ExecutorRun(queryDesc, direction, count, execute_once);
		else
			standard_ExecutorRun(queryDesc, direction, count, execute_once);
	}
	PG_FINALLY();
	{
		dc_nesting_level--;
		queryDesc->dest = dest;
		if (stmt && stmt->queryDesc == queryDesc)
			stmt->running = false;
	}
	PG_END_TRY();
}

/*
 * ExecutorFinish hook: keep the nesting level (AFTER triggers run here).
 */
static void
dc_ExecutorFinish(QueryDesc *queryDesc)
{
	DCStatement *stmt = dc_active;

	if (!dc_track && stmt == NULL)
	{
		if (prev_ExecutorFinish)
			prev_ExecutorFinish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
		return;
	}

	if (stmt && stmt->queryDesc == queryDesc)
		stmt->running = true;
	dc_nesting_level++;
	PG_TRY();
	{
		if (prev_ExecutorFinish)
			prev_ExecutorFinish(queryDesc);
		else
			standard_ExecutorFinish(queryDesc);
	}
	PG_FINALLY();
	{
		dc_nesting_level--;
		if (stmt && stmt->queryDesc == queryDesc)
			stmt->running = false;
	}
	PG_END_TRY();
}

/*
 * ExecutorEnd hook: uninstrument the statement before its executor state is
 * freed, and keep its counters.
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
		dc_uninstrument(stmt);
		if (!stmt->readout)
			dc_store(stmt);
	}

	if (prev_ExecutorEnd)
		prev_ExecutorEnd(queryDesc);
	else
		standard_ExecutorEnd(queryDesc);
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
 * A statement that reads our counters does not replace them.  The caller is
 * the instrumented statement (or nested in it) only while that one runs; an
 * instrumented cursor between two fetches is left alone.
 */
static void
dc_mark_readout(void)
{
	if (dc_active && dc_active->running)
		dc_active->readout = true;
}

/* Fill values/nulls from counters, starting at column i; return next i. */
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

/* Fill the access method name column, or NULL. */
static void
dc_am_value(Oid amoid, Datum *value, bool *isnull)
{
	char	   *amname = OidIsValid(amoid) ? get_am_name(amoid) : NULL;

	if (amname)
		*value = CStringGetTextDatum(amname);
	else
		*isnull = true;
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
		Datum		values[DC_LAST_COLS_V1_0];
		bool		nulls[DC_LAST_COLS_V1_0];
		int			i = 0;

		memset(values, 0, sizeof(values));
		memset(nulls, 0, sizeof(nulls));

		values[i++] = Int32GetDatum(r->node_id);
		if (r->parent_id < 0)
			nulls[i++] = true;
		else
			values[i++] = Int32GetDatum(r->parent_id);
		values[i++] = CStringGetTextDatum(r->node_type);
		if (OidIsValid(r->relid))
			values[i++] = ObjectIdGetDatum(r->relid);
		else
			nulls[i++] = true;
		dc_am_value(r->amoid, &values[i], &nulls[i]);
		i++;
		if (r->slot_type)
			values[i++] = CStringGetTextDatum(r->slot_type);
		else
			nulls[i++] = true;
		values[i++] = BoolGetDatum(r->jit_deform);
		i = dc_counters_values(&r->c, values, nulls, i);
		Assert(i == DC_LAST_COLS_V1_0);

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
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
		Datum		values[DC_RELATIONS_COLS_V1_0];
		bool		nulls[DC_RELATIONS_COLS_V1_0];
		int			i = 0;

		memset(values, 0, sizeof(values));
		memset(nulls, 0, sizeof(nulls));

		values[i++] = ObjectIdGetDatum(entry->relid);
		dc_am_value(entry->amoid, &values[i], &nulls[i]);
		i++;
		values[i++] = Int64GetDatum(entry->statements);
		values[i++] = Int64GetDatum(entry->scans);
		i = dc_counters_values(&entry->c, values, nulls, i);
		Assert(i == DC_RELATIONS_COLS_V1_0);

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
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
	bool		nulls[DC_INFO_COLS_V1_0];

	dc_mark_readout();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	Assert(tupdesc->natts == DC_INFO_COLS_V1_0);

	memset(nulls, 0, sizeof(nulls));
	values[0] = BoolGetDatum(dc_track);
	values[1] = Int32GetDatum(dc_active ? 1 : 0);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
