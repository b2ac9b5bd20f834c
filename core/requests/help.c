/* help.c - `help [REQUEST|TOPIC]`: the request list, one request's synopsis
 * and help page, or a topic (help/); debugfs's own help in its personality.
 * The siblings lr, quit and params are in list_requests.c, quit.c and
 * show_debugfs_params.c. */
#include "cmd.h"
#include "dfs_requests.h"
#include "help.h"

#include <string.h>

const char *help_find(const char *kind, const char *name)
{
	const struct help_doc *d;

	for (d = help_docs; d->kind; d++)
		if (!strcmp(d->kind, kind) && !strcmp(d->name, name))
			return d->text;
	return NULL;
}

static void help_one(struct session *s, const struct cmd_entry *c)
{
	const char *const *a;
	const char *doc = help_find("cmd", c->name);

	out_printf(s->out, "%s\n\n  %s\n", c->summary, c->synopsis);
	if (c->aliases && c->aliases[0]) {
		out_printf(s->out, "\nAliases:");
		for (a = c->aliases; *a; a++)
			out_printf(s->out, " %s", *a);
		out_printf(s->out, "\n");
	}
	if (doc)
		out_printf(s->out, "\n%s", doc);
	if (help_find("topics", c->name))
		out_printf(s->out, "\nThere is also a topic %s: help topic %s\n",
			   c->name, c->name);
}

static void help_list(struct session *s)
{
	const struct cmd_entry *const *c;
	const struct help_doc *d;
	int first = 1;

	out_printf(s->out, "e2layout requests (debugfs requests keep "
			   "debugfs's names and output):\n\n");
	for (c = cmd_table; *c; c++)
		out_printf(s->out, "  %-22s %s\n", (*c)->name,
			   (*c)->summary);
	for (d = help_docs; d->kind; d++) {
		if (strcmp(d->kind, "topics"))
			continue;
		out_printf(s->out, "%s%s", first ? "\nTopics:" : "",
			   " ");
		out_printf(s->out, "%s", d->name);
		first = 0;
	}
	out_printf(s->out, "%s\"help NAME\" tells more about a request or "
			   "topic.\n", first ? "\n" : "\n\n");
}

static void help_json(struct session *s, const struct cmd_entry *c)
{
	const char *const *a;

	json_obj_begin(s->out, NULL);
	json_str(s->out, "name", c->name);
	json_arr_begin(s->out, "aliases");
	for (a = c->aliases; a && *a; a++)
		json_str(s->out, NULL, *a);
	json_arr_end(s->out);
	json_str(s->out, "synopsis", c->synopsis);
	json_str(s->out, "summary", c->summary);
	json_bool(s->out, "writes", !!(c->flags & (CMD_NEEDS_RW | CMD_WRITES)));
	json_bool(s->out, "debugfs", !!(c->flags & CMD_DEBUGFS));
	json_bool(s->out, "json_result", !!(c->flags & CMD_JSON));
	json_str(s->out, "help", help_find("cmd", c->name));
	json_obj_end(s->out);
}

/* debugfs's help with no topic is its lr (list_requests.c). */
extern const struct cmd_entry cmd_list_requests;

/* debugfs's help (its request library's): the request list, or an info
 * page it never has. */
static int dfs_help(struct session *s, int argc, char **argv)
{
	if (argc == 1)
		return cmd_list_requests.run(s, argc, argv);
	if (argc != 2)
		out_errtext(s->out, "debugfs (%s): usage:\n\t%s [topic|command]"
			    "\nor\t%s\n\n", argv[0], argv[0], argv[0]);
	else
		out_errtext(s->out, "debugfs (%s): No info directory (null)\n",
			    argv[0]);
	return CMD_FAIL;
}

static int do_help(struct session *s, int argc, char **argv)
{
	const struct cmd_entry *const *all;
	const struct cmd_entry *c;
	const char *doc;

	if (s->debugfs)
		return dfs_help(s, argc, argv);
	if (argc == 3 && !strcmp(argv[1], "topic")) {
		doc = help_find("topics", argv[2]);
		if (!doc) {
			out_error(s->out, argv[0], 0, "no topic named %s",
				  argv[2]);
			return CMD_FAIL;
		}
		out_printf(s->out, "%s", doc);
		return CMD_OK;
	}
	if (argc > 2) {
		out_error(s->out, argv[0], 0, "Usage: help [REQUEST|TOPIC] | "
			  "help topic TOPIC");
		return CMD_FAIL;
	}
	if (sink_is_json(s->out)) {
		json_arr_begin(s->out, "commands");
		for (all = cmd_table; *all; all++)
			if (argc < 2 || *all == cmd_find(argv[1]))
				help_json(s, *all);
		json_arr_end(s->out);
	}
	if (argc < 2) {
		help_list(s);
		return CMD_OK;
	}
	c = cmd_find(argv[1]);
	if (c) {
		help_one(s, c);
		return CMD_OK;
	}
	doc = help_find("topics", argv[1]);
	if (doc) {
		out_printf(s->out, "%s", doc);
		return CMD_OK;
	}
	if (dfs_request_find(argv[1])) {
		out_error(s->out, argv[0], 0,
			  "%s is a debugfs request that e2layout does not "
			  "support yet", argv[1]);
		return CMD_FAIL;
	}
	out_error(s->out, argv[0], 0, "no request or topic named %s",
		  argv[1]);
	return CMD_FAIL;
}

const struct cmd_entry cmd_help = {
	.name = "help",
	.synopsis = "help [REQUEST|TOPIC | topic TOPIC]",
	.summary = "Display info on a request or topic",
	.complete = COMPLETE_TOPIC,
	.flags = CMD_JSON,
	.run = do_help,
};
