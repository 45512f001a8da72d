/*-------------------------------------------------------------------------
 *
 * deform_cache_private.h
 *	  Private declarations of deform_cache, shared by its source files.
 *
 * The instrumentation of one statement is a DCStatement with one DCNode per
 * plan node, a DCExpr per wrapped ExprState, a DCContext per wrapped
 * per-tuple memory context and a DCDest for the DestReceiver proxy; all of
 * them live in the statement's es_query_cxt (see deform_cache.c for the
 * lifetime contract).  Every count lands in the DCCounters of a DCNode.
 *
 * Files:
 *	deform_cache.c	module init, GUC, executor hooks, results, SQL functions
 *	deform_wrap.c	instrumenting a statement: ExprState and DestReceiver
 *					wrappers, and the counting of deforms
 *	deform_memctx.c wrapping per-tuple memory contexts
 *
 * deform_cache/deform_cache_private.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DEFORM_CACHE_PRIVATE_H
#define DEFORM_CACHE_PRIVATE_H

#include "executor/execdesc.h"
#include "nodes/execnodes.h"
#include "nodes/memnodes.h"

#include "pg_compat.h"

/* expression context slots an expression can fetch from: scan, outer, inner */
#define DC_MAX_EXPR_SLOTS		3

/* slots a node owns: its scan slot and its result slot */
#define DC_OWN_SLOTS			2

/* nodes searched first for a slot's owner: the node, its outer and inner */
#define DC_NEAR_NODES			3

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
	TupleTableSlot *own[DC_OWN_SLOTS];	/* scan slot, result slot (or NULL) */
	struct DCNode *near[DC_NEAR_NODES]; /* self, outer and inner child */
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
	uint16		slotoff[DC_MAX_EXPR_SLOTS]; /* ... it reads, by offset in
											 * ExprContext */
	DCOwnerCache cache;
} DCExpr;

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
	MemoryContextData sentinel; /* childless child, see deform_memctx.c */
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

/* deform_wrap.c */
extern DCStatement *dc_active;
extern const char *DCNodeTypeName(Plan *plan, bool *is_scan);
extern DCNode *DCFindNode(DCStatement *stmt, PlanState *ps);
extern void DCInstrument(QueryDesc *queryDesc);
extern void DCUninstrument(DCStatement *stmt);
extern void DCProxyDest(DCStatement *stmt, QueryDesc *queryDesc);

/* deform_memctx.c */
extern void DCWrapContext(DCStatement *stmt, DCNode *node);
extern void DCUnwrapContext(DCContext *w);

#endif							/* DEFORM_CACHE_PRIVATE_H */
