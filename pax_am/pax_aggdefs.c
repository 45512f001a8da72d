/*-------------------------------------------------------------------------
 *
 * pax_aggdefs.c
 *	  The aggregates PaxScan's aggregate mode computes: one row of
 *	  PaxAggDefs each, with the functions that fold a page's selected rows
 *	  into its accumulators and give its results and partial states.
 *
 * A row (PaxAggDef, pax_customscan.h) names the aggregate for EXPLAIN,
 * lists the pg_proc OIDs of the aggregate functions it stands for (the
 * planner matches an Aggref's aggfnoid against them, PaxAggKindOf), says
 * what its argument must be and what type its result has, and points at
 * its fold, final and partial functions.  Nothing else in the mode
 * depends on the kind: adding an aggregate is adding a kind, a row and
 * its functions here (README.paxscan, "Adding an aggregate").
 *
 * The fold functions are called once per page and aggregate and loop over
 * the page's selected rows themselves: without GROUP BY a typed loop over
 * the column's minipage into the one accumulator; with GROUP BY a loop
 * over the rows that reads each value (PaxPageColumnValue) and folds it into its
 * group's accumulator with an inlined step (PaxAggGroupLoop).  A new
 * accumulator is all zeroes, so each kind's state starts from zero.
 *
 * pax_am/pax_aggdefs.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type_d.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/fmgroids.h"
#include "utils/numeric.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

/*
 * PaxAggRowFn folds one non-null value d of a column of attlen len into a
 * group's accumulator: the step PaxAggGroupLoop inlines.
 */
typedef void (*PaxAggRowFn) (PaxAggAcc *accum, Datum d, int16 len);

/*
 * PaxAggGroupLoop folds aggregate k's column of each selected row into its
 * group's accumulator with the step row, which a caller passes as a
 * constant so that it is inlined: no call per value.
 */
static pg_attribute_always_inline void
PaxAggGroupLoop(PAX_AGG_FOLD_ARGS, PaxAggRowFn row)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int16		len = TupleDescAttr(tupdesc, agg->attno)->attlen;

	Assert(agg->attno >= 0 && agg->attno < tupdesc->natts);
	for (int r = 0; r < state->base.nsel; r++)
	{
		bool		isnull;
		Datum		d = PaxPageColumnValue(tupdesc, page, layout, sel[r], agg->attno,
									&isnull);

		if (!isnull)
			row(&state->accs[state->gid[r] * state->naggs + k], d, len);
	}
}

/*
 * PAX_AGG_GROUP_FOLD defines an aggregate's fold with GROUP BY: rowfn,
 * inlined, for each selected row into its group's accumulator.
 */
#define PAX_AGG_GROUP_FOLD(name, rowfn) \
	static void \
	name(PAX_AGG_FOLD_ARGS) \
	{ \
		PaxAggGroupLoop(state, agg, k, page, tupdesc, rowfn); \
	}

/* ----------------------------------------------------------------
 * count(*) and count(col)
 * ----------------------------------------------------------------
 */

static void
PaxAggCountStarOne(PAX_AGG_FOLD_ARGS)
{
	state->accs[k].count += state->base.nsel;
}

static void
PaxAggCountStarGroups(PAX_AGG_FOLD_ARGS)
{
	for (int r = 0; r < state->base.nsel; r++)
		state->accs[state->gid[r] * state->naggs + k].count++;
}

/* PaxAggCountOne counts the selected rows' non-null values (null bitmap). */
static void
PaxAggCountOne(PAX_AGG_FOLD_ARGS)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int			nsel = state->base.nsel;
	const PaxColumnLayout *col;
	const bits8 *nulls;
	int64		count = 0;

	Assert(agg->attno >= 0 && agg->attno < tupdesc->natts);
	if (agg->attno >= layout->natts)
	{
		/* a column added after the page was laid out: its missing value */
		bool		isnull;

		(void) getmissingattr(tupdesc, agg->attno + 1, &isnull);
		if (!isnull)
			state->accs[k].count += nsel;
		return;
	}
	col = &layout->cols[agg->attno];
	if (col->data == 0)
		return;					/* NULL in every row */
	nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
	if (nulls == NULL)
		count = nsel;
	else
		for (int r = 0; r < nsel; r++)
			count += !PaxBitIsSet(nulls, sel[r]);
	state->accs[k].count += count;
}

static inline void
PaxAggCountRow(PaxAggAcc *accum, Datum d, int16 len)
{
	accum->count++;
}

PAX_AGG_GROUP_FOLD(PaxAggCountGroups, PaxAggCountRow)

/* count(*) and count(col): the count, also their partial state (int8). */
static Datum
PaxAggCountFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = false;
	return Int64GetDatum(accum->count);
}

/* ----------------------------------------------------------------
 * sum, avg, min and max of integer-like columns
 * ----------------------------------------------------------------
 */

/* A page's selected non-null values of an integer-like column. */
typedef struct PaxIntStats
{
	int64		count;
	int64		sum;			/* cannot overflow for int2 and int4 */
	int64		lo;
	int64		hi;
} PaxIntStats;

/* PaxAggIntDatum reads an integer-like Datum of attlen len as an int64. */
static inline int64
PaxAggIntDatum(Datum d, int16 len)
{
	return len == 2 ? DatumGetInt16(d) : len == 4 ? DatumGetInt32(d) :
		DatumGetInt64(d);
}

/*
 * PaxAggIntColumn computes *st over aggregate agg's column of the selected
 * rows of a page, in a loop per width with no call per value.  Sums
 * accumulate in int64 as int2_sum() and int4_sum() in int.c (PostgreSQL
 * 15) do.
 */
static pg_attribute_always_inline void
PaxAggIntColumn(PaxAggScanState *state, const PaxAgg *agg, Page page,
				TupleDesc tupdesc, PaxIntStats *st)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int			nsel = state->base.nsel;
	const PaxColumnLayout *col;
	const bits8 *nulls;
	int64		count = 0;
	int64		sum = 0;
	int64		lo = PG_INT64_MAX;
	int64		hi = PG_INT64_MIN;

	Assert(agg->attno >= 0 && agg->attno < tupdesc->natts);
	Assert(PaxSelIsValid(sel, nsel, PaxPageGetHeader(page)->pp_nrows));
	st->count = 0;
	if (agg->attno >= layout->natts)
	{
		/* a column added after the page was laid out: its missing value */
		bool		isnull;
		Datum		d = getmissingattr(tupdesc, agg->attno + 1, &isnull);
		int64		v;

		if (isnull || nsel == 0)
			return;
		v = PaxAggIntDatum(d, TupleDescAttr(tupdesc, agg->attno)->attlen);
		st->count = nsel;
		st->sum = v * nsel;
		st->lo = st->hi = v;
		return;
	}
	col = &layout->cols[agg->attno];
	if (col->data == 0)
		return;					/* NULL in every row */
	nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;

#define PAX_AGG_LOOP(ctype) \
	do { \
		const ctype *v = (const ctype *) data; \
		for (int r = 0; r < nsel; r++) \
		{ \
			int			i = sel[r]; \
			int64		x; \
			if (nulls && PaxBitIsSet(nulls, i)) \
				continue; \
			x = v[i]; \
			count++; \
			sum += x; \
			if (x < lo) lo = x; \
			if (x > hi) hi = x; \
		} \
	} while (0)

	if (col->bits != 0 && nulls == NULL && nsel > 0 &&
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
	st->count = count;
	st->sum = sum;
	st->lo = lo;
	st->hi = hi;
}

/* sum and avg of int2/int4: the sum and count of the values */
static void
PaxAggSumOne(PAX_AGG_FOLD_ARGS)
{
	PaxIntStats st;

	PaxAggIntColumn(state, agg, page, tupdesc, &st);
	if (st.count == 0)
		return;
	state->accs[k].acc += st.sum;
	state->accs[k].count += st.count;
}

static inline void
PaxAggSumRow(PaxAggAcc *accum, Datum d, int16 len)
{
	accum->acc += PaxAggIntDatum(d, len);
	accum->count++;
}

PAX_AGG_GROUP_FOLD(PaxAggSumGroups, PaxAggSumRow)

/*
 * PaxAggExtreme folds x, the least (max false) or greatest (max true) of
 * count values, into a min or max accumulator.
 */
static pg_attribute_always_inline void
PaxAggExtreme(PaxAggAcc *accum, int64 x, int64 count, bool max)
{
	if (accum->count == 0)
		accum->acc = x;
	else
		accum->acc = max ? Max(accum->acc, x) : Min(accum->acc, x);
	accum->count += count;
}

static pg_attribute_always_inline void
PaxAggMinMaxOne(PAX_AGG_FOLD_ARGS, bool max)
{
	PaxIntStats st;

	PaxAggIntColumn(state, agg, page, tupdesc, &st);
	if (st.count > 0)
		PaxAggExtreme(&state->accs[k], max ? st.hi : st.lo, st.count, max);
}

static void
PaxAggMinOne(PAX_AGG_FOLD_ARGS)
{
	PaxAggMinMaxOne(state, agg, k, page, tupdesc, false);
}

static void
PaxAggMaxOne(PAX_AGG_FOLD_ARGS)
{
	PaxAggMinMaxOne(state, agg, k, page, tupdesc, true);
}

static inline void
PaxAggMinRow(PaxAggAcc *accum, Datum d, int16 len)
{
	PaxAggExtreme(accum, PaxAggIntDatum(d, len), 1, false);
}

static inline void
PaxAggMaxRow(PaxAggAcc *accum, Datum d, int16 len)
{
	PaxAggExtreme(accum, PaxAggIntDatum(d, len), 1, true);
}

PAX_AGG_GROUP_FOLD(PaxAggMinGroups, PaxAggMinRow)

PAX_AGG_GROUP_FOLD(PaxAggMaxGroups, PaxAggMaxRow)

/*
 * sum(int2/int4): the int8 sum, NULL without a value; also its partial
 * state (int2_sum's and int4_sum's int8).
 */
static Datum
PaxAggSumFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = accum->count == 0;
	return *isnull ? (Datum) 0 : Int64GetDatum(accum->acc);
}

/*
 * avg(int2/int4), computed as int8_avg() in numeric.c (PostgreSQL 15)
 * does: numeric sum / numeric count, NULL without a value.
 */
static Datum
PaxAggAvgFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = accum->count == 0;
	if (*isnull)
		return (Datum) 0;
	return DirectFunctionCall2(numeric_div,
							   NumericGetDatum(int64_to_numeric(accum->acc)),
							   NumericGetDatum(int64_to_numeric(accum->count)));
}

/*
 * avg(int2/int4)'s partial state: int4_avg_accum's int8[] {count, sum},
 * never NULL.
 */
static Datum
PaxAggAvgPartial(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	Datum		elems[2];

	*isnull = false;
	elems[0] = Int64GetDatum(accum->count);
	elems[1] = Int64GetDatum(accum->acc);
	return PointerGetDatum(construct_array(elems, 2, INT8OID, sizeof(int64),
										   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE));
}

/*
 * min and max: the value, in the column's type, NULL without a value;
 * also their partial state.
 */
static Datum
PaxAggMinMaxFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = accum->count == 0;
	if (*isnull)
		return (Datum) 0;
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

/* ----------------------------------------------------------------
 * sum and avg of numeric expressions
 * ----------------------------------------------------------------
 */

#ifdef PAX_HAVE_FAST_NUMERIC
/*
 * PaxAggNumericSlow folds selected row r's numeric expression, which the
 * fast path could not compute, into the group's sum with numeric
 * functions.
 */
static void
PaxAggNumericSlow(PaxAggScanState *state, const PaxAgg *agg,
				  PaxAggAcc *accum, Page page, TupleDesc tupdesc, int r)
{
	bool		resnull;
	Datum		d;
	MemoryContext old = MemoryContextSwitchTo(state->rowcxt);

	for (int i = 0; i < state->nnumcols; i++)
	{
		int			a = state->numattnos[i];

		state->values[a] = PaxPageColumnValue(tupdesc, page, state->base.layout,
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

/*
 * PaxAggNumericFold evaluates the expression over the page's numeric
 * columns (parsed by PaxAggPage) and adds each non-null result to its
 * group's sum; with or without GROUP BY (gid[] is then all 0).
 */
static void
PaxAggNumericFold(PAX_AGG_FOLD_ARGS)
{
	int			nsel = state->base.nsel;
	const PaxNumColumn *res = PaxNumEvalPage(agg->num, state->numcols, nsel);

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

/* sum and avg of numerics, as numeric_sum() and numeric_avg() */
static Datum
PaxAggNumSumFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	return PaxNumSumResult(&accum->nsum, accum->count, false, isnull);
}

static Datum
PaxAggNumAvgFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	return PaxNumSumResult(&accum->nsum, accum->count, true, isnull);
}

/*
 * Their partial state: numeric_avg_serialize()'s bytea, NULL without a
 * value (as their transition state).
 */
static Datum
PaxAggNumPartial(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	Datum		total = PaxNumSumResult(&accum->nsum, accum->count, false,
										isnull);

	if (*isnull)
		return (Datum) 0;
	return PaxNumAvgStateSerialize(total, accum->count);
}
#endif							/* PAX_HAVE_FAST_NUMERIC */

/* ----------------------------------------------------------------
 * bool_and (every) and bool_or
 *
 * The accumulator's acc is 1 once a value decides the result (or false:
 * bool_and, a false value; or true: bool_or, a true one).
 * ----------------------------------------------------------------
 */

/*
 * PaxAggBoolColumn counts aggregate agg's non-null values among the
 * selected rows of a page (*count) and the true ones (*ntrue), in a loop
 * over the column's bytes (a stored bool is one byte, true when not 0, as
 * DatumGetBool reads it).
 */
static inline void
PaxAggBoolColumn(PaxAggScanState *state, const PaxAgg *agg, Page page,
				 TupleDesc tupdesc, int64 *count, int64 *ntrue)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int			nsel = state->base.nsel;
	const PaxColumnLayout *col;
	const bits8 *nulls;
	const uint8 *v;
	int64		c = 0;
	int64		t = 0;

	Assert(agg->attno >= 0 && agg->attno < tupdesc->natts);
	*count = *ntrue = 0;
	if (agg->attno >= layout->natts)
	{
		/* a column added after the page was laid out: its missing value */
		bool		isnull;
		Datum		d = getmissingattr(tupdesc, agg->attno + 1, &isnull);

		if (!isnull)
		{
			*count = nsel;
			*ntrue = DatumGetBool(d) ? nsel : 0;
		}
		return;
	}
	col = &layout->cols[agg->attno];
	if (col->data == 0)
		return;					/* NULL in every row */
	Assert(col->attlen == 1);
	nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
	v = (const uint8 *) PaxColumnFixedData(page, col,
										   PaxPageGetHeader(page)->pp_nrows,
										   PaxDecodeScratch);
	if (nulls == NULL)
	{
		c = nsel;
		for (int r = 0; r < nsel; r++)
			t += v[sel[r]] != 0;
	}
	else
		for (int r = 0; r < nsel; r++)
		{
			int			i = sel[r];
			int			present = !PaxBitIsSet(nulls, i);

			c += present;
			t += present & (v[i] != 0);
		}
	*count = c;
	*ntrue = t;
}

static pg_attribute_always_inline void
PaxAggBoolOne(PAX_AGG_FOLD_ARGS, bool or)
{
	int64		count;
	int64		ntrue;

	PaxAggBoolColumn(state, agg, page, tupdesc, &count, &ntrue);
	state->accs[k].acc |= or ? ntrue > 0 : ntrue < count;
	state->accs[k].count += count;
}

static void
PaxAggBoolAndOne(PAX_AGG_FOLD_ARGS)
{
	PaxAggBoolOne(state, agg, k, page, tupdesc, false);
}

static void
PaxAggBoolOrOne(PAX_AGG_FOLD_ARGS)
{
	PaxAggBoolOne(state, agg, k, page, tupdesc, true);
}

static inline void
PaxAggBoolAndRow(PaxAggAcc *accum, Datum d, int16 len)
{
	accum->acc |= !DatumGetBool(d);
	accum->count++;
}

static inline void
PaxAggBoolOrRow(PaxAggAcc *accum, Datum d, int16 len)
{
	accum->acc |= DatumGetBool(d);
	accum->count++;
}

PAX_AGG_GROUP_FOLD(PaxAggBoolAndGroups, PaxAggBoolAndRow)

PAX_AGG_GROUP_FOLD(PaxAggBoolOrGroups, PaxAggBoolOrRow)

/*
 * bool_and and bool_or: NULL without a value, as booland_statefunc and
 * boolor_statefunc (strict, with a NULL initial state) leave it; their
 * transition state is that bool, so this is their partial state too.
 */
static Datum
PaxAggBoolAndFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = accum->count == 0;
	return *isnull ? (Datum) 0 : BoolGetDatum(accum->acc == 0);
}

static Datum
PaxAggBoolOrFinal(const PaxAgg *agg, PaxAggAcc *accum, bool *isnull)
{
	*isnull = accum->count == 0;
	return *isnull ? (Datum) 0 : BoolGetDatum(accum->acc != 0);
}

/* ----------------------------------------------------------------
 * The table
 * ----------------------------------------------------------------
 */

/*
 * The aggregates the mode computes, by PaxAggKind.  The OIDs are those of
 * PostgreSQL 15's and 18's pg_proc alike (utils/fmgroids.h).  A row left
 * out (the numeric kinds without a 128-bit integer) lists no function, so
 * nothing is planned with it.
 */
const PaxAggDef PaxAggDefs[PAX_AGG_NKINDS] = {
	[PAX_AGG_COUNT_STAR] = {
		.name = "count",
		.fnoids = {F_COUNT_},
		.arg = PAX_AGG_ARG_NONE,
		.restype = INT8OID,
		.fold_one = PaxAggCountStarOne,
		.fold_groups = PaxAggCountStarGroups,
		.final = PaxAggCountFinal,
		.partial = PaxAggCountFinal,
	},
	[PAX_AGG_COUNT] = {
		.name = "count",
		.fnoids = {F_COUNT_ANY},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = INT8OID,
		.fold_one = PaxAggCountOne,
		.fold_groups = PaxAggCountGroups,
		.final = PaxAggCountFinal,
		.partial = PaxAggCountFinal,
	},
	[PAX_AGG_SUM] = {
		.name = "sum",
		.fnoids = {F_SUM_INT2, F_SUM_INT4},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = INT8OID,
		.fold_one = PaxAggSumOne,
		.fold_groups = PaxAggSumGroups,
		.final = PaxAggSumFinal,
		.partial = PaxAggSumFinal,
	},
	[PAX_AGG_AVG] = {
		.name = "avg",
		.fnoids = {F_AVG_INT2, F_AVG_INT4},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = NUMERICOID,
		.fold_one = PaxAggSumOne,
		.fold_groups = PaxAggSumGroups,
		.final = PaxAggAvgFinal,
		.partial = PaxAggAvgPartial,
	},
	[PAX_AGG_MIN] = {
		.name = "min",
		.fnoids = {F_MIN_INT2, F_MIN_INT4, F_MIN_INT8, F_MIN_DATE,
		F_MIN_TIMESTAMP, F_MIN_TIMESTAMPTZ},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = InvalidOid,
		.fold_one = PaxAggMinOne,
		.fold_groups = PaxAggMinGroups,
		.final = PaxAggMinMaxFinal,
		.partial = PaxAggMinMaxFinal,
	},
	[PAX_AGG_MAX] = {
		.name = "max",
		.fnoids = {F_MAX_INT2, F_MAX_INT4, F_MAX_INT8, F_MAX_DATE,
		F_MAX_TIMESTAMP, F_MAX_TIMESTAMPTZ},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = InvalidOid,
		.fold_one = PaxAggMaxOne,
		.fold_groups = PaxAggMaxGroups,
		.final = PaxAggMinMaxFinal,
		.partial = PaxAggMinMaxFinal,
	},
#ifdef PAX_HAVE_FAST_NUMERIC
	[PAX_AGG_SUM_NUMERIC] = {
		.name = "sum",
		.fnoids = {F_SUM_NUMERIC},
		.arg = PAX_AGG_ARG_NUMERIC,
		.restype = NUMERICOID,
		.fold_one = PaxAggNumericFold,
		.fold_groups = PaxAggNumericFold,
		.final = PaxAggNumSumFinal,
		.partial = PaxAggNumPartial,
	},
	[PAX_AGG_AVG_NUMERIC] = {
		.name = "avg",
		.fnoids = {F_AVG_NUMERIC},
		.arg = PAX_AGG_ARG_NUMERIC,
		.restype = NUMERICOID,
		.fold_one = PaxAggNumericFold,
		.fold_groups = PaxAggNumericFold,
		.final = PaxAggNumAvgFinal,
		.partial = PaxAggNumPartial,
	},
#endif
	[PAX_AGG_BOOL_AND] = {
		.name = "bool_and",
		.fnoids = {F_BOOL_AND},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = BOOLOID,
		.fold_one = PaxAggBoolAndOne,
		.fold_groups = PaxAggBoolAndGroups,
		.final = PaxAggBoolAndFinal,
		.partial = PaxAggBoolAndFinal,
	},
	[PAX_AGG_BOOL_OR] = {
		.name = "bool_or",
		.fnoids = {F_BOOL_OR},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = BOOLOID,
		.fold_one = PaxAggBoolOrOne,
		.fold_groups = PaxAggBoolOrGroups,
		.final = PaxAggBoolOrFinal,
		.partial = PaxAggBoolOrFinal,
	},
	[PAX_AGG_EVERY] = {
		.name = "every",
		.fnoids = {F_EVERY},
		.arg = PAX_AGG_ARG_COLUMN,
		.restype = BOOLOID,
		.fold_one = PaxAggBoolAndOne,
		.fold_groups = PaxAggBoolAndGroups,
		.final = PaxAggBoolAndFinal,
		.partial = PaxAggBoolAndFinal,
	},
};

/* PaxAggKindOf gives the kind that computes an aggregate function, or -1. */
int
PaxAggKindOf(Oid aggfnoid)
{
	for (int kind = 0; kind < PAX_AGG_NKINDS; kind++)
	{
		const Oid  *fnoids = PaxAggDefs[kind].fnoids;

		for (int i = 0; i < PAX_AGG_MAX_FNOIDS && OidIsValid(fnoids[i]); i++)
			if (fnoids[i] == aggfnoid)
				return kind;
	}
	return -1;
}
