/* bitmap_wr.c - debugfs's bitmap writes: setb/freeb mark blocks and
 * seti/freei mark inodes in the allocation bitmaps (the bitmaps only: group
 * and superblock counts stay as they are, as in debugfs). */
#include "cmd.h"
#include "dfs_util.h"

/* Bitmap operations, named as libext2fs names them in its complaints. */
enum bm_op { BM_TEST, BM_MARK, BM_UNMARK };

static const errcode_t block_range_err[] = {
	EXT2_ET_BAD_BLOCK_TEST, EXT2_ET_BAD_BLOCK_MARK,
	EXT2_ET_BAD_BLOCK_UNMARK,
};
static const errcode_t inode_range_err[] = {
	EXT2_ET_BAD_INODE_TEST, EXT2_ET_BAD_INODE_MARK,
	EXT2_ET_BAD_INODE_UNMARK,
};

/*
 * One block bitmap operation.  A block outside the bitmap is reported in
 * libext2fs's words, but through the sink.  Returns the bit (for BM_TEST),
 * 0 when out of range.
 */
static int block_op(struct session *s, enum bm_op op, blk64_t blk)
{
	ext2_filsys fs = s->fs;
	blk64_t c = EXT2FS_B2C(fs, blk);
	blk64_t first = EXT2FS_B2C(fs, fs->super->s_first_data_block);
	blk64_t last = EXT2FS_B2C(fs, ext2fs_blocks_count(fs->super) - 1);

	if (c < first || c > last) {
		out_error(s->out, NULL, block_range_err[op],
			  "#%llu for block bitmap for %s",
			  (unsigned long long)c, fs->device_name);
		return 0;
	}
	if (op == BM_MARK)
		ext2fs_mark_block_bitmap2(fs->block_map, blk);
	else if (op == BM_UNMARK)
		ext2fs_unmark_block_bitmap2(fs->block_map, blk);
	else
		return ext2fs_test_block_bitmap2(fs->block_map, blk) != 0;
	return 0;
}

static int inode_op(struct session *s, enum bm_op op, ext2_ino_t ino)
{
	ext2_filsys fs = s->fs;

	if (ino < 1 || ino > fs->super->s_inodes_count) {
		out_error(s->out, NULL, inode_range_err[op],
			  "#%u for inode bitmap for %s", ino,
			  fs->device_name);
		return 0;
	}
	if (op == BM_MARK)
		ext2fs_mark_inode_bitmap2(fs->inode_map, ino);
	else if (op == BM_UNMARK)
		ext2fs_unmark_inode_bitmap2(fs->inode_map, ino);
	else
		return ext2fs_test_inode_bitmap2(fs->inode_map, ino) != 0;
	return 0;
}

static int block_mark(struct session *s, int argc, char **argv, int set)
{
	blk64_t block, count = 1;

	if (dfs_block_args(s, argc, argv, &block, &count) ||
	    dfs_check_rw(s, argv[0]))
		return CMD_FAIL;
	count = dfs_clamp_count(s, argv[0], block, count,
				ext2fs_blocks_count(s->fs->super) - 1,
				"block of the filesystem");
	session_invalidate(s);
	while (count-- > 0) {
		if (block_op(s, BM_TEST, block) == set)
			out_error(s->out, argv[0], 0,
				  "Warning: block %llu already %s",
				  (unsigned long long)block,
				  set ? "set" : "clear");
		block_op(s, set ? BM_MARK : BM_UNMARK, block);
		block++;
	}
	ext2fs_mark_bb_dirty(s->fs);
	return CMD_OK;
}

static int do_setb(struct session *s, int argc, char **argv)
{
	return block_mark(s, argc, argv, 1);
}

static int do_freeb(struct session *s, int argc, char **argv)
{
	return block_mark(s, argc, argv, 0);
}

const struct cmd_entry cmd_setb = {
	.name = "setb",
	.synopsis = "setb <block> [count]",
	.summary = "Set a block's in-use flag in the block bitmap",
	.flags = CMD_NEEDS_FS | CMD_WRITES | CMD_DEBUGFS | CMD_NEEDS_BBITMAP,
	.run = do_setb,
	.min_args = 2,
	.max_args = 3,
	.usage = "<block> [count]",
};

const struct cmd_entry cmd_freeb = {
	.name = "freeb",
	.synopsis = "freeb <block> [count]",
	.summary = "Clear a block's in-use flag in the block bitmap",
	.flags = CMD_NEEDS_FS | CMD_WRITES | CMD_DEBUGFS | CMD_NEEDS_BBITMAP,
	.run = do_freeb,
	.min_args = 2,
	.max_args = 3,
	.usage = "<block> [count]",
};

static int inode_mark(struct session *s, int argc, char **argv, int set)
{
	unsigned long len = 1;
	ext2_ino_t ino;
	int err = 0;

	ino = dfs_string_to_inode(s, argv[1]);
	if (!ino)
		return CMD_FAIL;
	if (argc == 3) {
		len = dfs_parse_count(s, argv[2], argv[0], "length", &err);
		if (err)
			return CMD_FAIL;
		len = dfs_clamp_count(s, argv[0], ino, len,
				      s->fs->super->s_inodes_count,
				      "inode of the filesystem");
		len = (unsigned)len;	/* debugfs's unsigned int */
	}
	session_invalidate(s);
	if (len == 1 && inode_op(s, BM_TEST, ino) == set)
		out_error(s->out, argv[0], 0, "Warning: inode already %s",
			  set ? "set" : "clear");
	while (len-- > 0)
		inode_op(s, set ? BM_MARK : BM_UNMARK, ino++);
	ext2fs_mark_ib_dirty(s->fs);
	return CMD_OK;
}

static int do_seti(struct session *s, int argc, char **argv)
{
	return inode_mark(s, argc, argv, 1);
}

static int do_freei(struct session *s, int argc, char **argv)
{
	return inode_mark(s, argc, argv, 0);
}

const struct cmd_entry cmd_seti = {
	.name = "seti",
	.synopsis = "seti <file> [num]",
	.summary = "Set an inode's in-use flag in the inode bitmap",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS,
	.complete = COMPLETE_PATH,
	.run = do_seti,
	.min_args = 2,
	.max_args = 3,
	.usage = "<file> [num]",
};

const struct cmd_entry cmd_freei = {
	.name = "freei",
	.synopsis = "freei <file> [num]",
	.summary = "Clear an inode's in-use flag in the inode bitmap",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS,
	.complete = COMPLETE_PATH,
	.run = do_freei,
	.min_args = 2,
	.max_args = 3,
	.usage = "<file> [num]",
};
