/*-------------------------------------------------------------------------
 *
 * options.h
 *	  The options of a launch_* call, read by name from jsonb (options.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_OPTIONS_H
#define PGBENCHX_OPTIONS_H

#include "fmgr.h"

#include "launch.h"

/*
 * The library's version: the Makefile passes EXTVERSION, which is
 * default_version in pgbenchx.control.
 */
#ifndef PGBENCHX_LIBRARY_VERSION
#error "build through the Makefile: it defines PGBENCHX_LIBRARY_VERSION from EXTVERSION"
#endif

/* the largest statement list run_replay takes */
#define PGBENCHX_MAX_REPLAY_BYTES	(64 * 1024 * 1024)

/* the calls, as the bits of PgbxOption.calls */
#define PGBX_BENCH		0x01	/* run_bench */
#define PGBX_SWEEP		0x02	/* run_sweep(min_clients, max_clients, ...) */
#define PGBX_LIST		0x04	/* run_sweep(clients int[], ...) */
#define PGBX_REPLAY		0x08	/* run_replay */
#define PGBX_PART		0x10	/* launch_part (part.c): a generator's share of a run */
#define PGBX_RUNS		(PGBX_BENCH | PGBX_SWEEP | PGBX_LIST)
#define PGBX_ALL		(PGBX_RUNS | PGBX_REPLAY)

typedef struct PgbxIntList
{
	int			n;
	int		   *values;
} PgbxIntList;

typedef struct PgbxTextList
{
	int			n;
	const char **values;
} PgbxTextList;

/* what one launch_* call reads: LaunchOptions, and what only one call takes */
typedef struct PgbxCall
{
	LaunchOptions o;
	int			clients;		/* run_bench */
	int			min_clients;	/* run_sweep (range), run_replay */
	int			max_clients;
	PgbxIntList clients_list;	/* run_sweep (list) */
	const char *queries;		/* run_replay; launch_part's replay_queries */
	bool		from_file;
	PgbxTextList generators;	/* all calls; n 0 if not given */
} PgbxCall;

/*
 * Read the options of call (a PGBX_* bit) from the jsonb object of
 * fcinfo's first argument, after checking the installed SQL's version.
 */
extern void pgbx_read_options(FunctionCallInfo fcinfo, int call, PgbxCall *out);

/* the standard error for a NULL argument that has no meaning */
extern void pgbx_null_argument(const char *argname);

/* a client range of run_sweep, run_replay or sweep_ladder */
extern void pgbx_check_client_range(int min_clients, int max_clients);

/* run_replay's from_file: the statements of a server file, palloc'd */
extern char *pgbx_read_queries_file(const char *path);

#endif							/* PGBENCHX_OPTIONS_H */
