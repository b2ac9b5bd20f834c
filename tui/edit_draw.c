/* edit_draw.c - the editor's screens: the operation menu (with its prompt),
 * the plan screen (the move list beside the before/after map strips, or the
 * plan overlaid on the whole-device map), the `yes` prompt, the progress bar
 * while the plan is applied and the result with the undo file and the
 * verification.  Everything shown comes from the plan engine's data. */
#include "tui_int.h"
#include "cols.h"

#include <string.h>

#include "plan.h"

/* Title bar, selection line; the two bottom lines: key hints and the
 * message (or the prompt). */
static void frame(struct tui *t, const char *title, const char *hints)
{
	struct tui_edit *e = t->edit;
	char sel[600];

	erase();
	tui_fill(t, 0, 0, t->cols, R_TAB);
	tui_text(t, 0, 0, t->cols, R_TITLE, " e2layout editor: %s ", title);
	/* t->s->fs: while applying, t->fs is a closed handle until the
	 * views reload */
	tui_text(t, 0, t->cols - 12 > 40 ? t->cols - 12 : 40, 12, R_TAB,
		 "%s", t->s->fs && (t->s->fs->flags & EXT2_FLAG_RW) ?
		 " read-write " : " read-only ");
	edit_sel_text(t, &e->sel, sel, sizeof(sel));
	tui_text(t, 1, 0, t->cols, R_HEAD, "Selection: %s   on %s", sel,
		 t->s->device);
	tui_fill(t, t->rows - 2, 0, t->cols, R_STATUS);
	tui_text(t, t->rows - 2, 0, t->cols, R_STATUS, " %s", hints);
	if (e->msg[0])
		tui_text(t, t->rows - 1, 0, t->cols,
			 e->msg_err ? R_ERROR : R_MSG, "%s", e->msg);
}

/* The lines of text in buf from line `from`, at most h, at (y, x). */
static int text_lines(struct tui *t, const char *buf, int from, int y, int x,
		      int h, int w, int role)
{
	const char *p = buf, *nl;
	int line = 0, row = y;

	for (; p && *p && row < y + h; p = nl + 1, line++) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (line >= from)
			tui_text(t, row++, x, w, role, "%.*s", (int)(nl - p),
				 p);
		if (!*nl)
			break;
	}
	return row - y;
}

static void draw_menu(struct tui *t)
{
	struct tui_edit *e = t->edit;
	int i, row = 3;

	frame(t, "choose an operation", e->mode == ED_INPUT ?
	      "Enter builds the plan  Esc back to the menu" :
	      "Up/Down choose  Enter or 1-9 build the plan (read-only: "
	      "nothing is written yet)  Esc close  ? keys");
	for (i = 0; i < e->nops && row < t->rows - 3; i++, row++) {
		const struct edit_op *op = e->ops[i];

		tui_text(t, row, 0, t->cols, i == e->menu_sel ? R_SELECT :
			 R_NORMAL, "  %d  %-58s", i + 1, op->label);
		tui_text(t, row, 66, t->cols - 66, R_DIM, "%s%s%s", op->cmd,
			 op->opt ? " " : "", op->opt ? op->opt : "");
	}
	if (row + 1 < t->rows - 3 && t->s->live)
		tui_text(t, row + 1, 2, t->cols - 2, R_DIM, "Mounted: a live "
			 "defrag allocates the kernel's donors and previews "
			 "them; a typed yes moves the files through the "
			 "kernel (no undo file is needed).");
	else if (row + 1 < t->rows - 3)
		tui_text(t, row + 1, 2, t->cols - 2, R_DIM, "The plan is made "
			 "read-only and previewed; applying it needs a -w "
			 "session and a typed yes, and writes an undo file.");
	if (e->mode == ED_INPUT) {
		move(t->rows - 1, 0);
		clrtoeol();
		prompt_draw(t, e->in, t->rows - 1, 0, t->cols, e->input_label);
	}
}

static void draw_error(struct tui *t)
{
	struct tui_edit *e = t->edit;

	frame(t, "no plan", "Esc or Enter back to the menu  q close");
	tui_text(t, 3, 0, t->cols, R_ERROR, "The plan could not be made "
		 "(%s):", e->request);
	text_lines(t, e->out.buf ? e->out.buf : "", 0, 4, 2, t->rows - 7,
		   t->cols - 2, R_NORMAL);
}

/* The plan (of a chain) and step a flattened move-list line shows: a
 * header line per plan when there are several. */
static const struct plan *line_of(const struct plan *head, int line,
				  int *step)
{
	const struct plan *p;
	int chain = head->next != NULL;

	for (p = head; p; p = p->next) {
		if (chain) {
			if (line == 0) {
				*step = -1;
				return p;
			}
			line--;
		}
		if (line < (int)p->nsteps) {
			*step = line;
			return p;
		}
		line -= p->nsteps;
	}
	return NULL;
}

static int total_lines(const struct plan *head)
{
	const struct plan *p;
	int n = 0;

	for (p = head; p; p = p->next)
		n += p->nsteps + (head->next != NULL);
	return n;
}

/* A move's line: its number, kind and where it writes stay longest; its
 * length goes first, then its source. */
static void step_fields(const struct plan *p, int i, struct fields *f)
{
	const struct plan_step *st = &p->steps[i];
	unsigned long long a = st->src, b = st->dst, l = st->len;

	fields_init(f);
	fields_add(f, 9, "", "%3d.", i + 1);
	fields_add(f, 8, " ", "%-9s", plan_step_name(st->kind));
	switch (st->kind) {
	case STEP_COPY:
		fields_add(f, 6, " ", "%llu-%llu", a, a + l - 1);
		fields_add(f, 7, " ", "-> %llu-%llu", b, b + l - 1);
		fields_add(f, 5, " ", "(%llu)", l);
		break;
	case STEP_WRITE_MAP:
	case STEP_ALLOC:
	case STEP_ZERO:
		fields_add(f, 7, " ", "%llu-%llu", b, b + l - 1);
		fields_add(f, 5, " ", "(%llu blocks)", l);
		break;
	case STEP_SWITCH:
		fields_add(f, 7, " ", "inode %u", p->ino);
		fields_add(f, 5, " ", "to the new mapping");
		break;
	default:
		fields_add(f, 7, " ", "%llu-%llu", a, a + l - 1);
		fields_add(f, 5, " ", "(%llu blocks)", l);
	}
}

static void draw_moves(struct tui *t, const struct plan *head, int y, int x,
		       int h, int w)
{
	struct tui_edit *e = t->edit;
	int n = total_lines(head), i, step;
	const struct plan *p;
	struct fields f;

	if (e->step_sel >= n)
		e->step_sel = n ? n - 1 : 0;
	if (e->step_sel < e->step_top)
		e->step_top = e->step_sel;
	if (e->step_sel >= e->step_top + h - 1)
		e->step_top = e->step_sel - (h - 1) + 1;
	tui_text(t, y, x, w, R_DIM, "Moves (%d of %d; Up/Down scroll):",
		 n ? e->step_sel + 1 : 0, n);
	for (i = 0; i + 1 < h && e->step_top + i < n; i++) {
		int role;

		p = line_of(head, e->step_top + i, &step);
		if (!p)
			break;
		role = e->step_top + i == e->step_sel ? R_SELECT :
		       step < 0 ? R_HEAD : R_NORMAL;
		if (step < 0) {
			fields_init(&f);
			fields_add(&f, 9, "", "%s of inode %u:", p->kind,
				   p->ino);
			fields_add(&f, 8, " ", "%zu -> %zu extent(s)", p->nold,
				   p->nnew);
		} else {
			step_fields(p, step, &f);
		}
		tui_fill(t, y + 1 + i, x, w, role);
		fields_draw(t, &f, y + 1 + i, x, w, role);
	}
}

/* Strip rows from lo, cw cells a row, per blocks a cell. */
static void strip_rows(struct tui *t, const struct plan *p, int after,
		       int y, int x, int rows, int cw, blk64_t lo,
		       blk64_t hi, blk64_t per)
{
	char line[512];
	int r, c, n;
	blk64_t first;

	for (r = 0; r < rows; r++) {
		first = lo + (blk64_t)r * cw * per;
		if (first >= hi)
			break;
		n = (int)((hi - first + per - 1) / per);
		if (n > cw)
			n = cw;
		plan_map_strip(t->fs, p, after, first, per, n, line);
		for (c = 0; c < n; c++) {
			attrset(theme_attr(t, line[c] == 'X' ? (after ?
				R_ALLOC_NEW : R_ALLOC_OLD) : line[c] == '#' ?
				R_NORMAL : R_DIM));
			mvaddch(y + r, x + c, line[c]);
		}
		attrset(A_NORMAL);
	}
}

static void draw_strips(struct tui *t, const struct plan *p, int y, int x,
			int h, int w)
{
	struct plan_stats ps;
	blk64_t per, cells, span;
	int cw = w - 8, rows = (h - 2) / 2, used;
	struct fields f;

	if (cw > 500)
		cw = 500;
	if (cw < 8 || rows < 1)
		return;
	plan_get_stats(p, &ps);
	span = ps.hi > ps.lo ? ps.hi - ps.lo : 1;
	cells = (blk64_t)cw * rows;
	per = (span + cells - 1) / cells;
	if (!per)
		per = 1;
	used = (int)(((span + per - 1) / per + cw - 1) / cw);
	fields_init(&f);
	fields_add(&f, 9, "", "Blocks %llu-%llu", (unsigned long long)ps.lo,
		   (unsigned long long)ps.hi - 1);
	fields_add(&f, 8, ", ", "%llu a cell", (unsigned long long)per);
	fields_add_text(&f, 5, 12, ": ", "X the inode, # others, . free");
	fields_draw(t, &f, y, x, w, R_DIM);
	tui_text(t, y + 1, x, 7, R_HEAD, "before:");
	strip_rows(t, p, 0, y + 1, x + 8, used, cw, ps.lo, ps.hi, per);
	tui_text(t, y + 2 + used, x, 7, R_HEAD, "after:");
	strip_rows(t, p, 1, y + 2 + used, x + 8, used, cw, ps.lo, ps.hi, per);
}

static void draw_overlay(struct tui *t, int y, int x, int h, int w)
{
	struct map_layout m;

	tui_text(t, y, x, w, R_DIM, "On the map: %s", t->edit->overlay == 1 ?
		 "BEFORE (lit: the blocks that move)" :
		 "AFTER (lit: the run they move to)");
	mapw_fit(t, &m, w, h - 1);
	m.cursor = 0;
	mapw_draw(t, &m, y + 1, x, h - 1, w);
}

/* The numbers plan_show prints, summed over a chain. */
static int draw_summary(struct tui *t, const struct plan *head, int y)
{
	const struct plan *p;
	struct plan_stats ps;
	unsigned long long rd = 0, wr = 0, need = 0, mb = 0, ma = 0;
	size_t eb = 0, ea = 0, np = 0;
	struct fields f;

	for (p = head; p; p = p->next, np++) {
		plan_get_stats(p, &ps);
		rd += ps.read;
		wr += ps.written;
		need += p->target_len;
		eb += p->nold;
		ea += p->nnew;
		mb += p->nold_meta;
		ma += p->new_meta;
	}
	fields_init(&f);
	if (np == 1) {
		fields_add(&f, 9, "", "Plan: %s of inode %u", head->kind,
			   head->ino);
		fields_add(&f, 5, " ", "(%s-mapped);",
			   head->extents ? "extent" : "block");
		fields_add(&f, 8, " ", "new run %llu-%llu",
			   (unsigned long long)head->target,
			   (unsigned long long)(head->target +
						head->target_len - 1));
	} else {
		fields_add(&f, 9, "", "Plan: %zu moves of inodes", np);
		fields_add(&f, 7, " ", "(%s, first inode %u)", head->kind,
			   head->ino);
	}
	fields_draw(t, &f, y++, 0, t->cols, R_HEAD);
	fields_init(&f);
	fields_add(&f, 9, "", "extents: %zu before, %zu after", eb, ea);
	fields_add(&f, 7, ";  ", "mapping blocks: %llu before, %llu after",
		   mb, ma);
	fields_add(&f, 8, ";  ", "free space needed: %llu blocks", need);
	fields_draw(t, &f, y++, 0, t->cols, R_NORMAL);
	fields_init(&f);
	fields_add(&f, 9, "", "blocks read: %llu", rd);
	fields_add(&f, 8, ", ", "blocks written: %llu", wr);
	fields_add(&f, 4, " ", "(plus the inode, bitmaps, descriptors and "
		   "superblock)");
	fields_draw(t, &f, y++, 0, t->cols, R_NORMAL);
	return y;
}

static void draw_plan(struct tui *t)
{
	struct tui_edit *e = t->edit;
	const struct plan *head = t->s->plan, *p;
	int y, h, lw, step;

	frame(t, "plan", e->mode == ED_CONFIRM ? "type yes and Enter to "
	      "apply; anything else cancels" : "a apply (type yes)  o "
	      "before/after overlay  Up/Down moves  Esc menu  q close  ? "
	      "keys");
	if (!head && !t->s->live_plan) {
		tui_text(t, 3, 0, t->cols, R_ERROR, "There is no current "
			 "plan.");
		return;
	}
	y = 3;
	h = t->rows - 2 - y;
	if (!head || head->repack) {
		/* its moves are group metadata: the engine's own preview */
		int n = 0;
		const char *c;

		for (c = e->out.buf; c && *c; c++)
			n += *c == '\n';
		if (e->step_sel > n - (h - 1))
			e->step_sel = n - (h - 1) > 0 ? n - (h - 1) : 0;
		if (head)
			tui_text(t, y, 0, t->cols, R_HEAD, "Plan: %s (group "
				 "metadata moves, as the engine previews "
				 "them):", head->kind);
		else
			tui_text(t, y, 0, t->cols, R_HEAD, "Live plan: the "
				 "kernel's donors are allocated; their extents "
				 "are the after (Up/Down scroll):");
		text_lines(t, e->out.buf ? e->out.buf : "", e->step_sel,
			   y + 1, 1, h - 1, t->cols - 1, R_NORMAL);
	} else {
		y = draw_summary(t, head, y);
		h = t->rows - 2 - y - 1;
		lw = t->cols * 9 / 20;
		if (lw < 54)
			lw = 54;	/* a copy line whole */
		if (lw > t->cols - 20)
			lw = t->cols - 20;
		draw_moves(t, head, y + 1, 0, h, lw);
		p = line_of(head, e->step_sel, &step);
		if (!p)
			p = head;
		if (e->overlay)
			draw_overlay(t, y + 1, lw + 2, h, t->cols - lw - 2);
		else
			draw_strips(t, p, y + 1, lw + 2, h, t->cols - lw - 2);
	}
	if (e->mode == ED_CONFIRM) {
		char label[400];

		if (!head)
			snprintf(label, sizeof(label), "Move the files through "
				 "the kernel on %s (no undo file is needed; "
				 "Ctrl-C stops between chunks)? Type yes: ",
				 t->s->mount_point);
		else
			snprintf(label, sizeof(label), "Apply to %s (an undo "
				 "file is written)? Type yes: ", t->s->device);
		move(t->rows - 1, 0);
		clrtoeol();
		prompt_draw(t, e->in, t->rows - 1, 0, t->cols, label);
	}
}

static void draw_applying(struct tui *t)
{
	struct tui_edit *e = t->edit;
	double frac = e->prog_total ? (double)e->prog_done / e->prog_total : 0;
	int bw = t->cols - 4;

	if (t->s->live)
		frame(t, "moving", "moving through the kernel: Ctrl-C stops "
		      "between two chunks, every file stays whole");
	else
		frame(t, "applying", "applying: do not interrupt (the order "
		      "is crash-safe; the undo file restores the old bytes)");
	tui_text(t, 3, 0, t->cols, R_HEAD, "Applying %s ...", e->request + 5);
	if (e->check_pct >= 0 && e->prog_pct < 0) {
		/* the consistency check comes before any write */
		tui_bar(t, 5, 2, bw, e->check_pct / 100.0);
		tui_text(t, 6, 2, t->cols - 2, R_NORMAL, "checking the "
			 "filesystem (e2fsck -fn) %d%%", e->check_pct);
		return;
	}
	tui_bar(t, 5, 2, bw, frac > 1 ? 1 : frac);
	tui_text(t, 6, 2, t->cols - 2, R_NORMAL, "%3d%%  %llu of %llu "
		 "blocks %s", e->prog_pct < 0 ? 0 : e->prog_pct,
		 e->prog_done, e->prog_total, t->s->live ? "moved" : "written");
}

static void draw_result(struct tui *t)
{
	struct tui_edit *e = t->edit;

	frame(t, "applied", "Enter or Esc close (the maps show the new "
	      "layout)");
	tui_text(t, 3, 0, t->cols, e->ok ? R_HEAD : R_ERROR, "%s", e->ok ?
		 "Applied and verified." : "The plan was NOT applied (or "
		 "did not verify): see below.");
	if (t->s->live)
		tui_text(t, 4, 0, t->cols, R_NORMAL, "progress: %d%%, %llu "
			 "of %llu blocks moved through the kernel",
			 e->prog_pct < 0 ? 0 : e->prog_pct, e->prog_done,
			 e->prog_total);
	else
		tui_text(t, 4, 0, t->cols, R_NORMAL, "progress: %d%%, %llu "
			 "blocks written (%llu of them the plan's data, the "
			 "rest metadata)", e->prog_pct < 0 ? 0 : e->prog_pct,
			 e->prog_done, e->prog_total);
	text_lines(t, e->out.buf ? e->out.buf : "", 0, 6, 2, t->rows - 9,
		   t->cols - 2, R_NORMAL);
}

void edit_draw(struct tui *t)
{
	switch (t->edit->mode) {
	case ED_MENU:
	case ED_INPUT:
		draw_menu(t);
		break;
	case ED_ERROR:
		draw_error(t);
		break;
	case ED_PLAN:
	case ED_CONFIRM:
		draw_plan(t);
		break;
	case ED_APPLYING:
		draw_applying(t);
		break;
	case ED_RESULT:
		draw_result(t);
		break;
	default:
		break;
	}
	curs_set(t->edit->mode == ED_INPUT || t->edit->mode == ED_CONFIRM);
}
