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

#endif							/* PGBENCHX_COORDINATOR_H */
