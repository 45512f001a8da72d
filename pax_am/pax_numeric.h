/*-------------------------------------------------------------------------
 *
 * pax_numeric.h
 *	  Fast numeric of PaxScan's aggregate mode (pax_numeric.c): scaled
 *	  128-bit integers, expressions of +, - and *, exact sums.
 *
 * Only where the compiler has a 128-bit integer (PAX_HAVE_FAST_NUMERIC);
 * elsewhere the aggregate mode does not take numeric aggregates.
 *
 * pax_am/pax_numeric.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_NUMERIC_H
#define PAX_NUMERIC_H

#include "nodes/primnodes.h"

#include "pax_encoding.h"

#ifdef HAVE_INT128
#define PAX_HAVE_FAST_NUMERIC 1

/* (the on-disk header bits, PAX_NUM_*: pax_encoding.h) */

/* Largest scale and magnitude the fast path keeps (10^36 < 2^127). */
#define PAX_NUM_MAX_SCALE		36
#define PAX_NUM_MAX_DIGITS		38

typedef enum PaxNumOp
{
	PAX_NUM_COLUMN,
	PAX_NUM_CONST,
	PAX_NUM_ADD,
	PAX_NUM_SUB,
	PAX_NUM_MUL
} PaxNumOp;

typedef enum PaxNumResult
{
	PAX_NUM_OK,					/* (v, scale) computed */
	PAX_NUM_NULL,				/* an operand is NULL */
	PAX_NUM_SLOW				/* compute it with numeric functions */
} PaxNumResult;

/*
 * One numeric column's values of a page's selected rows, parsed: status
 * (a PaxNumResult), and value and scale where it is PAX_NUM_OK.
 */
typedef struct PaxNumColumn
{
	int128	   *v;
	int		   *scale;
	uint8	   *status;
} PaxNumColumn;

/* A node of a numeric expression's evaluation tree. */
typedef struct PaxNumExpr
{
	PaxNumOp	op;
	int			attno;			/* PAX_NUM_COLUMN: zero-based column */
	int			col;			/* PAX_NUM_COLUMN: its PaxNumColumn */
	Datum		value;			/* PAX_NUM_CONST: the numeric */
	bool		fast;			/* PAX_NUM_CONST: v and scale hold it */
	int128		v;
	int			scale;
	struct PaxNumExpr *left;
	struct PaxNumExpr *right;
	PaxNumColumn out;			/* constants and operators: values per row */
} PaxNumExpr;

/*
 * A sum of numerics: a fast part (v at scale, the largest scale of its
 * inputs) and a slow part (a numeric Datum) for what did not fit.
 */
typedef struct PaxNumSum
{
	bool		has_fast;
	bool		has_slow;
	int			scale;
	int128		v;
	Datum		slow;
} PaxNumSum;

extern bool PaxNumExprSupported(Node *expr, Index varno);
extern bool PaxNumParseConst(Datum d, int128 *v, int *scale);
extern bool PaxNumCompareDatum(Datum d, int128 c, int cscale, int *cmp);
extern PaxNumExpr *PaxNumCompile(Node *expr, int *cols, int *ncols);
extern PaxNumResult PaxNumParseDatum(Datum d, bool isnull, int128 *v,
									 int *scale);
extern const PaxNumColumn *PaxNumEvalPage(const PaxNumExpr *e,
										  const PaxNumColumn *cols, int n);
extern Datum PaxNumEvalSlow(const PaxNumExpr *e, const Datum *values,
							const bool *isnull, bool *resnull);
extern void PaxNumSumAddRescale(PaxNumSum *sum, int128 v, int scale,
								MemoryContext mcxt);
extern void PaxNumSumAddSlow(PaxNumSum *sum, Datum value, MemoryContext mcxt);
extern Datum PaxNumSumResult(PaxNumSum *sum, int64 count, bool avg,
							 bool *isnull);
extern Datum PaxNumAvgStateSerialize(Datum total, int64 count);

/*
 * PaxNumSumAdd adds (v, scale) to a sum: inline when the scales agree and
 * nothing overflows, the usual case for a column of one declared scale.
 */
static inline void
PaxNumSumAdd(PaxNumSum *sum, int128 v, int scale, MemoryContext mcxt)
{
	int128		r;

	if (sum->has_fast && scale == sum->scale &&
		!__builtin_add_overflow(sum->v, v, &r))
	{
		sum->v = r;
		return;
	}
	PaxNumSumAddRescale(sum, v, scale, mcxt);
}

/* Powers of ten that fit an int64. */
static const int64 PaxPow10Int64[19] = {
	INT64CONST(1), INT64CONST(10), INT64CONST(100), INT64CONST(1000),
	INT64CONST(10000), INT64CONST(100000), INT64CONST(1000000),
	INT64CONST(10000000), INT64CONST(100000000), INT64CONST(1000000000),
	INT64CONST(10000000000), INT64CONST(100000000000),
	INT64CONST(1000000000000), INT64CONST(10000000000000),
	INT64CONST(100000000000000), INT64CONST(1000000000000000),
	INT64CONST(10000000000000000), INT64CONST(100000000000000000),
	INT64CONST(1000000000000000000)
};

/*
 * PaxNumShortDigits reads the body (what follows the varlena header) of a
 * stored numeric in the short on-disk form with at most four base-10000
 * digits (numeric.c's NumericShort: a 2-byte header of sign, display scale
 * and weight, then the digits): its header, the digits as one integer *h,
 * and the power of ten *e the last digit weighs, 4 * (weight - ndigits +
 * 1) (0 for zero).  False for any other form: the inline paths below are
 * for the usual small values only.
 */
static inline bool
PaxNumShortDigits(const char *body, int len, uint16 *head, int64 *h, int *e)
{
	int			weight;
	int			ndigits;
	int64		acc = 0;

	if (len < (int) sizeof(uint16) || (len & 1) != 0)
		return false;
	memcpy(head, body, sizeof(uint16));
	if ((*head & PAX_NUM_SIGN_MASK) != PAX_NUM_SHORT)
		return false;
	ndigits = (len - sizeof(uint16)) / sizeof(int16);
	if (ndigits > 4)
		return false;
	weight = *head & PAX_NUM_SHORT_WEIGHT_MASK;
	if (*head & PAX_NUM_SHORT_WEIGHT_SIGN)
		weight |= ~PAX_NUM_SHORT_WEIGHT_MASK;
	for (int i = 0; i < ndigits; i++)
	{
		int16		d;

		memcpy(&d, body + sizeof(uint16) + i * sizeof(int16), sizeof(int16));
		acc = acc * 10000 + d;
	}
	*h = acc;
	*e = ndigits == 0 ? 0 : 4 * (weight - ndigits + 1);
	return true;
}

#define PAX_NUM_SHORT_NEGATIVE(head)	(((head) & PAX_NUM_SHORT_SIGN) != 0)

/*
 * PaxNumParseShort reads a short-form numeric body as (*v, *scale), scale
 * its display scale, as PaxNumParse does (the same bound on the scale
 * included): the inline path of the aggregate mode.
 */
static inline bool
PaxNumParseShort(const char *body, int len, int128 *v, int *scale)
{
	uint16		head;
	int64		h;
	int			e;
	int			dscale;

	if (!PaxNumShortDigits(body, len, &head, &h, &e))
		return false;
	dscale = (head & PAX_NUM_SHORT_DSCALE_MASK) >> PAX_NUM_SHORT_DSCALE_SHIFT;
	if (dscale > PAX_NUM_MAX_SCALE)
		return false;

	/*
	 * At most the last digit's three lowest decimal digits lie beyond the
	 * display scale, and they are zero in a stored value: divisions by
	 * constants, checked.
	 */
	e = h == 0 ? 0 : e + dscale;
	switch (e)
	{
		case 0:
			break;
		case -1:
			if (h % 10 != 0)
				return false;
			h /= 10;
			break;
		case -2:
			if (h % 100 != 0)
				return false;
			h /= 100;
			break;
		case -3:
			if (h % 1000 != 0)
				return false;
			h /= 1000;
			break;
		default:
			if (e < 0 || e > 18 ||
				__builtin_mul_overflow(h, PaxPow10Int64[e], &h))
				return false;
			break;
	}
	*v = PAX_NUM_SHORT_NEGATIVE(head) ? -h : h;
	*scale = dscale;
	return true;
}

extern bool PaxNumKeyMake(int128 v, int scale, int64 *key, int *keyscale);

/*
 * PaxNumCmpKey compares a short-form numeric body with key, a value scaled
 * by 10^keyscale in 64 bits (see PaxNumKeyMake), into *cmp: the inline
 * path of pushed numeric comparisons.  False where it cannot say (other
 * forms, more fractional digits than keyscale keeps, an overflow): the
 * caller compares the slow way.
 */
static inline bool
PaxNumCmpKey(const char *body, int len, int64 key, int keyscale, int *cmp)
{
	uint16		head;
	int64		h;
	int			e;

	if (!PaxNumShortDigits(body, len, &head, &h, &e))
		return false;
	if (h != 0)
	{
		e += keyscale;
		if (e < 0 || e > 18 || __builtin_mul_overflow(h, PaxPow10Int64[e], &h))
			return false;
		if (PAX_NUM_SHORT_NEGATIVE(head))
			h = -h;
	}
	*cmp = (h > key) - (h < key);
	return true;
}

#endif							/* HAVE_INT128 */

#endif							/* PAX_NUMERIC_H */
