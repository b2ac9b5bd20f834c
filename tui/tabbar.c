/* tabbar.c - the tab bar: the title, a tab per view, the scan's progress
 * and the LIVE counters, fitted to the width by one rule (the first of
 * the levels below that fits), so that every tab stays visible and
 * reachable, numbers are never cut, and the live counts go last. */
#include "tui_int.h"

#include <stdio.h>
#include <string.h>

/* The tabs titled: all; the current one, the others by their first
 * SHORT_LEN letters; the current one alone; none (numbers alone). */
enum { TABS_FULL, TABS_SHORT, TABS_CURRENT, TABS_NUMBERS };
#define SHORT_LEN	4
enum { SCAN_BAR, SCAN_TEXT, SCAN_NONE };
enum { LIVE_FULL, LIVE_SHORT, LIVE_MARK };

/* From the widest to the narrowest: the title goes first, then the tabs'
 * names are shortened and go (the current one's last), then the scan's
 * bar, then the live counts' labels and at last the counts. */
static const struct level {
	int title, tabs, scan, live;
} levels[] = {
	{1, TABS_FULL, SCAN_BAR, LIVE_FULL},
	{0, TABS_FULL, SCAN_BAR, LIVE_FULL},
	{0, TABS_SHORT, SCAN_BAR, LIVE_FULL},
	{0, TABS_CURRENT, SCAN_BAR, LIVE_FULL},
	{0, TABS_NUMBERS, SCAN_BAR, LIVE_FULL},
	{0, TABS_NUMBERS, SCAN_TEXT, LIVE_FULL},
	{0, TABS_NUMBERS, SCAN_TEXT, LIVE_SHORT},
	{0, TABS_NUMBERS, SCAN_NONE, LIVE_SHORT},
	{0, TABS_NUMBERS, SCAN_NONE, LIVE_MARK},
};

#define TITLE		" e2layout "
#define SCAN_BAR_W	24	/* "scan 100%" and an 11-cell bar */

static int tab_text(const struct tui *t, int i, int form, char *buf,
		    size_t size)
{
	if (form == TABS_FULL || (form != TABS_NUMBERS && i == t->view))
		return snprintf(buf, size, " %d %s ", i + 1,
				tui_views[i]->title);
	if (form == TABS_SHORT)	/* (the titles are ASCII) */
		return snprintf(buf, size, " %d %.*s ", i + 1, SHORT_LEN,
				tui_views[i]->title);
	return snprintf(buf, size, " %d ", i + 1);
}

/* The scan's part at the right: its width (0 when not shown). */
static int scan_width(const struct tui *t, int form)
{
	if (form == SCAN_NONE || (!t->scanning && !t->scan_cancelled))
		return 0;
	if (t->scan_cancelled)
		return form == SCAN_BAR ? 27 : 16;	/* " scan cancelled " */
	return form == SCAN_BAR ? SCAN_BAR_W : 11;	/* " scan 100% " */
}

static int live_text(const struct tui *t, int form, char *buf, size_t size)
{
	if (!t->s->live)
		return buf[0] = 0;
	if (form == LIVE_MARK)
		return snprintf(buf, size, " LIVE ");
	if (t->live_kfree < 0)
		return snprintf(buf, size, form == LIVE_FULL ?
				" LIVE (kernel view unreadable) " : " LIVE ");
	if (form == LIVE_FULL)
		return snprintf(buf, size, " LIVE free: kernel %lld, disk "
				"%lld (r) ", t->live_kfree, t->live_dfree);
	return snprintf(buf, size, " LIVE k %lld d %lld ", t->live_kfree,
			t->live_dfree);
}

static int level_width(const struct tui *t, const struct level *l)
{
	char buf[96];
	int i, w = l->title ? (int)strlen(TITLE) : 0;

	for (i = 0; i < TUI_NVIEWS; i++)
		w += tab_text(t, i, l->tabs, buf, sizeof(buf));
	w += scan_width(t, l->scan);
	w += live_text(t, l->live, buf, sizeof(buf));
	return w;
}

void tui_tabbar_draw(struct tui *t)
{
	const struct level *l = &levels[0];
	size_t k;
	char buf[96];
	int i, x = 0, right = t->cols, len;
	double p = owner_scan_progress(t->s);

	for (k = 0; k < sizeof(levels) / sizeof(levels[0]); k++) {
		l = &levels[k];
		if (level_width(t, l) <= t->cols)
			break;
	}
	tui_fill(t, 0, 0, t->cols, R_TAB);
	if (l->title) {
		tui_text(t, 0, 0, t->cols, R_TITLE, TITLE);
		x = strlen(TITLE);
	}
	for (i = 0; i < TUI_NVIEWS; i++) {
		len = tab_text(t, i, l->tabs, buf, sizeof(buf));
		if (x < t->cols)
			tui_text(t, 0, x, t->cols - x, i == t->view ?
				 R_TAB_ACTIVE : R_TAB, "%s", buf);
		x += len;
		t->tab_end[i] = x;
	}
	/* the scan's progress at the right end, the live counts before it */
	len = scan_width(t, l->scan);
	if (len && right - len >= x) {
		right -= len;
		if (t->scan_cancelled)
			tui_text(t, 0, right, len, R_TAB, l->scan == SCAN_BAR ?
				 " scan cancelled: R resumes " :
				 " scan cancelled ");
		else if (l->scan == SCAN_TEXT)
			tui_text(t, 0, right, len, R_TAB, " scan %3d%% ",
				 (int)(p * 100));
		else {
			tui_text(t, 0, right + 2, 10, R_TAB, "scan %3d%%",
				 (int)(p * 100));
			tui_bar(t, 0, right + 12, 11, p);
		}
	}
	len = live_text(t, l->live, buf, sizeof(buf));
	if (len && right - len >= x)
		tui_text(t, 0, right - len, len, R_TAB_ACTIVE, "%s", buf);
}
