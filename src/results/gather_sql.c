/*-------------------------------------------------------------------------
 *
 * gather_sql.c
 *	  pgbenchx.gather(label): the entry point that gathers a role's loose
 *	  runs of one label into a sweep (issue 37 §4: seed 000's shell loop,
 *	  run with the pgbenchx command line, gives runs that export and compare
 *	  only take as sweeps).  In C so that the role whose runs are gathered
 *	  is the role whose rights are acting (GetUserId()), whatever SECURITY
 *	  DEFINER function, SET ROLE or SET SESSION AUTHORIZATION is around the
 *	  call: as import_sql.c.
 *
 * Owns: calling pgbenchx.gather_as(label, role) through
 * owner_call_for_acting_role (owner.c: the acting role, as the extension's
 * owner; runners only read the results), whose PL/pgSQL does every check and
 * every write and which no runner may execute (70_security.sql's
 * exclusions), so that no caller can gather another role's runs.  Must
 * not: read the outer or the session user, nor check or write anything
 * itself.
 *
 * src/results/gather_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"

#include "owner.h"

PG_FUNCTION_INFO_V1(pgbenchx_gather);

/*
 * pgbenchx.gather(label text) returns bigint: gather_as(label, the acting
 * role), run as the extension's owner.  A NULL label goes through to
 * gather_as, which refuses it with its own message.
 */
Datum
pgbenchx_gather(PG_FUNCTION_ARGS)
{
	bool		isnull;
	Datum		result;

	owner_require_sql_version("gather()");
	result = owner_call_for_acting_role("SELECT pgbenchx.gather_as($1, $2)", TEXTOID,
										PG_ARGISNULL(0) ? (Datum) 0 : PG_GETARG_DATUM(0),
										PG_ARGISNULL(0), &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}
