/*-------------------------------------------------------------------------
 *
 * pax_zonecheck.c
 *	  PaxScan's zone-map checks: the pages whose zone maps prove that no
 *	  row on them passes the pushed predicates, skipped whole.
 *
 * A zone map holds the least and greatest value of a column over every row
 * stored on the page, visible or not (pax_zone.c keeps them), so a page it
 * refutes is skipped safely, before any row of it is looked at.
 * Comparisons and IN lists are checked for the integer-like and float
 * classes (pax_predvalues.c sets the class), IS [NOT] NULL by the page's
 * bitmaps; only predicates whose value is known and whose clause may skip
 * pages take part.  pax_customscan_plan.c calls PaxPredsRefutePage for each
 * page under pax.enable_zonemaps; the rows of the pages left are filtered
 * by pax_filter.c.
 *
 * pax_am/pax_zonecheck.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/nbtree.h"

#include "pax_encoding.h"
#include "pax_page.h"
#include "pax_pushdown.h"

/* GUC pax.enable_zonemaps, defined in _PG_init */
bool		pax_enable_zonemaps = true;

/*
 * PaxRangeRefutes tells whether no value v between a page's least and
 * greatest value satisfies "v strategy c", from cmplo, c compared with the
 * least, and cmphi, c compared with the greatest.
 */
static inline bool
PaxRangeRefutes(int strategy, int cmplo, int cmphi)
{
	switch (strategy)
	{
		case BTLessStrategyNumber:
			return cmplo <= 0;	/* least >= c */
		case BTLessEqualStrategyNumber:
			return cmplo < 0;	/* least > c */
		case BTEqualStrategyNumber:
			return cmplo < 0 || cmphi > 0;
		case BTGreaterEqualStrategyNumber:
			return cmphi > 0;	/* greatest < c */
		case BTGreaterStrategyNumber:
			return cmphi >= 0;	/* greatest <= c */
		default:				/* PAX_STRATEGY_NE: all values equal c */
			return cmplo == 0 && cmphi == 0;
	}
}

/*
 * PaxZoneRefutes tells whether a page's zone map proves that no row of the
 * page satisfies the predicate.  Zone maps cover every row stored on the
 * page, visible or not, so refutation is always safe.
 */
static bool
PaxZoneRefutes(PaxPred *pred, Page page, const PaxPageLayout *layout,
			   TupleDesc tupdesc)
{
	const PaxColumnLayout *col;
	bits8	   *zoneset = PaxPageGetDirMap(page, PAX_DIR_ZONESET);
	bits8	   *hasnull = PaxPageGetDirMap(page, PAX_DIR_HASNULL);
	PaxZone    *zone;
	Oid			type;

	/*
	 * two columns' zones bound no comparison between a row's values, nor
	 * do a column's bound its values' prefixes
	 */
	if (pred->attno >= layout->natts || pred->kind == PAX_PRED_COLS ||
		pred->prefix > 0)
		return false;
	col = &layout->cols[pred->attno];
	if (col->dropped)
		return false;
	if (pred->kind == PAX_PRED_OR)
	{
		ListCell   *lc;

		foreach(lc, pred->args)
			if (!PaxZoneRefutes(lfirst(lc), page, layout, tupdesc))
				return false;
		return true;
	}
	if (pred->kind == PAX_PRED_ISNULL)
		return col->data != 0 && !PaxBitIsSet(hasnull, pred->attno);
	if (pred->never)
		return true;
	if (pred->always)
		return false;
	if (col->data == 0)
		return true;			/* all NULL: no strict comparison holds */
	if (pred->kind == PAX_PRED_NOTNULL)
		return col->zone >= 0 && !PaxBitIsSet(zoneset, pred->attno) &&
			PaxPageGetHeader(page)->pp_nrows > 0;
	if (col->zone < 0)
		return false;
	if (!PaxBitIsSet(zoneset, pred->attno))
		return PaxPageGetHeader(page)->pp_nrows > 0;	/* all NULL */

	Assert(col->zone < layout->nzones);
	zone = (PaxZone *) (page + layout->zones) + col->zone;
	type = pred->coltype;

	if (pred->vclass == PAX_VC_INT || pred->vclass == PAX_VC_UINT)
	{
		int64		imin = PaxToInt64(PaxZoneDatum(zone->min), type);
		int64		imax = PaxToInt64(PaxZoneDatum(zone->max), type);

		if (pred->kind == PAX_PRED_IN)
		{
			for (int i = 0; i < pred->nvals; i++)
				if (pred->ivals[i] >= imin && pred->ivals[i] <= imax)
					return false;
			return true;
		}
		if (pred->kind == PAX_PRED_NOTIN)
			return imin == imax && pred->nvals > 0 &&
				bsearch(&imin, pred->ivals, pred->nvals, sizeof(int64), PaxCmpInt64);
		return PaxRangeRefutes(pred->strategy,
							   PaxCmpInt64(&pred->ival, &imin),
							   PaxCmpInt64(&pred->ival, &imax));
	}
	if (pred->vclass == PAX_VC_FLOAT)
	{
		double		fmin = PaxToDouble(PaxZoneDatum(zone->min), type);
		double		fmax = PaxToDouble(PaxZoneDatum(zone->max), type);

		if (pred->kind == PAX_PRED_IN)
		{
			for (int i = 0; i < pred->nvals; i++)
				if (PaxCmpDouble(pred->fvals[i], fmin) >= 0 &&
					PaxCmpDouble(pred->fvals[i], fmax) <= 0)
					return false;
			return true;
		}
		if (pred->kind != PAX_PRED_CMP)
			return false;
		return PaxRangeRefutes(pred->strategy,
							   PaxCmpDouble(pred->fval, fmin),
							   PaxCmpDouble(pred->fval, fmax));
	}
	return false;
}

/*
 * PaxPredsRefutePage tells whether the page's zone maps prove that no row
 * on it passes the predicates.  Only evaluated predicates whose clause may
 * skip pages take part.  The caller holds a lock on the page.
 */
bool
PaxPredsRefutePage(List *preds, Page page, const PaxPageLayout *layout,
				   TupleDesc tupdesc)
{
	ListCell   *lc;

	foreach(lc, preds)
	{
		PaxPred    *pred = lfirst(lc);

		if (pred->zone_ok && pred->evaluated &&
			PaxZoneRefutes(pred, page, layout, tupdesc))
			return true;
	}
	return false;
}
