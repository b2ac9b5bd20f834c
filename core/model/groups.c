/* groups.c - the block-group model (see groups.h): everything about one group
 * computed in O(1) from the superblock and the in-memory descriptors. */
#include "groups.h"

#include <string.h>

dgrp_t groups_of_block(ext2_filsys fs, blk64_t blk)
{
	if (blk < fs->super->s_first_data_block ||
	    blk >= ext2fs_blocks_count(fs->super))
		return GROUPS_NONE;
	return ext2fs_group_of_blk2(fs, blk);
}

/* Old-style and meta_bg descriptor blocks, and the reserved GDT blocks, laid
 * out as libext2fs (and dumpe2fs) see them. */
static void groups_gdt(ext2_filsys fs, dgrp_t grp, struct e2l_group *g)
{
	blk64_t super_blk = 0, old_desc = 0, new_desc = 0;
	blk_t old_count;

	ext2fs_super_and_bgd_loc2(fs, grp, &super_blk, &old_desc, &new_desc,
				  NULL);
	/* super_blk is the group's first block when it has a copy, and only
	 * group 0 (which always has one) can start at block 0 */
	g->has_super = super_blk || grp == 0;
	g->super_blk = g->has_super ? super_blk : 0;
	if (ext2fs_has_feature_meta_bg(fs->super))
		old_count = fs->super->s_first_meta_bg;
	else
		old_count = fs->desc_blocks;
	if (old_desc) {
		g->gdt_first = old_desc;
		g->gdt_count = old_count;
		if (fs->super->s_reserved_gdt_blocks) {
			g->rsv_first = old_desc + old_count;
			g->rsv_count = fs->super->s_reserved_gdt_blocks;
		}
	} else if (new_desc) {
		g->gdt_first = new_desc;
		g->gdt_count = 1;
		g->meta_bg_desc = 1;
	}
}

errcode_t groups_get(ext2_filsys fs, dgrp_t grp, struct e2l_group *g)
{
	const struct ext4_group_desc *d;
	int wide;

	if (!fs || !g || grp >= fs->group_desc_count)
		return EXT2_ET_INVALID_ARGUMENT;
	memset(g, 0, sizeof(*g));
	g->group = grp;
	g->first = ext2fs_group_first_block2(fs, grp);
	g->last = ext2fs_group_last_block2(fs, grp);
	groups_gdt(fs, grp, g);

	/* the descriptor's fields read once (an accessor a field looked the
	 * descriptor up again each time: a fifth of `groups`) */
	d = (const struct ext4_group_desc *)ext2fs_group_desc(fs,
							fs->group_desc, grp);
	if (!d)
		return EXT2_ET_INVALID_ARGUMENT;
	wide = ext2fs_has_feature_64bit(fs->super);
	g->block_bitmap = d->bg_block_bitmap |
			  (wide ? (blk64_t)d->bg_block_bitmap_hi << 32 : 0);
	g->inode_bitmap = d->bg_inode_bitmap |
			  (wide ? (blk64_t)d->bg_inode_bitmap_hi << 32 : 0);
	g->inode_table = d->bg_inode_table |
			 (wide ? (blk64_t)d->bg_inode_table_hi << 32 : 0);
	g->inode_table_blocks = fs->inode_blocks_per_group;
	g->bb_group = groups_of_block(fs, g->block_bitmap);
	g->ib_group = groups_of_block(fs, g->inode_bitmap);
	g->it_group = groups_of_block(fs, g->inode_table);

	g->free_blocks = d->bg_free_blocks_count |
			 (wide ? (__u32)d->bg_free_blocks_count_hi << 16 : 0);
	g->free_inodes = d->bg_free_inodes_count |
			 (wide ? (__u32)d->bg_free_inodes_count_hi << 16 : 0);
	g->used_dirs = d->bg_used_dirs_count |
		       (wide ? (__u32)d->bg_used_dirs_count_hi << 16 : 0);
	g->itable_unused = d->bg_itable_unused |
			   (wide ? (__u32)d->bg_itable_unused_hi << 16 : 0);
	g->flags = d->bg_flags;
	if (ext2fs_has_group_desc_csum(fs))
		g->csum = ext2fs_group_desc_csum_verify(fs, grp) ? 1 : 0;
	else
		g->csum = -1;
	return 0;
}
