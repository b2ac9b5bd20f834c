/* io_trace.c - the block requests of one device streamed from the block
 * layer's tracepoints (io_trace.h): the instance set up and removed, its
 * trace_pipe read without blocking, each request decoded onto blocks. */
#include "io_trace.h"
#include "trace_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IO_BUFFER_KB	"2048"

static const char *const io_events[] = {
	"block_rq_issue", "block_rq_complete", NULL
};

/* A partition's disk and first sector, from sysfs; a disk is its own. */
static void whole_disk(__u64 kdev, __u64 *disk, unsigned long long *start)
{
	char p[128], buf[64];
	unsigned maj, min;
	FILE *f;

	*disk = kdev;
	*start = 0;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/start",
		 (unsigned)(kdev >> 20), (unsigned)(kdev & 0xfffff));
	f = fopen(p, "r");
	if (!f)
		return;
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu", start) != 1)
		*start = 0;
	fclose(f);
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../dev",
		 (unsigned)(kdev >> 20), (unsigned)(kdev & 0xfffff));
	f = fopen(p, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && sscanf(buf, "%u:%u", &maj, &min) == 2)
		*disk = ((__u64)maj << 20) | min;
	fclose(f);
}

static void events_off(const char *dir)
{
	char f[96];
	int i;

	trace_put(dir, "tracing_on", "0");
	for (i = 0; io_events[i]; i++) {
		snprintf(f, sizeof(f), "events/block/%s/enable", io_events[i]);
		trace_put(dir, f, "0");
	}
}

errcode_t io_trace_start(struct io_trace *it, __u64 kdev, unsigned blocksize,
			 char *why, size_t len)
{
	const char *root;
	char p[PATH_MAX + 96], f[96], filt[64];
	errcode_t err;
	int i;

	memset(it, 0, sizeof(*it));
	it->fd = -1;
	if (geteuid() != 0) {
		snprintf(why, len, "watching block I/O needs root (the "
			 "kernel's tracing is root-only)");
		return EPERM;
	}
	root = trace_tracefs_root();
	if (!root) {
		snprintf(why, len, "tracefs is not mounted (mount -t tracefs "
			 "nodev /sys/kernel/tracing)");
		return ENOENT;
	}
	for (i = 0; io_events[i]; i++) {
		snprintf(p, sizeof(p), "%s/events/block/%s", root,
			 io_events[i]);
		if (access(p, F_OK)) {
			snprintf(why, len, "the kernel has no block:%s "
				 "tracepoint (%s)", io_events[i], p);
			return ENOENT;
		}
	}
	if (blocksize < 512 || blocksize % 512) {
		snprintf(why, len, "a block size of %u is not whole sectors",
			 blocksize);
		return EINVAL;
	}
	it->sect_per_blk = blocksize / 512;
	whole_disk(kdev, &it->kdev, &it->start);
	snprintf(it->dir, sizeof(it->dir), "%s/instances/e2layout-io-%ld",
		 root, (long)getpid());
	if (mkdir(it->dir, 0700) && errno != EEXIST) {
		err = errno;
		snprintf(why, len, "cannot create the tracing instance %s: %s",
			 it->dir, strerror(err));
		it->dir[0] = 0;
		return err;
	}
	trace_put(it->dir, "tracing_on", "0");
	err = trace_put(it->dir, "buffer_size_kb", IO_BUFFER_KB);
	if (err) {
		snprintf(why, len, "cannot size the trace buffer of %s: %s",
			 it->dir, strerror(err));
		goto fail;
	}
	snprintf(filt, sizeof(filt), "dev == %llu",
		 (unsigned long long)it->kdev);
	for (i = 0; io_events[i]; i++) {
		snprintf(f, sizeof(f), "events/block/%s/filter", io_events[i]);
		err = trace_put(it->dir, f, filt);
		if (!err) {
			snprintf(f, sizeof(f), "events/block/%s/enable",
				 io_events[i]);
			err = trace_put(it->dir, f, "1");
		}
		if (err) {
			snprintf(why, len, "cannot enable block:%s in %s: %s",
				 io_events[i], it->dir, strerror(err));
			goto fail;
		}
	}
	snprintf(p, sizeof(p), "%s/trace_pipe", it->dir);
	it->fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (it->fd < 0) {
		err = errno;
		snprintf(why, len, "cannot open %s: %s", p, strerror(err));
		goto fail;
	}
	err = trace_put(it->dir, "tracing_on", "1");
	if (err) {
		snprintf(why, len, "cannot start tracing in %s: %s", it->dir,
			 strerror(err));
		goto fail;
	}
	return 0;
fail:
	io_trace_stop(it);
	return err;
}

int io_trace_line(struct io_trace *it, const char *line, struct io_heat *h,
		  double now)
{
	const char *p = strstr(line, ": block_rq_");
	unsigned maj, min, nr;
	unsigned long long sector, blk;
	char rwbs[16];
	int complete, write;

	if (!p)
		return 0;
	p += strlen(": block_rq_");
	if (!strncmp(p, "issue: ", 7))
		complete = 0;
	else if (!strncmp(p, "complete: ", 10))
		complete = 1;
	else
		return 0;
	p = strchr(p, ' ');
	if (sscanf(p, " %u,%u %15s", &maj, &min, rwbs) != 3 ||
	    (((__u64)maj << 20) | min) != it->kdev)
		return 0;
	/* "... (CMD) SECTOR + NR ...": the command may be empty */
	p = strstr(p, ") ");
	if (!p || sscanf(p + 2, "%llu + %u", &sector, &nr) != 2 || !nr)
		return 0;
	if (strchr(rwbs, 'W'))
		write = 1;
	else if (strchr(rwbs, 'R'))
		write = 0;
	else
		return 0;	/* a flush or a discard: no data */
	if (complete)
		it->completed++;
	else
		it->issued++;
	if (sector < it->start)
		return 1;	/* before the filesystem (another partition) */
	sector -= it->start;
	blk = sector / it->sect_per_blk;
	io_heat_add(h, blk, (sector + nr - 1) / it->sect_per_blk - blk + 1,
		    write, now);
	return 1;
}

errcode_t io_trace_poll(struct io_trace *it, struct io_heat *h, double now,
			size_t max_bytes)
{
	size_t total = 0, rest;
	char *start, *nl;
	ssize_t n;

	if (it->fd < 0)
		return EINVAL;
	while (total < max_bytes) {
		n = read(it->fd, it->line + it->llen,
			 sizeof(it->line) - 1 - it->llen);
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
		it->llen += (size_t)n;
		it->line[it->llen] = 0;
		start = it->line;
		while ((nl = memchr(start, '\n',
				    it->llen - (size_t)(start - it->line)))) {
			*nl = 0;
			io_trace_line(it, start, h, now);
			start = nl + 1;
		}
		rest = it->llen - (size_t)(start - it->line);
		if (rest == sizeof(it->line) - 1)
			rest = 0;	/* longer than any event: drop it */
		memmove(it->line, start, rest);
		it->llen = rest;
	}
	return 0;
}

errcode_t io_trace_stop(struct io_trace *it)
{
	errcode_t err = 0;

	if (it->fd >= 0) {
		close(it->fd);
		it->fd = -1;
	}
	if (!it->dir[0])
		return 0;
	events_off(it->dir);
	if (rmdir(it->dir))
		err = errno;
	it->dir[0] = 0;
	return err;
}
