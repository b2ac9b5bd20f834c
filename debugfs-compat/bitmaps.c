/* bitmaps.c - debugfs's allocation-bitmap queries: testi, testb,
 * find_free_inode/ffi and find_free_block/ffb. */
#include "cmd.h"
#include "dfs_util.h"

#include <stdlib.h>

static int do_testi(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino;
	int used;

	(void)argc;	/* 2: the entry's count */
	if (dfs_arg_inode(s, argv[1], &ino))
		return CMD_FAIL;
	used = ext2fs_test_inode_bitmap2(s->fs->inode_map, ino);
	if (used)
		out_printf(s->out, "Inode %u is marked in use\n", ino);
	else
		out_printf(s->out, "Inode %u is not in use\n", ino);
	if (sink_is_json(s->out)) {
		json_u64(s->out, "inode", ino);
		json_bool(s->out, "in_use", used);
	}
	return CMD_OK;
}

const struct cmd_entry cmd_testi = {
	.name = "testi",
	.synopsis = "testi <file>",
	.summary = "Tell whether an inode is marked in use in the inode bitmap",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_IBITMAP | CMD_DEBUGFS | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_testi,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

/*
 * Tests one block as ext2fs_test_block_bitmap2 does, but a block outside
 * the bitmap is reported through the sink, in libext2fs's own words,
 * rather than by the library straight to standard error.
 */
static int test_block(struct session *s, blk64_t blk)
{
	ext2_filsys fs = s->fs;
	blk64_t c = EXT2FS_B2C(fs, blk);
	blk64_t first = EXT2FS_B2C(fs, fs->super->s_first_data_block);
	blk64_t last = EXT2FS_B2C(fs, ext2fs_blocks_count(fs->super) - 1);

	if (c < first || c > last) {
		out_error(s->out, NULL, EXT2_ET_BAD_BLOCK_TEST,
			  "#%llu for block bitmap for %s",
			  (unsigned long long)c, fs->device_name);
		return -1;
	}
	return ext2fs_test_block_bitmap2(fs->block_map, blk) ? 1 : 0;
}

static int do_testb(struct session *s, int argc, char **argv)
{
	blk64_t block, count = 1;
	int used;

	if (dfs_block_args(s, argc, argv, &block, &count))
		return CMD_FAIL;
	count = dfs_clamp_count(s, argv[0], block, count,
				ext2fs_blocks_count(s->fs->super) - 1,
				"block of the filesystem");
	json_arr_begin(s->out, "blocks");
	while (count-- > 0) {
		used = test_block(s, block);
		out_printf(s->out, "Block %llu %s\n", (unsigned long long)block,
			   used > 0 ? "marked in use" : "not in use");
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "block", block);
			json_bool(s->out, "in_use", used > 0);
			json_bool(s->out, "valid", used >= 0);
			json_obj_end(s->out);
		}
		block++;
	}
	json_arr_end(s->out);
	return CMD_OK;
}

const struct cmd_entry cmd_testb = {
	.name = "testb",
	.synopsis = "testb <block> [count]",
	.summary = "Tell whether blocks are marked in use in the block bitmap",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_DEBUGFS | CMD_JSON,
	.run = do_testb,
	.min_args = 2,
	.max_args = 3,
	.usage = "<block> [count]",
};

extern const struct cmd_entry cmd_find_free_inode;

static int do_ffi(struct session *s, int argc, char **argv)
{
	ext2_ino_t found, dir;
	int mode;
	errcode_t err;
	char *end;

	if (argc > 1 && *argv[1] == '?')
		return cmd_usage(s, &cmd_find_free_inode, argv[0]);
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	dir = s->root;
	mode = 010755;
	if (argc > 1) {
		dir = strtol(argv[1], &end, 0);
		if (*end) {
			out_error(s->out, argv[0], 0, "Bad dir - %s", argv[1]);
			return CMD_FAIL;
		}
	}
	if (argc > 2) {
		mode = strtol(argv[2], &end, 0);
		if (*end) {
			out_error(s->out, argv[0], 0, "Bad mode - %s",
				  argv[2]);
			return CMD_FAIL;
		}
	}
	/* no bitmap (-c) is the library's error to report, as in debugfs */
	if (!(s->flags & SESSION_CATASTROPHIC))
		session_need(s, NEED_INODE_BITMAP);
	err = ext2fs_new_inode(s->fs, dir, mode, NULL, &found);
	if (err) {
		out_error(s->out, "ext2fs_new_inode", err, NULL);
		return CMD_FAIL;
	}
	out_printf(s->out, "Free inode found: %u\n", found);
	json_u64(s->out, "inode", found);
	return CMD_OK;
}

static const char *const ffi_aliases[] = {"ffi", NULL};
const struct cmd_entry cmd_find_free_inode = {
	.name = "find_free_inode",
	.aliases = ffi_aliases,
	.synopsis = "find_free_inode [dir [mode]]",
	.summary = "Find the inode ext2fs_new_inode would allocate",
	/* loads the inode bitmap itself, after its arguments, as debugfs */
	.flags = CMD_DEBUGFS | CMD_JSON,
	.run = do_ffi,
	.min_args = 1,
	.max_args = 3,
	.usage = "[dir [mode]]",
	.usage_name = "find_free_inode",
};

extern const struct cmd_entry cmd_find_free_block;

static int do_ffb(struct session *s, int argc, char **argv)
{
	blk64_t free_blk, goal, first_free = 0;
	errcode_t err;
	char *end;
	int count = 1;

	if (argc == 2 && *argv[1] == '?')
		return cmd_usage(s, &cmd_find_free_block, argv[0]);
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	if (argc > 1) {
		count = strtol(argv[1], &end, 0);
		if (*end) {
			out_error(s->out, argv[0], 0, "Bad count - %s",
				  argv[1]);
			return CMD_FAIL;
		}
	}
	goal = s->fs->super->s_first_data_block;
	if (argc > 2) {
		goal = strtol(argv[2], &end, 0);
		if (*end) {
			/* debugfs names the count here, not the goal */
			out_error(s->out, argv[0], 0, "Bad goal - %s",
				  argv[1]);
			return CMD_FAIL;
		}
	}
	if (!(s->flags & SESSION_CATASTROPHIC))
		session_need(s, NEED_BLOCK_BITMAP);
	out_printf(s->out, "Free blocks found: ");
	json_arr_begin(s->out, "blocks");
	free_blk = goal - 1;
	while (count-- > 0) {
		err = ext2fs_new_block2(s->fs, free_blk + 1, NULL, &free_blk);
		if (first_free) {
			if (first_free == free_blk)
				break;
		} else {
			first_free = free_blk;
		}
		if (err) {
			json_arr_end(s->out);
			out_error(s->out, "ext2fs_new_block", err, NULL);
			return CMD_FAIL;
		}
		out_printf(s->out, "%llu ", (unsigned long long)free_blk);
		json_u64(s->out, NULL, free_blk);
	}
	json_arr_end(s->out);
	out_printf(s->out, "\n");
	return CMD_OK;
}

static const char *const ffb_aliases[] = {"ffb", NULL};
const struct cmd_entry cmd_find_free_block = {
	.name = "find_free_block",
	.aliases = ffb_aliases,
	.synopsis = "find_free_block [count [goal]]",
	.summary = "Find free blocks as ext2fs_new_block2 would allocate them",
	/* loads the block bitmap itself, after its arguments, as debugfs */
	.flags = CMD_DEBUGFS | CMD_JSON,
	.run = do_ffb,
	.min_args = 1,
	.max_args = 3,
	.usage = "[count [goal]]",
	.usage_name = "find_free_block",
};
