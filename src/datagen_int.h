/*-------------------------------------------------------------------------
 *
 * datagen_int.h
 *	  What datagen.c (the pgbench tables) and datagen_par.c (the parallel
 *	  load of pgbench_accounts) share: pgbench's constants, the heap page
 *	  writer, and the seam between the serial and the parallel load.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_DATAGEN_INT_H
#define PGBENCHX_DATAGEN_INT_H

#include "access/htup.h"
#include "access/xlogdefs.h"
#include "access/xloginsert.h"
#include "access/xlogrecord.h"
#include "storage/block.h"
#include "pg_compat.h"
#include "storage/smgr.h"
#include "utils/relcache.h"

#include "datagen.h"

/* pgbench's constants */
#define DATAGEN_NBRANCHES			1
#define DATAGEN_NTELLERS			10
#define DATAGEN_NACCOUNTS			100000
#define DATAGEN_SCALE_32BIT_THRESHOLD 20000

/* pages per write batch: one WAL record of full-page images */
#define DATAGEN_BATCH_PAGES			XLR_MAX_BLOCK_ID
/* with more partitions than this, each one buffers a single page */
#define DATAGEN_MANY_PARTITIONS		16

/* How the rows of a heap are laid out: what a worker needs of its relation. */
typedef struct DatagenPageSpec
{
	bool		use_wal;		/* RelationNeedsWAL() */
	Size		save_free;		/* fillfactor's reserve per page */
	TransactionId xid;			/* xmin of every row (frozen) */
	CommandId	cid;
} DatagenPageSpec;

/* One heap being filled: a batch of pages built in local memory. */
typedef struct DatagenTarget
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
} DatagenTarget;

/* the page writer (datagen.c) */
extern void datagen_target_open(CommandId cid, DatagenTarget *target, Oid relid,
								int max_batch_pages);
extern void datagen_target_adopt(DatagenTarget *target, BlockNumber nblocks,
								 int64 ntuples);
extern void datagen_target_close(DatagenTarget *target);
extern void datagen_target_open_node(DatagenTarget *target, const PgxRelFile *node,
									 const DatagenPageSpec *spec, int max_batch_pages,
									 BlockNumber first_block, bool presized);
extern void datagen_target_close_node(DatagenTarget *target);
extern void datagen_target_flush(DatagenTarget *target);
extern HeapTupleHeader datagen_target_add(DatagenTarget *target,
										  HeapTupleHeader tup, Size len);
extern void datagen_write_pages(SMgrRelation reln, const PgxRelFile *node,
								ForkNumber fork, bool use_wal, bool page_std,
								bool presized, BlockNumber first, int npages,
								char *pages);

/*
 * The parallel load of pgbench_accounts (datagen_par.c): what the serial
 * path of datagen.c has prepared, and how it reports progress.
 */
typedef struct DatagenParInput
{
	const DatagenOptions *opts;
	int			jobs;			/* workers, 2 or more */
	bool		bigcols;		/* aid is bigint */
	CommandId	cid;
	Oid			accounts;		/* pgbench_accounts */
	HeapTuple	template;		/* the row, aid and bid to patch */
	Size		aid_off;		/* offsets of aid and bid in its data */
	Size		bid_off;
	int64		rows_total;
	void		(*progress) (void *arg, int64 rows_done, bool last);
	void	   *progress_arg;
} DatagenParInput;

/* the number of workers the accounts load can use at most with jobs */
extern int	datagen_par_jobs_used(const DatagenOptions *opts, int jobs);
extern void datagen_par_load_accounts(const DatagenParInput *in);

#endif							/* PGBENCHX_DATAGEN_INT_H */
