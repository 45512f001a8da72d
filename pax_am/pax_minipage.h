/*-------------------------------------------------------------------------
 *
 * pax_minipage.h
 *	  Reading and storing values of pax minipages.
 *
 * Inline readers of one row's value in one column's minipage, whatever
 * its encoding (pax_encoding.h): fixed-width and encoded integers, value
 * offsets and dictionary codes, prefixes and their rests, and the value
 * area's storage rules for variable-length values (as heap_fill_tuple's).
 *
 * pax_am/pax_minipage.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_MINIPAGE_H
#define PAX_MINIPAGE_H

#include "access/tupmacs.h"
#include "catalog/pg_attribute.h"

#include "pax_encoding.h"
#include "pax_numscale.h"

/*
 * PaxBlankTrimmedLen gives the length of the n bytes at p without their
 * trailing blanks, the bytes bpchar's comparisons look at (bcTruelen() in
 * varchar.c, PostgreSQL 15): eight blanks at a time, then one at a time.
 */
static inline int
PaxBlankTrimmedLen(const char *p, int n)
{
	uint64		w;

	while (n >= 8)
	{
		memcpy(&w, p + n - 8, sizeof(w));
		if (w != UINT64CONST(0x2020202020202020))
			break;
		n -= 8;
	}
	while (n > 0 && p[n - 1] == ' ')
		n--;
	return n;
}

/*
 * PaxStringDatumBytes gives a text-like value's bytes and their length:
 * detoasted (in the current memory context) when out-of-line or
 * compressed, and for bpchar (blankpad) without trailing blanks.
 */
static inline const char *
PaxStringDatumBytes(Datum d, bool blankpad, int *len)
{
	struct varlena *v = pg_detoast_datum_packed((struct varlena *) DatumGetPointer(d));
	const char *p = VARDATA_ANY(v);

	*len = VARSIZE_ANY_EXHDR(v);
	if (blankpad)
		*len = PaxBlankTrimmedLen(p, *len);
	return p;
}

/* PaxDictCode reads row `row`'s code of a dictionary-encoded column. */
static inline uint32
PaxDictCode(Page page, const PaxColumnLayout *col, int row)
{
	if (col->bits != 0)
		return PaxPackedGet(page + col->data, col->bits, row);
	return ((const uint8 *) (page + col->data))[row];
}

/* PaxDictCodeSet stores row `row`'s code of a dictionary-encoded column. */
static inline void
PaxDictCodeSet(Page page, const PaxColumnLayout *col, int row, uint32 code)
{
	if (col->bits != 0)
		PaxPackedPut(page + col->data, col->bits, row, code);
	else
		((uint8 *) (page + col->data))[row] = (uint8) code;
}

/*
 * PaxVarOffset is the value-area offset of row `row` of a variable-length
 * column laid out on the page (col->data != 0): its stored offset, or for a
 * dictionary-encoded column its code's entry (0, which no reader accepts,
 * for a code beyond the dictionary).
 */
static inline uint16
PaxVarOffset(Page page, const PaxColumnLayout *col, int row)
{
	uint32		code;

	if (col->dict == 0)
		return ((const uint16 *) (page + col->data))[row];
	code = PaxDictCode(page, col, row);
	if (unlikely(code >= col->dictcap))
		return 0;
	return ((const uint16 *) (page + col->dict))[code];
}

/* PaxDictUsed is the number of entries in use of a dictionary. */
static inline uint16
PaxDictUsed(Page page, const PaxColumnLayout *col)
{
	uint16		used;

	memcpy(&used, page + col->dictused, sizeof(uint16));
	return used;
}

/*
 * PaxPrefixShort builds the value of a prefix-encoded column whose rest is
 * the short varlena p (inside the page) into cell: the short varlena of
 * the column's prefix and the rest's data (pax_encoding.h, "Prefix encoding").  NULL
 * when the page's bytes cannot be such a value (a prefix longer than its
 * area, a value longer than a short varlena): corrupted.
 */
static inline const char *
PaxPrefixShort(Page page, const PaxColumnLayout *col, const char *p,
			   char *cell)
{
	uint8		plen = *(const uint8 *) (page + col->prefix);
	int			rest = VARSIZE_1B(p) - VARHDRSZ_SHORT;

	if (plen > col->prefixmax || VARHDRSZ_SHORT + plen + rest > VARATT_SHORT_MAX)
		return NULL;
	SET_VARSIZE_SHORT(cell, VARHDRSZ_SHORT + plen + rest);
	memcpy(cell + VARHDRSZ_SHORT, page + col->prefix + 1, plen);
	memcpy(cell + VARHDRSZ_SHORT + plen, p + VARHDRSZ_SHORT, rest);
	return cell;
}

/*
 * PaxFixRestShort builds the value of row `row` of a prefix-encoded column
 * of fixed-width rests into cell: the short varlena of the prefix and the
 * row's rest (its bytes up to the zero padding).  NULL when the prefix is
 * longer than its area: corrupted.
 */
static inline const char *
PaxFixRestShort(Page page, const PaxColumnLayout *col, int row, char *cell)
{
	uint8		plen = *(const uint8 *) (page + col->prefix);
	char	   *rest = cell + VARHDRSZ_SHORT + plen;
	int			len = col->restwidth;

	if (plen > col->prefixmax)
		return NULL;
	if (col->symbits != 0)
	{
		/* in symbols: each code through the page's alphabet */
		const uint8 *alpha = (const uint8 *) page + col->prefix + PAX_FIXREST_AREA;
		uint32		bit = (uint32) row * len * PAX_SYMREST_BITS;

		for (int j = 0; j < len; j += PAX_SYMREST_CHUNK)
		{
			int			m = Min(PAX_SYMREST_CHUNK, len - j);
			uint64		w = PaxBitsGet(page + col->data, bit + j * PAX_SYMREST_BITS,
									   m * PAX_SYMREST_BITS);

			for (int t = 0; t < m; t++, w >>= PAX_SYMREST_BITS)
			{
				uint32		c = (uint32) (w & ((1 << PAX_SYMREST_BITS) - 1));

				if (c > alpha[0])
					return NULL;
				rest[j + t] = c == 0 ? 0 : (char) alpha[c];
			}
		}
	}
	else
		memcpy(rest, page + col->data + row * len, len);
	while (len > 0 && rest[len - 1] == 0)
		len--;
	SET_VARSIZE_SHORT(cell, VARHDRSZ_SHORT + plen + len);
	memcpy(cell + VARHDRSZ_SHORT, page + col->prefix + 1, plen);
	return cell;
}

/*
 * PaxInMinipage tells whether a varlena column's values are in its
 * minipage (fixed-width rests, decimal-scaled numerics): no offsets, no
 * value area; PaxMinipageShort builds a row's value into cell (NULL:
 * corrupted).
 */
#define PaxInMinipage(col)	((col)->restwidth != 0 || (col)->numslot != 0)

/*
 * PaxInValueArea tells whether a column's values lie in the page's value
 * area behind offsets (a varlena column neither dictionary-encoded nor
 * held in its minipage): the only values a freed row gives room back from.
 */
#define PaxInValueArea(col) \
	((col)->data != 0 && (col)->attlen < 0 && (col)->dict == 0 && \
	 !PaxInMinipage(col))

/*
 * PaxDecodes tells whether a varlena column's values are built into decode
 * cells (prefix-encoded, decimal-scaled numerics) rather than read in the
 * page: a reader keeping several rows' values copies them.
 */
#define PaxDecodes(col)		((col)->prefix != 0 || (col)->numslot != 0)

static inline const char *
PaxMinipageShort(Page page, const PaxColumnLayout *col, int row, char *cell)
{
	return col->numslot != 0 ? PaxNumScaledShort(page, col, row, cell) :
		PaxFixRestShort(page, col, row, cell);
}

/*
 * PaxSymCode is the code of byte b in the alphabet alpha of a column of
 * fixed-width rests in symbols (a count, then the bytes): 0 for the zero
 * byte, -1 for a byte not in it.
 */
static inline int
PaxSymCode(const uint8 *alpha, uint8 b)
{
	int			lo = 1;
	int			hi = Min(alpha[0], PAX_SYMREST_MAX_SYMBOLS);

	if (b == 0)
		return 0;
	/* the alphabet is in ascending order; often a run (digits) */
	if (hi >= 1 && alpha[hi] - alpha[1] == hi - 1)
		return b >= alpha[1] && b <= alpha[hi] ? b - alpha[1] + 1 : -1;
	while (lo <= hi)
	{
		int			mid = (lo + hi) / 2;

		if (alpha[mid] == b)
			return mid;
		if (alpha[mid] < b)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/*
 * PaxRestStore stores row `row`'s rest, `rest` (zero-padded to the
 * column's width), in a minipage of fixed-width rests: its bytes, or for
 * rests in symbols, codes (their codes through the page's alphabet: each a
 * symbol's, PaxSymCode), a chunk at a time.  NULL rest: zeroes.
 */
static inline void
PaxRestStore(Page page, const PaxColumnLayout *col, int row, const uint8 *rest)
{
	int			len = col->restwidth;

	if (col->symbits != 0)
	{
		uint32		bit = (uint32) row * len * PAX_SYMREST_BITS;

		for (int j = 0; j < len; j += PAX_SYMREST_CHUNK)
		{
			int			m = Min(PAX_SYMREST_CHUNK, len - j);
			uint64		w = 0;

			for (int t = m - 1; rest != NULL && t >= 0; t--)
				w = (w << PAX_SYMREST_BITS) | rest[j + t];
			PaxBitsPut(page + col->data, bit + j * PAX_SYMREST_BITS,
					   m * PAX_SYMREST_BITS, w);
		}
	}
	else if (rest != NULL)
		memcpy(page + col->data + row * len, rest, len);
	else
		memset(page + col->data + row * len, 0, len);
}

/*
 * PaxPageShortValue gives the value of row `row` in the minipage of a
 * varlena column laid out on the page (col->data != 0) when it is a short
 * (1-byte header) varlena inside the value area, the usual form of small
 * values: the fast path of the typed loops.  A prefix-encoded column's
 * value is built in cell (PAX_DECODE_CELL bytes; none: NULL is returned
 * for it).  NULL for anything else (a NULL, a 4-byte header, a TOAST
 * pointer, bytes PaxPageGetValue reports as corrupted): the caller then
 * reads it with PaxPageGetValue.
 */
static inline const char *
PaxPageShortValue(Page page, const PaxColumnLayout *col, int row, char *cell)
{
	uint16		off;
	uint16		special = ((PageHeader) page)->pd_special;
	const char *p;

	if (unlikely(PaxInMinipage(col)))
		return cell == NULL || (col->nullmap != 0 &&
								PaxBitIsSet((const bits8 *) page + col->nullmap, row)) ?
			NULL : PaxMinipageShort(page, col, row, cell);
	off = PaxVarOffset(page, col, row);
	p = page + off;

	if (off < ((PageHeader) page)->pd_upper || off >= special ||
		(col->nullmap != 0 && PaxBitIsSet((const bits8 *) page + col->nullmap, row)) ||
		!VARATT_IS_1B(p) || VARATT_IS_1B_E(p) || off + VARSIZE_1B(p) > special)
		return NULL;
	if (unlikely(col->prefix != 0))
		return cell != NULL ? PaxPrefixShort(page, col, p, cell) : NULL;
	return p;
}

/*
 * PaxShortData gives the data of a non-null varlena value (after its
 * header) and their length when the value area stores it as a short
 * varlena (PaxVarStorage: already short, or converted), the values a
 * prefix-encoded column holds; false for any other value.
 */
static inline bool
PaxShortData(Form_pg_attribute att, Datum value, const char **data, int *len)
{
	const char *v = DatumGetPointer(value);

	if (att->attlen != -1 || VARATT_IS_EXTERNAL(v))
		return false;
	if (VARATT_IS_SHORT(v))
	{
		*data = VARDATA_SHORT(v);
		*len = VARSIZE_SHORT(v) - VARHDRSZ_SHORT;
		return true;
	}
	if (att->attstorage != TYPSTORAGE_PLAIN && VARATT_CAN_MAKE_SHORT(v))
	{
		*data = VARDATA(v);
		*len = VARSIZE(v) - VARHDRSZ;
		return true;
	}
	return false;
}

/*
 * PaxVarStorage tells how a non-null varlena or cstring value is stored in
 * the value area: its size and alignment, and whether it is converted to a
 * short (1-byte header) varlena, following heap_fill_tuple's rules.  Adapted
 * from fill_val() in heaptuple.c, PostgreSQL 15.
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

/* PaxEncodedInt is the integer an encoded-eligible Datum of attlen stands for. */
static inline int64
PaxEncodedInt(Datum value, int attlen)
{
	return attlen == 2 ? (int64) DatumGetInt16(value) :
		attlen == 4 ? (int64) DatumGetInt32(value) : DatumGetInt64(value);
}

/* PaxEncodedDatum is the inverse of PaxEncodedInt: fetch_att's Datum. */
static inline Datum
PaxEncodedDatum(int64 v, int attlen)
{
	return attlen == 2 ? Int16GetDatum((int16) v) :
		attlen == 4 ? Int32GetDatum((int32) v) : Int64GetDatum(v);
}

/*
 * PaxRowBits is the bits a row takes in a bit-packed minipage (an integer
 * column's, a dictionary's codes, a rest in symbols), 0 for another.
 */
static inline int
PaxRowBits(const PaxColumnLayout *col)
{
	return col->symbits != 0 ? col->restwidth * col->symbits : col->bits;
}

/*
 * PaxRowBytes gives the bytes of a fixed-width or encoded minipage that
 * row `row`'s value occupies: *off from the page's start, *len of them
 * (the bytes a bit-packed row's bits touch).
 */
static inline void
PaxRowBytes(const PaxColumnLayout *col, int row, uint32 *off, uint32 *len)
{
	int			bits = PaxRowBits(col);

	if (bits != 0)
	{
		uint32		first = (uint32) row * bits;
		uint32		last = first + bits - 1;

		*off = col->data + (first >> 3);
		*len = (last >> 3) - (first >> 3) + 1;
		return;
	}
	*off = col->data + (uint32) row * col->width;
	*len = col->width;
}

/* PaxMinipageBytes is the size of a column's row slots on a page. */
static inline uint32
PaxMinipageBytes(const PaxColumnLayout *col, int capacity)
{
	int			bits = PaxRowBits(col);

	return bits != 0 ? PaxPackedBytes(capacity, bits) :
		(uint32) capacity * col->width;
}

/* PaxColumnBase is the base of an encoded column on its page. */
static inline int64
PaxColumnBase(Page page, const PaxColumnLayout *col)
{
	int64		base;

	memcpy(&base, page + col->base, sizeof(int64));
	return base;
}

/*
 * PaxEncodedValueFits tells whether integer v can be stored in an encoded
 * column of base `base`, factor `factor` (1 unless factored) and largest
 * offset maxdelta: at or above the base as integers (an int8 near the other
 * end of the range would wrap around to a small offset, out of order with
 * the others'), a multiple of the factor from it, and within maxdelta
 * times the factor (PaxEncodedFits, and the fit list of pax_insert.c).
 */
static inline bool
PaxEncodedValueFits(int64 v, int64 base, uint64 factor, uint64 maxdelta)
{
	uint64		delta;

	if (v < base)
		return false;
	delta = (uint64) v - (uint64) base;
	if (unlikely(factor != 1))
	{
		if (factor == 0 || delta % factor != 0)
			return false;
		delta /= factor;
	}
	return delta <= maxdelta;
}

/*
 * PaxColumnFactor is the factor of a factored column on its page (a scaled
 * column's divisor).
 */
static inline int64
PaxColumnFactor(Page page, const PaxColumnLayout *col)
{
	int64		factor;

	memcpy(&factor, page + col->base + sizeof(int64), sizeof(int64));
	return factor;
}

/*
 * PaxColumnDivisor is the divisor of a decimal-scaled column on its page,
 * 0 for any other (PaxEncodedKey).
 */
static inline int64
PaxColumnDivisor(Page page, const PaxColumnLayout *col)
{
	return col->scaled ? PaxColumnFactor(page, col) : 0;
}

/*
 * PaxEncodedKey sets *k to the integer a non-null value of an encoded
 * column stands for (PaxEncodedInt, or for a scaled column PaxScaledKey),
 * and tells whether there is one.
 */
static inline bool
PaxEncodedKey(Datum value, int attlen, int64 divisor, int64 *k)
{
	if (likely(divisor == 0))
	{
		*k = PaxEncodedInt(value, attlen);
		return true;
	}
	return PaxScaledKey(value, attlen, divisor, k);
}

/*
 * PaxFixedValue reads the value of row `row` of a fixed-width column laid
 * out on the page (col->data != 0), encoded or not, as fetch_att would.
 */
static inline Datum
PaxFixedValue(Page page, const PaxColumnLayout *col, int row)
{
	const char *data = page + col->data;

	if (col->base != 0)
	{
		uint64		delta = PaxEncodedDelta(col, data, row);

		if (unlikely(col->scaled))
			return PaxScaledDatum((int64) ((uint64) PaxColumnBase(page, col) +
										   delta),
								  PaxColumnFactor(page, col), col->attlen);
		if (unlikely(col->factored))
			delta *= (uint64) PaxColumnFactor(page, col);
		return PaxEncodedDatum((int64) ((uint64) PaxColumnBase(page, col) +
										delta),
							   col->attlen);
	}
	data += row * col->attlen;
	return col->byval ? fetch_att(data, true, col->attlen) : PointerGetDatum(data);
}

/*
 * PaxStoredSize is the size of a variable-length value stored at p (with at
 * most maxlen bytes before the end of the value area), and in *align the
 * alignment it was stored with: a cstring's bytes and terminator, a
 * varlena's VARSIZE_ANY, aligned by attalign only with a 4-byte header.
 * -1 for a cstring without terminator.  Inline: the value area's compaction
 * asks it for every value it moves.
 */
static inline int
PaxStoredSize(Form_pg_attribute att, const char *p, int maxlen, int *align)
{
	*align = 1;
	if (att->attlen == -2)
	{
		int			len = strnlen(p, maxlen);

		return len < maxlen ? len + 1 : -1;
	}
	if (!VARATT_IS_SHORT(p))
		*align = att->attalign == TYPALIGN_DOUBLE ? ALIGNOF_DOUBLE :
			att->attalign == TYPALIGN_INT ? ALIGNOF_INT :
			att->attalign == TYPALIGN_SHORT ? ALIGNOF_SHORT : 1;
	return VARSIZE_ANY(p);
}

/* pax_enc_int.c */
extern char *PaxDecodeScratch;
extern void PaxPackedColumnStats(Page page, const PaxColumnLayout *col,
								 int nrows, int64 *sum, int64 *lo, int64 *hi);
extern int	PaxPackedFilterRange(Page page, const PaxColumnLayout *col,
								 uint64 lo, uint64 hi, uint16 *sel, int n);
extern const char *PaxColumnOffsets(Page page, const PaxColumnLayout *col,
									const uint16 *sel, int n, char *scratch,
									int *width);
extern const char *PaxColumnFixedData(Page page, const PaxColumnLayout *col,
									  int nrows, char *scratch);
extern bool PaxEncodeEligible(Form_pg_attribute att);
extern bool PaxEncodedFits(Page page, const PaxColumnLayout *col, Datum value);
extern void PaxEncodedStore(Page page, const PaxColumnLayout *col, int row,
							Datum value);

#endif							/* PAX_MINIPAGE_H */
