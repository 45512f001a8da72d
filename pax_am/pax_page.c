/*-------------------------------------------------------------------------
 *
 * pax_page.c
 *	  The PAX page layout: initialisation, layout derivation, verification,
 *	  value access, zone maps, row slots and compaction (VACUUM's reclaim).
 *
 * One page holds one group of rows, split into one minipage per column:
 *
 *	+----------------------------+  0
 *	| PageHeaderData             |
 *	| PaxPageHeaderData          |  nrows, capacity, natts, flags
 *	| column directory           |  5 bitmaps x BITMAPLEN(natts):
 *	|                            |  absent, nullmap, zone, hasnull, zoneset
 *	| zone maps                  |  PaxZone {min, max} per zone column
 *	| row headers                |  capacity x HeapTupleHeaderData (24 B)
 *	| minipage col 1             |  [null bitmap] values: capacity x attlen
 *	| minipage col 2 (varlena)   |  [null bitmap] capacity x uint16 offsets
 *	| ...                        |
 *	+----------------------------+  pd_lower
 *	| free space                 |
 *	+----------------------------+  pd_upper
 *	| value area                 |  varlena/cstring values, growing down
 *	+----------------------------+  pd_special
 *	| PaxPageOpaqueData          |  magic, version, layout xid
 *	+----------------------------+  BLCKSZ
 *
 * Invariants (numbered as in pax_am/README, which has a worked page):
 * - 1: Everything that must survive lies outside the hole between pd_lower
 *	 and pd_upper: the minipages are sized for the page's whole capacity
 *	 at initialisation and pd_lower covers them, so generic WAL deltas,
 *	 full-page images and hint-bit images (which all skip the hole) keep
 *	 them.
 * - 2: Only the header, the directory and the zone maps are stored; every
 *	 offset is derived from them and from attlen/attalign of the tuple
 *	 descriptor, which survive DROP COLUMN.  ABSENT, NULLMAP and ZONE are
 *	 fixed when the page is initialised; HASNULL and ZONESET, the zone maps
 *	 and nrows change on every insert (under an exclusive buffer lock).
 * - 3: A stored row's values never move or change while the row exists,
 *	 so a reader holding only a pin may read the values of rows it found
 *	 visible under a share lock.  (VACUUM compacts the value area only
 *	 under a cleanup lock: pax_vacuum.c.)
 * - 6: Row i has TID (block, i + 1); a slot below pp_nrows is a row or
 *	 UNUSED, a slot at or above it is all zero.
 *
 * pax_am/pax_page.c
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
#include "pax_minipage.h"
#include "pax_page.h"

/*
 * Orphan pages.
 *
 * ALTER TABLE ADD COLUMN reuses the attribute number of a column whose
 * ADD COLUMN rolled back, so a page laid out for the rolled-back column
 * (by its own transaction, the only one that could insert while it held
 * its AccessExclusiveLock) may later have as many columns as the relation
 * but not the same ones: another type, length or alignment.  Such a page
 * records in pax_layout_xid the transaction that added the relation's last
 * column, when a page is laid out by that transaction or one of its
 * subtransactions.  If that transaction aborts, the page is an orphan:
 * every row on it is dead, its layout and values are never read, and
 * VACUUM lays it out afresh.  Until it commits, no other transaction puts
 * rows there.  VACUUM clears a committed pax_layout_xid before it can
 * freeze the page, so no page keeps an xid older than relfrozenxid.
 *
 * Pages written for a relation file created in the same transaction need
 * no xid (the file goes if the transaction aborts), and frozen inserts
 * (COPY FREEZE) must not have one: VACUUM never visits all-frozen pages.
 */

/*
 * PaxLayoutXid returns the xid a page laid out now must record: the
 * transaction that added the relation's last column, if that is this
 * transaction or one of its subtransactions, else InvalidTransactionId.
 */
TransactionId
PaxLayoutXid(Relation rel)
{
	int			natts = RelationGetNumberOfAttributes(rel);
	TransactionId xmin = InvalidTransactionId;
	HeapTuple	tup;

	if (natts == 0)
		return InvalidTransactionId;
	tup = SearchSysCache2(ATTNUM, ObjectIdGetDatum(RelationGetRelid(rel)),
						  Int16GetDatum(natts));
	if (HeapTupleIsValid(tup))
	{
		xmin = HeapTupleHeaderGetXmin(tup->t_data);
		ReleaseSysCache(tup);
		if (!TransactionIdIsCurrentTransactionId(xmin))
			xmin = InvalidTransactionId;
	}
	return xmin;
}

typedef enum PaxLayoutStatus
{
	PAX_LAYOUT_VALID,			/* no xid, or ours, or committed */
	PAX_LAYOUT_IN_PROGRESS,		/* another transaction's, still running */
	PAX_LAYOUT_ABORTED			/* an orphan */
} PaxLayoutStatus;

/*
 * PaxLayoutXidPlausible tells whether a page's layout xid can be asked
 * about: a normal xid that the commit log still covers (not before
 * oldestClogXid: VACUUM clears a committed layout xid before relfrozenxid
 * passes it) and that was assigned (before nextXid).  Any other value is a
 * corrupted special space, whose commit log lookup would fail or read
 * another transaction's status.
 */
bool
PaxLayoutXidPlausible(TransactionId xid)
{
	TransactionId next;
	TransactionId oldest;

	if (!TransactionIdIsNormal(xid))
		return false;
	next = XidFromFullTransactionId(ReadNextFullTransactionId());
	LWLockAcquire(XactTruncationLock, LW_SHARED);
	oldest = PaxTransamVariables->oldestClogXid;
	LWLockRelease(XactTruncationLock);
	return TransactionIdPrecedes(xid, next) &&
		!TransactionIdPrecedes(xid, oldest);
}

static PaxLayoutStatus
PaxPageLayoutStatus(Page page)
{
	TransactionId xid = PaxPageGetOpaque(page)->pax_layout_xid;

	if (!TransactionIdIsValid(xid) || TransactionIdIsCurrentTransactionId(xid))
		return PAX_LAYOUT_VALID;
	if (!PaxLayoutXidPlausible(xid))
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("pax page records layout transaction %u, which is not a valid transaction ID",
						xid)));
	if (TransactionIdIsInProgress(xid))
		return PAX_LAYOUT_IN_PROGRESS;
	if (TransactionIdDidCommit(xid))
		return PAX_LAYOUT_VALID;
	return PAX_LAYOUT_ABORTED;	/* aborted, or crashed before committing */
}

/*
 * PaxPageIsOrphanSlow, behind the PaxPageIsOrphan macro, tells whether a page was laid out for columns of a
 * rolled-back ALTER TABLE ADD COLUMN (see above): every row on it is dead.
 * A page with more columns than the relation that is not an orphan is
 * corrupted, and PaxPageGetLayout says so.  The caller holds a lock on the
 * buffer.
 */
bool
PaxPageIsOrphanSlow(Page page)
{
	return PaxPageLayoutStatus(page) == PAX_LAYOUT_ABORTED;
}

/*
 * PaxPageLayoutUsable tells whether this transaction may put rows on a page
 * (of the relation's column count): not if its layout belongs to another
 * transaction's uncommitted ALTER TABLE, or to a rolled-back one.
 */
bool
PaxPageLayoutUsable(Page page)
{
	return PaxPageLayoutStatus(page) == PAX_LAYOUT_VALID;
}

/*
 * PaxPageCorrupted reports block blkno of rel as an invalid pax page; rel
 * is NULL for a page read from WAL (logical decoding's page images).
 */
void
PaxPageCorrupted(Relation rel, BlockNumber blkno, const char *detail)
{
	if (rel == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("invalid pax page image of block %u in WAL", blkno),
				 errdetail_internal("%s", detail)));
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid pax page in block %u of relation \"%s\"",
					blkno, RelationGetRelationName(rel)),
			 errdetail_internal("%s", detail)));
}

/* PaxPageHeaderIsValid tells whether PaxPageCheckHeader would pass. */
bool
PaxPageHeaderIsValid(Page page)
{
	return PaxPageHeaderProblem(page) == NULL;
}

/*
 * PaxBasesAt returns the offset of a page's base array as its column
 * directory places it: after the directory (with its widths on an encoded
 * page), MAXALIGN'd, and the zone maps.  Nothing is verified: the caller
 * has verified the page's header (pp_natts in range), or only masks bytes.
 */
uint32
PaxBasesAt(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	bits8	   *zone = PaxPageGetDirMap(page, PAX_DIR_ZONE);
	int			nzones;

	/* the zone bits of the page's columns, a byte at a time */
	nzones = (int) pg_popcount((const char *) zone, hdr->pp_natts / 8);
	if (hdr->pp_natts % 8 != 0)
		nzones += pg_number_of_ones[zone[hdr->pp_natts / 8] &
									((1 << (hdr->pp_natts % 8)) - 1)];
	return MAXALIGN(SizeOfPageHeaderData + sizeof(PaxPageHeaderData) +
					PAX_NDIRMAPS * PaxDirMapLen(hdr->pp_natts) +
					(PaxPageIsEncoded(page) ? hdr->pp_natts : 0)) +
		nzones * sizeof(PaxZone);
}

/*
 * PaxRowHeadersAt returns the offset of a page's row headers as its column
 * directory places them, after the base array, under PaxBasesAt's terms.
 */
uint32
PaxRowHeadersAt(Page page)
{
	uint32		off = PaxBasesAt(page);

	if (PaxPageIsEncoded(page))
	{
		const uint8 *widths = PaxPageGetWidths(page);

		for (int i = 0; i < PaxPageGetHeader(page)->pp_natts; i++)
			off += PaxBaseBytes(widths[i]);
	}
	return off;
}

/*
 * PaxCheckSharedHeader raises data_corrupted when a compact page's shared
 * row header has an xmax: a row that gets one gets a header of its own
 * first (PaxTargetSetXmax), so the shared header's xmax is 0 and its
 * infomask names no updater, locker or multixact.  Heap's visibility
 * routines, which every row of the page goes through with it, rely on a
 * named xmax being there (and assert it).
 */
void
PaxCheckSharedHeader(Relation rel, Page page, BlockNumber blkno,
					 uint16 rowhdrs)
{
	HeapTupleHeader h = (HeapTupleHeader) (page + rowhdrs);

	if (unlikely(HeapTupleHeaderGetRawXmax(h) != InvalidTransactionId ||
				 (h->t_infomask & (HEAP_XMAX_COMMITTED | HEAP_XMAX_IS_MULTI |
								   HEAP_XMAX_LOCK_ONLY | HEAP_XMAX_KEYSHR_LOCK |
								   HEAP_XMAX_EXCL_LOCK | HEAP_MOVED)) != 0 ||
				 (h->t_infomask2 & HEAP_KEYS_UPDATED) != 0))
		PaxPageCorrupted(rel, blkno, "the rows' shared header has an xmax");
}

/*
 * PaxPageRowHeaderOffset verifies a page's header and returns the offset
 * of its row headers, which depends on the column directory only, but does
 * not look at any row header: see PaxPageRowHeaders.
 */
uint16
PaxPageRowHeaderOffset(Relation rel, Page page, BlockNumber blkno)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	uint32		off;

	PaxPageCheckHeader(rel, page, blkno);
	off = PaxRowHeadersAt(page);
	if (off + PaxRowAreaSize(PaxPageIsCompact(page), hdr->pp_capacity) >
		((PageHeader) page)->pd_lower)
		PaxPageCorrupted(rel, blkno, "row headers extend past pd_lower");
	if (PaxPageIsCompact(page))
		PaxCheckSharedHeader(rel, page, blkno, off);

	/*
	 * A page has more columns than the relation only when a rolled-back ADD
	 * COLUMN laid it out (an orphan); fewer after ADD COLUMN.
	 */
	if (unlikely(hdr->pp_natts > RelationGetNumberOfAttributes(rel)) &&
		!PaxPageIsOrphan(page))
		PaxPageCorrupted(rel, blkno, "more columns than the relation has");
	return (uint16) off;
}

/*
 * PaxPageCheckRowNatts verifies that a stored row's header records its
 * page's column count.  pp_natts places the row headers: a wrong one would
 * have them read from the wrong bytes, and the page's rows vanish (or
 * appear) without an error; every stored row's header records the page's
 * count (see PaxAddRowToPage), so the row about to be read must match.
 */
void
PaxPageCheckRowNatts(Relation rel, Page page, BlockNumber blkno,
					 HeapTupleHeader tup)
{
	if (unlikely(HeapTupleHeaderGetNatts(tup) != PaxPageGetHeader(page)->pp_natts))
		PaxPageCorrupted(rel, blkno, "row headers do not record the page's column count");
}

/*
 * PaxPageRowHeaders verifies a page's header, and the column count of its
 * first stored row (PaxPageCheckRowNatts), and returns the offset of its
 * row headers.  Readers of row headers alone (ANALYZE, VACUUM, bitmap
 * pages) need nothing more; readers of values go through PaxPageGetLayout,
 * whose layout has it too; readers of one row (PaxReadRow) check that row.
 */
uint16
PaxPageRowHeaders(Relation rel, Page page, BlockNumber blkno)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	uint16		off = PaxPageRowHeaderOffset(rel, page, blkno);

	for (int row = 0; row < hdr->pp_nrows; row++)
	{
		if (PaxRowUnused(page, off, row))
			continue;
		PaxPageCheckRowNatts(rel, page, blkno, PaxRowHeader(page, off, row));
		break;
	}
	return off;
}



/*
 * PaxTidMapSpecialOk tells whether the special space of a page flagged
 * PAX_PAGE_TIDMAP holds a map of the right size: PaxPageHeaderProblem
 * accepts its special size then.
 */
bool
PaxTidMapSpecialOk(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			special = ((PageHeader) page)->pd_special;
	PaxTidMapData *map;

	if (hdr->pp_flags & (PAX_PAGE_COMPACT | PAX_PAGE_HEADERS) ||
		hdr->pp_capacity < 1 || hdr->pp_capacity > PAX_MAX_CAPACITY ||
		special < SizeOfPageHeaderData ||
		special + PAX_TIDMAP_AT + offsetof(PaxTidMapData, entries) > BLCKSZ)
		return false;
	map = (PaxTidMapData *) (page + special + PAX_TIDMAP_AT);
	return map->maxtids >= 1 && map->maxtids <= MaxHeapTuplesPerPage &&
		map->ntids <= map->maxtids &&
		BLCKSZ - special == PaxTidMapSpecialSize(map->maxtids, hdr->pp_capacity);
}

/* ----------------------------------------------------------------
 * Row slots
 * ----------------------------------------------------------------
 */

/*
 * PaxRowClear clears row slot r of a page (a private copy of the buffer,
 * which the caller holds cleanup-locked): its header and its values.  With
 * unused, the slot becomes an UNUSED slot below pp_nrows (the state
 * PAX_ROW_UNUSED describes in pax_page.h: null bits set); without, the
 * never-used state of slots at or above pp_nrows (all zero), which inserts
 * at pp_nrows rely on.
 */
void
PaxRowClear(Page page, const PaxPageLayout *layout, int r, bool unused)
{
	HeapTupleHeader hdr = PaxRowHeader(page, layout->rowhdrs, r);

	Assert(r >= 0 && r < layout->capacity);
	if (layout->compact)
	{
		uint8	   *state = &PaxCompactStates(page, layout->rowhdrs)[r];

		/* a header slot of its own is free again; the shared one stays */
		if (*state != PAX_STATE_SHARED && *state <= PAX_COMPACT_SLOTS)
			memset(hdr, 0, PAX_ROWHDR_SIZE);
		*state = unused ? PAX_STATE_UNUSED : PAX_STATE_SHARED;
	}
	else
		memset(hdr, 0, PAX_ROWHDR_SIZE);
	if (unused && !layout->compact)
		PaxRowHeaderSetUnused(hdr);
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data == 0)
			continue;
		if (col->bits != 0)
			PaxPackedPut(page + col->data, col->bits, r, 0);
		else if (col->restwidth != 0)
			PaxRestStore(page, col, r, NULL);
		else if (col->attlen > 0 || col->dict != 0)
			memset(page + col->data + r * col->width, 0, col->width);
		else
			((uint16 *) (page + col->data))[r] = 0;
		if (col->nullmap != 0)
		{
			bits8	   *map = (bits8 *) page + col->nullmap;

			if (unused)
				PaxBitSet(map, r);
			else
				map[r >> 3] &= ~(1 << (r & 7));
		}
	}
}

#ifdef USE_ASSERT_CHECKING
/*
 * PaxBufferLockedByMe tells, for Asserts at the sites that rely on a buffer
 * lock (pax_am/README, invariants 2 and 3), whether this backend holds the
 * buffer's content lock: in exclusive mode when exclusive, else in any
 * mode.  Local buffers have no content lock and always pass.
 */
bool
PaxBufferLockedByMe(Buffer buffer, bool exclusive)
{
	LWLock	   *lock;

	if (BufferIsLocal(buffer))
		return true;
	lock = BufferDescriptorGetContentLock(GetBufferDescriptor(buffer - 1));
	return exclusive ? LWLockHeldByMeInMode(lock, LW_EXCLUSIVE) :
		LWLockHeldByMe(lock);
}
#endif

/*
 * PaxPageShapeOf sets *shape to the shape the page was laid out with: its
 * header's row count and capacity, its column directory's bitmaps, its
 * encoded widths when it has them, compact or not; from which
 * PaxLayoutSize gives the page's layout.  The caller has checked that
 * pp_natts leaves the directory within the page.
 */
void
PaxPageShapeOf(Page page, PaxPageShape *shape)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			maplen = PaxDirMapLen(hdr->pp_natts);
	bits8	   *maps = PaxPageGetDirMap(page, PAX_DIR_ABSENT);

	/* The first three directory bitmaps are contiguous: absent, nullmap, zone. */
	shape->natts = hdr->pp_natts;
	shape->capacity = hdr->pp_capacity;
	shape->absent = maps;
	shape->nullmap = maps + maplen;
	shape->zone = maps + 2 * maplen;
	shape->widths = PaxPageIsEncoded(page) ? PaxPageGetWidths(page) : NULL;
	shape->bases = NULL;
	shape->factors = NULL;
	shape->prefixes = NULL;
	shape->compact = PaxPageIsCompact(page);
}
