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

#endif							/* PGBENCHX_WAIT_H */
