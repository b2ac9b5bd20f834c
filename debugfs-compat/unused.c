/* unused.c - `dump_unused`: every unused block that holds data, as debugfs
 * prints it (debugfs's unused.c). */
#include "cmd.h"
#include "dfs_open.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define DU_CHUNK 64	/* blocks read at once */

static int do_dump_unused(struct session *s, int argc, char **argv)
{
	ext2_filsys fs;
	blk64_t blk, end, last, n, i;
	unsigned bs;
	char *buf;
	errcode_t e;
	size_t k;

	(void)argc;	/* counted by the dispatcher */
	if ((s->flags & SESSION_CATASTROPHIC) ||
	    session_need(s, NEED_BLOCK_BITMAP)) {
		dfs_not_loaded(s, argv[0]);
		return CMD_FAIL;
	}
	fs = s->fs;
	bs = fs->blocksize;
	buf = malloc((size_t)bs * DU_CHUNK);
	if (!buf)
		return CMD_FAIL;
	blk = fs->super->s_first_data_block;
	last = ext2fs_blocks_count(fs->super) - 1;
	/* free runs only, found by range searches, read in chunks */
	while (blk <= last) {
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, blk,
							 last, &blk))
			break;
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, blk,
							last, &end))
			end = last + 1;
		while (blk < end) {
			n = end - blk < DU_CHUNK ? end - blk : DU_CHUNK;
			e = io_channel_read_blk64(fs->io, blk, n, buf);
			if (e) {
				out_error(s->out, argv[0], e,
					  "While reading block\n");
				free(buf);
				return CMD_FAIL;
			}
			for (i = 0; i < n; i++) {
				const char *b = buf + i * bs;

				for (k = 0; k < bs && !b[k]; k++)
					;
				if (k == bs)
					continue;
				out_printf(s->out, "\nUnused block %llu "
					   "contains non-zero data:\n\n",
					   (unsigned long long)(blk + i));
				out_write(s->out, b, bs);
			}
			blk += n;
		}
	}
	free(buf);
	return CMD_OK;
}

const struct cmd_entry cmd_dump_unused = {
	.name = "dump_unused",
	.synopsis = "dump_unused",
	.summary = "Dump the free blocks that hold non-zero data",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS,
	.run = do_dump_unused,
	.min_args = 1,
	.max_args = 1,
	.usage = "",
	.usage_name = "dump_unused",
};
