/*-------------------------------------------------------------------------
 *
 * fleet.h
 *	  A recorder's load generators (issue 14): the connection to one (over
 *	  pqconn.c), the generators' clock offsets, the pre-flight checks, and
 *	  pgbenchx.generator_status(), what a generator answers about itself.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_FLEET_H
#define PGBENCHX_FLEET_H

#include "fmgr.h"
#include "libpq-fe.h"

#include "pqconn.h"

/* at most this many generators per run */
#define FLEET_MAX_GENERATORS	64
/* a generator that does not answer within this is lost */
#define FLEET_ANSWER_TIMEOUT_MS	10000
/* round trips of a clock offset measure; the shortest one is kept */
#define FLEET_CLOCK_ROUNDS		5

/* One generator as the recorder sees it. */
typedef struct FleetGenerator
{
	int			index;			/* 1-based position in the generators array */
	const char *conninfo;		/* complete, to connect (password included) */
	const char *shown;			/* without the password */
	PGconn	   *conn;			/* NULL: not connected, or lost */
	double		offset_ms;		/* its clock minus ours */
	double		uncertainty_ms; /* half the round trip of the measure kept */
	double		rtt_ms;
} FleetGenerator;

/*
 * A connection to a generator: pqconn_connect with the generators' deadline
 * (FLEET_ANSWER_TIMEOUT_MS) and, with require_password (a non-superuser's
 * run), a login without the password refused.  Returns NULL with *errmsg
 * (palloc'd) on failure, and when the server let the login in, or would
 * have, without the password, also *refused_at, its "host:port", when
 * refused_at is not NULL.  Closed by pqconn_finish; queried with pqconn.h's
 * pqconn_exec, pqconn_send and pqconn_collect.
 */
extern PGconn *fleet_connect(const char *conninfo, bool require_password, char **errmsg,
							 char **refused_at);

/*
 * The generator's clock offset: FLEET_CLOCK_ROUNDS round trips of
 * clock_timestamp(), the one with the shortest round trip kept; offset =
 * remote - (sent + received) / 2, uncertainty = round trip / 2.  Returns
 * false with *errmsg when a round trip failed.
 */
extern bool fleet_clock(FleetGenerator *g, char **errmsg);

/* "generator 2 (host=... dbname=...)" */
extern char *fleet_name(const FleetGenerator *g);

/* Our clock, in microseconds since the Unix epoch. */
extern int64 fleet_now_unix_usec(void);

/*
 * The pre-flight, in the caller's session: every generator reached, its
 * pgbenchx version, free worker slots for jobs + 1 (its default jobs for
 * max_share clients when jobs is 0), no run in progress there, and its
 * clock offset within max_offset_ms.  Each refusal is an ERROR naming the
 * generator, with a hint.  require_password: a non-superuser's connections
 * must have used a password.  Connections are closed before returning.
 */
extern void fleet_preflight(FleetGenerator *gens, int n, const int *max_share,
							int jobs, double max_offset_ms, bool require_password);

extern Datum pgbenchx_generator_status(PG_FUNCTION_ARGS);

#endif							/* PGBENCHX_FLEET_H */
