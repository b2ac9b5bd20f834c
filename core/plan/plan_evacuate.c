/* plan_evacuate.c - the moves that empty a block range (evacuate's chain,
 * and repack_flex --all's before each island is packed): what the range
 * holds, by the owner index, and one move plan per inode into free space
 * after it. */
#include "plan_repack_int.h"
#include "owner.h"

#include <errno.h>
#include <stdlib.h>

static int add_ino(struct plan_evac *e, ext2_ino_t ino)
{
	ext2_ino_t *ni;
	size_t i;

	for (i = 0; i < e->n; i++)
		if (e->inos[i] == ino)
			return 0;
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 16;
		ni = realloc(e->inos, e->cap * sizeof(*ni));
		if (!ni) {
			e->oom = 1;
			return 1;
		}
		e->inos = ni;
	}
	e->inos[e->n++] = ino;
	return 0;
}

enum evac_role plan_evac_role(const struct owner_run *run, dgrp_t own_first,
			      dgrp_t own_n)
{
	switch (run->cls) {
	case OWN_FREE:
	case OWN_UNINIT:
		return EVAC_CLEAR;
	case OWN_BBITMAP:
	case OWN_IBITMAP:
	case OWN_ITABLE:
		if (own_n && run->group >= own_first &&
		    run->group - own_first < own_n)
			return EVAC_CLEAR;	/* the caller's repack moves it */
		return EVAC_FIXED;
	case OWN_FILE:
	case OWN_DIR:
	case OWN_MAPPING:
	case OWN_JOURNAL:
		return EVAC_INODE;
	case OWN_XATTR:
		return EVAC_XATTR;
	case OWN_OTHER:
		return run->ino == EXT2_RESIZE_INO ? EVAC_RESIZE : EVAC_FIXED;
	default:
		return EVAC_FIXED;
	}
}

static int scan_cb(const struct owner_run *run, void *arg)
{
	struct plan_evac *e = arg;

	switch (plan_evac_role(run, e->own_first, e->own_n)) {
	case EVAC_CLEAR:
		return 0;
	case EVAC_INODE:
		if (!run->ino)
			break;
		return add_ino(e, run->ino);
	case EVAC_XATTR:
		e->xattr += run->len;
		return 0;
	case EVAC_RESIZE:
		if (e->island && run->len == 1)
			return 0;	/* the repack moves it */
		if (!e->island && run->len == 1 && !e->dind) {
			e->dind = run->start;	/* can move: first */
			return 0;
		}
		break;
	case EVAC_FIXED:
		break;
	}
	if (!e->fixed)
		e->fixed_at = run->start;
	e->fixed += run->len;
	return 0;
}

static errcode_t scan_part(blk64_t start, blk64_t len, void *arg)
{
	struct plan_evac *e = arg;

	return owner_for_range(e->s, start, len, scan_cb, e);
}

errcode_t plan_evacuate_scan(struct session *s, struct plan_evac *e)
{
	errcode_t err;

	e->s = s;
	err = owner_index_build(s);
	if (!err)	/* an island's group headers stay: not asked about */
		err = e->island ? repack_span_parts(s->fs, e->first, e->len,
						    scan_part, e) :
		      owner_for_range(s, e->first, e->len, scan_cb, e);
	return err ? err : e->oom ? ENOMEM : 0;
}

static void append(struct plan_evac *e, struct plan ***tail, struct plan *p)
{
	p->chained = e->planned++ > 0 || e->chain;
	**tail = p;
	*tail = &p->next;
}

int plan_evacuate_build(struct session *s, const char *who,
			struct plan_evac *e, ext2fs_block_bitmap work,
			struct plan ***tail)
{
	ext2_filsys fs = s->fs;
	ext2fs_block_bitmap orig = fs->block_map;
	blk64_t goal = e->first + e->len;
	struct plan *p;
	errcode_t err;
	size_t i;

	if (e->dind) {	/* first, to the first free block after the range */
		fs->block_map = work;
		err = plan_build_dind_move(s, goal, &p);
		fs->block_map = orig;
		if (err) {
			out_error(s->out, who, 0, "no free block for the "
				  "resize inode's double-indirect block");
			return 1;
		}
		ext2fs_mark_block_bitmap2(work, plan_dind_target(p));
		e->moved++;
		append(e, tail, p);
	}
	for (i = 0; i < e->n; i++) {
		if (e->chain && plan_chain_moves(e->chain, NULL, e->inos[i]))
			continue;
		if (e->inos[i] == fs->super->s_journal_inum &&
		    !plan_journal_clean(s, e->inos[i], 0))
			return 1;
		/* the target where work is clear: free, and neither the
		 * range nor an earlier plan's place */
		fs->block_map = work;
		err = plan_build_move(s, "evacuate", e->inos[i], goal, 0, &p);
		fs->block_map = orig;
		if (err)
			return 1;
		ext2fs_mark_block_bitmap_range2(work, p->target,
						p->target_len);
		e->moved += p->target_len;
		append(e, tail, p);
	}
	return 0;
}

void plan_evacuate_done(struct plan_evac *e)
{
	free(e->inos);
	e->inos = NULL;
	e->n = e->cap = 0;
}
