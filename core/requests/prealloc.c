/* prealloc.c - `prealloc FILE SIZE`: plans unwritten extents for the
 * holes of a file's first SIZE bytes in one contiguous run, creating the
 * file when it does not exist. */
#include "args.h"
#include "cmd.h"
#include "dfs_util.h"
#include "e2l_err.h"
#include "plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* FILE names an existing regular file (a path or <ino>), or a new one in
 * an existing directory: *ino the file, or the directory with *name. */
static int find_file(struct session *s, const char *who, const char *file,
		     ext2_ino_t *ino, char **copy, const char **name)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	const char *dpath;
	char *slash;
	errcode_t err;

	*name = NULL;
	if (file[0] == '<')
		return arg_inode(s, who, file, ino) ||
		       dfs_read_inode(s, *ino, &inode, who) ||
		       (LINUX_S_ISREG(inode.i_mode) ? 0 :
			(out_error(s->out, who, 0, "%s is not a regular file",
				   file), 1));
	if (!ext2fs_namei(fs, s->root, s->cwd, file, ino)) {
		if (dfs_read_inode(s, *ino, &inode, who))
			return 1;
		if (!LINUX_S_ISREG(inode.i_mode)) {
			out_error(s->out, who, 0, "%s is not a regular file",
				  file);
			return 1;
		}
		return 0;
	}
	/* a new file: a name for an entry, in a directory that exists */
	*copy = strdup(file);
	if (!*copy)
		return 1;
	slash = strrchr(*copy, '/');
	*name = slash ? slash + 1 : *copy;
	if (slash)
		*slash = 0;
	dpath = slash ? (**copy ? *copy : "/") : ".";
	err = arg_entry_name(*name);
	if (err || strchr(*name, '\n')) {
		out_error(s->out, who, err ? err : E2L_ERR_BAD_ARGUMENT,
			  "%s: a new file's name is 1 to 255 bytes, without "
			  "a newline", file);
		return 1;
	}
	err = ext2fs_namei_follow(fs, s->root, s->cwd, dpath, ino);
	if (err) {
		out_error(s->out, who, err, "while looking up the directory "
			  "%s of %s", dpath, file);
		return 1;
	}
	if (dfs_read_inode(s, *ino, &inode, who))
		return 1;
	if (!LINUX_S_ISDIR(inode.i_mode)) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%s: %s is not a "
			  "directory", file, dpath);
		return 1;
	}
	return 0;
}

static int do_prealloc(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	const char *file = NULL, *sz = NULL, *name = NULL;
	struct placement pl = {0, NULL};
	ext2_ino_t ino = 0;
	char *copy = NULL;
	struct plan *p = NULL;
	__u64 size;
	int i, r, rc = CMD_FAIL;
	struct apply_opts ao;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	for (i = 1; i < argc; i++) {
		r = arg_placement(s, argv[0], argc, argv, &i, PLACE_ALL, &pl);
		if (r > 0)
			return CMD_FAIL;
		if (!r)
			continue;
		if (argv[i][0] != '-' && !file) {
			file = argv[i];
		} else if (!sz && (argv[i][0] != '-' ||
				   isdigit((unsigned char)argv[i][1]))) {
			sz = argv[i];	/* "-1" is a (bad) size */
		} else {
			file = NULL;
			break;
		}
	}
	if (!file || !sz) {
		out_error(s->out, argv[0], 0, "Usage: prealloc FILE SIZE "
			  "[--goal BLOCK | --group G | --middle | --start]");
		return CMD_FAIL;
	}
	if (arg_bytes(s, argv[0], "size", sz, &size))
		return CMD_FAIL;
	if (find_file(s, argv[0], file, &ino, &copy, &name))
		goto out;
	if (!pl.opt)
		pl.goal = ext2fs_group_first_block2(fs,
				ext2fs_group_of_ino(fs, ino));
	if (plan_build_prealloc(s, ino, name, size, pl.goal, &p))
		goto out;
	rc = CMD_OK;
	if (!p)
		goto out;	/* nothing to do */
	if (plan_guard(s, p, argv[0])) {	/* before it is shown */
		plan_free(p);
		rc = CMD_FAIL;
		goto out;
	}
	plan_show(s, p);
	if (name)
		out_printf(s->out, "  (creates %s first)\n", file);
	if (p->dir_blocks[0])
		out_printf(s->out, "  (directory %u has no room for the entry: "
			   "it grows into block %llu, and %llu if its mapping "
			   "needs a block too)\n", ino,
			   (unsigned long long)p->dir_blocks[0],
			   (unsigned long long)p->dir_blocks[1]);
	if (sink_is_json(s->out) && p->dir_blocks[0]) {
		json_arr_begin(s->out, "directory_grows_into");
		json_u64(s->out, NULL, p->dir_blocks[0]);
		json_u64(s->out, NULL, p->dir_blocks[1]);
		json_arr_end(s->out);
	}
	rc = plan_offer(s, p, 1, &ao);
out:
	free(copy);
	return rc;
}

const struct cmd_entry cmd_prealloc = {
	.name = "prealloc",
	.synopsis = "prealloc FILE SIZE [--goal BLOCK | --group G | --middle | "
		    "--start]",
	.summary = "Plan unwritten extents for a file's first SIZE bytes",
	.options = "--goal --group --middle --start",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON | CMD_PLAN_OP,
	.complete = COMPLETE_PATH,
	.run = do_prealloc,
};
