/*-------------------------------------------------------------------------
 *
 * pax_slot.h
 *	  The pax tuple table slot.
 *
 * A slot whose values are read straight from a pinned pax page, one column
 * at a time, when the executor asks for them.
 *
 * pax_am/pax_slot.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_SLOT_H
#define PAX_SLOT_H

#include "access/tableam.h"
#include "executor/tuptable.h"

#include "pax_page.h"
#include "pax_am_hooks.h"

/*
 * PaxTupleTableSlot: a slot whose values are read straight from a pinned
 * pax page, one column at a time, when the executor asks for them.
 * By-reference values point into the page; the slot holds its own pin.
 */
typedef struct PaxTupleTableSlot
{
	TupleTableSlot base;

	Buffer		buffer;			/* pinned page, or InvalidBuffer */
	Page		page;
	int			row;			/* row index on the page */
	PaxLayoutCache lcache;		/* layout of page */
	char	   *data;			/* materialised by-ref values, or NULL */
	char	   *cells;			/* decode cells of prefix-encoded columns
								 * (PaxPageFillValues), allocated on first
								 * use, or NULL */
	const int16 *needed;		/* the (zero-based) columns read from the
								 * page, ascending, or NULL for all; the
								 * others read as NULL (see pax_colskip.c) */
	int			nneeded;
	bool		hashdr;			/* rowhdr holds a copy of the row header */
	union
	{
		HeapTupleHeaderData hdr;
		char		bytes[PAX_ROWHDR_SIZE];
	}			rowhdr;			/* row header of a materialised row */
} PaxTupleTableSlot;

/* pax_slot.c */
extern PGDLLIMPORT const TupleTableSlotOps TTSOpsPaxTuple;
extern const PaxPageLayout *PaxSlotPinPage(TupleTableSlot *slot,
										   Relation rel, Buffer buffer,
										   BlockNumber blkno);
extern void PaxSlotPrefetchRow(TupleTableSlot *slot, int row);
extern void PaxSlotStoreRow(TupleTableSlot *slot, Relation rel,
							Buffer buffer, BlockNumber blkno, int row);
extern void PaxSlotSetNeeded(TupleTableSlot *slot, const int16 *needed,
							 int nneeded);
extern const TupleTableSlotOps *pax_slot_callbacks(Relation relation);
extern bool PaxIsPaxAm(const TableAmRoutine *routine);
extern struct PaxAmHooks *PaxHooks;
extern void PaxHooksInit(void);

/* pax_colskip.c */
extern bool pax_enable_column_skipping;
extern void PaxColSkipInit(void);

#endif							/* PAX_SLOT_H */
