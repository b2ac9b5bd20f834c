/* gdt_loc.h - where the primary group descriptor table's blocks are. */
#ifndef E2L_GDT_LOC_H
#define E2L_GDT_LOC_H

#include <ext2fs/ext2fs.h>

/* The block holding descriptor block i of the primary table (libext2fs's
 * ext2fs_descriptor_block_loc2, corrected for bigalloc with 1 KiB blocks,
 * where it places only the first block past the boot block). */
blk64_t gdt_block_loc(ext2_filsys fs, dgrp_t i);

#endif
