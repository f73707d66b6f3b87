/*-------------------------------------------------------------------------
 *
 * run_spec.c
 *	  A run's specification (run_spec.h) in a shm_toc segment: stored with
 *	  its payload by the launcher and by the coordinator for each step,
 *	  found again by the coordinator and the drivers, and its script mix
 *	  read back (once by the coordinator, once by each driver); the step
 *	  segment's array of client backend pids; a run's kind, and pgbench's
 *	  share of the clients.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "storage/shm_toc.h"
#include "utils/builtins.h"

#include "run_spec.h"

/* the next string of a payload, and where the one after it starts */
static const char *
run_spec_next(const char **p)
{
	const char *s = *p;

	*p += strlen(s) + 1;
	return s;
}

RunKind
run_spec_kind(const RunSpec *spec)
{
	if (spec->ngenerators > 0)
		return RUN_KIND_GENERATORS;
	return spec->is_part ? RUN_KIND_PART : RUN_KIND_LOCAL;
}

void
run_spec_kind_check(RunKind kind, const void *hooks, const char *seam)
{
	if (kind != RUN_KIND_LOCAL && hooks == NULL)
		elog(ERROR, "pgbenchx has no %s for run kind %d: the library's _PG_init registers them",
			 seam, (int) kind);
}

int
run_spec_share(int left, int n, int i)
{
	return (left + (n - i) - 1) / (n - i);
}

void
run_spec_mix(const RunSpec *spec, const char *payload, RunMix *out)
{
	const char *p = payload;

	out->nscripts = spec->nscripts;
	out->total_weight = 0;
	for (int i = 0; i < spec->nscripts; i++)
	{
		out->names[i] = run_spec_next(&p);
		out->weights[i] = pg_strtoint64(run_spec_next(&p));
		out->total_weight += out->weights[i];
		out->texts[i] = run_spec_next(&p);
	}
	out->ndefines = spec->ndefines;
	out->defines = palloc0(sizeof(ScriptDefine) * Max(1, spec->ndefines));
	for (int i = 0; i < spec->ndefines; i++)
	{
		out->defines[i].name = run_spec_next(&p);
		out->defines[i].value = run_spec_next(&p);
	}
	out->first_lines = palloc(sizeof(char *) * Max(1, spec->ncommands));
	for (int i = 0; i < spec->ncommands; i++)
		out->first_lines[i] = run_spec_next(&p);
	Assert(p == payload + spec->payload_len - spec->generators_len - spec->configs_len);
}

void
run_spec_generators(const RunSpec *spec, const char *payload, RunGenerators *out)
{
	const char *p = payload + spec->payload_len - spec->generators_len;

	out->n = spec->ngenerators;
	out->conninfo = palloc0(sizeof(char *) * Max(1, spec->ngenerators));
	out->shown = palloc0(sizeof(char *) * Max(1, spec->ngenerators));
	out->target = spec->ngenerators > 0 ? run_spec_next(&p) : "";
	for (int i = 0; i < spec->ngenerators; i++)
	{
		out->conninfo[i] = run_spec_next(&p);
		out->shown[i] = run_spec_next(&p);
	}
	Assert(p == payload + spec->payload_len);
}

void
run_spec_estimate(shm_toc_estimator *e, const RunSpec *spec)
{
	shm_toc_estimate_chunk(e, sizeof(RunSpec));
	shm_toc_estimate_chunk(e, spec->payload_len);
	shm_toc_estimate_keys(e, 2);
}

void
run_spec_store(shm_toc *toc, const RunSpec *spec, const char *payload)
{
	void	   *p;

	p = shm_toc_allocate(toc, sizeof(RunSpec));
	memcpy(p, spec, sizeof(RunSpec));
	shm_toc_insert(toc, RUN_SPEC_KEY_SPEC, p);
	p = shm_toc_allocate(toc, spec->payload_len);
	memcpy(p, payload, spec->payload_len);
	shm_toc_insert(toc, RUN_SPEC_KEY_PAYLOAD, p);
}

const RunSpec *
run_spec_find(shm_toc *toc, const char **payload)
{
	*payload = shm_toc_lookup(toc, RUN_SPEC_KEY_PAYLOAD, false);
	return shm_toc_lookup(toc, RUN_SPEC_KEY_SPEC, false);
}

/*
 * The clients' backend pids: one slot per client of the step, 0 until its
 * driver connects it (and again once it is disconnected).  The driver
 * writes a slot after a write barrier; the coordinator's wait sampler
 * (waitsample.c) reads them while the run measures.
 */
void
run_spec_estimate_client_pids(shm_toc_estimator *e, int nclients)
{
	shm_toc_estimate_chunk(e, sizeof(pg_atomic_uint32) * Max(1, nclients));
	shm_toc_estimate_keys(e, 1);
}

pg_atomic_uint32 *
run_spec_store_client_pids(shm_toc *toc, int nclients)
{
	pg_atomic_uint32 *pids = shm_toc_allocate(toc, sizeof(pg_atomic_uint32) * Max(1, nclients));

	for (int i = 0; i < nclients; i++)
		pg_atomic_init_u32(&pids[i], 0);
	shm_toc_insert(toc, RUN_SPEC_KEY_CLIENT_PIDS, pids);
	return pids;
}

pg_atomic_uint32 *
run_spec_find_client_pids(shm_toc *toc)
{
	return shm_toc_lookup(toc, RUN_SPEC_KEY_CLIENT_PIDS, false);
}
