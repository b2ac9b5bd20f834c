/* undo_runs.c - which granules apply's undo writer has saved: sorted runs,
 * marked as records are appended, and put back to what the last commit
 * left when a commit fails (only durable records count as saved). */
#include "undo_writer_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Before the first mark after a commit: the runs as it left them. */
static errcode_t uw_snap(struct undo_writer *w)
{
	struct uw_run *r;
	size_t cap;

	if (w->snap_ok)
		return 0;
	if (w->snapcap < w->nruns) {
		cap = w->cap;
		r = realloc(w->snap, cap * sizeof(*r));
		if (!r)
			return w->g->err = ENOMEM;
		w->snap = r;
		w->snapcap = cap;
	}
	if (w->nruns)
		memcpy(w->snap, w->runs, w->nruns * sizeof(*r));
	w->nsnap = w->nruns;
	w->snap_ok = 1;
	return 0;
}

/* After a failure: only what a commit made durable counts as saved (the
 * marks since were never committed, and e2undo would not restore them). */
void uw_unsnap(struct undo_writer *w)
{
	if (!w->snap_ok)
		return;
	if (w->nsnap)
		memcpy(w->runs, w->snap, w->nsnap * sizeof(*w->runs));
	w->nruns = w->nsnap;
	w->snap_ok = 0;
}

/* Marks granules [a, a + n) saved (runs stay sorted and apart). */
errcode_t uw_mark(struct undo_writer *w, size_t i,
			 unsigned long long a, unsigned long long n)
{
	struct uw_run *r;

	if (uw_snap(w))
		return w->g->err;

	/* i: the first run ending at or after a */
	if (i > 0 && w->runs[i - 1].start + w->runs[i - 1].len == a) {
		w->runs[i - 1].len += n;
		if (i < w->nruns && w->runs[i].start == a + n) {
			w->runs[i - 1].len += w->runs[i].len;
			memmove(w->runs + i, w->runs + i + 1,
				(w->nruns - i - 1) * sizeof(*r));
			w->nruns--;
		}
		return 0;
	}
	if (i < w->nruns && w->runs[i].start == a + n) {
		w->runs[i].start = a;
		w->runs[i].len += n;
		return 0;
	}
	if (w->nruns == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;

		r = realloc(w->runs, cap * sizeof(*r));
		if (!r)
			return w->g->err = ENOMEM;
		w->runs = r;
		w->cap = cap;
	}
	memmove(w->runs + i + 1, w->runs + i, (w->nruns - i) * sizeof(*r));
	w->runs[i].start = a;
	w->runs[i].len = n;
	w->nruns++;
	return 0;
}

/* The first run that ends after granule a. */
size_t uw_find(const struct undo_writer *w, unsigned long long a)
{
	size_t lo = 0, hi = w->nruns, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (w->runs[mid].start + w->runs[mid].len <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Whether granules [a, b) are all saved. */
int uw_saved(const struct undo_writer *w, unsigned long long a,
		    unsigned long long b)
{
	size_t i = uw_find(w, a);

	return i < w->nruns && w->runs[i].start <= a &&
	       w->runs[i].start + w->runs[i].len >= b;
}
