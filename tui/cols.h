/* cols.h - columns and fields that fit a width by priority: the TUI's
 * tables (a header and rows) and its lines of labelled values drop their
 * lowest-priority parts first; a number is never cut (a missing column is
 * better than a wrong number), a text part may be cut with "…". */
#ifndef E2L_COLS_H
#define E2L_COLS_H

#include <stddef.h>

struct tui;

#define COLS_MAX	16

enum col_kind {
	COL_NUM,	/* shown whole, right-aligned, or not at all */
	COL_LABEL,	/* the same, left-aligned ("bb 129": its own label) */
	COL_TEXT,	/* left-aligned; cut with "…" down to its minimum */
	COL_BAR		/* the width left over, at least its minimum */
};

/* A column as a view declares it. */
struct col_spec {
	const char *head;	/* its header, NULL or "" for none */
	enum col_kind kind;
	int prio;		/* the higher, the longer it stays */
	int min;		/* text and bar: narrowest worth showing */
	int width;		/* this wide when every column fits so */
};

/* A table's layout at one width: cols_init, cols_want_num/cols_measure
 * for the widths the columns want, cols_fit, then cols_head/cols_row.
 * Kept on the stack for one frame. */
struct cols {
	int n;
	const struct col_spec *spec;
	int want[COLS_MAX];	/* the widest cell (and the header) */
	int x[COLS_MAX];	/* after cols_fit: offset of each column */
	int w[COLS_MAX];	/* after cols_fit: its width, 0 dropped */
	int width;		/* the width fitted to */
};

void cols_init(struct cols *c, const struct col_spec *spec, int n);
/* Column i holds numbers up to max (decimal): its width. */
void cols_want_num(struct cols *c, int i, unsigned long long max);
/* The decimal digits of v. */
int cols_digits(unsigned long long v);
/* Widens each column to its cell in cells[] (n strings, NULL skipped). */
void cols_measure(const struct tui *t, struct cols *c,
		  const char *const *cells);
/* Decides the columns shown in width w and their places. */
void cols_fit(struct cols *c, int w);
/* Column i is shown: 1 and its screen place (*x from the table's x). */
int cols_at(const struct cols *c, int i, int *x, int *w);
void cols_head(struct tui *t, const struct cols *c, int y, int x, int role);
/* One row on a line filled with role: cells[i] in column i (bars are
 * left to the caller). */
void cols_row(struct tui *t, const struct cols *c, int y, int x, int role,
	      const char *const *cells);

/* A line of fields: "blocks: 12 free", ", 3 reserved"..., each with the
 * separator drawn before it when a field before it is shown. */
struct fields {
	int n;
	struct field {
		int prio, text, min;	/* text: cut down to min columns */
		size_t sep, off;	/* offsets in buf (sep, then text) */
	} f[COLS_MAX];
	char buf[1024];
	size_t used;
};

void fields_init(struct fields *f);
/* Adds a number-bearing field (never cut); sep is drawn before it when
 * something is shown before it. */
void fields_add(struct fields *f, int prio, const char *sep,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Adds a text field, cut with "…" down to min columns before it goes. */
void fields_add_text(struct fields *f, int prio, int min, const char *sep,
		     const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Draws the fields that fit in w columns at (y, x). */
void fields_draw(struct tui *t, const struct fields *f, int y, int x, int w,
		 int role);

#endif
