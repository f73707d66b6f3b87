/*-------------------------------------------------------------------------
 *
 * datagen_par.c
 *	  pgbench_init's parallel load of pgbench_accounts: the leader (the
 *	  caller's backend) and its generator background workers.
 *
 * The workers write the pages datagen.c's serial path would write, page for
 * page, into the files of relations the caller's transaction created; they
 * connect to no database and open the files through smgr by RelFileNode.
 * Everything they need (the template row, the page layout, the files, the
 * hash partitioning) is computed by the leader and handed over in one DSM
 * segment laid out with shm_toc, with a state, a row count and an error
 * text per worker.
 *
 *	- Plain table: every page holds the same number of rows (one row size,
 *	  one fill rule), so aid k sits at block (k-1) / rows_per_page, offset
 *	  (k-1) % rows_per_page + 1.  Worker i writes blocks
 *	  [nblocks * i / jobs, nblocks * (i+1) / jobs) and checks every TID
 *	  against that arithmetic; the leader builds the primary key from the
 *	  same arithmetic meanwhile (btload.c), needing no heap page.  Several
 *	  processes then write one file: md.c's mdextend() of a block in a new
 *	  1 GB segment zero-fills the last block of a short previous segment,
 *	  which could overwrite a block another worker has just written.  So the
 *	  leader sizes the file first (the last block of each segment, in order,
 *	  then the last block), and the workers only smgrwrite() into it.
 *	- Range partitions: worker i fills partitions i, i + jobs, ... each
 *	  alone, extending it as the serial path does.
 *	- Hash partitions: worker i owns partitions i, i + jobs, ...; it hashes
 *	  every aid as the executor routes it (hashint4/8extended with the
 *	  partitioning seed, which the leader checks is the key's function) and
 *	  keeps the rows of its partitions, in aid order.
 *
 * Durability is the serial path's: each batch is WAL-logged (when the
 * relation needs WAL) as full-page images under DELAY_CHKPT_START by the
 * worker that writes it, and its segments are queued for the
 * checkpointer's fsync; with wal_level = minimal nothing is logged and the
 * caller's commit fsyncs the whole files (smgrDoPendingSyncs reads their
 * size from the files, so it counts the workers' blocks).  The visibility
 * map, the statistics and the index are the leader's.
 *
 * Failure: the leader checks its workers between batches of its own work
 * and while it waits (WaitLatch, CHECK_FOR_INTERRUPTS); a worker that
 * failed, or stopped without finishing (terminated, or never started),
 * fails the call.  Before any error leaves the load, and from a
 * before_shmem_exit callback if the backend exits (FATAL), the leader
 * terminates its workers and waits until they are gone: the abort of the
 * caller's transaction unlinks the files they write.
 *
 * This file owns the parallel load; the page format is datagen.c's.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/partition.h"
#include "common/hashfn.h"
#include "miscadmin.h"
#include "partitioning/partbounds.h"
#include "partitioning/partdesc.h"
#include "pgstat.h"
#include "port/atomics.h"
#include "postmaster/bgworker.h"
#include "storage/bufpage.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/fmgroids.h"
#include "utils/fmgrprotos.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/wait_event.h"

#include "btload.h"
#include "datagen_par.h"
#include "heapwrite.h"
#include "worker.h"

#define PAR_MAGIC			0x70677069	/* "pgpi" */
#define PAR_KEY_SHARED		1
#define PAR_KEY_WORKERS		2
#define PAR_KEY_PARTS		3
#define PAR_KEY_INDEXES		4
#define PAR_KEY_TUPLE		5
#define PAR_ERROR_LEN		256
/* rows between a worker's progress updates and interrupt checks */
#define PAR_ROWS_MASK		0x3FFF
/* the fewest rows a worker gets on a plain table */
#define PAR_MIN_ROWS_PER_JOB	1000
#define PAR_WORKER_TYPE		"pgbenchx init worker"

typedef enum ParMode
{
	PAR_PLAIN,
	PAR_RANGE,
	PAR_HASH
} ParMode;

typedef enum ParState
{
	PAR_STARTING,
	PAR_RUNNING,
	PAR_DONE,
	PAR_FAILED
} ParState;

/* One worker's slot: its work (plain), its state and progress. */
typedef struct ParWorker
{
	pg_atomic_uint32 state;		/* ParState */
	pg_atomic_uint64 rows_done;
	BlockNumber first_block;	/* plain: blocks [first_block, end_block) */
	BlockNumber end_block;
	char		error[PAR_ERROR_LEN];
} ParWorker;

/* One partition: its file, and what its worker wrote into it. */
typedef struct ParPart
{
	PgxRelFile node;
	BlockNumber nblocks;
	int64		ntuples;
} ParPart;

typedef struct ParShared
{
	ParMode		mode;
	int			njobs;
	int			nparts;
	int			nindexes;		/* hash: the partition bounds' modulus */
	bool		bigcols;
	HeapwritePageSpec spec;
	int			batch_pages;	/* pages each target buffers */
	int			rows_per_page;	/* plain */
	BlockNumber nblocks;		/* plain */
	PgxRelFile node;			/* plain */
	int64		rows_total;
	int64		part_size;		/* range */
	Size		aid_off;
	Size		bid_off;
	uint32		tuple_len;
	char		wal_compression[32];
} ParShared;

/* A worker's view of the segment. */
typedef struct ParView
{
	ParShared  *sh;
	ParWorker  *workers;
	ParPart    *parts;
	int		   *indexes;
	HeapTupleHeader tuple;
} ParView;

/* the leader's workers, for the error and exit paths */
static BackgroundWorkerHandle **par_handles = NULL;
static int	par_nhandles = 0;
static bool par_exit_registered = false;

/*
 * Terminate the leader's workers and wait until they are all gone, with
 * interrupts held by the caller or during exit: nothing may be left writing
 * into files the abort is about to unlink.  A postmaster death ends the
 * wait (the workers die with it).
 */
static void
par_stop_workers(void)
{
	for (int i = 0; i < par_nhandles; i++)
		TerminateBackgroundWorker(par_handles[i]);
	for (int i = 0; i < par_nhandles; i++)
	{
		for (;;)
		{
			pid_t		pid;
			BgwHandleStatus st = GetBackgroundWorkerPid(par_handles[i], &pid);
			int			rc;

			if (st == BGWH_STOPPED || st == BGWH_POSTMASTER_DIED)
				break;
			rc = WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_POSTMASTER_DEATH,
						   10L, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			if (rc & WL_POSTMASTER_DEATH)
				break;
		}
	}
	for (int i = 0; i < par_nhandles; i++)
		pfree(par_handles[i]);
	par_nhandles = 0;
}

static void
par_on_exit(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	if (par_nhandles > 0)
		par_stop_workers();
}

/*
 * Rows per page of a plain table: heapwrite_add()'s rule (the rule of
 * heap_multi_insert) applied to rows of len bytes until the page is full.
 */
static int
par_rows_per_page(Size len, Size save_free)
{
	PGAlignedBlock buf;
	Page		page = (Page) buf.data;
	Size		alen = MAXALIGN(len);
	int			n = 0;

	PageInit(page, BLCKSZ, 0);
	for (;;)
	{
		PageHeader	phdr = (PageHeader) page;
		OffsetNumber off;

		if (n > 0 && PageGetHeapFreeSpace(page) < alen + save_free)
			break;
		off = PageGetMaxOffsetNumber(page) + 1;
		phdr->pd_upper -= alen;
		ItemIdSetNormal(PageGetItemId(page, off), phdr->pd_upper, len);
		phdr->pd_lower += sizeof(ItemIdData);
		n++;
	}
	return n;
}

/*
 * Size the file of rel to nblocks before several workers write it: the last
 * block of every full 1 GB segment, in order, then the last block, all
 * zeroes (each is overwritten by its worker).  Then no write of a worker
 * creates a segment, and md.c never pads one behind another's back.
 */
static void
par_presize(Relation rel, BlockNumber nblocks)
{
	PGAlignedBlock zero;

	memset(zero.data, 0, BLCKSZ);
	for (BlockNumber seg_end = RELSEG_SIZE; seg_end < nblocks; seg_end += RELSEG_SIZE)
		smgrextend(RelationGetSmgr(rel), MAIN_FORKNUM, seg_end - 1, zero.data, true);
	smgrextend(RelationGetSmgr(rel), MAIN_FORKNUM, nblocks - 1, zero.data, true);
}

/* the partition an aid goes to, as compute_partition_hash_value() says */
static inline uint64
par_hash(bool int8key, int64 aid)
{
	Datum		h;

	if (int8key)
		h = DirectFunctionCall2(hashint8extended, Int64GetDatum(aid),
								UInt64GetDatum(HASH_PARTITION_SEED));
	else
		h = DirectFunctionCall2(hashint4extended, Int32GetDatum((int32) aid),
								UInt64GetDatum(HASH_PARTITION_SEED));
	return hash_combine64(0, DatumGetUInt64(h));
}

int
datagen_par_jobs_used(const DatagenOptions *opts, int jobs)
{
	int64		rows = (int64) DATAGEN_NACCOUNTS * opts->scale;

	if (jobs <= 1)
		return 1;
	if (opts->partitions > 0)
		return Min(jobs, opts->partitions);
	return (int) Max(1, Min((int64) jobs, rows / PAR_MIN_ROWS_PER_JOB));
}

/* ---------------------------------------------------------------------
 * The worker
 * ---------------------------------------------------------------------
 */

/* Append the row of aid to target: the template with aid and bid patched. */
static inline HeapTupleHeader
par_add_row(const ParView *v, HeapwriteTarget *target, int64 aid)
{
	HeapTupleHeader tup;
	char	   *data;
	int32		bid = (int32) ((aid - 1) / DATAGEN_NACCOUNTS + 1);

	tup = heapwrite_add(target, v->tuple, v->sh->tuple_len);
	data = (char *) tup + tup->t_hoff;
	if (v->sh->bigcols)
		memcpy(data + v->sh->aid_off, &aid, sizeof(int64));
	else
	{
		int32		aid32 = (int32) aid;

		memcpy(data + v->sh->aid_off, &aid32, sizeof(int32));
	}
	memcpy(data + v->sh->bid_off, &bid, sizeof(int32));
	return tup;
}

static void
par_fill_plain(const ParView *v, ParWorker *me)
{
	const ParShared *sh = v->sh;
	HeapwriteTarget target;
	int64		first = (int64) me->first_block * sh->rows_per_page + 1;
	int64		last = Min((int64) me->end_block * sh->rows_per_page, sh->rows_total);

	heapwrite_open_node(&target, &sh->node, &sh->spec, sh->batch_pages,
						me->first_block, true);
	for (int64 aid = first; aid <= last; aid++)
	{
		HeapTupleHeader tup = par_add_row(v, &target, aid);

		/* the leader's index points where the arithmetic says */
		if (ItemPointerGetBlockNumberNoCheck(&tup->t_ctid) !=
			(BlockNumber) ((aid - 1) / sh->rows_per_page) ||
			ItemPointerGetOffsetNumberNoCheck(&tup->t_ctid) !=
			(OffsetNumber) ((aid - 1) % sh->rows_per_page + 1))
			elog(ERROR, "pgbench_accounts row " INT64_FORMAT " is not where the index expects it", aid);
		if ((aid & PAR_ROWS_MASK) == 0)
		{
			pg_atomic_write_u64(&me->rows_done, aid - first + 1);
			CHECK_FOR_INTERRUPTS();
		}
	}
	heapwrite_close_node(&target);
	if (target.nblocks != me->end_block)
		elog(ERROR, "pgbench_accounts worker wrote up to block %u, expected %u",
			 target.nblocks, me->end_block);
	pg_atomic_write_u64(&me->rows_done, last - first + 1);
}

static void
par_fill_range(const ParView *v, ParWorker *me, int index)
{
	const ParShared *sh = v->sh;
	int64		done = 0;

	for (int p = index; p < sh->nparts; p += sh->njobs)
	{
		HeapwriteTarget target;
		int64		first = p * sh->part_size + 1;
		int64		last = Min((p + 1) * sh->part_size, sh->rows_total);

		if (first > last)
			continue;
		heapwrite_open_node(&target, &v->parts[p].node, &sh->spec,
							sh->batch_pages, 0, false);
		for (int64 aid = first; aid <= last; aid++)
		{
			(void) par_add_row(v, &target, aid);
			if ((aid & PAR_ROWS_MASK) == 0)
			{
				pg_atomic_write_u64(&me->rows_done, done + aid - first + 1);
				CHECK_FOR_INTERRUPTS();
			}
		}
		heapwrite_close_node(&target);
		v->parts[p].nblocks = target.nblocks;
		v->parts[p].ntuples = last - first + 1;
		done += last - first + 1;
		pg_atomic_write_u64(&me->rows_done, done);
	}
}

static void
par_fill_hash(const ParView *v, ParWorker *me, int index)
{
	const ParShared *sh = v->sh;
	HeapwriteTarget **targets = palloc0(sizeof(HeapwriteTarget *) * sh->nparts);
	int64		done = 0;

	for (int p = index; p < sh->nparts; p += sh->njobs)
	{
		targets[p] = palloc(sizeof(HeapwriteTarget));
		heapwrite_open_node(targets[p], &v->parts[p].node, &sh->spec,
							sh->batch_pages, 0, false);
		v->parts[p].ntuples = 0;
	}
	for (int64 aid = 1; aid <= sh->rows_total; aid++)
	{
		int			p = v->indexes[par_hash(sh->bigcols, aid) % sh->nindexes];

		if (targets[p] != NULL)
		{
			(void) par_add_row(v, targets[p], aid);
			v->parts[p].ntuples++;
			done++;
		}
		if ((aid & PAR_ROWS_MASK) == 0)
		{
			pg_atomic_write_u64(&me->rows_done, done);
			CHECK_FOR_INTERRUPTS();
		}
	}
	for (int p = index; p < sh->nparts; p += sh->njobs)
	{
		heapwrite_close_node(targets[p]);
		v->parts[p].nblocks = targets[p]->nblocks;
	}
	pg_atomic_write_u64(&me->rows_done, done);
}

void
datagen_par_worker_main(Datum main_arg)
{
	dsm_segment *seg;
	shm_toc    *toc;
	ParView		v;
	ParWorker  *me;
	int			index;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	/* no database: only an entry in pg_stat_activity under our backend type */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);
	memcpy(&index, MyBgworkerEntry->bgw_extra, sizeof(int));

	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pgbenchx init worker could not attach to its shared memory"),
				 errdetail("The pgbench_init call that started it has ended.")));
	toc = shm_toc_attach(PAR_MAGIC, dsm_segment_address(seg));
	if (toc == NULL)
		elog(ERROR, "bad magic number in pgbenchx init worker's shared memory");
	v.sh = shm_toc_lookup(toc, PAR_KEY_SHARED, false);
	v.workers = shm_toc_lookup(toc, PAR_KEY_WORKERS, false);
	v.parts = shm_toc_lookup(toc, PAR_KEY_PARTS, true);
	v.indexes = shm_toc_lookup(toc, PAR_KEY_INDEXES, true);
	v.tuple = palloc(v.sh->tuple_len);
	memcpy(v.tuple, shm_toc_lookup(toc, PAR_KEY_TUPLE, false), v.sh->tuple_len);
	if (index < 0 || index >= v.sh->njobs)
		elog(ERROR, "pgbenchx init worker %d of %d", index, v.sh->njobs);
	me = &v.workers[index];
	pg_atomic_write_u32(&me->state, PAR_RUNNING);
	pgstat_report_activity(STATE_RUNNING, "generating pgbench_accounts");

	PG_TRY();
	{
		/* the leader's WAL compression for the images of our pages */
		SetConfigOption("wal_compression", v.sh->wal_compression,
						PGC_SUSET, PGC_S_OVERRIDE);
		switch (v.sh->mode)
		{
			case PAR_PLAIN:
				par_fill_plain(&v, me);
				break;
			case PAR_RANGE:
				par_fill_range(&v, me, index);
				break;
			case PAR_HASH:
				par_fill_hash(&v, me, index);
				break;
		}
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		strlcpy(me->error, edata->message, PAR_ERROR_LEN);
		pg_atomic_write_u32(&me->state, PAR_FAILED);
		PG_RE_THROW();
	}
	PG_END_TRY();

	pg_atomic_write_u32(&me->state, PAR_DONE);
	dsm_detach(seg);
	proc_exit(0);
}

/* ---------------------------------------------------------------------
 * The leader
 * ---------------------------------------------------------------------
 */

/*
 * Fail if a worker failed or stopped without finishing; return whether all
 * are done, and the rows they have written in *rows_done.
 */
static bool
par_check_workers(const ParView *v, int64 *rows_done)
{
	bool		all_done = true;

	*rows_done = 0;
	for (int i = 0; i < v->sh->njobs; i++)
	{
		ParWorker  *w = &v->workers[i];
		uint32		st = pg_atomic_read_u32(&w->state);

		if (st == PAR_RUNNING || st == PAR_STARTING)
		{
			pid_t		pid;
			BgwHandleStatus hs = GetBackgroundWorkerPid(par_handles[i], &pid);

			if (hs == BGWH_STOPPED || hs == BGWH_POSTMASTER_DIED)
			{
				/* it may have finished between the two reads */
				st = pg_atomic_read_u32(&w->state);
				if (st != PAR_DONE && st != PAR_FAILED)
					ereport(ERROR,
							(errcode(ERRCODE_SYSTEM_ERROR),
							 errmsg("pgbench_init worker %d of %d stopped before finishing",
									i + 1, v->sh->njobs),
							 errdetail("It was terminated, or could not start; the tables are left as they were."),
							 errhint("Run pgbench_init again, or pass jobs => 1 to generate in this session only.")));
			}
		}
		if (st == PAR_FAILED)
			ereport(ERROR,
					(errcode(ERRCODE_SYSTEM_ERROR),
					 errmsg("pgbench_init worker %d of %d failed", i + 1, v->sh->njobs),
					 errdetail("The worker reported: %s", w->error),
					 errhint("Run pgbench_init again, or pass jobs => 1 to generate in this session only.")));
		if (st != PAR_DONE)
			all_done = false;
		*rows_done += (int64) pg_atomic_read_u64(&w->rows_done);
	}
	return all_done;
}

static void
par_start_workers(dsm_segment *seg, int njobs)
{
	if (!par_exit_registered)
	{
		before_shmem_exit(par_on_exit, (Datum) 0);
		par_exit_registered = true;
	}
	if (par_handles == NULL)
		par_handles = MemoryContextAlloc(TopMemoryContext,
										 sizeof(BackgroundWorkerHandle *) * max_worker_processes);
	for (int i = 0; i < njobs; i++)
	{
		BackgroundWorker worker;
		BackgroundWorkerHandle *handle;
		MemoryContext old;
		bool		ok;

		worker_spec(&worker, "datagen_par_worker_main", PAR_WORKER_TYPE,
					UInt32GetDatum(dsm_segment_handle(seg)));
		snprintf(worker.bgw_name, BGW_MAXLEN, PAR_WORKER_TYPE " %d of %d", i + 1, njobs);
		memcpy(worker.bgw_extra, &i, sizeof(int));
		old = MemoryContextSwitchTo(TopMemoryContext);
		ok = RegisterDynamicBackgroundWorker(&worker, &handle);
		MemoryContextSwitchTo(old);
		if (!ok)
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("could not start pgbench_init worker %d of %d", i + 1, njobs),
					 errdetail("No background worker slot is free; max_worker_processes is %d.",
							   max_worker_processes),
					 errhint("Pass fewer jobs, or raise max_worker_processes (this needs a restart).")));
		par_handles[par_nhandles++] = handle;
	}
}

/* The leader's part of a plain table: the primary key, from arithmetic. */
static void
par_build_pkey(const ParView *v, BtloadState *pkey, const DatagenParInput *in)
{
	const ParShared *sh = v->sh;
	int64		rows_done;

	for (int64 aid = 1; aid <= sh->rows_total; aid++)
	{
		ItemPointerData tid;

		ItemPointerSet(&tid, (BlockNumber) ((aid - 1) / sh->rows_per_page),
					   (OffsetNumber) ((aid - 1) % sh->rows_per_page + 1));
		btload_add(pkey, aid, &tid);
		if ((aid & PAR_ROWS_MASK) == 0)
		{
			CHECK_FOR_INTERRUPTS();
			(void) par_check_workers(v, &rows_done);
			in->progress(in->progress_arg, rows_done, false);
		}
	}
}

static void
par_wait_workers(const ParView *v, const DatagenParInput *in)
{
	int64		rows_done;

	for (;;)
	{
		bool		done = par_check_workers(v, &rows_done);

		in->progress(in->progress_arg, rows_done, done);
		if (done)
			break;
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100L, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
}

/*
 * Start the workers, build the primary key of a plain table meanwhile, and
 * wait for them; stop them before any error leaves.
 */
static void
par_run(dsm_segment *seg, const ParView *v, BtloadState *pkey,
		const DatagenParInput *in)
{
	PG_TRY();
	{
		par_start_workers(seg, v->sh->njobs);
		if (pkey)
			par_build_pkey(v, pkey, in);
		par_wait_workers(v, in);
	}
	PG_CATCH();
	{
		/* nobody may write into the files the abort unlinks */
		HOLD_INTERRUPTS();
		par_stop_workers();
		RESUME_INTERRUPTS();
		PG_RE_THROW();
	}
	PG_END_TRY();
	/* all done: only the handles are left */
	par_stop_workers();
}

void
datagen_par_load_accounts(const DatagenParInput *in)
{
	const DatagenOptions *opts = in->opts;
	int			nparts = opts->partitions;
	HeapwriteTarget *targets;
	int			ntargets = Max(nparts, 1);
	Relation	parent = NULL;
	BtloadState *pkey = NULL;
	int			nindexes = 0;
	int		   *indexes = NULL;
	int			njobs;
	shm_toc_estimator e;
	Size		size;
	dsm_segment *seg;
	shm_toc    *toc;
	ParView		v;
	ParShared  *sh;

	targets = palloc0(sizeof(HeapwriteTarget) * ntargets);
	if (nparts == 0)
	{
		Oid			pkey_oid;

		/* one page each: the leader only writes the visibility map */
		heapwrite_open(in->cid, &targets[0], in->accounts, 1);
		pkey_oid = pgx_primary_key_index(targets[0].rel);
		if (!OidIsValid(pkey_oid))
			elog(ERROR, "pgbench_accounts has no primary key");
		pkey = btload_begin(pkey_oid);
	}
	else
	{
		PartitionDesc pdesc;
		PartitionKey key;

		parent = table_open(in->accounts, NoLock);
		pdesc = RelationGetPartitionDesc(parent, false);
		if (pdesc->nparts != nparts)
			elog(ERROR, "pgbench_accounts has %d partitions, expected %d",
				 pdesc->nparts, nparts);
		key = RelationGetPartitionKey(parent);
		for (int i = 0; i < nparts; i++)
			heapwrite_open(in->cid, &targets[i], pdesc->oids[i], 1);
		if (opts->method == DATAGEN_PART_HASH)
		{
			Oid			want = in->bigcols ? F_HASHINT8EXTENDED : F_HASHINT4EXTENDED;

			if (key->partnatts != 1 || key->partsupfunc[0].fn_oid != want)
				elog(ERROR, "pgbench_accounts is not hash partitioned by its aid's default hash function");
			nindexes = pdesc->boundinfo->nindexes;
			indexes = palloc(sizeof(int) * nindexes);
			memcpy(indexes, pdesc->boundinfo->indexes, sizeof(int) * nindexes);
			/* the workers route as the executor does: check a few rows */
			for (int64 aid = 1; aid <= Min(1000, in->rows_total); aid++)
			{
				bool		isnull = false;
				Datum		value = in->bigcols ? Int64GetDatum(aid) : Int32GetDatum((int32) aid);

				if (compute_partition_hash_value(1, key->partsupfunc, key->partcollation,
												 &value, &isnull) != par_hash(in->bigcols, aid))
					elog(ERROR, "pgbench_accounts' hash partitioning is not the one expected");
			}
		}
	}
	njobs = datagen_par_jobs_used(opts, in->jobs);

	/* the segment: shared part, workers, partitions, hash map, template */
	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, sizeof(ParShared));
	shm_toc_estimate_chunk(&e, sizeof(ParWorker) * njobs);
	shm_toc_estimate_chunk(&e, sizeof(ParPart) * Max(nparts, 1));
	shm_toc_estimate_chunk(&e, sizeof(int) * Max(nindexes, 1));
	shm_toc_estimate_chunk(&e, in->template->t_len);
	shm_toc_estimate_keys(&e, 5);
	size = shm_toc_estimate(&e);
	seg = dsm_create(size, 0);
	toc = shm_toc_create(PAR_MAGIC, dsm_segment_address(seg), size);

	sh = shm_toc_allocate(toc, sizeof(ParShared));
	memset(sh, 0, sizeof(ParShared));
	sh->mode = nparts == 0 ? PAR_PLAIN :
		opts->method == DATAGEN_PART_RANGE ? PAR_RANGE : PAR_HASH;
	sh->njobs = njobs;
	sh->nparts = nparts;
	sh->nindexes = nindexes;
	sh->bigcols = in->bigcols;
	sh->spec.use_wal = targets[0].use_wal;
	sh->spec.save_free = targets[0].save_free;
	sh->spec.xid = targets[0].xid;
	sh->spec.cid = targets[0].cid;
	sh->batch_pages = nparts > DATAGEN_MANY_PARTITIONS ? 1 : HEAPWRITE_BATCH_PAGES;
	sh->rows_total = in->rows_total;
	sh->part_size = nparts > 0 ? (in->rows_total + nparts - 1) / nparts : 0;
	sh->aid_off = in->aid_off;
	sh->bid_off = in->bid_off;
	sh->tuple_len = in->template->t_len;
	strlcpy(sh->wal_compression, GetConfigOption("wal_compression", false, false),
			sizeof(sh->wal_compression));
	shm_toc_insert(toc, PAR_KEY_SHARED, sh);

	v.sh = sh;
	v.workers = shm_toc_allocate(toc, sizeof(ParWorker) * njobs);
	v.parts = shm_toc_allocate(toc, sizeof(ParPart) * Max(nparts, 1));
	v.indexes = shm_toc_allocate(toc, sizeof(int) * Max(nindexes, 1));
	v.tuple = shm_toc_allocate(toc, in->template->t_len);
	memset(v.parts, 0, sizeof(ParPart) * Max(nparts, 1));
	for (int i = 0; i < nparts; i++)
		v.parts[i].node = PGX_RELATION_FILE(targets[i].rel);
	if (nindexes > 0)
		memcpy(v.indexes, indexes, sizeof(int) * nindexes);
	memcpy(v.tuple, in->template->t_data, in->template->t_len);
	shm_toc_insert(toc, PAR_KEY_WORKERS, v.workers);
	shm_toc_insert(toc, PAR_KEY_PARTS, v.parts);
	shm_toc_insert(toc, PAR_KEY_INDEXES, v.indexes);
	shm_toc_insert(toc, PAR_KEY_TUPLE, v.tuple);

	if (sh->mode == PAR_PLAIN)
	{
		sh->node = PGX_RELATION_FILE(targets[0].rel);
		sh->rows_per_page = par_rows_per_page(in->template->t_len, sh->spec.save_free);
		sh->nblocks = (BlockNumber) ((in->rows_total + sh->rows_per_page - 1) /
									 sh->rows_per_page);
		par_presize(targets[0].rel, sh->nblocks);
	}
	for (int i = 0; i < njobs; i++)
	{
		ParWorker  *w = &v.workers[i];

		pg_atomic_init_u32(&w->state, PAR_STARTING);
		pg_atomic_init_u64(&w->rows_done, 0);
		w->first_block = (BlockNumber) ((uint64) sh->nblocks * i / njobs);
		w->end_block = (BlockNumber) ((uint64) sh->nblocks * (i + 1) / njobs);
		w->error[0] = '\0';
	}

	par_run(seg, &v, pkey, in);

	if (pkey)
	{
		btload_end(pkey);
		heapwrite_adopt(&targets[0], sh->nblocks, in->rows_total);
	}
	else
	{
		for (int i = 0; i < nparts; i++)
			heapwrite_adopt(&targets[i], v.parts[i].nblocks, v.parts[i].ntuples);
	}
	for (int i = 0; i < ntargets; i++)
		heapwrite_close(&targets[i]);
	if (parent)
		table_close(parent, NoLock);
	dsm_detach(seg);
	pfree(targets);
	if (indexes)
		pfree(indexes);
}
