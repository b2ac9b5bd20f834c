/* frame.c - draws the inspector's frame around the current view: the tab
 * bar (tabbar.c), the status line (with the scan's progress),
 * the message or hint line with what `e` would edit, the prompt, and the
 * too-small screen. */
#include "tui_int.h"
#include "cols.h"

#include <stdio.h>
#include <string.h>

/* The scan's progress for the status line: done, files walked, time
 * left (from the time spent so far), or where a cancelled scan stopped. */
static void scan_status(struct tui *t, char *buf, size_t size)
{
	double p = owner_scan_progress(t->s);
	unsigned long files = owner_scan_files(t->s);
	long left;

	buf[0] = 0;
	if (t->scan_cancelled) {
		snprintf(buf, size, "scan cancelled at %d%%, %lu files (R "
			 "resumes)", (int)(p * 100), files);
		return;
	}
	if (!t->scanning)
		return;
	if (p < 0.01 || t->scan_ms < 200) {
		snprintf(buf, size, "scan %d%%, %lu files, time left: "
			 "estimating", (int)(p * 100), files);
		return;
	}
	left = (long)(t->scan_ms * (1 - p) / p / 1000 + 0.5);
	if (left >= 60)
		snprintf(buf, size, "scan %d%%, %lu files, %ld:%02ld left",
			 (int)(p * 100), files, left / 60, left % 60);
	else
		snprintf(buf, size, "scan %d%%, %lu files, %ld s left",
			 (int)(p * 100), files, left);
}

static void draw_too_small(struct tui *t)
{
	char line[80];
	int y = t->rows / 2 - 1;

	erase();
	snprintf(line, sizeof(line), "terminal too small");
	mvaddnstr(y < 0 ? 0 : y, 0, line, t->cols);
	snprintf(line, sizeof(line), "%dx%d, need %dx%d", t->cols, t->rows,
		 TUI_MIN_COLS, TUI_MIN_ROWS);
	if (y + 1 < t->rows)
		mvaddnstr(y + 1, 0, line, t->cols);
	if (y + 2 < t->rows)
		mvaddnstr(y + 2, 0, "q quits", t->cols);
}

void tui_draw(struct tui *t)
{
	const char *hint = " q quit  ? help  / search  : request  "
			   "Tab/1-7 views  e edit";
	char alloc[256], io[256], scan[128];
	struct fields f;

	getmaxyx(stdscr, t->rows, t->cols);
	if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS) {
		draw_too_small(t);
		refresh();
		return;
	}
	if (!t->fs) {
		erase();
		mvaddnstr(0, 0, "no filesystem is open (q quits)", t->cols);
		refresh();
		return;
	}
	if (edit_active(t) && !t->help) {
		edit_draw(t);
		refresh();
		return;
	}
	if (t->help) {
		tui_help_draw(t);
		refresh();
		return;
	}
	erase();
	t->status[0] = 0;
	t->area.used = 0;
	tui_tabbar_draw(t);
	if (tui_exp_shown(t))
		tui_exp_draw(t);	/* the experiment's panel */
	else
		tui_views[t->view]->draw(t, 1, 0, t->rows - 3, t->cols);
	tui_fill(t, t->rows - 2, 0, t->cols, R_STATUS);
	scan_status(t, scan, sizeof(scan));
	if (!tui_alloc_status(t, alloc, sizeof(alloc)))
		alloc[0] = 0;
	if (!tui_io_status(t, io, sizeof(io)))
		io[0] = 0;
	/* the overlays' and the scan's counts whole or not at all; the
	 * view's own status is the text that is cut */
	fields_init(&f);
	if (scan[0])
		fields_add(&f, 8, "", "%s", scan);
	if (alloc[0])
		fields_add(&f, 7, " | ", "%s", alloc);
	if (io[0])
		fields_add(&f, 6, " | ", "%s", io);
	if (t->status[0])
		fields_add_text(&f, 5, 12, " | ", "%s", t->status);
	fields_draw(t, &f, t->rows - 2, 1, t->cols - 1, R_STATUS);
	move(t->rows - 1, 0);
	clrtoeol();
	if (t->prompt) {
		;	/* drawn last, to leave the cursor there */
	} else if (t->msg[0]) {
		tui_text(t, t->rows - 1, 0, t->cols,
			 t->msg_err ? R_ERROR : R_MSG, "%s", t->msg);
	} else {
		char sel[600] = "";

		/* what e would work on */
		if (t->sel.kind != SEL_NONE)
			edit_sel_text(t, &t->sel, sel, sizeof(sel));
		tui_text(t, t->rows - 1, 0, t->cols, R_DIM, "%s%s%s", hint,
			 sel[0] ? ": " : "", sel);
	}
	curs_set(t->prompt ? 1 : 0);
	if (t->prompt)
		prompt_draw(t, t->prompt, t->rows - 1, 0, t->cols,
			    t->prompt_kind == '/' ? "/" : ":");
	refresh();
}

