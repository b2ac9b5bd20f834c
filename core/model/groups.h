/* groups.h - the block-group model: for each group, where its blocks are,
 * where its superblock backup, GDT, bitmaps and inode table live, its
 * counters, flags and checksum state.  Computed from the in-memory group
 * descriptors: no I/O, no bitmap loading. */
#ifndef E2L_GROUPS_H
#define E2L_GROUPS_H

#include <ext2fs/ext2fs.h>

struct e2l_group {
	dgrp_t group;
	blk64_t first, last;		/* the group's block range */
	blk64_t super_blk;		/* superblock (or backup) here, or 0 */
	int has_super;			/* 1 when super_blk is meaningful (the
					 * primary may sit in block 0) */
	blk64_t gdt_first;		/* group descriptor blocks here */
	blk_t gdt_count;
	blk64_t rsv_first;		/* reserved GDT blocks here */
	blk_t rsv_count;
	blk64_t block_bitmap, inode_bitmap, inode_table;
	blk_t inode_table_blocks;
	dgrp_t bb_group, ib_group, it_group;	/* groups they lie in */
	__u32 free_blocks, free_inodes, used_dirs, itable_unused;
	__u16 flags;			/* EXT2_BG_* */
	int csum;			/* 1 verifies, 0 bad, -1 not in use */
	int meta_bg_desc;		/* gdt_first is a meta_bg descriptor */
};

/* Counters are as stored: free_blocks counts clusters under bigalloc.
 * Locations outside the filesystem give bb/ib/it_group == GROUPS_NONE. */
#define GROUPS_NONE ((dgrp_t)~0U)

/* Fills *g for group grp.  EXT2_ET_INVALID_ARGUMENT for a bad group. */
errcode_t groups_get(ext2_filsys fs, dgrp_t grp, struct e2l_group *g);

/* The group holding block blk, or GROUPS_NONE when blk is outside the
 * filesystem (before s_first_data_block or past the last block). */
dgrp_t groups_of_block(ext2_filsys fs, blk64_t blk);

#endif
