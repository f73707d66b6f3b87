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

#endif							/* PGBENCHX_COORDINATOR_H */
