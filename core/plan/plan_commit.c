/* plan_commit.c - writes the allocation metadata of the groups a plan step
 * touched with as few writes as possible, each a whole block: their block
 * bitmaps, then the descriptor blocks holding them, then the primary
 * superblock; then flushes.  This keeps the window in which a crash leaves
 * the bitmaps and counters disagreeing a handful of writes wide. */
#include "plan.h"
#include "gdt_loc.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static errcode_t write_bitmap(ext2_filsys fs, dgrp_t g, char *buf)
{
	/* in clusters: a bigalloc bitmap's range calls take cluster numbers */
	int cb = fs->cluster_ratio_bits;
	blk64_t first = ext2fs_group_first_block2(fs, g) >> cb;
	blk64_t nbits = ((ext2fs_group_last_block2(fs, g) >> cb) - first) + 1;
	blk64_t b;
	size_t nbytes = EXT2_CLUSTERS_PER_GROUP(fs->super) / 8;
	errcode_t err;

	if (ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT))
		return 0;	/* computed from the layout, never read */
	memset(buf, 0xff, fs->blocksize);
	memset(buf, 0, nbits / 8);
	err = ext2fs_get_block_bitmap_range2(fs->block_map, first,
					     nbits / 8 * 8, buf);
	if (err)
		return err;
	for (b = nbits / 8 * 8; b < nbits; b++)	/* a short last group */
		if (!ext2fs_test_block_bitmap2(fs->block_map,
					       (first + b) << cb))
			buf[b / 8] &= ~(1 << (b % 8));
	err = ext2fs_block_bitmap_csum_set(fs, g, buf, nbytes);
	if (err)
		return err;
	ext2fs_group_desc_csum_set(fs, g);
	return io_channel_write_blk64(fs->io, ext2fs_block_bitmap_loc(fs, g),
				      1, buf);
}

errcode_t plan_commit_groups(ext2_filsys fs, const dgrp_t *groups, size_t n)
{
	unsigned per = EXT2_DESC_PER_BLOCK(fs->super);
	dgrp_t last_desc = ~0U;
	char *buf;
	errcode_t err = 0;
	size_t i;

	buf = malloc(fs->blocksize);
	if (!buf)
		return ENOMEM;
	for (i = 0; i < n && !err; i++)
		err = write_bitmap(fs, groups[i], buf);
	/* groups[] is sorted: one write per descriptor block. */
	for (i = 0; i < n && !err; i++) {
		dgrp_t d = groups[i] / per;

		if (d == last_desc)
			continue;
		last_desc = d;
		err = io_channel_write_blk64(fs->io, gdt_block_loc(fs, d), 1,
			(char *)fs->group_desc + (size_t)d * fs->blocksize);
	}
	free(buf);
	if (!err) {
		fs->super->s_wtime = time(NULL);
		ext2fs_superblock_csum_set(fs, fs->super);
		err = io_channel_set_blksize(fs->io, SUPERBLOCK_OFFSET);
		if (!err)
			err = io_channel_write_blk64(fs->io, 1,
						     -SUPERBLOCK_SIZE,
						     fs->super);
		io_channel_set_blksize(fs->io, fs->blocksize);
	}
	if (!err)
		err = io_channel_flush(fs->io);
	return err;
}
