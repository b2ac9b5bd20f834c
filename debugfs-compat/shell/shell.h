/* shell.h - the debugfs-like command front end: one request (-R), a command
 * file (-f), standard input, or the interactive readline shell; and the
 * debugfs personality's command line. */
#ifndef E2L_SHELL_H
#define E2L_SHELL_H

#include <stdio.h>

#include "session.h"

/* The prompt: the extent sub-mode's, else "debugfs:  " (two spaces, as
 * debugfs's) in the debugfs personality and "e2layout: " in e2layout's. */
const char *shell_prompt(const struct session *s);

/* Runs every line of a command file as `debugfs -f` does (lines of at most
 * CMD_LINE_MAX bytes, '#' lines copied through, each request echoed as
 * "debugfs: REQ" when echo is set).  Returns s->failed. */
int shell_run_file(struct session *s, FILE *f, int echo);

/* Runs the requests read from a pipe as debugfs's listener does: the
 * prompt and the echoed line before each request when echo is set, NUL
 * bytes ignored, lines bounded as above.  Returns s->failed. */
int shell_run_pipe(struct session *s, FILE *f, int echo);

/* debugfs's listener, for the debugfs personality: every line through
 * GNU readline as debugfs reads its standard input (on a pipe too, where
 * readline echoes each line after the prompt), debugfs's completion, at
 * most CMD_LINE_MAX bytes a line.  Returns s->failed. */
int shell_listen(struct session *s);

/* The same without readline, as debugfs listens when SS_READLINE_PATH is
 * "none" or empty: the prompt, no echo, fgets's bound.  Returns s->failed. */
int shell_run_plain(struct session *s, FILE *f);

/* The interactive shell on GNU readline, with history and completion. */
int shell_interactive(struct session *s);

/* main() for the debugfs personality (argv[0] is the name debugfs's own
 * messages use): debugfs 1.47.0's options, banner and exit statuses. */
int dfs_main(int argc, char **argv);

#endif
