/* flex.c - the flex-group model (see flex.h): which groups a flex group
 * serves, the merged runs ("islands") of their bitmaps and inode tables, and
 * their summed counters. */
#include "flex.h"

#include <stdlib.h>
#include <string.h>

unsigned long flex_groups_per(ext2_filsys fs)
{
	unsigned log = fs->super->s_log_groups_per_flex;

	if (!ext2fs_has_feature_flex_bg(fs->super))
		return 1;
	if (log > 31)	/* corrupt; libext2fs refuses such filesystems */
		log = 31;
	return 1UL << log;
}

unsigned long flex_count(ext2_filsys fs)
{
	unsigned long per = flex_groups_per(fs);

	return (fs->group_desc_count + per - 1) / per;
}

static int island_cmp(const void *a, const void *b)
{
	const struct e2l_island *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->len < y->len ? -1 : x->len > y->len;
}

static void island_add(struct e2l_island *v, unsigned *n, blk64_t start,
		       blk64_t len, blk64_t nblocks)
{
	if (!start || !len || start >= nblocks)
		return;	/* not allocated (or nonsense): no island */
	if (len > nblocks - start)
		len = nblocks - start;
	v[*n].start = start;
	v[*n].len = len;
	(*n)++;
}

/* Sorts the runs and merges the ones that touch or overlap. */
static unsigned island_merge(struct e2l_island *v, unsigned n)
{
	unsigned i, out = 0;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), island_cmp);
	for (i = 1; i < n; i++) {
		blk64_t end = v[out].start + v[out].len;

		if (v[i].start <= end) {
			if (v[i].start + v[i].len > end)
				v[out].len = v[i].start + v[i].len -
					     v[out].start;
		} else {
			v[++out] = v[i];
		}
	}
	return out + 1;
}

errcode_t flex_get(ext2_filsys fs, unsigned long n, struct e2l_flex *fx)
{
	unsigned long per;
	blk64_t nblocks;
	struct e2l_island *v = NULL;
	unsigned count = 0;
	dgrp_t g, ngroups;
	errcode_t err;

	if (!fs || !fx || n >= flex_count(fs))
		return EXT2_ET_INVALID_ARGUMENT;
	per = flex_groups_per(fs);
	nblocks = ext2fs_blocks_count(fs->super);
	memset(fx, 0, sizeof(*fx));
	fx->index = n;
	fx->first_group = n * per;
	ngroups = fs->group_desc_count - fx->first_group;
	if (ngroups > per)
		ngroups = per;
	fx->last_group = fx->first_group + ngroups - 1;

	err = ext2fs_get_array((size_t)ngroups * 3, sizeof(*v), &v);
	if (err)
		return err;
	for (g = fx->first_group; g <= fx->last_group; g++) {
		island_add(v, &count, ext2fs_block_bitmap_loc(fs, g), 1,
			   nblocks);
		island_add(v, &count, ext2fs_inode_bitmap_loc(fs, g), 1,
			   nblocks);
		island_add(v, &count, ext2fs_inode_table_loc(fs, g),
			   fs->inode_blocks_per_group, nblocks);
		fx->free_blocks += ext2fs_bg_free_blocks_count(fs, g);
		fx->free_inodes += ext2fs_bg_free_inodes_count(fs, g);
		fx->used_dirs += ext2fs_bg_used_dirs_count(fs, g);
	}
	fx->nislands = island_merge(v, count);
	fx->islands = v;
	return 0;
}

void flex_release(struct e2l_flex *fx)
{
	if (!fx)
		return;
	ext2fs_free_mem(&fx->islands);
	fx->nislands = 0;
}
