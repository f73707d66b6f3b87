/*-------------------------------------------------------------------------
 *
 * recorder.h
 *	  One step of a run driven from several load generators (issue 14),
 *	  in the recorder's coordinator.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_RECORDER_H
#define PGBENCHX_RECORDER_H

#include "run_spec.h"

/*
 * Launch the step's parts on the generators, start them together, merge
 * their seconds into this run's samples and their totals into its runs row
 * and run_generators rows.  The pre-run maintenance is the caller's.
 * Returns the run's final status; sets *cancelled on a cancel.
 */
extern const char *recorder_run_step(const RunSpec *spec, const char *payload,
									 const RunMix *mix, int64 run_id, int clients,
									 bool *cancelled);

/* After an error or a termination: cancel the parts still live, best effort. */
extern void recorder_abandon(void);

/* Then, in a transaction of its own: the run's run_generators rows still running get status. */
extern void recorder_abandon_rows(int64 run_id, const char *status);

#endif							/* PGBENCHX_RECORDER_H */
