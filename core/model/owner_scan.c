/* owner_scan.c - the one inode scan behind the ownership index: walks each
 * inode's extent tree or block map into merged runs and gathers per-file
 * fragmentation, a bounded number of inodes per step. */
#include "owner_int.h"
#include "fs_probe.h"

#include <ext2fs/ext3_extents.h>

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

errcode_t orun_push(struct orun_vec *vec, const struct orun *r)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap + vec->cap / 2 : 256;
		struct orun *v = realloc(vec->v, cap * sizeof(*v));

		if (!v)
			return ENOMEM;
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = *r;
	return 0;
}

static int orun_cmp(const void *a, const void *b)
{
	const struct orun *x = a, *y = b;
	blk64_t sx = orun_start(x), sy = orun_start(y);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (int)x->cls - (int)y->cls;
}

#define RADIX_BITS 16
#define RADIX_SIZE (1U << RADIX_BITS)

/*
 * Stable LSD radix sort of v by start (48 bits, 16 at a time, skipping
 * digits every run shares), then each group of equal starts ordered by
 * orun_cmp: the same order as a stable sort by orun_cmp, in a few linear
 * passes instead of n log n comparisons.  Returns nonzero when memory is
 * short (the caller falls back to qsort).
 */
static int orun_radix(struct orun *v, size_t n)
{
	struct orun *tmp, *src = v, *dst, *t;
	size_t *count, i, j, sum, c;
	blk64_t all_or = 0, all_and = ~(blk64_t)0, k;
	int shift;

	for (i = 0; i < n; i++) {
		k = orun_start(&v[i]);
		all_or |= k;
		all_and &= k;
	}
	tmp = malloc(n * sizeof(*tmp));
	count = malloc(RADIX_SIZE * sizeof(*count));
	if (!tmp || !count) {
		free(tmp);
		free(count);
		return 1;
	}
	dst = tmp;
	for (shift = 0; shift < 48; shift += RADIX_BITS) {
		if (!(((all_or ^ all_and) >> shift) & (RADIX_SIZE - 1)))
			continue;	/* every run has the same digit */
		memset(count, 0, RADIX_SIZE * sizeof(*count));
		for (i = 0; i < n; i++)
			count[(orun_start(&src[i]) >> shift) &
			      (RADIX_SIZE - 1)]++;
		for (sum = 0, c = 0; c < RADIX_SIZE; c++) {
			size_t x = count[c];

			count[c] = sum;
			sum += x;
		}
		for (i = 0; i < n; i++)
			dst[count[(orun_start(&src[i]) >> shift) &
				  (RADIX_SIZE - 1)]++] = src[i];
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	free(count);
	/* equal starts: insertion sort by the full order (stable) */
	for (i = 1; i < n; i++) {
		struct orun r;

		if (orun_start(&v[i]) != orun_start(&v[i - 1]) ||
		    orun_cmp(&v[i - 1], &v[i]) <= 0)
			continue;
		r = v[i];
		for (j = i; j > 0 && orun_start(&v[j - 1]) == orun_start(&r) &&
		     orun_cmp(&v[j - 1], &r) > 0; j--)
			v[j] = v[j - 1];
		v[j] = r;
	}
	return 0;
}

/* Sorts, drops exact duplicates (a shared xattr block is kept for its
 * first inode; a block two inodes both map stays claimed by both, so that
 * owner_claims sees the cross-link) and gives memory back. */
void orun_sort(struct orun_vec *vec)
{
	size_t i, o = 0;
	struct orun *v;

	if (!vec->n)
		return;
	if (vec->n < 64 || orun_radix(vec->v, vec->n))
		qsort(vec->v, vec->n, sizeof(*vec->v), orun_cmp);
	for (i = 0; i < vec->n; i++) {
		if (o && orun_start(&vec->v[o - 1]) == orun_start(&vec->v[i]) &&
		    vec->v[o - 1].len == vec->v[i].len &&
		    vec->v[o - 1].cls == vec->v[i].cls &&
		    (vec->v[i].cls == OWN_XATTR ||
		     vec->v[o - 1].ino == vec->v[i].ino))
			continue;
		vec->v[o++] = vec->v[i];
	}
	vec->n = o;
	v = realloc(vec->v, o * sizeof(*v));
	if (v) {
		vec->v = v;
		vec->cap = o;
	}
}

struct orun_vec *owner_files(struct owner_index *idx)
{
	if (idx->complete && !idx->files_sorted) {
		orun_sort(&idx->files);
		idx->files_sorted = 1;
	}
	return &idx->files;
}

void owalk_flush(struct owalk *w)
{
	errcode_t err;

	if (!w->cur.len)
		return;
	err = orun_push(w->out, &w->cur);
	if (err)
		w->err = err;
	w->cur.len = 0;
}

/* Adds [pblk, pblk+len) at logical block lblk with class cls. */
static void owalk_add(struct owalk *w, blk64_t pblk, blk64_t len,
		      blk64_t lblk, enum owner_class cls)
{
	blk64_t total = ext2fs_blocks_count(w->fs->super);
	struct orun *c = &w->cur;

	if (!len)
		return;
	if (pblk < w->fs->super->s_first_data_block || pblk >= total ||
	    len > total - pblk) {
		w->bad = 1;
		return;
	}
	if (c->len && c->cls == cls && orun_end(c) == pblk &&
	    (blk64_t)c->len + len <= UINT32_MAX &&
	    (cls == OWN_MAPPING || (blk64_t)c->lblk + c->len == lblk)) {
		c->len += len;
		return;
	}
	owalk_flush(w);
	while (len > UINT32_MAX) {	/* cannot happen with ext4 extents */
		orun_set_start(c, pblk);
		c->len = UINT32_MAX;
		c->cls = cls;
		c->ino = w->ino;
		c->lblk = (uint32_t)lblk;
		owalk_flush(w);
		pblk += UINT32_MAX;
		lblk += UINT32_MAX;
		len -= UINT32_MAX;
	}
	orun_set_start(c, pblk);
	c->len = len;
	c->cls = cls;
	c->ino = w->ino;
	c->lblk = (uint32_t)lblk;
	c->pad = 0;
}

/* A leaf extent (from the tree or straight from i_block). */
static void owalk_leaf(struct owalk *w, blk64_t pblk, blk64_t lblk,
		       blk64_t len)
{
	if (!len)
		return;
	owalk_add(w, pblk, len, lblk, w->data_cls);
	w->extents++;
	w->data_blocks += len;
	if (len > w->longest)
		w->longest = len;
}

/*
 * A tree of depth 0 (most files: up to 4 extents in i_block) read in
 * place, with the checks libext2fs makes on such a root (magic, entries
 * within eh_max, eh_max 2..4); anything else returns 0 and goes through
 * the extent API, which reports it the same way as before.
 */
static int owalk_inline_extents(struct owalk *w, struct ext2_inode *inode)
{
	const struct ext3_extent_header *eh = (const void *)inode->i_block;
	const struct ext3_extent *ex = (const void *)(eh + 1);
	unsigned entries, max, i;
	__u16 len;

	if (ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    eh->eh_depth)
		return 0;
	entries = ext2fs_le16_to_cpu(eh->eh_entries);
	max = ext2fs_le16_to_cpu(eh->eh_max);
	if (entries > max || max > 4 || max < 2)
		return 0;
	for (i = 0; i < entries; i++, ex++) {
		if (++w->steps > w->max_steps) {
			w->bad = 1;
			break;
		}
		len = ext2fs_le16_to_cpu(ex->ee_len);
		if (len > EXT_INIT_MAX_LEN)
			len -= EXT_INIT_MAX_LEN;
		owalk_leaf(w, ext2fs_le32_to_cpu(ex->ee_start) +
			   ((blk64_t)ext2fs_le16_to_cpu(ex->ee_start_hi) << 32),
			   ext2fs_le32_to_cpu(ex->ee_block), len);
	}
	return 1;
}

static void owalk_extents(struct owalk *w, struct ext2_inode *inode)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	if (owalk_inline_extents(w, inode))
		return;
	err = ext2fs_extent_open2(w->fs, w->ino, inode, &h);
	if (err) {
		w->bad = 1;
		return;
	}
	for (;;) {
		err = ext2fs_extent_get(h, op, &e);
		op = EXT2_EXTENT_NEXT;
		if (err) {
			if (err != EXT2_ET_EXTENT_NO_NEXT &&
			    err != EXT2_ET_NO_CURRENT_NODE)
				w->bad = 1;
			break;
		}
		if (++w->steps > w->max_steps) {
			w->bad = 1;
			break;
		}
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			if (!(e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT))
				owalk_add(w, e.e_pblk, 1, e.e_lblk,
					  OWN_MAPPING);
			continue;
		}
		owalk_leaf(w, e.e_pblk, e.e_lblk, e.e_len);
	}
	ext2fs_extent_free(h);
}

static int owalk_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		       blk64_t ref_blk, int ref_offset, void *priv)
{
	struct owalk *w = priv;
	blk64_t b = *blocknr;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (++w->steps > w->max_steps) {
		w->bad = 1;
		return BLOCK_ABORT;
	}
	if (blockcnt < 0) {
		owalk_add(w, b, 1, 0, OWN_MAPPING);
		if (w->phys_end == b)
			w->phys_end = b + 1;
		return 0;
	}
	owalk_add(w, b, 1, blockcnt, w->data_cls);
	w->data_blocks++;
	/* A physically contiguous run may step over its own indirect
	 * blocks (they are reported just before the data they map). */
	if (w->cur_ext && b == w->phys_end) {
		w->cur_ext++;
	} else {
		w->extents++;
		w->cur_ext = 1;
	}
	if (w->cur_ext > w->longest)
		w->longest = w->cur_ext;
	w->phys_end = b + 1;
	return 0;
}

/*
 * A metadata-only e2image file holds the inodes but no block they point
 * to: an inode whose map lives in blocks (an extent tree deeper than
 * i_block, indirect blocks) is walked only as far as i_block reaches, and
 * marked absent, rather than read from whatever the image holds at those
 * offsets.  Returns 1 when it did the walk.
 */
static int image_walk(struct owalk *w, struct ext2_inode *inode)
{
	const struct ext3_extent_header *eh = (const void *)inode->i_block;
	int i;

	if (inode->i_flags & EXT4_EXTENTS_FL) {
		if (ext2fs_le16_to_cpu(eh->eh_magic) == EXT3_EXT_MAGIC &&
		    !eh->eh_depth)
			return 0;	/* all in the inode */
		w->absent = 1;
		return 1;
	}
	if (inode->i_flags & EXT4_INLINE_DATA_FL)
		return 0;
	for (i = 0; i < EXT2_NDIR_BLOCKS; i++) {
		blk64_t b = inode->i_block[i];

		if (b)
			owalk_block(w->fs, &b, i, 0, 0, w);
	}
	for (; i < EXT2_N_BLOCKS; i++)
		if (inode->i_block[i])
			w->absent = 1;
	return 1;
}

void owalk_inode(struct owalk *w, ext2_ino_t ino, struct ext2_inode *inode,
		 enum owner_class cls)
{
	blk64_t acl = ext2fs_file_acl_block(w->fs, inode);
	blk64_t iblocks = ext2fs_get_stat_i_blocks(w->fs, inode);

	w->ino = ino;
	w->data_cls = cls;
	w->cur.len = 0;
	w->data_blocks = w->extents = w->longest = 0;
	w->cur_ext = w->phys_end = 0;
	w->steps = 0;
	/* Bounds a corrupted map: no inode has more entries than blocks. */
	w->max_steps = 2 * (iblocks / (w->fs->blocksize / 512)) + 64;
	w->bad = 0;
	if (acl)
		owalk_add(w, acl, 1, 0, OWN_XATTR);
	w->absent = 0;
	if (!ext2fs_inode_has_valid_blocks2(w->fs, inode))
		goto out;
	if (fs_probe_metadata_only(w->fs) && image_walk(w, inode))
		goto out;
	if (inode->i_flags & EXT4_EXTENTS_FL) {
		owalk_extents(w, inode);
	} else if (ext2fs_block_iterate3(w->fs, ino, BLOCK_FLAG_READ_ONLY,
					 NULL, owalk_block, w)) {
		w->bad = 1;
	}
out:
	owalk_flush(w);
}

int owner_special_ino(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_super_block *sb = fs->super;

	if (ino == EXT2_ROOT_INO)
		return 0;
	if (ino < EXT2_FIRST_INODE(sb))
		return 1;
	return ino == sb->s_journal_inum || ino == sb->s_usr_quota_inum ||
	       ino == sb->s_grp_quota_inum || ino == sb->s_prj_quota_inum ||
	       ino == sb->s_orphan_file_inum;
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
		/* the scan would read the tables where the filesystem has
		 * them; an e2image file has them elsewhere, which only
		 * reading by number knows */
		*ino = 0;
		if (idx->image_next < fs->super->s_inodes_count) {
			*ino = ++idx->image_next;
			err = ext2fs_read_inode_full(fs, *ino, inode, isize);
		}
	} else {
		err = ext2fs_get_next_inode_full(idx->scan, ino, inode, isize);
	}
	if (!keep)
		fs->flags &= ~EXT2_FLAG_IGNORE_CSUM_ERRORS;
	return err;
}

#define RA_GROUPS 16	/* groups whose inode tables are asked for ahead */

/*
 * Asks the kernel to start reading the used part of the inode tables of
 * the next groups while this one is walked (a cold cache then overlaps
 * I/O with the walk; a warm one pays one cheap call per group).
 */
static void scan_readahead(ext2_filsys fs, struct owner_index *idx)
{
	ext2_ino_t ipg = fs->super->s_inodes_per_group;
	dgrp_t cur = ipg ? idx->last_ino / ipg : 0, g;
	unsigned isize = EXT2_INODE_SIZE(fs->super);
	unsigned long long used, off, len;

	if (idx->rafd < 0)
		return;
	for (g = idx->ra_next; g < fs->group_desc_count && g <= cur + RA_GROUPS;
	     g++) {
		used = ipg;
		if (ext2fs_has_group_desc_csum(fs)) {
			if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT))
				continue;
			if (ext2fs_bg_itable_unused(fs, g) < ipg)
				used -= ext2fs_bg_itable_unused(fs, g);
		}
		off = (unsigned long long)ext2fs_inode_table_loc(fs, g) *
		      fs->blocksize;
		len = used * isize;
		if (!off || !len)
			continue;
		posix_fadvise(idx->rafd, off, len, POSIX_FADV_WILLNEED);
	}
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

errcode_t owner_scan_step(struct session *s, unsigned max_inodes, int *done)
{
	struct owner_index *idx;
	struct ext2_inode *inode;
	struct owalk w;
	ext2_ino_t ino;
	unsigned n;
	errcode_t err;
	int isize;

	*done = 0;
	err = owner_scan_begin(s);
	if (err)
		return err;
	idx = s->owners;
	if (idx->complete) {
		*done = 1;
		return 0;
	}
	isize = EXT2_INODE_SIZE(s->fs->super);
	inode = (struct ext2_inode *)idx->inode_buf;
	memset(&w, 0, sizeof(w));
	w.fs = s->fs;
	w.out = &idx->files;
	for (n = 0; n < max_inodes; n++) {
		if ((n & 1023) == 0)
			scan_readahead(s->fs, idx);
		err = next_inode(s->fs, idx, &ino, inode, isize);
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
		if (!ino)
			break;
		idx->last_ino = ino;
		if (!inode->i_links_count || inode->i_dtime ||
		    owner_special_ino(s->fs, ino))
			continue;
		if (!defer(s->fs, idx, ino, inode, isize)) {
			if (idx->ndefer < DEFER_MAX)
				continue;
			err = defer_flush(idx, &w, isize);
		} else {
			err = walk_one(idx, &w, ino, inode);
		}
		if (err)
			return err;
	}
	err = defer_flush(idx, &w, isize);
	if (err)
		return err;
	if (n < max_inodes) {
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
	struct owner_filefrag *f;

	st->files++;
	st->total_blocks += w->data_blocks;
	st->total_extents += w->extents;
	st->total_ideal += ideal;
	if (kept < w->data_blocks)
		st->displaced += w->data_blocks - kept;
	if (w->extents <= ideal)
		return 0;
	st->fragmented++;
	if (idx->nfrag == idx->capfrag) {
		size_t cap = idx->capfrag ? idx->capfrag * 2 : 64;

		f = realloc(idx->frag, cap * sizeof(*f));
		if (!f)
			return ENOMEM;
		idx->frag = f;
		idx->capfrag = cap;
	}
	f = &idx->frag[idx->nfrag++];
	f->ino = ino;
	f->extents = w->extents > UINT32_MAX ? UINT32_MAX : w->extents;
	f->blocks = w->data_blocks;
	f->ideal = ideal;
	return 0;
}
