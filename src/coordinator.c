/*-------------------------------------------------------------------------
 *
 * coordinator.c
 *	  The coordinator background worker: owns a run or a sweep from the
 *	  moment the caller hands it over until its last row is written.
 *
 * For each step it does pgbench's pre-run maintenance over a loopback
 * connection, creates the run's DSM segment, starts the drivers, waits for
 * them to connect, starts the measured interval, collects the per-second
 * statistics they publish (one pgbenchx.samples row per second, each in its
 * own short transaction), stops them on cancel or failure, and writes the
 * final pgbenchx.runs row.  A result is committed the moment it exists: a
 * sweep that dies at step 10 keeps steps 1 to 9.
 *
 * SIGUSR2 (pgbenchx.cancel) stops the run or sweep and records it as
 * cancelled; SIGTERM (pg_terminate_backend, shutdown) stops it and records
 * it as aborted.  Either way the drivers are stopped.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "libpq-fe.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "coordinator.h"
#include "launch.h"
#include "loopback.h"
#include "results.h"
#include "run_shmem.h"
#include "script.h"
#include "script_sql.h"
#include "searchpath.h"
#include "stats.h"

/* the cluster-wide advisory lock held while a run or sweep is in progress */
#define COORDINATOR_LOCK_KEY1	0x70626e63	/* "pbnc" */
#define COORDINATOR_LOCK_KEY2	1

/* how long drivers may take to connect all their clients */
#define COORDINATOR_CONNECT_TIMEOUT_USEC (120 * USECS_PER_SEC)
/* how long drivers may take to stop after the end or a stop request */
#define COORDINATOR_STOP_TIMEOUT_USEC (10 * USECS_PER_SEC)

static volatile sig_atomic_t coordinator_cancel_requested = false;
static volatile sig_atomic_t coordinator_in_statements = false;

/* pgbenchx.sample_ring_seconds (coordinator.h) */
int			coordinator_ring_seconds = RUN_SECOND_RING;

/* The state of the step in progress, for the cleanup after an error. */
typedef struct CoordinatorStep
{
	dsm_segment *seg;
	RunShared  *run;
	BackgroundWorkerHandle **handles;
	int			njobs;
	int64		run_id;
} CoordinatorStep;

static CoordinatorStep coordinator_step;
static LaunchRequest *coordinator_req;
/* the caller's request, while attached (until the handshake is over) */
static LaunchRequest *coordinator_shared_req;

static void
coordinator_sigusr2(SIGNAL_ARGS)
{
	int			save_errno = errno;

	coordinator_cancel_requested = true;
	/* writing the statement statistics: cancel the statement (a lock wait) */
	if (coordinator_in_statements)
	{
		InterruptPending = true;
		QueryCancelPending = true;
	}
	SetLatch(MyLatch);
	errno = save_errno;
}

/* Take the cluster-wide lock; false if another run holds it. */
static bool
coordinator_lock(void)
{
	LOCKTAG		tag;

	SET_LOCKTAG_ADVISORY(tag, InvalidOid, COORDINATOR_LOCK_KEY1, COORDINATOR_LOCK_KEY2, 2);
	return LockAcquire(&tag, ExclusiveLock, true, true) != LOCKACQUIRE_NOT_AVAIL;
}

/* Ask the drivers to stop, and wake them. */
static void
coordinator_stop_drivers(CoordinatorStep *step)
{
	if (step->run == NULL)
		return;
	pg_atomic_write_u32(&step->run->stop, 1);
	for (int i = 0; i < step->njobs; i++)
	{
		int			procno = step->run->drivers[i].procno;

		if (procno >= 0)
			SetLatch(&ProcGlobal->allProcs[procno].procLatch);
	}
}

static void
coordinator_terminate_drivers(CoordinatorStep *step)
{
	for (int i = 0; i < step->njobs; i++)
		if (step->handles && step->handles[i])
			TerminateBackgroundWorker(step->handles[i]);
}

static bool
coordinator_driver_alive(CoordinatorStep *step, int i)
{
	pid_t		pid;

	return step->handles[i] &&
		GetBackgroundWorkerPid(step->handles[i], &pid) != BGWH_STOPPED;
}

/*
 * A copy of a text a driver wrote (an error, a notice): bounded by its
 * buffer even if unterminated, and made valid in this database's encoding
 * (the clients' server text may be in another one, or cut mid-character):
 * an invalid byte becomes '?'.
 */
static char *
coordinator_driver_text(const char *text, int size)
{
	char	   *copy = pnstrdup(text, strnlen(text, size - 1));
	int			len = strlen(copy);
	int			enc = GetDatabaseEncoding();
	char	   *p = copy;

	while (len > 0)
	{
		int			ok = pg_encoding_verifymbstr(enc, p, len);

		p += ok;
		len -= ok;
		if (len > 0)
		{
			*p++ = '?';
			len--;
		}
	}
	return copy;
}

static void
coordinator_wait_latch(long timeout_ms)
{
	(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
					 timeout_ms, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/*
 * Checkpoints and autovacuum runs so far on the server the clients use
 * (another one with conninfo), so that a run can say which happened during
 * it.  Returns false if they could not be read.
 */
static bool
coordinator_counters(const LaunchRequest *req, int64 *checkpoints, int64 *autovacuums)
{
	char	   *connerr;
	char	   *value = NULL;
	char	   *error;
	PGconn	   *conn = loopback_connect(req->conninfo, &connerr);

	if (conn == NULL)
		return false;
	error = loopback_exec(conn,
						  "SELECT pg_catalog.concat_ws(' ',"
						  " (SELECT checkpoints_timed OPERATOR(pg_catalog.+) checkpoints_req FROM pg_catalog.pg_stat_bgwriter),"
						  " (SELECT coalesce(pg_catalog.sum(autovacuum_count OPERATOR(pg_catalog.+) autoanalyze_count), 0)"
						  " FROM pg_catalog.pg_stat_all_tables))", &value, NULL);
	loopback_finish(conn);
	if (error || value == NULL || sscanf(value, INT64_FORMAT " " INT64_FORMAT, checkpoints, autovacuums) != 2)
		return false;
	return true;
}

/*
 * A cancel during the pre-run maintenance (which may wait on a lock: the
 * statement in progress is cancelled by loopback_exec) stops the run
 * before its drivers start.
 */
static void
coordinator_check_cancel(int64 run_id)
{
	if (coordinator_cancel_requested)
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("run " INT64_FORMAT " cancelled during its pre-run maintenance", run_id)));
}

/*
 * check_tpcb: the sums of the balances of pgbench_accounts, _branches and
 * _tellers and of the deltas of pgbench_history, read in one snapshot over a
 * loopback connection that sees what the clients see (their conninfo, so
 * their search_path).  Returns false, with a WARNING, if they could not be
 * read.
 */
#define COORDINATOR_TPCB_SUMS \
	"SELECT pg_catalog.concat_ws(' '," \
	" (SELECT coalesce(pg_catalog.sum(abalance), 0) FROM pgbench_accounts)," \
	" (SELECT coalesce(pg_catalog.sum(bbalance), 0) FROM pgbench_branches)," \
	" (SELECT coalesce(pg_catalog.sum(tbalance), 0) FROM pgbench_tellers)," \
	" (SELECT coalesce(pg_catalog.sum(delta), 0) FROM pgbench_history))"

static bool
coordinator_tpcb_sums(const LaunchRequest *req, int64 run_id, int64 sums[4])
{
	char	   *connerr;
	char	   *value = NULL;
	char	   *error;
	PGconn	   *conn;

	pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchx run " INT64_FORMAT ": check_tpcb", run_id));
	conn = loopback_connect(req->conninfo, &connerr);
	if (conn == NULL)
	{
		ereport(WARNING,
				(errmsg("pgbenchx run " INT64_FORMAT ": could not connect to check the TPC-B invariant: %s",
						run_id, connerr)));
		return false;
	}
	error = loopback_exec(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL, NULL);
	if (error == NULL)
		error = loopback_exec(conn, COORDINATOR_TPCB_SUMS, &value, NULL);
	loopback_finish(conn);
	if (error == NULL && (value == NULL ||
						  sscanf(value, INT64_FORMAT " " INT64_FORMAT " " INT64_FORMAT " " INT64_FORMAT,
								 &sums[0], &sums[1], &sums[2], &sums[3]) != 4))
		error = psprintf("unexpected sums \"%s\"", value ? value : "(null)");
	if (error)
	{
		ereport(WARNING,
				(errmsg("pgbenchx run " INT64_FORMAT ": could not check the TPC-B invariant: %s",
						run_id, error),
				 errdetail("runs.tpcb_consistent stays NULL.")));
		return false;
	}
	return true;
}

/* pgbench's pre-run maintenance; errors are reported and ignored, as pgbench does */
static void
coordinator_maintenance(const LaunchRequest *req, int64 run_id)
{
	char	   *connerr;
	PGconn	   *conn;
	static const char *const vacuum_sql[] = {
		"vacuum pgbench_branches", "vacuum pgbench_tellers", "truncate pgbench_history"
	};

	if (!req->vacuum && !req->checkpoint)
		return;
	conn = loopback_connect(req->conninfo, &connerr);
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("run " INT64_FORMAT ": could not connect for the pre-run maintenance: %s",
						run_id, connerr)));
	/* a cancel interrupts a maintenance statement waiting on a lock */
	PG_TRY();
	{
		if (req->vacuum)
		{
			pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchx run " INT64_FORMAT ": vacuum", run_id));
			for (int i = 0; i < (int) lengthof(vacuum_sql); i++)
			{
				char	   *error;

				coordinator_check_cancel(run_id);
				error = loopback_exec(conn, vacuum_sql[i], NULL, NULL);

				if (error)
					ereport(WARNING,
							(errmsg("pgbenchx run " INT64_FORMAT ": %s failed: %s",
									run_id, vacuum_sql[i], error),
							 errdetail("Ignoring this error and continuing anyway, as pgbench does.")));
			}
		}
		if (req->checkpoint)
		{
			char	   *error;

			coordinator_check_cancel(run_id);
			pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchx run " INT64_FORMAT ": checkpoint", run_id));
			error = loopback_exec(conn, "checkpoint", NULL, NULL);
			if (error)
				ereport(WARNING,
						(errmsg("pgbenchx run " INT64_FORMAT ": checkpoint failed: %s", run_id, error),
						 errhint("CHECKPOINT needs superuser or the pg_checkpoint role; pass checkpoint => false to skip it.")));
		}
	}
	PG_FINALLY();
	{
		loopback_finish(conn);
	}
	PG_END_TRY();
	coordinator_check_cancel(run_id);
}

/*
 * Read every second that all drivers have published, write its sample row
 * and add it to the run's totals.  final: the drivers are done, so the last
 * (possibly partial) second is complete too.
 */
static void
coordinator_collect(CoordinatorStep *step, stats_run *total, uint64 *next_sec,
					stats_second *scratch, bool final, TimestampTz bench_end_usec,
					int *lost)
{
	RunShared  *run = step->run;
	uint64		ready = PG_UINT64_MAX;
	uint64		ring = (uint64) run->ring_len;

	for (int i = 0; i < step->njobs; i++)
		ready = Min(ready, pg_atomic_read_u64(&run->drivers[i].seconds_published));
	pg_read_barrier();

	while (*next_sec < ready)
	{
		uint64		sec = *next_sec;
		double		span = 1.0;
		bool		intact = true;

		/*
		 * A copy of each driver's slot, valid only if no driver had started
		 * to reuse it (seconds_published below sec + ring) after the copy
		 * (run_shmem.h): otherwise the second is lost, not stored wrong.
		 */
		stats_second_reset(scratch);
		for (int i = 0; i < step->njobs && intact; i++)
		{
			if (pg_atomic_read_u64(&run->drivers[i].seconds_published) >= sec + ring)
				intact = false;
			else
				stats_second_merge(scratch, &run->drivers[i].ring[sec % ring]);
		}
		pg_read_barrier();
		for (int i = 0; i < step->njobs; i++)
		{
			if (pg_atomic_read_u64(&run->drivers[i].seconds_published) >= sec + ring)
				intact = false;
			pg_atomic_write_u64(&run->drivers[i].seconds_consumed, sec + 1);
		}
		if (!intact)
		{
			(*lost)++;
			(*next_sec)++;
			continue;
		}
		/* the last second of a run bounded by transactions may be partial */
		if (final && sec + 1 == ready && run->duration == 0 && bench_end_usec > 0)
		{
			span = (double) (bench_end_usec - (int64) sec * USECS_PER_SEC) / USECS_PER_SEC;
			span = Max(span, 0.001);
			span = Min(span, 1.0);
		}
		stats_run_add_second(total, scratch);
		results_write_sample(step->run_id, (int) sec + 1, scratch, span);
		(*next_sec)++;
	}
}

/* the number of commands of all the run's scripts (they parsed at launch) */
static int
coordinator_command_count(const LaunchRequest *req)
{
	LaunchPayload pl;
	int			n = 0;

	launch_payload_decode(req->payload, req->nscripts, req->ndefines, &pl);
	for (int i = 0; i < pl.nscripts; i++)
	{
		ScriptError err;
		Script	   *script = script_sql_parse(pl.names[i], pl.texts[i], &err);

		if (script == NULL)
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("script \"%s\" does not parse: %s", pl.names[i], err.message)));
		n += script_command_count(script);
		script_free(script);
	}
	return n;
}

/*
 * pgbench -r: the drivers' per-command figures, summed, one row per command
 * of each script (the drivers lay the scripts' commands out one after the
 * other, in the mix's order), written in one INSERT before the run's final
 * status, at most COORDINATOR_MAX_STATEMENT_ROWS of them.  Returns false if
 * a cancel stopped it (nothing is written then).
 */
#define COORDINATOR_MAX_STATEMENT_ROWS	100000

static bool
coordinator_write_statements(const LaunchRequest *req, int64 run_id, RunShared *run)
{
	LaunchPayload pl;
	int			base = 0;
	volatile int n = 0;
	int			cap = Min(run->ncommands, COORDINATOR_MAX_STATEMENT_ROWS);
	const char **scripts;
	const char **texts;
	int		   *commands;
	CommandStats *sum;
	MemoryContext cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchx statements",
											  ALLOCSET_DEFAULT_SIZES);
	MemoryContext old = MemoryContextSwitchTo(cxt);
	volatile bool done = true;

	pgstat_report_activity(STATE_RUNNING,
						   psprintf("pgbenchx run " INT64_FORMAT ": statement statistics", run_id));
	scripts = palloc(sizeof(char *) * Max(1, cap));
	texts = palloc(sizeof(char *) * Max(1, cap));
	commands = palloc(sizeof(int) * Max(1, cap));
	sum = palloc0(sizeof(CommandStats) * Max(1, cap));
	launch_payload_decode(req->payload, req->nscripts, req->ndefines, &pl);
	for (int k = 0; k < pl.nscripts && n < cap && done; k++)
	{
		ScriptError err;
		Script	   *script = script_sql_parse(pl.names[k], pl.texts[k], &err);
		int			count;

		if (script == NULL)
			break;
		count = script_command_count(script);
		for (int i = 0; i < count && base + i < run->ncommands && n < cap; i++, n++)
		{
			if ((i & 1023) == 0)
			{
				CHECK_FOR_INTERRUPTS();
				if (coordinator_cancel_requested)
				{
					done = false;
					break;
				}
			}
			scripts[n] = pl.names[k];
			commands[n] = i + 1;
			texts[n] = pstrdup(script_command_first_line(script, i));
			for (int d = 0; d < run->njobs; d++)
			{
				const CommandStats *cs = &run_shmem_cmdstats(run, d)[base + i];

				sum[n].executions += cs->executions;
				sum[n].sum_usec += cs->sum_usec;
				sum[n].failures += cs->failures;
				sum[n].retries += cs->retries;
			}
		}
		script_free(script);
		base += count;
	}
	if (done && !coordinator_cancel_requested)
	{
		/* a cancel now cancels the INSERT, even one waiting on a lock */
		coordinator_in_statements = true;
		PG_TRY();
		{
			if (coordinator_cancel_requested)
				done = false;
			else
				results_write_statements(run_id, n, scripts, commands, texts, sum);
			coordinator_in_statements = false;
		}
		PG_CATCH();
		{
			coordinator_in_statements = false;
			if (!coordinator_cancel_requested || geterrcode() != ERRCODE_QUERY_CANCELED)
				PG_RE_THROW();
			FlushErrorState();
			AbortCurrentTransaction();
			done = false;
		}
		PG_END_TRY();
	}
	else
		done = false;
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return done;
}

/* the jobs of a step: as asked, at most one per client, else chosen */
static int
coordinator_jobs(const LaunchRequest *req, int clients)
{
	return req->jobs > 0 ? Min(req->jobs, clients) :
		launch_default_jobs(clients, req->ncpus, max_worker_processes);
}

/*
 * One run, whose row exists: maintenance, drivers, measurement, results.
 * Returns the run's final status.
 */
static const char *
coordinator_run_step(LaunchRequest *req, int64 run_id, int clients, bool *cancelled)
{
	CoordinatorStep *step = &coordinator_step;
	RunShared  *run;
	int			njobs;
	Size		size;
	TimestampTz connect_start;
	TimestampTz deadline;
	stats_run  *total;
	stats_run  *drivers_total;
	stats_second *scratch;
	uint64		next_sec = 0;
	int			lost = 0;
	int			ncommands;
	bool		counters_ok;
	int64		checkpoints0 = 0,
				autovacuums0 = 0,
				checkpoints1,
				autovacuums1;
	RunResult	result;
	int			first_client = 0;
	bool		stop_sent = false;
	bool		terminated = false;
	bool		tpcb_before_ok = false;
	int64		tpcb_before[4] = {0};
	int64		tpcb_after[4];

	memset(&result, 0, sizeof(result));
	memset(step, 0, sizeof(*step));
	step->run_id = run_id;

	njobs = coordinator_jobs(req, clients);
	coordinator_maintenance(req, run_id);
	/* check_tpcb: the sums before the run, after the history was truncated */
	tpcb_before_ok = req->check_tpcb && coordinator_tpcb_sums(req, run_id, tpcb_before);
	counters_ok = coordinator_counters(req, &checkpoints0, &autovacuums0);
	pgstat_report_activity(STATE_RUNNING,
						   psprintf("pgbenchx run " INT64_FORMAT ": %d clients, %d jobs",
									run_id, clients, njobs));

	/* the run's shared memory */
	ncommands = coordinator_command_count(req);
	size = run_shmem_size(njobs, req->payload_len, ncommands);
	step->seg = dsm_create(size, 0);
	run = step->run = (RunShared *) dsm_segment_address(step->seg);
	memset(run, 0, size);
	run->magic = RUN_SHMEM_MAGIC;
	run->run_id = run_id;
	run->coordinator_procno = MyProc->pgprocno;
	run->nclients = clients;
	run->njobs = njobs;
	run->duration = req->duration;
	run->transactions = req->transactions;
	run->protocol = req->protocol;
	run->knobs = req->knobs;
	run->scale = req->scale_detected;
	run->random_seed = req->random_seed;
	run->ring_len = coordinator_ring_seconds;
	strlcpy(run->script_name, req->script_name, RUN_SCRIPT_NAME_LEN);
	strlcpy(run->conninfo, req->conninfo, RUN_CONNINFO_LEN);
	pg_atomic_init_u32(&run->go, 0);
	pg_atomic_init_u32(&run->stop, 0);
	run->payload_offset = MAXALIGN(offsetof(RunShared, drivers) + sizeof(DriverShared) * njobs);
	memcpy((char *) run + run->payload_offset, req->payload, req->payload_len);
	run->ncommands = ncommands;
	run->cmdstats_offset = MAXALIGN(run->payload_offset + req->payload_len);
	run->nscripts = req->nscripts;
	run->ndefines = req->ndefines;
	for (int i = 0; i < njobs; i++)
	{
		DriverShared *d = &run->drivers[i];
		/* pgbench's share: (clients left + threads left - 1) / threads left */
		int			share = (clients - first_client + (njobs - i) - 1) / (njobs - i);

		pg_atomic_init_u32(&d->state, DRIVER_STARTING);
		pg_atomic_init_u64(&d->seconds_published, 0);
		pg_atomic_init_u64(&d->seconds_consumed, 0);
		pg_atomic_init_u64(&d->transactions, 0);
		d->procno = -1;
		d->first_client = first_client;
		d->nclients = share;
		first_client += share;
	}

	/* the drivers */
	step->njobs = njobs;
	step->handles = MemoryContextAllocZero(TopMemoryContext,
										   sizeof(BackgroundWorkerHandle *) * njobs);
	for (int i = 0; i < njobs; i++)
	{
		BackgroundWorker worker;

		launch_worker_spec(&worker, "driver_main", "pgbenchx driver",
						   UInt32GetDatum(dsm_segment_handle(step->seg)));
		snprintf(worker.bgw_name, BGW_MAXLEN, "pgbenchx driver %d of run " INT64_FORMAT,
				 i, run_id);
		memcpy(worker.bgw_extra, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&worker, &step->handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("could not start driver %d of %d: no free background worker slot", i + 1, njobs),
					 errhint("Raise max_worker_processes (this needs a restart), or pass fewer jobs.")));
	}

	/* wait for every client to connect */
	connect_start = GetCurrentTimestamp();
	deadline = connect_start + COORDINATOR_CONNECT_TIMEOUT_USEC;
	for (;;)
	{
		int			ready = 0;

		for (int i = 0; i < njobs; i++)
		{
			uint32		st = pg_atomic_read_u32(&run->drivers[i].state);

			if (st == DRIVER_FAILED)
			{
				pg_read_barrier();
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("driver %d failed while connecting: %s", i,
								coordinator_driver_text(run->drivers[i].error, RUN_ERROR_LEN))));
			}
			if (st == DRIVER_READY)
				ready++;
			else if (!coordinator_driver_alive(step, i))
				ereport(ERROR,
						(errcode(ERRCODE_INTERNAL_ERROR),
						 errmsg("driver %d exited while connecting", i),
						 errhint("See the server log.")));
		}
		if (ready == njobs)
			break;
		if (coordinator_cancel_requested)
		{
			*cancelled = true;
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("run cancelled while its clients were connecting")));
		}
		if (GetCurrentTimestamp() > deadline)
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("the clients did not all connect within %d s",
							(int) (COORDINATOR_CONNECT_TIMEOUT_USEC / USECS_PER_SEC))));
		coordinator_wait_latch(100);
	}

	/* go */
	run->bench_start = GetCurrentTimestamp();
	result.conn_time_ms = (double) (run->bench_start - connect_start) / 1000.0;
	pg_write_barrier();
	pg_atomic_write_u32(&run->go, 1);
	for (int i = 0; i < njobs; i++)
		SetLatch(&ProcGlobal->allProcs[run->drivers[i].procno].procLatch);
	results_bench_started(run_id);

	total = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_run));
	scratch = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_second));
	stats_run_reset(total);

	deadline = 0;
	for (;;)
	{
		int			done = 0;
		char	   *failure = NULL;

		coordinator_collect(step, total, &next_sec, scratch, false, 0, &lost);

		for (int i = 0; i < njobs; i++)
		{
			uint32		st = pg_atomic_read_u32(&run->drivers[i].state);

			if (st == DRIVER_DONE)
				done++;
			else if (st == DRIVER_FAILED)
			{
				pg_read_barrier();
				failure = psprintf("driver %d failed: %s", i,
								   coordinator_driver_text(run->drivers[i].error, RUN_ERROR_LEN));
			}
			else if (!coordinator_driver_alive(step, i))
				failure = psprintf("driver %d exited unexpectedly (see the server log)", i);
		}
		if (done == njobs)
			break;
		if (failure && result.error == NULL)
		{
			result.error = failure;
			result.status = "failed";
			coordinator_stop_drivers(step);
			stop_sent = true;
		}
		if (coordinator_cancel_requested && !stop_sent)
		{
			*cancelled = true;
			coordinator_stop_drivers(step);
			stop_sent = true;
		}
		if (stop_sent && deadline == 0)
			deadline = GetCurrentTimestamp() + COORDINATOR_STOP_TIMEOUT_USEC;
		if (deadline != 0 && GetCurrentTimestamp() > deadline)
		{
			/* drivers that do not stop are terminated */
			coordinator_terminate_drivers(step);
			terminated = true;
			if (result.error == NULL)
				result.error = pstrdup("drivers did not stop in time and were terminated");
			break;
		}
		/* whatever failed, drivers still alive must end before we count */
		if (failure)
		{
			bool		any_alive = false;

			for (int i = 0; i < njobs; i++)
				if (pg_atomic_read_u32(&run->drivers[i].state) != DRIVER_DONE &&
					pg_atomic_read_u32(&run->drivers[i].state) != DRIVER_FAILED &&
					coordinator_driver_alive(step, i))
					any_alive = true;
			if (!any_alive)
				break;
		}
		coordinator_wait_latch(100);
	}

	/* the totals */
	for (int i = 0; i < njobs; i++)
	{
		DriverShared *d = &run->drivers[i];

		pg_read_barrier();
		result.bench_end_usec = Max(result.bench_end_usec, d->bench_end_usec);
		result.driver_cpu_s += d->cpu_seconds;
		result.aborted_clients += d->aborted_clients;
		result.counts.serialization_failures += d->counts.serialization_failures;
		result.counts.deadlock_failures += d->counts.deadlock_failures;
		result.counts.retried += d->counts.retried;
		result.counts.retries += d->counts.retries;
		result.counts.skipped += d->counts.skipped;
		result.counts.late += d->counts.late;
		result.counts.lag_count += d->counts.lag_count;
		result.counts.lag_sum_usec += d->counts.lag_sum_usec;
		result.counts.lag_max_usec = Max(result.counts.lag_max_usec, d->counts.lag_max_usec);
		result.counts.reconnects += d->counts.reconnects;
		result.counts.reconnect_usec += d->counts.reconnect_usec;
		result.counts.notices += d->counts.notices;
		for (int k = 0; k < Min(d->nnotice_samples, RUN_NOTICE_SAMPLES) &&
			 result.nnotice_samples < RUN_NOTICE_SAMPLES; k++)
			result.notice_samples[result.nnotice_samples++] =
				coordinator_driver_text(d->notice_samples[k], RUN_NOTICE_LEN);
		if (d->error[0] != '\0' && result.error == NULL)
			result.error = coordinator_driver_text(d->error, RUN_ERROR_LEN);
	}
	coordinator_collect(step, total, &next_sec, scratch, true, result.bench_end_usec, &lost);

	/*
	 * The totals are the drivers' own, not the sum of the samples: a second
	 * the ring lost (or one past a failed driver's last) still counts.
	 */
	drivers_total = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_run));
	stats_run_reset(drivers_total);
	for (int i = 0; i < njobs; i++)
	{
		pg_read_barrier();
		stats_run_merge(drivers_total, &run->drivers[i].total);
	}
	result.samples_lost = lost;
	result.samples_lost_transactions = drivers_total->transactions > total->transactions ?
		(int64) (drivers_total->transactions - total->transactions) : 0;
	if (lost > 0)
		ereport(WARNING,
				(errmsg("pgbenchx run " INT64_FORMAT ": the samples of %d seconds were lost", run_id, lost),
				 errdetail("The coordinator could not write pgbenchx.samples for more than %d s (a lock on the table, or a slow disk); those seconds are not stored, and runs.samples_lost says so. The run's totals are complete.",
						   run->ring_len)));
	result.total = drivers_total;
	if (result.status == NULL)
	{
		if (*cancelled)
			result.status = "cancelled";
		else if (result.aborted_clients > 0)
			result.status = "failed";
		else
			result.status = "completed";
	}
	result.connect_per_transaction = req->knobs.connect_per_transaction;
	result.checkpoints = result.autovacuums = -1;
	if (counters_ok && coordinator_counters(req, &checkpoints1, &autovacuums1))
	{
		result.checkpoints = (int) (checkpoints1 - checkpoints0);
		result.autovacuums = (int) (autovacuums1 - autovacuums0);
	}
	/*
	 * check_tpcb: the balances agree before and after the run, and what they
	 * gained is what the run logged in pgbench_history.  Comparing the
	 * changes rather than the totals keeps the check true to the run when
	 * vacuum => true truncated the history before it (as pgbench does).
	 * Not checked when drivers had to be terminated: their clients'
	 * transactions may still be ending.
	 */
	result.tpcb_consistent = -1;
	if (tpcb_before_ok && !terminated && coordinator_tpcb_sums(req, run_id, tpcb_after))
	{
		bool		ok = tpcb_before[0] == tpcb_before[1] && tpcb_before[1] == tpcb_before[2] &&
			tpcb_after[0] == tpcb_after[1] && tpcb_after[1] == tpcb_after[2] &&
			tpcb_after[0] - tpcb_before[0] == tpcb_after[3] - tpcb_before[3];

		result.tpcb_consistent = ok ? 1 : 0;
		if (!ok)
			ereport(WARNING,
					(errmsg("pgbenchx run " INT64_FORMAT ": the TPC-B invariant does not hold", run_id),
					 errdetail("Sums of accounts, branches, tellers, history before the run: "
							   INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT
							   "; after: " INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT ".",
							   tpcb_before[0], tpcb_before[1], tpcb_before[2], tpcb_before[3],
							   tpcb_after[0], tpcb_after[1], tpcb_after[2], tpcb_after[3])));
	}
	/* the statement statistics are there when the run reads completed */
	if (!coordinator_write_statements(req, run_id, run))
	{
		*cancelled = true;
		if (strcmp(result.status, "completed") == 0)
			result.status = "cancelled";
		if (result.error == NULL)
			result.error = pstrdup("cancelled while its statement statistics were written; they are not stored");
	}
	results_finish_run(run_id, &result);
	step->run_id = 0;

	dsm_detach(step->seg);
	step->seg = NULL;
	step->run = NULL;
	pfree(step->handles);
	step->handles = NULL;
	pfree(total);
	pfree(drivers_total);
	pfree(scratch);
	return result.status;
}

/*
 * Record what an error or a termination left, once: the run in progress and
 * the sweep get their final status, and the drivers are stopped.
 */
static bool coordinator_finished = false;

static void
coordinator_abandon(const char *status, const char *message)
{
	CoordinatorStep *step = &coordinator_step;

	if (coordinator_finished)
		return;
	coordinator_finished = true;
	coordinator_stop_drivers(step);
	coordinator_terminate_drivers(step);
	AbortOutOfAnyTransaction();
	PG_TRY();
	{
		if (step->run_id != 0)
			results_abandon_run(step->run_id, status, message);
		if (coordinator_req && coordinator_req->is_sweep)
			results_finish_sweep(coordinator_req->id, status, message);
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		/* e.g. DROP EXTENSION during the run: say so, keep the first error */
		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		FlushErrorState();
		AbortOutOfAnyTransaction();
		ereport(WARNING,
				(errmsg("pgbenchx could not record the end of its %s " INT64_FORMAT ": %s",
						step->run_id != 0 ? "run" : "sweep",
						step->run_id != 0 ? step->run_id : coordinator_req ? coordinator_req->id : 0,
						edata->message),
				 errhint("The result tables may have been dropped (DROP EXTENSION pgbenchx) during the run.")));
		FreeErrorData(edata);
	}
	PG_END_TRY();
}

/*
 * Tell the caller that the run's rows are recorded, and wait until it has
 * acknowledged (it returns the id) or given up (its statement failed, or it
 * is gone).  Returns whether the run may go on.
 */
static bool
coordinator_handshake(LaunchRequest *shared_req)
{
	uint32		expected = LAUNCH_PENDING;
	PGPROC	   *caller = &ProcGlobal->allProcs[shared_req->caller_procno];

	shared_req->coordinator_procno = MyProc->pgprocno;
	pg_write_barrier();
	if (!pg_atomic_compare_exchange_u32(&shared_req->status, &expected, LAUNCH_STARTED))
		return false;			/* ABANDONED while we recorded the rows */
	SetLatch(&caller->procLatch);
	for (;;)
	{
		uint32		st = pg_atomic_read_u32(&shared_req->status);

		if (st == LAUNCH_ACKNOWLEDGED)
			return true;
		if (st == LAUNCH_ABANDONED)
			return false;
		/* a caller that died without its cleanup (a crash restarts everything anyway) */
		if (caller->pid != shared_req->caller_pid)
		{
			expected = LAUNCH_STARTED;
			if (pg_atomic_compare_exchange_u32(&shared_req->status, &expected, LAUNCH_ABANDONED))
				return false;
			continue;
		}
		coordinator_wait_latch(100);
	}
}

/* before_shmem_exit: a FATAL (pg_terminate_backend, shutdown) ends us here */
static void
coordinator_on_exit(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	if (coordinator_finished)
		return;
	PG_TRY();
	{
		/* terminated while the caller gave up: say what really happened */
		if (coordinator_shared_req &&
			pg_atomic_read_u32(&coordinator_shared_req->status) == LAUNCH_ABANDONED)
			coordinator_abandon("cancelled", LAUNCH_ABANDONED_MESSAGE);
		else
			coordinator_abandon(coordinator_cancel_requested ? "cancelled" : "aborted",
								"the coordinator was terminated (pg_terminate_backend or server shutdown)");
	}
	PG_CATCH();
	{
		/* nothing more can be done; the next run marks the rows aborted */
		EmitErrorReport();
		FlushErrorState();
	}
	PG_END_TRY();
}

void
coordinator_main(Datum main_arg)
{
	dsm_segment *seg;
	LaunchRequest *shared_req;
	LaunchRequest *req;
	Size		size;
	bool		cancelled = false;

	pqsignal(SIGTERM, die);
	pqsignal(SIGUSR2, coordinator_sigusr2);
	BackgroundWorkerUnblockSignals();
	/*
	 * A cancel interrupts every loopback wait: a statement (the maintenance
	 * waiting on a lock) is cancelled, a connection attempt (a server that
	 * does not answer) is given up.
	 */
	loopback_cancel_flag = &coordinator_cancel_requested;

	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
	{
		/* the caller's statement failed before we started: nothing to run */
		ereport(LOG,
				(errmsg("pgbenchx coordinator found no request: its caller gave up before it started")));
		proc_exit(0);
	}
	shared_req = (LaunchRequest *) dsm_segment_address(seg);
	if (shared_req->magic != LAUNCH_MAGIC)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("pgbenchx coordinator found a bad request")));
	if (pg_atomic_read_u32(&shared_req->status) == LAUNCH_ABANDONED)
	{
		dsm_detach(seg);
		proc_exit(0);
	}

	/* a private copy: the caller may go away once we have started */
	size = offsetof(LaunchRequest, payload) + shared_req->payload_len;
	req = MemoryContextAlloc(TopMemoryContext, size);
	memcpy(req, shared_req, size);
	coordinator_req = req;

	BackgroundWorkerInitializeConnectionByOid(req->dboid, req->roleid, 0);
	/* its SPI names no user table: nothing on the role's search_path applies */
	searchpath_pin_worker();
	pgstat_report_appname("pgbenchx coordinator");

	if (!coordinator_lock())
	{
		uint32		expected = LAUNCH_PENDING;

		strlcpy(shared_req->error, "another pgbenchx run started first", RUN_ERROR_LEN);
		pg_write_barrier();
		if (pg_atomic_compare_exchange_u32(&shared_req->status, &expected, LAUNCH_FAILED))
			SetLatch(&ProcGlobal->allProcs[shared_req->caller_procno].procLatch);
		dsm_detach(seg);
		proc_exit(0);
	}

	coordinator_shared_req = shared_req;
	before_shmem_exit(coordinator_on_exit, (Datum) 0);

	PG_TRY();
	{
		bool		any_failed = false;

		/* we hold the only lock: any row still "running" lost its coordinator */
		(void) results_mark_orphans_aborted();
		if (req->is_sweep)
			results_start_sweep(req);
		else
		{
			results_create_run(req, req->id, req->clients[0],
							   coordinator_jobs(req, req->clients[0]), 1);
			coordinator_step.run_id = req->id;
		}

		/* run only once the caller knows the id (launch.h) */
		if (!coordinator_handshake(shared_req))
		{
			coordinator_abandon("cancelled", LAUNCH_ABANDONED_MESSAGE);
			coordinator_shared_req = NULL;
			dsm_detach(seg);
			proc_exit(0);
		}
		coordinator_shared_req = NULL;
		dsm_detach(seg);

		for (int i = 0; i < req->nsteps && !cancelled; i++)
		{
			int			clients = req->clients[i];
			int64		run_id = req->id;

			if (req->is_sweep)
				run_id = results_create_run(req, 0, clients, coordinator_jobs(req, clients),
											req->step_repeat[i]);
			coordinator_step.run_id = run_id;
			if (strcmp(coordinator_run_step(req, run_id, clients, &cancelled), "failed") == 0)
				any_failed = true;
			CHECK_FOR_INTERRUPTS();
		}
		if (req->is_sweep)
			results_finish_sweep(req->id,
								 cancelled ? "cancelled" : any_failed ? "failed" : "completed",
								 any_failed ? "one or more runs failed" : NULL);
		coordinator_finished = true;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		HOLD_INTERRUPTS();
		/*
		 * Not in the context of the failed transaction: coordinator_abandon
		 * aborts it, which would free edata before we rethrow it.
		 */
		MemoryContextSwitchTo(TopMemoryContext);
		edata = CopyErrorData();
		FlushErrorState();
		coordinator_abandon(cancelled || coordinator_cancel_requested ? "cancelled" : "failed",
							edata->message);
		RESUME_INTERRUPTS();
		ReThrowError(edata);
	}
	PG_END_TRY();

	proc_exit(0);
}
