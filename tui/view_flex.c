/* view_flex.c - view 3: the flex groups, each with its metadata island(s)
 * and free counts, and the groups of the selected one with where their
 * bitmaps and inode table live; Enter jumps there on the map, ' jumps back. */
#include "tui_int.h"
#include "cols.h"

#include <stdlib.h>
#include <string.h>

#include "flex.h"
#include "groups.h"

/* The view's state: one per TUI, made and freed with it (tig's private
 * view state; see tui_view_state()). */
struct flex_state {
	struct e2l_flex *fx;
	unsigned long n;
	errcode_t err;
	int pane;		/* 0 flex list, 1 groups */
	long fsel, ftop, gsel, gtop;
	int list_y, list_h, split;
	unsigned long hl_for;	/* flex whose islands are highlighted + 1 */
	int loaded;		/* fx built (when the view is first used) */
};

static struct flex_state *state(struct tui *t)
{
	return tui_view_state(t, &view_flex);
}

static const struct tui_key flex_keys[] = {
	{'\n', "Enter", ACT_ENTER, "flex: its groups; group: jump to its "
				 "block bitmap on the map"},
	{'i', "i", ACT_GOTO_META, "jump to the selected group's inode table"},
	{0, NULL, ACT_NONE, NULL},
};

static void flex_fini(struct tui *t)
{
	struct flex_state *st = state(t);
	unsigned long i;

	(void)t;
	for (i = 0; i < st->n; i++)
		flex_release(&st->fx[i]);
	free(st->fx);
	st->fx = NULL;
	st->n = 0;
}

static void flex_init(struct tui *t)
{
	struct flex_state *st = state(t);

	(void)t;
	memset(st, 0, sizeof(*st));
}

/* The flex list, built when the view is first drawn or used (not before
 * the first frame: 8,192 flex groups on 16 TiB). */
static void flex_load(struct tui *t)
{
	struct flex_state *st = state(t);
	unsigned long i, n = flex_count(t->fs);

	if (st->loaded)
		return;
	st->loaded = 1;
	st->fx = calloc(n ? n : 1, sizeof(*st->fx));
	if (!st->fx) {
		st->err = EXT2_ET_NO_MEMORY;
		return;
	}
	for (i = 0; i < n; i++) {
		st->err = flex_get(t->fs, i, &st->fx[i]);
		if (st->err)
			break;
		st->n++;
	}
}

static void highlight(struct tui *t)
{
	struct flex_state *st = state(t);
	struct e2l_flex *f = &st->fx[st->fsel];
	struct tui_range *r;
	struct tui_sel sel = {.kind = SEL_FLEX};
	char what[64];
	unsigned i;

	sel.flex = f->index;
	tui_select(t, &sel);
	if (st->hl_for == (unsigned long)st->fsel + 1 &&
	    !strncmp(t->hl_what, "flex ", 5))
		return;
	st->hl_for = st->fsel + 1;
	r = calloc(f->nislands ? f->nislands : 1, sizeof(*r));
	if (!r)
		return;
	for (i = 0; i < f->nislands; i++) {
		r[i].start = f->islands[i].start;
		r[i].len = f->islands[i].len;
	}
	snprintf(what, sizeof(what), "flex %lu metadata", f->index);
	tui_set_highlight(t, r, f->nislands, what);
	free(r);
}

static void list_scroll(long *sel, long *top, long n, int h)
{
	if (*sel >= n)
		*sel = n ? n - 1 : 0;
	if (*sel < 0)
		*sel = 0;
	if (*sel < *top)
		*top = *sel;
	if (*sel >= *top + h)
		*top = *sel - h + 1;
}

/* The flex list's columns (each cell says what it is: no header): the
 * islands are cut first, the free count goes next. */
enum { FL_FLEX, FL_GROUPS, FL_FREE, FL_ISLANDS, FL_NCOLS };
static const struct col_spec flex_cols[FL_NCOLS] = {
	[FL_FLEX]	= {NULL, COL_LABEL, 9, 0},
	[FL_GROUPS]	= {NULL, COL_LABEL, 8, 0},
	[FL_FREE]	= {NULL, COL_LABEL, 6, 0},
	[FL_ISLANDS]	= {NULL, COL_TEXT, 7, 8},
};

/* The groups' columns: where the group's inode table lives and its
 * uninit flag go first, then the inode bitmap, then the block bitmap;
 * the group, its inode table and its free counts stay. */
enum { GR_GROUP, GR_BB, GR_IB, GR_IT, GR_IN, GR_FREE, GR_FLAGS, GR_NCOLS };
static const struct col_spec group_cols[GR_NCOLS] = {
	[GR_GROUP]	= {NULL, COL_LABEL, 9, 0},
	[GR_BB]		= {NULL, COL_LABEL, 6, 0},
	[GR_IB]		= {NULL, COL_LABEL, 5, 0},
	[GR_IT]		= {NULL, COL_LABEL, 8, 0},
	[GR_IN]		= {NULL, COL_LABEL, 3, 0},
	[GR_FREE]	= {NULL, COL_LABEL, 7, 0},
	[GR_FLAGS]	= {NULL, COL_TEXT, 2, 6},
};

/* A flex group's row; the cells point into c. */
static void flex_cells(const struct e2l_flex *e, char c[][256],
		       const char **cells)
{
	size_t o = 0;
	unsigned k;
	int i;

	snprintf(c[FL_FLEX], 256, "f%lu", e->index);
	snprintf(c[FL_GROUPS], 256, "g%u-%u", e->first_group, e->last_group);
	snprintf(c[FL_FREE], 256, "free %llu",
		 (unsigned long long)e->free_blocks);
	c[FL_ISLANDS][0] = 0;
	for (k = 0; k < e->nislands; k++) {
		char one[48];
		int n = snprintf(one, sizeof(one), "%s%llu+%llu", k ? "," :
				 "[", (unsigned long long)e->islands[k].start,
				 (unsigned long long)e->islands[k].len);

		if (o + n + 6 >= 256) {	/* whole islands only */
			snprintf(c[FL_ISLANDS] + o, 256 - o, ",...");
			o += 4;
			break;
		}
		memcpy(c[FL_ISLANDS] + o, one, n + 1);
		o += n;
	}
	if (o)
		snprintf(c[FL_ISLANDS] + o, 256 - o, "]");
	for (i = 0; i < FL_NCOLS; i++)
		cells[i] = c[i];
}

/* Group gi's row: 0, or -1 when it cannot be read. */
static int group_cells(struct tui *t, dgrp_t gi, char c[][64],
		       const char **cells)
{
	struct e2l_group g;
	int i;

	if (groups_get(t->fs, gi, &g))
		return -1;
	snprintf(c[GR_GROUP], 64, "g%u", gi);
	snprintf(c[GR_BB], 64, "bb %llu", (unsigned long long)g.block_bitmap);
	snprintf(c[GR_IB], 64, "ib %llu", (unsigned long long)g.inode_bitmap);
	snprintf(c[GR_IT], 64, "it %llu+%u", (unsigned long long)g.inode_table,
		 g.inode_table_blocks);
	snprintf(c[GR_IN], 64, "(in g%d)", g.it_group == GROUPS_NONE ? -1 :
		 (int)g.it_group);
	snprintf(c[GR_FREE], 64, "free %u/%u", g.free_blocks, g.free_inodes);
	snprintf(c[GR_FLAGS], 64, "%s", (g.flags & EXT2_BG_BLOCK_UNINIT) ?
		 "uninit" : "");
	for (i = 0; i < GR_NCOLS; i++)
		cells[i] = c[i];
	return 0;
}

static void flex_draw(struct tui *t, int y, int x, int h, int w)
{
	struct flex_state *st = state(t);
	struct map_layout m;
	struct e2l_flex *f;
	char fc[FL_NCOLS][256], gc[GR_NCOLS][64];
	const char *cells[COLS_MAX];
	struct cols fl, gr;
	struct fields hd;
	int i, mh = h / 4 < 3 ? 3 : h / 4, lw = w * 2 / 5;
	long ng;

	flex_load(t);
	if (!st->n) {
		tui_text(t, y, x, w, R_ERROR, "flex groups: %s",
			 st->err ? error_message(st->err) : "none");
		return;
	}
	st->list_y = y + 1;
	st->list_h = h - mh - 4;
	st->split = lw;
	list_scroll(&st->fsel, &st->ftop, st->n, st->list_h);
	f = &st->fx[st->fsel];
	ng = f->last_group - f->first_group + 1;
	list_scroll(&st->gsel, &st->gtop, ng, st->list_h);
	highlight(t);
	fields_init(&hd);
	fields_add(&hd, 9, "", "%lu flex group(s)", st->n);
	fields_add(&hd, 5, " ", "of %lu groups", flex_groups_per(t->fs));
	fields_draw(t, &hd, y, x, lw, st->pane ? R_DIM : R_HEAD);
	fields_init(&hd);
	fields_add(&hd, 9, "", "Flex %lu:", f->index);
	fields_add(&hd, 8, " ", "groups %u-%u", f->first_group, f->last_group);
	fields_add(&hd, 2, ", ", "bitmaps and inode tables at");
	fields_draw(t, &hd, y, x + lw + 1, w - lw - 1, st->pane ? R_HEAD :
		    R_DIM);
	/* the columns as wide as the rows shown need */
	cols_init(&fl, flex_cols, FL_NCOLS);
	for (i = 0; i < st->list_h && st->ftop + i < (long)st->n; i++) {
		flex_cells(&st->fx[st->ftop + i], fc, cells);
		cols_measure(t, &fl, cells);
	}
	cols_fit(&fl, lw);
	for (i = 0; i < st->list_h && st->ftop + i < (long)st->n; i++) {
		flex_cells(&st->fx[st->ftop + i], fc, cells);
		cols_row(t, &fl, st->list_y + i, x, st->ftop + i == st->fsel ?
			 (st->pane ? R_HILITE : R_SELECT) : R_NORMAL, cells);
	}
	cols_init(&gr, group_cols, GR_NCOLS);
	for (i = 0; i < st->list_h && st->gtop + i < ng; i++)
		if (!group_cells(t, f->first_group + st->gtop + i, gc, cells))
			cols_measure(t, &gr, cells);
	cols_fit(&gr, w - lw - 1);
	for (i = 0; i < st->list_h && st->gtop + i < ng; i++)
		if (!group_cells(t, f->first_group + st->gtop + i, gc, cells))
			cols_row(t, &gr, st->list_y + i, x + lw + 1,
				 st->gtop + i == st->gsel && st->pane ?
				 R_SELECT : R_NORMAL, cells);
	tui_text(t, y + h - mh - 2, x, w, R_DIM, "Left/Right: flex list / "
		 "groups;  Enter: jump to the group's bitmaps on the map, "
		 "i: to its inode table, ': back");
	mapw_fit(t, &m, w, mh);
	m.cursor = 1;
	if (st->pane == 0 && f->nislands)
		t->cur = f->islands[0].start;
	mapw_draw(t, &m, y + h - mh - 1, x, mh, w);
	tui_text(t, y + h - 1, x, w, R_DIM, "highlighted: %s", t->hl_what);
}

static int flex_key(struct tui *t, enum tui_action a, int ch)
{
	struct flex_state *st = state(t);
	long *sel = st->pane ? &st->gsel : &st->fsel;
	struct e2l_group g;
	dgrp_t gi;

	flex_load(t);
	if (!st->n)
		return 0;
	switch (a) {
	case ACT_UP:
		(*sel)--;
		break;
	case ACT_DOWN:
		(*sel)++;
		break;
	case ACT_PGUP:
		*sel -= st->list_h;
		break;
	case ACT_PGDN:
		*sel += st->list_h;
		break;
	case ACT_HOME:
		*sel = 0;
		break;
	case ACT_END:
		*sel = st->pane ? st->fx[st->fsel].last_group -
				 st->fx[st->fsel].first_group : (long)st->n - 1;
		break;
	case ACT_LEFT:
		st->pane = 0;
		break;
	case ACT_BACK:
		if (!st->pane)
			return 0;
		st->pane = 0;
		break;
	case ACT_RIGHT:
		st->pane = 1;
		break;
	case ACT_ENTER:
	case ACT_GOTO_META:
		if (!st->pane && a == ACT_ENTER) {
			st->pane = 1;
			st->gsel = 0;
			break;
		}
		gi = st->fx[st->fsel].first_group + (st->pane ? st->gsel : 0);
		if (groups_get(t->fs, gi, &g))
			break;
		view_map_zoom_block(t, a == ACT_ENTER ? g.block_bitmap :
				    g.inode_table);
		tui_message(t, 0, "group %u's %s (' jumps back)", gi,
			    a == ACT_ENTER ? "block bitmap" : "inode table");
		break;
	case ACT_NONE:
		if (ch != KEY_MOUSE || t->mouse_y < st->list_y ||
		    t->mouse_y >= st->list_y + st->list_h)
			return 0;
		st->pane = t->mouse_x > st->split;
		if (st->pane)
			st->gsel = st->gtop + t->mouse_y - st->list_y;
		else
			st->fsel = st->ftop + t->mouse_y - st->list_y;
		break;
	default:
		return 0;
	}
	if (*sel < 0)
		*sel = 0;
	return 1;
}

const struct tui_view view_flex = {
	.state_size = sizeof(struct flex_state),
	.name = "flex",
	.title = "Flex",
	.init = flex_init,
	.draw = flex_draw,
	.key = flex_key,
	.fini = flex_fini,
	.keys = flex_keys,
};
