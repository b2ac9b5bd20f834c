/* owner_claims.c - every claimant of a set of block ranges: one linear pass
 * over all the index's runs (metadata, special inodes, every scanned inode)
 * against the ranges, so that a block two owners claim (a damaged
 * filesystem) is reported once per owner, unlike owner_for_range. */
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>

struct qsorted {
	blk64_t start, end;	/* [start, end) */
	size_t k;		/* index in the caller's array */
};

static int qs_cmp(const void *a, const void *b)
{
	const struct qsorted *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* First i with maxend[i] > pos (maxend is non-decreasing). */
static size_t first_reaching(const blk64_t *maxend, size_t n, blk64_t pos)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (maxend[mid] > pos)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

struct claims_ctx {
	ext2_filsys fs;
	const struct qsorted *q;
	const blk64_t *maxend;
	size_t n;
	int (*fn)(size_t k, const struct owner_run *run, void *arg);
	void *arg;
};

/* Reports [a, b) of run r to range k: one call per group served, for
 * group metadata merged across groups (flex_bg's packed bitmaps and inode
 * tables), so that each claim names its own group. */
static int claim_part(const struct claims_ctx *c, const struct orun *r,
		      size_t k, blk64_t a, blk64_t b)
{
	blk64_t rs = orun_start(r), unit, e;
	struct owner_run o;

	unit = owner_group_unit(c->fs, r->cls);
	for (; a < b; a = e) {
		e = unit ? rs + ((a - rs) / unit + 1) * unit : b;
		if (e > b)
			e = b;
		orun_to_run(c->fs, r, a, e, &o);
		if (c->fn(k, &o, c->arg))
			return 1;
	}
	return 0;
}

/* Reports run r against every range it overlaps; nonzero: stop. */
static int claim_run(const struct claims_ctx *c, const struct orun *r)
{
	blk64_t rs = orun_start(r), re = orun_end(r), a, b;
	size_t j;

	if (!r->len)
		return 0;
	for (j = first_reaching(c->maxend, c->n, rs);
	     j < c->n && c->q[j].start < re; j++) {
		if (c->q[j].end <= rs)
			continue;
		a = rs > c->q[j].start ? rs : c->q[j].start;
		b = re < c->q[j].end ? re : c->q[j].end;
		if (claim_part(c, r, c->q[j].k, a, b))
			return 1;
	}
	return 0;
}

static int claim_each(const struct orun *r, void *arg)
{
	return claim_run(arg, r);
}

errcode_t owner_claims(struct session *s, const struct owner_query *q,
		       size_t n, int (*fn)(size_t k, const struct owner_run *run,
					   void *arg),
		       void *arg)
{
	struct claims_ctx c = {0};
	struct qsorted *qs = NULL;
	blk64_t *maxend = NULL;
	const struct orun_vec *meta;
	const struct fpack *files;
	size_t i, m = 0;
	errcode_t err;

	err = owner_index_build(s);
	if (err || !n)
		return err;
	qs = malloc(n * sizeof(*qs));
	maxend = malloc(n * sizeof(*maxend));
	if (!qs || !maxend) {
		err = ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		if (!q[i].len || q[i].start + q[i].len < q[i].start)
			continue;	/* empty, or wraps: nothing to ask */
		qs[m++] = (struct qsorted){q[i].start, q[i].start + q[i].len,
					   i};
	}
	qsort(qs, m, sizeof(*qs), qs_cmp);
	for (i = 0; i < m; i++)
		maxend[i] = i && maxend[i - 1] > qs[i].end ? maxend[i - 1]
							   : qs[i].end;
	c.fs = s->fs;
	c.q = qs;
	c.maxend = maxend;
	c.n = m;
	c.fn = fn;
	c.arg = arg;
	/* The raw vectors, in any order: sorting is not needed here, and
	 * the pass must see every run, overlapping or not. */
	meta = &s->owners->meta;
	files = &s->owners->files;
	for (i = 0; i < meta->n; i++)
		if (claim_run(&c, &meta->v[i]))
			goto out;
	fpack_each(files, claim_each, &c);
out:
	free(qs);
	free(maxend);
	return err;
}

errcode_t owner_trust(struct session *s, unsigned long *bad_inodes,
		      unsigned long *unreadable)
{
	errcode_t err = owner_index_build(s);

	if (err)
		return err;
	*bad_inodes = s->owners->bad_inodes;
	*unreadable = s->owners->scan_errors;
	return 0;
}
