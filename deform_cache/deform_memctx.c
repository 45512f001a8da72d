/*-------------------------------------------------------------------------
 *
 * deform_memctx.c
 *	  Counting the use of each plan node's per-tuple memory context.
 *
 * The per-tuple context of a node's ExprContext gets a private copy of its
 * MemoryContextMethods (a DCContext) whose alloc, realloc, reset and
 * delete_context count and call the original.
 *
 * MemoryContextReset() skips the reset method when the context's isReset
 * flag says nothing was allocated since the last reset, which would hide
 * exactly the empty resets we want to count.  So each wrapped context gets
 * a childless "sentinel" child: MemoryContextReset() deletes children first,
 * the sentinel's delete_context clears isReset, the reset method therefore
 * always runs, counts, skips the real reset when we know nothing was
 * allocated (as PostgreSQL would have), and re-attaches the sentinel.  This
 * relies on MemoryContextReset() and MemoryContextDeleteChildren() in
 * mcxt.c, PostgreSQL 15.
 *
 * From PostgreSQL 16 on, pfree and repalloc no longer go through the
 * context's methods: mcxt.c dispatches them by the method id in each
 * chunk's header, through its own fixed table.  palloc, reset and delete
 * still use the context's methods, so they are counted as before; a
 * repalloc is not seen (README: "Limits").
 *
 * Nothing global is modified: the context's methods pointer is redirected
 * to the DCContext, which lives in es_query_cxt, and restored by
 * DCUnwrapContext (ExecutorEnd, abort) or by dc_cxt_delete when the context
 * goes away first (error).
 *
 * deform_cache/deform_memctx.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "nodes/memnodes.h"
#include "utils/memutils.h"
#if PG_VERSION_NUM >= 160000
#include "utils/memutils_internal.h"
#endif

#include "deform_cache_private.h"

/*
 * The method signatures changed twice: 16 dropped the context argument of
 * the chunk methods (free_p, realloc, get_chunk_space, and the new
 * get_chunk_context), 17 added allocation flags to alloc and realloc.
 */
#if PG_VERSION_NUM >= 170000
#define DC_ALLOC_ARGS MemoryContext context, Size size, int flags
#define DC_ALLOC_PASS context, size, flags
#define DC_REALLOC_ARGS void *pointer, Size size, int flags
#elif PG_VERSION_NUM >= 160000
#define DC_ALLOC_ARGS MemoryContext context, Size size
#define DC_ALLOC_PASS context, size
#define DC_REALLOC_ARGS void *pointer, Size size
#else
#define DC_ALLOC_ARGS MemoryContext context, Size size
#define DC_ALLOC_PASS context, size
#define DC_REALLOC_ARGS MemoryContext context, void *pointer, Size size
#endif
#if PG_VERSION_NUM >= 160000
#define DC_CHUNK_ARGS void *pointer
#else
#define DC_CHUNK_ARGS MemoryContext context, void *pointer
#endif

static void *dc_cxt_alloc(DC_ALLOC_ARGS);
#if PG_VERSION_NUM < 160000
static void *dc_cxt_realloc(DC_REALLOC_ARGS);
#endif
static void dc_cxt_reset(MemoryContext context);
static void dc_cxt_delete(MemoryContext context);

static void *dc_sentinel_alloc(DC_ALLOC_ARGS);
static void dc_sentinel_free(DC_CHUNK_ARGS);
static void *dc_sentinel_realloc(DC_REALLOC_ARGS);
static void dc_sentinel_reset(MemoryContext context);
static void dc_sentinel_delete(MemoryContext context);
#if PG_VERSION_NUM >= 160000
static MemoryContext dc_sentinel_chunk_context(DC_CHUNK_ARGS);
#endif
static Size dc_sentinel_chunk_space(DC_CHUNK_ARGS);
static bool dc_sentinel_is_empty(MemoryContext context);
static void dc_sentinel_stats(MemoryContext context,
							  MemoryStatsPrintFunc printfunc, void *passthru,
							  MemoryContextCounters *totals,
							  bool print_to_stderr);
#ifdef MEMORY_CONTEXT_CHECKING
static void dc_sentinel_check(MemoryContext context);
#endif

static const MemoryContextMethods dc_sentinel_methods = {
	.alloc = dc_sentinel_alloc,
	.free_p = dc_sentinel_free,
	.realloc = dc_sentinel_realloc,
	.reset = dc_sentinel_reset,
	.delete_context = dc_sentinel_delete,
#if PG_VERSION_NUM >= 160000
	.get_chunk_context = dc_sentinel_chunk_context,
#endif
	.get_chunk_space = dc_sentinel_chunk_space,
	.is_empty = dc_sentinel_is_empty,
	.stats = dc_sentinel_stats,
#ifdef MEMORY_CONTEXT_CHECKING
	.check = dc_sentinel_check,
#endif
};


/* ----------------------------------------------------------------
 *		The wrapped context's methods
 * ----------------------------------------------------------------
 */

/* dc_context_of returns the DCContext whose methods context uses. */
static inline DCContext *
dc_context_of(MemoryContext context)
{
	return (DCContext *) unconstify(MemoryContextMethods *, context->methods);
}

/* dc_count_alloc counts an allocation request of size bytes. */
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

/* dc_cxt_alloc counts, then allocates through the original method. */
static void *
dc_cxt_alloc(DC_ALLOC_ARGS)
{
	DCContext  *w = dc_context_of(context);

	dc_count_alloc(w, size);
	return w->orig->alloc(DC_ALLOC_PASS);
}

#if PG_VERSION_NUM < 160000
/* dc_cxt_realloc counts, then reallocates through the original method. */
static void *
dc_cxt_realloc(DC_REALLOC_ARGS)
{
	DCContext  *w = dc_context_of(context);

	dc_count_alloc(w, size);
	return w->orig->realloc(context, pointer, size);
}
#endif

/*
 * dc_cxt_reset counts a reset; does the real reset only if something was
 * allocated since the last one (PostgreSQL would have skipped it too), then
 * gives the context its sentinel back so that the next MemoryContextReset()
 * reaches us again.
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

/*
 * dc_cxt_delete runs when the wrapped context goes away before the
 * statement is uninstrumented (error path): it restores the context's
 * methods, then deletes it through them.
 */
static void
dc_cxt_delete(MemoryContext context)
{
	DCContext  *w = dc_context_of(context);

	context->methods = w->orig;
	w->dead = true;
	context->methods->delete_context(context);
}


/* ----------------------------------------------------------------
 *		The sentinel context's methods
 * ----------------------------------------------------------------
 */

/*
 * dc_sentinel_delete runs when MemoryContextReset() or MemoryContextDelete()
 * of the parent deletes its children: it clears the parent's isReset so
 * that the parent's reset method is called.
 */
static void
dc_sentinel_delete(MemoryContext context)
{
	DCContext  *w = (DCContext *) ((char *) context -
								   offsetof(DCContext, sentinel));

	w->sentinel_attached = false;
	if (!w->dead)
		w->cxt->isReset = false;
}

/* dc_sentinel_misuse reports a call no caller can make: nothing lives in it */
pg_noreturn static void
dc_sentinel_misuse(const char *what)
{
	elog(ERROR, "cannot %s in the deform_cache sentinel context", what);
}

static void *
dc_sentinel_alloc(DC_ALLOC_ARGS)
{
	dc_sentinel_misuse("allocate");
}

static void
dc_sentinel_free(DC_CHUNK_ARGS)
{
	dc_sentinel_misuse("free");
}

static void *
dc_sentinel_realloc(DC_REALLOC_ARGS)
{
	dc_sentinel_misuse("reallocate");
}

#if PG_VERSION_NUM >= 160000
static MemoryContext
dc_sentinel_chunk_context(DC_CHUNK_ARGS)
{
	dc_sentinel_misuse("find a chunk's context");
}
#endif

static Size
dc_sentinel_chunk_space(DC_CHUNK_ARGS)
{
	dc_sentinel_misuse("measure a chunk");
}

static void
dc_sentinel_reset(MemoryContext context)
{
	/* nothing is ever allocated in it */
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
 *		Wrapping and unwrapping
 * ----------------------------------------------------------------
 */

/*
 * DCWrapContext wraps the per-tuple memory context of node's ExprContext,
 * if it has one, charging its use to node.  The caller is in es_query_cxt
 * of stmt, where the wrapper is allocated.
 */
void
DCWrapContext(DCStatement *stmt, DCNode *node)
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
#if PG_VERSION_NUM < 160000
	w->methods.realloc = dc_cxt_realloc;
#endif
	w->methods.reset = dc_cxt_reset;
	w->methods.delete_context = dc_cxt_delete;
	w->orig = cxt->methods;
	w->cxt = cxt;
	w->node = node;
	w->dirty = !cxt->isReset;
#if PG_VERSION_NUM >= 160000
	/* created as an aset by id (nothing is ever allocated in it), then given
	 * its own methods */
	MemoryContextCreate(&w->sentinel, T_AllocSetContext, MCTX_ASET_ID,
						cxt, "deform_cache sentinel");
	w->sentinel.methods = &dc_sentinel_methods;
#else
	MemoryContextCreate(&w->sentinel, T_AllocSetContext, &dc_sentinel_methods,
						cxt, "deform_cache sentinel");
#endif
	w->sentinel_attached = true;
	cxt->methods = &w->methods;
	cxt->isReset = false;
	w->next = stmt->contexts;
	stmt->contexts = w;
}

/*
 * DCUnwrapContext gives a wrapped context that is still alive its methods
 * and its isReset flag back, and detaches the sentinel.
 */
void
DCUnwrapContext(DCContext *w)
{
	if (w->dead)
		return;
	w->cxt->methods = w->orig;
	if (w->sentinel_attached)
		MemoryContextSetParent(&w->sentinel, NULL);
	w->sentinel_attached = false;
	if (!w->dirty)
		w->cxt->isReset = true;
	w->dead = true;
}
