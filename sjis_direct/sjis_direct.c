/*-------------------------------------------------------------------------
 *
 * sjis_direct.c
 *	  Direct EUC_JP <-> SJIS conversion functions.
 *
 * sjis_direct/sjis_direct.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "mb/pg_wchar.h"

PG_MODULE_MAGIC;

PG_FUNCTION_INFO_V1(sjis_direct_euc_jp_to_sjis);
PG_FUNCTION_INFO_V1(sjis_direct_sjis_to_euc_jp);

/*
 * sjis_direct_euc_jp_to_sjis(integer, integer, cstring, internal, integer,
 *							  boolean) RETURNS integer
 */
Datum
sjis_direct_euc_jp_to_sjis(PG_FUNCTION_ARGS)
{
	CHECK_ENCODING_CONVERSION_ARGS(PG_EUC_JP, PG_SJIS);
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("sjis_direct does not convert EUC_JP to SJIS yet")));
	PG_RETURN_INT32(0);
}

/*
 * sjis_direct_sjis_to_euc_jp(integer, integer, cstring, internal, integer,
 *							  boolean) RETURNS integer
 */
Datum
sjis_direct_sjis_to_euc_jp(PG_FUNCTION_ARGS)
{
	CHECK_ENCODING_CONVERSION_ARGS(PG_SJIS, PG_EUC_JP);
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("sjis_direct does not convert SJIS to EUC_JP yet")));
	PG_RETURN_INT32(0);
}
