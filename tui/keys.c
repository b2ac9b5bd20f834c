/* keys.c - keys are data: the global key table (each view adds its own), the
 * lookup from a key to a named action, the help screen generated from those
 * tables, and the notation of scripted keys (`--keys`). */
#include "tui_int.h"
#include "uchar.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define CTRL(c) ((c) & 0x1f)
#define KEY_ESC 27

const struct tui_key tui_global_keys[] = {
	{'q', "q", ACT_QUIT, "quit (restores the terminal, exit status 0)"},
	{'?', "?", ACT_HELP, "this help, generated from the key tables"},
	{KEY_F(1), "F1", ACT_HELP, "this help"},
	{'/', "/", ACT_SEARCH, "search: <12> or i12 inode, b123 or 123 block, /path"},
	{':', ":", ACT_PROMPT, "run a request in the console (Tab completes)"},
	{'\t', "Tab", ACT_NEXT_VIEW, "next view"},
	{KEY_BTAB, "S-Tab", ACT_PREV_VIEW, "previous view"},
	{'1', "1", ACT_VIEW1, "overview"},
	{'2', "2", ACT_VIEW2, "group map"},
	{'3', "3", ACT_VIEW3, "flex groups"},
	{'4', "4", ACT_VIEW4, "journal"},
	{'5', "5", ACT_VIEW5, "fragmentation"},
	{'6', "6", ACT_VIEW6, "files"},
	{'7', "7", ACT_VIEW7, "console"},
	{KEY_UP, "Up k", ACT_UP, "move up"},
	{'k', NULL, ACT_UP, NULL},
	{KEY_DOWN, "Down j", ACT_DOWN, "move down"},
	{'j', NULL, ACT_DOWN, NULL},
	{KEY_LEFT, "Left h", ACT_LEFT, "move left"},
	{'h', NULL, ACT_LEFT, NULL},
	{KEY_RIGHT, "Right l", ACT_RIGHT, "move right"},
	{'l', NULL, ACT_RIGHT, NULL},
	{KEY_PPAGE, "PgUp", ACT_PGUP, "page up"},
	{KEY_NPAGE, "PgDn", ACT_PGDN, "page down"},
	{KEY_HOME, "Home g", ACT_HOME, "first item"},
	{'g', NULL, ACT_HOME, NULL},
	{KEY_END, "End G", ACT_END, "last item"},
	{'G', NULL, ACT_END, NULL},
	{'\n', "Enter", ACT_ENTER, "open / zoom in"},
	{'\r', NULL, ACT_ENTER, NULL},
	{KEY_ENTER, NULL, ACT_ENTER, NULL},
	{KEY_BACKSPACE, "Backspace", ACT_BACK, "up a level / zoom out"},
	{127, NULL, ACT_BACK, NULL},
	{CTRL('h'), NULL, ACT_BACK, NULL},
	{KEY_ESC, "Esc", ACT_CANCEL, "cancel the background scan / close"},
	{'m', "m", ACT_SHOW_MAP, "show the selection on the group map"},
	{'\'', "'", ACT_JUMP_BACK, "jump back to where the last jump started"},
	{'t', "t", ACT_THEME, "next colour theme (dark, light)"},
	{'r', "r F5", ACT_LIVE_REFRESH, "live mode: read the disk and the kernel's view again (also every 5 s)"},
	{KEY_F(5), NULL, ACT_LIVE_REFRESH, NULL},
	{'a', "a", ACT_ALLOC, "live mode: record allocations, lit on the maps (a again stops)"},
	{'I', "I", ACT_IO, "live mode or a running experiment: light block I/O on the maps, reads and writes apart, fading (I again stops)"},
	{'X', "X", ACT_EXPERIMENT, "the experiment panel: the last result (:experiment show FILE) or the run in progress"},
	{'R', "R", ACT_RESCAN, "restart a cancelled owner scan"},
	{CTRL('l'), "C-l", ACT_REDRAW, "redraw the screen"},
	{'L', "L", ACT_LAB, "the lab panel: goal and steps (e2layout lab start)"},
	{'e', "e", ACT_EDIT, "editor: operations on the selection (journal, file, range, flex group)"},
	{0, NULL, ACT_NONE, NULL},
};

/* The editor's own keys (menu, plan screen, result); Up/Down/PgUp/PgDn/
 * Home/End move as everywhere. */
const struct tui_key tui_edit_keys[] = {
	{'\n', "Enter", ACT_ENTER, "menu: build the plan (read-only); result: close"},
	{'\r', NULL, ACT_ENTER, NULL},
	{KEY_ENTER, NULL, ACT_ENTER, NULL},
	{'a', "a", ACT_APPLY, "plan: apply it (-w sessions; type yes to confirm)"},
	{'o', "o", ACT_OVERLAY, "plan: before/after side by side, or overlaid on the map"},
	{27, "Esc", ACT_CANCEL, "back one screen (plan to menu, menu to the view)"},
	{'q', "q", ACT_QUIT, "close the editor (the plan stays: :plan show, :apply)"},
	{0, NULL, ACT_NONE, NULL},
};

static const struct tui_view *const views[TUI_NVIEWS] = {
	&view_overview, &view_map, &view_flex, &view_journal, &view_frag,
	&view_files, &view_console,
};

enum tui_action tui_key_lookup(const struct tui_key *k, int ch)
{
	for (; k && k->action; k++)
		if (k->key == ch)
			return k->action;
	return ACT_NONE;
}

enum tui_action tui_key_action(const struct tui *t, int ch)
{
	enum tui_action a = tui_key_lookup(views[t->view]->keys, ch);

	return a ? a : tui_key_lookup(tui_global_keys, ch);
}

static void help_table(struct strbuf *sb, const char *title,
		       const struct tui_key *k)
{
	strbuf_printf(sb, "%s\n", title);
	for (; k->action; k++)
		if (k->label)
			strbuf_printf(sb, "  %-12s %s\n", k->label, k->help);
	strbuf_printf(sb, "\n");
}

void tui_help_text(const struct tui *t, struct strbuf *sb)
{
	char title[80];
	int i, v;

	help_table(sb, "Global keys", tui_global_keys);
	for (i = 0; i < TUI_NVIEWS; i++) {
		v = (t->view + i) % TUI_NVIEWS;	/* the current view first */
		if (!views[v]->keys || !views[v]->keys[0].action)
			continue;
		snprintf(title, sizeof(title), "View %d, %s", v + 1,
			 views[v]->title);
		help_table(sb, title, views[v]->keys);
	}
	help_table(sb, "Editor (e; 1-9 also pick a menu line)", tui_edit_keys);
	strbuf_printf(sb, "Mouse: a click selects a map cell or a list row; "
			  "the wheel scrolls.\n");
}

/* How many bytes of s (len) go on a line of w columns: up to the last
 * space that fits, or as many whole characters as fit when no space
 * does; all of it when it fits. */
static int help_fit(const struct tui *t, const char *s, int len, int w)
{
	int pos = 0, next, cut = 0;

	if (uc_width(s, 0, len, t->utf8) <= w)
		return len;
	while (pos < len) {
		next = uc_next(s, len, pos, t->utf8);
		if (uc_width(s, 0, next, t->utf8) > w)
			break;
		if (s[pos] == ' ' && pos > 0)
			cut = pos;
		pos = next;
	}
	return cut ? cut : pos ? pos : uc_next(s, len, 0, t->utf8);
}

/* The help text with lines wider than the screen wrapped at spaces, each
 * continuation indented under the description (nothing is cut off). */
void tui_help_draw(struct tui *t)
{
	struct strbuf sb = {0};
	const char *p, *nl;
	int y = 1, line = 0, h = t->rows - 2, len, n, indent, w, role;

	if (t->help == 2 && tui_lab_text())
		strbuf_printf(&sb, "%s", tui_lab_text());
	else
		tui_help_text(t, &sb);
	erase();
	tui_text(t, 0, 0, t->cols, R_TITLE, " e2layout %s  (Up/Down "
		 "scroll, any other key closes)", t->help == 2 ? "lab" :
		 "help");
	for (p = sb.buf; p && *p && y <= h; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		len = (int)(nl - p);
		role = (*p != ' ' && p != nl) ? R_HEAD : R_NORMAL;
		/* under a key's description (column 15: "  %-12s "), or
		 * 4 in (deeper than a key's label) */
		indent = !strncmp(p, "  ", 2) ? 15 : 4;
		if (indent >= t->cols / 2)
			indent = 4;
		w = t->cols;
		do {
			n = help_fit(t, p, len, w);
			if (line++ >= t->help_top && y <= h)
				tui_text(t, y++, t->cols - w, w, role, "%.*s",
					 n, p);
			p += n;
			len -= n;
			while (len > 0 && *p == ' ') {
				p++;
				len--;
			}
			w = t->cols - indent;
		} while (len > 0);
	}
	strbuf_free(&sb);
}

/* Named keys of the scripted notation: <Name>. */
static const struct {
	const char *name;
	int key;
} key_names[] = {
	{"Tab", '\t'}, {"S-Tab", KEY_BTAB}, {"BTab", KEY_BTAB},
	{"Enter", '\n'}, {"CR", '\n'}, {"Esc", KEY_ESC}, {"Up", KEY_UP},
	{"Down", KEY_DOWN}, {"Left", KEY_LEFT}, {"Right", KEY_RIGHT},
	{"PgUp", KEY_PPAGE}, {"PgDn", KEY_NPAGE}, {"Home", KEY_HOME},
	{"End", KEY_END}, {"BS", KEY_BACKSPACE}, {"Backspace", KEY_BACKSPACE},
	{"Del", KEY_DC}, {"Space", ' '}, {"lt", '<'}, {"gt", '>'},
};

int tui_script_next(const char **pp, int *rw, int *rh)
{
	const char *p = *pp, *end;
	size_t n, i;
	int w, h;

	if (!p || !*p)
		return ERR;
	if (*p != '<' || !(end = strchr(p, '>'))) {
		*pp = p + 1;
		return (unsigned char)*p;
	}
	n = end - p - 1;
	for (i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++) {
		if (strlen(key_names[i].name) == n &&
		    !strncasecmp(p + 1, key_names[i].name, n)) {
			*pp = end + 1;
			return key_names[i].key;
		}
	}
	if (n == 3 && (p[1] == 'C' || p[1] == 'c') && p[2] == '-' &&
	    isalpha((unsigned char)p[3])) {
		*pp = end + 1;
		return CTRL(tolower((unsigned char)p[3]));
	}
	if ((p[1] == 'F' || p[1] == 'f') && n >= 2 && n <= 3 &&
	    isdigit((unsigned char)p[2])) {
		*pp = end + 1;
		return KEY_F(atoi(p + 2));
	}
	if (!strncmp(p + 1, "resize:", 7) &&
	    sscanf(p + 8, "%dx%d", &w, &h) == 2 && w > 0 && h > 0) {
		*pp = end + 1;
		*rw = w;
		*rh = h;
		return KEY_RESIZE;
	}
	/* Not a key name (<12> in a search, say): a literal '<'. */
	*pp = p + 1;
	return '<';
}
