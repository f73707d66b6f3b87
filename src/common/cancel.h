/*-------------------------------------------------------------------------
 *
 * cancel.h
 *	  A non-blocking CancelRequest with a deadline, for every libpq
 *	  connection pgbenchx opens from a worker or a backend.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_CANCEL_H
#define PGBENCHX_CANCEL_H

#include "libpq-fe.h"

/*
 * How long a cancel may take, from its connect to the server closing its
 * side: a server on this machine or its network answers in milliseconds,
 * and a server that has not answered in 5 s is one that will not (an
 * endpoint that accepts and never answers, a network that drops packets).
 * Short enough that a driver's exit, a shutdown or a terminate is not held
 * up for long, long enough for a loaded server.
 */
#define CANCEL_DEADLINE_MS	5000

/*
 * Ask the server of each of conns[0..n) to cancel the query in flight
 * there: one CancelRequest per connection (NULL and bad connections are
 * skipped), all sent at once, each over a non-blocking socket of its own,
 * waiting on the latch and the sockets (WL_EXIT_ON_PM_DEATH) until every
 * server closed its side or timeout_ms passed.  Interrupts are serviced
 * after every wait (not while the process is exiting): a terminate or a
 * cancel raises its error, the sockets closed first.  The connections
 * themselves are not touched.  Returns how many requests were delivered
 * (the server closed the connection after reading it).
 */
extern int	cancel_send(PGconn *const *conns, int n, int timeout_ms);

#endif							/* PGBENCHX_CANCEL_H */
