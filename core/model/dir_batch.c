/* dir_batch.c - serving the path walk's directory block reads from large
 * reads of each directory's contiguous stretches (dir_batch.h). */
#include "dir_batch.h"

#include <stdlib.h>
#include <string.h>

#define WINDOW_BYTES (1U << 20)	/* one read at most */
#define MAP_BLOCKS 65536	/* a directory's blocks mapped at most */
#define MAP_RUNS 4096		/* and its stretches */

static struct dir_batch *batch_of(io_channel ch);

static void drop_window(struct dir_batch *b)
{
	b->wlen = 0;
}

/* The stretch holding block, or NULL (runs sorted by start: a search). */
static const struct dir_run *run_of(const struct dir_batch *b, blk64_t block)
{
	size_t lo = 0, hi = b->nruns, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (b->runs[mid].start <= block)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	lo--;
	if (block - b->runs[lo].start < b->runs[lo].len)
		return &b->runs[lo];
	return NULL;
}

static errcode_t below_read(struct dir_batch *b, io_channel ch, blk64_t block,
			    int count, void *data)
{
	io_manager m = b->layer.below;

	if (m->read_blk64)
		return m->read_blk64(ch, block, count, data);
	return m->read_blk(ch, (unsigned long)block, count, data);
}

static errcode_t batch_read64(io_channel ch, unsigned long long block,
			      int count, void *data)
{
	struct dir_batch *b = batch_of(ch);
	const struct dir_run *r;
	blk64_t n;

	if (ch->block_size != (int)b->bsize) {
		drop_window(b);		/* blocks of another size: not ours */
		return below_read(b, ch, block, count, data);
	}
	if (count <= 0)
		return below_read(b, ch, block, count, data);
	if (b->wlen && block >= b->wstart &&
	    block - b->wstart + count <= b->wlen) {
		memcpy(data, b->win + (block - b->wstart) * b->bsize,
		       (size_t)count * b->bsize);
		return 0;
	}
	r = run_of(b, block);
	if (!r)
		return below_read(b, ch, block, count, data);
	n = r->start + r->len - block;
	if (n > b->wcap)
		n = b->wcap;
	if (n <= (blk64_t)count)
		return below_read(b, ch, block, count, data);
	drop_window(b);
	/* a failed stretch: the exact read again, its error as without us */
	if (below_read(b, ch, block, (int)n, b->win))
		return below_read(b, ch, block, count, data);
	b->wstart = block;
	b->wlen = n;
	memcpy(data, b->win, (size_t)count * b->bsize);
	return 0;
}

static errcode_t batch_read(io_channel ch, unsigned long block, int count,
			    void *data)
{
	return batch_read64(ch, block, count, data);
}

static errcode_t batch_write64(io_channel ch, unsigned long long block,
			       int count, const void *data)
{
	struct dir_batch *b = batch_of(ch);
	io_manager m = b->layer.below;

	drop_window(b);
	if (m->write_blk64)
		return m->write_blk64(ch, block, count, data);
	return m->write_blk(ch, (unsigned long)block, count, data);
}

static errcode_t batch_write(io_channel ch, unsigned long block, int count,
			     const void *data)
{
	return batch_write64(ch, block, count, data);
}

static errcode_t batch_write_byte(io_channel ch, unsigned long off, int size,
				  const void *data)
{
	struct dir_batch *b = batch_of(ch);

	drop_window(b);
	return b->layer.below->write_byte(ch, off, size, data);
}

static errcode_t batch_discard(io_channel ch, unsigned long long block,
			       unsigned long long count)
{
	struct dir_batch *b = batch_of(ch);

	drop_window(b);
	return b->layer.below->discard(ch, block, count);
}

static errcode_t batch_zeroout(io_channel ch, unsigned long long block,
			       unsigned long long count)
{
	struct dir_batch *b = batch_of(ch);

	drop_window(b);
	return b->layer.below->zeroout(ch, block, count);
}

static struct dir_batch *batch_of(io_channel ch)
{
	return (struct dir_batch *)io_layer_find(ch, batch_write64);
}

errcode_t dir_batch_begin(ext2_filsys fs, struct dir_batch **out)
{
	struct dir_batch *b;
	io_manager m;

	*out = NULL;
	if (!fs->io || fs->io->block_size <= 0 ||
	    WINDOW_BYTES / (unsigned)fs->io->block_size < 2)
		return EXT2_ET_INVALID_ARGUMENT;	/* nothing to gain */
	b = calloc(1, sizeof(*b));
	if (!b)
		return EXT2_ET_NO_MEMORY;
	b->ch = fs->io;
	b->bsize = (unsigned)fs->io->block_size;
	b->wcap = WINDOW_BYTES / b->bsize;
	b->win = malloc((size_t)b->wcap * b->bsize);
	if (!b->win) {
		free(b);
		return EXT2_ET_NO_MEMORY;
	}
	io_layer_push(fs->io, &b->layer);
	m = &b->layer.mgr;
	m->read_blk = batch_read;
	m->read_blk64 = batch_read64;
	m->write_blk = batch_write;
	m->write_blk64 = batch_write64;
	if (m->write_byte)
		m->write_byte = batch_write_byte;
	if (m->discard)
		m->discard = batch_discard;
	if (m->zeroout)
		m->zeroout = batch_zeroout;
	*out = b;
	return 0;
}

static int add_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		     blk64_t ref_blk, int ref_offset, void *priv)
{
	struct dir_batch *b = priv;
	struct dir_run *r, *grown;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0 || !*blocknr)
		return 0;
	if (++b->mapped > MAP_BLOCKS)
		return BLOCK_ABORT;
	r = b->nruns ? &b->runs[b->nruns - 1] : NULL;
	if (r && *blocknr == r->start + r->len) {
		r->len++;
		return 0;
	}
	if (b->nruns == MAP_RUNS)
		return BLOCK_ABORT;
	if (b->nruns == b->cap) {
		grown = realloc(b->runs, (b->cap ? b->cap * 2 : 16) *
				sizeof(*b->runs));
		if (!grown)
			return BLOCK_ABORT;
		b->runs = grown;
		b->cap = b->cap ? b->cap * 2 : 16;
	}
	b->runs[b->nruns].start = *blocknr;
	b->runs[b->nruns++].len = 1;
	return 0;
}

static int run_cmp(const void *a, const void *b)
{
	const struct dir_run *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void dir_batch_dir(struct dir_batch *b, ext2_filsys fs, ext2_ino_t dir)
{
	if (!b)
		return;
	b->nruns = 0;
	b->mapped = 0;
	/* an unmappable directory (inline data, a broken tree) keeps no
	 * stretches: its reads pass through */
	if (ext2fs_block_iterate3(fs, dir, BLOCK_FLAG_READ_ONLY |
				  BLOCK_FLAG_DATA_ONLY, NULL, add_block, b))
		b->nruns = 0;
	if (b->nruns > 1)	/* none: runs may still be NULL */
		qsort(b->runs, b->nruns, sizeof(*b->runs), run_cmp);
}

void dir_batch_end(struct dir_batch *b, ext2_filsys fs)
{
	if (!b)
		return;
	b->nruns = 0;
	drop_window(b);
	if (fs->io != b->ch || fs->io->manager != &b->layer.mgr)
		return;		/* not on top: left in place, passing through */
	io_layer_pop(fs->io, &b->layer);
	free(b->runs);
	free(b->win);
	free(b);
}
