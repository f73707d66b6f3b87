/*-------------------------------------------------------------------------
 *
 * results.h
 *	  Writing pgbenchx.sweeps, pgbenchx.runs and pgbenchx.samples from the
 *	  coordinator, each write in its own short transaction.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_RESULTS_H
#define PGBENCHX_RESULTS_H

#include "run_shmem.h"
#include "run_spec.h"
#include "stats.h"

/*
 * What a finished run measured: the drivers' figures summed by the
 * coordinator (coordinator_sum_drivers), or a multi-generator run's parts'
 * merged by the recorder (recorder.c, recorder_fold_part says how each is
 * merged); either way results_finish_run writes the final row from it.
 */
typedef struct RunResult
{
	const char *status;			/* completed, cancelled, failed */
	char	   *error;
	double		conn_time_ms;	/* initial connection time */
	int64		bench_end_usec; /* measured interval, from bench start */
	double		driver_cpu_s;
	int			aborted_clients;
	bool		connect_per_transaction;
	int			checkpoints;	/* during the run; -1 if unknown */
	int			autovacuums;	/* during the run; -1 if unknown */
	int			tpcb_consistent;	/* check_tpcb: 1 held, 0 broken, -1 not checked */
	int			tpcb_consistent_before; /* check_tpcb: the balances agreed before the run: 1, 0, -1 not read */
	DriverCounts counts;		/* summed over the drivers */
	stats_run  *total;			/* the drivers' own totals */
	/* the first notices the clients received (counts.notices counts all) */
	int			nnotice_samples;
	char	   *notice_samples[RUN_NOTICE_SAMPLES];
	int			samples_lost;	/* seconds the ring lost before they were stored */
	int64		samples_lost_transactions;	/* transactions in no stored sample */
	int			nscripts;		/* of the mix: scripts[] below */
	ScriptCounts scripts[SCRIPT_MAX_SCRIPTS];	/* summed over the drivers */
	int			jobs;			/* runs.jobs when known only at the end (the parts'); 0: as created */
} RunResult;

/*
 * A run or sweep still "running" whose coordinator_pid is not a live
 * pgbenchx coordinator lost it (crash, immediate shutdown, restart): these
 * statements mark such rows aborted, keeping their samples and setting a
 * run's totals to those of its samples.  $1 is the error text.  Used by the
 * coordinator at start (results.c) and by wait and cancel (wait.c), so that
 * after a restart the rows read aborted as soon as anyone looks through
 * pgbenchx; the progress view leaves such rows out with the same test.
 * Liveness is pgbenchx.coordinator_alive (owner.c), the same for every role:
 * never pg_stat_activity, which hides other roles' rows.  The statements
 * run as the extension's owner (owner_switch_begin), whoever triggers them.
 */
#define RESULTS_COORDINATOR_GONE(pidcol) \
	"NOT pgbenchx.coordinator_alive(" pidcol ")"
#define RESULTS_ORPHAN_RUNS_SQL \
	"UPDATE pgbenchx.runs r SET status = 'aborted', finished_at = pg_catalog.now(), coordinator_pid = NULL, " \
	"error = coalesce(r.error, $1), " \
	"transactions = coalesce(r.transactions, (SELECT coalesce(pg_catalog.sum(x.transactions), 0)::bigint " \
	"FROM pgbenchx.samples x WHERE x.run_id OPERATOR(pg_catalog.=) r.run_id)), " \
	"failed = coalesce(r.failed, (SELECT coalesce(pg_catalog.sum(x.failed), 0)::bigint " \
	"FROM pgbenchx.samples x WHERE x.run_id OPERATOR(pg_catalog.=) r.run_id)) " \
	"WHERE r.status OPERATOR(pg_catalog.=) 'running' AND " RESULTS_COORDINATOR_GONE("r.coordinator_pid")
#define RESULTS_ORPHAN_SWEEPS_SQL \
	"UPDATE pgbenchx.sweeps w SET status = 'aborted', finished_at = pg_catalog.now(), coordinator_pid = NULL, " \
	"error = coalesce(w.error, $1) " \
	"WHERE w.status OPERATOR(pg_catalog.=) 'running' AND " RESULTS_COORDINATOR_GONE("w.coordinator_pid")
/* a run's generators (0.4's run_generators) once the run is no longer running */
#define RESULTS_ORPHAN_GENERATORS_SQL \
	"UPDATE pgbenchx.run_generators g SET status = 'aborted', error = coalesce(g.error, $1) " \
	"FROM pgbenchx.runs r WHERE r.run_id OPERATOR(pg_catalog.=) g.run_id " \
	"AND g.status OPERATOR(pg_catalog.=) 'running' AND r.status OPERATOR(pg_catalog.<>) 'running'"
#define RESULTS_ORPHAN_ERROR "its coordinator is gone (crash, immediate shutdown or restart)"

extern uint64 results_mark_orphans_aborted(void);
extern void results_start_sweep(const RunSpec *spec);
extern void results_finish_sweep(int64 sweep_id, const char *status, const char *error);
extern bool results_experiment_within_target(int64 sweep_id, int clients, double target_ci);
extern void results_experiment_stopped_by(int64 sweep_id, const char *why);
/* run_id 0: take the next id.  Returns the run's id. */
extern int64 results_create_run(const RunSpec *spec, int64 run_id,
								int clients, int jobs, int repeat);
/* the measured interval started at bench_start: runs.started_at */
extern void results_bench_started(int64 run_id, TimestampTz bench_start);
extern void results_write_sample(int64 run_id, int second,
								  const stats_second *s, double span_s);
extern void results_finish_run(int64 run_id, const RunResult *r);
/* pgbench -r: one row per command of the scripts, n rows in one INSERT */
extern void results_write_statements(int64 run_id, int n, const char *const *scripts,
									 const int *commands, const char *const *texts,
									 const CommandStats *stats);
/* another writer's statement (sysrecord.c), in its own short transaction */
extern void results_exec_params(const char *sql, int nargs, const Oid *types,
								const Datum *values, const char *nulls, bool async_commit);
extern void results_abandon_run(int64 run_id, const char *status, const char *error);
/* the wait sampler's rows (waitsample.c) */
extern void results_write_waits(int64 run_id, int second, int n, const char *const *types,
								const char *const *events, const int *counts);
extern void results_write_backend_cpu(int64 run_id, int second, double covered_s, double cpu_s);
extern void results_wait_sample_hz(int64 run_id, double hz);
extern void results_system_note(int64 run_id, const char *note);

#endif							/* PGBENCHX_RESULTS_H */
