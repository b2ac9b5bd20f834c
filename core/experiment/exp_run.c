/* exp_run.c - the experiment's method: N runs per side, interleaved
 * A B B A ..., each on a fresh copy on a fresh loop mount with caches
 * dropped, the counters recorded around the workload; everything it makes
 * removed afterwards, also when SIGINT or SIGTERM stops it. */
#include "exp_run.h"
#include "exp_loop.h"
#include "exp_trace.h"
#include "exp_workload.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The one process-wide flag a signal handler may set. */
volatile sig_atomic_t exp_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	exp_interrupted = 1;
}

#define NSTOP	4

struct saved_sigs {
	struct sigaction old[NSTOP];
};

/* SIGPIPE too: a reader of the output that goes away (| head) must not
 * kill us with a copy mounted */
static const int stop_sigs[NSTOP] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void catch_signals(struct saved_sigs *s)
{
	struct sigaction sa;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: waits return */
	sigemptyset(&sa.sa_mask);
	exp_interrupted = 0;
	for (i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &sa, &s->old[i]);
}

static void restore_signals(struct saved_sigs *s)
{
	int i;

	for (i = 0; i < NSTOP; i++)
		sigaction(stop_sigs[i], &s->old[i], NULL);
}

int exp_event_parse(const char *text, struct exp_event_spec *s)
{
	const char *c1 = strchr(text, ':'), *c2, *p;
	char keys[128], *tok, *save = NULL;

	memset(s, 0, sizeof(*s));
	if (!c1 || c1 == text || (size_t)(c1 - text) >= sizeof(s->system))
		return -1;
	c2 = strchr(c1 + 1, ':');
	p = c2 ? c2 : c1 + strlen(c1);
	if (p == c1 + 1 || (size_t)(p - c1 - 1) >= sizeof(s->event))
		return -1;
	memcpy(s->system, text, (size_t)(c1 - text));
	memcpy(s->event, c1 + 1, (size_t)(p - c1 - 1));
	for (p = text; *p; p++)
		if (!(*p == '_' || *p == ':' || *p == ',' ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9')))
			return -1;	/* it becomes a tracefs path */
	if (!c2)
		return 0;
	if (strlen(c2 + 1) >= sizeof(keys))
		return -1;
	strcpy(keys, c2 + 1);
	for (tok = strtok_r(keys, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (s->nkeys == EXP_MAX_KEYS ||
		    strlen(tok) >= sizeof(s->keys[0]))
			return -1;
		strcpy(s->keys[s->nkeys++], tok);
	}
	return s->nkeys ? 0 : -1;
}

/* Context of one experiment while it runs. */
struct ctx {
	struct exp_config *c;
	struct exp_tracer *tr;
	char work[PATH_MAX - 64];	/* ours, removed at the end */
	char bimg[PATH_MAX];	/* --change: side B's image */
	struct exp_stage st;	/* the run in progress */
	char why[2 * PATH_MAX + 512];
};

struct classify {
	const struct exp_side *side;
	const struct owner_run *post;
	size_t npost;
};

/* After the run first (the workload's new files), before it otherwise. */
static enum owner_class classify(void *arg, blk64_t blk)
{
	const struct classify *k = arg;
	enum owner_class c = exp_owner_of(k->post, k->npost, blk);

	return c != OWN_FREE ? c : exp_owner_of(k->side->map, k->side->nmap,
						 blk);
}

static void progress(struct ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void progress(struct ctx *x, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!x->c->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	out_errtext(x->c->out, "experiment: %s\n", line);
}

static errcode_t hook(struct ctx *x, const char *phase,
		      const struct exp_side *sd, unsigned index)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)x->c->hook,
			 NULL };
	char out[PATH_MAX + 16], num[16];

	if (!x->c->hook)
		return 0;
	snprintf(num, sizeof(num), "%u", index);
	setenv("E2L_EXP_PHASE", phase, 1);
	setenv("E2L_EXP_SIDE", sd->name, 1);
	setenv("E2L_EXP_RUN", num, 1);
	setenv("E2L_EXP_DEV", x->st.devname, 1);
	setenv("E2L_EXP_MNT", x->st.mnt, 1);
	setenv("E2L_EXP_TRACE", expt_instance_dir(x->tr), 1);
	snprintf(out, sizeof(out), "%s/hook.out", x->work);
	return expw_spawn(argv, x->st.mnt, out, x->why, sizeof(x->why));
}

/*
 * The run's jbd2 commits from /proc/fs/jbd2/DEV/info (c0: the count
 * before it).  jbd2 counts a commit there only after the commit's
 * jbd2_run_stats event has fired: read right after the workload's syncfs,
 * the count can lag the traced one by the last commit.  With wait, the
 * count is re-read every millisecond until it reaches what the trace saw,
 * for at most 100 ms (a count that never gets there is reported as it
 * is).  Left as it was when /proc cannot be read.
 */
static void jbd2_count(const char *devname, struct exp_counters *c,
		       unsigned long long c0, int wait)
{
	struct timespec ms = { 0, 1000000 };
	unsigned long long n;
	double us;
	int i;

	for (i = 0; !expt_jbd2_info(devname, &n, &us); i++) {
		c->jbd2_commits = n - c0;
		c->jbd2_commit_us = us;
		if (!wait || i == 100 ||
		    c->jbd2_commits >= c->jbd2_traced_commits)
			return;
		nanosleep(&ms, NULL);
	}
}

/* One run of side sd: copy, mount, measure, take down, count. */
static errcode_t one_run(struct ctx *x, struct exp_side *sd,
			 struct exp_run *run)
{
	struct exp_config *c = x->c;
	struct exp_workload wl;		/* this side's */
	struct expt_req *reqs = NULL;
	struct owner_run *post = NULL;
	unsigned long long c0 = 0;
	char dir[PATH_MAX + 32], tool[PATH_MAX + 16], why2[PATH_MAX + 512];
	size_t nreqs = 0, npost = 0;
	unsigned bs;
	errcode_t err, terr;
	int tracing = 0, fd;
	double us = 0;

	memset(&x->st, 0, sizeof(x->st));
	x->st.loop_fd = -1;
	snprintf(x->st.copy, sizeof(x->st.copy), "%s/run.img", x->work);
	snprintf(x->st.mnt, sizeof(x->st.mnt), "%s/mnt", x->work);
	err = expl_copy(sd->image, x->st.copy, x->why, sizeof(x->why));
	if (err)
		return err;
	x->st.have_copy = 1;
	err = expl_mount(&x->st, sd->mount_opts, x->why, sizeof(x->why));
	if (err)
		goto down;
	/* (the TUI follows the runs' devices by this line) */
	progress(x, "%s on /dev/%s (%u:%u)", sd->name, x->st.devname,
		 (unsigned)(x->st.kdev >> 20), (unsigned)(x->st.kdev & 0xfffff));
	snprintf(dir, sizeof(dir), "%s/e2layout-experiment", x->st.mnt);
	if (mkdir(dir, 0755)) {
		err = errno;
		snprintf(x->why, sizeof(x->why), "cannot create %s: %s", dir,
			 strerror(err));
		goto down;
	}
	err = expl_drop_caches();
	if (err) {
		snprintf(x->why, sizeof(x->why), "cannot drop the caches "
			 "(/proc/sys/vm/drop_caches): %s", strerror(err));
		goto down;
	}
	err = hook(x, "before", sd, run->index);
	if (err)
		goto down;
	run->c.have_jbd2 = !expt_jbd2_info(x->st.devname, &c0, &us);
	if (c->counters) {
		err = expt_begin(x->tr, x->st.kdev, x->why, sizeof(x->why));
		if (err)
			goto down;
		tracing = 1;
	}
	snprintf(tool, sizeof(tool), "%s/tool.out", x->work);
	wl = c->wl;
	if (sd == &c->side[1] && wl.overwrite_b)
		wl.overwrite = 1;
	err = expw_run(&wl, dir, tool, run, x->why, sizeof(x->why));
	/* what the workload left in memory is part of its cost */
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		if (syncfs(fd) && !err) {
			err = errno;
			snprintf(x->why, sizeof(x->why), "syncfs: %s",
				 strerror(err));
		}
		close(fd);
	}
	if (tracing) {
		terr = expt_end(x->tr, &run->c, &reqs, &nreqs, why2,
				sizeof(why2));
		if (terr && !err) {
			err = terr;
			snprintf(x->why, sizeof(x->why), "%s", why2);
		}
	}
	if (run->c.have_jbd2)
		jbd2_count(x->st.devname, &run->c, c0, tracing);
	if (!err)
		err = hook(x, "after", sd, run->index);
down:
	terr = expl_teardown(&x->st, 0, why2, sizeof(why2));
	if (terr && !err) {
		err = terr;
		snprintf(x->why, sizeof(x->why), "%s", why2);
	}
	if (!err && tracing) {
		struct classify k = { sd, NULL, 0 };

		/* the files the run made, as the copy holds them now */
		if (!exp_owner_map(x->st.copy, &post, &npost, &bs, why2,
				   sizeof(why2))) {
			k.post = post;
			k.npost = npost;
		}
		expt_analyze(reqs, nreqs, sd->blocksize, classify, &k,
			     &run->c);
	}
	free(post);
	free(reqs);
	terr = expl_teardown(&x->st, 1, why2, sizeof(why2));
	if (terr && !err) {
		err = terr;
		snprintf(x->why, sizeof(x->why), "%s", why2);
	}
	if (exp_interrupted && !err) {
		err = EINTR;
		snprintf(x->why, sizeof(x->why), "interrupted");
	}
	return err;
}

static errcode_t prepare(struct ctx *x)
{
	struct exp_config *c = x->c;
	char tmpl[PATH_MAX - 64], *dirc, undo[PATH_MAX];
	struct strbuf log = { 0 };
	errcode_t err;
	int i;

	if (strlen(c->workdir ? c->workdir : c->side[0].image) > PATH_MAX -
	    128) {
		snprintf(x->why, sizeof(x->why), "the work directory's path "
			 "is too long");
		return ENAMETOOLONG;
	}
	if (c->workdir) {
		snprintf(tmpl, sizeof(tmpl), "%s/e2layout-exp-XXXXXX",
			 c->workdir);
	} else {
		/* beside A, so that a copy can be a reflink */
		dirc = strdup(c->side[0].image);
		if (!dirc)
			return ENOMEM;
		snprintf(tmpl, sizeof(tmpl), "%s/.e2layout-exp-XXXXXX",
			 dirname(dirc));
		free(dirc);
	}
	if (!mkdtemp(tmpl)) {
		err = errno;
		snprintf(x->why, sizeof(x->why), "cannot create a work "
			 "directory %s: %s (--workdir DIR puts it elsewhere)",
			 tmpl, strerror(err));
		return err;
	}
	snprintf(x->work, sizeof(x->work), "%s", tmpl);
	for (i = 0; i < 2; i++) {
		if (c->change && i)
			break;	/* B: made by the plan path, verified */
		if (i && !strcmp(c->side[0].image, c->side[1].image))
			break;
		if (!c->no_check)
			progress(x, "checking %s (e2fsck -fn %s)",
				 c->side[i].name, c->side[i].image);
		err = exp_check_image(c->side[i].name, c->side[i].image,
				      !c->no_check, x->why, sizeof(x->why));
		if (err)
			return err;
	}
	if (c->change) {
		snprintf(x->bimg, sizeof(x->bimg), "%s/B.img", x->work);
		snprintf(undo, sizeof(undo), "%s/B.e2undo", x->work);
		progress(x, "making B: a copy of %s with \"%s\" applied",
			 c->side[0].image, c->change);
		err = exp_make_change(c->side[0].image, x->bimg, undo,
				      c->change, &log, x->why,
				      sizeof(x->why));
		if (err) {
			if (log.len)
				out_errtext(c->out, "%s", log.buf);
			strbuf_free(&log);
			return err;
		}
		progress(x, "B made and verified (undo file %s)", undo);
		strbuf_free(&log);
		snprintf(c->side[1].image, sizeof(c->side[1].image), "%s",
			 x->bimg);
	}
	for (i = 0; i < 2; i++) {
		err = exp_owner_map(c->side[i].image, &c->side[i].map,
				    &c->side[i].nmap, &c->side[i].blocksize,
				    x->why, sizeof(x->why));
		if (err)
			return err;
	}
	if (c->counters) {
		err = expt_open(&x->tr, c, x->why, sizeof(x->why));
		if (err)
			return err;
	}
	return 0;
}

/* Empties and removes our work directory: its files (copies, the undo
 * file, tool output) and its empty directories; never follows a link or
 * descends into a directory that is still mounted (rmdir would fail). */
static void remove_work(struct ctx *x)
{
	char p[PATH_MAX + 300];
	struct dirent *d;
	struct stat st;
	DIR *dir;

	if (!x->work[0])
		return;
	dir = opendir(x->work);
	while (dir && (d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", x->work, d->d_name);
		if (lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			rmdir(p);
		else
			unlink(p);
	}
	if (dir)
		closedir(dir);
	rmdir(x->work);
}

/* --keep-b: B and its undo file out of the work directory. */
static int keep_b(struct ctx *x)
{
	char undo[PATH_MAX], dst[PATH_MAX + 16], why[PATH_MAX + 512];

	snprintf(undo, sizeof(undo), "%s/B.e2undo", x->work);
	snprintf(dst, sizeof(dst), "%s.e2undo", x->c->keep_b);
	if (access(x->bimg, F_OK))
		return 0;	/* never made */
	if (expl_copy(x->bimg, x->c->keep_b, why, sizeof(why)) ||
	    expl_copy(undo, dst, why, sizeof(why))) {
		out_error(x->c->out, "experiment", 0, "keeping B: %s", why);
		return -1;
	}
	progress(x, "B kept as %s (e2undo %s %s restores A's layout)",
		 x->c->keep_b, dst, x->c->keep_b);
	return 0;
}

errcode_t exp_run(struct exp_config *c)
{
	struct saved_sigs sigs;
	struct ctx x;
	unsigned i, total = 2 * c->runs;
	errcode_t err;

	memset(&x, 0, sizeof(x));
	x.c = c;
	x.st.loop_fd = -1;
	catch_signals(&sigs);
	for (i = 0; i < 2; i++) {
		c->side[i].runs = calloc(c->runs, sizeof(struct exp_run));
		if (!c->side[i].runs) {
			err = ENOMEM;
			goto out;
		}
	}
	err = prepare(&x);
	/* the first run on a machine pays for cold caches of the host (the
	 * image's file, the program, the kernel's slabs): not counted */
	for (i = 0; !err && i < c->warmup; i++) {
		struct exp_run w;

		memset(&w, 0, sizeof(w));
		progress(&x, "warm-up run %u/%u (not counted)", i + 1,
			 c->warmup);
		err = one_run(&x, &c->side[0], &w);
		expt_counters_free(&w.c);
	}
	for (i = 0; !err && i < total; i++) {
		/* A B, then B A: pairs alternate so that drift over time
		 * (a warming disk, a neighbour's load) falls on both */
		unsigned pair = i / 2, s = (i % 2) ^ (c->keep_order ? 0 :
						     pair % 2);
		struct exp_side *sd = &c->side[s];
		struct exp_run *run = &sd->runs[sd->nruns];

		if (exp_interrupted) {
			err = EINTR;
			snprintf(x.why, sizeof(x.why), "interrupted");
			break;
		}
		run->index = (unsigned)sd->nruns + 1;
		progress(&x, "run %u/%u: %s #%u (%s)", i + 1, total, sd->name,
			 run->index, exp_workload_name(c->wl.kind));
		err = one_run(&x, sd, run);
		if (err)
			break;
		sd->nruns++;
		progress(&x, "run %u/%u: %s #%u took %.3f s", i + 1, total,
			 sd->name, run->index, run->seconds);
	}
	if (!err)
		exp_report(c);
	if (x.bimg[0] && c->keep_b && keep_b(&x) && !err)
		err = EIO;
out:
	expl_teardown(&x.st, 1, x.why + strlen(x.why), 1);
	expt_close(x.tr);
	remove_work(&x);
	if (err) {
		if (err == EINTR || exp_interrupted)
			out_error(c->out, "experiment", 0, "interrupted; the "
				  "copies, mounts and loop devices it made "
				  "are removed");
		else
			out_error(c->out, "experiment", 0, "%s", x.why[0] ?
				  x.why : error_message(err));
	}
	restore_signals(&sigs);
	return err ? err : 0;
}

void exp_config_free(struct exp_config *c)
{
	size_t i, r;

	for (i = 0; i < 2; i++) {
		/* also the run an interruption cut short (zeroed if unused) */
		for (r = 0; c->side[i].runs && r < c->runs; r++)
			expt_counters_free(&c->side[i].runs[r].c);
		free(c->side[i].runs);
		free(c->side[i].map);
		c->side[i].runs = NULL;
		c->side[i].map = NULL;
	}
}
