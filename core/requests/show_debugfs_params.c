/* show_debugfs_params.c - `params`/`show_debugfs_params`: debugfs's session
 * parameters (the open filesystem, its mode), in debugfs's words. */
#include "cmd.h"
#include "dfs_requests.h"
#include "help.h"

#include <string.h>

static int do_params(struct session *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (sink_is_json(s->out)) {
		json_bool(s->out, "read_write",
			  s->fs && (s->fs->flags & EXT2_FLAG_RW));
		json_str(s->out, "device", s->fs ? s->fs->device_name : NULL);
		json_bool(s->out, "catastrophic",
			  !!(s->flags & SESSION_CATASTROPHIC));
		json_str(s->out, "undo_file", s->undo_file);
	}
	/* no open mode without a filesystem, as in debugfs */
	if (s->fs)
		out_printf(s->out, "Open mode: read-%s\n",
			   s->fs->flags & EXT2_FLAG_RW ? "write" : "only");
	out_printf(s->out, "Filesystem in use: %s\n",
		   s->fs ? s->fs->device_name : "--none--");
	return CMD_OK;
}

static const char *const params_aliases[] = {"params", NULL};
const struct cmd_entry cmd_show_debugfs_params = {
	.name = "show_debugfs_params",
	.aliases = params_aliases,
	.synopsis = "show_debugfs_params",
	.summary = "Show the open mode and the filesystem in use",
	.flags = CMD_DEBUGFS | CMD_JSON,
	.run = do_params,
};
