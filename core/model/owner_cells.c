/* owner_cells.c - class counts over a block range straight from the index,
 * for the TUI's map cells: the counts owner_class_counts gives, without
 * making a run answer of every piece, free and unowned space counted from
 * the block bitmap's bits a window at a time. */
#include "owner_int.h"

#include <stdlib.h>
#include <string.h>

#define WIN_BYTES 16384		/* the bitmap window: 131072 blocks */

/* A window of the block bitmap's bits: block base + i is bit i. */
struct bitwin {
	ext2_filsys fs;
	struct owner_bits *bits;	/* NULL: fs->block_map */
	blk64_t bstart;		/* the bitmap's first block */
	blk64_t base, n;	/* the window; n == 0: none loaded */
	blk64_t limit;		/* no window reaches past it */
	blk64_t gfirst, gend;	/* the group of the last gap; gend 0: none */
	int guninit;		/* and it is BLOCK_UNINIT */
	dgrp_t g;		/* that group */
	blk64_t gstart;		/* and its first block */
	int gsum;		/* its summary may answer (owner_bits) */
	unsigned char buf[WIN_BYTES + 8];	/* a word read at its last byte */
};

static errcode_t win_load(struct bitwin *w, blk64_t a)
{
	errcode_t err;

	/* the range starts on a byte of the bitmap */
	w->base = a - (a - w->bstart) % 8;
	w->n = w->limit - w->base;
	if (w->n > (blk64_t)WIN_BYTES * 8)
		w->n = (blk64_t)WIN_BYTES * 8;
	err = w->bits ? owner_bits_range(w->fs, w->bits, w->base,
					 (size_t)w->n, w->buf) :
	      ext2fs_get_block_bitmap_range2(w->fs->block_map, w->base,
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
	if (y - x <= 56) {
		/* a gap between runs is a few blocks: one word, masked */
		memcpy(&word, buf + (x >> 3), sizeof(word));
		word = (ext2fs_le64_to_cpu(word) >> (x & 7)) &
		       ((1ULL << (y - x)) - 1);
		return word ? (blk64_t)__builtin_popcountll(word) : 0;
	}
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
		/* most words of a bitmap are all used or all free (the
		 * popcount is a libgcc call without -mpopcnt) */
		if (word == ~(uint64_t)0)
			n += 64;
		else if (word)
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
			w->g = g;
			w->gstart = ext2fs_group_first_block2(fs, g);
			w->gfirst = a;
			w->gend = ext2fs_group_last_block2(fs, g) + 1;
			w->gsum = w->gend > a;	/* [a, gend) in group g */
			if (w->gend <= a)
				w->gend = b;
			w->guninit = ext2fs_has_group_desc_csum(fs) &&
				     ext2fs_bg_flags_test(fs, g,
							  EXT2_BG_BLOCK_UNINIT);
		}
		t = w->gend < b ? w->gend : b;
		un = w->guninit;
		if (t - a <= 56 && w->n && a >= w->base &&
		    t <= w->base + w->n) {
			/* a word of the window (the gaps between runs) */
			f = (t - a) - ones(w->buf, a - w->base, t - w->base);
		} else if (w->bits && w->gsum &&
			   owner_bits_used_quick(w->bits, w->g, a - w->gstart,
						 t - w->gstart, &f)) {
			f = (t - a) - f;	/* the group's summary told */
		} else {
			err = free_in(w, a, t, &f);
			if (err)
				return err;
		}
		counts[un ? OWN_UNINIT : OWN_FREE] += f;
		counts[OWN_UNKNOWN] += (t - a) - f;
		a = t;
	}
	return 0;
}

/* A walk over consecutive cells: the file-run iterator and the bitmap
 * window carry from one cell to the next instead of a seek per cell. */
struct cellwalk {
	const struct orun_vec *mv;
	struct fpack_it j;
	struct bitwin w;
};

static errcode_t walk_begin(ext2_filsys fs, struct owner_index *idx,
			    struct cellwalk *cw, blk64_t first, blk64_t end)
{
	static const struct fpack none;
	errcode_t err;

	memset(&cw->j, 0, sizeof(cw->j));
	cw->j.v = &none;
	cw->mv = &idx->meta;
	if (idx->complete) {
		err = owner_files(idx, &cw->j.v);
		if (err)
			return err;
	}
	cw->w.fs = fs;
	cw->w.bits = fs->block_map ? NULL : idx->bits;
	cw->w.bstart = cw->w.bits ? fs->super->s_first_data_block :
		       ext2fs_get_block_bitmap_start2(fs->block_map);
	cw->w.n = 0;
	cw->w.base = 0;
	cw->w.limit = end;
	cw->w.gfirst = cw->w.gend = 0;
	fpack_at(&cw->j, first);
	return 0;
}

/*
 * The walk of idx_for_range (owner_query.c) reduced to counting: at each
 * block the metadata run over it, else the first file run over it, else
 * the bitmap.  Not for bigalloc (a cluster's slack goes to the run beside
 * it there): the caller asks owner_class_counts.  Cells come in block
 * order: the iterator only moves on (every run it passed ends by first).
 */
static errcode_t gap_count(void *arg, blk64_t a, blk64_t b, blk64_t *counts)
{
	return count_gap(arg, a, b, counts);
}

static errcode_t cells_count(struct cellwalk *cw, blk64_t first,
			     blk64_t end, blk64_t *counts)
{
	const struct orun_vec *mv = cw->mv;
	blk64_t pos = first, next, rend;
	size_t i;
	errcode_t err;

	i = orun_find(mv, pos);
	while (pos < end) {
		while (i < mv->n && orun_end(&mv->v[i]) <= pos)
			i++;
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
		/* up to the next metadata run the file runs own the blocks
		 * (the index's runs are not walked by the caller's loop) */
		err = fpack_count(&cw->j, pos, next, counts, gap_count,
				  &cw->w);
		if (err)
			return err;
		pos = next;
	}
	return 0;
}

errcode_t owner_cells_row(struct session *s, blk64_t first, blk64_t bpc,
			  blk64_t end, int n, blk64_t (*counts)[OWN_CLASS_MAX])
{
	ext2_filsys fs = s->fs;
	struct cellwalk *cw;
	blk64_t total, a, b;
	errcode_t err;
	int cell;

	err = owner_scan_begin(s);
	if (err)
		return err;
	total = ext2fs_blocks_count(fs->super);
	if (end > total)
		end = total;
	if (first >= end || n < 1)
		return 0;
	if (EXT2FS_CLUSTER_RATIO(fs) > 1 ||
	    (!fs->block_map && !s->owners->bits))
		goto one_by_one;
	cw = malloc(sizeof(*cw));
	if (!cw)
		return ENOMEM;
	err = walk_begin(fs, s->owners, cw, first, end);
	for (cell = 0, a = first; !err && cell < n && a < end; cell++) {
		b = end - a < bpc ? end : a + bpc;
		memset(counts[cell], 0, sizeof(counts[cell]));
		err = cells_count(cw, a, b, counts[cell]);
		a = b;
	}
	free(cw);
	if (!err)
		return 0;
one_by_one:	/* bigalloc, or the bitmap would not give its bits */
	for (cell = 0, a = first; cell < n && a < end; cell++) {
		b = end - a < bpc ? end : a + bpc;
		memset(counts[cell], 0, sizeof(counts[cell]));
		err = owner_class_counts(s, a, b - a, counts[cell]);
		if (err)
			return err;
		a = b;
	}
	return 0;
}

errcode_t owner_cell_counts(struct session *s, blk64_t first, blk64_t count,
			    blk64_t counts[OWN_CLASS_MAX])
{
	blk64_t c[1][OWN_CLASS_MAX], end = first + count;
	errcode_t err;
	int k;

	if (end < first)
		end = ~(blk64_t)0;
	err = owner_cells_row(s, first, end - first, end, 1, c);
	if (err || first >= end ||
	    first >= ext2fs_blocks_count(s->fs->super))
		return err;
	for (k = 0; k < OWN_CLASS_MAX; k++)
		counts[k] += c[0][k];
	return 0;
}
