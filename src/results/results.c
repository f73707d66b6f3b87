/*-------------------------------------------------------------------------
 *
 * results.c
 *	  The coordinator's writes to pgbenchx.sweeps, pgbenchx.runs,
 *	  pgbenchx.samples (and the wait sampler's to pgbenchx.wait_samples and
 *	  system_samples.backend_cpu_s), and the environment (environment.c)
 *	  captured at the start of a sweep and of each run; at the end of a
 *	  run, the call of pgbenchx.explain_run that derives its figures and
 *	  verdict.  Each write is its own short
 *	  transaction, so a result is committed the moment it exists and no
 *	  snapshot is held between writes.  Values are always passed as
 *	  parameters, never spliced into SQL.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xact.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/resowner.h"
#include "utils/snapmgr.h"

#include "environment.h"
#include "histcodec.h"
#include "loopback.h"
#include "owner.h"
#include "pqconn.h"
#include "results.h"

#define RESULTS_MAX_ARGS 40

/* A statement with parameters, built up argument by argument. */
typedef struct ResultsStmt
{
	int			nargs;
	Oid			types[RESULTS_MAX_ARGS];
	Datum		values[RESULTS_MAX_ARGS];
	char		nulls[RESULTS_MAX_ARGS];
} ResultsStmt;

static void
results_arg(ResultsStmt *st, Oid type, Datum value, bool isnull)
{
	Assert(st->nargs < RESULTS_MAX_ARGS);
	st->types[st->nargs] = type;
	st->values[st->nargs] = value;
	st->nulls[st->nargs] = isnull ? 'n' : ' ';
	st->nargs++;
}

static void
results_text(ResultsStmt *st, const char *value)
{
	results_arg(st, TEXTOID, value ? CStringGetTextDatum(value) : (Datum) 0, value == NULL);
}

static void
results_int4(ResultsStmt *st, int32 value)
{
	results_arg(st, INT4OID, Int32GetDatum(value), false);
}

static void
results_int8(ResultsStmt *st, int64 value)
{
	results_arg(st, INT8OID, Int64GetDatum(value), false);
}

/* a double, NULL when it is not a number (an empty histogram) */
static void
results_float8(ResultsStmt *st, double value)
{
	results_arg(st, FLOAT8OID, Float8GetDatum(value), isnan(value) || isinf(value));
}

/* a latency histogram in the bytes of histcodec.h (runs/samples.latency_hist) */
static void
results_hist(ResultsStmt *st, const stats_hist *h, const stats_total *t)
{
	bytea	   *b = palloc(VARHDRSZ + HISTCODEC_MAX_BYTES);
	size_t		len = h ? histcodec_encode_hist(h, (uint8_t *) VARDATA(b)) :
		histcodec_encode(t, (uint8_t *) VARDATA(b));

	SET_VARSIZE(b, VARHDRSZ + len);
	results_arg(st, BYTEAOID, PointerGetDatum(b), false);
}

/* Execute sql as the extension's owner: runners only read the result tables. */
static int
results_spi_as_owner(const char *sql, ResultsStmt *st)
{
	OwnerSwitch sw;
	volatile int rc = 0;

	owner_switch_begin(&sw);
	PG_TRY();
	{
		rc = SPI_execute_with_args(sql, st->nargs, st->types, st->values, st->nulls,
								   false, 0);
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
	return rc;
}

/*
 * Run one statement in a transaction of its own.  Returns the int8 first
 * column of the first row, or 0; *processed (if not NULL) gets the number of
 * rows processed.  async_commit: commit without waiting for the WAL flush
 * (the row is visible at once, and durable a moment later).
 */
static int64
results_exec_ext(const char *sql, ResultsStmt *st, bool async_commit,
				 uint64 *processed)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	int64		ret = 0;
	int			rc;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	/* a per-second sample need not wait for a WAL flush: no fsync per second */
	if (async_commit)
		(void) set_config_option("synchronous_commit", "off", PGC_USERSET, PGC_S_SESSION,
								 GUC_ACTION_LOCAL, true, 0, false);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
	rc = results_spi_as_owner(sql, st);
	if (rc < 0)
		elog(ERROR, "SPI_execute_with_args failed with %s: %s",
			 SPI_result_code_string(rc), sql);
	if (processed)
		*processed = SPI_processed;
	if (SPI_processed > 0 && SPI_tuptable != NULL)
	{
		bool		isnull;
		Datum		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &isnull);

		if (!isnull)
			ret = DatumGetInt64(d);
	}
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_stat(false);
	MemoryContextSwitchTo(oldcxt);
	return ret;
}

/*
 * The run's final row, then, in the same transaction, its figures and
 * verdict (pgbenchx.explain_run, src/sql/47_explain.sql) from the seconds
 * already stored: whoever sees the run finished sees them too
 * (pgbenchx.wait's line).  explain_run runs in a subtransaction: if it
 * fails, a WARNING says why and the final row is committed all the same.
 */
static void
results_finish_explained(const char *sql, ResultsStmt *st, int64 run_id)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	ResourceOwner oldowner;
	ResultsStmt est = {0};
	int			rc;

	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	PushActiveSnapshot(GetTransactionSnapshot());
	rc = results_spi_as_owner(sql, st);
	if (rc < 0)
		elog(ERROR, "SPI_execute_with_args failed with %s: %s",
			 SPI_result_code_string(rc), sql);

	results_int8(&est, run_id);
	oldowner = CurrentResourceOwner;
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(oldcxt);
	PG_TRY();
	{
		rc = results_spi_as_owner("SELECT pgbenchx.explain_run($1)", &est);
		if (rc < 0)
			elog(ERROR, "SPI_execute_with_args failed with %s: pgbenchx.explain_run",
				 SPI_result_code_string(rc));
		ReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(oldcxt);
		CurrentResourceOwner = oldowner;
		ereport(WARNING,
				(errmsg("pgbenchx run " INT64_FORMAT ": its figures and verdict could not be computed: %s",
						run_id, edata->message),
				 errdetail("The run is recorded; runs.verdict and the figures per transaction stay NULL."),
				 errhint("The extension's owner may compute them later: SELECT pgbenchx.explain_run(" INT64_FORMAT ").",
						 run_id)));
		FreeErrorData(edata);
	}
	PG_END_TRY();

	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
	pgstat_report_stat(false);
	MemoryContextSwitchTo(oldcxt);
}

static int64
results_exec(const char *sql, ResultsStmt *st)
{
	return results_exec_ext(sql, st, false, NULL);
}

/*
 * A statement of another writer of the result tables (sysrecord.c) with its
 * parameters, in a short transaction of its own like the others here.
 */
void
results_exec_params(const char *sql, int nargs, const Oid *types, const Datum *values,
					const char *nulls, bool async_commit)
{
	ResultsStmt st = {0};

	if (nargs > RESULTS_MAX_ARGS)
		elog(ERROR, "too many parameters (%d) for a result statement", nargs);
	for (int i = 0; i < nargs; i++)
		results_arg(&st, types[i], values[i], nulls[i] == 'n');
	(void) results_exec_ext(sql, &st, async_commit, NULL);
}

/* Returns how many runs and sweeps it marked. */
uint64
results_mark_orphans_aborted(void)
{
	ResultsStmt st = {0};
	uint64		runs;
	uint64		sweeps;
	bool		has_generators;

	results_text(&st, RESULTS_ORPHAN_ERROR);
	results_exec_ext(RESULTS_ORPHAN_RUNS_SQL, &st, false, &runs);
	results_exec_ext(RESULTS_ORPHAN_SWEEPS_SQL, &st, false, &sweeps);
	/* a database still on SQL older than 0.4 has no run_generators */
	StartTransactionCommand();
	has_generators = OidIsValid(get_relname_relid("run_generators",
												  get_namespace_oid("pgbenchx", true)));
	CommitTransactionCommand();
	if (has_generators)
		results_exec_ext(RESULTS_ORPHAN_GENERATORS_SQL, &st, false, NULL);
	return runs + sweeps;
}

/*
 * The tablespace the clients' pgbench_accounts is in (its own, else its
 * database's default), read over a loopback connection made with the
 * clients' conninfo, so in the database and through the search_path the
 * clients use (a run may target another database with dbname=...), and
 * its name, so that environment_capture can check that it is a tablespace
 * of this server.  InvalidOid when there is no pgbench_accounts (a custom
 * script), when it is in pg_default, or when it could not be read: the
 * environment then has no tablespace, and the run goes on.  The SQL runs
 * unpinned (it must find the clients' table through their search_path), so
 * every operator is qualified, the CASE's too (a simple CASE would look
 * "=" up in that search_path).  Not inlined
 * into results_environment's PG_TRY, whose longjmp would clobber its
 * locals.
 */
static pg_noinline Oid
results_accounts_tablespace(const RunSpec *spec, char **spcname)
{
	char	   *connerr;
	char	   *value = NULL;
	char	   *error;
	char	   *sep;
	Oid			spc;
	PGconn	   *conn = loopback_connect(spec->conninfo, &connerr);

	*spcname = NULL;
	if (conn == NULL)
		return InvalidOid;
	error = loopback_exec(conn,
						  "SELECT t.oid::pg_catalog.text OPERATOR(pg_catalog.||) ' '"
						  " OPERATOR(pg_catalog.||) t.spcname::pg_catalog.text"
						  " FROM pg_catalog.pg_class c, pg_catalog.pg_database d, pg_catalog.pg_tablespace t"
						  " WHERE c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass('pgbench_accounts')"
						  " AND d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database()"
						  " AND t.oid OPERATOR(pg_catalog.=) CASE WHEN c.reltablespace"
						  " OPERATOR(pg_catalog.=) 0::pg_catalog.oid THEN d.dattablespace"
						  " ELSE c.reltablespace END"
						  " AND t.spcname OPERATOR(pg_catalog.<>) 'pg_default'", &value, NULL);
	pqconn_finish(conn);
	if (error || value == NULL || (sep = strchr(value, ' ')) == NULL)
		return InvalidOid;
	*sep = '\0';
	spc = (Oid) strtoul(value, NULL, 10);
	*spcname = sep + 1;
	return spc;
}

/*
 * Capture the environment (environment.c) in a transaction of its own and
 * add its id to st as the next argument, or NULL if it could not be
 * recorded (for example a failure to read the OS facts): a
 * benchmark does not fail because its environment could not be written
 * down; a WARNING in the server log says why.
 */
static void
results_environment(ResultsStmt *st, const RunSpec *spec)
{
	MemoryContext oldcxt = CurrentMemoryContext;
	volatile int64 id = 0;
	char	   *spcname;
	Oid			spc = results_accounts_tablespace(spec, &spcname);

	PG_TRY();
	{
		SetCurrentStatementStartTimestamp();
		StartTransactionCommand();
		PushActiveSnapshot(GetTransactionSnapshot());
		id = environment_capture(spc, spcname);
		PopActiveSnapshot();
		CommitTransactionCommand();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(oldcxt);
		edata = CopyErrorData();
		FlushErrorState();
		AbortCurrentTransaction();
		ereport(WARNING,
				(errcode(edata->sqlerrcode),
				 errmsg("pgbenchx could not record the environment: %s", edata->message),
				 errhint("The run goes on with environment_id NULL.")));
		FreeErrorData(edata);
		id = 0;
	}
	PG_END_TRY();
	MemoryContextSwitchTo(oldcxt);
	if (id != 0)
		results_int8(st, id);
	else
		results_arg(st, INT8OID, (Datum) 0, true);
}

static const char *
results_protocol_name(RunProtocol p)
{
	return p == RUN_PROTOCOL_SIMPLE ? "simple" :
		p == RUN_PROTOCOL_EXTENDED ? "extended" : "prepared";
}

void
results_start_sweep(const RunSpec *spec)
{
	ResultsStmt st = {0};
	StringInfoData clients;

	initStringInfo(&clients);
	appendStringInfoChar(&clients, '{');
	if (spec->nconfigs > 0)
	{
		/* an experiment: its client counts once each, in order */
		int			n = 0;

		for (int i = 0; i < spec->nsteps; i++)
			if (i == 0 || spec->clients[i] != spec->clients[i - 1])
				appendStringInfo(&clients, "%s%d", n++ > 0 ? "," : "", spec->clients[i]);
	}
	else
		for (int i = 0; i < spec->nsteps / Max(spec->repeats, 1); i++)
			appendStringInfo(&clients, "%s%d", i > 0 ? "," : "", spec->clients[i]);
	appendStringInfoChar(&clients, '}');

	results_int8(&st, spec->id);
	results_text(&st, spec->script_name);
	results_text(&st, clients.data);
	if (spec->duration > 0)
		results_int4(&st, spec->duration);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	results_text(&st, spec->label[0] ? spec->label : NULL);
	results_text(&st, results_protocol_name(spec->protocol));
	if (spec->jobs > 0)
		results_int4(&st, spec->jobs);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	if (spec->transactions > 0)
		results_int8(&st, spec->transactions);
	else
		results_arg(&st, INT8OID, (Datum) 0, true);
	results_text(&st, spec->conninfo_shown[0] ? spec->conninfo_shown : NULL);
	results_int4(&st, MyProcPid);
	results_text(&st, spec->tags[0] ? spec->tags : NULL);
	results_int4(&st, spec->repeats);
	results_environment(&st, spec);
	results_text(&st, spec->owner);
	results_text(&st, spec->nconfigs > 0 ? spec->configs_json : NULL);
	if (spec->nconfigs > 0)
		results_int4(&st, spec->warmup);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	results_float8(&st, spec->target_ci > 0 ? spec->target_ci : NAN);
	if (spec->budget_s > 0)
		results_int4(&st, spec->budget_s);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	results_exec("INSERT INTO pgbenchx.sweeps (sweep_id, status, script, clients, duration, label, "
				 "protocol, jobs, transactions, conninfo, coordinator_pid, tags, repeats, environment_id, owner, "
				 "configs, warmup, target_ci, budget_s) "
				 "VALUES ($1, 'running', $2, $3::int[], $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, "
				 "$15::jsonb, $16, $17, $18)", &st);
}

/*
 * An experiment with target_ci (issue 23): whether every ratio to the
 * baseline at this client count has a 95% interval within +-target_ci of
 * it, from experiment_report over the runs stored so far: the unadjusted
 * paired interval (issue 35), a precision target that does not move as
 * client counts are added to Holm's family, at the 97% experiment_report
 * gives an experiment with target_ci, and from 4 pairs, as many as a test
 * needs (so stopped, its intervals covered 94-97% in test_ci_sim.c).
 */
bool
results_experiment_within_target(int64 sweep_id, int clients, double target_ci)
{
	ResultsStmt st = {0};

	results_int8(&st, sweep_id);
	results_int4(&st, clients);
	results_float8(&st, target_ci);
	return results_exec("SELECT (coalesce(pg_catalog.bool_and(r.ratio_low_unadjusted IS NOT NULL AND "
						"GREATEST(r.ratio_high_unadjusted OPERATOR(pg_catalog.-) r.ratio, "
						"r.ratio OPERATOR(pg_catalog.-) r.ratio_low_unadjusted) OPERATOR(pg_catalog.<=) "
						"($3 OPERATOR(pg_catalog.*) r.ratio)), false))::pg_catalog.int4::pg_catalog.int8 "
						"FROM pgbenchx.experiment_report($1) r "
						"WHERE r.clients OPERATOR(pg_catalog.=) $2 AND r.config OPERATOR(pg_catalog.>) 1 "
						"AND r.pairs OPERATOR(pg_catalog.>=) 4", &st) != 0;
}

/* An experiment with target_ci: what ended it (target, budget, run limit). */
void
results_experiment_stopped_by(int64 sweep_id, const char *why)
{
	ResultsStmt st = {0};

	results_int8(&st, sweep_id);
	results_text(&st, why);
	results_exec("UPDATE pgbenchx.sweeps SET stopped_by = $2 WHERE sweep_id OPERATOR(pg_catalog.=) $1", &st);
}

void
results_finish_sweep(int64 sweep_id, const char *status, const char *error)
{
	ResultsStmt st = {0};

	results_int8(&st, sweep_id);
	results_text(&st, status);
	results_text(&st, error);
	results_exec("UPDATE pgbenchx.sweeps SET status = $2, error = $3, finished_at = pg_catalog.now(), "
				 "coordinator_pid = NULL WHERE sweep_id OPERATOR(pg_catalog.=) $1", &st);
}

int64
results_create_run(const RunSpec *spec, int64 run_id, int clients, int jobs, int repeat)
{
	ResultsStmt st = {0};

	if (run_id != 0)
		results_int8(&st, run_id);
	else
		results_arg(&st, INT8OID, (Datum) 0, true);
	if (spec->is_sweep)
		results_int8(&st, spec->id);
	else
		results_arg(&st, INT8OID, (Datum) 0, true);
	results_text(&st, spec->script_name);
	results_text(&st, results_protocol_name(spec->protocol));
	results_int4(&st, spec->scale_detected);
	results_int4(&st, clients);
	results_int4(&st, jobs);
	if (spec->duration > 0)
		results_int4(&st, spec->duration);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	results_text(&st, spec->label[0] ? spec->label : NULL);
	if (spec->transactions > 0)
		results_int8(&st, spec->transactions);
	else
		results_arg(&st, INT8OID, (Datum) 0, true);
	results_text(&st, psprintf(UINT64_FORMAT, spec->random_seed));
	results_text(&st, spec->conninfo_shown[0] ? spec->conninfo_shown : NULL);
	results_int4(&st, MyProcPid);
	results_float8(&st, spec->knobs.rate > 0 ? spec->knobs.rate : NAN);
	results_float8(&st, spec->knobs.latency_limit_usec > 0 ? spec->knobs.latency_limit_usec / 1000.0 : NAN);
	results_int4(&st, spec->knobs.max_tries);
	results_arg(&st, BOOLOID, BoolGetDatum(spec->knobs.connect_per_transaction), false);
	results_text(&st, spec->tags[0] ? spec->tags : NULL);
	results_int4(&st, repeat);
	results_arg(&st, BOOLOID, BoolGetDatum(spec->knobs.replay), false);
	results_environment(&st, spec);
	results_text(&st, spec->owner);
	results_arg(&st, BOOLOID, BoolGetDatum(spec->record_system), false);
	if (spec->config >= 0 && spec->nconfigs > 0)
		results_int4(&st, spec->config + 1);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	results_arg(&st, BOOLOID, BoolGetDatum(spec->nconfigs > 0 && spec->is_warmup), false);
	return results_exec("INSERT INTO pgbenchx.runs (run_id, sweep_id, status, script, protocol, scale, "
						"clients, jobs, duration, label, transactions_per_client, random_seed, "
						"conninfo, coordinator_pid, rate, latency_limit_ms, max_tries, "
						"connect_per_transaction, tags, repeat, replay, environment_id, owner, record_system, "
						"config, warmup) "
						"VALUES (coalesce($1, pg_catalog.nextval('pgbenchx.id_seq'::pg_catalog.regclass)), $2, 'running', $3, $4, $5, "
						"$6, $7, $8, $9, $10, $11::numeric, $12, $13, $14, $15, $16, $17, $18::jsonb, $19, $20, $21, $22, $23, "
						"$24, $25) "
						"RETURNING run_id", &st);
}

void
results_bench_started(int64 run_id, TimestampTz bench_start)
{
	ResultsStmt st = {0};

	/*
	 * progress counts elapsed time from the start of the measured interval;
	 * the moment the drivers were given, exactly: a recorder lines up its
	 * generators' samples by it (part.c)
	 */
	results_int8(&st, run_id);
	results_arg(&st, TIMESTAMPTZOID, TimestampTzGetDatum(bench_start), false);
	results_exec("UPDATE pgbenchx.runs SET started_at = $2 WHERE run_id OPERATOR(pg_catalog.=) $1", &st);
}

/*
 * One second of a run.  span_s: the time it covered (samples.covered_s), 1
 * but for the last second; its tps is a rate over that time.
 */
void
results_write_sample(int64 run_id, int second, const stats_second *s, double span_s)
{
	ResultsStmt st = {0};
	const stats_moments *m = &s->latency.m;

	results_int8(&st, run_id);
	results_int4(&st, second);
	results_int8(&st, (int64) s->transactions);
	results_float8(&st, s->transactions / span_s);
	results_float8(&st, stats_mean(m) / 1000.0);
	results_float8(&st, stats_hist_percentile(&s->latency, 99.0) / 1000.0);
	results_int8(&st, (int64) s->failed);
	results_float8(&st, span_s);
	results_hist(&st, &s->latency, NULL);
	results_int8(&st, (int64) s->skipped);
	results_int8(&st, (int64) s->retried);
	results_int8(&st, (int64) s->retries);
	results_float8(&st, s->lag_sum_us / 1000.0);
	results_exec_ext("INSERT INTO pgbenchx.samples (run_id, second, transactions, tps, latency_avg_ms, "
					 "latency_p99_ms, failed, covered_s, latency_hist, skipped, retried, retries, lag_sum_ms) "
					 "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)", &st, true, NULL);
	/* every second: do not let the coordinator's context grow by one per second */
	pfree(DatumGetPointer(st.values[8]));
}

/*
 * The wait sampler's second (waitsample.c): its n events in one INSERT into
 * pgbenchx.wait_samples.  The arrays are built in a context of their own,
 * freed at once: this runs every second.
 */
void
results_write_waits(int64 run_id, int second, int n, const char *const *types,
					const char *const *events, const int *counts)
{
	MemoryContext cxt = AllocSetContextCreate(CurrentMemoryContext, "pgbenchx wait samples",
											  ALLOCSET_SMALL_SIZES);
	MemoryContext oldcxt = MemoryContextSwitchTo(cxt);
	ResultsStmt st = {0};
	Datum	   *d_types = palloc(sizeof(Datum) * n);
	Datum	   *d_events = palloc(sizeof(Datum) * n);
	Datum	   *d_counts = palloc(sizeof(Datum) * n);

	for (int i = 0; i < n; i++)
	{
		d_types[i] = CStringGetTextDatum(types[i]);
		d_events[i] = CStringGetTextDatum(events[i]);
		d_counts[i] = Int32GetDatum(counts[i]);
	}
	results_int8(&st, run_id);
	results_int4(&st, second);
	results_arg(&st, TEXTARRAYOID,
				PointerGetDatum(construct_array(d_types, n, TEXTOID, -1, false, TYPALIGN_INT)), false);
	results_arg(&st, TEXTARRAYOID,
				PointerGetDatum(construct_array(d_events, n, TEXTOID, -1, false, TYPALIGN_INT)), false);
	results_arg(&st, INT4ARRAYOID,
				PointerGetDatum(construct_array(d_counts, n, INT4OID, 4, true, TYPALIGN_INT)), false);
	MemoryContextSwitchTo(oldcxt);
	results_exec_ext("INSERT INTO pgbenchx.wait_samples (run_id, second, wait_event_type, wait_event, samples) "
					 "SELECT $1, $2, u.t, u.e, u.n "
					 "FROM ROWS FROM (pg_catalog.unnest($3), pg_catalog.unnest($4), pg_catalog.unnest($5)) "
					 "AS u(t, e, n)", &st, true, NULL);
	MemoryContextDelete(cxt);
}

/*
 * The client backends' CPU in a second (NaN: NULL), into its
 * pgbenchx.system_samples row: only this column is updated when the row is
 * there already (the collector writes the others the same way).
 */
void
results_write_backend_cpu(int64 run_id, int second, double covered_s, double cpu_s)
{
	ResultsStmt st = {0};

	results_int8(&st, run_id);
	results_int4(&st, second);
	results_float8(&st, covered_s);
	results_float8(&st, cpu_s);
	results_exec_ext("INSERT INTO pgbenchx.system_samples (run_id, second, covered_s, backend_cpu_s) "
					 "VALUES ($1, $2, $3, $4) ON CONFLICT (run_id, second) "
					 "DO UPDATE SET backend_cpu_s = EXCLUDED.backend_cpu_s", &st, true, NULL);
}

/* the wait sampler's achieved rate: runs.wait_sample_hz */
void
results_wait_sample_hz(int64 run_id, double hz)
{
	ResultsStmt st = {0};

	results_int8(&st, run_id);
	results_float8(&st, hz);
	results_exec("UPDATE pgbenchx.runs SET wait_sample_hz = $2 WHERE run_id OPERATOR(pg_catalog.=) $1", &st);
}

/* one line of runs.system_notes, once per run */
void
results_system_note(int64 run_id, const char *note)
{
	ResultsStmt st = {0};

	results_int8(&st, run_id);
	results_text(&st, note);
	results_exec("UPDATE pgbenchx.runs SET system_notes = "
				 "pg_catalog.array_append(system_notes, $2) "
				 "WHERE run_id OPERATOR(pg_catalog.=) $1 "
				 "AND ($2 OPERATOR(pg_catalog.=) ANY (system_notes)) IS NOT TRUE", &st);
}

/*
 * pgbench's per-script figures, one JSON object per script of the mix in
 * its order, for runs.script_stats (pgbenchx.report prints them as
 * pgbench's "SQL script N" blocks).  Latencies in ms; NULL without a
 * successful transaction, where pgbench prints none.
 */
static char *
results_script_stats(const RunResult *r)
{
	StringInfoData buf;

	if (r->nscripts <= 0)
		return NULL;
	initStringInfo(&buf);
	appendStringInfoChar(&buf, '[');
	for (int k = 0; k < r->nscripts; k++)
	{
		const ScriptCounts *c = &r->scripts[k];

		appendStringInfo(&buf, "%s{\"transactions\": " UINT64_FORMAT ", \"failed\": " UINT64_FORMAT
						 ", \"serialization_failures\": " UINT64_FORMAT
						 ", \"deadlock_failures\": " UINT64_FORMAT
						 ", \"retried\": " UINT64_FORMAT ", \"retries\": " UINT64_FORMAT
						 ", \"skipped\": " UINT64_FORMAT,
						 k > 0 ? ", " : "", c->transactions, c->failed,
						 c->serialization_failures, c->deadlock_failures, c->retried,
						 c->retries, c->skipped);
		if (c->transactions > 0)
		{
			double		mean = c->latency_sum_usec / c->transactions;
			double		var = c->latency_sum2_usec / c->transactions - mean * mean;

			appendStringInfo(&buf, ", \"latency_avg_ms\": %.6f, \"latency_stddev_ms\": %.6f",
							 mean / 1000.0, sqrt(Max(var, 0.0)) / 1000.0);
		}
		else
			appendStringInfoString(&buf, ", \"latency_avg_ms\": null, \"latency_stddev_ms\": null");
		appendStringInfoChar(&buf, '}');
	}
	appendStringInfoChar(&buf, ']');
	return buf.data;
}

/*
 * The final row of every run, its notices first: one writer, whether the
 * figures are the drivers' (coordinator.c) or a multi-generator run's
 * parts' merged (recorder.c), so that both kinds of run have the same
 * columns set, then the figures and verdict of explain_run.  The 95%
 * interval of its tps (tps_ci_low/high, issue 23) is computed from the
 * samples already written, by pgbenchx.ci_seconds (ci_sql.c) in the same
 * statement.
 */
void
results_finish_run(int64 run_id, const RunResult *r)
{
	ResultsStmt st = {0};
	const stats_total *lat = &r->total->latency;
	double		bench_s = r->bench_end_usec / 1e6;
	double		ok = (double) r->total->transactions;

	/* the notices the clients received, before the row reads finished */
	{
		ResultsStmt nst = {0};
		Datum		samples[RUN_NOTICE_SAMPLES];

		for (int i = 0; i < r->nnotice_samples; i++)
			samples[i] = CStringGetTextDatum(r->notice_samples[i]);
		results_int8(&nst, run_id);
		results_int8(&nst, (int64) r->counts.notices);
		results_arg(&nst, TEXTARRAYOID,
					PointerGetDatum(construct_array(samples, r->nnotice_samples, TEXTOID,
													-1, false, TYPALIGN_INT)), false);
		results_exec("UPDATE pgbenchx.runs SET notices = $2, notice_samples = $3 "
					 "WHERE run_id OPERATOR(pg_catalog.=) $1", &nst);
	}

	results_int8(&st, run_id);
	results_text(&st, r->status);
	results_int8(&st, (int64) r->total->transactions);
	results_int8(&st, (int64) r->total->failed);
	results_float8(&st, bench_s > 0 ? ok / bench_s : NAN);
	/* -C: reconnections are inside the interval, as in pgbench */
	results_float8(&st, bench_s > 0 ?
				   ok / (bench_s + (r->connect_per_transaction ? 0 : r->conn_time_ms / 1000.0)) : NAN);
	results_float8(&st, stats_mean(&lat->m) / 1000.0);
	results_float8(&st, stats_stddev(&lat->m) / 1000.0);
	results_float8(&st, stats_total_percentile(lat, 50.0) / 1000.0);
	results_float8(&st, stats_total_percentile(lat, 90.0) / 1000.0);
	results_float8(&st, stats_total_percentile(lat, 95.0) / 1000.0);
	results_float8(&st, stats_total_percentile(lat, 99.0) / 1000.0);
	results_float8(&st, stats_count(&lat->m) > 0 ? stats_max(&lat->m) / 1000.0 : NAN);
	/* -C: pgbench's "average connection time" */
	results_float8(&st, r->connect_per_transaction ?
				   (r->counts.reconnects > 0 ? r->counts.reconnect_usec / 1000.0 / r->counts.reconnects : NAN) :
				   r->conn_time_ms);
	results_text(&st, r->error);
	results_int4(&st, r->aborted_clients);
	results_float8(&st, r->driver_cpu_s);
	results_float8(&st, bench_s);
	results_int8(&st, (int64) r->counts.serialization_failures);
	results_int8(&st, (int64) r->counts.deadlock_failures);
	results_int8(&st, (int64) r->counts.retried);
	results_int8(&st, (int64) r->counts.retries);
	results_int8(&st, (int64) r->counts.skipped);
	results_int8(&st, (int64) r->counts.late);
	results_float8(&st, r->counts.lag_count > 0 ? r->counts.lag_sum_usec / r->counts.lag_count / 1000.0 : NAN);
	results_float8(&st, r->counts.lag_count > 0 ? r->counts.lag_max_usec / 1000.0 : NAN);
	if (r->checkpoints >= 0)
		results_int4(&st, r->checkpoints);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	if (r->autovacuums >= 0)
		results_int4(&st, r->autovacuums);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	if (r->tpcb_consistent >= 0)
		results_arg(&st, BOOLOID, BoolGetDatum(r->tpcb_consistent == 1), false);
	else
		results_arg(&st, BOOLOID, (Datum) 0, true);
	results_int4(&st, r->samples_lost);
	results_int8(&st, r->samples_lost_transactions);
	results_text(&st, results_script_stats(r));
	if (r->tpcb_consistent_before >= 0)
		results_arg(&st, BOOLOID, BoolGetDatum(r->tpcb_consistent_before == 1), false);
	else
		results_arg(&st, BOOLOID, (Datum) 0, true);
	results_hist(&st, NULL, lat);
	if (r->jobs > 0)
		results_int4(&st, r->jobs);
	else
		results_arg(&st, INT4OID, (Datum) 0, true);
	results_finish_explained("UPDATE pgbenchx.runs SET status = $2, finished_at = pg_catalog.clock_timestamp(), "
				 "transactions = $3, failed = $4, tps = $5, tps_incl_conn = $6, "
				 "latency_avg_ms = $7, latency_stddev_ms = $8, latency_p50_ms = $9, "
				 "latency_p90_ms = $10, latency_p95_ms = $11, latency_p99_ms = $12, "
				 "latency_max_ms = $13, conn_time_ms = $14, error = $15, aborted_clients = $16, "
				 "driver_cpu_s = $17, bench_duration_s = $18, coordinator_pid = NULL, "
				 "serialization_failures = $19, deadlock_failures = $20, retried = $21, "
				 "retries = $22, skipped = $23, late = $24, lag_avg_ms = $25, lag_max_ms = $26, "
				 "checkpoints = $27, autovacuums = $28, tpcb_consistent = $29, "
				 "samples_lost = $30, samples_lost_transactions = $31, script_stats = $32::jsonb, tpcb_consistent_before = $33, latency_hist = $34, "
				 "jobs = coalesce($35, jobs), "
				 "tps_ci_low = (ci.c).low, tps_ci_high = (ci.c).high, "
				 "qpm = CASE WHEN replay AND $18 OPERATOR(pg_catalog.>) 0::pg_catalog.float8 "
				 "THEN ($3 OPERATOR(pg_catalog.+) $4)::pg_catalog.float8 OPERATOR(pg_catalog./) $18 "
				 "OPERATOR(pg_catalog.*) 60::pg_catalog.float8 END "
				 "FROM (SELECT pgbenchx.ci_seconds(ARRAY(SELECT s.tps FROM pgbenchx.samples s "
				 "WHERE s.run_id OPERATOR(pg_catalog.=) $1 ORDER BY s.second)) AS c) ci "
				 "WHERE run_id OPERATOR(pg_catalog.=) $1", &st, run_id);
}

void
results_write_statements(int64 run_id, int n, const char *const *scripts,
						 const int *commands, const char *const *texts,
						 const CommandStats *stats)
{
	ResultsStmt st = {0};
	Datum	   *d_scripts,
			   *d_commands,
			   *d_texts,
			   *d_executions,
			   *d_latencies,
			   *d_failures,
			   *d_retries;
	bool	   *lat_nulls;
	int			dims[1];
	int			lbs[1] = {1};

	if (n <= 0)
		return;
	d_scripts = palloc(sizeof(Datum) * n);
	d_commands = palloc(sizeof(Datum) * n);
	d_texts = palloc(sizeof(Datum) * n);
	d_executions = palloc(sizeof(Datum) * n);
	d_latencies = palloc(sizeof(Datum) * n);
	d_failures = palloc(sizeof(Datum) * n);
	d_retries = palloc(sizeof(Datum) * n);
	lat_nulls = palloc(sizeof(bool) * n);
	for (int i = 0; i < n; i++)
	{
		d_scripts[i] = CStringGetTextDatum(scripts[i]);
		d_commands[i] = Int32GetDatum(commands[i]);
		d_texts[i] = CStringGetTextDatum(texts[i]);
		d_executions[i] = Int64GetDatum((int64) stats[i].executions);
		lat_nulls[i] = stats[i].executions == 0;
		d_latencies[i] = Float8GetDatum(stats[i].executions > 0 ?
										stats[i].sum_usec / 1000.0 / stats[i].executions : 0);
		d_failures[i] = Int64GetDatum((int64) stats[i].failures);
		d_retries[i] = Int64GetDatum((int64) stats[i].retries);
		if ((i & 1023) == 0)
			CHECK_FOR_INTERRUPTS();
	}
	dims[0] = n;
	results_int8(&st, run_id);
	results_arg(&st, TEXTARRAYOID,
				PointerGetDatum(construct_array(d_scripts, n, TEXTOID, -1, false, TYPALIGN_INT)), false);
	results_arg(&st, INT4ARRAYOID,
				PointerGetDatum(construct_array(d_commands, n, INT4OID, 4, true, TYPALIGN_INT)), false);
	results_arg(&st, TEXTARRAYOID,
				PointerGetDatum(construct_array(d_texts, n, TEXTOID, -1, false, TYPALIGN_INT)), false);
	results_arg(&st, INT8ARRAYOID,
				PointerGetDatum(construct_array(d_executions, n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)), false);
	results_arg(&st, FLOAT8ARRAYOID,
				PointerGetDatum(construct_md_array(d_latencies, lat_nulls, 1, dims, lbs, FLOAT8OID, 8,
												   FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)), false);
	results_arg(&st, INT8ARRAYOID,
				PointerGetDatum(construct_array(d_failures, n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)), false);
	results_arg(&st, INT8ARRAYOID,
				PointerGetDatum(construct_array(d_retries, n, INT8OID, 8, FLOAT8PASSBYVAL, TYPALIGN_DOUBLE)), false);
	/* one statement, one transaction: 100,000 commands take about a second */
	results_exec("INSERT INTO pgbenchx.statement_stats (run_id, script, command, command_text, "
				 "executions, latency_avg_ms, failures, retries) "
				 "SELECT $1, u.s, u.c, u.t, u.e, u.l, u.f, u.r "
				 "FROM ROWS FROM (pg_catalog.unnest($2), pg_catalog.unnest($3), pg_catalog.unnest($4), "
				 "pg_catalog.unnest($5), pg_catalog.unnest($6), pg_catalog.unnest($7), "
				 "pg_catalog.unnest($8)) AS u(s, c, t, e, l, f, r)", &st);
}

void
results_abandon_run(int64 run_id, const char *status, const char *error)
{
	ResultsStmt st = {0};

	results_int8(&st, run_id);
	results_text(&st, status);
	results_text(&st, error);
	/* samples already written stay; the totals are those of the samples */
	results_exec("UPDATE pgbenchx.runs r SET status = $2, error = coalesce(r.error, $3), "
				 "finished_at = pg_catalog.clock_timestamp(), coordinator_pid = NULL, "
				 "transactions = s.transactions, failed = s.failed "
				 "FROM (SELECT coalesce(pg_catalog.sum(transactions), 0)::bigint AS transactions, "
				 "coalesce(pg_catalog.sum(failed), 0)::bigint AS failed "
				 "FROM pgbenchx.samples WHERE run_id OPERATOR(pg_catalog.=) $1) s "
				 "WHERE r.run_id OPERATOR(pg_catalog.=) $1", &st);
}
