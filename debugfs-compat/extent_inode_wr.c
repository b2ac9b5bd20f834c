/* extent_inode_wr.c - the extent sub-mode's tree edits (debugfs -w, after
 * extent_open): insert_node, replace_node, delete_node, split_node,
 * fix_parents and set_bmap, each one call of libext2fs's ext2fs_extent_*
 * on the session's open handle, with debugfs's argument handling. */
#include "cmd.h"
#include "dfs_util.h"
#include "extent_mode.h"

#include <string.h>

#define EM_WR	(DFS_CHECK_RW | DFS_CHECK_BITMAPS)

/* The extent under the handle after an edit, when there is one. */
static void em_show_current(struct session *s)
{
	struct ext2fs_extent e;

	if (!ext2fs_extent_get(s->extent, EXT2_EXTENT_CURRENT, &e))
		em_print(s, &e);
}

static int em_failed(struct session *s, const char *who, errcode_t err)
{
	out_error(s->out, who, err, NULL);
	return CMD_FAIL;
}

static int do_delete_node(struct session *s, int argc, char **argv)
{
	errcode_t err;

	if (em_absent(s, argv) ||
	    dfs_args(s, argc, argv, 1, 1, "delete_node", "", EM_WR))
		return CMD_FAIL;
	err = ext2fs_extent_delete(s->extent, 0);
	session_invalidate(s);
	if (err)
		return em_failed(s, argv[0], err);
	em_show_current(s);
	return CMD_OK;
}

static const char *const delete_aliases[] = {"delete", NULL};
const struct cmd_entry cmd_delete_node = {
	.name = "delete_node",
	.aliases = delete_aliases,
	.synopsis = "delete_node",
	.summary = "Delete the current extent (extent sub-mode, -w)",
	.flags = CMD_DEBUGFS,
	.run = do_delete_node,
};

/* "<lblk> <len> <pblk>" at argv[1..3]; descr words as debugfs's. */
static int em_parse3(struct session *s, const char *who, char **argv,
		     struct ext2fs_extent *e)
{
	int err;

	if (dfs_strtoblk2(s, who, argv[1], "logical block", &e->e_lblk))
		return 1;
	e->e_len = dfs_parse_ulong(s, argv[2], who, "length", &err);
	if (err)
		return 1;
	return dfs_strtoblk2(s, who, argv[3], "physical block", &e->e_pblk);
}

static int do_replace_node(struct session *s, int argc, char **argv)
{
	static const char usage[] = "[--uninit] <lblk> <len> <pblk>";
	struct ext2fs_extent e;
	errcode_t err;

	if (em_absent(s, argv) ||
	    dfs_args(s, argc, argv, 3, 5, "replace_node", usage, EM_WR))
		return CMD_FAIL;
	memset(&e, 0, sizeof(e));
	/* debugfs shifts the words, so argv[0] may then be "--uninit" */
	if (!strcmp(argv[1], "--uninit")) {
		argc--;
		argv++;
		e.e_flags |= EXT2_EXTENT_FLAGS_UNINIT;
	}
	if (argc != 4) {
		out_errtext(s->out, "Usage: %s %s\n", argv[0], usage);
		return CMD_FAIL;
	}
	if (em_parse3(s, argv[0], argv, &e))
		return CMD_FAIL;
	err = ext2fs_extent_replace(s->extent, 0, &e);
	session_invalidate(s);
	if (err)
		return em_failed(s, argv[0], err);
	return em_goto(s, argc, argv, NULL, EXT2_EXTENT_CURRENT);
}

static const char *const replace_aliases[] = {"replace", NULL};
const struct cmd_entry cmd_replace_node = {
	.name = "replace_node",
	.aliases = replace_aliases,
	.synopsis = "replace_node [--uninit] <lblk> <len> <pblk>",
	.summary = "Replace the current extent (extent sub-mode, -w)",
	.options = "--uninit",
	.flags = CMD_DEBUGFS,
	.run = do_replace_node,
};

static int do_split_node(struct session *s, int argc, char **argv)
{
	errcode_t err;

	if (em_absent(s, argv) ||
	    dfs_args(s, argc, argv, 1, 1, "split_node", "", EM_WR))
		return CMD_FAIL;
	err = ext2fs_extent_node_split(s->extent);
	session_invalidate(s);
	if (err)
		return em_failed(s, argv[0], err);
	return em_goto(s, argc, argv, NULL, EXT2_EXTENT_CURRENT);
}

static const char *const split_aliases[] = {"split", NULL};
const struct cmd_entry cmd_split_node = {
	.name = "split_node",
	.aliases = split_aliases,
	.synopsis = "split_node",
	.summary = "Split the current extent node (extent sub-mode, -w)",
	.flags = CMD_DEBUGFS,
	.run = do_split_node,
};

static int do_insert_node(struct session *s, int argc, char **argv)
{
	static const char usage[] = "[--after] [--uninit] <lblk> <len> <pblk>";
	struct ext2fs_extent e;
	const char *cmd = argv[0];
	int flags = 0;
	errcode_t err;

	if (em_absent(s, argv) ||
	    dfs_args(s, argc, argv, 3, 6, "insert_node", usage, EM_WR))
		return CMD_FAIL;
	memset(&e, 0, sizeof(e));
	while (argc > 2) {
		if (!strcmp(argv[1], "--after"))
			flags |= EXT2_EXTENT_INSERT_AFTER;
		else if (!strcmp(argv[1], "--uninit"))
			e.e_flags |= EXT2_EXTENT_FLAGS_UNINIT;
		else
			break;
		argc--;
		argv++;
	}
	if (argc != 4) {
		out_errtext(s->out, "usage: %s %s\n", cmd, usage);
		return CMD_FAIL;
	}
	if (em_parse3(s, cmd, argv, &e))
		return CMD_FAIL;
	err = ext2fs_extent_insert(s->extent, flags, &e);
	session_invalidate(s);
	if (err)
		return em_failed(s, cmd, err);
	return em_goto(s, argc, argv, NULL, EXT2_EXTENT_CURRENT);
}

static const char *const insert_aliases[] = {"insert", NULL};
const struct cmd_entry cmd_insert_node = {
	.name = "insert_node",
	.aliases = insert_aliases,
	.synopsis = "insert_node [--after] [--uninit] <lblk> <len> <pblk>",
	.summary = "Insert an extent at the handle (extent sub-mode, -w)",
	.options = "--after --uninit",
	.flags = CMD_DEBUGFS,
	.run = do_insert_node,
};

static int do_set_bmap(struct session *s, int argc, char **argv)
{
	static const char usage[] = "[--uninit] <lblk> <pblk>";
	const char *cmd = argv[0];
	blk64_t lblk, pblk;
	int flags = 0;
	errcode_t err;

	if (em_absent(s, argv) ||
	    dfs_args(s, argc, argv, 3, 5, "set_bmap", usage, EM_WR))
		return CMD_FAIL;
	if (argc > 2 && !strcmp(argv[1], "--uninit")) {
		argc--;
		argv++;
		flags |= EXT2_EXTENT_SET_BMAP_UNINIT;
	}
	if (argc != 3) {
		out_errtext(s->out, "Usage: %s %s\n", cmd, usage);
		return CMD_FAIL;
	}
	if (dfs_strtoblk2(s, cmd, argv[1], "logical block", &lblk) ||
	    dfs_strtoblk2(s, cmd, argv[2], "physical block", &pblk))
		return CMD_FAIL;
	err = ext2fs_extent_set_bmap(s->extent, lblk, pblk, flags);
	session_invalidate(s);
	if (err)
		return em_failed(s, cmd, err);
	em_show_current(s);
	return CMD_OK;
}

const struct cmd_entry cmd_set_bmap = {
	.name = "set_bmap",
	.synopsis = "set_bmap [--uninit] <lblk> <pblk>",
	.summary = "Map a logical block to a physical one (extent sub-mode, -w)",
	.options = "--uninit",
	.flags = CMD_DEBUGFS,
	.run = do_set_bmap,
};

static int do_fix_parents(struct session *s, int argc, char **argv)
{
	errcode_t err;

	if (em_absent(s, argv) ||
	    dfs_args(s, argc, argv, 1, 1, "fix_parents", "", DFS_CHECK_RW))
		return CMD_FAIL;
	err = ext2fs_extent_fix_parents(s->extent);
	session_invalidate(s);
	if (err)
		return em_failed(s, argv[0], err);
	return CMD_OK;
}

static const char *const fixp_aliases[] = {"fixp", NULL};
const struct cmd_entry cmd_fix_parents = {
	.name = "fix_parents",
	.aliases = fixp_aliases,
	.synopsis = "fix_parents",
	.summary = "Fix the parents of the current extent (extent sub-mode, -w)",
	.flags = CMD_DEBUGFS,
	.run = do_fix_parents,
};
