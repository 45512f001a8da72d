/*-------------------------------------------------------------------------
 *
 * pax_encoding.h
 *	  Minipage formats of the pax table access method.
 *
 * The width byte of each column of an encoded page names how its minipage
 * stores values: bytes or bits offset from a base, a factor, a dictionary,
 * a prefix with its rests, decimal-scaled numbers.  This header holds those
 * formats, the bit-packing primitives every packed form reads and writes,
 * and PaxColumnLayout, where one column's minipage lives on a page.
 * Readers of values are in pax_minipage.h; the page around the minipages
 * in pax_page.h.
 *
 * pax_am/pax_encoding.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_ENCODING_H
#define PAX_ENCODING_H

#include "access/htup_details.h"
#include "catalog/pg_attribute.h"
#include "catalog/pg_type_d.h"
#include "common/int.h"
#include "fmgr.h"
#include "port/pg_bitutils.h"
#include "port/pg_bswap.h"
#include "storage/bufpage.h"

#include "pg_compat.h"

/*
 * Most rows a page holds.  Row indexes become TID offsets, and bitmap scans
 * (tidbitmap.c) and other code size per-page arrays with
 * MaxHeapTuplesPerPage, so we never exceed it.
 */
#define PAX_MAX_CAPACITY	MaxHeapTuplesPerPage

/* Size of an offset into the value area (varlena and cstring columns). */
#define PAX_VAROFF_SIZE		sizeof(uint16)

/*
 * Encoded minipages (frame of reference).  On a page with PAX_PAGE_ENCODED,
 * the column directory's bitmaps are followed by one byte per column: 0 for
 * a column stored at its full width, else the width in bytes (1, 2 or 4,
 * less than attlen) of each row's value minus the column's base on the
 * page: an int64 in the base array that follows the zone maps, one per
 * encoded column in column order (a prefix-encoded column's slot there is
 * its prefix area: PaxBaseBytes).  Set when the page is initialised and
 * never changed: a row whose value falls outside base .. base + 2^(8 width)
 * - 1 goes to another page.  Only integer-like pass-by-value types of 2, 4
 * or 8 bytes are encoded (PaxEncodeEligible); the value read back is the
 * stored Datum exactly.
 */
#define PAX_ENCODED_WIDTH_OK(w)	((w) == 1 || (w) == 2 || (w) == 4)

/*
 * Bit-packed frame of reference: a width byte of PAX_PACKED_FLAG | b
 * (b = 1 .. 32) stores each row's offset from the base in b bits, row r's
 * at bit r * b of the minipage (bit 0 the least significant bit of byte
 * 0: the minipage is read as little-endian 64-bit words), which is
 * PaxPackedBytes long: the rows' bits rounded up to bytes and 8 more, so
 * that any row's bits are read with one unaligned 8-byte load.  The range a
 * page holds is base .. base + 2^b - 1, as for byte widths.
 */
#define PAX_PACKED_FLAG			0x40
#define PAX_PACKED_MAX_BITS		32
#define PaxPackedWidthOk(w) \
	(((w) & 0xC0) == PAX_PACKED_FLAG && ((w) & 0x3F) >= 1 && \
	 ((w) & 0x3F) <= PAX_PACKED_MAX_BITS)
#define PaxPackedBits(w)		((w) & 0x3F)
#define PaxPackedBytes(capacity, bits) \
	(((uint32) (capacity) * (bits) + 7) / 8 + sizeof(uint64))

/*
 * A constant column: the width byte PAX_CONST_WIDTH (bit-packed in 0 bits)
 * stores no minipage at all (a null bitmap, when the shape gives one):
 * every non-null row's value is the column's base, an int64 slot in the
 * base array within the type's range.  Only integer-like columns of a
 * batch's page whose values all are equal get it; a row of another value
 * goes to another page.
 */
#define PAX_CONST_WIDTH			PAX_PACKED_FLAG

/* Bit i of a bitmap of bits8 (column directory, null bitmaps). */
#define PaxBitIsSet(map, i)		(((map)[(i) >> 3] >> ((i) & 7)) & 1)
#define PaxBitSet(map, i)		((map)[(i) >> 3] |= (bits8) (1 << ((i) & 7)))

/* PaxPackedWord reads the little-endian 64-bit word at p. */
static inline uint64
PaxPackedWord(const char *p)
{
	uint64		w;

	memcpy(&w, p, sizeof(w));
#ifdef WORDS_BIGENDIAN
	w = pg_bswap64(w);
#endif
	return w;
}

/*
 * PaxBitsGet reads the nbits (1 .. 56) bits at bit `bit` of a bit-packed
 * minipage: one unaligned 8-byte load.
 */
static inline uint64
PaxBitsGet(const char *data, uint32 bit, int nbits)
{
	return (PaxPackedWord(data + (bit >> 3)) >> (bit & 7)) &
		((UINT64CONST(1) << nbits) - 1);
}

/*
 * PaxBitsPut stores v (< 2^nbits, nbits 1 .. 56) as the bits at bit `bit`
 * of a bit-packed minipage, leaving the others as they are.
 */
static inline void
PaxBitsPut(char *data, uint32 bit, int nbits, uint64 v)
{
	uint64		mask = ((UINT64CONST(1) << nbits) - 1) << (bit & 7);
	uint64		w = PaxPackedWord(data + (bit >> 3));

	w = (w & ~mask) | ((v << (bit & 7)) & mask);
#ifdef WORDS_BIGENDIAN
	w = pg_bswap64(w);
#endif
	memcpy(data + (bit >> 3), &w, sizeof(w));
}

/* PaxPackedGet reads row `row`'s bits of a bit-packed minipage. */
static inline uint32
PaxPackedGet(const char *data, int bits, int row)
{
	return (uint32) PaxBitsGet(data, (uint32) row * bits, bits);
}

/*
 * PaxPackedPut stores v (< 2^bits) as row `row`'s bits of a bit-packed
 * minipage, leaving the other rows' bits as they are.
 */
static inline void
PaxPackedPut(char *data, int bits, int row, uint32 v)
{
	PaxBitsPut(data, (uint32) row * bits, bits, v);
}

/* Codes of fixed-width rests in symbols one 8-byte load or store moves. */
#define PAX_SYMREST_CHUNK		14

/*
 * Frame of reference with a common factor: a width byte of
 * PAX_FACTOR_FLAG | (b - 1) (b = 1 .. 32, fewer than 8 attlen bits) stores
 * each row's value v as (v - base) / factor in b bits, bit-packed as with
 * PAX_PACKED_FLAG; the column's slot in the base array is 16 bytes, the
 * int64 base then the int64 factor (at least 2), and the value read back
 * is base + offset * factor (modulo 2^64, as the plain offsets are).  A
 * row whose value minus the base is not a multiple of the factor, or too
 * large, goes to another page.  Chosen for bulk-built pages whose values
 * share a factor (timestamps on whole minutes, amounts in thousands:
 * PaxChooseEncodings); the typed loops' filters read such a column's
 * values decoded (PaxColumnFixedData), not its offsets; packed sums apply
 * the factor once (PaxPackedColumnStats).
 *
 * On a float4 or float8 column (PaxScaleEligible) the same width byte and
 * slot mean a decimal-scaled column (PAX_ENC_SCALED_FLOAT): the second
 * int64 is a divisor d = 10^s (s = 0 .. PAX_SCALE_MAX), each row holds k -
 * base, and the value read back is (base + offset) / d (PaxScaledDatum);
 * only values that read back bit for bit are stored so (PaxScaledKey).
 */
#define PAX_FACTOR_FLAG			0x20
#define PaxFactorWidthOk(w)		(((w) & 0xE0) == PAX_FACTOR_FLAG)
#define PaxFactorBits(w)		(((w) & 0x1F) + 1)
#define PAX_SCALE_MAX			15

/*
 * Dictionary encoding of a variable-length (varlena or cstring) column:
 * its width byte is PAX_DICT_FLAG | k, for a dictionary of 8 k entries
 * (k = 1 .. 32).  Its minipage holds, after the null bitmap, the
 * dictionary (8 k uint16 offsets of distinct values in the value area,
 * SHORTALIGN'd), then a one-byte code a row; its slot in the base array
 * holds the number of entries in use (a uint16), which only inserts raise.
 * A row's value is the dictionary entry of its code, compared with the
 * stored form of new values byte for byte.  With PAX_DICT_PACKED set too,
 * the codes are bit-packed (see PAX_PACKED_FLAG) in the fewest bits that
 * hold 8 k codes (PaxDictCodeBits: 3 .. 8), instead of a byte each.
 */
#define PAX_DICT_FLAG			0x80
#define PAX_DICT_PACKED			0x40
#define PAX_DICT_MAX_K			32
#define PaxDictWidthOk(w) \
	(((w) & PAX_DICT_FLAG) != 0 && ((w) & 0x3F) >= 1 && \
	 ((w) & 0x3F) <= PAX_DICT_MAX_K)
#define PaxDictCapacity(w)		(((w) & 0x3F) * 8)
#define PaxDictIsPacked(w)		(((w) & PAX_DICT_PACKED) != 0)
#define PaxDictCodeBits(cap)	pg_ceil_log2_32(cap)

/*
 * Prefix encoding of a varlena column (attlen -1): its width byte is
 * PAX_PREFIX_FLAG | w (w = 1 .. PAX_PREFIX_MAX_UNITS), and its slot in the
 * base array is a prefix area of 8 w bytes (instead of an int64): a length
 * byte p (below 8 w), then the p bytes the data of every value of the
 * column on the page starts with.  Its minipage is a plain varlena
 * column's (a value offset a row); the value area holds each row's value
 * without those bytes, as a short varlena of the rest of its data (an
 * empty rest: the 1-byte header alone).  Only values stored as short
 * varlenas (at most VARATT_SHORT_MAX bytes, header included; not TOAST
 * pointers) are held: a value is read back as that short varlena, the
 * prefix and the rest built into a decode cell of PAX_DECODE_CELL bytes
 * (PaxPrefixDecode).  Chosen for the pages of a batch whose rows share a
 * prefix (PaxChoosePrefix); a row whose value does not start with it goes
 * to another page.
 */
#define PAX_PREFIX_FLAG			0x10
#define PAX_PREFIX_MAX_UNITS	8
#define PaxPrefixWidthOk(w) \
	(((w) & 0xF0) == PAX_PREFIX_FLAG && ((w) & 0x0F) >= 1 && \
	 ((w) & 0x0F) <= PAX_PREFIX_MAX_UNITS)
#define PaxPrefixAreaSize(w)	(((w) & 0x0F) * 8)
#define PAX_PREFIX_AREA_MAX		(PAX_PREFIX_MAX_UNITS * 8)
#define PAX_DECODE_CELL			(VARATT_SHORT_MAX + 1)
/*
 * Prefix encoding with fixed-width rests: a varlena column's width byte of
 * PAX_FIXREST_BASE + R (R = 1 .. PAX_FIXREST_MAX) stores each row's rest
 * (the data of its value after the prefix, which may be empty) in R bytes
 * of its minipage, zero-padded: a rest's length is R less its trailing zero
 * bytes, so no rest ends with a zero byte (text never holds one).  Its
 * slot in the base array is a prefix area of PAX_FIXREST_AREA bytes (a
 * length byte, then up to 15 bytes every value starts with).  No value
 * offsets, no value area: a row's value is the short varlena of the
 * prefix and its rest, built into a decode cell as a prefix-encoded
 * column's (PaxFixRestShort), so only values stored short are held.
 * Chosen instead of plain prefix encoding for the pages of a batch whose
 * rests are short (PaxChoosePrefix): a value of a few bytes then takes
 * those bytes, not a 2-byte offset, a header and its bytes.  A row whose
 * rest is longer, ends with a zero byte, or lacks the prefix goes to
 * another page.
 */
#define PAX_FIXREST_BASE		0x60
#define PAX_FIXREST_MAX			31
#define PAX_FIXREST_AREA		16
#define PaxFixRestWidthOk(w) \
	((w) > PAX_FIXREST_BASE && (w) <= PAX_FIXREST_BASE + PAX_FIXREST_MAX)
#define PaxFixRestBytes(w)		((w) - PAX_FIXREST_BASE)

/*
 * Fixed-width rests in symbols: a varlena column's width byte of
 * PAX_SYMREST_BASE + R (R = 1 .. PAX_FIXREST_MAX) stores each row's rest as
 * a fixed-width rest of R bytes does, zero-padded, but each byte as a
 * PAX_SYMREST_BITS-bit code, bit-packed in the minipage (see
 * PAX_PACKED_FLAG: row r's byte j is code number r R + j): code 0 is the
 * zero byte, codes 1 .. n (n <= PAX_SYMREST_MAX_SYMBOLS) the page's
 * alphabet, the other bytes its rests take, in ascending order.  Its slot in the base array is
 * PAX_SYMREST_AREA bytes: the prefix area of a fixed-width rest column (a
 * length byte, up to 15 prefix bytes), then n, then the n alphabet bytes
 * (the rest zero).  The code width is fixed, so that the width bytes alone
 * give a page's layout.  Chosen instead of bytes when a batch's rests take
 * at most PAX_SYMREST_MAX_SYMBOLS distinct bytes (digits, hex, codes): a
 * value of three digits then takes 12 bits, not 24.  A row whose rest
 * holds a byte outside the alphabet goes to another page.
 */
#define PAX_SYMREST_BASE		0xA0
#define PAX_SYMREST_AREA		32
#define PAX_SYMREST_BITS		4
#define PAX_SYMREST_MAX_SYMBOLS	15
#define PaxSymRestWidthOk(w) \
	((w) > PAX_SYMREST_BASE && (w) <= PAX_SYMREST_BASE + PAX_FIXREST_MAX)
#define PaxSymRestBytes(w)		((w) - PAX_SYMREST_BASE)

/*
 * Decimal-scaled numerics: a numeric column's width byte of
 * PAX_NUMSCALE_BASE + b (b = 1 .. 31) stores each row's value v, of display
 * scale d, as the integer k = v 10^d, frame of reference with a factor:
 * (k - base) / factor, bit-packed in b bits (see PAX_PACKED_FLAG).  Its
 * slot in the base array is PAX_NUMSCALE_AREA bytes: int64 base, factor (at
 * least 1) and d.  A row's value is the short varlena numeric of (k, d),
 * built into a decode cell (PaxNumScaledShort) exactly as numeric's own
 * functions store it (digits base 10000 without leading or trailing zero
 * digits, short header).  Only values that PaxNumScaledKey reads back to
 * the same bytes, of the page's display scale, with |k| below 2^63, fit;
 * NaN, infinities and other scales go to another page.  Chosen for the pages of a batch whose values all fit
 * (PaxChooseNumScale in pax_encode.c), unless a dictionary is.
 */
#define PAX_NUMSCALE_BASE		0xE0
#define PAX_NUMSCALE_AREA		24
#define PaxNumScaleWidthOk(w) \
	((uint32) (w) - PAX_NUMSCALE_BASE - 1 < 31)
#define PaxNumScaleBits(w)		((w) - PAX_NUMSCALE_BASE)

/* The on-disk header bits of a numeric (numeric.c's NumericData). */
#define PAX_NUM_SIGN_MASK		0xC000
#define PAX_NUM_NEG				0x4000
#define PAX_NUM_SHORT			0x8000
#define PAX_NUM_SPECIAL			0xC000
#define PAX_NUM_SHORT_SIGN		0x2000
#define PAX_NUM_SHORT_DSCALE_MASK	0x1F80
#define PAX_NUM_SHORT_DSCALE_SHIFT	7
#define PAX_NUM_SHORT_DSCALE_MAX	63
#define PAX_NUM_SHORT_WEIGHT_SIGN	0x0040
#define PAX_NUM_SHORT_WEIGHT_MASK	0x003F
#define PAX_NUM_DSCALE_MASK		0x3FFF
#define PAX_NUM_NBASE			10000

/* Where one column's minipage lives on a page. */
typedef struct PaxColumnLayout
{
	uint16		nullmap;		/* offset of the null bitmap, 0 if none */
	uint16		data;			/* offset of the values or value offsets,
								 * 0 if the column is absent */
	int16		attlen;			/* > 0 fixed width, -1 varlena, -2 cstring */
	bool		byval;
	bool		dropped;		/* dropped since the page was laid out */
	int16		zone;			/* index into the zone array, -1 if none */
	uint16		base;			/* offset of the int64 base of an encoded
								 * column, 0 if the column is not encoded */
	uint8		width;			/* bytes a row takes in the minipage: attlen,
								 * PAX_VAROFF_SIZE, or an encoded width; 0
								 * for a bit-packed column */
	uint8		bits;			/* a bit-packed column's bits a row, else 0 */
	bool		factored;		/* its offsets are multiples of the factor
								 * after its base (PAX_FACTOR_FLAG) */
	bool		scaled;			/* a float column stored as decimal-scaled
								 * integers (PAX_FACTOR_FLAG on float4 and
								 * float8): not factored */
	uint16		dict;			/* offset of a dictionary-encoded column's
								 * dictionary, 0 if none */
	uint16		dictcap;		/* its entries */
	uint16		dictused;		/* offset of its count of entries in use */
	uint16		prefix;			/* offset of a prefix-encoded column's
								 * prefix area (its base array slot), 0 if
								 * none */
	uint16		prefixmax;		/* the longest prefix that area holds */
	uint8		restwidth;		/* a prefix-encoded column's bytes a row
								 * of fixed-width rests (its width unless
								 * in symbols), 0 if its rests are
								 * varlenas behind offsets */
	uint8		symbits;		/* fixed-width rests in symbols: bits a
								 * byte (PAX_SYMREST_BITS), else 0 */
	uint16		numslot;		/* offset of a decimal-scaled numeric
								 * column's slot (PAX_NUMSCALE_BASE: base,
								 * factor, display scale), 0 if none */
	uint8		enc;			/* its PaxEncoding */
} PaxColumnLayout;

/*
 * The encodings, as PaxEncodingOf names them.  Each has its own entry of
 * PaxEncodingOps in the file of its family (pax_enc_int.c: fixed-width
 * columns; pax_enc_var.c: variable-length ones); pax_am/README, "Adding an
 * encoding", says which files a new one touches.
 */
typedef enum PaxEncoding
{
	PAX_ENC_PLAIN,				/* width byte 0: full width, or offsets */
	PAX_ENC_BYTES,				/* 1, 2 or 4 bytes from a base */
	PAX_ENC_PACKED,				/* PAX_PACKED_FLAG | b: b bits from a base */
	PAX_ENC_FACTOR,				/* PAX_FACTOR_FLAG: bits times a factor */
	PAX_ENC_SCALED_FLOAT,		/* PAX_FACTOR_FLAG on a float column */
	PAX_ENC_CONST,				/* PAX_CONST_WIDTH: the base, no minipage */
	PAX_ENC_DICT,				/* PAX_DICT_FLAG: codes of a dictionary */
	PAX_ENC_PREFIX,				/* PAX_PREFIX_FLAG: prefix, rests behind
								 * offsets */
	PAX_ENC_FIXREST,			/* PAX_FIXREST_BASE + R: fixed-width rests */
	PAX_ENC_SYMREST,			/* PAX_SYMREST_BASE + R: rests in symbols */
	PAX_ENC_NUMSCALE,			/* PAX_NUMSCALE_BASE + b: scaled numerics */
	PAX_ENC_INVALID				/* no encoding of the column's type */
} PaxEncoding;


/*
 * PaxScaleEligible tells whether a column may be stored decimal-scaled
 * (PAX_FACTOR_FLAG on a float column): float4, and float8 where it is
 * passed by value.
 */
static inline bool
PaxScaleEligible(Form_pg_attribute att)
{
	return !att->attisdropped && att->attbyval &&
		((att->atttypid == FLOAT8OID && att->attlen == 8) ||
		 (att->atttypid == FLOAT4OID && att->attlen == 4));
}

/*
 * PaxEncodingOf decodes a column's width byte: the one place that tells
 * encodings apart by its bits.  With att, a width byte that no encoding of
 * the column's kind (fixed width, or varlena and cstring) has is
 * PAX_ENC_INVALID, and a factor on a float column is decimal scaling;
 * without att (the base array's size, which does not depend on the type),
 * only the width byte counts.  Whether the column's type suits the
 * encoding is its layout's and checkwidth's business.
 */
static inline PaxEncoding
PaxEncodingOf(uint8 width, Form_pg_attribute att)
{
	bool		var = att != NULL && att->attlen < 0;
	bool		fixed = att != NULL && att->attlen > 0;
	bool		text = att == NULL || att->attlen == -1;

	if (width == 0)
		return PAX_ENC_PLAIN;
	if (!var)
	{
		if (PAX_ENCODED_WIDTH_OK(width))
			return PAX_ENC_BYTES;
		if (width == PAX_CONST_WIDTH)
			return PAX_ENC_CONST;
		if (PaxPackedWidthOk(width))
			return PAX_ENC_PACKED;
		if (PaxFactorWidthOk(width))
			return att != NULL && PaxScaleEligible(att) ?
				PAX_ENC_SCALED_FLOAT : PAX_ENC_FACTOR;
	}
	if (!fixed)
	{
		if (text && PaxPrefixWidthOk(width))
			return PAX_ENC_PREFIX;
		if (text && PaxFixRestWidthOk(width))
			return PAX_ENC_FIXREST;
		if (text && PaxSymRestWidthOk(width))
			return PAX_ENC_SYMREST;
		if (text && PaxNumScaleWidthOk(width))
			return PAX_ENC_NUMSCALE;
		if (PaxDictWidthOk(width))
			return PAX_ENC_DICT;
	}
	return PAX_ENC_INVALID;
}

/*
 * PaxLayoutCursor: where the next minipage and the next base array slot go
 * while PaxLayoutSize lays out a page's columns.
 */
typedef struct PaxLayoutCursor
{
	uint32		off;			/* end of the minipages so far */
	uint32		bases;			/* next slot of the base array */
	int			capacity;		/* rows of the page */
	bool		hasprefix;		/* some column reads into decode cells */
} PaxLayoutCursor;

/* PaxLayoutNullmap places a column's null bitmap, when it has one. */
static inline void
PaxLayoutNullmap(bool nullmap, PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	if (nullmap)
	{
		col->nullmap = cur->off;
		cur->off += BITMAPLEN(cur->capacity);
	}
}

/* PaxVerifyProblem receives one problem a check finds, as a message. */
typedef void (*PaxVerifyProblem) (void *arg, const char *msg);

/*
 * What each encoding does per column per page, never per row (the per-row
 * readers of pax_minipage.h branch on the PaxColumnLayout fields that its
 * layout sets).  name: in messages; packed: its rows are bit-packed for
 * the page's rows (PaxShapeIsPacked); inminipage: a varlena column's values
 * are in the minipage, none in the value area; slotbytes: its slot in the
 * base array; layout: sets col for the width byte, places its minipage at
 * cur->off (its null bitmap first, when nullmap) and advances cur, false
 * when the column's type cannot be stored so; initslot: writes its slot of
 * a new page from the shape's base, factor and prefix area; checkwidth
 * (pax_verify): NULL when the width byte suits column attnum, else the
 * problem; checkslot (pax_verify): reports each problem of its slot;
 * describe: pax_page_columns' text, *valuewidth the bytes a value takes
 * (-1: none).
 */
typedef struct PaxEncodingOps
{
	const char *name;
	bool		packed;
	bool		inminipage;
	int			(*slotbytes) (uint8 width);
	bool		(*layout) (Form_pg_attribute att, uint8 width, bool nullmap,
						   PaxColumnLayout *col, PaxLayoutCursor *cur);
	void		(*initslot) (char *slot, uint8 width, int64 base, int64 factor,
							 const uint8 *prefix);
	char	   *(*checkwidth) (Form_pg_attribute att, int attnum, uint8 width,
							   bool absent);
	void		(*checkslot) (Page page, const PaxColumnLayout *col,
							  PaxVerifyProblem report, void *arg);
	char	   *(*describe) (Page page, const PaxColumnLayout *col,
							 int *valuewidth);
} PaxEncodingOps;

/* pax_enc_int.c */
extern const PaxEncodingOps *PaxEncIntOps(PaxEncoding enc);

/* pax_enc_var.c */
extern const PaxEncodingOps *PaxEncVarOps(PaxEncoding enc);

/* pax_enc_table.c */
extern const PaxEncodingOps *PaxEncodingOpsOf(PaxEncoding enc);
extern int	PaxBaseBytes(uint8 width);

/*
 * PaxEncodedMaxDelta is the largest offset from its base that an encoded
 * column's minipage holds: its bits, or its byte width (all of an 8-byte
 * one).
 */
static inline uint64
PaxEncodedMaxDelta(const PaxColumnLayout *col)
{
	if (col->bits != 0)
		return ((uint64) 1 << col->bits) - 1;
	if (col->width >= 8)
		return PG_UINT64_MAX;
	return ((uint64) 1 << (8 * col->width)) - 1;
}

/*
 * PaxEncodedDelta reads the stored offset from the base of row `row` (0 for
 * a constant column, width 0).
 */
static inline uint64
PaxEncodedDelta(const PaxColumnLayout *col, const char *data, int row)
{
	if (col->bits != 0)
		return PaxPackedGet(data, col->bits, row);
	switch (col->width)
	{
		case 1:
			return ((const uint8 *) data)[row];
		case 2:
			return ((const uint16 *) data)[row];
		case 4:
			return ((const uint32 *) data)[row];
		default:
			return 0;
	}
}

#endif							/* PAX_ENCODING_H */
