/*-------------------------------------------------------------------------
 *
 * loopback.c
 *	  libpq connections from inside the server: the loopback conninfo, and
 *	  connect and exec that wait on the socket together with the latch, so
 *	  that a cancel, a terminate or the postmaster's death is always noticed.
 *
 * Used by the caller's backend (the login check before a run), and by the
 * coordinator (pre-run maintenance, counters, check_tpcb), whose every
 * connection of a non-superuser's run is checked by conninfo.c's rule.
 * Nothing here blocks in libpq: the
 * connect keeps connect_timeout itself (libpq keeps it only in PQconnectdb),
 * the connection is non-blocking once made, and a cancel goes through
 * cancel.c, with its deadline.  The drivers keep their own state
 * machine for their many connections and only take the conninfo and the
 * "too many open files" error from here.
 *
 * Every connection holds a socket the server's file descriptor accounting
 * (fd.c) must know of, as postgres_fdw's do: it is reserved with
 * AcquireExternalFD before the connection is opened and released when it is
 * closed.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/varlena.h"
#include "utils/wait_event.h"

#include "conninfo.h"
#include "cancel.h"
#include "loopback.h"

void
loopback_append_param(StringInfo buf, const char *keyword, const char *value)
{
	if (buf->len > 0)
		appendStringInfoChar(buf, ' ');
	appendStringInfo(buf, "%s='", keyword);
	for (const char *p = value; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			appendStringInfoChar(buf, '\\');
		appendStringInfoChar(buf, *p);
	}
	appendStringInfoChar(buf, '\'');
}

char *
loopback_conninfo(const char *dbname, const char *user,
				  const char *application_name, const char *extra)
{
	StringInfoData buf;
	char		port[16];
	const char *host = "localhost";
	char	   *dirs;
	List	   *dirlist = NIL;

	/* the first socket directory, as the server's own clients would use */
	if (Unix_socket_directories && Unix_socket_directories[0] != '\0')
	{
		dirs = pstrdup(Unix_socket_directories);
		if (SplitDirectoriesString(dirs, ',', &dirlist) && dirlist != NIL)
			host = (const char *) linitial(dirlist);
	}
	snprintf(port, sizeof(port), "%d", PostPortNumber);

	initStringInfo(&buf);
	loopback_append_param(&buf, "host", host);
	loopback_append_param(&buf, "port", port);
	loopback_append_param(&buf, "dbname", dbname);
	loopback_append_param(&buf, "user", user);
	if (application_name)
		loopback_append_param(&buf, "application_name", application_name);
	/* an orphaned client backend notices its client is gone */
	loopback_append_param(&buf, "options", "-c client_connection_check_interval=1000");
	loopback_append_param(&buf, "connect_timeout", "30");
	if (extra && extra[0] != '\0')
	{
		PQconninfoOption *opts = PQconninfoParse(extra, NULL);

		appendStringInfo(&buf, " %s", extra);
		/*
		 * The caller's options (say -c lock_timeout=1s) would replace ours:
		 * keep the check interval in front of them, theirs still win.
		 */
		for (PQconninfoOption *o = opts; o && o->keyword; o++)
			if (strcmp(o->keyword, "options") == 0 && o->val && o->val[0] != '\0')
				loopback_append_param(&buf, "options",
									  psprintf("-c client_connection_check_interval=1000 %s", o->val));
		if (opts)
			PQconninfoFree(opts);
	}
	return buf.data;
}

volatile sig_atomic_t *loopback_cancel_flag = NULL;

bool		loopback_require_password = false;
/* how long loopback_connect waits when connect_timeout is unset or 0 */
#define LOOPBACK_CONNECT_TIMEOUT_S	60

/* how long loopback_exec waits for the server's answer to its cancel */
#define LOOPBACK_CANCEL_WAIT_MS	5000

void
loopback_wait(PGconn *conn, int socket_events, long timeout_ms,
			  uint32 wait_event_info)
{
	int			events = WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | socket_events;

	if (timeout_ms >= 0)
		events |= WL_TIMEOUT;
	(void) WaitLatchOrSocket(MyLatch, events, PQsocket(conn), timeout_ms,
							 wait_event_info);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
}

/* how many notices of one connection reach the server log */
#define LOOPBACK_NOTICES_LOGGED	5

static int	loopback_notices;

/*
 * libpq's default notice processor prints to stderr, that is into the
 * server log, without limit.  Log the first few of a connection (the
 * maintenance's "skipping" warnings, say), cut, and drop the rest.
 */
static void
loopback_notice_receiver(void *arg pg_attribute_unused(), const PGresult *res)
{
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);

	if (++loopback_notices > LOOPBACK_NOTICES_LOGGED)
		return;
	if (primary == NULL)
		primary = PQresultErrorMessage(res);
	/* the server's text, maybe in another encoding: cut bytes, not characters */
	ereport(LOG,
			(errmsg("pgbenchx loopback connection received %s: %.200s%s",
					severity ? severity : "NOTICE", primary,
					strlen(primary) > 200 ? "..." : "")));
}

void
loopback_too_many_files(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
			 errmsg("could not open %s: too many open files", what),
			 errdetail("There are too many open files on the local server."),
			 errhint("Raise the server's max_files_per_process and/or \"ulimit -n\" limits, or use more jobs for fewer clients each.")));
}

/* reserve the descriptor of a connection about to be opened */
static void
loopback_acquire_fd(const char *what)
{
	if (!AcquireExternalFD())
		loopback_too_many_files(what);
}

/* close a connection of loopback_connect and give its descriptor back */
static void
loopback_close(PGconn *conn)
{
	PQfinish(conn);
	ReleaseExternalFD();
}

/*
 * The connection's connect_timeout in seconds, as libpq reads it (at least
 * 2); when it is unset or 0, LOOPBACK_CONNECT_TIMEOUT_S: a connection from
 * inside the server is never waited for without end.
 */
static int
loopback_connect_timeout(PGconn *conn)
{
	PQconninfoOption *opts = PQconninfo(conn);
	int			timeout = 0;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val && o->val[0] != '\0')
			timeout = atoi(o->val);
	if (opts)
		PQconninfoFree(opts);
	if (timeout <= 0)
		return LOOPBACK_CONNECT_TIMEOUT_S;
	return Max(timeout, 2);
}

PGconn *
loopback_connect(const char *conninfo, char **errmsg)
{
	return loopback_connect_login(conninfo, errmsg, NULL);
}

PGconn *
loopback_connect_login(const char *conninfo, char **errmsg, char **refused_at)
{
	PGconn	   *conn;
	volatile PostgresPollingStatusType status = PGRES_POLLING_WRITING;
	bool		cancelled = false;
	bool		timed_out = false;
	int			timeout_s;
	TimestampTz deadline;

	*errmsg = NULL;
	loopback_acquire_fd("a loopback connection");
	conn = PQconnectStart(conninfo);
	if (conn == NULL)
	{
		ReleaseExternalFD();
		*errmsg = pstrdup("out of memory");
		return NULL;
	}
	loopback_notices = 0;
	PQsetNoticeReceiver(conn, loopback_notice_receiver, NULL);
	if (PQstatus(conn) == CONNECTION_BAD)
		status = PGRES_POLLING_FAILED;
	timeout_s = loopback_connect_timeout(conn);
	deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_s * 1000);

	PG_TRY();
	{
		while (status != PGRES_POLLING_OK && status != PGRES_POLLING_FAILED)
		{
			int			rc;

			/* libpq keeps connect_timeout only in PQconnectdb: we keep it */
			if (GetCurrentTimestamp() >= deadline)
			{
				timed_out = true;
				break;
			}

			/*
			 * Wake at least once a second to look at the cancel flag; poll
			 * libpq only when the socket is ready.
			 */
			rc = WaitLatchOrSocket(MyLatch,
								   WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | WL_TIMEOUT |
								   (status == PGRES_POLLING_READING ?
									WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE),
								   PQsocket(conn), 1000, PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
			if (loopback_cancel_flag && *loopback_cancel_flag)
			{
				cancelled = true;
				break;
			}
			if (rc & (WL_SOCKET_READABLE | WL_SOCKET_WRITEABLE))
				status = PQconnectPoll(conn);
		}
	}
	PG_CATCH();
	{
		loopback_close(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();

	if (cancelled)
	{
		loopback_close(conn);
		*errmsg = pstrdup("cancelled while connecting");
		return NULL;
	}
	if (timed_out)
	{
		loopback_close(conn);
		*errmsg = psprintf("timeout expired: no connection within %d s (connect_timeout)",
						   timeout_s);
		return NULL;
	}
	if (status == PGRES_POLLING_FAILED && conninfo_password_refused(conn))
	{
		/* libpq 16's require_auth said what conninfo_login_ok says below */
		char	   *where = conninfo_where(conn);

		if (refused_at)
			*refused_at = where;
		*errmsg = psprintf("the server at %s let a non-superuser's connection in without asking for the password",
						   where);
		loopback_close(conn);
		return NULL;
	}
	if (status == PGRES_POLLING_FAILED)
	{
		char	   *msg = pstrdup(PQerrorMessage(conn));
		int			len = strlen(msg);

		while (len > 0 && msg[len - 1] == '\n')
			msg[--len] = '\0';
		*errmsg = msg;
		loopback_close(conn);
		return NULL;
	}
	/* a non-superuser's run: the caller's password, on every connection */
	if (!conninfo_login_ok(conn, loopback_require_password))
	{
		*errmsg = psprintf("the server at %s let a non-superuser's connection in without asking for the password",
						   conninfo_where(conn));
		loopback_close(conn);
		return NULL;
	}
	/* nothing sent later may block in libpq either (loopback_exec flushes) */
	if (PQsetnonblocking(conn, 1) != 0)
	{
		*errmsg = pstrdup(PQerrorMessage(conn));
		loopback_close(conn);
		return NULL;
	}
	return conn;
}

char *
loopback_exec(PGconn *conn, const char *sql, char **first_value, char *sqlstate)
{
	PGresult   *res;
	char	   *error = NULL;
	bool		cancel_sent = false;
	TimestampTz cancel_at = 0;

	if (first_value)
		*first_value = NULL;
	if (sqlstate)
		sqlstate[0] = '\0';
	if (!PQsendQuery(conn, sql))
		return pstrdup(PQerrorMessage(conn));

	for (;;)
	{
		int			flush;

		/* the connection is non-blocking: the rest of the send, then the answer */
		while ((flush = PQflush(conn)) != 0 || PQisBusy(conn))
		{
			if (flush < 0)
				return pstrdup(PQerrorMessage(conn));
			/* wake at least once a second to look at the cancel flag */
			loopback_wait(conn, WL_SOCKET_READABLE | (flush > 0 ? WL_SOCKET_WRITEABLE : 0),
						  1000, PG_WAIT_EXTENSION);
			if (!cancel_sent && loopback_cancel_flag && *loopback_cancel_flag)
			{
				/*
				 * The server answers with an error, which we drain below; a
				 * server that did not take the request within its deadline
				 * (cancel.c) will not answer it at all.
				 */
				if (cancel_send(&conn, 1, CANCEL_DEADLINE_MS) == 0)
					return pstrdup("cancelled; the server did not answer the cancel request");
				cancel_sent = true;
				cancel_at = GetCurrentTimestamp();
			}
			/* a server that ignores the cancel is not waited for without end */
			else if (cancel_sent &&
					 TimestampDifferenceExceeds(cancel_at, GetCurrentTimestamp(),
												LOOPBACK_CANCEL_WAIT_MS))
				return pstrdup("cancelled; the server did not answer the cancel request");
			if (!PQconsumeInput(conn))
				return pstrdup(PQerrorMessage(conn));
		}
		res = PQgetResult(conn);
		if (res == NULL)
			break;
		if (PQresultStatus(res) == PGRES_COPY_IN || PQresultStatus(res) == PGRES_COPY_OUT ||
			PQresultStatus(res) == PGRES_COPY_BOTH)
		{
			/*
			 * PQgetResult would return it forever.  Nothing is sent or
			 * drained (that could block): the connection is left in COPY,
			 * and the caller's loopback_finish closes it, which ends the
			 * server's side.
			 */
			PQclear(res);
			return pstrdup("COPY is not supported");
		}
		if (PQresultStatus(res) == PGRES_FATAL_ERROR && error == NULL)
		{
			const char *st = PQresultErrorField(res, PG_DIAG_SQLSTATE);
			const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

			error = pstrdup(primary ? primary : PQresultErrorMessage(res));
			if (sqlstate && st)
				strlcpy(sqlstate, st, 6);
		}
		else if (PQresultStatus(res) == PGRES_TUPLES_OK && first_value &&
				 PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
			*first_value = pstrdup(PQgetvalue(res, 0, 0));
		PQclear(res);
	}
	if (error)
	{
		int			len = strlen(error);

		while (len > 0 && error[len - 1] == '\n')
			error[--len] = '\0';
	}
	return error;
}

void
loopback_finish(PGconn *conn)
{
	/*
	 * Nothing is drained: after an error of loopback_exec (a COPY, a cancel
	 * the server did not answer) a command may still be in flight, and
	 * closing the connection ends it on the server's side.
	 */
	if (conn != NULL)
		loopback_close(conn);
}
