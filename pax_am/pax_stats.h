/*-------------------------------------------------------------------------
 *
 * pax_stats.h
 *	  SQL-callable inspection of pax relations.
 *
 * pax_page_stats(), pax_page_columns() and pax_verify() open relations the
 * same way.
 *
 * pax_am/pax_stats.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_STATS_H
#define PAX_STATS_H

#include "utils/rel.h"

/* pax_stats.c */
extern Relation PaxOpenForStats(Oid relid);

#endif							/* PAX_STATS_H */
