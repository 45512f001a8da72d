/*-------------------------------------------------------------------------
 *
 * pax_verify_col.c
 *	  pax_verify()'s checks of a page's layout and columns: the page header,
 *	  the column directory and the metadata of the encodings, zone maps,
 *	  and every stored value; and reading a block for verification.
 *
 * PaxVerifyReadBuffer pins a block without letting the buffer manager
 * raise "invalid page", and PaxVerifyPageHeader checks what locating
 * anything on a page depends on (pax_verify.c's page pass and
 * pax_verify_index.c's index checks both read pages through them).
 * pax_verify.c checks a page's row headers and calls these once
 * the page's layout is known: PaxVerifyDirectory for the column directory
 * (the encodings' factors, divisors, prefixes, alphabets and dictionaries;
 * nulls and zone maps), PaxVerifyValues for each row's values (NULLs,
 * varlena headers and TOAST pointers, codes of dictionaries and alphabets,
 * zone map bounds).  Every problem found goes through PaxVerifyReport,
 * which adds a row to pax_verify's result.
 *
 * pax_am/pax_verify_col.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/toast_compression.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "storage/smgr.h"
#include "utils/builtins.h"
#include "utils/date.h"
#include "utils/datetime.h"
#include "common/int.h"
#include "mb/pg_wchar.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/typcache.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_stats.h"
#include "pax_tidmap.h"

/* The largest valid va_rawsize of a varlena. */
#define PAX_VARLENA_SIZE_LIMIT	0x3FFFFFFF


/*
 * PaxVerifyReport adds one problem at the current position to the result.
 */
void
PaxVerifyReport(PaxVerifyContext *ctx, const char *fmt,...)
{
	Datum		values[PAX_VERIFY_COLS];
	bool		nulls[PAX_VERIFY_COLS] = {0};
	StringInfoData msg;

	initStringInfo(&msg);
	for (;;)
	{
		va_list		args;
		int			needed;

		va_start(args, fmt);
		needed = appendStringInfoVA(&msg, fmt, args);
		va_end(args);
		if (needed == 0)
			break;
		enlargeStringInfo(&msg, needed);
	}

	values[0] = Int64GetDatum((int64) ctx->blkno);
	values[1] = Int32GetDatum(ctx->row + 1);
	nulls[1] = ctx->row < 0;
	values[2] = Int32GetDatum(ctx->attnum + 1);
	nulls[2] = ctx->attnum < 0;
	values[3] = CStringGetTextDatum(msg.data);
	tuplestore_putvalues(ctx->rsinfo->setResult, ctx->rsinfo->setDesc,
						 values, nulls);
	pfree(DatumGetPointer(values[3]));
	pfree(msg.data);
	ctx->nproblems++;
}

/*
 * PaxVerifyColumnProblem reports a problem an encoding's check found in
 * the current column (PaxEncodingOps.checkslot).
 */
static void
PaxVerifyColumnProblem(void *arg, const char *msg)
{
	PaxVerifyReport((PaxVerifyContext *) arg, "%s", msg);
}

/* ----------------------------------------------------------------
 * Page header, and reading a block
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyPageHeader checks what locating anything on the page depends
 * on and computes ctx->layout.  On the first failure it reports one
 * problem (when `report`) and returns false: the rest of the page cannot
 * be trusted.  Only fields at fixed offsets are read before they are
 * known to be in range.
 */
bool
PaxVerifyPageHeader(PaxVerifyContext *ctx, Page page, bool report)
{
	PageHeader	phdr = (PageHeader) page;
	PaxPageHeader hdr = PaxPageGetHeader(page);
	PaxPageOpaque opaque;
	uint16		special = BLCKSZ - MAXALIGN(sizeof(PaxPageOpaqueData));
	PaxPageShape shape;
	uint16		lower;

#define PAGE_PROBLEM(...) \
	do { \
		if (report) \
			PaxVerifyReport(ctx, __VA_ARGS__); \
		return false; \
	} while (0)

	if (PageGetPageSize(page) != BLCKSZ ||
		PageGetPageLayoutVersion(page) != PG_PAGE_LAYOUT_VERSION)
		PAGE_PROBLEM("page size %u or page layout version %u is invalid",
					 (unsigned) PageGetPageSize(page),
					 (unsigned) PageGetPageLayoutVersion(page));
	if ((hdr->pp_flags & PAX_PAGE_TIDMAP) && phdr->pd_special < special &&
		PaxTidMapSpecialOk(page))
		special = phdr->pd_special;		/* a TID map follows the opaque data */
	if (phdr->pd_special != special)
		PAGE_PROBLEM("special space begins at offset %u, expected %u",
					 phdr->pd_special, special);
	opaque = (PaxPageOpaque) (page + special);
	if (opaque->pax_magic != PAX_PAGE_MAGIC)
		PAGE_PROBLEM("magic number 0x%04X is not the pax magic number 0x%04X",
					 opaque->pax_magic, PAX_PAGE_MAGIC);
	if (opaque->pax_version != PAX_PAGE_VERSION)
		PAGE_PROBLEM("pax page version %u is not %u",
					 opaque->pax_version, PAX_PAGE_VERSION);
	if (hdr->pp_natts > ctx->tupdesc->natts)
		PAGE_PROBLEM("page has %u columns, more than the relation's %d",
					 hdr->pp_natts, ctx->tupdesc->natts);
	if (hdr->pp_capacity < 1 || hdr->pp_capacity > PAX_MAX_CAPACITY)
		PAGE_PROBLEM("capacity %u is not in the range 1 .. %d",
					 hdr->pp_capacity, PAX_MAX_CAPACITY);
	if (hdr->pp_nrows > hdr->pp_capacity)
		PAGE_PROBLEM("row count %u exceeds capacity %u",
					 hdr->pp_nrows, hdr->pp_capacity);
	if (phdr->pd_lower > phdr->pd_upper || phdr->pd_upper > phdr->pd_special)
		PAGE_PROBLEM("pd_lower %u, pd_upper %u and pd_special %u are out of order",
					 phdr->pd_lower, phdr->pd_upper, phdr->pd_special);

	/* natts is in range, so the directory lies within the page */
	PaxPageShapeOf(page, &shape);
	if (hdr->pp_flags & ~(PAX_PAGE_HAS_UNUSED | PAX_PAGE_ENCODED |
						  PAX_PAGE_COMPACT | PAX_PAGE_HEADERS |
						  PAX_PAGE_HAS_ITEMS | PAX_PAGE_TIDMAP))
		PAGE_PROBLEM("page flags 0x%04X have unknown bits set", hdr->pp_flags);
	if (shape.widths != NULL)
	{
		for (int i = 0; i < hdr->pp_natts; i++)
		{
			Form_pg_attribute att = TupleDescAttr(ctx->tupdesc, i);
			int			width = shape.widths[i];

			char	   *problem;

			if (width == 0)
				continue;
			problem = PaxEncodingOpsOf(PaxEncodingOf(width, att))->checkwidth(att, i + 1, width,
																			PaxBitIsSet(shape.absent, i));
			if (problem != NULL)
				PAGE_PROBLEM("%s", problem);
		}
	}
	lower = PaxLayoutSize(ctx->tupdesc, &shape, ctx->layout);
	if (lower != phdr->pd_lower)
	{
		if (lower > BLCKSZ)
			PAGE_PROBLEM("column directory describes minipages that do not fit a page");
		PAGE_PROBLEM("pd_lower %u does not match the end %u of the minipages the column directory describes",
					 phdr->pd_lower, lower);
	}
	return true;

#undef PAGE_PROBLEM
}

/*
 * PaxVerifyReadBuffer pins block blkno for verification without ever
 * letting the buffer manager raise "invalid page": the block's buffer when
 * it holds the block validly already (ReadRecentBuffer checks BM_VALID, so
 * a buffer left by an earlier failed read, which ReadBuffer would read
 * again and fail on, is not taken), or else the block read through the
 * buffer manager once its copy on disk, read into *copy, passes the buffer
 * manager's own verification (PageIsVerifiedExtended).  A failing copy is
 * read twice, in case it was caught in the middle of being written; then
 * InvalidBuffer is returned and *copy holds it.
 */
Buffer
PaxVerifyReadBuffer(PaxVerifyContext *ctx, BlockNumber blkno,
					PaxIOBlock *copy)
{
	for (int attempt = 0; attempt < 2; attempt++)
	{
		PrefetchBufferResult recent = PrefetchBuffer(ctx->rel, MAIN_FORKNUM,
													 blkno);

		if (BufferIsValid(recent.recent_buffer) &&
			ReadRecentBuffer(PaxRelationFile(ctx->rel), MAIN_FORKNUM, blkno,
							 recent.recent_buffer))
			return recent.recent_buffer;
		smgrread(RelationGetSmgr(ctx->rel), MAIN_FORKNUM, blkno, copy->data);
		if (PaxPageIsVerified((Page) copy->data, blkno))
			return ReadBufferExtended(ctx->rel, MAIN_FORKNUM, blkno,
									  RBM_NORMAL, ctx->bstrategy);
	}
	return InvalidBuffer;
}

/* ----------------------------------------------------------------
 * Zone-mapped values
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyCompare compares two values of a zone-mapped column with its
 * type's btree comparison function.
 */
static int
PaxVerifyCompare(PaxVerifyContext *ctx, int i, Datum a, Datum b)
{
	return DatumGetInt32(FunctionCall2Coll(ctx->zone_cmp[i],
										   TupleDescAttr(ctx->tupdesc, i)->attcollation,
										   a, b));
}

/*
 * PaxVerifyValueText renders a value of a zone-eligible type
 * (PaxZoneEligible) for a message, through the type's output function
 * where that cannot fail on any bit pattern.
 */
char *
PaxVerifyValueText(Form_pg_attribute att, Datum value)
{
	Oid			outfunc;
	bool		isvarlena;

	if ((att->atttypid == TIMESTAMPOID || att->atttypid == TIMESTAMPTZOID) &&
		!TIMESTAMP_NOT_FINITE(DatumGetTimestamp(value)) &&
		!IS_VALID_TIMESTAMP(DatumGetTimestamp(value)))
		return psprintf("(invalid timestamp " INT64_FORMAT ")",
						DatumGetInt64(value));
	if (att->atttypid == DATEOID &&
		!DATE_NOT_FINITE(DatumGetDateADT(value)) &&
		!IS_VALID_DATE(DatumGetDateADT(value)))
		return psprintf("(invalid date %d)", DatumGetInt32(value));
	getTypeOutputInfo(att->atttypid, &outfunc, &isvarlena);
	return OidOutputFunctionCall(outfunc, value);
}

/*
 * PaxVerifyZone checks a non-null value of a zone-mapped column against
 * the page's zone map.
 */
static void
PaxVerifyZone(PaxVerifyContext *ctx, Page page, int i, Datum value)
{
	Form_pg_attribute att = TupleDescAttr(ctx->tupdesc, i);
	PaxZone    *zone = (PaxZone *) (page + ctx->layout->zones) +
		ctx->layout->cols[i].zone;

	if (!PaxBitIsSet(PaxPageGetDirMap(page, PAX_DIR_ZONESET), i))
	{
		PaxVerifyReport(ctx, "zone map is not set, but the row has value %s",
						PaxVerifyValueText(att, value));
		return;
	}
	if (PaxVerifyCompare(ctx, i, PaxZoneDatum(zone->min), value) > 0 ||
		PaxVerifyCompare(ctx, i, value, PaxZoneDatum(zone->max)) > 0)
		PaxVerifyReport(ctx, "value %s is outside the zone map [%s, %s]",
						PaxVerifyValueText(att, value),
						PaxVerifyValueText(att, PaxZoneDatum(zone->min)),
						PaxVerifyValueText(att, PaxZoneDatum(zone->max)));
}

/* ----------------------------------------------------------------
 * Column directory
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyPrefixText checks that a text column's prefix is valid in the
 * database encoding, but for the first bytes of a last character, which
 * its rests complete: every value begins with it.
 */
static void
PaxVerifyPrefixText(PaxVerifyContext *ctx, Page page,
					const PaxColumnLayout *col)
{
	int			enc = GetDatabaseEncoding();
	int			plen = (uint8) page[col->prefix];
	const char *p = page + col->prefix + 1;
	int			valid;

	if (plen > col->prefixmax)
		return;					/* reported by its checkslot */
	valid = pg_encoding_verifymbstr(enc, p, plen);
	if (valid < plen &&
		!(pg_encoding_mblen(enc, p + valid) > 1 &&
		  plen - valid < pg_encoding_mblen(enc, p + valid)))
		PaxVerifyReport(ctx, "prefix byte %d is not valid in encoding \"%s\"",
						valid + 1, GetDatabaseEncodingName());
}

/*
 * PaxVerifySlotAgainstType checks what an encoding's slot says against the
 * column's type: a decimal-scaled numeric's display scale within its
 * typmod's scale, a text column's prefix valid in the database encoding.
 */
static void
PaxVerifySlotAgainstType(PaxVerifyContext *ctx, Page page, int i)
{
	const PaxColumnLayout *col = &ctx->layout->cols[i];
	Form_pg_attribute att = TupleDescAttr(ctx->tupdesc, i);

	if (att->attisdropped)
		return;
	if (col->numslot != 0 && att->atttypmod >= (int32) VARHDRSZ)
	{
		int64		slot[3];
		int			scale = (int) (((att->atttypmod - VARHDRSZ) & 0x7FF) ^ 1024) - 1024;

		PaxNumSlot(page, col, slot);
		if (slot[2] > Max(scale, 0))
			PaxVerifyReport(ctx, "display scale " INT64_FORMAT " of a decimal-scaled column exceeds the scale %d of its type",
							slot[2], scale);
	}
	if (col->prefix != 0 && col->numslot == 0 &&
		OidIsValid(att->attcollation))
		PaxVerifyPrefixText(ctx, page, col);
}

/*
 * PaxVerifyDirectory checks the column directory bits that the layout does
 * not depend on, and the zone maps' own order, deciding per column whether
 * its zone map can be compared with its values.
 */
void
PaxVerifyDirectory(PaxVerifyContext *ctx, Page page)
{
	PaxPageLayout *layout = ctx->layout;
	bits8	   *absent = PaxPageGetDirMap(page, PAX_DIR_ABSENT);
	bits8	   *nullmap = PaxPageGetDirMap(page, PAX_DIR_NULLMAP);
	bits8	   *zone = PaxPageGetDirMap(page, PAX_DIR_ZONE);
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	bits8	   *zoneset = PaxPageGetDirMap(page, PAX_DIR_ZONESET);

	if (layout->nzones > PAX_MAX_ZONES)
		PaxVerifyReport(ctx, "page has %d zone maps, more than %d",
						layout->nzones, PAX_MAX_ZONES);
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		const PaxEncodingOps *ops = PaxEncodingOpsOf((PaxEncoding) col->enc);

		ctx->attnum = i;
		if (col->data != 0 && ops->checkslot != NULL)
			ops->checkslot(page, col, PaxVerifyColumnProblem, ctx);
		if (col->data != 0)
			PaxVerifySlotAgainstType(ctx, page, i);
	}
	ctx->attnum = -1;

	for (int i = 0; i < layout->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(ctx->tupdesc, i);

		ctx->attnum = i;
		ctx->zone_ok[i] = false;
		if (PaxBitIsSet(absent, i) &&
			(PaxBitIsSet(nullmap, i) || PaxBitIsSet(zone, i)))
			PaxVerifyReport(ctx, "column without minipage has a null bitmap or zone map");
		if (PaxBitIsSet(hasnull, i) && !PaxBitIsSet(nullmap, i))
			PaxVerifyReport(ctx, "column is marked as having nulls but has no null bitmap");
		if (PaxBitIsSet(zoneset, i) && !PaxBitIsSet(zone, i))
			PaxVerifyReport(ctx, "column without zone map has its zone map marked set");
		if (!PaxBitIsSet(zone, i) || att->attisdropped)
			continue;			/* a dropped column's zone map is unused */
		if (!PaxZoneEligible(att))
		{
			PaxVerifyReport(ctx, "column of type %s has a zone map",
							format_type_be(att->atttypid));
			continue;
		}
		if (ctx->zone_cmp[i] == NULL)
		{
			TypeCacheEntry *tc = lookup_type_cache(att->atttypid,
												   TYPECACHE_CMP_PROC_FINFO);

			if (OidIsValid(tc->cmp_proc))
				ctx->zone_cmp[i] = &tc->cmp_proc_finfo;
		}
		if (PaxBitIsSet(absent, i) || ctx->zone_cmp[i] == NULL)
			continue;
		ctx->zone_ok[i] = true;
		if (PaxBitIsSet(zoneset, i))
		{
			PaxZone    *z = (PaxZone *) (page + layout->zones) + layout->cols[i].zone;

			if (PaxVerifyCompare(ctx, i, PaxZoneDatum(z->min),
								 PaxZoneDatum(z->max)) > 0)
				PaxVerifyReport(ctx, "zone map min %s is greater than its max %s",
								PaxVerifyValueText(att, PaxZoneDatum(z->min)),
								PaxVerifyValueText(att, PaxZoneDatum(z->max)));
		}
	}
	ctx->attnum = -1;
}

/* ----------------------------------------------------------------
 * Values
 * ----------------------------------------------------------------
 */

/*
 * PaxVerifyPrefixRest checks the rest of a prefix-encoded column's value at
 * `off` (inside the value area): a short varlena, not a TOAST pointer,
 * within the page, that with the prefix makes a short varlena (pax_encoding.h,
 * "Prefix encoding").
 */
static void
PaxVerifyPrefixRest(PaxVerifyContext *ctx, Page page,
					const PaxColumnLayout *col, uint16 off)
{
	uint16		special = ((PageHeader) page)->pd_special;
	const char *p = page + off;
	uint8		plen = (uint8) page[col->prefix];

	if (!VARATT_IS_1B(p) || VARATT_IS_1B_E(p))
		PaxVerifyReport(ctx, "value at offset %u of a prefix-encoded column is not a short varlena",
						off);
	else if (VARSIZE_1B(p) > special - off)
		PaxVerifyReport(ctx, "value at offset %u with length %u ends beyond pd_special %u",
						off, (unsigned) VARSIZE_1B(p), special);
	else if (plen <= col->prefixmax &&	/* else reported for the page */
			 VARSIZE_1B(p) + plen > VARATT_SHORT_MAX)
		PaxVerifyReport(ctx, "value at offset %u with length %u and its prefix of %u bytes is longer than a short varlena",
						off, (unsigned) VARSIZE_1B(p), plen);
}

/*
 * PaxVerifyVarlena checks a variable-length value at `off` (inside the
 * value area) of a column of the given attlen and attalign.  Adapted from
 * check_tuple_attribute() in contrib/amcheck/verify_heapam.c, PostgreSQL 15.
 */
static void
PaxVerifyVarlena(PaxVerifyContext *ctx, Page page, uint16 off,
				 Form_pg_attribute att)
{
	uint16		special = ((PageHeader) page)->pd_special;
	char	   *p = page + off;
	uint32		room = special - off;	/* >= 1 */

	if (att->attlen == -2)
	{
		if (memchr(p, '\0', room) == NULL)
			PaxVerifyReport(ctx, "cstring value at offset %u is not terminated before pd_special %u",
							off, special);
		return;
	}

	if (VARATT_IS_1B_E(p))
	{
		struct varatt_external ptr;
		int32		rawsize;
		uint32		extsize;

		if (room < VARHDRSZ_EXTERNAL ||
			VARTAG_1B_E(p) != VARTAG_ONDISK)
		{
			PaxVerifyReport(ctx, "external value at offset %u has invalid tag %u",
							off, room < VARHDRSZ_EXTERNAL ? 0 : (unsigned) VARTAG_1B_E(p));
			return;
		}
		if (room < VARHDRSZ_EXTERNAL + sizeof(ptr))
		{
			PaxVerifyReport(ctx, "toast pointer at offset %u ends beyond pd_special %u",
							off, special);
			return;
		}
		memcpy(&ptr, VARDATA_EXTERNAL(p), sizeof(ptr));
		rawsize = ptr.va_rawsize;
		extsize = VARATT_EXTERNAL_GET_EXTSIZE(ptr);
		if (ptr.va_toastrelid != ctx->rel->rd_rel->reltoastrelid)
			PaxVerifyReport(ctx, "toast pointer at offset %u names relation %u, not the toast table %u",
							off, ptr.va_toastrelid, ctx->rel->rd_rel->reltoastrelid);
		if (rawsize < VARHDRSZ || rawsize > PAX_VARLENA_SIZE_LIMIT)
			PaxVerifyReport(ctx, "toast value %u raw size %d is out of range",
							ptr.va_valueid, rawsize);
		else if (extsize > (uint32) (rawsize - VARHDRSZ))
			PaxVerifyReport(ctx, "toast value %u external size %u exceeds raw size %d",
							ptr.va_valueid, extsize, rawsize - VARHDRSZ);
		else if (VARATT_EXTERNAL_IS_COMPRESSED(ptr) &&
				 (ptr.va_extinfo >> VARLENA_EXTSIZE_BITS) >= TOAST_INVALID_COMPRESSION_ID)
			PaxVerifyReport(ctx, "toast value %u has invalid compression method id %u",
							ptr.va_valueid, ptr.va_extinfo >> VARLENA_EXTSIZE_BITS);
		return;
	}

	if (VARATT_IS_1B(p))
	{
		if (VARSIZE_1B(p) > room)
			PaxVerifyReport(ctx, "value at offset %u with length %u ends beyond pd_special %u",
							off, (unsigned) VARSIZE_1B(p), special);
		return;
	}

	/* 4-byte header: stored at the column's alignment */
	if (att_align_nominal(off, att->attalign) != off)
		PaxVerifyReport(ctx, "value at offset %u with a 4-byte header is not aligned",
						off);
	if (room < VARHDRSZ)
	{
		PaxVerifyReport(ctx, "value header at offset %u ends beyond pd_special %u",
						off, special);
		return;
	}
	{
		union
		{
			varattrib_4b v;
			char		bytes[VARHDRSZ_COMPRESSED];
		}			head;
		uint32		size;

		memcpy(head.bytes, p, Min(room, VARHDRSZ_COMPRESSED));
		size = VARSIZE_4B(&head);
		if (size < VARHDRSZ)
			PaxVerifyReport(ctx, "value at offset %u has length %u, less than its header",
							off, size);
		else if (size > room)
			PaxVerifyReport(ctx, "value at offset %u with length %u ends beyond pd_special %u",
							off, size, special);
		else if (VARATT_IS_4B_C(&head))
		{
			uint32		raw = VARDATA_COMPRESSED_GET_EXTSIZE(&head);
			uint32		method = VARDATA_COMPRESSED_GET_COMPRESS_METHOD(&head);

			if (size < VARHDRSZ_COMPRESSED)
				PaxVerifyReport(ctx, "compressed value at offset %u has length %u, less than its header",
								off, size);
			else if (raw > PAX_VARLENA_SIZE_LIMIT)
				PaxVerifyReport(ctx, "compressed value at offset %u has raw size %u, out of range",
								off, raw);
			else if (method >= TOAST_INVALID_COMPRESSION_ID)
				PaxVerifyReport(ctx, "compressed value at offset %u has invalid compression method id %u",
								off, method);
		}
	}
}

/* PaxBytesZero tells whether len bytes at p are all zero. */
static bool
PaxBytesZero(const char *p, uint32 len)
{
	for (uint32 i = 0; i < len; i++)
		if (p[i] != 0)
			return false;
	return true;
}

/*
 * PaxVerifyRowCleared tells whether row slot `row` holds no value, as
 * PaxRowClear leaves it: every minipage slot zero, and every null bit set
 * for a slot VACUUM reclaimed (unused), clear for one never stored, whose
 * row header on a row-form page is all zero too.
 */
bool
PaxVerifyRowCleared(PaxVerifyContext *ctx, Page page, int row, bool unused)
{
	PaxPageLayout *layout = ctx->layout;

	if (!unused && !layout->compact &&
		!PaxBytesZero((const char *) PaxRowHeader(page, layout->rowhdrs, row),
					  PAX_ROWHDR_SIZE))
		return false;

	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->data == 0)
			continue;
		if (col->nullmap != 0 &&
			PaxBitIsSet((bits8 *) page + col->nullmap, row) != unused)
			return false;
		if (col->symbits != 0)
		{
			for (int j = 0; j < col->restwidth; j++)
				if (PaxPackedGet(page + col->data, col->symbits,
								 row * col->restwidth + j) != 0)
					return false;
		}
		else if (col->bits != 0)
		{
			if (PaxPackedGet(page + col->data, col->bits, row) != 0)
				return false;
		}
		else
		{
			uint32		off;
			uint32		len;

			PaxRowBytes(col, row, &off, &len);
			if (!PaxBytesZero(page + off, len))
				return false;
		}
	}
	return true;
}

/* A value of the value area, for PaxVerifyValueArea. */
typedef struct PaxAreaValue
{
	uint16		off;
	uint16		len;
	int16		attnum;			/* zero-based */
	int16		row;			/* the row's slot, or -1: a dictionary entry */
} PaxAreaValue;

static int
PaxAreaValueCmp(const void *a, const void *b)
{
	const PaxAreaValue *x = (const PaxAreaValue *) a;
	const PaxAreaValue *y = (const PaxAreaValue *) b;

	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->len < y->len ? -1 : x->len > y->len ? 1 : 0;
}

/*
 * PaxAreaValuesSort sorts vals by offset, at the cost of a pass when they
 * are in ascending or descending order already.
 */
static void
PaxAreaValuesSort(PaxAreaValue *vals, int n)
{
	bool		asc = true;
	bool		desc = true;

	for (int k = 1; k < n && (asc || desc); k++)
	{
		if (PaxAreaValueCmp(&vals[k - 1], &vals[k]) > 0)
			asc = false;
		else if (PaxAreaValueCmp(&vals[k - 1], &vals[k]) < 0)
			desc = false;
	}
	if (asc)
		return;
	if (!desc)
	{
		qsort(vals, n, sizeof(PaxAreaValue), PaxAreaValueCmp);
		return;
	}
	for (int k = 0; k < n / 2; k++)
	{
		PaxAreaValue tmp = vals[k];

		vals[k] = vals[n - 1 - k];
		vals[n - 1 - k] = tmp;
	}
}

/*
 * PaxAreaValuesMerge merges the sorted vals[0 .. mid) and vals[mid .. n)
 * into sorted vals[0 .. n), through tmp (room for n).
 */
static void
PaxAreaValuesMerge(PaxAreaValue *vals, int mid, int n, PaxAreaValue *tmp)
{
	int			a = 0;
	int			b = mid;
	int			k = 0;

	while (a < mid && b < n)
		tmp[k++] = PaxAreaValueCmp(&vals[a], &vals[b]) <= 0 ? vals[a++] : vals[b++];
	while (a < mid)
		tmp[k++] = vals[a++];
	while (b < n)
		tmp[k++] = vals[b++];
	memcpy(vals, tmp, n * sizeof(PaxAreaValue));
}

/*
 * PaxAreaValueAt records the value at `off` of column i into vals[*n]
 * when it lies inside the value area (values outside it are reported by
 * PaxVerifyValues).
 */
static void
PaxAreaValueAt(PaxVerifyContext *ctx, Page page, int i, int row, uint16 off,
			   PaxAreaValue *vals, int *n)
{
	PageHeader	phdr = (PageHeader) page;
	const PaxColumnLayout *col = &ctx->layout->cols[i];
	const char *p = page + off;
	int			room = phdr->pd_special - off;
	int			size;
	int			align;

	if (off < phdr->pd_upper || off >= phdr->pd_special)
		return;
	if (col->prefix != 0 || VARATT_IS_1B(p) || col->attlen == -2)
		size = col->prefix != 0 ? VARSIZE_1B(p) :
			PaxStoredSize(TupleDescAttr(ctx->tupdesc, i), p, room, &align);
	else if (room < VARHDRSZ)
		return;
	else
		size = VARSIZE_ANY(p);
	if (size < 1 || size > room)
		return;
	vals[*n].off = off;
	vals[*n].len = size;
	vals[*n].attnum = i;
	vals[*n].row = row;
	(*n)++;
}

/*
 * PaxVerifySameChain tells whether rows a and b of a row-form page may be
 * versions of one row sharing a value (PaxValueShared): the t_ctid links
 * on the page lead from one to the other, or one was written by a
 * transaction that did not commit (an aborted UPDATE's version, which the
 * old version's next update no longer names).
 */
static bool
PaxVerifySameChain(PaxVerifyContext *ctx, Page page, int a, int b)
{
	const PaxPageLayout *layout = ctx->layout;
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			maxtid = PaxPageMaxTid(page);

	if (layout->compact)
		return false;
	if (PaxVerifyXminFailed(ctx, PaxRowHeader(page, layout->rowhdrs, a)) ||
		PaxVerifyXminFailed(ctx, PaxRowHeader(page, layout->rowhdrs, b)))
		return true;
	for (int dir = 0; dir < 2; dir++)
	{
		int			cur = dir == 0 ? a : b;
		int			to = dir == 0 ? b : a;

		for (int step = 0; step < nrows; step++)
		{
			HeapTupleHeader hdr = PaxRowHeader(page, layout->rowhdrs, cur);
			int			off = ItemPointerGetOffsetNumberNoCheck(&hdr->t_ctid);
			int			slot;
			int			target;

			if (ItemPointerGetBlockNumberNoCheck(&hdr->t_ctid) != ctx->blkno ||
				off < 1 || off > maxtid || off == PaxSlotTid(page, cur) ||
				PaxTidWhat(page, layout->rowhdrs, off, &slot, &target) !=
				PAX_TIDK_ROW || slot < 0 || slot >= nrows)
				break;
			if (slot == to)
				return true;
			cur = slot;
		}
	}
	return false;
}

/*
 * PaxVerifyValueArea checks that the values the page's rows and
 * dictionary entries name are disjoint: each is stored for one row or one
 * entry, so an offset or an entry pointing at or inside another value
 * shows so.  (Bytes between values are not checked: dead rows' values stay
 * in the value area until VACUUM compacts it.)
 */
void
PaxVerifyValueArea(PaxVerifyContext *ctx, Page page)
{
	PaxPageLayout *layout = ctx->layout;
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	int			max = 0;
	int			n = 0;
	PaxAreaValue *vals;

	for (int i = 0; i < layout->natts; i++)
		if (layout->cols[i].data != 0 && layout->cols[i].attlen < 0 &&
			!PaxInMinipage(&layout->cols[i]))
			max += layout->cols[i].dict != 0 ? layout->cols[i].dictcap : nrows;
	if (max == 0)
		return;
	vals = palloc(2 * max * sizeof(PaxAreaValue));
	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		int			first = n;

		if (col->data == 0 || col->attlen >= 0 || PaxInMinipage(col))
			continue;
		if (col->dict != 0)
		{
			for (int e = 0; e < Min(PaxDictUsed(page, col), col->dictcap); e++)
				PaxAreaValueAt(ctx, page, i, -1,
							   ((const uint16 *) (page + col->dict))[e], vals, &n);
		}
		else
		{
			for (int r = 0; r < nrows; r++)
			{
				if (PaxRowUnused(page, layout->rowhdrs, r) ||
					(col->nullmap != 0 &&
					 PaxBitIsSet((bits8 *) page + col->nullmap, r)))
					continue;
				PaxAreaValueAt(ctx, page, i, r, PaxVarOffset(page, col, r),
							   vals, &n);
			}
		}
		/* a column's values lie in row order: its run is sorted cheaply */
		PaxAreaValuesSort(vals + first, n - first);
		if (first > 0)
			PaxAreaValuesMerge(vals, first, n, vals + max);
	}
	for (int k = 1; k < n; k++)
	{
		const PaxAreaValue *prev = &vals[k - 1];

		/* versions of a row may share a value (PaxValueShared) */
		if (vals[k].off == prev->off && vals[k].len == prev->len &&
			vals[k].attnum == prev->attnum && vals[k].row >= 0 &&
			prev->row >= 0 && layout->cols[prev->attnum].prefix == 0 &&
			PaxVerifySameChain(ctx, page, prev->row, vals[k].row))
			continue;
		if (vals[k].off < prev->off + prev->len)
		{
			ctx->attnum = vals[k].attnum;
			if (vals[k].off == prev->off)
				PaxVerifyReport(ctx, "value at offset %u is also a value of column %d",
								vals[k].off, prev->attnum + 1);
			else
				PaxVerifyReport(ctx, "value at offset %u overlaps the value at offset %u of column %d",
								vals[k].off, prev->off, prev->attnum + 1);
			break;
		}
	}
	ctx->attnum = -1;
	pfree(vals);
}

/*
 * PaxVerifyNumericDigits checks that a decimal-scaled value of a column
 * declared numeric(p,s) has at most p - s digits before its point, as
 * numeric's typmod coercion ensured when it was stored; slot is the
 * column's (base, factor, display scale).
 */
static void
PaxVerifyNumericDigits(PaxVerifyContext *ctx, Page page, int i, int row,
					   const int64 *slot)
{
	const PaxColumnLayout *col = &ctx->layout->cols[i];
	int32		typmod = TupleDescAttr(ctx->tupdesc, i)->atttypmod;
	int			digits;
	int64		v;
	uint64		limit = 1;

	if (typmod < (int32) VARHDRSZ || slot[1] < 1 || slot[2] < 0 ||
		TupleDescAttr(ctx->tupdesc, i)->attisdropped)
		return;
	digits = (((typmod - VARHDRSZ) >> 16) & 0xFFFF) -
		((int) (((typmod - VARHDRSZ) & 0x7FF) ^ 1024) - 1024) + (int) slot[2];
	if (digits < 0 || digits > 18 ||
		pg_mul_s64_overflow((int64) PaxPackedGet(page + col->data, col->bits, row),
							slot[1], &v) ||
		pg_add_s64_overflow(v, slot[0], &v))
		return;
	for (int d = 0; d < digits; d++)
		limit *= 10;
	if ((v < 0 ? (uint64) (-(v + 1)) + 1 : (uint64) v) >= limit)
		PaxVerifyReport(ctx, "decimal-scaled value " INT64_FORMAT " at display scale " INT64_FORMAT " exceeds the precision of its type",
						v, slot[2]);
}

/*
 * PaxVerifyValues checks the stored values of one row.
 */
void
PaxVerifyValues(PaxVerifyContext *ctx, Page page, int row)
{
	PageHeader	phdr = (PageHeader) page;
	PaxPageLayout *layout = ctx->layout;
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);

	for (int i = 0; i < layout->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];
		Form_pg_attribute att = TupleDescAttr(ctx->tupdesc, i);

		if (col->data == 0)
			continue;			/* absent: NULL in every row */
		ctx->attnum = i;
		if (col->nullmap != 0 && PaxBitIsSet((bits8 *) page + col->nullmap, row))
		{
			if (!PaxBitIsSet(hasnull, i))
				PaxVerifyReport(ctx, "value is null, but the column is not marked as having nulls");
			continue;
		}
		if (col->attlen > 0)
		{
			if (ctx->zone_ok[i])
				PaxVerifyZone(ctx, page, i, PaxFixedValue(page, col, row));
		}
		else if (col->numslot != 0)
		{
			char		cell[PAX_DECODE_CELL];
			int64		slot[3];

			PaxNumSlot(page, col, slot);
			if (slot[1] >= 1 && slot[2] >= 0 && slot[2] <= PAX_NUM_SHORT_DSCALE_MAX &&
				PaxNumScaledShort(page, col, row, cell) == NULL)
				PaxVerifyReport(ctx, "decimal-scaled value " INT64_FORMAT " + %u * " INT64_FORMAT " is out of range",
								slot[0], (uint32) PaxPackedGet(page + col->data, col->bits, row),
								slot[1]);
			else
				PaxVerifyNumericDigits(ctx, page, i, row, slot);
		}
		else if (col->symbits != 0)
		{
			/* (any rest's bytes make a value; a code must name one) */
			const uint8 *alpha = (const uint8 *) page + col->prefix + PAX_FIXREST_AREA;

			for (int j = 0; j < col->restwidth; j++)
			{
				uint32		c = PaxPackedGet(page + col->data, col->symbits,
											 row * col->restwidth + j);

				if (c > alpha[0])
				{
					PaxVerifyReport(ctx, "code %u of a rest's byte %d is past the alphabet's %u symbols",
									c, j + 1, alpha[0]);
					break;
				}
			}
		}
		else if (col->restwidth == 0)	/* (any rest's bytes make a value) */
		{
			uint16		off = PaxVarOffset(page, col, row);
			uint32		code = col->dict ? PaxDictCode(page, col, row) : 0;

			if (col->dict != 0 && code >= PaxDictUsed(page, col))
				PaxVerifyReport(ctx, "dictionary code %u is not below the %u entries in use",
								code, PaxDictUsed(page, col));
			else if (off < phdr->pd_upper || off >= phdr->pd_special)
				PaxVerifyReport(ctx, "value offset %u is outside the value area %u .. %u",
								off, phdr->pd_upper, phdr->pd_special);
			else if (col->prefix != 0)
				PaxVerifyPrefixRest(ctx, page, col, off);
			else
				PaxVerifyVarlena(ctx, page, off, att);
		}
	}
	ctx->attnum = -1;
}
