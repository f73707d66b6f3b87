/*-------------------------------------------------------------------------
 *
 * fleet.c
 *	  A recorder's load generators (issue 14): the connection to one, with
 *	  the generators' deadline; the generators' clock offsets; the
 *	  pre-flight checks made in the caller's session before anything
 *	  starts; and pgbenchx.generator_status(), a generator's answer about
 *	  itself.
 *
 * Used by kinds.c (the pre-flight, in launch's phase 4b) and recorder.c (a
 * step driven by generators).  It knows nothing of the result tables.
 * Every connection to a generator is common/pqconn.c's, the one in-server
 * libpq layer: it waits
 * on the socket together with the latch (a cancel, a terminate or the
 * postmaster's death is always noticed, nothing blocks inside libpq), and
 * since a generator is another server, every answer is read row by row and
 * kept within a byte bound (pqconn_collect), its messages are clipped and
 * made valid in this database's encoding.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <unistd.h>

#include <math.h>

#include "access/htup_details.h"
#include "access/xlog.h"
#include "commands/dbcommands.h"
#include "funcapi.h"
#include "postmaster/bgworker.h"
#include "postmaster/postmaster.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"

#include "fleet.h"
#include "owner.h"
#include "pg_compat.h"
#include "progress.h"
#include "worker.h"

PG_FUNCTION_INFO_V1(pgbenchx_generator_status);

int64
fleet_now_unix_usec(void)
{
	return (int64) GetCurrentTimestamp() +
		(int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC;
}

PGconn *
fleet_connect(const char *conninfo, bool require_password, char **errmsg, char **refused_at)
{
	PqconnConnect how = {
		.what = "a connection to a load generator",
		.timeout_ms = FLEET_ANSWER_TIMEOUT_MS,
		.require_password = require_password,
		/* a generator's server is not ours: its notices are cut too */
		.log_notices = true,
	};

	return pqconn_connect(conninfo, &how, errmsg, refused_at);
}

char *
fleet_name(const FleetGenerator *g)
{
	return psprintf("generator %d (%s)", g->index, g->shown);
}

bool
fleet_clock(FleetGenerator *g, char **errmsg)
{
	double		best_rtt = -1;

	for (int r = 0; r < FLEET_CLOCK_ROUNDS; r++)
	{
		int64		sent = fleet_now_unix_usec();
		int64		received;
		int64		remote;
		PGresult   *res;

		res = pqconn_exec(g->conn,
						  "SELECT (pg_catalog.extract('epoch'::pg_catalog.text, pg_catalog.clock_timestamp()) "
						  "OPERATOR(pg_catalog.*) 1000000)::pg_catalog.int8",
						  0, NULL, FLEET_ANSWER_TIMEOUT_MS, errmsg, NULL);
		received = fleet_now_unix_usec();
		if (res == NULL)
			return false;
		if (PQntuples(res) != 1 || PQgetisnull(res, 0, 0))
		{
			PQclear(res);
			*errmsg = pstrdup("clock_timestamp() returned no value");
			return false;
		}
		remote = strtoi64(PQgetvalue(res, 0, 0), NULL, 10);
		PQclear(res);
		if (best_rtt < 0 || (received - sent) / 1000.0 < best_rtt)
		{
			best_rtt = (received - sent) / 1000.0;
			g->rtt_ms = best_rtt;
			g->uncertainty_ms = best_rtt / 2;
			g->offset_ms = (remote - (sent + received) / 2.0) / 1000.0;
		}
	}
	return true;
}

/* the refusals of the pre-flight: errmsg names the generator */
pgx_noreturn static void fleet_refuse(const FleetGenerator *g, int errcode_value,
									 const char *reason, const char *detail,
									 const char *hint);

static void
fleet_refuse(const FleetGenerator *g, int errcode_value, const char *reason,
			 const char *detail, const char *hint)
{
	ereport(ERROR,
			(errcode(errcode_value),
			 errmsg("%s %s", fleet_name(g), reason),
			 detail ? errdetail("%s", detail) : 0,
			 errhint("%s", hint)));
}

/* the pre-flight's connections, closed on an error or a cancel */
static FleetGenerator *fleet_pre_gens;
static int	fleet_pre_n;

static void
fleet_close_all(void)
{
	for (int i = 0; i < fleet_pre_n; i++)
	{
		pqconn_finish(fleet_pre_gens[i].conn);
		fleet_pre_gens[i].conn = NULL;
	}
}

/* the longest value of generator_status() (versions, numbers, an identifier) */
#define FLEET_MAX_STATUS_BYTES	64

/* a generator's server let a non-superuser in at where without the password */
pgx_noreturn static void
fleet_refuse_no_password(const FleetGenerator *g, const char *where)
{
	fleet_refuse(g, ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED, "let a non-superuser in without a password",
				 psprintf("The server at %s did not ask for the password. A non-superuser's connections to generators must log in with the password the caller supplies, as the benchmark clients' do, so that they cannot borrow this server's identity through trust or peer authentication.",
						  where),
				 "Pass password=... in that generator's conninfo, and have its pg_hba.conf ask for a password (scram-sha-256).");
}

static void
fleet_preflight_one(FleetGenerator *g, int max_share, int jobs, double max_offset_ms,
					bool require_password, const char *my_sysid, const char *my_db)
{
	char	   *err;
	char	   *refused_at = NULL;
	char		sqlstate[6];
	PGresult   *res;
	const char *sql_version;
	const char *lib_version;
	int			free_slots;
	int			ncpus;
	int			need;
	bool		same_server;

	g->conn = fleet_connect(g->conninfo, require_password, &err, &refused_at);
	if (g->conn == NULL && refused_at != NULL)
		fleet_refuse_no_password(g, refused_at);
	if (g->conn == NULL)
		fleet_refuse(g, ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION, "cannot be reached",
					 psprintf("libpq said: %s", err),
					 "Check that the generator's server is up and that its pg_hba.conf lets the calling role in from this server, or fix its conninfo.");

	res = pqconn_exec(g->conn,
					  "SELECT s.sql_version, s.library_version, s.running, s.free_worker_slots, "
					  "s.free_connections, s.ncpus, s.system_identifier, pg_catalog.current_database() "
					  "FROM pgbenchx.generator_status() s",
					  0, NULL, FLEET_ANSWER_TIMEOUT_MS, &err, sqlstate);
	if (res == NULL)
	{
		if (strcmp(sqlstate, "3F000") == 0 || strcmp(sqlstate, "42883") == 0 ||
			strcmp(sqlstate, "42P01") == 0)
			fleet_refuse(g, ERRCODE_UNDEFINED_OBJECT, "has no pgbenchx in that database",
						 psprintf("The generator said: %s", err),
						 "Run CREATE EXTENSION pgbenchx in that database (and grant the calling role pgbenchx.grant_runner there), or point the conninfo at a database that has it.");
		if (strcmp(sqlstate, "42501") == 0)
			fleet_refuse(g, ERRCODE_INSUFFICIENT_PRIVILEGE, "does not let the calling role run pgbenchx",
						 psprintf("The generator said: %s", err),
						 "On that generator, SELECT pgbenchx.grant_runner('role') for the calling role.");
		fleet_refuse(g, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "could not report its state",
					 psprintf("The generator said: %s", err),
					 "Check that pgbenchx on that generator is the same version as here.");
	}
	/* another server's answer: one row of the columns asked, before any is read */
	if (PQntuples(res) != 1 || PQnfields(res) != 8 ||
		PQgetisnull(res, 0, 0) || PQgetisnull(res, 0, 1) || PQgetisnull(res, 0, 3) ||
		PQgetisnull(res, 0, 5) || PQgetisnull(res, 0, 6) || PQgetisnull(res, 0, 7))
		fleet_refuse(g, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "could not report its state",
					 psprintf("pgbenchx.generator_status() there answered %d rows of %d columns, not one row of its 8 columns.",
							  PQntuples(res), PQnfields(res)),
					 "Check that pgbenchx on that generator is the same version as here.");
	for (int c = 0; c < 8; c++)
		if (PQgetlength(res, 0, c) > FLEET_MAX_STATUS_BYTES)
			fleet_refuse(g, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "could not report its state",
						 psprintf("Column %d of pgbenchx.generator_status() there is %d bytes long, more than the %d it has at most.",
								  c + 1, PQgetlength(res, 0, c), FLEET_MAX_STATUS_BYTES),
						 "Check that pgbenchx on that generator is the same version as here.");
	/* shown in messages: valid in this database's encoding */
	sql_version = pstrdup(PQgetvalue(res, 0, 0));
	lib_version = pstrdup(PQgetvalue(res, 0, 1));
	pqconn_sanitize_text((char *) sql_version);
	pqconn_sanitize_text((char *) lib_version);
	if (strcmp(sql_version, PGBENCHX_LIBRARY_VERSION) != 0 ||
		strcmp(lib_version, PGBENCHX_LIBRARY_VERSION) != 0)
		fleet_refuse(g, ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "has another version of pgbenchx",
					 psprintf("Its SQL is version %s and its library %s; here both are %s.",
							  sql_version, lib_version, PGBENCHX_LIBRARY_VERSION),
					 "Install the same pgbenchx version on every generator, and run ALTER EXTENSION pgbenchx UPDATE there.");
	if (!PQgetisnull(res, 0, 2))
		fleet_refuse(g, ERRCODE_OBJECT_IN_USE, "has a run in progress",
					 psprintf("Run or sweep %s is in progress there (0: one is starting).", PQgetvalue(res, 0, 2)),
					 "A server hosts one run at a time: wait for it there with CALL pgbenchx.wait(id), or stop it with SELECT pgbenchx.cancel(id).");
	free_slots = atoi(PQgetvalue(res, 0, 3));
	ncpus = atoi(PQgetvalue(res, 0, 5));
	same_server = strcmp(PQgetvalue(res, 0, 6), my_sysid) == 0 &&
		strcmp(PQgetvalue(res, 0, 7), my_db) == 0;
	/* its part's coordinator and drivers; here also the recorder's coordinator */
	need = (jobs > 0 ? Min(jobs, max_share) :
			worker_default_jobs(max_share, Max(ncpus, 1), free_slots - (same_server ? 1 : 0))) + 1 +
		(same_server ? 1 : 0);
	if (need > free_slots)
		fleet_refuse(g, ERRCODE_CONFIGURATION_LIMIT_EXCEEDED, "has not enough free background worker slots",
					 psprintf("Its part of %d %s needs %d worker slots%s, but only %d %s free there.",
							  max_share, max_share == 1 ? "client" : "clients", need,
							  same_server ? " (with this recorder's coordinator)" : "",
							  Max(free_slots, 0), free_slots == 1 ? "is" : "are"),
					 "Pass fewer jobs, use more generators, or raise max_worker_processes on that generator (this needs a restart).");
	PQclear(res);

	if (!fleet_clock(g, &err))
		fleet_refuse(g, ERRCODE_SQLCLIENT_UNABLE_TO_ESTABLISH_SQLCONNECTION, "did not answer the clock measure",
					 psprintf("libpq said: %s", err),
					 "Check the network between this server and the generator.");
	if (fabs(g->offset_ms) > max_offset_ms)
		fleet_refuse(g, ERRCODE_INVALID_PARAMETER_VALUE, "has a clock offset above max_clock_offset_ms",
					 psprintf("Its clock is %.1f ms %s this server's (measured to within %.1f ms); the bound is %g ms. Per-second samples of the generators would not line up.",
							  fabs(g->offset_ms), g->offset_ms >= 0 ? "ahead of" : "behind",
							  g->uncertainty_ms, max_offset_ms),
					 "Synchronise the clocks (NTP, chrony), or pass a larger max_clock_offset_ms to accept it.");
}

void
fleet_preflight(FleetGenerator *gens, int n, const int *max_share, int jobs,
				double max_offset_ms, bool require_password)
{
	char	   *my_sysid = psprintf(UINT64_FORMAT, GetSystemIdentifier());
	char	   *my_db = get_database_name(MyDatabaseId);

	fleet_pre_gens = gens;
	fleet_pre_n = n;
	PG_TRY();
	{
		for (int i = 0; i < n; i++)
		{
			if (max_share[i] == 0)
				continue;		/* never used */
			fleet_preflight_one(&gens[i], max_share[i], jobs, max_offset_ms,
								require_password, my_sysid, my_db);
			pqconn_finish(gens[i].conn);
			gens[i].conn = NULL;
		}
	}
	PG_CATCH();
	{
		fleet_close_all();
		fleet_pre_n = 0;
		PG_RE_THROW();
	}
	PG_END_TRY();
	fleet_pre_n = 0;
}

/*
 * pgbenchx.generator_status(): what a recorder asks a generator before a
 * run, one row.  The same for every role: counts from the server's own
 * state (owner.c), the run in progress from its coordinator's progress.
 */
Datum
pgbenchx_generator_status(PG_FUNCTION_ARGS)
{
	TupleDesc	tupdesc;
	Datum		values[8];
	bool		nulls[8] = {0};
	int			clients;
	int			workers;
	int64		running = progress_running_id();
	int			pid;
	char	   *activity;
	char	   *dbname;
	char	   *sql_version = NULL;

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);

	sql_version = owner_sql_version();
	owner_count_backends(&clients, &workers);
	values[0] = sql_version ? CStringGetTextDatum(sql_version) : (Datum) 0;
	nulls[0] = sql_version == NULL;
	values[1] = CStringGetTextDatum(PGBENCHX_LIBRARY_VERSION);
	if (running == 0 && !owner_live_coordinator(&pid, &activity, &dbname))
		nulls[2] = true;
	values[2] = Int64GetDatum(running);
	values[3] = Int32GetDatum(max_worker_processes - workers);
	values[4] = Int32GetDatum(MaxConnections - PGX_RESERVED_CONNECTIONS - clients);
	values[5] = Int32GetDatum((int) sysconf(_SC_NPROCESSORS_ONLN));
	values[6] = CStringGetTextDatum(psprintf(UINT64_FORMAT, GetSystemIdentifier()));
	values[7] = TimestampTzGetDatum(GetCurrentTimestamp());
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}
