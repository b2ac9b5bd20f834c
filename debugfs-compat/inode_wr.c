/* inode_wr.c - debugfs's low-level inode writes: clri, copy_inode and
 * kill_file (dirty_filesys is in dirty_filesys.c). */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <string.h>

static int do_clri(struct session *s, int argc, char **argv)
{
	struct ext2_inode inode;
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino) ||
	    dfs_read_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	session_invalidate(s);
	memset(&inode, 0, sizeof(inode));
	return dfs_wr_write_inode(s, ino, &inode, argv[0]) ? CMD_FAIL
							   : CMD_OK;
}

const struct cmd_entry cmd_clri = {
	.name = "clri",
	.synopsis = "clri <file>",
	.summary = "Clear an inode's contents (its first 128 bytes)",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_clri,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

/* debugfs copies through a 4 KiB buffer: the whole on-disk inode. */
#define COPY_INODE_BUF 4096

static int do_copy_inode(struct session *s, int argc, char **argv)
{
	union {
		struct ext2_inode inode;
		unsigned char raw[COPY_INODE_BUF];
	} buf;
	ext2_ino_t src, dst;
	errcode_t err;

	(void)argc;	/* counted by the dispatcher */
	src = dfs_string_to_inode(s, argv[1]);
	if (!src)
		return CMD_FAIL;
	dst = dfs_string_to_inode(s, argv[2]);
	if (!dst)
		return CMD_FAIL;
	err = ext2fs_read_inode2(s->fs, src, &buf.inode, sizeof(buf), 0);
	if (err) {
		out_error(s->out, argv[0], err, "while reading inode %u", src);
		return CMD_FAIL;
	}
	session_invalidate(s);
	err = ext2fs_write_inode2(s->fs, dst, &buf.inode, sizeof(buf), 0);
	if (err) {
		out_error(s->out, argv[0], err, "while writing inode %u", dst);
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_copy_inode = {
	.name = "copy_inode",
	.synopsis = "copy_inode <source file> <dest_name>",
	.summary = "Copy one inode's on-disk contents over another's",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_copy_inode,
	.min_args = 3,
	.max_args = 3,
	.usage = "<source file> <dest_name>",
	.usage_name = "copy_inode",
};

static int do_kill_file(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino) || dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	dfs_wr_kill_inode(s, ino);
	return CMD_OK;
}

const struct cmd_entry cmd_kill_file = {
	.name = "kill_file",
	.synopsis = "kill_file <file>",
	.summary = "Deallocate an inode and its blocks (its names stay)",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_kill_file,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};
