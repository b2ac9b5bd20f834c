/* plan_repack_run.c - applying a repack_flex plan crash-safely (the resize
 * inode's block first, then items in the island's way to temporary places,
 * then everything to its final place; each move: copy and flush, switch and
 * flush, free), verifying it from the disk, and its lines in a plan file. */
#include "plan_repack_int.h"
#include "plan_file_int.h"

#include <stdlib.h>
#include <string.h>

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
 * The resize inode's double-indirect block out of the island: copy it and
 * flush, mark its new block in use (commit), point inode 7 at it and flush,
 * free the old block (commit).  Its contents (the reserved GDT blocks it
 * lists) are unchanged, so e2fsck and resize2fs find the same reservation.
 */
static errcode_t move_dind(ext2_filsys fs, const struct repack_item *it,
			   const dgrp_t *grp, size_t ngrp)
{
	struct ext2_inode inode;
	char *buf = malloc(fs->blocksize);
	errcode_t err;

	if (!buf)
		return ENOMEM;
	err = copy_blocks(fs, it->from, it->to, 1, buf, 1);
	free(buf);
	if (!err)
		err = io_channel_flush(fs->io);
	if (err)
		return err;
	repack_mark(fs, it->to, 1);
	err = plan_commit_groups(fs, grp, ngrp);
	if (!err)
		err = ext2fs_read_inode(fs, EXT2_RESIZE_INO, &inode);
	if (err)
		return err;
	if (inode.i_block[EXT2_DIND_BLOCK] != it->from)
		return EXT2_ET_RESIZE_INODE_CORRUPT;
	inode.i_block[EXT2_DIND_BLOCK] = it->to;
	err = ext2fs_write_inode(fs, EXT2_RESIZE_INO, &inode);
	if (!err)
		err = io_channel_flush(fs->io);
	if (err)
		return err;
	repack_release(fs, it->from, 1, it->to);
	return plan_commit_groups(fs, grp, ngrp);
}

static int skip(const struct repack_item *it, int phase)
{
	if (it->what == RP_DIND)
		return 1;
	return phase == 0 ? !it->tmp : it->from == it->to;
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
	blk64_t chunk = (1U << 20) / fs->blocksize, src, dst, dind;
	char *buf = malloc(chunk * fs->blocksize);
	errcode_t err = 0;
	size_t i;
	int any = 0;

	if (!buf)
		return ENOMEM;
	err = plan_journal_step(fs);	/* the previous switch: committed */
	for (i = 0; i < r->nitems && !err; i++) {
		const struct repack_item *it = &r->items[i];

		if (skip(it, phase))
			continue;
		src = phase == 1 && it->tmp ? it->tmp : it->from;
		dst = phase == 0 ? it->tmp : it->to;
		any = 1;
		repack_mark(fs, dst, it->len);
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

		if (skip(it, phase))
			continue;
		if (it->what == RP_BB)
			ext2fs_block_bitmap_loc_set(fs, it->g, phase == 0 ?
						    it->tmp : it->to);
		else if (it->what == RP_IB)
			ext2fs_inode_bitmap_loc_set(fs, it->g, phase == 0 ?
						    it->tmp : it->to);
		else
			ext2fs_inode_table_loc_set(fs, it->g, phase == 0 ?
						   it->tmp : it->to);
	}
	for (i = 0; i < r->n; i++)
		ext2fs_group_desc_csum_set(fs, r->first + i);
	err = plan_commit_groups(fs, grp, ngrp);
	if (err)
		return err;
	/* a cluster other metadata still holds stays in use (bigalloc) */
	dind = repack_item_loc(fs, 0, RP_DIND);
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (skip(it, phase))
			continue;
		src = phase == 1 && it->tmp ? it->tmp : it->from;
		repack_release(fs, src, it->len, dind);
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
	for (i = 0; i < r->nitems && !err; i++)
		if (r->items[i].what == RP_DIND)
			err = move_dind(fs, &r->items[i], grp, ngrp);
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
	blk64_t dind = repack_item_loc(fs, 0, RP_DIND);
	int bad = 0;
	size_t i;

	if (!r->n) {	/* the resize inode's block only */
		const struct repack_item *it = r->items;

		bad = repack_item_loc(fs, 0, RP_DIND) != it->to ||
		      !repack_marked_all(fs, it->to, 1) ||
		      repack_stale(fs, it->from, 1, it->to);
		if (bad)
			out_error(s->out, "verify", 0, "the resize inode's "
				  "block is not at %llu as planned, or the "
				  "bitmap disagrees",
				  (unsigned long long)it->to);
		else
			out_printf(s->out, "verified: the resize inode's "
				   "double-indirect block is at %llu\n",
				   (unsigned long long)it->to);
		return bad;
	}
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];
		blk64_t at = repack_item_loc(fs, it->g, it->what);

		if (at != it->to) {
			out_error(s->out, "verify", 0, "group %u's %s is at "
				  "%llu, the plan says %llu", it->g,
				  repack_what_name[it->what],
				  (unsigned long long)at,
				  (unsigned long long)it->to);
			bad = 1;
		}
	}
	/* every new place in use (the island may keep free blocks before
	 * a group header an inode table would have crossed) */
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (it->what != RP_DIND &&
		    !repack_marked_all(fs, it->to, it->len)) {
			out_error(s->out, "verify", 0, "the island is not all "
				  "marked in use in the block bitmap (group "
				  "%u's %s)", it->g,
				  repack_what_name[it->what]);
			bad = 1;
			break;
		}
	}
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (it->what == RP_DIND && !repack_marked_all(fs, it->to, 1)) {
			out_error(s->out, "verify", 0, "the resize inode's "
				  "new block %llu is not marked in use",
				  (unsigned long long)it->to);
			bad = 1;
		}
		/* old places free, but for clusters (bigalloc) that other
		 * metadata still holds */
		if ((it->tmp && repack_stale(fs, it->tmp, it->len, dind)) ||
		    repack_stale(fs, it->from, it->len, dind)) {
			out_error(s->out, "verify", 0, "group %u's old %s "
				  "blocks are still marked in use", it->g,
				  repack_what_name[it->what]);
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

void plan_repack_save(FILE *f, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	size_t i;

	fprintf(f, "repack %lu %u %u %d %d %llu %llu\n", r->flex, r->first,
		r->n, r->log_flex, r->set_flex,
		(unsigned long long)r->island,
		(unsigned long long)r->island_len);
	for (i = 0; i < r->nitems; i++)
		fprintf(f, "ritem %u %d %llu %llu %llu %llu\n", r->items[i].g,
			r->items[i].what,
			(unsigned long long)r->items[i].from,
			(unsigned long long)r->items[i].tmp,
			(unsigned long long)r->items[i].to,
			(unsigned long long)r->items[i].len);
}

/* Numbers tok[1..ntok) into v[], each at most max[i]. */
static int repack_nums(char **tok, int ntok, int want,
		       const unsigned long long *max, unsigned long long *v,
		       char *why, size_t whylen)
{
	char w[96];
	int i;

	if (ntok != want + 1) {
		snprintf(why, whylen, "\"%s\" takes %d numbers, not %d",
			 tok[0], want, ntok - 1);
		return -1;
	}
	for (i = 0; i < want; i++)
		if (plan_tok_num(tok[i + 1], max[i], &v[i], w, sizeof(w))) {
			snprintf(why, whylen, "%s: %s", tok[0], w);
			return -1;
		}
	return 0;
}

int plan_repack_parse(struct plan *p, char **tok, int ntok, unsigned lineno,
		      char *why, size_t whylen)
{
	static const unsigned long long rmax[7] = {
		UINT32_MAX, UINT32_MAX, UINT32_MAX, 31, 1,
		PLAN_BLK_LIMIT - 1, PLAN_BLK_LIMIT};
	static const unsigned long long imax[6] = {
		UINT32_MAX, RP_KINDS - 1, PLAN_BLK_LIMIT - 1,
		PLAN_BLK_LIMIT - 1, PLAN_BLK_LIMIT - 1, PLAN_BLK_LIMIT};
	struct plan_repack *r = p->repack;
	struct repack_item *ni;
	unsigned *nl;
	unsigned long long x[7];

	if (!strcmp(tok[0], "repack")) {
		if (repack_nums(tok, ntok, 7, rmax, x, why, whylen))
			return -1;
		if (r) {
			snprintf(why, whylen, "a second \"repack\" line");
			return -1;
		}
		if (x[5] + x[6] > PLAN_BLK_LIMIT) {
			snprintf(why, whylen, "the island ends past the "
				 "largest block number");
			return -1;
		}
		r = p->repack = calloc(1, sizeof(*r));
		if (!r) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
		*r = (struct plan_repack){(dgrp_t)x[1], (dgrp_t)x[2],
					  (int)x[3], (int)x[4],
					  (unsigned long)x[0], x[5], x[6],
					  NULL, 0};
		return 1;
	}
	if (strcmp(tok[0], "ritem"))
		return 0;
	if (repack_nums(tok, ntok, 6, imax, x, why, whylen))
		return -1;
	if (!r) {
		snprintf(why, whylen, "an ritem line before the repack line");
		return -1;
	}
	if (r->nitems >= 3 * (size_t)r->n + 1) {
		snprintf(why, whylen, "more ritem lines than %u groups have "
			 "items (%zu)", r->n, 3 * (size_t)r->n + 1);
		return -1;
	}
	if (!x[5] || x[2] + x[5] > PLAN_BLK_LIMIT ||
	    x[3] + x[5] > PLAN_BLK_LIMIT || x[4] + x[5] > PLAN_BLK_LIMIT) {
		snprintf(why, whylen, "an item of length 0, or one ending past "
			 "the largest block number");
		return -1;
	}
	if (!(r->nitems & (r->nitems - 1))) {	/* grow at powers of two */
		size_t cap = r->nitems ? r->nitems * 2 : 1;

		ni = realloc(r->items, cap * sizeof(*ni));
		if (ni)
			r->items = ni;
		nl = p->lines ? realloc(p->lines->ritems, cap * sizeof(*nl))
			      : NULL;
		if (nl)
			p->lines->ritems = nl;
		if (!ni || (p->lines && !nl)) {
			snprintf(why, whylen, "out of memory");
			return -1;
		}
	}
	if (p->lines)
		p->lines->ritems[r->nitems] = lineno;
	r->items[r->nitems++] = (struct repack_item){(dgrp_t)x[0], (int)x[1],
						     x[2], x[3], x[4], x[5]};
	return 1;
}
