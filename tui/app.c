/* app.c - the full-screen inspector's frame: terminal setup and restore
 * (stderr and com_err kept off the screen), the idle loop that runs the owner
 * scan, key and mouse dispatch to the views, resize, search, and the text
 * dump for tests.  Drawing the frame is frame.c's. */
#include "tui_int.h"
#include "live_reread.h"

#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "cmd.h"
#include "live.h"
#include "undo_guard.h"

const struct tui_view *const tui_views[TUI_NVIEWS] = {
	&view_overview, &view_map, &view_flex, &view_journal, &view_frag,
	&view_files, &view_console,
};

static struct tui *hook_tui;	/* for the com_err hook only */

void *tui_view_state(struct tui *t, const struct tui_view *v)
{
	int i;

	for (i = 0; i < TUI_NVIEWS; i++)
		if (tui_views[i] == v)
			return t->view_state[i];
	return NULL;
}

static void view_states_free(struct tui *t)
{
	int i;

	for (i = 0; i < TUI_NVIEWS; i++) {
		free(t->view_state[i]);
		t->view_state[i] = NULL;
	}
}

/* Each view's private state, zeroed; 0 or ENOMEM. */
static int view_states_new(struct tui *t)
{
	int i;

	for (i = 0; i < TUI_NVIEWS; i++) {
		t->view_state[i] = calloc(1, tui_views[i]->state_size ?
					     tui_views[i]->state_size : 1);
		if (!t->view_state[i]) {
			view_states_free(t);
			return ENOMEM;
		}
	}
	return 0;
}

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
		if (tui_views[i]->fini)
			tui_views[i]->fini(t);
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
	t->gen++;	/* what the maps showed is gone */
	(void)session_need(t->s, NEED_GROUP_DESC);
	if (t->cur >= ext2fs_blocks_count(t->fs->super))
		t->cur = t->fs->super->s_first_data_block;
	for (i = 0; i < TUI_NVIEWS; i++)
		if (tui_views[i]->init)
			tui_views[i]->init(t);
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
void tui_live_refresh(struct tui *t)
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

errcode_t tui_live_reread(struct tui *t)
{
	errcode_t err = 0;
	int changed = 0;

	if (!t->s->live)
		return 0;
	/* the kernel writes descriptors and bitmaps as it goes: a handle
	 * read once shows the state of when it was opened */
	if (!t->s->extent)
		err = live_reread(t->s, &changed);
	if (changed)
		tui_reload(t);
	tui_live_refresh(t);
	return err;
}

static long now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return tv.tv_sec * 1000L + tv.tv_usec / 1000;
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
	t->scan_ms = 0;
	/* its first frame a quarter second after the one just drawn, as the
	 * next ones: a scan done by then (100k files) shows only its end */
	t->scan_drawn = now_ms();
}

/* Runs the scan for about 40 ms.  Returns 1 when the screen should change. */
static int scan_idle(struct tui *t)
{
	long start = now_ms();
	errcode_t err;
	int done = 0;

	long t0 = start;

	if (t->scan_slow) {
		struct timespec ts = {0, 100 * 1000 * 1000};

		nanosleep(&ts, NULL);
		start = now_ms();
	}
	while (!done && now_ms() - start < 40) {
		err = owner_scan_step(t->s, t->scan_slow ? 1 : 256, &done);
		if (t->scan_slow && !err && !done)
			break;
		if (err) {
			tui_message(t, 1, "owner scan: %s",
				    error_message(err));
			t->scan_err = err;
			done = 1;
		}
	}
	t->scan_ms += now_ms() - t0;
	if (done) {
		t->scanning = 0;
		t->gen++;
		if (!t->scan_err && !t->msg[0])
			tui_message(t, 0, "owner scan complete");
		return 1;
	}
	/* a frame every quarter second while it runs: drawing after every
	 * 40 ms slice cost the scan a third of its time */
	if (now_ms() - t->scan_drawn < 250 && !t->scan_slow)
		return 0;
	t->scan_drawn = now_ms();
	return 1;
}

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
		tui_alloc_recording(t) || tui_io_on(t) ||
		tui_exp_running(t) ? 100 :
		t->s->live ? TUI_LIVE_SECONDS * 1000 : -1);
	return getch();
}

static void loop(struct tui *t)
{
	int ch, dirty = 1;

	while (!t->quit) {
		if (dirty)
			tui_draw(t);	/* refresh(): on the screen */
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
			dirty = !t->scanning;	/* else the scan's slice draws */
			continue;
		}
		ch = next_key(t);
		if (ch == ERR) {
			if (t->scanning)
				dirty = scan_idle(t);
			if (tui_alloc_idle(t))
				dirty = 1;
			if (tui_exp_idle(t))
				dirty = 1;
			if (tui_io_idle(t))
				dirty = 1;
			if (t->s->live &&
			    mono_now() - t->live_at >= TUI_LIVE_SECONDS) {
				tui_live_reread(t);
				dirty = 1;
			}
			continue;
		}
		if (!ch)
			continue;	/* NUL: no key binds it (Ctrl-Space, or the
					 * EOF a pty left before raw mode) */
		tui_on_key(t, ch);
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

	/* ncurses is loaded by the view alone: no other face pays for it */
	if (curses_dl_load(buf, sizeof(buf))) {
		fprintf(stderr, "e2layout: the full-screen view needs ncurses: "
				"%s; try \"e2layout shell IMAGE\" or -R "
				"REQUEST\n", buf);
		if (errtmp)
			fclose(errtmp);
		return 1;
	}
	/* the terminal's character set only: numbers are read and written
	 * the C way (a comma-decimal LC_NUMERIC misread saved results and
	 * changed what requests print at the prompt) */
	setlocale(LC_CTYPE, "");
	t->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	t->s = s;
	t->fs = s->fs;
	t->keys = keys;
	t->cur = s->fs->super->s_first_data_block;
	t->mouse_y = t->mouse_x = -1;
	t->prompt_obj = prompt_new();
	t->help = tui_lab_text() ? 2 : 0;	/* a lab starts on its panel */
	if (view_states_new(t)) {
		prompt_free(t->prompt_obj);
		if (errtmp)
			fclose(errtmp);
		fprintf(stderr, "e2layout: out of memory for the full-screen "
				"view\n");
		return 1;
	}
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
		view_states_free(t);
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
		if (tui_views[i]->init)
			tui_views[i]->init(t);
	tui_live_refresh(t);
	t->scan_pending = 1;
	t->scan_slow = getenv("E2L_TUI_SCAN_SLOW") &&
		       strcmp(getenv("E2L_TUI_SCAN_SLOW"), "0");
	t->exit_first_frame = getenv("E2L_TUI_EXIT_AFTER_FIRST_FRAME") &&
			      strcmp(getenv("E2L_TUI_EXIT_AFTER_FIRST_FRAME"),
				     "0");
	loop(t);
	tui_alloc_quit(t);	/* removes the tracing instance */
	tui_exp_quit(t);	/* a run cancelled, and cleaned up */
	tui_io_quit(t);
	/* the screen after the last key, for the dump only: endwin() takes
	 * the screen away at once */
	if (dump && !t->exit_first_frame)
		tui_draw(t);
	if (dump)
		dump_screen(t, dump);
	mapw_cache_free(t);	/* after the last frame, which fills it */
	for (i = 0; i < TUI_NVIEWS; i++)
		if (tui_views[i]->fini)
			tui_views[i]->fini(t);
	view_states_free(t);
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
	/* on the terminal again: the undo files this session wrote */
	undo_list_report(s);
	console_free(t);
	names_free(t);
	edit_free(t);
	free(t->hl);
	prompt_free(t->prompt_obj);
	sink_free(&t->sink);
	return 0;
}
