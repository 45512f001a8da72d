/*-------------------------------------------------------------------------
 *
 * deform_cache.c
 *	  Tuple-deform and memory-context counters for any query.
 *
 * deform_cache/deform_cache.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(deform_cache_stats_1_0);

/*
 * deform_cache_stats() RETURNS SETOF record
 */
Datum
deform_cache_stats_1_0(PG_FUNCTION_ARGS)
{
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("deform_cache does not collect counters yet")));
	PG_RETURN_NULL();
}
