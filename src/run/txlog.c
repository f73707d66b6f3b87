/*-------------------------------------------------------------------------
 *
 * txlog.c
 *	  pgbenchx.transaction_log(run_id, since): the per-transaction records a
 *	  live run's drivers write with log_transactions (issue 24, pgbenchx -l),
 *	  read from the step's shared memory while the run lasts.
 *
 * Each driver writes its records into a ring of its own in the step segment
 * (run_shmem.h: TxLogRing, RUN_TXLOG_RING records) and never waits for a
 * reader: a reader that falls behind by more than the ring loses the oldest
 * records, and sees it as a gap in their numbers.  The coordinator
 * publishes the segment's handle in its progress place (progress.c) while
 * the step lasts.  A call attaches to the segment and detaches before it
 * returns (an error detaches it through the resource owner): no session
 * keeps a run's shared memory between calls, nor in an open transaction,
 * nor after the run (issue 34 §5).  So that the records the drivers wrote
 * last can still be read, the coordinator keeps the segment after the
 * run's row is final until every session that read it has had a call that
 * found every driver done (that call returned the rest), or for at most
 * COORDINATOR_TXLOG_WAIT_MS (5 s, coordinator.c); what was not read by then
 * is lost, as a reader that falls behind loses records.
 *
 * Who may read: the run's role, the roles that have its privileges, and
 * superusers (PostgreSQL's ownership rule, owner_has_privs): the records
 * say when each transaction of another role's clients ran.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "catalog/pg_type.h"
#include "storage/dsm.h"
#include "storage/shm_toc.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "owner.h"
#include "progress.h"
#include "run_shmem.h"
#include "run_spec.h"
#include "txlog.h"

PG_FUNCTION_INFO_V1(pgbenchx_transaction_log);

/*
 * The run this session has said it reads (txlog_readers), and whether it
 * has said it read the last records (txlog_finished); nothing is kept
 * attached between calls.
 */
static int64 txlog_counted_run = 0;
static bool txlog_finished_told = false;

#define TXLOG_COLUMNS 11

/*
 * The step segment of run run_id, attached for this call only (under the
 * current resource owner, so that an error detaches it), or NULL when there
 * is none (not yet, or no more, or the handle is now another's).
 */
static dsm_segment *
txlog_attach(int64 run_id)
{
	uint32		handle;
	dsm_segment *seg;
	shm_toc    *toc;
	RunShared  *run;

	handle = progress_find_step_segment(run_id);
	if (handle == 0)
		return NULL;
	seg = dsm_attach(handle);
	if (seg == NULL)
		return NULL;			/* gone meanwhile */
	/* the handle may have been reused since: check it is this run's */
	toc = dsm_segment_map_length(seg) >= 4096 ?
		shm_toc_attach(RUN_SPEC_STEP_MAGIC, dsm_segment_address(seg)) : NULL;
	run = toc ? shm_toc_lookup(toc, RUN_SPEC_KEY_SHARED, true) : NULL;
	if (run == NULL || run->run_id != run_id || !run->knobs.log_transactions ||
		shm_toc_lookup(toc, RUN_SPEC_KEY_TXLOG, true) == NULL)
	{
		dsm_detach(seg);
		return NULL;
	}
	return seg;
}

static const char *
txlog_status_name(int status)
{
	switch (status)
	{
		case TXLOG_OK:
			return "ok";
		case TXLOG_SERIALIZATION:
			return "serialization";
		case TXLOG_DEADLOCK:
			return "deadlock";
		case TXLOG_SKIPPED:
			return "skipped";
		case TXLOG_FAILED:
			return "failed";
	}
	return "failed";
}

/*
 * pgbenchx.transaction_log(run_id bigint, since bigint[]): for each driver
 * d, its records numbered since[d] and after (0 when since is NULL or
 * shorter), at most the ring's worth, then one row with client_id NULL
 * whose seq is the number of records d has written so far (the next
 * call's since[d]) and done whether d has finished.  Nothing when the run
 * has no live segment that logs transactions.
 */
Datum
pgbenchx_transaction_log(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int64		run_id;
	dsm_segment *seg;
	shm_toc    *toc;
	RunShared  *run;
	TxLogRing  *rings;
	const RunSpec *spec;
	const char *payload;
	int64	   *since = NULL;
	int			nsince = 0;
	bool		all_done = true;
	TxLogRecord *copy;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	run_id = PG_GETARG_INT64(0);
	if (!PG_ARGISNULL(1))
	{
		ArrayType  *a = PG_GETARG_ARRAYTYPE_P(1);
		Datum	   *elems;
		bool	   *nulls;

		if (ARR_NDIM(a) > 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("since must be a one-dimensional array"),
					 errdetail("It holds, per driver, the seq of the last row with client_id NULL that the previous call returned."),
					 errhint("Pass NULL for the first call, then ARRAY[...] of those seqs in driver order.")));
		deconstruct_array(a, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
						  &elems, &nulls, &nsince);
		since = palloc0(sizeof(int64) * Max(nsince, 1));
		for (int i = 0; i < nsince; i++)
			since[i] = nulls[i] ? 0 : Max(DatumGetInt64(elems[i]), 0);
	}

	seg = txlog_attach(run_id);
	if (seg == NULL)
		return (Datum) 0;
	toc = shm_toc_attach(RUN_SPEC_STEP_MAGIC, dsm_segment_address(seg));
	run = shm_toc_lookup(toc, RUN_SPEC_KEY_SHARED, false);
	rings = shm_toc_lookup(toc, RUN_SPEC_KEY_TXLOG, false);
	spec = run_spec_find(toc, &payload);

	/* the run's role, its members and superusers; checked on every call */
	if (!owner_has_privs(GetUserId(), spec->owner))
	{
		/* the name is in the segment: copied before we let it go */
		char		owner[NAMEDATALEN];

		strlcpy(owner, spec->owner, sizeof(owner));
		dsm_detach(seg);
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read the transaction log of run " INT64_FORMAT " of role \"%s\"",
						run_id, owner),
				 errdetail("A run's per-transaction records are read by its role, the roles that have its privileges, and superusers."),
				 errhint("Read the run's figures in pgbenchx.runs and pgbenchx.samples, or ask role \"%s\" for its log.",
						 owner)));
	}

	/*
	 * A reader allowed to read is attached: the coordinator, which waits for
	 * one after a logged run (coordinator.c), may let the segment go
	 */
	if (txlog_counted_run != run_id)
	{
		pg_atomic_fetch_add_u32(&run->txlog_readers, 1);
		txlog_counted_run = run_id;
		txlog_finished_told = false;
	}

	copy = palloc(sizeof(TxLogRecord) * RUN_TXLOG_RING);
	for (int d = 0; d < run->njobs; d++)
	{
		TxLogRing  *ring = &rings[d];
		uint32		state = pg_atomic_read_u32(&run->drivers[d].state);
		bool		done = state == DRIVER_DONE || state == DRIVER_FAILED;
		uint64		from = d < nsince ? (uint64) since[d] : 0;
		uint64		w0,
					w1,
					first;
		Datum		values[TXLOG_COLUMNS];
		bool		nulls[TXLOG_COLUMNS];

		CHECK_FOR_INTERRUPTS();
		/* done before written: a finished driver's count is final */
		pg_read_barrier();
		w0 = pg_atomic_read_u64(&ring->written);
		pg_read_barrier();
		from = Min(from, w0);
		if (w0 - from > RUN_TXLOG_RING)
			from = w0 - RUN_TXLOG_RING;
		for (uint64 n = from; n < w0; n++)
			copy[n - from] = ring->records[n % RUN_TXLOG_RING];
		/*
		 * A record the driver may have overwritten while we copied is lost:
		 * up to w1 - RING, and the one under w1's slot unless it is done
		 */
		pg_read_barrier();
		w1 = pg_atomic_read_u64(&ring->written);
		first = from;
		if (w1 >= RUN_TXLOG_RING)
			first = Max(from, w1 - RUN_TXLOG_RING + (done ? 0 : 1));

		memset(nulls, 0, sizeof(nulls));
		for (uint64 n = first; n < w0; n++)
		{
			const TxLogRecord *r = &copy[n - from];

			values[0] = Int32GetDatum(d);
			values[1] = Int64GetDatum((int64) n);
			values[2] = Int32GetDatum(r->client);
			values[3] = Int64GetDatum(r->transaction_no);
			values[4] = Int32GetDatum(r->script);
			values[5] = Int64GetDatum(r->latency_usec);
			values[6] = Int64GetDatum(r->end_usec);
			values[7] = Int64GetDatum(r->lag_usec);
			nulls[7] = r->lag_usec < 0;
			values[8] = Int32GetDatum(r->retries);
			values[9] = CStringGetTextDatum(txlog_status_name(r->status));
			values[10] = BoolGetDatum(false);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			pfree(DatumGetPointer(values[9]));
		}

		/* the driver's mark: what it has written so far, and whether it is done */
		memset(nulls, true, sizeof(nulls));
		values[0] = Int32GetDatum(d);
		nulls[0] = false;
		values[1] = Int64GetDatum((int64) w0);
		nulls[1] = false;
		values[10] = BoolGetDatum(done);
		nulls[10] = false;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if (!done)
			all_done = false;
	}
	pfree(copy);

	/*
	 * Every driver was done before its count was read: this call returned
	 * the last records there are.  The coordinator, which keeps the segment
	 * for its readers after the run, may let it go as far as we are
	 * concerned.
	 */
	if (all_done && !txlog_finished_told)
	{
		pg_atomic_fetch_add_u32(&run->txlog_finished, 1);
		txlog_finished_told = true;
	}
	/* nothing of the run is kept by this session after the call */
	dsm_detach(seg);
	return (Datum) 0;
}
