/* plan_repack_clu.c - repack_flex's accounting in clusters: on bigalloc the
 * block bitmap marks clusters and several groups' bitmaps, inode tables and
 * headers share one, so a cluster is marked when the first of them arrives
 * and released only when the last one has left it.  (Without bigalloc a
 * cluster is a block and this is plain block accounting.) */
#include "plan_repack_int.h"

static int meets(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

int repack_meta_at(ext2_filsys fs, blk64_t first, blk64_t len,
		   blk64_t dind)
{
	dgrp_t g;

	if (dind && meets(dind, 1, first, len))
		return 1;
	for (g = 0; g < fs->group_desc_count; g++) {
		if (meets(ext2fs_block_bitmap_loc(fs, g), 1, first, len) ||
		    meets(ext2fs_inode_bitmap_loc(fs, g), 1, first, len) ||
		    meets(ext2fs_inode_table_loc(fs, g),
			  fs->inode_blocks_per_group, first, len))
			return 1;
		if (meets(ext2fs_group_first_block2(fs, g),
			  repack_header_len(fs, g), first, len))
			return 1;
	}
	return 0;
}

/* The first block of the cluster holding b, and of the one after it. */
static blk64_t clu_first(ext2_filsys fs, blk64_t b)
{
	return b & ~(blk64_t)EXT2FS_CLUSTER_MASK(fs);
}

void repack_mark(ext2_filsys fs, blk64_t blk, blk64_t len)
{
	blk64_t c, end = blk + len, ratio = EXT2FS_CLUSTER_RATIO(fs);

	for (c = clu_first(fs, blk); c < end; c += ratio)
		if (!ext2fs_test_block_bitmap2(fs->block_map, c))
			ext2fs_block_alloc_stats2(fs, c, +1);
}

void repack_release(ext2_filsys fs, blk64_t blk, blk64_t len, blk64_t dind)
{
	blk64_t c, end = blk + len, ratio = EXT2FS_CLUSTER_RATIO(fs);

	for (c = clu_first(fs, blk); c < end; c += ratio)
		if (ext2fs_test_block_bitmap2(fs->block_map, c) &&
		    !repack_meta_at(fs, c, ratio, dind))
			ext2fs_block_alloc_stats2(fs, c, -1);
}

int repack_marked_all(ext2_filsys fs, blk64_t blk, blk64_t len)
{
	blk64_t c, end = blk + len, ratio = EXT2FS_CLUSTER_RATIO(fs);

	for (c = clu_first(fs, blk); c < end; c += ratio)
		if (!ext2fs_test_block_bitmap2(fs->block_map, c))
			return 0;
	return 1;
}

int repack_stale(ext2_filsys fs, blk64_t blk, blk64_t len, blk64_t dind)
{
	blk64_t c, end = blk + len, ratio = EXT2FS_CLUSTER_RATIO(fs);

	for (c = clu_first(fs, blk); c < end; c += ratio)
		if (ext2fs_test_block_bitmap2(fs->block_map, c) &&
		    !repack_meta_at(fs, c, ratio, dind))
			return 1;
	return 0;
}
