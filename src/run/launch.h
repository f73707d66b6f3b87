/*-------------------------------------------------------------------------
 *
 * launch.h
 *	  Starting a run or a sweep from a backend: the options as SQL passed
 *	  them, the checks made before anything starts, and the hand-over of the
 *	  run's specification (run_spec.h) to its coordinator; the launch kind,
 *	  through which a part and a run driven from generators (fleet/) plug
 *	  into launch's phases.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_LAUNCH_H
#define PGBENCHX_LAUNCH_H

#include "lib/stringinfo.h"
#include "utils/jsonb.h"

#include "run_spec.h"

/* the bounds of the request format (run_spec.h), as the options know them */
#define LAUNCH_MAX_STEPS	RUN_SPEC_MAX_STEPS
#define LAUNCH_TAGS_LEN		RUN_SPEC_TAGS_LEN
#define LAUNCH_LABEL_LEN	RUN_SPEC_LABEL_LEN

/*
 * The quotas of a role that is not a superuser (pgbenchx.max_duration,
 * pgbenchx.max_clients, pgbenchx.max_jobs; PGC_SUSET, defined in
 * pgbenchx.c): -1 is no limit.  Checked by launch.c, for launch_part too.
 */
#define LAUNCH_DEFAULT_MAX_DURATION	86400
#define LAUNCH_DEFAULT_MAX_CLIENTS	1000
#define LAUNCH_DEFAULT_MAX_JOBS		64
extern int	launch_max_duration;
extern int	launch_max_clients;
extern int	launch_max_jobs;

/*
 * The server's share (issue 34 §6): a run of a role that is not a
 * superuser takes at most pgbenchx.max_connection_share percent of the
 * connections that roles without reserved slots may use, and
 * pgbenchx.max_worker_share percent of max_worker_processes (-1: no share),
 * and leaves pgbenchx.connection_headroom connections and
 * pgbenchx.worker_headroom worker slots free for others.  PGC_SUSET,
 * defined in pgbenchx.c; checked by launch_check_server.
 */
#define LAUNCH_DEFAULT_CONNECTION_SHARE	50
#define LAUNCH_DEFAULT_WORKER_SHARE		50
#define LAUNCH_DEFAULT_CONNECTION_HEADROOM	3
#define LAUNCH_DEFAULT_WORKER_HEADROOM	1
extern int	launch_max_connection_share;
extern int	launch_max_worker_share;
extern int	launch_connection_headroom;
extern int	launch_worker_headroom;

/*
 * One configuration of run_experiment, as pgbenchx.c read it from the
 * configs argument: NULL conninfo or protocol is the experiment's own.
 */
typedef struct LaunchConfig
{
	const char *name;
	const char *conninfo;
	const char *protocol;
	const char *script;			/* NULL: the experiment's */
	bool		jobs_given;
	int			jobs;
	bool		rate_given;
	double		rate;
	bool		latency_limit_given;
	double		latency_limit;	/* ms */
	int			nsettings;
	const char **setting_names;
	const char **setting_values;
	int			nserver;		/* reloadable server settings (a superuser's) */
	const char **server_names;
	const char **server_values;
} LaunchConfig;

/* The options of run_bench / run_sweep, as SQL passed them. */
typedef struct LaunchOptions
{
	int			nsteps;
	int		   *clients;
	bool		duration_given;
	int			duration;
	const char *script;
	bool		jobs_given;
	int			jobs;
	const char *protocol;
	bool		transactions_given;
	int64		transactions;
	bool		vacuum;
	bool		checkpoint;
	const char *label;
	const char *conninfo;
	bool		random_seed_given;
	int64		random_seed;
	Jsonb	   *variables;		/* NULL if not given */
	bool		rate_given;
	double		rate;			/* tps */
	bool		latency_limit_given;
	double		latency_limit;	/* ms */
	int			max_tries;
	bool		connect_per_transaction;
	Jsonb	   *tags;			/* NULL if not given */
	int			repeats;
	const char *inline_script;	/* run_replay: the statements themselves */
	bool		replay;
	bool		shuffle;
	bool		check_tpcb;		/* check the TPC-B invariant over each run */
	bool		record_system;	/* record system_samples and wait_samples */
	bool		log_transactions;	/* run_bench: each transaction into the log ring */
	double		sampling_rate;	/* of the transactions logged, as pgbench's --sampling-rate */
	bool		client_messages;	/* run_bench: the clients' messages into
									 * the message rings */
	bool		verbose_errors; /* with them, pgbench's --verbose-errors lines */
	bool		exit_on_abort;	/* a client's abort stops the whole run */
	bool		continue_on_error;	/* another SQL error fails the
									 * transaction, not the client */
	int			ngenerators;	/* generators: 0 if not given (issue 14) */
	const char **generators;	/* their conninfos, as given */
	double		max_clock_offset_ms;

	/*
	 * run_experiment: its configurations, and the steps already laid out
	 * (clients, step_repeat, step_config, step_warmup: nsteps of each,
	 * repeats 1); nconfigs 0 otherwise
	 */
	int			nconfigs;
	LaunchConfig *configs;
	Jsonb	   *configs_given;	/* the configs argument */
	int			warmup;
	int			experiment_repeats;
	bool		target_ci_given;
	double		target_ci;		/* add ABBA blocks until each ratio is within +-this */
	bool		budget_given;
	int			budget;			/* seconds: the experiment's time budget with target_ci */
	int		   *step_repeat;
	int		   *step_config;
	bool	   *step_warmup;

	/* launch_part (fleet/part.c, the part's launch kind) */
	bool		is_part;
	int			first_client;
	bool		total_clients_given;
	int			total_clients;
	Jsonb	   *scripts;		/* the mix inline: [{name, body, weight}]; NULL if not given */
	Jsonb	   *part_of;		/* {recorder, run_id, generator} */
	int			go_timeout_s;
} LaunchOptions;

/*
 * A launch kind: what a kind of run (run_spec.h's RunKind) other than a
 * local one checks and adds at launch's phases, in launch_start's order.
 * fleet/ fills one in for a part and one for a run driven from generators,
 * and the top layer registers them (_PG_init); a local run has none.  Any
 * hook may be NULL: the phase then does only launch's own.
 */
typedef struct LaunchKind
{
	/* its clients are elsewhere: only the coordinator runs here */
	bool		remote_clients;
	/* phase 1, the options: the kind's own, refused or put into spec */
	void		(*check_options) (const LaunchOptions *opts, RunSpec *spec);

	/*
	 * phase 2b, after the caller's conninfo (quoted: as launch re-quoted it
	 * for the clients): the kind's own arguments; what it returns is handed
	 * to preflight
	 */
	void	   *(*check_arguments) (const LaunchOptions *opts, RunSpec *spec, const char *quoted);

	/*
	 * phase 3, the mix given inline (opts->scripts): appended to payload as
	 * launch's own are, shown in display; returns the number of scripts,
	 * *builtin when the scale must be read as for a built-in
	 */
	int			(*build_mix) (const LaunchOptions *opts, StringInfo payload,
							  StringInfo display, bool *builtin);
	/* phase 4, SPI connected: it runs beside the run in progress, without the lock */
	bool		(*runs_unlocked) (const LaunchOptions *opts);

	/*
	 * phase 4b, its pre-flight, after the trust checks: appends its part of
	 * the payload (run_spec.h) and says so in spec
	 */
	void		(*preflight) (const LaunchOptions *opts, RunSpec *spec, void *arguments,
							  StringInfo payload);
} LaunchKind;

/* each kind's hooks, by RunKind, set by _PG_init; RUN_KIND_LOCAL's stays NULL */
extern const LaunchKind *launch_kinds[RUN_NKINDS];

/*
 * The checks of a whole script mix, however it was given: a total weight
 * above zero, and the mix as runs.script shows it (display) short enough.
 */
extern void launch_check_mix(int64 total_weight, const StringInfo display);

/* Validate, check the environment, start the coordinator; returns the id. */
extern int64 launch_start(const LaunchOptions *opts, bool is_sweep);

/*
 * run_experiment: its configurations read from opts->configs_given into
 * opts->configs, and its steps laid out (balanced: at each client count,
 * the warm-ups, then rounds of the configurations in order and reversed)
 */
extern void launch_experiment_steps(LaunchOptions *opts, const int *clients, int nclients);

/* run_sweep's ladder; returns the number of steps written to out. */
extern int	launch_ladder(int min_clients, int max_clients, int *out, int max_out);

#endif							/* PGBENCHX_LAUNCH_H */
