/* exp_trace_int.h - the recorder's state shared by its setup and teardown
 * (exp_trace.c) and its reader (exp_trace_read.c).  Not an API. */
#ifndef E2L_EXP_TRACE_INT_H
#define E2L_EXP_TRACE_INT_H

#include "exp_trace.h"
#include "kcount.h"

#include "tracefs_dl.h"	/* libtracefs, its calls through a table */

struct exp_tracer {
	const struct exp_config *c;
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	char name[64];
	char dir[PATH_MAX];	/* the instance's directory while recording */
	int rq_id, jbd2_id, ev_id[EXP_MAX_EVENTS];
	int hist[EXP_MAX_EVENTS];	/* counted by a histogram trigger */
	int bpf[EXP_MAX_EVENTS];	/* counted by a BPF program */
	struct kcount kc[EXP_MAX_EVENTS];
	char trig[EXP_MAX_EVENTS][256];	/* its text, to remove it */
	/* the recording being read */
	struct exp_counters *out;
	struct expt_req *reqs;
	size_t nreqs, rcap;
	int oom;
};

/* The kernel function holding address a: libtracefs loaded the kernel's
 * symbols (/proc/kallsyms) into the tep handle with the event formats. */
const char *expt_sym_of(const struct exp_tracer *t, unsigned long long a);

/* Reads the stopped instance's records into t->out and t->reqs, adding
 * the records the ring buffer lost to t->out->lost: 0, or an errno with
 * why set. */
errcode_t expt_read_records(struct exp_tracer *t, char *why, size_t len);

/* Hands the block requests read, sorted by issue time, to the caller. */
void expt_take_reqs(struct exp_tracer *t, struct expt_req **reqs,
		    size_t *nreqs);

#endif
