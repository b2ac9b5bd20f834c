/* extent_inode.c - debugfs's extent sub-mode: extent_open (eo) opens a
 * libext2fs extent handle on an inode, kept in the session; then the
 * navigation requests move it (root, next, up, down, goto...) and print
 * the extent under it; extent_close (ec) ends the mode.  Outside the mode
 * those requests do not exist, as in debugfs.  The mode's tree edits
 * (insert_node, set_bmap...) are in extent_inode_wr.c. */
#include "cmd.h"
#include "dfs_util.h"
#include "extent_mode.h"

#include <stdlib.h>
#include <string.h>

void em_print(struct session *s, const struct ext2fs_extent *e)
{
	struct sink *o = s->out;

	out_printf(o, "extent: lblk %llu--%llu, len %u, pblk %llu, flags: ",
		   (unsigned long long)e->e_lblk,
		   (unsigned long long)e->e_lblk + e->e_len - 1, e->e_len,
		   (unsigned long long)e->e_pblk);
	if (e->e_flags & EXT2_EXTENT_FLAGS_LEAF)
		out_printf(o, "LEAF ");
	if (e->e_flags & EXT2_EXTENT_FLAGS_UNINIT)
		out_printf(o, "UNINIT ");
	if (e->e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
		out_printf(o, "2ND_VISIT ");
	if (!e->e_flags)
		out_printf(o, "(none)");
	out_printf(o, "\n");
}

/* Outside the mode the sub-mode's requests are unknown to debugfs. */
int em_absent(struct session *s, char **argv)
{
	if (s->extent)
		return 0;
	out_error(s->out, "debugfs", 0, "Command not found %s", argv[0]);
	return 1;
}

int em_goto(struct session *s, int argc, char **argv, const char *name,
	    int op)
{
	struct ext2fs_extent e;
	errcode_t err;

	if (em_absent(s, argv))
		return CMD_FAIL;
	if (name && dfs_args(s, argc, argv, 1, 1, name, "", 0))
		return CMD_FAIL;
	err = ext2fs_extent_get(s->extent, op, &e);
	if (err) {
		out_error(s->out, argv[0], err, NULL);
		return CMD_FAIL;
	}
	em_print(s, &e);
	return CMD_OK;
}

static int do_extent_open(struct session *s, int argc, char **argv)
{
	ext2_extent_handle_t h;
	ext2_ino_t ino;
	errcode_t err;

	if (argc == 1) {
		if (s->extent_ino)
			out_printf(s->out, "Current inode is %d\n",
				   (int)s->extent_ino);
		else
			out_printf(s->out, "No current inode\n");
		return CMD_OK;
	}
	if (dfs_arg_inode(s, argv[1], &ino))
		return CMD_FAIL;
	s->extent_ino = 0;
	err = ext2fs_extent_open(s->fs, ino, &h);
	if (err) {
		out_error(s->out, argv[1], err, "while opening extent handle");
		return CMD_FAIL;
	}
	if (s->extent)
		ext2fs_extent_free(s->extent);
	free(s->extent_prompt);
	s->extent = h;
	s->extent_ino = ino;
	if (asprintf(&s->extent_prompt, "%s (extent ino %u): ",
		     session_prog(s), ino) < 0)
		s->extent_prompt = NULL;
	return CMD_OK;
}

static const char *const eo_aliases[] = {"eo", NULL};
const struct cmd_entry cmd_extent_open = {
	.name = "extent_open",
	.aliases = eo_aliases,
	.synopsis = "extent_open file",
	.summary = "Open a file's extent tree for navigation (sub-mode)",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_OPEN_FIRST,
	.complete = COMPLETE_PATH,
	.run = do_extent_open,
	.min_args = 1,
	.max_args = 2,
	.usage = "<file>",
};

static int do_extent_close(struct session *s, int argc, char **argv)
{
	if (em_absent(s, argv))
		return CMD_FAIL;
	if (dfs_args(s, argc, argv, 1, 1, "extent_close", "", 0))
		return CMD_FAIL;
	ext2fs_extent_free(s->extent);
	s->extent = NULL;
	s->extent_ino = 0;
	free(s->extent_prompt);
	s->extent_prompt = NULL;
	return CMD_OK;
}

static const char *const ec_aliases[] = {"ec", NULL};
const struct cmd_entry cmd_extent_close = {
	.name = "extent_close",
	.aliases = ec_aliases,
	.synopsis = "extent_close",
	.summary = "Close the extent handle (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_extent_close,
};

/* The navigation requests: each moves the handle one way.  The second
 * name is the one debugfs's usage line gives (last_sib says next_sib). */
static int do_current_node(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "current_node", EXT2_EXTENT_CURRENT);
}

static const char *const current_node_aliases[] = {"current", NULL};
const struct cmd_entry cmd_current_node = {
	.name = "current_node",
	.aliases = current_node_aliases,
	.synopsis = "current_node",
	.summary = "Current extent node (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_current_node,
};

static int do_root_node(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "root_node", EXT2_EXTENT_ROOT);
}

static const char *const root_node_aliases[] = {"root", NULL};
const struct cmd_entry cmd_root_node = {
	.name = "root_node",
	.aliases = root_node_aliases,
	.synopsis = "root_node",
	.summary = "Go to the root extent (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_root_node,
};

static int do_last_leaf(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "last_leaf", EXT2_EXTENT_LAST_LEAF);
}

const struct cmd_entry cmd_last_leaf = {
	.name = "last_leaf",
	.synopsis = "last_leaf",
	.summary = "Go to the last leaf (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_last_leaf,
};

static int do_first_sibling(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "first_sib", EXT2_EXTENT_FIRST_SIB);
}

static const char *const first_sibling_aliases[] = {"first_sib", NULL};
const struct cmd_entry cmd_first_sibling = {
	.name = "first_sibling",
	.aliases = first_sibling_aliases,
	.synopsis = "first_sibling",
	.summary = "Go to the first sibling (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_first_sibling,
};

static int do_last_sibling(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "next_sib", EXT2_EXTENT_LAST_SIB);
}

static const char *const last_sibling_aliases[] = {"last_sib", NULL};
const struct cmd_entry cmd_last_sibling = {
	.name = "last_sibling",
	.aliases = last_sibling_aliases,
	.synopsis = "last_sibling",
	.summary = "Go to the last sibling (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_last_sibling,
};

static int do_next_sibling(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "next_sib", EXT2_EXTENT_NEXT_SIB);
}

static const char *const next_sibling_aliases[] = {"next_sib", "ns", NULL};
const struct cmd_entry cmd_next_sibling = {
	.name = "next_sibling",
	.aliases = next_sibling_aliases,
	.synopsis = "next_sibling",
	.summary = "Go to the next sibling (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_next_sibling,
};

static int do_prev_sibling(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "prev_sib", EXT2_EXTENT_PREV_SIB);
}

static const char *const prev_sibling_aliases[] = {"prev_sib", "ps", NULL};
const struct cmd_entry cmd_prev_sibling = {
	.name = "prev_sibling",
	.aliases = prev_sibling_aliases,
	.synopsis = "prev_sibling",
	.summary = "Go to the previous sibling (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_prev_sibling,
};

static int do_next_leaf(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "next_leaf", EXT2_EXTENT_NEXT_LEAF);
}

static const char *const next_leaf_aliases[] = {"nl", NULL};
const struct cmd_entry cmd_next_leaf = {
	.name = "next_leaf",
	.aliases = next_leaf_aliases,
	.synopsis = "next_leaf",
	.summary = "Go to the next leaf (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_next_leaf,
};

static int do_prev_leaf(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "prev_leaf", EXT2_EXTENT_PREV_LEAF);
}

static const char *const prev_leaf_aliases[] = {"pl", NULL};
const struct cmd_entry cmd_prev_leaf = {
	.name = "prev_leaf",
	.aliases = prev_leaf_aliases,
	.synopsis = "prev_leaf",
	.summary = "Go to the previous leaf (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_prev_leaf,
};

static int do_next(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "next", EXT2_EXTENT_NEXT);
}

static const char *const next_aliases[] = {"n", NULL};
const struct cmd_entry cmd_next = {
	.name = "next",
	.aliases = next_aliases,
	.synopsis = "next",
	.summary = "Go to the next node (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_next,
};

static int do_previous(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "prev", EXT2_EXTENT_PREV);
}

static const char *const previous_aliases[] = {"prev", "p", NULL};
const struct cmd_entry cmd_previous = {
	.name = "previous",
	.aliases = previous_aliases,
	.synopsis = "previous",
	.summary = "Go to the previous node (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_previous,
};

static int do_up_node(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "up", EXT2_EXTENT_UP);
}

static const char *const up_node_aliases[] = {"up", "u", NULL};
const struct cmd_entry cmd_up_node = {
	.name = "up_node",
	.aliases = up_node_aliases,
	.synopsis = "up_node",
	.summary = "Go up a node (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_up_node,
};

static int do_down_node(struct session *s, int argc, char **argv)
{
	return em_goto(s, argc, argv, "down", EXT2_EXTENT_DOWN);
}

static const char *const down_node_aliases[] = {"down", "d", NULL};
const struct cmd_entry cmd_down_node = {
	.name = "down_node",
	.aliases = down_node_aliases,
	.synopsis = "down_node",
	.summary = "Go down a node (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_down_node,
};

static int do_print_all(struct session *s, int argc, char **argv)
{
	static const char usage[] = "[--leaf-only|--reverse|--reverse-leaf]";
	int op = EXT2_EXTENT_NEXT, first = EXT2_EXTENT_ROOT;
	errcode_t end = EXT2_ET_EXTENT_NO_NEXT, err;
	struct ext2fs_extent e;

	if (em_absent(s, argv))
		return CMD_FAIL;
	if (dfs_args(s, argc, argv, 1, 2, "print_all", usage, 0))
		return CMD_FAIL;
	if (argc == 2) {
		if (!strcmp(argv[1], "--leaf-only")) {
			op = EXT2_EXTENT_NEXT_LEAF;
		} else if (!strcmp(argv[1], "--reverse")) {
			op = EXT2_EXTENT_PREV;
			first = EXT2_EXTENT_LAST_LEAF;
			end = EXT2_ET_EXTENT_NO_PREV;
		} else if (!strcmp(argv[1], "--reverse-leaf")) {
			op = EXT2_EXTENT_PREV_LEAF;
			first = EXT2_EXTENT_LAST_LEAF;
			end = EXT2_ET_EXTENT_NO_PREV;
		} else {
			out_errtext(s->out, "Usage: %s %s\n", argv[0], usage);
			return CMD_FAIL;
		}
	}
	err = ext2fs_extent_get(s->extent, first, &e);
	if (!err) {
		do {
			em_print(s, &e);
			err = ext2fs_extent_get(s->extent, op, &e);
		} while (!err);
		if (err == end)
			return CMD_OK;
	}
	out_error(s->out, argv[0], err, NULL);
	return CMD_FAIL;
}

static const char *const all_aliases[] = {"all", NULL};
const struct cmd_entry cmd_print_all = {
	.name = "print_all",
	.aliases = all_aliases,
	.synopsis = "print_all [--leaf-only|--reverse|--reverse-leaf]",
	.summary = "Print every extent node (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_print_all,
};

static int do_info(struct session *s, int argc, char **argv)
{
	struct ext2_extent_info i;
	struct ext2fs_extent e;
	errcode_t err;

	if (em_absent(s, argv))
		return CMD_FAIL;
	if (dfs_args(s, argc, argv, 1, 1, "info", "", 0))
		return CMD_FAIL;
	err = ext2fs_extent_get_info(s->extent, &i);
	if (!err)
		err = ext2fs_extent_get(s->extent, EXT2_EXTENT_CURRENT, &e);
	if (err) {
		out_error(s->out, argv[0], err, NULL);
		return CMD_FAIL;
	}
	em_print(s, &e);
	out_printf(s->out, "Current handle location: %d/%d (max: %d, bytes "
		   "%d), level %d/%d\n", i.curr_entry, i.num_entries,
		   i.max_entries, i.bytes_avail, i.curr_level, i.max_depth);
	out_printf(s->out, "\tmax lblk: %llu, max pblk: %llu\n",
		   (unsigned long long)i.max_lblk,
		   (unsigned long long)i.max_pblk);
	out_printf(s->out, "\tmax_len: %u, max_uninit_len: %u\n", i.max_len,
		   i.max_uninit_len);
	return CMD_OK;
}

const struct cmd_entry cmd_info = {
	.name = "info",
	.synopsis = "info",
	.summary = "Print the extent handle's position (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_info,
};

static int do_goto_block(struct session *s, int argc, char **argv)
{
	blk64_t blk;
	int level = 0, err;
	errcode_t e;

	if (em_absent(s, argv))
		return CMD_FAIL;
	if (dfs_args(s, argc, argv, 2, 3, "goto_block", "block [level]", 0))
		return CMD_FAIL;
	if (dfs_strtoblk(s, argv[0], argv[1], &blk))
		return CMD_FAIL;
	if (argc == 3) {
		level = dfs_parse_ulong(s, argv[2], argv[0], "level", &err);
		if (err)
			return CMD_FAIL;
	}
	e = ext2fs_extent_goto2(s->extent, level, blk);
	if (e) {
		out_error(s->out, argv[0], e, "while trying to go to block "
			  "%llu, level %d", (unsigned long long)blk, level);
		return CMD_FAIL;
	}
	return em_goto(s, argc, argv, NULL, EXT2_EXTENT_CURRENT);
}

static const char *const goto_aliases[] = {"goto", NULL};
const struct cmd_entry cmd_goto_block = {
	.name = "goto_block",
	.aliases = goto_aliases,
	.synopsis = "goto_block block [level]",
	.summary = "Go to the extent holding a block (extent sub-mode)",
	.flags = CMD_DEBUGFS,
	.run = do_goto_block,
};

