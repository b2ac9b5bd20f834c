/* session_load.c - loading what the commands need only when they first
 * need it: the group descriptors after a superblock-only open, and the
 * bitmaps (read ahead when cold). */
#include "session.h"
#include "gdt_loc.h"
#include "fs_readahead.h"

/* Reads every descriptor block into fs->group_desc, as ext2fs_open would
 * have, contiguous blocks in one read. */
errcode_t session_load_group_desc(ext2_filsys fs)
{
	blk64_t start = 0, blk;
	dgrp_t i, run = 0;
	char *table = NULL;
	errcode_t err;

	if (fs->group_desc)
		return 0;
	err = ext2fs_get_array(fs->desc_blocks, fs->blocksize, &table);
	if (err)
		return err;
	for (i = 0; i <= fs->desc_blocks; i++) {
		blk = i < fs->desc_blocks ?
			gdt_block_loc(fs, i) : 0;
		if (run && i < fs->desc_blocks && blk == start + run) {
			run++;
			continue;
		}
		if (run) {
			err = io_channel_read_blk64(fs->io, start, run,
				table + (size_t)(i - run) * fs->blocksize);
			if (err)
				goto out;
		}
		start = blk;
		run = 1;
	}
#ifdef WORDS_BIGENDIAN
	for (i = 0; i < fs->group_desc_count; i++)
		ext2fs_swap_group_desc2(fs, ext2fs_group_desc(fs,
			(struct opaque_ext2_group_desc *)table, i));
#endif
	fs->group_desc = (struct opaque_ext2_group_desc *)table;
	table = NULL;
	fs->flags &= ~EXT2_FLAG_SUPER_ONLY;
	fs->flags |= EXT2_FLAG_THREADS;
out:
	ext2fs_free_mem(&table);
	return err;
}

/*
 * Before libext2fs reads one bitmap block per initialised group (8,192
 * scattered blocks on 16 TiB): when the last initialised group's bitmap is
 * not in the page cache, ask the kernel for all of them at once, so that a
 * cold read proceeds in parallel rather than one seek at a time (warm, the
 * test is the one call made).
 */
static void bitmap_readahead(struct session *s, int inode_bitmaps)
{
	ext2_filsys fs = s->fs;
	int csum = ext2fs_has_group_desc_csum(fs);
	__u16 uninit = inode_bitmaps ? EXT2_BG_INODE_UNINIT :
				       EXT2_BG_BLOCK_UNINIT;
	struct fs_ra ra;
	blk64_t blk;
	dgrp_t g, probe;

	if (fs->group_desc_count < 64)
		return;
	fs_ra_open(&ra, fs, s->device);
	if (ra.fd < 0)
		return;
	for (probe = fs->group_desc_count; probe > 0; probe--)
		if (!csum || !ext2fs_bg_flags_test(fs, probe - 1, uninit))
			break;
	if (probe && fs_ra_cached(&ra, inode_bitmaps ?
				  ext2fs_inode_bitmap_loc(fs, probe - 1) :
				  ext2fs_block_bitmap_loc(fs, probe - 1)))
		goto out;
	for (g = 0; g < fs->group_desc_count; g++) {
		blk = 0;
		if (!(csum && ext2fs_bg_flags_test(fs, g, uninit)))
			blk = inode_bitmaps ? ext2fs_inode_bitmap_loc(fs, g) :
					      ext2fs_block_bitmap_loc(fs, g);
		/* a group not read ends a stretch (the hints as before) */
		if (blk)
			fs_ra_add(&ra, blk, 1);
		else
			fs_ra_flush(&ra);
	}
out:
	fs_ra_close(&ra);
}

void session_bitmap_type(ext2_filsys fs, unsigned long long bits)
{
	/* a plain bit array up to 16 MiB: a fragmented filesystem's rbtree
	 * costs more (48 bytes an extent) and is slower to search; beyond
	 * that (a large, mostly empty device) the rbtree */
	fs->default_bitmap_type = bits <= (1ULL << 27) ?
				  EXT2FS_BMAP64_BITARRAY :
				  EXT2FS_BMAP64_RBTREE;
}

errcode_t session_need(struct session *s, unsigned need)
{
	errcode_t err;

	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (s->loaded & need & NEED_BITMAPS) {
		/* loaded for a request that wanted the other backend */
		err = session_bitmaps_retype(s, need);
		if (err)
			return err;
	}
	need &= ~s->loaded;
	if (!need)
		return 0;
	if (need & (NEED_GROUP_DESC | NEED_BITMAPS)) {
		err = session_load_group_desc(s->fs);
		if (err)
			return err;
		need &= ~NEED_GROUP_DESC;	/* not kept in s->loaded */
		if (!need)
			return 0;
	}
	if (s->flags & SESSION_CATASTROPHIC)
		return EXT2_ET_NO_BLOCK_BITMAP;
	/*
	 * TODO(perf): load per group on demand (most groups of a large
	 * filesystem are BLOCK_UNINIT); the API already lets callers say
	 * what they need so that this can change without touching them.
	 */
	if (need & NEED_INODE_BITMAP)
		bitmap_readahead(s, 1);
	if (need & NEED_BLOCK_BITMAP)
		bitmap_readahead(s, 0);
	if (need & NEED_INODE_BITMAP) {
		s->fs->default_bitmap_type =
			session_bitmap_want(s, NEED_INODE_BITMAP);
		err = ext2fs_read_inode_bitmap(s->fs);
		if (err)
			return err;
		s->loaded |= NEED_INODE_BITMAP;
		session_bitmap_loaded(s, NEED_INODE_BITMAP);
	}
	if (need & NEED_BLOCK_BITMAP) {
		s->fs->default_bitmap_type =
			session_bitmap_want(s, NEED_BLOCK_BITMAP);
		err = ext2fs_read_block_bitmap(s->fs);
		if (err)
			return err;
		s->loaded |= NEED_BLOCK_BITMAP;
		session_bitmap_loaded(s, NEED_BLOCK_BITMAP);
	}
	return 0;
}
