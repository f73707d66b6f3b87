/*-------------------------------------------------------------------------
 *
 * waitsample.h
 *	  The wait sampler: what the run's client backends were doing, read by
 *	  the coordinator from the server's own process state many times a
 *	  second while a run measures (the time model Oracle users call ASH),
 *	  and the client backends' CPU time per second.  Only with
 *	  record_system.
 *
 * The drivers publish each client's backend pid in the step segment
 * (run_spec.h, RUN_SPEC_KEY_CLIENT_PIDS).  On each tick (each wake-up of
 * the coordinator's measure loop, every 10 ms) the sampler reads every
 * published backend's PGPROC->wait_event_info once, without a lock, as
 * pg_stat_activity does (racy by design), and counts it for the current
 * second of the measured interval per wait event: 0 counts as ('CPU',
 * 'on CPU'); a backend idle waiting for its client counts as
 * Client:ClientRead, as the server reports it.  At each second boundary it
 * reads /proc/PID/stat of every published backend (sysstat.c) and keeps
 * the sum of the deltas for that second.
 *
 * Cost per tick, with C clients: one GetCurrentTimestamp, C atomic reads
 * of the pids, C unlocked 4-byte reads of PGPROCs (a PGPROC is looked up
 * with BackendPidGetProc, under ProcArrayLock, only when a client's pid
 * changed or its backend was not found), and a linear search of at most WAITSAMPLE_MAX_EVENTS entries
 * per client: no allocation, no lock, no system call but the clock; on
 * this 2-core machine about 100 Hz was achieved with 4 clients
 * (test/t/046).  Once a second, C reads of /proc/PID/stat.  A CPU reading
 * that a late tick takes after a skipped second counts in the second it
 * started.
 *
 * The counts of a second wait in a ring of ring_len slots (as the samples
 * ring) until the coordinator writes that second's samples row; then one
 * INSERT writes all of its events into pgbenchx.wait_samples and one
 * upsert its backend_cpu_s into pgbenchx.system_samples (results.c).  A
 * second the coordinator could not write in time is lost here too.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_WAITSAMPLE_H
#define PGBENCHX_WAITSAMPLE_H

#include "port/atomics.h"
#include "utils/timestamp.h"

/* distinct events kept per second; more count as one overflow entry */
#define WAITSAMPLE_MAX_EVENTS	48
/* the interval between ticks, ms */
#define WAITSAMPLE_TICK_MS		10

typedef struct WaitSampler WaitSampler;

/* at go: pids is the step segment's array of nclients backend pids */
/* duration: the run's seconds, 0 when it is bounded by transactions */
extern WaitSampler *waitsample_start(int64 run_id, pg_atomic_uint32 *pids, int nclients,
									 TimestampTz bench_start, int ring_len,
									 bool connect_per_transaction, int duration);
/* one sample of every client; call on each wake-up while measuring */
extern void waitsample_tick(WaitSampler *ws);
/* how long to sleep until the next tick is due, ms */
extern long waitsample_timeout_ms(WaitSampler *ws);
/* the measured interval ended: the last second's CPU reading */
extern void waitsample_end(WaitSampler *ws);
/* second sec (0-based) of the samples was written: write its waits and CPU */
extern void waitsample_write_second(WaitSampler *ws, uint64 sec, double span_s);
/* runs.wait_sample_hz and the notes; frees the sampler */
extern void waitsample_finish(WaitSampler *ws, int64 measured_usec);

#endif							/* PGBENCHX_WAITSAMPLE_H */
