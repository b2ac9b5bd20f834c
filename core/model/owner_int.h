/* owner_int.h - internals shared by owner.c (queries) and owner_scan.c (the
 * inode scan): the compact run record and the index structure. */
#ifndef E2L_OWNER_INT_H
#define E2L_OWNER_INT_H

#include "owner.h"

#include <stdint.h>

/*
 * A run as stored: 20 bytes.  start is 48 bits (2^48 blocks is beyond any
 * ext4 filesystem), len 32 bits (runs are split at 2^32-1).  For group
 * metadata classes, ino holds the first group the run serves.
 */
struct orun {
	uint32_t start_lo;
	uint16_t start_hi;
	uint8_t cls;
	uint8_t pad;
	uint32_t len;
	uint32_t ino;
	uint32_t lblk;
};

static inline blk64_t orun_start(const struct orun *r)
{
	return ((blk64_t)r->start_hi << 32) | r->start_lo;
}

static inline blk64_t orun_end(const struct orun *r)
{
	return orun_start(r) + r->len;
}

static inline void orun_set_start(struct orun *r, blk64_t b)
{
	r->start_lo = (uint32_t)b;
	r->start_hi = (uint16_t)(b >> 32);
}

struct orun_vec {
	struct orun *v;
	size_t n, cap;
};

errcode_t orun_push(struct orun_vec *vec, const struct orun *r);
void orun_sort(struct orun_vec *vec);
/* The part [a, b) of stored run r as a query answer (group metadata: the
 * group served by a; file data: the logical block of a). */
void orun_to_run(ext2_filsys fs, const struct orun *r, blk64_t a, blk64_t b,
		 struct owner_run *out);

/* Per-inode accumulation while walking one inode. */
struct owalk {
	ext2_filsys fs;
	struct orun_vec *out;
	ext2_ino_t ino;
	enum owner_class data_cls;
	struct orun cur;		/* pending run, cur.len == 0: none */
	blk64_t data_blocks, extents, longest, cur_ext, phys_end;
	blk64_t steps, max_steps;
	int bad;
	int absent;			/* its map needs blocks a metadata-only
					   e2image file does not hold */
	errcode_t err;			/* allocation failure */
};

/* Walks the blocks of one inode into w->out (merging runs). */
void owalk_inode(struct owalk *w, ext2_ino_t ino, struct ext2_inode *inode,
		 enum owner_class cls);
/* Reads inode ino and walks it into v (counts in *w; w->err set on a
 * failure while walking).  cls OWN_CLASS_MAX: the class its mode calls for. */
errcode_t owalk_read(ext2_filsys fs, ext2_ino_t ino, enum owner_class cls,
		     struct owalk *w, struct orun_vec *v);
/* Flushes the pending run. */
void owalk_flush(struct owalk *w);

struct owner_index {
	struct orun_vec meta;		/* group metadata + special inodes */
	struct orun_vec files;		/* the scan's runs, sorted at the end */
	ext2_inode_scan scan;
	char *inode_buf;
	int complete;
	ext2_ino_t last_ino;
	unsigned long bad_inodes;
	unsigned long scan_errors;	/* unreadable inode-table blocks */
	/* a metadata-only e2image file: inodes read by number (the inode
	 * scan reads where the filesystem keeps its tables); the next one,
	 * and the inodes whose maps the image does not hold */
	ext2_ino_t image_next;
	unsigned long absent_inodes;
	struct owner_fstats fstats;
	struct owner_filefrag *frag;	/* fragmented files only */
	size_t nfrag, capfrag;
	int files_sorted;		/* files sorted (on first query) */
	int rafd;			/* the device, for readahead, or -1 */
	dgrp_t ra_next;			/* first group not yet advised */
	/* inodes with an extent tree deeper than i_block, walked in batches
	 * after their tree blocks have been asked for (owner_scan.c) */
	char *defer_buf;
	ext2_ino_t *defer_ino;
	unsigned ndefer;
};

/* The scan's runs in block order (sorted on first use after the scan, so
 * that a command needing only the per-file numbers never sorts them). */
struct orun_vec *owner_files(struct owner_index *idx);

/* Adds one walked file's fragmentation to the index's counters. */
errcode_t owner_note_file(struct owner_index *idx, ext2_ino_t ino,
			  const struct owalk *w);

/* Is ino handled before the scan (journal, quota...)? */
int owner_special_ino(ext2_filsys fs, ext2_ino_t ino);

/* Blocks per group served by one run unit of a mergeable metadata class
 * (0 for classes that are not merged across groups). */
blk64_t owner_group_unit(ext2_filsys fs, int cls);

#endif
