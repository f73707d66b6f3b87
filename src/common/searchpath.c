/*-------------------------------------------------------------------------
 *
 * searchpath.c
 *	  Pins search_path for the SQL that pgbenchx itself runs, so that no
 *	  object another role created (a look-alike operator or function in
 *	  public, a domain named like a built-in type) can take the place of a
 *	  pg_catalog one.  See PostgreSQL's "Security Considerations for
 *	  Extensions".
 *
 * In the caller's backend, searchpath_pin() sets search_path to
 * SEARCHPATH_SAFE for the statements that follow, the way a function's
 * SET clause does, and searchpath_restore() puts the caller's back; an
 * error in between restores it with the (sub)transaction.  Use it around
 * SPI statements that name no table of the user's: those that must find
 * the pgbench tables through the user's search_path (pgbench_init's DDL,
 * the loopback maintenance) qualify every function and operator instead.
 *
 * The background workers that run SQL (the coordinator, the start-up
 * reaper) call searchpath_pin_worker() once, right after connecting: no
 * statement they run needs the user's search_path.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/guc.h"

#include "searchpath.h"

/* Pins search_path; returns the GUC nest level to pass to searchpath_restore. */
int
searchpath_pin(void)
{
	int			nestlevel = NewGUCNestLevel();

	(void) set_config_option("search_path", SEARCHPATH_SAFE, PGC_USERSET, PGC_S_SESSION,
							 GUC_ACTION_SAVE, true, 0, false);
	return nestlevel;
}

/* Puts back the search_path that was in force before searchpath_pin(). */
void
searchpath_restore(int nestlevel)
{
	AtEOXact_GUC(true, nestlevel);
}

/*
 * For the whole life of a background worker, over the role's and the
 * database's settings (ALTER ROLE ... SET search_path), which
 * BackgroundWorkerInitializeConnection has applied.  The workers never SET it
 * themselves.
 */
void
searchpath_pin_worker(void)
{
	SetConfigOption("search_path", SEARCHPATH_SAFE, PGC_SUSET, PGC_S_OVERRIDE);
}
