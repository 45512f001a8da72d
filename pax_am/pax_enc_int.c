/*-------------------------------------------------------------------------
 *
 * pax_enc_int.c
 *	  The encodings of fixed-width columns: plain, frame of reference in
 *	  bytes or bits, with a factor, decimal-scaled floats.
 *
 * Each encoding's entry of PaxEncodingOps (its layout, base array slot,
 * pax_verify's checks, pax_page_columns' name), fitting and storing a
 * value, and the whole-column readers of PaxScan's typed loops (filters,
 * aggregates, join filters): bit-packed offsets unpacked a group of rows
 * at a time with the bit count a constant, encoded values decoded into a
 * scratch array.
 *
 * pax_am/pax_enc_int.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupmacs.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"

/*
 * PaxEncodeEligible tells whether a column may be stored with frame of
 * reference encoding: integer-like pass-by-value types of 2, 4 or 8 bytes.
 * (Any such Datum reads back exactly; this list is the types whose values
 * cluster, where encoding saves bytes.)
 */
bool
PaxEncodeEligible(Form_pg_attribute att)
{
	if (att->attisdropped || !att->attbyval)
		return false;
	switch (att->atttypid)
	{
		case INT2OID:
		case INT4OID:
		case INT8OID:
		case OIDOID:
		case DATEOID:
		case TIMEOID:
		case TIMESTAMPOID:
		case TIMESTAMPTZOID:
			return att->attlen == 2 || att->attlen == 4 || att->attlen == 8;
		default:
			return false;
	}
}

/*
 * PAX_SWITCH_BITS expands STEP(b) for a bit count b of 1 .. 32 with b a
 * constant for the counts PaxChooseEncodings packs (1 .. 28), so that the
 * shift and mask of each row's read fold into the loop.
 */
#define PAX_SWITCH_BITS(bits, STEP) \
	switch (bits) \
	{ \
		case 1: STEP(1); break; \
		case 2: STEP(2); break; \
		case 3: STEP(3); break; \
		case 4: STEP(4); break; \
		case 5: STEP(5); break; \
		case 6: STEP(6); break; \
		case 7: STEP(7); break; \
		case 8: STEP(8); break; \
		case 9: STEP(9); break; \
		case 10: STEP(10); break; \
		case 11: STEP(11); break; \
		case 12: STEP(12); break; \
		case 13: STEP(13); break; \
		case 14: STEP(14); break; \
		case 15: STEP(15); break; \
		case 16: STEP(16); break; \
		case 17: STEP(17); break; \
		case 18: STEP(18); break; \
		case 19: STEP(19); break; \
		case 20: STEP(20); break; \
		case 21: STEP(21); break; \
		case 22: STEP(22); break; \
		case 23: STEP(23); break; \
		case 24: STEP(24); break; \
		case 25: STEP(25); break; \
		case 26: STEP(26); break; \
		case 27: STEP(27); break; \
		case 28: STEP(28); break; \
		default: STEP(bits); break; \
	}

/*
 * PAX_EACH_PACKED calls EACH(r, o) for each row r = 0 .. nrows-1 of the
 * bit-packed minipage `data` (b bits a row) with its offset o: eight rows
 * at a time take b bytes, so that with b constant (PAX_SWITCH_BITS) each
 * row's byte and shift within them are constants too (PAX_GROUP_GET: row
 * j of the group of eight starting at row g, as PaxPackedGet reads it).
 */
#define PAX_GROUP_GET(b, g, j) \
	((uint32) ((PaxPackedWord(data + ((g) / 8) * (b) + (j) * (b) / 8) >> \
				((j) * (b) % 8)) & ((UINT64CONST(1) << (b)) - 1)))
#define PAX_EACH_PACKED(b, nrows, EACH) \
	do { \
		int			g_ = 0; \
		\
		for (; g_ + 8 <= (nrows); g_ += 8) \
		{ \
			EACH(g_, PAX_GROUP_GET(b, g_, 0)); \
			EACH(g_ + 1, PAX_GROUP_GET(b, g_, 1)); \
			EACH(g_ + 2, PAX_GROUP_GET(b, g_, 2)); \
			EACH(g_ + 3, PAX_GROUP_GET(b, g_, 3)); \
			EACH(g_ + 4, PAX_GROUP_GET(b, g_, 4)); \
			EACH(g_ + 5, PAX_GROUP_GET(b, g_, 5)); \
			EACH(g_ + 6, PAX_GROUP_GET(b, g_, 6)); \
			EACH(g_ + 7, PAX_GROUP_GET(b, g_, 7)); \
		} \
		for (; g_ < (nrows); g_++) \
			EACH(g_, PaxPackedGet(data, (b), g_)); \
	} while (0)

/*
 * PAX_UNPACK_GROUPS stores base + the offset of each row 0 .. nrows-1 of
 * the bit-packed minipage `data` in out[] as dtype.
 */
#define PAX_UNPACK_GROUPS(dtype, out, b, nrows, base) \
	do { \
		dtype	   *out_ = (out); \
		uint64		base_ = (uint64) (base); \
		\
		PAX_EACH_PACKED(b, nrows, PAX_UNPACK_STORE); \
	} while (0)
#define PAX_UNPACK_STORE(r, o)	(out_[(r)] = base_ + (o))

/*
 * PaxPackedColumnStats sets *sum, *lo and *hi to the sum (modulo 2^64, as
 * int64 additions in any order give it), least and greatest of the values
 * of rows 0 .. nrows-1 (nrows > 0) of a bit-packed column: the offsets
 * summed and compared as they are unpacked, the base added once (and a
 * factored column's factor applied once) (PaxScan's aggregates over pages
 * whose rows all count).
 */
void
PaxPackedColumnStats(Page page, const PaxColumnLayout *col, int nrows,
					 int64 *sum, int64 *lo, int64 *hi)
{
	const char *data = page + col->data;
	int64		base = PaxColumnBase(page, col);
	uint64		soff = 0;
	uint32		mn = PG_UINT32_MAX;
	uint32		mx = 0;

#define PAX_STAT_ONE(r, o) \
	do { \
		uint32		o_ = (o); \
		\
		soff += o_; \
		mn = Min(mn, o_); \
		mx = Max(mx, o_); \
	} while (0)
#define PAX_STAT_ALL(b) PAX_EACH_PACKED(b, nrows, PAX_STAT_ONE)

	Assert(col->bits != 0 && col->base != 0 && !col->scaled && nrows > 0);
	PAX_SWITCH_BITS(col->bits, PAX_STAT_ALL);
#undef PAX_STAT_ALL
#undef PAX_STAT_ONE
	if (col->factored)
	{
		/* base + offset * factor: the factor applied once too */
		uint64		factor = (uint64) PaxColumnFactor(page, col);

		*sum = (int64) ((uint64) base * (uint64) nrows + soff * factor);
		*lo = (int64) ((uint64) base + mn * factor);
		*hi = (int64) ((uint64) base + mx * factor);
		return;
	}
	*sum = (int64) ((uint64) base * (uint64) nrows + soff);
	*lo = (int64) ((uint64) base + mn);
	*hi = (int64) ((uint64) base + mx);
}

/*
 * PaxUnpackSelected unpacks the rows sel[0..n) of a bit-packed minipage
 * into out[], each at its row's index (the other entries are left as they
 * are): the typed loops then read out[] as a minipage of 4-byte offsets.
 * sel ascends, so n rows ending at row n-1 are rows 0 .. n-1.
 */
static void
PaxUnpackSelected(const char *data, int bits, const uint16 *sel, int n,
				  uint32 *out)
{
#define PAX_UNPACK_SEL(b) \
	for (int k = 0; k < n; k++) \
		out[sel[k]] = PaxPackedGet(data, (b), sel[k])

#define PAX_UNPACK_ALL(b) PAX_UNPACK_GROUPS(uint32, out, (b), n, 0)

	if (n > 0 && sel[n - 1] == n - 1)
	{
		/* every row 0 .. n-1 (sel ascends): the unrolled loop */
		PAX_SWITCH_BITS(bits, PAX_UNPACK_ALL);
	}
	else
		PAX_SWITCH_BITS(bits, PAX_UNPACK_SEL);
#undef PAX_UNPACK_ALL
#undef PAX_UNPACK_SEL
}

/*
 * PaxPackedFilterRange keeps the rows of sel[0..n) whose offset in a
 * bit-packed minipage lies in [lo, hi] (none when lo > hi), and returns
 * how many are left: each selected row's offset is compared as it is
 * unpacked, without storing it (the typed loops over PaxColumnOffsets'
 * scratch would read it back), over a whole page eight rows (b bytes) at a
 * time.  One unsigned comparison a row, as in PaxFilterIntRange.
 */
int
PaxPackedFilterRange(Page page, const PaxColumnLayout *col, uint64 lo,
					 uint64 hi, uint16 *sel, int n)
{
	const char *data = page + col->data;
	uint64		width = hi - lo;
	int			m = 0;

	Assert(col->bits != 0);
	if (lo > hi || n == 0)
		return 0;

#define PAX_KEEP_ONE(r, o) \
	do { \
		sel[m] = (r); \
		m += ((uint64) (o) - lo <= width); \
	} while (0)
#define PAX_KEEP_ALL(b) PAX_EACH_PACKED(b, n, PAX_KEEP_ONE)
#define PAX_KEEP_SEL(b) \
	for (int k = 0; k < n; k++) \
		PAX_KEEP_ONE(sel[k], PaxPackedGet(data, (b), sel[k]))

	if (sel[n - 1] == n - 1)
	{
		/* every row 0 .. n-1 (sel ascends): the unrolled loop */
		PAX_SWITCH_BITS(col->bits, PAX_KEEP_ALL);
	}
	else
		PAX_SWITCH_BITS(col->bits, PAX_KEEP_SEL);
#undef PAX_KEEP_SEL
#undef PAX_KEEP_ALL
#undef PAX_KEEP_ONE
	return m;
}

/*
 * PaxColumnOffsets returns the stored offsets from the base of an encoded
 * column, at least of the rows sel[0..n), and sets *width to their width
 * in bytes: the minipage itself for a byte width, else those rows'
 * offsets unpacked into scratch, at their rows' indexes, as 4-byte ones
 * (room for PAX_MAX_CAPACITY of them; a second predicate on a packed
 * column unpacks only the rows the first one kept).  The typed loops that
 * compare offsets (PaxFilter) read through it.
 */
const char *
PaxColumnOffsets(Page page, const PaxColumnLayout *col, const uint16 *sel,
				 int n, char *scratch, int *width)
{
	Assert(col->base != 0);
	if (col->bits == 0 && col->width == 0)
	{
		/* constant: every offset 0 */
		if (n > 0)
			memset(scratch, 0, sel[n - 1] + 1);
		*width = 1;
		return scratch;
	}
	if (col->bits == 0)
	{
		*width = col->width;
		return page + col->data;
	}
	PaxUnpackSelected(page + col->data, col->bits, sel, n, (uint32 *) scratch);
	*width = sizeof(uint32);
	return scratch;
}

/*
 * A scratch array for PaxColumnFixedData that a caller uses until its next
 * call: the values of one column of one page at a time.
 */
static union
{
	int64		align;
	char		bytes[PAX_MAX_CAPACITY * sizeof(int64)];
}			PaxDecodeScratchData;
char	   *PaxDecodeScratch = PaxDecodeScratchData.bytes;

/*
 * PaxColumnFixedData returns the values of rows 0 .. nrows-1 of a
 * fixed-width column laid out on the page as an array of attlen-wide
 * values, as an unencoded minipage stores them: the minipage itself, or
 * for an encoded column its values decoded into scratch (room for
 * PAX_MAX_CAPACITY values of 8 bytes, suitably aligned).  The typed loops
 * of PaxScan (filters, aggregates, join filters) read through it.
 */
const char *
PaxColumnFixedData(Page page, const PaxColumnLayout *col, int nrows,
				   char *scratch)
{
	const char *data = page + col->data;
	int64		base;

	Assert(col->data != 0 && col->attlen > 0);
	if (col->base == 0)
		return data;
	base = PaxColumnBase(page, col);
	if (col->bits == 0 && col->width == 0)
	{
		/* constant: the base in every row */
		for (int r = 0; r < nrows; r++)
		{
			if (col->attlen == 2)
				((int16 *) scratch)[r] = (int16) base;
			else if (col->attlen == 4)
				((int32 *) scratch)[r] = (int32) base;
			else
				((int64 *) scratch)[r] = base;
		}
		return scratch;
	}
	if (col->scaled)
	{
		/* (base + offset) / divisor, as a double, a row at a time */
		int64		d = PaxColumnFactor(page, col);

		for (int r = 0; r < nrows; r++)
		{
			Datum		v = PaxScaledDatum((int64) ((uint64) base +
													PaxPackedGet(data, col->bits, r)),
										   d, col->attlen);

			if (col->attlen == 4)
				((float4 *) scratch)[r] = DatumGetFloat4(v);
			else
				((float8 *) scratch)[r] = DatumGetFloat8(v);
		}
		return scratch;
	}
	if (col->factored)
	{
		/* base + offset * factor, a row at a time */
		uint64		factor = (uint64) PaxColumnFactor(page, col);

		for (int r = 0; r < nrows; r++)
		{
			int64		v = (int64) ((uint64) base +
									 PaxPackedGet(data, col->bits, r) * factor);

			if (col->attlen == 2)
				((int16 *) scratch)[r] = (int16) v;
			else if (col->attlen == 4)
				((int32 *) scratch)[r] = (int32) v;
			else
				((int64 *) scratch)[r] = v;
		}
		return scratch;
	}

#define PAX_DECODE(dtype, stype) \
	do { \
		const stype *in = (const stype *) data; \
		dtype	   *out = (dtype *) scratch; \
		for (int r = 0; r < nrows; r++) \
			out[r] = (dtype) ((uint64) base + in[r]); \
	} while (0)
#define PAX_DECODE_TO(dtype) \
	do { \
		if (col->width == 1) \
			PAX_DECODE(dtype, uint8); \
		else if (col->width == 2) \
			PAX_DECODE(dtype, uint16); \
		else \
			PAX_DECODE(dtype, uint32); \
	} while (0)

	if (col->bits != 0)
	{
		/* bit-packed: each row's bits read and the base added, one pass */
#define PAX_UNPACK_TO(dtype, b) \
		PAX_UNPACK_GROUPS(dtype, (dtype *) scratch, (b), nrows, base)
#define PAX_UNPACK4(b)	PAX_UNPACK_TO(int32, b)
#define PAX_UNPACK8(b)	PAX_UNPACK_TO(int64, b)

		if (col->attlen == 4)
			PAX_SWITCH_BITS(col->bits, PAX_UNPACK4)
		else if (col->attlen == 8)
			PAX_SWITCH_BITS(col->bits, PAX_UNPACK8)
		else
			PAX_UNPACK_TO(int16, col->bits);
#undef PAX_UNPACK8
#undef PAX_UNPACK4
#undef PAX_UNPACK_TO
		return scratch;
	}
	if (col->attlen == 2)
		PAX_DECODE_TO(int16);
	else if (col->attlen == 4)
		PAX_DECODE_TO(int32);
	else
		PAX_DECODE_TO(int64);
#undef PAX_DECODE_TO
#undef PAX_DECODE
	return scratch;
}

/* ----------------------------------------------------------------
 * Encoded minipages
 * ----------------------------------------------------------------
 */

/*
 * PaxEncodedFits tells whether a non-null value can be stored in an encoded
 * column of the page: whether it lies within the column's base and its
 * base plus the largest offset its width holds, times a factored column's
 * factor (PaxEncodedValueFits); for a decimal-scaled column, its integer
 * (PaxScaledKey) does.
 */
bool
PaxEncodedFits(Page page, const PaxColumnLayout *col, Datum value)
{
	int64		k;

	Assert(col->base != 0);
	return PaxEncodedKey(value, col->attlen, PaxColumnDivisor(page, col), &k) &&
		PaxEncodedValueFits(k, PaxColumnBase(page, col),
							col->factored ? (uint64) PaxColumnFactor(page, col) : 1,
							PaxEncodedMaxDelta(col));
}

/*
 * PaxEncodedStore stores a non-null value that PaxEncodedFits in row `row`
 * of an encoded column (of the private copy of an exclusively locked
 * page).
 */
void
PaxEncodedStore(Page page, const PaxColumnLayout *col, int row, Datum value)
{
	int64		k = 0;
	uint64		delta;
	char	   *data = page + col->data;

	Assert(PaxEncodedFits(page, col, value));
	(void) PaxEncodedKey(value, col->attlen, PaxColumnDivisor(page, col), &k);
	delta = (uint64) k - (uint64) PaxColumnBase(page, col);
	if (col->factored)
		delta /= (uint64) PaxColumnFactor(page, col);
	if (col->bits != 0)
	{
		PaxPackedPut(data, col->bits, row, (uint32) delta);
		return;
	}
	switch (col->width)
	{
		case 1:
			((uint8 *) data)[row] = (uint8) delta;
			break;
		case 2:
			((uint16 *) data)[row] = (uint16) delta;
			break;
		case 4:
			((uint32 *) data)[row] = (uint32) delta;
			break;
		default:
			break;				/* constant: the base is the value */
	}
}

/* ----------------------------------------------------------------
 * Layout, slots, checks and names
 * ----------------------------------------------------------------
 */

/*
 * PaxIntSuits tells whether a fixed-width column's type can be stored from
 * a base: pass-by-value integer-like sizes (2, 4 or 8 bytes).
 */
static bool
PaxIntSuits(Form_pg_attribute att)
{
	return att->attbyval &&
		(att->attlen == 2 || att->attlen == 4 || att->attlen == 8);
}

/* PaxNoSlot: an encoding without a slot in the base array. */
static int
PaxNoSlot(uint8 width)
{
	return 0;
}

/* PaxBaseSlot: an int64 base. */
static int
PaxBaseSlot(uint8 width)
{
	return sizeof(int64);
}

/* PaxFactorSlot: an int64 base, then an int64 factor (or divisor). */
static int
PaxFactorSlot(uint8 width)
{
	return 2 * sizeof(int64);
}

static void
PaxInitBase(char *slot, uint8 width, int64 base, int64 factor,
			const uint8 *prefix)
{
	memcpy(slot, &base, sizeof(int64));
}

static void
PaxInitFactor(char *slot, uint8 width, int64 base, int64 factor,
			  const uint8 *prefix)
{
	memcpy(slot, &base, sizeof(int64));
	memcpy(slot + sizeof(int64), &factor, sizeof(int64));
}

/*
 * PaxPlainLayout lays out a column at full width: attlen bytes a row at
 * its alignment, or a value offset a row (SHORTALIGN'd).
 */
static bool
PaxPlainLayout(Form_pg_attribute att, uint8 width, bool nullmap,
			   PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	PaxLayoutNullmap(nullmap, col, cur);
	if (att->attlen > 0)
	{
		cur->off = att_align_nominal(cur->off, att->attalign);
		col->data = cur->off;
		cur->off += cur->capacity * att->attlen;
	}
	else
	{
		cur->off = SHORTALIGN(cur->off);
		col->data = cur->off;
		cur->off += cur->capacity * PAX_VAROFF_SIZE;
	}
	return true;
}

/*
 * PaxBytesLayout lays out a column of 1, 2 or 4 bytes a row from its base,
 * aligned to that width.
 */
static bool
PaxBytesLayout(Form_pg_attribute att, uint8 width, bool nullmap,
			   PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	if (!PaxIntSuits(att) || PaxScaleEligible(att) || width >= att->attlen)
		return false;
	col->base = cur->bases;
	col->width = width;
	cur->bases += PaxBaseSlot(width);
	PaxLayoutNullmap(nullmap, col, cur);
	cur->off = TYPEALIGN(width, cur->off);
	col->data = cur->off;
	cur->off += cur->capacity * width;
	return true;
}

/*
 * PaxPackedLayoutBits lays out a column of `bits` bits a row from its base
 * (plain, factored or decimal-scaled), unaligned.
 */
static bool
PaxPackedLayoutBits(Form_pg_attribute att, int bits, bool nullmap,
					PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	if (!PaxIntSuits(att) || bits >= 8 * att->attlen)
		return false;
	col->base = cur->bases;
	col->width = 0;
	col->bits = bits;
	cur->bases += col->factored || col->scaled ? PaxFactorSlot(0) :
		PaxBaseSlot(0);
	PaxLayoutNullmap(nullmap, col, cur);
	col->data = cur->off;
	cur->off += PaxPackedBytes(cur->capacity, bits);
	return true;
}

static bool
PaxPackedLayout(Form_pg_attribute att, uint8 width, bool nullmap,
				PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	return !PaxScaleEligible(att) &&
		PaxPackedLayoutBits(att, PaxPackedBits(width), nullmap, col, cur);
}

static bool
PaxFactorLayout(Form_pg_attribute att, uint8 width, bool nullmap,
				PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	col->factored = true;
	return PaxPackedLayoutBits(att, PaxFactorBits(width), nullmap, col, cur);
}

static bool
PaxScaledLayout(Form_pg_attribute att, uint8 width, bool nullmap,
				PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	col->scaled = true;
	return PaxPackedLayoutBits(att, PaxFactorBits(width), nullmap, col, cur);
}

/*
 * PaxConstLayout lays out a constant column: its base, its null bitmap,
 * no minipage (col->data is where one would start, so that the column is
 * not absent).
 */
static bool
PaxConstLayout(Form_pg_attribute att, uint8 width, bool nullmap,
			   PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	if (!PaxIntSuits(att) || PaxScaleEligible(att))
		return false;
	col->base = cur->bases;
	col->width = 0;
	cur->bases += PaxBaseSlot(width);
	PaxLayoutNullmap(nullmap, col, cur);
	col->data = cur->off;
	return true;
}

static bool
PaxInvalidLayout(Form_pg_attribute att, uint8 width, bool nullmap,
				 PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	return false;
}

/*
 * PaxIntTypeProblem is pax_verify's problem with an encoded column's type
 * when its width byte suits its length: a type whose values do not
 * cluster is never encoded (PaxEncodeEligible), a float only scaled.
 */
static char *
PaxIntTypeProblem(Form_pg_attribute att, int attnum, uint8 width)
{
	if (!att->attisdropped && !PaxEncodeEligible(att) &&
		PaxEncodingOf(width, att) != PAX_ENC_SCALED_FLOAT)
		return psprintf("column %d of type %s is encoded", attnum,
						format_type_be(att->atttypid));
	return NULL;
}

static char *
PaxBytesCheckWidth(Form_pg_attribute att, int attnum, uint8 width,
				   bool absent)
{
	if (absent)
		return psprintf("column %d has the invalid encoded width %d", attnum,
						width);
	if (!PaxIntSuits(att) || width >= att->attlen)
		return psprintf("column %d has encoded width %d, which does not suit its length %d",
						attnum, width, att->attlen);
	return PaxIntTypeProblem(att, attnum, width);
}

static char *
PaxPackedCheckWidth(Form_pg_attribute att, int attnum, uint8 width,
					bool absent)
{
	int			bits = PaxEncodingOf(width, att) == PAX_ENC_PACKED ?
		PaxPackedBits(width) : PaxFactorBits(width);

	if (absent)
		return psprintf("column %d has the invalid encoded width %d", attnum,
						width);
	if (!PaxIntSuits(att) || bits >= 8 * att->attlen)
		return psprintf("column %d is bit-packed in %d bits, which does not suit its length %d",
						attnum, bits, att->attlen);
	return PaxIntTypeProblem(att, attnum, width);
}

static char *
PaxConstCheckWidth(Form_pg_attribute att, int attnum, uint8 width,
				   bool absent)
{
	if (absent)
		return psprintf("column %d has the invalid encoded width %d", attnum,
						width);
	if (!PaxIntSuits(att))
		return psprintf("column %d is constant, which does not suit its length %d",
						attnum, att->attlen);
	return PaxIntTypeProblem(att, attnum, width);
}

static char *
PaxInvalidCheckWidth(Form_pg_attribute att, int attnum, uint8 width,
					 bool absent)
{
	if (att->attlen < 0)
		return psprintf("column %d has the invalid dictionary width 0x%02X",
						attnum, width);
	return psprintf("column %d has the invalid encoded width %d", attnum,
					width);
}

/*
 * PaxBaseCheckSlot: the base of an integer column's frame of reference is
 * a value of its type (the rows at offset 0 have it), within the range of
 * its 2- or 4-byte type: readers that widen it to int64 (PaxScan's
 * filters and sums) would otherwise see another value than the rows' own.
 */
static void
PaxBaseCheckSlot(Page page, const PaxColumnLayout *col,
				 PaxVerifyProblem report, void *arg)
{
	int64		base = PaxColumnBase(page, col);

	if ((col->attlen == 2 && (base < PG_INT16_MIN || base > PG_INT16_MAX)) ||
		(col->attlen == 4 && (base < PG_INT32_MIN || base > PG_INT32_MAX)))
		report(arg, psprintf("base " INT64_FORMAT " is outside the range of the column's %d-byte type",
							 base, col->attlen));
}

/* (a dropped float column's scale looks like a factor: unchecked) */
static void
PaxFactorCheckSlot(Page page, const PaxColumnLayout *col,
				   PaxVerifyProblem report, void *arg)
{
	if (!col->dropped && PaxColumnFactor(page, col) < 2)
		report(arg, psprintf("factor " INT64_FORMAT " of a factored column is below 2",
							 PaxColumnFactor(page, col)));
	PaxBaseCheckSlot(page, col, report, arg);
}

static void
PaxScaledCheckSlot(Page page, const PaxColumnLayout *col,
				   PaxVerifyProblem report, void *arg)
{
	if (!PaxIsScaleDivisor(PaxColumnFactor(page, col)))
		report(arg, psprintf("divisor " INT64_FORMAT " of a decimal-scaled column is not a power of ten up to 10^%d",
							 PaxColumnFactor(page, col), PAX_SCALE_MAX));
}


static char *
PaxPlainDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = col->width;
	return pstrdup("plain");
}

static char *
PaxBytesDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = col->width;
	return pstrdup("frame of reference");
}

static char *
PaxPackedDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = -1;
	return psprintf("frame of reference, %d bits", col->bits);
}

static char *
PaxFactorDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = -1;
	return psprintf("frame of reference, factor " INT64_FORMAT ", %d bits",
					PaxColumnFactor(page, col), col->bits);
}

static char *
PaxScaledDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = -1;
	return psprintf("decimal-scaled, divisor " INT64_FORMAT ", %d bits",
					PaxColumnFactor(page, col), col->bits);
}

static const PaxEncodingOps PaxEncPlainOps = {
	.name = "plain",
	.slotbytes = PaxNoSlot,
	.layout = PaxPlainLayout,
	.describe = PaxPlainDescribe,
};

static const PaxEncodingOps PaxEncBytesOps = {
	.name = "frame of reference",
	.slotbytes = PaxBaseSlot,
	.layout = PaxBytesLayout,
	.initslot = PaxInitBase,
	.checkwidth = PaxBytesCheckWidth,
	.checkslot = PaxBaseCheckSlot,
	.describe = PaxBytesDescribe,
};

static const PaxEncodingOps PaxEncPackedOps = {
	.name = "bit-packed frame of reference",
	.packed = true,
	.slotbytes = PaxBaseSlot,
	.layout = PaxPackedLayout,
	.initslot = PaxInitBase,
	.checkwidth = PaxPackedCheckWidth,
	.checkslot = PaxBaseCheckSlot,
	.describe = PaxPackedDescribe,
};

static const PaxEncodingOps PaxEncFactorOps = {
	.name = "factored frame of reference",
	.packed = true,
	.slotbytes = PaxFactorSlot,
	.layout = PaxFactorLayout,
	.initslot = PaxInitFactor,
	.checkwidth = PaxPackedCheckWidth,
	.checkslot = PaxFactorCheckSlot,
	.describe = PaxFactorDescribe,
};

static const PaxEncodingOps PaxEncScaledOps = {
	.name = "decimal-scaled float",
	.packed = true,
	.slotbytes = PaxFactorSlot,
	.layout = PaxScaledLayout,
	.initslot = PaxInitFactor,
	.checkwidth = PaxPackedCheckWidth,
	.checkslot = PaxScaledCheckSlot,
	.describe = PaxScaledDescribe,
};

static char *
PaxConstDescribe(Page page, const PaxColumnLayout *col, int *valuewidth)
{
	*valuewidth = 0;
	return pstrdup("constant");
}

static const PaxEncodingOps PaxEncConstOps = {
	.name = "constant",
	.packed = true,
	.slotbytes = PaxBaseSlot,
	.layout = PaxConstLayout,
	.initslot = PaxInitBase,
	.checkwidth = PaxConstCheckWidth,
	.checkslot = PaxBaseCheckSlot,
	.describe = PaxConstDescribe,
};

/* a width byte no encoding of the column's kind has: the page is corrupted */
static const PaxEncodingOps PaxEncInvalidOps = {
	.name = "invalid",
	.slotbytes = PaxBaseSlot,
	.layout = PaxInvalidLayout,
	.initslot = PaxInitBase,
	.checkwidth = PaxInvalidCheckWidth,
	.describe = PaxPlainDescribe,
};

/*
 * PaxEncIntOps gives the operations of encoding enc if it is of this file's family
 * (fixed-width columns; and the operations of an invalid width byte),
 * else NULL.
 */
const PaxEncodingOps *
PaxEncIntOps(PaxEncoding enc)
{
	switch (enc)
	{
		case PAX_ENC_PLAIN:
			return &PaxEncPlainOps;
		case PAX_ENC_BYTES:
			return &PaxEncBytesOps;
		case PAX_ENC_PACKED:
			return &PaxEncPackedOps;
		case PAX_ENC_FACTOR:
			return &PaxEncFactorOps;
		case PAX_ENC_SCALED_FLOAT:
			return &PaxEncScaledOps;
		case PAX_ENC_CONST:
			return &PaxEncConstOps;
		case PAX_ENC_INVALID:
			return &PaxEncInvalidOps;
		default:
			return NULL;
	}
}
