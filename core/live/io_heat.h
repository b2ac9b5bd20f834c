/* io_heat.h - block I/O on a device as heat over its blocks: for each
 * bucket of blocks, when it was last read and last written, so that a view
 * can light the cells that hold recent requests and let them fade. */
#ifndef E2L_IO_HEAT_H
#define E2L_IO_HEAT_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

#define IO_HEAT_MAX_BUCKETS	(1u << 20)

struct io_heat {
	blk64_t nblocks;
	unsigned shift;		/* a bucket holds 1 << shift blocks */
	size_t nbuckets;
	double *rd, *wr;	/* last read / write (seconds; 0 never) */
	unsigned long long reads, writes;	/* requests added */
	unsigned long long rd_blocks, wr_blocks;
	unsigned long long outside;	/* requests beyond the device */
	double last;		/* the newest timestamp added */
	blk64_t last_blk, last_len;
	int last_write;
};

/* Sizes h for a device of nblocks blocks (buckets a power of two of
 * blocks, at most IO_HEAT_MAX_BUCKETS).  0 or ENOMEM. */
errcode_t io_heat_init(struct io_heat *h, blk64_t nblocks);
void io_heat_free(struct io_heat *h);

/* Records a request on blocks [blk, blk + count) at time now (seconds, any
 * monotonic clock; > 0).  Blocks past the device are counted in outside. */
void io_heat_add(struct io_heat *h, blk64_t blk, blk64_t count, int write,
		 double now);

/*
 * How hot [first, first + count) is at now: *rd and *wr get 1 for a request
 * this instant down to 0 for one fade seconds ago or older (or none).
 */
void io_heat_cell(const struct io_heat *h, blk64_t first, blk64_t count,
		  double now, double fade, double *rd, double *wr);

#endif
