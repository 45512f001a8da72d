/*-------------------------------------------------------------------------
 *
 * pax_prepare.c
 *	  Preparing a new row for a pax page: its values taken from the slot,
 *	  large or external values through heap's TOAST code, and the row's
 *	  size checked against what heap and an empty pax page take.
 *
 * A prepared row (PaxRow) knows its values, its NULLs, its variable-length
 * columns and the bytes it needs in the value area (measured by
 * PaxRowPlace, pax_place.c); pax_insert.c then places it.  A row heap
 * would refuse raises heap's error before any page is touched; a row heap
 * takes that an empty pax page cannot hold has its largest values moved to
 * the TOAST table.
 *
 * pax_am/pax_prepare.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/heaptoast.h"
#include "access/htup_details.h"
#include "access/detoast.h"
#include "access/toast_internals.h"
#include "executor/tuptable.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_tableam.h"

/*
 * PaxCheckHeapRowSize raises heap's error for a row heap_insert refuses:
 * one whose tuple, as heap_form_tuple would build it from the values the
 * TOAST code left, is longer than MaxHeapTupleSize.  Adapted from the size
 * check of RelationGetBufferForTuple() in hio.c, PostgreSQL 15.
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
	shape.widths = NULL;
	shape.bases = NULL;
	shape.factors = NULL;
	shape.prefixes = NULL;
	shape.compact = false;
	for (int i = 0; i < tupdesc->natts; i++)
		if (row->isnull[i] || TupleDescAttr(tupdesc, i)->attisdropped)
			PaxBitSet(shape.absent, i);
	fits = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START,
					   PaxLayoutSize(tupdesc, &shape, NULL), NULL, NULL, 0,
					   false) >= 0;
	PaxShapeFree(&shape);
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
		upper = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START, 0, NULL, NULL, 0,
							false);
		row->varbytes = PAX_SPECIAL_START - upper;
		if (PaxRowFitsEmptyPage(tupdesc, row))
			return;
	}
}

/*
 * PaxRowWouldToast tells whether PaxPrepareRow would send the slot's row
 * through heap's TOAST code (external values, or a row larger than
 * TOAST_TUPLE_THRESHOLD in a relation with a TOAST table), which inserts
 * into the TOAST relation and so must not run under a buffer lock of ours.
 */
bool
PaxRowWouldToast(Relation rel, TupleTableSlot *slot)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	Size		datasize = 0;

	slot_getallattrs(slot);
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		Datum		v = slot->tts_values[i];

		if (slot->tts_isnull[i])
			continue;
		if (att->attlen > 0)
			datasize += att->attlen;
		else if (att->attlen == -1)
		{
			if (VARATT_IS_EXTERNAL(DatumGetPointer(v)))
				return true;
			datasize += VARSIZE_ANY(DatumGetPointer(v));
		}
		else
			datasize += strlen(DatumGetCString(v)) + 1;
	}
	return OidIsValid(rel->rd_rel->reltoastrelid) &&
		MAXALIGN(SizeofHeapTupleHeader + BITMAPLEN(tupdesc->natts)) + datasize >
		TOAST_TUPLE_THRESHOLD;
}

/*
 * PaxPrepareRow takes a row's values from the slot, toasting them if the
 * row is large or carries external values, and measures its value-area
 * needs.  Arrays are allocated in the current memory context.  Adapted from
 * heap_prepare_insert() in heapam.c, PostgreSQL 15 (its TOAST step).
 */
void
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
	row->nvar = 0;
	row->hasnull = false;

	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);

		if (row->isnull[i])
		{
			row->hasnull = true;
			continue;
		}
		if (att->attlen > 0)
			datasize += att->attlen;
		else
		{
			if (row->nvar >= PAX_ROW_VARATTS)
				row->nvar = -1;
			else if (row->nvar >= 0)
				row->var[row->nvar++] = (int16) i;
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

	upper = PaxRowPlace(tupdesc, row, PAX_SPECIAL_START, 0, NULL, NULL, 0,
						false);
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
