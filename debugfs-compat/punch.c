/* punch.c - debugfs's fallocate and punch/truncate: allocate or free a
 * range of an inode's logical blocks through libext2fs. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

/* "<file> start_blk [end_blk]" (counted by the dispatcher); end defaults
 * to the last block. */
static int range_args(struct session *s, int argc, char **argv,
		      ext2_ino_t *ino, blk64_t *start, blk64_t *end)
{
	if (dfs_wr_begin(s, argv[0]))
		return 1;
	*ino = dfs_string_to_inode(s, argv[1]);
	if (!*ino)
		return 1;
	if (dfs_strtoblk2(s, argv[0], argv[2], "logical block", start))
		return 1;
	*end = ~0ULL;
	if (argc == 4 &&
	    dfs_strtoblk2(s, argv[0], argv[3], "logical block", end))
		return 1;
	return 0;
}

static int do_punch(struct session *s, int argc, char **argv)
{
	blk64_t start, end;
	ext2_ino_t ino;
	errcode_t err;

	if (range_args(s, argc, argv, &ino, &start, &end))
		return CMD_FAIL;
	err = ext2fs_punch(s->fs, ino, NULL, NULL, start, end);
	if (err) {
		out_error(s->out, argv[0], err,
			  "while truncating inode %u from %llu to %llu\n", ino,
			  (unsigned long long)start, (unsigned long long)end);
		return CMD_FAIL;
	}
	return CMD_OK;
}

static const char *const punch_aliases[] = {"truncate", NULL};
const struct cmd_entry cmd_punch = {
	.name = "punch",
	.aliases = punch_aliases,
	.synopsis = "punch <file> start_blk [end_blk]",
	.summary = "Punch (or truncate) blocks from an inode by deallocating "
		   "them",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS,
	.complete = COMPLETE_PATH,
	.run = do_punch,
	.min_args = 3,
	.max_args = 4,
	.usage = "<file> start_blk [end_blk]",
};

static int do_fallocate(struct session *s, int argc, char **argv)
{
	blk64_t start, end;
	ext2_ino_t ino;
	errcode_t err;

	if (range_args(s, argc, argv, &ino, &start, &end))
		return CMD_FAIL;
	/* the length wraps for an open end, as in debugfs */
	err = ext2fs_fallocate(s->fs, EXT2_FALLOCATE_INIT_BEYOND_EOF, ino,
			       NULL, ~0ULL, start, end - start + 1);
	if (err) {
		out_error(s->out, argv[0], err,
			  "while fallocating inode %u from %llu to %llu\n",
			  ino, (unsigned long long)start,
			  (unsigned long long)end);
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_fallocate = {
	.name = "fallocate",
	.synopsis = "fallocate <file> start_blk [end_blk]",
	.summary = "Allocate uninitialized blocks to an inode",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS,
	.complete = COMPLETE_PATH,
	.run = do_fallocate,
	.min_args = 3,
	.max_args = 4,
	.usage = "<file> start_blk [end_blk]",
};
