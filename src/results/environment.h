/*-------------------------------------------------------------------------
 *
 * environment.h
 *	  Capturing the environment a benchmark runs in (OS, CPU, memory,
 *	  virtualization, file systems of the data directory, of pg_wal and of
 *	  the run's pgbench_accounts' tablespace, the
 *	  build, the settings) into pgbenchx.environments.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_ENVIRONMENT_H
#define PGBENCHX_ENVIRONMENT_H

/*
 * Captures the environment now, as this server process sees it, and returns
 * the environment_id of the matching pgbenchx.environments row, inserting
 * it if its env_hash is new.  tablespace (InvalidOid: none) is the
 * tablespace of the run's pgbench_accounts when it is not pg_default, and
 * tablespace_name its name as the clients' database read it: its file
 * system is recorded when this server has that tablespace.  Runs inside
 * the caller's transaction, with an active snapshot; connects to SPI itself.
 */
extern int64 environment_capture(Oid tablespace, const char *tablespace_name);

#endif							/* PGBENCHX_ENVIRONMENT_H */
