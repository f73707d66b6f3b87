/*-------------------------------------------------------------------------
 *
 * driver.c
 *	  A driver background worker: pgbench's thread.  It opens its share of a
 *	  run's client connections back to the server and drives them all
 *	  asynchronously through the script, recording every transaction's
 *	  latency into the per-second statistics of the run's DSM segment.
 *
 * Each client is an explicit state machine over a non-blocking libpq
 * connection; one WaitEventSet holds the latch, the postmaster and every
 * client socket.  The driver never blocks inside libpq, never allocates per
 * transaction (the script module reuses each client's buffers), and is
 * connected to no database (it initializes without one only to show up in
 * pg_stat_activity as a "pgbenchx driver").
 *
 * This file must not know the SQL of the results: it only publishes into
 * the DSM layout of run_shmem.h.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>
#include <sys/resource.h>

#include "libpq-fe.h"
#include "mb/pg_wchar.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "postmaster/bgworker.h"
#include "storage/dsm.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "storage/latch.h"
#include "storage/proc.h"
#include "storage/shm_toc.h"
#include "tcop/tcopprot.h"
#include "utils/memutils.h"
#include "utils/timestamp.h"
#include "utils/wait_event.h"

#include "driver.h"
#include "loopback.h"
#include "prng.h"
#include "run_shmem.h"
#include "run_spec.h"
#include "script.h"
#include "stats.h"
#include "worker.h"

/* how long stragglers may take to finish after a stop request */
#define DRIVER_STOP_GRACE_USEC	(1 * USECS_PER_SEC)

/*
 * Transactions a client may end in one go without waiting for anything (a
 * script of meta-commands only): then it yields to the wait loop, which
 * looks at interrupts, the stop request and the clock.
 */
#define DRIVER_MAX_TX_WITHOUT_WAIT	1000

/* a client's abort message, server text included, is cut to this (bytes) */
#define DRIVER_MESSAGE_MAX		400
/* each notice kept with the run is cut to this (bytes) */
#define DRIVER_NOTICE_MAX		200

/* pgbench's words for a COPY in a script */
#define DRIVER_COPY_MESSAGE		"COPY is not supported in pgbench, aborting"

typedef enum ClientPhase
{
	CLIENT_CONNECTING,
	CLIENT_READY,				/* at a command boundary: step the script */
	CLIENT_SLEEPING,			/* \sleep until wake_at */
	CLIENT_PREPARING,			/* waiting for PQsendPrepare's result */
	CLIENT_WAITING,				/* waiting for a command's results */
	CLIENT_ROLLING_BACK,		/* after a failure inside a transaction */
	CLIENT_PIPELINE_END,		/* \endpipeline: collecting up to the syncs */
	CLIENT_DONE,
	CLIENT_ABORTED
} ClientPhase;

typedef struct DriverClient
{
	int			id;				/* global client number, :client_id */
	PGconn	   *conn;
	ClientPhase phase;
	PostgresPollingStatusType poll;
	int			wes_pos;		/* position in the wait event set */
	bool		want_write;		/* output still to flush */
	ScriptClient *sc;
	ScriptStep	step;			/* the SQL being prepared or run */
	bool	   *prepared;		/* per SQL statement, prepared mode */
	bool		txn_failed;		/* serialization or deadlock failure */
	bool		stmt_failed;	/* replay: the statement in flight failed */
	int		   *cmd_map;		/* replay shuffle: own command -> original */
	bool		failed_deadlock;	/* ... and which of the two */
	PGresult   *gset_res;		/* \gset: the last result of the command */
	bool		txn_started;
	TimestampTz txn_start;		/* latency counts from here (-R: the schedule) */
	int			tries;			/* of the transaction in progress */
	bool		chosen;			/* the next transaction's script is chosen */
	bool		throttled;		/* -R: sleeping until txn_scheduled */
	bool		yielded;		/* "sleeping" only to let the wait loop run */
	TimestampTz txn_scheduled;
	TimestampTz cmd_start;		/* the command in flight (-r) */
	bool		in_pipeline;	/* between \startpipeline and \endpipeline */
	int			syncs_pending;	/* pipeline syncs sent, not yet collected */
	TimestampTz conn_start;
	TimestampTz wake_at;
	int64		ntx;			/* transactions ended (ok, failed or skipped) */
} DriverClient;

typedef struct DriverRun
{
	RunShared  *run;
	const RunSpec *spec;		/* the run's, in the step's segment */
	DriverShared *me;
	int			index;
	RunMix		payload;		/* the scripts, their weights, the variables */
	const Script *scripts[SCRIPT_MAX_SCRIPTS];
	int			cmd_base[SCRIPT_MAX_SCRIPTS];	/* script's first command in cmdstats */
	int			sql_base[SCRIPT_MAX_SCRIPTS];	/* script's first statement in prepared[] */
	int			nsql;			/* statements of all scripts */
	char		(*prep_names)[24];	/* per statement: its prepared name */
	prng_state	choose_rs;		/* pgbench's per-thread script choice */
	DriverClient *clients;
	int			nclients;
	WaitEventSet *wes;
	TimestampTz end_time;		/* 0 when the run is bounded by transactions */
	TimestampTz stop_deadline;	/* 0 until a stop request */
	uint64		cur_sec;		/* the second being filled */
	int			live;			/* clients neither done nor aborted */
	bool		wes_dirty;		/* sockets changed or closed: rebuild the set */
	char	  **client_conninfo;	/* per client, for -C reconnects */
	CommandStats *cmdstats;		/* ours, in the DSM segment */
	DriverCounts *counts;		/* ours, in the DSM segment */
	/* -R: pgbench's per-thread schedule */
	prng_state	throttle_rs;
	double		throttle_delay_usec;
	TimestampTz throttle_trigger;
	char		first_error[RUN_ERROR_LEN];
} DriverRun;

static const char *const driver_prepared_names_prefix = "P_";

/* the run being driven, for the exit callback */
static DriverRun *driver_current = NULL;

/* descriptors reserved for the clients' connections (ReserveExternalFD) */
static int	driver_fds_reserved = 0;
/* the soft RLIMIT_NOFILE after raising it for our share; -1 if unlimited */
static long driver_fd_limit = -1;

static void driver_client_run(DriverRun *dr, DriverClient *c, TimestampTz now);
static void driver_client_abort(DriverRun *dr, DriverClient *c, const char *fmt,...)
			pg_attribute_printf(3, 4);

/* ---------------------------------------------------------------------
 * Per-second statistics
 * --------------------------------------------------------------------- */

static stats_second *
driver_slot(DriverRun *dr)
{
	return &dr->me->ring[dr->cur_sec % dr->run->ring_len];
}

/* Publish every second before the one now falls in. */
static void
driver_advance_seconds(DriverRun *dr, TimestampTz now)
{
	uint64		sec;

	if (now <= dr->run->bench_start)
		return;
	sec = (uint64) (now - dr->run->bench_start) / USECS_PER_SEC;
	/* completions after the end count in the last second */
	if (dr->run->duration > 0 && sec >= (uint64) dr->run->duration)
		sec = dr->run->duration - 1;
	while (dr->cur_sec < sec)
	{
		/* the run total first: it is right whatever the ring loses */
		stats_run_add_second(&dr->me->total, driver_slot(dr));
		pg_write_barrier();
		pg_atomic_write_u64(&dr->me->seconds_published, dr->cur_sec + 1);
		dr->cur_sec++;
		/* published before the slot is reused: the coordinator detects it */
		pg_write_barrier();
		stats_second_reset(driver_slot(dr));
	}
}

static void
driver_publish_final(DriverRun *dr)
{
	stats_run_add_second(&dr->me->total, driver_slot(dr));
	pg_write_barrier();
	pg_atomic_write_u64(&dr->me->seconds_published, dr->cur_sec + 1);
}

static void
driver_transaction_ended(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	int64		latency = now - c->txn_start;

	driver_advance_seconds(dr, now);
	if (c->txn_failed)
	{
		stats_second_record_failed(driver_slot(dr));
		if (c->failed_deadlock)
			dr->counts->deadlock_failures++;
		else
			dr->counts->serialization_failures++;
	}
	else
	{
		stats_second_record_ok(driver_slot(dr), (uint64) Max(latency, 0));
		if (dr->run->knobs.latency_limit_usec > 0 &&
			latency > dr->run->knobs.latency_limit_usec)
			dr->counts->late++;
	}
	if (c->tries > 1)
	{
		dr->counts->retried++;
		dr->counts->retries += c->tries - 1;
	}
	c->tries = 0;
	pg_atomic_write_u64(&dr->me->transactions,
						pg_atomic_read_u64(&dr->me->transactions) + 1);
	c->ntx++;
	c->txn_failed = false;
	c->txn_started = false;
	c->chosen = false;
}

/* ---------------------------------------------------------------------
 * Client life
 * --------------------------------------------------------------------- */

/* Close a client's connection and take its socket out of the wait set. */
static void
driver_client_disconnect(DriverRun *dr, DriverClient *c)
{
	/*
	 * Not ModifyWaitEvent: when the server closed the connection, libpq has
	 * already closed the socket, and epoll_ctl on it fails with EBADF.  The
	 * set is rebuilt without this client before the next wait instead (a
	 * closed descriptor is gone from epoll by itself meanwhile).
	 */
	if (c->wes_pos >= 0)
		dr->wes_dirty = true;
	c->wes_pos = -1;
	if (c->conn)
		PQfinish(c->conn);
	c->conn = NULL;
	c->want_write = false;
	if (dr->run->knobs.connect_per_transaction)
		dr->wes_dirty = true;
}

static void
driver_client_close(DriverRun *dr, DriverClient *c, ClientPhase phase)
{
	if (c->gset_res)
		PQclear(c->gset_res);
	c->gset_res = NULL;
	driver_client_disconnect(dr, c);
	c->phase = phase;
	dr->live--;
}

/*
 * Cut text that echoes input (a statement, a value, the server's message
 * about them) to max bytes plus "...", without splitting a UTF-8 sequence
 * (the coordinator still checks the encoding before storing it).  buf has
 * room for max + 4 bytes.
 */
static void
driver_clip(char *buf, const char *text, int max)
{
	int			len = strlen(text);

	if (len <= max)
	{
		memcpy(buf, text, len + 1);
		return;
	}
	len = max;
	while (len > 0 && IS_HIGHBIT_SET(text[len]) && (text[len] & 0xC0) == 0x80)
		len--;
	memcpy(buf, text, len);
	memcpy(buf + len, "...", 4);
}

/* pgbench's abort: the client stops, the run will end as failed */
static void
driver_client_abort(DriverRun *dr, DriverClient *c, const char *fmt,...)
{
	char		full[RUN_ERROR_LEN];
	char		msg[DRIVER_MESSAGE_MAX + 4];
	va_list		ap;
	int			len;

	va_start(ap, fmt);
	vsnprintf(full, sizeof(full), fmt, ap);
	va_end(ap);
	len = strlen(full);
	while (len > 0 && full[len - 1] == '\n')
		full[--len] = '\0';
	driver_clip(msg, full, DRIVER_MESSAGE_MAX);

	if (dr->first_error[0] == '\0')
		strlcpy(dr->first_error, msg, sizeof(dr->first_error));
	ereport(LOG, (errmsg("pgbenchx %s", msg)));
	dr->me->aborted_clients++;
	driver_client_close(dr, c, CLIENT_ABORTED);
}

/*
 * libpq's notice receiver for every client connection.  The default one
 * prints to stderr, that is into the server log, where a script raising
 * notices in a loop would write without limit: count them instead, and keep
 * the first few (cut) for the run's row.  Called only when a notice
 * arrives, so nothing is added to a transaction without notices.
 */
static void
driver_notice_receiver(void *arg, const PGresult *res)
{
	DriverRun  *dr = (DriverRun *) arg;
	DriverShared *me = dr->me;

	dr->counts->notices++;
	if (me->nnotice_samples < RUN_NOTICE_SAMPLES)
	{
		const char *severity = PQresultErrorField(res, PG_DIAG_SEVERITY);
		const char *primary = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
		char		text[RUN_NOTICE_LEN + 64];

		if (primary == NULL)
			primary = PQresultErrorMessage(res);
		snprintf(text, sizeof(text), "%s: %.*s", severity ? severity : "NOTICE",
				 RUN_NOTICE_LEN, primary);
		driver_clip(me->notice_samples[me->nnotice_samples], text, DRIVER_NOTICE_MAX);
		me->nnotice_samples++;
	}
}

/* A new client connection: notices go to our receiver, not to the log. */
static void
driver_conn_setup(DriverRun *dr, PGconn *conn)
{
	if (conn != NULL)
		PQsetNoticeReceiver(conn, driver_notice_receiver, dr);
}

/*
 * Have the server cancel the query in flight on conn.  PQcancel opens a
 * short connection to the postmaster: bounded, and used only on the way
 * out of a client (a stop, a COPY, the driver's exit).
 */
static void
driver_cancel_query(PGconn *conn)
{
	PGcancel   *cancel;
	char		errbuf[256];

	if (conn == NULL || PQstatus(conn) != CONNECTION_OK ||
		PQtransactionStatus(conn) != PQTRANS_ACTIVE)
		return;
	cancel = PQgetCancel(conn);
	if (cancel)
	{
		(void) PQcancel(cancel, errbuf, sizeof(errbuf));
		PQfreeCancel(cancel);
	}
}

/*
 * Close every client connection, cancelling the queries still running so
 * that no backend goes on working (or waiting on a lock) for a driver that
 * is gone.  Nothing is drained.  Used when the driver fails and when it
 * exits on a FATAL (pg_terminate_backend, shutdown, the coordinator's
 * terminate).
 */
static void
driver_close_all(DriverRun *dr)
{
	if (dr == NULL || dr->clients == NULL)
		return;
	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];

		if (c->conn == NULL)
			continue;
		driver_cancel_query(c->conn);
		PQfinish(c->conn);
		c->conn = NULL;
	}
	for (; driver_fds_reserved > 0; driver_fds_reserved--)
		ReleaseExternalFD();
}

static void
driver_on_exit(int code pg_attribute_unused(), Datum arg pg_attribute_unused())
{
	DriverRun  *dr = driver_current;

	driver_current = NULL;
	driver_close_all(dr);
}

/*
 * The server answered a command with COPY: pgbench aborts the client.  A
 * COPY FROM STDIN is ended with our message as its error; a COPY TO STDOUT
 * (or BOTH) may send without end, so it is not drained: its query is
 * cancelled and the connection closed.
 */
static void
driver_client_copy(DriverRun *dr, DriverClient *c, ExecStatusType st)
{
	if (st == PGRES_COPY_IN)
	{
		if (PQputCopyEnd(c->conn, DRIVER_COPY_MESSAGE) == 1)
			(void) PQflush(c->conn);
	}
	else
		driver_cancel_query(c->conn);
	driver_client_abort(dr, c, "client %d script 0 aborted in command %d query 0: %s",
						c->id, c->step.command, DRIVER_COPY_MESSAGE);
}

static inline bool
driver_is_copy(ExecStatusType st)
{
	return st == PGRES_COPY_IN || st == PGRES_COPY_OUT || st == PGRES_COPY_BOTH;
}

/* Whether the client should start no new transaction. */
static bool
driver_client_finished(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	if (dr->stop_deadline != 0)
		return true;
	if (dr->end_time != 0 && now >= dr->end_time)
		return true;
	if (dr->run->transactions > 0 && c->ntx >= dr->run->transactions)
		return true;
	return false;
}

static void
driver_client_flush(DriverRun *dr, DriverClient *c)
{
	int			rc = PQflush(c->conn);
	bool		want = (rc == 1);

	if (rc < 0)
	{
		driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
		return;
	}
	if (want != c->want_write)
	{
		c->want_write = want;
		if (c->wes_pos >= 0)
			ModifyWaitEvent(dr->wes, c->wes_pos,
							WL_SOCKET_READABLE | (want ? WL_SOCKET_WRITEABLE : 0), NULL);
		else
			dr->wes_dirty = true;
	}
}

static void
driver_client_send(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	const ScriptStep *s = &c->step;
	int			ok;
	const char *name;

	c->cmd_start = now;
	switch (dr->run->protocol)
	{
		case RUN_PROTOCOL_SIMPLE:
			ok = PQsendQuery(c->conn, s->sql);
			break;
		case RUN_PROTOCOL_EXTENDED:
			ok = PQsendQueryParams(c->conn, s->sql, s->nparams, NULL,
								   (const char *const *) s->params, NULL, NULL, 0);
			break;
		default:
			name = dr->prep_names[dr->sql_base[s->script] + s->sql_index];
			if (!c->prepared[dr->sql_base[s->script] + s->sql_index] && c->in_pipeline)
			{
				/* queued in the pipeline just before its first execution */
				ok = PQsendPrepare(c->conn, name, s->sql, s->nparams, NULL);
				c->prepared[dr->sql_base[s->script] + s->sql_index] = true;
				if (ok)
					ok = PQsendQueryPrepared(c->conn, name, s->nparams,
											 (const char *const *) s->params, NULL, NULL, 0);
			}
			else if (!c->prepared[dr->sql_base[s->script] + s->sql_index])
			{
				ok = PQsendPrepare(c->conn, name, s->sql, s->nparams, NULL);
				if (ok)
				{
					c->phase = CLIENT_PREPARING;
					driver_client_flush(dr, c);
					return;
				}
			}
			else
				ok = PQsendQueryPrepared(c->conn, name, s->nparams,
										 (const char *const *) s->params, NULL, NULL, 0);
			break;
	}
	if (!ok)
	{
		driver_client_abort(dr, c, "client %d aborted in command %d of script 0: %s",
							c->id, s->command, PQerrorMessage(c->conn));
		return;
	}
	driver_client_flush(dr, c);
	if (c->in_pipeline)
	{
		/* the results are collected at \endpipeline */
		if (s->store != SCRIPT_STORE_NONE)
		{
			driver_client_abort(dr, c, "client %d aborted in command %d of script 0: \\%s is not allowed in pipeline mode",
								c->id, s->command, s->store == SCRIPT_STORE_GSET ? "gset" : "aset");
			return;
		}
		script_sql_done(c->sc);
		return;
	}
	c->phase = CLIENT_WAITING;
}

/* pgbench's getPoissonRand: the wait before the next scheduled transaction */
static int64
driver_poisson_usec(prng_state *rs, double center_usec)
{
	double		uniform = 1.0 - prng_double(rs);

	return (int64) (-log(uniform) * center_usec + 0.5);
}

/*
 * -R: schedule the client's next transaction on the driver's Poisson
 * schedule, skipping those already later than -L (pgbench counts them as
 * skipped).  Returns false if the schedule runs past the end of the run.
 */
static bool
driver_client_schedule(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	int64		limit = dr->run->knobs.latency_limit_usec;

	dr->throttle_trigger += driver_poisson_usec(&dr->throttle_rs, dr->throttle_delay_usec);
	c->txn_scheduled = dr->throttle_trigger;
	while (limit > 0 && c->txn_scheduled < now - limit &&
		   (dr->end_time == 0 || c->txn_scheduled < dr->end_time))
	{
		dr->counts->skipped++;
		c->ntx++;
		if (dr->run->transactions > 0 && c->ntx >= dr->run->transactions)
			return false;
		dr->throttle_trigger += driver_poisson_usec(&dr->throttle_rs, dr->throttle_delay_usec);
		c->txn_scheduled = dr->throttle_trigger;
	}
	return dr->end_time == 0 || c->txn_scheduled < dr->end_time;
}

/* -C: open a new connection for the next transaction */
static void
driver_client_reconnect(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	c->conn_start = now;
	c->conn = PQconnectStart(dr->client_conninfo[c - dr->clients]);
	driver_conn_setup(dr, c->conn);
	if (c->conn == NULL || PQstatus(c->conn) == CONNECTION_BAD)
	{
		driver_client_abort(dr, c, "client %d aborted while establishing connection%s%s",
							c->id, c->conn ? ": " : "", c->conn ? PQerrorMessage(c->conn) : "");
		return;
	}
	c->poll = PGRES_POLLING_WRITING;
	c->phase = CLIENT_CONNECTING;
	dr->wes_dirty = true;
}

/* Step the script until the client must wait for something. */
static void
driver_client_run(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	ScriptError err;
	int			ended = 0;		/* transactions ended in this call */

	while (c->phase == CLIENT_READY)
	{
		if (!c->txn_started)
		{
			if (driver_client_finished(dr, c, now))
			{
				driver_client_close(dr, c, CLIENT_DONE);
				return;
			}
			/* pgbench chooses the script first, then schedules (-R) */
			if (dr->payload.nscripts > 1 && !c->chosen)
				script_client_select(c->sc,
									 script_choose(&dr->choose_rs, dr->payload.weights,
												   dr->payload.nscripts,
												   dr->payload.total_weight));
			c->chosen = true;
			if (dr->run->knobs.rate > 0 && !c->throttled)
			{
				if (!driver_client_schedule(dr, c, now))
				{
					driver_client_close(dr, c, CLIENT_DONE);
					return;
				}
				if (c->txn_scheduled > now)
				{
					c->throttled = true;
					c->wake_at = c->txn_scheduled;
					c->phase = CLIENT_SLEEPING;
					return;
				}
			}
			if (dr->run->knobs.connect_per_transaction && c->conn == NULL)
			{
				driver_client_reconnect(dr, c, now);
				return;
			}
			c->txn_started = true;
			c->tries = 1;
			c->txn_start = now;
			if (dr->run->knobs.rate > 0)
			{
				int64		lag = now - c->txn_scheduled;

				/* latency counts from the schedule: no coordinated omission */
				c->txn_start = c->txn_scheduled;
				c->throttled = false;
				dr->counts->lag_count++;
				dr->counts->lag_sum_usec += lag;
				dr->counts->lag_max_usec = Max(dr->counts->lag_max_usec, lag);
			}
		}

		switch (script_step_client(c->sc, &c->step, &err))
		{
			case SCRIPT_STEP_SQL:
				driver_client_send(dr, c, now);
				if (c->in_pipeline && c->phase == CLIENT_READY)
					break;		/* sent; go on to the next command */
				return;
			case SCRIPT_STEP_PIPELINE_START:
				if (dr->run->protocol == RUN_PROTOCOL_SIMPLE)
				{
					driver_client_abort(dr, c, "client %d aborted in command %d of script 0: cannot use pipeline mode with the simple query protocol",
										c->id, c->step.command);
					return;
				}
				if (!PQenterPipelineMode(c->conn))
				{
					driver_client_abort(dr, c, "client %d aborted in command %d of script 0: failed to enter pipeline mode",
										c->id, c->step.command);
					return;
				}
				c->in_pipeline = true;
				c->syncs_pending = 0;
				break;
			case SCRIPT_STEP_PIPELINE_SYNC:
				if (!PQpipelineSync(c->conn))
				{
					driver_client_abort(dr, c, "client %d aborted: failed to send a pipeline sync", c->id);
					return;
				}
				c->syncs_pending++;
				break;
			case SCRIPT_STEP_PIPELINE_END:
				if (!PQpipelineSync(c->conn))
				{
					driver_client_abort(dr, c, "client %d aborted: failed to send a pipeline sync", c->id);
					return;
				}
				c->syncs_pending++;
				c->cmd_start = now;
				c->phase = CLIENT_PIPELINE_END;
				driver_client_flush(dr, c);
				return;
			case SCRIPT_STEP_SLEEP:
				c->cmd_start = now;
				c->wake_at = now + c->step.sleep_usec;
				c->phase = CLIENT_SLEEPING;
				return;
			case SCRIPT_STEP_END_OF_TRANSACTION:
				if (c->in_pipeline)
				{
					driver_client_abort(dr, c, "client %d aborted: end of script reached with pipeline open",
										c->id);
					return;
				}
				if (PQtransactionStatus(c->conn) != PQTRANS_IDLE)
				{
					driver_client_abort(dr, c, "client %d aborted: end of script reached without completing the last transaction",
										c->id);
					return;
				}
				if (dr->run->knobs.replay)
				{
					/* the statements were counted one by one */
					c->ntx++;
					c->txn_started = false;
					c->chosen = false;
				}
				else
					driver_transaction_ended(dr, c, now);
				if (dr->run->knobs.connect_per_transaction)
					driver_client_disconnect(dr, c);
				if (++ended >= DRIVER_MAX_TX_WITHOUT_WAIT)
				{
					/* no SQL to wait for: do not spin deaf to interrupts */
					c->yielded = true;
					c->wake_at = now;
					c->phase = CLIENT_SLEEPING;
					return;
				}
				break;
			case SCRIPT_STEP_ERROR:
				{
					char		msg[RUN_ERROR_LEN];

					/* pgbench words the end-of-script aborts without a command */
					if (strncmp(err.message, "end of script", 13) == 0)
					{
						driver_client_abort(dr, c, "client %d aborted: %s", c->id, err.message);
						return;
					}
					script_error_format(&err, msg, sizeof(msg));
					driver_client_abort(dr, c, "client %d aborted in command %d of script 0; %s",
										c->id, err.command_index, msg);
					return;
				}
			default:
				driver_client_abort(dr, c, "client %d aborted: unknown step", c->id);
				return;
		}
	}
}

/*
 * A failed command: serialization and deadlock failures end the
 * transaction as failed (pgbench 15 without retries); anything else aborts
 * the client.  Returns false if the client was aborted.
 */
static bool
driver_client_error(DriverRun *dr, DriverClient *c, PGresult *res)
{
	const char *sqlstate = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	/* a replay counts a failing statement and goes on, whatever the error */
	if (dr->run->knobs.replay)
	{
		c->stmt_failed = true;
		return true;
	}
	if (sqlstate && (strcmp(sqlstate, "40001") == 0 || strcmp(sqlstate, "40P01") == 0))
	{
		if (!c->txn_failed)
		{
			c->txn_failed = true;
			c->failed_deadlock = (strcmp(sqlstate, "40P01") == 0);
		}
		return true;
	}
	driver_client_abort(dr, c, "client %d script 0 aborted in command %d query 0: %s",
						c->id, c->step.command, PQresultErrorMessage(res));
	return false;
}

/*
 * A serialization or deadlock failure, rolled back: retry the transaction
 * from its first command with the random state it started with, as pgbench
 * --max-tries does, or end it as failed.
 */
static void
driver_client_failed(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	const RunKnobs *k = &dr->run->knobs;
	CommandStats *cs = &dr->cmdstats[dr->cmd_base[c->step.script] + c->step.command];
	bool		retry;

	retry = (k->max_tries == 0 || c->tries < k->max_tries) &&
		(k->latency_limit_usec == 0 || now - c->txn_start <= k->latency_limit_usec) &&
		(dr->end_time == 0 || now < dr->end_time) &&
		dr->stop_deadline == 0;
	if (retry)
	{
		cs->retries++;
		c->tries++;
		c->txn_failed = false;
		script_client_restart_transaction(c->sc);
		return;
	}
	cs->failures++;
	script_client_reset(c->sc);
	driver_transaction_ended(dr, c, now);
}

/*
 * run_replay: a statement ended.  Each statement counts as one transaction
 * (its latency, or a failure), and a failing one does not stop the replay;
 * a transaction it left aborted is rolled back first.  Returns false if the
 * client was aborted.
 */
static bool
driver_client_replayed(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	int			cmd = c->cmd_map ? c->cmd_map[c->step.command] : c->step.command;
	CommandStats *cs = &dr->cmdstats[dr->cmd_base[c->step.script] + cmd];

	if (c->gset_res)
		PQclear(c->gset_res);
	c->gset_res = NULL;
	driver_advance_seconds(dr, now);
	if (c->stmt_failed)
	{
		c->stmt_failed = false;
		cs->failures++;
		stats_second_record_failed(driver_slot(dr));
	}
	else
	{
		cs->executions++;
		cs->sum_usec += now - c->cmd_start;
		stats_second_record_ok(driver_slot(dr), (uint64) (now - c->cmd_start));
	}
	pg_atomic_write_u64(&dr->me->transactions,
						pg_atomic_read_u64(&dr->me->transactions) + 1);
	if (PQtransactionStatus(c->conn) == PQTRANS_INERROR)
	{
		if (!PQsendQuery(c->conn, "ROLLBACK"))
		{
			driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
			return false;
		}
		c->phase = CLIENT_ROLLING_BACK;
		driver_client_flush(dr, c);
		return false;
	}
	script_sql_done(c->sc);
	c->phase = CLIENT_READY;
	return true;
}

/* \gset / \aset: store one row's columns as variables */
static bool
driver_client_store_row(DriverRun *dr, DriverClient *c, PGresult *res, int row)
{
	ScriptError err;
	const char *prefix = c->step.store_prefix ? c->step.store_prefix : "";

	for (int j = 0; j < PQnfields(res); j++)
	{
		if (!script_store_result(c->sc, prefix, PQfname(res, j),
								 PQgetisnull(res, row, j) ? "" : PQgetvalue(res, row, j),
								 &err))
		{
			driver_client_abort(dr, c, "client %d script 0 command %d query 0: %s",
								c->id, c->step.command, err.message);
			return false;
		}
	}
	return true;
}

/*
 * A successful result of the command in flight: \aset stores every
 * non-empty one at once, \gset keeps the last for when the command ends.
 */
static bool
driver_client_result(DriverRun *dr, DriverClient *c, PGresult *res)
{
	if (c->phase != CLIENT_WAITING || c->step.store == SCRIPT_STORE_NONE)
	{
		PQclear(res);
		return true;
	}
	if (c->step.store == SCRIPT_STORE_ASET)
	{
		bool		ok = true;

		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0)
			ok = driver_client_store_row(dr, c, res, PQntuples(res) - 1);
		PQclear(res);
		return ok;
	}
	if (c->gset_res)
		PQclear(c->gset_res);
	c->gset_res = res;
	return true;
}

/* The command ended: \gset wants exactly one row from its last query. */
static bool
driver_client_gset(DriverRun *dr, DriverClient *c)
{
	PGresult   *res = c->gset_res;
	int			rows;
	bool		ok;

	if (c->step.store != SCRIPT_STORE_GSET || c->txn_failed)
	{
		if (res)
			PQclear(res);
		c->gset_res = NULL;
		return true;
	}
	rows = (res && PQresultStatus(res) == PGRES_TUPLES_OK) ? PQntuples(res) : 0;
	c->gset_res = NULL;
	if (rows != 1)
	{
		if (res)
			PQclear(res);
		driver_client_abort(dr, c, "client %d script 0 command %d query 0: expected one row, got %d",
							c->id, c->step.command, rows);
		return false;
	}
	ok = driver_client_store_row(dr, c, res, 0);
	PQclear(res);
	return ok;
}

/*
 * \endpipeline: collect every result up to the last sync, then leave
 * pipeline mode.  A serialization or deadlock failure fails the
 * transaction (the pipeline's implicit transaction is gone); any other
 * error aborts the client, as pgbench does.
 */
static void
driver_client_pipeline_results(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	PGresult   *res;
	bool		after_null = false;

	while (c->syncs_pending > 0)
	{
		if (PQisBusy(c->conn))
			return;				/* more input to come */
		res = PQgetResult(c->conn);
		if (res == NULL)
		{
			/*
			 * The end of one query's results; the next query's follow.  Two
			 * in a row: libpq has nothing more queued, the syncs we wait for
			 * will never come (do not spin on it).
			 */
			if (after_null)
			{
				driver_client_abort(dr, c, "client %d aborted: the pipeline ended before its sync",
									c->id);
				return;
			}
			after_null = true;
			continue;
		}
		after_null = false;
		if (driver_is_copy(PQresultStatus(res)))
		{
			ExecStatusType st = PQresultStatus(res);

			PQclear(res);
			driver_client_copy(dr, c, st);
			return;
		}
		switch (PQresultStatus(res))
		{
			case PGRES_PIPELINE_SYNC:
				c->syncs_pending--;
				break;
			case PGRES_FATAL_ERROR:
				if (!driver_client_error(dr, c, res))
				{
					PQclear(res);
					return;
				}
				break;
			default:
				break;			/* results and PGRES_PIPELINE_ABORTED */
		}
		PQclear(res);
	}
	if (!PQexitPipelineMode(c->conn))
	{
		driver_client_abort(dr, c, "client %d aborted: failed to exit pipeline mode: %s",
							c->id, PQerrorMessage(c->conn));
		return;
	}
	c->in_pipeline = false;
	{
		CommandStats *cs = &dr->cmdstats[dr->cmd_base[c->step.script] + c->step.command];

		cs->executions++;
		cs->sum_usec += now - c->cmd_start;
	}
	c->phase = CLIENT_READY;
	if (c->txn_failed)
	{
		if (PQtransactionStatus(c->conn) == PQTRANS_IDLE)
			driver_client_failed(dr, c, now);
		else
		{
			if (!PQsendQuery(c->conn, "ROLLBACK"))
			{
				driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
				return;
			}
			c->phase = CLIENT_ROLLING_BACK;
			driver_client_flush(dr, c);
			return;
		}
	}
	driver_client_run(dr, c, now);
}

/* Input arrived on a client's socket (or it may be writable again). */
static void
driver_client_io(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	PGresult   *res;

	if (c->want_write)
	{
		driver_client_flush(dr, c);
		if (c->phase == CLIENT_ABORTED)
			return;
	}
	if (!PQconsumeInput(c->conn))
	{
		driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
		return;
	}

	if (c->phase == CLIENT_PIPELINE_END)
	{
		driver_client_pipeline_results(dr, c, now);
		return;
	}

	while (!PQisBusy(c->conn))
	{
		res = PQgetResult(c->conn);
		if (res != NULL)
		{
			ExecStatusType st = PQresultStatus(res);
			bool		ok = true;

			if (driver_is_copy(st))
			{
				/* PQgetResult would return it again and again */
				PQclear(res);
				driver_client_copy(dr, c, st);
				return;
			}
			if (st == PGRES_FATAL_ERROR)
			{
				if (c->phase == CLIENT_ROLLING_BACK)
				{
					driver_client_abort(dr, c, "client %d aborted: ROLLBACK failed: %s",
										c->id, PQresultErrorMessage(res));
					ok = false;
				}
				else
					ok = driver_client_error(dr, c, res);
				PQclear(res);
			}
			else
				ok = driver_client_result(dr, c, res);
			if (!ok)
				return;
			continue;
		}

		/* the command is complete */
		switch (c->phase)
		{
			case CLIENT_PREPARING:
				if (c->txn_failed)
				{
					driver_client_abort(dr, c, "client %d aborted: could not prepare statement %d",
										c->id, c->step.sql_index);
					return;
				}
				c->prepared[dr->sql_base[c->step.script] + c->step.sql_index] = true;
				driver_client_send(dr, c, now);
				return;

			case CLIENT_WAITING:
				if (dr->run->knobs.replay)
				{
					if (!driver_client_replayed(dr, c, now))
						return;
					break;
				}
				/* \gset's row (dropped when the transaction failed) */
				if (!driver_client_gset(dr, c))
					return;
				if (c->txn_failed)
				{
					/* roll back first, then retry or count the failure */
					if (PQtransactionStatus(c->conn) == PQTRANS_INERROR ||
						PQtransactionStatus(c->conn) == PQTRANS_INTRANS)
					{
						if (!PQsendQuery(c->conn, "ROLLBACK"))
						{
							driver_client_abort(dr, c, "client %d aborted: %s",
												c->id, PQerrorMessage(c->conn));
							return;
						}
						c->phase = CLIENT_ROLLING_BACK;
						driver_client_flush(dr, c);
						return;
					}
					driver_client_failed(dr, c, now);
				}
				else
				{
					CommandStats *cs = &dr->cmdstats[dr->cmd_base[c->step.script] + c->step.command];

					cs->executions++;
					cs->sum_usec += now - c->cmd_start;
					script_sql_done(c->sc);
				}
				c->phase = CLIENT_READY;
				break;

			case CLIENT_ROLLING_BACK:
				if (dr->run->knobs.replay)
				{
					/* the replay's failed statement left a transaction: go on */
					script_sql_done(c->sc);
					c->phase = CLIENT_READY;
					break;
				}
				driver_client_failed(dr, c, now);
				c->phase = CLIENT_READY;
				break;

			default:
				elog(ERROR, "pgbenchx client %d: result in phase %d", c->id, c->phase);
		}

		/* a stop request ends a client at its next command boundary */
		if (dr->stop_deadline != 0 && PQtransactionStatus(c->conn) == PQTRANS_IDLE)
		{
			driver_client_close(dr, c, CLIENT_DONE);
			return;
		}
		driver_client_run(dr, c, now);
		return;
	}
}

/* ---------------------------------------------------------------------
 * Connecting
 * --------------------------------------------------------------------- */

static void
driver_connect_all(DriverRun *dr)
{
	int			connecting = 0;
	StringInfoData conninfo;

	initStringInfo(&conninfo);
	dr->client_conninfo = palloc(sizeof(char *) * dr->nclients);
	/*
	 * One descriptor per client, reserved for the whole run (a -C reconnect
	 * reuses its client's) and given back by driver_close_all.  fd.c's
	 * AcquireExternalFD would cap them at a third of the descriptors the
	 * postmaster's limit left, but a driver raised its own limit for its
	 * share (driver_fd_limit; launch checked the hard one): it refuses only
	 * when that is too low, and tells fd.c of every socket with
	 * ReserveExternalFD, so that fd.c keeps its own files within the rest.
	 */
	if (driver_fd_limit >= 0 && dr->nclients + WORKER_DRIVER_SPARE_FDS > driver_fd_limit)
		loopback_too_many_files("the benchmark clients' connections");
	for (; driver_fds_reserved < dr->nclients; driver_fds_reserved++)
		ReserveExternalFD();
	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];
		char		appname[64];

		resetStringInfo(&conninfo);
		snprintf(appname, sizeof(appname), "pgbenchx client %d", c->id);
		loopback_append_param(&conninfo, "application_name", appname);
		appendStringInfo(&conninfo, " %s", dr->spec->conninfo);
		dr->client_conninfo[i] = pstrdup(conninfo.data);

		c->conn_start = GetCurrentTimestamp();
		c->conn = PQconnectStart(conninfo.data);
		if (c->conn == NULL)
			ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY),
							errmsg("out of memory opening client %d", c->id)));
		driver_conn_setup(dr, c->conn);
		c->poll = PQstatus(c->conn) == CONNECTION_BAD ?
			PGRES_POLLING_FAILED : PGRES_POLLING_WRITING;
		c->phase = CLIENT_CONNECTING;
		connecting++;
	}

	while (connecting > 0)
	{
		WaitEventSet *wes;
		WaitEvent  *events;
		int			n;

		for (int i = 0; i < dr->nclients; i++)
		{
			DriverClient *c = &dr->clients[i];

			if (c->phase == CLIENT_CONNECTING && c->poll == PGRES_POLLING_FAILED)
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("client %d could not connect: %s", c->id,
								PQerrorMessage(c->conn))));
			if (c->phase == CLIENT_CONNECTING && c->poll == PGRES_POLLING_OK)
			{
				if (dr->run->knobs.require_password && !PQconnectionUsedPassword(c->conn))
					ereport(ERROR,
							(errcode(ERRCODE_S_R_E_PROHIBITED_SQL_STATEMENT_ATTEMPTED),
							 errmsg("client %d logged in without a password", c->id),
							 errdetail("A non-superuser's clients must log in with a password.")));
				dr->me->conn_usec_total += GetCurrentTimestamp() - c->conn_start;
				if (PQsetnonblocking(c->conn, 1) != 0)
					ereport(ERROR,
							(errcode(ERRCODE_CONNECTION_FAILURE),
							 errmsg("client %d: could not set non-blocking mode: %s",
									c->id, PQerrorMessage(c->conn))));
				c->phase = CLIENT_READY;
				connecting--;
			}
		}
		if (connecting == 0)
			break;

		wes = CreateWaitEventSet(CurrentMemoryContext, connecting + 2);
		AddWaitEventToSet(wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
		AddWaitEventToSet(wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
		for (int i = 0; i < dr->nclients; i++)
		{
			DriverClient *c = &dr->clients[i];

			if (c->phase == CLIENT_CONNECTING)
				AddWaitEventToSet(wes, c->poll == PGRES_POLLING_READING ?
								  WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE,
								  PQsocket(c->conn), NULL, c);
		}
		events = palloc(sizeof(WaitEvent) * (connecting + 2));
		n = WaitEventSetWait(wes, 1000, events, connecting + 2, PG_WAIT_EXTENSION);
		for (int i = 0; i < n; i++)
		{
			if (events[i].events & WL_LATCH_SET)
				ResetLatch(MyLatch);
			else if (events[i].user_data)
			{
				DriverClient *c = (DriverClient *) events[i].user_data;

				c->poll = PQconnectPoll(c->conn);
			}
		}
		FreeWaitEventSet(wes);
		pfree(events);
		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(&dr->run->stop))
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("run stopped while its clients were connecting")));
	}
	pfree(conninfo.data);

	/* -C: the clients connect anew for each transaction */
	if (dr->run->knobs.connect_per_transaction)
		for (int i = 0; i < dr->nclients; i++)
		{
			PQfinish(dr->clients[i].conn);
			dr->clients[i].conn = NULL;
		}
}

/* ---------------------------------------------------------------------
 * The benchmark loop
 * --------------------------------------------------------------------- */

static void
driver_wait_for_go(DriverRun *dr)
{
	while (!pg_atomic_read_u32(&dr->run->go))
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 100, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(&dr->run->stop))
			return;
	}
	pg_read_barrier();
}

/* The wait set: the latch, the postmaster, and every connected client. */
static void
driver_build_wes(DriverRun *dr)
{
	if (dr->wes)
		FreeWaitEventSet(dr->wes);
	dr->wes = CreateWaitEventSet(TopMemoryContext, dr->nclients + 2);
	AddWaitEventToSet(dr->wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
	AddWaitEventToSet(dr->wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];
		int			events;

		c->wes_pos = -1;
		if (c->conn == NULL || PQsocket(c->conn) < 0)
			continue;
		if (c->phase == CLIENT_CONNECTING)
			events = c->poll == PGRES_POLLING_READING ? WL_SOCKET_READABLE : WL_SOCKET_WRITEABLE;
		else
			events = WL_SOCKET_READABLE | (c->want_write ? WL_SOCKET_WRITEABLE : 0);
		c->wes_pos = AddWaitEventToSet(dr->wes, events, PQsocket(c->conn), NULL, c);
	}
	dr->wes_dirty = false;
}

/* -C: a client's new connection made progress */
static void
driver_client_connecting(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	c->poll = PQconnectPoll(c->conn);
	if (c->poll == PGRES_POLLING_FAILED)
	{
		driver_client_abort(dr, c, "client %d aborted while establishing connection: %s",
							c->id, PQerrorMessage(c->conn));
		return;
	}
	if (c->poll != PGRES_POLLING_OK)
	{
		/* the socket may change between attempts: rebuild to be sure */
		dr->wes_dirty = true;
		return;
	}
	if (dr->run->knobs.require_password && !PQconnectionUsedPassword(c->conn))
	{
		driver_client_abort(dr, c, "client %d aborted: it logged in without a password", c->id);
		return;
	}
	dr->counts->reconnects++;
	dr->counts->reconnect_usec += now - c->conn_start;
	if (PQsetnonblocking(c->conn, 1) != 0)
	{
		driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
		return;
	}
	memset(c->prepared, 0, sizeof(bool) * Max(1, dr->nsql));
	c->phase = CLIENT_READY;
	dr->wes_dirty = true;
	driver_client_run(dr, c, now);
}

static void
driver_loop(DriverRun *dr)
{
	WaitEvent  *events;
	int			nevents = dr->nclients + 2;
	TimestampTz now = GetCurrentTimestamp();

	if (dr->run->duration > 0)
		dr->end_time = dr->run->bench_start + (int64) dr->run->duration * USECS_PER_SEC;

	dr->throttle_trigger = dr->run->bench_start;
	if (dr->run->knobs.rate > 0)
		dr->throttle_delay_usec = 1e6 / dr->run->knobs.rate * dr->run->njobs;
	driver_build_wes(dr);
	events = palloc(sizeof(WaitEvent) * nevents);

	dr->live = dr->nclients;
	for (int i = 0; i < dr->nclients; i++)
		driver_client_run(dr, &dr->clients[i], now);

	while (dr->live > 0)
	{
		TimestampTz next_wake;
		long		timeout;
		int			n;

		now = GetCurrentTimestamp();
		driver_advance_seconds(dr, now);
		if (dr->wes_dirty)
			driver_build_wes(dr);

		/* the next second boundary, the end, a sleeper or the stop grace */
		next_wake = dr->run->bench_start + (TimestampTz) (dr->cur_sec + 1) * USECS_PER_SEC;
		if (dr->end_time != 0 && dr->end_time > now && dr->end_time < next_wake)
			next_wake = dr->end_time;
		if (dr->stop_deadline != 0 && dr->stop_deadline < next_wake)
			next_wake = dr->stop_deadline;
		for (int i = 0; i < dr->nclients; i++)
			if (dr->clients[i].phase == CLIENT_SLEEPING &&
				dr->clients[i].wake_at < next_wake)
				next_wake = dr->clients[i].wake_at;
		timeout = next_wake > now ? (long) ((next_wake - now + 999) / 1000) : 0;

		n = WaitEventSetWait(dr->wes, timeout, events, nevents, PG_WAIT_EXTENSION);
		CHECK_FOR_INTERRUPTS();
		now = GetCurrentTimestamp();

		for (int i = 0; i < n; i++)
		{
			if (events[i].events & WL_LATCH_SET)
			{
				ResetLatch(MyLatch);
				if (dr->stop_deadline == 0 && pg_atomic_read_u32(&dr->run->stop))
				{
					dr->stop_deadline = now + DRIVER_STOP_GRACE_USEC;
					/* idle and sleeping clients stop now */
					for (int j = 0; j < dr->nclients; j++)
					{
						DriverClient *c = &dr->clients[j];

						if ((c->phase == CLIENT_READY || c->phase == CLIENT_SLEEPING ||
							 c->phase == CLIENT_CONNECTING) &&
							(c->conn == NULL || c->phase == CLIENT_CONNECTING ||
							 PQtransactionStatus(c->conn) == PQTRANS_IDLE))
							driver_client_close(dr, c, CLIENT_DONE);
					}
				}
			}
			else if (events[i].user_data)
			{
				DriverClient *c = (DriverClient *) events[i].user_data;

				if (c->phase == CLIENT_CONNECTING)
					driver_client_connecting(dr, c, now);
				else if (c->phase == CLIENT_WAITING || c->phase == CLIENT_PREPARING ||
						 c->phase == CLIENT_ROLLING_BACK || c->phase == CLIENT_PIPELINE_END)
					driver_client_io(dr, c, now);
				else if (c->conn && (events[i].events & WL_SOCKET_READABLE))
				{
					/* unexpected input, e.g. the server closing the connection */
					if (!PQconsumeInput(c->conn))
						driver_client_abort(dr, c, "client %d aborted: %s", c->id,
											PQerrorMessage(c->conn));
				}
			}
		}

		/* sleepers whose time has come; clients that reached the end */
		for (int i = 0; i < dr->nclients; i++)
		{
			DriverClient *c = &dr->clients[i];

			if (c->phase == CLIENT_SLEEPING && c->wake_at <= now)
			{
				if (c->yielded)
					c->yielded = false;
				else if (!c->throttled)
				{
					/* a \sleep: timed like any command (-r) */
					CommandStats *cs = &dr->cmdstats[dr->cmd_base[c->step.script] + c->step.command];

					cs->executions++;
					cs->sum_usec += now - c->cmd_start;
				}
				c->phase = CLIENT_READY;
				driver_client_run(dr, c, now);
			}
		}

		/* past the stop grace: whatever is still in flight is dropped */
		if (dr->stop_deadline != 0 && now >= dr->stop_deadline)
		{
			for (int i = 0; i < dr->nclients; i++)
			{
				DriverClient *c = &dr->clients[i];

				if (c->phase != CLIENT_DONE && c->phase != CLIENT_ABORTED)
				{
					driver_cancel_query(c->conn);
					driver_client_close(dr, c, CLIENT_DONE);
				}
			}
		}
	}

	dr->me->bench_end_usec = GetCurrentTimestamp() - dr->run->bench_start;
	driver_publish_final(dr);
	pfree(events);
}

/* ---------------------------------------------------------------------
 * Entry point
 * --------------------------------------------------------------------- */

static void
driver_set_state(DriverRun *dr, DriverState state)
{
	pg_write_barrier();
	pg_atomic_write_u32(&dr->me->state, state);
	SetLatch(&ProcGlobal->allProcs[dr->run->coordinator_procno].procLatch);
}

/*
 * run_replay with shuffle: the client runs the statements in an order of its
 * own (a Fisher-Yates shuffle seeded by the run's seed and the client), from
 * a private copy of the script; cmd_map keeps each command's original
 * position for the per-statement figures.
 */
static ScriptClient *
driver_shuffled_client(DriverRun *dr, DriverClient *c, const ScriptClientOptions *opts,
					   ScriptError *err)
{
	const Script *orig = dr->scripts[0];
	int			n = script_command_count(orig);
	StringInfoData text;
	prng_state	rs;
	Script	   *mine;

	c->cmd_map = palloc(sizeof(int) * Max(n, 1));
	for (int i = 0; i < n; i++)
		c->cmd_map[i] = i;
	prng_seed(&rs, dr->spec->random_seed ^ ((uint64) (c->id + 1) * UINT64CONST(0x9E3779B97F4A7C15)));
	for (int i = n - 1; i > 0; i--)
	{
		int			j = (int) prng_uint64_range(&rs, 0, i);
		int			t = c->cmd_map[i];

		c->cmd_map[i] = c->cmd_map[j];
		c->cmd_map[j] = t;
	}
	initStringInfo(&text);
	for (int i = 0; i < n; i++)
		appendStringInfo(&text, "%s\n", script_command_text(orig, c->cmd_map[i]));
	mine = script_parse(script_name(orig), text.data, err);
	if (mine == NULL)
		return NULL;
	if (script_command_count(mine) != n)
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("client %d: the shuffled replay has %d statements, not %d",
						c->id, script_command_count(mine), n)));
	return script_client_create(mine, opts, err);
}

static void
driver_setup_clients(DriverRun *dr)
{
	ScriptError err;
	int64		default_seed;
	RunMix	   *pl = &dr->payload;

	dr->nsql = 0;
	for (int k = 0, ncmd = 0; k < pl->nscripts; k++)
	{
		Script	   *script = script_parse(pl->names[k], pl->texts[k], &err);

		if (script == NULL)
		{
			char		msg[RUN_ERROR_LEN];

			script_error_format(&err, msg, sizeof(msg));
			ereport(ERROR, (errcode(ERRCODE_SYNTAX_ERROR), errmsg("%s", msg)));
		}
		dr->scripts[k] = script;
		dr->cmd_base[k] = ncmd;
		dr->sql_base[k] = dr->nsql;
		ncmd += dr->spec->script_commands[k];
		dr->nsql += script_sql_count(script);
	}
	/* pgbench's names, P_<script>_<statement>, formatted once */
	dr->prep_names = palloc(sizeof(*dr->prep_names) * Max(1, dr->nsql));
	for (int k = 0; k < pl->nscripts; k++)
		for (int j = 0; j < script_sql_count(dr->scripts[k]); j++)
			snprintf(dr->prep_names[dr->sql_base[k] + j], sizeof(*dr->prep_names),
					 "%s%d_%d", driver_prepared_names_prefix, k, j);
	dr->nclients = dr->me->nclients;
	dr->clients = palloc0(sizeof(DriverClient) * dr->nclients);
	default_seed = script_seed_default_seed(dr->spec->random_seed, dr->run->nclients);

	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];
		ScriptClientOptions opts;

		memset(&opts, 0, sizeof(opts));
		c->id = dr->me->first_client + i;
		c->wes_pos = -1;
		opts.query_mode = (ScriptQueryMode) dr->run->protocol;
		opts.client_id = c->id;
		opts.scale = dr->spec->scale_detected;
		opts.random_seed = dr->spec->random_seed;
		opts.default_seed = default_seed;
		script_seed_client(dr->spec->random_seed, c->id, &opts.prng);
		opts.defines = pl->defines;
		opts.ndefines = pl->ndefines;
		/* the values stay in the run's segment: held once, not per client */
		opts.share_defines = true;
		if (dr->run->knobs.shuffle && pl->nscripts == 1)
			c->sc = driver_shuffled_client(dr, c, &opts, &err);
		else
			c->sc = script_client_create_multi(dr->scripts, pl->nscripts, &opts, &err);
		if (c->sc == NULL)
		{
			char		msg[RUN_ERROR_LEN];

			script_error_format(&err, msg, sizeof(msg));
			ereport(ERROR, (errcode(ERRCODE_SYNTAX_ERROR), errmsg("%s", msg)));
		}
		c->prepared = palloc0(sizeof(bool) * Max(1, dr->nsql));
	}
}

/*
 * Attach: find the step's header, the run's spec and our CommandStats in
 * the segment (run_spec.h), and read the script mix back once.
 */
static void
driver_attach(DriverRun *dr, dsm_segment *seg)
{
	shm_toc    *toc = shm_toc_attach(RUN_SPEC_STEP_MAGIC, dsm_segment_address(seg));
	const char *payload;

	if (toc == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("pgbenchx driver found bad shared memory")));
	dr->run = shm_toc_lookup(toc, RUN_SPEC_KEY_SHARED, false);
	dr->spec = run_spec_find(toc, &payload);
	if (dr->index < 0 || dr->index >= dr->run->njobs)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("pgbenchx driver found bad shared memory")));
	dr->me = &dr->run->drivers[dr->index];
	dr->me->procno = MyProc->pgprocno;
	dr->counts = &dr->me->counts;
	dr->cmdstats = (CommandStats *) shm_toc_lookup(toc, RUN_SPEC_KEY_CMDSTATS, false) +
		dr->index * dr->spec->ncommands;
	run_spec_mix(dr->spec, payload, &dr->payload);
}

void
driver_main(Datum main_arg)
{
	dsm_segment *seg;
	DriverRun	dr;
	struct rusage ru;
	MemoryContext run_cxt;

	pqsignal(SIGTERM, die);
	BackgroundWorkerUnblockSignals();
	/* no database: only an entry in pg_stat_activity under our backend type */
	BackgroundWorkerInitializeConnection(NULL, NULL, 0);

	memset(&dr, 0, sizeof(dr));
	memcpy(&dr.index, MyBgworkerEntry->bgw_extra, sizeof(int));

	/*
	 * Everything of the run (the parsed scripts, the clients and their
	 * buffers, which the language core grows in the current context) lives
	 * in one context, deleted when the run is over.
	 */
	run_cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchx driver run",
									ALLOCSET_DEFAULT_SIZES);
	MemoryContextSwitchTo(run_cxt);

	seg = dsm_attach(DatumGetUInt32(main_arg));
	if (seg == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("pgbenchx driver could not attach to its run's shared memory")));
	driver_attach(&dr, seg);
	/* one socket per client: raise the soft open file limit (launch checked the hard one) */
	driver_fd_limit = worker_raise_nofile((long) dr.me->nclients + WORKER_DRIVER_SPARE_FDS);
	{
		prng_state	sample;

		/* pgbench's per-thread random states, in its order */
		script_seed_thread(dr.spec->random_seed, dr.run->nclients, true, dr.index,
						   &dr.choose_rs, &dr.throttle_rs, &sample);
	}

	driver_current = &dr;
	before_shmem_exit(driver_on_exit, (Datum) 0);

	PG_TRY();
	{
		driver_set_state(&dr, DRIVER_CONNECTING);
		driver_setup_clients(&dr);
		pgstat_report_activity(STATE_RUNNING, "connecting");
		driver_connect_all(&dr);
		driver_set_state(&dr, DRIVER_READY);
		driver_wait_for_go(&dr);
		if (!pg_atomic_read_u32(&dr.run->stop))
		{
			driver_set_state(&dr, DRIVER_RUNNING);
			pgstat_report_activity(STATE_RUNNING, "benchmarking");
			driver_loop(&dr);
		}
		else
			driver_close_all(&dr);
	}
	PG_CATCH();
	{
		ErrorData  *edata;
		MemoryContext oldcxt = MemoryContextSwitchTo(TopMemoryContext);

		edata = CopyErrorData();
		MemoryContextSwitchTo(oldcxt);
		strlcpy(dr.me->error, edata->message, RUN_ERROR_LEN);
		driver_close_all(&dr);
		driver_set_state(&dr, DRIVER_FAILED);
		PG_RE_THROW();
	}
	PG_END_TRY();

	getrusage(RUSAGE_SELF, &ru);
	dr.me->cpu_seconds = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
		ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	if (dr.first_error[0] != '\0')
		strlcpy(dr.me->error, dr.first_error, RUN_ERROR_LEN);
	driver_set_state(&dr, DRIVER_DONE);
	driver_close_all(&dr);
	driver_current = NULL;
	MemoryContextSwitchTo(TopMemoryContext);
	MemoryContextDelete(run_cxt);
	dsm_detach(seg);
	proc_exit(0);
}
