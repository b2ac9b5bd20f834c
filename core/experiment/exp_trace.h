/* exp_trace.h - the mechanism counters of one run: block requests on the
 * run's loop device, jbd2's commits, and chosen tracepoints counted by key,
 * recorded through libtracefs in a private tracefs instance. */
#ifndef E2L_EXP_TRACE_H
#define E2L_EXP_TRACE_H

#include "exp.h"

/* One block request as issued to the device. */
struct expt_req {
	unsigned long long ts, sector;
	unsigned nr_sector;
	int write, flush;
};

struct exp_tracer;

/* Is tracing possible here (root, tracefs, the events of c)?  0, or an
 * errno with why set. */
errcode_t expt_available(const struct exp_config *c, char *why, size_t len);

/* Loads the event formats (and kernel symbols when a key needs them). */
errcode_t expt_open(struct exp_tracer **tp, const struct exp_config *c,
		    char *why, size_t len);
void expt_close(struct exp_tracer *t);

/* Starts recording for device kdev in a new instance. */
errcode_t expt_begin(struct exp_tracer *t, __u64 kdev, char *why, size_t len);

/* The instance's directory while recording ("" otherwise). */
const char *expt_instance_dir(const struct exp_tracer *t);

/*
 * Stops, reads the records into out (events by key, jbd2's logged blocks,
 * lost records) and the block requests, sorted by issue time, into *reqs
 * (the caller frees it); removes the instance.
 */
errcode_t expt_end(struct exp_tracer *t, struct exp_counters *out,
		   struct expt_req **reqs, size_t *nreqs, char *why,
		   size_t len);

/* Reads /proc/fs/jbd2/DEV-8/info: transactions and the average commit
 * time in microseconds.  ENOENT when the filesystem has no journal. */
errcode_t expt_jbd2_info(const char *devname, unsigned long long *commits,
			 double *commit_us);

/*
 * The block-request counters of a run: sequential (starts where the last
 * one ended) or seeking, by owner class (cls(arg, block) for the request's
 * first block), and journal breaks (a journal write that does not start
 * where the previous journal write ended).
 */
void expt_analyze(const struct expt_req *r, size_t n, unsigned blocksize,
		  enum owner_class (*cls)(void *arg, blk64_t blk), void *arg,
		  struct exp_counters *out);

/* Adds n to key's count in the tally (an open hash on the key, until it
 * is sorted).  -1 when out of memory. */
int expt_tally_add(struct exp_tally *t, const char *key, unsigned long n);

/* Histogram triggers (exp_hist.c): does the kernel have them for sys:ev
 * (and E2LAYOUT_NO_HIST is unset)?  The trigger that counts s by its keys
 * in the kernel, filtered on kdev when filter is set. */
int expt_hist_available(const char *sys, const char *ev);
void expt_hist_trigger(const struct exp_event_spec *s, int filter, __u64 kdev,
		       char *out, size_t len);

/*
 * Reads a "hist" file of the trigger of s into out (total, each key, the
 * tuple) and the entries the kernel dropped into *dropped.  0, or -1 when
 * text is not such a histogram.
 */
int expt_hist_parse(const char *text, const struct exp_event_spec *s,
		    struct exp_event_count *out, unsigned long long *dropped);

/* Sorts a tally by count, largest first (ties by key). */
void expt_tally_sort(struct exp_tally *t);
void expt_tally_free(struct exp_tally *t);
void expt_counters_free(struct exp_counters *c);

#endif
