/*-------------------------------------------------------------------------
 *
 * conninfo.h
 *	  The rule for a non-superuser's libpq connections: which conninfo
 *	  keywords a runner may use, the keywords pinned on every connection so
 *	  that no secret but the caller's password is used, and the check of each
 *	  established connection.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_CONNINFO_H
#define PGBENCHX_CONNINFO_H

#include "lib/stringinfo.h"
#include "libpq-fe.h"

/*
 * Check a caller's conninfo (the run's, or a generator's: the same rule).
 * For a restricted caller (a non-superuser) only the keywords of the
 * allowlist are accepted, user= only naming role, and a password is
 * required: password= (a WARNING for anyone: it is SQL text), or the
 * session's own (session_secret: secret.c); what names a file of the server
 * is refused, and so is pgbenchx.password in options, for everyone.
 * generator: the generator's number, for errors (0: the run's conninfo).
 * *typed_password: whether it has password=.  Appends the conninfo
 * re-quoted with libpq's rules to quoted, and with every secret masked to
 * shown.  Returns whether it names a host, hostaddr or port.
 */
extern bool conninfo_check(const char *conninfo, const char *role, bool restricted,
						   int generator, bool session_secret, bool *typed_password,
						   StringInfo shown, StringInfo quoted);

/*
 * Append to buf the keywords that close every source of a secret libpq
 * would otherwise read from the server's account (password file, client
 * certificate and key, root certificate and CRL, Kerberos), for a
 * restricted connection.  They come last, so they win; only keywords this
 * libpq knows are appended.
 */
extern void conninfo_append_pins(StringInfo buf);

/* conninfo with the pins appended (palloc'd) */
extern char *conninfo_pinned(const char *conninfo);

/*
 * Whether an established connection of a restricted caller logged in by
 * the rule: the server asked for a password (PQconnectionUsedPassword); with
 * the pins that can only be the caller's.  Checked on every connection,
 * every host of a multi-host conninfo and every reconnect.
 */
extern bool conninfo_login_ok(PGconn *conn, bool restricted);

/*
 * Whether a connection that failed was refused by libpq itself because the
 * server would have let it in without asking for the password: the pinned
 * require_auth (libpq 16 and later) ends it before conninfo_login_ok could
 * look.  Callers report it as conninfo_login_ok's refusal, so that the error
 * is the same on every major.  False on libpq 15, which has no require_auth.
 */
extern bool conninfo_password_refused(PGconn *conn);

/* "host:port" of an established connection, for errors (palloc'd) */
extern char *conninfo_where(PGconn *conn);

#endif							/* PGBENCHX_CONNINFO_H */
