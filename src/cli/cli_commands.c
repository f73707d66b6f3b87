/*
 * src/cli/cli_commands.c: the subcommands of the pgbenchx client program
 * (issue 24): `pgbenchx report ID...`, `compare A B`, `chart ID... [-o
 * FILE] [--interval SECONDS]`, `export ID... > FILE`, `import [FILE]` and
 * `gather LABEL`, each one call of the
 * extension's SQL (pgbenchx.report, compare, chart_run, chart_runs or chart_sweeps,
 * export, import, gather) over the same connection options as a run (-h, -p, -U,
 * and -d/--dbname, as psql: a subcommand's other arguments are ids).
 *
 * Owns: the subcommands' command lines, their calls, and printing the
 * results (compare's as psql prints a table, aligned).  A server's error
 * is printed as the run's are (cli_reply_print_error: "pgbenchx: error:
 * ...", detail, hint) and exits 1; a bad command line exits 1 with pgbench's
 * words ("pgbenchx: error: ...", then the hint to --help).  Every reply is
 * read through src/cli/cli_reply.c's checks (its columns, its rows, each
 * value used): a reply of another shape exits 1 with what was wrong.
 *
 * Must not: compute a figure (every one is the server's), include a server
 * header, or run SQL whose names follow the caller's search_path: functions
 * and types are schema-qualified (pgbenchx., pg_catalog.).
 */
#include <errno.h>
#include <float.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "libpq-fe.h"
#include "cli_commands.h"
#include "cli_reply.h"

#define CMD_MAX_IDS 1000
#define CMD_MAX_ROWS 100000		/* import's sweeps */
#define CMD_MAX_COMPARE_ROWS 10000	/* compare's client counts */
#define CMD_MAX_CONCLUSION 1024	/* the bytes of one of compare's values */

static const char *progname = "pgbenchx";

typedef struct
{
	const char *name;
	const char *args;			/* what follows the name in the usage */
	int			min_ids;
	int			max_ids;		/* -1: import or gather, which take a word (a file, a label), not ids */
	const char *what;
} Command;

static const Command commands[] = {
	{"report", "ID...", 1, CMD_MAX_IDS,
	"print the report of runs or sweeps (pgbenchx.report)"},
	{"compare", "SWEEP_A SWEEP_B", 2, 2,
	"compare two sweeps (pgbenchx.compare), psql's table"},
	{"chart", "ID... [-o FILE.svg] [--interval SECONDS]", 1, CMD_MAX_IDS,
	"SVG chart of a run, of runs over time, or of sweeps"},
	{"export", "SWEEP_ID...", 1, CMD_MAX_IDS,
	"write sweeps with their runs as JSON (pgbenchx.export)"},
	{"import", "[FILE]", 0, -1,
	"load a JSON export (file or stdin); prints sweep ids"},
	{"gather", "LABEL", 1, -1,
	"your loose runs of LABEL into one sweep; prints its id"},
};

/* the command line of a subcommand */
typedef struct
{
	const Command *cmd;
	const char *host, *port, *user, *dbname, *output;
	const char *interval;		/* chart's --interval: chart_runs' interval_s */
	const char *ids[CMD_MAX_IDS];
	int			nids;
	const char *file;			/* import's file, gather's label */
} CmdOptions;

bool
cli_is_command(const char *word)
{
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(word, commands[i].name) == 0)
			return true;
	return false;
}

void
cli_commands_usage(FILE *out)
{
	fprintf(out, "\nSubcommands (after them: -h, -p, -U, -d DBNAME; then their arguments):\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
	{
		char		head[64];

		snprintf(head, sizeof(head), "%s %s", commands[i].name, commands[i].args);
		if (strlen(head) <= 22)
			fprintf(out, "  %-22s %s\n", head, commands[i].what);
		else
			fprintf(out, "  %s\n  %-22s %s\n", head, "", commands[i].what);
	}
}

/* a bad command line: pgbench's words, the hint to the subcommand's help, exit 1 */
static void
cmd_bad_usage(const Command *cmd, const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: error: ", progname);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n%s: hint: Try \"%s %s --help\" for more information.\n",
			progname, progname, cmd->name);
	exit(1);
}

static void
cmd_usage(const Command *cmd)
{
	printf("%s %s: %s.\n\n"
		   "Usage:\n"
		   "  %s %s [OPTION]... %s\n\n"
		   "Options:\n"
		   "  -d, --dbname=DBNAME      database to connect to (or a conninfo string)\n"
		   "  -h, --host=HOSTNAME      database server host or socket directory\n"
		   "  -p, --port=PORT          database server port number\n"
		   "  -U, --username=USERNAME  connect as specified database user\n",
		   progname, cmd->name, cmd->what, progname, cmd->name, cmd->args);
	if (strcmp(cmd->name, "chart") == 0)
	{
		printf("  -o, --output=FILE        write the SVG to FILE (default: standard output)\n");
		printf("      --interval=SECONDS   runs: their rates at this interval (60: per minute),\n"
			   "                           as pgbench --aggregate-interval (chart_runs;\n"
			   "                           default 1 for several runs)\n");
	}
	printf("  -?, --help               show this help, then exit\n");
	if (cmd->max_ids > 0)
		printf("\nAn ID is a run_id or sweep_id; several may also be given as \"1,2,3\".\n");
	printf("\nExit status: 0, or 1 for a bad command line, no connection, the server's\n"
		   "error (printed as \"%s: error: ...\" with its detail and hint), or a\n"
		   "reply of the server that cannot be used.\n", progname);
}

/* an id's text: an integer, checked here so that the server gets a bigint */
static const char *
cmd_check_id(const Command *cmd, const char *word)
{
	char	   *end;

	errno = 0;
	(void) strtoll(word, &end, 10);
	if (end == word || *end != '\0' || errno == ERANGE)
		cmd_bad_usage(cmd, "invalid id \"%s\" (expecting a run_id or sweep_id)", word);
	return word;
}

static void
cmd_parse(int argc, char **argv, const Command *cmd, CmdOptions *o)
{
	static struct option long_options[] = {
		{"dbname", required_argument, NULL, 'd'},
		{"host", required_argument, NULL, 'h'},
		{"port", required_argument, NULL, 'p'},
		{"username", required_argument, NULL, 'U'},
		{"output", required_argument, NULL, 'o'},
		{"interval", required_argument, NULL, 'i'},
		{NULL, 0, NULL, 0}
	};
	bool		chart = strcmp(cmd->name, "chart") == 0;
	int			c;

	o->cmd = cmd;
	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-?") == 0)
		{
			cmd_usage(cmd);
			exit(0);
		}
	optind = 1;
	while ((c = getopt_long(argc, argv, chart ? "d:h:p:U:o:" : "d:h:p:U:", long_options, NULL)) != -1)
	{
		switch (c)
		{
			case 'd':
				o->dbname = optarg;
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
			case 'o':
				if (!chart)
					cmd_bad_usage(cmd, "option %s is only for \"pgbenchx chart\"", "-o/--output");
				o->output = optarg;
				break;
			case 'i':
				if (!chart)
					cmd_bad_usage(cmd, "option %s is only for \"pgbenchx chart\"", "--interval");
				{
					char	   *end;
					long		v;

					errno = 0;
					v = strtol(optarg, &end, 10);
					if (end == optarg || *end != '\0' || errno == ERANGE || v < 1 || v > INT_MAX)
						cmd_bad_usage(cmd, "invalid value \"%s\" for option --interval (seconds, 1 or more)", optarg);
				}
				o->interval = optarg;
				break;
			default:
				fprintf(stderr, "%s: hint: Try \"%s %s --help\" for more information.\n",
						progname, progname, cmd->name);
				exit(1);
		}
	}
	for (; optind < argc; optind++)
	{
		char	   *copy,
				   *tok;

		if (cmd->max_ids < 0)
		{
			if (o->file)
				cmd_bad_usage(cmd, "too many command-line arguments (first is \"%s\")", argv[optind]);
			o->file = argv[optind];
			continue;
		}
		copy = strdup(argv[optind]);
		if (copy == NULL || *copy == '\0' || copy[strlen(copy) - 1] == ',')
			cmd_bad_usage(cmd, "invalid id \"%s\" (expecting a run_id or sweep_id)", argv[optind]);
		for (tok = strtok(copy, ","); tok; tok = strtok(NULL, ","))
		{
			if (o->nids >= cmd->max_ids)
				cmd_bad_usage(cmd, "too many ids (first extra is \"%s\")", tok);
			o->ids[o->nids++] = cmd_check_id(cmd, tok);
		}
	}
	if (cmd->max_ids < 0 && cmd->min_ids > 0 && o->file == NULL)
		cmd_bad_usage(cmd, "%s takes a label", cmd->name);
	if (cmd->max_ids >= 0 && o->nids < cmd->min_ids)
		cmd_bad_usage(cmd, cmd->min_ids == 2 ? "%s takes two sweep ids" : "%s takes at least one id", cmd->name);
}

static PGresult *cmd_query(PGconn *conn, const char *what, const char *sql, int n,
						   const char *const *values, int ncols, long min_rows, long max_rows);

static PGconn *
cmd_connect(const CmdOptions *o)
{
	const char *keywords[] = {"host", "port", "user", "dbname", "fallback_application_name", NULL};
	const char *values[] = {o->host, o->port, o->user, o->dbname, progname, NULL};
	PGconn	   *conn = PQconnectdbParams(keywords, values, 1);
	PGresult   *res;
	bool		installed;

	if (conn == NULL || PQstatus(conn) == CONNECTION_BAD)
	{
		fprintf(stderr, "%s: error: %.*s", progname, CLI_REPLY_MAX_MESSAGE, conn ? PQerrorMessage(conn) : "out of memory\n");
		PQfinish(conn);
		exit(1);
	}
	/* the server's messages as psql prints them, bounded (cli_reply.c) */
	cli_reply_set_notice_receiver(conn, true);
	/* pg_catalog alone on the path, as pg_dump's: nothing planted in the user's path runs */
	PQclear(cmd_query(conn, "set_config('search_path')", "SELECT pg_catalog.set_config('search_path', '', false)",
					  0, NULL, 1, 1, 1));
	res = cmd_query(conn, "whether pgbenchx is installed",
					"SELECT EXISTS (SELECT FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'pgbenchx')",
					0, NULL, 1, 1, 1);
	installed = cli_reply_bool(res, 0, 0, "whether pgbenchx is installed");
	PQclear(res);
	if (!installed)
		cli_reply_no_extension(conn);
	return conn;
}

/*
 * one query, whose reply has ncols columns and min_rows..max_rows rows
 * (cli_reply_exec; what names it in a message); on the server's error, its
 * message (cli_reply_print_error), and exit 1
 */
static PGresult *
cmd_query(PGconn *conn, const char *what, const char *sql, int n, const char *const *values,
		  int ncols, long min_rows, long max_rows)
{
	PGresult   *res = cli_reply_exec(conn, what, sql, n, values, ncols, min_rows, max_rows, 0);

	if (PQresultStatus(res) != PGRES_TUPLES_OK)
	{
		cli_reply_print_error(res);
		PQclear(res);
		PQfinish(conn);
		exit(1);
	}
	return res;
}

/* the ids as a bigint[]'s text, "{1,2,3}" */
static char *
cmd_id_array(const CmdOptions *o)
{
	size_t		len = 3;
	char	   *s;

	for (int i = 0; i < o->nids; i++)
		len += strlen(o->ids[i]) + 1;
	s = malloc(len);
	if (s == NULL)
	{
		fprintf(stderr, "%s: error: out of memory\n", progname);
		exit(1);
	}
	strcpy(s, "{");
	for (int i = 0; i < o->nids; i++)
	{
		if (i)
			strcat(s, ",");
		strcat(s, o->ids[i]);
	}
	strcat(s, "}");
	return s;
}

/* a number's column is right-aligned in psql's table, the others left */
static bool
cmd_numeric_type(Oid type)
{
	/* int8, int2, int4, oid, float4, float8, numeric */
	return type == 20 || type == 21 || type == 23 || type == 26 ||
		type == 700 || type == 701 || type == 1700;
}

static void
cmd_pad(int n)
{
	for (int i = 0; i < n; i++)
		putchar(' ');
}

/*
 * A result as psql's aligned format prints it (headers centred, numbers
 * right-aligned, "(N rows)" and an empty line), leaving out the columns named in skip_if_null
 * whose every value is NULL (compare's tps or qpm pair).
 */
static void
cmd_print_table(const PGresult *res, const char *skip_if_null)
{
	int			ncols = PQnfields(res);
	int			nrows = PQntuples(res);
	int		   *width = calloc(ncols, sizeof(int));
	bool	   *shown = calloc(ncols, sizeof(bool));
	int			last = -1;
	bool		first;

	if (!width || !shown)
	{
		fprintf(stderr, "%s: error: out of memory\n", progname);
		exit(1);
	}
	for (int c = 0; c < ncols; c++)
	{
		const char *name = PQfname(res, c);
		char		key[80];

		snprintf(key, sizeof(key), ",%s,", name);
		shown[c] = true;
		if (skip_if_null && strstr(skip_if_null, key))
		{
			shown[c] = false;
			for (int r = 0; r < nrows; r++)
				if (!PQgetisnull(res, r, c))
					shown[c] = true;
		}
		width[c] = (int) strlen(name);
		for (int r = 0; r < nrows; r++)
			if (PQgetlength(res, r, c) > width[c])
				width[c] = PQgetlength(res, r, c);
		if (shown[c])
			last = c;
	}
	first = true;
	for (int c = 0; c < ncols; c++)
	{
		int			len = (int) strlen(PQfname(res, c));
		int			left = (width[c] - len) / 2;

		if (!shown[c])
			continue;
		printf("%s", first ? " " : " | ");
		cmd_pad(left);
		printf("%s", PQfname(res, c));
		cmd_pad(width[c] - len - left);	/* psql pads the last header too */
		if (c == last)
			putchar(' ');		/* and puts the border's space after it */
		first = false;
	}
	printf("\n");
	first = true;
	for (int c = 0; c < ncols; c++)
	{
		if (!shown[c])
			continue;
		if (!first)
			putchar('+');
		for (int i = 0; i < width[c] + 2; i++)
			putchar('-');
		first = false;
	}
	printf("\n");
	for (int r = 0; r < nrows; r++)
	{
		first = true;
		for (int c = 0; c < ncols; c++)
		{
			const char *v = PQgetvalue(res, r, c);
			int			pad = width[c] - PQgetlength(res, r, c);

			if (!shown[c])
				continue;
			printf("%s", first ? " " : " | ");
			if (cmd_numeric_type(PQftype(res, c)))
				cmd_pad(pad);
			printf("%s", v);
			if (!cmd_numeric_type(PQftype(res, c)) && c != last)
				cmd_pad(pad);
			first = false;
		}
		printf("\n");
	}
	printf("(%d %s)\n\n", nrows, nrows == 1 ? "row" : "rows");
	free(width);
	free(shown);
}

static int
cmd_report(PGconn *conn, const CmdOptions *o)
{
	for (int i = 0; i < o->nids; i++)
	{
		const char *params[1] = {o->ids[i]};
		PGresult   *res = cmd_query(conn, "report", "SELECT pgbenchx.report($1::pg_catalog.int8)", 1, params,
									1, 1, 1);

		printf("%s%s\n", i ? "\n" : "", cli_reply_text(res, 0, 0, "report"));
		fflush(stdout);
		PQclear(res);
	}
	return 0;
}

/*
 * compare: its table as psql prints it, of the columns asked by their
 * names; each value a number (clients an integer, significant a boolean)
 * or, for the conclusion, a short text, so that the table's width is
 * bounded whatever the server sends
 */
static int
cmd_compare(PGconn *conn, const CmdOptions *o)
{
	static const char *const names[] = {"clients", "tps_a", "tps_b", "qpm_a", "qpm_b", "ratio", "pct_diff",
	"p99_a", "p99_b", "ratio_low", "ratio_high", "significant", "conclusion"};
	const char *what = "compare";
	PGresult   *res = cmd_query(conn, what,
								"SELECT clients, tps_a, tps_b, qpm_a, qpm_b, ratio, pct_diff, p99_a, p99_b,"
								"       ratio_low, ratio_high, significant, conclusion"
								" FROM pgbenchx.compare($1::pg_catalog.int8, $2::pg_catalog.int8)"
								" ORDER BY clients",
								2, o->ids, 13, 0, CMD_MAX_COMPARE_ROWS);

	for (int c = 0; c < 13; c++)
		if (strcmp(PQfname(res, c), names[c]) != 0)
			cli_reply_fail(what, "column %d is not named %s", c + 1, names[c]);
	for (int r = 0; r < PQntuples(res); r++)
	{
		(void) cli_reply_int(res, r, 0, what, 0, INT_MAX);
		for (int c = 1; c <= 10; c++)
			if (!cli_reply_isnull(res, r, c, what) && strcmp(PQgetvalue(res, r, c), "NaN") != 0 &&
				strcmp(PQgetvalue(res, r, c), "Infinity") != 0 && strcmp(PQgetvalue(res, r, c), "-Infinity") != 0)
				(void) cli_reply_float(res, r, c, what, -DBL_MAX, DBL_MAX);	/* shown as float8's text */
		if (!cli_reply_isnull(res, r, 11, what))
			(void) cli_reply_bool(res, r, 11, what);
		if (!cli_reply_isnull(res, r, 12, what) && PQgetlength(res, r, 12) > CMD_MAX_CONCLUSION)
			cli_reply_fail(what, "a conclusion of %d bytes (at most %d)", PQgetlength(res, r, 12), CMD_MAX_CONCLUSION);
		for (int c = 1; c <= 10; c++)
			if (PQgetlength(res, r, c) > CMD_MAX_CONCLUSION)
				cli_reply_fail(what, "a number of %d bytes", PQgetlength(res, r, c));
	}
	cmd_print_table(res, ",tps_a,tps_b,qpm_a,qpm_b,");
	PQclear(res);
	return 0;
}

static int
cmd_chart(PGconn *conn, const CmdOptions *o)
{
	const char *params[1] = {o->ids[0]};
	PGresult   *res;
	bool		run;
	FILE	   *out = stdout;
	char	   *ids;

	/* a run's chart or the sweeps': one id space (pgbenchx.id_seq) */
	res = cmd_query(conn, "whether the id is a run's", "SELECT EXISTS (SELECT FROM pgbenchx.runs r"
					" WHERE r.run_id OPERATOR(pg_catalog.=) $1::pg_catalog.int8)", 1, params, 1, 1, 1);
	run = cli_reply_bool(res, 0, 0, "whether the id is a run's");
	PQclear(res);
	if (!run && o->interval)
	{
		fprintf(stderr, "%s: error: %s is not a run: --interval charts runs over time\n",
				progname, o->ids[0]);
		return 1;
	}
	if (run && (o->nids > 1 || o->interval))
	{
		/* runs over time, on one axis (their ids are checked by chart_runs) */
		const char *runs_params[2];

		ids = cmd_id_array(o);
		runs_params[0] = ids;
		runs_params[1] = o->interval ? o->interval : "1";
		res = cmd_query(conn, "chart_runs", "SELECT pgbenchx.chart_runs($1::pg_catalog.int8[], $2::pg_catalog.int4)",
						2, runs_params, 1, 1, 1);
		free(ids);
	}
	else if (run)
		res = cmd_query(conn, "chart_run", "SELECT pgbenchx.chart_run($1::pg_catalog.int8)", 1, params, 1, 1, 1);
	else
	{
		ids = cmd_id_array(o);
		params[0] = ids;
		res = cmd_query(conn, "chart_sweeps", "SELECT pgbenchx.chart_sweeps($1::pg_catalog.int8[])", 1, params,
						1, 1, 1);
		free(ids);
	}
	/* the file is opened only once the chart exists: an error leaves no empty file */
	(void) cli_reply_text(res, 0, 0, "the chart");
	if (o->output && strcmp(o->output, "-") != 0)
	{
		out = fopen(o->output, "w");
		if (out == NULL)
		{
			fprintf(stderr, "%s: error: could not open file \"%s\" for writing: %s\n",
					progname, o->output, strerror(errno));
			PQclear(res);
			return 1;
		}
	}
	fputs(cli_reply_text(res, 0, 0, "the chart"), out);
	fputc('\n', out);
	PQclear(res);
	if (out != stdout && fclose(out) != 0)
	{
		fprintf(stderr, "%s: error: could not write file \"%s\": %s\n",
				progname, o->output, strerror(errno));
		return 1;
	}
	return 0;
}

static int
cmd_export(PGconn *conn, const CmdOptions *o)
{
	char	   *ids = cmd_id_array(o);
	const char *params[1] = {ids};
	PGresult   *res = cmd_query(conn, "export", "SELECT pgbenchx.export($1::pg_catalog.int8[])", 1, params, 1, 1, 1);

	printf("%s\n", cli_reply_text(res, 0, 0, "export"));
	PQclear(res);
	free(ids);
	return fflush(stdout) == 0 ? 0 : 1;
}

static int
cmd_import(PGconn *conn, const CmdOptions *o)
{
	FILE	   *in = stdin;
	const char *from = "standard input";
	char	   *doc = NULL;
	size_t		len = 0,
				cap = 0,
				n;
	const char *params[1];
	PGresult   *res;

	if (o->file && strcmp(o->file, "-") != 0)
	{
		from = o->file;
		in = fopen(o->file, "r");
		if (in == NULL)
		{
			fprintf(stderr, "%s: error: could not open file \"%s\": %s\n", progname, o->file, strerror(errno));
			return 1;
		}
	}
	do
	{
		if (cap - len < 65536)
		{
			cap = cap ? cap * 2 : 1 << 20;
			doc = realloc(doc, cap);
			if (doc == NULL)
			{
				fprintf(stderr, "%s: error: out of memory\n", progname);
				return 1;
			}
		}
		n = fread(doc + len, 1, cap - len - 1, in);
		len += n;
	} while (n > 0);
	if (ferror(in))
	{
		fprintf(stderr, "%s: error: could not read %s: %s\n", progname, from, strerror(errno));
		return 1;
	}
	if (in != stdin)
		fclose(in);
	doc[len] = '\0';
	if (strspn(doc, " \t\r\n") == len)
	{
		fprintf(stderr, "%s: error: nothing to import: %s is empty\n", progname, from);
		return 1;
	}
	params[0] = doc;
	res = cmd_query(conn, "import", "SELECT s FROM pg_catalog.unnest(pgbenchx.import($1::pg_catalog.jsonb)) s",
					1, params, 1, 0, CMD_MAX_ROWS);
	for (int i = 0; i < PQntuples(res); i++)
		printf("sweep_id = %lld\n", cli_reply_int(res, i, 0, "import", 1, LLONG_MAX));
	PQclear(res);
	free(doc);
	return 0;
}

/* gather LABEL: the caller's loose runs of LABEL as one sweep, its id printed as a run's is */
static int
cmd_gather(PGconn *conn, const CmdOptions *o)
{
	const char *params[1] = {o->file};
	PGresult   *res = cmd_query(conn, "gather", "SELECT pgbenchx.gather($1::pg_catalog.text)", 1, params, 1, 1, 1);

	printf("sweep_id = %lld\n", cli_reply_int(res, 0, 0, "gather", 1, LLONG_MAX));
	PQclear(res);
	return fflush(stdout) == 0 ? 0 : 1;
}

int
cli_command_main(int argc, char **argv, char *prog)
{
	CmdOptions	o = {0};
	const Command *cmd = NULL;
	PGconn	   *conn;
	int			code;
	char	   *name = argv[0];

	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(name, commands[i].name) == 0)
			cmd = &commands[i];
	if (cmd == NULL)
		return 1;				/* the caller asks cli_is_command first */
	argv[0] = prog;				/* getopt's messages name the program, as pgbench's */
	cmd_parse(argc, argv, cmd, &o);
	argv[0] = name;
	conn = cmd_connect(&o);
	if (strcmp(cmd->name, "report") == 0)
		code = cmd_report(conn, &o);
	else if (strcmp(cmd->name, "compare") == 0)
		code = cmd_compare(conn, &o);
	else if (strcmp(cmd->name, "chart") == 0)
		code = cmd_chart(conn, &o);
	else if (strcmp(cmd->name, "export") == 0)
		code = cmd_export(conn, &o);
	else if (strcmp(cmd->name, "gather") == 0)
		code = cmd_gather(conn, &o);
	else
		code = cmd_import(conn, &o);
	PQfinish(conn);
	return code;
}
