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
#include "utils/guc.h"

#include "pax_am.h"

PG_MODULE_MAGIC;

/*
 * _PG_init registers the module's GUCs, the PaxScan planner hooks and the
 * ProcessUtility hook that warns about publications of pax tables.
 */
void
_PG_init(void)
{
	DefineCustomBoolVariable("pax.enable_buffer_guessing",
							 "Lets scans of pax tables pin a block through the buffer that last held it, or a guessed one, before looking it up.",
							 NULL, &pax_enable_buffer_guessing, true,
							 PGC_USERSET, 0, NULL, NULL, NULL);
	PaxCustomScanInit();
	PaxLogicalInit();
}
