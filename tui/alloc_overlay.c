/* alloc_overlay.c - live mode's allocation overlay: `a` records the kernel's
 * block allocations on the mounted device (core/live/trace.c, a private tracefs
 * instance), polled from the idle loop; every allocated range lights up on
 * the maps, the latest ones brighter, and the status line names the last. */
#include "tui_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "live.h"
#include "trace.h"

#define ALLOC_POLL_SECONDS	0.2
#define ALLOC_RECENT_SECONDS	3.0
#define ALLOC_RECENT		8	/* at most this many shown bright */
#define ALLOC_POLL_BYTES	(1 << 20)

struct tui_alloc {
	struct trace_session ts;
	struct trace_rec rec;	/* every allocation recorded */
	size_t seen;		/* of rec.allocs, merged into ranges */
	struct tui_range *ranges;	/* sorted, merged */
	size_t nranges, rcap;
	struct {
		blk64_t start, len;
		double at;
	} recent[ALLOC_RECENT];	/* a ring, newest at (rhead - 1) */
	unsigned rhead, nrecent;
	blk64_t blocks;
	double last_poll, started;
	double last_poll_drawn;	/* the whole seconds last drawn */
	int bright;		/* something is drawn bright */
	char err[160];		/* a failed poll, shown once */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int range_cmp(const void *a, const void *b)
{
	const struct tui_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Adds the allocations not yet seen to the merged ranges and the ring. */
static void merge_new(struct tui_alloc *al)
{
	size_t i, j, n = al->rec.nallocs - al->seen;
	double now = now_s();

	if (!n)
		return;
	if (al->nranges + n > al->rcap) {
		size_t ncap = (al->nranges + n) * 2;
		struct tui_range *nr = realloc(al->ranges, ncap * sizeof(*nr));

		if (!nr)
			return;
		al->ranges = nr;
		al->rcap = ncap;
	}
	for (i = al->seen; i < al->rec.nallocs; i++) {
		const struct trace_alloc *a = &al->rec.allocs[i];
		unsigned k = al->rhead % ALLOC_RECENT;

		al->ranges[al->nranges].start = a->block;
		al->ranges[al->nranges].len = a->len;
		al->nranges++;
		al->blocks += a->len;
		al->recent[k].start = a->block;
		al->recent[k].len = a->len;
		al->recent[k].at = now;
		al->rhead++;
		if (al->nrecent < ALLOC_RECENT)
			al->nrecent++;
	}
	al->seen = al->rec.nallocs;
	qsort(al->ranges, al->nranges, sizeof(*al->ranges), range_cmp);
	for (i = j = 0; i < al->nranges; i++) {
		struct tui_range *p = j ? &al->ranges[j - 1] : NULL;
		const struct tui_range *r = &al->ranges[i];

		if (p && r->start <= p->start + p->len) {
			if (r->start + r->len > p->start + p->len)
				p->len = r->start + r->len - p->start;
		} else {
			al->ranges[j++] = *r;
		}
	}
	al->nranges = j;
}

static void alloc_free(struct tui *t)
{
	struct tui_alloc *al = t->alloc;

	if (!al)
		return;
	trace_rec_free(&al->rec);
	free(al->ranges);
	free(al);
	t->alloc = NULL;
	tui_signals_release();
}

/* Ends the recording and removes the tracing instance; 0 or an errno. */
static errcode_t alloc_end(struct tui *t, struct trace_rec *last)
{
	struct tui_alloc *al = t->alloc;
	errcode_t err;

	trace_poll(&al->ts, &al->rec, ALLOC_POLL_BYTES);
	merge_new(al);
	err = trace_stop(&al->ts, last);
	trace_rec_free(last);
	return err;
}

void tui_alloc_toggle(struct tui *t)
{
	struct tui_alloc *al = t->alloc;
	struct trace_rec last;
	char why[512];
	errcode_t err;

	if (al) {
		size_t n = al->rec.nallocs;
		blk64_t b;

		err = alloc_end(t, &last);
		b = al->blocks;
		alloc_free(t);
		t->gen++;
		if (err)
			tui_message(t, 1, "allocation recording stopped, but "
				    "removing the tracing instance failed: %s",
				    error_message(err));
		else
			tui_message(t, 0, "allocation recording stopped: %zu "
				    "allocation(s), %llu block(s)", n,
				    (unsigned long long)b);
		return;
	}
	if (!t->s->live) {
		tui_message(t, 1, "not live: allocations can be recorded only "
			    "on a mounted ext4 (e2layout /mount/point)");
		return;
	}
	al = calloc(1, sizeof(*al));
	if (!al) {
		tui_message(t, 1, "allocation recording: out of memory");
		return;
	}
	why[0] = 0;
	err = trace_start(&al->ts, t->s->live->kdev, why, sizeof(why));
	if (err) {
		free(al);
		tui_message(t, 1, "cannot record allocations: %s",
			    *why ? why : error_message(err));
		return;
	}
	t->alloc = al;
	tui_signals_catch();
	al->started = al->last_poll = now_s();
	t->gen++;
	tui_message(t, 0, "recording allocations on %s (a stops); they "
		    "light up on the maps", t->s->live->source);
}

int tui_alloc_idle(struct tui *t)
{
	struct tui_alloc *al = t->alloc;
	size_t before;
	double now;
	int dirty = 0, bright;
	unsigned i;
	errcode_t err;

	if (!al)
		return 0;
	if (tui_signal_pending()) {
		t->quit = 1;	/* tui_alloc_quit removes the instance */
		return 0;
	}
	now = now_s();
	if (now - al->last_poll < ALLOC_POLL_SECONDS)
		return 0;
	al->last_poll = now;
	before = al->rec.nallocs;
	err = trace_poll(&al->ts, &al->rec, ALLOC_POLL_BYTES);
	if (err && !al->err[0]) {
		snprintf(al->err, sizeof(al->err), "%s", error_message(err));
		tui_message(t, 1, "reading the allocation trace: %s", al->err);
		dirty = 1;
	}
	if (al->rec.nallocs != before) {
		merge_new(al);
		dirty = 1;
	}
	/* Redraw every second (the recording's age) and when a bright
	 * range fades. */
	if ((long)(now - al->started) != (long)(al->last_poll_drawn)) {
		al->last_poll_drawn = (double)(long)(now - al->started);
		dirty = 1;
	}
	for (i = bright = 0; i < al->nrecent; i++)
		if (now - al->recent[i].at < ALLOC_RECENT_SECONDS)
			bright = 1;
	if (bright != al->bright)
		dirty = 1;
	al->bright = bright;
	return dirty;
}

int tui_alloc_recording(const struct tui *t)
{
	return t->alloc != NULL;
}

int tui_alloc_cell(const struct tui *t, blk64_t first, blk64_t count)
{
	const struct tui_alloc *al = t->alloc;
	size_t lo = 0, hi, mid;
	double now;
	unsigned i;

	if (!al || !al->nranges)
		return 0;
	hi = al->nranges;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (al->ranges[mid].start + al->ranges[mid].len <= first)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == al->nranges || al->ranges[lo].start >= first + count)
		return 0;
	if (!al->bright)
		return 1;
	now = now_s();
	for (i = 0; i < al->nrecent; i++)
		if (now - al->recent[i].at < ALLOC_RECENT_SECONDS &&
		    al->recent[i].start < first + count &&
		    al->recent[i].start + al->recent[i].len > first)
			return 2;
	return 1;
}

int tui_alloc_status(const struct tui *t, char *buf, size_t len)
{
	const struct tui_alloc *al = t->alloc;
	const struct trace_alloc *a;

	if (!al)
		return 0;
	if (!al->rec.nallocs) {
		snprintf(buf, len, "ALLOC rec %.0f s: no allocation yet (a "
			 "stops)", now_s() - al->started);
		return 1;
	}
	a = &al->rec.allocs[al->rec.nallocs - 1];
	snprintf(buf, len, "ALLOC %zu (%llu blocks)  last: <%llu> lblk %u "
		 "goal %llu got %llu-%llu (%u) distance %+lld",
		 al->rec.nallocs, (unsigned long long)al->blocks,
		 (unsigned long long)a->ino, a->lblk,
		 (unsigned long long)a->goal, (unsigned long long)a->block,
		 (unsigned long long)(a->block + a->len - 1), a->len,
		 (long long)(a->block - a->goal));
	return 1;
}

void tui_alloc_quit(struct tui *t)
{
	struct trace_rec last;

	if (!t->alloc)
		return;
	alloc_end(t, &last);
	alloc_free(t);
}
