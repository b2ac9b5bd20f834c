/* plan_build.c - the "move an inode into one contiguous run" plan: new
 * mapping, target run, and the ordered steps (copy, write mapping, allocate,
 * switch, free).  Read-only: nothing is written here. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#define EXT_MAX_INIT	32768
#define EXT_MAX_UNINIT	32767

static errcode_t push_step(struct plan *p, size_t *cap, enum plan_step_kind k,
			   blk64_t src, blk64_t dst, blk64_t len)
{
	struct plan_step *st, *last = p->nsteps ? &p->steps[p->nsteps - 1]
						: NULL;

	/* Merge with the previous step when both ends are contiguous. */
	if (last && last->kind == k && k != STEP_SWITCH &&
	    (k == STEP_ALLOC || last->src + last->len == src) &&
	    (k == STEP_FREE || last->dst + last->len == dst)) {
		last->len += len;
		return 0;
	}
	if (p->nsteps == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		st = realloc(p->steps, *cap * sizeof(*st));
		if (!st)
			return ENOMEM;
		p->steps = st;
	}
	p->steps[p->nsteps++] = (struct plan_step){k, src, dst, len};
	return 0;
}

/*
 * Lays the old runs out contiguously from target, extent-length limited.
 * With bigalloc each logical cluster gets the next physical cluster (the
 * one of the previous run when it continues a cluster), keeping every
 * block's offset in its cluster: holes of whole clusters take no space.
 * *units: the clusters (blocks) the data takes.
 */
static errcode_t pack_runs(ext2_filsys fs, struct plan *p,
			   const struct plan_ext *src, size_t nsrc,
			   blk64_t target, blk64_t *units)
{
	int bits = fs->cluster_ratio_bits;
	blk64_t cur, left, l, lblk, max, lc0, lc1;
	blk64_t lc_last = ~0ULL, pc_last = 0, pc_next = target >> bits;
	struct plan_ext *last;
	size_t i, cap = nsrc * 2 + 16;

	p->new = calloc(cap, sizeof(*p->new));
	if (!p->new)
		return ENOMEM;
	p->nnew = 0;
	for (i = 0; i < nsrc; i++) {
		if (!src[i].len)
			continue;
		left = src[i].len;
		lblk = src[i].lblk;
		lc0 = lblk >> bits;
		lc1 = (lblk + left - 1) >> bits;
		if (lc0 != lc_last)
			pc_last = pc_next;	/* else: continue its cluster */
		cur = ((pc_last - lc0) << bits) + lblk;
		pc_last += lc1 - lc0;
		pc_next = pc_last + 1;
		lc_last = lc1;
		while (left) {
			max = src[i].uninit ? EXT_MAX_UNINIT : EXT_MAX_INIT;
			last = p->nnew ? &p->new[p->nnew - 1] : NULL;
			if (last && last->lblk + last->len == lblk &&
			    last->pblk + last->len == cur &&
			    last->uninit == src[i].uninit &&
			    (!p->extents || last->len < max)) {
				l = p->extents ? max - last->len : left;
				if (l > left)
					l = left;
				last->len += l;
			} else {
				if (p->nnew == cap) {
					struct plan_ext *n = realloc(p->new,
						cap * 2 * sizeof(*n));
					if (!n)
						return ENOMEM;
					p->new = n;
					cap *= 2;
				}
				l = p->extents && left > max ? max : left;
				p->new[p->nnew++] = (struct plan_ext){
					lblk, cur, l, src[i].uninit};
			}
			cur += l;
			lblk += l;
			left -= l;
		}
	}
	*units = pc_next - (target >> bits);
	return 0;
}

static blk64_t runs_blocks(const struct plan_ext *r, size_t n);

/* New mapping at target: packed extents, or ext2-style indirect layout. */
static errcode_t layout_fn(ext2_filsys fs, struct plan *p, blk64_t target,
			   blk64_t **metas, size_t *nmetas, blk64_t *units)
{
	struct plan_indirect ind = {.runs = NULL};
	struct plan_ext whole = {0, 0, p->new_size_blocks, 0};
	const struct plan_ext *src = p->new_size_blocks ? &whole : p->old;
	size_t nsrc = p->new_size_blocks ? 1 : p->nold;
	errcode_t err;

	if (p->extents) {
		err = pack_runs(fs, p, src, nsrc, target, units);
		if (!err)
			p->new_meta = plan_meta_needed(fs, 1, p->new, p->nnew);
		return err;
	}
	err = plan_indirect_layout(fs, src, nsrc, target, &ind);
	if (err)
		return err;
	p->new = ind.runs;
	p->nnew = ind.nruns;
	p->new_meta = ind.nmeta;
	*units = runs_blocks(ind.runs, ind.nruns);
	free(*metas);
	*metas = ind.metas;
	*nmetas = ind.nmeta;
	ind.runs = NULL;
	ind.metas = NULL;
	plan_indirect_release(&ind);
	return 0;
}

static blk64_t runs_blocks(const struct plan_ext *r, size_t n)
{
	blk64_t t = 0;

	while (n--)
		t += r[n].len;
	return t;
}

static int hits(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

/* Whether [start, start+len) holds metadata evacuate could never move. */
static int has_fixed_meta(ext2_filsys fs, blk64_t start, blk64_t len)
{
	blk64_t sb, old_desc, new_desc;
	blk_t ndesc, used;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++) {
		if (hits(ext2fs_block_bitmap_loc(fs, g), 1, start, len) ||
		    hits(ext2fs_inode_bitmap_loc(fs, g), 1, start, len) ||
		    hits(ext2fs_inode_table_loc(fs, g),
			 fs->inode_blocks_per_group, start, len))
			return 1;
		if (ext2fs_group_last_block2(fs, g) < start ||
		    ext2fs_group_first_block2(fs, g) >= start + len)
			continue;
		ext2fs_super_and_bgd_loc2(fs, g, &sb, &old_desc, &new_desc,
					  &used);
		ndesc = fs->desc_blocks + fs->super->s_reserved_gdt_blocks;
		if ((sb || g == 0) && hits(sb, 1, start, len))
			return 1;
		if (hits(old_desc, old_desc ? ndesc : 0, start, len) ||
		    hits(new_desc, new_desc ? 1 : 0, start, len))
			return 1;
	}
	return 0;
}

/* Tells what evacuate would have to move to make room near goal. */
static void suggest_evacuate(struct session *s, blk64_t goal, blk64_t need,
			     blk64_t largest)
{
	ext2_filsys fs = s->fs;
	blk64_t end = ext2fs_blocks_count(fs->super), best = 0, bestused = ~0ULL;
	blk64_t start, b, z, u, used, step = EXT2_BLOCKS_PER_GROUP(fs->super);

	out_error(s->out, "plan", 0, "no free run of %llu blocks (the largest "
		  "free run has %llu blocks)", (unsigned long long)need,
		  (unsigned long long)largest);
	(void)goal;
	step /= 8;	/* candidate windows every 1/8 group */
	for (start = fs->super->s_first_data_block; start + need <= end;
	     start += step) {
		used = 0;
		for (b = start; b < start + need; b = z) {
			if (ext2fs_find_first_set_block_bitmap2(fs->block_map,
					b, start + need - 1, &u))
				break;
			if (ext2fs_find_first_zero_block_bitmap2(fs->block_map,
					u, start + need - 1, &z))
				z = start + need;
			used += z - u;
		}
		if (used < bestused && !has_fixed_meta(fs, start, need)) {
			bestused = used;
			best = start;
		}
	}
	if (bestused == ~0ULL)
		out_error(s->out, "plan", 0, "no range of that size is free "
			  "of fixed metadata; the filesystem is too small or "
			  "too full for this");
	else
		out_error(s->out, "plan", 0, "`evacuate %llu-%llu` would free "
			  "such a run by moving %llu used blocks elsewhere",
			  (unsigned long long)best,
			  (unsigned long long)(best + need - 1),
			  (unsigned long long)bestused);
}

static int cmp_blk(const void *a, const void *b)
{
	blk64_t x = *(const blk64_t *)a, y = *(const blk64_t *)b;

	return x < y ? -1 : x > y;
}

/* Bigalloc: frees whole clusters, each once (data and tree blocks). */
static errcode_t free_clusters(ext2_filsys fs, struct plan *p, size_t *cap)
{
	int bits = fs->cluster_ratio_bits;
	size_t n = 0, i;
	blk64_t *c, x;
	errcode_t err = 0;

	for (i = 0; i < p->nold; i++)
		n += ((p->old[i].pblk + p->old[i].len - 1) >> bits) -
		     (p->old[i].pblk >> bits) + 1;
	c = malloc((n + p->nold_meta + 1) * sizeof(*c));
	if (!c)
		return ENOMEM;
	n = 0;
	for (i = 0; i < p->nold; i++)
		for (x = p->old[i].pblk >> bits;
		     x <= (p->old[i].pblk + p->old[i].len - 1) >> bits; x++)
			c[n++] = x;
	for (i = 0; i < p->nold_meta; i++)
		c[n++] = p->old_meta[i] >> bits;
	qsort(c, n, sizeof(*c), cmp_blk);
	for (i = 0; i < n && !err; i++)
		if (!i || c[i] != c[i - 1])
			err = push_step(p, cap, STEP_FREE, c[i] << bits, 0,
					1ULL << bits);
	free(c);
	return err;
}

/* Copy steps: where each old written run overlaps a new run (both in
 * logical order), from the old place to the new. */
static errcode_t copy_steps(struct plan *p, size_t *cap)
{
	size_t i, j = 0, k;
	blk64_t lo, hi;
	errcode_t err = 0;

	for (i = 0; i < p->nold && !err; i++) {
		const struct plan_ext *o = &p->old[i];

		if (o->uninit)
			continue;	/* unwritten: nothing to copy */
		while (j < p->nnew && p->new[j].lblk + p->new[j].len <= o->lblk)
			j++;
		for (k = j; k < p->nnew && p->new[k].lblk < o->lblk + o->len &&
		     !err; k++) {
			const struct plan_ext *n = &p->new[k];

			lo = o->lblk > n->lblk ? o->lblk : n->lblk;
			hi = o->lblk + o->len < n->lblk + n->len ?
			     o->lblk + o->len : n->lblk + n->len;
			if (lo < hi)
				err = push_step(p, cap, STEP_COPY,
						o->pblk + lo - o->lblk,
						n->pblk + lo - n->lblk,
						hi - lo);
		}
	}
	return err;
}

errcode_t plan_build_move(struct session *s, const char *kind, ext2_ino_t ino,
			  blk64_t goal, blk64_t new_size, struct plan **pp)
{
	ext2_filsys fs = s->fs;
	struct plan *p;
	blk64_t data = 0, units = 0, largest, target, *metas = NULL, k;
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(fs);
	size_t nmetas = 0;
	size_t cap = 0, i;
	errcode_t err;

	*pp = NULL;
	/* the free space is the loaded bitmap's (an owner index built
	 * before may have read the disk's group by group instead) */
	err = session_need(s, NEED_BLOCK_BITMAP);
	if (err)
		return err;
	p = calloc(1, sizeof(*p));
	if (!p)
		return ENOMEM;
	p->new_size_blocks = new_size;
	snprintf(p->kind, sizeof(p->kind), "%s", kind);
	p->ino = ino;
	err = plan_read_map(fs, ino, &p->extents, &p->old, &p->nold,
			    &p->old_meta, &p->nold_meta);
	if (err) {
		out_error(s->out, kind, err, "while reading the mapping of "
			  "inode %u", ino);
		goto out;
	}
	for (i = 0; i < p->nold; i++)
		data += p->old[i].len;
	if (!data) {
		out_error(s->out, kind, 0, "inode %u has no data blocks; "
			  "nothing to move", ino);
		err = EXT2_ET_INVALID_ARGUMENT;
		goto out;
	}
	if (ratio > 1 && !p->extents) {
		out_error(s->out, kind, 0, "on bigalloc only extent-mapped "
			  "files move");
		err = EXT2_ET_UNIMPLEMENTED;
		goto out;
	}
	if (new_size) {
		for (i = 0; i < p->nold; i++)
			if (p->old[i].lblk != (i ? p->old[i - 1].lblk +
					       p->old[i - 1].len : 0))
				break;
		if (i < p->nold) {
			out_error(s->out, kind, 0, "inode %u has holes; only "
				  "a journal can be resized", ino);
			err = EXT2_ET_INVALID_ARGUMENT;
			goto out;
		}
	}
	/* Size the new mapping with a dummy target, then place it. */
	err = layout_fn(fs, p, 0, &metas, &nmetas, &units);
	if (err)
		goto out;
	if (p->new_meta == ~0ULL) {
		out_error(s->out, kind, 0, "inode %u would need an extent "
			  "tree deeper than 5 levels (%zu extents)", ino,
			  p->nnew);
		err = EXT2_ET_UNIMPLEMENTED;
		goto out;
	}
	if (new_size)
		data = new_size;
	p->target_len = (units + p->new_meta) * ratio;
	err = plan_find_free(fs, goal, p->target_len, &target, &largest);
	if (err) {
		suggest_evacuate(s, goal, p->target_len, largest);
		goto out;
	}
	p->target = target;
	free(p->new);
	p->new = NULL;
	err = layout_fn(fs, p, target, &metas, &nmetas, &units);
	if (err)
		goto out;

	/* Steps, in the order apply runs them. */
	err = copy_steps(p, &cap);
	for (i = 0; p->new_size_blocks && i < p->nnew && !err; i++) {
		const struct plan_ext *n = &p->new[i];
		blk64_t olddata = 0, lo, j;

		for (j = 0; j < p->nold; j++)
			olddata += p->old[j].len;
		lo = n->lblk > olddata ? n->lblk : olddata;
		if (lo < n->lblk + n->len)
			err = push_step(p, &cap, STEP_ZERO, 0,
					n->pblk + lo - n->lblk,
					n->lblk + n->len - lo);
	}
	for (k = 0; p->extents && k < p->new_meta && !err; k++)
		err = push_step(p, &cap, STEP_WRITE_MAP,
				plan_meta_blk(fs, p, k),
				plan_meta_blk(fs, p, k), 1);
	for (i = 0; !p->extents && i < nmetas && !err; i++)
		err = push_step(p, &cap, STEP_WRITE_MAP, metas[i], metas[i], 1);
	if (!err)
		err = push_step(p, &cap, STEP_ALLOC, 0, target, p->target_len);
	if (!err)
		err = push_step(p, &cap, STEP_SWITCH, 0, target, 0);
	if (ratio > 1) {
		if (!err)
			err = free_clusters(fs, p, &cap);
	} else {
		for (i = 0; i < p->nold && !err; i++)
			err = push_step(p, &cap, STEP_FREE, p->old[i].pblk, 0,
					p->old[i].len);
		for (i = 0; i < p->nold_meta && !err; i++)
			err = push_step(p, &cap, STEP_FREE, p->old_meta[i], 0,
					1);
	}
	if (!err)
		err = plan_fingerprint(fs, ino, &p->fp);
out:
	free(metas);
	if (err) {
		plan_free(p);
		return err;
	}
	*pp = p;
	return 0;
}
