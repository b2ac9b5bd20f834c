/* dfs_blk.h - a block named on a debugfs command line (with -f FILE, a
 * logical block of that file), read, as block_dump and zap_block do. */
#ifndef E2L_DFS_BLK_H
#define E2L_DFS_BLK_H

#include "session.h"

/*
 * Reads block *blk into a new buffer *buf (fs->blocksize bytes; the
 * caller frees it).  With file (an inode spec) set, *blk is first mapped
 * from that file's logical block to the physical one.  0, or 1 after
 * printing debugfs's message ("CMD: ERR while mapping logical block N",
 * "... while reading block N") with *buf NULL.
 */
int dfs_blk_read(struct session *s, const char *cmd, const char *file,
		 blk64_t *blk, unsigned char **buf);

#endif
