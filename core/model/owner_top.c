/* owner_top.c - the worst fragmented files a scan remembers: a buffer of
 * at most twice the number asked for, cut down to the worst by a
 * quickselect when full, so that per-file state is as small as the number
 * of files asked for, whatever the file count; and their sort. */
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int owner_worse(const struct owner_filefrag *a,
		const struct owner_filefrag *b)
{
	blk64_t ea = a->extents - a->ideal, eb = b->extents - b->ideal;

	if (ea != eb)
		return ea > eb ? -1 : 1;
	if (a->blocks != b->blocks)
		return a->blocks > b->blocks ? -1 : 1;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

/* Puts x at slot i of the heap h[0..n) and sifts it down. */
static void heap_down(struct owner_filefrag *h, size_t n, size_t i,
		      const struct owner_filefrag *x)
{
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && owner_worse(&h[c + 1], &h[c]) > 0)
			c++;
		if (owner_worse(&h[c], x) <= 0)
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = *x;
}

static void swap(struct owner_filefrag *a, struct owner_filefrag *b)
{
	struct owner_filefrag t = *a;

	*a = *b;
	*b = t;
}

/* Reorders v[0..n) so that v[0..k) are the k worst (in no order) and
 * v[k-1] the least bad of them: a quickselect, median of three (k >= 1). */
static void top_select(struct owner_filefrag *v, size_t n, size_t k)
{
	long lo = 0, hi = (long)n - 1, kk = (long)k - 1, i, j, mid;
	struct owner_filefrag p;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (owner_worse(&v[mid], &v[lo]) < 0)
			swap(&v[mid], &v[lo]);
		if (owner_worse(&v[hi], &v[lo]) < 0)
			swap(&v[hi], &v[lo]);
		if (owner_worse(&v[hi], &v[mid]) < 0)
			swap(&v[hi], &v[mid]);
		p = v[mid];
		i = lo;
		j = hi;
		do {	/* the worse than p to the left, the less bad right */
			while (owner_worse(&v[i], &p) < 0)
				i++;
			while (owner_worse(&p, &v[j]) < 0)
				j--;
			if (i <= j)
				swap(&v[i++], &v[j--]);
		} while (i <= j);
		if (kk <= j)
			hi = j;
		else if (kk >= i)
			lo = i;
		else
			return;		/* v[kk] is p, in its place */
	}
}

void owner_top_trim(struct owner_index *idx)
{
	if (idx->nfrag <= idx->topmax)
		return;
	top_select(idx->frag, idx->nfrag, idx->topmax);
	idx->nfrag = idx->topmax;
	idx->frag_cut = idx->frag[idx->topmax - 1];
	idx->have_cut = 1;
}

/*
 * Files are appended to a buffer of up to twice topmax; when it is full
 * the topmax worst are selected and the least bad of them becomes the cut
 * a later file must beat.  A file costs a compare or two, where a bounded
 * heap cost a sift through log(topmax) levels for each better file (a
 * tenth of what `frag --top 10000` adds to `--top 10`).
 */
errcode_t owner_top_offer(struct owner_index *idx,
			  const struct owner_filefrag *f)
{
	struct owner_filefrag *t;
	size_t cap;

	if (!idx->topmax)
		return 0;
	if (idx->have_cut && owner_worse(f, &idx->frag_cut) >= 0)
		return 0;
	if (idx->nfrag == idx->fragcap) {
		if (idx->fragcap == 2 * idx->topmax) {
			owner_top_trim(idx);
		} else {
			cap = idx->fragcap ? 2 * idx->fragcap : 256;
			if (cap > 2 * idx->topmax)
				cap = 2 * idx->topmax;
			t = realloc(idx->frag, cap * sizeof(*t));
			if (!t)
				return ENOMEM;
			idx->frag = t;
			idx->fragcap = cap;
		}
		if (idx->have_cut && owner_worse(f, &idx->frag_cut) >= 0)
			return 0;
	}
	idx->frag[idx->nfrag++] = *f;
	return 0;
}

/* The fields a radix pass sorts by: worst first is ascending in
 * (~excess, ~blocks, ino), owner_worse's order. */
enum top_key { TK_INO, TK_BLOCKS, TK_EXCESS, TK_MAX };

static blk64_t key_of(const struct owner_filefrag *f, int k)
{
	switch (k) {
	case TK_INO:
		return f->ino;
	case TK_BLOCKS:
		return ~f->blocks;
	default:
		return ~((blk64_t)f->extents - f->ideal);
	}
}

/*
 * owner_top_sort as a stable least-significant-byte radix sort into tmp
 * and back: the bytes of ino, then of ~blocks, then of ~excess, only
 * those where the files differ (found first, in one sweep).
 */
static void top_radix(struct owner_filefrag *v, struct owner_filefrag *tmp,
		      size_t n)
{
	struct owner_filefrag *from = v, *to = tmp, *t;
	blk64_t differ[TK_MAX] = {0}, k0[TK_MAX];
	size_t count[256], i, sum, c;
	unsigned shift;
	int k;

	for (k = 0; k < TK_MAX; k++)
		k0[k] = key_of(&v[0], k);
	for (i = 1; i < n; i++)
		for (k = 0; k < TK_MAX; k++)
			differ[k] |= key_of(&v[i], k) ^ k0[k];
	for (k = 0; k < TK_MAX; k++)
		for (shift = 0; shift < 64; shift += 8) {
			if (!((differ[k] >> shift) & 0xff))
				continue;	/* one byte for all */
			memset(count, 0, sizeof(count));
			for (i = 0; i < n; i++)
				count[(key_of(&from[i], k) >> shift) & 0xff]++;
			for (i = 0, sum = 0; i < 256; i++) {
				c = count[i];
				count[i] = sum;
				sum += c;
			}
			for (i = 0; i < n; i++)
				to[count[(key_of(&from[i], k) >> shift) &
					 0xff]++] = from[i];
			t = from;
			from = to;
			to = t;
		}
	if (from != v)
		memcpy(v, from, n * sizeof(*v));
}

void owner_top_sort(struct owner_filefrag *v, size_t n)
{
	struct owner_filefrag x, *tmp;
	size_t i;

	/* a radix sort where its copy can be had (the heap sort's pops were
	 * a fifth of what `frag --top 10000` adds to `--top 10`) */
	tmp = n > 64 ? malloc(n * sizeof(*tmp)) : NULL;
	if (tmp) {
		top_radix(v, tmp, n);
		free(tmp);
		return;
	}

	for (i = n / 2; i-- > 0;) {
		x = v[i];
		heap_down(v, n, i, &x);
	}
	/* the root is the least bad: each goes to the end of what is left */
	while (n > 1) {
		x = v[--n];
		v[n] = v[0];
		heap_down(v, n, 0, &x);
	}
}
