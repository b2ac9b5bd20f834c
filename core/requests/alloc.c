/* alloc.c - `alloc watch|tunables|set|revert` on a mounted ext4:
 * records where the kernel's allocator puts blocks (tracepoints); the
 * tunables half lives in alloc_tune.c. */
#include "cmd.h"
#include "alloc_tune.h"
#include "live.h"
#include "trace.h"
#include "watch_report.h"
#include "workload.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int need_live(struct session *s, const char *who)
{
	if (s->live)
		return 0;
	out_error(s->out, who, 0, "%s is not a mounted filesystem opened "
		  "read-only (alloc needs live mode: e2layout /dev/X or "
		  "e2layout /mount/point)", s->device ? s->device : "this");
	return -1;
}

/* --- alloc watch --- */

static volatile sig_atomic_t watch_stop;

static void on_signal(int sig)
{
	(void)sig;
	watch_stop = 1;
}

/* Reads the stream as it comes so that a busy device overwrites less. */
#define WATCH_POLL_BYTES (4u << 20)

/* Waits for seconds, or for cmd (run by sh -c) to end, reading the trace
 * meanwhile; 0 or an errno. */
static int wait_workload(struct trace_session *ts, struct trace_rec *rec,
			 double seconds, const char *cmd, int *status)
{
	struct timespec tick = {0, 20 * 1000 * 1000};
	double waited = 0;
	pid_t pid;

	*status = 0;
	if (!cmd) {
		while (!watch_stop && waited < seconds) {
			nanosleep(&tick, NULL);
			waited += 0.02;
			trace_poll(ts, rec, WATCH_POLL_BYTES);
		}
		return 0;
	}
	pid = fork();
	if (pid < 0)
		return errno;
	if (!pid) {
		dup2(STDERR_FILENO, STDOUT_FILENO);	/* keep JSON clean */
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, status, WNOHANG);

		if (w == pid || (w < 0 && errno != EINTR))
			break;
		trace_poll(ts, rec, WATCH_POLL_BYTES);
		nanosleep(&tick, NULL);
	}
	return 0;
}

static int num_arg(struct session *s, const char *opt, const char *val,
		   double *v)
{
	char *end;

	if (val) {
		*v = strtod(val, &end);
		if (end != val && !*end && *v >= 0 && *v < 1e7)
			return 0;
	}
	out_error(s->out, "alloc", 0, "%s needs a number, not %s", opt,
		  val ? val : "nothing");
	return -1;
}

#define WATCH_USAGE "Usage: alloc watch [--seconds N] [--run COMMAND] " \
	"[--limit N] [--top N] [--by inode|caller|inode,caller] " \
	"[--buffer-kb N] [--from-stream]"

static int do_watch(struct session *s, int argc, char **argv)
{
	double seconds = 10, limit = 100, top = 10, kb = TRACE_BUFFER_KB;
	struct sigaction sa, old_int, old_term;
	enum watch_by by = WATCH_BY_INODE;
	struct trace_opts opts;
	struct trace_session ts;
	struct trace_rec rec;
	const char *cmd = NULL;
	char why[512];
	struct timespec t0, t1;
	int i, status = 0, err, from_stream = 0;

	for (i = 2; i < argc; i++) {
		const char *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--seconds")) {
			if (num_arg(s, argv[i], val, &seconds))
				return CMD_FAIL;
		} else if (!strcmp(argv[i], "--limit")) {
			if (num_arg(s, argv[i], val, &limit))
				return CMD_FAIL;
		} else if (!strcmp(argv[i], "--top")) {
			if (num_arg(s, argv[i], val, &top))
				return CMD_FAIL;
		} else if (!strcmp(argv[i], "--buffer-kb")) {
			if (num_arg(s, argv[i], val, &kb))
				return CMD_FAIL;
			if (kb < 4 || kb > 4194304 || kb != (unsigned)kb) {
				out_error(s->out, "alloc", 0, "--buffer-kb "
					  "needs a whole number from 4 to "
					  "4194304 (KiB per CPU), not %s",
					  val);
				return CMD_FAIL;
			}
		} else if (!strcmp(argv[i], "--by") && val) {
			if (watch_by_parse(val, &by)) {
				out_error(s->out, "alloc", 0, "--by takes "
					  "inode, caller or inode,caller, "
					  "not %s", val);
				return CMD_FAIL;
			}
		} else if (!strcmp(argv[i], "--run") && val) {
			cmd = val;
		} else if (!strcmp(argv[i], "--json")) {
			continue;
		} else if (!strcmp(argv[i], "--from-stream")) {
			from_stream = 1;
			continue;
		} else {
			out_error(s->out, "alloc", 0, WATCH_USAGE);
			return CMD_FAIL;
		}
		i++;
	}
	memset(&opts, 0, sizeof(opts));
	opts.buffer_kb = (unsigned)kb;
	opts.no_counters = from_stream;
	if (trace_start_opts(&ts, s->live->kdev, &opts, why, sizeof(why))) {
		out_error(s->out, "alloc watch", 0, "%s", why);
		return CMD_FAIL;
	}
	memset(&rec, 0, sizeof(rec));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	watch_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = wait_workload(&ts, &rec, seconds, cmd, &status);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (trace_finish(&ts, &rec)) {
		out_error(s->out, "alloc watch", errno, "while reading the "
			  "trace");
		trace_rec_free(&rec);
		return CMD_FAIL;
	}
	rec.seconds = (double)(t1.tv_sec - t0.tv_sec) +
		      (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (err)
		out_error(s->out, "alloc watch", err, "while starting %s",
			  cmd);
	watch_report(s, &rec, by, (size_t)top, (size_t)limit);
	trace_rec_free(&rec);
	if (cmd && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		out_error(s->out, "alloc watch", 0, "the command %s failed",
			  cmd);
		return CMD_FAIL;
	}
	return err ? CMD_FAIL : CMD_OK;
}

static int do_alloc(struct session *s, int argc, char **argv)
{
	if (argc < 2) {
		out_error(s->out, argv[0], 0, "Usage: alloc watch|tunables|"
			  "set|revert ...");
		return CMD_FAIL;
	}
	if (strcmp(argv[1], "watch") && strcmp(argv[1], "tunables") &&
	    strcmp(argv[1], "set") && strcmp(argv[1], "revert")) {
		out_error(s->out, argv[0], 0, "no alloc request %s (watch, "
			  "tunables, set, revert)", argv[1]);
		return CMD_FAIL;
	}
	if (need_live(s, argv[0]))
		return CMD_FAIL;
	if (!strcmp(argv[1], "watch"))
		return do_watch(s, argc, argv);
	if (!strcmp(argv[1], "set"))
		return alloc_set(s, argc, argv);
	if (argc != 2) {
		out_error(s->out, argv[0], 0, "Usage: alloc %s", argv[1]);
		return CMD_FAIL;
	}
	return !strcmp(argv[1], "tunables") ? alloc_tunables(s)
						 : alloc_revert(s);
}

const struct cmd_entry cmd_alloc = {
	.name = "alloc",
	.synopsis = "alloc watch [--seconds N] [--run COMMAND] [--limit N] "
		    "[--top N] [--by inode|caller|inode,caller] [--buffer-kb "
		    "N] [--from-stream] | alloc tunables | alloc set "
		    "NAME=VALUE ... [--preview] | alloc revert",
	.summary = "Watch and tune the kernel's block allocator (live mode)",
	.options = "watch tunables set revert --seconds --run --limit --top "
		   "--by --buffer-kb --from-stream --preview",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_alloc,
};
