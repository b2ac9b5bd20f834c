/* plan_repack_int.h - what the repack_flex files (plan_repack.c: building
 * and previewing; plan_repack_run.c: applying, verifying, saving) share. */
#ifndef E2L_PLAN_REPACK_INT_H
#define E2L_PLAN_REPACK_INT_H

#include "plan.h"

#include <stdio.h>

/* RP_DIND: the resize inode's double-indirect block, moved out of the
 * island once (from -> to, no temporary place) before anything else. */
enum { RP_BB, RP_IB, RP_IT, RP_DIND, RP_KINDS };

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

extern const char *const repack_what_name[RP_KINDS];

blk64_t repack_item_loc(ext2_filsys fs, dgrp_t g, int what);
int repack_overlaps(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen);
/* Where the next item (in build order: the block bitmaps, the inode
 * bitmaps, the inode tables, group by group) of len blocks belongs: packed
 * after the previous one from *cur (start at the island), past the group
 * headers in the way (a superblock backup, its descriptors and reserved GDT
 * blocks, a meta_bg descriptor block: they stay); advances *cur. */
blk64_t repack_next_to(ext2_filsys fs, blk64_t *cur, blk64_t len);
/* Calls fn on each piece of [a, a + len) between the group headers lying
 * in it (the island but what stays); stops at fn's first error. */
errcode_t repack_span_parts(ext2_filsys fs, blk64_t a, blk64_t len,
			    errcode_t (*fn)(blk64_t start, blk64_t len,
					    void *arg), void *arg);

/* The flex size (log 2 groups, or -1 for the filesystem's own, 4 when
 * flex_bg is off), groups and island of flex group flex in r; 0, or prints
 * why not and returns 1. */
int plan_repack_geometry(struct session *s, struct plan_repack *r,
			 unsigned long flex, int log);

/* plan_repack_run.c: the plan file's repack lines (read back by
 * plan_repack_parse, plan_file_int.h). */
void plan_repack_save(FILE *f, const struct plan *p);

#endif
