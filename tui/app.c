/* app.c - the full-screen inspector's frame: terminal setup and restore
 * (stderr and com_err kept off the screen), the idle loop that runs the owner
 * scan, key and mouse dispatch to the views, resize, search, the tab bar,
 * the status and message lines, and the text dump for tests. */
#include "tui_int.h"

#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "../core/cmd.h"
#include "../core/live.h"

static const struct tui_view *const views[TUI_NVIEWS] = {
	&view_overview, &view_map, &view_flex, &view_journal, &view_frag,
	&view_files, &view_console,
};

static struct tui *hook_tui;	/* for the com_err hook only */

void tui_message(struct tui *t, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
	t->msg_err = err;
}

static void com_err_to_status(const char *who, errcode_t code,
			      const char *fmt, va_list ap)
{
	struct tui *t = hook_tui;
	char rest[256];
	size_t n;

	if (!t)
		return;
	vsnprintf(rest, sizeof(rest), fmt ? fmt : "", ap);
	n = strlen(rest);
	while (n && (rest[n - 1] == '\n' || rest[n - 1] == '\r'))
		rest[--n] = 0;
	tui_message(t, 1, "%s%s%s%s%s", who ? who : "", who ? ": " : "",
		    code ? error_message(code) : "", code && *rest ? " " : "",
		    rest);
}

void tui_goto_view(struct tui *t, int view)
{
	if (view < 0 || view >= TUI_NVIEWS)
		return;
	t->view = view;
	t->mouse_y = t->mouse_x = -1;
}

void tui_jump(struct tui *t, int view, blk64_t blk)
{
	if (t->njumps == (int)(sizeof(t->jumps) / sizeof(t->jumps[0]))) {
		memmove(t->jumps, t->jumps + 1,
			sizeof(t->jumps) - sizeof(t->jumps[0]));
		t->njumps--;
	}
	t->jumps[t->njumps].view = t->view;
	t->jumps[t->njumps].cur = t->cur;
	t->njumps++;
	t->cur = blk;
	tui_goto_view(t, view);
}

static int range_cmp(const void *a, const void *b)
{
	const struct tui_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

void tui_set_highlight(struct tui *t, const struct tui_range *r, size_t n,
		       const char *what)
{
	free(t->hl);
	t->hl = NULL;
	t->nhl = 0;
	snprintf(t->hl_what, sizeof(t->hl_what), "%s", what ? what : "");
	if (!n)
		return;
	t->hl = malloc(n * sizeof(*r));
	if (!t->hl)
		return;
	memcpy(t->hl, r, n * sizeof(*r));
	t->nhl = n;
	qsort(t->hl, n, sizeof(*r), range_cmp);
}

static void console_sink_write(void *ctx, enum sink_chan chan,
			       const char *buf, size_t len)
{
	struct tui *t = ctx;

	console_append(t, buf, len);
	if (t->capture)
		strbuf_add(t->capture, buf, len);
	if (chan == SINK_ERR && len) {
		tui_message(t, 1, "%.*s", (int)(buf[len - 1] == '\n' ?
						len - 1 : len), buf);
	}
}

int tui_run_request(struct tui *t, const char *line)
{
	int failed = t->s->failed, rc;
	char echo[600];

	snprintf(echo, sizeof(echo), "e2layout: %s\n", line);
	console_append(t, echo, strlen(echo));
	t->msg[0] = 0;
	rc = cmd_run_line(t->s, line);
	/* A failed request is shown, it does not fail the session. */
	t->s->failed = failed;
	if (t->s->quit)
		t->quit = 1;
	t->gen++;
	names_free(t);	/* the request may have changed the tree */
	t->lines_top = 0;
	if (t->s->fs != t->fs)
		tui_reload(t);	/* reopened (apply): the old handle is gone */
	return rc;
}

void tui_reload(struct tui *t)
{
	int i;

	for (i = 0; i < TUI_NVIEWS; i++)
		if (views[i]->fini)
			views[i]->fini(t);
	t->fs = t->s->fs;
	names_free(t);
	tui_set_highlight(t, NULL, 0, NULL);
	t->gen++;
	if (!t->fs) {
		t->quit = 1;	/* nothing left to show */
		return;
	}
	/* the owner index describes the old layout (apply reopens and drops
	 * it, but not on a -z session): scan again */
	session_invalidate(t->s);
	(void)session_need(t->s, NEED_GROUP_DESC);
	if (t->cur >= ext2fs_blocks_count(t->fs->super))
		t->cur = t->fs->super->s_first_data_block;
	for (i = 0; i < TUI_NVIEWS; i++)
		if (views[i]->init)
			views[i]->init(t);
	t->scanning = 0;
	t->scan_cancelled = 0;
	t->scan_err = 0;
	t->scan_pending = 1;
}

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Live mode: the kernel's free blocks (mb_groups) and the on-disk ones. */
static void live_refresh(struct tui *t)
{
	struct live_mbgroup *mb;
	dgrp_t n, g;
	long long k = 0, d = 0;

	if (!t->s->live)
		return;
	if (live_mbgroups_read(t->s->live, &mb, &n)) {
		k = -1;
	} else {
		for (g = 0; g < n; g++)
			k += mb[g].free;
		free(mb);
		k *= EXT2FS_CLUSTER_RATIO(t->fs);
	}
	for (g = 0; g < t->fs->group_desc_count; g++)
		d += ext2fs_bg_free_blocks_count(t->fs, g);
	t->live_kfree = k;
	t->live_dfree = d * EXT2FS_CLUSTER_RATIO(t->fs);
	t->live_at = mono_now();
}

static void draw_live(struct tui *t, int x)
{
	char buf[96];
	int len, right = t->cols - (t->scanning ? 24 : t->scan_cancelled ?
				    28 : 0);

	if (t->live_kfree >= 0)
		snprintf(buf, sizeof(buf), " LIVE free: kernel %lld, disk "
			 "%lld (r) ", t->live_kfree, t->live_dfree);
	else
		snprintf(buf, sizeof(buf), " LIVE (kernel view unreadable) ");
	len = (int)strlen(buf);
	if (right - len < x)
		len = 6;	/* " LIVE " alone */
	if (right - len >= x)
		tui_text(t, 0, right - len, len, R_TAB_ACTIVE, "%.*s", len,
			 buf);
}

static void draw_tabs(struct tui *t)
{
	int i, x = 0;
	char buf[64];

	tui_fill(t, 0, 0, t->cols, R_TAB);
	tui_text(t, 0, 0, t->cols, R_TITLE, " e2layout ");
	x = 10;
	for (i = 0; i < TUI_NVIEWS && x < t->cols; i++) {
		snprintf(buf, sizeof(buf), " %d %s ", i + 1, views[i]->title);
		tui_text(t, 0, x, t->cols - x,
			 i == t->view ? R_TAB_ACTIVE : R_TAB, "%s", buf);
		x += strlen(buf);
	}
	if (t->scanning && t->cols - x > 24) {
		tui_text(t, 0, t->cols - 22, 10, R_TAB, "scan %3d%%",
			 (int)(owner_scan_progress(t->s) * 100));
		tui_bar(t, 0, t->cols - 12, 11, owner_scan_progress(t->s));
	} else if (t->scan_cancelled && t->cols - x > 26) {
		tui_text(t, 0, t->cols - 26, 26, R_TAB,
			 "scan cancelled: R resumes");
	}
	if (t->s->live)
		draw_live(t, x);
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

static void draw(struct tui *t)
{
	const char *hint = " q quit  ? help  / search  : request  "
			   "Tab/1-7 views  e edit";
	char alloc[256];

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
	draw_tabs(t);
	views[t->view]->draw(t, 1, 0, t->rows - 3, t->cols);
	tui_fill(t, t->rows - 2, 0, t->cols, R_STATUS);
	if (tui_alloc_status(t, alloc, sizeof(alloc)))
		tui_text(t, t->rows - 2, 0, t->cols, R_STATUS, " %s | %s",
			 alloc, t->status);
	else
		tui_text(t, t->rows - 2, 0, t->cols, R_STATUS, " %s",
			 t->status);
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

static void scan_start(struct tui *t)
{
	errcode_t err;

	if (t->s->flags & SESSION_CATASTROPHIC) {
		tui_message(t, 0, "catastrophic mode: no bitmaps, no owner "
			    "scan");
		return;
	}
	if (owner_index_complete(t->s))
		return;
	err = owner_scan_begin(t->s);
	if (err) {
		t->scan_err = err;
		tui_message(t, 1, "owner scan: %s", error_message(err));
		return;
	}
	t->scanning = 1;
	t->scan_cancelled = 0;
}

static long now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000L + tv.tv_usec / 1000;
}

/* Runs the scan for about 40 ms.  Returns 1 when the screen should change. */
static int scan_idle(struct tui *t)
{
	long start = now_ms();
	errcode_t err;
	int done = 0;

	while (!done && now_ms() - start < 40) {
		err = owner_scan_step(t->s, 256, &done);
		if (err) {
			tui_message(t, 1, "owner scan: %s",
				    error_message(err));
			t->scan_err = err;
			done = 1;
		}
	}
	if (done) {
		t->scanning = 0;
		t->gen++;
		if (!t->scan_err && !t->msg[0])
			tui_message(t, 0, "owner scan complete");
	}
	return 1;
}

static void on_mouse(struct tui *t)
{
	const struct tui_view *v = views[t->view];
	MEVENT ev;
	blk64_t blk;
	int i, x;

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
		for (i = 0, x = 10; i < TUI_NVIEWS; i++) {
			x += strlen(views[i]->title) + 4;
			if (ev.x < x) {
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
		live_refresh(t);
		tui_message(t, 0, "kernel view read again (\":live status\" "
			    "and \":live groups\" compare it with the disk)");
		break;
	case ACT_ALLOC:
		tui_alloc_toggle(t);
		break;
	case ACT_EDIT:
		edit_open(t);
		break;
	default:
		break;
	}
}

static void on_key(struct tui *t, int ch)
{
	enum tui_action a;
	int r;

	if (ch == KEY_RESIZE)
		return;		/* draw() rereads the size */
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
				tui_run_request(t, line);
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
	if (ch == KEY_MOUSE) {
		on_mouse(t);
		return;
	}
	t->msg[0] = 0;
	a = tui_key_action(t, ch);
	if (views[t->view]->key(t, a, ch))
		return;
	global_action(t, a);
}

/* Writes the screen as text (E2L_TUI_DUMP). */
static void dump_screen(struct tui *t, const char *path)
{
	FILE *f = fopen(path, "w");
	wchar_t wbuf[1024];
	char mb[4096];
	int y, n;
	size_t len;

	if (!f)
		return;
	for (y = 0; y < t->rows; y++) {
		n = mvinnwstr(y, 0, wbuf, t->cols < 1023 ? t->cols : 1023);
		if (n < 0)
			n = 0;
		wbuf[n] = 0;
		len = wcstombs(mb, wbuf, sizeof(mb) - 1);
		if (len == (size_t)-1)
			len = 0;
		mb[len] = 0;
		while (len && mb[len - 1] == ' ')
			mb[--len] = 0;
		fprintf(f, "%s\n", mb);
	}
	fclose(f);
}

static int next_key(struct tui *t)
{
	int ch, w = 0, h = 0;

	if (t->keys && *t->keys && !t->scanning) {
		ch = tui_script_next(&t->keys, &w, &h);
		if (ch == KEY_RESIZE && w && h)
			resizeterm(h, w);
		if (ch != ERR)
			return ch;
	}
	timeout(t->scanning || (t->keys && *t->keys) ? 0 :
		tui_alloc_recording(t) ? 200 :
		t->s->live ? TUI_LIVE_SECONDS * 1000 : -1);
	return getch();
}

static void loop(struct tui *t)
{
	int ch, dirty = 1;

	while (!t->quit) {
		if (dirty)
			draw(t);	/* refresh(): on the screen */
		if (dirty && t->exit_first_frame) {
			t->quit = 1;
			break;
		}
		dirty = 0;
		if (t->scan_pending) {
			/* the bitmaps and the inode scan wait for the first
			 * frame, which the descriptors alone can draw */
			t->scan_pending = 0;
			scan_start(t);
			dirty = 1;
			continue;
		}
		ch = next_key(t);
		if (ch == ERR) {
			if (t->scanning)
				dirty = scan_idle(t);
			if (tui_alloc_idle(t))
				dirty = 1;
			if (t->s->live &&
			    mono_now() - t->live_at >= TUI_LIVE_SECONDS) {
				live_refresh(t);
				dirty = 1;
			}
			continue;
		}
		on_key(t, ch);
		dirty = 1;
	}
}

int tui_main(struct session *s, const char *keys)
{
	struct tui tui = {0}, *t = &tui;
	struct sink *saved_out = s->out;
	const char *dump = getenv("E2L_TUI_DUMP");
	FILE *errtmp = tmpfile();
	int saved_err = -1, i;
	SCREEN *scr;
	char buf[4096];
	size_t n;

	setlocale(LC_ALL, "");
	t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	t->s = s;
	t->fs = s->fs;
	t->keys = keys;
	t->cur = s->fs->super->s_first_data_block;
	t->mouse_y = t->mouse_x = -1;
	t->prompt_obj = prompt_new();
	t->help = tui_lab_text() ? 2 : 0;	/* a lab starts on its panel */
	/* every view reads descriptors: the whole table in one read */
	(void)session_need(s, NEED_GROUP_DESC);
	sink_init_cb(&t->sink, SINK_TEXT, console_sink_write, t);

	/* Nothing may write on the screen behind curses' back. */
	fflush(stderr);
	if (errtmp) {
		saved_err = dup(STDERR_FILENO);
		dup2(fileno(errtmp), STDERR_FILENO);
	}
	hook_tui = t;
	set_com_err_hook(com_err_to_status);
	scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		reset_com_err_hook();
		hook_tui = NULL;
		if (saved_err >= 0) {
			dup2(saved_err, STDERR_FILENO);
			close(saved_err);
		}
		if (errtmp)
			fclose(errtmp);
		sink_free(&t->sink);
		prompt_free(t->prompt_obj);
		fprintf(stderr, "e2layout: cannot start the full-screen view "
				"(TERM=%s); try \"e2layout shell IMAGE\"\n",
			getenv("TERM") ? getenv("TERM") : "");
		return 1;
	}
	s->out = &t->sink;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	mouseinterval(0);
	theme_init(t);
	getmaxyx(stdscr, t->rows, t->cols);
	for (i = 0; i < TUI_NVIEWS; i++)
		if (views[i]->init)
			views[i]->init(t);
	live_refresh(t);
	t->scan_pending = 1;
	t->exit_first_frame = getenv("E2L_TUI_EXIT_AFTER_FIRST_FRAME") &&
			      strcmp(getenv("E2L_TUI_EXIT_AFTER_FIRST_FRAME"),
				     "0");
	loop(t);
	tui_alloc_quit(t);	/* removes the tracing instance */
	if (!t->exit_first_frame)
		draw(t);
	if (dump)
		dump_screen(t, dump);
	for (i = 0; i < TUI_NVIEWS; i++)
		if (views[i]->fini)
			views[i]->fini(t);
	endwin();
	delscreen(scr);

	s->out = saved_out;
	reset_com_err_hook();
	hook_tui = NULL;
	if (saved_err >= 0) {
		fflush(stderr);
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
		rewind(errtmp);
		while ((n = fread(buf, 1, sizeof(buf), errtmp)) > 0)
			fwrite(buf, 1, n, stderr);
	}
	if (errtmp)
		fclose(errtmp);
	console_free(t);
	names_free(t);
	edit_free(t);
	free(t->hl);
	prompt_free(t->prompt_obj);
	sink_free(&t->sink);
	return 0;
}
