/* undo_ahead.c - the presave of a plan's data steps run ahead of the apply
 * in a thread: the old contents of the spans saved in order and committed
 * every UW_AHEAD_STEP bytes, each commit publishing how far they are
 * durable, so that the apply's writes go on as soon as what they cover is
 * saved, while the rest is still being read and written. */
#include "undo_writer_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct uw_ahead {
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct undo_span *sp;		/* sorted, none overlapping */
	size_t n;
	/* under mu: every byte of the spans below it is saved and durable;
	 * the thread has finished; it is asked to stop at a commit */
	unsigned long long frontier;
	int done, stop;
	/* under mu: what the file held at the commit that published the
	 * frontier (a simulated power loss cuts it back to that, not to a
	 * commit made after the device write it follows) */
	unsigned long long pub_size, pub_keys, pub_key_blk;
	unsigned char pub_keyb[UW_BLK];
	/* the apply's side, under E2L_FAULT_DEV_WRITES only: the published
	 * state the last write let through relied on (let_ok), the one a
	 * power loss right after it is sure to leave */
	unsigned long long let_size, let_keys, let_key_blk;
	unsigned char let_keyb[UW_BLK];
	int let_ok;
	unsigned long long step;	/* bytes of spans per commit */
};

/* What the writer's last fdatasync left, as the published state. */
static void keep_durable(struct uw_ahead *a, const struct undo_writer *w)
{
	a->pub_size = w->dur_size;
	a->pub_keys = w->dur_keys;
	a->pub_key_blk = w->dur_key_blk;
	memcpy(a->pub_keyb, w->dur_keyb, UW_BLK);
}

/* Publishes how far the spans are durable (upto, after a commit: the
 * writer's durable state with it); 1 when asked to stop. */
static int publish(struct uw_ahead *a, const struct undo_writer *w,
		   unsigned long long upto, int done)
{
	int stop;

	pthread_mutex_lock(&a->mu);
	if (upto > a->frontier) {
		a->frontier = upto;
		keep_durable(a, w);
	}
	a->done |= done;
	stop = a->stop;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return stop;
}

static void *ahead_run(void *arg)
{
	struct undo_writer *w = arg;
	struct uw_ahead *a = w->ahead;
	unsigned long long o, e, end, since = 0, step;
	errcode_t err = 0;
	int added = 0, stop = 0;
	size_t i;

	/* the first commits come sooner (1/8 of a step, then doubling),
	 * so that the apply's first write waits for little */
	step = a->step / 8 >= 4096 ? a->step / 8 : a->step;
	for (i = 0; i < a->n && !err && !stop; i++) {
		end = a->sp[i].off + a->sp[i].len;
		for (o = a->sp[i].off; o < end && !err && !stop; o = e) {
			e = end - o < step - since ? end : o + (step - since);
			err = uw_save_range(w, o, e - o, &added);
			since += e - o;
			if (err || since < step)
				continue;
			if (step < a->step)
				step = step < a->step / 2 ? step * 2 : a->step;
			if (added)
				err = uw_commit(w);
			if (!err)
				stop = publish(a, w, e, 0);
			since = 0;
			added = 0;
		}
	}
	if (!err && !stop && added)
		err = uw_commit(w);
	/* all saved: every write may go on (an error: what was committed) */
	publish(a, w, !err && !stop ? ~0ULL : 0, 1);
	return NULL;
}

/* The spans sorted, overlapping ones made one (adjacent ones stay two: a
 * write lies inside one step's span, and each keeps keys of its own, as
 * undo_guard_presave makes them), empty ones dropped: in a new array, *np
 * of them. */
static struct undo_span *merge(struct undo_span *sp, size_t n, size_t *np)
{
	struct undo_span *m = malloc((n ? n : 1) * sizeof(*m));
	size_t i, k = 0;

	if (!m)
		return NULL;
	qsort(sp, n, sizeof(*sp), uw_cmp_span);
	for (i = 0; i < n; i++) {
		if (!sp[i].len)
			continue;
		if (k && sp[i].off < m[k - 1].off + m[k - 1].len) {
			if (sp[i].off + sp[i].len > m[k - 1].off + m[k - 1].len)
				m[k - 1].len = sp[i].off + sp[i].len -
					       m[k - 1].off;
			continue;
		}
		m[k++] = sp[i];
	}
	*np = k;
	return m;
}

errcode_t uw_ahead_start(struct undo_writer *w, struct undo_span *sp,
			 size_t n)
{
	struct uw_ahead *a;
	const char *ev;
	errcode_t err;

	uw_ahead_join(w);
	err = uw_start(w);
	if (err)
		return err;
	/* E2L_UNDO_NO_AHEAD=1 (tests that judge one thread's order): the
	 * presave in the apply's thread, all of it before the first write */
	ev = getenv("E2L_UNDO_NO_AHEAD");
	if (ev && *ev == '1')
		return EAGAIN;
	a = calloc(1, sizeof(*a));
	if (!a)
		return ENOMEM;
	a->sp = merge(sp, n, &a->n);
	if (!a->sp) {
		free(a);
		return ENOMEM;
	}
	if (!a->n) {
		free(a->sp);
		free(a);
		return 0;
	}
	/* E2L_UNDO_AHEAD_STEP=BYTES (tests): commits that close together,
	 * so that a small plan has many of them */
	ev = getenv("E2L_UNDO_AHEAD_STEP");
	a->step = ev && *ev ? strtoull(ev, NULL, 10) : 0;
	if (a->step < 4096 || a->step > UW_AHEAD_STEP)
		a->step = UW_AHEAD_STEP;
	keep_durable(a, w);
	pthread_mutex_init(&a->mu, NULL);
	pthread_cond_init(&a->cv, NULL);
	w->ahead = a;
	err = pthread_create(&a->tid, NULL, ahead_run, w);
	if (err) {
		/* no thread: the same presave, here and now */
		w->ahead = NULL;
		pthread_cond_destroy(&a->cv);
		pthread_mutex_destroy(&a->mu);
		free(a->sp);
		free(a);
		return EAGAIN;
	}
	return 0;
}

/* Whether bytes [off, off + len) lie inside one of the spans. */
static int covered(const struct uw_ahead *a, unsigned long long off,
		   unsigned long long len)
{
	size_t lo = 0, hi = a->n, mid;

	/* the last span starting at or before off */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (a->sp[mid].off <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && off + len <= a->sp[lo - 1].off + a->sp[lo - 1].len;
}

int uw_ahead_wait(struct undo_writer *w, unsigned long long off,
		  unsigned long long len)
{
	struct uw_ahead *a = w->ahead;
	int ok;

	if (!a)
		return 0;
	if (!len || !covered(a, off, len)) {
		uw_ahead_join(w);
		return 0;
	}
	pthread_mutex_lock(&a->mu);
	while (a->frontier < off + len && !a->done)
		pthread_cond_wait(&a->cv, &a->mu);
	ok = a->frontier >= off + len;
	if (ok && w->dev_left > 0) {
		a->let_size = a->pub_size;
		a->let_keys = a->pub_keys;
		a->let_key_blk = a->pub_key_blk;
		memcpy(a->let_keyb, a->pub_keyb, UW_BLK);
		a->let_ok = 1;
	}
	pthread_mutex_unlock(&a->mu);
	if (!ok)
		uw_ahead_join(w);
	return ok;
}

void uw_ahead_join(struct undo_writer *w)
{
	struct uw_ahead *a = w ? w->ahead : NULL;

	if (!a)
		return;
	pthread_join(a->tid, NULL);
	w->ahead = NULL;
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	free(a->sp);
	free(a);
}

void uw_ahead_stop(struct undo_writer *w)
{
	struct uw_ahead *a = w ? w->ahead : NULL;
	unsigned long long size, keys, key_blk;
	unsigned char keyb[UW_BLK];

	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->stop = 1;
	if (!a->let_ok) {	/* no write went by the published state */
		a->let_size = a->pub_size;
		a->let_keys = a->pub_keys;
		a->let_key_blk = a->pub_key_blk;
		memcpy(a->let_keyb, a->pub_keyb, UW_BLK);
	}
	size = a->let_size;
	keys = a->let_keys;
	key_blk = a->let_key_blk;
	memcpy(keyb, a->let_keyb, UW_BLK);
	pthread_mutex_unlock(&a->mu);
	uw_ahead_join(w);
	/* the durable state is the one the writes were let through on */
	w->dur_size = size;
	w->dur_keys = keys;
	w->dur_key_blk = key_blk;
	memcpy(w->dur_keyb, keyb, UW_BLK);
}
