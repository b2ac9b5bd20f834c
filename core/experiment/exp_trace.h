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

/* Sorts a tally by count, largest first (ties by key). */
void expt_tally_sort(struct exp_tally *t);
void expt_tally_free(struct exp_tally *t);
void expt_counters_free(struct exp_counters *c);

#endif
