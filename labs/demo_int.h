/* demo_int.h - shared state of the demo image writer (demo.c, demo_files.c,
 * demo_journal.c); not for use outside the demo. */
#ifndef E2L_DEMO_INT_H
#define E2L_DEMO_INT_H

#include <ext2fs/ext2fs.h>
#include <stdint.h>

#include "sink.h"

#define DEMO_BLOCKS		262144ULL	/* 1 GiB of 4 KiB blocks */
#define DEMO_BLOCK_SIZE		4096
#define DEMO_INODE_RATIO	16384
#define DEMO_LOG_FLEX		9		/* -G 512 */
#define DEMO_MAX_RUNS		64

/* A run of physical blocks. */
struct demo_run {
	blk64_t start;
	blk64_t len;
};

struct demo {
	ext2_filsys fs;
	struct sink *log;
	unsigned long seed;
	uint64_t rng;			/* splitmix64 state */
	char *buf;			/* DEMO_CHUNK blocks of file data */
	/* Filler runs kept around the journal; they become one file. */
	struct demo_run kept[DEMO_MAX_RUNS];
	int nkept;
	int no_replace;			/* refuse an existing path */
	unsigned journal_extents;
	unsigned files;
	uint64_t data_bytes;
};

/* An open file being written: its inode, content tag and written length. */
struct demo_file {
	ext2_ino_t ino;
	struct ext2_inode inode;
	char tag[128];
	size_t taglen;
	uint64_t size;			/* final size in bytes */
	blk64_t next_lblk;		/* next logical block to map */
	blk64_t blocks;			/* data blocks mapped */
	blk64_t end;			/* just past the last block mapped */
};

/* The geometry of an image (the demo's, or a lab scenario's). */
struct demo_geom {
	blk64_t blocks;			/* filesystem size in blocks */
	unsigned log_block_size;	/* 0: 1 KiB, 1: 2 KiB, 2: 4 KiB */
	unsigned inode_ratio;		/* bytes per inode */
	unsigned log_flex;		/* log2 groups per flex group */
	unsigned cluster_bits;		/* log2 blocks per cluster: > 0 makes
					 * a bigalloc filesystem */
	const char *features;		/* e2p edit list ("^flex_bg,..."),
					 * applied to the demo's features */
};

/* The demo's own geometry (mke2fs -t ext4 -G 512, 1 GiB). */
extern const struct demo_geom demo_default_geom;

/*
 * Creates path as a sparse file of the geometry's size, initializes the
 * filesystem in d->fs (tables, root, lost+found, reserved inodes) with
 * d->seed and d->log set by the caller.  *existed tells whether path was
 * replaced.  The image is finished by demo_end().
 */
errcode_t demo_begin(struct demo *d, const char *path,
		     const struct demo_geom *g, int *existed);
/* Writes checksums and closes d->fs (err: a failure so far, which makes it
 * only free and unlink path).  Returns the first error. */
errcode_t demo_end(struct demo *d, const char *path, errcode_t err);

/* Deterministic pseudo-random numbers from the seed. */
uint64_t demo_rand(struct demo *d);
unsigned demo_rand_range(struct demo *d, unsigned lo, unsigned hi);

/* Finds the first free run at or after goal, of at most want blocks. */
errcode_t demo_find_free(struct demo *d, blk64_t goal, blk64_t want,
			 struct demo_run *run);

/* Builds the jbd2 journal in at least 8 extents (demo_journal.c). */
errcode_t demo_journal(struct demo *d);

/* Creates the directory tree and the files (demo_files.c). */
errcode_t demo_files(struct demo *d);

/* File writing primitives (demo_files.c). */
errcode_t demo_file_begin(struct demo *d, ext2_ino_t dir, const char *name,
			  const char *path, uint64_t size,
			  struct demo_file *f);
errcode_t demo_file_put(struct demo *d, struct demo_file *f, blk64_t lblk,
			blk64_t pblk, blk64_t count, int allocated);
errcode_t demo_file_end(struct demo *d, struct demo_file *f);

#endif
