/* plan_guard_int.h - what the ownership guard (plan_guard.c) hands to its
 * report (plan_guard_report.c): the conflicts it found, block by block. */
#ifndef E2L_PLAN_GUARD_INT_H
#define E2L_PLAN_GUARD_INT_H

#include "plan.h"
#include "owner.h"

enum guard_why {
	GC_WRITE_OWNED,		/* to be written, but claimed */
	GC_WRITE_USED,		/* to be written, but used in the bitmap */
	GC_FREE_SHARED,		/* to be freed, but claimed by another */
	GC_FREE_UNCLAIMED,	/* to be freed, but not the owner's */
	GC_FREE_TWICE,		/* freed (or claimed by its owner) twice */
	GC_ISLAND_OWNED,	/* in repack's island, owned by another */
	GC_CHAIN_WRITE,		/* written by two plans of one chain */
	GC_WHY_MAX
};

struct guard_rec {
	blk64_t start, len;
	enum guard_why why;
	int has_owner;
	struct owner_run owner;	/* the other claimant, when has_owner */
	size_t plan;		/* the plan's index in its chain */
	ext2_ino_t ino;		/* the inode the plan frees from, or 0 */
};

struct guard_report {
	struct guard_rec *v;
	size_t n, cap;
	unsigned long long dropped;	/* past the cap: counted only */
};

/* A block range [start, start+len) the guard matched against the owner
 * index as expected (claimed by what the plan frees). */
struct guard_cover {
	size_t k;
	blk64_t start, len;
};

/* Records a conflict (merged with the previous one when it continues it).
 * Nonzero when memory is short. */
int guard_conflict(struct guard_report *r, enum guard_why why, blk64_t start,
		   blk64_t len, const struct owner_run *owner, size_t plan,
		   ext2_ino_t ino);
/* Prints the conflicts (at most ten lines, then how many more) and says to
 * run e2fsck; returns E2L_ERR_OWNER_CONFLICT. */
errcode_t guard_report(struct session *s, struct guard_report *r,
		       const struct plan *p, const char *who);
void guard_report_free(struct guard_report *r);

#endif
