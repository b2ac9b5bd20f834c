/* live_reread.c - a live session's libext2fs handle replaced by a fresh one
 * when the kernel has changed the superblock or a descriptor since. */
#include "live_reread.h"

#include <errno.h>
#include <string.h>

/* Whether the superblock or any descriptor of b differs from a's. */
static int differs(ext2_filsys a, ext2_filsys b)
{
	dgrp_t g;

	if (!a->group_desc || a->group_desc_count != b->group_desc_count ||
	    EXT2_DESC_SIZE(a->super) != EXT2_DESC_SIZE(b->super))
		return 1;
	if (memcmp(a->super, b->super, SUPERBLOCK_SIZE))
		return 1;
	for (g = 0; g < a->group_desc_count; g++)
		if (memcmp(ext2fs_group_desc(a, a->group_desc, g),
			   ext2fs_group_desc(b, b->group_desc, g),
			   EXT2_DESC_SIZE(a->super)))
			return 1;
	return 0;
}

errcode_t live_reread(struct session *s, int *changed)
{
	ext2_filsys fs = NULL;
	errcode_t err;

	*changed = 0;
	if (!s->fs || !s->live || !s->device || (s->flags & SESSION_RW) ||
	    s->extent)
		return EBUSY;
	err = ext2fs_open(s->device, EXT2_FLAG_SOFTSUPP_FEATURES |
			  EXT2_FLAG_64BITS | EXT2_FLAG_THREADS, 0, 0,
			  unix_io_manager, &fs);
	if (err)
		return err;
	if (!differs(s->fs, fs)) {
		ext2fs_close_free(&fs);
		return 0;
	}
	fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	session_invalidate(s);
	ext2fs_close_free(&s->fs);
	s->fs = fs;
	s->loaded = 0;
	*changed = 1;
	return 0;
}

void live_desc_free(ext2_filsys fs, blk64_t *blocks, __u64 *inodes)
{
	dgrp_t g;

	*blocks = 0;
	*inodes = 0;
	for (g = 0; g < fs->group_desc_count; g++) {
		*blocks += ext2fs_bg_free_blocks_count(fs, g);
		*inodes += ext2fs_bg_free_inodes_count(fs, g);
	}
	*blocks *= EXT2FS_CLUSTER_RATIO(fs);
}
