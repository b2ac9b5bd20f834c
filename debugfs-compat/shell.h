/* shell.h - the debugfs-like command front end: one request (-R), a command
 * file (-f), standard input, or the interactive readline shell. */
#ifndef E2L_SHELL_H
#define E2L_SHELL_H

#include <stdio.h>

#include "../core/session.h"

/* Runs every line of f; echoes each as debugfs does when echo is set. */
int shell_run_file(struct session *s, FILE *f, int echo);

/* The interactive shell on GNU readline, with history and completion. */
int shell_interactive(struct session *s);

#endif
