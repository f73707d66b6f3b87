/*-------------------------------------------------------------------------
 *
 * sysrecord.c
 *	  The per-second readings of a run and their pgbenchx.system_samples
 *	  rows (sysrecord.h says when the coordinator calls what, and where
 *	  each figure comes from).  Owns: the readings (machine CPU, the data
 *	  and WAL devices, driver CPU, pg_stat_wal, pg_stat_database,
 *	  pg_stat_bgwriter and, from 17, pg_stat_io (pg_compat.h),
 *	  checkpoints), their ring, the rows and
 *	  runs.system_notes.
 *
 * A reading allocates nothing that outlives it: the statistics the server
 * copies out are in a memory context reset after each reading, and the
 * ring is allocated once, at the start of the run.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "catalog/pg_type.h"
#include "miscadmin.h"
#include "pgstat.h"
#include "storage/latch.h"
#include "utils/array.h"
#include "utils/backend_status.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "pg_compat.h"
#include "results.h"
#include "sysrecord.h"
#include "sysstat.h"

#define SYSRECORD_MAX_NOTES		12
#define SYSRECORD_NOTE_LEN		(SYSSTAT_REASON_LEN + 96)
/* how long the end reading of the server's counters waits for the clients to exit */
#define SYSRECORD_SETTLE_USEC	(2 * USECS_PER_SEC)
/* the clients' application_name: "pgbenchx client N", or through a conninfo naming a host "pgbenchx client" */
#define SYSRECORD_CLIENT_APPNAME "pgbenchx client"

/* one reading: cumulative counters, as read at "at" */
typedef struct SysReading
{
	int64		k;				/* second boundary it belongs to; -1: none */
	TimestampTz at;
	bool		cpu_ok;
	SysCpu		cpu;
	bool		data_ok;
	SysDisk		data;
	bool		wal_ok;
	SysDisk		wal;
	bool		driver_ok;
	double		driver_s;
	bool		walstat_ok;
	int64		wal_records;
	int64		wal_fpi;
	int64		wal_bytes;
	int64		wal_write;
	int64		wal_sync;
	bool		db_ok;
	int64		blks_hit;
	int64		blks_read;
	int64		temp_bytes;
	int64		deadlocks;
	bool		bgw_ok;
	int64		buffers_checkpoint;
	int64		buffers_clean;
	int64		buffers_backend;
	int64		ckpt_begun;
	int64		ckpt_done;
} SysReading;

struct SysRecord
{
	int64		run_id;
	Oid			dboid;
	RunShared  *run;
	BackgroundWorkerHandle **handles;
	int			njobs;
	bool		shared_server;	/* a part beside its recorder's run (part.c) */
	double	   *driver_last;	/* per driver: the last CPU seconds seen */
	bool	   *driver_seen;
	long		hz;
	MemoryContext cxt;			/* everything of the run's readings */
	MemoryContext tmp;			/* reset after each reading */
	bool		data_dev_ok;
	unsigned int data_major,
				data_minor;
	bool		wal_dev_ok;
	unsigned int wal_major,
				wal_minor;
	bool		same_dev;
	TimestampTz bench_start;
	int			nslots;
	SysReading *slots;			/* reading k in slot k % nslots */
	int64		last_k;
	bool		have_end;
	SysReading	end;
	XLogRecPtr	redo;			/* of the checkpoint in progress or last begun */
	XLogRecPtr	ckpt_redo;		/* of pg_control's last checkpoint */
	int64		begun;
	int64		done;
	bool		late;			/* a boundary went without a reading */
	char	   *sql;
	int			nnotes;
	char		notes[SYSRECORD_MAX_NOTES][SYSRECORD_NOTE_LEN];
};

/* our columns of pgbenchx.system_samples, in the order of the parameters from $3 */
static const char *const sysrecord_columns[] = {
	"covered_s", "cpu_user", "cpu_system", "cpu_iowait", "cpu_steal", "cpu_idle",
	"driver_cpu_s",
	"data_reads", "data_read_bytes", "data_writes", "data_write_bytes", "data_await_ms", "data_queue",
	"wal_reads", "wal_read_bytes", "wal_writes", "wal_write_bytes", "wal_await_ms", "wal_queue",
	"wal_records", "wal_fpi", "wal_bytes", "wal_write", "wal_sync",
	"blks_hit", "blks_read", "temp_bytes", "deadlocks",
	"buffers_checkpoint", "buffers_clean", "buffers_backend",
	"checkpoints_begun", "checkpoints_done"
};
#define SYSRECORD_NCOLS lengthof(sysrecord_columns)

#if defined(__GNUC__)
static void sysrecord_note(SysRecord *rec, const char *fmt,...) __attribute__((format(printf, 2, 3)));
#endif

/* a reason for a NULL, once per run */
static void
sysrecord_note(SysRecord *rec, const char *fmt,...)
{
	char		buf[SYSRECORD_NOTE_LEN];
	va_list		ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (int i = 0; i < rec->nnotes; i++)
		if (strcmp(rec->notes[i], buf) == 0)
			return;
	if (rec->nnotes < SYSRECORD_MAX_NOTES)
		strlcpy(rec->notes[rec->nnotes++], buf, SYSRECORD_NOTE_LEN);
}

/*
 * Checkpoints: begun when the redo pointer of the one in progress moves
 * (it is set as a checkpoint starts), done when pg_control's moves (set as
 * it ends).  Polled at every wake-up of the measure loop.
 */
static void
sysrecord_poll_checkpoints(SysRecord *rec, bool count)
{
	XLogRecPtr	redo = GetRedoRecPtr();
	XLogRecPtr	ckpt_redo;
	TimeLineID	tli;

	GetOldestRestartPoint(&ckpt_redo, &tli);
	if (count && redo != rec->redo)
		rec->begun++;
	if (count && ckpt_redo != rec->ckpt_redo)
		rec->done++;
	rec->redo = redo;
	rec->ckpt_redo = ckpt_redo;
}

/*
 * The drivers' CPU seconds: /proc/PID/stat while they run, their own
 * getrusage once they are done (final), the last value seen once they are
 * gone.  Complete only if every driver was seen at least once.
 */
static void
sysrecord_read_drivers(SysRecord *rec, SysReading *r, bool final)
{
	char		reason[SYSSTAT_REASON_LEN];
	bool		failed = false;

	r->driver_s = 0;
	/* no drivers here (a recorder's run: they are the generators'): unknown, not 0 */
	r->driver_ok = rec->njobs > 0;
	for (int i = 0; i < rec->njobs; i++)
	{
		DriverShared *d = &rec->run->drivers[i];
		pid_t		pid;
		uint64_t	utime,
					stime;

		if (final && pg_atomic_read_u32(&d->state) == DRIVER_DONE)
		{
			pg_read_barrier();
			rec->driver_last[i] = Max(rec->driver_last[i], d->cpu_seconds);
			rec->driver_seen[i] = true;
		}
		else if (rec->handles[i] &&
				 GetBackgroundWorkerPid(rec->handles[i], &pid) == BGWH_STARTED)
		{
			if (sysstat_read_proc_cpu(pid, &utime, &stime, reason))
			{
				rec->driver_last[i] = Max(rec->driver_last[i],
										  (double) (utime + stime) / rec->hz);
				rec->driver_seen[i] = true;
			}
			else
				failed = true;
		}
		if (!rec->driver_seen[i])
			r->driver_ok = false;
		r->driver_s += rec->driver_last[i];
	}
	if (!r->driver_ok && failed)
		sysrecord_note(rec, "driver CPU: %s", reason);
}

/* the operating system's counters */
static void
sysrecord_read_os(SysRecord *rec, SysReading *r, bool final)
{
	char		reason[SYSSTAT_REASON_LEN];

	r->cpu_ok = sysstat_read_cpu(&r->cpu, reason);
	if (!r->cpu_ok)
		sysrecord_note(rec, "machine CPU: %s", reason);
	else if (r->cpu.no_iowait_steal)
		sysrecord_note(rec, "machine CPU: the system counts no iowait nor steal time (kern.cp_time)");
	r->data_ok = rec->data_dev_ok &&
		sysstat_read_disk(rec->data_major, rec->data_minor, &r->data, reason);
	if (rec->data_dev_ok && !r->data_ok)
		sysrecord_note(rec, "data directory's device: %s", reason);
	if (rec->same_dev)
	{
		r->wal_ok = r->data_ok;
		r->wal = r->data;
	}
	else
	{
		r->wal_ok = rec->wal_dev_ok &&
			sysstat_read_disk(rec->wal_major, rec->wal_minor, &r->wal, reason);
		if (rec->wal_dev_ok && !r->wal_ok)
			sysrecord_note(rec, "pg_wal's device: %s", reason);
	}
	sysrecord_read_drivers(rec, r, final);
}

/*
 * The server's cumulative statistics, through its C API (never SQL): the
 * snapshot is cleared first so that every reading is fresh, and what
 * stats_fetch_consistency = none copies out is freed with rec->tmp.
 */
static void
sysrecord_read_server(SysRecord *rec, SysReading *r)
{
	MemoryContext old = MemoryContextSwitchTo(rec->tmp);

	pgstat_clear_snapshot();
	{
		PgStat_WalStats *w = pgstat_fetch_stat_wal();
		PgStat_StatDBEntry *db = pgstat_fetch_stat_dbentry(rec->dboid);

		r->walstat_ok = w != NULL;
		if (w)
		{
			r->wal_records = PGX_WALSTAT(w, wal_records);
			r->wal_fpi = PGX_WALSTAT(w, wal_fpi);
			r->wal_bytes = (int64) PGX_WALSTAT(w, wal_bytes);
			pgx_wal_write_sync(w, &r->wal_write, &r->wal_sync);
		}
		r->db_ok = db != NULL;
		if (db)
		{
			r->blks_hit = PGX_DBSTAT(db, blocks_hit);
			r->blks_read = PGX_DBSTAT(db, blocks_fetched) - PGX_DBSTAT(db, blocks_hit);
			r->temp_bytes = PGX_DBSTAT(db, temp_bytes);
			r->deadlocks = PGX_DBSTAT(db, deadlocks);
		}
		else
			sysrecord_note(rec, "pg_stat_database: the run's database has no statistics");
	}
	r->bgw_ok = pgx_bgwriter_buffers(&r->buffers_clean, &r->buffers_checkpoint,
									 &r->buffers_backend);
	pgstat_clear_snapshot();
	MemoryContextSwitchTo(old);
	MemoryContextReset(rec->tmp);
}

static void
sysrecord_read(SysRecord *rec, SysReading *r, int64 k, TimestampTz at)
{
	r->k = k;
	r->at = at;
	sysrecord_read_os(rec, r, false);
	sysrecord_read_server(rec, r);
	r->ckpt_begun = rec->begun;
	r->ckpt_done = rec->done;
}

SysRecord *
sysrecord_begin(const RunSpec *spec, int64 run_id, int ring_len, RunShared *run,
				BackgroundWorkerHandle **handles, int njobs)
{
	MemoryContext cxt;
	MemoryContext old;
	SysRecord  *rec;
	char		reason[SYSSTAT_REASON_LEN];
	char	   *waldir;
	StringInfoData sql;

	if (!spec->record_system)
		return NULL;
	cxt = AllocSetContextCreate(TopMemoryContext, "pgbenchx system readings",
								ALLOCSET_SMALL_SIZES);
	old = MemoryContextSwitchTo(cxt);
	rec = palloc0(sizeof(SysRecord));
	rec->cxt = cxt;
	rec->tmp = AllocSetContextCreate(cxt, "pgbenchx system reading", ALLOCSET_SMALL_SIZES);
	rec->run_id = run_id;
	rec->dboid = spec->dboid;
	rec->run = run;
	rec->handles = handles;
	rec->njobs = njobs;
	rec->shared_server = spec->part_unlocked;
	if (rec->shared_server)
		sysrecord_note(rec, "another run (the recorder's, whose part this is) measured on this server at the same time: the machine's and the server's figures are theirs together");
	rec->driver_last = palloc0(sizeof(double) * Max(njobs, 1));
	rec->driver_seen = palloc0(sizeof(bool) * Max(njobs, 1));
	rec->hz = sysstat_ticks_per_second();
	rec->nslots = ring_len + 2;
	rec->slots = palloc0(sizeof(SysReading) * rec->nslots);
	for (int i = 0; i < rec->nslots; i++)
		rec->slots[i].k = -1;
	rec->last_k = -1;

	rec->data_dev_ok = sysstat_device_of(DataDir, &rec->data_major, &rec->data_minor, reason);
	if (!rec->data_dev_ok)
		sysrecord_note(rec, "data directory's device: %s", reason);
	waldir = psprintf("%s/" XLOGDIR, DataDir);
	rec->wal_dev_ok = sysstat_device_of(waldir, &rec->wal_major, &rec->wal_minor, reason);
	if (!rec->wal_dev_ok)
		sysrecord_note(rec, "pg_wal's device: %s", reason);
	rec->same_dev = rec->data_dev_ok && rec->wal_dev_ok &&
		rec->data_major == rec->wal_major && rec->data_minor == rec->wal_minor;

	/*
	 * snapshot would copy every statistic of the server at each reading:
	 * the coordinator reads with cache, cleared before each reading
	 */
	if (pgstat_fetch_consistency == PGSTAT_FETCH_CONSISTENCY_SNAPSHOT)
		SetConfigOption("stats_fetch_consistency", "cache", PGC_USERSET, PGC_S_SESSION);
	sysrecord_poll_checkpoints(rec, false);

	initStringInfo(&sql);
	appendStringInfoString(&sql, "INSERT INTO pgbenchx.system_samples (run_id, second");
	for (int i = 0; i < (int) SYSRECORD_NCOLS; i++)
		appendStringInfo(&sql, ", %s", sysrecord_columns[i]);
	appendStringInfoString(&sql, ") VALUES ($1, $2");
	for (int i = 0; i < (int) SYSRECORD_NCOLS; i++)
		appendStringInfo(&sql, ", $%d", i + 3);
	appendStringInfoString(&sql, ") ON CONFLICT (run_id, second) DO UPDATE SET ");
	for (int i = 0; i < (int) SYSRECORD_NCOLS; i++)
		appendStringInfo(&sql, "%s%s = EXCLUDED.%s", i ? ", " : "",
						 sysrecord_columns[i], sysrecord_columns[i]);
	rec->sql = sql.data;
	MemoryContextSwitchTo(old);
	return rec;
}

/* reading 0, at bench_start, before the drivers are let go */
void
sysrecord_baseline(SysRecord *rec, TimestampTz bench_start)
{
	if (rec == NULL)
		return;
	rec->bench_start = bench_start;
	sysrecord_read(rec, &rec->slots[0], 0, bench_start);
	rec->last_k = 0;
}

/* at every wake-up of the measure loop: reading k once boundary k has passed */
void
sysrecord_tick(SysRecord *rec)
{
	TimestampTz now;
	int64		k;

	if (rec == NULL || rec->last_k < 0)
		return;
	sysrecord_poll_checkpoints(rec, true);
	now = GetCurrentTimestamp();
	k = (now - rec->bench_start) / USECS_PER_SEC;
	if (k <= rec->last_k)
		return;
	if (k > rec->last_k + 1)
		rec->late = true;
	sysrecord_read(rec, &rec->slots[k % rec->nslots], k, now);
	rec->last_k = k;
}

/* is a backend of the run's clients still there (their statistics unflushed)? */
static bool
sysrecord_clients_left(void)
{
	int			n;

	pgstat_clear_snapshot();
	n = pgstat_fetch_stat_numbackends();
	for (int i = 1; i <= n; i++)
	{
		LocalPgBackendStatus *l = pgx_local_beentry(i);

		if (l && l->backendStatus.st_appname &&
			strncmp(l->backendStatus.st_appname, SYSRECORD_CLIENT_APPNAME,
					strlen(SYSRECORD_CLIENT_APPNAME)) == 0)
			return true;
	}
	return false;
}

/*
 * The end reading, when the measure loop is over: the operating system's
 * counters at once; the server's once the clients' backends have exited
 * (at most SYSRECORD_SETTLE_USEC), having flushed their statistics.
 */
void
sysrecord_end(SysRecord *rec)
{
	TimestampTz deadline;
	SysReading *r;
	bool		left = false;

	if (rec == NULL || rec->last_k < 0)
		return;
	r = &rec->end;
	sysrecord_poll_checkpoints(rec, true);
	r->k = -1;
	r->at = GetCurrentTimestamp();
	sysrecord_read_os(rec, r, true);
	deadline = r->at + SYSRECORD_SETTLE_USEC;
	/* beside another run, its clients stay: do not wait for them */
	while (!rec->shared_server && (left = sysrecord_clients_left()) && GetCurrentTimestamp() < deadline)
	{
		(void) WaitLatch(MyLatch, WL_LATCH_SET | WL_TIMEOUT | WL_EXIT_ON_PM_DEATH,
						 10, PG_WAIT_EXTENSION);
		ResetLatch(MyLatch);
		CHECK_FOR_INTERRUPTS();
	}
	if (left)
		sysrecord_note(rec, "the clients' backends had not all exited %d s after the run: the last second's pg_stat figures may lack what they had not flushed",
					   (int) (SYSRECORD_SETTLE_USEC / USECS_PER_SEC));
	sysrecord_read_server(rec, r);
	sysrecord_poll_checkpoints(rec, true);
	r->ckpt_begun = rec->begun;
	r->ckpt_done = rec->done;
	rec->have_end = true;
}

/* the row's parameters */
typedef struct SysRow
{
	int			n;
	Oid			types[SYSRECORD_NCOLS + 2];
	Datum		values[SYSRECORD_NCOLS + 2];
	char		nulls[SYSRECORD_NCOLS + 2];
} SysRow;

static void
sysrow_add(SysRow *row, Oid type, Datum value, bool isnull)
{
	row->types[row->n] = type;
	row->values[row->n] = isnull ? (Datum) 0 : value;
	row->nulls[row->n] = isnull ? 'n' : ' ';
	row->n++;
}

static void
sysrow_f8(SysRow *row, double v, bool ok)
{
	sysrow_add(row, FLOAT8OID, Float8GetDatum(v), !ok || isnan(v) || isinf(v));
}

/* a counter's difference; NULL if it went back (statistics reset in the run) */
static void
sysrow_delta(SysRecord *rec, SysRow *row, int64 a, int64 b, bool ok)
{
	if (ok && b < a)
	{
		sysrecord_note(rec, "a server statistics counter went back during the run (pg_stat_reset?): its second is NULL");
		ok = false;
	}
	sysrow_add(row, INT8OID, Int64GetDatum(b - a), !ok);
}

static void
sysrow_disk(SysRow *row, const SysDisk *a, const SysDisk *b, bool ok, double interval_ms)
{
	uint64		ops = ok ? (b->reads - a->reads) + (b->writes - a->writes) : 0;
	uint64		ms = ok ? (b->read_ms - a->read_ms) + (b->write_ms - a->write_ms) : 0;

	/* a device's counters go back only if it was removed and added again */
	if (ok && (b->reads < a->reads || b->writes < a->writes ||
			   b->read_bytes < a->read_bytes || b->write_bytes < a->write_bytes ||
			   b->weighted_ms < a->weighted_ms))
		ok = false;
	sysrow_add(row, INT8OID, Int64GetDatum((int64) (b->reads - a->reads)), !ok);
	sysrow_add(row, INT8OID, Int64GetDatum((int64) (b->read_bytes - a->read_bytes)), !ok);
	sysrow_add(row, INT8OID, Int64GetDatum((int64) (b->writes - a->writes)), !ok);
	sysrow_add(row, INT8OID, Int64GetDatum((int64) (b->write_bytes - a->write_bytes)), !ok);
	/* as iostat: no operation, no time waited */
	sysrow_f8(row, ops > 0 ? (double) ms / ops : 0.0, ok);
	sysrow_f8(row, (double) (b->weighted_ms - a->weighted_ms) / interval_ms,
			  ok && interval_ms > 0);
}

/*
 * The row of second s (1-based), once the coordinator has written its
 * samples row: readings s - 1 and s, or the end reading for the run's last
 * second.  Without them (a coordinator late by more than a second) its
 * figures are NULL.
 */
void
sysrecord_write(SysRecord *rec, int second, double covered_s, bool last)
{
	SysRow		row = {0};
	const SysReading *a;
	const SysReading *b = NULL;
	static const SysReading none;
	bool		ok;
	SysCpuShare share = {0};
	bool		cpu_ok;
	double		interval_ms;

	if (rec == NULL)
		return;

	/*
	 * The drivers published this second between our tick and the
	 * coordinator's collect: its boundary has passed, read it now.
	 */
	if (!last && !rec->have_end && rec->last_k >= 0 && rec->last_k < second)
	{
		if (rec->last_k < second - 1)
			rec->late = true;
		sysrecord_read(rec, &rec->slots[second % rec->nslots], second, GetCurrentTimestamp());
		rec->last_k = second;
	}
	a = &rec->slots[(second - 1) % rec->nslots];
	if (a->k != second - 1)
		a = NULL;
	if (last)
		b = rec->have_end ? &rec->end : NULL;
	else if (rec->slots[second % rec->nslots].k == second)
		b = &rec->slots[second % rec->nslots];
	ok = a != NULL && b != NULL;
	if (!ok)
	{
		rec->late = true;
		a = b = &none;
	}
	interval_ms = (double) (b->at - a->at) / 1000.0;

	sysrow_add(&row, INT8OID, Int64GetDatum(rec->run_id), false);
	sysrow_add(&row, INT4OID, Int32GetDatum(second), false);
	sysrow_f8(&row, covered_s, true);
	cpu_ok = ok && a->cpu_ok && b->cpu_ok && sysstat_cpu_share(&a->cpu, &b->cpu, &share);
	/*
	 * /proc/stat counts CPU time in clock ticks (1/100 s): a last second cut
	 * short to a few milliseconds may see none pass, and has no shares.
	 */
	if (ok && a->cpu_ok && b->cpu_ok && !cpu_ok)
		sysrecord_note(rec, last && covered_s < 1.0
					   ? "the last second was cut short to less than /proc/stat's clock tick: its CPU shares are NULL"
					   : "the CPU counters of /proc/stat went back: the second's CPU shares are NULL");
	sysrow_f8(&row, share.user, cpu_ok);
	sysrow_f8(&row, share.system, cpu_ok);
	sysrow_f8(&row, share.iowait, cpu_ok && !b->cpu.no_iowait_steal);
	sysrow_f8(&row, share.steal, cpu_ok && !b->cpu.no_iowait_steal);
	sysrow_f8(&row, share.idle, cpu_ok);
	sysrow_f8(&row, b->driver_s - a->driver_s, ok && a->driver_ok && b->driver_ok);
	sysrow_disk(&row, &a->data, &b->data, ok && a->data_ok && b->data_ok, interval_ms);
	sysrow_disk(&row, &a->wal, &b->wal, ok && a->wal_ok && b->wal_ok, interval_ms);
	ok = ok && a->walstat_ok && b->walstat_ok;
	sysrow_delta(rec, &row, a->wal_records, b->wal_records, ok);
	sysrow_delta(rec, &row, a->wal_fpi, b->wal_fpi, ok);
	sysrow_delta(rec, &row, a->wal_bytes, b->wal_bytes, ok);
	sysrow_delta(rec, &row, a->wal_write, b->wal_write, ok);
	sysrow_delta(rec, &row, a->wal_sync, b->wal_sync, ok);
	ok = a != &none && a->db_ok && b->db_ok;
	sysrow_delta(rec, &row, a->blks_hit, b->blks_hit, ok);
	sysrow_delta(rec, &row, a->blks_read, b->blks_read, ok);
	sysrow_delta(rec, &row, a->temp_bytes, b->temp_bytes, ok);
	sysrow_delta(rec, &row, a->deadlocks, b->deadlocks, ok);
	ok = a != &none && a->bgw_ok && b->bgw_ok;
	sysrow_delta(rec, &row, a->buffers_checkpoint, b->buffers_checkpoint, ok);
	sysrow_delta(rec, &row, a->buffers_clean, b->buffers_clean, ok);
	sysrow_delta(rec, &row, a->buffers_backend, b->buffers_backend, ok);
	ok = a != &none;
	sysrow_add(&row, INT4OID, Int32GetDatum((int32) (b->ckpt_begun - a->ckpt_begun)), !ok);
	sysrow_add(&row, INT4OID, Int32GetDatum((int32) (b->ckpt_done - a->ckpt_done)), !ok);
	Assert(row.n == (int) SYSRECORD_NCOLS + 2);
	results_exec_params(rec->sql, row.n, row.types, row.values, row.nulls, true);
}

/* runs.system_notes, then the run's readings are freed */
void
sysrecord_finish(SysRecord *rec)
{
	if (rec == NULL)
		return;
	if (rec->late)
		sysrecord_note(rec, "the coordinator was more than a second late for a reading: the seconds without one have NULL figures");
	/* one line per cause, as the wait sampler writes its own */
	for (int i = 0; i < rec->nnotes; i++)
		results_system_note(rec->run_id, rec->notes[i]);
	MemoryContextDelete(rec->cxt);
}
