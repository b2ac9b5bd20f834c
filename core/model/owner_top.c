/* owner_top.c - the worst fragmented files a scan remembers: a bounded
 * max-heap (its root the least bad file kept), so that per-file state is
 * as small as the number of files asked for, whatever the file count. */
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

errcode_t owner_top_offer(struct owner_index *idx,
			  const struct owner_filefrag *f)
{
	struct owner_filefrag x;
	size_t i;

	if (!idx->topmax)
		return 0;
	if (!idx->frag) {
		/* allocated whole: topmax is what the caller asked for */
		idx->frag = malloc(idx->topmax * sizeof(*idx->frag));
		if (!idx->frag)
			return ENOMEM;
	}
	/* kept unordered until full, then made a heap at once (inserting
	 * each in inode order climbed to the root: ties go to the lower
	 * inode, so every later file is the least bad yet) */
	if (idx->nfrag < idx->topmax) {
		idx->frag[idx->nfrag++] = *f;
		for (i = idx->nfrag == idx->topmax ? idx->nfrag / 2 : 0;
		     i-- > 0;) {
			x = idx->frag[i];
			heap_down(idx->frag, idx->nfrag, i, &x);
		}
	} else if (owner_worse(f, &idx->frag[0]) < 0) {
		heap_down(idx->frag, idx->nfrag, 0, f);
	}
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
