/* plan_repack_int.h - what the repack_flex files (plan_repack.c: building
 * and checking; plan_repack_occ.c: what is in the island's way;
 * plan_repack_run.c: applying, verifying, saving) and the evacuation scan
 * (plan_evacuate.c) share. */
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
/* The blocks of group g's header (superblock, descriptors, reserved GDT
 * blocks; and the boot block of a 1 KiB bigalloc group 0) from its first
 * block; 0 when it has none. */
blk_t repack_header_len(ext2_filsys fs, dgrp_t g);
int repack_overlaps(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen);
/* 1 when [start, start + len) lies in block b's cluster (b itself without
 * bigalloc). */
int repack_in_cluster(ext2_filsys fs, blk64_t b, blk64_t start, blk64_t len);
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

/* plan_repack_occ.c: 1 when the island holds nothing but the groups'
 * metadata, the resize inode's block that moves out, and files the plans
 * of head's chain before upto move away; else prints what is in the way
 * (with the evacuate request that frees it, for files) and returns 0. */
int repack_island_free(struct session *s, const struct plan_repack *r,
		       const struct plan *head, const struct plan *upto);

/* What a run of the owner index is to a plan emptying a range (the
 * evacuation scan, repack_flex's island): nothing in the way (free, or
 * the bitmaps and inode table of a group in [own_first, own_first +
 * own_n), which the caller moves), an inode's blocks, an xattr block, a
 * block of the resize inode, or metadata that stays (plan_evacuate.c). */
enum evac_role { EVAC_CLEAR, EVAC_INODE, EVAC_XATTR, EVAC_RESIZE,
		 EVAC_FIXED };
struct owner_run;
enum evac_role plan_evac_role(const struct owner_run *run, dgrp_t own_first,
			      dgrp_t own_n);

/* plan_repack_clu.c: the accounting in clusters (a block each without
 * bigalloc).  repack_meta_at: 1 when [first, first + len) holds a block of
 * some group's bitmaps, inode table or header, or the resize inode's block
 * dind (0: none), as the descriptors say now. */
int repack_meta_at(ext2_filsys fs, blk64_t first, blk64_t len, blk64_t dind);
/* Marks in use each cluster of the range not marked yet, counting it. */
void repack_mark(ext2_filsys fs, blk64_t blk, blk64_t len);
/* Frees each marked cluster of the range that no metadata holds any more
 * (repack_meta_at), counting it; the rest stay marked. */
void repack_release(ext2_filsys fs, blk64_t blk, blk64_t len, blk64_t dind);
/* 1 when every cluster of the range is marked in use. */
int repack_marked_all(ext2_filsys fs, blk64_t blk, blk64_t len);
/* 1 when a cluster of the range is marked but holds no metadata. */
int repack_stale(ext2_filsys fs, blk64_t blk, blk64_t len, blk64_t dind);

/* plan_repack_run.c: the plan file's repack lines (read back by
 * plan_repack_parse, plan_file_int.h). */
void plan_repack_save(FILE *f, const struct plan *p);

#endif
