/*-------------------------------------------------------------------------
 *
 * coordinator.h
 *	  The coordinator background worker: a run's or a sweep's lifecycle.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_COORDINATOR_H
#define PGBENCHX_COORDINATOR_H

extern PGDLLEXPORT void coordinator_main(Datum main_arg);

/*
 * pgbenchx.sample_ring_seconds: the seconds of samples each driver keeps
 * for the coordinator (2 to RUN_SECOND_RING); a test shrinks it to make the
 * ring wrap quickly.  Read by the coordinator when a run starts.
 */
extern int	coordinator_ring_seconds;

/*
 * What the coordinator sends over loopback to the pgbench tables, found
 * through the clients' search_path: pgbench's pre-run maintenance (vacuum
 * => true) and check_tpcb's sums.  trust.c reads the same texts, so that
 * what is checked is what runs.
 */
#define COORDINATOR_MAINTENANCE_SQL \
	{"vacuum pgbench_branches", "vacuum pgbench_tellers", "truncate pgbench_history"}
#define COORDINATOR_TPCB_SUMS \
	"SELECT pg_catalog.concat_ws(' '," \
	" (SELECT coalesce(pg_catalog.sum(abalance), 0) FROM pgbench_accounts)," \
	" (SELECT coalesce(pg_catalog.sum(bbalance), 0) FROM pgbench_branches)," \
	" (SELECT coalesce(pg_catalog.sum(tbalance), 0) FROM pgbench_tellers)," \
	" (SELECT coalesce(pg_catalog.sum(delta), 0) FROM pgbench_history))"

#endif							/* PGBENCHX_COORDINATOR_H */
