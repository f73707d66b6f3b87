/*-------------------------------------------------------------------------
 *
 * pgbenchx.c
 *	  Module entry: _PG_init, the pgbenchx.* GUC namespace, and the
 *	  SQL-callable entry points.
 *
 * It defines every pgbenchx.* setting (the quotas' variables are launch.c's).
 * This file reads arguments and hands off to the file that owns each job
 * (datagen.c checks and runs pgbench_init, options.c reads a launch's
 * options, launch.c starts run_bench, run_sweep and run_replay; wait.c owns
 * pgbenchx.wait and pgbenchx.cancel); _PG_init hands fleet/'s launch and
 * step kinds to run/ (fleet/kinds.c).  It must not grow the jobs
 * themselves.
 *
 * run_bench, run_sweep and run_replay reach C through one seam: their SQL
 * wrappers pass the options by name as jsonb to pgbenchx.launch_bench,
 * launch_sweep and launch_replay, which read them with one table,
 * pgbenchx_options (options.c).  The C symbols the 0.1 SQL bound to
 * remain, to say that the SQL must be updated.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/guc.h"

#include "coordinator.h"
#include "datagen.h"
#include "initrecord.h"
#include "kinds.h"
#include "launch.h"
#include "options.h"
#include "pg_compat.h"
#include "run_shmem.h"
#include "script_sql.h"
#include "secret.h"
#include "startup.h"

PG_MODULE_MAGIC;

void		_PG_init(void);

/*
 * pgbenchx.unstable_spread: pgbenchx.sweep_points flags a point as unstable
 * when the spread of its repeats, (max - min) / median tps, exceeds this.
 * Only the SQL view reads it (current_setting, falling back to the same
 * default when this library is not loaded in the session).
 */
static double pgbenchx_unstable_spread = 0.10;

PG_FUNCTION_INFO_V1(pgbench_init);
PG_FUNCTION_INFO_V1(pgbenchx_run_bench);
PG_FUNCTION_INFO_V1(pgbenchx_run_sweep);
PG_FUNCTION_INFO_V1(pgbenchx_run_sweep_list);
PG_FUNCTION_INFO_V1(pgbenchx_sweep_ladder);
PG_FUNCTION_INFO_V1(pgbenchx_run_replay);
PG_FUNCTION_INFO_V1(pgbenchx_launch_bench);
PG_FUNCTION_INFO_V1(pgbenchx_launch_sweep);
PG_FUNCTION_INFO_V1(pgbenchx_launch_replay);
PG_FUNCTION_INFO_V1(pgbenchx_launch_part);
PG_FUNCTION_INFO_V1(pgbenchx_launch_experiment);

/* pgbenchx.max_jobs: a run needs one job, so 0 would mean nothing */
static bool
pgbenchx_check_max_jobs(int *newval, void **extra, GucSource source)
{
	(void) extra;
	(void) source;
	if (*newval == 0)
	{
		GUC_check_errdetail("A run takes at least one job; -1 means no limit.");
		return false;
	}
	return true;
}

/* pgbenchx.max_duration: a run lasts at least a second, so 0 would mean nothing */
static bool
pgbenchx_check_max_duration(int *newval, void **extra, GucSource source)
{
	(void) extra;
	(void) source;
	if (*newval == 0)
	{
		GUC_check_errdetail("A run lasts at least 1 second; -1 means no limit.");
		return false;
	}
	return true;
}

void
_PG_init(void)
{
	DefineCustomRealVariable("pgbenchx.unstable_spread",
							 "Spread of repeated runs, (max - min) / median tps, above which pgbenchx.sweep_points flags a point as unstable.",
							 "0.10 means 10%. Checkpoints during a run flag it regardless.",
							 &pgbenchx_unstable_spread,
							 0.10, 0.0, 100.0,
							 PGC_USERSET, 0,
							 NULL, NULL, NULL);
	/*
	 * pgbenchx.sample_ring_seconds: only for tests of the ring's overflow
	 * (it can only make samples be lost sooner, never memory grow); set in
	 * the server's configuration, which the coordinator reads.
	 */
	DefineCustomIntVariable("pgbenchx.sample_ring_seconds",
							"Seconds of per-second samples each driver keeps until the coordinator writes them.",
							"For tests: a smaller ring makes a blocked coordinator lose samples sooner (runs.samples_lost).",
							&coordinator_ring_seconds,
							RUN_SECOND_RING, 2, RUN_SECOND_RING,
							PGC_SIGHUP, 0,
							NULL, NULL, NULL);

	/*
	 * The quotas of roles that are not superusers (launch.c): how long a
	 * run, how many clients, how many driver workers.  The defaults are far
	 * above what a benchmark needs on one server (a day per run; pgbench's
	 * thousand-client runs; more jobs than the default max_worker_processes
	 * has slots) and only stop a runner from holding the server for weeks;
	 * a DBA lowers them.  PGC_SUSET: a runner's own SET, even one made
	 * before this library was loaded, is refused.
	 */
	DefineCustomIntVariable("pgbenchx.max_duration",
							"Longest duration, in seconds, of each run or sweep step of a role that is not a superuser.",
							"A run bounded by transactions, or a replay, is stopped after it. -1 means no limit.",
							&launch_max_duration,
							LAUNCH_DEFAULT_MAX_DURATION, -1, INT_MAX,
							PGC_SUSET, GUC_UNIT_S,
							pgbenchx_check_max_duration, NULL, NULL);
	DefineCustomIntVariable("pgbenchx.max_clients",
							"Most clients of each run or sweep step of a role that is not a superuser.",
							"-1 means no limit.",
							&launch_max_clients,
							LAUNCH_DEFAULT_MAX_CLIENTS, -1, INT_MAX,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("pgbenchx.max_jobs",
							"Most driver workers (jobs) of each run of a role that is not a superuser.",
							"-1 means no limit.",
							&launch_max_jobs,
							LAUNCH_DEFAULT_MAX_JOBS, -1, INT_MAX,
							PGC_SUSET, 0,
							pgbenchx_check_max_jobs, NULL, NULL);

	/* pgbenchx.password: a run's password from the startup packet (secret.c) */
	secret_define_guc();

	/*
	 * The server's share (issue 34 §6): a runner's run never takes more
	 * than a share of the connections and worker slots, nor the last free
	 * ones, so that the server stays usable for every other role while it
	 * runs.  Half of each by default, and a few left free beyond PostgreSQL's
	 * own reserved connections.  Superusers are not limited by these (but
	 * every launch is refused when its clients cannot all connect).
	 */
	DefineCustomIntVariable("pgbenchx.max_connection_share",
							"Most connections, in percent of those roles without reserved slots may use, that a run of a role that is not a superuser may take.",
							"A run takes one connection per client and one for its coordinator. -1 means no limit.",
							&launch_max_connection_share,
							LAUNCH_DEFAULT_CONNECTION_SHARE, -1, 100,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("pgbenchx.max_worker_share",
							"Most background worker slots, in percent of max_worker_processes, that a run of a role that is not a superuser may take.",
							"A run takes one slot for its coordinator and one per job. -1 means no limit.",
							&launch_max_worker_share,
							LAUNCH_DEFAULT_WORKER_SHARE, -1, 100,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("pgbenchx.connection_headroom",
							"Connections a run of a role that is not a superuser leaves free for other sessions, beyond the reserved ones.",
							NULL,
							&launch_connection_headroom,
							LAUNCH_DEFAULT_CONNECTION_HEADROOM, 0, INT_MAX,
							PGC_SUSET, 0,
							NULL, NULL, NULL);
	DefineCustomIntVariable("pgbenchx.worker_headroom",
							"Background worker slots a run of a role that is not a superuser leaves free for others.",
							NULL,
							&launch_worker_headroom,
							LAUNCH_DEFAULT_WORKER_HEADROOM, 0, INT_MAX,
							PGC_SUSET, 0,
							NULL, NULL, NULL);

	/* the language core's memory and interrupt hooks (script_sql.c) */
	script_sql_install_hooks();

	MarkGUCPrefixReserved("pgbenchx");

	/* pgbench_init's crash record notes the relations it creates */
	initrecord_install_hook();

	/*
	 * A part and a run driven from generators plug into launch and the
	 * coordinator (fleet/kinds.c); _PG_init runs in the coordinator too,
	 * which loads this library as a background worker.
	 */
	fleet_register_kinds();

	/* optional: preloaded, mark runs a crash left "running" at start-up */
	if (process_shared_preload_libraries_in_progress)
		startup_register();
}

/*
 * pgbench_init(scale, fillfactor, partitions, partition_method, unlogged,
 *				foreign_keys, jobs, tablespace, index_tablespace) returns text
 */
Datum
pgbench_init(PG_FUNCTION_ARGS)
{
	static const char *const argnames[] = {
		"scale", "fillfactor", "partitions", "partition_method",
		"unlogged", "foreign_keys", "jobs", "tablespace", "index_tablespace"
	};
	DatagenOptions opts;

	/* jobs NULL: the default */
	for (int i = 0; i < PG_NARGS() && i < 6; i++)
		if (PG_ARGISNULL(i))
			pgbx_null_argument(argnames[i]);

	opts.scale = PG_GETARG_INT32(0);
	opts.fillfactor = PG_GETARG_INT32(1);
	opts.partitions = PG_GETARG_INT32(2);
	opts.unlogged = PG_GETARG_BOOL(4);
	opts.foreign_keys = PG_GETARG_BOOL(5);
	/* tablespace, index_tablespace NULL: the database's default */
	opts.tablespace = PG_NARGS() > 7 && !PG_ARGISNULL(7) ?
		text_to_cstring(PG_GETARG_TEXT_PP(7)) : NULL;
	opts.index_tablespace = PG_NARGS() > 8 && !PG_ARGISNULL(8) ?
		text_to_cstring(PG_GETARG_TEXT_PP(8)) : NULL;
	datagen_check_options(&opts, text_to_cstring(PG_GETARG_TEXT_PP(3)),
						  PG_NARGS() > 6 && !PG_ARGISNULL(6),
						  PG_NARGS() > 6 ? PG_GETARG_INT32(6) : 0);

	PG_RETURN_TEXT_P(cstring_to_text(datagen_run(&opts)));
}

/* pgbenchx.launch_bench(options jsonb): run_bench's seam */
Datum
pgbenchx_launch_bench(PG_FUNCTION_ARGS)
{
	PgbxCall	c;

	pgbx_read_options(fcinfo, PGBX_BENCH, &c);
	c.o.nsteps = 1;
	c.o.clients = &c.clients;
	c.o.repeats = 1;
	PG_RETURN_INT64(launch_start(&c.o, false));
}

/*
 * pgbenchx.launch_sweep(options jsonb): both run_sweep's seam, the ladder
 * from min_clients to max_clients or the list of clients
 */
Datum
pgbenchx_launch_sweep(PG_FUNCTION_ARGS)
{
	PgbxCall	c;
	Jsonb	   *options = PG_ARGISNULL(0) ? NULL : PG_GETARG_JSONB_P(0);
	int			ladder[LAUNCH_MAX_STEPS];

	/* the list form names its clients */
	if (options && JB_ROOT_IS_OBJECT(options) &&
		getKeyJsonValueFromContainer(&options->root, "clients", strlen("clients"), NULL) != NULL)
	{
		pgbx_read_options(fcinfo, PGBX_LIST, &c);
		c.o.nsteps = c.clients_list.n;
		c.o.clients = c.clients_list.values;
		PG_RETURN_INT64(launch_start(&c.o, true));
	}
	pgbx_read_options(fcinfo, PGBX_SWEEP, &c);
	pgbx_check_client_range(c.min_clients, c.max_clients);
	c.o.nsteps = launch_ladder(c.min_clients, c.max_clients, ladder, LAUNCH_MAX_STEPS);
	c.o.clients = ladder;
	PG_RETURN_INT64(launch_start(&c.o, true));
}

/*
 * pgbenchx.launch_experiment(options jsonb): run_experiment's seam (issue
 * 23), the configurations alternated at each client count of the ladder
 * (launch_experiment_steps lays the steps out)
 */
Datum
pgbenchx_launch_experiment(PG_FUNCTION_ARGS)
{
	PgbxCall	c;
	int			ladder[LAUNCH_MAX_STEPS];
	int			nclients;

	pgbx_read_options(fcinfo, PGBX_EXPERIMENT, &c);
	pgbx_check_client_range(c.min_clients, c.max_clients);
	nclients = launch_ladder(c.min_clients, c.max_clients, ladder, LAUNCH_MAX_STEPS);
	launch_experiment_steps(&c.o, ladder, nclients);
	PG_RETURN_INT64(launch_start(&c.o, true));
}

/*
 * pgbenchx.launch_part(options jsonb): a generator's share of a run that a
 * recorder drives (part.c): launch_bench's options, but vacuum, checkpoint
 * and check_tpcb (the recorder does the maintenance once), with the mix
 * inline or a replay list, the part's clients within the run's, and
 * part_of.  The part waits for pgbenchx.part_go before it measures.
 */
Datum
pgbenchx_launch_part(PG_FUNCTION_ARGS)
{
	PgbxCall	c;

	pgbx_read_options(fcinfo, PGBX_PART, &c);
	c.o.nsteps = 1;
	c.o.clients = &c.clients;
	c.o.repeats = 1;
	c.o.is_part = true;
	c.o.vacuum = false;
	c.o.checkpoint = false;
	c.o.check_tpcb = false;
	if (c.queries)
	{
		if (strlen(c.queries) > PGBENCHX_MAX_REPLAY_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the statement list is larger than %d bytes", PGBENCHX_MAX_REPLAY_BYTES),
					 errhint("Replay a shorter list.")));
		/* as run_replay: each client runs the list once */
		if (c.o.duration_given || c.o.transactions_given || c.o.rate_given ||
			c.o.latency_limit_given || c.o.max_tries != 1)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("a replay part takes no duration, transactions, rate, latency_limit or max_tries"),
					 errdetail("Each client of a replay runs the statement list once, as run_replay's do."),
					 errhint("Leave those out with replay_queries.")));
		c.o.inline_script = c.queries;
		c.o.replay = true;
		c.o.transactions_given = true;
		c.o.transactions = 1;
	}
	PG_RETURN_INT64(launch_start(&c.o, false));
}

/*
 * The entry points of 0.1's SQL, which bound run_bench and run_sweep to C
 * with their arguments by position.  0.2's SQL reaches C through the
 * launch_* functions instead; these remain only to say so when the library
 * is newer than the installed SQL.
 */
static void
pgbx_sql_too_old(const char *what)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("pgbenchx's SQL is version 0.1, the library %s", PGBENCHX_LIBRARY_VERSION),
			 errdetail("%s of the installed SQL calls an entry point of the 0.1 library, which this library no longer serves.", what),
			 errhint("Run ALTER EXTENSION pgbenchx UPDATE.")));
}

Datum
pgbenchx_run_bench(PG_FUNCTION_ARGS)
{
	pgbx_sql_too_old("run_bench");
	PG_RETURN_NULL();
}

Datum
pgbenchx_run_sweep(PG_FUNCTION_ARGS)
{
	pgbx_sql_too_old("run_sweep");
	PG_RETURN_NULL();
}

Datum
pgbenchx_run_sweep_list(PG_FUNCTION_ARGS)
{
	pgbx_sql_too_old("run_sweep");
	PG_RETURN_NULL();
}

Datum
pgbenchx_run_replay(PG_FUNCTION_ARGS)
{
	pgbx_sql_too_old("run_replay");
	PG_RETURN_NULL();
}

/* pgbenchx.sweep_ladder(min_clients, max_clients) */
Datum
pgbenchx_sweep_ladder(PG_FUNCTION_ARGS)
{
	int			min_clients = PG_GETARG_INT32(0);
	int			max_clients = PG_GETARG_INT32(1);
	int			ladder[LAUNCH_MAX_STEPS];
	Datum		elems[LAUNCH_MAX_STEPS];
	int			n;

	pgbx_check_client_range(min_clients, max_clients);
	n = launch_ladder(min_clients, max_clients, ladder, LAUNCH_MAX_STEPS);
	for (int i = 0; i < n; i++)
		elems[i] = Int32GetDatum(ladder[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, n, INT4OID, sizeof(int32), true, TYPALIGN_INT));
}

/* pgbenchx.launch_replay(options jsonb): run_replay's seam */
Datum
pgbenchx_launch_replay(PG_FUNCTION_ARGS)
{
	PgbxCall	c;
	int			ladder[LAUNCH_MAX_STEPS];
	const char *queries;

	pgbx_read_options(fcinfo, PGBX_REPLAY, &c);
	pgbx_check_client_range(c.min_clients, c.max_clients);
	queries = c.from_file ? pgbx_read_queries_file(c.queries) : c.queries;
	if (strlen(queries) > PGBENCHX_MAX_REPLAY_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the statement list is larger than %d bytes", PGBENCHX_MAX_REPLAY_BYTES),
				 errhint("Replay a shorter list.")));

	c.o.nsteps = launch_ladder(c.min_clients, c.max_clients, ladder, LAUNCH_MAX_STEPS);
	c.o.clients = ladder;
	c.o.inline_script = queries;
	c.o.replay = true;
	c.o.script = "replay";
	c.o.transactions_given = true;
	c.o.transactions = 1;		/* each client runs the list once */
	c.o.vacuum = false;			/* no pgbench maintenance on a replayed workload */
	c.o.max_tries = 1;
	c.o.repeats = 1;
	PG_RETURN_INT64(launch_start(&c.o, true));
}
