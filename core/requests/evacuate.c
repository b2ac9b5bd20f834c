/* evacuate.c - `evacuate FIRST-LAST`: a plan that moves every inode's blocks
 * out of a block range into free runs elsewhere, previewed and kept as the
 * session's current plan for `apply`. */
#include "args.h"
#include "cmd.h"
#include "dfs_util.h"
#include "e2l_err.h"
#include "owner.h"
#include "plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* FIRST-LAST (or FIRST LAST): blocks inside the filesystem, in order. */
static int parse_range(struct session *s, const char *who, int argc,
		       char **argv, blk64_t *first, blk64_t *last)
{
	unsigned long long a, b;
	char *dash, *copy = NULL;
	int bad = 1;

	if (argc == 2 && (dash = strchr(argv[1], '-')) != NULL &&
	    dash != argv[1] && (copy = strdup(argv[1])) != NULL) {
		copy[dash - argv[1]] = 0;
		bad = arg_number(s, who, "FIRST", copy, &a) ||
		      arg_number(s, who, "LAST", dash + 1, &b);
	} else if (argc == 3) {
		bad = arg_number(s, who, "FIRST", argv[1], &a) ||
		      arg_number(s, who, "LAST", argv[2], &b);
	} else {
		out_error(s->out, who, 0, "Usage: evacuate FIRST-LAST (blocks "
			  "within the filesystem, FIRST <= LAST)");
	}
	free(copy);
	if (bad)
		return 1;
	if (arg_block_in_fs(s, who, "FIRST", a) ||
	    arg_block_in_fs(s, who, "LAST", b))
		return 1;
	if (a > b) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%llu-%llu: FIRST "
			  "is after LAST", a, b);
		return 1;
	}
	*first = a;
	*last = b;
	return 0;
}

static int do_evacuate(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	ext2fs_block_bitmap work = NULL;
	struct plan *chain = NULL, **tail = &chain;
	struct plan_evac e = {0};
	blk64_t first, last;
	errcode_t err;
	int rc = CMD_FAIL;
	struct apply_opts ao;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	if (parse_range(s, argv[0], argc, argv, &first, &last))
		return CMD_FAIL;
	e.first = first;
	e.len = last - first + 1;
	err = plan_evacuate_scan(s, &e);
	if (err) {
		out_error(s->out, argv[0], err, "while finding what owns "
			  "blocks %llu-%llu", (unsigned long long)first,
			  (unsigned long long)last);
		goto out;
	}
	if (e.fixed || e.xattr) {
		out_error(s->out, argv[0], 0, "blocks %llu-%llu hold %llu "
			  "blocks of metadata that cannot move (superblocks, "
			  "descriptors, bitmaps, inode tables, reserved or "
			  "extended-attribute blocks); choose another range",
			  (unsigned long long)first, (unsigned long long)last,
			  (unsigned long long)(e.fixed + e.xattr));
		goto out;
	}
	if (!e.n && !e.dind) {
		out_printf(s->out, "blocks %llu-%llu are already free\n",
			   (unsigned long long)first, (unsigned long long)last);
		rc = CMD_OK;
		goto out;
	}
	/* Plan every move with the range (and earlier targets) held. */
	err = ext2fs_copy_bitmap(fs->block_map, &work);
	if (err)
		goto out;
	ext2fs_mark_block_bitmap_range2(work, first, e.len);
	err = plan_evacuate_build(s, argv[0], &e, work, &tail);
	ext2fs_free_block_bitmap(work);
	if (err)
		goto out;
	if (plan_guard(s, chain, argv[0]))	/* before it is shown */
		goto out;
	plan_show_chain(s, chain);
	out_printf(s->out, "evacuate %llu-%llu: %zu inode%s to move, %llu "
		   "blocks\n", (unsigned long long)first,
		   (unsigned long long)last, e.n, e.n == 1 ? "" : "s",
		   (unsigned long long)e.moved);
	if (e.dind)
		out_printf(s->out, "(and the resize inode's double-indirect "
			   "block)\n");
	rc = plan_offer(s, chain, 1, &ao);
	chain = NULL;
out:
	plan_free(chain);
	plan_evacuate_done(&e);
	return rc;
}

const struct cmd_entry cmd_evacuate = {
	.name = "evacuate",
	.synopsis = "evacuate FIRST-LAST",
	.summary = "Plan moving every file out of a block range",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BITMAPS | CMD_JSON | CMD_PLAN_OP,
	.run = do_evacuate,
};
