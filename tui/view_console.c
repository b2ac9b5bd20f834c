/* view_console.c - view 7, the console: a scrollback pane fed by the sink
 * that every request's output goes through while the TUI runs, and the `:`
 * prompt (prompt.c) that runs requests through the same dispatcher as the
 * shell. */
#include "tui_int.h"

#include <stdlib.h>
#include <string.h>

#define SCROLLBACK_MAX	5000

static const struct tui_key console_keys[] = {
	{'\n', "Enter", ACT_PROMPT, "open the request prompt (as :)"},
	{'c', "c", ACT_CLEAR, "clear the scrollback"},
	{0, NULL, ACT_NONE, NULL},
};

static void push_line(struct tui *t, const char *s, size_t len)
{
	char **nv, *l;

	if (t->nlines == SCROLLBACK_MAX) {
		free(t->lines[0]);
		memmove(t->lines, t->lines + 1,
			(SCROLLBACK_MAX - 1) * sizeof(char *));
		t->nlines--;
	}
	if (t->nlines == t->lines_cap) {
		t->lines_cap = t->lines_cap ? t->lines_cap * 2 : 64;
		nv = realloc(t->lines, t->lines_cap * sizeof(char *));
		if (!nv)
			return;
		t->lines = nv;
	}
	l = strndup(s, len);
	if (!l)
		return;
	/* Tabs would let curses wander; expand them. */
	t->lines[t->nlines++] = l;
}

void console_append(struct tui *t, const char *buf, size_t len)
{
	const char *nl;

	while (len) {
		nl = memchr(buf, '\n', len);
		if (!nl) {
			strbuf_add(&t->partial, buf, len);
			return;
		}
		strbuf_add(&t->partial, buf, nl - buf);
		push_line(t, t->partial.buf ? t->partial.buf : "",
			  t->partial.len);
		strbuf_reset(&t->partial);
		len -= nl - buf + 1;
		buf = nl + 1;
	}
}

void console_free(struct tui *t)
{
	size_t i;

	for (i = 0; i < t->nlines; i++)
		free(t->lines[i]);
	free(t->lines);
	t->lines = NULL;
	t->nlines = t->lines_cap = 0;
	strbuf_free(&t->partial);
}

/* One scrollback line, tabs expanded and control characters shown as
 * '?', cut with "…" where it is too long (never inside a number). */
static void draw_line(struct tui *t, int y, int x, int w, const char *s)
{
	char buf[1024];
	size_t i, o = 0;

	for (i = 0; s[i] && o < sizeof(buf) - 9; i++) {
		if (s[i] == '\t') {
			do
				buf[o++] = ' ';
			while (o % 8);
		} else {
			buf[o++] = (s[i] >= 0 && s[i] < ' ') ? '?' : s[i];
		}
	}
	buf[o] = 0;
	tui_text(t, y, x, w, R_NORMAL, "%s", buf);
}

static void console_draw(struct tui *t, int y, int x, int h, int w)
{
	int body = h - 1, i, max_top;
	long first;

	tui_text(t, y, x, w, R_HEAD, "Console: requests run as in the shell "
		 "(\"help\" lists them); : or Enter opens the prompt, "
		 "PgUp/PgDn scroll");
	max_top = t->nlines > (size_t)body ? (int)t->nlines - body : 0;
	if (t->lines_top > max_top)
		t->lines_top = max_top;
	if (t->lines_top < 0)
		t->lines_top = 0;
	first = (long)t->nlines - body - t->lines_top;
	if (first < 0)
		first = 0;
	for (i = 0; i < body && first + i < (long)t->nlines - t->lines_top;
	     i++)
		draw_line(t, y + 1 + i, x, w, t->lines[first + i]);
	snprintf(t->status, sizeof(t->status), "%zu line(s) of scrollback%s",
		 t->nlines, t->lines_top ? " (scrolled back)" : "");
}

static int console_key(struct tui *t, enum tui_action a, int ch)
{
	int page = t->rows - 5;

	(void)ch;
	switch (a) {
	case ACT_UP:
		t->lines_top++;
		return 1;
	case ACT_DOWN:
		if (t->lines_top > 0)
			t->lines_top--;
		return 1;
	case ACT_PGUP:
		t->lines_top += page;
		return 1;
	case ACT_PGDN:
		t->lines_top = t->lines_top > page ? t->lines_top - page : 0;
		return 1;
	case ACT_HOME:
		t->lines_top = (int)t->nlines;
		return 1;
	case ACT_END:
		t->lines_top = 0;
		return 1;
	case ACT_CLEAR:
		console_free(t);
		return 1;
	default:
		return 0;
	}
}

const struct tui_view view_console = {
	.name = "console",
	.title = "Console",
	.draw = console_draw,
	.key = console_key,
	.keys = console_keys,
};
