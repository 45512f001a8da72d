/*-------------------------------------------------------------------------
 *
 * pax_joinfilter.c
 *	  Runtime join filters: a hash join's built hash table, summarised as a
 *	  Bloom filter of its hash values, drops rows of a PaxScan on its probe
 *	  side column-at-a-time, before any row is formed.
 *
 * A PaxScan's filter refers to a hash join whose every outer hash key is
 * a column of the scan (attached at ExecutorStart, see
 * pax_joinfilter_attach.c).  Once the join has built its hash table (one
 * batch; shared or private), the first page the scan reads after that
 * summarises the table's hash values into a Bloom filter; from then on
 * each page's selected rows are hashed the way the join hashes its outer
 * keys (the outer hash functions, combined by rotating as
 * ExecHashGetHashValue in nodeHash.c does in PostgreSQL 15 and
 * ExecBuildHash32Expr's steps in 18) and rows whose hash the table cannot
 * hold, or whose key is NULL (hash join operators are strict), are
 * dropped.  One integer key whose table values span few bits is tested
 * against an exact bitmap of them instead.  A Bloom filter has false
 * positives but no false negatives: the join still matches each row that
 * passes, so results are exact.
 *
 * A join's inner side is filtered too, from its outer side's keys, when
 * the outer side is a small plain PaxScan that gives the same rows on
 * every scan: a copy of it runs to its end when the inner scan reads its
 * first page (PaxJfAttachPrescan, PaxJfBuildPrescan).
 *
 * A filter that removes few rows costs more than it saves: after
 * PAX_JF_TRIAL_ROWS rows, it stops when it removed less than
 * 1/PAX_JF_MIN_REMOVED_SHARE of them.  Summarising a table of many more
 * tuples than that costs more than the trial: for such a table the trial
 * comes first, each row's hash looked up in the join's table itself
 * (PaxJfTableHolds; rows it cannot hold are dropped already), and the
 * filter is built only if the trial says it is worth it (a table whose
 * keys match every row of the scan removes none).
 *
 * This file builds and applies the filters (the page loop of
 * pax_customscan_exec.c calls PaxJoinFiltersApply); attaching them is
 * pax_joinfilter_attach.c's, costing them in join paths pax_joinpath.c's.
 *
 * pax_am/pax_joinfilter.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "executor/executor.h"
#include "executor/hashjoin.h"
#include "executor/nodeHash.h"
#include "miscadmin.h"
#include "nodes/nodeFuncs.h"
#include "port/pg_bitutils.h"
#include "utils/builtins.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"
#include "pax_pushdown.h"
#include "pax_customscan.h"

/* Bloom filter bits per hash value of the table, and the filter's bounds. */
#define PAX_JF_BITS_PER_VALUE	16
#define PAX_JF_MIN_WORDS		8
#define PAX_JF_MAX_WORDS		(1 << 21)	/* 16 MB */

/*
 * Exact key sets: at most this many bits per key value (a Bloom filter
 * takes PAX_JF_BITS_PER_VALUE), or this many whatever the keys (1 MB,
 * within a core's L2 cache), and at most 16 MB.
 */
#define PAX_JF_EXACT_BITS_PER_VALUE	128
#define PAX_JF_EXACT_MIN_BITS		(UINT64CONST(1) << 23)
#define PAX_JF_EXACT_MAX_BITS		(UINT64CONST(1) << 27)

/*
 * A filter built from an outer side's keys: the outer side may take at most
 * this many rows (and must pass PAX_JF_PRESCAN_RATIO to get the filter,
 * pax_joinfilter_attach.c).
 */
#define PAX_JF_PRESCAN_MAX_ROWS	(INT64CONST(1) << 22)

/* Trial: rows tested before the filter's worth is judged, and the bar. */
#define PAX_JF_TRIAL_ROWS		32768
#define PAX_JF_MIN_REMOVED_SHARE	16

/* ----------------------------------------------------------------
 * Building and applying filters (PaxScanNextPage)
 * ----------------------------------------------------------------
 */

/*
 * PaxJfWord and PaxJfBits place a hash value in the filter: one 64-bit
 * word, picked by the multiplied value's high bits, and two of its bits.
 */
static inline uint64
PaxJfBits(uint32 h)
{
	return (UINT64CONST(1) << (h & 63)) | (UINT64CONST(1) << ((h >> 6) & 63));
}

static inline uint32
PaxJfWord(const PaxJoinFilter *jf, uint32 h)
{
	return jf->wordshift >= 32 ? 0 : (h * 0x9E3779B1U) >> jf->wordshift;
}

static inline void
PaxJfAdd(PaxJoinFilter *jf, uint32 h)
{
	jf->words[PaxJfWord(jf, h)] |= PaxJfBits(h);
}

/* PaxJfMayHold tells whether the Bloom filter may hold hash value h. */
static inline bool
PaxJfMayHold(const PaxJoinFilter *jf, uint32 h)
{
	uint64		bits = PaxJfBits(h);

	return (jf->words[PaxJfWord(jf, h)] & bits) == bits;
}

/*
 * PaxJfTableWhole tells whether the join's table is built and whole in
 * memory (one batch), so that what it holds is every inner row.  The scan
 * is on the join's outer side, so the join is not building its table
 * while the scan runs: a table that exists is complete.
 */
static inline bool
PaxJfTableWhole(HashJoinTable ht)
{
	return ht != NULL && ht->nbatch == 1 && ht->curbatch == 0;
}

/*
 * PaxJfWalkTable calls fn for each tuple of a hash table whole in memory,
 * shared or private (with the skew buckets: tuples of the outer side's
 * most common values are kept apart).
 */
static void
PaxJfWalkTable(HashJoinTable ht, void (*fn) (HashJoinTuple, void *), void *arg)
{
	if (ht->parallel_state != NULL)
	{
		for (int b = 0; b < ht->nbuckets; b++)
		{
			dsa_pointer p = dsa_pointer_atomic_read(&ht->buckets.shared[b]);

			while (DsaPointerIsValid(p))
			{
				HashJoinTuple t = (HashJoinTuple) dsa_get_address(ht->area, p);

				fn(t, arg);
				p = t->next.shared;
			}
		}
		return;
	}
	for (int b = 0; b < ht->nbuckets; b++)
		for (HashJoinTuple t = ht->buckets.unshared[b]; t != NULL;
			 t = t->next.unshared)
			fn(t, arg);
	if (ht->skewEnabled)
		for (int i = 0; i < ht->nSkewBuckets; i++)
		{
			HashSkewBucket *sb = ht->skewBucket[ht->skewBucketNums[i]];

			for (HashJoinTuple t = sb ? sb->tuples : NULL; t != NULL;
				 t = t->next.unshared)
				fn(t, arg);
		}
}

static void
PaxJfAddTuple(HashJoinTuple t, void *arg)
{
	PaxJfAdd((PaxJoinFilter *) arg, t->hashvalue);
}

/* Key values collected for an exact set (PaxJfSetExact). */
typedef struct PaxJfKeys
{
	PaxJoinFilter *jf;
	TupleTableSlot *slot;		/* of the table's tuples (PaxJfCollectKey) */
	int64	   *values;
	int64		n;
	int64		cap;			/* values has room for cap */
	int64		kmin;
	int64		kmax;
} PaxJfKeys;

/* PaxJfKeysInit starts an empty collection with room for cap values. */
static void
PaxJfKeysInit(PaxJfKeys *keys, PaxJoinFilter *jf, int64 cap,
			  MemoryContext mcxt)
{
	keys->jf = jf;
	keys->slot = NULL;
	keys->cap = Max(cap, 1);
	keys->values = MemoryContextAllocHuge(mcxt, sizeof(int64) * keys->cap);
	keys->n = 0;
	keys->kmin = PG_INT64_MAX;
	keys->kmax = PG_INT64_MIN;
}

/* PaxJfKeysAdd adds a key, as a Datum of jf->innertype. */
static void
PaxJfKeysAdd(PaxJfKeys *keys, Datum d)
{
	int64		v = PaxToInt64(d, keys->jf->innertype);

	if (keys->n == keys->cap)
	{
		keys->cap *= 2;
		keys->values = repalloc_huge(keys->values, sizeof(int64) * keys->cap);
	}
	keys->values[keys->n++] = v;
	keys->kmin = Min(keys->kmin, v);
	keys->kmax = Max(keys->kmax, v);
}

static void
PaxJfCollectKey(HashJoinTuple t, void *arg)
{
	PaxJfKeys  *keys = (PaxJfKeys *) arg;
	Datum		d;
	bool		isnull;

	ExecStoreMinimalTuple(HJTUPLE_MINTUPLE(t), keys->slot, false);
	d = slot_getattr(keys->slot, keys->jf->innerattno, &isnull);
	/* a NULL key (kept for a right join) matches nothing */
	if (!isnull)
		PaxJfKeysAdd(keys, d);
}

/*
 * PaxJfSetExact gives jf an exact bitmap of the collected key values if
 * they span at most
 * PAX_JF_EXACT_BITS_PER_VALUE bits per value (or PAX_JF_EXACT_MIN_BITS),
 * PAX_JF_EXACT_MAX_BITS in all.
 */
static void
PaxJfSetExact(PaxJoinFilter *jf, const PaxJfKeys *keys, MemoryContext mcxt)
{
	const int64 *values = keys->values;
	int64		n = keys->n;
	int64		kmin = keys->kmin;
	int64		kmax = keys->kmax;
	uint64		limit = Max((uint64) n * PAX_JF_EXACT_BITS_PER_VALUE,
							PAX_JF_EXACT_MIN_BITS);

	limit = Min(limit, PAX_JF_EXACT_MAX_BITS);
	if (n == 0)
	{
		/* no key matches: an empty set */
		jf->kmin = 0;
		jf->span = 0;
		jf->bitmap = MemoryContextAllocZero(mcxt, sizeof(uint64));
	}
	else if ((uint64) kmax - (uint64) kmin < limit)
	{
		jf->kmin = kmin;
		jf->span = (uint64) kmax - (uint64) kmin;
		jf->bitmap = MemoryContextAllocZero(mcxt,
											(jf->span / 64 + 1) * sizeof(uint64));
		for (int64 i = 0; i < n; i++)
		{
			uint64		d = (uint64) values[i] - (uint64) kmin;

			jf->bitmap[d / 64] |= UINT64CONST(1) << (d % 64);
		}
	}
}

/*
 * PaxJfBuildExact gives jf an exact bitmap of the table's key values, if
 * they span few enough bits (PaxJfSetExact).
 */
static void
PaxJfBuildExact(PaxJoinFilter *jf, HashJoinTable ht, MemoryContext mcxt)
{
	PaxJfKeys	keys;

	if (ht->totalTuples > PAX_JF_EXACT_MAX_BITS)
		return;
	PaxJfKeysInit(&keys, jf, (int64) ht->totalTuples, mcxt);
	keys.slot = MakeSingleTupleTableSlot(ExecGetResultType(innerPlanState(jf->hj)),
										 &TTSOpsMinimalTuple);
	PaxJfWalkTable(ht, PaxJfCollectKey, &keys);
	ExecDropSingleTupleTableSlot(keys.slot);
	PaxJfSetExact(jf, &keys, mcxt);
	pfree(keys.values);
}

/* PaxJfAllocWords allocates an empty Bloom filter for nvalues values. */
static void
PaxJfAllocWords(PaxJoinFilter *jf, double nvalues, MemoryContext mcxt)
{
	uint64		nwords;
	int			log2words;

	nwords = (uint64) Min(nvalues, (double) PG_INT32_MAX) *
		PAX_JF_BITS_PER_VALUE / 64;
	nwords = Max(nwords, PAX_JF_MIN_WORDS);
	nwords = Min(nwords, PAX_JF_MAX_WORDS);
	log2words = pg_ceil_log2_64(nwords);
	nwords = UINT64CONST(1) << log2words;
	jf->wordshift = 32 - log2words;
	jf->words = MemoryContextAllocZero(mcxt, nwords * sizeof(uint64));
}

/*
 * PaxJfBuildPrescan builds a filter of the join's inner side from its outer
 * side: a serial copy of the outer PaxScan is run to its end (the same
 * snapshot, quals and target list: the rows the join will probe with), and
 * the filter holds their keys' hashes, as the join hashes outer keys, and
 * for one integer key the exact set.  Rows with a NULL key match nothing.
 * Off when the outer side has more than PAX_JF_PRESCAN_MAX_ROWS rows.
 */
static void
PaxJfBuildPrescan(PaxJoinFilter *jf, EState *estate, MemoryContext mcxt)
{
	Plan	   *plan;
	PlanState  *ps;
	int64		cap = 1024;
	int64		n = 0;
	uint32	   *hashes = MemoryContextAlloc(mcxt, cap * sizeof(uint32));
	PaxJfKeys	keys;
	MemoryContext oldcxt;

	if (jf->innerattno)
		PaxJfKeysInit(&keys, jf, cap, mcxt);
	oldcxt = MemoryContextSwitchTo(estate->es_query_cxt);

	plan = copyObject(jf->prescan_plan);
	plan->parallel_aware = false;
	ps = ExecInitNode(plan, estate, 0);
	/* heap's plan scans the outer side once: so does the statistics' count */
	((PaxScanState *) ps)->nostats = true;
	for (;;)
	{
		TupleTableSlot *slot = ExecProcNode(ps);
		uint32		h = 0;
		bool		isnull = false;
		Datum		d = 0;

		CHECK_FOR_INTERRUPTS();
		if (TupIsNull(slot))
			break;
		for (int k = 0; k < jf->nkeys && !isnull; k++)
		{
			d = slot_getattr(slot, jf->prescan_cols[k], &isnull);
			if (isnull)
				break;
			h = pg_rotate_left32(h, 1) ^
				DatumGetUInt32(FunctionCall1Coll(&jf->prescan_hash[k],
												 jf->prescan_coll[k], d));
		}
		if (isnull)
			continue;			/* (strict operators) */
		if (n == PAX_JF_PRESCAN_MAX_ROWS)
		{
			jf->off = true;
			break;
		}
		if (n == cap)
		{
			cap *= 2;
			hashes = repalloc_huge(hashes, cap * sizeof(uint32));
		}
		hashes[n++] = h;
		if (jf->innerattno)
			PaxJfKeysAdd(&keys, d);
	}
	ExecEndNode(ps);
	MemoryContextSwitchTo(oldcxt);
	if (!jf->off)
	{
		PaxJfAllocWords(jf, (double) n, mcxt);
		for (int64 i = 0; i < n; i++)
			PaxJfAdd(jf, hashes[i]);
		if (jf->innerattno)
			PaxJfSetExact(jf, &keys, mcxt);
		jf->ready = true;
	}
	pfree(hashes);
	if (jf->innerattno)
		pfree(keys.values);
}

/*
 * PaxJfTableHolds tells whether a hash table whole in memory, shared or
 * private, holds a tuple of hash value h: the bucket the join would look
 * in (ExecHashGetBucketAndBatch with one batch), or the skew bucket that
 * took the value's tuples.  A row whose keys hash to a value the table
 * does not hold matches none of its tuples.
 */
static bool
PaxJfTableHolds(HashJoinTable ht, uint32 h)
{
	int			b = h & (ht->nbuckets - 1);

	if (ht->parallel_state != NULL)
	{
		dsa_pointer p = dsa_pointer_atomic_read(&ht->buckets.shared[b]);

		while (DsaPointerIsValid(p))
		{
			HashJoinTuple t = (HashJoinTuple) dsa_get_address(ht->area, p);

			if (t->hashvalue == h)
				return true;
			p = t->next.shared;
		}
		return false;
	}
	if (ht->skewEnabled)
	{
		int			sb = ExecHashGetSkewBucket(ht, h);

		if (sb != INVALID_SKEW_BUCKET_NO)
		{
			for (HashJoinTuple t = ht->skewBucket[sb]->tuples; t != NULL;
				 t = t->next.unshared)
				if (t->hashvalue == h)
					return true;
		}
	}
	for (HashJoinTuple t = ht->buckets.unshared[b]; t != NULL;
		 t = t->next.unshared)
		if (t->hashvalue == h)
			return true;
	return false;
}

/*
 * PaxJfBuild summarises the join's hash table, if it is built and whole in
 * memory (one batch), into the filter; else the filter stays unbuilt (no
 * table yet) or is off (batches: the table holds only part of the rows).
 */
static void
PaxJfBuild(PaxJoinFilter *jf, MemoryContext mcxt)
{
	HashJoinTable ht = jf->hj->hj_HashTable;

	if (ht == NULL)
		return;
	if (!PaxJfTableWhole(ht))
	{
		jf->off = true;
		return;
	}
	/* a table larger than a trial: the trial first (PaxJoinFiltersApply) */
	if (!jf->judged && ht->totalTuples > PAX_JF_TRIAL_ROWS)
	{
		jf->probing = true;
		return;
	}
	PaxJfAllocWords(jf, ht->totalTuples, mcxt);
	PaxJfWalkTable(ht, PaxJfAddTuple, jf);
	if (jf->innerattno != 0)
		PaxJfBuildExact(jf, ht, mcxt);
	jf->ready = true;
}

/*
 * PaxJfHash32 returns hash_bytes_uint32(k) (common/hashfn.c, the hash of
 * hashint2, hashint4, hashoid and, folded, hashint8): Bob Jenkins' final
 * mix of the three words (seed + k, seed, seed), seed = 0x9e3779b9 + 4 +
 * 3923095.  Computed here so that the per-row loops need no call; a
 * different value would drop rows that match, which every join filter
 * test would show.
 */
static inline uint32
PaxJfHash32(uint32 k)
{
	const uint32 seed = 0x9e3779b9U + 4 + 3923095;
	uint32		a = seed + k;
	uint32		b = seed;
	uint32		c = seed;

	/* each step: x ^= y, x -= y rotated left by n */
#define PAX_JF_MIX(x, y, n) ((x) ^= (y), (x) -= pg_rotate_left32((y), (n)))
	PAX_JF_MIX(c, b, 14);
	PAX_JF_MIX(a, c, 11);
	PAX_JF_MIX(b, a, 25);
	PAX_JF_MIX(c, b, 16);
	PAX_JF_MIX(a, c, 4);
	PAX_JF_MIX(b, a, 14);
	PAX_JF_MIX(c, b, 24);
#undef PAX_JF_MIX
	return c;
}

/* PaxJfHashFixed hashes row r of a fixed-width key column's values. */
static inline uint32
PaxJfHashFixed(PaxJfHash how, const char *data, int r)
{
	switch (how)
	{
		case PAX_JF_HASH_INT2:
			return PaxJfHash32((uint32) (int32) ((const int16 *) data)[r]);
		case PAX_JF_HASH_INT4:
			return PaxJfHash32(((const uint32 *) data)[r]);
		default:
			{
				/* as hashint8: fold the high half into the low */
				int64		v = ((const int64 *) data)[r];
				uint32		lo = (uint32) v;
				uint32		hi = (uint32) (v >> 32);

				lo ^= v >= 0 ? hi : ~hi;
				return PaxJfHash32(lo);
			}
	}
}

/* PaxJfFixedKey: a key whose hash PaxJfHashFixed computes from the page. */
static inline bool
PaxJfFixedKey(const PaxJoinKey *key, const PaxPageLayout *layout)
{
	const PaxColumnLayout *col;

	if (key->how == PAX_JF_HASH_CALL || key->attno >= layout->natts)
		return false;
	col = &layout->cols[key->attno];
	return !col->dropped && col->data != 0;
}

/*
 * PaxJfHashRows computes, for the rows sel[0..n) of a page, the hash the
 * join computes for their keys into hashes[], and marks rows with a NULL
 * key in keep[] as dropped (keep[k] = false).
 */
static void
PaxJfHashRows(PaxJoinFilter *jf, Page page, const PaxPageLayout *layout,
			  TupleDesc tupdesc, const uint16 *sel, int n, uint32 *hashes,
			  bool *keep)
{
	for (int k = 0; k < n; k++)
	{
		hashes[k] = 0;
		keep[k] = true;
	}
	for (int i = 0; i < jf->nkeys; i++)
	{
		PaxJoinKey *key = &jf->keys[i];
		const PaxColumnLayout *col = key->attno < layout->natts ?
		&layout->cols[key->attno] : NULL;
		const bits8 *nulls;
		const char *data;

		/* combine successive keys by rotating, as the join does */
		if (i > 0)
			for (int k = 0; k < n; k++)
				hashes[k] = pg_rotate_left32(hashes[k], 1);

		if (!PaxJfFixedKey(key, layout))
		{
			/* the general way: a Datum per row, the function called */
			for (int k = 0; k < n; k++)
			{
				Datum		value;
				bool		isnull;

				if (!keep[k])
					continue;
				if (key->attno < layout->natts)
					value = PaxPageGetValue(page, layout, sel[k], key->attno,
											&isnull);
				else
					value = getmissingattr(tupdesc, key->attno + 1, &isnull);
				if (isnull)
				{
					keep[k] = false;
					continue;
				}
				hashes[k] ^= DatumGetUInt32(FunctionCall1Coll(&key->flinfo,
															  key->collation,
															  value));
			}
			continue;
		}

		nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
		data = PaxColumnFixedData(page, col, PaxPageGetHeader(page)->pp_nrows,
								  PaxDecodeScratch);
		for (int k = 0; k < n; k++)
		{
			int			r = sel[k];

			if (nulls && PaxBitIsSet(nulls, r))
			{
				keep[k] = false;
				continue;
			}
			hashes[k] ^= PaxJfHashFixed(key->how, data, r);
		}
	}
}

/*
 * PaxJfFilterFixed is PaxJfHashRows and the filter's test in one pass, for
 * a filter on one fixed-width key column: it keeps in sel[0..n) the rows
 * whose key is not NULL and is in the exact set, or, without one, whose
 * hash the Bloom filter may hold, and returns how many.
 */
static int
PaxJfFilterFixed(PaxJoinFilter *jf, Page page, const PaxPageLayout *layout,
				 uint16 *sel, int n)
{
	const PaxJoinKey *key = &jf->keys[0];
	const PaxColumnLayout *col = &layout->cols[key->attno];
	const bits8 *nulls = col->nullmap ? (const bits8 *) page + col->nullmap : NULL;
	const char *data = PaxColumnFixedData(page, col,
										  PaxPageGetHeader(page)->pp_nrows,
										  PaxDecodeScratch);
	int			m = 0;

	/* a loop per key type and NULL case, so that none of it is per row */
#define PAX_JF_FILTER_LOOP(how, nullable) \
	for (int k = 0; k < n; k++) \
	{ \
		int			r = sel[k]; \
		uint32		h; \
		\
		if ((nullable) && PaxBitIsSet(nulls, r)) \
			continue; \
		h = PaxJfHashFixed((how), data, r); \
		sel[m] = r; \
		m += PaxJfMayHold(jf, h); \
	}
#define PAX_JF_FILTER_NULLS(how) \
	do { \
		if (nulls) \
			PAX_JF_FILTER_LOOP(how, true) \
		else \
			PAX_JF_FILTER_LOOP(how, false) \
	} while (0)

	/* with an exact set: the key's offset from its least value, one bit */
#define PAX_JF_EXACT_LOOP(type, nullable) \
	for (int k = 0; k < n; k++) \
	{ \
		int			r = sel[k]; \
		uint64		d; \
		\
		if ((nullable) && PaxBitIsSet(nulls, r)) \
			continue; \
		d = (uint64) (int64) ((const type *) data)[r] - (uint64) kmin; \
		sel[m] = r; \
		m += d <= span && (bitmap[d / 64] >> (d % 64)) & 1; \
	}
#define PAX_JF_EXACT_NULLS(type) \
	do { \
		if (nulls) \
			PAX_JF_EXACT_LOOP(type, true) \
		else \
			PAX_JF_EXACT_LOOP(type, false) \
	} while (0)

	if (jf->bitmap)
	{
		const uint64 *bitmap = jf->bitmap;
		int64		kmin = jf->kmin;
		uint64		span = jf->span;

		switch (key->how)
		{
			case PAX_JF_HASH_INT2:
				PAX_JF_EXACT_NULLS(int16);
				break;
			case PAX_JF_HASH_INT4:
				PAX_JF_EXACT_NULLS(int32);
				break;
			default:
				PAX_JF_EXACT_NULLS(int64);
				break;
		}
	}
	else
		switch (key->how)
		{
			case PAX_JF_HASH_INT2:
				PAX_JF_FILTER_NULLS(PAX_JF_HASH_INT2);
				break;
			case PAX_JF_HASH_INT4:
				PAX_JF_FILTER_NULLS(PAX_JF_HASH_INT4);
				break;
			default:
				PAX_JF_FILTER_NULLS(PAX_JF_HASH_INT8);
				break;
		}
#undef PAX_JF_EXACT_NULLS
#undef PAX_JF_EXACT_LOOP
#undef PAX_JF_FILTER_NULLS
#undef PAX_JF_FILTER_LOOP
	return m;
}

/*
 * PaxJoinFiltersApply drops from sel[0..n) of the current page the rows
 * no attached join can match, and returns how many are left; it builds
 * filters whose join has built its table since the last page.  The page
 * is pinned.
 */
int
PaxJoinFiltersApply(PaxScanState *state, Page page, TupleDesc tupdesc, int n)
{
	MemoryContext mcxt = state->css.ss.ps.state->es_query_cxt;
	uint32		hashes[PAX_MAX_CAPACITY];
	bool		keep[PAX_MAX_CAPACITY];
	ListCell   *lc;

	foreach(lc, state->joinfilters)
	{
		PaxJoinFilter *jf = lfirst(lc);
		int			m = 0;

		if (n == 0)
			break;
		if (jf->off)
			continue;
		if (!jf->ready && !jf->probing)
		{
			if (jf->prescan)
				PaxJfBuildPrescan(jf, state->css.ss.ps.state, mcxt);
			else
				PaxJfBuild(jf, mcxt);
			if (!jf->ready && !jf->probing)
				continue;
		}
		if (jf->probing && !PaxJfTableWhole(jf->hj->hj_HashTable))
		{
			/* (not seen: the table is complete before the scan) */
			jf->probing = false;
			jf->off = true;
			continue;
		}
		if (!jf->probing && jf->nkeys == 1 &&
			PaxJfFixedKey(&jf->keys[0], state->layout))
			m = PaxJfFilterFixed(jf, page, state->layout, state->sel, n);
		else
		{
			/* the rows' hashes, tested by the filter or, on trial, the table */
			HashJoinTable ht = jf->hj->hj_HashTable;

			PaxJfHashRows(jf, page, state->layout, tupdesc, state->sel, n,
						  hashes, keep);
			for (int k = 0; k < n; k++)
				if (keep[k] && (jf->probing ? PaxJfTableHolds(ht, hashes[k]) :
								PaxJfMayHold(jf, hashes[k])))
					state->sel[m++] = state->sel[k];
		}
		jf->tested += n;
		jf->removed += n - m;
		state->join_removed += n - m;
		n = m;

		/* judge the filter's worth once, after its trial */
		if (!jf->judged && jf->tested >= PAX_JF_TRIAL_ROWS)
		{
			jf->judged = true;
			jf->off = jf->removed * PAX_JF_MIN_REMOVED_SHARE < jf->tested;
			/* worth it: the filter the trial looked up the table for */
			if (jf->probing && !jf->off)
			{
				jf->probing = false;
				PaxJfBuild(jf, mcxt);
			}
		}
	}
	return n;
}

/*
 * PaxJoinFiltersReset forgets what the filters were built from: after a
 * rescan the joins may build new tables (a filter built from an outer side
 * without parameters is kept).  The words stay in the query's
 * memory until it ends (a filter is rebuilt at most once per rescan).
 */
void
PaxJoinFiltersReset(PaxScanState *state)
{
	ListCell   *lc;

	foreach(lc, state->joinfilters)
	{
		PaxJoinFilter *jf = lfirst(lc);

		jf->tested = jf->removed = 0;
		jf->judged = false;
		if (jf->prescan)
		{
			/* the outer side has no parameters: its keys stay the same */
			if (jf->ready)
				jf->off = false;
			continue;
		}
		if (jf->words)
			pfree(jf->words);
		if (jf->bitmap)
			pfree(jf->bitmap);
		jf->words = NULL;
		jf->bitmap = NULL;
		jf->ready = jf->off = jf->judged = jf->probing = false;
		jf->tested = jf->removed = 0;
	}
}

/*
 * PaxJoinFiltersDescribe lists the filtered columns for EXPLAIN, one
 * parenthesised group per join: "(l_orderkey), (l_partkey, l_suppkey)".
 */
char *
PaxJoinFiltersDescribe(PaxScanState *state, TupleDesc tupdesc)
{
	StringInfoData buf;
	ListCell   *lc;

	initStringInfo(&buf);
	foreach(lc, state->joinfilters)
	{
		PaxJoinFilter *jf = lfirst(lc);

		appendStringInfoString(&buf, foreach_current_index(lc) > 0 ? ", (" : "(");
		for (int i = 0; i < jf->nkeys; i++)
			appendStringInfo(&buf, "%s%s", i > 0 ? ", " : "",
							 quote_identifier(NameStr(TupleDescAttr(tupdesc, jf->keys[i].attno)->attname)));
		appendStringInfoChar(&buf, ')');
	}
	return buf.data;
}
