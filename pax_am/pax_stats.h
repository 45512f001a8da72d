/*-------------------------------------------------------------------------
 *
 * pax_stats.h
 *	  SQL-callable inspection of pax relations.
 *
 * pax_page_stats(), pax_page_columns() and pax_verify() open relations the
 * same way.  pax_verify()'s checks, in pax_verify.c, pax_verify_col.c and
 * pax_verify_index.c, share the state of the call (PaxVerifyContext) and
 * report each problem through PaxVerifyReport.
 *
 * pax_am/pax_stats.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_STATS_H
#define PAX_STATS_H

#include "access/transam.h"
#include "nodes/execnodes.h"
#include "storage/bufmgr.h"
#include "storage/lockdefs.h"
#include "utils/rel.h"

#include "pax_page.h"

/* pax_stats.c */
extern Relation PaxOpenForStats(Oid relid, LOCKMODE lockmode);

/* pax_verify.c, pax_verify_col.c and pax_verify_index.c */

/* Columns of pax_verify's result. */
#define PAX_VERIFY_COLS		4

/* Running state of one pax_verify call. */
typedef struct PaxVerifyContext
{
	Relation	rel;
	TupleDesc	tupdesc;
	BlockNumber nblocks;		/* refreshed when a TID points past it */
	BufferAccessStrategy bstrategy;

	/* valid transaction ID range, refreshed when an ID falls outside */
	FullTransactionId next_fxid;
	TransactionId next_xid;
	FullTransactionId oldest_fxid;	/* oldest datfrozenxid of the cluster */
	FullTransactionId relfrozenfxid;	/* 0:0 when relfrozenxid is not
										 * normal */
	TransactionId relfrozenxid;

	/* valid multixact ID range */
	MultiXactId relminmxid;
	MultiXactId oldest_mxact;
	MultiXactId next_mxact;

	/* layout of the current page, sized for the relation's natts */
	PaxPageLayout *layout;
	bool	   *zone_ok;		/* per column: zone map may be compared */
	FmgrInfo  **zone_cmp;		/* per column: its type's btree comparison
								 * function, once looked up */

	/* where we are, for the report */
	BlockNumber blkno;
	int			row;			/* row index, -1 for page-level problems */
	int			attnum;			/* zero-based column, -1 for none */

	int64		nproblems;		/* rows reported so far */

	/*
	 * The blocks the page pass read (the relation's size when it began),
	 * and those of them it reported problems on, ascending: the index
	 * checks read rows' values only on the others.
	 */
	BlockNumber checked_nblocks;
	Buffer		entry_buffer;	/* pinned for the last index entry checked,
								 * or InvalidBuffer */
	BlockNumber *bad_blocks;
	int			nbad_blocks;
	int			max_bad_blocks;

	PaxIOBlock copy;		/* a block read around the buffer manager */
	ReturnSetInfo *rsinfo;
} PaxVerifyContext;

/* pax_verify_col.c */
extern void PaxVerifyReport(PaxVerifyContext *ctx, const char *fmt,...)
			pg_attribute_printf(2, 3);
extern void PaxVerifyDirectory(PaxVerifyContext *ctx, Page page);
extern void PaxVerifyValues(PaxVerifyContext *ctx, Page page, int row);
extern void PaxVerifyValueArea(PaxVerifyContext *ctx, Page page);

/* pax_verify_xid.c */
typedef enum PaxXidBounds
{
	PAX_XID_OK,
	PAX_XID_IN_FUTURE,			/* >= next xid */
	PAX_XID_BEFORE_CLUSTER,		/* < oldest datfrozenxid */
	PAX_XID_BEFORE_REL			/* < relfrozenxid */
} PaxXidBounds;

extern void PaxVerifyReadXidRange(PaxVerifyContext *ctx);
extern PaxXidBounds PaxVerifyXidBounds(PaxVerifyContext *ctx,
									   TransactionId xid,
									   FullTransactionId *fxid);
extern bool PaxVerifyXminFailed(PaxVerifyContext *ctx, HeapTupleHeader hdr);
extern bool PaxVerifyRowCleared(PaxVerifyContext *ctx, Page page, int row,
								bool unused);
extern char *PaxVerifyValueText(Form_pg_attribute att, Datum value);
extern bool PaxVerifyPageHeader(PaxVerifyContext *ctx, Page page,
								bool report);
extern Buffer PaxVerifyReadBuffer(PaxVerifyContext *ctx, BlockNumber blkno,
								  PaxIOBlock *copy);

/* pax_verify_index.c */
extern void PaxVerifyIndexes(PaxVerifyContext *ctx, bool heapallindexed);

#endif							/* PAX_STATS_H */
