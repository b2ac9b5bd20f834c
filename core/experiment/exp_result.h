/* exp_result.h - an experiment's result read back from its --json output
 * (a file someone saved, or the output of a run the TUI started): the runs
 * of each side with their metrics and counters, and the comparisons. */
#ifndef E2L_EXP_RESULT_H
#define E2L_EXP_RESULT_H

#include "exp.h"

#define EXPR_MAX_RUNS	10000
#define EXPR_MAX_CMP	256
#define EXPR_MAX_FILE	(64u << 20)

/* A run's mechanism counters, by index (the JSON's counters{} members). */
enum expr_counter {
	EXPR_JBD2_COMMITS, EXPR_JBD2_BLOCKS, EXPR_IO_REQUESTS, EXPR_IO_READS,
	EXPR_IO_WRITES, EXPR_IO_SEQUENTIAL, EXPR_IO_SEEKS, EXPR_JOURNAL_WRITES,
	EXPR_JOURNAL_BREAKS, EXPR_LOST,
	EXPR_OWNER0,		/* + enum owner_class: requests by owner */
	EXPR_NC = EXPR_OWNER0 + OWN_CLASS_MAX
};

struct expr_run {
	unsigned index;
	double seconds;
	size_t nm;
	char mname[EXP_MAX_METRICS][EXP_NAME_LEN];
	double mval[EXP_MAX_METRICS];
	int have_jbd2, have_io;	/* /proc's jbd2 count; the traced ones */
	double c[EXPR_NC];
};

struct expr_side {
	char name[8];
	char image[PATH_MAX];	/* "" for a B made by --change */
	char mount_opts[256];
	struct expr_run *runs;
	size_t nruns;
};

struct expr_cmp {
	char metric[EXP_NAME_LEN];
	int counter;		/* a mechanism counter, not a metric */
	int higher_better;
	int have;		/* the statistics below are there */
	double mean_a, sd_a, mean_b, sd_b, delta_pct, ci_lo, ci_hi, p;
	double detectable_pct, target_pct, runs_for_target;
	int significant;
	char verdict[200];
};

struct exp_result {
	char workload[EXP_NAME_LEN];
	char description[256];
	char change[256];	/* "" without --change */
	unsigned runs_per_side;
	struct expr_side side[2];
	struct expr_cmp *cmp;
	size_t ncmp;
};

/*
 * Reads an experiment's --json output (the whole document, or its "result"
 * member alone) from text into r (free it with exp_result_free).  0, or
 * E2L_ERR_BAD_RESULT_FILE with why naming what is missing or malformed,
 * or ENOMEM.
 */
errcode_t exp_result_parse(const char *text, size_t len,
			   struct exp_result *r, char *why, size_t wlen);

/* The same from the file at path (a regular file of at most
 * EXPR_MAX_FILE bytes); why then names the file. */
errcode_t exp_result_load(const char *path, struct exp_result *r, char *why,
			  size_t wlen);

void exp_result_free(struct exp_result *r);

/* The index of metric name in run r, or -1. */
int expr_metric(const struct expr_run *r, const char *name);

#endif
