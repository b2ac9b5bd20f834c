/* owner_sort.c - the vector of merged owner runs: growing it, sorting it
 * by physical block (a radix sort) with exact duplicates dropped, and the
 * furthest ends orun_find searches when runs overlap. */
#include "owner_int.h"

#include <stdlib.h>
#include <string.h>

errcode_t orun_push(struct orun_vec *vec, const struct orun *r)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap + vec->cap / 2 : 256;
		struct orun *v = realloc(vec->v, cap * sizeof(*v));

		if (!v)
			return ENOMEM;
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = *r;
	return 0;
}

static int orun_cmp(const void *a, const void *b)
{
	const struct orun *x = a, *y = b;
	blk64_t sx = orun_start(x), sy = orun_start(y);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (int)x->cls - (int)y->cls;
}

#define RADIX_BITS 16
#define RADIX_SIZE (1U << RADIX_BITS)

/*
 * Stable LSD radix sort of v by start (48 bits, 16 at a time, skipping
 * digits every run shares), then each group of equal starts ordered by
 * orun_cmp: the same order as a stable sort by orun_cmp, in a few linear
 * passes instead of n log n comparisons.  Returns nonzero when memory is
 * short (the caller falls back to qsort).
 */
static int orun_radix(struct orun *v, size_t n)
{
	struct orun *tmp, *src = v, *dst, *t;
	size_t *count, i, j, sum, c;
	blk64_t all_or = 0, all_and = ~(blk64_t)0, k;
	int shift;

	for (i = 0; i < n; i++) {
		k = orun_start(&v[i]);
		all_or |= k;
		all_and &= k;
	}
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(RADIX_SIZE * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return 1;
	}
	dst = tmp;
	for (shift = 0; shift < 48; shift += RADIX_BITS) {
		if (!(((all_or ^ all_and) >> shift) & (RADIX_SIZE - 1)))
			continue;	/* every run has the same digit */
		memset(count, 0, RADIX_SIZE * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(orun_start(&src[i]) >> shift) &
			      (RADIX_SIZE - 1)]++;
		for (sum = 0, c = 0; c < RADIX_SIZE; c++) {
			size_t x = count[c];

			count[c] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			dst[count[(orun_start(&src[i]) >> shift) &
				  (RADIX_SIZE - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
	/* equal starts: insertion sort by the full order (stable) */
	for (i = 1; i < n; i++) {
		struct orun r;

		if (orun_start(&v[i]) != orun_start(&v[i - 1]) ||
		    orun_cmp(&v[i - 1], &v[i]) <= 0)
			continue;
		r = v[i];
		for (j = i; j > 0 && orun_start(&v[j - 1]) == orun_start(&r) &&
		     orun_cmp(&v[j - 1], &r) > 0; j--)
			v[j] = v[j - 1];
		v[j] = r;
	}
	return 0;
}

/* Sorts, drops exact duplicates (a shared xattr block is kept for its
 * first inode; a block two inodes both map stays claimed by both, so that
 * owner_claims sees the cross-link) and gives memory back. */
void orun_sort(struct orun_vec *vec)
{
	size_t i, o = 0;
	struct orun *v;

	if (!vec->n)
		return;
	if (vec->n < 64 || orun_radix(vec->v, vec->n))
		qsort(vec->v, vec->n, sizeof(*vec->v), orun_cmp);
	for (i = 0; i < vec->n; i++) {
		if (o && orun_start(&vec->v[o - 1]) == orun_start(&vec->v[i]) &&
		    vec->v[o - 1].len == vec->v[i].len &&
		    vec->v[o - 1].cls == vec->v[i].cls &&
		    (vec->v[i].cls == OWN_XATTR ||
		     vec->v[o - 1].ino == vec->v[i].ino))
			continue;
		vec->v[o++] = vec->v[i];
	}
	vec->n = o;
	v = realloc(vec->v, o * sizeof(*v));
	if (v) {
		vec->v = v;
		vec->cap = o;
	}
}

errcode_t orun_index(struct orun_vec *v)
{
	blk64_t end = 0;
	size_t i;

	free(v->maxend);
	v->maxend = NULL;
	for (i = 0; i < v->n && orun_start(&v->v[i]) >= end; i++)
		end = orun_end(&v->v[i]);
	if (i == v->n)
		return 0;	/* none starts inside an earlier one */
	v->maxend = malloc(v->n * sizeof(*v->maxend));
	if (!v->maxend)
		return ENOMEM;
	for (i = 0, end = 0; i < v->n; i++) {
		if (orun_end(&v->v[i]) > end)
			end = orun_end(&v->v[i]);
		v->maxend[i] = end;
	}
	return 0;
}
