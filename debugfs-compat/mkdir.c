/* mkdir.c - debugfs's directory requests that write: mkdir, rmdir and
 * expand_dir, with debugfs 1.47.0's messages and side effects. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"


static errcode_t make_dir(struct session *s, char *name)
{
	ext2_ino_t parent;
	errcode_t err;

	err = dfs_wr_parent(s, &name, &parent);
	if (err) {
		out_error(s->out, name, err, "while looking up \"%s\"", name);
		return err;
	}
	err = dfs_wr_name_check(name);
	if (!err)
		err = ext2fs_mkdir(s->fs, parent, 0, name);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(s->fs, parent);
		if (err) {
			out_error(s->out, "do_mkdir_internal", err,
				  "while expanding directory");
			return err;
		}
		err = ext2fs_mkdir(s->fs, parent, 0, name);
	}
	if (err)
		out_error(s->out, "ext2fs_mkdir", err,
			  "while creating directory \"%s\"", name);
	return err;
}

static int do_mkdir(struct session *s, int argc, char **argv)
{
	errcode_t err;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	err = make_dir(s, argv[1]);
	if (err) {
		out_error(s->out, argv[0], err, NULL);
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_mkdir = {
	.name = "mkdir",
	.synopsis = "mkdir <filename>",
	.summary = "Create a directory",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_mkdir,
	.min_args = 2,
	.max_args = 2,
	.usage = "<filename>",
	.usage_name = "mkdir",
};

struct rmdir_scan {
	ext2_ino_t parent;
	int empty;
};

static int rmdir_entry(ext2_ino_t dir, int entry, struct ext2_dir_entry *d,
		       int offset, int blocksize, char *buf, void *priv)
{
	struct rmdir_scan *r = priv;
	int len = ext2fs_dirent_name_len(d);

	(void)dir;
	(void)entry;
	(void)offset;
	(void)blocksize;
	(void)buf;
	if (!d->inode)
		return 0;
	if (len == 1 && d->name[0] == '.')
		return 0;
	if (len == 2 && d->name[0] == '.' && d->name[1] == '.') {
		r->parent = d->inode;
		return 0;
	}
	r->empty = 0;
	return 0;
}

static int do_rmdir(struct session *s, int argc, char **argv)
{
	struct rmdir_scan r = { 0, 1 };
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]) ||
	    dfs_wr_resolve(s, argv[0], argv[1], &ino, &inode))
		return CMD_FAIL;
	if (!LINUX_S_ISDIR(inode.i_mode)) {
		out_error(s->out, argv[0], 0, "file is not a directory");
		return CMD_FAIL;
	}
	err = ext2fs_dir_iterate2(s->fs, ino, 0, NULL, rmdir_entry, &r);
	if (err) {
		out_error(s->out, argv[0], err,
			  "while iterating over directory");
		return CMD_FAIL;
	}
	if (!r.empty) {
		out_error(s->out, argv[0], 0, "directory not empty");
		return CMD_FAIL;
	}
	inode.i_links_count = 0;
	if (dfs_wr_write_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	dfs_wr_unlink_by_name(s, argv[1]);
	dfs_wr_kill_inode(s, ino);
	if (!r.parent)
		return CMD_OK;
	if (dfs_read_inode(s, r.parent, &inode, argv[0]))
		return CMD_FAIL;
	if (inode.i_links_count > 1)
		inode.i_links_count--;
	return dfs_wr_write_inode(s, r.parent, &inode, argv[0]) ?
	       CMD_FAIL : CMD_OK;
}

const struct cmd_entry cmd_rmdir = {
	.name = "rmdir",
	.synopsis = "rmdir <filename>",
	.summary = "Remove a directory",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_rmdir,
	.min_args = 2,
	.max_args = 2,
	.usage = "<filename>",
	.usage_name = "rmdir",
};

static int do_expand_dir(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino;
	errcode_t err;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino) || dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	err = ext2fs_expand_dir(s->fs, ino);
	if (err) {
		out_error(s->out, "ext2fs_expand_dir", err, NULL);
		return CMD_FAIL;
	}
	return CMD_OK;
}

static const char *const expand_aliases[] = {"expand", NULL};
const struct cmd_entry cmd_expand_dir = {
	.name = "expand_dir",
	.aliases = expand_aliases,
	.synopsis = "expand_dir <file>",
	.summary = "Expand directory",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_expand_dir,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};
