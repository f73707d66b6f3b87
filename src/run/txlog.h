/*-------------------------------------------------------------------------
 *
 * txlog.h
 *	  pgbenchx.transaction_log and client_messages: what a live run's
 *	  drivers write for a reader.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_TXLOG_H
#define PGBENCHX_TXLOG_H

#include "fmgr.h"

extern Datum pgbenchx_transaction_log(PG_FUNCTION_ARGS);
extern Datum pgbenchx_client_messages(PG_FUNCTION_ARGS);

#endif							/* PGBENCHX_TXLOG_H */
