/* repack_flex.c - `repack_flex [N | --all] [--groups-per-flex G]` (alias
 * repack-flex): packs flex group N's (or every flex group's) bitmaps and
 * inode tables into one island each, as mke2fs -G lays them out. */
#include "args.h"
#include "cmd.h"
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#define REPACK_USAGE "Usage: repack_flex [N | --all] [--groups-per-flex G] " \
	"[--no-undo | --undo FILE]"

/* --groups-per-flex G: a power of two from 2 to 2^31; its log in *log. */
static int groups_per_flex(struct session *s, const char *who,
			   const char *val, int *log)
{
	unsigned long long g;

	if (arg_number(s, who, "G", val, &g))
		return 1;
	if (g < 2 || g > (1ULL << 31) || (g & (g - 1))) {
		out_error(s->out, who, 0, "--groups-per-flex takes a power of "
			  "two from 2 to 2147483648, not %s", val);
		return 1;
	}
	for (*log = 0; (1ULL << *log) < g; (*log)++)
		;
	return 0;
}

/* The chain of --all or --groups-per-flex: built, checked, shown, offered. */
static int repack_chain(struct session *s, int all, unsigned long flex,
			int log, const struct apply_opts *ao)
{
	struct plan *chain, *p;
	size_t moves = 0, packs = 0;

	if (plan_build_repack_all(s, all, flex, log, &chain))
		return CMD_FAIL;
	if (!chain) {
		out_printf(s->out, "%s already packed; nothing to do\n", all ?
			   "every flex group is" : "the flex group is");
		return CMD_OK;
	}
	if (plan_guard(s, chain, "repack_flex")) {	/* before it is shown */
		plan_free(chain);
		return CMD_FAIL;
	}
	plan_show_chain(s, chain);
	for (p = chain; p; p = p->next)
		p->repack ? packs++ : moves++;
	out_printf(s->out, "repack_flex%s: %zu flex group%s to pack, %zu "
		   "file%s to move out of the islands first; one job, one "
		   "undo file\n", all ? " --all" : "", packs,
		   packs == 1 ? "" : "s", moves, moves == 1 ? "" : "s");
	return plan_offer(s, chain, 1, ao);
}

static int do_repack_flex(struct session *s, int argc, char **argv)
{
	unsigned long long flex = 0;
	struct apply_opts ao;
	struct plan *p;
	int i, n = 0, all = 0, log = -1;
	const char *num = NULL;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--all")) {
			all = 1;
		} else if (!strcmp(argv[i], "--groups-per-flex") &&
			   i + 1 < argc) {
			if (groups_per_flex(s, argv[0], argv[++i], &log))
				return CMD_FAIL;
		} else if (!strncmp(argv[i], "--", 2)) {
			out_error(s->out, argv[0], 0, REPACK_USAGE);
			return CMD_FAIL;
		} else if (!n++) {	/* N: arg_number says what is wrong */
			num = argv[i];
		} else {
			out_error(s->out, argv[0], 0, REPACK_USAGE);
			return CMD_FAIL;
		}
	}
	if (all && num) {
		out_error(s->out, argv[0], 0, "N and --all exclude each other; "
			  "%s", REPACK_USAGE);
		return CMD_FAIL;
	}
	/* a plain number (strtoul took "-1" for 2^64 - 1) */
	if (num && arg_number(s, argv[0], "N", num, &flex))
		return CMD_FAIL;
	if (flex > ~0UL)
		flex = ~0UL;	/* past any flex group: refused as such */
	if (all || log >= 0)
		return repack_chain(s, all, (unsigned long)flex, log, &ao);
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
	.synopsis = "repack_flex [N | --all] [--groups-per-flex G] "
		    "[--no-undo | --undo FILE]",
	.summary = "Pack a flex group's bitmaps and inode tables together",
	.options = "--all --groups-per-flex --no-undo --undo",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BITMAPS | CMD_JSON | CMD_PLAN_OP,
	.run = do_repack_flex,
};
