/* gdt_loc.c - where the primary group descriptor table's blocks are. */
#include "gdt_loc.h"

blk64_t gdt_block_loc(ext2_filsys fs, dgrp_t i)
{
	blk64_t b = ext2fs_descriptor_block_loc2(fs,
			fs->super->s_first_data_block, i);

	/* With 1 KiB blocks and bigalloc, s_first_data_block is 0 and the
	 * table is one run from block 2 (after the boot block and the
	 * superblock), as ext2fs_open reads it; libext2fs's helper adds the
	 * boot block to block 0 of the table only, so block 1 would be read
	 * (and written) at block 2. */
	if (i && fs->blocksize == 1024 && EXT2FS_CLUSTER_RATIO(fs) > 1 &&
	    (!ext2fs_has_feature_meta_bg(fs->super) ||
	     i < fs->super->s_first_meta_bg))
		b++;
	return b;
}
