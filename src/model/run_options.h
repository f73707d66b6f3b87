/*-------------------------------------------------------------------------
 *
 * run_options.h
 *	  The options of the launch_* calls by id: the enum made from
 *	  options_list.h (as PostgreSQL's rmgr.h makes RmgrIds from
 *	  rmgrlist.h), the bits of the calls that take them, and the kinds of
 *	  the list's to_part column.  options.c reads the options through the
 *	  list; recorder.c writes each part's from it, one case per id.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_RUN_OPTIONS_H
#define PGBENCHX_RUN_OPTIONS_H

/* the calls, as the bits of options_list.h's calls column */
#define PGBX_BENCH		0x01	/* run_bench */
#define PGBX_SWEEP		0x02	/* run_sweep(min_clients, max_clients, ...) */
#define PGBX_LIST		0x04	/* run_sweep(clients int[], ...) */
#define PGBX_REPLAY		0x08	/* run_replay */
#define PGBX_PART		0x10	/* launch_part (part.c): a generator's share of a run */
#define PGBX_EXPERIMENT	0x20	/* run_experiment (issue 23) */
#define PGBX_RUNS		(PGBX_BENCH | PGBX_SWEEP | PGBX_LIST)
#define PGBX_ALL		(PGBX_RUNS | PGBX_REPLAY)

/* options_list.h's to_part column, as values */
#define PGBX_TO_PART_SENT		1
#define PGBX_TO_PART_NOT_SENT	0

/*
 * -R and -L, so that their microseconds fit an int64 with room to spare:
 * options.c's checks, and launch.c's of an experiment's configurations
 */
#define PGBX_MIN_RATE		1e-6
#define PGBX_MAX_RATE		1e9
#define PGBX_MAX_LATENCY_LIMIT_MS	1e12

/* one id per line of the list, in its order */
#define PGBX_OPTION(id, ...) PGBX_OPT_##id,
typedef enum PgbxOptionId
{
#include "options_list.h"
} PgbxOptionId;
#undef PGBX_OPTION

/* the number of lines */
#define PGBX_OPTION(id, ...) + 1
enum
{
	PGBX_NOPTIONS = 0
#include "options_list.h"
};
#undef PGBX_OPTION

#endif							/* PGBENCHX_RUN_OPTIONS_H */
