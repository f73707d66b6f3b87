/*-------------------------------------------------------------------------
 *
 * sysrecord.h
 *	  The per-second readings of a run (issue 13) and their rows in
 *	  pgbenchx.system_samples: what the machine and the server did in each
 *	  second of the measured interval.  Every column but backend_cpu_s
 *	  (written by the wait sampler) comes from here.
 *
 * The coordinator calls it at a few points of a step, nothing more (for
 * every kind of step, through coordinator.h's readings):
 *	- sysrecord_begin, once the drivers are ready (their pids are known),
 *	  or the parts of a run driven from generators have their go:
 *	  finds the devices, allocates everything the run will need;
 *	- sysrecord_baseline, where coordinator_go sets bench_start, before the
 *	  drivers are let go: reading 0;
 *	- sysrecord_tick, at every wake-up of the measure loop, before it
 *	  collects the seconds: once second boundary k (bench_start + k s) has
 *	  passed it takes reading k, at most one wake-up late, and stores the
 *	  time it was actually taken;
 *	- sysrecord_end, when the measure loop is over: the end reading;
 *	- sysrecord_write, whenever the coordinator has written the samples row
 *	  of second s: the system_samples row of s, from readings s - 1 and s
 *	  (the end reading for the run's last second), by INSERT ... ON
 *	  CONFLICT (run_id, second) DO UPDATE SET of our columns only;
 *	- sysrecord_finish: runs.system_notes, and the memory freed.
 * With record_system => false sysrecord_begin returns NULL and every other
 * call does nothing: no row is written.
 *
 * Counters are cumulative; a row holds the difference between two
 * readings, over the time between them (~1 s, but up to a wake-up more or
 * less), so the rows of a run add up exactly to the difference between
 * the baseline and the end reading.  Fractions, averages and queue depths
 * are over the readings' actual interval.  The readings wait in a ring of
 * ring_len + 2 slots (the samples ring's length): a coordinator late by
 * more than a second leaves seconds without a reading, whose figures are
 * NULL (system_notes says so).
 *
 * Where the figures come from:
 *	- machine CPU: /proc/stat (kern.cp_time on the BSDs, which count no
 *	  iowait nor steal: those are NULL there), as shares of the interval;
 *	- disks: /proc/diskstats of the devices holding DataDir and
 *	  DataDir/pg_wal (stat follows the symlink); await_ms is (read ms +
 *	  write ms) / (reads + writes), 0 when there was no operation, as
 *	  iostat shows it; queue is weighted ms / interval ms.  A directory on a
 *	  file system with no block device (tmpfs, overlay) has NULL figures;
 *	- driver CPU: /proc/PID/stat of the driver workers; a driver that is
 *	  done counts its own final getrusage (DriverShared.cpu_seconds), so
 *	  the rows add up to runs.driver_cpu_s;
 *	- pg_stat_wal, pg_stat_database (the run's database),
 *	  pg_stat_bgwriter and pg_stat_checkpointer, and pg_stat_io for what
 *	  17 and 18 moved there (buffers_backend from 17, wal_write and
 *	  wal_sync from 18: pg_compat.h says which cells mean what they meant)
 *	  through the server's C API (pgstat_fetch_stat_*), the snapshot
 *	  cleared before each reading; stats_fetch_consistency =
 *	  snapshot would copy every statistic each second, so the coordinator
 *	  reads with cache instead;
 *	- checkpoints: begun when the redo pointer of the checkpoint in progress
 *	  (GetRedoRecPtr, set as a checkpoint starts) moves, done when the redo
 *	  pointer of pg_control's last checkpoint (GetOldestRestartPoint, set
 *	  as a checkpoint ends) moves, both polled at every wake-up of the
 *	  measure loop.  pg_stat_bgwriter's checkpoints_timed/req were rejected:
 *	  the checkpointer flushes them when it gets round to it, often only at
 *	  the checkpoint's end, so they say neither when it began nor ended.
 *
 * What the server's counters cannot show at 1 s resolution: a backend
 * flushes its pending statistics (WAL, blocks, temp bytes) at most once a
 * second (PGSTAT_MIN_INTERVAL) when it goes idle, and at its exit, so a
 * second's pg_stat figures are what was flushed in it: work of up to a
 * second earlier, lumpy from second to second, exact only summed over a
 * run.  To keep the run's total, the end reading of these counters waits
 * (at most 2 s) until the clients' backends have exited and so flushed
 * everything.  The checkpointer's and bgwriter's counters are flushed by
 * them at their own pace; so is buffers_backend until 16, which the
 * checkpointer counts as it absorbs the other processes' sync requests (at
 * a checkpoint, or once its queue, NBuffers long, is half full), where 17's
 * pg_stat_io has each process flush its own.  The /proc figures have no
 * such delay.
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_SYSRECORD_H
#define PGBENCHX_SYSRECORD_H

#include "postmaster/bgworker.h"
#include "utils/timestamp.h"

#include "run_shmem.h"
#include "run_spec.h"

typedef struct SysRecord SysRecord;

/*
 * ring_len: the seconds of readings kept (the samples ring's); run, handles
 * and njobs: the step's local drivers, NULL, NULL and 0 for a step without
 * any (a run driven from generators).
 */
extern SysRecord *sysrecord_begin(const RunSpec *spec, int64 run_id, int ring_len,
								  RunShared *run, BackgroundWorkerHandle **handles, int njobs);
extern void sysrecord_baseline(SysRecord *rec, TimestampTz bench_start);
extern void sysrecord_tick(SysRecord *rec);
extern void sysrecord_end(SysRecord *rec);
extern void sysrecord_write(SysRecord *rec, int second, double covered_s, bool last);
extern void sysrecord_finish(SysRecord *rec);

#endif							/* PGBENCHX_SYSRECORD_H */
