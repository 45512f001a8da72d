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

/*
 * A scan that forms rows without deforming tuples (PaxScan) reports each
 * row it forms, with how many columns it read and the highest attribute
 * number among them.  deform_cache puts a pointer to this function in the
 * rendezvous variable of this name when it is loaded:
 *
 *		DeformCacheReportRead_fn *report = (DeformCacheReportRead_fn *)
 *			find_rendezvous_variable(DEFORM_CACHE_REPORT_READ);
 *		if (*report)
 *			(*report) (planstate, natts, max_attno);
 */
#define DEFORM_CACHE_REPORT_READ "deform_cache_report_read"

typedef void (*DeformCacheReportRead_fn) (struct PlanState *ps, int natts,
										  int max_attno);

extern PGDLLEXPORT void DeformCacheReportRead(struct PlanState *ps, int natts,
											  int max_attno);

extern PGDLLEXPORT void DeformCacheRegisterSlotOps(const TupleTableSlotOps *ops,
												   const char *name);

#endif							/* DEFORM_CACHE_H */
