/* list_requests.c - `lr`/`list_requests`: debugfs's request table (and the
 * extent sub-mode's, inside it) laid out as its request library prints it. */
#include "cmd.h"
#include "dfs_requests.h"
#include "help.h"

#include <string.h>

static void lr_list(struct session *s, const struct dfs_request *r)
{
	for (; r->names; r++) {
		if (strlen(r->names) > 23)
			out_printf(s->out, "%s\n%25s%s\n", r->names, "",
				   r->desc);
		else
			out_printf(s->out, "%-25s%s\n", r->names, r->desc);
	}
}

/* Prints debugfs's request table as its request library lays it out. */
static int do_lr(struct session *s, int argc, char **argv)
{
	const struct dfs_request *r;

	(void)argc;
	(void)argv;
	out_printf(s->out, "Available debugfs requests:\n\n");
	for (r = dfs_requests; r->names; r++) {
		if (s->extent && !strcmp(r->names, "help"))
			lr_list(s, dfs_extent_requests);
		if (strlen(r->names) > 23)
			out_printf(s->out, "%s\n%25s%s\n", r->names, "",
				   r->desc);
		else
			out_printf(s->out, "%-25s%s\n", r->names, r->desc);
	}
	return CMD_OK;
}

static const char *const lr_aliases[] = {"lr", "?", NULL};
const struct cmd_entry cmd_list_requests = {
	.name = "list_requests",
	.aliases = lr_aliases,
	.synopsis = "list_requests",
	.summary = "List debugfs's requests, as debugfs does",
	.flags = CMD_DEBUGFS,
	.run = do_lr,
};
