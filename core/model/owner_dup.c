/* owner_dup.c - every claimant of a few asked blocks, from an index (the
 * session's or a probe scan's): a block two inodes claim, on a damaged
 * filesystem, is told once per claimant, in the same order on every path. */
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>

struct bk {
	blk64_t blk;
	size_t k;
};

static int bk_cmp(const void *a, const void *b)
{
	const struct bk *x = a, *y = b;

	if (x->blk != y->blk)
		return x->blk < y->blk ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* Claims by block index, then metadata first, then by inode and logical
 * block: the order every path reports. */
static int claim_cmp(const void *a, const void *b)
{
	const struct owner_claim *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	if (x->run.ino != y->run.ino)
		return x->run.ino < y->run.ino ? -1 : 1;
	if (x->run.cls != y->run.cls)
		return x->run.cls < y->run.cls ? -1 : 1;
	if (x->run.lblk != y->run.lblk)
		return x->run.lblk < y->run.lblk ? -1 : 1;
	return x->run.start < y->run.start ? -1 : x->run.start > y->run.start;
}

struct cvec {
	struct owner_claim *v;
	size_t n, cap;
	errcode_t err;
};

static void cpush(struct cvec *c, size_t k, const struct owner_run *r)
{
	struct owner_claim *nv;

	if (c->err)
		return;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;

		nv = realloc(c->v, cap * sizeof(*nv));
		if (!nv) {
			c->err = ENOMEM;
			return;
		}
		c->v = nv;
		c->cap = cap;
	}
	c->v[c->n].k = k;
	c->v[c->n++].run = *r;
}

/* Each asked block stored run r covers: its claim (group metadata: the
 * part serving the block's group; else the whole stored run). */
static void run_claims(ext2_filsys fs, const struct orun *r,
		       const struct bk *b, size_t n, struct cvec *c)
{
	blk64_t rs = orun_start(r), re = orun_end(r), unit, a, e;
	struct owner_run o;
	size_t lo = 0, hi = n;

	if (!r->len)
		return;
	while (lo < hi) {	/* first asked block at or after rs */
		size_t mid = lo + (hi - lo) / 2;

		if (b[mid].blk < rs)
			lo = mid + 1;
		else
			hi = mid;
	}
	unit = owner_group_unit(fs, r->cls);
	for (; lo < n && b[lo].blk < re; lo++) {
		a = rs;
		e = re;
		if (unit) {
			a = rs + (b[lo].blk - rs) / unit * unit;
			e = a + unit < re ? a + unit : re;
		}
		orun_to_run(fs, r, a, e, &o);
		cpush(c, b[lo].k, &o);
	}
}

struct dup_ctx {
	ext2_filsys fs;
	const struct bk *b;
	size_t n;
	struct cvec *c;
};

static int dup_run(const struct orun *r, void *arg)
{
	struct dup_ctx *d = arg;

	run_claims(d->fs, r, d->b, d->n, d->c);
	return d->c->err != 0;
}

errcode_t owner_idx_claims(ext2_filsys fs, const struct owner_index *idx,
			   const blk64_t *blks, size_t n,
			   struct owner_claim **claims, size_t *nclaims)
{
	struct cvec c = {0};
	struct bk *b;
	size_t i;

	*claims = NULL;
	*nclaims = 0;
	b = malloc((n ? n : 1) * sizeof(*b));
	if (!b)
		return ENOMEM;
	for (i = 0; i < n; i++)
		b[i] = (struct bk){blks[i], i};
	qsort(b, n, sizeof(*b), bk_cmp);
	for (i = 0; i < idx->meta.n && !c.err; i++)
		run_claims(fs, &idx->meta.v[i], b, n, &c);
	if (!c.err) {
		struct dup_ctx d = {fs, b, n, &c};

		fpack_each(&idx->files, dup_run, &d);
	}
	free(b);
	if (c.err) {
		free(c.v);
		return c.err;
	}
	if (c.n)
		qsort(c.v, c.n, sizeof(*c.v), claim_cmp);
	/* a run stored twice (a probe scan keeps what a sort would drop) */
	for (i = 0, n = 0; i < c.n; i++)
		if (!n || claim_cmp(&c.v[n - 1], &c.v[i]) ||
		    c.v[n - 1].run.len != c.v[i].run.len)
			c.v[n++] = c.v[i];
	*claims = c.v;
	*nclaims = n;
	return 0;
}
