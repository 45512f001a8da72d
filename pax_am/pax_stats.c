/*-------------------------------------------------------------------------
 *
 * pax_stats.c
 *	  SQL functions that show the layout of pax pages.
 *
 * pax_page_stats(regclass) returns one row per page (rows, capacity, free
 * bytes, metadata bytes); pax_page_columns(regclass, bigint) one row per
 * column of a page (minipage bytes, value bytes, null bitmap, zone map).
 * Both read each page under a share lock, verify it, and need SELECT
 * privilege on the relation; the extension script revokes EXECUTE from
 * PUBLIC.
 *
 * pax_am/pax_stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/relation.h"
#include "access/table.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "storage/bufmgr.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_slot.h"
#include "pax_stats.h"

/* Columns of the result rows of pax_page_stats and pax_page_columns. */
#define PAX_PAGE_STATS_COLS		13
#define PAX_PAGE_COLUMNS_COLS	10
/* the functions as version 1.0 of the extension declares them */
#define PAX_PAGE_STATS_COLS_1_0		11
#define PAX_PAGE_COLUMNS_COLS_1_0	8

PG_FUNCTION_INFO_V1(pax_page_stats);
PG_FUNCTION_INFO_V1(pax_page_columns);
PG_FUNCTION_INFO_V1(pax_page_regions);

/* Columns of the result rows of pax_page_regions. */
#define PAX_PAGE_REGIONS_COLS	4

/*
 * PaxOpenForStats opens a relation for the layout and verification
 * functions with lockmode (AccessShareLock, or ShareUpdateExclusiveLock for
 * pax_verify's heapallindexed), checking that it is a pax table the user
 * may read.  The caller closes it with the same lockmode.
 */
Relation
PaxOpenForStats(Oid relid, LOCKMODE lockmode)
{
	Relation	rel = relation_open(relid, lockmode);
	AclResult	aclresult;

	if (rel->rd_rel->relkind != RELKIND_RELATION &&
		rel->rd_rel->relkind != RELKIND_MATVIEW)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a table or materialized view",
						RelationGetRelationName(rel))));
	if (!PaxIsPaxAm(rel->rd_tableam))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a pax table",
						RelationGetRelationName(rel))));
	aclresult = pg_class_aclcheck(relid, GetUserId(), ACL_SELECT);
	if (aclresult != ACLCHECK_OK)
		aclcheck_error(aclresult, get_relkind_objtype(rel->rd_rel->relkind),
					   RelationGetRelationName(rel));
	return rel;
}

/*
 * PaxCheckResultColumns checks that a layout function is declared with the
 * result columns of this version, or of an earlier version of the extension
 * (not updated yet: 1.0 declares the fewest), whose columns are the first
 * ones: the extra values are then not returned.
 */
static void
PaxCheckResultColumns(ReturnSetInfo *rsinfo, int ncols, int ncols_1_0)
{
	int			natts = rsinfo->setDesc->natts;

	if (natts > ncols || natts < ncols_1_0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("function returns %d columns, expected %d", natts, ncols),
				 errhint("Update the extension: ALTER EXTENSION pax_am UPDATE.")));
}

/*
 * PaxStatsReadPage opens relation relid (PaxOpenForStats) into *rel and
 * returns block blkno of it share-locked, or InvalidBuffer, the relation
 * closed again, for a page with no layout to show (never initialised, or
 * an orphan).  A block past the relation's end is an error.
 */
static Buffer
PaxStatsReadPage(Oid relid, int64 blkno, Relation *rel)
{
	Buffer		buffer;
	Page		page;

	*rel = PaxOpenForStats(relid, AccessShareLock);
	if (blkno < 0 || blkno >= RelationGetNumberOfBlocks(*rel))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("block number " INT64_FORMAT " is out of range for relation \"%s\"",
						blkno, RelationGetRelationName(*rel))));
	buffer = ReadBuffer(*rel, (BlockNumber) blkno);
	LockBuffer(buffer, BUFFER_LOCK_SHARE);
	page = BufferGetPage(buffer);
	if (PageIsNew(page) || PaxPageIsOrphan(page))
	{
		UnlockReleaseBuffer(buffer);
		relation_close(*rel, AccessShareLock);
		return InvalidBuffer;
	}
	return buffer;
}

/*
 * pax_page_stats(rel regclass,
 *				  OUT blkno bigint, OUT nrows int, OUT capacity int,
 *				  OUT natts int, OUT lower int, OUT upper int,
 *				  OUT free_bytes int, OUT meta_bytes int, OUT value_bytes int,
 *				  OUT nullmaps int, OUT zonemaps int, OUT encoded int,
 *				  OUT form text)
 * RETURNS SETOF record
 *
 * One row per page.  meta_bytes: page header, pax header, column directory
 * and zone maps; free_bytes: pd_upper - pd_lower (value area room) plus
 * the minipage room of rows not stored yet and of UNUSED slots (reclaimed
 * by VACUUM; nrows counts them); encoded: columns stored encoded (frame
 * of reference, dictionary or prefix, pax_encoding.h); form: 'row' (a header a row),
 * 'compact' (rows sharing a header, PAX_PAGE_COMPACT) or 'headers' (a
 * compact page's header page, PAX_PAGE_HEADERS).
 */
Datum
pax_page_stats(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel;
	BlockNumber nblocks;
	PaxLayoutCache cache;

	InitMaterializedSRF(fcinfo, 0);
	PaxCheckResultColumns(rsinfo, PAX_PAGE_STATS_COLS, PAX_PAGE_STATS_COLS_1_0);
	rel = PaxOpenForStats(relid, AccessShareLock);
	nblocks = RelationGetNumberOfBlocks(rel);
	PaxLayoutCacheInit(&cache, RelationGetNumberOfAttributes(rel),
					   CurrentMemoryContext);

	for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buffer;
		Page		page;
		PaxPageLayout *layout;
		PaxPageHeader hdr;
		PageHeader	phdr;
		Datum		values[PAX_PAGE_STATS_COLS];
		bool		nulls[PAX_PAGE_STATS_COLS] = {0};
		int			nnullmaps = 0;
		int			nencoded = 0;
		int			nunused = 0;
		int			fixed_bits_per_row = PAX_ROWHDR_SIZE * 8;

		CHECK_FOR_INTERRUPTS();
		buffer = ReadBuffer(rel, blkno);
		LockBuffer(buffer, BUFFER_LOCK_SHARE);
		page = BufferGetPage(buffer);
		if (PageIsNew(page) ||
			PaxPageIsOrphan(page))
		{
			UnlockReleaseBuffer(buffer);
			continue;
		}
		layout = PaxPageGetLayout(rel, RelationGetDescr(rel), page, blkno,
								  &cache);
		hdr = PaxPageGetHeader(page);
		phdr = (PageHeader) page;
		for (int i = 0; i < layout->natts; i++)
		{
			if (layout->cols[i].nullmap)
				nnullmaps++;
			if (layout->cols[i].base || layout->cols[i].dict ||
				layout->cols[i].prefix)
				nencoded++;
			if (layout->cols[i].data)
				fixed_bits_per_row += PaxRowBits(&layout->cols[i]) != 0 ?
					PaxRowBits(&layout->cols[i]) : 8 * layout->cols[i].width;
		}

		for (int r = 0; r < hdr->pp_nrows; r++)
			nunused += PaxRowUnused(page, layout->rowhdrs, r);

		values[0] = Int64GetDatum(blkno);
		values[1] = Int32GetDatum(hdr->pp_nrows);
		values[2] = Int32GetDatum(hdr->pp_capacity);
		values[3] = Int32GetDatum(hdr->pp_natts);
		values[4] = Int32GetDatum(phdr->pd_lower);
		values[5] = Int32GetDatum(phdr->pd_upper);
		values[6] = Int32GetDatum(phdr->pd_upper - phdr->pd_lower +
								  (hdr->pp_capacity - hdr->pp_nrows + nunused) *
								  fixed_bits_per_row / 8);
		values[7] = Int32GetDatum(layout->rowhdrs);
		values[8] = Int32GetDatum(phdr->pd_special - phdr->pd_upper);
		values[9] = Int32GetDatum(nnullmaps);
		values[10] = Int32GetDatum(layout->nzones);
		values[11] = Int32GetDatum(nencoded);
		values[12] = CStringGetTextDatum((hdr->pp_flags & PAX_PAGE_HEADERS) ? "headers" :
										 layout->compact ? "compact" : "row");
		UnlockReleaseBuffer(buffer);

		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}

	PaxLayoutCacheFree(&cache);
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}

/*
 * PaxZoneText renders a zone map bound with the column type's output
 * function.
 */
static Datum
PaxZoneText(Form_pg_attribute att, Datum value)
{
	Oid			outfunc;
	bool		isvarlena;

	getTypeOutputInfo(att->atttypid, &outfunc, &isvarlena);
	return CStringGetTextDatum(OidOutputFunctionCall(outfunc, value));
}

/*
 * PaxColumnEncoding fills in the encoding and value_width columns of
 * pax_page_columns' row for a column of the page (both NULL for a column
 * without minipage).
 */
static void
PaxColumnEncoding(Page page, const PaxColumnLayout *col, Datum *values,
				  bool *nulls)
{
	int			valuewidth;

	if (col->data == 0)
	{
		nulls[8] = nulls[9] = true;
		return;
	}
	values[8] = CStringGetTextDatum(PaxEncodingOpsOf((PaxEncoding) col->enc)->describe(page, col, &valuewidth));
	if (valuewidth < 0)
		nulls[9] = true;
	else
		values[9] = Int32GetDatum(valuewidth);
}

/*
 * pax_page_columns(rel regclass, blkno bigint,
 *					OUT attnum int, OUT attname name, OUT minipage_bytes int,
 *					OUT value_bytes int, OUT has_nullmap bool,
 *					OUT has_nulls bool, OUT zone_min text, OUT zone_max text,
 *					OUT encoding text, OUT value_width int)
 * RETURNS SETOF record
 *
 * One row per column laid out on the page: minipage_bytes counts the null
 * bitmap and the value (or offset) array for the page's capacity;
 * value_bytes the column's bytes in the value area (a dictionary's
 * entries once each); encoding is "plain", "frame of reference" or
 * "dictionary" and value_width the bytes each row takes in the minipage
 * (NULL for a column without minipage).
 */
Datum
pax_page_columns(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int64		blkno = PG_GETARG_INT64(1);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel;
	TupleDesc	tupdesc;
	PaxLayoutCache cache;
	Buffer		buffer;
	Page		page;
	PaxPageLayout *layout;
	PaxPageHeader hdr;
	bits8	   *hasnull;
	bits8	   *zoneset;

	InitMaterializedSRF(fcinfo, 0);
	PaxCheckResultColumns(rsinfo, PAX_PAGE_COLUMNS_COLS,
						  PAX_PAGE_COLUMNS_COLS_1_0);
	buffer = PaxStatsReadPage(relid, blkno, &rel);
	if (!BufferIsValid(buffer))
		return (Datum) 0;
	tupdesc = RelationGetDescr(rel);
	PaxLayoutCacheInit(&cache, tupdesc->natts, CurrentMemoryContext);
	page = BufferGetPage(buffer);
	layout = PaxPageGetLayout(rel, tupdesc, page, (BlockNumber) blkno, &cache);
	hdr = PaxPageGetHeader(page);
	hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	zoneset = PaxPageGetDirMap(page, PAX_DIR_ZONESET);

	for (int i = 0; i < layout->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const PaxColumnLayout *col = &layout->cols[i];
		Datum		values[PAX_PAGE_COLUMNS_COLS];
		bool		nulls[PAX_PAGE_COLUMNS_COLS] = {0};
		int			minipage = 0;
		int			varbytes = 0;

		if (att->attisdropped)
			continue;
		if (col->nullmap)
			minipage += BITMAPLEN(hdr->pp_capacity);
		if (col->data)
			minipage += PaxMinipageBytes(col, hdr->pp_capacity);
		if (col->dict)
		{
			PageHeader	phdr = (PageHeader) page;

			minipage += col->dictcap * sizeof(uint16);
			/* each entry in use once */
			for (int e = 0; e < Min(PaxDictUsed(page, col), col->dictcap); e++)
			{
				uint16		off = ((uint16 *) (page + col->dict))[e];
				int			align;
				int			size;

				if (off < phdr->pd_upper || off >= phdr->pd_special)
					continue;	/* pax_verify reports it */
				size = PaxStoredSize(att, page + off, phdr->pd_special - off,
									 &align);
				varbytes += Max(size, 0);
			}
		}
		else if (col->data && col->attlen < 0 && !PaxInMinipage(col))
		{
			for (int r = 0; r < hdr->pp_nrows; r++)
			{
				bool		isnull;
				Datum		value;

				if (PaxRowUnused(page, layout->rowhdrs, r))
					continue;	/* a slot VACUUM reclaimed */
				value = PaxPageGetValue(page, layout, r, i, &isnull);

				/* (a prefix-encoded value's rest: without the prefix) */
				if (!isnull)
					varbytes += col->attlen == -1 ?
						VARSIZE_ANY(DatumGetPointer(value)) -
						(col->prefix ? (uint8) page[col->prefix] : 0) :
						strlen(DatumGetCString(value)) + 1;
			}
		}

		values[0] = Int32GetDatum(i + 1);
		values[1] = NameGetDatum(&att->attname);
		values[2] = Int32GetDatum(minipage);
		values[3] = Int32GetDatum(varbytes);
		values[4] = BoolGetDatum(col->nullmap != 0);
		values[5] = BoolGetDatum(PaxBitIsSet(hasnull, i));
		if (col->zone >= 0 && PaxBitIsSet(zoneset, i))
		{
			PaxZone    *zone = (PaxZone *) (page + layout->zones) + col->zone;

			values[6] = PaxZoneText(att, PaxZoneDatum(zone->min));
			values[7] = PaxZoneText(att, PaxZoneDatum(zone->max));
		}
		else
			nulls[6] = nulls[7] = true;
		PaxColumnEncoding(page, col, values, nulls);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	UnlockReleaseBuffer(buffer);
	PaxLayoutCacheFree(&cache);
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}

/*
 * PaxRegion adds one region of a page to pax_page_regions' result.
 */
static void
PaxRegion(ReturnSetInfo *rsinfo, int off, int len, int attnum,
		  const char *region)
{
	Datum		values[PAX_PAGE_REGIONS_COLS];
	bool		nulls[PAX_PAGE_REGIONS_COLS] = {0};

	if (len <= 0)
		return;
	values[0] = Int32GetDatum(off);
	values[1] = Int32GetDatum(len);
	values[2] = Int32GetDatum(attnum + 1);
	nulls[2] = attnum < 0;
	values[3] = CStringGetTextDatum(region);
	tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
}

/*
 * PaxColumnRegions adds the minipage regions of column i of a page: its
 * null bitmap, dictionary and row slots ("values", or "value offsets" into
 * the value area).
 */
static void
PaxColumnRegions(ReturnSetInfo *rsinfo, const PaxPageLayout *layout, int i)
{
	const PaxColumnLayout *col = &layout->cols[i];

	if (col->nullmap != 0)
		PaxRegion(rsinfo, col->nullmap, BITMAPLEN(layout->capacity), i,
				  "null bitmap");
	if (col->dict != 0)
		PaxRegion(rsinfo, col->dict, col->dictcap * sizeof(uint16), i,
				  "dictionary");
	if (col->data != 0)
		PaxRegion(rsinfo, col->data, PaxMinipageBytes(col, layout->capacity),
				  i, PaxInValueArea(col) ?
				  "value offsets" : "values");
}

/*
 * pax_page_regions(rel regclass, blkno bigint,
 *					OUT off int, OUT len int, OUT attnum int,
 *					OUT region text)
 * RETURNS SETOF record
 *
 * The byte ranges of a page and what each holds: 'page header', 'pax header', 'column directory', 'zone map',
 * 'encoding slot' (an encoded column's base, factor, prefix or dictionary
 * count), the row area ('row headers' of a row-form page; a compact page's
 * 'shared row header', 'header page', 'check word', 'row states' and 'row
 * header slots'), each column's 'null bitmap', 'dictionary' and 'values' or
 * 'value offsets', then 'free', 'value area' and 'special space'.  Bytes
 * no row names are alignment padding.  Meant for tests and inspection, as
 * pageinspect's functions are.  attnum is NULL for regions that
 * are no one column's.  An empty or orphan page has no regions; a page
 * that fails verification raises ERRCODE_DATA_CORRUPTED.
 */
Datum
pax_page_regions(PG_FUNCTION_ARGS)
{
	Oid			relid = PG_GETARG_OID(0);
	int64		blkno = PG_GETARG_INT64(1);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	Relation	rel;
	PaxLayoutCache cache;
	Buffer		buffer;
	Page		page;
	PageHeader	phdr;
	PaxPageLayout *layout;
	int			slot;

	InitMaterializedSRF(fcinfo, 0);
	PaxCheckResultColumns(rsinfo, PAX_PAGE_REGIONS_COLS,
						  PAX_PAGE_REGIONS_COLS);
	buffer = PaxStatsReadPage(relid, blkno, &rel);
	if (!BufferIsValid(buffer))
		return (Datum) 0;
	page = BufferGetPage(buffer);
	phdr = (PageHeader) page;
	if (PaxPageGetHeader(page)->pp_flags & PAX_PAGE_HEADERS)
	{
		UnlockReleaseBuffer(buffer);
		relation_close(rel, AccessShareLock);
		return (Datum) 0;			/* a header page: no columns, no rows */
	}
	PaxLayoutCacheInit(&cache, RelationGetDescr(rel)->natts,
					   CurrentMemoryContext);
	layout = PaxPageGetLayout(rel, RelationGetDescr(rel), page,
							  (BlockNumber) blkno, &cache);

	PaxRegion(rsinfo, 0, SizeOfPageHeaderData, -1, "page header");
	PaxRegion(rsinfo, SizeOfPageHeaderData, sizeof(PaxPageHeaderData), -1,
			  "pax header");
	PaxRegion(rsinfo, SizeOfPageHeaderData + sizeof(PaxPageHeaderData),
			  PAX_NDIRMAPS * PaxDirMapLen(layout->natts) +
			  (PaxPageIsEncoded(page) ? layout->natts : 0), -1,
			  "column directory");
	for (int i = 0; i < layout->natts; i++)
		if (layout->cols[i].zone >= 0)
			PaxRegion(rsinfo,
					  layout->zones + layout->cols[i].zone * sizeof(PaxZone),
					  sizeof(PaxZone), i, "zone map");
	slot = layout->bases;
	for (int i = 0; i < layout->natts && PaxPageIsEncoded(page); i++)
	{
		PaxRegion(rsinfo, slot, PaxBaseBytes(PaxPageGetWidths(page)[i]), i,
				  "encoding slot");
		slot += PaxBaseBytes(PaxPageGetWidths(page)[i]);
	}
	if (layout->compact)
	{
		PaxRegion(rsinfo, layout->rowhdrs, PAX_ROWHDR_SIZE, -1,
				  "shared row header");
		PaxRegion(rsinfo, layout->rowhdrs + PAX_COMPACT_HDRPAGE,
				  PAX_COMPACT_CHECK - PAX_COMPACT_HDRPAGE, -1, "header page");
		PaxRegion(rsinfo, layout->rowhdrs + PAX_COMPACT_CHECK,
				  PAX_COMPACT_STATES - PAX_COMPACT_CHECK, -1, "check word");
		PaxRegion(rsinfo, layout->rowhdrs + PAX_COMPACT_STATES,
				  layout->capacity, -1, "row states");
		PaxRegion(rsinfo, layout->rowhdrs + PaxCompactSlotsAt(layout->capacity),
				  PAX_COMPACT_SLOTS * PAX_ROWHDR_SIZE, -1, "row header slots");
	}
	else
		PaxRegion(rsinfo, layout->rowhdrs, layout->capacity * PAX_ROWHDR_SIZE,
				  -1, "row headers");
	for (int i = 0; i < layout->natts; i++)
		PaxColumnRegions(rsinfo, layout, i);
	PaxRegion(rsinfo, phdr->pd_lower, phdr->pd_upper - phdr->pd_lower, -1,
			  "free");
	PaxRegion(rsinfo, phdr->pd_upper, phdr->pd_special - phdr->pd_upper, -1,
			  "value area");
	if (PaxPageGetHeader(page)->pp_flags & PAX_PAGE_TIDMAP)
	{
		PaxRegion(rsinfo, phdr->pd_special, PAX_TIDMAP_AT, -1, "special space");
		PaxRegion(rsinfo, phdr->pd_special + PAX_TIDMAP_AT,
				  BLCKSZ - phdr->pd_special - PAX_TIDMAP_AT, -1, "TID map");
	}
	else
		PaxRegion(rsinfo, phdr->pd_special, BLCKSZ - phdr->pd_special, -1,
				  "special space");

	UnlockReleaseBuffer(buffer);
	PaxLayoutCacheFree(&cache);
	relation_close(rel, AccessShareLock);
	return (Datum) 0;
}
