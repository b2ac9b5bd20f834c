/* trace.h - recording the ext4 block allocator of one device through the
 * kernel's ext4 tracepoints: each allocation through a private tracefs
 * instance (the global tracing state is left alone; the instance is removed
 * afterwards), and exact totals counted in the kernel (kcount.h). */
#ifndef E2L_TRACE_H
#define E2L_TRACE_H

#include <ext2fs/ext2fs.h>
#include <limits.h>
#include <stddef.h>

#include "kcount.h"

/* One block allocation (ext4_allocate_blocks) and what mballoc said. */
struct trace_alloc {
	__u64 ino;
	blk64_t goal, block;	/* physical, in blocks */
	__u32 len, lblk;
	int mb;			/* an ext4_mballoc_* record preceded it */
	int prealloc;		/* served from a preallocation */
	unsigned scanned;	/* groups mballoc scanned */
	int data;		/* asked for as file data (HINT_DATA): the
				 * rest are metadata, such as extent-tree
				 * blocks (logical 0, length 1) */
	char cr[32];		/* mballoc's criterion, "" when unknown */
};

/* mark_inode_dirty hits of one inode from one caller: ip is its address
 * when counted in the kernel (0: unknown); from the stream, caller holds
 * the function's name and ip a hash of it. */
#define TRACE_CALLER_LEN 48
struct trace_dirty {
	__u64 ino, ip;
	unsigned long count;
	char caller[TRACE_CALLER_LEN];
};

/* Allocations of one inode, counted in the kernel. */
struct trace_inode {
	__u64 ino;
	unsigned long allocs;
	__u64 blocks;
};

struct trace_rec {
	struct trace_alloc *allocs;	/* the event stream: may lose some */
	size_t nallocs, acap;
	struct trace_dirty *dirty;	/* hash table, then sorted by count */
	size_t ndirty, dcap;
	struct trace_inode *inodes;	/* sorted by allocations (counted) */
	size_t ninodes;
	unsigned long requests, mballoc, prealloc, dirty_events;
	unsigned long alloc_events;	/* ext4_allocate_blocks hits */
	__u64 alloc_blocks;		/* and the blocks they gave */
	unsigned long lost;		/* stream events overwritten */
	unsigned long dropped;		/* hits no kernel counter could hold */
	int counted;			/* the totals, dirty and inodes were
					 * counted in the kernel: exact */
	char why_uncounted[160];	/* else why not */
	double seconds;
};

/* How to record. */
struct trace_opts {
	unsigned buffer_kb;	/* per-CPU ring buffer of the stream */
	int no_counters;	/* count from the stream only */
};
#define TRACE_BUFFER_KB 8192

/* The kernel counters of a recording (kcount.h). */
enum { TC_DIRTY, TC_ALLOC, TC_REQUEST, TC_MBALLOC, TC_PREALLOC, TC_N };

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
	struct kcount kc[TC_N];
	int counting;		/* kc[] are attached */
	char why_uncounted[160];
};

/*
 * Checks that tracing can work here (root, tracefs mounted, the ext4
 * events present).  On failure, why gets a sentence naming what is missing.
 */
errcode_t trace_available(char *why, size_t len);

/* Starts recording allocations of device kdev (major << 20 | minor), with
 * the defaults (an 8 MiB buffer per CPU, kernel counters when possible). */
errcode_t trace_start(struct trace_session *ts, __u64 kdev, char *why,
		      size_t len);

/* The same with opts (NULL: the defaults).  The kernel counters are used
 * when the kernel allows them; otherwise the stream also carries
 * mark_inode_dirty and everything is counted from it. */
errcode_t trace_start_opts(struct trace_session *ts, __u64 kdev,
			   const struct trace_opts *opts, char *why,
			   size_t len);

/* Stops, reads what was recorded into rec (zeroed first; rec->dirty ends
 * sorted by count, largest first) and removes the instance.  Events a
 * trace_poll consumed are not in rec: see trace_finish. */
errcode_t trace_stop(struct trace_session *ts, struct trace_rec *rec);

/* For a recording read as it happens: polls the rest of the stream into
 * rec (the one the polls filled), adds the kernel's counts, and removes the
 * instance.  rec->dirty ends sorted as with trace_stop. */
errcode_t trace_finish(struct trace_session *ts, struct trace_rec *rec);

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
