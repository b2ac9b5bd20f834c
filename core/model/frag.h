/* frag.h - fragmentation: the free-extent histogram (whole filesystem, per
 * group, per flex group) and per-file extent counts against the ideal count
 * for the file's size, with the fs-wide score described in help/topics. */
#ifndef E2L_FRAG_H
#define E2L_FRAG_H

#include "session.h"

#define FRAG_BUCKETS 64

/* Free extents binned by power-of-two size in blocks (bucket i holds
 * extents of [2^i, 2^(i+1)) blocks). */
struct frag_hist {
	blk64_t free_blocks;
	blk64_t free_extents;
	blk64_t max_extent, min_extent;
	blk64_t count[FRAG_BUCKETS];
	blk64_t blocks[FRAG_BUCKETS];
};

/* Histogram over the block range of groups [first, last]. */
errcode_t frag_free_hist(struct session *s, dgrp_t first, dgrp_t last,
			 struct frag_hist *h);
/* Adds one free extent of len blocks to h. */
void frag_hist_add(struct frag_hist *h, blk64_t len);
/* Can frag_stream_hist answer for s (no bitmap loaded, a plain device,
 * no bigalloc)? */
int frag_stream_usable(const struct session *s);
/* frag_free_hist from the bitmap blocks on disk, one group at a time, as a
 * load of the bitmap would see them (checksums checked, BLOCK_UNINIT
 * groups as libext2fs makes them); loads nothing into the session. */
errcode_t frag_stream_hist(struct session *s, dgrp_t first, dgrp_t last,
			   struct frag_hist *h);

struct frag_file {
	ext2_ino_t ino;
	blk64_t blocks;		/* data blocks */
	blk64_t extents;	/* physically contiguous runs */
	blk64_t ideal;		/* the fewest runs its size allows */
};

struct frag_files {
	struct frag_file *worst;	/* sorted, worst first */
	size_t nworst;
	blk64_t files, fragmented_files;
	blk64_t total_blocks, total_extents, total_ideal;
	double score;		/* 0 (perfect) .. 100 */
	unsigned long bad_inodes;	/* skipped as corrupted */
};

/* Per-file fragmentation and the top worst files: from the session's owner
 * index when it is built, else from a scan that keeps no block runs
 * (memory: the bitmaps and the top files, whatever the file count). */
errcode_t frag_files_get(struct session *s, size_t top, struct frag_files *f);
/* The same; readahead also asks for the directory blocks, for a walk of
 * the tree to the worst files' paths that follows. */
errcode_t frag_files_scan(struct session *s, size_t top, int readahead,
			  struct frag_files *f);
void frag_files_release(struct frag_files *f);

/* Additions: one file's counts, read from its inode now (no scan). */
errcode_t frag_file_get(struct session *s, ext2_ino_t ino,
			struct frag_file *ff);

/* A reserved inode with blocks (the journal, quota files, ...): not a user
 * file, so outside the worst-files list and the score. */
struct frag_special {
	const char *name;	/* "journal", "user quota", ... */
	struct frag_file f;
};
#define FRAG_SPECIAL_MAX 8

/*
 * The reserved inodes that hold blocks, in inode order: the journal (when
 * internal), the user, group and project quota files, the orphan file and
 * the boot loader inode.  The resize inode is left out (its blocks are the
 * reserved descriptor blocks, not a file's data).  An inode that cannot be
 * read is skipped; *n gets how many were found.
 */
errcode_t frag_special_get(struct session *s, struct frag_special *out,
			   size_t *n);

#endif
