/* session_bitmaps.c - the loaded bitmaps kept in the backend each request
 * wants: debugfs's requests the rbtree debugfs loads, e2layout's own the
 * bit array (their answers differ on a damaged bitmap). */
#include "session.h"

#include <stdlib.h>
#include <string.h>

/* Bits of a conversion buffer: 1 MiB of bitmap at a time, whatever the
 * size of the filesystem. */
#define RETYPE_CHUNK (8u << 20)

int session_bitmap_want(const struct session *s, unsigned which)
{
	ext2_filsys fs = s->fs;
	unsigned long long bits;

	if (s->debugfs_bitmaps || s->debugfs)
		return EXT2FS_BMAP64_RBTREE;
	bits = which == NEED_INODE_BITMAP ? fs->super->s_inodes_count :
	       ext2fs_blocks_count(fs->super) / EXT2FS_CLUSTER_RATIO(fs);
	return bits <= (1ULL << 27) ? EXT2FS_BMAP64_BITARRAY :
				      EXT2FS_BMAP64_RBTREE;
}

/* Copies every bit of from (start .. real_end, in the bitmap's own units,
 * clusters for a bigalloc block bitmap) into to. */
static errcode_t copy_bits(ext2fs_generic_bitmap from, ext2fs_generic_bitmap to,
			   __u64 start, __u64 real_end)
{
	unsigned char *buf;
	errcode_t err = 0;
	__u64 at;

	buf = malloc(RETYPE_CHUNK / 8);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	for (at = start; at <= real_end; at += RETYPE_CHUNK) {
		unsigned n = real_end - at + 1 < RETYPE_CHUNK ?
			     (unsigned)(real_end - at + 1) : RETYPE_CHUNK;

		/* an empty rbtree answers a range without writing it */
		memset(buf, 0, (n + 7) / 8);
		err = ext2fs_get_generic_bmap_range(from, at, n, buf);
		if (!err)
			err = ext2fs_set_generic_bmap_range(to, at, n, buf);
		if (err)
			break;
	}
	free(buf);
	return err;
}

/* Rebuilds one loaded bitmap in fs->default_bitmap_type, keeping its bits
 * (changes not yet written included). */
static errcode_t retype(ext2_filsys fs, unsigned which)
{
	ext2fs_generic_bitmap old, nb = NULL;
	__u64 start, per;
	errcode_t err;

	if (which == NEED_INODE_BITMAP) {
		old = fs->inode_map;
		err = ext2fs_allocate_inode_bitmap(fs, "inode bitmap", &nb);
	} else {
		old = fs->block_map;
		err = ext2fs_allocate_block_bitmap(fs, "block bitmap", &nb);
	}
	if (err)
		return err;
	start = ext2fs_get_generic_bmap_start(old);
	/* the padding past the last group's end too, as a load sets it */
	per = which == NEED_INODE_BITMAP ? fs->super->s_inodes_per_group :
					   EXT2_CLUSTERS_PER_GROUP(fs->super);
	err = copy_bits(old, nb, start,
			start + (__u64)per * fs->group_desc_count - 1);
	if (err) {
		ext2fs_free_generic_bmap(nb);
		return err;
	}
	ext2fs_free_generic_bmap(old);
	if (which == NEED_INODE_BITMAP)
		fs->inode_map = nb;
	else
		fs->block_map = nb;
	return 0;
}

void session_bitmap_loaded(struct session *s, unsigned which)
{
	if (s->fs->default_bitmap_type == EXT2FS_BMAP64_RBTREE)
		s->rbtree_loaded |= which;
	else
		s->rbtree_loaded &= ~which;
}

errcode_t session_bitmaps_retype(struct session *s, unsigned need)
{
	static const unsigned kinds[] = { NEED_INODE_BITMAP,
					  NEED_BLOCK_BITMAP };
	int keep = s->fs->default_bitmap_type;
	errcode_t err = 0;
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]) && !err; i++) {
		unsigned which = kinds[i];
		int want, have;
		ext2fs_generic_bitmap bm = which == NEED_INODE_BITMAP ?
					   s->fs->inode_map : s->fs->block_map;

		if (!(s->loaded & need & which) || !bm)
			continue;
		want = session_bitmap_want(s, which);
		have = s->rbtree_loaded & which ? EXT2FS_BMAP64_RBTREE :
						  EXT2FS_BMAP64_BITARRAY;
		if (want == have)
			continue;
		s->fs->default_bitmap_type = want;
		err = retype(s->fs, which);
		if (!err)
			session_bitmap_loaded(s, which);
	}
	s->fs->default_bitmap_type = keep;
	return err;
}
