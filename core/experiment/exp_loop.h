/* exp_loop.h - one run's stage: a fresh copy of an image (reflink or
 * sparse), attached to a loop device that detaches itself, mounted on a
 * fresh directory, and all of it taken down again. */
#ifndef E2L_EXP_LOOP_H
#define E2L_EXP_LOOP_H

#include <ext2fs/ext2fs.h>
#include <limits.h>

struct exp_stage {
	char copy[PATH_MAX];	/* the run's copy of the image */
	char mnt[PATH_MAX];	/* its mount point */
	char loopdev[64];	/* /dev/loopN */
	char devname[32];	/* loopN */
	__u64 kdev;		/* major << 20 | minor, as tracefs says dev */
	int have_copy, have_mnt, mounted, loop_fd;
};

/*
 * Copies src to dst (which must not exist): a reflink when the filesystem
 * can, otherwise the data extents only (holes stay holes).
 */
errcode_t expl_copy(const char *src, const char *dst, char *why, size_t len);

/*
 * Attaches st->copy to a free loop device (autoclear: it detaches when the
 * last user goes) and mounts it on st->mnt (created here) as ext4 with the
 * options opts (mount(8)'s names: sync, noatime... become flags, the rest
 * goes to ext4).  st->copy must be set; the caller tears down in all cases.
 */
errcode_t expl_mount(struct exp_stage *st, const char *opts, char *why,
		     size_t len);

/* Unmounts (retrying while busy), waits for the loop device to detach,
 * removes the mount point and, when remove_copy, the copy.  Idempotent.
 * Returns the first failure, described in why. */
errcode_t expl_teardown(struct exp_stage *st, int remove_copy, char *why,
			size_t len);

/* Checks that opts is a mount option list this engine can pass on:
 * printable, bounded, no "ro" (a run writes).  -1 with why set if not. */
int expl_check_opts(const char *opts, char *why, size_t len);

/* sync, then drop the page cache, dentries and inodes. */
errcode_t expl_drop_caches(void);

#endif
