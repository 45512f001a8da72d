/*-------------------------------------------------------------------------
 *
 * pax_minipage.c
 *	  Reading whole minipages: which columns an encoding takes, and decoding\n *\t  a page's column at a time.
 *
 * PaxScan's typed loops (filters, aggregates, join filters) read a page's\ncolumn at once: bit-packed offsets unpacked a group of rows at a time with\nthe bit count a constant, encoded values decoded into a scratch array.
 *
 * pax_am/pax_minipage.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "port/pg_bitutils.h"

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
 * PaxScaleEligible tells whether a column may be stored decimal-scaled
 * (PAX_FACTOR_FLAG on a float column): float4, and float8 where it is
 * passed by value.
 */
bool
PaxScaleEligible(Form_pg_attribute att)
{
	return !att->attisdropped && att->attbyval &&
		((att->atttypid == FLOAT8OID && att->attlen == 8) ||
		 (att->atttypid == FLOAT4OID && att->attlen == 4));
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
