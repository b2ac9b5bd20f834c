/* frag_stream.c - the free-space histogram read group by group from the
 * block bitmaps on disk, so that frag holds one bitmap block, not the whole
 * bitmap (12.5 MiB at 400 GiB, more as an rbtree on a large device). */
#include "frag.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>

/* The blocks a load of the bitmap marks in use for the BLOCK_UNINIT
 * groups (their superblock and descriptors, inode table and bitmaps,
 * wherever they lie), in an rbtree: a few extents a group. */
static errcode_t uninit_marks(ext2_filsys fs, ext2fs_block_bitmap *out)
{
	ext2fs_block_bitmap bm = NULL;
	blk64_t total = ext2fs_blocks_count(fs->super), b;
	int keep = fs->default_bitmap_type;
	errcode_t err;
	dgrp_t g;

	*out = NULL;
	fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	err = ext2fs_allocate_block_bitmap(fs, "uninit marks", &bm);
	fs->default_bitmap_type = keep;
	if (err)
		return err;
	for (g = 0; g < fs->group_desc_count; g++) {
		if (!ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT))
			continue;
		ext2fs_reserve_super_and_bgd(fs, g, bm);
		b = ext2fs_inode_table_loc(fs, g);
		if (b && b + fs->inode_blocks_per_group <= total)
			ext2fs_mark_block_bitmap_range2(bm, b,
						fs->inode_blocks_per_group);
		b = ext2fs_block_bitmap_loc(fs, g);
		if (b && b < total)
			ext2fs_mark_block_bitmap2(bm, b);
		b = ext2fs_inode_bitmap_loc(fs, g);
		if (b && b < total)
			ext2fs_mark_block_bitmap2(bm, b);
	}
	*out = bm;
	return 0;
}

/* Group g's bitmap as a load of it would have it: read and checked, or
 * zero when it is BLOCK_UNINIT (or points past the end), with the uninit
 * groups' marks that fall in g added.  n bytes in buf, one more in tmp. */
static errcode_t group_bits(ext2_filsys fs, dgrp_t g, ext2fs_block_bitmap um,
			    unsigned char *buf, unsigned char *tmp, size_t n)
{
	int csum = ext2fs_has_group_desc_csum(fs);
	blk64_t blk = ext2fs_block_bitmap_loc(fs, g);
	blk64_t first = ext2fs_group_first_block2(fs, g);
	errcode_t err;
	size_t i;

	if ((csum && ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT) &&
	     ext2fs_group_desc_csum_verify(fs, g)) ||
	    blk >= ext2fs_blocks_count(fs->super))
		blk = 0;
	if (!blk) {
		memset(buf, 0, n);
	} else {
		err = io_channel_read_blk64(fs->io, blk, -(int)n, buf);
		if (err)
			return EXT2_ET_BLOCK_BITMAP_READ;
		if (!(fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS) &&
		    !ext2fs_block_bitmap_csum_verify(fs, g, (char *)buf, n))
			return EXT2_ET_BLOCK_BITMAP_CSUM_INVALID;
	}
	if (!um)
		return 0;
	/* an empty rbtree answers a range without writing it */
	memset(tmp, 0, n);
	err = ext2fs_get_block_bitmap_range2(um, first, n * 8, tmp);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		buf[i] |= tmp[i];
	return 0;
}

int frag_stream_usable(const struct session *s)
{
	ext2_filsys fs = s->fs;

	return fs && !(s->loaded & NEED_BLOCK_BITMAP) &&
	       !(s->flags & SESSION_CATASTROPHIC) &&
	       !(fs->flags & EXT2_FLAG_IMAGE_FILE) &&
	       EXT2FS_CLUSTER_RATIO(fs) == 1 &&
	       !(EXT2_CLUSTERS_PER_GROUP(fs->super) % 8);
}

errcode_t frag_stream_hist(struct session *s, dgrp_t first, dgrp_t last,
			   struct frag_hist *h)
{
	ext2_filsys fs = s->fs;
	size_t n = EXT2_CLUSTERS_PER_GROUP(fs->super) / 8;
	unsigned char *buf = NULL, *tmp = NULL;
	ext2fs_block_bitmap um = NULL;
	blk64_t run = 0, b, gfirst, gend, end;
	errcode_t err;
	dgrp_t g;

	memset(h, 0, sizeof(*h));
	err = uninit_marks(fs, &um);
	if (err)
		return err;
	buf = malloc(n);
	tmp = malloc(n);
	err = EXT2_ET_NO_MEMORY;
	if (!buf || !tmp)
		goto out;
	end = ext2fs_group_last_block2(fs, last) + 1;
	for (g = first; g <= last; g++) {
		err = group_bits(fs, g, um, buf, tmp, n);
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
	free(buf);
	free(tmp);
	if (um)
		ext2fs_free_block_bitmap(um);
	return err;
}
