/* block_dump.c - debugfs's block_dump (bd) and inode_dump (id): a block
 * or an inode as octal-offset hex lines, or decoded as an xattr area. */
#include "cmd.h"
#include "dfs_blk.h"
#include "dfs_util.h"
#include "xattr_dump.h"

#include <ctype.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>


static int do_block_dump(struct session *s, int argc, char **argv)
{
	const char *file = NULL;
	int c, err, xattr = 0;
	unsigned char *buf = NULL;
	blk64_t blk;

	while ((c = dfs_getopt(s, argc, argv, "f:x")) != -1) {
		if (c == 'f')
			file = optarg;
		else if (c == 'x')
			xattr = 1;
		else
			goto usage;
	}
	if (argc != optind + 1) {
usage:
		out_error(s->out, NULL, 0,
			  "Usage: block_dump [-x] [-f inode] block_num");
		return CMD_FAIL;
	}
	blk = dfs_parse_ulonglong(s, argv[optind], argv[0], "block", &err);
	if (err)
		return CMD_FAIL;
	if (dfs_blk_read(s, argv[0], file, &blk, &buf))
		return CMD_FAIL;
	if (xattr)
		xattr_dump_block(s->out, buf, s->fs->blocksize);
	else
		xattr_hexdump(s->out, buf, s->fs->blocksize,
			      s->fs->blocksize);
	free(buf);
	return CMD_OK;
}

static const char *const bd_aliases[] = {"bdump", "bd", NULL};
const struct cmd_entry cmd_block_dump = {
	.name = "block_dump",
	.aliases = bd_aliases,
	.synopsis = "block_dump [-x] [-f inode] block_num",
	.summary = "Dump a block in hex (or as an xattr block with -x)",
	.options = "-x -f",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS,
	.complete = COMPLETE_PATH,
	.run = do_block_dump,
};

static int do_inode_dump(struct session *s, int argc, char **argv)
{
	struct ext2_inode_large *inode;
	unsigned isize, off = 0, len;
	unsigned char *buf;
	ext2_ino_t ino;
	int c, mode = 0, ret = CMD_FAIL;
	errcode_t e;

	while ((c = dfs_getopt(s, argc, argv, "bex")) != -1) {
		if (mode || c == '?') {
			out_error(s->out, argv[0], 0,
				  "Usage: inode_dump [-b]|[-e] <file>");
			return CMD_FAIL;
		}
		mode = c;
	}
	if (optind != argc - 1)
		return CMD_FAIL;	/* debugfs says nothing here */
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	ino = dfs_string_to_inode(s, argv[optind]);
	if (!ino)
		return CMD_FAIL;
	isize = EXT2_INODE_SIZE(s->fs->super);
	buf = calloc(1, isize);
	if (!buf) {
		out_error(s->out, argv[0], ENOMEM, "while allocating memory");
		return CMD_FAIL;
	}
	e = ext2fs_read_inode_full(s->fs, ino, (struct ext2_inode *)buf,
				   isize);
	if (e) {
		out_error(s->out, argv[0], e, "while reading inode %u", ino);
		goto out;
	}
	inode = (struct ext2_inode_large *)buf;
	len = isize;
	if (mode == 'b') {
		off = offsetof(struct ext2_inode_large, i_block);
		len = sizeof(inode->i_block);
	} else if (mode == 'e' || mode == 'x') {
		if (isize <= EXT2_GOOD_OLD_INODE_SIZE) {
			out_error(s->out, argv[0], 0,
				  "No extra space in inode");
			goto out;
		}
		off = EXT2_GOOD_OLD_INODE_SIZE + inode->i_extra_isize;
		if (off > isize)
			goto out;
		len = isize - off;
	}
	if (mode == 'x')
		xattr_dump_ibody(s->out, buf + off, len);
	else
		xattr_hexdump(s->out, buf + off, len, isize - off);
	ret = CMD_OK;
out:
	free(buf);
	return ret;
}

static const char *const id_aliases[] = {"idump", "id", NULL};
const struct cmd_entry cmd_inode_dump = {
	.name = "inode_dump",
	.aliases = id_aliases,
	.synopsis = "inode_dump [-b]|[-e]|[-x] file",
	.summary = "Dump an inode in hex (-b i_block, -e extra space, "
		   "-x its xattrs)",
	.options = "-b -e -x",
	.flags = CMD_DEBUGFS,
	.complete = COMPLETE_PATH,
	.run = do_inode_dump,
};
