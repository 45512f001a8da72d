/*-------------------------------------------------------------------------
 *
 * pax_page_layout.c
 *	  Where every minipage of a pax page lies: the layout of a page shape,
 *	  and the per-backend cache of recent shapes' layouts.
 *
 * A page stores only its header, column directory and zone maps; every
 * offset follows from them and from the tuple descriptor's attlen and
 * attalign (invariant 2 of pax_am/README).  PaxLayoutSize lays the columns
 * out one at a time, each as its width byte says (pax_encoding.h).
 *
 * pax_am/pax_page_layout.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/tupdesc_details.h"
#include "access/tupmacs.h"
#include "access/transam.h"
#include "access/xact.h"
#include "catalog/pg_type.h"
#include "common/hashfn.h"
#include "port/pg_bitutils.h"
#include "storage/buf_internals.h"
#include "storage/procarray.h"
#include "utils/date.h"
#include "utils/float.h"
#include "utils/inval.h"
#include "utils/memutils.h"
#include "utils/rel.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

#include "pax_encoding.h"
#include "pax_minipage.h"
#include "pax_page.h"

/*
 * PaxLoadTail reads the len (1..7) bytes at p as the low bytes of a word,
 * with one load of eight: the bytes after them must be readable (a page's
 * directory lies far from the page's end; a layout cache entry's copy is
 * allocated PAX_SHAPE_PAD bytes longer).
 */
#define PAX_SHAPE_PAD	8

/*
 * PaxColumnStart is how column i of a page starts its layout, as encoding
 * enc: zeroes, but for what the column's type and encoding give.
 */
static inline void
PaxColumnStart(Form_pg_attribute att, PaxEncoding enc, PaxColumnLayout *col)
{
	MemSet(col, 0, sizeof(PaxColumnLayout));
	col->attlen = att->attlen;
	col->byval = att->attbyval;
	col->dropped = att->attisdropped;
	col->width = att->attlen > 0 ? att->attlen : PAX_VAROFF_SIZE;
	col->enc = (uint8) enc;
}

/*
 * PaxLayoutColumnFrom lays out column i of a page of the given shape into
 * col from its start (PaxColumnStart, ops its encoding's PaxEncodingOps):
 * its minipage after cur->off, its base array slot at cur->bases.  False
 * when the shape does not describe a column of the page (a width byte that
 * the column's type cannot have, or an encoded column without minipage).
 */
static inline bool
PaxLayoutColumnFrom(Form_pg_attribute att, const PaxPageShape *shape, int i,
					const PaxColumnLayout *start, const PaxEncodingOps *ops,
					PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	uint8		width = shape->widths ? shape->widths[i] : 0;
	int16		zone = col->zone;

	*col = *start;
	col->zone = zone;
	if (PaxBitIsSet(shape->absent, i))
		return width == 0;
	return ops->layout(att, width, PaxBitIsSet(shape->nullmap, i), col, cur);
}

/* PaxLayoutColumn lays out column i as its encoding says (PaxEncodingOf). */
static bool
PaxLayoutColumn(Form_pg_attribute att, const PaxPageShape *shape, int i,
				PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	PaxEncoding enc = PaxEncodingOf(shape->widths ? shape->widths[i] : 0, att);
	PaxColumnLayout start;

	PaxColumnStart(att, enc, &start);
	return PaxLayoutColumnFrom(att, shape, i, &start, PaxEncodingOpsOf(enc),
							   col, cur);
}

/*
 * A relation's memo of column encodings.  A page's minipages lie one after
 * another, each where its predecessors end, and their sizes vary with the
 * values (bit widths, dictionary sizes, null bitmaps, the rows a page
 * holds): a table's pages seldom share a whole shape, so that rows fetched
 * one by one through an index meet a new shape, whose layout is computed,
 * with almost every page (TPC-DS catalog_sales: 2,241 shapes in 2,501
 * pages).  Much of that computation follows from each column's width byte
 * alone (its encoding, PaxEncodingOf and PaxEncodingOpsOf; its base slot,
 * PaxBaseBytes; its layout's start, PaxColumnStart): the memo keeps these
 * for the (column, width byte) pairs met.  Direct mapped, a pair's slot its
 * hash; emptied with the relation's layout cache (PaxRelLayouts), when the
 * relation's columns may have changed.
 */
#define PAX_COLUMN_MEMO_BITS	9
#define PAX_COLUMN_MEMO_SLOTS	(1 << PAX_COLUMN_MEMO_BITS)

typedef struct PaxColumnMemo
{
	uint32		key;			/* the width byte and 256 * (column + 1);
								 * 0: unused */
	int			basebytes;		/* PaxBaseBytes */
	const PaxEncodingOps *ops;
	PaxColumnLayout start;		/* PaxColumnStart */
} PaxColumnMemo;

/* PaxColumnMemoGet is the memo's entry of column i with width byte width. */
static inline const PaxColumnMemo *
PaxColumnMemoGet(PaxColumnMemo *memo, Form_pg_attribute att, int i,
				 uint8 width)
{
	uint32		key = width | ((uint32) i + 1) << 8;
	PaxColumnMemo *m = &memo[(key * 0x9E3779B1u) >> (32 - PAX_COLUMN_MEMO_BITS)];

	if (unlikely(m->key != key))
	{
		PaxEncoding enc = PaxEncodingOf(width, att);

		m->ops = PaxEncodingOpsOf(enc);
		m->basebytes = PaxBaseBytes(width);
		PaxColumnStart(att, enc, &m->start);
		m->key = key;
	}
	return m;
}

/* PaxLayoutColumnMemo is PaxLayoutColumn through the memo. */
static inline bool
PaxLayoutColumnMemo(PaxColumnMemo *memo, Form_pg_attribute att,
					const PaxPageShape *shape, int i, PaxColumnLayout *col,
					PaxLayoutCursor *cur)
{
	const PaxColumnMemo *m =
		PaxColumnMemoGet(memo, att, i, shape->widths ? shape->widths[i] : 0);

	return PaxLayoutColumnFrom(att, shape, i, &m->start, m->ops, col, cur);
}

/*
 * PaxLayoutSize computes where every minipage of a page of the given shape
 * lies, fills *layout when it is not NULL, and returns the page's pd_lower,
 * or a value above BLCKSZ when the shape does not fit a page.
 */
static uint16 PaxLayoutSizeMemo(TupleDesc tupdesc, const PaxPageShape *shape,
								PaxPageLayout *layout, PaxColumnMemo *memo);

uint16
PaxLayoutSize(TupleDesc tupdesc, const PaxPageShape *shape,
			  PaxPageLayout *layout)
{
	return PaxLayoutSizeMemo(tupdesc, shape, layout, NULL);
}

/*
 * PaxLayoutSizeMemo is PaxLayoutSize, its columns laid out through memo
 * (PaxLayoutColumnMemo) when memo is not NULL.
 */
static uint16
PaxLayoutSizeMemo(TupleDesc tupdesc, const PaxPageShape *shape,
				  PaxPageLayout *layout, PaxColumnMemo *memo)
{
	PaxLayoutCursor cur;
	PaxColumnLayout scratch = {0};
	int			nzones = 0;
	uint32		basebytes = 0;

	cur.capacity = shape->capacity;
	cur.hasprefix = false;
	cur.off = SizeOfPageHeaderData + sizeof(PaxPageHeaderData) +
		PAX_NDIRMAPS * PaxDirMapLen(shape->natts);
	if (shape->widths)
		cur.off += shape->natts;
	cur.off = MAXALIGN(cur.off);
	if (layout)
		layout->zones = cur.off;
	for (int i = 0; i < shape->natts; i++)
	{
		if (PaxBitIsSet(shape->zone, i))
		{
			if (layout)
				layout->cols[i].zone = nzones;
			nzones++;
		}
		else if (layout)
			layout->cols[i].zone = -1;
		if (shape->widths)
			basebytes += memo ?
				PaxColumnMemoGet(memo, TupleDescAttr(tupdesc, i), i,
								 shape->widths[i])->basebytes :
				PaxBaseBytes(shape->widths[i]);
	}
	cur.off += nzones * sizeof(PaxZone);
	cur.bases = cur.off;
	cur.off += basebytes;
	if (layout)
	{
		layout->bases = cur.bases;
		layout->rowhdrs = cur.off;
		layout->compact = shape->compact;
	}
	cur.off += PaxRowAreaSize(shape->compact, cur.capacity);

	for (int i = 0; i < shape->natts && cur.off <= BLCKSZ; i++)
	{
		PaxColumnLayout *col = layout ? &layout->cols[i] : &scratch;

		if (!(memo ?
			  PaxLayoutColumnMemo(memo, TupleDescAttr(tupdesc, i), shape, i,
								  col, &cur) :
			  PaxLayoutColumn(TupleDescAttr(tupdesc, i), shape, i, col, &cur)))
			return BLCKSZ + 1;
	}

	if (layout)
	{
		layout->hasprefix = cur.hasprefix;
		layout->natts = shape->natts;
		layout->capacity = cur.capacity;
		layout->nzones = nzones;
		layout->lower = cur.off <= BLCKSZ ? cur.off : 0;
	}
	return cur.off <= BLCKSZ ? cur.off : BLCKSZ + 1;
}

void
PaxLayoutCacheInit(PaxLayoutCache *cache, int natts, MemoryContext mcxt)
{
	memset(cache, 0, sizeof(PaxLayoutCache));
	cache->maxatts = natts;
	cache->mcxt = mcxt;
}

void
PaxLayoutCacheFree(PaxLayoutCache *cache)
{
	for (int i = 0; i < cache->nsets; i++)
	{
		PaxLayoutCacheEntry *set = cache->sets[i];

		if (set == NULL)
			continue;
		for (int k = 0; k < PAX_LAYOUT_CACHE_WAYS; k++)
		{
			if (set[k].layout)
				pfree(set[k].layout);
			if (set[k].dirmaps)
				pfree(set[k].dirmaps);
		}
		pfree(set);
	}
	if (cache->sets)
		pfree(cache->sets);
	cache->sets = NULL;
	cache->nsets = 0;
	cache->misses = 0;
	cache->layout = NULL;
	if (cache->memo)
		pfree(cache->memo);
	cache->memo = NULL;
}

/*
 * A cache that grows (a slot's fetching rows by TID through an index: its
 * pages come back, PaxSlotPinPage) doubles its sets when it has missed
 * PAX_LAYOUT_GROW_MISSES times its entries since it last grew, while its
 * layouts would take at most PAX_LAYOUT_CACHE_MAX_BYTES: a table whose
 * pages each have their own shape (TPC-DS catalog_sales) needs an entry a
 * page for a nested loop's fetches to find their layouts (about 1.3 KB an
 * entry for 34 columns).  Its memory is the query's.
 */
#define PAX_LAYOUT_GROW_MISSES		2
#define PAX_LAYOUT_CACHE_SETS	(PAX_LAYOUT_CACHE_ENTRIES / PAX_LAYOUT_CACHE_WAYS)
#define PAX_LAYOUT_CACHE_MAX_BYTES	((Size) 32 * 1024 * 1024)

/*
 * The bytes of an entry's layout and of its direction maps, shape bytes
 * and pad: what a miss allocates for the entry, and what growing counts.
 */
static inline Size
PaxLayoutEntryLayoutBytes(const PaxLayoutCache *cache)
{
	return SizeOfPaxPageLayout(Max(cache->maxatts, 1));
}

static inline Size
PaxLayoutEntryMapBytes(const PaxLayoutCache *cache)
{
	return 3 * PaxDirMapLen(Max(cache->maxatts, 1)) +
		Max(cache->maxatts, 1) + PAX_SHAPE_PAD;
}

/* PaxLayoutCacheGrow doubles the cache's sets, or stops its growing */
static void
PaxLayoutCacheGrow(PaxLayoutCache *cache)
{
	int			n = cache->nsets;
	Size		entry = sizeof(PaxLayoutCacheEntry) +
		PaxLayoutEntryLayoutBytes(cache) + PaxLayoutEntryMapBytes(cache);
	PaxLayoutCacheEntry **sets;

	cache->misses = 0;
	if ((Size) 2 * n * PAX_LAYOUT_CACHE_WAYS * entry > PAX_LAYOUT_CACHE_MAX_BYTES)
	{
		cache->grows = false;
		return;
	}
	/* each set splits in two by the next bit of its entries' signatures */
	sets = MemoryContextAllocZero(cache->mcxt, 2 * n * sizeof(PaxLayoutCacheEntry *));
	for (int i = 0; i < n; i++)
	{
		PaxLayoutCacheEntry *set = cache->sets[i];

		sets[i] = set;
		for (int k = 0; set != NULL && k < PAX_LAYOUT_CACHE_WAYS; k++)
		{
			Assert(!set[k].valid || (set[k].sig & (n - 1)) == (uint32) i);
			if (!set[k].valid || (set[k].sig & (2 * n - 1)) == (uint32) i)
				continue;
			if (sets[i + n] == NULL)
				sets[i + n] = MemoryContextAllocZero(cache->mcxt, PAX_LAYOUT_CACHE_WAYS *
													 sizeof(PaxLayoutCacheEntry));
			sets[i + n][k] = set[k];
			memset(&set[k], 0, sizeof(PaxLayoutCacheEntry));
		}
	}
	pfree(cache->sets);
	cache->sets = sets;
	cache->nsets = 2 * n;
}

/*
 * PaxLayoutCacheSet is the set of the cache a shape's signature picks,
 * allocated on first use.
 */
static inline PaxLayoutCacheEntry *
PaxLayoutCacheSet(PaxLayoutCache *cache, uint32 sig)
{
	PaxLayoutCacheEntry **set;

	if (unlikely(cache->sets == NULL))
	{
		cache->nsets = PAX_LAYOUT_CACHE_SETS;
		cache->sets = MemoryContextAllocZero(cache->mcxt, cache->nsets *
											 sizeof(PaxLayoutCacheEntry *));
	}
	set = &cache->sets[sig & (cache->nsets - 1)];
	if (unlikely(*set == NULL))
		*set = MemoryContextAllocZero(cache->mcxt, PAX_LAYOUT_CACHE_WAYS *
									  sizeof(PaxLayoutCacheEntry));
	return *set;
}

static inline uint64
PaxLoadTail(const uint8 *p, int len)
{
	uint64		w;

	Assert(len > 0 && len < 8);
	memcpy(&w, p, sizeof(w));
#ifdef WORDS_BIGENDIAN
	return w >> (8 * (8 - len));
#else
	return w & ((UINT64CONST(1) << (8 * len)) - 1);
#endif
}

/*
 * PaxMixBytes folds len bytes into the hash h, eight at a time.
 */
static inline uint64
PaxMixBytes(uint64 h, const uint8 *p, int len)
{
	for (; len >= 8; p += 8, len -= 8)
	{
		uint64		w;

		memcpy(&w, p, sizeof(w));
		h = (h ^ w) * UINT64CONST(0x9E3779B97F4A7C15);
		h ^= h >> 29;
	}
	if (len > 0)
	{
		uint64		w = PaxLoadTail(p, len);

		h = (h ^ w) * UINT64CONST(0x9E3779B97F4A7C15);
		h ^= h >> 29;
	}
	return h;
}

/*
 * PaxBytesEqual compares two short byte strings, eight bytes at a time:
 * a shape's directory bitmaps and widths are a few bytes, for which a call
 * of memcmp() costs more than the comparison.
 */
static inline bool
PaxBytesEqual(const uint8 *a, const uint8 *b, int len)
{
	for (; len >= 8; a += 8, b += 8, len -= 8)
	{
		uint64		x,
					y;

		memcpy(&x, a, sizeof(x));
		memcpy(&y, b, sizeof(y));
		if (x != y)
			return false;
	}
	return len == 0 || PaxLoadTail(a, len) == PaxLoadTail(b, len);
}

/*
 * PaxShapeSignature hashes what a page's layout depends on (its capacity,
 * column count, directory bitmaps and encoded widths), to place and find
 * its layout cache entry; equal shapes have equal signatures.
 */
static inline uint32
PaxShapeSignature(PaxPageHeader hdr, const bits8 *maps, int maplen,
				  const uint8 *widths)
{
	uint64		h;

	h = ((uint64) hdr->pp_capacity << 32) | ((uint64) hdr->pp_natts << 1) |
		(widths != NULL);
	h = PaxMixBytes(h, maps, 3 * maplen);
	if (widths != NULL)
		h = PaxMixBytes(h, widths, hdr->pp_natts);
	return (uint32) (h ^ (h >> 32));
}

/*
 * The layout caches of the relations, one for each of the last
 * PAX_SINGLE_RELS relations whose rows were read or written one at a time
 * (a transaction of TPC-C's reads and writes nine tables in turn; a
 * multi-row insert has a cache of its own), so that a row's page layout
 * is computed once per page shape, not once per row or statement.  A page's layout depends on its shape, which
 * each lookup compares, and on the relation's columns (attlen, attalign,
 * attbyval, attisdropped): a relation's cache is emptied when its relcache
 * entry is invalidated (ALTER TABLE, DROP COLUMN), the least recently
 * used one when another relation needs a cache.  Other caches (a slot's,
 * a scan's: new with every statement) copy a layout from here on a miss
 * rather than compute it (PaxPageGetLayout).
 */
#define PAX_SINGLE_RELS		16

typedef struct PaxSingleLayouts
{
	Oid			relid;			/* InvalidOid: unused */
	bool		valid;
	uint64		used;			/* when it was last returned */
	PaxLayoutCache cache;
} PaxSingleLayouts;

static PaxSingleLayouts *pax_single;
static uint64 pax_single_clock;

/* PaxSingleLayoutsInval is the relcache callback of pax_single. */
static void
PaxSingleLayoutsInval(Datum arg, Oid relid)
{
	for (int k = 0; pax_single && k < PAX_SINGLE_RELS; k++)
		if (!OidIsValid(relid) || pax_single[k].relid == relid)
			pax_single[k].valid = false;
}

/*
 * PaxRelLayouts returns the relation's layout cache for single-row writes
 * (and reads of the row being changed).
 */
PaxLayoutCache *
PaxRelLayouts(Relation rel)
{
	Oid			relid = RelationGetRelid(rel);
	int			natts = RelationGetDescr(rel)->natts;
	PaxSingleLayouts *e = NULL;

	if (pax_single == NULL)
	{
		pax_single = MemoryContextAllocZero(TopMemoryContext,
											PAX_SINGLE_RELS * sizeof(PaxSingleLayouts));
		CacheRegisterRelcacheCallback(PaxSingleLayoutsInval, (Datum) 0);
	}
	for (int k = 0; k < PAX_SINGLE_RELS; k++)
	{
		if (pax_single[k].relid == relid)
		{
			e = &pax_single[k];
			break;
		}
		if (e == NULL || pax_single[k].used < e->used)
			e = &pax_single[k];	/* the least recently used, meanwhile */
	}
	e->used = ++pax_single_clock;
	if (e->relid == relid && e->valid && e->cache.maxatts == natts)
		return &e->cache;
	if (OidIsValid(e->relid))
		PaxLayoutCacheFree(&e->cache);
	PaxLayoutCacheInit(&e->cache, natts, TopMemoryContext);
	e->cache.shared = true;
	e->relid = relid;
	e->valid = true;
	return &e->cache;
}

/*
 * PaxLayoutMemoOf is the column memo of a relation's own layout cache
 * (PaxRelLayouts), allocated on first use, when the layouts are computed
 * for the relation's descriptor; else NULL.
 */
static PaxColumnMemo *
PaxLayoutMemoOf(PaxLayoutCache *cache, Relation rel, TupleDesc tupdesc)
{
	if (!cache->shared || rel == NULL || tupdesc != RelationGetDescr(rel))
		return NULL;
	if (cache->memo == NULL)
		cache->memo = MemoryContextAllocZero(cache->mcxt,
											 PAX_COLUMN_MEMO_SLOTS * sizeof(PaxColumnMemo));
	return cache->memo;
}

/*
 * PaxPageGetLayout verifies a page's header and returns its layout, from
 * the cache when one of its entries has the same shape (then the page's
 * pd_lower must still match it), else computed into an entry (the oldest
 * when all are used).  The caller holds at least a pin; the fields the
 * layout depends on never change after initialisation.  The layout stays
 * valid until the PAX_LAYOUT_CACHE_ENTRIES-th next miss on this cache.
 */
PaxPageLayout *
PaxPageGetLayout(Relation rel, TupleDesc tupdesc, Page page,
				 BlockNumber blkno, PaxLayoutCache *cache)
{
	PageHeader	phdr = (PageHeader) page;
	PaxPageHeader hdr;
	PaxPageShape shape;
	PaxLayoutCacheEntry *e;
	int			maplen;
	bits8	   *maps;
	uint8	   *widths;
	bool		encoded;
	bool		compact;
	uint32		sig;
	PaxLayoutCacheEntry *set;

	PaxPageCheckHeader(rel, page, blkno);
	hdr = PaxPageGetHeader(page);
	if (unlikely(hdr->pp_natts > tupdesc->natts || hdr->pp_natts > cache->maxatts))
		PaxPageCorrupted(rel, blkno, "more columns than the tuple descriptor has");

	maplen = PaxDirMapLen(hdr->pp_natts);
	maps = PaxPageGetDirMap(page, PAX_DIR_ABSENT);
	encoded = PaxPageIsEncoded(page);
	widths = encoded ? PaxPageGetWidths(page) : NULL;
	compact = PaxPageIsCompact(page);
	sig = PaxShapeSignature(hdr, maps, maplen, widths) ^ (uint32) compact;
	set = PaxLayoutCacheSet(cache, sig);
	for (int k = 0; k < PAX_LAYOUT_CACHE_WAYS; k++)
	{
		e = &set[k];
		if (e->valid && e->sig == sig &&
			e->capacity == hdr->pp_capacity &&
			e->natts == hdr->pp_natts &&
			e->encoded == encoded &&
			e->compact == compact &&
			PaxBytesEqual(e->dirmaps, maps, 3 * maplen) &&
			(!encoded ||
			 PaxBytesEqual(e->dirmaps + 3 * maplen, widths, hdr->pp_natts)))
		{
			if (unlikely(e->layout->lower != phdr->pd_lower))
				PaxPageCorrupted(rel, blkno, "pd_lower does not match the column layout");
			if (compact)
				PaxCheckSharedHeader(rel, page, blkno, e->layout->rowhdrs);
			cache->layout = e->layout;
			return e->layout;
		}
	}

	/* a miss: a free entry of the set, else its next victim */
	if (cache->grows && ++cache->misses >
		(uint32) (PAX_LAYOUT_GROW_MISSES * PAX_LAYOUT_CACHE_WAYS * cache->nsets))
	{
		PaxLayoutCacheGrow(cache);
		set = PaxLayoutCacheSet(cache, sig);
	}
	e = NULL;
	for (int k = 0; k < PAX_LAYOUT_CACHE_WAYS && e == NULL; k++)
		if (!set[k].valid)
			e = &set[k];
	if (e == NULL)
	{
		e = &set[cache->victim];
		cache->victim = (cache->victim + 1) % PAX_LAYOUT_CACHE_WAYS;
	}
	if (e->layout == NULL)
	{
		e->layout = MemoryContextAlloc(cache->mcxt,
									   PaxLayoutEntryLayoutBytes(cache));
		e->dirmaps = MemoryContextAllocZero(cache->mcxt,
											PaxLayoutEntryMapBytes(cache));
	}

	e->valid = false;			/* until the layout is whole */
	if (!cache->shared && rel != NULL && tupdesc == RelationGetDescr(rel) &&
		hdr->pp_natts <= cache->maxatts)
	{
		/* the relation's own cache has it, or computes it once */
		PaxPageLayout *src = PaxPageGetLayout(rel, tupdesc, page, blkno,
											  PaxRelLayouts(rel));

		memcpy(e->layout, src, SizeOfPaxPageLayout(src->natts));
	}
	else
	{
		PaxPageShapeOf(page, &shape);
		if (PaxLayoutSizeMemo(tupdesc, &shape, e->layout,
							  PaxLayoutMemoOf(cache, rel, tupdesc)) !=
			phdr->pd_lower)
			PaxPageCorrupted(rel, blkno, "pd_lower does not match the column layout");
	}
	memcpy(e->dirmaps, maps, 3 * maplen);
	if (encoded)
		memcpy(e->dirmaps + 3 * maplen, widths, hdr->pp_natts);
	e->encoded = encoded;
	e->compact = compact;
	e->sig = sig;
	e->natts = hdr->pp_natts;
	e->capacity = hdr->pp_capacity;
	e->valid = true;
	if (compact)
		PaxCheckSharedHeader(rel, page, blkno, e->layout->rowhdrs);
	cache->layout = e->layout;
	return e->layout;
}

/*
 * PaxPageInit initialises an empty pax page of the given shape.  The
 * caller holds an exclusive lock on the buffer (or the page is private) and
 * WAL-logs the result.
 */
void
PaxPageInit(Page page, TupleDesc tupdesc, const PaxPageShape *shape)
{
	PaxPageHeader hdr;
	PaxPageOpaque opaque;
	int			maplen = PaxDirMapLen(shape->natts);
	uint16		lower;

	lower = PaxLayoutSize(tupdesc, shape, NULL);
	if (lower > BLCKSZ - MAXALIGN(sizeof(PaxPageOpaqueData)))
		elog(ERROR, "pax page shape does not fit a page");

	PageInit(page, BLCKSZ, sizeof(PaxPageOpaqueData));
	hdr = PaxPageGetHeader(page);
	hdr->pp_nrows = 0;
	hdr->pp_capacity = shape->capacity;
	hdr->pp_natts = shape->natts;
	hdr->pp_flags = shape->compact ? PAX_PAGE_COMPACT : 0;
	memcpy(PaxPageGetDirMap(page, PAX_DIR_ABSENT), shape->absent, maplen);
	memcpy(PaxPageGetDirMap(page, PAX_DIR_NULLMAP), shape->nullmap, maplen);
	memcpy(PaxPageGetDirMap(page, PAX_DIR_ZONE), shape->zone, maplen);
	if (shape->widths)
	{
		uint32		bases;

		hdr->pp_flags |= PAX_PAGE_ENCODED;
		memcpy(PaxPageGetWidths(page), shape->widths, shape->natts);
		/* the base array lies after the zone maps (PaxLayoutSize) */
		bases = PaxBasesAt(page);
		for (int i = 0; i < shape->natts; i++)
		{
			uint8		w = shape->widths[i];
			const PaxEncodingOps *ops = PaxEncodingOpsOf(PaxEncodingOf(w, NULL));

			/* its base (and factor), prefix area, alphabet or scale */
			if (ops->initslot != NULL)
				ops->initslot(page + bases, w,
							  shape->bases ? shape->bases[i] : 0,
							  shape->factors ? shape->factors[i] : 0,
							  shape->prefixes ?
							  &shape->prefixes[i * PAX_PREFIX_AREA_MAX] : NULL);
			bases += ops->slotbytes(w);
		}
	}
	((PageHeader) page)->pd_lower = lower;

	opaque = PaxPageGetOpaque(page);
	opaque->pax_magic = PAX_PAGE_MAGIC;
	opaque->pax_version = PAX_PAGE_VERSION;
	if (shape->compact)
	{
		uint32		check = PaxPageMetaCheck(page);

		memcpy(page + PaxRowHeadersAt(page) + PAX_COMPACT_CHECK, &check,
			   sizeof(check));
	}
}

/*
 * PaxPageMetaCheck computes a page's check word: a hash of what never
 * changes after PaxPageInit and says where and how every value is stored
 * (pp_capacity, pp_natts, the form and encoding flags, the absent, null
 * bitmap and zone map bits, the widths, and the base array but for
 * dictionaries' counts of entries in use, which grow as rows come).  A
 * compact page keeps it in its row area (PAX_COMPACT_CHECK), and
 * pax_verify compares: without data checksums, nothing else tells a
 * changed base, factor, scale or prefix from a true one.  Every byte of it
 * is nonzero, so that 0 stands for "none recorded" (pages written before
 * it was) and no single changed byte makes it 0.  The caller has checked
 * that the header's natts fits the page.
 */
uint32
PaxPageMetaCheck(Page page)
{
	PaxPageHeader hdr = PaxPageGetHeader(page);
	int			natts = hdr->pp_natts;
	uint16		fixed[3];
	uint64		h;
	uint32		slot;
	uint32		check;

	fixed[0] = hdr->pp_capacity;
	fixed[1] = hdr->pp_natts;
	fixed[2] = hdr->pp_flags & (PAX_PAGE_ENCODED | PAX_PAGE_COMPACT);
	h = hash_bytes_extended((const unsigned char *) fixed, sizeof(fixed), 0);
	h = hash_bytes_extended((const unsigned char *) PaxPageGetDirMap(page, PAX_DIR_ABSENT),
							(PAX_DIR_ZONE + 1) * PaxDirMapLen(natts), h);
	if (PaxPageIsEncoded(page))
	{
		const uint8 *widths = PaxPageGetWidths(page);

		h = hash_bytes_extended(widths, natts, h);
		slot = PaxBasesAt(page);
		for (int i = 0; i < natts; i++)
		{
			int			bytes = PaxBaseBytes(widths[i]);

			if (PaxEncodingOf(widths[i], NULL) != PAX_ENC_DICT)
				h = hash_bytes_extended((const unsigned char *) page + slot,
										bytes, h);
			slot += bytes;
		}
	}
	check = (uint32) (h ^ (h >> 32));
	for (int b = 0; b < 4; b++)
		if (((check >> (8 * b)) & 0xFF) == 0)
			check |= 1U << (8 * b);
	return check;
}
