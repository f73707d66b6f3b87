/*-------------------------------------------------------------------------
 *
 * hist_sql.c
 *	  SQL functions over stored latency histograms (runs.latency_hist,
 *	  samples.latency_hist): pgbenchx.latency_percentile,
 *	  pgbenchx.latency_merge (the two-argument function, which is also the
 *	  state function of the aggregate of that name) and
 *	  pgbenchx.latency_buckets.
 *
 * Owns: turning bytea into a stats_total through histcodec.c, and its
 * error codes into ereport (22P03 with the reason as detail).  The
 * arithmetic is stats.c's, so a percentile read here is the very number the
 * coordinator stored in the latency_pNN_ms columns.
 *
 * src/results/hist_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/tuplestore.h"

#include "histcodec.h"
#include "pg_compat.h"
#include "stats.h"

PG_FUNCTION_INFO_V1(pgbenchx_latency_percentile);
PG_FUNCTION_INFO_V1(pgbenchx_latency_merge2);
PG_FUNCTION_INFO_V1(pgbenchx_latency_buckets);

/* Decode a bytea argument into a palloc'd stats_total, or ereport. */
static stats_total *
hist_decode_arg(bytea *b, const char *argname)
{
	stats_total *t = palloc(sizeof(stats_total));
	histcodec_error e = histcodec_decode((const uint8_t *) VARDATA_ANY(b),
										 VARSIZE_ANY_EXHDR(b), t);

	if (e != HISTCODEC_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_BINARY_REPRESENTATION),
				 errmsg("%s is not a valid pgbenchx latency histogram", argname),
				 errdetail("The bytes are rejected: %s.", histcodec_strerror(e)),
				 errhint("Pass a value of runs.latency_hist or samples.latency_hist, or of pgbenchx.latency_merge over them.")));
	return t;
}

static bytea *
hist_encode(const stats_total *t)
{
	bytea	   *out = palloc(VARHDRSZ + HISTCODEC_MAX_BYTES);
	size_t		len = histcodec_encode(t, (uint8_t *) VARDATA(out));

	SET_VARSIZE(out, VARHDRSZ + len);
	return out;
}

/* latency_percentile(hist bytea, p float8) -> ms, NULL for an empty histogram */
Datum
pgbenchx_latency_percentile(PG_FUNCTION_ARGS)
{
	bytea	   *b = PG_GETARG_BYTEA_PP(0);
	double		p = PG_GETARG_FLOAT8(1);
	stats_total *t;
	double		v;

	if (!(p > 0.0 && p <= 100.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("percentile %g is out of range", p),
				 errdetail("A percentile is a number greater than 0 and at most 100."),
				 errhint("Pass 99 for the 99th percentile, 50 for the median.")));
	t = hist_decode_arg(b, "hist");
	v = stats_total_percentile(t, p);
	if (isnan(v))
		PG_RETURN_NULL();
	PG_RETURN_FLOAT8(v / 1000.0);
}

/* latency_merge(a bytea, b bytea) -> the histogram of both, exactly */
Datum
pgbenchx_latency_merge2(PG_FUNCTION_ARGS)
{
	stats_total *a = hist_decode_arg(PG_GETARG_BYTEA_PP(0), "the first histogram");
	stats_total *b = hist_decode_arg(PG_GETARG_BYTEA_PP(1), "the second histogram");

	/* a crafted (imported) count could wrap: the merge would not be exact */
	if (b->m.count > PG_UINT64_MAX - a->m.count)
		ereport(ERROR,
				(errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
				 errmsg("merged latency histogram would count more than 2^64 latencies"),
				 errdetail("The histograms count %llu and %llu latencies.",
						   (unsigned long long) a->m.count, (unsigned long long) b->m.count),
				 errhint("Merge histograms recorded by runs: no run records that many transactions.")));
	stats_total_merge(a, b);
	PG_RETURN_BYTEA_P(hist_encode(a));
}

/* latency_buckets(hist bytea) -> (lower_ms, upper_ms, count) of non-empty buckets */
Datum
pgbenchx_latency_buckets(PG_FUNCTION_ARGS)
{
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;
	stats_total *t = hist_decode_arg(PG_GETARG_BYTEA_PP(0), "hist");

	InitMaterializedSRF(fcinfo, 0);
	for (uint32 i = 0; i < STATS_BUCKETS; i++)
	{
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		if (t->counts[i] == 0)
			continue;
		values[0] = Float8GetDatum(stats_bucket_lower(i) / 1000.0);
		/* upper bound exclusive: the next bucket's lower bound */
		values[1] = Float8GetDatum((stats_bucket_upper(i) + 1) / 1000.0);
		values[2] = Int64GetDatum((int64) t->counts[i]);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
