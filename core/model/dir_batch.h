/* dir_batch.h - the path walk's directory reads in few large reads: an io
 * layer that, for the directory being walked, reads a stretch of its
 * contiguous blocks at once and serves the walk's block reads from it. */
#ifndef E2L_DIR_BATCH_H
#define E2L_DIR_BATCH_H

#include "io_layer.h"

#include <ext2fs/ext2fs.h>

/* A stretch of a directory's blocks that lie next to each other. */
struct dir_run {
	blk64_t start, len;
};

struct dir_batch {
	struct io_layer layer;	/* first: found from the channel */
	io_channel ch;
	unsigned bsize;		/* the channel's block size at the start */
	struct dir_run *runs;	/* the directory's, sorted by start */
	size_t nruns, cap;
	blk64_t mapped;		/* its blocks mapped so far */
	char *win;		/* the last stretch read: wlen blocks from */
	blk64_t wstart, wlen;	/* wstart (0 blocks: none) */
	blk64_t wcap;		/* the window's room, in blocks */
};

/*
 * Puts a new layer on fs's channel (*out, NULL on an error; the walk then
 * reads as it would without).  A write, discard or zeroout through the
 * channel drops what was read.
 */
errcode_t dir_batch_begin(ext2_filsys fs, struct dir_batch **out);
/*
 * The directory dir is walked next: maps its first blocks (a bounded
 * number, a hostile tree cannot make it grow without end); reads of other
 * blocks pass through unchanged.
 */
void dir_batch_dir(struct dir_batch *b, ext2_filsys fs, ext2_ino_t dir);
/*
 * Takes the layer off and frees it, when it is still the channel's top;
 * else (a layer pushed over it and not taken off) it stays in place,
 * passing every read through, rather than leave the channel pointing at
 * freed memory.
 */
void dir_batch_end(struct dir_batch *b, ext2_filsys fs);

#endif
