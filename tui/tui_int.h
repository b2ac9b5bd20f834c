/* tui_int.h - what the full-screen front end's files share: the state of one
 * running inspector, the view and key tables, the theme roles and the map
 * widget.  Not an API outside tui/. */
#ifndef E2L_TUI_INT_H
#define E2L_TUI_INT_H

#include "curses_dl.h"	/* <curses.h>, its calls through a table */

#include "tui.h"
#include "owner.h"
#include "sink.h"

#define TUI_MIN_COLS	60
#define TUI_MIN_ROWS	16
#define TUI_NVIEWS	7
#define TUI_LIVE_SECONDS 5

/* Colour roles (tui/theme.c maps them to colours and attributes). */
enum tui_role {
	R_NORMAL, R_TITLE, R_TAB, R_TAB_ACTIVE, R_STATUS, R_MSG, R_ERROR,
	R_SELECT, R_HILITE, R_DIM, R_HEAD, R_BAR, R_BAR_EMPTY,
	R_ALLOC_NEW, R_ALLOC_OLD,	/* the live allocation overlay */
	R_IO_READ, R_IO_WRITE,		/* the live block-I/O overlay */
	R_CLASS0,			/* + enum owner_class */
	R_MAX = R_CLASS0 + OWN_CLASS_MAX
};

/* Actions a key can name (tui/keys.c). */
enum tui_action {
	ACT_NONE, ACT_QUIT, ACT_HELP, ACT_SEARCH, ACT_PROMPT, ACT_NEXT_VIEW, ACT_PREV_VIEW,
	ACT_VIEW1, ACT_VIEW2, ACT_VIEW3, ACT_VIEW4, ACT_VIEW5, ACT_VIEW6, ACT_VIEW7,
	ACT_UP, ACT_DOWN, ACT_LEFT, ACT_RIGHT, ACT_PGUP, ACT_PGDN, ACT_HOME, ACT_END,
	ACT_ENTER, ACT_BACK, ACT_CANCEL, ACT_THEME, ACT_JUMP_BACK, ACT_REDRAW,
	ACT_RESCAN, ACT_SHOW_MAP, ACT_LIVE_REFRESH, ACT_LAB, ACT_ALLOC,
	ACT_EDIT, ACT_MARK, ACT_APPLY, ACT_OVERLAY, ACT_IO, ACT_EXPERIMENT,
	/* view-specific */
	ACT_SORT, ACT_SCOPE, ACT_SCOPE_NEXT, ACT_SCOPE_PREV, ACT_NEXT_FRAG, ACT_PREV_FRAG,
	ACT_FLEX_MODE, ACT_GOTO_META, ACT_CLEAR,
	ACT_MAX
};

struct tui_key {
	int key;		/* curses key code or character */
	const char *label;	/* as shown in help: "Tab", "q" */
	enum tui_action action;
	const char *help;
};

struct tui;

struct tui_view {
	const char *name;	/* "map": also the E2L notation <view:map> */
	const char *title;	/* on the tab bar */
	void (*init)(struct tui *t);
	void (*draw)(struct tui *t, int y, int x, int h, int w);
	/* Returns 1 when the view used the action. */
	int (*key)(struct tui *t, enum tui_action a, int ch);
	void (*fini)(struct tui *t);
	const struct tui_key *keys;	/* the view's own keys, {0} ended */
	size_t state_size;	/* its private state, zeroed for each TUI */
};

extern const struct tui_view view_overview, view_map, view_flex,
	view_journal, view_frag, view_files, view_console;

/* A block range to highlight on the maps. */
struct tui_range {
	blk64_t start, len;
};

/* Where a map was last drawn, for mouse hits and the cursor. */
struct tui_maparea {
	int used;
	int y, x, rows, cols;		/* cell area on screen */
	blk64_t first, end;		/* range shown, end exclusive */
	blk64_t row_blocks, bpc;	/* blocks per row and per cell */
	blk64_t top_row;
};

struct tui_prompt;
struct tui_names;
struct tui_alloc;
struct tui_io;
struct tui_exp;

/* What the editor (e) would work on: set by the view that shows it. */
enum tui_sel_kind { SEL_NONE, SEL_JOURNAL, SEL_FILE, SEL_RANGE, SEL_FLEX };
struct tui_sel {
	enum tui_sel_kind kind;
	ext2_ino_t ino;			/* the journal's or the file's */
	blk64_t first, last;		/* a range, inclusive */
	unsigned long flex;
	char path[512];			/* a file's path, "" when unknown */
};

/* One line of the editor's menu (edit.c). */
enum edit_input { IN_NONE, IN_GROUP, IN_BLOCK, IN_SIZE };
struct edit_op {
	enum tui_sel_kind kind;
	const char *label;
	const char *cmd;	/* the request, before the object */
	const char *opt;	/* after the object, or NULL */
	enum edit_input input;
	int live;		/* 1: only on a mounted filesystem (through the
				   kernel), 0: only offline, -1: both */
};

/* The editor's screens (edit.c, drawn by edit_draw.c). */
enum edit_mode {
	ED_CLOSED, ED_MENU, ED_INPUT, ED_ERROR, ED_PLAN, ED_CONFIRM,
	ED_APPLYING, ED_RESULT
};
struct tui_edit {
	enum edit_mode mode;
	struct tui_sel sel;		/* what the menu was opened for */
	int menu_sel, nops;
	const struct edit_op *ops[12];	/* the menu's operations */
	char input_label[160];
	struct tui_prompt *in;		/* numbers, sizes and the `yes` */
	char request[700];		/* the plan request last run */
	struct strbuf out;		/* the engine's words (build, apply) */
	int ok;				/* the apply succeeded and verified */
	int step_sel, step_top;		/* the move list */
	int overlay;			/* 0 strips, 1 before, 2 after on the map */
	char msg[256];
	int msg_err;
	unsigned long long prog_done, prog_total;
	int prog_pct;
	int check_pct;			/* e2fsck -fn before it, -1 none */
};

struct tui {
	struct session *s;
	ext2_filsys fs;
	int rows, cols;
	int view;
	int quit;
	int help;		/* the help screen is up (2: the lab panel);
				 * its scroll offset */
	int help_top;
	/* The background owner scan. */
	int scanning, scan_cancelled;
	int scan_pending;	/* started once the first frame is drawn */
	int exit_first_frame;	/* E2L_TUI_EXIT_AFTER_FIRST_FRAME (bench) */
	long scan_ms;		/* time spent scanning, for the time left */
	long scan_drawn;	/* when a frame last showed the scan */
	/* The map cells last drawn (mapw.c): while the owner scan runs the
	 * cells cannot change (the scan's runs count once it is complete),
	 * so a frame redraws them without asking the bitmap again. */
	struct mapw_cache {
		unsigned gen;
		int complete;
		blk64_t first, end, row_blocks, bpc, top_row;
		int rows, cols;
		unsigned char *cls;	/* rows x cols classes */
		float *used;		/* and used shares */
	} mapcache[2];
	int mapcache_next;
	int scan_slow;		/* E2L_TUI_SCAN_SLOW (tests): an inode a
				   tenth of a second, to see the progress */
	errcode_t scan_err;
	unsigned gen;		/* bumped when what the maps show changes */
	/* The map cursor, shared by every view that draws a map. */
	blk64_t cur;
	/* Jump stack for "back". */
	struct { int view; blk64_t cur; } jumps[32];
	int njumps;
	/* Highlighted ranges and what they are. */
	struct tui_range *hl;
	size_t nhl;
	char hl_what[80];
	/* The status line (the cursor cell, set by whoever draws it). */
	char status[512];
	int mouse_y, mouse_x;	/* the last click, for views */
	/* The message line. */
	char msg[512];
	int msg_err;
	/* The prompt (':' or '/'), NULL when closed. */
	struct tui_prompt *prompt, *prompt_obj;
	int prompt_kind;
	struct sink sink;	/* every request's output: the console */
	/* Display capabilities: colour at all, 256 colours (the map's
	 * palette, tui/palette.c), UTF-8 glyphs; the theme in use. */
	int color, color256, utf8, theme;
	/* Scripted keys still to play. */
	const char *keys;
	/* The last map drawn in the view area, for mouse clicks. */
	struct tui_maparea area;
	/* Console scrollback (tui/view_console.c). */
	char **lines;
	size_t nlines, lines_cap;
	struct strbuf partial;
	int lines_top;		/* lines scrolled back from the end */
	struct tui_names *names;	/* inode -> parent (names.c) */
	/* Live mode (a mounted filesystem): the kernel's free count, read
	 * again on 'r' and every TUI_LIVE_SECONDS; -1 when unreadable. */
	long long live_kfree, live_dfree;
	double live_at;
	struct tui_alloc *alloc;	/* allocations being recorded, or NULL */
	struct tui_io *io;		/* block I/O being watched, or NULL */
	struct tui_exp *exp;		/* an experiment's result or run */
	struct tui_sel sel;		/* the editor's selection */
	struct tui_edit *edit;		/* the editor, NULL until first used */
	struct strbuf *capture;		/* also gets the requests' output */
	/* Each view's private state (struct tui_view.state_size bytes, in
	 * tui_views' order), made before the views' init and freed after
	 * their fini; a view reaches its own through tui_view_state(). */
	void *view_state[TUI_NVIEWS];
	/* Where each tab ends on the tab bar as last drawn (mouse hits). */
	int tab_end[TUI_NVIEWS];
};

/* app.c */
void tui_message(struct tui *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void tui_goto_view(struct tui *t, int view);
/* Moves the cursor to blk, remembering where it was for jump-back. */
void tui_jump(struct tui *t, int view, blk64_t blk);
void tui_set_highlight(struct tui *t, const struct tui_range *r, size_t n,
		       const char *what);
/* Runs a request through the dispatcher into the console scrollback;
 * CMD_OK or CMD_FAIL.  Reloads every view when the request reopened the
 * filesystem (apply does). */
int tui_run_request(struct tui *t, const char *line);
/* Rebuilds what the views cached from the filesystem (after a write). */
void tui_reload(struct tui *t);
/* Searches "12", "<12>", "b123", "/path": 0 on success. */
int tui_search(struct tui *t, const char *what);
/* The views, in tab order. */
extern const struct tui_view *const tui_views[TUI_NVIEWS];
/* View v's private state in this TUI (never NULL while the TUI runs). */
void *tui_view_state(struct tui *t, const struct tui_view *v);

/* Live mode: rereads the kernel's and the disk's free counts. */
void tui_live_refresh(struct tui *t);
/* Live mode: reads the on-disk state again (a new libext2fs handle when
 * it changed: every view reloads) and then the kernel's counts. */
errcode_t tui_live_reread(struct tui *t);

/* tabbar.c: the tab bar on line 0, fitted to the width; sets tab_end. */
void tui_tabbar_draw(struct tui *t);
/* frame.c: draws the whole screen (the frame and the current view). */
void tui_draw(struct tui *t);
/* input.c: one key (or KEY_MOUSE) from the loop. */
void tui_on_key(struct tui *t, int ch);

/* view_map.c: shows blk at one block per cell. */
void view_map_zoom_block(struct tui *t, blk64_t blk);

/* keys.c */
extern const struct tui_key tui_global_keys[];
extern const struct tui_key tui_edit_keys[];
enum tui_action tui_key_lookup(const struct tui_key *k, int ch);
enum tui_action tui_key_action(const struct tui *t, int ch);
/* Next key of a scripted sequence at *p (advanced); ERR at the end.
 * Sets *rw,*rh for <resize:WxH> and returns KEY_RESIZE. */
int tui_script_next(const char **p, int *rw, int *rh);
/* The help screen's lines (key table as text), one per call; NULL ends. */
void tui_help_text(const struct tui *t, struct strbuf *sb);
void tui_help_draw(struct tui *t);
/* lab_panel.c: the lab's text set by tui_set_lab(), or NULL. */
const char *tui_lab_text(void);

/* theme.c */
void theme_init(struct tui *t);
void theme_next(struct tui *t);
const char *theme_name(const struct tui *t);
attr_t theme_attr(const struct tui *t, int role);
/* The glyph of a map cell: class, share of used blocks 0..1.  A fill
 * level with 256 colours; the class's letter with 8 colours or none (so
 * classes that share a colour differ by glyph); "?" for used blocks whose
 * owner the scan has not found yet. */
const char *theme_cell_glyph(const struct tui *t, enum owner_class cls,
			     double used, int empty);
const char *theme_glyph(const struct tui *t, const char *utf8,
			const char *ascii);

/* mapw.c - the map widget. */
struct map_layout {
	blk64_t first, end;	/* range shown */
	blk64_t row_blocks;	/* blocks per row */
	blk64_t bpc;		/* blocks per cell */
	int label;		/* 'g' group, 'f' flex, 'b' block number */
	int cursor;		/* draw the cursor cell */
	blk64_t top_row;	/* first row shown */
};
/* Fits the whole device into h rows of w cells. */
void mapw_fit(struct tui *t, struct map_layout *m, int w, int h);
void mapw_draw(struct tui *t, struct map_layout *m, int y, int x, int h,
	       int w);
/* Frees the cells mapw_draw keeps between frames. */
void mapw_cache_free(struct tui *t);
/* Lines the legend needs at width w; draws it at (y, x). */
int mapw_legend(struct tui *t, int y, int x, int w, int draw);
/* The cell of the last drawn map at screen (y, x): 0 and *blk on a hit. */
int mapw_hit(struct tui *t, int y, int x, blk64_t *blk);
/* The status-line description of the cell holding blk in a map of bpc. */
void mapw_describe(struct tui *t, blk64_t first, blk64_t count, char *buf,
		   size_t len);
int mapw_highlighted(const struct tui *t, blk64_t first, blk64_t count);
/* names.c: the path of an inode (first link), or "" when not found. */
void tui_inode_path(struct tui *t, ext2_ino_t ino, char *buf, size_t len);
void names_free(struct tui *t);

/* prompt.c - a line editor with history and completion. */
struct tui_prompt *prompt_new(void);
void prompt_free(struct tui_prompt *p);
void prompt_reset(struct tui_prompt *p);
/* Feeds a key: 1 Enter (the line is ready), -1 cancelled, 0 editing. */
int prompt_key(struct tui *t, struct tui_prompt *p, int ch);
const char *prompt_line(const struct tui_prompt *p);
void prompt_draw(struct tui *t, struct tui_prompt *p, int y, int x, int w,
		 const char *label);
void prompt_history_add(struct tui_prompt *p, const char *line);

/* alloc_overlay.c - live mode: `a` records allocations (tracepoints). */
void tui_alloc_toggle(struct tui *t);
/* Polls the recording (non-blocking); 1 when the screen should change. */
int tui_alloc_idle(struct tui *t);
int tui_alloc_recording(const struct tui *t);
/* 0: no allocation in the cell, 1: an older one, 2: a recent one. */
int tui_alloc_cell(const struct tui *t, blk64_t first, blk64_t count);
/* The status-line text while recording: 1 when buf was set. */
int tui_alloc_status(const struct tui *t, char *buf, size_t len);
/* Stops recording and removes the tracing instance (quit). */
void tui_alloc_quit(struct tui *t);

/* quitsig.c - SIGHUP/SIGTERM/SIGINT caught while something must be
 * cleaned up (counted holders; the last release restores the handlers). */
void tui_signals_catch(void);
void tui_signals_release(void);
/* The signal caught (0: none); take also clears it. */
int tui_signal_pending(void);
int tui_signal_take(void);

/* io_overlay.c - `I`: the block requests of the device (live mode) or of
 * a running experiment's loop device lit on the maps, fading. */
void tui_io_toggle(struct tui *t);
/* Polls (non-blocking); 1 when the screen should change. */
int tui_io_idle(struct tui *t);
int tui_io_on(const struct tui *t);
/* 0: no recent request in the cell, else 1 (fading) .. 3 (now); *write
 * says whether the hotter one was a write. */
int tui_io_cell(const struct tui *t, blk64_t first, blk64_t count,
		int *write);
int tui_io_status(const struct tui *t, char *buf, size_t len);
/* An experiment's run now uses device kdev (devname "loop3"); 0 stops
 * following runs. */
void tui_io_follow(struct tui *t, __u64 kdev, const char *devname);
void tui_io_quit(struct tui *t);

/* exp_child.c - `:experiment ...` from the prompt: a run in a child
 * process (progress, Esc or C-c cancels), or `:experiment show FILE`.
 * 1 when line was an experiment line (handled). */
int tui_exp_command(struct tui *t, const char *line);
int tui_exp_running(const struct tui *t);
/* The running experiment's current loop device: 1 and *kdev, *name (its
 * name, "loop3") while a run is mounted. */
int tui_exp_device(const struct tui *t, __u64 *kdev, const char **name);
/* Polls the running experiment; 1 when the screen should change. */
int tui_exp_idle(struct tui *t);
/* Cancels a run (SIGINT to it: it cleans up as on the command line). */
void tui_exp_cancel(struct tui *t);
/* Quit: cancels a run and waits for its cleanup; frees the result. */
void tui_exp_quit(struct tui *t);
/* view_exp.c - the result panel over the view area, while shown. */
int tui_exp_shown(const struct tui *t);
void tui_exp_show(struct tui *t);
void tui_exp_hide(struct tui *t);
void tui_exp_draw(struct tui *t);
void tui_exp_key(struct tui *t, int ch);

/* edit.c - the layout editor. */
void tui_select(struct tui *t, const struct tui_sel *sel);
void tui_select_file(struct tui *t, ext2_ino_t ino, const char *path);
void edit_open(struct tui *t);
int edit_active(const struct tui *t);
void edit_key(struct tui *t, int ch);
void edit_free(struct tui *t);
void edit_close(struct tui *t);
void edit_sel_text(struct tui *t, const struct tui_sel *s, char *buf,
		   size_t len);
/* edit_draw.c */
void edit_draw(struct tui *t);

/* view_console.c */
void console_append(struct tui *t, const char *buf, size_t len);
void console_free(struct tui *t);

/* Drawing helpers (app.c). */
void tui_fill(struct tui *t, int y, int x, int w, int role);
void tui_text(struct tui *t, int y, int x, int w, int role, const char *fmt,
	      ...) __attribute__((format(printf, 6, 7)));
void tui_bar(struct tui *t, int y, int x, int w, double frac);

#endif
