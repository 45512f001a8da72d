/*-------------------------------------------------------------------------
 *
 * deform_cache.h
 *	  Interface of deform_cache for other modules (pax_am's slot type).
 *
 * deform_cache reports the type of every slot it saw being deformed by the
 * name of its TupleTableSlotOps.  The four built-in slot types are known; a
 * module that defines its own slot type registers a name for it, so that
 * deform_cache_last() shows that name instead of 'other'.  The module is
 * loaded separately, so the caller looks the function up by name:
 *
 *		DeformCacheRegisterSlotOps_fn reg;
 *
 *		reg = (DeformCacheRegisterSlotOps_fn)
 *			load_external_function("$libdir/deform_cache",
 *								   "DeformCacheRegisterSlotOps", false, NULL);
 *		if (reg)
 *			reg(&TTSOpsPax, "Pax");
 *
 * deform_cache/deform_cache.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef DEFORM_CACHE_H
#define DEFORM_CACHE_H

#include "executor/tuptable.h"

typedef void (*DeformCacheRegisterSlotOps_fn) (const TupleTableSlotOps *ops,
											   const char *name);

extern PGDLLEXPORT void DeformCacheRegisterSlotOps(const TupleTableSlotOps *ops,
												   const char *name);

#endif							/* DEFORM_CACHE_H */
