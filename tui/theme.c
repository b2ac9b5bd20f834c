/* theme.c - every colour and glyph the TUI uses, declared once, and the
 * small drawing helpers that apply them: roles mapped
 * to colours in the dark and light themes, the map's fill glyphs (UTF-8 and
 * ASCII) and the glyph-only letters used without colour (NO_COLOR). */
#include "tui_int.h"
#include "palette.h"
#include "uchar.h"

#include <ctype.h>
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

/* With 256 colours the map's roles (classes and overlays) take their
 * colour from the palette, on the default background, in both themes:
 * the colour of role r in *fg, 1 when it has one. */
static int palette_fg(const struct tui *t, int r, short *fg)
{
	if (!t->color256)
		return 0;
	if (r >= R_CLASS0 && r < R_CLASS0 + OWN_CLASS_MAX)
		*fg = pal_class256[r - R_CLASS0];
	else if (r == R_ALLOC_NEW)
		*fg = pal_overlay256[PAL_ALLOC_NEW];
	else if (r == R_ALLOC_OLD)
		*fg = pal_overlay256[PAL_ALLOC_OLD];
	else if (r == R_IO_READ)
		*fg = pal_overlay256[PAL_IO_READ];
	else if (r == R_IO_WRITE)
		*fg = pal_overlay256[PAL_IO_WRITE];
	else
		return 0;
	return 1;
}

static void apply(struct tui *t)
{
	const struct role_style *st = themes[t->theme].styles;
	short fg;
	int r;

	if (!t->color)
		return;
	for (r = 0; r < R_MAX; r++) {
		if (palette_fg(t, r, &fg))
			init_pair(r + 1, fg, D);
		else
			init_pair(r + 1, st[r].fg, st[r].bg);
	}
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
	t->color256 = t->color && COLORS >= 256;
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
	short fg;

	if (!t->color)
		return mono_attr[role];
	if (palette_fg(t, role, &fg))
		return COLOR_PAIR(role + 1);
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
	if (cls == OWN_UNKNOWN && !owner_index_complete(t->s))
		return "?";	/* the owner scan has not reached it */
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
	if (!t->color256) {
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

/* Byte i of s is part of a number: a digit, or a separator between two. */
static int in_number(const char *s, int i)
{
	if (i < 0 || !s[i])
		return 0;
	if (isdigit((unsigned char)s[i]))
		return 1;
	return strchr(".,:", s[i]) && i > 0 &&
	       isdigit((unsigned char)s[i - 1]) &&
	       isdigit((unsigned char)s[i + 1]);
}

/* Where to cut s to fit w columns with an ellipsis after it: on a
 * character boundary, never inside a number (the whole number goes), nor
 * between a number and its unit ("97%" is not shown as "97…"). */
static int fit_cut(const char *s, int len, int w, int utf8)
{
	int cut = 0, next, end;

	while (cut < len) {
		next = uc_next(s, len, cut, utf8);
		if (uc_width(s, 0, next, utf8) > w - 1)
			break;
		cut = next;
	}
	if (cut > 0 && cut < len && in_number(s, cut - 1) &&
	    (in_number(s, cut) || !strchr(" ,;)]", s[cut])))
		while (cut > 0 && in_number(s, cut - 1))
			cut--;
	/* "28…" would read as a number cut: "28 …", or the number goes */
	for (;;) {
		end = cut;
		while (cut > 0 && s[cut - 1] == ' ')
			cut--;
		if (!cut || !isdigit((unsigned char)s[cut - 1]))
			return cut;
		if (cut < end)
			return cut + 1;
		while (cut > 0 && in_number(s, cut - 1))
			cut--;
	}
}

void tui_text(struct tui *t, int y, int x, int w, int role, const char *fmt,
	      ...)
{
	char buf[1024];
	va_list ap;
	int len, cut;

	if (w <= 0 || y < 0 || y >= t->rows)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	attrset(theme_attr(t, role));
	len = (int)strlen(buf);
	if (uc_width(buf, 0, len, t->utf8) <= w) {
		mvaddnstr(y, x, buf, len);
	} else {
		/* too long: cut with an ellipsis, never through a number
		 * ("free of 6" for 65536) */
		cut = fit_cut(buf, len, w, t->utf8);
		mvaddnstr(y, x, buf, cut);
		addstr(theme_glyph(t, "…", "~"));
	}
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
