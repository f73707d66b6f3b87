/*
 * test_ci.c
 *	  Standalone unit test for src/lang/ci.c (confidence intervals).
 *
 * Owns: the t quantile against the tables, the edge cases (too few
 * seconds or runs, non-finite input, a ratio to a mean indistinguishable
 * from 0), and coverage against known truth: thousands of simulated
 * experiments on synthetic series (independent, and AR(1) with phi 0.5
 * and 0.9) whose true mean or ratio is known; each kind of 95% interval
 * must cover the truth in 93% to 97% of them.  Fixed seeds: the same
 * draws on every run, so the test cannot flake.  No PostgreSQL needed:
 * make -C test/unit check.
 */
#include "../../src/lang/ci.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit_check.h"

#define EXPERIMENTS		4000
#define MAX_N			1200

/* ---------------------------------------------------------------- rng */

#include "unit_rng.h"

/* standard normal, Box-Muller */
static double
rng_normal(void)
{
	double		u1 = rng_unit();
	double		u2 = rng_unit();

	return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}

/*
 * n seconds of an AR(1) series with mean mu: x_t = mu + sd * y_t,
 * y_t = phi y_(t-1) + e_t, started in its stationary distribution.
 */
static void
ar1(double *x, int n, double mu, double sd, double phi)
{
	double		y = rng_normal() / sqrt(1.0 - phi * phi);
	int			i;

	for (i = 0; i < n; i++)
	{
		y = phi * y + rng_normal();
		x[i] = mu + sd * y;
	}
}

static double xa[MAX_N],
			xb[MAX_N];

static void
check_coverage_of(const char *what, int covered, int intervals, int min_intervals)
{
	double		c = (double) covered / intervals;

	printf("  %-52s %5.1f%% of %d\n", what, 100.0 * c, intervals);
	CHECK(intervals >= min_intervals,
		  "%s: %d intervals of %d experiments", what, intervals, EXPERIMENTS);
	CHECK(c >= 0.93 && c <= 0.97, "%s: coverage %.3f", what, c);
}

/*
 * Fieller gives none when A's mean is not distinguishable from 0: with 3
 * runs of a 15% spread, a few times in 4000 (its set is then unbounded,
 * and would cover the truth).
 */
static void
check_coverage(const char *what, int covered, int intervals)
{
	check_coverage_of(what, covered, intervals, EXPERIMENTS - EXPERIMENTS / 400);
}

/* one run's interval from its seconds */
static void
coverage_run_seconds(double phi, int n, uint64_t seed)
{
	int			covered = 0,
				intervals = 0,
				e;
	char		what[100];

	rng_state = seed;
	for (e = 0; e < EXPERIMENTS; e++)
	{
		ci_interval ci;

		ar1(xa, n, 1000.0, 50.0, phi);
		if (!ci_run_seconds(xa, n, &ci))
			continue;
		intervals++;
		covered += (ci.low <= 1000.0 && 1000.0 <= ci.high);
	}
	snprintf(what, sizeof(what), "one run, AR(1) phi %.1f, %d s", phi, n);
	/*
	 * A run whose seconds move as one for about as long as it lasts has
	 * none (4% of them at phi 0.9 and 120 s): the coverage is of the
	 * intervals printed, and they must be at least 90% of the runs.
	 */
	check_coverage_of(what, covered, intervals, EXPERIMENTS - EXPERIMENTS / 10);
}

/* a point's interval across its runs */
static void
coverage_repeats(int runs, uint64_t seed)
{
	int			covered = 0,
				intervals = 0,
				e,
				i;
	char		what[100];

	rng_state = seed;
	for (e = 0; e < EXPERIMENTS; e++)
	{
		ci_interval ci;

		for (i = 0; i < runs; i++)
			xa[i] = 2000.0 + 150.0 * rng_normal();
		if (!ci_mean_t(xa, runs, &ci))
			continue;
		intervals++;
		covered += (ci.low <= 2000.0 && 2000.0 <= ci.high);
	}
	snprintf(what, sizeof(what), "t-interval over %d runs", runs);
	check_coverage(what, covered, intervals);
}

/* B/A from runs on each side (true ratio mb / ma); counts significance */
static void
coverage_ratio_repeats(int na, int nb, double ma, double mb, double sda,
					   double sdb, uint64_t seed, int *significant)
{
	int			covered = 0,
				intervals = 0,
				e,
				i;
	double		truth = mb / ma;
	char		what[100];

	*significant = 0;
	rng_state = seed;
	for (e = 0; e < EXPERIMENTS; e++)
	{
		ci_interval a,
					b,
					r;

		for (i = 0; i < na; i++)
			xa[i] = ma + sda * rng_normal();
		for (i = 0; i < nb; i++)
			xb[i] = mb + sdb * rng_normal();
		if (!ci_mean_t(xa, na, &a) || !ci_mean_t(xb, nb, &b)
			|| !ci_ratio_fieller(&a, &b, &r))
			continue;
		intervals++;
		covered += (r.low <= truth && truth <= r.high);
		*significant += ci_significant(&r);
		CHECK(r.low <= r.estimate && r.estimate <= r.high,
			  "ratio %g outside its interval [%g, %g]", r.estimate, r.low, r.high);
	}
	snprintf(what, sizeof(what), "Fieller B/A = %.2f, %d vs %d runs", truth, na, nb);
	check_coverage(what, covered, intervals);
}

/* B/A of two runs' seconds, each by batch means */
static void
coverage_ratio_seconds(double phi, int n, double ma, double mb, uint64_t seed)
{
	int			covered = 0,
				intervals = 0,
				e;
	double		truth = mb / ma;
	char		what[100];

	rng_state = seed;
	for (e = 0; e < EXPERIMENTS; e++)
	{
		ci_interval a,
					b,
					r;

		ar1(xa, n, ma, 0.05 * ma, phi);
		ar1(xb, n, mb, 0.05 * mb, phi);
		if (!ci_run_seconds(xa, n, &a) || !ci_run_seconds(xb, n, &b)
			|| !ci_ratio_fieller(&a, &b, &r))
			continue;
		intervals++;
		covered += (r.low <= truth && truth <= r.high);
	}
	snprintf(what, sizeof(what), "Fieller B/A = %.2f, seconds phi %.1f, %d s",
			 truth, phi, n);
	check_coverage(what, covered, intervals);
}

static void
test_t975(void)
{
	/* R: qt(0.975, df) */
	static const struct
	{
		double		df;
		double		t;
	}			tab[] = {
		{1, 12.7062}, {2, 4.3027}, {3, 3.1824}, {4, 2.7764}, {5, 2.5706},
		{9, 2.2622}, {10, 2.2281}, {20, 2.0860}, {30, 2.0423}, {100, 1.9840},
		{31, 2.0395}, {45.5, 2.0137}, {1e6, 1.9600}
	};
	size_t		i;

	for (i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
	{
		double		t = ci_t975(tab[i].df);

		CHECK(fabs(t - tab[i].t) < 0.002, "t975(%g) = %.4f, not %.4f",
			  tab[i].df, t, tab[i].t);
	}
	/* fractional degrees of freedom lie between their neighbours */
	CHECK(ci_t975(2.5) < ci_t975(2.0) && ci_t975(2.5) > ci_t975(3.0),
		  "t975(2.5) = %g", ci_t975(2.5));
	CHECK(ci_t975(7.5) < ci_t975(7.0) && ci_t975(7.5) > ci_t975(8.0),
		  "t975(7.5) = %g", ci_t975(7.5));
	CHECK(isnan(ci_t975(0.5)), "t975(0.5) is not NaN");
}

static void
test_edges(void)
{
	double		x[CI_MIN_SECONDS + 5];
	ci_interval ci,
				bm,
				a,
				b,
				r;
	int			i;

	for (i = 0; i < CI_MIN_SECONDS; i++)
		x[i] = 100.0 + (i * 7) % 11;
	CHECK(!ci_run_seconds(x, CI_MIN_SECONDS - 1, &ci), "interval from 119 s");
	CHECK(ci_run_seconds(x, CI_MIN_SECONDS, &ci), "no interval from 120 s");
	/* negatively correlated seconds: the batch means' interval */
	CHECK(ci.low < ci.estimate && ci.estimate < ci.high && ci.df == 9,
		  "120 s: [%g, %g] around %g, df %g", ci.low, ci.high, ci.estimate, ci.df);
	/* a constant series: an interval of width 0 */
	for (i = 0; i < CI_MIN_SECONDS; i++)
		x[i] = 50.0;
	CHECK(ci_run_seconds(x, CI_MIN_SECONDS, &ci) && ci.low == 50.0
		  && ci.high == 50.0, "constant: [%g, %g]", ci.low, ci.high);
	x[3] = NAN;
	CHECK(!ci_run_seconds(x, CI_MIN_SECONDS, &ci), "interval with a NaN second");
	CHECK(!ci_mean_t(x, 1, &ci), "interval from one run");
	CHECK(!ci_mean_t(NULL, 0, &ci), "interval from no run");

	/* the leftover seconds left out are the first ones */
	for (i = 0; i < CI_MIN_SECONDS + 5; i++)
		x[i] = (i < 5) ? 1e6 : 10.0 + (i % 2);
	CHECK(ci_run_seconds(x, CI_MIN_SECONDS + 5, &ci) && ci.estimate == 10.5,
		  "125 s: the first 5 left out, mean %g", ci.estimate);

	/*
	 * Seconds that wander (a wave of 12 s and a little noise): the AR(1)
	 * reading is wider than the batch means' (whose 12 s batches each hold
	 * one whole wave, and look alike), and is the interval, with its own
	 * degrees of freedom.
	 */
	for (i = 0; i < CI_MIN_SECONDS; i++)
		x[i] = 100.0 + 10.0 * sin(2.0 * 3.14159265358979 * i / 12.0) + ((i * 7) % 5 - 2) * 0.5;
	CHECK(ci_run_seconds(x, CI_MIN_SECONDS, &ci) && ci.df != 9 && ci.df >= 1,
		  "a slow wave: df %g", ci.df);
	{
		double		means[CI_BATCHES];
		int			j;

		for (j = 0; j < CI_BATCHES; j++)
		{
			means[j] = 0.0;
			for (i = 0; i < CI_MIN_SECONDS / CI_BATCHES; i++)
				means[j] += x[j * (CI_MIN_SECONDS / CI_BATCHES) + i] / (CI_MIN_SECONDS / CI_BATCHES);
		}
		CHECK(ci_mean_t(means, CI_BATCHES, &bm) && ci.high - ci.low > bm.high - bm.low,
			  "a slow wave: [%g, %g] not wider than the batch means' [%g, %g]",
			  ci.low, ci.high, bm.low, bm.high);
	}
	/* a ramp moves as one for as long as the run: none */
	for (i = 0; i < CI_MIN_SECONDS; i++)
		x[i] = 100.0 + i;
	CHECK(!ci_run_seconds(x, CI_MIN_SECONDS, &ci), "a ramp: [%g, %g]", ci.low, ci.high);

	/* a ratio to a mean indistinguishable from 0 has no interval */
	a.estimate = 1.0;
	a.se = 1.0;
	a.df = 4;
	b.estimate = 10.0;
	b.se = 1.0;
	b.df = 4;
	CHECK(!ci_ratio_fieller(&a, &b, &r), "ratio to ~0: [%g, %g]", r.low, r.high);
	a.estimate = 100.0;
	CHECK(ci_ratio_fieller(&a, &b, &r) && r.low < 0.1 && r.high > 0.1
		  && fabs(r.estimate - 0.1) < 1e-12, "10/100: [%g, %g]", r.low, r.high);
	CHECK(ci_significant(&r), "10/100 not significant");
	/* no noise: the interval is the ratio itself */
	a.se = b.se = 0.0;
	CHECK(ci_ratio_fieller(&a, &b, &r) && r.low == r.high && r.low == 0.1,
		  "exact: [%g, %g]", r.low, r.high);
	b.estimate = 100.0;
	CHECK(ci_ratio_fieller(&a, &b, &r) && !ci_significant(&r),
		  "100/100 exact is significant");
	a.df = 0;
	CHECK(!ci_ratio_fieller(&a, &b, &r), "ratio without degrees of freedom");
}

int
main(void)
{
	int			sig;

	test_t975();
	test_edges();

	printf("coverage of the 95%% intervals over %d experiments each:\n",
		   EXPERIMENTS);
	/* issue 35: every interval printed, for phi 0.3 to 0.9, from 120 s */
	coverage_run_seconds(0.0, 120, 101);
	coverage_run_seconds(0.0, 300, 102);
	coverage_run_seconds(0.3, 120, 103);
	coverage_run_seconds(0.3, 300, 104);
	coverage_run_seconds(0.5, 120, 105);
	coverage_run_seconds(0.5, 300, 106);
	coverage_run_seconds(0.5, 600, 107);
	coverage_run_seconds(0.7, 120, 108);
	coverage_run_seconds(0.7, 300, 109);
	coverage_run_seconds(0.7, 600, 110);
	coverage_run_seconds(0.9, 120, 111);
	coverage_run_seconds(0.9, 300, 112);
	coverage_run_seconds(0.9, 600, 113);
	coverage_run_seconds(0.9, 1200, 114);

	coverage_repeats(2, 201);
	coverage_repeats(3, 202);
	coverage_repeats(10, 203);

	/* A/A: the same truth on both sides, significant in about 5% */
	coverage_ratio_repeats(3, 3, 1000.0, 1000.0, 100.0, 100.0, 301, &sig);
	printf("  A/A, 3 vs 3 runs: significant in %.1f%%\n", 100.0 * sig / EXPERIMENTS);
	CHECK(sig >= 0.03 * EXPERIMENTS && sig <= 0.07 * EXPERIMENTS,
		  "A/A significant in %d of %d", sig, EXPERIMENTS);
	/* A/B with half the throughput and unequal noise: always significant */
	coverage_ratio_repeats(5, 5, 1000.0, 500.0, 50.0, 40.0, 302, &sig);
	CHECK(sig == EXPERIMENTS, "B/A = 0.5 significant in only %d", sig);
	coverage_ratio_repeats(3, 8, 1000.0, 1100.0, 150.0, 60.0, 303, &sig);
	coverage_ratio_seconds(0.0, 120, 1000.0, 1500.0, 401);
	coverage_ratio_seconds(0.5, 300, 1000.0, 950.0, 402);

	printf("test_ci: %d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
