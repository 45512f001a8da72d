/*-------------------------------------------------------------------------
 *
 * pax_filter_cols.c
 *	  The kernels of predicates comparing two columns of a row
 *	  (PAX_PRED_COLS): l_commitdate < l_receiptdate evaluated on the page's
 *	  values of both columns, without forming rows.
 *
 * pax_filter.c calls PaxFilterColumns for such a predicate, in the last
 * phase of a page's predicates (after the runtime join filters).
 *
 * pax_am/pax_filter_cols.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "fmgr.h"

#include "pax_minipage.h"
#include "pax_pushdown.h"

/* the second column's values of PaxFilterColumnsFixed (PaxDecodeScratch's twin) */
static union
{
	int64		align;
	char		bytes[PAX_MAX_CAPACITY * sizeof(int64)];
}			PaxDecodeScratch2;

/* PaxFixedInt reads value r of an array of attlen-wide signed integers. */
static inline int64
PaxFixedInt(const char *data, int attlen, int r)
{
	return attlen == 8 ? ((const int64 *) data)[r] :
		attlen == 4 ? ((const int32 *) data)[r] : ((const int16 *) data)[r];
}

/*
 * PaxFilterColumnsFixed is PaxFilterColumns for two integer-like columns
 * both stored as fixed-width values on the page (not dictionaries): each
 * column's values decoded once for the page, the rows compared in a loop.
 */
static int
PaxFilterColumnsFixed(PaxPred *pred, Page page, const PaxColumnLayout *c1,
					  const PaxColumnLayout *c2, uint16 *sel, int n)
{
	int			nrows = PaxPageGetHeader(page)->pp_nrows;
	const bits8 *nulls1 = PaxColumnNulls(page, c1, pred->attno);
	const bits8 *nulls2 = PaxColumnNulls(page, c2, pred->attno2);
	const char *a = PaxColumnFixedData(page, c1, nrows, PaxDecodeScratch);
	const char *b = PaxColumnFixedData(page, c2, nrows, PaxDecodeScratch2.bytes);
	int			m = 0;

	for (int k = 0; k < n; k++)
	{
		int			r = sel[k];
		int64		x;
		int64		y;

		if ((nulls1 && PaxBitIsSet(nulls1, r)) || (nulls2 && PaxBitIsSet(nulls2, r)))
			continue;
		x = PaxFixedInt(a, c1->attlen, r);
		y = PaxFixedInt(b, c2->attlen, r);
		if (PaxStrategyHolds(pred->strategy, (x > y) - (x < y)))
			sel[m++] = r;
	}
	return m;
}

/*
 * PaxFilterColumns keeps the rows of sel whose two columns satisfy a
 * PAX_PRED_COLS predicate: compared as int64 for integer-like pairs, else
 * through the operator's function (which detoasts what it reads); a NULL
 * on either side fails the strict operator.
 */
int
PaxFilterColumns(PaxPred *pred, Page page, const PaxPageLayout *layout,
				 TupleDesc tupdesc, uint16 *sel, int n)
{
	Oid			type1 = pred->coltype;
	Oid			type2 = pred->valtype;
	int			m = 0;

	if (pred->vclass == PAX_VC_INT &&
		pred->attno < layout->natts && pred->attno2 < layout->natts)
	{
		const PaxColumnLayout *c1 = &layout->cols[pred->attno];
		const PaxColumnLayout *c2 = &layout->cols[pred->attno2];

		if (c1->data != 0 && !c1->dropped && c1->dict == 0 && !c1->scaled &&
			c2->data != 0 && !c2->dropped && c2->dict == 0 && !c2->scaled &&
			c1->attlen >= 2 && c2->attlen >= 2)
			return PaxFilterColumnsFixed(pred, page, c1, c2, sel, n);
	}

	for (int k = 0; k < n; k++)
	{
		int			r = sel[k];
		bool		null1;
		bool		null2;
		Datum		v1 = PaxPageColumnValue(tupdesc, page, layout, r, pred->attno, &null1);
		Datum		v2;
		bool		keep;

		if (null1)
			continue;
		v2 = PaxPageColumnValue(tupdesc, page, layout, r, pred->attno2, &null2);
		if (null2)
			continue;
		if (pred->vclass == PAX_VC_INT)
		{
			int64		a = PaxToInt64(v1, type1);
			int64		b = PaxToInt64(v2, type2);

			keep = PaxStrategyHolds(pred->strategy, (a > b) - (a < b));
		}
		else
			keep = DatumGetBool(FunctionCall2Coll(&pred->fn, pred->collation,
												  v1, v2));
		if (keep)
			sel[m++] = r;
	}
	return m;
}
