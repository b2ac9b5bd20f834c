/* alloc.c - `alloc watch|tunables|set|revert` on a mounted ext4:
 * records where the kernel's allocator puts blocks (tracepoints); the
 * tunables half lives in alloc_tune.c. */
#include "cmd.h"
#include "alloc_tune.h"
#include "live.h"
#include "trace.h"
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

/* Waits for seconds, or for cmd (run by sh -c) to end; 0 or an errno. */
static int wait_workload(double seconds, const char *cmd, int *status)
{
	struct timespec tick = {0, 50 * 1000 * 1000};
	double waited = 0;
	pid_t pid;

	*status = 0;
	if (!cmd) {
		while (!watch_stop && waited < seconds) {
			nanosleep(&tick, NULL);
			waited += 0.05;
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
	while (waitpid(pid, status, 0) < 0 && errno == EINTR)
		;
	return 0;
}

static void print_allocs(struct session *s, const struct trace_rec *r,
			 size_t limit)
{
	ext2_filsys fs = s->fs;
	size_t i;

	if (sink_is_json(s->out)) {
		json_arr_begin(s->out, "allocations");
		for (i = 0; i < r->nallocs; i++) {
			const struct trace_alloc *a = &r->allocs[i];
			dgrp_t g = trace_group(fs, a->block);

			json_obj_begin(s->out, NULL);
			json_u64(s->out, "inode", a->ino);
			json_u64(s->out, "logical", a->lblk);
			json_u64(s->out, "length", a->len);
			json_u64(s->out, "goal", a->goal);
			json_u64(s->out, "goal_group",
				 trace_group(fs, a->goal));
			json_u64(s->out, "block", a->block);
			json_u64(s->out, "group", g);
			json_u64(s->out, "flex_group", trace_flex(fs, g));
			json_i64(s->out, "distance",
				 (int64_t)(a->block - a->goal));
			json_bool(s->out, "preallocated", a->prealloc);
			json_str(s->out, "criterion", a->mb ? a->cr : NULL);
			json_u64(s->out, "groups_scanned", a->scanned);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
		return;
	}
	if (!r->nallocs)
		return;
	out_printf(s->out, "%8s %9s %7s %11s %11s %6s %5s %10s  %s\n",
		   "inode", "logical", "length", "goal", "block", "group",
		   "flex", "distance", "how");
	for (i = 0; i < r->nallocs && i < limit; i++) {
		const struct trace_alloc *a = &r->allocs[i];
		dgrp_t g = trace_group(fs, a->block);

		out_printf(s->out, "%8llu %9u %7u %11llu %11llu %6u %5u %+10lld"
			   "  %s", (unsigned long long)a->ino, a->lblk,
			   a->len, (unsigned long long)a->goal,
			   (unsigned long long)a->block, g, trace_flex(fs, g),
			   (long long)(a->block - a->goal),
			   a->prealloc ? "prealloc" : a->mb ? a->cr : "-");
		if (a->mb && !a->prealloc)
			out_printf(s->out, ", %u group%s scanned", a->scanned,
				   a->scanned == 1 ? "" : "s");
		out_printf(s->out, "\n");
	}
	if (r->nallocs > limit)
		out_printf(s->out, "... %zu more (--limit N, or --json for "
			   "all)\n", r->nallocs - limit);
}

static void print_summary(struct session *s, const struct trace_rec *r,
			  size_t top)
{
	struct trace_summary sum;
	size_t i;

	trace_summarize(s->fs, r, &sum);
	if (sink_is_json(s->out)) {
		json_double(s->out, "seconds", r->seconds);
		json_u64(s->out, "requests", r->requests);
		json_u64(s->out, "mballoc", r->mballoc);
		json_u64(s->out, "from_preallocation", r->prealloc);
		json_u64(s->out, "blocks", sum.blocks);
		json_u64(s->out, "at_goal", sum.at_goal);
		json_double(s->out, "mean_distance", sum.mean_distance);
		json_u64(s->out, "max_distance", sum.max_distance);
		json_u64(s->out, "groups_touched", sum.groups);
		json_u64(s->out, "flex_groups_touched", sum.flexes);
		json_u64(s->out, "lost_events", r->lost);
		json_arr_begin(s->out, "hottest_inodes");
		for (i = 0; i < r->ndirty && i < top; i++) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "inode", r->dirty[i].ino);
			json_u64(s->out, "mark_inode_dirty",
				 r->dirty[i].count);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
		return;
	}
	out_printf(s->out, "Recorded %.1f s on %s (%s): %zu allocations, "
		   "%llu blocks; %lu requests, %lu mballoc searches, %lu "
		   "from preallocations\n", r->seconds, s->live->source,
		   s->live->mnt, sum.allocs, (unsigned long long)sum.blocks,
		   r->requests, r->mballoc, r->prealloc);
	if (sum.allocs)
		out_printf(s->out, "At goal: %zu of %zu; distance from goal: "
			   "mean %.1f, max %llu blocks; %u groups, %u flex "
			   "groups touched\n", sum.at_goal, sum.allocs,
			   sum.mean_distance,
			   (unsigned long long)sum.max_distance, sum.groups,
			   sum.flexes);
	if (r->lost)
		out_printf(s->out, "Warning: %lu trace events were lost (the "
			   "buffer filled); counts are low\n", r->lost);
	if (!r->ndirty)
		return;
	out_printf(s->out, "Hottest inodes (mark_inode_dirty, %lu events):\n",
		   r->dirty_events);
	for (i = 0; i < r->ndirty && i < top; i++)
		out_printf(s->out, "  %8llu %8lu\n",
			   (unsigned long long)r->dirty[i].ino,
			   r->dirty[i].count);
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

static int do_watch(struct session *s, int argc, char **argv)
{
	double seconds = 10, limit = 100, top = 10;
	struct sigaction sa, old_int, old_term;
	struct trace_session ts;
	struct trace_rec rec;
	const char *cmd = NULL;
	char why[512];
	struct timespec t0, t1;
	int i, status = 0, err;

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
		} else if (!strcmp(argv[i], "--run") && val) {
			cmd = val;
		} else if (!strcmp(argv[i], "--json")) {
			continue;
		} else {
			out_error(s->out, "alloc", 0, "Usage: alloc watch "
				  "[--seconds N] [--run COMMAND] [--limit N] "
				  "[--top N]");
			return CMD_FAIL;
		}
		i++;
	}
	if (trace_start(&ts, s->live->kdev, why, sizeof(why))) {
		out_error(s->out, "alloc watch", 0, "%s", why);
		return CMD_FAIL;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	watch_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = wait_workload(seconds, cmd, &status);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	if (trace_stop(&ts, &rec)) {
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
	print_summary(s, &rec, (size_t)top);
	print_allocs(s, &rec, (size_t)limit);
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
		    "[--top N] | alloc tunables | alloc set NAME=VALUE... "
		    "[--preview] | alloc revert",
	.summary = "Watch and tune the kernel's block allocator (live mode)",
	.options = "watch tunables set revert --seconds --run --limit --top "
		   "--preview",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_alloc,
};
