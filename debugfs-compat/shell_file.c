/* shell_file.c - running requests from a file or a pipe, echoing each one
 * the way `debugfs -f` does so that existing scripts read the same. */
#include "shell.h"
#include "../core/cmd.h"

#include <stdlib.h>
#include <string.h>

int shell_run_file(struct session *s, FILE *f, int echo)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while (!s->quit && (n = getline(&line, &cap, f)) >= 0) {
		/* debugfs copies a comment line through as it is read. */
		if (line[0] == '#') {
			if (echo) {
				out_printf(s->out, "%s", line);
				fflush(stdout);
			}
			continue;
		}
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		/* A blank line is echoed and does nothing, as in debugfs. */
		if (!line[strspn(line, " \t")]) {
			if (echo) {
				out_printf(s->out, "debugfs: %s\n", line);
				fflush(stdout);
			}
			continue;
		}
		if (echo) {
			out_printf(s->out, "debugfs: %s\n", line);
			fflush(stdout);
		}
		cmd_run_line(s, line);
	}
	free(line);
	return s->failed;
}
