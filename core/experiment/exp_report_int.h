/* exp_report_int.h - what the text and the JSON report share: the rows
 * of the comparison table and the words that describe them. */
#ifndef E2L_EXP_REPORT_INT_H
#define E2L_EXP_REPORT_INT_H

#include "exp.h"
#include "exp_stats.h"

/* A comparison row: a workload metric or a per-run counter. */
struct row {
	char name[EXP_NAME_LEN];
	int counter, higher_better;
	double *v[2];
	size_t n[2];
	struct exps_cmp cmp;
	int ok;			/* cmp computed */
};

struct table {
	struct row *r;
	size_t n, cap;
};

/* "B is faster by 8-15%", "no difference detectable (...)". */
void expr_verdict(const struct row *r, char *out, size_t len);

/* One line on the workload and its sizes. */
void expr_describe(const struct exp_config *c, char *out, size_t len);

/* The result as one JSON document (exp_report_json.c). */
void expr_json(const struct exp_config *c, const struct table *t);

#endif
