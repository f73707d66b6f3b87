/*-------------------------------------------------------------------------
 *
 * txlog.c
 *	  pgbenchx.transaction_log(run_id, since): the per-transaction records a
 *	  live run's drivers write with log_transactions (issue 24, pgbenchx -l),
 *	  and pgbenchx.client_messages(run_id, since): what its clients print
 *	  with client_messages (issue 36, pgbench's stderr), each read from the
 *	  step's shared memory while the run lasts.
 *
 * Each driver writes its records into a ring of its own in the step segment
 * (run_shmem.h: TxLogRing, RUN_TXLOG_RING records; MsgRing, RUN_MSG_RING
 * messages, by the same protocol) and never waits for a
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
 * The two kinds are counted apart (a session may read one, or both).
 *
 * Who may read: the run's role, the roles that have its privileges, and
 * superusers (PostgreSQL's ownership rule, owner_has_privs): the records
 * say when each transaction of another role's clients ran, the messages
 * what its scripts computed and what the server told its clients.
 *
 * This file must not write to a ring, nor keep a segment past a call.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "funcapi.h"
#include "miscadmin.h"
#include "catalog/pg_type.h"
#include "mb/pg_wchar.h"
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
PG_FUNCTION_INFO_V1(pgbenchx_client_messages);

/*
 * Per kind, the run this session has said it reads (txlog_readers,
 * msg_readers), and whether it has said it read the last records
 * (txlog_finished, msg_finished); nothing is kept attached between calls.
 */
typedef struct ReaderState
{
	int64		counted_run;
	bool		finished_told;
} ReaderState;

static ReaderState txlog_reader = {0, false};
static ReaderState msg_reader = {0, false};

#define TXLOG_COLUMNS 11
#define MSG_COLUMNS 6

/*
 * The step segment of run run_id, attached for this call only (under the
 * current resource owner, so that an error detaches it), or NULL when there
 * is none (not yet, or no more, or the handle is now another's).
 */
static dsm_segment *
txlog_attach(int64 run_id, bool messages)
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
	if (run == NULL || run->run_id != run_id ||
		!(messages ? run->knobs.client_messages : run->knobs.log_transactions) ||
		shm_toc_lookup(toc, messages ? RUN_SPEC_KEY_MSGS : RUN_SPEC_KEY_TXLOG, true) == NULL)
	{
		dsm_detach(seg);
		return NULL;
	}
	return seg;
}

/*
 * since: per driver, the seq its next row starts at (0 when the array is
 * NULL or shorter); *nsince its length
 */
static int64 *
txlog_since(FunctionCallInfo fcinfo, int *nsince)
{
	ArrayType  *a;
	Datum	   *elems;
	bool	   *nulls;
	int64	   *since;

	*nsince = 0;
	if (PG_ARGISNULL(1))
		return NULL;
	a = PG_GETARG_ARRAYTYPE_P(1);
	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("since must be a one-dimensional array"),
				 errdetail("It holds, per driver, the seq of the last row with a NULL column that the previous call returned."),
				 errhint("Pass NULL for the first call, then ARRAY[...] of those seqs in driver order.")));
	deconstruct_array(a, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, nsince);
	since = palloc0(sizeof(int64) * Max(*nsince, 1));
	for (int i = 0; i < *nsince; i++)
		since[i] = nulls[i] ? 0 : Max(DatumGetInt64(elems[i]), 0);
	return since;
}

/*
 * The run's role, its members and superusers; checked on every call.  The
 * segment is let go before the refusal.
 */
static void
txlog_check_reader(dsm_segment *seg, const RunSpec *spec, int64 run_id, bool messages)
{
	/* the name is in the segment: copied before we let it go */
	char		owner[NAMEDATALEN];

	if (owner_has_privs(GetUserId(), spec->owner))
		return;
	strlcpy(owner, spec->owner, sizeof(owner));
	dsm_detach(seg);
	if (messages)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read the client messages of run " INT64_FORMAT " of role \"%s\"",
						run_id, owner),
				 errdetail("A run's client messages are read by its role, the roles that have its privileges, and superusers."),
				 errhint("Read the run's figures in pgbenchx.runs and pgbenchx.samples, or ask role \"%s\" for its messages.",
						 owner)));
	ereport(ERROR,
			(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
			 errmsg("permission denied to read the transaction log of run " INT64_FORMAT " of role \"%s\"",
					run_id, owner),
			 errdetail("A run's per-transaction records are read by its role, the roles that have its privileges, and superusers."),
			 errhint("Read the run's figures in pgbenchx.runs and pgbenchx.samples, or ask role \"%s\" for its log.",
					 owner)));
}

/*
 * A reader allowed to read is attached: counted once per run, so that the
 * coordinator, which waits for one after the run (coordinator.c), may let
 * the segment go
 */
static void
txlog_reader_seen(ReaderState *rs, pg_atomic_uint32 *readers, int64 run_id)
{
	if (rs->counted_run == run_id)
		return;
	pg_atomic_fetch_add_u32(readers, 1);
	rs->counted_run = run_id;
	rs->finished_told = false;
}

/*
 * Every driver was done before its count was read: this call returned the
 * last records there are, and the coordinator may let the segment go as far
 * as this session is concerned.
 */
static void
txlog_reader_finished(ReaderState *rs, pg_atomic_uint32 *finished)
{
	if (rs->finished_told)
		return;
	pg_atomic_fetch_add_u32(finished, 1);
	rs->finished_told = true;
}

/*
 * The records of driver d to return: from..w0-1 were copied after reading
 * w0; those the driver may have overwritten while they were copied are lost
 * (up to w1 - ring, and the one under w1's slot unless it is done).  Returns
 * the first seq still whole.
 */
static uint64
txlog_first_whole(uint64 from, uint64 w1, uint64 ring, bool done)
{
	if (w1 >= ring)
		return Max(from, w1 - ring + (done ? 0 : 1));
	return from;
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
		case TXLOG_OTHER:
			return "other";
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
	int64	   *since;
	int			nsince;
	bool		all_done = true;
	TxLogRecord *copy;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	run_id = PG_GETARG_INT64(0);
	since = txlog_since(fcinfo, &nsince);

	seg = txlog_attach(run_id, false);
	if (seg == NULL)
		return (Datum) 0;
	toc = shm_toc_attach(RUN_SPEC_STEP_MAGIC, dsm_segment_address(seg));
	run = shm_toc_lookup(toc, RUN_SPEC_KEY_SHARED, false);
	rings = shm_toc_lookup(toc, RUN_SPEC_KEY_TXLOG, false);
	spec = run_spec_find(toc, &payload);
	txlog_check_reader(seg, spec, run_id, false);
	txlog_reader_seen(&txlog_reader, &run->txlog_readers, run_id);

	copy = palloc(sizeof(TxLogRecord) * RUN_TXLOG_RING);
	for (int d = 0; d < run->njobs; d++)
	{
		TxLogRing  *ring = &rings[d];
		uint32		state = pg_atomic_read_u32(&run->drivers[d].state);
		bool		done = state == DRIVER_DONE || state == DRIVER_FAILED;
		uint64		from = d < nsince ? (uint64) since[d] : 0;
		uint64		w0,
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
		pg_read_barrier();
		first = txlog_first_whole(from, pg_atomic_read_u64(&ring->written), RUN_TXLOG_RING, done);

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

	if (all_done)
		txlog_reader_finished(&txlog_reader, &run->txlog_finished);
	/* nothing of the run is kept by this session after the call */
	dsm_detach(seg);
	return (Datum) 0;
}

static const char *
txlog_msg_kind_name(int kind)
{
	switch (kind)
	{
		case MSG_DEBUG:
			return "debug";
		case MSG_ERROR:
			return "error";
		case MSG_INFO:
			return "info";
		case MSG_NOTICE:
			return "notice";
	}
	return "error";
}

/*
 * pgbenchx.client_messages(run_id bigint, since bigint[]): for each driver
 * d, its messages numbered since[d] and after, at most the ring's worth,
 * then one row with kind NULL whose seq is the number of messages d has
 * written so far and done whether d has finished; as transaction_log.
 */
Datum
pgbenchx_client_messages(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	int64		run_id;
	dsm_segment *seg;
	shm_toc    *toc;
	RunShared  *run;
	MsgRing    *rings;
	const RunSpec *spec;
	const char *payload;
	int64	   *since;
	int			nsince;
	bool		all_done = true;
	MsgRecord  *copy;

	InitMaterializedSRF(fcinfo, 0);
	if (PG_ARGISNULL(0))
		return (Datum) 0;
	run_id = PG_GETARG_INT64(0);
	since = txlog_since(fcinfo, &nsince);

	seg = txlog_attach(run_id, true);
	if (seg == NULL)
		return (Datum) 0;
	toc = shm_toc_attach(RUN_SPEC_STEP_MAGIC, dsm_segment_address(seg));
	run = shm_toc_lookup(toc, RUN_SPEC_KEY_SHARED, false);
	rings = shm_toc_lookup(toc, RUN_SPEC_KEY_MSGS, false);
	spec = run_spec_find(toc, &payload);
	txlog_check_reader(seg, spec, run_id, true);
	txlog_reader_seen(&msg_reader, &run->msg_readers, run_id);

	copy = palloc(sizeof(MsgRecord) * RUN_MSG_RING);
	for (int d = 0; d < run->njobs; d++)
	{
		MsgRing    *ring = &rings[d];
		uint32		state = pg_atomic_read_u32(&run->drivers[d].state);
		bool		done = state == DRIVER_DONE || state == DRIVER_FAILED;
		uint64		from = d < nsince ? (uint64) since[d] : 0;
		uint64		w0,
					first;
		Datum		values[MSG_COLUMNS];
		bool		nulls[MSG_COLUMNS];

		CHECK_FOR_INTERRUPTS();
		pg_read_barrier();
		w0 = pg_atomic_read_u64(&ring->written);
		pg_read_barrier();
		from = Min(from, w0);
		if (w0 - from > RUN_MSG_RING)
			from = w0 - RUN_MSG_RING;
		for (uint64 n = from; n < w0; n++)
			copy[n - from] = ring->records[n % RUN_MSG_RING];
		pg_read_barrier();
		first = txlog_first_whole(from, pg_atomic_read_u64(&ring->written), RUN_MSG_RING, done);

		memset(nulls, 0, sizeof(nulls));
		for (uint64 n = first; n < w0; n++)
		{
			MsgRecord  *r = &copy[n - from];
			int			len;

			/* the copy may have been torn by a lost write: a string, and valid */
			r->text[RUN_MSG_LEN - 1] = '\0';
			len = strlen(r->text);
			len = pg_encoding_verifymbstr(GetDatabaseEncoding(), r->text, len);
			r->text[len] = '\0';
			values[0] = Int32GetDatum(d);
			values[1] = Int64GetDatum((int64) n);
			values[2] = Int32GetDatum(r->client);
			values[3] = CStringGetTextDatum(txlog_msg_kind_name(r->kind));
			values[4] = CStringGetTextDatum(r->text);
			values[5] = BoolGetDatum(false);
			tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
			pfree(DatumGetPointer(values[3]));
			pfree(DatumGetPointer(values[4]));
		}

		memset(nulls, true, sizeof(nulls));
		values[0] = Int32GetDatum(d);
		nulls[0] = false;
		values[1] = Int64GetDatum((int64) w0);
		nulls[1] = false;
		values[5] = BoolGetDatum(done);
		nulls[5] = false;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
		if (!done)
			all_done = false;
	}
	pfree(copy);

	if (all_done)
		txlog_reader_finished(&msg_reader, &run->msg_finished);
	dsm_detach(seg);
	return (Datum) 0;
}
