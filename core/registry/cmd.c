/* cmd.c - the dispatcher: split a request line, find the command, check what
 * it needs once, run it, and bracket its output for JSON. */
#include "cmd.h"
#include "dfs_requests.h"

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

/* Checks what the entry needs; prints why not and returns 1 when unmet. */
static int check_needs(struct session *s, const struct cmd_entry *c,
		       const char *who)
{
	unsigned need = 0;
	errcode_t err;

	if ((c->flags & CMD_NEEDS_NOFS) && s->fs) {
		out_error(s->out, who, 0,
			  "Filesystem %s is still open.  Close it first.\n",
			  s->fs->device_name);
		return 1;
	}
	/* the whole descriptor table in one read (one block at a time on
	 * demand stays the fallback when that fails) */
	if (s->fs && !(c->flags & CMD_FEW_GROUPS))
		(void)session_need(s, NEED_GROUP_DESC);
	if (!(c->flags & (CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_NEEDS_BITMAPS)))
		return 0;
	if (!s->fs) {
		out_error(s->out, who, 0, "Filesystem not open");
		return 1;
	}
	if ((c->flags & CMD_NEEDS_RW) && !(s->fs->flags & EXT2_FLAG_RW)) {
		out_error(s->out, who, 0, "Filesystem opened read/only");
		return 1;
	}
	if (c->flags & CMD_NEEDS_BBITMAP)
		need |= NEED_BLOCK_BITMAP;
	if (c->flags & CMD_NEEDS_IBITMAP)
		need |= NEED_INODE_BITMAP;
	if ((c->flags & CMD_LIVE_KERNEL) && s->live)
		need = 0;
	if (!need)
		return 0;
	if (s->flags & SESSION_CATASTROPHIC) {
		out_error(s->out, who, 0, "Filesystem bitmaps not loaded");
		return 1;
	}
	err = session_need(s, need);
	if (err) {
		out_error(s->out, who, err, "while reading allocation bitmaps");
		return 1;
	}
	return 0;
}

/* "journal relocate ..." runs journal_relocate when there is one. */
static const struct cmd_entry *find_two_words(int argc, char **argv)
{
	char name[64];

	if (argc < 2 || snprintf(name, sizeof(name), "%s_%s", argv[0],
				 argv[1]) >= (int)sizeof(name))
		return NULL;
	return cmd_find(name);
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
	int status, shift = 0;

	if (argc < 1)
		return CMD_OK;
	c = find_two_words(argc, argv);
	if (c)
		shift = 1;
	else
		c = cmd_find(argv[0]);
	sink_command_begin(s->out, argc, argv);
	if (!c) {
		not_found(s, argv[0], lead, nlead);
		status = CMD_FAIL;
	} else if (check_needs(s, c, argv[0])) {
		status = CMD_FAIL;
	} else {
		cmd_reset_getopt();
		status = c->run(s, argc - shift, argv + shift) ? CMD_FAIL
							       : CMD_OK;
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
