/*-------------------------------------------------------------------------
 *
 * import_sql.c
 *	  pgbenchx.import(doc): the entry point of import, in C so that the
 *	  importer it records is the role whose rights are acting when it is
 *	  called (GetUserId()), whatever SECURITY DEFINER function, SET ROLE or
 *	  SET SESSION AUTHORIZATION is around the call.
 *
 * Also the symbol of 0.4's caller_role(), which only refuses.
 *
 * Owns: calling the document's loader, pgbenchx.import_as(doc, importer),
 * through owner_call_for_acting_role (owner.c: the acting role, as the
 * extension's owner), whose PL/pgSQL does every check and every write and which no
 * runner may execute (70_security.sql's exclusions), so that no caller can
 * name another importer.  Must not: read the outer or the session user
 * (inside bob's SECURITY DEFINER function that is whoever called it, so an
 * import bob's function makes would be recorded as that caller's), nor
 * check or write anything itself.
 *
 * src/results/import_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_type.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"

#include "owner.h"

PG_FUNCTION_INFO_V1(pgbenchx_import);

/*
 * pgbenchx.import(doc jsonb) returns bigint[]: import_as(doc, the acting
 * role), run as the extension's owner.  NULL doc goes through to import_as,
 * which refuses it with its own message.
 */
Datum
pgbenchx_import(PG_FUNCTION_ARGS)
{
	bool		isnull;
	Datum		result;

	result = owner_call_for_acting_role("SELECT pgbenchx.import_as($1, $2)", JSONBOID,
										PG_ARGISNULL(0) ? (Datum) 0 : PG_GETARG_DATUM(0),
										PG_ARGISNULL(0), &isnull);
	if (isnull)
		PG_RETURN_NULL();
	PG_RETURN_DATUM(result);
}

PG_FUNCTION_INFO_V1(pgbenchx_caller_role);

/*
 * The symbol of pgbenchx.caller_role(), which the import() of 0.4 and
 * before called inside its SECURITY DEFINER body (and which read the outer
 * user: the flaw import_as closes).  Their install scripts name it, so the
 * library keeps it; with this library it only refuses, as a run refuses
 * until ALTER EXTENSION pgbenchx UPDATE.
 */
Datum
pgbenchx_caller_role(PG_FUNCTION_ARGS)
{
	owner_require_sql_version("import()");
	/* the SQL is this library's, which has no caller_role() */
	ereport(ERROR,
			(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
			 errmsg("pgbenchx.caller_role() is gone"),
			 errdetail("import() records the role whose rights are acting; the outer role is never used."),
			 errhint("Call pgbenchx.import(doc).")));
	PG_RETURN_NULL();
}
