/* owner_order.c - the order a probe scan reads the inode tables in: the
 * groups whose inodes likely own the asked blocks first, then outward. */
#include "owner_order.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ext2fs/ext3_extents.h>

#define NO_SAMPLE ((blk64_t)-1)	/* a group's sample not read yet */

struct order {
	ext2_filsys fs;
	blk64_t *sample;	/* per group: NO_SAMPLE, 0 (none) or a block */
	char *buf;		/* one block of an inode table */
};

/* A block inode in maps (i_block, on-disk order), 0: none known. */
static blk64_t inode_first_block(const struct ext2_inode *in)
{
	const struct ext3_extent_header *eh = (const void *)in->i_block;

	if (ext2fs_le32_to_cpu(in->i_flags) & EXT4_INLINE_DATA_FL)
		return 0;
	if (!(ext2fs_le32_to_cpu(in->i_flags) & EXT4_EXTENTS_FL))
		return ext2fs_le32_to_cpu(in->i_block[0]);
	if (ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    !eh->eh_entries)
		return 0;
	if (!eh->eh_depth) {
		const struct ext3_extent *ex = (const void *)(eh + 1);

		return ext2fs_le32_to_cpu(ex->ee_start) +
		       ((blk64_t)ext2fs_le16_to_cpu(ex->ee_start_hi) << 32);
	}
	{
		const struct ext3_extent_idx *ix = (const void *)(eh + 1);

		return ext2fs_le32_to_cpu(ix->ei_leaf) +
		       ((blk64_t)ext2fs_le16_to_cpu(ix->ei_leaf_hi) << 32);
	}
}

/*
 * Group g's sample: a block mapped by the first in-use inode of the first
 * block of its inode table (one block read, kept), 0 when there is none
 * (no inode in use there, or the block unreadable).
 */
static blk64_t sample(struct order *o, dgrp_t g)
{
	ext2_filsys fs = o->fs;
	unsigned isize = EXT2_INODE_SIZE(fs->super), i;
	ext2_ino_t ipg = fs->super->s_inodes_per_group, ino;
	const struct ext2_inode *in;
	blk64_t loc = ext2fs_inode_table_loc(fs, g), b;

	if (o->sample[g] != NO_SAMPLE)
		return o->sample[g];
	o->sample[g] = 0;
	if (!loc || loc >= ext2fs_blocks_count(fs->super) ||
	    (ext2fs_has_group_desc_csum(fs) &&
	     (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT) ||
	      ext2fs_bg_itable_unused(fs, g) >= ipg)) ||
	    io_channel_read_blk64(fs->io, loc, 1, o->buf))
		return 0;
	for (i = 0; i < fs->blocksize / isize && i < ipg; i++) {
		in = (const void *)(o->buf + (size_t)i * isize);
		ino = g * ipg + i + 1;
		if (!in->i_links_count || in->i_dtime ||
		    ino < EXT2_FIRST_INODE(fs->super))
			continue;
		b = inode_first_block(in);
		if (b && b < ext2fs_blocks_count(fs->super)) {
			o->sample[g] = b;
			break;
		}
	}
	return o->sample[g];
}

/*
 * The group whose inodes likely own block t: the last group whose sample
 * is at most t, found by a binary search (filesystems allocate a group's
 * files mostly after the groups before it); a group without a sample sends
 * the search lower (the unused groups are at the end).
 */
static dgrp_t guess(struct order *o, blk64_t t, dgrp_t dflt)
{
	dgrp_t lo = 0, hi = o->fs->group_desc_count, mid, best = dflt;
	blk64_t s;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s = sample(o, mid);
		if (s && s <= t) {
			best = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	return best;
}

static int grp_cmp(const void *a, const void *b)
{
	dgrp_t x = *(const dgrp_t *)a, y = *(const dgrp_t *)b;

	return x < y ? -1 : x > y;
}

struct ranked {
	dgrp_t g;
	dgrp_t dist;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return x->g < y->g ? -1 : x->g > y->g;
}

errcode_t owner_probe_order(ext2_filsys fs, const blk64_t *blks, size_t n,
			    dgrp_t **out)
{
	dgrp_t ng = fs->group_desc_count, g, *seed = NULL, *ord = NULL, d;
	struct order o = {.fs = fs};
	struct ranked *r = NULL;
	size_t i, k, ns = 0;
	errcode_t err = ENOMEM;

	*out = NULL;
	o.sample = malloc(ng * sizeof(*o.sample));
	o.buf = malloc(fs->blocksize);
	seed = malloc((n ? n : 1) * sizeof(*seed));
	r = malloc(ng * sizeof(*r));
	ord = malloc(ng * sizeof(*ord));
	if (!o.sample || !o.buf || !seed || !r || !ord)
		goto out;
	for (g = 0; g < ng; g++)
		o.sample[g] = NO_SAMPLE;
	for (i = 0; i < n; i++)
		seed[ns++] = guess(&o, blks[i], ext2fs_group_of_blk2(fs,
								     blks[i]));
	qsort(seed, ns, sizeof(*seed), grp_cmp);
	/* each group's distance to the nearest guess */
	for (g = 0, k = 0; g < ng; g++) {
		while (k + 1 < ns && seed[k + 1] <= g)
			k++;
		d = seed[k] > g ? seed[k] - g : g - seed[k];
		if (k + 1 < ns && seed[k + 1] - g < d)
			d = seed[k + 1] - g;
		r[g].g = g;
		r[g].dist = d;
	}
	qsort(r, ng, sizeof(*r), ranked_cmp);
	for (g = 0; g < ng; g++)
		ord[g] = r[g].g;
	*out = ord;
	ord = NULL;
	err = 0;
out:
	free(o.sample);
	free(o.buf);
	free(seed);
	free(r);
	free(ord);
	return err;
}
