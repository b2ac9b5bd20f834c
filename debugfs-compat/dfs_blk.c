/* dfs_blk.c - the block argument of block_dump and zap_block: mapped
 * through -f FILE when given, then read, with debugfs's messages. */
#include "dfs_blk.h"
#include "dfs_util.h"

#include <stdlib.h>

int dfs_blk_read(struct session *s, const char *cmd, const char *file,
		 blk64_t *blk, unsigned char **buf)
{
	ext2_ino_t ino;
	errcode_t e;

	*buf = NULL;
	if (file) {
		ino = dfs_string_to_inode(s, file);
		if (!ino)
			return 1;
		e = ext2fs_bmap2(s->fs, ino, NULL, NULL, 0, *blk, NULL, blk);
		if (e) {
			out_error(s->out, cmd, e,
				  "while mapping logical block %llu\n",
				  (unsigned long long)*blk);
			return 1;
		}
	}
	*buf = malloc(s->fs->blocksize);
	if (!*buf) {
		out_error(s->out, cmd, 0, "Couldn't allocate block buffer");
		return 1;
	}
	e = io_channel_read_blk64(s->fs->io, *blk, 1, *buf);
	if (e) {
		out_error(s->out, cmd, e, "while reading block %llu\n",
			  (unsigned long long)*blk);
		free(*buf);
		*buf = NULL;
		return 1;
	}
	return 0;
}
