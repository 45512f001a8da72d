/*-------------------------------------------------------------------------
 *
 * pax_am.c
 *	  Module initialisation of the pax table access method.
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

#include "pax_am.h"

PG_MODULE_MAGIC;

/*
 * _PG_init registers the module's GUCs, the PaxScan planner hooks and the
 * ProcessUtility hook that warns about publications of pax tables, and
 * publishes the slot type to observing modules (pax_am_hooks.h).
 */
void
_PG_init(void)
{
	PaxCustomScanInit();
	PaxLogicalInit();
	PaxHooksInit();
}
