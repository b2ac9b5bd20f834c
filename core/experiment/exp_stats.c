/* exp_stats.c - Welch's t-test and the t distribution behind it: the CDF
 * through the regularized incomplete beta function (a continued fraction
 * evaluated with the modified Lentz method), its quantiles by bisection. */
#include "exp_stats.h"

#include "math_dl.h"

#include <math.h>

#define CF_EPS		1e-15
#define CF_TINY		1e-300
#define CF_MAX_ITER	500

/* The continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2). */
static double ibeta_cf(double x, double a, double b)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), f;
	int m;

	if (fabs(d) < CF_TINY)
		d = CF_TINY;
	d = 1.0 / d;
	f = d;
	for (m = 1; m <= CF_MAX_ITER; m++) {
		double num, delta;
		int k;

		/* two steps per m: the even term, then the odd one */
		for (k = 0; k < 2; k++) {
			if (!k)
				num = m * (b - m) * x /
				      ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
			else
				num = -(a + m) * (a + b + m) * x /
				      ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
			d = 1.0 + num * d;
			if (fabs(d) < CF_TINY)
				d = CF_TINY;
			c = 1.0 + num / c;
			if (fabs(c) < CF_TINY)
				c = CF_TINY;
			d = 1.0 / d;
			delta = c * d;
			f *= delta;
		}
		if (fabs(delta - 1.0) < CF_EPS)
			break;
	}
	return f;
}

double exps_ibeta(double x, double a, double b)
{
	double lfront;

	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	lfront = mdl_lgamma(a + b) - mdl_lgamma(a) - mdl_lgamma(b) +
		 a * mdl_log(x) + b * mdl_log1p(-x);
	/* the fraction converges fast on one side of the mean; use the
	 * symmetry I_x(a, b) = 1 - I_{1-x}(b, a) on the other */
	if (x < (a + 1.0) / (a + b + 2.0))
		return mdl_exp(lfront) * ibeta_cf(x, a, b) / a;
	return 1.0 - mdl_exp(lfront) * ibeta_cf(1.0 - x, b, a) / b;
}

double exps_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	tail = exps_ibeta(df / (df + t * t), df / 2.0, 0.5);
	return t > 0 ? 1.0 - tail / 2.0 : tail / 2.0;
}

double exps_t_quantile(double p, double df)
{
	double lo = -1.0, hi = 1.0;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	while (exps_t_cdf(lo, df) > p && lo > -1e12)
		lo *= 2.0;
	while (exps_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2.0;
	for (i = 0; i < 200 && hi - lo > 1e-12 * (1.0 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2.0;

		if (exps_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

void exps_mean_sd(const double *x, size_t n, double *mean, double *sd)
{
	double m = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += x[i];
	m = n ? m / (double)n : 0;
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*sd = n > 1 ? mdl_sqrt(ss / (double)(n - 1)) : 0;
}

/* (t_{0.975} + t_{0.80}) at df: the multiple of the standard error an
 * effect must reach to be found four times in five at 5%. */
static double detect_factor(double df)
{
	return exps_t_quantile(0.975, df) + exps_t_quantile(0.80, df);
}

int exps_compare(const double *a, size_t na, const double *b, size_t nb,
		 struct exps_cmp *c)
{
	double va, vb, se, tq, scale;

	if (na < 2 || nb < 2)
		return -1;
	exps_mean_sd(a, na, &c->mean_a, &c->sd_a);
	exps_mean_sd(b, nb, &c->mean_b, &c->sd_b);
	if (c->mean_a == 0)
		return -1;
	scale = 100.0 / fabs(c->mean_a);
	c->diff = c->mean_b - c->mean_a;
	c->delta_pct = c->diff * scale;
	va = c->sd_a * c->sd_a / (double)na;
	vb = c->sd_b * c->sd_b / (double)nb;
	se = mdl_sqrt(va + vb);
	if (se == 0) {
		c->t = c->diff == 0 ? 0 : (c->diff > 0 ? INFINITY : -INFINITY);
		c->df = (double)(na + nb - 2);
		c->p = c->diff == 0 ? 1.0 : 0.0;
		c->ci_lo = c->ci_hi = c->delta_pct;
		c->mde_pct = 0;
		c->significant = c->diff != 0;
		return 0;
	}
	/* Welch-Satterthwaite */
	c->df = (va + vb) * (va + vb) /
		((va > 0 ? va * va / (double)(na - 1) : 0) +
		 (vb > 0 ? vb * vb / (double)(nb - 1) : 0));
	c->t = c->diff / se;
	c->p = 2.0 * exps_t_cdf(-fabs(c->t), c->df);
	if (c->p > 1)
		c->p = 1;
	tq = exps_t_quantile(0.975, c->df);
	c->ci_lo = (c->diff - tq * se) * scale;
	c->ci_hi = (c->diff + tq * se) * scale;
	c->mde_pct = detect_factor(c->df) * se * scale;
	c->significant = c->p < 0.05;
	return 0;
}

/* Can n runs a side detect target (absolute units)? */
static int detects(const struct exps_cmp *c, double n, double target)
{
	double va = c->sd_a * c->sd_a, vb = c->sd_b * c->sd_b;
	double se = mdl_sqrt((va + vb) / n);
	double df = n < 2 ? 1 : 2.0 * n - 2.0;

	return detect_factor(df) * se <= target;
}

unsigned exps_runs_needed(const struct exps_cmp *c, double target_pct)
{
	double target = fabs(target_pct) * fabs(c->mean_a) / 100.0;
	unsigned lo = 2, hi = 2;

	if (c->sd_a == 0 && c->sd_b == 0)
		return 0;
	if (!(target > 0))
		return 100000;
	while (!detects(c, hi, target)) {
		if (hi >= 100000)
			return 100000;
		lo = hi;
		hi = hi * 2 > 100000 ? 100000 : hi * 2;
	}
	if (lo == hi)
		return hi;
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (detects(c, mid, target))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}
