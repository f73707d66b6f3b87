/*-------------------------------------------------------------------------
 *
 * owner.h
 *	  Who may do what: the switch to the extension's owner around the
 *	  extension's own writes, the ownership rule for scripts and runs, and
 *	  the liveness of runs and the server's real load, read the same way
 *	  whoever asks; the installed SQL's version.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_OWNER_H
#define PGBENCHX_OWNER_H

/* the saved identity of an owner_switch_begin ... owner_switch_end pair */
typedef struct OwnerSwitch
{
	Oid			saved_userid;
	int			saved_sec_context;
	int			guc_nest_level;
} OwnerSwitch;

/*
 * Become the extension's owner (pg_extension.extowner of pgbenchx), in a
 * security-restricted operation with search_path = pg_catalog, pg_temp (as
 * a SECURITY DEFINER function pinned to it), for a write to the extension's
 * tables: the SQL run in between names every object of the extension with
 * its schema.  Always pair with owner_switch_end in PG_FINALLY.  Needs a
 * transaction.
 */
extern void owner_switch_begin(OwnerSwitch *sw);
extern void owner_switch_end(const OwnerSwitch *sw);

/*
 * Runs sql, "SELECT pgbenchx.x_as($1, $2)" of an internal routine that no
 * runner may execute, as the extension's owner, with $1 the caller's
 * argument (of type argtype; NULL when argnull) and $2 the name of the role
 * whose rights are acting (GetUserId(): inside bob's SECURITY DEFINER
 * function, bob); returns its one value, copied into the caller's memory
 * context, and *isnull.  import's and gather's way to record an act as the
 * acting role's, so that no caller can name another.
 */
extern Datum owner_call_for_acting_role(const char *sql, Oid argtype, Datum arg, bool argnull,
										bool *isnull);

/*
 * PostgreSQL's ownership rule: whether role has the privileges of the role
 * named owner (the same role, a member that inherits it, or a superuser).
 * A name that is no role any more: only a superuser.
 */
extern bool owner_has_privs(Oid role, const char *owner);

/* pg_cancel_backend's rule for a run of role owner (cancel's and part_go's) */
extern bool owner_may_cancel(const char *owner);

/*
 * Liveness from the server's own state, the same for every role whatever
 * its privileges (pg_stat_activity hides other roles' rows).
 */
extern bool owner_coordinator_alive(int pid);

/* the live coordinator of the cluster, if any: its pid, activity, database */
extern bool owner_live_coordinator(int *pid, char **activity, char **dbname);

/*
 * The installed SQL's version, pg_extension.extversion of pgbenchx in this
 * database, palloc'd; NULL if not installed.
 */
extern char *owner_sql_version(void);

/*
 * Refuses (55000) when the installed SQL is not this library's version: a
 * package upgrade replaced the library and ALTER EXTENSION UPDATE has not
 * run.  what names the call for the detail.
 */
extern void owner_require_sql_version(const char *what);

/* regular client backends (against max_connections) and background workers */
extern void owner_count_backends(int *client_backends, int *bg_workers);

#endif							/* PGBENCHX_OWNER_H */
