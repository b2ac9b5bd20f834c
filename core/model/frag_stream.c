/* frag_stream.c - the free-space histogram read group by group from the
 * block bitmaps on disk, so that frag holds one bitmap block, not the whole
 * bitmap (12.5 MiB at 400 GiB, more as an rbtree on a large device). */
#include "frag.h"
#include "session.h"
#include "bitmap_group.h"
#include "fs_readahead.h"

#include <stdlib.h>
#include <string.h>

/* Groups whose bitmaps are asked for ahead of the one read (1 MiB of
 * 4 KiB bitmaps), the next batch asked for half-way through. */
#define RA_BITMAPS 256

int frag_stream_usable(const struct session *s)
{
	ext2_filsys fs = s->fs;

	return fs && !(s->loaded & NEED_BLOCK_BITMAP) &&
	       !(s->flags & SESSION_CATASTROPHIC) &&
	       bitmap_group_usable(fs) && EXT2FS_CLUSTER_RATIO(fs) == 1;
}

errcode_t frag_stream_hist(struct session *s, dgrp_t first, dgrp_t last,
			   struct frag_hist *h)
{
	ext2_filsys fs = s->fs;
	size_t n = bitmap_group_bytes(fs);
	unsigned char *buf = NULL, *tmp = NULL;
	ext2fs_block_bitmap um = NULL;
	blk64_t run = 0, b, gfirst, gend, end;
	errcode_t err;
	dgrp_t g, ra_next = first;
	struct fs_ra ra = {.fd = -1};

	memset(h, 0, sizeof(*h));
	err = bitmap_group_uninit_marks(fs, &um);
	if (err)
		return err;
	buf = malloc(n);
	tmp = malloc(n);
	err = EXT2_ET_NO_MEMORY;
	if (!buf || !tmp)
		goto out;
	end = ext2fs_group_last_block2(fs, last) + 1;
	/* readahead through a descriptor of its own (the same page cache):
	 * a cold read of 16,384 bitmaps one after another waited on each */
	fs_ra_open(&ra, fs, s->device);
	for (g = first; g <= last; g++) {
		if (ra.fd >= 0 && ra_next <= last &&
		    ra_next - g <= RA_BITMAPS / 2) {
			dgrp_t stop = last - ra_next < RA_BITMAPS ? last :
				      ra_next + RA_BITMAPS - 1;

			bitmap_group_readahead(fs, &ra, ra_next, stop);
			ra_next = stop + 1;
		}
		err = bitmap_group_read(fs, g, um, buf, tmp);
		if (err)
			goto out;
		gfirst = ext2fs_group_first_block2(fs, g);
		gend = ext2fs_group_last_block2(fs, g) + 1;
		if (gend > end)
			gend = end;
		/* a free run goes on across the groups asked for */
		for (b = gfirst; b < gend; b++) {
			blk64_t i = b - gfirst;

			if (!(i & 63) && b + 64 <= gend) {
				unsigned long long w;

				memcpy(&w, buf + i / 8, 8);
				if (w == ~0ULL) {	/* 64 in use */
					if (run)
						frag_hist_add(h, run);
					run = 0;
					b += 63;
					continue;
				}
				if (!w) {
					run += 64;
					b += 63;
					continue;
				}
			}
			if (buf[i / 8] & (1 << (i % 8))) {
				if (run)
					frag_hist_add(h, run);
				run = 0;
			} else {
				run++;
			}
		}
	}
	if (run)
		frag_hist_add(h, run);
	err = 0;
out:
	fs_ra_close(&ra);
	free(buf);
	free(tmp);
	if (um)
		ext2fs_free_block_bitmap(um);
	return err;
}
