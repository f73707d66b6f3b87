/*-------------------------------------------------------------------------
 * trust.h
 *	  Which objects a role may let run their code with its rights (trust.c).
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_TRUST_H
#define PGBENCHX_TRUST_H

#include "libpq-fe.h"
#include "nodes/pg_list.h"

/* who the clients are and where they resolve names, read over their own connection */
typedef struct TrustClients
{
	bool		here;			/* they reach this server's database: the check applies */
	bool		this_server;	/* they reach this server (any database): its connections */
	Oid			roleid;			/* their current_user */
	char	   *search_path;	/* their search_path setting */
} TrustClients;

/* the query trust_read_clients sends; its one value is parsed by it */
extern bool trust_read_clients(PGconn *conn, TrustClients *out, char **error);

/*
 * Each statement (sqls[i], variables as $n, used by sources[i], e.g.
 * "Script \"tpcb-like\"") analysed as the clients would resolve it; every
 * relation it names, with the closure of code those relations run, and
 * every function and operator it calls, must be trusted by the clients'
 * role.  ERROR 42501 otherwise.
 */
extern void trust_check_statements(const TrustClients *clients, int n,
								   const char *const *sqls, const char *const *sources);

/* the relations (and the code they run) must be trusted by roleid */
extern void trust_check_relations(Oid roleid, List *relids, const char *source);

/* a run's scripts (names, texts), its maintenance and check_tpcb */
struct RunSpec;
extern void trust_check_run(const struct RunSpec *spec, const TrustClients *clients,
							int nscripts, const char *const *names, const char *const *texts);

#endif							/* PGBENCHX_TRUST_H */
