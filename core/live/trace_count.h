/* trace_count.h - the kernel counters of a recording (trace.c's exact
 * half): what they count is listed once in trace_count.c. */
#ifndef E2L_TRACE_COUNT_H
#define E2L_TRACE_COUNT_H

#include "trace.h"

/* Attaches every kernel counter of ts, or none (ts->counting stays 0 and
 * ts->why_uncounted says why); tracefs root, device kdev. */
void trace_counters_open(struct trace_session *ts, const char *root,
			 __u64 kdev);
/* Detaches them (nothing when none are attached). */
void trace_counters_close(struct trace_session *ts);
/* Replaces r's totals, dirty table and inodes with the kernel's exact
 * counts and sets r->counted; 0 or an errno. */
errcode_t trace_counters_read(struct trace_session *ts, struct trace_rec *r);

#endif
