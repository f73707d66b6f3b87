/*-------------------------------------------------------------------------
 *
 * progress.c
 *	  What a person following a run reads: the phase, the step and the
 *	  expected end of the run in progress, and the line a launch prints;
 *	  which run a live coordinator's pid belongs to, for pgbenchx.cancel.
 *
 * The coordinator publishes its phase (maintenance, checkpoint, connecting,
 * ready (a part waiting for its go), measuring, finishing), its step and the expected end of the whole run or
 * sweep in RunProgress (run_shmem.h), one struct in the main shared memory
 * found by name with ShmemInitStruct: it needs no shared_preload_libraries
 * (the few bytes come from the slack the server keeps for add-ins), and
 * every session reads it through pgbenchx.progress_state(), which the
 * pgbenchx.progress view joins to the running rows.  A part that runs
 * beside its recorder's run on the same server (part.c) has a second
 * place; progress_state() then shows a row for each.  A state whose
 * coordinator is gone (a crash) is not shown.
 *
 * The same struct is the coordinator's identity for pgbenchx.cancel: its pid
 * with its sweep's or lone run's id, published before its rows exist and
 * cleared when it exits (progress_is_coordinator_of), and the role whose
 * cancel reached it (progress_cancel_reason, for runs.error).
 *
 * The expected end counts only what is known: the durations still to run,
 * and for the steps to come the time the last finished step of this sweep
 * spent outside its measured interval (maintenance, checkpoint, connecting,
 * storing; the last rather than an average, since connecting grows with
 * the clients of the ladder, and the first checkpoint after a load is the
 * long one).  A sweep bounded by transactions has an expected end only
 * during the measured interval of its last step, from the share of the
 * transactions done; before that it is unknown (NULL).
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "funcapi.h"
#include "miscadmin.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "storage/spin.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/tuplestore.h"

#include "owner.h"
#include "progress.h"

PG_FUNCTION_INFO_V1(pgbenchx_progress_state);

/*
 * Two places: one for the run that holds the cluster-wide lock, one for the
 * part that may run beside it on its recorder's own server (part.c).  A
 * new name, not 0.3's: a struct of another size under the same name would
 * be refused while the old library's lives on in the server.
 */
#define PROGRESS_SHMEM_NAME "pgbenchx run progress (2 places, cancelled_by, step_segment, keeping_records)"
#define PROGRESS_PLACES		2

static RunProgress *progress_shared = NULL;
/* the coordinator's own place, from progress_start */
static RunProgress *progress_mine = NULL;

static RunProgress *
progress_attach(void)
{
	bool		found;

	if (progress_shared != NULL)
		return progress_shared;
	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	progress_shared = ShmemInitStruct(PROGRESS_SHMEM_NAME, sizeof(RunProgress) * PROGRESS_PLACES, &found);
	if (!found)
	{
		memset(progress_shared, 0, sizeof(RunProgress) * PROGRESS_PLACES);
		for (int i = 0; i < PROGRESS_PLACES; i++)
			SpinLockInit(&progress_shared[i].mutex);
	}
	LWLockRelease(AddinShmemInitLock);
	return progress_shared;
}

#define PROGRESS_USECS(s) ((int64) ((s) * USECS_PER_SEC))

/* the expected end of the run or sweep, from what is known now; 0: unknown */
static TimestampTz
progress_eta(const RunProgress *e, TimestampTz now)
{
	double		pre = e->known ? e->pre_s : 0;
	double		post = e->known ? e->post_s : 0;
	TimestampTz end;
	int			later = e->steps - e->step;

	if (e->duration == 0)
	{
		/* by transactions: known only for the last step, once measuring */
		if (later > 0)
			return 0;
		if (e->phase == RUN_PHASE_FINISHING)
			return Max(now, e->finish_start + PROGRESS_USECS(post));
		if (e->phase != RUN_PHASE_MEASURING || e->fraction <= 0 || e->fraction_at == 0)
			return 0;
		end = e->fraction_at +
			PROGRESS_USECS((double) (e->fraction_at - e->measure_start) / USECS_PER_SEC *
						   (1 - e->fraction) / e->fraction);
		return Max(now, end) + PROGRESS_USECS(post);
	}
	switch (e->phase)
	{
		case RUN_PHASE_MEASURING:
			end = Max(now, e->measure_start + (int64) e->duration * USECS_PER_SEC);
			end += PROGRESS_USECS(post);
			break;
		case RUN_PHASE_FINISHING:
			end = Max(now, e->finish_start + PROGRESS_USECS(post));
			break;
		default:
			end = Max(now, e->step_start + PROGRESS_USECS(pre));
			end += PROGRESS_USECS(e->duration + post);
			break;
	}
	return end + PROGRESS_USECS(later * (pre + e->duration + post));
}

void
progress_start(const RunSpec *spec)
{
	RunProgress *p = &progress_attach()[spec->part_unlocked ? 1 : 0];

	progress_mine = p;

	SpinLockAcquire(&p->mutex);
	p->coordinator_pid = MyProcPid;
	p->sweep_id = spec->is_sweep ? spec->id : 0;
	p->run_id = spec->is_sweep ? 0 : spec->id;
	p->phase = RUN_PHASE_NONE;
	p->step = 0;
	p->steps = spec->nsteps;
	p->clients = 0;
	p->duration = spec->duration;
	p->step_start = p->measure_start = p->finish_start = p->fraction_at = 0;
	p->fraction = 0;
	p->known = false;
	p->pre_s = p->post_s = 0;
	p->cancelled_by[0] = '\0';
	p->step_segment = 0;
	p->keeping_records = false;
	SpinLockRelease(&p->mutex);
}

/* the step's segment while its drivers may log transactions; 0: none (txlog.c) */
void
progress_step_segment(uint32 handle)
{
	RunProgress *p = progress_mine;

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	p->step_segment = handle;
	SpinLockRelease(&p->mutex);
}

/*
 * The run is over and its coordinator only keeps its per-transaction
 * records for a reader (coordinator.c): a run launched meanwhile waits for
 * it to go instead of being refused (launch.c).
 */
void
progress_keeping_records(bool keeping)
{
	RunProgress *p = progress_mine;

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	p->keeping_records = keeping;
	SpinLockRelease(&p->mutex);
}

/* whether the live coordinator pid only keeps a finished run's records */
bool
progress_only_keeping_records(int pid)
{
	RunProgress *places = progress_attach();
	bool		keeping = false;

	for (int i = 0; i < PROGRESS_PLACES && !keeping; i++)
	{
		RunProgress *p = &places[i];

		SpinLockAcquire(&p->mutex);
		keeping = p->coordinator_pid == pid && p->keeping_records;
		SpinLockRelease(&p->mutex);
	}
	return keeping;
}

/*
 * The step segment's handle published for run run_id by a live
 * coordinator, 0 if none.  The segment may be gone, or the handle reused
 * by the time the caller attaches: it checks what it finds (txlog.c).
 */
uint32
progress_find_step_segment(int64 run_id)
{
	RunProgress *places = progress_attach();

	for (int i = 0; i < PROGRESS_PLACES; i++)
	{
		RunProgress *p = &places[i];
		int			pid;
		uint32		handle = 0;

		SpinLockAcquire(&p->mutex);
		pid = p->coordinator_pid;
		if (pid != 0 && p->run_id == run_id)
			handle = p->step_segment;
		SpinLockRelease(&p->mutex);
		if (handle != 0 && owner_coordinator_alive(pid))
			return handle;
	}
	return 0;
}

/* the steps of the sweep: an experiment with target_ci adds some (coordinator.c) */
void
progress_steps(int steps)
{
	RunProgress *p = progress_mine;

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	p->steps = steps;
	SpinLockRelease(&p->mutex);
}

void
progress_step(int64 run_id, int step, int clients)
{
	RunProgress *p = progress_mine;
	TimestampTz now = GetCurrentTimestamp();

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	p->keeping_records = false;
	p->run_id = run_id;
	p->step = step;
	p->clients = clients;
	p->phase = RUN_PHASE_MAINTENANCE;
	p->step_start = now;
	p->fraction = 0;
	p->fraction_at = 0;
	SpinLockRelease(&p->mutex);
}

void
progress_phase(RunPhase phase)
{
	RunProgress *p = progress_mine;
	TimestampTz now = GetCurrentTimestamp();

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	if (p->phase != phase)
	{
		p->phase = phase;
		if (phase == RUN_PHASE_MEASURING)
			p->measure_start = now;
		else if (phase == RUN_PHASE_FINISHING)
			p->finish_start = now;
	}
	SpinLockRelease(&p->mutex);
}

/* a run bounded by transactions: the share done so far, while measuring */
void
progress_measured(double fraction)
{
	RunProgress *p = progress_mine;
	TimestampTz now = GetCurrentTimestamp();

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	if (p->phase == RUN_PHASE_MEASURING)
	{
		p->fraction = Min(Max(fraction, 0), 1);
		p->fraction_at = now;
	}
	SpinLockRelease(&p->mutex);
}

/* a step ended: what it spent outside its measured interval */
void
progress_step_done(void)
{
	RunProgress *p = progress_mine;
	TimestampTz now = GetCurrentTimestamp();

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	if (p->measure_start >= p->step_start && p->finish_start >= p->measure_start)
	{
		p->known = true;
		p->pre_s = (double) (p->measure_start - p->step_start) / USECS_PER_SEC;
		p->post_s = (double) (now - p->finish_start) / USECS_PER_SEC;
	}
	SpinLockRelease(&p->mutex);
}

/* the run or sweep is over; no attach here (an exit callback may call it) */
void
progress_clear(void)
{
	RunProgress *p = progress_mine;

	if (p == NULL)
		return;
	SpinLockAcquire(&p->mutex);
	if (p->coordinator_pid == MyProcPid)
	{
		p->coordinator_pid = 0;
		p->run_id = p->sweep_id = 0;
		p->step_segment = 0;
		p->keeping_records = false;
		p->phase = RUN_PHASE_NONE;
	}
	SpinLockRelease(&p->mutex);
}

const char *
progress_phase_name(RunPhase phase)
{
	switch (phase)
	{
		case RUN_PHASE_MAINTENANCE:
			return "maintenance";
		case RUN_PHASE_CHECKPOINT:
			return "checkpoint";
		case RUN_PHASE_CONNECTING:
			return "connecting";
		case RUN_PHASE_MEASURING:
			return "measuring";
		case RUN_PHASE_FINISHING:
			return "finishing";
		case RUN_PHASE_READY:
			return "ready";
		case RUN_PHASE_NONE:
			break;
	}
	return NULL;
}

char *
progress_duration(double seconds)
{
	if (seconds < 90)
		return psprintf("%.0f s", Max(ceil(seconds), 0));
	if (seconds < 90 * 60)
		return psprintf("%.0f min", round(seconds / 60));
	return psprintf("%.1f h", seconds / 3600);
}

/* "", or "s" for a count other than 1 */
#define PLURAL(n) ((n) == 1 ? "" : "s")

/*
 * The line a launch prints once its coordinator has taken the run over:
 * what runs, for how long (only the durations are known, so "about", with
 * the maintenance before each run named), and how to follow it.
 */
char *
progress_launch_message(const RunSpec *spec)
{
	StringInfoData buf;
	int64		id = spec->id;

	initStringInfo(&buf);
	if (!spec->is_sweep)
	{
		appendStringInfo(&buf, "run " INT64_FORMAT ": %d client%s", id,
						 spec->clients[0], PLURAL(spec->clients[0]));
		if (spec->duration > 0)
			appendStringInfo(&buf, " for %d s", spec->duration);
		else
			appendStringInfo(&buf, ", " INT64_FORMAT " transaction%s each",
							 spec->transactions, PLURAL(spec->transactions));
	}
	else
	{
		/* an experiment (issue 23) is a sweep whose runs alternate configurations */
		if (spec->nconfigs > 0)
			appendStringInfo(&buf, "experiment " INT64_FORMAT ": %d configurations, %d run%s of ", id,
							 spec->nconfigs, spec->nsteps, PLURAL(spec->nsteps));
		else
			appendStringInfo(&buf, "sweep " INT64_FORMAT ": %d run%s of ", id,
							 spec->nsteps, PLURAL(spec->nsteps));
		if (spec->knobs.replay)
			appendStringInfo(&buf, "%d statement%s per client",
							 spec->ncommands, PLURAL(spec->ncommands));
		else if (spec->duration > 0)
		{
			appendStringInfo(&buf, "%d s, about %s", spec->duration,
							 progress_duration((double) spec->nsteps * spec->duration));
			if (spec->vacuum || spec->checkpoint)
				appendStringInfo(&buf, " plus %s%s%s before %s",
								 spec->vacuum ? "a vacuum" : "",
								 spec->vacuum && spec->checkpoint ? " and " : "",
								 spec->checkpoint ? "a checkpoint" : "",
								 spec->nsteps == 1 ? "it" : "each");
		}
		else
			appendStringInfo(&buf, INT64_FORMAT " transaction%s per client",
							 spec->transactions, PLURAL(spec->transactions));
	}
	/* a part (part.c): which clients of the run, and what it waits for */
	if (spec->is_part)
		appendStringInfo(&buf, ", clients %d to %d of %d; it starts at the moment pgbenchx.part_go(" INT64_FORMAT ", ...) names",
						 spec->first_client, spec->first_client + spec->clients[0] - 1,
						 spec->total_clients, id);
	appendStringInfo(&buf, "; follow it with CALL pgbenchx.wait(" INT64_FORMAT ")", id);
	return buf.data;
}

/*
 * pgbenchx.progress_state(): the run in progress as its coordinator
 * publishes it, one row, or none when no coordinator is alive.  The same
 * for every role, as the progress view's other columns.
 */
Datum
pgbenchx_progress_state(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	RunProgress *places = progress_attach();

	InitMaterializedSRF(fcinfo, 0);
	for (int i = 0; i < PROGRESS_PLACES; i++)
	{
		RunProgress *p = &places[i];
		RunProgress copy;
		Datum		values[6];
		bool		nulls[6] = {0};
		const char *phase;
		TimestampTz eta;

		SpinLockAcquire(&p->mutex);
		memcpy(&copy, p, sizeof(copy));
		SpinLockRelease(&p->mutex);
		if (copy.coordinator_pid == 0 || copy.run_id == 0 ||
			!owner_coordinator_alive(copy.coordinator_pid))
			continue;

		phase = progress_phase_name(copy.phase);
		values[0] = Int64GetDatum(copy.run_id);
		values[1] = Int64GetDatum(copy.sweep_id);
		nulls[1] = copy.sweep_id == 0;
		values[2] = phase ? CStringGetTextDatum(phase) : (Datum) 0;
		nulls[2] = phase == NULL;
		values[3] = Int32GetDatum(copy.step);
		values[4] = Int32GetDatum(copy.steps);
		eta = progress_eta(&copy, GetCurrentTimestamp());
		values[5] = TimestampTzGetDatum(eta);
		nulls[5] = eta == 0;
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}

/*
 * Whether pid is, right now, the live coordinator of sweep sweep_id (when
 * not 0) or of the lone run run_id: a place of the progress struct names
 * that pid and that sweep or run, and the pid is a live pgbenchx
 * coordinator by its background worker type.  A pid stored in a runs or
 * sweeps row may since belong to another process, another pgbenchx
 * coordinator included (a later run's): pgbenchx.cancel signals only when
 * this holds.  A coordinator publishes its place before it records its
 * rows and clears it when it exits.  With role not NULL, a match also
 * notes role as the one cancelling (progress_cancelled_by).
 */
bool
progress_is_coordinator_of(int pid, int64 sweep_id, int64 run_id, const char *role)
{
	RunProgress *places = progress_attach();
	bool		match = false;

	if (pid <= 0 || !owner_coordinator_alive(pid))
		return false;
	for (int i = 0; i < PROGRESS_PLACES && !match; i++)
	{
		RunProgress *p = &places[i];

		SpinLockAcquire(&p->mutex);
		if (p->coordinator_pid == pid)
		{
			if (sweep_id != 0)
				match = p->sweep_id == sweep_id;
			else
				match = p->sweep_id == 0 && p->run_id == run_id;
			if (match && role != NULL)
				strlcpy(p->cancelled_by, role, sizeof(p->cancelled_by));
		}
		SpinLockRelease(&p->mutex);
	}
	return match;
}

/*
 * The coordinator: why its run was cancelled, for runs.error and
 * sweeps.error: "cancelled by pgbenchx.cancel of role "alice"" (palloc'd).
 */
char *
progress_cancel_reason(void)
{
	RunProgress *p = progress_mine;
	char		role[NAMEDATALEN] = "";

	if (p != NULL)
	{
		SpinLockAcquire(&p->mutex);
		if (p->coordinator_pid == MyProcPid)
			strlcpy(role, p->cancelled_by, sizeof(role));
		SpinLockRelease(&p->mutex);
	}
	if (role[0] == '\0')
		return pstrdup("cancelled by pgbenchx.cancel");
	return psprintf("cancelled by pgbenchx.cancel of role \"%s\"", role);
}

/*
 * The id of the sweep, or of the lone run, in progress on this server as
 * its coordinator publishes it (pgbenchx.generator_status, fleet.c); 0 when
 * none is published.
 */
int64
progress_running_id(void)
{
	RunProgress *p = progress_attach();
	RunProgress copy;

	SpinLockAcquire(&p->mutex);
	memcpy(&copy, p, sizeof(copy));
	SpinLockRelease(&p->mutex);
	if (copy.coordinator_pid == 0 || !owner_coordinator_alive(copy.coordinator_pid))
		return 0;
	return copy.sweep_id != 0 ? copy.sweep_id : copy.run_id;
}
