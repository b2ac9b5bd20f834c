/* exp_stats.h - the statistics of an experiment: mean and standard
 * deviation of each side's runs, Welch's t-test of the difference (the t
 * distribution computed here through the regularized incomplete beta
 * function), its 95% interval, and the effect these runs can detect. */
#ifndef E2L_EXP_STATS_H
#define E2L_EXP_STATS_H

#include <stddef.h>

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1
 * (NaN outside). */
double exps_ibeta(double x, double a, double b);

/* P(T <= t) for Student's t with df > 0 degrees of freedom. */
double exps_t_cdf(double t, double df);

/* The t with P(T <= t) = p, 0 < p < 1 (bisection on exps_t_cdf). */
double exps_t_quantile(double p, double df);

/* Mean and sample standard deviation (n - 1) of x[0..n); sd 0 when n < 2. */
void exps_mean_sd(const double *x, size_t n, double *mean, double *sd);

/* The comparison of side B against side A for one metric. */
struct exps_cmp {
	double mean_a, sd_a, mean_b, sd_b;
	double diff;		/* mean_b - mean_a */
	double delta_pct;	/* diff as a percentage of mean_a */
	double ci_lo, ci_hi;	/* 95% interval of diff, in % of mean_a */
	double t, df, p;	/* Welch's t, its degrees of freedom, the
				   two-sided p-value */
	double mde_pct;		/* smallest |effect| (% of mean_a) these runs
				   detect with 80% power at 5% */
	int significant;	/* p < 0.05 */
};

/*
 * Welch's two-sample t-test of b against a (na, nb >= 2).  With both sides
 * constant the p-value is 1 when the means are equal and 0 otherwise.
 * Returns 0, or -1 when a side has fewer than two runs or mean_a is 0.
 */
int exps_compare(const double *a, size_t na, const double *b, size_t nb,
		 struct exps_cmp *c);

/*
 * Runs per side that would detect an effect of target_pct (% of mean_a)
 * with 80% power at 5%, given the spread of c; 0 when the spread is 0
 * (any run count detects it), capped at 100000.
 */
unsigned exps_runs_needed(const struct exps_cmp *c, double target_pct);

#endif
