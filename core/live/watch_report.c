/* watch_report.c - the report of `alloc watch`: totals, the hottest
 * mark_inode_dirty keys (by inode, caller or both), allocations by inode
 * and the allocation list, each inode named by its path on the mount. */
#include "watch_report.h"
#include "ksym.h"
#include "live.h"
#include "live_paths.h"

#include <dirent.h>
#include <e2p/e2p.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PATH_WALK_MAX 2000000	/* directory entries read to name inodes */
#define NAMED_MAX 4096		/* inodes named per report */

/* The names a report prints: callers and paths. */
struct names {
	struct ksym_table syms;
	struct live_ipath *p;	/* sorted by ino */
	size_t n;
};

/* One row of the hottest table. */
struct hot {
	__u64 ino;
	const char *caller;	/* NULL: unknown */
	unsigned long count;
};

int watch_by_parse(const char *s, enum watch_by *by)
{
	if (!strcmp(s, "inode"))
		*by = WATCH_BY_INODE;
	else if (!strcmp(s, "caller"))
		*by = WATCH_BY_CALLER;
	else if (!strcmp(s, "inode,caller") || !strcmp(s, "caller,inode"))
		*by = WATCH_BY_INODE_CALLER;
	else
		return -1;
	return 0;
}

static int by_ino(const void *x, const void *y)
{
	const struct live_ipath *a = x, *b = y;

	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

static void want(struct names *nm, size_t cap, __u64 ino)
{
	if (nm->n < cap)
		nm->p[nm->n++].ino = ino;
}

/* Looks up the paths of the inodes the report will print. */
static void names_load(struct names *nm, const struct session *s,
		       const struct hot *h, size_t nh,
		       const struct trace_rec *r, size_t top, size_t limit)
{
	size_t i, j, cap = NAMED_MAX;

	nm->p = calloc(cap, sizeof(*nm->p));
	nm->n = 0;
	if (!nm->p)
		return;
	for (i = 0; i < nh && i < top; i++)
		want(nm, cap, h[i].ino);
	for (i = 0; i < r->ninodes && i < top; i++)
		want(nm, cap, r->inodes[i].ino);
	for (i = 0; i < r->nallocs && i < limit; i++)
		want(nm, cap, r->allocs[i].ino);
	qsort(nm->p, nm->n, sizeof(*nm->p), by_ino);
	for (i = j = 0; i < nm->n; i++)
		if (!j || nm->p[j - 1].ino != nm->p[i].ino)
			nm->p[j++] = nm->p[i];
	nm->n = j;
	if (live_inode_paths(s->live->mnt, nm->p, nm->n, PATH_WALK_MAX))
		nm->n = 0;
}

static const struct live_ipath *lookup(const struct names *nm, __u64 ino)
{
	struct live_ipath key = { .ino = ino };

	if (!nm->n)
		return NULL;
	return bsearch(&key, nm->p, nm->n, sizeof(*nm->p), by_ino);
}

/* The path of ino, "<journal>" for a reserved inode, NULL if unknown. */
static const char *path_of(const struct names *nm, __u64 ino, char *buf,
			   size_t len)
{
	const struct live_ipath *p = lookup(nm, ino);
	const char *sp;

	if (p && p->path)
		return p->path;
	sp = live_special_inode(ino);
	if (!sp)
		return NULL;
	snprintf(buf, len, "<%s>", sp);
	return buf;
}

/* What a metadata allocation (no HINT_DATA) was for, by the inode's type:
 * a regular file's are extent-tree blocks (ext4_ext_new_meta_block). */
static const char *alloc_kind(const struct names *nm,
			      const struct trace_alloc *a, int json)
{
	const struct live_ipath *p;

	if (a->data)
		return "data";
	p = lookup(nm, a->ino);
	if (p && p->type == DT_REG)
		return json ? "extent_tree" : "extent-tree";
	if (p && p->type == DT_DIR)
		return "directory";
	return "metadata";
}

static int hot_key(const struct hot *a, const struct hot *b, enum watch_by by)
{
	int c;

	if (by != WATCH_BY_CALLER && a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	if (by == WATCH_BY_INODE)
		return 0;
	if (!a->caller || !b->caller)
		return !a->caller - !b->caller;
	c = strcmp(a->caller, b->caller);
	return c;
}

/* qsort has no context argument: one comparator per key. */
static int cmp_inode(const void *x, const void *y)
{
	return hot_key(x, y, WATCH_BY_INODE);
}

static int cmp_caller(const void *x, const void *y)
{
	return hot_key(x, y, WATCH_BY_CALLER);
}

static int cmp_both(const void *x, const void *y)
{
	return hot_key(x, y, WATCH_BY_INODE_CALLER);
}

static int cmp_count(const void *x, const void *y)
{
	const struct hot *a = x, *b = y;

	if (a->count != b->count)
		return a->count < b->count ? 1 : -1;
	return a->ino < b->ino ? -1 : a->ino > b->ino;
}

/* The mark_inode_dirty counts summed by key, largest first. */
static struct hot *hot_rows(const struct trace_rec *r,
			    const struct ksym_table *syms, enum watch_by by,
			    size_t *np)
{
	int (*cmp)(const void *, const void *) = by == WATCH_BY_INODE ?
		cmp_inode : by == WATCH_BY_CALLER ? cmp_caller : cmp_both;
	struct hot *h = calloc(r->ndirty ? r->ndirty : 1, sizeof(*h));
	size_t i, j;

	*np = 0;
	if (!h)
		return NULL;
	for (i = 0; i < r->ndirty; i++) {
		h[i].ino = by == WATCH_BY_CALLER ? 0 : r->dirty[i].ino;
		h[i].caller = r->dirty[i].caller[0] ? r->dirty[i].caller :
			      r->dirty[i].ip ? ksym_name(syms, r->dirty[i].ip) :
			      NULL;
		h[i].count = r->dirty[i].count;
	}
	qsort(h, r->ndirty, sizeof(*h), cmp);
	for (i = j = 0; i < r->ndirty; i++) {
		if (j && !cmp(&h[j - 1], &h[i]))
			h[j - 1].count += h[i].count;
		else
			h[j++] = h[i];
	}
	qsort(h, j, sizeof(*h), cmp_count);
	*np = j;
	return h;
}

static const struct trace_inode *inode_allocs(const struct trace_rec *r,
					      __u64 ino)
{
	size_t i;

	for (i = 0; i < r->ninodes; i++)
		if (r->inodes[i].ino == ino)
			return &r->inodes[i];
	return NULL;
}

static const char *by_name(enum watch_by by)
{
	return by == WATCH_BY_INODE ? "inode" : by == WATCH_BY_CALLER ?
		"caller" : "inode,caller";
}

static void json_hot(struct session *s, const struct trace_rec *r,
		     const struct names *nm, const struct hot *h, size_t nh,
		     enum watch_by by, size_t top)
{
	char buf[64];
	size_t i;

	json_str(s->out, "by", by_name(by));
	json_arr_begin(s->out, by == WATCH_BY_INODE ? "hottest_inodes" :
		       by == WATCH_BY_CALLER ? "hottest_callers" :
		       "hottest_inode_callers");
	for (i = 0; i < nh && i < top; i++) {
		const struct trace_inode *ti = inode_allocs(r, h[i].ino);

		json_obj_begin(s->out, NULL);
		if (by != WATCH_BY_CALLER) {
			json_u64(s->out, "inode", h[i].ino);
			json_str(s->out, "path",
				 path_of(nm, h[i].ino, buf, sizeof(buf)));
		}
		if (by != WATCH_BY_INODE)
			json_str(s->out, "caller", h[i].caller);
		json_u64(s->out, "mark_inode_dirty", h[i].count);
		if (by == WATCH_BY_INODE) {
			json_u64(s->out, "allocations", ti ? ti->allocs : 0);
			json_u64(s->out, "blocks", ti ? ti->blocks : 0);
		}
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
	json_arr_begin(s->out, "allocations_by_inode");
	for (i = 0; i < r->ninodes && i < top; i++) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "inode", r->inodes[i].ino);
		json_str(s->out, "path", path_of(nm, r->inodes[i].ino, buf,
						 sizeof(buf)));
		json_u64(s->out, "allocations", r->inodes[i].allocs);
		json_u64(s->out, "blocks", r->inodes[i].blocks);
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
}

static void text_hot(struct session *s, const struct trace_rec *r,
		     const struct names *nm, const struct hot *h, size_t nh,
		     enum watch_by by, size_t top)
{
	const char *how = r->counted ? "counted in the kernel"
				     : "from the event stream";
	char buf[64];
	const char *p;
	size_t i;

	if (nh) {
		out_printf(s->out, "Hottest %s (mark_inode_dirty, %lu events, "
			   "%s):\n", by == WATCH_BY_INODE ? "inodes" :
			   by == WATCH_BY_CALLER ? "callers" :
			   "inodes and callers", r->dirty_events, how);
		if (by == WATCH_BY_INODE)
			out_printf(s->out, "  %8s %9s %8s %8s  %s\n", "inode",
				   "dirtied", "allocs", "blocks", "path");
		else if (by == WATCH_BY_CALLER)
			out_printf(s->out, "  %9s  %s\n", "dirtied",
				   "caller");
		else
			out_printf(s->out, "  %8s %9s  %-28s %s\n", "inode",
				   "dirtied", "caller", "path");
	}
	for (i = 0; i < nh && i < top; i++) {
		const struct trace_inode *ti = inode_allocs(r, h[i].ino);
		const char *c = h[i].caller ? h[i].caller : "?";

		p = path_of(nm, h[i].ino, buf, sizeof(buf));
		if (by == WATCH_BY_INODE)
			out_printf(s->out, "  %8llu %9lu %8lu %8llu  %s\n",
				   (unsigned long long)h[i].ino, h[i].count,
				   ti ? ti->allocs : 0UL,
				   (unsigned long long)(ti ? ti->blocks : 0),
				   p ? p : "-");
		else if (by == WATCH_BY_CALLER)
			out_printf(s->out, "  %9lu  %s\n", h[i].count, c);
		else
			out_printf(s->out, "  %8llu %9lu  %-28s %s\n",
				   (unsigned long long)h[i].ino, h[i].count, c,
				   p ? p : "-");
	}
	if (!r->ninodes)
		return;
	out_printf(s->out, "Allocations by inode (%lu allocations, %s):\n",
		   r->alloc_events, how);
	out_printf(s->out, "  %8s %8s %8s  %s\n", "inode", "allocs", "blocks",
		   "path");
	for (i = 0; i < r->ninodes && i < top; i++) {
		p = path_of(nm, r->inodes[i].ino, buf, sizeof(buf));
		out_printf(s->out, "  %8llu %8lu %8llu  %s\n",
			   (unsigned long long)r->inodes[i].ino,
			   r->inodes[i].allocs,
			   (unsigned long long)r->inodes[i].blocks,
			   p ? p : "-");
	}
}

static void json_summary(struct session *s, const struct trace_rec *r,
			 const struct trace_summary *sum)
{
	/* which filesystem was watched (a lab's evidence names it) */
	json_str(s->out, "uuid", e2p_uuid2str(s->fs->super->s_uuid));
	json_double(s->out, "seconds", r->seconds);
	json_bool(s->out, "counted_in_kernel", r->counted);
	if (!r->counted)
		json_str(s->out, "why_not_counted", r->why_uncounted);
	json_u64(s->out, "requests", r->requests);
	json_u64(s->out, "mballoc", r->mballoc);
	json_u64(s->out, "from_preallocation", r->prealloc);
	json_u64(s->out, "allocation_events", r->alloc_events);
	json_u64(s->out, "blocks", r->alloc_blocks);
	json_u64(s->out, "recorded_allocations", sum->allocs);
	json_u64(s->out, "recorded_blocks", sum->blocks);
	json_u64(s->out, "at_goal", sum->at_goal);
	json_double(s->out, "mean_distance", sum->mean_distance);
	json_u64(s->out, "max_distance", sum->max_distance);
	json_u64(s->out, "groups_touched", sum->groups);
	json_u64(s->out, "flex_groups_touched", sum->flexes);
	json_u64(s->out, "mark_inode_dirty", r->dirty_events);
	json_u64(s->out, "lost_events", r->lost);
	json_u64(s->out, "dropped_counts", r->dropped);
}

static void text_summary(struct session *s, const struct trace_rec *r,
			 const struct trace_summary *sum)
{
	out_printf(s->out, "Recorded %.1f s on %s (%s): %lu allocations, "
		   "%llu blocks; %lu requests, %lu mballoc searches, %lu "
		   "from preallocations (%s)\n", r->seconds, s->live->source,
		   s->live->mnt, r->alloc_events,
		   (unsigned long long)r->alloc_blocks, r->requests,
		   r->mballoc, r->prealloc, r->counted ?
		   "counted in the kernel" : "from the event stream");
	if (!r->counted && r->why_uncounted[0])
		out_printf(s->out, "(not counted in the kernel: %s)\n",
			   r->why_uncounted);
	if (sum->allocs)
		out_printf(s->out, "At goal: %zu of %zu; distance from goal: "
			   "mean %.1f, max %llu blocks; %u groups, %u flex "
			   "groups touched\n", sum->at_goal, sum->allocs,
			   sum->mean_distance,
			   (unsigned long long)sum->max_distance, sum->groups,
			   sum->flexes);
	if (r->lost && r->counted)
		out_printf(s->out, "Warning: %lu trace events were lost (the "
			   "buffer filled; --buffer-kb N): the allocation list "
			   "and the at-goal line miss them; the counts were "
			   "made in the kernel and are exact\n", r->lost);
	else if (r->lost)
		out_printf(s->out, "Warning: %lu trace events were lost (the "
			   "buffer filled; --buffer-kb N); counts are low\n",
			   r->lost);
	if (r->dropped)
		out_printf(s->out, "Warning: %lu events found the kernel's "
			   "counter table full and are not in the tables "
			   "below\n", r->dropped);
}

static void print_allocs(struct session *s, const struct trace_rec *r,
			 const struct names *nm, size_t limit)
{
	ext2_filsys fs = s->fs;
	int json = sink_is_json(s->out);
	char buf[64];
	size_t i;

	if (json)
		json_arr_begin(s->out, "allocations");
	else if (r->nallocs)
		out_printf(s->out, "%8s %9s %7s %11s %11s %6s %5s %10s  %s\n",
			   "inode", "logical", "length", "goal", "block",
			   "group", "flex", "distance", "how  path");
	for (i = 0; i < r->nallocs && (json || i < limit); i++) {
		const struct trace_alloc *a = &r->allocs[i];
		dgrp_t g = trace_group(fs, a->block);
		const char *p = path_of(nm, a->ino, buf, sizeof(buf));

		if (json) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "inode", a->ino);
			json_str(s->out, "path", i < limit ? p : NULL);
			json_str(s->out, "kind", alloc_kind(nm, a, 1));
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
			continue;
		}
		out_printf(s->out, "%8llu %9u %7u %11llu %11llu %6u %5u "
			   "%+10lld  ", (unsigned long long)a->ino, a->lblk,
			   a->len, (unsigned long long)a->goal,
			   (unsigned long long)a->block, g, trace_flex(fs, g),
			   (long long)(a->block - a->goal));
		if (!a->data)
			out_printf(s->out, "%s", alloc_kind(nm, a, 0));
		else
			out_printf(s->out, "%s", a->prealloc ? "prealloc" :
				   a->mb ? a->cr : "-");
		if (a->mb && !a->prealloc)
			out_printf(s->out, ", %u group%s scanned", a->scanned,
				   a->scanned == 1 ? "" : "s");
		out_printf(s->out, "  %s\n", p ? p : "-");
	}
	if (json)
		json_arr_end(s->out);
	else if (r->nallocs > limit)
		out_printf(s->out, "... %zu more (--limit N, or --json for "
			   "all)\n", r->nallocs - limit);
}

void watch_report(struct session *s, const struct trace_rec *r,
		  enum watch_by by, size_t top, size_t limit)
{
	struct trace_summary sum;
	struct names nm;
	struct hot *h;
	size_t nh;

	memset(&nm, 0, sizeof(nm));
	if (r->counted)
		ksym_load(&nm.syms);	/* none: callers print as "?" */
	h = hot_rows(r, &nm.syms, by, &nh);
	names_load(&nm, s, h, nh, r, top, limit);
	trace_summarize(s->fs, r, &sum);
	if (sink_is_json(s->out)) {
		json_summary(s, r, &sum);
		json_hot(s, r, &nm, h, nh, by, top);
	} else {
		text_summary(s, r, &sum);
		text_hot(s, r, &nm, h, nh, by, top);
	}
	print_allocs(s, r, &nm, limit);
	free(h);
	live_ipaths_free(nm.p, nm.n);
	free(nm.p);
	ksym_free(&nm.syms);
}
