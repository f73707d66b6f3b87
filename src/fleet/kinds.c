/*-------------------------------------------------------------------------
 *
 * kinds.c
 *	  How fleet/ plugs into run/ (issue 22): the launch kinds (launch.h)
 *	  and the step kinds (coordinator.h) of a part and of a run driven from
 *	  generators, registered by the top layer's _PG_init (which runs in
 *	  every backend and background worker that loads the library), and the
 *	  launch phases only a run driven from generators has: its generators'
 *	  arguments and their pre-flight.
 *
 * run/ includes no header of fleet/ and calls none of its functions; it
 * calls these hooks at its phases.  What each hook does is its own file's:
 * part.c's for a part, fleet.c's pre-flight and recorder.c's step for a run
 * driven from generators.  This file must not grow the features
 * themselves: only which hook is which, and the generators' launch checks.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "utils/builtins.h"

#include "conninfo.h"
#include "coordinator.h"
#include "fleet.h"
#include "kinds.h"
#include "launch.h"
#include "loopback.h"
#include "part.h"
#include "recorder.h"
#include "run_spec.h"
#include "secret.h"

/* what phase 2b hands to the pre-flight */
typedef struct KindsGenerators
{
	FleetGenerator *gens;		/* as the recorder will connect to them */
	const char *target;			/* the caller's conninfo, re-quoted, without secrets */
} KindsGenerators;

/*
 * Launch's phase 2b, from the arguments alone: the array refused for what
 * it cannot mean, and each conninfo checked by the clients' rule
 * (conninfo.c: a non-superuser names no other role and reads no file of
 * the server's account).  Returns the generators as the recorder will
 * connect to them, and the target as phase 2 re-quoted it.
 */
static void *
kinds_generators_arguments(const LaunchOptions *opts, RunSpec *spec, const char *quoted_target)
{
	KindsGenerators *args = palloc0(sizeof(KindsGenerators));
	FleetGenerator *gens;
	int			n = opts->ngenerators;
	char	   *target_password;

	if (n < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generators must not be empty"),
				 errdetail("generators lists the servers that drive the run's clients, one conninfo each."),
				 errhint("Pass one conninfo per load generator, or leave generators out to run from this server alone.")));
	if (n > FLEET_MAX_GENERATORS)
		ereport(ERROR,
				(errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED),
				 errmsg("%d generators are too many", n),
				 errdetail("A run takes at most %d generators.", FLEET_MAX_GENERATORS),
				 errhint("Pass at most %d conninfos.", FLEET_MAX_GENERATORS)));
	if (opts->conninfo == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("generators need conninfo naming the server under test"),
				 errdetail("Every generator's clients connect to the server that conninfo names; without it each would benchmark its own server."),
				 errhint("Pass conninfo => 'host=... port=... dbname=...' of the server under test, as the generators reach it.")));
	if (opts->check_tpcb)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("check_tpcb is not supported with generators"),
				 errdetail("The TPC-B check compares sums before and after one run's clients; the parts of a run driven from several generators end apart."),
				 errhint("Leave check_tpcb out, or run from one server.")));
	if (opts->log_transactions)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("log_transactions is not supported with generators"),
				 errdetail("The per-transaction log is read from the drivers' shared memory on the server that runs them; with generators the drivers run on the generators."),
				 errhint("Leave log_transactions out, or run from one server.")));
	if (opts->client_messages)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("client_messages is not supported with generators"),
				 errdetail("The clients' messages are read from the drivers' shared memory on the server that runs them; with generators the drivers run on the generators."),
				 errhint("Leave client_messages out, or run from one server.")));
	if (opts->exit_on_abort)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("exit_on_abort is not supported with generators"),
				 errdetail("A client's abort stops the drivers of the server it runs on; the parts of a run driven from several generators run on their own."),
				 errhint("Leave exit_on_abort out, or run from one server.")));
	if (opts->continue_on_error)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("continue_on_error is not supported with generators"),
				 errdetail("The generators' parts run with the options a part takes, and continue_on_error is not one of them."),
				 errhint("Leave continue_on_error out, or run from one server.")));
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			if (strcmp(opts->generators[i], opts->generators[j]) == 0)
				ereport(ERROR,
						(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
						 errmsg("generators %d and %d are the same conninfo", j + 1, i + 1),
						 errdetail("A server hosts one part of a run at a time."),
						 errhint("List each generator once; more clients on one generator come from more clients in the call.")));

	/*
	 * The target, parsed and re-quoted once in phase 2 (launch_check_caller),
	 * goes to each generator's part in launch_part's SQL: without its
	 * secrets.  Its password (typed, or the session's) goes to the part's
	 * session in the startup packet of the recorder's connection to the
	 * generator, as pgbenchx.password (secret.c); SCRAM keys cannot be
	 * handed on that way: a part on PostgreSQL 18 has its own session's, from
	 * the recorder's SCRAM login with them.
	 */
	args->target = secret_strip(quoted_target, &target_password);

	gens = palloc0(sizeof(FleetGenerator) * n);
	for (int i = 0; i < n; i++)
	{
		StringInfoData shown;
		StringInfoData quoted;
		StringInfoData full;
		bool		typed_password = false;

		initStringInfo(&shown);
		initStringInfo(&quoted);
		initStringInfo(&full);
		/* conninfo.c's rule; a conninfo libpq cannot parse is refused there */
		(void) conninfo_check(opts->generators[i], spec->owner, !superuser(), i + 1,
							  secret_session_kind() != SECRET_NONE, &typed_password,
							  &shown, &quoted);
		loopback_append_param(&full, "user", spec->owner);
		loopback_append_param(&full, "application_name", "pgbenchx recorder");
		loopback_append_param(&full, "connect_timeout", "10");
		loopback_append_param(&full, "keepalives", "1");
		loopback_append_param(&full, "keepalives_idle", "5");
		loopback_append_param(&full, "keepalives_interval", "2");
		loopback_append_param(&full, "keepalives_count", "2");
		appendStringInfo(&full, " %s", quoted.data);
		/* the session's secret logs in to the generator, unless one was typed */
		if (!typed_password &&
			(!superuser() || secret_session_kind() == SECRET_PASSWORD))
			(void) secret_append_session(&full);
		if (target_password)
			secret_append_password_option(&full, quoted.data, target_password);
		/* no secret of this server's account on any connection to it, ever */
		if (spec->knobs.require_password)
			conninfo_append_pins(&full);
		gens[i].index = i + 1;
		gens[i].conninfo = full.data;
		gens[i].shown = shown.data;
	}
	args->gens = gens;
	return args;
}

/*
 * Launch's phase 4b, the generators themselves: the clients' shares, then
 * fleet.c's pre-flight on every generator.  Appends the generators' part of
 * the payload (run_spec.h).
 */
static void
kinds_generators_preflight(const LaunchOptions *opts, RunSpec *spec, void *arguments,
						   StringInfo payload)
{
	KindsGenerators *args = arguments;
	FleetGenerator *gens = args->gens;
	int			n = opts->ngenerators;
	int		   *max_share;
	Size		start = payload->len;

	max_share = palloc0(sizeof(int) * n);
	/* pgbench's share formula, in array order, for every step */
	for (int s = 0; s < opts->nsteps; s++)
	{
		int			left = opts->clients[s];

		for (int i = 0; i < n; i++)
		{
			int			share = run_spec_share(left, n, i);

			max_share[i] = Max(max_share[i], share);
			left -= share;
		}
	}
	fleet_preflight(gens, n, max_share, opts->jobs_given ? opts->jobs : 0,
					opts->max_clock_offset_ms, !superuser());

	/*
	 * The generators' part of the payload: the target, then each generator.
	 * The target unpinned: each generator pins its own clients' conninfo
	 * (its launch_part).
	 */
	appendBinaryStringInfo(payload, args->target, strlen(args->target) + 1);
	for (int i = 0; i < n; i++)
	{
		appendBinaryStringInfo(payload, gens[i].conninfo, strlen(gens[i].conninfo) + 1);
		appendBinaryStringInfo(payload, gens[i].shown, strlen(gens[i].shown) + 1);
	}
	spec->ngenerators = n;
	spec->max_clock_offset_ms = opts->max_clock_offset_ms;
	spec->generators_len = payload->len - start;
	spec->payload_len = payload->len;
}

/* a part (launch_part): a local run that waits for its recorder's go */
static const LaunchKind kinds_part_launch = {
	.check_options = part_check_options,
	.build_mix = part_build_mix,
	.runs_unlocked = part_runs_unlocked,
};

static const StepKind kinds_part_step = {
	.claim_unlocked = part_claim_unlocked,
	.wait_for_go = part_wait_for_go,
};

/* a run driven from generators: its clients are the generators' parts */
static const LaunchKind kinds_generators_launch = {
	.remote_clients = true,
	.check_arguments = kinds_generators_arguments,
	.preflight = kinds_generators_preflight,
};

static const StepKind kinds_generators_step = {
	.run_step = recorder_run_step,
	.write_statements = recorder_write_statements,
	.abandon = recorder_abandon,
	.abandon_rows = recorder_abandon_rows,
};

void
fleet_register_kinds(void)
{
	launch_kinds[RUN_KIND_PART] = &kinds_part_launch;
	launch_kinds[RUN_KIND_GENERATORS] = &kinds_generators_launch;
	coordinator_step_kinds[RUN_KIND_PART] = &kinds_part_step;
	coordinator_step_kinds[RUN_KIND_GENERATORS] = &kinds_generators_step;
}
