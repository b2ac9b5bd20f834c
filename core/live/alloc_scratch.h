/* alloc_scratch.h - a scratch filesystem for `alloc set --preview`, so
 * that previewing a tunable never writes to the filesystem previewed. */
#ifndef E2L_ALLOC_SCRATCH_H
#define E2L_ALLOC_SCRATCH_H

#include <limits.h>

#include "live.h"

struct alloc_scratch {
	char dir[PATH_MAX];	/* the temporary directory */
	char img[PATH_MAX + 16], mnt[PATH_MAX + 16];
	int mounted;
	blk64_t blocks;		/* its size (the previewed one's, capped) */
	struct live_info *live;	/* the scratch mount */
	ext2_filsys fs;		/* its image, read-only (geometry) */
};

/*
 * Makes an ext4 image of fs's geometry (block size, size up to 16 GiB,
 * groups per flex group, inode size and ratio) with mke2fs in a
 * temporary directory that is not on the previewed filesystem l, and
 * loop-mounts it: workloads run there.  Errors go to why (a sentence);
 * alloc_scratch_drop() undoes whatever was done.
 */
errcode_t alloc_scratch_make(const struct live_info *l, ext2_filsys fs,
			     struct alloc_scratch *sc, char *why, size_t len);
/* Unmounts and removes the scratch filesystem. */
void alloc_scratch_drop(struct alloc_scratch *sc);

#endif
