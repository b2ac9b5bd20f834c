/* shell_file.c - running requests from a command file (-f) or a pipe, with
 * debugfs's transcripts and its bound on a line (CMD_LINE_MAX bytes), so
 * that existing scripts read the same and an endless line costs no more
 * memory than a short one. */
#include "shell.h"
#include "cmd.h"

#include <string.h>

const char *shell_prompt(const struct session *s)
{
	if (s->extent_prompt)
		return s->extent_prompt;
	return s->debugfs ? "debugfs:  " : "e2layout: ";
}

/*
 * debugfs's source_file: fgets into BUFSIZ bytes, so that a longer line is
 * read as several requests; a line starting with '#' is copied through;
 * otherwise the line ends at its first newline and at its first carriage
 * return, is echoed as "debugfs: LINE" and run.  debugfs goes on after
 * quit here (quit leaves its listener only); e2layout stops.
 */
int shell_run_file(struct session *s, FILE *f, int echo)
{
	char line[CMD_LINE_MAX + 1];
	char *cr;

	while ((s->debugfs || !s->quit) && fgets(line, sizeof(line), f)) {
		if (line[0] == '#') {
			if (echo) {
				out_printf(s->out, "%s", line);
				fflush(stdout);
			}
			continue;
		}
		line[strcspn(line, "\n")] = 0;
		cr = strchr(line, '\r');
		if (cr)
			*cr = 0;
		if (echo) {
			out_printf(s->out, "debugfs: %s\n", line);
			fflush(stdout);
		}
		cmd_run_line(s, line);
	}
	return s->failed;
}

/*
 * One line as readline gives it to debugfs's listener when the input is
 * not a terminal: NUL bytes are no input at all (readline binds them to
 * set-mark), a newline or a carriage return ends the line, and the end of
 * the input ends a line that has begun.  At most CMD_LINE_MAX bytes: the
 * rest of a longer line is the next one (debugfs's bound in its other
 * readers).  Returns the length, or -1 at the end of the input.
 */
static int read_listen_line(FILE *f, char *line)
{
	int c, n = 0;

	while (n < CMD_LINE_MAX) {
		c = getc(f);
		if (c == EOF) {
			if (!n)
				return -1;
			break;
		}
		if (c == '\n' || c == '\r')
			break;
		if (c)
			line[n++] = c;
	}
	line[n] = 0;
	return n;
}

/*
 * debugfs's listener on a pipe: the prompt, then the line echoed after it
 * (readline's echo), then the request's output; an empty line does
 * nothing; the end of the input leaves the last prompt unanswered.
 */
int shell_run_pipe(struct session *s, FILE *f, int echo)
{
	char line[CMD_LINE_MAX + 1];

	s->listening = true;
	while (!s->quit) {
		if (echo) {
			out_printf(s->out, "%s", shell_prompt(s));
			fflush(stdout);
		}
		if (read_listen_line(f, line) < 0)
			break;
		if (echo) {
			out_printf(s->out, "%s\n", line);
			fflush(stdout);
		}
		if (line[0])
			cmd_run_line(s, line);
	}
	s->listening = false;
	return s->failed;
}

/*
 * debugfs's listener without readline (SS_READLINE_PATH=none): the prompt,
 * then fgets into BUFSIZ bytes, nothing echoed; the line ends at its first
 * newline, and an empty line does nothing.
 */
int shell_run_plain(struct session *s, FILE *f)
{
	char line[CMD_LINE_MAX + 1];
	char *nl;

	s->listening = true;
	while (!s->quit) {
		out_printf(s->out, "%s", shell_prompt(s));
		fflush(stdout);
		if (!fgets(line, sizeof(line), f))
			break;
		nl = strchr(line, '\n');
		if (nl) {
			*nl = 0;
			if (nl == line)
				continue;
		}
		cmd_run_line(s, line);
	}
	s->listening = false;
	return s->failed;
}
