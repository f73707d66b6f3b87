/*
 * src/cli/cli_reply.c: the server's replies to the pgbenchx client program,
 * read only through checks (issue 34 §4: the command line trusts no reply).
 *
 * Owns: running a query so that its reply has the shape the caller expects
 * (cli_reply_exec: the status, exactly the columns asked, the rows within
 * the caller's bounds, the bytes within a bound, rows read one at a time so
 * that a reply over its bounds is refused before it is held), the checked
 * reading of one value (present, NULL or not, a number's full syntax and
 * range, a word of a list), the server's notices bounded in count and
 * length, and the one way an unusable reply ends the program: a message on
 * stderr ("pgbenchx: error: unexpected reply from the server for ...") and
 * cli_reply_exit_code.  A hostile or broken server can make the program
 * stop with an error; it can never make it crash, loop on its word, or
 * hold more than the bounds.
 *
 * Must not: print a result, decide what a value means (its callers'
 * job: pgbenchx_cli.c, cli_commands.c), or include a server header; libpq
 * and the C library only.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_reply.h"

int			cli_reply_exit_code = 1;
void		(*cli_reply_fail_hook) (void) = NULL;
char		cli_reply_detail[256] = "";

static const char *progname = "pgbenchx";

void
cli_reply_fail(const char *what, const char *fmt,...)
{
	va_list		ap;

	fflush(stdout);
	fprintf(stderr, "%s: error: unexpected reply from the server for %s: ", progname, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	if (cli_reply_detail[0])
		fprintf(stderr, "%s: detail: %s\n", progname, cli_reply_detail);
	if (cli_reply_fail_hook)
		cli_reply_fail_hook();
	exit(cli_reply_exit_code);
}

/* a value as a message shows it: its first bytes, what is not printable as \xNN */
static const char *
shown(const char *v, int len)
{
	static char out[200];
	size_t		n = 0;
	int			i;

	out[n++] = '"';
	for (i = 0; i < len && n < 120; i++)
	{
		unsigned char c = (unsigned char) v[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			out[n++] = (char) c;
		else
			n += snprintf(out + n, sizeof(out) - n, "\\x%02x", c);
	}
	out[n++] = '"';
	out[n] = '\0';
	if (i < len)
		snprintf(out + n, sizeof(out) - n, "... (%d bytes)", len);
	return out;
}

static void
fail_columns(const char *what, int got, int want)
{
	cli_reply_fail(what, "%d column%s where %d %s expected", got, got == 1 ? "" : "s",
				   want, want == 1 ? "was" : "were");
}

void
cli_reply_check(const PGresult *res, const char *what, int ncols, long min_rows, long max_rows)
{
	if (res == NULL)
		cli_reply_fail(what, "no result (out of memory)");
	if (PQresultStatus(res) != PGRES_TUPLES_OK)
		cli_reply_fail(what, "%s where rows were expected", PQresStatus(PQresultStatus(res)));
	if (PQnfields(res) != ncols)
		fail_columns(what, PQnfields(res), ncols);
	if (PQntuples(res) < min_rows || PQntuples(res) > max_rows)
	{
		if (min_rows == max_rows)
			cli_reply_fail(what, "%d row%s where %ld %s expected", PQntuples(res),
						   PQntuples(res) == 1 ? "" : "s", min_rows, min_rows == 1 ? "was" : "were");
		cli_reply_fail(what, "%d row%s where %ld to %ld were expected", PQntuples(res),
					   PQntuples(res) == 1 ? "" : "s", min_rows, max_rows);
	}
}

PGresult *
cli_reply_exec(PGconn *conn, const char *what, const char *sql, int nparams,
			   const char *const *values, int ncols, long min_rows, long max_rows, size_t max_bytes)
{
	PGresult   *acc = NULL;		/* the rows so far, in a result of our own */
	PGresult   *error = NULL;
	PGresult   *r;
	long		rows = 0;
	size_t		bytes = 0;
	int			others = 0;

	if (max_bytes == 0)
		max_bytes = CLI_REPLY_MAX_BYTES;
	if (!PQsendQueryParams(conn, sql, nparams, NULL, values, NULL, NULL, 0))
		return PQmakeEmptyPGresult(conn, PGRES_FATAL_ERROR);	/* the connection's message */
	(void) PQsetSingleRowMode(conn);
	while ((r = PQgetResult(conn)) != NULL)
	{
		switch (PQresultStatus(r))
		{
			case PGRES_SINGLE_TUPLE:
				if (error != NULL)
					break;		/* rows after an error: dropped */
				if (PQnfields(r) != ncols)
					fail_columns(what, PQnfields(r), ncols);
				if (++rows > max_rows)
					cli_reply_fail(what, "more than %ld row%s", max_rows, max_rows == 1 ? "" : "s");
				for (int c = 0; c < ncols; c++)
					bytes += (size_t) PQgetlength(r, 0, c);
				if (bytes > max_bytes)
					cli_reply_fail(what, "more than %zu bytes", max_bytes);
				if (acc == NULL)
					acc = PQcopyResult(r, PG_COPYRES_ATTRS);
				if (acc == NULL)
					cli_reply_fail(what, "out of memory");
				for (int c = 0; c < ncols; c++)
					if (!PQsetvalue(acc, (int) (rows - 1), c,
									PQgetisnull(r, 0, c) ? NULL : PQgetvalue(r, 0, c),
									PQgetisnull(r, 0, c) ? -1 : PQgetlength(r, 0, c)))
						cli_reply_fail(what, "out of memory");
				break;
			case PGRES_TUPLES_OK:
				/* the end of the rows (all of them when there were none) */
				if (error != NULL)
					break;
				if (++others > 1)
					cli_reply_fail(what, "more than one result");
				if (PQnfields(r) != ncols)
					fail_columns(what, PQnfields(r), ncols);
				if (acc == NULL)
				{
					acc = r;
					r = NULL;
				}
				break;
			case PGRES_FATAL_ERROR:
			case PGRES_NONFATAL_ERROR:
			case PGRES_BAD_RESPONSE:
				if (error == NULL)
				{
					error = r;
					r = NULL;
				}
				break;
			default:
				/* COPY, a command without rows, an empty query: not a reply to a SELECT */
				cli_reply_fail(what, "%s where rows were expected", PQresStatus(PQresultStatus(r)));
		}
		PQclear(r);
	}
	if (error != NULL)
	{
		PQclear(acc);
		return error;
	}
	if (acc == NULL)
		cli_reply_fail(what, "no rows description");
	cli_reply_check(acc, what, ncols, min_rows, max_rows);
	return acc;
}

/*
 * Runs a command that returns no rows (VACUUM).  Returns NULL when it
 * succeeded, or the server's error as a result (the caller prints it); rows,
 * a COPY or more than one result are said and end the program.
 */
PGresult *
cli_reply_command(PGconn *conn, const char *what, const char *sql)
{
	PGresult   *error = NULL;
	PGresult   *r;
	int			done = 0;

	if (!PQsendQuery(conn, sql))
		return PQmakeEmptyPGresult(conn, PGRES_FATAL_ERROR);
	(void) PQsetSingleRowMode(conn);
	while ((r = PQgetResult(conn)) != NULL)
	{
		switch (PQresultStatus(r))
		{
			case PGRES_COMMAND_OK:
				if (++done > 1)
					cli_reply_fail(what, "more than one result");
				break;
			case PGRES_FATAL_ERROR:
			case PGRES_NONFATAL_ERROR:
			case PGRES_BAD_RESPONSE:
				if (error == NULL)
				{
					error = r;
					r = NULL;
				}
				break;
			default:
				cli_reply_fail(what, "%s where a command's completion was expected", PQresStatus(PQresultStatus(r)));
		}
		PQclear(r);
	}
	if (error == NULL && done != 1)
		cli_reply_fail(what, "no command completion");
	return error;
}

/* the value at row, col of a checked result; NULL-ness left to the caller */
static void
check_cell(const PGresult *res, int row, int col, const char *what)
{
	if (res == NULL || row < 0 || row >= PQntuples(res) || col < 0 || col >= PQnfields(res))
		cli_reply_fail(what, "no value at row %d, column %d", row + 1, col + 1);
}

bool
cli_reply_isnull(const PGresult *res, int row, int col, const char *what)
{
	check_cell(res, row, col, what);
	return PQgetisnull(res, row, col) != 0;
}

const char *
cli_reply_text(const PGresult *res, int row, int col, const char *what)
{
	if (cli_reply_isnull(res, row, col, what))
		cli_reply_fail(what, "NULL where a value was expected");
	return PQgetvalue(res, row, col);
}

long long
cli_reply_int(const PGresult *res, int row, int col, const char *what, long long min, long long max)
{
	const char *v = cli_reply_text(res, row, col, what);
	int			len = PQgetlength(res, row, col);
	char	   *end;
	long long	n;

	/* PostgreSQL's integer output: an optional minus, then digits */
	if (!(isdigit((unsigned char) v[0]) || (v[0] == '-' && isdigit((unsigned char) v[1]))))
		cli_reply_fail(what, "%s is not an integer", shown(v, len));
	errno = 0;
	n = strtoll(v, &end, 10);
	if (*end != '\0' || end != v + len)
		cli_reply_fail(what, "%s is not an integer", shown(v, len));
	if (errno == ERANGE || n < min || n > max)
		cli_reply_fail(what, "%s is out of range (%lld to %lld)", shown(v, len), min, max);
	return n;
}

double
cli_reply_float(const PGresult *res, int row, int col, const char *what, double min, double max)
{
	const char *v = cli_reply_text(res, row, col, what);
	int			len = PQgetlength(res, row, col);
	char	   *end;
	double		d;

	/* a decimal number: digits, a sign, a point, an exponent; no inf, nan or hex */
	if (len == 0 || strspn(v, "0123456789+-.eE") != (size_t) len || strpbrk(v, "0123456789") == NULL)
		cli_reply_fail(what, "%s is not a number", shown(v, len));
	errno = 0;
	d = strtod(v, &end);
	if (*end != '\0' || end != v + len)
		cli_reply_fail(what, "%s is not a number", shown(v, len));
	if (errno == ERANGE && fabs(d) > 1.0)
		cli_reply_fail(what, "%s is out of range (%g to %g)", shown(v, len), min, max);
	if (!isfinite(d) || d < min || d > max)
		cli_reply_fail(what, "%s is out of range (%g to %g)", shown(v, len), min, max);
	return d;
}

bool
cli_reply_bool(const PGresult *res, int row, int col, const char *what)
{
	static const char *const words[] = {"f", "t", NULL};

	return cli_reply_word(res, row, col, what, words) == 1;
}

int
cli_reply_word(const PGresult *res, int row, int col, const char *what, const char *const *words)
{
	const char *v = cli_reply_text(res, row, col, what);
	int			len = PQgetlength(res, row, col);

	for (int i = 0; words[i]; i++)
		if ((size_t) len == strlen(words[i]) && memcmp(v, words[i], len) == 0)
			return i;
	cli_reply_fail(what, "%s is not one of the values expected", shown(v, len));
}

/* the server's messages, bounded: see the header */
static int	messages_printed = 0;

static void
notice_receiver(void *arg, const PGresult *res)
{
	bool		verbose = arg != NULL;
	const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);
	const char *text = PQresultErrorMessage(res);
	size_t		len = strlen(text);

	if (!verbose && severity && (strcmp(severity, "NOTICE") == 0 || strcmp(severity, "INFO") == 0 ||
								 strcmp(severity, "LOG") == 0 || strcmp(severity, "DEBUG") == 0))
		return;
	if (messages_printed > CLI_REPLY_MAX_MESSAGES)
		return;
	if (messages_printed++ == CLI_REPLY_MAX_MESSAGES)
	{
		fprintf(stderr, "%s: warning: more than %d messages from the server: the rest are not shown\n",
				progname, CLI_REPLY_MAX_MESSAGES);
		return;
	}
	if (len > CLI_REPLY_MAX_MESSAGE)
		fprintf(stderr, "%.*s... (a message of %zu bytes, cut)\n", CLI_REPLY_MAX_MESSAGE, text, len);
	else
		fputs(text, stderr);
}

void
cli_reply_set_notice_receiver(PGconn *conn, bool verbose_notices)
{
	static int	verbose_tag;

	PQsetNoticeReceiver(conn, notice_receiver, verbose_notices ? &verbose_tag : NULL);
}

void
cli_reply_print_error(const PGresult *res)
{
	const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
	const char *detail = PQresultErrorField(res, PG_DIAG_MESSAGE_DETAIL);
	const char *hint = PQresultErrorField(res, PG_DIAG_MESSAGE_HINT);
	const char *text;
	int			len;

	if (primary == NULL)
	{
		/* libpq's own (a lost connection): its words, without a trailing newline */
		text = PQresultErrorMessage(res);
		len = strlen(text) > CLI_REPLY_MAX_MESSAGE ? CLI_REPLY_MAX_MESSAGE : (int) strlen(text);
		while (len > 0 && text[len - 1] == '\n')
			len--;
		fprintf(stderr, "%s: error: %.*s\n", progname, len, len > 0 ? text : "the server's reply has no message");
		return;
	}
	fprintf(stderr, "%s: error: %.*s\n", progname, CLI_REPLY_MAX_MESSAGE, primary);
	if (detail)
		fprintf(stderr, "%s: detail: %.*s\n", progname, CLI_REPLY_MAX_MESSAGE, detail);
	if (hint)
		fprintf(stderr, "%s: hint: %.*s\n", progname, CLI_REPLY_MAX_MESSAGE, hint);
}

void
cli_reply_no_extension(PGconn *conn)
{
	fprintf(stderr, "%s: error: extension \"pgbenchx\" is not installed in database \"%.*s\"\n",
			progname, 200, PQdb(conn) ? PQdb(conn) : "?");
	fprintf(stderr, "%s: hint: As a superuser, run CREATE EXTENSION pgbenchx; in that database (README.md, \"Quick start\"), then try again.\n",
			progname);
	PQfinish(conn);
	exit(1);
}
