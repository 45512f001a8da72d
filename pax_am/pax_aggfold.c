/*-------------------------------------------------------------------------
 *
 * pax_aggfold.c
 *	  Folding aggregates on the minipages, for PaxScan's aggregate mode:
 *	  a page's selected rows into the groups' accumulators, and the
 *	  accumulators' results and partial states.
 *
 * Without GROUP BY, each aggregate of an integer-like column is a loop per
 * column and page, with no call per value (PaxAggColumn); with GROUP BY,
 * each selected row's group is found first (PaxGroupRows, pax_agggroups.c)
 * and its value folded in.  Numeric expressions are computed on the
 * columns parsed once per page (pax_numeric.c), and the rows the fast path
 * cannot compute with numeric functions.  pax_aggexec.c calls PaxAggPage
 * for each page, and PaxAggResult or PaxAggPartial for each group's row.
 *
 * pax_am/pax_aggfold.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/numeric.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

/*
 * PaxAggColumn folds one column's values of the selected rows of a page
 * into an aggregate of the one group of a query without GROUP BY, in a
 * loop per width with no call per value.  Sums accumulate in int64 as
 * int2_sum() and int4_sum() in int.c (PostgreSQL 15) do, which cannot
 * overflow for int2 and int4 values.
 */
static void
PaxAggColumn(PaxAgg *agg, PaxAggAcc *accum, Page page,
			 const PaxPageLayout *layout, TupleDesc tupdesc,
			 const uint16 *sel, int nsel)
{
	const PaxColumnLayout *col;
	const bits8 *nulls;
	int64		count = 0;
	int64		sum = 0;
	int64		lo = PG_INT64_MAX;
	int64		hi = PG_INT64_MIN;

	Assert(agg->attno >= 0 && agg->attno < tupdesc->natts);
	Assert(PaxSelIsValid(sel, nsel, PaxPageGetHeader(page)->pp_nrows));
	if (agg->attno >= layout->natts)
	{
		/* a column added after the page was laid out: its missing value */
		bool		isnull;
		Datum		d = getmissingattr(tupdesc, agg->attno + 1, &isnull);
		int16		len = TupleDescAttr(tupdesc, agg->attno)->attlen;
		int64		v;

		if (isnull || nsel == 0)
			return;
		count = nsel;
		if (agg->kind != PAX_AGG_COUNT)
		{
			v = len == 2 ? DatumGetInt16(d) : len == 4 ? DatumGetInt32(d) :
				DatumGetInt64(d);
			sum = v * nsel;
			lo = hi = v;
		}
	}
	else
	{
		col = &layout->cols[agg->attno];
		if (col->data == 0)
			return;				/* NULL in every row */
		nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;

#define PAX_AGG_LOOP(ctype) \
		do { \
			const ctype *v = (const ctype *) data; \
			for (int k = 0; k < nsel; k++) \
			{ \
				int			r = sel[k]; \
				int64		x; \
				if (nulls && PaxBitIsSet(nulls, r)) \
					continue; \
				x = v[r]; \
				count++; \
				sum += x; \
				if (x < lo) lo = x; \
				if (x > hi) hi = x; \
			} \
		} while (0)

		if (agg->kind == PAX_AGG_COUNT)
		{
			if (nulls == NULL)
				count = nsel;
			else
				for (int k = 0; k < nsel; k++)
					count += !PaxBitIsSet(nulls, sel[k]);
		}
		else if (col->bits != 0 && nulls == NULL && nsel > 0 &&
				 nsel == PaxPageGetHeader(page)->pp_nrows)
		{
			/* every row of a bit-packed column (sel ascends: 0 .. nsel-1) */
			PaxPackedColumnStats(page, col, nsel, &sum, &lo, &hi);
			count = nsel;
		}
		else
		{
			/* encoded values decoded first */
			const char *data = PaxColumnFixedData(page, col,
												  PaxPageGetHeader(page)->pp_nrows,
												  PaxDecodeScratch);

			if (col->attlen == 2)
				PAX_AGG_LOOP(int16);
			else if (col->attlen == 4)
				PAX_AGG_LOOP(int32);
			else
				PAX_AGG_LOOP(int64);
		}
#undef PAX_AGG_LOOP
	}

	if (count == 0)
		return;
	if (agg->kind == PAX_AGG_MIN)
		accum->acc = accum->count == 0 ? lo : Min(accum->acc, lo);
	else if (agg->kind == PAX_AGG_MAX)
		accum->acc = accum->count == 0 ? hi : Max(accum->acc, hi);
	else
		accum->acc += sum;
	accum->count += count;
}

/*
 * PaxAggFoldRow folds one row's value of an integer-like aggregate into
 * its group's accumulator (the GROUP BY form of PaxAggColumn's loops).
 */
static inline void
PaxAggFoldRow(PaxAgg *agg, PaxAggAcc *accum, Datum d, bool isnull, int16 len)
{
	int64		x;

	if (isnull)
		return;
	if (agg->kind == PAX_AGG_COUNT)
	{
		accum->count++;
		return;
	}
	x = len == 2 ? DatumGetInt16(d) : len == 4 ? DatumGetInt32(d) :
		DatumGetInt64(d);
	if (agg->kind == PAX_AGG_MIN)
		accum->acc = accum->count == 0 ? x : Min(accum->acc, x);
	else if (agg->kind == PAX_AGG_MAX)
		accum->acc = accum->count == 0 ? x : Max(accum->acc, x);
	else
		accum->acc += x;
	accum->count++;
}

#ifdef PAX_HAVE_FAST_NUMERIC
/*
 * PaxAggNumericSlow folds selected row r's numeric expression, which the
 * fast path could not compute, into the group's sum with numeric
 * functions.
 */
static void
PaxAggNumericSlow(PaxAggScanState *state, PaxAgg *agg, PaxAggAcc *accum,
				  Page page, TupleDesc tupdesc, int r)
{
	bool		resnull;
	Datum		d;
	MemoryContext old = MemoryContextSwitchTo(state->rowcxt);

	for (int i = 0; i < state->nnumcols; i++)
	{
		int			a = state->numattnos[i];

		state->values[a] = PaxAggValue(page, state->base.layout, tupdesc,
									   state->base.sel[r], a,
									   &state->isnull[a]);
	}
	d = PaxNumEvalSlow(agg->num, state->values, state->isnull, &resnull);
	MemoryContextSwitchTo(old);
	if (!resnull)
	{
		PaxNumSumAddSlow(&accum->nsum, d, state->groupcxt);
		accum->count++;
	}
}
#endif

/*
 * PaxAggPage folds the selected rows of the current page into the groups'
 * accumulators.  The page is pinned; values never move while it is.
 */
void
PaxAggPage(PaxAggScanState *state, Page page, TupleDesc tupdesc)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int			nsel = state->base.nsel;

	MemoryContextReset(state->rowcxt);
	if (state->ngcols == 0)
	{
		/* one group: a loop per column */
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];

			if (agg->kind == PAX_AGG_COUNT_STAR)
				state->accs[k].count += nsel;
			else if (agg->attno >= 0)
				PaxAggColumn(agg, &state->accs[k], page, layout, tupdesc,
							 sel, nsel);
		}
		for (int r = 0; r < nsel; r++)
			state->gid[r] = 0;
	}
	else
	{
		MemoryContext old = MemoryContextSwitchTo(state->rowcxt);

		PaxGroupRows(state, page, layout, tupdesc, sel, nsel);
		MemoryContextSwitchTo(old);
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];
			int16		len;

			if (agg->kind == PAX_AGG_COUNT_STAR)
			{
				for (int r = 0; r < nsel; r++)
					state->accs[state->gid[r] * state->naggs + k].count++;
				continue;
			}
			if (agg->attno < 0)
				continue;
			len = TupleDescAttr(tupdesc, agg->attno)->attlen;
			for (int r = 0; r < nsel; r++)
			{
				bool		isnull;
				Datum		d = PaxAggValue(page, layout, tupdesc, sel[r],
											agg->attno, &isnull);

				PaxAggFoldRow(agg, &state->accs[state->gid[r] * state->naggs + k],
							  d, isnull, len);
			}
		}
	}

#ifdef PAX_HAVE_FAST_NUMERIC
	if (state->has_numeric)
	{
		/* each numeric column parsed once, then every expression */
		for (int i = 0; i < state->nnumcols; i++)
		{
			PaxNumColumn *c = &state->numcols[i];
			int			a = state->numattnos[i];
			const PaxColumnLayout *col = a < layout->natts &&
				layout->cols[a].data != 0 ? &layout->cols[a] : NULL;

			for (int r = 0; r < nsel; r++)
			{
				const char *p = col ? PaxPageShortValue(page, col, sel[r],
														PaxDecodes(col) ? PaxDecodeCell(a) : NULL) : NULL;
				bool		isnull;
				Datum		d;

				if (p != NULL &&
					PaxNumParseShort(p + VARHDRSZ_SHORT,
									 VARSIZE_1B(p) - VARHDRSZ_SHORT,
									 &c->v[r], &c->scale[r]))
				{
					c->status[r] = PAX_NUM_OK;
					continue;
				}
				d = PaxAggValue(page, layout, tupdesc, sel[r], a, &isnull);
				c->status[r] = PaxNumParseDatum(d, isnull, &c->v[r],
												&c->scale[r]);
			}
		}
		for (int k = 0; k < state->naggs; k++)
		{
			PaxAgg	   *agg = &state->aggs[k];
			const PaxNumColumn *res;

			if (agg->num == NULL)
				continue;
			res = PaxNumEvalPage(agg->num, state->numcols, nsel);
			for (int r = 0; r < nsel; r++)
			{
				PaxAggAcc  *accum = &state->accs[state->gid[r] * state->naggs + k];

				if (res->status[r] == PAX_NUM_OK)
				{
					PaxNumSumAdd(&accum->nsum, res->v[r], res->scale[r],
								 state->groupcxt);
					accum->count++;
				}
				else if (res->status[r] == PAX_NUM_SLOW)
					PaxAggNumericSlow(state, agg, accum, page, tupdesc, r);
			}
		}
	}
#endif
}

/*
 * PaxAggResult is the value of an aggregate once every row is folded in.
 * avg of integers is computed as int8_avg() in numeric.c (PostgreSQL 15)
 * does, sum and avg of numerics as numeric_sum() and numeric_avg().
 */
Datum
PaxAggResult(PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = false;
	if (agg->kind == PAX_AGG_COUNT_STAR || agg->kind == PAX_AGG_COUNT)
		return Int64GetDatum(accum->count);
	if (accum->count == 0)
	{
		*isnull = true;
		return (Datum) 0;
	}
	switch (agg->kind)
	{
		case PAX_AGG_SUM:
			return Int64GetDatum(accum->acc);
		case PAX_AGG_AVG:
			/* as int8_avg: numeric sum / numeric count */
			return DirectFunctionCall2(numeric_div,
									   NumericGetDatum(int64_to_numeric(accum->acc)),
									   NumericGetDatum(int64_to_numeric(accum->count)));
#ifdef PAX_HAVE_FAST_NUMERIC
		case PAX_AGG_SUM_NUMERIC:
		case PAX_AGG_AVG_NUMERIC:
			return PaxNumSumResult(&accum->nsum, accum->count,
								   agg->kind == PAX_AGG_AVG_NUMERIC, isnull);
#endif
		default:
			switch (agg->type)
			{
				case INT2OID:
					return Int16GetDatum((int16) accum->acc);
				case INT4OID:
				case DATEOID:
					return Int32GetDatum((int32) accum->acc);
				default:
					return Int64GetDatum(accum->acc);
			}
	}
}

/*
 * PaxAggPartial returns an aggregate's partial state for a Finalize
 * Aggregate above a Gather: what the aggregate's transition function (and
 * serial function) would have made of the same values, in PostgreSQL 15's
 * pg_aggregate: count and sum of int2/int4 as int8 (sums NULL with no
 * value), avg of int2/int4 as int8[] {count, sum} (int4_avg_accum's
 * state, never NULL), min and max as the value, and numeric sum and avg as
 * numeric_avg_serialize()'s bytea (NULL with no value, as its state).
 */
Datum
PaxAggPartial(PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = false;
	switch (agg->kind)
	{
		case PAX_AGG_AVG:
			{
				Datum		elems[2];

				elems[0] = Int64GetDatum(accum->count);
				elems[1] = Int64GetDatum(accum->acc);
				return PointerGetDatum(construct_array(elems, 2, INT8OID,
													   sizeof(int64),
													   FLOAT8PASSBYVAL,
													   TYPALIGN_DOUBLE));
			}
#ifdef PAX_HAVE_FAST_NUMERIC
		case PAX_AGG_SUM_NUMERIC:
		case PAX_AGG_AVG_NUMERIC:
			{
				Datum		total = PaxNumSumResult(&accum->nsum, accum->count,
													false, isnull);

				if (*isnull)
					return (Datum) 0;
				return PaxNumAvgStateSerialize(total, accum->count);
			}
#endif
		default:
			return PaxAggResult(agg, accum, isnull);
	}
}
