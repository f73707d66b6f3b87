/*-------------------------------------------------------------------------
 *
 * ci.c
 *	  95% confidence intervals of throughput: batch means for one run's
 *	  autocorrelated seconds, the t-interval over repeats, Fieller's
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

bool
ci_batch_means(const double *x, int n, ci_interval *out)
{
	double		batch[CI_BATCHES];
	double		mean,
				se;
	int			m,
				start,
				b,
				j;

	if (x == NULL || n < CI_MIN_SECONDS)
		return false;
	m = n / CI_BATCHES;
	start = n - CI_BATCHES * m;
	for (b = 0; b < CI_BATCHES; b++)
	{
		double		s = 0.0;

		for (j = 0; j < m; j++)
			s += x[start + b * m + j];
		batch[b] = s / m;
	}
	if (!mean_se(batch, CI_BATCHES, &mean, &se))
		return false;
	set_t_interval(out, mean, se, CI_BATCHES - 1);
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
