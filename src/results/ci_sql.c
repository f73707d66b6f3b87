/*-------------------------------------------------------------------------
 *
 * ci_sql.c
 *	  SQL functions over throughputs: the 95% confidence intervals of
 *	  lang/ci.c (issue 23).  pgbenchx.ci_seconds (one run, from its
 *	  per-second samples: batch means), pgbenchx.ci_repeats (a point, from
 *	  its runs' tps: the t-interval) and pgbenchx.ci_ratio (B/A from two
 *	  such estimates: Fieller, and whether it excludes 1); and the
 *	  throughput ratios of compare() and experiment_report on the log
 *	  scale (issue 35): pgbenchx.ci_log_ratio (paired or two samples, with
 *	  its p-value), pgbenchx.ci_log_bounds (the interval at another
 *	  level) and pgbenchx.ci_holm (Holm's levels over a comparison).
 *
 * Owns: turning float8 arrays and numbers into ci.c's arguments and its
 * intervals into records; NULL where ci.c gives no interval (too few
 * seconds or runs, a NULL or non-finite element, a ratio to a mean not
 * distinguishable from 0).  The methods are described in ci.h and for
 * users in docs/comparing.md; results.c writes runs.tps_ci_low/high with
 * ci_seconds, the views in src/sql/50_compare.sql call the others.
 *
 * src/results/ci_sql.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <math.h>

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/array.h"
#include "utils/builtins.h"

#include "ci.h"

PG_FUNCTION_INFO_V1(pgbenchx_ci_seconds);
PG_FUNCTION_INFO_V1(pgbenchx_ci_repeats);
PG_FUNCTION_INFO_V1(pgbenchx_ci_ratio);

/*
 * The elements of a float8[] argument, palloc'd; false when one is NULL
 * (no interval then).  A multi-dimensional array is refused.
 */
static bool
ci_array_arg(ArrayType *a, const char *argname, double **values, int *n)
{
	Datum	   *elems;
	bool	   *nulls;
	int			count;

	if (ARR_NDIM(a) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("argument \"%s\" must be a one-dimensional array", argname),
				 errdetail("It has %d dimensions.", ARR_NDIM(a)),
				 errhint("Pass one throughput per element, as array_agg(tps ORDER BY second) gives.")));
	deconstruct_array(a, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &count);
	*values = palloc(sizeof(double) * Max(count, 1));
	for (int i = 0; i < count; i++)
	{
		if (nulls[i])
			return false;
		(*values)[i] = DatumGetFloat8(elems[i]);
	}
	*n = count;
	return true;
}

/* (estimate, low, high, se, df) as the function's result record */
static Datum
ci_interval_record(FunctionCallInfo fcinfo, const ci_interval *ci)
{
	TupleDesc	tupdesc;
	Datum		values[5];
	bool		nulls[5] = {0};

	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Float8GetDatum(ci->estimate);
	values[1] = Float8GetDatum(ci->low);
	values[2] = Float8GetDatum(ci->high);
	values[3] = Float8GetDatum(ci->se);
	values[4] = Float8GetDatum(ci->df);
	return HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls));
}

/*
 * An interval of a float8[] argument by one of ci.c's methods, as the
 * function's record, or NULL when the method gives none.
 */
static Datum
ci_of_array(FunctionCallInfo fcinfo, const char *argname,
			bool (*method) (const double *x, int n, ci_interval *out))
{
	double	   *x;
	int			n;
	ci_interval ci;

	if (!ci_array_arg(PG_GETARG_ARRAYTYPE_P(0), argname, &x, &n)
		|| !method(x, n, &ci))
		PG_RETURN_NULL();
	PG_RETURN_DATUM(ci_interval_record(fcinfo, &ci));
}

/*
 * ci_seconds(seconds float8[]) -> (tps, low, high, se, df): one run's mean
 * per-second throughput and the interval of this run's precision (batch
 * means, widened by an AR(1) reading of strongly correlated seconds: ci.h),
 * from its samples' tps in the order of their seconds; NULL with fewer
 * than 120, or seconds that move as one for about as long as the run.
 */
Datum
pgbenchx_ci_seconds(PG_FUNCTION_ARGS)
{
	return ci_of_array(fcinfo, "seconds", ci_run_seconds);
}

/*
 * ci_repeats(runs float8[]) -> (tps, low, high, se, df): the mean of
 * repeated runs' throughputs and its t-interval; NULL with fewer than 2.
 */
Datum
pgbenchx_ci_repeats(PG_FUNCTION_ARGS)
{
	return ci_of_array(fcinfo, "runs", ci_mean_t);
}

/*
 * ci_ratio(a, a_se, a_df, b, b_se, b_df) -> (ratio, low, high, significant):
 * b / a and its Fieller interval, significant when it excludes 1; NULL
 * when there is none.
 */
Datum
pgbenchx_ci_ratio(PG_FUNCTION_ARGS)
{
	ci_interval a = {0},
				b = {0},
				r;
	TupleDesc	tupdesc;
	Datum		values[4];
	bool		nulls[4] = {0};

	a.estimate = PG_GETARG_FLOAT8(0);
	a.se = PG_GETARG_FLOAT8(1);
	a.df = PG_GETARG_FLOAT8(2);
	b.estimate = PG_GETARG_FLOAT8(3);
	b.se = PG_GETARG_FLOAT8(4);
	b.df = PG_GETARG_FLOAT8(5);
	if (!(a.se >= 0.0) || !(b.se >= 0.0) || !ci_ratio_fieller(&a, &b, &r))
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Float8GetDatum(r.estimate);
	values[1] = Float8GetDatum(r.low);
	values[2] = Float8GetDatum(r.high);
	values[3] = BoolGetDatum(ci_significant(&r));
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

PG_FUNCTION_INFO_V1(pgbenchx_ci_log_ratio);
PG_FUNCTION_INFO_V1(pgbenchx_ci_log_bounds);
PG_FUNCTION_INFO_V1(pgbenchx_ci_holm);

/*
 * ci_log_ratio(a float8[], b float8[], paired boolean) -> (ratio, low,
 * high, log_ratio, se, df, p): B/A on the log scale (issue 35), paired
 * (a[i] with b[i]: the pairs of an experiment) or as two samples (pooled
 * t: the sweeps of each side).  NULL when there is no interval: fewer
 * than 2 values (pairs) on a side, a NULL, a value that is not finite and
 * positive.  Paired arrays of different lengths are an ERROR.
 */
Datum
pgbenchx_ci_log_ratio(PG_FUNCTION_ARGS)
{
	double	   *a,
			   *b;
	int			na = 0,
				nb = 0;
	bool		paired = PG_GETARG_BOOL(2);
	bool		ok;
	ci_log_ratio r;
	TupleDesc	tupdesc;
	Datum		values[7];
	bool		nulls[7] = {0};

	if (!ci_array_arg(PG_GETARG_ARRAYTYPE_P(0), "a", &a, &na)
		|| !ci_array_arg(PG_GETARG_ARRAYTYPE_P(1), "b", &b, &nb))
		PG_RETURN_NULL();
	if (paired && na != nb)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("paired arrays \"a\" and \"b\" must have the same length"),
				 errdetail("\"a\" has %d elements and \"b\" %d.", na, nb),
				 errhint("Pass one element of each pair at the same position of both arrays.")));
	ok = paired ? ci_log_ratio_paired(a, b, na, &r)
		: ci_log_ratio_pooled(a, na, b, nb, &r);
	if (!ok)
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Float8GetDatum(r.ratio);
	values[1] = Float8GetDatum(r.low);
	values[2] = Float8GetDatum(r.high);
	values[3] = Float8GetDatum(r.log_ratio);
	values[4] = Float8GetDatum(r.se);
	values[5] = Float8GetDatum(r.df);
	values[6] = Float8GetDatum(r.p);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * ci_log_bounds(log_ratio, se, df, alpha) -> (low, high): the interval of
 * exp(log_ratio) at level 1 - alpha; NULL when an argument is out of
 * range (alpha not in (0, 1), se < 0, df <= 0).
 */
Datum
pgbenchx_ci_log_bounds(PG_FUNCTION_ARGS)
{
	ci_log_ratio r = {0};
	double		low,
				high;
	TupleDesc	tupdesc;
	Datum		values[2];
	bool		nulls[2] = {0};

	r.log_ratio = PG_GETARG_FLOAT8(0);
	r.se = PG_GETARG_FLOAT8(1);
	r.df = PG_GETARG_FLOAT8(2);
	if (!ci_log_bounds(&r, PG_GETARG_FLOAT8(3), &low, &high))
		PG_RETURN_NULL();
	if (get_call_result_type(fcinfo, NULL, &tupdesc) != TYPEFUNC_COMPOSITE)
		elog(ERROR, "return type must be a row type");
	tupdesc = BlessTupleDesc(tupdesc);
	values[0] = Float8GetDatum(low);
	values[1] = Float8GetDatum(high);
	PG_RETURN_DATUM(HeapTupleGetDatum(heap_form_tuple(tupdesc, values, nulls)));
}

/*
 * ci_holm(p float8[], alpha float8) -> float8[]: the level each p-value is
 * tested at by Holm's procedure over the non-NULL ones (ci.h); NULL where
 * p is NULL.  Significant where p < its level.
 */
Datum
pgbenchx_ci_holm(PG_FUNCTION_ARGS)
{
	ArrayType  *pa = PG_GETARG_ARRAYTYPE_P(0);
	double		alpha = PG_GETARG_FLOAT8(1);
	Datum	   *elems;
	bool	   *nulls;
	int			count;
	double	   *p,
			   *level;
	Datum	   *out;

	if (ARR_NDIM(pa) > 1)
		ereport(ERROR,
				(errcode(ERRCODE_ARRAY_SUBSCRIPT_ERROR),
				 errmsg("argument \"p\" must be a one-dimensional array"),
				 errdetail("It has %d dimensions.", ARR_NDIM(pa)),
				 errhint("Pass one p-value per element.")));
	if (!(alpha > 0.0 && alpha < 1.0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("alpha must be between 0 and 1, not %g", alpha),
				 errdetail("alpha is the chance of any false \"significant\" allowed over the p-values."),
				 errhint("Pass alpha => 0.05.")));
	deconstruct_array(pa, FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL, TYPALIGN_DOUBLE,
					  &elems, &nulls, &count);
	p = palloc(sizeof(double) * Max(count, 1));
	level = palloc(sizeof(double) * Max(count, 1));
	out = palloc(sizeof(Datum) * Max(count, 1));
	for (int i = 0; i < count; i++)
	{
		p[i] = nulls[i] ? NAN : DatumGetFloat8(elems[i]);
		if (!nulls[i] && !(p[i] >= 0.0 && p[i] <= 1.0))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("p-value %g at position %d is not between 0 and 1", p[i], i + 1),
					 errdetail("Holm's procedure takes probabilities."),
					 errhint("Pass the p column of pgbenchx.ci_log_ratio.")));
	}
	ci_holm(p, count, alpha, level);
	for (int i = 0; i < count; i++)
	{
		nulls[i] = isnan(level[i]);
		out[i] = nulls[i] ? (Datum) 0 : Float8GetDatum(level[i]);
	}
	{
		int			dims[1] = {count};
		int			lbs[1] = {1};

		PG_RETURN_ARRAYTYPE_P(construct_md_array(out, nulls, count > 0 ? 1 : 0, dims, lbs,
												 FLOAT8OID, sizeof(float8), FLOAT8PASSBYVAL,
												 TYPALIGN_DOUBLE));
	}
}
