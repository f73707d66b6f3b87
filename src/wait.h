/*-------------------------------------------------------------------------
 *
 * wait.h
 *	  pgbenchx.wait(id) and pgbenchx.cancel(id).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_WAIT_H
#define PGBENCHX_WAIT_H

#include "fmgr.h"

extern Datum pgbenchx_wait(PG_FUNCTION_ARGS);
extern Datum pgbenchx_cancel(PG_FUNCTION_ARGS);

/* pg_cancel_backend's rule for a run of role owner (also part_go's) */
extern bool wait_may_cancel(const char *owner);

#endif							/* PGBENCHX_WAIT_H */
