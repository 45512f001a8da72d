/*-------------------------------------------------------------------------
 *
 * pax_page.h
 *	  Page format of the pax table access method.
 *
 * A pax relation stores rows in standard 8 KB buffer pages laid out in the
 * PAX format (one minipage per column); pax_am/README draws the page and
 * states its invariants.  This header holds the page's constants, its
 * on-disk structs, page macros, the row header area (row-form and compact
 * pages), the layout of a page computed from its header (PaxPageLayout) and
 * the shape of a page to initialise.
 *
 * pax_am/pax_page.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_PAGE_H
#define PAX_PAGE_H

#include "access/htup_details.h"
#include "access/transam.h"
#include "executor/tuptable.h"
#include "storage/bufpage.h"
#include "utils/rel.h"

#include "pax_encoding.h"

/* ----------------------------------------------------------------
 * Constants
 * ----------------------------------------------------------------
 */

/* Name of the access method as created by the extension script. */
#define PAX_AM_NAME			"pax"

#define PAX_PAGE_MAGIC		0x5041	/* "PA" */
#define PAX_PAGE_VERSION	1

/* Size of a row header: the fixed part of HeapTupleHeaderData. */
#define PAX_ROWHDR_SIZE		MAXALIGN(SizeofHeapTupleHeader)

/* Zone maps: at most this many columns, in at most this many bytes a page. */
#define PAX_MAX_ZONES		64
#define PAX_MAX_ZONE_BYTES	(BLCKSZ / 8)
/*
 * A batch's page has no zone map for a column whose rows span this share of
 * its range, once this many pages' worth of rows are placed (PaxZoneUseless).
 */
#define PAX_ZONE_SPAN_NUM	7
#define PAX_ZONE_SPAN_DEN	8
#define PAX_ZONE_MIN_PAGES	4

/* Null bitmaps for all nullable columns while they take at most this much. */
#define PAX_EAGER_BITMAP_BYTES	(BLCKSZ / 16)

/* Rows enough to shape a page without the relation's hints (pax_encode.c). */
#define PAX_SHAPE_SAMPLE_ROWS	16

/* Number of per-column bitmaps in the column directory. */
#define PAX_NDIRMAPS		5

/* ----------------------------------------------------------------
 * On-disk structures
 * ----------------------------------------------------------------
 */

/*
 * PaxPageHeaderData follows PageHeaderData.  It is followed by the column
 * directory: PAX_NDIRMAPS bitmaps of BITMAPLEN(natts) bytes each (in the
 * order of the PAX_DIR_* constants), then MAXALIGN'd, the zone map array
 * (one PaxZone per column with a zone map, in column order).
 */
typedef struct PaxPageHeaderData
{
	uint16		pp_nrows;		/* rows stored: row indexes 0 .. nrows-1 */
	uint16		pp_capacity;	/* rows the minipages have room for */
	uint16		pp_natts;		/* columns laid out on the page */
	uint16		pp_flags;		/* PAX_PAGE_* flags */
} PaxPageHeaderData;

typedef PaxPageHeaderData *PaxPageHeader;

/* Column directory bitmaps (bit set = property holds for the column). */
#define PAX_DIR_ABSENT		0	/* no minipage: NULL in every row (dropped
									 * columns, and all-NULL columns of pages
									 * too small to store them) */
#define PAX_DIR_NULLMAP		1	/* column has a null bitmap on the page */
#define PAX_DIR_ZONE		2	/* column has a zone map entry */
#define PAX_DIR_HASNULL		3	/* some row has NULL in the column */
#define PAX_DIR_ZONESET		4	/* zone map holds min/max of >= 1 value */

/* pp_flags: some row below pp_nrows is UNUSED (set by VACUUM, cleared by
 * the insert that takes the last one) */
#define PAX_PAGE_HAS_UNUSED	0x0001
/* pp_flags: the page has an encoding directory (see PaxPageGetWidths) */
#define PAX_PAGE_ENCODED	0x0002
/*
 * pp_flags: some UNUSED slot below pp_nrows is an item (PAX_ROW_ITEM:
 * redirect or dead), which inserts do not take; set by pruning, cleared
 * when VACUUM finds none left
 */
#define PAX_PAGE_HAS_ITEMS	0x0010
/* pp_flags: a compact page: its rows share one row header (PaxCompactRows) */
#define PAX_PAGE_COMPACT	0x0004
/*
 * pp_flags: a header page: no rows (pp_nrows 0, pp_natts 0), its row header
 * array holds the headers of a compact page's overflowing rows
 */
#define PAX_PAGE_HEADERS	0x0008
/* pp_flags: a row-form page with a TID map in its special space (pax_tidmap.h) */
#define PAX_PAGE_TIDMAP		0x0020

/*
 * PAX_ROW_UNUSED, in a row header's t_infomask2 (a bit heap leaves free),
 * marks a row slot VACUUM reclaimed: no row lives there.  Its header is
 * otherwise cleared to xmin invalid with HEAP_XMIN_INVALID (and
 * HEAP_XMAX_INVALID), so every HeapTupleSatisfies* routine finds it
 * invisible or dead; its fixed-width values are zero, its value offsets 0
 * and its null bits (where the column has a null bitmap) set.  Readers
 * that would look at its values (selection pushdown, SnapshotAny scans,
 * fetches by TID, ANALYZE) skip it; an insert may reuse the slot, and so
 * its TID, once every index entry pointing at it is gone.
 */
#define PAX_ROW_UNUSED		0x1000
StaticAssertDecl((PAX_ROW_UNUSED & (HEAP_NATTS_MASK | HEAP_KEYS_UPDATED |
									HEAP_HOT_UPDATED | HEAP_ONLY_TUPLE)) == 0,
				 "PAX_ROW_UNUSED must be a t_infomask2 bit heap leaves free");
#define PaxRowIsUnused(hdr)	(((hdr)->t_infomask2 & PAX_ROW_UNUSED) != 0)

/*
 * PAX_ROW_ITEM with PAX_ROW_UNUSED: an item, a slot without a row that
 * index entries may name (heap's LP_REDIRECT, LP_DEAD): a REDIRECT when
 * t_ctid names a row of the page, else a DEAD item.  Readers skip items as
 * UNUSED slots; inserts never take them (pax_am/README.update).
 */
#define PAX_ROW_ITEM		0x0800
StaticAssertDecl((PAX_ROW_ITEM & (HEAP_NATTS_MASK | HEAP_KEYS_UPDATED |
								  HEAP_HOT_UPDATED | HEAP_ONLY_TUPLE |
								  PAX_ROW_UNUSED)) == 0,
				 "PAX_ROW_ITEM must be a t_infomask2 bit heap leaves free");
#define PaxRowIsItem(hdr) \
	(((hdr)->t_infomask2 & (PAX_ROW_UNUSED | PAX_ROW_ITEM)) == \
	 (PAX_ROW_UNUSED | PAX_ROW_ITEM))
/* an UNUSED slot an insert may take: not an item */
#define PaxRowIsFree(hdr) \
	(((hdr)->t_infomask2 & (PAX_ROW_UNUSED | PAX_ROW_ITEM)) == PAX_ROW_UNUSED)
/*
 * PAX_ROW_ITEM without PAX_ROW_UNUSED: a heap-only version in a former DEAD
 * item's slot, which stale index entries may name (a heap-only version
 * ends their chain at once) until VACUUM removes them and the mark; pruned,
 * it becomes a DEAD item, never a free slot.
 */
#define PaxRowHasStaleEntries(hdr) \
	(((hdr)->t_infomask2 & (PAX_ROW_UNUSED | PAX_ROW_ITEM)) == PAX_ROW_ITEM)
#define PaxRowIsRedirect(hdr) \
	(PaxRowIsItem(hdr) && ItemPointerGetOffsetNumberNoCheck(&(hdr)->t_ctid) != 0)

/*
 * A zone map entry: the least and greatest non-null value on the page, as
 * 8-byte integers whatever the platform's Datum width: the value's Datum
 * bits (PaxZoneBound), which a reader turns back into a Datum of the
 * column's type (PaxZoneDatum).  Only pass-by-value types have zone maps
 * (PaxZoneEligible), so a bound fits.  On 64-bit platforms these are the
 * bytes of the former Datum fields: existing pages read the same.
 */
typedef struct PaxZone
{
	int64		min;
	int64		max;
} PaxZone;

StaticAssertDecl(sizeof(PaxZone) == 16,
				 "a zone map entry takes 16 bytes on every page");
StaticAssertDecl(sizeof(Datum) <= sizeof(int64),
				 "a pass-by-value Datum fits in a zone map bound");

/* PaxZoneBound: a bound's stored form; PaxZoneDatum: a Datum of the column type */
#define PaxZoneBound(value)		((int64) (value))
#define PaxZoneDatum(bound)		((Datum) (bound))

/* A TID map (pax_tidmap.h): tids[maxtids], slots[capacity] in entries */
typedef struct PaxTidMapData
{
	uint16		maxtids;		/* TID offsets the map has room for */
	uint16		ntids;			/* TID offsets in use: 1 .. ntids */
	uint16		entries[FLEXIBLE_ARRAY_MEMBER];
} PaxTidMapData;

/* Special space of every pax page. */
typedef struct PaxPageOpaqueData
{
	uint16		pax_magic;		/* PAX_PAGE_MAGIC */
	uint16		pax_version;	/* PAX_PAGE_VERSION */
	TransactionId pax_layout_xid;	/* see PaxPageIsOrphan */
} PaxPageOpaqueData;

typedef PaxPageOpaqueData *PaxPageOpaque;

/* Start of the special space: the value area ends there (without a map). */
#define PAX_SPECIAL_START	(BLCKSZ - MAXALIGN(sizeof(PaxPageOpaqueData)))
#define PAX_TIDMAP_AT		MAXALIGN(sizeof(PaxPageOpaqueData))
#define PaxTidMapSpecialSize(maxtids, capacity) \
	(PAX_TIDMAP_AT + MAXALIGN(offsetof(PaxTidMapData, entries) + \
							  ((maxtids) + (capacity)) * sizeof(uint16)))

/* ----------------------------------------------------------------
 * Page macros
 * ----------------------------------------------------------------
 */

#define PaxPageGetHeader(page) \
	((PaxPageHeader) PageGetContents(page))
#define PaxPageGetOpaque(page) \
	((PaxPageOpaque) PageGetSpecialPointer(page))
#define PaxDirMapLen(natts)		BITMAPLEN(natts)
#define PaxPageGetDirMap(page, which) \
	((bits8 *) PageGetContents(page) + sizeof(PaxPageHeaderData) + \
	 (which) * PaxDirMapLen(PaxPageGetHeader(page)->pp_natts))
#define PaxPageGetWidths(page) \
	((uint8 *) PaxPageGetDirMap(page, PAX_NDIRMAPS))
#define PaxPageIsEncoded(page) \
	((PaxPageGetHeader(page)->pp_flags & PAX_PAGE_ENCODED) != 0)
#define PaxPageIsCompact(page) \
	((PaxPageGetHeader((Page) (page))->pp_flags & PAX_PAGE_COMPACT) != 0)

/*
 * A compact page's row area, at its rowhdrs offset (pax_am/README,
 * "Compact rows"): the row header its rows share (24 bytes), the block
 * number of its header page (0: none yet) and its check word
 * (PaxPageMetaCheck at PAX_COMPACT_CHECK; 0: none recorded), one state
 * byte per row of its capacity, then, MAXALIGN'd, PAX_COMPACT_SLOTS row
 * header slots for rows that need a header of their own (a DELETE, UPDATE
 * or row lock sets their xmax).  A state is PAX_STATE_SHARED (0), a slot
 * number 1 .. PAX_COMPACT_SLOTS, PAX_STATE_OVERFLOW (the header is the
 * row's in the header page's array) or PAX_STATE_UNUSED (a slot VACUUM
 * reclaimed).
 */
#define PAX_COMPACT_SLOTS		12
#define PAX_COMPACT_HDRPAGE		PAX_ROWHDR_SIZE
#define PAX_COMPACT_CHECK		(PAX_ROWHDR_SIZE + 4)
#define PAX_COMPACT_STATES		(PAX_ROWHDR_SIZE + 8)
#define PAX_STATE_SHARED		0
#define PAX_STATE_OVERFLOW		0xFE
#define PAX_STATE_UNUSED		0xFF
#define PaxCompactHeaderPage(page, rowhdrs) \
	(*(BlockNumber *) ((char *) (page) + (rowhdrs) + PAX_COMPACT_HDRPAGE))
#define PaxCompactSlotsAt(capacity) \
	MAXALIGN(PAX_COMPACT_STATES + (capacity))
#define PaxCompactRowsSize(capacity) \
	(PaxCompactSlotsAt(capacity) + PAX_COMPACT_SLOTS * PAX_ROWHDR_SIZE)
/* the bytes of a page's row headers: a compact page's row area, or a header a row */
#define PaxRowAreaSize(compact, capacity) \
	((compact) ? PaxCompactRowsSize(capacity) : (capacity) * PAX_ROWHDR_SIZE)
#define PaxCompactStates(page, rowhdrs) \
	((uint8 *) (page) + (rowhdrs) + PAX_COMPACT_STATES)
#define PaxCompactSlot(page, rowhdrs, k) \
	((HeapTupleHeader) ((char *) (page) + (rowhdrs) + \
						PaxCompactSlotsAt(PaxPageGetHeader((Page) (page))->pp_capacity) + \
						((k) - 1) * PAX_ROWHDR_SIZE))

/*
 * PaxRowHeader is the header of row `row` of a page whose row headers start
 * at offset rowhdrs: its own on a row-form page; on a compact page, its
 * slot's, or the one the page's rows share.  A shared header's t_ctid is
 * PAX_CTID_SELF: read a row's t_ctid through PaxRowCtid.  A row whose
 * header is on the header page (PAX_STATE_OVERFLOW) is read through
 * PaxRowHeaderOf; here it gets the shared header.
 */
static inline HeapTupleHeader
PaxRowHeader(const char *page, uint16 rowhdrs, int row)
{
	if (PaxPageIsCompact(page))
	{
		uint8		state = PaxCompactStates(page, rowhdrs)[row];

		if (state == PAX_STATE_SHARED || state > PAX_COMPACT_SLOTS)
			return (HeapTupleHeader) (page + rowhdrs);
		return PaxCompactSlot(page, rowhdrs, state);
	}
	return (HeapTupleHeader) (page + rowhdrs + row * PAX_ROWHDR_SIZE);
}

/*
 * PaxRowHeaderSetUnused makes a (zeroed) row-form header the header of an
 * UNUSED slot (PAX_ROW_UNUSED).
 */
static inline void
PaxRowHeaderSetUnused(HeapTupleHeader hdr)
{
	hdr->t_infomask = HEAP_XMIN_INVALID | HEAP_XMAX_INVALID;
	hdr->t_infomask2 = PAX_ROW_UNUSED;
	hdr->t_hoff = PAX_ROWHDR_SIZE;
}

/*
 * PaxRowHeaderSetItem makes a row-form slot's (cleared) header an item:
 * a REDIRECT to row index target of block blkno, or with target -1 a DEAD
 * item (PAX_ROW_ITEM).
 */
static inline void
PaxRowHeaderSetItem(HeapTupleHeader hdr, BlockNumber blkno, int target)
{
	PaxRowHeaderSetUnused(hdr);
	hdr->t_infomask2 |= PAX_ROW_ITEM;
	ItemPointerSetBlockNumber(&hdr->t_ctid, blkno);
	ItemPointerSetOffsetNumber(&hdr->t_ctid, target >= 0 ? target + 1 : 0);
}

/* PaxRowUnused tells whether row `row` of a page is an UNUSED slot. */
static inline bool
PaxRowUnused(const char *page, uint16 rowhdrs, int row)
{
	if (PaxPageIsCompact(page))
		return PaxCompactStates(page, rowhdrs)[row] == PAX_STATE_UNUSED;
	return PaxRowIsUnused(PaxRowHeader(page, rowhdrs, row));
}

/*
 * PAX_CTID_SELF, the offset of a shared row header's t_ctid, stands for
 * "the row itself": the rows sharing the header have no xmax, and their
 * t_ctid would each be their own TID.  Neither heap's speculative token
 * nor its moved-partitions offset (0xfffe, 0xfffd), nor a row number.
 */
#define PAX_CTID_SELF			0xfffc

/* PaxRowCtid is the t_ctid of the row tuple points at (PaxRowTuple). */
static inline ItemPointerData
PaxRowCtid(HeapTuple tuple)
{
	if (ItemPointerGetOffsetNumberNoCheck(&tuple->t_data->t_ctid) ==
		PAX_CTID_SELF)
		return tuple->t_self;
	return tuple->t_data->t_ctid;
}

/* PaxRowCtidIsSelf: the row tuple points at has t_ctid its own TID. */
static inline bool
PaxRowCtidIsSelf(HeapTuple tuple)
{
	ItemPointerData ctid = PaxRowCtid(tuple);

	return ItemPointerEquals(&tuple->t_self, &ctid);
}
/*
 * PaxPageIsOrphan tells whether a page was laid out for columns of a rolled-back
 * ALTER TABLE ADD COLUMN: every row on it is dead (see PaxLayoutXid).
 */
#define PaxPageIsOrphan(page) \
	(TransactionIdIsValid(PaxPageGetOpaque(page)->pax_layout_xid) && \
	 PaxPageIsOrphanSlow(page))

/*
 * PaxPageLayout: the offsets of everything on one page, derived from the
 * page header, the column directory and the tuple descriptor (attlen,
 * attalign, attbyval, which survive DROP COLUMN).  Computed once per page
 * read and reused while the next page has the same shape.
 */
typedef struct PaxPageLayout
{
	int			natts;			/* pp_natts */
	int			capacity;		/* pp_capacity */
	uint16		zones;			/* offset of the zone array */
	uint16		bases;			/* offset of the base array (encoded pages) */
	uint16		rowhdrs;		/* offset of the row headers (a compact
								 * page's row area) */
	bool		compact;		/* PAX_PAGE_COMPACT */
	bool		hasprefix;		/* some column is prefix-encoded: reading
								 * it takes decode cells */
	uint16		lower;			/* end of the fixed part: pd_lower */
	int			nzones;
	PaxColumnLayout cols[FLEXIBLE_ARRAY_MEMBER];
} PaxPageLayout;

#define SizeOfPaxPageLayout(natts) \
	(offsetof(PaxPageLayout, cols) + (natts) * sizeof(PaxColumnLayout))

/* A CPU cache line: the unit prefetching works in. */
#define PAX_CACHE_LINE_SIZE		64

/*
 * PaxLayoutCache keeps the layouts of the last PAX_LAYOUT_CACHE_ENTRIES
 * page shapes seen (more when it grows: pax_page_layout.c), with the
 * directory bitmaps each was computed from, so pages of a recent shape
 * skip the computation.  Set-associative: a shape's signature picks a set
 * of PAX_LAYOUT_CACHE_WAYS entries, the only ones looked at; a miss takes a
 * free way, else the one a rotating counter picks, and copies the
 * relation's layout (PaxRelLayouts).  Sets are allocated on first use:
 * every pax slot has a cache, and sees one shape or few.
 */
#define PAX_LAYOUT_CACHE_ENTRIES	128
#define PAX_LAYOUT_CACHE_WAYS		4

typedef struct PaxLayoutCacheEntry
{
	PaxPageLayout *layout;		/* sized for the relation's natts, or NULL */
	bits8	   *dirmaps;		/* the shape's directory bitmaps, widths */
	bool		valid;
	bool		encoded;		/* the page has encoded widths */
	bool		compact;		/* the page is compact */
	uint32		sig;			/* PaxShapeSignature of the shape, when valid */
	int			natts;			/* the layout's, when valid */
	int			capacity;
} PaxLayoutCacheEntry;

typedef struct PaxLayoutCache
{
	PaxPageLayout *layout;		/* the layout PaxPageGetLayout returned last */
	int			maxatts;
	MemoryContext mcxt;			/* where entries are allocated, on first use */
	int			victim;			/* the way a miss in a full set replaces */
	bool		shared;			/* a relation's own (PaxRelLayouts) */
	bool		grows;			/* may grow past its first sets */
	int			nsets;			/* sets (a power of two); 0 before first use */
	uint32		misses;			/* since it last grew */
	PaxLayoutCacheEntry **sets; /* nsets sets, each allocated on first use */
	struct PaxColumnMemo *memo; /* a relation's own: its column memo, or NULL */
} PaxLayoutCache;

/*
 * The shape of a page to initialise: which columns get null bitmaps and zone
 * maps, which are encoded (widths, bases: NULL if none), and how many rows.
 */
typedef struct PaxPageShape
{
	int			natts;
	int			capacity;
	bits8	   *absent;
	bits8	   *nullmap;
	bits8	   *zone;
	uint8	   *widths;			/* natts encoded widths (0: full), or NULL */
	int64	   *bases;			/* natts bases (for init), or NULL */
	int64	   *factors;		/* natts factors of factored columns (for
								 * init), or NULL */
	uint8	   *prefixes;		/* natts prefix areas of PAX_PREFIX_AREA_MAX
								 * bytes (a length byte, the bytes) of
								 * prefix-encoded columns (init), or NULL */
	bool		compact;		/* compact rows (PAX_PAGE_COMPACT) */
} PaxPageShape;

/*
 * PaxRowInit: what a new row version starts with besides xmin and cmin
 * (pax_modify.c): the xmax and infomask bits an UPDATE carries over from
 * the old version (HEAP_UPDATED, key-share lockers), or the speculative
 * token of INSERT ... ON CONFLICT in place of the self-pointing t_ctid.
 */
typedef struct PaxRowInit
{
	TransactionId xmax;			/* xmax, or InvalidTransactionId */
	uint16		infomask;		/* t_infomask (HEAP_XMAX_INVALID if no xmax) */
	uint16		infomask2;		/* t_infomask2 bits besides natts */
	uint32		spectoken;		/* speculative insertion token, or 0 */
	int			share_row;		/* old version's slot on the page, or -1 */
} PaxRowInit;

/* Variable-length columns a PaxRow lists, at most (else it lists none). */
#define PAX_ROW_VARATTS	16

/*
 * PaxRow (pax_insert.c): a row ready to be placed on a page, its values
 * taken from a slot (and through heap's TOAST code when large).
 */
typedef struct PaxRow
{
	Datum	   *values;
	bool	   *isnull;
	Size		varbytes;		/* value area bytes, alignment padding included */
	TupleTableSlot *slot;		/* where the TID goes, or NULL */
	HeapTupleHeader srchdr;		/* row header to keep (rewrites), or NULL */
	const PaxRowInit *init;		/* xmax and flags of a new version, or NULL */

	/*
	 * The row's non-null variable-length columns, in column order, which
	 * placing it walks (three times a row for a bulk insert) instead of
	 * every column; nvar = -1 when there are more than PAX_ROW_VARATTS.
	 */
	int16		nvar;
	int16		var[PAX_ROW_VARATTS];
	bool		hasnull;		/* some column is NULL */
} PaxRow;

/*
 * PaxPrunePlan (pax_prune.c, carried out by PaxPagePruneApply): the slots a
 * pruning of one row-form page changes, as TID offsets (row index + 1):
 * rows that become UNUSED (dead heap-only versions, which no index entry
 * points at), rows or redirects that become DEAD items, and roots that
 * become REDIRECTs to redirect_to[k].  Adapted from PruneState in
 * pruneheap.c, PostgreSQL 15.
 */
typedef struct PaxPrunePlan
{
	int			nunused;
	int			ndead;
	int			nredirect;
	OffsetNumber unused[PAX_MAX_CAPACITY];
	OffsetNumber dead[PAX_MAX_CAPACITY];
	OffsetNumber redirect_from[PAX_MAX_CAPACITY];
	OffsetNumber redirect_to[PAX_MAX_CAPACITY];
} PaxPrunePlan;

/* pax_page.c */
extern uint16 PaxLayoutSize(TupleDesc tupdesc, const PaxPageShape *shape,
							PaxPageLayout *layout);
extern void PaxPageInit(Page page, TupleDesc tupdesc, const PaxPageShape *shape);
extern TransactionId PaxLayoutXid(Relation rel);
extern bool PaxPageIsOrphanSlow(Page page);
extern bool PaxLayoutXidPlausible(TransactionId xid);
extern uint32 PaxPageMetaCheck(Page page);
extern void PaxCheckSharedHeader(Relation rel, Page page, BlockNumber blkno,
								 uint16 rowhdrs);
extern bool PaxPageLayoutUsable(Page page);
extern bool PaxTidMapSpecialOk(Page page);
extern void PaxPageShapeOf(Page page, PaxPageShape *shape);
pg_noreturn extern void PaxPageCorrupted(Relation rel, BlockNumber blkno,
										 const char *detail);

/*
 * PaxPageHeaderProblem says what is wrong with a page's header, or returns
 * NULL: the special space, the counts and the order of pd_lower, pd_upper
 * and pd_special, which every reader of a page relies on.
 */
static inline const char *
PaxPageHeaderProblem(Page page)
{
	PageHeader	phdr = (PageHeader) page;
	PaxPageHeader hdr = PaxPageGetHeader(page);

	if (unlikely((PageGetSpecialSize(page) != MAXALIGN(sizeof(PaxPageOpaqueData)) &&
				  !((hdr->pp_flags & PAX_PAGE_TIDMAP) && PaxTidMapSpecialOk(page))) ||
				 PaxPageGetOpaque(page)->pax_magic != PAX_PAGE_MAGIC ||
				 PaxPageGetOpaque(page)->pax_version != PAX_PAGE_VERSION))
		return "wrong special space, magic or version";
	/* orphan pages (PaxPageIsOrphan) may have more columns than rel */
	if (unlikely(hdr->pp_natts > MaxTupleAttributeNumber))
		return "more columns than a relation can have";
	if (unlikely(hdr->pp_capacity < 1 || hdr->pp_capacity > PAX_MAX_CAPACITY ||
				 hdr->pp_nrows > hdr->pp_capacity))
		return "row count or capacity out of range";
	if (unlikely(phdr->pd_lower > phdr->pd_upper || phdr->pd_upper > phdr->pd_special))
		return "pd_lower, pd_upper or pd_special out of order";
	return NULL;
}

/* PaxPageCheckHeader raises PaxPageHeaderProblem's finding as an ERROR. */
static inline void
PaxPageCheckHeader(Relation rel, Page page, BlockNumber blkno)
{
	const char *problem = PaxPageHeaderProblem(page);

	if (unlikely(problem != NULL))
		PaxPageCorrupted(rel, blkno, problem);
}

extern PaxPageLayout *PaxPageGetLayout(Relation rel, TupleDesc tupdesc,
									   Page page, BlockNumber blkno,
									   PaxLayoutCache *cache);
extern PaxLayoutCache *PaxRelLayouts(Relation rel);
extern void PaxLayoutCacheInit(PaxLayoutCache *cache, int natts,
							   MemoryContext mcxt);
extern void PaxLayoutCacheFree(PaxLayoutCache *cache);
extern Datum PaxPageGetValue(Page page, const PaxPageLayout *layout,
							 int row, int attno, bool *isnull);
extern Datum PaxPageColumnValue(TupleDesc tupdesc, Page page,
								const PaxPageLayout *layout, int row,
								int attno, bool *isnull);
extern void PaxPageFillValues(TupleDesc tupdesc, Page page,
							  const PaxPageLayout *layout, int row, int from,
							  int to, const int16 *needed, int nneeded,
							  Datum *values, bool *isnull, char *cells);
extern char *PaxDecodeCellsFor(char **cells, const PaxPageLayout *layout,
							   int natts, MemoryContext mcxt);
extern char *PaxDecodeCell(int attno);
extern uint16 PaxPageRowHeaders(Relation rel, Page page, BlockNumber blkno);
extern bool PaxPageHeaderIsValid(Page page);
extern uint32 PaxBasesAt(Page page);
extern uint32 PaxRowHeadersAt(Page page);
extern uint16 PaxPageRowHeaderOffset(Relation rel, Page page, BlockNumber blkno);
extern void PaxPageCheckRowNatts(Relation rel, Page page, BlockNumber blkno,
								 HeapTupleHeader tup);
extern bool PaxZoneEligible(Form_pg_attribute att);
extern double PaxZoneNumber(Form_pg_attribute att, Datum v);
extern void PaxZoneUpdate(Page page, const PaxPageLayout *layout,
						  Form_pg_attribute att, int attnum, Datum value);
extern void PaxZoneUpdateRows(Page page, const PaxPageLayout *layout,
							  Form_pg_attribute att, int attnum,
							  const PaxRow *rows, int nrows);
extern void PaxRowClear(Page page, const PaxPageLayout *layout, int r,
						bool unused);
extern int	PaxPageReclaim(Page page, const PaxPageLayout *layout,
						   TupleDesc tupdesc, const OffsetNumber *rows,
						   int nrows_dead, BlockNumber blkno, Relation rel);
extern bool PaxPagePruneApply(Page page, const PaxPageLayout *layout,
							  TupleDesc tupdesc, const PaxPrunePlan *plan,
							  BlockNumber blkno, Relation rel);
extern bool PaxTidMapCreate(Page page, const PaxPageLayout *layout,
							TupleDesc tupdesc, BlockNumber blkno);
#ifdef USE_ASSERT_CHECKING
extern bool PaxBufferLockedByMe(Buffer buffer, bool exclusive);
#endif

#endif							/* PAX_PAGE_H */
