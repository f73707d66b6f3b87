/*-------------------------------------------------------------------------
 *
 * worker.h
 *	  What every pgbenchx background worker shares (worker.c): used by the
 *	  launcher, the coordinator, the drivers and the start-up reaper.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_WORKER_H
#define PGBENCHX_WORKER_H

#include "postmaster/bgworker.h"

/*
 * A pgbenchx worker: restart never, from $libdir/pgbenchx, notifying us,
 * with main_arg as its argument (the coordinator and the drivers get their
 * DSM segment's handle).
 */
extern void worker_spec(BackgroundWorker *worker, const char *function,
						const char *type, Datum main_arg);

/* the default number of jobs for clients given the free worker slots */
extern int	worker_default_jobs(int clients, int ncpus, int free_slots);

/*
 * File descriptors a driver needs besides one socket per client (its own
 * latch, wait event set, postmaster pipe, log and DSM files), with room.
 */
#define WORKER_DRIVER_SPARE_FDS	32

/*
 * Raise this process's soft RLIMIT_NOFILE to at least want (at most the hard
 * limit).  Returns the soft limit now in force, or -1 if it is unlimited or
 * unknown.
 */
extern long worker_raise_nofile(long want);

#endif							/* PGBENCHX_WORKER_H */
