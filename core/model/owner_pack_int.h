/* owner_pack_int.h - what owner_pack.c, owner_pack_sort.c and
 * owner_pack_iter.c share: the run decoder and its format, where coded
 * blocks go, and the page and staging helpers both the pushes and the sort
 * use. */
#ifndef E2L_OWNER_PACK_INT_H
#define E2L_OWNER_PACK_INT_H

#include "owner_int.h"

#include <stdlib.h>

static inline const uint8_t *get_var(const uint8_t *p, uint64_t *x)
{
	uint64_t v = *p & 0x7f;
	unsigned s = 7;

	while (*p++ & 0x80) {
		v |= (uint64_t)(*p & 0x7f) << s;
		s += 7;
	}
	*x = v;
	return p;
}

static inline int64_t zag(uint64_t x)
{
	return (int64_t)(x >> 1) ^ -(int64_t)(x & 1);
}

/*
 * One run, relative to the run before it in its stream: a head byte, then
 * the varints (LEB128) it does not make needless.  Head bits 0-1: the class
 * code; bit 2: the run starts where the last ended, else the zig-zag gap
 * follows; bits 3-4: the same inode (0), the next (1), else the zig-zag
 * delta follows (2); bit 5: the logical block is the one expected (the
 * last run's end in the same inode, else 0), else it follows; bits 6-7:
 * len - 1 when len is at most 3, else 3 and len - 1 follows.  The usual
 * run (a small file after the one before it) is one byte; at most
 * FPACK_RUN_MAX bytes, so that a run never straddles two pages.  Coded by
 * owner_pack.c's put_run, decoded by get_run below.
 */
#define H_GAP0 0x04
#define H_INO_SHIFT 3
#define H_LB 0x20
#define H_LEN_SHIFT 6

static inline __attribute__((always_inline)) const uint8_t *
get_run(const uint8_t *p, struct fprev *pv,
				     struct orun *r)
{
	unsigned head = *p++, im, ln;
	uint64_t x;
	blk64_t start = pv->end;
	uint32_t ino = pv->ino, lblk;

	if (!(head & H_GAP0)) {
		p = get_var(p, &x);
		start += (blk64_t)zag(x);
	}
	im = (head >> H_INO_SHIFT) & 3;
	if (im == 1) {
		ino++;
	} else if (im == 2) {
		p = get_var(p, &x);
		ino = (uint32_t)((int64_t)ino + zag(x));
	}
	lblk = ino == pv->ino ? pv->lnext : 0;
	if (!(head & H_LB)) {
		p = get_var(p, &x);
		lblk = (uint32_t)x;
	}
	ln = (head >> H_LEN_SHIFT) + 1;
	if (ln == 4) {
		p = get_var(p, &x);
		ln = (unsigned)x + 1;
	}
	orun_set_start(r, start);
	r->len = ln;
	r->ino = ino;
	r->cls = frun_code_cls(head & 3);
	r->pad = 0;
	r->lblk = lblk;
	pv->end = start + ln;
	pv->ino = ino;
	pv->lnext = lblk + ln;
	return p;
}

/* Frees a list of pages. */
static inline void pages_free(struct fpage *g)
{
	struct fpage *n;

	for (; g; g = n) {
		n = g->next;
		free(g);
	}
}

/* Where coded blocks go: a bucket's pages and blocks, or the sort's. */
struct fdest {
	struct fpage **head, **tail;
	struct fblk **blk;
	size_t *nblk, *capblk;
	blk64_t *maxend;	/* the furthest end of every run before */
};

/* Runs st[0..n) (0 < n <= FPACK_BLK) coded into d's next block, in a new
 * page when its last has no room for them; *overlap set when one starts
 * inside a run before it. */
errcode_t fpack_code_block(const struct fstage *st, unsigned n,
			   const struct fdest *d, int *overlap);

/* The runs waiting in b coded into its next block. */
static inline errcode_t stage_flush(struct fbucket *b)
{
	struct fdest d = {&b->head, &b->tail, &b->blk, &b->nblk, &b->capblk,
			  &b->maxend};
	errcode_t err;

	if (!b->nst)
		return 0;
	err = fpack_code_block(b->st, b->nst, &d, &b->overlap);
	if (!err)
		b->nst = 0;
	return err;
}

#endif
