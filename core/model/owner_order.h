/* owner_order.h - the order a probe scan reads the inode tables in. */
#ifndef E2L_OWNER_ORDER_H
#define E2L_OWNER_ORDER_H

#include <ext2fs/ext2fs.h>

/*
 * Every group of fs once, in *out (the caller frees it): first those
 * whose inodes likely own blks[0..n) (told by a block of the first in-use
 * inode of a few groups' tables: a binary search per block), then the
 * others by their distance to the nearest of those.  An order only: a
 * scan that reads every group in it reads every inode.
 */
errcode_t owner_probe_order(ext2_filsys fs, const blk64_t *blks, size_t n,
			    dgrp_t **out);

#endif
