/* owner_pack.c - the packed file runs of the ownership index (4-6 bytes a
 * run): pushed into buckets by block range as blocks of delta-coded runs,
 * each bucket sorted on first query (one pushed in order kept as it is, one
 * in order but a few strays merged with them), and the search, iteration
 * and map counting the queries use. */
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static inline uint8_t *put_var(uint8_t *p, uint64_t x)
{
	while (x >= 0x80) {
		*p++ = (uint8_t)(x | 0x80);
		x >>= 7;
	}
	*p++ = (uint8_t)x;
	return p;
}

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

static inline uint64_t zig(int64_t x)
{
	return ((uint64_t)x << 1) ^ (x < 0 ? ~(uint64_t)0 : 0);
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
 * FPACK_RUN_MAX bytes, so that a run never straddles two pages.
 */
#define H_GAP0 0x04
#define H_INO_SHIFT 3
#define H_LB 0x20
#define H_LEN_SHIFT 6

static inline __attribute__((always_inline)) uint8_t *
put_run(uint8_t *p, struct fprev *pv, blk64_t start,
			uint32_t len, uint32_t ino, uint32_t lblk, int code)
{
	uint8_t *h = p++;
	unsigned head = (unsigned)code, im;
	uint32_t expect = ino == pv->ino ? pv->lnext : 0;

	if (start == pv->end)
		head |= H_GAP0;
	else
		p = put_var(p, zig((int64_t)(start - pv->end)));
	im = ino == pv->ino ? 0 : ino == pv->ino + 1 ? 1 : 2;
	head |= im << H_INO_SHIFT;
	if (im == 2)
		p = put_var(p, zig((int64_t)ino - (int64_t)pv->ino));
	if (lblk == expect)
		head |= H_LB;
	else
		p = put_var(p, lblk);
	if (len <= 3) {
		head |= (len - 1) << H_LEN_SHIFT;
	} else {
		head |= 3U << H_LEN_SHIFT;
		p = put_var(p, len - 1);
	}
	*h = (uint8_t)head;
	pv->end = start + len;
	pv->ino = ino;
	pv->lnext = lblk + len;
	return p;
}

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

/* A new page at the end of the list *head..*tail. */
static struct fpage *page_add(struct fpage **head, struct fpage **tail)
{
	struct fpage *g = malloc(FPACK_PAGE);

	if (!g)
		return NULL;
	g->next = NULL;
	g->used = 0;
	if (*tail)
		(*tail)->next = g;
	else
		*head = g;
	*tail = g;
	return g;
}

static void pages_free(struct fpage *g)
{
	struct fpage *n;

	for (; g; g = n) {
		n = g->next;
		free(g);
	}
}

void fpack_init(struct fpack *v, blk64_t blocks, int nbuckets)
{
	memset(v, 0, sizeof(*v));
	v->nb = nbuckets < 1 ? 1 : nbuckets > FPACK_BUCKETS ? FPACK_BUCKETS
							   : nbuckets;
	while (v->shift < 63 && (blocks >> v->shift) > (blk64_t)v->nb)
		v->shift++;
	if (v->nb == 1)
		v->shift = 63;
	v->strays = v->nb > 1;
}

/* Room for one more block in *blk (*cap of them), need in all. */
static errcode_t blk_room(struct fblk **blk, size_t *cap, size_t need)
{
	size_t c = *cap ? *cap + *cap / 2 : 16;
	struct fblk *nb;

	if (need <= *cap)
		return 0;
	if (c < need)
		c = need;
	nb = realloc(*blk, c * sizeof(*nb));
	if (!nb)
		return ENOMEM;
	*blk = nb;
	*cap = c;
	return 0;
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
static errcode_t code_block(const struct fstage *st, unsigned n,
			    const struct fdest *d, int *overlap)
{
	uint8_t buf[FPACK_BLK * FPACK_RUN_MAX], *p = buf;
	const struct fstage *e, *end = st + n;
	struct fprev pv = {st->start, st->ino, 0};
	blk64_t maxend = *d->maxend;
	struct fpage *g = *d->tail;
	struct fblk *k;
	uint32_t len;

	for (e = st; e < end; e++) {
		if (e->start < maxend)
			*overlap = 1;
		p = put_run(p, &pv, e->start, e->len, e->ino, e->lblk,
			    e->code);
		if (e->start + e->len > maxend)
			maxend = e->start + e->len;
	}
	len = (uint32_t)(p - buf);
	if (!g || FPACK_PAGE_DATA - g->used < len) {
		g = page_add(d->head, d->tail);
		if (!g)
			return ENOMEM;
	}
	if (blk_room(d->blk, d->capblk, *d->nblk + 1))
		return ENOMEM;
	k = &(*d->blk)[(*d->nblk)++];
	k->start = st->start;
	k->ino = st->ino;
	k->n = (uint16_t)n;
	k->off = (uint16_t)g->used;
	k->page = g;
	k->maxend = maxend;
	memcpy(g->b + g->used, buf, len);
	g->used += len;
	*d->maxend = maxend;
	return 0;
}

/* The runs waiting in b coded into its next block. */
static errcode_t stage_flush(struct fbucket *b)
{
	struct fdest d = {&b->head, &b->tail, &b->blk, &b->nblk, &b->capblk,
			  &b->maxend};
	errcode_t err;

	if (!b->nst)
		return 0;
	err = code_block(b->st, b->nst, &d, &b->overlap);
	if (!err)
		b->nst = 0;
	return err;
}

/* Room for one more run waiting in b. */
static errcode_t __attribute__((noinline)) stage_room(struct fbucket *b)
{
	if (!b->st) {
		b->st = malloc(FPACK_BLK * sizeof(*b->st));
		return b->st ? 0 : ENOMEM;
	}
	return stage_flush(b);
}

/* A run below the bucket's last kept aside, its blocks left in order. */
static errcode_t __attribute__((noinline))
stray_put(struct fpack *v, struct fbucket *b, blk64_t start,
			   uint32_t len, uint32_t ino, uint32_t lblk, int code)
{
	struct orun r = {0};
	errcode_t err;

	orun_set_start(&r, start);
	r.len = len;
	r.ino = ino;
	r.lblk = lblk;
	r.cls = (uint8_t)frun_code_cls((unsigned)code);
	err = frun_push(&b->stray, &r);
	if (!err)
		v->n++;
	return err;
}

static inline __attribute__((always_inline)) errcode_t
raw_put(struct fpack *v, blk64_t start, uint32_t len, uint32_t ino,
	uint32_t lblk, int code)
{
	blk64_t k = start >> v->shift;
	struct fbucket *b = &v->b[k < (blk64_t)v->nb ? k : (blk64_t)v->nb - 1];
	struct fstage *e;
	errcode_t err;

	if (b->n && start <= b->last && !b->mixed) {
		if (v->strays &&
		    b->stray.n < b->n / FPACK_STRAY_PART + FPACK_STRAY_PART)
			return stray_put(v, b, start, len, ino, lblk, code);
		b->mixed = 1;
	}
	if (b->nst == FPACK_BLK || !b->st) {
		err = stage_room(b);
		if (err)
			return err;
	}
	e = &b->st[b->nst++];
	e->start = start;
	e->len = len;
	e->ino = ino;
	e->lblk = lblk;
	e->code = (uint8_t)code;
	b->last = start;
	b->n++;
	v->n++;
	return 0;
}

/* Puts the packed runs back into the buckets (runs added after a sort). */
static errcode_t thaw(struct fpack *v)
{
	struct fpack_it it;
	struct fpack *old = malloc(sizeof(*old));
	errcode_t err = 0;
	int k;

	if (!old)
		return ENOMEM;
	memcpy(old, v, sizeof(*old));
	v->pages = NULL;
	memset(v->seg, 0, sizeof(v->seg));
	v->nseg = 0;
	v->n = 0;
	v->sorted = 0;
	v->overlap = 0;
	memset(&it, 0, sizeof(it));
	it.v = old;
	for (fpack_at(&it, 0); it.ok && !err; fpack_next(&it))
		err = raw_put(v, orun_start(&it.r), it.r.len, it.r.ino,
			      it.r.lblk, frun_cls_code(it.r.cls));
	for (k = 0; k < old->nseg; k++)
		free(old->seg[k].blk);
	pages_free(old->pages);
	free(old);
	return err;
}

/* fpack_push but for its usual run: after a sort, or longer than a piece. */
static errcode_t __attribute__((noinline))
push_rare(struct fpack *v, const struct orun *r, int code)
{
	blk64_t start = orun_start(r), len = r->len, lblk = r->lblk, n;
	int advance = r->cls == OWN_FILE || r->cls == OWN_DIR;
	errcode_t err;

	if (v->sorted && v->nseg) {
		err = thaw(v);
		if (err)
			return err;
	}
	v->sorted = 0;
	while (len) {	/* pieces of at most FRUN_MAX_LEN, as frun_push */
		n = len < FRUN_MAX_LEN ? len : FRUN_MAX_LEN;
		err = raw_put(v, start, (uint32_t)n, r->ino, (uint32_t)lblk,
			      code);
		if (err)
			return err;
		start += n;
		len -= n;
		if (advance)
			lblk += n;
	}
	return 0;
}

errcode_t fpack_push(struct fpack *v, const struct orun *r)
{
	blk64_t start = orun_start(r), len = r->len;
	int code = frun_cls_code(r->cls);

	if (code < 0 || (start + len) >> FRUN_START_BITS)
		return EOVERFLOW;
	if (v->sorted || len > FRUN_MAX_LEN)
		return push_rare(v, r, code);
	return raw_put(v, start, (uint32_t)len, r->ino, r->lblk, code);
}

errcode_t fpack_each(const struct fpack *v,
		     int (*fn)(const struct orun *r, void *arg), void *arg)
{
	const uint8_t *p;
	struct fprev pv;
	struct fpack_it it;
	struct orun r;
	size_t j;
	unsigned i;
	int k;

	if (v->sorted) {
		memset(&it, 0, sizeof(it));
		it.v = v;
		for (fpack_at(&it, 0); it.ok; fpack_next(&it))
			if (fn(&it.r, arg))
				return 0;
		return 0;
	}
	for (k = 0; k < v->nb; k++) {
		const struct frun_vec *sv = &v->b[k].stray;

		for (j = 0; j < v->b[k].nblk; j++) {
			const struct fblk *kb = &v->b[k].blk[j];

			pv = (struct fprev){kb->start, kb->ino, 0};
			p = kb->page->b + kb->off;
			for (i = 0; i < kb->n; i++) {
				p = get_run(p, &pv, &r);
				if (fn(&r, arg))
					return 0;
			}
		}
		for (i = 0; i < v->b[k].nst; i++) {
			const struct fstage *e = &v->b[k].st[i];

			memset(&r, 0, sizeof(r));
			orun_set_start(&r, e->start);
			r.len = e->len;
			r.ino = e->ino;
			r.lblk = e->lblk;
			r.cls = (uint8_t)frun_code_cls(e->code);
			if (fn(&r, arg))
				return 0;
		}
		for (j = 0; j < sv->n; j++) {
			frun_unpack(sv, &sv->v[j], &r);
			if (fn(&r, arg))
				return 0;
		}
	}
	return 0;
}

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
	err = code_block(o->st, o->nst, &d, &o->v->overlap);
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
