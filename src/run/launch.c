/*-------------------------------------------------------------------------
 *
 * launch.c
 *	  Starting a run or a sweep from the caller's backend: every check that
 *	  can be made before anything starts, then the coordinator worker and the
 *	  handshake that says it has really started.
 *
 * Refusals happen here, in the caller's session, with the numbers involved
 * and a hint naming the setting: bad arguments, a transaction block, a run
 * already in progress, too few worker slots or connections, missing pgbench
 * tables, a loopback login that fails, objects whose code the run would
 * execute with the rights of a role that does not trust their owner
 * (trust.c), and what the parsed scripts show
 * every client would fail on (pipeline misuse, check_tpcb with a script
 * that does not keep the invariant), and a role that is not a superuser
 * asking for more than the quotas give (pgbenchx.max_duration, max_clients,
 * max_jobs: launch_check_quotas).  This file must not run benchmarks.
 *
 * launch_start calls the phases in order, top to bottom.  What a part or a
 * run driven from generators adds is its launch kind's (launch.h), called
 * at those phases; fleet/ fills the kinds in, and this file includes none
 * of its headers.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/resource.h>
#include <unistd.h>

#include "access/xact.h"
#include "commands/dbcommands.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "postmaster/postmaster.h"
#include "storage/dsm.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/json.h"
#include "utils/jsonb.h"
#include "utils/numeric.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/timeout.h"
#include "utils/wait_event.h"

#include "conninfo.h"
#include "secret.h"
#include "launch.h"
#include "pg_compat.h"
#include "run_spec.h"
#include "worker.h"
#include "loopback.h"
#include "owner.h"
#include "progress.h"
#include "run_options.h"
#include "script.h"
#include "script_sql.h"
#include "searchpath.h"
#include "trust.h"

/* the seed sweep's client counts; then doubling from 160 */
static const int launch_base_ladder[] = {1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 40, 48, 64, 80};

/* sanity limit on clients, far above what any server here accepts */
#define LAUNCH_MAX_CLIENTS	100000

/* -R and -L, so that their microseconds fit an int64 with room to spare */
#define LAUNCH_MIN_RATE		1e-6
#define LAUNCH_MAX_RATE		1e9
#define LAUNCH_MAX_LATENCY_LIMIT_MS	1e12

/* the quotas of roles that are not superusers (launch.h); -1: no limit */
int			launch_max_duration = LAUNCH_DEFAULT_MAX_DURATION;
int			launch_max_clients = LAUNCH_DEFAULT_MAX_CLIENTS;
int			launch_max_jobs = LAUNCH_DEFAULT_MAX_JOBS;
int			launch_max_connection_share = LAUNCH_DEFAULT_CONNECTION_SHARE;
int			launch_max_worker_share = LAUNCH_DEFAULT_WORKER_SHARE;
int			launch_connection_headroom = LAUNCH_DEFAULT_CONNECTION_HEADROOM;
int			launch_worker_headroom = LAUNCH_DEFAULT_WORKER_HEADROOM;

/* the kinds of run that plug into launch's phases (launch.h); a local run has none */
static const LaunchKind launch_local_kind = {0};
const LaunchKind *launch_kinds[RUN_NKINDS];

/* The kind of run the options ask for (run_spec.h), and its hooks. */
static const LaunchKind *
launch_kind_of(const LaunchOptions *opts)
{
	RunKind		kind = opts->is_part ? RUN_KIND_PART :
		opts->ngenerators != 0 ? RUN_KIND_GENERATORS : RUN_KIND_LOCAL;

	run_spec_kind_check(kind, launch_kinds[kind], "launch kind");
	return kind == RUN_KIND_LOCAL ? &launch_local_kind : launch_kinds[kind];
}

int
launch_ladder(int min_clients, int max_clients, int *out, int max_out)
{
	int			n = 0;
	int64		v;

	out[n++] = min_clients;
	for (int i = 0; i < (int) lengthof(launch_base_ladder) && n < max_out - 1; i++)
		if (launch_base_ladder[i] > min_clients && launch_base_ladder[i] < max_clients)
			out[n++] = launch_base_ladder[i];
	for (v = 160; v < max_clients && n < max_out - 1; v *= 2)
		if (v > min_clients)
			out[n++] = (int) v;
	if (max_clients != min_clients)
		out[n++] = max_clients;
	return n;
}

/* "1 client", "2 clients": a count with its noun, singular for one */
static const char *
launch_count(int64 n, const char *one, const char *many)
{
	return psprintf(INT64_FORMAT " %s", n, n == 1 ? one : many);
}

/*
 * Each driver holds one socket per client of its share, like a pgbench
 * thread, and pgbench refuses to start when RLIMIT_NOFILE is below its
 * clients + 3.  The drivers inherit the server's limits and raise their soft
 * limit up to the hard limit (worker_raise_nofile); refuse here when even the
 * hard limit is too low for a step's largest share, instead of failing the
 * run with "Too many open files" once it has started.
 */
static void
launch_check_nofile(const LaunchOptions *opts, int ncpus)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_max == RLIM_INFINITY)
		return;
	for (int i = 0; i < opts->nsteps; i++)
	{
		int			c = opts->clients[i];
		int			jobs = opts->jobs_given ? Min(opts->jobs, c) :
			worker_default_jobs(c, ncpus, max_worker_processes);
		/* the first driver's share is the largest */
		long		share = run_spec_share(c, jobs, 0);
		long		need = share + WORKER_DRIVER_SPARE_FDS;

		if (need > (long) rl.rlim_max)
		{
			long		per_job = (long) rl.rlim_max - WORKER_DRIVER_SPARE_FDS;

			ereport(ERROR,
					(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
					 errmsg("%s in %s %s %ld open files per driver, but the server's limit is %ld",
							launch_count(c, "client", "clients"), launch_count(jobs, "job", "jobs"),
							c == 1 ? "needs" : "need", need, (long) rl.rlim_max),
					 errdetail("Each driver worker holds one connection per client of its share, and the server's processes may open at most %ld files (RLIMIT_NOFILE, hard limit).",
							   (long) rl.rlim_max),
					 per_job > 0 ?
					 errhint("Pass jobs => %ld or more, or raise the server's open file limit (LimitNOFILE= in its systemd unit, or ulimit -n before pg_ctl start).",
							 (c + per_job - 1) / per_job) :
					 errhint("Raise the server's open file limit (LimitNOFILE= in its systemd unit, or ulimit -n before pg_ctl start).")));
		}
	}
}

/*
 * Whether the caller is inside a transaction block it opened (BEGIN, or
 * earlier statements of the same implicit block) rather than only in the
 * subtransaction of a PL/pgSQL exception block within its own statement.
 */
static bool
launch_in_explicit_block(void)
{
	if (!IsTransactionBlock())
		return false;
	if (!IsSubTransaction())
		return true;
	return GetCurrentStatementStartTimestamp() != GetCurrentTransactionStartTimestamp();
}

/* Run a query in the caller's session; returns the first value or NULL. */
static char *
launch_query_value(const char *sql)
{
	char	   *value = NULL;
	int			nestlevel = searchpath_pin();

	if (SPI_execute(sql, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute failed: %s", sql);
	if (SPI_processed > 0)
		value = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
	searchpath_restore(nestlevel);
	return value;
}

/* The next id of pgbenchx.id_seq, with SPI connected. */
static int64
launch_next_id(void)
{
	OwnerSwitch sw;
	char	   *volatile value = NULL;

	/* runners have no USAGE on the sequence: the id is drawn as the extension */
	owner_switch_begin(&sw);
	PG_TRY();
	{
		value = launch_query_value("SELECT pg_catalog.nextval('pgbenchx.id_seq'::pg_catalog.regclass)");
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
	return pg_strtoint64(value);
}

/*
 * The checks across options.  Each option's own range is checked as it is
 * read (options.c, pgbenchx_options).
 */
static void
launch_check_arguments(const LaunchOptions *opts, const char *what)
{
	if (opts->nsteps < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s needs at least one client count", what),
				 errhint("Pass an array such as '{1,2,4}'.")));
	if ((int64) opts->nsteps * opts->repeats > LAUNCH_MAX_STEPS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("a sweep has at most %d runs, not %s times %s",
						LAUNCH_MAX_STEPS, launch_count(opts->nsteps, "client count", "client counts"),
						launch_count(opts->repeats, "repeat", "repeats")),
				 errhint("Split the sweep in several, or repeat it less.")));
	for (int i = 0; i < opts->nsteps; i++)
	{
		if (opts->clients[i] < 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("clients must be at least 1, not %d", opts->clients[i]),
					 errdetail("clients is the number of simulated clients, as pgbench -c."),
					 errhint("Pass 1 or more clients.")));
		if (opts->clients[i] > LAUNCH_MAX_CLIENTS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("clients must be at most %d, not %d",
							LAUNCH_MAX_CLIENTS, opts->clients[i]),
					 errdetail("Each client is a connection to the server."),
					 errhint("Pass fewer clients.")));
	}
	if (opts->duration_given && opts->transactions_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("specify either a number of transactions or a duration, not both"),
				 errdetail("pgbench takes either -t or -T."),
				 errhint("Pass duration => seconds, or transactions => per client.")));
	if (!opts->duration_given && !opts->transactions_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("%s needs a duration or a number of transactions", what),
				 errhint("Pass duration => seconds, or transactions => per client.")));
	if (opts->max_tries == 0 && !opts->latency_limit_given && !opts->duration_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("an unlimited number of transaction tries can only be used with a latency limit or a duration"),
				 errhint("Pass latency_limit or duration as well, or a positive max_tries.")));
}

static RunProtocol
launch_protocol(const char *name)
{
	if (strcmp(name, "simple") == 0)
		return RUN_PROTOCOL_SIMPLE;
	if (strcmp(name, "extended") == 0)
		return RUN_PROTOCOL_EXTENDED;
	if (strcmp(name, "prepared") == 0)
		return RUN_PROTOCOL_PREPARED;
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid protocol \"%s\"", script_sql_echo(name)),
			 errdetail("The protocol is pgbench's query mode, -M."),
			 errhint("Pass protocol => 'simple', 'extended' or 'prepared'.")));
	return RUN_PROTOCOL_SIMPLE; /* keep compiler quiet */
}

/*
 * The caller's conninfo: checked by conninfo.c's rule (a non-superuser
 * uses only the allowlisted keywords, names no other role and no file of
 * the server, and has a password: typed, or the session's own, secret.c);
 * a copy re-quoted with libpq's rules for the clients (quoted), and one
 * with every secret masked to record (shown).  generator: the generator's
 * number (0: the run's conninfo).  Returns whether it names a host or port.
 */
static bool
launch_check_conninfo(const char *conninfo, StringInfo shown, StringInfo quoted,
					  const char *role, int generator, bool *typed_password)
{
	return conninfo_check(conninfo, role, !superuser(), generator,
						  secret_session_kind() != SECRET_NONE, typed_password, shown, quoted);
}

/*
 * Refuse a second run while one is in progress anywhere in the cluster,
 * judged from the background worker slots (owner.c), which every role sees
 * alike: a runner without pg_read_all_stats sees the other runners' runs.
 * A coordinator whose step is over (its rows final, so CALL pgbenchx.wait
 * may have returned) and that is only ending, or keeping its
 * per-transaction records for a reader (log_transactions, at most
 * COORDINATOR_TXLOG_WAIT_MS), is waited for, that long and a little more.
 */
#define LAUNCH_KEEPING_WAIT_MS	7000

static void
launch_check_no_run(void)
{
	int			pid;
	char	   *activity;
	char	   *dbname;
	TimestampTz deadline = TimestampTzPlusMilliseconds(GetCurrentTimestamp(),
													   LAUNCH_KEEPING_WAIT_MS);

	while (owner_live_coordinator(&pid, &activity, &dbname) &&
		   progress_only_keeping_records(pid) && GetCurrentTimestamp() < deadline)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 50, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	if (owner_live_coordinator(&pid, &activity, &dbname))
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("a pgbenchx run is already in progress"),
				 errdetail("In progress: %s (pid %d, database %s).",
						   activity ? activity : "starting", pid, dbname ? dbname : "?"),
				 errhint("Only one run at a time per cluster: wait for it with CALL pgbenchx.wait(id), or stop it with SELECT pgbenchx.cancel(id).")));
}

/* Free background worker slots: the workers of the whole server. */
static int
launch_free_worker_slots(void)
{
	int			clients;
	int			workers;

	owner_count_backends(&clients, &workers);
	return max_worker_processes - workers;
}

/*
 * The connections a run holds at once on the server its clients reach: one
 * per client, and the coordinator's loopback connection (maintenance, the
 * counters, check_tpcb), which the backends of the clients of a step that
 * has just ended may still overlap.
 */
#define LAUNCH_COORDINATOR_CONNECTIONS 1

/*
 * Whether the run's connections fit (issue 34 §6), from the server's own
 * count of its client backends (in_use), the same for every role: the
 * connections roles without reserved slots may use are max_connections
 * less superuser_reserved_connections (and reserved_connections from 16).
 * A role that is not a superuser takes at most pgbenchx.max_connection_share
 * percent of them (54000), and leaves pgbenchx.connection_headroom of them
 * free for the others (53300); every launch, a superuser's too, is refused
 * when its clients could not all connect (53300), rather than failing once
 * started.
 */
static void
launch_check_connections_in_use(int clients, int in_use)
{
	int			reserved = PGX_RESERVED_CONNECTIONS;
	int			limit = Max(MaxConnections - reserved, 0);
	int			need = clients + LAUNCH_COORDINATOR_CONNECTIONS;
	bool		su = superuser();
	int			headroom = su ? 0 : launch_connection_headroom;
	int			free_conns = limit - in_use;

	if (!su && launch_max_connection_share >= 0)
	{
		int			share = (int) ((int64) limit * launch_max_connection_share / 100);

		if (need > share)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("%s %s %s, but a run of role \"%s\" may take at most %d",
							launch_count(clients, "client", "clients"), clients == 1 ? "needs" : "need",
							launch_count(need, "connection", "connections"),
							GetUserNameFromId(GetUserId(), false), share),
					 errdetail("Asked %d (one per client and one for the coordinator), allowed %d: pgbenchx.max_connection_share is %d%% of the %d connections that roles without reserved slots may use (max_connections %d less %d reserved).",
							   need, share, launch_max_connection_share, limit, MaxConnections, reserved),
					 errhint("Pass fewer clients, or ask a superuser to raise pgbenchx.max_connection_share.")));
	}
	if (need > free_conns - headroom)
	{
		int			avail = Max(free_conns - headroom, 0);

		if (su)
			ereport(ERROR,
					(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
					 errmsg("%s %s %s, but only %d %s free",
							launch_count(clients, "client", "clients"), clients == 1 ? "needs" : "need",
							launch_count(need, "connection", "connections"),
							avail, avail == 1 ? "is" : "are"),
					 errdetail("Asked %d (one per client and one for the coordinator), free %d, limit %d: max_connections is %d, %d %s reserved (superuser_reserved_connections, reserved_connections), and %s %s in use.",
							   need, avail, limit, MaxConnections, reserved, reserved == 1 ? "is" : "are",
							   launch_count(in_use, "connection", "connections"), in_use == 1 ? "is" : "are"),
					 errhint("Raise max_connections (this needs a restart), wait for other sessions to end, or run fewer clients.")));
		ereport(ERROR,
				(errcode(ERRCODE_TOO_MANY_CONNECTIONS),
				 errmsg("%s %s %s, but only %d %s free",
						launch_count(clients, "client", "clients"), clients == 1 ? "needs" : "need",
						launch_count(need, "connection", "connections"),
						avail, avail == 1 ? "is" : "are"),
				 errdetail("Asked %d (one per client and one for the coordinator), free %d, limit %d: max_connections is %d, %d %s reserved (superuser_reserved_connections, reserved_connections), %s %s in use, and pgbenchx.connection_headroom keeps %d free for other sessions.",
						   need, avail, limit, MaxConnections, reserved, reserved == 1 ? "is" : "are",
						   launch_count(in_use, "connection", "connections"), in_use == 1 ? "is" : "are",
						   headroom),
				 errhint("Wait for other sessions to end, run fewer clients, or ask a superuser to lower pgbenchx.connection_headroom or raise max_connections.")));
	}
}

static void
launch_check_connections(int clients)
{
	int			in_use;
	int			workers;

	/* every client backend of the server, whoever the caller is */
	owner_count_backends(&in_use, &workers);
	launch_check_connections_in_use(clients, in_use);
}

/*
 * A non-superuser's clients were let in at where without the password (or
 * would have been: libpq 16's require_auth refused first).
 */
pgx_noreturn static void
launch_password_required(const char *where, const char *role)
{
	ereport(ERROR,
			(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
			 errmsg("password is required"),
			 errdetail("The server at %s let a non-superuser's clients in without asking for the password.", where),
			 errhint("Have pg_hba.conf ask role \"%s\" for a password (scram-sha-256) on the connection the clients use.",
					 role)));
}

/*
 * Log in as the clients will and count pgbench_branches, as pgbench does to
 * find the scale of the built-in scripts.  Returns the scale.  Reads who the
 * clients are and how they resolve names into *clients (trust.c).  With
 * may_drop_options, a refusal of the "options" startup parameter (a pooler,
 * which pgbenchx's own options reached) returns -1 instead of an error: the
 * caller tries again without them.  When the clients reach this server,
 * *in_use is the number of its client backends but this login's own,
 * counted while it is open (so that its exit is not counted); otherwise -1.
 */
static int
launch_check_login(const char *conninfo, const char *role, bool need_tables,
				   TrustClients *clients, bool may_drop_options, int *in_use)
{
	char	   *connerr;
	char	   *refused_at = NULL;
	char	   *value = NULL;
	char	   *volatile error = NULL;
	char		sqlstate[6];
	PGconn	   *conn;
	bool		used_password;
	char	   *where;
	int			scale;

	conn = loopback_connect_login(conninfo, &connerr, &refused_at);
	if (conn == NULL && refused_at != NULL)
		launch_password_required(refused_at, role);
	/* a pooler (pgbouncer) refuses what pgbench would not send */
	if (conn == NULL && may_drop_options &&
		strstr(connerr, "unsupported startup parameter: options") != NULL)
		return -1;
	if (conn == NULL && strstr(connerr, "unsupported startup parameter") != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("the benchmark clients could not connect to the server"),
				 errdetail("libpq said: %s", connerr),
				 errhint("A connection pooler refused a startup parameter that conninfo asks for: remove it from conninfo (pgbenchx sends none of its own there), or add it to the pooler's ignore_startup_parameters.")));
	if (conn == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION),
				 errmsg("the benchmark clients could not connect to the server"),
				 errdetail("libpq said: %s", connerr),
				 errhint("The clients log in as role \"%s\" like any client: pg_hba.conf must let them in over the socket directory or localhost, with the password given when this session started (" SECRET_GUC_NAME ") or the SCRAM login of this session on PostgreSQL 18 when the server asks for one.",
						 role)));
	used_password = conninfo_login_ok(conn, !superuser());
	where = conninfo_where(conn);
	memset(clients, 0, sizeof(*clients));
	*in_use = -1;
	/* a cancel or statement_timeout during the count must not leak conn */
	if (used_password)
	{
		PG_TRY();
		{
			char	   *trust_error;

			if (!trust_read_clients(conn, clients, &trust_error))
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("could not read the benchmark clients' role and search_path"),
						 errdetail("%s", trust_error)));
			if (clients->this_server)
			{
				int			backends;
				int			workers;

				owner_count_backends(&backends, &workers);
				*in_use = Max(backends - 1, 0);
			}
			if (need_tables)
				error = loopback_exec(conn, "select pg_catalog.count(*) from pgbench_branches", &value, sqlstate);
		}
		PG_CATCH();
		{
			pqconn_finish(conn);
			PG_RE_THROW();
		}
		PG_END_TRY();
	}
	pqconn_finish(conn);
	if (!used_password)
		launch_password_required(where, role);

	/* custom scripts: pgbench reads no table, and :scale is 1 */
	if (!need_tables)
		return 1;
	if (error)
	{
		if (strcmp(sqlstate, "42P01") == 0)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_TABLE),
					 errmsg("the pgbench tables are missing"),
					 errdetail("The clients could not count pgbench_branches: %s", error),
					 errhint("Create them first, for example with SELECT pgbench_init(scale => 10).")));
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("could not count number of branches"),
				 errdetail("%s", error),
				 errhint("Check that role \"%s\" may read the pgbench tables.", role)));
	}
	scale = value ? atoi(value) : 0;
	if (scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pgbench_branches is empty"),
				 errdetail("The built-in scripts take the scale from the number of branches."),
				 errhint("Fill the tables with SELECT pgbench_init(scale => 10).")));
	return scale;
}

/*
 * The pipeline mistakes a parsed script shows before it runs, each of which
 * pgbench meets only at run time, where it aborts the client: \startpipeline
 * under the simple protocol outside any \if, and, in a script without \if
 * (every transaction goes through every command), a pipeline entered twice,
 * left or synced outside one, \gset or \aset inside one, or still open at
 * the end.  Refused in pgbench's words, before any maintenance starts.
 */
static void
launch_check_pipelines(const RunSpec *spec, Script *const *scripts, const char *const *names, int nscripts)
{
	for (int i = 0; i < nscripts; i++)
	{
		const Script *s = scripts[i];
		int			n = script_command_count(s);
		bool		linear = true;
		bool		in_pipeline = false;
		const char *problem = NULL;
		int			at = -1;

		int			depth = 0;

		for (int k = 0; k < n; k++)
		{
			ScriptCommandKind kind = script_command_kind(s, k);

			if (kind == SCRIPT_CMD_IF)
			{
				linear = false;
				depth++;
			}
			else if (kind == SCRIPT_CMD_ENDIF)
				depth--;
			/* outside any \if: every transaction reaches it */
			if (kind == SCRIPT_CMD_STARTPIPELINE && depth == 0 &&
				spec->protocol == RUN_PROTOCOL_SIMPLE)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("cannot use pipeline mode with the simple query protocol"),
						 errdetail("Script \"%s\" enters pipeline mode at line %d, outside any \\if: every client would reach it and abort, as pgbench's do.",
								   names[i], script_command_lineno(s, k)),
						 errhint("Pass protocol => 'extended' or protocol => 'prepared'.")));
		}
		if (!linear)
			continue;
		for (int k = 0; k < n && problem == NULL; k++)
		{
			ScriptCommandKind kind = script_command_kind(s, k);
			const char *prefix;

			if (kind == SCRIPT_CMD_STARTPIPELINE)
			{
				if (in_pipeline)
					problem = "already in pipeline mode";
				in_pipeline = true;
			}
			else if (kind == SCRIPT_CMD_SYNCPIPELINE || kind == SCRIPT_CMD_ENDPIPELINE)
			{
				if (!in_pipeline)
					problem = "not in pipeline mode";
				if (kind == SCRIPT_CMD_ENDPIPELINE)
					in_pipeline = false;
			}
			else if (kind == SCRIPT_CMD_SQL && in_pipeline)
			{
				ScriptResultStore store = script_sql_store(s, k, &prefix);

				if (store == SCRIPT_STORE_GSET)
					problem = "\\gset is not allowed in pipeline mode";
				else if (store == SCRIPT_STORE_ASET)
					problem = "\\aset is not allowed in pipeline mode";
			}
			if (problem)
				at = k;
		}
		if (problem == NULL && in_pipeline)
			problem = "end of script reached with pipeline open";
		if (problem)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("script \"%s\" cannot run: %s", names[i], problem),
					 at >= 0 ?
					 errdetail("At line %d: the script has no \\if, so every client would reach it and abort in its first transaction.",
							   script_command_lineno(s, at)) :
					 errdetail("No \\endpipeline follows the last \\startpipeline; the script has no \\if, so every client would abort in its first transaction."),
					 errhint("Pair each \\startpipeline with an \\endpipeline, and read results with \\gset or \\aset outside the pipeline.")));
	}
}

/*
 * Every script parses, and a client can be made of the mix with these
 * variables in this protocol (variable names, at most 255 parameters per
 * statement), and check_tpcb has the scripts it needs, so that no driver
 * fails on it later.  The scripts are parsed here only: their command
 * counts go into the spec and their commands' first lines
 * (pgbenchx.statements) at the end of the payload.
 */
static void
launch_check_scripts(RunSpec *spec, StringInfo payload)
{
	RunMix		mix;
	ScriptError err;
	Script	   *scripts[SCRIPT_MAX_SCRIPTS];
	ScriptClient *client;
	ScriptClientOptions copts;
	char		msg[2048];

	spec->ncommands = 0;
	spec->payload_len = payload->len;
	run_spec_mix(spec, payload->data, &mix);
	for (int i = 0; i < mix.nscripts; i++)
	{
		scripts[i] = script_parse(mix.names[i], mix.texts[i], &script_sql_parse_opts, &err);
		if (scripts[i] == NULL)
		{
			for (int j = 0; j < i; j++)
				script_free(scripts[j]);
			/* a cancel or statement_timeout stopped it: throw that */
			if (err.kind == SCRIPT_ERR_INTERRUPTED)
				CHECK_FOR_INTERRUPTS();
			script_error_format(&err, msg, sizeof(msg));
			ereport(ERROR,
					(errcode(ERRCODE_SYNTAX_ERROR),
					 errmsg("script \"%s\" has an error: %s", mix.names[i], err.message),
					 errdetail("%s", msg)));
		}
	}
	launch_check_pipelines(spec, scripts, mix.names, mix.nscripts);
	memset(&copts, 0, sizeof(copts));
	copts.query_mode = (ScriptQueryMode) spec->protocol;
	copts.scale = 1;
	copts.defines = mix.defines;
	copts.ndefines = mix.ndefines;
	client = script_client_create_multi((const Script *const *) scripts, mix.nscripts, &copts, &err);
	if (client)
		script_client_free(client);
	if (client == NULL)
	{
		for (int i = 0; i < mix.nscripts; i++)
			script_free(scripts[i]);
		script_error_format(&err, msg, sizeof(msg));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("script \"%s\" cannot run: %s", err.source, err.message),
				 errdetail("%s", msg)));
	}
	/*
	 * check_tpcb: only the built-in tpcb-like keeps the TPC-B invariant
	 * (simple-update and custom scripts write some of the tables and not the
	 * others); select-only writes nothing, so it may be mixed in.
	 */
	if (spec->check_tpcb)
		for (int i = 0; i < mix.nscripts; i++)
			if (strcmp(mix.names[i], "tpcb-like") != 0 &&
				strcmp(mix.names[i], "select-only") != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("check_tpcb needs the tpcb-like script, not \"%s\"", mix.names[i]),
						 errdetail("Only the built-in tpcb-like script (mixed with select-only at most) keeps the balances of accounts, tellers and branches and the deltas of history equal."),
						 errhint("Pass script => 'tpcb-like', or leave check_tpcb out.")));

	/* payload is appended to below: mix's pointers into it end here */
	for (int i = 0; i < mix.nscripts; i++)
	{
		int			count = script_command_count(scripts[i]);

		spec->script_commands[i] = count;
		spec->ncommands += count;
		for (int k = 0; k < count; k++)
		{
			const char *line = script_command_first_line(scripts[i], k);

			appendBinaryStringInfo(payload, line, strlen(line) + 1);
		}
		script_free(scripts[i]);
	}
	spec->payload_len = payload->len;
}

/*
 * The script argument: one name, or pgbench's "name@weight, name@weight"
 * mix.  Appends each script's name, weight and text to payload, and the
 * mix as the runs table shows it to display.  Returns the number of
 * scripts; *any_builtin says whether the scale must be read from
 * pgbench_branches.
 */
static int
launch_scripts(const char *spec, StringInfo payload, StringInfo display, bool *any_builtin)
{
	char	   *copy = pstrdup(spec);
	char	   *item;
	char	   *save = NULL;
	int			n = 0;
	int64		total = 0;
	bool		weighted = false;
	List	   *names = NIL;
	List	   *weights = NIL;

	*any_builtin = false;
	for (item = strtok_r(copy, ",", &save); item; item = strtok_r(NULL, ",", &save))
	{
		char	   *name;
		char	   *resolved;
		char	   *body;
		char	   *owner;
		bool		builtin;
		int64		weight;
		ScriptError err;
		int			len;

		while (*item == ' ' || *item == '\t' || *item == '\n')
			item++;
		len = strlen(item);
		while (len > 0 && (item[len - 1] == ' ' || item[len - 1] == '\t' || item[len - 1] == '\n'))
			item[--len] = '\0';
		if (!script_parse_weight(item, &name, &weight, &err))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s", err.message),
					 errdetail("A script is named \"name\" or \"name@weight\", with an integer weight from 0 to 2147483647, as pgbench -b and -f take them."),
					 errhint("Pass script => 'tpcb-like@9, select-only@1', for example.")));
		if (strchr(item, '@'))
			weighted = true;
		if (++n > SCRIPT_MAX_SCRIPTS)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("at most %d SQL scripts are allowed", SCRIPT_MAX_SCRIPTS),
					 errhint("Pass fewer scripts.")));
		if (!script_sql_resolve(name, &resolved, &body, &builtin, &owner))
			script_sql_unknown(name);
		/* a registered script runs only for its owner's roles (as ownership) */
		if (!builtin && !owner_has_privs(GetUserId(), owner))
			ereport(ERROR,
					(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
					 errmsg("permission denied to run script \"%s\" of role \"%s\"", resolved, owner),
					 errdetail("A registered script runs only for its owner, the members of its owner and superusers."),
					 errhint("Register a script of your own with pgbenchx.add_script, or have role \"%s\" grant you its membership.", owner)));
		script_mem_free(name);
		*any_builtin |= builtin;
		total += weight;
		appendBinaryStringInfo(payload, resolved, strlen(resolved) + 1);
		appendStringInfo(payload, INT64_FORMAT, weight);
		appendStringInfoChar(payload, '\0');
		appendBinaryStringInfo(payload, body, strlen(body) + 1);
		names = lappend(names, pstrdup(resolved));
		weights = lappend(weights, psprintf(INT64_FORMAT, weight));
	}
	for (int i = 0; i < list_length(names); i++)
	{
		appendStringInfo(display, "%s%s", i > 0 ? ", " : "", (char *) list_nth(names, i));
		if (weighted || n > 1)
			appendStringInfo(display, "@%s", (char *) list_nth(weights, i));
	}
	if (n == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("no script given"),
				 errhint("Pass script => 'tpcb-like', or a mix such as 'tpcb-like@9, select-only@1'.")));
	launch_check_mix(total, display);
	return n;
}

void
launch_check_mix(int64 total_weight, const StringInfo display)
{
	if (total_weight == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("total script weight must not be zero"),
				 errhint("Give at least one script a weight above 0.")));
	if (display->len >= RUN_SCRIPT_NAME_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the script mix is too long"),
				 errhint("Keep it under %d bytes.", RUN_SCRIPT_NAME_LEN)));
}

/* the launch the caller is waiting for, for launch_abandon */
static struct
{
	LaunchHandshake *hs;
	BackgroundWorkerHandle *handle;
} launch_pending;

/*
 * The caller's statement failed (cancel, statement_timeout, an error) or its
 * session is ending while it waits for its coordinator: tell the coordinator
 * not to run.  A coordinator that has recorded its rows marks them cancelled
 * and exits; one that has not answered yet exits without recording any; one
 * not started yet never starts.  Runs as an error cleanup and as a
 * before_shmem_exit callback (a FATAL), so it only touches shared memory.
 */
static void
launch_abandon(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	LaunchHandshake *hs = launch_pending.hs;
	uint32		expected = LAUNCH_PENDING;

	if (hs == NULL)
		return;
	launch_pending.hs = NULL;
	if (pg_atomic_compare_exchange_u32(&hs->status, &expected, LAUNCH_ABANDONED))
	{
		/* not yet answered: a coordinator the postmaster has not started yet stays unstarted */
		if (launch_pending.handle)
		{
			pid_t		pid;

			if (GetBackgroundWorkerPid(launch_pending.handle, &pid) == BGWH_NOT_YET_STARTED)
				TerminateBackgroundWorker(launch_pending.handle);
		}
	}
	else if (expected == LAUNCH_STARTED &&
			 pg_atomic_compare_exchange_u32(&hs->status, &expected, LAUNCH_ABANDONED))
	{
		pg_read_barrier();
		SetLatch(&ProcGlobal->allProcs[hs->coordinator_procno].procLatch);
	}
	launch_pending.handle = NULL;
}

/*
 * The quotas: a role that is not a superuser may hold the server's
 * connections and worker slots only so long and so much.  Each step of a
 * sweep (and each repeat) is bounded by pgbenchx.max_duration, every step's
 * clients by pgbenchx.max_clients; the jobs by pgbenchx.max_jobs here when
 * given (launch_check_server caps the chosen default).  A run bounded by
 * transactions, or a replay, cannot be refused for its length: its measured
 * interval is cut at pgbenchx.max_duration instead (RunSpec.time_limit_s,
 * coordinator_measure).  A part (launch_part)
 * runs as the recorder's caller on its generator, so the generator's own
 * settings bound it.  Superusers are not limited.
 */
static void
launch_check_quotas(const LaunchOptions *opts, const char *what)
{
	const char *role;

	if (superuser())
		return;
	role = GetUserNameFromId(GetUserId(), false);
	if (launch_max_duration >= 0 && opts->duration_given && opts->duration > launch_max_duration)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("duration must be at most %d seconds for role \"%s\", not %d",
						launch_max_duration, role, opts->duration),
				 errdetail("pgbenchx.max_duration limits the duration of each run of %s for roles that are not superusers.", what),
				 errhint("Pass a shorter duration, or ask a superuser to raise pgbenchx.max_duration.")));
	if (launch_max_clients >= 0)
		for (int i = 0; i < opts->nsteps; i++)
			if (opts->clients[i] > launch_max_clients)
				ereport(ERROR,
						(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
						 errmsg("clients must be at most %d for role \"%s\", not %d",
								launch_max_clients, role, opts->clients[i]),
						 errdetail("pgbenchx.max_clients limits the clients of each run of %s for roles that are not superusers.", what),
						 errhint("Pass fewer clients, or ask a superuser to raise pgbenchx.max_clients.")));
	if (launch_max_jobs >= 0 && opts->jobs_given && opts->jobs > launch_max_jobs)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("jobs must be at most %d for role \"%s\", not %d",
						launch_max_jobs, role, opts->jobs),
				 errdetail("pgbenchx.max_jobs limits the driver workers of each run of %s for roles that are not superusers.", what),
				 errhint("Pass fewer jobs, or ask a superuser to raise pgbenchx.max_jobs.")));
}

/*
 * Phase 1, the options: everything that can be refused from the arguments
 * alone, before anything is looked up.  Fills the spec's options; returns
 * the variables (-D) in defs, their number in *ndefs.
 */
static void
launch_check_options(const LaunchOptions *opts, const LaunchKind *kind, bool is_sweep,
					 RunSpec *spec, ScriptDefine *defs, int *ndefs)
{
	const char *what = opts->is_part ? "launch_part" : opts->nconfigs > 0 ? "run_experiment" :
		is_sweep ? "run_sweep" : "run_bench";

	if (launch_in_explicit_block())
		ereport(ERROR,
				(errcode(ERRCODE_ACTIVE_SQL_TRANSACTION),
				 errmsg("%s cannot run inside a transaction block", what),
				 errdetail("The clients could not see the transaction's uncommitted changes, and its locks would block them."),
				 errhint("Call %s outside BEGIN ... COMMIT, then wait with CALL pgbenchx.wait(id).", what)));

	launch_check_arguments(opts, what);
	launch_check_quotas(opts, what);
	spec->protocol = launch_protocol(opts->protocol);
	/* the label and the tags are refused here, before anything is looked up */
	if (opts->tags)
	{
		char	   *tags_text;

		if (!JB_ROOT_IS_OBJECT(opts->tags))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("tags must be a jsonb object"),
					 errhint("Pass tags => '{\"fs\": \"ext4\", \"barrier\": false}'.")));
		tags_text = JsonbToCString(NULL, &opts->tags->root, VARSIZE(opts->tags));
		if (strlen(tags_text) >= LAUNCH_TAGS_LEN)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("tags are too long"),
					 errhint("Keep tags under %d bytes.", LAUNCH_TAGS_LEN)));
		strlcpy(spec->tags, tags_text, sizeof(spec->tags));
	}
	/* the kind's own: a part's clients within the run's, its mix, part_of in the tags */
	if (kind->check_options)
		kind->check_options(opts, spec);
	if (opts->label && strlen(opts->label) >= LAUNCH_LABEL_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_STRING_DATA_RIGHT_TRUNCATION),
				 errmsg("label is too long"),
				 errhint("Keep the label under %d bytes.", LAUNCH_LABEL_LEN)));
	*ndefs = opts->variables ? script_sql_defines(opts->variables, defs) : 0;

	spec->is_sweep = is_sweep;
	/* repeats are interleaved: the whole ladder, then the whole ladder again */
	spec->repeats = opts->repeats;
	spec->nsteps = opts->nsteps * opts->repeats;
	for (int r = 0; r < opts->repeats; r++)
		for (int i = 0; i < opts->nsteps; i++)
		{
			spec->clients[r * opts->nsteps + i] = opts->clients[i];
			spec->step_repeat[r * opts->nsteps + i] = r + 1;
		}
	/* an experiment's steps are laid out already (launch_experiment_steps) */
	spec->config = -1;
	if (opts->nconfigs > 0)
	{
		spec->repeats = opts->experiment_repeats;
		spec->warmup = opts->warmup;
		spec->target_ci = opts->target_ci_given ? opts->target_ci : 0;
		spec->budget_s = opts->budget_given ? opts->budget : 0;
		for (int i = 0; i < opts->nsteps; i++)
		{
			spec->step_repeat[i] = opts->step_repeat[i];
			spec->step_config[i] = opts->step_config[i];
			spec->step_warmup[i] = opts->step_warmup[i];
		}
	}
	spec->jobs = opts->jobs_given ? opts->jobs : 0;
	spec->duration = opts->duration_given ? opts->duration : 0;
	spec->transactions = opts->transactions_given ? opts->transactions : 0;
	/* a run without a duration still ends within pgbenchx.max_duration */
	if (!opts->duration_given && !superuser() && launch_max_duration > 0)
		spec->time_limit_s = launch_max_duration;
	spec->knobs.rate = opts->rate_given ? opts->rate : 0;
	spec->knobs.latency_limit_usec = opts->latency_limit_given ?
		Max((int64) (opts->latency_limit * 1000.0), 1) : 0;
	spec->knobs.max_tries = opts->max_tries;
	spec->knobs.connect_per_transaction = opts->connect_per_transaction;
	spec->knobs.replay = opts->replay;
	spec->knobs.require_password = !superuser();
	spec->knobs.shuffle = opts->shuffle;
	spec->knobs.log_transactions = opts->log_transactions;
	spec->knobs.sampling_rate = opts->sampling_rate;
	spec->knobs.client_messages = opts->client_messages;
	spec->knobs.verbose_errors = opts->verbose_errors;
	spec->knobs.exit_on_abort = opts->exit_on_abort;
	spec->knobs.continue_on_error = opts->continue_on_error;
	spec->vacuum = opts->vacuum;
	spec->checkpoint = opts->checkpoint;
	spec->check_tpcb = opts->check_tpcb;
	spec->record_system = opts->record_system;
	spec->random_seed_given = opts->random_seed_given;
	spec->random_seed = opts->random_seed_given ? (uint64) opts->random_seed :
		(uint64) GetCurrentTimestamp();
	if (opts->label)
		strlcpy(spec->label, opts->label, sizeof(spec->label));
}

/*
 * Phase 2, the caller's conninfo: checked, recorded without its password,
 * and re-quoted for the clients (returned).  Without a password only a
 * superuser's clients may log in.
 */
static char *
launch_check_caller(const LaunchOptions *opts, RunSpec *spec, bool *remote)
{
	StringInfoData shown;
	StringInfoData quoted;

	bool		typed_password = false;

	initStringInfo(&shown);
	initStringInfo(&quoted);
	strlcpy(spec->owner, GetUserNameFromId(GetUserId(), false), sizeof(spec->owner));
	/* without a password, typed or the session's, refused there for a non-superuser */
	*remote = opts->conninfo ?
		launch_check_conninfo(opts->conninfo, &shown, &quoted, spec->owner, 0, &typed_password) : false;
	if (!superuser() && opts->conninfo == NULL && secret_session_kind() == SECRET_NONE)
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required"),
				 errdetail("A non-superuser's benchmark clients must log in with a password, so that they cannot borrow the server's own identity through trust or peer authentication."),
				 errhint("Give role \"%s\"'s password when the session starts (PGOPTIONS='-c " SECRET_GUC_NAME "=...'), or on PostgreSQL 18 log in with scram-sha-256; see docs/security.md.",
						 spec->owner)));
	strlcpy(spec->conninfo_shown, shown.data, sizeof(spec->conninfo_shown));
	/*
	 * The session's secret, when none was typed: for the clients' conninfo,
	 * which goes to libpq and the run's DSM segment only (a generator's
	 * target is stripped of it, fleet/kinds.c).  A superuser's clients that
	 * go elsewhere may log in as that server has them do (its password
	 * file): its SCRAM keys go only where they must.
	 */
	if (!typed_password &&
		(!superuser() || !*remote || secret_session_kind() == SECRET_PASSWORD))
		(void) secret_append_session(&quoted);
	return quoted.data;
}

/*
 * Phase 3, the script mix: resolved, parsed and checked once (with
 * check_tpcb); the payload gets the scripts, the variables and the
 * commands' first lines.  Returns
 * whether a built-in script is in the mix (the scale is then read).
 */
static bool
launch_build_mix(const LaunchOptions *opts, const LaunchKind *kind, RunSpec *spec,
				 const ScriptDefine *defs, int ndefs, StringInfo payload)
{
	StringInfoData display;
	bool		builtin;

	initStringInfo(&display);
	if (opts->inline_script)
	{
		/* run_replay: the statements are the one script */
		appendStringInfoString(payload, "replay");
		appendStringInfoChar(payload, '\0');
		appendStringInfoString(payload, "1");
		appendStringInfoChar(payload, '\0');
		appendBinaryStringInfo(payload, opts->inline_script, strlen(opts->inline_script) + 1);
		appendStringInfoString(&display, "replay");
		spec->nscripts = 1;
		builtin = false;
	}
	else if (opts->scripts && kind->build_mix)
		spec->nscripts = kind->build_mix(opts, payload, &display, &builtin);
	else
		spec->nscripts = launch_scripts(opts->script, payload, &display, &builtin);
	strlcpy(spec->script_name, display.data, sizeof(spec->script_name));
	spec->ndefines = ndefs;
	for (int i = 0; i < ndefs; i++)
	{
		appendBinaryStringInfo(payload, defs[i].name, strlen(defs[i].name) + 1);
		appendBinaryStringInfo(payload, defs[i].value, strlen(defs[i].value) + 1);
	}
	launch_check_scripts(spec, payload);
	return builtin;
}

/*
 * Phase 4, the server: no other run, enough worker slots, connections and
 * open files, and the clients can log in (which reads the scale for the
 * built-in scripts).  Fills the spec's conninfo, scale and ncpus.
 */
static void
launch_check_server(const LaunchOptions *opts, const LaunchKind *kind, RunSpec *spec,
					const char *quoted, bool remote, bool builtin, TrustClients *clients)
{
	int			max_clients = 0;
	int			max_jobs;
	int			free_slots;
	int			share_slots = INT_MAX;
	int			avail_slots;
	int			in_use = -1;
	bool		su = superuser();
	char	   *dbname;
	char	   *conninfo;
	bool		own_options;

	for (int i = 0; i < opts->nsteps; i++)
		max_clients = Max(max_clients, opts->clients[i]);

	/* the recorder's own share of its run goes beside it, without the lock (fleet/part.c) */
	spec->part_unlocked = kind->runs_unlocked && kind->runs_unlocked(opts);
	if (!spec->part_unlocked)
		launch_check_no_run();

	spec->ncpus = (int) sysconf(_SC_NPROCESSORS_ONLN);
	free_slots = launch_free_worker_slots();
	/*
	 * A role that is not a superuser: at most its share of the slots
	 * (pgbenchx.max_worker_share), and never the last free ones
	 * (pgbenchx.worker_headroom); the jobs chosen for it fit both
	 */
	if (!su && launch_max_worker_share >= 0)
		share_slots = (int) ((int64) max_worker_processes * launch_max_worker_share / 100);
	avail_slots = su ? free_slots : Min(free_slots - launch_worker_headroom, share_slots);
	max_jobs = opts->jobs_given ? Min(opts->jobs, max_clients) :
		worker_default_jobs(max_clients, spec->ncpus, avail_slots);
	/* the jobs chosen for a role with a quota: at most pgbenchx.max_jobs, and its share */
	if (!opts->jobs_given && !su)
	{
		int			cap = launch_max_jobs >= 0 ? launch_max_jobs : INT_MAX;

		if (share_slots < INT_MAX)
			cap = Min(cap, Max(share_slots - 1, 1));
		if (worker_default_jobs(max_clients, spec->ncpus, max_worker_processes) > cap)
		{
			spec->jobs = cap;
			max_jobs = Min(max_jobs, spec->jobs);
		}
	}
	/* with generators, only the coordinator runs here (fleet/ counts theirs) */
	if (kind->remote_clients)
		max_jobs = 0;
	if (max_jobs + 1 > share_slots)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%s %s %d background worker slots, but a run of role \"%s\" may take at most %d",
						launch_count(max_jobs, "job", "jobs"), max_jobs == 1 ? "needs" : "need",
						max_jobs + 1, spec->owner, share_slots),
				 errdetail("Asked %d (one coordinator and one worker per job), allowed %d: pgbenchx.max_worker_share is %d%% of max_worker_processes (%d).",
						   max_jobs + 1, share_slots, launch_max_worker_share, max_worker_processes),
				 errhint("Pass fewer jobs, or ask a superuser to raise pgbenchx.max_worker_share.")));
	if (max_jobs + 1 > avail_slots)
	{
		int			shown = Max(su ? free_slots : free_slots - launch_worker_headroom, 0);

		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("%s %s %d background worker slots, but only %d %s free",
						launch_count(max_jobs, "job", "jobs"), max_jobs == 1 ? "needs" : "need",
						max_jobs + 1, shown, shown == 1 ? "is" : "are"),
				 su ? errdetail("A run takes one coordinator and one worker per job; asked %d, free %d, limit %d (max_worker_processes).",
								max_jobs + 1, shown, max_worker_processes) :
				 errdetail("A run takes one coordinator and one worker per job; asked %d, free %d, limit %d (max_worker_processes), and pgbenchx.worker_headroom keeps %d free for others.",
						   max_jobs + 1, shown, max_worker_processes, launch_worker_headroom),
				 errhint("Pass fewer jobs, or raise max_worker_processes (this needs a restart).")));
	}

	if (!remote)
		launch_check_connections(max_clients);
	if (!kind->remote_clients)
		launch_check_nofile(opts, spec->ncpus);

	dbname = get_database_name(MyDatabaseId);
	/*
	 * pgbenchx's own startup option (client_connection_check_interval) goes
	 * with every connection, unless a conninfo that leads elsewhere reaches
	 * a pooler that refuses the "options" parameter pgbench never sends
	 * (pgbouncer's usual settings): then none of the run's connections
	 * sends it.  The caller's own options are theirs to fix (the hint).
	 */
	own_options = true;
	do
	{
		conninfo = loopback_conninfo(dbname, spec->owner, "pgbenchx check", quoted, own_options);
		if (spec->knobs.require_password)
			conninfo = conninfo_pinned(conninfo);
		spec->scale_detected = launch_check_login(conninfo, spec->owner, builtin, clients,
												  own_options && remote &&
												  !loopback_conninfo_has(quoted, "options"),
												  &in_use);
		if (spec->scale_detected == -1)
			own_options = false;
	} while (spec->scale_detected == -1);
	/*
	 * Wherever the conninfo leads (a host, a port, the generators' target),
	 * clients that reach this server take its connections: counted again,
	 * as the login saw them
	 */
	if (in_use >= 0)
		launch_check_connections_in_use(max_clients, in_use);
	/*
	 * Each client puts its own application_name in front of this; the
	 * coordinator's maintenance and check_tpcb use it as it is.  Pinned for a
	 * non-superuser, so that no connection of the run can use a secret of
	 * the server's account (conninfo.c).
	 */
	conninfo = loopback_conninfo(dbname, spec->owner, NULL, quoted, own_options);
	if (spec->knobs.require_password)
		conninfo = conninfo_pinned(conninfo);
	if (strlen(conninfo) >= RUN_CONNINFO_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("conninfo is too long"),
				 errhint("Keep conninfo under %d bytes.", RUN_CONNINFO_LEN / 2)));
	strlcpy(spec->conninfo, conninfo, sizeof(spec->conninfo));
}

/*
 * Phase 4b, whose code the run would execute: every relation the scripts,
 * the maintenance and check_tpcb name, as the clients resolve them, and
 * the code those relations run, must be trusted by the clients' role
 * (trust.c); the coordinator checks again before each step.
 */
static void
launch_check_trust(const RunSpec *spec, const char *payload, const TrustClients *clients)
{
	RunMix		mix;

	run_spec_mix(spec, payload, &mix);
	trust_check_run(spec, clients, mix.nscripts, mix.names, mix.texts);
}

/* ---------------------------------------------------------------------
 * run_experiment (issue 23): configurations alternated at each client count
 * --------------------------------------------------------------------- */

/* a string member of a configuration, or NULL */
static const char *
launch_config_string(JsonbValue *v, int index, const char *key)
{
	if (v->type != jbvString)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: \"%s\" must be a string", index + 1, key),
				 errhint("Pass configs => '[{\"name\": \"a\", \"%s\": \"...\"}, ...]'.", key)));
	return pnstrdup(v->val.string.val, v->val.string.len);
}

/*
 * rate or latency_limit of a configuration: a number within the bounds
 * run_bench's own checks (options.c) keep, in the same words
 */
static double
launch_config_number(JsonbValue *v, int index, const char *key)
{
	double		d;
	bool		is_rate = strcmp(key, "rate") == 0;

	if (v->type != jbvNumeric)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: \"%s\" must be a number", index + 1, key),
				 errhint("Pass configs => '[{\"name\": \"a\", \"%s\": %s}, ...]'.", key,
						 is_rate ? "100" : "10")));
	d = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(v->val.numeric)));
	if (is_rate && !(d >= PGBX_MIN_RATE && d <= PGBX_MAX_RATE))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: invalid rate limit: %g", index + 1, d),
				 errdetail("rate is the target of transactions per second of all clients together, as pgbench -R."),
				 errhint("Pass a rate between %g and %g, or leave it out to run as fast as possible.",
						 PGBX_MIN_RATE, PGBX_MAX_RATE)));
	if (!is_rate && !(d > 0 && d <= PGBX_MAX_LATENCY_LIMIT_MS))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: invalid latency limit: %g", index + 1, d),
				 errdetail("latency_limit is in milliseconds, as pgbench -L."),
				 errhint("Pass a latency limit greater than 0 and at most %g.",
						 PGBX_MAX_LATENCY_LIMIT_MS)));
	return d;
}

/* jobs of a configuration: an integer of 1 or more, as run_bench's */
static int
launch_config_jobs(JsonbValue *v, int index)
{
	double		d = 0;

	if (v->type == jbvNumeric)
		d = DatumGetFloat8(DirectFunctionCall1(numeric_float8, NumericGetDatum(v->val.numeric)));
	if (v->type != jbvNumeric || d != floor(d) || d > PG_INT32_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: \"jobs\" must be an integer", index + 1),
				 errhint("Pass configs => '[{\"name\": \"a\", \"jobs\": 2}, ...]'.")));
	if (d < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: jobs must be at least 1, not %.0f", index + 1, d),
				 errdetail("jobs is the number of driver workers, as pgbench -j."),
				 errhint("Pass 1 or more jobs, or leave it out to have the experiment's.")));
	return (int) d;
}

/* a session setting's value as SET takes it: a string, a number or a boolean */
static const char *
launch_setting_value(JsonbValue *v, int index, const char *name)
{
	switch (v->type)
	{
		case jbvString:
			return pnstrdup(v->val.string.val, v->val.string.len);
		case jbvNumeric:
			return DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(v->val.numeric)));
		case jbvBool:
			return v->val.boolean ? "on" : "off";
		default:
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("configuration %d: the value of setting \"%s\" must be a string, a number or a boolean",
							index + 1, name),
					 errhint("Pass \"settings\": {\"%s\": \"value\"}.", name)));
	}
	return NULL;				/* keep compiler quiet */
}

/*
 * n names and values, each NUL-terminated, one after the other into dst
 * (name, value, name, ...), as RunConfig keeps a configuration's settings;
 * launch_config_settings bounded their total length.
 */
static void
launch_pack_pairs(char *dst, int n, const char **names, const char **values)
{
	for (int i = 0; i < n; i++)
	{
		size_t		nl = strlen(names[i]) + 1;
		size_t		vl = strlen(values[i]) + 1;

		memcpy(dst, names[i], nl);
		memcpy(dst + nl, values[i], vl);
		dst += nl + vl;
	}
}

/*
 * A session setting of a configuration, checked as SET would check it in
 * the clients' session, without changing anything here.  The settings that
 * decide whose objects the clients reach (search_path, role,
 * session_authorization) are refused: the trust check reads the clients'
 * own.
 */
static void
launch_check_setting(int index, const char *name, const char *value)
{
	static const char *const refused[] = {"search_path", "role", "session_authorization"};

	for (int i = 0; i < (int) lengthof(refused); i++)
		if (pg_strcasecmp(name, refused[i]) == 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("configuration %d: setting \"%s\" cannot be a configuration's session setting",
							index + 1, name),
					 errdetail("It decides whose tables and functions the clients reach, which pgbenchx checks before each run with the clients' own settings."),
					 errhint("Set it for the role or the database (ALTER ROLE ... SET), or compare databases with \"dbname\".")));
	/* not a placeholder for a name nothing defines: that would stay in this session */
	if (GetConfigOption(name, true, false) == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("unrecognized configuration parameter \"%s\"", script_sql_echo(name)),
				 errdetail("Configuration %d sets it as a session setting.", index + 1),
				 errhint("SHOW ALL lists the settings; a module's own are known once it is loaded.")));
	(void) set_config_option(name, value, superuser() ? PGC_SUSET : PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SET, false, ERROR, false);
}

/*
 * A server setting of a configuration (a superuser's): one that a reload
 * applies (ALTER SYSTEM and pg_reload_conf, in the coordinator), with a
 * value the server takes; refused are those that need a restart.
 */
static void
launch_check_server_setting(int index, const char *name, const char *value)
{
	Oid			argtypes[1] = {TEXTOID};
	Datum		args[1];
	char	   *context;

	if (!superuser())
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("configuration %d: only a superuser may set server settings", index + 1),
				 errdetail("A configuration's \"server\" settings are written with ALTER SYSTEM for the whole server."),
				 errhint("Ask a superuser to run the experiment, or compare session settings (\"settings\").")));
	args[0] = CStringGetTextDatum(name);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	if (SPI_execute_with_args("SELECT context FROM pg_catalog.pg_settings "
							  "WHERE pg_catalog.lower(name) OPERATOR(pg_catalog.=) pg_catalog.lower($1)",
							  1, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "could not read pg_settings");
	if (SPI_processed == 0)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("configuration %d: server setting: unrecognized configuration parameter \"%s\"", index + 1,
						script_sql_echo(name)),
				 errhint("SELECT name FROM pg_settings lists the server's settings.")));
	context = MemoryContextStrdup(CurTransactionContext,
								  SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1));
	SPI_finish();
	if (strcmp(context, "postmaster") == 0 || strcmp(context, "internal") == 0)
		ereport(ERROR,
				(errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
				 errmsg("configuration %d: parameter \"%s\" cannot be changed without restarting the server",
						index + 1, script_sql_echo(name)),
				 errdetail("An experiment applies its server settings with ALTER SYSTEM and a reload, between runs."),
				 errhint("Run the same experiment before and after the restart and compare the two (docs/comparing.md, \"Settings that need a restart\").")));
	(void) set_config_option(name, value, PGC_SIGHUP, PGC_S_FILE, GUC_ACTION_SET, false, ERROR, false);
}

static void
launch_config_settings(JsonbValue *v, int index, LaunchConfig *cfg, bool server)
{
	JsonbIterator *it;
	JsonbValue	k;
	JsonbIteratorToken tok;
	int			n;
	Size		len = 0;

	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: \"%s\" must be an object", index + 1, server ? "server" : "settings"),
				 errhint("Pass \"settings\": {\"synchronous_commit\": \"off\", \"work_mem\": \"8MB\"}.")));
	n = JsonContainerSize(v->val.binary.data);
	if (server)
	{
		cfg->server_names = palloc0(sizeof(char *) * Max(n, 1));
		cfg->server_values = palloc0(sizeof(char *) * Max(n, 1));
	}
	else
	{
		cfg->setting_names = palloc0(sizeof(char *) * Max(n, 1));
		cfg->setting_values = palloc0(sizeof(char *) * Max(n, 1));
	}
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		JsonbValue	val;
		const char *name;
		const char *value;

		if (tok != WJB_KEY)
			continue;
		name = pnstrdup(k.val.string.val, k.val.string.len);
		tok = JsonbIteratorNext(&it, &val, true);
		value = launch_setting_value(&val, index, name);
		if (server)
			launch_check_server_setting(index, name, value);
		else
			launch_check_setting(index, name, value);
		len += strlen(name) + strlen(value) + 2;
		if (len >= RUN_SPEC_SETTINGS_LEN)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("configuration %d: its settings are too long", index + 1),
					 errhint("Keep a configuration's settings under %d bytes.", RUN_SPEC_SETTINGS_LEN)));
		if (server)
		{
			cfg->server_names[cfg->nserver] = name;
			cfg->server_values[cfg->nserver] = value;
			cfg->nserver++;
		}
		else
		{
			cfg->setting_names[cfg->nsettings] = name;
			cfg->setting_values[cfg->nsettings] = value;
			cfg->nsettings++;
		}
	}
}

/* what a configuration may set, for the hints */
#define LAUNCH_CONFIG_MEMBERS \
	"name, conninfo, dbname, protocol, script, jobs, rate, latency_limit, settings and server"

/*
 * An option of run_experiment that its configurations may not vary: it
 * shapes the experiment (the steps, their length, the maintenance) or what
 * the runs record alike.  Said so, rather than "no member".
 */
static bool
launch_experiment_wide(const char *key)
{
	static const char *const wide[] = {
		"duration", "transactions", "vacuum", "checkpoint", "label",
		"random_seed", "variables", "max_tries", "connect_per_transaction",
		"tags", "check_tpcb", "record_system", "repeats", "warmup",
		"target_ci", "budget", "min_clients", "max_clients", "clients"
	};

	for (int i = 0; i < (int) lengthof(wide); i++)
		if (strcmp(key, wide[i]) == 0)
			return true;
	return false;
}

/*
 * one configuration: name, conninfo, dbname, protocol, script, jobs, rate,
 * latency_limit, settings, server
 */
static void
launch_config(JsonbValue *v, int index, const LaunchOptions *opts, LaunchConfig *cfg)
{
	JsonbIterator *it;
	JsonbValue	k;
	JsonbIteratorToken tok;
	const char *conninfo = NULL;
	const char *dbname = NULL;

	if (v->type != jbvBinary || !JsonContainerIsObject(v->val.binary.data))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d must be a jsonb object", index + 1),
				 errhint("Pass configs => '[{\"name\": \"a\"}, {\"name\": \"b\", \"settings\": {\"work_mem\": \"8MB\"}}]'.")));
	memset(cfg, 0, sizeof(*cfg));
	it = JsonbIteratorInit(v->val.binary.data);
	while ((tok = JsonbIteratorNext(&it, &k, true)) != WJB_DONE)
	{
		JsonbValue	val;
		char	   *key;

		if (tok != WJB_KEY)
			continue;
		key = pnstrdup(k.val.string.val, k.val.string.len);
		tok = JsonbIteratorNext(&it, &val, true);
		if (strcmp(key, "name") == 0)
			cfg->name = launch_config_string(&val, index, key);
		else if (strcmp(key, "conninfo") == 0)
			conninfo = launch_config_string(&val, index, key);
		else if (strcmp(key, "dbname") == 0)
			dbname = launch_config_string(&val, index, key);
		else if (strcmp(key, "protocol") == 0)
			cfg->protocol = launch_config_string(&val, index, key);
		else if (strcmp(key, "script") == 0)
			cfg->script = launch_config_string(&val, index, key);
		else if (strcmp(key, "jobs") == 0)
		{
			cfg->jobs = launch_config_jobs(&val, index);
			cfg->jobs_given = true;
		}
		else if (strcmp(key, "rate") == 0)
		{
			cfg->rate = launch_config_number(&val, index, key);
			cfg->rate_given = true;
		}
		else if (strcmp(key, "latency_limit") == 0)
		{
			cfg->latency_limit = launch_config_number(&val, index, key);
			cfg->latency_limit_given = true;
		}
		else if (strcmp(key, "settings") == 0)
			launch_config_settings(&val, index, cfg, false);
		else if (strcmp(key, "server") == 0)
			launch_config_settings(&val, index, cfg, true);
		else if (launch_experiment_wide(key))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("configuration %d cannot set \"%s\"", index + 1, key),
					 errdetail("\"%s\" is the experiment's, the same for every configuration.", key),
					 errhint("A configuration may have " LAUNCH_CONFIG_MEMBERS ".")));
		else
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("configuration %d has no member \"%s\"", index + 1, script_sql_echo(key)),
					 errhint("A configuration may have " LAUNCH_CONFIG_MEMBERS ".")));
	}
	if (cfg->name == NULL || cfg->name[0] == '\0' || strlen(cfg->name) >= NAMEDATALEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d needs a name of 1 to %d bytes", index + 1, NAMEDATALEN - 1),
				 errhint("Pass {\"name\": \"ext4\", ...}.")));
	if (cfg->protocol)
		(void) launch_protocol(cfg->protocol);
	if (cfg->nsettings > 0 && opts->connect_per_transaction)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configuration %d: session settings cannot be used with connect_per_transaction", index + 1),
				 errdetail("Each client applies its session settings once, after it connects."),
				 errhint("Leave connect_per_transaction out, or set the settings for the role or the database.")));
	/* dbname goes after the conninfo (the configuration's, or the experiment's): it wins */
	if (dbname)
	{
		StringInfoData buf;

		initStringInfo(&buf);
		if (conninfo || opts->conninfo)
			appendStringInfo(&buf, "%s ", conninfo ? conninfo : opts->conninfo);
		loopback_append_param(&buf, "dbname", dbname);
		conninfo = buf.data;
	}
	cfg->conninfo = conninfo;
}

void
launch_experiment_steps(LaunchOptions *opts, const int *clients, int nclients)
{
	Jsonb	   *configs = opts->configs_given;
	int			nconfigs;
	int			rounds;
	int			n = 0;

	if (configs == NULL || !JB_ROOT_IS_ARRAY(configs) || JB_ROOT_IS_SCALAR(configs))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("configs must be a jsonb array of configurations"),
				 errhint("Pass configs => '[{\"name\": \"a\"}, {\"name\": \"b\", \"settings\": {\"work_mem\": \"8MB\"}}]'.")));
	nconfigs = JB_ROOT_COUNT(configs);
	if (nconfigs < 2 || nconfigs > RUN_SPEC_MAX_CONFIGS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("an experiment has 2 to %d configurations, not %d", RUN_SPEC_MAX_CONFIGS, nconfigs),
				 errdetail("The first configuration is the baseline the others are compared with."),
				 errhint("Pass configs => '[{\"name\": \"a\"}, {\"name\": \"b\", ...}]'.")));
	opts->nconfigs = nconfigs;
	opts->configs = palloc0(sizeof(LaunchConfig) * nconfigs);
	for (int i = 0; i < nconfigs; i++)
	{
		JsonbValue *v = getIthJsonbValueFromContainer(&configs->root, i);

		launch_config(v, i, opts, &opts->configs[i]);
		for (int j = 0; j < i; j++)
			if (strcmp(opts->configs[j].name, opts->configs[i].name) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("configurations %d and %d have the same name \"%s\"",
								j + 1, i + 1, script_sql_echo(opts->configs[i].name)),
						 errhint("Give each configuration its own name.")));
	}

	if (opts->target_ci_given != opts->budget_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("target_ci and budget go together"),
				 errdetail("With target_ci, ABBA blocks are added until each ratio's interval is within it or the budget runs out."),
				 errhint("Pass both target_ci => 0.02 and budget => seconds, or neither.")));
	if (opts->budget_given && !superuser() && launch_max_duration > 0 && opts->budget > launch_max_duration)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("budget %d s is above pgbenchx.max_duration (%d s)", opts->budget, launch_max_duration),
				 errdetail("A role that is not a superuser runs at most pgbenchx.max_duration seconds per call."),
				 errhint("Pass a smaller budget, or ask a superuser to raise pgbenchx.max_duration.")));
	if (opts->target_ci_given && !opts->duration_given)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("target_ci needs a duration"),
				 errdetail("Runs bounded by transactions differ in length, and the budget is in seconds."),
				 errhint("Pass duration => seconds.")));
	rounds = opts->warmup + opts->experiment_repeats;
	if ((int64) nclients * nconfigs * rounds > LAUNCH_MAX_STEPS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("an experiment has at most %d runs, not %s times %d configurations times %d",
						LAUNCH_MAX_STEPS, launch_count(nclients, "client count", "client counts"),
						nconfigs, rounds),
				 errdetail("Each configuration runs warmup + repeats times at each client count."),
				 errhint("Pass fewer client counts, configurations or repeats.")));
	opts->clients = palloc(sizeof(int) * LAUNCH_MAX_STEPS);
	opts->step_repeat = palloc(sizeof(int) * LAUNCH_MAX_STEPS);
	opts->step_config = palloc(sizeof(int) * LAUNCH_MAX_STEPS);
	opts->step_warmup = palloc(sizeof(bool) * LAUNCH_MAX_STEPS);

	/*
	 * At each client count: the warm-ups, each round the configurations in
	 * order; then the counted rounds, in order and reversed in turn (A B,
	 * B A, A B ...: ABBA blocks), so that a drift of the machine during a
	 * client count spreads over every configuration.
	 */
	for (int c = 0; c < nclients; c++)
		for (int r = 0; r < rounds; r++)
		{
			bool		warm = r < opts->warmup;
			bool		reversed = !warm && (r - opts->warmup) % 2 == 1;

			for (int k = 0; k < nconfigs; k++)
			{
				opts->clients[n] = clients[c];
				opts->step_config[n] = reversed ? nconfigs - 1 - k : k;
				opts->step_warmup[n] = warm;
				opts->step_repeat[n] = warm ? r + 1 : r - opts->warmup + 1;
				n++;
			}
		}
	opts->nsteps = n;
	opts->repeats = 1;
}

/* the context of an error in a configuration's mix */
static void
launch_config_context(void *arg)
{
	errcontext("configuration %d of run_experiment", *(int *) arg + 1);
}

/*
 * sweeps.script of an experiment: the mixes its configurations run, each
 * once, in their order, " | " between them (the experiment's own script
 * only if a configuration runs it); "per configuration" if they do not fit.
 */
static void
launch_configs_script_name(RunSpec *spec)
{
	StringInfoData buf;

	initStringInfo(&buf);
	for (int i = 0; i < spec->nconfigs; i++)
	{
		bool		seen = false;

		for (int j = 0; j < i && !seen; j++)
			seen = strcmp(spec->configs[j].script_name, spec->configs[i].script_name) == 0;
		if (!seen)
			appendStringInfo(&buf, "%s%s", buf.len > 0 ? " | " : "", spec->configs[i].script_name);
	}
	strlcpy(spec->script_name, buf.len < RUN_SCRIPT_NAME_LEN ? buf.data : "per configuration",
			sizeof(spec->script_name));
	pfree(buf.data);
}

/*
 * The configurations of an experiment, each checked as a run of its own
 * would be (its conninfo, the clients' login and tables, its script mix
 * resolved, parsed and allowed as run_bench's, whose code its statements
 * reach, its protocol against its scripts) and written into the spec, with
 * sweeps.configs (passwords removed).  A configuration that names a script
 * has its mix appended to the payload (RunConfig.mix_off); the others run
 * the experiment's, at 0.  The spec's own conninfo is the first
 * configuration's.
 */
static void
launch_check_configs(const LaunchOptions *opts, const LaunchKind *kind, RunSpec *spec,
					 const ScriptDefine *defs, int ndefs, bool builtin, StringInfo payload)
{
	StringInfoData json;
	Size		base_len = spec->payload_len;
	Size		configs_len = 0;

	Assert(spec->generators_len == 0 && (Size) payload->len == base_len);
	initStringInfo(&json);
	appendStringInfoChar(&json, '[');
	spec->nconfigs = opts->nconfigs;
	for (int i = 0; i < opts->nconfigs; i++)
	{
		const LaunchConfig *cfg = &opts->configs[i];
		RunConfig  *out = &spec->configs[i];
		LaunchOptions o = *opts;
		RunSpec    *t = palloc(sizeof(RunSpec));
		char	   *quoted;
		bool		remote;
		bool		own_builtin = builtin;
		bool		rebuilt = false;
		StringInfoData own = {0};
		TrustClients clients;

		memcpy(t, spec, sizeof(RunSpec));
		o.conninfo = cfg->conninfo ? cfg->conninfo : opts->conninfo;
		o.protocol = cfg->protocol ? cfg->protocol : opts->protocol;
		o.script = cfg->script ? cfg->script : opts->script;
		if (cfg->jobs_given)
		{
			/* its own jobs: within a role's quota, and the worker slots (launch_check_server) */
			o.jobs_given = true;
			o.jobs = cfg->jobs;
			t->jobs = cfg->jobs;
			launch_check_quotas(&o, "run_experiment");
		}
		t->protocol = launch_protocol(o.protocol);
		/*
		 * A script of its own, or another protocol: its mix built and checked
		 * as run_bench's (an unknown script, another role's, a pipeline its
		 * protocol refuses)
		 */
		if (cfg->script || t->protocol != spec->protocol)
		{
			ErrorContextCallback ctx;

			/* its errors are run_bench's, said of this configuration */
			ctx.callback = launch_config_context;
			ctx.arg = &i;
			ctx.previous = error_context_stack;
			error_context_stack = &ctx;
			initStringInfo(&own);
			own_builtin = launch_build_mix(&o, kind, t, defs, ndefs, &own);
			rebuilt = true;
			error_context_stack = ctx.previous;
		}
		if (cfg->script && configs_len + own.len > RUN_SPEC_CONFIGS_MIX_LEN)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the configurations' scripts are too long"),
					 errdetail("The scripts of configurations 1 to %d come to %zu bytes with their first lines, above %d.",
							   i + 1, configs_len + own.len, RUN_SPEC_CONFIGS_MIX_LEN),
					 errhint("Give fewer or shorter scripts to the configurations.")));
		quoted = launch_check_caller(&o, t, &remote);
		launch_check_server(&o, kind, t, quoted, remote, own_builtin, &clients);
		launch_check_trust(t, rebuilt ? own.data : payload->data, &clients);

		strlcpy(out->name, cfg->name, sizeof(out->name));
		out->protocol = t->protocol;
		out->scale_detected = t->scale_detected;
		strlcpy(out->conninfo, t->conninfo, sizeof(out->conninfo));
		strlcpy(out->conninfo_shown, t->conninfo_shown, sizeof(out->conninfo_shown));
		out->nsettings = cfg->nsettings;
		launch_pack_pairs(out->settings, cfg->nsettings, cfg->setting_names, cfg->setting_values);
		out->nserver = cfg->nserver;
		launch_pack_pairs(out->server, cfg->nserver, cfg->server_names, cfg->server_values);
		out->jobs = t->jobs;
		out->rate = cfg->rate_given ? cfg->rate : spec->knobs.rate;
		out->latency_limit_usec = cfg->latency_limit_given ?
			Max((int64) (cfg->latency_limit * 1000.0), 1) : spec->knobs.latency_limit_usec;
		/* its mix: its own after the experiment's, or the experiment's */
		if (cfg->script)
		{
			out->mix_off = payload->len;
			out->mix_len = own.len;
			appendBinaryStringInfo(payload, own.data, own.len);
			configs_len += own.len;
		}
		else
		{
			out->mix_off = 0;
			out->mix_len = base_len;
		}
		out->nscripts = t->nscripts;
		out->ncommands = t->ncommands;
		memcpy(out->script_commands, t->script_commands, sizeof(out->script_commands));
		strlcpy(out->script_name, t->script_name, sizeof(out->script_name));

		appendStringInfoString(&json, i > 0 ? ", {\"name\": " : "{\"name\": ");
		escape_json(&json, cfg->name);
		appendStringInfoString(&json, ", \"protocol\": ");
		escape_json(&json, o.protocol);
		if (cfg->script)
		{
			/* as runs.script shows it: the names resolved, the weights */
			appendStringInfoString(&json, ", \"script\": ");
			escape_json(&json, t->script_name);
		}
		if (cfg->jobs_given)
			appendStringInfo(&json, ", \"jobs\": %d", cfg->jobs);
		if (cfg->rate_given)
			appendStringInfo(&json, ", \"rate\": %.15g", cfg->rate);
		if (cfg->latency_limit_given)
			appendStringInfo(&json, ", \"latency_limit\": %.15g", cfg->latency_limit);
		appendStringInfoString(&json, ", \"conninfo\": ");
		if (t->conninfo_shown[0])
			escape_json(&json, t->conninfo_shown);
		else
			appendStringInfoString(&json, "null");
		appendStringInfoString(&json, ", \"settings\": {");
		for (int s = 0; s < cfg->nsettings; s++)
		{
			if (s > 0)
				appendStringInfoString(&json, ", ");
			escape_json(&json, cfg->setting_names[s]);
			appendStringInfoString(&json, ": ");
			escape_json(&json, cfg->setting_values[s]);
		}
		appendStringInfoString(&json, "}");
		if (cfg->nserver > 0)
		{
			appendStringInfoString(&json, ", \"server\": {");
			for (int s = 0; s < cfg->nserver; s++)
			{
				if (s > 0)
					appendStringInfoString(&json, ", ");
				escape_json(&json, cfg->server_names[s]);
				appendStringInfoString(&json, ": ");
				escape_json(&json, cfg->server_values[s]);
			}
			appendStringInfoChar(&json, '}');
		}
		appendStringInfoChar(&json, '}');
		if (rebuilt)
			pfree(own.data);
		pfree(t);
	}
	/* the experiment's mix, then the configurations' own (run_spec.h) */
	spec->configs_len = configs_len;
	spec->payload_len = payload->len;
	launch_configs_script_name(spec);
	appendStringInfoChar(&json, ']');
	if (json.len >= RUN_SPEC_CONFIGS_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the configurations are too long"),
				 errhint("Keep the configurations under %d bytes.", RUN_SPEC_CONFIGS_LEN)));
	strlcpy(spec->configs_json, json.data, sizeof(spec->configs_json));
	/* the experiment's own: the baseline's */
	spec->protocol = spec->configs[0].protocol;
	spec->scale_detected = spec->configs[0].scale_detected;
	strlcpy(spec->conninfo, spec->configs[0].conninfo, sizeof(spec->conninfo));
	strlcpy(spec->conninfo_shown, spec->configs[0].conninfo_shown, sizeof(spec->conninfo_shown));
}

/*
 * Phase 5, the launch segment: the spec, its payload and the handshake,
 * laid out with shm_toc.
 */
static dsm_segment *
launch_setup_segment(const RunSpec *spec, const char *payload, LaunchHandshake **hs_out)
{
	shm_toc_estimator e;
	Size		size;
	dsm_segment *seg;
	shm_toc    *toc;
	LaunchHandshake *hs;

	shm_toc_initialize_estimator(&e);
	run_spec_estimate(&e, spec);
	shm_toc_estimate_chunk(&e, sizeof(LaunchHandshake));
	shm_toc_estimate_keys(&e, 1);
	size = shm_toc_estimate(&e);

	seg = dsm_create(size, 0);
	toc = shm_toc_create(RUN_SPEC_LAUNCH_MAGIC, dsm_segment_address(seg), size);
	run_spec_store(toc, spec, payload);
	hs = shm_toc_allocate(toc, sizeof(LaunchHandshake));
	memset(hs, 0, sizeof(LaunchHandshake));
	hs->caller_procno = PGX_PROCNO(MyProc);
	hs->caller_pid = MyProcPid;
	hs->coordinator_procno = -1;
	pg_atomic_init_u32(&hs->status, LAUNCH_PENDING);
	shm_toc_insert(toc, RUN_SPEC_KEY_HANDSHAKE, hs);
	*hs_out = hs;
	return seg;
}

/* Phase 6, the coordinator: start it and wait until it has answered. */
static void
launch_wait_for_coordinator(dsm_segment *seg, LaunchHandshake *hs, bool is_sweep, int64 id)
{
	BackgroundWorker worker;
	BackgroundWorkerHandle *handle;
	BgwHandleStatus bgw_status;
	pid_t		pid;

	worker_spec(&worker, "coordinator_main", "pgbenchx coordinator",
				UInt32GetDatum(dsm_segment_handle(seg)));
	snprintf(worker.bgw_name, BGW_MAXLEN, "pgbenchx coordinator of %s " INT64_FORMAT,
			 is_sweep ? "sweep" : "run", id);

	if (!RegisterDynamicBackgroundWorker(&worker, &handle))
		ereport(ERROR,
				(errcode(ERRCODE_CONFIGURATION_LIMIT_EXCEEDED),
				 errmsg("could not start the pgbenchx coordinator: no free background worker slot"),
				 errhint("Raise max_worker_processes (this needs a restart), or wait for parallel queries to end.")));
	launch_pending.handle = handle;

	bgw_status = WaitForBackgroundWorkerStartup(handle, &pid);
	if (bgw_status != BGWH_STARTED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the pgbenchx coordinator did not start"),
				 errhint("See the server log.")));

	/* wait until it has taken the run over, or said why it could not */
	while (pg_atomic_read_u32(&hs->status) == LAUNCH_PENDING)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(&hs->status) == LAUNCH_PENDING &&
			GetBackgroundWorkerPid(handle, &pid) == BGWH_STOPPED)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the pgbenchx coordinator exited before the run started"),
					 errhint("See the server log.")));
	}
	pg_read_barrier();
	if (pg_atomic_read_u32(&hs->status) == LAUNCH_FAILED)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("%s", hs->error),
				 errhint("Only one run at a time per cluster: wait for the other with CALL pgbenchx.wait(id).")));
}

int64
launch_start(const LaunchOptions *opts, bool is_sweep)
{
	RunSpec    *spec = palloc0(sizeof(RunSpec));
	ScriptDefine defs[SCRIPT_SQL_MAX_VARIABLES];
	int			ndefs;
	char	   *quoted;
	bool		remote;
	bool		builtin;
	const LaunchKind *kind = launch_kind_of(opts);
	void	   *kind_arguments = NULL;
	StringInfoData payload;
	dsm_segment *seg;
	LaunchHandshake *hs;
	TrustClients clients;

	launch_check_options(opts, kind, is_sweep, spec, defs, &ndefs);
	/* an experiment checks each configuration's conninfo (launch_check_configs) */
	if (opts->nconfigs > 0)
	{
		strlcpy(spec->owner, GetUserNameFromId(GetUserId(), false), sizeof(spec->owner));
		quoted = NULL;
		remote = false;
	}
	else
		quoted = launch_check_caller(opts, spec, &remote);
	if (kind->check_arguments)
		kind_arguments = kind->check_arguments(opts, spec, quoted);

	/* in our own context: it outlives SPI_finish */
	initStringInfo(&payload);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	builtin = launch_build_mix(opts, kind, spec, defs, ndefs, &payload);
	if (opts->nconfigs > 0)
		launch_check_configs(opts, kind, spec, defs, ndefs, builtin, &payload);
	else
	{
		launch_check_server(opts, kind, spec, quoted, remote, builtin, &clients);
		launch_check_trust(spec, payload.data, &clients);
	}
	if (kind->preflight)
		kind->preflight(opts, spec, kind_arguments, &payload);
	spec->dboid = MyDatabaseId;
	spec->roleid = GetUserId();
	spec->id = launch_next_id();
	SPI_finish();

	/* the request, handed over in a DSM segment the coordinator attaches */
	seg = launch_setup_segment(spec, payload.data, &hs);
	launch_pending.hs = hs;
	launch_pending.handle = NULL;
	PG_ENSURE_ERROR_CLEANUP(launch_abandon, (Datum) 0);
	{
		uint32		expected = LAUNCH_STARTED;

		launch_wait_for_coordinator(seg, hs, is_sweep, spec->id);

		/*
		 * STARTED: we know the id and return it now, with no interrupt check
		 * in between, so the run goes on exactly when the caller learns its
		 * id.
		 */
		if (!pg_atomic_compare_exchange_u32(&hs->status, &expected, LAUNCH_ACKNOWLEDGED))
			elog(ERROR, "unexpected pgbenchx launch status %u", expected);
		SetLatch(&ProcGlobal->allProcs[hs->coordinator_procno].procLatch);
	}
	PG_END_ENSURE_ERROR_CLEANUP(launch_abandon, (Datum) 0);
	launch_pending.hs = NULL;
	launch_pending.handle = NULL;

	/*
	 * The run goes on, and the rest of the caller's statement only returns
	 * its id.  A statement_timeout expiring now would still fail the
	 * statement (the executor checks for interrupts once more after the row
	 * is sent, and the client then sees the error, not the id): the caller
	 * would lose the id of a run that goes on.  So the timeout is off for
	 * the rest of this statement (the next one arms it again), and one that
	 * expired since the acknowledgement (no interrupt was serviced since)
	 * is forgotten.
	 */
	disable_timeout(STATEMENT_TIMEOUT, true);
	if (get_timeout_indicator(STATEMENT_TIMEOUT, true))
		QueryCancelPending = false;

	dsm_detach(seg);

	/*
	 * What was started, and how to follow it.  A NOTICE checks for
	 * interrupts (errfinish): held, so that a cancel arriving now cannot
	 * lose the id of a run that goes on.
	 */
	HOLD_INTERRUPTS();
	ereport(NOTICE, (errmsg("%s", progress_launch_message(spec))));
	RESUME_INTERRUPTS();
	return spec->id;
}
