/*-------------------------------------------------------------------------
 *
 * pax_am.h
 *	  Private declarations of the pax table access method.
 *
 * A pax relation stores rows in standard 8 KB buffer pages laid out in the
 * PAX format (one minipage per column); see pax_am/README for the design.
 *
 * Layout of this header follows contrib/bloom: constants, on-disk structs,
 * page macros, state structs, then externs grouped by defining file.
 *
 * pax_am/pax_am.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_AM_H
#define PAX_AM_H

#include "access/tableam.h"
#include "utils/rel.h"

/* Name of the access method as created by the extension script. */
#define PAX_AM_NAME			"pax"

/* ---- externs: pax_am.c ---- */
extern void _PG_init(void);

/* ---- externs: pax_handler.c ---- */
extern const TableAmRoutine *PaxGetTableAmRoutine(void);

#endif							/* PAX_AM_H */
