/*-------------------------------------------------------------------------
 *
 * wait.c
 *	  pgbenchx.wait(id), a procedure that follows a run or a sweep without
 *	  holding a snapshot while it sleeps and ends with pgbenchx.report(id)
 *	  (a lone run's pgbench summary, a sweep's table after one line per
 *	  run), and pgbenchx.cancel(id), which follows pg_cancel_backend's rule
 *	  on the role that started the run and signals the stored coordinator
 *	  pid only while that pid is a live coordinator publishing this very run
 *	  or sweep in the progress struct (progress_is_coordinator_of), never a
 *	  process, nor another run's coordinator, that reused the pid.
 *
 * wait commits after every look at the result tables and sleeps on its
 * latch between looks, so its backend_xmin is NULL while it sleeps (a
 * waiting session that held a snapshot for a 70-minute sweep would pin the
 * xmin horizon and falsify every tpcb number).  Cancelling it stops only
 * the wait.  Every few seconds it says where the run is: the step of a
 * sweep, the phase, the figures once measuring, and the time left
 * (pgbenchx.progress, fed by progress.c).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <signal.h>

#include "access/xact.h"
#include "access/xlog.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/latch.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "owner.h"
#include "progress.h"
#include "results.h"
#include "searchpath.h"
#include "wait.h"

PG_FUNCTION_INFO_V1(pgbenchx_wait);
PG_FUNCTION_INFO_V1(pgbenchx_cancel);

/* a progress NOTICE about this often */
#define WAIT_PROGRESS_USECS		(5 * USECS_PER_SEC)
/* how often the result tables are looked at */
#define WAIT_POLL_MS			500
/* driver CPU share above which the load generator was likely the limit */
#define WAIT_DRIVER_BOUND_SHARE 0.9

static char *
wait_value(int row, int col)
{
	return SPI_getvalue(SPI_tuptable->vals[row], SPI_tuptable->tupdesc, col);
}

static void
wait_query(const char *sql, int64 id, int64 arg2)
{
	Oid			types[2] = {INT8OID, INT8OID};
	Datum		values[2] = {Int64GetDatum(id), Int64GetDatum(arg2)};
	int			nargs = strstr(sql, "$2") ? 2 : 1;
	int			nestlevel = searchpath_pin();

	/* not read_only: a look must see what wait_reap_orphans just updated */
	if (SPI_execute_with_args(sql, nargs, types, values, NULL, false, 0) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed: %s", sql);
	searchpath_restore(nestlevel);
}

/* "sweep" or "run", and its status; errors if there is no such id */
static const char *
wait_kind(int64 id, char **status)
{
	wait_query("SELECT 'sweep', status FROM pgbenchx.sweeps WHERE sweep_id OPERATOR(pg_catalog.=) $1 "
			   "UNION ALL SELECT 'run', status FROM pgbenchx.runs WHERE run_id OPERATOR(pg_catalog.=) $1", id, 0);
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("no run or sweep has id " INT64_FORMAT, id),
				 errhint("SELECT run_id, sweep_id, status FROM pgbenchx.runs lists them.")));
	*status = wait_value(0, 2);
	return pstrdup(wait_value(0, 1));
}

/*
 * Runs and sweeps still "running" whose coordinator is gone (an immediate
 * shutdown, a crash) are marked aborted here, so that after a restart they
 * read aborted as soon as someone waits for or cancels one, not only when
 * the next run starts.  Liveness is pgbenchx.coordinator_alive, the same
 * for every role, and the update is the extension's own (runners only read
 * the result tables).  Skipped in a read-only transaction and on a standby.
 */
static void
wait_reap_orphans(void)
{
	Oid			types[1] = {TEXTOID};
	Datum		values[1] = {CStringGetTextDatum(RESULTS_ORPHAN_ERROR)};
	OwnerSwitch sw;

	if (XactReadOnly || RecoveryInProgress())
		return;
	owner_switch_begin(&sw);
	PG_TRY();
	{
		if (SPI_execute_with_args(RESULTS_ORPHAN_RUNS_SQL, 1, types, values, NULL, false, 0) != SPI_OK_UPDATE ||
			SPI_execute_with_args(RESULTS_ORPHAN_SWEEPS_SQL, 1, types, values, NULL, false, 0) != SPI_OK_UPDATE ||
			SPI_execute_with_args(RESULTS_ORPHAN_GENERATORS_SQL, 1, types, values, NULL, false, 0) != SPI_OK_UPDATE)
			elog(ERROR, "could not mark orphaned pgbenchx runs aborted");
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
}

/* whether the run or sweep id is still "running" with its coordinator gone */
static bool
wait_orphaned(int64 id)
{
	wait_query("SELECT 1 FROM pgbenchx.runs r WHERE r.run_id OPERATOR(pg_catalog.=) $1 "
			   "AND r.status OPERATOR(pg_catalog.=) 'running' AND "
			   RESULTS_COORDINATOR_GONE("r.coordinator_pid")
			   " UNION ALL SELECT 1 FROM pgbenchx.sweeps w WHERE w.sweep_id OPERATOR(pg_catalog.=) $1 "
			   "AND w.status OPERATOR(pg_catalog.=) 'running' AND "
			   RESULTS_COORDINATOR_GONE("w.coordinator_pid"), id, 0);
	return SPI_processed > 0;
}

/*
 * One NOTICE per run of a sweep that ended since last_reported; returns the
 * last id.  Numbers as pgbenchx.report prints them, from the stored values
 * (round(value::numeric, 3) for milliseconds); a replay's rate in qpm.
 */
static int64
wait_report_finished(int64 id, int64 last_reported)
{
	wait_query("SELECT run_id, clients, jobs, status, "
			   "CASE WHEN replay THEN 'qpm = ' ELSE 'tps = ' END OPERATOR(pg_catalog.||) "
			   "coalesce(pg_catalog.round((CASE WHEN replay THEN qpm ELSE tps END)::pg_catalog.numeric, 6)::pg_catalog.text, '-'), "
			   "CASE WHEN replay THEN NULL ELSE pg_catalog.round(tps_incl_conn::pg_catalog.numeric, 6)::pg_catalog.text END, "
			   "pg_catalog.round(latency_avg_ms::pg_catalog.numeric, 3)::pg_catalog.text, "
			   "pg_catalog.round(latency_p99_ms::pg_catalog.numeric, 3)::pg_catalog.text, "
			   "failed, error, "
			   "CASE WHEN bench_duration_s OPERATOR(pg_catalog.>=) 1::pg_catalog.float8 "
			   "THEN driver_cpu_s OPERATOR(pg_catalog./) (bench_duration_s OPERATOR(pg_catalog.*) jobs::pg_catalog.float8) END, "
			   "CASE WHEN verdict IS NOT NULL THEN 'limit: ' OPERATOR(pg_catalog.||) verdict "
			   "WHEN record_system AND (top_waits IS NOT NULL OR iowait_avg IS NOT NULL "
			   "OR server_cpu_ms_per_tx IS NOT NULL OR wal_bytes_per_tx IS NOT NULL "
			   "OR blocks_read_per_tx IS NOT NULL OR blocks_written_per_tx IS NOT NULL) "
			   "THEN 'no evident limit' END "
			   "FROM pgbenchx.runs WHERE (run_id OPERATOR(pg_catalog.=) $1 OR sweep_id OPERATOR(pg_catalog.=) $1) "
			   "AND status OPERATOR(pg_catalog.<>) 'running' "
			   "AND run_id OPERATOR(pg_catalog.>) $2 ORDER BY run_id", id, last_reported);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		char	   *error = wait_value(i, 10);
		char	   *share = wait_value(i, 11);
		char	   *incl = wait_value(i, 6);
		char	   *verdict = wait_value(i, 12);

		ereport(NOTICE,
				(errmsg("run %s %s: clients %s, jobs %s, %s%s%s%s, latency average = %s ms, p99 = %s ms, failed %s%s%s%s%s",
						wait_value(i, 1), wait_value(i, 4), wait_value(i, 2), wait_value(i, 3),
						wait_value(i, 5),
						incl ? " (" : "", incl ? incl : "", incl ? " including connections)" : "",
						wait_value(i, 7) ? wait_value(i, 7) : "-",
						wait_value(i, 8) ? wait_value(i, 8) : "-",
						wait_value(i, 9) ? wait_value(i, 9) : "0",
						verdict ? "; " : "", verdict ? verdict : "",
						error ? ": " : "", error ? error : "")));
		if (share && strtod(share, NULL) > WAIT_DRIVER_BOUND_SHARE)
			ereport(NOTICE,
					(errmsg("run %s: the driver workers were busy %.0f%% of the time: the load generator, not the server, may have been the limit",
							wait_value(i, 1), 100 * strtod(share, NULL)),
					 errhint("Pass more jobs, or run the clients from another machine.")));
		last_reported = pg_strtoint64(wait_value(i, 1));
	}
	return last_reported;
}

/*
 * The end: one NOTICE, "run N completed" (or "sweep N ...") followed by
 * pgbenchx.report(id), pgbench's summary of a run or a sweep's table.
 */
static void
wait_report_end(const char *kind, int64 id, const char *status)
{
	char	   *report = NULL;

	/* a role granted wait by hand but not report still sees the end */
	wait_query("SELECT CASE WHEN pg_catalog.has_function_privilege('pgbenchx.report(pg_catalog.int8)', 'EXECUTE') "
			   "THEN pgbenchx.report($1) END", id, 0);
	if (SPI_processed > 0 && wait_value(0, 1) != NULL)
		report = wait_value(0, 1);
	ereport(NOTICE,
			(errmsg("%s " INT64_FORMAT " %s%s%s", kind, id, status,
					report ? "\n" : "", report ? report : "")));
}

/* "", or "s" for a count other than 1 (a count as text) */
static const char *
wait_plural(const char *n)
{
	return strcmp(n, "1") == 0 ? "" : "s";
}

/*
 * The periodic notice: the step ("run 5 of 14"), the phase and, once the
 * measured interval has started, its figures so far; then the time left to
 * the expected end of the run or sweep (pgbenchx.progress's eta), when
 * known.  Before the first sample no figure is printed: there is none.
 */
static void
wait_report_progress(int64 id)
{
	wait_query("SELECT p.run_id, p.sweep_id, p.clients, p.phase, p.step, p.steps, p.elapsed_s, p.duration, p.transactions, "
			   "coalesce(pg_catalog.to_char(p.current_tps, 'FM9999999990.0'), '-'), p.seconds_sampled, "
			   "pg_catalog.date_part('epoch', p.eta OPERATOR(pg_catalog.-) pg_catalog.clock_timestamp()), "
			   "CASE WHEN NOT r.replay THEN r.transactions_per_client END, r.replay, "
			   "coalesce(pg_catalog.to_char(p.current_tps OPERATOR(pg_catalog.*) 60, 'FM9999999990'), '-') "
			   "FROM pgbenchx.progress p JOIN pgbenchx.runs r ON r.run_id OPERATOR(pg_catalog.=) p.run_id "
			   "WHERE p.run_id OPERATOR(pg_catalog.=) $1 OR p.sweep_id OPERATOR(pg_catalog.=) $1", id, 0);
	for (uint64 i = 0; i < SPI_processed; i++)
	{
		StringInfoData buf;
		char	   *run_id = wait_value(i, 1);
		char	   *sweep_id = wait_value(i, 2);
		char	   *clients = wait_value(i, 3);
		char	   *phase = wait_value(i, 4);
		char	   *step = wait_value(i, 5);
		char	   *steps = wait_value(i, 6);
		char	   *elapsed = wait_value(i, 7);
		char	   *duration = wait_value(i, 8);
		char	   *transactions = wait_value(i, 9);
		char	   *tps = wait_value(i, 10);
		char	   *sampled = wait_value(i, 11);
		char	   *left = wait_value(i, 12);
		char	   *per_client = wait_value(i, 13);
		bool		replay = strcmp(wait_value(i, 14), "t") == 0;
		char	   *qpm = wait_value(i, 15);

		initStringInfo(&buf);
		if (sweep_id && step && steps)
			appendStringInfo(&buf, "sweep %s, run %s of %s (run %s): ", sweep_id, step, steps, run_id);
		else
			appendStringInfo(&buf, "run %s: ", run_id);
		if (phase == NULL)
			appendStringInfo(&buf, "starting, %s client%s", clients, wait_plural(clients));
		else if (strcmp(phase, "measuring") == 0)
		{
			appendStringInfo(&buf, "measuring, %s client%s", clients, wait_plural(clients));
			if (duration && strcmp(duration, "0") != 0)
				appendStringInfo(&buf, ", %s of %s s", elapsed, duration);
			else
				appendStringInfo(&buf, ", %s s", elapsed);
			/* the figures once a second has been measured */
			if (sampled)
			{
				appendStringInfo(&buf, ", %s", transactions);
				if (per_client && (duration == NULL || strcmp(duration, "0") == 0))
					appendStringInfo(&buf, " of " INT64_FORMAT,
									 pg_strtoint64(per_client) * pg_strtoint64(clients));
				/* a replay's transactions are its statements, its rate in qpm */
				if (replay)
					appendStringInfo(&buf, " statement%s, %s qpm", wait_plural(transactions), qpm);
				else
					appendStringInfo(&buf, " transaction%s, %s tps", wait_plural(transactions), tps);
			}
		}
		else if (strcmp(phase, "connecting") == 0)
			appendStringInfo(&buf, "connecting %s client%s", clients, wait_plural(clients));
		else if (strcmp(phase, "finishing") == 0)
			appendStringInfoString(&buf, "finishing (storing the results)");
		else if (strcmp(phase, "ready") == 0)
			appendStringInfo(&buf, "ready, %s client%s connected, waiting for its start (pgbenchx.part_go)",
							 clients, wait_plural(clients));
		else
			appendStringInfoString(&buf, phase);
		if (left)
			appendStringInfo(&buf, "; about %s left", progress_duration(Max(strtod(left, NULL), 0)));
		else if (phase)
			appendStringInfoString(&buf, "; time left unknown");
		ereport(NOTICE, (errmsg("%s", buf.data)));
		pfree(buf.data);
	}
}

Datum
pgbenchx_wait(PG_FUNCTION_ARGS)
{
	int64		id;
	bool		atomic;
	const char *kind;
	char	   *status;
	int64		last_reported = 0;
	TimestampTz last_progress = GetCurrentTimestamp();

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"id\" must not be null"),
				 errhint("Pass the id run_bench or run_sweep returned.")));
	id = PG_GETARG_INT64(0);
	owner_require_sql_version("pgbenchx.wait");

	atomic = !(fcinfo->context && IsA(fcinfo->context, CallContext) &&
			   !castNode(CallContext, fcinfo->context)->atomic);
	if (atomic)
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("pgbenchx.wait cannot run inside a transaction block"),
				 errdetail("It must commit between looks so that it holds no snapshot while the run goes on."),
				 errhint("Use CALL pgbenchx.wait(" INT64_FORMAT ") outside BEGIN ... COMMIT.", id)));

	if (SPI_connect_ext(SPI_OPT_NONATOMIC) != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect_ext failed");

	kind = wait_kind(id, &status);
	for (;;)
	{
		wait_reap_orphans();
		/* status first: a run that ends between the two looks is still reported */
		(void) wait_kind(id, &status);
		/* a lone run is reported once, at the end */
		if (strcmp(kind, "sweep") == 0)
			last_reported = wait_report_finished(id, last_reported);
		if (strcmp(status, "running") == 0 && wait_orphaned(id))
		{
			/* a caller that could not mark it aborted must not wait forever */
			ereport(NOTICE,
					(errmsg("%s " INT64_FORMAT " has no coordinator any more (a crash or an immediate shutdown)",
							kind, id),
					 errdetail("It reads aborted once it is waited for or cancelled outside a read-only transaction, or a run starts.")));
			break;
		}
		if (strcmp(status, "running") != 0)
		{
			wait_report_end(kind, id, status);
			break;
		}
		if (GetCurrentTimestamp() - last_progress >= WAIT_PROGRESS_USECS)
		{
			wait_report_progress(id);
			last_progress = GetCurrentTimestamp();
		}

		/* no snapshot while we sleep */
		SPI_commit();

		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 WAIT_POLL_MS, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		if (QueryCancelPending)
		{
			QueryCancelPending = false;
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("stopped waiting for %s " INT64_FORMAT "; the %s goes on", kind, id, kind),
					 errhint("SELECT pgbenchx.cancel(" INT64_FORMAT ") stops it.", id)));
		}
		CHECK_FOR_INTERRUPTS();
	}

	SPI_finish();
	PG_RETURN_VOID();
}

Datum
pgbenchx_cancel(PG_FUNCTION_ARGS)
{
	int64		id = PG_GETARG_INT64(0);
	char	   *status;
	const char *kind;
	char	   *owner = NULL;
	int			pid = 0;
	int64		sweep_id = 0;
	int64		run_id = 0;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	wait_reap_orphans();
	kind = wait_kind(id, &status);
	if (strcmp(status, "running") != 0)
	{
		ereport(NOTICE,
				(errmsg("%s " INT64_FORMAT " is not running: it is %s", kind, id, status)));
		SPI_finish();
		PG_RETURN_BOOL(false);
	}

	/* the coordinator owns the run, or the sweep the run belongs to */
	wait_query("SELECT coalesce(s.coordinator_pid, r.coordinator_pid), "
			   "coalesce(s.owner, r.owner)::pg_catalog.text, r.sweep_id, r.run_id "
			   "FROM pgbenchx.runs r LEFT JOIN pgbenchx.sweeps s USING (sweep_id) WHERE r.run_id OPERATOR(pg_catalog.=) $1 "
			   "UNION ALL SELECT coordinator_pid, owner::pg_catalog.text, sweep_id, NULL::pg_catalog.int8 "
			   "FROM pgbenchx.sweeps WHERE sweep_id OPERATOR(pg_catalog.=) $1",
			   id, 0);
	if (SPI_processed > 0 && wait_value(0, 1) != NULL)
		pid = atoi(wait_value(0, 1));
	if (SPI_processed > 0 && wait_value(0, 2) != NULL)
		owner = pstrdup(wait_value(0, 2));
	if (SPI_processed > 0 && wait_value(0, 3) != NULL)
		sweep_id = strtoi64(wait_value(0, 3), NULL, 10);
	if (SPI_processed > 0 && wait_value(0, 4) != NULL)
		run_id = strtoi64(wait_value(0, 4), NULL, 10);
	SPI_finish();

	if (!owner_may_cancel(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to cancel %s " INT64_FORMAT " of role \"%s\"",
						kind, id, owner ? owner : "(unknown)"),
				 errdetail("As with pg_cancel_backend: a run is cancelled by its role, the members of its role, members of pg_signal_backend (unless a superuser started it) and superusers; a superuser's run only by a superuser."),
				 errhint("Wait for it with CALL pgbenchx.wait(" INT64_FORMAT "), or ask role \"%s\" or a superuser to cancel it.",
						 id, owner ? owner : "(unknown)")));

	if (!owner_coordinator_alive(pid))
	{
		ereport(NOTICE,
				(errmsg("%s " INT64_FORMAT " has no coordinator any more", kind, id),
				 errdetail("It is marked aborted when the next run starts, or by pgbenchx.wait or pgbenchx.cancel outside a read-only transaction.")));
		PG_RETURN_BOOL(false);
	}
	/* the pid is a coordinator's: is it still this run's (not a later one's)? */
	if (!progress_is_coordinator_of(pid, sweep_id, run_id, GetUserNameFromId(GetUserId(), false)))
	{
		ereport(NOTICE,
				(errmsg("%s " INT64_FORMAT " has no coordinator any more", kind, id),
				 errdetail("Its recorded coordinator pid %d is now another run's coordinator; that one is not signalled.", pid)));
		PG_RETURN_BOOL(false);
	}
	if (kill(pid, SIGUSR2) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_SYSTEM_ERROR),
				 errmsg("could not signal the coordinator of %s " INT64_FORMAT ": %m", kind, id)));
	PG_RETURN_BOOL(true);
}
