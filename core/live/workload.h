/* workload.h - built-in workloads run on a mounted filesystem (files
 * written through the kernel in a scratch directory the run creates and
 * removes), timed, with the allocations they cause recorded when tracing
 * is available. */
#ifndef E2L_WORKLOAD_H
#define E2L_WORKLOAD_H

#include "live.h"
#include "trace.h"

#include <signal.h>

enum wl_kind { WL_FILES, WL_RANDWRITE };

struct wl_params {
	enum wl_kind kind;
	unsigned files;		/* WL_FILES: how many */
	__u64 size;		/* bytes per file / of the preallocated file */
	unsigned threads;	/* WL_FILES: writers */
	unsigned ops;		/* WL_RANDWRITE: 4 KiB synchronous writes */
	unsigned seed;
};

/* A kernel function calling mark_inode_dirty, and how often it did. */
struct wl_caller {
	char name[64];
	unsigned long count;
};
#define WL_CALLERS 16

struct wl_measure {
	double seconds;
	unsigned files;
	__u64 bytes;
	size_t extents;		/* FIEMAP extents over all files */
	dgrp_t groups;		/* distinct groups the files' extents touch */
	int traced;		/* the allocator was recorded */
	struct trace_summary alloc;
	unsigned long lost;	/* trace events lost */
	unsigned long dirty;	/* mark_inode_dirty calls */
	int dirty_counted;	/* counted in the kernel: exact */
	struct wl_caller callers[WL_CALLERS];	/* largest first */
	size_t ncallers;
	char why_untraced[256];
};

/* Defaults for kind. */
void workload_defaults(enum wl_kind kind, struct wl_params *p);
const char *workload_name(enum wl_kind kind);

/* Parses "64K", "8M", "1G" or a byte count. */
int workload_parse_size(const char *s, __u64 *v);

/* CLOCK_MONOTONIC, in seconds. */
double workload_now(void);

/*
 * Writes size bytes to path (created or truncated, with the open flags
 * flags added: O_APPEND, O_DSYNC...) from buf, chunk bytes at a time, and
 * fsyncs it when do_fsync.  Stops once *stop is set (stop may be NULL),
 * returning EINTR.  0 or an errno.  (The experiment's workloads use it
 * too.)
 */
int workload_write_file(const char *path, __u64 size, const char *buf,
			size_t chunk, int flags, int do_fsync,
			const volatile sig_atomic_t *stop);

/*
 * Runs p in a scratch directory under l->mnt, removes it, and fills m.
 * Errors go to why (a sentence).
 */
errcode_t workload_measure(const struct live_info *l, ext2_filsys fs,
			   const struct wl_params *p, struct wl_measure *m,
			   char *why, size_t len);

#endif
