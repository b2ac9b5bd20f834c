/* quit.c - `quit`/`q`: ends the shell or the command file. */
#include "cmd.h"
#include "dfs_requests.h"
#include "help.h"

#include <string.h>

static int do_quit(struct session *s, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	s->quit = true;
	return CMD_OK;
}

static const char *const quit_aliases[] = {"q", NULL};
const struct cmd_entry cmd_quit = {
	.name = "quit",
	.aliases = quit_aliases,
	.synopsis = "quit",
	.summary = "Leave the shell",
	.flags = CMD_DEBUGFS,
	.run = do_quit,
};
