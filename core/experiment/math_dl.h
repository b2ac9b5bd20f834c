/* math_dl.h - the few libm functions the experiment statistics use, from a
 * libm loaded when they are first called (no libm at every start). */
#ifndef E2L_MATH_DL_H
#define E2L_MATH_DL_H

/*
 * Only the experiment reports compute with libm (Welch's t-test, the
 * plots), so the program does not link it: the first call loads it
 * (dynlib.h) and every call goes to libm's own function, the same results
 * as a linked one.  Should libm not load, each returns NaN (a NaN p-value
 * or statistic in the report, never a crash).
 */
double mdl_sqrt(double x);
double mdl_exp(double x);
double mdl_log(double x);
double mdl_log1p(double x);
double mdl_lgamma(double x);
double mdl_fmin(double x, double y);
double mdl_fmax(double x, double y);
long mdl_lround(double x);

#endif
