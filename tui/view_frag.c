/* view_frag.c - view 5, fragmentation: the free-extent histogram for the
 * whole filesystem, one group or one flex group, and the worst fragmented
 * files, sortable; the selected file's extents are highlighted on the map
 * and n/N walk the cursor from fragment to fragment. */
#include "tui_int.h"
#include "cols.h"

#include <stdlib.h>
#include <string.h>

#include "flex.h"
#include "frag.h"

#define TOP_FILES 200

enum scope { SC_FS, SC_GROUP, SC_FLEX };
enum sortkey { SO_EXTENTS, SO_EXCESS, SO_BLOCKS, SO_INODE, SO_MAX };
static const char *const sort_names[SO_MAX] = {"extents", "extents over "
	"ideal", "blocks", "inode"};

/* The view's state: one per TUI, made and freed with it (tig's private
 * view state; see tui_view_state()). */
struct frag_state {
	enum scope scope;
	unsigned long scope_n;
	struct frag_hist h;
	errcode_t herr;
	unsigned hgen;			/* t->gen + 1 when computed */
	struct frag_files f;
	int fok;
	errcode_t ferr;
	unsigned fgen;
	enum sortkey sort;
	long sel, top;
	int list_y, list_h;
	struct owner_run *runs;		/* the selected file's */
	size_t nruns, frag;
	ext2_ino_t runs_ino;
	struct frag_special sp[FRAG_SPECIAL_MAX];	/* the journal... */
	size_t nsp;
};

static struct frag_state *state(struct tui *t)
{
	return tui_view_state(t, &view_frag);
}

static const struct tui_key frag_keys[] = {
	{'s', "s", ACT_SCOPE, "histogram scope: filesystem, group, flex group"},
	{']', "]", ACT_SCOPE_NEXT, "next group / flex group"},
	{'[', "[", ACT_SCOPE_PREV, "previous group / flex group"},
	{'o', "o", ACT_SORT, "sort files: extents, over ideal, blocks, inode"},
	{'n', "n", ACT_NEXT_FRAG, "cursor to the selected file's next "
				"fragment"},
	{'N', "N", ACT_PREV_FRAG, "cursor to its previous fragment"},
	{'\n', "Enter", ACT_ENTER, "show the fragment on the group map"},
	{0, NULL, ACT_NONE, NULL},
};

static void frag_fini(struct tui *t)
{
	struct frag_state *st = state(t);

	if (st->fok)
		frag_files_release(&st->f);
	free(st->runs);
	memset(st, 0, sizeof(*st));
}

static int cmp_files(const void *a, const void *b, void *arg)
{
	const struct frag_file *x = a, *y = b;
	const struct frag_state *st = arg;
	long long d = 0;

	switch (st->sort) {
	case SO_EXTENTS:
		d = (long long)y->extents - (long long)x->extents;
		break;
	case SO_EXCESS:
		d = ((long long)y->extents - (long long)y->ideal) -
		    ((long long)x->extents - (long long)x->ideal);
		break;
	case SO_BLOCKS:
		d = (long long)y->blocks - (long long)x->blocks;
		break;
	default:
		break;
	}
	if (!d)
		d = (long long)x->ino - (long long)y->ino;
	return d < 0 ? -1 : d > 0;
}

static void refresh_data(struct tui *t)
{
	struct frag_state *st = state(t);
	unsigned long per = flex_groups_per(t->fs);
	dgrp_t first = 0, last = t->fs->group_desc_count - 1;

	if (st->hgen != t->gen + 1) {
		st->hgen = t->gen + 1;
		if (st->scope == SC_GROUP) {
			first = last = st->scope_n;
		} else if (st->scope == SC_FLEX) {
			first = st->scope_n * per;
			if (first + per - 1 < last)
				last = first + per - 1;
		}
		st->herr = frag_free_hist(t->s, first, last, &st->h);
	}
	if (st->fgen != t->gen + 1 && owner_index_complete(t->s)) {
		st->fgen = t->gen + 1;
		if (st->fok)
			frag_files_release(&st->f);
		st->ferr = frag_files_get(t->s, TOP_FILES, &st->f);
		st->fok = !st->ferr;
		if (frag_special_get(t->s, st->sp, &st->nsp))
			st->nsp = 0;
		if (st->fok)
			qsort_r(st->f.worst, st->f.nworst, sizeof(*st->f.worst),
			      cmp_files, st);
	}
}

static void select_file(struct tui *t)
{
	struct frag_state *st = state(t);
	struct tui_range *r;
	char what[64];
	ext2_ino_t ino;
	size_t i;

	if (!st->fok || !st->f.nworst)
		return;
	ino = st->f.worst[st->sel].ino;
	tui_select_file(t, ino, NULL);
	if (ino == st->runs_ino && !strncmp(t->hl_what, "fragments", 9))
		return;
	free(st->runs);
	st->runs = NULL;
	st->nruns = st->frag = 0;
	st->runs_ino = ino;
	if (owner_inode_runs(t->s, ino, &st->runs, &st->nruns))
		return;
	r = calloc(st->nruns ? st->nruns : 1, sizeof(*r));
	if (!r)
		return;
	for (i = 0; i < st->nruns; i++) {
		r[i].start = st->runs[i].start;
		r[i].len = st->runs[i].len;
	}
	snprintf(what, sizeof(what), "fragments of <%u>", ino);
	tui_set_highlight(t, r, st->nruns, what);
	free(r);
	if (st->nruns)
		t->cur = st->runs[0].start;
}

/* The histogram's columns: the bar, the share, then the blocks go as
 * the width shrinks; the sizes and their counts stay. */
enum { H_SIZE, H_EXTENTS, H_BLOCKS, H_SHARE, H_BAR, H_NCOLS };
static const struct col_spec hist_cols[H_NCOLS] = {
	[H_SIZE]	= {"size (blocks)", COL_NUM, 9, 0},
	[H_EXTENTS]	= {"extents", COL_NUM, 8, 0},
	[H_BLOCKS]	= {"blocks", COL_NUM, 6, 0},
	[H_SHARE]	= {"%", COL_NUM, 4, 0},
	[H_BAR]		= {NULL, COL_BAR, 2, 3},
};

static void hist_cells(const struct frag_state *st, int i, char c[][48])
{
	unsigned long long b = st->h.blocks[i];

	snprintf(c[H_SIZE], 48, "%llu-%llu", 1ULL << i, (2ULL << i) - 1);
	snprintf(c[H_EXTENTS], 48, "%llu", (unsigned long long)st->h.count[i]);
	snprintf(c[H_BLOCKS], 48, "%llu", b);
	snprintf(c[H_SHARE], 48, "%.1f", st->h.free_blocks ?
		 b * 100.0 / st->h.free_blocks : 0.0);
	c[H_BAR][0] = 0;
}

static void draw_hist(struct tui *t, int y, int x, int h, int w)
{
	struct frag_state *st = state(t);
	static const char *const sc[] = {"whole filesystem", "group",
					 "flex group"};
	blk64_t maxc = 1;
	int i, row = y + 2, top = FRAG_BUCKETS - 1, bx, bw, k;
	char c[H_NCOLS][48];
	const char *cells[H_NCOLS];
	struct cols tc;
	struct fields hd;

	fields_init(&hd);
	fields_add(&hd, 9, "", "Free extents");
	fields_add(&hd, 7, ", ", "%s%s%.0lu", sc[st->scope],
		   st->scope ? " " : "", st->scope ? st->scope_n : 0);
	fields_add(&hd, 8, ": ", "%llu free blocks",
		   (unsigned long long)st->h.free_blocks);
	fields_add(&hd, 6, " ", "in %llu extents",
		   (unsigned long long)st->h.free_extents);
	fields_draw(t, &hd, y, x, w, R_HEAD);
	if (st->herr) {
		tui_text(t, y + 1, x, w, R_ERROR, "%s",
			 error_message(st->herr));
		return;
	}
	while (top > 0 && !st->h.count[top])
		top--;
	for (k = 0; k < H_NCOLS; k++)
		cells[k] = c[k];
	cols_init(&tc, hist_cols, H_NCOLS);
	for (i = 0; i <= top; i++) {
		if (st->h.count[i] > maxc)
			maxc = st->h.count[i];
		hist_cells(st, i, c);
		cols_measure(t, &tc, cells);
	}
	cols_fit(&tc, w);
	cols_head(t, &tc, y + 1, x, R_DIM);
	for (i = 0; i <= top && row < y + h; i++, row++) {
		hist_cells(st, i, c);
		cols_row(t, &tc, row, x, R_NORMAL, cells);
		if (cols_at(&tc, H_BAR, &bx, &bw))
			tui_bar(t, row, x + bx, bw,
				(double)st->h.count[i] / maxc);
	}
}

/* The worst files' columns: the ideal extent count goes first, then the
 * path is cut, then it goes; the numbers stay whole. */
enum { F_INODE, F_BLOCKS, F_EXTENTS, F_IDEAL, F_PATH, F_NCOLS };
static const struct col_spec file_cols[F_NCOLS] = {
	[F_INODE]	= {"inode", COL_NUM, 9, 0},
	[F_BLOCKS]	= {"blocks", COL_NUM, 7, 0},
	[F_EXTENTS]	= {"extents", COL_NUM, 8, 0},
	[F_IDEAL]	= {"ideal", COL_NUM, 4, 0},
	[F_PATH]	= {"", COL_TEXT, 5, 8},
};

static void file_cells(const struct frag_file *f, const char *path,
		       char c[][32], const char **cells)
{
	snprintf(c[F_INODE], 32, "%u", f->ino);
	snprintf(c[F_BLOCKS], 32, "%llu", (unsigned long long)f->blocks);
	snprintf(c[F_EXTENTS], 32, "%llu", (unsigned long long)f->extents);
	snprintf(c[F_IDEAL], 32, "%llu", (unsigned long long)f->ideal);
	cells[F_INODE] = c[F_INODE];
	cells[F_BLOCKS] = c[F_BLOCKS];
	cells[F_EXTENTS] = c[F_EXTENTS];
	cells[F_IDEAL] = c[F_IDEAL];
	cells[F_PATH] = path;
}

static void draw_files(struct tui *t, int y, int x, int h, int w)
{
	struct frag_state *st = state(t);
	char c[F_NCOLS][32], path[256];
	const char *cells[F_NCOLS];
	struct cols tc;
	struct fields hd;
	int i;
	size_t k;

	if (!st->fok) {
		tui_text(t, y, x, w, R_HEAD, "Worst files: %s",
			 st->ferr ? error_message(st->ferr) :
			 "waiting for the owner scan");
		return;
	}
	fields_init(&hd);
	fields_add(&hd, 8, "", "%llu files", (unsigned long long)st->f.files);
	fields_add(&hd, 7, ", ", "%llu fragmented",
		   (unsigned long long)st->f.fragmented_files);
	fields_add(&hd, 9, ", ", "score %.1f/100", st->f.score);
	fields_add_text(&hd, 5, 14, "; ", "sorted by %s",
			sort_names[st->sort]);
	fields_draw(t, &hd, y, x, w, R_HEAD);
	cols_init(&tc, file_cols, F_NCOLS);
	cols_want_num(&tc, F_INODE, t->fs->super->s_inodes_count);
	for (k = 0; k < st->f.nworst; k++) {
		file_cells(&st->f.worst[k], NULL, c, cells);
		cols_measure(t, &tc, cells);
	}
	tc.want[F_PATH] = w;	/* what is left */
	cols_fit(&tc, w);
	cols_head(t, &tc, y + 1, x, R_DIM);
	st->list_y = y + 2;
	st->list_h = h - 2;
	if (st->nsp && st->list_h > 3) {	/* the last line: special inodes */
		struct fields sp;

		st->list_h--;
		fields_init(&sp);
		fields_add(&sp, 9, "", "special:");
		for (k = 0; k < st->nsp; k++)
			fields_add(&sp, 8 - (int)(k < 7 ? k : 7), k ? ", " :
				   " ", "%s <%u> %llu extent%s",
				   st->sp[k].name, st->sp[k].f.ino,
				   (unsigned long long)st->sp[k].f.extents,
				   st->sp[k].f.extents == 1 ? "" : "s");
		fields_draw(t, &sp, y + h - 1, x, w, R_DIM);
	}
	if (st->sel >= (long)st->f.nworst)
		st->sel = st->f.nworst ? (long)st->f.nworst - 1 : 0;
	if (st->sel < 0)
		st->sel = 0;
	if (st->sel < st->top)
		st->top = st->sel;
	if (st->sel >= st->top + st->list_h)
		st->top = st->sel - st->list_h + 1;
	for (i = 0; i < st->list_h && st->top + i < (long)st->f.nworst; i++) {
		const struct frag_file *f = &st->f.worst[st->top + i];

		tui_inode_path(t, f->ino, path, sizeof(path));
		file_cells(f, path, c, cells);
		cols_row(t, &tc, st->list_y + i, x, st->top + i == st->sel ?
			 R_SELECT : R_NORMAL, cells);
	}
}

static void frag_draw(struct tui *t, int y, int x, int h, int w)
{
	struct frag_state *st = state(t);
	struct map_layout m;
	int mh = h / 4 < 3 ? 3 : h / 4, top = h - mh - 1, lw = w / 2;

	refresh_data(t);
	select_file(t);
	draw_hist(t, y, x, top, lw - 1);
	draw_files(t, y, x + lw, top, w - lw);
	tui_text(t, y + top, x, w, R_DIM, "highlighted: %s%s", t->hl_what,
		 st->nruns ? "  (n/N: next/previous fragment)" : "");
	mapw_fit(t, &m, w, mh);
	m.cursor = 1;
	mapw_draw(t, &m, y + top + 1, x, mh, w);
}

static void step_frag(struct tui *t, int dir)
{
	struct frag_state *st = state(t);

	if (!st->nruns)
		return;
	if (dir > 0)
		st->frag = (st->frag + 1) % st->nruns;
	else
		st->frag = (st->frag + st->nruns - 1) % st->nruns;
	t->cur = st->runs[st->frag].start;
	tui_message(t, 0, "fragment %zu of %zu: blocks %llu-%llu, logical "
		    "%llu", st->frag + 1, st->nruns,
		    (unsigned long long)st->runs[st->frag].start,
		    (unsigned long long)(st->runs[st->frag].start +
					 st->runs[st->frag].len - 1),
		    (unsigned long long)st->runs[st->frag].lblk);
}

static int frag_key(struct tui *t, enum tui_action a, int ch)
{
	struct frag_state *st = state(t);
	unsigned long max;

	switch (a) {
	case ACT_UP: st->sel--; break;
	case ACT_DOWN: st->sel++; break;
	case ACT_PGUP: st->sel -= st->list_h; break;
	case ACT_PGDN: st->sel += st->list_h; break;
	case ACT_HOME: st->sel = 0; break;
	case ACT_END: st->sel = st->fok ? (long)st->f.nworst - 1 : 0; break;
	case ACT_SCOPE:
		st->scope = (st->scope + 1) % 3;
		if (st->scope == SC_FLEX && flex_groups_per(t->fs) < 2)
			st->scope = SC_FS;
		st->scope_n = 0;
		st->hgen = 0;
		break;
	case ACT_SCOPE_NEXT:
	case ACT_SCOPE_PREV:
		max = st->scope == SC_GROUP ? t->fs->group_desc_count :
		      flex_count(t->fs);
		if (st->scope == SC_FS)
			break;
		if (a == ACT_SCOPE_NEXT)
			st->scope_n = (st->scope_n + 1) % max;
		else
			st->scope_n = (st->scope_n + max - 1) % max;
		st->hgen = 0;
		break;
	case ACT_SORT:
		st->sort = (st->sort + 1) % SO_MAX;
		if (st->fok)
			qsort_r(st->f.worst, st->f.nworst, sizeof(*st->f.worst),
			      cmp_files, st);
		break;
	case ACT_NEXT_FRAG: step_frag(t, 1); break;
	case ACT_PREV_FRAG: step_frag(t, -1); break;
	case ACT_ENTER:
		if (st->nruns)
			tui_jump(t, 1, st->runs[st->frag].start);
		break;
	case ACT_NONE:
		if (ch != KEY_MOUSE || t->mouse_y < st->list_y ||
		    t->mouse_y >= st->list_y + st->list_h ||
		    t->mouse_x < t->cols / 2)
			return 0;
		st->sel = st->top + t->mouse_y - st->list_y;
		break;
	default:
		return 0;
	}
	return 1;
}

const struct tui_view view_frag = {
	.state_size = sizeof(struct frag_state),
	.name = "frag",
	.title = "Frag",
	.draw = frag_draw,
	.key = frag_key,
	.fini = frag_fini,
	.keys = frag_keys,
};
