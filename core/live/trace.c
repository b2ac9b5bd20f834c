/* trace.c - recording the ext4 allocator of one device: the private tracefs
 * instance (instances/e2layout-PID) set up with its events and the kernel
 * counters (kcount.c), read back as it happens or at the end, and removed;
 * decoding the stream is trace_parse.c's. */
#include "trace.h"
#include "trace_count.h"
#include "trace_fs.h"
#include "trace_parse.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const events[] = {
	"ext4_mballoc_alloc", "ext4_mballoc_prealloc", "ext4_request_blocks",
	"ext4_allocate_blocks", "ext4_mark_inode_dirty", NULL
};

/* Counted in the kernel when it can: then left out of the stream. */
static int counted_event(const char *ev)
{
	return !strcmp(ev, "ext4_mark_inode_dirty") ||
	       !strcmp(ev, "ext4_request_blocks");
}
errcode_t trace_available(char *why, size_t len)
{
	const char *root;

	return trace_fs_ready("recording the allocator", "ext4", events, &root,
			      why, len);
}

errcode_t trace_start(struct trace_session *ts, __u64 kdev, char *why,
		      size_t len)
{
	return trace_start_opts(ts, kdev, NULL, why, len);
}

errcode_t trace_start_opts(struct trace_session *ts, __u64 kdev,
			   const struct trace_opts *opts, char *why,
			   size_t len)
{
	const char *root;
	char filt[64], kb[32];
	errcode_t err;
	int i;

	memset(ts, 0, sizeof(*ts));
	err = trace_fs_ready("recording the allocator", "ext4", events, &root,
			     why, len);
	if (err)
		return err;
	snprintf(ts->dir, sizeof(ts->dir), "%s/instances/e2layout-%ld", root,
		 (long)getpid());
	err = trace_instance_make(ts->dir, why, len);
	if (err)
		return err;
	ts->active = 1;
	trace_put(ts->dir, "tracing_on", "0");
	snprintf(kb, sizeof(kb), "%u", opts && opts->buffer_kb ?
		 opts->buffer_kb : TRACE_BUFFER_KB);
	err = trace_put(ts->dir, "buffer_size_kb", kb);	/* per CPU; ours */
	if (err) {
		snprintf(why, len, "cannot set a %s KiB trace buffer in %s: %s",
			 kb, ts->dir, strerror(err));
		goto fail;
	}
	if (!opts || !opts->no_counters)
		trace_counters_open(ts, root, kdev);
	else
		snprintf(ts->why_uncounted, sizeof(ts->why_uncounted),
			 "--from-stream asked for the event stream alone");
	snprintf(filt, sizeof(filt), "dev == %llu", (unsigned long long)kdev);
	for (i = 0; events[i]; i++) {
		if (ts->counting && counted_event(events[i]))
			continue;
		err = trace_event_on(ts->dir, "ext4", events[i], filt, why,
				     len);
		if (err)
			goto fail;
	}
	return trace_put(ts->dir, "tracing_on", "1");
fail:
	trace_counters_close(ts);
	trace_events_off(ts->dir, "ext4", events);
	rmdir(ts->dir);
	ts->active = 0;
	return err;
}

/* The end shared by trace_stop and trace_finish: the kernel's counts, the
 * losses, the instance removed, rec->dirty sorted. */
static errcode_t finish(struct trace_session *ts, struct trace_rec *r,
			errcode_t err)
{
	r->lost = trace_lost_events(ts->dir);
	trace_events_off(ts->dir, "ext4", events);
	if (ts->pipe_open) {
		close(ts->pipe_fd);
		ts->pipe_open = 0;
	}
	if (rmdir(ts->dir) && !err)
		err = errno;
	ts->active = 0;
	if (ts->counting) {
		errcode_t e = trace_counters_read(ts, r);

		if (e && !err)
			err = e;
	} else {
		trace_inodes_from_stream(r);
		snprintf(r->why_uncounted, sizeof(r->why_uncounted), "%s",
			 ts->why_uncounted);
	}
	trace_counters_close(ts);
	trace_dirty_sort(r);
	return err;
}

errcode_t trace_stop(struct trace_session *ts, struct trace_rec *r)
{
	char p[PATH_MAX + 16];
	struct trace_pending pend[TRACE_PENDING];
	size_t npend = 0;
	char *line = NULL;
	size_t cap = 0;
	errcode_t err = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	if (!ts->active)
		return EINVAL;
	trace_put(ts->dir, "tracing_on", "0");
	if (ts->pipe_open) {
		close(ts->pipe_fd);
		ts->pipe_open = 0;
	}
	snprintf(p, sizeof(p), "%s/trace", ts->dir);
	f = fopen(p, "r");
	if (!f) {
		err = errno;
	} else {
		while (getline(&line, &cap, f) > 0)
			if (line[0] != '#')
				trace_parse_line(r, line, pend, &npend);
		free(line);
		fclose(f);
	}
	return finish(ts, r, err);
}

errcode_t trace_finish(struct trace_session *ts, struct trace_rec *r)
{
	size_t before;
	errcode_t err = 0;

	if (!ts->active)
		return EINVAL;
	trace_put(ts->dir, "tracing_on", "0");
	do {
		before = r->nallocs + r->requests + r->mballoc + r->prealloc +
			 r->dirty_events;
		err = trace_poll(ts, r, 1 << 20);
	} while (!err && before != r->nallocs + r->requests + r->mballoc +
		 r->prealloc + r->dirty_events);
	return finish(ts, r, err);
}

struct poll_arg {
	struct trace_session *ts;
	struct trace_rec *r;
};

static void poll_line(char *line, void *arg)
{
	struct poll_arg *a = arg;

	trace_parse_line(a->r, line, a->ts->pend, &a->ts->npend);
}

errcode_t trace_poll(struct trace_session *ts, struct trace_rec *r,
		     size_t max_bytes)
{
	struct poll_arg a = { ts, r };
	char p[PATH_MAX + 16];

	if (!ts->active)
		return EINVAL;
	if (!ts->pipe_open) {
		snprintf(p, sizeof(p), "%s/trace_pipe", ts->dir);
		ts->pipe_fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (ts->pipe_fd < 0)
			return errno;
		ts->pipe_open = 1;
		ts->llen = 0;
	}
	return trace_pipe_read(ts->pipe_fd, ts->line, sizeof(ts->line),
			       &ts->llen, max_bytes, poll_line, &a);
}

void trace_rec_free(struct trace_rec *r)
{
	free(r->allocs);
	free(r->dirty);
	free(r->inodes);
	memset(r, 0, sizeof(*r));
}
