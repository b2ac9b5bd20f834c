/* plan_verify.c - after a plan is applied, checks it from the disk: the
 * inode maps what the plan said, the block bitmap marks the new run and not
 * the old blocks, and every group counter agrees with the bitmap. */
#include "plan.h"

#include <stdlib.h>

/* Merges runs that continue each other (logically and physically). */
static size_t normalize(struct plan_ext *r, size_t n)
{
	size_t i, o = 0;

	for (i = 0; i < n; i++) {
		if (o && r[o - 1].lblk + r[o - 1].len == r[i].lblk &&
		    r[o - 1].pblk + r[o - 1].len == r[i].pblk &&
		    r[o - 1].uninit == r[i].uninit) {
			r[o - 1].len += r[i].len;
			continue;
		}
		r[o++] = r[i];
	}
	return o;
}

blk64_t plan_used_in(ext2_filsys fs, blk64_t first, blk64_t last)
{
	blk64_t b = first, u, z, used = 0;

	while (b <= last) {
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, b, last,
							&u))
			break;
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, u,
							 last, &z))
			z = last + 1;
		used += z - u;
		b = z;
	}
	return used;
}

static int check_counters(struct session *s)
{
	ext2_filsys fs = s->fs;
	blk64_t first, last, free_b, total = 0;
	dgrp_t g;
	int bad = 0;

	for (g = 0; g < fs->group_desc_count; g++) {
		first = ext2fs_group_first_block2(fs, g);
		last = ext2fs_group_last_block2(fs, g);
		/* blocks; the descriptors count clusters on bigalloc */
		free_b = last - first + 1 - plan_used_in(fs, first, last);
		total += free_b;
		free_b >>= fs->cluster_ratio_bits;
		if (free_b != ext2fs_bg_free_blocks_count(fs, g)) {
			out_error(s->out, "verify", 0, "group %u: the "
				  "descriptor says %u free clusters/blocks, "
				  "the bitmap %llu", g,
				  ext2fs_bg_free_blocks_count(fs, g),
				  (unsigned long long)free_b);
			bad = 1;
		}
	}
	if (total != ext2fs_free_blocks_count(fs->super)) {
		out_error(s->out, "verify", 0, "the superblock says %llu free "
			  "blocks, the bitmap %llu",
			  (unsigned long long)ext2fs_free_blocks_count(fs->super),
			  (unsigned long long)total);
		bad = 1;
	}
	return bad;
}

int plan_verify(struct session *s, const struct plan *p)
{
	ext2_filsys fs = s->fs;
	struct plan_ext *runs = NULL, *want = NULL;
	blk64_t *meta = NULL, mfirst = p->target;
	size_t n = 0, nm = 0, nw, i;
	int ext, bad = 0;
	errcode_t err;

	/* Judge the bitmap on disk, not the copy in memory; reread through
	 * the session so that what it records of the bitmap stays true
	 * (loaded, and of which type) for the requests after this one. */
	if (fs->block_map) {
		ext2fs_free_block_bitmap(fs->block_map);
		fs->block_map = NULL;
	}
	s->loaded &= ~NEED_BLOCK_BITMAP;
	err = session_need(s, NEED_BLOCK_BITMAP);
	if (!err && p->repack)
		return plan_repack_verify(s, p) | check_counters(s);
	if (!err)
		err = plan_read_map(fs, p->ino, &ext, &runs, &n, &meta, &nm);
	if (err) {
		out_error(s->out, "verify", err, "while rereading inode %u",
			  p->ino);
		return 1;
	}
	want = malloc((p->nnew + 1) * sizeof(*want));
	if (!want) {
		bad = 1;
		goto out;
	}
	for (i = 0; i < p->nnew; i++)
		want[i] = p->new[i];
	nw = normalize(want, p->nnew);
	n = normalize(runs, n);
	if (n != nw) {
		out_error(s->out, "verify", 0, "inode %u maps %zu runs, the "
			  "plan %zu", p->ino, n, nw);
		bad = 1;
	}
	for (i = 0; i < n && i < nw && !bad; i++)
		if (runs[i].lblk != want[i].lblk ||
		    runs[i].pblk != want[i].pblk ||
		    runs[i].len != want[i].len ||
		    runs[i].uninit != want[i].uninit) {
			out_error(s->out, "verify", 0, "inode %u: run %zu "
				  "differs from the plan", p->ino, i);
			bad = 1;
		}
	if (nm != p->new_meta) {
		out_error(s->out, "verify", 0, "inode %u has %zu mapping "
			  "blocks, the plan %llu", p->ino, nm,
			  (unsigned long long)p->new_meta);
		bad = 1;
	}
	for (i = 0; i < nm; i++)
		if (meta[i] < mfirst || meta[i] >= p->target + p->target_len) {
			out_error(s->out, "verify", 0, "mapping block %llu is "
				  "outside the new run",
				  (unsigned long long)meta[i]);
			bad = 1;
		}
	if (plan_used_in(fs, p->target, p->target + p->target_len - 1) !=
	    p->target_len) {
		out_error(s->out, "verify", 0, "the new run is not all marked "
			  "in use in the block bitmap");
		bad = 1;
	}
	for (i = 0; i < p->nold; i++)
		if (!p->set_size && plan_used_outside_later_islands(fs, p,
			    p->old[i].pblk,
			    p->old[i].pblk + p->old[i].len - 1)) {
			out_error(s->out, "verify", 0, "old blocks %llu-%llu "
				  "are still marked in use",
				  (unsigned long long)p->old[i].pblk,
				  (unsigned long long)(p->old[i].pblk +
						       p->old[i].len - 1));
			bad = 1;
		}
	bad |= check_counters(s);
	if (!bad)
		out_printf(s->out, "verified: inode %u maps %zu extent%s as "
			   "planned; bitmaps and group counters agree\n",
			   p->ino, n, n == 1 ? "" : "s");
out:
	free(runs);
	free(meta);
	free(want);
	return bad;
}
