/*-------------------------------------------------------------------------
 *
 * coordinator.h
 *	  The coordinator background worker: a run's or a sweep's lifecycle;
 *	  the step kind, through which a part and a run driven from generators
 *	  (fleet/) plug into its steps; and the step's per-second system
 *	  readings, one lifecycle for every kind of step.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_COORDINATOR_H
#define PGBENCHX_COORDINATOR_H

#include <signal.h>

#include "postmaster/bgworker.h"
#include "utils/timestamp.h"

#include "results.h"
#include "run_shmem.h"
#include "run_spec.h"

extern PGDLLEXPORT void coordinator_main(Datum main_arg);

/*
 * pgbenchx.sample_ring_seconds: the seconds of samples each driver keeps
 * for the coordinator (2 to RUN_SECOND_RING); a test shrinks it to make the
 * ring wrap quickly.  Read by the coordinator when a run starts.
 */
extern int	coordinator_ring_seconds;

/*
 * A step kind: how the coordinator runs a step of a kind of run
 * (run_spec.h's RunKind) other than a local one.  fleet/ fills one in for
 * a part and one for a run driven from generators, and the top layer
 * registers them (_PG_init, which runs in the coordinator too); a local
 * run has none.  Any hook may be NULL: the coordinator then does its own.
 */
typedef struct StepKind
{
	/*
	 * In place of the cluster-wide lock, for a run beside the run in
	 * progress (RunSpec.part_unlocked): take that place; false if taken.
	 */
	bool		(*claim_unlocked) (void);

	/*
	 * The local drivers connected: publish 'ready' and wait for the go
	 * (cancel: the coordinator's flag; *cancelled set on a cancel).  Returns
	 * at the moment the measured interval starts.
	 */
	void		(*wait_for_go) (const RunSpec *spec, int64 run_id,
								volatile sig_atomic_t *cancel, bool *cancelled);

	/*
	 * The step's clients are elsewhere: run it there after the coordinator's
	 * maintenance, following the readings' lifecycle below, and merge its
	 * figures into *result (whose total the coordinator allocated), with the
	 * status and error; the coordinator then writes the final row as for a
	 * local run.  Returns whether clients may still be running (as
	 * terminated drivers); sets *cancelled on a cancel.
	 */
	bool		(*run_step) (const RunSpec *spec, const char *payload, const RunMix *mix,
							 int64 run_id, int clients, RunResult *result, bool *cancelled);
	/* before the final row, in place of the drivers': the run's statement_stats */
	void		(*write_statements) (int64 run_id);
	/* after an error or a termination: stop what the step started, best effort */
	void		(*abandon) (void);
	/* then, in a transaction of its own: its rows still running get status */
	void		(*abandon_rows) (int64 run_id, const char *status);
} StepKind;

/* each kind's hooks, by RunKind, set by _PG_init; RUN_KIND_LOCAL's stays NULL */
extern const StepKind *coordinator_step_kinds[RUN_NKINDS];

/*
 * The step's per-second system readings (sysrecord.h), held by the
 * coordinator's step for every kind of step, in this order: begin, before
 * the measured interval (ring_len: the readings kept, as the samples ring;
 * run, handles and njobs: the local drivers, NULL, NULL and 0 where there
 * are none); start, at its start (the baseline); tick, at every wake-up
 * while measuring; second, once the samples row of a second is written;
 * end, when measuring is over.  The coordinator finishes them
 * (runs.system_notes) before the final row.  Each does nothing without
 * record_system, or before begin.
 */
extern void coordinator_readings_begin(const RunSpec *spec, int64 run_id, int ring_len,
									   RunShared *run, BackgroundWorkerHandle **handles,
									   int njobs);
extern void coordinator_readings_start(TimestampTz bench_start);
extern void coordinator_readings_tick(void);
extern void coordinator_readings_second(int second, double covered_s, bool last);
extern void coordinator_readings_end(void);

#endif							/* PGBENCHX_COORDINATOR_H */
