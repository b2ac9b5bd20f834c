/* live_reread.h - reading a mounted filesystem's on-disk state again: the
 * kernel changes descriptors and bitmaps under a live session, which a
 * libext2fs handle read once no longer shows. */
#ifndef E2L_LIVE_REREAD_H
#define E2L_LIVE_REREAD_H

#include "session.h"

/*
 * Opens s's device again (read-only, a new libext2fs handle: its caches
 * start empty and the block device's page cache, which the kernel writes
 * metadata through, is read afresh) and, when the superblock or any group
 * descriptor differs from what s->fs holds, replaces s->fs with it (the
 * models built from the old one are dropped) and sets *changed.  Only for
 * a live, read-only session with no extent handle open (EBUSY otherwise).
 * On failure s->fs is left as it was.
 */
errcode_t live_reread(struct session *s, int *changed);

/* The free blocks and inodes the group descriptors hold (the superblock's
 * totals lag on a mounted ext4: the kernel writes them only now and then). */
void live_desc_free(ext2_filsys fs, blk64_t *blocks, __u64 *inodes);

#endif
