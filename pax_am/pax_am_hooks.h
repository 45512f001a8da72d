/*-------------------------------------------------------------------------
 *
 * pax_am_hooks.h
 *	  Public link between pax_am and modules that observe it (deform_cache).
 *
 * pax_am publishes its slot type, and accepts a report-read hook, through
 * one PaxAmHooks struct reached by the rendezvous variable
 * PAX_AM_HOOKS_RENDEZVOUS.  Whichever library is loaded first allocates the
 * struct (PaxAmHooksAttach) in TopMemoryContext; the other finds it there.
 * Each side fills only its own fields, so the load order does not matter:
 *
 *	- pax_am sets slot_ops and slot_name in its _PG_init;
 *	- an observer sets report_read in its _PG_init, and reads slot_ops and
 *	  slot_name when it needs them (they stay NULL until pax_am is loaded).
 *
 * pax_am includes nothing of its observers; they include this header.
 * The struct is shared between separately built libraries: a field is never
 * removed or moved, and a change of layout bumps PAX_AM_HOOKS_VERSION.  A
 * library that finds a struct of another version leaves it alone.
 *
 * pax_am/pax_am_hooks.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_AM_HOOKS_H
#define PAX_AM_HOOKS_H

#include "executor/tuptable.h"
#include "fmgr.h"
#include "utils/memutils.h"

/* the rendezvous variable's name, and the layout of PaxAmHooks */
#define PAX_AM_HOOKS_RENDEZVOUS		"pax_am"
#define PAX_AM_HOOKS_VERSION		1

struct PlanState;

/*
 * A PaxReportReadHook is called by PaxScan for each row it forms by reading
 * natts columns (the highest being max_attno, one-based) straight from the
 * page, without a tuple to deform.  ps is the PaxScan's PlanState.
 */
typedef void (*PaxReportReadHook) (struct PlanState *ps, int natts,
								   int max_attno);

typedef struct PaxAmHooks
{
	uint32		version;		/* PAX_AM_HOOKS_VERSION of the allocator */
	/* set by pax_am */
	const TupleTableSlotOps *slot_ops;	/* &TTSOpsPaxTuple */
	const char *slot_name;		/* its name for reports: "PaxTuple" */
	/* set by an observer; PaxScan reads it when a scan begins */
	PaxReportReadHook report_read;
} PaxAmHooks;

/*
 * PaxAmHooksAttach returns this backend's PaxAmHooks, allocating it on the
 * first call of any library, or NULL (after a WARNING) if the struct was
 * allocated by a library built with another PAX_AM_HOOKS_VERSION.  Call it
 * from _PG_init and keep the pointer: the struct lives as long as the
 * backend.
 */
static inline PaxAmHooks *
PaxAmHooksAttach(void)
{
	PaxAmHooks **link;

	link = (PaxAmHooks **) find_rendezvous_variable(PAX_AM_HOOKS_RENDEZVOUS);
	if (*link == NULL)
	{
		*link = MemoryContextAllocZero(TopMemoryContext, sizeof(PaxAmHooks));
		(*link)->version = PAX_AM_HOOKS_VERSION;
	}
	if ((*link)->version != PAX_AM_HOOKS_VERSION)
	{
		ereport(WARNING,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pax_am and a module observing it were built from different versions"),
				 errdetail("The rendezvous variable \"%s\" has version %u, this library expects version %u.",
						   PAX_AM_HOOKS_RENDEZVOUS, (*link)->version,
						   PAX_AM_HOOKS_VERSION),
				 errhint("Install pax_am and deform_cache from the same build.")));
		return NULL;
	}
	return *link;
}

#endif							/* PAX_AM_HOOKS_H */
