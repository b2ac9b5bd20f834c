/* fsck_run.c - runs the real e2fsck -fn as a child (argv, no shell, stdin
 * /dev/null), turns its -C progress lines into a percentage and keeps the
 * first lines of its output that report a problem. */
#include "fsck_run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define FSCK_OUT_MAX	(64 * 1024)	/* output kept for the quote */

extern char **environ;

/* The child's environment: ours with LC_ALL=C, so that e2fsck's lines are
 * the ones the filter below knows (and the quote reads the same
 * everywhere).  NULL when out of memory. */
static char **c_environ(void)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ && environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "LC_ALL=", 7))
			env[j++] = environ[i];
	env[j++] = (char *)"LC_ALL=C";
	env[j] = NULL;
	return env;
}

static int runnable(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

errcode_t fsck_find(char *path, size_t len)
{
	const char *name = getenv("E2LAYOUT_E2FSCK"), *dirs, *p, *colon;
	size_t n;

	if (!name || !*name)
		name = "e2fsck";
	if (strchr(name, '/')) {
		if (!runnable(name) || strlen(name) >= len)
			return ENOENT;
		snprintf(path, len, "%s", name);
		return 0;
	}
	dirs = getenv("PATH");
	if (!dirs)
		dirs = "/usr/sbin:/usr/bin:/sbin:/bin";
	for (p = dirs; *p; p = colon + 1) {
		colon = strchr(p, ':');
		n = colon ? (size_t)(colon - p) : strlen(p);
		/* an empty entry is the current directory */
		if (snprintf(path, len, "%.*s/%s", (int)n, n ? p : ".",
			     name) < (int)len && runnable(path))
			return 0;
		if (!colon)
			break;
	}
	return ENOENT;
}

/* Moves fd above the standard descriptors (the child's dup2s would
 * clobber it there), close-on-exec. */
static int above_std(int fd)
{
	int hi;

	if (fd > 2)
		return fd;
	hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
}

/* e2fsck's own weights of its five passes, in percent at each pass end. */
static int pass_pct(int pass, unsigned long cur, unsigned long max)
{
	static const int end[] = {0, 70, 90, 92, 95, 100};

	if (pass <= 0)
		return 0;
	if (pass > 5 || !max)
		return 100;
	if (cur > max)
		cur = max;
	return end[pass - 1] +
	       (int)((end[pass] - end[pass - 1]) * (double)cur / max);
}

struct reader {
	char out[FSCK_OUT_MAX];
	size_t nout;
	char pline[128];		/* a partial progress line */
	size_t npline;
	int pct;
	void (*progress)(void *ctx, int pct);
	void *ctx;
	int pass;			/* the furthest progress reported */
	unsigned long cur;
	time_t moved;			/* when it last went further */
};

/* One complete progress line: "PASS CUR MAX DEVICE". */
static void progress_line(struct reader *rd)
{
	unsigned long cur, max;
	int pass, pct;

	rd->pline[rd->npline] = 0;
	rd->npline = 0;
	if (sscanf(rd->pline, "%d %lu %lu", &pass, &cur, &max) != 3)
		return;
	/* progress is a new high-water mark: e2fsck that restarts a pass
	 * over and over (it does on some damaged images) is not moving */
	if (pass > rd->pass || (pass == rd->pass && cur > rd->cur)) {
		rd->pass = pass;
		rd->cur = cur;
		rd->moved = time(NULL);
	}
	pct = pass_pct(pass, cur, max);
	if (pct != rd->pct && rd->progress)
		rd->progress(rd->ctx, pct);
	rd->pct = pct;
}

static void progress_bytes(struct reader *rd, const char *buf, ssize_t n)
{
	ssize_t i;

	for (i = 0; i < n; i++) {
		if (buf[i] == '\n')
			progress_line(rd);
		else if (rd->npline < sizeof(rd->pline) - 1)
			rd->pline[rd->npline++] = buf[i];
	}
}

/* How long e2fsck may go without getting further than it has been before
 * it is taken to be looping (it does, in -n mode, on some damaged images:
 * pass 1 restarting for ever): $E2LAYOUT_FSCK_STALL seconds, else 300. */
static time_t stall_limit(void)
{
	const char *v = getenv("E2LAYOUT_FSCK_STALL");
	long n = v && *v ? strtol(v, NULL, 10) : 0;

	return n > 0 ? (time_t)n : 300;
}

/* Reads both pipes to their ends (e2fsck never blocks on a full pipe);
 * returns 1 when e2fsck stalled past the limit (the caller kills it). */
static int read_all(struct reader *rd, int out_fd, int prog_fd)
{
	struct pollfd pf[2] = {{out_fd, POLLIN, 0}, {prog_fd, POLLIN, 0}};
	time_t limit = stall_limit();
	char buf[4096];
	ssize_t n;
	size_t room;
	int i, k;

	rd->moved = time(NULL);
	while (pf[0].fd >= 0 || pf[1].fd >= 0) {
		k = poll(pf, 2, 1000);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (time(NULL) - rd->moved > limit)
			return 1;
		if (!k)
			continue;
		for (i = 0; i < 2; i++) {
			if (pf[i].fd < 0 || !pf[i].revents)
				continue;
			n = read(pf[i].fd, buf, sizeof(buf));
			if (n < 0 && (errno == EINTR || errno == EAGAIN))
				continue;
			if (n <= 0) {
				pf[i].fd = -1;	/* its end, or an error */
				continue;
			}
			if (i == 1) {
				progress_bytes(rd, buf, n);
				continue;
			}
			room = sizeof(rd->out) - rd->nout;
			if ((size_t)n > room)
				n = room;	/* the rest is dropped */
			memcpy(rd->out + rd->nout, buf, n);
			rd->nout += n;
		}
	}
	return 0;
}

/* A line that says nothing about a problem: the banner, a pass heading,
 * an answer, the summary, the note that the device is in use (by us). */
static int noise(const char *l)
{
	unsigned a, b;
	const char *q = strrchr(l, '?');

	if (!*l || !strncmp(l, "e2fsck ", 7) || !strncmp(l, "Pass ", 5))
		return 1;
	if (!strncmp(l, "Warning!  ", 10) && strstr(l, " is in use."))
		return 1;
	if (q && !strcmp(q, "? no") && !strpbrk(l, ".,:"))
		return 1;		/* "Fix? no", "Clear? no" */
	if (strstr(l, "**********"))
		return 1;		/* "still has errors" */
	q = strrchr(l, ':');
	if (q && sscanf(q + 1, " %u/%u files", &a, &b) == 2)
		return 1;		/* "IMG: 11/2048 files (...)" */
	return 0;
}

static void quote_lines(struct reader *rd, struct fsck_result *r)
{
	char *l = rd->out, *end = rd->out + rd->nout, *nl;
	size_t n;

	while (l < end && r->nlines < FSCK_QUOTE_LINES) {
		nl = memchr(l, '\n', end - l);
		if (!nl)
			nl = end;
		while (l < nl && (*l == ' ' || *l == '\t' || *l == '\r'))
			l++;
		n = nl - l;
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\r'))
			n--;
		if (n >= FSCK_LINE_MAX)
			n = FSCK_LINE_MAX - 1;
		memcpy(r->line[r->nlines], l, n);
		r->line[r->nlines][n] = 0;
		if (!noise(r->line[r->nlines]))
			r->nlines++;
		l = nl + 1;
	}
}

errcode_t fsck_run(const char *prog, const char *device,
		   void (*progress)(void *ctx, int pct), void *ctx,
		   struct fsck_result *r)
{
	int out[2] = {-1, -1}, pp[2] = {-1, -1}, devnull = -1, status;
	char fdarg[16];
	char *argv[6], **envp = NULL;
	struct reader *rd;
	errcode_t err = 0;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	rd = calloc(1, sizeof(*rd));
	if (!rd)
		return ENOMEM;
	rd->pct = -1;
	rd->progress = progress;
	rd->ctx = ctx;
	if (pipe2(out, O_CLOEXEC) || pipe2(pp, O_CLOEXEC)) {
		err = errno;
		goto out;
	}
	out[0] = above_std(out[0]);
	out[1] = above_std(out[1]);
	pp[0] = above_std(pp[0]);
	pp[1] = above_std(pp[1]);
	devnull = above_std(open("/dev/null", O_RDONLY | O_CLOEXEC));
	if (out[0] < 0 || out[1] < 0 || pp[0] < 0 || pp[1] < 0 ||
	    devnull < 0) {
		err = errno ? errno : EMFILE;
		goto out;
	}
	/* the progress descriptor is 3 in the child (a shell wrapper can
	 * write to it: sh redirects single-digit descriptors only) */
	snprintf(fdarg, sizeof(fdarg), "%d", 3);
	argv[0] = (char *)prog;
	argv[1] = (char *)"-fn";
	argv[2] = (char *)"-C";
	argv[3] = fdarg;
	argv[4] = (char *)device;
	argv[5] = NULL;
	envp = c_environ();
	if (!envp) {
		err = ENOMEM;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		err = errno;
		goto out;
	}
	if (pid == 0) {
		/* the child: only async-signal-safe calls until exec */
		if (dup2(devnull, 0) < 0 || dup2(out[1], 1) < 0 ||
		    dup2(out[1], 2) < 0 ||
		    (pp[1] != 3 && dup2(pp[1], 3) < 0) ||
		    fcntl(3, F_SETFD, 0) < 0)
			_exit(127);
		execve(prog, argv, envp);
		_exit(127);
	}
	close(out[1]);
	close(pp[1]);
	out[1] = pp[1] = -1;
	if (read_all(rd, out[0], pp[0])) {
		kill(pid, SIGKILL);
		r->stalled = (int)stall_limit();
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			err = errno;
			goto out;
		}
	if (WIFEXITED(status))
		r->status = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		r->signal = WTERMSIG(status);
	if (r->status != 0)
		quote_lines(rd, r);
out:
	if (out[0] >= 0)
		close(out[0]);
	if (out[1] >= 0)
		close(out[1]);
	if (pp[0] >= 0)
		close(pp[0]);
	if (pp[1] >= 0)
		close(pp[1]);
	if (devnull >= 0)
		close(devnull);
	free(envp);
	free(rd);
	return err;
}
