/*-------------------------------------------------------------------------
 *
 * pax_place.c
 *	  Placing a new row's values on a pax page: the value area, dictionary
 *	  entries and codes, prefixes, fixed-width rests and decimal-scaled
 *	  numerics.
 *
 * PaxRowPlace places (or, without a page to write, only measures) a row's
 * variable-length values; the insert path of pax_insert.c asks it whether
 * a row fits a page and then to place it there, row preparation
 * (pax_prepare.c) to measure a row's value-area needs, and the page shape
 * choice (pax_shape.c) whether a new page's capacity leaves a row room.
 * PaxPlaceGroupValues lays out the values a change placed column by
 * column.  Nothing here locks a buffer or writes WAL: the page is the
 * caller's private copy of a PaxChange.
 *
 * pax_am/pax_place.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "access/tupmacs.h"

#include "pax_encoding.h"
#include "pax_numscale.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_xlog.h"
#include "pax_encode.h"
#include "pax_tableam.h"

/*
 * PaxValuePlace places one non-null variable-length value of a column in
 * the value area below `upper`, never below `lower`.  With page != NULL it
 * writes the value and its offset at *offp (the row's slot in the column's
 * minipage, or a dictionary entry); either way it returns the new upper,
 * or -1 when the value does not fit.  Adapted from fill_val() in
 * heaptuple.c, PostgreSQL 15.
 */
static inline int
PaxValuePlace(Form_pg_attribute att, Datum value, int upper, int lower,
			  Page page, uint16 *offp)
{
	Size		size;
	int			align;
	bool		toshort;

	size = PaxVarStorage(att, value, &align, &toshort);
	upper -= size;
	upper &= ~(align - 1);
	if (upper < lower)
		return -1;
	if (page == NULL)
		return upper;

	if (toshort)
	{
		SET_VARSIZE_SHORT(page + upper, size);
		memcpy(page + upper + 1, VARDATA(DatumGetPointer(value)), size - 1);
	}
	else
		memcpy(page + upper, DatumGetPointer(value), size);
	*offp = (uint16) upper;
	return upper;
}

/*
 * PaxValueShared tells whether a non-null value equals, as stored, the value
 * of column col of row slot `share` on the page (an UPDATE's old version on
 * the page its new version goes to), and sets *offp to that value's offset:
 * the new version then shares the old one's bytes in the value area.  A
 * stored value never changes (invariant 3) and the value area's compaction
 * moves a shared value once for all its rows (PaxCompactValueArea), so an
 * UPDATE that keeps a row's text columns writes none of them again: heap
 * copies the whole row.
 */
static inline bool
PaxValueShared(Form_pg_attribute att, Datum value, Page page,
			   const PaxColumnLayout *col, int share, uint16 *offp)
{
	uint16		off;
	const char *bytes;
	Size		len;
	bool		hdr1;

	if (col->nullmap != 0 && PaxBitIsSet((bits8 *) page + col->nullmap, share))
		return false;
	off = ((const uint16 *) (page + col->data))[share];
	if (!PaxStoredForm(att, value, &bytes, &len, &hdr1) ||
		!PaxStoredIs(page, off, bytes, len, hdr1))
		return false;
	*offp = off;
	return true;
}

/*
 * PaxPrefixPlace is PaxValuePlace for a column of a page whose values start
 * with `prefix` (a length byte, the bytes: pax_encoding.h, "Prefix encoding"): it
 * places the rest of the value's data as a short varlena, writing into dest
 * when not NULL; -1 also when the value is not stored short or does not
 * start with the prefix.
 */
static inline int
PaxPrefixPlace(Form_pg_attribute att, const uint8 *prefix, Datum value,
			   int upper, int lower, char *dest, uint16 *offp)
{
	const char *data;
	int			len;
	int			size;

	if (!PaxShortData(att, value, &data, &len) || len < prefix[0] ||
		memcmp(data, prefix + 1, prefix[0]) != 0)
		return -1;
	size = VARHDRSZ_SHORT + len - prefix[0];
	upper -= size;
	if (upper < lower)
		return -1;
	if (dest == NULL)
		return upper;
	SET_VARSIZE_SHORT(dest + upper, size);
	memcpy(dest + upper + VARHDRSZ_SHORT, data + prefix[0], len - prefix[0]);
	*offp = (uint16) upper;
	return upper;
}

/*
 * PaxFixRestPlace tells whether a value fits column col of fixed-width
 * rests (pax_encoding.h, "Prefix encoding with fixed-width rests") on the page:
 * stored short, starting with the column's prefix, with a rest of at most
 * its width that does not end with a zero byte, and, for rests in symbols,
 * whose bytes are all in the page's alphabet.  With rowidx >= 0, the rest
 * goes in row rowidx's slot, zero-padded.
 */
static inline bool
PaxFixRestPlace(Form_pg_attribute att, Page page, const PaxColumnLayout *col,
				Datum value, int rowidx)
{
	const uint8 *prefix = (const uint8 *) page + col->prefix;
	int			width = col->restwidth;
	const char *data;
	int			len;
	int			rest;
	uint8		padded[PAX_FIXREST_MAX];

	if (!PaxShortData(att, value, &data, &len) || len < prefix[0] ||
		memcmp(data, prefix + 1, prefix[0]) != 0)
		return false;
	rest = len - prefix[0];
	if ((uint32) rest > (uint32) width || (rest > 0 && data[len - 1] == 0))
		return false;
	data += prefix[0];
	memcpy(padded, data, rest);
	memset(padded + rest, 0, width - rest);
	/* in symbols: the codes of the bytes, each in the page's alphabet */
	for (int j = 0; col->symbits != 0 && j < rest; j++)
	{
		int			c = PaxSymCode(prefix + PAX_FIXREST_AREA, padded[j]);

		if (c < 0)
			return false;
		padded[j] = (uint8) c;
	}
	if (rowidx >= 0)
		PaxRestStore(page, col, rowidx, padded);
	return true;
}

/*
 * PaxNumScalePlace tells whether a value fits decimal-scaled numeric column
 * col on the page (pax_encoding.h, PAX_NUMSCALE_BASE): read back exactly from its
 * scaled integer (PaxNumScaledKey), of the page's display scale, within
 * base .. base + factor (2^bits - 1), a multiple of the factor from the
 * base.  With rowidx >= 0, its offset goes in row rowidx's bits.
 */
static inline bool
PaxNumScalePlace(Form_pg_attribute att, Page page, const PaxColumnLayout *col,
				 Datum value, int rowidx)
{
	int64		slot[3];		/* base, factor, display scale */
	const char *data;
	int			len;
	int64		k;
	int			dscale;

	PaxNumSlot(page, col, slot);
	if (!PaxShortData(att, value, &data, &len) ||
		!PaxNumScaledKey(data, len, &k, &dscale) || dscale != slot[2] ||
		!PaxEncodedValueFits(k, slot[0], (uint64) slot[1],
							 (UINT64CONST(1) << col->bits) - 1))
		return false;
	if (rowidx >= 0)
		PaxPackedPut(page + col->data, col->bits, rowidx,
					 (uint32) (((uint64) k - (uint64) slot[0]) / (uint64) slot[1]));
	return true;
}

/*
 * PaxRowPlace places a row's variable-length values in the value area below
 * `upper`, never below `lower`, as PaxValuePlace places each, and returns
 * the new upper, or -1 when they do not fit.  On a page with
 * dictionary-encoded columns (page and layout given), a value already in
 * its column's dictionary takes no room and its row gets its code; another
 * needs a free dictionary entry; a value of a prefix-encoded column takes
 * the room of its rest, and does not fit unless it starts with the prefix
 * (PaxPrefixPlace).  With write, the values, offsets, codes and entries go
 * on the page (row slot rowidx); without, the page is only read.  Adapted
 * from heap_fill_tuple() in heaptuple.c, PostgreSQL 15.
 */
int
PaxRowPlace(TupleDesc tupdesc, const PaxRow *row, int upper, int lower,
			Page page, const PaxPageLayout *layout, int rowidx, bool write)
{
	/*
	 * The dictionary codes the last look at a row found (PaxRowFits, just
	 * before the same row is placed on the same, unchanged, page): -1 for
	 * a value not in its dictionary.
	 */
	static const PaxRow *memo_row = NULL;
	static Page memo_page = NULL;
	static int	memo_upper = -1;
	static int16 memo_codes[MaxTupleAttributeNumber];
	bool		memo_ok = write && memo_row == row && memo_page == page &&
		page != NULL && memo_upper == ((PageHeader) page)->pd_upper;
	int			nvisit = row->nvar >= 0 ? row->nvar : tupdesc->natts;

	if (!write && page != NULL)
	{
		memo_row = row;
		memo_page = page;
		memo_upper = ((PageHeader) page)->pd_upper;
	}
	else
		memo_row = NULL;
	if (upper < lower)
	{
		memo_row = NULL;
		return -1;				/* the minipages alone overflow the page */
	}
	for (int k = 0; k < nvisit && upper >= 0; k++)
	{
		int			i = row->nvar >= 0 ? row->var[k] : k;
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const PaxColumnLayout *col = layout ? &layout->cols[i] : NULL;

		if (att->attlen > 0 || row->isnull[i])
			continue;
		if (col != NULL && col->dict != 0)
		{
			int			code = memo_ok ? memo_codes[i] :
				PaxDictFind(page, col, att, row->values[i]);
			uint16		used = PaxDictUsed(page, col);

			if (!write)
				memo_codes[i] = (int16) code;

			if (code < 0)
			{
				if (used >= col->dictcap)
				{
					memo_row = NULL;
					return -1;	/* the dictionary is full */
				}
				upper = PaxValuePlace(att, row->values[i], upper, lower,
									  write ? page : NULL,
									  &((uint16 *) (page + col->dict))[used]);
				if (upper < 0 || !write)
					continue;
				code = used++;
				memcpy(page + col->dictused, &used, sizeof(uint16));
			}
			if (write)
				PaxDictCodeSet(page, col, rowidx, code);
			continue;
		}
		if (col != NULL && col->numslot != 0)
		{
			/* a decimal-scaled numeric: its bits, no room in the value area */
			if (!PaxNumScalePlace(att, page, col, row->values[i],
								  write ? rowidx : -1))
				upper = -1;
			continue;
		}
		if (col != NULL && col->restwidth != 0)
		{
			/* a fixed-width rest: no room in the value area */
			if (!PaxFixRestPlace(att, page, col, row->values[i],
								 write ? rowidx : -1))
				upper = -1;
			continue;
		}
		if (col != NULL && col->prefix != 0)
		{
			/* (a value without the page's prefix does not fit) */
			upper = PaxPrefixPlace(att, (const uint8 *) page + col->prefix,
								   row->values[i], upper, lower,
								   write ? page : NULL,
								   &((uint16 *) (page + col->data))[rowidx]);
			continue;
		}
		if (col != NULL && page != NULL && row->init != NULL &&
			row->init->share_row >= 0)
		{
			uint16		off;

			if (PaxValueShared(att, row->values[i], page, col,
							   row->init->share_row, &off))
			{
				if (write)
					((uint16 *) (page + col->data))[rowidx] = off;
				continue;
			}
		}
		upper = PaxValuePlace(att, row->values[i], upper, lower,
							  write ? page : NULL,
							  write ? &((uint16 *) (page + col->data))[rowidx] : NULL);
	}
	if (upper < 0)
		memo_row = NULL;		/* the row goes elsewhere */
	return upper;
}

/*
 * PaxPlaceGroupValues lays out again, column by column, the value-area bytes
 * of the rows rows[0..n) that this change has just placed row by row at
 * page slots rowidx[0..n), all of them below `top` (the page's pd_upper
 * before the first of them): each column's values of the group then lie
 * together, so a filter or aggregate over one variable-length column (a
 * numeric, a char(n)) reads a few cache lines of the page instead of the
 * whole value area.  Nobody else sees the rows yet (the page is the
 * change's private copy under an exclusive lock), and a value never moves
 * once its change is written (invariant 3).  Where alignment makes the
 * grouped layout larger than the free space, the rows keep their order.
 */
void
PaxPlaceGroupValues(TupleDesc tupdesc, const PaxRow *rows, const int *rowidx,
				   int n, Page page, const PaxPageLayout *layout, int top,
				   PaxChange *chg)
{
	PGAlignedBlock buf;
	int			lower = ((PageHeader) page)->pd_lower;
	int			first = ((PageHeader) page)->pd_upper;
	int			upper = top;

	if (n < 2)
		return;

	/*
	 * Place into a scratch page at the same offsets; the page itself
	 * changes only once all of it fits.  A dictionary-encoded column's
	 * values are its entries this change added (those below top), copied
	 * as stored.
	 */
	for (int i = 0; i < tupdesc->natts; i++)
	{
		Form_pg_attribute att = TupleDescAttr(tupdesc, i);
		const PaxColumnLayout *col = &layout->cols[i];

		if (att->attlen > 0 || col->data == 0 || PaxInMinipage(col))
			continue;
		if (col->dict != 0)
		{
			const uint16 *dict = (const uint16 *) (page + col->dict);
			uint16	   *newdict = (uint16 *) (buf.data + col->dict);
			int			used = PaxDictUsed(page, col);

			for (int e = 0; e < used; e++)
			{
				int			align;
				int			size;

				if (dict[e] < first || dict[e] >= top)
					continue;	/* an older entry, above top */
				size = PaxStoredSize(att, page + dict[e], top - dict[e], &align);
				upper = (upper - size) & ~(align - 1);
				if (size < 0 || upper < lower)
					return;		/* keep the rows' order */
				memcpy(buf.data + upper, page + dict[e], size);
				newdict[e] = (uint16) upper;
			}
			continue;
		}
		for (int k = 0; k < n; k++)
		{
			uint16	   *offp = &((uint16 *) (buf.data + col->data))[rowidx[k]];

			if (rows[k].isnull[i])
				continue;
			if (col->prefix != 0)
				upper = PaxPrefixPlace(att, (const uint8 *) page + col->prefix,
									   rows[k].values[i], upper, lower,
									   buf.data, offp);
			else
				upper = PaxValuePlace(att, rows[k].values[i], upper, lower,
									  buf.data, offp);
			if (upper < 0)
				return;			/* keep the rows' order */
		}
	}
	Assert(upper >= lower);

	/* the offsets went to the scratch page's minipages: take them over */
	for (int i = 0; i < tupdesc->natts; i++)
	{
		const PaxColumnLayout *col = &layout->cols[i];

		if (col->attlen > 0 || col->data == 0 || PaxInMinipage(col))
			continue;
		if (col->dict != 0)
		{
			uint16	   *dict = (uint16 *) (page + col->dict);
			int			used = PaxDictUsed(page, col);

			for (int e = 0; e < used; e++)
				if (dict[e] >= first && dict[e] < top)
					dict[e] = ((uint16 *) (buf.data + col->dict))[e];
			continue;
		}
		for (int k = 0; k < n; k++)
			if (!rows[k].isnull[i])
				((uint16 *) (page + col->data))[rowidx[k]] =
					((uint16 *) (buf.data + col->data))[rowidx[k]];
	}
	memcpy(page + upper, buf.data + upper, top - upper);
	((PageHeader) page)->pd_upper = upper;
	PaxChangeRange(chg, upper, top - upper);
}
