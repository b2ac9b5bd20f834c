/* trace.c - the ext4 allocator tracepoints of one device: allocations with
 * their goals recorded in a private tracefs instance (instances/e2layout-
 * PID), read back and parsed; the totals and mark_inode_dirty per inode and
 * caller counted in the kernel (kcount.c), or from the stream without it. */
#include "trace.h"
#include "trace_count.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing", NULL
};

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

static const char *tracefs_root(void)
{
	char p[PATH_MAX];
	int i;

	for (i = 0; tracefs_dirs[i]; i++) {
		snprintf(p, sizeof(p), "%s/instances", tracefs_dirs[i]);
		if (!access(p, F_OK))
			return tracefs_dirs[i];
	}
	return NULL;
}

errcode_t trace_available(char *why, size_t len)
{
	const char *root;
	char p[PATH_MAX];
	int i;

	if (geteuid() != 0) {
		snprintf(why, len, "recording the allocator needs root (the "
			 "kernel's tracing is root-only)");
		return EPERM;
	}
	root = tracefs_root();
	if (!root) {
		snprintf(why, len, "tracefs is not mounted (mount -t tracefs "
			 "nodev /sys/kernel/tracing)");
		return ENOENT;
	}
	for (i = 0; events[i]; i++) {
		snprintf(p, sizeof(p), "%s/events/ext4/%s", root, events[i]);
		if (access(p, F_OK)) {
			snprintf(why, len, "the kernel has no ext4:%s "
				 "tracepoint (%s)", events[i], p);
			return ENOENT;
		}
	}
	return 0;
}

static errcode_t put(const char *dir, const char *file, const char *val)
{
	char p[PATH_MAX + 128];
	size_t n = strlen(val);
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, val, n) != (ssize_t)n) {
		int e = errno ? errno : EIO;

		close(fd);
		return e;
	}
	return close(fd) ? errno : 0;
}

/* Turns every event of the instance off (best effort). */
static void events_off(const char *dir)
{
	char f[128];
	int i;

	put(dir, "tracing_on", "0");
	for (i = 0; events[i]; i++) {
		snprintf(f, sizeof(f), "events/ext4/%s/enable", events[i]);
		put(dir, f, "0");
	}
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
	char f[128], filt[64], kb[32];
	errcode_t err;
	int i;

	memset(ts, 0, sizeof(*ts));
	err = trace_available(why, len);
	if (err)
		return err;
	root = tracefs_root();
	snprintf(ts->dir, sizeof(ts->dir), "%s/instances/e2layout-%ld", root,
		 (long)getpid());
	if (mkdir(ts->dir, 0700) && errno != EEXIST) {
		err = errno;
		snprintf(why, len, "cannot create the tracing instance %s: %s",
			 ts->dir, strerror(errno));
		return err;
	}
	ts->active = 1;
	put(ts->dir, "tracing_on", "0");
	snprintf(kb, sizeof(kb), "%u", opts && opts->buffer_kb ?
		 opts->buffer_kb : TRACE_BUFFER_KB);
	err = put(ts->dir, "buffer_size_kb", kb);	/* per CPU; ours */
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
		snprintf(f, sizeof(f), "events/ext4/%s/filter", events[i]);
		err = put(ts->dir, f, filt);
		if (!err) {
			snprintf(f, sizeof(f), "events/ext4/%s/enable",
				 events[i]);
			err = put(ts->dir, f, "1");
		}
		if (err) {
			snprintf(why, len, "cannot enable ext4:%s in %s: %s",
				 events[i], ts->dir, strerror(err));
			goto fail;
		}
	}
	return put(ts->dir, "tracing_on", "1");
fail:
	trace_counters_close(ts);
	events_off(ts->dir);
	rmdir(ts->dir);
	ts->active = 0;
	return err;
}

/* --- parsing --- */

static size_t dirty_hash(__u64 ino, __u64 ip, size_t mask)
{
	return (size_t)(((ino * 0x9E3779B97F4A7C15ULL) ^ ip) & mask);
}

/* The slot of (ino, ip) in the stream's table; caller (may be NULL) is
 * the name the stream printed, kept with a new slot. */
static struct trace_dirty *dirty_slot(struct trace_rec *r, __u64 ino,
				      __u64 ip, const char *caller)
{
	size_t i, mask;

	if ((r->ndirty + 1) * 2 > r->dcap) {
		size_t ncap = r->dcap ? r->dcap * 2 : 256, j;
		struct trace_dirty *nd = calloc(ncap, sizeof(*nd));

		if (!nd)
			return NULL;
		for (j = 0; j < r->dcap; j++) {
			if (!r->dirty[j].count)
				continue;
			i = dirty_hash(r->dirty[j].ino, r->dirty[j].ip,
				       ncap - 1);
			while (nd[i].count)
				i = (i + 1) & (ncap - 1);
			nd[i] = r->dirty[j];
		}
		free(r->dirty);
		r->dirty = nd;
		r->dcap = ncap;
	}
	mask = r->dcap - 1;
	i = dirty_hash(ino, ip, mask);
	while (r->dirty[i].count &&
	       (r->dirty[i].ino != ino || r->dirty[i].ip != ip))
		i = (i + 1) & mask;
	if (!r->dirty[i].count) {
		r->dirty[i].ino = ino;
		r->dirty[i].ip = ip;
		snprintf(r->dirty[i].caller, sizeof(r->dirty[i].caller), "%s",
			 caller ? caller : "");
		r->ndirty++;
	}
	return &r->dirty[i];
}

static void parse_line(struct trace_rec *r, const char *line,
		       struct trace_pending *pend, size_t *npend)
{
	const char *ev = strstr(line, ": ext4_"), *p;
	unsigned long long ino, block, goal;
	unsigned len, lblk, scanned;
	char cr[32];
	size_t i;

	if (!ev)
		return;
	ev += 2;
	p = strchr(ev, ':');
	if (!p)
		return;
	p += 2;
	if (!strncmp(ev, "ext4_mark_inode_dirty:", 22)) {
		struct trace_dirty *d;
		const char *c = strstr(p, " caller ");
		char name[TRACE_CALLER_LEN] = "";
		__u64 h = 0;

		if (sscanf(p, "dev %*d,%*d ino %llu", &ino) != 1)
			return;
		/* "caller ext4_dirty_inode+0x57/0x90": the function's name,
		 * keyed by its hash (the stream prints no address) */
		if (c && sscanf(c, " caller %47[^+ \n]", name) == 1)
			for (i = 0, h = 1469598103934665603ULL; name[i]; i++)
				h = (h ^ (unsigned char)name[i]) *
				    1099511628211ULL;
		r->dirty_events++;
		d = dirty_slot(r, ino, h, name[0] ? name : NULL);
		if (d)
			d->count++;
	} else if (!strncmp(ev, "ext4_request_blocks:", 20)) {
		r->requests++;
	} else if (!strncmp(ev, "ext4_mballoc_alloc:", 19) ||
		   !strncmp(ev, "ext4_mballoc_prealloc:", 22)) {
		int pre = ev[13] == 'p';
		const char *q;

		if (sscanf(p, "dev %*d,%*d inode %llu", &ino) != 1)
			return;
		pre ? r->prealloc++ : r->mballoc++;
		scanned = 0;
		cr[0] = 0;
		q = strstr(p, " grps ");
		if (q)
			sscanf(q, " grps %u cr %31s", &scanned, cr);
		for (i = 0; i < *npend && pend[i].ino != ino; i++)
			;
		if (i == *npend) {
			if (*npend == TRACE_PENDING)
				i = 0;	/* forget the oldest slot */
			else
				(*npend)++;
		}
		pend[i].ino = ino;
		pend[i].prealloc = pre;
		pend[i].scanned = scanned;
		snprintf(pend[i].cr, sizeof(pend[i].cr), "%s",
			 strncmp(cr, "CR_", 3) ? cr : cr + 3);
	} else if (!strncmp(ev, "ext4_allocate_blocks:", 21)) {
		struct trace_alloc *a;
		const char *q = strstr(p, " len ");

		const char *fl = strstr(p, " flags ");

		if (sscanf(p, "dev %*d,%*d ino %llu", &ino) != 1 || !q ||
		    sscanf(q, " len %u block %llu lblk %u goal %llu", &len,
			   &block, &lblk, &goal) != 4)
			return;
		if (r->nallocs == r->acap) {
			size_t ncap = r->acap ? r->acap * 2 : 64;
			struct trace_alloc *na = realloc(r->allocs,
						ncap * sizeof(*na));
			if (!na)
				return;
			r->allocs = na;
			r->acap = ncap;
		}
		a = &r->allocs[r->nallocs++];
		memset(a, 0, sizeof(*a));
		a->ino = ino;
		a->len = len;
		a->block = block;
		a->lblk = lblk;
		a->goal = goal;
		if (fl && fl < q) {
			const char *hd = strstr(fl, "HINT_DATA");

			a->data = hd && hd < q;
		}
		for (i = 0; i < *npend; i++) {
			if (pend[i].ino != ino)
				continue;
			a->mb = 1;
			a->prealloc = pend[i].prealloc;
			a->scanned = pend[i].scanned;
			memcpy(a->cr, pend[i].cr, sizeof(a->cr));
			pend[i] = pend[--(*npend)];
			break;
		}
	}
}

static int by_count(const void *x, const void *y)
{
	const struct trace_dirty *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

/* Events the ring buffer overwrote or dropped, over every CPU. */
static unsigned long lost_events(const char *dir)
{
	char p[PATH_MAX + 64], line[128];
	unsigned long total = 0, n;
	struct dirent *e;
	DIR *d;
	FILE *f;

	snprintf(p, sizeof(p), "%s/per_cpu", dir);
	d = opendir(p);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "cpu", 3))
			continue;
		snprintf(p, sizeof(p), "%s/per_cpu/%s/stats", dir, e->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %lu", &n) == 1 ||
			    sscanf(line, "dropped events: %lu", &n) == 1)
				total += n;
		fclose(f);
	}
	closedir(d);
	return total;
}

static int by_ino(const void *x, const void *y)
{
	const struct trace_inode *a = x, *b = y;

	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static int by_allocs_desc(const void *x, const void *y)
{
	const struct trace_inode *a = x, *b = y;

	if (a->allocs != b->allocs)
		return a->allocs < b->allocs ? 1 : -1;
	return by_ino(x, y);
}

/* Without kernel counters: the totals and the allocations by inode from
 * the allocations the stream holds. */
static void inodes_from_stream(struct trace_rec *r)
{
	size_t i, j;

	r->alloc_events = r->nallocs;
	r->alloc_blocks = 0;
	r->inodes = calloc(r->nallocs ? r->nallocs : 1, sizeof(*r->inodes));
	for (i = 0; i < r->nallocs; i++) {
		r->alloc_blocks += r->allocs[i].len;
		if (r->inodes)
			r->inodes[i] = (struct trace_inode){r->allocs[i].ino,
							     1,
							     r->allocs[i].len};
	}
	if (!r->inodes || !r->nallocs)
		return;
	qsort(r->inodes, r->nallocs, sizeof(*r->inodes), by_ino);
	for (i = j = 0; i < r->nallocs; i++) {
		if (j && r->inodes[j - 1].ino == r->inodes[i].ino) {
			r->inodes[j - 1].allocs++;
			r->inodes[j - 1].blocks += r->inodes[i].blocks;
		} else {
			r->inodes[j++] = r->inodes[i];
		}
	}
	r->ninodes = j;
	qsort(r->inodes, j, sizeof(*r->inodes), by_allocs_desc);
}

/* The end shared by trace_stop and trace_finish: the kernel's counts, the
 * losses, the instance removed, rec->dirty sorted. */
static errcode_t finish(struct trace_session *ts, struct trace_rec *r,
			errcode_t err)
{
	size_t i, j;

	r->lost = lost_events(ts->dir);
	events_off(ts->dir);
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
		inodes_from_stream(r);
		snprintf(r->why_uncounted, sizeof(r->why_uncounted), "%s",
			 ts->why_uncounted);
	}
	trace_counters_close(ts);
	/* compact the hash table and sort it */
	for (i = j = 0; i < r->dcap; i++)
		if (r->dirty[i].count)
			r->dirty[j++] = r->dirty[i];
	if (j)
		qsort(r->dirty, j, sizeof(*r->dirty), by_count);
	r->ndirty = j;
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
	put(ts->dir, "tracing_on", "0");
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
				parse_line(r, line, pend, &npend);
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
	put(ts->dir, "tracing_on", "0");
	do {
		before = r->nallocs + r->requests + r->mballoc + r->prealloc +
			 r->dirty_events;
		err = trace_poll(ts, r, 1 << 20);
	} while (!err && before != r->nallocs + r->requests + r->mballoc +
		 r->prealloc + r->dirty_events);
	return finish(ts, r, err);
}

/* Parses the complete lines of ts->line, keeping a partial last one. */
static void poll_lines(struct trace_session *ts, struct trace_rec *r)
{
	char *start = ts->line, *nl;
	size_t rest;

	while ((nl = memchr(start, '\n', ts->llen - (start - ts->line)))) {
		*nl = 0;
		parse_line(r, start, ts->pend, &ts->npend);
		start = nl + 1;
	}
	rest = ts->llen - (start - ts->line);
	if (rest == sizeof(ts->line) - 1)
		rest = 0;	/* a line longer than any event: drop it */
	memmove(ts->line, start, rest);
	ts->llen = rest;
}

errcode_t trace_poll(struct trace_session *ts, struct trace_rec *r,
		     size_t max_bytes)
{
	char p[PATH_MAX + 16];
	size_t total = 0;
	ssize_t n;

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
	while (total < max_bytes) {
		n = read(ts->pipe_fd, ts->line + ts->llen,
			 sizeof(ts->line) - 1 - ts->llen);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			return errno;
		}
		if (!n)
			break;
		total += (size_t)n;
		ts->llen += (size_t)n;
		ts->line[ts->llen] = 0;
		poll_lines(ts, r);
	}
	return 0;
}

void trace_rec_free(struct trace_rec *r)
{
	free(r->allocs);
	free(r->dirty);
	free(r->inodes);
	memset(r, 0, sizeof(*r));
}

dgrp_t trace_group(ext2_filsys fs, blk64_t blk)
{
	blk64_t first = fs->super->s_first_data_block;

	if (blk < first)
		return 0;
	return (dgrp_t)((blk - first) / EXT2_BLOCKS_PER_GROUP(fs->super));
}

dgrp_t trace_flex(ext2_filsys fs, dgrp_t group)
{
	if (!ext2fs_has_feature_flex_bg(fs->super))
		return group;
	return group >> fs->super->s_log_groups_per_flex;
}

void trace_summarize(ext2_filsys fs, const struct trace_rec *rec,
		     struct trace_summary *sum)
{
	dgrp_t ng = fs->group_desc_count, lastflex = (dgrp_t)~0U;
	double total = 0;
	size_t i;
	unsigned char *g = calloc(ng ? ng : 1, 1);

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < rec->nallocs; i++) {
		const struct trace_alloc *a = &rec->allocs[i];
		blk64_t d = a->block > a->goal ? a->block - a->goal
					       : a->goal - a->block;
		dgrp_t grp = trace_group(fs, a->block);

		sum->allocs++;
		sum->blocks += a->len;
		if (!d)
			sum->at_goal++;
		total += (double)d;
		if (d > sum->max_distance)
			sum->max_distance = d;
		if (g && grp < ng && !g[grp]) {
			g[grp] = 1;
			sum->groups++;
		}
	}
	if (sum->allocs)
		sum->mean_distance = total / (double)sum->allocs;
	for (i = 0; g && i < ng; i++) {
		dgrp_t fl = trace_flex(fs, (dgrp_t)i);

		if (g[i] && fl != lastflex) {
			sum->flexes++;
			lastflex = fl;
		}
	}
	free(g);
}
