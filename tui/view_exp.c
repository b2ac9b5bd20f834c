/* view_exp.c - an experiment's result as a panel over the view area: the
 * sides, the comparison table (delta %, 95% CI, p, verdict, the smallest
 * detectable effect), each metric's runs plotted per side, and the
 * mechanism counters per side; scrolled with the usual keys, closed with q
 * or Esc, opened again with X.  Drawn from the result every frame. */
#include "tui_int.h"
#include "cols.h"
#include "tui_exp.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One frame of the panel: lines are counted from the top of the content,
 * and those inside the window drawn. */
struct pane {
	struct tui *t;
	int y, x, h, w;		/* the window */
	int top, n;		/* first line shown; lines so far */
};

static int visible(struct pane *p, int *sy)
{
	int i = p->n++;

	if (i < p->top || i >= p->top + p->h)
		return 0;
	*sy = p->y + i - p->top;
	return 1;
}

static void line(struct pane *p, int role, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line(struct pane *p, int role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int sy;

	if (!visible(p, &sy))
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tui_text(p->t, sy, p->x, p->w, role, "%s", buf);
}

static double mean_of(const struct expr_side *s, const char *metric,
		      double *lo, double *hi, size_t *n)
{
	double sum = 0;
	size_t i;
	int k;

	for (i = 0; i < s->nruns; i++) {
		k = expr_metric(&s->runs[i], metric);
		if (k < 0)
			continue;
		sum += s->runs[i].mval[k];
		if (!*n || s->runs[i].mval[k] < *lo)
			*lo = s->runs[i].mval[k];
		if (!*n || s->runs[i].mval[k] > *hi)
			*hi = s->runs[i].mval[k];
		(*n)++;
	}
	return sum;
}

/* One side's runs of a metric on a scale lo..hi of width cells: o one
 * run, * several in one place. */
static void plot_side(struct pane *p, const struct expr_side *s,
		      const char *metric, double lo, double hi, int width,
		      int role)
{
	unsigned char count[512];
	double sum = 0;
	size_t i, n = 0;
	int k, c, sy, x;

	if (width > (int)sizeof(count))
		width = sizeof(count);
	if (width < 4 || !visible(p, &sy))
		return;
	memset(count, 0, sizeof(count));
	for (i = 0; i < s->nruns; i++) {
		k = expr_metric(&s->runs[i], metric);
		if (k < 0)
			continue;
		c = hi > lo ? (int)((s->runs[i].mval[k] - lo) / (hi - lo) *
				    (width - 1) + 0.5) : width / 2;
		if (c < 0)
			c = 0;
		if (c >= width)
			c = width - 1;
		if (count[c] < 255)
			count[c]++;
		sum += s->runs[i].mval[k];
		n++;
	}
	tui_text(p->t, sy, p->x, p->w, R_NORMAL, "  %-6s |", s->name);
	x = p->x + 10;
	for (c = 0; c < width && x + c < p->x + p->w; c++) {
		attrset(theme_attr(p->t, count[c] ? role : R_DIM));
		mvaddstr(sy, x + c, count[c] > 1 ? "*" : count[c] ? "o" :
			 theme_glyph(p->t, "·", "."));
	}
	attrset(A_NORMAL);
	if (x + width < p->x + p->w)
		tui_text(p->t, sy, x + width, p->x + p->w - x - width,
			 R_NORMAL, "| mean %.6g (%zu runs)",
			 n ? sum / (double)n : 0, n);
}

/* The comparison table's columns: the smallest detectable effect and
 * the spreads go first, then the means, then the interval; the metric,
 * its delta and p stay. */
enum { C_METRIC, C_AMEAN, C_ASD, C_BMEAN, C_BSD, C_DELTA, C_CI, C_P,
       C_DETECT, C_NCOLS };
static const struct col_spec cmp_cols[C_NCOLS] = {
	[C_METRIC]	= {"metric", COL_TEXT, 9, 10, 22},
	[C_AMEAN]	= {"A mean", COL_NUM, 5, 0, 11},
	[C_ASD]		= {"sd", COL_NUM, 2, 0, 9},
	[C_BMEAN]	= {"B mean", COL_NUM, 5, 0, 11},
	[C_BSD]		= {"sd", COL_NUM, 2, 0, 9},
	[C_DELTA]	= {"delta%", COL_NUM, 8, 0, 8},
	[C_CI]		= {"95% CI of delta%", COL_NUM, 6, 0, 19},
	[C_P]		= {"p", COL_NUM, 7, 0, 8},
	[C_DETECT]	= {"detect", COL_NUM, 1, 0, 9},
};

static void cmp_cells(const struct expr_cmp *c, char b[][48],
		      const char **cells)
{
	int i;

	snprintf(b[C_AMEAN], 48, "%.6g", c->mean_a);
	snprintf(b[C_ASD], 48, "%.4g", c->sd_a);
	snprintf(b[C_BMEAN], 48, "%.6g", c->mean_b);
	snprintf(b[C_BSD], 48, "%.4g", c->sd_b);
	snprintf(b[C_DELTA], 48, "%+.1f", c->delta_pct);
	snprintf(b[C_CI], 48, "[%+.1f, %+.1f]", c->ci_lo, c->ci_hi);
	snprintf(b[C_P], 48, "%.4f", c->p);
	snprintf(b[C_DETECT], 48, "%.1f%%", c->detectable_pct);
	for (i = 0; i < C_NCOLS; i++)
		cells[i] = b[i];
	cells[C_METRIC] = c->metric;
}

/* A metric's name is never cut: when the widest does not fit its column,
 * each comparison takes two lines, the name on the first and the numbers
 * (with the room the names had) on the second. */
static void comparisons(struct pane *p, const struct exp_result *r)
{
	char b[C_NCOLS][48];
	const char *cells[C_NCOLS];
	struct col_spec spec[C_NCOLS];
	struct cols tc;
	struct fields f;
	size_t i;
	int sy, two = 0, role;

	memcpy(spec, cmp_cols, sizeof(spec));
	for (;;) {
		cols_init(&tc, spec, C_NCOLS);
		for (i = 0; i < r->ncmp; i++)
			if (r->cmp[i].have) {
				cmp_cells(&r->cmp[i], b, cells);
				if (two)
					cells[C_METRIC] = NULL;
				cols_measure(p->t, &tc, cells);
			}
		cols_fit(&tc, p->w);
		if (two || tc.w[C_METRIC] >= tc.want[C_METRIC])
			break;
		two = 1;	/* the names on lines of their own */
		spec[C_METRIC].head = NULL;
		spec[C_METRIC].min = spec[C_METRIC].width = 0;
	}
	if (visible(p, &sy))
		cols_head(p->t, &tc, sy, p->x, R_HEAD);
	for (i = 0; i < r->ncmp; i++) {
		const struct expr_cmp *c = &r->cmp[i];

		if (!c->have) {
			line(p, R_NORMAL, "%-22s %s", c->metric, c->verdict);
			continue;
		}
		role = c->significant ? R_HILITE : R_NORMAL;
		cmp_cells(c, b, cells);
		if (two) {
			line(p, role, "%s", c->metric);
			cells[C_METRIC] = NULL;
		}
		if (visible(p, &sy))
			cols_row(p->t, &tc, sy, p->x, role, cells);
		if (!visible(p, &sy))
			continue;
		fields_init(&f);
		fields_add_text(&f, 9, 20, "", "    %s%s", c->verdict,
				c->significant && c->detectable_pct > 0 ?
				" (significant, p < 0.05)" : "");
		if (c->detectable_pct > 0) {
			fields_add(&f, 8, "; ", "smallest detectable effect "
				   "+-%.1f%%", c->detectable_pct);
			fields_add(&f, 7, ", ", "about %.0f runs per side to "
				   "see +-%.1f%%", c->runs_for_target,
				   c->target_pct);
		}
		fields_draw(p->t, &f, sy, p->x, p->w, c->detectable_pct > 0 &&
			    c->significant ? R_MSG : R_DIM);
	}
}

static void plots(struct pane *p, const struct exp_result *r)
{
	const struct expr_run *first = NULL;
	size_t k, na, nb;
	double lo = 0, hi = 0;
	int width = p->w - 40;

	if (r->side[0].nruns)
		first = &r->side[0].runs[0];
	else if (r->side[1].nruns)
		first = &r->side[1].runs[0];
	if (!first)
		return;
	line(p, R_HEAD, "Runs of each side (o one run, * several in one "
	     "place)");
	for (k = 0; k < first->nm; k++) {
		na = nb = 0;
		mean_of(&r->side[0], first->mname[k], &lo, &hi, &na);
		nb = na;
		mean_of(&r->side[1], first->mname[k], &lo, &hi, &nb);
		line(p, R_NORMAL, "  %-22s %-.6g .. %.6g", first->mname[k], lo,
		     hi);
		plot_side(p, &r->side[0], first->mname[k], lo, hi, width,
			  R_BAR);
		plot_side(p, &r->side[1], first->mname[k], lo, hi, width,
			  R_HEAD);
	}
}

/* The mean of counter k over the runs of a side that have it. */
static double cmean(const struct expr_side *s, enum expr_counter k)
{
	int io = k != EXPR_JBD2_COMMITS;
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < s->nruns; i++) {
		const struct expr_run *r = &s->runs[i];

		if (io ? !r->have_io : !r->have_jbd2)
			continue;
		sum += r->c[k];
		n++;
	}
	return n ? sum / (double)n : NAN;
}

static void counter_line(struct pane *p, const struct exp_result *r,
			 const char *name, enum expr_counter k)
{
	double a = cmean(&r->side[0], k), b = cmean(&r->side[1], k);
	char as[32], bs[32];

	snprintf(as, sizeof(as), isnan(a) ? "-" : "%.1f", a);
	snprintf(bs, sizeof(bs), isnan(b) ? "-" : "%.1f", b);
	line(p, R_NORMAL, "  %-26s %14s %14s", name, as, bs);
}

static void counters(struct pane *p, const struct exp_result *r)
{
	int cls;

	line(p, R_HEAD, "%-28s %14s %14s", "Counters (mean per run)", "A",
	     "B");
	counter_line(p, r, "jbd2 commits", EXPR_JBD2_COMMITS);
	counter_line(p, r, "jbd2 blocks logged", EXPR_JBD2_BLOCKS);
	counter_line(p, r, "block requests", EXPR_IO_REQUESTS);
	counter_line(p, r, "  reads", EXPR_IO_READS);
	counter_line(p, r, "  writes", EXPR_IO_WRITES);
	counter_line(p, r, "  sequential", EXPR_IO_SEQUENTIAL);
	counter_line(p, r, "  seeking", EXPR_IO_SEEKS);
	counter_line(p, r, "journal writes", EXPR_JOURNAL_WRITES);
	counter_line(p, r, "journal breaks", EXPR_JOURNAL_BREAKS);
	counter_line(p, r, "records lost", EXPR_LOST);
	line(p, R_NORMAL, "  requests by owner class:");
	for (cls = 0; cls < OWN_CLASS_MAX; cls++) {
		enum expr_counter k = (enum expr_counter)(EXPR_OWNER0 + cls);
		double a = cmean(&r->side[0], k);
		double b = cmean(&r->side[1], k);

		if ((isnan(a) || a == 0) && (isnan(b) || b == 0))
			continue;
		char name[64];

		snprintf(name, sizeof(name), "    %s",
			 owner_class_name((enum owner_class)cls));
		counter_line(p, r, name, k);
	}
}

static void content(struct pane *p, const struct tui_exp *e)
{
	const struct exp_result *r = &e->res;
	int s;

	line(p, R_HEAD, "Experiment: %s", r->description[0] ? r->description
	     : r->workload);
	line(p, R_DIM, "%u runs per side%s%s  (from %s)", r->runs_per_side,
	     r->change[0] ? "; B is A with: " : "", r->change, e->src);
	for (s = 0; s < 2; s++)
		line(p, R_NORMAL, "  %-2s %s  (mount options: %s; %zu runs)",
		     r->side[s].name, r->side[s].image[0] ? r->side[s].image :
		     "a copy of A with the change", r->side[s].mount_opts[0] ?
		     r->side[s].mount_opts : "-", r->side[s].nruns);
	line(p, R_NORMAL, "%s", "");
	comparisons(p, r);
	line(p, R_NORMAL, "%s", "");
	plots(p, r);
	line(p, R_NORMAL, "%s", "");
	counters(p, r);
}

int tui_exp_shown(const struct tui *t)
{
	return t->exp && t->exp->shown && (t->exp->have || t->exp->pid);
}

void tui_exp_show(struct tui *t)
{
	if (!t->exp || (!t->exp->have && !t->exp->pid)) {
		tui_message(t, 1, "no experiment result yet (:experiment show "
			    "FILE opens one, :experiment A.img B.img ... runs "
			    "one)");
		return;
	}
	t->exp->shown = 1;
}

void tui_exp_hide(struct tui *t)
{
	if (t->exp)
		t->exp->shown = 0;
}

static void draw_running(struct tui *t, struct tui_exp *e, int y, int h)
{
	double frac = e->total ? (double)e->done / e->total : 0;

	tui_text(t, y, 1, t->cols - 2, R_HEAD, "Experiment running "
		 "(Esc or C-c cancels; it cleans up as on the command line)");
	if (h < 4)
		return;
	tui_text(t, y + 2, 1, t->cols - 2, R_NORMAL, "%s", e->progress[0] ?
		 e->progress : "starting...");
	tui_text(t, y + 3, 1, 12, R_NORMAL, "runs %u/%u", e->done, e->total);
	tui_bar(t, y + 3, 14, t->cols - 16, frac);
	if (e->cancelling && h > 5)
		tui_text(t, y + 5, 1, t->cols - 2, R_ERROR, "cancelling: "
			 "waiting for the experiment to unmount and remove "
			 "its copies...");
}

void tui_exp_draw(struct tui *t)
{
	struct tui_exp *e = t->exp;
	struct pane p = { t, 1, 1, t->rows - 3, t->cols - 2, 0, 0 };
	int y;

	for (y = 1; y < t->rows - 2; y++)
		tui_fill(t, y, 0, t->cols, R_NORMAL);
	if (e->pid) {
		draw_running(t, e, 1, t->rows - 3);
		return;
	}
	if (e->top < 0)
		e->top = 0;
	p.top = e->top;
	content(&p, e);
	e->lines = p.n;
	if (e->top > e->lines - p.h && e->lines > p.h) {
		e->top = e->lines - p.h;	/* after a resize */
	}
	snprintf(t->status, sizeof(t->status), "experiment result: lines "
		 "%d-%d of %d (Up/Down PgUp/PgDn Home/End scroll; q or Esc "
		 "closes, X opens it again)", e->top + 1,
		 e->top + p.h < e->lines ? e->top + p.h : e->lines, e->lines);
}

void tui_exp_key(struct tui *t, int ch)
{
	struct tui_exp *e = t->exp;
	int page = t->rows - 4, max;

	if (e->pid) {
		if (ch == 27 || ch == 'q')
			tui_exp_cancel(t);
		return;
	}
	max = e->lines - (t->rows - 3);
	if (max < 0)
		max = 0;
	switch (tui_key_lookup(tui_global_keys, ch)) {
	case ACT_UP:
		e->top--;
		break;
	case ACT_DOWN:
		e->top++;
		break;
	case ACT_PGUP:
		e->top -= page;
		break;
	case ACT_PGDN:
		e->top += page;
		break;
	case ACT_HOME:
		e->top = 0;
		break;
	case ACT_END:
		e->top = max;
		break;
	case ACT_QUIT:
	case ACT_CANCEL:
		e->shown = 0;
		return;
	case ACT_HELP:
		t->help = 1;
		t->help_top = 0;
		return;
	default:
		return;
	}
	if (e->top > max)
		e->top = max;
	if (e->top < 0)
		e->top = 0;
}
