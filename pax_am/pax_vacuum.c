/*-------------------------------------------------------------------------
 *
 * pax_vacuum.c
 *	  VACUUM of pax relations: freezing, all-visible pages and the
 *	  visibility map, statistics.
 *
 * Until UPDATE and DELETE exist, the only rows that ever die are those of
 * aborted transactions.  This VACUUM does not reclaim their space yet (the
 * page compaction comes with DELETE); it marks them HEAP_XMIN_INVALID in a
 * WAL-logged change, so that no one needs the commit log for their xmin
 * again and relfrozenxid can advance past it.  It freezes xmins older than
 * the freeze limit, marks pages whose rows are all visible to everyone
 * PD_ALL_VISIBLE (then scans skip per-row visibility checks) and sets their
 * visibility map bits, and updates relpages, reltuples, relallvisible,
 * relfrozenxid, relminmxid and the cumulative statistics.
 *
 * Page changes are one generic WAL record per page; the visibility map bit
 * is set with visibilitymap_set, which logs it as heap does (its redo only
 * sets PD_ALL_VISIBLE on our page and the map bit).  Inserts never add
 * rows to an all-visible page (pax_insert.c), so nothing ever needs to
 * clear a bit yet.
 *
 * Every page is visited, so relfrozenxid can always advance to the oldest
 * xmin left unfrozen.
 *
 * pax_am/pax_vacuum.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/generic_xlog.h"
#include "access/heapam.h"
#include "access/multixact.h"
#include "access/transam.h"
#include "access/visibilitymap.h"
#include "commands/vacuum.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/bufmgr.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "pax_am.h"

/* What VACUUM decided for one row. */
typedef enum PaxVacAction
{
	PAX_VAC_NONE,
	PAX_VAC_FREEZE,				/* set HEAP_XMIN_FROZEN */
	PAX_VAC_INVALIDATE			/* aborted: set HEAP_XMIN_INVALID */
} PaxVacAction;

void
pax_relation_vacuum(Relation rel, VacuumParams *params,
					BufferAccessStrategy bstrategy)
{
	TransactionId oldest_xmin;
	TransactionId freeze_limit;
	MultiXactId oldest_mxact;
	MultiXactId multi_cutoff;
	TransactionId new_frozen_xid;
	BlockNumber nblocks;
	BlockNumber all_visible_pages = 0;
	Buffer		vmbuffer = InvalidBuffer;
	double		live = 0,
				dead = 0,
				frozen = 0,
				invalidated = 0;
	bool		frozenxid_updated;
	bool		minmulti_updated;
	int			elevel = (params->options & VACOPT_VERBOSE) ? INFO : DEBUG2;
	PaxVacAction actions[PAX_MAX_CAPACITY];

	(void) vacuum_set_xid_limits(rel,
								 params->freeze_min_age,
								 params->freeze_table_age,
								 params->multixact_freeze_min_age,
								 params->multixact_freeze_table_age,
								 &oldest_xmin, &oldest_mxact,
								 &freeze_limit, &multi_cutoff);
	new_frozen_xid = oldest_xmin;

	nblocks = RelationGetNumberOfBlocks(rel);
	for (BlockNumber blkno = 0; blkno < nblocks; blkno++)
	{
		Buffer		buffer;
		Page		page;
		uint16		rowhdrs;
		int			nrows;
		bool		all_visible = true;
		bool		all_frozen = true;
		bool		changes = false;
		TransactionId visibility_cutoff = InvalidTransactionId;

		vacuum_delay_point();
		buffer = ReadBufferExtended(rel, MAIN_FORKNUM, blkno, RBM_NORMAL,
									bstrategy);
		LockBuffer(buffer, BUFFER_LOCK_EXCLUSIVE);
		page = BufferGetPage(buffer);
		if (PageIsNew(page))
		{
			/* left by a crash after extension: nothing to do */
			UnlockReleaseBuffer(buffer);
			continue;
		}
		rowhdrs = PaxPageRowHeaders(rel, page, blkno);
		nrows = PaxPageGetHeader(page)->pp_nrows;

		for (int r = 0; r < nrows; r++)
		{
			HeapTupleData tuple;
			HeapTupleHeader hdr = PaxRowHeader(page, rowhdrs, r);
			uint16		infomask_before = hdr->t_infomask;
			TransactionId xmin;

			tuple.t_data = hdr;
			tuple.t_len = PAX_ROWHDR_SIZE;
			tuple.t_tableOid = RelationGetRelid(rel);
			ItemPointerSet(&tuple.t_self, blkno, r + 1);
			actions[r] = PAX_VAC_NONE;

			switch (HeapTupleSatisfiesVacuum(&tuple, oldest_xmin, buffer))
			{
				case HEAPTUPLE_LIVE:
					live += 1;
					xmin = HeapTupleHeaderGetXmin(hdr);
					if (HeapTupleHeaderXminFrozen(hdr))
						break;
					if (TransactionIdIsNormal(xmin) &&
						TransactionIdPrecedes(xmin, freeze_limit))
					{
						actions[r] = PAX_VAC_FREEZE;
						changes = true;
						break;
					}
					all_frozen = false;
					if (!TransactionIdPrecedes(xmin, oldest_xmin))
						all_visible = false;
					else if (!TransactionIdIsValid(visibility_cutoff) ||
							 TransactionIdFollows(xmin, visibility_cutoff))
						visibility_cutoff = xmin;
					if (TransactionIdIsNormal(xmin) &&
						TransactionIdPrecedes(xmin, new_frozen_xid))
						new_frozen_xid = xmin;
					break;
				case HEAPTUPLE_DEAD:
					dead += 1;
					/* the hint bit HTSV may just have set is not durable */
					if ((infomask_before & (HEAP_XMIN_COMMITTED | HEAP_XMIN_INVALID)) !=
						HEAP_XMIN_INVALID)
					{
						actions[r] = PAX_VAC_INVALIDATE;
						changes = true;
					}
					all_visible = all_frozen = false;
					break;
				case HEAPTUPLE_INSERT_IN_PROGRESS:
				case HEAPTUPLE_RECENTLY_DEAD:
				case HEAPTUPLE_DELETE_IN_PROGRESS:
					live += 1;
					all_visible = all_frozen = false;
					xmin = HeapTupleHeaderGetXmin(hdr);
					if (TransactionIdIsNormal(xmin) &&
						TransactionIdPrecedes(xmin, new_frozen_xid))
						new_frozen_xid = xmin;
					break;
			}
		}

		if (changes || (all_visible && nrows > 0 && !PageIsAllVisible(page)))
		{
			GenericXLogState *state = GenericXLogStart(rel);
			Page		copy = GenericXLogRegisterBuffer(state, buffer, 0);

			for (int r = 0; r < nrows; r++)
			{
				HeapTupleHeader hdr = PaxRowHeader(copy, rowhdrs, r);

				if (actions[r] == PAX_VAC_FREEZE)
				{
					HeapTupleHeaderSetXminFrozen(hdr);
					frozen += 1;
				}
				else if (actions[r] == PAX_VAC_INVALIDATE)
				{
					hdr->t_infomask &= ~HEAP_XMIN_COMMITTED;
					hdr->t_infomask |= HEAP_XMIN_INVALID;
					invalidated += 1;
				}
			}
			if (all_visible && nrows > 0)
				PageSetAllVisible(copy);
			GenericXLogFinish(state);
		}

		if (all_visible && nrows > 0)
		{
			uint8		flags = VISIBILITYMAP_ALL_VISIBLE;

			if (all_frozen)
				flags |= VISIBILITYMAP_ALL_FROZEN;
			visibilitymap_pin(rel, blkno, &vmbuffer);
			if ((visibilitymap_get_status(rel, blkno, &vmbuffer) & flags) != flags)
				visibilitymap_set(rel, blkno, buffer, InvalidXLogRecPtr,
								  vmbuffer, visibility_cutoff, flags);
			all_visible_pages++;
		}
		UnlockReleaseBuffer(buffer);
	}
	if (BufferIsValid(vmbuffer))
		ReleaseBuffer(vmbuffer);

	vac_update_relstats(rel, nblocks, live, all_visible_pages, false,
						new_frozen_xid, oldest_mxact,
						&frozenxid_updated, &minmulti_updated, false);
	pgstat_report_vacuum(RelationGetRelid(rel), rel->rd_rel->relisshared,
						 (PgStat_Counter) live, (PgStat_Counter) dead);

	ereport(elevel,
			(errmsg("vacuuming \"%s.%s\": %u pages, %u all-visible; %.0f live rows, %.0f dead rows of aborted transactions (%.0f newly marked); %.0f rows frozen",
					get_namespace_name(RelationGetNamespace(rel)),
					RelationGetRelationName(rel),
					nblocks, all_visible_pages, live, dead, invalidated, frozen),
			 errdetail("Space of dead rows is not reclaimed yet.")));
}
