/* owner_top.c - the worst fragmented files a scan remembers: a bounded
 * max-heap (its root the least bad file kept), so that per-file state is
 * as small as the number of files asked for, whatever the file count. */
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>

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

void owner_top_sort(struct owner_filefrag *v, size_t n)
{
	struct owner_filefrag x;
	size_t i;

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
