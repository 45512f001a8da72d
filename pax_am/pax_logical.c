/*-------------------------------------------------------------------------
 *
 * pax_logical.c
 *	  Logical decoding of pax relations: a custom WAL resource manager.
 *
 * Every change to a pax page is a generic WAL record (pax_wal.c), which
 * logical decoding cannot read.  So with wal_level = logical, each insert,
 * update and delete of a logically logged pax relation also writes a
 * record of the "pax" resource manager (PAX_RMGR_ID) holding what heap's
 * own records give its decoder: the new rows as heap tuples, the old row's
 * replica identity (the key, or the whole row for REPLICA IDENTITY FULL),
 * the speculative insertion flags.  Its redo does nothing (the page
 * records did the change); its decode callback queues the same reorder
 * buffer changes as heap's decoder (decode.c), so output plugins, TOAST
 * reassembly, subtransactions, spilling and streaming work as for heap.
 * TRUNCATE is logged by core for every table.  Below wal_level = logical
 * nothing more is written.  Rewrites (VACUUM FULL, CLUSTER) log no rows,
 * as heap's do not; ALTER TABLE's rewrites log the rows of the transient
 * table, which decoding skips (relrewrite), as heap's.
 *
 * A custom resource manager must be registered while shared_preload_libraries
 * loads, in every server that reads the WAL: the primary, for decoding and
 * crash recovery, and standbys, for replay.  Without pax_am preloaded, a
 * write to a logically logged pax relation under wal_level = logical fails
 * with an error saying so (PaxLogicalCheckWrite), before any change: never
 * a change missing downstream, never WAL a server cannot replay; and
 * CREATE / ALTER PUBLICATION of pax tables warns.  The transient table of
 * an ALTER TABLE or REFRESH MATERIALIZED VIEW rewrite is the exception:
 * decoding skips its changes, so it is written with no records for
 * decoding, as VACUUM FULL's copy is (PaxLogicalRefuseWrite).
 *
 * Record format (after the record header): xl_pax_logical, then per tuple
 * a uint32 length of the data, an xl_heap_header, and the tuple's bytes
 * after its fixed header (null bitmap, padding, data), as heap logs them:
 * for INSERT ntuples new rows; for UPDATE the old key (PAX_XL_HAS_OLD)
 * then the new row; for DELETE the old key (PAX_XL_HAS_OLD); CONFIRM
 * (speculative insertion confirmed) none.
 *
 * A batch's new page (COPY, and the batches of pax_bulk.c) is logged whole,
 * and holds exactly the rows the INSERT record would repeat: so its page
 * record is an XLOG_PAX_PAGE_ROWS record instead, the page's image with
 * main data saying how to read it (xl_pax_logical, then a uint16 column
 * count and per column its type, length, by-value, alignment, storage and
 * dropped flags: PaxColumnDesc), and no INSERT record follows.  Its decode
 * callback restores the image, reads each row as PaxScan would, forms the
 * heap tuple heap_form_tuple gives PaxLogicalLogInserts and queues the
 * same changes; the rows are written once, not twice.
 *
 * pax_am/pax_logical.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/heaptoast.h"
#include "access/heapam_xlog.h"
#include "access/htup_details.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "access/xlog_internal.h"
#include "access/xloginsert.h"
#include "access/xlogreader.h"
#include "catalog/catalog.h"
#include "catalog/pg_am.h"
#include "catalog/pg_class.h"
#include "catalog/pg_publication.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "replication/decode.h"
#include "replication/logical.h"
#include "replication/reorderbuffer.h"
#include "replication/snapbuild.h"
#include "tcop/utility.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_slot.h"
#include "pax_tableam.h"

/*
 * The reorder buffer's tuples became plain heap tuples in 17, its
 * allocators were renamed in 18, and a change's file became a
 * RelFileLocator in 16.
 */
#if PG_VERSION_NUM >= 170000
typedef HeapTuple PaxRbTuple;
#define PaxRbTupleHeap(t)	(t)
#else
typedef ReorderBufferTupleBuf *PaxRbTuple;
#define PaxRbTupleHeap(t)	(&(t)->tuple)
#endif
#if PG_VERSION_NUM >= 180000
#define PaxRbAllocChange(rb)			ReorderBufferAllocChange(rb)
#define PaxRbAllocTupleBuf(rb, len)		ReorderBufferAllocTupleBuf((rb), (len))
#else
#define PaxRbAllocChange(rb)			ReorderBufferGetChange(rb)
#define PaxRbAllocTupleBuf(rb, len)		ReorderBufferGetTupleBuf((rb), (len))
#endif
#if PG_VERSION_NUM >= 160000
#define PaxChangeFile(change)	((change)->data.tp.rlocator)
#else
#define PaxChangeFile(change)	((change)->data.tp.relnode)
#endif

/* at most this many table names in the publication warning's detail */
#define PAX_LOGICAL_MAX_NAMES	10

static ProcessUtility_hook_type prev_ProcessUtility = NULL;

/* ------------------------------------------------------------------------
 * Writing the records
 * ------------------------------------------------------------------------
 */

/*
 * PaxLogicalWanted tells whether a change to rel with the given insert
 * options is logged for decoding: as heap_insert() decides in heapam.c.
 * Without the resource manager, the transient table of a rewrite, the one
 * logically logged pax relation written then (PaxLogicalRefuseWrite), gets
 * no records.
 */
bool
PaxLogicalWanted(Relation rel, int options)
{
	return XLogLogicalInfoActive() && RelationIsLogicallyLogged(rel) &&
		!(options & TABLE_INSERT_NO_LOGICAL) &&
		(pax_rmgr_registered || !OidIsValid(rel->rd_rel->relrewrite));
}

/* PaxAppendTuple appends one tuple in the record's format. */
static void
PaxAppendTuple(StringInfo buf, HeapTuple tuple)
{
	xl_heap_header xlhdr;
	uint32		datalen = tuple->t_len - SizeofHeapTupleHeader;

	xlhdr.t_infomask2 = tuple->t_data->t_infomask2;
	xlhdr.t_infomask = tuple->t_data->t_infomask;
	xlhdr.t_hoff = tuple->t_data->t_hoff;
	appendBinaryStringInfo(buf, (char *) &datalen, sizeof(datalen));
	appendBinaryStringInfo(buf, (char *) &xlhdr, SizeOfHeapHeader);
	appendBinaryStringInfo(buf, (char *) tuple->t_data + SizeofHeapTupleHeader,
						   datalen);
}

/*
 * PaxRowsXid: the xid a record of rows inserted by xid names besides its
 * own (PAX_XL_XID), or InvalidTransactionId when they are the current
 * transaction's: kept rows (pax_bulk.c) may be placed in a later
 * subtransaction than the one that inserted them, whose abort must not
 * take their decoded changes with it.
 */
static TransactionId
PaxRowsXid(TransactionId xid)
{
	if (!TransactionIdIsValid(xid) ||
		TransactionIdEquals(xid, GetCurrentTransactionIdIfAny()))
		return InvalidTransactionId;
	return xid;
}

/*
 * PaxLogicalHeader fills the header of a record of rel's: PAX_XL_XID added
 * to flags when rowsxid, written after the header, is valid.
 */
static void
PaxLogicalHeader(xl_pax_logical *xlrec, Relation rel, int ntuples,
				 uint8 flags, TransactionId rowsxid)
{
	memset(xlrec, 0, sizeof(*xlrec));
	xlrec->locator = PaxRelationFile(rel);
	xlrec->ntuples = (uint16) ntuples;
	xlrec->flags = flags | (TransactionIdIsValid(rowsxid) ? PAX_XL_XID : 0);
}

/*
 * PaxLogicalInsertRecord writes a record of rel's built in buf; rowsxid,
 * when valid, is written after its header (PAX_XL_XID).
 */
static void
PaxLogicalInsertRecord(Relation rel, uint8 info, uint8 flags, int ntuples,
					   StringInfo buf, TransactionId rowsxid)
{
	xl_pax_logical xlrec;

	Assert(pax_rmgr_registered);
	PaxLogicalHeader(&xlrec, rel, ntuples, flags, rowsxid);
	XLogBeginInsert();
	XLogSetRecordFlags(XLOG_INCLUDE_ORIGIN);
	XLogRegisterData((char *) &xlrec, SizeOfPaxLogical);
	if (TransactionIdIsValid(rowsxid))
		XLogRegisterData((char *) &rowsxid, sizeof(TransactionId));
	if (buf != NULL && buf->len > 0)
		XLogRegisterData(buf->data, buf->len);
	(void) XLogInsert(PAX_RMGR_ID, info);
}

/*
 * PaxLogicalKeep writes the record that tells decoding, before the current
 * subtransaction keeps rows of rel to be placed maybe later, in another
 * one, which transaction it belongs to: under wal_level = logical, a
 * subtransaction's first record names its parent, and the changes of the
 * kept rows are queued under its xid (PAX_XL_XID), which decoding must
 * then know as a subtransaction, not take for a transaction of its own
 * (which it could stream alone).  Nothing to do at the top level, nor
 * when the rows are not decoded.
 */
void
PaxLogicalKeep(Relation rel, int options)
{
	uint8		none = 0;

	/* (without the resource manager, such a write failed before this) */
	if (!pax_rmgr_registered || !PaxLogicalWanted(rel, options) ||
		GetCurrentTransactionNestLevel() <= 1)
		return;
	(void) GetCurrentTransactionId();
	XLogBeginInsert();
	XLogRegisterData((char *) &none, sizeof(none));
	(void) XLogInsert(PAX_RMGR_ID, XLOG_PAX_KEEP);
}

/*
 * PaxLogicalLogInserts logs rows just placed on one page (at most
 * PAX_MAX_CAPACITY): speculative when they are a speculative insertion,
 * last when no more rows of the statement's batch follow; xid, the rows'.
 */
void
PaxLogicalLogInserts(Relation rel, const PaxRow *rows, int nrows,
					 bool speculative, bool last, TransactionId xid)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < nrows; i++)
	{
		HeapTuple	tuple = heap_form_tuple(tupdesc, rows[i].values,
											rows[i].isnull);

		PaxAppendTuple(&buf, tuple);
		heap_freetuple(tuple);
	}
	PaxLogicalInsertRecord(rel, XLOG_PAX_INSERT,
						   (speculative ? PAX_XL_SPECULATIVE : 0) |
						   (last ? PAX_XL_LAST_IN_MULTI : 0),
						   nrows, &buf, PaxRowsXid(xid));
	pfree(buf.data);
}

/*
 * PaxColumnDesc: what an XLOG_PAX_PAGE_ROWS record says of a column, so
 * that decoding reads the page and forms its rows' tuples without the
 * catalog (written field by field: SizeOfPaxColumnDesc bytes).
 */
typedef struct PaxColumnDesc
{
	Oid			typid;
	int16		len;
	bool		byval;
	char		align;
	char		storage;
	bool		dropped;
} PaxColumnDesc;

#define SizeOfPaxColumnDesc	(offsetof(PaxColumnDesc, dropped) + sizeof(bool))

/*
 * PaxLogicalPageRows makes chg, a new page logged whole that holds just
 * the nrows rows placed on it, an XLOG_PAX_PAGE_ROWS record: its main data,
 * built in buf (the caller frees it after PaxChangeFinish), says how to
 * decode the image's rows; last and xid as for PaxLogicalLogInserts.  No
 * INSERT record follows.
 */
void
PaxLogicalPageRows(Relation rel, PaxChange *chg, StringInfo buf, int nrows,
				   bool last, TransactionId xid)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	xl_pax_logical xlrec;
	uint16		natts = (uint16) tupdesc->natts;
	TransactionId rowsxid = PaxRowsXid(xid);

	Assert(chg->full && pax_rmgr_registered);
	Assert(PaxPageGetHeader((Page) chg->copy.data)->pp_nrows == nrows);
	PaxLogicalHeader(&xlrec, rel, nrows, last ? PAX_XL_LAST_IN_MULTI : 0,
					 rowsxid);
	initStringInfo(buf);
	appendBinaryStringInfo(buf, (char *) &xlrec, SizeOfPaxLogical);
	if (TransactionIdIsValid(rowsxid))
		appendBinaryStringInfo(buf, (char *) &rowsxid, sizeof(TransactionId));
	appendBinaryStringInfo(buf, (char *) &natts, sizeof(natts));
	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		PaxColumnDesc col;

		memset(&col, 0, sizeof(col));
		col.typid = att->atttypid;
		col.len = att->attlen;
		col.byval = att->attbyval;
		col.align = att->attalign;
		col.storage = att->attstorage;
		col.dropped = att->attisdropped;
		appendBinaryStringInfo(buf, (char *) &col, SizeOfPaxColumnDesc);
	}
	chg->rows = buf;
}

/*
 * PaxLogicalLogChange logs an update (the old key, or NULL, and the new
 * row) or a delete (the old key, or NULL; newtup NULL).
 */
static void
PaxLogicalLogChange(Relation rel, uint8 info, uint8 flags, HeapTuple oldkey,
					HeapTuple newtup)
{
	StringInfoData buf;

	initStringInfo(&buf);
	if (oldkey)
	{
		PaxAppendTuple(&buf, oldkey);
		flags |= PAX_XL_HAS_OLD;
	}
	if (newtup)
		PaxAppendTuple(&buf, newtup);
	PaxLogicalInsertRecord(rel, info, flags, newtup ? 1 : 0, &buf,
						   InvalidTransactionId);
	pfree(buf.data);
}

/* PaxLogicalLogUpdate logs an update: the old key (or NULL), the new row. */
void
PaxLogicalLogUpdate(Relation rel, HeapTuple oldkey, HeapTuple newtup)
{
	PaxLogicalLogChange(rel, XLOG_PAX_UPDATE, 0, oldkey, newtup);
}

/*
 * PaxLogicalLogDelete logs a delete with the old key (or NULL), or with
 * super the killing of a speculative insertion's row.
 */
void
PaxLogicalLogDelete(Relation rel, HeapTuple oldkey, bool super)
{
	PaxLogicalLogChange(rel, XLOG_PAX_DELETE, super ? PAX_XL_SUPER : 0,
						oldkey, NULL);
}

/* PaxLogicalLogConfirm logs that a speculative insertion succeeded. */
void
PaxLogicalLogConfirm(Relation rel)
{
	PaxLogicalInsertRecord(rel, XLOG_PAX_CONFIRM, 0, 0, NULL,
						   InvalidTransactionId);
}

/*
 * PaxLogicalOldKey returns what an update or delete logs of the old row,
 * whose values are given: NULL for REPLICA IDENTITY NOTHING; the whole row
 * for FULL; else the replica identity columns (the others NULL) when
 * key_required or when one of them is stored out of line, else NULL.  Out
 * of line values are fetched in.  Adapted from ExtractReplicaIdentity() in
 * heapam.c, PostgreSQL 15.
 */
HeapTuple
PaxLogicalOldKey(Relation rel, Datum *values, bool *isnull, bool key_required)
{
	TupleDesc	tupdesc = RelationGetDescr(rel);
	char		replident = rel->rd_rel->relreplident;
	HeapTuple	tuple;

	if (replident == REPLICA_IDENTITY_NOTHING)
		return NULL;
	if (replident != REPLICA_IDENTITY_FULL)
	{
		Bitmapset  *idattrs = RelationGetIndexAttrBitmap(rel,
														 INDEX_ATTR_BITMAP_IDENTITY_KEY);

		if (bms_is_empty(idattrs))
			return NULL;
		for (int i = 0; i < tupdesc->natts; i++)
		{
			if (!bms_is_member(i + 1 - FirstLowInvalidHeapAttributeNumber,
							   idattrs))
				isnull[i] = true;
			else if (!isnull[i] && TupleDescAttr(tupdesc, i)->attlen == -1 &&
					 VARATT_IS_EXTERNAL(DatumGetPointer(values[i])))
				key_required = true;
		}
		bms_free(idattrs);
		if (!key_required)
			return NULL;
	}
	tuple = heap_form_tuple(tupdesc, values, isnull);
	if (HeapTupleHasExternal(tuple))
	{
		HeapTuple	flat = toast_flatten_tuple(tuple, tupdesc);

		heap_freetuple(tuple);
		tuple = flat;
	}
	return tuple;
}

/*
 * PaxLogicalRefuseWrite raises the error of a write to a logically logged
 * pax relation under wal_level = logical without the resource manager:
 * its change could be neither decoded nor replayed.  Called through
 * PaxLogicalCheckWrite, before any change.
 *
 * The transient table of a rewrite (relrewrite names the table it
 * replaces: make_new_heap() in cluster.c, for ALTER TABLE and REFRESH
 * MATERIALIZED VIEW) is written, with no rows logged for decoding: the
 * decoder skips the changes of such a table (ReorderBufferProcessTXN() in
 * reorderbuffer.c, PostgreSQL 15), so that heap's rows there reach only an
 * output plugin that asks for rewrites (receive_rewrites), and pax's page
 * changes are generic records then, which every server replays.  VACUUM
 * FULL's and CLUSTER's copies log no rows at all, as heap's.
 */
void
PaxLogicalRefuseWrite(Relation rel)
{
	if (!RelationIsLogicallyLogged(rel) || OidIsValid(rel->rd_rel->relrewrite))
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("cannot write to table \"%s\" while wal_level is \"logical\"",
					RelationGetRelationName(rel)),
			 errdetail("Table \"%s\" uses the pax access method, whose changes are decoded only when the pax_am library is in shared_preload_libraries.",
					   RelationGetRelationName(rel)),
			 errhint("Add pax_am to shared_preload_libraries and restart the server, on the primary and on every standby.")));
}

/* ------------------------------------------------------------------------
 * Decoding: the resource manager's rm_decode
 * ------------------------------------------------------------------------
 */

/*
 * PaxRbTupleOf makes a reorder buffer tuple of a tuple's header fields and
 * its bytes after the fixed header (datalen of them), as heap's decoder
 * makes one of what its records carry: the rest of the header zero.
 */
static PaxRbTuple
PaxRbTupleOf(LogicalDecodingContext *ctx, const xl_heap_header *xlhdr,
			 const char *data, uint32 datalen)
{
	PaxRbTuple	tuple = PaxRbAllocTupleBuf(ctx->reorder, datalen);
	HeapTuple	htup = PaxRbTupleHeap(tuple);

	htup->t_len = datalen + SizeofHeapTupleHeader;
	ItemPointerSetInvalid(&htup->t_self);
	htup->t_tableOid = InvalidOid;
	memset(htup->t_data, 0, SizeofHeapTupleHeader);
	memcpy((char *) htup->t_data + SizeofHeapTupleHeader, data, datalen);
	htup->t_data->t_infomask = xlhdr->t_infomask;
	htup->t_data->t_infomask2 = xlhdr->t_infomask2;
	htup->t_data->t_hoff = xlhdr->t_hoff;
	return tuple;
}

/*
 * PaxDecodeTuple reads one tuple at *pos of a record's data (ending at
 * end) into a reorder buffer tuple.  Adapted from DecodeXLogTuple() in
 * decode.c, PostgreSQL 15.
 */
static PaxRbTuple
PaxDecodeTuple(LogicalDecodingContext *ctx, const char **pos, const char *end)
{
	uint32		datalen;
	xl_heap_header xlhdr;
	PaxRbTuple	tuple;

	if (end - *pos < (ptrdiff_t) (sizeof(uint32) + SizeOfHeapHeader))
		elog(ERROR, "pax WAL record too short for its tuples");
	memcpy(&datalen, *pos, sizeof(uint32));
	memcpy(&xlhdr, *pos + sizeof(uint32), SizeOfHeapHeader);
	*pos += sizeof(uint32) + SizeOfHeapHeader;
	if (datalen > (uint32) (end - *pos))
		elog(ERROR, "pax WAL record too short for its tuples");

	tuple = PaxRbTupleOf(ctx, &xlhdr, *pos, datalen);
	*pos += datalen;
	return tuple;
}

/*
 * PaxDecodeDesc reads an XLOG_PAX_PAGE_ROWS record's columns at *pos
 * (ending at end) into a tuple descriptor of their own.
 */
static TupleDesc
PaxDecodeDesc(const char **pos, const char *end)
{
	uint16		natts;
	TupleDesc	desc;

	if (end - *pos < (ptrdiff_t) sizeof(uint16))
		elog(ERROR, "pax page rows record too short for its columns");
	memcpy(&natts, *pos, sizeof(uint16));
	*pos += sizeof(uint16);
	if (natts > MaxHeapAttributeNumber ||
		end - *pos < (ptrdiff_t) natts * (ptrdiff_t) SizeOfPaxColumnDesc)
		elog(ERROR, "pax page rows record too short for its columns");
	desc = CreateTemplateTupleDesc(natts);
	for (int i = 0; i < natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);
		PaxColumnDesc col;

		memcpy(&col, *pos, SizeOfPaxColumnDesc);
		*pos += SizeOfPaxColumnDesc;
		att->attrelid = InvalidOid;
		att->attnum = i + 1;
		att->atttypid = col.typid;
		att->atttypmod = -1;
		att->attlen = col.len;
		att->attbyval = col.byval;
		att->attalign = col.align;
		att->attstorage = col.storage;
		att->attisdropped = col.dropped;
#if PG_VERSION_NUM >= 180000
		populate_compact_attribute(desc, i);
#endif
	}
	return desc;
}

/* PaxQueue queues a change of the record's relation. */
static void
PaxQueue(LogicalDecodingContext *ctx, XLogRecordBuffer *buf,
		 const xl_pax_logical *xlrec, TransactionId xid,
		 ReorderBufferChange *change)
{
	change->origin_id = XLogRecGetOrigin(buf->record);
	memcpy(&PaxChangeFile(change), &xlrec->locator, sizeof(PaxFileLocator));
	ReorderBufferQueueChange(ctx->reorder, xid, buf->origptr, change, false);
}

/*
 * PaxDecodePageRows queues the inserts of an XLOG_PAX_PAGE_ROWS record:
 * the rows of the page image it carries, in their order on the page (that
 * of their insertion), each formed as PaxLogicalLogInserts forms it.
 */
static void
PaxDecodePageRows(LogicalDecodingContext *ctx, XLogRecordBuffer *buf,
				  const xl_pax_logical *xlrec, TransactionId xid,
				  const char *data, const char *end)
{
	XLogReaderState *r = buf->record;
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext,
											  "pax page rows decoding",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext oldcxt = MemoryContextSwitchTo(cxt);
	TupleDesc	desc = PaxDecodeDesc(&data, end);
	PGAlignedBlock page;
	BlockNumber blkno;
	PaxLayoutCache cache;
	PaxPageLayout *layout;
	Datum	   *values = palloc(desc->natts * sizeof(Datum));
	bool	   *isnull = palloc(desc->natts * sizeof(bool));
	char	   *cells = NULL;

	if (!XLogRecGetBlockTagExtended(r, 0, NULL, NULL, &blkno, NULL) ||
		!XLogRecHasBlockImage(r, 0) || !RestoreBlockImage(r, 0, page.data))
		elog(ERROR, "pax page rows record without its page image");
	PaxLayoutCacheInit(&cache, desc->natts, cxt);
	layout = PaxPageGetLayout(NULL, desc, (Page) page.data, blkno, &cache);
	if (PaxPageGetHeader((Page) page.data)->pp_nrows != xlrec->ntuples ||
		layout->natts != desc->natts)
		elog(ERROR, "pax page rows record: the page holds %u rows of %d columns, not %u of %d",
			 PaxPageGetHeader((Page) page.data)->pp_nrows, layout->natts,
			 xlrec->ntuples, desc->natts);
	for (int i = 0; i < xlrec->ntuples; i++)
	{
		HeapTuple	tuple;
		xl_heap_header xlhdr;
		ReorderBufferChange *change;

		PaxPageFillValues(desc, (Page) page.data, layout, i, 0, desc->natts,
						  NULL, 0, values, isnull,
						  PaxDecodeCellsFor(&cells, layout, desc->natts, cxt));
		tuple = heap_form_tuple(desc, values, isnull);

		/* what PaxDecodeTuple makes of PaxAppendTuple's copy of it */
		xlhdr.t_infomask2 = tuple->t_data->t_infomask2;
		xlhdr.t_infomask = tuple->t_data->t_infomask;
		xlhdr.t_hoff = tuple->t_data->t_hoff;
		change = PaxRbAllocChange(ctx->reorder);
		change->action = REORDER_BUFFER_CHANGE_INSERT;
		change->data.tp.newtuple =
			PaxRbTupleOf(ctx, &xlhdr, (char *) tuple->t_data + SizeofHeapTupleHeader,
						 tuple->t_len - SizeofHeapTupleHeader);
		heap_freetuple(tuple);
		change->data.tp.clear_toast_afterwards =
			(xlrec->flags & PAX_XL_LAST_IN_MULTI) && i + 1 == xlrec->ntuples;
		PaxQueue(ctx, buf, xlrec, xid, change);
	}
	MemoryContextSwitchTo(oldcxt);
	MemoryContextDelete(cxt);
}

/*
 * pax_rm_decode queues the changes of a pax record as heap's decoder
 * queues those of heap's records.  Adapted from heap_decode(),
 * DecodeInsert(), DecodeMultiInsert(), DecodeUpdate(), DecodeDelete() and
 * DecodeSpecConfirm() in decode.c, PostgreSQL 15.
 */
static void
pax_rm_decode(LogicalDecodingContext *ctx, XLogRecordBuffer *buf)
{
	XLogReaderState *r = buf->record;
	uint8		info = XLogRecGetInfo(r) & XLR_RMGR_INFO_MASK;
	TransactionId xid = XLogRecGetXid(r);
	const char *data = XLogRecGetData(r);
	const char *end = data + XLogRecGetDataLen(r);
	xl_pax_logical xlrec;
	ReorderBufferChange *change;

	ReorderBufferProcessXid(ctx->reorder, xid, buf->origptr);

	/*
	 * a page change carries nothing to decode (its logical record does),
	 * but a new page whose rows are read from its image; KEEP is only its
	 * header, which decoding read before this
	 */
	if (info == XLOG_PAX_PAGE || info == XLOG_PAX_PRUNE ||
		info == XLOG_PAX_KEEP)
		return;

	/* no snapshot yet, or only fast-forwarding: nothing to decode */
	if (SnapBuildCurrentState(ctx->snapshot_builder) < SNAPBUILD_FULL_SNAPSHOT ||
		ctx->fast_forward)
		return;

	if (XLogRecGetDataLen(r) < SizeOfPaxLogical)
		elog(ERROR, "pax WAL record too short");
	memcpy(&xlrec, data, SizeOfPaxLogical);
	data += SizeOfPaxLogical;
	/* kept rows placed in a later subtransaction: theirs (PAX_XL_XID) */
	if (xlrec.flags & PAX_XL_XID)
	{
		if (end - data < (ptrdiff_t) sizeof(TransactionId))
			elog(ERROR, "pax WAL record too short");
		memcpy(&xid, data, sizeof(TransactionId));
		data += sizeof(TransactionId);
	}
	if (!SnapBuildProcessChange(ctx->snapshot_builder, xid, buf->origptr))
		return;

	/* only our database, and only origins the output plugin wants */
	if (PaxLocatorDb(xlrec.locator) != ctx->slot->data.database)
		return;
	if (ctx->callbacks.filter_by_origin_cb != NULL &&
		filter_by_origin_cb_wrapper(ctx, XLogRecGetOrigin(r)))
		return;

	switch (info)
	{
		case XLOG_PAX_INSERT:
			for (int i = 0; i < xlrec.ntuples; i++)
			{
				change = PaxRbAllocChange(ctx->reorder);
				change->action = (xlrec.flags & PAX_XL_SPECULATIVE) ?
					REORDER_BUFFER_CHANGE_INTERNAL_SPEC_INSERT :
					REORDER_BUFFER_CHANGE_INSERT;
				change->data.tp.newtuple = PaxDecodeTuple(ctx, &data, end);
				/* reassembled TOAST values serve the statement's later rows */
				change->data.tp.clear_toast_afterwards =
					(xlrec.flags & PAX_XL_LAST_IN_MULTI) && i + 1 == xlrec.ntuples;
				PaxQueue(ctx, buf, &xlrec, xid, change);
			}
			break;
		case XLOG_PAX_UPDATE:
			change = PaxRbAllocChange(ctx->reorder);
			change->action = REORDER_BUFFER_CHANGE_UPDATE;
			if (xlrec.flags & PAX_XL_HAS_OLD)
				change->data.tp.oldtuple = PaxDecodeTuple(ctx, &data, end);
			change->data.tp.newtuple = PaxDecodeTuple(ctx, &data, end);
			change->data.tp.clear_toast_afterwards = true;
			PaxQueue(ctx, buf, &xlrec, xid, change);
			break;
		case XLOG_PAX_DELETE:
			change = PaxRbAllocChange(ctx->reorder);
			change->action = (xlrec.flags & PAX_XL_SUPER) ?
				REORDER_BUFFER_CHANGE_INTERNAL_SPEC_ABORT :
				REORDER_BUFFER_CHANGE_DELETE;
			if (xlrec.flags & PAX_XL_HAS_OLD)
				change->data.tp.oldtuple = PaxDecodeTuple(ctx, &data, end);
			change->data.tp.clear_toast_afterwards = true;
			PaxQueue(ctx, buf, &xlrec, xid, change);
			break;
		case XLOG_PAX_PAGE_ROWS:
			PaxDecodePageRows(ctx, buf, &xlrec, xid, data, end);
			break;
		case XLOG_PAX_CONFIRM:
			change = PaxRbAllocChange(ctx->reorder);
			change->action = REORDER_BUFFER_CHANGE_INTERNAL_SPEC_CONFIRM;
			change->data.tp.clear_toast_afterwards = true;
			PaxQueue(ctx, buf, &xlrec, xid, change);
			break;
		default:
			elog(ERROR, "unexpected pax WAL record type %u", info);
	}
}

/* ------------------------------------------------------------------------
 * Publications without the resource manager
 * ------------------------------------------------------------------------
 */

/*
 * PaxAmIsPax tells whether the access method amoid is pax (its handler
 * returns our routine), remembering the last answer.
 */
static bool
PaxAmIsPax(Oid amoid)
{
	static Oid	last_amoid = InvalidOid;
	static bool last_answer = false;
	HeapTuple	tp;

	if (!OidIsValid(amoid))
		return false;
	if (amoid == last_amoid)
		return last_answer;
	tp = SearchSysCache1(AMOID, ObjectIdGetDatum(amoid));
	if (!HeapTupleIsValid(tp))
		return false;
	last_answer = ((Form_pg_am) GETSTRUCT(tp))->amtype == AMTYPE_TABLE &&
		PaxIsPaxAm(GetTableAmRoutine(((Form_pg_am) GETSTRUCT(tp))->amhandler));
	last_amoid = amoid;
	ReleaseSysCache(tp);
	return last_answer;
}

/*
 * PaxWarnPublication warns when the publication named pubname includes pax
 * tables while pax_am is not preloaded: their writes fail under
 * wal_level = logical.  Called after the statement that created or
 * extended it.
 */
static void
PaxWarnPublication(const char *pubname)
{
	Oid			pubid = get_publication_oid(pubname, true);
	Publication *pub;
	List	   *relids;
	ListCell   *lc;
	StringInfoData names;
	int			npax = 0;

	if (!OidIsValid(pubid))
		return;
	/* see the statement's own catalog changes */
	CommandCounterIncrement();
	pub = GetPublication(pubid);
	if (pub->alltables)
		relids = GetAllTablesPublicationRelations(false);
	else
		relids = list_concat_unique_oid(GetPublicationRelations(pubid, PUBLICATION_PART_LEAF),
										GetAllSchemaPublicationRelations(pubid, PUBLICATION_PART_LEAF));

	initStringInfo(&names);
	foreach(lc, relids)
	{
		Oid			relid = lfirst_oid(lc);
		HeapTuple	tp = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
		Form_pg_class classform;

		if (!HeapTupleIsValid(tp))
			continue;
		classform = (Form_pg_class) GETSTRUCT(tp);
		if (PaxAmIsPax(classform->relam))
		{
			if (npax < PAX_LOGICAL_MAX_NAMES)
				appendStringInfo(&names, "%s%s", npax > 0 ? ", " : "",
								 quote_qualified_identifier(get_namespace_name(classform->relnamespace),
															NameStr(classform->relname)));
			else if (npax == PAX_LOGICAL_MAX_NAMES)
				appendStringInfoString(&names, ", ...");
			npax++;
		}
		ReleaseSysCache(tp);
	}

	if (npax > 0)
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg_plural("publication \"%s\" includes %d table using the pax access method, which cannot be replicated without pax_am in shared_preload_libraries",
							   "publication \"%s\" includes %d tables using the pax access method, which cannot be replicated without pax_am in shared_preload_libraries",
							   npax, pubname, npax),
				 errdetail("Writes to these tables fail while wal_level is \"logical\": %s.",
						   names.data),
				 errhint("Add pax_am to shared_preload_libraries and restart the server, on the primary and on every standby.")));
	pfree(names.data);
	list_free(relids);
}

/*
 * PaxProcessUtility runs the statement, then warns about the pax tables of
 * a publication it created or added tables to, when the resource manager
 * is missing.
 */
static void
PaxProcessUtility(PlannedStmt *pstmt, const char *queryString,
				  bool readOnlyTree, ProcessUtilityContext context,
				  ParamListInfo params, QueryEnvironment *queryEnv,
				  DestReceiver *dest, QueryCompletion *qc)
{
	Node	   *parsetree = pstmt->utilityStmt;
	char	   *pubname = NULL;

	if (pax_rmgr_registered)
		;
	else if (IsA(parsetree, CreatePublicationStmt))
		pubname = pstrdup(((CreatePublicationStmt *) parsetree)->pubname);
	else if (IsA(parsetree, AlterPublicationStmt))
	{
		AlterPublicationStmt *stmt = (AlterPublicationStmt *) parsetree;

		if (stmt->pubobjects != NIL &&
			(stmt->action == AP_AddObjects || stmt->action == AP_SetObjects))
			pubname = pstrdup(stmt->pubname);
	}

	if (prev_ProcessUtility)
		prev_ProcessUtility(pstmt, queryString, readOnlyTree, context, params,
							queryEnv, dest, qc);
	else
		standard_ProcessUtility(pstmt, queryString, readOnlyTree, context,
								params, queryEnv, dest, qc);

	if (pubname)
		PaxWarnPublication(pubname);
}

/*
 * PaxLogicalInit registers the resource manager when the library is
 * preloaded, and installs the ProcessUtility hook; called from _PG_init.
 */
void
PaxLogicalInit(void)
{
	if (process_shared_preload_libraries_in_progress)
	{
		PaxRmgrRegister(pax_rm_decode);
	}
	prev_ProcessUtility = ProcessUtility_hook;
	ProcessUtility_hook = PaxProcessUtility;
}
