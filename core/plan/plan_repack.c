/* plan_repack.c - the repack_flex plan: moves the block bitmaps, inode
 * bitmaps and inode tables of a flex group's groups into one packed island
 * (as mke2fs -G lays them out).  Building (read-only), checking a plan
 * before it is applied; plan_repack_occ.c finds what is in the island's
 * way, plan_repack_show.c previews it, plan_repack_run.c applies it.
 * Items in the way inside the island go through a temporary place first;
 * the resize inode's double-indirect block, when it is in the island, moves
 * to the first free block after it (where mke2fs -G puts it); the reserved
 * GDT blocks it lists never move. */
#include "plan_repack_int.h"

#include <stdlib.h>
#include <string.h>

const char *const repack_what_name[RP_KINDS] = {
	"block bitmap", "inode bitmap", "inode table",
	"resize inode's double-indirect block"};

void plan_repack_free(struct plan_repack *r)
{
	if (!r)
		return;
	free(r->items);
	free(r);
}

/* The resize inode's double-indirect block (0 when there is none). */
static blk64_t resize_dind(ext2_filsys fs)
{
	struct ext2_inode inode;

	if (!ext2fs_has_feature_resize_inode(fs->super) ||
	    ext2fs_read_inode(fs, EXT2_RESIZE_INO, &inode))
		return 0;
	return inode.i_block[EXT2_DIND_BLOCK];
}

blk64_t repack_item_loc(ext2_filsys fs, dgrp_t g, int what)
{
	if (what == RP_BB)
		return ext2fs_block_bitmap_loc(fs, g);
	if (what == RP_IB)
		return ext2fs_inode_bitmap_loc(fs, g);
	if (what == RP_IT)
		return ext2fs_inode_table_loc(fs, g);
	return resize_dind(fs);
}

int repack_overlaps(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen)
{
	return a < b + blen && b < a + alen;
}

int repack_in_cluster(ext2_filsys fs, blk64_t b, blk64_t start, blk64_t len)
{
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs);

	return len && (start & ~mask) == (b & ~mask) &&
	       ((start + len - 1) & ~mask) == (b & ~mask);
}

blk_t repack_header_len(ext2_filsys fs, dgrp_t g)
{
	blk64_t sb, od, nd;
	blk_t used;

	if (ext2fs_super_and_bgd_loc2(fs, g, &sb, &od, &nd, &used))
		return 0;
	/* bigalloc with 1 KiB blocks: group 0 starts at block 0, the boot
	 * block, which the count leaves out */
	if (!g && used && fs->blocksize == 1024 &&
	    !fs->super->s_first_data_block)
		used++;
	return used;
}

/* The end of the first group header overlapping [b, b + len), or 0. */
static blk64_t header_end(ext2_filsys fs, blk64_t b, blk64_t len)
{
	blk64_t end = ext2fs_blocks_count(fs->super), gf;
	dgrp_t g, last;
	blk_t used;

	if (!len || b >= end)
		return 0;
	if (b + len > end)
		len = end - b;
	last = ext2fs_group_of_blk2(fs, b + len - 1);
	for (g = ext2fs_group_of_blk2(fs, b); g <= last; g++) {
		used = repack_header_len(fs, g);
		gf = ext2fs_group_first_block2(fs, g);
		if (used && repack_overlaps(b, len, gf, used))
			return gf + used;
	}
	return 0;
}

blk64_t repack_next_to(ext2_filsys fs, blk64_t *cur, blk64_t len)
{
	blk64_t at = *cur, e;

	while ((e = header_end(fs, at, len)))
		at = e;
	*cur = at + len;
	return at;
}

errcode_t repack_span_parts(ext2_filsys fs, blk64_t a, blk64_t len,
			    errcode_t (*fn)(blk64_t start, blk64_t len,
					    void *arg), void *arg)
{
	blk64_t end = a + len, e, gf;
	errcode_t err;

	while (a < end) {
		e = header_end(fs, a, end - a);
		if (!e) {
			return fn(a, end - a, arg);
		}
		/* the piece before that header, then past it */
		gf = ext2fs_group_first_block2(fs,
					       ext2fs_group_of_blk2(fs, e - 1));
		if (gf > a) {
			err = fn(a, gf - a, arg);
			if (err)
				return err;
		}
		a = e;
	}
	return 0;
}

/* New places outside the island: the double-indirect block's (the first
 * free block after the island), then temporary places for the items in
 * the island's way. */
static errcode_t place_tmp(struct session *s, struct plan_repack *r,
			   ext2fs_block_bitmap base)
{
	ext2_filsys fs = s->fs;
	ext2fs_block_bitmap saved = fs->block_map, scratch = NULL;
	blk64_t start, largest;
	errcode_t err;
	size_t i;

	/* searched in a copy of base (what is free and not reserved by the
	 * plans before), or of the bitmap */
	err = ext2fs_copy_bitmap(base ? base : saved, &scratch);
	if (err)
		return err;
	fs->block_map = scratch;
	ext2fs_mark_block_bitmap_range2(fs->block_map, r->island,
					r->island_len);
	for (i = r->nitems; i-- > 0 && !err; ) {	/* the dind first */
		struct repack_item *it = &r->items[i];

		if (it->what == RP_DIND) {
			err = plan_find_free(fs, r->island + r->island_len, 1,
					     &start, &largest);
			if (err)
				out_error(s->out, "repack_flex", 0, "no free "
					  "block outside the island for the "
					  "resize inode's block");
			else
				ext2fs_mark_block_bitmap2(fs->block_map,
							  it->to = start);
			continue;
		}
		if (it->from == it->to ||
		    !repack_overlaps(it->from, it->len, r->island,
				     r->island_len))
			continue;
		err = plan_find_free(fs, r->island + r->island_len, it->len,
				     &start, &largest);
		if (err) {
			out_error(s->out, "repack_flex", 0, "no free run of "
				  "%llu blocks outside the island to hold "
				  "group %u's %s meanwhile",
				  (unsigned long long)it->len, it->g,
				  repack_what_name[it->what]);
			break;
		}
		it->tmp = start;
		ext2fs_mark_block_bitmap_range2(fs->block_map, start, it->len);
	}
	ext2fs_free_block_bitmap(fs->block_map);
	fs->block_map = saved;
	return err;
}

/* The flex size (and whether flex_bg gets turned on), the groups and the
 * island of flex group flex.  0, or prints why not. */
int plan_repack_geometry(struct session *s, struct plan_repack *r,
			 unsigned long flex, int log)
{
	ext2_filsys fs = s->fs;
	blk64_t nd, g;
	dgrp_t per;

	if (log >= 0) {	/* asked for: set unless it is the current one */
		r->log_flex = log;
		r->set_flex = !ext2fs_has_feature_flex_bg(fs->super) ||
			      fs->super->s_log_groups_per_flex != log;
	} else if (ext2fs_has_feature_flex_bg(fs->super) &&
	    fs->super->s_log_groups_per_flex) {
		r->log_flex = fs->super->s_log_groups_per_flex;
		r->set_flex = 0;
	} else {
		r->log_flex = 4;
		r->set_flex = 1;
	}
	if (r->log_flex > 31) {
		out_error(s->out, "repack_flex", 0, "s_log_groups_per_flex "
			  "%d is out of range", r->log_flex);
		return 1;
	}
	per = 1U << r->log_flex;
	r->flex = flex;
	/* (meta_bg's descriptor blocks are group headers: the island is
	 * split around them as around a superblock backup; on bigalloc it is
	 * packed by the block, as mke2fs does, its items sharing clusters) */
	if (flex > (fs->group_desc_count - 1) / per) {
		out_error(s->out, "repack_flex", 0, "no flex group %lu (the "
			  "filesystem has %u, of %u groups each)", flex,
			  (fs->group_desc_count + per - 1) / per, per);
		return 1;
	}
	r->first = flex * per;
	r->n = fs->group_desc_count - r->first < per ?
	       fs->group_desc_count - r->first : per;
	/* after the superblock, descriptors and reserved GDT blocks */
	r->island = ext2fs_group_first_block2(fs, r->first) +
		    repack_header_len(fs, r->first);
	/* packed, split around the group headers lying in the way */
	nd = r->island;
	for (g = 0; g < 2 * (blk64_t)r->n; g++)
		repack_next_to(fs, &nd, 1);
	for (g = 0; g < r->n; g++)
		repack_next_to(fs, &nd, fs->inode_blocks_per_group);
	r->island_len = nd - r->island;
	if (r->island + r->island_len > ext2fs_blocks_count(fs->super)) {
		out_error(s->out, "repack_flex", 0, "the island would run "
			  "past the end of the filesystem");
		return 1;
	}
	return 0;
}

errcode_t plan_build_repack(struct session *s, unsigned long flex,
			    struct plan **pp)
{
	return plan_build_repack_opts(s, flex, -1, NULL, NULL, pp);
}

errcode_t plan_build_repack_opts(struct session *s, unsigned long flex,
				 int log_flex, const struct plan *before,
				 ext2fs_block_bitmap avoid, struct plan **pp)
{
	ext2_filsys fs = s->fs;
	struct plan_repack *r;
	struct plan *p;
	blk64_t dind, cur;
	dgrp_t g;
	size_t k = 0;
	int w, moves = 0;
	errcode_t err;

	*pp = NULL;
	p = calloc(1, sizeof(*p));
	r = calloc(1, sizeof(*r));
	if (!p || !r) {
		free(p);
		free(r);
		return ENOMEM;
	}
	p->repack = r;
	snprintf(p->kind, sizeof(p->kind), "repack_flex");
	if (plan_repack_geometry(s, r, flex, log_flex))
		goto bad;
	r->items = calloc(3 * (size_t)r->n + 1, sizeof(*r->items));
	if (!r->items) {
		err = ENOMEM;
		goto fail;
	}
	cur = r->island;
	for (w = RP_BB; w <= RP_IT; w++)
		for (g = 0; g < r->n; g++) {
			struct repack_item *it = &r->items[k++];

			it->g = r->first + g;
			it->what = w;
			it->len = w == RP_IT ? fs->inode_blocks_per_group : 1;
			it->from = repack_item_loc(fs, it->g, w);
			it->to = repack_next_to(fs, &cur, it->len);
			moves += it->from != it->to;
		}
	dind = resize_dind(fs);
	if (dind && repack_overlaps(dind, 1, r->island, r->island_len) &&
	    moves) {
		r->items[k++] = (struct repack_item){0, RP_DIND, dind, 0, 0,
						     1};
	}
	r->nitems = k;
	if (!moves && !r->set_flex) {
		out_printf(s->out, "flex group %lu is already packed; nothing "
			   "to do\n", flex);
		plan_free(p);
		return 0;	/* *pp stays NULL */
	}
	if (!repack_island_free(s, r, before, NULL))
		goto bad;
	err = place_tmp(s, r, avoid);
	if (err)
		goto bad;
	err = plan_fingerprint(fs, 0, &p->fp);
	if (err)
		goto fail;
	*pp = p;
	return 0;
fail:
	out_error(s->out, "repack_flex", err, "while planning");
bad:
	plan_free(p);
	return EXT2_ET_INVALID_ARGUMENT;
}

/* A loaded plan's items must be the ones this filesystem's geometry gives
 * (in the order plan_build_repack makes them), with free new places. */
static int items_sane(struct session *s, const struct plan_repack *r)
{
	ext2_filsys fs = s->fs;
	struct plan_repack want = {0};
	size_t i, j, n3 = 3 * (size_t)r->n;
	const struct repack_item *it, *jt;
	blk64_t at, cur = r->island;

	if (plan_repack_geometry(s, &want, r->flex, r->log_flex))
		return 0;
	if (want.first != r->first || want.n != r->n ||
	    want.log_flex != r->log_flex || want.set_flex != r->set_flex ||
	    want.island != r->island || want.island_len != r->island_len ||
	    (r->nitems != n3 && r->nitems != n3 + 1))
		goto bad;
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (i < n3 && (it->what != (int)(i / r->n) ||
		    it->g != r->first + i % r->n ||
		    it->len != (it->what == RP_IT ?
				fs->inode_blocks_per_group : 1) ||
		    it->to != repack_next_to(fs, &cur, it->len)))
			goto bad;
		if (i == n3 && (it->what != RP_DIND || it->len != 1 ||
				it->tmp || repack_overlaps(it->to, 1,
				r->island, r->island_len)))
			goto bad;
		if (it->tmp && repack_overlaps(it->tmp, it->len, r->island,
					       r->island_len))
			goto bad;
	}
	for (i = 0; i < r->nitems; i++) {	/* new places: free, apart */
		it = &r->items[i];
		if (it->what != RP_DIND && !it->tmp)
			continue;
		at = it->what == RP_DIND ? it->to : it->tmp;
		if (at < fs->super->s_first_data_block || at + it->len >
		    ext2fs_blocks_count(fs->super) ||
		    plan_used_in(fs, at, at + it->len - 1))
			goto taken;
		for (j = i + 1; j < r->nitems; j++) {
			jt = &r->items[j];
			if ((jt->tmp || jt->what == RP_DIND) &&
			    repack_overlaps(it->what == RP_DIND ? it->to :
					    it->tmp, it->len,
					    jt->what == RP_DIND ? jt->to :
					    jt->tmp, jt->len))
				goto bad;
		}
	}
	return 1;
taken:
	out_error(s->out, "apply", 0, "a place the plan moves metadata "
		  "through is no longer free; make the plan again");
	return 0;
bad:
	out_error(s->out, "apply", 0, "the repack_flex plan does not match "
		  "this filesystem's geometry; refusing it");
	return 0;
}

int plan_repack_sane(struct session *s, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	size_t i;

	if (!r->n) {	/* only the resize inode's block */
		const struct repack_item *it = r->items;

		if (r->nitems != 1 || it->what != RP_DIND || it->len != 1 ||
		    it->tmp || it->to < s->fs->super->s_first_data_block ||
		    it->to >= ext2fs_blocks_count(s->fs->super)) {
			out_error(s->out, "apply", 0, "the plan is "
				  "inconsistent; refusing it");
			return 1;
		}
		if (resize_dind(s->fs) != it->from ||
		    plan_used_in(s->fs, it->to, it->to)) {
			out_error(s->out, "apply", 0, "the resize inode's "
				  "block moved, or block %llu is no longer "
				  "free; make the plan again",
				  (unsigned long long)it->to);
			return 1;
		}
		return 0;
	}
	if (!items_sane(s, r))
		return 1;
	for (i = 0; i < r->nitems; i++)
		if (repack_item_loc(s->fs, r->items[i].g, r->items[i].what) !=
		    r->items[i].from) {
			out_error(s->out, "apply", 0, "group %u's %s moved "
				  "since the plan was made; make it again",
				  r->items[i].g,
				  repack_what_name[r->items[i].what]);
			return 1;
		}
	return !repack_island_free(s, r, p->head, p);
}
errcode_t plan_build_dind_move(struct session *s, blk64_t goal,
			       struct plan **pp)
{
	struct plan_repack *r;
	struct plan *p;
	blk64_t largest, to, dind = resize_dind(s->fs);
	errcode_t err;

	*pp = NULL;
	if (!dind)
		return EXT2_ET_INVALID_ARGUMENT;
	err = plan_find_free(s->fs, goal, 1, &to, &largest);
	if (err)
		return err;
	p = calloc(1, sizeof(*p));
	r = calloc(1, sizeof(*r));
	if (r)
		r->items = calloc(1, sizeof(*r->items));
	if (!p || !r || !r->items) {
		free(p);
		plan_repack_free(r);
		return ENOMEM;
	}
	p->repack = r;
	snprintf(p->kind, sizeof(p->kind), "resize_block");
	r->items[0] = (struct repack_item){0, RP_DIND, dind, 0, to, 1};
	r->nitems = 1;
	err = plan_fingerprint(s->fs, 0, &p->fp);
	if (err) {
		plan_free(p);
		return err;
	}
	*pp = p;
	return 0;
}

blk64_t plan_dind_target(const struct plan *p)
{
	return p->repack && p->repack->nitems ?
	       p->repack->items[p->repack->nitems - 1].to : 0;
}
