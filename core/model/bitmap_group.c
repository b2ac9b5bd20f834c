/* bitmap_group.c - one group's block bitmap read from disk as a load of the
 * whole bitmap would leave it (see bitmap_group.h). */
#include "bitmap_group.h"

#include <errno.h>
#include <string.h>

int bitmap_group_usable(ext2_filsys fs)
{
	return fs && !(fs->flags & EXT2_FLAG_IMAGE_FILE) &&
	       EXT2_CLUSTERS_PER_GROUP(fs->super) &&
	       !(EXT2_CLUSTERS_PER_GROUP(fs->super) % 8);
}

size_t bitmap_group_bytes(ext2_filsys fs)
{
	return EXT2_CLUSTERS_PER_GROUP(fs->super) / 8;
}

errcode_t bitmap_group_uninit_marks(ext2_filsys fs, ext2fs_block_bitmap *out)
{
	ext2fs_block_bitmap bm = NULL;
	blk64_t total = ext2fs_blocks_count(fs->super), b;
	int keep = fs->default_bitmap_type;
	errcode_t err;
	dgrp_t g;

	*out = NULL;
	for (g = 0; g < fs->group_desc_count; g++)
		if (ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT))
			break;
	if (g == fs->group_desc_count)
		return 0;
	fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	err = ext2fs_allocate_block_bitmap(fs, "uninit marks", &bm);
	fs->default_bitmap_type = keep;
	if (err)
		return err;
	for (; g < fs->group_desc_count; g++) {
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

/* Is group g's block bitmap read from the disk (not BLOCK_UNINIT with a good
 * descriptor, not past the end)?  Its block, or 0.  guess: any BLOCK_UNINIT
 * group taken as not read, its descriptor not checked (for readahead,
 * where a wrong guess costs one read more). */
static blk64_t read_loc(ext2_filsys fs, dgrp_t g, int guess)
{
	blk64_t blk = ext2fs_block_bitmap_loc(fs, g);

	if ((ext2fs_has_group_desc_csum(fs) &&
	     ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT) &&
	     (guess || ext2fs_group_desc_csum_verify(fs, g))) ||
	    blk >= ext2fs_blocks_count(fs->super))
		return 0;
	return blk;
}

/* May um hold a mark in the clusters [first, first + count)?  0 only when
 * a search says none (most groups: one search, not a copy of the range). */
static int marks_in(ext2_filsys fs, ext2fs_block_bitmap um, blk64_t first,
		    blk64_t count)
{
	blk64_t end = ext2fs_get_block_bitmap_end2(um), hit;

	if (first > end)
		return 0;
	if (first + count - 1 < end)
		end = first + count - 1;
	/* the search takes blocks, the range cluster positions */
	return ext2fs_find_first_set_block_bitmap2(um, EXT2FS_C2B(fs, first),
						   EXT2FS_C2B(fs, end),
						   &hit) != ENOENT;
}

static errcode_t group_read(ext2_filsys fs, dgrp_t g, ext2fs_block_bitmap um,
			    unsigned char *buf, unsigned char *tmp, int verify)
{
	size_t n = bitmap_group_bytes(fs), i;
	blk64_t blk = read_loc(fs, g, 0);
	/* the bitmap's own units: clusters, from the first data block's */
	blk64_t first = EXT2FS_B2C(fs, fs->super->s_first_data_block) +
			(blk64_t)g * EXT2_CLUSTERS_PER_GROUP(fs->super);
	unsigned long long w, t;
	errcode_t err;

	if (!blk) {
		memset(buf, 0, n);
	} else {
		err = io_channel_read_blk64(fs->io, blk, -(int)n, buf);
		if (err)
			return EXT2_ET_BLOCK_BITMAP_READ;
		if (verify && !(fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS) &&
		    !ext2fs_block_bitmap_csum_verify(fs, g, (char *)buf, n))
			return EXT2_ET_BLOCK_BITMAP_CSUM_INVALID;
	}
	if (!um || !marks_in(fs, um, first, n * 8))
		return 0;
	/* an empty rbtree answers a range without writing it */
	memset(tmp, 0, n);
	err = ext2fs_get_block_bitmap_range2(um, first, n * 8, tmp);
	if (err)
		return err;
	/* a word at a time: most groups have no mark */
	for (i = 0; i + 8 <= n; i += 8) {
		memcpy(&t, tmp + i, 8);
		if (!t)
			continue;
		memcpy(&w, buf + i, 8);
		w |= t;
		memcpy(buf + i, &w, 8);
	}
	for (; i < n; i++)
		buf[i] |= tmp[i];
	return 0;
}

errcode_t bitmap_group_read(ext2_filsys fs, dgrp_t g, ext2fs_block_bitmap um,
			    unsigned char *buf, unsigned char *tmp)
{
	return group_read(fs, g, um, buf, tmp, 1);
}

errcode_t bitmap_group_reread(ext2_filsys fs, dgrp_t g,
			      ext2fs_block_bitmap um, unsigned char *buf,
			      unsigned char *tmp)
{
	return group_read(fs, g, um, buf, tmp, 0);
}

void bitmap_group_readahead(ext2_filsys fs, struct fs_ra *ra, dgrp_t first,
			    dgrp_t last)
{
	blk64_t blk, tail = 0;
	dgrp_t g;

	if (ra->fd < 0 || fs->blocksize != bitmap_group_bytes(fs))
		return;		/* a bitmap smaller than a block: one read */
	if (last >= fs->group_desc_count)
		last = fs->group_desc_count - 1;
	/* the batch's last bitmap read: cached, the batch is taken as warm
	 * (one call for it rather than one a stretch) */
	for (g = last + 1; g > first && !tail; g--)
		tail = read_loc(fs, g - 1, 1);
	if (!tail || fs_ra_cached(ra, tail))
		return;
	for (g = first; g <= last; g++) {
		blk = read_loc(fs, g, 1);
		if (blk)
			fs_ra_add(ra, blk, 1);
	}
	fs_ra_flush(ra);
}
