/*-------------------------------------------------------------------------
 *
 * ci.c
 *	  95% confidence intervals of throughput: batch means and an AR(1)
 *	  correction for one run's autocorrelated seconds, the t-interval over repeats, Fieller's
 *	  interval of a ratio.  Plain C99; the methods and when there is no
 *	  interval are described in ci.h.
 *
 * src/lang/ci.c
 *
 *-------------------------------------------------------------------------
 */
#include "ci.h"

#include <math.h>
#include <stddef.h>

/*
 * t quantile 0.975: the table (R's qt(0.975, df), 4 decimals) for 1 to 30
 * degrees of freedom, linear in 1/df between them for Welch's fractional
 * degrees of freedom; above 30, the four-term Cornish-Fisher expansion
 * (within 0.0001 of the exact value there).
 */
static const double t975_table[31] = {
	0.0, 12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
	2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098,
	2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555,
	2.0518, 2.0484, 2.0452, 2.0423
};

double
ci_t975(double df)
{
	const double z = 1.959963984540054;
	double		z2 = z * z;
	double		g1,
				g2,
				g3,
				g4;
	int			lo;

	if (!(df >= 1.0))
		return NAN;
	if (df <= 30.0)
	{
		lo = (int) df;
		if (lo == 30 || df == (double) lo)
			return t975_table[lo];
		return t975_table[lo + 1] + (t975_table[lo] - t975_table[lo + 1])
			* (1.0 / df - 1.0 / (lo + 1)) / (1.0 / lo - 1.0 / (lo + 1));
	}
	g1 = (z2 + 1.0) * z / 4.0;
	g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
	g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
	g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0)
		* z / 92160.0;
	return z + g1 / df + g2 / (df * df) + g3 / (df * df * df)
		+ g4 / (df * df * df * df);
}

/* mean and standard error of the mean of n >= 2 finite values */
static bool
mean_se(const double *x, int n, double *mean, double *se)
{
	double		sum = 0.0;
	double		ss = 0.0;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (!isfinite(x[i]))
			return false;
		sum += x[i];
	}
	*mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - *mean) * (x[i] - *mean);
	*se = sqrt(ss / (n - 1) / n);
	return isfinite(*se);
}

static void
set_t_interval(ci_interval *out, double mean, double se, double df)
{
	double		h = ci_t975(df) * se;

	out->estimate = mean;
	out->se = se;
	out->df = df;
	out->low = mean - h;
	out->high = mean + h;
}

bool
ci_mean_t(const double *x, int n, ci_interval *out)
{
	double		mean,
				se;

	if (x == NULL || n < 2 || !mean_se(x, n, &mean, &se))
		return false;
	set_t_interval(out, mean, se, n - 1);
	return true;
}

/*
 * Lag-1 autocorrelation of x[0..n-1] around mean, and the sum of squares;
 * 0 when the series is constant.
 */
static double
lag1(const double *x, int n, double mean, double *ss)
{
	double		cross = 0.0;
	int			i;

	*ss = 0.0;
	for (i = 0; i < n; i++)
		*ss += (x[i] - mean) * (x[i] - mean);
	for (i = 1; i < n; i++)
		cross += (x[i] - mean) * (x[i - 1] - mean);
	return *ss > 0.0 ? cross / *ss : 0.0;
}

bool
ci_run_seconds(const double *x, int n, ci_interval *out)
{
	double		batch[CI_BATCHES];
	double		mean,
				se,
				ss,
				phi,
				f,
				shrink,
				se_ar,
				df_ar;
	int			m,
				len,
				b,
				j;

	if (x == NULL || n < CI_MIN_SECONDS)
		return false;
	m = n / CI_BATCHES;
	len = CI_BATCHES * m;
	x += n - len;
	for (b = 0; b < CI_BATCHES; b++)
	{
		double		s = 0.0;

		for (j = 0; j < m; j++)
			s += x[b * m + j];
		batch[b] = s / m;
	}
	if (!mean_se(batch, CI_BATCHES, &mean, &se))
		return false;
	set_t_interval(out, mean, se, CI_BATCHES - 1);

	/*
	 * The AR(1) reading of the same seconds: the lag-1 autocorrelation,
	 * less biased (Marriott and Pope: its mean is phi - (1 + 4 phi) / n),
	 * inflates the variance of the mean by f = (1 + phi) / (1 - phi) over
	 * n / f effective seconds, and the seconds' own variance, which
	 * correlated seconds understate by 1 - f / n, is corrected for it.
	 */
	phi = lag1(x, len, mean, &ss);
	if (ss == 0.0)
		return true;			/* constant: the batch means' width 0 */
	phi += (1.0 + 4.0 * phi) / len;
	if (phi <= CI_AR_THRESHOLD)
		return true;
	if (phi >= CI_AR_MAX)
		return false;
	f = (1.0 + phi) / (1.0 - phi);
	if (m >= CI_AR_BATCH_TAUS * f)
		return true;			/* batches long enough to be independent */
	shrink = 1.0 - f / len;
	df_ar = len / f - 1.0;
	if (shrink < 0.2 || df_ar < 1.0)
		return false;
	se_ar = sqrt(ss / (len - 1) / shrink * f / len);
	if (ci_t975(df_ar) * se_ar > ci_t975(CI_BATCHES - 1) * se)
		set_t_interval(out, mean, se_ar, df_ar);
	return true;
}

/*
 * Fieller: the set of theta with (B - theta A)^2 <= t^2 (seB^2 + theta^2
 * seA^2), i.e. theta^2 (A^2 - t^2 seA^2) - 2 theta A B + (B^2 - t^2 seB^2)
 * <= 0, an interval when A^2 > t^2 seA^2.  t is taken at the
 * Welch-Satterthwaite degrees of freedom of B - theta A at theta = B/A.
 */
bool
ci_ratio_fieller(const ci_interval *a, const ci_interval *b, ci_interval *out)
{
	double		ma = a->estimate,
				mb = b->estimate;
	double		va = a->se * a->se,
				vb = b->se * b->se;
	double		r,
				v,
				df,
				t2,
				qa,
				qb,
				qc,
				disc;

	if (!isfinite(ma) || !isfinite(mb) || !isfinite(va) || !isfinite(vb)
		|| !(a->df >= 1.0) || !(b->df >= 1.0) || ma == 0.0)
		return false;
	r = mb / ma;
	v = vb + r * r * va;
	if (v > 0.0)
		df = v * v / (vb * vb / b->df + r * r * r * r * va * va / a->df);
	else
		df = a->df + b->df;
	t2 = ci_t975(df);
	t2 *= t2;
	qa = ma * ma - t2 * va;
	qb = -2.0 * ma * mb;
	qc = mb * mb - t2 * vb;
	if (qa <= 0.0)
		return false;
	disc = qb * qb - 4.0 * qa * qc;
	if (disc < 0.0)
		disc = 0.0;				/* rounding: the roots meet at r */
	out->estimate = r;
	out->low = (-qb - sqrt(disc)) / (2.0 * qa);
	out->high = (-qb + sqrt(disc)) / (2.0 * qa);
	out->se = 0.0;
	out->df = df;
	return isfinite(out->low) && isfinite(out->high);
}

bool
ci_significant(const ci_interval *ratio)
{
	return ratio->low > 1.0 || ratio->high < 1.0;
}

/* ------------------------------------------------ the log scale (issue 35) */

/*
 * The continued fraction of the regularized incomplete beta function
 * I_x(a, b), evaluated by the modified Lentz method; converges quickly
 * for x < (a + 1) / (a + b + 2), where incbeta uses it.
 */
static double
incbeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double		c = 1.0,
				d = 1.0 - (a + b) * x / (a + 1.0),
				h;
	int			m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= 500; m++)
	{
		double		num,
					delta;

		/* the even term */
		num = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
		d = 1.0 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		h *= d * c;
		/* the odd term */
		num = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
		d = 1.0 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1.0) < 1e-15)
			break;
	}
	return h;
}

/* I_x(a, b), the regularized incomplete beta function, a, b > 0 */
static double
incbeta(double a, double b, double x)
{
	double		front;

	if (!(x > 0.0))
		return 0.0;
	if (!(x < 1.0))
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * incbeta_cf(a, b, x) / a;
	return 1.0 - front * incbeta_cf(b, a, 1.0 - x) / b;
}

/* P(|T| >= |t|), the two-sided tail, without the cancellation of 1 - cdf */
static double
t_two_sided(double t, double df)
{
	return incbeta(df / 2.0, 0.5, df / (df + t * t));
}

double
ci_t_cdf(double t, double df)
{
	double		tail;

	if (!(df > 0.0) || isnan(t))
		return NAN;
	tail = t_two_sided(t, df) / 2.0;
	return t > 0.0 ? 1.0 - tail : tail;
}

/* the density of Student's t */
static double
t_pdf(double t, double df)
{
	return exp(lgamma((df + 1.0) / 2.0) - lgamma(df / 2.0)
			   - (df + 1.0) / 2.0 * log1p(t * t / df)) / sqrt(df * 3.14159265358979323846);
}

/*
 * Bisection on the two-sided tail until the bracket is within 1e-3 of its
 * top, then Newton's steps on the cdf inside it: deterministic, and to the
 * resolution of a double in a few dozen evaluations.
 */
double
ci_t_quantile(double q, double df)
{
	double		tail,
				target,
				lo = 0.0,
				hi = 1.0,
				t;
	int			i;

	if (!(df > 0.0) || !(q > 0.0 && q < 1.0))
		return NAN;
	if (q == 0.5)
		return 0.0;
	tail = 2.0 * (q < 0.5 ? q : 1.0 - q);	/* P(|T| >= t) wanted */
	target = 1.0 - tail / 2.0;
	while (t_two_sided(hi, df) > tail && hi < 1e300)
		hi *= 2.0;
	for (i = 0; i < 200 && hi - lo > 1e-3 * hi; i++)
	{
		double		mid = (lo + hi) / 2.0;

		if (t_two_sided(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	t = (lo + hi) / 2.0;
	for (i = 0; i < 8; i++)
	{
		double		step = (1.0 - t_two_sided(t, df) / 2.0 - target) / t_pdf(t, df);
		double		next = t - step;

		if (!isfinite(next) || next < lo || next > hi)
			break;
		t = next;
		if (fabs(step) <= 1e-14 * t)
			break;
	}
	return q < 0.5 ? -t : t;
}

bool
ci_log_bounds(const ci_log_ratio *r, double alpha, double *low, double *high)
{
	double		h;

	if (!(alpha > 0.0 && alpha < 1.0) || !isfinite(r->log_ratio)
		|| !(r->se >= 0.0) || !(r->df > 0.0))
		return false;
	h = ci_t_quantile(1.0 - alpha / 2.0, r->df) * r->se;
	*low = exp(r->log_ratio - h);
	*high = exp(r->log_ratio + h);
	return isfinite(*low) && isfinite(*high);
}

/* the ratio, its 95% interval and p-value from the log ratio's d, se, df */
static bool
set_log_ratio(ci_log_ratio *out, double d, double se, double df)
{
	out->log_ratio = d;
	out->se = se;
	out->df = df;
	out->ratio = exp(d);
	if (se > 0.0)
		out->p = t_two_sided(d / se, df);
	else
		out->p = (d == 0.0) ? 1.0 : 0.0;
	return isfinite(out->ratio) && ci_log_bounds(out, 0.05, &out->low, &out->high);
}

/* a finite, positive value: one that has a logarithm */
static bool
loggable(double v)
{
	return isfinite(v) && v > 0.0;
}

bool
ci_log_ratio_paired(const double *a, const double *b, int n, ci_log_ratio *out)
{
	double		sum = 0.0,
				ss = 0.0,
				mean;
	int			i;

	if (a == NULL || b == NULL || n < 2)
		return false;
	for (i = 0; i < n; i++)
	{
		if (!loggable(a[i]) || !loggable(b[i]))
			return false;
		sum += log(b[i]) - log(a[i]);
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
	{
		double		e = log(b[i]) - log(a[i]) - mean;

		ss += e * e;
	}
	return set_log_ratio(out, mean, sqrt(ss / (n - 1) / n), n - 1);
}

/* mean and variance (n - 1) of the logs of n >= 2 values */
static bool
log_mean_var(const double *x, int n, double *mean, double *var)
{
	double		sum = 0.0,
				ss = 0.0;
	int			i;

	for (i = 0; i < n; i++)
	{
		if (!loggable(x[i]))
			return false;
		sum += log(x[i]);
	}
	*mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (log(x[i]) - *mean) * (log(x[i]) - *mean);
	*var = ss / (n - 1);
	return true;
}

bool
ci_log_ratio_pooled(const double *a, int na, const double *b, int nb,
					ci_log_ratio *out)
{
	double		ma,
				va,
				mb,
				vb,
				pooled;

	if (a == NULL || b == NULL || na < 2 || nb < 2
		|| !log_mean_var(a, na, &ma, &va) || !log_mean_var(b, nb, &mb, &vb))
		return false;
	pooled = ((na - 1) * va + (nb - 1) * vb) / (na + nb - 2);
	return set_log_ratio(out, mb - ma, sqrt(pooled * (1.0 / na + 1.0 / nb)),
						 na + nb - 2);
}

/*
 * Holm: the tested p-values in increasing order (ties by position), the
 * j-th of mt tested at alpha / (mt - j + 1) until the first that is not
 * below its level; that one and every later one get the level it had.
 * The order is walked by taking, each time, the smallest (p, index) after
 * the previous one: no sorting, no memory (m is a few dozen).
 */
int
ci_holm(const double *p, int m, double alpha, double *level)
{
	int			tested = 0,
				prev = -1,
				j,
				i;
	bool		stopped = false;
	double		stop_level = 0.0;

	for (i = 0; i < m; i++)
	{
		level[i] = NAN;
		if (!isnan(p[i]))
			tested++;
	}
	if (!(alpha > 0.0 && alpha < 1.0))
		return 0;
	for (j = 1; j <= tested; j++)
	{
		int			k = -1;

		for (i = 0; i < m; i++)
		{
			if (isnan(p[i]))
				continue;
			/* after prev in the order (p, index) */
			if (prev >= 0 && (p[i] < p[prev] || (p[i] == p[prev] && i <= prev)))
				continue;
			if (k < 0 || p[i] < p[k])
				k = i;
		}
		if (!stopped && !(p[k] < alpha / (tested - j + 1)))
		{
			stopped = true;
			stop_level = alpha / (tested - j + 1);
		}
		level[k] = stopped ? stop_level : alpha / (tested - j + 1);
		prev = k;
	}
	return tested;
}
