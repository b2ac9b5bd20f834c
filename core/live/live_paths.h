/* live_paths.h - inode numbers to paths on a mounted filesystem, found by
 * walking the mount (the kernel's view, so files created a moment ago are
 * found; files already deleted are not). */
#ifndef E2L_LIVE_PATHS_H
#define E2L_LIVE_PATHS_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

/* What the walk found for one inode. */
struct live_ipath {
	__u64 ino;
	char *path;		/* "/dir/name" under the mount, NULL if none */
	unsigned char type;	/* DT_REG, DT_DIR, ... (DT_UNKNOWN if none) */
};

/*
 * Fills p[0..n-1] (ino set by the caller) with a path and type for each
 * inode, walking at most max_entries directory entries of the filesystem
 * mounted on mnt without crossing into other mounts.  The walk stops early
 * when every inode is found.  0, or an errno when mnt cannot be read.
 */
errcode_t live_inode_paths(const char *mnt, struct live_ipath *p, size_t n,
			   size_t max_entries);

/* Frees the paths of p[0..n-1]. */
void live_ipaths_free(struct live_ipath *p, size_t n);

/* The name of a reserved inode ("journal", "resize", ...) or NULL. */
const char *live_special_inode(__u64 ino);

#endif
