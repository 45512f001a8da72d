/*-------------------------------------------------------------------------
 *
 * pax_slot.c
 *	  TTSOpsPaxTuple: a tuple table slot that reads a row's values straight
 *	  from the minipages of a pinned pax page.
 *
 * A slot holding a pax row keeps a pin on the page (its own, so the scan
 * may move on) and remembers the row index; getsomeattrs fills tts_values
 * for the columns asked for, one O(1) minipage access each, with no
 * per-row palloc or copy: by-reference values point into the page.
 * materialize copies the by-reference values into the slot's memory and
 * drops the pin, as a virtual slot would.
 *
 * A slot may also be filled by copyslot from any other slot; it then
 * behaves as a materialised virtual slot.
 *
 * The callbacks are adapted from execTuples.c's TTSOpsBufferHeapTuple
 * (tts_buffer_heap_*: the pin, getsysattr, copy_heap_tuple) and
 * TTSOpsVirtual (tts_virtual_materialize, tts_virtual_copyslot),
 * PostgreSQL 15.
 *
 * The slot type is published to observing modules (deform_cache) through
 * the rendezvous struct of pax_am_hooks.h, see PaxHooksInit.
 *
 * pax_am/pax_slot.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heapam.h"
#include "access/htup_details.h"
#include "storage/bufmgr.h"
#include "utils/expandeddatum.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_mvcc.h"
#include "pax_slot.h"
#include "pax_am_hooks.h"

/* this backend's link with observing modules, or NULL; see pax_am_hooks.h */
PaxAmHooks *PaxHooks = NULL;

static void
tts_pax_init(TupleTableSlot *slot)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	pslot->buffer = InvalidBuffer;
	pslot->page = NULL;
	pslot->row = -1;
	pslot->data = NULL;
	pslot->cells = NULL;
	pslot->needed = NULL;
	pslot->nneeded = 0;
	pslot->hashdr = false;
	PaxLayoutCacheInit(&pslot->lcache, slot->tts_tupleDescriptor->natts,
					   slot->tts_mcxt);
}

static void
tts_pax_release(TupleTableSlot *slot)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	PaxLayoutCacheFree(&pslot->lcache);
	if (pslot->cells)
		pfree(pslot->cells);
	pslot->cells = NULL;
}

static void
tts_pax_clear(TupleTableSlot *slot)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	if (BufferIsValid(pslot->buffer))
		ReleaseBuffer(pslot->buffer);
	pslot->buffer = InvalidBuffer;
	pslot->page = NULL;
	if (TTS_SHOULDFREE(slot))
	{
		if (pslot->data)
			pfree(pslot->data);
		pslot->data = NULL;
		slot->tts_flags &= ~TTS_FLAG_SHOULDFREE;
	}
	pslot->hashdr = false;
	slot->tts_nvalid = 0;
	slot->tts_flags |= TTS_FLAG_EMPTY;
	ItemPointerSetInvalid(&slot->tts_tid);
}

/*
 * tts_pax_getsomeattrs fills columns [tts_nvalid, natts) from the page.
 */
static void
tts_pax_getsomeattrs(TupleTableSlot *slot, int natts)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	Assert(!TTS_EMPTY(slot));
	if (!BufferIsValid(pslot->buffer))
		elog(ERROR, "pax slot without a page has fewer attributes than asked for");

	PaxPageFillValues(slot->tts_tupleDescriptor, pslot->page,
					  pslot->lcache.layout, pslot->row,
					  slot->tts_nvalid, natts,
					  pslot->needed, pslot->nneeded,
					  slot->tts_values, slot->tts_isnull,
					  PaxDecodeCellsFor(&pslot->cells, pslot->lcache.layout,
										slot->tts_tupleDescriptor->natts,
										slot->tts_mcxt));
	slot->tts_nvalid = natts;
}

/*
 * PaxSlotRowHeader is the header of the slot's row on its pinned page,
 * read, as heap's slot reads its tuple's, with the pin only; on a compact
 * page, whose rows' headers move (a slot taken, given back), it is copied
 * into the slot under a share lock, from the header page if it is there
 * (PaxRowHeaderOf).
 */
static HeapTupleHeader
PaxSlotRowHeader(TupleTableSlot *slot)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
	uint16		rowhdrs = (pslot->lcache.layout)->rowhdrs;

	if (!PaxPageIsCompact(pslot->page))
		return PaxRowHeader(pslot->page, rowhdrs, pslot->row);
	/* (a slot's page is never locked by its reader between rows) */
	LockBuffer(pslot->buffer, BUFFER_LOCK_SHARE);
	if (PaxCompactStates(pslot->page, rowhdrs)[pslot->row] == PAX_STATE_OVERFLOW)
	{
		Relation	rel = RelationIdGetRelation(slot->tts_tableOid);

		if (!RelationIsValid(rel))
			elog(ERROR, "could not open relation with OID %u", slot->tts_tableOid);
		memcpy(pslot->rowhdr.bytes,
			   PaxOverflowHeaderCopy(rel, pslot->page, rowhdrs, pslot->row),
			   PAX_ROWHDR_SIZE);
		RelationClose(rel);
	}
	else
		memcpy(pslot->rowhdr.bytes,
			   PaxRowHeader(pslot->page, rowhdrs, pslot->row), PAX_ROWHDR_SIZE);
	LockBuffer(pslot->buffer, BUFFER_LOCK_UNLOCK);
	return &pslot->rowhdr.hdr;
}

static Datum
tts_pax_getsysattr(TupleTableSlot *slot, int attnum, bool *isnull)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
	HeapTupleData tuple;

	Assert(!TTS_EMPTY(slot));
	if (BufferIsValid(pslot->buffer))
		tuple.t_data = PaxSlotRowHeader(slot);
	else if (pslot->hashdr)
		tuple.t_data = &pslot->rowhdr.hdr;
	else
	{
		/*
		 * Values stored without a row header (copied from another slot):
		 * heap's slot would hold the tuple heap_form_tuple made of them,
		 * whose header is all zeroes but for its length and flags, so its
		 * system columns read as 0; read ours from such a header too.
		 */
		memset(pslot->rowhdr.bytes, 0, PAX_ROWHDR_SIZE);
		pslot->hashdr = true;
		tuple.t_data = &pslot->rowhdr.hdr;
	}
	tuple.t_len = PAX_ROWHDR_SIZE;
	tuple.t_self = slot->tts_tid;
	tuple.t_tableOid = slot->tts_tableOid;
	return heap_getsysattr(&tuple, attnum, slot->tts_tupleDescriptor, isnull);
}

/*
 * tts_pax_materialize makes the slot independent of the page (and of any
 * memory its values point to): by-reference values are copied into the
 * slot's memory context and the pin is released.
 */
static void
tts_pax_materialize(TupleTableSlot *slot)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
	TupleDesc	desc = slot->tts_tupleDescriptor;
	Size		sz = 0;
	char	   *data;

	if (TTS_SHOULDFREE(slot))
		return;

	if (BufferIsValid(pslot->buffer))
	{
		HeapTupleHeader hdr;

		if (slot->tts_nvalid < desc->natts)
			tts_pax_getsomeattrs(slot, desc->natts);
		hdr = PaxSlotRowHeader(slot);
		if (hdr != &pslot->rowhdr.hdr)
			memcpy(pslot->rowhdr.bytes, hdr, PAX_ROWHDR_SIZE);
		pslot->hashdr = true;
	}

	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		Datum		val = slot->tts_values[i];

		if (att->attbyval || slot->tts_isnull[i])
			continue;
		sz = att_align_nominal(sz, att->attalign);
		if (att->attlen == -1 && VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(val)))
			sz += EOH_get_flat_size(DatumGetEOHP(val));
		else
			sz = att_addlength_datum(sz, att->attlen, val);
	}

	if (sz > 0)
	{
		pslot->data = data = MemoryContextAlloc(slot->tts_mcxt, sz);
		slot->tts_flags |= TTS_FLAG_SHOULDFREE;
		for (int i = 0; i < desc->natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(desc, i);
			Datum		val = slot->tts_values[i];

			if (att->attbyval || slot->tts_isnull[i])
				continue;
			data = (char *) att_align_nominal(data, att->attalign);
			if (att->attlen == -1 && VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(val)))
			{
				ExpandedObjectHeader *eoh = DatumGetEOHP(val);
				Size		len = EOH_get_flat_size(eoh);

				EOH_flatten_into(eoh, data, len);
				slot->tts_values[i] = PointerGetDatum(data);
				data += len;
			}
			else
			{
				Size		len = att_addlength_datum(0, att->attlen, val);

				memcpy(data, DatumGetPointer(val), len);
				slot->tts_values[i] = PointerGetDatum(data);
				data += len;
			}
		}
	}

	if (BufferIsValid(pslot->buffer))
	{
		ReleaseBuffer(pslot->buffer);
		pslot->buffer = InvalidBuffer;
		pslot->page = NULL;
	}
}

static void
tts_pax_copyslot(TupleTableSlot *dstslot, TupleTableSlot *srcslot)
{
	TupleDesc	srcdesc = srcslot->tts_tupleDescriptor;

	Assert(srcdesc->natts <= dstslot->tts_tupleDescriptor->natts);

	tts_pax_clear(dstslot);
	slot_getallattrs(srcslot);
	for (int i = 0; i < srcdesc->natts; i++)
	{
		dstslot->tts_values[i] = srcslot->tts_values[i];
		dstslot->tts_isnull[i] = srcslot->tts_isnull[i];
	}
	dstslot->tts_nvalid = srcdesc->natts;
	dstslot->tts_flags &= ~TTS_FLAG_EMPTY;
	dstslot->tts_tid = srcslot->tts_tid;
	dstslot->tts_tableOid = srcslot->tts_tableOid;

	/* make sure no values point into the source slot's storage */
	tts_pax_materialize(dstslot);
}

static HeapTuple
tts_pax_copy_heap_tuple(TupleTableSlot *slot)
{
	HeapTuple	tuple;

	Assert(!TTS_EMPTY(slot));
	slot_getallattrs(slot);
	tuple = heap_form_tuple(slot->tts_tupleDescriptor,
							slot->tts_values, slot->tts_isnull);
	tuple->t_self = slot->tts_tid;
	tuple->t_tableOid = slot->tts_tableOid;
	return tuple;
}

/* 18 asks for extra bytes ahead of the tuple; earlier versions never do */
#if PG_VERSION_NUM >= 180000
static MinimalTuple
tts_pax_copy_minimal_tuple(TupleTableSlot *slot, Size extra)
#else
static MinimalTuple
tts_pax_copy_minimal_tuple(TupleTableSlot *slot)
#endif
{
#if PG_VERSION_NUM < 180000
	Size		extra = 0;
#endif

	Assert(!TTS_EMPTY(slot));
	slot_getallattrs(slot);
	return PaxFormMinimalTuple(slot->tts_tupleDescriptor,
							   slot->tts_values, slot->tts_isnull, extra);
}

#if PG_VERSION_NUM >= 170000
/*
 * tts_pax_is_current_xact_tuple tells whether this transaction inserted the
 * row (17; RI triggers ask).  Heap's slot errors without a stored tuple; a
 * pax slot reads the xmin of its page's row, or of the header copied when
 * it was materialised, as getsysattr does.  Adapted from
 * tts_buffer_is_current_xact_tuple() in execTuples.c, PostgreSQL 18.
 */
static bool
tts_pax_is_current_xact_tuple(TupleTableSlot *slot)
{
	bool		isnull;
	Datum		xmin;

	Assert(!TTS_EMPTY(slot));
	xmin = tts_pax_getsysattr(slot, MinTransactionIdAttributeNumber, &isnull);
	return !isnull && TransactionIdIsCurrentTransactionId(DatumGetTransactionId(xmin));
}
#endif

const TupleTableSlotOps TTSOpsPaxTuple = {
	.base_slot_size = sizeof(PaxTupleTableSlot),
	.init = tts_pax_init,
	.release = tts_pax_release,
	.clear = tts_pax_clear,
	.getsomeattrs = tts_pax_getsomeattrs,
	.getsysattr = tts_pax_getsysattr,
	.materialize = tts_pax_materialize,
	.copyslot = tts_pax_copyslot,
#if PG_VERSION_NUM >= 170000
	.is_current_xact_tuple = tts_pax_is_current_xact_tuple,
#endif

	/* a pax slot never holds a heap or minimal tuple it could lend out */
	.get_heap_tuple = NULL,
	.get_minimal_tuple = NULL,
	.copy_heap_tuple = tts_pax_copy_heap_tuple,
	.copy_minimal_tuple = tts_pax_copy_minimal_tuple
};

/*
 * PaxSlotPinPage makes a pax slot hold a pin of its own on the buffer's
 * page (which the caller has pinned) and the page's layout, which it
 * returns, ready for PaxSlotStoreRow of one of the page's rows.  A row the
 * slot held on another page is cleared.  The slot may stay empty and
 * pinned (the row turned out invisible): clearing it drops the pin.
 */
const PaxPageLayout *
PaxSlotPinPage(TupleTableSlot *slot, Relation rel, Buffer buffer,
			   BlockNumber blkno)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	if (slot->tts_ops != &TTSOpsPaxTuple)
		elog(ERROR, "pax rows can only be stored in pax slots");

	if (pslot->buffer != buffer)
	{
		tts_pax_clear(slot);
		IncrBufferRefCount(buffer);
		pslot->buffer = buffer;
		pslot->page = BufferGetPage(buffer);
		PaxPageGetLayout(rel, slot->tts_tupleDescriptor, pslot->page, blkno,
						 &pslot->lcache);
	}
	return pslot->lcache.layout;
}

/*
 * PaxSlotPrefetchRow asks the CPU to start loading the cache lines that
 * reading row `row` of the slot's page (see PaxSlotPinPage) will touch:
 * the row header, and for each column the slot reads, its null bitmap
 * byte and its value (or a variable-length value's offset).  A row fetched
 * by TID lies on a page no neighbouring row has brought into cache, and
 * its columns lie in as many minipages: loaded as they are read, each line
 * is a cache miss after the previous one; prefetched, they overlap.
 */
void
PaxSlotPrefetchRow(TupleTableSlot *slot, int row)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;
	const PaxPageLayout *layout = pslot->lcache.layout;
	const char *page = pslot->page;
	int			n;

	Assert(BufferIsValid(pslot->buffer) && row >= 0);
	__builtin_prefetch(PaxRowHeader(page, layout->rowhdrs, row));
	n = pslot->needed ? pslot->nneeded : layout->natts;
	for (int k = 0; k < n; k++)
	{
		int			i = pslot->needed ? pslot->needed[k] : k;
		const PaxColumnLayout *col;
		uint32		off,
					len;

		if (i >= layout->natts)
			break;
		col = &layout->cols[i];
		if (col->data == 0 || col->dropped)
			continue;
		if (col->nullmap != 0)
			__builtin_prefetch(page + col->nullmap + row / 8);
		PaxRowBytes(col, row, &off, &len);
		__builtin_prefetch(page + off);
	}
}

/*
 * PaxSlotStoreRow makes a pax slot hold row `row` of block `blkno`, whose
 * buffer the caller has pinned; the slot takes a pin of its own.  Values
 * are read when asked for.  The caller has checked the row's visibility.
 */
void
PaxSlotStoreRow(TupleTableSlot *slot, Relation rel, Buffer buffer,
				BlockNumber blkno, int row)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	if (slot->tts_ops != &TTSOpsPaxTuple)
		elog(ERROR, "pax rows can only be stored in pax slots");

	if (pslot->buffer != buffer)
		(void) PaxSlotPinPage(slot, rel, buffer, blkno);
	else if (TTS_SHOULDFREE(slot))
	{
		/* values were materialised: forget them, keep the pin */
		if (pslot->data)
			pfree(pslot->data);
		pslot->data = NULL;
		slot->tts_flags &= ~TTS_FLAG_SHOULDFREE;
	}
	pslot->hashdr = false;
	pslot->row = row;
	slot->tts_nvalid = 0;
	slot->tts_flags &= ~TTS_FLAG_EMPTY;
	ItemPointerSet(&slot->tts_tid, blkno,
				   PaxSlotTid(BufferGetPage(buffer), row));
	slot->tts_tableOid = RelationGetRelid(rel);
}

/*
 * PaxSlotSetNeeded restricts a pax slot to the nneeded columns needed lists
 * (zero-based, ascending, kept by reference; NULL for all): the others read
 * as NULL from the rows it is given from now on.  Only for
 * a scan node's own slot, and only where no reader of the slot asks for
 * the other columns (pax_colskip.c).
 */
void
PaxSlotSetNeeded(TupleTableSlot *slot, const int16 *needed, int nneeded)
{
	PaxTupleTableSlot *pslot = (PaxTupleTableSlot *) slot;

	Assert(slot->tts_ops == &TTSOpsPaxTuple);
	pslot->needed = needed;
	pslot->nneeded = nneeded;
}

/*
 * PaxHooksInit publishes pax's slot type in the PaxAmHooks rendezvous
 * struct, allocating the struct if no observer was loaded before us, and
 * keeps the link in PaxHooks so that PaxScan can find an observer's
 * report-read hook.  Called once, from _PG_init.
 */
void
PaxHooksInit(void)
{
	PaxHooks = PaxAmHooksAttach();
	if (PaxHooks == NULL)
		return;
	PaxHooks->slot_ops = &TTSOpsPaxTuple;
	PaxHooks->slot_name = "PaxTuple";
}

/*
 * pax_slot_callbacks is the table AM's slot_callbacks: a pax relation's
 * slots are pax slots.
 */
const TupleTableSlotOps *
pax_slot_callbacks(Relation relation)
{
	return &TTSOpsPaxTuple;
}

/*
 * PaxIsPaxAm tells whether a table access method routine (a relation's
 * rd_tableam) is pax's: the one whose slots are pax slots.
 */
bool
PaxIsPaxAm(const TableAmRoutine *routine)
{
	return routine != NULL && routine->slot_callbacks == pax_slot_callbacks;
}
