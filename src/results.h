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

#include "launch.h"
#include "run_shmem.h"
#include "stats.h"

/* what a finished run measured */
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
	DriverCounts counts;		/* summed over the drivers */
	stats_run  *total;
} RunResult;

extern void results_mark_orphans_aborted(void);
extern void results_start_sweep(const LaunchRequest *req);
extern void results_finish_sweep(int64 sweep_id, const char *status, const char *error);
/* run_id 0: take the next id.  Returns the run's id. */
extern int64 results_create_run(const LaunchRequest *req, int64 run_id,
								int clients, int jobs, int repeat);
extern void results_bench_started(int64 run_id);
extern void results_write_sample(int64 run_id, int second,
								  const stats_second *s, double span_s);
extern void results_finish_run(int64 run_id, const RunResult *r);
/* pgbench -r: one row per command of the script */
extern void results_write_statements(int64 run_id, const char *script_name,
									 int ncommands, const char *const *texts,
									 const CommandStats *stats);
extern void results_abandon_run(int64 run_id, const char *status, const char *error);

#endif							/* PGBENCHX_RESULTS_H */
