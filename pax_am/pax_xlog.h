/*-------------------------------------------------------------------------
 *
 * pax_xlog.h
 *	  WAL of the pax table access method.
 *
 * pax's resource manager identity and record types, and PaxChange: a page
 * change made on a private copy and logged as the byte ranges it wrote
 * (pax_wal.c), with its redo, mask and description routines.
 *
 * pax_am/pax_xlog.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PAX_XLOG_H
#define PAX_XLOG_H

#include "lib/stringinfo.h"
#include "storage/buf.h"
#include "utils/rel.h"

/*
 * pax's WAL resource manager (pax_logical.c registers it when preloaded):
 * its ID, from the range PostgreSQL leaves to extensions (RM_MIN_CUSTOM_ID
 * .. RM_MAX_CUSTOM_ID), is written into WAL, and changing it makes WAL
 * written before unreadable.  Record types (the info byte's resource
 * manager bits): logical decoding's (pax_logical.c), and page changes
 * (pax_wal.c).
 */
#define PAX_RMGR_ID			138
#define PAX_RMGR_NAME		"pax"
#define XLOG_PAX_INSERT		0x00
#define XLOG_PAX_UPDATE		0x10
#define XLOG_PAX_DELETE		0x20
#define XLOG_PAX_CONFIRM	0x30
#define XLOG_PAX_PAGE		0x40
#define XLOG_PAX_PRUNE		0x50
#define XLOG_PAX_PAGE_ROWS	0x60	/* a new page's image whose rows decode
									 * as inserts (pax_logical.c) */
#define XLOG_PAX_KEEP		0x70	/* nothing: a subtransaction starts
									 * keeping rows (pax_bulk.c), so that
									 * decoding knows its parent */

/*
 * PaxChange (pax_wal.c): a change of one page made on a private copy, with
 * the byte ranges it wrote, logged as a generic WAL record of just those.
 */
/* xl_pax_logical.flags */
#define PAX_XL_SPECULATIVE		0x01	/* INSERT of a speculative insertion */
#define PAX_XL_LAST_IN_MULTI	0x02	/* INSERT: the statement's last rows */
#define PAX_XL_HAS_OLD			0x04	/* UPDATE, DELETE: an old key follows */
#define PAX_XL_SUPER			0x08	/* DELETE: a speculative insertion's
										 * row killed (ON CONFLICT) */
#define PAX_XL_XID				0x10	/* INSERT, PAGE_ROWS: the rows' xid
										 * follows xl_pax_logical (kept rows
										 * placed in a later subtransaction) */

/*
 * xl_pax_prune: the main data of an XLOG_PAX_PRUNE record, a page change
 * (its fragments, as XLOG_PAX_PAGE's) that removes or freezes rows, or
 * moves values: replay first cancels the standby's queries that could
 * still see a row removed (their snapshots' xmin not past horizon), then
 * takes the page's cleanup lock when PAX_XL_CLEANUP_LOCK says the change
 * moved values or freed slots.
 */
#define PAX_XL_CLEANUP_LOCK		0x01

typedef struct xl_pax_prune
{
	TransactionId horizon;		/* or InvalidTransactionId: no conflict */
	uint8		flags;
} xl_pax_prune;

#define SizeOfPaxPrune	(offsetof(xl_pax_prune, flags) + sizeof(uint8))

typedef struct xl_pax_logical
{
	PaxFileLocator locator;		/* the relation's file */
	uint16		ntuples;		/* INSERT: new rows that follow */
	uint8		flags;
} xl_pax_logical;

#define SizeOfPaxLogical	(offsetof(xl_pax_logical, flags) + sizeof(uint8))

/* A record's file locator's parts: a RelFileLocator's names from 16 on. */
#if PG_VERSION_NUM >= 160000
#define PaxLocatorDb(loc)		((loc).dbOid)
#define PaxLocatorRel(loc)		((loc).relNumber)
#define PaxLocatorSpc(loc)		((loc).spcOid)
#else
#define PaxLocatorDb(loc)		((loc).dbNode)
#define PaxLocatorRel(loc)		((loc).relNode)
#define PaxLocatorSpc(loc)		((loc).spcNode)
#endif

/*
 * Byte ranges a PaxChange holds without allocating: a single-row insert
 * names one or two a column (its value, its null bit, its zone map) and
 * one for the row header and the page header.
 */
#define PAX_CHANGE_INLINE_RANGES	64

/* Regions a PaxChange compares with the page when it finishes, at most. */
#define PAX_CHANGE_DIFFS	2

typedef struct PaxChange
{
	Relation	rel;
	Buffer		buffer;
	bool		full;			/* log a full page image */
	bool		cleanup;		/* replay needs the cleanup lock */
	TransactionId horizon;		/* standby conflict horizon, or invalid */
	int			ndiffs;
	uint16		diffs[2 * PAX_CHANGE_DIFFS];	/* offset, length pairs to
												 * compare (PaxChangeDiff) */
	int			nranges;
	int			maxranges;
	uint16	   *ranges;			/* offset, length pairs: inline_ranges
								 * until they outgrow it */
	uint16		inline_ranges[2 * PAX_CHANGE_INLINE_RANGES];
	StringInfo	rows;			/* or NULL; the main data of an
								 * XLOG_PAX_PAGE_ROWS record: the change
								 * is a new page, logged whole, whose rows
								 * logical decoding reads from its image
								 * (PaxLogicalPageRows) */
	PGAlignedBlock copy;		/* the page as changed */
} PaxChange;

/* pax_wal.c */
extern Page PaxChangeStart(PaxChange *chg, Relation rel, Buffer buffer,
						   bool full);
extern void PaxChangeRange(PaxChange *chg, int offset, int length);
extern void PaxChangeDiff(PaxChange *chg, int offset, int length);
extern void PaxChangeDiffPage(PaxChange *chg);
extern void PaxChangeTidMapRow(PaxChange *chg, Page page, int s);
extern void PaxChangeRemoves(PaxChange *chg, bool cleanup,
							 TransactionId horizon);
extern void PaxChangeFinish(PaxChange *chg);
struct XLogReaderState;
extern PGDLLIMPORT bool pax_rmgr_registered;
struct LogicalDecodingContext;
struct XLogRecordBuffer;
typedef void (*PaxDecodeFunc) (struct LogicalDecodingContext *ctx,
							   struct XLogRecordBuffer *buf);
extern void PaxRmgrRegister(PaxDecodeFunc decode);

#endif							/* PAX_XLOG_H */
