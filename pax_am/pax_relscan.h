/*-------------------------------------------------------------------------
 *
 * pax_relscan.h
 *	  The table AM scan descriptor of pax.
 *
 * As access/relscan.h for heap: the state of a table scan, shared by the
 * scan code, the visibility fast path and buffer guessing.
 *
 * pax_am/pax_relscan.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_RELSCAN_H
#define PAX_RELSCAN_H

#include "access/relscan.h"
#include "port/atomics.h"

#include "pax_encoding.h"

/* Scan state: the table AM scan descriptor of pax. */
typedef struct PaxTableScanDescData
{
	TableScanDescData rs_base;	/* AM independent part of the descriptor */

	BufferAccessStrategy rs_strategy;	/* bulk-read ring, or NULL */
	BlockNumber rs_nblocks;		/* blocks in the relation at scan start */
	BlockNumber rs_startblock;	/* block to start at */
	BlockNumber rs_numblocks;	/* max blocks to scan (TID range / limit) */
	bool		rs_inited;		/* false = scan not started yet */
	BlockNumber rs_cblock;		/* current block */
	Buffer		rs_cbuf;		/* current buffer (pinned), or Invalid */
	Buffer		rs_nextbuf;		/* next block, pinned ahead, or Invalid */
	int			rs_cindex;		/* index into rs_vis of the current row */
	int			rs_nvis;		/* visible rows of the current page */
	OffsetNumber rs_vis[PAX_MAX_CAPACITY];	/* their row indexes, ascending */
	bool		rs_conflict_check;	/* check SSI conflicts out per row */

	/* parallel scans */
	ParallelBlockTableScanWorkerData *rs_pbsw;
	BlockNumber rs_pnext;		/* block claimed ahead from the shared
								 * allocator, or Invalid */
	pg_atomic_uint32 *rs_sharedbufs;	/* the participants' recent-buffer
										 * map in the parallel DSM, or NULL */
	BlockNumber rs_nsharedbufs; /* its length */
	int			rs_guess_credit;	/* wrong guesses of a block's buffer
									 * left before guessing pauses */
	uint32		rs_refresh;		/* blocks with this remainder modulo
								 * PAX_USAGE_REFRESH skip ReadRecentBuffer */
} PaxTableScanDescData;

typedef PaxTableScanDescData *PaxTableScanDesc;

#endif							/* PAX_RELSCAN_H */
