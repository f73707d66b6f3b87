/*
 * test_stats.c
 *	  Standalone unit test for src/lang/stats.c (latency histograms).
 *
 * Owns: checks of bucket layout, percentile accuracy against exact sorted
 * data, exact moments, merging, accumulators and edge cases.  No PostgreSQL
 * needed: make -C test/unit check (make unitcheck at the top).  Exits
 * non-zero on any failure.  Deterministic (fixed seeds).
 */
#include "../../src/lang/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit_check.h"

/* documented bound: bucket midpoint within 1/128 of any value in it */
#define MAX_REL_ERR		(1.0 / 128.0)

/* ---------------------------------------------------------------- rng */

#include "unit_rng.h"

static uint64_t
rng_range(uint64_t lo, uint64_t hi)
{
	return lo + rng_next() % (hi - lo + 1);
}

static double
rng_normal(void)
{
	return sqrt(-2.0 * log(rng_unit())) * cos(6.283185307179586 * rng_unit());
}

static uint64_t
to_us(double x)
{
	if (x < 0)
		return 0;
	return (uint64_t) llround(x);
}

/* ---------------------------------------------------------------- helpers */

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *) a,
				y = *(const uint64_t *) b;

	return (x > y) - (x < y);
}

/* exact nearest-rank percentile; p given in thousandths of a percent */
static uint64_t
exact_percentile(const uint64_t *sorted, uint64_t n, uint64_t p_milli)
{
	uint64_t	rank = (p_milli * n + 99999) / 100000;

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static double
rel_err(double got, double want)
{
	if (want == 0)
		return got == 0 ? 0 : INFINITY;
	return fabs(got - want) / want;
}

static int
close_rel(double got, double want, double tol)
{
	if (isnan(got) || isnan(want))
		return 0;
	if (want == 0)
		return fabs(got) <= tol;
	return fabs(got - want) <= tol * fabs(want);
}

/* ---------------------------------------------------------------- buckets */

static void
test_bucket_layout(void)
{
	uint32_t	i;
	uint64_t	v,
				lo,
				hi,
				last_hi,
				end = UINT64_C(3600000000);
	uint32_t	prev;
	long		bad = 0;

	CHECK(STATS_BUCKETS == 1728, "%d", STATS_BUCKETS);
	CHECK(sizeof(stats_hist) == 6960, "%zu", sizeof(stats_hist));
	CHECK(sizeof(stats_total) == 13872, "%zu", sizeof(stats_total));
	CHECK(sizeof(stats_second) == 7008, "%zu", sizeof(stats_second));
	CHECK(sizeof(stats_run) == 13888, "%zu", sizeof(stats_run));

	/* every bucket: tiles the range, its bounds map back to it, width ok */
	CHECK(stats_bucket_lower(0) == 0, "lower(0)");
	CHECK(stats_bucket_upper(STATS_BUCKETS - 1) == STATS_MAX_TRACKABLE_US,
		  "top upper %llu", (unsigned long long) stats_bucket_upper(STATS_BUCKETS - 1));
	for (i = 0; i < STATS_BUCKETS; i++)
	{
		lo = stats_bucket_lower(i);
		hi = stats_bucket_upper(i);
		CHECK(lo <= hi, "bucket %u [%llu,%llu]", i, (unsigned long long) lo, (unsigned long long) hi);
		CHECK(stats_bucket_index(lo) == i && stats_bucket_index(hi) == i,
			  "bucket %u bounds map to %u,%u", i, stats_bucket_index(lo), stats_bucket_index(hi));
		if (i > 0)
			CHECK(lo == stats_bucket_upper(i - 1) + 1, "gap before bucket %u", i);
		if (i < 2 * STATS_SUB_COUNT)
			CHECK(lo == i && hi == i, "exact bucket %u", i);
		else
		{
			/* width at most lower/64 */
			CHECK((hi - lo + 1) * STATS_SUB_COUNT <= lo, "bucket %u too wide", i);
		}
		/* midpoint within 1/128 of both ends (the worst values in it) */
		if (lo > 0)
			CHECK(rel_err(stats_bucket_mid(i), (double) lo) <= MAX_REL_ERR &&
				  rel_err(stats_bucket_mid(i), (double) hi) <= MAX_REL_ERR,
				  "bucket %u mid %.1f", i, stats_bucket_mid(i));
		else
			CHECK(stats_bucket_mid(i) == 0, "mid(0)");
	}

	/*
	 * Every value 1..3.6e9 (1 us .. 1 hour) maps into the bucket whose bounds
	 * contain it.  With the buckets tiling the range in order (above), that
	 * makes the index monotonic, and since each midpoint is within 1/128 of
	 * both bucket ends, value -> bucket -> midpoint is within 0.78% for every
	 * value.  About 6 s.
	 */
	prev = 0;
	last_hi = 0;
	for (i = 0; i < STATS_BUCKETS; i++)
	{
		uint64_t	miss = 0;

		lo = stats_bucket_lower(i);
		hi = stats_bucket_upper(i);
		if (lo > end)
			break;
		if (hi > end)
			hi = end;
		last_hi = hi;
		/* branch-free inner loop: count values that leave bucket i */
		for (v = lo < 1 ? 1 : lo; v <= hi; v++)
			miss += (stats_bucket_index(v) != i);
		if (miss)
		{
			bad += (long) miss;
			fprintf(stderr, "bucket %u: %llu values map elsewhere\n", i,
					(unsigned long long) miss);
		}
		prev = i;
	}
	CHECK(bad == 0, "%ld sweep violations", bad);
	CHECK(prev == stats_bucket_index(end) && last_hi == end, "sweep reached 3.6e9");

	/* direct round trip on a strided sweep (plus neighbours of 2^k) */
	bad = 0;
	for (v = 1; v <= end; v += (v < 100000 ? 1 : 9973))
		if (rel_err(stats_bucket_mid(stats_bucket_index(v)), (double) v) > MAX_REL_ERR)
			bad++;
	for (i = 1; i < 33; i++)
	{
		uint64_t	p2 = UINT64_C(1) << i;
		uint64_t	c[3] = {p2 - 1, p2, p2 + 1};
		int			k;

		for (k = 0; k < 3; k++)
			if (c[k] <= STATS_MAX_TRACKABLE_US &&
				rel_err(stats_bucket_mid(stats_bucket_index(c[k])), (double) c[k]) > MAX_REL_ERR)
				bad++;
	}
	CHECK(bad == 0, "%ld round-trip errors above 1/128", bad);

	/* beyond the range: clamped into the top bucket, still monotonic */
	CHECK(stats_bucket_index(0) == 0, "index(0)");
	CHECK(stats_bucket_index(STATS_MAX_TRACKABLE_US) == STATS_BUCKETS - 1, "top");
	CHECK(stats_bucket_index(STATS_MAX_TRACKABLE_US + 1) == STATS_BUCKETS - 1, "clamp");
	CHECK(stats_bucket_index(UINT64_C(10000000000)) == STATS_BUCKETS - 1, "clamp 1e10");
	CHECK(stats_bucket_index(UINT64_MAX) == STATS_BUCKETS - 1, "clamp max");
	CHECK(stats_bucket_index(UINT64_C(3600000000)) < STATS_BUCKETS - 1,
		  "1 hour has its own bucket below the clamp bucket");
}

/* ---------------------------------------------------------------- data sets */

#define N_VALUES 200000

static uint64_t values[N_VALUES];
static uint64_t sorted[N_VALUES];
static stats_hist h_all,
			h_a,
			h_b;
static stats_total t_all,
			t_sum;

static const uint64_t pcts_milli[] = {0, 1000, 50000, 90000, 95000, 99000, 99900, 99990, 100000};
#define N_PCTS (sizeof(pcts_milli) / sizeof(pcts_milli[0]))

static double worst_err[N_PCTS];

static void
gen_uniform(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = rng_range(100, 50000);
}

static void
gen_lognormal(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = to_us(exp(log(2000.0) + 0.8 * rng_normal()));
}

static void
gen_bimodal(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
	{
		if (rng_unit() < 0.7)
			v[i] = to_us(800.0 + 50.0 * rng_normal());
		else
			v[i] = to_us(20000.0 + 2000.0 * rng_normal());
	}
}

static void
gen_outliers(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
	{
		if (rng_unit() < 0.005)
			v[i] = rng_range(1000000, UINT64_C(3600000000));
		else
			v[i] = to_us(exp(log(1500.0) + 0.5 * rng_normal()));
	}
}

static void
gen_small_exact(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = rng_range(0, 127);
}

static void
gen_log_uniform(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = to_us(exp(rng_unit() * log(3.6e9)));
}

static void
gen_spike(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = rng_unit() < 0.99 ? 1234 : 567890;
}

static void
gen_beyond_range(uint64_t *v, int n)
{
	for (int i = 0; i < n; i++)
	{
		if (rng_unit() < 0.0005)
			v[i] = rng_range(UINT64_C(4300000000), UINT64_C(100000000000));
		else
			v[i] = to_us(exp(log(900.0) + 1.0 * rng_normal()));
	}
}

typedef struct dataset
{
	const char *name;
	void		(*gen) (uint64_t *, int);
} dataset;

static const dataset datasets[] = {
	{"uniform 100..50000", gen_uniform},
	{"log-normal 2ms", gen_lognormal},
	{"bimodal 0.8ms/20ms", gen_bimodal},
	{"log-normal + 0.5% outliers to 1h", gen_outliers},
	{"small exact 0..127", gen_small_exact},
	{"log-uniform 1us..1h", gen_log_uniform},
	{"spike 99% 1234 / 1% 567890", gen_spike},
	{"outliers beyond range (>71 min)", gen_beyond_range},
};

static void
check_dataset(const dataset *ds, uint64_t seed)
{
	int			n = N_VALUES;
	uint64_t	sum = 0;
	long double mean_ld,
				ss = 0,
				sumsq_ld = 0;
	double		prev_p = -1;

	rng_state = seed;
	ds->gen(values, n);
	memcpy(sorted, values, sizeof(values));
	qsort(sorted, n, sizeof(uint64_t), cmp_u64);

	stats_hist_reset(&h_all);
	stats_hist_reset(&h_a);
	stats_hist_reset(&h_b);
	stats_total_reset(&t_all);
	for (int i = 0; i < n; i++)
	{
		stats_hist_record(&h_all, values[i]);
		stats_total_record(&t_all, values[i]);
		/* a random split for the merge check */
		if (rng_next() & 1)
			stats_hist_record(&h_a, values[i]);
		else
			stats_hist_record(&h_b, values[i]);
		sum += values[i];
		sumsq_ld += (long double) values[i] * (long double) values[i];
	}

	/* percentiles vs exact nearest-rank */
	for (size_t k = 0; k < N_PCTS; k++)
	{
		double		p = (double) pcts_milli[k] / 1000.0;
		uint64_t	want = exact_percentile(sorted, n, pcts_milli[k]);
		double		got = stats_hist_percentile(&h_all, p);
		double		got_t = stats_total_percentile(&t_all, p);
		double		err = rel_err(got, (double) want);
		/* beyond 2^32 us the top bucket cannot resolve; only clamping holds */
		int			resolvable = want <= STATS_MAX_TRACKABLE_US;

		if (resolvable)
		{
			CHECK(err <= 0.01, "%s seed %llu p%.3f: got %.1f want %llu (%.4f%%)",
				  ds->name, (unsigned long long) seed, p, got,
				  (unsigned long long) want, 100 * err);
			CHECK(err <= MAX_REL_ERR + 1e-12, "%s p%.3f: %.4f%% above 1/128",
				  ds->name, p, 100 * err);
			if (err > worst_err[k])
				worst_err[k] = err;
		}
		CHECK(got >= (double) sorted[0] && got <= (double) sorted[n - 1],
			  "%s p%.3f %.1f outside [min,max]", ds->name, p, got);
		CHECK(got == got_t, "%s p%.3f: hist %.3f total %.3f", ds->name, p, got, got_t);
		if (want < 2 * STATS_SUB_COUNT)
			CHECK(got == (double) want, "%s p%.3f exact region: %.1f vs %llu",
				  ds->name, p, got, (unsigned long long) want);
	}
	CHECK(stats_hist_percentile(&h_all, 0) == (double) sorted[0], "p0 == min");
	CHECK(stats_hist_percentile(&h_all, 100) == (double) sorted[n - 1], "p100 == max");
	/* percentiles are monotonic in p */
	for (int pp = 0; pp <= 10000; pp++)
	{
		double		v = stats_hist_percentile(&h_all, pp / 100.0);

		if (v < prev_p)
		{
			CHECK(v >= prev_p, "%s: p%.2f = %.1f < %.1f", ds->name, pp / 100.0, v, prev_p);
			break;
		}
		prev_p = v;
	}

	/* moments vs direct computation */
	mean_ld = (long double) sum / n;
	for (int i = 0; i < n; i++)
		ss += ((long double) values[i] - mean_ld) * ((long double) values[i] - mean_ld);
	CHECK(stats_count(&h_all.m) == (uint64_t) n, "count");
	CHECK(stats_sum(&h_all.m) == sum, "sum %llu vs %llu",
		  (unsigned long long) stats_sum(&h_all.m), (unsigned long long) sum);
	CHECK(stats_min(&h_all.m) == sorted[0], "min");
	CHECK(stats_max(&h_all.m) == sorted[n - 1], "max");
	CHECK(close_rel(stats_mean(&h_all.m), (double) mean_ld, 1e-15), "%s mean %.9f vs %.9f",
		  ds->name, stats_mean(&h_all.m), (double) mean_ld);
	CHECK(close_rel(stats_stddev(&h_all.m), (double) sqrtl(ss / n), 1e-12),
		  "%s stddev %.9f vs %.9f", ds->name, stats_stddev(&h_all.m), (double) sqrtl(ss / n));
	CHECK(close_rel(stats_sumsq(&h_all.m), (double) sumsq_ld, 1e-13), "%s sumsq", ds->name);

	/* merge(A, B) is byte-identical to the histogram of A u B */
	stats_hist_merge(&h_a, &h_b);
	CHECK(memcmp(&h_a, &h_all, sizeof(h_all)) == 0, "%s: merged hist differs", ds->name);
	/* per-second -> total equals recording straight into a total */
	stats_total_reset(&t_sum);
	stats_total_add_hist(&t_sum, &h_b);
	stats_hist_reset(&h_a);
	for (int i = 0; i < n; i++)
		stats_hist_record(&h_a, values[i]);
	stats_hist_merge(&h_a, &h_b);	/* h_a = all + B */
	stats_total_add_hist(&t_sum, &h_all);	/* t_sum = B + all */
	stats_total_merge(&t_all, &t_all);	/* t_all = 2 all; self-merge */
	CHECK(stats_count(&t_sum.m) == stats_count(&h_a.m), "count after merges");
	CHECK(stats_hist_percentile(&h_a, 99) == stats_total_percentile(&t_sum, 99), "p99 after merges");
	CHECK(stats_count(&t_all.m) == 2 * (uint64_t) n, "self merge count");
	CHECK(stats_total_percentile(&t_all, 90) == stats_hist_percentile(&h_all, 90),
		  "doubling every count keeps percentiles");
	CHECK(close_rel(stats_stddev(&t_all.m), stats_stddev(&h_all.m), 1e-12), "doubling keeps stddev");
}

static void
test_datasets(void)
{
	static const uint64_t seeds[] = {1, 42, 20240601, UINT64_C(0xDEADBEEF), 7777777};

	for (size_t d = 0; d < sizeof(datasets) / sizeof(datasets[0]); d++)
		for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++)
			check_dataset(&datasets[d], seeds[s]);

	printf("  worst relative error over %zu data sets x 5 seeds x %d values:\n",
		   sizeof(datasets) / sizeof(datasets[0]), N_VALUES);
	for (size_t k = 0; k < N_PCTS; k++)
		printf("    p%-7.3f %.4f%%\n", (double) pcts_milli[k] / 1000.0, 100 * worst_err[k]);
}

/* ---------------------------------------------------------------- edges */

static void
test_edges(void)
{
	static stats_hist h,
				h2;
	static stats_total t;
	static stats_second s1,
				s2,
				s3;
	static stats_run r;
	double		ps[] = {0, 50, 99.9, 100};

	/* empty: integers 0, floats NaN */
	stats_hist_reset(&h);
	stats_total_reset(&t);
	CHECK(stats_count(&h.m) == 0 && stats_sum(&h.m) == 0 && stats_sumsq(&h.m) == 0, "empty sums");
	CHECK(stats_min(&h.m) == 0 && stats_max(&h.m) == 0, "empty min/max");
	CHECK(isnan(stats_mean(&h.m)) && isnan(stats_stddev(&h.m)), "empty mean/stddev NaN");
	for (int k = 0; k < 4; k++)
	{
		CHECK(isnan(stats_hist_percentile(&h, ps[k])), "empty p%g", ps[k]);
		CHECK(isnan(stats_total_percentile(&t, ps[k])), "empty total p%g", ps[k]);
	}
	/* merging empties changes nothing; all-zero bytes is a valid empty */
	memset(&h2, 0, sizeof(h2));
	stats_hist_merge(&h, &h2);
	CHECK(memcmp(&h, &h2, sizeof(h)) == 0, "empty merge");

	/* single value */
	stats_hist_record(&h, 12345);
	for (int k = 0; k < 4; k++)
		CHECK(stats_hist_percentile(&h, ps[k]) == 12345, "single p%g = %.1f",
			  ps[k], stats_hist_percentile(&h, ps[k]));
	CHECK(stats_mean(&h.m) == 12345 && stats_stddev(&h.m) == 0, "single mean/stddev");
	CHECK(stats_min(&h.m) == 12345 && stats_max(&h.m) == 12345, "single min/max");
	/* merge into empty and empty into it */
	stats_hist_reset(&h2);
	stats_hist_merge(&h2, &h);
	CHECK(memcmp(&h, &h2, sizeof(h)) == 0, "merge into empty");

	/* value 0 */
	stats_hist_reset(&h);
	stats_hist_record(&h, 0);
	stats_hist_record(&h, 0);
	CHECK(stats_min(&h.m) == 0 && stats_max(&h.m) == 0 && stats_count(&h.m) == 2, "zeros");
	CHECK(stats_hist_percentile(&h, 50) == 0 && stats_mean(&h.m) == 0 &&
		  stats_stddev(&h.m) == 0, "zero stats");
	stats_hist_record(&h, 1000000);
	CHECK(stats_min(&h.m) == 0 && stats_max(&h.m) == 1000000, "zero then big");
	/* merge where the empty dst must not keep min = 0 */
	stats_hist_reset(&h2);
	stats_hist_record(&h2, 500);
	stats_hist_reset(&h);
	stats_hist_merge(&h, &h2);
	CHECK(stats_min(&h.m) == 500, "min after merge into empty: %llu",
		  (unsigned long long) stats_min(&h.m));

	/* p outside [0,100] is clamped, NaN p gives NaN */
	stats_hist_reset(&h);
	for (uint64_t v = 1000; v <= 2000; v++)
		stats_hist_record(&h, v);
	CHECK(stats_hist_percentile(&h, -5) == 1000 && stats_hist_percentile(&h, 150) == 2000,
		  "p clamp");
	CHECK(isnan(stats_hist_percentile(&h, NAN)), "NaN p");

	/* nearest rank with a decimal p: 99.9% of 1000 is rank 999, not 1000 */
	stats_hist_reset(&h);
	for (int i = 0; i < 999; i++)
		stats_hist_record(&h, 10);
	stats_hist_record(&h, 100);
	CHECK(stats_hist_percentile(&h, 99.9) == 10, "p99.9 of 999x10+100 = %.1f",
		  stats_hist_percentile(&h, 99.9));
	CHECK(stats_hist_percentile(&h, 99.95) == 100, "p99.95 = %.1f",
		  stats_hist_percentile(&h, 99.95));
	/* 16.1 * 1000 / 100 is 161.00000000000003 in doubles: still rank 161 */
	stats_hist_reset(&h);
	for (int i = 0; i < 1000; i++)
		stats_hist_record(&h, i < 161 ? 10 : 100);
	CHECK(stats_hist_percentile(&h, 16.1) == 10, "p16.1 of 161x10+839x100 = %.1f",
		  stats_hist_percentile(&h, 16.1));
	CHECK(stats_hist_percentile(&h, 16.2) == 100, "p16.2 = %.1f",
		  stats_hist_percentile(&h, 16.2));
	/*
	 * Midpoints are clamped to [min, max]: 1020..1022 sit in [1016,1023]
	 * (midpoint 1019.5 < min), 1009..1011 in [1008,1015] (1011.5 > max).
	 */
	stats_hist_reset(&h);
	stats_hist_reset(&h2);
	for (uint64_t v = 0; v < 3; v++)
	{
		stats_hist_record(&h, 1020 + v);
		stats_hist_record(&h2, 1009 + v);
	}
	CHECK(stats_bucket_lower(stats_bucket_index(1022)) == 1016 &&
		  stats_bucket_upper(stats_bucket_index(1020)) == 1023 &&
		  stats_bucket_lower(stats_bucket_index(1011)) == 1008 &&
		  stats_bucket_upper(stats_bucket_index(1009)) == 1015, "buckets near 1000");
	CHECK(stats_hist_percentile(&h, 50) == 1020, "clamped to min: %.1f",
		  stats_hist_percentile(&h, 50));
	CHECK(stats_hist_percentile(&h2, 50) == 1011, "clamped to max: %.1f",
		  stats_hist_percentile(&h2, 50));
	/* and 50% of 2 is rank 1 */
	stats_hist_reset(&h);
	stats_hist_record(&h, 7);
	stats_hist_record(&h, 90);
	CHECK(stats_hist_percentile(&h, 50) == 7 && stats_hist_percentile(&h, 50.0001) == 90,
		  "p50 of two");

	/* huge values: max and moments exact, percentiles clamped to [min,max] */
	stats_hist_reset(&h);
	stats_hist_record(&h, UINT64_C(3600000000));
	stats_hist_record(&h, STATS_MAX_TRACKABLE_US);
	stats_hist_record(&h, UINT64_C(10000000000));
	stats_hist_record(&h, UINT64_C(1) << 40);
	CHECK(stats_max(&h.m) == (UINT64_C(1) << 40), "huge max");
	CHECK(stats_min(&h.m) == UINT64_C(3600000000), "huge min");
	CHECK(stats_sum(&h.m) == UINT64_C(3600000000) + STATS_MAX_TRACKABLE_US +
		  UINT64_C(10000000000) + (UINT64_C(1) << 40), "huge sum");
	CHECK(h.counts[STATS_BUCKETS - 1] == 3, "three in the top bucket: %u",
		  h.counts[STATS_BUCKETS - 1]);
	CHECK(stats_hist_percentile(&h, 100) == (double) (UINT64_C(1) << 40), "huge p100");
	CHECK(rel_err(stats_hist_percentile(&h, 25), 3.6e9) <= MAX_REL_ERR, "1 h p25 %.1f",
		  stats_hist_percentile(&h, 25));
	for (int k = 1; k < 100; k++)
	{
		double		v = stats_hist_percentile(&h, k);

		CHECK(v >= 3.6e9 && v <= 1099511627776.0, "huge p%d = %.1f", k, v);
	}

	/* 128-bit sum of squares: (2^40)^2 = 2^80 exactly */
	stats_hist_reset(&h);
	stats_hist_record(&h, UINT64_C(1) << 40);
	CHECK(h.m.sumsq_hi == (UINT64_C(1) << 16) && h.m.sumsq_lo == 0, "sumsq 2^80");
	stats_hist_record(&h, 0);
	CHECK(stats_stddev(&h.m) == 549755813888.0, "stddev {0, 2^40} = 2^39: %.1f",
		  stats_stddev(&h.m));
	/* many 1 h values overflow 64 bits of sumsq, not 128 */
	stats_hist_reset(&h);
	for (int i = 0; i < 1000; i++)
		stats_hist_record(&h, UINT64_C(3600000000) + (uint64_t) (i & 1));
	CHECK(h.m.sumsq_hi > 0, "sumsq carried into the high word");
	CHECK(stats_stddev(&h.m) == 0.5, "stddev of 1h+{0,1} = %.17g", stats_stddev(&h.m));
	CHECK(stats_mean(&h.m) == 3600000000.5, "mean 1h+0.5");

	/* stddev without cancellation: 1e9 + {0,1,2} */
	stats_hist_reset(&h);
	for (int i = 0; i < 3000; i++)
		stats_hist_record(&h, UINT64_C(1000000000) + (uint64_t) (i % 3));
	CHECK(close_rel(stats_stddev(&h.m), sqrt(2.0 / 3.0), 1e-12), "stddev 1e9+{0,1,2} = %.17g",
		  stats_stddev(&h.m));

	/* per-second and per-run accumulators */
	stats_second_reset(&s1);
	stats_second_reset(&s2);
	stats_second_reset(&s3);
	stats_run_reset(&r);
	stats_total_reset(&t);
	rng_state = 99;
	for (int i = 0; i < 5000; i++)
	{
		uint64_t	v = to_us(exp(log(3000.0) + rng_normal()));

		stats_second_record_ok(i % 2 ? &s1 : &s2, v);
		stats_second_record_ok(&s3, v);
		stats_total_record(&t, v);
		if (i % 100 == 0)
		{
			stats_second_record_failed(i % 2 ? &s1 : &s2);
			stats_second_record_failed(&s3);
		}
	}
	stats_run_add_second(&r, &s1);
	stats_run_add_second(&r, &s2);
	stats_second_merge(&s1, &s2);
	CHECK(memcmp(&s1, &s3, sizeof(s1)) == 0, "second merge == union");
	CHECK(s1.transactions == 5000 && s1.failed == 50, "second counters %llu %llu",
		  (unsigned long long) s1.transactions, (unsigned long long) s1.failed);
	CHECK(r.transactions == 5000 && r.failed == 50, "run counters");
	CHECK(memcmp(&r.latency, &t, sizeof(t)) == 0, "run latency == direct total");
	{
		static stats_run r2;

		stats_run_reset(&r2);
		stats_run_merge(&r2, &r);
		stats_run_merge(&r2, &r);
		CHECK(r2.transactions == 10000 && r2.failed == 100 &&
			  stats_count(&r2.latency.m) == 10000, "run merge");
		CHECK(stats_total_percentile(&r2.latency, 95) == stats_total_percentile(&r.latency, 95),
			  "run merge percentiles");
	}
}

int
main(void)
{
	printf("test_stats: %d buckets, stats_hist %zu B, stats_total %zu B, "
		   "stats_second %zu B, stats_run %zu B\n",
		   STATS_BUCKETS, sizeof(stats_hist), sizeof(stats_total),
		   sizeof(stats_second), sizeof(stats_run));
	printf("bucket layout and 1..3.6e9 sweep\n");
	test_bucket_layout();
	printf("edge cases\n");
	test_edges();
	printf("percentiles, moments, merges on random data\n");
	test_datasets();
	printf("%d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
