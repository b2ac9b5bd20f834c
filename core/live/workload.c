/* workload.c - the built-in workloads of `bench` and `alloc set --preview`:
 * N files of S bytes written by K threads (each fsync'd), or 4 KiB random
 * synchronous writes into a preallocated file; timed, mapped with FIEMAP,
 * and traced through the ext4 allocator tracepoints when possible. */
#include "workload.h"
#include "ksym.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void workload_defaults(enum wl_kind kind, struct wl_params *p)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->seed = 1;
	if (kind == WL_FILES) {
		p->files = 32;
		p->size = 256 << 10;
		p->threads = 2;
	} else {
		p->files = 1;
		p->size = 8 << 20;
		p->ops = 256;
		p->threads = 1;
	}
}

const char *workload_name(enum wl_kind kind)
{
	return kind == WL_FILES ? "files" : "randwrite";
}

int workload_parse_size(const char *s, __u64 *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': n <<= 10; end++; break;
	case 'm': case 'M': n <<= 20; end++; break;
	case 'g': case 'G': n <<= 30; end++; break;
	}
	if (*end == 'i' && end[1] == 'B')
		end += 2;
	else if (*end == 'B')
		end++;
	if (*end || !n)
		return -1;
	*v = n;
	return 0;
}

double workload_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct writer {
	const char *dir;
	const struct wl_params *p;
	unsigned index;
	int err;
};

int workload_write_file(const char *path, __u64 size, const char *buf,
			size_t chunk, int flags, int do_fsync,
			const volatile sig_atomic_t *stop)
{
	__u64 done = 0;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | flags,
		      0644);

	if (fd < 0)
		return errno;
	while (done < size && !(stop && *stop)) {
		size_t n = size - done < chunk ? (size_t)(size - done) : chunk;
		ssize_t w = write(fd, buf, n);

		if (w <= 0) {
			int e = w < 0 ? errno : EIO;

			close(fd);
			return e;
		}
		done += (size_t)w;
	}
	if (do_fsync && fsync(fd)) {
		int e = errno;

		close(fd);
		return e;
	}
	if (close(fd))
		return errno;
	return stop && *stop ? EINTR : 0;
}

static void *writer_main(void *arg)
{
	struct writer *w = arg;
	enum { CHUNK = 64 << 10 };
	char path[PATH_MAX + 128];
	char *buf = malloc(CHUNK);
	unsigned i;

	if (!buf) {
		w->err = ENOMEM;
		return NULL;
	}
	memset(buf, 0x5a + (int)w->index, CHUNK);
	for (i = w->index; i < w->p->files && !w->err; i += w->p->threads) {
		snprintf(path, sizeof(path), "%s/f%05u", w->dir, i);
		w->err = workload_write_file(path, w->p->size, buf, CHUNK, 0, 1,
					     NULL);
	}
	free(buf);
	return NULL;
}

static int run_files(const char *dir, const struct wl_params *p)
{
	struct writer w[64];
	pthread_t th[64];
	unsigned k = p->threads, i;
	int err = 0;

	if (k < 1)
		k = 1;
	if (k > 64)
		k = 64;
	for (i = 0; i < k; i++) {
		w[i] = (struct writer){ dir, p, i, 0 };
		if (pthread_create(&th[i], NULL, writer_main, &w[i])) {
			k = i;
			err = EAGAIN;
			break;
		}
	}
	for (i = 0; i < k; i++) {
		pthread_join(th[i], NULL);
		if (w[i].err && !err)
			err = w[i].err;
	}
	return err;
}

static int run_randwrite(const char *dir, const struct wl_params *p)
{
	char path[PATH_MAX + 128], buf[4096];
	__u64 pages = p->size / 4096, x = p->seed * 2654435761ULL + 1;
	unsigned i;
	int fd, err = 0;

	if (!pages)
		return EINVAL;
	snprintf(path, sizeof(path), "%s/f00000", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_DSYNC,
		  0644);
	if (fd < 0)
		return errno;
	err = posix_fallocate(fd, 0, (off_t)(pages * 4096));
	memset(buf, 0xa5, sizeof(buf));
	for (i = 0; !err && i < p->ops; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (pwrite(fd, buf, sizeof(buf), (off_t)((x % pages) * 4096)) !=
		    (ssize_t)sizeof(buf))
			err = errno ? errno : EIO;
	}
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	return err;
}

/* Counts the files' extents and the groups they touch; removes them. */
static void map_and_remove(const char *dir, ext2_filsys fs, unsigned files,
			   struct wl_measure *m)
{
	char *seen = calloc(fs->group_desc_count, 1);	/* 0 or 1 */
	char path[PATH_MAX + 128];
	struct live_extent *e;
	size_t n, j;
	unsigned i;

	for (i = 0; i < files; i++) {
		snprintf(path, sizeof(path), "%s/f%05u", dir, i);
		if (!live_fiemap(path, &e, &n)) {
			m->extents += n;
			for (j = 0; seen && j < n; j++) {
				blk64_t b = e[j].physical / fs->blocksize;
				blk64_t end = b + (e[j].length ?
					e[j].length / fs->blocksize - 1 : 0);
				dgrp_t g = trace_group(fs, b);

				for (; g <= trace_group(fs, end) &&
				       g < fs->group_desc_count; g++)
					if (!seen[g]) {
						seen[g] = 1;
						m->groups++;
					}
			}
			free(e);
		}
		unlink(path);
	}
	free(seen);
	rmdir(dir);
}

/* mark_inode_dirty summed by calling function, the largest kept in m. */
static void dirty_callers(const struct trace_rec *r, struct wl_measure *m)
{
	struct ksym_table syms;
	size_t i, j, k;

	m->dirty = r->dirty_events;
	m->dirty_counted = r->counted;
	if (ksym_load(&syms))
		return;
	for (i = 0; i < r->ndirty; i++) {
		const char *name = r->dirty[i].caller[0] ? r->dirty[i].caller
				   : ksym_name(&syms, r->dirty[i].ip);

		if (!name)
			name = "?";
		for (j = 0; j < m->ncallers; j++)
			if (!strcmp(m->callers[j].name, name))
				break;
		if (j == m->ncallers) {
			if (j == WL_CALLERS)
				continue;	/* rare: more callers than kept */
			snprintf(m->callers[j].name,
				 sizeof(m->callers[j].name), "%s", name);
			m->ncallers++;
		}
		m->callers[j].count += r->dirty[i].count;
		/* keep them sorted, largest first */
		for (k = j; k > 0 && m->callers[k].count >
				      m->callers[k - 1].count; k--) {
			struct wl_caller t = m->callers[k];

			m->callers[k] = m->callers[k - 1];
			m->callers[k - 1] = t;
		}
	}
	ksym_free(&syms);
}

errcode_t workload_measure(const struct live_info *l, ext2_filsys fs,
			   const struct wl_params *p, struct wl_measure *m,
			   char *why, size_t len)
{
	struct trace_session ts;
	struct trace_rec rec;
	char dir[PATH_MAX + 64];
	unsigned files = p->kind == WL_FILES ? p->files : 1;
	double t0;
	int err;

	memset(m, 0, sizeof(*m));
	snprintf(dir, sizeof(dir), "%s/.e2layout-bench-%ld", l->mnt,
		 (long)getpid());
	if (mkdir(dir, 0700)) {
		err = errno;
		snprintf(why, len, "cannot create the scratch directory %s: "
			 "%s", dir, strerror(err));
		return err;
	}
	sync();	/* earlier writes must not land in this recording */
	m->traced = !trace_start(&ts, l->kdev, m->why_untraced,
				 sizeof(m->why_untraced));
	t0 = workload_now();
	err = p->kind == WL_FILES ? run_files(dir, p) : run_randwrite(dir, p);
	m->seconds = workload_now() - t0;
	if (m->traced) {
		if (trace_stop(&ts, &rec)) {
			m->traced = 0;
			snprintf(m->why_untraced, sizeof(m->why_untraced),
				 "reading the trace failed");
		} else {
			trace_summarize(fs, &rec, &m->alloc);
			m->lost = rec.lost;
			dirty_callers(&rec, m);
		}
		trace_rec_free(&rec);
	}
	m->files = files;
	m->bytes = p->kind == WL_FILES ? (__u64)files * p->size
				       : (__u64)p->ops * 4096;
	map_and_remove(dir, fs, files, m);
	if (err)
		snprintf(why, len, "the workload failed in %s: %s", dir,
			 strerror(err));
	return err;
}
