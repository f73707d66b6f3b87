/*-------------------------------------------------------------------------
 *
 * loopback.c
 *	  Connections from inside the server to this server: the loopback
 *	  conninfo, and pqconn.c's connect and exec with the loopback's policy.
 *
 * Used by the caller's backend (the login check before a run), and by the
 * coordinator (pre-run maintenance, counters, check_tpcb, the trust check),
 * whose every connection of a non-superuser's run is checked by
 * conninfo.c's rule (loopback_require_password).  The policy: the deadline
 * is the conninfo's connect_timeout, a statement has none but the
 * coordinator's cancel (loopback_cancel_flag), which also gives up a
 * connect, and a connection's first notices are logged.  How a connection
 * is made, waited on and closed is pqconn.c's; the drivers keep their own
 * state machine for their many connections and only take the conninfo from
 * here.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "lib/stringinfo.h"
#include "postmaster/postmaster.h"
#include "utils/varlena.h"

#include "loopback.h"

void
loopback_append_param(StringInfo buf, const char *keyword, const char *value)
{
	if (buf->len > 0)
		appendStringInfoChar(buf, ' ');
	appendStringInfo(buf, "%s='", keyword);
	for (const char *p = value; *p; p++)
	{
		if (*p == '\'' || *p == '\\')
			appendStringInfoChar(buf, '\\');
		appendStringInfoChar(buf, *p);
	}
	appendStringInfoChar(buf, '\'');
}

char *
loopback_conninfo(const char *dbname, const char *user,
				  const char *application_name, const char *extra,
				  bool own_options)
{
	StringInfoData buf;
	char		port[16];
	const char *host = "localhost";
	char	   *dirs;
	List	   *dirlist = NIL;

	/* the first socket directory, as the server's own clients would use */
	if (Unix_socket_directories && Unix_socket_directories[0] != '\0')
	{
		dirs = pstrdup(Unix_socket_directories);
		if (SplitDirectoriesString(dirs, ',', &dirlist) && dirlist != NIL)
			host = (const char *) linitial(dirlist);
	}
	snprintf(port, sizeof(port), "%d", PostPortNumber);

	initStringInfo(&buf);
	loopback_append_param(&buf, "host", host);
	loopback_append_param(&buf, "port", port);
	loopback_append_param(&buf, "dbname", dbname);
	loopback_append_param(&buf, "user", user);
	if (application_name)
		loopback_append_param(&buf, "application_name", application_name);
	/* an orphaned client backend notices its client is gone */
	if (own_options)
		loopback_append_param(&buf, "options", "-c client_connection_check_interval=1000");
	loopback_append_param(&buf, "connect_timeout", "30");
	if (extra && extra[0] != '\0')
	{
		PQconninfoOption *opts = PQconninfoParse(extra, NULL);

		appendStringInfo(&buf, " %s", extra);
		/*
		 * The caller's options (say -c lock_timeout=1s) would replace ours:
		 * keep the check interval in front of them, theirs still win.
		 */
		for (PQconninfoOption *o = opts; own_options && o && o->keyword; o++)
			if (strcmp(o->keyword, "options") == 0 && o->val && o->val[0] != '\0')
				loopback_append_param(&buf, "options",
									  psprintf("-c client_connection_check_interval=1000 %s", o->val));
		if (opts)
			PQconninfoFree(opts);
	}
	return buf.data;
}

bool
loopback_conninfo_has(const char *conninfo, const char *keyword)
{
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	bool		found = false;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, keyword) == 0 && o->val && o->val[0] != '\0')
			found = true;
	if (opts)
		PQconninfoFree(opts);
	return found;
}

volatile sig_atomic_t *loopback_cancel_flag = NULL;

bool		loopback_require_password = false;

PGconn *
loopback_connect(const char *conninfo, char **errmsg)
{
	return loopback_connect_login(conninfo, errmsg, NULL);
}

PGconn *
loopback_connect_login(const char *conninfo, char **errmsg, char **refused_at)
{
	PqconnConnect how = {
		.what = "a loopback connection",
		.timeout_ms = 0,		/* the conninfo's connect_timeout */
		.require_password = loopback_require_password,
		.log_notices = true,
		.cancel_flag = loopback_cancel_flag,
	};

	return pqconn_connect(conninfo, &how, errmsg, refused_at);
}

char *
loopback_exec(PGconn *conn, const char *sql, char **first_value, char *sqlstate)
{
	char	   *error;
	PGresult   *res;

	if (first_value)
		*first_value = NULL;
	if (sqlstate)
		sqlstate[0] = '\0';
	if (!pqconn_send(conn, sql, 0, NULL, &error))
		return error;
	/* no deadline: a statement waiting on a lock ends with a cancel */
	res = pqconn_collect(conn, -1, PQCONN_MAX_ANSWER_BYTES, loopback_cancel_flag,
						 &error, sqlstate);
	if (res == NULL)
		return error;
	if (first_value && PQresultStatus(res) == PGRES_TUPLES_OK &&
		PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
		*first_value = pstrdup(PQgetvalue(res, 0, 0));
	PQclear(res);
	return NULL;
}
