/* cmd.c - the dispatcher: split a request line, find the command, check what
 * it needs once, run it, and bracket its output for JSON. */
#include "cmd.h"
#include "dfs_requests.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
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
		while (*p && isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		word = out;
		while (*p && !isspace((unsigned char)*p)) {
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

int cmd_run_argv(struct session *s, int argc, char **argv)
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
		if (dfs_request_find(argv[0]))
			out_error(s->out, "e2layout", 0,
				  "%s: this debugfs request is not supported "
				  "yet (see debugfs-compat/STATUS.md)",
				  argv[0]);
		else
			out_error(s->out, "e2layout", 0,
				  "Command not found %s", argv[0]);
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

int cmd_run_line(struct session *s, const char *line)
{
	const char *p = line;
	int argc, status;
	char **argv;
	errcode_t err;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p || *p == '#')
		return CMD_OK;
	err = cmd_split(p, &argc, &argv);
	if (err) {
		out_error(s->out, "e2layout", 0,
			  "Unbalanced quotes in command line: %s", line);
		s->failed = 1;
		return CMD_FAIL;
	}
	status = cmd_run_argv(s, argc, argv);
	free(argv);
	return status;
}
