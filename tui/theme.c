/* theme.c - every colour and glyph the TUI uses, declared once, and the
 * small drawing helpers that apply them: roles mapped
 * to colours in the dark and light themes, the map's fill glyphs (UTF-8 and
 * ASCII) and the glyph-only letters used without colour (NO_COLOR). */
#include "tui_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct role_style {
	short fg, bg;
	attr_t attr;
};

#define D (-1)	/* the terminal's default colour */

static const struct role_style theme_dark[R_MAX] = {
	[R_NORMAL]	= {D, D, 0},
	[R_TITLE]	= {COLOR_BLACK, COLOR_CYAN, A_BOLD},
	[R_TAB]		= {COLOR_WHITE, COLOR_BLUE, 0},
	[R_TAB_ACTIVE]	= {COLOR_BLACK, COLOR_YELLOW, A_BOLD},
	[R_STATUS]	= {COLOR_BLACK, COLOR_WHITE, 0},
	[R_MSG]		= {COLOR_CYAN, D, 0},
	[R_ERROR]	= {COLOR_WHITE, COLOR_RED, A_BOLD},
	[R_SELECT]	= {COLOR_BLACK, COLOR_CYAN, 0},
	[R_HILITE]	= {COLOR_BLACK, COLOR_YELLOW, A_BOLD},
	[R_DIM]		= {COLOR_WHITE, D, A_DIM},
	[R_HEAD]	= {COLOR_YELLOW, D, A_BOLD},
	[R_BAR]		= {COLOR_GREEN, D, A_BOLD},
	[R_BAR_EMPTY]	= {COLOR_WHITE, D, A_DIM},
	[R_ALLOC_NEW]	= {COLOR_WHITE, COLOR_RED, A_BOLD},
	[R_ALLOC_OLD]	= {COLOR_RED, D, A_BOLD},
	[R_IO_READ]	= {COLOR_GREEN, COLOR_BLACK, 0},
	[R_IO_WRITE]	= {COLOR_YELLOW, COLOR_RED, 0},
	[R_CLASS0 + OWN_FREE]	= {COLOR_WHITE, D, A_DIM},
	[R_CLASS0 + OWN_UNINIT]	= {COLOR_BLUE, D, A_DIM},
	[R_CLASS0 + OWN_SUPER]	= {COLOR_RED, D, A_BOLD},
	[R_CLASS0 + OWN_GDT]	= {COLOR_RED, D, 0},
	[R_CLASS0 + OWN_RSV_GDT] = {COLOR_MAGENTA, D, A_DIM},
	[R_CLASS0 + OWN_BBITMAP] = {COLOR_YELLOW, D, A_BOLD},
	[R_CLASS0 + OWN_IBITMAP] = {COLOR_YELLOW, D, 0},
	[R_CLASS0 + OWN_ITABLE]	= {COLOR_MAGENTA, D, 0},
	[R_CLASS0 + OWN_JOURNAL] = {COLOR_CYAN, D, A_BOLD},
	[R_CLASS0 + OWN_MAPPING] = {COLOR_WHITE, D, A_BOLD},
	[R_CLASS0 + OWN_FILE]	= {COLOR_GREEN, D, 0},
	[R_CLASS0 + OWN_DIR]	= {COLOR_BLUE, D, A_BOLD},
	[R_CLASS0 + OWN_XATTR]	= {COLOR_GREEN, D, A_BOLD},
	[R_CLASS0 + OWN_OTHER]	= {COLOR_RED, D, A_DIM},
	[R_CLASS0 + OWN_UNKNOWN] = {COLOR_WHITE, D, 0},
};

static const struct role_style theme_light[R_MAX] = {
	[R_NORMAL]	= {D, D, 0},
	[R_TITLE]	= {COLOR_WHITE, COLOR_BLUE, A_BOLD},
	[R_TAB]		= {COLOR_BLACK, COLOR_WHITE, 0},
	[R_TAB_ACTIVE]	= {COLOR_WHITE, COLOR_BLUE, A_BOLD},
	[R_STATUS]	= {COLOR_WHITE, COLOR_BLACK, 0},
	[R_MSG]		= {COLOR_BLUE, D, 0},
	[R_ERROR]	= {COLOR_WHITE, COLOR_RED, A_BOLD},
	[R_SELECT]	= {COLOR_WHITE, COLOR_BLUE, 0},
	[R_HILITE]	= {COLOR_BLACK, COLOR_YELLOW, A_BOLD},
	[R_DIM]		= {COLOR_BLACK, D, A_DIM},
	[R_HEAD]	= {COLOR_BLUE, D, A_BOLD},
	[R_BAR]		= {COLOR_GREEN, D, A_BOLD},
	[R_BAR_EMPTY]	= {COLOR_BLACK, D, A_DIM},
	[R_ALLOC_NEW]	= {COLOR_WHITE, COLOR_RED, A_BOLD},
	[R_ALLOC_OLD]	= {COLOR_RED, D, 0},
	[R_IO_READ]	= {COLOR_BLUE, COLOR_WHITE, 0},
	[R_IO_WRITE]	= {COLOR_RED, COLOR_YELLOW, 0},
	[R_CLASS0 + OWN_FREE]	= {COLOR_BLACK, D, A_DIM},
	[R_CLASS0 + OWN_UNINIT]	= {COLOR_BLUE, D, A_DIM},
	[R_CLASS0 + OWN_SUPER]	= {COLOR_RED, D, A_BOLD},
	[R_CLASS0 + OWN_GDT]	= {COLOR_RED, D, 0},
	[R_CLASS0 + OWN_RSV_GDT] = {COLOR_MAGENTA, D, 0},
	[R_CLASS0 + OWN_BBITMAP] = {COLOR_YELLOW, D, A_BOLD},
	[R_CLASS0 + OWN_IBITMAP] = {COLOR_YELLOW, D, 0},
	[R_CLASS0 + OWN_ITABLE]	= {COLOR_MAGENTA, D, A_BOLD},
	[R_CLASS0 + OWN_JOURNAL] = {COLOR_CYAN, D, 0},
	[R_CLASS0 + OWN_MAPPING] = {COLOR_BLACK, D, A_BOLD},
	[R_CLASS0 + OWN_FILE]	= {COLOR_GREEN, D, 0},
	[R_CLASS0 + OWN_DIR]	= {COLOR_BLUE, D, A_BOLD},
	[R_CLASS0 + OWN_XATTR]	= {COLOR_GREEN, D, A_BOLD},
	[R_CLASS0 + OWN_OTHER]	= {COLOR_RED, D, A_DIM},
	[R_CLASS0 + OWN_UNKNOWN] = {COLOR_BLACK, D, 0},
};

/* Without colour: attributes only. */
static const attr_t mono_attr[R_MAX] = {
	[R_TITLE] = A_REVERSE | A_BOLD, [R_TAB] = A_REVERSE,
	[R_TAB_ACTIVE] = A_BOLD | A_UNDERLINE, [R_STATUS] = A_REVERSE,
	[R_ERROR] = A_BOLD | A_REVERSE, [R_SELECT] = A_REVERSE,
	[R_HILITE] = A_BOLD | A_UNDERLINE, [R_HEAD] = A_BOLD,
	[R_BAR] = A_BOLD, [R_ALLOC_NEW] = A_BOLD | A_REVERSE,
	[R_ALLOC_OLD] = A_BOLD, [R_IO_READ] = A_UNDERLINE,
	[R_IO_WRITE] = A_REVERSE,
};

static const struct {
	const char *name;
	const struct role_style *styles;
} themes[] = {
	{"dark", theme_dark},
	{"light", theme_light},
};
#define NTHEMES ((int)(sizeof(themes) / sizeof(themes[0])))

/* Glyph-only map letters: upper case when the cell is at least half used. */
static const char class_letters[OWN_CLASS_MAX][3] = {
	[OWN_FREE] = "..", [OWN_UNINIT] = ",,", [OWN_SUPER] = "Ss",
	[OWN_GDT] = "Gg", [OWN_RSV_GDT] = "Rr", [OWN_BBITMAP] = "Bb",
	[OWN_IBITMAP] = "Nn", [OWN_ITABLE] = "Ii", [OWN_JOURNAL] = "Jj",
	[OWN_MAPPING] = "Mm", [OWN_FILE] = "Ff", [OWN_DIR] = "Dd",
	[OWN_XATTR] = "Xx", [OWN_OTHER] = "Oo", [OWN_UNKNOWN] = "??",
};

static void apply(struct tui *t)
{
	const struct role_style *st = themes[t->theme].styles;
	int r;

	if (!t->color)
		return;
	for (r = 0; r < R_MAX; r++)
		init_pair(r + 1, st[r].fg, st[r].bg);
}

void theme_init(struct tui *t)
{
	const char *nc = getenv("NO_COLOR");
	const char *name = getenv("E2L_THEME");
	int i;

	t->color = has_colors() && !(nc && *nc);
	if (t->color) {
		start_color();
		use_default_colors();
		if (COLOR_PAIRS < R_MAX + 1)
			t->color = 0;
	}
	t->theme = 0;
	for (i = 0; name && i < NTHEMES; i++)
		if (!strcmp(name, themes[i].name))
			t->theme = i;
	apply(t);
}

void theme_next(struct tui *t)
{
	t->theme = (t->theme + 1) % NTHEMES;
	apply(t);
}

const char *theme_name(const struct tui *t)
{
	return t->color ? themes[t->theme].name : "no colour";
}

attr_t theme_attr(const struct tui *t, int role)
{
	if (!t->color)
		return mono_attr[role];
	return COLOR_PAIR(role + 1) | themes[t->theme].styles[role].attr;
}

const char *theme_glyph(const struct tui *t, const char *utf8,
			const char *ascii)
{
	return t->utf8 ? utf8 : ascii;
}

const char *theme_cell_glyph(const struct tui *t, enum owner_class cls,
			     double used, int empty)
{
	static const char *const fill_utf8[] = {"·", "░", "▒", "▓", "█"};
	static const char *const fill_ascii[] = {".", ":", "+", "*", "#"};
	static char letter[2];
	int level;

	if (empty)
		return " ";
	if (used <= 0)
		level = 0;
	else if (used <= 0.25)
		level = 1;
	else if (used <= 0.5)
		level = 2;
	else if (used <= 0.75)
		level = 3;
	else
		level = 4;
	if (!t->color) {
		letter[0] = class_letters[cls][used >= 0.5 ? 0 : 1];
		letter[1] = 0;
		return letter;
	}
	if (cls == OWN_UNINIT && level == 0)
		return t->utf8 ? "∙" : ",";
	return t->utf8 ? fill_utf8[level] : fill_ascii[level];
}

void tui_fill(struct tui *t, int y, int x, int w, int role)
{
	attrset(theme_attr(t, role));
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

void tui_text(struct tui *t, int y, int x, int w, int role, const char *fmt,
	      ...)
{
	char buf[1024];
	va_list ap;

	if (w <= 0 || y < 0 || y >= t->rows)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	attrset(theme_attr(t, role));
	mvaddnstr(y, x, buf, w);
	attrset(A_NORMAL);
}

void tui_bar(struct tui *t, int y, int x, int w, double frac)
{
	int i, full;

	if (frac < 0)
		frac = 0;
	if (frac > 1)
		frac = 1;
	full = (int)(frac * w + 0.5);
	for (i = 0; i < w; i++) {
		attrset(theme_attr(t, i < full ? R_BAR : R_BAR_EMPTY));
		mvaddstr(y, x + i, i < full ? theme_glyph(t, "█", "#")
					    : theme_glyph(t, "░", "-"));
	}
	attrset(A_NORMAL);
}
