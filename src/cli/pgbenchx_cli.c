/*
 * src/cli/pgbenchx_cli.c: the pgbenchx client program (issue 24), pgbench's
 * command line backed by the server.
 *
 * Owns: reading pgbench 15's options (getopt_long, pgbench's option string
 * and words for bad options), the connection (libpq reads PGHOST, PGPORT,
 * PGUSER and PGDATABASE itself), and turning the options into calls of the
 * extension's SQL: -i into pgbench_init(...), a run into run_bench(...) or,
 * with --sweep, run_sweep(...), each -f file into pgbenchx.add_script; then
 * following the run by polling pgbenchx.runs (and, with -P, printing
 * pgbench's progress lines from pgbenchx.samples), printing the pgbench part
 * of pgbenchx.report(id) as that pgbench would print it, and one line with
 * the stored id; -l --aggregate-interval writes pgbench's aggregated log
 * from the samples once the run ended; --show-script shows a script's text;
 * PGOPTIONS goes to the clients (run_bench's conninfo).  A first argument
 * naming a subcommand (report, compare, chart, export, import) is handed to
 * src/cli/cli_commands.c.  pgbench's own checks of the command line come
 * before any refusal of pgbenchx's.  SIGINT cancels the run on the server (pgbenchx.cancel),
 * or -i's statement, and then ends the program by SIGINT, as pgbench's
 * default action does.
 * Exit codes are pgbench's: 0, 1 for bad options and errors before the run,
 * 2 when the run failed or clients aborted.
 *
 * Must not: include a server header, or use anything but libpq, the C
 * library (C99 and getopt_long) and src/lang's script parser (plain C: a
 * -f file is parsed here before any connection, as pgbench parses it, and
 * --show-script of a built-in needs no server): it is a client, built and installed by
 * src/cli/Makefile beside the extension, outside the server library's
 * layers (scripts/check_layers.sh leaves src/cli/ out).  It computes no
 * result itself: every figure it prints is read from the result tables.
 * The manual chapter is docs/cli.md.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "libpq-fe.h"
#include "pg_config.h"			/* PG_VERSION_NUM: the major built for */
#include "cli_commands.h"
#include "cli_reply.h"
#include "script.h"				/* src/lang's parser: -f files checked here */

#ifndef PGBENCHX_CLI_VERSION
#define PGBENCHX_CLI_VERSION "unknown"
#endif

#define MAX_ARGS 40
#define MAX_SCRIPTS 128			/* pgbench's */

/*
 * The pgbench whose command line this program speaks: that of the major it
 * is built for (its options by major: docs/cli.md)
 */
#define PGBENCH_MAJOR (PG_VERSION_NUM / 10000)

static const char *progname = "pgbenchx";
/* run_bench refused a script whose every client would abort (exit 2, as pgbench) */
static bool refused_as_abort = false;
static volatile sig_atomic_t interrupted = 0;
static PGcancel *volatile init_cancel = NULL;	/* -i: the call to cancel on SIGINT */

/*
 * The session's search_path is pinned to pg_catalog alone (as pg_dump and
 * vacuumdb pin theirs), so no function or operator a role that can create
 * in the user's search_path planted runs with the rights of whoever runs
 * pgbenchx.  The user's own path is kept for the two things pgbench does
 * through it: -i creates the tables in its first schema, and the scale
 * warning counts its pgbench_branches.  The entry points are called in the
 * extension's schema, read from pg_extension.
 */
static char *user_search_path = NULL;
static char *ext_schema = NULL;		/* quoted, or NULL when not installed */

/* a growable string */
typedef struct
{
	char	   *data;
	size_t		len;
	size_t		cap;
} Buf;

/* a SQL call built from named arguments, each a text parameter with a cast */
typedef struct
{
	const char *names[MAX_ARGS];
	const char *casts[MAX_ARGS];
	const char *values[MAX_ARGS];
	int			n;
} Call;

/* what the command line asked for */
typedef struct
{
	bool		init;
	bool		init_option;	/* an option of -i only was given */
	bool		bench_option;	/* an option of a run only was given */
	const char *host, *port, *user, *dbname;
	/* -i */
	const char *scale, *fillfactor, *partitions, *partition_method;
	const char *tablespace, *index_tablespace;
	bool		unlogged, foreign_keys;
	/* a run */
	const char *clients, *jobs, *duration, *transactions, *protocol;
	const char *rate, *latency_limit, *max_tries, *random_seed;
	bool		no_vacuum, connect, per_command, progress_timestamp;
	int			progress;
	const char *scripts[MAX_SCRIPTS];	/* "-b NAME[@W]" or "-f FILE[@W]" */
	bool		script_is_file[MAX_SCRIPTS];
	char	   *script_texts[MAX_SCRIPTS];	/* a -f file's text, read and parsed here */
	int			nscripts;
	Buf			variables;		/* -D, a jsonb object's text */
	Buf			tags;			/* --tag, a jsonb object's text */
	const char *label, *sweep, *repeats;
	/* pgbench's logging options: checked as pgbench checks them, then refused */
	bool		log;
	bool		failures_detailed;
	bool		verbose_errors;
	bool		exit_on_abort;	/* pgbench 17's --exit-on-abort */
	bool		continue_on_error;	/* pgbench 19's --continue-on-error */
	const char *sampling_rate, *agg_interval, *log_prefix;
	int			refused;		/* the first refused option's index in refusals, or -1 */
	bool		vacuum_all;		/* -v: refused but with -n, which makes pgbench vacuum nothing */
	bool		bad_steps;		/* -I: steps pgbench_init does not take (refused after the checks) */
	bool		steps_without_v;	/* -I without "v": no vacuum after pgbench_init */
	bool		steps_client_gen;	/* -I with "g" but no "G": said to be done in the server */
	const char *show_script;	/* --show-script: a builtin's full name, or a registered script's */
	char	   *not_builtin;	/* the first -b name that is no built-in's prefix (a registered script's?) */
	long long	total_weight;
} Options;

/*
 * What this program asked for, which bounds every loop over the server's
 * replies (cli_reply.c checks each reply; these bound how many there are):
 * the time elapsed here since the run was started, its duration, its
 * drivers, the runs of a sweep, the transactions of a run.
 */
static struct
{
	struct timespec started;	/* CLOCK_MONOTONIC, before run_bench or run_sweep */
	long long	duration;		/* -T, or 0 */
	long long	drivers;		/* -j, at most TXLOG_MAX_FILES */
	long long	runs;			/* 1, or a sweep's steps times its repeats (an upper bound) */
	long long	transactions;	/* with -t: clients times transactions, else 0 */
}			asked;

/* whole seconds elapsed here since the run was started */
static long long
asked_elapsed_s(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long) (now.tv_sec - asked.started.tv_sec) +
		(now.tv_nsec >= asked.started.tv_nsec ? 0 : -1);
}

#if defined(__GNUC__) || defined(__clang__)
#define CLI_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define CLI_NORETURN __attribute__((noreturn))
#else
#define CLI_PRINTF(f, a)
#define CLI_NORETURN
#endif

static void buf_append(Buf *b, const char *fmt,...) CLI_PRINTF(2, 3);
static void bad_option(const char *fmt,...) CLI_PRINTF(1, 2) CLI_NORETURN;

static void
buf_append(Buf *b, const char *fmt,...)
{
	va_list		ap;
	int			need;

	for (;;)
	{
		va_start(ap, fmt);
		need = vsnprintf(b->data ? b->data + b->len : NULL,
						 b->data ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (need < 0)
		{
			fprintf(stderr, "%s: error: out of memory\n", progname);
			exit(1);
		}
		if (b->data && b->len + (size_t) need < b->cap)
		{
			b->len += need;
			return;
		}
		b->cap = (b->cap + need + 1) * 2;
		b->data = realloc(b->data, b->cap);
		if (!b->data)
		{
			fprintf(stderr, "%s: error: out of memory\n", progname);
			exit(1);
		}
		if (b->len == 0)
			b->data[0] = '\0';
	}
}

/* a JSON string of s, quoted and escaped */
static void
buf_json_string(Buf *b, const char *s)
{
	buf_append(b, "\"");
	for (; *s; s++)
	{
		unsigned char c = (unsigned char) *s;

		if (c == '"' || c == '\\')
			buf_append(b, "\\%c", c);
		else if (c < 0x20)
			buf_append(b, "\\u%04x", c);
		else
			buf_append(b, "%c", c);
	}
	buf_append(b, "\"");
}

/* NAME=VALUE into a JSON object being built; false when there is no "=" */
static bool
add_pair(Buf *obj, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char	   *name;

	if (eq == NULL || eq == arg)
		return false;
	name = strndup(arg, eq - arg);
	buf_append(obj, obj->len ? ", " : "{");
	buf_json_string(obj, name);
	buf_append(obj, ": ");
	buf_json_string(obj, eq + 1);
	free(name);
	return true;
}

/* pgbench's words for a bad command line: the message, exit 1 */
static void
bad_option(const char *fmt,...)
{
	va_list		ap;

	fprintf(stderr, "%s: error: ", progname);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	exit(1);
}

static void
try_help(void)
{
	fprintf(stderr, "%s: hint: Try \"%s --help\" for more information.\n", progname, progname);
	exit(1);
}

/* an option pgbenchx cannot give a meaning: refused, with the reason */
static void
refuse(const char *option, const char *reason)
{
	fprintf(stderr, "%s: error: option %s is not supported by pgbenchx\n", progname, option);
	fprintf(stderr, "%s: detail: %s\n", progname, reason);
	exit(1);
}

/* pgbench's option_parse_int: an integer within [min, max], or exit 1 */
static const char *
parse_int(const char *arg, const char *option, long min, long max)
{
	char	   *end;
	long		v;

	errno = 0;
	v = strtol(arg, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (end == arg || *end != '\0' || errno == ERANGE)
		bad_option("invalid value \"%s\" for option %s", arg, option);
	if (v < min || v > max)
		bad_option("%s must be in range %ld..%ld", option, min, max);
	return arg;
}

/* an option's value that parse_int checked, as a number */
static long
opt_int(const char *checked)
{
	return strtol(checked, NULL, 10);
}

static const char *
parse_float(const char *arg, const char *what, bool positive)
{
	char	   *end;
	double		v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end != '\0' || errno == ERANGE || v < 0 || (positive && v <= 0))
		bad_option("invalid %s: \"%s\"", what, arg);
	return arg;
}

static void
call_add(Call *c, const char *name, const char *cast, const char *value)
{
	if (value == NULL)
		return;
	c->names[c->n] = name;
	c->casts[c->n] = cast;
	c->values[c->n] = value;
	c->n++;
}

/*
 * One statement with text parameters: its result, or NULL after printing
 * the server's error (and pgbench's hint or words where the error is one
 * pgbench has its own words for)
 */
static PGresult *
call_run_sql(PGconn *conn, const char *what, const char *sql, int n, const char *const *values)
{
	/* every entry point this program calls returns one value */
	PGresult   *res = cli_reply_exec(conn, what, sql, n, values, 1, 1, 1, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);

		cli_reply_print_error(res);
		if (primary && strcmp(primary, "the pgbench tables are missing") == 0)
			fprintf(stderr, "%s: hint: Perhaps you need to do initialization (\"%s -i\") in database \"%s\".\n",
					progname, progname, PQdb(conn));
		/*
		 * a script every client would abort in (its pipelines): refused
		 * before any client runs, where pgbench's clients abort, exit 2
		 */
		if (primary && ((strncmp(primary, "script \"", 8) == 0 && strstr(primary, "\" cannot run: ") != NULL &&
						 strstr(primary, "pipeline") != NULL) ||
						strcmp(primary, "cannot use pipeline mode with the simple query protocol") == 0))
			refused_as_abort = true;
		if (primary && strncmp(primary, "no script named ", 16) == 0)
			fprintf(stderr, "%s: detail: no builtin script found for name %s, nor a registered one\n",
					progname, primary + 16);
		PQclear(res);
		return NULL;
	}
	return res;
}

/* runs SELECT func(name => $1::cast, ...); the result, or NULL after saying why */
static PGresult *
call_run(PGconn *conn, const char *func, const Call *c)
{
	Buf			sql = {0};
	PGresult   *res;

	/* an entry point of the extension's schema (unqualified when it is missing: the server says so) */
	buf_append(&sql, "SELECT %s%s%s(", ext_schema ? ext_schema : "", ext_schema ? "." : "", func);
	for (int i = 0; i < c->n; i++)
		buf_append(&sql, "%s%s => $%d::%s", i ? ", " : "", c->names[i], i + 1, c->casts[i]);
	buf_append(&sql, ")");
	res = call_run_sql(conn, func, sql.data, c->n, c->values);
	free(sql.data);
	return res;
}

/*
 * One query with text parameters (what: its name in a message): its
 * result, of ncols columns and min_rows..max_rows rows (cli_reply_exec), or,
 * on the server's error, the message and exit (1 before a run, 2 during it:
 * cli_reply_exit_code).
 */
static PGresult *
query(PGconn *conn, const char *what, const char *sql, int n, const char *const *values,
	  int ncols, long min_rows, long max_rows)
{
	PGresult   *res = cli_reply_exec(conn, what, sql, n, values, ncols, min_rows, max_rows, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		cli_reply_print_error(res);
		if (cli_reply_detail[0])
			fprintf(stderr, "%s: detail: %s\n", progname, cli_reply_detail);
		PQclear(res);
		PQfinish(conn);
		exit(cli_reply_exit_code);
	}
	return res;
}

/*
 * SIGINT: during -i, pgbench_init's statement is cancelled at once (PQcancel
 * is safe in a signal handler) and its transaction leaves the old tables;
 * during a run, the main loop cancels the run (cancel_and_exit).
 */
static void
on_sigint(int sig)
{
	char		errbuf[256];

	(void) sig;
	interrupted = 1;
	if (init_cancel)
		(void) PQcancel(init_cancel, errbuf, sizeof(errbuf));
}

static void
sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);		/* SIGINT ends it early: the caller looks */
}

static void
usage(void)
{
	printf("%s is a benchmarking tool for PostgreSQL: pgbench's command line,\n"
		   "run inside the server by the pgbenchx extension, every run kept.\n\n"
		   "Usage:\n"
		   "  %s [OPTION]... [DBNAME]\n"
		   "\nInitialization options:\n"
		   "  -i, --initialize         invokes initialization mode (pgbench_init)\n"
		   "  -I, --init-steps=dtgvp   only the default steps (with f: --foreign-keys)\n"
		   "  -F, --fillfactor=NUM     set fill factor\n"
		   "  -n, --no-vacuum          accepted (pgbench_init always ends with ANALYZE)\n"
		   "  -q, --quiet              accepted (pgbench_init prints one line)\n"
		   "  -s, --scale=NUM          scaling factor\n"
		   "  --foreign-keys           create foreign key constraints between tables\n"
		   "  --index-tablespace=TABLESPACE\n"
		   "                           create indexes in the specified tablespace\n"
		   "  --partition-method=(range|hash)\n"
		   "                           partition pgbench_accounts with this method (default: range)\n"
		   "  --partitions=NUM         partition pgbench_accounts into NUM parts (default: 0)\n"
		   "  --tablespace=TABLESPACE  create tables in the specified tablespace\n"
		   "  --unlogged-tables        create tables as unlogged tables\n"
		   "\nOptions to select what to run:\n"
		   "  -b, --builtin=NAME[@W]   add builtin script NAME weighted at W (default: 1)\n"
		   "                           (use \"-b list\" to list available scripts)\n"
		   "  -f, --file=FILENAME[@W]  add script FILENAME weighted at W (default: 1)\n"
		   "                           (its text is registered with pgbenchx.add_script)\n"
		   "  -N, --skip-some-updates  skip updates of pgbench_tellers and pgbench_branches\n"
		   "                           (same as \"-b simple-update\")\n"
		   "  -S, --select-only        perform SELECT-only transactions\n"
		   "                           (same as \"-b select-only\")\n"
		   "\nBenchmarking options:\n"
		   "  -c, --client=NUM         number of concurrent database clients (default: 1)\n"
		   "  -C, --connect            establish new connection for each transaction\n"
		   "  -D, --define=VARNAME=VALUE\n"
		   "                           define variable for use by custom script\n"
		   "  -j, --jobs=NUM           number of driver workers (default: 1)\n"
		   "  -l, --log                write transaction times to log file\n"
		   "  -L, --latency-limit=NUM  count transactions lasting more than NUM ms as late\n"
		   "  -M, --protocol=simple|extended|prepared\n"
		   "                           protocol for submitting queries (default: simple)\n"
		   "  -n, --no-vacuum          do not run VACUUM before tests\n"
		   "  -P, --progress=NUM       show progress report every NUM seconds\n"
		   "  -r, --report-per-command report latencies, failures, and retries per command\n"
		   "  -R, --rate=NUM           target rate in transactions per second\n"
		   "  -s, --scale=NUM          ignored: the scale is read from pgbench_branches\n"
		   "  -t, --transactions=NUM   number of transactions each client runs (default: 10)\n"
		   "  -T, --time=NUM           duration of benchmark test in seconds\n"
		   "  --aggregate-interval=NUM aggregate data over NUM seconds (from the stored samples)\n"
#if PGBENCH_MAJOR >= 19
		   "  --continue-on-error      continue running after an SQL error\n"
#endif
#if PGBENCH_MAJOR >= 17
		   "  --exit-on-abort          exit when any client is aborted\n"
#endif
		   "  --failures-detailed      report the failures grouped by basic types\n"
		   "  --log-prefix=PREFIX      prefix for the log file (default: \"pgbench_log\")\n"
		   "  --max-tries=NUM          max number of tries to run transaction (default: 1)\n"
		   "  --progress-timestamp     use Unix epoch timestamps for progress\n"
		   "  --random-seed=SEED       set random seed (\"time\", \"rand\", integer)\n"
		   "  --sampling-rate=NUM      fraction of transactions to log (e.g., 0.01 for 1%%)\n"
		   "  --show-script=NAME       show builtin (or registered) script code, then exit\n"
		   "  --verbose-errors         print messages of all errors\n"
		   "\nBeyond pgbench:\n"
		   "  --sweep=MIN..MAX|N,N,... one run per client count (run_sweep), instead of -c\n"
		   "  --repeats=NUM            with --sweep: run the whole ladder NUM times\n"
		   "  --label=TEXT             free text kept with the run\n"
		   "  --tag=KEY=VALUE          a tag kept with the run (repeatable)\n"
		   "\nRefused, with the reason (see docs/cli.md):\n"
		   "  -v (but with -n)\n"
		   "\nCommon options:\n"
		   "  -d, --debug              accepted, prints nothing more\n"
		   "  -h, --host=HOSTNAME      database server host or socket directory\n"
		   "  -p, --port=PORT          database server port number\n"
		   "  -U, --username=USERNAME  connect as specified database user\n"
		   "  -V, --version            output version information, then exit\n"
		   "  -?, --help               show this help, then exit\n",
		   progname, progname);
	cli_commands_usage(stdout);
	printf("\n"
		   "The server runs the clients: the pgbenchx extension must be installed in DBNAME.\n"
		   "Each run is kept in pgbenchx.runs; its id is printed last.\n"
		   "\nReport bugs to the pgbenchx project's issue tracker.\n");
}

static const char *const builtins[] = {"tpcb-like", "simple-update", "select-only"};

/* pgbench's -I: only what pgbench_init does, in its order */
static void
check_init_steps(Options *o, const char *steps)
{
	/* pgbench's checkInitSteps first: its words */
	if (*steps == '\0')
		bad_option("no initialization steps specified");
	for (const char *p = steps; *p; p++)
		if (strchr("dtgGvpf ", *p) == NULL)
		{
			fprintf(stderr, "%s: error: unrecognized initialization step \"%c\"\n", progname, *p);
			fprintf(stderr, "%s: detail: Allowed step characters are: \"dtgGvpf\".\n", progname);
			exit(1);
		}
	/*
	 * pgbench_init does every step but f, in its own order, in one
	 * transaction: the same tables whatever order the steps are given in,
	 * but not fewer steps.  "v": it ends with ANALYZE (no VACUUM).
	 */
	o->steps_without_v = strchr(steps, 'v') == NULL;
	o->steps_client_gen = strchr(steps, 'g') != NULL && strchr(steps, 'G') == NULL;
	if (strchr(steps, 'd') && strchr(steps, 't') && (strchr(steps, 'g') || strchr(steps, 'G')) &&
		strchr(steps, 'p'))
	{
		if (strchr(steps, 'f'))
			o->foreign_keys = true;
		return;
	}
	o->bad_steps = true;		/* refused in -i mode, after pgbench's checks */
}

/* the options pgbenchx refuses (their getopt codes below), with the reason */
static const struct
{
	int			code;
	const char *option;
	const char *reason;
}			refusals[] = {
	{'v', "-v/--vacuum-all",
	"a run's maintenance vacuums pgbench_branches and pgbench_tellers and truncates "
	"pgbench_history, as pgbench without -v does; run VACUUM yourself first"},
};

/*
 * -f FILE[@W]: the file's text, read and parsed here as pgbench does when it
 * meets the option, before any connection (so a script's syntax errors are
 * reported with no server, in pgbench's words, by the parser the server
 * uses, src/lang/script.c, in the language of PGBENCH_MAJOR).  "-" is the
 * standard input, as for pgbench.  The server parses the text again when
 * add_script registers it.
 */
static char *
read_script_file(const char *arg)
{
	const char *at = strrchr(arg, '@');
	char	   *path = at ? strndup(arg, at - arg) : strdup(arg);
	bool		from_stdin = strcmp(path, "-") == 0;
	FILE	   *f = from_stdin ? stdin : fopen(path, "r");
	Buf			body = {0};
	char		chunk[8192];
	size_t		n;
	ScriptParseOptions popts = {.pgbench_major = PGBENCH_MAJOR};
	ScriptError err;
	Script	   *script;

	if (f == NULL)
	{
		fprintf(stderr, "%s: error: could not open file \"%s\": %s\n", progname, path, strerror(errno));
		exit(1);
	}
	buf_append(&body, "%s", "");
	while ((n = fread(chunk, 1, sizeof(chunk) - 1, f)) > 0)
	{
		if (memchr(chunk, '\0', n) != NULL)
		{
			fprintf(stderr, "%s: error: file \"%s\" has a zero byte: it is not a script\n", progname, path);
			exit(1);
		}
		chunk[n] = '\0';
		buf_append(&body, "%s", chunk);
	}
	if (ferror(f))
	{
		fprintf(stderr, "%s: error: could not read file \"%s\": %s\n", progname, path, strerror(errno));
		exit(1);
	}
	if (!from_stdin)
		fclose(f);
	script = script_parse(path, body.data, &popts, &err);
	if (script == NULL)
	{
		char		msg[2048];

		script_error_format(&err, msg, sizeof(msg));
		fprintf(stderr, "%s: error: %s\n", progname, msg);
		/*
		 * \shell and \setshell, refused (docs/cli.md says why): exit 2, as
		 * pgbench's clients abort on a command they cannot run; any other
		 * error is pgbench's own, exit 1
		 */
		if ((strcmp(err.command, "shell") == 0 || strcmp(err.command, "setshell") == 0) &&
			strcmp(err.message, SCRIPT_SHELL_REFUSED) == 0)
		{
			fprintf(stderr, "%s: hint: pgbenchx runs scripts inside the server, which runs no shell commands: remove \\%s, or run this script with stock pgbench.\n",
					progname, err.command);
			exit(2);
		}
		exit(1);
	}
	script_free(script);
	free(path);
	return body.data;
}

/*
 * -b NAME[@W] or -f FILE[@W] as pgbench reads it (parseScriptWeight,
 * findBuiltin): the weight checked, a builtin's prefix made its name; a
 * -b name that is no builtin's prefix is left as given (a script registered
 * in pgbenchx.scripts).  Adds the weight to *total.
 */
static const char *
script_option(const char *arg, bool builtin, long long *total)
{
	const char *at = strrchr(arg, '@');
	size_t		len = at ? (size_t) (at - arg) : strlen(arg);
	long		weight = 1;
	const char *found = NULL;
	int			nfound = 0;
	Buf			out = {0};

	if (at)
	{
		char	   *end;

		errno = 0;
		weight = strtol(at + 1, &end, 10);
		if (errno != 0 || end == at + 1 || *end != '\0')
			bad_option("invalid weight specification: %s", at);
		if (weight > INT_MAX || weight < 0)
			bad_option("weight specification out of range (0 .. %d): %lld", INT_MAX, (long long) weight);
	}
	*total += weight;
	if (!builtin)
		return arg;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strncmp(builtins[i], arg, len) == 0)
		{
			found = builtins[i];
			nfound++;
		}
	if (nfound > 1)
	{
		fprintf(stderr, "%s: error: ambiguous builtin name: %d builtin scripts found for prefix \"%.*s\"\n",
				progname, nfound, (int) len, arg);
		fprintf(stderr, "Available builtin scripts:\n");
		for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
			fprintf(stderr, "\t%s\n", builtins[i]);
		exit(1);
	}
	if (nfound == 0)
		return arg;
	buf_append(&out, "%s%s", found, at ? at : "");
	return out.data;
}

static void
parse_options(int argc, char **argv, Options *o)
{
	static struct option long_options[] = {
		{"builtin", required_argument, NULL, 'b'},
		{"client", required_argument, NULL, 'c'},
		{"connect", no_argument, NULL, 'C'},
		{"debug", no_argument, NULL, 'd'},
		{"define", required_argument, NULL, 'D'},
		{"file", required_argument, NULL, 'f'},
		{"fillfactor", required_argument, NULL, 'F'},
		{"host", required_argument, NULL, 'h'},
		{"initialize", no_argument, NULL, 'i'},
		{"init-steps", required_argument, NULL, 'I'},
		{"jobs", required_argument, NULL, 'j'},
		{"log", no_argument, NULL, 'l'},
		{"latency-limit", required_argument, NULL, 'L'},
		{"no-vacuum", no_argument, NULL, 'n'},
		{"port", required_argument, NULL, 'p'},
		{"progress", required_argument, NULL, 'P'},
		{"protocol", required_argument, NULL, 'M'},
		{"quiet", no_argument, NULL, 'q'},
		{"report-per-command", no_argument, NULL, 'r'},
		{"rate", required_argument, NULL, 'R'},
		{"scale", required_argument, NULL, 's'},
		{"select-only", no_argument, NULL, 'S'},
		{"skip-some-updates", no_argument, NULL, 'N'},
		{"time", required_argument, NULL, 'T'},
		{"transactions", required_argument, NULL, 't'},
		{"username", required_argument, NULL, 'U'},
		{"vacuum-all", no_argument, NULL, 'v'},
		{"unlogged-tables", no_argument, NULL, 1},
		{"tablespace", required_argument, NULL, 2},
		{"index-tablespace", required_argument, NULL, 3},
		{"sampling-rate", required_argument, NULL, 4},
		{"aggregate-interval", required_argument, NULL, 5},
		{"progress-timestamp", no_argument, NULL, 6},
		{"log-prefix", required_argument, NULL, 7},
		{"foreign-keys", no_argument, NULL, 8},
		{"random-seed", required_argument, NULL, 9},
		{"show-script", required_argument, NULL, 10},
		{"partitions", required_argument, NULL, 11},
		{"partition-method", required_argument, NULL, 12},
		{"failures-detailed", no_argument, NULL, 13},
		{"max-tries", required_argument, NULL, 14},
		{"verbose-errors", no_argument, NULL, 15},
#if PGBENCH_MAJOR >= 17
		{"exit-on-abort", no_argument, NULL, 16},
#endif
#if PGBENCH_MAJOR >= 19
		{"continue-on-error", no_argument, NULL, 18},
#endif
		/* beyond pgbench */
		{"sweep", required_argument, NULL, 200},
		{"repeats", required_argument, NULL, 201},
		{"label", required_argument, NULL, 202},
		{"tag", required_argument, NULL, 203},
		{NULL, 0, NULL, 0}
	};
	int			c;

	o->refused = -1;
	while ((c = getopt_long(argc, argv, "iI:h:nvp:dqb:SNc:j:Crs:t:T:U:lf:D:F:M:P:R:L:",
							long_options, NULL)) != -1)
	{
		/* refused after pgbench's own checks of the command line (the end of this function) */
		for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
			if (c == refusals[i].code && o->refused < 0)
				o->refused = (int) i;
		if (c == 'v')
			o->vacuum_all = true;
		/* pgbench's initialization_option_set and benchmarking_option_set */
		if (strchr("IqF", c) || c == 1 || c == 2 || c == 3 || c == 8 || c == 11 || c == 12)
			o->init_option = true;
		if (strchr("cjTtCrSNbfDMPRLl", c) || (c >= 4 && c <= 7) || c == 9 || c == 13 || c == 14 ||
			c == 15 || c == 16 || c == 18 || c >= 200)
			o->bench_option = true;
		switch (c)
		{
			case 'i':
				o->init = true;
				break;
			case 'I':
				check_init_steps(o, optarg);
				break;
			case 'h':
				o->host = optarg;
				break;
			case 'p':
				o->port = optarg;
				break;
			case 'U':
				o->user = optarg;
				break;
			case 'd':
				break;
			case 'n':
				o->no_vacuum = true;
				break;
			case 'q':
				break;
			case 's':
				o->scale = parse_int(optarg, "-s/--scale", 1, INT_MAX);
				break;
			case 'F':
				o->fillfactor = parse_int(optarg, "-F/--fillfactor", 10, 100);
				break;
			case 1:
				o->unlogged = true;
				break;
			case 2:
				o->tablespace = optarg;
				break;
			case 3:
				o->index_tablespace = optarg;
				break;
			case 8:
				o->foreign_keys = true;
				break;
			case 11:
				o->partitions = parse_int(optarg, "--partitions", 0, INT_MAX);
				break;
			case 12:
				if (strcmp(optarg, "range") != 0 && strcmp(optarg, "hash") != 0)
					bad_option("invalid partition method, expecting \"range\" or \"hash\", got: \"%s\"", optarg);
				o->partition_method = optarg;
				break;
			case 'c':
				o->clients = parse_int(optarg, "-c/--client", 1, INT_MAX);
				break;
			case 'j':
				o->jobs = parse_int(optarg, "-j/--jobs", 1, INT_MAX);
				break;
			case 'T':
				o->duration = parse_int(optarg, "-T/--time", 1, INT_MAX);
				break;
			case 't':
				o->transactions = parse_int(optarg, "-t/--transactions", 1, INT_MAX);
				break;
			case 'C':
				o->connect = true;
				break;
			case 'r':
				o->per_command = true;
				break;
			case 'S':
			case 'N':
			case 'b':
			case 'f':
				if (c == 'b' && strcmp(optarg, "list") == 0)
				{
					fprintf(stderr, "Available builtin scripts:\n");
					for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
						fprintf(stderr, "\t%s\n", builtins[i]);
					fprintf(stderr, "\t(and the scripts registered in pgbenchx.scripts)\n");
					exit(0);
				}
				if (o->nscripts >= MAX_SCRIPTS)
					bad_option("at most %d SQL scripts are allowed", MAX_SCRIPTS);
				o->scripts[o->nscripts] = c == 'S' ? "select-only" : c == 'N' ? "simple-update"
					: script_option(optarg, c == 'b', &o->total_weight);
				if (c == 'S' || c == 'N')
					o->total_weight++;
				if (c == 'b' && o->scripts[o->nscripts] == optarg && o->not_builtin == NULL)
					o->not_builtin = strrchr(optarg, '@') ? strndup(optarg, strrchr(optarg, '@') - optarg) : optarg;
				o->script_is_file[o->nscripts] = (c == 'f');
				if (c == 'f')
					o->script_texts[o->nscripts] = read_script_file(o->scripts[o->nscripts]);
				o->nscripts++;
				break;
			case 'D':
				if (!add_pair(&o->variables, optarg))
					bad_option("invalid variable definition: \"%s\"", optarg);
				break;
			case 'M':
				if (strcmp(optarg, "simple") != 0 && strcmp(optarg, "extended") != 0 &&
					strcmp(optarg, "prepared") != 0)
					bad_option("invalid query mode (-M): \"%s\"", optarg);
				o->protocol = optarg;
				break;
			case 'P':
				o->progress = (int) opt_int(parse_int(optarg, "-P/--progress", 1, INT_MAX));
				break;
			case 'R':
				o->rate = parse_float(optarg, "rate limit", true);
				break;
			case 'L':
				o->latency_limit = parse_float(optarg, "latency limit", true);
				break;
			case 6:
				o->progress_timestamp = true;
				break;
			case 9:
				if (strcmp(optarg, "time") == 0)
					o->random_seed = NULL;
				else if (strcmp(optarg, "rand") == 0)
				{
					static char seed[32];

					srand((unsigned) time(NULL));
					snprintf(seed, sizeof(seed), "%ld", ((long) rand() << 16) ^ rand());
					o->random_seed = seed;
				}
				else
				{
					char	   *end;

					errno = 0;
					(void) strtoll(optarg, &end, 10);
					if (end == optarg || *end != '\0' || errno == ERANGE)
					{
						fprintf(stderr, "%s: error: unrecognized random seed option \"%s\"\n", progname, optarg);
						fprintf(stderr, "%s: detail: Expecting an unsigned integer, \"time\" or \"rand\".\n", progname);
						bad_option("error while setting random seed from --random-seed option");
					}
					o->random_seed = optarg;
				}
				if (o->random_seed)
					fprintf(stderr, "%s: setting random seed to %s\n", progname, o->random_seed);
				break;
			case 14:
				if (strtol(optarg, NULL, 10) < 0)
					bad_option("invalid number of maximum tries: \"%s\"", optarg);
				o->max_tries = parse_int(optarg, "--max-tries", 0, INT_MAX);
				break;
			case 'l':
				o->log = true;
				break;
			case 4:
				{
					char	   *end;
					double		rate;

					errno = 0;
					rate = strtod(optarg, &end);
					if (end == optarg || *end != '\0' || errno == ERANGE || !(rate > 0.0 && rate <= 1.0))
						bad_option("invalid sampling rate: \"%s\"", optarg);
				}
				o->sampling_rate = optarg;
				break;
			case 5:
				o->agg_interval = parse_int(optarg, "--aggregate-interval", 1, INT_MAX);
				break;
			case 7:
				o->log_prefix = optarg;
				break;
			case 10:
				/* as pgbench: the script shown, nothing else done (main) */
				o->show_script = script_option(optarg, true, &o->total_weight);
				break;
			case 13:
				o->failures_detailed = true;
				break;
			case 'v':
				break;
			case 15:
				o->verbose_errors = true;
				break;
			case 16:
				o->exit_on_abort = true;
				break;
			case 18:
				o->continue_on_error = true;
				break;
			case 200:
				o->sweep = optarg;
				break;
			case 201:
				o->repeats = parse_int(optarg, "--repeats", 1, INT_MAX);
				break;
			case 202:
				o->label = optarg;
				break;
			case 203:
				if (!add_pair(&o->tags, optarg))
					bad_option("invalid tag: \"%s\" (expecting KEY=VALUE)", optarg);
				break;
			default:
				try_help();
		}
	}
	if (optind < argc)
		o->dbname = argv[optind++];
	if (optind < argc)
	{
		fprintf(stderr, "%s: error: too many command-line arguments (first is \"%s\")\n",
				progname, argv[optind]);
		try_help();
	}

	if (o->show_script)
		return;					/* pgbench shows it and exits: nothing else is checked */
	if (o->variables.len)
		buf_append(&o->variables, "}");
	if (o->tags.len)
		buf_append(&o->tags, "}");

	if (o->init)
	{
		if (o->bench_option)
			bad_option("some of the specified options cannot be used in initialization (-i) mode");
		if (o->partition_method && (!o->partitions || opt_int(o->partitions) == 0))
			bad_option("--partition-method requires greater than zero --partitions");
		if (o->bad_steps)
			refuse("-I/--init-steps",
				   "pgbench_init drops, creates, generates (server-side), indexes and analyzes in one "
				   "transaction: the steps must include d, t, g or G, and p (v is accepted, f adds the foreign keys)");
		if (o->refused >= 0)
			refuse(refusals[o->refused].option, refusals[o->refused].reason);
		return;
	}
	if (o->nscripts > 0 && o->total_weight == 0)
		bad_option("total script weight must not be zero");
	if (o->init_option)
		bad_option("some of the specified options cannot be used in benchmarking mode");
	if (o->duration && o->transactions)
		bad_option("specify either a number of transactions (-t) or a duration (-T), not both");
	if (o->sampling_rate && !o->log)
		bad_option("log sampling (--sampling-rate) is allowed only when logging transactions (-l)");
	if (o->sampling_rate && o->agg_interval)
		bad_option("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time");
	if (o->agg_interval && !o->log)
		bad_option("log aggregation is allowed only when actually logging transactions");
	if (o->log_prefix && !o->log)
		bad_option("log file prefix (--log-prefix) is allowed only when logging transactions (-l)");
	if (o->duration && o->agg_interval && opt_int(o->agg_interval) > opt_int(o->duration))
		bad_option("number of seconds for aggregation (%d) must not be higher than test duration (%d)",
				   (int) opt_int(o->agg_interval), (int) opt_int(o->duration));
	if (o->duration && o->agg_interval && opt_int(o->duration) % opt_int(o->agg_interval) != 0)
		bad_option("duration (%d) must be a multiple of aggregation interval (%d)",
				   (int) opt_int(o->duration), (int) opt_int(o->agg_interval));
	if (o->progress_timestamp && o->progress == 0)
		bad_option("--progress-timestamp is allowed only under --progress");
	if (o->max_tries && opt_int(o->max_tries) == 0 && !o->latency_limit && !o->duration)
		bad_option("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)");
	if (o->sweep && o->clients)
		bad_option("--sweep gives the client counts: do not give -c/--client too");
	if (o->repeats && !o->sweep)
		bad_option("--repeats is allowed only with --sweep");
	if (o->refused >= 0 && !(o->vacuum_all && o->no_vacuum && refusals[o->refused].code == 'v'))
		refuse(refusals[o->refused].option, refusals[o->refused].reason);
	if (o->log && o->agg_interval && (o->rate || o->latency_limit || (o->max_tries && opt_int(o->max_tries) != 1)))
		refuse("-l/--log",
			   "not with -R, -L or --max-tries: the aggregated log's lag, skipped and retry fields are not stored per second");
	if (o->log && o->agg_interval && o->failures_detailed)
		refuse("-l/--log",
			   "not --aggregate-interval with --failures-detailed: the failures by kind are not stored per second");
	if (o->log && o->sweep)
		refuse("-l/--log", "not with --sweep: the log is written for one run");
}

static bool set_search_path(PGconn *conn, const char *path);
static void pin_search_path(PGconn *conn);

static void options_add(Buf *opts, const char *options, bool keep_password);
static bool session_has_secret(PGconn *conn);

/*
 * The connection.  A run's clients log in with the password this program
 * logged in with, which never goes into SQL text (docs/security.md, "A
 * secret never travels in SQL text"): on PostgreSQL 18 the server keeps the
 * keys of a SCRAM login and gives them to the clients itself; otherwise
 * (pgbenchx.session_secret() says 'none') the session is opened again with
 * the password in its startup packet, options='-c pgbenchx.password=...'.
 */
static PGconn *
connect_db(const Options *o)
{
	const char *keywords[] = {"host", "port", "user", "dbname", "fallback_application_name",
	"password", "options", NULL};
	const char *values[] = {o->host, o->port, o->user, o->dbname, progname, NULL, NULL, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, 1);

	if (conn == NULL || PQstatus(conn) == CONNECTION_BAD)
	{
		/*
		 * pgbench refuses a -b name that is no built-in's before it
		 * connects; pgbenchx looks such a name up in pgbenchx.scripts, so
		 * it says both
		 */
		if (o->not_builtin)
			fprintf(stderr, "%s: error: no builtin script found for name \"%s\", and no server to look it up in pgbenchx.scripts\n",
					progname, o->not_builtin);
		fprintf(stderr, "%s: error: %.*s", progname, CLI_REPLY_MAX_MESSAGE, conn ? PQerrorMessage(conn) : "out of memory\n");
		PQfinish(conn);
		exit(1);
	}
	/*
	 * The server's messages: warnings and errors on stderr as psql shows
	 * them (bounded: cli_reply.c); the NOTICEs of run_bench and run_sweep
	 * ("follow it with CALL pgbenchx.wait") are for psql's users, not this
	 * program's.
	 */
	cli_reply_set_notice_receiver(conn, false);
	pin_search_path(conn);
	if (ext_schema == NULL)
		cli_reply_no_extension(conn);
	if (!o->init && !o->show_script &&
		PQconnectionUsedPassword(conn) && PQpass(conn) && *PQpass(conn) &&
		!session_has_secret(conn))
	{
		Buf			opts = {0};
		char	   *password = strdup(PQpass(conn));

		/* the user's PGOPTIONS first, then the password, as the server reads them */
		options_add(&opts, getenv("PGOPTIONS"), true);
		buf_append(&opts, "%s-c pgbenchx.password=", opts.len ? " " : "");
		for (const char *p = password; *p; p++)
			buf_append(&opts, "%s%c", (isspace((unsigned char) *p) || *p == '\\') ? "\\" : "", *p);
		values[5] = password;
		values[6] = opts.data;
		PQfinish(conn);
		free(user_search_path);
		free(ext_schema);
		user_search_path = ext_schema = NULL;
		conn = PQconnectdbParams(keywords, values, 1);
		memset(opts.data, 0, opts.len);
		memset(password, 0, strlen(password));
		free(opts.data);
		free(password);
		if (conn == NULL || PQstatus(conn) == CONNECTION_BAD)
		{
			fprintf(stderr, "%s: error: %s", progname, conn ? PQerrorMessage(conn) : "out of memory\n");
			PQfinish(conn);
			exit(1);
		}
		cli_reply_set_notice_receiver(conn, false);
		pin_search_path(conn);
	}
	return conn;
}

/* whether the session gives a run's clients a password: pgbenchx.session_secret() */
static bool
session_has_secret(PGconn *conn)
{
	Buf			sql = {0};
	PGresult   *res;
	bool		has;

	buf_append(&sql, "SELECT pgbenchx.session_secret()");
	res = PQexec(conn, sql.data);
	/* an extension older than 0.5 has no such function: as before, none */
	has = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1 &&
		PQnfields(res) == 1 && !PQgetisnull(res, 0, 0) &&
		strcmp(PQgetvalue(res, 0, 0), "none") != 0;
	PQclear(res);
	free(sql.data);
	return has;
}

/* SET search_path for this session to path; false (and why, said) on error */
static bool
set_search_path(PGconn *conn, const char *path)
{
	const char *params[1] = {path};
	PGresult   *res = cli_reply_exec(conn, "set_config('search_path')",
									 "SELECT pg_catalog.set_config('search_path', $1, false)",
									 1, params, 1, 1, 1, 0);
	bool		ok = PQresultStatus(res) == PGRES_TUPLES_OK;

	if (!ok)
		cli_reply_print_error(res);
	PQclear(res);
	return ok;
}

/*
 * Whether s is what quote_ident() makes of a schema's name, which is then
 * written into this program's SQL: a plain lower-case name, or a quoted one
 * whose quotes are doubled, of at most NAMEDATALEN - 1 bytes (64 by default;
 * at most 2 * 63 + 2 bytes quoted).
 */
static bool
quoted_ident(const char *s)
{
	size_t		len = strlen(s);

	if (len == 0 || len > 128)
		return false;
	if (s[0] == '"')
	{
		if (len < 3 || s[len - 1] != '"')
			return false;
		for (size_t i = 1; i < len - 1; i++)
			if (s[i] == '"')
			{
				if (i + 1 >= len - 1 || s[i + 1] != '"')
					return false;
				i++;
			}
		return true;
	}
	if (!((s[0] >= 'a' && s[0] <= 'z') || s[0] == '_' || (unsigned char) s[0] >= 0x80))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
			  s[i] == '$' || (unsigned char) s[i] >= 0x80))
			return false;
	return true;
}

/* keeps the user's search_path and the extension's schema, then pins the path */
static void
pin_search_path(PGconn *conn)
{
	const char *what = "the search_path and the extension's schema";
	PGresult   *res = cli_reply_exec(conn, what,
									 "SELECT pg_catalog.current_setting('search_path'), "
									 "(SELECT pg_catalog.quote_ident(n.nspname) FROM pg_catalog.pg_extension e "
									 "JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace "
									 "WHERE e.extname OPERATOR(pg_catalog.=) 'pgbenchx')",
									 0, NULL, 2, 1, 1, 1 << 20);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		cli_reply_print_error(res);
		PQclear(res);
		PQfinish(conn);
		exit(1);
	}
	user_search_path = strdup(cli_reply_text(res, 0, 0, what));
	if (!cli_reply_isnull(res, 0, 1, what))
	{
		if (!quoted_ident(cli_reply_text(res, 0, 1, what)))
			cli_reply_fail(what, "the schema's name is not a quoted identifier");
		ext_schema = strdup(cli_reply_text(res, 0, 1, what));
	}
	PQclear(res);
	if (user_search_path == NULL || !set_search_path(conn, ""))
	{
		PQfinish(conn);
		exit(1);
	}
}

/*
 * --show-script of a built-in: its text from src/lang's table (the one the
 * server runs), printed before any connection as pgbench prints it.
 * Returns false for a name that is no built-in's (a registered script).
 */
static bool
show_builtin(const char *name)
{
	int			n;
	const ScriptBuiltin *b = script_builtins(&n);

	for (int i = 0; i < n; i++)
		if (strcmp(b[i].name, name) == 0)
		{
			fprintf(stderr, "-- %s: %s\n%s\n", b[i].name, b[i].desc, b[i].text);
			return true;
		}
	return false;
}

/*
 * --show-script NAME of a registered script: pgbench's "-- NAME:
 * DESCRIPTION" and the script's text on stderr, from pgbenchx.script_text
 * (a built-in's is show_builtin's, with no server).
 */
static int
show_script(PGconn *conn, const char *name)
{
	const char *params[1] = {name};
	PGresult   *res = call_run_sql(conn, "script_text", "SELECT pgbenchx.script_text($1::pg_catalog.text)",
									1, params);

	if (res == NULL)
		return 1;
	/* a built-in never comes here: show_builtin printed it with no server */
	fprintf(stderr, "-- %s: <registered with pgbenchx.add_script>\n%s\n", name,
			cli_reply_text(res, 0, 0, "script_text"));
	PQclear(res);
	return 0;
}

static int
run_init(PGconn *conn, const Options *o)
{
	Call		c = {0};
	PGresult   *res;
	PGcancel   *cancel;

	call_add(&c, "scale", "int", o->scale);
	call_add(&c, "fillfactor", "int", o->fillfactor);
	call_add(&c, "partitions", "int", o->partitions);
	call_add(&c, "partition_method", "text", o->partition_method);
	call_add(&c, "unlogged", "boolean", o->unlogged ? "true" : NULL);
	call_add(&c, "foreign_keys", "boolean", o->foreign_keys ? "true" : NULL);
	call_add(&c, "tablespace", "text", o->tablespace);
	call_add(&c, "index_tablespace", "text", o->index_tablespace);
	/* pgbench's lines for the steps pgbench_init takes (its "v" is an ANALYZE) */
	fprintf(stderr, "dropping old tables...\ncreating tables...\n");
	if (o->partitions && opt_int(o->partitions) > 0)
		fprintf(stderr, "creating %d partitions...\n", (int) opt_int(o->partitions));
	/* -I g is pgbench's client-side generation: not silently made G */
	if (o->steps_client_gen)
		fprintf(stderr, "%s: warning: step \"g\" (client-side data generation) is done in the server, as \"G\": pgbench_init writes the same rows\n",
				progname);
	fprintf(stderr, "generating data (server-side)...\ncreating primary keys...\n");
	if (o->foreign_keys)
		fprintf(stderr, "creating foreign keys...\n");
	cancel = PQgetCancel(conn);
	init_cancel = cancel;
	/* the tables go into the first schema of the user's search_path, as pgbench's do */
	res = set_search_path(conn, user_search_path) ? call_run(conn, "pgbench_init", &c) : NULL;
	if (res != NULL && !set_search_path(conn, ""))
	{
		PQclear(res);
		res = NULL;
	}
	init_cancel = NULL;
	PQfreeCancel(cancel);
	if (interrupted)
	{
		PQfinish(conn);
		signal(SIGINT, SIG_DFL);
		raise(SIGINT);
	}
	if (res == NULL)
		return 1;
	fprintf(stderr, "%s\n", cli_reply_text(res, 0, 0, "pgbench_init"));
	PQclear(res);

	/*
	 * pgbench's "v" step (not with -n or -I without v): the tables are
	 * vacuumed once pgbench_init has committed them (VACUUM cannot run in its
	 * transaction; it ended with ANALYZE), in the user's search_path as it
	 * made them
	 */
	if (!o->no_vacuum && !o->steps_without_v)
	{
		fprintf(stderr, "vacuuming...\n");
		if (!set_search_path(conn, user_search_path))
			return 1;
		res = cli_reply_command(conn, "the vacuum of the pgbench tables",
								"VACUUM pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history");
		if (res != NULL)
		{
			cli_reply_print_error(res);
			PQclear(res);
			return 1;
		}
		if (!set_search_path(conn, ""))
			return 1;
	}
	return 0;
}

/*
 * The name a -f file's text is registered under: "file-" and its base name
 * without the extension, each byte that a script name may not have made
 * '_' (add_script: letters, digits, '_' and '-', at most 63 bytes).
 */
static const char *
file_script_name(const char *path)
{
	static char name[64];
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t		len = strlen(base);
	size_t		n;

	if (strrchr(base, '.') && strrchr(base, '.') != base)
		len = strrchr(base, '.') - base;
	n = (size_t) snprintf(name, sizeof(name), "file-%.*s", (int) len, base);
	for (size_t i = 5; i < n && i < sizeof(name) - 1; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
			  (name[i] >= '0' && name[i] <= '9') || name[i] == '-' || name[i] == '_'))
			name[i] = '_';
	return name;
}

/*
 * The run's mix in run_bench's spelling ("name@w, name@w"); each -f file's
 * text is registered first (script_name).
 */
static const char *
build_mix(PGconn *conn, const Options *o)
{
	Buf			mix = {0};

	if (o->nscripts == 0)
		return "tpcb-like";
	for (int i = 0; i < o->nscripts; i++)
	{
		const char *arg = o->scripts[i];
		const char *at = strrchr(arg, '@');
		char	   *name = at ? strndup(arg, at - arg) : strdup(arg);

		if (o->script_is_file[i])
		{
			const char *base = file_script_name(name);
			const char *params[2];
			PGresult   *res;

			params[0] = base;
			params[1] = o->script_texts[i];
			res = cli_reply_exec(conn, "add_script", "SELECT pgbenchx.add_script($1, $2, replace => true)", 2, params,
								 1, 1, 1, 0);
			if (PQresultStatus(res) != PGRES_TUPLES_OK)
			{
				const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

				/*
				 * \shell and \setshell are refused (0A000: docs/cli.md says
				 * why); pgbench would run them in its clients, and a client
				 * whose command fails aborts: exit 2, as pgbench's
				 */
				cli_reply_print_error(res);
				PQclear(res);
				PQfinish(conn);
				exit(state && strcmp(state, "0A000") == 0 ? 2 : 1);
			}
			PQclear(res);
			buf_append(&mix, "%s%s%s", mix.len ? ", " : "", base, at ? at : "");
		}
		else
			buf_append(&mix, "%s%s%s", mix.len ? ", " : "", name, at ? at : "");
		free(name);
	}
	return mix.data;
}

/* --sweep: "MIN..MAX" into min_clients, max_clients; "N,N,..." into clients */
static void
add_sweep(Call *c, const char *sweep)
{
	const char *dots = strstr(sweep, "..");

	if (dots)
	{
		char	   *lo = strndup(sweep, dots - sweep);

		call_add(c, "min_clients", "int", parse_int(lo, "--sweep", 1, INT_MAX));
		call_add(c, "max_clients", "int", parse_int(dots + 2, "--sweep", 1, INT_MAX));
	}
	else
	{
		Buf			arr = {0};
		char	   *copy = strdup(sweep);

		buf_append(&arr, "{");
		for (char *tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
			buf_append(&arr, "%s%s", arr.len > 1 ? "," : "", parse_int(tok, "--sweep", 1, INT_MAX));
		buf_append(&arr, "}");
		if (arr.len == 2)
			bad_option("invalid value \"%s\" for option --sweep", sweep);
		call_add(c, "clients", "int[]", arr.data);
	}
}

/*
 * An upper bound of the runs of --sweep: the client counts given (or at
 * most 64 of a MIN..MAX ladder: sweep_ladder makes under 50) times
 * --repeats.
 */
static long long
sweep_runs(const Options *o)
{
	const char *dots = strstr(o->sweep, "..");
	long long	steps = 1;
	long long	repeats = o->repeats ? strtoll(o->repeats, NULL, 10) : 1;

	if (dots)
	{
		long long	lo = strtoll(o->sweep, NULL, 10);
		long long	hi = strtoll(dots + 2, NULL, 10);

		steps = hi >= lo ? hi - lo + 1 : 1;
		if (steps > 64)
			steps = 64;
	}
	else
		for (const char *p = o->sweep; *p; p++)
			steps += *p == ',';
	return steps * repeats;
}

/*
 * A report's "transaction type: NAME" or "SQL script N: NAME" line whose
 * NAME is a -f file's registered name (script_name) printed as pgbench
 * prints it, with the file's path; false for any other line.
 */
static bool
file_line(const char *line, const Options *o)
{
	const char *name = NULL;
	int			prefix;

	if (strncmp(line, "transaction type: ", 18) == 0)
		name = line + 18;
	else if (strncmp(line, "SQL script ", 11) == 0 && strstr(line, ": "))
		name = strstr(line, ": ") + 2;
	if (name == NULL)
		return false;
	prefix = (int) (name - line);
	for (int i = 0; i < o->nscripts; i++)
	{
		const char *arg = o->scripts[i];
		const char *at = strrchr(arg, '@');
		char	   *path;

		if (!o->script_is_file[i])
			continue;
		path = at ? strndup(arg, at - arg) : strdup(arg);
		if (path && strcmp(file_script_name(path), name) == 0)
		{
			printf("%.*s%s\n", prefix, line, path);
			free(path);
			return true;
		}
		free(path);
	}
	return false;
}

/*
 * Prints the pgbench part of pgbenchx.report(id): what pgbench would print
 * with these options.  report() prints as with -P and -r (pgbenchx always
 * measures both): without -P, -R or -L pgbench prints no "latency stddev",
 * and without -r no statement latencies.
 */
/*
 * --failures-detailed: pgbench's lines of the failures by kind, each as a
 * share of all the transactions (successful, skipped and failed): of the
 * run (script < 0), from runs.serialization_failures and deadlock_failures,
 * or of its script number script (0-based) in a per-script block, from
 * runs.script_stats.  Built for 19, a third line: the other failures
 * (--continue-on-error), those failed less the two kinds.
 */
static void
print_failures_detailed(PGconn *conn, const char *id, int script)
{
	const char *what = script < 0 ? "the run's failures by kind (pgbenchx.runs)" :
		"a script's failures by kind (pgbenchx.runs.script_stats)";
	char		k[16];
	const char *params[2] = {id, k};
	PGresult   *res;

	snprintf(k, sizeof(k), "%d", script);
	if (script < 0)
		res = query(conn, what,
					"SELECT coalesce(serialization_failures, 0), coalesce(deadlock_failures, 0),"
					"       coalesce(failed, 0),"
					"       coalesce(transactions, 0) + coalesce(skipped, 0) + coalesce(failed, 0)"
					" FROM pgbenchx.runs WHERE run_id = $1::bigint AND $2::int < 0", 2, params, 4, 0, 1);
	else
		res = query(conn, what,
					"SELECT coalesce((s ->> 'serialization_failures')::bigint, 0),"
					"       coalesce((s ->> 'deadlock_failures')::bigint, 0),"
					"       coalesce((s ->> 'failed')::bigint, 0),"
					"       coalesce((s ->> 'transactions')::bigint, 0) + coalesce((s ->> 'skipped')::bigint, 0)"
					"        + coalesce((s ->> 'failed')::bigint, 0)"
					" FROM (SELECT script_stats -> $2::int AS s FROM pgbenchx.runs"
					"       WHERE run_id = $1::bigint AND jsonb_typeof(script_stats -> $2::int) = 'object') x",
					2, params, 4, 0, 1);
	if (PQntuples(res) == 1)
	{
		const char *dash = script < 0 ? "" : " - ";
		long long	ser = cli_reply_int(res, 0, 0, what, 0, LLONG_MAX);
		long long	dl = cli_reply_int(res, 0, 1, what, 0, LLONG_MAX);
		long long	failed = cli_reply_int(res, 0, 2, what, 0, LLONG_MAX);
		long long	total = cli_reply_int(res, 0, 3, what, 0, LLONG_MAX);
		long long	counts[3] = {ser, dl, failed - ser - dl};
		static const char *const kinds[3] = {"serialization", "deadlock", "other"};

		if (counts[2] < 0)
			cli_reply_fail(what, "more failures by kind (%lld) than failed transactions (%lld)", ser + dl, failed);
		for (int i = 0; i < (PGBENCH_MAJOR >= 19 ? 3 : 2); i++)
		{
			if (total > 0)
				printf("%snumber of %s failures: %lld (%.3f%%)\n", dash, kinds[i], counts[i],
					   100.0 * counts[i] / total);
			else
				printf("%snumber of %s failures: %lld (NaN%%)\n", dash, kinds[i], counts[i]);
		}
	}
	PQclear(res);
}

static void
print_report(PGconn *conn, const char *id, const Options *o)
{
	const char *params[1] = {id};
	PGresult   *res = query(conn, "report", "SELECT pgbenchx.report($1::bigint)", 1, params, 1, 1, 1);
	char	   *text = strdup(cli_reply_text(res, 0, 0, "report"));
	bool		stddev = o->progress || o->rate || o->latency_limit;
	int			script = -1;	/* the per-script block being printed */

	PQclear(res);
	for (char *line = text, *next; line && *line; line = next)
	{
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (strcmp(line, "-- pgbenchx --") == 0)
			break;
		if (!stddev && strncmp(line, "latency stddev = ", 17) == 0)
			continue;
		if (file_line(line, o))
			continue;
		if (!o->per_command)
		{
			const char *p = line;

			if (strncmp(p, " - ", 3) == 0)
				p += 3;
			if (strncmp(p, "statement latencies in milliseconds", 35) == 0)
				continue;
			p = line;
			while (*p == ' ')
				p++;
			if (*p == '-')
				p++;
			if (p != line && *line == ' ' && strspn(p, "0123456789") > 0)
			{
				p += strspn(p, "0123456789");
				if (p[0] == '.' && strspn(p + 1, "0123456789") == 3 && p[4] == ' ')
					continue;	/* a statement's line: "   %11.3f  %10d  cmd" */
			}
		}
		printf("%s\n", line);
		/* --failures-detailed: pgbench's split of the failures, after their line */
		if (strncmp(line, "SQL script ", 11) == 0 && script < MAX_SCRIPTS)
			script++;
		if (o->failures_detailed && strncmp(line, "number of failed transactions: ", 31) == 0)
			print_failures_detailed(conn, id, -1);
		if (o->failures_detailed && script >= 0 &&
			strncmp(line, " - number of failed transactions: ", 34) == 0)
			print_failures_detailed(conn, id, script);
	}
	fflush(stdout);
	free(text);
}

/*
 * -P: pgbench's progress lines for the run's complete windows of N seconds
 * since *done, from its samples.  The stddev is the window's histogram's
 * (bucket midpoints: within the histograms' 0.78%).  As pgbench: with -R
 * the window's lag (the schedule lags summed, over its transactions), with
 * -L too its skipped transactions, with --max-tries other than 1 its
 * retried transactions and retries (0 for samples recorded before 0.5).
 */
static void
print_progress(PGconn *conn, const char *run, const Options *o, long long *done)
{
	const char *what = "the run's progress (pgbenchx.samples)";
	long long	every = o->progress;
	bool		timestamp = o->progress_timestamp;
	char		from[24], to[24];
	const char *params[3];
	PGresult   *res;
	long long	last,
				bound;

	params[0] = run;
	res = query(conn, "the run's last sampled second (pgbenchx.samples)",
				"SELECT coalesce(max(second), 0) FROM pgbenchx.samples WHERE run_id = $1::bigint",
				1, params, 1, 1, 1);
	last = cli_reply_int(res, 0, 0, "the run's last sampled second (pgbenchx.samples)", 0, INT_MAX);
	PQclear(res);

	/*
	 * Never a window beyond what was asked, whatever the samples say: no
	 * second past the duration (and a last partial one), none that has not
	 * elapsed here since the run was started.
	 */
	bound = asked_elapsed_s() + 1;
	if (asked.duration > 0 && bound > asked.duration + 1)
		bound = asked.duration + 1;
	if (last > bound)
		last = bound;
	while (last >= *done + every)
	{
		snprintf(from, sizeof(from), "%lld", *done);
		snprintf(to, sizeof(to), "%lld", *done + every);
		params[1] = from;
		params[2] = to;
		res = query(conn, what,
					"WITH s AS (SELECT * FROM pgbenchx.samples WHERE run_id = $1::bigint"
					"           AND second > $2::int AND second <= $3::int),"
					" b AS (SELECT x.lower_ms, x.upper_ms, x.count FROM s,"
					"       LATERAL pgbenchx.latency_buckets(s.latency_hist) x),"
					" m AS (SELECT sum(count * (lower_ms + upper_ms) / 2) / nullif(sum(count), 0) AS mean,"
					"              sum(count * ((lower_ms + upper_ms) / 2) ^ 2) / nullif(sum(count), 0) AS sq FROM b)"
					" SELECT coalesce(sum(transactions), 0) / greatest(sum(covered_s), 1e-9),"
					"        coalesce(sum(transactions * latency_avg_ms) / nullif(sum(transactions), 0), 0),"
					"        coalesce((SELECT sqrt(greatest(sq - mean ^ 2, 0)) FROM m), 0),"
					"        coalesce(sum(failed), 0),"
					"        extract(epoch FROM (SELECT started_at FROM pgbenchx.runs WHERE run_id = $1::bigint)) + $3::int,"
					"        coalesce(sum(lag_sum_ms) / nullif(sum(transactions), 0), 0),"
					"        coalesce(sum(skipped), 0), coalesce(sum(retried), 0), coalesce(sum(retries), 0)"
					" FROM s",
					3, params, 9, 1, 1);
		if (timestamp)
			fprintf(stderr, "progress: %.3f s", cli_reply_float(res, 0, 4, what, 0, 1e12));
		else
			fprintf(stderr, "progress: %.1f s", (double) (*done + every));
		fprintf(stderr, ", %.1f tps, lat %.3f ms stddev %.3f, %lld failed",
				cli_reply_float(res, 0, 0, what, 0, DBL_MAX), cli_reply_float(res, 0, 1, what, 0, DBL_MAX),
				cli_reply_float(res, 0, 2, what, 0, DBL_MAX), cli_reply_int(res, 0, 3, what, 0, LLONG_MAX));
		if (o->rate)
		{
			fprintf(stderr, ", lag %.3f ms", cli_reply_float(res, 0, 5, what, 0, DBL_MAX));
			if (o->latency_limit)
				fprintf(stderr, ", %lld skipped", cli_reply_int(res, 0, 6, what, 0, LLONG_MAX));
		}
		if (o->max_tries && opt_int(o->max_tries) != 1)
			fprintf(stderr, ", %lld retried, %lld retries",
					cli_reply_int(res, 0, 7, what, 0, LLONG_MAX), cli_reply_int(res, 0, 8, what, 0, LLONG_MAX));
		fprintf(stderr, "\n");
		PQclear(res);
		*done += every;
	}
}

/* ends the program after a SIGINT: the run cancelled on the server, then SIGINT */
static void
cancel_and_exit(PGconn *conn, const char *id, bool sweep)
{
	const char *params[1] = {id};
	PGresult   *res = query(conn, "cancel", "SELECT pgbenchx.cancel($1::bigint)", 1, params, 1, 1, 1);

	PQclear(res);
	for (int i = 0; i < 100; i++)
	{
		res = query(conn, "the run's status", sweep ? "SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $1::bigint"
					: "SELECT status FROM pgbenchx.runs WHERE run_id = $1::bigint", 1, params, 1, 0, 1);
		if (PQntuples(res) == 0 || cli_reply_isnull(res, 0, 0, "the run's status") ||
			strcmp(cli_reply_text(res, 0, 0, "the run's status"), "running") != 0)
		{
			PQclear(res);
			break;
		}
		PQclear(res);
		sleep_ms(100);
	}
	fprintf(stderr, "%s: %s %s cancelled on the server\n", progname, sweep ? "sweep" : "run", id);
	PQfinish(conn);
	signal(SIGINT, SIG_DFL);
	raise(SIGINT);
	exit(130);
}

/*
 * -l without --aggregate-interval: pgbench's per-transaction log, from the
 * records the run's drivers write into their rings in the server's shared
 * memory (run_bench's log_transactions), pulled with
 * pgbenchx.transaction_log every time follow() looks at the run (200 ms)
 * and once more after the run's row is final.  Driver k is pgbench's thread
 * k (the same share of the clients): its lines go to PREFIX.PID, or
 * PREFIX.PID.k for k >= 1, as pgbench names its files.  A driver never
 * waits for this program: when it falls behind by more than a ring (65536
 * records per driver), the oldest records are lost, counted, and said in a
 * warning at the end; the run itself is complete.  Memory: one call's rows
 * (at most a ring per driver), written out before the next.
 */
#define TXLOG_MAX_FILES 1024
#define TXLOG_RING 65536		/* a driver's ring (RUN_TXLOG_RING) */

typedef struct TxLog
{
	bool		on;
	int			ndrivers;		/* seen so far */
	long long	since[TXLOG_MAX_FILES];	/* per driver: the next record's seq */
	long long	received;
	long long	written;		/* what the drivers said they wrote */
	bool		done;			/* every driver said it was done */
	FILE	   *files[TXLOG_MAX_FILES];
	bool		failed;			/* a file could not be opened or written */
} TxLog;

static TxLog txlog;

static FILE *
txlog_file(const Options *o, int d)
{
	char		path[1024];

	if (d < 0 || d >= TXLOG_MAX_FILES)
		return NULL;
	if (txlog.files[d] != NULL || txlog.failed)
		return txlog.files[d];
	if (d == 0)
		snprintf(path, sizeof(path), "%s.%d", o->log_prefix ? o->log_prefix : "pgbench_log", (int) getpid());
	else
		snprintf(path, sizeof(path), "%s.%d.%d", o->log_prefix ? o->log_prefix : "pgbench_log", (int) getpid(), d);
	txlog.files[d] = fopen(path, "w");
	if (txlog.files[d] == NULL)
	{
		fprintf(stderr, "%s: error: could not open logfile \"%s\": %s\n", progname, path, strerror(errno));
		txlog.failed = true;
	}
	return txlog.files[d];
}

/*
 * one pull: the new records of every driver, written out; the marks kept.
 * A row names one of the drivers asked for (-j); a pull holds at most a
 * ring per driver and its mark; with -t, no more records than the
 * transactions asked for.
 */
static void
txlog_poll(PGconn *conn, const char *id, const Options *o)
{
	static const char *const statuses[] = {"ok", "serialization", "deadlock", "skipped", "failed", "other", NULL};
	const char *what = "the per-transaction log (pgbenchx.transaction_log)";
	Buf			since = {0};
	const char *params[2];
	PGresult   *res;
	long long	written = 0;
	bool		done = true;
	int			marks = 0;
	bool		retries = o->max_tries && opt_int(o->max_tries) != 1;

	buf_append(&since, "{");
	for (int d = 0; d < txlog.ndrivers; d++)
		buf_append(&since, "%s%lld", d ? "," : "", txlog.since[d]);
	buf_append(&since, "}");
	params[0] = id;
	params[1] = since.data;
	res = query(conn, what,
				"SELECT driver, seq, client_id, transaction_no, script_no, latency_us, end_time_us,"
				"       schedule_lag_us, retries, status, done"
				" FROM pgbenchx.transaction_log($1::bigint, $2::bigint[])", 2, params,
				11, 0, asked.drivers * (TXLOG_RING + 1));
	free(since.data);
	for (int i = 0; i < PQntuples(res); i++)
	{
		int			d = (int) cli_reply_int(res, i, 0, what, 0, asked.drivers - 1);
		FILE	   *f;
		int			status;
		long long	end;

		if (d >= txlog.ndrivers)
			txlog.ndrivers = d + 1;
		if (cli_reply_isnull(res, i, 2, what))
		{
			/* the driver's mark: what it wrote so far, whether it is done */
			txlog.since[d] = cli_reply_int(res, i, 1, what, 0, LLONG_MAX / TXLOG_MAX_FILES);
			written += txlog.since[d];
			done = done && cli_reply_bool(res, i, 10, what);
			marks++;
			(void) txlog_file(o, d);
			continue;
		}
		if (asked.transactions > 0 && txlog.received >= asked.transactions)
			cli_reply_fail(what, "more records than the %lld transactions asked for", asked.transactions);
		txlog.received++;
		status = cli_reply_word(res, i, 9, what, statuses);
		end = cli_reply_int(res, i, 6, what, 0, LLONG_MAX);
		f = txlog_file(o, d);
		if (f == NULL)
			continue;
		/* pgbench's line: client_id transaction_no time script_no time_epoch time_us */
		fprintf(f, "%lld %lld ", cli_reply_int(res, i, 2, what, 0, INT_MAX),
				cli_reply_int(res, i, 3, what, 0, LLONG_MAX - 1) + 1);
		if (status == 0)
			fprintf(f, "%lld", cli_reply_int(res, i, 5, what, 0, LLONG_MAX));
		else if (status == 3 || o->failures_detailed)
			fprintf(f, "%s", statuses[status]);
		else
			fprintf(f, "failed");
		fprintf(f, " %lld %lld %lld", cli_reply_int(res, i, 4, what, 0, INT_MAX), end / 1000000, end % 1000000);
		if (o->rate)
			fprintf(f, " %lld", cli_reply_isnull(res, i, 7, what) ? 0 : cli_reply_int(res, i, 7, what, 0, LLONG_MAX));
		if (retries)
			fprintf(f, " %lld", cli_reply_int(res, i, 8, what, 0, INT_MAX));
		fprintf(f, "\n");
	}
	PQclear(res);
	if (marks > 0)
	{
		txlog.written = written;
		txlog.done = done;
	}
}

/* the end: the files closed, what was lost said; 0, or 1 when a file failed */
static int
txlog_finish(const Options *o, const char *id)
{
	int			code = 0;

	/* pgbench opens thread 0's file whatever happens */
	(void) txlog_file(o, 0);
	for (int d = 0; d < TXLOG_MAX_FILES; d++)
		if (txlog.files[d] != NULL && fclose(txlog.files[d]) != 0)
		{
			fprintf(stderr, "%s: error: could not write the log of driver %d: %s\n", progname, d, strerror(errno));
			code = 1;
		}
	if (txlog.failed)
		code = 1;
	if (txlog.ndrivers == 0)
		fprintf(stderr, "%s: warning: the per-transaction log of run %s is empty: the run ended before its records could be read\n",
				progname, id);
	else if (txlog.written > txlog.received)
		fprintf(stderr, "%s: warning: %lld of %lld per-transaction log records of run %s were lost: "
				"they were not read before the drivers' rings (65536 records each) wrapped; the run's results are complete\n",
				progname, txlog.written - txlog.received, txlog.written, id);
	return code;
}

/*
 * The clients' messages (pgbenchx.client_messages): what pgbench's clients
 * print on stderr while they run, printed here as pgbench prints them:
 * debug() lines and the server's notices as they are, a client's abort as
 * pgbench's "error:" line, --verbose-errors' lines after the program's name.
 */
#define MSG_RING 256			/* a driver's ring (RUN_MSG_RING) */
#define MSG_LEN 1024			/* a message's bytes, with its NUL (RUN_MSG_LEN) */

static struct
{
	bool		on;
	long long	since[TXLOG_MAX_FILES];	/* per driver: the next message's seq */
	int			ndrivers;		/* drivers seen */
	long long	written;		/* the drivers' counts at the last look */
	long long	received;
	bool		done;			/* every driver was done at the last look */
	int			first_error_driver; /* the driver of the first error, or -1 */
}			msgs = {.first_error_driver = -1};

/*
 * one pull: the new messages of every driver, printed; the marks kept.
 * Returns whether the run's rings were there (a mark came).
 */
static bool
msgs_poll(PGconn *conn, const char *id)
{
	static const char *const kinds[] = {"debug", "error", "info", "notice", NULL};
	const char *what = "the clients' messages (pgbenchx.client_messages)";
	Buf			since = {0};
	const char *params[2];
	PGresult   *res;
	long long	written = 0;
	bool		done = true;
	int			marks = 0;

	buf_append(&since, "{");
	for (int d = 0; d < msgs.ndrivers; d++)
		buf_append(&since, "%s%lld", d ? "," : "", msgs.since[d]);
	buf_append(&since, "}");
	params[0] = id;
	params[1] = since.data;
	res = query(conn, what,
				"SELECT driver, seq, kind, message, done FROM pgbenchx.client_messages($1::bigint, $2::bigint[])",
				2, params, 5, 0, asked.drivers * (MSG_RING + 1));
	free(since.data);
	for (int i = 0; i < PQntuples(res); i++)
	{
		int			d = (int) cli_reply_int(res, i, 0, what, 0, asked.drivers - 1);
		long long	seq = cli_reply_int(res, i, 1, what, d < msgs.ndrivers ? msgs.since[d] : 0, LLONG_MAX / TXLOG_MAX_FILES);
		const char *text;
		int			kind;
		int			len;

		if (d >= msgs.ndrivers)
			msgs.ndrivers = d + 1;
		if (cli_reply_isnull(res, i, 2, what))
		{
			/* the driver's mark: what it wrote so far, whether it is done */
			msgs.since[d] = seq;
			written += seq;
			done = done && cli_reply_bool(res, i, 4, what);
			marks++;
			continue;
		}
		kind = cli_reply_word(res, i, 2, what, kinds);
		text = cli_reply_text(res, i, 3, what);
		if (PQgetlength(res, i, 3) >= MSG_LEN || strlen(text) != (size_t) PQgetlength(res, i, 3))
			cli_reply_fail(what, "a message of %d bytes, over the %d a driver writes", PQgetlength(res, i, 3), MSG_LEN - 1);
		msgs.received++;
		/* pgbench's log lines drop one trailing newline of their message */
		len = (int) strlen(text);
		if (kind == 1 || kind == 2)
			len -= len > 0 && text[len - 1] == '\n';
		switch (kind)
		{
			case 1:
				fprintf(stderr, "%s: error: %.*s\n", progname, len, text);
				if (msgs.first_error_driver < 0)
					msgs.first_error_driver = d;
				break;
			case 2:
				fprintf(stderr, "%s: %.*s\n", progname, len, text);
				break;
			default:
				fprintf(stderr, "%s%s", text, text[0] && text[strlen(text) - 1] == '\n' ? "" : "\n");
				break;
		}
	}
	PQclear(res);
	fflush(stderr);
	if (marks > 0)
	{
		msgs.written = written;
		msgs.done = done;
	}
	return marks > 0;
}

/* the end of a run's messages: what was lost said */
static void
msgs_finish(const char *id)
{
	if (msgs.written > msgs.received)
		fprintf(stderr, "%s: warning: %lld of %lld messages of the clients of run %s were lost: "
				"they were not read before the drivers' rings (256 messages each) wrapped; the run's results are complete\n",
				progname, msgs.written - msgs.received, msgs.written, id);
}

/*
 * A sweep: each run has its own rings, so its runs' messages are read one
 * run after the other (the coordinator keeps a run's rings until a reader
 * has had its last messages, or for 5 s: coordinator.c).  msgs_run is the
 * run being read, msgs_run_over whether it is done with.
 */
static long long msgs_run = 0;
static long long msgs_runs = 0;
static bool msgs_run_over = false;

static void
msgs_poll_sweep(PGconn *conn, const char *sweep_id)
{
	const char *what = "the sweep's next run (pgbenchx.runs)";
	const char *status_what = "the run's status (pgbenchx.runs)";

	/* each turn reads one run, or moves to the next: at most asked.runs of them */
	for (;;)
	{
		char		run[24];
		const char *params[2];
		PGresult   *res;
		bool		final;

		if (msgs_run == 0 || msgs_run_over)
		{
			long long	next;

			snprintf(run, sizeof(run), "%lld", msgs_run);
			params[0] = sweep_id;
			params[1] = run;
			res = query(conn, what, "SELECT min(run_id) FROM pgbenchx.runs WHERE sweep_id = $1::bigint AND run_id > $2::bigint",
						2, params, 1, 1, 1);
			if (cli_reply_isnull(res, 0, 0, what))
			{
				PQclear(res);
				return;
			}
			next = cli_reply_int(res, 0, 0, what, msgs_run + 1, LLONG_MAX);
			PQclear(res);
			if (++msgs_runs > asked.runs)
				cli_reply_fail(what, "more runs than the %lld asked for", asked.runs);
			msgs_run = next;
			msgs_run_over = false;
			memset(msgs.since, 0, sizeof(msgs.since));
			msgs.ndrivers = 0;
			msgs.written = msgs.received = 0;
			msgs.done = false;
		}
		snprintf(run, sizeof(run), "%lld", msgs_run);
		/* the status first: a final row and no rings after it is a run whose rings are gone */
		params[0] = run;
		res = query(conn, status_what, "SELECT status <> 'running' FROM pgbenchx.runs WHERE run_id = $1::bigint",
					1, params, 1, 1, 1);
		final = cli_reply_bool(res, 0, 0, status_what);
		PQclear(res);
		if (!msgs_poll(conn, run))
		{
			if (!final)
				return;			/* its rings are not there yet */
		}
		else if (!msgs.done)
			return;				/* it goes on */
		/* every driver done, or the run ended and its rings are gone */
		msgs_finish(run);
		msgs_run_over = true;
	}
}

/*
 * pgbench's "starting vacuum...end." (stderr), once the run's maintenance
 * (its vacuum) is over: when its phase is past it, or it completed.
 * Returns whether it was printed.
 */
static bool
vacuum_poll(PGconn *conn, const char *id, bool ended, bool completed)
{
	static const char *const phases[] = {"maintenance", "checkpoint", "connecting", "ready",
	"measuring", "finishing", NULL};
	const char *what = "the run's phase (pgbenchx.progress)";
	const char *params[1] = {id};
	PGresult   *res;
	bool		past = false;

	if (ended)
		past = completed;
	else
	{
		res = query(conn, what, "SELECT phase FROM pgbenchx.progress WHERE run_id = $1::bigint",
					1, params, 1, 0, 1);
		if (PQntuples(res) == 1 && !cli_reply_isnull(res, 0, 0, what))
			past = cli_reply_word(res, 0, 0, what, phases) > 0;
		PQclear(res);
	}
	if (past)
	{
		fprintf(stderr, "starting vacuum...end.\n");
		fflush(stderr);
	}
	return past;
}

/*
 * Follows a run (or each run of a sweep) to its end, printing progress and
 * each finished run's report and id; returns the exit code.
 */
static int
follow(PGconn *conn, const char *id, bool sweep, const Options *o)
{
	static const char *const statuses[] = {"running", "completed", "cancelled", "failed", "aborted", NULL};
	const char *status_what = sweep ? "the sweep's status (pgbenchx.sweeps)" : "the run's status (pgbenchx.runs)";
	const char *runs_what = "the runs that ended (pgbenchx.runs)";
	const char *params[2];
	char		lastbuf[24] = "0";
	long long	last = 0;		/* the last run that ended, reported */
	long long	ended = 0;		/* how many did */
	char		current[24] = "";
	long long	current_id = 0;
	long long	currents = 0;	/* how many runs -P followed */
	long long	progress_done = 0;
	long long	self = strtoll(id, NULL, 10);	/* checked by run_bench */
	int			code = 0;
	bool		vacuum_told = sweep || o->no_vacuum;

	params[0] = id;
	for (;;)
	{
		PGresult   *res;
		bool		running;
		int			status;

		if (interrupted)
			cancel_and_exit(conn, id, sweep);

		/* first the status: a run's row is final before its sweep's is */
		res = query(conn, status_what, sweep ? "SELECT status FROM pgbenchx.sweeps WHERE sweep_id = $1::bigint"
					: "SELECT status FROM pgbenchx.runs WHERE run_id = $1::bigint", 1, params, 1, 1, 1);
		status = cli_reply_word(res, 0, 0, status_what, statuses);
		running = status == 0;
		if (!running && sweep && status != 1)
		{
			fprintf(stderr, "%s: error: sweep %s %s\n", progname, id, statuses[status]);
			code = 2;
		}
		PQclear(res);
		/* -l: the records so far; after the final row, the last ones */
		if (txlog.on)
			txlog_poll(conn, id, o);
		if (msgs.on && sweep)
			msgs_poll_sweep(conn, id);
		else if (msgs.on)
			(void) msgs_poll(conn, id);
		if (!vacuum_told)
			vacuum_told = vacuum_poll(conn, id, !running, status == 1);

		/* then the runs that ended since the last look, in order: each one once, and no more than asked */
		params[1] = lastbuf;
		res = query(conn, runs_what, sweep
					? "SELECT run_id, status, coalesce(aborted_clients, 0), coalesce(error, '') FROM pgbenchx.runs"
					"  WHERE sweep_id = $1::bigint AND run_id > $2::bigint AND status <> 'running' ORDER BY run_id"
					: "SELECT run_id, status, coalesce(aborted_clients, 0), coalesce(error, '') FROM pgbenchx.runs"
					"  WHERE run_id = $1::bigint AND $2::bigint = 0 AND status <> 'running'",
					2, params, 4, 0, asked.runs - ended);
		for (int i = 0; i < PQntuples(res); i++)
		{
			long long	run_id = cli_reply_int(res, i, 0, runs_what, sweep ? last + 1 : self, sweep ? LLONG_MAX : self);
			int			run_status = cli_reply_word(res, i, 1, runs_what, statuses + 1) + 1;
			long long	aborted = cli_reply_int(res, i, 2, runs_what, 0, INT_MAX);
			const char *error = cli_reply_text(res, i, 3, runs_what);
			char		run[24];

			snprintf(run, sizeof(run), "%lld", run_id);
			/*
			 * --exit-on-abort: pgbench exits at once, with no report (the run
			 * stopped on the server: exit_on_abort)
			 */
			if (o->exit_on_abort && aborted > 0)
			{
				fprintf(stderr, "%s: error: Run was aborted due to an error in thread %d\n", progname,
						msgs.first_error_driver >= 0 ? msgs.first_error_driver : 0);
				return 2;
			}
			if (o->progress && strcmp(run, current) == 0)
				print_progress(conn, run, o, &progress_done);
			print_report(conn, run, o);
			/* aborted clients: their messages said why, in pgbench's words */
			if (run_status != 1 && !(msgs.on && aborted > 0))
			{
				fprintf(stderr, "%s: error: run %s %s%s%.*s\n", progname, run, statuses[run_status],
						*error ? ": " : "", CLI_REPLY_MAX_MESSAGE, error);
				code = 2;
			}
			if (run_status != 1)
				code = 2;
			if (run_status == 3 || run_status == 4 || aborted > 0)
			{
				fprintf(stderr, "%s: error: Run was aborted; the above results are incomplete.\n", progname);
				code = 2;
			}
			printf("run_id = %s\n", run);
			fflush(stdout);
			snprintf(lastbuf, sizeof(lastbuf), "%s", run);
			last = run_id;
			ended++;
		}
		PQclear(res);
		if (!running)
			break;

		if (o->progress)
		{
			const char *what = "the run in progress (pgbenchx.runs)";
			long long	run_id = 0;

			res = query(conn, what, sweep
						? "SELECT max(run_id) FROM pgbenchx.runs WHERE sweep_id = $1::bigint AND status = 'running'"
						: "SELECT $1::bigint", 1, params, 1, 1, 1);
			if (!cli_reply_isnull(res, 0, 0, what))
				run_id = cli_reply_int(res, 0, 0, what, sweep ? last + 1 : self, sweep ? LLONG_MAX : self);
			PQclear(res);
			if (run_id > 0)
			{
				/* a sweep's runs one after the other, each once */
				if (run_id != current_id)
				{
					if (run_id < current_id || ++currents > asked.runs)
						cli_reply_fail(what, "run %lld after run %lld, or more runs than the %lld asked for",
									   run_id, current_id, asked.runs);
					current_id = run_id;
					snprintf(current, sizeof(current), "%lld", run_id);
					progress_done = 0;
				}
				print_progress(conn, current, o, &progress_done);
			}
		}
		sleep_ms(200);
	}
	if (sweep)
	{
		PGresult   *res = query(conn, "report", "SELECT pgbenchx.report($1::bigint)", 1, params, 1, 1, 1);

		printf("%s\nsweep_id = %s\n", cli_reply_text(res, 0, 0, "report"), id);
		PQclear(res);
	}
	return code;
}

/*
 * -l --aggregate-interval=N: pgbench 15's aggregated log (one line per
 * interval, its 15 fields, latencies in microseconds) of the run, written
 * once it ended to PREFIX.PID (--log-prefix, default pgbench_log), as
 * pgbench's thread 0 writes it; from the run's per-second samples, so its
 * volume is one line per N seconds whatever the rate.  Each interval holds
 * the samples' seconds ((k-1)N, kN] of the measured interval; its start is
 * the run's started_at (whole seconds) plus (k-1)N.  num_transactions and
 * sum_latency are the samples' (exact); sum_latency_2, min_latency and
 * max_latency are the latency histograms' (bucket midpoints and bounds:
 * within the histograms' 0.78%).  The lag, skipped, retry and failure kind
 * fields are 0, as pgbench prints them without -R, -L, --max-tries and
 * --failures-detailed (refused with --aggregate-interval): 15 fields, and
 * built for 19 a 16th, the other failures, as 19's pgbench.  Returns 0, or 1
 * after saying why.
 */
static int
write_aggregate_log(PGconn *conn, const char *id, const Options *o)
{
	char		path[1024];
	const char *params[2] = {id, o->agg_interval};
	PGresult   *res;
	FILE	   *f;

	const char *what = "the aggregated log (pgbenchx.samples)";
	long long	every = strtoll(o->agg_interval, NULL, 10);	/* checked by parse_options */
	long long	seconds = asked_elapsed_s() + 1;

	/* an interval per N seconds of the run: no more than its duration, or than elapsed here */
	if (asked.duration > 0 && seconds > asked.duration + 1)
		seconds = asked.duration + 1;
	snprintf(path, sizeof(path), "%s.%d", o->log_prefix ? o->log_prefix : "pgbench_log", (int) getpid());
	res = query(conn, what,
				"SELECT floor(extract(epoch FROM r.started_at))::bigint + (w.k - 1) * $2::int,"
				"       coalesce(sum(s.transactions), 0),"
				"       coalesce(sum(s.transactions * s.latency_avg_ms) * 1000, 0),"
				"       coalesce(h.sq, 0), coalesce(h.mn, 0), coalesce(h.mx, 0)"
				" FROM pgbenchx.runs r"
				" CROSS JOIN pg_catalog.generate_series(1, (SELECT coalesce(ceil(max(x.second)::numeric / $2::int), 0)::int"
				"        FROM pgbenchx.samples x WHERE x.run_id = $1::bigint)) w(k)"
				" LEFT JOIN pgbenchx.samples s ON s.run_id = r.run_id"
				"        AND s.second > (w.k - 1) * $2::int AND s.second <= w.k * $2::int"
				" LEFT JOIN LATERAL (SELECT sum(b.count * ((b.lower_ms + b.upper_ms) / 2 * 1000) ^ 2) AS sq,"
				"        min(b.lower_ms) * 1000 AS mn, max(b.upper_ms) * 1000 AS mx"
				"        FROM pgbenchx.samples s2 CROSS JOIN LATERAL pgbenchx.latency_buckets(s2.latency_hist) b"
				"        WHERE s2.run_id = r.run_id AND s2.second > (w.k - 1) * $2::int AND s2.second <= w.k * $2::int) h ON true"
				" WHERE r.run_id = $1::bigint"
				" GROUP BY w.k, r.started_at, h.sq, h.mn, h.mx ORDER BY w.k",
				2, params, 6, 0, seconds / every + 2);
	f = fopen(path, "w");
	if (f == NULL)
	{
		fprintf(stderr, "%s: error: could not open logfile \"%s\": %s\n", progname, path, strerror(errno));
		PQclear(res);
		return 1;
	}
	for (int i = 0; i < PQntuples(res); i++)
		fprintf(f, "%lld %lld %.0f %.0f %.0f %.0f 0 0 0 0 0 0 0 0 0%s\n",
				cli_reply_int(res, i, 0, what, 0, LLONG_MAX), cli_reply_int(res, i, 1, what, 0, LLONG_MAX),
				cli_reply_float(res, i, 2, what, 0, DBL_MAX), cli_reply_float(res, i, 3, what, 0, DBL_MAX),
				cli_reply_float(res, i, 4, what, 0, DBL_MAX), cli_reply_float(res, i, 5, what, 0, DBL_MAX),
				PGBENCH_MAJOR >= 19 ? " 0" : "");
	PQclear(res);
	if (fclose(f) != 0)
	{
		fprintf(stderr, "%s: error: could not write logfile \"%s\": %s\n", progname, path, strerror(errno));
		return 1;
	}
	return 0;
}

/* KEY='VALUE' into a conninfo string, quoted as libpq reads it */
static void
conninfo_add(Buf *ci, const char *key, const char *value)
{
	buf_append(ci, "%s%s='", ci->len ? " " : "", key);
	for (const char *p = value; *p; p++)
		buf_append(ci, "%s%c", (*p == '\'' || *p == '\\') ? "\\" : "", *p);
	buf_append(ci, "'");
}

/*
 * The next word of startup options at *p (PGOPTIONS' syntax: separated by
 * white space, \ escapes): its raw text in [*start, *p), and in lower case
 * without the escapes in *word (malloc'd).  False at the end.
 */
static bool
options_word(const char **p, const char **start, char **word)
{
	Buf			w = {0};
	bool		escaped = false;

	while (isspace((unsigned char) **p))
		(*p)++;
	if (**p == '\0')
		return false;
	*start = *p;
	buf_append(&w, "%s", "");
	for (; **p && (escaped || !isspace((unsigned char) **p)); (*p)++)
	{
		escaped = !escaped && **p == '\\';
		if (!escaped)
			buf_append(&w, "%c", tolower((unsigned char) **p));
	}
	*word = w.data;
	return true;
}

/*
 * Append to opts the startup options of options, with or without those
 * that set pgbenchx.password (-c pgbenchx.password=..., -cpgbenchx...,
 * --pgbenchx.password=...), which must never reach SQL text.
 */
static void
options_add(Buf *opts, const char *options, bool keep_password)
{
	const char *p = options ? options : "";
	const char *start;
	char	   *word;

	while (options_word(&p, &start, &word))
	{
		const char *end = p;
		bool		drop = !keep_password && strstr(word, "pgbenchx.password") != NULL;

		if (!keep_password && strcmp(word, "-c") == 0)
		{
			/* "-c" and the setting it names, dropped together */
			const char *q = p;
			const char *next_start;
			char	   *next;

			if (options_word(&q, &next_start, &next))
			{
				if (strstr(next, "pgbenchx.password") != NULL)
				{
					drop = true;
					p = q;
				}
				memset(next, 0, strlen(next));
				free(next);
			}
		}
		if (!drop)
			buf_append(opts, "%s%.*s", opts->len ? " " : "", (int) (end - start), start);
		memset(word, 0, strlen(word));
		free(word);
	}
}

/*
 * The clients' extra libpq parameters (run_bench's conninfo), what
 * pgbench's own clients would have used and the server's clients cannot
 * see: PGOPTIONS, as options='...', without pgbenchx.password.  Never the
 * password: the clients get it from this session (connect_db).  NULL when
 * there is nothing.
 */
static const char *
clients_conninfo(PGconn *conn)
{
	Buf			opts = {0};
	Buf			ci = {0};

	(void) conn;
	options_add(&opts, getenv("PGOPTIONS"), false);
	if (opts.len)
		conninfo_add(&ci, "options", opts.data);
	free(opts.data);
	return ci.len ? ci.data : NULL;
}

static int
run_bench(PGconn *conn, const Options *o)
{
	Call		c = {0};
	PGresult   *res;
	char		idbuf[24];
	const char *id;
	bool		sweep = o->sweep != NULL;
	const char *sv = PQparameterStatus(conn, "server_version");
	int			code;

	if (o->scale)
	{
		/* pgbench's warning: a run's scale is pgbench_branches' count */
		if (!set_search_path(conn, user_search_path))
			return 1;
		res = cli_reply_exec(conn, "the count of pgbench_branches",
							 "SELECT pg_catalog.count(*) FROM pgbench_branches", 0, NULL, 1, 1, 1, 0);
		if (PQresultStatus(res) == PGRES_TUPLES_OK)
			fprintf(stderr, "%s: warning: scale option ignored, using count from pgbench_branches table (%lld)\n",
					progname, cli_reply_int(res, 0, 0, "the count of pgbench_branches", 0, LLONG_MAX));
		PQclear(res);
		if (!set_search_path(conn, ""))
			return 1;
	}
	if (sweep)
		add_sweep(&c, o->sweep);
	else
		call_add(&c, "clients", "int", o->clients ? o->clients : "1");
	call_add(&c, "duration", "int", o->duration);
	call_add(&c, "transactions", "bigint",
			 o->duration ? NULL : o->transactions ? o->transactions : "10");
	call_add(&c, "script", "text", build_mix(conn, o));
	call_add(&c, "jobs", "int", o->jobs ? o->jobs : "1");
	call_add(&c, "protocol", "text", o->protocol);
	call_add(&c, "vacuum", "boolean", o->no_vacuum ? "false" : NULL);
	call_add(&c, "checkpoint", "boolean", "false");	/* pgbench makes none */
	call_add(&c, "label", "text", o->label);
	call_add(&c, "random_seed", "bigint", o->random_seed);
	if (o->variables.len)
		call_add(&c, "variables", "jsonb", o->variables.data);
	call_add(&c, "rate", "float8", o->rate);
	call_add(&c, "latency_limit", "float8", o->latency_limit);
	call_add(&c, "max_tries", "int", o->max_tries);
	call_add(&c, "connect_per_transaction", "boolean", o->connect ? "true" : NULL);
	if (o->tags.len)
		call_add(&c, "tags", "jsonb", o->tags.data);
	call_add(&c, "repeats", "int", o->repeats);
	call_add(&c, "conninfo", "text", clients_conninfo(conn));
	call_add(&c, "continue_on_error", "boolean", o->continue_on_error ? "true" : NULL);
	/* what pgbench's clients print on stderr */
	msgs.on = true;
	call_add(&c, "client_messages", "boolean", "true");
	call_add(&c, "verbose_errors", "boolean", o->verbose_errors ? "true" : NULL);
	call_add(&c, "exit_on_abort", "boolean", o->exit_on_abort ? "true" : NULL);
	if (o->log && !o->agg_interval)
	{
		txlog.on = true;
		call_add(&c, "log_transactions", "boolean", "true");
		call_add(&c, "sampling_rate", "float8", o->sampling_rate);
	}

	/* what the loops over the replies may not go beyond (asked) */
	asked.duration = o->duration ? strtoll(o->duration, NULL, 10) : 0;
	asked.drivers = o->jobs ? strtoll(o->jobs, NULL, 10) : 1;
	if (asked.drivers > TXLOG_MAX_FILES)
		asked.drivers = TXLOG_MAX_FILES;
	asked.runs = sweep ? sweep_runs(o) : 1;
	if (!sweep && !o->duration)
		asked.transactions = strtoll(o->clients ? o->clients : "1", NULL, 10) *
			strtoll(o->transactions ? o->transactions : "10", NULL, 10);
	clock_gettime(CLOCK_MONOTONIC, &asked.started);

	res = call_run(conn, sweep ? "run_sweep" : "run_bench", &c);
	if (res == NULL)
		return refused_as_abort ? 2 : 1;
	snprintf(idbuf, sizeof(idbuf), "%lld", cli_reply_int(res, 0, 0, sweep ? "run_sweep" : "run_bench", 1, LLONG_MAX));
	id = idbuf;
	PQclear(res);
	/* from here on an unusable reply leaves a run going on: exit 2, and say so */
	cli_reply_exit_code = 2;
	snprintf(cli_reply_detail, sizeof(cli_reply_detail),
			 "%s %s goes on on the server without this program: CALL pgbenchx.wait(%s) follows it, "
			 "SELECT pgbenchx.cancel(%s) stops it.", sweep ? "sweep" : "run", id, id, id);
	/* pgbench's banner once the run is on: nothing on stdout when it is refused */
	printf("%s (%s, server %.64s)\n", progname, PGBENCHX_CLI_VERSION, sv ? sv : "unknown");
	fflush(stdout);
	code = follow(conn, id, sweep, o);
	if (msgs.on && !interrupted && !sweep)
		msgs_finish(id);
	else if (msgs.on && !interrupted && msgs_run > 0 && !msgs_run_over)
	{
		char		run[24];

		snprintf(run, sizeof(run), "%lld", msgs_run);
		msgs_finish(run);
	}
	if (txlog.on && !interrupted && txlog_finish(o, id) != 0 && code == 0)
		code = 1;
	else if (o->log && !txlog.on && !interrupted && write_aggregate_log(conn, id, o) != 0 && code == 0)
		code = 1;
	return code;
}

int
main(int argc, char **argv)
{
	Options		o = {0};
	PGconn	   *conn;
	int			code;
	struct sigaction sa;

	if (argc > 1)
	{
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-?") == 0)
		{
			usage();
			return 0;
		}
		if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0)
		{
			printf("pgbenchx (pgbenchx) %s, pgbench %d's command line; libpq %d\n",
				   PGBENCHX_CLI_VERSION, PGBENCH_MAJOR, PQlibVersion());
			return 0;
		}
		if (cli_is_command(argv[1]))
			return cli_command_main(argc - 1, argv + 1, argv[0]);
	}
	parse_options(argc, argv, &o);
	/* a built-in's text needs no server, as for pgbench */
	if (o.show_script && show_builtin(o.show_script))
		return 0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);	/* no SA_RESTART: a sleep ends at once */

	conn = connect_db(&o);
	if (o.show_script)
		code = show_script(conn, o.show_script);
	else
		code = o.init ? run_init(conn, &o) : run_bench(conn, &o);
	PQfinish(conn);
	return code;
}
