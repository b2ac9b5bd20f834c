/* exp_tools.c - fio, bonnie++ and dbench as an experiment's workload: run
 * in the mounted copy's scratch directory, stopped when the experiment is
 * interrupted, and their results read: fio's JSON (by the bounded reader,
 * exp_json.c), bonnie++'s CSV line, dbench's throughput line. */
#include "exp_workload.h"
#include "exp_json.h"
#include "workload.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *tool_of(enum exp_wl_kind k)
{
	return k == EXP_WL_FIO ? "fio" : k == EXP_WL_BONNIE ? "bonnie++" :
	       k == EXP_WL_DBENCH ? "dbench" : NULL;
}

static int on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;
	char f[PATH_MAX];

	for (p = path ? path : "/usr/bin:/bin"; *p; p = *e ? e + 1 : e) {
		e = strchr(p, ':');
		if (!e)
			e = p + strlen(p);
		snprintf(f, sizeof(f), "%.*s/%s", (int)(e - p), p, name);
		if (e > p && access(f, X_OK) == 0)
			return 1;
	}
	/* bonnie++ lives in sbin, often off a user's PATH */
	snprintf(f, sizeof(f), "/usr/sbin/%s", name);
	return access(f, X_OK) == 0;
}

/* A path value of a job file that stays in the copy: relative, no "..",
 * no $ (fio expands ${VAR} anywhere); a filename= list is split at ':'
 * as fio splits it, each file checked. */
static int path_ok(const char *v)
{
	const char *p;

	if (strchr(v, '$') || strstr(v, ".."))
		return 0;
	for (p = v; p; p = strchr(p, ':'), p = p ? p + 1 : NULL)
		if (*p == '/')
			return 0;
	return 1;
}

int expw_check_job(const char *path, char *why, size_t len)
{
	/* every option that names a file or device fio writes */
	static const char *const keys[] = { "filename", "directory",
		"filename_format", "opendir", "write_iolog", "write_bw_log",
		"write_lat_log", "write_iops_log", "write_hist_log",
		"replay_redirect", NULL };
	char line[1024];
	FILE *f = fopen(path, "r");
	int n = 0, i;

	if (!f) {
		snprintf(why, len, "cannot read %s", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		const char *p = line;

		n++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, "include", 7) &&
		    (p[7] == ' ' || p[7] == '\t')) {
			fclose(f);
			snprintf(why, len, "%s, line %d: include is refused "
				 "(the options it pulls in would not be "
				 "checked; put them in the job file)", path, n);
			return -1;
		}
		for (i = 0; keys[i]; i++) {
			size_t k = strlen(keys[i]);
			const char *v = p + k;

			if (strncmp(p, keys[i], k))
				continue;
			while (*v == ' ' || *v == '\t')
				v++;
			if (*v != '=')
				continue;
			v++;
			while (*v == ' ' || *v == '\t')
				v++;
			if (!path_ok(v)) {
				fclose(f);
				snprintf(why, len, "%s, line %d: %s must stay "
					 "inside the run's mounted copy (no "
					 "absolute path, also after a ':', no "
					 ".., no $)", path, n, keys[i]);
				return -1;
			}
		}
	}
	fclose(f);
	return 0;
}

int expw_tool_present(const struct exp_workload *w, char *why, size_t len)
{
	const char *t = tool_of(w->kind);

	if (!t || on_path(t))
		return 0;
	snprintf(why, len, "%s is not installed (make deps installs fio, "
		 "bonnie++ and dbench)", t);
	return -1;
}

errcode_t expw_spawn(char *const argv[], const char *dir,
		     const char *out_path, char *why, size_t len)
{
	char errp[PATH_MAX + 8], prog[PATH_MAX];
	double sent = 0;
	int status, fd, efd;
	pid_t pid, r;

	snprintf(errp, sizeof(errp), "%s.err", out_path);
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	efd = open(errp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || efd < 0) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		if (efd >= 0)
			close(efd);
		snprintf(why, len, "cannot create %s: %s", out_path,
			 strerror(e));
		return e;
	}
	snprintf(prog, sizeof(prog), "%s", argv[0]);
	if (!strcmp(argv[0], "bonnie++") && access("/usr/sbin/bonnie++",
						   X_OK) == 0)
		snprintf(prog, sizeof(prog), "/usr/sbin/bonnie++");
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(fd);
		close(efd);
		snprintf(why, len, "cannot start %s: %s", argv[0],
			 strerror(e));
		return e;
	}
	if (pid == 0) {
		if (chdir(dir) || dup2(fd, 1) < 0 || dup2(efd, 2) < 0)
			_exit(126);
		execvp(prog, argv);
		_exit(127);
	}
	close(fd);
	close(efd);
	for (;;) {
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			snprintf(why, len, "waiting for %s: %s", argv[0],
				 strerror(errno));
			return errno;
		}
		if (exp_interrupted && !sent) {
			kill(pid, SIGTERM);
			sent = workload_now();
		} else if (sent && workload_now() - sent > 5) {
			kill(pid, SIGKILL);
		}
		usleep(20000);
	}
	if (exp_interrupted) {
		snprintf(why, len, "%s: interrupted", argv[0]);
		return EINTR;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char first[300] = "";
		FILE *f = fopen(errp, "r");

		/* its first words: the file goes with the work directory */
		if (f) {
			if (!fgets(first, sizeof(first), f))
				first[0] = 0;
			first[strcspn(first, "\n")] = 0;
			fclose(f);
		}
		snprintf(why, len, "%s failed (%s %d)%s%s", argv[0],
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) :
			 WTERMSIG(status), first[0] ? ": " : "", first);
		return ECHILD;
	}
	return 0;
}

/* fio's sums over its jobs, per direction (0 read, 1 write). */
struct fio_sums {
	double iops[2], bw[2], lat[2], bytes[2];
	unsigned latn[2];
};

static double num_of(const struct expj *v, const char *key)
{
	const struct expj *m = expj_get_type(v, key, EXPJ_NUM);

	return m ? m->num : 0;
}

static void fio_job(const struct expj *job, struct fio_sums *f)
{
	static const char *const dir[] = { "read", "write" };
	const struct expj *io, *lat;
	int d;

	for (d = 0; d < 2; d++) {
		io = expj_get_type(job, dir[d], EXPJ_OBJ);
		if (!io)
			continue;
		f->iops[d] += num_of(io, "iops");
		f->bw[d] += num_of(io, "bw");
		f->bytes[d] += num_of(io, "io_bytes");
		lat = expj_get_type(io, "lat_ns", EXPJ_OBJ);
		if (lat && num_of(lat, "mean") > 0) {
			f->lat[d] += num_of(lat, "mean");
			f->latn[d]++;
		}
	}
}

int expw_parse_fio(const char *json, struct exp_run *run, char *why,
		   size_t len)
{
	static const char *const dir[] = { "read", "write" };
	const char *start = json ? strchr(json, '{') : NULL;
	const char *end = start ? strrchr(start, '}') : NULL;
	const struct expj *jobs;
	struct fio_sums f;
	struct expj *doc;
	char name[EXP_NAME_LEN], jwhy[160];
	errcode_t err;
	size_t i;
	int d, any = 0;

	/* the document: from the first '{' (fio may print notes before it)
	 * to the last '}', or to the end when there is none */
	if (!start) {
		snprintf(why, len, "fio's output is not the JSON of "
			 "--output-format=json (no object in it)");
		return -1;
	}
	err = expj_parse(start, end ? (size_t)(end - start) + 1 :
			 strlen(start), &doc, jwhy, sizeof(jwhy));
	if (err) {
		snprintf(why, len, "fio's output from its byte %zu is not the "
			 "JSON of --output-format=json (%s)",
			 (size_t)(start - json),
			 err == ENOMEM ? "out of memory" : jwhy);
		return -1;
	}
	memset(&f, 0, sizeof(f));
	jobs = expj_get_type(doc, "jobs", EXPJ_ARR);
	for (i = 0; jobs && i < jobs->n; i++)
		fio_job(&jobs->kids[i], &f);
	expj_free(doc);
	for (d = 0; d < 2; d++) {
		if (f.bytes[d] <= 0)
			continue;
		any = 1;
		snprintf(name, sizeof(name), "%s_iops", dir[d]);
		expw_metric(run, name, f.iops[d], 1);
		snprintf(name, sizeof(name), "%s_kib_per_second", dir[d]);
		expw_metric(run, name, f.bw[d], 1);
		if (f.latn[d]) {
			snprintf(name, sizeof(name), "%s_latency_us", dir[d]);
			expw_metric(run, name, f.lat[d] / f.latn[d] / 1000.0,
				    0);
		}
	}
	if (!any) {
		snprintf(why, len, "fio's JSON reports no I/O (jobs[].read/"
			 "write.io_bytes are 0)");
		return -1;
	}
	return 0;
}

/* bonnie++ 1.98's CSV: the fields with a rate, by position. */
static const struct { int field; const char *name; } bonnie_fields[] = {
	{ 11, "put_block_kib_per_second" }, { 13, "rewrite_kib_per_second" },
	{ 17, "get_block_kib_per_second" }, { 19, "seeks_per_second" },
	{ 26, "seq_create_per_second" }, { 28, "seq_stat_per_second" },
	{ 30, "seq_delete_per_second" }, { 32, "ran_create_per_second" },
	{ 34, "ran_stat_per_second" }, { 36, "ran_delete_per_second" },
	{ -1, NULL }
};

/* ... and its latencies ("19513us", "2ms"), there even when a phase was
 * too fast for a rate ("+++++"). */
static const struct { int field; const char *name; } bonnie_lat[] = {
	{ 39, "put_block_latency_us" }, { 40, "rewrite_latency_us" },
	{ 42, "get_block_latency_us" }, { 43, "seeks_latency_us" },
	{ 44, "seq_create_latency_us" }, { 45, "seq_stat_latency_us" },
	{ 46, "seq_delete_latency_us" }, { 47, "ran_create_latency_us" },
	{ 48, "ran_stat_latency_us" }, { 49, "ran_delete_latency_us" },
	{ -1, NULL }
};

/* The text of CSV field k of line (NUL-terminated in out); -1 if none. */
static int csv_field(const char *line, int k, char *out, size_t n)
{
	const char *f = line;
	size_t len;
	int i;

	for (i = 0; i < k && f; i++) {
		f = strpbrk(f, ",\n");
		f = f && *f == ',' ? f + 1 : NULL;
	}
	if (!f)
		return -1;
	len = strcspn(f, ",\n");
	if (!len || len >= n)
		return -1;
	memcpy(out, f, len);
	out[len] = 0;
	return 0;
}

int expw_parse_bonnie(const char *csv, struct exp_run *run, char *why,
		      size_t len)
{
	const char *line = NULL, *p;
	char field[64];
	int i, any = 0;

	/* the last line that starts with a format version */
	for (p = csv; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 :
							NULL)
		if (!strncmp(p, "1.9", 3))
			line = p;
	if (!line) {
		snprintf(why, len, "bonnie++ printed no CSV line (format "
			 "1.9x)");
		return -1;
	}
	for (i = 0; bonnie_fields[i].name; i++) {
		char *end;
		double v;

		if (csv_field(line, bonnie_fields[i].field, field,
			      sizeof(field)))
			continue;
		v = strtod(field, &end);
		if (end == field || *end)	/* "+++++": too fast */
			continue;
		expw_metric(run, bonnie_fields[i].name, v, 1);
		any = 1;
	}
	for (i = 0; bonnie_lat[i].name; i++) {
		char *end;
		double v;

		if (csv_field(line, bonnie_lat[i].field, field, sizeof(field)))
			continue;
		v = strtod(field, &end);
		if (end == field || (strcmp(end, "us") && strcmp(end, "ms") &&
				     strcmp(end, "s")))
			continue;
		v *= !strcmp(end, "ms") ? 1e3 : !strcmp(end, "s") ? 1e6 : 1;
		expw_metric(run, bonnie_lat[i].name, v, 0);
		any = 1;
	}
	if (!any) {
		snprintf(why, len, "bonnie++'s CSV line holds no rate and no "
			 "latency");
		return -1;
	}
	return 0;
}

int expw_parse_dbench(const char *text, struct exp_run *run, char *why,
		      size_t len)
{
	const char *p = text ? strstr(text, "Throughput ") : NULL;
	const char *l;
	double mb, lat;

	if (!p || sscanf(p, "Throughput %lf MB/sec", &mb) != 1) {
		snprintf(why, len, "dbench printed no \"Throughput ... "
			 "MB/sec\" line");
		return -1;
	}
	/* dbench prints "Throughput 0 MB/sec" when its clients failed
	 * (a missing loadfile, a full filesystem): not a measurement */
	if (!(mb > 0)) {
		snprintf(why, len, "dbench measured nothing (\"Throughput "
			 "%g MB/sec\"): a failed run, not counted", mb);
		return -1;
	}
	expw_metric(run, "mb_per_second", mb, 1);
	l = strstr(p, "max_latency=");
	if (l && sscanf(l, "max_latency=%lf", &lat) == 1)
		expw_metric(run, "max_latency_ms", lat, 0);
	return 0;
}
