/* fs_readahead.c - readahead hints for many blocks, a stretch of touching
 * blocks in one call, none when a sample says the page cache is warm (see
 * fs_readahead.h). */
#include "fs_readahead.h"
#include "fs_probe.h"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

void fs_ra_use(struct fs_ra *ra, ext2_filsys fs, int fd)
{
	ra->fd = fd;
	ra->own = 0;
	ra->blocksize = fs ? fs->blocksize : 0;
	ra->start = ra->end = 0;
	ra->hints = 0;
}

void fs_ra_open(struct fs_ra *ra, ext2_filsys fs, const char *device)
{
	fs_ra_use(ra, fs, fs_probe_readahead_fd(fs, device));
	ra->own = ra->fd >= 0;
}

int fs_ra_cached(const struct fs_ra *ra, blk64_t blk)
{
	char byte;
	struct iovec iov = {&byte, 1};

	/* a cold page makes this fail with EAGAIN (the kernel may start
	 * reading it: the hints that follow cover it anyway) */
	return ra->fd >= 0 &&
	       preadv2(ra->fd, &iov, 1, (off_t)(blk * ra->blocksize),
		       RWF_NOWAIT) == 1;
}

void fs_ra_flush(struct fs_ra *ra)
{
	if (ra->fd < 0 || ra->end == ra->start)
		return;
	posix_fadvise(ra->fd, (off_t)(ra->start * ra->blocksize),
		      (off_t)((ra->end - ra->start) * ra->blocksize),
		      POSIX_FADV_WILLNEED);
	ra->hints++;
	ra->start = ra->end = 0;
}

void fs_ra_add(struct fs_ra *ra, blk64_t blk, blk64_t count)
{
	if (ra->fd < 0 || !count)
		return;
	/* inside the stretch or touching its end: the same hint */
	if (ra->end > ra->start && blk >= ra->start && blk <= ra->end) {
		if (blk + count > ra->end)
			ra->end = blk + count;
		return;
	}
	fs_ra_flush(ra);
	ra->start = blk;
	ra->end = blk + count;
}

void fs_ra_close(struct fs_ra *ra)
{
	fs_ra_flush(ra);
	if (ra->own && ra->fd >= 0)
		close(ra->fd);
	ra->fd = -1;
	ra->own = 0;
}
