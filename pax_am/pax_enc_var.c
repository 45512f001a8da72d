/*-------------------------------------------------------------------------
 *
 * pax_enc_var.c
 *	  The encodings of variable-length columns: dictionaries, prefixes with
 *	  rests behind offsets, in a fixed width or in symbols, and
 *	  decimal-scaled numerics.
 *
 * Each encoding's entry of PaxEncodingOps: its layout, its base array
 * slot, pax_verify's checks of its width byte and slot, and its name in
 * pax_page_columns.  The per-row readers are in pax_minipage.h and
 * pax_numscale.h; placing values in pax_place.c.
 *
 * pax_am/pax_enc_var.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "utils/builtins.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"

/* ----------------------------------------------------------------
 * Dictionaries
 * ----------------------------------------------------------------
 */

/* PaxDictSlot: the count of entries in use, in an int64's room. */
static int
PaxDictSlot(uint8 width)
{
	return sizeof(int64);
}

static void
PaxDictInitSlot(char *slot, uint8 width, int64 base, int64 factor,
				const uint8 *prefix)
{
	memcpy(slot, &base, sizeof(int64));
}

/*
 * PaxDictLayout lays out a dictionary-encoded variable-length column: its
 * dictionary, then its codes (bit-packed, or a byte a row).
 */
static bool
PaxDictLayout(Form_pg_attribute att, uint8 width, bool nullmap,
			  PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	int			codebits = PaxDictIsPacked(width) ?
		PaxDictCodeBits(PaxDictCapacity(width)) : 0;

	PaxLayoutNullmap(nullmap, col, cur);
	cur->off = SHORTALIGN(cur->off);
	col->dict = cur->off;
	col->dictcap = PaxDictCapacity(width);
	col->dictused = cur->bases;
	col->width = codebits != 0 ? 0 : 1;
	col->bits = codebits;
	cur->off += PaxDictCapacity(width) * sizeof(uint16);
	col->data = cur->off;
	cur->off += codebits != 0 ? PaxPackedBytes(cur->capacity, codebits) :
		cur->capacity;
	cur->bases += PaxDictSlot(width);
	return true;
}

static char *
PaxDictCheckWidth(Form_pg_attribute att, int attnum, uint8 width, bool absent)
{
	if (absent)
		return psprintf("column %d has the invalid dictionary width 0x%02X",
						attnum, width);
	return NULL;
}

static void
PaxDictCheckSlot(Page page, const PaxColumnLayout *col,
				 PaxVerifyProblem report, void *arg)
{
	if (PaxDictUsed(page, col) > col->dictcap)
		report(arg, psprintf("dictionary has %u entries in use, more than its %u",
							 PaxDictUsed(page, col), col->dictcap));
}

static char *
PaxDictDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = col->bits != 0 ? -1 : col->width;
	return col->bits != 0 ? psprintf("dictionary, %d bits", col->bits) :
		pstrdup("dictionary");
}

static const PaxEncodingOps PaxEncDictOps = {
	.name = "dictionary",
	.slotbytes = PaxDictSlot,
	.layout = PaxDictLayout,
	.initslot = PaxDictInitSlot,
	.checkwidth = PaxDictCheckWidth,
	.checkslot = PaxDictCheckSlot,
	.describe = PaxDictDescribe,
};

/* ----------------------------------------------------------------
 * Prefixes and their rests
 * ----------------------------------------------------------------
 */

static int
PaxPrefixSlot(uint8 width)
{
	return PaxPrefixAreaSize(width);
}

static int
PaxFixRestSlot(uint8 width)
{
	return PAX_FIXREST_AREA;
}

static int
PaxSymRestSlot(uint8 width)
{
	return PAX_SYMREST_AREA;
}

/*
 * PaxVarSlotBytes is the base-array slot of a column of the encodings whose
 * slot is an area (fixed-width rests, rests in symbols, scaled numerics).
 */
static int	PaxNumScaleSlot(uint8 width);

static int
PaxVarSlotBytes(uint8 width)
{
	switch (PaxEncodingOf(width, NULL))
	{
		case PAX_ENC_FIXREST:
			return PaxFixRestSlot(width);
		case PAX_ENC_SYMREST:
			return PaxSymRestSlot(width);
		case PAX_ENC_NUMSCALE:
			return PaxNumScaleSlot(width);
		default:
			return PaxPrefixSlot(width);
	}
}

/* PaxPrefixInitSlot writes a prefix area: its length byte and bytes. */
static void
PaxPrefixInitSlot(char *slot, uint8 width, int64 base, int64 factor,
				  const uint8 *prefix)
{
	memcpy(slot, prefix, prefix[0] + 1);
}

/* PaxAreaInitSlot writes the whole slot the shape chose (an alphabet too). */
static void
PaxAreaInitSlot(char *slot, uint8 width, int64 base, int64 factor,
				const uint8 *prefix)
{
	memcpy(slot, prefix, PaxVarSlotBytes(width));
}

/*
 * PaxPrefixLayout lays out a prefix-encoded varlena column: its prefix area
 * in the base array, then a plain varlena column's minipage of offsets.
 */
static bool
PaxPrefixLayout(Form_pg_attribute att, uint8 width, bool nullmap,
				PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	col->prefix = cur->bases;
	col->prefixmax = PaxPrefixAreaSize(width) - 1;
	cur->hasprefix = true;
	cur->bases += PaxPrefixSlot(width);
	PaxLayoutNullmap(nullmap, col, cur);
	cur->off = SHORTALIGN(cur->off);
	col->data = cur->off;
	cur->off += cur->capacity * PAX_VAROFF_SIZE;
	return true;
}

/*
 * PaxInMinipageLayout lays out a varlena column whose values are in its
 * minipage (PaxInMinipage): fixed-width rests, a prefix area then R bytes a
 * row; in symbols, an alphabet after the prefix area and R codes a row,
 * bit-packed; decimal-scaled numerics, their slot and b bits a row.
 */
static bool
PaxInMinipageLayout(Form_pg_attribute att, uint8 width, bool nullmap,
					PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	PaxEncoding enc = PaxEncodingOf(width, att);
	bool		num = enc == PAX_ENC_NUMSCALE;
	bool		sym = enc == PAX_ENC_SYMREST;
	int			rest = sym ? PaxSymRestBytes(width) :
		num ? 0 : PaxFixRestBytes(width);
	int			rowbits = num ? PaxNumScaleBits(width) :
		rest * (sym ? PAX_SYMREST_BITS : 0);

	if (num)
	{
		col->numslot = cur->bases;
		col->bits = rowbits;
	}
	else
	{
		col->prefix = cur->bases;
		col->prefixmax = PAX_FIXREST_AREA - 1;
		col->restwidth = rest;
		col->symbits = sym ? PAX_SYMREST_BITS : 0;
	}
	col->width = rowbits != 0 ? 0 : rest;
	cur->hasprefix = true;
	cur->bases += PaxVarSlotBytes(width);
	PaxLayoutNullmap(nullmap, col, cur);
	col->data = cur->off;
	cur->off += rowbits != 0 ? PaxPackedBytes(cur->capacity, rowbits) :
		cur->capacity * rest;
	return true;
}

static char *
PaxPrefixCheckWidth(Form_pg_attribute att, int attnum, uint8 width,
					bool absent)
{
	if (PaxEncodingOf(width, att) == PAX_ENC_NUMSCALE && !att->attisdropped &&
		att->atttypid != NUMERICOID)
		return psprintf("column %d of type %s is decimal-scaled", attnum,
						format_type_be(att->atttypid));
	if (absent)
		return psprintf("column %d without minipage is prefix-encoded",
						attnum);
	return NULL;
}

static void
PaxPrefixCheckSlot(Page page, const PaxColumnLayout *col,
				   PaxVerifyProblem report, void *arg)
{
	if ((uint8) page[col->prefix] > col->prefixmax)
		report(arg, psprintf("prefix of %u bytes is longer than its area holds (%u)",
							 (uint8) page[col->prefix], col->prefixmax));
}

/*
 * PaxSymRestCheckSlot checks the prefix length, then the alphabet of a
 * column of rests in symbols (a count, then the bytes): at most
 * PAX_SYMREST_MAX_SYMBOLS bytes, none of them zero (code 0 is the zero
 * byte), in ascending order, and zero bytes after them.
 */
static void
PaxSymRestCheckSlot(Page page, const PaxColumnLayout *col,
					PaxVerifyProblem report, void *arg)
{
	const uint8 *alpha = (const uint8 *) page + col->prefix + PAX_FIXREST_AREA;

	PaxPrefixCheckSlot(page, col, report, arg);
	if (alpha[0] > PAX_SYMREST_MAX_SYMBOLS)
	{
		report(arg, psprintf("alphabet of %u symbols is larger than its area holds (%u)",
							 alpha[0], PAX_SYMREST_MAX_SYMBOLS));
		return;
	}
	for (int c = 1; c <= PAX_SYMREST_MAX_SYMBOLS; c++)
	{
		if (c > alpha[0] ? alpha[c] != 0 : alpha[c] <= (c == 1 ? 0 : alpha[c - 1]))
		{
			report(arg, psprintf("alphabet's entry %d (0x%02X) is %s", c, alpha[c],
								 c > alpha[0] ? "past its symbols but not zero" :
								 "not above the one before"));
			return;
		}
	}
}

static char *
PaxPrefixDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = col->width;
	return pstrdup("prefix");
}

static char *
PaxFixRestDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = col->restwidth;
	return pstrdup("prefix, fixed-width rests");
}

static char *
PaxSymRestDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = col->restwidth;
	return psprintf("prefix, fixed-width rests in %d-bit codes (%d symbols)",
					col->symbits, page[col->prefix + PAX_FIXREST_AREA]);
}

static const PaxEncodingOps PaxEncPrefixOps = {
	.name = "prefix",
	.slotbytes = PaxPrefixSlot,
	.layout = PaxPrefixLayout,
	.initslot = PaxPrefixInitSlot,
	.checkwidth = PaxPrefixCheckWidth,
	.checkslot = PaxPrefixCheckSlot,
	.describe = PaxPrefixDescribe,
};

static const PaxEncodingOps PaxEncFixRestOps = {
	.name = "prefix, fixed-width rests",
	.inminipage = true,
	.slotbytes = PaxFixRestSlot,
	.layout = PaxInMinipageLayout,
	.initslot = PaxPrefixInitSlot,
	.checkwidth = PaxPrefixCheckWidth,
	.checkslot = PaxPrefixCheckSlot,
	.describe = PaxFixRestDescribe,
};

static const PaxEncodingOps PaxEncSymRestOps = {
	.name = "prefix, fixed-width rests in symbols",
	.inminipage = true,
	.slotbytes = PaxSymRestSlot,
	.layout = PaxInMinipageLayout,
	.initslot = PaxAreaInitSlot,
	.checkwidth = PaxPrefixCheckWidth,
	.checkslot = PaxSymRestCheckSlot,
	.describe = PaxSymRestDescribe,
};

/* ----------------------------------------------------------------
 * Decimal-scaled numerics
 * ----------------------------------------------------------------
 */

static int
PaxNumScaleSlot(uint8 width)
{
	return PAX_NUMSCALE_AREA;
}

static void
PaxNumScaleCheckSlot(Page page, const PaxColumnLayout *col,
					 PaxVerifyProblem report, void *arg)
{
	int64		slot[3];		/* base, factor, display scale */

	PaxNumSlot(page, col, slot);
	if (slot[1] < 1)
		report(arg, psprintf("factor " INT64_FORMAT " of a decimal-scaled numeric column is below 1",
							 slot[1]));
	if (slot[2] < 0 || slot[2] > PAX_NUM_SHORT_DSCALE_MAX)
		report(arg, psprintf("display scale " INT64_FORMAT " of a decimal-scaled numeric column is outside 0 .. %d",
							 slot[2], PAX_NUM_SHORT_DSCALE_MAX));
}

static char *
PaxNumScaleDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	int64		slot[3];

	PaxNumSlot(page, col, slot);
	*valuewidth = -1;
	return psprintf("decimal-scaled, scale %d, factor " INT64_FORMAT ", %d bits",
					(int) slot[2], slot[1], col->bits);
}

static const PaxEncodingOps PaxEncNumScaleOps = {
	.name = "decimal-scaled numeric",
	.packed = true,
	.inminipage = true,
	.slotbytes = PaxNumScaleSlot,
	.layout = PaxInMinipageLayout,
	.initslot = PaxAreaInitSlot,
	.checkwidth = PaxPrefixCheckWidth,
	.checkslot = PaxNumScaleCheckSlot,
	.describe = PaxNumScaleDescribe,
};

/*
 * PaxEncVarOps gives the operations of encoding enc if it is of this file's family
 * (variable-length columns), else NULL.
 */
const PaxEncodingOps *
PaxEncVarOps(PaxEncoding enc)
{
	switch (enc)
	{
		case PAX_ENC_DICT:
			return &PaxEncDictOps;
		case PAX_ENC_PREFIX:
			return &PaxEncPrefixOps;
		case PAX_ENC_FIXREST:
			return &PaxEncFixRestOps;
		case PAX_ENC_SYMREST:
			return &PaxEncSymRestOps;
		case PAX_ENC_NUMSCALE:
			return &PaxEncNumScaleOps;
		default:
			return NULL;
	}
}
