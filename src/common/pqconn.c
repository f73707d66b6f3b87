/*-------------------------------------------------------------------------
 *
 * pqconn.c
 *	  libpq from inside the server, the one layer for every connection that
 *	  is made, used and closed one statement at a time: connect with a
 *	  deadline, send, collect the answer, finish, each waiting on the socket
 *	  together with the latch, so that a cancel, a terminate or the
 *	  postmaster's death is always noticed and nothing blocks inside libpq.
 *
 * PostgreSQL's libpq-be-fe-helpers.h (16 and later) and Citus's
 * connection/ are the models: every wait is WaitLatchOrSocket with
 * WL_EXIT_ON_PM_DEATH followed by CHECK_FOR_INTERRUPTS (an ERROR closes the
 * connection being made first), the connection is non-blocking once made,
 * and the descriptor is reserved with AcquireExternalFD, as postgres_fdw's
 * are, before it is opened and released when it is closed.  Beyond them:
 * the connect keeps its deadline itself (libpq keeps connect_timeout only
 * in PQconnectdb); an answer is read row by row (single-row mode) within a
 * byte bound and a deadline, since a server may be another one (a load
 * generator) whose answers are not trusted; its messages are clipped and
 * made valid in this database's encoding; a cancel goes through cancel.c,
 * with its deadline; and a login that did not use the caller's password is
 * refused by one rule (pqconn_refused_login, conninfo.c's checks) whichever
 * way libpq tells it.
 *
 * Used by loopback.c (the caller's backend and the coordinator talking to
 * this server: the loopback conninfo, its deadline and cancel flag) and by
 * fleet/ (the recorder talking to its load generators).  What a connection
 * is for, its conninfo and its policy (PqconnConnect) are the callers'.  The
 * drivers keep their own state machine for their many connections and only
 * take pqconn_too_many_files from here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "storage/latch.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "cancel.h"
#include "conninfo.h"
#include "pqconn.h"

/* how long a connect waits when connect_timeout is unset or 0 */
#define PQCONN_CONNECT_TIMEOUT_S	60

/* how long a collect waits for the server's answer to its cancel */
#define PQCONN_CANCEL_WAIT_MS	5000

/* the longest a wait sleeps before it looks at the deadline and the cancel flag */
#define PQCONN_TICK_MS	1000

/* how many notices of one connection reach the server log (log_notices) */
#define PQCONN_NOTICES_LOGGED	5

static int	pqconn_notices;

char *
pqconn_message(const char *msg)
{
	char	   *m;
	int			len;

	msg = msg ? msg : "unknown error";
	len = strnlen(msg, PQCONN_MAX_MESSAGE_BYTES);
	m = pnstrdup(msg, len);
	while (len > 0 && (m[len - 1] == '\n' || m[len - 1] == ' '))
		m[--len] = '\0';
	pqconn_sanitize_text(m);
	return m;
}

void
pqconn_sanitize_text(char *s)
{
	int			len = strlen(s);
	int			pos = 0;

	while (pos < len)
	{
		int			ok = pg_encoding_verifymbstr(GetDatabaseEncoding(), s + pos, len - pos);

		pos += ok;
		if (pos < len)
			s[pos++] = '?';
	}
}

void
pqconn_too_many_files(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
			 errmsg("could not open %s: too many open files", what),
			 errdetail("There are too many open files on the local server."),
			 errhint("Raise the server's max_files_per_process and/or \"ulimit -n\" limits, or use more jobs for fewer clients each.")));
}

/*
 * libpq's default notice processor prints to stderr, that is into the
 * server log, without limit.  Log the first few of a connection (the
 * maintenance's "skipping" warnings, say), cut, and drop the rest.
 */
static void
pqconn_notice_receiver(void *arg, const PGresult *res)
{
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);

	if (++pqconn_notices > PQCONN_NOTICES_LOGGED)
		return;
	if (primary == NULL)
		primary = PQresultErrorMessage(res);
	/* the server's text, maybe in another encoding: cut bytes, not characters */
	ereport(LOG,
			(errmsg("pgbenchx: %s received %s: %.200s%s", (const char *) arg,
					severity ? severity : "NOTICE", primary,
					strlen(primary) > 200 ? "..." : "")));
}

/* milliseconds left until deadline (GetCurrentTimestamp's scale), >= 0 */
static long
pqconn_left_ms(TimestampTz deadline)
{
	TimestampTz now = GetCurrentTimestamp();

	return now >= deadline ? 0 : (long) ((deadline - now + 999) / 1000);
}

/*
 * Wait until conn's socket has socket_events, the latch is set or
 * timeout_ms passed, then service interrupts.  Returns WaitLatchOrSocket's
 * events.
 */
static int
pqconn_wait(PGconn *conn, int socket_events, long timeout_ms)
{
	int			rc;

	rc = WaitLatchOrSocket(MyLatch,
						   WL_LATCH_SET | WL_EXIT_ON_PM_DEATH | WL_TIMEOUT | socket_events,
						   PQsocket(conn), timeout_ms, PG_WAIT_EXTENSION);
	ResetLatch(MyLatch);
	CHECK_FOR_INTERRUPTS();
	return rc;
}

/*
 * The connection's connect_timeout in seconds, as libpq reads it (at least
 * 2); when it is unset or 0, PQCONN_CONNECT_TIMEOUT_S: a connection from
 * inside the server is never waited for without end.
 */
static int
pqconn_connect_timeout(PGconn *conn)
{
	PQconninfoOption *opts = PQconninfo(conn);
	int			timeout = 0;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val && o->val[0] != '\0')
			timeout = atoi(o->val);
	if (opts)
		PQconninfoFree(opts);
	if (timeout <= 0)
		return PQCONN_CONNECT_TIMEOUT_S;
	return Max(timeout, 2);
}

/*
 * The one rule for a login that did not use the caller's password, however
 * libpq tells it: NULL when conn is not refused by it, else the "host:port"
 * of the server that let it in without asking for the password (an
 * established connection, when require_password: conninfo_login_ok) or
 * would have (a failed one that libpq 16's require_auth pin ended first:
 * conninfo_password_refused, whatever require_password says: the pin is on
 * a restricted caller's conninfo only, conninfo_append_pins).
 */
static char *
pqconn_refused_login(PGconn *conn, bool failed, bool require_password)
{
	if (failed ? conninfo_password_refused(conn) : !conninfo_login_ok(conn, require_password))
		return conninfo_where(conn);
	return NULL;
}

PGconn *
pqconn_connect(const char *conninfo, const PqconnConnect *how, char **errmsg,
			   char **refused_at)
{
	PGconn	   *conn;
	volatile PostgresPollingStatusType status = PGRES_POLLING_WRITING;
	volatile bool cancelled = false;
	volatile bool timed_out = false;
	int			timeout_ms;
	TimestampTz deadline;
	char	   *where;

	*errmsg = NULL;
	if (!AcquireExternalFD())
		pqconn_too_many_files(how->what);
	conn = PQconnectStart(conninfo);
	if (conn == NULL)
	{
		ReleaseExternalFD();
		*errmsg = pstrdup("out of memory");
		return NULL;
	}
	if (how->log_notices)
	{
		pqconn_notices = 0;
		PQsetNoticeReceiver(conn, pqconn_notice_receiver, (void *) how->what);
	}
	if (PQstatus(conn) == CONNECTION_BAD)
		status = PGRES_POLLING_FAILED;
	timeout_ms = how->timeout_ms > 0 ? how->timeout_ms : pqconn_connect_timeout(conn) * 1000;
	deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);

	PG_TRY();
	{
		while (status != PGRES_POLLING_OK && status != PGRES_POLLING_FAILED)
		{
			long		left = pqconn_left_ms(deadline);
			int			rc;

			if (left == 0)
			{
				timed_out = true;
				break;
			}
			/* poll libpq only when the socket is ready */
			rc = pqconn_wait(conn, status == PGRES_POLLING_READING ?
							 WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE,
							 Min(left, PQCONN_TICK_MS));
			if (how->cancel_flag && *how->cancel_flag)
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
		pqconn_finish(conn);
		PG_RE_THROW();
	}
	PG_END_TRY();

	if (cancelled)
		*errmsg = pstrdup("cancelled while connecting");
	else if (timed_out && how->timeout_ms > 0)
		*errmsg = psprintf("no connection within %d s", timeout_ms / 1000);
	else if (timed_out)
		*errmsg = psprintf("timeout expired: no connection within %d s (connect_timeout)",
						   timeout_ms / 1000);
	else if ((where = pqconn_refused_login(conn, status == PGRES_POLLING_FAILED,
										   how->require_password)) != NULL)
	{
		if (refused_at)
			*refused_at = where;
		*errmsg = psprintf("the server at %s let a non-superuser's connection in without asking for the password",
						   where);
	}
	else if (status == PGRES_POLLING_FAILED)
		*errmsg = pqconn_message(PQerrorMessage(conn));
	/* nothing sent later may block in libpq either (pqconn_collect flushes) */
	else if (PQsetnonblocking(conn, 1) != 0)
		*errmsg = pqconn_message(PQerrorMessage(conn));
	else
		return conn;
	pqconn_finish(conn);
	return NULL;
}

void
pqconn_finish(PGconn *conn)
{
	if (conn == NULL)
		return;
	PQfinish(conn);
	ReleaseExternalFD();
}

bool
pqconn_send(PGconn *conn, const char *sql, int nparams, const char *const *params,
			char **errmsg)
{
	int			sent;

	*errmsg = NULL;
	if (nparams == 0)
		sent = PQsendQuery(conn, sql);
	else
		sent = PQsendQueryParams(conn, sql, nparams, NULL, params, NULL, NULL, 0);
	if (!sent)
	{
		*errmsg = pqconn_message(PQerrorMessage(conn));
		return false;
	}
	/* rows one at a time, so that pqconn_collect can bound what it keeps */
	(void) PQsetSingleRowMode(conn);
	return true;
}

/* what pqconn_collect holds while it reads an answer */
typedef struct PqconnAnswer
{
	PGresult   *last;			/* the last result but rows and errors */
	PGresult   *rows;			/* the rows of the statement being read */
	size_t		kept;			/* their bytes, as max_bytes counts them */
	bool		over;			/* more than max_bytes: rows thrown away */
} PqconnAnswer;

/* drop what a is holding and return NULL with error, for pqconn_collect */
static PGresult *
pqconn_answer_fail(PqconnAnswer *a, char **errmsg, char *error)
{
	if (a->last)
		PQclear(a->last);
	if (a->rows)
		PQclear(a->rows);
	*errmsg = error;
	return NULL;
}

/*
 * Keep one row of single-row mode in a->rows, unless it takes them beyond
 * max_bytes (values plus PQCONN_ROW_OVERHEAD a value): then they are all
 * dropped and the rest of the answer only read.  Returns false when out of
 * memory.
 */
static bool
pqconn_keep_row(PqconnAnswer *a, const PGresult *res, size_t max_bytes)
{
	size_t		size = 0;
	int			nf = PQnfields(res);
	int			r;

	for (int f = 0; f < nf; f++)
		size += PQgetlength(res, 0, f) + PQCONN_ROW_OVERHEAD;
	if (!a->over && a->kept + size > max_bytes)
	{
		a->over = true;
		if (a->rows)
			PQclear(a->rows);
		a->rows = NULL;
	}
	if (a->over)
		return true;
	if (a->rows == NULL && (a->rows = PQcopyResult(res, PG_COPYRES_ATTRS)) == NULL)
		return false;
	r = PQntuples(a->rows);
	for (int f = 0; f < nf; f++)
		if (!PQsetvalue(a->rows, r, f, PQgetisnull(res, 0, f) ? NULL : PQgetvalue(res, 0, f),
						PQgetisnull(res, 0, f) ? -1 : PQgetlength(res, 0, f)))
			return false;
	a->kept += size;
	return true;
}

/*
 * The answer is read row by row (pqconn_send's single-row mode) and copied
 * into one result; a row that would take the rows kept beyond max_bytes
 * drops them all, and the rest of the answer is read and thrown away row by
 * row until its end or the deadline, so that the connection stays usable
 * and memory holds at most one row beyond max_bytes.
 */
PGresult *
pqconn_collect(PGconn *conn, int timeout_ms, size_t max_bytes,
			   volatile sig_atomic_t *cancel_flag, char **errmsg, char *sqlstate)
{
	TimestampTz deadline = timeout_ms < 0 ? DT_NOEND :
		TimestampTzPlusMilliseconds(GetCurrentTimestamp(), timeout_ms);
	PqconnAnswer a = {0};
	char	   *error = NULL;
	bool		cancel_sent = false;
	TimestampTz cancel_at = 0;

	*errmsg = NULL;
	if (sqlstate)
		sqlstate[0] = '\0';
	for (;;)
	{
		PGresult   *res;
		int			flush;

		/* the connection is non-blocking: the rest of the send, then the answer */
		while ((flush = PQflush(conn)) != 0 || PQisBusy(conn))
		{
			long		left = timeout_ms < 0 ? PQCONN_TICK_MS : pqconn_left_ms(deadline);

			if (flush < 0)
				return pqconn_answer_fail(&a, errmsg, pqconn_message(PQerrorMessage(conn)));
			if (left == 0)
				return pqconn_answer_fail(&a, errmsg, a.over ?
										  psprintf("it sent an answer of more than %zu bytes", max_bytes) :
										  psprintf("no answer within %d s", timeout_ms / 1000));
			(void) pqconn_wait(conn, WL_SOCKET_READABLE | (flush > 0 ? WL_SOCKET_WRITEABLE : 0),
							   Min(left, PQCONN_TICK_MS));
			if (!cancel_sent && cancel_flag && *cancel_flag)
			{
				/*
				 * The server answers with an error, which is drained below;
				 * a server that did not take the request within its deadline
				 * (cancel.c) will not answer it at all.
				 */
				if (cancel_send(&conn, 1, CANCEL_DEADLINE_MS) == 0)
					return pqconn_answer_fail(&a, errmsg, pstrdup("cancelled; the server did not answer the cancel request"));
				cancel_sent = true;
				cancel_at = GetCurrentTimestamp();
			}
			/* a server that ignores the cancel is not waited for without end */
			else if (cancel_sent &&
					 TimestampDifferenceExceeds(cancel_at, GetCurrentTimestamp(),
												PQCONN_CANCEL_WAIT_MS))
				return pqconn_answer_fail(&a, errmsg, pstrdup("cancelled; the server did not answer the cancel request"));
			if (!PQconsumeInput(conn))
				return pqconn_answer_fail(&a, errmsg, pqconn_message(PQerrorMessage(conn)));
		}
		res = PQgetResult(conn);
		if (res == NULL)
			break;
		switch (PQresultStatus(res))
		{
			case PGRES_SINGLE_TUPLE:
				if (!pqconn_keep_row(&a, res, max_bytes))
				{
					PQclear(res);
					return pqconn_answer_fail(&a, errmsg, pstrdup("out of memory"));
				}
				PQclear(res);
				if (a.over && GetCurrentTimestamp() > deadline)
					return pqconn_answer_fail(&a, errmsg,
											  psprintf("it sent an answer of more than %zu bytes", max_bytes));
				continue;
			case PGRES_FATAL_ERROR:
			case PGRES_NONFATAL_ERROR:
			case PGRES_BAD_RESPONSE:
				if (error == NULL)
				{
					const char *st = PQresultErrorField(res, PG_DIAG_SQLSTATE);
					const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

					error = pqconn_message(primary ? primary : PQresultErrorMessage(res));
					if (sqlstate && st)
						strlcpy(sqlstate, st, 6);
				}
				PQclear(res);
				continue;
			case PGRES_COPY_IN:
			case PGRES_COPY_OUT:
			case PGRES_COPY_BOTH:

				/*
				 * PQgetResult would return it forever.  Nothing is sent or
				 * drained (that could block): the connection is left in
				 * COPY, and the caller's pqconn_finish closes it, which ends
				 * the server's side.
				 */
				PQclear(res);
				return pqconn_answer_fail(&a, errmsg, pstrdup("COPY is not supported"));
			case PGRES_TUPLES_OK:
				/* the end of the rows: the result holds them, with their columns */
				if (a.rows != NULL)
				{
					PQclear(res);
					res = a.rows;
					a.rows = NULL;
				}
				break;
			default:
				break;
		}
		if (a.last)
			PQclear(a.last);
		a.last = res;
	}
	if (error == NULL && a.over)
		error = psprintf("it sent an answer of more than %zu bytes", max_bytes);
	if (error == NULL && a.last == NULL)
		error = pstrdup("no result");
	if (error)
		return pqconn_answer_fail(&a, errmsg, error);
	if (a.rows)
		PQclear(a.rows);
	return a.last;
}

PGresult *
pqconn_exec(PGconn *conn, const char *sql, int nparams, const char *const *params,
			int timeout_ms, char **errmsg, char *sqlstate)
{
	if (sqlstate)
		sqlstate[0] = '\0';
	if (!pqconn_send(conn, sql, nparams, params, errmsg))
		return NULL;
	return pqconn_collect(conn, timeout_ms, PQCONN_MAX_ANSWER_BYTES, NULL, errmsg, sqlstate);
}
