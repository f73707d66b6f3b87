/*-------------------------------------------------------------------------
 *
 * progress.h
 *	  The phase, step and expected end of the run in progress, published
 *	  by its coordinator in the main shared memory for every session
 *	  (pgbenchx.progress_state, the pgbenchx.progress view), and the words
 *	  run_sweep and pgbenchx.wait use for them.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_PROGRESS_H
#define PGBENCHX_PROGRESS_H

#include "fmgr.h"

#include "run_shmem.h"
#include "run_spec.h"

/* the coordinator: its run or sweep, each step, each phase, the end */
extern void progress_start(const RunSpec *spec);
extern void progress_step(int64 run_id, int step, int clients);
extern void progress_phase(RunPhase phase);
extern void progress_measured(double fraction);
extern void progress_step_done(void);
extern void progress_steps(int steps);
extern void progress_clear(void);
/* the step's DSM segment while its drivers log transactions, 0 none; and its reader's lookup */
extern void progress_step_segment(uint32 handle);
extern uint32 progress_find_step_segment(int64 run_id);
extern void progress_keeping_records(bool keeping);
extern bool progress_only_keeping_records(int pid);

/* the phase as pgbenchx.progress names it; NULL for none */
extern const char *progress_phase_name(RunPhase phase);
/* a duration as a person reads it: "45 s", "70 min", "2.5 h" */
extern char *progress_duration(double seconds);
/* what a launch started, one line: "sweep 7: 14 runs of 300 s, about 70 min ..." */
extern char *progress_launch_message(const RunSpec *spec);

extern Datum pgbenchx_progress_state(PG_FUNCTION_ARGS);

/*
 * whether pid is the live coordinator of that sweep (or, sweep_id 0, lone
 * run); role not NULL: noted as the one cancelling it
 */
extern bool progress_is_coordinator_of(int pid, int64 sweep_id, int64 run_id, const char *role);
/* the coordinator: "cancelled by pgbenchx.cancel of role ..." */
extern char *progress_cancel_reason(void);

/* the sweep or lone run in progress here, 0 if none is published (fleet.c) */
extern int64 progress_running_id(void);

#endif							/* PGBENCHX_PROGRESS_H */
