/*-------------------------------------------------------------------------
 *
 * coordinator.c
 *	  The coordinator background worker: owns a run or a sweep from the
 *	  moment the caller hands it over until its last row is written.
 *
 * For each step it checks whose code the step would run (trust.c), does
 * pgbench's pre-run maintenance over a loopback
 * connection, creates the run's DSM segment, starts the drivers, waits for
 * them to connect, starts the measured interval, collects the per-second
 * statistics they publish (one pgbenchx.samples row per second, each in its
 * own short transaction, and beside it, unless record_system is off, the
 * second's pgbenchx.system_samples row from sysrecord.c, whose readings it
 * triggers at a few marked points), stops them on cancel or failure, and writes the
 * final pgbenchx.runs row.  A result is committed the moment it exists: a
 * sweep that dies at step 10 keeps steps 1 to 9.
 *
 * Every phase of a step is published for pgbenchx.progress (progress.c).
 * With record_system, the measure loop wakes every 10 ms for the wait
 * sampler (waitsample.c), which writes each second's wait events and
 * backend CPU when that second's samples row is written.
 *
 * A part (waiting for its go, without the lock beside its recorder's run)
 * and a run driven from generators (whose step is the recorder's) are
 * step kinds (coordinator.h), whose hooks fleet/ fills in: this file calls
 * them at its phases and includes no fleet/ header.  The step's system
 * readings are held here for every kind of step (coordinator_readings_*).
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
#include "nodes/makefuncs.h"
#include "nodes/parsenodes.h"
#include "postmaster/bgworker.h"
#include "postmaster/interrupt.h"
#include "postmaster/postmaster.h"
#include "utils/guc.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lmgr.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/builtins.h"
#include "utils/memutils.h"
#include "utils/snapmgr.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "coordinator.h"
#include "loopback.h"
#include "pg_compat.h"
#include "progress.h"
#include "results.h"
#include "run_shmem.h"
#include "run_spec.h"
#include "searchpath.h"
#include "stats.h"
#include "sysrecord.h"
#include "trust.h"
#include "waitsample.h"
#include "worker.h"

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
	CommandStats *cmdstats;		/* njobs x spec->ncommands, in seg */
	BackgroundWorkerHandle **handles;
	int			njobs;
	int64		run_id;
	pg_atomic_uint32 *client_pids;	/* nclients, in seg (run_spec.h) */
	WaitSampler *sampler;		/* record_system, while measuring */
	SysRecord  *sysrec;			/* per-second readings (sysrecord.h); NULL: not recorded */
	uint64		poked_sec;		/* whole seconds the drivers were poked for */
} CoordinatorStep;

static CoordinatorStep coordinator_step;
/*
 * the run's spec and its payload, our private copies; the payload and the
 * script mix of the step in progress: the run's, or in an experiment its
 * configuration's (coordinator_step_spec), each read back once
 */
static RunSpec *coordinator_spec;
static char *coordinator_launch_payload;
static char *coordinator_payload;
static RunMix coordinator_mix;
static RunMix coordinator_config_mix[RUN_SPEC_MAX_CONFIGS];
/* the caller's handshake, while attached (until it is over) */
static LaunchHandshake *coordinator_hs;
/* why the run was stopped when no pgbenchx.cancel did it (the quota) */
static char *coordinator_stop_reason;

/* the kinds of run that plug into the steps (coordinator.h); a local run has none */
static const StepKind coordinator_local_kind = {0};
const StepKind *coordinator_step_kinds[RUN_NKINDS];
/* the run's, once its spec is attached */
static const StepKind *coordinator_kind;

/* The hooks of the run's kind (run_spec.h). */
static const StepKind *
coordinator_kind_of(const RunSpec *spec)
{
	RunKind		kind = run_spec_kind(spec);

	run_spec_kind_check(kind, coordinator_step_kinds[kind], "step kind");
	return kind == RUN_KIND_LOCAL ? &coordinator_local_kind : coordinator_step_kinds[kind];
}

/*
 * The step's per-second system readings (sysrecord.c), one lifecycle for
 * every kind of step (coordinator.h): the local steps' calls are below, a
 * step without local drivers (StepKind.run_step) makes the same ones.
 */
void
coordinator_readings_begin(const RunSpec *spec, int64 run_id, int ring_len,
						   RunShared *run, BackgroundWorkerHandle **handles, int njobs)
{
	coordinator_step.sysrec = sysrecord_begin(spec, run_id, ring_len, run, handles, njobs);
}

void
coordinator_readings_start(TimestampTz bench_start)
{
	sysrecord_baseline(coordinator_step.sysrec, bench_start);
}

void
coordinator_readings_tick(void)
{
	sysrecord_tick(coordinator_step.sysrec);
}

void
coordinator_readings_second(int second, double covered_s, bool last)
{
	sysrecord_write(coordinator_step.sysrec, second, covered_s, last);
}

void
coordinator_readings_end(void)
{
	sysrecord_end(coordinator_step.sysrec);
}

/* before the final row: runs.system_notes; the readings are freed */
static void
coordinator_readings_finish(void)
{
	sysrecord_finish(coordinator_step.sysrec);
	coordinator_step.sysrec = NULL;
}

/* why a cancelled run or sweep ended, for runs.error and sweeps.error */
static char *
coordinator_cancel_reason(void)
{
	return coordinator_stop_reason ? pstrdup(coordinator_stop_reason) : progress_cancel_reason();
}

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
 *
 * The checkpoints are pg_stat_bgwriter's checkpoints_timed and
 * checkpoints_req until 16; 17 moved them to pg_stat_checkpointer as
 * num_timed and num_requested (the same counts).  That server may be of
 * another major than this build (conninfo), so its own version chooses.
 */
static bool
coordinator_counters(const RunSpec *spec, int64 *checkpoints, int64 *autovacuums)
{
	char	   *connerr;
	char	   *value = NULL;
	char	   *error;
	PGconn	   *conn = loopback_connect(spec->conninfo, &connerr);

	if (conn == NULL)
		return false;
	error = loopback_exec(conn,
						  PQserverVersion(conn) >= 170000 ?
						  "SELECT pg_catalog.concat_ws(' ',"
						  " (SELECT num_timed OPERATOR(pg_catalog.+) num_requested FROM pg_catalog.pg_stat_checkpointer),"
						  " (SELECT coalesce(pg_catalog.sum(autovacuum_count OPERATOR(pg_catalog.+) autoanalyze_count), 0)"
						  " FROM pg_catalog.pg_stat_all_tables))" :
						  "SELECT pg_catalog.concat_ws(' ',"
						  " (SELECT checkpoints_timed OPERATOR(pg_catalog.+) checkpoints_req FROM pg_catalog.pg_stat_bgwriter),"
						  " (SELECT coalesce(pg_catalog.sum(autovacuum_count OPERATOR(pg_catalog.+) autoanalyze_count), 0)"
						  " FROM pg_catalog.pg_stat_all_tables))", &value, NULL);
	pqconn_finish(conn);
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
static bool
coordinator_tpcb_sums(const RunSpec *spec, int64 run_id, int64 sums[4])
{
	char	   *connerr;
	char	   *value = NULL;
	char	   *error;
	PGconn	   *conn;

	pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchx run " INT64_FORMAT ": check_tpcb", run_id));
	conn = loopback_connect(spec->conninfo, &connerr);
	if (conn == NULL)
	{
		ereport(WARNING,
				(errmsg("pgbenchx run " INT64_FORMAT ": could not connect to check the TPC-B invariant: %s",
						run_id, connerr)));
		return false;
	}
	error = loopback_exec(conn, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", NULL, NULL);
	if (error == NULL)
		error = loopback_exec(conn, RUN_SPEC_TPCB_SUMS, &value, NULL);
	pqconn_finish(conn);
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

/*
 * Before each step (a sweep lasts long, and objects change between steps):
 * whose code the step would run, as at launch (trust.c), with the clients'
 * role and search_path read again over a connection made as theirs.  A
 * refusal ends the run (and its sweep) as failed, keeping the steps done.
 */
static void
coordinator_trust_check(const RunSpec *spec, int64 run_id)
{
	char	   *connerr;
	char	   *error = NULL;
	PGconn	   *conn;
	TrustClients clients;
	volatile bool ok = false;

	pgstat_report_activity(STATE_RUNNING, psprintf("pgbenchx run " INT64_FORMAT ": trust check", run_id));
	conn = loopback_connect(spec->conninfo, &connerr);
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("run " INT64_FORMAT ": could not connect to check whose code the run executes: %s",
						run_id, connerr)));
	PG_TRY();
	{
		ok = trust_read_clients(conn, &clients, &error);
	}
	PG_FINALLY();
	{
		pqconn_finish(conn);
	}
	PG_END_TRY();
	if (!ok)
		ereport(ERROR,
				(errcode(ERRCODE_CONNECTION_FAILURE),
				 errmsg("run " INT64_FORMAT ": could not read the benchmark clients' role and search_path", run_id),
				 errdetail("%s", error)));
	coordinator_check_cancel(run_id);
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	trust_check_run(spec, &clients, coordinator_mix.nscripts, coordinator_mix.names,
					coordinator_mix.texts);
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/* pgbench's pre-run maintenance; errors are reported and ignored, as pgbench does */
static void
coordinator_maintenance(const RunSpec *spec, int64 run_id)
{
	char	   *connerr;
	PGconn	   *conn;
	static const char *const vacuum_sql[] = RUN_SPEC_MAINTENANCE_SQL;

	if (!spec->vacuum && !spec->checkpoint)
		return;
	conn = loopback_connect(spec->conninfo, &connerr);
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("run " INT64_FORMAT ": could not connect for the pre-run maintenance: %s",
						run_id, connerr)));
	/* a cancel interrupts a maintenance statement waiting on a lock */
	PG_TRY();
	{
		if (spec->vacuum)
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
		if (spec->checkpoint)
		{
			char	   *error;

			coordinator_check_cancel(run_id);
			progress_phase(RUN_PHASE_CHECKPOINT);
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
		pqconn_finish(conn);
	}
	PG_END_TRY();
	coordinator_check_cancel(run_id);
}

/*
 * A driver waits without a timeout while none of its clients sleeps
 * (driver_loop), so a second boundary that passes while every one of its
 * clients waits on the server wakes it only if we set its latch.  Once per
 * whole second, the live drivers that have not published the seconds before
 * it are poked; they publish them as soon as they wake.
 */
static void
coordinator_poke_drivers(CoordinatorStep *step, uint64 whole)
{
	RunShared  *run = step->run;

	if (whole <= step->poked_sec)
		return;
	step->poked_sec = whole;
	for (int i = 0; i < step->njobs; i++)
	{
		uint32		st = pg_atomic_read_u32(&run->drivers[i].state);

		if (st != DRIVER_DONE && st != DRIVER_FAILED &&
			pg_atomic_read_u64(&run->drivers[i].seconds_published) < whole)
			SetLatch(&ProcGlobal->allProcs[run->drivers[i].procno].procLatch);
	}
}

/*
 * Read every second that all drivers have published, write its sample row
 * and add it to the run's totals.  final: the drivers are done, so the last
 * (possibly partial) second is complete too.
 *
 * A driver that is done (or failed) publishes nothing more: the seconds
 * after its last are empty for it, so it no longer holds the others back.
 * Once every driver has stopped, the last second is left to the final call,
 * which knows when the measured interval ended: that second covered only
 * the time from its start to bench_end_usec (less than a second for a run
 * bounded by transactions or cancelled; about a second for a timed run,
 * whose transactions in flight at the end count in it).  Its row stores
 * that time as covered_s and its tps as a rate over it, not as a count.
 */
static void
coordinator_collect(CoordinatorStep *step, stats_run *total, uint64 *next_sec,
					stats_second *scratch, bool final, TimestampTz bench_end_usec,
					int *lost)
{
	RunShared  *run = step->run;
	uint64		ready = PG_UINT64_MAX;
	uint64		stopped_max = 0;
	bool		any_live = false;
	uint64		ring = (uint64) run->ring_len;

	for (int i = 0; i < step->njobs; i++)
	{
		uint32		st = pg_atomic_read_u32(&run->drivers[i].state);
		uint64		published;

		/* a driver says done after its final publication (driver.c) */
		pg_read_barrier();
		published = pg_atomic_read_u64(&run->drivers[i].seconds_published);
		if (final || st == DRIVER_DONE || st == DRIVER_FAILED)
			stopped_max = Max(stopped_max, published);
		else
		{
			ready = Min(ready, published);
			any_live = true;
		}
	}
	/* every driver stopped: the last second waits for the final call */
	if (!any_live)
		ready = final ? stopped_max : (stopped_max > 0 ? stopped_max - 1 : 0);

	/*
	 * Before the final call, no second is complete before its end: a
	 * driver publishes its last, partial second just before it says done,
	 * and that second must wait for the final call, which knows when the
	 * measured interval ended (its covered_s).
	 */
	if (!final && run->bench_start > 0)
	{
		TimestampTz now = GetCurrentTimestamp();
		uint64		whole = now > run->bench_start ?
			(uint64) ((now - run->bench_start) / USECS_PER_SEC) : 0;

		if (any_live && ready < whole)
			coordinator_poke_drivers(step, whole);
		ready = Min(ready, whole);
	}
	pg_read_barrier();

	while (*next_sec < ready)
	{
		uint64		sec = *next_sec;
		double		span = 1.0;
		bool		intact = true;

		/*
		 * A copy of each driver's slot, valid only if no driver had started
		 * to reuse it (seconds_published below sec + ring) after the copy
		 * (run_shmem.h): otherwise the second is lost, not stored wrong.  A
		 * stopped driver that never reached this second adds nothing.
		 */
		stats_second_reset(scratch);
		for (int i = 0; i < step->njobs && intact; i++)
		{
			uint64		published = pg_atomic_read_u64(&run->drivers[i].seconds_published);

			if (published >= sec + ring)
				intact = false;
			else if (published > sec)
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
		/* the last second covers up to the end of the measured interval */
		if (final && sec + 1 == ready && bench_end_usec > 0)
		{
			span = (double) (bench_end_usec - (int64) sec * USECS_PER_SEC) / USECS_PER_SEC;
			span = Max(span, 0.001);
		}
		stats_run_add_second(total, scratch);
		results_write_sample(step->run_id, (int) sec + 1, scratch, span);
		/* sysrecord: this second's system_samples row, now that its sample is written */
		coordinator_readings_second((int) sec + 1, span, final && sec + 1 == ready);
		if (step->sampler)
			waitsample_write_second(step->sampler, sec, span);
		(*next_sec)++;
	}
}

/*
 * pgbench -r: the drivers' per-command figures, summed, one row per command
 * of each script (the drivers lay the scripts' commands out one after the
 * other, in the mix's order), written in one INSERT before the run's final
 * status, at most COORDINATOR_MAX_STATEMENT_ROWS of them.  They are written
 * for a cancelled run too: a cancel that came before this phase (while the
 * run measured) does not touch them.  Only a cancel that arrives while the
 * INSERT runs cancels it (it may wait on a lock on statement_stats, which
 * would otherwise hold the run as long as the lock is held); returns false
 * then, and nothing is written.  A run driven from generators has the
 * parts' instead, summed (its StepKind.write_statements), under the same rule.
 */
#define COORDINATOR_MAX_STATEMENT_ROWS	100000

static bool
coordinator_write_statements(const RunSpec *spec, int64 run_id, CoordinatorStep *step)
{
	const RunMix *mix = &coordinator_mix;
	int			base = 0;
	volatile int n = 0;
	int			cap = Min(spec->ncommands, COORDINATOR_MAX_STATEMENT_ROWS);
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
	/* a run driven from generators has no drivers here: the parts' (its kind's) */
	if (coordinator_kind->write_statements)
		cap = 0;
	scripts = palloc(sizeof(char *) * Max(1, cap));
	texts = palloc(sizeof(char *) * Max(1, cap));
	commands = palloc(sizeof(int) * Max(1, cap));
	sum = palloc0(sizeof(CommandStats) * Max(1, cap));
	for (int k = 0; k < mix->nscripts && n < cap; k++)
	{
		int			count = spec->script_commands[k];

		for (int i = 0; i < count && n < cap; i++, n++)
		{
			if ((i & 1023) == 0)
				CHECK_FOR_INTERRUPTS();
			scripts[n] = mix->names[k];
			commands[n] = i + 1;
			texts[n] = mix->first_lines[base + i];
			for (int d = 0; d < step->njobs; d++)
			{
				const CommandStats *cs = &step->cmdstats[d * spec->ncommands + base + i];

				sum[n].executions += cs->executions;
				sum[n].sum_usec += cs->sum_usec;
				sum[n].failures += cs->failures;
				sum[n].retries += cs->retries;
			}
		}
		base += count;
	}
	/* a cancel from now on cancels the INSERT, even one waiting on a lock */
	coordinator_in_statements = true;
	PG_TRY();
	{
		if (coordinator_kind->write_statements)
			coordinator_kind->write_statements(run_id);
		else
			results_write_statements(run_id, n, scripts, commands, texts, sum);
		coordinator_in_statements = false;
		/* a cancel that came as the INSERT ended is not for what follows */
		QueryCancelPending = false;
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
	MemoryContextSwitchTo(old);
	MemoryContextDelete(cxt);
	return done;
}

/* the jobs of a step: as asked, at most one per client, else chosen */
static int
coordinator_jobs(const RunSpec *spec, int clients)
{
	return spec->jobs > 0 ? Min(spec->jobs, clients) :
		worker_default_jobs(clients, spec->ncpus, max_worker_processes);
}

/*
 * log_transactions, client_messages: the run's last records stay readable
 * after its row is final until, for each of the two the run writes, at
 * least one session reads them and every session that read them has had a
 * call that found every driver done (it returned the last records:
 * txlog.c), or COORDINATOR_TXLOG_WAIT_MS have passed, or a cancel.  Readers never keep the segment between calls, so this wait is
 * all that the segment outlives its run by (issue 34 §5).  The drivers are
 * done: this delays only the next step and the coordinator's exit.
 */
#define COORDINATOR_TXLOG_WAIT_MS	5000

static void
coordinator_wait_txlog_reader(CoordinatorStep *step)
{
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   COORDINATOR_TXLOG_WAIT_MS);

	while (!coordinator_cancel_requested && GetCurrentTimestamp() < deadline)
	{
		RunShared  *run = step->run;
		uint32		readers = pg_atomic_read_u32(&run->txlog_readers);
		uint32		msg_readers = pg_atomic_read_u32(&run->msg_readers);

		pg_read_barrier();
		if ((!run->knobs.log_transactions ||
			 (readers > 0 && pg_atomic_read_u32(&run->txlog_finished) >= readers)) &&
			(!run->knobs.client_messages ||
			 (msg_readers > 0 && pg_atomic_read_u32(&run->msg_finished) >= msg_readers)))
			break;
		coordinator_wait_latch(20);
	}
}

/*
 * Setup: the step's DSM segment, laid out with shm_toc (run_spec.h): the
 * header with each driver's share of the clients, the run's spec and
 * payload as launch built them, and the drivers' CommandStats.
 */
static void
coordinator_setup_segment(CoordinatorStep *step, const RunSpec *spec, int clients)
{
	shm_toc_estimator e;
	Size		shared_size = offsetof(RunShared, drivers) + sizeof(DriverShared) * step->njobs;
	Size		cmdstats_size = sizeof(CommandStats) * step->njobs * spec->ncommands;
	Size		size;
	shm_toc    *toc;
	RunShared  *run;
	int			njobs = step->njobs;
	int			first_client = 0;

	shm_toc_initialize_estimator(&e);
	shm_toc_estimate_chunk(&e, shared_size);
	shm_toc_estimate_chunk(&e, cmdstats_size);
	shm_toc_estimate_keys(&e, 2);
	if (spec->knobs.log_transactions)
	{
		shm_toc_estimate_chunk(&e, sizeof(TxLogRing) * njobs);
		shm_toc_estimate_keys(&e, 1);
	}
	if (spec->knobs.client_messages)
	{
		shm_toc_estimate_chunk(&e, sizeof(MsgRing) * njobs);
		shm_toc_estimate_keys(&e, 1);
	}
	run_spec_estimate(&e, spec);
	run_spec_estimate_client_pids(&e, clients);
	size = shm_toc_estimate(&e);

	step->seg = dsm_create(size, 0);
	toc = shm_toc_create(RUN_SPEC_STEP_MAGIC, dsm_segment_address(step->seg), size);
	run_spec_store(toc, spec, coordinator_payload);
	step->cmdstats = shm_toc_allocate(toc, cmdstats_size);
	memset(step->cmdstats, 0, cmdstats_size);
	shm_toc_insert(toc, RUN_SPEC_KEY_CMDSTATS, step->cmdstats);
	step->client_pids = run_spec_store_client_pids(toc, clients);
	if (spec->knobs.log_transactions)
	{
		TxLogRing  *rings = shm_toc_allocate(toc, sizeof(TxLogRing) * njobs);

		/* the records are written before they are read: only the counters */
		for (int i = 0; i < njobs; i++)
			pg_atomic_init_u64(&rings[i].written, 0);
		shm_toc_insert(toc, RUN_SPEC_KEY_TXLOG, rings);
	}
	if (spec->knobs.client_messages)
	{
		MsgRing    *rings = shm_toc_allocate(toc, sizeof(MsgRing) * njobs);

		for (int i = 0; i < njobs; i++)
			pg_atomic_init_u64(&rings[i].written, 0);
		shm_toc_insert(toc, RUN_SPEC_KEY_MSGS, rings);
	}

	run = step->run = shm_toc_allocate(toc, shared_size);
	memset(run, 0, shared_size);
	run->run_id = step->run_id;
	run->coordinator_procno = PGX_PROCNO(MyProc);
	run->nclients = clients;
	run->njobs = njobs;
	run->ring_len = coordinator_ring_seconds;
	/* a part's clients are numbered within the whole run (part.c) */
	run->first_client = spec->is_part ? spec->first_client : 0;
	run->total_clients = spec->is_part ? spec->total_clients : clients;
	/* what the clients' loop reads on every transaction (run_shmem.h) */
	run->duration = spec->duration;
	run->transactions = spec->transactions;
	run->protocol = spec->protocol;
	run->knobs = spec->knobs;
	pg_atomic_init_u32(&run->go, 0);
	pg_atomic_init_u32(&run->stop, 0);
	pg_atomic_init_u32(&run->txlog_readers, 0);
	pg_atomic_init_u32(&run->txlog_finished, 0);
	pg_atomic_init_u32(&run->msg_readers, 0);
	pg_atomic_init_u32(&run->msg_finished, 0);
	for (int i = 0; i < njobs; i++)
	{
		DriverShared *d = &run->drivers[i];
		/* pgbench's share of the clients left */
		int			share = run_spec_share(clients - first_client, njobs, i);

		pg_atomic_init_u32(&d->state, DRIVER_STARTING);
		pg_atomic_init_u64(&d->seconds_published, 0);
		pg_atomic_init_u64(&d->seconds_consumed, 0);
		pg_atomic_init_u64(&d->transactions, 0);
		d->procno = -1;
		d->first_client = first_client;
		d->nclients = share;
		first_client += share;
	}
	shm_toc_insert(toc, RUN_SPEC_KEY_SHARED, run);
}

/* Start: one driver worker per job, given the segment and its index. */
static void
coordinator_start_drivers(CoordinatorStep *step)
{
	step->handles = MemoryContextAllocZero(TopMemoryContext,
										   sizeof(BackgroundWorkerHandle *) * step->njobs);
	for (int i = 0; i < step->njobs; i++)
	{
		BackgroundWorker worker;

		worker_spec(&worker, "driver_main", "pgbenchx driver",
					UInt32GetDatum(dsm_segment_handle(step->seg)));
		snprintf(worker.bgw_name, BGW_MAXLEN, "pgbenchx driver %d of run " INT64_FORMAT,
				 i, step->run_id);
		memcpy(worker.bgw_extra, &i, sizeof(int));
		if (!RegisterDynamicBackgroundWorker(&worker, &step->handles[i]))
			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("could not start driver %d of %d: no free background worker slot", i + 1, step->njobs),
					 errhint("Raise max_worker_processes (this needs a restart), or pass fewer jobs.")));
	}
}

/*
 * Wait for workers: every driver has connected all its clients (READY).
 * Returns when the wait started.
 */
static TimestampTz
coordinator_wait_for_drivers(CoordinatorStep *step, bool *cancelled)
{
	RunShared  *run = step->run;
	TimestampTz connect_start = GetCurrentTimestamp();
	TimestampTz deadline = connect_start + COORDINATOR_CONNECT_TIMEOUT_USEC;

	for (;;)
	{
		int			ready = 0;

		for (int i = 0; i < step->njobs; i++)
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
		if (ready == step->njobs)
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
	return connect_start;
}

/* Go: start the measured interval and wake every driver. */
static void
coordinator_go(CoordinatorStep *step)
{
	RunShared  *run = step->run;

	run->bench_start = GetCurrentTimestamp();
	/* sysrecord: the baseline reading, at bench_start, before the drivers go */
	coordinator_readings_start(run->bench_start);
	pg_write_barrier();
	pg_atomic_write_u32(&run->go, 1);
	progress_phase(RUN_PHASE_MEASURING);
	for (int i = 0; i < step->njobs; i++)
		SetLatch(&ProcGlobal->allProcs[run->drivers[i].procno].procLatch);
	results_bench_started(step->run_id, run->bench_start);
}

/*
 * A run bounded by transactions: the share of them done, for the expected
 * end (a replay's clients run each statement once, each counted).
 */
static void
coordinator_measured(CoordinatorStep *step)
{
	RunShared  *run = step->run;
	double		per_client = run->knobs.replay ? coordinator_spec->ncommands : (double) run->transactions;
	uint64		done = 0;

	if (run->duration > 0 || per_client <= 0)
		return;
	for (int i = 0; i < step->njobs; i++)
		done += pg_atomic_read_u64(&run->drivers[i].transactions);
	progress_measured((double) done / (per_client * run->nclients));
}

/*
 * Measure: collect the seconds until every driver is done; on a failure or
 * a cancel stop them, and terminate those that do not stop in time.
 * Returns whether drivers had to be terminated.
 */
static bool
coordinator_measure(CoordinatorStep *step, stats_run *total, stats_second *scratch,
					uint64 *next_sec, int *lost, RunResult *result, bool *cancelled)
{
	RunShared  *run = step->run;
	TimestampTz deadline = 0;
	bool		stop_sent = false;
	bool		terminated = false;

	for (;;)
	{
		int			done = 0;
		char	   *failure = NULL;

		if (step->sampler)
			waitsample_tick(step->sampler);
		/* sysrecord: a reading once a second boundary has passed, before its sample */
		coordinator_readings_tick();
		coordinator_collect(step, total, next_sec, scratch, false, 0, lost);
		coordinator_measured(step);

		for (int i = 0; i < step->njobs; i++)
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
		if (done == step->njobs)
			break;
		if (failure && result->error == NULL)
		{
			result->error = failure;
			result->status = "failed";
			coordinator_stop_drivers(step);
			stop_sent = true;
		}
		if (coordinator_cancel_requested && !stop_sent)
		{
			*cancelled = true;
			coordinator_stop_drivers(step);
			stop_sent = true;
		}
		/* a run without a duration of a role with a quota (launch_check_quotas) */
		if (coordinator_spec->time_limit_s > 0 && !stop_sent &&
			GetCurrentTimestamp() >= run->bench_start + (int64) coordinator_spec->time_limit_s * USECS_PER_SEC)
		{
			*cancelled = true;
			coordinator_stop_reason = MemoryContextStrdup(TopMemoryContext,
														  psprintf("stopped after %d s: pgbenchx.max_duration limits the runs of role \"%s\"",
																   coordinator_spec->time_limit_s, coordinator_spec->owner));
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
			if (result->error == NULL)
				result->error = pstrdup("drivers did not stop in time and were terminated");
			break;
		}
		/* whatever failed, drivers still alive must end before we count */
		if (failure)
		{
			bool		any_alive = false;

			for (int i = 0; i < step->njobs; i++)
				if (pg_atomic_read_u32(&run->drivers[i].state) != DRIVER_DONE &&
					pg_atomic_read_u32(&run->drivers[i].state) != DRIVER_FAILED &&
					coordinator_driver_alive(step, i))
					any_alive = true;
			if (!any_alive)
				break;
		}
		/* record_system: wake every 10 ms for the wait sampler's tick */
		coordinator_wait_latch(step->sampler ? waitsample_timeout_ms(step->sampler) : 100);
	}
	if (step->sampler)
		waitsample_end(step->sampler);
	return terminated;
}

/* The drivers' totals, counts, notices and first error, into result. */
static void
coordinator_sum_drivers(CoordinatorStep *step, RunResult *result)
{
	RunShared  *run = step->run;

	for (int i = 0; i < step->njobs; i++)
	{
		DriverShared *d = &run->drivers[i];

		pg_read_barrier();
		result->bench_end_usec = Max(result->bench_end_usec, d->bench_end_usec);
		result->driver_cpu_s += d->cpu_seconds;
		result->aborted_clients += d->aborted_clients;
		result->counts.serialization_failures += d->counts.serialization_failures;
		result->counts.deadlock_failures += d->counts.deadlock_failures;
		result->counts.retried += d->counts.retried;
		result->counts.retries += d->counts.retries;
		result->counts.skipped += d->counts.skipped;
		result->counts.late += d->counts.late;
		result->counts.lag_count += d->counts.lag_count;
		result->counts.lag_sum_usec += d->counts.lag_sum_usec;
		result->counts.lag_max_usec = Max(result->counts.lag_max_usec, d->counts.lag_max_usec);
		result->counts.reconnects += d->counts.reconnects;
		result->counts.reconnect_usec += d->counts.reconnect_usec;
		result->counts.notices += d->counts.notices;
		result->nscripts = coordinator_mix.nscripts;
		for (int k = 0; k < coordinator_mix.nscripts; k++)
		{
			const ScriptCounts *from = &d->script_counts[k];
			ScriptCounts *to = &result->scripts[k];

			to->transactions += from->transactions;
			to->failed += from->failed;
			to->serialization_failures += from->serialization_failures;
			to->deadlock_failures += from->deadlock_failures;
			to->retried += from->retried;
			to->retries += from->retries;
			to->skipped += from->skipped;
			to->latency_sum_usec += from->latency_sum_usec;
			to->latency_sum2_usec += from->latency_sum2_usec;
		}
		for (int k = 0; k < Min(d->nnotice_samples, RUN_NOTICE_SAMPLES) &&
			 result->nnotice_samples < RUN_NOTICE_SAMPLES; k++)
			result->notice_samples[result->nnotice_samples++] =
				coordinator_driver_text(d->notice_samples[k], RUN_NOTICE_LEN);
		if (d->error[0] != '\0' && result->error == NULL)
			result->error = coordinator_driver_text(d->error, RUN_ERROR_LEN);
	}
}

/* what was read before a run, to compare with after it */
typedef struct CoordinatorBefore
{
	bool		counters_ok;
	int64		checkpoints;
	int64		autovacuums;
	bool		tpcb_ok;
	int64		tpcb[4];
} CoordinatorBefore;

/*
 * Prepare: pgbench's pre-run maintenance, then what is compared after the
 * run (check_tpcb's sums, once the history was truncated; the server's
 * checkpoint and autovacuum counts).
 */
static void
coordinator_prepare(const RunSpec *spec, int64 run_id, CoordinatorBefore *before)
{
	memset(before, 0, sizeof(*before));
	coordinator_trust_check(spec, run_id);
	coordinator_maintenance(spec, run_id);
	if (spec->check_tpcb)
		progress_phase(RUN_PHASE_MAINTENANCE);
	before->tpcb_ok = spec->check_tpcb && coordinator_tpcb_sums(spec, run_id, before->tpcb);
	before->counters_ok = coordinator_counters(spec, &before->checkpoints, &before->autovacuums);
}

/*
 * Record: the run's status, what changed on the server during it, the
 * TPC-B check and the statement statistics, then its final row, from the
 * drivers' figures or, for a run driven from generators, from its parts'
 * merged (recorder.c): every run's final row is written here.  Returns the
 * status.
 */
static const char *
coordinator_record(const RunSpec *spec, CoordinatorStep *step, const CoordinatorBefore *before,
				   RunResult *result, bool terminated, bool *cancelled)
{
	int64		run_id = step->run_id;
	int64		checkpoints1,
				autovacuums1;
	int64		tpcb_after[4];

	if (result->status == NULL)
	{
		if (*cancelled)
			result->status = "cancelled";
		else if (result->aborted_clients > 0)
			result->status = "failed";
		else
			result->status = "completed";
	}
	result->connect_per_transaction = spec->knobs.connect_per_transaction;
	result->checkpoints = result->autovacuums = -1;
	if (before->counters_ok && coordinator_counters(spec, &checkpoints1, &autovacuums1))
	{
		result->checkpoints = (int) (checkpoints1 - before->checkpoints);
		result->autovacuums = (int) (autovacuums1 - before->autovacuums);
	}
	/*
	 * check_tpcb: the balances agree before and after the run, and what they
	 * gained is what the run logged in pgbench_history.  Comparing the
	 * changes rather than the totals keeps the check true to the run when
	 * vacuum => true truncated the history before it (as pgbench does).
	 * Not checked when drivers had to be terminated: their clients'
	 * transactions may still be ending.
	 */
	result->tpcb_consistent = -1;
	result->tpcb_consistent_before = -1;
	if (before->tpcb_ok)
		result->tpcb_consistent_before =
			before->tpcb[0] == before->tpcb[1] && before->tpcb[1] == before->tpcb[2] ? 1 : 0;
	if (before->tpcb_ok && !terminated && coordinator_tpcb_sums(spec, run_id, tpcb_after))
	{
		/* what the run itself changed agrees with what it logged */
		bool		own_ok = tpcb_after[0] - before->tpcb[0] == tpcb_after[1] - before->tpcb[1] &&
			tpcb_after[1] - before->tpcb[1] == tpcb_after[2] - before->tpcb[2] &&
			tpcb_after[0] - before->tpcb[0] == tpcb_after[3] - before->tpcb[3];
		bool		ok = result->tpcb_consistent_before == 1 && own_ok;

		result->tpcb_consistent = ok ? 1 : 0;
		if (result->tpcb_consistent_before == 0)
			ereport(WARNING,
					(errmsg("pgbenchx run " INT64_FORMAT ": the TPC-B invariant did not hold before the run", run_id),
					 errdetail("Sums of accounts, branches, tellers before the run: "
							   INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT
							   "; the run's own changes %s. runs.tpcb_consistent is false and runs.tpcb_consistent_before says why.",
							   before->tpcb[0], before->tpcb[1], before->tpcb[2],
							   own_ok ? "agreed with its history" : "did not agree either"),
					 errhint("An earlier run of a script that writes some of the tables and not the others (simple-update, or a custom script) broke it; SELECT pgbench_init(...) fills consistent tables again.")));
		else if (!ok)
			ereport(WARNING,
					(errmsg("pgbenchx run " INT64_FORMAT ": the TPC-B invariant does not hold", run_id),
					 errdetail("Sums of accounts, branches, tellers, history before the run: "
							   INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT
							   "; after: " INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT ", " INT64_FORMAT ".",
							   before->tpcb[0], before->tpcb[1], before->tpcb[2], before->tpcb[3],
							   tpcb_after[0], tpcb_after[1], tpcb_after[2], tpcb_after[3])));
	}
	/* the statement statistics are there when the run reads completed or cancelled */
	if (!coordinator_write_statements(spec, run_id, step))
	{
		*cancelled = true;
		if (strcmp(result->status, "completed") == 0)
			result->status = "cancelled";
		if (result->error == NULL)
			result->error = psprintf("%s while its statement statistics were written; they are not stored",
									 coordinator_cancel_reason());
	}
	/* why a cancelled run ended, where nothing else said why */
	if (strcmp(result->status, "cancelled") == 0 && result->error == NULL)
		result->error = coordinator_cancel_reason();
	results_finish_run(run_id, result);
	return result->status;
}

/*
 * One run, whose row exists: prepare, set up its segment, start the
 * drivers, wait for them, go, measure, sum, record.  Returns the run's
 * final status.
 */
static const char *
coordinator_run_step(RunSpec *spec, int64 run_id, int clients, bool *cancelled)
{
	CoordinatorStep *step = &coordinator_step;
	CoordinatorBefore before;
	RunResult	result;
	TimestampTz connect_start;
	TimestampTz connected_at;
	stats_run  *total;
	stats_run  *drivers_total;
	stats_second *scratch;
	uint64		next_sec = 0;
	int			lost = 0;
	bool		terminated;
	const char *status;

	memset(&result, 0, sizeof(result));
	memset(step, 0, sizeof(*step));
	step->run_id = run_id;
	step->njobs = coordinator_jobs(spec, clients);

	/*
	 * A step whose clients are elsewhere (several load generators, issue 14):
	 * the maintenance, the readings' finish and the final row here, as for
	 * a local run, the rest its kind's, which merges the parts' figures into
	 * result.
	 */
	if (coordinator_kind->run_step)
	{
		coordinator_prepare(spec, run_id, &before);
		drivers_total = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_run));
		result.total = drivers_total;
		terminated = coordinator_kind->run_step(spec, coordinator_payload, &coordinator_mix,
												run_id, clients, &result, cancelled);
		coordinator_readings_finish();
		status = coordinator_record(spec, step, &before, &result, terminated, cancelled);
		step->run_id = 0;
		progress_step_done();
		pfree(drivers_total);
		return status;
	}

	coordinator_prepare(spec, run_id, &before);
	pgstat_report_activity(STATE_RUNNING,
						   psprintf("pgbenchx run " INT64_FORMAT ": %d %s, %d %s",
									run_id, clients, clients == 1 ? "client" : "clients",
									step->njobs, step->njobs == 1 ? "job" : "jobs"));
	progress_phase(RUN_PHASE_CONNECTING);
	coordinator_setup_segment(step, spec, clients);
	/*
	 * pgbenchx.transaction_log and client_messages find the drivers' rings
	 * through it (txlog.c)
	 */
	if (spec->knobs.log_transactions || spec->knobs.client_messages)
		progress_step_segment(dsm_segment_handle(step->seg));
	coordinator_start_drivers(step);
	connect_start = coordinator_wait_for_drivers(step, cancelled);
	connected_at = GetCurrentTimestamp();
	/* a part: 'ready', then its go, at the moment the recorder chose (its kind's) */
	if (coordinator_kind->wait_for_go)
		coordinator_kind->wait_for_go(spec, run_id, &coordinator_cancel_requested, cancelled);
	/* sysrecord: the devices and the drivers' pids, before the measured interval */
	coordinator_readings_begin(spec, run_id, step->run->ring_len, step->run, step->handles,
							   step->njobs);
	coordinator_go(step);
	/* the initial connection time; a part's wait for its go is not in it */
	result.conn_time_ms = (double) ((spec->is_part ? connected_at : step->run->bench_start) -
									connect_start) / 1000.0;
	if (spec->record_system)
		step->sampler = waitsample_start(run_id, step->client_pids, clients,
										 step->run->bench_start, step->run->ring_len,
										 spec->knobs.connect_per_transaction, spec->duration);

	total = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_run));
	scratch = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_second));
	stats_run_reset(total);
	terminated = coordinator_measure(step, total, scratch, &next_sec, &lost, &result, cancelled);
	progress_phase(RUN_PHASE_FINISHING);
	/* sysrecord: the end reading, for the last (possibly partial) second */
	coordinator_readings_end();
	coordinator_sum_drivers(step, &result);
	coordinator_collect(step, total, &next_sec, scratch, true, result.bench_end_usec, &lost);
	if (step->sampler)
	{
		waitsample_finish(step->sampler, result.bench_end_usec);
		step->sampler = NULL;
	}

	/*
	 * The totals are the drivers' own, not the sum of the samples: a second
	 * the ring lost (or one past a failed driver's last) still counts.
	 */
	drivers_total = MemoryContextAllocZero(TopMemoryContext, sizeof(stats_run));
	stats_run_reset(drivers_total);
	for (int i = 0; i < step->njobs; i++)
	{
		pg_read_barrier();
		stats_run_merge(drivers_total, &step->run->drivers[i].total);
	}
	result.samples_lost = lost;
	result.samples_lost_transactions = drivers_total->transactions > total->transactions ?
		(int64) (drivers_total->transactions - total->transactions) : 0;
	if (lost > 0)
		ereport(WARNING,
				(errmsg_plural("pgbenchx run " INT64_FORMAT ": the sample of %d second was lost",
							   "pgbenchx run " INT64_FORMAT ": the samples of %d seconds were lost",
							   lost, run_id, lost),
				 errdetail("The coordinator could not write pgbenchx.samples for more than %d s (a lock on the table, or a slow disk); those seconds are not stored, and runs.samples_lost says so. The run's totals are complete.",
						   step->run->ring_len)));
	result.total = drivers_total;
	/* sysrecord: runs.system_notes; the run's readings are freed */
	coordinator_readings_finish();
	status = coordinator_record(spec, step, &before, &result, terminated, cancelled);
	step->run_id = 0;
	progress_step_done();

	/*
	 * The readers' last records: kept until every reader has read them, or
	 * a run shorter than the reader's first look (pgbenchx -l looks every
	 * 200 ms) has had one, at most COORDINATOR_TXLOG_WAIT_MS.
	 */
	/*
	 * The step's rows are final: a launch waits for this coordinator (its
	 * next step, or its exit) rather than refusing at once (launch.c), and
	 * CALL pgbenchx.wait may already have returned.  progress_step clears it.
	 */
	progress_keeping_records(true);
	if (spec->knobs.log_transactions || spec->knobs.client_messages)
		coordinator_wait_txlog_reader(step);
	progress_step_segment(0);
	dsm_detach(step->seg);
	step->seg = NULL;
	step->run = NULL;
	step->cmdstats = NULL;
	pfree(step->handles);
	step->handles = NULL;
	pfree(total);
	pfree(drivers_total);
	pfree(scratch);
	return status;
}

/* ---------------------------------------------------------------------
 * An experiment's server settings (issue 23; a superuser's): written with
 * ALTER SYSTEM and applied with a reload before the steps of the
 * configuration that sets them, and put back as they were in
 * postgresql.auto.conf at the end, on an error, a cancel or a terminate.
 * ALTER SYSTEM is not allowed in a transaction block, so not through SPI:
 * AlterSystemSetConfigFile is called here directly, each in a transaction
 * of its own (it checks the role's privilege in the catalogue).
 * --------------------------------------------------------------------- */

typedef struct CoordinatorServerSetting
{
	char	   *name;
	char	   *prior;			/* in postgresql.auto.conf before: NULL none */
	char	   *applied;		/* what we wrote: NULL nothing (prior stands) */
} CoordinatorServerSetting;

static CoordinatorServerSetting *coordinator_server = NULL;
static int	coordinator_nserver = 0;

/* the value of name that configuration config sets, or NULL */
static const char *
coordinator_server_value(const RunSpec *spec, int config, const char *name)
{
	const RunConfig *cfg = &spec->configs[config];
	const char *p = cfg->server;

	for (int i = 0; i < cfg->nserver; i++)
	{
		const char *value = p + strlen(p) + 1;

		if (pg_strcasecmp(p, name) == 0)
			return value;
		p = value + strlen(value) + 1;
	}
	return NULL;
}

/* ALTER SYSTEM SET name = value, or RESET with value NULL */
static void
coordinator_alter_system(const char *name, const char *value)
{
	AlterSystemStmt *stmt = makeNode(AlterSystemStmt);
	VariableSetStmt *set = makeNode(VariableSetStmt);

	set->name = pstrdup(name);
	if (value)
	{
		A_Const    *c = makeNode(A_Const);

		c->val.sval.type = T_String;
		c->val.sval.sval = pstrdup(value);
		c->location = -1;
		set->kind = VAR_SET_VALUE;
		set->args = list_make1(c);
	}
	else
		set->kind = VAR_RESET;
	stmt->setstmt = set;
	StartTransactionCommand();
	AlterSystemSetConfigFile(stmt);
	CommitTransactionCommand();
}

/*
 * The settings any configuration sets, with what postgresql.auto.conf had
 * for each before (pg_file_settings, read once at the start).
 */
static void
coordinator_server_setup(const RunSpec *spec)
{
	for (int c = 0; c < spec->nconfigs; c++)
		coordinator_nserver += spec->configs[c].nserver;
	if (coordinator_nserver == 0)
		return;
	coordinator_server = MemoryContextAllocZero(TopMemoryContext,
												sizeof(CoordinatorServerSetting) * coordinator_nserver);
	coordinator_nserver = 0;
	StartTransactionCommand();
	PushActiveSnapshot(GetTransactionSnapshot());
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	for (int c = 0; c < spec->nconfigs; c++)
	{
		const char *p = spec->configs[c].server;

		for (int i = 0; i < spec->configs[c].nserver; i++)
		{
			const char *value = p + strlen(p) + 1;
			bool		known = false;

			for (int k = 0; k < coordinator_nserver && !known; k++)
				known = pg_strcasecmp(coordinator_server[k].name, p) == 0;
			if (!known)
			{
				Oid			argtypes[1] = {TEXTOID};
				Datum		args[1] = {CStringGetTextDatum(p)};
				CoordinatorServerSetting *s = &coordinator_server[coordinator_nserver++];

				s->name = MemoryContextStrdup(TopMemoryContext, p);
				if (SPI_execute_with_args("SELECT setting FROM pg_catalog.pg_file_settings "
										  "WHERE pg_catalog.lower(name) OPERATOR(pg_catalog.=) pg_catalog.lower($1) "
										  "AND sourcefile OPERATOR(pg_catalog.~~) '%/postgresql.auto.conf' "
										  "ORDER BY seqno DESC LIMIT 1",
										  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
					elog(ERROR, "could not read pg_file_settings");
				if (SPI_processed > 0)
				{
					char	   *prior = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

					if (prior)
						s->prior = MemoryContextStrdup(TopMemoryContext, prior);
				}
			}
			p = value + strlen(value) + 1;
		}
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * Ask the postmaster to reload; with wait, until it has (it signals its
 * children, this worker among them, once it has read the files again), so
 * that the clients connecting next get the new values.
 */
static void
coordinator_server_reload(bool wait)
{
	TimestampTz deadline = GetCurrentTimestamp() + 10 * USECS_PER_SEC;

	ConfigReloadPending = false;
	if (kill(PostmasterPid, SIGHUP) != 0)
		ereport(WARNING,
				(errmsg("pgbenchx could not signal the postmaster to reload: %m")));
	while (wait && !ConfigReloadPending && GetCurrentTimestamp() < deadline)
		coordinator_wait_latch(20);
	if (ConfigReloadPending)
	{
		ConfigReloadPending = false;
		ProcessConfigFile(PGC_SIGHUP);
	}
}

/* before a step: the server settings of its configuration, the others as they were */
static void
coordinator_server_apply(const RunSpec *spec, int config)
{
	bool		changed = false;

	for (int k = 0; k < coordinator_nserver; k++)
	{
		CoordinatorServerSetting *s = &coordinator_server[k];
		const char *want = coordinator_server_value(spec, config, s->name);

		if (want == NULL && s->applied == NULL)
			continue;			/* the prior value stands */
		if (want && s->applied && strcmp(want, s->applied) == 0)
			continue;
		coordinator_alter_system(s->name, want ? want : s->prior);
		if (s->applied)
			pfree(s->applied);
		s->applied = want ? MemoryContextStrdup(TopMemoryContext, want) : NULL;
		changed = true;
	}
	if (changed)
		coordinator_server_reload(true);
}

/*
 * The end, however it comes: every setting written back as it was.  Each
 * in its own attempt, so that one failure leaves the others restored; a
 * failure is a WARNING naming the setting and what to run.
 */
static void
coordinator_server_restore(void)
{
	volatile bool changed = false;

	for (volatile int k = 0; k < coordinator_nserver; k++)
	{
		CoordinatorServerSetting *s = &coordinator_server[k];

		if (s->applied == NULL)
			continue;
		PG_TRY();
		{
			coordinator_alter_system(s->name, s->prior);
			changed = true;
		}
		PG_CATCH();
		{
			ErrorData  *edata;

			MemoryContextSwitchTo(TopMemoryContext);
			edata = CopyErrorData();
			FlushErrorState();
			AbortOutOfAnyTransaction();
			ereport(WARNING,
					(errmsg("pgbenchx could not restore server setting \"%s\": %s", s->name, edata->message),
					 errhint("Run ALTER SYSTEM %s %s%s%s and SELECT pg_reload_conf().",
							 s->prior ? "SET" : "RESET", s->name, s->prior ? " = " : "",
							 s->prior ? quote_literal_cstr(s->prior) : "")));
			FreeErrorData(edata);
		}
		PG_END_TRY();
		s->applied = NULL;
	}
	if (changed)
		coordinator_server_reload(false);
}

/*
 * An experiment with target_ci (issue 23): at the end of a client count's
 * runs, another ABBA block (two rounds of the configurations, in order and
 * reversed, continuing the alternation) goes in after step i unless every
 * ratio to the baseline there is within +-target_ci already, the budget
 * (from the experiment's start) has run out, or the spec has no room.
 * What ended it is kept in *stopped_by, the worst over the client counts:
 * run limit, then budget, then target.
 */
static void
coordinator_experiment_more(RunSpec *spec, int i, TimestampTz start, const char **stopped_by)
{
	int			clients = spec->clients[i];
	int			n = spec->nconfigs;
	int			counted = 0;
	int			at = i + 1;
	const char *why = NULL;

	if (at < spec->nsteps && spec->clients[at] == clients)
		return;					/* not the end of this client count */
	if (results_experiment_within_target(spec->id, clients, spec->target_ci))
		why = "target";
	else if (GetCurrentTimestamp() >= start + (int64) spec->budget_s * USECS_PER_SEC)
		why = "budget";
	else if (spec->nsteps + 2 * n > RUN_SPEC_MAX_STEPS)
		why = "run limit";
	if (why)
	{
		if (*stopped_by == NULL || strcmp(*stopped_by, "target") == 0 ||
			(strcmp(*stopped_by, "budget") == 0 && strcmp(why, "run limit") == 0))
			*stopped_by = why;
		return;
	}
	for (int k = 0; k <= i; k++)
		if (spec->clients[k] == clients && !spec->step_warmup[k])
			counted++;
	counted /= n;
	memmove(&spec->clients[at + 2 * n], &spec->clients[at], sizeof(int) * (spec->nsteps - at));
	memmove(&spec->step_repeat[at + 2 * n], &spec->step_repeat[at], sizeof(int) * (spec->nsteps - at));
	memmove(&spec->step_config[at + 2 * n], &spec->step_config[at], sizeof(int) * (spec->nsteps - at));
	memmove(&spec->step_warmup[at + 2 * n], &spec->step_warmup[at], sizeof(bool) * (spec->nsteps - at));
	for (int r = 0; r < 2; r++)
	{
		bool		reversed = (counted + r) % 2 == 1;

		for (int k = 0; k < n; k++)
		{
			int			s = at + r * n + k;

			spec->clients[s] = clients;
			spec->step_config[s] = reversed ? n - 1 - k : k;
			spec->step_warmup[s] = false;
			spec->step_repeat[s] = counted + r + 1;
		}
	}
	spec->nsteps += 2 * n;
	progress_steps(spec->nsteps);
}

/*
 * dst: spec with configuration config laid over it (run_spec.h's
 * RunConfig): its conninfo, protocol, session settings, jobs, rate,
 * latency limit and script mix, whose payload is its own mix alone.
 */
static void
coordinator_config_spec(RunSpec *dst, const RunSpec *spec, int config)
{
	const RunConfig *cfg = &spec->configs[config];

	memcpy(dst, spec, sizeof(RunSpec));
	dst->config = config;
	dst->protocol = cfg->protocol;
	dst->scale_detected = cfg->scale_detected;
	dst->nsettings = cfg->nsettings;
	memcpy(dst->settings, cfg->settings, sizeof(dst->settings));
	strlcpy(dst->conninfo, cfg->conninfo, sizeof(dst->conninfo));
	strlcpy(dst->conninfo_shown, cfg->conninfo_shown, sizeof(dst->conninfo_shown));
	dst->jobs = cfg->jobs;
	dst->knobs.rate = cfg->rate;
	dst->knobs.latency_limit_usec = cfg->latency_limit_usec;
	dst->nscripts = cfg->nscripts;
	dst->ncommands = cfg->ncommands;
	memcpy(dst->script_commands, cfg->script_commands, sizeof(dst->script_commands));
	strlcpy(dst->script_name, cfg->script_name, sizeof(dst->script_name));
	dst->payload_len = cfg->mix_len;
	dst->configs_len = 0;
}

/*
 * The spec step i runs with: the spec itself, or for an experiment a copy
 * with its configuration laid over it, so that the maintenance, the trust
 * check, the drivers and the runs row all see the configuration's
 * conninfo, protocol, session settings, options and scripts; the step's
 * payload and mix are then the configuration's.
 */
static RunSpec *
coordinator_step_spec(RunSpec *spec, int i)
{
	static RunSpec *step_spec = NULL;
	int			config = spec->step_config[i];

	if (spec->nconfigs == 0)
		return spec;
	if (step_spec == NULL)
		step_spec = MemoryContextAlloc(TopMemoryContext, sizeof(RunSpec));
	coordinator_config_spec(step_spec, spec, config);
	step_spec->is_warmup = spec->step_warmup[i];
	coordinator_payload = coordinator_launch_payload + spec->configs[config].mix_off;
	coordinator_mix = coordinator_config_mix[config];
	return step_spec;
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
	progress_clear();
	if (coordinator_kind && coordinator_kind->abandon)
		coordinator_kind->abandon();
	coordinator_stop_drivers(step);
	coordinator_terminate_drivers(step);
	AbortOutOfAnyTransaction();
	/* an experiment's server settings, put back first (each on its own) */
	coordinator_server_restore();
	PG_TRY();
	{
		if (step->run_id != 0)
		{
			results_abandon_run(step->run_id, status, message);
			if (coordinator_kind && coordinator_kind->abandon_rows)
				coordinator_kind->abandon_rows(step->run_id, status);
		}
		if (coordinator_spec && coordinator_spec->is_sweep)
			results_finish_sweep(coordinator_spec->id, status, message);
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
						step->run_id != 0 ? step->run_id : coordinator_spec ? coordinator_spec->id : 0,
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
coordinator_handshake(LaunchHandshake *hs)
{
	uint32		expected = LAUNCH_PENDING;
	PGPROC	   *caller = &ProcGlobal->allProcs[hs->caller_procno];

	hs->coordinator_procno = PGX_PROCNO(MyProc);
	pg_write_barrier();
	if (!pg_atomic_compare_exchange_u32(&hs->status, &expected, LAUNCH_STARTED))
		return false;			/* ABANDONED while we recorded the rows */
	SetLatch(&caller->procLatch);
	for (;;)
	{
		uint32		st = pg_atomic_read_u32(&hs->status);

		if (st == LAUNCH_ACKNOWLEDGED)
			return true;
		if (st == LAUNCH_ABANDONED)
			return false;
		/* a caller that died without its cleanup (a crash restarts everything anyway) */
		if (caller->pid != hs->caller_pid)
		{
			expected = LAUNCH_STARTED;
			if (pg_atomic_compare_exchange_u32(&hs->status, &expected, LAUNCH_ABANDONED))
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
	/* our pid names no run any more, whatever the rows say (progress.c) */
	progress_clear();
	if (coordinator_finished)
		return;
	PG_TRY();
	{
		/* terminated while the caller gave up: say what really happened */
		if (coordinator_hs &&
			pg_atomic_read_u32(&coordinator_hs->status) == LAUNCH_ABANDONED)
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

/*
 * Take the run over from the caller's launch segment: a private copy of the
 * spec and its payload (the caller may go away once we have started), and
 * the mix read back once.  Returns the handshake, in the segment; NULL if
 * the caller gave up already.
 */
static LaunchHandshake *
coordinator_attach(dsm_segment *seg)
{
	shm_toc    *toc = shm_toc_attach(RUN_SPEC_LAUNCH_MAGIC, dsm_segment_address(seg));
	LaunchHandshake *hs;
	const RunSpec *spec;
	const char *payload;

	if (toc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("pgbenchx coordinator found a bad request")));
	hs = shm_toc_lookup(toc, RUN_SPEC_KEY_HANDSHAKE, false);
	if (pg_atomic_read_u32(&hs->status) == LAUNCH_ABANDONED)
		return NULL;
	spec = run_spec_find(toc, &payload);
	coordinator_spec = MemoryContextAlloc(TopMemoryContext, sizeof(RunSpec));
	memcpy(coordinator_spec, spec, sizeof(RunSpec));
	coordinator_launch_payload = MemoryContextAlloc(TopMemoryContext, Max(spec->payload_len, 1));
	memcpy(coordinator_launch_payload, payload, spec->payload_len);
	coordinator_payload = coordinator_launch_payload;
	{
		MemoryContext old = MemoryContextSwitchTo(TopMemoryContext);

		run_spec_mix(coordinator_spec, coordinator_payload, &coordinator_mix);
		/* an experiment: each configuration's mix (RunConfig.mix_off) */
		if (coordinator_spec->nconfigs > 0)
		{
			RunSpec    *c = palloc(sizeof(RunSpec));

			for (int k = 0; k < coordinator_spec->nconfigs; k++)
			{
				coordinator_config_spec(c, coordinator_spec, k);
				run_spec_mix(c, coordinator_launch_payload + coordinator_spec->configs[k].mix_off,
							 &coordinator_config_mix[k]);
			}
			pfree(c);
		}
		MemoryContextSwitchTo(old);
	}
	coordinator_kind = coordinator_kind_of(coordinator_spec);
	return hs;
}

void
coordinator_main(Datum main_arg)
{
	dsm_segment *seg;
	LaunchHandshake *hs;
	RunSpec    *spec;
	bool		cancelled = false;

	pqsignal(SIGTERM, die);
	pqsignal(SIGUSR2, coordinator_sigusr2);
	/* an experiment's server settings wait for the reload to reach us */
	pqsignal(SIGHUP, SignalHandlerForConfigReload);
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
	hs = coordinator_attach(seg);
	if (hs == NULL)
	{
		dsm_detach(seg);
		proc_exit(0);
	}
	spec = coordinator_spec;
	/* a non-superuser's run: every loopback login is checked (conninfo.c) */
	loopback_require_password = spec->knobs.require_password;

	BackgroundWorkerInitializeConnectionByOid(spec->dboid, spec->roleid, 0);
	/* its SPI names no user table: nothing on the role's search_path applies */
	searchpath_pin_worker();
	pgstat_report_appname("pgbenchx coordinator");

	/* a part beside its recorder's run on this server goes without the lock (its kind's) */
	if (spec->part_unlocked ? !coordinator_kind->claim_unlocked() : !coordinator_lock())
	{
		uint32		expected = LAUNCH_PENDING;

		strlcpy(hs->error, spec->part_unlocked ? "another part runs beside the run in progress" :
				"another pgbenchx run started first", RUN_ERROR_LEN);
		pg_write_barrier();
		if (pg_atomic_compare_exchange_u32(&hs->status, &expected, LAUNCH_FAILED))
			SetLatch(&ProcGlobal->allProcs[hs->caller_procno].procLatch);
		dsm_detach(seg);
		proc_exit(0);
	}

	coordinator_hs = hs;
	before_shmem_exit(coordinator_on_exit, (Datum) 0);

	PG_TRY();
	{
		bool		any_failed = false;
		int			stopped_at_abort = 0;	/* exit_on_abort: the clients of the run that failed */
		TimestampTz experiment_start;
		const char *stopped_by = NULL;

		/* we hold the only lock: any row still "running" lost its coordinator */
		if (!spec->part_unlocked)
			(void) results_mark_orphans_aborted();
		/*
		 * Who we are, published before the rows that name our pid exist:
		 * pgbenchx.cancel signals a stored pid only while the progress
		 * struct says it is this run's or sweep's coordinator.
		 */
		progress_start(spec);
		/*
		 * And named from the start: a second launch's refusal says which
		 * run is in progress (launch.c), while the rows and the environment
		 * (a loopback connection) are still being made.
		 */
		pgstat_report_activity(STATE_RUNNING,
							   psprintf("pgbenchx %s " INT64_FORMAT ": starting",
										spec->is_sweep ? "sweep" : "run", spec->id));
		if (spec->is_sweep)
			results_start_sweep(spec);
		else
		{
			results_create_run(spec, spec->id, spec->clients[0],
							   coordinator_jobs(spec, spec->clients[0]), 1);
			coordinator_step.run_id = spec->id;
		}

		/* run only once the caller knows the id (run_spec.h) */
		if (!coordinator_handshake(hs))
		{
			coordinator_abandon("cancelled", LAUNCH_ABANDONED_MESSAGE);
			coordinator_hs = NULL;
			dsm_detach(seg);
			proc_exit(0);
		}
		coordinator_hs = NULL;
		dsm_detach(seg);
		coordinator_server_setup(spec);
		experiment_start = GetCurrentTimestamp();

		for (int i = 0; i < spec->nsteps && !cancelled; i++)
		{
			int			clients = spec->clients[i];
			int64		run_id = spec->id;
			RunSpec    *step_spec = coordinator_step_spec(spec, i);

			if (coordinator_nserver > 0)
				coordinator_server_apply(spec, spec->step_config[i]);

			if (spec->is_sweep)
				run_id = results_create_run(step_spec, 0, clients, coordinator_jobs(step_spec, clients),
											spec->step_repeat[i]);
			coordinator_step.run_id = run_id;
			progress_step(run_id, i + 1, clients);
			if (strcmp(coordinator_run_step(step_spec, run_id, clients, &cancelled), "failed") == 0)
			{
				any_failed = true;
				/* pgbench's --exit-on-abort ends the program: a sweep ends at this run */
				if (spec->knobs.exit_on_abort && spec->is_sweep)
				{
					stopped_at_abort = clients;
					break;
				}
			}
			if (spec->target_ci > 0 && !cancelled)
				coordinator_experiment_more(spec, i, experiment_start, &stopped_by);
			CHECK_FOR_INTERRUPTS();
		}
		coordinator_server_restore();
		if (stopped_by && !cancelled)
			results_experiment_stopped_by(spec->id, stopped_by);
		if (spec->is_sweep)
			results_finish_sweep(spec->id,
								 cancelled ? "cancelled" : any_failed ? "failed" : "completed",
								 cancelled ? coordinator_cancel_reason() :
								 stopped_at_abort > 0 ?
								 psprintf("the run at %d clients failed, and exit_on_abort stopped the sweep there", stopped_at_abort) :
								 any_failed ? "one or more runs failed" : NULL);
		progress_clear();
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
