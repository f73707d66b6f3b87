/*-------------------------------------------------------------------------
 *
 * options.h
 *	  The options of a launch_* call, read by name from jsonb (options.c)
 *	  through the list of model/options_list.h (the calls' bits and the
 *	  options' ids are run_options.h's).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_OPTIONS_H
#define PGBENCHX_OPTIONS_H

#include "fmgr.h"

#include "launch.h"
#include "run_options.h"

/*
 * The library's version: the Makefile passes EXTVERSION, which is
 * default_version in pgbenchx.control.
 */
#ifndef PGBENCHX_LIBRARY_VERSION
#error "build through the Makefile: it defines PGBENCHX_LIBRARY_VERSION from EXTVERSION"
#endif

/* the largest statement list run_replay takes */
#define PGBENCHX_MAX_REPLAY_BYTES	(64 * 1024 * 1024)

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

/*
 * what one launch_* call reads: LaunchOptions, and what only one call takes;
 * options_list.h's field column names these members
 */
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
 * Read the options of call (a PGBX_* bit of run_options.h) from the jsonb object of
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
