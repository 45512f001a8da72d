/*-------------------------------------------------------------------------
 *
 * pax.h
 *	  Private declarations of the pax table access method.
 *
 * A pax relation stores rows in standard 8 KB buffer pages laid out in the
 * PAX format (one minipage per column); pax_am/README draws the page and
 * states its invariants.
 *
 * Layout of this header follows contrib/bloom: constants, on-disk structs,
 * page macros, state structs, then externs grouped by defining file.
 *
 * pax_am/pax.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_H
#define PAX_H

#include <math.h>

#include "access/heapam.h"
#include "access/htup_details.h"
#include "access/multixact.h"
#include "access/relscan.h"
#include "access/tableam.h"
#include "access/xlog.h"
#include "common/int.h"
#include "port/pg_bitutils.h"
#include "port/pg_bswap.h"
#include "executor/tuptable.h"
#include "storage/bufpage.h"
#include "storage/lmgr.h"
#include "utils/rel.h"

#include "pg_compat.h"

/*
 * What an UPDATE tells the executor about index entries: a bool until 15,
 * TU_UpdateIndexes (none, all, summarizing only) from 16 on.  A pax UPDATE
 * always writes a new row version with a new TID, so every index needs an
 * entry.
 */
#if PG_VERSION_NUM >= 160000
typedef TU_UpdateIndexes PaxUpdateIndexes;
#define PAX_UPDATE_ALL_INDEXES TU_All
#else
typedef bool PaxUpdateIndexes;
#define PAX_UPDATE_ALL_INDEXES true
#endif

/* ----------------------------------------------------------------
 * Constants
 * ----------------------------------------------------------------
 */

/* Name of the access method as created by the extension script. */
#define PAX_AM_NAME			"pax"

#define PAX_PAGE_MAGIC		0x5041	/* "PA" */
#define PAX_PAGE_VERSION	1

/*
 * Most rows a page holds.  Row indexes become TID offsets, and bitmap scans
 * (tidbitmap.c) and other code size per-page arrays with
 * MaxHeapTuplesPerPage, so we never exceed it.
 */
#define PAX_MAX_CAPACITY	MaxHeapTuplesPerPage

/* Size of a row header: the fixed part of HeapTupleHeaderData. */
#define PAX_ROWHDR_SIZE		MAXALIGN(SizeofHeapTupleHeader)

/* Zone maps: at most this many columns, in at most this many bytes a page. */
#define PAX_MAX_ZONES		64
#define PAX_MAX_ZONE_BYTES	(BLCKSZ / 8)
/*
 * A page built from a batch has no zone map for a column whose rows span
 * this share of the column's range or more, once this many pages' worth of
 * rows have been placed (PaxZoneUseless).
 */
#define PAX_ZONE_SPAN_NUM	7
#define PAX_ZONE_SPAN_DEN	8
#define PAX_ZONE_MIN_PAGES	4

/* Null bitmaps for all nullable columns while they take at most this much. */
#define PAX_EAGER_BITMAP_BYTES	(BLCKSZ / 16)

/*
 * Rows enough to shape a page (its capacity, its encodings) on their own,
 * without the relation's hints (pax_insert.c, pax_encode.c).
 */
#define PAX_SHAPE_SAMPLE_ROWS	16

/* Size of an offset into the value area (varlena and cstring columns). */
#define PAX_VAROFF_SIZE		sizeof(uint16)

/* Number of per-column bitmaps in the column directory. */
#define PAX_NDIRMAPS		5

/* Recent buffers (pax_buffers.c): blocks remembered, at most (4 bytes each). */
#define PAX_RECENT_BUFFERS_MAX	(1024 * 1024)

/* Wrong consecutive-buffer guesses a scan makes in a row, at most ... */
#define PAX_GUESS_CREDIT	8
/* ... after which it guesses for one block in this many only. */
#define PAX_GUESS_RETRY		64

/*
 * ReadRecentBuffer does not raise a buffer's usage count (PostgreSQL 15
 * pins with PinBuffer_Locked), so that pages pinned only through it would
 * age out of shared buffers however often they are scanned.  One block in
 * this many per scan, a different share each scan, goes through
 * ReadBufferExtended, which does raise it.
 */
#define PAX_USAGE_REFRESH	16

/* ----------------------------------------------------------------
 * On-disk structures
 * ----------------------------------------------------------------
 */

/*
 * PaxPageHeaderData follows PageHeaderData.  It is followed by the column
 * directory: PAX_NDIRMAPS bitmaps of BITMAPLEN(natts) bytes each (in the
 * order of the PAX_DIR_* constants), then MAXALIGN'd, the zone map array
 * (one PaxZone per column with a zone map, in column order).
 */
typedef struct PaxPageHeaderData
{
	uint16		pp_nrows;		/* rows stored: row indexes 0 .. nrows-1 */
	uint16		pp_capacity;	/* rows the minipages have room for */
	uint16		pp_natts;		/* columns laid out on the page */
	uint16		pp_flags;		/* PAX_PAGE_* flags */
} PaxPageHeaderData;

typedef PaxPageHeaderData *PaxPageHeader;

/* Column directory bitmaps (bit set = property holds for the column). */
#define PAX_DIR_ABSENT		0	/* no minipage: NULL in every row (dropped
									 * columns, and all-NULL columns of pages
									 * too small to store them) */
#define PAX_DIR_NULLMAP		1	/* column has a null bitmap on the page */
#define PAX_DIR_ZONE		2	/* column has a zone map entry */
#define PAX_DIR_HASNULL		3	/* some row has NULL in the column */
#define PAX_DIR_ZONESET		4	/* zone map holds min/max of >= 1 value */

/* pp_flags: some row below pp_nrows is UNUSED (set by VACUUM, cleared by
 * the insert that takes the last one) */
#define PAX_PAGE_HAS_UNUSED	0x0001
/* pp_flags: the page has an encoding directory (see PaxPageGetWidths) */
#define PAX_PAGE_ENCODED	0x0002
/* pp_flags: a compact page: its rows share one row header (PaxCompactRows) */
#define PAX_PAGE_COMPACT	0x0004
/*
 * pp_flags: a header page: no rows (pp_nrows 0, pp_natts 0), its row header
 * array holds the headers of a compact page's overflowing rows
 */
#define PAX_PAGE_HEADERS	0x0008

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
 * slot mean a decimal-scaled column: the slot's second int64 is a divisor
 * d = 10^s (s = 0 .. PAX_SCALE_MAX), each row holds k - base for the
 * integer k with k / d (computed as a double, then cast to the type) the
 * value's exact bits (PaxScaledKey), and the value read back is
 * (base + offset) / d (PaxScaledDatum).  Only values that read back bit
 * for bit are stored so (not -0, NaN or infinities, nor k beyond 2^53); a
 * row with any other value goes to another page.  Chosen for bulk-built
 * pages whose values all have at most s decimals (prices, measurements
 * stored as float); filters and join filters read such a column decoded.
 */
#define PAX_FACTOR_FLAG			0x20
#define PaxFactorWidthOk(w)		(((w) & 0xE0) == PAX_FACTOR_FLAG)
#define PaxFactorBits(w)		(((w) & 0x1F) + 1)
#define PAX_SCALE_MAX			15
/* the bits a row of a bit-packed or factored column takes, else 0 */
#define PaxWidthPackedBits(w) \
	(PaxPackedWidthOk(w) ? PaxPackedBits(w) : \
	 PaxFactorWidthOk(w) ? PaxFactorBits(w) : 0)

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
#define PaxIsPrefixWidth(att, w) \
	((att)->attlen == -1 && PaxPrefixWidthOk(w))

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

/*
 * PaxBaseBytes is the size of an encoded column's slot in the base array,
 * from its width byte: its prefix area, a base and a factor, or an int64
 * (0: not encoded).
 */
#define PaxBaseBytes(w) \
	((w) == 0 ? 0 : PaxPrefixWidthOk(w) ? PaxPrefixAreaSize(w) : \
	 PaxFixRestWidthOk(w) ? PAX_FIXREST_AREA : \
	 PaxSymRestWidthOk(w) ? PAX_SYMREST_AREA : \
	 PaxNumScaleWidthOk(w) ? PAX_NUMSCALE_AREA : \
	 PaxFactorWidthOk(w) ? 2 * (int) sizeof(int64) : (int) sizeof(int64))

/*
 * PAX_ROW_UNUSED, in a row header's t_infomask2 (a bit heap leaves free),
 * marks a row slot VACUUM reclaimed: no row lives there.  Its header is
 * otherwise cleared to xmin invalid with HEAP_XMIN_INVALID (and
 * HEAP_XMAX_INVALID), so every HeapTupleSatisfies* routine finds it
 * invisible or dead; its fixed-width values are zero, its value offsets 0
 * and its null bits (where the column has a null bitmap) set.  Readers
 * that would look at its values (selection pushdown, SnapshotAny scans,
 * fetches by TID, ANALYZE) skip it; an insert may reuse the slot, and so
 * its TID, once every index entry pointing at it is gone.
 */
#define PAX_ROW_UNUSED		0x1000
StaticAssertDecl((PAX_ROW_UNUSED & (HEAP_NATTS_MASK | HEAP_KEYS_UPDATED |
									HEAP_HOT_UPDATED | HEAP_ONLY_TUPLE)) == 0,
				 "PAX_ROW_UNUSED must be a t_infomask2 bit heap leaves free");
#define PaxRowIsUnused(hdr)	(((hdr)->t_infomask2 & PAX_ROW_UNUSED) != 0)

/*
 * A zone map entry: the least and greatest non-null value on the page, as
 * 8-byte integers whatever the platform's Datum width: the value's Datum
 * bits (PaxZoneBound), which a reader turns back into a Datum of the
 * column's type (PaxZoneDatum).  Only pass-by-value types have zone maps
 * (PaxZoneEligible), so a bound fits.  On 64-bit platforms these are the
 * bytes of the former Datum fields: existing pages read the same.
 */
typedef struct PaxZone
{
	int64		min;
	int64		max;
} PaxZone;

StaticAssertDecl(sizeof(PaxZone) == 16,
				 "a zone map entry takes 16 bytes on every page");
StaticAssertDecl(sizeof(Datum) <= sizeof(int64),
				 "a pass-by-value Datum fits in a zone map bound");

/* PaxZoneBound is the stored form of a zone map bound. */
static inline int64
PaxZoneBound(Datum value)
{
	return (int64) value;
}

/* PaxZoneDatum is a stored zone map bound as a Datum of the column type. */
static inline Datum
PaxZoneDatum(int64 bound)
{
	return (Datum) bound;
}

/* Special space of every pax page. */
typedef struct PaxPageOpaqueData
{
	uint16		pax_magic;		/* PAX_PAGE_MAGIC */
	uint16		pax_version;	/* PAX_PAGE_VERSION */
	TransactionId pax_layout_xid;	/* see PaxPageIsOrphan */
} PaxPageOpaqueData;

typedef PaxPageOpaqueData *PaxPageOpaque;

/* Start of the special space: the value area ends there. */
#define PAX_SPECIAL_START	(BLCKSZ - MAXALIGN(sizeof(PaxPageOpaqueData)))

/* ----------------------------------------------------------------
 * Page macros
 * ----------------------------------------------------------------
 */

#define PaxPageGetHeader(page) \
	((PaxPageHeader) PageGetContents(page))
#define PaxPageGetOpaque(page) \
	((PaxPageOpaque) PageGetSpecialPointer(page))
#define PaxDirMapLen(natts)		BITMAPLEN(natts)
#define PaxPageGetDirMap(page, which) \
	((bits8 *) PageGetContents(page) + sizeof(PaxPageHeaderData) + \
	 (which) * PaxDirMapLen(PaxPageGetHeader(page)->pp_natts))
#define PaxPageGetWidths(page) \
	((uint8 *) PaxPageGetDirMap(page, PAX_NDIRMAPS))
#define PaxPageIsEncoded(page) \
	((PaxPageGetHeader(page)->pp_flags & PAX_PAGE_ENCODED) != 0)
#define PaxBitIsSet(map, i)		(((map)[(i) >> 3] >> ((i) & 7)) & 1)
#define PaxBitSet(map, i)		((map)[(i) >> 3] |= (bits8) (1 << ((i) & 7)))
#define PaxPageIsCompact(page) \
	((PaxPageGetHeader((Page) (page))->pp_flags & PAX_PAGE_COMPACT) != 0)

/*
 * A compact page's row area, at its rowhdrs offset (pax_am/README,
 * "Compact rows"): the row header its rows share (24 bytes), the block
 * number of its header page (0: none yet) and a reserved word, one state
 * byte per row of its capacity, then, MAXALIGN'd, PAX_COMPACT_SLOTS row
 * header slots for rows that need a header of their own (a DELETE, UPDATE
 * or row lock sets their xmax).  A state is PAX_STATE_SHARED (0), a slot
 * number 1 .. PAX_COMPACT_SLOTS, PAX_STATE_OVERFLOW (the header is the
 * row's in the header page's array) or PAX_STATE_UNUSED (a slot VACUUM
 * reclaimed).
 */
#define PAX_COMPACT_SLOTS		12
#define PAX_COMPACT_HDRPAGE		PAX_ROWHDR_SIZE
#define PAX_COMPACT_STATES		(PAX_ROWHDR_SIZE + 8)
#define PAX_STATE_SHARED		0
#define PAX_STATE_OVERFLOW		0xFE
#define PAX_STATE_UNUSED		0xFF
#define PaxCompactHeaderPage(page, rowhdrs) \
	(*(BlockNumber *) ((char *) (page) + (rowhdrs) + PAX_COMPACT_HDRPAGE))
#define PaxCompactSlotsAt(capacity) \
	MAXALIGN(PAX_COMPACT_STATES + (capacity))
#define PaxCompactRowsSize(capacity) \
	(PaxCompactSlotsAt(capacity) + PAX_COMPACT_SLOTS * PAX_ROWHDR_SIZE)
/* the bytes of a page's row headers: a compact page's row area, or a header a row */
#define PaxRowAreaSize(compact, capacity) \
	((compact) ? PaxCompactRowsSize(capacity) : (capacity) * PAX_ROWHDR_SIZE)
#define PaxCompactStates(page, rowhdrs) \
	((uint8 *) (page) + (rowhdrs) + PAX_COMPACT_STATES)
#define PaxCompactSlot(page, rowhdrs, k) \
	((HeapTupleHeader) ((char *) (page) + (rowhdrs) + \
						PaxCompactSlotsAt(PaxPageGetHeader((Page) (page))->pp_capacity) + \
						((k) - 1) * PAX_ROWHDR_SIZE))

/*
 * PaxRowHeader is the header of row `row` of a page whose row headers start
 * at offset rowhdrs: its own on a row-form page; on a compact page, its
 * slot's, or the one the page's rows share.  A shared header's t_ctid is
 * PAX_CTID_SELF: read a row's t_ctid through PaxRowCtid.  A row whose
 * header is on the header page (PAX_STATE_OVERFLOW) is read through
 * PaxRowHeaderOf; here it gets the shared header.
 */
static inline HeapTupleHeader
PaxRowHeader(const char *page, uint16 rowhdrs, int row)
{
	if (PaxPageIsCompact(page))
	{
		uint8		state = PaxCompactStates(page, rowhdrs)[row];

		if (state == PAX_STATE_SHARED || state > PAX_COMPACT_SLOTS)
			return (HeapTupleHeader) (page + rowhdrs);
		return PaxCompactSlot(page, rowhdrs, state);
	}
	return (HeapTupleHeader) (page + rowhdrs + row * PAX_ROWHDR_SIZE);
}

extern HeapTupleHeader PaxOverflowHeaderCopy(Relation rel, Page page,
											 uint16 rowhdrs, int row);

/*
 * PaxRowHeaderOf is PaxRowHeader for any row: the header of a row whose
 * header is on its page's header page is a copy (PaxOverflowHeaderCopy),
 * valid until the PAX_OVERFLOW_COPIES-th next copy; hint bits set on it
 * are not kept.  The caller holds the page locked.
 */
static inline HeapTupleHeader
PaxRowHeaderOf(Relation rel, const char *page, uint16 rowhdrs, int row)
{
	if (PaxPageIsCompact(page) &&
		PaxCompactStates(page, rowhdrs)[row] == PAX_STATE_OVERFLOW)
		return PaxOverflowHeaderCopy(rel, (Page) page, rowhdrs, row);
	return PaxRowHeader(page, rowhdrs, row);
}

/* PaxRowUnused tells whether row `row` of a page is an UNUSED slot. */
static inline bool
PaxRowUnused(const char *page, uint16 rowhdrs, int row)
{
	if (PaxPageIsCompact(page))
		return PaxCompactStates(page, rowhdrs)[row] == PAX_STATE_UNUSED;
	return PaxRowIsUnused(PaxRowHeader(page, rowhdrs, row));
}

/*
 * PAX_CTID_SELF, the offset of a shared row header's t_ctid, stands for
 * "the row itself": the rows sharing the header have no xmax, and their
 * t_ctid would each be their own TID.  Neither heap's speculative token
 * nor its moved-partitions offset (0xfffe, 0xfffd), nor a row number.
 */
#define PAX_CTID_SELF			0xfffc

/* PaxRowCtid is the t_ctid of the row tuple points at (PaxRowTuple). */
static inline ItemPointerData
PaxRowCtid(HeapTuple tuple)
{
	if (ItemPointerGetOffsetNumberNoCheck(&tuple->t_data->t_ctid) ==
		PAX_CTID_SELF)
		return tuple->t_self;
	return tuple->t_data->t_ctid;
}

/* PaxRowCtidIsSelf: the row tuple points at has t_ctid its own TID. */
static inline bool
PaxRowCtidIsSelf(HeapTuple tuple)
{
	ItemPointerData ctid = PaxRowCtid(tuple);

	return ItemPointerEquals(&tuple->t_self, &ctid);
}
/*
 * PaxPageIsOrphan tells whether a page was laid out for columns of a
 * rolled-back ALTER TABLE ADD COLUMN: every row on it is dead (see
 * PaxLayoutXid).  Most pages record no xid; the check is inline for them.
 */
#define PaxPageIsOrphan(page) \
	(TransactionIdIsValid(PaxPageGetOpaque(page)->pax_layout_xid) && \
	 PaxPageIsOrphanSlow(page))

/* ----------------------------------------------------------------
 * In-memory state
 * ----------------------------------------------------------------
 */

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
} PaxColumnLayout;

/*
 * PaxPageLayout: the offsets of everything on one page, derived from the
 * page header, the column directory and the tuple descriptor (attlen,
 * attalign, attbyval, which survive DROP COLUMN).  Computed once per page
 * read and reused while the next page has the same shape.
 */
typedef struct PaxPageLayout
{
	int			natts;			/* pp_natts */
	int			capacity;		/* pp_capacity */
	uint16		zones;			/* offset of the zone array */
	uint16		bases;			/* offset of the base array (encoded pages) */
	uint16		rowhdrs;		/* offset of the row headers (a compact
								 * page's row area) */
	bool		compact;		/* PAX_PAGE_COMPACT */
	bool		hasprefix;		/* some column is prefix-encoded: reading
								 * it takes decode cells */
	uint16		lower;			/* end of the fixed part: pd_lower */
	int			nzones;
	PaxColumnLayout cols[FLEXIBLE_ARRAY_MEMBER];
} PaxPageLayout;

#define SizeOfPaxPageLayout(natts) \
	(offsetof(PaxPageLayout, cols) + (natts) * sizeof(PaxColumnLayout))

/* A CPU cache line: the unit prefetching works in. */
#define PAX_CACHE_LINE_SIZE		64

/*
 * PaxLayoutCache keeps the layouts of the last few page shapes seen (up to
 * PAX_LAYOUT_CACHE_ENTRIES), with the column directory bitmaps each was
 * computed from, so pages of a shape seen recently skip the computation:
 * the pages of a table of variable-width rows alternate between a few
 * capacities, and a bulk-loaded table's encoded pages between a few sets
 * of widths (TPC-H SF1 loaded by COPY: lineitem 68 shapes in a quarter of
 * its pages, partsupp 43, orders 35; 32 entries missed on one lineitem
 * fetch in 24).  The cache is set-associative: a shape's
 * signature (a hash of the shape) picks a set of PAX_LAYOUT_CACHE_WAYS
 * entries, the only ones looked at, and entries whose signature differs
 * are passed over without comparing their bitmaps; a miss takes a free
 * entry of the set, else the way a rotating counter picks.  Entries are
 * allocated on first use.
 */
#define PAX_LAYOUT_CACHE_ENTRIES	128
#define PAX_LAYOUT_CACHE_WAYS		4

typedef struct PaxLayoutCacheEntry
{
	PaxPageLayout *layout;		/* sized for the relation's natts, or NULL */
	bits8	   *dirmaps;		/* copy of the page's directory bitmaps and
								 * encoded widths */
	bool		valid;
	bool		encoded;		/* the page has encoded widths */
	bool		compact;		/* the page is compact */
	uint32		sig;			/* PaxShapeSignature of the shape, when valid */
	int			natts;			/* the layout's, when valid */
	int			capacity;
} PaxLayoutCacheEntry;

typedef struct PaxLayoutCache
{
	PaxPageLayout *layout;		/* the layout PaxPageGetLayout returned last */
	int			maxatts;
	MemoryContext mcxt;			/* where entries are allocated, on first use */
	int			victim;			/* the way a miss in a full set replaces */
	PaxLayoutCacheEntry entries[PAX_LAYOUT_CACHE_ENTRIES];
} PaxLayoutCache;

/*
 * The shape of a page to initialise: which columns get null bitmaps and
 * zone maps, which are encoded (widths, bases: NULL if none), and how many
 * rows.
 */
typedef struct PaxPageShape
{
	int			natts;
	int			capacity;
	bits8	   *absent;
	bits8	   *nullmap;
	bits8	   *zone;
	uint8	   *widths;			/* natts encoded widths (0: full), or NULL */
	int64	   *bases;			/* natts bases (for init), or NULL */
	int64	   *factors;		/* natts factors of factored columns (for
								 * init), or NULL */
	uint8	   *prefixes;		/* natts prefix areas of PAX_PREFIX_AREA_MAX
								 * bytes each (a length byte, the bytes) of
								 * prefix-encoded columns (for init), or
								 * NULL */
	bool		compact;		/* compact rows (PAX_PAGE_COMPACT) */
} PaxPageShape;


/*
 * PaxRowInit: what a new row version starts with besides xmin and cmin
 * (pax_modify.c): the xmax and infomask bits an UPDATE carries over from
 * the old version (HEAP_UPDATED, key-share lockers), or the speculative
 * token of INSERT ... ON CONFLICT in place of the self-pointing t_ctid.
 */
typedef struct PaxRowInit
{
	TransactionId xmax;			/* xmax, or InvalidTransactionId */
	uint16		infomask;		/* t_infomask (HEAP_XMAX_INVALID if no xmax) */
	uint16		infomask2;		/* t_infomask2 bits besides natts */
	uint32		spectoken;		/* speculative insertion token, or 0 */
} PaxRowInit;

/* Variable-length columns a PaxRow lists, at most (else it lists none). */
#define PAX_ROW_VARATTS	16

/*
 * PaxRow (pax_insert.c): a row ready to be placed on a page, its values
 * taken from a slot (and through heap's TOAST code when large).
 */
typedef struct PaxRow
{
	Datum	   *values;
	bool	   *isnull;
	Size		varbytes;		/* value area bytes, alignment padding included */
	TupleTableSlot *slot;		/* where the TID goes, or NULL */
	HeapTupleHeader srchdr;		/* row header to keep (rewrites), or NULL */
	const PaxRowInit *init;		/* xmax and flags of a new version, or NULL */

	/*
	 * The row's non-null variable-length columns, in column order, which
	 * placing it walks (three times a row for a bulk insert) instead of
	 * every column; nvar = -1 when there are more than PAX_ROW_VARATTS.
	 */
	int16		nvar;
	int16		var[PAX_ROW_VARATTS];
	bool		hasnull;		/* some column is NULL */
} PaxRow;

/*
 * PaxChange (pax_wal.c): a change of one page made on a private copy, with
 * the byte ranges it wrote, logged as a generic WAL record of just those.
 */
/*
 * Byte ranges a PaxChange holds without allocating: a single-row insert
 * names one or two a column (its value, its null bit, its zone map) and
 * one for the row header and the page header.
 */
#define PAX_CHANGE_INLINE_RANGES	64

typedef struct PaxChange
{
	Relation	rel;
	Buffer		buffer;
	bool		full;			/* log a full page image */
	int			nranges;
	int			maxranges;
	uint16	   *ranges;			/* offset, length pairs: inline_ranges
								 * until they outgrow it */
	uint16		inline_ranges[2 * PAX_CHANGE_INLINE_RANGES];
	PGAlignedBlock copy;		/* the page as changed */
} PaxChange;

/*
 * PaxRelCache: what a backend remembers of a pax relation, in rd_amcache
 * (freed on any relcache rebuild, so never kept across one): the running
 * estimate of value-area bytes per inserted row, and for each block the
 * buffer that last held it, so that scans pin it with ReadRecentBuffer
 * (one look at the buffer's header) instead of a buffer-mapping lookup.
 */
#define PAX_HINT_ATTS	64		/* columns with encoding hints, at most */

#define PAX_HINT_DISTINCT	32		/* distinct values a hint counts, at most */

typedef struct PaxEncodeHint
{
	int64		lo;				/* least value placed since the last new page */
	int64		hi;				/* greatest */
	int64		all_lo;			/* least value placed since the cache began */
	int64		all_hi;			/* greatest */
	int32		nrecent;		/* rows lo and hi cover */
	bool		set;			/* lo and hi are set */
	bool		all_set;		/* all_lo and all_hi are set */
	/* a variable-length column, since the last new page: */
	int16		nvhash;			/* distinct values seen (as vhash), or -1
								 * for more than PAX_HINT_DISTINCT */
	int32		nvrows;			/* non-null values placed */
	double		vbytes;			/* their stored bytes */
	uint32		vhash[PAX_HINT_DISTINCT];	/* hashes of the distinct ones */
	uint8		packbits;		/* bits the last bulk-built page packed the
								 * column in, 0 if none */
	uint8		lastwidth;		/* the last bulk-built page shaped from a
								 * page's worth of rows: the column's
								 * bit-packed or factored width, 0 if none */
	int64		lastbase;		/* its base */
	int64		lastfactor;		/* its factor or divisor, 0 if none */
	/* a column with zone maps (PaxZoneUseless), since the cache began: */
	double		zone_lo;		/* least value placed (PaxZoneNumber) */
	double		zone_hi;		/* greatest */
	double		zone_rows;		/* rows counted in them */
} PaxEncodeHint;

typedef struct PaxRelCache
{
	double		var_avg;		/* running average of a row's value bytes */
	bool		var_valid;
	int			bulk_capacity;	/* the last page a bulk insert shaped */
	PaxEncodeHint hints[PAX_HINT_ATTS];	/* value ranges of the first
										 * columns, for the encodings of the
										 * next new page (pax_insert.c) */
	BlockNumber nbufs;			/* blocks with a slot in bufs */
	Buffer		bufs[FLEXIBLE_ARRAY_MEMBER];	/* InvalidBuffer: unknown */
} PaxRelCache;

/* Scan state: the table AM scan descriptor of pax. */
typedef struct PaxTableScanDescData
{
	TableScanDescData rs_base;	/* AM independent part of the descriptor */

	BufferAccessStrategy rs_strategy;	/* bulk-read ring, or NULL */
	BlockNumber rs_nblocks;		/* blocks in the relation at scan start */
	BlockNumber rs_startblock;	/* block to start at */
	BlockNumber rs_numblocks;	/* max blocks to scan (TID range / limit) */
	bool		rs_inited;		/* false = scan not started yet */
	BlockNumber rs_cblock;		/* current block */
	Buffer		rs_cbuf;		/* current buffer (pinned), or Invalid */
	Buffer		rs_nextbuf;		/* next block, pinned ahead, or Invalid */
	int			rs_cindex;		/* index into rs_vis of the current row */
	int			rs_nvis;		/* visible rows of the current page */
	OffsetNumber rs_vis[PAX_MAX_CAPACITY];	/* their row indexes, ascending */
	bool		rs_conflict_check;	/* check SSI conflicts out per row */

	/* parallel scans */
	ParallelBlockTableScanWorkerData *rs_pbsw;
	BlockNumber rs_pnext;		/* block claimed ahead from the shared
								 * allocator, or Invalid */
	pg_atomic_uint32 *rs_sharedbufs;	/* the participants' recent-buffer
										 * map in the parallel DSM, or NULL */
	BlockNumber rs_nsharedbufs; /* its length */
	int			rs_guess_credit;	/* wrong guesses of a block's buffer
									 * left before guessing pauses */
	uint32		rs_refresh;		/* blocks with this remainder modulo
								 * PAX_USAGE_REFRESH skip ReadRecentBuffer */
} PaxTableScanDescData;

typedef PaxTableScanDescData *PaxTableScanDesc;

/*
 * PaxTupleTableSlot: a slot whose values are read straight from a pinned
 * pax page, one column at a time, when the executor asks for them.
 * By-reference values point into the page; the slot holds its own pin.
 */
typedef struct PaxTupleTableSlot
{
	TupleTableSlot base;

	Buffer		buffer;			/* pinned page, or InvalidBuffer */
	Page		page;
	int			row;			/* row index on the page */
	PaxLayoutCache lcache;		/* layout of page */
	char	   *data;			/* materialised by-ref values, or NULL */
	char	   *cells;			/* decode cells of prefix-encoded columns
								 * (PaxPageFillValues), allocated on first
								 * use, or NULL */
	const int16 *needed;		/* the (zero-based) columns read from the
								 * page, ascending, or NULL for all; the
								 * others read as NULL (see pax_colskip.c) */
	int			nneeded;
	bool		hashdr;			/* rowhdr holds a copy of the row header */
	union
	{
		HeapTupleHeaderData hdr;
		char		bytes[PAX_ROWHDR_SIZE];
	}			rowhdr;			/* row header of a materialised row */
} PaxTupleTableSlot;

/*
 * PaxRowTuple points a HeapTupleData at a row header, so heap's visibility
 * routines run on it unchanged.
 */
static inline void
PaxRowTuple(HeapTuple tuple, Relation rel, Page page, uint16 rowhdrs,
			BlockNumber blkno, int row)
{
	tuple->t_data = PaxRowHeaderOf(rel, page, rowhdrs, row);
	tuple->t_len = PAX_ROWHDR_SIZE;
	tuple->t_tableOid = RelationGetRelid(rel);
	ItemPointerSet(&tuple->t_self, blkno, row + 1);
}

/* ----------------------------------------------------------------
 * Externs
 *
 * Grouped by defining file: module setup first, then in dependency order,
 * lowest layer first: page format (pax_page.c, pax_wal.c, pax_slot.c),
 * visibility and row lock rules, buffers and page choice (pax_buffers.c,
 * pax_hio.c), the access paths, and the SQL-callable extras.
 * ----------------------------------------------------------------
 */

/* pax_am.c */
extern void _PG_init(void);

/* pax_handler.c */
extern const TableAmRoutine *PaxGetTableAmRoutine(void);

/* pax_page.c */
extern uint16 PaxLayoutSize(TupleDesc tupdesc, const PaxPageShape *shape,
							PaxPageLayout *layout);
extern void PaxPageInit(Page page, TupleDesc tupdesc,
						const PaxPageShape *shape);
extern TransactionId PaxLayoutXid(Relation rel);
extern bool PaxPageIsOrphanSlow(Page page);
extern bool PaxPageLayoutUsable(Page page);
extern PaxPageLayout *PaxPageGetLayout(Relation rel, TupleDesc tupdesc,
									   Page page, BlockNumber blkno,
									   PaxLayoutCache *cache);
extern void PaxLayoutCacheInit(PaxLayoutCache *cache, int natts,
							   MemoryContext mcxt);
extern void PaxLayoutCacheFree(PaxLayoutCache *cache);
extern Datum PaxPageGetValue(Page page, const PaxPageLayout *layout,
							 int row, int attno, bool *isnull);
extern void PaxPageFillValues(TupleDesc tupdesc, Page page,
							  const PaxPageLayout *layout, int row,
							  int from, int to,
							  const int16 *needed, int nneeded,
							  Datum *values, bool *isnull, char *cells);
extern char *PaxDecodeCellsFor(char **cells, const PaxPageLayout *layout,
							   int natts, MemoryContext mcxt);
extern char *PaxDecodeCell(int attno);

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
 * the column's prefix and the rest's data (pax.h, "Prefix encoding").  NULL
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
 * PaxNumBuild builds into cell the short varlena numeric of k / 10^dscale
 * with display scale dscale, as numeric's make_result() stores it: digits
 * base 10000 aligned on the decimal point, without leading or trailing
 * zero digits (zero: no digits, weight 0, positive).  dscale is at most
 * PAX_NUM_SHORT_DSCALE_MAX.
 */
static inline void
PaxNumBuild(int64 k, int dscale, char *cell)
{
	static const uint64 p10[4] = {1, 10, 100, 1000};
	int			pad = (4 - dscale % 4) % 4;
	uint16		digits[8];
	int			n = 0;
	int			first;
	int			nfrac = (dscale + 3) / 4;
	int			weight;
	uint64		u = k < 0 ? -(uint64) k : (uint64) k;
	uint16		head;

	/*
	 * from the last digit: the last fraction digit takes the last 4 - pad
	 * decimals, times 10^pad (u times 10^pad could overflow), then four a
	 * digit
	 */
	if (pad != 0 && u != 0)
	{
		digits[n++] = (uint16) ((u % p10[4 - pad]) * p10[pad]);
		u /= p10[4 - pad];
	}
	while (u != 0)
	{
		digits[n++] = (uint16) (u % PAX_NUM_NBASE);
		u /= PAX_NUM_NBASE;
	}
	first = 0;
	while (first < n && digits[first] == 0)
		first++;				/* trailing zero digits */
	weight = n - 1 - nfrac;
	if (first == n)
		weight = 0;
	head = PAX_NUM_SHORT | (k < 0 && first < n ? PAX_NUM_SHORT_SIGN : 0) |
		(dscale << PAX_NUM_SHORT_DSCALE_SHIFT) |
		(weight < 0 ? PAX_NUM_SHORT_WEIGHT_SIGN : 0) |
		(weight & PAX_NUM_SHORT_WEIGHT_MASK);
	SET_VARSIZE_SHORT(cell, VARHDRSZ_SHORT + sizeof(uint16) * (1 + n - first));
	memcpy(cell + VARHDRSZ_SHORT, &head, sizeof(uint16));
	for (int i = n - 1, j = 0; i >= first; i--, j++)
		memcpy(cell + VARHDRSZ_SHORT + sizeof(uint16) * (1 + j), &digits[i],
			   sizeof(uint16));
}

/*
 * PaxNumSlot reads a decimal-scaled numeric column's slot on its page into
 * slot: [0] its base, [1] its factor, [2] its display scale.
 */
static inline void
PaxNumSlot(Page page, const PaxColumnLayout *col, int64 *slot)
{
	memcpy(slot, page + col->numslot, 3 * sizeof(int64));
}

/*
 * PaxNumScaledShort builds the value of row `row` of a decimal-scaled
 * numeric column into cell; NULL when the page's base, factor or scale
 * make no such value: corrupted.
 */
static inline const char *
PaxNumScaledShort(Page page, const PaxColumnLayout *col, int row, char *cell)
{
	int64		slot[3];		/* base, factor, display scale */
	int64		k;

	PaxNumSlot(page, col, slot);
	/* (PaxNumScaledKey never gives PG_INT64_MIN: |k| is below 2^63) */
	if (slot[1] < 1 || slot[2] < 0 || slot[2] > PAX_NUM_SHORT_DSCALE_MAX ||
		pg_mul_s64_overflow((int64) PaxPackedGet(page + col->data, col->bits, row),
							slot[1], &k) ||
		pg_add_s64_overflow(k, slot[0], &k) || k == PG_INT64_MIN)
		return NULL;
	PaxNumBuild(k, (int) slot[2], cell);
	return cell;
}

/*
 * PaxNumScaledKey reads a numeric stored as a short varlena (data, len:
 * after its 1-byte header) as k = value 10^dscale, its display scale
 * into *dscale; false for NaN and infinities, long headers, scales above
 * PAX_NUM_SHORT_DSCALE_MAX, |k| of 2^63 or more, and bytes that
 * PaxNumBuild would not build again from (k, dscale).
 */
static inline bool
PaxNumScaledKey(const char *data, int len, int64 *k, int *dscale)
{
	uint16		head;
	int			weight;
	int			ndigits = (len - (int) sizeof(uint16)) / (int) sizeof(uint16);
	int64		acc = 0;
	int			e10;
	char		cell[PAX_DECODE_CELL];

	if (len < (int) sizeof(uint16) || len % sizeof(uint16) != 0 || ndigits > 16)
		return false;
	memcpy(&head, data, sizeof(uint16));
	if ((head & PAX_NUM_SIGN_MASK) != PAX_NUM_SHORT)
		return false;
	*dscale = (head & PAX_NUM_SHORT_DSCALE_MASK) >> PAX_NUM_SHORT_DSCALE_SHIFT;
	weight = head & PAX_NUM_SHORT_WEIGHT_MASK;
	if (head & PAX_NUM_SHORT_WEIGHT_SIGN)
		weight |= ~PAX_NUM_SHORT_WEIGHT_MASK;
	for (int i = 0; i < ndigits; i++)
	{
		uint16		d;

		memcpy(&d, data + sizeof(uint16) * (1 + i), sizeof(uint16));
		if (d >= PAX_NUM_NBASE || pg_mul_s64_overflow(acc, PAX_NUM_NBASE, &acc))
			return false;
		acc += d;
	}
	/* the last digit weighs 10^(4 (weight - ndigits + 1)) */
	e10 = ndigits == 0 ? 0 : 4 * (weight - ndigits + 1) + *dscale;
	for (; e10 > 0; e10--)
		if (pg_mul_s64_overflow(acc, 10, &acc))
			return false;
	for (; e10 < 0; e10++)
	{
		if (acc % 10 != 0)
			return false;
		acc /= 10;
	}
	*k = (head & PAX_NUM_SHORT_SIGN) ? -acc : acc;
	PaxNumBuild(*k, *dscale, cell);
	return VARSIZE_1B(cell) == VARHDRSZ_SHORT + len &&
		memcmp(cell + VARHDRSZ_SHORT, data, len) == 0;
}

/*
 * PaxInMinipage tells whether a varlena column's values are in its
 * minipage (fixed-width rests, decimal-scaled numerics): no offsets, no
 * value area; PaxMinipageShort builds a row's value into cell (NULL:
 * corrupted).
 */
#define PaxInMinipage(col)	((col)->restwidth != 0 || (col)->numslot != 0)

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

/* PaxEncodedDelta reads the stored offset from the base of row `row`. */
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
		default:
			return ((const uint32 *) data)[row];
	}
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

/* PaxIsScaleDivisor tells whether d is 10^s for s = 0 .. PAX_SCALE_MAX. */
static inline bool
PaxIsScaleDivisor(int64 d)
{
	for (int s = 0; s <= PAX_SCALE_MAX && d >= 1; s++, d /= 10)
		if (d == 1)
			return true;
		else if (d % 10 != 0)
			return false;
	return false;
}

/*
 * PaxScaledDatum is the value of a decimal-scaled float column (attlen 4 or
 * 8) whose row holds the integer k, divisor d: k / d as a double (exact
 * for d a power of ten up to 10^22), for float4 then rounded to it.
 */
static inline Datum
PaxScaledDatum(int64 k, int64 d, int attlen)
{
	double		v = (double) k / (double) d;

	return attlen == 4 ? Float4GetDatum((float4) v) : Float8GetDatum(v);
}

/*
 * PaxScaledKey sets *k to the integer a float value (attlen 4 or 8) stands
 * for in a decimal-scaled column of divisor d, and tells whether the value
 * reads back from it bit for bit (PaxScaledDatum): never for NaN, the
 * infinities, -0 or a k beyond 2^53.
 */
static inline bool
PaxScaledKey(Datum value, int attlen, int64 d, int64 *k)
{
	double		v = attlen == 4 ? (double) DatumGetFloat4(value) :
		DatumGetFloat8(value);
	double		x = v * (double) d;

	if (!(x > -9007199254740992.0 && x < 9007199254740992.0))
		return false;			/* beyond 2^53, or NaN */
	*k = (int64) rint(x);
	if (attlen == 4)
	{
		float4		a = DatumGetFloat4(value);
		float4		b = DatumGetFloat4(PaxScaledDatum(*k, d, 4));

		return memcmp(&a, &b, sizeof(float4)) == 0;
	}
	else
	{
		float8		a = DatumGetFloat8(value);
		float8		b = DatumGetFloat8(PaxScaledDatum(*k, d, 8));

		return memcmp(&a, &b, sizeof(float8)) == 0;
	}
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

extern int	PaxStoredSize(Form_pg_attribute att, const char *p, int maxlen,
						  int *align);
extern uint16 PaxPageRowHeaders(Relation rel, Page page, BlockNumber blkno);
extern bool PaxPageHeaderIsValid(Page page);
extern uint32 PaxRowHeadersAt(Page page);
extern uint16 PaxPageRowHeaderOffset(Relation rel, Page page,
									 BlockNumber blkno);
extern void PaxPageCheckRowNatts(Relation rel, Page page, BlockNumber blkno,
								 HeapTupleHeader tup);
extern bool PaxZoneEligible(Form_pg_attribute att);
extern double PaxZoneNumber(Form_pg_attribute att, Datum v);
extern void PaxZoneUpdate(Page page, const PaxPageLayout *layout,
						  Form_pg_attribute att, int attnum, Datum value);
extern void PaxZoneUpdateRows(Page page, const PaxPageLayout *layout,
							  Form_pg_attribute att, int attnum,
							  const PaxRow *rows, int nrows);
extern bool PaxPageHasFreeSlot(Page page);
extern int	PaxPageTakeSlot(Page page, const PaxPageLayout *layout);
extern void PaxHeaderPageInit(Page page);
extern HeapTupleHeader PaxHeaderPageRow(Page hpage, int row);
extern Buffer PaxHeaderPageRead(Relation rel, Page page, uint16 rowhdrs,
								int mode);
extern bool PaxCompactToRowForm(Relation rel, Page page,
								const PaxPageLayout *layout, BlockNumber blkno);
extern int	PaxCompactFreeSlot(Page page, uint16 rowhdrs);
extern int	PaxCompactOwnHeader(Page page, uint16 rowhdrs, BlockNumber blkno,
								int row, int k, PaxChange *chg);
extern void PaxCompactOwnCopy(HeapTupleHeader dst, Page page, uint16 rowhdrs,
							  BlockNumber blkno, int row);
extern bool PaxCompactHasOverflow(Page page, uint16 rowhdrs);
extern void PaxRowClear(Page page, const PaxPageLayout *layout, int r,
						bool unused);
extern int	PaxPageReclaim(Page page, const PaxPageLayout *layout,
						   TupleDesc tupdesc, const OffsetNumber *rows,
						   int nrows_dead, BlockNumber blkno, Relation rel);
#ifdef USE_ASSERT_CHECKING
extern bool PaxBufferLockedByMe(Buffer buffer, bool exclusive);
#endif

/* pax_wal.c */
extern Page PaxChangeStart(PaxChange *chg, Relation rel, Buffer buffer,
						   bool full);
extern void PaxChangeRange(PaxChange *chg, int offset, int length);
extern void PaxChangeFinish(PaxChange *chg);
struct XLogReaderState;
extern void PaxPageRedo(struct XLogReaderState *record);
extern void PaxPageMask(char *page, BlockNumber blkno);
extern void PaxPageDesc(StringInfo buf, struct XLogReaderState *record);

/* pax_encode.c */
extern bool pax_encode_minipages;
extern bool pax_bitpack_minipages;
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
extern bool PaxScaleEligible(Form_pg_attribute att);
extern bool PaxEncodedFits(Page page, const PaxColumnLayout *col, Datum value);
extern void PaxEncodedStore(Page page, const PaxColumnLayout *col, int row,
							Datum value);
extern int	PaxDictFind(Page page, const PaxColumnLayout *col,
						Form_pg_attribute att, Datum value);
extern double PaxChooseEncodings(TupleDesc tupdesc, const PaxRow *rows,
								 int nrows, const PaxRelCache *hints,
								 int perpage, double pack, bool eager,
								 PaxPageShape *shape);
extern bool PaxZoneUseless(Form_pg_attribute att, const PaxEncodeHint *h,
						   const PaxRow *rows, int nrows, int i);
extern void PaxEncodeHintsUpdate(TupleDesc tupdesc, const PaxRow *rows,
								 int nrows, bool all_only,
								 PaxRelCache *hints);

/* pax_slot.c */
extern PGDLLIMPORT const TupleTableSlotOps TTSOpsPaxTuple;
extern const PaxPageLayout *PaxSlotPinPage(TupleTableSlot *slot,
										   Relation rel, Buffer buffer,
										   BlockNumber blkno);
extern void PaxSlotPrefetchRow(TupleTableSlot *slot, int row);
extern void PaxSlotStoreRow(TupleTableSlot *slot, Relation rel,
							Buffer buffer, BlockNumber blkno, int row);
extern void PaxSlotSetNeeded(TupleTableSlot *slot, const int16 *needed,
							 int nneeded);
extern struct PaxAmHooks *PaxHooks;
extern void PaxHooksInit(void);

/* pax_colskip.c */
extern bool pax_enable_column_skipping;
extern void PaxColSkipInit(void);

/* pax_visibility.c */
extern bool PaxReadRow(Relation rel, Buffer buffer, ItemPointer tid,
					   HeapTuple tuple);
extern bool PaxReadRowAt(Relation rel, Buffer buffer, uint16 rowhdrs,
						 ItemPointer tid, HeapTuple tuple);
extern void PaxTableScanCollectVisible(PaxTableScanDesc scan, Page page,
									   uint16 rowhdrs, const uint16 *cand,
									   int ncand);
extern int	PaxTableScanVisibleAll(PaxTableScanDesc scan, Page page,
								   uint16 rowhdrs, const uint16 *cand,
								   int ncand, uint16 *out);
extern HTSV_Result PaxRowVacuumStatus(HeapTuple tuple,
									  TransactionId oldest_xmin,
									  Buffer buffer, TransactionId *xact);
extern bool PaxKeepRow(Relation rel, Page page, uint16 rowhdrs,
					   BlockNumber blkno, int row, Buffer buffer,
					   TransactionId OldestXmin, double *tups_vacuumed,
					   double *tups_recently_dead);
extern bool PaxAnalyzeRow(Relation rel, Page page, uint16 rowhdrs,
						  BlockNumber blkno, int row, Buffer buffer,
						  TransactionId OldestXmin, double *liverows,
						  double *deadrows);
extern bool PaxPageRowsAllVisible(Relation rel, Page page, uint16 rowhdrs,
								  Buffer buffer, BlockNumber blkno,
								  TransactionId oldest_xmin,
								  TransactionId *cutoff, bool *all_frozen);
extern void PaxClearAllVisible(Relation rel, Buffer buffer, Buffer vmbuffer);
extern void PaxVisibilityMapSet(Relation rel, BlockNumber blkno, Buffer buffer,
								Buffer vmbuffer, TransactionId cutoff,
								uint8 flags);

/* pax_tuplock.c */
extern LOCKMODE PaxTupleLockHeavyMode(LockTupleMode mode);
extern MultiXactStatus PaxXmaxStatus(uint16 infomask, uint16 infomask2);
extern int	PaxMultiMembers(MultiXactId multi, uint16 infomask,
							MultiXactMember **members);
extern bool PaxNoLock(Relation rel, LockWaitPolicy wait_policy);
extern bool PaxWaitXact(Relation rel, ItemPointer tid, TransactionId xid,
						LockWaitPolicy wait_policy, XLTW_Oper oper);
extern bool PaxMultiWait(Relation rel, ItemPointer tid, MultiXactId multi,
						 uint16 infomask, LockTupleMode mode,
						 LockWaitPolicy wait_policy, XLTW_Oper oper,
						 int *remaining);
extern TransactionId PaxMultiUpdater(MultiXactId multi);
extern void PaxMultiHintBits(MultiXactId multi, uint16 *infomask,
							 uint16 *infomask2);
extern void PaxComputeNewXmax(TransactionId xmax, uint16 infomask,
							  uint16 infomask2, TransactionId xid,
							  LockTupleMode mode, bool is_update,
							  TransactionId *new_xmax, uint16 *new_infomask,
							  uint16 *new_infomask2);
extern bool PaxXmaxChanged(HeapTupleHeader hdr, TransactionId xwait,
						   uint16 infomask);
extern TM_Result PaxTestHolder(MultiXactStatus status, TransactionId xid,
							   LockTupleMode mode, HeapTuple tp,
							   bool *needwait);
extern bool PaxHolderVerdict(TransactionId xwait, uint16 infomask,
							 uint16 infomask2, LockTupleMode mode,
							 int *own_mode);

/* pax_buffers.c */
extern bool pax_enable_buffer_guessing;
extern PaxRelCache *PaxGetRelCache(Relation rel, BlockNumber nblocks);
extern void PaxBufferGuessInit(PaxTableScanDesc scan);
extern Buffer PaxReadBuffer(PaxTableScanDesc scan, BlockNumber blkno);
extern void PaxPrefetchBufferHeader(PaxTableScanDesc scan, BlockNumber blkno);
extern void PaxSharedBuffersInit(Relation rel, pg_atomic_uint32 *map,
								 BlockNumber nbufs);
extern void PaxSharedBuffersAttach(PaxTableScanDesc scan,
								   pg_atomic_uint32 *map, BlockNumber nbufs);
extern void PaxSharedBuffersAdopt(Relation rel, pg_atomic_uint32 *map,
								  BlockNumber nbufs);

/* pax_hio.c */
extern Buffer PaxNewPage(Relation rel, struct BulkInsertStateData *bistate);
extern void PaxLockForInsert(Relation rel, Buffer buffer, Buffer *vmbuffer);
extern Buffer PaxTargetPage(Relation rel, struct BulkInsertStateData *bistate,
							Buffer *vmbuffer);
extern Size PaxFsmValue(Page page);
extern Buffer PaxFreeSpacePage(Relation rel, Size varbytes,
							   BufferAccessStrategy strategy,
							   Buffer *vmbuffer);
extern void PaxFreeSpaceUpdate(Relation rel, Buffer buffer);

/* pax_scan.c */
extern TableScanDesc pax_scan_begin(Relation relation, Snapshot snapshot,
									int nkeys, struct ScanKeyData *key,
									ParallelTableScanDesc parallel_scan,
									uint32 flags);
extern void pax_scan_end(TableScanDesc sscan);
extern void pax_scan_rescan(TableScanDesc sscan, struct ScanKeyData *key,
							bool set_params, bool allow_strat,
							bool allow_sync, bool allow_pagemode);
extern bool pax_scan_getnextslot(TableScanDesc sscan,
								 ScanDirection direction,
								 TupleTableSlot *slot);
extern void pax_scan_set_tidrange(TableScanDesc sscan, ItemPointer mintid,
								  ItemPointer maxtid);
extern bool pax_scan_getnextslot_tidrange(TableScanDesc sscan,
										  ScanDirection direction,
										  TupleTableSlot *slot);
extern bool pax_fetch_row_version(Relation relation, ItemPointer tid,
								  Snapshot snapshot, TupleTableSlot *slot);
extern bool pax_tuple_tid_valid(TableScanDesc scan, ItemPointer tid);
extern bool pax_tuple_satisfies_snapshot(Relation rel, TupleTableSlot *slot,
										 Snapshot snapshot);
#if PG_VERSION_NUM >= 170000
extern bool pax_scan_analyze_next_block(TableScanDesc scan,
										struct ReadStream *stream);
#else
extern bool pax_scan_analyze_next_block(TableScanDesc scan,
										BlockNumber blockno,
										BufferAccessStrategy bstrategy);
#endif
extern bool pax_scan_analyze_next_tuple(TableScanDesc scan,
										TransactionId OldestXmin,
										double *liverows, double *deadrows,
										TupleTableSlot *slot);
#if PG_VERSION_NUM >= 180000
extern bool pax_scan_bitmap_next_tuple(TableScanDesc scan,
									   TupleTableSlot *slot, bool *recheck,
									   uint64 *lossy_pages,
									   uint64 *exact_pages);
#else
extern bool pax_scan_bitmap_next_block(TableScanDesc scan,
									   struct TBMIterateResult *tbmres);
extern bool pax_scan_bitmap_next_tuple(TableScanDesc scan,
									   struct TBMIterateResult *tbmres,
									   TupleTableSlot *slot);
#endif
extern bool pax_scan_sample_next_block(TableScanDesc scan,
									   struct SampleScanState *scanstate);
extern bool pax_scan_sample_next_tuple(TableScanDesc scan,
									   struct SampleScanState *scanstate,
									   TupleTableSlot *slot);

extern BlockNumber PaxTableScanNextBlock(PaxTableScanDesc scan,
										 ScanDirection direction);
extern void PaxTableScanFinish(PaxTableScanDesc scan);
extern Page PaxTableScanPinAhead(PaxTableScanDesc scan, BlockNumber blkno);
extern BlockNumber PaxTableScanPeekNextBlock(PaxTableScanDesc scan);
extern Page PaxTableScanLockPage(PaxTableScanDesc scan, BlockNumber blkno);

/* pax_bulk.c */
extern bool pax_batch_bulk_inserts;
extern void PaxBulkInit(void);

/*
 * Kept rows (pax_bulk.c), as the access paths see them: the relation whose
 * rows pax_tuple_insert keeps (InvalidOid when none are kept), and the
 * functions, set by PaxBulkInit, that keep a row, place the kept ones, and
 * take a batch of COPY's (whose last rows they may keep).
 * The access paths reach pax_bulk.c, a layer above them, only through
 * these (pax_am/README, "Dependency direction").
 */
typedef bool (*PaxBulkKeepFunc) (Relation rel, TupleTableSlot *slot,
								 CommandId cid, int options,
								 struct BulkInsertStateData *bistate);
typedef void (*PaxBulkPlaceFunc) (Relation rel);
typedef bool (*PaxBulkMultiFunc) (Relation rel, TupleTableSlot **slots,
								  int nslots, CommandId cid, int options,
								  struct BulkInsertStateData *bistate);
extern Oid	pax_bulk_relid;
extern PaxBulkKeepFunc PaxBulkKeepHook;
extern PaxBulkPlaceFunc PaxBulkPlaceHook;
extern PaxBulkMultiFunc PaxBulkMultiHook;

/*
 * PaxBulkPlaceFor places the rows pax_tuple_insert kept for rel, if any,
 * before rel's rows or storage are read or changed.
 */
static inline void
PaxBulkPlaceFor(Relation rel)
{
	if (unlikely(pax_bulk_relid != InvalidOid) &&
		pax_bulk_relid == RelationGetRelid(rel))
		PaxBulkPlaceHook(rel);
}

/* pax_insert.c */
extern bool pax_compact_rows;
extern void pax_tuple_insert(Relation relation, TupleTableSlot *slot,
							 CommandId cid, int options,
							 struct BulkInsertStateData *bistate);
extern void pax_multi_insert(Relation relation, TupleTableSlot **slots,
							 int ntuples, CommandId cid, int options,
							 struct BulkInsertStateData *bistate);
extern void pax_finish_bulk_insert(Relation relation, int options);
extern void PaxPrepareRow(Relation rel, TupleTableSlot *slot, int options,
						  HeapTuple oldtup, PaxRow *row);
extern int	PaxMultiInsert(Relation relation, TupleTableSlot **slots,
						   int ntuples, CommandId cid, int options,
						   struct BulkInsertStateData *bistate,
						   TransactionId xid, bool keep_tail);
extern int	PaxInsertRows(Relation rel, PaxRow *rows, int nrows,
						  CommandId cid, int options,
						  struct BulkInsertStateData *bistate,
						  TransactionId xid, bool keep_tail);
extern void PaxPageReinit(Relation rel, Page page);
extern void PaxInsertVersion(Relation relation, TupleTableSlot *slot,
							 CommandId cid, int options,
							 const PaxRowInit *init, HeapTuple oldtup,
							 HeapTuple *newtup);

/* pax_modify.c */
extern TM_Result pax_tuple_delete(Relation relation, ItemPointer tid,
								  CommandId cid, Snapshot snapshot,
								  Snapshot crosscheck, bool wait,
								  TM_FailureData *tmfd, bool changingPart);
extern TM_Result pax_tuple_update(Relation relation, ItemPointer otid,
								  TupleTableSlot *slot, CommandId cid,
								  Snapshot snapshot, Snapshot crosscheck,
								  bool wait, TM_FailureData *tmfd,
								  LockTupleMode *lockmode,
								  PaxUpdateIndexes *update_indexes);
extern TM_Result pax_tuple_lock(Relation relation, ItemPointer tid,
								Snapshot snapshot, TupleTableSlot *slot,
								CommandId cid, LockTupleMode mode,
								LockWaitPolicy wait_policy, uint8 flags,
								TM_FailureData *tmfd);
extern void pax_tuple_insert_speculative(Relation relation,
										 TupleTableSlot *slot, CommandId cid,
										 int options,
										 struct BulkInsertStateData *bistate,
										 uint32 specToken);
extern void pax_tuple_complete_speculative(Relation relation,
										   TupleTableSlot *slot,
										   uint32 specToken, bool succeeded);
extern void pax_get_latest_tid(TableScanDesc sscan, ItemPointer tid);

/* pax_vacuum.c */
extern void pax_relation_vacuum(Relation rel, struct VacuumParams *params,
								BufferAccessStrategy bstrategy);

/* pax_rewrite.c */
extern void pax_relation_copy_for_cluster(Relation OldTable,
										  Relation NewTable,
										  Relation OldIndex, bool use_sort,
										  TransactionId OldestXmin,
										  TransactionId *xid_cutoff,
										  MultiXactId *multi_cutoff,
										  double *num_tuples,
										  double *tups_vacuumed,
										  double *tups_recently_dead);

/* pax_index.c */
extern IndexFetchTableData *pax_index_fetch_begin(Relation rel);
extern void pax_index_fetch_reset(IndexFetchTableData *scan);
extern void pax_index_fetch_end(IndexFetchTableData *scan);
extern bool pax_index_fetch_tuple(struct IndexFetchTableData *scan,
								  ItemPointer tid, Snapshot snapshot,
								  TupleTableSlot *slot, bool *call_again,
								  bool *all_dead);
extern TransactionId pax_index_delete_tuples(Relation rel,
											 TM_IndexDeleteOp *delstate);
extern double pax_index_build_range_scan(Relation tableRelation,
										 Relation indexRelation,
										 struct IndexInfo *indexInfo,
										 bool allow_sync, bool anyvisible,
										 bool progress,
										 BlockNumber start_blockno,
										 BlockNumber numblocks,
										 IndexBuildCallback callback,
										 void *callback_state,
										 TableScanDesc scan);
extern void pax_index_validate_scan(Relation tableRelation,
									Relation indexRelation,
									struct IndexInfo *indexInfo,
									Snapshot snapshot,
									struct ValidateIndexState *state);

/* pax_stats.c */
extern Relation PaxOpenForStats(Oid relid);

/*
 * pax's WAL resource manager (pax_logical.c registers it when preloaded):
 * its ID, from the range PostgreSQL leaves to extensions (RM_MIN_CUSTOM_ID
 * .. RM_MAX_CUSTOM_ID), is written into WAL, and changing it makes WAL
 * written before unreadable.  Record types (the info byte's resource
 * manager bits): logical decoding's (pax_logical.c), and page changes
 * (pax_wal.c).
 */
#define PAX_RMGR_ID			138
#define PAX_RMGR_NAME		"pax"
#define XLOG_PAX_INSERT		0x00
#define XLOG_PAX_UPDATE		0x10
#define XLOG_PAX_DELETE		0x20
#define XLOG_PAX_CONFIRM	0x30
#define XLOG_PAX_PAGE		0x40

/* pax_logical.c */
extern PGDLLIMPORT bool pax_rmgr_registered;
extern void PaxLogicalInit(void);
extern bool PaxLogicalWanted(Relation rel, int options);
extern void PaxLogicalLogInserts(Relation rel, const PaxRow *rows, int nrows,
								 bool speculative, bool last);
extern void PaxLogicalLogUpdate(Relation rel, HeapTuple oldkey, HeapTuple newtup);
extern void PaxLogicalLogDelete(Relation rel, HeapTuple oldkey, bool super);
extern void PaxLogicalLogConfirm(Relation rel);
extern HeapTuple PaxLogicalOldKey(Relation rel, Datum *values, bool *isnull,
								  bool key_required);
extern void PaxLogicalRefuseWrite(Relation rel);

/*
 * PaxLogicalCheckWrite is called at every write to a pax relation, before
 * any change: with wal_level = logical and pax_am not preloaded (no
 * resource manager to log the change for decoding), a write to a
 * logically logged relation is an error.
 */
static inline void
PaxLogicalCheckWrite(Relation rel)
{
	if (unlikely(XLogLogicalInfoActive()) && !pax_rmgr_registered)
		PaxLogicalRefuseWrite(rel);
}

#endif							/* PAX_H */
