/*-------------------------------------------------------------------------
 *
 * environment.h
 *	  Capturing the environment a benchmark runs in (OS, CPU, memory,
 *	  virtualization, file systems of the data directory and of pg_wal, the
 *	  build, the settings) into pgbenchx.environments.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_ENVIRONMENT_H
#define PGBENCHX_ENVIRONMENT_H

/*
 * Captures the environment now, as this server process sees it, and returns
 * the environment_id of the matching pgbenchx.environments row, inserting
 * it if its env_hash is new.  Runs inside the caller's transaction, with an
 * active snapshot; connects to SPI itself.
 */
extern int64 environment_capture(void);

#endif							/* PGBENCHX_ENVIRONMENT_H */
