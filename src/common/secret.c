/*-------------------------------------------------------------------------
 *
 * secret.c
 *	  The caller's secret for a run's connections, never in SQL text
 *	  (issue 34, section 3).
 *
 * A non-superuser's run logs in with the caller's password (conninfo.c).
 * Typed as password= in a conninfo argument, that password is SQL text:
 * log_statement, log_min_duration_statement's parameters, pg_stat_activity
 * and pg_stat_statements show it.  This file owns the two channels that
 * are never SQL text:
 *
 *	- pgbenchx.password, a PGC_BACKEND setting that only the client's
 *	  startup packet may give (PGOPTIONS='-c pgbenchx.password=...', or
 *	  libpq's options=).  Its check hook refuses every other source (SET is
 *	  refused by PGC_BACKEND itself; ALTER ROLE and ALTER DATABASE SET would
 *	  store it in a catalogue, a file would be read by everyone who can read
 *	  it) with a message that never echoes the value, and moves the value
 *	  out of the GUC machinery: the setting itself holds "********" (SHOW,
 *	  pg_settings' reset_val, a parallel worker's copy), the password lives
 *	  in the check hook's "extra", read through the assign hook.
 *	- On PostgreSQL 18, the SCRAM keys of the session's own login
 *	  (MyProcPort->scram_ClientKey and scram_ServerKey), which libpq 18 logs
 *	  in with (scram_client_key, scram_server_key) without knowing the
 *	  password, as postgres_fdw's use_scram_passthrough does.
 *
 * Either is given only to a run of the role that logged in (not through
 * SET ROLE or a SECURITY DEFINER function), and appended by launch.c to the
 * conninfo that goes to the run's DSM segment and to libpq, nowhere else.
 * The recorder hands a generator's part the target's password through the
 * startup packet of its connection to that generator (fleet/kinds.c).
 *
 * Must not: put a secret in SQL text, a table, an error or a log line; show
 * the password through the GUC machinery.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <ctype.h>

#include "fmgr.h"
#include "libpq-fe.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"

#include "loopback.h"
#include "pg_compat.h"
#include "secret.h"

PG_FUNCTION_INFO_V1(pgbenchx_session_secret);

/* what the setting shows, and holds, in place of the password */
#define SECRET_MASK		"********"

/* the password of the startup packet: the check hook's extra (GUC memory) */
static const char *secret_password = NULL;

/* the setting's own variable: SECRET_MASK or empty, never the password */
static char *secret_guc_value = NULL;

/*
 * pgbenchx.password's check hook: only the client's startup packet
 * (PGC_S_CLIENT; a placeholder the packet set before this library was
 * loaded is applied again with that source when it is) may give it.  The
 * password moves to *extra, and the setting keeps SECRET_MASK.
 */
static bool
secret_check_password(char **newval, void **extra, GucSource source)
{
	char	   *keep;
	char	   *mask;

	if (*newval == NULL || (*newval)[0] == '\0')
		return true;
	if (source != PGC_S_CLIENT)
	{
		/* GUC_check_errmsg: guc.c's own message would echo the value */
		GUC_check_errcode(ERRCODE_INSUFFICIENT_PRIVILEGE);
		GUC_check_errmsg("pgbenchx.password can only be given when the session starts");
		GUC_check_errdetail("It is read from the connection's startup packet alone, never from SET, a configuration file, ALTER SYSTEM, ALTER ROLE or ALTER DATABASE, which would store or log it.");
		GUC_check_errhint("Connect with PGOPTIONS='-c pgbenchx.password=...' (or libpq's options), and leave it out of every other place.");
		return false;
	}
	/* a parallel worker's copy of the leader's setting: the mask, no password */
	if (strcmp(*newval, SECRET_MASK) == 0)
		return true;
	keep = pgx_guc_malloc(LOG, strlen(*newval) + 1);
	mask = pgx_guc_malloc(LOG, sizeof(SECRET_MASK));
	if (keep == NULL || mask == NULL)
	{
		pgx_guc_free(keep);
		pgx_guc_free(mask);
		return false;
	}
	strcpy(keep, *newval);
	strcpy(mask, SECRET_MASK);
	explicit_bzero(*newval, strlen(*newval));
	pgx_guc_free(*newval);
	*newval = mask;
	*extra = keep;
	return true;
}

static void
secret_assign_password(const char *newval, void *extra)
{
	(void) newval;
	secret_password = extra;
}

static const char *
secret_show_password(void)
{
	return secret_password != NULL ? SECRET_MASK : "";
}

void
secret_define_guc(void)
{
	DefineCustomStringVariable(SECRET_GUC_NAME,
							   "The password a run's connections log in with, given when the session starts.",
							   "Only the startup packet may give it (PGOPTIONS='-c pgbenchx.password=...'); it is never shown.",
							   &secret_guc_value,
							   "",
							   PGC_BACKEND,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE | GUC_SUPERUSER_ONLY |
							   GUC_DISALLOW_IN_FILE | GUC_DISALLOW_IN_AUTO_FILE | GUC_NO_RESET_ALL,
							   secret_check_password, secret_assign_password, secret_show_password);
}

/* Whether this libpq knows keyword (the server's build of libpq). */
static bool
secret_libpq_knows(const char *keyword)
{
	PQconninfoOption *defaults = PQconninfoParse("", NULL);
	bool		found = false;

	for (PQconninfoOption *o = defaults; o && o->keyword; o++)
		if (strcmp(o->keyword, keyword) == 0)
			found = true;
	if (defaults)
		PQconninfoFree(defaults);
	return found;
}

/* the session's own, for a run of the role that logged in */
static bool
secret_for_current_role(void)
{
	return OidIsValid(GetUserId()) && GetUserId() == GetAuthenticatedUserId();
}

SecretKind
secret_session_kind(void)
{
	char	   *client;
	char	   *server;

	if (!secret_for_current_role())
		return SECRET_NONE;
	if (secret_password != NULL && secret_password[0] != '\0')
		return SECRET_PASSWORD;
	if (pgx_scram_keys(&client, &server) && secret_libpq_knows("scram_client_key"))
	{
		explicit_bzero(client, strlen(client));
		explicit_bzero(server, strlen(server));
		return SECRET_SCRAM_KEYS;
	}
	return SECRET_NONE;
}

SecretKind
secret_append_session(StringInfo buf)
{
	SecretKind	kind = secret_session_kind();
	char	   *client;
	char	   *server;

	if (kind == SECRET_PASSWORD)
		loopback_append_param(buf, "password", secret_password);
	else if (kind == SECRET_SCRAM_KEYS && pgx_scram_keys(&client, &server))
	{
		loopback_append_param(buf, "scram_client_key", client);
		loopback_append_param(buf, "scram_server_key", server);
		explicit_bzero(client, strlen(client));
		explicit_bzero(server, strlen(server));
	}
	return kind;
}

bool
secret_keyword(const char *keyword)
{
	return strcmp(keyword, "password") == 0 ||
		strcmp(keyword, "scram_client_key") == 0 ||
		strcmp(keyword, "scram_server_key") == 0;
}

char *
secret_strip(const char *conninfo, char **password)
{
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	StringInfoData buf;

	*password = NULL;
	initStringInfo(&buf);
	if (opts == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid conninfo")));
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || o->val[0] == '\0')
			continue;
		if (strcmp(o->keyword, "password") == 0)
			*password = pstrdup(o->val);
		if (!secret_keyword(o->keyword))
			loopback_append_param(&buf, o->keyword, o->val);
	}
	PQconninfoFree(opts);
	return buf.data;
}

void
secret_append_password_option(StringInfo buf, const char *conninfo, const char *password)
{
	StringInfoData value;
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	const char *options = NULL;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, "options") == 0)
			options = o->val;
	initStringInfo(&value);
	if (options != NULL && options[0] != '\0')
		appendStringInfo(&value, "%s ", options);
	appendStringInfoString(&value, "-c " SECRET_GUC_NAME "=");
	/* the server splits options at unescaped white space; \ escapes */
	for (const char *p = password; *p; p++)
	{
		if (isspace((unsigned char) *p) || *p == '\\')
			appendStringInfoChar(&value, '\\');
		appendStringInfoChar(&value, *p);
	}
	loopback_append_param(buf, "options", value.data);
	explicit_bzero(value.data, value.len);
	pfree(value.data);
	if (opts)
		PQconninfoFree(opts);
}

bool
secret_options_name_password(const char *options)
{
	char	   *lower = pstrdup(options);
	bool		found;

	for (char *p = lower; *p; p++)
		*p = pg_tolower((unsigned char) *p);
	found = strstr(lower, SECRET_GUC_NAME) != NULL;
	pfree(lower);
	return found;
}

/*
 * pgbenchx.session_secret() returns text: what this session gives a run of
 * the current role, by kind only ('password', 'scram keys' or 'none').
 */
Datum
pgbenchx_session_secret(PG_FUNCTION_ARGS)
{
	(void) fcinfo;
	switch (secret_session_kind())
	{
		case SECRET_PASSWORD:
			PG_RETURN_TEXT_P(cstring_to_text("password"));
		case SECRET_SCRAM_KEYS:
			PG_RETURN_TEXT_P(cstring_to_text("scram keys"));
		case SECRET_NONE:
			break;
	}
	PG_RETURN_TEXT_P(cstring_to_text("none"));
}
