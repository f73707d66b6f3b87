/*-------------------------------------------------------------------------
 *
 * ci.h
 *	  95% confidence intervals of throughput: of one run from its
 *	  per-second samples, across a point's repeated runs, and of a ratio
 *	  B/A between two sides (issue 23).
 *
 * This file owns: the statistics that say how sure a figure is, in plain
 * C99 on arrays of doubles: batch means for autocorrelated per-second
 * samples (with an AR(1) correction), the t-interval of a mean over repeats, Fieller's interval of a
 * ratio of two independent means, and the t quantile they need.
 *
 * Must not: include PostgreSQL headers, allocate memory, keep state, or
 * draw random numbers (every interval here is deterministic: the same
 * samples give the same interval, on every machine).
 *
 * Methods (docs/comparing.md says the same for users):
 *
 * - One run, from its per-second samples (ci_run_seconds): the precision
 *   of this run's own mean, never a comparison (another run of the same
 *   settings differs by more: run-to-run noise is outside it).  The
 *   seconds are autocorrelated (a checkpoint or a vacuum lasts several),
 *   so the naive interval over them is too narrow.  Two readings of the
 *   last CI_BATCHES * m seconds, m = floor(n / CI_BATCHES) (the first
 *   n mod 10 seconds, the start of the run, are left out):
 *   . batch means: CI_BATCHES = 10 batches of m consecutive seconds, the
 *     t-interval (9 degrees of freedom) of their mean (Schmeiser 1982);
 *   . AR(1): the lag-1 autocorrelation of the seconds, corrected for its
 *     bias (+ (1 + 4 phi) / n), inflates the variance of the mean by
 *     (1 + phi) / (1 - phi), over n (1 - phi) / (1 + phi) effective
 *     seconds, with the seconds' variance corrected for the correlation.
 *   When that autocorrelation is above CI_AR_THRESHOLD = 0.3 and a batch
 *   is shorter than CI_AR_BATCH_TAUS = 3 correlation times
 *   (1 + phi) / (1 - phi), the wider of the two is the interval;
 *   otherwise the batch means' (their batches are then nearly
 *   independent, and the wider of two right intervals would cover more
 *   than 95%).  Batch means alone are too narrow when a batch is not much
 *   longer than the correlation (85% coverage at phi 0.5 and 20 s, 43% at
 *   phi 0.9, the audit of issue 35); the AR(1) reading alone is too narrow
 *   when the autocorrelation happens to be underestimated; the wider of
 *   them covers.  Refusing an interval because the estimated
 *   autocorrelation is high does not work: the runs kept are those whose
 *   correlation was underestimated, and they cover less.  No interval
 *   (returns false) under CI_MIN_SECONDS = 120 seconds (at 60 s, AR(1)
 *   seconds of phi 0.9 were covered 91% of the time), when the corrected
 *   autocorrelation reaches CI_AR_MAX = 0.98 or leaves less than 2
 *   effective seconds (the run moves as one for about as long as it
 *   lasts: 4% of the runs at phi 0.9 and 120 s), or with a non-finite
 *   sample.  test/unit/test_ci.c checks 93-97% coverage of the intervals
 *   given over 4000 simulated runs each, of 120 to 1200 s, independent or
 *   AR(1) seconds of phi 0.3, 0.5, 0.7 and 0.9 (seen: 93.5% to 95.8%).

 * - Across repeats (ci_mean_t): the t-interval of the mean of the runs'
 *   throughputs, n - 1 degrees of freedom; no interval with fewer than 2
 *   runs.  Runs are independent when each starts from the same
 *   maintenance, which the coordinator does.
 *
 * - A ratio B/A (ci_ratio_fieller): Fieller's interval for the ratio of
 *   two independent means, each given with its standard error and degrees
 *   of freedom (from ci_mean_t or ci_run_seconds), the t quantile taken at
 *   the Welch-Satterthwaite degrees of freedom of B - theta * A.  It is
 *   exact for normal means and, unlike the delta method, asymmetric as a
 *   ratio's interval is (Kalibera & Jones, "Rigorous Benchmarking in
 *   Reasonable Time", ISMM 2013, give it beside their bootstrap).  No
 *   interval when A's mean is not itself distinguishable from 0 at 95%
 *   (the set is then unbounded), or a standard error is missing.
 *   ci_significant: the interval excludes 1.  Kept for figures that can be
 *   0 (explain_compare's per-transaction work); throughput ratios use the
 *   log scale below (issue 35).
 *
 * - A throughput ratio B/A, on the log scale (issue 35): one estimator for
 *   the ratio, its interval and its test.  Throughput is multiplicative
 *   (a change makes every run x% faster) and skewed, so each value is
 *   logged, the difference of the logs gets a t-interval, and the ratio
 *   is exp of it: a ratio of geometric means, whose interval is always
 *   bounded and positive (Fieller's on raw tps was missing whenever A's
 *   mean was "not distinguishable from 0").
 *   . ci_log_ratio_paired: n pairs (a_i, b_i) measured next to each other
 *     (the same round of an ABBA experiment): the t-interval (n - 1
 *     degrees of freedom) of the mean of log(b_i / a_i).  The pair is the
 *     unit of replication: a drift of the machine between pairs cancels
 *     out of each ratio, and ABBA order cancels a linear drift within
 *     them on average (it widens the interval, never biases it for an
 *     even number of pairs).
 *   . ci_log_ratio_pooled: two independent samples (each sweep's
 *     geometric mean, when sweeps are compared): Student's t-interval of
 *     mean(log b) - mean(log a) with the pooled variance, na + nb - 2
 *     degrees of freedom.  On the log scale the noise of a machine is a
 *     share of its throughput, alike on both sides; Welch's interval,
 *     which does not assume it, covered 97.8% instead of 95% with 2
 *     sweeps a side (test/unit/test_ci_sim.c).
 *   . Both give the two-sided p-value of "the ratio is 1" (ci_t_cdf), and
 *     ci_log_bounds the interval at any level, for Holm's correction.
 *   No interval with fewer than 2 values (pairs) on a side, or a value
 *   that is not finite and positive.
 *
 * - Multiplicity (ci_holm): the ratios of one comparison (its client
 *   counts, an experiment's configurations) are tested together by
 *   Holm's step-down procedure, which keeps the chance of any false
 *   "significant" among them at most alpha.  Each hypothesis gets the
 *   level it was tested at: alpha / (m - j + 1) for the j-th smallest
 *   p-value while Holm rejects, and the level of the first that it does
 *   not reject for it and every later one.  An interval at that level
 *   excludes 1 exactly when Holm rejects (so the printed interval and the
 *   verdict agree) and is never narrower than the unadjusted 95% one.
 *
 * src/lang/ci.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_CI_H
#define PGBENCHX_CI_H

#include <stdbool.h>

#define CI_BATCHES			10
#define CI_MIN_SECONDS		120
#define CI_AR_THRESHOLD		0.3
#define CI_AR_MAX			0.98
#define CI_AR_BATCH_TAUS	3.0

/* An estimate with its 95% interval. */
typedef struct ci_interval
{
	double		estimate;		/* the mean (or the ratio) */
	double		low;			/* 95% interval */
	double		high;
	double		se;				/* standard error of the estimate; ratio: 0 */
	double		df;				/* degrees of freedom of se */
} ci_interval;

/* The 0.975 quantile of Student's t with df >= 1 degrees of freedom. */
extern double ci_t975(double df);

/* One run's mean per-second throughput from its n seconds (see above). */
extern bool ci_run_seconds(const double *x, int n, ci_interval *out);

/* The mean of n independent values (repeats), by the t-interval. */
extern bool ci_mean_t(const double *x, int n, ci_interval *out);

/* Ratio b/a of two independent estimates (their mean, se and df). */
extern bool ci_ratio_fieller(const ci_interval *a, const ci_interval *b,
							 ci_interval *out);

/* The interval excludes 1. */
extern bool ci_significant(const ci_interval *ratio);

/* A ratio B/A on the log scale, with its test of "B/A = 1". */
typedef struct ci_log_ratio
{
	double		ratio;			/* exp(log_ratio): a ratio of geometric means */
	double		low;			/* 95% interval */
	double		high;
	double		log_ratio;		/* mean log(b) - mean log(a) */
	double		se;				/* its standard error */
	double		df;				/* its degrees of freedom */
	double		p;				/* two-sided p-value of log_ratio = 0 */
} ci_log_ratio;

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
extern double ci_t_cdf(double t, double df);

/* The q quantile (0 < q < 1) of Student's t with df > 0. */
extern double ci_t_quantile(double q, double df);

/* n pairs (a[i], b[i]): the mean of log(b[i] / a[i]). */
extern bool ci_log_ratio_paired(const double *a, const double *b, int n,
								ci_log_ratio *out);

/* Independent samples a[na], b[nb]: mean log b - mean log a, pooled t. */
extern bool ci_log_ratio_pooled(const double *a, int na, const double *b,
								int nb, ci_log_ratio *out);

/* The interval of r at level 1 - alpha (0 < alpha < 1). */
extern bool ci_log_bounds(const ci_log_ratio *r, double alpha,
						  double *low, double *high);

/*
 * Holm over m p-values: level[i] is the alpha hypothesis i is tested at
 * (rejected when p[i] < level[i]).  NaN p-values are not tested (level
 * NaN) and do not count in m.  Returns the number tested.
 */
extern int	ci_holm(const double *p, int m, double alpha, double *level);

#endif							/* PGBENCHX_CI_H */
