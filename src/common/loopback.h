/*-------------------------------------------------------------------------
 *
 * loopback.h
 *	  libpq connections from inside the server: the loopback conninfo, and
 *	  connect and exec that never block inside libpq.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_LOOPBACK_H
#define PGBENCHX_LOOPBACK_H

#include <signal.h>

#include "libpq-fe.h"

#include "pg_compat.h"

/*
 * The complete conninfo for a client of this server: host (the first
 * unix_socket_directories entry, else TCP localhost), port, dbname, user and
 * application_name (unless NULL) given explicitly, then the caller's extra
 * conninfo, whose keywords win.  palloc'd in the current context.
 */
extern char *loopback_conninfo(const char *dbname, const char *user,
							   const char *application_name,
							   const char *extra);

/* Append "keyword='value'" with libpq quoting to buf. */
extern void loopback_append_param(StringInfo buf, const char *keyword,
								  const char *value);

/*
 * Connect without blocking, waiting on the socket and the latch.  Returns
 * NULL and sets *errmsg (palloc'd, libpq's message) on failure.
 * Interrupts are serviced: a cancel raises an ERROR (the connection is
 * closed first).  The wait is bounded by the conninfo's connect_timeout
 * (60 s when unset or 0).  The connection returned is non-blocking.  With
 * loopback_require_password, a login without the password is refused as a
 * failure.  The connection's descriptor is reserved with
 * AcquireExternalFD (an ERROR when none is left) and given back by
 * loopback_finish.
 */
extern PGconn *loopback_connect(const char *conninfo, char **errmsg);

/*
 * loopback_connect, and when the connection failed only because the server
 * would have let it in without the password (libpq 16's require_auth pin,
 * conninfo_password_refused), *refused_at is set to its "host:port": the
 * caller reports that as it reports conninfo_login_ok's refusal.
 */
extern PGconn *loopback_connect_login(const char *conninfo, char **errmsg,
									  char **refused_at);

/*
 * No descriptor is left for what (a libpq connection): postgres_fdw's error,
 * errcode 08001.  loopback_connect raises it when AcquireExternalFD says
 * so, a driver when its own limit is too low for its clients.
 */
pgx_noreturn extern void loopback_too_many_files(const char *what);

/*
 * Run sql (one or more statements) without blocking.  Returns NULL when
 * every result succeeded, else the first error message (palloc'd).
 * Commands returning rows store the first value of the last one in
 * *first_value when that is not NULL (palloc'd, NULL if none), and the
 * first error's SQLSTATE in sqlstate[6] when that is not NULL.
 */
extern char *loopback_exec(PGconn *conn, const char *sql, char **first_value,
						   char *sqlstate);

/*
 * When set and *loopback_cancel_flag becomes true (a signal handler sets
 * it), loopback_exec cancels the statement in progress (cancel_send, with
 * its deadline) and returns its error, instead of waiting for a statement
 * that may wait on a lock forever.  The coordinator points it at its cancel
 * flag.
 */
extern volatile sig_atomic_t *loopback_cancel_flag;

/*
 * When true (the coordinator of a non-superuser's run), loopback_connect
 * refuses a connection the server let in without asking for the password
 * (conninfo_login_ok): NULL, with *errmsg saying so.
 */
extern bool loopback_require_password;

/* Wait until conn's socket has the events, or the latch; services interrupts. */
extern void loopback_wait(PGconn *conn, int socket_events, long timeout_ms,
						  uint32 wait_event_info);

/* Close a connection that loopback_exec left idle. */
extern void loopback_finish(PGconn *conn);

#endif							/* PGBENCHX_LOOPBACK_H */
