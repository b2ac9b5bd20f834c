/* owner_frun.c - the compact 12-byte file runs of the ownership index:
 * packing, appending, an in-place sort (no second copy of the index) and
 * the binary search the queries start from. */
#include "owner_int.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define W_LB_SHIFT 27
#define W_LB(w) (((w) >> W_LB_SHIFT) & 7U)

/* The key order of the table of logical blocks: inode, start, class and
 * length, then the logical block (so that the first match is the least). */
static int lx_cmp(const void *a, const void *b)
{
	const struct frun_lblk *x = a, *y = b;

	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->start_lo != y->start_lo)
		return x->start_lo < y->start_lo ? -1 : 1;
	if (x->w != y->w)
		return x->w < y->w ? -1 : 1;
	return x->lblk < y->lblk ? -1 : x->lblk > y->lblk;
}

void frun_lblk_sort(struct frun_vec *v)
{
	if (v->lx_unsorted)
		qsort(v->lx, v->nlx, sizeof(*v->lx), lx_cmp);
	v->lx_unsorted = 0;
}

/* The logical block of escaped run r: the least one its key has. */
static uint32_t lx_find(const struct frun_vec *v, const struct frun *r)
{
	struct frun_lblk key = {r->ino, r->start_lo, r->w, 0};
	size_t lo = 0, hi = v->nlx, i;
	uint32_t best = UINT32_MAX;

	if (v->lx_unsorted) {
		for (i = 0; i < v->nlx; i++)
			if (!lx_cmp(&(struct frun_lblk){v->lx[i].ino,
					v->lx[i].start_lo, v->lx[i].w, 0},
				    &key) && v->lx[i].lblk < best)
				best = v->lx[i].lblk;
		return best == UINT32_MAX ? 0 : best;
	}
	while (lo < hi) {	/* the first entry not below key */
		size_t mid = lo + (hi - lo) / 2;

		if (lx_cmp(&v->lx[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < v->nlx && v->lx[lo].ino == r->ino &&
	    v->lx[lo].start_lo == r->start_lo && v->lx[lo].w == r->w)
		return v->lx[lo].lblk;
	return 0;	/* cannot happen: every escape has its entry */
}

void frun_unpack(const struct frun_vec *v, const struct frun *r,
		 struct orun *out)
{
	blk64_t b = frun_start(r);
	unsigned lb = W_LB(r->w);

	memset(out, 0, sizeof(*out));
	orun_set_start(out, b);
	out->cls = frun_code_cls(r->w >> 30);
	out->len = (uint32_t)frun_len(r);
	out->ino = r->ino;
	out->lblk = lb < FRUN_LBLK_ESC ? lb : lx_find(v, r);
}

static errcode_t frun_grow(struct frun_vec *vec)
{
	size_t cap = vec->cap < 256 ? 256 : vec->cap + vec->cap / 2;
	struct frun *v;

	/* Large blocks come from mmap, and glibc grows them with mremap:
	 * the pages move, they are not copied, so growth never holds two
	 * copies of the index. */
	v = realloc(vec->v, cap * sizeof(*v));
	if (!v)
		return ENOMEM;
	vec->v = v;
	vec->cap = cap;
	return 0;
}

/* Records the logical block of run f (escaped) in the table. */
static errcode_t lx_push(struct frun_vec *vec, const struct frun *f,
			 uint32_t lblk)
{
	struct frun_lblk *e;

	if (vec->nlx == vec->caplx) {
		size_t cap = vec->caplx < 64 ? 64 : vec->caplx + vec->caplx / 2;

		e = realloc(vec->lx, cap * sizeof(*e));
		if (!e)
			return ENOMEM;
		vec->lx = e;
		vec->caplx = cap;
	}
	e = &vec->lx[vec->nlx];
	*e = (struct frun_lblk){f->ino, f->start_lo, f->w, lblk};
	/* the scan walks inodes in order: the table stays sorted but for
	 * the deferred deep trees */
	if (vec->nlx && lx_cmp(&vec->lx[vec->nlx - 1], e) > 0)
		vec->lx_unsorted = 1;
	vec->nlx++;
	return 0;
}

errcode_t frun_push(struct frun_vec *vec, const struct orun *r)
{
	blk64_t start = orun_start(r), len = r->len, lblk = r->lblk, n;
	int code = frun_cls_code(r->cls);
	int advance = r->cls == OWN_FILE || r->cls == OWN_DIR;
	struct frun *f;
	unsigned lb;
	errcode_t err;

	if (code < 0 || (start + len) >> FRUN_START_BITS)
		return EOVERFLOW;
	while (len) {
		if (vec->n == vec->cap) {
			err = frun_grow(vec);
			if (err)
				return err;
		}
		n = len < FRUN_MAX_LEN ? len : FRUN_MAX_LEN;
		f = &vec->v[vec->n];
		lb = lblk < FRUN_LBLK_ESC ? (unsigned)lblk : FRUN_LBLK_ESC;
		f->start_lo = (uint32_t)start;
		f->ino = r->ino;
		f->w = (uint32_t)code << 30 | lb << W_LB_SHIFT |
		       (uint32_t)((start >> 32) & 0xfff) << 15 |
		       (uint32_t)(n - 1);
		if (lb == FRUN_LBLK_ESC) {
			err = lx_push(vec, f, (uint32_t)lblk);
			if (err)
				return err;
		}
		vec->n++;
		start += n;
		len -= n;
		if (advance)
			lblk += n;
	}
	return 0;
}

/* The full order: start, inode, class, then length and logical block so
 * that exact duplicates end up side by side. */
static int frun_cmp(const struct frun *x, const struct frun *y)
{
	blk64_t sx = frun_start(x), sy = frun_start(y);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if ((x->w >> 30) != (y->w >> 30))
		return (x->w >> 30) < (y->w >> 30) ? -1 : 1;
	if ((x->w & 0x7fff) != (y->w & 0x7fff))
		return (x->w & 0x7fff) < (y->w & 0x7fff) ? -1 : 1;
	/* an escaped logical block sorts after the inline ones; escaped
	 * duplicates are dropped, frun_unpack gives the least */
	return W_LB(x->w) < W_LB(y->w) ? -1 : W_LB(x->w) > W_LB(y->w);
}

static void insertion(struct frun *v, size_t n)
{
	size_t i, j;
	struct frun r;

	for (i = 1; i < n; i++) {
		r = v[i];
		for (j = i; j > 0 && frun_cmp(&v[j - 1], &r) > 0; j--)
			v[j] = v[j - 1];
		v[j] = r;
	}
}

static void sift(struct frun *v, size_t i, size_t n)
{
	size_t c;
	struct frun r = v[i];

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && frun_cmp(&v[c + 1], &v[c]) > 0)
			c++;
		if (frun_cmp(&v[c], &r) <= 0)
			break;
		v[i] = v[c];
		i = c;
	}
	v[i] = r;
}

/* For runs that share a start (a shared xattr block, cross-links): heap
 * sort, in place and n log n however many there are. */
static void heapsort_runs(struct frun *v, size_t n)
{
	size_t i;
	struct frun t;

	if (n < 24) {
		insertion(v, n);
		return;
	}
	for (i = n / 2; i-- > 0;)
		sift(v, i, n);
	for (i = n; i-- > 1;) {
		t = v[0];
		v[0] = v[i];
		v[i] = t;
		sift(v, 0, i);
	}
}

static unsigned digit(const struct frun *r, int shift)
{
	return (unsigned)(frun_start(r) >> shift) & 0xff;
}

/*
 * American flag sort (in-place MSD radix) on the start, a byte at a time
 * from bit shift down: each pass counts the digits, then moves every run
 * into its bucket by swapping, with no second array.  Small buckets and
 * the last byte's buckets go to an insertion or heap sort by the full
 * order.  A bucket already in order (most of them: the scan's runs come
 * almost sorted) costs one pass of comparisons.
 */
static void flag_sort(struct frun *v, size_t n, int shift)
{
	size_t count[256], head[256], tail[256], i, sum;
	unsigned b, d;
	struct frun x, t;

	if (n < 32 || shift < 0) {
		heapsort_runs(v, n);
		return;
	}
	for (i = 1; i < n && frun_cmp(&v[i - 1], &v[i]) <= 0; i++)
		;
	if (i == n)
		return;		/* in order already (the usual bucket) */
	memset(count, 0, sizeof(count));
	for (i = 0; i < n; i++)
		count[digit(&v[i], shift)]++;
	for (sum = 0, b = 0; b < 256; b++) {
		head[b] = sum;
		sum += count[b];
		tail[b] = sum;
	}
	for (b = 0; b < 256; b++) {
		while (head[b] < tail[b]) {
			x = v[head[b]];
			d = digit(&x, shift);
			while (d != b) {
				t = v[head[d]];
				v[head[d]++] = x;
				x = t;
				d = digit(&x, shift);
			}
			v[head[b]++] = x;
		}
	}
	for (sum = 0, b = 0; b < 256; sum += count[b], b++)
		if (count[b] > 1)
			flag_sort(v + sum, count[b], shift - 8);
}

/* The radix sort of the whole vector. */
static void full_sort(struct frun *v, size_t n)
{
	blk64_t all_or = 0, all_and = ~(blk64_t)0, diff;
	size_t i;
	int shift = 0;

	for (i = 0; i < n; i++) {
		all_or |= frun_start(&v[i]);
		all_and &= frun_start(&v[i]);
	}
	/* from the highest byte in which the starts differ */
	diff = all_or ^ all_and;
	while (shift + 8 < 64 && (diff >> (shift + 8)))
		shift += 8;
	flag_sort(v, n, diff ? shift : -1);
}

#define SPINE_POP_MAX 16	/* runs a dip may take back off the spine */

/*
 * The scan walks inodes in order, and ext4 puts a file's blocks near its
 * inode's group, so the runs arrive almost sorted: a directory block or a
 * file's extents elsewhere here and there.  One pass keeps the ascending
 * "spine" in place at the front and moves the runs out of order (a run
 * above its successor, or the spine's last few runs above a dip) into a
 * side buffer of at most n/16 runs; those are sorted and merged back from
 * the end.  Returns nonzero, with v holding the same runs in some order,
 * when the runs are not nearly sorted (more than one in 16 moved out, or
 * memory is short): then the radix sort does it all.
 */
static int nearly_sorted(struct frun *v, size_t n)
{
	size_t cap = n / 16 + 1, k = 0, m = 0, i, pops;
	struct frun *o;
	ptrdiff_t a, b, w;

	o = malloc(cap * sizeof(*o));
	if (!o)
		return 1;
	for (i = 0; i < n; i++) {
		struct frun x = v[i];

		if (i + 1 < n && frun_cmp(&x, &v[i + 1]) > 0 &&
		    (!m || frun_cmp(&v[m - 1], &v[i + 1]) <= 0)) {
			o[k++] = x;	/* a spike: above what follows */
		} else if (m && frun_cmp(&v[m - 1], &x) > 0 &&
			   (i + 1 == n || frun_cmp(&v[m - 1], &v[i + 1]) <= 0)) {
			o[k++] = x;	/* a lone dip: what follows fits on */
		} else {
			for (pops = 0; m && pops < SPINE_POP_MAX &&
			     k < cap && frun_cmp(&v[m - 1], &x) > 0; pops++)
				o[k++] = v[--m];
			if (m && frun_cmp(&v[m - 1], &x) > 0) {
				if (k < cap)
					o[k++] = x;	/* a deep dip */
				else
					v[m++] = x;	/* given up below */
			} else {
				v[m++] = x;
			}
		}
		if (k == cap || (i >= 4096 && k > i / 16)) {
			/* too many: put them back in the hole (m + k == i + 1)
			 * and give up */
			memcpy(v + m, o, k * sizeof(*o));
			free(o);
			return 1;
		}
	}
	/* here m + k == n, v[0..m) ascending */
	if (k) {
		full_sort(o, k);
		a = (ptrdiff_t)m - 1;
		b = (ptrdiff_t)k - 1;
		w = (ptrdiff_t)n - 1;
		while (b >= 0) {
			if (a >= 0 && frun_cmp(&v[a], &o[b]) > 0)
				v[w--] = v[a--];
			else
				v[w--] = o[b--];
		}
	}
	free(o);
	return 0;
}

void frun_order(struct frun_vec *vec)
{
	if (!vec->n)
		return;
	if (vec->n < 64 || nearly_sorted(vec->v, vec->n))
		full_sort(vec->v, vec->n);
	frun_lblk_sort(vec);
}

void frun_sort(struct frun_vec *vec)
{
	blk64_t end;
	size_t i, o = 0;
	struct frun *v;

	if (!vec->n)
		return;
	if (vec->n < 64 || nearly_sorted(vec->v, vec->n))
		full_sort(vec->v, vec->n);
	for (i = 0; i < vec->n; i++) {
		const struct frun *p = o ? &vec->v[o - 1] : NULL;
		const struct frun *c = &vec->v[i];

		if (p && frun_start(p) == frun_start(c) &&
		    (p->w & 0x7fff) == (c->w & 0x7fff) &&
		    p->w >> 30 == c->w >> 30 &&
		    (frun_code_cls(c->w >> 30) == OWN_XATTR ||
		     p->ino == c->ino))
			continue;
		vec->v[o++] = vec->v[i];
	}
	vec->n = o;
	/* does a run start inside an earlier one (a cross-link)? */
	vec->overlap = 0;
	for (i = 0, end = 0; i < o && !vec->overlap; i++) {
		if (frun_start(&vec->v[i]) < end)
			vec->overlap = 1;
		if (frun_end(&vec->v[i]) > end)
			end = frun_end(&vec->v[i]);
	}
	v = realloc(vec->v, (o ? o : 1) * sizeof(*v));
	if (v) {
		vec->v = v;
		vec->cap = o ? o : 1;
	}
	frun_lblk_sort(vec);
}

/* The first run of v starting after pos. */
static size_t first_after(const struct frun_vec *v, blk64_t pos)
{
	size_t lo = 0, hi = v->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (frun_start(&v->v[mid]) <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

size_t frun_find(const struct frun_vec *v, blk64_t pos)
{
	size_t lo = first_after(v, pos), i;

	if (!v->overlap) {	/* only the last run starting by pos can */
		if (lo && frun_end(&v->v[lo - 1]) > pos)
			return lo - 1;
		return lo;
	}
	/* Runs overlap: a run starting earlier may reach past a later one.
	 * None longer than FRUN_MAX_LEN, so the first run over pos starts
	 * after pos - FRUN_MAX_LEN. */
	i = pos >= FRUN_MAX_LEN ? first_after(v, pos - FRUN_MAX_LEN) : 0;
	for (; i < lo; i++)
		if (frun_end(&v->v[i]) > pos)
			return i;
	return lo;
}
