/* owner_pack_iter.c - the sorted packed file runs searched (fpack_at,
 * fpack_seek), walked (fpack_next) and counted for the map's cells
 * (fpack_count). */
#include "owner_pack_int.h"

/* Positions it at the first run of segment s's block b. */
static void at_block(struct fpack_it *it, int s, size_t b)
{
	const struct fblk *k = &it->v->seg[s].blk[b];

	it->s = s;
	it->b = b;
	it->left = k->n;
	it->p = k->page->b + k->off;
	it->pv = (struct fprev){k->start, k->ino, 0};
	it->p = get_run(it->p, &it->pv, &it->r);
	it->left--;
	it->ok = 1;
}

void fpack_next(struct fpack_it *it)
{
	if (it->left) {
		it->p = get_run(it->p, &it->pv, &it->r);
		it->left--;
	} else if (it->b + 1 < it->v->seg[it->s].n) {
		at_block(it, it->s, it->b + 1);
	} else if (it->s + 1 < it->v->nseg) {
		at_block(it, it->s + 1, 0);
	} else {
		it->ok = 0;
	}
}

/*
 * fpack_next's usual step kept in the caller's registers: the block's
 * coding state copied out of it and back only when a block ends (the map
 * walks every run of the index once a frame).
 */
errcode_t fpack_count(struct fpack_it *it, blk64_t pos, blk64_t lim,
		      blk64_t *counts, fpack_gap_fn gap, void *arg)
{
	const uint8_t *p = it->p;
	struct fprev pv = it->pv;
	struct orun r = it->r;
	unsigned left = it->left;
	blk64_t rs, re, t;
	errcode_t err = 0;

	if (!it->ok)
		goto rest;
	re = pv.end;	/* the current run's end */
	rs = re - r.len;
	for (;;) {
		while (re <= pos) {	/* the first run ending after pos */
			if (left) {
				p = get_run(p, &pv, &r);
				left--;
				re = pv.end;
				rs = re - r.len;
				continue;
			}
			it->p = p;
			it->r = r;
			it->pv = pv;
			it->left = 0;
			fpack_next(it);		/* the next block */
			if (!it->ok)
				goto rest;
			p = it->p;
			pv = it->pv;
			r = it->r;
			left = it->left;
			re = pv.end;
			rs = re - r.len;
		}
		if (rs >= lim)
			break;
		if (rs > pos) {
			err = gap(arg, pos, rs, counts);
			if (err)
				break;
			pos = rs;
		}
		t = re < lim ? re : lim;
		counts[r.cls] += t - pos;
		pos = t;
		if (pos >= lim)
			break;
	}
	it->p = p;
	it->pv = pv;
	it->r = r;
	it->left = left;
	if (err || pos >= lim)
		return err;
rest:
	return gap(arg, pos, lim, counts);
}

void fpack_at(struct fpack_it *it, blk64_t pos)
{
	const struct fpack *v = it->v;
	const struct fseg *g;
	int slo = 0, shi = v->nseg;
	size_t lo = 0, hi;

	it->ok = 0;
	while (slo < shi) {	/* the first segment reaching past pos */
		int mid = slo + (shi - slo) / 2;

		g = &v->seg[mid];
		if (g->blk[g->n - 1].maxend > pos)
			shi = mid;
		else
			slo = mid + 1;
	}
	if (slo == v->nseg)
		return;
	g = &v->seg[slo];
	hi = g->n;
	while (lo < hi) {	/* its first block reaching past pos */
		size_t mid = lo + (hi - lo) / 2;

		if (g->blk[mid].maxend > pos)
			hi = mid;
		else
			lo = mid + 1;
	}
	/* every run before this block ends by pos; the first of its runs
	 * that ends after pos is over pos, else the first after it */
	at_block(it, slo, lo);
	while (it->ok && orun_end(&it->r) <= pos)
		fpack_next(it);
}

void fpack_seek(struct fpack_it *it, blk64_t pos)
{
	/* a run after it ending past pos lies in its block: a few steps */
	if (it->ok && it->v->seg[it->s].blk[it->b].maxend > pos) {
		while (it->ok && orun_end(&it->r) <= pos)
			fpack_next(it);
		return;
	}
	if (it->ok)
		fpack_at(it, pos);
}
