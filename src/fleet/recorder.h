/*-------------------------------------------------------------------------
 *
 * recorder.h
 *	  One step of a run driven from several load generators (issue 14),
 *	  in the recorder's coordinator: the step kind of such a run
 *	  (coordinator.h's StepKind, filled in by kinds.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_RECORDER_H
#define PGBENCHX_RECORDER_H

#include "results.h"
#include "run_spec.h"

/*
 * Launch the step's parts on the generators, start them together, merge
 * their seconds into this run's samples, write their run_generators rows,
 * and merge their figures into *result (whose total the caller allocated),
 * with the run's status and error; this server's system readings through
 * the coordinator's (coordinator_readings_*), which it finishes.  The
 * pre-run maintenance and the final row (coordinator_record:
 * results_finish_run, as for a local run) are the caller's.  Returns whether a generator was lost (its clients may still
 * be running); sets *cancelled on a cancel.
 */
extern bool recorder_run_step(const RunSpec *spec, const char *payload,
							  const RunMix *mix, int64 run_id, int clients,
							  RunResult *result, bool *cancelled);

/* Before the final row: the run's statement_stats, the parts' summed. */
extern void recorder_write_statements(int64 run_id);

/* After an error or a termination: cancel the parts still live, best effort. */
extern void recorder_abandon(void);

/* Then, in a transaction of its own: the run's run_generators rows still running get status. */
extern void recorder_abandon_rows(int64 run_id, const char *status);

#endif							/* PGBENCHX_RECORDER_H */
