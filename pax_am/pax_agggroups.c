/*-------------------------------------------------------------------------
 *
 * pax_agggroups.c
 *	  The groups of PaxScan's aggregate mode: a hash table of GROUP BY
 *	  keys, each group with its accumulators.
 *
 * The table is open addressing over the groups' indexes (a power of two
 * of slots, at most half full).  A key whose every column packs into a
 * uint64 (by-value Datums, varlenas of a few significant bytes) is hashed
 * and compared as integers; the others by their significant bytes, as the
 * types' default equality compares them (bpchar without trailing blanks).
 * Keys are copied into the groups' memory.  pax_aggfold.c calls
 * PaxGroupRows for each page, pax_aggexec.c PaxGroupResize and
 * PaxGroupNew to start.
 *
 * pax_am/pax_agggroups.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "fmgr.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_customscan.h"

/*
 * PaxGroupKeyLen gives the significant length of a key's n bytes at p:
 * for bpchar without trailing blanks, as bpchareq compares them.
 */
static inline int
PaxGroupKeyLen(const PaxGroupCol *gc, const char *p, int n)
{
	return gc->bpchar ? PaxBlankTrimmedLen(p, n) : n;
}

/*
 * PaxGroupKeyBytes gives a varlena key's significant bytes: detoasted (in
 * the current memory context) and, for bpchar, without trailing blanks,
 * as bpchareq compares them.
 */
static inline const char *
PaxGroupKeyBytes(const PaxGroupCol *gc, Datum d, int *len)
{
	return PaxStringDatumBytes(d, gc->bpchar, len);
}

/* PaxGroupHash hashes a row's GROUP BY values (state->values/isnull). */
static uint32
PaxGroupHash(PaxAggScanState *state)
{
	uint32		h = 0;

	for (int i = 0; i < state->ngcols; i++)
	{
		const PaxGroupCol *gc = &state->gcols[i];
		Datum		d = state->values[gc->attno];
		uint32		k;

		if (state->isnull[gc->attno])
			k = 0x9e3779b9;
		else if (gc->byval)
			k = murmurhash32((uint32) d ^ (uint32) ((uint64) d >> 32));
		else
		{
			int			len;
			const char *p = PaxGroupKeyBytes(gc, d, &len);

			k = hash_bytes((const unsigned char *) p, len);
		}
		h = hash_combine(h, k);
	}
	return h;
}

/* PaxGroupEqual: is the row's key (state->values/isnull) group g's? */
static bool
PaxGroupEqual(PaxAggScanState *state, int g)
{
	const Datum *keys = &state->gkeys[g * state->ngcols];
	const bool *nulls = &state->gnulls[g * state->ngcols];

	for (int i = 0; i < state->ngcols; i++)
	{
		const PaxGroupCol *gc = &state->gcols[i];
		Datum		d = state->values[gc->attno];
		bool		isnull = state->isnull[gc->attno];

		if (isnull != nulls[i])
			return false;
		if (isnull)
			continue;
		if (gc->byval)
		{
			if (d != keys[i])
				return false;
		}
		else
		{
			int			alen;
			int			blen;
			const char *a = PaxGroupKeyBytes(gc, d, &alen);
			const char *b = PaxGroupKeyBytes(gc, keys[i], &blen);

			if (alen != blen || memcmp(a, b, alen) != 0)
				return false;
		}
	}
	return true;
}

/* PaxGroupResize doubles the slots and rehashes the groups into them. */
void
PaxGroupResize(PaxAggScanState *state)
{
	int			nslots = state->nslots == 0 ? 1024 : state->nslots * 2;

	if (state->slots)
		pfree(state->slots);
	state->slots = MemoryContextAlloc(state->groupcxt, sizeof(int32) * nslots);
	memset(state->slots, 0xff, sizeof(int32) * nslots);
	state->nslots = nslots;
	for (int g = 0; g < state->ngroups; g++)
	{
		uint32		i = state->ghashes[g] & (nslots - 1);

		while (state->slots[i] >= 0)
			i = (i + 1) & (nslots - 1);
		state->slots[i] = g;
	}
}

/*
 * PaxGroupNew adds a group for the row's key (state->values/isnull, and
 * state->rowpacked when packed), copying the key into the groups' memory,
 * and returns its index.
 */
int
PaxGroupNew(PaxAggScanState *state, uint32 h, bool packed)
{
	int			g = state->ngroups;
	MemoryContext old = MemoryContextSwitchTo(state->groupcxt);

	if (g == state->maxgroups)
	{
		int			n = Max(64, state->maxgroups * 2);
		int			nk = Max(state->ngcols, 1);

		if (state->maxgroups == 0)
		{
			state->gkeys = palloc(sizeof(Datum) * n * nk);
			state->gnulls = palloc(sizeof(bool) * n * nk);
			state->gpacked = palloc(sizeof(uint64) * n * nk);
			state->gpackok = palloc(sizeof(bool) * n);
			state->ghashes = palloc(sizeof(uint32) * n);
			state->accs = palloc(sizeof(PaxAggAcc) * n * Max(state->naggs, 1));
		}
		else
		{
			state->gkeys = repalloc(state->gkeys, sizeof(Datum) * n * nk);
			state->gnulls = repalloc(state->gnulls, sizeof(bool) * n * nk);
			state->gpacked = repalloc(state->gpacked, sizeof(uint64) * n * nk);
			state->gpackok = repalloc(state->gpackok, sizeof(bool) * n);
			state->ghashes = repalloc(state->ghashes, sizeof(uint32) * n);
			state->accs = repalloc(state->accs,
								   sizeof(PaxAggAcc) * n * Max(state->naggs, 1));
		}
		state->maxgroups = n;
	}
	for (int i = 0; i < state->ngcols; i++)
	{
		const PaxGroupCol *gc = &state->gcols[i];
		bool		isnull = state->isnull[gc->attno];
		Datum		d = state->values[gc->attno];

		state->gnulls[g * state->ngcols + i] = isnull;
		if (isnull || gc->byval)
			state->gkeys[g * state->ngcols + i] = isnull ? (Datum) 0 : d;
		else
			state->gkeys[g * state->ngcols + i] =
				PointerGetDatum(PG_DETOAST_DATUM_COPY(d));
	}
	state->gpackok[g] = packed;
	if (packed)
		memcpy(&state->gpacked[g * state->ngcols], state->rowpacked,
			   sizeof(uint64) * state->ngcols);
	state->ghashes[g] = h;
	memset(&state->accs[g * state->naggs], 0, sizeof(PaxAggAcc) * state->naggs);
	state->ngroups++;
	MemoryContextSwitchTo(old);

	if (state->ngroups * 2 > state->nslots)
		PaxGroupResize(state);
	else
	{
		uint32		i = h & (state->nslots - 1);

		while (state->slots[i] >= 0)
			i = (i + 1) & (state->nslots - 1);
		state->slots[i] = g;
	}
	return g;
}

/* A packed varlena key's bytes: at most this many (one more holds the length). */
#define PAX_PACKED_KEY_BYTES	7

/* PaxHashPacked hashes a packed key (the 64-bit finalizer of MurmurHash3). */
static inline uint32
PaxHashPacked(uint64 k)
{
	k ^= k >> 33;
	k *= UINT64CONST(0xff51afd7ed558ccd);
	k ^= k >> 33;
	k *= UINT64CONST(0xc4ceb9fe1a85ec53);
	k ^= k >> 33;
	return (uint32) k;
}

/*
 * PaxGroupReadKey reads GROUP BY column gc of a row into state->values and
 * state->isnull and tells whether its value packs into one uint64 (*pk): a
 * by-value Datum, or a varlena whose significant bytes (PaxGroupKeyBytes)
 * are at most PAX_PACKED_KEY_BYTES, with their length.  Whether a value
 * packs depends on the value alone (not on how it is stored), so a key
 * always takes the same way: rows whose every key column packs are hashed
 * and compared as integers (PaxGroupRows).  Short varlenas are read inline.
 */
static inline bool
PaxGroupReadKey(PaxAggScanState *state, const PaxGroupCol *gc, Page page,
				const PaxPageLayout *layout, TupleDesc tupdesc, int row,
				uint64 *pk)
{
	int			a = gc->attno;
	const char *p = NULL;
	const char *b;
	int			n;
	uint64		v = 0;

	if (gc->attlen == -1 && a < layout->natts && layout->cols[a].data != 0)
		p = PaxPageShortValue(page, &layout->cols[a], row,
							  PaxDecodes(&layout->cols[a]) ? PaxDecodeCell(a) : NULL);
	if (p != NULL)
	{
		state->values[a] = PointerGetDatum(p);
		state->isnull[a] = false;
		b = p + VARHDRSZ_SHORT;
		n = PaxGroupKeyLen(gc, b, VARSIZE_1B(p) - VARHDRSZ_SHORT);
	}
	else
	{
		state->values[a] = PaxPageColumnValue(tupdesc, page, layout, row, a,
									   &state->isnull[a]);
		if (state->isnull[a])
			return false;
		if (gc->byval)
		{
			*pk = (uint64) state->values[a];
			return true;
		}
		if (gc->attlen != -1)
			return false;
		b = PaxGroupKeyBytes(gc, state->values[a], &n);
	}
	if (n > PAX_PACKED_KEY_BYTES)
		return false;
	for (int i = 0; i < n; i++)
		v |= (uint64) (uint8) b[i] << (8 * i);
	*pk = (v << 8) | (uint64) n;
	return true;
}

/*
 * PaxGroupRows finds (or makes) the group of each selected row of the page
 * into state->gid[], reading the GROUP BY columns into state->values.
 */
void
PaxGroupRows(PaxAggScanState *state, Page page, const PaxPageLayout *layout,
			 TupleDesc tupdesc, const uint16 *sel, int nsel)
{
	int			ngcols = state->ngcols;

	for (int k = 0; k < nsel; k++)
	{
		uint32		h = 0;
		uint32		i;
		int			g;
		bool		packed = true;

		for (int c = 0; c < ngcols; c++)
			packed &= PaxGroupReadKey(state, &state->gcols[c], page, layout,
									  tupdesc, sel[k], &state->rowpacked[c]);
		if (packed)
		{
			for (int c = 0; c < ngcols; c++)
				h = hash_combine(h, PaxHashPacked(state->rowpacked[c]));
		}
		else
			h = PaxGroupHash(state);
		i = h & (state->nslots - 1);
		for (;;)
		{
			g = state->slots[i];
			if (g < 0)
			{
				g = PaxGroupNew(state, h, packed);
				break;
			}
			if (state->ghashes[g] == h)
			{
				/* a packed key equals only a packed key, bit for bit */
				if (packed && state->gpackok[g])
				{
					const uint64 *gk = &state->gpacked[g * ngcols];
					int			c = 0;

					while (c < ngcols && gk[c] == state->rowpacked[c])
						c++;
					if (c == ngcols)
						break;
				}
				else if (!packed && !state->gpackok[g] &&
						 PaxGroupEqual(state, g))
					break;
			}
			i = (i + 1) & (state->nslots - 1);
		}
		state->gid[k] = g;
	}
}
