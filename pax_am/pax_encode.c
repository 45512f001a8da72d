/*-------------------------------------------------------------------------
 *
 * pax_encode.c
 *	  Encoded minipages: frame of reference for integer-like columns and
 *	  dictionaries for variable-length ones (pax_am/README, "Encoded
 *	  minipages" and "Dictionary minipages"): reading and storing encoded
 *	  values, and choosing a new page's encodings from the rows it is shaped
 *	  for.
 *
 * A page's encodings are chosen when it is initialised (PaxChooseEncodings,
 * called by the page shape choice of pax_shape.c) and never change; a row
 * whose values they cannot hold goes to another page.  Dictionaries (finding
 * an entry, choosing one) are pax_dict.c's, and the hints that pages of rows
 * inserted one at a time are shaped from pax_hints.c's.
 *
 * pax_am/pax_encode.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_hio.h"
#include "pax_encode.h"

/* Rows a page's batch must have for a column to be prefix-encoded. */
#define PAX_PREFIX_MIN_ROWS		4

/* Room an encoded column keeps besides a quarter more (PaxChooseEncodings). */
#define PAX_ENCODE_SLACK		16

/*
 * Rows the last page must have had for its values to count as clustered
 * (PaxChooseEncodings): a page that ended early says little.
 */
#define PAX_ENCODE_CLUSTER_ROWS	32

/* pax.encode_minipages: new pages store their columns encoded */
bool		pax_encode_minipages = true;

/* pax.bitpack_minipages: bulk-loaded pages may bit-pack encoded columns */
bool		pax_bitpack_minipages = true;

/*
 * A bulk-loaded page bit-packs an encoded column when the bits its range
 * takes save at least an eighth of the byte width it would get otherwise
 * (PaxChooseEncodings): 1-byte columns of up to 7 bits, 2-byte ones of up
 * to 14, 4-byte ones of up to 28.  Unpacking costs the typed loops a little
 * per row, and fewer pages save as much, warm and cold
 * (bench/results/density.md).
 */
#define PAX_PACK_MAX_SHARE_NUM		7
#define PAX_PACK_MAX_SHARE_DEN		8

/*
 * A bulk-built page packs a column in the previous page's bits when its own
 * range needs up to this many fewer (PaxChooseEncodings): pages of a batch
 * then share a few shapes, whose layouts PaxPageGetLayout's cache keeps,
 * rather than as many as the columns' bit counts combine into, each of
 * which a scan would lay out afresh.
 */
#define PAX_PACK_STICKY_BITS		2

/* ----------------------------------------------------------------
 * Choosing a new page's encodings
 * ----------------------------------------------------------------
 */

/*
 * PaxRestAlphabet finds the alphabet of column i's rests among the rows
 * (their data after the first plen bytes, which all share): its distinct
 * bytes other than zero, into alpha (a count, then the bytes in ascending
 * order), when there are at most PAX_SYMREST_MAX_SYMBOLS of them.  Where digits are among
 * them, the digits not seen yet join as long as there is room: a few rows
 * seldom show all ten.  False when there are more.
 */
static bool
PaxRestAlphabet(Form_pg_attribute att, const PaxRow *rows, int nrows, int i,
				int plen, uint8 *alpha)
{
	uint64		seen[4] = {0};	/* a bit a byte value */
	int			n = 0;
	bool		digits = false;

#define PAX_SEEN(b)		((seen[(b) >> 6] >> ((b) & 63)) & 1)
#define PAX_SEE(b)		(seen[(b) >> 6] |= UINT64CONST(1) << ((b) & 63), \
						 alpha[++n] = (uint8) (b))
	for (int r = 0; r < nrows; r++)
	{
		const char *data;
		int			len;

		if (rows[r].isnull[i] || !PaxShortData(att, rows[r].values[i], &data, &len))
			continue;
		for (int j = plen; j < len; j++)
		{
			uint8		b = (uint8) data[j];

			if (b == 0 || PAX_SEEN(b))
				continue;
			if (n == PAX_SYMREST_MAX_SYMBOLS)
				return false;
			PAX_SEE(b);
			digits |= b >= '0' && b <= '9';
		}
	}
	for (int b = '0'; digits && b <= '9' && n < PAX_SYMREST_MAX_SYMBOLS; b++)
		if (!PAX_SEEN(b))
			PAX_SEE(b);
#undef PAX_SEEN
#undef PAX_SEE
	/* in ascending order (PaxSymCode searches it) */
	for (int k = 2; k <= n; k++)
	{
		uint8		b = alpha[k];
		int			m = k - 1;

		for (; m >= 1 && alpha[m] > b; m--)
			alpha[m + 1] = alpha[m];
		alpha[m + 1] = b;
	}
	alpha[0] = (uint8) n;
	return true;
}

/*
 * PaxChoosePrefix decides whether varlena column i of a page built from a
 * batch is prefix-encoded (pax_encoding.h, "Prefix encoding"): when all its non-null
 * values among the rows looked ahead at (at least PAX_PREFIX_MIN_ROWS) are
 * stored as short varlenas.  With rests (the data after the shared
 * prefix, up to 15 bytes of it, maybe none) of at most PAX_FIXREST_MAX
 * bytes, none ending with a zero byte, and fewer bytes a row at the
 * longest rest's width than a plain prefix column's offset, header and
 * rest: fixed-width rests (pax_encoding.h, "Prefix encoding with fixed-width
 * rests"), in 4-bit codes where their bytes make an alphabet of at most
 * PAX_SYMREST_MAX_SYMBOLS (PaxRestAlphabet) and the codes cost less.
 * Else, when their data share a first byte or more and the bytes
 * so saved exceed the prefix area: the longest prefix they share (up to
 * what PAX_PREFIX_MAX_UNITS units hold).  Returns the value-area bytes it
 * saves over the rows, 0 if the column is not encoded.
 */
static double
PaxChoosePrefix(TupleDesc tupdesc, const PaxRow *rows, int nrows, int i,
				PaxPageShape *shape)
{
	Form_pg_attribute att = TupleDescAttr(tupdesc, i);
	const char *first = NULL;
	int			plen = 0;
	int			n = 0;
	int			maxlen = 0;
	double		sumlen = 0;
	bool		zeroend = false;
	int			units;
	int			fplen;
	int			rest;
	uint8	   *area;

	for (int r = 0; r < nrows; r++)
	{
		const char *data;
		int			len;
		int			k = 0;

		if (rows[r].isnull[i])
			continue;
		if (!PaxShortData(att, rows[r].values[i], &data, &len))
			return 0;
		n++;
		sumlen += len;
		maxlen = Max(maxlen, len);
		zeroend |= len > 0 && data[len - 1] == 0;
		if (first == NULL)
		{
			first = data;
			plen = Min(len, PAX_PREFIX_AREA_MAX - 1);
			continue;
		}
		while (k < plen && k < len && data[k] == first[k])
			k++;
		plen = k;
	}
	if (n < PAX_PREFIX_MIN_ROWS)
		return 0;

	/*
	 * short rests: R bytes a row (or R codes, when their bytes make a small
	 * alphabet) instead of an offset, a header and a rest
	 */
	fplen = Min(plen, PAX_FIXREST_AREA - 1);
	rest = Max(maxlen - fplen, 1);
	if (!zeroend && rest <= PAX_FIXREST_MAX)
	{
		uint8		alpha[1 + PAX_SYMREST_MAX_SYMBOLS];
		double		plain = (double) n * (PAX_VAROFF_SIZE + VARHDRSZ_SHORT) +
			sumlen - (double) n * fplen;
		double		fixed = (double) n * rest + PAX_FIXREST_AREA;
		double		sym = PaxRestAlphabet(att, rows, nrows, i, fplen, alpha) ?
			(double) n * rest * PAX_SYMREST_BITS / 8 + PAX_SYMREST_AREA +
			sizeof(uint64) : plain;

		if (Min(fixed, sym) < plain)
		{
			PaxShapeEncode(tupdesc, shape);
			if (shape->prefixes == NULL)
				shape->prefixes = palloc0((Size) tupdesc->natts * PAX_PREFIX_AREA_MAX);
			area = &shape->prefixes[i * PAX_PREFIX_AREA_MAX];
			area[0] = fplen;
			memcpy(area + 1, first, fplen);
			if (sym < fixed)
			{
				shape->widths[i] = PAX_SYMREST_BASE + rest;
				memcpy(area + PAX_FIXREST_AREA, alpha, 1 + alpha[0]);
			}
			else
				shape->widths[i] = PAX_FIXREST_BASE + rest;
			/* the values leave the value area (the minipage: its layout) */
			return sumlen + (double) n * VARHDRSZ_SHORT;
		}
	}

	units = (plen + 1 + 7) / 8;
	if (plen == 0 || (double) plen * n <= PaxPrefixAreaSize(units))
		return 0;
	PaxShapeEncode(tupdesc, shape);
	if (shape->prefixes == NULL)
		shape->prefixes = palloc0((Size) tupdesc->natts * PAX_PREFIX_AREA_MAX);
	shape->widths[i] = PAX_PREFIX_FLAG | units;
	area = &shape->prefixes[i * PAX_PREFIX_AREA_MAX];
	area[0] = plen;
	memcpy(area + 1, first, plen);
	return (double) plen * n;
}

/*
 * PaxEncodeRange chooses the width and base of an encoded column whose
 * values so far span lo .. hi, with room for `extra` more (at least), a
 * quarter of the room left below lo; false if the span needs the type's
 * own width.
 */
static bool
PaxEncodeRange(int64 lo, int64 hi, uint64 extra, int attlen, uint8 *width,
			   int64 *base)
{
	uint64		span = (uint64) hi - (uint64) lo;
	uint64		need,
				room,
				below;

	if (span > PG_UINT32_MAX)
		return false;
	need = span + extra;
	*width = need <= ((uint64) 1 << 8) ? 1 :
		need <= ((uint64) 1 << 16) ? 2 :
		need <= ((uint64) 1 << 32) ? 4 : 8;
	if (*width >= attlen)
		return false;
	room = (uint64) 1 << (8 * *width);
	below = (room - 1 - span) / 4;
	/* lo - below, but never below the least int64 */
	*base = lo < PG_INT64_MIN + (int64) below ? PG_INT64_MIN :
		lo - (int64) below;
	return true;
}

/* PaxRowsRange's loop over the rows, reading values with get */
#define PAX_ROWS_RANGE_LOOP(get) \
	for (int r = 0; r < nrows; r++) \
	{ \
		int64		v; \
\
		if (rows[r].isnull[i]) \
			continue; \
		v = (int64) get(rows[r].values[i]); \
		l = Min(l, v); \
		h = Max(h, v); \
		n++; \
	}

/*
 * PaxRowsRange sets *lo and *hi to the least and greatest value of column
 * i (eligible for frame of reference, attlen bytes) among rows[0..nrows),
 * and returns how many of them are not NULL (0: *lo and *hi unset).
 */
int
PaxRowsRange(const PaxRow *rows, int nrows, int i, int attlen, int64 *lo,
			 int64 *hi)
{
	int			n = 0;
	int64		l = PG_INT64_MAX;
	int64		h = PG_INT64_MIN;

	/* a loop per width: every row of a bulk insert passes here per page */
	if (attlen == 2)
		PAX_ROWS_RANGE_LOOP(DatumGetInt16)
	else if (attlen == 4)
		PAX_ROWS_RANGE_LOOP(DatumGetInt32)
	else
		PAX_ROWS_RANGE_LOOP(DatumGetInt64)
	if (n > 0)
	{
		*lo = l;
		*hi = h;
	}
	return n;
}

/* PaxGcd is the greatest common divisor of g and d (0 and d: d). */
static inline uint64
PaxGcd(uint64 g, uint64 d)
{
	while (d != 0)
	{
		uint64		t = g % d;

		g = d;
		d = t;
	}
	return g;
}

/*
 * PaxRowsGcd is the greatest common divisor of the differences from lo of
 * column i's non-null values among rows[0..nrows) (attlen bytes, none
 * below lo): 0 when they all equal lo.
 */
static uint64
PaxRowsGcd(const PaxRow *rows, int nrows, int i, int attlen, int64 lo)
{
	uint64		g = 0;

	for (int r = 0; r < nrows && g != 1; r++)
		if (!rows[r].isnull[i])
			g = PaxGcd(g, (uint64) PaxEncodedInt(rows[r].values[i], attlen) -
					   (uint64) lo);
	return g;
}

/*
 * PaxRowsScale finds the least divisor d = 10^s (s = 0 .. PAX_SCALE_MAX)
 * by which every non-null value of float column i (attlen bytes) among
 * rows[0..nrows) is an integer that reads back bit for bit (PaxScaledKey),
 * and sets *lo and *hi to the least and greatest of those integers:
 * d, or 0 when there is none (or no value).  A value exact at 10^s is
 * exact at 10^(s+1) too (the same real number, rounded once), so the
 * divisor only rises as the rows are read, and a second pass checks them
 * all at the last one.
 */
static int64
PaxRowsScale(const PaxRow *rows, int nrows, int i, int attlen, int64 *lo,
			 int64 *hi)
{
	int64		d = 1;
	int			s = 0;
	int			n = 0;
	int64		k;

	for (int r = 0; r < nrows; r++)
	{
		if (rows[r].isnull[i])
			continue;
		while (!PaxScaledKey(rows[r].values[i], attlen, d, &k))
		{
			if (++s > PAX_SCALE_MAX)
				return 0;
			d *= 10;
		}
	}
	*lo = PG_INT64_MAX;
	*hi = PG_INT64_MIN;
	for (int r = 0; r < nrows; r++)
	{
		if (rows[r].isnull[i])
			continue;
		if (!PaxScaledKey(rows[r].values[i], attlen, d, &k))
			return 0;
		*lo = Min(*lo, k);
		*hi = Max(*hi, k);
		n++;
	}
	return n > 0 ? d : 0;
}

/*
 * PaxRowsFitLast tells whether the non-null values of fixed-width column i
 * among rows[0..nrows) all fit the bit-packed or factored encoding the
 * last page shaped from a page's worth of rows gave the column (its hint's
 * lastwidth, lastbase and lastfactor; a float column's, decimal-scaled):
 * the encoding of the page that starts at a batch's end, whose few rows
 * tell too little of the ranges the next batch's rows need.
 */
static bool
PaxRowsFitLast(Form_pg_attribute att, const PaxRow *rows, int nrows, int i,
			   const PaxEncodeHint *h)
{
	PaxEncoding enc = PaxEncodingOf(h->lastwidth, att);
	bool		hasfactor = enc == PAX_ENC_FACTOR || enc == PAX_ENC_SCALED_FLOAT;
	int			bits = enc == PAX_ENC_PACKED ? PaxPackedBits(h->lastwidth) :
		hasfactor ? PaxFactorBits(h->lastwidth) : 0;
	bool		scaled = PaxScaleEligible(att);
	int64		divisor = scaled ? h->lastfactor : 0;
	uint64		factor = !scaled && hasfactor ? (uint64) h->lastfactor : 1;
	int64		k;

	if (bits == 0 ||
		(scaled && !(hasfactor && PaxIsScaleDivisor(h->lastfactor))) ||
		(!scaled && hasfactor && h->lastfactor < 2))
		return false;
	for (int r = 0; r < nrows; r++)
	{
		if (rows[r].isnull[i])
			continue;
		if (!PaxEncodedKey(rows[r].values[i], att->attlen, divisor, &k) ||
			!PaxEncodedValueFits(k, h->lastbase, factor,
								 ((uint64) 1 << bits) - 1))
			return false;
	}
	return true;
}

/* PaxBitsFor is the bits that hold 0 .. need - 1 (64 beyond 2^32). */
static inline int
PaxBitsFor(double need)
{
	return need < 2 ? 1 : need >= (double) PG_UINT32_MAX ? 64 :
		pg_leftmost_one_pos64((uint64) need - 1) + 1;
}

/*
 * PaxRoomyBits is the bits a range of `span` takes bit-packed with its room
 * (times pack, and a sixteenth more), as PaxChooseEncodings packs: for a
 * page's own rows (pack 1), all 32 bits where those hold the range but not
 * the room, no value of the range left out.
 */
static inline int
PaxRoomyBits(uint64 span, double pack)
{
	int			bits = PaxBitsFor((double) span * pack + span / 16 + 1);

	if (bits > PAX_PACKED_MAX_BITS && pack == 1 && span <= PG_UINT32_MAX)
		bits = PAX_PACKED_MAX_BITS;
	return bits;
}

/*
 * PaxChooseNumScale decides whether numeric column i of a page built from
 * a batch is decimal-scaled (pax_encoding.h, PAX_NUMSCALE_BASE): when all its
 * non-null values among the rows (at least PAX_PREFIX_MIN_ROWS) read as
 * scaled integers (PaxNumScaledKey) of one display scale, whose range
 * over their common factor takes at most 31 bits with its room (times
 * pack, as PaxChooseEncodings packs integers).  Returns the value-area
 * bytes it saves over the rows, 0 if the column is not encoded.
 */
static double
PaxChooseNumScale(TupleDesc tupdesc, const PaxRow *rows, int nrows, int i,
				  double pack, PaxPageShape *shape)
{
	Form_pg_attribute att = TupleDescAttr(tupdesc, i);
	int64	   *ks = palloc(nrows * sizeof(int64));
	int64		slot[3];		/* base, factor, display scale */
	int			n = 0;
	int			dscale = -1;
	double		sumlen = 0;
	uint64		g = 0;
	int64		hi;
	int			bits;

	for (int r = 0; r < nrows; r++)
	{
		const char *data;
		int			len;
		int			d;

		if (rows[r].isnull[i])
			continue;
		if (!PaxShortData(att, rows[r].values[i], &data, &len) ||
			!PaxNumScaledKey(data, len, &ks[n], &d) ||
			(dscale >= 0 && d != dscale))
		{
			pfree(ks);
			return 0;
		}
		dscale = d;
		sumlen += len;
		n++;
	}
	if (n < PAX_PREFIX_MIN_ROWS)
	{
		pfree(ks);
		return 0;
	}
	slot[0] = hi = ks[0];
	for (int r = 1; r < n; r++)
	{
		slot[0] = Min(slot[0], ks[r]);
		hi = Max(hi, ks[r]);
	}
	for (int r = 0; r < n && g != 1; r++)
		g = PaxGcd(g, (uint64) ks[r] - (uint64) slot[0]);
	slot[1] = g == 0 ? 1 : (int64) g;
	slot[2] = dscale;
	bits = PaxRoomyBits(((uint64) hi - (uint64) slot[0]) / (uint64) slot[1], pack);
	pfree(ks);
	if (bits >= 32)
		return 0;
	PaxShapeEncode(tupdesc, shape);
	if (shape->prefixes == NULL)
		shape->prefixes = palloc0((Size) tupdesc->natts * PAX_PREFIX_AREA_MAX);
	memcpy(&shape->prefixes[i * PAX_PREFIX_AREA_MAX], slot, sizeof(slot));
	shape->widths[i] = PAX_NUMSCALE_BASE + bits;
	return sumlen + (double) n * VARHDRSZ_SHORT;
}

/*
 * PaxChooseVarlena chooses the encoding of variable-length column i of a
 * new page (PaxChooseEncodings): a dictionary (from the rows at hand, or
 * for rows one at a time from the hints); else, for the numerics of a
 * batch, decimal scaling; else, unless `eager`, a prefix.  Adds the
 * value-area bytes it saves over the rows to *saved, those a row saves to
 * *saved_per_row.
 */
static inline void
PaxChooseVarlena(TupleDesc tupdesc, const PaxRow *rows, int nrows, int i,
				 const PaxRelCache *hints, double pack, bool eager, bool bulk,
				 PaxPageShape *shape, double *saved, double *saved_per_row)
{
	Form_pg_attribute att = TupleDescAttr(tupdesc, i);

	if (att->attisdropped || PaxBitIsSet(shape->absent, i))
		return;
	if (bulk)
		*saved += PaxChooseDictionary(tupdesc, rows, nrows, i,
									  pack >= 1 && pax_bitpack_minipages,
									  shape);
	else if (hints != NULL && i < PAX_HINT_ATTS)
		*saved_per_row += PaxHintDictionary(tupdesc, &hints->hints[i],
											i, shape);
	/* numerics of a batch, not in a dictionary: decimal-scaled? */
	if (bulk && pack >= 1 && pax_bitpack_minipages &&
		att->atttypid == NUMERICOID &&
		(shape->widths == NULL || shape->widths[i] == 0))
		*saved += PaxChooseNumScale(tupdesc, rows, nrows, i, pack, shape);
	/* the rows of a batch, not in a dictionary: a shared prefix? */
	if (!eager && (shape->widths == NULL || shape->widths[i] == 0))
		*saved += PaxChoosePrefix(tupdesc, rows, nrows, i, shape);
}

/*
 * PaxChooseScaled chooses for float column i of a page built from a batch
 * (PaxChooseEncodings) a decimal-scaled encoding, bit-packed, when it
 * saves: true with *width, *base and *factor (the divisor) set.
 */
static inline bool
PaxChooseScaled(Form_pg_attribute att, const PaxRow *rows, int nrows, int i,
				double pack, bool bulk, const PaxPageShape *shape,
				uint8 *width, int64 *base, uint64 *factor)
{
	int64		lo = 0,
				hi = 0;
	uint64		span;
	int			bits;

	if (!bulk || pack < 1 || !pax_bitpack_minipages ||
		PaxBitIsSet(shape->absent, i) ||
		(*factor = PaxRowsScale(rows, nrows, i, att->attlen, &lo,
								&hi)) == 0)
		return false;
	span = (uint64) hi - (uint64) lo;
	bits = PaxRoomyBits(span, pack);
	if (bits > PAX_PACKED_MAX_BITS ||
		bits * PAX_PACK_MAX_SHARE_DEN >
		8 * att->attlen * PAX_PACK_MAX_SHARE_NUM)
		return false;
	*width = PAX_FACTOR_FLAG | (bits - 1);
	*base = lo;
	return true;
}

/*
 * PaxChooseBatchRange chooses the encoding of integer-like column i of a
 * page built from a batch whose non-null values span lo .. hi
 * (PaxChooseEncodings): divided by their common factor, bit-packed, or in
 * fewer bytes than the type's.  True with *width and *base set, and
 * *factor (0 unless factored); false when the column stays unencoded.
 */
static inline bool
PaxChooseBatchRange(Form_pg_attribute att, const PaxRow *rows, int nrows,
					int i, const PaxRelCache *hints, double pack, int64 lo,
					int64 hi, uint8 *width, int64 *base, uint64 *factor)
{
	uint64		span = (uint64) hi - (uint64) lo;
	bool		bytes;
	int			unpacked;	/* bytes a value takes if not packed */
	double		need;
	int			bits;

	if (span == 0 && pack == 1 && pax_bitpack_minipages)
	{
		/* the page's rows all hold one value: no minipage */
		*width = PAX_CONST_WIDTH;
		*base = lo;
		*factor = 0;
		return true;
	}
	bytes = PaxEncodeRange(lo, hi, span / 16 + 1, att->attlen, width,
						   base);
	unpacked = bytes ? *width : att->attlen;
	/* bits for the range (times pack) and a sixteenth more, from lo */
	need = (double) span * pack + span / 16 + 1;
	bits = PaxBitsFor(need);
	/* the last page's bits when a little more (fewer page shapes) */
	if (hints != NULL && i < PAX_HINT_ATTS &&
		hints->hints[i].packbits > bits &&
		hints->hints[i].packbits - bits <= PAX_PACK_STICKY_BITS)
		bits = hints->hints[i].packbits;
	if (pack >= 1 && pax_bitpack_minipages &&
		(*factor = PaxRowsGcd(rows, nrows, i, att->attlen, lo)) > 1)
	{
		/*
		 * The values' common factor: fewer bits for the same rows,
		 * with the same room as packing keeps?  More than a few
		 * fewer: the plain bits keep more room for the rows a page
		 * takes beyond those looked at (sticky bits), and a small
		 * factor saves fewer bits than it costs rows.  (A
		 * range that needs all 32 bits without the room gets them:
		 * no value of it is left out.)
		 */
		int			fbits = PaxRoomyBits(span / *factor, pack);

		if (fbits + PAX_PACK_STICKY_BITS < Min(bits, 8 * att->attlen) &&
			fbits <= PAX_PACKED_MAX_BITS &&
			fbits * PAX_PACK_MAX_SHARE_DEN <=
			8 * unpacked * PAX_PACK_MAX_SHARE_NUM)
		{
			*width = PAX_FACTOR_FLAG | (fbits - 1);
			*base = lo;
			return true;
		}
	}
	*factor = 0;
	if (pack >= 1 && pax_bitpack_minipages && bits <= PAX_PACKED_MAX_BITS &&
		bits * PAX_PACK_MAX_SHARE_DEN <=
		8 * unpacked * PAX_PACK_MAX_SHARE_NUM)
	{
		*width = PAX_PACKED_FLAG | bits;
		*base = lo;
	}
	else if (!bytes)
		return false;
	return true;
}

/*
 * PaxChooseHintRange chooses the range of integer-like column i of a page
 * shaped for a few rows (one at a time) from the column's hint, the ranges
 * of the rows placed lately (PaxChooseEncodings); set tells whether the
 * rows at hand have a non-null value, spanning lo .. hi.  True with *width
 * and *base set; false when the column stays unencoded.
 */
static inline bool
PaxChooseHintRange(Form_pg_attribute att, const PaxRelCache *hints, int i,
				   bool set, int64 lo, int64 hi, int perpage, uint8 *width,
				   int64 *base)
{
	const PaxEncodeHint *h;
	uint64		recent,
				all;

	/* few rows to go by: the rows placed lately too */
	if (hints == NULL || i >= PAX_HINT_ATTS)
		return false;
	h = &hints->hints[i];
	if (!h->set || !h->all_set)
		return false;
	recent = (uint64) h->hi - (uint64) h->lo;
	all = (uint64) h->all_hi - (uint64) h->all_lo;
	if (set && recent < all / 4 && h->nrecent >= PAX_ENCODE_CLUSTER_ROWS &&
		lo > h->hi)
	{
		/* clustered values: the page's range from the new ones */
		uint64		extra = recent + recent / 4 + PAX_ENCODE_SLACK;

		if (!PaxEncodeRange(lo, hi, extra, att->attlen, width, base))
			return false;
		*base = lo - Min((int64) (recent / 8), lo - *base);
	}
	else
	{
		int64		alo = set ? Min(lo, h->all_lo) : h->all_lo;
		int64		ahi = set ? Max(hi, h->all_hi) : h->all_hi;
		uint64		span = (uint64) ahi - (uint64) alo;

		if (span > PG_UINT32_MAX ||
			!PaxEncodeRange(alo, ahi,
							span / 2 + PAX_ENCODE_SLACK + (uint64) perpage,
							att->attlen, width, base))
			return false;
	}
	return true;
}

/*
 * PaxChooseEncodings chooses which columns of a new page are stored with
 * frame of reference encoding, at which width and from which base: the
 * eligible columns (PaxEncodeEligible) whose values span little enough to
 * fit fewer bytes than the type's.  Later rows must fall within the range
 * chosen, or go to another page.
 *
 * With enough rows at hand to tell (a bulk insert looks ahead at a page's
 * worth), the range is theirs, with a sixteenth more room; with pack >= 1
 * (pax.bitpack_minipages), a column whose range, times pack (the page's
 * rows over the rows at hand: room for rising values), takes at most seven
 * eighths of the bits of its byte width (or of the type's, where no byte
 * width is narrower) is bit-packed instead, from the least value; when
 * the values' differences from it share a factor (PaxRowsGcd) that makes
 * fewer bits hold the range, divided by it (PAX_FACTOR_FLAG); a float
 * column whose values all have at most PAX_SCALE_MAX decimals is stored
 * decimal-scaled (PaxRowsScale), bit-packed the same way.  With a
 * few rows (one at a time), it comes from the hints, the ranges of the rows
 * this backend placed (PaxEncodeHintsUpdate): when the rows of the last
 * page spanned much less than all rows placed and the new row lies past
 * them, the values rise (a serial key, a timestamp of insertion; the page
 * had at least PAX_ENCODE_CLUSTER_ROWS rows, as one that ended early says
 * little), and the new page's range starts a little below the new row;
 * else the range is that of all rows placed, with half as much room again
 * and as much as perpage rows (a guess of a page's rows) take when they
 * rise.
 * (Falling values get no range of their own: an UPDATE of every row starts
 * again from the first, and then rises.)
 *
 * Variable-length columns get a dictionary (from the rows at hand, or for
 * rows one at a time from the hints) when they have few distinct values;
 * else, unless `eager` (rows inserted one at a time), a prefix when the
 * rows at hand share one (PaxChoosePrefix).  updatable (a table with a
 * fillfactor below 100, whose pages keep room for the new versions of their
 * rows): fixed-width columns stay unencoded, as an updated value must fit
 * its column's range to stay on the page.  Returns the value-area bytes a
 * row saves.
 */
double
PaxChooseEncodings(TupleDesc tupdesc, const PaxRow *rows, int nrows,
				   const PaxRelCache *hints, int perpage, double pack,
				   bool eager, bool updatable, PaxPageShape *shape)
{
	bool		bulk = nrows >= PAX_SHAPE_SAMPLE_ROWS;
	double		saved = 0;
	double		saved_per_row = 0;

	if (!pax_encode_minipages || rows == NULL || nrows == 0)
		return 0;
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		uint64		factor = 0;
		bool		scaled = false;
		bool		set = false;
		int64		lo = 0,
					hi = 0;
		uint8		width;
		int64		base;

		if (att->attlen < 0)
		{
			PaxChooseVarlena(tupdesc, rows, nrows, i, hints, pack, eager,
							 bulk, shape, &saved, &saved_per_row);
			continue;
		}
		if (updatable)
			continue;
		if (bulk && pack != 1 && pax_bitpack_minipages && hints != NULL &&
			i < PAX_HINT_ATTS && !PaxBitIsSet(shape->absent, i) &&
			(PaxEncodeEligible(att) || PaxScaleEligible(att)) &&
			PaxRowsFitLast(att, rows, nrows, i, &hints->hints[i]))
		{
			/* a batch's end: the last full page's encoding, when it fits */
			width = hints->hints[i].lastwidth;
			base = hints->hints[i].lastbase;
			factor = (uint64) hints->hints[i].lastfactor;
			scaled = PaxScaleEligible(att);
			goto chosen;
		}
		if (PaxScaleEligible(att))
		{
			/* a float column: decimal-scaled, bit-packed, when it saves */
			if (!PaxChooseScaled(att, rows, nrows, i, pack, bulk, shape,
								 &width, &base, &factor))
				continue;
			scaled = true;
			goto chosen;
		}
		if (!PaxEncodeEligible(att) || PaxBitIsSet(shape->absent, i))
			continue;
		set = PaxRowsRange(rows, nrows, i, att->attlen, &lo, &hi) > 0;
		if (bulk)
		{
			if (!set ||
				!PaxChooseBatchRange(att, rows, nrows, i, hints, pack, lo, hi,
									 &width, &base, &factor))
				continue;
		}
		else if (!PaxChooseHintRange(att, hints, i, set, lo, hi, perpage,
									 &width, &base))
			continue;
chosen:
		PaxShapeEncode(tupdesc, shape);
		shape->widths[i] = width;
		shape->bases[i] = base;
		if (factor > 1 || scaled)
		{
			if (shape->factors == NULL)
				shape->factors = palloc0(tupdesc->natts * sizeof(int64));
			shape->factors[i] = (int64) factor;
		}
	}
	return saved / nrows + saved_per_row;
}

/*
 * PaxRoomyRange gives a column whose rows span lo .. hi the width w (the
 * first of widths[0 .. nw) whose range of 2^(8 w) or 2^w values holds the
 * span four times: room for updated values) and its base, a quarter of the
 * room below lo (counters rise, balances move both ways), not below
 * typmin.  False when no width holds it.
 */
static bool
PaxRoomyRange(int64 lo, int64 hi, int64 typmin, const int *bits, int nb,
			  int *chosen, int64 *base)
{
	uint64		span = (uint64) hi - (uint64) lo;

	for (int k = 0; k < nb; k++)
	{
		uint64		room = (UINT64CONST(1) << bits[k]) - 1;
		uint64		below;

		if (span > room / 4)
			continue;
		below = (room - span) / 4;
		*chosen = bits[k];
		*base = (uint64) lo - (uint64) typmin < below ? typmin :
			(int64) ((uint64) lo - below);
		return true;
	}
	return false;
}

/*
 * PaxShapeRoomy gives the integer-like and decimal-scaled numeric columns
 * of a shape chosen for a page's rows (PaxChooseShape, updatable: integer
 * columns plain) encodings with room for the values their rows' updates
 * bring (PaxRoomyRange): integers 2 bytes (or 4 for 8-byte types), numerics
 * decimal-scaled in 24 or 31 bits, without a common factor (never in a
 * dictionary or with a prefix, which updated values would not fit); a
 * numeric column whose range is too wide, or whose values are of more
 * than one display scale, goes plain.  For pages laid out again under updates
 * (PaxPageRegrowMapped): denser than plain values, yet an update that
 * moves a counter or a balance keeps its row on the page.
 */
void
PaxShapeRoomy(TupleDesc tupdesc, const PaxRow *rows, int nrows,
			  PaxPageShape *shape)
{
	static const int intbits[] = {16, 32};
	static const int numbits[] = {24, 31};

	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		int64		lo = 0,
					hi = 0,
					base;
		int			bits;

		if (PaxBitIsSet(shape->absent, i))
			continue;

		/*
		 * A numeric column: decimal-scaled with room when its values are of
		 * one display scale, else plain (a dictionary's entries or a
		 * prefix would not take the values updates bring).
		 */
		if (att->atttypid == NUMERICOID)
		{
			int			n = 0;
			int			dscale = -1;

			if (shape->widths != NULL)
				shape->widths[i] = 0;
			for (int r = 0; r < nrows && pax_bitpack_minipages; r++)
			{
				const char *data;
				int			len,
							d;
				int64		k;

				if (rows[r].isnull[i])
					continue;
				if (!PaxShortData(att, rows[r].values[i], &data, &len) ||
					!PaxNumScaledKey(data, len, &k, &d) ||
					(n > 0 && d != dscale))
				{
					n = 0;
					break;
				}
				dscale = d;
				lo = n == 0 ? k : Min(lo, k);
				hi = n == 0 ? k : Max(hi, k);
				n++;
			}
			if (n > 0 && PaxRoomyRange(lo, hi, PG_INT64_MIN / 2, numbits,
									   lengthof(numbits), &bits, &base))
			{
				int64		slot[3] = {base, 1, dscale};

				PaxShapeEncode(tupdesc, shape);
				if (shape->prefixes == NULL)
					shape->prefixes = palloc0((Size) tupdesc->natts *
											  PAX_PREFIX_AREA_MAX);
				memcpy(&shape->prefixes[i * PAX_PREFIX_AREA_MAX], slot,
					   sizeof(slot));
				shape->widths[i] = PAX_NUMSCALE_BASE + bits;
			}
			continue;
		}
		if (att->attlen <= 2 || !PaxEncodeEligible(att) ||
			PaxRowsRange(rows, nrows, i, att->attlen, &lo, &hi) == 0 ||
			!PaxRoomyRange(lo, hi, att->attlen == 4 ? PG_INT32_MIN : PG_INT64_MIN,
						   intbits, att->attlen == 8 ? 2 : 1, &bits, &base))
			continue;
		PaxShapeEncode(tupdesc, shape);
		shape->widths[i] = bits / 8;
		shape->bases[i] = base;
		if (shape->factors != NULL)
			shape->factors[i] = 0;
	}
}
