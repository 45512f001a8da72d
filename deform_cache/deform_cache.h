/*-------------------------------------------------------------------------
 *
 * deform_cache.h
 *	  Interface of deform_cache for other modules.
 *
 * deform_cache reports the type of every slot it saw being deformed by the
 * name of its TupleTableSlotOps.  The four built-in slot types are known, and
 * so is pax_am's, which pax_am publishes through pax_am_hooks.h (pax_am does
 * not use this header).  Another module that defines its own slot type can
 * register a name for it, so that deform_cache_last() shows that name
 * instead of 'other'.  deform_cache is a separate library, so the caller
 * looks the function up by name:
 *
 *		DeformCacheRegisterSlotOps_fn reg;
 *
 *		reg = (DeformCacheRegisterSlotOps_fn)
 *			load_external_function("$libdir/deform_cache",
 *								   "DeformCacheRegisterSlotOps", true, NULL);
 *		reg(&TTSOpsMine, "Mine");
 *
 * load_external_function() loads deform_cache (running its _PG_init) if it
 * is not loaded yet, and raises an error if the library is not installed;
 * its signalNotFound argument only covers a missing function.  A module
 * that must work without deform_cache checks that the library is installed
 * first, or registers only when the user asks for it.
 *
 * deform_cache/deform_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DEFORM_CACHE_H
#define DEFORM_CACHE_H

#include "executor/tuptable.h"

struct PlanState;

typedef void (*DeformCacheRegisterSlotOps_fn) (const TupleTableSlotOps *ops,
											   const char *name);

extern PGDLLEXPORT void DeformCacheRegisterSlotOps(const TupleTableSlotOps *ops,
												   const char *name);

/*
 * DeformCacheReportRead counts a row that scan node ps formed by reading
 * natts columns (the highest being max_attno) without deforming a tuple.
 * It has the signature of pax_am's PaxReportReadHook, which deform_cache
 * sets to it; another module can look it up by name as above.
 */
extern PGDLLEXPORT void DeformCacheReportRead(struct PlanState *ps, int natts,
											  int max_attno);

#endif							/* DEFORM_CACHE_H */
