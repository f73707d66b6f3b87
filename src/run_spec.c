/*-------------------------------------------------------------------------
 *
 * run_spec.c
 *	  Reading back the script mix of a run's specification (run_spec.h):
 *	  the coordinator does it once when it takes a run over, each driver
 *	  once when it attaches.
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

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
	Assert(p == payload + spec->payload_len);
}
