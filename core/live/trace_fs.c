/* trace_fs.c - the tracefs plumbing the live recordings share: where
 * tracefs is mounted and whether the events are there, an instance made,
 * its control files written and its events turned on and off, its
 * trace_pipe read by the line, and the records its ring buffer lost. */
#include "trace_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const tracefs_dirs[] = {
	"/sys/kernel/tracing", "/sys/kernel/debug/tracing", NULL
};
const char *trace_tracefs_root(void)
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

errcode_t trace_put(const char *dir, const char *file, const char *val)
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

errcode_t trace_fs_ready(const char *what, const char *sys,
			 const char *const *events, const char **root,
			 char *why, size_t len)
{
	char p[PATH_MAX + 96];
	int i;

	*root = NULL;
	if (geteuid() != 0) {
		snprintf(why, len, "%s needs root (the kernel's tracing is "
			 "root-only)", what);
		return EPERM;
	}
	*root = trace_tracefs_root();
	if (!*root) {
		snprintf(why, len, "tracefs is not mounted (mount -t tracefs "
			 "nodev /sys/kernel/tracing)");
		return ENOENT;
	}
	for (i = 0; events[i]; i++) {
		snprintf(p, sizeof(p), "%s/events/%s/%s", *root, sys,
			 events[i]);
		if (access(p, F_OK)) {
			snprintf(why, len, "the kernel has no %s:%s "
				 "tracepoint (%s)", sys, events[i], p);
			return ENOENT;
		}
	}
	return 0;
}

errcode_t trace_instance_make(const char *dir, char *why, size_t len)
{
	errcode_t err;

	if (mkdir(dir, 0700) && errno != EEXIST) {
		err = errno;
		snprintf(why, len, "cannot create the tracing instance %s: %s",
			 dir, strerror(err));
		return err;
	}
	return 0;
}

errcode_t trace_event_on(const char *dir, const char *sys, const char *ev,
			 const char *filt, char *why, size_t len)
{
	char f[128];
	errcode_t err;

	snprintf(f, sizeof(f), "events/%s/%s/filter", sys, ev);
	err = trace_put(dir, f, filt);
	if (!err) {
		snprintf(f, sizeof(f), "events/%s/%s/enable", sys, ev);
		err = trace_put(dir, f, "1");
	}
	if (err)
		snprintf(why, len, "cannot enable %s:%s in %s: %s", sys, ev,
			 dir, strerror(err));
	return err;
}

void trace_events_off(const char *dir, const char *sys,
		      const char *const *events)
{
	char f[128];
	int i;

	trace_put(dir, "tracing_on", "0");
	for (i = 0; events[i]; i++) {
		snprintf(f, sizeof(f), "events/%s/%s/enable", sys, events[i]);
		trace_put(dir, f, "0");
	}
}

errcode_t trace_pipe_read(int fd, char *buf, size_t size, size_t *llen,
			  size_t max_bytes,
			  void (*fn)(char *line, void *arg), void *arg)
{
	size_t total = 0, rest;
	char *start, *nl;
	ssize_t n;

	while (total < max_bytes) {
		n = read(fd, buf + *llen, size - 1 - *llen);
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
		*llen += (size_t)n;
		buf[*llen] = 0;
		start = buf;
		while ((nl = memchr(start, '\n',
				    (size_t)(buf + *llen - start)))) {
			*nl = 0;
			fn(start, arg);
			start = nl + 1;
		}
		rest = (size_t)(buf + *llen - start);
		if (rest == size - 1)
			rest = 0;	/* longer than any event: drop it */
		memmove(buf, start, rest);
		*llen = rest;
	}
	return 0;
}

/* Events the ring buffer overwrote or dropped, over every CPU. */
unsigned long trace_lost_events(const char *dir)
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
