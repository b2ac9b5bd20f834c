/* io_heat.c - the heat model of block I/O (io_heat.h): buckets of blocks
 * stamped with the time of their last read and last write. */
#include "io_heat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

errcode_t io_heat_init(struct io_heat *h, blk64_t nblocks)
{
	memset(h, 0, sizeof(*h));
	h->nblocks = nblocks ? nblocks : 1;
	while ((h->nblocks >> h->shift) >= IO_HEAT_MAX_BUCKETS)
		h->shift++;
	h->nbuckets = (size_t)((h->nblocks + (1ULL << h->shift) - 1) >>
			       h->shift);
	h->rd = calloc(h->nbuckets, sizeof(*h->rd));
	h->wr = calloc(h->nbuckets, sizeof(*h->wr));
	if (!h->rd || !h->wr) {
		io_heat_free(h);
		return ENOMEM;
	}
	return 0;
}

void io_heat_free(struct io_heat *h)
{
	free(h->rd);
	free(h->wr);
	memset(h, 0, sizeof(*h));
}

void io_heat_add(struct io_heat *h, blk64_t blk, blk64_t count, int write,
		 double now)
{
	size_t b, e;
	double *v = write ? h->wr : h->rd;

	if (!h->nbuckets || !count)
		return;
	if (write) {
		h->writes++;
		h->wr_blocks += count;
	} else {
		h->reads++;
		h->rd_blocks += count;
	}
	if (blk >= h->nblocks) {
		h->outside++;
		return;
	}
	if (count > h->nblocks - blk)
		count = h->nblocks - blk;
	b = (size_t)(blk >> h->shift);
	e = (size_t)((blk + count - 1) >> h->shift);
	for (; b <= e && b < h->nbuckets; b++)
		v[b] = now;
	if (now >= h->last) {
		h->last = now;
		h->last_blk = blk;
		h->last_len = count;
		h->last_write = write;
	}
}

static double level(double at, double now, double fade)
{
	double age;

	if (at <= 0 || fade <= 0)
		return 0;
	age = now - at;
	if (age < 0)
		age = 0;
	return age >= fade ? 0 : 1 - age / fade;
}

void io_heat_cell(const struct io_heat *h, blk64_t first, blk64_t count,
		  double now, double fade, double *rd, double *wr)
{
	double r = 0, w = 0;
	size_t b, e;

	*rd = *wr = 0;
	if (!h->nbuckets || !count || first >= h->nblocks)
		return;
	if (count > h->nblocks - first)
		count = h->nblocks - first;
	b = (size_t)(first >> h->shift);
	e = (size_t)((first + count - 1) >> h->shift);
	for (; b <= e && b < h->nbuckets; b++) {
		if (h->rd[b] > r)
			r = h->rd[b];
		if (h->wr[b] > w)
			w = h->wr[b];
	}
	*rd = level(r, now, fade);
	*wr = level(w, now, fade);
}
