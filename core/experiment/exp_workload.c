/* exp_workload.c - the built-in workloads of `experiment`, each a seed
 * investigation's profile: smallcreate (D directories x N small files, each
 * fsync'd), randwrite (4 KiB O_DSYNC writes into a fallocated or a written
 * file), parallel (K threads appending to K files) and createreaddelete
 * (create, read back cold, delete: bonnie++'s file phases). */
#include "exp_workload.h"
#include "exp_loop.h"
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void expw_metric(struct exp_run *run, const char *name, double v,
		 int higher_better)
{
	struct exp_metric *m;

	if (run->nm >= EXP_MAX_METRICS)
		return;
	m = &run->m[run->nm++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->value = v;
	m->higher_better = higher_better;
}

/* Writes size bytes of buf's pattern to path; fsyncs when asked; stops
 * when the experiment is interrupted. */
static int write_file(const char *path, __u64 size, const char *buf,
		      size_t chunk, int flags, int do_fsync)
{
	return workload_write_file(path, size, buf, chunk, flags, do_fsync,
				   &exp_interrupted);
}

static int smallcreate(const struct exp_workload *w, const char *dir,
		       struct exp_run *run)
{
	char path[PATH_MAX + 64], buf[4096];
	unsigned d, f;
	double t0;
	int err = 0;

	memset(buf, 0x5a, sizeof(buf));
	t0 = workload_now();
	for (d = 0; d < w->dirs && !err; d++) {
		snprintf(path, sizeof(path), "%s/d%04u", dir, d);
		if (mkdir(path, 0755))
			err = errno;
	}
	for (f = 0; f < w->files && !err; f++)
		for (d = 0; d < w->dirs && !err; d++) {
			snprintf(path, sizeof(path), "%s/d%04u/f%05u", dir, d,
				 f);
			err = write_file(path, w->size, buf, sizeof(buf), 0, 1);
		}
	run->seconds = workload_now() - t0;
	expw_metric(run, "seconds", run->seconds, 0);
	expw_metric(run, "files_per_second", run->seconds > 0 ?
		    (double)w->dirs * w->files / run->seconds : 0, 1);
	return err;
}

static int randwrite(const struct exp_workload *w, const char *dir,
		     struct exp_run *run)
{
	char path[PATH_MAX + 64], buf[4096];
	__u64 pages = w->size / 4096, x = 0x9E3779B97F4A7C15ULL;
	unsigned i;
	double t0;
	int fd, err = 0;

	if (!pages)
		return EINVAL;
	memset(buf, 0xa5, sizeof(buf));
	snprintf(path, sizeof(path), "%s/randwrite", dir);
	if (w->overwrite) {
		/* written and on disk before the clock starts */
		err = write_file(path, pages * 4096, buf, sizeof(buf), 0, 1);
		if (err)
			return err;
		fd = open(path, O_WRONLY | O_DSYNC | O_CLOEXEC);
	} else {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_DSYNC |
			  O_CLOEXEC, 0644);
		if (fd >= 0) {
			err = posix_fallocate(fd, 0, (off_t)(pages * 4096));
			if (!err)
				err = fsync(fd) ? errno : 0;
		}
	}
	if (fd < 0)
		return errno;
	t0 = workload_now();
	for (i = 0; !err && i < w->ops && !exp_interrupted; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (pwrite(fd, buf, sizeof(buf), (off_t)((x % pages) * 4096)) !=
		    (ssize_t)sizeof(buf))
			err = errno ? errno : EIO;
	}
	run->seconds = workload_now() - t0;
	if (close(fd) && !err)
		err = errno;
	if (!err && exp_interrupted)
		err = EINTR;
	expw_metric(run, "seconds", run->seconds, 0);
	expw_metric(run, "writes_per_second", run->seconds > 0 ?
		    (double)w->ops / run->seconds : 0, 1);
	return err;
}

struct appender {
	char path[PATH_MAX + 64];
	__u64 size;
	int err;
};

static void *append_main(void *arg)
{
	struct appender *a = arg;
	char buf[4096];

	memset(buf, 0x3c, sizeof(buf));
	a->err = write_file(a->path, a->size, buf, sizeof(buf), O_APPEND, 1);
	return NULL;
}

static int parallel(const struct exp_workload *w, const char *dir,
		    struct exp_run *run)
{
	struct appender a[64];
	pthread_t th[64];
	unsigned k = w->threads, i, started;
	double t0;
	int err = 0;

	memset(a, 0, sizeof(a));
	if (k > 64)
		return EINVAL;	/* the options cap --threads at 64 */
	for (i = 0; i < k; i++) {
		snprintf(a[i].path, sizeof(a[i].path), "%s/p%02u", dir, i);
		a[i].size = w->size;
		a[i].err = 0;
	}
	t0 = workload_now();
	for (started = 0; started < k; started++)
		if (pthread_create(&th[started], NULL, append_main,
				   &a[started])) {
			err = EAGAIN;
			break;
		}
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
		if (a[i].err && !err)
			err = a[i].err;
	}
	run->seconds = workload_now() - t0;
	expw_metric(run, "seconds", run->seconds, 0);
	expw_metric(run, "mib_per_second", run->seconds > 0 ?
		    (double)k * (double)w->size / 1048576.0 / run->seconds :
		    0, 1);
	return err;
}

static int createreaddelete(const struct exp_workload *w, const char *dir,
			    struct exp_run *run)
{
	char path[PATH_MAX + 64], *buf = malloc(65536);
	double t0, t1, t2, t3;
	unsigned i;
	int fd, err = 0;

	if (!buf)
		return ENOMEM;
	memset(buf, 0x77, 65536);
	t0 = workload_now();
	for (i = 0; i < w->files && !err; i++) {
		snprintf(path, sizeof(path), "%s/c%06u", dir, i);
		err = write_file(path, w->size, buf, 65536, 0, 0);
	}
	if (!err) {
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0 || syncfs(fd))
			err = errno;
		if (fd >= 0)
			close(fd);
	}
	t1 = workload_now();
	/* read back cold: the page cache would measure memory */
	if (!err)
		expl_drop_caches();
	t2 = workload_now();
	for (i = 0; i < w->files && !err && !exp_interrupted; i++) {
		ssize_t r;

		snprintf(path, sizeof(path), "%s/c%06u", dir, i);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = errno;
			break;
		}
		while ((r = read(fd, buf, 65536)) > 0)
			;
		if (r < 0)
			err = errno;
		close(fd);
	}
	t3 = workload_now();
	for (i = 0; i < w->files && !err && !exp_interrupted; i++) {
		snprintf(path, sizeof(path), "%s/c%06u", dir, i);
		if (unlink(path))
			err = errno;
	}
	if (!err && exp_interrupted)
		err = EINTR;
	run->seconds = (t1 - t0) + (workload_now() - t2);
	expw_metric(run, "seconds", run->seconds, 0);
	expw_metric(run, "creates_per_second", t1 > t0 ?
		    w->files / (t1 - t0) : 0, 1);
	expw_metric(run, "reads_per_second", t3 > t2 ?
		    w->files / (t3 - t2) : 0, 1);
	expw_metric(run, "deletes_per_second", workload_now() > t3 ?
		    w->files / (workload_now() - t3) : 0, 1);
	free(buf);
	return err;
}

static const char *const wl_names[] = {
	[EXP_WL_SMALLCREATE] = "smallcreate",
	[EXP_WL_RANDWRITE] = "randwrite",
	[EXP_WL_PARALLEL] = "parallel",
	[EXP_WL_CREATEREADDELETE] = "createreaddelete",
	[EXP_WL_FIO] = "fio",
	[EXP_WL_BONNIE] = "bonnie++",
	[EXP_WL_DBENCH] = "dbench",
};

enum exp_wl_kind exp_workload_kind(const char *name)
{
	int k;

	for (k = 0; k < EXP_WL_FIO; k++)
		if (!strcmp(name, wl_names[k]))
			return (enum exp_wl_kind)k;
	return EXP_WL_NONE;
}

const char *exp_workload_name(enum exp_wl_kind k)
{
	return k < EXP_WL_NONE ? wl_names[k] : "none";
}

void exp_workload_defaults(struct exp_workload *w, enum exp_wl_kind k)
{
	memset(w, 0, sizeof(*w));
	w->kind = k;
	switch (k) {
	case EXP_WL_SMALLCREATE:
		w->dirs = 4;
		w->files = 64;
		w->size = 4096;
		break;
	case EXP_WL_RANDWRITE:
		w->size = 8 << 20;
		w->ops = 512;
		break;
	case EXP_WL_PARALLEL:
		w->threads = 4;
		w->size = 4 << 20;
		break;
	case EXP_WL_CREATEREADDELETE:
		w->files = 256;
		w->size = 16 << 10;
		break;
	case EXP_WL_DBENCH:
		w->seconds = 10;
		break;
	default:
		break;
	}
}

/* fio, bonnie++, dbench: run, then parse what they printed. */
static int run_tool(const struct exp_workload *w, const char *dir,
		    const char *out, struct exp_run *run, char *why,
		    size_t len)
{
	char secs[16], *text = NULL, *argv[64];
	char *args = NULL, *tok, *save = NULL;
	double t0;
	size_t n = 0;
	FILE *f;
	long sz;
	int err, argc = 0;

	if (w->kind == EXP_WL_FIO) {
		argv[argc++] = (char *)"fio";
		argv[argc++] = (char *)"--output-format=json";
		argv[argc++] = (char *)"--directory=.";
		argv[argc++] = (char *)w->arg;
	} else if (w->kind == EXP_WL_BONNIE) {
		argv[argc++] = (char *)"bonnie++";
		argv[argc++] = (char *)"-q";
		argv[argc++] = (char *)"-d";
		argv[argc++] = (char *)".";
		argv[argc++] = (char *)"-u";
		argv[argc++] = (char *)"root";
		args = strdup(w->arg ? w->arg : "");
		if (!args)
			return ENOMEM;
		for (tok = strtok_r(args, " \t", &save); tok && argc < 60;
		     tok = strtok_r(NULL, " \t", &save))
			argv[argc++] = tok;
	} else {
		snprintf(secs, sizeof(secs), "%u", w->seconds);
		argv[argc++] = (char *)"dbench";
		argv[argc++] = (char *)"-D";
		argv[argc++] = (char *)".";
		argv[argc++] = (char *)"-t";
		argv[argc++] = secs;
		argv[argc++] = (char *)w->arg;
	}
	argv[argc] = NULL;
	t0 = workload_now();
	err = expw_spawn(argv, dir, out, why, len);
	run->seconds = workload_now() - t0;
	free(args);
	if (err)
		return err;
	f = fopen(out, "r");
	if (!f || fseek(f, 0, SEEK_END) || (sz = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) || !(text = calloc(1, (size_t)sz + 1)) ||
	    (n = fread(text, 1, (size_t)sz, f)) != (size_t)sz) {
		snprintf(why, len, "cannot read %s's output %s", argv[0], out);
		err = EIO;
	}
	if (f)
		fclose(f);
	if (!err) {
		expw_metric(run, "seconds", run->seconds, 0);
		if (w->kind == EXP_WL_FIO)
			err = expw_parse_fio(text, run, why, len) ? EINVAL : 0;
		else if (w->kind == EXP_WL_BONNIE)
			err = expw_parse_bonnie(text, run, why, len) ? EINVAL
								      : 0;
		else
			err = expw_parse_dbench(text, run, why, len) ? EINVAL
								      : 0;
	}
	free(text);
	return err;
}

errcode_t expw_run(const struct exp_workload *w, const char *dir,
		   const char *tool_out, struct exp_run *run, char *why,
		   size_t len)
{
	int err;

	run->nm = 0;
	switch (w->kind) {
	case EXP_WL_SMALLCREATE:
		err = smallcreate(w, dir, run);
		break;
	case EXP_WL_RANDWRITE:
		err = randwrite(w, dir, run);
		break;
	case EXP_WL_PARALLEL:
		err = parallel(w, dir, run);
		break;
	case EXP_WL_CREATEREADDELETE:
		err = createreaddelete(w, dir, run);
		break;
	case EXP_WL_FIO:
	case EXP_WL_BONNIE:
	case EXP_WL_DBENCH:
		return run_tool(w, dir, tool_out, run, why, len);
	default:
		err = EINVAL;
	}
	if (err)
		snprintf(why, len, "the %s workload failed in %s: %s",
			 exp_workload_name(w->kind), dir, err == EINTR ?
			 "interrupted" : strerror(err));
	return err;
}
