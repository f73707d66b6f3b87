/*-------------------------------------------------------------------------
 *
 * txlog.h
 *	  pgbenchx.transaction_log: a live run's per-transaction records.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_TXLOG_H
#define PGBENCHX_TXLOG_H

#include "fmgr.h"

extern Datum pgbenchx_transaction_log(PG_FUNCTION_ARGS);

#endif							/* PGBENCHX_TXLOG_H */
