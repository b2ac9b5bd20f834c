/* plan_dirent.c - prealloc's new directory entry: at plan time, whether it
 * fits in the directory's blocks (the leaf its hash picks, in an indexed
 * directory) and, when not, the free blocks the directory will grow into;
 * at apply time, linking it so that the directory grows into exactly those
 * blocks and nowhere else (least of all into the plan's new run). */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#define DX_ROOT_OFF	24	/* struct ext2_dx_root_info in block 0 */

/* Would link_proc (lib/ext2fs/link.c) find room for an entry of rec_len
 * bytes in this directory block?  It splits a used entry with slack or
 * takes an unused one, merging a following unused one first. */
static int block_fits(ext2_filsys fs, const char *buf, unsigned need)
{
	unsigned csum = 0, end = fs->blocksize, off = 0, len, next_len, min;
	const struct ext2_dir_entry *d, *next;

	if (ext2fs_has_feature_metadata_csum(fs->super))
		csum = sizeof(struct ext2_dir_entry_tail);
	end -= csum;
	while (off + 8 <= end) {
		d = (const struct ext2_dir_entry *)(buf + off);
		if (ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)d, &len) ||
		    len < 8 || off + len > fs->blocksize)
			return 0;	/* damaged: e2fsck's business */
		if (off + len < fs->blocksize - (8 + csum)) {
			next = (const struct ext2_dir_entry *)(buf + off + len);
			if (!next->inode &&
			    !ext2fs_get_rec_len(fs, (struct ext2_dir_entry *)
						next, &next_len) &&
			    off + len + next_len <= fs->blocksize)
				len += next_len;
		}
		min = d->inode ?
		      EXT2_DIR_REC_LEN(ext2fs_dirent_name_len(d)) : 0;
		if (len >= min + need)
			return 1;
		off += len;
	}
	return 0;
}

static errcode_t read_lblk(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode *di, blk64_t lblk, char *buf)
{
	blk64_t pblk = 0;
	errcode_t err;

	err = ext2fs_bmap2(fs, dir, di, NULL, 0, lblk, NULL, &pblk);
	if (!err && !pblk)
		err = EXT2_ET_DIR_CORRUPTED;
	if (!err)
		err = ext2fs_read_dir_block4(fs, pblk, buf, 0, dir);
	return err;
}

/* An indexed directory: the leaf the name's hash leads to, as dx_lookup
 * (lib/ext2fs/link.c) walks the tree. */
static errcode_t dx_leaf(ext2_filsys fs, ext2_ino_t dir,
			 struct ext2_inode *di, const char *name, char *buf,
			 blk64_t *leaf)
{
	const struct ext2_dx_root_info *root;
	const struct ext2_dx_entry *e;
	const struct ext2_dx_countlimit *cl;
	__u32 hash, minor, h;
	int alg, level, levels, count, lo, hi, mid;
	unsigned off;
	errcode_t err;

	err = read_lblk(fs, dir, di, 0, buf);
	if (err)
		return err;
	root = (const struct ext2_dx_root_info *)(buf + DX_ROOT_OFF);
	alg = root->hash_version;
	if (alg != EXT2_HASH_TEA && alg != EXT2_HASH_HALF_MD4 &&
	    alg != EXT2_HASH_LEGACY)
		return EXT2_ET_DIRHASH_UNSUPP;
	if (alg <= EXT2_HASH_TEA &&
	    (fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
		alg += 3;
	levels = root->indirect_levels;
	if (levels >= 3)
		return EXT2_ET_DIR_CORRUPTED;
	err = ext2fs_dirhash2(alg, name, strlen(name), fs->encoding,
			      di->i_flags & EXT4_CASEFOLD_FL,
			      fs->super->s_hash_seed, &hash, &minor);
	if (err)
		return err;
	off = DX_ROOT_OFF + root->info_length;
	for (level = 0;; level++) {
		if (off + 8 > fs->blocksize)
			return EXT2_ET_DIR_CORRUPTED;
		cl = (const struct ext2_dx_countlimit *)(buf + off);
		e = (const struct ext2_dx_entry *)(buf + off);
		count = ext2fs_le16_to_cpu(cl->count);
		if (count < 1 || off + count * 8 > fs->blocksize)
			return EXT2_ET_DIR_CORRUPTED;
		/* the last entry whose hash is <= the name's */
		lo = 1;
		hi = count - 1;
		while (lo <= hi) {
			mid = lo + (hi - lo) / 2;
			h = ext2fs_le32_to_cpu(e[mid].hash);
			if (h > hash)
				hi = mid - 1;
			else
				lo = mid + 1;
		}
		*leaf = ext2fs_le32_to_cpu(e[lo - 1].block) & 0x0fffffff;
		if (level == levels)
			return 0;
		err = read_lblk(fs, dir, di, *leaf, buf);
		if (err)
			return err;
		off = 8;	/* past the node's empty dirent */
	}
}

struct fit_scan {
	ext2_ino_t dir;
	unsigned need;
	char *buf;
	int fits;
	errcode_t err;
};

static int fit_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		     blk64_t ref_blk, int ref_off, void *priv)
{
	struct fit_scan *f = priv;

	(void)ref_blk;
	(void)ref_off;
	if (blockcnt < 0)
		return 0;
	f->err = ext2fs_read_dir_block4(fs, *blocknr, f->buf, 0, f->dir);
	if (f->err)
		return BLOCK_ABORT;
	if (block_fits(fs, f->buf, f->need)) {
		f->fits = 1;
		return BLOCK_ABORT;
	}
	return 0;
}

errcode_t plan_dir_fits(ext2_filsys fs, ext2_ino_t dir, const char *name,
			int *fits)
{
	struct ext2_inode di;
	struct fit_scan f = {dir, EXT2_DIR_REC_LEN(strlen(name)), NULL, 0, 0};
	blk64_t leaf;
	errcode_t err;

	*fits = 0;
	err = ext2fs_read_inode(fs, dir, &di);
	if (err)
		return err;
	if (di.i_flags & EXT4_INLINE_DATA_FL)
		return 0;	/* grows out of the inode into a block */
	err = ext2fs_get_mem(fs->blocksize, &f.buf);
	if (err)
		return err;
	if (di.i_flags & EXT2_INDEX_FL) {
		err = dx_leaf(fs, dir, &di, name, f.buf, &leaf);
		if (!err)
			err = read_lblk(fs, dir, &di, leaf, f.buf);
		if (!err)
			*fits = block_fits(fs, f.buf, f.need);
	} else {
		err = ext2fs_block_iterate3(fs, dir, BLOCK_FLAG_READ_ONLY |
					    BLOCK_FLAG_DATA_ONLY, NULL,
					    fit_block, &f);
		if (!err)
			err = f.err;
		*fits = f.fits;
	}
	ext2fs_free_mem(&f.buf);
	return err;
}

errcode_t plan_dir_reserve(ext2_filsys fs, struct plan *p, ext2_ino_t dir)
{
	blk64_t goal, b, end = ext2fs_blocks_count(fs->super) - 1;
	struct ext2_inode di;
	int k = 0, wrapped = 0;
	errcode_t err;

	err = ext2fs_read_inode(fs, dir, &di);
	if (err)
		return err;
	goal = ext2fs_find_inode_goal(fs, dir, &di, 0);
	if (goal < fs->super->s_first_data_block || goal > end)
		goal = fs->super->s_first_data_block;
	for (b = goal; k < 2;) {
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, b, end,
							 &b)) {
			if (wrapped++)
				return EXT2_ET_BLOCK_ALLOC_FAIL;
			b = fs->super->s_first_data_block;
			continue;
		}
		if (b >= p->target && b < p->target + p->target_len) {
			b = p->target + p->target_len;
			if (b > end) {
				if (wrapped++)
					return EXT2_ET_BLOCK_ALLOC_FAIL;
				b = fs->super->s_first_data_block;
			}
			continue;
		}
		p->dir_blocks[k++] = b++;
		if (b > end && k < 2) {
			if (wrapped++)
				return EXT2_ET_BLOCK_ALLOC_FAIL;
			b = fs->super->s_first_data_block;
		}
	}
	return 0;
}

/* The blocks the directory may grow into, handed out in turn. */
struct dir_grow {
	const struct plan *p;
	int used;
};

static errcode_t grow_into(ext2_filsys fs, blk64_t goal, blk64_t *ret)
{
	struct dir_grow *g = fs->priv_data;

	(void)goal;
	if (!g || g->used >= 2 || !g->p->dir_blocks[g->used] ||
	    g->p->dir_blocks[g->used] < fs->super->s_first_data_block ||
	    g->p->dir_blocks[g->used] >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_BLOCK_ALLOC_FAIL;	/* not in the plan */
	if (ext2fs_test_block_bitmap2(fs->block_map,
				      g->p->dir_blocks[g->used]))
		return EXT2_ET_BLOCK_ALLOC_FAIL;	/* taken since */
	*ret = g->p->dir_blocks[g->used++];
	return 0;
}

/* ext2fs_fallocate's allocations (an indexed directory grows that way):
 * one reserved block at a time; a fixed goal only when it is that block. */
static errcode_t grow_range(ext2_filsys fs, int flags, blk64_t goal,
			    blk64_t len, blk64_t *pblk, blk64_t *plen)
{
	struct dir_grow *g = fs->priv_data;
	blk64_t b;
	errcode_t err;

	if (!g || g->used >= 2)
		return EXT2_ET_BLOCK_ALLOC_FAIL;
	b = g->p->dir_blocks[g->used];
	if (((flags & EXT2_NEWRANGE_FIXED_GOAL) && goal != b) ||
	    ((flags & EXT2_NEWRANGE_MIN_LENGTH) && len > 1))
		return EXT2_ET_BLOCK_ALLOC_FAIL;
	err = grow_into(fs, goal, pblk);
	if (!err)
		*plen = 1;
	return err;
}

static int cmp_grp(const void *a, const void *b)
{
	dgrp_t x = *(const dgrp_t *)a, y = *(const dgrp_t *)b;

	return x < y ? -1 : x > y;
}

errcode_t plan_dir_link(ext2_filsys fs, const struct plan *p, ext2_ino_t ino)
{
	errcode_t (*old_cb)(ext2_filsys, blk64_t, blk64_t *) = NULL;
	errcode_t (*old_range)(ext2_filsys, int, blk64_t, blk64_t, blk64_t *,
			       blk64_t *) = NULL;
	struct dir_grow g = {p, 0};
	void *old_priv = fs->priv_data;
	blk64_t free_before = ext2fs_free_blocks_count(fs->super);
	dgrp_t grp[2];
	errcode_t err;
	int i, n = 0;

	/*
	 * Every allocation goes to the reserved blocks (the callback), and
	 * none can land in the new run: it is held in use, in memory only,
	 * while the entry is made.
	 */
	ext2fs_mark_block_bitmap_range2(fs->block_map, p->target,
					p->target_len);
	fs->priv_data = &g;
	ext2fs_set_alloc_block_callback(fs, grow_into, &old_cb);
	ext2fs_set_new_range_callback(fs, grow_range, &old_range);
	err = ext2fs_link(fs, p->ino, p->create_name, ino, EXT2_FT_REG_FILE);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, p->ino);
		if (!err)
			err = ext2fs_link(fs, p->ino, p->create_name, ino,
					  EXT2_FT_REG_FILE);
	}
	ext2fs_set_alloc_block_callback(fs, old_cb, NULL);
	ext2fs_set_new_range_callback(fs, old_range, NULL);
	fs->priv_data = old_priv;
	ext2fs_unmark_block_bitmap_range2(fs->block_map, p->target,
					  p->target_len);
	if (err)
		return err;
	/* an allocation past the callback would be a block the plan does
	 * not know: refuse (the transaction is dropped) */
	if (free_before - ext2fs_free_blocks_count(fs->super) !=
	    (blk64_t)g.used)
		return EXT2_ET_BLOCK_ALLOC_FAIL;
	for (i = 0; i < g.used; i++)
		grp[n++] = ext2fs_group_of_blk2(fs, p->dir_blocks[i]);
	if (n == 2 && grp[0] == grp[1])
		n = 1;
	if (n == 2)
		qsort(grp, n, sizeof(*grp), cmp_grp);
	/* their bitmap bits and counters, in the same transaction */
	return n ? plan_commit_groups(fs, grp, n) : 0;
}
