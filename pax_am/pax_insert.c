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
 * chosen for it.
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
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/tuplesort.h"

#include "pax_am.h"

/* A row ready to be placed on a page. */
typedef struct PaxRow
{
	Datum	   *values;
	bool	   *isnull;
	Size		varbytes;		/* value area bytes, alignment padding included */
	TupleTableSlot *slot;		/* where the TID goes, or NULL */
	HeapTupleHeader srchdr;		/* row header to keep (rewrites), or NULL */
	const PaxRowInit *init;		/* xmax and flags of a new version, or NULL */
} PaxRow;

/* The insert hints of the relation's backend-local cache (pax_scan.c). */
static PaxRelCache *
PaxGetInsertHints(Relation rel)
{
	return PaxGetRelCache(rel, 0);
}

/*
 * PaxVarStorage tells how a non-null varlena or cstring value is stored in
 * the value area: its size and alignment, and whether it is converted to a
 * short (1-byte header) varlena, following heap_fill_tuple's rules.
 */
static inline Size
PaxVarStorage(Form_pg_attribute att, Datum value, int *align, bool *toshort)
{
	Pointer		p = DatumGetPointer(value);

	*toshort = false;
	*align = 1;
	if (att->attlen == -2)
		return strlen(p) + 1;
	if (att->attstorage != TYPSTORAGE_PLAIN && VARATT_CAN_MAKE_SHORT(p))
	{
		*toshort = true;
		return VARATT_CONVERTED_SHORT_SIZE(p);
	}
	if (VARATT_IS_SHORT(p) || VARATT_IS_EXTERNAL(p))
		return VARSIZE_ANY(p);
	*align = att->attalign == TYPALIGN_DOUBLE ? ALIGNOF_DOUBLE :
		att->attalign == TYPALIGN_INT ? ALIGNOF_INT :
		att->attalign == TYPALIGN_SHORT ? ALIGNOF_SHORT : 1;
	return VARSIZE(p);
}

/*
 * PaxRowPlace places a row's variable-length values in the value area below
 * `upper`, never below `lower`.  With page != NULL it writes the values and
 * their offsets; either way it returns the new upper, or -1 when the values
 * do not fit.
 */
static int
PaxRowPlace(TupleDesc tupdesc, const PaxRow *row, int upper, int lower,
			Page page, const PaxPageLayout *layout, int rowidx)
{
	if (upper < lower)
		return -1;				/* the minipages alone overflow the page */
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		Datum		value = row->values[i];
		Size		size;
		int			align;
		bool		toshort;

		if (att->attlen > 0 || row->isnull[i])
			continue;
		size = PaxVarStorage(att, value, &align, &toshort);
		upper -= size;
		upper &= ~(align - 1);
		if (upper < lower)
			return -1;
		if (page == NULL)
			continue;

		if (toshort)
		{
			SET_VARSIZE_SHORT(page + upper, size);
			memcpy(page + upper + 1, VARDATA(DatumGetPointer(value)), size - 1);
		}
		else
			memcpy(page + upper, DatumGetPointer(value), size);
		((uint16 *) (page + layout->cols[i].data))[rowidx] = (uint16) upper;
	}
	return upper;
}

/*
 * PaxCheckHeapRowSize raises heap's error for a row heap_insert refuses:
 * one whose tuple, as heap_form_tuple would build it from the values the
 * TOAST code left, is longer than MaxHeapTupleSize
 * (RelationGetBufferForTuple).
 */
static void
PaxCheckHeapRowSize(TupleDesc tupdesc, const PaxRow *row)
{
	Size		len = SizeofHeapTupleHeader;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		if (row->isnull[i])
		{
			len += BITMAPLEN(tupdesc->natts);
			break;
		}
	}
	len = MAXALIGN(len) + heap_compute_data_size(tupdesc, row->values,
												 row->isnull);
	len = MAXALIGN(len);
	if (len > MaxHeapTupleSize)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("row is too big: size %zu, maximum size %zu",
						len, MaxHeapTupleSize)));
}

/*
 * PaxRowFitsEmptyPage tells whether a row fits a page laid out for it
 * alone: capacity 1, no zone maps, no minipage for its NULL columns (the
 * last shape PaxChooseShape tries).
 */
static bool
PaxRowFitsEmptyPage(TupleDesc tupdesc, const PaxRow *row)
{
	int			maplen = PaxDirMapLen(tupdesc->natts);
	PaxPageShape shape;
	bool		fits;

	shape.natts = tupdesc->natts;
	shape.capacity = 1;
	shape.absent = palloc0(maplen);
	shape.nullmap = palloc0(maplen);
	shape.zone = palloc0(maplen);
	for (int i = 0; i < tupdesc->natts; i++)
		if (row->isnull[i] || TupleDescAttr(tupdesc, i)->attisdropped)
			PaxBitSet(shape.absent, i);
	fits = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START,
					   PaxLayoutSize(tupdesc, &shape, NULL), NULL, NULL, 0) >= 0;
	pfree(shape.absent);
	pfree(shape.nullmap);
	pfree(shape.zone);
	return fits;
}

/*
 * PaxRowMoveOut makes a row heap would store (PaxCheckHeapRowSize) fit an
 * empty pax page: it moves its largest variable-length values, of types
 * that can be toasted, to the TOAST table, as the TOAST code would for
 * a column of storage EXTERNAL, even when the column's storage is PLAIN
 * (where heap keeps them in line): the only other choice would be to
 * refuse a row heap takes.  Values read back the same either way.  A row
 * of fixed-width columns too wide for a pax page (heap's own room then is
 * only the pax directory's 5 bits per column larger) still raises an
 * error.
 */
static void
PaxRowMoveOut(Relation rel, TupleDesc tupdesc, PaxRow *row, int options)
{
	Datum	   *values = palloc(tupdesc->natts * sizeof(Datum));

	memcpy(values, row->values, tupdesc->natts * sizeof(Datum));
	row->values = values;
	for (;;)
	{
		int			biggest = -1;
		Size		biggest_size = 0;
		int			upper;

		for (int i = 0; i < tupdesc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(tupdesc, i);
			Pointer		p = DatumGetPointer(values[i]);

			if (row->isnull[i] || att->attlen != -1 || att->attisdropped ||
				VARATT_IS_EXTERNAL(p) || VARSIZE_ANY(p) <= TOAST_POINTER_SIZE ||
				VARSIZE_ANY(p) <= biggest_size)
				continue;
			if (!TypeIsToastable(att->atttypid))
				continue;
			biggest = i;
			biggest_size = VARSIZE_ANY(p);
		}
		if (biggest < 0 || !OidIsValid(rel->rd_rel->reltoastrelid))
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("row is too big for a pax page: %zu bytes of variable-length values",
							row->varbytes),
					 errdetail("A pax page holds a little less than a heap page; a row of %d columns holds less still.",
							   tupdesc->natts)));
		values[biggest] = toast_save_datum(rel, values[biggest], NULL, options);
		upper = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START, 0, NULL, NULL, 0);
		row->varbytes = PAX_SPECIAL_START - upper;
		if (PaxRowFitsEmptyPage(tupdesc, row))
			return;
	}
}

/*
 * PaxPrepareRow takes a row's values from the slot, toasting them if the
 * row is large or carries external values, and measures its value-area
 * needs.  Arrays are allocated in the current memory context.
 */
static void
PaxPrepareRow(Relation rel, TupleTableSlot *slot, int options,
			  HeapTuple oldtup, PaxRow *row)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	int			natts = tupdesc->natts;
	Size		datasize = 0;
	bool		external = false;
	int			upper;

	slot_getallattrs(slot);
	row->slot = slot;
	row->srchdr = NULL;
	row->init = NULL;
	row->values = slot->tts_values;
	row->isnull = slot->tts_isnull;

	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (row->isnull[i])
			continue;
		if (att->attlen > 0)
			datasize += att->attlen;
		else
		{
			if (att->attlen == -1 &&
				VARATT_IS_EXTERNAL(DatumGetPointer(row->values[i])))
				external = true;
			datasize += att->attlen == -1 ?
				VARSIZE_ANY(DatumGetPointer(row->values[i])) :
				strlen(DatumGetCString(row->values[i])) + 1;
		}
	}

	/*
	 * Large rows and external values (TOAST pointers of other relations,
	 * expanded and indirect datums) go through a heap tuple: forming it
	 * flattens expanded datums, and heap's TOAST code compresses values
	 * and moves them to our TOAST relation until the row is small enough.
	 * The old version of an updated row (oldtup) has external values: the
	 * TOAST code keeps those the new version shares and deletes the others.
	 */
	if (external || oldtup != NULL ||
		(OidIsValid(rel->rd_rel->reltoastrelid) &&
		 MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(natts)) + datasize >
		 TOAST_TUPLE_THRESHOLD))
	{
		HeapTuple	tuple = heap_form_tuple(tupdesc, row->values, row->isnull);

		if (OidIsValid(rel->rd_rel->reltoastrelid))
			tuple = heap_toast_insert_or_update(rel, tuple, oldtup, options);
		row->values = palloc(natts * sizeof(Datum));
		row->isnull = palloc(natts * sizeof(bool));
		heap_deform_tuple(tuple, tupdesc, row->values, row->isnull);
	}

	upper = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START, 0, NULL, NULL, 0);
	row->varbytes = PAX_SPECIAL_START - upper;

	/*
	 * The largest row a pax table takes is heap's: refuse a row heap would
	 * (with heap's error, before any page is touched), and make room for
	 * one heap would take that an empty pax page, whose directory and
	 * value offsets cost a few bytes more than heap's line pointer, cannot
	 * hold.  A row anywhere near that size has been through heap's TOAST
	 * code above when it could, so the exact checks run for few rows.
	 */
	if (row->values != slot->tts_values ||
		MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(natts)) + datasize +
		natts * (MAXIMUM_ALIGNOF - 1) > MaxHeapTupleSize)
	{
		PaxCheckHeapRowSize(tupdesc, row);
		if (!PaxRowFitsEmptyPage(tupdesc, row))
			PaxRowMoveOut(rel, tupdesc, row, options);
	}
}

/*
 * PaxRowFits tells whether a prepared row can go on a page: a free row
 * slot, the same column count, a null bitmap for each of its NULL
 * columns, and room for its values.
 */
static bool
PaxRowFits(TupleDesc tupdesc, const PaxRow *row, Page page,
		   const PaxPageLayout *layout)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);

	if (!PaxPageHasFreeSlot(page) || hdr->pp_natts != tupdesc->natts)
		return false;
	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (row->isnull[i] ? (col->data != 0 && col->nullmap == 0) :
			col->data == 0)
			return false;
	}
	return PaxRowPlace(tupdesc, row, ((PageHeader) page)->pd_upper,
					   ((PageHeader) page)->pd_lower, NULL, NULL, 0) >= 0;
}

/*
 * PaxPageAddRow stores a prepared row on a page (the private copy of a
 * PaxChange, whose ranges it names) and sets its TID in the row's slot.
 */
static void
PaxPageAddRow(Relation rel, const PaxRow *row, Page page,
			  const PaxPageLayout *layout, BlockNumber blkno,
			  TransactionId xid, CommandId cid, int options, PaxChange *chg)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			old_upper = ((PageHeader) page)->pd_upper;
	int			r = PaxPageTakeSlot(page, layout);	/* UNUSED slot or nrows */
	HeapTupleHeader rowhdr = PaxRowHeader(page, (layout)->rowhdrs, r);
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	int			upper;

	if (row->srchdr)
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
	if (row->init && row->init->spectoken != 0)
		HeapTupleHeaderSetSpeculativeToken(rowhdr, row->init->spectoken);
	else
		ItemPointerSet(&rowhdr->t_ctid, blkno, r + 1);

	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		Form_pg_attribute att;

		if (col->data == 0)
			continue;
		if (row->isnull[i])
		{
			PaxBitSet((bits8 *) page + col->nullmap, r);
			PaxBitSet(hasnull, i);
			if (col->attlen < 0)
				((uint16 *) (page + col->data))[r] = 0;
			continue;
		}
		if (col->attlen <= 0)
			continue;			/* placed below */

		att = TupleDescAttr(tupdesc, i);
		if (col->byval)
			store_att_byval(page + col->data + r * col->attlen,
							row->values[i], col->attlen);
		else
			memcpy(page + col->data + r * col->attlen,
				   DatumGetPointer(row->values[i]), col->attlen);
		if (col->zone >= 0)
			PaxZoneUpdate(page, layout, att, i, row->values[i]);
	}

	upper = PaxRowPlace(tupdesc, row, ((PageHeader) page)->pd_upper,
						((PageHeader) page)->pd_lower, page, layout, r);
	if (upper < 0)
		elog(ERROR, "pax row does not fit the page it was placed on");
	((PageHeader) page)->pd_upper = upper;
	hdr->pp_nrows = Max(hdr->pp_nrows, r + 1);

	/*
	 * What the row wrote: the headers, directory and zone maps, its row
	 * header, its slot in each minipage (and null bitmap byte), its values.
	 */
	PaxChangeRange(chg, 0, layout->rowhdrs);
	PaxChangeRange(chg, (char *) rowhdr - (char *) page, PAX_ROWHDR_SIZE);
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		int			width = col->attlen > 0 ? col->attlen : PAX_VAROFF_SIZE;

		if (col->nullmap != 0)
			PaxChangeRange(chg, col->nullmap + (r >> 3), 1);
		if (col->data != 0)
			PaxChangeRange(chg, col->data + r * width, width);
	}
	PaxChangeRange(chg, upper, old_upper - upper);

	if (row->slot)
	{
		ItemPointerSet(&row->slot->tts_tid, blkno, r + 1);
		row->slot->tts_tableOid = RelationGetRelid(rel);

		/*
		 * RETURNING xmin, cmin, ... read the new row's header, as heap's
		 * slot holds the tuple heap_insert/heap_update stamped.
		 */
		if (row->slot->tts_ops == &TTSOpsPaxTuple &&
			!BufferIsValid(((PaxTupleTableSlot *) row->slot)->buffer))
		{
			PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) row->slot;

			memcpy(pslot->rowhdr.bytes, rowhdr, PAX_ROWHDR_SIZE);
			pslot->hashdr = true;
		}
	}
}

/*
 * PaxShapeCapacity sets the largest capacity at which a page of the shape
 * holds its minipages and capacity rows of var_avg value-area bytes each,
 * and tells whether even one row fits.
 */
static bool
PaxShapeCapacity(TupleDesc tupdesc, PaxPageShape *shape, double var_avg)
{
	int			lo = 1,
				hi = PAX_MAX_CAPACITY;

	while (lo < hi)
	{
		int			mid = (lo + hi + 1) / 2;

		shape->capacity = mid;
		if (PaxLayoutSize(tupdesc, shape, NULL) + mid * var_avg <= PAX_SPECIAL_START)
			lo = mid;
		else
			hi = mid - 1;
	}
	shape->capacity = lo;
	return PaxLayoutSize(tupdesc, shape, NULL) + var_avg <= PAX_SPECIAL_START;
}

/*
 * PaxChooseShape chooses the shape of a new page for rows like the given
 * ones, whose value-area needs average var_avg bytes: columns dropped now
 * get no minipage, zone-map-eligible columns get zone maps within a
 * budget, the columns with NULLs in the given rows get null bitmaps (and
 * with `eager`, for rows inserted one at a time whose successors are not
 * known yet, every nullable column while that stays cheap), and the
 * capacity is the largest that fits.  When not even one row fits (very wide rows,
 * e.g. 1,600 columns), the zone maps go, and then the columns NULL in all
 * the given rows get no minipage either.  Maps are allocated in the
 * current memory context.
 */
static void
PaxChooseShape(TupleDesc tupdesc, const PaxRow *rows, int nrows,
			   double var_avg, bool eager, PaxPageShape *shape)
{
	int			natts = tupdesc->natts;
	int			maplen = PaxDirMapLen(natts);
	int			nzones = 0;
	int			nnullable = 0;

	shape->natts = natts;
	shape->absent = palloc0(maplen);
	shape->nullmap = palloc0(maplen);
	shape->zone = palloc0(maplen);

	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		bool		hasnull = false;

		if (att->attisdropped)
		{
			PaxBitSet(shape->absent, i);
			continue;
		}
		if (PaxZoneEligible(att) && nzones < PAX_MAX_ZONES &&
			(nzones + 1) * sizeof(PaxZone) <= PAX_MAX_ZONE_BYTES)
		{
			PaxBitSet(shape->zone, i);
			nzones++;
		}
		if (!att->attnotnull)
			nnullable++;
		for (int r = 0; r < nrows && !hasnull; r++)
			hasnull = rows[r].isnull[i];
		if (hasnull || (eager && !att->attnotnull))
			PaxBitSet(shape->nullmap, i);
	}

	/* eager null bitmaps only while they stay cheap */
	if (PaxShapeCapacity(tupdesc, shape, var_avg) &&
		(!eager || nnullable * BITMAPLEN(shape->capacity) <= PAX_EAGER_BITMAP_BYTES))
		return;
	for (int i = 0; i < natts; i++)
	{
		bool		hasnull = false;

		for (int r = 0; r < nrows && !hasnull; r++)
			hasnull = rows[r].isnull[i];
		if (!hasnull)
			shape->nullmap[i >> 3] &= ~(1 << (i & 7));
	}
	if (PaxShapeCapacity(tupdesc, shape, var_avg))
		return;

	/* very wide rows: no zone maps, no minipages for all-NULL columns */
	memset(shape->zone, 0, maplen);
	if (PaxShapeCapacity(tupdesc, shape, var_avg))
		return;
	for (int i = 0; i < natts; i++)
	{
		bool		allnull = true;

		for (int r = 0; r < nrows && allnull; r++)
			allnull = rows[r].isnull[i];
		if (allnull)
		{
			PaxBitSet(shape->absent, i);
			shape->nullmap[i >> 3] &= ~(1 << (i & 7));
		}
	}
	(void) PaxShapeCapacity(tupdesc, shape, var_avg);
}

/*
 * PaxPageReinit lays out a page afresh, empty, for rows of the relation as
 * it is now (VACUUM reuses an orphan page this way).  The page is a
 * private page copy whose change is logged as a full image.
 */
void
PaxPageReinit(Relation rel, Page page)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	PaxRelCache *hints = PaxGetInsertHints(rel);
	PaxPageShape shape;

	PaxChooseShape(tupdesc, NULL, 0, hints->var_valid ? hints->var_avg : 0,
				   true, &shape);
	PaxPageInit(page, tupdesc, &shape);
	pfree(shape.absent);
	pfree(shape.nullmap);
	pfree(shape.zone);
}

/*
 * PaxRowsPerPageGuess guesses, a little high, how many rows like this one
 * a page holds, so that a page's shape is chosen looking at about the rows
 * that will go on it (wide rows: a handful, not PAX_MAX_CAPACITY).
 */
static int
PaxRowsPerPageGuess(TupleDesc tupdesc, const PaxRow *row)
{
	Size		bytes = PAX_ROWHDR_SIZE + row->varbytes;

	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		bytes += att->attlen > 0 ? att->attlen : PAX_VAROFF_SIZE;
	}
	return Min(PAX_MAX_CAPACITY, (int) (BLCKSZ * 5 / 4 / bytes) + 4);
}

/*
 * PaxNewPage adds a page to the relation and returns it exclusively locked.
 */
static Buffer
PaxNewPage(Relation rel, BulkInsertState bistate)
{
	Buffer		buffer;
	bool		local = RELATION_IS_LOCAL(rel);

	if (!local)
		LockRelationForExtension(rel, ExclusiveLock);
	buffer = ReadBufferExtended(rel, MAIN_FORKNUM, P_NEW, RBM_NORMAL,
								bistate ? bistate->strategy : NULL);
	LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	if (!local)
		UnlockRelationForExtension(rel, ExclusiveLock);
	return buffer;
}

/*
 * PaxLockForInsert exclusively locks a page an insert may change, with the
 * visibility map page pinned into *vmbuffer if the page is all-visible
 * (the insert clears it): pinning may need I/O, so it happens without the
 * buffer lock, as heap does.
 */
void
PaxLockForInsert(Relation rel, Buffer buffer, Buffer *vmbuffer)
{
	BlockNumber blkno = BufferGetBlockNumber(buffer);
	Page		page = BufferGetPage(buffer);

	if (PageIsAllVisible(page))
		visibilitymap_pin(rel, blkno, vmbuffer);
	LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	while (PageIsAllVisible(page) && !visibilitymap_pin_ok(blkno, *vmbuffer))
	{
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);
		visibilitymap_pin(rel, blkno, vmbuffer);
		LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
	}
}

/*
 * PaxTargetPage returns the relation's insert target page, exclusively
 * locked (with *vmbuffer pinned for it if it is all-visible), or
 * InvalidBuffer when there is none (or it is not a pax page with room for
 * more rows).
 */
static Buffer
PaxTargetPage(Relation rel, BulkInsertState bistate, Buffer *vmbuffer)
{
	BlockNumber target = RelationGetTargetBlock(rel);
	BlockNumber nblocks;
	Buffer		buffer;
	Page		page;

	if (target == InvalidBlockNumber)
	{
		/* start where the relation ends: its last page may have room */
		nblocks = RelationGetNumberOfBlocks(rel);
		if (nblocks == 0)
			return InvalidBuffer;
		target = nblocks - 1;
	}
	buffer = ReadBufferExtended(rel, MAIN_FORKNUM, target, RBM_NORMAL,
								bistate ? bistate->strategy : NULL);
	PaxLockForInsert(rel, buffer, vmbuffer);
	page = BufferGetPage(buffer);
	if (PageIsNew(page) || !PaxPageHasFreeSlot(page) ||
		!PaxPageLayoutUsable(page))
	{
		UnlockReleaseBuffer(buffer);
		RelationSetTargetBlock(rel, InvalidBlockNumber);
		return InvalidBuffer;
	}
	return buffer;
}

/*
 * PaxInsertRows places prepared rows, in order, on the target page and on
 * as many new pages as they need, one generic WAL record per page.
 */
static void
PaxInsertRows(Relation rel, PaxRow *rows, int nrows, CommandId cid,
			  int options, BulkInsertState bistate)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	TransactionId xid = (rows[0].srchdr ? InvalidTransactionId :
						 GetCurrentTransactionId());
	PaxRelCache *hints = PaxGetInsertHints(rel);
	PaxLayoutCache cache;
	Buffer		vmbuffer = InvalidBuffer;
	int			next = 0;

	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);

	/* keep the running estimate of value-area bytes per row */
	for (int i = 0; i < nrows; i++)
	{
		if (!hints->var_valid)
		{
			hints->var_avg = rows[i].varbytes;
			hints->var_valid = true;
		}
		else
			hints->var_avg += (rows[i].varbytes - hints->var_avg) / 64.0;
	}

	while (next < nrows)
	{
		Buffer		buffer = PaxTargetPage(rel, bistate, &vmbuffer);
		PaxChange	chg;
		Page		page;
		PaxPageLayout *layout = NULL;
		BlockNumber blkno = InvalidBlockNumber;
		int			first = next;

		if (BufferIsValid(buffer))
		{
			/* (PaxTargetPage returns only pages this transaction may use) */
			blkno = BufferGetBlockNumber(buffer);
			layout = PaxPageGetLayout(rel, tupdesc, BufferGetPage(buffer),
									  blkno, &cache);
			if (!PaxRowFits(tupdesc, &rows[next], BufferGetPage(buffer), layout))
			{
				UnlockReleaseBuffer(buffer);
				buffer = InvalidBuffer;
			}
		}
		/* a page with free slots (VACUUM reclaimed) from the free space map */
		for (int tries = 0; !BufferIsValid(buffer) && tries < 4; tries++)
		{
			buffer = PaxFreeSpacePage(rel, rows[next].varbytes,
									  bistate ? bistate->strategy : NULL,
									  &vmbuffer);
			if (!BufferIsValid(buffer))
				break;
			blkno = BufferGetBlockNumber(buffer);
			if (!PaxPageLayoutUsable(BufferGetPage(buffer)))
			{
				UnlockReleaseBuffer(buffer);
				buffer = InvalidBuffer;
				continue;
			}
			layout = PaxPageGetLayout(rel, tupdesc, BufferGetPage(buffer),
									  blkno, &cache);
			if (!PaxRowFits(tupdesc, &rows[next], BufferGetPage(buffer), layout))
			{
				PaxFreeSpaceUpdate(rel, buffer);
				UnlockReleaseBuffer(buffer);
				buffer = InvalidBuffer;
			}
		}
		if (BufferIsValid(buffer))
		{
			/* a page VACUUM marked all-visible stops being so */
			if (PageIsAllVisible(BufferGetPage(buffer)))
				PaxClearAllVisible(rel, buffer, vmbuffer);
			page = PaxChangeStart(&chg, rel, buffer, false);
		}
		else
		{
			PaxPageShape shape;
			int			ahead = Min(nrows - next, PaxRowsPerPageGuess(tupdesc, &rows[next]));

			/*
			 * Shape the page for the rows that will go on it: when fewer fit
			 * than were looked at, look again at only those.
			 */
			for (;;)
			{
				double		var_avg = 0;

				for (int i = next; i < next + ahead; i++)
					var_avg += rows[i].varbytes;
				var_avg = ahead >= 16 ? var_avg / ahead :
					Max(var_avg / ahead, hints->var_avg);
				PaxChooseShape(tupdesc, &rows[next], ahead, var_avg,
							   nrows == 1, &shape);
				if (shape.capacity >= ahead || ahead <= 1)
					break;
				ahead = Max(shape.capacity, 1);
				pfree(shape.absent);
				pfree(shape.nullmap);
				pfree(shape.zone);
			}

			/* a row larger than the average may need a smaller capacity */
			while (PaxRowPlace(tupdesc, &rows[next], PAX_SPECIAL_START,
							   PaxLayoutSize(tupdesc, &shape, NULL),
							   NULL, NULL, 0) < 0)
			{
				if (shape.capacity == 1)
					ereport(ERROR,
							(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
							 errmsg("row is too big for a pax page: %zu bytes of variable-length values",
									rows[next].varbytes),
							 errhint("Values of columns with storage PLAIN are never moved to the TOAST table.")));
				shape.capacity /= 2;
			}

			buffer = PaxNewPage(rel, bistate);
			blkno = BufferGetBlockNumber(buffer);
			page = PaxChangeStart(&chg, rel, buffer, true);
			PaxPageInit(page, tupdesc, &shape);
			/* rewrites and frozen inserts need none (see PaxLayoutXid) */
			if (!rows[0].srchdr && !(options & HEAP_INSERT_FROZEN))
				PaxPageGetOpaque(page)->pax_layout_xid = PaxLayoutXid(rel);
			pfree(shape.absent);
			pfree(shape.nullmap);
			pfree(shape.zone);
			layout = PaxPageGetLayout(rel, tupdesc, page, blkno, &cache);
		}

		/* the page is the change's private copy until PaxChangeFinish */
		do
		{
			PaxPageAddRow(rel, &rows[next], page, layout, blkno, xid, cid,
						  options, &chg);
			next++;
		} while (next < nrows && PaxRowFits(tupdesc, &rows[next], page, layout));
		PaxChangeFinish(&chg);

		UnlockReleaseBuffer(buffer);
		RelationSetTargetBlock(rel, blkno);
		Assert(next > first);
		(void) first;
	}
	if (BufferIsValid(vmbuffer))
		ReleaseBuffer(vmbuffer);
	PaxLayoutCacheFree(&cache);
}

/*
 * PaxMaterializeSource materialises a pax slot that still reads a row of
 * some page (INSERT ... SELECT from a pax table hands us the scan's slot),
 * as heap's slot is by ExecFetchSlotHeapTuple, so that the new row's
 * header can replace the source row's in it (PaxPageAddRow) for
 * RETURNING's system columns.
 */
static void
PaxMaterializeSource(TupleTableSlot *slot)
{
	if (slot->tts_ops == &TTSOpsPaxTuple &&
		BufferIsValid(((PaxTupleTableSlot *) slot)->buffer))
		ExecMaterializeSlot(slot);
}

void
pax_tuple_insert(Relation relation, TupleTableSlot *slot, CommandId cid,
				 int options, BulkInsertState bistate)
{
	PaxRow		row;

	PaxLogicalCheckWrite(relation);
	PaxMaterializeSource(slot);
	PaxPrepareRow(relation, slot, options, NULL, &row);

	/* as heap_insert: a conflict check against the whole relation */
	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

	PaxInsertRows(relation, &row, 1, cid, options, bistate);
	pgstat_count_heap_insert(relation, 1);
}

/*
 * PaxInsertVersion inserts the slot's row as a new row version: with the
 * xmax and flags of init (HEAP_UPDATED for an UPDATE, the speculative
 * token of INSERT ... ON CONFLICT), toasting it against oldtup, the old
 * version, when that has external values.  Sets the slot's TID.  The
 * caller holds no buffer lock and does the SSI and statistics work.
 */
void
PaxInsertVersion(Relation relation, TupleTableSlot *slot, CommandId cid,
				 int options, const PaxRowInit *init, HeapTuple oldtup)
{
	PaxRow		row;

	PaxLogicalCheckWrite(relation);
	PaxMaterializeSource(slot);
	PaxPrepareRow(relation, slot, options, oldtup, &row);
	row.init = init;
	PaxInsertRows(relation, &row, 1, cid, options, NULL);
}

void
pax_multi_insert(Relation relation, TupleTableSlot **slots, int ntuples,
				 CommandId cid, int options, BulkInsertState bistate)
{
	MemoryContext cxt;
	MemoryContext oldcxt;
	PaxRow	   *rows;

	PaxLogicalCheckWrite(relation);
	cxt = AllocSetContextCreate(CurrentMemoryContext, "pax multi_insert",
								ALLOCSET_DEFAULT_SIZES);
	oldcxt = MemoryContextSwitchTo(cxt);
	rows = palloc(ntuples * sizeof(PaxRow));
	for (int i = 0; i < ntuples; i++)
		PaxPrepareRow(relation, slots[i], options, NULL, &rows[i]);

	CheckForSerializableConflictIn(relation, NULL, InvalidBlockNumber);

	PaxInsertRows(relation, rows, ntuples, cid, options, bistate);
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
	pgstat_count_heap_insert(relation, ntuples);
}

void
pax_finish_bulk_insert(Relation relation, int options)
{
	/* nothing buffered: every page is complete in WAL when written */
}

/*
 * PaxKeepRow decides whether VACUUM FULL or CLUSTER copies a row: not if it
 * is dead to everyone (counted as vacuumed); recently dead rows are kept
 * (and counted).  The row's page is share-locked.
 */
static bool
PaxKeepRow(Relation rel, HeapTupleHeader hdr, ItemPointer tid, Buffer buffer,
		   TransactionId OldestXmin, double *tups_vacuumed,
		   double *tups_recently_dead)
{
	HeapTupleData tuple;

	if (PaxRowIsUnused(hdr))
		return false;			/* a slot VACUUM reclaimed */
	tuple.t_data = hdr;
	tuple.t_len = PAX_ROWHDR_SIZE;
	tuple.t_tableOid = RelationGetRelid(rel);
	tuple.t_self = *tid;
	switch (HeapTupleSatisfiesVacuum(&tuple, OldestXmin, buffer))
	{
		case HEAPTUPLE_DEAD:
			*tups_vacuumed += 1;
			return false;
		case HEAPTUPLE_RECENTLY_DEAD:
		case HEAPTUPLE_DELETE_IN_PROGRESS:
			*tups_recently_dead += 1;
			return true;
		case HEAPTUPLE_LIVE:
		case HEAPTUPLE_INSERT_IN_PROGRESS:
			return true;
		default:
			elog(ERROR, "unexpected HeapTupleSatisfiesVacuum result");
	}
	return false;				/* keep compiler quiet */
}

/*
 * PaxRewriteHeader copies a kept row's header for its new place and freezes
 * it as heap's rewrite does (rewrite_heap_tuple calls heap_freeze_tuple): an
 * xmin older than the cutoff, and an xmax that only locked the row or whose
 * transaction is gone, so that no xid or multixact older than the new
 * relation's relfrozenxid and relminmxid (the cutoffs) stays behind.
 */
static HeapTupleHeader
PaxRewriteHeader(Relation OldTable, HeapTupleHeader hdr,
				 TransactionId xid_cutoff, MultiXactId multi_cutoff)
{
	HeapTupleHeader copy = palloc(PAX_ROWHDR_SIZE);

	memcpy(copy, hdr, PAX_ROWHDR_SIZE);
	copy->t_infomask &= ~(HEAP_HASNULL | HEAP_HASVARWIDTH | HEAP_HASEXTERNAL);
	heap_freeze_tuple(copy, OldTable->rd_rel->relfrozenxid,
					  OldTable->rd_rel->relminmxid, xid_cutoff, multi_cutoff);
	return copy;
}

/* Rows of a CLUSTER in index order, gathered to be written a batch at a time. */
typedef struct PaxRewrite
{
	Relation	rel;			/* the new relation */
	TupleTableSlot *hslot;		/* heap tuple slot, to prepare rows */
	MemoryContext cxt;			/* the batch's memory */
	PaxRow	   *rows;
	int			nrows;
	Size		bytes;
} PaxRewrite;

#define PAX_REWRITE_BATCH_ROWS	4096
#define PAX_REWRITE_BATCH_BYTES	(8 * 1024 * 1024)

static void
PaxRewriteFlush(PaxRewrite *rw)
{
	if (rw->nrows > 0)
		PaxInsertRows(rw->rel, rw->rows, rw->nrows, InvalidCommandId, 0, NULL);
	MemoryContextReset(rw->cxt);
	rw->rows = MemoryContextAlloc(rw->cxt, PAX_REWRITE_BATCH_ROWS * sizeof(PaxRow));
	rw->nrows = 0;
	rw->bytes = 0;
}

/*
 * PaxRewriteAdd appends a row, a heap tuple whose header holds the row's
 * transaction information, to the batch.
 */
static void
PaxRewriteAdd(PaxRewrite *rw, HeapTuple tuple)
{
	MemoryContext old = MemoryContextSwitchTo(rw->cxt);
	TupleDesc	tupdesc = RelationGetDescr(rw->rel);
	HeapTuple	copy = heap_copytuple(tuple);
	PaxRow	   *row = &rw->rows[rw->nrows];

	ExecStoreHeapTuple(copy, rw->hslot, false);
	PaxPrepareRow(rw->rel, rw->hslot, 0, NULL, row);
	row->values = memcpy(palloc(tupdesc->natts * sizeof(Datum)), row->values,
						 tupdesc->natts * sizeof(Datum));
	row->isnull = memcpy(palloc(tupdesc->natts * sizeof(bool)), row->isnull,
						 tupdesc->natts * sizeof(bool));
	row->slot = NULL;
	row->srchdr = palloc(PAX_ROWHDR_SIZE);
	memcpy(row->srchdr, copy->t_data, PAX_ROWHDR_SIZE);
	row->srchdr->t_infomask &= ~(HEAP_HASNULL | HEAP_HASVARWIDTH | HEAP_HASEXTERNAL);
	ExecClearTuple(rw->hslot);
	rw->nrows++;
	rw->bytes += copy->t_len;
	MemoryContextSwitchTo(old);
	if (rw->nrows == PAX_REWRITE_BATCH_ROWS || rw->bytes >= PAX_REWRITE_BATCH_BYTES)
		PaxRewriteFlush(rw);
}

/*
 * PaxRowAsHeapTuple forms the row in a pax slot as a heap tuple carrying
 * the given row header's transaction information.
 */
static HeapTuple
PaxRowAsHeapTuple(TupleTableSlot *slot, HeapTupleHeader hdr)
{
	HeapTuple	tuple;
	uint16		keep = HEAP_HASNULL | HEAP_HASVARWIDTH | HEAP_HASEXTERNAL;

	slot_getallattrs(slot);
	tuple = heap_form_tuple(slot->tts_tupleDescriptor, slot->tts_values,
							slot->tts_isnull);
	tuple->t_data->t_choice = hdr->t_choice;
	tuple->t_data->t_ctid = hdr->t_ctid;
	tuple->t_data->t_infomask = (tuple->t_data->t_infomask & keep) |
		(hdr->t_infomask & ~keep);
	tuple->t_data->t_infomask2 = (tuple->t_data->t_infomask2 & HEAP_NATTS_MASK) |
		(hdr->t_infomask2 & ~HEAP_NATTS_MASK);
	tuple->t_self = slot->tts_tid;
	return tuple;
}

/*
 * pax_relation_copy_for_cluster copies the rows of OldTable that may still
 * be visible to anyone into NewTable (VACUUM FULL, CLUSTER), keeping their
 * transaction information and freezing xmins older than *xid_cutoff, as
 * heap's rewrite does: in physical order, in the order of an index scan of
 * OldIndex, or sorted on OldIndex's keys (use_sort).  Both relations are
 * locked AccessExclusive.  Update chains among recently dead rows are not
 * kept: such a row's t_ctid points at itself in the new table.
 */
void
pax_relation_copy_for_cluster(Relation OldTable, Relation NewTable,
							  Relation OldIndex, bool use_sort,
							  TransactionId OldestXmin,
							  TransactionId *xid_cutoff,
							  MultiXactId *multi_cutoff,
							  double *num_tuples, double *tups_vacuumed,
							  double *tups_recently_dead)
{
	TupleDesc	tupdesc = RelationGetDescr(OldTable);
	BlockNumber nblocks = RelationGetNumberOfBlocks(OldTable);
	TupleTableSlot *slot = MakeSingleTupleTableSlot(tupdesc, &TTSOpsPaxTuple);
	Tuplesortstate *sort = NULL;
	PaxLayoutCache cache;
	MemoryContext cxt;
	MemoryContext oldcxt;
	PaxRewrite	rw;

	*num_tuples = *tups_vacuumed = *tups_recently_dead = 0;
	cxt = AllocSetContextCreate(CurrentMemoryContext, "pax rewrite",
								ALLOCSET_DEFAULT_SIZES);
	memset(&rw, 0, sizeof(rw));
	rw.rel = NewTable;
	rw.hslot = MakeSingleTupleTableSlot(RelationGetDescr(NewTable),
										&TTSOpsHeapTuple);
	rw.cxt = AllocSetContextCreate(CurrentMemoryContext, "pax rewrite batch",
								   ALLOCSET_DEFAULT_SIZES);
	PaxRewriteFlush(&rw);

	if (OldIndex != NULL && !use_sort)
	{
		/* CLUSTER by an index scan */
		IndexScanDesc iscan = index_beginscan(OldTable, OldIndex, SnapshotAny,
											  0, 0);

		index_rescan(iscan, NULL, 0, NULL, 0);
		while (index_getnext_slot(iscan, ForwardScanDirection, slot))
		{
			PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
			HeapTupleHeader hdr;
			HeapTuple	tuple;
			bool		keep;

			CHECK_FOR_INTERRUPTS();
			LockBuffer(pslot->buffer, BUFFER_LOCK_SHARE);
			hdr = PaxRowHeader(pslot->page, pslot->lcache.layout->rowhdrs,
							   pslot->row);
			keep = PaxKeepRow(OldTable, hdr, &slot->tts_tid, pslot->buffer,
							  OldestXmin, tups_vacuumed, tups_recently_dead);
			hdr = keep ? PaxRewriteHeader(OldTable, hdr, *xid_cutoff, *multi_cutoff) : NULL;
			LockBuffer(pslot->buffer, BUFFER_LOCK_UNLOCK);
			if (!keep)
				continue;
			oldcxt = MemoryContextSwitchTo(cxt);
			tuple = PaxRowAsHeapTuple(slot, hdr);
			MemoryContextSwitchTo(oldcxt);
			PaxRewriteAdd(&rw, tuple);
			MemoryContextReset(cxt);
			*num_tuples += 1;
		}
		index_endscan(iscan);
		PaxRewriteFlush(&rw);
		goto done;
	}

	if (use_sort)
		sort = tuplesort_begin_cluster(tupdesc, OldIndex, maintenance_work_mem,
									   NULL, TUPLESORT_NONE);

	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
	for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buffer;
		Page		page;
		PaxPageLayout *layout;
		PaxRow	   *rows;
		int			nrows;
		int			nkeep = 0;

		CHECK_FOR_INTERRUPTS();
		buffer = ReadBuffer(OldTable, blkno);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buffer);
		if (PageIsNew(page))
		{
			UnlockReleaseBuffer(buffer);
			continue;
		}
		if (PaxPageIsOrphan(page))
		{
			/* an orphan page's rows are all dead */
			*tups_vacuumed += PaxPageGetHeader(page)->pp_nrows;
			UnlockReleaseBuffer(buffer);
			continue;
		}
		layout = PaxPageGetLayout(OldTable, tupdesc, page, blkno, &cache);
		nrows = PaxPageGetHeader(page)->pp_nrows;
		oldcxt = MemoryContextSwitchTo(cxt);
		rows = palloc(nrows * sizeof(PaxRow));

		for (int r = 0; r < nrows; r++)
		{
			HeapTupleHeader hdr = PaxRowHeader(page, (layout)->rowhdrs, r);
			ItemPointerData tid;

			ItemPointerSet(&tid, blkno, r + 1);
			if (!PaxKeepRow(OldTable, hdr, &tid, buffer, OldestXmin,
							tups_vacuumed, tups_recently_dead))
				continue;
			*num_tuples += 1;
			PaxSlotStoreRow(slot, OldTable, buffer, blkno, r);
			if (sort)
			{
				HeapTuple	tuple = PaxRowAsHeapTuple(slot,
													  PaxRewriteHeader(OldTable, hdr, *xid_cutoff, *multi_cutoff));

				tuplesort_putheaptuple(sort, tuple);
				continue;
			}
			PaxPrepareRow(NewTable, slot, 0, NULL, &rows[nkeep]);
			rows[nkeep].values = memcpy(palloc(tupdesc->natts * sizeof(Datum)),
										rows[nkeep].values,
										tupdesc->natts * sizeof(Datum));
			rows[nkeep].isnull = memcpy(palloc(tupdesc->natts * sizeof(bool)),
										rows[nkeep].isnull,
										tupdesc->natts * sizeof(bool));
			rows[nkeep].slot = NULL;
			rows[nkeep].srchdr = PaxRewriteHeader(OldTable, hdr, *xid_cutoff, *multi_cutoff);
			nkeep++;
		}
		LockBuffer(buffer, BUFFER_LOCK_UNLOCK);

		/* values still point into the old page, which stays pinned */
		if (nkeep > 0)
			PaxInsertRows(NewTable, rows, nkeep, InvalidCommandId, 0, NULL);
		ExecClearTuple(slot);
		ReleaseBuffer(buffer);
		MemoryContextSwitchTo(oldcxt);
		MemoryContextReset(cxt);
	}
	PaxLayoutCacheFree(&cache);

	if (sort)
	{
		HeapTuple	tuple;

		tuplesort_performsort(sort);
		while ((tuple = tuplesort_getheaptuple(sort, true)) != NULL)
		{
			CHECK_FOR_INTERRUPTS();
			PaxRewriteAdd(&rw, tuple);
		}
		PaxRewriteFlush(&rw);
		tuplesort_end(sort);
	}

done:
	ExecDropSingleTupleTableSlot(rw.hslot);
	MemoryContextDelete(rw.cxt);
	ExecDropSingleTupleTableSlot(slot);
	MemoryContextDelete(cxt);
}
