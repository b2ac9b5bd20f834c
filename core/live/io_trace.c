/* io_trace.c - the block requests of one device streamed from the block
 * layer's tracepoints (io_trace.h): the instance set up and removed, its
 * trace_pipe read without blocking, each request decoded onto blocks. */
#include "io_trace.h"
#include "trace_fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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

errcode_t io_trace_start(struct io_trace *it, __u64 kdev, unsigned blocksize,
			 char *why, size_t len)
{
	const char *root;
	char p[PATH_MAX + 96], filt[64];
	errcode_t err;
	int i;

	memset(it, 0, sizeof(*it));
	it->fd = -1;
	err = trace_fs_ready("watching block I/O", "block", io_events, &root,
			     why, len);
	if (err)
		return err;
	if (blocksize < 512 || blocksize % 512) {
		snprintf(why, len, "a block size of %u is not whole sectors",
			 blocksize);
		return EINVAL;
	}
	it->sect_per_blk = blocksize / 512;
	whole_disk(kdev, &it->kdev, &it->start);
	snprintf(it->dir, sizeof(it->dir), "%s/instances/e2layout-io-%ld",
		 root, (long)getpid());
	err = trace_instance_make(it->dir, why, len);
	if (err) {
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
		err = trace_event_on(it->dir, "block", io_events[i], filt, why,
				     len);
		if (err)
			goto fail;
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

struct poll_arg {
	struct io_trace *it;
	struct io_heat *h;
	double now;
};

static void poll_line(char *line, void *arg)
{
	struct poll_arg *a = arg;

	io_trace_line(a->it, line, a->h, a->now);
}

errcode_t io_trace_poll(struct io_trace *it, struct io_heat *h, double now,
			size_t max_bytes)
{
	struct poll_arg a = { it, h, now };

	if (it->fd < 0)
		return EINVAL;
	return trace_pipe_read(it->fd, it->line, sizeof(it->line), &it->llen,
			       max_bytes, poll_line, &a);
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
	trace_events_off(it->dir, "block", io_events);
	if (rmdir(it->dir))
		err = errno;
	it->dir[0] = 0;
	return err;
}
