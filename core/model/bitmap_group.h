/* bitmap_group.h - the block bitmap of one group read from disk as a load
 * of the whole bitmap would leave it, for readers that need a few groups
 * (owner B) or one group at a time (frag), never the whole bitmap. */
#ifndef E2L_BITMAP_GROUP_H
#define E2L_BITMAP_GROUP_H

#include <ext2fs/ext2fs.h>

#include "fs_readahead.h"

/* Can fs's block bitmap be read group by group (not an e2image file, whole
 * bytes of clusters in a group)?  0: load the whole bitmap instead. */
int bitmap_group_usable(ext2_filsys fs);

/* Bytes of one group's block bitmap (its clusters / 8). */
size_t bitmap_group_bytes(ext2_filsys fs);

/*
 * The blocks a load of the bitmap marks in use for the BLOCK_UNINIT
 * groups (their superblock and descriptors, inode table and bitmaps,
 * wherever they lie), in an rbtree: a few extents a group.  *out is NULL
 * when no group is BLOCK_UNINIT.  The caller frees it.
 */
errcode_t bitmap_group_uninit_marks(ext2_filsys fs, ext2fs_block_bitmap *out);

/*
 * Group g's block bitmap as a load of it would have it, in
 * bitmap_group_bytes(fs) bytes of buf (bit i: the group's cluster i): read
 * and its checksum checked (unless fs ignores checksum errors), or zero when
 * it is BLOCK_UNINIT with a good descriptor checksum (or points past the
 * end), with the marks of um (bitmap_group_uninit_marks, may be NULL) that
 * fall in g added; tmp is scratch of the same size.  Errors as
 * ext2fs_read_block_bitmap's: EXT2_ET_BLOCK_BITMAP_READ,
 * EXT2_ET_BLOCK_BITMAP_CSUM_INVALID.
 */
errcode_t bitmap_group_read(ext2_filsys fs, dgrp_t g, ext2fs_block_bitmap um,
			    unsigned char *buf, unsigned char *tmp);

/* bitmap_group_read of a group whose checksum a bitmap_group_read already
 * checked: the checksum not computed again. */
errcode_t bitmap_group_reread(ext2_filsys fs, dgrp_t g,
			      ext2fs_block_bitmap um, unsigned char *buf,
			      unsigned char *tmp);

/*
 * Asks the kernel to start reading the block bitmaps of groups
 * [first, last] that bitmap_group_read would read, through ra (the device
 * opened for it; no descriptor: nothing asked), runs of adjacent ones
 * (flex_bg packs them) in one call each: a scan of every group then
 * overlaps the reads with its work instead of waiting on each bitmap in
 * turn.  Nothing is asked when the last of them is in the page cache.
 */
void bitmap_group_readahead(ext2_filsys fs, struct fs_ra *ra, dgrp_t first,
			    dgrp_t last);

#endif
