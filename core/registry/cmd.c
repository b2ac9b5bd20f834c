/* cmd.c - the dispatcher: split a request line, find the command, check its
 * arguments and what it needs once, run it, and bracket its output for JSON. */
#include "cmd.h"
#include "dfs_requests.h"
#include "dfs_util.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cmd_reset_getopt(void)
{
	optind = 0; /* glibc: 0 resets all of getopt's hidden state */
	opterr = 1;
}

const struct cmd_entry *cmd_find(const char *name)
{
	const struct cmd_entry *const *c;
	const char *const *a;

	for (c = cmd_table; *c; c++) {
		if (!strcmp((*c)->name, name))
			return *c;
		for (a = (*c)->aliases; a && *a; a++)
			if (!strcmp(*a, name))
				return *c;
	}
	return NULL;
}

errcode_t cmd_split(const char *line, int *argcp, char ***argvp)
{
	size_t n = strlen(line);
	/* Worst case: every other byte starts a word. */
	size_t max_words = n / 2 + 2;
	char **argv = malloc(max_words * sizeof(char *) + n + 1);
	char *out, *word;
	const char *p = line;
	int argc = 0;

	if (!argv)
		return ENOMEM;
	out = (char *)(argv + max_words);
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		word = out;
		while (*p && *p != ' ' && *p != '\t') {
			if (*p != '"') {
				*out++ = *p++;
				continue;
			}
			p++; /* inside quotes; "" is a literal quote */
			for (;;) {
				if (!*p) {
					free(argv);
					return EINVAL;
				}
				if (*p == '"') {
					if (p[1] == '"') {
						*out++ = '"';
						p += 2;
						continue;
					}
					p++;
					break;
				}
				*out++ = *p++;
			}
		}
		*out++ = 0;
		argv[argc++] = word;
	}
	argv[argc] = NULL;
	*argcp = argc;
	*argvp = argv;
	return 0;
}

/* Checks c's arguments and what it needs, in debugfs's order; prints why
 * not and returns 1 when one is unmet. */
static int check_needs(struct session *s, const struct cmd_entry *c,
		       int argc, char **argv)
{
	const char *who = argv[0];
	unsigned need = 0;

	/* debugfs's requests see the bitmaps debugfs would load, those that
	 * load them themselves (ffb) too */
	s->debugfs_bitmaps = (c->flags & CMD_DEBUGFS) != 0;
	if ((c->flags & CMD_OPEN_FIRST) && dfs_check_open(s, who))
		return 1;
	if (c->usage && (argc < c->min_args || argc > c->max_args))
		return cmd_usage(s, c, who) != CMD_OK;
	if ((c->flags & CMD_NEEDS_NOFS) && dfs_check_notopen(s, who))
		return 1;
	/* the whole descriptor table in one read (one block at a time on
	 * demand stays the fallback when that fails) */
	if (s->fs && !(c->flags & CMD_FEW_GROUPS))
		(void)session_need(s, NEED_GROUP_DESC);
	if (!(c->flags & (CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS)))
		return 0;
	if (dfs_check_open(s, who))
		return 1;
	if ((c->flags & CMD_NEEDS_RW) && dfs_check_rw(s, who))
		return 1;
	if (c->flags & CMD_NEEDS_BBITMAP)
		need |= NEED_BLOCK_BITMAP;
	if (c->flags & CMD_NEEDS_IBITMAP)
		need |= NEED_INODE_BITMAP;
	if ((c->flags & CMD_LIVE_KERNEL) && s->live)
		need = 0;
	return need ? dfs_check_loaded(s, who, need) : 0;
}

int cmd_usage(struct session *s, const struct cmd_entry *c, const char *who)
{
	const char *name = c->usage_name ? c->usage_name : who;
	const char *usage = c->usage ? c->usage : "";

	if (c->flags & CMD_USAGE_BARE)
		out_error(s->out, NULL, 0, "Usage: %s %s", name, usage);
	else if (c->flags & CMD_USAGE_STDOUT)
		out_printf(s->out, "%s: Usage: %s %s\n", who, name, usage);
	else
		dfs_usage(s, who, name, usage);
	return CMD_FAIL;
}

const struct cmd_entry *cmd_lookup(int argc, char **argv, int *words)
{
	const struct cmd_entry *const *c;
	const char *const *ph;
	size_t n;

	*words = 2;
	for (c = cmd_table; argc > 1 && *c; c++)
		for (ph = (*c)->phrases; ph && *ph; ph++) {
			n = strcspn(*ph, " ");
			if (!strncmp(*ph, argv[0], n) && !argv[0][n] &&
			    !strcmp(*ph + n + 1, argv[1]))
				return *c;
		}
	*words = 1;
	return cmd_find(argv[0]);
}

int cmd_run_entry(struct session *s, const struct cmd_entry *c, int argc,
		  char **argv)
{
	if (check_needs(s, c, argc, argv))
		return CMD_FAIL;
	cmd_reset_getopt();
	return c->run(s, argc, argv) ? CMD_FAIL : CMD_OK;
}

/* An unknown request, reported as the personality does: e2layout names
 * the request; debugfs's -R and -f (ss_perror) show the line as its parser
 * left it (leading blanks, then the first word), its listener
 * (ss_listen) the first word up to a blank, quoted. */
static void not_found(struct session *s, const char *name, const char *lead,
		      size_t nlead)
{
	s->unknown++;
	if (!s->debugfs) {
		if (dfs_request_find(name))
			out_error(s->out, "e2layout", 0,
				  "%s: this debugfs request is not supported "
				  "yet (see debugfs-compat/STATUS.md)", name);
		else
			out_error(s->out, "e2layout", 0,
				  "Command not found %s", name);
	} else if (s->listening) {
		out_error(s->out, "debugfs", 0, "Unknown request \"%.*s\".  "
			  "Type \"?\" for a request list.",
			  (int)strcspn(name, " \t"), name);
	} else {
		out_error(s->out, "debugfs", 0, "Command not found %.*s%s",
			  (int)nlead, lead, name);
	}
}

static int dispatch(struct session *s, int argc, char **argv,
		    const char *lead, size_t nlead)
{
	const struct cmd_entry *c;
	int status, words;

	if (argc < 1)
		return CMD_OK;
	c = cmd_lookup(argc, argv, &words);
	sink_command_begin(s->out, argc, argv);
	if (!c) {
		not_found(s, argv[0], lead, nlead);
		status = CMD_FAIL;
	} else {
		/* a phrase's handler sees its second word as argv[0] */
		status = cmd_run_entry(s, c, argc - (words - 1),
				       argv + (words - 1));
	}
	sink_command_end(s->out, status, argc, argv);
	if (status != CMD_OK)
		s->failed = 1;
	return status;
}

int cmd_run_argv(struct session *s, int argc, char **argv)
{
	return dispatch(s, argc, argv, "", 0);
}

/* debugfs's "!COMMAND": the rest of the line goes to the shell. */
static int shell_escape(struct session *s, const char *line,
			const char *command)
{
	fflush(stdout);
	if (system(command) < 0) {
		out_error(s->out, "debugfs", errno, "%s", line);
		s->unknown++;	/* ss counts it as a failed line */
		return CMD_FAIL;
	}
	return CMD_OK;
}

int cmd_run_line(struct session *s, const char *line)
{
	const char *p = line;
	int argc, status;
	char **argv;
	errcode_t err;

	/* as debugfs's request parser: blanks are spaces and tabs */
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || (*p == '#' && !s->debugfs))
		return CMD_OK;
	if (*p == '!' && s->debugfs)
		return shell_escape(s, line, p + 1);
	err = cmd_split(p, &argc, &argv);
	if (err) {
		/* debugfs says so and goes on: not a failed request there */
		if (s->debugfs) {
			out_error(s->out, "debugfs", 0,
				  "Unbalanced quotes in command line");
			return CMD_OK;
		}
		out_error(s->out, "e2layout", 0,
			  "Unbalanced quotes in command line: %s", line);
		s->failed = 1;
		return CMD_FAIL;
	}
	status = dispatch(s, argc, argv, line, p - line);
	free(argv);
	return status;
}
