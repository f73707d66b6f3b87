/*-------------------------------------------------------------------------
 *
 * waitsample.c
 *	  The wait sampler (waitsample.h): the coordinator's ticks over the
 *	  run's client backends' wait events and their CPU time per second.
 *	  It knows no SQL: the rows are written by results.c.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "miscadmin.h"
#include "storage/proc.h"
#include "storage/procarray.h"
#include "utils/memutils.h"
#include "utils/wait_event.h"

#include "results.h"
#include "run_shmem.h"
#include "sysstat.h"
#include "waitsample.h"

/* how long before a timed run's end its last CPU reading is taken (two ticks) */
#define WAITSAMPLE_FINAL_CPU_MARGIN	(20 * 1000)

/* the entry a table that is full counts in */
#define WAITSAMPLE_OVERFLOW_TYPE	"Other"
#define WAITSAMPLE_OVERFLOW_EVENT	"more events than the sampler keeps per second"

typedef struct WaitSampleEvent
{
	uint32		info;			/* wait_event_info; 0: on CPU */
	int32		count;
} WaitSampleEvent;

/* one second's counts, until the coordinator writes them */
typedef struct WaitSampleSecond
{
	int64		second;			/* 0-based; -1: empty */
	int			ticks;
	int			nevents;
	int32		overflow;
	WaitSampleEvent events[WAITSAMPLE_MAX_EVENTS];
	bool		cpu_read;		/* a CPU reading ended this second */
	bool		cpu_known;		/* ... and every live backend was read */
	double		cpu_s;
} WaitSampleSecond;

struct WaitSampler
{
	int64		run_id;
	pg_atomic_uint32 *pids;		/* in the step segment */
	int			nclients;
	TimestampTz bench_start;
	int			ring_len;
	bool		connect_per_transaction;
	TimestampTz final_cpu_at;	/* a timed run: when to take the last CPU reading; 0: none */
	bool		final_cpu_done; /* ... taken: no reading after it */

	/* per client: the PGPROC of its pid, looked up when the pid changes */
	int		   *proc_pid;
	PGPROC	  **procs;

	/* per client: the last CPU reading, its pid and its ticks */
	int		   *cpu_pid;
	uint64	   *cpu_ticks;
	int64		cpu_second;		/* the second the last reading started; -1 none */
	double		ticks_per_s;	/* of /proc/PID/stat */
	char	   *cpu_note;		/* why backend CPU was NULL, once */

	uint64		ticks;
	TimestampTz last_tick;
	TimestampTz next_due;
	WaitSampleSecond ring[RUN_SECOND_RING];
};

WaitSampler *
waitsample_start(int64 run_id, pg_atomic_uint32 *pids, int nclients,
				 TimestampTz bench_start, int ring_len, bool connect_per_transaction,
				 int duration)
{
	WaitSampler *ws = MemoryContextAllocZero(TopMemoryContext, sizeof(WaitSampler));
	int			n = Max(1, nclients);

	ws->run_id = run_id;
	ws->pids = pids;
	ws->nclients = nclients;
	ws->bench_start = bench_start;
	ws->ring_len = Min(Max(ring_len, 2), RUN_SECOND_RING);
	ws->connect_per_transaction = connect_per_transaction;
	ws->proc_pid = MemoryContextAllocZero(TopMemoryContext, sizeof(int) * n);
	ws->procs = MemoryContextAllocZero(TopMemoryContext, sizeof(PGPROC *) * n);
	ws->cpu_pid = MemoryContextAllocZero(TopMemoryContext, sizeof(int) * n);
	ws->cpu_ticks = MemoryContextAllocZero(TopMemoryContext, sizeof(uint64) * n);
	ws->cpu_second = -1;
	ws->ticks_per_s = (double) sysstat_ticks_per_second();
	ws->next_due = bench_start;

	/*
	 * The client backends exit as soon as the measured interval ends, and
	 * with them their CPU times: a timed run's last reading is taken
	 * WAITSAMPLE_FINAL_CPU_MARGIN before its end, while they are alive.
	 */
	if (duration > 0)
		ws->final_cpu_at = bench_start + (TimestampTz) duration * USECS_PER_SEC -
			WAITSAMPLE_FINAL_CPU_MARGIN;
	for (int i = 0; i < RUN_SECOND_RING; i++)
		ws->ring[i].second = -1;
	return ws;
}

/* the PGPROC of a client's backend, or NULL: cached, re-checked by pid */
static PGPROC *
waitsample_proc(WaitSampler *ws, int i, int pid)
{
	PGPROC	   *proc = ws->procs[i];

	/* racy by design: a backend that exits between here and the read counts once more */
	if (proc == NULL || ws->proc_pid[i] != pid || proc->pid != pid)
	{
		proc = BackendPidGetProc(pid);
		ws->procs[i] = proc;
		ws->proc_pid[i] = pid;
	}
	return proc;
}

/* the slot of second sec, emptied if it held an older second */
static WaitSampleSecond *
waitsample_slot(WaitSampler *ws, int64 sec)
{
	WaitSampleSecond *slot = &ws->ring[sec % ws->ring_len];

	if (slot->second != sec)
	{
		slot->second = sec;
		slot->ticks = 0;
		slot->nevents = 0;
		slot->overflow = 0;
		slot->cpu_read = false;
		slot->cpu_known = false;
		slot->cpu_s = 0;
	}
	return slot;
}

static void
waitsample_count(WaitSampleSecond *slot, uint32 info)
{
	for (int k = 0; k < slot->nevents; k++)
		if (slot->events[k].info == info)
		{
			slot->events[k].count++;
			return;
		}
	if (slot->nevents < WAITSAMPLE_MAX_EVENTS)
	{
		slot->events[slot->nevents].info = info;
		slot->events[slot->nevents].count = 1;
		slot->nevents++;
	}
	else
		slot->overflow++;
}

/*
 * A CPU reading of every published backend: the sum of what each used
 * since the previous reading goes to the second that reading started
 * (ws->cpu_second), then this reading starts second sec.  A pid not seen at
 * the previous reading is a backend connected since: all of its CPU counts.
 * A backend that exited since the previous reading is missed (with
 * connect_per_transaction, the short-lived ones: runs.system_notes says so).
 */
static void
waitsample_read_cpu(WaitSampler *ws, int64 sec)
{
	double		sum = 0;
	bool		known = true;
	bool		any = false;
	bool		baseline = ws->cpu_second < 0;

	for (int i = 0; i < ws->nclients; i++)
	{
		int			pid = (int) pg_atomic_read_u32(&ws->pids[i]);
		uint64_t	utime,
					stime;
		char		reason[SYSSTAT_REASON_LEN];

		if (pid == 0)
		{
			ws->cpu_pid[i] = 0;
			continue;
		}
		if (!sysstat_read_proc_cpu((pid_t) pid, &utime, &stime, reason))
		{
			if (BackendPidGetProc(pid) != NULL)
			{
				known = false;
				if (ws->cpu_note == NULL)
					ws->cpu_note = MemoryContextStrdup(TopMemoryContext, reason);
			}

			/*
			 * A backend that has exited took its CPU time with it: the
			 * second is unknown (NULL), not less, but with
			 * connect_per_transaction, where backends come and go all the
			 * time (runs.system_notes says what that misses).
			 */
			else if (!ws->connect_per_transaction)
				known = false;
			ws->cpu_pid[i] = 0;
			continue;
		}
		any = true;
		if (!baseline)
			sum += ws->cpu_pid[i] == pid ? (double) (utime + stime - ws->cpu_ticks[i]) :
				(double) (utime + stime);
		ws->cpu_pid[i] = pid;
		ws->cpu_ticks[i] = utime + stime;
	}
	if (!baseline)
	{
		WaitSampleSecond *slot = &ws->ring[ws->cpu_second % ws->ring_len];

		if (slot->second == ws->cpu_second)
		{
			slot->cpu_read = true;
			slot->cpu_known = known && any && ws->ticks_per_s > 0;
			slot->cpu_s = slot->cpu_known ? sum / ws->ticks_per_s : 0;
		}
	}
	ws->cpu_second = sec;
}

void
waitsample_tick(WaitSampler *ws)
{
	TimestampTz now = GetCurrentTimestamp();
	int64		sec;
	WaitSampleSecond *slot;

	if (now < ws->bench_start)
		return;
	sec = (now - ws->bench_start) / USECS_PER_SEC;
	if (ws->final_cpu_at > 0 && now >= ws->final_cpu_at && !ws->final_cpu_done)
	{
		/* the last reading of a timed run ends its last second */
		if (ws->cpu_second >= 0)
			waitsample_read_cpu(ws, ws->cpu_second + 1);
		ws->final_cpu_done = true;
	}
	else if (sec != ws->cpu_second && !ws->final_cpu_done)
		waitsample_read_cpu(ws, sec);
	slot = waitsample_slot(ws, sec);
	for (int i = 0; i < ws->nclients; i++)
	{
		int			pid = (int) pg_atomic_read_u32(&ws->pids[i]);
		PGPROC	   *proc;

		if (pid == 0 || (proc = waitsample_proc(ws, i, pid)) == NULL)
			continue;
		/* read once, without a lock, as pg_stat_activity does */
		waitsample_count(slot, *((volatile uint32 *) &proc->wait_event_info));
	}
	slot->ticks++;
	ws->ticks++;
	ws->last_tick = now;
	ws->next_due += WAITSAMPLE_TICK_MS * 1000;
	/* fallen behind by more than a tick: do not catch up in a burst */
	if (ws->next_due < now)
		ws->next_due = now + WAITSAMPLE_TICK_MS * 1000;
}

long
waitsample_timeout_ms(WaitSampler *ws)
{
	TimestampTz now = GetCurrentTimestamp();

	if (ws->next_due <= now)
		return 0;
	return (long) ((ws->next_due - now + 999) / 1000);
}

void
waitsample_end(WaitSampler *ws)
{
	if (ws->cpu_second >= 0 && !ws->final_cpu_done)
		waitsample_read_cpu(ws, ws->cpu_second + 1);
}

void
waitsample_write_second(WaitSampler *ws, uint64 sec, double span_s)
{
	WaitSampleSecond *slot = &ws->ring[sec % ws->ring_len];
	const char *types[WAITSAMPLE_MAX_EVENTS + 1];
	const char *events[WAITSAMPLE_MAX_EVENTS + 1];
	int			counts[WAITSAMPLE_MAX_EVENTS + 1];
	int			n = 0;

	/*
	 * The drivers may publish a second between a tick that still fell in it
	 * and this write: its CPU reading is then taken now.
	 */
	if (ws->cpu_second == (int64) sec && !ws->final_cpu_done)
		waitsample_read_cpu(ws, (int64) sec + 1);
	if (slot->second != (int64) sec)
		return;					/* no tick in it, or its slot was reused */
	for (int k = 0; k < slot->nevents; k++)
	{
		uint32		info = slot->events[k].info;
		const char *type = info == 0 ? "CPU" : pgstat_get_wait_event_type(info);
		const char *event = info == 0 ? "on CPU" : pgstat_get_wait_event(info);

		types[n] = type ? type : "unknown";
		events[n] = event ? event : "unknown";
		counts[n] = slot->events[k].count;
		n++;
	}
	if (slot->overflow > 0)
	{
		types[n] = WAITSAMPLE_OVERFLOW_TYPE;
		events[n] = WAITSAMPLE_OVERFLOW_EVENT;
		counts[n] = slot->overflow;
		n++;
	}
	if (n > 0)
		results_write_waits(ws->run_id, (int) sec + 1, n, types, events, counts);
	results_write_backend_cpu(ws->run_id, (int) sec + 1, span_s,
							  slot->cpu_read && slot->cpu_known ? slot->cpu_s : NAN);
	slot->second = -1;
}

void
waitsample_finish(WaitSampler *ws, int64 measured_usec)
{
	int64		span_usec = Max(measured_usec, ws->last_tick - ws->bench_start);

	if (span_usec > 0 && ws->ticks > 0)
		results_wait_sample_hz(ws->run_id, (double) ws->ticks * USECS_PER_SEC / span_usec);
	if (ws->cpu_note)
		results_system_note(ws->run_id,
							psprintf("backend_cpu_s is NULL where a client backend's CPU time could not be read: %s",
									 ws->cpu_note));
	if (ws->connect_per_transaction)
		results_system_note(ws->run_id,
							"backend_cpu_s misses short-lived backends: with connect_per_transaction a backend that ends between two once-a-second readings is not counted");
	pfree(ws->proc_pid);
	pfree(ws->procs);
	pfree(ws->cpu_pid);
	pfree(ws->cpu_ticks);
	if (ws->cpu_note)
		pfree(ws->cpu_note);
	pfree(ws);
}
