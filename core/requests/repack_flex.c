/* repack_flex.c - `repack_flex [N]` (alias repack-flex): packs flex group N's
 * bitmaps and inode tables into one island, as mke2fs -G lays them out. */
#include "args.h"
#include "cmd.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static int do_repack_flex(struct session *s, int argc, char **argv)
{
	unsigned long long flex = 0;
	struct apply_opts ao;
	struct plan *p;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;
	if (argc > 2) {
		out_error(s->out, argv[0], 0, "Usage: repack_flex [N] "
			  "[--no-undo | --undo FILE]");
		return CMD_FAIL;
	}
	/* a plain number (strtoul took "-1" for 2^64 - 1) */
	if (argc == 2 && arg_number(s, argv[0], "N", argv[1], &flex))
		return CMD_FAIL;
	if (flex > ~0UL)
		flex = ~0UL;	/* past any flex group: refused as such */
	if (plan_build_repack(s, flex, &p))
		return CMD_FAIL;
	if (!p)
		return CMD_OK;	/* already packed */
	return plan_offer(s, p, 0, &ao);
}

static const char *const repack_aliases[] = {"repack-flex", NULL};
static const char *const repack_phrases[] = {"repack flex", NULL};

const struct cmd_entry cmd_repack_flex = {
	.name = "repack_flex",
	.aliases = repack_aliases,
	.phrases = repack_phrases,
	.synopsis = "repack_flex [N] [--no-undo | --undo FILE]",
	.summary = "Pack a flex group's bitmaps and inode tables together",
	.options = "--no-undo --undo",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BITMAPS | CMD_JSON | CMD_PLAN_OP,
	.run = do_repack_flex,
};
