/* owner.h - block ownership: what owns each block of the device.  Metadata
 * (superblocks, GDT, bitmaps, inode tables) comes from the group model; file
 * blocks from one inode scan that builds a sorted extent index once per
 * session, so that later range queries never scan inodes again. */
#ifndef E2L_OWNER_H
#define E2L_OWNER_H

#include "session.h"

enum owner_class {
	OWN_FREE = 0,		/* free in the block bitmap */
	OWN_UNINIT,		/* free, in a BLOCK_UNINIT group */
	OWN_SUPER,		/* superblock or backup (and boot block) */
	OWN_GDT,		/* group descriptor table */
	OWN_RSV_GDT,		/* reserved GDT blocks */
	OWN_BBITMAP,		/* block bitmap */
	OWN_IBITMAP,		/* inode bitmap */
	OWN_ITABLE,		/* inode table */
	OWN_JOURNAL,		/* internal journal data */
	OWN_MAPPING,		/* extent-tree or indirect block of an inode */
	OWN_FILE,		/* data of a regular file (or other inode) */
	OWN_DIR,		/* directory data */
	OWN_XATTR,		/* extended-attribute block */
	OWN_OTHER,		/* used by other metadata (resize inode, MMP,
				   quota, bad blocks...) */
	OWN_UNKNOWN,		/* used in the bitmap, no owner found (yet) */
	OWN_CLASS_MAX
};

/* One run of blocks with a single owner. */
struct owner_run {
	blk64_t start, len;
	enum owner_class cls;
	ext2_ino_t ino;		/* owning inode, or 0 */
	blk64_t lblk;		/* logical block of start, for data runs */
	dgrp_t group;		/* for group metadata: the group it serves */
};

struct owner_index;

/* Name ("inode table") and one-letter code ('I') of a class. */
const char *owner_class_name(enum owner_class cls);
const char *owner_class_key(enum owner_class cls);	/* "itable" */
char owner_class_letter(enum owner_class cls);

/*
 * Incremental build, so that a front end can keep its screen alive: begin,
 * then step until *done, or call owner_index_build() to do it all.  Until the
 * index is complete, queries answer metadata and free space exactly and
 * report other used blocks as OWN_UNKNOWN.
 */
errcode_t owner_scan_begin(struct session *s);
/* Does the index read the block bitmap from the disk a group at a time
 * (not loaded in the session, see owner_bits.c), so that a request need
 * not load it?  Begins the index (owner_scan_begin) where it may: 0 when
 * that fails or the bitmap is to be loaded. */
int owner_bitmap_from_disk(struct session *s);
errcode_t owner_scan_step(struct session *s, unsigned max_inodes, int *done);
/* Fraction of the inode scan done, 0..1. */
double owner_scan_progress(const struct session *s);
/* In-use inodes (files, directories, links...) the scan has walked. */
unsigned long owner_scan_files(const struct session *s);
errcode_t owner_index_build(struct session *s);
int owner_index_complete(const struct session *s);

/* The owner of one block. */
errcode_t owner_lookup(struct session *s, blk64_t blk, struct owner_run *run);

/*
 * The owner of each of blks[0..n) into runs[], the answers owner_lookup
 * gives: from the session's index when it is complete, else from one inode
 * scan that keeps only the runs touching those blocks' clusters (nothing
 * is kept in the session; memory grows with n, not with the file count).
 * It takes the filesystem as consistent: a block free in the bitmap is
 * free, the inode tables likeliest to own the others are read first (a
 * few blocks: owner_order.c) and the scan stops once every block has an
 * owner, so a block two inodes claim may get either and a free block an
 * inode claims is told free; owner_lookup_all tells every claim.  Without a
 * loaded block bitmap it reads the bitmaps of the blocks' groups only
 * (owner_probe_groups_only); their read errors are ext2fs_read_bitmaps's.
 */
errcode_t owner_lookup_blocks(struct session *s, const blk64_t *blks,
			      size_t n, struct owner_run *runs);

/* Do the lookups on s read the block bitmaps of the asked blocks' groups
 * only, loading none into the session?  0: they need the session's whole
 * block bitmap (loaded, catastrophic mode, an e2image file...). */
int owner_probe_groups_only(const struct session *s);

/* One claim on asked block k (owner_lookup_all). */
struct owner_claim {
	size_t k;
	struct owner_run run;
};

/*
 * Like owner_lookup_blocks, and also every claim on each block: group
 * metadata, special inodes and every inode that maps it, sorted by k,
 * then metadata first, then by inode and logical block (free and unowned
 * blocks have none).  A block two inodes claim (a damaged filesystem) has
 * two; runs[k] is then its first claim, so that the answer is the same
 * from the session's index or from a probe scan, which reads every inode
 * for it.  The caller frees *claims.
 */
errcode_t owner_lookup_all(struct session *s, const blk64_t *blks, size_t n,
			   struct owner_run *runs, struct owner_claim **claims,
			   size_t *nclaims);

/*
 * Calls fn for every run overlapping [first, first+count), in block order,
 * clipped to the range.  fn returns nonzero to stop.
 */
errcode_t owner_for_range(struct session *s, blk64_t first, blk64_t count,
			  int (*fn)(const struct owner_run *run, void *arg),
			  void *arg);

/* Adds the number of blocks of each class in [first, first+count) to
 * counts[]. */
errcode_t owner_class_counts(struct session *s, blk64_t first, blk64_t count,
			     blk64_t counts[OWN_CLASS_MAX]);

/* The runs of blocks (data and mapping) of one inode, in logical order; the
 * caller frees *runs. */
errcode_t owner_inode_runs(struct session *s, ext2_ino_t ino,
			   struct owner_run **runs, size_t *nruns);


/* Additions (owner helper). */

/* Per-file fragmentation gathered by the scan (files, directories and
 * symlinks with data blocks; not the special inodes). */
struct owner_filefrag {
	ext2_ino_t ino;
	__u32 extents;		/* leaf extents, or physically contiguous runs
				   for block-mapped files */
	blk64_t blocks;		/* data blocks */
	blk64_t ideal;		/* ceil(blocks / 32768) */
};

struct owner_fstats {
	blk64_t files, fragmented;
	blk64_t total_blocks, total_extents, total_ideal;
	blk64_t displaced;	/* see help/topics/fragmentation.txt */
};

#define OWNER_MAX_EXTENT_BLOCKS 32768

struct owner_frag {
	struct owner_fstats st;
	unsigned long bad_inodes;	/* skipped as corrupted */
	struct owner_filefrag *files;	/* the worst, worst first */
	size_t n;
};

/*
 * The fs-wide counters and the top worst fragmented files (extents >
 * ideal), worst first; the caller frees out->files.  From the session's
 * index when it is complete and kept that many, else from a scan of its
 * own that keeps no runs (memory: the bitmaps and top files).  readahead:
 * also ask for the directory blocks, before a walk of the tree for the
 * files' paths on a cold cache.
 */
errcode_t owner_frag_get(struct session *s, size_t top, int readahead,
			 struct owner_frag *out);

/* Inodes the scan skipped as corrupted (bad extent tree, bad blocks). */
unsigned long owner_bad_inodes(const struct session *s);
/* On a metadata-only e2image file: inodes whose block map is in blocks
 * the image does not hold (their blocks stay OWN_UNKNOWN). */
unsigned long owner_absent_inodes(const struct session *s);

/* The class of each letter, and the class for a key ("itable"); returns
 * OWN_CLASS_MAX when there is none. */
enum owner_class owner_class_from_key(const char *key);

/* For each want[k], a directory that holds it (0 when none is found), from
 * one walk of the tree (owner_paths.c): every entry it uses comes from a
 * directory block whose checksum holds (a block that fails is skipped, the
 * rest of its directory still walked). */
errcode_t owner_find_parents(ext2_filsys fs, const ext2_ino_t *want,
			     ext2_ino_t *parent, size_t n);
/* The same walk, giving each want[k] the path ext2fs_get_pathname(parent,
 * want[k]) would (the root "/"), NULL when none is found.  The paths lie
 * in one block, *arena, the caller's to free() (NULL when there is none):
 * a malloc per path was a tenth of `frag --top 10000`. */
errcode_t owner_find_paths(ext2_filsys fs, const ext2_ino_t *want,
			   char **paths, size_t n, char **arena);
/* The same answers on a consistent filesystem, reading only each inode's
 * parent chain (owner_parent.c: a directory of its group holding it, then
 * `..` up to the root); a special inode has no path.  More than a few
 * inodes, or a chain not found (a file of several links, a parent
 * elsewhere, a bad checksum), and it walks as owner_find_paths does. */
errcode_t owner_find_paths_near(ext2_filsys fs, const ext2_ino_t *want,
				char **paths, size_t n, char **arena);
/* Files (inodes owner_near_counts counts) beyond which
 * owner_find_paths_near walks the tree at once: one walk costs less. */
#define OWNER_NEAR_MAX 8
int owner_near_counts(ext2_filsys fs, ext2_ino_t ino);

/*
 * Like owner_class_counts, but before the scan has begun (no bitmap read
 * yet) an estimate from the group descriptors alone: each group's free
 * count (OWN_UNINIT in BLOCK_UNINIT groups, else OWN_FREE) spread evenly
 * over the group, the rest OWN_UNKNOWN.  Once owner_scan_begin() has run it
 * is owner_class_counts.  For a first screen that reads no bitmap.
 */
errcode_t owner_class_counts_quick(struct session *s, blk64_t first,
				   blk64_t count,
				   blk64_t counts[OWN_CLASS_MAX]);

/*
 * owner_class_counts_quick for n consecutive cells of bpc blocks from
 * first (the last cut at end): counts[k] set for cell k.  One walk of the
 * index for the whole row once the scan has begun (a map row's cells).
 */
errcode_t owner_class_counts_row(struct session *s, blk64_t first,
				 blk64_t bpc, blk64_t end, int n,
				 blk64_t (*counts)[OWN_CLASS_MAX]);

/* After a complete scan: asks the kernel to start reading the directory
 * blocks (up to 64 MiB), before a walk of the tree on a cold cache. */
void owner_readahead_dirs(struct session *s);

/* A block range to ask owner_claims about. */
struct owner_query {
	blk64_t start, len;
};

/*
 * Every claim on the blocks of q[0..n) (in any order; the ranges may
 * overlap): fn(k, run) for each run of the index - group metadata, the
 * special inodes, every scanned inode - that overlaps q[k], clipped to it.
 * A block claimed by two owners (a cross-link, a damaged filesystem) is
 * reported once for each; group metadata once per group it serves (each
 * run's group is its own); free and unowned blocks are not reported.  Builds
 * the index if needed, then one pass over all its runs.  fn returns
 * nonzero to stop.
 */
errcode_t owner_claims(struct session *s, const struct owner_query *q,
		       size_t n, int (*fn)(size_t k, const struct owner_run *run,
					   void *arg),
		       void *arg);

/* After building the index: how many inodes the scan skipped as corrupt
 * and how many inode-table reads failed.  Either makes ownership unknowable
 * for the blocks those inodes map. */
errcode_t owner_trust(struct session *s, unsigned long *bad_inodes,
		      unsigned long *unreadable);

void owner_index_free(struct owner_index *idx);

#endif
