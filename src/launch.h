/*-------------------------------------------------------------------------
 *
 * launch.h
 *	  Starting a run or a sweep from a backend: the request handed to the
 *	  coordinator worker through a small DSM segment, and the checks made
 *	  before anything starts.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_LAUNCH_H
#define PGBENCHX_LAUNCH_H

#include "port/atomics.h"
#include "utils/jsonb.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"

#include "run_shmem.h"
#include "script.h"

#define LAUNCH_MAX_STEPS	256		/* client counts x repeats */
#define LAUNCH_TAGS_LEN		4096
#define LAUNCH_LABEL_LEN	256

/*
 * The handshake between the caller and its coordinator.  The coordinator
 * records the run's rows, says STARTED, and proceeds only once the caller
 * has said ACKNOWLEDGED (it then knows the id and returns it).  A caller
 * whose statement fails before that (cancel, statement_timeout, terminate)
 * says ABANDONED instead: the coordinator then records its rows cancelled
 * and exits without running anything.  Every transition is a compare and
 * exchange, so exactly one of ACKNOWLEDGED and ABANDONED wins.
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

/* What the caller asks for; lives in the launch DSM segment. */
typedef struct LaunchRequest
{
	uint32		magic;
	Oid			dboid;
	Oid			roleid;
	char		owner[NAMEDATALEN];	/* roleid's name: runs.owner, sweeps.owner */
	bool		is_sweep;
	int64		id;				/* the sweep id, or the lone run's id */
	int			nsteps;
	int			clients[LAUNCH_MAX_STEPS];
	int			step_repeat[LAUNCH_MAX_STEPS];	/* 1-based repeat of each step */
	int			repeats;
	char		tags[LAUNCH_TAGS_LEN];	/* jsonb as text; "" if none */
	int			jobs;			/* 0: chosen per step */
	int			duration;		/* 0 with transactions */
	int64		transactions;	/* 0 with duration */
	RunProtocol protocol;
	RunKnobs	knobs;
	bool		vacuum;
	bool		checkpoint;
	bool		check_tpcb;		/* record runs.tpcb_consistent */
	bool		random_seed_given;
	uint64		random_seed;
	int			ncpus;
	int			scale_detected; /* count(*) of pgbench_branches */
	char		script_name[RUN_SCRIPT_NAME_LEN];
	char		label[LAUNCH_LABEL_LEN];
	char		conninfo[RUN_CONNINFO_LEN];		/* complete, for the clients */
	char		conninfo_shown[RUN_CONNINFO_LEN];	/* the caller's, password removed */

	/* the handshake */
	int			caller_procno;
	int			caller_pid;		/* to notice a caller that is gone */
	int			coordinator_procno; /* set before STARTED, for the answer */
	pg_atomic_uint32 status;	/* LaunchStatus */
	char		error[RUN_ERROR_LEN];

	/*
	 * The payload: nscripts "name\0weight\0text\0", then ndefines
	 * "name\0value\0" (decode with launch_payload_decode).
	 */
	int			nscripts;
	int			ndefines;
	Size		payload_len;
	char		payload[FLEXIBLE_ARRAY_MEMBER];
} LaunchRequest;

/* a decoded payload; the strings point into it */
typedef struct LaunchPayload
{
	int			nscripts;
	const char *names[SCRIPT_MAX_SCRIPTS];
	int64		weights[SCRIPT_MAX_SCRIPTS];
	int64		total_weight;
	const char *texts[SCRIPT_MAX_SCRIPTS];
	int			ndefines;
	ScriptDefine *defines;		/* palloc'd */
} LaunchPayload;

extern void launch_payload_decode(const char *payload, int nscripts, int ndefines,
								  LaunchPayload *out);

#define LAUNCH_MAGIC	0x70627833	/* "pbx3" */

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
} LaunchOptions;

/* Validate, check the environment, start the coordinator; returns the id. */
extern int64 launch_start(const LaunchOptions *opts, bool is_sweep);

/* run_sweep's ladder; returns the number of steps written to out. */
extern int	launch_ladder(int min_clients, int max_clients, int *out, int max_out);

/*
 * A pgbenchx worker: restart never, from $libdir/pgbenchx, notifying us,
 * with main_arg as its argument (the coordinator and the drivers get their
 * DSM segment's handle).
 */
extern void launch_worker_spec(BackgroundWorker *worker, const char *function,
							   const char *type, Datum main_arg);

/*
 * File descriptors a driver needs besides one socket per client (its own
 * latch, wait event set, postmaster pipe, log and DSM files), with room.
 */
#define LAUNCH_DRIVER_SPARE_FDS	32

/*
 * Raise this process's soft RLIMIT_NOFILE to at least want (at most the hard
 * limit).  Returns the soft limit now in force, or -1 if it is unlimited or
 * unknown.
 */
extern long launch_raise_nofile(long want);

/* the default number of jobs for clients given the free worker slots */
extern int	launch_default_jobs(int clients, int ncpus, int free_slots);

#endif							/* PGBENCHX_LAUNCH_H */
