/*-------------------------------------------------------------------------
 *
 * pqconn.h
 *	  libpq from inside the server: one connection made, used and closed by
 *	  a backend or a worker without ever blocking inside libpq.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_PQCONN_H
#define PGBENCHX_PQCONN_H

#include <signal.h>

#include "libpq-fe.h"

#include "pg_compat.h"

/*
 * The most an answer may hold (a generator's part's whole runs row with its
 * statement statistics is at most 64 MB), what each value counts beyond its
 * bytes, and the longest message kept from a server.
 */
#define PQCONN_MAX_ANSWER_BYTES	((size_t) 80 * 1024 * 1024)
#define PQCONN_ROW_OVERHEAD		16
#define PQCONN_MAX_MESSAGE_BYTES	2000

/* How pqconn_connect makes one connection. */
typedef struct PqconnConnect
{
	/*
	 * The connection, for "could not open %s: too many open files" and the
	 * logged notices: a string literal (the notice receiver keeps it).
	 */
	const char *what;

	/*
	 * The connect's deadline in ms; 0: the conninfo's connect_timeout, as
	 * libpq reads it (at least 2 s), or 60 s when that is unset or 0.
	 */
	int			timeout_ms;
	/* refuse a login the server let in without the password (conninfo.c) */
	bool		require_password;
	/*
	 * Log the first few notices of the connection, drop the rest (libpq's
	 * default prints each one into the server log, without limit).
	 */
	bool		log_notices;
	/* when set and it becomes true (a signal handler), give up connecting */
	volatile sig_atomic_t *cancel_flag;
} PqconnConnect;

/*
 * Connect without blocking, waiting on the socket and the latch
 * (WL_EXIT_ON_PM_DEATH, interrupts serviced after every wait: a cancel or a
 * terminate raises its ERROR, the connection closed first) until how's
 * deadline.  Returns the connection, non-blocking, or NULL with *errmsg
 * (palloc'd, see pqconn_message).  A login that did not use the caller's
 * password (how->require_password, conninfo_login_ok), or that libpq 16's
 * require_auth pin ended because the server would have let it in without
 * one (conninfo_password_refused), is refused the same way: NULL, *errmsg
 * saying so, and *refused_at (when refused_at is not NULL) the server's
 * "host:port".  The descriptor is reserved with AcquireExternalFD (an ERROR
 * when none is left) and given back by pqconn_finish.
 */
extern PGconn *pqconn_connect(const char *conninfo, const PqconnConnect *how,
							  char **errmsg, char **refused_at);

/*
 * Close a connection of pqconn_connect (NULL: nothing) and give its
 * descriptor back.  Nothing is drained: a command still in flight (after a
 * COPY, a deadline or a cancel the server did not answer) ends with the
 * connection on the server's side.
 */
extern void pqconn_finish(PGconn *conn);

/*
 * Send sql without waiting for its answer: with nparams 0 one or more
 * statements (the simple query protocol), else one statement with text
 * parameters.  Rows come back one at a time, for pqconn_collect's bound.
 * Returns false with *errmsg when it could not be sent.
 */
extern bool pqconn_send(PGconn *conn, const char *sql, int nparams,
						const char *const *params, char **errmsg);

/*
 * Wait for the whole answer of what pqconn_send sent, on the socket and the
 * latch as pqconn_connect does, at most timeout_ms (-1: no deadline).
 * Returns its last result (rows, copied into one result, or a command's
 * status; the caller PQclears it), or NULL with *errmsg: the first error of
 * the server (its SQLSTATE in sqlstate[6] when sqlstate is not NULL), the
 * connection's, no answer in time, or an answer of more than max_bytes of
 * rows (each value's length plus PQCONN_ROW_OVERHEAD: a longer answer is
 * read to its end and thrown away row by row).  When cancel_flag is set and
 * becomes true, the statement is cancelled (cancel.c, with its deadline)
 * and its error returned; a server that does not answer the cancel is not
 * waited for.
 */
extern PGresult *pqconn_collect(PGconn *conn, int timeout_ms, size_t max_bytes,
								volatile sig_atomic_t *cancel_flag,
								char **errmsg, char *sqlstate);

/* pqconn_send, then pqconn_collect within PQCONN_MAX_ANSWER_BYTES */
extern PGresult *pqconn_exec(PGconn *conn, const char *sql, int nparams,
							 const char *const *params, int timeout_ms,
							 char **errmsg, char *sqlstate);

/*
 * A server's or libpq's message as every function here returns it
 * (palloc'd): without its trailing newlines and spaces, at most
 * PQCONN_MAX_MESSAGE_BYTES, valid in this database's encoding.
 */
extern char *pqconn_message(const char *msg);

/* Make a text from another server storable: invalid bytes become '?'. */
extern void pqconn_sanitize_text(char *s);

/*
 * No descriptor is left for what (a libpq connection): postgres_fdw's error,
 * errcode 08001.  pqconn_connect raises it when AcquireExternalFD says so,
 * a driver when its own limit is too low for its clients.
 */
pgx_noreturn extern void pqconn_too_many_files(const char *what);

#endif							/* PGBENCHX_PQCONN_H */
