/* input.c - what a key or a mouse click does in the inspector: keys the
 * current view does not take (views, help, search, the : prompt, themes,
 * the editor, refresh, allocations), and clicks on the tab bar and maps. */
#include "tui_int.h"

#include <stdlib.h>
#include <string.h>

#include "cmd.h"

static void on_mouse(struct tui *t)
{
	const struct tui_view *v = tui_views[t->view];
	MEVENT ev;
	blk64_t blk;
	int i;

	if (getmouse(&ev) != OK)
		return;
	if (ev.bstate & BUTTON4_PRESSED) {
		for (i = 0; i < 3; i++)
			v->key(t, ACT_UP, KEY_UP);
		return;
	}
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED) {
		for (i = 0; i < 3; i++)
			v->key(t, ACT_DOWN, KEY_DOWN);
		return;
	}
#endif
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED |
			   BUTTON1_RELEASED)))
		return;
	if (ev.y == 0) {
		for (i = 0; i < TUI_NVIEWS; i++) {
			if (ev.x < t->tab_end[i]) {
				tui_goto_view(t, i);
				return;
			}
		}
		return;
	}
	if (mapw_hit(t, ev.y, ev.x, &blk) == 0) {
		t->cur = blk;
		if (t->view == 0)
			tui_goto_view(t, 1);
		return;
	}
	t->mouse_y = ev.y;
	t->mouse_x = ev.x;
	v->key(t, ACT_NONE, KEY_MOUSE);
}

static void global_action(struct tui *t, enum tui_action a)
{
	switch (a) {
	case ACT_QUIT:
		t->quit = 1;
		break;
	case ACT_HELP:
		t->help = 1;
		t->help_top = 0;
		break;
	case ACT_LAB:
		if (tui_lab_text()) {
			t->help = 2;
			t->help_top = 0;
		} else {
			tui_message(t, 1, "not in a lab (e2layout lab start "
				    "NAME opens one)");
		}
		break;
	case ACT_SEARCH:
	case ACT_PROMPT:
		prompt_reset(t->prompt_obj);
		t->prompt = t->prompt_obj;
		t->prompt_kind = a == ACT_SEARCH ? '/' : ':';
		if (a == ACT_PROMPT)
			tui_goto_view(t, 6);
		break;
	case ACT_NEXT_VIEW:
		tui_goto_view(t, (t->view + 1) % TUI_NVIEWS);
		break;
	case ACT_PREV_VIEW:
		tui_goto_view(t, (t->view + TUI_NVIEWS - 1) % TUI_NVIEWS);
		break;
	case ACT_VIEW1: case ACT_VIEW2: case ACT_VIEW3: case ACT_VIEW4:
	case ACT_VIEW5: case ACT_VIEW6: case ACT_VIEW7:
		tui_goto_view(t, a - ACT_VIEW1);
		break;
	case ACT_CANCEL:
		if (t->scanning) {
			t->scanning = 0;
			t->scan_cancelled = 1;
			tui_message(t, 0, "owner scan cancelled; used blocks "
				    "not yet seen show as unknown (R "
				    "resumes)");
		} else {
			t->msg[0] = 0;
		}
		break;
	case ACT_RESCAN:
		if (t->scan_cancelled) {
			t->scanning = 1;
			t->scan_cancelled = 0;
		}
		break;
	case ACT_THEME:
		theme_next(t);
		tui_message(t, 0, "theme: %s", theme_name(t));
		break;
	case ACT_JUMP_BACK:
		if (!t->njumps) {
			tui_message(t, 0, "no jump to go back from");
			break;
		}
		t->njumps--;
		t->cur = t->jumps[t->njumps].cur;
		tui_goto_view(t, t->jumps[t->njumps].view);
		break;
	case ACT_SHOW_MAP:
		tui_goto_view(t, 1);
		break;
	case ACT_REDRAW:
		clear();
		break;
	case ACT_LIVE_REFRESH:
		if (!t->s->live) {
			tui_message(t, 0, "not live: the filesystem is not "
				    "mounted");
			break;
		}
		if (tui_live_reread(t))
			tui_message(t, 1, "the kernel view was read again, "
				    "but not the disk: reopening %s failed",
				    t->s->device);
		else
			tui_message(t, 0, "disk and kernel views read again "
				    "(\":live status\" and \":live groups\" "
				    "compare them)");
		break;
	case ACT_ALLOC:
		tui_alloc_toggle(t);
		break;
	case ACT_IO:
		tui_io_toggle(t);
		break;
	case ACT_EXPERIMENT:
		tui_exp_show(t);
		break;
	case ACT_EDIT:
		edit_open(t);
		break;
	default:
		break;
	}
}

void tui_on_key(struct tui *t, int ch)
{
	enum tui_action a;
	int r;

	if (ch == KEY_RESIZE) {
		/* tui_draw() rereads the size; the terminal has reflowed or
		 * cropped what it showed, which curses's copy of the screen
		 * does not know: the next frame repaints every cell */
		clear();
		return;
	}
	if (t->cols < TUI_MIN_COLS || t->rows < TUI_MIN_ROWS) {
		if (ch == 'q')
			t->quit = 1;
		return;
	}
	if (t->help) {
		if (ch == KEY_DOWN || ch == 'j' || ch == KEY_NPAGE)
			t->help_top += ch == KEY_NPAGE ? t->rows - 3 : 1;
		else if ((ch == KEY_UP || ch == 'k') && t->help_top > 0)
			t->help_top--;
		else if (ch == KEY_PPAGE)
			t->help_top = 0;
		else
			t->help = 0;
		return;
	}
	if (t->prompt) {
		r = prompt_key(t, t->prompt, ch);
		if (r < 0) {
			t->prompt = NULL;
		} else if (r > 0) {
			char *line = strdup(prompt_line(t->prompt));

			if (!line)
				return;
			prompt_history_add(t->prompt, line);
			if (t->prompt_kind == '/') {
				t->prompt = NULL;
				tui_search(t, line);
			} else {
				prompt_reset(t->prompt);
				if (!tui_exp_command(t, line))
					tui_run_request(t, line);
				else if (tui_exp_shown(t))
					t->prompt = NULL;	/* its panel */
			}
			free(line);
		}
		return;
	}
	if (edit_active(t)) {
		if (ch == '?' || ch == KEY_F(1)) {
			t->help = 1;
			t->help_top = 0;
		} else {
			edit_key(t, ch);
		}
		return;
	}
	if (tui_exp_shown(t)) {
		if (ch == ':' || ch == 'I') {
			tui_exp_hide(t);	/* to the prompt, the map */
			global_action(t, tui_key_action(t, ch));
		} else if (ch != KEY_MOUSE) {
			tui_exp_key(t, ch);
		}
		return;
	}
	if (ch == KEY_MOUSE) {
		on_mouse(t);
		return;
	}
	t->msg[0] = 0;
	a = tui_key_action(t, ch);
	if (tui_views[t->view]->key(t, a, ch))
		return;
	global_action(t, a);
}

/* Writes the screen as text (E2L_TUI_DUMP). */
