/*-------------------------------------------------------------------------
 *
 * heapwrite.h
 *	  The heap page writer (heapwrite.c): frozen, all-visible pages built in
 *	  local memory and written through smgr, into a relation this
 *	  transaction created or, in a parallel worker, into its file.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_HEAPWRITE_H
#define PGBENCHX_HEAPWRITE_H

#include "access/htup.h"
#include "access/xlogdefs.h"
#include "access/xloginsert.h"
#include "access/xlogrecord.h"
#include "storage/block.h"
#include "pg_compat.h"
#include "storage/smgr.h"
#include "utils/relcache.h"

/* pages per write batch: one WAL record of full-page images */
#define HEAPWRITE_BATCH_PAGES			XLR_MAX_BLOCK_ID

/* How the rows of a heap are laid out: what a worker needs of its relation. */
typedef struct HeapwritePageSpec
{
	bool		use_wal;		/* RelationNeedsWAL() */
	Size		save_free;		/* fillfactor's reserve per page */
	TransactionId xid;			/* xmin of every row (frozen) */
	CommandId	cid;
} HeapwritePageSpec;

/* One heap being filled: a batch of pages built in local memory. */
typedef struct HeapwriteTarget
{
	Relation	rel;			/* NULL in a parallel worker */
	SMgrRelation smgr;			/* a worker's: the file of node */
	PgxRelFile node;			/* a worker's */
	bool		presized;		/* a worker's: smgrwrite, not smgrextend */
	bool		use_wal;		/* RelationNeedsWAL() */
	Size		save_free;		/* fillfactor's reserve per page */
	TransactionId xid;
	CommandId	cid;
	int			max_pages;		/* pages per batch */
	int			npages;			/* pages in the batch, the last one open */
	char	   *pages;			/* max_pages * BLCKSZ */
	BlockNumber nblocks;		/* pages already written */
	int64		ntuples;		/* tuples in the batch */
} HeapwriteTarget;

/* the page writer */
extern void heapwrite_open(CommandId cid, HeapwriteTarget *target, Oid relid,
						   int max_batch_pages);
extern void heapwrite_adopt(HeapwriteTarget *target, BlockNumber nblocks,
							int64 ntuples);
extern void heapwrite_close(HeapwriteTarget *target);
extern void heapwrite_open_node(HeapwriteTarget *target, const PgxRelFile *node,
								const HeapwritePageSpec *spec, int max_batch_pages,
								BlockNumber first_block, bool presized);
extern void heapwrite_close_node(HeapwriteTarget *target);
extern void heapwrite_flush(HeapwriteTarget *target);
extern HeapTupleHeader heapwrite_add(HeapwriteTarget *target,
									 HeapTupleHeader tup, Size len);
extern void heapwrite_add_values(HeapwriteTarget *target, Datum *values,
								 bool *nulls);
extern void heapwrite_pages(SMgrRelation reln, const PgxRelFile *node,
							ForkNumber fork, bool use_wal, bool page_std,
							bool presized, BlockNumber first, int npages,
							char *pages);

#endif							/* PGBENCHX_HEAPWRITE_H */
