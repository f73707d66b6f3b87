/*-------------------------------------------------------------------------
 *
 * run_spec.h
 *	  The request format: one RunSpec describes a run or a sweep (its
 *	  options, its script mix, and each script's command count and first
 *	  lines), built and checked once by launch.c, handed to the coordinator
 *	  in the launch DSM segment and embedded in every step's segment for the
 *	  drivers.  Nothing parses a script again to learn its shape.
 *
 * Both segments are laid out with shm_toc (storage/shm_toc.h) under the
 * keys below; the variable part of the spec (names, weights, texts,
 * variables, first lines) is one payload read back with run_spec_mix.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_RUN_SPEC_H
#define PGBENCHX_RUN_SPEC_H

#include "port/atomics.h"
#include "storage/shm_toc.h"

#include "run_shmem.h"
#include "script.h"

#define RUN_SPEC_MAX_STEPS	256		/* client counts x repeats */
#define RUN_SPEC_TAGS_LEN	4096
#define RUN_SPEC_LABEL_LEN	256
#define RUN_SPEC_MAX_CONFIGS	8		/* an experiment's configurations */
#define RUN_SPEC_SETTINGS_LEN	1024	/* a configuration's session settings */
#define RUN_SPEC_CONFIGS_LEN	8192	/* sweeps.configs, as jsonb text */
#define RUN_SPEC_CONFIGS_MIX_LEN	(8 * 1024 * 1024)	/* the configurations' own mixes */

/*
 * One configuration of an experiment (run_experiment, issue 23): what its
 * steps run with instead of the experiment's common options.  The
 * coordinator lays it over a copy of the spec for each of its steps
 * (coordinator_step_spec), so the drivers, the maintenance, the trust check
 * and the runs row see the configuration's own conninfo, protocol,
 * session settings, script mix, jobs, rate and latency limit.
 *
 * Its mix is mix_len bytes at mix_off in the launch payload, laid out as a
 * run's payload (names, weights, texts, the variables, the commands' first
 * lines): the experiment's own mix at 0 for a configuration that names no
 * script, else its own, after it (RunSpec.configs_len).  The coordinator
 * gives each step's segment only its configuration's mix.
 */
typedef struct RunConfig
{
	char		name[NAMEDATALEN];
	RunProtocol protocol;
	int			jobs;			/* RunSpec.jobs: 0 chosen per step */
	double		rate;			/* RunKnobs.rate: 0 none */
	int64		latency_limit_usec; /* RunKnobs.latency_limit_usec: 0 none */
	Size		mix_off;
	Size		mix_len;
	int			nscripts;
	int			ncommands;
	int			script_commands[SCRIPT_MAX_SCRIPTS];
	char		script_name[RUN_SCRIPT_NAME_LEN];	/* runs.script */
	int			scale_detected;
	int			nsettings;
	char		settings[RUN_SPEC_SETTINGS_LEN];	/* nsettings "name\0value\0" */
	int			nserver;		/* a superuser's reloadable server settings */
	char		server[RUN_SPEC_SETTINGS_LEN];	/* nserver "name\0value\0": ALTER SYSTEM */
	char		conninfo[RUN_CONNINFO_LEN];		/* complete, for the clients */
	char		conninfo_shown[RUN_CONNINFO_LEN];	/* password removed */
} RunConfig;

/*
 * What the coordinator sends over loopback to the pgbench tables, found
 * through the clients' search_path, for a run's vacuum and check_tpcb:
 * pgbench's pre-run maintenance (vacuum => true) and check_tpcb's sums.
 * trust.c reads the same texts, so that what is checked is what runs.
 */
#define RUN_SPEC_MAINTENANCE_SQL \
	{"vacuum pgbench_branches", "vacuum pgbench_tellers", "truncate pgbench_history"}
#define RUN_SPEC_TPCB_SUMS \
	"SELECT pg_catalog.concat_ws(' '," \
	" (SELECT coalesce(pg_catalog.sum(abalance), 0) FROM pgbench_accounts)," \
	" (SELECT coalesce(pg_catalog.sum(bbalance), 0) FROM pgbench_branches)," \
	" (SELECT coalesce(pg_catalog.sum(tbalance), 0) FROM pgbench_tellers)," \
	" (SELECT coalesce(pg_catalog.sum(delta), 0) FROM pgbench_history))"

/* shm_toc magic numbers and keys of the launch and step segments */
#define RUN_SPEC_LAUNCH_MAGIC	0x70627834	/* "pbx4" */
#define RUN_SPEC_STEP_MAGIC		0x70627835	/* "pbx5" */
#define RUN_SPEC_KEY_SPEC		1	/* RunSpec */
#define RUN_SPEC_KEY_PAYLOAD	2	/* RunSpec.payload_len bytes */
#define RUN_SPEC_KEY_HANDSHAKE	3	/* launch segment: LaunchHandshake */
#define RUN_SPEC_KEY_SHARED		4	/* step segment: RunShared + drivers */
#define RUN_SPEC_KEY_CMDSTATS	5	/* step segment: njobs x ncommands CommandStats */
#define RUN_SPEC_KEY_CLIENT_PIDS 6	/* step segment: nclients pg_atomic_uint32, each
									 * client's backend pid (0: not connected),
									 * written by its driver after each connect */
#define RUN_SPEC_KEY_TXLOG		7	/* step segment, with log_transactions: njobs
									 * TxLogRing (run_shmem.h) */
#define RUN_SPEC_KEY_MSGS		8	/* step segment, with client_messages: njobs
									 * MsgRing (run_shmem.h) */

/* What a run or a sweep is: the same for each of its steps. */
typedef struct RunSpec
{
	Oid			dboid;
	Oid			roleid;
	char		owner[NAMEDATALEN];	/* roleid's name: runs.owner, sweeps.owner */
	bool		is_sweep;
	int64		id;				/* the sweep id, or the lone run's id */
	int			nsteps;
	int			clients[RUN_SPEC_MAX_STEPS];
	int			step_repeat[RUN_SPEC_MAX_STEPS];	/* 1-based repeat of each step */
	int			repeats;

	/*
	 * An experiment (run_experiment): nconfigs configurations, each step
	 * runs step_config's, step_warmup says whether it is a warm-up (stored,
	 * flagged, not counted).  0 configurations: a run or a plain sweep.  In
	 * the copy of the spec a step runs with, config is its configuration
	 * (-1 outside experiments), is_warmup whether it is a warm-up, and nsettings/settings its session settings,
	 * which each client applies after it connects (driver.c).
	 */
	int			nconfigs;
	int			warmup;
	double		target_ci;		/* 0: none; else blocks are added (coordinator) */
	int			budget_s;		/* with target_ci: the experiment's time budget */
	int			step_config[RUN_SPEC_MAX_STEPS];
	bool		step_warmup[RUN_SPEC_MAX_STEPS];
	int			config;
	bool		is_warmup;
	int			nsettings;
	char		settings[RUN_SPEC_SETTINGS_LEN];
	char		configs_json[RUN_SPEC_CONFIGS_LEN];	/* sweeps.configs */
	RunConfig	configs[RUN_SPEC_MAX_CONFIGS];
	char		tags[RUN_SPEC_TAGS_LEN];	/* jsonb as text; "" if none */
	int			jobs;			/* 0: chosen per step */
	int			duration;		/* 0 with transactions */
	int64		transactions;	/* 0 with duration */
	int			time_limit_s;	/* a run bounded by transactions (or a replay)
								 * of a role with a quota: its measured
								 * interval ends after this; 0 none */
	RunProtocol protocol;
	RunKnobs	knobs;
	bool		vacuum;
	bool		checkpoint;
	bool		check_tpcb;		/* record runs.tpcb_consistent */
	bool		record_system;	/* record what the machine and the server did (system_samples, wait_samples) */
	bool		random_seed_given;
	uint64		random_seed;
	int			ncpus;
	int			scale_detected; /* count(*) of pgbench_branches */
	char		script_name[RUN_SCRIPT_NAME_LEN];
	char		label[RUN_SPEC_LABEL_LEN];
	char		conninfo[RUN_CONNINFO_LEN];		/* complete, for the clients */
	char		conninfo_shown[RUN_CONNINFO_LEN];	/* the caller's, password removed */

	/*
	 * launch_part (part.c): this server's share of a run a recorder drives.
	 * A lone run (not a part) has first_client 0 and total_clients equal to
	 * its clients.
	 */
	bool		is_part;		/* waits for pgbenchx.part_go before it measures */
	bool		part_unlocked;	/* the recorder's own server: runs beside its run,
								 * without the cluster-wide lock */
	int			first_client;	/* global number of the part's first client */
	int			total_clients;	/* of the whole run: the clients' seeds follow it */
	int			go_timeout_s;	/* how long a part waits for its go */

	/*
	 * The script mix, as launch parsed it: the payload holds nscripts
	 * "name\0weight\0text\0", then ndefines "name\0value\0", then the first
	 * line of each of the ncommands commands "line\0", the scripts' commands
	 * one after the other in the mix's order.
	 */
	int			nscripts;
	int			ndefines;
	int			ncommands;
	int			script_commands[SCRIPT_MAX_SCRIPTS];	/* commands of each script */
	Size		payload_len;

	/*
	 * Several load generators (issue 14; recorder.c): the payload ends with
	 * generators_len bytes, the clients' conninfo for the server under test
	 * as the caller gave it (password included) "conninfo\0", then for each
	 * generator "conninfo\0shown\0" (shown: without the password).  No
	 * generator: ngenerators 0, generators_len 0.
	 */
	int			ngenerators;
	double		max_clock_offset_ms;
	Size		generators_len;

	/*
	 * An experiment (RunConfig): the payload's mix is followed by
	 * configs_len bytes, the mixes of the configurations that name a script
	 * of their own (no experiment has generators).  0 otherwise, and in the
	 * copy of the spec a step runs with.
	 */
	Size		configs_len;
} RunSpec;

/* a payload read back; the strings point into it */
typedef struct RunMix
{
	int			nscripts;
	const char *names[SCRIPT_MAX_SCRIPTS];
	int64		weights[SCRIPT_MAX_SCRIPTS];
	int64		total_weight;
	const char *texts[SCRIPT_MAX_SCRIPTS];
	int			ndefines;
	ScriptDefine *defines;		/* palloc'd */
	const char **first_lines;	/* palloc'd, spec->ncommands of them */
} RunMix;

extern void run_spec_mix(const RunSpec *spec, const char *payload, RunMix *out);

/* the generators' part of a payload (see RunSpec.generators_len) */
typedef struct RunGenerators
{
	int			n;
	const char *target;			/* the caller's conninfo for the server under test */
	const char **conninfo;		/* palloc'd, n of them */
	const char **shown;
} RunGenerators;

extern void run_spec_generators(const RunSpec *spec, const char *payload, RunGenerators *out);

/*
 * The kind of a run, which says who plugs into launch and the coordinator
 * (launch.h's LaunchKind, coordinator.h's StepKind; fleet/ fills both in):
 * a local run, whose drivers are this server's; a part (launch_part), a
 * local run that waits for its recorder's go; a run driven from
 * generators, whose clients are the generators' parts.
 */
typedef enum RunKind
{
	RUN_KIND_LOCAL = 0,
	RUN_KIND_PART,
	RUN_KIND_GENERATORS
} RunKind;

#define RUN_NKINDS		(RUN_KIND_GENERATORS + 1)

extern RunKind run_spec_kind(const RunSpec *spec);

/* An error unless a kind other than local has its hooks (seam: their name). */
extern void run_spec_kind_check(RunKind kind, const void *hooks, const char *seam);

/*
 * pgbench's share of the clients, as it deals them out to its threads: of
 * the clients not dealt yet (left), the i-th of n (0-based) takes
 * (left + n - i - 1) / (n - i).  The drivers of a step, and the parts of a
 * run driven from generators, are dealt their clients so.
 */
extern int	run_spec_share(int left, int n, int i);

/* a spec and its payload in a segment: room for them, a copy, found again */
extern void run_spec_estimate(shm_toc_estimator *e, const RunSpec *spec);
extern void run_spec_store(shm_toc *toc, const RunSpec *spec, const char *payload);
extern const RunSpec *run_spec_find(shm_toc *toc, const char **payload);

/* the step segment's client backend pids (RUN_SPEC_KEY_CLIENT_PIDS) */
extern void run_spec_estimate_client_pids(shm_toc_estimator *e, int nclients);
extern pg_atomic_uint32 *run_spec_store_client_pids(shm_toc *toc, int nclients);
extern pg_atomic_uint32 *run_spec_find_client_pids(shm_toc *toc);

/*
 * The handshake between the caller and its coordinator, in the launch
 * segment.  The coordinator records the run's rows, says STARTED, and
 * proceeds only once the caller has said ACKNOWLEDGED (it then knows the id
 * and returns it).  A caller whose statement fails before that (cancel,
 * statement_timeout, terminate) says ABANDONED instead: the coordinator then
 * records its rows cancelled and exits without running anything.  Every
 * transition is a compare and exchange, so exactly one of ACKNOWLEDGED and
 * ABANDONED wins.
 */
typedef enum LaunchStatus
{
	LAUNCH_PENDING = 0,			/* the coordinator has not answered yet */
	LAUNCH_STARTED,				/* rows recorded; waiting for the caller */
	LAUNCH_FAILED,				/* the coordinator could not take it over */
	LAUNCH_ACKNOWLEDGED,		/* the caller knows the id: run */
	LAUNCH_ABANDONED			/* the caller's statement failed: do not run */
} LaunchStatus;

/* the error text of the rows of a run whose caller gave up */
#define LAUNCH_ABANDONED_MESSAGE "the calling statement was cancelled before the run started"

typedef struct LaunchHandshake
{
	int			caller_procno;
	int			caller_pid;		/* to notice a caller that is gone */
	int			coordinator_procno; /* set before STARTED, for the answer */
	pg_atomic_uint32 status;	/* LaunchStatus */
	char		error[RUN_ERROR_LEN];
} LaunchHandshake;

#endif							/* PGBENCHX_RUN_SPEC_H */
