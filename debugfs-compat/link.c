/* link.c - debugfs's namespace requests that write: link, unlink, rm,
 * symlink, mknod and undelete, as debugfs 1.47.0 does them. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int do_link(struct session *s, int argc, char **argv)
{
	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	return dfs_wr_make_link(s, argv[1], argv[2]) ? CMD_FAIL : CMD_OK;
}

static const char *const link_aliases[] = {"ln", NULL};
const struct cmd_entry cmd_link = {
	.name = "link",
	.aliases = link_aliases,
	.synopsis = "link <source file> <dest_name>",
	.summary = "Create directory link",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_link,
	.min_args = 3,
	.max_args = 3,
	.usage = "<source file> <dest_name>",
	.usage_name = "link",
};

static int do_unlink(struct session *s, int argc, char **argv)
{
	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	dfs_wr_unlink_by_name(s, argv[1]);
	return CMD_OK;
}

const struct cmd_entry cmd_unlink = {
	.name = "unlink",
	.synopsis = "unlink <pathname>",
	.summary = "Delete a directory link",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_unlink,
	.min_args = 2,
	.max_args = 2,
	.usage = "<pathname>",
	.usage_name = "link",
};

static int do_rm(struct session *s, int argc, char **argv)
{
	struct ext2_inode inode;
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]) ||
	    dfs_wr_resolve(s, argv[0], argv[1], &ino, &inode))
		return CMD_FAIL;
	if (LINUX_S_ISDIR(inode.i_mode)) {
		out_error(s->out, argv[0], 0, "file is a directory");
		return CMD_FAIL;
	}
	--inode.i_links_count;
	if (dfs_wr_write_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	dfs_wr_unlink_by_name(s, argv[1]);
	if (inode.i_links_count == 0)
		dfs_wr_kill_inode(s, ino);
	return CMD_OK;
}

const struct cmd_entry cmd_rm = {
	.name = "rm",
	.synopsis = "rm <filename>",
	.summary = "Remove a file (unlink and kill_file, if appropriate)",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_rm,
	.min_args = 2,
	.max_args = 2,
	.usage = "<filename>",
	.usage_name = "rm",
};

static int do_symlink(struct session *s, int argc, char **argv)
{
	ext2_ino_t parent;
	errcode_t err;
	char *name = argv[1];

	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	err = dfs_wr_parent(s, &name, &parent);
	if (err) {
		out_error(s->out, name, err, NULL);
		goto fail;
	}
	err = dfs_wr_name_check(name);
	if (!err)
		err = ext2fs_symlink(s->fs, parent, 0, name, argv[2]);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(s->fs, parent);
		if (err) {
			out_error(s->out, "do_symlink_internal", err,
				  "while expanding directory");
			goto fail;
		}
		err = ext2fs_symlink(s->fs, parent, 0, name, argv[2]);
	}
	if (!err)
		return CMD_OK;
	out_error(s->out, "ext2fs_symlink", err,
		  "while creating symlink \"%s\"", name);
fail:
	out_error(s->out, argv[0], err, NULL);
	return CMD_FAIL;
}

const struct cmd_entry cmd_symlink = {
	.name = "symlink",
	.synopsis = "symlink <filename> <target>",
	.summary = "Create a symbolic link",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_symlink,
	.min_args = 3,
	.max_args = 3,
	.usage = "<filename> <target>",
	.usage_name = "symlink",
};

/* debugfs's do_mknod_internal: the inode has no permission bits. */
static errcode_t make_node(struct session *s, const char *name,
			   unsigned mode, int ftype, unsigned long major,
			   unsigned long minor)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	ext2_ino_t ino;
	errcode_t err;

	/* a name libext2fs cannot hold fails as its link would, before
	 * anything is allocated */
	err = dfs_wr_name_check(name);
	if (err) {
		out_error(s->out, name, err, "while creating inode \"%s\"",
			  name);
		return err;
	}
	err = ext2fs_new_inode(fs, s->cwd, 010755, 0, &ino);
	if (err) {
		out_error(s->out, "do_mknod_internal", err,
			  "while allocating inode \"%s\"", name);
		return err;
	}
	out_printf(s->out, "Allocated inode: %u\n", ino);
	err = ext2fs_link(fs, s->cwd, name, ino, ftype);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, s->cwd);
		if (err) {
			out_error(s->out, "do_mknod_internal", err,
				  "while expanding directory");
			return err;
		}
		err = ext2fs_link(fs, s->cwd, name, ino, ftype);
	}
	if (err) {
		out_error(s->out, name, err, "while creating inode \"%s\"",
			  name);
		return err;
	}
	if (ext2fs_test_inode_bitmap2(fs->inode_map, ino))
		out_error(s->out, "do_mknod_internal", 0,
			  "Warning: inode already set");
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = mode;
	inode.i_atime = inode.i_ctime = inode.i_mtime = dfs_wr_time(s);
	/* debugfs stores the numbers for FIFOs too (they are 0 there) */
	if (major < 256 && minor < 256) {
		inode.i_block[0] = major * 256 + minor;
	} else {
		inode.i_block[1] = (minor & 0xff) | (major << 8) |
				   ((minor & ~0xffUL) << 12);
	}
	inode.i_links_count = 1;
	err = ext2fs_write_new_inode(fs, ino, &inode);
	if (err)
		out_error(s->out, "do_mknod_internal", err,
			  "while writing inode %u", ino);
	return err;
}

static int do_mknod(struct session *s, int argc, char **argv)
{
	unsigned long major = 0, minor = 0;
	unsigned mode = 0;
	int nr = 0, ftype = 0;
	char *e1, *e2;
	errcode_t err;

	if (argc < 3 || argv[2][1])
		goto usage;
	switch (argv[2][0]) {
	case 'p':
		mode = LINUX_S_IFIFO;
		ftype = EXT2_FT_FIFO;
		nr = 3;
		break;
	case 'c':
		mode = LINUX_S_IFCHR;
		ftype = EXT2_FT_CHRDEV;
		nr = 5;
		break;
	case 'b':
		mode = LINUX_S_IFBLK;
		ftype = EXT2_FT_BLKDEV;
		nr = 5;
		break;
	}
	/* debugfs 1.47.0 reads argv[3..4] unchecked (and crashes) */
	if (nr == 5 && argc == 5) {
		major = strtoul(argv[3], &e1, 0);
		minor = strtoul(argv[4], &e2, 0);
		if (major > 65535 || minor > 65535 || *e1 || *e2)
			nr = 0;
	}
	if (argc != nr)
		goto usage;
	if (dfs_check_rw(s, argv[0]) || dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	err = make_node(s, argv[1], mode, ftype, major, minor);
	if (err) {
		out_error(s->out, argv[0], err, NULL);
		return CMD_FAIL;
	}
	return CMD_OK;
usage:
	out_error(s->out, argv[0], 0,
		  "Usage: mknod <name> [p| [c|b] <major> <minor>]");
	return CMD_FAIL;
}

const struct cmd_entry cmd_mknod = {
	.name = "mknod",
	.synopsis = "mknod <name> [p| [c|b] <major> <minor>]",
	.summary = "Create a special file",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_OPEN_FIRST | CMD_WRITES,
	.complete = COMPLETE_PATH,
	.run = do_mknod,
};

static int mark_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		      blk64_t ref_block, int ref_offset, void *priv)
{
	(void)blockcnt;
	(void)ref_block;
	(void)ref_offset;
	(void)priv;
	ext2fs_block_alloc_stats2(fs, *blocknr, +1);
	return 0;
}

static int do_undel(struct session *s, int argc, char **argv)
{
	struct ext2_inode inode;
	ext2_ino_t ino, dir;

	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	ino = dfs_string_to_inode(s, argv[1]);
	if (!ino)
		return CMD_FAIL;
	/* a name make_link would refuse: before anything is brought back */
	if (argc > 2 && ext2fs_namei(s->fs, s->root, s->cwd, argv[2], &dir) &&
	    dfs_wr_name_check(strrchr(argv[2], '/') ?
			      strrchr(argv[2], '/') + 1 : argv[2])) {
		out_error(s->out, "make_link", ENAMETOOLONG, NULL);
		return CMD_FAIL;
	}
	if (dfs_read_inode(s, ino, &inode, argv[1]))
		return CMD_FAIL;
	if (ext2fs_test_inode_bitmap2(s->fs->inode_map, ino)) {
		out_error(s->out, argv[1], 0, "Inode is not marked as deleted");
		return CMD_FAIL;
	}
	/* as debugfs: a directory's parent keeps its link count */
	inode.i_links_count = LINUX_S_ISDIR(inode.i_mode) ? 2 : 1;
	inode.i_dtime = 0;
	if (dfs_wr_write_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
			      mark_block, NULL);
	ext2fs_inode_alloc_stats2(s->fs, ino, +1, 0);
	if (argc > 2 && dfs_wr_make_link(s, argv[1], argv[2]))
		return CMD_FAIL;
	return CMD_OK;
}

static const char *const undel_aliases[] = {"undel", NULL};
const struct cmd_entry cmd_undelete = {
	.name = "undelete",
	.aliases = undel_aliases,
	.synopsis = "undelete <inode_num> [dest_name]",
	.summary = "Undelete file",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS,
	.complete = COMPLETE_PATH,
	.run = do_undel,
	.min_args = 2,
	.max_args = 3,
	.usage = "<inode_num> [dest_name]",
	.usage_name = "undelete",
};
