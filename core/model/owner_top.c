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

static void heap_up(struct owner_filefrag *h, size_t i,
		    const struct owner_filefrag *x)
{
	while (i) {
		size_t p = (i - 1) / 2;

		if (owner_worse(&h[p], x) >= 0)
			break;
		h[i] = h[p];
		i = p;
	}
	h[i] = *x;
}

/* Replaces the root with x. */
static void heap_down(struct owner_filefrag *h, size_t n,
		      const struct owner_filefrag *x)
{
	size_t i = 0, c;

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
	if (!idx->topmax)
		return 0;
	if (!idx->frag) {
		/* allocated whole: topmax is what the caller asked for */
		idx->frag = malloc(idx->topmax * sizeof(*idx->frag));
		if (!idx->frag)
			return ENOMEM;
	}
	if (idx->nfrag < idx->topmax)
		heap_up(idx->frag, idx->nfrag++, f);
	else if (owner_worse(f, &idx->frag[0]) < 0)
		heap_down(idx->frag, idx->nfrag, f);
	return 0;
}
