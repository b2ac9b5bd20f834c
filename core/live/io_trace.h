/* io_trace.h - the block requests of one device as they happen: the block
 * layer's block_rq_issue and block_rq_complete tracepoints in a private
 * tracefs instance (instances/e2layout-io-PID), read without blocking and
 * added to an io_heat model at the filesystem's block numbers. */
#ifndef E2L_IO_TRACE_H
#define E2L_IO_TRACE_H

#include <limits.h>

#include "io_heat.h"

struct io_trace {
	char dir[PATH_MAX];	/* the instance, "" when not recording */
	int fd;			/* its trace_pipe, non-blocking */
	char line[2048];
	size_t llen;
	__u64 kdev;		/* the device the requests go to (a whole
				   disk: a partition's requests carry its
				   disk's dev and sectors) */
	unsigned long long start;	/* the partition's first sector */
	unsigned sect_per_blk;
	unsigned long long issued, completed;
};

/*
 * Starts recording the requests to device kdev (major << 20 | minor, the
 * mounted filesystem's device, a partition or not) of blocksize-byte
 * blocks.  0, or an errno with why set (not root, no tracefs, no block
 * tracepoints).
 */
errcode_t io_trace_start(struct io_trace *it, __u64 kdev, unsigned blocksize,
			 char *why, size_t len);

/* Reads what was recorded since the last poll, at most max_bytes, into h
 * at time now.  0 or an errno. */
errcode_t io_trace_poll(struct io_trace *it, struct io_heat *h, double now,
			size_t max_bytes);

/* Adds one line of trace text (a block_rq_issue or block_rq_complete
 * event of it->kdev) to h; other lines are ignored.  1 when it was one. */
int io_trace_line(struct io_trace *it, const char *line, struct io_heat *h,
		  double now);

/* Stops and removes the instance (nothing when not recording). */
errcode_t io_trace_stop(struct io_trace *it);

#endif
