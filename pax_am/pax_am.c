/*-------------------------------------------------------------------------
 *
 * pax_am.c
 *	  Module initialisation of the pax table access method: the GUCs and
 *	  _PG_init.
 *
 * The module is loaded when the access method's handler is first called
 * (CREATE TABLE ... USING pax, or any access to a pax relation), or at
 * server start through shared_preload_libraries.
 *
 * pax_am/pax_am.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/guc.h"

#include "pax.h"
#include "pax_customscan.h"

PG_MODULE_MAGIC;

/*
 * PaxDefineGucs defines the module's GUCs, all under the "pax." prefix,
 * which it then reserves.
 */
static void
PaxDefineGucs(void)
{
	DefineCustomBoolVariable("pax.enable_customscan",
							 "Enables the PaxScan custom scan of pax tables.",
							 NULL, &pax_enable_customscan, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_pushdown",
							 "Lets PaxScan evaluate WHERE clauses on the minipages.",
							 NULL, &pax_enable_pushdown, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_zonemaps",
							 "Lets PaxScan skip pages whose zone maps refute the pushed clauses.",
							 NULL, &pax_enable_zonemaps, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_aggpushdown",
							 "Lets PaxScan compute count, sum, avg, min and max of a whole pax table itself.",
							 NULL, &pax_enable_aggpushdown, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomBoolVariable("pax.enable_buffer_guessing",
							 "Lets scans of pax tables pin a block through the buffer that last held it, or a guessed one, before looking it up.",
							 NULL, &pax_enable_buffer_guessing, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	MarkGUCPrefixReserved("pax");
}

/*
 * _PG_init registers the module's GUCs, the PaxScan planner hooks and the
 * ProcessUtility hook that warns about publications of pax tables, and
 * publishes the slot type to observing modules (pax_am_hooks.h).
 */
void
_PG_init(void)
{
	PaxDefineGucs();
	PaxCustomScanInit();
	PaxAggScanInit();
	PaxLogicalInit();
	PaxHooksInit();
}
