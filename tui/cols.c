/* cols.c - tables and lines of fields fitted to a width by priority (see
 * cols.h): one fitting rule for both, so every view drops the same way. */
#include "tui_int.h"
#include "cols.h"
#include "uchar.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* One part to fit: a column or a field. */
struct part {
	int kind, prio, min, want, sep;
	int w;		/* out: 0 dropped */
};

static int need_of(const struct part *p)
{
	if (p->kind == COL_NUM || p->kind == COL_LABEL)
		return p->want;
	if (p->kind == COL_BAR)
		return p->min;
	return p->want < p->min ? p->want : p->min;
}

/* The width the shown parts need, each but the first with its separator. */
static int total(const struct part *p, int n, const int *shown)
{
	int i, sum = 0, first = 1;

	for (i = 0; i < n; i++) {
		if (!shown[i])
			continue;
		sum += need_of(&p[i]) + (first ? 0 : p[i].sep);
		first = 0;
	}
	return sum;
}

/* Drops the lowest-priority parts (the rightmost of equals) until the
 * rest fit in width, then widens the text parts (highest priority first)
 * towards what they want and gives the bars what is left. */
static void fit(struct part *p, int n, int width)
{
	int shown[COLS_MAX], i, low, extra, nbar = 0;

	for (i = 0; i < n; i++)
		shown[i] = 1;
	while (total(p, n, shown) > width) {
		low = -1;
		for (i = 0; i < n; i++)
			if (shown[i] && (low < 0 || p[i].prio <= p[low].prio))
				low = i;
		if (low < 0)
			break;
		shown[low] = 0;
	}
	extra = width - total(p, n, shown);
	for (i = 0; i < n; i++) {
		p[i].w = shown[i] ? need_of(&p[i]) : 0;
		if (shown[i] && p[i].kind == COL_BAR)
			nbar++;
	}
	while (extra > 0) {
		int best = -1, add;

		for (i = 0; i < n; i++)
			if (shown[i] && p[i].kind == COL_TEXT &&
			    p[i].w < p[i].want &&
			    (best < 0 || p[i].prio > p[best].prio))
				best = i;
		if (best < 0)
			break;
		add = p[best].want - p[best].w;
		if (add > extra)
			add = extra;
		p[best].w += add;
		extra -= add;
	}
	for (i = 0; i < n && nbar; i++)
		if (shown[i] && p[i].kind == COL_BAR) {
			int add = extra / nbar--;

			p[i].w += add;
			extra -= add;
		}
}

static int text_width(const struct tui *t, const char *s)
{
	return uc_width(s, 0, (int)strlen(s), t->utf8);
}

void cols_init(struct cols *c, const struct col_spec *spec, int n)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->n = n > COLS_MAX ? COLS_MAX : n;
	c->spec = spec;
	for (i = 0; i < c->n; i++)
		c->want[i] = spec[i].head ? (int)strlen(spec[i].head) : 0;
}

int cols_digits(unsigned long long v)
{
	int d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

void cols_want_num(struct cols *c, int i, unsigned long long max)
{
	int d = cols_digits(max);

	if (i >= 0 && i < c->n && d > c->want[i])
		c->want[i] = d;
}

void cols_measure(const struct tui *t, struct cols *c,
		  const char *const *cells)
{
	int i, wd;

	for (i = 0; i < c->n; i++) {
		if (!cells[i])
			continue;
		wd = text_width(t, cells[i]);
		if (wd > c->want[i])
			c->want[i] = wd;
	}
}

/* The parts of c at their preferred widths (wide) or as narrow as their
 * cells; 1 when every one got its width. */
static int fit_at(struct cols *c, struct part *p, int w, int wide)
{
	int i, all = 1;

	for (i = 0; i < c->n; i++) {
		p[i].kind = c->spec[i].kind;
		p[i].prio = c->spec[i].prio;
		p[i].min = c->spec[i].min;
		p[i].want = c->want[i];
		if (wide && c->spec[i].width > p[i].want)
			p[i].want = c->spec[i].width;
		p[i].sep = 1;
	}
	fit(p, c->n, w);
	for (i = 0; i < c->n; i++)
		if (p[i].w < (p[i].kind == COL_BAR ? p[i].min : p[i].want))
			all = 0;
	return all;
}

void cols_fit(struct cols *c, int w)
{
	struct part p[COLS_MAX];
	int i, cx = 0, first = 1;

	/* the preferred widths when all of it fits, else the cells' own */
	if (!fit_at(c, p, w, 1))
		fit_at(c, p, w, 0);
	c->width = w;
	for (i = 0; i < c->n; i++) {
		c->w[i] = p[i].w;
		if (!p[i].w)
			continue;	/* dropped (or an empty text column) */
		if (!first)
			cx++;
		c->x[i] = cx;
		cx += p[i].w;
		first = 0;
	}
}

int cols_at(const struct cols *c, int i, int *x, int *w)
{
	if (i < 0 || i >= c->n || !c->w[i])
		return 0;
	*x = c->x[i];
	*w = c->w[i];
	return 1;
}

static void cell(struct tui *t, const struct cols *c, int i, int y, int x,
		 int role, const char *s)
{
	int pad;

	if (!c->w[i] || !s || c->spec[i].kind == COL_BAR)
		return;
	pad = c->spec[i].kind == COL_NUM ? c->w[i] - text_width(t, s) : 0;
	if (pad < 0)
		pad = 0;	/* (cannot be: the column is the widest cell) */
	tui_text(t, y, x + c->x[i] + pad, c->w[i] - pad, role, "%s", s);
}

void cols_head(struct tui *t, const struct cols *c, int y, int x, int role)
{
	int i;

	for (i = 0; i < c->n; i++)
		cell(t, c, i, y, x, role, c->spec[i].head);
}

void cols_row(struct tui *t, const struct cols *c, int y, int x, int role,
	      const char *const *cells)
{
	int i;

	tui_fill(t, y, x, c->width, role);
	for (i = 0; i < c->n; i++)
		cell(t, c, i, y, x, role, cells[i]);
}

void fields_init(struct fields *f)
{
	memset(f, 0, sizeof(*f));
}

/* Appends the formatted text to f->buf: its offset (the buffer is big
 * enough for the lines the views build; a longer one is cut, as text). */
static size_t put(struct fields *f, const char *fmt, va_list ap)
{
	size_t off = f->used;
	int n;

	if (off >= sizeof(f->buf))
		off = sizeof(f->buf) - 1;
	n = vsnprintf(f->buf + off, sizeof(f->buf) - off, fmt, ap);
	if (n < 0)
		n = 0;
	f->used = off + (size_t)n + 1;
	if (f->used > sizeof(f->buf))
		f->used = sizeof(f->buf);
	return off;
}

static size_t put_str(struct fields *f, const char *s)
{
	size_t off = f->used, n = strlen(s);

	if (off >= sizeof(f->buf))
		return sizeof(f->buf) - 1;	/* the final NUL: "" */
	if (n > sizeof(f->buf) - off - 1)
		n = sizeof(f->buf) - off - 1;
	memcpy(f->buf + off, s, n);
	f->buf[off + n] = 0;
	f->used = off + n + 1;
	return off;
}

static void add(struct fields *f, int prio, int text, int min,
		const char *sep, const char *fmt, va_list ap)
{
	struct field *e;

	if (f->n == COLS_MAX)
		return;
	e = &f->f[f->n++];
	e->prio = prio;
	e->text = text;
	e->min = min;
	e->sep = put_str(f, sep ? sep : "");
	e->off = put(f, fmt, ap);
}

void fields_add(struct fields *f, int prio, const char *sep,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(f, prio, 0, 0, sep, fmt, ap);
	va_end(ap);
}

void fields_add_text(struct fields *f, int prio, int min, const char *sep,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(f, prio, 1, min, sep, fmt, ap);
	va_end(ap);
}

void fields_draw(struct tui *t, const struct fields *f, int y, int x, int w,
		 int role)
{
	struct part p[COLS_MAX];
	int i, cx = x, first = 1, sw;

	for (i = 0; i < f->n; i++) {
		p[i].kind = f->f[i].text ? COL_TEXT : COL_NUM;
		p[i].prio = f->f[i].prio;
		p[i].min = f->f[i].min;
		p[i].want = text_width(t, f->buf + f->f[i].off);
		p[i].sep = text_width(t, f->buf + f->f[i].sep);
	}
	fit(p, f->n, w);
	for (i = 0; i < f->n; i++) {
		if (!p[i].w)
			continue;
		if (!first) {
			sw = p[i].sep;
			tui_text(t, y, cx, sw, role, "%s",
				 f->buf + f->f[i].sep);
			cx += sw;
		}
		first = 0;
		tui_text(t, y, cx, p[i].w, role, "%s", f->buf + f->f[i].off);
		cx += p[i].w;
	}
}
