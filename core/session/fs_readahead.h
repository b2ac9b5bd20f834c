/* fs_readahead.h - readahead hints for many blocks of a filesystem: one
 * posix_fadvise(WILLNEED) a stretch of touching blocks, and a test of
 * whether the page cache already holds them (then no hint at all). */
#ifndef E2L_FS_READAHEAD_H
#define E2L_FS_READAHEAD_H

#include <ext2fs/ext2fs.h>

/*
 * An accumulator of block ranges.  Ranges are added in ascending order of
 * their start; one that starts inside or right after the stretch being
 * gathered extends it, any other sends that stretch's hint and starts a
 * new one.  A descriptor < 0 makes every call do nothing (no device, an
 * e2image file, direct I/O: see fs_probe_readahead_fd).
 */
struct fs_ra {
	int fd;			/* the device for hints, or -1 */
	int own;		/* opened by fs_ra_open: fs_ra_close closes it */
	unsigned blocksize;
	blk64_t start, end;	/* the stretch being gathered, [start, end) */
	unsigned long hints;	/* hints sent so far */
};

/* Opens device for hints of fs's blocks through fs_probe_readahead_fd;
 * ra->fd is -1 where hints would be wasted or wrong. */
void fs_ra_open(struct fs_ra *ra, ext2_filsys fs, const char *device);

/* The same over a descriptor the caller keeps open (fd < 0: nothing). */
void fs_ra_use(struct fs_ra *ra, ext2_filsys fs, int fd);

/*
 * Is block blk in the page cache?  A one-byte read that fails rather than
 * wait (preadv2 RWF_NOWAIT).  0 when it is not, when the kernel cannot
 * tell (no RWF_NOWAIT), or with no descriptor: hints are then sent.
 */
int fs_ra_cached(const struct fs_ra *ra, blk64_t blk);

/* Adds blocks [blk, blk + count) (see struct fs_ra for the order). */
void fs_ra_add(struct fs_ra *ra, blk64_t blk, blk64_t count);

/* Sends the hint of the stretch being gathered, if any. */
void fs_ra_flush(struct fs_ra *ra);

/* fs_ra_flush, then closes the descriptor if fs_ra_open opened it. */
void fs_ra_close(struct fs_ra *ra);

#endif
