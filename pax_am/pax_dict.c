/*-------------------------------------------------------------------------
 *
 * pax_dict.c
 *	  Dictionary minipages (pax_am/README, "Dictionary minipages"): finding
 *	  a value's entry in a page's dictionary, and choosing whether a new
 *	  page's variable-length column gets one, from the rows at hand or from
 *	  the relation's hints.
 *
 * A dictionary entry stores a value exactly as PaxValuePlace would store
 * it in the value area (PaxStoredForm); a row whose value is among the
 * entries takes only its code.  PaxChooseEncodings (pax_encode.c) asks
 * for a dictionary here before any other encoding of a variable-length
 * column; PaxShapeEncode, which gives a shape its encoding arrays, serves
 * every encoding chosen.
 *
 * pax_am/pax_dict.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_hio.h"
#include "pax_encode.h"

/* Distinct values a dictionary-encoded column may start with, at most. */
#define PAX_DICT_MAX_DISTINCT	64

/* ----------------------------------------------------------------
 * Dictionaries
 * ----------------------------------------------------------------
 */

/*
 * PaxStoredForm gives the bytes PaxValuePlace stores for a non-null
 * variable-length value: the value's own bytes, or for a value converted to
 * a short varlena its data after the new 1-byte header (*hdr1 set).  False
 * for a TOAST pointer, which no other value equals.
 */
bool
PaxStoredForm(Form_pg_attribute att, Datum value, const char **bytes,
			  Size *len, bool *hdr1)
{
	const char *v = DatumGetPointer(value);
	int			align;
	bool		toshort;
	Size		size;

	*hdr1 = false;
	if (att->attlen == -2)
	{
		*bytes = v;
		*len = strlen(v) + 1;
		return true;
	}
	if (VARATT_IS_EXTERNAL(v))
		return false;
	size = PaxVarStorage(att, value, &align, &toshort);
	if (toshort)
	{
		*hdr1 = true;
		*bytes = VARDATA(v);
		*len = size - 1;
	}
	else
	{
		*bytes = v;
		*len = size;
	}
	return true;
}

/*
 * PaxSameBytes compares len bytes, rejecting most unequal values (a
 * dictionary's entries seldom share their first and last bytes) before a
 * call of memcmp(): the values of a bulk insert are each looked up among
 * their page's entries.
 */
static inline bool
PaxSameBytes(const char *a, const char *b, Size len)
{
	if (len == 0)
		return true;
	if (a[0] != b[0] || a[len - 1] != b[len - 1])
		return false;
	return len <= 2 || memcmp(a + 1, b + 1, len - 2) == 0;
}

/*
 * PaxStoredIs tells whether the value stored at off of the page (in its
 * value area) is the stored form PaxStoredForm gave: the same header form
 * and bytes.
 */
bool
PaxStoredIs(Page page, uint16 off, const char *bytes, Size len, bool hdr1)
{
	const char *p = page + off;
	uint16		special = ((PageHeader) page)->pd_special;

	if (off < ((PageHeader) page)->pd_upper || off >= special)
		return false;
	if (hdr1)
		return VARATT_IS_1B(p) && !VARATT_IS_1B_E(p) &&
			VARSIZE_1B(p) == len + 1 && PaxSameBytes(p + 1, bytes, len);
	return len <= (Size) (special - off) && PaxSameBytes(p, bytes, len);
}

/*
 * PaxDictFind returns the code of the entry of a dictionary-encoded column
 * of the page that stores value exactly as PaxValuePlace would store it
 * (the same header form and bytes: PaxStoredForm), or -1.  TOAST pointers
 * are never found (each names its own value).
 */
int
PaxDictFind(Page page, const PaxColumnLayout *col, Form_pg_attribute att,
			Datum value)
{
	const uint16 *dict = (const uint16 *) (page + col->dict);
	int			used = Min(PaxDictUsed(page, col), col->dictcap);
	const char *bytes;
	Size		len;
	bool		hdr1;

	if (!PaxStoredForm(att, value, &bytes, &len, &hdr1))
		return -1;
	for (int e = 0; e < used; e++)
		if (PaxStoredIs(page, dict[e], bytes, len, hdr1))
			return e;
	return -1;
}

/* ----------------------------------------------------------------
 * Choosing a new page's dictionaries
 * ----------------------------------------------------------------
 */

/*
 * PaxShapeEncode gives a shape its encoded widths and bases (all columns
 * unencoded), unless it has them.
 */
void
PaxShapeEncode(TupleDesc tupdesc, PaxPageShape *shape)
{
	if (shape->widths != NULL)
		return;
	shape->widths = palloc0(tupdesc->natts);
	shape->bases = palloc0(tupdesc->natts * sizeof(int64));
}

/*
 * PaxSetDictionary makes column i of a shape dictionary-encoded, with room
 * for half as many entries again as the ndistinct values seen and 8 more;
 * its codes bit-packed if `packed`, when the rows seen fill the page and
 * later rows seldom come: then with room for one more entry only (to the
 * next 8), since each doubling of the room takes a bit a row.
 */
static void
PaxSetDictionary(TupleDesc tupdesc, PaxPageShape *shape, int i, int ndistinct,
				 bool packed)
{
	int			cap = packed ? TYPEALIGN(8, ndistinct + 1) :
		TYPEALIGN(8, ndistinct + ndistinct / 2 + 8);

	cap = Min(cap, PAX_DICT_MAX_K * 8);
	PaxShapeEncode(tupdesc, shape);
	shape->widths[i] = PAX_DICT_FLAG | (packed ? PAX_DICT_PACKED : 0) | (cap / 8);
	shape->bases[i] = 0;		/* no entries in use yet */
}

/*
 * PaxChooseDictionary decides whether variable-length column i of a new
 * page is dictionary-encoded: when the rows looked ahead at have few
 * distinct stored values (at most PAX_DICT_MAX_DISTINCT, and at most a
 * quarter of the rows), with room for half as many again and 8 more, its
 * codes bit-packed if `packed` (the rows fill a bulk-built page).
 * Returns the value-area bytes it saves over the rows (each distinct value
 * stored once), 0 if the column is not encoded.
 */
double
PaxChooseDictionary(TupleDesc tupdesc, const PaxRow *rows, int nrows, int i,
					bool packed, PaxPageShape *shape)
{
	Form_pg_attribute att = TupleDescAttr(tupdesc, i);
	const char *dbytes[PAX_DICT_MAX_DISTINCT];
	Size		dlen[PAX_DICT_MAX_DISTINCT];
	bool		dhdr1[PAX_DICT_MAX_DISTINCT];
	int			ndistinct = 0;
	double		total = 0;
	double		distinct_bytes = 0;

	for (int r = 0; r < nrows; r++)
	{
		const char *b;
		Size		len;
		Size		stored;
		bool		hdr1;
		int			d;

		if (rows[r].isnull[i])
			continue;
		if (!PaxStoredForm(att, rows[r].values[i], &b, &len, &hdr1))
			return 0;			/* TOAST pointers: never encoded */
		/* the bytes the value area takes: a converted value's header too */
		stored = len + (hdr1 ? 1 : 0);
		total += stored;
		for (d = 0; d < ndistinct; d++)
			if (dlen[d] == len && dhdr1[d] == hdr1 && PaxSameBytes(dbytes[d], b, len))
				break;
		if (d < ndistinct)
			continue;
		/* too many distinct values already: the answer can only be no */
		if (ndistinct == PAX_DICT_MAX_DISTINCT || (ndistinct + 1) * 4 > nrows)
			return 0;
		dbytes[ndistinct] = b;
		dlen[ndistinct] = len;
		dhdr1[ndistinct] = hdr1;
		distinct_bytes += stored;
		ndistinct++;
	}
	if (ndistinct == 0 || ndistinct * 4 > nrows)
		return 0;
	PaxSetDictionary(tupdesc, shape, i, ndistinct, packed);
	return total - distinct_bytes;
}

/*
 * PaxHintDictionary decides whether variable-length column i of a page
 * shaped for rows inserted one at a time is dictionary-encoded, from the
 * column's hint: the values placed since the last new page, when there
 * were enough of them (PAX_SHAPE_SAMPLE_ROWS) and few distinct ones (at
 * most PAX_HINT_DISTINCT, and half of them: a page of wide rows holds few,
 * among which even a handful of values repeat less; distinct as far as
 * their hashes tell, so a few more may come).  Returns the value-area bytes
 * a row saves, as those rows would have.
 */
double
PaxHintDictionary(TupleDesc tupdesc, const PaxEncodeHint *h, int i,
				  PaxPageShape *shape)
{
	int			d = h->nvhash;

	if (d <= 0 || h->nvrows < PAX_SHAPE_SAMPLE_ROWS || d * 2 > h->nvrows)
		return 0;
	PaxSetDictionary(tupdesc, shape, i, d, false);
	return h->vbytes / h->nvrows * (1.0 - (double) d / h->nvrows);
}
