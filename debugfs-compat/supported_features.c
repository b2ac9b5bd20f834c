/* supported_features.c - `supported_features [FEATURE]`: the filesystem and
 * journal features this libext2fs supports, or whether one of them is. */
#include "cmd.h"
#include "dfs_open.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The journal features libext2fs's journal code handles (incompat only). */
#define SF_JOURNAL_INCOMPAT	0x3f

static int do_supported_features(struct session *s, int argc, char **argv)
{
	/* as debugfs 1.47.0 is built: with MMP */
	static const __u32 fs_supp[3] = {EXT2_LIB_FEATURE_COMPAT_SUPP,
					 EXT2_LIB_FEATURE_INCOMPAT_SUPP |
					 EXT4_FEATURE_INCOMPAT_MMP,
					 EXT2_LIB_FEATURE_RO_COMPAT_SUPP};
	static const __u32 j_supp[3] = {0, SF_JOURNAL_INCOMPAT, 0};
	int type, i, j;
	unsigned mask;

	if (argc > 1) {
		if ((!e2p_string2feature(argv[1], &type, &mask) &&
		     (fs_supp[type] & mask)) ||
		    (!e2p_jrnl_string2feature(argv[1], &type, &mask) &&
		     (j_supp[type] & mask))) {
			out_printf(s->out, "Supported feature: %s\n", argv[1]);
			return CMD_OK;
		}
		out_error(s->out, argv[0], 0, "Unknown feature: %s\n",
			  argv[1]);
		return CMD_FAIL;
	}
	out_printf(s->out, "Supported features:");
	for (i = 0; i < 3; i++)
		for (j = 0; j < 32; j++)
			if (fs_supp[i] & (1u << j))
				out_printf(s->out, " %s",
					   e2p_feature2string(i, 1u << j));
	out_printf(s->out, "\n");
	for (i = 0; i < 3; i++)
		for (j = 0; j < 32; j++)
			if (j_supp[i] & (1u << j))
				out_printf(s->out, " %s",
					   e2p_jrnl_feature2string(i, 1u << j));
	out_printf(s->out, "\n");
	return CMD_OK;
}

const struct cmd_entry cmd_supported_features = {
	.name = "supported_features",
	.synopsis = "supported_features [feature]",
	.summary = "Print the features this libext2fs supports",
	.flags = CMD_DEBUGFS,
	.run = do_supported_features,
};
