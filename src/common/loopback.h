/*-------------------------------------------------------------------------
 *
 * loopback.h
 *	  Connections from inside the server to this server: the loopback
 *	  conninfo, and pqconn.c's connect and exec with the loopback's policy.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_LOOPBACK_H
#define PGBENCHX_LOOPBACK_H

#include <signal.h>

#include "lib/stringinfo.h"
#include "libpq-fe.h"

#include "pqconn.h"

/*
 * The complete conninfo for a client of this server: host (the first
 * unix_socket_directories entry, else TCP localhost), port, dbname, user and
 * application_name (unless NULL) given explicitly, with own_options our own
 * options (client_connection_check_interval: an orphaned client backend
 * notices its client is gone), then the caller's extra conninfo, whose
 * keywords win.  palloc'd in the current context.
 */
extern char *loopback_conninfo(const char *dbname, const char *user,
							   const char *application_name, const char *extra,
							   bool own_options);

/* Whether conninfo gives keyword a value (not empty). */
extern bool loopback_conninfo_has(const char *conninfo, const char *keyword);

/* Append "keyword='value'" with libpq quoting to buf. */
extern void loopback_append_param(StringInfo buf, const char *keyword,
								  const char *value);

/*
 * A connection to this server (pqconn_connect): its deadline the conninfo's
 * connect_timeout (60 s when unset or 0), given up when
 * *loopback_cancel_flag becomes true ("cancelled while connecting"), its
 * first notices logged, and with loopback_require_password a login without
 * the password refused.  NULL with *errmsg (palloc'd) on failure.  Closed
 * by pqconn_finish.
 */
extern PGconn *loopback_connect(const char *conninfo, char **errmsg);

/*
 * loopback_connect, and when the connection was refused because the server
 * let it in, or would have, without the password (pqconn_connect's rule),
 * *refused_at is set to its "host:port": the caller reports that as it
 * reports conninfo_login_ok's refusal.
 */
extern PGconn *loopback_connect_login(const char *conninfo, char **errmsg,
									  char **refused_at);

/*
 * Run sql (one or more statements) without blocking, without a deadline
 * but that of loopback_cancel_flag.  Returns NULL when every result
 * succeeded, else the first error message (palloc'd).  A last command that
 * returns rows stores its first value in *first_value when that is not
 * NULL (palloc'd, NULL if none), and the first error's SQLSTATE goes to
 * sqlstate[6] when that is not NULL.
 */
extern char *loopback_exec(PGconn *conn, const char *sql, char **first_value,
						   char *sqlstate);

/*
 * When set and *loopback_cancel_flag becomes true (a signal handler sets
 * it), loopback_exec cancels the statement in progress (cancel_send, with
 * its deadline) and returns its error, instead of waiting for a statement
 * that may wait on a lock forever, and loopback_connect gives up.  The
 * coordinator points it at its cancel flag.
 */
extern volatile sig_atomic_t *loopback_cancel_flag;

/*
 * When true (the coordinator of a non-superuser's run), loopback_connect
 * refuses a connection the server let in without asking for the password
 * (conninfo_login_ok): NULL, with *errmsg saying so.
 */
extern bool loopback_require_password;

#endif							/* PGBENCHX_LOOPBACK_H */
