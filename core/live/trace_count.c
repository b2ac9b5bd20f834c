/* trace_count.c - the exact half of a recording: the kernel counters
 * (kcount.h) of the ext4 allocator tracepoints, attached all or none, and
 * their tables turned into a trace_rec's totals, inodes and dirtiers. */
#include "trace.h"
#include "trace_count.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kernel counters, in enum TC_* order. */
static const struct {
	const char *event;
	const char *keys[2];
	int nkeys;
	const char *sum;
	unsigned max;
} counters[TC_N] = {
	{ "ext4/ext4_mark_inode_dirty", { "ino", "ip" }, 2, NULL, 65536 },
	{ "ext4/ext4_allocate_blocks", { "ino" }, 1, "len", 65536 },
	{ "ext4/ext4_request_blocks", { NULL }, 0, NULL, 1 },
	{ "ext4/ext4_mballoc_alloc", { NULL }, 0, NULL, 1 },
	{ "ext4/ext4_mballoc_prealloc", { NULL }, 0, NULL, 1 },
};

/* Attaches every kernel counter, or none (ts->why_uncounted says why). */
void trace_counters_open(struct trace_session *ts, const char *root,
			 __u64 kdev)
{
	int i, j;

	for (i = 0; i < TC_N; i++)
		kcount_init(&ts->kc[i]);
	if (kcount_available(ts->why_uncounted, sizeof(ts->why_uncounted)))
		return;
	for (i = 0; i < TC_N; i++) {
		if (kcount_open(&ts->kc[i], root, counters[i].event, kdev,
				counters[i].keys, counters[i].nkeys,
				counters[i].sum, counters[i].max,
				ts->why_uncounted,
				sizeof(ts->why_uncounted))) {
			for (j = 0; j < i; j++)
				kcount_close(&ts->kc[j]);
			return;
		}
	}
	ts->counting = 1;
}

void trace_counters_close(struct trace_session *ts)
{
	int i;

	for (i = 0; ts->counting && i < TC_N; i++)
		kcount_close(&ts->kc[i]);
	ts->counting = 0;
}

static int by_allocs(const void *x, const void *y)
{
	const struct trace_inode *a = x, *b = y;

	if (a->allocs != b->allocs)
		return a->allocs < b->allocs ? 1 : -1;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

errcode_t trace_counters_read(struct trace_session *ts, struct trace_rec *r)
{
	struct kcount_row *rows[TC_N] = { NULL };
	size_t n[TC_N] = { 0 }, i;
	__u64 drop, dropped = 0;
	errcode_t err = 0;
	int c;

	for (c = 0; c < TC_N && !err; c++) {
		err = kcount_read(&ts->kc[c], &rows[c], &n[c], &drop);
		dropped += drop;
	}
	if (err)
		goto out;
	free(r->dirty);
	r->dirty = calloc(n[TC_DIRTY] ? n[TC_DIRTY] : 1, sizeof(*r->dirty));
	r->inodes = calloc(n[TC_ALLOC] ? n[TC_ALLOC] : 1, sizeof(*r->inodes));
	if (!r->dirty || !r->inodes) {
		err = ENOMEM;
		goto out;
	}
	r->ndirty = r->dcap = n[TC_DIRTY];
	r->dirty_events = 0;
	for (i = 0; i < n[TC_DIRTY]; i++) {
		r->dirty[i].ino = rows[TC_DIRTY][i].key[0];
		r->dirty[i].ip = rows[TC_DIRTY][i].key[1];
		r->dirty[i].count = rows[TC_DIRTY][i].hits;
		r->dirty_events += rows[TC_DIRTY][i].hits;
	}
	r->ninodes = n[TC_ALLOC];
	r->alloc_events = 0;
	r->alloc_blocks = 0;
	for (i = 0; i < n[TC_ALLOC]; i++) {
		r->inodes[i].ino = rows[TC_ALLOC][i].key[0];
		r->inodes[i].allocs = rows[TC_ALLOC][i].hits;
		r->inodes[i].blocks = rows[TC_ALLOC][i].sum;
		r->alloc_events += rows[TC_ALLOC][i].hits;
		r->alloc_blocks += rows[TC_ALLOC][i].sum;
	}
	if (r->ninodes)
		qsort(r->inodes, r->ninodes, sizeof(*r->inodes), by_allocs);
	r->requests = n[TC_REQUEST] ? rows[TC_REQUEST][0].hits : 0;
	r->mballoc = n[TC_MBALLOC] ? rows[TC_MBALLOC][0].hits : 0;
	r->prealloc = n[TC_PREALLOC] ? rows[TC_PREALLOC][0].hits : 0;
	r->dropped = dropped;
	r->counted = 1;
out:
	for (c = 0; c < TC_N; c++)
		free(rows[c]);
	return err;
}

