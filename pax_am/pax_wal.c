/*-------------------------------------------------------------------------
 *
 * pax_wal.c
 *	  WAL records of row-sized page changes, without comparing pages.
 *
 * GenericXLogFinish finds what changed on a page by comparing the whole
 * page before and after, byte by byte: for a change of a few dozen bytes
 * (one row inserted, one xmax set) that comparison costs more than the
 * rest of the operation (two thirds of a single-row INSERT, by perf).  A
 * PaxChange does the same job knowing the answer: the caller changes a
 * private copy of the page and names the byte ranges it wrote; the record
 * written is a record of exactly those fragments, in generic_xlog.c's
 * format (offset, length, bytes): a generic WAL record (RM_GENERIC_ID),
 * which core's generic_redo replays, nothing preloaded; or, when pax_am is
 * in shared_preload_libraries (pax_rmgr_registered), a record of pax's own
 * resource manager (XLOG_PAX_PAGE), which PaxRedoPage replays the same way
 * and whose PaxMask lets wal_consistency_checking check pax pages: it
 * hides what changes without WAL (row headers' hint bits), which the
 * generic mask does not.  A server that preloads pax_am must have it
 * preloaded whenever it replays its WAL, and so must its standbys.
 *
 * As in GenericXLogFinish, the new image goes into the buffer with the hole
 * between pd_lower and pd_upper zeroed, which is what replay produces.  A
 * change logged as fragments finds the page's hole zero (its page was
 * laid out by a change logged as an image, whose hole is zeroed whole, and
 * every change and replay since left it so), so only the part of the new
 * hole outside the old one is zeroed: most changes shrink the hole.
 * With assertions enabled, PaxChangeFinish checks that the copy differs
 * from the page only inside the named ranges (and the hole).
 *
 * pax_am/pax_wal.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/bufmask.h"
#if PG_VERSION_NUM >= 170000
#include "access/heapam.h"		/* PruneReason */
#endif
#include "access/heapam_xlog.h"
#include "access/transam.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "access/xlogutils.h"
#include "access/rmgr.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "port/pg_bitutils.h"
#include "storage/bufmgr.h"
#include "storage/standby.h"
#include "utils/rel.h"

#include "pax_page.h"
#include "pax_tidmap.h"
#include "pax_xlog.h"

/* a generic WAL fragment header: offset and length, as generic_xlog.c's */
#define PAX_FRAGMENT_HEADER		(2 * sizeof(OffsetNumber))

/*
 * PaxChangeStart begins a change of the buffer's page (exclusively locked
 * by the caller) and returns the private copy to change.  full: log the
 * whole page (a page being initialised) instead of ranges.
 */
Page
PaxChangeStart(PaxChange *chg, Relation rel, Buffer buffer, bool full)
{
	Assert(PaxBufferLockedByMe(buffer, true));
	chg->rel = rel;
	chg->buffer = buffer;
	chg->full = full;
	chg->cleanup = false;
	chg->horizon = InvalidTransactionId;
	chg->nranges = 0;
	chg->ndiffs = 0;
	chg->maxranges = PAX_CHANGE_INLINE_RANGES;
	chg->ranges = chg->inline_ranges;
	chg->rows = NULL;
	memcpy(chg->copy.data, BufferGetPage(buffer), BLCKSZ);
	return (Page) chg->copy.data;
}

/* PaxChangeRange names bytes [offset, offset + length) of the copy as written. */
void
PaxChangeRange(PaxChange *chg, int offset, int length)
{
	Assert(offset >= 0 && length >= 0 && offset + length <= BLCKSZ);
	if (chg->full || length == 0)
		return;
	if (chg->nranges > 0)
	{
		uint16	   *last = &chg->ranges[2 * (chg->nranges - 1)];

		/* extend the previous range when this one continues it */
		if (offset >= last[0] && offset <= last[0] + last[1])
		{
			last[1] = Max(last[1], offset + length - last[0]);
			return;
		}
	}
	if (chg->nranges == chg->maxranges)
	{
		chg->maxranges *= 2;
		if (chg->ranges == chg->inline_ranges)
		{
			chg->ranges = palloc(chg->maxranges * 2 * sizeof(uint16));
			memcpy(chg->ranges, chg->inline_ranges, sizeof(chg->inline_ranges));
		}
		else
			chg->ranges = repalloc(chg->ranges,
								   chg->maxranges * 2 * sizeof(uint16));
	}
	chg->ranges[2 * chg->nranges] = (uint16) offset;
	chg->ranges[2 * chg->nranges + 1] = (uint16) length;
	chg->nranges++;
}

/*
 * PaxChangeDiff names bytes [offset, offset + length) of the copy as
 * possibly written: when the change finishes, the runs that differ from
 * the page are named (PaxChangeDiffRanges), so that a region whose every
 * byte a change may touch but few do (the page's headers, directory and
 * zone maps; a pruned page's minipages) costs only what changed.
 */
void
PaxChangeDiff(PaxChange *chg, int offset, int length)
{
	Assert(offset >= 0 && length >= 0 && offset + length <= BLCKSZ);
	if (chg->full || length == 0)
		return;
	for (int k = 0; k < chg->ndiffs; k++)
		if (chg->diffs[2 * k] == offset && chg->diffs[2 * k + 1] == length)
			return;				/* (each row of a batch names the headers) */
	if (chg->ndiffs == PAX_CHANGE_DIFFS)
	{
		PaxChangeRange(chg, offset, length);
		return;
	}
	chg->diffs[2 * chg->ndiffs] = (uint16) offset;
	chg->diffs[2 * chg->ndiffs + 1] = (uint16) length;
	chg->ndiffs++;
}

/*
 * PaxChangeDiffPage names the whole copy but its hole as possibly written
 * (PaxChangeDiff): a change that rewrote the page (pruning, reclaim).
 */
void
PaxChangeDiffPage(PaxChange *chg)
{
	PageHeader	phdr = (PageHeader) chg->copy.data;

	PaxChangeDiff(chg, 0, phdr->pd_lower);
	PaxChangeDiff(chg, phdr->pd_upper, BLCKSZ - phdr->pd_upper);
}

/*
 * PaxChangeTidMapRow names the TID map entries a new row in slot s of a
 * mapped page took (PaxTidMapSetRow): ntids, its TID offset's entry and
 * its slot's.
 */
void
PaxChangeTidMapRow(PaxChange *chg, Page page, int s)
{
	PaxTidMap	map = PaxPageTidMap(page);
	int			off = PaxTidMapSlots(map)[s];

	PaxChangeRange(chg, (char *) &map->ntids - (char *) page, sizeof(uint16));
	if (off > 0)
		PaxChangeRange(chg, (char *) &PaxTidMapTids(map)[off - 1] - (char *) page,
					   sizeof(uint16));
	PaxChangeRange(chg, (char *) &PaxTidMapSlots(map)[s] - (char *) page,
				   sizeof(uint16));
}

/*
 * PaxChangeRemoves marks the change as one that removes or freezes rows,
 * or moves values (pruning, VACUUM's reclaim and freezing, a page laid out
 * again).  cleanup: the change moved values, under the cleanup lock, so
 * its replay takes the cleanup lock too: a standby's readers, like the
 * primary's, read values holding only a pin (invariant 3).  Slots freed
 * without moving values need no cleanup lock at replay: their rows were
 * dead to every snapshot that the conflict resolution leaves running.
 * horizon: the newest xid of the rows removed (PaxAdvanceConflictHorizon)
 * or frozen, or invalid; replay first cancels the standby's
 * queries whose snapshots could still see such a row, as heap's prune and
 * freeze records do.
 */
void
PaxChangeRemoves(PaxChange *chg, bool cleanup, TransactionId horizon)
{
	chg->cleanup |= cleanup;
	if (TransactionIdIsValid(horizon) &&
		(!TransactionIdIsValid(chg->horizon) ||
		 TransactionIdFollows(horizon, chg->horizon)))
		chg->horizon = horizon;
}

/* PAX_DIFF_BLOCK: the bytes PaxChangeDiffRanges compares at once */
#define PAX_DIFF_BLOCK			64

/* PaxWordXor: the bits in which the 8 bytes at off of a and b differ */
static inline uint64
PaxWordXor(const char *a, const char *b, int off)
{
	uint64		x;
	uint64		y;

	memcpy(&x, a + off, sizeof(x));
	memcpy(&y, b + off, sizeof(y));
	return x ^ y;
}

/*
 * PaxChangeDiffRanges names the runs of the PaxChangeDiff regions in which
 * the copy differs from the page; runs closer than a fragment header are
 * named as one.
 */
static void
PaxChangeDiffRanges(PaxChange *chg)
{
	const char *before = BufferGetPage(chg->buffer);
	const char *after = chg->copy.data;

	for (int k = 0; k < chg->ndiffs; k++)
	{
		int			i = chg->diffs[2 * k];
		int			end = i + chg->diffs[2 * k + 1];

		while (i < end)
		{
			int			start;
			int			last;
			uint64		x;

			/*
			 * equal bytes skipped a block at a time (memcmp's vector loop),
			 * then a word at a time, then one at a time
			 */
			while (i + PAX_DIFF_BLOCK <= end &&
				   memcmp(before + i, after + i, PAX_DIFF_BLOCK) == 0)
				i += PAX_DIFF_BLOCK;
			while (i + (int) sizeof(uint64) <= end &&
				   PaxWordXor(before, after, i) == 0)
				i += sizeof(uint64);
			while (i < end && before[i] == after[i])
				i++;
			if (i == end)
				break;
			start = last = i++;

			/*
			 * Words with a differing byte, then bytes: a run takes in fewer
			 * than a word of equal bytes between two differing ones where the
			 * byte loop would have cut it (a longer fragment, the same page).
			 */
			while (i + (int) sizeof(uint64) <= end &&
				   (x = PaxWordXor(before, after, i)) != 0)
			{
#ifdef WORDS_BIGENDIAN
				last = i + 7 - pg_rightmost_one_pos64(x) / 8;
#else
				last = i + pg_leftmost_one_pos64(x) / 8;
#endif
				i += sizeof(uint64);
			}
			while (i < end && i - last <= (int) PAX_FRAGMENT_HEADER)
			{
				if (before[i] != after[i])
					last = i;
				i++;
			}
			PaxChangeRange(chg, start, last + 1 - start);
			i = last + 1;
		}
	}
	chg->ndiffs = 0;
}

#ifdef USE_ASSERT_CHECKING
/* PaxChangeCheck asserts that only named ranges (or the hole) changed. */
static void
PaxChangeCheck(PaxChange *chg)
{
	const char *before = BufferGetPage(chg->buffer);
	const char *after = chg->copy.data;
	PageHeader	phdr = (PageHeader) after;
	bool	   *named = palloc0(BLCKSZ * sizeof(bool));

	for (int k = 0; k < chg->nranges; k++)
		memset(named + chg->ranges[2 * k], true, chg->ranges[2 * k + 1]);
	for (int i = 0; i < BLCKSZ; i++)
	{
		if (i >= phdr->pd_lower && i < phdr->pd_upper)
			continue;
		if (before[i] != after[i] && !named[i])
			elog(PANIC, "pax page change wrote byte %d outside its WAL ranges", i);
	}
	pfree(named);
}
#endif

/*
 * PaxImageSize: the bytes of a page's image in WAL, its hole left out
 * (REGBUF_STANDARD).
 */
static inline Size
PaxImageSize(PageHeader phdr)
{
	return BLCKSZ - (phdr->pd_upper - phdr->pd_lower);
}

/*
 * PaxZeroNewHole zeroes the part of a changed page's hole (between its
 * pd_lower and pd_upper) outside its hole before the change,
 * [old_lower, old_upper), which was zero already (PaxChangeFinish).
 */
static void
PaxZeroNewHole(Page page, int old_lower, int old_upper)
{
	int			lower = ((PageHeader) page)->pd_lower;
	int			upper = ((PageHeader) page)->pd_upper;

	if (lower > upper)
		return;					/* no hole (PaxRedoPage refuses such a page) */
	if (old_lower > old_upper || old_upper > BLCKSZ)
		old_lower = old_upper = lower;	/* not a page's bounds: all of it */
	if (lower < old_lower)
		memset(page + lower, 0, Min(upper, old_lower) - lower);
	if (upper > old_upper)
	{
		int			from = Max(lower, old_upper);

		memset(page + from, 0, upper - from);
	}
#ifdef USE_ASSERT_CHECKING
	for (int i = lower; i < upper; i++)
		Assert(page[i] == 0);
#endif
}

/*
 * Without pax's resource manager (pax_am not preloaded), a change that
 * moves values is logged as heap's prune record of no items, carrying the
 * page's image (forced) and the conflict horizon:
 * core's heap redo resolves the standby's snapshot conflicts, takes the
 * cleanup lock (always before 17; by XLHP_CLEANUP_LOCK from 17 on),
 * restores the image and, finding the block restored, leaves the page
 * alone.  Before 17 it then records PageGetHeapFreeSpace of the page in
 * the standby's free space map, a hint a pax insert checks against the
 * page before using it.  PaxRegisterHeapPrune registers the record's main
 * data (XLogBeginInsert done); PAX_HEAP2_PRUNE is its info.
 */
#if PG_VERSION_NUM >= 170000
#define PAX_HEAP2_PRUNE		XLOG_HEAP2_PRUNE_ON_ACCESS
#else
#define PAX_HEAP2_PRUNE		XLOG_HEAP2_PRUNE
#endif

static void
PaxRegisterHeapPrune(PaxChange *chg)
{
#if PG_VERSION_NUM >= 170000
	static xl_heap_prune xlrec;
	static TransactionId horizon;

	xlrec.reason = PRUNE_ON_ACCESS;
	xlrec.flags = chg->cleanup ? XLHP_CLEANUP_LOCK : 0;
	XLogRegisterData((char *) &xlrec, SizeOfHeapPrune);
	if (TransactionIdIsValid(chg->horizon))
	{
		xlrec.flags |= XLHP_HAS_CONFLICT_HORIZON;
		horizon = chg->horizon;
		XLogRegisterData((char *) &horizon, sizeof(TransactionId));
	}
#else
	static xl_heap_prune xlrec;

#if PG_VERSION_NUM >= 160000
	xlrec.snapshotConflictHorizon = chg->horizon;
	xlrec.isCatalogRel = false;
#else
	xlrec.latestRemovedXid = chg->horizon;
#endif
	xlrec.nredirected = 0;
	xlrec.ndead = 0;
	XLogRegisterData((char *) &xlrec, SizeOfHeapPrune);
#endif
}

/*
 * Without pax's resource manager, a change that removes or freezes rows
 * but moves no value (a pruning whose rows leave no value-area bytes,
 * VACUUM's freezing) needs no cleanup lock at replay: the rows whose slots
 * it frees are dead to every snapshot replay lets run, and no value a
 * reader holding only a pin may be reading moves.  It is logged as two
 * records in its critical section: heap's own record that only resolves
 * the standby's snapshot conflicts (PaxLogConflict: a freeze record of no
 * tuples before 17, a prune record of no items and no XLHP_CLEANUP_LOCK
 * from 17 on, whose redo cancels the conflicting queries, then sets the
 * page's LSN and leaves it alone), then the change's own generic record of
 * the bytes it wrote, instead of one record carrying the page's image.
 * Under wal_consistency_checking of heap2 the image is kept (heap's redo
 * would check our page as a heap page).
 */
#if PG_VERSION_NUM >= 170000
#define PAX_HEAP2_CONFLICT	PAX_HEAP2_PRUNE
#else
#define PAX_HEAP2_CONFLICT	XLOG_HEAP2_FREEZE_PAGE
#endif

static void
PaxLogConflict(PaxChange *chg)
{
#if PG_VERSION_NUM < 170000
	xl_heap_freeze_page xlrec;
#endif

	Assert(!chg->cleanup && TransactionIdIsValid(chg->horizon));
	XLogBeginInsert();
#if PG_VERSION_NUM >= 170000
	/* the prune record's main data; without cleanup, no XLHP_CLEANUP_LOCK */
	PaxRegisterHeapPrune(chg);
#else
#if PG_VERSION_NUM >= 160000
	xlrec.snapshotConflictHorizon = chg->horizon;
	xlrec.nplans = 0;
	xlrec.isCatalogRel = false;
#else
	/* (its redo resolves the conflicts with the xid before cutoff_xid) */
	xlrec.cutoff_xid = chg->horizon;
	TransactionIdAdvance(xlrec.cutoff_xid);
	xlrec.ntuples = 0;
#endif
	XLogRegisterData((char *) &xlrec, SizeOfHeapFreezePage);
#endif
	XLogRegisterBuffer(0, chg->buffer, REGBUF_STANDARD);
	(void) XLogInsert(RM_HEAP2_ID, PAX_HEAP2_CONFLICT);
}

/*
 * PaxChangeFinish puts the changed copy into the buffer and writes its WAL
 * record (none for relations that need none), in one critical section.
 */
void
PaxChangeFinish(PaxChange *chg)
{
	Page		page = BufferGetPage(chg->buffer);
	PageHeader	phdr = (PageHeader) chg->copy.data;
	bool		logged = RelationNeedsWAL(chg->rel);
	bool		removes = chg->cleanup || TransactionIdIsValid(chg->horizon);
	bool		conflict = false;	/* PaxLogConflict's record goes first */
	bool		heapprune = false;	/* heap's prune record with the image */
	int			old_lower = ((PageHeader) page)->pd_lower;
	int			old_upper = ((PageHeader) page)->pd_upper;
	char	   *data = NULL;
	Size		len = 0;
	Size		size = 0;

	/*
	 * Without pax's resource manager, heap's prune record carries the image
	 * of a change that moved values; one that did not follows heap's
	 * conflict record (PaxLogConflict).
	 */
	if (logged && removes && !pax_rmgr_registered)
	{
		if (chg->cleanup || wal_consistency_checking[RM_HEAP2_ID])
			chg->full = heapprune = true;
		else
			conflict = true;
	}
	if (logged && !chg->full)
	{
		PaxChangeDiffRanges(chg);
#ifdef USE_ASSERT_CHECKING
		PaxChangeCheck(chg);
#endif
		for (int k = 0; k < chg->nranges; k++)
			size += PAX_FRAGMENT_HEADER + chg->ranges[2 * k + 1];

		/*
		 * Fragments that add up to more than the page's image (many rows
		 * placed on a page that held some: each names a range in every
		 * minipage) are logged as the image instead.  Besides being larger,
		 * they could pass the 65535 bytes a record may carry for one block:
		 * PostgreSQL 16 and later PANIC there, and 15 writes the length
		 * truncated, a record nothing can read back (recovery ends at it).
		 */
		if (size >= PaxImageSize(phdr))
			chg->full = true;
	}
	if (logged && !chg->full)
	{
		data = palloc(Max(size, 1));
		for (int k = 0; k < chg->nranges; k++)
		{
			OffsetNumber offset = chg->ranges[2 * k];
			OffsetNumber length = chg->ranges[2 * k + 1];

			memcpy(data + len, &offset, sizeof(offset));
			memcpy(data + len + sizeof(offset), &length, sizeof(length));
			memcpy(data + len + PAX_FRAGMENT_HEADER, chg->copy.data + offset,
				   length);
			len += PAX_FRAGMENT_HEADER + length;
		}
	}

	START_CRIT_SECTION();
	if (data != NULL)
	{
		/*
		 * Logged as fragments: only the named ranges changed (checked above
		 * with assertions), so they go into the page, then the hole is
		 * zeroed, in the order replay applies them: the bytes of a range
		 * inside the new hole (padding below the new pd_upper) too.
		 */
		for (int k = 0; k < chg->nranges; k++)
		{
			int			from = chg->ranges[2 * k];
			int			to = from + chg->ranges[2 * k + 1];

			memcpy(page + from, chg->copy.data + from, to - from);
			from = Max(from, phdr->pd_lower);
			to = Min(to, phdr->pd_upper);
			if (from < to)
				memset(page + from, 0, to - from);
		}
	}
	else
	{
		memcpy(page, chg->copy.data, phdr->pd_lower);
		memcpy(page + phdr->pd_upper, chg->copy.data + phdr->pd_upper,
			   BLCKSZ - phdr->pd_upper);
	}
	if (chg->full)
		memset(page + phdr->pd_lower, 0, phdr->pd_upper - phdr->pd_lower);
	else
		PaxZeroNewHole(page, old_lower, old_upper);
	MarkBufferDirty(chg->buffer);
	if (logged)
	{
		XLogRecPtr	recptr;
		xl_pax_prune xlrec;

		if (conflict)
			PaxLogConflict(chg);
		XLogBeginInsert();
		if (heapprune)
			PaxRegisterHeapPrune(chg);
		else if (removes && pax_rmgr_registered)
		{
			xlrec.horizon = chg->horizon;
			xlrec.flags = chg->cleanup ? PAX_XL_CLEANUP_LOCK : 0;
			XLogRegisterData((char *) &xlrec, SizeOfPaxPrune);
		}
		else if (chg->rows != NULL)
		{
			/* a new page whose image its rows are decoded from */
			Assert(chg->full && pax_rmgr_registered);
			XLogSetRecordFlags(XLOG_INCLUDE_ORIGIN);
			XLogRegisterData(chg->rows->data, chg->rows->len);
		}
		if (chg->full)
			XLogRegisterBuffer(0, chg->buffer,
							   REGBUF_FORCE_IMAGE | REGBUF_STANDARD);
		else
		{
			XLogRegisterBuffer(0, chg->buffer, REGBUF_STANDARD);
			XLogRegisterBufData(0, data, len);
		}
		if (heapprune)
			recptr = XLogInsert(RM_HEAP2_ID, PAX_HEAP2_PRUNE);
		else if (pax_rmgr_registered)
			recptr = XLogInsert(PAX_RMGR_ID,
								removes ? XLOG_PAX_PRUNE :
								chg->rows != NULL ? XLOG_PAX_PAGE_ROWS :
								XLOG_PAX_PAGE);
		else
			recptr = XLogInsert(RM_GENERIC_ID, 0);
		PageSetLSN(page, recptr);
	}
	END_CRIT_SECTION();

	if (data)
		pfree(data);
	if (chg->ranges != chg->inline_ranges)
		pfree(chg->ranges);
	chg->ranges = NULL;
}

/*
 * PaxNextFragment reads the fragment at *pos of a record's block data,
 * which ends at end, into *offset, *length and *bytes, and moves *pos past
 * it: 1, or 0 at the end, or -1 for a fragment that is truncated or falls
 * outside the page.
 */
static int
PaxNextFragment(const char **pos, const char *end, OffsetNumber *offset,
				OffsetNumber *length, const char **bytes)
{
	if (*pos >= end)
		return 0;
	if (end - *pos < (ptrdiff_t) PAX_FRAGMENT_HEADER)
		return -1;
	memcpy(offset, *pos, sizeof(OffsetNumber));
	memcpy(length, *pos + sizeof(OffsetNumber), sizeof(OffsetNumber));
	*bytes = *pos + PAX_FRAGMENT_HEADER;
	if (*offset > BLCKSZ || *length > BLCKSZ - *offset ||
		*length > end - *bytes)
		return -1;
	*pos = *bytes + *length;
	return 1;
}

/*
 * PaxRedoPage replays an XLOG_PAX_PAGE record: the page's image when it
 * carries one, else its fragments, then the hole zeroed, as generic_redo
 * replays a generic record (generic_xlog.c, PostgreSQL 15).  A fragment
 * outside the page is a PANIC, never a write out of it.
 */
static void
PaxRedoPage(XLogReaderState *record, bool prune)
{
	Buffer		buffer;
	bool		cleanup = false;

	if (prune)
	{
		xl_pax_prune xlrec;

		if (XLogRecGetDataLen(record) < SizeOfPaxPrune)
			elog(PANIC, "pax prune record: main data too short");
		memcpy(&xlrec, XLogRecGetData(record), SizeOfPaxPrune);
		if (InHotStandby && TransactionIdIsValid(xlrec.horizon))
		{
			PaxFileLocator locator;

			XLogRecGetBlockTag(record, 0, &locator, NULL, NULL);
			PaxResolveSnapshotConflict(xlrec.horizon, locator);
		}
		cleanup = (xlrec.flags & PAX_XL_CLEANUP_LOCK) != 0;
	}
	if (XLogReadBufferForRedoExtended(record, 0, RBM_NORMAL, cleanup,
									  &buffer) == BLK_NEEDS_REDO)
	{
		Page		page = BufferGetPage(buffer);
		PageHeader	phdr = (PageHeader) page;
		Size		len;
		const char *pos = XLogRecGetBlockData(record, 0, &len);
		const char *end = pos + len;
		OffsetNumber offset;
		OffsetNumber length;
		const char *bytes;
		int			got;

		while ((got = PaxNextFragment(&pos, end, &offset, &length, &bytes)) > 0)
			memcpy(page + offset, bytes, length);
		if (got < 0)
			elog(PANIC, "pax page record: fragment truncated or out of the page");
		if (phdr->pd_lower > phdr->pd_upper || phdr->pd_upper > BLCKSZ)
			elog(PANIC, "pax page record: pd_lower %u, pd_upper %u out of order",
				 phdr->pd_lower, phdr->pd_upper);
		memset(page + phdr->pd_lower, 0, phdr->pd_upper - phdr->pd_lower);
		PageSetLSN(page, record->EndRecPtr);
		MarkBufferDirty(buffer);
	}
	if (BufferIsValid(buffer))
		UnlockReleaseBuffer(buffer);
}

/*
 * PaxDescPage describes an XLOG_PAX_PAGE record: its fragments and their
 * bytes, or the page image it carries instead.
 */
static void
PaxDescPage(StringInfo buf, XLogReaderState *record)
{
	Size		len = 0;
	const char *pos = XLogRecHasBlockRef(record, 0) ?
		XLogRecGetBlockData(record, 0, &len) : NULL;
	OffsetNumber offset;
	OffsetNumber length;
	const char *bytes;
	int			got;
	int			n = 0;
	Size		total = 0;
	const char *end;

	if (pos == NULL || len == 0)
	{
		appendStringInfoString(buf, "whole page");
		return;
	}
	end = pos + len;
	while ((got = PaxNextFragment(&pos, end, &offset, &length, &bytes)) > 0)
	{
		total += length;
		n++;
	}
	appendStringInfo(buf, "%d fragments, %zu bytes", n, total);
	if (got < 0)
		appendStringInfoString(buf, " (malformed)");
}

/*
 * PaxMask masks what of a pax page may differ between the primary and
 * a replica without WAL, for wal_consistency_checking: the page's LSN,
 * checksum and hints (PD_ALL_VISIBLE among them, as heap_mask), the hole,
 * and the hint bits of the row headers (xmin's unless frozen, and xmax's),
 * set by readers as heap's.  A page whose header does not pass
 * PaxPageHeaderIsValid keeps its row header bytes.  Adapted from heap_mask() in heapam.c,
 * PostgreSQL 15.
 */
static void
PaxMask(char *page, BlockNumber blkno)
{
	PageHeader	phdr = (PageHeader) page;
	PaxPageHeader hdr = PaxPageGetHeader(page);
	uint32		off;

	mask_page_lsn_and_checksum(page);
	mask_page_hint_bits(page);
	mask_unused_space(page);

	if (PageIsNew(page) || !PaxPageHeaderIsValid((Page) page))
		return;
	off = PaxRowHeadersAt(page);
	for (int row = 0; row < hdr->pp_capacity; row++)
	{
		HeapTupleHeader tup;
		uint32		at = off + row * PAX_ROWHDR_SIZE;

		/* a compact page: its shared header, then its header slots */
		if (PaxPageIsCompact(page))
		{
			if (row > PAX_COMPACT_SLOTS)
				break;
			at = row == 0 ? off :
				off + PaxCompactSlotsAt(hdr->pp_capacity) +
				(row - 1) * PAX_ROWHDR_SIZE;
		}
		if (at + PAX_ROWHDR_SIZE > phdr->pd_lower)
			break;
		tup = (HeapTupleHeader) (page + at);
		if (!HeapTupleHeaderXminFrozen(tup))
			tup->t_infomask &= ~(HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID);
		tup->t_infomask &= ~(HEAP_XMAX_COMMITTED | HEAP_XMAX_INVALID);
	}
}

/* ------------------------------------------------------------------------
 * The resource manager: redo, description, masking
 * ------------------------------------------------------------------------
 */

/* set in the postmaster (inherited by its children) once registered */
bool		pax_rmgr_registered = false;

/*
 * PaxRedo replays a page change (pax_wal.c; XLOG_PAX_PAGE_ROWS is one, a
 * new page's image); the logical records change no page: the page records
 * before them did.
 */
static void
PaxRedo(XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & XLR_RMGR_INFO_MASK;

	if (info == XLOG_PAX_PAGE || info == XLOG_PAX_PRUNE ||
		info == XLOG_PAX_PAGE_ROWS)
		PaxRedoPage(record, info == XLOG_PAX_PRUNE);
	else if (info != XLOG_PAX_INSERT && info != XLOG_PAX_UPDATE &&
			 info != XLOG_PAX_DELETE && info != XLOG_PAX_CONFIRM &&
			 info != XLOG_PAX_KEEP)
		elog(PANIC, "PaxRedo: unknown op code %u", info);
}

static const char *
PaxIdentify(uint8 info)
{
	switch (info & XLR_RMGR_INFO_MASK)
	{
		case XLOG_PAX_INSERT:
			return "INSERT";
		case XLOG_PAX_UPDATE:
			return "UPDATE";
		case XLOG_PAX_DELETE:
			return "DELETE";
		case XLOG_PAX_CONFIRM:
			return "CONFIRM";
		case XLOG_PAX_PAGE:
			return "PAGE";
		case XLOG_PAX_PRUNE:
			return "PRUNE";
		case XLOG_PAX_PAGE_ROWS:
			return "PAGE_ROWS";
		case XLOG_PAX_KEEP:
			return "KEEP";
	}
	return NULL;
}

static void
PaxDesc(StringInfo buf, XLogReaderState *record)
{
	uint8		info = XLogRecGetInfo(record) & XLR_RMGR_INFO_MASK;
	xl_pax_logical xlrec;

	if (info == XLOG_PAX_PRUNE &&
		XLogRecGetDataLen(record) >= SizeOfPaxPrune)
	{
		xl_pax_prune prune;

		memcpy(&prune, XLogRecGetData(record), SizeOfPaxPrune);
		appendStringInfo(buf, "horizon %u%s, ", prune.horizon,
						 (prune.flags & PAX_XL_CLEANUP_LOCK) ?
						 " cleanup lock" : "");
	}
	if (info == XLOG_PAX_PAGE || info == XLOG_PAX_PRUNE)
	{
		PaxDescPage(buf, record);
		return;
	}
	if (info == XLOG_PAX_KEEP)
		return;
	if (XLogRecGetDataLen(record) < SizeOfPaxLogical)
	{
		appendStringInfoString(buf, "(truncated)");
		return;
	}
	memcpy(&xlrec, XLogRecGetData(record), SizeOfPaxLogical);
	appendStringInfo(buf, "rel %u/%u/%u ntuples %u flags 0x%02X",
					 PaxLocatorSpc(xlrec.locator), PaxLocatorDb(xlrec.locator),
					 PaxLocatorRel(xlrec.locator), xlrec.ntuples, xlrec.flags);
	if (info == XLOG_PAX_PAGE_ROWS)
		appendStringInfoString(buf, ", whole page");
}

static RmgrData pax_rmgr = {
	.rm_name = PAX_RMGR_NAME,
	.rm_redo = PaxRedo,
	.rm_desc = PaxDesc,
	.rm_identify = PaxIdentify,
	.rm_mask = PaxMask
};

/*
 * PaxRmgrRegister registers pax's resource manager, with decode as its
 * logical decoding callback; only while shared_preload_libraries are
 * loaded.
 */
void
PaxRmgrRegister(PaxDecodeFunc decode)
{
	Assert(process_shared_preload_libraries_in_progress);
	pax_rmgr.rm_decode = decode;
	RegisterCustomRmgr(PAX_RMGR_ID, &pax_rmgr);
	pax_rmgr_registered = true;
}
