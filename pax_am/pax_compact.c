/*-------------------------------------------------------------------------
 *
 * pax_compact.c
 *	  Compact pages' row headers: own header slots and header pages.
 *
 * A compact page's rows share one row header (pax_am/README, "Compact
 * pages").  A row that needs a header of its own (a DELETE, UPDATE or row
 * lock sets its xmax) takes one of the page's header slots, or a slot of
 * the page's header page once they are taken; VACUUM gives them back, and
 * pruning or VACUUM turns the page back into a row-form page once its dead
 * rows leave room for a header each.
 *
 * pax_am/pax_compact.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc_details.h"
#include "access/tupmacs.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "storage/buf_internals.h"
#include "storage/procarray.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"

/*
 * PaxCompactOwnCopy writes into dst row `row`'s own copy of a compact page's
 * shared header: the same, with the row's t_ctid.
 */
void
PaxCompactOwnCopy(HeapTupleHeader dst, Page page, uint16 rowhdrs,
				  BlockNumber blkno, int row)
{
	memcpy(dst, page + rowhdrs, PAX_ROWHDR_SIZE);
	ItemPointerSet(&dst->t_ctid, blkno, row + 1);
}

/*
 * PaxCompactHasOverflow tells whether a row of a compact page has its header
 * on the page's header page.
 */
bool
PaxCompactHasOverflow(Page page, uint16 rowhdrs)
{
	const uint8 *states = PaxCompactStates(page, rowhdrs);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;

	for (int r = 0; r < nrows; r++)
		if (states[r] == PAX_STATE_OVERFLOW)
			return true;
	return false;
}

/* ----------------------------------------------------------------
 * Header pages: the headers of a compact page's overflowing rows
 * ----------------------------------------------------------------
 */

/* Copies PaxOverflowHeaderCopy hands out before reusing one. */
#define PAX_OVERFLOW_COPIES		64

/* PaxHeaderPageRow: where row `row`'s header lies on a header page. */
HeapTupleHeader
PaxHeaderPageRow(Page hpage, int row)
{
	Assert(row >= 0 && row < PAX_MAX_CAPACITY);
	return (HeapTupleHeader) ((char *) hpage + PaxRowHeadersAt(hpage) +
							  row * PAX_ROWHDR_SIZE);
}

/*
 * PaxHeaderPageInit lays out an empty header page: a pax page of no
 * columns and no rows (every reader of rows passes it by) whose row header
 * array, sized for PAX_MAX_CAPACITY rows, holds the headers of its compact
 * page's rows in state PAX_STATE_OVERFLOW, at their row numbers.
 */
void
PaxHeaderPageInit(Page page)
{
	bits8		none = 0;
	PaxPageShape shape = {0};

	shape.natts = 0;
	shape.capacity = PAX_MAX_CAPACITY;
	shape.absent = shape.nullmap = shape.zone = &none;
	PaxPageInit(page, NULL, &shape);
	PaxPageGetHeader(page)->pp_flags = PAX_PAGE_HEADERS;
}

/* PaxIsHeaderPage tells whether a page is a valid header page. */
static bool
PaxIsHeaderPage(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	return !PageIsNew(page) && PaxPageHeaderIsValid(page) &&
		hdr->pp_flags == PAX_PAGE_HEADERS && hdr->pp_natts == 0 &&
		hdr->pp_nrows == 0 && hdr->pp_capacity == PAX_MAX_CAPACITY &&
		PaxRowHeadersAt(page) + PAX_MAX_CAPACITY * PAX_ROWHDR_SIZE <=
		((PageHeader) page)->pd_lower;
}

/*
 * PaxHeaderPageRead pins and locks (mode) the header page of a compact
 * page, verified; its row headers are PaxHeaderPageRow's.
 */
Buffer
PaxHeaderPageRead(Relation rel, Page page, uint16 rowhdrs, int mode)
{
	BlockNumber hblk = PaxCompactHeaderPage(page, rowhdrs);
	Buffer		hbuf;

	if (hblk == 0)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("compact page of relation \"%s\" has rows whose header page is missing",
						RelationGetRelationName(rel))));
	hbuf = ReadBuffer(rel, hblk);
	LockBuffer(hbuf, mode);
	if (!PaxIsHeaderPage(BufferGetPage(hbuf)))
	{
		UnlockReleaseBuffer(hbuf);
		PaxPageCorrupted(rel, hblk, "not the header page its compact page names");
	}
	return hbuf;
}

/*
 * PaxOverflowHeaderCopy copies the header of row `row` of a compact page
 * from the page's header page, which it share-locks meanwhile: the
 * compact page's lock, held by the caller, keeps the header from changing
 * (writers change it under both pages' exclusive locks, the compact
 * page's first).  Hint bits set on the copy would be lost: the header's
 * missing ones are set on the header page first, by heap's own
 * HeapTupleSatisfiesVacuumHorizon, so that the copy carries them (and
 * HeapTupleIsSurelyDead can let an index forget a dead row).
 */
HeapTupleHeader
PaxOverflowHeaderCopy(Relation rel, Page page, uint16 rowhdrs, int row)
{
	static union
	{
		char		bytes[PAX_ROWHDR_SIZE];
		uint64		align;
	}			copies[PAX_OVERFLOW_COPIES];
	static int	next = 0;
	HeapTupleHeader copy = (HeapTupleHeader) copies[next].bytes;
	Buffer		hbuf = PaxHeaderPageRead(rel, page, rowhdrs, BUFFER_LOCK_SHARE);
	HeapTupleHeader hdr = PaxHeaderPageRow(BufferGetPage(hbuf), row);

	if ((hdr->t_infomask & (HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID)) == 0 ||
		(hdr->t_infomask & (HEAP_XMAX_COMMITTED | HEAP_XMAX_INVALID)) == 0)
	{
		HeapTupleData tuple;
		TransactionId dead_after;

		tuple.t_data = hdr;
		tuple.t_len = PAX_ROWHDR_SIZE;
		tuple.t_tableOid = RelationGetRelid(rel);
		ItemPointerSet(&tuple.t_self, BufferGetBlockNumber(hbuf), row + 1);
		(void) HeapTupleSatisfiesVacuumHorizon(&tuple, hbuf, &dead_after);
	}
	next = (next + 1) % PAX_OVERFLOW_COPIES;
	memcpy(copy, hdr, PAX_ROWHDR_SIZE);
	UnlockReleaseBuffer(hbuf);
	return copy;
}

/*
 * PaxCompactToRowForm turns a compact page (the private copy of a change
 * under a cleanup lock, reclaimed by VACUUM) back into a row-form page of
 * the same shape and capacity when it has UNUSED rows and the room for a
 * header each: every row keeps its row number, values and header (the
 * shared one with its own t_ctid, its slot's, or its header page's, which
 * the caller frees then); the minipages move up by the difference of the
 * two row areas, a multiple of MAXALIGN, so that each keeps its alignment
 * and the value area stays where it is.  Inserts can then use the UNUSED
 * rows.  Returns whether the page changed form.
 */
bool
PaxCompactToRowForm(Relation rel, Page page, const PaxPageLayout *layout,
					BlockNumber blkno)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	PageHeader	phdr = (PageHeader) page;
	int			capacity = layout->capacity;
	int			nrows = hdr->pp_nrows;
	uint16		rowhdrs = layout->rowhdrs;
	int			old_area = PaxRowAreaSize(true, capacity);
	int			new_area = PaxRowAreaSize(false, capacity);
	int			first = rowhdrs + old_area;
	const uint8 *states = PaxCompactStates(page, rowhdrs);
	Buffer		hbuf = InvalidBuffer;
	char	   *headers;

	StaticAssertStmt(PAX_ROWHDR_SIZE % MAXIMUM_ALIGNOF == 0,
					 "row areas are whole MAXALIGN units");
	Assert(layout->compact && PaxPageIsCompact(page) && nrows > 0);
	if (!(hdr->pp_flags & PAX_PAGE_HAS_UNUSED) || new_area <= old_area ||
		phdr->pd_lower + new_area - old_area > phdr->pd_upper)
		return false;

	headers = palloc0(new_area);
	for (int r = 0; r < nrows; r++)
	{
		HeapTupleHeader dst = (HeapTupleHeader) (headers + r * PAX_ROWHDR_SIZE);

		if (states[r] == PAX_STATE_UNUSED)
			PaxRowHeaderSetUnused(dst);
		else if (states[r] == PAX_STATE_SHARED)
			PaxCompactOwnCopy(dst, page, rowhdrs, blkno, r);
		else if (states[r] == PAX_STATE_OVERFLOW)
		{
			if (!BufferIsValid(hbuf))
				hbuf = PaxHeaderPageRead(rel, page, rowhdrs, BUFFER_LOCK_SHARE);
			memcpy(dst, PaxHeaderPageRow(BufferGetPage(hbuf), r), PAX_ROWHDR_SIZE);
		}
		else
			memcpy(dst, PaxRowHeader(page, rowhdrs, r), PAX_ROWHDR_SIZE);
	}
	if (BufferIsValid(hbuf))
		UnlockReleaseBuffer(hbuf);

	memmove(page + first + new_area - old_area, page + first,
			phdr->pd_lower - first);
	memcpy(page + rowhdrs, headers, new_area);
	phdr->pd_lower += new_area - old_area;
	hdr->pp_flags &= ~PAX_PAGE_COMPACT;
	pfree(headers);
	return true;
}

/*
 * PaxCompactFreeSlot returns a header slot of a compact page that no row's
 * state names, or 0 when all are taken.
 */
int
PaxCompactFreeSlot(Page page, uint16 rowhdrs)
{
	const uint8 *states = PaxCompactStates(page, rowhdrs);
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	bool		taken[PAX_COMPACT_SLOTS + 1] = {false};

	for (int r = 0; r < nrows; r++)
		if (states[r] != PAX_STATE_SHARED && states[r] <= PAX_COMPACT_SLOTS)
			taken[states[r]] = true;
	for (int k = 1; k <= PAX_COMPACT_SLOTS; k++)
		if (!taken[k])
			return k;
	return 0;
}

/*
 * PaxCompactOwnHeader gives row `row` of a compact page (the private copy
 * of a PaxChange, under an exclusive lock), which shares the page's header,
 * header slot k (free: PaxCompactFreeSlot) with its own copy of the shared
 * header.  Returns the offset of the row's header.
 */
int
PaxCompactOwnHeader(Page page, uint16 rowhdrs, BlockNumber blkno, int row,
					int k, PaxChange *chg)
{
	uint8	   *states = PaxCompactStates(page, rowhdrs);
	HeapTupleHeader slot = PaxCompactSlot(page, rowhdrs, k);

	Assert(PaxPageIsCompact(page) && row < PaxPageGetHeader(page)->pp_nrows);
	Assert(states[row] == PAX_STATE_SHARED && k >= 1 && k <= PAX_COMPACT_SLOTS);
	PaxCompactOwnCopy(slot, page, rowhdrs, blkno, row);
	states[row] = k;
	PaxChangeRange(chg, (char *) &states[row] - (char *) page, 1);
	PaxChangeRange(chg, (char *) slot - (char *) page, PAX_ROWHDR_SIZE);
	return (char *) slot - (char *) page;
}
