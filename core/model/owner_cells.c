/* owner_cells.c - class counts over a block range straight from the index,
 * for the TUI's map cells: the counts owner_class_counts gives, without
 * making a run answer of every piece, free and unowned space counted from
 * the block bitmap's bits a window at a time. */
#include "owner_int.h"

#include <string.h>

#define WIN_BYTES 16384		/* the bitmap window: 131072 blocks */

/* A window of the block bitmap's bits: block base + i is bit i. */
struct bitwin {
	ext2_filsys fs;
	blk64_t bstart;		/* the bitmap's first block */
	blk64_t base, n;	/* the window; n == 0: none loaded */
	blk64_t limit;		/* no window reaches past it */
	blk64_t gfirst, gend;	/* the group of the last gap; gend 0: none */
	int guninit;		/* and it is BLOCK_UNINIT */
	unsigned char buf[WIN_BYTES];
};

static errcode_t win_load(struct bitwin *w, blk64_t a)
{
	errcode_t err;

	/* the range starts on a byte of the bitmap */
	w->base = a - (a - w->bstart) % 8;
	w->n = w->limit - w->base;
	if (w->n > (blk64_t)WIN_BYTES * 8)
		w->n = (blk64_t)WIN_BYTES * 8;
	err = ext2fs_get_block_bitmap_range2(w->fs->block_map, w->base,
					     (size_t)w->n, w->buf);
	if (err)
		w->n = 0;
	return err;
}

/* Set bits among bits [x, y) of buf: the partial bytes at either end
 * masked, the rest a word or a byte at a time (a map cell of a few hundred
 * blocks spent most of its count on its ends bit by bit). */
static blk64_t ones(const unsigned char *buf, blk64_t x, blk64_t y)
{
	blk64_t n = 0;
	uint64_t word;
	unsigned b, k;

	if (x >= y)
		return 0;
	if (x & 7) {
		b = (unsigned)buf[x >> 3] >> (x & 7);
		k = 8 - (unsigned)(x & 7);
		if (y - x < k)
			return (blk64_t)__builtin_popcount(
				b & ((1u << (y - x)) - 1));
		n += (blk64_t)__builtin_popcount(b);
		x += k;
	}
	for (; x + 64 <= y; x += 64) {
		memcpy(&word, buf + (x >> 3), sizeof(word));
		n += (blk64_t)__builtin_popcountll(word);
	}
	for (; x + 8 <= y; x += 8)
		n += (blk64_t)__builtin_popcount(buf[x >> 3]);
	if (x < y)
		n += (blk64_t)__builtin_popcount(buf[x >> 3] &
						 ((1u << (y - x)) - 1));
	return n;
}

/* Free blocks (clear bits) in [a, b). */
static errcode_t free_in(struct bitwin *w, blk64_t a, blk64_t b,
			 blk64_t *out)
{
	blk64_t f = 0, t;
	errcode_t err;

	while (a < b) {
		if (!w->n || a < w->base || a >= w->base + w->n) {
			err = win_load(w, a);
			if (err)
				return err;
		}
		t = b < w->base + w->n ? b : w->base + w->n;
		f += (t - a) - ones(w->buf, a - w->base, t - w->base);
		a = t;
	}
	*out = f;
	return 0;
}

/* The space between runs: before the first data block and used in the
 * bitmap it has no owner (OWN_UNKNOWN); free, it is OWN_UNINIT in a
 * BLOCK_UNINIT group, else OWN_FREE. */
static errcode_t count_gap(struct bitwin *w, blk64_t a, blk64_t b,
			   blk64_t *counts)
{
	ext2_filsys fs = w->fs;
	blk64_t fdb = fs->super->s_first_data_block, t, f;
	errcode_t err;
	dgrp_t g;
	int un;

	if (a < fdb) {
		t = b < fdb ? b : fdb;
		counts[OWN_UNKNOWN] += t - a;
		a = t;
	}
	while (a < b) {
		if (a < w->gfirst || a >= w->gend) {
			/* a map has tens of gaps a group: its bounds once */
			g = ext2fs_group_of_blk2(fs, a);
			w->gfirst = a;
			w->gend = ext2fs_group_last_block2(fs, g) + 1;
			if (w->gend <= a)
				w->gend = b;
			w->guninit = ext2fs_has_group_desc_csum(fs) &&
				     ext2fs_bg_flags_test(fs, g,
							  EXT2_BG_BLOCK_UNINIT);
		}
		t = w->gend < b ? w->gend : b;
		un = w->guninit;
		err = free_in(w, a, t, &f);
		if (err)
			return err;
		counts[un ? OWN_UNINIT : OWN_FREE] += f;
		counts[OWN_UNKNOWN] += (t - a) - f;
		a = t;
	}
	return 0;
}

/*
 * The walk of idx_for_range (owner_query.c) reduced to counting: at each
 * block the metadata run over it, else the first file run over it, else
 * the bitmap.  Not for bigalloc (a cluster's slack goes to the run beside
 * it there): the caller asks owner_class_counts.
 */
static errcode_t cells_count(ext2_filsys fs, struct owner_index *idx,
			     blk64_t first, blk64_t end, blk64_t *counts)
{
	static const struct fpack none;
	const struct orun_vec *mv = &idx->meta;
	struct fpack_it j = {.v = &none};
	struct bitwin w;
	blk64_t pos = first, next, rend;
	size_t i;
	errcode_t err;

	if (idx->complete) {
		err = owner_files(idx, &j.v);
		if (err)
			return err;
	}
	w.fs = fs;
	w.bstart = ext2fs_get_block_bitmap_start2(fs->block_map);
	w.n = 0;
	w.base = 0;
	w.limit = end;
	w.gfirst = w.gend = 0;
	i = orun_find(mv, pos);
	fpack_at(&j, pos);
	while (pos < end) {
		while (i < mv->n && orun_end(&mv->v[i]) <= pos)
			i++;
		while (j.ok && orun_end(&j.r) <= pos)
			fpack_next(&j);
		next = end;
		if (i < mv->n && orun_start(&mv->v[i]) < next)
			next = orun_start(&mv->v[i]);
		if (i < mv->n && next <= pos) {
			rend = orun_end(&mv->v[i]);
			rend = rend < end ? rend : end;
			counts[mv->v[i].cls] += rend - pos;
			pos = rend;
			continue;
		}
		if (j.ok && orun_start(&j.r) <= pos) {
			rend = orun_end(&j.r);
			rend = rend < next ? rend : next;
			counts[j.r.cls] += rend - pos;
			pos = rend;
			continue;
		}
		if (j.ok && orun_start(&j.r) < next)
			next = orun_start(&j.r);
		err = count_gap(&w, pos, next, counts);
		if (err)
			return err;
		pos = next;
	}
	return 0;
}

errcode_t owner_cell_counts(struct session *s, blk64_t first, blk64_t count,
			    blk64_t counts[OWN_CLASS_MAX])
{
	ext2_filsys fs = s->fs;
	blk64_t c[OWN_CLASS_MAX] = {0}, total, end;
	errcode_t err;
	int k;

	err = owner_scan_begin(s);
	if (err)
		return err;
	total = ext2fs_blocks_count(fs->super);
	end = first + count;
	if (end < first || end > total)
		end = total;
	if (first >= end)
		return 0;
	if (EXT2FS_CLUSTER_RATIO(fs) > 1 || !fs->block_map)
		return owner_class_counts(s, first, count, counts);
	err = cells_count(fs, s->owners, first, end, c);
	if (err)	/* the bitmap would not give its bits */
		return owner_class_counts(s, first, count, counts);
	for (k = 0; k < OWN_CLASS_MAX; k++)
		counts[k] += c[k];
	return 0;
}
