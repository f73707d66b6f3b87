/*-------------------------------------------------------------------------
 *
 * secret.h
 *	  The caller's secret for a run's connections, never in SQL text
 *	  (issue 34, section 3): the password given when the session started
 *	  (pgbenchx.password, from the startup packet only), or on PostgreSQL
 *	  18 the SCRAM keys of the session's own login.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_SECRET_H
#define PGBENCHX_SECRET_H

#include "lib/stringinfo.h"

/* the GUC's name, as a client writes it in PGOPTIONS: -c pgbenchx.password=... */
#define SECRET_GUC_NAME		"pgbenchx.password"

typedef enum SecretKind
{
	SECRET_NONE,				/* the session has nothing for a run */
	SECRET_PASSWORD,			/* pgbenchx.password, given at login */
	SECRET_SCRAM_KEYS			/* the session's SCRAM keys (18) */
} SecretKind;

/* define pgbenchx.password (_PG_init) */
extern void secret_define_guc(void);

/*
 * What this session would give a run of the current role: nothing unless
 * the current role is the one that logged in (a SECURITY DEFINER function
 * or SET ROLE runs as another role, whose secret this is not).  The
 * password when pgbenchx.password was given, else the SCRAM keys when the
 * login used SCRAM and this libpq knows scram_client_key.
 */
extern SecretKind secret_session_kind(void);

/*
 * Append the session's secret (secret_session_kind) to a conninfo being
 * built: password='...', or scram_client_key='...' scram_server_key='...'.
 * Returns what it appended.  The result is for the run's DSM segment and
 * libpq only: never for a table, a log, an error or SQL text.
 */
extern SecretKind secret_append_session(StringInfo buf);

/*
 * conninfo re-quoted without the keywords that carry a secret (password,
 * the SCRAM keys); *password gets the password it had (palloc'd), or NULL.
 */
extern char *secret_strip(const char *conninfo, char **password);

/*
 * Append options='<options> -c pgbenchx.password=<password>' to buf: the
 * password for the session a connection opens on another pgbenchx (a
 * generator's part), through its startup packet.  conninfo: the
 * connection's conninfo so far, whose own options are kept in front.
 */
extern void secret_append_password_option(StringInfo buf, const char *conninfo,
										  const char *password);

/* Whether a libpq options value sets pgbenchx.password. */
extern bool secret_options_name_password(const char *options);

/* Whether a libpq keyword carries a secret that the results never show. */
extern bool secret_keyword(const char *keyword);

#endif							/* PGBENCHX_SECRET_H */
