/* trace.h - recording the ext4 block allocator of one device through the
 * kernel's ext4 tracepoints, in a private tracefs instance (the global
 * tracing state is left alone; the instance is removed afterwards). */
#ifndef E2L_TRACE_H
#define E2L_TRACE_H

#include <ext2fs/ext2fs.h>
#include <limits.h>
#include <stddef.h>

/* One block allocation (ext4_allocate_blocks) and what mballoc said. */
struct trace_alloc {
	__u64 ino;
	blk64_t goal, block;	/* physical, in blocks */
	__u32 len, lblk;
	int mb;			/* an ext4_mballoc_* record preceded it */
	int prealloc;		/* served from a preallocation */
	unsigned scanned;	/* groups mballoc scanned */
	char cr[32];		/* mballoc's criterion, "" when unknown */
};

struct trace_dirty {
	__u64 ino;
	unsigned long count;
};

struct trace_rec {
	struct trace_alloc *allocs;
	size_t nallocs, acap;
	struct trace_dirty *dirty;	/* hash table, then sorted by count */
	size_t ndirty, dcap;
	unsigned long requests, mballoc, prealloc, dirty_events;
	unsigned long lost;		/* overwritten in the ring buffer */
	double seconds;
};

/* The last mballoc record of an inode, waiting for its allocate_blocks. */
struct trace_pending {
	__u64 ino;
	int prealloc;
	unsigned scanned;
	char cr[32];
};
#define TRACE_PENDING 64

/* A recording in progress. */
struct trace_session {
	char dir[PATH_MAX];	/* the instance directory */
	int active;
	/* Reading as it happens (trace_poll): trace_pipe, opened
	 * non-blocking on the first poll, and a partial line. */
	int pipe_open, pipe_fd;
	char line[1024];
	size_t llen;
	struct trace_pending pend[TRACE_PENDING];
	size_t npend;
};

/*
 * Checks that tracing can work here (root, tracefs mounted, the ext4
 * events present).  On failure, why gets a sentence naming what is missing.
 */
errcode_t trace_available(char *why, size_t len);

/* Starts recording allocations of device kdev (major << 20 | minor). */
errcode_t trace_start(struct trace_session *ts, __u64 kdev, char *why,
		      size_t len);

/* Stops, reads what was recorded into rec (zeroed first; rec->dirty ends
 * sorted by count, largest first) and removes the instance. */
errcode_t trace_stop(struct trace_session *ts, struct trace_rec *rec);

void trace_rec_free(struct trace_rec *rec);

/*
 * Reads what was recorded since the last poll, without blocking (the
 * instance's trace_pipe, non-blocking; events read are consumed), and adds
 * it to rec (zero it before the first poll).  At most max_bytes are read
 * per call so that a busy device cannot stall the caller.  0 or an errno.
 * trace_stop still ends the recording (and closes the pipe).
 */
errcode_t trace_poll(struct trace_session *ts, struct trace_rec *rec,
		     size_t max_bytes);

/* What a recording says about placement on fs. */
struct trace_summary {
	size_t allocs;
	blk64_t blocks;
	size_t at_goal;		/* landed exactly on the goal */
	double mean_distance;	/* mean |block - goal| */
	blk64_t max_distance;
	dgrp_t groups, flexes;	/* distinct groups and flex groups touched */
};
void trace_summarize(ext2_filsys fs, const struct trace_rec *rec,
		     struct trace_summary *sum);

/* The group and flex group of blk on fs. */
dgrp_t trace_group(ext2_filsys fs, blk64_t blk);
dgrp_t trace_flex(ext2_filsys fs, dgrp_t group);

#endif
