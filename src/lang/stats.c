/*-------------------------------------------------------------------------
 *
 * stats.c
 *	  Latency histograms, per-second aggregation and percentiles.
 *
 * Owns the arithmetic behind stats.h: recording a latency (O(1), no
 * allocation), exact merging, exact moments (128-bit sum of squares kept as
 * two uint64 so the structures stay PODs), stddev without cancellation,
 * and nearest-rank percentiles read from the log-linear buckets.  See
 * stats.h for the bucket layout, sizes and error bounds.
 *
 * Must not: include PostgreSQL headers, allocate, lock, or log.  Callers
 * (driver.c records, coordinator.c merges and reads) own synchronisation.
 *
 * src/lang/stats.c
 *
 *-------------------------------------------------------------------------
 */
#include "stats.h"

#include <math.h>
#include <string.h>

/* Compile-time layout checks (C99: a negative array size fails). */
typedef char stats_check_moments[(sizeof(stats_moments) == 48) ? 1 : -1];
typedef char stats_check_hist[(sizeof(stats_hist) == 48 + 4 * STATS_BUCKETS) ? 1 : -1];
typedef char stats_check_total[(sizeof(stats_total) == 48 + 8 * STATS_BUCKETS) ? 1 : -1];
typedef char stats_check_buckets[(STATS_BUCKETS == 1728) ? 1 : -1];
typedef char stats_check_top[(STATS_BUCKETS - 1 == (int) ((STATS_MAX_TRACKABLE_US >> 25) + (25 << STATS_SUB_BITS))) ? 1 : -1];

/* ----------------------------------------------------------------
 * 128-bit unsigned helpers (portable C99, arithmetic mod 2^128)
 * ----------------------------------------------------------------
 */
typedef struct stats_u128
{
	uint64_t	hi;
	uint64_t	lo;
} stats_u128;

static stats_u128
stats_u128_mul64(uint64_t a, uint64_t b)
{
	uint64_t	a0 = (uint32_t) a,
				a1 = a >> 32,
				b0 = (uint32_t) b,
				b1 = b >> 32;
	uint64_t	p00 = a0 * b0,
				p01 = a0 * b1,
				p10 = a1 * b0,
				p11 = a1 * b1;
	uint64_t	mid = (p00 >> 32) + (uint32_t) p01 + (uint32_t) p10;
	stats_u128	r;

	r.lo = (mid << 32) | (uint32_t) p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

/* (a * b) mod 2^128 */
static stats_u128
stats_u128_mul(stats_u128 a, uint64_t b)
{
	stats_u128	r = stats_u128_mul64(a.lo, b);

	r.hi += a.hi * b;
	return r;
}

static stats_u128
stats_u128_add(stats_u128 a, stats_u128 b)
{
	stats_u128	r;

	r.lo = a.lo + b.lo;
	r.hi = a.hi + b.hi + (r.lo < a.lo);
	return r;
}

static stats_u128
stats_u128_sub(stats_u128 a, stats_u128 b)
{
	stats_u128	r;

	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static long double
stats_u128_to_ld(stats_u128 a)
{
	return (long double) a.hi * 18446744073709551616.0L + (long double) a.lo;
}

/* ----------------------------------------------------------------
 * Buckets
 * ----------------------------------------------------------------
 */

/* width of bucket index as a shift: 0 for the exact region */
static inline uint32_t
stats_bucket_shift(uint32_t index)
{
	uint32_t	mag = index >> STATS_SUB_BITS;

	return (mag <= 1) ? 0 : mag - 1;
}

uint64_t
stats_bucket_lower(uint32_t index)
{
	uint32_t	shift;

	if (index >= STATS_BUCKETS)
		index = STATS_BUCKETS - 1;
	shift = stats_bucket_shift(index);
	return (uint64_t) (index - (shift << STATS_SUB_BITS)) << shift;
}

uint64_t
stats_bucket_upper(uint32_t index)
{
	if (index >= STATS_BUCKETS)
		index = STATS_BUCKETS - 1;
	return stats_bucket_lower(index) + (UINT64_C(1) << stats_bucket_shift(index)) - 1;
}

double
stats_bucket_mid(uint32_t index)
{
	uint64_t	lo = stats_bucket_lower(index);
	uint64_t	hi = stats_bucket_upper(index);

	return (double) lo + (double) (hi - lo) / 2.0;
}

/* ----------------------------------------------------------------
 * Moments
 * ----------------------------------------------------------------
 */

static inline void
stats_moments_record(stats_moments *m, uint64_t v)
{
	if (v < m->min || m->count == 0)
		m->min = v;
	if (v > m->max)
		m->max = v;
	m->count++;
	m->sum += v;
	if (v <= UINT64_C(0xFFFFFFFF))
	{
		uint64_t	sq = v * v;

		m->sumsq_lo += sq;
		m->sumsq_hi += (m->sumsq_lo < sq);
	}
	else
	{
		/* beyond 71 minutes: rare, full 128-bit square */
		stats_u128	acc = {m->sumsq_hi, m->sumsq_lo};

		acc = stats_u128_add(acc, stats_u128_mul64(v, v));
		m->sumsq_hi = acc.hi;
		m->sumsq_lo = acc.lo;
	}
}

static void
stats_moments_merge(stats_moments *dst, const stats_moments *src)
{
	stats_u128	a = {dst->sumsq_hi, dst->sumsq_lo};
	stats_u128	b = {src->sumsq_hi, src->sumsq_lo};

	if (src->count == 0)
		return;
	if (dst->count == 0 || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	a = stats_u128_add(a, b);
	dst->sumsq_hi = a.hi;
	dst->sumsq_lo = a.lo;
}

uint64_t
stats_count(const stats_moments *m)
{
	return m->count;
}

uint64_t
stats_sum(const stats_moments *m)
{
	return m->count ? m->sum : 0;
}

double
stats_sumsq(const stats_moments *m)
{
	stats_u128	s = {m->sumsq_hi, m->sumsq_lo};

	return m->count ? (double) stats_u128_to_ld(s) : 0.0;
}

uint64_t
stats_min(const stats_moments *m)
{
	return m->count ? m->min : 0;
}

uint64_t
stats_max(const stats_moments *m)
{
	return m->count ? m->max : 0;
}

double
stats_mean(const stats_moments *m)
{
	if (m->count == 0)
		return NAN;
	return (double) ((long double) m->sum / (long double) m->count);
}

/*
 * Population stddev, sqrt(sumsq/n - mean^2).  Computed about c = floor(mean)
 * in exact 128-bit integers to avoid the cancellation of the textbook
 * formula when stddev << mean:
 *	 S_c = sum (v - c)^2 = sumsq - 2 c sum + n c^2        (exact, mod 2^128)
 *	 n var = S_c - d^2 / n,  d = sum - n c = sum mod n
 */
double
stats_stddev(const stats_moments *m)
{
	uint64_t	n = m->count;
	uint64_t	c,
				d;
	stats_u128	s = {m->sumsq_hi, m->sumsq_lo};
	stats_u128	two_c_sum,
				n_c2;
	long double var;

	if (n == 0)
		return NAN;
	c = m->sum / n;
	d = m->sum % n;
	two_c_sum = stats_u128_mul64(c, m->sum);
	two_c_sum = stats_u128_add(two_c_sum, two_c_sum);
	n_c2 = stats_u128_mul(stats_u128_mul64(c, c), n);
	s = stats_u128_add(stats_u128_sub(s, two_c_sum), n_c2);

	var = (stats_u128_to_ld(s) - (long double) d * (long double) d / (long double) n)
		/ (long double) n;
	if (!(var > 0))
		return 0.0;
	return (double) sqrtl(var);
}

/* ----------------------------------------------------------------
 * Percentiles
 * ----------------------------------------------------------------
 */

/*
 * Nearest rank ceil(p/100 * n) in [1, n].  The tiny relative slack keeps
 * decimal p such as 99.9, not exact in binary, from rounding up one rank
 * (99.9% of 1000 is rank 999, not 1000).
 */
static uint64_t
stats_rank(uint64_t n, double p)
{
	double		x = p * (double) n / 100.0;
	double		r = ceil(x - x * 1e-12);

	if (r < 1.0)
		return 1;
	if (r >= (double) n)
		return n;
	return (uint64_t) r;
}

/* returns 1 and sets *rank unless the answer is NaN/min/max (*result) */
static int
stats_percentile_prepare(const stats_moments *m, double p,
						 uint64_t *rank, double *result)
{
	if (m->count == 0 || isnan(p))
	{
		*result = NAN;
		return 0;
	}
	if (p < 0.0)
		p = 0.0;
	if (p > 100.0)
		p = 100.0;
	*rank = stats_rank(m->count, p);
	/* the extreme ranks are known exactly */
	if (*rank == 1)
	{
		*result = (double) m->min;
		return 0;
	}
	if (*rank == m->count)
	{
		*result = (double) m->max;
		return 0;
	}
	return 1;
}

static double
stats_percentile_finish(const stats_moments *m, uint32_t index)
{
	double		v = stats_bucket_mid(index);

	if (v < (double) m->min)
		v = (double) m->min;
	if (v > (double) m->max)
		v = (double) m->max;
	return v;
}

double
stats_hist_percentile(const stats_hist *h, double p)
{
	uint64_t	rank = 0,
				cum = 0;
	double		result;
	uint32_t	i;

	if (!stats_percentile_prepare(&h->m, p, &rank, &result))
		return result;
	for (i = 0; i < STATS_BUCKETS - 1; i++)
	{
		cum += h->counts[i];
		if (cum >= rank)
			break;
	}
	return stats_percentile_finish(&h->m, i);
}

double
stats_total_percentile(const stats_total *t, double p)
{
	uint64_t	rank = 0,
				cum = 0;
	double		result;
	uint32_t	i;

	if (!stats_percentile_prepare(&t->m, p, &rank, &result))
		return result;
	for (i = 0; i < STATS_BUCKETS - 1; i++)
	{
		cum += t->counts[i];
		if (cum >= rank)
			break;
	}
	return stats_percentile_finish(&t->m, i);
}

/* ----------------------------------------------------------------
 * Histograms
 * ----------------------------------------------------------------
 */

void
stats_hist_reset(stats_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void
stats_hist_record(stats_hist *h, uint64_t value_us)
{
	h->counts[stats_bucket_index(value_us)]++;
	stats_moments_record(&h->m, value_us);
}

void
stats_hist_merge(stats_hist *dst, const stats_hist *src)
{
	uint32_t	i;

	if (src->m.count == 0)
		return;
	for (i = 0; i < STATS_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	stats_moments_merge(&dst->m, &src->m);
}

void
stats_total_reset(stats_total *t)
{
	memset(t, 0, sizeof(*t));
}

void
stats_total_record(stats_total *t, uint64_t value_us)
{
	t->counts[stats_bucket_index(value_us)]++;
	stats_moments_record(&t->m, value_us);
}

void
stats_total_merge(stats_total *dst, const stats_total *src)
{
	uint32_t	i;

	if (src->m.count == 0)
		return;
	for (i = 0; i < STATS_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	stats_moments_merge(&dst->m, &src->m);
}

void
stats_total_add_hist(stats_total *dst, const stats_hist *src)
{
	uint32_t	i;

	if (src->m.count == 0)
		return;
	for (i = 0; i < STATS_BUCKETS; i++)
		dst->counts[i] += src->counts[i];
	stats_moments_merge(&dst->m, &src->m);
}

/* ----------------------------------------------------------------
 * Per-second and per-run accumulators
 * ----------------------------------------------------------------
 */

void
stats_second_reset(stats_second *s)
{
	memset(s, 0, sizeof(*s));
}

void
stats_second_record_ok(stats_second *s, uint64_t latency_us)
{
	s->transactions++;
	stats_hist_record(&s->latency, latency_us);
}

void
stats_second_record_failed(stats_second *s)
{
	s->failed++;
}

void
stats_second_merge(stats_second *dst, const stats_second *src)
{
	dst->transactions += src->transactions;
	dst->failed += src->failed;
	stats_hist_merge(&dst->latency, &src->latency);
	dst->skipped += src->skipped;
	dst->retried += src->retried;
	dst->retries += src->retries;
	dst->lag_sum_us += src->lag_sum_us;
}

void
stats_run_reset(stats_run *r)
{
	memset(r, 0, sizeof(*r));
}

void
stats_run_add_second(stats_run *r, const stats_second *s)
{
	r->transactions += s->transactions;
	r->failed += s->failed;
	stats_total_add_hist(&r->latency, &s->latency);
}

void
stats_run_merge(stats_run *dst, const stats_run *src)
{
	dst->transactions += src->transactions;
	dst->failed += src->failed;
	stats_total_merge(&dst->latency, &src->latency);
}
