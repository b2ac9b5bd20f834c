/* repl.c - the interactive shell on GNU readline: prompt, history kept across
 * runs in ~/.e2layout_history, and Tab completion of request names, their
 * options, topics and paths inside the filesystem. */
#include "shell.h"
#include "cmd.h"
#include "dfs_requests.h"
#include "help.h"
#include "undo_guard.h"
#include "rl_dl.h"	/* readline, its calls through a table */

#include <limits.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#define HISTORY_MAX 1000

/* readline's callbacks carry no context: the one session being completed. */
static struct session *rl_session;

/* Candidate list built for one completion, handed out by generator(). */
struct candidates {
	char **v;
	size_t n, cap, next;
};
static struct candidates cands;

static void cands_reset(void)
{
	size_t i;

	for (i = cands.next; i < cands.n; i++)
		free(cands.v[i]);
	cands.n = cands.next = 0;
}

static void cands_add(const char *word, const char *prefix)
{
	if (strncmp(word, prefix, strlen(prefix)))
		return;
	if (cands.n == cands.cap) {
		size_t cap = cands.cap ? cands.cap * 2 : 64;
		char **v = realloc(cands.v, cap * sizeof(*v));
		if (!v)
			return;
		cands.v = v;
		cands.cap = cap;
	}
	cands.v[cands.n++] = strdup(word);
}

static char *generator(const char *text, int state)
{
	(void)text;
	(void)state;
	if (cands.next < cands.n)
		return cands.v[cands.next++]; /* readline frees it */
	return NULL;
}

static void add_commands(const char *prefix)
{
	const struct cmd_entry *const *c;
	const char *const *a;

	for (c = cmd_table; *c; c++) {
		cands_add((*c)->name, prefix);
		for (a = (*c)->aliases; a && *a; a++)
			cands_add(*a, prefix);
	}
}

static void add_options(const struct cmd_entry *c, const char *prefix)
{
	char *opts, *tok, *save = NULL;

	if (!c->options)
		return;
	opts = strdup(c->options);
	for (tok = strtok_r(opts, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		cands_add(tok, prefix);
	free(opts);
}

struct path_ctx {
	const char *dir;	/* directory part, with its trailing '/' */
	const char *base;	/* what the name must start with */
	ext2_filsys fs;
};

static int path_entry(struct ext2_dir_entry *de, int offset, int blocksize,
		      char *buf, void *priv)
{
	struct path_ctx *pc = priv;
	int len = ext2fs_dirent_name_len(de);
	char name[EXT2_NAME_LEN + 1], full[PATH_MAX];
	struct ext2_inode inode;

	(void)offset;
	(void)blocksize;
	(void)buf;
	memcpy(name, de->name, len);
	name[len] = 0;
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	if (strncmp(name, pc->base, strlen(pc->base)))
		return 0;
	snprintf(full, sizeof(full), "%s%s", pc->dir, name);
	if (!ext2fs_read_inode(pc->fs, de->inode, &inode) &&
	    LINUX_S_ISDIR(inode.i_mode))
		strncat(full, "/", sizeof(full) - strlen(full) - 1);
	cands_add(full, "");
	return 0;
}

static void add_paths(const char *text)
{
	struct session *s = rl_session;
	const char *slash = strrchr(text, '/');
	char dir[PATH_MAX] = "";
	struct path_ctx pc;
	ext2_ino_t ino = s->cwd;

	if (!s->fs)
		return;
	if (slash) {
		size_t n = slash - text + 1;
		if (n >= sizeof(dir))
			return;
		memcpy(dir, text, n);
		dir[n] = 0;
		if (ext2fs_namei(s->fs, s->root, s->cwd, dir, &ino))
			return;
	}
	pc.dir = dir;
	pc.base = slash ? slash + 1 : text;
	pc.fs = s->fs;
	ext2fs_dir_iterate(s->fs, ino, 0, NULL, path_entry, &pc);
	rl_completion_append_character = 0;
}

static char **complete(const char *text, int start, int end)
{
	const struct cmd_entry *c;
	const struct help_doc *d;
	char first[64];
	size_t n;

	(void)end;
	rl_attempted_completion_over = 1;
	cands_reset();
	n = strspn(rl_line_buffer, " \t");
	if ((int)n >= start) {
		add_commands(text);
		return rl_completion_matches(text, generator);
	}
	sscanf(rl_line_buffer + n, "%63s", first);
	c = cmd_find(first);
	if (!c)
		return NULL;
	if (text[0] == '-') {
		add_options(c, text);
		return rl_completion_matches(text, generator);
	}
	switch (c->complete) {
	case COMPLETE_PATH:
		add_paths(text);
		break;
	case COMPLETE_COMMAND:
		add_commands(text);
		break;
	case COMPLETE_TOPIC:
		add_commands(text);
		for (d = help_docs; d->kind; d++)
			if (!strcmp(d->kind, "topics"))
				cands_add(d->name, text);
		break;
	case COMPLETE_HOST_PATH:
		rl_attempted_completion_over = 0; /* readline's own files */
		return NULL;
	default:
		return NULL;
	}
	return rl_completion_matches(text, generator);
}

/* debugfs's completion (its request library's): the first word of the
 * line among the request names and aliases, anything later readline's own
 * file names. */
static void add_dfs_names(const struct dfs_request *r, const char *text)
{
	const char *n, *e;
	char word[64];
	size_t len;

	for (n = r->names; *n; n = *e ? e + 2 : e) {
		e = strstr(n, ", ");
		if (!e)
			e = n + strlen(n);
		len = e - n < 63 ? (size_t)(e - n) : 63;
		memcpy(word, n, len);
		word[len] = 0;
		cands_add(word, text);
	}
}

static char **dfs_complete(const char *text, int start, int end)
{
	const struct dfs_request *r;

	(void)end;
	if (start != 0)
		return NULL;
	cands_reset();
	for (r = dfs_requests; r->names; r++) {
		/* the extent sub-mode's table sits before the standard one */
		if (rl_session->extent && !strcmp(r->names, "help")) {
			const struct dfs_request *x;

			for (x = dfs_extent_requests; x->names; x++)
				add_dfs_names(x, text);
		}
		add_dfs_names(r, text);
	}
	return rl_completion_matches(text, generator);
}

/* A key held back by bounded_getc, for the next line. */
static int held_key = -1;

/*
 * readline's input, bounded: once the line holds CMD_LINE_MAX bytes the
 * next key is held back and a newline given instead, so that a longer line
 * is read as several requests (debugfs's fgets bound) and an endless one
 * never grows.  (rl_num_chars_to_read would bound it too, but changes how
 * readline echoes a long line on a pipe.)
 */
static int bounded_getc(FILE *f)
{
	int c;

	if (held_key >= 0) {
		c = held_key;
		held_key = -1;
		return c;
	}
	c = rl_getc(f);
	if (rl_end >= CMD_LINE_MAX && c != EOF && c != '\n' && c != '\r') {
		held_key = c;
		return '\n';
	}
	return c;
}

static char *history_path(void)
{
	const char *home = getenv("HOME");
	char *p;

	if (!home || !*home)
		return NULL;
	if (asprintf(&p, "%s/.e2layout_history", home) < 0)
		return NULL;
	return p;
}

int shell_listen(struct session *s)
{
	int tty = isatty(STDIN_FILENO);
	char why[256], *line;

	/* as debugfs's libss does when it cannot load readline: plain lines */
	if (rl_dl_load(why, sizeof(why)))
		return shell_run_plain(s, stdin);
	rl_session = s;
	rl_readline_name = "debugfs";
	rl_attempted_completion_function = dfs_complete;
	rl_completer_word_break_characters = NULL;	/* readline's own */
	rl_getc_function = bounded_getc;
	using_history();
	stifle_history(HISTORY_MAX);
	s->listening = true;
	while (!s->quit && (line = readline(shell_prompt(s))) != NULL) {
		if (tty)
			add_history(line);
		cmd_run_line(s, line);
		free(line);
	}
	s->listening = false;
	cands_reset();
	free(cands.v);
	cands.v = NULL;
	cands.cap = 0;
	rl_session = NULL;
	return s->failed;
}

int shell_interactive(struct session *s)
{
	char *hist, why[256], *line;

	if (rl_dl_load(why, sizeof(why))) {
		fprintf(stderr, "%s: no line editing, completion or history: "
			"%s\n", session_prog(s), why);
		shell_run_plain(s, stdin);
		undo_list_report(s);
		return s->failed;
	}
	/* debugfs keeps no history file: its personality keeps none */
	hist = s->debugfs ? NULL : history_path();
	rl_session = s;
	rl_readline_name = session_prog(s);
	rl_attempted_completion_function = complete;
	rl_completer_word_break_characters = " \t\"";
	rl_getc_function = bounded_getc;
	using_history();
	stifle_history(HISTORY_MAX);
	if (hist)
		read_history(hist);

	s->listening = true;
	while (!s->quit && (line = readline(shell_prompt(s))) != NULL) {
		if (line[strspn(line, " \t")]) {
			add_history(line);
			cmd_run_line(s, line);
		}
		free(line);
	}
	s->listening = false;
	if (!s->quit)
		putchar('\n');
	if (hist) {
		write_history(hist);
		free(hist);
	}
	cands_reset();
	free(cands.v);
	cands.v = NULL;
	cands.cap = 0;
	rl_session = NULL;
	undo_list_report(s);	/* what to run to take this session back */
	return s->failed;
}
