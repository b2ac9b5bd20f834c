/* init_filesys.c - debugfs's init_filesys: a new filesystem of BLOCKS blocks
 * made in memory by libext2fs's ext2fs_initialize on DEVICE (no tables, no
 * root directory, as in debugfs) and opened read-write; its superblock and
 * descriptors are written to DEVICE when it is closed. */
#include "cmd.h"
#include "dfs_util.h"

#include <stdlib.h>
#include <string.h>

static int do_init_filesys(struct session *s, int argc, char **argv)
{
	struct ext2_super_block param;
	ext2_filsys fs;
	blk64_t blocks;
	errcode_t err;
	int mflags = 0;

	(void)argc;	/* counted by the dispatcher */
	memset(&param, 0, sizeof(param));
	if (dfs_strtoblk2(s, argv[0], argv[2], "blocks count", &blocks))
		return CMD_FAIL;
	ext2fs_blocks_count_set(&param, blocks);
	/* e2layout never writes to a mounted filesystem (debugfs would) */
	if (!ext2fs_check_if_mounted(argv[1], &mflags) &&
	    (mflags & EXT2_MF_MOUNTED)) {
		out_error(s->out, argv[1], 0, "is mounted; refusing to "
			  "initialize it");
		return CMD_FAIL;
	}
	/* a writer like any -w session: one at a time */
	if (session_lock(s, argv[1]))
		return CMD_FAIL;
	err = ext2fs_initialize(argv[1], 0, &param, unix_io_manager, &fs);
	if (err) {
		session_unlock(s);
		out_error(s->out, argv[1], err, "while initializing filesystem");
		return CMD_FAIL;
	}
	s->device = strdup(argv[1]);
	if (!s->device) {
		session_unlock(s);
		ext2fs_free(fs);
		out_error(s->out, argv[0], EXT2_ET_NO_MEMORY, NULL);
		return CMD_FAIL;
	}
	s->fs = fs;
	s->flags = SESSION_RW;
	s->mount_flags = 0;
	s->mount_point[0] = 0;
	s->root = s->cwd = EXT2_ROOT_INO;
	/* ext2fs_initialize made the bitmaps and descriptors in memory */
	s->loaded = NEED_BITMAPS | NEED_GROUP_DESC;
	s->now = 0;
	return CMD_OK;
}

const struct cmd_entry cmd_init_filesys = {
	.name = "init_filesys",
	.synopsis = "init_filesys <device> <blocks>",
	.summary = "Initialize a filesystem in memory (DESTROYS DATA on close)",
	.flags = CMD_DEBUGFS | CMD_NEEDS_NOFS,
	.complete = COMPLETE_HOST_PATH,
	.run = do_init_filesys,
	.min_args = 3,
	.max_args = 3,
	.usage = "<device> <blocks>",
	.usage_name = "initialize",
};
