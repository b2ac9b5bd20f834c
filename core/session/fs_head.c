/* fs_head.c - the first bytes of a device, read once before the open, and
 * the group descriptors asked for ahead (fs_head.h). */
#include "fs_head.h"

#include <ext2fs/ext2fs.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#define SB_OFF		1024
#define GDT_HINT_MAX	(256ULL << 20)	/* a bigger table: no hint */

/* The byte range of the primary group descriptor blocks that follow sb,
 * as ext2fs_open reads them; 0 when sb is not one to hint for. */
static unsigned long long gdt_range(struct ext2_super_block *sb,
				    unsigned long long *off)
{
	unsigned long long bs, groups, blocks, dblocks, dsz;

	if (sb->s_magic != EXT2_SUPER_MAGIC ||
	    ext2fs_has_feature_journal_dev(sb) ||
	    sb->s_log_block_size > EXT2_MAX_BLOCK_LOG_SIZE -
				   EXT2_MIN_BLOCK_LOG_SIZE ||
	    !sb->s_blocks_per_group)
		return 0;
	bs = (unsigned long long)EXT2_MIN_BLOCK_SIZE << sb->s_log_block_size;
	blocks = ext2fs_blocks_count(sb);
	if (blocks <= sb->s_first_data_block)
		return 0;
	groups = (blocks - sb->s_first_data_block + sb->s_blocks_per_group -
		  1) / sb->s_blocks_per_group;
	dsz = ext2fs_has_feature_64bit(sb) ? sb->s_desc_size :
					     EXT2_MIN_DESC_SIZE;
	if (dsz < EXT2_MIN_DESC_SIZE)
		dsz = EXT2_MIN_DESC_SIZE;
	dblocks = (groups * dsz + bs - 1) / bs;
	if (ext2fs_has_feature_meta_bg(sb) && sb->s_first_meta_bg < dblocks)
		dblocks = sb->s_first_meta_bg;
	*off = ((unsigned long long)sb->s_first_data_block + 1) * bs;
	return dblocks * bs <= GDT_HINT_MAX ? dblocks * bs : 0;
}

void fs_head_read(const char *device, struct fs_head *h, int hint_gdt)
{
	struct ext2_super_block sb;
	unsigned long long off = 0, len;
	int fd;

	h->n = -1;
	fd = open(device, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	h->n = pread(fd, h->b, sizeof(h->b), 0);
	if (hint_gdt && h->n == (ssize_t)sizeof(h->b)) {
		memcpy(&sb, h->b + SB_OFF, sizeof(sb));
#ifdef WORDS_BIGENDIAN
		ext2fs_swap_super(&sb);
#endif
		len = gdt_range(&sb, &off);
		if (len)
			posix_fadvise(fd, (off_t)off, (off_t)len,
				      POSIX_FADV_WILLNEED);
	}
	close(fd);
}

int fs_head_kind(const struct fs_head *h)
{
	const unsigned char *m = h->b + SB_OFF + 56;	/* s_magic */

	if (h->n < 0)
		return -1;	/* a directory (a mount point), ... */
	if (h->n >= 4 && !memcmp(h->b, "QFI\xfb", 4))
		return 1;
	if (h->n >= SB_OFF + 58 && m[0] == 0x53 && m[1] == 0xef)
		return 2;
	return 0;
}
