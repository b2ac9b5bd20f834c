/* math_dl.c - libm's functions for the experiment statistics, loaded on
 * their first call (see math_dl.h). */
#include "math_dl.h"
#include "dynlib.h"

#include <math.h>
#include <pthread.h>
#include <string.h>

#define MATH_DL_FUNCS(X) X(sqrt) X(exp) X(log) X(log1p) X(lgamma) \
			 X(fmin) X(fmax) X(lround)

/* Process-wide like the loader's own symbol table: written once (under
 * pthread_once), the same for every session. */
static struct {
	double (*sqrt)(double);
	double (*exp)(double);
	double (*log)(double);
	double (*log1p)(double);
	double (*lgamma)(double);
	double (*fmin)(double, double);
	double (*fmax)(double, double);
	long (*lround)(double);
	int ok;
} m;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define MATH_DL_NAME(f) #f,
static const char *const names[] = { MATH_DL_FUNCS(MATH_DL_NAME) };
#define MATH_DL_N (sizeof(names) / sizeof(names[0]))

static void load(void)
{
	static const char *const sonames[] = { "libm.so.6", "libm.so", NULL };
	void *addr[MATH_DL_N];
	char why[256];
	size_t i = 0;

	if (dynlib_open(sonames, names, addr, MATH_DL_N, why, sizeof(why)))
		return;
	/* POSIX: dlsym's address converts to a function pointer */
#define MATH_DL_SET(f) memcpy(&m.f, &addr[i++], sizeof(void *));
	MATH_DL_FUNCS(MATH_DL_SET)
	m.ok = 1;
}

static int loaded(void)
{
	pthread_once(&once, load);
	return m.ok;
}

double mdl_sqrt(double x) { return loaded() ? m.sqrt(x) : NAN; }
double mdl_exp(double x) { return loaded() ? m.exp(x) : NAN; }
double mdl_log(double x) { return loaded() ? m.log(x) : NAN; }
double mdl_log1p(double x) { return loaded() ? m.log1p(x) : NAN; }
double mdl_lgamma(double x) { return loaded() ? m.lgamma(x) : NAN; }
double mdl_fmin(double x, double y) { return loaded() ? m.fmin(x, y) : NAN; }
double mdl_fmax(double x, double y) { return loaded() ? m.fmax(x, y) : NAN; }
long mdl_lround(double x) { return loaded() ? m.lround(x) : 0; }
