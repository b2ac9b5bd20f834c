/* flex.h - the flex-group model: groups_per_flex from the superblock, and
 * per flex group the metadata island(s) that hold its groups' bitmaps and
 * inode tables, the groups it serves and its free counts. */
#ifndef E2L_FLEX_H
#define E2L_FLEX_H

#include <ext2fs/ext2fs.h>

struct e2l_island {
	blk64_t start, len;		/* a contiguous run of metadata */
};

struct e2l_flex {
	unsigned long index;
	dgrp_t first_group, last_group;	/* the groups it serves */
	struct e2l_island *islands;	/* sorted by start, merged */
	unsigned nislands;
	blk64_t free_blocks;		/* as stored: clusters on bigalloc */
	__u64 free_inodes;
	__u64 used_dirs;
};

/* Groups per flex group (1 without flex_bg). */
unsigned long flex_groups_per(ext2_filsys fs);
/* Number of flex groups. */
unsigned long flex_count(ext2_filsys fs);
/* Fills *fx for flex group n; free with flex_release(). */
errcode_t flex_get(ext2_filsys fs, unsigned long n, struct e2l_flex *fx);
void flex_release(struct e2l_flex *fx);

#endif
