/*-------------------------------------------------------------------------
 *
 * pgbenchx.c
 *	  Module entry: _PG_init, the pgbenchx.* GUC namespace, and the
 *	  SQL-callable entry points.
 *
 * This file validates arguments and hands off to the file that owns each
 * job (datagen.c for pgbench_init, launch.c for run_bench and run_sweep;
 * wait.c owns pgbenchx.wait and pgbenchx.cancel).  It must not grow the jobs themselves.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <sys/stat.h>

#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "coordinator.h"
#include "datagen.h"
#include "launch.h"
#include "run_shmem.h"
#include "script_sql.h"
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

/* the most partitions pgbench_init creates: each is a table with its locks */
#define PGBENCHX_MAX_PARTITIONS		10000

/* the largest statement list run_replay takes */
#define PGBENCHX_MAX_REPLAY_BYTES	(64 * 1024 * 1024)

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

	/* the language core's memory and interrupt hooks (script_sql.c) */
	script_sql_install_hooks();

#if PG_VERSION_NUM >= 150000
	MarkGUCPrefixReserved("pgbenchx");
#else
	EmitWarningsOnPlaceholders("pgbenchx");
#endif

	/* optional: preloaded, mark runs a crash left "running" at start-up */
	if (process_shared_preload_libraries_in_progress)
		startup_register();
}

/* Raise the standard error for a NULL argument that has no meaning. */
static void
pgbenchx_null_argument(const char *argname)
{
	ereport(ERROR,
			(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
			 errmsg("argument \"%s\" must not be null", argname),
			 errhint("Omit the argument to use its default.")));
}

/*
 * pgbench_init(scale, fillfactor, partitions, partition_method, unlogged,
 *				foreign_keys) returns text
 */
Datum
pgbench_init(PG_FUNCTION_ARGS)
{
	static const char *const argnames[] = {
		"scale", "fillfactor", "partitions", "partition_method",
		"unlogged", "foreign_keys"
	};
	DatagenOptions opts;
	char	   *method;

	for (int i = 0; i < PG_NARGS(); i++)
		if (PG_ARGISNULL(i))
			pgbenchx_null_argument(argnames[i]);

	opts.scale = PG_GETARG_INT32(0);
	opts.fillfactor = PG_GETARG_INT32(1);
	opts.partitions = PG_GETARG_INT32(2);
	method = text_to_cstring(PG_GETARG_TEXT_PP(3));
	opts.unlogged = PG_GETARG_BOOL(4);
	opts.foreign_keys = PG_GETARG_BOOL(5);

	if (opts.scale < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("scale must be at least 1, not %d", opts.scale),
				 errdetail("The scale is the number of branches; each brings 10 tellers and 100000 accounts."),
				 errhint("Pass a scale of 1 or more, as with pgbench -i -s.")));
	if (opts.scale > DATAGEN_MAX_SCALE)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("scale %d is too large", opts.scale),
				 errdetail("pgbench_tellers.tid is an integer holding up to 10 * scale, so the scale can be at most %d.",
						   DATAGEN_MAX_SCALE),
				 errhint("Pass a scale of at most %d.", DATAGEN_MAX_SCALE)));
	if (opts.fillfactor < 10 || opts.fillfactor > 100)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("fillfactor must be in range 10..100, not %d",
						opts.fillfactor),
				 errdetail("The fillfactor is the percentage of each table page that is filled, as with pgbench -i -F."),
				 errhint("Pass a fillfactor between 10 and 100.")));
	if (opts.partitions < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partitions must be 0 or more, not %d", opts.partitions),
				 errdetail("partitions is the number of partitions of pgbench_accounts; 0 means not partitioned."),
				 errhint("Pass 0 for a plain table, or a positive number of partitions.")));
	if (opts.partitions > PGBENCHX_MAX_PARTITIONS ||
		(int64) opts.partitions > (int64) 100000 * opts.scale)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%d partitions are too many for scale %d", opts.partitions, opts.scale),
				 errdetail("pgbench_accounts has 100000 * scale rows, and each partition is a table with its own locks; pgbenchx takes at most %d partitions and at most one per row.",
						   PGBENCHX_MAX_PARTITIONS),
				 errhint("Pass fewer partitions.")));

	if (pg_strcasecmp(method, "range") == 0)
		opts.method = DATAGEN_PART_RANGE;
	else if (pg_strcasecmp(method, "hash") == 0)
		opts.method = DATAGEN_PART_HASH;
	else
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid partition method \"%s\"", method),
				 errdetail("pgbench partitions pgbench_accounts by range or by hash."),
				 errhint("Pass partition_method => 'range' or 'hash'.")));
	if (opts.method == DATAGEN_PART_HASH && opts.partitions == 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("partition method \"hash\" requires partitions greater than zero"),
				 errdetail("pgbench_accounts is partitioned only when partitions is greater than zero."),
				 errhint("Pass partitions => N as well, with N of 1 or more.")));

	PG_RETURN_TEXT_P(cstring_to_text(datagen_run(&opts)));
}

/* ---------------------------------------------------------------------
 * The benchmark engine's entry points
 * --------------------------------------------------------------------- */

/*
 * The options common to run_bench and both run_sweep forms, from argument
 * first onwards: duration, script, jobs, protocol, transactions, vacuum,
 * checkpoint, label, conninfo, random_seed, variables, rate, latency_limit,
 * max_tries, connect_per_transaction, tags; then (run_sweep only) repeats;
 * then check_tpcb, the last argument of all three.  Arguments are read by
 * position, so the SQL declarations must keep this order.
 */
static void
pgbenchx_launch_options(FunctionCallInfo fcinfo, int first, bool sweep, LaunchOptions *o)
{
	static const char *const names[] = {
		"duration", "script", "jobs", "protocol", "transactions", "vacuum",
		"checkpoint", "label", "conninfo", "random_seed", "variables",
		"rate", "latency_limit", "max_tries", "connect_per_transaction", "tags"
	};
	int			last = first + (int) lengthof(names) + (sweep ? 1 : 0);

	/* the SQL declaration and this reader must agree on the arguments */
	if (PG_NARGS() != last + 1)
		elog(ERROR, "pgbenchx: %s called with %d arguments, expected %d; the installed SQL does not match the library",
			 sweep ? "run_sweep" : "run_bench", PG_NARGS(), last + 1);

	/* NULL means "not given" for these; the others must not be NULL */
	for (int i = 0; i < (int) lengthof(names); i++)
	{
		bool		may_be_null = (i == 0 || i == 2 || i == 4 || (i >= 7 && i <= 12) || i == 15);

		if (!may_be_null && PG_ARGISNULL(first + i))
			pgbenchx_null_argument(names[i]);
	}
	if (sweep && PG_ARGISNULL(last - 1))
		pgbenchx_null_argument("repeats");
	if (PG_ARGISNULL(last))
		pgbenchx_null_argument("check_tpcb");
	o->duration_given = !PG_ARGISNULL(first);
	o->duration = o->duration_given ? PG_GETARG_INT32(first) : 0;
	o->script = text_to_cstring(PG_GETARG_TEXT_PP(first + 1));
	o->jobs_given = !PG_ARGISNULL(first + 2);
	o->jobs = o->jobs_given ? PG_GETARG_INT32(first + 2) : 0;
	o->protocol = text_to_cstring(PG_GETARG_TEXT_PP(first + 3));
	o->transactions_given = !PG_ARGISNULL(first + 4);
	o->transactions = o->transactions_given ? PG_GETARG_INT64(first + 4) : 0;
	o->vacuum = PG_GETARG_BOOL(first + 5);
	o->checkpoint = PG_GETARG_BOOL(first + 6);
	o->label = PG_ARGISNULL(first + 7) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(first + 7));
	o->conninfo = PG_ARGISNULL(first + 8) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(first + 8));
	o->random_seed_given = !PG_ARGISNULL(first + 9);
	o->random_seed = o->random_seed_given ? PG_GETARG_INT64(first + 9) : 0;
	o->variables = PG_ARGISNULL(first + 10) ? NULL : PG_GETARG_JSONB_P(first + 10);
	o->rate_given = !PG_ARGISNULL(first + 11);
	o->rate = o->rate_given ? PG_GETARG_FLOAT8(first + 11) : 0;
	o->latency_limit_given = !PG_ARGISNULL(first + 12);
	o->latency_limit = o->latency_limit_given ? PG_GETARG_FLOAT8(first + 12) : 0;
	o->max_tries = PG_GETARG_INT32(first + 13);
	o->connect_per_transaction = PG_GETARG_BOOL(first + 14);
	o->tags = PG_ARGISNULL(first + 15) ? NULL : PG_GETARG_JSONB_P(first + 15);
	o->repeats = sweep ? PG_GETARG_INT32(last - 1) : 1;
	o->check_tpcb = PG_GETARG_BOOL(last);
}

/* run_bench(clients, duration, script, jobs, protocol, transactions, ...) */
Datum
pgbenchx_run_bench(PG_FUNCTION_ARGS)
{
	LaunchOptions o;
	int			clients;

	memset(&o, 0, sizeof(o));
	if (PG_ARGISNULL(0))
		pgbenchx_null_argument("clients");
	clients = PG_GETARG_INT32(0);
	o.nsteps = 1;
	o.clients = &clients;
	pgbenchx_launch_options(fcinfo, 1, false, &o);
	PG_RETURN_INT64(launch_start(&o, false));
}

/* run_sweep(min_clients, max_clients, duration, ...) */
Datum
pgbenchx_run_sweep(PG_FUNCTION_ARGS)
{
	LaunchOptions o;
	int			min_clients;
	int			max_clients;
	int			ladder[LAUNCH_MAX_STEPS];

	memset(&o, 0, sizeof(o));
	if (PG_ARGISNULL(0))
		pgbenchx_null_argument("min_clients");
	if (PG_ARGISNULL(1))
		pgbenchx_null_argument("max_clients");
	min_clients = PG_GETARG_INT32(0);
	max_clients = PG_GETARG_INT32(1);
	if (min_clients < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_clients must be at least 1, not %d", min_clients),
				 errhint("Pass 1 or more clients.")));
	if (min_clients > max_clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("min_clients (%d) is greater than max_clients (%d)",
						min_clients, max_clients),
				 errhint("Pass min_clients <= max_clients.")));
	o.nsteps = launch_ladder(min_clients, max_clients, ladder, LAUNCH_MAX_STEPS);
	o.clients = ladder;
	pgbenchx_launch_options(fcinfo, 2, true, &o);
	PG_RETURN_INT64(launch_start(&o, true));
}

/* run_sweep(clients int[], duration, ...) */
Datum
pgbenchx_run_sweep_list(PG_FUNCTION_ARGS)
{
	LaunchOptions o;
	ArrayType  *arr;
	Datum	   *elems;
	bool	   *nulls;
	int			n;

	memset(&o, 0, sizeof(o));
	if (PG_ARGISNULL(0))
		pgbenchx_null_argument("clients");
	arr = PG_GETARG_ARRAYTYPE_P(0);
	if (ARR_NDIM(arr) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("clients must be a one-dimensional array"),
				 errhint("Pass an array such as '{1,2,4}'.")));
	deconstruct_array(arr, INT4OID, sizeof(int32), true, TYPALIGN_INT,
					  &elems, &nulls, &n);
	o.nsteps = n;
	o.clients = palloc(sizeof(int) * Max(n, 1));
	for (int i = 0; i < n; i++)
	{
		if (nulls[i])
			ereport(ERROR,
					(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
					 errmsg("clients must not contain NULL"),
					 errhint("Pass an array of client counts such as '{1,2,4}'.")));
		o.clients[i] = DatumGetInt32(elems[i]);
	}
	pgbenchx_launch_options(fcinfo, 1, true, &o);
	PG_RETURN_INT64(launch_start(&o, true));
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

	if (min_clients < 1 || min_clients > max_clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid client range %d..%d", min_clients, max_clients),
				 errhint("Pass 1 <= min_clients <= max_clients.")));
	n = launch_ladder(min_clients, max_clients, ladder, LAUNCH_MAX_STEPS);
	for (int i = 0; i < n; i++)
		elems[i] = Int32GetDatum(ladder[i]);
	PG_RETURN_ARRAYTYPE_P(construct_array(elems, n, INT4OID, sizeof(int32), true, TYPALIGN_INT));
}

/* Read a server-side file of statements, as pg_read_file would allow it. */
static char *
pgbenchx_read_queries_file(const char *path)
{
	FILE	   *f;
	StringInfoData buf;
	char		chunk[8192];
	size_t		n;
	struct stat st;

	if (!has_privs_of_role(GetUserId(), ROLE_PG_READ_SERVER_FILES))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to read the server file \"%s\"", path),
				 errdetail("Only roles with the privileges of pg_read_server_files may have run_replay read server files."),
				 errhint("Pass the statements themselves, or have a superuser grant pg_read_server_files.")));
	/*
	 * Only a regular file: opening a FIFO would block the backend in open(),
	 * where no cancel reaches it, and a device or a directory is no list.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("\"%s\" is not a regular file", path),
				 errhint("Pass the path of a text file of SQL statements.")));
	f = AllocateFile(path, "r");
	if (f == NULL)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open file \"%s\" for reading: %m", path),
				 errhint("Pass an absolute path readable by the server's operating system user.")));
	initStringInfo(&buf);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
	{
		if (buf.len + n > PGBENCHX_MAX_REPLAY_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("file \"%s\" is larger than %d bytes", path, PGBENCHX_MAX_REPLAY_BYTES),
					 errhint("Replay a shorter list.")));
		appendBinaryStringInfo(&buf, chunk, n);
		CHECK_FOR_INTERRUPTS();
	}
	if (ferror(f))
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	FreeFile(f);
	if (memchr(buf.data, '\0', buf.len) != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_CHARACTER_NOT_IN_REPERTOIRE),
				 errmsg("file \"%s\" contains a zero byte", path),
				 errhint("Replay a text file of SQL statements.")));
	return buf.data;
}

/*
 * run_replay(queries, min_clients, max_clients, from_file, shuffle, jobs,
 *			  protocol, checkpoint, label, conninfo, tags, random_seed)
 */
Datum
pgbenchx_run_replay(PG_FUNCTION_ARGS)
{
	static const char *const names[] = {
		"queries", "min_clients", "max_clients", "from_file", "shuffle", "jobs",
		"protocol", "checkpoint", "label", "conninfo", "tags", "random_seed"
	};
	LaunchOptions o;
	int			ladder[LAUNCH_MAX_STEPS];
	int			min_clients;
	int			max_clients;
	char	   *queries;

	if (PG_ARGISNULL(0))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"queries\" must not be null"),
				 errhint("Pass the statements to replay, or a server file name with from_file => true.")));
	for (int i = 1; i < (int) lengthof(names); i++)
		if (PG_ARGISNULL(i) && !(i == 5 || i >= 8))
			pgbenchx_null_argument(names[i]);
	memset(&o, 0, sizeof(o));
	queries = text_to_cstring(PG_GETARG_TEXT_PP(0));
	min_clients = PG_GETARG_INT32(1);
	max_clients = PG_GETARG_INT32(2);
	if (min_clients < 1 || min_clients > max_clients)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid client range %d..%d", min_clients, max_clients),
				 errhint("Pass 1 <= min_clients <= max_clients.")));
	if (PG_GETARG_BOOL(3))
		queries = pgbenchx_read_queries_file(queries);
	if (strlen(queries) > PGBENCHX_MAX_REPLAY_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("the statement list is larger than %d bytes", PGBENCHX_MAX_REPLAY_BYTES),
				 errhint("Replay a shorter list.")));

	o.nsteps = launch_ladder(min_clients, max_clients, ladder, LAUNCH_MAX_STEPS);
	o.clients = ladder;
	o.inline_script = queries;
	o.replay = true;
	o.shuffle = PG_GETARG_BOOL(4);
	o.script = "replay";
	o.transactions_given = true;
	o.transactions = 1;			/* each client runs the list once */
	o.jobs_given = !PG_ARGISNULL(5);
	o.jobs = o.jobs_given ? PG_GETARG_INT32(5) : 0;
	o.protocol = text_to_cstring(PG_GETARG_TEXT_PP(6));
	o.vacuum = false;			/* no pgbench maintenance on a replayed workload */
	o.checkpoint = PG_GETARG_BOOL(7);
	o.label = PG_ARGISNULL(8) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(8));
	o.conninfo = PG_ARGISNULL(9) ? NULL : text_to_cstring(PG_GETARG_TEXT_PP(9));
	o.tags = PG_ARGISNULL(10) ? NULL : PG_GETARG_JSONB_P(10);
	o.random_seed_given = !PG_ARGISNULL(11);
	o.random_seed = o.random_seed_given ? PG_GETARG_INT64(11) : 0;
	o.max_tries = 1;
	o.repeats = 1;
	PG_RETURN_INT64(launch_start(&o, true));
}
