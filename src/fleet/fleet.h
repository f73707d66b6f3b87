/*-------------------------------------------------------------------------
 *
 * fleet.h
 *	  The libpq connections from a recorder to its load generators (issue
 *	  14): connect and query with deadlines, never blocking inside libpq,
 *	  the generators' clock offsets, the pre-flight checks, and
 *	  pgbenchx.generator_status(), what a generator answers about itself.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_FLEET_H
#define PGBENCHX_FLEET_H

#include "fmgr.h"
#include "libpq-fe.h"

/* at most this many generators per run */
#define FLEET_MAX_GENERATORS	64
/* a generator that does not answer within this is lost */
#define FLEET_ANSWER_TIMEOUT_MS	10000
/*
 * The most an answer of a generator may hold (a part's whole runs row with
 * its statement statistics is at most 64 MB), what each value counts
 * beyond its bytes, and the longest error message kept from it.
 */
#define FLEET_MAX_ANSWER_BYTES	((size_t) 80 * 1024 * 1024)
#define FLEET_ROW_OVERHEAD		16
#define FLEET_MAX_MESSAGE_BYTES	2000
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
 * Connect without blocking, at most timeout_ms.  Returns NULL and sets
 * *errmsg (palloc'd) on failure; when libpq refused only because the server
 * would have let the login in without the password (16's require_auth pin,
 * conninfo_password_refused), also *refused_at, the server's "host:port",
 * if refused_at is not NULL.  Interrupts are serviced; the descriptor is
 * reserved with AcquireExternalFD and given back by fleet_close.
 */
extern PGconn *fleet_connect(const char *conninfo, int timeout_ms, char **errmsg,
							 char **refused_at);

/* Close a connection of fleet_connect (NULL: nothing). */
extern void fleet_close(PGconn *conn);

/*
 * Send one statement with text parameters (no wait for the answer).
 * Returns false and sets *errmsg when it could not be sent.
 */
extern bool fleet_send(PGconn *conn, const char *sql, int nparams,
					   const char *const *params, char **errmsg);

/*
 * Wait at most timeout_ms for the answer of what fleet_send sent.  Returns
 * its last result (rows or command status; the caller PQclears it) or NULL
 * with *errmsg (the server's error, the connection's, or no answer in time)
 * and, when sqlstate is not NULL, the SQLSTATE of a server error there.
 */
extern PGresult *fleet_collect(PGconn *conn, int timeout_ms, char **errmsg, char *sqlstate);

/*
 * fleet_collect keeping at most max_bytes of rows (each value's length
 * plus FLEET_ROW_OVERHEAD): a longer answer is read to its end and thrown
 * away, and NULL is returned with *errmsg saying so.  fleet_collect keeps
 * at most FLEET_MAX_ANSWER_BYTES.
 */
extern PGresult *fleet_collect_bounded(PGconn *conn, int timeout_ms, size_t max_bytes,
									   char **errmsg, char *sqlstate);

/* Make a text from another server storable: invalid bytes become '?'. */
extern void fleet_sanitize_text(char *s);

/* fleet_send then fleet_collect */
extern PGresult *fleet_exec(PGconn *conn, const char *sql, int nparams,
							const char *const *params, int timeout_ms,
							char **errmsg, char *sqlstate);

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
