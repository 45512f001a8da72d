/*-------------------------------------------------------------------------
 *
 * pax_page_values.c
 *	  Reading values of rows on pax pages.
 *
 * PaxPageGetValue and PaxPageFillValues read a row's values from its\ncolumns' minipages as heap_deform_tuple would give them; prefix-encoded\nand decimal-scaled values are built in decode cells.
 *
 * pax_am/pax_page_values.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc_details.h"
#include "access/tupmacs.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "port/pg_bitutils.h"
#include "storage/buf_internals.h"
#include "storage/procarray.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/memutils.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"

pg_noreturn static void PaxValueCorrupted(Page page, int attnum, int row);

static void
PaxValueCorrupted(Page page, int attnum, int row)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATA_CORRUPTED),
			 errmsg("invalid value offset in pax page: column %d, row %d",
					attnum + 1, row + 1)));
}

/*
 * PaxPrefixDecode builds the value of row `row` of prefix-encoded column i
 * into cell: from its rest p (a varlena inside the page: PaxPrefixShort),
 * or for fixed-width rests (p NULL) from the row's rest in the minipage
 * (PaxFixRestShort), reporting a rest that is not a short varlena, or
 * bytes that cannot make a value, as corrupted.
 */
static Datum
PaxPrefixDecode(Page page, const PaxColumnLayout *col, const char *p,
				char *cell, int i, int row)
{
	const char *v = PaxInMinipage(col) ? PaxMinipageShort(page, col, row, cell) :
		VARATT_IS_1B(p) && !VARATT_IS_1B_E(p) ? PaxPrefixShort(page, col, p, cell) :
		NULL;

	if (v == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg(col->numslot != 0 ?
						"invalid decimal-scaled value in pax page: column %d, row %d" :
						"invalid prefix-encoded value in pax page: column %d, row %d",
						i + 1, row + 1)));
	return PointerGetDatum(v);
}

/*
 * PaxDecodeCell is the shared decode cell of column attno (zero-based) of
 * any relation: where PaxPageGetValue builds the column's values, each
 * valid until the next one.  The cells are allocated on first use.
 */
char *
PaxDecodeCell(int attno)
{
	static char *cells = NULL;

	Assert(attno >= 0 && attno < MaxTupleAttributeNumber);
	if (cells == NULL)
		cells = MemoryContextAlloc(TopMemoryContext,
								   (Size) MaxTupleAttributeNumber * PAX_DECODE_CELL);
	return cells + (Size) attno * PAX_DECODE_CELL;
}

/*
 * PaxFetch reads column i of a row laid out on the page (i < natts).  A
 * value of a prefix-encoded column is built in cell i of cells (the shared
 * ones when NULL).
 */
static inline Datum
PaxFetch(Page page, const PaxPageLayout *layout, int row, int i, bool *isnull,
		 char *cells)
{
	const PaxColumnLayout *col = &layout->cols[i];

	if (col->data == 0 || col->dropped ||
		(col->nullmap != 0 && PaxBitIsSet((bits8 *) page + col->nullmap, row)))
	{
		*isnull = true;
		return (Datum) 0;
	}
	*isnull = false;
	if (col->attlen > 0)
		return PaxFixedValue(page, col, row);
	else if (unlikely(PaxInMinipage(col)))
		return PaxPrefixDecode(page, col, NULL,
							   cells ? cells + (Size) i * PAX_DECODE_CELL :
							   PaxDecodeCell(i),
							   i, row);
	else
	{
		uint16		off = PaxVarOffset(page, col, row);
		uint16		special = ((PageHeader) page)->pd_special;
		char	   *p = page + off;

		if (off < ((PageHeader) page)->pd_upper || off >= special)
			PaxValueCorrupted(page, i, row);
		if (col->attlen == -1)
		{
			if (off + VARSIZE_ANY(p) > special)
				PaxValueCorrupted(page, i, row);
			if (unlikely(col->prefix != 0))
				return PaxPrefixDecode(page, col, p,
									   cells ? cells + (Size) i * PAX_DECODE_CELL :
									   PaxDecodeCell(i),
									   i, row);
		}
		else if (memchr(p, '\0', special - off) == NULL)
			PaxValueCorrupted(page, i, row);
		return PointerGetDatum(p);
	}
}

/*
 * PaxPageGetValue reads one column (zero-based, laid out on the page) of a
 * row.  By-reference values point into the page, but that of a
 * prefix-encoded column, which is valid until the next read of the same
 * column number by PaxPageGetValue.  The caller holds a pin.
 */
Datum
PaxPageGetValue(Page page, const PaxPageLayout *layout, int row, int attno,
				bool *isnull)
{
	Assert(attno < layout->natts);
	return PaxFetch(page, layout, row, attno, isnull, NULL);
}

/*
 * PaxPageColumnValue is PaxPageGetValue for any column of the relation: a
 * column added after the page was laid out reads as its missing value.
 */
Datum
PaxPageColumnValue(TupleDesc tupdesc, Page page, const PaxPageLayout *layout,
				   int row, int attno, bool *isnull)
{
	if (attno >= layout->natts)
		return getmissingattr(tupdesc, attno + 1, isnull);
	return PaxFetch(page, layout, row, attno, isnull, NULL);
}

/*
 * PaxDecodeCellsFor returns the decode cells PaxPageFillValues needs for a
 * page of the given layout: *cells, allocated in mcxt for natts columns
 * on first need; NULL when the layout has no prefix-encoded column.
 */
char *
PaxDecodeCellsFor(char **cells, const PaxPageLayout *layout, int natts,
				  MemoryContext mcxt)
{
	if (!layout->hasprefix)
		return *cells;
	if (*cells == NULL)
		*cells = MemoryContextAlloc(mcxt, (Size) Max(natts, 1) * PAX_DECODE_CELL);
	return *cells;
}

/*
 * PaxPageFillValues reads columns [from, to) (zero-based) of a row into
 * values/isnull: all of them, or where needed is not NULL the nneeded
 * columns it lists (ascending), the others reading as NULL.  By-reference
 * values point into the page, but those of prefix-encoded columns, built
 * in the caller's decode cells (PaxDecodeCellsFor; NULL when the layout
 * has no such columns), valid until the next row is read into them.
 * Columns the page does not have (added after it was initialised) read as
 * their "missing" default; dropped columns read as NULL.  The caller holds
 * a pin.
 */
void
PaxPageFillValues(TupleDesc tupdesc, Page page, const PaxPageLayout *layout,
				  int row, int from, int to,
				  const int16 *needed, int nneeded,
				  Datum *values, bool *isnull, char *cells)
{
	int			stop = Min(to, layout->natts);
	int			i;

	Assert(cells != NULL || !layout->hasprefix);
	if (needed != NULL)
	{
		memset(isnull + from, true, (to - from) * sizeof(bool));
		memset(values + from, 0, (to - from) * sizeof(Datum));
		for (int k = 0; k < nneeded; k++)
		{
			i = needed[k];
			if (i < from)
				continue;
			if (i >= to)
				break;
			if (i < stop)
				values[i] = PaxFetch(page, layout, row, i, &isnull[i], cells);
			else
				values[i] = getmissingattr(tupdesc, i + 1, &isnull[i]);
		}
		return;
	}

	for (i = from; i < stop; i++)
		values[i] = PaxFetch(page, layout, row, i, &isnull[i], cells);
	/* columns added after the page was initialised */
	for (; i < to; i++)
		values[i] = getmissingattr(tupdesc, i + 1, &isnull[i]);
}
