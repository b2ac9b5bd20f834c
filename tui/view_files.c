/* view_files.c - view 6, an ncdu-like browser of the filesystem's tree:
 * entries by size (or name), Enter into a directory, Backspace to its
 * parent; beside the list the selected inode's stat and its extent tree
 * with index nodes, and its blocks highlighted on a whole-device map. */
#include "tui_int.h"
#include "cols.h"

#include <stdlib.h>
#include <string.h>

#include "dfs_util.h"

struct entry {
	char name[EXT2_NAME_LEN + 1];
	ext2_ino_t ino;
	struct ext2_inode inode;
	blk64_t sectors;	/* 512-byte units, i_blocks_hi and huge_file's */
	int isdir;
};

/* The view's state: one per TUI, made and freed with it (tig's private
 * view state; see tui_view_state()). */
struct files_state {
	ext2_ino_t dir;
	char path[1024];
	struct entry *e;
	size_t n, cap;
	errcode_t err;
	long sel, top;
	int by_name;
	int list_y, list_h;
	ext2_ino_t hl_ino;
};

static struct files_state *state(struct tui *t)
{
	return tui_view_state(t, &view_files);
}

static const struct tui_key files_keys[] = {
	{'\n', "Enter Right", ACT_ENTER, "open the directory"},
	{KEY_RIGHT, NULL, ACT_ENTER, NULL},
	{KEY_LEFT, "Left", ACT_BACK, "parent directory (also Backspace)"},
	{'o', "o", ACT_SORT, "sort by size / by name"},
	{0, NULL, ACT_NONE, NULL},
};

static int dir_cb(struct ext2_dir_entry *de, int offset, int blocksize,
		  char *buf, void *priv)
{
	struct tui *t = priv;
	struct files_state *st = state(t);
	int len = ext2fs_dirent_name_len(de);
	struct entry *ne;

	(void)offset;
	(void)blocksize;
	(void)buf;
	if (len == 1 && de->name[0] == '.')
		return 0;
	if (st->n == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 64;
		ne = realloc(st->e, st->cap * sizeof(*st->e));
		if (!ne)
			return DIRENT_ABORT;
		st->e = ne;
	}
	ne = &st->e[st->n];
	memset(ne, 0, sizeof(*ne));
	memcpy(ne->name, de->name, len);
	ne->ino = de->inode;
	if (ext2fs_read_inode(t->fs, de->inode, &ne->inode))
		memset(&ne->inode, 0, sizeof(ne->inode));
	ne->sectors = ext2fs_get_stat_i_blocks(t->fs, &ne->inode);
	ne->isdir = LINUX_S_ISDIR(ne->inode.i_mode);
	st->n++;
	return 0;
}

static int cmp_entry(const void *a, const void *b, void *arg)
{
	const struct entry *x = a, *y = b;
	const struct files_state *st = arg;
	blk64_t bx, by;

	if (!strcmp(x->name, ".."))
		return -1;
	if (!strcmp(y->name, ".."))
		return 1;
	if (!st->by_name) {
		bx = x->sectors;
		by = y->sectors;
		if (bx != by)
			return bx < by ? 1 : -1;
	}
	return strcmp(x->name, y->name);
}

static void load_dir(struct tui *t, ext2_ino_t dir)
{
	struct files_state *st = state(t);
	char *name = NULL;

	st->n = 0;
	st->sel = st->top = 0;
	st->dir = dir;
	st->err = ext2fs_dir_iterate(t->fs, dir, 0, NULL, dir_cb, t);
	if (!ext2fs_get_pathname(t->fs, dir, 0, &name) && name)
		snprintf(st->path, sizeof(st->path), "%s", name);
	ext2fs_free_mem(&name);
	if (st->n)
		qsort_r(st->e, st->n, sizeof(*st->e), cmp_entry, st);
}

static void files_init(struct tui *t)
{
	struct files_state *st = state(t);

	memset(st, 0, sizeof(*st));
	(void)t;	/* the directory is read when the view is first shown */
}

static void files_fini(struct tui *t)
{
	struct files_state *st = state(t);

	free(st->e);
	memset(st, 0, sizeof(*st));
}

static void highlight(struct tui *t, ext2_ino_t ino)
{
	struct files_state *st = state(t);
	struct owner_run *runs = NULL;
	struct tui_range *r;
	char what[64];
	size_t n = 0, i;

	if (ino == st->hl_ino && !strncmp(t->hl_what, "blocks of", 9))
		return;
	st->hl_ino = ino;
	if (owner_inode_runs(t->s, ino, &runs, &n))
		return;
	r = calloc(n ? n : 1, sizeof(*r));
	for (i = 0; r && i < n; i++) {
		r[i].start = runs[i].start;
		r[i].len = runs[i].len;
	}
	snprintf(what, sizeof(what), "blocks of <%u>", ino);
	tui_set_highlight(t, r, r ? n : 0, what);
	if (n)
		t->cur = runs[0].start;
	free(r);
	free(runs);
}

static int draw_extents(struct tui *t, ext2_ino_t ino, int y, int x, int h,
			int w)
{
	struct ext2fs_extent ex;
	ext2_extent_handle_t hd;
	struct ext2_extent_info info;
	int row = y, op = EXT2_EXTENT_ROOT;
	struct fields f;

	if (ext2fs_extent_open(t->fs, ino, &hd))
		return 0;
	while (row < y + h && !ext2fs_extent_get(hd, op, &ex)) {
		op = EXT2_EXTENT_NEXT;
		if (ext2fs_extent_get_info(hd, &info))
			break;
		fields_init(&f);
		if (!(ex.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			fields_add(&f, 9, "", "%*sindex L%d:",
				   2 * info.curr_level, "", info.curr_level);
			fields_add(&f, 6, " ", "logical %llu+",
				   (unsigned long long)ex.e_lblk);
			fields_add(&f, 8, " ", "-> node block %llu",
				   (unsigned long long)ex.e_pblk);
			fields_draw(t, &f, row++, x, w, R_HEAD);
		} else if (!(ex.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)) {
			fields_add(&f, 9, "", "%*s%llu-%llu",
				   2 * info.curr_level, "",
				   (unsigned long long)ex.e_lblk,
				   (unsigned long long)(ex.e_lblk + ex.e_len -
							1));
			fields_add(&f, 8, " -> ", "%llu-%llu",
				   (unsigned long long)ex.e_pblk,
				   (unsigned long long)(ex.e_pblk + ex.e_len -
							1));
			fields_add(&f, 6, " ", "(%u)", ex.e_len);
			if (ex.e_flags & EXT2_EXTENT_FLAGS_UNINIT)
				fields_add(&f, 5, " ", "uninit");
			fields_draw(t, &f, row++, x, w, R_NORMAL);
		}
	}
	ext2fs_extent_free(hd);
	return row - y;
}

static void draw_stat(struct tui *t, const struct entry *e, int y, int x,
		      int h, int w)
{
	struct files_state *st = state(t);
	const struct ext2_inode *in = &e->inode;
	int row = y;
	struct fields f;

	fields_init(&f);
	fields_add(&f, 9, "", "<%u>", e->ino);
	if (!strcmp(e->name, ".."))
		fields_add_text(&f, 8, 8, " ", "(the parent directory)");
	else
		fields_add_text(&f, 8, 8, " ", "%s%s%s", st->path,
				strcmp(st->path, "/") ? "/" : "", e->name);
	fields_draw(t, &f, row++, x, w, R_HEAD);
	fields_init(&f);
	fields_add(&f, 9, "", "mode %06o", in->i_mode);
	fields_add(&f, 8, "  ", "links %u", in->i_links_count);
	fields_add(&f, 7, "  ", "uid %u", inode_uid(*in));
	fields_add(&f, 6, "  ", "gid %u", inode_gid(*in));
	fields_draw(t, &f, row++, x, w, R_NORMAL);
	fields_init(&f);
	fields_add(&f, 9, "", "size %llu", (unsigned long long)EXT2_I_SIZE(in));
	fields_add(&f, 8, "  ", "blocks %llu", (unsigned long long)e->sectors);
	fields_add(&f, 5, " ", "(512-byte)");
	fields_add(&f, 7, "  ", "flags %#x", in->i_flags);
	fields_draw(t, &f, row++, x, w, R_NORMAL);
	tui_text(t, row++, x, w, R_NORMAL, "mtime %s",
		 dfs_time_to_string((__s32)in->i_mtime));
	if (in->i_flags & EXT4_EXTENTS_FL) {
		tui_text(t, row++, x, w, R_HEAD, "extent tree (logical -> "
			 "physical (length)):");
		draw_extents(t, e->ino, row, x, y + h - row, w);
	} else if (in->i_flags & EXT4_INLINE_DATA_FL) {
		tui_text(t, row++, x, w, R_NORMAL, "inline data: no blocks");
	} else if (in->i_block[0]) {
		fields_init(&f);
		fields_add(&f, 9, "", "block map: direct %u...", in->i_block[0]);
		fields_add(&f, 8, ", ", "indirect %u",
			   in->i_block[EXT2_IND_BLOCK]);
		fields_add(&f, 7, ", ", "double %u",
			   in->i_block[EXT2_DIND_BLOCK]);
		fields_add(&f, 6, ", ", "triple %u",
			   in->i_block[EXT2_TIND_BLOCK]);
		fields_draw(t, &f, row++, x, w, R_NORMAL);
	}
}

/* The list's columns: the size bar goes first, then the name is cut;
 * the size stays. */
enum { E_SIZE, E_BAR, E_NAME, E_NCOLS };
static const struct col_spec entry_cols[E_NCOLS] = {
	[E_SIZE]	= {NULL, COL_NUM, 9, 0},
	[E_BAR]		= {NULL, COL_BAR, 3, 10},
	[E_NAME]	= {NULL, COL_TEXT, 8, 8},
};

static void entry_cells(const struct entry *e, char c[][EXT2_NAME_LEN + 2],
			const char **cells)
{
	snprintf(c[E_SIZE], sizeof(c[E_SIZE]), "%lluK",
		 (unsigned long long)e->sectors / 2);
	c[E_BAR][0] = 0;
	snprintf(c[E_NAME], sizeof(c[E_NAME]), "%s%s", e->name,
		 e->isdir ? "/" : "");
	cells[E_SIZE] = c[E_SIZE];
	cells[E_BAR] = NULL;
	cells[E_NAME] = c[E_NAME];
}

static void files_draw(struct tui *t, int y, int x, int h, int w)
{
	struct files_state *st = state(t);
	char c[E_NCOLS][EXT2_NAME_LEN + 2];
	const char *cells[E_NCOLS];
	struct cols tc;
	struct map_layout m;
	int mh = h / 4 < 3 ? 3 : h / 4, top = h - mh - 1, lw = w / 2, i;
	blk64_t maxb = 1, maxk = 0;
	size_t k;

	if (!st->dir)
		load_dir(t, EXT2_ROOT_INO);
	tui_text(t, y, x, lw, R_HEAD, "%s  (%zu entries, by %s)", st->path,
		 st->n, st->by_name ? "name" : "size");
	if (st->err)
		tui_text(t, y + 1, x, lw, R_ERROR, "%s",
			 error_message(st->err));
	st->list_y = y + 1 + !!st->err;
	st->list_h = top - 1 - !!st->err;
	if (st->sel >= (long)st->n)
		st->sel = st->n ? (long)st->n - 1 : 0;
	if (st->sel < 0)
		st->sel = 0;
	if (st->sel < st->top)
		st->top = st->sel;
	if (st->sel >= st->top + st->list_h)
		st->top = st->sel - st->list_h + 1;
	for (k = 0; k < st->n; k++)
		if (strcmp(st->e[k].name, "..") && st->e[k].sectors > maxb)
			maxb = st->e[k].sectors;
	cols_init(&tc, entry_cols, E_NCOLS);
	for (k = 0; k < st->n; k++)	/* ".." too: its size is shown */
		if (st->e[k].sectors > maxk)
			maxk = st->e[k].sectors;
	tc.want[E_SIZE] = cols_digits(maxk / 2) + 1;	/* "12K" */
	tc.want[E_NAME] = lw;	/* the name takes what is left */
	cols_fit(&tc, lw - 1);
	for (i = 0; i < st->list_h && st->top + i < (long)st->n; i++) {
		const struct entry *e = &st->e[st->top + i];
		int role = st->top + i == st->sel ? R_SELECT : R_NORMAL, bx, bw;

		entry_cells(e, c, cells);
		cols_row(t, &tc, st->list_y + i, x, role, cells);
		if (strcmp(e->name, "..") && cols_at(&tc, E_BAR, &bx, &bw))
			tui_bar(t, st->list_y + i, x + bx, bw,
				(double)e->sectors / maxb);
	}
	if (st->n) {
		const struct entry *e = &st->e[st->sel];
		char path[sizeof(st->path) + EXT2_NAME_LEN + 2];

		snprintf(path, sizeof(path), "%s%s%s", st->path,
			 strcmp(st->path, "/") ? "/" : "", e->name);
		if (strcmp(e->name, ".."))
			tui_select_file(t, e->ino, path);
		highlight(t, st->e[st->sel].ino);
		draw_stat(t, &st->e[st->sel], y, x + lw + 1, top, w - lw - 1);
	}
	tui_text(t, y + top, x, w, R_DIM, "highlighted: %s", t->hl_what);
	mapw_fit(t, &m, w, mh);
	m.cursor = 1;
	mapw_draw(t, &m, y + top + 1, x, mh, w);
}

static void go_parent(struct tui *t)
{
	struct files_state *st = state(t);
	ext2_ino_t parent;

	if (st->dir == EXT2_ROOT_INO)
		return;
	if (!ext2fs_lookup(t->fs, st->dir, "..", 2, NULL, &parent))
		load_dir(t, parent);
}

static int files_key(struct tui *t, enum tui_action a, int ch)
{
	struct files_state *st = state(t);
	struct entry *e = st->n ? &st->e[st->sel] : NULL;

	switch (a) {
	case ACT_UP: st->sel--; break;
	case ACT_DOWN: st->sel++; break;
	case ACT_PGUP: st->sel -= st->list_h; break;
	case ACT_PGDN: st->sel += st->list_h; break;
	case ACT_HOME: st->sel = 0; break;
	case ACT_END: st->sel = (long)st->n - 1; break;
	case ACT_ENTER:
		if (e && !strcmp(e->name, ".."))
			go_parent(t);
		else if (e && e->isdir)
			load_dir(t, e->ino);
		break;
	case ACT_BACK:
		go_parent(t);
		break;
	case ACT_SORT:
		st->by_name = !st->by_name;
		if (st->n)
			qsort_r(st->e, st->n, sizeof(*st->e), cmp_entry, st);
		break;
	case ACT_NONE:
		if (ch != KEY_MOUSE || t->mouse_y < st->list_y ||
		    t->mouse_y >= st->list_y + st->list_h ||
		    t->mouse_x >= t->cols / 2)
			return 0;
		st->sel = st->top + t->mouse_y - st->list_y;
		break;
	default:
		return 0;
	}
	return 1;
}

const struct tui_view view_files = {
	.state_size = sizeof(struct files_state),
	.name = "files",
	.title = "Files",
	.init = files_init,
	.draw = files_draw,
	.key = files_key,
	.fini = files_fini,
	.keys = files_keys,
};
