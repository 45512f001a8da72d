/*-------------------------------------------------------------------------
 *
 * pax_aggfold.c
 *	  A page of PaxScan's aggregate mode: its selected rows' groups found,
 *	  its numeric columns parsed, and each aggregate's fold function called.
 *
 * What an aggregate does with the rows is its row of PaxAggDefs'
 * (pax_aggdefs.c): this file calls each aggregate's fold function once per
 * page, after the groups of the selected rows are known (PaxGroupRows,
 * pax_agggroups.c; every row in group 0 without GROUP BY) and the numeric
 * columns the numeric expressions read are parsed once for all of them
 * (pax_numeric.c).  pax_aggexec.c calls PaxAggPage for each page.
 *
 * pax_am/pax_aggfold.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_numeric.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

#ifdef PAX_HAVE_FAST_NUMERIC
/*
 * PaxAggParseNumeric parses the selected rows' values of each numeric
 * column an aggregate's expression reads into state->numcols (fast values,
 * or a status saying why not), once for all the expressions.
 */
static void
PaxAggParseNumeric(PaxAggScanState *state, Page page, TupleDesc tupdesc)
{
	const PaxPageLayout *layout = state->base.layout;
	const uint16 *sel = state->base.sel;
	int			nsel = state->base.nsel;

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
			d = PaxPageColumnValue(tupdesc, page, layout, sel[r], a, &isnull);
			c->status[r] = PaxNumParseDatum(d, isnull, &c->v[r],
											&c->scale[r]);
		}
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
	int			nsel = state->base.nsel;

	MemoryContextReset(state->rowcxt);
	if (state->ngcols == 0)
	{
		/* one group */
		for (int r = 0; r < nsel; r++)
			state->gid[r] = 0;
	}
	else
	{
		MemoryContext old = MemoryContextSwitchTo(state->rowcxt);

		PaxGroupRows(state, page, state->base.layout, tupdesc,
					 state->base.sel, nsel);
		MemoryContextSwitchTo(old);
	}
#ifdef PAX_HAVE_FAST_NUMERIC
	if (state->has_numeric)
		PaxAggParseNumeric(state, page, tupdesc);
#endif
	for (int k = 0; k < state->naggs; k++)
	{
		const PaxAgg *agg = &state->aggs[k];

		if (state->ngcols == 0)
			agg->def->fold_one(state, agg, k, page, tupdesc);
		else
			agg->def->fold_groups(state, agg, k, page, tupdesc);
	}
}
