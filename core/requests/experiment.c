/* experiment.c - the `experiment` request: did a layout change matter, and
 * why.  Parses and checks the command line (every argument is hostile until
 * checked), then hands the experiment to the engine in core/experiment/. */
#include "cmd.h"
#include "exp.h"
#include "exp_loop.h"
#include "exp_trace.h"
#include "exp_workload.h"
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define USAGE "Usage: experiment A.img [B.img | --change REQUEST] " \
	"--workload NAME|--fio JOB|--bonnie ARGS|--dbench N [--runs N] " \
	"[--mount-opts O] [--mount-opts-b O] [options]; see help experiment"

static int bad(struct session *s, const char *fmt, const char *a,
	       const char *b)
{
	char msg[2 * PATH_MAX + 1024];

	snprintf(msg, sizeof(msg), fmt, a, b);
	out_error(s->out, "experiment", 0, "%s", msg);
	return CMD_FAIL;
}

static int uint_arg(const char *v, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long n;

	if (!v || *v < '0' || *v > '9')
		return -1;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || n < lo || n > hi)
		return -1;
	*out = (unsigned)n;
	return 0;
}

/* A path with no control characters, naming a regular file. */
static int check_file(struct session *s, const char *what, const char *p)
{
	struct stat st;
	const char *c;
	int mflags = 0;

	for (c = p; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return bad(s, "%s: the path holds a control character",
				   what, NULL);
	if (!*p)
		return bad(s, "%s: an empty path", what, NULL);
	if (stat(p, &st))
		return bad(s, "%s: %s", p, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bad(s, "%s is not a regular file (%s)", p,
			   "an experiment copies image files");
	if (access(p, R_OK))
		return bad(s, "%s: %s", p, strerror(errno));
	if (!strcmp(what, "image") &&
	    (ext2fs_check_if_mounted(p, &mflags) || (mflags & EXT2_MF_MOUNTED)))
		return bad(s, "%s is mounted: an experiment runs on copies of "
			   "an unmounted image (%s)", p,
			   "unmount it, or copy it first");
	return CMD_OK;
}

struct opts {
	const char *img[2], *size;
	const char *mopts, *mopts_b;	/* both sides; B's own */
	int set_dirs, set_files, set_size, set_ops, set_threads, set_secs;
	int overwrite, overwrite_b, quiet;
	unsigned dirs, files, ops, threads, secs;
};

static int applies(struct session *s, const struct exp_workload *w,
		   const char *opt, int ok)
{
	if (ok)
		return CMD_OK;
	return bad(s, "%s does not apply to the %s workload", opt,
		   exp_workload_name(w->kind));
}

/* The size options onto the chosen workload's defaults. */
static int finish_workload(struct session *s, struct opts *o,
			   struct exp_workload *w)
{
	enum exp_wl_kind k = w->kind;
	__u64 size;

	if (o->set_dirs && applies(s, w, "--dirs", k == EXP_WL_SMALLCREATE))
		return CMD_FAIL;
	if (o->set_files && applies(s, w, "--files", k == EXP_WL_SMALLCREATE ||
				    k == EXP_WL_CREATEREADDELETE))
		return CMD_FAIL;
	if (o->set_ops && applies(s, w, "--ops", k == EXP_WL_RANDWRITE))
		return CMD_FAIL;
	if (o->overwrite && applies(s, w, "--overwrite",
				    k == EXP_WL_RANDWRITE))
		return CMD_FAIL;
	if (o->overwrite_b && applies(s, w, "--overwrite-b",
				      k == EXP_WL_RANDWRITE))
		return CMD_FAIL;
	if (o->overwrite && o->overwrite_b)
		return bad(s, "--overwrite (both sides) or --overwrite-b (B "
			   "alone), not both", NULL, NULL);
	if (o->set_threads && applies(s, w, "--threads", k == EXP_WL_PARALLEL))
		return CMD_FAIL;
	if (o->set_secs && applies(s, w, "--seconds", k == EXP_WL_DBENCH))
		return CMD_FAIL;
	if (o->set_size && applies(s, w, "--size", k < EXP_WL_FIO))
		return CMD_FAIL;
	if (o->set_dirs)
		w->dirs = o->dirs;
	if (o->set_files)
		w->files = o->files;
	if (o->set_ops)
		w->ops = o->ops;
	if (o->set_threads)
		w->threads = o->threads;
	if (o->set_secs)
		w->seconds = o->secs;
	w->overwrite = o->overwrite;
	w->overwrite_b = o->overwrite_b;
	if (o->set_size) {
		if (workload_parse_size(o->size, &size) ||
		    size > (1ULL << 36) ||
		    (k == EXP_WL_RANDWRITE && size < 4096))
			return bad(s, "bad value for --size: %s (K, M, G "
				   "suffixes; randwrite needs 4K or more)",
				   o->size, NULL);
		w->size = size;
	}
	return CMD_OK;
}

static int set_workload(struct session *s, struct exp_workload *w,
			enum exp_wl_kind k, const char *arg)
{
	if (w->kind != EXP_WL_NONE)
		return bad(s, "one workload at a time (--workload, --fio, "
			   "--bonnie or --dbench)", NULL, NULL);
	exp_workload_defaults(w, k);
	w->arg = arg;
	return CMD_OK;
}

static int parse(struct session *s, int argc, char **argv,
		 struct exp_config *c, struct opts *o, char **fio_path)
{
	unsigned nimg = 0;
	double d;
	char *end;
	int i;

	c->wl.kind = EXP_WL_NONE;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		int takes = 1;

		if (a[0] != '-') {
			if (nimg == 2)
				return bad(s, "too many images: %s (%s)", a,
					   "A and B, or A and --change");
			o->img[nimg++] = a;
			continue;
		}
		if (!strcmp(a, "--json") || !strcmp(a, "--overwrite") ||
		    !strcmp(a, "--overwrite-b") || !strcmp(a, "--no-check") ||
		    !strcmp(a, "--no-counters") || !strcmp(a, "--quiet") ||
		    !strcmp(a, "--no-interleave")) {
			if (!strcmp(a, "--overwrite"))
				o->overwrite = 1;
			else if (!strcmp(a, "--overwrite-b"))
				o->overwrite_b = 1;
			else if (!strcmp(a, "--no-check"))
				c->no_check = 1;
			else if (!strcmp(a, "--no-counters"))
				c->counters = 0;
			else if (!strcmp(a, "--quiet"))
				o->quiet = 1;
			else if (!strcmp(a, "--no-interleave"))
				c->keep_order = 1;
			continue;
		}
		if (!v)
			return bad(s, "%s needs a value. %s", a, USAGE);
		if (!strcmp(a, "--workload")) {
			enum exp_wl_kind k = exp_workload_kind(v);

			if (k == EXP_WL_NONE)
				return bad(s, "unknown workload \"%s\" (%s)", v,
					   "smallcreate, randwrite, parallel, "
					   "createreaddelete; or --fio, "
					   "--bonnie, --dbench");
			if (set_workload(s, &c->wl, k, NULL))
				return CMD_FAIL;
		} else if (!strcmp(a, "--fio")) {
			if (check_file(s, "fio job", v))
				return CMD_FAIL;
			char why[PATH_MAX + 256];

			*fio_path = realpath(v, NULL);
			if (!*fio_path)
				return bad(s, "%s: %s", v, strerror(errno));
			if (expw_check_job(*fio_path, why, sizeof(why)))
				return bad(s, "%s", why, NULL);
			if (set_workload(s, &c->wl, EXP_WL_FIO, *fio_path))
				return CMD_FAIL;
		} else if (!strcmp(a, "--bonnie")) {
			/* ours: the directory (the copy) and the user */
			if (strstr(v, "-d") || strstr(v, "-u") ||
			    strstr(v, "-p") || strstr(v, "-y"))
				return bad(s, "--bonnie \"%s\": -d, -u, -p and "
					   "-y are the experiment's (it runs in "
					   "the mounted copy, as root)", v,
					   NULL);
			if (set_workload(s, &c->wl, EXP_WL_BONNIE, v))
				return CMD_FAIL;
		} else if (!strcmp(a, "--dbench")) {
			unsigned n;

			if (uint_arg(v, 1, 1024, &n))
				return bad(s, "bad dbench client count: %s "
					   "(1 to 1024)", v, NULL);
			if (set_workload(s, &c->wl, EXP_WL_DBENCH, v))
				return CMD_FAIL;
		} else if (!strcmp(a, "--runs")) {
			if (uint_arg(v, 2, 1000, &c->runs))
				return bad(s, "bad --runs %s: 2 to 1000 runs "
					   "per side (the statistics need at "
					   "least two)", v, NULL);
		} else if (!strcmp(a, "--mount-opts") ||
			   !strcmp(a, "--mount-opts-b")) {
			char why[512];

			if (expl_check_opts(v, why, sizeof(why)))
				return bad(s, "%s: %s", a, why);
			if (!strcmp(a, "--mount-opts"))
				o->mopts = v;
			else
				o->mopts_b = v;
		} else if (!strcmp(a, "--warmup")) {
			if (uint_arg(v, 0, 100, &c->warmup))
				return bad(s, "bad --warmup %s (0 to 100)", v,
					   NULL);
		} else if (!strcmp(a, "--change")) {
			c->change = v;
		} else if (!strcmp(a, "--dirs")) {
			o->set_dirs = 1;
			if (uint_arg(v, 1, 10000, &o->dirs))
				return bad(s, "bad --dirs %s (1 to 10000)", v,
					   NULL);
		} else if (!strcmp(a, "--files")) {
			o->set_files = 1;
			if (uint_arg(v, 1, 1000000, &o->files))
				return bad(s, "bad --files %s (1 to 1000000)",
					   v, NULL);
		} else if (!strcmp(a, "--ops")) {
			o->set_ops = 1;
			if (uint_arg(v, 1, 10000000, &o->ops))
				return bad(s, "bad --ops %s (1 to 10000000)",
					   v, NULL);
		} else if (!strcmp(a, "--threads")) {
			o->set_threads = 1;
			if (uint_arg(v, 1, 64, &o->threads))
				return bad(s, "bad --threads %s (1 to 64)", v,
					   NULL);
		} else if (!strcmp(a, "--seconds")) {
			o->set_secs = 1;
			if (uint_arg(v, 1, 86400, &o->secs))
				return bad(s, "bad --seconds %s", v, NULL);
		} else if (!strcmp(a, "--size")) {
			o->set_size = 1;
			o->size = v;
		} else if (!strcmp(a, "--detect")) {
			d = strtod(v, &end);
			if (end == v || *end || !(d > 0 && d < 1000))
				return bad(s, "bad --detect %s (a percentage "
					   "above 0)", v, NULL);
			c->detect_pct = d;
		} else if (!strcmp(a, "--count")) {
			if (c->nevents == EXP_MAX_EVENTS ||
			    exp_event_parse(v, &c->events[c->nevents]))
				return bad(s, "bad --count %s (SYSTEM:EVENT"
					   "[:FIELD[,FIELD]], at most 6)", v,
					   NULL);
			c->nevents++;
		} else if (!strcmp(a, "--workdir")) {
			struct stat st;

			if (stat(v, &st) || !S_ISDIR(st.st_mode))
				return bad(s, "--workdir %s is not a "
					   "directory", v, NULL);
			c->workdir = v;
		} else if (!strcmp(a, "--keep-b")) {
			const char *q;

			for (q = v; *q; q++)
				if ((unsigned char)*q < 0x20 || *q == 0x7f)
					return bad(s, "--keep-b: the path "
						   "holds a control character",
						   NULL, NULL);
			if (!*v || access(v, F_OK) == 0 || errno != ENOENT)
				return bad(s, "--keep-b %s: the path must not "
					   "exist (B is never written over "
					   "anything)", v, NULL);
			c->keep_b = v;
		} else if (!strcmp(a, "--hook")) {
			c->hook = v;
		} else {
			takes = 0;
			return bad(s, "unknown option %s. %s", a, USAGE);
		}
		i += takes;
	}
	if (!nimg)
		return bad(s, "no image named. %s", USAGE, NULL);
	if (nimg == 1 && !c->change)
		return bad(s, "one image needs --change REQUEST (B is A with "
			   "the change); or name two images", NULL, NULL);
	if (c->keep_b && !c->change)
		return bad(s, "--keep-b keeps the B that --change makes", NULL,
			   NULL);
	if (nimg == 2 && c->change)
		return bad(s, "--change makes B from A: name one image, not "
			   "two", NULL, NULL);
	if (c->wl.kind == EXP_WL_NONE)
		return bad(s, "no workload: --workload NAME, --fio JOB, "
			   "--bonnie ARGS or --dbench N", NULL, NULL);
	return CMD_OK;
}

static int do_experiment(struct session *s, int argc, char **argv)
{
	struct exp_config c;
	struct opts o;
	char *fio_path = NULL, why[512];
	int rc = CMD_FAIL, i;

	memset(&c, 0, sizeof(c));
	memset(&o, 0, sizeof(o));
	c.runs = 5;
	c.warmup = 1;
	c.counters = 1;
	c.detect_pct = 5;
	c.out = s->out;
	strcpy(c.side[0].name, "A");
	strcpy(c.side[1].name, "B");
	c.side[0].mount_opts = c.side[1].mount_opts = "";
	if (parse(s, argc, argv, &c, &o, &fio_path) ||
	    finish_workload(s, &o, &c.wl))
		goto out;
	c.progress = !o.quiet;
	if (o.mopts)
		c.side[0].mount_opts = c.side[1].mount_opts = o.mopts;
	if (o.mopts_b)
		c.side[1].mount_opts = o.mopts_b;
	for (i = 0; i < 2; i++) {
		if (!o.img[i])
			continue;
		if (check_file(s, "image", o.img[i]))
			goto out;
		snprintf(c.side[i].image, sizeof(c.side[i].image), "%s",
			 o.img[i]);
	}
	if (geteuid() != 0) {
		out_error(s->out, "experiment", 0, "an experiment needs root "
			  "(it attaches loop devices, mounts copies and drops "
			  "caches)");
		goto out;
	}
	if (expw_tool_present(&c.wl, why, sizeof(why))) {
		out_error(s->out, "experiment", 0, "%s", why);
		goto out;
	}
	if (!c.nevents)
		exp_event_parse("ext4:ext4_mark_inode_dirty:ino,ip",
				&c.events[c.nevents++]);
	if (c.counters && expt_available(&c, why, sizeof(why))) {
		out_error(s->out, "experiment", 0, "the counters cannot be "
			  "recorded: %s (--no-counters runs without them)",
			  why);
		goto out;
	}
	if (!exp_run(&c))
		rc = CMD_OK;
out:
	exp_config_free(&c);
	free(fio_path);
	return rc;
}

const struct cmd_entry cmd_experiment = {
	.name = "experiment",
	.synopsis = "experiment A.img [B.img | --change REQUEST] --workload "
		    "NAME|--fio JOB|--bonnie ARGS|--dbench N [--runs N] "
		    "[--mount-opts O] [--mount-opts-b O]",
	.summary = "Did a layout change matter, and why: timed runs of a "
		   "workload on copies of two images, statistics, kernel "
		   "counters",
	.options = "--workload --fio --bonnie --dbench --runs --mount-opts "
		   "--mount-opts-b --warmup --change --keep-b --dirs --files "
		   "--size --ops --threads --overwrite --overwrite-b --seconds "
		   "--count "
		   "--no-counters --no-check --no-interleave --detect --workdir --hook "
		   "--quiet --json",
	.flags = CMD_JSON,
	.complete = COMPLETE_HOST_PATH,
	.run = do_experiment,
};
