/*-------------------------------------------------------------------------
 *
 * driver.c
 *	  A driver background worker: pgbench's thread.  It opens its share of a
 *	  run's client connections back to the server and drives them all
 *	  asynchronously through the script, recording every transaction's
 *	  latency into the per-second statistics of the run's DSM segment.
 *
 * Each client is an explicit state machine over a non-blocking libpq
 * connection: one ClientPhase, advanced by driver_client_advance() (one
 * switch, as pgbench's advanceConnectionState); one WaitEventSet holds the
 * latch, the postmaster and every client socket.  The driver never blocks
 * inside libpq (its cancels go through cancel.c, with a deadline), never
 * allocates per transaction (the script module reuses each client's
 * buffers), never holds a whole result (rows are read and dropped one at a
 * time, see driver_stream_results), and is
 * connected to no database (it initializes without one only to show up in
 * pg_stat_activity as a "pgbenchx driver").
 *
 * This file must not know the SQL of the results: it only publishes into
 * the DSM layout of run_shmem.h, and each client's backend pid (after each
 * connect, 0 after each disconnect) into the step's array of them
 * (run_spec.h) for the coordinator's wait sampler.
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

#include "conninfo.h"
#include "cancel.h"
#include "driver.h"
#include "loopback.h"
#include "pg_compat.h"
#include "pqconn.h"
#include "prng.h"
#include "run_shmem.h"
#include "run_spec.h"
#include "script.h"
#include "script_sql.h"
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

/*
 * A client's phase: where it stands in its transaction, hence what it waits
 * for.  driver_client_advance() is the one function that moves a client from
 * phase to phase (see the diagram above it); the wait loop only feeds it
 * socket input and the clock.  The names follow pgbench's CState.
 */
typedef enum ClientPhase
{
	CLIENT_CONNECTING,			/* connection in progress (-C: a new one) */
	CLIENT_CHOOSE_SCRIPT,		/* at a transaction boundary: end, or pick a
								 * script */
	CLIENT_PREPARE_THROTTLE,	/* -R: draw the transaction's schedule */
	CLIENT_THROTTLE,			/* -R: wait until txn_scheduled (wake_at) */
	CLIENT_START_TX,			/* (-C: connect,) start the latency clock */
	CLIENT_START_COMMAND,		/* step the script to its next command */
	CLIENT_WAIT_PREPARE,		/* PQsendPrepare's result */
	CLIENT_WAIT_RESULT,			/* the results of the command in flight */
	CLIENT_WAIT_PIPELINE,		/* \endpipeline: results up to the syncs */
	CLIENT_SLEEP,				/* \sleep until wake_at */
	CLIENT_END_COMMAND,			/* the command ended: \gset, timing */
	CLIENT_ERROR,				/* a serialization or deadlock failure */
	CLIENT_WAIT_ROLLBACK,		/* the ROLLBACK after a failure */
	CLIENT_RETRY,				/* retry the failed transaction, or fail it */
	CLIENT_END_TX,				/* the transaction ended: count it */
	CLIENT_YIELD,				/* many transactions without a wait: let the
								 * wait loop run once (wake_at) */
	CLIENT_DONE,
	CLIENT_ABORTED
} ClientPhase;

/* pgbench's EStatus: how the transaction in progress failed, if it did */
typedef enum ClientFailure
{
	CLIENT_FAILURE_NONE = 0,
	CLIENT_FAILURE_SERIALIZATION,	/* 40001 */
	CLIENT_FAILURE_DEADLOCK,	/* 40P01 */
	CLIENT_FAILURE_STATEMENT,	/* replay: the statement failed, go on */
	CLIENT_FAILURE_OTHER		/* continue_on_error: another SQL error,
								 * never retried */
} ClientFailure;

typedef struct DriverClient
{
	int			id;				/* global client number, :client_id */
	PGconn	   *conn;
	ClientPhase phase;
	ClientFailure failure;
	PostgresPollingStatusType poll;
	int			wes_pos;		/* position in the wait event set */
	bool		want_write;		/* output still to flush */
	ScriptClient *sc;
	ScriptStep	step;			/* the command being prepared or run */
	bool	   *prepared;		/* per SQL statement, prepared mode */
	int		   *cmd_map;		/* replay shuffle: own command -> original */
	PGresult   *gset_res;		/* \gset: the last result of the command, or
								 * the last row of its last query */
	int64		gset_rows;		/* \gset: rows of the command's last query */
	PGresult   *row_res;		/* \gset, \aset: the last row of the query
								 * being read (single-row mode) */
	int64		rows;			/* rows of the query being read */
	TimestampTz txn_start;		/* latency counts from here (-R: the schedule) */
	int			tries;			/* of the transaction in progress */
	TimestampTz txn_scheduled;	/* -R */
	TimestampTz cmd_start;		/* the command in flight (-r) */
	int			syncs_pending;	/* pipeline syncs sent, not yet collected */
	int			syncs_read;		/* \endpipeline: sync results read since the
								 * end of the last query's results */
	int			pipe_prep_cmd;	/* \startpipeline, prepared mode: the next
								 * command to prepare before entering the
								 * pipeline; -1 when not doing that */
	int			pipe_prep_sql;	/* its statement, while WAIT_PREPARE */
	TimestampTz conn_start;
	TimestampTz wake_at;		/* THROTTLE, SLEEP, YIELD */
	int64		ntx;			/* transactions ended (ok, failed or skipped) */
	int64		lag_usec;		/* -R: the transaction's schedule lag; -1 without */
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
	pg_atomic_uint32 *client_pids;	/* every client's backend pid, by id */
	/* -R: pgbench's per-thread schedule */
	prng_state	throttle_rs;
	double		throttle_delay_usec;
	TimestampTz throttle_trigger;
	char		first_error[RUN_ERROR_LEN];
	/* log_transactions: our ring in the segment, and the sampling's draws */
	TxLogRing  *txlog;
	prng_state	txlog_rs;
	/* client_messages: our ring in the segment */
	MsgRing    *msgs;
} DriverRun;

static const char *const driver_prepared_names_prefix = "P_";

/* the run being driven, for the exit callback */
static DriverRun *driver_current = NULL;

/* descriptors reserved for the clients' connections (ReserveExternalFD) */
static int	driver_fds_reserved = 0;
/* the soft RLIMIT_NOFILE after raising it for our share; -1 if unlimited */
static long driver_fd_limit = -1;

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

/*
 * log_transactions: one record into our ring (run_shmem.h's protocol),
 * never waiting for its reader; with a sampling rate below 1, only that
 * share of the transactions, drawn as pgbench draws its sample.
 */
static void
driver_log_transaction(DriverRun *dr, DriverClient *c, TimestampTz now,
					   int64 latency, TxLogStatus status)
{
	TxLogRing  *ring = dr->txlog;
	uint64		n;
	TxLogRecord *r;

	if (ring == NULL)
		return;
	if (dr->run->knobs.sampling_rate < 1 &&
		prng_double(&dr->txlog_rs) >= dr->run->knobs.sampling_rate)
		return;
	n = pg_atomic_read_u64(&ring->written);
	r = &ring->records[n % RUN_TXLOG_RING];
	r->end_usec = now + (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY * USECS_PER_SEC;
	r->latency_usec = latency;
	r->lag_usec = c->lag_usec;
	r->transaction_no = c->ntx;
	r->client = c->id;
	r->retries = Max(c->tries - 1, 0);
	r->script = (int16) Max(script_client_selected(c->sc), 0);
	r->status = (int16) status;
	pg_write_barrier();
	pg_atomic_write_u64(&ring->written, n + 1);
	/* published before the next record reuses a slot: the reader detects it */
	pg_write_barrier();
}

/* The per-script counts of the client's chosen script (pgbench's per-script block). */
static inline ScriptCounts *
driver_script_counts(DriverRun *dr, DriverClient *c)
{
	int			k = script_client_selected(c->sc);

	return &dr->me->script_counts[k >= 0 && k < SCRIPT_MAX_SCRIPTS ? k : 0];
}

static void
driver_transaction_ended(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	int64		latency = now - c->txn_start;
	ScriptCounts *sc = driver_script_counts(dr, c);

	driver_advance_seconds(dr, now);
	driver_log_transaction(dr, c, now, Max(latency, 0),
						   c->failure == CLIENT_FAILURE_NONE ? TXLOG_OK :
						   c->failure == CLIENT_FAILURE_DEADLOCK ? TXLOG_DEADLOCK :
						   c->failure == CLIENT_FAILURE_SERIALIZATION ? TXLOG_SERIALIZATION :
						   c->failure == CLIENT_FAILURE_OTHER ? TXLOG_OTHER :
						   TXLOG_FAILED);
	if (c->failure != CLIENT_FAILURE_NONE)
	{
		sc->failed++;
		stats_second_record_failed(driver_slot(dr));
		if (c->failure == CLIENT_FAILURE_DEADLOCK)
		{
			dr->counts->deadlock_failures++;
			sc->deadlock_failures++;
		}
		else if (c->failure == CLIENT_FAILURE_SERIALIZATION)
		{
			dr->counts->serialization_failures++;
			sc->serialization_failures++;
		}
		/* an other failure is failed, less the two kinds */
	}
	else
	{
		stats_second_record_ok(driver_slot(dr), (uint64) Max(latency, 0));
		sc->transactions++;
		sc->latency_sum_usec += (double) Max(latency, 0);
		sc->latency_sum2_usec += (double) Max(latency, 0) * (double) Max(latency, 0);
		if (dr->run->knobs.latency_limit_usec > 0 &&
			latency > dr->run->knobs.latency_limit_usec)
			dr->counts->late++;
	}
	if (c->tries > 1)
	{
		dr->counts->retried++;
		dr->counts->retries += c->tries - 1;
		sc->retried++;
		sc->retries += c->tries - 1;
		driver_slot(dr)->retried++;
		driver_slot(dr)->retries += c->tries - 1;
	}
	c->tries = 0;
	pg_atomic_write_u64(&dr->me->transactions,
						pg_atomic_read_u64(&dr->me->transactions) + 1);
	c->ntx++;
	c->failure = CLIENT_FAILURE_NONE;
}

/* The statistics of the client's current command (-r, failures, retries). */
static inline CommandStats *
driver_command_stats(DriverRun *dr, DriverClient *c)
{
	int			cmd = c->cmd_map ? c->cmd_map[c->step.command] : c->step.command;

	return &dr->cmdstats[dr->cmd_base[c->step.script] + cmd];
}

/* The client's current command ended now: count it and its time (-r). */
static inline int64
driver_command_timed(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	CommandStats *cs = driver_command_stats(dr, c);
	int64		elapsed = now - c->cmd_start;

	cs->executions++;
	cs->sum_usec += elapsed;
	return elapsed;
}

/* ---------------------------------------------------------------------
 * Client life
 * --------------------------------------------------------------------- */

/*
 * Publish a client's backend pid (0: none) for the coordinator's wait
 * sampler (run_spec.h), after each connect and at each disconnect.
 */
static void
driver_publish_pid(DriverRun *dr, DriverClient *c)
{
	if (dr->client_pids == NULL)
		return;
	pg_write_barrier();
	pg_atomic_write_u32(&dr->client_pids[c->id - dr->run->first_client],
						c->conn ? (uint32) PQbackendPID(c->conn) : 0);
}

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
	driver_publish_pid(dr, c);
	c->want_write = false;
	if (dr->run->knobs.connect_per_transaction)
		dr->wes_dirty = true;
}

/* Drop the row of the query being read, if any. */
static inline void
driver_client_drop_row(DriverClient *c)
{
	if (c->row_res)
		PQclear(c->row_res);
	c->row_res = NULL;
	c->rows = 0;
}

/* Drop the \gset result kept for the end of the command, if any. */
static inline void
driver_client_drop_gset(DriverClient *c)
{
	driver_client_drop_row(c);
	if (c->gset_res)
		PQclear(c->gset_res);
	c->gset_res = NULL;
	c->gset_rows = 0;
}

static void
driver_client_close(DriverRun *dr, DriverClient *c, ClientPhase phase)
{
	driver_client_drop_gset(c);
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

/*
 * client_messages: one message into our ring (run_shmem.h's protocol, as
 * the per-transaction log's), never waiting for its reader: what pgbench's
 * client would print on stderr, cut to the ring's slot.
 */
static void
driver_message(DriverRun *dr, int client, MsgKind kind, const char *text)
{
	MsgRing    *ring = dr->msgs;
	uint64		n;
	MsgRecord  *r;

	if (ring == NULL)
		return;
	n = pg_atomic_read_u64(&ring->written);
	r = &ring->records[n % RUN_MSG_RING];
	r->client = client;
	r->kind = (int16) kind;
	driver_clip(r->text, text, RUN_MSG_LEN - 4);
	pg_write_barrier();
	pg_atomic_write_u64(&ring->written, n + 1);
	pg_write_barrier();
}

static void driver_messagef(DriverRun *dr, int client, MsgKind kind, const char *fmt,...) pg_attribute_printf(4, 5);

static void
driver_messagef(DriverRun *dr, int client, MsgKind kind, const char *fmt,...)
{
	char		text[RUN_MSG_LEN];
	va_list		ap;

	if (dr->msgs == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	driver_message(dr, client, kind, text);
}

/*
 * exit_on_abort (pgbench's --exit-on-abort): a client aborted, so every
 * driver of the run stops, as the coordinator's stop asks them (run->stop,
 * their latches); the run ends failed, with what it measured so far
 */
static void
driver_stop_all(DriverRun *dr)
{
	if (pg_atomic_exchange_u32(&dr->run->stop, 1) != 0)
		return;
	for (int i = 0; i < dr->run->njobs; i++)
	{
		int			procno = dr->run->drivers[i].procno;

		if (procno >= 0)
			SetLatch(&ProcGlobal->allProcs[procno].procLatch);
	}
}

/*
 * debug(): pgbench's line on stderr, "debug(script=S,command=N): TYPE VALUE",
 * into our ring
 */
static void
driver_debug(void *arg, int script_index, int command_index, const ExprValue *value)
{
	DriverClient *c = arg;
	char		buf[64];

	if (driver_current == NULL)
		return;
	if (value->type == EXPR_VAL_NULL)
		strlcpy(buf, "null", sizeof(buf));
	else if (value->type == EXPR_VAL_BOOL)
		snprintf(buf, sizeof(buf), "boolean %s", value->u.bval ? "true" : "false");
	else if (value->type == EXPR_VAL_INT)
		snprintf(buf, sizeof(buf), "int " INT64_FORMAT, (int64) value->u.ival);
	else
	{
		char		num[48];

		expr_value_format(value, num, sizeof(num));
		snprintf(buf, sizeof(buf), "double %s", num);
	}
	driver_messagef(driver_current, c->id, MSG_DEBUG, "debug(script=%d,command=%d): %s",
					script_index, command_index + 1, buf);
}

/*
 * pgbench's abort: the client stops, the run will end as failed.  The
 * message goes to the server's log and the run's row, and, unless the
 * caller wrote pgbench's own lines for it (tell_client false), to the
 * clients' messages.
 */
static void driver_client_abort_v(DriverRun *dr, DriverClient *c, bool tell_client,
								  const char *fmt, va_list ap) pg_attribute_printf(4, 0);

static void
driver_client_abort_v(DriverRun *dr, DriverClient *c, bool tell_client, const char *fmt, va_list ap)
{
	char		full[RUN_ERROR_LEN];
	char		msg[DRIVER_MESSAGE_MAX + 4];
	int			len;

	vsnprintf(full, sizeof(full), fmt, ap);
	len = strlen(full);
	while (len > 0 && full[len - 1] == '\n')
		full[--len] = '\0';
	if (tell_client)
		driver_message(dr, c->id, MSG_ERROR, full);
	driver_clip(msg, full, DRIVER_MESSAGE_MAX);

	if (dr->first_error[0] == '\0')
		strlcpy(dr->first_error, msg, sizeof(dr->first_error));
	ereport(LOG, (errmsg("pgbenchx %s", msg)));
	dr->me->aborted_clients++;
	driver_client_close(dr, c, CLIENT_ABORTED);
	if (dr->run->knobs.exit_on_abort)
		driver_stop_all(dr);
}

static void
driver_client_abort(DriverRun *dr, DriverClient *c, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	driver_client_abort_v(dr, c, true, fmt, ap);
	va_end(ap);
}

static void
driver_client_abort_told(DriverRun *dr, DriverClient *c, const char *fmt,...) pg_attribute_printf(3, 4);

/* the same, when the clients' messages have had pgbench's lines already */
static void
driver_client_abort_told(DriverRun *dr, DriverClient *c, const char *fmt,...)
{
	va_list		ap;

	va_start(ap, fmt);
	driver_client_abort_v(dr, c, false, fmt, ap);
	va_end(ap);
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
	/* as libpq's default receiver prints it for pgbench's clients */
	if (dr->msgs != NULL)
		driver_message(dr, -1, MSG_NOTICE, PQresultErrorMessage(res));
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

/* Whether conn has a query in flight that a cancel would end. */
static bool
driver_query_in_flight(PGconn *conn)
{
	return conn != NULL && PQstatus(conn) == CONNECTION_OK &&
		PQtransactionStatus(conn) == PQTRANS_ACTIVE;
}

/*
 * Have the server cancel the query in flight on conn: a non-blocking
 * CancelRequest with a deadline (cancel.c), used only on the way out of a
 * client (a COPY).  A server that does not answer in time is not waited
 * for: the caller closes the connection, which ends the query as well.
 */
static void
driver_cancel_query(PGconn *conn)
{
	if (driver_query_in_flight(conn))
		(void) cancel_send(&conn, 1, CANCEL_DEADLINE_MS);
}

/*
 * Cancel the queries in flight on the clients that match (all of them
 * when only_live is false, else those not done or aborted), all at once and
 * within one deadline (cancel.c), so that a driver with many clients behind
 * an endpoint that never answers a cancel still exits within seconds.
 */
static void
driver_cancel_clients(DriverRun *dr, bool only_live)
{
	PGconn	  **conns = palloc(sizeof(PGconn *) * Max(1, dr->nclients));
	int			n = 0;

	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];

		if (only_live && (c->phase == CLIENT_DONE || c->phase == CLIENT_ABORTED))
			continue;
		if (driver_query_in_flight(c->conn))
			conns[n++] = c->conn;
	}
	if (n > 0)
		(void) cancel_send(conns, n, CANCEL_DEADLINE_MS);
	pfree(conns);
}

/*
 * Close every client connection, cancelling the queries still running so
 * that no backend goes on working (or waiting on a lock) for a driver that
 * is gone; a cancel that cannot be delivered within its deadline is given
 * up, and the connection closed all the same.  Nothing is drained.  Used
 * when the driver fails and when it exits on a FATAL (pg_terminate_backend,
 * shutdown, the coordinator's terminate).
 */
static void
driver_close_all(DriverRun *dr)
{
	if (dr == NULL || dr->clients == NULL)
		return;
	driver_cancel_clients(dr, false);
	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];

		if (c->conn == NULL)
			continue;
		PQfinish(c->conn);
		c->conn = NULL;
		driver_publish_pid(dr, c);
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
 * Have the results of the query libpq reads next come row by row (each row
 * its own PGRES_SINGLE_TUPLE result, then a zero-row PGRES_TUPLES_OK), so
 * that no client ever holds a whole result: a backend streams any result
 * without holding it, and a driver of many clients must not buffer theirs.
 * Called right after each query is sent outside a pipeline, and inside one
 * before each read (libpq applies it to the query at the head of its queue,
 * and only before any of that query's result is parsed; otherwise it is a
 * no-op).  The one place to change for libpq 17's PQsetChunkedRowsMode.
 */
static inline void
driver_stream_results(PGconn *conn)
{
	(void) PQsetSingleRowMode(conn);
}

/*
 * \syncpipeline: a sync queued without a flush (libpq 17's
 * PQsendPipelineSync, what pgbench 17 calls).  The language refuses
 * \syncpipeline before pgbench 17, so the libpq a server of 15 or 16 links
 * never gets here; should it, PQpipelineSync also flushes, which changes no
 * result.
 */
static inline int
driver_send_pipeline_sync(PGconn *conn)
{
#ifdef LIBPQ_HAS_SEND_PIPELINE_SYNC
	return PQsendPipelineSync(conn);
#else
	return PQpipelineSync(conn);
#endif
}

/*
 * Drop the notifications (LISTEN) the client received: libpq queues every
 * one until PQnotifies takes it, and pgbench never looks at them, so a
 * script notifying itself, or another session notifying a channel the
 * script listens on, would grow the driver without limit.  PQnotifies parses
 * what input there is: called only where that cannot start parsing a query's
 * result before driver_stream_results (no query in flight, or the read loop
 * for the query in flight has just left off).
 */
static inline void
driver_client_drop_notifies(DriverClient *c)
{
	PGnotify   *n;

	while ((n = PQnotifies(c->conn)) != NULL)
		PQfreemem(n);
}

/*
 * Whether the server answered a command with COPY (res is then cleared):
 * pgbench aborts the client.  A COPY FROM STDIN is ended with our message as
 * its error; a COPY TO STDOUT (or BOTH) may send without end, so it is not
 * drained: its query is cancelled and the connection closed.  PQgetResult
 * would return the COPY result again and again: the client must not read on.
 */
static bool
driver_client_copy(DriverRun *dr, DriverClient *c, PGresult *res)
{
	ExecStatusType st = PQresultStatus(res);

	if (st != PGRES_COPY_IN && st != PGRES_COPY_OUT && st != PGRES_COPY_BOTH)
		return false;
	PQclear(res);
	if (st == PGRES_COPY_IN)
	{
		if (PQputCopyEnd(c->conn, DRIVER_COPY_MESSAGE) == 1)
			(void) PQflush(c->conn);
	}
	else
		driver_cancel_query(c->conn);
	driver_client_abort(dr, c, "client %d script %d aborted in command %d query 0: %s",
						c->id, c->step.script, c->step.command, DRIVER_COPY_MESSAGE);
	return true;
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

/* ---------------------------------------------------------------------
 * The client's state machine
 * --------------------------------------------------------------------- */

/* pgbench's commandFailed: a command of the script could not be run */
static void
driver_client_command_failed(DriverRun *dr, DriverClient *c, const char *cmd,
							 const char *message)
{
	if (cmd != NULL && cmd[0] != '\0')
		driver_client_abort(dr, c, "client %d aborted in command %d (%s) of script %d; %s",
							c->id, c->step.command, cmd, c->step.script, message);
	else
		driver_client_abort(dr, c, "client %d aborted in command %d of script %d; %s",
							c->id, c->step.command, c->step.script, message);
}

/*
 * Whether the client's input is left unread for now: a \sleep inside a
 * pipeline, whose queries' results may already be coming.  libpq would keep
 * all that arrives until the pipeline is read (a whole result, or several);
 * like pgbench, which does not look at a sleeping client's socket, the
 * driver lets the server wait instead, and reads on after the sleep.
 */
static inline bool
driver_client_holds_input(const DriverClient *c)
{
	return c->phase == CLIENT_SLEEP && script_client_in_pipeline(c->sc);
}

/* The socket events the client waits for (0: none) */
static inline int
driver_client_events(const DriverClient *c)
{
	return (driver_client_holds_input(c) ? 0 : WL_SOCKET_READABLE) |
		(c->want_write ? WL_SOCKET_WRITEABLE : 0);
}

/* Flush the client's output; false if the client was aborted. */
static bool
driver_client_flush(DriverRun *dr, DriverClient *c)
{
	int			rc = PQflush(c->conn);
	bool		want = (rc == 1);

	if (rc < 0)
	{
		driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
		return false;
	}
	if (want != c->want_write)
	{
		c->want_write = want;
		if (c->wes_pos >= 0 && driver_client_events(c) != 0)
			ModifyWaitEvent(dr->wes, c->wes_pos, driver_client_events(c), NULL);
		else
			dr->wes_dirty = true;
	}
	return true;
}

/* libpq refused to queue an SQL command or PREPARE: the client is aborted */
static void
driver_client_send_failed(DriverRun *dr, DriverClient *c)
{
	char		msg[DRIVER_MESSAGE_MAX];

	snprintf(msg, sizeof(msg), "SQL command send failed: %s", PQerrorMessage(c->conn));
	driver_client_command_failed(dr, c, "SQL", msg);
}

/*
 * Send the SQL command of c->step.  The next phase: WAIT_RESULT, or
 * WAIT_PREPARE for a statement to prepare first (prepared mode), or still
 * START_COMMAND inside a pipeline (its results are collected at
 * \endpipeline).  False if the client was aborted.
 */
static bool
driver_client_send(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	const ScriptStep *s = &c->step;
	bool		in_pipeline = script_client_in_pipeline(c->sc);
	int			ok;

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
			{
				int			k = dr->sql_base[s->script] + s->sql_index;
				const char *name = dr->prep_names[k];

				/*
				 * A pipeline's statements were all prepared before it was
				 * entered (driver_client_pipeline_prepare).
				 */
				if (!c->prepared[k] && !in_pipeline)
				{
					ok = PQsendPrepare(c->conn, name, s->sql, s->nparams, NULL);
					if (ok)
					{
						/* wait for the statement, then send it again */
						c->phase = CLIENT_WAIT_PREPARE;
						return driver_client_flush(dr, c);
					}
				}
				else
					ok = PQsendQueryPrepared(c->conn, name, s->nparams,
											 (const char *const *) s->params, NULL, NULL, 0);
			}
			break;
	}
	if (!ok)
	{
		driver_client_send_failed(dr, c);
		return false;
	}
	/* in a pipeline, each query is set to stream when its results come */
	if (!in_pipeline)
		driver_stream_results(c->conn);
	if (!driver_client_flush(dr, c))
		return false;
	if (in_pipeline)
		script_sql_done(c->sc);
	else
		c->phase = CLIENT_WAIT_RESULT;
	return true;
}

/*
 * Roll back the transaction a failure left open; the client waits for it in
 * WAIT_ROLLBACK.  False if the client was aborted.
 */
static bool
driver_client_rollback(DriverRun *dr, DriverClient *c)
{
	if (!PQsendQuery(c->conn, "ROLLBACK"))
	{
		driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
		return false;
	}
	c->phase = CLIENT_WAIT_ROLLBACK;
	return driver_client_flush(dr, c);
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
		driver_script_counts(dr, c)->skipped++;
		driver_slot(dr)->skipped++;
		c->lag_usec = now - c->txn_scheduled;
		driver_log_transaction(dr, c, now, 0, TXLOG_SKIPPED);
		c->ntx++;
		if (dr->run->transactions > 0 && c->ntx >= dr->run->transactions)
			return false;
		dr->throttle_trigger += driver_poisson_usec(&dr->throttle_rs, dr->throttle_delay_usec);
		c->txn_scheduled = dr->throttle_trigger;
	}
	return dr->end_time == 0 || c->txn_scheduled < dr->end_time;
}

/* -C: open a new connection for the transaction; false if aborted */
static bool
driver_client_reconnect(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	c->conn_start = now;
	c->conn = PQconnectStart(dr->client_conninfo[c - dr->clients]);
	driver_conn_setup(dr, c->conn);
	if (c->conn == NULL || PQstatus(c->conn) == CONNECTION_BAD)
	{
		driver_client_abort(dr, c, "client %d aborted while establishing connection%s%s",
							c->id, c->conn ? ": " : "", c->conn ? PQerrorMessage(c->conn) : "");
		return false;
	}
	c->poll = PGRES_POLLING_WRITING;
	c->phase = CLIENT_CONNECTING;
	dr->wes_dirty = true;
	return true;
}

/*
 * -C: the new connection's socket is ready: poll it.  True once it is
 * established; false while it is still in progress or if the client was
 * aborted.
 */
static bool
driver_client_connected(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	c->poll = PQconnectPoll(c->conn);
	if (c->poll == PGRES_POLLING_FAILED)
	{
		driver_client_abort(dr, c, "client %d aborted while establishing connection: %s",
							c->id, PQerrorMessage(c->conn));
		return false;
	}
	/* the socket may change between attempts, and the events do: rebuild */
	dr->wes_dirty = true;
	if (c->poll != PGRES_POLLING_OK)
		return false;
	if (!conninfo_login_ok(c->conn, dr->run->knobs.require_password))
	{
		driver_client_abort(dr, c, "client %d aborted: it logged in without a password", c->id);
		return false;
	}
	dr->counts->reconnects++;
	dr->counts->reconnect_usec += now - c->conn_start;
	driver_publish_pid(dr, c);
	if (PQsetnonblocking(c->conn, 1) != 0)
	{
		driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
		return false;
	}
	memset(c->prepared, 0, sizeof(bool) * Max(1, dr->nsql));
	return true;
}

/*
 * A failed command: serialization and deadlock failures fail the
 * transaction (retried or counted in RETRY); a replay counts any failing
 * statement and goes on; anything else aborts the client.  Returns false if
 * the client was aborted.
 */
/* whether an error result carries this SQLSTATE */
static bool
driver_sqlstate_is(const PGresult *res, const char *sqlstate)
{
	const char *s = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	return s != NULL && strcmp(s, sqlstate) == 0;
}

static bool
driver_client_error(DriverRun *dr, DriverClient *c, PGresult *res, int query)
{
	bool		deadlock = driver_sqlstate_is(res, "40P01");

	if (dr->run->knobs.replay)
	{
		c->failure = CLIENT_FAILURE_STATEMENT;
		return true;
	}
	/*
	 * A serialization or deadlock failure is retried (max_tries), and with
	 * continue_on_error (pgbench 19's --continue-on-error) any other SQL
	 * error fails the transaction, never retried, while the connection is
	 * still good; anything else aborts the client
	 */
	if (deadlock || driver_sqlstate_is(res, "40001") ||
		(dr->run->knobs.continue_on_error && PQstatus(c->conn) != CONNECTION_BAD))
	{
		if (dr->run->knobs.verbose_errors)
			driver_messagef(dr, c->id, MSG_INFO, "client %d got an error in command %d (SQL) of script %d; %s",
							c->id, c->step.command, c->step.script, PQresultErrorMessage(res));
		if (c->failure == CLIENT_FAILURE_NONE)
			c->failure = deadlock ? CLIENT_FAILURE_DEADLOCK :
				driver_sqlstate_is(res, "40001") ? CLIENT_FAILURE_SERIALIZATION :
				CLIENT_FAILURE_OTHER;
		return true;
	}
	driver_client_abort(dr, c, "client %d script %d aborted in command %d query %d: %s",
						c->id, c->step.script, c->step.command, query,
						PQresultErrorMessage(res));
	return false;
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
			driver_client_abort(dr, c, "client %d script %d command %d query 0: %s",
								c->id, c->step.script, c->step.command, err.message);
			return false;
		}
	}
	return true;
}

/*
 * The end of one query's result in a command with \gset or \aset (res is
 * ours): its final result, the rows having come one by one before it (see
 * driver_stream_results; c->rows of them, the last in c->row_res).  \aset
 * stores the last row of every query that returned any at once, the last
 * winning, as pgbench does; \gset keeps the last query's row count and last
 * row for when the command ends.  A result that is not in single-row mode
 * (it holds its rows) is taken the same way.
 */
static bool
driver_client_store(DriverRun *dr, DriverClient *c, PGresult *res)
{
	bool		tuples = PQresultStatus(res) == PGRES_TUPLES_OK;
	int64		rows = tuples ? c->rows + PQntuples(res) : 0;
	PGresult   *row = NULL;		/* the result holding the last row */

	if (tuples && PQntuples(res) > 0)
		row = res;
	else if (tuples && c->row_res)
		row = c->row_res;
	if (c->step.store == SCRIPT_STORE_ASET)
	{
		bool		ok = true;

		if (row)
			ok = driver_client_store_row(dr, c, row, PQntuples(row) - 1);
		PQclear(res);
		driver_client_drop_row(c);
		return ok;
	}
	if (c->gset_res)
		PQclear(c->gset_res);
	if (row != NULL && row == c->row_res)
	{
		/* keep the row, not the final zero-row result */
		c->gset_res = c->row_res;
		c->row_res = NULL;
		PQclear(res);
	}
	else
		c->gset_res = res;
	c->gset_rows = rows;
	driver_client_drop_row(c);
	return true;
}

/* The command ended: \gset wants exactly one row from its last query. */
static bool
driver_client_gset(DriverRun *dr, DriverClient *c)
{
	PGresult   *res = c->gset_res;
	int64		rows = res ? c->gset_rows : 0;
	bool		ok;

	c->gset_res = NULL;
	c->gset_rows = 0;
	driver_client_drop_row(c);
	if (c->step.store != SCRIPT_STORE_GSET || c->failure != CLIENT_FAILURE_NONE)
	{
		if (res)
			PQclear(res);
		return true;
	}
	if (rows != 1)
	{
		if (res)
			PQclear(res);
		driver_client_abort(dr, c, "client %d script %d command %d query 0: expected one row, got %lld",
							c->id, c->step.script, c->step.command, (long long) rows);
		return false;
	}
	ok = driver_client_store_row(dr, c, res, PQntuples(res) - 1);
	PQclear(res);
	return ok;
}

typedef enum DriverRead
{
	DRIVER_READ_BUSY,			/* more input to come: wait for the socket */
	DRIVER_READ_COMPLETE,		/* every result of the command is in */
	DRIVER_READ_ABORTED			/* the client was aborted */
} DriverRead;

/*
 * Take the results of the command in flight (WAIT_PREPARE, WAIT_RESULT,
 * WAIT_ROLLBACK) as far as the input received allows.  Errors are judged by
 * driver_client_error (a failed ROLLBACK aborts the client); \gset and \aset
 * results are stored; the others are dropped.  Rows come one by one
 * (driver_stream_results): each is dropped as soon as it is read, but for
 * the last one of a query under \gset or \aset, which is kept until the
 * query's final result says the query succeeded (an error after some rows
 * makes the whole query an error, as it is for pgbench).
 */
static DriverRead
driver_client_read(DriverRun *dr, DriverClient *c)
{
	while (!PQisBusy(c->conn))
	{
		PGresult   *res = PQgetResult(c->conn);
		ExecStatusType st;
		bool		ok = true;

		if (res == NULL)
		{
			driver_client_drop_notifies(c);
			return DRIVER_READ_COMPLETE;
		}
		st = PQresultStatus(res);
		if (st == PGRES_SINGLE_TUPLE)
		{
			if (c->phase == CLIENT_WAIT_RESULT && c->step.store != SCRIPT_STORE_NONE)
			{
				if (c->row_res)
					PQclear(c->row_res);
				c->row_res = res;
				c->rows++;
			}
			else
				PQclear(res);
			continue;
		}
		if (driver_client_copy(dr, c, res))
			return DRIVER_READ_ABORTED;
		if (st == PGRES_FATAL_ERROR)
		{
			driver_client_drop_row(c);
			if (c->phase == CLIENT_WAIT_ROLLBACK)
			{
				driver_client_abort(dr, c, "client %d aborted: ROLLBACK failed: %s",
									c->id, PQresultErrorMessage(res));
				ok = false;
			}
			else if (c->phase == CLIENT_WAIT_PREPARE && !dr->run->knobs.replay &&
					 driver_sqlstate_is(res, "42P05"))
			{
				/*
				 * The statement is already on the server connection: through
				 * a pooler in transaction mode, another client prepared it
				 * there.  pgbench prints the error and goes on; so do we,
				 * counting it and keeping it as the notices are (not
				 * logged).  Where the statement is missing when it runs, it
				 * fails as any command does.
				 */
				driver_notice_receiver(dr, res);
			}
			else if (c->phase == CLIENT_WAIT_PREPARE && !dr->run->knobs.replay)
			{
				/*
				 * Any other error of a PREPARE (a syntax error): pgbench
				 * prints it and goes on (prepareCommand), so its EXECUTE
				 * fails with "prepared statement ... does not exist", and
				 * that is the error the client aborts on, as under pgbench
				 */
				driver_message(dr, c->id, MSG_ERROR, PQresultErrorMessage(res));
			}
			else
				ok = driver_client_error(dr, c, res, 0);
			PQclear(res);
		}
		else if (c->phase == CLIENT_WAIT_RESULT && c->step.store != SCRIPT_STORE_NONE)
			ok = driver_client_store(dr, c, res);
		else
			PQclear(res);
		if (!ok)
			return DRIVER_READ_ABORTED;
	}
	driver_client_drop_notifies(c);
	return DRIVER_READ_BUSY;
}

/*
 * \endpipeline: collect every result up to the last sync, then leave
 * pipeline mode.  A serialization or deadlock failure fails the
 * transaction (the pipeline's implicit transaction is gone) and every
 * result after it is dropped unread, as pgbench discards them up to the
 * last sync (with \syncpipeline, pgbench 17, the statements after a later
 * sync still ran); any other error aborts the client, as pgbench does, and
 * in its words: "query N" counts, as pgbench's reading of the results
 * does, the sync results read since the end of the previous query's.
 */
static DriverRead
driver_client_read_pipeline(DriverRun *dr, DriverClient *c)
{
	PGresult   *res;
	bool		after_null = false;

	while (c->syncs_pending > 0)
	{
		ExecStatusType st;

		/* the query whose results come next streams them too */
		driver_stream_results(c->conn);
		if (PQisBusy(c->conn))
		{
			driver_client_drop_notifies(c);
			return DRIVER_READ_BUSY;
		}
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
				return DRIVER_READ_ABORTED;
			}
			after_null = true;
			c->syncs_read = 0;
			continue;
		}
		after_null = false;
		if (driver_client_copy(dr, c, res))
			return DRIVER_READ_ABORTED;
		st = PQresultStatus(res);
		if (st == PGRES_SINGLE_TUPLE)
		{
			/* a row: dropped at once (no \gset or \aset in a pipeline) */
			PQclear(res);
			continue;
		}
		if (st == PGRES_PIPELINE_SYNC)
		{
			c->syncs_pending--;
			c->syncs_read++;
		}
		else if (st == PGRES_FATAL_ERROR && c->failure == CLIENT_FAILURE_NONE &&
				 !driver_client_error(dr, c, res, c->syncs_read))
		{
			PQclear(res);
			return DRIVER_READ_ABORTED;
		}
		/* other results and PGRES_PIPELINE_ABORTED are dropped */
		PQclear(res);
	}
	driver_client_drop_notifies(c);
	if (!PQexitPipelineMode(c->conn))
	{
		driver_client_abort(dr, c, "client %d aborted: failed to exit pipeline mode: %s",
							c->id, PQerrorMessage(c->conn));
		return DRIVER_READ_ABORTED;
	}
	return DRIVER_READ_COMPLETE;
}

/* \startpipeline: enter pipeline mode; false if the client was aborted */
static bool
driver_client_enter_pipeline(DriverRun *dr, DriverClient *c)
{
	if (!PQenterPipelineMode(c->conn))
	{
		driver_client_command_failed(dr, c, "startpipeline",
									 "failed to enter pipeline mode");
		return false;
	}
	c->syncs_pending = 0;
	return true;
}

/*
 * \startpipeline in prepared mode: every statement up to the \endpipeline
 * (in any \if branch) not yet prepared on this connection is prepared
 * before the pipeline is entered, one PREPARE at a time from
 * c->pipe_prep_cmd on, as pgbench does (prepareCommandsInPipeline).  Each
 * comes back through WAIT_PREPARE, which calls this again; when none is
 * left the client enters pipeline mode and goes on with the script.  A
 * failure that makes the pipeline skip its later commands then leaves none
 * of them unprepared for the retry, and no Parse of a SELECT takes a
 * snapshot before the pipeline's BEGIN ISOLATION LEVEL runs.  False if the
 * client was aborted.
 */
static bool
driver_client_pipeline_prepare(DriverRun *dr, DriverClient *c)
{
	const Script *script = script_client_script(c->sc, c->step.script);
	int			n = script_command_count(script);

	while (c->pipe_prep_cmd >= 0 && c->pipe_prep_cmd < n)
	{
		int			i = c->pipe_prep_cmd++;
		ScriptCommandKind kind = script_command_kind(script, i);
		int			k;

		if (kind == SCRIPT_CMD_ENDPIPELINE)
			break;
		if (kind != SCRIPT_CMD_SQL)
			continue;
		k = dr->sql_base[c->step.script] + script_sql_index(script, i);
		if (c->prepared[k])
			continue;
		if (!PQsendPrepare(c->conn, dr->prep_names[k], script_sql_param_text(script, i),
						   script_sql_nparams(script, i), NULL))
		{
			driver_client_send_failed(dr, c);
			return false;
		}
		c->pipe_prep_sql = script_sql_index(script, i);
		c->phase = CLIENT_WAIT_PREPARE;
		return driver_client_flush(dr, c);
	}
	c->pipe_prep_cmd = -1;
	c->phase = CLIENT_START_COMMAND;
	return driver_client_enter_pipeline(dr, c);
}

/*
 * START_COMMAND: step the script (its meta-commands run inside
 * script_step_client) and act on what it returns.  Sets the next phase.
 * The script module has already refused what pgbench refuses here (a
 * pipeline with the simple protocol, \gset or \aset in a pipeline, a script
 * ending with its pipeline open): those come back as SCRIPT_STEP_ERROR.
 */
static void
driver_client_start_command(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	ScriptError err;

	switch (script_step_client(c->sc, &c->step, &err))
	{
		case SCRIPT_STEP_SQL:
			(void) driver_client_send(dr, c, now);
			break;
		case SCRIPT_STEP_PIPELINE_START:
			if (dr->run->protocol == RUN_PROTOCOL_PREPARED)
			{
				c->pipe_prep_cmd = c->step.command + 1;
				(void) driver_client_pipeline_prepare(dr, c);
			}
			else
				(void) driver_client_enter_pipeline(dr, c);
			break;
		case SCRIPT_STEP_PIPELINE_SYNC:
		case SCRIPT_STEP_PIPELINE_END:
			/*
			 * \syncpipeline (pgbench 17) queues a sync and goes on, as
			 * pgbench's PQsendPipelineSync; \endpipeline sends them all.
			 */
			if (!(c->step.kind == SCRIPT_STEP_PIPELINE_SYNC ?
				  driver_send_pipeline_sync(c->conn) : PQpipelineSync(c->conn)))
			{
				driver_client_command_failed(dr, c,
											 c->step.kind == SCRIPT_STEP_PIPELINE_END ?
											 "endpipeline" : "syncpipeline",
											 "failed to send a pipeline sync");
				break;
			}
			c->syncs_pending++;
			if (c->step.kind == SCRIPT_STEP_PIPELINE_END)
			{
				c->cmd_start = now;
				c->syncs_read = 0;
				if (driver_client_flush(dr, c))
					c->phase = CLIENT_WAIT_PIPELINE;
			}
			break;
		case SCRIPT_STEP_SLEEP:
			c->cmd_start = now;
			c->wake_at = now + c->step.sleep_usec;
			c->phase = CLIENT_SLEEP;
			if (driver_client_holds_input(c))
				dr->wes_dirty = true;	/* its socket leaves the set */
			break;
		case SCRIPT_STEP_END_OF_TRANSACTION:
			if (PQtransactionStatus(c->conn) != PQTRANS_IDLE)
			{
				/*
				 * pgbench counts the transaction (its latency, the processed
				 * count) before it looks at the transaction status, then
				 * aborts the client: "BEGIN;SELECT 1;" with -t 10 reads
				 * processed: 1/10.  A replay counted its statements already.
				 */
				if (!dr->run->knobs.replay)
					driver_transaction_ended(dr, c, now);
				driver_client_abort(dr, c, "client %d aborted: end of script reached without completing the last transaction",
									c->id);
				break;
			}
			c->phase = CLIENT_END_TX;
			break;
		case SCRIPT_STEP_ERROR:
			{
				char		msg[RUN_ERROR_LEN];

				/* pgbench words the end-of-script aborts without a command */
				if (strncmp(err.message, "end of script", 13) == 0)
				{
					driver_client_abort(dr, c, "client %d aborted: %s", c->id, err.message);
					break;
				}
				script_error_format(&err, msg, sizeof(msg));
				c->step.command = err.command_index;
				if (dr->msgs == NULL || err.command[0] == '\0')
				{
					driver_client_command_failed(dr, c, err.command, msg);
					break;
				}
				/*
				 * pgbench's two lines: what failed, then the abort with
				 * its command's generic reason
				 */
				driver_message(dr, c->id, MSG_ERROR, msg);
				driver_messagef(dr, c->id, MSG_ERROR, "client %d aborted in command %d (%s) of script %d; %s",
								c->id, c->step.command, err.command, c->step.script,
								strcmp(err.command, "sleep") == 0 ? "execution of meta-command failed" :
								"evaluation of meta-command failed");
				driver_client_abort_told(dr, c, "client %d aborted in command %d (%s) of script %d; %s",
										 c->id, c->step.command, err.command, c->step.script, msg);
				break;
			}
		default:
			driver_client_abort(dr, c, "client %d aborted: unknown step", c->id);
			break;
	}
}

/*
 * The client goes on with the next command of the transaction, unless a
 * stop was requested and the connection is idle (a stop ends a client at
 * its next command boundary).
 */
static void
driver_client_next_command(DriverRun *dr, DriverClient *c)
{
	script_sql_done(c->sc);
	if (dr->stop_deadline != 0 && PQtransactionStatus(c->conn) == PQTRANS_IDLE)
		driver_client_close(dr, c, CLIENT_DONE);
	else
		c->phase = CLIENT_START_COMMAND;
}

/*
 * run_replay: a statement ended.  Each statement counts as one transaction
 * (its latency, or a failure), and a failing one does not stop the replay;
 * a transaction it left aborted is rolled back first.
 */
static void
driver_client_replayed(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	driver_client_drop_gset(c);
	driver_advance_seconds(dr, now);
	if (c->failure != CLIENT_FAILURE_NONE)
	{
		c->failure = CLIENT_FAILURE_NONE;
		driver_command_stats(dr, c)->failures++;
		stats_second_record_failed(driver_slot(dr));
	}
	else
		stats_second_record_ok(driver_slot(dr), (uint64) driver_command_timed(dr, c, now));
	pg_atomic_write_u64(&dr->me->transactions,
						pg_atomic_read_u64(&dr->me->transactions) + 1);
	if (PQtransactionStatus(c->conn) == PQTRANS_INERROR)
		(void) driver_client_rollback(dr, c);
	else
		driver_client_next_command(dr, c);
}

/*
 * verbose_errors: pgbench's line on a failed transaction, retried or ended
 * (its printVerboseErrorMessages): the try, of how many, and with a latency
 * limit the share of it used
 */
static void
driver_verbose_try(DriverRun *dr, DriverClient *c, TimestampTz now, bool retry)
{
	const RunKnobs *k = &dr->run->knobs;
	char		tries[32] = "";
	char		limit[96] = "";

	if (!k->verbose_errors || dr->msgs == NULL)
		return;
	if (k->max_tries > 0)
		snprintf(tries, sizeof(tries), "/%d", k->max_tries);
	if (k->latency_limit_usec > 0)
		snprintf(limit, sizeof(limit), ", %.3f%% of the maximum time of tries was used",
				 100.0 * (now - c->txn_start) / k->latency_limit_usec);
	driver_messagef(dr, c->id, MSG_INFO, "client %d %s (try %d%s%s)", c->id,
					retry ? "repeats the transaction after the error" : "ends the failed transaction",
					c->tries, tries, limit);
}

/*
 * RETRY: the failed transaction is rolled back.  Retry it from its first
 * command with the random state it started with, as pgbench --max-tries
 * does, or end it as failed.
 */
static void
driver_client_retry(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	const RunKnobs *k = &dr->run->knobs;
	CommandStats *cs = driver_command_stats(dr, c);

	if (c->failure != CLIENT_FAILURE_OTHER &&
		(k->max_tries == 0 || c->tries < k->max_tries) &&
		(k->latency_limit_usec == 0 || now - c->txn_start <= k->latency_limit_usec) &&
		(dr->end_time == 0 || now < dr->end_time) &&
		dr->stop_deadline == 0)
	{
		driver_verbose_try(dr, c, now, true);
		cs->retries++;
		c->tries++;
		c->failure = CLIENT_FAILURE_NONE;
		script_client_restart_transaction(c->sc);
		c->phase = CLIENT_START_COMMAND;
		return;
	}
	if ((dr->end_time == 0 || now < dr->end_time) && dr->stop_deadline == 0)
		driver_verbose_try(dr, c, now, false);
	cs->failures++;
	script_client_reset(c->sc);
	c->phase = CLIENT_END_TX;
}

/*
 * The client's state machine, pgbench's advanceConnectionState: move the
 * client from phase to phase until it must wait for its socket or the
 * clock, or is done.  Phases that wait return when what they wait for is
 * not there yet; the wait loop calls again on socket input (after
 * PQconsumeInput) or when wake_at has come.
 *
 *   CHOOSE_SCRIPT -> [PREPARE_THROTTLE -> THROTTLE] -> START_TX
 *   START_TX (-C: -> CONNECTING -> START_TX) -> START_COMMAND
 *   START_COMMAND -> WAIT_RESULT | WAIT_PREPARE -> WAIT_RESULT
 *                 |  SLEEP | (pipeline) WAIT_PIPELINE | END_TX
 *   WAIT_RESULT -> END_COMMAND -> START_COMMAND | ERROR
 *   SLEEP -> START_COMMAND;  WAIT_PIPELINE -> START_COMMAND | ERROR
 *   ERROR -> [WAIT_ROLLBACK] -> RETRY -> START_COMMAND | END_TX
 *   END_TX -> CHOOSE_SCRIPT (every 1000 transactions without a wait: YIELD)
 *   any -> ABORTED (pgbench's abort) or DONE (the run's end, a stop)
 *
 * A replay (run_replay) counts each statement in END_COMMAND and rolls back
 * an aborted transaction in WAIT_ROLLBACK before going on.
 */
static void
driver_client_advance(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	int			ended = 0;		/* transactions ended in this call */

	for (;;)
	{
		switch (c->phase)
		{
			case CLIENT_CONNECTING:
				if (!driver_client_connected(dr, c, now))
					return;		/* in progress, or aborted */
				if (driver_client_finished(dr, c, now))
					driver_client_close(dr, c, CLIENT_DONE);
				else
					c->phase = CLIENT_START_TX;
				break;

			case CLIENT_CHOOSE_SCRIPT:
				if (driver_client_finished(dr, c, now))
				{
					driver_client_close(dr, c, CLIENT_DONE);
					break;
				}
				if (dr->payload.nscripts > 1)
					script_client_select(c->sc,
										 script_choose(&dr->choose_rs, dr->payload.weights,
													   dr->payload.nscripts,
													   dr->payload.total_weight));
				/* pgbench chooses the script first, then schedules (-R) */
				c->phase = dr->run->knobs.rate > 0 ?
					CLIENT_PREPARE_THROTTLE : CLIENT_START_TX;
				break;

			case CLIENT_PREPARE_THROTTLE:
				if (!driver_client_schedule(dr, c, now))
				{
					driver_client_close(dr, c, CLIENT_DONE);
					break;
				}
				c->wake_at = c->txn_scheduled;
				c->phase = CLIENT_THROTTLE;
				break;

			case CLIENT_THROTTLE:
				if (c->wake_at > now)
					return;
				if (driver_client_finished(dr, c, now))
					driver_client_close(dr, c, CLIENT_DONE);
				else
					c->phase = CLIENT_START_TX;
				break;

			case CLIENT_START_TX:
				if (dr->run->knobs.connect_per_transaction && c->conn == NULL)
				{
					(void) driver_client_reconnect(dr, c, now);
					return;		/* CONNECTING, or aborted */
				}
				c->tries = 1;
				c->txn_start = now;
				c->lag_usec = -1;
				if (dr->run->knobs.rate > 0)
				{
					int64		lag = now - c->txn_scheduled;

					c->lag_usec = lag;
					/* latency counts from the schedule: no coordinated omission */
					c->txn_start = c->txn_scheduled;
					dr->counts->lag_count++;
					dr->counts->lag_sum_usec += lag;
					driver_slot(dr)->lag_sum_us += (uint64) Max(lag, 0);
					dr->counts->lag_max_usec = Max(dr->counts->lag_max_usec, lag);
				}
				c->phase = CLIENT_START_COMMAND;
				break;

			case CLIENT_START_COMMAND:
				driver_client_start_command(dr, c, now);
				break;

			case CLIENT_WAIT_PREPARE:
				{
					bool		for_pipeline = c->pipe_prep_cmd >= 0;
					int			sql = for_pipeline ? c->pipe_prep_sql : c->step.sql_index;

					if (driver_client_read(dr, c) != DRIVER_READ_COMPLETE)
						return;
					if (c->failure != CLIENT_FAILURE_NONE && !dr->run->knobs.replay)
					{
						driver_client_abort(dr, c, "client %d aborted: could not prepare statement %d",
											c->id, sql);
						break;
					}
					c->prepared[dr->sql_base[c->step.script] + sql] = true;
					if (for_pipeline)
						(void) driver_client_pipeline_prepare(dr, c);
					else
						(void) driver_client_send(dr, c, now);
				}
				break;

			case CLIENT_WAIT_RESULT:
				if (driver_client_read(dr, c) != DRIVER_READ_COMPLETE)
					return;
				c->phase = CLIENT_END_COMMAND;
				break;

			case CLIENT_WAIT_PIPELINE:
				if (driver_client_read_pipeline(dr, c) != DRIVER_READ_COMPLETE)
					return;
				(void) driver_command_timed(dr, c, now);
				c->phase = c->failure != CLIENT_FAILURE_NONE && !dr->run->knobs.replay ?
					CLIENT_ERROR : CLIENT_START_COMMAND;
				break;

			case CLIENT_SLEEP:
				if (c->wake_at > now)
					return;
				if (driver_client_holds_input(c))
					dr->wes_dirty = true;	/* its socket is back */
				/* a \sleep is timed like any command (-r) */
				(void) driver_command_timed(dr, c, now);
				c->phase = CLIENT_START_COMMAND;
				break;

			case CLIENT_END_COMMAND:
				if (dr->run->knobs.replay)
				{
					driver_client_replayed(dr, c, now);
					break;
				}
				/* \gset's row (dropped when the transaction failed) */
				if (!driver_client_gset(dr, c))
					break;
				if (c->failure != CLIENT_FAILURE_NONE)
				{
					c->phase = CLIENT_ERROR;
					break;
				}
				(void) driver_command_timed(dr, c, now);
				driver_client_next_command(dr, c);
				break;

			case CLIENT_ERROR:
				/* roll back first, then retry or count the failure */
				if (PQtransactionStatus(c->conn) == PQTRANS_INERROR ||
					PQtransactionStatus(c->conn) == PQTRANS_INTRANS)
					(void) driver_client_rollback(dr, c);
				else
					c->phase = CLIENT_RETRY;
				break;

			case CLIENT_WAIT_ROLLBACK:
				if (driver_client_read(dr, c) != DRIVER_READ_COMPLETE)
					return;
				if (dr->run->knobs.replay)
					driver_client_next_command(dr, c);	/* the replay goes on */
				else
					c->phase = CLIENT_RETRY;
				break;

			case CLIENT_RETRY:
				driver_client_retry(dr, c, now);
				break;

			case CLIENT_END_TX:
				if (dr->run->knobs.replay)
					c->ntx++;	/* its statements were counted one by one */
				else
					driver_transaction_ended(dr, c, now);
				if (dr->run->knobs.connect_per_transaction)
					driver_client_disconnect(dr, c);
				c->phase = CLIENT_CHOOSE_SCRIPT;
				if (++ended >= DRIVER_MAX_TX_WITHOUT_WAIT)
				{
					/* no SQL to wait for: do not spin deaf to interrupts */
					c->wake_at = now;
					c->phase = CLIENT_YIELD;
					return;
				}
				break;

			case CLIENT_YIELD:
				if (c->wake_at > now)
					return;
				c->phase = CLIENT_CHOOSE_SCRIPT;
				break;

			case CLIENT_DONE:
			case CLIENT_ABORTED:
				return;
		}
	}
}

/* Whether the client waits for the clock (wake_at). */
static inline bool
driver_client_sleeping(const DriverClient *c)
{
	return c->phase == CLIENT_THROTTLE || c->phase == CLIENT_SLEEP ||
		c->phase == CLIENT_YIELD;
}

/* Whether the client waits for its server (a result or a connection). */
static inline bool
driver_client_waiting(const DriverClient *c)
{
	return c->phase == CLIENT_WAIT_PREPARE || c->phase == CLIENT_WAIT_RESULT ||
		c->phase == CLIENT_WAIT_PIPELINE || c->phase == CLIENT_WAIT_ROLLBACK ||
		c->phase == CLIENT_CONNECTING;
}

/*
 * The client's socket is ready: flush what is left of its output, read its
 * input, and advance it if it was waiting for that.  Input for a client that
 * waits for nothing (e.g. the server closing the connection) is read only,
 * so that an error shows up.
 */
static void
driver_client_io(DriverRun *dr, DriverClient *c, TimestampTz now)
{
	if (c->conn == NULL)
		return;					/* closed earlier in this round */
	if (c->phase != CLIENT_CONNECTING)
	{
		if (c->want_write && !driver_client_flush(dr, c))
			return;
		if (driver_client_holds_input(c))
			return;
		if (!PQconsumeInput(c->conn))
		{
			driver_client_abort(dr, c, "client %d aborted: %s", c->id, PQerrorMessage(c->conn));
			return;
		}
	}
	if (driver_client_waiting(c))
		driver_client_advance(dr, c, now);
	else if (!script_client_in_pipeline(c->sc))
		driver_client_drop_notifies(c); /* no query in flight: parse them */
}

/* ---------------------------------------------------------------------
 * Connecting
 * --------------------------------------------------------------------- */

/*
 * An experiment's session settings (run_spec.h: the step's configuration):
 * each client sends them once it is connected, as one statement of
 * set_config calls with the names and values as parameters, before the
 * measured interval, and waits for the answer without blocking in libpq.
 * Not in the startup packet: a pooler such as pgbouncer refuses "options".
 * Launch checked every name and value; a client whose settings fail
 * anyway fails the step.
 */
static void
driver_apply_settings(DriverRun *dr)
{
	const RunSpec *spec = dr->spec;
	StringInfoData sql;
	const char **params;
	const char *p = spec->settings;
	int			pending = 0;
	bool	   *waiting;
	bool	   *writing;

	if (spec->nsettings <= 0)
		return;
	params = palloc(sizeof(char *) * spec->nsettings * 2);
	initStringInfo(&sql);
	appendStringInfoString(&sql, "SELECT ");
	for (int i = 0; i < spec->nsettings; i++)
	{
		params[2 * i] = p;
		p += strlen(p) + 1;
		params[2 * i + 1] = p;
		p += strlen(p) + 1;
		appendStringInfo(&sql, "%spg_catalog.set_config($%d, $%d, false)",
						 i > 0 ? ", " : "", 2 * i + 1, 2 * i + 2);
	}
	waiting = palloc0(sizeof(bool) * dr->nclients);
	writing = palloc0(sizeof(bool) * dr->nclients);
	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];

		if (!PQsendQueryParams(c->conn, sql.data, spec->nsettings * 2, NULL, params, NULL, NULL, 0))
			ereport(ERROR,
					(errcode(ERRCODE_CONNECTION_FAILURE),
					 errmsg("client %d could not send its session settings: %s", c->id,
							PQerrorMessage(c->conn))));
		waiting[i] = true;
		pending++;
	}
	while (pending > 0)
	{
		WaitEventSet *wes;
		WaitEvent  *events;
		int			n;

		for (int i = 0; i < dr->nclients; i++)
		{
			DriverClient *c = &dr->clients[i];
			int			flushed;

			if (!waiting[i])
				continue;
			flushed = PQflush(c->conn);
			writing[i] = flushed == 1;
			if (flushed < 0 || !PQconsumeInput(c->conn))
				ereport(ERROR,
						(errcode(ERRCODE_CONNECTION_FAILURE),
						 errmsg("client %d could not apply its session settings: %s", c->id,
								PQerrorMessage(c->conn))));
			while (flushed == 0 && !PQisBusy(c->conn))
			{
				PGresult   *res = PQgetResult(c->conn);

				if (res == NULL)
				{
					waiting[i] = false;
					pending--;
					break;
				}
				if (PQresultStatus(res) != PGRES_TUPLES_OK)
				{
					char	   *msg = pstrdup(PQresultErrorMessage(res));

					PQclear(res);
					ereport(ERROR,
							(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
							 errmsg("client %d could not apply its session settings: %s", c->id, msg)));
				}
				PQclear(res);
			}
		}
		if (pending == 0)
			break;
		wes = pgx_create_wait_event_set(pending + 2, false);
		AddWaitEventToSet(wes, WL_LATCH_SET, PGINVALID_SOCKET, MyLatch, NULL);
		AddWaitEventToSet(wes, WL_EXIT_ON_PM_DEATH, PGINVALID_SOCKET, NULL, NULL);
		for (int i = 0; i < dr->nclients; i++)
			if (waiting[i])
				AddWaitEventToSet(wes, writing[i] ? WL_SOCKET_WRITEABLE : WL_SOCKET_READABLE,
								  PQsocket(dr->clients[i].conn), NULL, NULL);
		events = palloc(sizeof(WaitEvent) * (pending + 2));
		n = WaitEventSetWait(wes, 1000, events, pending + 2, PG_WAIT_EXTENSION);
		for (int i = 0; i < n; i++)
			if (events[i].events & WL_LATCH_SET)
				ResetLatch(MyLatch);
		FreeWaitEventSet(wes);
		pfree(events);
		CHECK_FOR_INTERRUPTS();
		if (pg_atomic_read_u32(&dr->run->stop))
			ereport(ERROR,
					(errcode(ERRCODE_QUERY_CANCELED),
					 errmsg("run stopped while its clients applied their session settings")));
	}
	pfree(waiting);
	pfree(writing);
	pfree(params);
	pfree(sql.data);
}

static void
driver_connect_all(DriverRun *dr)
{
	int			connecting = 0;
	StringInfoData conninfo;
	bool		shared_name;

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
		pqconn_too_many_files("the benchmark clients' connections");
	for (; driver_fds_reserved < dr->nclients; driver_fds_reserved++)
		ReserveExternalFD();
	/*
	 * Clients of this server are named each by its number.  Clients that
	 * connect elsewhere (conninfo names a host or a port: another server, a
	 * pooler) share one name, as pgbench's share "pgbench": a pooler in
	 * transaction mode sets a client's application_name on every server
	 * connection it hands that client, a SET and a round trip before about
	 * every transaction when each client has its own (bench/README.md,
	 * Driver cost).
	 */
	shared_name = loopback_conninfo_has(dr->spec->conninfo_shown, "host") ||
		loopback_conninfo_has(dr->spec->conninfo_shown, "hostaddr") ||
		loopback_conninfo_has(dr->spec->conninfo_shown, "port");
	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];
		char		appname[64];

		resetStringInfo(&conninfo);
		if (shared_name)
			strlcpy(appname, "pgbenchx client", sizeof(appname));
		else
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
				if (!conninfo_login_ok(c->conn, dr->run->knobs.require_password))
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
				c->phase = CLIENT_CHOOSE_SCRIPT;
				driver_publish_pid(dr, c);
				connecting--;
			}
		}
		if (connecting == 0)
			break;

		wes = pgx_create_wait_event_set(connecting + 2, false);
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
	driver_apply_settings(dr);

	/* -C: the clients connect anew for each transaction */
	if (dr->run->knobs.connect_per_transaction)
		for (int i = 0; i < dr->nclients; i++)
		{
			PQfinish(dr->clients[i].conn);
			dr->clients[i].conn = NULL;
			driver_publish_pid(dr, &dr->clients[i]);
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
	dr->wes = pgx_create_wait_event_set(dr->nclients + 2, true);
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
			events = driver_client_events(c);
		if (events == 0)
			continue;
		c->wes_pos = AddWaitEventToSet(dr->wes, events, PQsocket(c->conn), NULL, c);
	}
	dr->wes_dirty = false;
}

/*
 * The earliest wake_at of the clients that wait for the clock (DT_NOEND:
 * none).  With advance, those whose time has come (at now) are advanced
 * first; a client still sleeping after that counts with its new wake_at.
 * One pass over the clients per wakeup does both.
 */
static TimestampTz
driver_sleepers(DriverRun *dr, TimestampTz now, bool advance)
{
	TimestampTz next = DT_NOEND;

	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];

		if (!driver_client_sleeping(c))
			continue;
		if (advance && c->wake_at <= now)
		{
			driver_client_advance(dr, c, now);
			if (!driver_client_sleeping(c))
				continue;
		}
		if (c->wake_at < next)
			next = c->wake_at;
	}
	return next;
}

static void
driver_loop(DriverRun *dr)
{
	WaitEvent  *events;
	int			nevents = dr->nclients + 2;
	TimestampTz now = GetCurrentTimestamp();
	TimestampTz sleepers_wake;

	if (dr->run->duration > 0)
		dr->end_time = dr->run->bench_start + (int64) dr->run->duration * USECS_PER_SEC;

	dr->throttle_trigger = dr->run->bench_start;
	if (dr->run->knobs.rate > 0)
		dr->throttle_delay_usec = 1e6 / dr->run->knobs.rate * dr->run->njobs;
	driver_build_wes(dr);
	events = palloc(sizeof(WaitEvent) * nevents);

	dr->live = dr->nclients;
	for (int i = 0; i < dr->nclients; i++)
		driver_client_advance(dr, &dr->clients[i], now);
	sleepers_wake = driver_sleepers(dr, now, false);

	while (dr->live > 0)
	{
		long		timeout;
		int			n;

		/*
		 * A sleeper's timeout is computed from a fresh clock, as pgbench
		 * does (-R, \sleep); without one, the clock read after the last
		 * wait serves driver_advance_seconds, and this read was one clock
		 * call per wakeup.
		 */
		if (sleepers_wake != DT_NOEND || dr->stop_deadline != 0)
			now = GetCurrentTimestamp();
		driver_advance_seconds(dr, now);
		if (dr->wes_dirty)
			driver_build_wes(dr);

		/*
		 * Only a sleeper or the stop grace needs the clock to wake us, as
		 * pgbench's threads wait on their sockets alone when no client
		 * sleeps.  A wait without a timeout is cheaper, and it is most
		 * waits: WaitEventSetWait reads no clock and the kernel arms no
		 * timer.  Nothing is due at the end of the run (clients in flight
		 * finish their transaction, driver_client_finished), and a second
		 * boundary passed while every client waits on the server is
		 * published when the coordinator sets our latch
		 * (coordinator_poke_drivers); transactions are counted in the
		 * second they end in however late we wake.
		 */
		if (sleepers_wake == DT_NOEND && dr->stop_deadline == 0)
			timeout = -1;
		else
		{
			TimestampTz next_wake = sleepers_wake;

			if (dr->stop_deadline != 0 && dr->stop_deadline < next_wake)
				next_wake = dr->stop_deadline;
			timeout = next_wake > now ? (long) ((next_wake - now + 999) / 1000) : 0;
		}

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
					/* idle sleepers and clients still connecting stop now */
					for (int j = 0; j < dr->nclients; j++)
					{
						DriverClient *c = &dr->clients[j];

						if (c->phase == CLIENT_CONNECTING ||
							(driver_client_sleeping(c) &&
							 (c->conn == NULL ||
							  PQtransactionStatus(c->conn) == PQTRANS_IDLE)))
							driver_client_close(dr, c, CLIENT_DONE);
					}
				}
			}
			else if (events[i].user_data)
				driver_client_io(dr, (DriverClient *) events[i].user_data, now);
		}

		/* sleepers whose time has come, and the next one's time */
		sleepers_wake = driver_sleepers(dr, now, true);

		/* past the stop grace: whatever is still in flight is dropped */
		if (dr->stop_deadline != 0 && now >= dr->stop_deadline)
		{
			driver_cancel_clients(dr, true);
			for (int i = 0; i < dr->nclients; i++)
			{
				DriverClient *c = &dr->clients[i];

				if (c->phase != CLIENT_DONE && c->phase != CLIENT_ABORTED)
					driver_client_close(dr, c, CLIENT_DONE);
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
	mine = script_parse(script_name(orig), text.data, &script_sql_parse_opts, err);
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
		Script	   *script = script_parse(pl->names[k], pl->texts[k], &script_sql_parse_opts, &err);

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
	/*
	 * pgbench 15's names, formatted once: P_<n>, n counting the SQL commands
	 * of all the scripts in their order (the server's errors name them)
	 */
	dr->prep_names = palloc(sizeof(*dr->prep_names) * Max(1, dr->nsql));
	for (int k = 0; k < dr->nsql; k++)
		snprintf(dr->prep_names[k], sizeof(*dr->prep_names),
				 "%s%d", driver_prepared_names_prefix, k);
	dr->nclients = dr->me->nclients;
	dr->clients = palloc0(sizeof(DriverClient) * dr->nclients);
	/* a part's clients draw as the clients of the whole run (part.c) */
	default_seed = script_seed_default_seed(dr->spec->random_seed, dr->run->total_clients);

	for (int i = 0; i < dr->nclients; i++)
	{
		DriverClient *c = &dr->clients[i];
		ScriptClientOptions opts;

		memset(&opts, 0, sizeof(opts));
		c->id = dr->run->first_client + dr->me->first_client + i;
		c->wes_pos = -1;
		c->pipe_prep_cmd = -1;
		opts.query_mode = (ScriptQueryMode) dr->run->protocol;
		opts.client_id = c->id;
		opts.scale = dr->spec->scale_detected;
		opts.random_seed = dr->spec->random_seed;
		opts.default_seed = default_seed;
		script_seed_client(dr->spec->random_seed, c->id, &opts.prng);
		opts.defines = pl->defines;
		opts.ndefines = pl->ndefines;
		if (dr->msgs != NULL)
		{
			opts.debug = driver_debug;
			opts.debug_arg = c;
		}
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
	dr->me->procno = PGX_PROCNO(MyProc);
	dr->counts = &dr->me->counts;
	dr->cmdstats = (CommandStats *) shm_toc_lookup(toc, RUN_SPEC_KEY_CMDSTATS, false) +
		dr->index * dr->spec->ncommands;
	dr->client_pids = run_spec_find_client_pids(toc);
	if (dr->run->knobs.client_messages)
		dr->msgs = (MsgRing *) shm_toc_lookup(toc, RUN_SPEC_KEY_MSGS, false) + dr->index;
	if (dr->run->knobs.log_transactions)
	{
		dr->txlog = (TxLogRing *) shm_toc_lookup(toc, RUN_SPEC_KEY_TXLOG, false) + dr->index;
		prng_seed(&dr->txlog_rs, dr->spec->random_seed ^
				  ((uint64) (dr->index + 1) * UINT64CONST(0xD1B54A32D192ED03)));
	}
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

		/*
		 * pgbench's per-thread random states, in its order.  A part's
		 * drivers count from its first client (at most one driver per
		 * client), so no two drivers of the parts of a run draw alike.
		 */
		script_seed_thread(dr.spec->random_seed, dr.run->total_clients, true,
						   dr.run->first_client + dr.index,
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
