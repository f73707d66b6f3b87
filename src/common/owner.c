/*-------------------------------------------------------------------------
 *
 * owner.c
 *	  Who may do what, read the same way whoever asks.
 *
 * Runners only read the extension's tables (grant_runner gives SELECT and
 * nothing else); every write goes through the extension's functions, which
 * check the rules and then become the extension's owner for the write
 * alone (owner_switch_begin/end), as a SECURITY DEFINER function pinned to
 * search_path = pg_catalog, pg_temp would, in a security-restricted
 * operation.
 *
 * The ownership rule is PostgreSQL's (has_privs_of_role): a role may act on
 * a script or a run of its own, of a role it inherits, and a superuser on
 * any.
 *
 * Liveness and load are read from the server's own state, never from the
 * caller's view of pg_stat_activity, which hides the rows of other roles
 * from a role without pg_read_all_stats (one runner's wait used to mark
 * another's live run aborted, and a runner's 20-client run was let through
 * with 86 of 100 connections in use): a coordinator is alive when its pid
 * is a background worker of type "pgbenchx coordinator"
 * (GetBackgroundWorkerTypeByPid, as pgbenchx.cancel signals it), and the
 * connections and worker slots in use are counted in the backend status
 * array, which has no privilege filter.
 *
 * An act recorded as a role's (an import, a gather) is the acting role's:
 * owner_call_for_acting_role reads it (GetUserId(), never the outer or
 * session user) and hands it to an internal routine that runs as the owner.
 *
 * Whether the installed SQL is this library's version is read from the
 * same row of pg_extension as the owner: a run and wait refuse the SQL of
 * another version (owner_require_sql_version).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/indexing.h"
#include "catalog/pg_authid.h"
#include "catalog/pg_extension.h"
#include "catalog/pg_type.h"
#include "commands/dbcommands.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "utils/acl.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/datum.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"

#include "owner.h"
#include "pg_compat.h"
#include "searchpath.h"

#define OWNER_COORDINATOR_TYPE "pgbenchx coordinator"

PG_FUNCTION_INFO_V1(pgbenchx_coordinator_alive);

/*
 * pgbenchx's row of pg_extension in this database, in one scan: its owner
 * (extowner) and, when version is not NULL, its extversion (palloc'd; NULL
 * if null).  false when the extension is not installed here.
 */
static bool
owner_extension_row(Oid *owner, char **version)
{
	Relation	rel;
	ScanKeyData key;
	SysScanDesc scan;
	HeapTuple	tup;
	bool		found;

	*owner = InvalidOid;
	if (version)
		*version = NULL;
	rel = table_open(ExtensionRelationId, AccessShareLock);
	ScanKeyInit(&key, Anum_pg_extension_extname, BTEqualStrategyNumber, F_NAMEEQ,
				CStringGetDatum("pgbenchx"));
	scan = systable_beginscan(rel, ExtensionNameIndexId, true, NULL, 1, &key);
	tup = systable_getnext(scan);
	found = HeapTupleIsValid(tup);
	if (found)
	{
		*owner = ((Form_pg_extension) GETSTRUCT(tup))->extowner;
		if (version)
		{
			bool		isnull;
			Datum		d = heap_getattr(tup, Anum_pg_extension_extversion,
										 RelationGetDescr(rel), &isnull);

			if (!isnull)
				*version = text_to_cstring(DatumGetTextPP(d));
		}
	}
	systable_endscan(scan);
	table_close(rel, AccessShareLock);
	return found;
}

/* pg_extension.extowner of pgbenchx in this database */
static Oid
owner_extension_owner(void)
{
	Oid			owner;

	if (!owner_extension_row(&owner, NULL) || !OidIsValid(owner))
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("extension \"pgbenchx\" is not installed in this database")));
	return owner;
}

/*
 * The version of pgbenchx's SQL installed in this database (pg_extension's
 * extversion), palloc'd; NULL when the extension is not installed here.
 * Also what generator_status (fleet.c) reports.
 */
char *
owner_sql_version(void)
{
	Oid			owner;
	char	   *version;

	(void) owner_extension_row(&owner, &version);
	return version;
}

/*
 * A run writes the tables of this library's version, and wait reads them:
 * with the SQL of another (a package upgrade replaced the library, ALTER
 * EXTENSION UPDATE has not run yet) they refuse before anything starts.
 */
void
owner_require_sql_version(const char *what)
{
	char	   *version = owner_sql_version();

	if (version != NULL && strcmp(version, PGBENCHX_LIBRARY_VERSION) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pgbenchx's SQL is version %s, the library %s", version, PGBENCHX_LIBRARY_VERSION),
				 errdetail("%s reads and writes the tables of the library's version.", what),
				 errhint("Run ALTER EXTENSION pgbenchx UPDATE.")));
}

void
owner_switch_begin(OwnerSwitch *sw)
{
	Oid			owner = owner_extension_owner();

	GetUserIdAndSecContext(&sw->saved_userid, &sw->saved_sec_context);
	SetUserIdAndSecContext(owner, sw->saved_sec_context |
						   SECURITY_LOCAL_USERID_CHANGE | SECURITY_RESTRICTED_OPERATION);
	/* the caller's search_path must not reach SQL that runs as the owner */
	sw->guc_nest_level = searchpath_pin();
}

void
owner_switch_end(const OwnerSwitch *sw)
{
	searchpath_restore(sw->guc_nest_level);
	SetUserIdAndSecContext(sw->saved_userid, sw->saved_sec_context);
}

Datum
owner_call_for_acting_role(const char *sql, Oid argtype, Datum arg, bool argnull, bool *isnull)
{
	MemoryContext caller_cxt = CurrentMemoryContext;
	Oid			types[2] = {argtype, NAMEOID};
	Datum		values[2];
	char		nulls[2] = {argnull ? 'n' : ' ', ' '};
	NameData	acting;
	OwnerSwitch sw;
	volatile Datum result = (Datum) 0;
	volatile bool null = true;

	namestrcpy(&acting, GetUserNameFromId(GetUserId(), false));
	values[0] = argnull ? (Datum) 0 : arg;
	values[1] = NameGetDatum(&acting);
	if (SPI_connect() != SPI_OK_CONNECT)
		elog(ERROR, "SPI_connect failed");
	owner_switch_begin(&sw);
	PG_TRY();
	{
		Datum		d;
		bool		dnull;

		if (SPI_execute_with_args(sql, 2, types, values, nulls, false, 1) != SPI_OK_SELECT ||
			SPI_processed != 1 || SPI_tuptable->tupdesc->natts != 1)
			elog(ERROR, "\"%s\" did not return one value", sql);
		d = SPI_getbinval(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1, &dnull);
		null = dnull;
		if (!dnull)
		{
			Form_pg_attribute att = TupleDescAttr(SPI_tuptable->tupdesc, 0);
			MemoryContext spi_cxt = MemoryContextSwitchTo(caller_cxt);

			result = datumCopy(d, att->attbyval, att->attlen);
			MemoryContextSwitchTo(spi_cxt);
		}
	}
	PG_FINALLY();
	{
		owner_switch_end(&sw);
	}
	PG_END_TRY();
	SPI_finish();
	*isnull = null;
	return result;
}

bool
owner_has_privs(Oid role, const char *owner)
{
	Oid			owner_oid = owner ? get_role_oid(owner, true) : InvalidOid;

	if (superuser_arg(role))
		return true;
	return OidIsValid(owner_oid) && has_privs_of_role(role, owner_oid);
}

/*
 * Who may cancel a run of role owner: pg_cancel_backend's rule.  A run
 * whose role is a superuser, or is no role any more (or is not recorded),
 * only a superuser; otherwise a role with the privileges of owner or of
 * pg_signal_backend.
 */
bool
owner_may_cancel(const char *owner)
{
	Oid			caller = GetUserId();
	Oid			owner_oid = owner ? get_role_oid(owner, true) : InvalidOid;

	if (superuser_arg(caller))
		return true;
	if (!OidIsValid(owner_oid) || superuser_arg(owner_oid))
		return false;
	return has_privs_of_role(caller, owner_oid) ||
		has_privs_of_role(caller, ROLE_PG_SIGNAL_BACKEND);
}

bool
owner_coordinator_alive(int pid)
{
	const char *type;

	if (pid <= 0)
		return false;
	type = GetBackgroundWorkerTypeByPid((pid_t) pid);
	return type != NULL && strcmp(type, OWNER_COORDINATOR_TYPE) == 0;
}

bool
owner_live_coordinator(int *pid, char **activity, char **dbname)
{
	int			n;

	/* a fresh read of the status array, not one cached by this transaction */
	pgstat_clear_snapshot();
	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = pgx_local_beentry(i);
		PgBackendStatus *be;

		if (local == NULL)
			continue;
		be = &local->backendStatus;
		if (be->st_backendType != B_BG_WORKER || !owner_coordinator_alive(be->st_procpid))
			continue;
		*pid = be->st_procpid;
		*activity = be->st_activity_raw[0] ? pgstat_clip_activity(be->st_activity_raw) : NULL;
		*dbname = OidIsValid(be->st_databaseid) ? get_database_name(be->st_databaseid) : NULL;
		return true;
	}
	return false;
}

void
owner_count_backends(int *client_backends, int *bg_workers)
{
	int			n;

	*client_backends = 0;
	*bg_workers = 0;
	pgstat_clear_snapshot();
	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *local = pgx_local_beentry(i);

		if (local == NULL)
			continue;
		if (local->backendStatus.st_backendType == B_BACKEND)
			(*client_backends)++;
		else if (local->backendStatus.st_backendType == B_BG_WORKER)
			(*bg_workers)++;
	}
}

/*
 * pgbenchx.coordinator_alive(pid int) returns boolean: whether pid is a live
 * pgbenchx coordinator.  NULL is not.  The same answer for every role.
 */
Datum
pgbenchx_coordinator_alive(PG_FUNCTION_ARGS)
{
	if (PG_ARGISNULL(0))
		PG_RETURN_BOOL(false);
	PG_RETURN_BOOL(owner_coordinator_alive(PG_GETARG_INT32(0)));
}
