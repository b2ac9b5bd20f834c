/* owner_pack_sort.c - the sort of the packed file runs (fpack_sort), a
 * bucket at a time: one pushed in order kept as it is, one in order but a
 * few strays merged with them, a mixed one unpacked, sorted and coded
 * again; and fpack_free. */
#include "owner_pack_int.h"

#include <stdlib.h>
#include <string.h>

/* Output of the sort: blocks of at most FPACK_BLK runs, each in one page,
 * coded FPACK_BLK at a time as a bucket's are. */
struct fout {
	struct fpack *v;
	struct fblk *blk;	/* the bucket's sorted blocks */
	size_t nblk, capblk;
	struct fpage *tail;
	blk64_t maxend;
	struct fstage st[FPACK_BLK];
	unsigned nst;
};

/* The runs waiting in o coded into its next block. */
static errcode_t out_flush(struct fout *o)
{
	struct fdest d = {&o->v->pages, &o->tail, &o->blk, &o->nblk,
			  &o->capblk, &o->maxend};
	errcode_t err;

	if (!o->nst)
		return 0;
	err = fpack_code_block(o->st, o->nst, &d, &o->v->overlap);
	o->nst = 0;
	return err;
}

static errcode_t out_run(struct fout *o, const struct orun *r)
{
	struct fstage *e;
	errcode_t err;

	if (o->nst == FPACK_BLK) {
		err = out_flush(o);
		if (err)
			return err;
	}
	e = &o->st[o->nst++];
	e->start = orun_start(r);
	e->len = r->len;
	e->ino = r->ino;
	e->lblk = r->lblk;
	e->code = (uint8_t)frun_cls_code(r->cls);
	o->v->n++;
	return 0;
}

/* The next segment: n blocks in blk (its memory the segment's). */
static void seg_add(struct fpack *v, struct fblk *blk, size_t n)
{
	struct fblk *nb = realloc(blk, n * sizeof(*nb));	/* shrinks */

	if (nb)
		blk = nb;
	v->seg[v->nseg].blk = blk;
	v->seg[v->nseg].n = n;
	v->nseg++;
}

/*
 * A bucket pushed in order (starts rising: no duplicates) as it is: its
 * blocks and pages the next segment, its maxends raised to the furthest
 * end of the buckets before it, as out_run would have made them.
 */
static void adopt(struct fout *o, struct fbucket *b)
{
	struct fpack *v = o->v;
	size_t j;

	if (!b->nblk) {
		free(b->st);
		memset(b, 0, sizeof(*b));
		return;
	}
	if (b->overlap || b->blk[0].start < o->maxend)
		v->overlap = 1;
	for (j = 0; j < b->nblk; j++)
		if (b->blk[j].maxend < o->maxend)
			b->blk[j].maxend = o->maxend;
	if (b->maxend > o->maxend)
		o->maxend = b->maxend;
	if (o->tail)
		o->tail->next = b->head;
	else
		v->pages = b->head;
	o->tail = b->tail;
	v->n += b->n;
	seg_add(v, b->blk, b->nblk);
	free(b->st);
	memset(b, 0, sizeof(*b));
}

/* A mixed bucket's runs, in the order pushed, into the work vector. */
static errcode_t unpack_bucket(const struct fbucket *b, struct frun_vec *w)
{
	const uint8_t *p;
	struct fprev pv;
	struct orun r;
	errcode_t err = 0;
	size_t j;
	unsigned i;

	for (j = 0; j < b->nblk && !err; j++) {
		const struct fblk *k = &b->blk[j];

		pv = (struct fprev){k->start, k->ino, 0};
		p = k->page->b + k->off;
		for (i = 0; i < k->n && !err; i++) {
			p = get_run(p, &pv, &r);
			err = frun_push(w, &r);
		}
	}
	return err;
}

/* A mixed bucket's strays after its runs, into the work vector. */
static errcode_t unpack_strays(struct fbucket *b, struct frun_vec *w)
{
	struct frun_vec *sv = &b->stray;
	struct orun r;
	errcode_t err = 0;
	size_t i;

	frun_lblk_sort(sv);
	for (i = 0; i < sv->n && !err; i++) {
		frun_unpack(sv, &sv->v[i], &r);
		err = frun_push(w, &r);
	}
	return err;
}

/* A bucket's blocks, run by run in the order pushed. */
struct bucket_it {
	const struct fbucket *b;
	size_t j;		/* the next block */
	unsigned left;		/* runs of the current block still to come */
	const uint8_t *p;
	struct fprev pv;
};

static int bucket_next(struct bucket_it *it, struct orun *r)
{
	const struct fblk *k;

	while (!it->left) {
		if (it->j >= it->b->nblk)
			return 0;
		k = &it->b->blk[it->j++];
		it->pv = (struct fprev){k->start, k->ino, 0};
		it->p = k->page->b + k->off;
		it->left = k->n;
	}
	it->p = get_run(it->p, &it->pv, r);
	it->left--;
	return 1;
}

/* frun_sort's order on whole runs: start, inode, class, length, then the
 * logical block (frun_sort keeps the least of a duplicate's). */
static int run_cmp(const struct orun *x, const struct orun *y)
{
	blk64_t sx = orun_start(x), sy = orun_start(y);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->lblk < y->lblk ? -1 : x->lblk > y->lblk;
}

/* Is c a duplicate frun_sort drops after p, the last run it kept? */
static int run_dup(const struct orun *p, const struct orun *c)
{
	return orun_start(p) == orun_start(c) && p->len == c->len &&
	       p->cls == c->cls && (c->cls == OWN_XATTR || p->ino == c->ino);
}

/*
 * A bucket whose blocks are in order and whose strays are few: the strays
 * put in frun_sort's order (duplicates kept: frun_order) and merged with the
 * blocks' runs, a duplicate of the last run kept dropped as frun_sort drops it,
 * so that the output is what sorting the whole bucket gives, without its
 * runs unpacked into 12-byte ones.
 */
static errcode_t merge_bucket(struct fout *o, struct fbucket *b)
{
	struct bucket_it mi = {.b = b};
	struct frun_vec *sv = &b->stray;
	struct orun m, t, c, last;
	size_t si = 0;
	int hm, ht, kept = 0;
	errcode_t err = 0;

	frun_order(sv);
	hm = bucket_next(&mi, &m);
	ht = si < sv->n;
	if (ht)
		frun_unpack(sv, &sv->v[si++], &t);
	while ((hm || ht) && !err) {
		if (hm && (!ht || run_cmp(&m, &t) <= 0)) {
			c = m;
			hm = bucket_next(&mi, &m);
		} else {
			c = t;
			ht = si < sv->n;
			if (ht)
				frun_unpack(sv, &sv->v[si++], &t);
		}
		if (kept && run_dup(&last, &c))
			continue;
		last = c;
		kept = 1;
		err = out_run(o, &c);
	}
	return err;
}

/* Frees a bucket's pages, blocks and strays and empties it. */
static void bucket_drop(struct fbucket *b)
{
	pages_free(b->head);
	free(b->blk);
	free(b->st);
	free(b->stray.v);
	free(b->stray.lx);
	memset(b, 0, sizeof(*b));
}

/*
 * One bucket at a time, each the next segment: a bucket pushed in order
 * as it is (no copy); one in order but for a few strays merged with them;
 * a mixed one's runs unpacked into the 12-byte work vector, sorted there
 * (frun_sort: its order, its duplicates dropped), packed into blocks, its
 * pages freed before the next bucket's are read (the peak is the packed
 * runs and one bucket's 12-byte ones).  ENOMEM leaves v empty, its error
 * in v->err, which every query then returns.
 */
errcode_t fpack_sort(struct fpack *v)
{
	struct frun_vec w = {0};
	struct fout o;
	struct orun r;
	errcode_t err = 0;
	size_t i;
	int k;

	if (v->err || v->sorted)
		return v->err;
	memset(&o, 0, sizeof(o));
	o.v = v;
	for (k = 0; k < v->nb && !err; k++)
		err = stage_flush(&v->b[k]);
	v->n = 0;
	v->overlap = 0;
	for (k = 0; k < v->nb && !err; k++) {
		struct fbucket *b = &v->b[k];

		if (!b->mixed && !b->stray.n) {
			adopt(&o, b);
			continue;
		}
		if (!b->mixed) {
			err = merge_bucket(&o, b);
			bucket_drop(b);
		} else {
			err = unpack_bucket(b, &w);
			if (!err)
				err = unpack_strays(b, &w);
			bucket_drop(b);
			if (!err)
				frun_sort(&w);
			for (i = 0; i < w.n && !err; i++) {
				frun_unpack(&w, &w.v[i], &r);
				err = out_run(&o, &r);
			}
		}
		if (!err)
			err = out_flush(&o);
		if (o.nblk && !err)
			seg_add(v, o.blk, o.nblk);
		else
			free(o.blk);
		o.blk = NULL;
		o.nblk = o.capblk = 0;
		w.n = 0;
		w.nlx = 0;
		w.lx_unsorted = 0;
		if (err)
			break;
	}
	free(w.v);
	free(w.lx);
	if (err) {
		fpack_free(v);
		v->err = err;
		return err;
	}
	v->sorted = 1;
	return 0;
}

void fpack_free(struct fpack *v)
{
	int k;

	for (k = 0; k < v->nb; k++)
		bucket_drop(&v->b[k]);
	pages_free(v->pages);
	v->pages = NULL;
	for (k = 0; k < v->nseg; k++)
		free(v->seg[k].blk);
	memset(v->seg, 0, sizeof(v->seg));
	v->nseg = 0;
	v->n = 0;
	v->sorted = 0;
	v->overlap = 0;
}
