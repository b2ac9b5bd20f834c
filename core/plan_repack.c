/* plan_repack.c - the repack_flex plan: moves the block bitmaps, inode
 * bitmaps and inode tables of a flex group's groups into one packed island
 * (as mke2fs -G lays them out), switching the group descriptors crash-safely:
 * copy and flush, switch the descriptors and flush, then free the old blocks.
 * Items in the way inside the island go through a temporary place first. */
#include "plan.h"
#include "owner.h"

#include <stdlib.h>
#include <string.h>

enum { RP_BB, RP_IB, RP_IT };

struct repack_item {
	dgrp_t g;
	int what;			/* RP_* */
	blk64_t from, tmp, to, len;	/* tmp 0: no temporary place */
};

struct plan_repack {
	dgrp_t first, n;		/* the flex group's groups */
	int log_flex, set_flex;		/* set_flex: turn flex_bg on */
	unsigned long flex;
	blk64_t island, island_len;
	struct repack_item *items;
	size_t nitems;
};

static const char *const what_name[] = {"block bitmap", "inode bitmap",
					"inode table"};

void plan_repack_free(struct plan_repack *r)
{
	if (!r)
		return;
	free(r->items);
	free(r);
}

static blk64_t item_loc(ext2_filsys fs, dgrp_t g, int what)
{
	if (what == RP_BB)
		return ext2fs_block_bitmap_loc(fs, g);
	if (what == RP_IB)
		return ext2fs_inode_bitmap_loc(fs, g);
	return ext2fs_inode_table_loc(fs, g);
}

static void item_set(ext2_filsys fs, dgrp_t g, int what, blk64_t b)
{
	if (what == RP_BB)
		ext2fs_block_bitmap_loc_set(fs, g, b);
	else if (what == RP_IB)
		ext2fs_inode_bitmap_loc_set(fs, g, b);
	else
		ext2fs_inode_table_loc_set(fs, g, b);
}

static int overlaps(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen)
{
	return a < b + blen && b < a + alen;
}

/* What occupies the island besides the groups' own metadata. */
struct occ {
	const struct plan_repack *r;
	ext2_ino_t inos[8];
	size_t n;
	blk64_t files, fixed, first_bad, fixed_at;
	enum owner_class fixed_cls;
	ext2_ino_t fixed_ino;
};

static int occ_cb(const struct owner_run *run, void *arg)
{
	struct occ *o = arg;
	size_t i;

	switch (run->cls) {
	case OWN_FREE:
	case OWN_UNINIT:
		return 0;
	case OWN_BBITMAP:
	case OWN_IBITMAP:
	case OWN_ITABLE:
		if (run->group >= o->r->first &&
		    run->group < o->r->first + o->r->n)
			return 0;	/* ours: it moves */
		break;
	case OWN_FILE:
	case OWN_DIR:
	case OWN_MAPPING:
	case OWN_JOURNAL:
	case OWN_XATTR:
		if (!o->files++ && !o->fixed)
			o->first_bad = run->start;
		o->files += run->len - 1;
		for (i = 0; i < o->n && o->inos[i] != run->ino; i++)
			;
		if (i == o->n && o->n < 8 && run->ino)
			o->inos[o->n++] = run->ino;
		return 0;
	default:
		break;
	}
	if (!o->fixed) {
		o->fixed_at = run->start;
		o->fixed_cls = run->cls;
		o->fixed_ino = run->ino;
	}
	o->fixed += run->len;
	return 0;
}

static int island_free(struct session *s, const struct plan_repack *r)
{
	struct occ o = {0};
	char list[128] = "";
	size_t i, l;
	errcode_t err;

	o.r = r;
	err = owner_index_build(s);
	if (!err)
		err = owner_for_range(s, r->island, r->island_len, occ_cb, &o);
	if (err) {
		out_error(s->out, "repack_flex", err, "while finding what "
			  "owns blocks %llu-%llu",
			  (unsigned long long)r->island,
			  (unsigned long long)(r->island + r->island_len - 1));
		return 0;
	}
	if (o.fixed) {
		out_error(s->out, "repack_flex", 0, "the island %llu-%llu "
			  "holds %llu blocks of metadata that cannot move "
			  "(first: %s%s at block %llu); this flex group cannot "
			  "be packed there",
			  (unsigned long long)r->island,
			  (unsigned long long)(r->island + r->island_len - 1),
			  (unsigned long long)o.fixed,
			  owner_class_name(o.fixed_cls),
			  o.fixed_ino == EXT2_RESIZE_INO ? " (the resize "
			  "inode's block; repack needs ^resize_inode)" : "",
			  (unsigned long long)o.fixed_at);
		return 0;
	}
	if (o.files) {
		for (i = 0; i < o.n; i++) {
			l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%u",
				 i ? ", " : "", o.inos[i]);
		}
		out_error(s->out, "repack_flex", 0, "the island %llu-%llu "
			  "holds %llu blocks of file data (inodes %s%s); free "
			  "it first with: evacuate %llu-%llu",
			  (unsigned long long)r->island,
			  (unsigned long long)(r->island + r->island_len - 1),
			  (unsigned long long)o.files, list,
			  o.n == 8 ? ", ..." : "",
			  (unsigned long long)o.first_bad,
			  (unsigned long long)(r->island + r->island_len - 1));
		return 0;
	}
	return 1;
}

/* Temporary places, outside the island, for items in its way. */
static errcode_t place_tmp(struct session *s, struct plan_repack *r)
{
	ext2_filsys fs = s->fs;
	ext2fs_block_bitmap saved = NULL;
	blk64_t start, largest;
	errcode_t err;
	size_t i;

	err = ext2fs_copy_bitmap(fs->block_map, &saved);
	if (err)
		return err;
	ext2fs_mark_block_bitmap_range2(fs->block_map, r->island,
					r->island_len);
	for (i = 0; i < r->nitems && !err; i++) {
		struct repack_item *it = &r->items[i];

		if (it->from == it->to ||
		    !overlaps(it->from, it->len, r->island, r->island_len))
			continue;
		err = plan_find_free(fs, r->island + r->island_len, it->len,
				     &start, &largest);
		if (err) {
			out_error(s->out, "repack_flex", 0, "no free run of "
				  "%llu blocks outside the island to hold "
				  "group %u's %s meanwhile",
				  (unsigned long long)it->len, it->g,
				  what_name[it->what]);
			break;
		}
		it->tmp = start;
		ext2fs_mark_block_bitmap_range2(fs->block_map, start, it->len);
	}
	ext2fs_free_block_bitmap(fs->block_map);
	fs->block_map = saved;
	return err;
}

errcode_t plan_build_repack(struct session *s, unsigned long flex,
			    struct plan **pp)
{
	ext2_filsys fs = s->fs;
	struct plan_repack *r;
	struct plan *p;
	blk64_t sb, od, nd, itb = fs->inode_blocks_per_group, b;
	blk_t used;
	dgrp_t g, per;
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
	if (ext2fs_has_feature_flex_bg(fs->super) &&
	    fs->super->s_log_groups_per_flex) {
		r->log_flex = fs->super->s_log_groups_per_flex;
	} else {
		r->log_flex = 4;
		r->set_flex = !ext2fs_has_feature_flex_bg(fs->super) ||
			      !fs->super->s_log_groups_per_flex;
	}
	per = 1U << r->log_flex;
	r->flex = flex;
	if (ext2fs_has_feature_meta_bg(fs->super) ||
	    ext2fs_has_feature_bigalloc(fs->super)) {
		out_error(s->out, "repack_flex", 0, "meta_bg and bigalloc "
			  "filesystems are not supported");
		goto bad;
	}
	if (flex > (fs->group_desc_count - 1) / per) {
		out_error(s->out, "repack_flex", 0, "no flex group %lu (the "
			  "filesystem has %u, of %u groups each)", flex,
			  (fs->group_desc_count + per - 1) / per, per);
		goto bad;
	}
	r->first = flex * per;
	r->n = fs->group_desc_count - r->first < per ?
	       fs->group_desc_count - r->first : per;
	err = ext2fs_super_and_bgd_loc2(fs, r->first, &sb, &od, &nd, &used);
	if (err)
		goto fail;
	r->island = ext2fs_group_first_block2(fs, r->first) + used;
	r->island_len = 2 * (blk64_t)r->n + r->n * itb;
	if (r->island + r->island_len > ext2fs_blocks_count(fs->super)) {
		out_error(s->out, "repack_flex", 0, "the island would run "
			  "past the end of the filesystem");
		goto bad;
	}
	r->items = calloc(3 * r->n, sizeof(*r->items));
	if (!r->items) {
		err = ENOMEM;
		goto fail;
	}
	for (w = RP_BB; w <= RP_IT; w++)
		for (g = 0; g < r->n; g++) {
			struct repack_item *it = &r->items[k++];

			b = w == RP_BB ? g : w == RP_IB ? r->n + g :
			    2 * r->n + g * itb;
			it->g = r->first + g;
			it->what = w;
			it->len = w == RP_IT ? itb : 1;
			it->from = item_loc(fs, it->g, w);
			it->to = r->island + b;
			moves += it->from != it->to;
		}
	r->nitems = k;
	if (!moves && !r->set_flex) {
		out_printf(s->out, "flex group %lu is already packed; nothing "
			   "to do\n", flex);
		plan_free(p);
		return 0;	/* *pp stays NULL */
	}
	if (!island_free(s, r))
		goto bad;
	err = place_tmp(s, r);
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

int plan_repack_sane(struct session *s, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	size_t i;

	for (i = 0; i < r->nitems; i++)
		if (item_loc(s->fs, r->items[i].g, r->items[i].what) !=
		    r->items[i].from) {
			out_error(s->out, "apply", 0, "group %u's %s moved "
				  "since the plan was made; make it again",
				  r->items[i].g, what_name[r->items[i].what]);
			return 1;
		}
	return !island_free(s, r);
}

/* Map cell letter for blocks [a, a+len) with items at from (or to). */
static char cell(ext2_filsys fs, const struct plan_repack *r, int after,
		 blk64_t a, blk64_t len)
{
	static const char let[] = "BIT";
	blk64_t loc;
	size_t i;
	int mine = 0;

	for (i = 0; i < r->nitems; i++) {
		loc = after ? r->items[i].to : r->items[i].from;
		if (overlaps(loc, r->items[i].len, a, len))
			return let[r->items[i].what];
		mine |= overlaps(r->items[i].from, r->items[i].len, a, len);
	}
	if (mine)	/* an old place, freed */
		return plan_used_in(fs, a, a + len - 1) > len / 2 ? '#' : '.';
	return plan_used_in(fs, a, a + len - 1) ? '#' : '.';
}

void plan_repack_show(struct session *s, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	ext2_filsys fs = s->fs;
	blk64_t rd = 0, lo = r->island, hi = r->island + r->island_len, per;
	char before[65], after[65];
	unsigned c, cells;
	size_t i;

	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (it->from == it->to)
			continue;
		rd += it->len * (it->tmp ? 2 : 1);
		if (it->from < lo)
			lo = it->from;
		if (it->from + it->len > hi)
			hi = it->from + it->len;
	}
	per = (hi - lo + 63) / 64;
	cells = (hi - lo + per - 1) / per;
	for (c = 0; c < cells; c++) {
		blk64_t a = lo + c * per, l = a + per > hi ? hi - a : per;

		before[c] = cell(fs, r, 0, a, l);
		after[c] = cell(fs, r, 1, a, l);
	}
	before[cells] = after[cells] = 0;
	if (sink_is_json(s->out)) {
		json_str(s->out, "kind", p->kind);
		json_u64(s->out, "flex_group", r->flex);
		json_u64(s->out, "groups_per_flex", 1U << r->log_flex);
		json_u64(s->out, "first_group", r->first);
		json_u64(s->out, "groups", r->n);
		json_u64(s->out, "island", r->island);
		json_u64(s->out, "island_len", r->island_len);
		json_u64(s->out, "blocks_read", rd);
		json_u64(s->out, "blocks_written", rd);
		json_arr_begin(s->out, "moves");
		for (i = 0; i < r->nitems; i++) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "group", r->items[i].g);
			json_str(s->out, "what", what_name[r->items[i].what]);
			json_u64(s->out, "from", r->items[i].from);
			json_u64(s->out, "via", r->items[i].tmp);
			json_u64(s->out, "to", r->items[i].to);
			json_u64(s->out, "len", r->items[i].len);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
		json_obj_begin(s->out, "map");
		json_u64(s->out, "first", lo);
		json_u64(s->out, "blocks_per_cell", per);
		json_str(s->out, "before", before);
		json_str(s->out, "after", after);
		json_obj_end(s->out);
		return;
	}
	out_printf(s->out, "Plan: repack_flex of flex group %lu (groups "
		   "%u-%u, %u groups per flex group%s)\n", r->flex, r->first,
		   r->first + r->n - 1, 1U << r->log_flex, r->set_flex ?
		   "; flex_bg is off: chose 16, and sets flex_bg and "
		   "s_log_groups_per_flex=4" : "");
	out_printf(s->out, "  island: blocks %llu-%llu (%llu blocks): block "
		   "bitmaps, inode bitmaps, inode tables\n",
		   (unsigned long long)r->island,
		   (unsigned long long)(r->island + r->island_len - 1),
		   (unsigned long long)r->island_len);
	out_printf(s->out, "  blocks read: %llu, blocks written: %llu (plus "
		   "bitmaps, group descriptors and superblock)\n",
		   (unsigned long long)rd, (unsigned long long)rd);
	out_printf(s->out, "Moves:\n");
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		out_printf(s->out, "  %3zu. group %u %-12s %llu-%llu ", i + 1,
			   it->g, what_name[it->what],
			   (unsigned long long)it->from,
			   (unsigned long long)(it->from + it->len - 1));
		if (it->from == it->to)
			out_printf(s->out, "stays\n");
		else if (it->tmp)
			out_printf(s->out, "-> %llu (meanwhile) -> %llu-%llu\n",
				   (unsigned long long)it->tmp,
				   (unsigned long long)it->to,
				   (unsigned long long)(it->to + it->len - 1));
		else
			out_printf(s->out, "-> %llu-%llu\n",
				   (unsigned long long)it->to,
				   (unsigned long long)(it->to + it->len - 1));
	}
	out_printf(s->out, "Map of blocks %llu-%llu, %llu block%s per cell "
		   "(B/I/T block bitmaps, inode bitmaps, inode tables; # "
		   "other used; . free):\n", (unsigned long long)lo,
		   (unsigned long long)(hi - 1), (unsigned long long)per,
		   per == 1 ? "" : "s");
	out_printf(s->out, "  before: %s\n  after:  %s\n", before, after);
}

/* Apply side. */
static int cmp_grp(const void *a, const void *b)
{
	dgrp_t x = *(const dgrp_t *)a, y = *(const dgrp_t *)b;

	return x < y ? -1 : x > y;
}

/* The flex group's groups and every group a move reads or writes. */
static dgrp_t *touched(ext2_filsys fs, const struct plan_repack *r,
		       size_t *np)
{
	dgrp_t *g = malloc((r->n + 4 * r->nitems + 4) * sizeof(*g));
	size_t n = 0, i, o;
	const struct repack_item *it;

	if (!g)
		return NULL;
	for (i = 0; i < r->n; i++)
		g[n++] = r->first + i;
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		g[n++] = ext2fs_group_of_blk2(fs, it->from);
		g[n++] = ext2fs_group_of_blk2(fs, it->to + it->len - 1);
		if (it->tmp) {
			g[n++] = ext2fs_group_of_blk2(fs, it->tmp);
			g[n++] = ext2fs_group_of_blk2(fs,
						      it->tmp + it->len - 1);
		}
	}
	qsort(g, n, sizeof(*g), cmp_grp);
	for (i = 0, o = 0; i < n; i++)
		if (!o || g[o - 1] != g[i])
			g[o++] = g[i];
	*np = o;
	return g;
}

static errcode_t copy_blocks(ext2_filsys fs, blk64_t src, blk64_t dst,
			     blk64_t len, char *buf, blk64_t chunk)
{
	blk64_t n;
	errcode_t err;

	for (; len; len -= n, src += n, dst += n) {
		n = len < chunk ? len : chunk;
		err = io_channel_read_blk64(fs->io, src, n, buf);
		if (!err)
			err = io_channel_write_blk64(fs->io, dst, n, buf);
		if (err)
			return err;
	}
	return 0;
}

/*
 * One phase: phase 0 moves the items in the island's way to their temporary
 * places, phase 1 moves everything to its final place.  Copy, flush; mark
 * the new blocks and switch the descriptors (bitmaps, descriptor blocks,
 * superblock), flush; free the old blocks, commit again.
 */
static errcode_t run_phase(ext2_filsys fs, const struct plan_repack *r,
			   int phase, const dgrp_t *grp, size_t ngrp)
{
	blk64_t chunk = (1U << 20) / fs->blocksize, src, dst;
	char *buf = malloc(chunk * fs->blocksize);
	errcode_t err = 0;
	size_t i;
	int any = 0;

	if (!buf)
		return ENOMEM;
	err = plan_journal_step(fs);	/* the previous switch: committed */
	for (i = 0; i < r->nitems && !err; i++) {
		const struct repack_item *it = &r->items[i];

		if (phase == 0 ? !it->tmp : it->from == it->to)
			continue;
		src = phase == 1 && it->tmp ? it->tmp : it->from;
		dst = phase == 0 ? it->tmp : it->to;
		any = 1;
		ext2fs_block_alloc_stats_range(fs, dst, it->len, +1);
		if (it->what != RP_BB)	/* block bitmaps: the commit */
			err = copy_blocks(fs, src, dst, it->len, buf, chunk);
	}
	free(buf);
	if (err || !any)
		return err;
	err = io_channel_flush(fs->io);
	if (err)
		return err;
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (phase == 0 ? !it->tmp : it->from == it->to)
			continue;
		item_set(fs, it->g, it->what, phase == 0 ? it->tmp : it->to);
	}
	for (i = 0; i < r->n; i++)
		ext2fs_group_desc_csum_set(fs, r->first + i);
	err = plan_commit_groups(fs, grp, ngrp);
	if (err)
		return err;
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (phase == 0 ? !it->tmp : it->from == it->to)
			continue;
		src = phase == 1 && it->tmp ? it->tmp : it->from;
		ext2fs_block_alloc_stats_range(fs, src, it->len, -1);
	}
	return plan_commit_groups(fs, grp, ngrp);
}

errcode_t plan_repack_run(ext2_filsys fs, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	dgrp_t *grp;
	size_t ngrp, i;
	errcode_t err;

	grp = touched(fs, r, &ngrp);
	if (!grp)
		return ENOMEM;
	/* Explicit bitmaps for every touched group, flex_bg on: a valid
	 * filesystem with the old layout, before any descriptor moves. */
	for (i = 0; i < ngrp; i++) {
		ext2fs_bg_flags_clear(fs, grp[i], EXT2_BG_BLOCK_UNINIT);
		ext2fs_group_desc_csum_set(fs, grp[i]);
	}
	if (r->set_flex) {
		ext2fs_set_feature_flex_bg(fs->super);
		fs->super->s_log_groups_per_flex = r->log_flex;
	}
	err = plan_commit_groups(fs, grp, ngrp);
	if (!err)
		err = run_phase(fs, r, 0, grp, ngrp);
	if (!err)
		err = run_phase(fs, r, 1, grp, ngrp);
	free(grp);
	if (!err) {	/* primary consistent: refresh the backups */
		fs->flags &= ~EXT2_FLAG_BB_DIRTY;
		ext2fs_mark_super_dirty(fs);
		err = ext2fs_flush(fs);
	}
	return err;
}

int plan_repack_verify(struct session *s, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	ext2_filsys fs = s->fs;
	int bad = 0;
	size_t i;

	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (item_loc(fs, it->g, it->what) != it->to) {
			out_error(s->out, "verify", 0, "group %u's %s is at "
				  "%llu, the plan says %llu", it->g,
				  what_name[it->what],
				  (unsigned long long)item_loc(fs, it->g,
							       it->what),
				  (unsigned long long)it->to);
			bad = 1;
		}
	}
	if (plan_used_in(fs, r->island, r->island + r->island_len - 1) !=
	    r->island_len) {
		out_error(s->out, "verify", 0, "the island is not all marked "
			  "in use in the block bitmap");
		bad = 1;
	}
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if ((it->tmp && plan_used_in(fs, it->tmp,
					     it->tmp + it->len - 1)) ||
		    (!overlaps(it->from, it->len, r->island, r->island_len) &&
		     plan_used_in(fs, it->from, it->from + it->len - 1))) {
			out_error(s->out, "verify", 0, "group %u's old %s "
				  "blocks are still marked in use", it->g,
				  what_name[it->what]);
			bad = 1;
		}
	}
	if (!bad)
		out_printf(s->out, "verified: flex group %lu packed at blocks "
			   "%llu-%llu; bitmaps and group counters agree\n",
			   r->flex, (unsigned long long)r->island,
			   (unsigned long long)(r->island + r->island_len - 1));
	return bad;
}
