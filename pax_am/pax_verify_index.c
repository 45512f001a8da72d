/*-------------------------------------------------------------------------
 *
 * pax_verify_index.c
 *	  pax_verify()'s checks of a pax relation's indexes against its rows.
 *
 * With check_indexes, every valid index whose AM can be scanned with no
 * keys through amgettuple (btree, GiST, SP-GiST) is scanned with
 * SnapshotAny, and every entry's TID must name a stored row slot (or an
 * item: a REDIRECT or DEAD item that stands for a pruned root).
 *
 * With heapallindexed, each valid btree index is also compared with the
 * rows both ways:
 *	 - entry -> row: the scan is index-only (xs_want_itup), and each
 *	   entry's key must equal, by datum image, the key FormIndexDatum
 *	   computes from a version of the HOT chain its TID names (from the
 *	   root, or the heap-only version a REDIRECT names; an entry naming a
 *	   DEAD item, or a heap-only version directly, is stale and has no row
 *	   to compare);
 *	 - row -> entry: every entry is fingerprinted (its TID and its key,
 *	   normalized) into a Bloom filter, then table_index_build_scan feeds
 *	   every row an MVCC snapshot registered before the index scan sees,
 *	   under its chain root's TID, and a row whose fingerprint the filter
 *	   lacks has no entry.  The filter has no false negatives: a row it
 *	   calls missing is missing; a missing entry may go unseen (a false
 *	   positive, a few percent at most), with another seed at each call.
 * Adapted from bt_check_every_level(), bt_tuple_present_callback() and
 * bt_normalize_tuple() in contrib/amcheck/verify_nbtree.c, PostgreSQL 15.
 *
 * Locking: the caller holds ShareUpdateExclusiveLock on the relation for
 * heapallindexed, so that no VACUUM frees a slot an entry names and lets
 * an insert give it to another row while the entries are read; on-access
 * pruning, which may free heap-only versions, needs a cleanup lock, which
 * the pin held while a row's values are read excludes.  Row values are
 * read with that pin only, as the index build reads them.  Values are
 * read only on blocks the page pass found sound (ctx->bad_blocks); the
 * row -> entry pass reads every page through the table AM, which raises
 * an error on a corrupt page, so it is skipped when the page pass found
 * any problem.
 *
 * pax_am/pax_verify_index.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/nbtree.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/xact.h"
#include "catalog/index.h"
#include "catalog/pg_am.h"
#include "common/pg_prng.h"
#include "executor/executor.h"
#include "fmgr.h"
#include "lib/bloomfilter.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/datum.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"

#include "pax_mvcc.h"
#include "pax_page.h"
#include "pax_slot.h"
#include "pax_stats.h"

/* State of the heapallindexed checks of one btree index. */
typedef struct PaxIndexCheck
{
	PaxVerifyContext *ctx;
	Relation	index;
	IndexInfo  *indexInfo;
	EState	   *estate;			/* for FormIndexDatum's expressions */
	TupleTableSlot *slot;		/* a row whose key is computed */
	bloom_filter *filter;		/* fingerprints of the index's entries */
	MemoryContext cxt;			/* reset after each entry and each row */
	StringInfoData print;		/* the fingerprint being built */
	bool		render;			/* keys may be rendered in messages */
	Datum		values[INDEX_MAX_KEYS]; /* the current entry's key */
	bool		isnull[INDEX_MAX_KEYS];
} PaxIndexCheck;

/* ----------------------------------------------------------------
 * Keys
 * ----------------------------------------------------------------
 */

/*
 * PaxIndexFingerprint sets check->print to the fingerprint of a key under
 * a TID: the TID, then per column a null flag and the value's image, a
 * varlena's detoasted and decompressed, so that an entry (which
 * index_form_tuple may have compressed) and its row's key (which may be
 * TOASTed or short-headered) give the same bytes.  Allocates in the
 * current memory context.  Adapted from bt_normalize_tuple() in
 * contrib/amcheck/verify_nbtree.c, PostgreSQL 15.
 */
static void
PaxIndexFingerprint(PaxIndexCheck *check, ItemPointer tid,
					const Datum *values, const bool *isnull)
{
	TupleDesc	desc = RelationGetDescr(check->index);
	StringInfo	buf = &check->print;

	resetStringInfo(buf);
	appendBinaryStringInfo(buf, (char *) tid, sizeof(ItemPointerData));
	for (int i = 0; i < desc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		appendStringInfoChar(buf, isnull[i] ? 'n' : 'v');
		if (isnull[i])
			continue;
		if (att->attbyval)
		{
			char		bytes[sizeof(Datum)];

			store_att_byval(bytes, values[i], att->attlen);
			appendBinaryStringInfo(buf, bytes, att->attlen);
		}
		else if (att->attlen > 0)
			appendBinaryStringInfo(buf, DatumGetPointer(values[i]),
								   att->attlen);
		else if (att->attlen == -1)
		{
			struct varlena *v = PG_DETOAST_DATUM_PACKED(values[i]);
			uint32		len = VARSIZE_ANY_EXHDR(v);

			appendBinaryStringInfo(buf, (char *) &len, sizeof(len));
			appendBinaryStringInfo(buf, VARDATA_ANY(v), len);
		}
		else
			appendBinaryStringInfo(buf, DatumGetCString(values[i]),
								   strlen(DatumGetCString(values[i])) + 1);
	}
}

/*
 * PaxIndexKeyText renders a key for a message, " (v1, v2)", when every
 * column's type has an output function that cannot fail on any bits
 * (check->render); otherwise "".
 */
static char *
PaxIndexKeyText(PaxIndexCheck *check, const Datum *values,
				const bool *isnull)
{
	TupleDesc	desc = RelationGetDescr(check->index);
	StringInfoData buf;

	if (!check->render)
		return "";
	initStringInfo(&buf);
	appendStringInfoString(&buf, " (");
	for (int i = 0; i < desc->natts; i++)
	{
		if (i > 0)
			appendStringInfoString(&buf, ", ");
		if (isnull[i])
			appendStringInfoString(&buf, "null");
		else
			appendStringInfoString(&buf,
								   PaxVerifyValueText(TupleDescAttr(desc, i),
													  values[i]));
	}
	appendStringInfoChar(&buf, ')');
	return buf.data;
}

/*
 * PaxRowKeyEquals computes the key of row `row` of block blkno, whose
 * buffer the caller has pinned (not locked), into values and isnull, and
 * tells whether it equals the current entry's key (check->values) by
 * datum image.
 */
static bool
PaxRowKeyEquals(PaxIndexCheck *check, Buffer buffer, BlockNumber blkno,
				int row, Datum *values, bool *isnull)
{
	TupleDesc	desc = RelationGetDescr(check->index);
	bool		equal = true;

	ResetPerTupleExprContext(check->estate);
	PaxSlotStoreRow(check->slot, check->ctx->rel, buffer, blkno, row);
	FormIndexDatum(check->indexInfo, check->slot, check->estate,
				   values, isnull);
	for (int i = 0; i < desc->natts && equal; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (isnull[i] != check->isnull[i])
			equal = false;
		else if (!isnull[i])
			equal = datum_image_eq(values[i], check->values[i],
								   att->attbyval, att->attlen);
	}
	return equal;
}

/*
 * PaxVerifyEntryKey compares the current entry's key (check->values) with
 * the keys of the versions member[] marks, the HOT chain its TID (block
 * blkno, row `row`) stands for, whose buffer the caller has pinned (not
 * locked).  One version with the entry's key suffices: an index built
 * over a chain whose versions' keys differ (a broken HOT chain) holds the
 * key of its live end under the root's TID.  A difference is reported at
 * the entry's TID, with the key of the chain's first version.
 */
static void
PaxVerifyEntryKey(PaxIndexCheck *check, Buffer buffer, BlockNumber blkno,
				  int row, const bool *member, int nmember)
{
	PaxVerifyContext *ctx = check->ctx;
	Datum		values[INDEX_MAX_KEYS];
	bool		isnull[INDEX_MAX_KEYS];
	int			first = -1;

	for (int k = 0; k < nmember; k++)
	{
		if (!member[k])
			continue;
		if (PaxRowKeyEquals(check, buffer, blkno, k, values, isnull))
		{
			ExecClearTuple(check->slot);
			return;
		}
		if (first < 0)
			first = k;
	}
	if (first < 0)
		return;					/* no version: a stale entry */
	(void) PaxRowKeyEquals(check, buffer, blkno, first, values, isnull);
	ctx->blkno = blkno;
	ctx->row = row;
	ctx->attnum = -1;
	PaxVerifyReport(ctx, "index \"%s\" entry key%s does not equal the row's key%s",
					RelationGetRelationName(check->index),
					PaxIndexKeyText(check, check->values, check->isnull),
					PaxIndexKeyText(check, values, isnull));
	ExecClearTuple(check->slot);
}

/* ----------------------------------------------------------------
 * Entries
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyBlockSound tells whether the page pass read block blkno and
 * found nothing wrong on it, so that its rows' values may be read.
 */
static bool
PaxVerifyBlockSound(PaxVerifyContext *ctx, BlockNumber blkno)
{
	int			lo = 0,
				hi = ctx->nbad_blocks;

	if (blkno >= ctx->checked_nblocks)
		return false;
	while (lo < hi)
	{
		int			mid = lo + (hi - lo) / 2;

		if (ctx->bad_blocks[mid] == blkno)
			return false;
		if (ctx->bad_blocks[mid] < blkno)
			lo = mid + 1;
		else
			hi = mid;
	}
	return true;
}

static Buffer PaxVerifyEntryBuffer(PaxVerifyContext *ctx, BlockNumber blkno);
static void PaxVerifyEntryBufferRelease(PaxVerifyContext *ctx);

/*
 * PaxVerifyIndexEntry checks that an index entry's TID names a stored,
 * used row slot and, with check (heapallindexed), that the entry's key
 * (check->values) is the row's.  The page is read now, not taken from the
 * page pass: the row an entry points at was stored before the entry was
 * inserted.
 */
static void
PaxVerifyIndexEntry(PaxVerifyContext *ctx, Relation index, ItemPointer tid,
					PaxIndexCheck *check)
{
	BlockNumber blkno = ItemPointerGetBlockNumberNoCheck(tid);
	OffsetNumber offnum = ItemPointerGetOffsetNumberNoCheck(tid);
	Buffer		buffer;
	Page		page;
	bool		member[PAX_MAX_CAPACITY];	/* the entry's HOT chain */
	int			nmember = 0;

	ctx->blkno = blkno;
	ctx->row = offnum - 1;
	ctx->attnum = -1;
	if (blkno >= ctx->nblocks)
		ctx->nblocks = RelationGetNumberOfBlocks(ctx->rel);
	if (blkno >= ctx->nblocks)
	{
		PaxVerifyReport(ctx, "index \"%s\" has an entry pointing past the end of the relation (%u blocks)",
						RelationGetRelationName(index), ctx->nblocks);
		return;
	}
	buffer = PaxVerifyEntryBuffer(ctx, blkno);
	if (!BufferIsValid(buffer))
		return;					/* reported by the page pass */
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	if (PageIsNew(page))
		PaxVerifyReport(ctx, "index \"%s\" has an entry pointing at row %u of an empty page",
						RelationGetRelationName(index), offnum);
	else if (PaxVerifyPageHeader(ctx, page, false) &&
			 (!PaxPageHasTidMap(page) ||
			  PaxTidMapProblem(page, ctx->layout->rowhdrs) == NULL))
	{
		PaxPageHeader hdr = PaxPageGetHeader(page);
		int			maxtid = PaxPageMaxTid(page);
		int			slot;
		int			target;
		PaxTidKind	kind = PaxTidWhat(page, ctx->layout->rowhdrs, offnum,
									  &slot, &target);

		if (offnum < FirstOffsetNumber || offnum > maxtid)
			PaxVerifyReport(ctx, "index \"%s\" has an entry pointing at row %u, but the page has %u rows",
							RelationGetRelationName(index), offnum, maxtid);
		else if (kind == PAX_TIDK_NONE)
		{
			/* an item stands for a pruned root: its entries stay a while */
			PaxVerifyReport(ctx, "index \"%s\" has an entry pointing at unused row slot %u",
							RelationGetRelationName(index), offnum);
		}
		else if (kind == PAX_TIDK_ROW && !PaxPageIsCompact(page))
		{
			/* a compact page's rows are never heap-only versions */
			HeapTupleHeader rh = PaxRowHeader(page, ctx->layout->rowhdrs, slot);

			if (HeapTupleHeaderIsHeapOnly(rh) && !PaxRowHasStaleEntries(rh))
				PaxVerifyReport(ctx, "index \"%s\" has an entry pointing at heap-only version %u",
								RelationGetRelationName(index), offnum);
		}

		/*
		 * The versions whose keys the entry's may be: none for a DEAD item
		 * or a stale entry (PaxHotChainMembers follows heap's rules), nor
		 * on an orphan page, whose dead rows' columns are unknown.
		 */
		if (check != NULL && offnum >= FirstOffsetNumber &&
			offnum <= maxtid && PaxVerifyBlockSound(ctx, blkno) &&
			!PaxPageIsOrphan(page))
		{
			nmember = hdr->pp_nrows;
			memset(member, 0, nmember * sizeof(bool));
			PaxHotChainMembers(ctx->rel, page, ctx->layout->rowhdrs, blkno,
							   offnum, member);
		}
	}
	/* a page with a broken header was reported by the page pass */
	LockBuffer(buffer, BUFFER_LOCK_UNLOCK);

	/* the pin keeps pruning from freeing the versions while keys are read */
	if (nmember > 0)
		PaxVerifyEntryKey(check, buffer, blkno, offnum - 1, member, nmember);
	/* (the pin stays for the next entry, often of the same block) */
}

/*
 * PaxVerifyEntryBuffer pins block blkno for an index entry's check,
 * keeping the pin of the last entry's block (ctx->entry_buffer) when it is
 * the same.  A block the page pass read and found sound is read through
 * the buffer manager at once: its checks passed there already, so the
 * private copy PaxVerifyReadBuffer reads first is spared.
 */
static Buffer
PaxVerifyEntryBuffer(PaxVerifyContext *ctx, BlockNumber blkno)
{
	if (BufferIsValid(ctx->entry_buffer) &&
		BufferGetBlockNumber(ctx->entry_buffer) == blkno)
		return ctx->entry_buffer;
	PaxVerifyEntryBufferRelease(ctx);
	if (PaxVerifyBlockSound(ctx, blkno))
		ctx->entry_buffer = ReadBufferExtended(ctx->rel, MAIN_FORKNUM, blkno,
											   RBM_NORMAL, ctx->bstrategy);
	else
		ctx->entry_buffer = PaxVerifyReadBuffer(ctx, blkno, &ctx->copy);
	return ctx->entry_buffer;
}

/* PaxVerifyEntryBufferRelease drops the pin PaxVerifyEntryBuffer kept. */
static void
PaxVerifyEntryBufferRelease(PaxVerifyContext *ctx)
{
	if (BufferIsValid(ctx->entry_buffer))
		ReleaseBuffer(ctx->entry_buffer);
	ctx->entry_buffer = InvalidBuffer;
}

/*
 * PaxVerifyIndexEntries scans an index with no keys and checks every
 * entry; with check, it reads each entry's key (an index-only scan) and
 * adds its fingerprint to check->filter.
 */
static void
PaxVerifyIndexEntries(PaxVerifyContext *ctx, Relation index,
					  PaxIndexCheck *check)
{
	IndexScanDesc scan = PaxIndexBeginScan(ctx->rel, index, SnapshotAny, 0, 0);
	ItemPointer tid;

	scan->xs_want_itup = check != NULL;
	index_rescan(scan, NULL, 0, NULL, 0);
	while ((tid = index_getnext_tid(scan, ForwardScanDirection)) != NULL)
	{
		MemoryContext old;

		CHECK_FOR_INTERRUPTS();
		if (check == NULL)
		{
			PaxVerifyIndexEntry(ctx, index, tid, NULL);
			continue;
		}
		if (scan->xs_itup == NULL)
			elog(ERROR, "index \"%s\" returned no entry in an index-only scan",
				 RelationGetRelationName(index));
		old = MemoryContextSwitchTo(check->cxt);
		index_deform_tuple(scan->xs_itup, scan->xs_itupdesc,
						   check->values, check->isnull);
		PaxIndexFingerprint(check, tid, check->values, check->isnull);
		bloom_add_element(check->filter, (unsigned char *) check->print.data,
						  check->print.len);
		PaxVerifyIndexEntry(ctx, index, tid, check);
		MemoryContextSwitchTo(old);
		MemoryContextReset(check->cxt);
	}
	PaxVerifyEntryBufferRelease(ctx);
	index_endscan(scan);
}

/* ----------------------------------------------------------------
 * Rows
 * ----------------------------------------------------------------
 */

/*
 * PaxIndexRowPresent is the table_index_build_scan callback of the
 * row -> entry pass: it reports a row (under its chain root's TID) whose
 * key's fingerprint the filter of the index's entries lacks.  Adapted from
 * bt_tuple_present_callback() in contrib/amcheck/verify_nbtree.c,
 * PostgreSQL 15.
 */
static void
PaxIndexRowPresent(Relation index, ItemPointer tid, Datum *values,
				   bool *isnull, bool tupleIsAlive, void *state)
{
	PaxIndexCheck *check = (PaxIndexCheck *) state;
	PaxVerifyContext *ctx = check->ctx;
	MemoryContext old = MemoryContextSwitchTo(check->cxt);

	CHECK_FOR_INTERRUPTS();
	PaxIndexFingerprint(check, tid, values, isnull);
	if (bloom_lacks_element(check->filter, (unsigned char *) check->print.data,
							check->print.len))
	{
		ctx->blkno = ItemPointerGetBlockNumber(tid);
		ctx->row = ItemPointerGetOffsetNumber(tid) - 1;
		ctx->attnum = -1;
		PaxVerifyReport(ctx, "row has no entry in index \"%s\"%s%s",
						RelationGetRelationName(index),
						check->render ? " for its key" : "",
						PaxIndexKeyText(check, values, isnull));
	}
	MemoryContextSwitchTo(old);
	MemoryContextReset(check->cxt);
}

/*
 * PaxVerifyIndexRows checks that every row the snapshot sees has its entry
 * in the index, whose entries' fingerprints are in check->filter.
 * Adapted from bt_check_every_level() in contrib/amcheck/verify_nbtree.c,
 * PostgreSQL 15.
 */
static void
PaxVerifyIndexRows(PaxIndexCheck *check, Snapshot snapshot)
{
	Relation	rel = check->ctx->rel;
	IndexInfo  *indexInfo = BuildIndexInfo(check->index);
	TableScanDesc scan;

	/*
	 * The scan sees what the snapshot sees, as CREATE INDEX CONCURRENTLY's
	 * first pass does; nothing is waited for.
	 */
	indexInfo->ii_Concurrent = true;
	indexInfo->ii_Unique = false;
	indexInfo->ii_ExclusionOps = NULL;
	indexInfo->ii_ExclusionProcs = NULL;
	indexInfo->ii_ExclusionStrats = NULL;
	scan = table_beginscan_strat(rel, snapshot, 0, NULL, true, true);
	/* table_index_build_scan ends the scan */
	(void) table_index_build_scan(rel, check->index, indexInfo, true, false,
								  PaxIndexRowPresent, check, scan);
}

/* ----------------------------------------------------------------
 * All indexes
 * ----------------------------------------------------------------
 */

/*
 * PaxIndexCheckBegin prepares the heapallindexed checks of a btree index,
 * with a Bloom filter sized as amcheck sizes it (at least a third of the
 * most TIDs a leaf page holds per page, or reltuples) in at most
 * maintenance_work_mem, and registers the snapshot of the row -> entry
 * pass: taken before the index is read, it sees no row whose entry the
 * scan could miss.
 */
static PaxIndexCheck *
PaxIndexCheckBegin(PaxVerifyContext *ctx, Relation index, Snapshot *snapshot)
{
	PaxIndexCheck *check = palloc0(sizeof(PaxIndexCheck));
	int64		total_elems;
	TupleDesc	desc = RelationGetDescr(index);

	check->ctx = ctx;
	check->index = index;
	check->indexInfo = BuildIndexInfo(index);
	check->estate = CreateExecutorState();
	check->slot = table_slot_create(ctx->rel, NULL);
	GetPerTupleExprContext(check->estate)->ecxt_scantuple = check->slot;
	check->cxt = AllocSetContextCreate(CurrentMemoryContext,
									   "pax_verify index entry",
									   ALLOCSET_DEFAULT_SIZES);
	initStringInfo(&check->print);
	check->render = true;
	for (int i = 0; i < desc->natts; i++)
		check->render &= PaxZoneEligible(TupleDescAttr(desc, i));

	total_elems = Max((int64) RelationGetNumberOfBlocks(index) *
					  (MaxTIDsPerBTreePage / 3),
					  (int64) index->rd_rel->reltuples);
	check->filter = bloom_create(total_elems, maintenance_work_mem,
								 pg_prng_uint64(&pg_global_prng_state));

	*snapshot = RegisterSnapshot(GetTransactionSnapshot());

	/*
	 * A transaction snapshot may be older than the index's indcheckxmin
	 * horizon (broken HOT chains): it may see rows the index lacks.
	 */
	if (IsolationUsesXactSnapshot() && index->rd_index->indcheckxmin &&
		!TransactionIdPrecedes(HeapTupleHeaderGetXmin(index->rd_indextuple->t_data),
							   (*snapshot)->xmin))
		ereport(ERROR,
				(errcode(ERRCODE_T_R_SERIALIZATION_FAILURE),
				 errmsg("index \"%s\" cannot be verified using transaction snapshot",
						RelationGetRelationName(index)),
				 errhint("Run pax_verify in a READ COMMITTED transaction.")));
	return check;
}

/*
 * PaxIndexCheckEnd frees what PaxIndexCheckBegin made.
 */
static void
PaxIndexCheckEnd(PaxIndexCheck *check)
{
	ExecDropSingleTupleTableSlot(check->slot);
	FreeExecutorState(check->estate);
	bloom_free(check->filter);
	MemoryContextDelete(check->cxt);
	pfree(check->print.data);
	pfree(check);
}

/*
 * PaxVerifyIndexes checks every valid index of the relation that can be
 * scanned without keys through amgettuple (btree, GiST, SP-GiST): every
 * entry's TID and, with heapallindexed, a btree index's entries against
 * the rows both ways.  The caller holds ShareUpdateExclusiveLock on the
 * relation for heapallindexed, AccessShareLock otherwise.
 */
void
PaxVerifyIndexes(PaxVerifyContext *ctx, bool heapallindexed)
{
	List	   *indexes = RelationGetIndexList(ctx->rel);
	ListCell   *lc;
	bool		rows_skipped = false;

	foreach(lc, indexes)
	{
		Relation	index = index_open(lfirst_oid(lc), AccessShareLock);
		PaxIndexCheck *check = NULL;
		Snapshot	snapshot = InvalidSnapshot;

		if (!index->rd_index->indisvalid ||
			index->rd_indam->amgettuple == NULL ||
			!index->rd_indam->amoptionalkey)
		{
			index_close(index, AccessShareLock);
			continue;
		}

		if (heapallindexed && index->rd_rel->relam == BTREE_AM_OID)
			check = PaxIndexCheckBegin(ctx, index, &snapshot);
		PaxVerifyIndexEntries(ctx, index, check);
		if (check != NULL)
		{
			/* the table AM's scan raises an error on a corrupt page */
			if (ctx->nbad_blocks == 0)
				PaxVerifyIndexRows(check, snapshot);
			else
				rows_skipped = true;
			UnregisterSnapshot(snapshot);
			PaxIndexCheckEnd(check);
		}
		index_close(index, AccessShareLock);
	}
	list_free(indexes);

	if (rows_skipped)
		ereport(NOTICE,
				(errmsg("rows of \"%s\" were not checked for missing index entries",
						RelationGetRelationName(ctx->rel)),
				 errdetail("The table has pages with problems, which a table scan cannot read.")));
}
