/* trace_fs.c - the tracefs plumbing the live recordings share: where
 * tracefs is mounted, writing one control file of an instance, and the
 * records an instance's ring buffer lost. */
#include "trace_fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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
