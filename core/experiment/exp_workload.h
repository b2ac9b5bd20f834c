/* exp_workload.h - the workloads an experiment times: the built-in ones
 * named after the seed investigations, and fio, bonnie++ and dbench. */
#ifndef E2L_EXP_WORKLOAD_H
#define E2L_EXP_WORKLOAD_H

#include "exp.h"

/*
 * Runs w in dir (an empty directory on the mounted copy), timing only the
 * measured part (a file to overwrite is written first, untimed).  Fills
 * run->seconds and run->m.  A tool's standard output goes to tool_out
 * (a file in the work directory), which is parsed and left for the caller.
 */
errcode_t expw_run(const struct exp_workload *w, const char *dir,
		   const char *tool_out, struct exp_run *run, char *why,
		   size_t len);

/* Adds metric name to run (ignored beyond EXP_MAX_METRICS). */
void expw_metric(struct exp_run *run, const char *name, double v,
		 int higher_better);

/* A fio job may write only inside the mounted copy: no filename=,
 * directory= or opendir= that is absolute, climbs with .. or names an
 * environment variable.  0, or -1 with why set. */
int expw_check_job(const char *path, char *why, size_t len);

/* Is the tool that w needs installed?  0, or -1 with why set. */
int expw_tool_present(const struct exp_workload *w, char *why, size_t len);

/* Parsers of the tools' output (exp_tools.c), for a run and for tests:
 * each adds metrics to run; -1 with why set when nothing was recognised. */
int expw_parse_fio(const char *json, struct exp_run *run, char *why,
		   size_t len);
int expw_parse_bonnie(const char *csv, struct exp_run *run, char *why,
		      size_t len);
int expw_parse_dbench(const char *text, struct exp_run *run, char *why,
		      size_t len);

/* Runs argv (argv[0] found on PATH) in dir with stdout to out_path and
 * stderr to out_path.err; forwards SIGINT/SIGTERM as they arrive. */
errcode_t expw_spawn(char *const argv[], const char *dir,
		     const char *out_path, char *why, size_t len);

#endif
