/*-------------------------------------------------------------------------
 *
 * pax_verify.c
 *	  pax_verify(): check a pax relation for corruption, one row per problem.
 *
 * Modelled on contrib/amcheck's verify_heapam: every page is read under a
 * buffer share lock through a bulk-read ring, and every problem found
 * becomes a result row (blkno, row, attnum, msg) instead of an error, so
 * one call reports every broken page of a table.  Nothing here calls the
 * readers of pax_page.c, which raise ERRCODE_DATA_CORRUPTED: their checks
 * are repeated so that each failure can be reported and skipped.
 *
 * What is checked, per page:
 *	 - the header and special space: page size and layout version, special
 *	   space position, magic and version, natts, capacity, nrows, the order
 *	   of pd_lower, pd_upper and pd_special, and pd_lower against the layout
 *	   the column directory implies.  A page failing any of these gets one
 *	   row and no further checks: nothing on it can be located safely.
 *	 - the column directory: no null bitmap or zone map for an absent
 *	   column, zone maps only on zone-eligible columns and at most
 *	   PAX_MAX_ZONES of them, ZONESET only with ZONE, HASNULL only with a
 *	   null bitmap, zone min <= max;
 *	 - every row header not marked PAX_ROW_UNUSED: t_hoff, natts,
 *	   contradictory infomask bits, xmin and xmax within the valid range of
 *	   transaction IDs (multixact IDs for a multi xmax), t_ctid inside the
 *	   relation;
 *	 - every stored value of those rows: NULLs only in columns marked
 *	   HASNULL, variable-length values inside the value area with a sane
 *	   varlena header (or a terminating NUL for cstrings), every non-null
 *	   value of a zone-mapped column within the zone map (by the type's
 *	   btree comparison function).
 * and, with check_indexes, every entry of every valid index whose AM can
 * be scanned with no keys through amgettuple points at a stored row; with
 * heapallindexed, every btree entry's key is its row's key and every row
 * has its entries (pax_verify_index.c).
 *
 * A page the buffer manager would refuse to read (its own header check or
 * checksum fails: ReadBuffer raises "invalid page") is checked from a
 * private copy read with smgrread when the block is not validly in shared
 * buffers (also after a query's read of it failed), so it too becomes rows
 * rather than an error.
 *
 * Row headers are not checked against the commit log: only the bounds of
 * the IDs are, which never needs clog (whose lookups can fail on corrupt
 * IDs).  Concurrent inserts and relation extension are allowed (we hold
 * AccessShareLock): the cached ID bounds and block count are refreshed
 * before a value is reported as out of range.
 *
 * The checks of the page header, the column directory and the stored
 * values, and the reporting of a problem, are in pax_verify_col.c; the
 * index checks in pax_verify_index.c.
 *
 * pax_am/pax_verify.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/amapi.h"
#include "access/genam.h"
#include "access/heapam.h"
#include "access/multixact.h"
#include "access/relation.h"
#include "access/transam.h"
#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "storage/checksum.h"
#include "storage/lwlock.h"
#include "storage/procarray.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_mvcc.h"
#include "pax_stats.h"

PG_FUNCTION_INFO_V1(pax_verify);

/* ----------------------------------------------------------------
 * Transaction ID bounds (pax_verify_xid.c)
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyXid reports a normal xid (what names it: "xmin", "xmax") that
 * lies in the future or, unless only the future matters (the row's hint
 * bits say the xid is never looked up again), before the relation's or the
 * cluster's freeze horizon.
 */
static void
PaxVerifyXid(PaxVerifyContext *ctx, const char *what, TransactionId xid,
			 bool future_only)
{
	FullTransactionId fxid;

	if (!TransactionIdIsNormal(xid))
		return;
	switch (PaxVerifyXidBounds(ctx, xid, &fxid))
	{
		case PAX_XID_OK:
			break;
		case PAX_XID_IN_FUTURE:
			PaxVerifyReport(ctx, "%s %u equals or exceeds next valid transaction ID %u:%u",
							what, xid,
							EpochFromFullTransactionId(ctx->next_fxid),
							XidFromFullTransactionId(ctx->next_fxid));
			break;
		case PAX_XID_BEFORE_CLUSTER:
			if (!future_only)
				PaxVerifyReport(ctx, "%s %u precedes oldest valid transaction ID %u:%u",
								what, xid,
								EpochFromFullTransactionId(ctx->oldest_fxid),
								XidFromFullTransactionId(ctx->oldest_fxid));
			break;
		case PAX_XID_BEFORE_REL:
			if (!future_only)
				PaxVerifyReport(ctx, "%s %u precedes relation freeze threshold %u:%u",
								what, xid,
								EpochFromFullTransactionId(ctx->relfrozenfxid),
								XidFromFullTransactionId(ctx->relfrozenfxid));
			break;
	}
}

/*
 * PaxVerifyMulti reports a multixact xmax outside relminmxid .. next
 * multixact ID (and the cluster's oldest), re-reading the range once.
 * Adapted from check_mxid_valid_in_rel() in contrib/amcheck/verify_heapam.c,
 * PostgreSQL 15.
 */
static void
PaxVerifyMulti(PaxVerifyContext *ctx, MultiXactId multi)
{
	if (!MultiXactIdIsValid(multi))
	{
		PaxVerifyReport(ctx, "multixact xmax is invalid");
		return;
	}
	for (int attempt = 0; attempt < 2; attempt++)
	{
		if (attempt > 0)
			ReadMultiXactIdRange(&ctx->oldest_mxact, &ctx->next_mxact);
		if (MultiXactIdPrecedesOrEquals(ctx->next_mxact, multi))
			continue;
		if (MultiXactIdIsValid(ctx->relminmxid) &&
			MultiXactIdPrecedes(multi, ctx->relminmxid))
		{
			PaxVerifyReport(ctx, "multixact xmax %u precedes relation minimum multixact ID %u",
							multi, ctx->relminmxid);
			return;
		}
		if (MultiXactIdPrecedes(multi, ctx->oldest_mxact))
			continue;
		return;
	}
	if (MultiXactIdPrecedesOrEquals(ctx->next_mxact, multi))
		PaxVerifyReport(ctx, "multixact xmax %u equals or exceeds next valid multixact ID %u",
						multi, ctx->next_mxact);
	else
		PaxVerifyReport(ctx, "multixact xmax %u precedes oldest valid multixact ID %u",
						multi, ctx->oldest_mxact);
}

/* ----------------------------------------------------------------
 * Row headers
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyRowHeader checks one row header: its layout fields, its
 * infomask, its transaction IDs and its t_ctid.
 */
/*
 * PaxVerifyHasSuccessor tells whether a row's t_ctid names a newer version
 * that must exist: unless the row's updater aborted (heap_update leaves
 * t_ctid pointing at the version the abort made dead, which VACUUM may
 * remove and truncate away, as heap's does).  A row never updated (or
 * whose aborted xmax VACUUM froze away, resetting t_ctid) points at itself:
 * its t_ctid is checked too.  The commit log is asked only about an xid
 * inside the valid range (one outside it is reported as such).
 */
static bool
PaxVerifyHasSuccessor(PaxVerifyContext *ctx, HeapTupleHeader tup)
{
	uint16		infomask = tup->t_infomask;
	TransactionId xid = HeapTupleHeaderGetRawXmax(tup);
	FullTransactionId fxid;

	if (!TransactionIdIsValid(xid) || HEAP_XMAX_IS_LOCKED_ONLY(infomask))
		return true;			/* must point at itself */
	if (infomask & HEAP_XMAX_INVALID)
		return false;			/* the updater aborted */
	if (infomask & HEAP_XMAX_COMMITTED)
		return true;
	if (infomask & HEAP_XMAX_IS_MULTI)
	{
		if (!MultiXactIdIsValid(xid) ||
			MultiXactIdPrecedesOrEquals(ctx->next_mxact, xid) ||
			MultiXactIdPrecedes(xid, ctx->oldest_mxact) ||
			(MultiXactIdIsValid(ctx->relminmxid) &&
			 MultiXactIdPrecedes(xid, ctx->relminmxid)))
			return false;		/* reported as out of range */
		xid = HeapTupleGetUpdateXid(tup);
	}
	if (!TransactionIdIsNormal(xid) ||
		PaxVerifyXidBounds(ctx, xid, &fxid) != PAX_XID_OK)
		return false;			/* reported as out of range */
	return TransactionIdIsCurrentTransactionId(xid) ||
		TransactionIdIsInProgress(xid) || TransactionIdDidCommit(xid);
}

/*
 * PaxVerifyRowHeader checks the header of a row not marked PAX_ROW_UNUSED:
 * t_hoff, natts, contradictory infomask bits, xmin and xmax within their
 * valid ranges, and t_ctid.  Adapted from check_tuple_header() and
 * check_tuple_visibility() in contrib/amcheck/verify_heapam.c,
 * PostgreSQL 15.
 */
static void
PaxVerifyRowHeader(PaxVerifyContext *ctx, Page page, HeapTupleHeader tup)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	uint16		infomask = tup->t_infomask;
	TransactionId xmax = HeapTupleHeaderGetRawXmax(tup);
	BlockNumber ctid_blk = ItemPointerGetBlockNumberNoCheck(&tup->t_ctid);
	OffsetNumber ctid_off = ItemPointerGetOffsetNumberNoCheck(&tup->t_ctid);

	if (tup->t_hoff != PAX_ROWHDR_SIZE)
		PaxVerifyReport(ctx, "row header size t_hoff %u is not %u",
						tup->t_hoff, (unsigned) PAX_ROWHDR_SIZE);
	if (HeapTupleHeaderGetNatts(tup) != hdr->pp_natts)
		PaxVerifyReport(ctx, "row header has %u columns, the page %u",
						HeapTupleHeaderGetNatts(tup), hdr->pp_natts);

	/* infomask contradictions */
	if (infomask & HEAP_MOVED)
		PaxVerifyReport(ctx, "row is marked as moved by old-style VACUUM FULL");
	if ((infomask & HEAP_XMAX_COMMITTED) && (infomask & HEAP_XMAX_INVALID))
		PaxVerifyReport(ctx, "xmax is marked both committed and invalid");
	if ((infomask & HEAP_XMAX_COMMITTED) && (infomask & HEAP_XMAX_IS_MULTI))
		PaxVerifyReport(ctx, "multixact xmax should not be marked committed");
	/* LOCK_ONLY with KEYS_UPDATED is FOR UPDATE's lock: legitimate */

	/*
	 * xmin: a frozen row's raw xmin is never looked up again, and neither
	 * is an aborted one's (VACUUM lets relfrozenxid pass it), so only the
	 * future is wrong for them.
	 */
	if (!HeapTupleHeaderXminFrozen(tup))
		PaxVerifyXid(ctx, "xmin", HeapTupleHeaderGetRawXmin(tup),
					 HeapTupleHeaderXminInvalid(tup));

	/* xmax */
	if (infomask & HEAP_XMAX_IS_MULTI)
		PaxVerifyMulti(ctx, (MultiXactId) xmax);
	else
		PaxVerifyXid(ctx, "xmax", xmax, (infomask & HEAP_XMAX_INVALID) != 0);

	/* t_ctid: the row itself, or a row slot of a block of the relation */
	if (ctid_off == SpecTokenOffsetNumber)
		return;					/* speculative insertion token */
	if (ctid_off == MovedPartitionsOffsetNumber &&
		ctid_blk == MovedPartitionsBlockNumber)
		return;					/* moved to another partition by UPDATE */
	if (ctid_blk == ctx->blkno && ctid_off == PaxSlotTid(page, ctx->row))
		return;					/* the row itself */
	if ((char *) tup == page + ctx->layout->rowhdrs && ctx->layout->compact)
	{
		/* a compact page's shared header: its rows, never updated */
		if (ctid_blk != ctx->blkno || ctid_off != PAX_CTID_SELF)
			PaxVerifyReport(ctx, "shared row header's t_ctid (%u,%u) is not (%u,%u)",
							ctid_blk, ctid_off, ctx->blkno, PAX_CTID_SELF);
		if (!(infomask & HEAP_XMAX_INVALID) || xmax != InvalidTransactionId)
			PaxVerifyReport(ctx, "shared row header has an xmax");
		return;
	}
	if (!PaxVerifyHasSuccessor(ctx, tup))
		return;
	if (ctid_blk >= ctx->nblocks)
		ctx->nblocks = RelationGetNumberOfBlocks(ctx->rel);
	if (ctid_blk >= ctx->nblocks)
		PaxVerifyReport(ctx, "t_ctid (%u,%u) points past the end of the relation (%u blocks)",
						ctid_blk, ctid_off, ctx->nblocks);
	else
	{
		/* another page's TID offsets are not known here: the most any has */
		int			capacity = ctid_blk != ctx->blkno ? PAX_MAX_CAPACITY :
			PaxPageHasTidMap(page) ? PaxPageTidMap(page)->maxtids :
			hdr->pp_capacity;

		if (ctid_off < FirstOffsetNumber || ctid_off > capacity)
			PaxVerifyReport(ctx, "t_ctid (%u,%u) points at a row slot not in the range 1 .. %d",
							ctid_blk, ctid_off, capacity);
	}
}

/*
 * PaxVerifyCompact checks a compact page's row states before any row
 * header is read through them: each is shared, UNUSED or a header slot
 * that no other row names, and rows at or above pp_nrows are shared (never
 * used).  Returns false when the rows cannot be read.
 */
static bool
PaxVerifyCompact(PaxVerifyContext *ctx, Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	const uint8 *states = PaxCompactStates(page, ctx->layout->rowhdrs);
	int			owner[PAX_COMPACT_SLOTS + 1];
	bool		ok = true;

	uint32		check;

	memcpy(&check, page + ctx->layout->rowhdrs + PAX_COMPACT_CHECK,
		   sizeof(check));
	if (check != 0 && check != PaxPageMetaCheck(page))
		PaxVerifyReport(ctx, "check word %08X does not match the page's layout and encodings (%08X)",
						check, PaxPageMetaCheck(page));
	for (int k = 0; k <= PAX_COMPACT_SLOTS; k++)
		owner[k] = -1;
	for (int r = 0; r < hdr->pp_capacity; r++)
	{
		uint8		s = states[r];

		ctx->row = r;
		if (s == PAX_STATE_SHARED ||
			(s == PAX_STATE_UNUSED && r < hdr->pp_nrows))
			continue;
		if (s == PAX_STATE_OVERFLOW && r < hdr->pp_nrows)
		{
			BlockNumber hblk = PaxCompactHeaderPage(page, ctx->layout->rowhdrs);

			if (hblk >= ctx->nblocks)
				ctx->nblocks = RelationGetNumberOfBlocks(ctx->rel);
			if (hblk == 0 || hblk >= ctx->nblocks)
				PaxVerifyReport(ctx, "row's header is on header page %u, not a block of the relation",
								hblk);
			else
				continue;
		}
		else if (r >= hdr->pp_nrows)
			PaxVerifyReport(ctx, "row state %u beyond the page's rows", s);
		else if (s > PAX_COMPACT_SLOTS)
			PaxVerifyReport(ctx, "row state %u is not a state", s);
		else if (owner[s] >= 0)
			PaxVerifyReport(ctx, "row header slot %u is also row %d's",
							s, owner[s] + 1);
		else
		{
			owner[s] = r;
			continue;
		}
		ok = false;
	}
	ctx->row = -1;
	return ok;
}

static void PaxVerifyItem(PaxVerifyContext *ctx, Page page, PaxPageHeader hdr);

/*
 * PaxVerifyTidMap checks a page's TID map (PaxTidMapProblem) before any
 * row is read through it, and that each REDIRECT names a heap-only
 * version, as heap_page_prune leaves them.  Returns false when the rows
 * cannot be read.
 */
static bool
PaxVerifyTidMap(PaxVerifyContext *ctx, Page page)
{
	const char *problem = PaxTidMapProblem(page, ctx->layout->rowhdrs);
	int			maxtid = PaxPageMaxTid(page);

	if (problem != NULL)
	{
		PaxVerifyReport(ctx, "%s", problem);
		return false;
	}
	for (int off = 1; off <= maxtid; off++)
	{
		int			slot;
		int			target;
		int			tslot;

		if (PaxTidWhat(page, ctx->layout->rowhdrs, off, &slot,
					   &target) != PAX_TIDK_REDIRECT)
			continue;
		tslot = PaxTidSlot(page, ctx->layout->rowhdrs, target);
		if (tslot < 0 ||
			!HeapTupleHeaderIsHeapOnly(PaxRowHeader(page, ctx->layout->rowhdrs,
													tslot)))
			PaxVerifyReport(ctx, "redirect at TID offset %d points at %d, which is not a heap-only version",
							off, target);
	}
	return true;
}

/*
 * PaxVerifyPage checks one page, share-locked by the caller.
 */
static void
PaxVerifyPage(PaxVerifyContext *ctx, Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	ctx->row = -1;
	ctx->attnum = -1;
	if (PageIsNew(page))
	{
		/* a page never initialised is all zeroes; anything else is broken */
		for (int i = 0; i < BLCKSZ; i++)
		{
			if (page[i] != 0)
			{
				PaxVerifyReport(ctx, "page has pd_upper 0, but is not all zeroes");
				break;
			}
		}
		return;
	}
	/*
	 * An orphan page holds only dead rows, whose columns are unknown.  Its
	 * special space must be where the header check expects it first, and
	 * its layout xid plausible before the commit log is asked about it.
	 */
	if (((PageHeader) page)->pd_special == PAX_SPECIAL_START &&
		TransactionIdIsValid(PaxPageGetOpaque(page)->pax_layout_xid))
	{
		TransactionId xid = PaxPageGetOpaque(page)->pax_layout_xid;

		if (!PaxLayoutXidPlausible(xid))
		{
			PaxVerifyReport(ctx, "layout xid %u is not a valid transaction ID",
							xid);
			return;
		}
		if (PaxPageIsOrphan(page) &&
			hdr->pp_natts <= MaxTupleAttributeNumber)
			return;
	}
	if (!PaxVerifyPageHeader(ctx, page, true))
		return;
	PaxVerifyDirectory(ctx, page);
	if (ctx->layout->compact && !PaxVerifyCompact(ctx, page))
		return;
	if (PaxPageHasTidMap(page) && !PaxVerifyTidMap(ctx, page))
		return;

	for (ctx->row = 0; ctx->row < hdr->pp_nrows; ctx->row++)
	{
		if (PaxRowUnused(page, ctx->layout->rowhdrs, ctx->row))
		{
			if (!ctx->layout->compact)
				PaxVerifyItem(ctx, page, hdr);
			else if (!PaxVerifyRowCleared(ctx, page, ctx->row, true))
				PaxVerifyReport(ctx, "unused row slot holds values");
			continue;
		}
		PaxVerifyRowHeader(ctx, page,
						   PaxRowHeaderOf(ctx->rel, page, ctx->layout->rowhdrs,
										  ctx->row));
		PaxVerifyValues(ctx, page, ctx->row);
	}
	ctx->row = -1;
	PaxVerifyValueArea(ctx, page);
	/* slots not stored yet are all zero: a smaller pp_nrows shows */
	ctx->row = hdr->pp_nrows;
	for (; ctx->row < hdr->pp_capacity &&
		 !(hdr->pp_flags & PAX_PAGE_HEADERS); ctx->row++)
	{
		if (!PaxVerifyRowCleared(ctx, page, ctx->row, false))
		{
			PaxVerifyReport(ctx, "row slot beyond the page's %u rows is not empty",
							hdr->pp_nrows);
			break;
		}
	}
	ctx->row = -1;
}

/*
 * PaxVerifyItem checks an UNUSED slot of a row-form page that is an item
 * (PAX_ROW_ITEM): the page's flags say it has items, a REDIRECT names a
 * heap-only version on the page, as heap_page_prune leaves them.
 */
static void
PaxVerifyItem(PaxVerifyContext *ctx, Page page, PaxPageHeader hdr)
{
	HeapTupleHeader rh = PaxRowHeader(page, ctx->layout->rowhdrs, ctx->row);
	int			target;
	HeapTupleHeader th;

	if (!PaxRowIsItem(rh))
		return;
	if (!(hdr->pp_flags & PAX_PAGE_HAS_ITEMS))
		PaxVerifyReport(ctx, "row slot is an item but the page's flags 0x%04X do not say so",
						hdr->pp_flags);
	if (!PaxRowIsRedirect(rh))
		return;
	target = ItemPointerGetOffsetNumber(&rh->t_ctid) - 1;
	if (ItemPointerGetBlockNumber(&rh->t_ctid) != ctx->blkno ||
		target >= hdr->pp_nrows || target == ctx->row)
	{
		PaxVerifyReport(ctx, "redirect points at (%u,%d), outside its page's rows",
						ItemPointerGetBlockNumber(&rh->t_ctid), target + 1);
		return;
	}
	th = PaxRowHeader(page, ctx->layout->rowhdrs, target);
	if (PaxRowIsUnused(th) || !HeapTupleHeaderIsHeapOnly(th))
		PaxVerifyReport(ctx, "redirect points at row %d, which is not a heap-only version",
						target + 1);
}

/*
 * PaxVerifyUnreadable reports what is wrong with a private copy of a page
 * the buffer manager refuses to read: a bad checksum, invalid pd_flags,
 * and whatever the pax checks find on the copy.
 */
static void
PaxVerifyUnreadable(PaxVerifyContext *ctx, Page page)
{
	PageHeader	phdr = (PageHeader) page;
	int64		before = ctx->nproblems;

	ctx->row = -1;
	ctx->attnum = -1;
	if (!PageIsNew(page) && DataChecksumsEnabled())
	{
		uint16		checksum = pg_checksum_page((char *) page, ctx->blkno);

		if (checksum != phdr->pd_checksum)
			PaxVerifyReport(ctx, "page checksum %u does not match its computed checksum %u",
							phdr->pd_checksum, checksum);
	}
	if (phdr->pd_flags & ~PD_VALID_FLAG_BITS)
		PaxVerifyReport(ctx, "pd_flags 0x%04X has invalid bits",
						phdr->pd_flags);
	PaxVerifyPage(ctx, page);
	if (ctx->nproblems == before)
	{
		ctx->row = -1;
		ctx->attnum = -1;
		PaxVerifyReport(ctx, "page fails the buffer manager's verification");
	}
}

/* ----------------------------------------------------------------
 * SQL interface
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyNoteBadBlock records that the page pass reported problems on
 * block blkno (called in ascending block order): the index checks read no
 * row's values there.
 */
static void
PaxVerifyNoteBadBlock(PaxVerifyContext *ctx, BlockNumber blkno)
{
	if (ctx->nbad_blocks == ctx->max_bad_blocks)
	{
		ctx->max_bad_blocks = Max(16, ctx->max_bad_blocks * 2);
		ctx->bad_blocks = ctx->bad_blocks == NULL ?
			palloc(ctx->max_bad_blocks * sizeof(BlockNumber)) :
			repalloc(ctx->bad_blocks,
					 ctx->max_bad_blocks * sizeof(BlockNumber));
	}
	ctx->bad_blocks[ctx->nbad_blocks++] = blkno;
}

/*
 * pax_verify(rel regclass, check_indexes bool DEFAULT true,
 *			  heapallindexed bool DEFAULT false,
 *			  OUT blkno bigint, OUT row int, OUT attnum int, OUT msg text)
 * RETURNS SETOF record
 *
 * One row per problem found: the block, the row (its TID offset, row
 * index + 1; NULL for a page-level problem), the column (NULL when the
 * problem is not one column's) and a description.  No rows: nothing found.
 * heapallindexed (which implies check_indexes) also compares every btree
 * index's entries with the rows' keys, both ways (pax_verify_index.c).
 * Adapted from verify_heapam() in contrib/amcheck/verify_heapam.c,
 * PostgreSQL 15.
 *
 * Locking: AccessShareLock on the relation, which allows every concurrent
 * change but DDL; with heapallindexed, ShareUpdateExclusiveLock, as
 * amcheck takes a stronger lock for its stronger checks: VACUUM, which
 * frees row slots that index entries name and lets inserts reuse them,
 * then cannot run, so an entry's row is the row it was made for.  Called
 * through the 1.0 - 1.2 declaration (two arguments), heapallindexed is
 * false.
 */
Datum
pax_verify(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	bool		check_indexes = PG_GETARG_BOOL(1);
	bool		heapallindexed = PG_NARGS() > 2 && PG_GETARG_BOOL(2);
	LOCKMODE	lockmode = heapallindexed ?
		ShareUpdateExclusiveLock : AccessShareLock;
	PaxVerifyContext ctx;

	InitMaterializedSRF(fcinfo, 0);
	Assert(((ReturnSetInfo *) fcinfo->resultinfo)->setDesc->natts == PAX_VERIFY_COLS);

	memset(&ctx, 0, sizeof(ctx));
	ctx.rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	ctx.rel = PaxOpenForStats(relid, lockmode);
	ctx.tupdesc = RelationGetDescr(ctx.rel);

	/* an unlogged relation has no main fork on a standby: nothing to check */
	if (ctx.rel->rd_rel->relpersistence == RELPERSISTENCE_UNLOGGED &&
		RecoveryInProgress())
	{
		relation_close(ctx.rel, lockmode);
		return (Datum) 0;
	}

	ctx.nblocks = RelationGetNumberOfBlocks(ctx.rel);
	ctx.bstrategy = GetAccessStrategy(BAS_BULKREAD);
	ctx.layout = palloc(SizeOfPaxPageLayout(Max(ctx.tupdesc->natts, 1)));
	ctx.zone_ok = palloc0(Max(ctx.tupdesc->natts, 1) * sizeof(bool));
	ctx.zone_cmp = palloc0(Max(ctx.tupdesc->natts, 1) * sizeof(FmgrInfo *));
	ctx.relfrozenxid = ctx.rel->rd_rel->relfrozenxid;
	ctx.relminmxid = ctx.rel->rd_rel->relminmxid;
	PaxVerifyReadXidRange(&ctx);
	ReadMultiXactIdRange(&ctx.oldest_mxact, &ctx.next_mxact);

	for (BlockNumber blkno = 0; blkno < ctx.nblocks; blkno++)
	{
		Buffer		buffer;
		int64		before = ctx.nproblems;

		CHECK_FOR_INTERRUPTS();
		ctx.blkno = blkno;
		buffer = PaxVerifyReadBuffer(&ctx, blkno, &ctx.copy);
		if (!BufferIsValid(buffer))
			PaxVerifyUnreadable(&ctx, (Page) ctx.copy.data);
		else
		{
			LockBuffer(buffer, BUFFER_LOCK_SHARE);
			PaxVerifyPage(&ctx, BufferGetPage(buffer));
			UnlockReleaseBuffer(buffer);
		}
		if (ctx.nproblems != before)
			PaxVerifyNoteBadBlock(&ctx, blkno);
	}
	ctx.checked_nblocks = ctx.nblocks;

	if (check_indexes || heapallindexed)
		PaxVerifyIndexes(&ctx, heapallindexed);

	FreeAccessStrategy(ctx.bstrategy);
	relation_close(ctx.rel, lockmode);
	return (Datum) 0;
}
