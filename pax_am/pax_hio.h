/*-------------------------------------------------------------------------
 *
 * pax_hio.h
 *	  Buffers and target pages of pax relations.
 *
 * As heap's hio.h: where a new row goes (target page, free space map,
 * new pages), and what a backend remembers of a relation (PaxRelCache: the
 * recent-buffer map scans pin through, and the encoding hints of new
 * pages).
 *
 * pax_am/pax_hio.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_HIO_H
#define PAX_HIO_H

#include "access/hio.h"
#include "executor/tuptable.h"
#include "storage/bufmgr.h"
#include "utils/rel.h"

#include "pax_relscan.h"

/* Recent buffers (pax_buffers.c): blocks remembered, at most (4 bytes each). */
#define PAX_RECENT_BUFFERS_MAX	(1024 * 1024)

/* Wrong consecutive-buffer guesses a scan makes in a row, at most ... */
#define PAX_GUESS_CREDIT	8
/* ... after which it guesses for one block in this many only. */
#define PAX_GUESS_RETRY		64

/*
 * ReadRecentBuffer does not raise a buffer's usage count (PostgreSQL 15
 * pins with PinBuffer_Locked), so that pages pinned only through it would
 * age out of shared buffers however often they are scanned.  One block in
 * this many per scan, a different share each scan, goes through
 * ReadBufferExtended, which does raise it.
 */
#define PAX_USAGE_REFRESH	16

/*
 * PaxRelCache: what a backend remembers of a pax relation, in rd_amcache
 * (freed on any relcache rebuild, so never kept across one): the running
 * estimate of value-area bytes per inserted row, and for each block the
 * buffer that last held it, so that scans pin it with ReadRecentBuffer
 * (one look at the buffer's header) instead of a buffer-mapping lookup.
 */
#define PAX_HINT_ATTS	64		/* columns with encoding hints, at most */

#define PAX_HINT_DISTINCT	32		/* distinct values a hint counts, at most */

typedef struct PaxEncodeHint
{
	int64		lo;				/* least value placed since the last new page */
	int64		hi;				/* greatest */
	int64		all_lo;			/* least value placed since the cache began */
	int64		all_hi;			/* greatest */
	int32		nrecent;		/* rows lo and hi cover */
	bool		set;			/* lo and hi are set */
	bool		all_set;		/* all_lo and all_hi are set */
	/* a variable-length column, since the last new page: */
	int16		nvhash;			/* distinct values seen (as vhash), or -1
								 * for more than PAX_HINT_DISTINCT */
	int32		nvrows;			/* non-null values placed */
	double		vbytes;			/* their stored bytes */
	uint32		vhash[PAX_HINT_DISTINCT];	/* hashes of the distinct ones */
	uint8		packbits;		/* bits the last bulk-built page packed the
								 * column in, 0 if none */
	uint8		lastwidth;		/* the last bulk-built page shaped from a
								 * page's worth of rows: the column's
								 * bit-packed or factored width, 0 if none */
	int64		lastbase;		/* its base */
	int64		lastfactor;		/* its factor or divisor, 0 if none */
	/* a column with zone maps (PaxZoneUseless), since the cache began: */
	double		zone_lo;		/* least value placed (PaxZoneNumber) */
	double		zone_hi;		/* greatest */
	double		zone_rows;		/* rows counted in them */
} PaxEncodeHint;

typedef struct PaxRelCache
{
	double		var_avg;		/* running average of a row's value bytes */
	bool		var_valid;
	int			bulk_capacity;	/* the last page a bulk insert shaped */
	PaxEncodeHint hints[PAX_HINT_ATTS];	/* value ranges of the first
										 * columns, for the encodings of the
										 * next new page (pax_insert.c) */
	BlockNumber nbufs;			/* blocks with a slot in bufs */
	Buffer		bufs[FLEXIBLE_ARRAY_MEMBER];	/* InvalidBuffer: unknown */
} PaxRelCache;

/*
 * Kept rows (pax_bulk.c), as the access paths see them: the relation whose
 * rows pax_tuple_insert keeps (InvalidOid when none are kept), and the
 * functions, set by PaxBulkInit, that keep a row, place the kept ones,
 * take a batch of COPY's (whose last rows they may keep), and index a row
 * of an INSERT whose index entries they make.
 * The access paths reach pax_bulk.c only through these, which live here,
 * below both, so that neither calls the other.
 */
typedef bool (*PaxBulkKeepFunc) (Relation rel, TupleTableSlot *slot,
								 CommandId cid, int options,
								 struct BulkInsertStateData *bistate);
typedef void (*PaxBulkPlaceFunc) (Relation rel);
typedef bool (*PaxBulkMultiFunc) (Relation rel, TupleTableSlot **slots,
								  int nslots, CommandId cid, int options,
								  struct BulkInsertStateData *bistate);
typedef void (*PaxBulkIndexFunc) (Relation rel, TupleTableSlot *slot,
								  CommandId cid);
extern Oid	pax_bulk_relid;
extern int	pax_bulk_indexing;
extern PaxBulkKeepFunc PaxBulkKeepHook;
extern PaxBulkPlaceFunc PaxBulkPlaceHook;
extern PaxBulkMultiFunc PaxBulkMultiHook;
extern PaxBulkIndexFunc PaxBulkIndexHook;

/*
 * PaxBulkIndexRow adds the index entries of a row pax_tuple_insert put in
 * one at a time (not kept) for an INSERT whose index entries pax_bulk.c
 * makes (pax_bulk_indexing counts those statements running).
 */
static inline void
PaxBulkIndexRow(Relation rel, TupleTableSlot *slot, CommandId cid)
{
	if (unlikely(pax_bulk_indexing > 0))
		PaxBulkIndexHook(rel, slot, cid);
}

/*
 * PaxBulkPlaceFor places the rows pax_tuple_insert kept for rel, if any,
 * before rel's rows or storage are read or changed.
 */
static inline void
PaxBulkPlaceFor(Relation rel)
{
	if (unlikely(pax_bulk_relid != InvalidOid) &&
		pax_bulk_relid == RelationGetRelid(rel))
		PaxBulkPlaceHook(rel);
}

/* pax_buffers.c */
extern bool pax_enable_buffer_guessing;
extern PaxRelCache *PaxGetRelCache(Relation rel, BlockNumber nblocks);
extern void PaxBufferGuessInit(PaxTableScanDesc scan);
extern Buffer PaxReadBuffer(PaxTableScanDesc scan, BlockNumber blkno);
extern void PaxPrefetchBufferHeader(PaxTableScanDesc scan, BlockNumber blkno);
extern void PaxSharedBuffersInit(Relation rel, pg_atomic_uint32 *map,
								 BlockNumber nbufs);
extern void PaxSharedBuffersAttach(PaxTableScanDesc scan,
								   pg_atomic_uint32 *map, BlockNumber nbufs);
extern void PaxSharedBuffersAdopt(Relation rel, pg_atomic_uint32 *map,
								  BlockNumber nbufs);

/* pax_hio.c */
extern Buffer PaxNewPage(Relation rel, struct BulkInsertStateData *bistate);
extern void PaxLockForInsert(Relation rel, Buffer buffer, Buffer *vmbuffer);
extern Buffer PaxTargetPage(Relation rel, struct BulkInsertStateData *bistate,
							Buffer *vmbuffer);
extern Size PaxFsmValue(Relation rel, Page page);
extern int	PaxPageFreeSlots(Page page);
extern bool PaxPageInReserve(Page page, int fillfactor, int nrows);
extern Buffer PaxFreeSpacePage(Relation rel, Size varbytes,
							   BufferAccessStrategy strategy,
							   Buffer *vmbuffer);
extern void PaxFreeSpaceUpdate(Relation rel, Buffer buffer);

#endif							/* PAX_HIO_H */
