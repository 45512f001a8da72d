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

/*
 * PaxLoadTail reads the len (1..7) bytes at p as the low bytes of a word,
 * with one load of eight: the bytes after them must be readable (a page's
 * directory lies far from the page's end; a layout cache entry's copy is
 * allocated PAX_SHAPE_PAD bytes longer).
 */
#define PAX_SHAPE_PAD	8

/*
 * PaxLayoutCursor: where the next minipage and the next base array slot go
 * while PaxLayoutSize lays out a page's columns.
 */
typedef struct PaxLayoutCursor
{
	uint32		off;			/* end of the minipages so far */
	uint32		bases;			/* next slot of the base array */
	int			capacity;		/* rows of the page */
	bool		hasprefix;		/* some column reads into decode cells */
} PaxLayoutCursor;

/* PaxLayoutNullmap places a column's null bitmap when the shape gives one. */
static inline void
PaxLayoutNullmap(const PaxPageShape *shape, int i, PaxColumnLayout *col,
				 PaxLayoutCursor *cur)
{
	if (PaxBitIsSet(shape->nullmap, i))
	{
		col->nullmap = cur->off;
		cur->off += BITMAPLEN(cur->capacity);
	}
}

/*
 * PaxLayoutInMinipage lays out a column whose values are in its minipage
 * (PaxInMinipage): fixed-width rests, a prefix area then R bytes a row; in
 * symbols, an alphabet after the prefix area and R codes a row, bit-packed;
 * decimal-scaled numerics, their slot and b bits a row.  False when the
 * column cannot be stored so.
 */
static bool
PaxLayoutInMinipage(Form_pg_attribute att, const PaxPageShape *shape, int i,
					int width, PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	bool		num = PaxNumScaleWidthOk(width);
	bool		sym = PaxSymRestWidthOk(width);
	int			rest = sym ? PaxSymRestBytes(width) :
		num ? 0 : PaxFixRestBytes(width);
	int			rowbits = num ? PaxNumScaleBits(width) :
		rest * (sym ? PAX_SYMREST_BITS : 0);

	if (att->attlen != -1 || PaxBitIsSet(shape->absent, i))
		return false;
	if (num)
	{
		col->numslot = cur->bases;
		col->bits = rowbits;
	}
	else
	{
		col->prefix = cur->bases;
		col->prefixmax = PAX_FIXREST_AREA - 1;
		col->restwidth = rest;
		col->symbits = sym ? PAX_SYMREST_BITS : 0;
	}
	col->width = rowbits != 0 ? 0 : rest;
	cur->hasprefix = true;
	cur->bases += PaxBaseBytes(width);
	PaxLayoutNullmap(shape, i, col, cur);
	col->data = cur->off;
	cur->off += rowbits != 0 ? PaxPackedBytes(cur->capacity, rowbits) :
		cur->capacity * rest;
	return true;
}

/*
 * PaxLayoutDict lays out a dictionary-encoded variable-length column: its
 * dictionary, then its codes (bit-packed, or a byte a row).  False when the
 * width byte is no dictionary's.
 */
static bool
PaxLayoutDict(const PaxPageShape *shape, int i, int width,
			  PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	int			codebits;

	if (!PaxDictWidthOk(width) || PaxBitIsSet(shape->absent, i))
		return false;
	codebits = PaxDictIsPacked(width) ?
		PaxDictCodeBits(PaxDictCapacity(width)) : 0;
	PaxLayoutNullmap(shape, i, col, cur);
	cur->off = SHORTALIGN(cur->off);
	col->dict = cur->off;
	col->dictcap = PaxDictCapacity(width);
	col->dictused = cur->bases;
	col->width = codebits != 0 ? 0 : 1;
	col->bits = codebits;
	cur->off += PaxDictCapacity(width) * sizeof(uint16);
	col->data = cur->off;
	cur->off += codebits != 0 ? PaxPackedBytes(cur->capacity, codebits) :
		cur->capacity;
	cur->bases += sizeof(int64);
	return true;
}

/*
 * PaxLayoutEncoded gives an encoded fixed-width column (of an integer-like
 * width, or bit-packed in fewer bits than the type's) its base slot;
 * PaxLayoutColumn then places its minipage.  False when the column cannot
 * be stored so.
 */
static bool
PaxLayoutEncoded(Form_pg_attribute att, const PaxPageShape *shape, int i,
				 int width, int packbits, PaxColumnLayout *col,
				 PaxLayoutCursor *cur)
{
	if (!att->attbyval ||
		(att->attlen != 2 && att->attlen != 4 && att->attlen != 8) ||
		PaxBitIsSet(shape->absent, i) ||
		(PaxScaleEligible(att) && !PaxFactorWidthOk(width)))
		return false;
	if (packbits != 0)
	{
		if (packbits >= 8 * att->attlen)
			return false;
	}
	else if (!PAX_ENCODED_WIDTH_OK(width) || width >= att->attlen)
		return false;
	col->base = cur->bases;
	col->width = packbits != 0 ? 0 : width;
	col->bits = packbits;
	/* a float column's factor is a decimal scale */
	col->scaled = PaxFactorWidthOk(width) && PaxScaleEligible(att);
	col->factored = PaxFactorWidthOk(width) && !col->scaled;
	cur->bases += PaxBaseBytes(width);
	return true;
}

/*
 * PaxLayoutColumn lays out column i of a page of the given shape into col:
 * its minipage after cur->off, its base array slot at cur->bases, as its
 * width byte says.  False when the shape does not describe a column of the
 * page (a width byte that the column's type cannot have).
 */
static bool
PaxLayoutColumn(Form_pg_attribute att, const PaxPageShape *shape, int i,
				PaxColumnLayout *col, PaxLayoutCursor *cur)
{
	int			width = shape->widths ? shape->widths[i] : 0;
	int			packbits;		/* bits a row of a bit-packed column */
	int			capacity = cur->capacity;
	int16		zone = col->zone;

	MemSet(col, 0, sizeof(PaxColumnLayout));
	col->zone = zone;
	col->attlen = att->attlen;
	col->byval = att->attbyval;
	col->dropped = att->attisdropped;
	col->width = att->attlen > 0 ? att->attlen : PAX_VAROFF_SIZE;

	if (width != 0 && PaxPrefixWidthOk(width))
	{
		/* a prefix-encoded varlena column: its prefix area, a base slot */
		if (att->attlen != -1 || PaxBitIsSet(shape->absent, i))
			return false;
		col->prefix = cur->bases;
		col->prefixmax = PaxPrefixAreaSize(width) - 1;
		cur->hasprefix = true;
		cur->bases += PaxPrefixAreaSize(width);
		width = 0;				/* its minipage: a plain varlena column's */
	}
	if (width != 0 && (PaxFixRestWidthOk(width) || PaxSymRestWidthOk(width) ||
					   PaxNumScaleWidthOk(width)))
		return PaxLayoutInMinipage(att, shape, i, width, col, cur);
	packbits = PaxWidthPackedBits(width);
	if (width != 0 && att->attlen < 0)
		return PaxLayoutDict(shape, i, width, col, cur);
	if (width != 0 &&
		!PaxLayoutEncoded(att, shape, i, width, packbits, col, cur))
		return false;
	if (PaxBitIsSet(shape->absent, i))
		return true;
	PaxLayoutNullmap(shape, i, col, cur);
	if (packbits != 0)
	{
		col->data = cur->off;
		cur->off += PaxPackedBytes(capacity, packbits);
	}
	else if (width != 0)
	{
		cur->off = TYPEALIGN(width, cur->off);
		col->data = cur->off;
		cur->off += capacity * width;
	}
	else if (att->attlen > 0)
	{
		cur->off = att_align_nominal(cur->off, att->attalign);
		col->data = cur->off;
		cur->off += capacity * att->attlen;
	}
	else
	{
		cur->off = SHORTALIGN(cur->off);
		col->data = cur->off;
		cur->off += capacity * PAX_VAROFF_SIZE;
	}
	return true;
}

/*
 * PaxLayoutSize computes where every minipage of a page of the given shape
 * lies, fills *layout when it is not NULL, and returns the page's pd_lower,
 * or a value above BLCKSZ when the shape does not fit a page.
 */
uint16
PaxLayoutSize(TupleDesc tupdesc, const PaxPageShape *shape,
			  PaxPageLayout *layout)
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
			basebytes += PaxBaseBytes(shape->widths[i]);
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

		if (!PaxLayoutColumn(TupleDescAttr(tupdesc, i), shape, i, col, &cur))
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
	for (int i = 0; i < PAX_LAYOUT_CACHE_ENTRIES; i++)
	{
		PaxLayoutCacheEntry *e = &cache->entries[i];

		if (e->layout)
			pfree(e->layout);
		if (e->dirmaps)
			pfree(e->dirmaps);
		e->layout = NULL;
		e->dirmaps = NULL;
		e->valid = false;
	}
	cache->layout = NULL;
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
	set = &cache->entries[(sig % (PAX_LAYOUT_CACHE_ENTRIES / PAX_LAYOUT_CACHE_WAYS)) *
						  PAX_LAYOUT_CACHE_WAYS];
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
			cache->layout = e->layout;
			return e->layout;
		}
	}

	/* a miss: a free entry of the set, else its next victim */
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
									   SizeOfPaxPageLayout(Max(cache->maxatts, 1)));
		e->dirmaps = MemoryContextAllocZero(cache->mcxt,
											3 * PaxDirMapLen(Max(cache->maxatts, 1)) +
											Max(cache->maxatts, 1) + PAX_SHAPE_PAD);
	}

	/* The first three directory bitmaps are contiguous: absent, nullmap, zone. */
	shape.natts = hdr->pp_natts;
	shape.capacity = hdr->pp_capacity;
	shape.absent = maps;
	shape.nullmap = maps + maplen;
	shape.zone = maps + 2 * maplen;
	shape.widths = widths;
	shape.bases = NULL;
	shape.factors = NULL;
	shape.prefixes = NULL;
	shape.compact = compact;
	e->valid = false;			/* until the layout is whole */
	if (PaxLayoutSize(tupdesc, &shape, e->layout) != phdr->pd_lower)
		PaxPageCorrupted(rel, blkno, "pd_lower does not match the column layout");
	memcpy(e->dirmaps, maps, 3 * maplen);
	if (encoded)
		memcpy(e->dirmaps + 3 * maplen, widths, hdr->pp_natts);
	e->encoded = encoded;
	e->compact = compact;
	e->sig = sig;
	e->natts = hdr->pp_natts;
	e->capacity = hdr->pp_capacity;
	e->valid = true;
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
		bases = MAXALIGN(SizeOfPageHeaderData + sizeof(PaxPageHeaderData) +
						 PAX_NDIRMAPS * maplen + shape->natts);
		for (int i = 0; i < shape->natts; i++)
			if (PaxBitIsSet(shape->zone, i))
				bases += sizeof(PaxZone);
		for (int i = 0; i < shape->natts; i++)
		{
			int			w = shape->widths[i];

			/*
			 * an int64 base (and factor), or a prefix area (PaxBaseBytes),
			 * with an alphabet after it for rests in symbols; a numeric
			 * scale's base, factor and display scale
			 */
			if (PaxSymRestWidthOk(w) || PaxNumScaleWidthOk(w))
				memcpy(page + bases, &shape->prefixes[i * PAX_PREFIX_AREA_MAX],
					   PaxBaseBytes(w));
			else if (PaxPrefixWidthOk(w) || PaxFixRestWidthOk(w))
				memcpy(page + bases, &shape->prefixes[i * PAX_PREFIX_AREA_MAX],
					   shape->prefixes[i * PAX_PREFIX_AREA_MAX] + 1);
			else if (w != 0)
				memcpy(page + bases, &shape->bases[i], sizeof(int64));
			if (PaxFactorWidthOk(w))
				memcpy(page + bases + sizeof(int64), &shape->factors[i],
					   sizeof(int64));
			bases += PaxBaseBytes(w);
		}
	}
	((PageHeader) page)->pd_lower = lower;

	opaque = PaxPageGetOpaque(page);
	opaque->pax_magic = PAX_PAGE_MAGIC;
	opaque->pax_version = PAX_PAGE_VERSION;
}
