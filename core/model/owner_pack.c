/* owner_pack.c - the packed file runs of the ownership index (4-6 bytes a
 * run): the run coder, pushes into buckets by block range as blocks of
 * delta-coded runs (a few out of order kept aside as strays), runs pushed
 * after a sort put back, and fpack_each.  The sort is owner_pack_sort.c's,
 * the search, iteration and map counting owner_pack_iter.c's. */
#include "owner_pack_int.h"

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

static inline uint64_t zig(int64_t x)
{
	return ((uint64_t)x << 1) ^ (x < 0 ? ~(uint64_t)0 : 0);
}

/* One run coded after pv, in the format told in owner_pack_int.h. */
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

/* Runs st[0..n) (0 < n <= FPACK_BLK) coded into d's next block, in a new
 * page when its last has no room for them; *overlap set when one starts
 * inside a run before it. */
errcode_t fpack_code_block(const struct fstage *st, unsigned n,
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
