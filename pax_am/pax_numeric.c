/*-------------------------------------------------------------------------
 *
 * pax_numeric.c
 *	  Fast numeric for PaxScan's aggregate mode: numeric values read from
 *	  the minipages as scaled 128-bit integers, expressions of +, - and *
 *	  over them evaluated exactly, and sums that give PostgreSQL's results.
 *
 * A numeric of dscale s is the integer v = value * 10^s.  PostgreSQL's
 * numeric_add and numeric_sub give dscale max(s1, s2) and numeric_mul
 * s1 + s2, exactly (numeric.c, PostgreSQL 15); sum() and avg() accumulate
 * exactly with the largest dscale of their inputs, avg dividing the sum
 * by the count with numeric_div.  So (v, s) pairs computed with 128-bit
 * integers give the same values and display scales, as long as nothing
 * overflows.  What does not fit (NaN and infinities, a digit string too
 * long, an overflow) is computed the slow way for that row, with
 * numeric_add/sub/mul on Datums, into a numeric accumulator that joins the
 * fast sum at the end (numeric_add: the larger dscale wins, as in the sum).
 *
 * The on-disk numeric format (numeric.c's NumericData: a 2-byte header
 * of sign, display scale and weight in the short form, or sign and scale
 * then a 2-byte weight in the long form, then base-10000 digits) is read
 * here, as any reader of stored numerics must.
 *
 * pax_am/pax_numeric.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "fmgr.h"
#include "libpq/pqformat.h"
#include "nodes/nodeFuncs.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/numeric.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

#include "pax_encoding.h"
#include "pax_numeric.h"

#ifdef HAVE_INT128

static int128 PaxPow10[PAX_NUM_MAX_SCALE + 1];

/* PaxNumInitPow10 fills the table of powers of ten once. */
static void
PaxNumInitPow10(void)
{
	if (PaxPow10[0] != 0)
		return;
	PaxPow10[0] = 1;
	for (int i = 1; i <= PAX_NUM_MAX_SCALE; i++)
		PaxPow10[i] = PaxPow10[i - 1] * 10;
}

/*
 * PaxNumMul multiplies two scaled integers; false on overflow.  Operands
 * within 64 bits (the usual case) multiply without the 128-bit overflow
 * check, which is a library call.
 */
static inline bool
PaxNumMul(int128 a, int128 b, int128 *r)
{
	int128		t;

	if (a == (int64) a && b == (int64) b)
	{
		*r = (int128) (int64) a * (int64) b;
		return true;
	}
	/* *r is left alone on overflow */
	if (__builtin_mul_overflow(a, b, &t))
		return false;
	*r = t;
	return true;
}

/*
 * PaxNumParse reads a stored numeric as (*v, *scale); false for NaN and
 * infinities, compressed or out-of-line values, and values that do not
 * fit.  The digits are read as one integer (Horner's rule, in 64 bits
 * when there are at most four base-10000 digits), then scaled: the last
 * digit weighs 10^(4 * (weight - ndigits + 1)), and digits beyond the
 * display scale are zero in a stored value.
 */
static bool
PaxNumParse(const struct varlena *num, int128 *v, int *scale)
{
	const char *data = VARDATA_ANY(num);
	int			len = VARSIZE_ANY_EXHDR(num);
	uint16		head;
	int			weight;
	int			dscale;
	bool		neg;
	int			ndigits;
	int			e10;
	int128		acc;

	/* compressed or out-of-line values: the slow path detoasts them */
	if (VARATT_IS_EXTERNAL(num) || VARATT_IS_COMPRESSED(num) ||
		len < (int) sizeof(uint16))
		return false;
	memcpy(&head, data, sizeof(uint16));
	if ((head & PAX_NUM_SIGN_MASK) == PAX_NUM_SPECIAL)
		return false;
	if ((head & PAX_NUM_SIGN_MASK) == PAX_NUM_SHORT)
	{
		neg = (head & PAX_NUM_SHORT_SIGN) != 0;
		dscale = (head & PAX_NUM_SHORT_DSCALE_MASK) >> PAX_NUM_SHORT_DSCALE_SHIFT;
		weight = head & PAX_NUM_SHORT_WEIGHT_MASK;
		if (head & PAX_NUM_SHORT_WEIGHT_SIGN)
			weight |= ~PAX_NUM_SHORT_WEIGHT_MASK;
		data += sizeof(uint16);
		len -= sizeof(uint16);
	}
	else
	{
		int16		w;

		if (len < 2 * (int) sizeof(uint16))
			return false;
		neg = (head & PAX_NUM_SIGN_MASK) == PAX_NUM_NEG;
		dscale = head & PAX_NUM_DSCALE_MASK;
		memcpy(&w, data + sizeof(uint16), sizeof(int16));
		weight = w;
		data += 2 * sizeof(uint16);
		len -= 2 * sizeof(uint16);
	}
	ndigits = len / sizeof(int16);
	if (dscale > PAX_NUM_MAX_SCALE || len % sizeof(int16) != 0 ||
		ndigits > PAX_NUM_MAX_DIGITS / 4)
		return false;
	if (ndigits <= 4)
	{
		int64		h = 0;

		for (int i = 0; i < ndigits; i++)
		{
			int16		d;

			memcpy(&d, data + i * sizeof(int16), sizeof(int16));
			h = h * 10000 + d;
		}
		acc = h;
	}
	else
	{
		acc = 0;
		for (int i = 0; i < ndigits; i++)
		{
			int16		d;

			memcpy(&d, data + i * sizeof(int16), sizeof(int16));
			acc = acc * 10000 + d;
		}
	}
	e10 = ndigits == 0 ? 0 : 4 * (weight - ndigits + 1) + dscale;
	if (e10 > 0)
	{
		if (e10 > PAX_NUM_MAX_SCALE || !PaxNumMul(acc, PaxPow10[e10], &acc))
			return false;
	}
	else if (e10 < 0)
	{
		if (-e10 > PAX_NUM_MAX_SCALE)
			return false;
		if (acc == (int64) acc && -e10 <= 18)
		{
			/* 64-bit division: the 128-bit one is a library call */
			int64		a64 = (int64) acc;
			int64		p64 = (int64) PaxPow10[-e10];

			if (a64 % p64 != 0)
				return false;
			acc = a64 / p64;
		}
		else
		{
			if (acc % PaxPow10[-e10] != 0)
				return false;
			acc /= PaxPow10[-e10];
		}
	}
	*v = neg ? -acc : acc;
	*scale = dscale;
	return true;
}

/*
 * PaxNumParseDatum reads a column's value of a row for the evaluation of
 * expressions (PaxNumEval): its status, and (*v, *scale) when it is
 * PAX_NUM_OK.
 */
PaxNumResult
PaxNumParseDatum(Datum d, bool isnull, int128 *v, int *scale)
{
	if (isnull)
		return PAX_NUM_NULL;
	return PaxNumParse((struct varlena *) DatumGetPointer(d), v, scale) ?
		PAX_NUM_OK : PAX_NUM_SLOW;
}

/* PaxNumRescale multiplies v by 10^by; false (v unchanged) on overflow. */
static inline bool
PaxNumRescale(int128 *v, int by)
{
	if (by == 0)
		return true;
	if (by > PAX_NUM_MAX_SCALE)
		return false;
	return PaxNumMul(*v, PaxPow10[by], v);
}

/*
 * PaxNumParseConst reads the value side of a pushed comparison, once per
 * scan or rescan: false where it is not of the fast form.
 */
bool
PaxNumParseConst(Datum d, int128 *v, int *scale)
{
	PaxNumInitPow10();
	return PaxNumParse((struct varlena *) DatumGetPointer(d), v, scale);
}

/*
 * PaxNumKeyMake prepares a comparison value (v, scale) for PaxNumCmpKey:
 * scaled by 10^8 (or 10^4, or its own scale when that is larger) so that
 * stored values with up to eight (four) fractional digits, which their
 * base-10000 digits carry in groups of four, compare without division.
 * False when it does not fit 64 bits at any of them.
 */
bool
PaxNumKeyMake(int128 v, int scale, int64 *key, int *keyscale)
{
	static const int tries[] = {8, 4};

	PaxNumInitPow10();
	for (int t = 0; t < lengthof(tries); t++)
	{
		int			ks = Max(scale, tries[t]);
		int128		r = v;

		if (ks > 18 || !PaxNumRescale(&r, ks - scale) || r != (int64) r)
			continue;
		*key = (int64) r;
		*keyscale = ks;
		return true;
	}
	return false;
}

/*
 * PaxNumCompareDatum compares a stored numeric (not NULL) with the scaled
 * integer (c, cscale) as numeric_cmp does, into *cmp; false where the fast
 * form cannot say (NaN and infinities, compressed or out-of-line values,
 * magnitudes beyond 128 bits at the common scale): the caller then calls
 * the operator's function.  Equal values of different display scales
 * compare equal, as in numeric_cmp.
 */
bool
PaxNumCompareDatum(Datum d, int128 c, int cscale, int *cmp)
{
	int128		v;
	int			scale;

	if (!PaxNumParse((struct varlena *) DatumGetPointer(d), &v, &scale))
		return false;
	if (scale < cscale)
	{
		if (!PaxNumRescale(&v, cscale - scale))
			return false;
	}
	else if (scale > cscale)
	{
		if (!PaxNumRescale(&c, scale - cscale))
			return false;
	}
	*cmp = (v > c) - (v < c);
	return true;
}

/*
 * PaxNumToNumeric makes the numeric of (v, scale), with display scale
 * scale, through its decimal text (done once per result).
 */
static Datum
PaxNumToNumeric(int128 v, int scale)
{
	char		buf[PAX_NUM_MAX_DIGITS + PAX_NUM_MAX_SCALE + 8];
	char		digits[PAX_NUM_MAX_DIGITS + PAX_NUM_MAX_SCALE + 4];
	int			n = 0;
	int			p = 0;
	bool		neg = v < 0;
	uint128		u = neg ? -(uint128) v : (uint128) v;

	do
	{
		digits[n++] = '0' + (int) (u % 10);
		u /= 10;
	} while (u != 0);
	while (n <= scale)
		digits[n++] = '0';
	if (neg)
		buf[p++] = '-';
	for (int i = n - 1; i >= 0; i--)
	{
		buf[p++] = digits[i];
		if (i == scale && scale > 0)
			buf[p++] = '.';
	}
	buf[p] = '\0';
	return DirectFunctionCall3(numeric_in, CStringGetDatum(buf),
							   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
}

/* ----------------------------------------------------------------
 * Expressions
 * ----------------------------------------------------------------
 */

/*
 * PaxNumExprSupported tells whether an aggregate's argument is a numeric
 * expression the fast path evaluates: numeric columns of relation varno,
 * non-null numeric constants, and numeric +, - and * between them.
 */
bool
PaxNumExprSupported(Node *expr, Index varno)
{
	if (expr == NULL)
		return false;
	switch (nodeTag(expr))
	{
		case T_Var:
			{
				Var		   *var = (Var *) expr;

				return var->varno == varno && var->varlevelsup == 0 &&
					var->varattno > 0 && var->vartype == NUMERICOID;
			}
		case T_Const:
			{
				Const	   *c = (Const *) expr;

				return c->consttype == NUMERICOID && !c->constisnull;
			}
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) expr;

				set_opfuncid(op);
				if (list_length(op->args) != 2 ||
					(op->opfuncid != F_NUMERIC_ADD &&
					 op->opfuncid != F_NUMERIC_SUB &&
					 op->opfuncid != F_NUMERIC_MUL))
					return false;
				return PaxNumExprSupported(linitial(op->args), varno) &&
					PaxNumExprSupported(lsecond(op->args), varno);
			}
		default:
			return false;
	}
}

/*
 * PaxNumCompile makes the evaluation tree of a supported expression (see
 * PaxNumExprSupported), in the current memory context.  The columns it
 * reads are numbered in cols[0..*ncols) (zero-based attnos; the caller's
 * array has room for every column of the relation), shared between the
 * expressions compiled with the same array.
 */
PaxNumExpr *
PaxNumCompile(Node *expr, int *cols, int *ncols)
{
	PaxNumExpr *e = palloc0(sizeof(PaxNumExpr));

	PaxNumInitPow10();
	if (!IsA(expr, Var))
	{
		e->out.v = palloc(sizeof(int128) * PAX_MAX_CAPACITY);
		e->out.scale = palloc(sizeof(int) * PAX_MAX_CAPACITY);
		e->out.status = palloc(sizeof(uint8) * PAX_MAX_CAPACITY);
	}
	switch (nodeTag(expr))
	{
		case T_Var:
			e->op = PAX_NUM_COLUMN;
			e->attno = ((Var *) expr)->varattno - 1;
			e->col = -1;
			for (int i = 0; i < *ncols; i++)
				if (cols[i] == e->attno)
					e->col = i;
			if (e->col < 0)
			{
				cols[*ncols] = e->attno;
				e->col = (*ncols)++;
			}
			break;
		case T_Const:
			e->op = PAX_NUM_CONST;
			e->value = ((Const *) expr)->constvalue;
			e->fast = PaxNumParse((struct varlena *) DatumGetPointer(e->value),
								  &e->v, &e->scale);
			for (int i = 0; i < PAX_MAX_CAPACITY; i++)
			{
				e->out.v[i] = e->v;
				e->out.scale[i] = e->scale;
				e->out.status[i] = e->fast ? PAX_NUM_OK : PAX_NUM_SLOW;
			}
			break;
		case T_OpExpr:
			{
				OpExpr	   *op = (OpExpr *) expr;

				set_opfuncid(op);
				e->op = op->opfuncid == F_NUMERIC_ADD ? PAX_NUM_ADD :
					op->opfuncid == F_NUMERIC_SUB ? PAX_NUM_SUB : PAX_NUM_MUL;
				e->left = PaxNumCompile(linitial(op->args), cols, ncols);
				e->right = PaxNumCompile(lsecond(op->args), cols, ncols);
			}
			break;
		default:
			elog(ERROR, "unsupported node in a pax numeric expression: %d",
				 (int) nodeTag(expr));
	}
	return e;
}

/*
 * PaxNumEvalPage evaluates e for rows 0..n-1 of the parsed columns (cols,
 * by column number), a node at a time over all rows: the result's status
 * per row is PAX_NUM_NULL when an operand is NULL (the operators are
 * strict), PAX_NUM_SLOW when the fast path cannot compute it, else
 * PAX_NUM_OK with its value and scale.  Returns the node's result arrays
 * (a column's own, for a column).
 */
const PaxNumColumn *
PaxNumEvalPage(const PaxNumExpr *e, const PaxNumColumn *cols, int n)
{
	const PaxNumColumn *l;
	const PaxNumColumn *r;
	const PaxNumColumn *out = &e->out;

	if (e->op == PAX_NUM_COLUMN)
		return &cols[e->col];
	if (e->op == PAX_NUM_CONST)
		return out;				/* filled for every row at compile time */
	l = PaxNumEvalPage(e->left, cols, n);
	r = PaxNumEvalPage(e->right, cols, n);
	for (int i = 0; i < n; i++)
	{
		int128		lv = l->v[i];
		int128		rv = r->v[i];
		int			ls = l->scale[i];
		int			rs = r->scale[i];
		uint8		st;

		if (l->status[i] == PAX_NUM_NULL || r->status[i] == PAX_NUM_NULL)
			st = PAX_NUM_NULL;
		else if (l->status[i] != PAX_NUM_OK || r->status[i] != PAX_NUM_OK)
			st = PAX_NUM_SLOW;
		else if (e->op == PAX_NUM_MUL)
		{
			st = ls + rs <= PAX_NUM_MAX_SCALE &&
				PaxNumMul(lv, rv, &out->v[i]) ? PAX_NUM_OK : PAX_NUM_SLOW;
			out->scale[i] = ls + rs;
		}
		else
		{
			int			s = Max(ls, rs);

			if (!PaxNumRescale(&lv, s - ls) || !PaxNumRescale(&rv, s - rs) ||
				(e->op == PAX_NUM_ADD ?
				 __builtin_add_overflow(lv, rv, &out->v[i]) :
				 __builtin_sub_overflow(lv, rv, &out->v[i])))
				st = PAX_NUM_SLOW;
			else
				st = PAX_NUM_OK;
			out->scale[i] = s;
		}
		out->status[i] = st;
	}
	return out;
}

/*
 * PaxNumEvalSlow evaluates e with PostgreSQL's numeric functions, on a
 * row whose columns values[]/isnull[] hold by zero-based attno; *resnull
 * when an operand is NULL.  Allocates in the current memory context.
 */
Datum
PaxNumEvalSlow(const PaxNumExpr *e, const Datum *values, const bool *isnull,
			   bool *resnull)
{
	Datum		l;
	Datum		r;
	PGFunction	fn;

	*resnull = false;
	switch (e->op)
	{
		case PAX_NUM_COLUMN:
			*resnull = isnull[e->attno];
			return values[e->attno];
		case PAX_NUM_CONST:
			return e->value;
		case PAX_NUM_ADD:
			fn = numeric_add;
			break;
		case PAX_NUM_SUB:
			fn = numeric_sub;
			break;
		default:
			fn = numeric_mul;
			break;
	}
	l = PaxNumEvalSlow(e->left, values, isnull, resnull);
	if (*resnull)
		return (Datum) 0;
	r = PaxNumEvalSlow(e->right, values, isnull, resnull);
	if (*resnull)
		return (Datum) 0;
	return DirectFunctionCall2(fn, l, r);
}

/* ----------------------------------------------------------------
 * Sums
 * ----------------------------------------------------------------
 */

/*
 * PaxNumSumAddSlow adds a numeric Datum to the slow part of a sum; the
 * result lives in mcxt.
 */
void
PaxNumSumAddSlow(PaxNumSum *sum, Datum value, MemoryContext mcxt)
{
	MemoryContext old = MemoryContextSwitchTo(mcxt);
	Datum		prev = sum->slow;

	sum->slow = sum->has_slow ?
		DirectFunctionCall2(numeric_add, prev, value) :
		PointerGetDatum(PG_DETOAST_DATUM_COPY(value));
	if (sum->has_slow)
		pfree(DatumGetPointer(prev));
	sum->has_slow = true;
	MemoryContextSwitchTo(old);
}

/*
 * PaxNumSumAddRescale adds (v, scale) to a sum, keeping the largest scale;
 * on overflow the fast part moves to the slow one.  PaxNumSumAdd calls it
 * for what its inline path does not do.
 */
void
PaxNumSumAddRescale(PaxNumSum *sum, int128 v, int scale, MemoryContext mcxt)
{
	int128		r;

	if (!sum->has_fast)
	{
		sum->v = v;
		sum->scale = scale;
		sum->has_fast = true;
		return;
	}
	if (scale > sum->scale)
	{
		if (PaxNumRescale(&sum->v, scale - sum->scale))
			sum->scale = scale;
		else
			goto overflow;
	}
	else if (scale < sum->scale && !PaxNumRescale(&v, sum->scale - scale))
		goto overflow;
	if (!__builtin_add_overflow(sum->v, v, &r))
	{
		sum->v = r;
		return;
	}

overflow:
	/* the sum so far and this value, exactly, as numerics */
	PaxNumSumAddSlow(sum, PaxNumToNumeric(sum->v, sum->scale), mcxt);
	PaxNumSumAddSlow(sum, PaxNumToNumeric(v, scale), mcxt);
	sum->has_fast = false;
}

/*
 * PaxNumSumResult is sum() of numeric (avg false) or avg() (true) over
 * count non-null inputs, as numeric_sum and numeric_avg compute them.
 */
Datum
PaxNumSumResult(PaxNumSum *sum, int64 count, bool avg, bool *isnull)
{
	Datum		total;

	*isnull = count == 0;
	if (count == 0)
		return (Datum) 0;
	if (sum->has_fast && sum->has_slow)
		total = DirectFunctionCall2(numeric_add,
									PaxNumToNumeric(sum->v, sum->scale),
									sum->slow);
	else if (sum->has_fast)
		total = PaxNumToNumeric(sum->v, sum->scale);
	else
		total = sum->slow;
	if (!avg)
		return total;
	return DirectFunctionCall2(numeric_div, total,
							   NumericGetDatum(int64_to_numeric(count)));
}

/*
 * PaxNumAvgStateSerialize returns the partial state of numeric sum() and
 * avg() over count non-null values whose total is total (NaN or an infinity
 * where one arose), in the form numeric_avg_serialize() in numeric.c gives
 * a NumericAggState (PostgreSQL 15 and 18 alike): N, the finite sum as a
 * NumericVar (ndigits, weight, sign and dscale as int32, then the base-10000
 * digits as int16: numeric_send()'s fields, widened), maxScale and
 * maxScaleCount (only inverse transitions read them), and the NaN, +Inf
 * and -Inf counts.  A total that is NaN counts one NaN (sum() and avg()
 * then return NaN, as for +Inf plus -Inf), an infinite one one infinity,
 * each with a zero finite sum.
 */
Datum
PaxNumAvgStateSerialize(Datum total, int64 count)
{
	Numeric		num = DatumGetNumeric(total);
	StringInfoData buf;
	int64		nan = 0;
	int64		pinf = 0;
	int64		ninf = 0;
	int			dscale = 0;

	pq_begintypsend(&buf);
	pq_sendint64(&buf, count);
	if (numeric_is_nan(num) || numeric_is_inf(num))
	{
		if (numeric_is_nan(num))
			nan = 1;
		else if (DatumGetBool(DirectFunctionCall2(numeric_gt, total,
												  NumericGetDatum(int64_to_numeric(0)))))
			pinf = 1;
		else
			ninf = 1;
		/* a zero sum: no digits, weight 0, NUMERIC_POS, scale 0 */
		for (int i = 0; i < 4; i++)
			pq_sendint32(&buf, 0);
	}
	else
	{
		bytea	   *wire = DatumGetByteaPP(DirectFunctionCall1(numeric_send, total));
		StringInfoData in;
		int			ndigits;

		in.data = VARDATA_ANY(wire);
		in.len = VARSIZE_ANY_EXHDR(wire);
		in.cursor = 0;
		in.maxlen = in.len;
		ndigits = (uint16) pq_getmsgint(&in, 2);
		pq_sendint32(&buf, ndigits);
		pq_sendint32(&buf, (int16) pq_getmsgint(&in, 2));	/* weight */
		pq_sendint32(&buf, (uint16) pq_getmsgint(&in, 2));	/* sign */
		dscale = (uint16) pq_getmsgint(&in, 2);
		pq_sendint32(&buf, dscale);
		for (int i = 0; i < ndigits; i++)
			pq_sendint16(&buf, (int16) pq_getmsgint(&in, 2));
	}
	pq_sendint32(&buf, dscale);		/* maxScale */
	pq_sendint64(&buf, count);		/* maxScaleCount */
	pq_sendint64(&buf, nan);
	pq_sendint64(&buf, pinf);
	pq_sendint64(&buf, ninf);
	return PointerGetDatum(pq_endtypsend(&buf));
}

#endif							/* HAVE_INT128 */
