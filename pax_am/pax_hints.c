/*-------------------------------------------------------------------------
 *
 * pax_hints.c
 *	  The encoding hints of a relation (PaxEncodeHint, in its PaxRelCache):
 *	  what the rows this backend placed tell the shape of the next new page.
 *
 * After each page's rows are placed, PaxEncodeHintsUpdate counts them:
 * the ranges of an integer-like column's values on the page and over all
 * rows placed, a zone-mapped column's range, and a variable-length
 * column's distinct values and bytes.  PaxChooseEncodings (pax_encode.c)
 * shapes pages of rows inserted one at a time from these, and the page
 * shape choice (pax_shape.c) asks PaxZoneUseless whether a column's zone
 * map can go.
 *
 * pax_am/pax_hints.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_hio.h"
#include "pax_encode.h"

/*
 * PaxHintValue counts a variable-length value placed in a column's hint:
 * its stored bytes, and its hash among the distinct ones while there are
 * at most PAX_HINT_DISTINCT.
 */
static void
PaxHintValue(Form_pg_attribute att, PaxEncodeHint *h, Datum value)
{
	const char *bytes;
	Size		len;
	bool		hdr1;
	uint32		hash;
	int			k;

	if (!PaxStoredForm(att, value, &bytes, &len, &hdr1))
	{
		h->nvhash = -1;			/* TOAST pointers: no dictionary */
		return;
	}
	h->nvrows++;
	h->vbytes += len + hdr1;
	if (h->nvhash < 0)
		return;
	hash = hash_bytes((const unsigned char *) bytes, (int) len) ^ hdr1;
	for (k = 0; k < h->nvhash; k++)
		if (h->vhash[k] == hash)
			return;
	if (h->nvhash == PAX_HINT_DISTINCT)
		h->nvhash = -1;
	else
		h->vhash[h->nvhash++] = hash;
}

/* PaxHintWiden widens a hint's range of all rows placed to cover v. */
static inline void
PaxHintWiden(PaxEncodeHint *h, int64 v)
{
	if (!h->all_set)
	{
		h->all_lo = h->all_hi = v;
		h->all_set = true;
	}
	else if (v < h->all_lo)
		h->all_lo = v;
	else if (v > h->all_hi)
		h->all_hi = v;
}

/*
 * PaxRowsZoneRange gives the least and greatest of column i's non-null
 * values among the rows as PaxZoneNumber's doubles; false when there are
 * none, or a NaN or an infinity.
 */
static bool
PaxRowsZoneRange(Form_pg_attribute att, const PaxRow *rows, int nrows, int i,
				 double *lo, double *hi)
{
	bool		set = false;

	for (int r = 0; r < nrows; r++)
	{
		double		v;

		if (rows[r].isnull[i])
			continue;
		v = PaxZoneNumber(att, rows[r].values[i]);
		if (isnan(v) || isinf(v))
			return false;
		if (!set)
			*lo = *hi = v;
		else if (v < *lo)
			*lo = v;
		else if (v > *hi)
			*hi = v;
		set = true;
	}
	return set;
}

/* PaxHintZone widens a zone-mapped column's hint to the rows' range. */
static void
PaxHintZone(Form_pg_attribute att, PaxEncodeHint *h, const PaxRow *rows,
			int nrows, int i)
{
	double		lo,
				hi;

	if (!PaxRowsZoneRange(att, rows, nrows, i, &lo, &hi))
		return;
	if (h->zone_rows == 0)
	{
		h->zone_lo = lo;
		h->zone_hi = hi;
	}
	h->zone_lo = Min(h->zone_lo, lo);
	h->zone_hi = Max(h->zone_hi, hi);
	h->zone_rows += nrows;
}

/*
 * PaxZoneUseless tells whether a page built from a batch can do without
 * column i's zone map: its rows at hand span at least PAX_ZONE_SPAN_NUM /
 * PAX_ZONE_SPAN_DEN of the range of all rows placed so far (the hint's,
 * counted over at least PAX_ZONE_MIN_PAGES pages' worth of rows): values in
 * no order, which a predicate seldom prunes a page of, since every page's
 * range is nearly the whole column's.  (The 32-column table's random
 * columns: 16 bytes a page each.)  Without a zone map, scans read the
 * page's values; the answers are the same.
 */
bool
PaxZoneUseless(Form_pg_attribute att, const PaxEncodeHint *h,
			   const PaxRow *rows, int nrows, int i)
{
	double		lo,
				hi;
	double		all;

	if (h->zone_rows < (double) PAX_ZONE_MIN_PAGES * nrows ||
		!PaxRowsZoneRange(att, rows, nrows, i, &lo, &hi))
		return false;
	all = Max(hi, h->zone_hi) - Min(lo, h->zone_lo);
	return all > 0 &&
		(hi - lo) * PAX_ZONE_SPAN_DEN >= all * PAX_ZONE_SPAN_NUM;
}

/*
 * PaxEncodeHintsUpdate counts rows[0..nrows), just placed on one page, in
 * the relation's hints (of PaxChooseEncodings): the ranges of the page's
 * rows and of all rows placed, and the values of variable-length columns.
 * With all_only, only the range of all rows placed: the page's own
 * counts start afresh at the next new page, which a bulk insert shapes
 * from its own rows, not from the hints.
 */
void
PaxEncodeHintsUpdate(TupleDesc tupdesc, const PaxRow *rows, int nrows,
					 bool all_only, PaxRelCache *hints)
{
	int			n = Min(tupdesc->natts, PAX_HINT_ATTS);

	for (int i = 0; i < n; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		PaxEncodeHint *h = &hints->hints[i];
		int64		lo = 0;
		int64		hi = 0;
		int			count;

		if (PaxZoneEligible(att))
			PaxHintZone(att, h, rows, nrows, i);
		if (att->attlen < 0 && !att->attisdropped)
		{
			if (all_only)
				continue;
			for (int r = 0; r < nrows; r++)
				if (!rows[r].isnull[i])
					PaxHintValue(att, h, rows[r].values[i]);
			continue;
		}
		if (!PaxEncodeEligible(att))
			continue;
		count = PaxRowsRange(rows, nrows, i, att->attlen, &lo, &hi);
		if (count == 0)
			continue;
		PaxHintWiden(h, lo);
		PaxHintWiden(h, hi);
		if (all_only)
			continue;
		if (!h->set)
		{
			h->lo = lo;
			h->hi = hi;
			h->nrecent = 0;
			h->set = true;
		}
		else
		{
			h->lo = Min(h->lo, lo);
			h->hi = Max(h->hi, hi);
		}
		h->nrecent += count;
	}
}
