/* owner_image.c - the walk of an inode in a metadata-only e2image file,
 * which holds no block past the inode: what cannot be read is marked
 * absent, and the inodes are read by number where the image keeps them. */
#include "owner_int.h"

#include <ext2fs/ext3_extents.h>
/*
 * A metadata-only e2image file holds the inodes but no block they point
 * to: an inode whose map lives in blocks (an extent tree deeper than
 * i_block, indirect blocks) is walked only as far as i_block reaches, and
 * marked absent, rather than read from whatever the image holds at those
 * offsets.  Returns 1 when it did the walk.
 */
int owalk_image(struct owalk *w, struct ext2_inode *inode)
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


errcode_t owner_image_next(ext2_filsys fs, struct owner_index *idx,
			   ext2_ino_t *ino, struct ext2_inode *inode, int isize)
{
	/* the scan would read the tables where the filesystem has them; an
	 * e2image file has them elsewhere, which only reading by number
	 * knows */
	*ino = 0;
	if (idx->image_next >= fs->super->s_inodes_count)
		return 0;
	*ino = ++idx->image_next;
	return ext2fs_read_inode_full(fs, *ino, inode, isize);
}
