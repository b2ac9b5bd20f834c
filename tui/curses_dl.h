/* curses_dl.h - the ncurses functions and variables the full-screen view
 * uses, through a table that curses_dl_load fills with dlopen when the view
 * starts: no other face of e2layout (a request, a script, the shell) loads
 * ncurses.  tui_int.h includes this after <curses.h>; each name below then
 * means the table's entry, so the views call curses as they always did. */
#ifndef E2L_CURSES_DL_H
#define E2L_CURSES_DL_H

#include <curses.h>
#include <stddef.h>

#define CURSES_DL_FUNCS(X) X(cbreak) X(curs_set) X(delscreen) X(endwin) \
	X(getmouse) X(has_colors) X(init_pair) X(keypad) X(mouseinterval) \
	X(mousemask) X(newterm) X(noecho) X(resizeterm) X(set_escdelay) \
	X(setcchar) X(start_color) X(use_default_colors) X(wadd_wch) X(waddch) X(waddnstr) X(wattrset) \
	X(wclear) X(wclrtoeol) X(werase) X(wgetch) X(whline) X(winnwstr) X(wmove) \
	X(wrefresh) X(wtimeout)
#define CURSES_DL_VARS(X) X(stdscr) X(COLORS) X(COLOR_PAIRS)

struct curses_dl {
#define CURSES_DL_ENTRY(f) __typeof__(f) *f;
	CURSES_DL_FUNCS(CURSES_DL_ENTRY)
	CURSES_DL_VARS(CURSES_DL_ENTRY)
#undef CURSES_DL_ENTRY
};

/* The table: filled once, by the first curses_dl_load that succeeds. */
extern struct curses_dl curses_dl;

/* Loads ncurses (once) and fills the table.  0, or ENOENT with why saying
 * what is missing; the view must not start then. */
int curses_dl_load(char *why, size_t len);

#ifndef CURSES_DL_IMPL
#define cbreak (curses_dl.cbreak)
#define curs_set (curses_dl.curs_set)
#define delscreen (curses_dl.delscreen)
#define endwin (curses_dl.endwin)
#define getmouse (curses_dl.getmouse)
#define has_colors (curses_dl.has_colors)
#define init_pair (curses_dl.init_pair)
#define keypad (curses_dl.keypad)
#define mouseinterval (curses_dl.mouseinterval)
#define mousemask (curses_dl.mousemask)
#define newterm (curses_dl.newterm)
#define noecho (curses_dl.noecho)
#define resizeterm (curses_dl.resizeterm)
#define set_escdelay (curses_dl.set_escdelay)
#define setcchar (curses_dl.setcchar)
#define start_color (curses_dl.start_color)
#define use_default_colors (curses_dl.use_default_colors)
#define wadd_wch (curses_dl.wadd_wch)
#define waddch (curses_dl.waddch)
#define waddnstr (curses_dl.waddnstr)
#undef wattrset		/* a macro in some ncurses builds */
#define wattrset (curses_dl.wattrset)
#define wclear (curses_dl.wclear)
#define wclrtoeol (curses_dl.wclrtoeol)
#define werase (curses_dl.werase)
#define wgetch (curses_dl.wgetch)
#define whline (curses_dl.whline)
#define winnwstr (curses_dl.winnwstr)
#define wmove (curses_dl.wmove)
#define wrefresh (curses_dl.wrefresh)
#define wtimeout (curses_dl.wtimeout)
#define stdscr (*curses_dl.stdscr)
#define COLORS (*curses_dl.COLORS)
#define COLOR_PAIRS (*curses_dl.COLOR_PAIRS)
#endif

#endif
