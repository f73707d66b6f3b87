/*-------------------------------------------------------------------------
 *
 * run_shmem.h
 *	  The dynamic shared memory layout shared by a run's coordinator and its
 *	  driver workers.
 *
 * One DSM segment per run step, laid out with shm_toc (keys in
 * run_spec.h): the RunShared header with one DriverShared per driver, the
 * run's RunSpec and its payload (the scripts, the variables, the commands'
 * first lines), and each driver's CommandStats.  The coordinator creates
 * it, starts the drivers with the segment's handle as their main argument
 * and their index in bgw_extra, and reads what they publish:
 *
 *	- each driver's state, advanced with a write barrier and a SetLatch on
 *	  the coordinator;
 *	- per-second statistics in a ring of ring_len slots (at most
 *	  RUN_SECOND_RING): the driver fills slot (s % ring_len) for second s,
 *	  adds it to its own run total, then publishes s + 1 in
 *	  seconds_published (after a write barrier), and only then (another
 *	  barrier) reuses a slot.  A driver never waits for the coordinator: when
 *	  the coordinator cannot write samples for longer than the ring (a lock on
 *	  pgbenchx.samples, a slow disk), the slot of second s is reused for
 *	  s + ring_len.  The coordinator copies a slot, then re-reads
 *	  seconds_published: if it reached s + ring_len the copy may be of a later
 *	  second, and second s is counted lost (runs.samples_lost), never stored;
 *	- its totals (including the run total of its seconds, which is what
 *	  runs.transactions and the latencies come from, whatever the ring
 *	  lost), CPU time and error text once it is done.
 *
 * The coordinator starts the measured interval by writing bench_start and
 * then go = 1 (barrier in between) and setting every driver's latch; it
 * asks drivers to stop early with stop = 1.
 *
 * Apart from the step segments, RunProgress (at the end) is the one struct
 * the coordinator publishes for every session: the phase of its run, the
 * step and the expected end, in the main shared memory (progress.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_RUN_SHMEM_H
#define PGBENCHX_RUN_SHMEM_H

#include "port/atomics.h"
#include "storage/spin.h"
#include "storage/latch.h"
#include "utils/timestamp.h"

#include "script.h"
#include "stats.h"

#define RUN_SECOND_RING			32
#define RUN_CONNINFO_LEN		2048
#define RUN_ERROR_LEN			1024
#define RUN_SCRIPT_NAME_LEN		1024	/* a mix: "name@weight, ..." */
#define RUN_NOTICE_SAMPLES		3		/* notices kept per driver and per run */
#define RUN_NOTICE_LEN			256		/* each cut to 200 bytes + "..." */

/* the protocols, as pgbench's -M */
typedef enum RunProtocol
{
	RUN_PROTOCOL_SIMPLE = 0,
	RUN_PROTOCOL_EXTENDED,
	RUN_PROTOCOL_PREPARED
} RunProtocol;

/* how clients pace and retry their transactions, as pgbench's options */
typedef struct RunKnobs
{
	double		rate;			/* -R: total target tps; 0 = as fast as possible */
	int64		latency_limit_usec; /* -L; 0 = none */
	int			max_tries;		/* --max-tries; 0 = unlimited */
	bool		connect_per_transaction;	/* -C */
	bool		replay;			/* run_replay: each statement counts as one
								 * transaction, and a failing one is counted
								 * and skipped */
	bool		shuffle;		/* run_replay: each client its own order */
	bool		require_password;	/* a non-superuser's run: every client
									 * login must have used the password */
	bool		log_transactions;	/* each transaction into its driver's
									 * TxLogRing (pgbenchx.transaction_log) */
	double		sampling_rate;	/* of those, this share (pgbench's
								 * --sampling-rate); 1: all */
	bool		client_messages;	/* what pgbench's clients print (debug(),
									 * aborts, notices) into the driver's
									 * MsgRing (pgbenchx.client_messages) */
	bool		verbose_errors; /* and pgbench's --verbose-errors lines */
	bool		exit_on_abort;	/* pgbench's --exit-on-abort: a client's
								 * abort stops every driver (run->stop) */
	bool		continue_on_error;	/* pgbench 19's --continue-on-error: an
									 * SQL error other than a serialization
									 * or deadlock failure fails the
									 * transaction, not the client */
} RunKnobs;

/*
 * The per-transaction log (issue 24, pgbenchx -l): with log_transactions,
 * the step segment holds one TxLogRing per driver (RUN_SPEC_KEY_TXLOG).  A
 * driver writes record n in slot n % RUN_TXLOG_RING, then (write barrier)
 * publishes n + 1 in written, and (another barrier) only then writes the
 * next one: as the per-second ring, it never waits for a reader.  A reader
 * (txlog.c) copies record n, then (read barrier) re-reads written: if it
 * reached n + RUN_TXLOG_RING the slot may hold a later record, and record n
 * is lost to that reader, who sees the gap in the numbers.
 */
#define RUN_TXLOG_RING			65536	/* records per driver: 3 MB */

typedef enum TxLogStatus
{
	TXLOG_OK = 0,
	TXLOG_SERIALIZATION,		/* failed: 40001, retries spent */
	TXLOG_DEADLOCK,				/* failed: 40P01, retries spent */
	TXLOG_SKIPPED,				/* -R with -L: too late to start */
	TXLOG_FAILED,				/* replay: the statement failed */
	TXLOG_OTHER					/* continue_on_error: another SQL error */
} TxLogStatus;

typedef struct TxLogRecord
{
	int64		end_usec;		/* Unix epoch, microseconds */
	int64		latency_usec;	/* from the start (-R: the schedule) */
	int64		lag_usec;		/* -R: schedule lag; -1 without -R */
	int64		transaction_no; /* in its client, from 0 */
	int32		client;			/* global client number */
	int32		retries;		/* tries - 1 */
	int16		script;			/* index in the mix */
	int16		status;			/* TxLogStatus */
} TxLogRecord;

typedef struct TxLogRing
{
	pg_atomic_uint64 written;	/* records 0..written-1 have been written */
	TxLogRecord records[RUN_TXLOG_RING];
} TxLogRing;

/*
 * The clients' messages (issue 36, what pgbench prints on stderr while it
 * runs): with client_messages, the step segment holds one MsgRing per driver
 * (RUN_SPEC_KEY_MSGS), written and read by the TxLogRing's protocol above.
 * A message is one line or a few (a server's notice with its DETAIL), cut
 * to RUN_MSG_LEN - 1 bytes at a character boundary.
 */
#define RUN_MSG_RING			256		/* messages per driver */
#define RUN_MSG_LEN				1024	/* bytes per message, with its NUL: 256 kB */

typedef enum MsgKind
{
	MSG_DEBUG = 0,				/* debug(): printed as it is */
	MSG_ERROR,					/* pg_log_error: "pgbench: error: " */
	MSG_INFO,					/* pg_log_info: "pgbench: " */
	MSG_NOTICE					/* libpq's notice: printed as it is */
} MsgKind;

typedef struct MsgRecord
{
	int32		client;			/* global client number */
	int16		kind;			/* MsgKind */
	char		text[RUN_MSG_LEN];
} MsgRecord;

typedef struct MsgRing
{
	pg_atomic_uint64 written;	/* messages 0..written-1 have been written */
	MsgRecord	records[RUN_MSG_RING];
} MsgRing;

/* totals a driver counts beyond the per-second series */
typedef struct DriverCounts
{
	uint64		serialization_failures;
	uint64		deadlock_failures;
	uint64		retried;		/* transactions that needed a retry */
	uint64		retries;		/* retries in all */
	uint64		skipped;		/* -R with -L: too late to start */
	uint64		late;			/* latency above -L */
	uint64		lag_count;		/* -R: schedule lag of started transactions */
	double		lag_sum_usec;
	int64		lag_max_usec;
	uint64		reconnects;		/* -C: connections made after the first */
	int64		reconnect_usec; /* -C: time spent connecting */
	uint64		notices;		/* notices and warnings the server sent */
} DriverCounts;

/*
 * pgbench's per-script block (several scripts): the transactions of one
 * script of the mix, counted where its transaction ends (skipped ones where
 * -R skips them, for the script already chosen, as pgbench does).
 */
typedef struct ScriptCounts
{
	uint64		transactions;	/* successful */
	uint64		failed;			/* of which: */
	uint64		serialization_failures;
	uint64		deadlock_failures;	/* the rest are other failures
									 * (continue_on_error) */
	uint64		retried;
	uint64		retries;
	uint64		skipped;
	double		latency_sum_usec;	/* of the successful ones */
	double		latency_sum2_usec;
} ScriptCounts;

/* per-statement latencies (pgbench -r), one array per driver */
typedef struct CommandStats
{
	uint64		executions;		/* timed completions */
	uint64		sum_usec;
	uint64		failures;		/* serialization/deadlock failures here */
	uint64		retries;
} CommandStats;

/* a driver's life, in order */
typedef enum DriverState
{
	DRIVER_STARTING = 0,		/* registered, not yet attached */
	DRIVER_CONNECTING,			/* opening its clients' connections */
	DRIVER_READY,				/* all connected, waiting for go */
	DRIVER_RUNNING,				/* benchmarking */
	DRIVER_DONE,				/* finished, totals final */
	DRIVER_FAILED				/* error text in error[] */
} DriverState;

typedef struct DriverShared
{
	pg_atomic_uint32 state;		/* DriverState */
	int			procno;			/* for SetLatch by the coordinator */
	int			first_client;	/* index of its first client in the step (from 0) */
	int			nclients;

	/* connection phase */
	int64		conn_usec_total;	/* summed over its clients */

	/* per-second series */
	pg_atomic_uint64 seconds_published; /* seconds 0..n-1 are in the ring */
	pg_atomic_uint64 seconds_consumed;	/* read by the coordinator */
	stats_second ring[RUN_SECOND_RING];	/* ring_len of them used */
	stats_run	total;			/* every published second, added before it is */

	/* live counters (progress), written by the driver only */
	pg_atomic_uint64 transactions;

	/* final, valid in DRIVER_DONE or DRIVER_FAILED */
	DriverCounts counts;
	int			aborted_clients;
	double		cpu_seconds;	/* user + system */
	int64		bench_end_usec; /* when its last client finished */
	char		error[RUN_ERROR_LEN];

	/* the first notices its clients received (counts.notices counts all) */
	int			nnotice_samples;
	char		notice_samples[RUN_NOTICE_SAMPLES][RUN_NOTICE_LEN];

	/* final: per script of the mix, in its order (pgbenchx.report) */
	ScriptCounts script_counts[SCRIPT_MAX_SCRIPTS];
} DriverShared;

/*
 * The step's header, under RUN_SPEC_KEY_SHARED in the step's segment (its
 * shm_toc, run_spec.h), next to the run's RunSpec, its payload and the
 * drivers' CommandStats.  The few spec values the clients' loop reads on
 * every transaction are repeated here, beside the control words.
 */
typedef struct RunShared
{
	int64		run_id;
	int			coordinator_procno;

	/* the step */
	int			nclients;
	int			njobs;
	int			ring_len;		/* slots of each driver's ring in use */
	int			first_client;	/* global number of client 0 (a part's first_client) */
	int			total_clients;	/* of the whole run; nclients but for a part */

	/* of the RunSpec, for the clients' loop */
	int			duration;		/* seconds; 0 when transactions is used */
	int64		transactions;	/* per client; 0 when duration is used */
	RunProtocol protocol;
	RunKnobs	knobs;

	/* control, written by the coordinator */
	TimestampTz bench_start;	/* valid once go is set */
	pg_atomic_uint32 go;
	pg_atomic_uint32 stop;

	/*
	 * log_transactions: sessions that read the log (txlog.c), and those of
	 * them that have had a call after every driver was done (they hold the
	 * last records); the coordinator keeps the segment after the run until
	 * the two are equal, or for at most 5 s
	 */
	pg_atomic_uint32 txlog_readers;
	pg_atomic_uint32 txlog_finished;
	/* client_messages: the same for the readers of the messages */
	pg_atomic_uint32 msg_readers;
	pg_atomic_uint32 msg_finished;

	DriverShared drivers[FLEXIBLE_ARRAY_MEMBER];
} RunShared;

/* what the coordinator is doing, as pgbenchx.progress's phase */
typedef enum RunPhase
{
	RUN_PHASE_NONE = 0,
	RUN_PHASE_MAINTENANCE,		/* vacuum, truncate, check_tpcb's sums */
	RUN_PHASE_CHECKPOINT,
	RUN_PHASE_CONNECTING,		/* the drivers open their clients' connections */
	RUN_PHASE_MEASURING,		/* the measured interval */
	RUN_PHASE_FINISHING,		/* the drivers' totals, the rows stored */
	RUN_PHASE_READY				/* a part: connected, waiting for its go (part.c) */
} RunPhase;

/*
 * The run in progress, in the main shared memory (one per cluster: one run
 * at a time, and a second place for a part running beside it on its
 * recorder's server, part.c), found by name with ShmemInitStruct (progress.c).  Written by
 * the coordinator only, read by any session, both under the spinlock.  Valid
 * while coordinator_pid is a live coordinator.  The expected end is computed
 * by the reader from the times below, so that it stays true while a phase
 * lasts longer than expected (a vacuum waiting on a lock).
 */
typedef struct RunProgress
{
	slock_t		mutex;
	int			coordinator_pid;	/* 0: no run */
	int64		sweep_id;		/* 0 for a lone run */
	int64		run_id;			/* the step's run */
	RunPhase	phase;
	int			step;			/* 1-based; a lone run is step 1 of 1 */
	int			steps;
	int			clients;
	int			duration;		/* s; 0: bounded by transactions */
	TimestampTz step_start;		/* the step's phases began */
	TimestampTz measure_start;
	TimestampTz finish_start;
	double		fraction;		/* by transactions: the share done ... */
	TimestampTz fraction_at;	/* ... at this time; 0 unknown */
	bool		known;			/* a step has finished, and spent: */
	double		pre_s;			/* this long before its measured interval */
	double		post_s;			/* and this long after it */
	char		cancelled_by[NAMEDATALEN];	/* the role whose pgbenchx.cancel
											 * reached us; "" none */
	uint32		step_segment;	/* the step's DSM handle while its drivers
								 * may log transactions or messages
								 * (txlog.c); 0 none */
	bool		keeping_records;	/* the run is over: its coordinator only
									 * waits for a reader of its records */
} RunProgress;

#endif							/* PGBENCHX_RUN_SHMEM_H */
