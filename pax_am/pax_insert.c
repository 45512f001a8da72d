/*-------------------------------------------------------------------------
 *
 * pax_insert.c
 *	  Inserting rows into pax pages: single rows and whole COPY batches.
 *
 * A row is first prepared: its values are taken from the slot, large or
 * external values go through heap's TOAST code (so the table's TOAST
 * relation holds them, exactly as for heap), and the bytes it needs in the
 * value area are computed.  It is then placed on the relation's current
 * insert target page when it fits there (a free row slot, room in the
 * value area, null bitmaps for its NULL columns, the same column count),
 * or on a new page whose shape (capacity, null bitmaps, zone maps) is
 * chosen for it.  Preparing a row is pax_prepare.c's, placing its values
 * pax_place.c's, and choosing a new page's shape pax_shape.c's; this file
 * finds the pages and places the rows.
 *
 * Every page change is one generic WAL record (a PaxChange of pax_wal.c
 * logging the bytes each row wrote; a full image for a new page), so crash
 * recovery and physical standbys replay it; no WAL is written for
 * unlogged and temporary relations (and for relations created in the same
 * transaction under wal_level = minimal).  multi_insert (COPY) fills a
 * whole page per record.
 *
 * Locking: at most one buffer lock is held at a time; the relation
 * extension lock is taken only to add a page.
 *
 * pax_am/pax_insert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/hio.h"
#include "access/htup_details.h"
#include "access/detoast.h"
#include "access/toast_internals.h"
#include "access/tupmacs.h"
#include "access/genam.h"
#include "access/visibilitymap.h"
#include "access/xact.h"
#include "executor/tuptable.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "storage/lmgr.h"
#include "storage/predicate.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplesort.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_mvcc.h"
#include "pax_hio.h"
#include "pax_encode.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/* GUC pax.compact_rows: bulk loads build compact pages (PaxCompactTakes) */
bool		pax_compact_rows = true;


/* The running average of a row's value bytes moves 1/this of the way. */
#define PAX_VAR_AVG_WEIGHT		64.0

/* Pages with free slots an insert takes from the free space map, at most. */
#define PAX_INSERT_FSM_TRIES	4

/* The insert hints of the relation's backend-local cache (pax_buffers.c). */
static PaxRelCache *
PaxGetInsertHints(Relation rel)
{
	return PaxGetRelCache(rel, 0);
}

/*
 * PaxFitList: the columns of one page that a row's values are checked
 * against before the row goes there (PaxRowFits), gathered once per page
 * of a bulk insert rather than found again for every row among all the
 * columns: those whose minipage has no null bitmap (no NULLs), those
 * absent from the page (only NULLs), and the encoded ones (values within
 * base .. base + maxdelta, times the factor of a factored column, of a
 * scaled column as integers, as PaxEncodedFits tells).
 */
typedef struct PaxFitList
{
	int			nnotnull;
	int			nabsent;
	int			nencoded;
	int16	   *notnull;
	int16	   *absent;
	int16	   *encoded;
	int16	   *attlen;			/* of each encoded column */
	int64	   *base;
	uint64	   *maxdelta;
	uint64	   *factor;			/* 1 unless the column is factored */
	int64	   *divisor;		/* a scaled column's, else 0 */
} PaxFitList;

/* PaxFitListInit allocates a fit list for natts columns. */
static void
PaxFitListInit(PaxFitList *fl, int natts)
{
	fl->nnotnull = fl->nabsent = fl->nencoded = 0;
	fl->notnull = palloc(natts * sizeof(int16));
	fl->absent = palloc(natts * sizeof(int16));
	fl->encoded = palloc(natts * sizeof(int16));
	fl->attlen = palloc(natts * sizeof(int16));
	fl->base = palloc(natts * sizeof(int64));
	fl->maxdelta = palloc(natts * sizeof(uint64));
	fl->factor = palloc(natts * sizeof(uint64));
	fl->divisor = palloc(natts * sizeof(int64));
}

/* PaxFitListFree frees a fit list's arrays. */
static void
PaxFitListFree(PaxFitList *fl)
{
	pfree(fl->notnull);
	pfree(fl->absent);
	pfree(fl->encoded);
	pfree(fl->attlen);
	pfree(fl->base);
	pfree(fl->maxdelta);
	pfree(fl->factor);
	pfree(fl->divisor);
}

/* PaxFitListBuild gathers the fit list of a page laid out in layout. */
static void
PaxFitListBuild(PaxFitList *fl, Page page, const PaxPageLayout *layout)
{
	fl->nnotnull = fl->nabsent = fl->nencoded = 0;
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data == 0)
		{
			fl->absent[fl->nabsent++] = (int16) i;
			continue;
		}
		if (col->nullmap == 0)
			fl->notnull[fl->nnotnull++] = (int16) i;
		if (col->base != 0)
		{
			int			k = fl->nencoded++;

			fl->encoded[k] = (int16) i;
			fl->attlen[k] = col->attlen;
			fl->base[k] = PaxColumnBase(page, col);
			fl->maxdelta[k] = PaxEncodedMaxDelta(col);
			fl->factor[k] = col->factored ?
				(uint64) PaxColumnFactor(page, col) : 1;
			fl->divisor[k] = PaxColumnDivisor(page, col);
		}
	}
}

/*
 * PaxRowFitsColumns tells whether a prepared row's columns fit a page's
 * layout: a null bitmap for each of its NULL columns, a minipage for each
 * other, and encoded values within their columns' ranges.
 */
bool
PaxRowFitsColumns(TupleDesc tupdesc, const PaxRow *row, Page page,
				  const PaxPageLayout *layout)
{
	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (row->isnull[i] ? (col->data != 0 && col->nullmap == 0) :
			(col->data == 0 ||
			 (col->base != 0 && !PaxEncodedFits(page, col, row->values[i]))))
			return false;
	}
	return true;
}

/*
 * PaxRowFits tells whether a prepared row can go on a page: a free row
 * slot (outside the page's fillfactor reserve unless the row is a
 * heap-only version: PaxPageInReserve), the same column count, a null
 * bitmap for each of its NULL columns, encoded values within their
 * columns' ranges, and room for its values.  fl, when given, is the page's
 * fit list (PaxFitListBuild).
 */
static bool
PaxRowFits(TupleDesc tupdesc, const PaxRow *row, Page page,
		   const PaxPageLayout *layout, const PaxFitList *fl, int fillfactor)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	bool		heaponly = row->init &&
		(row->init->infomask2 & HEAP_ONLY_TUPLE) != 0;

	if (hdr->pp_natts != tupdesc->natts)
		return false;
	if (heaponly ? !PaxPageHasHotSlot(page) : !PaxPageHasFreeSlot(page))
		return false;
	if (!heaponly && PaxPageInReserve(page, fillfactor, 1))
		return false;
	if (fl != NULL)
	{
		for (int k = 0; k < fl->nnotnull; k++)
			if (row->isnull[fl->notnull[k]])
				return false;
		for (int k = 0; k < fl->nabsent; k++)
			if (!row->isnull[fl->absent[k]])
				return false;
		for (int k = 0; k < fl->nencoded; k++)
		{
			int			i = fl->encoded[k];
			int64		v;

			if (!row->isnull[i] &&
				(!PaxEncodedKey(row->values[i], fl->attlen[k], fl->divisor[k], &v) ||
				 !PaxEncodedValueFits(v, fl->base[k], fl->factor[k],
									  fl->maxdelta[k])))
				return false;
		}
	}
	else if (!PaxRowFitsColumns(tupdesc, row, page, layout))
		return false;
	/* (with the layout: values in a dictionary take no room) */
	return PaxRowPlace(tupdesc, row, ((PageHeader) page)->pd_upper,
					   ((PageHeader) page)->pd_lower, page, layout, 0,
					   false) >= 0;
}

static bool PaxRowFrozenPlain(HeapTupleHeader hdr);
static void PaxRowToSlot(Relation rel, TupleTableSlot *slot,
						 HeapTupleHeader rowhdr, BlockNumber blkno, int r);

/*
 * PaxCompactTakes tells whether a row can go on a compact page: only a row
 * of the batch whose rows the page holds (not a new version of an updated
 * row), which would get the very header they share: a fresh row of the same
 * inserting transaction, command and freezing, with the header not yet
 * changed by VACUUM or a hint (an in-progress transaction gets none), or a
 * rewrite's frozen row without xmax (PaxRowFrozenPlain) beside others.  An
 * emptied page takes a new batch.
 */
static bool
PaxCompactTakes(Page page, const PaxPageLayout *layout, const PaxRow *row,
				TransactionId xid, CommandId cid, int options)
{
	HeapTupleHeader shared = (HeapTupleHeader) (page + layout->rowhdrs);
	uint16		infomask = HEAP_XMAX_INVALID;

	Assert(layout->compact);
	if (row->init || (row->srchdr && !PaxRowFrozenPlain(row->srchdr)))
		return false;
	if (PaxPageGetHeader(page)->pp_nrows == 0)
		return true;
	if (row->srchdr)
	{
		/* a rewrite's frozen rows share the canonical frozen header */
		xid = FrozenTransactionId;
		cid = FirstCommandId;
		infomask |= HEAP_XMIN_FROZEN;
	}
	else if (options & HEAP_INSERT_FROZEN)
		infomask |= HEAP_XMIN_FROZEN;
	return HeapTupleHeaderGetRawXmin(shared) == xid &&
		HeapTupleHeaderGetRawCommandId(shared) == cid &&
		shared->t_infomask == infomask;
}

/*
 * PaxRowFrozenPlain tells whether a row a rewrite keeps has a frozen xmin
 * and no xmax: its header then says only "visible to everyone", which the
 * canonical frozen header (FrozenTransactionId, HEAP_XMIN_FROZEN) a compact
 * page's rows may share says as well.
 */
static bool
PaxRowFrozenPlain(HeapTupleHeader hdr)
{
	return HeapTupleHeaderXminFrozen(hdr) &&
		(hdr->t_infomask & HEAP_XMAX_INVALID) &&
		!TransactionIdIsValid(HeapTupleHeaderGetRawXmax(hdr)) &&
		!HeapTupleHeaderIsSpeculative(hdr);
}

/*
 * PaxAddRowToPage stores a prepared row on a page (the private copy of a
 * PaxChange, whose ranges it names, or with chg NULL a page being built
 * apart), sets its TID in the row's slot and returns the row's index on
 * the page.
 * Adapted from heap_prepare_insert() and RelationPutHeapTuple() in heapam.c
 * and hio.c, PostgreSQL 15.
 */
int
PaxAddRowToPage(Relation rel, const PaxRow *row, Page page,
			  const PaxPageLayout *layout, BlockNumber blkno,
			  TransactionId xid, CommandId cid, int options, PaxChange *chg)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			old_upper = ((PageHeader) page)->pd_upper;
	bool		dead_item;
	int			r = PaxPageTakeSlot(page, layout, row->init &&
									(row->init->infomask2 & HEAP_ONLY_TUPLE),
									&dead_item);
	HeapTupleHeader rowhdr = PaxRowHeader(page, (layout)->rowhdrs, r);
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	int			upper;

	Assert(r < layout->capacity && layout->capacity <= PAX_MAX_CAPACITY);
	if (layout->compact && hdr->pp_nrows > 0)
	{
		/* the rows of a compact page share the header its first row set */
		Assert(!row->init);
	}
	else if (layout->compact && row->srchdr)
	{
		/* the canonical frozen header (PaxRowFrozenPlain) */
		memset(rowhdr, 0, PAX_ROWHDR_SIZE);
		rowhdr->t_infomask = HEAP_XMIN_FROZEN | HEAP_XMAX_INVALID;
		HeapTupleHeaderSetXmin(rowhdr, FrozenTransactionId);
		HeapTupleHeaderSetCmin(rowhdr, FirstCommandId);
		HeapTupleHeaderSetNatts(rowhdr, tupdesc->natts);
	}
	else if (row->srchdr)
	{
		/* a rewrite keeps the row's transaction information */
		memcpy(rowhdr, row->srchdr, PAX_ROWHDR_SIZE);
		HeapTupleHeaderSetNatts(rowhdr, tupdesc->natts);
	}
	else
	{
		/* the row header, as heap_prepare_insert sets it */
		memset(rowhdr, 0, PAX_ROWHDR_SIZE);
		rowhdr->t_infomask = HEAP_XMAX_INVALID;
		HeapTupleHeaderSetXmin(rowhdr, xid);
		if (options & HEAP_INSERT_FROZEN)
			HeapTupleHeaderSetXminFrozen(rowhdr);
		HeapTupleHeaderSetCmin(rowhdr, cid);
		HeapTupleHeaderSetXmax(rowhdr, 0);
		HeapTupleHeaderSetNatts(rowhdr, tupdesc->natts);
		if (row->init)
		{
			/* a new row version: HEAP_UPDATED and carried-over lockers */
			rowhdr->t_infomask = row->init->infomask;
			rowhdr->t_infomask2 |= row->init->infomask2;
			HeapTupleHeaderSetXmax(rowhdr, row->init->xmax);
		}
	}
	rowhdr->t_hoff = PAX_ROWHDR_SIZE;
	rowhdr->t_infomask2 |= dead_item ? PAX_ROW_ITEM : 0;	/* stale entries */
	if (layout->compact)
		ItemPointerSet(&rowhdr->t_ctid, blkno, PAX_CTID_SELF);
	else if (row->init && row->init->spectoken != 0)
		HeapTupleHeaderSetSpeculativeToken(rowhdr, row->init->spectoken);
	else
		ItemPointerSet(&rowhdr->t_ctid, blkno, PaxSlotTid(page, r));

	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data == 0)
			continue;
		if (row->isnull[i])
		{
			PaxBitSet((bits8 *) page + col->nullmap, r);
			PaxBitSet(hasnull, i);
			if (col->dict != 0)
				PaxDictCodeSet(page, col, r, 0);
			else if (col->restwidth != 0)
				PaxRestStore(page, col, r, NULL);
			else if (col->numslot != 0)
				PaxPackedPut(page + col->data, col->bits, r, 0);
			else if (col->attlen < 0)
				((uint16 *) (page + col->data))[r] = 0;
			continue;
		}
		if (col->attlen <= 0)
			continue;			/* placed below */

		if (col->base != 0)
			PaxEncodedStore(page, col, r, row->values[i]);
		else if (col->byval)
			store_att_byval(page + col->data + r * col->attlen,
							row->values[i], col->attlen);
		else
			memcpy(page + col->data + r * col->attlen,
				   DatumGetPointer(row->values[i]), col->attlen);
		/* (zone maps: PaxInsertRows, for all the page's new rows at once) */
	}

	upper = PaxRowPlace(tupdesc, row, ((PageHeader) page)->pd_upper,
						((PageHeader) page)->pd_lower, page, layout, r, true);
	if (upper < 0)
		elog(ERROR, "pax row does not fit the page it was placed on");
	((PageHeader) page)->pd_upper = upper;
	hdr->pp_nrows = Max(hdr->pp_nrows, r + 1);

	/*
	 * What the row wrote: the headers, directory and zone maps, its row
	 * header, its slot in each minipage (and null bitmap byte), its values;
	 * nothing to name when the whole page is logged (a new page) or built
	 * apart (chg NULL: PaxPageRegrow).
	 */
	if (chg != NULL && !chg->full)
	{
		PaxChangeDiff(chg, 0, layout->rowhdrs);
		PaxChangeRange(chg, (char *) rowhdr - (char *) page, PAX_ROWHDR_SIZE);
		for (int i = 0; i < layout->natts; i++)
		{
			const PaxColumnLayout *col = &layout->cols[i];

			if (col->nullmap != 0)
				PaxChangeRange(chg, col->nullmap + (r >> 3), 1);
			if (col->data != 0)
			{
				uint32		off,
							len;

				PaxRowBytes(col, r, &off, &len);
				PaxChangeRange(chg, off, len);
			}
			if (col->dict != 0)
				PaxChangeRange(chg, col->dict, col->dictcap * sizeof(uint16));
		}
		PaxChangeRange(chg, upper, old_upper - upper);
		if (PaxPageHasTidMap(page))
			PaxChangeTidMapRow(chg, page, r);
	}

	if (row->slot)
		PaxRowToSlot(rel, row->slot, rowhdr, blkno, PaxSlotTid(page, r));
	return r;
}

/*
 * PaxRowToSlot tells the slot a row came from its TID (TID offset off of
 * block blkno) and, for RETURNING xmin, cmin, ..., its new header, as
 * heap's slot holds the tuple heap_insert/heap_update stamped.
 */
static void
PaxRowToSlot(Relation rel, TupleTableSlot *slot, HeapTupleHeader rowhdr,
			 BlockNumber blkno, int off)
{
	ItemPointerSet(&slot->tts_tid, blkno, off);
	slot->tts_tableOid = RelationGetRelid(rel);
	if (slot->tts_ops == &TTSOpsPaxTuple &&
		!BufferIsValid(((PaxTupleTableSlot *) slot)->buffer))
	{
		PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

		memcpy(pslot->rowhdr.bytes, rowhdr, PAX_ROWHDR_SIZE);
		pslot->hashdr = true;
	}
}

/*
 * PaxReinitOrphan lays out a page afresh, empty, for rows of the relation as
 * it is now (VACUUM reuses an orphan page this way).  The page is a
 * private page copy whose change is logged as a full image.  The caller holds
 * the buffer cleanup-locked.
 */
void
PaxReinitOrphan(Relation rel, Page page)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxRelCache *hints = PaxGetInsertHints(rel);
	PaxPageShape shape;

	PaxChooseShape(tupdesc, NULL, 0, hints->var_valid ? hints->var_avg : 0,
				   0,
				   true, NULL, false, false, &shape);
	PaxPageInit(page, tupdesc, &shape);
	PaxShapeFree(&shape);
}

/*
 * PaxExistingPageFor returns a page the row fits on, exclusively locked and
 * laid out in *layout (through cache): the insert target page, else one of
 * a few pages with free slots (VACUUM reclaimed) the free space map offers;
 * or InvalidBuffer.  *vmbuffer is pinned for an all-visible page; the
 * relation's fillfactor keeps its reserve.  Adapted from
 * RelationGetBufferForTuple() in hio.c, PostgreSQL 15, with the fitting
 * test (PaxRowFits) in place of heap's free space test.
 */
static Buffer
PaxExistingPageFor(Relation rel, const PaxRow *row, BulkInsertState bistate,
				   int fillfactor, Buffer *vmbuffer, PaxLayoutCache *cache,
				   PaxPageLayout **layout)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	Buffer		buffer = PaxTargetPage(rel, bistate, vmbuffer);

	if (BufferIsValid(buffer))
	{
		/* (PaxTargetPage returns only pages this transaction may use) */
		*layout = PaxPageGetLayout(rel, tupdesc, BufferGetPage(buffer),
								   BufferGetBlockNumber(buffer), cache);
		if (PaxRowFits(tupdesc, row, BufferGetPage(buffer), *layout, NULL,
					   fillfactor))
			return buffer;
		UnlockReleaseBuffer(buffer);
	}

	for (int tries = 0; tries < PAX_INSERT_FSM_TRIES; tries++)
	{
		buffer = PaxFreeSpacePage(rel, row->varbytes,
								  bistate ? bistate->strategy : NULL,
								  vmbuffer);
		if (!BufferIsValid(buffer))
			break;
		if (!PaxPageLayoutUsable(BufferGetPage(buffer)))
		{
			UnlockReleaseBuffer(buffer);
			continue;
		}
		*layout = PaxPageGetLayout(rel, tupdesc, BufferGetPage(buffer),
								   BufferGetBlockNumber(buffer), cache);
		if (PaxRowFits(tupdesc, row, BufferGetPage(buffer), *layout, NULL,
					   fillfactor))
			return buffer;
		PaxFreeSpaceUpdate(rel, buffer);
		UnlockReleaseBuffer(buffer);
	}
	return InvalidBuffer;
}

/*
 * PaxStartNewPage adds a page shaped for rows[0..nrows) (PaxShapeForRows;
 * updatable for a fillfactor below 100) and starts its change (a full
 * image) in *chg; returns the page copy, laid out in *layout, with the new
 * buffer, exclusively locked, in *buffer.
 */
static Page
PaxStartNewPage(Relation rel, const PaxRow *rows, int nrows, bool eager,
				bool compact, bool updatable, int options,
				BulkInsertState bistate, PaxRelCache *hints,
				PaxLayoutCache *cache, PaxChange *chg, Buffer *buffer,
				PaxPageLayout **layout)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPageShape shape;
	Page		page;

	PaxShapeForRows(tupdesc, rows, nrows, eager, compact, updatable, hints,
					&shape);
	Assert(shape.capacity >= 1 && shape.capacity <= PAX_MAX_CAPACITY);
	/* the hints start afresh with the rows of the new page */
	for (int i = 0; i < PAX_HINT_ATTS; i++)
	{
		hints->hints[i].set = false;
		hints->hints[i].nvhash = 0;
		hints->hints[i].nvrows = 0;
		hints->hints[i].vbytes = 0;
	}
	*buffer = PaxNewPage(rel, bistate);
	page = PaxChangeStart(chg, rel, *buffer, true);
	PaxPageInit(page, tupdesc, &shape);
	/* rewrites and frozen inserts need none (see PaxLayoutXid) */
	if (!rows[0].srchdr && !(options & HEAP_INSERT_FROZEN))
		PaxPageGetOpaque(page)->pax_layout_xid = PaxLayoutXid(rel);
	PaxShapeFree(&shape);
	*layout = PaxPageGetLayout(rel, tupdesc, page,
							   BufferGetBlockNumber(*buffer), cache);
	return page;
}

/*
 * PaxInsertPageStats widens the zone maps of the page that rows [first,
 * next) of rows were just added to, and updates the shape hints.  The hints
 * count this page's rows where the next page may be shaped from them (no
 * rows left, or too few to go by: the next page holds about as many rows
 * as this one); else only the range of all rows placed, as the page's
 * counts start afresh on the next page.
 */
static void
PaxInsertPageStats(TupleDesc tupdesc, const PaxRow *rows, int first, int next,
				   int nrows, Page page, const PaxPageLayout *layout,
				   PaxRelCache *hints)
{
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data != 0 && col->zone >= 0 && col->attlen > 0)
			PaxZoneUpdateRows(page, layout, TupleDescAttr(tupdesc, i), i,
							  &rows[first], next - first);
	}
	if (pax_encode_minipages)
		PaxEncodeHintsUpdate(tupdesc, &rows[first], next - first,
							 nrows - next >= PAX_SHAPE_SAMPLE_ROWS &&
							 next - first >= PAX_SHAPE_SAMPLE_ROWS,
							 hints);
}

/*
 * PaxInsertRows places prepared rows, in order, on the target page and on
 * as many new pages as they need, one generic WAL record per page, as rows
 * of transaction xid (InvalidTransactionId: the current one; rows keeping
 * their headers have theirs).  The caller holds no buffer lock.  Adapted
 * from heap_multi_insert() in
 * heapam.c, PostgreSQL 15 (a page per record, as there).
 */
int
PaxInsertRows(Relation rel, PaxRow *rows, int nrows, CommandId cid,
			  int options, BulkInsertState bistate, TransactionId xid,
			  bool keep_tail)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxRelCache *hints = PaxGetInsertHints(rel);
	PaxLayoutCache local;
	PaxLayoutCache *cache;
	PaxFitList	fits;
	Buffer		vmbuffer = InvalidBuffer;
	int			next = 0;
	int			fillfactor;
	bool		compact;

	/*
	 * Rows for logical decoding: not a rewrite's (rows keeping their
	 * headers), nor an update's new version (pax_tuple_update logs the
	 * update whole).
	 */
	bool		logical = rows[0].srchdr == NULL &&
		!(rows[0].init && (rows[0].init->infomask & HEAP_UPDATED)) &&
		PaxLogicalWanted(rel, options);
	bool		speculative = rows[0].init && rows[0].init->spectoken != 0;

	if (rows[0].srchdr)
		xid = InvalidTransactionId;
	else if (!TransactionIdIsValid(xid))
		xid = GetCurrentTransactionId();
	/* a table with a fillfactor keeps room for updates: no compact pages */
	fillfactor = RelationGetFillFactor(rel, HEAP_DEFAULT_FILLFACTOR);
	compact = pax_compact_rows && nrows > 1 && rows[0].init == NULL &&
		fillfactor >= 100;
	for (int k = 0; compact && rows[0].srchdr && k < nrows; k++)
		compact = PaxRowFrozenPlain(rows[k].srchdr);
	if (nrows > 1)
	{
		cache = &local;
		PaxLayoutCacheInit(cache, tupdesc->natts, CurrentMemoryContext);
	}
	else
		cache = PaxRelLayouts(rel);
	if (nrows > 1)
		PaxFitListInit(&fits, tupdesc->natts);

	/* keep the running estimate of value-area bytes per row */
	for (int i = 0; i < nrows; i++)
	{
		if (!hints->var_valid)
		{
			hints->var_avg = rows[i].varbytes;
			hints->var_valid = true;
		}
		else
			hints->var_avg += (rows[i].varbytes - hints->var_avg) /
				PAX_VAR_AVG_WEIGHT;
	}

	while (next < nrows)
	{
		PaxChange	chg;
		Page		page;
		PaxPageLayout *layout = NULL;
		Buffer		buffer;
		BlockNumber blkno;
		int			first = next;
		int			top;
		int			rowidx[PAX_MAX_CAPACITY];
		StringInfoData pagerows;

		buffer = PaxExistingPageFor(rel, &rows[next], bistate, fillfactor,
									&vmbuffer, cache, &layout);
		if (BufferIsValid(buffer) && layout->compact &&
			!PaxCompactTakes(BufferGetPage(buffer), layout, &rows[next], xid,
							 cid, options))
		{
			UnlockReleaseBuffer(buffer);
			buffer = InvalidBuffer;
		}
		/* too few rows left to fill a new page: the caller keeps them */
		if (!BufferIsValid(buffer) && keep_tail &&
			nrows - next < hints->bulk_capacity)
			break;
		if (BufferIsValid(buffer))
		{
			/* a page VACUUM marked all-visible stops being so */
			if (PageIsAllVisible(BufferGetPage(buffer)))
				PaxClearAllVisible(rel, buffer, vmbuffer);
			page = PaxChangeStart(&chg, rel, buffer, false);
		}
		else
			page = PaxStartNewPage(rel, &rows[next], nrows - next, nrows == 1,
								   compact, fillfactor < 100, options, bistate,
								   hints, cache, &chg, &buffer, &layout);
		blkno = BufferGetBlockNumber(buffer);

		/* the page is the change's private copy until PaxChangeFinish */
		top = ((PageHeader) page)->pd_upper;
		if (nrows > 1)
			PaxFitListBuild(&fits, page, layout);
		do
		{
			rowidx[next - first] = PaxAddRowToPage(rel, &rows[next], page,
												 layout, blkno, xid, cid,
												 options, &chg);
			next++;
		} while (next < nrows &&
				 PaxRowFits(tupdesc, &rows[next], page, layout, &fits,
							fillfactor));
		PaxInsertPageStats(tupdesc, rows, first, next, nrows, page, layout,
						   hints);
		PaxPlaceGroupValues(tupdesc, &rows[first], rowidx, next - first, page,
						   layout, top, &chg);

		/*
		 * For logical decoding, a new page (the one kind logged whole
		 * here: PaxStartNewPage) carries its rows (XLOG_PAX_PAGE_ROWS); else
		 * a record of the rows follows the page's, as heap_multi_insert's
		 * follows its page's.
		 */
		if (logical && chg.full && !speculative)
			PaxLogicalPageRows(rel, &chg, &pagerows, next - first,
							   next == nrows, xid);
		PaxChangeFinish(&chg);
		if (chg.rows != NULL)
			pfree(pagerows.data);

		UnlockReleaseBuffer(buffer);
		RelationSetTargetBlock(rel, blkno);
		Assert(next > first);

		if (logical && chg.rows == NULL)
			PaxLogicalLogInserts(rel, &rows[first], next - first, speculative,
								 next == nrows, xid);
	}
	if (BufferIsValid(vmbuffer))
		ReleaseBuffer(vmbuffer);
	if (nrows > 1)
	{
		PaxLayoutCacheFree(cache);
		PaxFitListFree(&fits);
	}
	return next;
}

/*
 * PaxMaterializeSource materialises a pax slot that still reads a row of
 * some page (INSERT ... SELECT from a pax table hands us the scan's slot),
 * as heap's slot is by ExecFetchSlotHeapTuple, so that the new row's
 * header can replace the source row's in it (PaxAddRowToPage) for
 * RETURNING's system columns.
 */
static void
PaxMaterializeSource(TupleTableSlot *slot)
{
	if (slot->tts_ops == &TTSOpsPaxTuple &&
		BufferIsValid(((PaxTupleTableSlot *) slot)->buffer))
		ExecMaterializeSlot(slot);
}

/*
 * PaxPlaceOnPage prepares the slot's row as a new version (with init's
 * header fields; PaxPrepareRow, which must not need TOAST work:
 * PaxRowWouldToast) and places it on the buffer's page, which the caller
 * holds exclusively locked, if it fits there (row form, a free slot, the
 * page's column count, shape and encodings, room for the values): clears
 * the page's all-visible state (vmbuffer pinned), starts the change of the
 * page (*copy, the private copy of chg), stores the row and widens the
 * zone maps, and returns the row's index; -1, changing nothing, when it
 * does not fit.  The caller adds what else the record carries and
 * finishes the change.  An UPDATE's new version on its old version's page
 * goes in this way (pax_tuple_update).
 */
int
PaxPlaceOnPage(Relation rel, TupleTableSlot *slot, const PaxRowInit *init,
			   Buffer buffer, Buffer vmbuffer, CommandId cid, PaxChange *chg,
			   Page *copy, PaxRow *row)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	Page		page = BufferGetPage(buffer);
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	PaxPageLayout *layout;
	int			r;

	/* (PaxRowFits finds a slot for it, or none) */
	if (PaxPageIsCompact(page) || !PaxPageLayoutUsable(page))
		return -1;
	PaxMaterializeSource(slot);
	PaxPrepareRow(rel, slot, 0, NULL, row);
	row->init = init;
	Assert(row->values == slot->tts_values);	/* no TOAST work */
	layout = PaxPageGetLayout(rel, tupdesc, page, blkno,
							  PaxRelLayouts(rel));
	if (!PaxRowFits(tupdesc, row, page, layout, NULL, 100))
		return -1;

	if (PageIsAllVisible(page))
		PaxClearAllVisible(rel, buffer, vmbuffer);
	*copy = PaxChangeStart(chg, rel, buffer, false);
	r = PaxAddRowToPage(rel, row, *copy, layout, blkno,
						GetCurrentTransactionId(), cid, 0, chg);
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data != 0 && col->zone >= 0 && col->attlen > 0)
			PaxZoneUpdateRows(*copy, layout, TupleDescAttr(tupdesc, i), i,
							  row, 1);
	}
	return r;
}

/*
 * pax_tuple_insert inserts the slot's row and sets the slot's TID.  Adapted
 * from heapam_tuple_insert() and heap_insert() in heapam_handler.c and
 * heapam.c, PostgreSQL 15.
 */
void
pax_tuple_insert(Relation relation, TupleTableSlot *slot, CommandId cid,
				 int options, BulkInsertState bistate)
{
	PaxRow		row;

	PaxLogicalCheckWrite(relation);
	/* the rows of a new table's bulk insert go in batches (pax_bulk.c) */
	if (PaxBulkKeepHook && PaxBulkKeepHook(relation, slot, cid, options,
											  bistate))
		return;
	PaxMaterializeSource(slot);
	PaxPrepareRow(relation, slot, options, NULL, &row);

	/* as heap_insert: a conflict check against the whole relation */
	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

	PaxInsertRows(relation, &row, 1, cid, options, bistate,
				  InvalidTransactionId, false);
	pgstat_count_heap_insert(relation, 1);
	PaxBulkIndexRow(relation, slot, cid);
}

/*
 * PaxInsertVersion inserts the slot's row as a new row version: with the
 * xmax and flags of init (HEAP_UPDATED for an UPDATE, the speculative
 * token of INSERT ... ON CONFLICT), toasting it against oldtup, the old
 * version, when that has external values.  Sets the slot's TID.  With
 * newtup, returns there the row as a heap tuple as stored (TOAST pointers
 * included), for logical decoding.  The caller holds no buffer lock and
 * does the SSI and statistics work.
 */
void
PaxInsertVersion(Relation relation, TupleTableSlot *slot, CommandId cid,
				 int options, const PaxRowInit *init, HeapTuple oldtup,
				 HeapTuple *newtup)
{
	PaxRow		row;

	PaxLogicalCheckWrite(relation);
	PaxMaterializeSource(slot);
	PaxPrepareRow(relation, slot, options, oldtup, &row);
	row.init = init;
	if (newtup)
		*newtup = heap_form_tuple(RelationGetDescr(relation), row.values,
								  row.isnull);
	PaxInsertRows(relation, &row, 1, cid, options, NULL, InvalidTransactionId,
				  false);
}

/*
 * pax_multi_insert inserts the rows of slots (COPY), a page per WAL record.
 * Adapted from heap_multi_insert() in heapam.c, PostgreSQL 15.
 */
void
pax_multi_insert(Relation relation, TupleTableSlot **slots, int ntuples,
				 CommandId cid, int options, BulkInsertState bistate)
{
	/* the rows of a batch that would start a page go with the next one */
	if (PaxBulkMultiHook && PaxBulkMultiHook(relation, slots, ntuples, cid,
											 options, bistate))
		return;
	PaxMultiInsert(relation, slots, ntuples, cid, options, bistate,
				   InvalidTransactionId, false);
}

/*
 * PaxMultiInsert is pax_multi_insert for rows of transaction xid (one of
 * ours), InvalidTransactionId for the current one.  Rows of a given xid
 * (pax_bulk.c's kept rows) are counted in the statistics by the caller.
 * With keep_tail, the last rows, too few to fill a new page, are left out
 * (PaxInsertRows); returns the number of rows inserted, the first ones.
 */
int
PaxMultiInsert(Relation relation, TupleTableSlot **slots, int ntuples,
			   CommandId cid, int options, BulkInsertState bistate,
			   TransactionId xid, bool keep_tail)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	PaxRow	   *rows;
	int			placed;

	/* COPY may flush an empty batch (16's does): nothing to insert */
	if (ntuples <= 0)
		return 0;
	if (!keep_tail)
		PaxBulkPlaceFor(relation);
	PaxLogicalCheckWrite(relation);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "pax multi_insert",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	rows = palloc(ntuples * sizeof(PaxRow));
	for (int i = 0; i < ntuples; i++)
		PaxPrepareRow(relation, slots[i], options, NULL, &rows[i]);

	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

	placed = PaxInsertRows(relation, rows, ntuples, cid, options, bistate, xid,
						   keep_tail);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	/* kept rows were counted when kept, as heap counts each row inserted */
	if (!TransactionIdIsValid(xid))
		pgstat_count_heap_insert(relation, ntuples);
	return placed;
}

/*
 * pax_finish_bulk_insert ends a bulk insert: the rows pax_tuple_insert kept
 * go in (pax_bulk.c).  Every page is complete in WAL when written.
 */
void
pax_finish_bulk_insert(Relation relation, int options)
{
	PaxBulkPlaceFor(relation);
}
