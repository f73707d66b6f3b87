/*-------------------------------------------------------------------------
 *
 * part.c
 *	  A part: this server's share of a run that a recorder drives from
 *	  several generator servers (issue 14's generator side).
 *
 * pgbenchx.launch_part (its options are read by options.c's table, the
 * launch is launch.c's) starts an ordinary run with what only a part has,
 * checked here, called through the part's launch kind and step kind
 * (kinds.c): its clients are the clients first_client .. first_client +
 * clients - 1 of a run of total_clients (their :client_id and seeds follow
 * the global number, so the parts' union is one run's clients), its mix
 * comes inline (scripts) or as a replay list (replay_queries), and part_of
 * names the recorder's run (stored in runs.tags).
 *
 * Its coordinator connects the clients, publishes the phase 'ready' and
 * waits here for pgbenchx.part_go(run_id, start_at), which the recorder
 * sends to every part with the same moment on each generator's clock; it
 * then sleeps until that moment and starts the measured interval.  A go
 * that comes more than PART_MAX_LATE_MS after its moment, or none within
 * go_timeout_s, fails the part.
 *
 * The go passes through a small struct of the main shared memory found by
 * name (as progress.c's): slot 0 for a part that holds the cluster-wide
 * lock, slot 1 for the one part that may run without it, beside the run in
 * progress on its recorder's own server (part_runs_unlocked).  This file
 * neither starts runs nor measures.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xlog.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/lwlock.h"
#include "storage/proc.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/fmgrprotos.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/numeric.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "owner.h"
#include "part.h"
#include "pg_compat.h"
#include "progress.h"
#include "script.h"
#include "script_sql.h"
#include "searchpath.h"

PG_FUNCTION_INFO_V1(pgbenchx_part_go);

#define PART_SHMEM_NAME		"pgbenchx part go"
#define PART_SLOT_LOCKED	0
#define PART_SLOT_UNLOCKED	1
#define PART_NAME_MAX		63	/* bytes of an inline script's name */
#define PART_MAX_GENERATORS	64
#define PART_MAX_BODY_BYTES	(64 * 1024 * 1024)	/* the inline scripts together */

/* one part waiting for its go */
typedef struct PartSlot
{
	int			coordinator_pid;	/* 0: none */
	int			procno;
	int64		run_id;
	Oid			roleid;			/* the run's role: who may start it */
	bool		ready;			/* clients connected, waiting for the go */
	bool		go;				/* part_go arrived ... */
	TimestampTz start_at;		/* ... for this moment ... */
	TimestampTz go_at;			/* ... at this time */
} PartSlot;

typedef struct PartShared
{
	slock_t		mutex;
	int			unlocked_pid;	/* the coordinator of the part without the lock */
	PartSlot	slots[2];
} PartShared;

static PartShared *part_shared = NULL;

static PartShared *
part_attach(void)
{
	bool		found;

	if (part_shared != NULL)
		return part_shared;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	part_shared = ShmemInitStruct(PART_SHMEM_NAME, sizeof(PartShared), &found);
	if (!found)
	{
		memset(part_shared, 0, sizeof(PartShared));
		SpinLockInit(&part_shared->mutex);
	}
	LWLockRelease(AddinShmemInitLock);
	return part_shared;
}

/* ---------------------------------------------------------------------
 * Launch: the options only a part has
 * --------------------------------------------------------------------- */

static void
part_bad_part_of(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid part_of"),
			 errdetail("%s", why),
			 errhint("Pass part_of => '{\"recorder\": \"<system identifier>/<database>\", \"run_id\": <the recorder's run>, \"generator\": <1-based position>}'.")));
}

/* a jsonb object's integer member, within bounds; false if absent */
static bool
part_json_int(JsonbContainer *obj, const char *key, int64 min, int64 max, int64 *out,
			  const char *what)
{
	JsonbValue *v = getKeyJsonValueFromContainer(obj, key, strlen(key), NULL);
	char	   *text;
	char	   *end;

	if (v == NULL)
		return false;
	if (v->type != jbvNumeric)
		part_bad_part_of(psprintf("%s must be an integer.", what));
	text = numeric_normalize(v->val.numeric);
	errno = 0;
	*out = strtoi64(text, &end, 10);
	if (*end != '\0' || errno == ERANGE || *out < min || *out > max)
		part_bad_part_of(psprintf("%s must be an integer from " INT64_FORMAT " to " INT64_FORMAT ", not %s.",
								  what, min, max, script_sql_echo(text)));
	return true;
}

/* part_of's members, checked: recorder, run_id, generator */
static void
part_read_part_of(Jsonb *part_of, char **recorder, int64 *run_id, int64 *generator)
{
	JsonbValue *v;
	JsonbIterator *it;
	JsonbValue	kv;
	JsonbIteratorToken tok;

	if (part_of == NULL || !JB_ROOT_IS_OBJECT(part_of))
		part_bad_part_of("part_of must be a jsonb object.");
	it = JsonbIteratorInit(&part_of->root);
	while ((tok = JsonbIteratorNext(&it, &kv, true)) != WJB_DONE)
	{
		char	   *key;

		if (tok != WJB_KEY)
			continue;
		key = pnstrdup(kv.val.string.val, kv.val.string.len);
		if (strcmp(key, "recorder") != 0 && strcmp(key, "run_id") != 0 &&
			strcmp(key, "generator") != 0)
			part_bad_part_of(psprintf("part_of has no member \"%s\"; it has recorder, run_id and generator.",
									  script_sql_echo(key)));
	}
	v = getKeyJsonValueFromContainer(&part_of->root, "recorder", strlen("recorder"), NULL);
	if (v == NULL || v->type != jbvString || v->val.string.len == 0 ||
		v->val.string.len > NAMEDATALEN + 32)
		part_bad_part_of("part_of.recorder must be the recorder's \"<system identifier>/<database name>\".");
	*recorder = pnstrdup(v->val.string.val, v->val.string.len);
	if (!part_json_int(&part_of->root, "run_id", 1, PG_INT64_MAX, run_id, "part_of.run_id"))
		part_bad_part_of("part_of.run_id, the recorder's run, is missing.");
	if (!part_json_int(&part_of->root, "generator", 1, PART_MAX_GENERATORS, generator, "part_of.generator"))
		part_bad_part_of("part_of.generator, this generator's 1-based position, is missing.");
}

void
part_check_options(const LaunchOptions *opts, RunSpec *spec)
{
	int			clients = opts->clients[0];
	int			total = opts->total_clients_given ? opts->total_clients : clients;
	int			mixes = (opts->script != NULL) + (opts->scripts != NULL) + (opts->replay ? 1 : 0);
	char	   *recorder;
	int64		run_id;
	int64		generator;
	char	   *merged;
	Jsonb	   *tags;

	if (mixes != 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("launch_part needs exactly one of script, scripts and replay_queries"),
				 errdetail("%d of them %s given.", mixes, mixes == 1 ? "was" : "were"),
				 errhint("Pass the mix inline as scripts => '[{\"name\": ..., \"body\": ..., \"weight\": 1}]', or a replay as replay_queries.")));
	if (opts->shuffle && !opts->replay)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("shuffle applies only to a replay part"),
				 errhint("Pass replay_queries as well, or leave shuffle out.")));
	if (opts->first_client < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("first_client must be 0 or more, not %d", opts->first_client),
				 errdetail("first_client is the global number of the part's first client."),
				 errhint("Pass the sum of the clients of the parts before this one.")));
	if (total < 1 || (int64) opts->first_client + clients > total)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("clients %d to %d are not within the %d clients of the run",
						opts->first_client, opts->first_client + clients - 1, total),
				 errdetail("A part runs the clients first_client .. first_client + clients - 1 of a run of total_clients."),
				 errhint("Pass total_clients of at least first_client + clients.")));
	if (opts->go_timeout_s < 1 || opts->go_timeout_s > PART_MAX_AHEAD_S)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("go_timeout_s must be from 1 to %d, not %d", PART_MAX_AHEAD_S, opts->go_timeout_s),
				 errdetail("go_timeout_s is how long a part waits for pgbenchx.part_go once its clients are connected."),
				 errhint("Leave it out for 60 s.")));
	part_read_part_of(opts->part_of, &recorder, &run_id, &generator);

	spec->is_part = true;
	spec->first_client = opts->first_client;
	spec->total_clients = total;
	spec->go_timeout_s = opts->go_timeout_s;

	/* runs.tags: the caller's tags, and part_of */
	tags = DatumGetJsonbP(DirectFunctionCall1(jsonb_in,
											  CStringGetDatum(psprintf("{\"part_of\": %s}",
																	   JsonbToCString(NULL, &opts->part_of->root,
																					  VARSIZE(opts->part_of))))));
	if (opts->tags)
		tags = DatumGetJsonbP(DirectFunctionCall2(jsonb_concat, JsonbPGetDatum(opts->tags),
												  JsonbPGetDatum(tags)));
	merged = JsonbToCString(NULL, &tags->root, VARSIZE(tags));
	if (strlen(merged) >= sizeof(spec->tags))
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("tags are too long"),
				 errhint("Keep tags and part_of together under %d bytes.", (int) sizeof(spec->tags))));
	strlcpy(spec->tags, merged, sizeof(spec->tags));
}

static void
part_bad_scripts(const char *why)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("invalid scripts"),
			 errdetail("%s", why),
			 errhint("Pass scripts => '[{\"name\": \"mine\", \"body\": \"SELECT 1;\", \"weight\": 1}]'.")));
}

int
part_build_mix(const LaunchOptions *opts, StringInfo payload, StringInfo display, bool *builtin)
{
	JsonbContainer *arr = &opts->scripts->root;
	int			n;
	int64		total = 0;
	Size		bytes = 0;

	*builtin = false;
	if (!JB_ROOT_IS_ARRAY(opts->scripts) || JB_ROOT_IS_SCALAR(opts->scripts))
		part_bad_scripts("scripts must be a jsonb array of objects.");
	n = JsonContainerSize(arr);
	if (n < 1)
		part_bad_scripts("scripts is empty.");
	if (n > SCRIPT_MAX_SCRIPTS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("at most %d SQL scripts are allowed", SCRIPT_MAX_SCRIPTS),
				 errhint("Pass fewer scripts.")));
	for (int i = 0; i < n; i++)
	{
		JsonbValue *elem = getIthJsonbValueFromContainer(arr, i);
		JsonbContainer *obj;
		JsonbValue *name;
		JsonbValue *body;
		JsonbValue *weight;
		char	   *name_s;
		char	   *body_s;
		int64		w = 1;
		char	   *resolved;
		char	   *builtin_body;
		char	   *owner;
		bool		is_builtin;

		if (elem == NULL || elem->type != jbvBinary || !JsonContainerIsObject(elem->val.binary.data))
			part_bad_scripts(psprintf("Element %d of scripts is not an object.", i + 1));
		obj = elem->val.binary.data;
		name = getKeyJsonValueFromContainer(obj, "name", 4, NULL);
		body = getKeyJsonValueFromContainer(obj, "body", 4, NULL);
		weight = getKeyJsonValueFromContainer(obj, "weight", 6, NULL);
		if ((int) JsonContainerSize(obj) != (name != NULL) + (body != NULL) + (weight != NULL))
			part_bad_scripts(psprintf("Element %d of scripts has members other than name, body and weight.", i + 1));
		if (name == NULL || name->type != jbvString || name->val.string.len < 1 ||
			name->val.string.len > PART_NAME_MAX)
			part_bad_scripts(psprintf("Element %d of scripts needs a name, a string of 1 to %d bytes.",
									  i + 1, PART_NAME_MAX));
		if (body == NULL || body->type != jbvString)
			part_bad_scripts(psprintf("Element %d of scripts needs a body, the script's text.", i + 1));
		if (weight != NULL)
		{
			char	   *text;
			char	   *end;

			if (weight->type != jbvNumeric)
				part_bad_scripts(psprintf("The weight of element %d of scripts must be an integer.", i + 1));
			text = numeric_normalize(weight->val.numeric);
			errno = 0;
			w = strtoi64(text, &end, 10);
			if (*end != '\0' || errno == ERANGE || w < 0 || w > PG_INT32_MAX)
				part_bad_scripts(psprintf("The weight of element %d of scripts must be an integer from 0 to %d, not %s.",
										  i + 1, PG_INT32_MAX, script_sql_echo(text)));
		}
		name_s = pnstrdup(name->val.string.val, name->val.string.len);
		body_s = pnstrdup(body->val.string.val, body->val.string.len);
		if (strlen(name_s) != (size_t) name->val.string.len || strlen(body_s) != (size_t) body->val.string.len)
			part_bad_scripts(psprintf("Element %d of scripts contains a zero byte.", i + 1));
		bytes += body->val.string.len;
		if (bytes > PART_MAX_BODY_BYTES)
			ereport(ERROR,
					(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
					 errmsg("the scripts are larger than %d bytes", PART_MAX_BODY_BYTES),
					 errhint("Pass shorter scripts.")));
		/* a built-in's own text: its :scale is the count of branches, as for the built-in */
		if (script_sql_resolve(name_s, &resolved, &builtin_body, &is_builtin, &owner) &&
			is_builtin && strcmp(resolved, name_s) == 0 && strcmp(builtin_body, body_s) == 0)
			*builtin = true;
		total += w;
		appendBinaryStringInfo(payload, name_s, strlen(name_s) + 1);
		appendStringInfo(payload, INT64_FORMAT, w);
		appendStringInfoChar(payload, '\0');
		appendBinaryStringInfo(payload, body_s, strlen(body_s) + 1);
		appendStringInfo(display, "%s%s", i > 0 ? ", " : "", name_s);
		if (n > 1 || w != 1)
			appendStringInfo(display, "@" INT64_FORMAT, w);
	}
	launch_check_mix(total, display);
	return n;
}

/* "<system identifier>/<database name>": how part_of names a recorder */
static char *
part_this_server(void)
{
	return psprintf(UINT64_FORMAT "/%s", GetSystemIdentifier(), get_database_name(MyDatabaseId));
}

bool
part_runs_unlocked(const LaunchOptions *opts)
{
	char	   *recorder;
	int64		run_id;
	int64		generator;
	PartShared *ps = part_attach();
	int			other;
	int			pid = 0;
	int			nestlevel;
	Datum		args[2];
	Oid			argtypes[2] = {INT8OID, TEXTOID};

	part_read_part_of(opts->part_of, &recorder, &run_id, &generator);
	if (strcmp(recorder, part_this_server()) != 0)
		return false;
	/* only one part runs beside the run */
	SpinLockAcquire(&ps->mutex);
	other = ps->unlocked_pid;
	SpinLockRelease(&ps->mutex);
	if (other != 0 && owner_coordinator_alive(other))
		return false;
	/*
	 * The recorder's run is in progress in this database, its coordinator
	 * alive, and it is the caller's own (the recorder logs in to its
	 * generators as the role that started the run): a part naming another
	 * role's run takes the lock like any run, and is refused while that run
	 * goes on.
	 */
	args[0] = Int64GetDatum(run_id);
	args[1] = CStringGetTextDatum(GetUserNameFromId(GetUserId(), false));
	nestlevel = searchpath_pin();
	if (SPI_execute_with_args("SELECT coordinator_pid FROM pgbenchx.runs "
							  "WHERE run_id OPERATOR(pg_catalog.=) $1 AND status OPERATOR(pg_catalog.=) 'running' "
							  "AND owner OPERATOR(pg_catalog.=) $2::pg_catalog.name "
							  "UNION ALL SELECT coordinator_pid FROM pgbenchx.sweeps "
							  "WHERE sweep_id OPERATOR(pg_catalog.=) $1 AND status OPERATOR(pg_catalog.=) 'running' "
							  "AND owner OPERATOR(pg_catalog.=) $2::pg_catalog.name",
							  2, argtypes, args, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed");
	if (SPI_processed > 0)
	{
		char	   *v = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);

		pid = v ? atoi(v) : 0;
	}
	searchpath_restore(nestlevel);
	return pid != 0 && pid != MyProcPid && owner_coordinator_alive(pid);
}

/* ---------------------------------------------------------------------
 * The coordinator: without the lock, and waiting for the go
 * --------------------------------------------------------------------- */

static void
part_release_unlocked(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	PartShared *ps = part_shared;

	if (ps == NULL)
		return;
	SpinLockAcquire(&ps->mutex);
	if (ps->unlocked_pid == MyProcPid)
		ps->unlocked_pid = 0;
	SpinLockRelease(&ps->mutex);
}

bool
part_claim_unlocked(void)
{
	PartShared *ps = part_attach();
	int			other;
	bool		claimed = false;

	SpinLockAcquire(&ps->mutex);
	other = ps->unlocked_pid;
	SpinLockRelease(&ps->mutex);
	/* a coordinator that is gone left its pid: not alive, the place is free */
	if (other != 0 && owner_coordinator_alive(other))
		return false;
	SpinLockAcquire(&ps->mutex);
	if (ps->unlocked_pid == other)
	{
		ps->unlocked_pid = MyProcPid;
		claimed = true;
	}
	SpinLockRelease(&ps->mutex);
	if (claimed)
		before_shmem_exit(part_release_unlocked, (Datum) 0);
	return claimed;
}

static void
part_clear_slot(PartSlot *slot)
{
	PartShared *ps = part_shared;

	SpinLockAcquire(&ps->mutex);
	if (slot->coordinator_pid == MyProcPid)
		memset(slot, 0, sizeof(PartSlot));
	SpinLockRelease(&ps->mutex);
}

static void
part_check_cancel(volatile sig_atomic_t *cancel, bool *cancelled, const char *when)
{
	if (*cancel)
	{
		*cancelled = true;
		ereport(ERROR,
				(errcode(ERRCODE_QUERY_CANCELED),
				 errmsg("run cancelled %s", when)));
	}
}

void
part_wait_for_go(const RunSpec *spec, int64 run_id, volatile sig_atomic_t *cancel, bool *cancelled)
{
	PartShared *ps = part_attach();
	PartSlot   *slot = &ps->slots[spec->part_unlocked ? PART_SLOT_UNLOCKED : PART_SLOT_LOCKED];
	TimestampTz deadline = GetCurrentTimestamp() + (int64) spec->go_timeout_s * USECS_PER_SEC;
	TimestampTz start_at = 0;
	TimestampTz go_at = 0;

	SpinLockAcquire(&ps->mutex);
	memset(slot, 0, sizeof(PartSlot));
	slot->coordinator_pid = MyProcPid;
	slot->procno = PGX_PROCNO(MyProc);
	slot->run_id = run_id;
	slot->roleid = spec->roleid;
	slot->ready = true;
	SpinLockRelease(&ps->mutex);
	progress_phase(RUN_PHASE_READY);
	pgstat_report_activity(STATE_RUNNING,
						   psprintf("pgbenchx run " INT64_FORMAT ": ready, waiting for its start", run_id));

	PG_TRY();
	{
		for (;;)
		{
			bool		go;
			TimestampTz now;

			SpinLockAcquire(&ps->mutex);
			go = slot->go;
			start_at = slot->start_at;
			go_at = slot->go_at;
			SpinLockRelease(&ps->mutex);
			if (go)
				break;
			part_check_cancel(cancel, cancelled, "while it waited for its start");
			now = GetCurrentTimestamp();
			if (now >= deadline)
				ereport(ERROR,
						(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
						 errmsg("no start came from the recorder within %d s", spec->go_timeout_s)));
			(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
							 Min(100, (deadline - now + 999) / 1000), PG_WAIT_EXTENSION);
			ResetLatch(MyLatch);
			CHECK_FOR_INTERRUPTS();
		}
		if (go_at - start_at > (int64) PART_MAX_LATE_MS * 1000)
			ereport(ERROR,
					(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
					 errmsg("the start came %.0f ms after its moment, more than the %d ms allowed",
							(double) (go_at - start_at) / 1000.0, PART_MAX_LATE_MS)));
		pgstat_report_activity(STATE_RUNNING,
							   psprintf("pgbenchx run " INT64_FORMAT ": starting at its moment", run_id));
		/* sleep until the moment, on this server's clock */
		for (;;)
		{
			TimestampTz now = GetCurrentTimestamp();
			int64		left = start_at - now;

			part_check_cancel(cancel, cancelled, "while it waited for its start");
			if (left <= 0)
				break;
			if (left > 2000)
			{
				(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
								 Min((left - 1000) / 1000, 1000), PG_WAIT_EXTENSION);
				ResetLatch(MyLatch);
			}
			else
				pg_usleep(left);
			CHECK_FOR_INTERRUPTS();
		}
	}
	PG_FINALLY();
	{
		part_clear_slot(slot);
	}
	PG_END_TRY();
}

/* ---------------------------------------------------------------------
 * pgbenchx.part_go(run_id bigint, start_at timestamptz)
 * --------------------------------------------------------------------- */

/* what a run that is not waiting for its go is, for the refusal */
static char *
part_run_state(int64 run_id)
{
	Datum		arg = Int64GetDatum(run_id);
	Oid			argtype = INT8OID;
	char	   *state = NULL;
	int			nestlevel;
	MemoryContext caller = CurrentMemoryContext;

	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	nestlevel = searchpath_pin();
	if (SPI_execute_with_args("SELECT status::pg_catalog.text, "
							  "(tags OPERATOR(pg_catalog.?) 'part_of')::pg_catalog.text FROM pgbenchx.runs "
							  "WHERE run_id OPERATOR(pg_catalog.=) $1",
							  1, &argtype, &arg, NULL, true, 1) != SPI_OK_SELECT)
		elog(ERROR, "SPI_execute_with_args failed");
	if (SPI_processed > 0)
	{
		char	   *status = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1);
		char	   *is_part = SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 2);

		if (is_part == NULL || strcmp(is_part, "true") != 0)
			state = psprintf("Run " INT64_FORMAT " is not a part (it was not started by pgbenchx.launch_part); it is %s",
							 run_id, status ? status : "?");
		else if (status && strcmp(status, "running") == 0)
			state = psprintf("Run " INT64_FORMAT " is running but is not waiting for its start now (pgbenchx.progress_state() shows its phase)", run_id);
		else
			state = psprintf("Run " INT64_FORMAT " is %s", run_id, status ? status : "?");
	}
	else
		state = psprintf("There is no run " INT64_FORMAT " in this database", run_id);
	state = MemoryContextStrdup(caller, state);
	searchpath_restore(nestlevel);
	SPI_finish();
	return state;
}

static void
part_not_waiting(int64 run_id, const char *state)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("run " INT64_FORMAT " is not a part waiting for its start", run_id),
			 errdetail("%s.", state),
			 errhint("Start a part with pgbenchx.launch_part and wait until pgbenchx.progress_state() shows it ready.")));
}

Datum
pgbenchx_part_go(PG_FUNCTION_ARGS)
{
	PartShared *ps = part_attach();
	int64		run_id;
	TimestampTz start_at;
	TimestampTz now = GetCurrentTimestamp();
	PartSlot	copy;
	PartSlot   *slot = NULL;
	char	   *owner;

	if (PG_ARGISNULL(0) || PG_ARGISNULL(1))
		ereport(ERROR,
				(errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
				 errmsg("argument \"%s\" must not be null", PG_ARGISNULL(0) ? "run_id" : "start_at"),
				 errdetail("part_go starts the part run_id at the moment start_at."),
				 errhint("Pass the part's run id and the moment its measured interval starts.")));
	run_id = PG_GETARG_INT64(0);
	start_at = PG_GETARG_TIMESTAMPTZ(1);
	if (TIMESTAMP_NOT_FINITE(start_at) || start_at > now + (int64) PART_MAX_AHEAD_S * USECS_PER_SEC)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("start_at must be within %d s from now", PART_MAX_AHEAD_S),
				 errdetail("The part keeps its clients connected until then."),
				 errhint("Pass a moment such as clock_timestamp() + interval '1 s'.")));

	for (int i = 0; i < (int) lengthof(ps->slots) && slot == NULL; i++)
	{
		SpinLockAcquire(&ps->mutex);
		copy = ps->slots[i];
		SpinLockRelease(&ps->mutex);
		if (copy.coordinator_pid != 0 && copy.run_id == run_id &&
			owner_coordinator_alive(copy.coordinator_pid))
			slot = &ps->slots[i];
	}
	if (slot == NULL)
		part_not_waiting(run_id, part_run_state(run_id));

	/* who may start it: who may cancel it */
	owner = GetUserNameFromId(copy.roleid, true);
	if (!owner_may_cancel(owner))
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied to start run " INT64_FORMAT " of role \"%s\"",
						run_id, owner ? owner : "(unknown)"),
				 errdetail("A part is started by whoever may cancel it: its role, the members of its role, members of pg_signal_backend (unless a superuser launched it) and superusers."),
				 errhint("Call part_go as the role that launched the part.")));

	SpinLockAcquire(&ps->mutex);
	if (slot->coordinator_pid != copy.coordinator_pid || slot->run_id != run_id ||
		!slot->ready || slot->go)
	{
		bool		went = slot->coordinator_pid == copy.coordinator_pid && slot->run_id == run_id && slot->go;

		SpinLockRelease(&ps->mutex);
		part_not_waiting(run_id, went ? psprintf("Run " INT64_FORMAT " has received its start already", run_id)
						 : part_run_state(run_id));
	}
	slot->go = true;
	slot->start_at = start_at;
	slot->go_at = GetCurrentTimestamp();
	SpinLockRelease(&ps->mutex);
	SetLatch(&ProcGlobal->allProcs[copy.procno].procLatch);
	PG_RETURN_VOID();
}
