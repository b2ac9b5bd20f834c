/* mapw.c - the map widget every view draws with: a block range cut into rows
 * and cells, each cell coloured by the dominant *used* owner class with its
 * fill glyph saying how much of it is used (so free space is never hidden),
 * highlights, the cursor, the legend, and the status-line description of a
 * cell (block range, group, flex group, owners with inode, path and logical
 * block). */
#include "tui_int.h"
#include "cols.h"

#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "flex.h"

static blk64_t div_up(blk64_t a, blk64_t b)
{
	return b ? (a + b - 1) / b : a;
}

void mapw_fit(struct tui *t, struct map_layout *m, int w, int h)
{
	blk64_t bpg = EXT2_BLOCKS_PER_GROUP(t->fs->super);
	blk64_t ng = t->fs->group_desc_count, k = 1;

	m->first = t->fs->super->s_first_data_block;
	m->end = ext2fs_blocks_count(t->fs->super);
	if (w < 1)
		w = 1;
	if (h < 1)
		h = 1;
	/* Rows aligned on groups: 2^n rows per group, or whole groups per
	 * row, so that a row never straddles a group boundary oddly. */
	if (ng <= (blk64_t)h) {
		while (k * 2 * ng <= (blk64_t)h && k * 2 <= bpg)
			k *= 2;
		m->row_blocks = div_up(bpg, k);
	} else {
		m->row_blocks = bpg * div_up(ng, h);
	}
	m->bpc = div_up(m->row_blocks, w);
	if (!m->bpc)
		m->bpc = 1;
	m->label = 0;
	m->top_row = 0;
}

int mapw_highlighted(const struct tui *t, blk64_t first, blk64_t count)
{
	size_t lo = 0, hi = t->nhl, mid;

	/* The first range ending after first. */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (t->hl[mid].start + t->hl[mid].len <= first)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->nhl && t->hl[lo].start < first + count;
}

/* The used class with most blocks (ties go to the lower, metadata, class)
 * and the share of used blocks. */
static enum owner_class cell_class(const blk64_t *counts, blk64_t total,
				   double *used)
{
	enum owner_class best = OWN_FREE;
	blk64_t n = 0, u = 0;
	int c;

	for (c = OWN_SUPER; c < OWN_CLASS_MAX; c++) {
		u += counts[c];
		if (counts[c] > n) {
			n = counts[c];
			best = c;
		}
	}
	*used = total ? (double)u / total : 0;
	if (!u)
		best = counts[OWN_UNINIT] > counts[OWN_FREE] ? OWN_UNINIT
							    : OWN_FREE;
	return best;
}

static int label_width(struct tui *t, const struct map_layout *m)
{
	char buf[32];

	switch (m->label) {
	case 'g':
		return snprintf(buf, sizeof(buf), "g%u ",
				t->fs->group_desc_count);
	case 'f':
		return snprintf(buf, sizeof(buf), "f%lu ",
				flex_count(t->fs));
	case 'b':
		return snprintf(buf, sizeof(buf), "%llu ",
				(unsigned long long)m->end);
	}
	return 0;
}

/* The cache slot for this map's geometry, filled (*hit 0) or valid. */
static struct mapw_cache *cache_get(struct tui *t, const struct map_layout *m,
				    int rows, int cols, int *hit)
{
	/* what the counts come from: the descriptors' estimate before the
	 * scan begins, the bitmap while it runs, the index once complete */
	int complete = owner_index_complete(t->s) ? 2 : t->s->owners ? 1 : 0;
	int i;
	struct mapw_cache *c;

	*hit = 0;
	for (i = 0; i < 2; i++) {
		c = &t->mapcache[i];
		if (c->cls && c->gen == t->gen && c->complete == complete &&
		    c->first == m->first && c->end == m->end &&
		    c->row_blocks == m->row_blocks && c->bpc == m->bpc &&
		    c->top_row == m->top_row && c->rows == rows &&
		    c->cols == cols && !t->s->live) {
			*hit = 1;
			return c;
		}
	}
	c = &t->mapcache[t->mapcache_next];
	t->mapcache_next ^= 1;
	free(c->cls);
	free(c->used);
	memset(c, 0, sizeof(*c));
	c->cls = malloc((size_t)rows * cols);
	c->used = malloc((size_t)rows * cols * sizeof(*c->used));
	if (!c->cls || !c->used) {
		free(c->cls);
		free(c->used);
		c->cls = NULL;
		c->used = NULL;
		return NULL;
	}
	c->gen = t->gen;
	c->complete = complete;
	c->first = m->first;
	c->end = m->end;
	c->row_blocks = m->row_blocks;
	c->bpc = m->bpc;
	c->top_row = m->top_row;
	c->rows = rows;
	c->cols = cols;
	return c;
}

void mapw_cache_free(struct tui *t)
{
	int i;

	for (i = 0; i < 2; i++) {
		free(t->mapcache[i].cls);
		free(t->mapcache[i].used);
		memset(&t->mapcache[i], 0, sizeof(t->mapcache[i]));
	}
}

/* A cell lit by the block-I/O overlay: its heat 3 (now) .. 1 (fading);
 * without colour, signs no owner letter uses: > write, < read, ) and (
 * once they fade. */
static const char *io_glyph(const struct tui *t, int lit, int wr)
{
	if (!t->color)
		return wr ? (lit > 1 ? ">" : ")") : (lit > 1 ? "<" : "(");
	if (lit == 3)
		return theme_glyph(t, "█", "#");
	return lit == 2 ? theme_glyph(t, "▓", "*") : theme_glyph(t, "▒", "+");
}

/* The wide character of the last glyph put (the glyphs are literals: the
 * same pointer is the same glyph), decoded once instead of for every cell. */
struct glyph_memo {
	const char *g;
	cchar_t cc;
	int ok;
};

/* A cell's glyph at (y, x) in the window's attributes: one byte with
 * addch, a multibyte one as its wide character (addstr decodes each of
 * its bytes again, a third of a full map's frame). */
static void put_glyph(struct glyph_memo *gm, int y, int x, const char *g)
{
	wchar_t wc[2] = {0, 0};
	mbstate_t ps;
	size_t n;

	if ((unsigned char)g[0] < 0x80 && g[0] && !g[1]) {
		mvaddch(y, x, (chtype)(unsigned char)g[0]);
		return;
	}
	if (gm->g != g) {
		memset(&ps, 0, sizeof(ps));
		n = mbrtowc(wc, g, strlen(g), &ps);
		gm->g = g;
		gm->ok = n != (size_t)-1 && n != (size_t)-2 && n > 0 &&
			 !g[n] && setcchar(&gm->cc, wc, A_NORMAL, 0,
					   NULL) == OK;
	}
	if (gm->ok)
		mvadd_wch(y, x, &gm->cc);
	else
		mvaddstr(y, x, g);
}

void mapw_draw(struct tui *t, struct map_layout *m, int y, int x, int h,
	       int w)
{
	struct glyph_memo gm = {0};
	struct mapw_cache *cache;
	int hit, ci;
	blk64_t rows = div_up(m->end - m->first, m->row_blocks);
	blk64_t r, rstart, rend, cfirst, ccount, counts[OWN_CLASS_MAX];
	blk64_t (*row)[OWN_CLASS_MAX] = NULL;
	int lw = label_width(t, m), cols = w - lw, i, role, lit, wr, rowok;
	const char *glyph;
	enum owner_class cls;
	double used;
	attr_t at;

	if (cols < 1 || h < 1)
		return;
	t->area.used = 1;
	t->area.y = y;
	t->area.x = x + lw;
	t->area.rows = h;
	t->area.cols = cols;
	t->area.first = m->first;
	t->area.end = m->end;
	t->area.row_blocks = m->row_blocks;
	t->area.bpc = m->bpc;
	t->area.top_row = m->top_row;
	cache = cache_get(t, m, h, cols, &hit);
	if (!cache || !hit)	/* a row's counts in one walk of the index */
		row = malloc((size_t)cols * sizeof(*row));
	for (r = m->top_row; r < rows && (int)(r - m->top_row) < h; r++) {
		int sy = y + (int)(r - m->top_row);

		rstart = m->first + r * m->row_blocks;
		rend = rstart + m->row_blocks;
		if (rend > m->end)
			rend = m->end;
		if (m->label == 'g')
			tui_text(t, sy, x, lw, R_DIM, "g%llu",
				 (unsigned long long)r);
		else if (m->label == 'f')
			tui_text(t, sy, x, lw, R_DIM, "f%llu",
				 (unsigned long long)r);
		else if (m->label == 'b')
			tui_text(t, sy, x, lw, R_DIM, "%llu",
				 (unsigned long long)rstart);
		rowok = row && !owner_class_counts_row(t->s, rstart, m->bpc,
							rend, cols, row);
		for (i = 0; i < cols; i++) {
			cfirst = rstart + (blk64_t)i * m->bpc;
			if (cfirst >= rend)
				break;
			ccount = rend - cfirst < m->bpc ? rend - cfirst
							: m->bpc;
			ci = (int)(r - m->top_row) * cols + i;
			if (cache && hit) {
				cls = cache->cls[ci];
				used = cache->used[ci];
			} else {
				memset(counts, 0, sizeof(counts));
				if (rowok)
					memcpy(counts, row[i], sizeof(counts));
				else
					owner_class_counts_quick(t->s, cfirst,
								 ccount,
								 counts);
				cls = cell_class(counts, ccount, &used);
				if (cache) {
					cache->cls[ci] = (unsigned char)cls;
					cache->used[ci] = (float)used;
				}
			}
			role = R_CLASS0 + cls;
			at = theme_attr(t, role);
			if (t->nhl && mapw_highlighted(t, cfirst, ccount))
				at = theme_attr(t, R_HILITE);
			glyph = theme_cell_glyph(t, cls, used, 0);
			lit = tui_alloc_cell(t, cfirst, ccount);
			if (lit) {
				/* the disk's bitmaps lag the kernel: the
				 * cell is shown allocated */
				at = theme_attr(t, lit == 2 ? R_ALLOC_NEW
							    : R_ALLOC_OLD);
				glyph = t->color256 ? theme_glyph(t, "█", "#")
						    : lit == 2 ? "@" : "a";
			}
			lit = tui_io_cell(t, cfirst, ccount, &wr);
			if (lit) {
				/* hottest now, fading over a few seconds */
				at = theme_attr(t, wr ? R_IO_WRITE : R_IO_READ);
				if (lit == 3)
					at |= A_BOLD;
				else if (lit == 1)
					at |= A_DIM;
				glyph = io_glyph(t, lit, wr);
			}
			if (m->cursor && t->cur >= cfirst &&
			    t->cur < cfirst + ccount) {
				at |= A_REVERSE;
				mapw_describe(t, cfirst, ccount, t->status,
					      sizeof(t->status));
			}
			attrset(at);
			put_glyph(&gm, sy, x + lw + i, glyph);
		}
	}
	free(row);
	attrset(A_NORMAL);
}

int mapw_hit(struct tui *t, int y, int x, blk64_t *blk)
{
	const struct tui_maparea *a = &t->area;
	blk64_t b;

	if (!a->used || y < a->y || y >= a->y + a->rows || x < a->x ||
	    x >= a->x + a->cols)
		return -1;
	b = a->first + (a->top_row + (y - a->y)) * a->row_blocks +
	    (blk64_t)(x - a->x) * a->bpc;
	if (b >= a->end || (blk64_t)(x - a->x) * a->bpc >= a->row_blocks)
		return -1;
	*blk = b;
	return 0;
}

/* One legend entry at (*cy, *cx), wrapping at x + w. */
static void legend_item(struct tui *t, int *cy, int *cx, int x, int w,
			int role, const char *glyph, const char *name,
			int draw)
{
	int len = 2 + (int)strlen(name) + 2;

	if (*cx + len > x + w && *cx > x) {
		*cx = x;
		(*cy)++;
	}
	if (draw) {
		attrset(theme_attr(t, role));
		mvaddstr(*cy, *cx, glyph);
		attrset(A_NORMAL);
		mvaddnstr(*cy, *cx + 2, name, x + w - *cx - 2);
	}
	*cx += len;
}

/* The block-I/O overlay's line of the legend: its key, and while it is
 * on, its read and write colours at each heat. */
static void io_legend(struct tui *t, int y, int x, int w)
{
	int cx = x, lit, wr;

	if (!t->io) {
		tui_text(t, y, x, w, R_DIM, "I: light the block I/O on the "
			 "map (reads and writes, fading)");
		return;
	}
	for (wr = 0; wr < 2 && cx + 12 < x + w; wr++) {
		for (lit = 3; lit >= 1; lit--) {
			attrset(theme_attr(t, wr ? R_IO_WRITE : R_IO_READ) |
				(lit == 3 ? A_BOLD : lit == 1 ? A_DIM : 0));
			mvaddstr(y, cx++, io_glyph(t, lit, wr));
		}
		attrset(A_NORMAL);
		mvaddnstr(y, cx + 1, wr ? "write" : "read", x + w - cx - 1);
		cx += 8;
	}
	if (cx < x + w)
		tui_text(t, y, cx, x + w - cx, R_DIM, "block I/O: bright now, "
			 "fading over a few seconds (I stops)");
}

/* The fill levels' line: the levels stay longest, the words on colour
 * go first. */
static void fill_legend(struct tui *t, int y, int x, int w)
{
	struct fields f;

	fields_init(&f);
	fields_add(&f, 9, "", "fill: %s free", theme_glyph(t, "·", "."));
	fields_add(&f, 8, "  ", "%s <=25%%", theme_glyph(t, "░", ":"));
	fields_add(&f, 8, "  ", "%s <=50%%", theme_glyph(t, "▒", "+"));
	fields_add(&f, 8, "  ", "%s <=75%%", theme_glyph(t, "▓", "*"));
	fields_add(&f, 8, "  ", "%s full used", theme_glyph(t, "█", "#"));
	fields_add_text(&f, 3, 16, ";  ", "colour: the main owner of the "
			"used part");
	fields_draw(t, &f, y, x, w, R_DIM);
}

int mapw_legend(struct tui *t, int y, int x, int w, int draw)
{
	static const enum owner_class order[] = {
		OWN_FILE, OWN_DIR, OWN_JOURNAL, OWN_ITABLE, OWN_BBITMAP,
		OWN_IBITMAP, OWN_SUPER, OWN_GDT, OWN_RSV_GDT, OWN_MAPPING,
		OWN_XATTR, OWN_OTHER, OWN_UNKNOWN, OWN_UNINIT, OWN_FREE,
	};
	int cx = x, cy = y, i, pending = !owner_index_complete(t->s);
	const char *name;
	enum owner_class c;

	for (i = 0; i < (int)(sizeof(order) / sizeof(order[0])); i++) {
		c = order[i];
		name = c == OWN_UNKNOWN && pending ? "owner not known yet"
						   : owner_class_name(c);
		legend_item(t, &cy, &cx, x, w, R_CLASS0 + c,
			    theme_cell_glyph(t, c, c <= OWN_UNINIT ? 0 : 1, 0),
			    name, draw);
	}
	if (t->s->live) {
		/* the live allocation overlay (a) */
		legend_item(t, &cy, &cx, x, w, R_ALLOC_NEW,
			    t->color256 ? theme_glyph(t, "█", "#") : "@",
			    "allocated now", draw);
		legend_item(t, &cy, &cx, x, w, R_ALLOC_OLD,
			    t->color256 ? theme_glyph(t, "█", "#") : "a",
			    "allocated earlier", draw);
	}
	cy++;
	if (draw) {
		if (t->color256)
			fill_legend(t, cy, x, w);
		else
			tui_text(t, cy, x, w, R_DIM, "letters: the main owner "
				 "of the used part; UPPER >=50%% used, lower "
				 "<50%%, . free , uninit");
	}
	if (t->io || t->s->live || tui_exp_running(t)) {
		cy++;
		if (draw)
			io_legend(t, cy, x, w);
	}
	return cy - y + 1;
}

struct describe_ctx {
	ext2_ino_t ino[3];
	blk64_t lfirst[3], llast[3];
	enum owner_class cls[3];
	int n, more;
};

static int describe_run(const struct owner_run *r, void *arg)
{
	struct describe_ctx *d = arg;
	int i;

	if (!r->ino)
		return 0;
	for (i = 0; i < d->n; i++) {
		if (d->ino[i] == r->ino) {
			if (r->lblk + r->len - 1 > d->llast[i])
				d->llast[i] = r->lblk + r->len - 1;
			return 0;
		}
	}
	if (d->n == 3) {
		d->more = 1;
		return 0;
	}
	d->ino[d->n] = r->ino;
	d->cls[d->n] = r->cls;
	d->lfirst[d->n] = r->lblk;
	d->llast[d->n] = r->lblk + r->len - 1;
	d->n++;
	return 0;
}

void mapw_describe(struct tui *t, blk64_t first, blk64_t count, char *buf,
		   size_t len)
{
	blk64_t counts[OWN_CLASS_MAX] = {0};
	struct describe_ctx d = {0};
	unsigned long per = flex_groups_per(t->fs);
	dgrp_t g = ext2fs_group_of_blk2(t->fs, first);
	struct strbuf sb = {0};
	int i, c, shown = 0;
	char path[256];

	if (count == 1)
		strbuf_printf(&sb, "block %llu", (unsigned long long)first);
	else
		strbuf_printf(&sb, "blocks %llu-%llu (%llu)",
			      (unsigned long long)first,
			      (unsigned long long)(first + count - 1),
			      (unsigned long long)count);
	strbuf_printf(&sb, "  group %u", g);
	if (per > 1)
		strbuf_printf(&sb, "  flex %lu", (unsigned long)(g / per));
	strbuf_printf(&sb, "  |");
	owner_class_counts_quick(t->s, first, count, counts);
	for (c = OWN_CLASS_MAX - 1; c >= 0 && shown < 3; c--) {
		/* the biggest shares, largest first */
		int best = -1, k;

		for (k = 0; k < OWN_CLASS_MAX; k++)
			if (counts[k] && (best < 0 || counts[k] > counts[best]))
				best = k;
		if (best < 0)
			break;
		if (count == 1)
			strbuf_printf(&sb, " %s", owner_class_name(best));
		else
			strbuf_printf(&sb, " %s %d%%", owner_class_name(best),
				      (int)(counts[best] * 100 / count));
		counts[best] = 0;
		shown++;
	}
	owner_for_range(t->s, first, count, describe_run, &d);
	for (i = 0; i < d.n; i++) {
		tui_inode_path(t, d.ino[i], path, sizeof(path));
		strbuf_printf(&sb, "%s <%u>%s%s lblk %llu", i ? "," : " |",
			      d.ino[i], *path ? " " : "", path,
			      (unsigned long long)d.lfirst[i]);
		if (d.llast[i] != d.lfirst[i])
			strbuf_printf(&sb, "-%llu",
				      (unsigned long long)d.llast[i]);
	}
	if (d.more)
		strbuf_printf(&sb, ", more");
	snprintf(buf, len, "%s", sb.buf ? sb.buf : "");
	strbuf_free(&sb);
}
