/* live_defrag_cmd.c - the `defrag` request on a mounted filesystem (live
 * mode): `defrag PATH... | --worst N [--near PATH | --group G] [--chunk
 * BLOCKS] [--rate BYTES] [--apply]`.  The plan is shown; --apply (or a
 * later `apply`, or `yes` in the TUI) moves the files through the kernel. */
#include "args.h"
#include "cmd.h"
#include "e2l_err.h"
#include "live_defrag.h"

#include <stdlib.h>
#include <string.h>

#define USAGE "Usage: defrag PATH...|<ino>... | --worst N [--near PATH | " \
	      "--group G] [--chunk BLOCKS] [--rate BYTES] [--apply]"

/* Default blocks per EXT4_IOC_MOVE_EXT call: 16 MiB. */
#define LDF_CHUNK_BYTES (16ULL << 20)

static int add_arg(struct session *s, struct ldf_plan *p, const char *arg)
{
	char path[PATH_MAX];
	ext2_ino_t ino;

	if (arg[0] != '<')
		return ldf_plan_add(s, p, arg) ? -1 : 0;
	if (arg_inode(s, "defrag", arg, &ino))
		return 1;
	if (ldf_find_ino(s, ino, path, sizeof(path))) {
		out_error(s->out, "defrag", 0, "%s: no regular file of %s has "
			  "that inode number now", arg, s->live->mnt);
		return 1;
	}
	return ldf_plan_add(s, p, path) ? -1 : 0;
}

static int parse(struct session *s, int argc, char **argv,
		 struct ldf_plan *p, unsigned long long *worst, int *apply,
		 int *first_path)
{
	unsigned long long v;
	__u64 bytes;
	int i;

	*first_path = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] :
						NULL;

		if (!strcmp(a, "--apply")) {
			*apply = 1;
			continue;
		}
		if (a[0] != '-') {
			if (!*first_path)
				*first_path = i;
			continue;
		}
		if (!val) {
			out_error(s->out, "defrag", 0, "%s needs a value; "
				  USAGE, a);
			return 1;
		}
		i++;
		if (!strcmp(a, "--worst")) {
			if (arg_number(s, "defrag", "--worst", val, worst))
				return 1;
			if (!*worst || *worst > LDF_MAX_FILES) {
				out_error(s->out, "defrag", E2L_ERR_BAD_ARGUMENT,
					  "--worst %s: 1 to %d files", val,
					  LDF_MAX_FILES);
				return 1;
			}
		} else if (!strcmp(a, "--near") || !strcmp(a, "--group")) {
			if (p->goal.kind != LDF_GOAL_NONE) {
				out_error(s->out, "defrag", E2L_ERR_BAD_ARGUMENT,
					  "one goal only (--near or --group)");
				return 1;
			}
			if (a[2] == 'n') {
				p->goal.kind = LDF_GOAL_NEAR;
				snprintf(p->goal.near, sizeof(p->goal.near),
					 "%s", val);
				continue;
			}
			if (arg_number(s, "defrag", "--group", val, &v))
				return 1;
			if (v >= s->fs->group_desc_count) {
				out_error(s->out, "defrag", E2L_ERR_BAD_ARGUMENT,
					  "--group %s: the filesystem has "
					  "groups 0-%u", val,
					  s->fs->group_desc_count - 1);
				return 1;
			}
			p->goal.kind = LDF_GOAL_GROUP;
			p->goal.group = (dgrp_t)v;
		} else if (!strcmp(a, "--chunk")) {
			if (arg_number(s, "defrag", "--chunk", val, &v))
				return 1;
			if (!v || v > (1ULL << 32)) {
				out_error(s->out, "defrag", E2L_ERR_BAD_ARGUMENT,
					  "--chunk %s: 1 to 4294967296 blocks",
					  val);
				return 1;
			}
			p->chunk = v;
		} else if (!strcmp(a, "--rate")) {
			if (arg_bytes(s, "defrag", "--rate", val, &bytes))
				return 1;
			if (bytes < p->blocksize) {
				out_error(s->out, "defrag", E2L_ERR_BAD_ARGUMENT,
					  "--rate %s: at least one block (%u "
					  "bytes) a second", val, p->blocksize);
				return 1;
			}
			p->rate = bytes;
		} else {
			out_error(s->out, "defrag", 0, "%s: unknown option; "
				  USAGE, a);
			return 1;
		}
	}
	if (!*first_path && !*worst) {
		out_error(s->out, "defrag", 0, USAGE);
		return 1;
	}
	return 0;
}

/* Every path argument (after the options are taken): -1 when the plan
 * cannot go on, else how many arguments named no file (said already). */
static int add_paths(struct session *s, struct ldf_plan *p, int argc,
		     char **argv)
{
	int i, r, bad = 0;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--apply"))
			continue;
		if (a[0] == '-') {
			i++;	/* an option's value */
			continue;
		}
		r = add_arg(s, p, a);
		if (r < 0)
			return -1;
		bad += r;
	}
	return bad;
}

/* The refused files, as errors: the request fails when any is. */
static size_t report_refused(struct session *s, const struct ldf_plan *p)
{
	size_t i, n = 0;

	for (i = 0; i < p->n; i++)
		if (p->f[i].refused) {
			out_error(s->out, "defrag", 0, "%s: %s",
				  p->f[i].path, p->f[i].why);
			n++;
		}
	return n;
}

int ldf_request(struct session *s, int argc, char **argv)
{
	struct ldf_plan *p = calloc(1, sizeof(*p));
	unsigned long long worst = 0;
	int apply = 0, first = 0, bad, rc = CMD_FAIL;
	char **paths = NULL;
	size_t npaths = 0, i, refused;
	errcode_t err;

	if (!p)
		return CMD_FAIL;
	p->blocksize = s->fs->blocksize;
	p->chunk = LDF_CHUNK_BYTES / p->blocksize;
	if (parse(s, argc, argv, p, &worst, &apply, &first) ||
	    ldf_fs_ok(s, "defrag") || ldf_goal_resolve(s, p, "defrag"))
		goto out;
	if (worst) {
		err = ldf_worst(s, worst, &paths, &npaths);
		if (err) {
			out_error(s->out, "defrag", err, "while looking for the "
				  "most fragmented files of %s", s->live->mnt);
			goto out;
		}
		if (!npaths && !first) {
			if (!sink_is_json(s->out))
				out_printf(s->out, "No file on %s has more "
					   "extents than its size needs: "
					   "nothing to do\n", s->live->mnt);
			rc = CMD_OK;
			goto out;
		}
		for (i = 0; i < npaths; i++)
			if (ldf_plan_add(s, p, paths[i]))
				goto out;
	}
	bad = add_paths(s, p, argc, argv);
	if (bad < 0)
		goto out;
	if (!p->n) {	/* nothing to show: an argument was refused */
		rc = bad ? CMD_FAIL : CMD_OK;
		goto out;
	}
	ldf_show(s, p);
	refused = report_refused(s, p) + (size_t)bad;
	if (!ldf_movable(p)) {
		if (!sink_is_json(s->out))
			out_printf(s->out, "Nothing to move.\n");
		rc = refused ? CMD_FAIL : CMD_OK;
		goto out;
	}
	if (!apply || s->plan_only) {
		if (!sink_is_json(s->out))
			out_printf(s->out, "Nothing is moved yet: `apply` (or "
				   "this defrag again with --apply) moves "
				   "the files through the kernel; the donors "
				   "hold their blocks until then (`plan drop` "
				   "gives them back).  No undo file is needed: "
				   "the kernel keeps every file whole.\n");
		ldf_plan_free(s->live_plan);
		s->live_plan = p;
		p = NULL;
		rc = refused ? CMD_FAIL : CMD_OK;
		goto out;
	}
	rc = ldf_apply(s, p) || refused ? CMD_FAIL : CMD_OK;
out:
	ldf_paths_free(paths, npaths);
	ldf_plan_free(p);
	return rc;
}

int ldf_apply_current(struct session *s)
{
	struct ldf_plan *p = s->live_plan;
	int rc;

	s->live_plan = NULL;
	rc = ldf_apply(s, p) ? CMD_FAIL : CMD_OK;
	ldf_plan_free(p);
	return rc;
}
