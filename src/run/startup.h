/*-------------------------------------------------------------------------
 * startup.h
 *	  The optional start-up reaper (startup.c), registered by _PG_init when
 *	  pgbenchx is in shared_preload_libraries.
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_STARTUP_H
#define PGBENCHX_STARTUP_H

extern void startup_register(void);

#endif							/* PGBENCHX_STARTUP_H */
