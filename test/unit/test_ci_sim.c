/*
 * test_ci_sim.c
 *	  Standalone simulation test of the comparisons of src/lang/ci.c as
 *	  compare() and experiment_report use them (issue 35): do the printed
 *	  intervals cover the truth, how often is an A/A comparison called
 *	  significant, per comparison and per ladder after Holm's correction,
 *	  and how often is a 10% effect found.
 *
 * Owns: a model of a benchmark on a shared machine, on the log scale of
 * throughput, with the sources of variation the audit of issue 35 measured:
 *   - run noise: each run's level varies by RUN_SD;
 *   - the seconds of a run: AR(1) with phi 0.3, 0.5, 0.7 or 0.9 around its
 *     level (SEC_SD each), the run's tps their mean;
 *   - sweep-level drift: every run of one sweep (or one round of an
 *     experiment) shares an offset of SWEEP_SD, as large as the run noise
 *     (the audit measured 3.3 to 3.6 times the within-sweep variance);
 *   - linear drift across an experiment or a series of sweeps: DRIFT per
 *     run, continuing across the ladder.
 * Fixed seeds: the same draws on every run, so the test cannot flake.
 * Checks: coverage of every unadjusted 95% interval in 93% to 97%; the
 * Holm-adjusted ones at least 95% (they are wider by construction); A/A
 * false positives at most 5% per comparison and per ladder after Holm,
 * within the Monte Carlo error of SIMS experiments (two standard errors,
 * 0.7 points at 4000); power on a 10% effect printed.  Runs in well under
 * a second: make -C test/unit check.
 */
#include "../../src/lang/ci.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "unit_check.h"
#include "unit_rng.h"

#define SIMS			4000
#define LADDER			14		/* client counts of a ladder */
#define SECONDS			10		/* seconds of a run */
#define REPEATS			3		/* runs of a sweep's point */
#define MAX_OBS			16

#define RUN_SD			0.05
#define SEC_SD			0.10
#define SWEEP_SD		0.05
#define DRIFT			0.002

/* Monte Carlo allowance on a rate of 5% estimated from SIMS draws */
#define FP_LIMIT		(0.05 + 2.0 * sqrt(0.05 * 0.95 / SIMS))

static double
rng_normal(void)
{
	double		u1 = rng_unit();
	double		u2 = rng_unit();

	return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}

/*
 * One run's tps at log level mu (offset: its sweep's or round's; slot: its
 * place in time, for the linear drift): its level with run noise, times
 * the mean of SECONDS AR(1) seconds of marginal sd SEC_SD.
 */
static double
run_tps(double mu, double offset, int slot, double phi)
{
	double		y = rng_normal();
	double		sum = 0.0;
	int			t;

	for (t = 0; t < SECONDS; t++)
	{
		y = phi * y + sqrt(1.0 - phi * phi) * rng_normal();
		sum += 1.0 + SEC_SD * y;
	}
	return exp(mu + offset + DRIFT * slot + RUN_SD * rng_normal()) * sum / SECONDS;
}

/*
 * An experiment's client count: rounds of A and B in ABBA order (A B,
 * B A, ...), each round with its own offset (the machine's state, shared
 * by the pair); B's true ratio to A is truth.  The pairs' interval.
 */
static bool
experiment(double truth, int rounds, double phi, int *slot, ci_log_ratio *r)
{
	double		a[MAX_OBS],
				b[MAX_OBS];
	int			i;

	for (i = 0; i < rounds; i++)
	{
		double		off = SWEEP_SD * rng_normal();

		if (i % 2 == 0)
		{
			a[i] = run_tps(0.0, off, (*slot)++, phi);
			b[i] = run_tps(log(truth), off, (*slot)++, phi);
		}
		else
		{
			b[i] = run_tps(log(truth), off, (*slot)++, phi);
			a[i] = run_tps(0.0, off, (*slot)++, phi);
		}
	}
	return ci_log_ratio_paired(a, b, rounds, r);
}

/*
 * k sweeps a side in ABBA order (A B B A A B ...), each a ladder of
 * ncounts client counts with REPEATS runs each and its own offset; per
 * client count, each sweep's geometric mean is one observation and the
 * sides are compared by the pooled t (compare() with two or more sweeps a side).
 * With k = 1, old_r gets what 0.5 did: a t-interval over the runs of the one
 * sweep of each side.
 */
static int
sweeps(double truth, int k, int ncounts, double phi, ci_log_ratio *r,
	   ci_log_ratio *old_r)
{
	double		obs_a[LADDER][MAX_OBS],
				obs_b[LADDER][MAX_OBS],
				runs_a[LADDER][REPEATS],
				runs_b[LADDER][REPEATS];
	int			na = 0,
				nb = 0,
				slot = 0,
				s,
				c,
				i,
				ok = 0;

	for (s = 0; s < 2 * k; s++)
	{
		bool		is_b = (s % 4 == 1 || s % 4 == 2);
		double		mu = is_b ? log(truth) : 0.0;
		double		off = SWEEP_SD * rng_normal();

		for (c = 0; c < ncounts; c++)
		{
			double		sum = 0.0;

			for (i = 0; i < REPEATS; i++)
			{
				double		v = run_tps(mu, off, slot++, phi);

				sum += log(v);
				if (is_b)
					runs_b[c][i] = v;
				else
					runs_a[c][i] = v;
			}
			if (is_b)
				obs_b[c][nb] = exp(sum / REPEATS);
			else
				obs_a[c][na] = exp(sum / REPEATS);
		}
		if (is_b)
			nb++;
		else
			na++;
	}
	for (c = 0; c < ncounts; c++)
	{
		if (k >= 2)
			ok += ci_log_ratio_pooled(obs_a[c], na, obs_b[c], nb, &r[c]);
		else
			ok += ci_log_ratio_pooled(runs_a[c], REPEATS, runs_b[c], REPEATS, &old_r[c]);
	}
	return ok;
}

static bool
covers(double low, double high, double truth)
{
	return low <= truth && truth <= high;
}

static void
check_coverage(const char *what, int covered, int n)
{
	double		c = (double) covered / n;

	printf("  %-58s coverage %5.1f%%\n", what, 100.0 * c);
	CHECK(n == SIMS, "%s: %d intervals of %d", what, n, SIMS);
	CHECK(c >= 0.93 && c <= 0.97, "%s: coverage %.3f", what, c);
}

static void
check_fp(const char *what, int fp)
{
	double		f = (double) fp / SIMS;

	printf("  %-58s A/A significant %4.1f%%\n", what, 100.0 * f);
	CHECK(f <= FP_LIMIT, "%s: A/A significant in %.3f", what, f);
}

/* one client count of an experiment: coverage, A/A, power */
static void
sim_experiment(int rounds, double phi, uint64_t seed)
{
	static const double truths[] = {1.0, 0.9, 1.1};
	char		what[120];
	int			t,
				e;

	for (t = 0; t < 3; t++)
	{
		int			covered = 0,
					n = 0,
					sig = 0;

		rng_state = seed + t;
		for (e = 0; e < SIMS; e++)
		{
			ci_log_ratio r;
			int			slot = 0;

			if (!experiment(truths[t], rounds, phi, &slot, &r))
				continue;
			n++;
			covered += covers(r.low, r.high, truths[t]);
			sig += (r.p < 0.05);
			CHECK(r.low <= r.ratio && r.ratio <= r.high && r.low > 0,
				  "ratio %g outside [%g, %g]", r.ratio, r.low, r.high);
			CHECK((r.p < 0.05) == (r.low > 1.0 || r.high < 1.0),
				  "p %g against [%g, %g]", r.p, r.low, r.high);
		}
		snprintf(what, sizeof(what), "experiment, %d ABBA pairs, phi %.1f, B/A %.1f",
				 rounds, phi, truths[t]);
		check_coverage(what, covered, n);
		if (t == 0)
			check_fp(what, sig);
		else
			printf("  %-58s power %5.1f%%\n", what, 100.0 * sig / SIMS);
	}
}

/*
 * An experiment with target_ci: ABBA rounds from 2, a block of 2 more until
 * there are 4 pairs or more and the 97% interval (experiment_report's for
 * such an experiment) is within +-target of the ratio, or MAX_OBS rounds
 * (the budget).  Stopping on a narrow interval is optional stopping: at
 * 95% such intervals covered 92-94%; the 97% ones must cover 93-97%, and
 * an A/A comparison must be significant at most 5% of the time.
 */
static void
sim_target_experiment(double target, double phi, uint64_t seed)
{
	static const double truths[] = {1.0, 0.9};
	char		what[120];

	for (int t = 0; t < 2; t++)
	{
		int			covered = 0,
					n = 0,
					sig = 0,
					pairs = 0,
					met = 0;

		rng_state = seed + t;
		for (int e = 0; e < SIMS; e++)
		{
			double		a[MAX_OBS],
						b[MAX_OBS];
			double		low = 0,
						high = 0;
			ci_log_ratio r;
			int			k = 0,
						slot = 0;
			bool		ok = false;

			while (k < MAX_OBS)
			{
				double		off = SWEEP_SD * rng_normal();

				if (k % 2 == 0)
				{
					a[k] = run_tps(0.0, off, slot++, phi);
					b[k] = run_tps(log(truths[t]), off, slot++, phi);
				}
				else
				{
					b[k] = run_tps(log(truths[t]), off, slot++, phi);
					a[k] = run_tps(0.0, off, slot++, phi);
				}
				k++;
				if (k < 2 || k % 2 != 0)
					continue;
				ok = ci_log_ratio_paired(a, b, k, &r) && ci_log_bounds(&r, 0.03, &low, &high);
				if (ok && k >= 4 && fmax(high - r.ratio, r.ratio - low) <= target * r.ratio)
				{
					met++;
					break;
				}
			}
			if (!ok)
				continue;
			n++;
			pairs += k;
			covered += covers(low, high, truths[t]);
			sig += (r.p < 0.03);
		}
		snprintf(what, sizeof(what), "target_ci %.2f, phi %.1f, B/A %.1f: %.1f pairs, %d%% met",
				 target, phi, truths[t], (double) pairs / SIMS, 100 * met / SIMS);
		check_coverage(what, covered, n);
		if (t == 0)
			check_fp(what, sig);
		else
			printf("  %-58s power %5.1f%%\n", what, 100.0 * sig / SIMS);
	}
}

/* sweeps against sweeps, one client count */
static void
sim_sweeps(int k, double phi, uint64_t seed)
{
	static const double truths[] = {1.0, 0.9};
	char		what[120];
	int			t,
				e;

	for (t = 0; t < 2; t++)
	{
		int			covered = 0,
					n = 0,
					sig = 0;

		rng_state = seed + t;
		for (e = 0; e < SIMS; e++)
		{
			ci_log_ratio r[1],
						old[1];

			if (sweeps(truths[t], k, 1, phi, r, old) != 1)
				continue;
			n++;
			covered += covers(r[0].low, r[0].high, truths[t]);
			sig += (r[0].p < 0.05);
		}
		snprintf(what, sizeof(what), "%d and %d interleaved sweeps, phi %.1f, B/A %.1f",
				 k, k, phi, truths[t]);
		check_coverage(what, covered, n);
		if (t == 0)
			check_fp(what, sig);
		else
			printf("  %-58s power %5.1f%%\n", what, 100.0 * sig / SIMS);
	}
}

/*
 * Why compare() no longer tests one sweep against one: the runs of one
 * sweep share its offset, which an interval over them cannot see.  The
 * false-positive rate of that test is printed and must be well above 5%,
 * or the model has no sweep-level drift and tests nothing.
 */
static void
sim_one_sweep_each(uint64_t seed)
{
	int			sig = 0,
				e;

	rng_state = seed;
	for (e = 0; e < SIMS; e++)
	{
		ci_log_ratio r[1],
					old[1];

		if (sweeps(1.0, 1, 1, 0.5, r, old) == 1)
			sig += (old[0].p < 0.05);
	}
	printf("  %-58s A/A significant %4.1f%%\n",
		   "one sweep each, t over their runs (0.5's test, not used)",
		   100.0 * sig / SIMS);
	CHECK(sig > 0.10 * SIMS, "the model's sweep drift fools 0.5's test only %d times", sig);
}

/*
 * A ladder of LADDER client counts, A/A: how often is any of them called
 * significant, without correction and with Holm's; and the coverage of
 * the Holm-adjusted intervals (each at least 95%).
 */
static void
sim_ladder(bool experiments, int n, double phi, uint64_t seed)
{
	int			any_raw = 0,
				any_holm = 0,
				covered = 0,
				intervals = 0,
				e,
				c;
	char		what[120];

	rng_state = seed;
	for (e = 0; e < SIMS; e++)
	{
		ci_log_ratio r[LADDER],
					old[LADDER];
		double		p[LADDER],
					level[LADDER];
		bool		raw = false,
					holm = false;
		int			slot = 0;

		if (experiments)
		{
			for (c = 0; c < LADDER; c++)
				if (!experiment(1.0, n, phi, &slot, &r[c]))
					break;
			if (c < LADDER)
				continue;
		}
		else if (sweeps(1.0, n, LADDER, phi, r, old) != LADDER)
			continue;
		for (c = 0; c < LADDER; c++)
			p[c] = r[c].p;
		CHECK(ci_holm(p, LADDER, 0.05, level) == LADDER, "Holm tested all");
		for (c = 0; c < LADDER; c++)
		{
			double		low,
						high;

			raw |= (p[c] < 0.05);
			holm |= (p[c] < level[c]);
			CHECK(ci_log_bounds(&r[c], level[c], &low, &high), "adjusted bounds");
			CHECK((p[c] < level[c]) == (low > 1.0 || high < 1.0),
				  "Holm's verdict %g < %g against [%g, %g]", p[c], level[c], low, high);
			CHECK(low <= r[c].low && r[c].high <= high, "adjusted narrower");
			intervals++;
			covered += covers(low, high, 1.0);
		}
		any_raw += raw;
		any_holm += holm;
	}
	/*
	 * Sweeps of a whole ladder: the linear drift moves each sweep by
	 * LADDER * REPEATS * DRIFT (8%), which the spread between the sweeps
	 * of a side includes: valid, wide, and A/A next to never significant.
	 */
	snprintf(what, sizeof(what), "ladder of %d, %d %s, phi %.1f, unadjusted", LADDER, n,
			 experiments ? "ABBA pairs" : "sweeps a side", phi);
	printf("  %-58s A/A any significant %4.1f%%\n", what, 100.0 * any_raw / SIMS);
	snprintf(what, sizeof(what), "ladder of %d, %d %s, phi %.1f, Holm", LADDER, n,
			 experiments ? "ABBA pairs" : "sweeps a side", phi);
	check_fp(what, any_holm);
	printf("  %-58s coverage %5.1f%%\n", "  its Holm-adjusted intervals", 100.0 * covered / intervals);
	CHECK(covered >= 0.95 * intervals, "Holm-adjusted coverage %d of %d", covered, intervals);
}

static void
test_t_distribution(void)
{
	/* R: pt(), qt() */
	CHECK(fabs(ci_t_cdf(2.0, 5) - 0.9490303) < 1e-6, "pt(2, 5) = %.7f", ci_t_cdf(2.0, 5));
	CHECK(fabs(ci_t_cdf(-1.0, 1) - 0.25) < 1e-9, "pt(-1, 1) = %.9f", ci_t_cdf(-1.0, 1));
	CHECK(fabs(ci_t_cdf(0.0, 3.5) - 0.5) < 1e-12, "pt(0, 3.5)");
	CHECK(fabs(ci_t_quantile(0.975, 2) - 4.302653) < 1e-5, "qt(.975, 2) = %.6f", ci_t_quantile(0.975, 2));
	CHECK(fabs(ci_t_quantile(0.975, 9) - 2.262157) < 1e-5, "qt(.975, 9) = %.6f", ci_t_quantile(0.975, 9));
	for (double q = 0.6; q < 0.9999; q = 1.0 - (1.0 - q) / 3.0)
		for (double df = 1.0; df < 100.0; df *= 1.7)
			CHECK(fabs(ci_t_cdf(ci_t_quantile(q, df), df) - q) < 1e-10,
				  "cdf(quantile(%g, %g)) = %.12f", q, df, ci_t_cdf(ci_t_quantile(q, df), df));
	CHECK(fabs(ci_t_quantile(0.025, 1e6) + 1.959966) < 1e-4, "qt(.025, 1e6)");
	for (double df = 1.0; df <= 40.0; df += 1.0)
		CHECK(fabs(ci_t_quantile(0.975, df) - ci_t975(df)) < 0.003,
			  "quantile %g against t975 %g at df %g", ci_t_quantile(0.975, df), ci_t975(df), df);
	CHECK(isnan(ci_t_quantile(1.0, 3)) && isnan(ci_t_cdf(1.0, 0)), "out of range");
}

static void
test_log_edges(void)
{
	double		a[4] = {100, 110, 90, 105},
				b[4] = {50, 55, 45, 52.5},
				z[2] = {100, 0},
				p[5] = {0.01, 0.04, 0.03, NAN, 0.005},
				level[5];
	ci_log_ratio r;

	/* b = a / 2 exactly except the last: a ratio near 0.5, a narrow interval */
	CHECK(ci_log_ratio_paired(a, b, 4, &r) && fabs(r.ratio - 0.5) < 1e-12
		  && r.high - r.low < 1e-9 && r.p < 1e-6, "exact halves: %g [%g, %g] p %g",
		  r.ratio, r.low, r.high, r.p);
	b[3] = 60;
	CHECK(ci_log_ratio_paired(a, b, 4, &r) && r.low < r.ratio && r.ratio < r.high
		  && r.df == 3 && r.p < 0.05, "paired: %g [%g, %g] p %g", r.ratio, r.low, r.high, r.p);
	CHECK(!ci_log_ratio_paired(a, b, 1, &r), "one pair");
	CHECK(!ci_log_ratio_paired(a, z, 2, &r), "a zero has no log");
	CHECK(!ci_log_ratio_pooled(a, 4, z, 2, &r), "pooled with a zero");
	CHECK(!ci_log_ratio_pooled(a, 1, b, 4, &r), "pooled with one value");
	/* geometric means: sqrt(100 * 400) = 200 against sqrt(50 * 200) = 100 */
	{
		double		x[2] = {100, 400},
					y[2] = {50, 200};

		CHECK(ci_log_ratio_pooled(x, 2, y, 2, &r) && fabs(r.ratio - 0.5) < 1e-12
			  && r.df == 2.0 && r.low > 0 && isfinite(r.high),
			  "pooled: %g df %g [%g, %g]", r.ratio, r.df, r.low, r.high);
	}
	/* Holm: 0.005 < .05/4, 0.01 < .05/3, 0.03 >= .05/2: stop there */
	CHECK(ci_holm(p, 5, 0.05, level) == 4, "Holm: 4 tested");
	CHECK(fabs(level[4] - 0.0125) < 1e-12 && fabs(level[0] - 0.05 / 3) < 1e-12
		  && fabs(level[2] - 0.025) < 1e-12 && fabs(level[1] - 0.025) < 1e-12
		  && isnan(level[3]), "Holm levels %g %g %g %g %g",
		  level[0], level[1], level[2], level[3], level[4]);
}

int
main(void)
{
	static const double phis[] = {0.3, 0.5, 0.7, 0.9};
	int			i;

	test_t_distribution();
	test_log_edges();

	printf("simulated benchmarks, %d each (run sd %.2f, sweep sd %.2f, drift %.3f/run, %d s runs):\n",
		   SIMS, RUN_SD, SWEEP_SD, DRIFT, SECONDS);
	for (i = 0; i < 4; i++)
	{
		sim_experiment(4, phis[i], 1000 + 10 * i);
		sim_experiment(6, phis[i], 1100 + 10 * i);
		sim_sweeps(2, phis[i], 2000 + 10 * i);
		sim_sweeps(3, phis[i], 2100 + 10 * i);
	}
	sim_experiment(10, 0.5, 1200);
	sim_target_experiment(0.06, 0.5, 1300);
	sim_target_experiment(0.08, 0.5, 1310);
	sim_target_experiment(0.12, 0.5, 1320);
	sim_target_experiment(0.12, 0.9, 1330);
	sim_sweeps(5, 0.5, 2200);
	sim_one_sweep_each(3000);
	sim_ladder(true, 4, 0.5, 4000);
	sim_ladder(true, 6, 0.9, 4100);
	sim_ladder(false, 3, 0.5, 4200);

	printf("test_ci_sim: %d checks, %d failures\n", checks, failures);
	return failures ? 1 : 0;
}
