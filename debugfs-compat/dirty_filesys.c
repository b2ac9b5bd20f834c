/* dirty_filesys.c - `dirty [-clean]`: marks the superblock dirty (or, with
 * -clean, valid) for the write-back at close. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <string.h>

/* "dirty [-clean]": any other argument also marks the filesystem dirty. */
static int do_dirty(struct session *s, int argc, char **argv)
{
	if (dfs_check_open(s, argv[0]) || dfs_check_rw(s, argv[0]))
		return CMD_FAIL;
	if (argc > 1 && !strcmp(argv[1], "-clean"))
		s->fs->super->s_state |= EXT2_VALID_FS;
	else
		s->fs->super->s_state &= ~EXT2_VALID_FS;
	ext2fs_mark_super_dirty(s->fs);
	session_invalidate(s);
	return CMD_OK;
}

static const char *const dirty_aliases[] = {"dirty", NULL};
const struct cmd_entry cmd_dirty_filesys = {
	.name = "dirty_filesys",
	.aliases = dirty_aliases,
	.synopsis = "dirty_filesys [-clean]",
	.summary = "Mark the filesystem as not cleanly unmounted (or clean)",
	.options = "-clean",
	.flags = CMD_WRITES | CMD_DEBUGFS,
	.run = do_dirty,
};
