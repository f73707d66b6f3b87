/*-------------------------------------------------------------------------
 *
 * conninfo.c
 *	  The rule for a non-superuser's libpq connections (issue 20, section
 *	  5): a connection made for a runner uses no secret but the password the
 *	  caller supplied, on every connection it makes.
 *
 * Three parts, used by every place that connects for a run (launch.c's
 * login check, the coordinator's maintenance and check_tpcb over
 * loopback.c, the drivers' clients and their reconnects, the recorder's
 * generators over fleet.c; the coordinator's and the generators' logins
 * are checked by pqconn.c's connect):
 *
 *	- conninfo_check: the caller's conninfo (the run's or a generator's, one
 *	  rule).  A non-superuser may use only the keywords of an allowlist, so
 *	  that a keyword a later libpq adds is refused until it is judged; none
 *	  of them names a file of the server, and a socket directory in host=
 *	  must be one of this server's unix_socket_directories.  user= may only
 *	  name the caller, and a password is required: password= (SQL text,
 *	  so a WARNING), or the session's own (secret.c), which launch.c
 *	  appends.  pgbenchx.password in options is refused.
 *	- conninfo_append_pins: the keywords appended last to each such
 *	  connection's conninfo, so that libpq cannot take a secret from the
 *	  server's account or environment: passfile, sslcert, sslkey,
 *	  sslrootcert, sslcrl and sslcrldir point at a path that cannot exist,
 *	  gssencmode is disable, krbsrvname names a principal no KDC has (so
 *	  the server's Kerberos credentials cannot authenticate, before libpq
 *	  16's require_auth), and where libpq knows them (16 and later)
 *	  sslcertmode is disable and require_auth names the password methods.
 *	  Explicit keywords override the environment (PGPASSFILE, PGSSLCERT,
 *	  ...).  A service named by PGSERVICE in the server's environment cannot
 *	  be switched off by a keyword, but it only fills keywords left unset,
 *	  and every one that could carry a secret (user, password and the pinned
 *	  ones) is set.
 *	- conninfo_login_ok: after each connection is established, the server
 *	  must have asked for the password (PQconnectionUsedPassword).  With the
 *	  pins the password used can only be the caller's, and trust, peer,
 *	  Kerberos and certificates are refused, on whichever host of a
 *	  multi-host conninfo libpq ended on.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"
#include "postmaster/postmaster.h"
#include "utils/varlena.h"

#include "conninfo.h"
#include "loopback.h"
#include "secret.h"

/*
 * The keywords a non-superuser may pass.  Nothing here names a file or
 * selects a secret of the server's account; a keyword not listed (a newer
 * libpq's too) is refused.  docs/security.md, "Granting a runner", lists
 * them.
 */
static const char *const conninfo_allowed[] = {
	"host", "hostaddr", "port", "dbname", "user", "password",
	"connect_timeout", "client_encoding", "options",
	"application_name", "fallback_application_name",
	"keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count",
	"tcp_user_timeout", "target_session_attrs", "load_balance_hosts",
	"sslmode", "sslcompression", "sslsni", "sslnegotiation",
	"ssl_min_protocol_version", "ssl_max_protocol_version",
	"min_protocol_version", "max_protocol_version",
	"channel_binding", "requirepeer",
	NULL
};

/* a path that cannot exist: no one can create a file below /dev/null */
#define CONNINFO_NO_FILE	"/dev/null/pgbenchx-none"

/* require_auth's pin: the methods that ask for the password */
#define CONNINFO_PASSWORD_METHODS	"password,md5,scram-sha-256"

/* the pins: keyword, value; appended only where this libpq knows the keyword */
static const char *const conninfo_pins[][2] = {
	{"passfile", CONNINFO_NO_FILE},
	{"sslcert", CONNINFO_NO_FILE},
	{"sslkey", CONNINFO_NO_FILE},
	{"sslrootcert", CONNINFO_NO_FILE},
	{"sslcrl", CONNINFO_NO_FILE},
	{"sslcrldir", CONNINFO_NO_FILE},
	{"gssencmode", "disable"},
	/* a service principal no KDC has: Kerberos authentication cannot succeed */
	{"krbsrvname", "pgbenchx-no-kerberos"},
	{"sslcertmode", "disable"},
	{"require_auth", CONNINFO_PASSWORD_METHODS},
};

static bool
conninfo_allowed_keyword(const char *keyword)
{
	for (int i = 0; conninfo_allowed[i]; i++)
		if (strcmp(conninfo_allowed[i], keyword) == 0)
			return true;
	return false;
}

/*
 * Whether a keyword names a file or directory: the ones libpq has, and by
 * name any it may add (only for the wording of the refusal: every keyword
 * off the allowlist is refused).
 */
static bool
conninfo_file_keyword(const char *keyword)
{
	return strcmp(keyword, "passfile") == 0 || strcmp(keyword, "service") == 0 ||
		strstr(keyword, "file") != NULL || strstr(keyword, "dir") != NULL ||
		strstr(keyword, "cert") != NULL || strstr(keyword, "crl") != NULL ||
		strcmp(keyword, "sslkey") == 0;
}

/*
 * Whether a conninfo option holds a secret that the results must not show:
 * libpq's own mark for password-type options (dispchar "*"), so that any
 * keyword a newer libpq adds is masked too; password is masked in any case.
 */
static bool
conninfo_secret(const PQconninfoOption *o)
{
	return (o->dispchar != NULL && strchr(o->dispchar, '*') != NULL) ||
		secret_keyword(o->keyword);
}

/*
 * Whether a socket directory (or Linux abstract socket name) is one of this
 * server's unix_socket_directories: any other one names a place on the
 * server whose existence libpq's errors would tell.
 */
static bool
conninfo_own_socket_dir(const char *dir)
{
	char	   *mine;
	char	   *given;
	List	   *dirs = NIL;
	ListCell   *lc;

	if (Unix_socket_directories == NULL || Unix_socket_directories[0] == '\0')
		return false;
	mine = pstrdup(Unix_socket_directories);
	if (!SplitDirectoriesString(mine, ',', &dirs))
		return false;
	given = pstrdup(dir);
	if (given[0] == '/')
		canonicalize_path(given);
	foreach(lc, dirs)
	{
		if (strcmp((const char *) lfirst(lc), given) == 0)
			return true;
	}
	return false;
}

/* "conninfo" or "the conninfo of generator N", for errors */
static char *
conninfo_name(int generator)
{
	return generator > 0 ? psprintf("the conninfo of generator %d", generator) : pstrdup("conninfo");
}

bool
conninfo_check(const char *conninfo, const char *role, bool restricted,
			   int generator, bool session_secret, bool *typed_password,
			   StringInfo shown, StringInfo quoted)
{
	char	   *perr = NULL;
	PQconninfoOption *opts;
	bool		remote = false;
	bool		password = false;

	opts = PQconninfoParse(conninfo, &perr);
	if (opts == NULL)
	{
		char	   *msg = perr ? pstrdup(perr) : pstrdup("out of memory");
		int			len = strlen(msg);

		while (len > 0 && msg[len - 1] == '\n')
			msg[--len] = '\0';

		if (perr)
			PQfreemem(perr);
		if (generator > 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid conninfo of generator %d", generator),
					 errdetail("%s", msg),
					 errhint("Pass libpq keyword=value parameters for each generator, such as 'host=gen1 dbname=bench'.")));
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("invalid conninfo"),
				 errdetail("%s", msg),
				 errhint("Pass libpq keyword=value parameters, such as 'host=db2 port=5432 dbname=bench'.")));
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
	{
		if (o->val == NULL || o->val[0] == '\0')
			continue;
		if (strcmp(o->keyword, "host") == 0 || strcmp(o->keyword, "hostaddr") == 0 ||
			strcmp(o->keyword, "port") == 0)
			remote = true;
		if (strcmp(o->keyword, "password") == 0)
			password = true;
		/* no one's clients need it, and it would be recorded: refused to everyone */
		if (strcmp(o->keyword, "options") == 0 && secret_options_name_password(o->val))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("%s may not set " SECRET_GUC_NAME, conninfo_name(generator)),
					 errdetail("The run's connections get this session's " SECRET_GUC_NAME " from pgbenchx itself; in conninfo it would be SQL text, logged and recorded."),
					 errhint("Remove it from the options in conninfo; give it when the session starts (PGOPTIONS='-c " SECRET_GUC_NAME "=...').")));
		if (restricted)
		{
			if (strcmp(o->keyword, "user") == 0 && strcmp(o->val, role) != 0)
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("%s may not name another role", conninfo_name(generator)),
						 errdetail("The clients log in as the role that starts the run, \"%s\".", role),
						 errhint("Remove user= from conninfo; only a superuser may have the clients log in as another role.")));
			if (conninfo_file_keyword(o->keyword) && !conninfo_allowed_keyword(o->keyword))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("%s may not use \"%s\"", conninfo_name(generator), o->keyword),
						 errdetail("It names a file on the server, which libpq would read with the server's operating system account (its errors would tell whether the file exists)."),
						 errhint("Only a superuser may pass %s; a non-superuser logs in with its password alone.", o->keyword)));
			if (strcmp(o->keyword, "host") == 0)
			{
				/* each host of the list: a socket directory must be this server's */
				char	   *hosts = pstrdup(o->val);
				char	   *next;

				for (char *h = hosts; h != NULL; h = next)
				{
					next = strchr(h, ',');
					if (next)
						*next++ = '\0';
					if ((h[0] == '/' || h[0] == '@') && !conninfo_own_socket_dir(h))
						ereport(ERROR,
								(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
								 errmsg("%s may not use socket directory \"%s\"", conninfo_name(generator), h),
								 errdetail("It names a directory on the server that is not one of this server's unix_socket_directories; libpq's errors would tell whether it exists."),
								 errhint("Use one of this server's socket directories (unix_socket_directories), or a TCP host name or address.")));
				}
			}
			if (!conninfo_allowed_keyword(o->keyword))
				ereport(ERROR,
						(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
						 errmsg("%s may not use \"%s\"", conninfo_name(generator), o->keyword),
						 errdetail("A non-superuser's connections use only the password the caller supplies, and only the keywords listed in docs/security.md, \"Granting a runner\"."),
						 errhint("Remove %s from conninfo; only a superuser may pass it.", o->keyword)));
		}
		/* re-quoted with libpq's rules: the URI form and odd quoting become keyword='value' */
		loopback_append_param(quoted, o->keyword, o->val);
		/* libpq marks every secret (password, sslpassword, ...) with dispchar "*" */
		if (conninfo_secret(o))
			loopback_append_param(shown, o->keyword, "********");
		else
			loopback_append_param(shown, o->keyword, o->val);
	}
	PQconninfoFree(opts);

	/*
	 * A password typed in conninfo is SQL text: by now the server may have
	 * logged it (log_statement, log_min_duration_statement's parameters),
	 * and pg_stat_activity and pg_stat_statements show it.  Refusing it
	 * here would not take it out of those, and would break every call that
	 * works today; the WARNING says where it went and how to avoid it.
	 */
	if (password)
		ereport(WARNING,
				(errcode(ERRCODE_WARNING),
				 errmsg("%s carries a password in SQL text", conninfo_name(generator)),
				 errdetail("The statement's text, with the password, may be in the server log, pg_stat_activity and pg_stat_statements."),
				 errhint("Leave password= out: give the password when the session starts (PGOPTIONS='-c " SECRET_GUC_NAME "=...'), or on PostgreSQL 18 log in with scram-sha-256, and pgbenchx passes it on; see docs/security.md.")));
	*typed_password = password;

	if (restricted && !password && !session_secret)
	{
		if (generator > 0)
			ereport(ERROR,
					(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
					 errmsg("generator %d (%s) cannot be reached without a password", generator, shown->data),
					 errdetail("A non-superuser's connections must log in with the password the caller supplies, never with the server account's password file, certificates, Kerberos, trust or peer."),
					 errhint("Give role \"%s\"'s password when the session starts (PGOPTIONS='-c " SECRET_GUC_NAME "=...'), or on PostgreSQL 18 log in with scram-sha-256; see docs/security.md.", role)));
		ereport(ERROR,
				(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
				 errmsg("password is required"),
				 errdetail("A non-superuser's benchmark clients must log in with a password, so that they cannot borrow the server's own identity through trust or peer authentication."),
				 errhint("Give role \"%s\"'s password when the session starts (PGOPTIONS='-c " SECRET_GUC_NAME "=...'), or on PostgreSQL 18 log in with scram-sha-256; see docs/security.md.", role)));
	}
	return remote;
}

void
conninfo_append_pins(StringInfo buf)
{
	/* every keyword this libpq knows, without reading any default */
	PQconninfoOption *defaults = PQconninfoParse("", NULL);

	if (defaults == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OUT_OF_MEMORY),
				 errmsg("out of memory"),
				 errdetail("libpq could not list its connection options.")));
	for (int i = 0; i < (int) lengthof(conninfo_pins); i++)
	{
		for (PQconninfoOption *o = defaults; o->keyword; o++)
			if (strcmp(o->keyword, conninfo_pins[i][0]) == 0)
			{
				loopback_append_param(buf, conninfo_pins[i][0], conninfo_pins[i][1]);
				break;
			}
	}
	PQconninfoFree(defaults);
}

char *
conninfo_pinned(const char *conninfo)
{
	StringInfoData buf;

	initStringInfo(&buf);
	appendStringInfoString(&buf, conninfo);
	conninfo_append_pins(&buf);
	return buf.data;
}

bool
conninfo_login_ok(PGconn *conn, bool restricted)
{
	return !restricted || PQconnectionUsedPassword(conn);
}

bool
conninfo_password_refused(PGconn *conn)
{
	/* fe-auth.c's message when a requirement is not met (libpq 16 and later) */
	return strstr(PQerrorMessage(conn),
				  "authentication method requirement \"" CONNINFO_PASSWORD_METHODS "\" failed") != NULL;
}

char *
conninfo_where(PGconn *conn)
{
	const char *host = PQhost(conn);
	const char *port = PQport(conn);

	return psprintf("%s:%s", host ? host : "?", port ? port : "?");
}
