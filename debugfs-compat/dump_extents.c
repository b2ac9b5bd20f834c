/* dump_extents.c - debugfs's dump_extents/extents/ex: the extent tree of a
 * file as a table of levels, entries, logical and physical ranges. */
#include "cmd.h"
#include "dfs_util.h"

#include <getopt.h>

#define EX_LEAF		0x01
#define EX_NODE		0x02

/* Digits of n minus one, as debugfs's int_log10 counts them. */
static int log10_floor(unsigned long long n)
{
	int l = 0;

	for (n /= 10; n; n /= 10)
		l++;
	return l;
}

static void ex_json(struct session *s, const struct ext2_extent_info *info,
		    const struct ext2fs_extent *e, int leaf)
{
	json_obj_begin(s->out, NULL);
	json_u64(s->out, "level", info->curr_level);
	json_u64(s->out, "max_depth", info->max_depth);
	json_u64(s->out, "entry", info->curr_entry);
	json_u64(s->out, "entries", info->num_entries);
	json_bool(s->out, "leaf", leaf);
	json_u64(s->out, "logical", e->e_lblk);
	json_u64(s->out, "physical", e->e_pblk);
	json_u64(s->out, "length", e->e_len);
	json_bool(s->out, "uninit",
		  leaf && (e->e_flags & EXT2_EXTENT_FLAGS_UNINIT));
	json_obj_end(s->out);
}

static void ex_table(struct session *s, ext2_ino_t ino, int flags, int lw,
		     int pw)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	struct ext2_extent_info info;
	int op = EXT2_EXTENT_ROOT;

	if (ext2fs_extent_open(s->fs, ino, &h))
		return;
	out_printf(s->out, "Level Entries %*s %*s Length Flags\n",
		   lw * 2 + 3, "Logical", pw * 2 + 3, "Physical");
	json_arr_begin(s->out, "extents");
	while (!ext2fs_extent_get(h, op, &e)) {
		int leaf = !!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF);

		op = EXT2_EXTENT_NEXT;
		if (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (!(flags & (leaf ? EX_LEAF : EX_NODE)))
			continue;
		if (ext2fs_extent_get_info(h, &info))
			continue;
		ex_json(s, &info, &e, leaf);
		if (!leaf) {
			out_printf(s->out, "%2d/%2d %3d/%3d %*llu - %*llu "
					   "%*llu%*s %6u\n",
				   info.curr_level, info.max_depth,
				   info.curr_entry, info.num_entries,
				   lw, (unsigned long long)e.e_lblk,
				   lw, (unsigned long long)e.e_lblk +
				   (e.e_len - 1),
				   pw, (unsigned long long)e.e_pblk,
				   pw + 3, "", e.e_len);
			continue;
		}
		out_printf(s->out, "%2d/%2d %3d/%3d %*llu - %*llu "
				   "%*llu - %*llu %6u %s\n",
			   info.curr_level, info.max_depth,
			   info.curr_entry, info.num_entries,
			   lw, (unsigned long long)e.e_lblk,
			   lw, (unsigned long long)e.e_lblk + (e.e_len - 1),
			   pw, (unsigned long long)e.e_pblk,
			   pw, (unsigned long long)e.e_pblk + (e.e_len - 1),
			   e.e_len,
			   e.e_flags & EXT2_EXTENT_FLAGS_UNINIT ? "Uninit" : "");
	}
	json_arr_end(s->out);
	ext2fs_extent_free(h);
}

static int do_dump_extents(struct session *s, int argc, char **argv)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	int c, flags = 0, lw, pw;

	while ((c = dfs_getopt(s, argc, argv, "nl")) != -1) {
		if (c == 'n')
			flags |= EX_NODE;
		else if (c == 'l')
			flags |= EX_LEAF;
	}
	if (argc != optind + 1) {
		out_error(s->out, NULL, 0, "Usage: dump_extents [-n] [-l] file");
		return CMD_FAIL;
	}
	if (!flags)
		flags = EX_NODE | EX_LEAF;
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	ino = dfs_string_to_inode(s, argv[optind]);
	if (!ino)
		return CMD_FAIL;
	if (dfs_read_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	if (!(inode.i_flags & EXT4_EXTENTS_FL)) {
		out_errtext(s->out, "%s: does not uses extent block maps\n",
			    argv[optind]);
		return CMD_FAIL;
	}
	lw = log10_floor((EXT2_I_SIZE(&inode) + s->fs->blocksize - 1) /
			 s->fs->blocksize) + 1;
	if (lw < 5)
		lw = 5;
	pw = log10_floor(ext2fs_blocks_count(s->fs->super)) + 1;
	if (pw < 5)
		pw = 5;
	if (sink_is_json(s->out))
		json_u64(s->out, "inode", ino);
	ex_table(s, ino, flags, lw, pw);
	return CMD_OK;
}

static const char *const ex_aliases[] = {"extents", "ex", NULL};
const struct cmd_entry cmd_dump_extents = {
	.name = "dump_extents",
	.aliases = ex_aliases,
	.synopsis = "dump_extents [-n] [-l] <file>",
	.summary = "Show a file's extent tree: index nodes and leaf extents",
	.options = "-n -l",
	.flags = CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.complete = COMPLETE_PATH,
	.run = do_dump_extents,
};
