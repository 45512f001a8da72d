/*-------------------------------------------------------------------------
 *
 * pax_buffers.c
 *	  Pinning the blocks of a pax table scan: the backend's recent-buffer
 *	  map, and guessing a block's buffer to skip the buffer mapping table.
 *
 * After pushdown made a scan's per-row work small, looking each block up
 * in the shared buffer mapping table was most of a scan's time.  So every
 * backend remembers, per relation (PaxRelCache in rd_amcache), the buffer
 * that last held each block, and a scan first tries that buffer with
 * ReadRecentBuffer, which only checks the buffer's tag.  A block not seen
 * yet is guessed to sit in the buffer after the previous block's, as
 * tables read in order tend to (pg_prewarm, a load, a scan into free
 * buffers), while such guesses keep coming true.  Parallel participants
 * share what they find through a map in the parallel DSM (pax_customscan_plan.c
 * places it there; the PaxSharedBuffers* functions below fill, attach and
 * adopt it).
 *
 * The guessing is a heuristic (provisional) and can be turned off with
 * pax.enable_buffer_guessing: every block then goes through
 * ReadBufferExtended and the mapping table, as heap's scans do.
 *
 * Locking: none; a guess is checked by ReadRecentBuffer under the buffer
 * header lock, and a wrong one costs only the lookup it meant to save.
 *
 * pax_am/pax_buffers.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "pgstat.h"
#include "storage/buf_internals.h"
#include "storage/bufmgr.h"
#include "utils/memutils.h"
#include "utils/rel.h"

#include "pax_relscan.h"
#include "pax_hio.h"

/* GUC pax.enable_buffer_guessing (registered in pax_am.c) */
bool		pax_enable_buffer_guessing = true;

/* Scans this backend started, for PAX_USAGE_REFRESH's rotation. */
static uint32 pax_scan_count = 0;

/*
 * PaxGetRelCache returns the relation's backend-local cache, made room for
 * nblocks recent buffers (within PAX_RECENT_BUFFERS_MAX).  The pointer is
 * good until the next relcache rebuild: callers fetch it again each time.
 */
PaxRelCache *
PaxGetRelCache(Relation rel, BlockNumber nblocks)
{
	PaxRelCache *cache = (PaxRelCache *) rel->rd_amcache;

	nblocks = Min(nblocks, PAX_RECENT_BUFFERS_MAX);
	if (cache == NULL || cache->nbufs < nblocks)
	{
		Size		size = offsetof(PaxRelCache, bufs) + nblocks * sizeof(Buffer);
		PaxRelCache *grown = MemoryContextAllocZero(CacheMemoryContext, size);

		if (cache != NULL)
		{
			memcpy(grown, cache, offsetof(PaxRelCache, bufs) +
				   cache->nbufs * sizeof(Buffer));
			pfree(cache);
		}
		grown->nbufs = nblocks;
		rel->rd_amcache = cache = grown;
	}
	return cache;
}

/*
 * PaxBufferGuessInit starts a scan's buffer guessing afresh: full credit
 * for guesses, and this scan's share of blocks that refresh their usage
 * count (PAX_USAGE_REFRESH), a different share each scan.
 */
void
PaxBufferGuessInit(PaxTableScanDesc scan)
{
	scan->rs_guess_credit = PAX_GUESS_CREDIT;
	scan->rs_refresh = pax_scan_count++ % PAX_USAGE_REFRESH;
}

/*
 * PaxShareBuffer records a buffer a parallel scan found for a block in the
 * participants' shared map.  They read disjoint blocks, so no two write
 * one entry.
 */
static inline void
PaxShareBuffer(PaxTableScanDesc scan, BlockNumber blkno, Buffer buffer)
{
	if (blkno < scan->rs_nsharedbufs)
		pg_atomic_write_u32(&scan->rs_sharedbufs[blkno], (uint32) buffer);
}

/*
 * PaxGuessBuffer returns the buffer block blkno is likely in, or
 * InvalidBuffer (then the block is looked up).  Sets *guessed when the
 * buffer is a guess (the one after the previous block's) rather than one
 * seen holding the block.
 */
static Buffer
PaxGuessBuffer(PaxTableScanDesc scan, PaxRelCache *cache, BlockNumber blkno,
			   bool *guessed)
{
	Buffer		prev;

	*guessed = false;
	if (blkno >= cache->nbufs || blkno % PAX_USAGE_REFRESH == scan->rs_refresh)
		return InvalidBuffer;
	if (BufferIsValid(cache->bufs[blkno]))
		return cache->bufs[blkno];

	/*
	 * Not seen yet: try the buffer after the previous block's while such
	 * guesses keep coming true (and one block in PAX_GUESS_RETRY when they
	 * stopped).
	 */
	if (blkno == 0)
		return InvalidBuffer;
	prev = cache->bufs[blkno - 1];
	if (prev > 0 && prev < NBuffers &&
		(scan->rs_guess_credit > 0 || blkno % PAX_GUESS_RETRY == 0))
	{
		*guessed = true;
		return prev + 1;
	}
	return InvalidBuffer;
}

/*
 * PaxReadBuffer pins block blkno for a scan and returns its buffer: the
 * buffer that held it last time if it still does (ReadRecentBuffer
 * checks), or the buffer after the previous block's, else through the
 * buffer mapping table, remembering the buffer for the next scan.  Every
 * PAX_USAGE_REFRESH-th block takes the lookup anyway.  With
 * pax.enable_buffer_guessing off, every block takes it.
 */
Buffer
PaxReadBuffer(PaxTableScanDesc scan, BlockNumber blkno)
{
	Relation	rel = scan->rs_base.rs_rd;
	PaxRelCache *cache;
	Buffer		buffer;
	Buffer		guess;
	bool		guessed;

	if (!pax_enable_buffer_guessing)
		return ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
								  scan->rs_strategy);

	cache = PaxGetRelCache(rel, scan->rs_nblocks);
	guess = PaxGuessBuffer(scan, cache, blkno, &guessed);
	if (BufferIsValid(guess) &&
		ReadRecentBuffer(PaxRelationFile(rel), MAIN_FORKNUM, blkno, guess))
	{
		/* the per-relation counters ReadBufferExtended would have kept */
		pgstat_count_buffer_read(rel);
		pgstat_count_buffer_hit(rel);
		cache->bufs[blkno] = guess;
		if (guessed)
		{
			scan->rs_guess_credit = PAX_GUESS_CREDIT;
			PaxShareBuffer(scan, blkno, guess);
		}
		return guess;
	}
	if (guessed && scan->rs_guess_credit > 0)
		scan->rs_guess_credit--;
	buffer = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
								scan->rs_strategy);
	/* the cache may have been rebuilt meanwhile: fetch it again */
	cache = PaxGetRelCache(rel, scan->rs_nblocks);
	if (blkno < cache->nbufs)
		cache->bufs[blkno] = buffer;
	PaxShareBuffer(scan, blkno, buffer);
	return buffer;
}

/*
 * PaxPrefetchBufferHeader asks the CPU to start loading the buffer
 * descriptor that pinning block blkno will try (PaxGuessBuffer's: the
 * recent buffer, or the one after the previous block's), a page before the
 * pin: pinning locks
 * the descriptor's state word, and with pushdown done, that cache miss was
 * a good part of a scan's time per page (PostgreSQL 18's ReadRecentBuffer
 * locks the header before it pins).  A prefetch of a stale guess is
 * harmless: it only loads a cache line.
 */
void
PaxPrefetchBufferHeader(PaxTableScanDesc scan, BlockNumber blkno)
{
	PaxRelCache *cache = (PaxRelCache *) scan->rs_base.rs_rd->rd_amcache;
	Buffer		buffer;
	bool		guessed;

	if (!pax_enable_buffer_guessing || cache == NULL)
		return;
	buffer = PaxGuessBuffer(scan, cache, blkno, &guessed);
	if (buffer > 0 && buffer <= NBuffers)
		__builtin_prefetch(GetBufferDescriptor(buffer - 1), 1);
}

/* ----------------------------------------------------------------
 * The shared map of a parallel scan
 * ----------------------------------------------------------------
 * A parallel PaxScan shares a map of block to buffer among its
 * participants (see PaxScanShared in pax_customscan.h): nbufs entries of
 * pg_atomic_uint32, each a Buffer or 0.  Entries are hints only, checked by
 * ReadRecentBuffer, so they are read and written without locks.
 */

/*
 * PaxSharedBuffersInit fills a new shared map from this backend's recent
 * buffers of rel (the leader's), 0 where it knows none.
 */
void
PaxSharedBuffersInit(Relation rel, pg_atomic_uint32 *map, BlockNumber nbufs)
{
	PaxRelCache *cache = (PaxRelCache *) rel->rd_amcache;
	BlockNumber known = cache != NULL ? Min(cache->nbufs, nbufs) : 0;

	for (BlockNumber b = 0; b < nbufs; b++)
		pg_atomic_init_u32(&map[b], b < known ? (uint32) cache->bufs[b] : 0);
}

/*
 * PaxSharedBuffersAttach points a scan at a shared map, so that
 * PaxReadBuffer records there the buffers it finds; a NULL map detaches it.
 */
void
PaxSharedBuffersAttach(PaxTableScanDesc scan, pg_atomic_uint32 *map,
					   BlockNumber nbufs)
{
	scan->rs_sharedbufs = map;
	scan->rs_nsharedbufs = map != NULL ? nbufs : 0;
}

/*
 * PaxSharedBuffersAdopt copies the buffers a shared map knows into this
 * backend's recent buffers of rel: a worker starts from the leader's, and
 * the leader keeps what all participants found.
 */
void
PaxSharedBuffersAdopt(Relation rel, pg_atomic_uint32 *map, BlockNumber nbufs)
{
	PaxRelCache *cache = PaxGetRelCache(rel, nbufs);
	BlockNumber n = Min(cache->nbufs, nbufs);

	for (BlockNumber b = 0; b < n; b++)
	{
		Buffer		buf = (Buffer) pg_atomic_read_u32(&map[b]);

		if (BufferIsValid(buf))
			cache->bufs[b] = buf;
	}
}
