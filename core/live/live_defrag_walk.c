/* live_defrag_walk.c - walks of a mounted filesystem for a live defrag: the
 * worst-fragmented files (by FIEMAP) and, for a goal, a directory whose
 * inode lives in a given group (the kernel places a new file's blocks near
 * its directory's group; userspace can ask no more precisely). */
#include "live_defrag.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "e2l_err.h"

#define WALK_DEPTH	32
#define GOAL_TRIES	32	/* directories made looking for a group */

dgrp_t ldf_ino_group(struct session *s, ino_t ino)
{
	return ino ? (dgrp_t)((ino - 1) / s->fs->super->s_inodes_per_group)
		   : 0;
}

/* Calls cb for every entry below dir on the same device (depth first, no
 * symlinks followed); a nonzero return from cb stops the walk. */
static int walk(const char *dir, dev_t dev, int depth,
		int (*cb)(void *ctx, const char *path, const struct stat *st),
		void *ctx)
{
	DIR *d;
	struct dirent *de;
	char path[PATH_MAX];
	struct stat st;
	int r = 0;

	if (depth > WALK_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while (!r && (de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s",
				     strcmp(dir, "/") ? dir : "", de->d_name)
		    >= sizeof(path))
			continue;
		if (lstat(path, &st) || st.st_dev != dev)
			continue;
		r = cb(ctx, path, &st);
		if (!r && S_ISDIR(st.st_mode))
			r = walk(path, dev, depth + 1, cb, ctx);
	}
	closedir(d);
	return r;
}

struct worst_ctx {
	struct session *s;
	struct worst {
		char *path;
		long long excess;
	} *w;
	size_t n, max;
	int oom;
};

static int worst_cmp(const void *a, const void *b)
{
	const struct worst *x = a, *y = b;

	return x->excess < y->excess ? 1 : x->excess > y->excess ? -1 :
	       strcmp(x->path, y->path);
}

static int worst_cb(void *arg, const char *path, const struct stat *st)
{
	struct worst_ctx *c = arg;
	struct live_extent *e;
	size_t n, runs;
	__u64 blocks;
	long long excess;
	char *dup;

	if (!S_ISREG(st->st_mode) || live_fiemap(path, &e, &n))
		return 0;
	runs = ldf_runs(e, n);
	free(e);
	blocks = ((__u64)st->st_blocks * 512 + c->s->fs->blocksize - 1) /
		 c->s->fs->blocksize;
	excess = (long long)n - (long long)((blocks + 32767) / 32768);
	if (runs < 2 || excess <= 0)
		return 0;
	if (c->n == c->max) {	/* full: replace the least bad */
		size_t i, least = 0;

		for (i = 1; i < c->n; i++)
			if (c->w[i].excess < c->w[least].excess)
				least = i;
		if (excess <= c->w[least].excess)
			return 0;
		dup = strdup(path);
		if (!dup) {
			c->oom = 1;
			return 1;
		}
		free(c->w[least].path);
		c->w[least].path = dup;
		c->w[least].excess = excess;
		return 0;
	}
	dup = strdup(path);
	if (!dup) {
		c->oom = 1;
		return 1;
	}
	c->w[c->n].path = dup;
	c->w[c->n++].excess = excess;
	return 0;
}

errcode_t ldf_worst(struct session *s, size_t n, char ***paths, size_t *np)
{
	struct worst_ctx c = {.s = s, .max = n};
	char **out;
	size_t i;

	*paths = NULL;
	*np = 0;
	if (!n)
		return 0;
	c.w = calloc(n, sizeof(*c.w));
	if (!c.w)
		return ENOMEM;
	walk(s->live->mnt, s->live->dev, 0, worst_cb, &c);
	qsort(c.w, c.n, sizeof(*c.w), worst_cmp);
	out = calloc(c.n ? c.n : 1, sizeof(*out));
	if (!out || c.oom) {
		for (i = 0; i < c.n; i++)
			free(c.w[i].path);
		free(c.w);
		free(out);
		return ENOMEM;
	}
	for (i = 0; i < c.n; i++)
		out[i] = c.w[i].path;
	*paths = out;
	*np = c.n;
	free(c.w);
	return 0;
}

void ldf_paths_free(char **paths, size_t n)
{
	size_t i;

	for (i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

struct dir_ctx {
	struct session *s;
	dgrp_t want;
	char best[PATH_MAX];	/* in the group, or the nearest so far */
	long long dist;		/* |group - want| of best; -1: none */
};

static void dir_offer(struct dir_ctx *c, const char *path, ino_t ino)
{
	dgrp_t g = ldf_ino_group(c->s, ino);
	long long d = g > c->want ? g - c->want : c->want - g;

	if (c->dist < 0 || d < c->dist) {
		c->dist = d;
		snprintf(c->best, sizeof(c->best), "%s", path);
	}
}

static int dir_cb(void *arg, const char *path, const struct stat *st)
{
	struct dir_ctx *c = arg;

	if (!S_ISDIR(st->st_mode) || access(path, W_OK))
		return 0;
	dir_offer(c, path, st->st_ino);
	return c->dist == 0;
}

/* Makes directories at the mount's root (the kernel spreads top-level
 * directories over the groups) until one lands in c->want; keeps that one
 * (or the nearest) in made, removes the others. */
static void dir_make(struct session *s, struct dir_ctx *c, char *made,
		     size_t len)
{
	char path[PATH_MAX], keep[PATH_MAX] = "";
	long long kd = -1;
	struct stat st;
	int k;

	for (k = 0; k < GOAL_TRIES && kd != 0; k++) {
		dgrp_t g;
		long long d;

		if ((size_t)snprintf(path, sizeof(path),
				     "%s/.e2layout-donors.%ld.%d",
				     strcmp(s->live->mnt, "/") ?
				     s->live->mnt : "", (long)getpid(), k)
		    >= sizeof(path) || mkdir(path, 0700) || stat(path, &st))
			break;
		g = ldf_ino_group(s, st.st_ino);
		d = g > c->want ? g - c->want : c->want - g;
		if (kd < 0 || d < kd) {
			if (keep[0])
				rmdir(keep);
			snprintf(keep, sizeof(keep), "%s", path);
			kd = d;
		} else {
			rmdir(path);
		}
	}
	if (kd >= 0 && (c->dist < 0 || kd < c->dist)) {
		snprintf(c->best, sizeof(c->best), "%s", keep);
		snprintf(made, len, "%s", keep);
		c->dist = kd;
	} else if (keep[0]) {
		rmdir(keep);
	}
}

errcode_t ldf_goal_resolve(struct session *s, struct ldf_plan *p,
			   const char *who)
{
	struct ldf_goal *g = &p->goal;
	struct dir_ctx c = {.s = s, .dist = -1};
	char path[PATH_MAX], tmp[PATH_MAX];
	struct stat st;

	if (g->kind == LDF_GOAL_NONE)
		return 0;
	if (g->kind == LDF_GOAL_NEAR) {
		ldf_full_path(s, g->near, path, sizeof(path));
		if (stat(path, &st)) {
			out_error(s->out, who, errno, "--near %s", path);
			return E2L_ERR_BAD_ARGUMENT;
		}
		if (st.st_dev != s->live->dev) {
			out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "--near %s "
				  "is not on the filesystem mounted on %s",
				  path, s->live->mnt);
			return E2L_ERR_BAD_ARGUMENT;
		}
		g->group = ldf_ino_group(s, st.st_ino);
		c.want = g->group;
		if (!S_ISDIR(st.st_mode)) {
			snprintf(tmp, sizeof(tmp), "%s", path);
			snprintf(path, sizeof(path), "%s", dirname(tmp));
			if (stat(path, &st))
				return errno;
		}
		dir_offer(&c, path, st.st_ino);
	} else {
		if (g->group >= s->fs->group_desc_count) {
			out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "--group "
				  "%u: the filesystem has groups 0-%u",
				  g->group, s->fs->group_desc_count - 1);
			return E2L_ERR_BAD_ARGUMENT;
		}
		c.want = g->group;
	}
	if (c.dist != 0 && !stat(s->live->mnt, &st)) {
		dir_offer(&c, s->live->mnt, st.st_ino);
		if (c.dist != 0)
			walk(s->live->mnt, s->live->dev, 0, dir_cb, &c);
	}
	if (c.dist != 0)
		dir_make(s, &c, g->made, sizeof(g->made));
	if (c.dist < 0) {
		out_error(s->out, who, 0, "no directory on %s to make donors "
			  "in", s->live->mnt);
		return E2L_ERR_BAD_ARGUMENT;
	}
	snprintf(g->near, sizeof(g->near), "%s", c.best);
	if (c.dist && !stat(c.best, &st))
		out_printf(s->out, "No directory has its inode in group %u "
			   "(and none of %d made at the root landed there): "
			   "donors go in %s, group %u; the kernel will place "
			   "them near that group, not in %u\n", g->group,
			   GOAL_TRIES, c.best, ldf_ino_group(s, st.st_ino),
			   g->group);
	return 0;
}

struct ino_ctx {
	ino_t ino;
	char *out;
	size_t len;
};

static int ino_cb(void *arg, const char *path, const struct stat *st)
{
	struct ino_ctx *c = arg;

	if (st->st_ino != c->ino || !S_ISREG(st->st_mode))
		return 0;
	snprintf(c->out, c->len, "%s", path);
	return 1;
}

errcode_t ldf_find_ino(struct session *s, ino_t ino, char *out, size_t len)
{
	struct ino_ctx c = {ino, out, len};

	out[0] = 0;
	walk(s->live->mnt, s->live->dev, 0, ino_cb, &c);
	return out[0] ? 0 : ENOENT;
}
