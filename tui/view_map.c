/* view_map.c - view 2, the group map: one row per block group (or per flex
 * group), cells coloured by owner class; Enter zooms into the group under
 * the cursor and on down to one block per cell, Backspace zooms back out to
 * the whole device.  The legend stays at the bottom. */
#include "tui_int.h"
#include "cols.h"

#include "flex.h"

#define ACT_ZOOM_IN	ACT_ENTER
#define ZOOM_STEP	8

/* The view's state: one per TUI, made and freed with it (tig's private
 * view state; see tui_view_state()). */
struct map_state {
	int zoom;		/* 0 whole device, 1 inside one group */
	int flexrows;		/* device rows are flex groups */
	blk64_t bpc;		/* blocks per cell inside a group */
	int cols, rows;		/* the cell area last drawn */
	blk64_t top_row;
	struct map_layout m;
	int marking;		/* v pressed once: mark is the start */
	blk64_t mark;
};

static struct map_state *state(struct tui *t)
{
	return tui_view_state(t, &view_map);
}

static const struct tui_key map_keys[] = {
	{'\n', "Enter +", ACT_ENTER, "zoom in (group, then down to one block "
				   "per cell)"},
	{'+', NULL, ACT_ENTER, NULL},
	{'-', "-", ACT_SCOPE_PREV, "zoom out one step"},
	{KEY_BACKSPACE, "Backspace", ACT_BACK, "zoom out to the whole device"},
	{'f', "f", ACT_FLEX_MODE, "device rows: per block group / per flex "
				"group"},
	{'c', "c", ACT_CLEAR, "clear the highlight (and a range being marked)"},
	{'v', "v", ACT_MARK, "mark a block range for the editor: start, then end"},
	{0, NULL, ACT_NONE, NULL},
};

static blk64_t div_up(blk64_t a, blk64_t b)
{
	return b ? (a + b - 1) / b : a;
}

static void map_init(struct tui *t)
{
	struct map_state *st = state(t);

	st->zoom = 0;
	st->bpc = 1;
	st->top_row = 0;
	st->flexrows = flex_groups_per(t->fs) > 1 &&
		      t->fs->group_desc_count > (dgrp_t)(t->rows - 8);
}

static void layout(struct tui *t, int w, int h)
{
	struct map_state *st = state(t);

	ext2_filsys fs = t->fs;
	struct map_layout *m = &st->m;
	blk64_t crow, rows;
	dgrp_t g;
	int lw;

	m->cursor = 1;
	if (st->zoom == 0) {
		m->first = fs->super->s_first_data_block;
		m->end = ext2fs_blocks_count(fs->super);
		m->row_blocks = EXT2_BLOCKS_PER_GROUP(fs->super) *
				(st->flexrows ? flex_groups_per(fs) : 1);
		m->label = st->flexrows ? 'f' : 'g';
		lw = snprintf(NULL, 0, "g%u ", fs->group_desc_count);
		m->bpc = div_up(m->row_blocks, w - lw > 0 ? w - lw : 1);
	} else {
		g = ext2fs_group_of_blk2(fs, t->cur);
		m->first = ext2fs_group_first_block2(fs, g);
		m->end = ext2fs_group_last_block2(fs, g) + 1;
		m->label = 'b';
		lw = snprintf(NULL, 0, "%llu ", (unsigned long long)m->end);
		if (!st->bpc)
			st->bpc = 1;
		m->bpc = st->bpc;
		m->row_blocks = m->bpc * (w - lw > 0 ? w - lw : 1);
	}
	st->cols = w - lw;
	st->rows = h;
	if (t->cur < m->first)
		t->cur = m->first;
	if (t->cur >= m->end)
		t->cur = m->end - 1;
	rows = div_up(m->end - m->first, m->row_blocks);
	crow = (t->cur - m->first) / m->row_blocks;
	if (crow < st->top_row)
		st->top_row = crow;
	if (crow >= st->top_row + h)
		st->top_row = crow - h + 1;
	if (st->top_row + h > rows)
		st->top_row = rows > (blk64_t)h ? rows - h : 0;
	m->top_row = st->top_row;
}

static void map_draw(struct tui *t, int y, int x, int h, int w)
{
	struct map_state *st = state(t);
	int lh = mapw_legend(t, 0, x, w, 0);
	ext2_filsys fs = t->fs;
	int mh = h - lh - 1;
	struct fields f;

	if (mh < 1)
		mh = 1;
	layout(t, w, mh);
	fields_init(&f);
	if (st->zoom == 0) {
		fields_add(&f, 9, "", "Whole device: %u groups",
			   fs->group_desc_count);
		fields_add(&f, 5, ", ", "one row per %s (%llu blocks)",
			   st->flexrows ? "flex group" : "block group",
			   (unsigned long long)st->m.row_blocks);
	} else {
		fields_add(&f, 9, "", "Group %u:",
			   ext2fs_group_of_blk2(fs, st->m.first));
		fields_add(&f, 7, " ", "blocks %llu-%llu",
			   (unsigned long long)st->m.first,
			   (unsigned long long)st->m.end - 1);
	}
	fields_add(&f, 8, ", ", "%llu block(s) per cell",
		   (unsigned long long)st->m.bpc);
	if (t->nhl)
		fields_add_text(&f, 6, 16, "; ", "highlighted: %s", t->hl_what);
	fields_draw(t, &f, y, x, w, R_HEAD);
	mapw_draw(t, &st->m, y + 1, x, mh, w);
	mapw_legend(t, y + h - lh, x, w, 1);
}

static blk64_t group_fit_bpc(struct tui *t)
{
	struct map_state *st = state(t);
	dgrp_t g = ext2fs_group_of_blk2(t->fs, t->cur);
	blk64_t n = ext2fs_group_last_block2(t->fs, g) -
		    ext2fs_group_first_block2(t->fs, g) + 1;
	blk64_t cells = (blk64_t)(st->cols > 0 ? st->cols : 1) *
			(st->rows > 0 ? st->rows : 1);

	return div_up(n, cells) ? div_up(n, cells) : 1;
}

static void move_cur(struct tui *t, long long delta)
{
	blk64_t first = t->fs->super->s_first_data_block;
	blk64_t last = ext2fs_blocks_count(t->fs->super) - 1;

	if (delta < 0 && (blk64_t)-delta > t->cur - first)
		t->cur = first;
	else if (delta > 0 && (blk64_t)delta > last - t->cur)
		t->cur = last;
	else
		t->cur += delta;
}

/* v: the range's first end, then its second; the range is selected. */
static void mark(struct tui *t)
{
	struct map_state *st = state(t);
	struct tui_sel sel = {.kind = SEL_RANGE};
	struct tui_range r;
	char what[80];

	if (!st->marking) {
		st->marking = 1;
		st->mark = t->cur;
		r.start = t->cur;
		r.len = 1;
		tui_set_highlight(t, &r, 1, "range start");
		tui_message(t, 0, "range starts at block %llu: move, then v "
			    "again at its end (c cancels)",
			    (unsigned long long)t->cur);
		return;
	}
	st->marking = 0;
	sel.first = st->mark < t->cur ? st->mark : t->cur;
	sel.last = st->mark < t->cur ? t->cur : st->mark;
	/* the cell under the cursor is included whole */
	if (st->m.bpc > 1 && sel.first >= st->m.first) {
		sel.first -= (sel.first - st->m.first) % st->m.bpc;
		sel.last += st->m.bpc - 1 - (sel.last - st->m.first) %
			    st->m.bpc;
	}
	if (sel.last >= ext2fs_blocks_count(t->fs->super))
		sel.last = ext2fs_blocks_count(t->fs->super) - 1;
	r.start = sel.first;
	r.len = sel.last - sel.first + 1;
	snprintf(what, sizeof(what), "blocks %llu-%llu",
		 (unsigned long long)sel.first, (unsigned long long)sel.last);
	tui_set_highlight(t, &r, 1, what);
	tui_select(t, &sel);
	tui_message(t, 0, "selected blocks %llu-%llu (%llu blocks): e opens "
		    "the editor", (unsigned long long)sel.first,
		    (unsigned long long)sel.last,
		    (unsigned long long)r.len);
}

static int map_key(struct tui *t, enum tui_action a, int ch)
{
	struct map_state *st = state(t);
	long long row = st->m.row_blocks, cell = st->m.bpc;

	(void)ch;
	switch (a) {
	case ACT_LEFT:
		move_cur(t, -cell);
		return 1;
	case ACT_RIGHT:
		move_cur(t, cell);
		return 1;
	case ACT_UP:
		move_cur(t, -row);
		return 1;
	case ACT_DOWN:
		move_cur(t, row);
		return 1;
	case ACT_PGUP:
		move_cur(t, -row * (st->rows > 1 ? st->rows - 1 : 1));
		return 1;
	case ACT_PGDN:
		move_cur(t, row * (st->rows > 1 ? st->rows - 1 : 1));
		return 1;
	case ACT_HOME:
		t->cur = st->m.first;
		return 1;
	case ACT_END:
		t->cur = st->m.end - 1;
		return 1;
	case ACT_ENTER:
		if (st->zoom == 0) {
			st->zoom = 1;
			st->bpc = group_fit_bpc(t);
		} else if (st->bpc > 1) {
			st->bpc = st->bpc > ZOOM_STEP ? st->bpc / ZOOM_STEP : 1;
		} else {
			tui_message(t, 0, "already one block per cell");
		}
		st->top_row = 0;
		return 1;
	case ACT_SCOPE_PREV:
		if (st->zoom && st->bpc < group_fit_bpc(t))
			st->bpc *= ZOOM_STEP;
		else
			st->zoom = 0;
		st->top_row = 0;
		return 1;
	case ACT_BACK:
		st->zoom = 0;
		st->top_row = 0;
		return 1;
	case ACT_FLEX_MODE:
		if (flex_groups_per(t->fs) < 2) {
			tui_message(t, 0, "no flex_bg: one row per group");
			return 1;
		}
		st->flexrows = !st->flexrows;
		st->zoom = 0;
		return 1;
	case ACT_CLEAR:
		tui_set_highlight(t, NULL, 0, NULL);
		st->marking = 0;
		return 1;
	case ACT_MARK:
		mark(t);
		return 1;
	default:
		return 0;
	}
}

void view_map_zoom_block(struct tui *t, blk64_t blk)
{
	struct map_state *st = state(t);

	tui_jump(t, 1, blk);
	st->zoom = 1;
	st->bpc = 1;
	st->top_row = 0;
}

const struct tui_view view_map = {
	.state_size = sizeof(struct map_state),
	.name = "map",
	.title = "Map",
	.init = map_init,
	.draw = map_draw,
	.key = map_key,
	.keys = map_keys,
};
