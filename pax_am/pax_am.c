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

#include <float.h>

#include "fmgr.h"
#include "utils/guc.h"

#include "pax_hio.h"
#include "pax_encode.h"
#include "pax_slot.h"
#include "pax_tableam.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

#ifdef PG_MODULE_MAGIC_EXT
PG_MODULE_MAGIC_EXT(.name = "pax_am", .version = "1.0");
#else
PG_MODULE_MAGIC;
#endif

void		_PG_init(void);

/*
 * The module's GUCs, settable by any user, under the "pax." prefix: boolean
 * switches, on by default, and one planner cost.  Each variable lives in
 * the file that reads it.
 */
typedef struct PaxBoolGuc
{
	const char *name;
	const char *short_desc;
	bool	   *variable;
} PaxBoolGuc;

static const PaxBoolGuc PaxBoolGucs[] = {
	{"pax.enable_customscan",
		"Enables the PaxScan custom scan of pax tables.",
	&pax_enable_customscan},
	{"pax.enable_pushdown",
		"Lets PaxScan evaluate WHERE clauses on the minipages; off gives heap's plan, without PaxScan.",
	&pax_enable_pushdown},
	{"pax.enable_zonemaps",
		"Lets PaxScan skip pages whose zone maps refute the pushed clauses.",
	&pax_enable_zonemaps},
	{"pax.enable_aggpushdown",
		"Lets PaxScan compute count, sum, avg, min and max of a pax table, grouped or not, itself.",
	&pax_enable_aggpushdown},
	{"pax.enable_joinfilter",
		"Lets a hash join's built table filter the rows of a PaxScan on its probe side.",
	&pax_enable_joinfilter},
	{"pax.enable_column_skipping",
		"Lets the plain scans of pax tables (sequential, index, bitmap) read only the columns their query uses.",
	&pax_enable_column_skipping},
	{"pax.encode_minipages",
		"Lets new pax pages store integer-like columns in fewer bytes (frame of reference encoding).",
	&pax_encode_minipages},
	{"pax.compact_rows",
		"Lets new pax pages of bulk loads keep one row header for all their rows (compact pages).",
	&pax_compact_rows},
	{"pax.bitpack_minipages",
		"Lets new pax pages of bulk loads store integer-like columns in as few bits as their range on the page takes.",
	&pax_bitpack_minipages},
	{"pax.batch_bulk_inserts",
		"Lets CREATE TABLE AS, materialized views and ALTER TABLE rewrites place the rows of a new pax table in batches, as COPY does.",
	&pax_batch_bulk_inserts},
	{"pax.enable_buffer_guessing",
		"Lets scans of pax tables pin a block through the buffer that last held it, or a guessed one, before looking it up.",
	&pax_enable_buffer_guessing},
};

/*
 * PaxDefineGucs defines the module's GUCs, then reserves the "pax." prefix.
 */
static void
PaxDefineGucs(void)
{
	for (int i = 0; i < lengthof(PaxBoolGucs); i++)
		DefineCustomBoolVariable(PaxBoolGucs[i].name,
								 PaxBoolGucs[i].short_desc,
								 NULL, PaxBoolGucs[i].variable, true,
								 PGC_USERSET, 0, NULL, NULL, NULL);
	DefineCustomRealVariable("pax.cached_page_cost",
							 "Sets the planner's estimate of the cost of a page of a pax table found in memory.",
							 "A PaxScan's page and an index or bitmap path's page fetch; the query's tables count as in memory as far as effective_cache_size holds them; other pages cost seq_page_cost (scanned) or random_page_cost (fetched).",
							 &pax_cached_page_cost, PAX_CACHED_PAGE_COST,
							 0.0, DBL_MAX, PGC_USERSET, 0, NULL, NULL, NULL);
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
	PaxJoinFilterInit();
	PaxColSkipInit();
	PaxLogicalInit();
	PaxBulkInit();
	PaxHooksInit();
}
