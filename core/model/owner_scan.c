/* owner_scan.c - the one inode scan behind the ownership index: a bounded
 * number of inodes per step, their tables read ahead, deep trees batched;
 * each inode walked (owner_walk.c) and its runs kept as the index says. */
#include "owner_int.h"
#include "fs_probe.h"

#include <ext2fs/ext3_extents.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

errcode_t owner_files(struct owner_index *idx, const struct fpack **out)
{
	errcode_t err = 0;

	if (idx->complete && !idx->files_sorted) {
		err = fpack_sort(&idx->files);
		idx->files_sorted = 1;
	}
	*out = &idx->files;
	return err ? err : idx->files.err;
}

/* Does [a, b) touch one of the probe ranges (sorted, disjoint)?  Marks
 * the ranges it covers found when the scan may stop early. */
static int probe_hit(struct owner_index *idx, blk64_t a, blk64_t b)
{
	size_t lo = 0, hi = idx->nprobe, k;

	if (idx->probe_map && !owner_probe_maybe(idx, a, b))
		return 0;
	while (lo < hi) {	/* first range ending after a */
		size_t mid = lo + (hi - lo) / 2;

		if (idx->probe[mid].end <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= idx->nprobe || idx->probe[lo].start >= b)
		return 0;
	for (k = lo; idx->probe_found && k < idx->nprobe &&
		     idx->probe[k].start < b; k++)
		if (!idx->probe_found[k] && idx->probe[k].start >= a &&
		    idx->probe[k].end <= b) {
			idx->probe_found[k] = 1;
			idx->probe_left--;
		}
	return 1;
}

errcode_t owner_keep_run(struct owner_index *idx, const struct orun *r)
{
	switch (idx->keep) {
	case OKEEP_NONE:
		return 0;
	case OKEEP_DIRS:
		if (r->cls != OWN_DIR || idx->files.n >= OKEEP_DIRS_MAX)
			return 0;
		return fpack_push(&idx->files, r);
	case OKEEP_PROBE:
		if (!probe_hit(idx, orun_start(r), orun_end(r)))
			return 0;
		/* fall through */
	case OKEEP_ALL:
	default:
		return fpack_push(&idx->files, r);
	}
}


/*
 * The next inode, its checksum unverified: the scan treats a bad checksum
 * like a good one (the inode is walked all the same), so verifying it only
 * cost time (a third of the scan on metadata_csum filesystems).  Extent
 * blocks are still verified by the extent walk.
 */
static errcode_t next_inode(ext2_filsys fs, struct owner_index *idx,
			    ext2_ino_t *ino, struct ext2_inode *inode, int isize)
{
	int keep = fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS;
	errcode_t err = 0;

	fs->flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
	if (fs->flags & EXT2_FLAG_IMAGE_FILE) {
		err = owner_image_next(fs, idx, ino, inode, isize);
	} else {
		err = ext2fs_get_next_inode_full(idx->scan, ino, inode, isize);
	}
	if (!keep)
		fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	return err;
}

#define RA_GROUPS 16		/* groups asked for ahead, at least */
#define RA_BYTES (8ULL << 20)	/* and at least this much of their tables, */
#define RA_GROUPS_MAX 4096	/* unless this many groups hold less */
#define RA_GAP (64U << 10)	/* tables this close: asked for in one call */

/* The in-use part of group g's inode table: its offset and length (0: no
 * inode in use, or no table). */
static unsigned long long table_used(ext2_filsys fs, dgrp_t g,
				     unsigned long long *off)
{
	ext2_ino_t ipg = fs->super->s_inodes_per_group;
	unsigned long long used = ipg;

	*off = (unsigned long long)ext2fs_inode_table_loc(fs, g) *
	       fs->blocksize;
	if (ext2fs_has_group_desc_csum(fs)) {
		if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT))
			return 0;
		if (ext2fs_bg_itable_unused(fs, g) < ipg)
			used -= ext2fs_bg_itable_unused(fs, g);
	}
	return *off ? used * EXT2_INODE_SIZE(fs->super) : 0;
}

/*
 * Asks the kernel to start reading the used part of the inode tables of
 * the groups ahead of the one being walked (a cold cache then overlaps
 * I/O with the walk; a warm one pays one cheap call a stretch): at least
 * RA_GROUPS groups and RA_BYTES of tables ahead, so that groups of few
 * inodes each (a 2 TiB filesystem of 16,384 groups, 61 files a group)
 * still keep the disk busy; tables next to each other (flex_bg) in one
 * call.
 */
static void scan_readahead(ext2_filsys fs, struct owner_index *idx)
{
	ext2_ino_t ipg = fs->super->s_inodes_per_group;
	dgrp_t cur = ipg ? idx->last_ino / ipg : 0, g;
	unsigned long long off, len, poff = 0, plen = 0;

	if (idx->rafd < 0 || idx->porder)
		return;		/* an ordered probe reads few groups */
	for (; idx->ra_passed < cur && idx->ra_passed < idx->ra_next;
	     idx->ra_passed++)
		idx->ra_done += table_used(fs, idx->ra_passed, &off);
	for (g = idx->ra_next; g < fs->group_desc_count; g++) {
		if (g > cur + RA_GROUPS &&
		    (idx->ra_asked - idx->ra_done >= RA_BYTES ||
		     g > cur + RA_GROUPS_MAX))
			break;
		len = table_used(fs, g, &off);
		if (!len)
			continue;
		idx->ra_asked += len;
		if (plen && off >= poff + plen && off - (poff + plen) <= RA_GAP) {
			plen = off + len - poff;
			continue;
		}
		if (plen)
			posix_fadvise(idx->rafd, (off_t)poff, (off_t)plen,
				      POSIX_FADV_WILLNEED);
		poff = off;
		plen = len;
	}
	if (plen)
		posix_fadvise(idx->rafd, (off_t)poff, (off_t)plen,
			      POSIX_FADV_WILLNEED);
	idx->ra_next = g;
}

/* Walks one scanned inode and counts it. */
static errcode_t walk_one(struct owner_index *idx, struct owalk *w,
			  ext2_ino_t ino, struct ext2_inode *inode)
{
	owalk_inode(w, ino, inode, LINUX_S_ISDIR(inode->i_mode) ?
		    OWN_DIR : OWN_FILE);
	if (w->err)
		return w->err;
	if (w->bad)
		idx->bad_inodes++;
	if (w->absent)
		idx->absent_inodes++;
	if (!w->data_blocks)
		return 0;
	return owner_note_file(idx, ino, w);
}

#define DEFER_MAX 256	/* deep-tree inodes whose blocks are read at once */

/* Walks the deferred inodes (their tree blocks were asked for). */
static errcode_t defer_flush(struct owner_index *idx, struct owalk *w,
			     int isize)
{
	errcode_t err = 0;
	unsigned i;

	for (i = 0; i < idx->ndefer && !err; i++)
		err = walk_one(idx, w, idx->defer_ino[i], (struct ext2_inode *)
			       (idx->defer_buf + (size_t)i * isize));
	idx->ndefer = 0;
	return err;
}

/*
 * An inode whose extent tree has index blocks: asks the kernel for the
 * blocks i_block points to and keeps the inode to walk with the next
 * DEFER_MAX such inodes, so that a cold cache reads them all in parallel
 * instead of one seek at a time.  Returns 0 when the inode was kept.
 */
static int defer(ext2_filsys fs, struct owner_index *idx, ext2_ino_t ino,
		 const struct ext2_inode *inode, int isize)
{
	const struct ext3_extent_header *eh = (const void *)inode->i_block;
	const struct ext3_extent_idx *ix = (const void *)(eh + 1);
	unsigned i, n;
	blk64_t b;

	if (idx->rafd < 0 || !(inode->i_flags & EXT4_EXTENTS_FL) ||
	    ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    !eh->eh_depth)
		return 1;
	if (!idx->defer_buf) {
		idx->defer_buf = malloc((size_t)DEFER_MAX * isize);
		idx->defer_ino = malloc(DEFER_MAX * sizeof(*idx->defer_ino));
		if (!idx->defer_buf || !idx->defer_ino)
			return 1;
	}
	n = ext2fs_le16_to_cpu(eh->eh_entries);
	for (i = 0; i < n && i < 4; i++, ix++) {
		b = ext2fs_le32_to_cpu(ix->ei_leaf) +
		    ((blk64_t)ext2fs_le16_to_cpu(ix->ei_leaf_hi) << 32);
		if (b && b < ext2fs_blocks_count(fs->super))
			posix_fadvise(idx->rafd, (off_t)(b * fs->blocksize),
				      fs->blocksize, POSIX_FADV_WILLNEED);
	}
	memcpy(idx->defer_buf + (size_t)idx->ndefer * isize, inode, isize);
	idx->defer_ino[idx->ndefer++] = ino;
	return 0;
}

/*
 * With a probe order: is ino (0: the scan's end) in the group being read?
 * Else moves the scan to the next group of the order and returns 0 (read
 * on); at the order's end *ino is 0.
 */
static int order_keep(ext2_filsys fs, struct owner_index *idx,
		      ext2_ino_t *ino)
{
	ext2_ino_t ipg = fs->super->s_inodes_per_group;

	if (*ino && (*ino - 1) / ipg == idx->porder[idx->porder_at])
		return 1;
	while (++idx->porder_at < idx->nporder)
		if (!ext2fs_inode_scan_goto_blockgroup(idx->scan,
					idx->porder[idx->porder_at]))
			return 0;
	*ino = 0;
	return 1;
}

/*
 * A probe scan whose every asked block has an owner: the rest of the
 * inodes are not read.  The first owner found in inode order is the one
 * told, as debugfs icheck tells it (a block two inodes claim, on a damaged
 * filesystem, names the lower one).
 */
static int probe_done(const struct owner_index *idx)
{
	return idx->probe_found && !idx->probe_left && !idx->ndefer;
}

errcode_t owner_scan_step(struct session *s, unsigned max_inodes, int *done)
{
	errcode_t err;

	*done = 0;
	err = owner_scan_begin(s);
	if (err)
		return err;
	return owner_idx_step(s->fs, s->owners, max_inodes, done);
}

errcode_t owner_idx_step(ext2_filsys fs, struct owner_index *idx,
			 unsigned max_inodes, int *done)
{
	struct ext2_inode *inode;
	struct owalk w;
	ext2_ino_t ino;
	unsigned n;
	errcode_t err;
	int isize;

	*done = 0;
	if (idx->complete) {
		*done = 1;
		return 0;
	}
	isize = EXT2_INODE_SIZE(fs->super);
	inode = (struct ext2_inode *)idx->inode_buf;
	memset(&w, 0, sizeof(w));
	w.fs = fs;
	w.idx = idx;
	for (n = 0; n < max_inodes; n++) {
		if ((n & 1023) == 0)
			scan_readahead(fs, idx);
		err = next_inode(fs, idx, &ino, inode, isize);
		if (err == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE ||
		    (err && err != EXT2_ET_INODE_CSUM_INVALID &&
		     err != EXT2_ET_INODE_IS_GARBAGE)) {
			/* Unreadable inode table: skip, but never loop. */
			if (++idx->scan_errors > 100000)
				ino = 0;
			else
				continue;
		} else if (err == EXT2_ET_INODE_IS_GARBAGE) {
			idx->bad_inodes++;
			continue;
		}
		if (idx->porder && !order_keep(fs, idx, &ino))
			continue;
		if (!ino)
			break;
		idx->last_ino = ino;
		if (!inode->i_links_count || inode->i_dtime ||
		    owner_special_ino(fs, ino))
			continue;
		idx->walked++;
		if (!defer(fs, idx, ino, inode, isize)) {
			if (idx->ndefer < DEFER_MAX)
				continue;
			err = defer_flush(idx, &w, isize);
		} else {
			err = walk_one(idx, &w, ino, inode);
		}
		if (err)
			return err;
		if (probe_done(idx))
			break;
	}
	err = defer_flush(idx, &w, isize);
	if (err)
		return err;
	if (n < max_inodes || probe_done(idx)) {
		ext2fs_close_inode_scan(idx->scan);
		idx->scan = NULL;
		free(idx->inode_buf);
		idx->inode_buf = NULL;
		free(idx->defer_buf);
		free(idx->defer_ino);
		idx->defer_buf = NULL;
		idx->defer_ino = NULL;
		if (idx->rafd >= 0)
			close(idx->rafd);
		idx->rafd = -1;
		idx->complete = 1;	/* the runs are sorted on first query */
		*done = 1;
	}
	return 0;
}

/* Adds one file's fragmentation to the counters. */
errcode_t owner_note_file(struct owner_index *idx, ext2_ino_t ino,
			  const struct owalk *w)
{
	struct owner_fstats *st = &idx->fstats;
	blk64_t ideal = (w->data_blocks + OWNER_MAX_EXTENT_BLOCKS - 1) /
			OWNER_MAX_EXTENT_BLOCKS;
	blk64_t kept = ideal * w->longest;
	struct owner_filefrag f;

	st->files++;
	st->total_blocks += w->data_blocks;
	st->total_extents += w->extents;
	st->total_ideal += ideal;
	if (kept < w->data_blocks)
		st->displaced += w->data_blocks - kept;
	if (w->extents <= ideal)
		return 0;
	st->fragmented++;
	f.ino = ino;
	f.extents = w->extents > UINT32_MAX ? UINT32_MAX : w->extents;
	f.blocks = w->data_blocks;
	f.ideal = ideal;
	return owner_top_offer(idx, &f);
}
