/* blocks.c - debugfs's blocks (every block of a file), bmap (logical to
 * physical, optionally allocating or setting under -w) and imap (where an
 * inode lives in its group's inode table). */
#include "cmd.h"
#include "dfs_util.h"
#include "stat_extra.h"

#include <getopt.h>

static int print_block_proc(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t cnt,
			    blk64_t ref_block, int ref_offset, void *priv)
{
	struct session *s = priv;

	(void)fs;
	(void)cnt;
	(void)ref_block;
	(void)ref_offset;
	out_printf(s->out, "%llu ", (unsigned long long)*blocknr);
	return 0;
}

static int do_blocks(struct session *s, int argc, char **argv)
{
	struct stat_runs r = {0};
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino))
		return CMD_FAIL;
	ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
			      print_block_proc, s);
	out_printf(s->out, "\n");
	if (sink_is_json(s->out)) {
		json_u64(s->out, "inode", ino);
		stat_collect_blocks(s->fs, ino, &r);
		stat_json_runs(s->out, "blocks", &r);
		stat_runs_free(&r);
	}
	return CMD_OK;
}

const struct cmd_entry cmd_blocks = {
	.name = "blocks",
	.synopsis = "blocks <file>",
	.summary = "List every block a file uses, mapping blocks included",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS |
		 CMD_OPEN_FIRST,
	.complete = COMPLETE_PATH,
	.run = do_blocks,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

static int do_bmap(struct session *s, int argc, char **argv)
{
	static const char usage[] =
		"Usage: bmap [-a] <file> logical_blk [physical_blk]";
	blk64_t blk, pblk = 0;
	int c, flags = 0, ret_flags = 0;
	ext2_ino_t ino;
	errcode_t err;

	while ((c = dfs_getopt(s, argc, argv, "a")) != -1) {
		if (c != 'a')
			goto usage;
		flags |= BMAP_ALLOC;
	}
	if (argc <= optind + 1)
		goto usage;
	ino = dfs_string_to_inode(s, argv[optind++]);
	if (!ino)
		return CMD_FAIL;
	if (dfs_strtoblk2(s, argv[0], argv[optind++], "logical block", &blk))
		return CMD_FAIL;
	if (argc > optind + 1)
		goto usage;
	if (argc == optind + 1) {
		if (dfs_strtoblk2(s, argv[0], argv[optind++], "physical block",
				  &pblk))
			return CMD_FAIL;
		if (flags & BMAP_ALLOC) {
			out_error(s->out, NULL, 0,
				  "Can't set and allocate a block");
			return CMD_FAIL;
		}
		flags |= BMAP_SET;
	}
	/* allocating or setting needs the block bitmap, as in debugfs */
	if (flags && !(s->flags & SESSION_CATASTROPHIC))
		session_need(s, NEED_BLOCK_BITMAP);
	err = ext2fs_bmap2(s->fs, ino, NULL, NULL, flags, blk, &ret_flags,
			   &pblk);
	if (err) {
		out_error(s->out, argv[0], err,
			  "while mapping logical block %llu\n",
			  (unsigned long long)blk);
		return CMD_FAIL;
	}
	if (flags && (s->fs->flags & EXT2_FLAG_RW))
		session_invalidate(s);
	out_printf(s->out, "%llu%s\n", (unsigned long long)pblk,
		   ret_flags & BMAP_RET_UNINIT ? " (uninit)" : "");
	if (sink_is_json(s->out)) {
		json_u64(s->out, "inode", ino);
		json_u64(s->out, "logical", blk);
		json_u64(s->out, "physical", pblk);
		json_bool(s->out, "mapped", pblk != 0);
		json_bool(s->out, "uninit", !!(ret_flags & BMAP_RET_UNINIT));
	}
	return CMD_OK;
usage:
	out_error(s->out, NULL, 0, "%s", usage);
	return CMD_FAIL;
}

const struct cmd_entry cmd_bmap = {
	.name = "bmap",
	.synopsis = "bmap [-a] <file> logical_blk [physical_blk]",
	.summary = "Map a file's logical block to its physical block",
	.options = "-a",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.complete = COMPLETE_PATH,
	.run = do_bmap,
};

static int do_imap(struct session *s, int argc, char **argv)
{
	struct ext2_super_block *sb;
	unsigned long group, block, offset;
	blk64_t itable;
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	ino = dfs_string_to_inode(s, argv[1]);
	if (!ino)
		return CMD_FAIL;
	sb = s->fs->super;
	group = (ino - 1) / EXT2_INODES_PER_GROUP(sb);
	offset = ((ino - 1) % EXT2_INODES_PER_GROUP(sb)) *
		 EXT2_INODE_SIZE(sb);
	block = offset >> EXT2_BLOCK_SIZE_BITS(sb);
	itable = ext2fs_inode_table_loc(s->fs, group);
	if (!itable) {
		out_error(s->out, argv[0], 0,
			  "Inode table for group %lu is missing\n", group);
		return CMD_FAIL;
	}
	offset &= EXT2_BLOCK_SIZE(sb) - 1;
	out_printf(s->out, "Inode %u is part of block group %lu\n"
			   "\tlocated at block %lu, offset 0x%04lx\n", ino,
		   group, (unsigned long)(itable + block), offset);
	if (sink_is_json(s->out)) {
		json_u64(s->out, "inode", ino);
		json_u64(s->out, "group", group);
		json_u64(s->out, "block", itable + block);
		json_u64(s->out, "offset", offset);
	}
	return CMD_OK;
}

const struct cmd_entry cmd_imap = {
	.name = "imap",
	.synopsis = "imap <file>",
	.summary = "Show the inode table block and offset of an inode",
	.flags = CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS | CMD_NEEDS_FS,
	.complete = COMPLETE_PATH,
	.run = do_imap,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};
