/* live_defrag.h - defragmenting files of a mounted ext4 through the kernel:
 * a donor per file (an unlinked file in the same filesystem, fallocated by
 * the kernel over the file's data), the donor's real extents (FIEMAP) as
 * the plan's "after", then EXT4_IOC_MOVE_EXT in chunks and a check by
 * FIEMAP and SHA-256.  Nothing here opens the device. */
#ifndef E2L_LIVE_DEFRAG_H
#define E2L_LIVE_DEFRAG_H

#include "live.h"
#include "session.h"

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

/* At most this many files in one live plan (each holds a donor open). */
#define LDF_MAX_FILES 512

/* Where donors go: nowhere asked (each file's own directory), near a path
 * (a directory whose inode is in that path's group), or in group G. */
struct ldf_goal {
	int kind;		/* LDF_GOAL_* */
	dgrp_t group;		/* LDF_GOAL_GROUP, and NEAR once resolved */
	char near[PATH_MAX];	/* NEAR: the path; once resolved, the
				   directory donors are made in */
	char made[PATH_MAX];	/* a directory e2layout made for the goal
				   (removed with the plan), or "" */
};
#define LDF_GOAL_NONE	0
#define LDF_GOAL_NEAR	1
#define LDF_GOAL_GROUP	2

/* One file of the plan. */
struct ldf_file {
	char path[PATH_MAX];
	dev_t dev;
	ino_t ino;
	off_t size;			/* when planned */
	struct timespec mtime;
	struct live_extent *before, *after;	/* the file's, the donor's */
	size_t nbefore, nafter;
	size_t runs_before, runs_after;	/* physically contiguous pieces */
	__u64 data_blocks;		/* blocks holding data or unwritten */
	int donor;			/* unlinked, fallocated; -1: none */
	char donor_dir[PATH_MAX];	/* where it was made */
	dgrp_t donor_dir_group;		/* that directory's inode's group */
	dgrp_t after_group;		/* the group holding most of it */
	bool dropped;			/* no move; why says why */
	bool refused;			/* dropped because it cannot be
					   moved (an error, not a choice) */
	char why[256];
	/* apply */
	__u64 moved, total;		/* blocks */
	__u64 busy;			/* blocks left in place: the kernel
					   kept answering EBUSY (written) */
	bool done, verified;
	char result[256];
};

struct ldf_plan {
	struct ldf_file *f;
	size_t n, cap;
	struct ldf_goal goal;
	unsigned blocksize;
	__u64 chunk;			/* blocks per MOVE_EXT call */
	__u64 rate;			/* bytes per second, 0: no limit */
};

/*
 * Checks that the session's live filesystem can take a live defrag at all:
 * extent-mapped (the extent feature), not bigalloc, mounted read-write and
 * not data=journal.  Prints the reason it cannot and returns nonzero.
 */
int ldf_fs_ok(struct session *s, const char *who);

/*
 * Adds path to the plan: checks it (a regular extent-mapped file of this
 * mount that the kernel may move: not immutable, append-only, a swap file,
 * DAX, inline, encrypted, verity or data-journalled), maps it, and unless
 * already one run makes its donor and maps that.  A file refused or not
 * improved is kept with dropped set and why saying why; errors that stop
 * the whole plan (out of memory, too many files) return nonzero.
 */
errcode_t ldf_plan_add(struct session *s, struct ldf_plan *p,
		       const char *path);

/* The n files of the mount with the most extents beyond their ideal (and
 * at least 2), worst first, as paths in *paths (malloc'd, *np of them). */
errcode_t ldf_worst(struct session *s, size_t n, char ***paths, size_t *np);
void ldf_paths_free(char **paths, size_t n);

/* arg as a path: inside the mount when it is absolute and not under the
 * mount point already, else as given. */
void ldf_full_path(struct session *s, const char *arg, char *out,
		   size_t len);

/*
 * Resolves p->goal: the group (NEAR: the group of that path's inode) and a
 * directory whose inode is in it (an existing one, else one made at the
 * mount's root, removed with the plan).  Says so when no directory could
 * be found or made in that group and the nearest is used.
 */
errcode_t ldf_goal_resolve(struct session *s, struct ldf_plan *p,
			   const char *who);

/* Previews the plan: per file its extents and runs before and after, the
 * groups, and the before/after map strips (text or JSON). */
void ldf_show(struct session *s, const struct ldf_plan *p);

/* Files the plan would move (not dropped). */
size_t ldf_movable(const struct ldf_plan *p);

/*
 * Moves every kept file's blocks into its donor's with EXT4_IOC_MOVE_EXT,
 * p->chunk blocks a call, reporting progress (s->apply_progress when set,
 * else a text line every tenth); SIGINT or SIGTERM stops it between two
 * calls (every file whole, as the kernel guarantees).  Then checks each
 * file: its extents now are its donor's, its content is what it was
 * (SHA-256; skipped, and said, when the file was written meanwhile).
 * Prints how far it got.  0 when everything moved and checked.
 */
int ldf_apply(struct session *s, struct ldf_plan *p);

/* Releases the donors (their blocks go back to the kernel) and memory. */
void ldf_plan_free(struct ldf_plan *p);

/* The `defrag` request on a live session (core/cmd_relocate.c calls it). */
int ldf_request(struct session *s, int argc, char **argv);

/* A path of the regular file with inode number ino (a walk of the mount,
 * as the kernel shows it now); ENOENT when none is linked. */
errcode_t ldf_find_ino(struct session *s, ino_t ino, char *out, size_t len);

/* The group of inode number ino of the session's filesystem. */
dgrp_t ldf_ino_group(struct session *s, ino_t ino);

/* `frag --donors`: the worst top files' donors, shown and given back.
 * 0, or nonzero after printing why. */
int ldf_preview(struct session *s, size_t top);

/* `apply` on a live session with a live plan: applies and drops it. */
int ldf_apply_current(struct session *s);

/* Physically contiguous pieces of a FIEMAP list (adjacent in both the
 * file and the disk merge). */
size_t ldf_runs(const struct live_extent *e, size_t n);

#endif
