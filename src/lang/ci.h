/*-------------------------------------------------------------------------
 *
 * ci.h
 *	  95% confidence intervals of throughput: of one run from its
 *	  per-second samples, across a point's repeated runs, and of a ratio
 *	  B/A between two sides (issue 23).
 *
 * This file owns: the statistics that say how sure a figure is, in plain
 * C99 on arrays of doubles: batch means for autocorrelated per-second
 * samples, the t-interval of a mean over repeats, Fieller's interval of a
 * ratio of two independent means, and the t quantile they need.
 *
 * Must not: include PostgreSQL headers, allocate memory, keep state, or
 * draw random numbers (every interval here is deterministic: the same
 * samples give the same interval, on every machine).
 *
 * Methods (docs/comparing.md says the same for users):
 *
 * - One run, from its per-second samples (ci_batch_means): the seconds are
 *   autocorrelated (a checkpoint or a vacuum lasts several), so the naive
 *   interval over them is too narrow.  The last CI_BATCHES * m seconds,
 *   m = floor(n / CI_BATCHES), are cut into CI_BATCHES = 10 batches of m
 *   consecutive seconds (the first n mod 10 seconds, the start of the
 *   run, are left out); the batch means are nearly independent once a
 *   batch is several times longer than the correlation of the seconds,
 *   and the interval is the t-interval (9 degrees of freedom) of their
 *   mean.  Ten batches is Schmeiser's (1982) choice: more batches would
 *   narrow the interval but shorten each batch.  No interval (returns
 *   false) with fewer than CI_MIN_SECONDS = 20 seconds (batches of at
 *   least 2 s), or a non-finite sample.  Checked in test/unit/test_ci.c:
 *   over 4000 simulated runs, 93-97% coverage for independent seconds
 *   from 20 s, for AR(1) seconds with phi 0.5 from about 120 s (92% at
 *   60 s), and with phi 0.9 (a correlation time of ~19 s) at 1200 s (93%
 *   at 600 s, 85% at 300 s): a shorter run of strongly correlated seconds
 *   gets an interval that is too narrow.
 *
 * - Across repeats (ci_mean_t): the t-interval of the mean of the runs'
 *   throughputs, n - 1 degrees of freedom; no interval with fewer than 2
 *   runs.  Runs are independent when each starts from the same
 *   maintenance, which the coordinator does.
 *
 * - A ratio B/A (ci_ratio_fieller): Fieller's interval for the ratio of
 *   two independent means, each given with its standard error and degrees
 *   of freedom (from ci_mean_t or ci_batch_means), the t quantile taken at
 *   the Welch-Satterthwaite degrees of freedom of B - theta * A.  It is
 *   exact for normal means and, unlike the delta method, asymmetric as a
 *   ratio's interval is (Kalibera & Jones, "Rigorous Benchmarking in
 *   Reasonable Time", ISMM 2013, give it beside their bootstrap).  No
 *   interval when A's mean is not itself distinguishable from 0 at 95%
 *   (the set is then unbounded), or a standard error is missing.
 *   ci_significant: the interval excludes 1.
 *
 * src/lang/ci.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_CI_H
#define PGBENCHX_CI_H

#include <stdbool.h>

#define CI_BATCHES			10
#define CI_MIN_SECONDS		(2 * CI_BATCHES)

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

/* One run's mean per-second throughput from its n seconds, by batch means. */
extern bool ci_batch_means(const double *x, int n, ci_interval *out);

/* The mean of n independent values (repeats), by the t-interval. */
extern bool ci_mean_t(const double *x, int n, ci_interval *out);

/* Ratio b/a of two independent estimates (their mean, se and df). */
extern bool ci_ratio_fieller(const ci_interval *a, const ci_interval *b,
							 ci_interval *out);

/* The interval excludes 1. */
extern bool ci_significant(const ci_interval *ratio);

#endif							/* PGBENCHX_CI_H */
