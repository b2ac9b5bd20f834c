/* exp_child.c - `:experiment` at the TUI's prompt.  `experiment show FILE`
 * opens a saved result (experiment --json output) in the result panel;
 * any other experiment line runs this program's own `experiment ... --json`
 * in a child process, so that the screen stays alive: its progress lines
 * are read from a pipe, Esc or C-c sends it SIGINT (it then removes its
 * copies, mounts, loop devices and tracing instance, exactly as on the
 * command line), and its result opens in the panel when it ends. */
#include "tui_int.h"
#include "tui_exp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct tui_exp *exp_get(struct tui *t)
{
	if (!t->exp) {
		t->exp = calloc(1, sizeof(*t->exp));
		if (t->exp)
			t->exp->errfd = -1;
	}
	return t->exp;
}

/* One line of the console (a newline added). */
static void console_line(struct tui *t, const char *text)
{
	console_append(t, text, strlen(text));
	console_append(t, "\n", 1);
}

/* Opens the result at path in the panel; a bad file is only reported. */
static void show_file(struct tui *t, const char *path)
{
	struct tui_exp *e = exp_get(t);
	struct exp_result r;
	char why[PATH_MAX + 512];
	errcode_t err;

	if (!e) {
		tui_message(t, 1, "experiment: out of memory");
		return;
	}
	err = exp_result_load(path, &r, why, sizeof(why));
	if (err) {
		tui_message(t, 1, "experiment show: %s", why);
		{
			char line[sizeof(why) + 32];

			snprintf(line, sizeof(line), "experiment show: %s", why);
			console_line(t, line);
		}
		return;
	}
	exp_result_free(&e->res);
	e->res = r;
	e->have = 1;
	snprintf(e->src, sizeof(e->src), "%s", path);
	e->top = 0;
	e->shown = 1;
	tui_message(t, 0, "experiment result %s: %zu comparison(s)", path,
		    r.ncmp);
}

/* The child: stdout to the result file, stderr to the pipe, its own
 * process group (the terminal's C-c reaches the TUI, which forwards it). */
static void child(const char *out, int errw, int argc, char **argv,
		  int add_json)
{
	char self[PATH_MAX];
	char **av = calloc((size_t)argc + 3, sizeof(*av));
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int fd, i, k = 0;

	if (!av || n <= 0)
		_exit(127);
	self[n] = 0;
	setpgid(0, 0);
	fd = open(out, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		_exit(127);
	dup2(fd, STDOUT_FILENO);
	dup2(errw, STDERR_FILENO);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, STDIN_FILENO);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	av[k++] = self;
	for (i = 0; i < argc; i++)
		av[k++] = argv[i];
	if (add_json)
		av[k++] = "--json";
	av[k] = NULL;
	execv(self, av);
	_exit(127);
}

static void run(struct tui *t, int argc, char **argv)
{
	struct tui_exp *e = exp_get(t);
	const char *tmp = getenv("TMPDIR");
	int pfd[2], fd, i, add_json = 1;
	pid_t pid;

	if (!e) {
		tui_message(t, 1, "experiment: out of memory");
		return;
	}
	if (e->pid) {
		tui_message(t, 1, "an experiment is already running (X shows "
			    "it; Esc cancels it)");
		return;
	}
	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--json"))
			add_json = 0;
	snprintf(e->out, sizeof(e->out), "%s/e2layout-exp-XXXXXX.json",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemps(e->out, 5);
	if (fd < 0) {
		tui_message(t, 1, "experiment: cannot make a file for its "
			    "result in %s: %s", tmp && *tmp ? tmp : "/tmp",
			    strerror(errno));
		return;
	}
	close(fd);
	if (pipe2(pfd, O_CLOEXEC)) {
		tui_message(t, 1, "experiment: pipe: %s", strerror(errno));
		unlink(e->out);
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		tui_message(t, 1, "experiment: fork: %s", strerror(errno));
		close(pfd[0]);
		close(pfd[1]);
		unlink(e->out);
		return;
	}
	if (!pid)
		child(e->out, pfd[1], argc, argv, add_json);
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	e->pid = pid;
	e->errfd = pfd[0];
	e->blen = 0;
	e->progress[0] = e->last_err[0] = 0;
	e->done = e->total = 0;
	e->kdev = 0;
	e->dev[0] = 0;
	e->cancelling = 0;
	e->started = now_s();
	e->shown = 1;
	tui_signals_catch();
	{
		char line[128];

		snprintf(line, sizeof(line), "experiment: running in process "
			 "%ld (X shows its progress, Esc cancels)", (long)pid);
		console_line(t, line);
	}
	tui_message(t, 0, "experiment running (X shows it, Esc cancels)");
}

int tui_exp_command(struct tui *t, const char *line)
{
	char **argv = NULL;
	int argc = 0;

	if (cmd_split(line, &argc, &argv) || argc < 1 ||
	    strcmp(argv[0], "experiment")) {
		free(argv);
		return 0;
	}
	if (argc == 1 || (argc == 2 && (!strcmp(argv[1], "--help") ||
					 !strcmp(argv[1], "-h")))) {
		free(argv);
		return 0;	/* its usage, through the dispatcher */
	}
	if (!strcmp(argv[1], "show")) {
		if (argc != 3)
			tui_message(t, 1, "usage: experiment show FILE (a "
				    "saved experiment --json result)");
		else
			show_file(t, argv[2]);
	} else {
		run(t, argc, argv);
	}
	free(argv);
	return 1;
}

int tui_exp_running(const struct tui *t)
{
	return t->exp && t->exp->pid;
}

int tui_exp_device(const struct tui *t, __u64 *kdev, const char **name)
{
	if (!tui_exp_running(t) || !t->exp->kdev || !t->exp->dev[0])
		return 0;
	*kdev = t->exp->kdev;
	*name = t->exp->dev;
	return 1;
}

void tui_exp_cancel(struct tui *t)
{
	struct tui_exp *e = t->exp;

	if (!e || !e->pid || e->cancelling)
		return;
	kill(e->pid, SIGINT);
	e->cancelling = 1;
	tui_message(t, 0, "cancelling the experiment: it removes its copies "
		    "and mounts");
}

/* One line the child wrote on standard error. */
static void child_line(struct tui *t, struct tui_exp *e, char *l)
{
	unsigned i, n, maj, min;
	char dev[32];
	const char *p;

	console_line(t, l);
	if (strncmp(l, "experiment: ", 12)) {
		snprintf(e->last_err, sizeof(e->last_err), "%.500s", l);
		return;
	}
	p = l + 12;
	if (sscanf(p, "run %u/%u", &i, &n) == 2) {
		e->total = n;
		e->done = strstr(p, " took ") ? i : i - 1;
		snprintf(e->progress, sizeof(e->progress), "%s", p);
	} else if (sscanf(p, "%*s on /dev/%31s (%u:%u)", dev, &maj, &min) ==
		   3) {
		e->kdev = ((__u64)maj << 20) | min;
		snprintf(e->dev, sizeof(e->dev), "%s", dev);
		tui_io_follow(t, e->kdev, dev);
	} else {
		snprintf(e->progress, sizeof(e->progress), "%s", p);
		snprintf(e->last_err, sizeof(e->last_err), "%.500s", l);
	}
}

static int read_child(struct tui *t, struct tui_exp *e)
{
	char *nl, *start;
	ssize_t n;
	int got = 0;

	while (e->errfd >= 0) {
		n = read(e->errfd, e->buf + e->blen, sizeof(e->buf) - 1 -
			 e->blen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got = 1;
		e->blen += (size_t)n;
		e->buf[e->blen] = 0;
		start = e->buf;
		while ((nl = strchr(start, '\n'))) {
			*nl = 0;
			child_line(t, e, start);
			start = nl + 1;
		}
		e->blen -= (size_t)(start - e->buf);
		memmove(e->buf, start, e->blen);
		if (e->blen == sizeof(e->buf) - 1)
			e->blen = 0;	/* a line too long to show */
	}
	return got;
}

/* The child ended with status st: its result into the panel, or why not. */
static void reap(struct tui *t, struct tui_exp *e, int st)
{
	struct exp_result r;
	char why[PATH_MAX + 512];
	int ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;

	read_child(t, e);
	close(e->errfd);
	e->errfd = -1;
	e->pid = 0;
	tui_signals_release();
	tui_io_follow(t, 0, NULL);
	if (!ok) {
		if (!e->last_err[0] && WIFSIGNALED(st))
			snprintf(e->last_err, sizeof(e->last_err), "its process "
				 "was killed by signal %d", WTERMSIG(st));
		else if (!e->last_err[0])
			snprintf(e->last_err, sizeof(e->last_err), "its process "
				 "exited with status %d", WEXITSTATUS(st));
		tui_message(t, 1, "experiment %s: %s", e->cancelling ?
			    "cancelled" : "failed", e->last_err);
		e->shown = 0;
	} else if (exp_result_load(e->out, &r, why, sizeof(why))) {
		tui_message(t, 1, "experiment: its result cannot be read: %s",
			    why);
		e->shown = 0;
	} else {
		exp_result_free(&e->res);
		e->res = r;
		e->have = 1;
		snprintf(e->src, sizeof(e->src), "the run started here");
		e->top = 0;
		e->shown = 1;
		tui_message(t, 0, "experiment done in %.0f s: %zu "
			    "comparison(s)", now_s() - e->started, r.ncmp);
	}
	unlink(e->out);
	e->cancelling = 0;
}

int tui_exp_idle(struct tui *t)
{
	struct tui_exp *e = t->exp;
	int st, dirty;

	if (!e || !e->pid)
		return 0;
	if (tui_signal_pending() == SIGINT) {
		tui_signal_take();	/* C-c cancels the run, not the TUI */
		tui_exp_cancel(t);
	} else if (tui_signal_pending()) {
		t->quit = 1;	/* SIGHUP, SIGTERM: tui_exp_quit cancels it
				   and waits for its cleanup */
		return 0;
	}
	dirty = read_child(t, e);
	if (waitpid(e->pid, &st, WNOHANG) == e->pid) {
		reap(t, e, st);
		dirty = 1;
	}
	return dirty;
}

void tui_exp_quit(struct tui *t)
{
	struct tui_exp *e = t->exp;
	int st;

	if (!e)
		return;
	if (e->pid) {
		tui_exp_cancel(t);
		while (waitpid(e->pid, &st, 0) < 0 && errno == EINTR)
			;
		e->pid = 0;
		close(e->errfd);
		unlink(e->out);
		tui_signals_release();
	}
	exp_result_free(&e->res);
	free(e);
	t->exp = NULL;
}
