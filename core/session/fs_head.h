/* fs_head.h - the first bytes of a device, read once before the open: what
 * they hold, and a hint that fetches the group descriptors ahead. */
#ifndef E2L_FS_HEAD_H
#define E2L_FS_HEAD_H

#include <sys/types.h>

#define FS_HEAD_LEN	2048	/* up to the end of the primary superblock */

struct fs_head {
	unsigned char b[FS_HEAD_LEN];
	ssize_t n;		/* bytes read; -1 unreadable */
};

/*
 * Reads the first FS_HEAD_LEN bytes of device into h, through a descriptor
 * told that its reads are random (no readahead: a separate read before
 * ext2fs_open's own would otherwise widen the kernel's readahead of the
 * image, 8 MB windows on a large one, and a cold start read megabytes it
 * does not use).  With hint_gdt, when they hold a plain ext2/3/4
 * superblock, asks the kernel (POSIX_FADV_WILLNEED) for exactly the
 * contiguous group descriptor blocks that ext2fs_open reads next, so that
 * its read finds them under way and starts no readahead either.  A hint
 * only: nothing it reads is trusted, and a wrong one costs a read.
 */
void fs_head_read(const char *device, struct fs_head *h, int hint_gdt);

/* What h says: 1 a qcow2 image, 2 ext2/3/4, 0 neither, -1 unreadable. */
int fs_head_kind(const struct fs_head *h);

#endif
