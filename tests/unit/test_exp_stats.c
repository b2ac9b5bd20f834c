/* test_exp_stats.c - the experiment's statistics against published values:
 * the regularized incomplete beta in closed forms, the t distribution's CDF
 * (Cauchy at df 1, the df 2 closed form) and its table quantiles, and
 * Welch's test on the textbook example with its t, df and p. */
#include "testlib.h"
#include "exp_stats.h"

#include <math.h>

#define near(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

static void t_ibeta(void **state)
{
	double x;

	(void)state;
	for (x = 0.05; x < 1; x += 0.1) {
		near(exps_ibeta(x, 3, 1), x * x * x, 1e-12);
		near(exps_ibeta(x, 1, 4), 1 - pow(1 - x, 4), 1e-12);
		near(exps_ibeta(x, 2.5, 7) + exps_ibeta(1 - x, 7, 2.5), 1,
		     1e-12);
	}
	near(exps_ibeta(0.5, 2, 3), 11.0 / 16.0, 1e-12);
	near(exps_ibeta(0.5, 40, 40), 0.5, 1e-12);
	near(exps_ibeta(0, 2, 3), 0, 0);
	near(exps_ibeta(1, 2, 3), 1, 0);
	assert_true(isnan(exps_ibeta(1.5, 2, 3)));
	assert_true(isnan(exps_ibeta(0.5, 0, 3)));
}

static void t_cdf(void **state)
{
	double t;

	(void)state;
	for (t = -20; t <= 20; t += 0.75) {
		/* df 1 is Cauchy; df 2 has a closed form */
		near(exps_t_cdf(t, 1), 0.5 + atan(t) / M_PI, 1e-12);
		near(exps_t_cdf(t, 2), 0.5 + t / (2 * sqrt(2 + t * t)), 1e-12);
	}
	near(exps_t_cdf(0, 7), 0.5, 1e-15);
	/* large df tends to the normal: Phi(1.96) = 0.9750021 */
	near(exps_t_cdf(1.96, 1e7), 0.9750021, 1e-6);
	assert_true(isnan(exps_t_cdf(1, 0)));
}

static void t_quantile(void **state)
{
	(void)state;
	/* two-sided 5% critical values from the t table */
	near(exps_t_quantile(0.975, 1), 12.7062047, 1e-6);
	near(exps_t_quantile(0.975, 2), 4.3026527, 1e-6);
	near(exps_t_quantile(0.975, 5), 2.5705818, 1e-6);
	near(exps_t_quantile(0.975, 10), 2.2281389, 1e-6);
	near(exps_t_quantile(0.975, 30), 2.0422725, 1e-6);
	near(exps_t_quantile(0.95, 5), 2.0150484, 1e-6);
	near(exps_t_quantile(0.80, 10), 0.8790578, 1e-6);
	near(exps_t_quantile(0.025, 10), -2.2281389, 1e-6);
	assert_true(isnan(exps_t_quantile(1, 10)));
}

/* Welch's original-style example (as in the Wikipedia article on Welch's
 * t-test, example 1): t = -2.46, df = 25.0, p = 0.021. */
static void t_welch(void **state)
{
	static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9,
		20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8,
		22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	static const double same[] = { 3, 3, 3 };
	struct exps_cmp c;

	(void)state;
	assert_int_equal(exps_compare(a1, 15, a2, 15, &c), 0);
	near(c.t, 2.46, 0.005);		/* b - a: the sign is ours */
	near(c.df, 24.9885, 0.01);
	near(c.p, 0.021, 0.0005);
	assert_true(c.significant);
	assert_true(c.ci_lo > 0 && c.ci_hi > c.ci_lo);
	near((c.ci_lo + c.ci_hi) / 2, c.delta_pct, 1e-9);
	/* A against itself: nothing */
	assert_int_equal(exps_compare(a1, 15, a1, 15, &c), 0);
	near(c.p, 1, 1e-12);
	assert_false(c.significant);
	assert_true(c.ci_lo < 0 && c.ci_hi > 0);
	assert_true(c.mde_pct > 0);
	/* more runs are needed for an effect below the detectable one, and
	 * these runs suffice for the detectable one */
	assert_true(exps_runs_needed(&c, c.mde_pct / 2) > 15);
	assert_true(exps_runs_needed(&c, c.mde_pct) <= 16);
	/* constant sides */
	assert_int_equal(exps_compare(same, 3, same, 3, &c), 0);
	assert_false(c.significant);
	assert_int_equal(exps_runs_needed(&c, 1), 0);
	assert_int_equal(exps_compare(same, 1, same, 3, &c), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ibeta),
		cmocka_unit_test(t_cdf),
		cmocka_unit_test(t_quantile),
		cmocka_unit_test(t_welch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
