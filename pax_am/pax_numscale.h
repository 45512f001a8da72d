/*-------------------------------------------------------------------------
 *
 * pax_numscale.h
 *	  Decimal-scaled values of pax minipages: numerics and floats.
 *
 * A decimal-scaled column stores each value as the integer k = value *
 * 10^d, bit-packed from a base (numerics: PAX_NUMSCALE_BASE; floats: the
 * factor width byte with the divisor 10^d).  These functions turn values
 * into k and back, byte for byte as heap stores them.
 *
 * pax_am/pax_numscale.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_NUMSCALE_H
#define PAX_NUMSCALE_H

#include <math.h>

#include "pax_encoding.h"

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

#endif							/* PAX_NUMSCALE_H */
