/*-------------------------------------------------------------------------
 *
 * part.h
 *	  A part: this server's share of a run that a recorder drives from
 *	  several generator servers (pgbenchx.launch_part, pgbenchx.part_go).
 *	  The first five are the part's launch kind and step kind (launch.h,
 *	  coordinator.h), filled in by kinds.c.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_PART_H
#define PGBENCHX_PART_H

#include <signal.h>

#include "fmgr.h"
#include "lib/stringinfo.h"

#include "launch.h"
#include "run_spec.h"

/* how late a go may come, and how far ahead its moment may be */
#define PART_MAX_LATE_MS		200
#define PART_MAX_AHEAD_S		3600

/* launch, before anything is looked up: the part's own options, into spec */
extern void part_check_options(const LaunchOptions *opts, RunSpec *spec);

/*
 * launch, the inline mix (scripts): appended to payload as launch_scripts
 * does; returns the number of scripts, *builtin when one is a built-in's
 * exact text (the scale is then read, as for the built-in).
 */
extern int	part_build_mix(const LaunchOptions *opts, StringInfo payload,
						   StringInfo display, bool *builtin);

/*
 * launch, with SPI connected: whether this part is the recorder's own
 * server's share of the run in progress here, which it may run beside
 * without the cluster-wide lock (and no other part does so already).
 */
extern bool part_runs_unlocked(const LaunchOptions *opts);

/* the coordinator of an unlocked part: take its place beside the run */
extern bool part_claim_unlocked(void);

/*
 * The coordinator, clients connected: publish 'ready', wait for the go
 * (cancel, timeout), then sleep until its moment.  Returns at the moment.
 */
extern void part_wait_for_go(const RunSpec *spec, int64 run_id,
							 volatile sig_atomic_t *cancel, bool *cancelled);

extern Datum pgbenchx_part_go(PG_FUNCTION_ARGS);

#endif							/* PGBENCHX_PART_H */
