/*-------------------------------------------------------------------------
 *
 * pax_filter.c
 *	  PaxScan's typed filter kernels: how pushed predicates
 *	  (pax_pushdown_clauses.c) are applied to the rows of one page.
 *
 * A page's candidate rows are a selection vector: row indexes, ascending,
 * below pp_nrows.  Each predicate compacts it in place, in a tight typed
 * loop over its column's minipage for the integer-like and float classes,
 * bytewise for text, and through the operator's function otherwise; no row
 * is formed.  Before that, a page whose zone map (least and greatest value
 * of a column over every row stored, visible or not) refutes a predicate is
 * skipped whole (pax_zonecheck.c).
 *
 * pax_am/pax_filter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"
#include "common/int.h"
#include "fmgr.h"
#include "mb/pg_wchar.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"

/* ----------------------------------------------------------------
 * Evaluation over a page
 * ----------------------------------------------------------------
 */

/*
 * PaxFilterIntCmp keeps the rows of sel whose integer value satisfies
 * "value strategy c"; one loop per width and strategy, so the compiler
 * gets a tight loop without branches on either.  The loop does not branch
 * on the comparison either: it writes every row at sel[m] (m <= k, a slot
 * already read) and advances m by the comparison's result, since a filter
 * keeping about half of the rows in no order mispredicts a branch on every
 * other row.
 */
#define PAX_SEL_LOOP(T, KEEP) \
	do { \
		const T *vals = (const T *) base; \
		for (int k = 0; k < n; k++) \
		{ \
			int			r = sel[k]; \
			int64		v = (int64) vals[r]; \
			sel[m] = r; \
			m += (KEEP); \
		} \
	} while (0)
#define PAX_INT_LOOP(T, OP) PAX_SEL_LOOP(T, v OP c)

#define PAX_INT_STRATEGY(T) \
	switch (strategy) \
	{ \
		case BTLessStrategyNumber: PAX_INT_LOOP(T, <); break; \
		case BTLessEqualStrategyNumber: PAX_INT_LOOP(T, <=); break; \
		case BTEqualStrategyNumber: PAX_INT_LOOP(T, ==); break; \
		case BTGreaterEqualStrategyNumber: PAX_INT_LOOP(T, >=); break; \
		case BTGreaterStrategyNumber: PAX_INT_LOOP(T, >); break; \
		default: PAX_INT_LOOP(T, !=); break; \
	}

/* PaxFilterIntCmp: the loops above, for one width, strategy and value. */
static int
PaxFilterIntCmp(const char *base, int attlen, bool isunsigned, int strategy,
				int64 c, uint16 *sel, int n)
{
	int			m = 0;

	Assert(attlen == 1 || attlen == 2 || attlen == 4 || attlen == 8);
	switch (attlen)
	{
		case 1:
			PAX_INT_STRATEGY(uint8);
			break;
		case 2:
			if (isunsigned)
				PAX_INT_STRATEGY(uint16)
			else
				PAX_INT_STRATEGY(int16)
			break;
		case 4:
			if (isunsigned)
				PAX_INT_STRATEGY(uint32)
			else
				PAX_INT_STRATEGY(int32)
			break;
		default:
			PAX_INT_STRATEGY(int64);
			break;
	}
	return m;
}

/*
 * PaxCmpAsRange gives the stored offsets (unsigned, from 0) that satisfy
 * "offset op c" for a comparison strategy as [*lo, *hi] (*lo > *hi when
 * none does); false for <>, which no one range gives.
 */
static bool
PaxCmpAsRange(int strategy, int64 c, uint64 *lo, uint64 *hi)
{
	*lo = 0;
	*hi = PG_UINT64_MAX;
	switch (strategy)
	{
		case BTLessStrategyNumber:
			if (c <= 0)
				*lo = 1, *hi = 0;
			else
				*hi = (uint64) c - 1;
			return true;
		case BTLessEqualStrategyNumber:
			if (c < 0)
				*lo = 1, *hi = 0;
			else
				*hi = (uint64) c;
			return true;
		case BTEqualStrategyNumber:
			if (c < 0)
				*lo = 1, *hi = 0;
			else
				*lo = *hi = (uint64) c;
			return true;
		case BTGreaterEqualStrategyNumber:
			if (c > 0)
				*lo = (uint64) c;
			return true;
		case BTGreaterStrategyNumber:
			if (c >= 0)
			{
				if (c == PG_INT64_MAX)
					*lo = 1, *hi = 0;
				else
					*lo = (uint64) c + 1;
			}
			return true;
		default:
			return false;
	}
}

/*
 * PaxFilterIntRange keeps the rows of sel whose integer value lies in
 * [lo, hi] (lo <= hi): one pass and one unsigned comparison a row where two
 * PaxFilterIntCmp passes would take two, since v - lo, taken modulo 2^64,
 * is at most hi - lo exactly for the values between them.
 */
#define PAX_RANGE_LOOP(T) PAX_SEL_LOOP(T, (uint64) v - (uint64) lo <= width)

static int
PaxFilterIntRange(const char *base, int attlen, bool isunsigned,
				  int64 lo, int64 hi, uint16 *sel, int n)
{
	uint64		width = (uint64) hi - (uint64) lo;
	int			m = 0;

	Assert(lo <= hi);
	switch (attlen)
	{
		case 1:
			PAX_RANGE_LOOP(uint8);
			break;
		case 2:
			if (isunsigned)
				PAX_RANGE_LOOP(uint16);
			else
				PAX_RANGE_LOOP(int16);
			break;
		case 4:
			if (isunsigned)
				PAX_RANGE_LOOP(uint32);
			else
				PAX_RANGE_LOOP(int32);
			break;
		default:
			PAX_RANGE_LOOP(int64);
			break;
	}
	return m;
}

/*
 * PaxTextBytes returns a text value's bytes when it needs no detoasting, or
 * false when it does (compressed, or stored out of line).
 */
static inline bool
PaxTextBytes(Datum d, const char **data, int *len)
{
	struct varlena *v = (struct varlena *) DatumGetPointer(d);

	/*
	 * An external TOAST pointer has a one-byte header too (VARATT_IS_SHORT
	 * holds for it): its bytes are the pointer, not the string.
	 */
	if (VARATT_IS_EXTERNAL(v) || VARATT_IS_COMPRESSED(v))
		return false;
	*data = VARDATA_ANY(v);
	*len = VARSIZE_ANY_EXHDR(v);
	return true;
}

/*
 * PaxStringBytes points *data and *len at the bytes a bytewise predicate
 * (PAX_VC_BYTES) compares of a string value: all of them, or for bpchar
 * those before its trailing spaces, which its comparisons ignore
 * (PaxBlankTrimmedLen).  False for compressed or external values.
 */
static inline bool
PaxStringBytes(const PaxPred *pred, Datum d, const char **data, int *len)
{
	if (!PaxTextBytes(d, data, len))
		return false;
	if (pred->blankpad || pred->rtrimcol)
		*len = PaxBlankTrimmedLen(*data, *len);
	if (pred->prefix > 0)
		*len = pg_mbcharcliplen(*data, *len, pred->prefix);
	return true;
}

/*
 * PaxCmpBytes compares two strings bytewise, the shorter first on a tie, as
 * varstr_cmp() in varlena.c (PostgreSQL 15) does under the C collation.
 */
static inline int
PaxCmpBytes(const char *a, int alen, const char *b, int blen)
{
	int			r = memcmp(a, b, Min(alen, blen));

	if (r != 0)
		return r;
	return (alen > blen) - (alen < blen);
}

/*
 * PaxFindBytes returns the first occurrence of needle (nlen > 0 bytes) in
 * hay (hlen bytes), or NULL.
 */
static inline const char *
PaxFindBytes(const char *hay, int hlen, const char *needle, int nlen)
{
	const char *end = hay + hlen - nlen;	/* the last possible start */

	while (hay <= end)
	{
		const char *c = memchr(hay, needle[0], end - hay + 1);

		if (c == NULL)
			return NULL;
		if (memcmp(c + 1, needle + 1, nlen - 1) == 0)
			return c;
		hay = c + 1;
	}
	return NULL;
}

/*
 * PaxLikeMatches tells whether a string matches a simple LIKE pattern, split
 * into literal runs by PaxPredEvaluateLike: the first run at the start
 * unless the pattern starts with %, the last at the end unless it ends with
 * %, and the runs between found in order, each at its leftmost place after
 * the previous one (leftmost is never worse for the runs after it).
 */
static bool
PaxLikeMatches(const PaxPred *pred, const char *s, int len)
{
	int			pos = 0;
	int			end = len;
	int			first = 0;
	int			last = pred->nsegs;

	if (!pred->likepercent)
		return len == (pred->nsegs ? pred->seglens[0] : 0) &&
			(len == 0 || memcmp(s, pred->segs[0], len) == 0);
	if (pred->likestart && first < last)
	{
		if (pred->seglens[0] > len || memcmp(s, pred->segs[0], pred->seglens[0]) != 0)
			return false;
		pos = pred->seglens[0];
		first++;
	}
	if (pred->likeend && first < last)
	{
		int			l = pred->seglens[last - 1];

		if (l > end - pos || memcmp(s + len - l, pred->segs[last - 1], l) != 0)
			return false;
		end = len - l;
		last--;
	}
	for (int i = first; i < last; i++)
	{
		const char *c = PaxFindBytes(s + pos, end - pos, pred->segs[i],
									 pred->seglens[i]);

		if (c == NULL)
			return false;
		pos = (c - s) + pred->seglens[i];
	}
	return true;
}

/*
 * PaxValueQualifies evaluates one predicate on one non-null value: the
 * general path, used for the classes without a loop of their own and for
 * OR members.
 */
static bool
PaxValueQualifies(PaxPred *pred, Datum value, int16 attlen)
{
	if (pred->never)
		return false;
	if (pred->always)
		return true;
	switch (pred->kind)
	{
		case PAX_PRED_ISNULL:
			return false;
		case PAX_PRED_NOTNULL:
			return true;
		case PAX_PRED_OR:
			{
				ListCell   *lc;

				foreach(lc, pred->args)
					if (PaxValueQualifies(lfirst(lc), value, attlen))
						return true;
				return false;
			}
		case PAX_PRED_LIKE:
			{
				const char *a;
				int			alen;

				/* compressed or out-of-line values through the operator */
				if (PaxTextBytes(value, &a, &alen))
					return PaxLikeMatches(pred, a, alen) != pred->likeneg;
				return DatumGetBool(FunctionCall2Coll(&pred->fn, pred->collation,
													  value, pred->val));
			}
		default:
			break;
	}

	if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
	{
		/* value is a Datum of the column type: widen per its length */
		int64		v = attlen == 1 ? (int64) (uint8) DatumGetChar(value) :
			attlen == 2 ? (int64) DatumGetInt16(value) :
			attlen == 4 ? (pred->vclass == PAX_VC_UINT ?
						   (int64) DatumGetObjectId(value) :
						   (int64) DatumGetInt32(value)) :
			DatumGetInt64(value);
		if (pred->kind == PAX_PRED_CMP)
			return PaxStrategyHolds(pred->strategy, (v > pred->ival) - (v < pred->ival));
		else
		{
			bool		found = bsearch(&v, pred->ivals, pred->nvals,
										sizeof(int64), PaxCmpInt64) != NULL;

			return pred->kind == PAX_PRED_IN ? found : !found;
		}
	}
	if (pred->vclass == PAX_VC_FLOAT)
	{
		double		v = attlen == 4 ? (double) DatumGetFloat4(value) : DatumGetFloat8(value);

		if (pred->kind == PAX_PRED_CMP)
			return PaxStrategyHolds(pred->strategy, PaxCmpDouble(v, pred->fval));
		for (int i = 0; i < pred->nvals; i++)
			if (PaxCmpDouble(v, pred->fvals[i]) == 0)
				return pred->kind == PAX_PRED_IN;
		return pred->kind != PAX_PRED_IN;
	}
	if (pred->vclass == PAX_VC_BYTES)
	{
		const char *a;
		int			alen;
		text	   *detoasted = NULL;

		if (pred->prefix > 0 && !PaxStringBytes(pred, value, &a, &alen))
		{
			/* a prefix is no operator's argument: detoasted and clipped */
			detoasted = DatumGetTextPP(value);
			value = PointerGetDatum(detoasted);
		}
		if (PaxStringBytes(pred, value, &a, &alen))
		{
			bool		r;

			if (pred->kind == PAX_PRED_CMP)
				r = PaxStrategyHolds(pred->strategy,
									 PaxCmpBytes(a, alen, pred->sval, pred->slen));
			else
			{
				/* = ANY, <> ALL: equality, which is bytewise */
				r = pred->kind != PAX_PRED_IN;
				for (int i = 0; i < pred->nvals; i++)
					if (alen == pred->slens[i] &&
						memcmp(a, pred->svals[i], alen) == 0)
						r = pred->kind == PAX_PRED_IN;
			}
			if (detoasted)
				pfree(detoasted);
			return r;
		}
		/* fall through to the operator for compressed or external values */
	}
#ifdef PAX_HAVE_FAST_NUMERIC
	if (pred->vclass == PAX_VC_NUMERIC && pred->numfast)
	{
		int			cmp;

		Assert(pred->kind == PAX_PRED_CMP);
		if (PaxNumCompareDatum(value, pred->nval, pred->nscale, &cmp))
			return PaxStrategyHolds(pred->strategy, cmp);
		/* fall through to the operator for NaN, infinities, TOAST */
	}
#endif

	if (pred->kind == PAX_PRED_CMP)
		return DatumGetBool(pred->varonleft ?
							FunctionCall2Coll(&pred->fn, pred->collation, value, pred->val) :
							FunctionCall2Coll(&pred->fn, pred->collation, pred->val, value));
	for (int i = 0; i < pred->nvals; i++)
	{
		bool		r = DatumGetBool(FunctionCall2Coll(&pred->fn, pred->collation,
													   value, pred->vals[i]));

		if (pred->kind == PAX_PRED_IN && r)
			return true;
		if (pred->kind == PAX_PRED_NOTIN && !r)
			return false;
	}
	return pred->kind != PAX_PRED_IN;
}

/* PaxPredAcceptsNull tells whether a NULL value satisfies a predicate. */
static bool
PaxPredAcceptsNull(PaxPred *pred)
{
	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (PaxPredAcceptsNull(lfirst(lc)))
				return true;
		return false;
	}
	return pred->kind == PAX_PRED_ISNULL || pred->always;
}

/*
 * PaxFilterFloat is PaxFilter's loop for a float comparison
 * (PAX_VC_FLOAT) on column col of the page.
 */
static pg_attribute_always_inline int
PaxFilterFloat(PaxPred *pred, Page page, const PaxColumnLayout *col,
			   uint16 *sel, int n)
{
	int			m = 0;
	double		c = pred->fval;
	const char *data = PaxColumnFixedData(page, col,
										  PaxPageGetHeader(page)->pp_nrows,
										  PaxDecodeScratch);

	/* (a decimal-scaled column's values decoded) */
	if (col->attlen == 8)
	{
		const float8 *vals = (const float8 *) data;

		for (int k = 0; k < n; k++)
			if (PaxStrategyHolds(pred->strategy, PaxCmpDouble(vals[sel[k]], c)))
				sel[m++] = sel[k];
	}
	else
	{
		const float4 *vals = (const float4 *) data;

		for (int k = 0; k < n; k++)
			if (PaxStrategyHolds(pred->strategy, PaxCmpDouble(vals[sel[k]], c)))
				sel[m++] = sel[k];
	}
	return m;
}

/*
 * PaxFilterDict is PaxFilter's path for a dictionary-encoded column: the
 * predicate once per entry that a selected row uses (never on an entry
 * only rows the scan does not select use), its verdict then per code;
 * NULLs (nulls, the column's bitmap or NULL) as the predicate takes them.
 * A code beyond the dictionary goes through PaxPageGetValue, which
 * reports it.
 */
static pg_attribute_always_inline int
PaxFilterDict(PaxPred *pred, Page page, const PaxPageLayout *layout,
			  const PaxColumnLayout *col, const bits8 *nulls, uint16 *sel,
			  int n)
{
	int			m = 0;
	int8		verdict[PAX_DICT_MAX_K * 8];

	memset(verdict, -1, col->dictcap);
	for (int k = 0; k < n; k++)
	{
		int			r = sel[k];
		uint32		code = PaxDictCode(page, col, r);
		bool		ok;

		if (nulls && PaxBitIsSet(nulls, r))
			ok = PaxPredAcceptsNull(pred);
		else if (code >= col->dictcap || verdict[code] < 0)
		{
			bool		isnull;
			Datum		value = PaxPageGetValue(page, layout, r,
												pred->attno, &isnull);

			ok = isnull ? PaxPredAcceptsNull(pred) :
				PaxValueQualifies(pred, value, col->attlen);
			if (!isnull && code < col->dictcap)
				verdict[code] = ok;
		}
		else
			ok = verdict[code];
		if (ok)
			sel[m++] = r;
	}
	return m;
}

#ifdef PAX_HAVE_FAST_NUMERIC
/*
 * PaxFilterNumeric is PaxFilter's loop for a numeric comparison whose
 * value fits the fast path (PAX_VC_NUMERIC, numfast): in 64 bits inline
 * where the value is a short varlena inside the value area; the rest
 * (NULLs, other forms, values that look corrupted) through
 * PaxPageGetValue, which reports corruption, and PaxValueQualifies (the
 * 128-bit comparison, else the operator).
 */
static pg_attribute_always_inline int
PaxFilterNumeric(PaxPred *pred, Page page, const PaxPageLayout *layout,
				 const PaxColumnLayout *col, uint16 *sel, int n)
{
	int			m = 0;

	for (int k = 0; k < n; k++)
	{
		int			r = sel[k];
		const char *p = pred->numkey ?
			PaxPageShortValue(page, col, r,
							  PaxDecodes(col) ? PaxDecodeCell(pred->attno) : NULL) : NULL;
		int			cmp;
		bool		ok;

		if (p != NULL &&
			PaxNumCmpKey(p + VARHDRSZ_SHORT, VARSIZE_1B(p) - VARHDRSZ_SHORT,
						 pred->nkey, pred->nkeyscale, &cmp))
			ok = PaxStrategyHolds(pred->strategy, cmp);
		else
		{
			bool		isnull;
			Datum		value = PaxPageGetValue(page, layout, r,
												pred->attno, &isnull);

			ok = isnull ? PaxPredAcceptsNull(pred) :
				PaxValueQualifies(pred, value, col->attlen);
		}
		if (ok)
			sel[m++] = r;
	}
	return m;
}
#endif

/*
 * PaxFilter applies one predicate to the selection vector sel[0..n) of row
 * indexes of a page and returns how many rows are left (compacted in
 * place).
 */
static pg_attribute_always_inline int
PaxFilter(PaxPred *pred, Page page, const PaxPageLayout *layout,
		  TupleDesc tupdesc, uint16 *sel, int n)
{
	const PaxColumnLayout *col;
	const bits8 *nulls;
	int			m = 0;
	int64		c;

	Assert(pred->attno >= 0 && pred->attno < tupdesc->natts);
	Assert(PaxSelIsValid(sel, n, PaxPageGetHeader(page)->pp_nrows));
	if (pred->kind == PAX_PRED_COLS)
		return PaxFilterColumns(pred, page, layout, tupdesc, sel, n);
	if (pred->attno >= layout->natts)
	{
		/* a column added after the page was laid out: one value for all */
		bool		isnull;
		Datum		value = getmissingattr(tupdesc, pred->attno + 1, &isnull);

		if (isnull)
			return PaxPredAcceptsNull(pred) ? n : 0;
		return PaxValueQualifies(pred, value,
								 TupleDescAttr(tupdesc, pred->attno)->attlen) ? n : 0;
	}

	col = &layout->cols[pred->attno];
	if (col->data == 0 || col->dropped)
		return PaxPredAcceptsNull(pred) ? n : 0;	/* every row NULL */
	nulls = PaxColumnNulls(page, col, pred->attno);

	if (pred->kind == PAX_PRED_ISNULL || pred->kind == PAX_PRED_NOTNULL)
	{
		bool		want = pred->kind == PAX_PRED_ISNULL;

		if (nulls == NULL)
			return want ? 0 : n;
		for (int k = 0; k < n; k++)
			if ((bool) PaxBitIsSet(nulls, sel[k]) == want)
				sel[m++] = sel[k];
		return m;
	}
	if (pred->never)
		return 0;
	if (pred->always)
		return n;

	/* NULLs never satisfy a strict comparison: drop them first */
	if (nulls)
	{
		bool		anynull = false;

		for (int k = 0; k < n && !anynull; k++)
			anynull = PaxBitIsSet(nulls, sel[k]);
		if (anynull && pred->kind != PAX_PRED_OR)
		{
			for (int k = 0; k < n; k++)
				if (!PaxBitIsSet(nulls, sel[k]))
					sel[m++] = sel[k];
			n = m;
			m = 0;
		}
	}

	/* the tight loops */
	if (pred->kind == PAX_PRED_CMP && col->base != 0 && !col->factored &&
		!col->scaled &&
		pred->vclass == PAX_VC_INT &&
		!pg_sub_s64_overflow(pred->ival, PaxColumnBase(page, col), &c))
	{
		/*
		 * Encoded: value = base + offset, so "value op ival" is "offset op
		 * ival - base", compared on the stored offsets, unsigned.  (Not for
		 * unsigned types, whose order the signed base does not keep, nor for
		 * factored columns, compared decoded below.)
		 */
		int			width;
		const char *offs;
		uint64		lo,
					hi;

		if (col->bits != 0 && PaxCmpAsRange(pred->strategy, c, &lo, &hi))
			return PaxPackedFilterRange(page, col, lo, hi, sel, n);
		offs = PaxColumnOffsets(page, col, sel, n, PaxDecodeScratch, &width);
		return PaxFilterIntCmp(offs, width, true, pred->strategy, c, sel, n);
	}
	if (pred->kind == PAX_PRED_CMP && col->attlen > 0 &&
		(pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT))
		return PaxFilterIntCmp(PaxColumnFixedData(page, col,
												  PaxPageGetHeader(page)->pp_nrows,
												  PaxDecodeScratch),
							   col->attlen,
							   pred->vclass == PAX_VC_UINT, pred->strategy,
							   pred->ival, sel, n);
	if (pred->kind == PAX_PRED_CMP && pred->vclass == PAX_VC_FLOAT)
		return PaxFilterFloat(pred, page, col, sel, n);

	if (col->dict != 0)
		return PaxFilterDict(pred, page, layout, col, nulls, sel, n);

#ifdef PAX_HAVE_FAST_NUMERIC
	if (pred->kind == PAX_PRED_CMP && pred->vclass == PAX_VC_NUMERIC &&
		pred->numfast)
		return PaxFilterNumeric(pred, page, layout, col, sel, n);
#endif

	/* the general path: one value at a time, still without forming rows */
	{
		Datum		value;
		bool		isnull;

		for (int k = 0; k < n; k++)
		{
			int			r = sel[k];

			value = PaxPageGetValue(page, layout, r, pred->attno, &isnull);
			if (isnull ? PaxPredAcceptsNull(pred) :
				PaxValueQualifies(pred, value, col->attlen))
				sel[m++] = r;
		}
	}
	return m;
}

/* ----------------------------------------------------------------
 * Lists of predicates
 * ----------------------------------------------------------------
 */

/* at most this many ranges fused per pass (PaxPredsFilter) */
#define PAX_MAX_FUSED	8

/*
 * PaxRangeCmp tells whether pred is an integer comparison PaxFilterIntCmp
 * would evaluate on this page (evaluated, neither never nor always, its
 * column a fixed-width minipage without a NULL on the page) of the given kind:
 * a lower bound (> or >=) or an upper bound (< or <=).
 */
static inline bool
PaxRangeCmp(const PaxPred *pred, bool lower, Page page,
			const PaxPageLayout *layout)
{
	const PaxColumnLayout *col;

	if (pred->kind != PAX_PRED_CMP || !pred->evaluated || pred->never ||
		pred->always ||
		(pred->vclass != PAX_VC_INT && pred->vclass != PAX_VC_UINT) ||
		pred->attno >= layout->natts)
		return false;
	if (lower ? (pred->strategy != BTGreaterStrategyNumber &&
				 pred->strategy != BTGreaterEqualStrategyNumber) :
		(pred->strategy != BTLessStrategyNumber &&
		 pred->strategy != BTLessEqualStrategyNumber))
		return false;
	col = &layout->cols[pred->attno];
	return col->data != 0 && !col->dropped && col->attlen > 0 &&
		PaxColumnNulls(page, col, pred->attno) == NULL;
}

/*
 * PaxRangePartner finds, for a lower bound pred, an upper bound on the same
 * column among the predicates from lc on that run in the same pass, already
 * evaluated: the two then take one pass (PaxFilterRange).  NULL if there is
 * none.
 */
static PaxPred *
PaxRangePartner(PaxPred *pred, ListCell *lc, List *preds, bool early,
				Page page, const PaxPageLayout *layout)
{
	if (!PaxRangeCmp(pred, true, page, layout))
		return NULL;
	for (; lc != NULL; lc = lnext(preds, lc))
	{
		PaxPred    *other = lfirst(lc);

		if (other->early == early && other->attno == pred->attno &&
			other->vclass == pred->vclass &&
			PaxRangeCmp(other, false, page, layout))
			return other;
	}
	return NULL;
}

/*
 * PaxFilterRange applies a lower and an upper bound on one integer column
 * (see PaxRangePartner) in one pass.  A bound that no int64 can meet (> the
 * greatest, < the least) leaves no row.
 */
static int
PaxFilterRange(const PaxPred *lower, const PaxPred *upper, Page page,
			   const PaxPageLayout *layout, uint16 *sel, int n)
{
	const PaxColumnLayout *col = &layout->cols[lower->attno];
	int64		lo = lower->ival;
	int64		hi = upper->ival;

	Assert(PaxSelIsValid(sel, n, PaxPageGetHeader(page)->pp_nrows));
	if (lower->strategy == BTGreaterStrategyNumber)
	{
		if (lo == PG_INT64_MAX)
			return 0;
		lo++;
	}
	if (upper->strategy == BTLessStrategyNumber)
	{
		if (hi == PG_INT64_MIN)
			return 0;
		hi--;
	}
	if (lo > hi)
		return 0;
	if (col->base != 0 && !col->factored && !col->scaled &&
		lower->vclass == PAX_VC_INT)
	{
		int64		base = PaxColumnBase(page, col);
		int64		dlo,
					dhi;

		/* encoded: the bounds as offsets from the base (see PaxFilter) */
		if (!pg_sub_s64_overflow(lo, base, &dlo) &&
			!pg_sub_s64_overflow(hi, base, &dhi))
		{
			int			width;
			const char *offs;

			/* stored offsets are never negative */
			if (col->bits != 0)
				return dhi < 0 ? 0 :
					PaxPackedFilterRange(page, col, (uint64) Max(dlo, 0),
										 (uint64) dhi, sel, n);
			offs = PaxColumnOffsets(page, col, sel, n, PaxDecodeScratch, &width);
			return PaxFilterIntRange(offs, width, true, dlo, dhi, sel, n);
		}
	}
	return PaxFilterIntRange(PaxColumnFixedData(page, col,
												PaxPageGetHeader(page)->pp_nrows,
												PaxDecodeScratch),
							 col->attlen,
							 lower->vclass == PAX_VC_UINT, lo, hi, sel, n);
}

/*
 * PaxPredsFilter applies the predicates of one phase (early, late or last)
 * to the selection vector sel[0..n) of a page and returns how many rows
 * are left.
 * Early predicates run with the page locked, on any stored row; a lazy
 * predicate is late and computes its value here, when the first row
 * reaches it, with the page only pinned.
 */
int
PaxPredsFilter(List *preds, PaxPredPhase phase, Page page,
			   const PaxPageLayout *layout, TupleDesc tupdesc,
			   uint16 *sel, int n, ExprContext *econtext, MemoryContext mcxt)
{
	ListCell   *lc;
	PaxPred    *fused[PAX_MAX_FUSED];	/* upper bounds taken with a lower */
	int			nfused = 0;
	bool		early = phase == PAX_PHASE_EARLY;
	bool		last = phase == PAX_PHASE_LAST;

	foreach(lc, preds)
	{
		PaxPred    *pred = lfirst(lc);
		PaxPred    *upper;
		bool		done = false;

		if (n == 0)
			break;
		if (pred->early != early || pred->last != last)
			continue;
		for (int f = 0; f < nfused; f++)
			done |= (fused[f] == pred);
		if (done)
			continue;
		if (!pred->evaluated)
		{
			/* a lazy one's first use: the page is not locked (late) */
			Assert(!early);
			PaxPredEvaluate(pred, econtext, mcxt);
		}
		if (nfused < PAX_MAX_FUSED &&
			(upper = PaxRangePartner(pred, lnext(preds, lc), preds, early,
									 page, layout)) != NULL)
		{
			n = PaxFilterRange(pred, upper, page, layout, sel, n);
			fused[nfused++] = upper;
			continue;
		}
		n = PaxFilter(pred, page, layout, tupdesc, sel, n);
	}
	return n;
}
