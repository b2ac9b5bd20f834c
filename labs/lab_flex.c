/* lab_flex.c - the lab facts about a flex group's layout: where its
 * groups' bitmaps and inode tables are, and whether they are packed as
 * mke2fs -G lays them out (computed from the image's own geometry). */
#include "lab.h"

#include <stdlib.h>

/* Appends a list of blocks as merged ranges ("259-266" or "4,9"). */
static void add_list(struct strbuf *sb, const blk64_t *b, size_t n, blk64_t len)
{
	size_t i, j;
	blk64_t end;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && b[j] == b[j - 1] + len; j++)
			;
		end = b[j - 1] + len - 1;
		strbuf_printf(sb, "%s%llu", i ? "," : "",
			      (unsigned long long)b[i]);
		if (end > b[i])
			strbuf_printf(sb, "-%llu", (unsigned long long)end);
	}
}

/*
 * flex(N).layout: where the block bitmaps, inode bitmaps and inode tables
 * of flex group N's groups are ("bb:A-B;ib:...;it:..."); flex(N).packed: 1
 * when they sit as mke2fs -G lays them out, computed from this image's
 * geometry: one island right after the first group's superblock,
 * descriptors and reserved GDT blocks.  Without flex_bg a flex group is 16
 * groups (what repack-flex chooses).
 */
const char *lab_flex_layout(ext2_filsys fs, unsigned long flex, int packed,
			    struct strbuf *sb)
{
	unsigned per = ext2fs_has_feature_flex_bg(fs->super) &&
		       fs->super->s_log_groups_per_flex &&
		       fs->super->s_log_groups_per_flex < 31 ?
		       1U << fs->super->s_log_groups_per_flex : 16;
	blk64_t *loc, island, sbk, od, nd, itb = fs->inode_blocks_per_group;
	dgrp_t first, n, k;
	blk_t used;
	int ok = 1, w;

	if (flex >= (fs->group_desc_count + per - 1) / per)
		return "no such flex group";
	first = flex * per;
	n = fs->group_desc_count - first < per ?
	    fs->group_desc_count - first : per;
	loc = malloc(3 * (size_t)n * sizeof(*loc));
	if (!loc)
		return "out of memory";
	ext2fs_super_and_bgd_loc2(fs, first, &sbk, &od, &nd, &used);
	island = ext2fs_group_first_block2(fs, first) + used;
	for (k = 0; k < n; k++) {
		loc[k] = ext2fs_block_bitmap_loc(fs, first + k);
		loc[n + k] = ext2fs_inode_bitmap_loc(fs, first + k);
		loc[2 * n + k] = ext2fs_inode_table_loc(fs, first + k);
		ok &= loc[k] == island + k &&
		      loc[n + k] == island + n + k &&
		      loc[2 * n + k] == island + 2 * n + k * itb;
	}
	if (packed) {
		strbuf_printf(sb, "%d", ok);
	} else {
		for (w = 0; w < 3; w++) {
			strbuf_printf(sb, "%s%s:", w ? ";" : "",
				      w == 0 ? "bb" : w == 1 ? "ib" : "it");
			add_list(sb, loc + w * n, n, w == 2 ? itb : 1);
		}
	}
	free(loc);
	return NULL;
}

