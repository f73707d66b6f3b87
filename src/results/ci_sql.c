/*-------------------------------------------------------------------------
 *
 * ci_sql.c
 *	  SQL functions over throughputs: the 95% confidence intervals of
 *	  lang/ci.c (issue 23).  pgbenchx.ci_seconds (one run, from its
 *	  per-second samples: batch means), pgbenchx.ci_repeats (a point, from
 *	  its runs' tps: the t-interval) and pgbenchx.ci_ratio (B/A from two
 *	  such estimates: Fieller, and whether it excludes 1).
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
 * per-second throughput and its interval by batch means, from its samples'
 * tps in the order of their seconds; NULL with fewer than 20.
 */
Datum
pgbenchx_ci_seconds(PG_FUNCTION_ARGS)
{
	return ci_of_array(fcinfo, "seconds", ci_batch_means);
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
