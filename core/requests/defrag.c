/* defrag.c - `defrag FILE [--goal BLOCK | --group G]`: a plan that moves one
 * file's blocks into a single contiguous free run, previewed and kept as the
 * session's current plan for `apply`; on a mounted filesystem, the live
 * defrag through the kernel (core/live/live_defrag_cmd.c). */
#include "args.h"
#include "cmd.h"
#include "dfs_util.h"
#include "e2l_err.h"
#include "live_defrag.h"
#include "owner.h"
#include "plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int do_defrag(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	const char *file = NULL;
	struct placement pl = {~0ULL, NULL};
	ext2_ino_t ino;
	struct plan *p;
	int i, r;
	struct apply_opts ao;

	if (s->live)	/* mounted: through the kernel */
		return ldf_request(s, argc, argv);
	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	for (i = 1; i < argc; i++) {
		r = arg_placement(s, argv[0], argc, argv, &i, PLACE_ALL, &pl);
		if (r > 0)
			return CMD_FAIL;
		if (!r)
			continue;
		if (argv[i][0] == '-' || file) {
			out_error(s->out, argv[0], 0, "Usage: defrag FILE "
				  "[--goal BLOCK | --group G]");
			return CMD_FAIL;
		}
		file = argv[i];
	}
	if (!file) {
		out_error(s->out, argv[0], 0, "Usage: defrag FILE [--goal "
			  "BLOCK | --group G]");
		return CMD_FAIL;
	}
	if (arg_inode(s, argv[0], file, &ino) ||
	    dfs_read_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	if (!LINUX_S_ISREG(inode.i_mode) || ino < EXT2_FIRST_INO(fs->super)) {
		out_error(s->out, argv[0], 0, "%s is not a regular file", file);
		return CMD_FAIL;
	}
	if (inode.i_flags & EXT4_INLINE_DATA_FL) {
		out_error(s->out, argv[0], 0, "%s keeps its data inline in "
			  "the inode; there is nothing to defragment", file);
		return CMD_FAIL;
	}
	if (!pl.opt)
		pl.goal = ext2fs_group_first_block2(fs,
				ext2fs_group_of_ino(fs, ino));
	if (plan_build_move(s, "defrag", ino, pl.goal, 0, &p))
		return CMD_FAIL;
	if (p->nold <= 1 && p->nold_meta <= p->new_meta) {
		out_printf(s->out, "%s is already in one contiguous run; "
			   "nothing to do\n", file);
		plan_free(p);
		return CMD_OK;
	}
	return plan_offer(s, p, 0, &ao);
}

const struct cmd_entry cmd_defrag = {
	.name = "defrag",
	.synopsis = "defrag FILE|<ino> [--goal BLOCK | --group G]; live: "
		    "defrag PATH...|--worst N [--near PATH|--group G] "
		    "[--apply]",
	.summary = "Plan moving a file's blocks into one contiguous run "
		   "(live: through the kernel)",
	.options = "--goal --group --middle --start --near --worst --chunk "
		   "--rate --apply",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON |
		 CMD_LIVE_KERNEL,
	.complete = COMPLETE_PATH,
	.run = do_defrag,
};
