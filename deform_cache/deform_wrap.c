/*-------------------------------------------------------------------------
 *
 * deform_wrap.c
 *	  Instrumenting a statement: wrapping its ExprStates and DestReceiver,
 *	  and counting the deforms they do.
 *
 * Deforms are seen through tts_nvalid, which every deform advances
 * (interpreted slot_getsomeattrs, any slot type's getsomeattrs, JIT-compiled
 * deform), around the two places tuples get deformed from:
 *
 *	- every ExprState of a node that fetches attributes (qual, projection,
 *	  join quals, hash keys, aggregate transition input, ...):
 *	  ExprState.evalfunc is replaced by dc_eval, which reads tts_nvalid of the
 *	  expression context slots the expression fetches from (scan, outer,
 *	  inner) before and after calling the original.  This works for any slot
 *	  type (pax's too) and also sees JIT-compiled deform, which updates
 *	  tts_nvalid like slot_getsomeattrs does.
 *	- the statement's DestReceiver (client output, COPY TO, CREATE TABLE AS,
 *	  a tuplestore): a proxy receiver does the same around receiveSlot.
 *
 * A deform is charged to the node that owns the slot (its scan slot or
 * result slot), whoever did it; a slot no node owns is charged to the node
 * that deformed it.
 *
 * Every wrapper lives in the statement's es_query_cxt; DCUninstrument puts
 * back what is still alive.  The caller of each function here runs in the
 * backend that instruments the statement (there is no shared state).
 *
 * deform_cache/deform_wrap.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/execExpr.h"
#include "executor/executor.h"
#include "nodes/nodeFuncs.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "deform_cache_private.h"

/*
 * Fibonacci hashing of ExprState addresses (2^32 divided by the golden
 * ratio); the low three bits of a palloc'd address carry no information.
 */
#define DC_HASH_MULTIPLIER		0x9E3779B1u
#define DC_HASH_ADDR_SHIFT		3

/* smallest ExprState lookup table; it is kept at most half full */
#define DC_HASH_MIN_SIZE		16

/* the slot of an ExprContext at offset off */
#define DC_ECXT_SLOT(econtext, off) \
	(*(TupleTableSlot **) ((char *) (econtext) + (off)))

/* the statement being instrumented, or NULL (at most one at a time) */
DCStatement *dc_active = NULL;

static Datum dc_eval(ExprState *state, ExprContext *econtext, bool *isNull);


/* ----------------------------------------------------------------
 *		Plan node names
 * ----------------------------------------------------------------
 */

typedef struct DCNodeName
{
	NodeTag		tag;
	bool		is_scan;		/* a Scan: has ss_ScanTupleSlot */
	const char *name;
} DCNodeName;

/*
 * The EXPLAIN names of plan nodes, as ExplainNode() in explain.c,
 * PostgreSQL 15, spells them (without its join-type and strategy
 * decorations, except for Agg, which DCNodeTypeName handles).
 */
static const DCNodeName dc_node_names[] = {
	{T_Result, false, "Result"},
	{T_ProjectSet, false, "ProjectSet"},
	{T_ModifyTable, false, "ModifyTable"},
	{T_Append, false, "Append"},
	{T_MergeAppend, false, "Merge Append"},
	{T_RecursiveUnion, false, "Recursive Union"},
	{T_BitmapAnd, false, "BitmapAnd"},
	{T_BitmapOr, false, "BitmapOr"},
	{T_NestLoop, false, "Nested Loop"},
	{T_MergeJoin, false, "Merge Join"},
	{T_HashJoin, false, "Hash Join"},
	{T_Material, false, "Materialize"},
	{T_Memoize, false, "Memoize"},
	{T_Sort, false, "Sort"},
	{T_IncrementalSort, false, "Incremental Sort"},
	{T_Group, false, "Group"},
	{T_WindowAgg, false, "WindowAgg"},
	{T_Unique, false, "Unique"},
	{T_Gather, false, "Gather"},
	{T_GatherMerge, false, "Gather Merge"},
	{T_Hash, false, "Hash"},
	{T_SetOp, false, "SetOp"},
	{T_LockRows, false, "LockRows"},
	{T_Limit, false, "Limit"},
	{T_SeqScan, true, "Seq Scan"},
	{T_SampleScan, true, "Sample Scan"},
	{T_IndexScan, true, "Index Scan"},
	{T_IndexOnlyScan, true, "Index Only Scan"},
	{T_BitmapIndexScan, true, "Bitmap Index Scan"},
	{T_BitmapHeapScan, true, "Bitmap Heap Scan"},
	{T_TidScan, true, "Tid Scan"},
	{T_TidRangeScan, true, "Tid Range Scan"},
	{T_SubqueryScan, true, "Subquery Scan"},
	{T_FunctionScan, true, "Function Scan"},
	{T_ValuesScan, true, "Values Scan"},
	{T_TableFuncScan, true, "Table Function Scan"},
	{T_CteScan, true, "CTE Scan"},
	{T_NamedTuplestoreScan, true, "Named Tuplestore Scan"},
	{T_WorkTableScan, true, "WorkTable Scan"},
	{T_ForeignScan, true, "Foreign Scan"},
	{T_CustomScan, true, "Custom Scan"},
};

/*
 * DCNodeTypeName returns the EXPLAIN name of a plan node ("Custom Scan"
 * for every custom scan: the caller adds its CustomName) and sets *is_scan
 * if the node is a Scan.  Unknown nodes are "???".
 */
const char *
DCNodeTypeName(Plan *plan, bool *is_scan)
{
	*is_scan = false;
	if (IsA(plan, Agg))
	{
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
	}
	for (int i = 0; i < lengthof(dc_node_names); i++)
	{
		if (dc_node_names[i].tag == nodeTag(plan))
		{
			*is_scan = dc_node_names[i].is_scan;
			return dc_node_names[i].name;
		}
	}
	return "???";
}


/* ----------------------------------------------------------------
 *		Counting deforms
 * ----------------------------------------------------------------
 */

/* where a slot stood before a call that may deform it */
typedef struct DCMark
{
	AttrNumber	nvalid;			/* its tts_nvalid */
	int64		offset;			/* its deform offset, if nvalid > 0 */
} DCMark;

/*
 * dc_slot_offset returns where slot_deform_heap_tuple() (execTuples.c) or
 * JIT deform stopped in the tuple data, or -1 for slot types whose deform
 * position we cannot see.
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

/* dc_mark returns where slot stands now. */
static inline DCMark
dc_mark(TupleTableSlot *slot)
{
	DCMark		m;

	m.nvalid = slot->tts_nvalid;
	m.offset = m.nvalid > 0 ? dc_slot_offset(slot) : 0;
	return m;
}

/* dc_slot_owner returns the owner of slot: near nodes first, then any. */
static DCNode *
dc_slot_owner(DCStatement *stmt, DCNode *node, TupleTableSlot *slot)
{
	for (int i = 0; i < DC_NEAR_NODES; i++)
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
 * dc_count_deform charges the growth of slot's tts_nvalid since mark (taken
 * before the deforming call), if any, to the slot's owner; node is the node
 * that deformed it, cache its memory of the last owner it looked up.
 */
static inline void
dc_count_deform(DCStatement *stmt, DCNode *node, DCOwnerCache *cache,
				TupleTableSlot *slot, DCMark mark)
{
	DCNode	   *owner;
	DCCounters *c;
	int64		after;

	if (slot->tts_nvalid <= mark.nvalid)
		return;
	after = dc_slot_offset(slot);
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
	if (mark.nvalid == 0)
		c->tuples++;
	c->attributes += slot->tts_nvalid - mark.nvalid;
	if (slot->tts_nvalid > c->max_attribute)
		c->max_attribute = slot->tts_nvalid;
	if (after < 0)
		c->bytes_unknown = true;
	else
		c->bytes += after - (mark.nvalid == 0 ? 0 : mark.offset);

	if (owner->slot_ops == NULL)
		owner->slot_ops = slot->tts_ops;
	else if (owner->slot_ops != slot->tts_ops)
		owner->slot_mixed = true;
}

/* dc_expr_hash returns the lookup table hash of an ExprState's address. */
static inline uint32
dc_expr_hash(ExprState *state)
{
	return (uint32) (((uintptr_t) state >> DC_HASH_ADDR_SHIFT) *
					 DC_HASH_MULTIPLIER);
}

/* dc_expr_lookup finds the DCExpr of a wrapped ExprState of stmt. */
static inline DCExpr *
dc_expr_lookup(DCStatement *stmt, ExprState *state)
{
	uint32		h = dc_expr_hash(state);

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

/*
 * dc_eval_orig calls the original evalfunc; it adopts and rewraps a
 * replacement the original installs (see dc_eval).
 */
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

/* dc_eval_slots is dc_eval for expressions that read several slots (joins). */
static pg_noinline Datum
dc_eval_slots(DCStatement *stmt, DCExpr *e, ExprState *state,
			  ExprContext *econtext, bool *isNull)
{
	TupleTableSlot *slot[DC_MAX_EXPR_SLOTS];
	DCMark		mark[DC_MAX_EXPR_SLOTS];
	Datum		result;

	for (int i = 0; i < e->nslots; i++)
	{
		slot[i] = econtext ? DC_ECXT_SLOT(econtext, e->slotoff[i]) : NULL;
		if (slot[i] != NULL)
			mark[i] = dc_mark(slot[i]);
	}

	result = dc_eval_orig(e, state, econtext, isNull);

	for (int i = 0; i < e->nslots; i++)
	{
		if (slot[i] == NULL)
			continue;
		/* the same slot in two roles is counted once */
		if ((i > 0 && slot[i] == slot[0]) || (i > 1 && slot[i] == slot[1]))
			continue;
		dc_count_deform(stmt, e->node, &e->cache, slot[i], mark[i]);
	}
	return result;
}

/*
 * dc_eval is the evalfunc of every wrapped ExprState: it calls the original
 * and counts how far the slots it fetches from (scan, outer or inner tuple
 * of the expression context) got deformed meanwhile.  One slot, the common
 * case, takes the short path here; several take dc_eval_slots.
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
	DCMark		mark;
	Datum		result;

	if (unlikely(e->nslots != 1 || econtext == NULL))
		return dc_eval_slots(stmt, e, state, econtext, isNull);

	slot = DC_ECXT_SLOT(econtext, e->slotoff[0]);
	if (unlikely(slot == NULL))
		return dc_eval_orig(e, state, econtext, isNull);
	mark = dc_mark(slot);
	result = dc_eval_orig(e, state, econtext, isNull);
	dc_count_deform(stmt, e->node, &e->cache, slot, mark);
	return result;
}


/* ----------------------------------------------------------------
 *		The DestReceiver proxy
 * ----------------------------------------------------------------
 */

/*
 * dc_receive_slot is the proxy's receiveSlot: it counts what the real
 * receiver deforms, charged as if the root node had deformed it.
 */
static bool
dc_receive_slot(TupleTableSlot *slot, DestReceiver *self)
{
	DCDest	   *d = (DCDest *) self;
	DCMark		mark = dc_mark(slot);
	bool		ok;

	ok = d->orig->receiveSlot(slot, d->orig);
	dc_count_deform(d->stmt, d->stmt->nodes[0], &d->cache, slot, mark);
	return ok;
}

/* the proxy's other callbacks only forward to the real receiver */
static void
dc_dest_startup(DestReceiver *self, int operation, TupleDesc typeinfo)
{
	DestReceiver *orig = ((DCDest *) self)->orig;

	orig->rStartup(orig, operation, typeinfo);
}

static void
dc_dest_shutdown(DestReceiver *self)
{
	DestReceiver *orig = ((DCDest *) self)->orig;

	orig->rShutdown(orig);
}

static void
dc_dest_destroy(DestReceiver *self)
{
	DestReceiver *orig = ((DCDest *) self)->orig;

	orig->rDestroy(orig);
}

/*
 * dc_output_is_virtual returns whether a plan node always returns its own
 * virtual result slot, which cannot be deformed: then the DestReceiver needs
 * no proxy.  True of nodes that project through ExecProject whenever they
 * have a projection: scans through ExecScan() (execScan.c), and the Result,
 * join and Agg nodes' Exec functions, PostgreSQL 15.
 */
static bool
dc_output_is_virtual(PlanState *ps)
{
	bool		is_scan;

	if (ps->ps_ProjInfo == NULL || ps->ps_ResultTupleSlot == NULL ||
		ps->ps_ResultTupleSlot->tts_ops != &TTSOpsVirtual)
		return false;
	(void) DCNodeTypeName(ps->plan, &is_scan);
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
 * DCProxyDest puts stmt's DestReceiver proxy in front of queryDesc->dest,
 * unless the root's output cannot be deformed.  The caller restores
 * queryDesc->dest when ExecutorRun ends, normally or not.
 */
void
DCProxyDest(DCStatement *stmt, QueryDesc *queryDesc)
{
	DCDest	   *d = &stmt->dest;

	if (dc_output_is_virtual(queryDesc->planstate))
		return;
	d->pub.receiveSlot = dc_receive_slot;
	d->pub.rStartup = dc_dest_startup;
	d->pub.rShutdown = dc_dest_shutdown;
	d->pub.rDestroy = dc_dest_destroy;
	d->pub.mydest = queryDesc->dest->mydest;
	d->orig = queryDesc->dest;
	d->stmt = stmt;
	d->cache.slot = NULL;
	queryDesc->dest = &d->pub;
}


/* ----------------------------------------------------------------
 *		Wrapping a statement's ExprStates
 * ----------------------------------------------------------------
 */

/* state of the plan tree walk */
typedef struct DCBuild
{
	DCStatement *stmt;
	List	   *nodes;			/* DCNode * */
	List	   *exprs;			/* DCExpr * */
	int			parent_id;
} DCBuild;

/* an ExprState, or a List of them, that a node type evaluates */
typedef struct DCNodeExpr
{
	NodeTag		tag;			/* the PlanState's tag */
	uint16		offset;			/* the field's offset in that PlanState */
	bool		is_list;		/* a List of ExprStates */
} DCNodeExpr;

/*
 * The ExprStates, besides qual and projection, that the executor evaluates
 * for each node type, as set up by the ExecInit<Node>() functions of
 * nodeNestloop.c, nodeMergejoin.c, nodeHashjoin.c, nodeHash.c,
 * nodeIndexscan.c, nodeIndexonlyscan.c, nodeBitmapHeapscan.c, nodeResult.c,
 * nodeGroup.c, nodeUnique.c and nodeWindowAgg.c, PostgreSQL 15 and 18.  An
 * aggregate's per-phase transition expressions are handled apart.
 */
static const DCNodeExpr dc_node_exprs[] = {
	{T_NestLoopState, offsetof(JoinState, joinqual), false},
	{T_MergeJoinState, offsetof(JoinState, joinqual), false},
	{T_HashJoinState, offsetof(JoinState, joinqual), false},
	{T_HashJoinState, offsetof(HashJoinState, hashclauses), false},
#if PG_VERSION_NUM >= 180000
	/* 18 hashes the keys with one ExprState per side */
	{T_HashJoinState, offsetof(HashJoinState, hj_OuterHash), false},
	{T_HashState, offsetof(HashState, hash_expr), false},
#else
	{T_HashJoinState, offsetof(HashJoinState, hj_OuterHashKeys), true},
	{T_HashState, offsetof(HashState, hashkeys), true},
#endif
	{T_IndexScanState, offsetof(IndexScanState, indexqualorig), false},
	{T_IndexOnlyScanState, offsetof(IndexOnlyScanState, recheckqual), false},
	{T_BitmapHeapScanState, offsetof(BitmapHeapScanState, bitmapqualorig),
	false},
	{T_ResultState, offsetof(ResultState, resconstantqual), false},
	{T_GroupState, offsetof(GroupState, eqfunction), false},
	{T_UniqueState, offsetof(UniqueState, eqfunction), false},
	{T_WindowAggState, offsetof(WindowAggState, partEqfunction), false},
	{T_WindowAggState, offsetof(WindowAggState, ordEqfunction), false},
};

/*
 * dc_expr_slots finds the expression context slots evaluating e->state can
 * deform: those of its EEOP_*_FETCHSOME steps (emitted by
 * ExecPushExprSetupSteps() in execExpr.c, PostgreSQL 15, for each slot the
 * expression reads Vars of), all three for a whole-row Var, whose slot
 * ExecEvalWholeRowVar() in execExprInterp.c deforms itself.  It sets
 * e->nslots (0 if it never deforms) and e->slotoff.
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
 * dc_wrap_expr wraps one ExprState of node.  NULL ones, already wrapped
 * ones and those that never deform (no wrapper cost for them) are skipped.
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

/* dc_wrap_node_exprs wraps every ExprState the executor evaluates for node. */
static void
dc_wrap_node_exprs(DCBuild *b, DCNode *node)
{
	PlanState  *ps = node->ps;

	dc_wrap_expr(b, node, ps->qual);
	if (ps->ps_ProjInfo)
		dc_wrap_expr(b, node, &ps->ps_ProjInfo->pi_state);

	for (int i = 0; i < lengthof(dc_node_exprs); i++)
	{
		const DCNodeExpr *ne = &dc_node_exprs[i];
		void	   *field = (char *) ps + ne->offset;
		ListCell   *lc;

		if (ne->tag != nodeTag(ps))
			continue;
		if (!ne->is_list)
		{
			dc_wrap_expr(b, node, *(ExprState **) field);
			continue;
		}
		foreach(lc, *(List **) field)
			dc_wrap_expr(b, node, (ExprState *) lfirst(lc));
	}
	if (IsA(ps, AggState))
	{
		AggState   *agg = (AggState *) ps;

		for (int i = 0; i < agg->numphases; i++)
			dc_wrap_expr(b, node, agg->phases[i].evaltrans);
	}
}

/* dc_build_walker is the planstate_tree_walker callback: a DCNode per node. */
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
	(void) DCNodeTypeName(ps->plan, &is_scan);
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
	DCWrapContext(b->stmt, node);

	b->parent_id = node->node_id;
	result = planstate_tree_walker(ps, dc_build_walker, context);
	b->parent_id = saved_parent;
	return result;
}

/* DCFindNode returns the DCNode of a PlanState of stmt, or NULL. */
DCNode *
DCFindNode(DCStatement *stmt, PlanState *ps)
{
	if (ps == NULL)
		return NULL;
	for (int i = 0; i < stmt->nnodes; i++)
		if (stmt->nodes[i]->ps == ps)
			return stmt->nodes[i];
	return NULL;
}

/* dc_hash_exprs builds stmt's ExprState lookup table, at most half full. */
static void
dc_hash_exprs(DCStatement *stmt, List *exprs)
{
	uint32		size;
	ListCell   *lc;

	for (size = DC_HASH_MIN_SIZE; size < 2 * (uint32) list_length(exprs);
		 size *= 2)
		;
	stmt->hash = palloc0(sizeof(DCExpr *) * size);
	stmt->hashmask = size - 1;
	foreach(lc, exprs)
	{
		DCExpr	   *e = (DCExpr *) lfirst(lc);
		uint32		h = dc_expr_hash(e->state);

		while (stmt->hash[h & stmt->hashmask] != NULL)
			h++;
		stmt->hash[h & stmt->hashmask] = e;
	}
}

/*
 * dc_statement_deleted runs when es_query_cxt of an instrumented statement
 * is deleted without ExecutorEnd (error).  Its children, the wrapped
 * contexts, are gone already (their delete_context restored their
 * methods); the ExprStates still exist.
 */
static void
dc_statement_deleted(void *arg)
{
	DCStatement *stmt = (DCStatement *) arg;

	if (dc_active == stmt)
		DCUninstrument(stmt);
}

/*
 * DCInstrument instruments the plan of queryDesc, after
 * standard_ExecutorStart, and makes it the active statement.  No statement
 * may be active.  All allocations go to es_query_cxt.
 */
void
DCInstrument(QueryDesc *queryDesc)
{
	EState	   *estate = queryDesc->estate;
	MemoryContext oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);
	DCStatement *stmt = palloc0(sizeof(DCStatement));
	DCBuild		b;
	ListCell   *lc;
	int			i;

	Assert(dc_active == NULL);
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
		node->near[1] = DCFindNode(stmt, outerPlanState(node->ps));
		node->near[2] = DCFindNode(stmt, innerPlanState(node->ps));
	}
	dc_hash_exprs(stmt, b.exprs);

	stmt->on_delete.func = dc_statement_deleted;
	stmt->on_delete.arg = stmt;
	MemoryContextRegisterResetCallback(estate->es_query_cxt, &stmt->on_delete);

	MemoryContextSwitchTo(oldcxt);
	dc_active = stmt;
}

/*
 * DCUninstrument removes all wrappers of stmt whose objects are still alive
 * and forgets the statement.
 */
void
DCUninstrument(DCStatement *stmt)
{
	DCContext  *w;

	for (uint32 i = 0; i <= stmt->hashmask; i++)
	{
		DCExpr	   *e = stmt->hash[i];

		if (e && e->state->evalfunc == dc_eval)
			e->state->evalfunc = e->orig;
	}
	for (w = stmt->contexts; w; w = w->next)
		DCUnwrapContext(w);
	if (dc_active == stmt)
		dc_active = NULL;
}
