/*-------------------------------------------------------------------------
 *
 * stats.h
 *	  Latency histograms and run statistics for pgbenchx.
 *
 * This file owns: the log-linear latency histogram, its exact moments
 * (count, sum, sum of squares, min, max), percentiles read from it, and the
 * per-second / per-run accumulators built on top of it.
 *
 * It must not: include PostgreSQL headers, allocate memory, lock, or know
 * how the structures are placed in shared memory (that is run_shmem.h).
 * Plain C99 plus __builtin_clzll (gcc/clang, which PostgreSQL builds need).
 *
 * Every structure here is a fixed-size POD with no pointers, so it can live
 * in a DSM segment mapped at different addresses in different processes,
 * be written by a driver and read/merged by the coordinator.  An all-zero
 * structure is a valid empty one, and *_reset() just zeroes it.  The writer
 * is not synchronised with readers: whoever lays out the DSM must hand a
 * finished slot to the reader (for example a per-second ring whose slot the
 * driver stops writing before publishing the second with a write barrier).
 *
 * Bucket layout (STATS_SUB_BITS = 6, i.e. 64 linear sub-buckets per power
 * of two, HDR-histogram style):
 *
 *	  values 0..127 us          one bucket per microsecond (exact)
 *	  values [2^k, 2^(k+1)), k>=7   64 buckets of width 2^(k-6)
 *	  values >= 2^32 us (71.6 min)  clamped into the top bucket
 *
 *	  index(v) = (s << 6) + (v >> s), s = msb(v | 127) - 6
 *	  (v clamped to STATS_MAX_TRACKABLE_US first) -> 27 * 64 = 1728 buckets
 *
 * A bucket's width is at most 1/64 of its lower bound, so its midpoint is
 * within 1/128 = 0.78% of any value in it.  Percentiles report the midpoint
 * of the bucket holding the nearest-rank sample, clamped to [min, max]:
 * worst-case relative error 0.78% (<= 1% required), exact below 128 us.
 * 128 sub-buckets (0.39%) would double the size for margin we do not need;
 * 64 sub-buckets read by upper bound (1.56%) would miss the 1% goal.
 *
 * Counts: stats_hist (uint32 counts) is the per-driver per-second histogram
 * that sits in the DSM ring; one driver cannot complete 2^32 transactions
 * in a second, and uint32 halves the size of what is replicated drivers x
 * ring slots.  stats_total (uint64 counts) accumulates a whole run, where a
 * single bucket could exceed 2^32 on a long fast run.  Both embed the same
 * stats_moments as first member, so the moment accessors serve both.
 *
 * Sizes (bytes, checked at compile time in stats.c):
 *	  stats_moments   48
 *	  stats_hist    6960     (48 + 1728 * 4)
 *	  stats_total  13872     (48 + 1728 * 8)
 *	  stats_second  7008     (16 + stats_hist + 32)
 *	  stats_run    13888     (16 + stats_total)
 *
 * Moments are exact integers: sum in uint64 (exact below 2^64 us, about
 * 584,000 years of latency), sum of squares in 128 bits split in two
 * uint64 (exact for any realistic run).  Merging is therefore exact and
 * order-independent: merge(A, B) is byte-identical to recording A u B.
 * min/max/sum/sumsq use the value as given, even above the histogram range.
 *
 * Empty input: stats_count/sum/min/max return 0; stats_mean, stats_stddev
 * and the percentile functions return NaN (callers store SQL NULL).
 *
 * src/lang/stats.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef PGBENCHX_STATS_H
#define PGBENCHX_STATS_H

#include <stdint.h>

#define STATS_SUB_BITS			6
#define STATS_SUB_COUNT			(1 << STATS_SUB_BITS)	/* 64 */
/* largest value with its own bucket: 2^32 - 1 us = 71.6 minutes */
#define STATS_MAX_TRACKABLE_US	UINT64_C(0xFFFFFFFF)
/* (32 - STATS_SUB_BITS + 1) magnitudes of STATS_SUB_COUNT buckets */
#define STATS_BUCKETS			((32 - STATS_SUB_BITS + 1) * STATS_SUB_COUNT)	/* 1728 */

/* Exact moments shared by both histogram widths. */
typedef struct stats_moments
{
	uint64_t	count;			/* number of recorded values */
	uint64_t	sum;			/* sum of values, us */
	uint64_t	sumsq_lo;		/* sum of squares, us^2, low 64 bits */
	uint64_t	sumsq_hi;		/* sum of squares, high 64 bits */
	uint64_t	min;			/* valid only when count > 0 */
	uint64_t	max;
} stats_moments;

/* Per-second histogram (uint32 counts); lives in the DSM ring. */
typedef struct stats_hist
{
	stats_moments m;
	uint32_t	counts[STATS_BUCKETS];
} stats_hist;

/* Accumulating histogram (uint64 counts) for a whole run. */
typedef struct stats_total
{
	stats_moments m;
	uint64_t	counts[STATS_BUCKETS];
} stats_total;

/*
 * One driver's (or the merged) second: counters plus latency histogram.
 * The -R/-L/--max-tries counters (issue 24: pgbench's -P line prints them
 * per window) come after the histogram, so its offset does not move.
 */
typedef struct stats_second
{
	uint64_t	transactions;	/* successful transactions completed */
	uint64_t	failed;			/* serialization / deadlock failures */
	stats_hist	latency;		/* latencies of successful transactions */
	uint64_t	skipped;		/* -R with -L: too late to start */
	uint64_t	retried;		/* transactions that ended after more than one try */
	uint64_t	retries;		/* tries beyond the first, in all */
	uint64_t	lag_sum_us;		/* -R: schedule lag of the transactions started, us */
} stats_second;

/* A whole run: the sum of its seconds. */
typedef struct stats_run
{
	uint64_t	transactions;
	uint64_t	failed;
	stats_total latency;
} stats_run;

/*
 * Bucket of a latency (us).  O(1), branch-free apart from the clamp (a
 * conditional move): monotonic non-decreasing in v.
 */
static inline uint32_t
stats_bucket_index(uint64_t v)
{
	uint32_t	shift;

	v = (v > STATS_MAX_TRACKABLE_US) ? STATS_MAX_TRACKABLE_US : v;
	/* msb of (v | 127) is >= 6, so shift >= 0; the operand is never 0 */
	shift = (uint32_t) (63 - __builtin_clzll(v | (2 * STATS_SUB_COUNT - 1)))
		- STATS_SUB_BITS;
	return (shift << STATS_SUB_BITS) + (uint32_t) (v >> shift);
}

/* Bucket bounds (inclusive, us) and representative (midpoint) value. */
extern uint64_t stats_bucket_lower(uint32_t index);
extern uint64_t stats_bucket_upper(uint32_t index);
extern double stats_bucket_mid(uint32_t index);

/* Moments: pass &h->m of a stats_hist or a stats_total. */
extern uint64_t stats_count(const stats_moments *m);
extern uint64_t stats_sum(const stats_moments *m);
extern double stats_sumsq(const stats_moments *m);	/* rounded to double */
extern uint64_t stats_min(const stats_moments *m);
extern uint64_t stats_max(const stats_moments *m);
extern double stats_mean(const stats_moments *m);
/* population stddev, sqrt(sumsq/n - mean^2) as pgbench reports it */
extern double stats_stddev(const stats_moments *m);

/* Per-second histogram (hot path: record; no allocation anywhere). */
extern void stats_hist_reset(stats_hist *h);
extern void stats_hist_record(stats_hist *h, uint64_t value_us);
extern void stats_hist_merge(stats_hist *dst, const stats_hist *src);
extern double stats_hist_percentile(const stats_hist *h, double p);

/* Run-total histogram. */
extern void stats_total_reset(stats_total *t);
extern void stats_total_record(stats_total *t, uint64_t value_us);
extern void stats_total_merge(stats_total *dst, const stats_total *src);
extern void stats_total_add_hist(stats_total *dst, const stats_hist *src);
extern double stats_total_percentile(const stats_total *t, double p);

/*
 * Percentiles: p in [0, 100] (clamped; NaN p gives NaN), nearest-rank
 * definition: the sample of rank ceil(p/100 * n) (at least 1) in sorted
 * order, reported as its bucket's midpoint clamped to [min, max].  p = 0
 * gives min, p = 100 gives max, both exactly.  Samples above
 * STATS_MAX_TRACKABLE_US share the top bucket, so a percentile landing
 * among them reads as that bucket's midpoint clamped to [min, max] (a lower
 * bound of the truth); only max stays exact there.
 */

/* Per-second and per-run accumulators. */
extern void stats_second_reset(stats_second *s);
extern void stats_second_record_ok(stats_second *s, uint64_t latency_us);
extern void stats_second_record_failed(stats_second *s);
extern void stats_second_merge(stats_second *dst, const stats_second *src);

extern void stats_run_reset(stats_run *r);
extern void stats_run_add_second(stats_run *r, const stats_second *s);
extern void stats_run_merge(stats_run *dst, const stats_run *src);

#endif							/* PGBENCHX_STATS_H */
