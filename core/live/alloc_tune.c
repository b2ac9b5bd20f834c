/* alloc_tune.c - the /sys/fs/ext4/DEV allocator tunables of a live session:
 * listing them with their meaning, changing them (with a state file so that
 * `alloc revert` restores the values before) and previewing a change by
 * running a workload before and after it on a scratch filesystem of the
 * same geometry (alloc_scratch.c): never on the filesystem previewed. */
#include "alloc_tune.h"
#include "alloc_scratch.h"
#include "live.h"
#include "workload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct tunable {
	const char *name;
	int writable;
	const char *meaning;
} tunables[] = {
	{"mb_stream_req", 1, "files below this many blocks share the "
	 "per-CPU locality-group preallocation; larger ones stream"},
	{"mb_group_prealloc", 1, "clusters reserved at a time for the "
	 "locality group (small files)"},
	{"mb_max_to_scan", 1, "most free extents examined looking for "
	 "the best fit"},
	{"mb_min_to_scan", 1, "fewest free extents examined before "
	 "settling"},
	{"mb_order2_req", 1, "requests of 2^N blocks or more try the "
	 "power-of-two buddy search first"},
	{"mb_best_avail_max_trim_order", 1, "how far (2^N) the goal length "
	 "may shrink to find a free extent fast"},
	{"mb_max_linear_groups", 1, "groups searched one by one before "
	 "the optimized scan takes over"},
	{"mb_stats", 1, "1: count allocator statistics (shown in "
	 "mb_stats and at unmount)"},
	{"mb_prefetch", 1, "block bitmaps read ahead while scanning"},
	{"mb_prefetch_limit", 1, "groups whose bitmaps are prefetched "
	 "at most"},
	{"inode_goal", 1, "nonzero: new inodes are searched from this "
	 "inode number (testing aid)"},
	{"inode_readahead_blks", 1, "inode table blocks read ahead "
	 "(a power of two)"},
	{"extent_max_zeroout_kb", 1, "unwritten extents up to this size "
	 "are zeroed rather than split"},
	{"max_writeback_mb_bump", 1, "most MiB written back per inode in "
	 "one pass"},
	{"reserved_clusters", 1, "clusters held back for metadata so "
	 "delayed allocation never runs out"},
	{"delayed_allocation_blocks", 0, "blocks promised to dirty data "
	 "but not placed yet"},
	{"lifetime_write_kbytes", 0, "KiB written to the device since the "
	 "filesystem was made"},
	{"session_write_kbytes", 0, "KiB written since this mount"},
	{NULL, 0, NULL},
};

static const struct tunable *tunable_find(const char *name)
{
	const struct tunable *t;

	for (t = tunables; t->name; t++)
		if (!strcmp(t->name, name))
			return t;
	return NULL;
}

/* --- alloc tunables --- */

int alloc_tunables(struct session *s)
{
	const struct tunable *t;
	char val[64];

	if (sink_is_json(s->out))
		json_arr_begin(s->out, "tunables");
	else
		out_printf(s->out, "/sys/fs/ext4/%s:\n", s->live->sysname);
	for (t = tunables; t->name; t++) {
		if (live_sysfs_read(s->live, t->name, val, sizeof(val)))
			continue;	/* not in this kernel */
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, NULL);
			json_str(s->out, "name", t->name);
			json_str(s->out, "value", val);
			json_bool(s->out, "writable", t->writable);
			json_str(s->out, "meaning", t->meaning);
			json_obj_end(s->out);
			continue;
		}
		out_printf(s->out, "  %-29s %10s%s  %s\n", t->name, val,
			   t->writable ? " " : "*", t->meaning);
	}
	if (sink_is_json(s->out))
		json_arr_end(s->out);
	else
		out_printf(s->out, "(* read-only; \"help tunables\" tells "
			   "more)\n");
	return CMD_OK;
}

/* --- alloc set / revert --- */

struct setting {
	const char *name;
	char value[64], old[64];
};

static void state_path(const struct live_info *l, char *path, size_t len)
{
	const char *dir = getenv("E2LAYOUT_STATE_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");

	if (dir && *dir)
		snprintf(path, len, "%s/%s.tunables", dir, l->sysname);
	else if (xdg && *xdg)
		snprintf(path, len, "%s/e2layout/%s.tunables", xdg,
			 l->sysname);
	else
		snprintf(path, len, "/run/e2layout/%s.tunables", l->sysname);
}

/* Reads the "name value" lines of the state file into set (n of them). */
static int state_read(const char *path, const struct live_info *l,
		      struct setting *set, int max, int *n, int *other)
{
	char line[512], name[128], val[64], mnt[PATH_MAX];
	FILE *f = fopen(path, "r");
	const struct tunable *t;

	*n = 0;
	*other = 0;
	if (!f)
		return errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "mount %4095[^\n]", mnt) == 1) {
			*other = strcmp(mnt, l->mnt) != 0;
			continue;
		}
		if (sscanf(line, "%127s %63s", name, val) != 2 ||
		    !(t = tunable_find(name)) || *n >= max)
			continue;
		set[*n].name = t->name;
		snprintf(set[*n].old, sizeof(set[*n].old), "%s", val);
		(*n)++;
	}
	fclose(f);
	return 0;
}

static errcode_t state_write(const char *path, const struct live_info *l,
			     const struct setting *set, int n)
{
	char tmp[PATH_MAX + 128], dir[PATH_MAX + 128], *slash;
	FILE *f;
	int i;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash) {
		*slash = 0;
		if (mkdir(dir, 0700) && errno != EEXIST)
			return errno;
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return errno;
	fprintf(f, "# e2layout alloc set: the values before, for alloc "
		"revert (/sys/fs/ext4/%s, dev %u:%u)\nmount %s\n",
		l->sysname, l->major, l->minor, l->mnt);
	for (i = 0; i < n; i++)
		fprintf(f, "%s %s\n", set[i].name, set[i].old);
	if (fclose(f) || rename(tmp, path)) {
		errcode_t err = errno;

		unlink(tmp);
		return err;
	}
	return 0;
}

/* Writes the new (old: the previous) values into l's tunables. */
static void apply(struct session *s, const struct live_info *l,
		  struct setting *set, int n, int old)
{
	errcode_t err;
	int i;

	for (i = 0; i < n; i++) {
		err = live_sysfs_write(l, set[i].name,
				       old ? set[i].old : set[i].value);
		if (err)
			out_error(s->out, "alloc", err, "while writing %s to "
				  "/sys/fs/ext4/%s/%s",
				  old ? set[i].old : set[i].value,
				  l->sysname, set[i].name);
	}
}

/* One row of the comparison: "what" in the text, key (snake_case, as
 * every JSON key) in the JSON. */
static void compare_row(struct session *s, const char *what, const char *key,
			double a, double b, const char *fmt)
{
	char x[32], y[32];

	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, key);
		json_double(s->out, "before", a);
		json_double(s->out, "after", b);
		json_obj_end(s->out);
		return;
	}
	snprintf(x, sizeof(x), fmt, a);
	snprintf(y, sizeof(y), fmt, b);
	out_printf(s->out, "  %-28s %12s %12s\n", what, x, y);
}

/*
 * The workload twice on a scratch filesystem of this one's geometry:
 * with this filesystem's current values, then with the new ones.  The
 * filesystem previewed is not written to and keeps its values: its
 * allocator state (group preallocations, stream goals) stays as it was.
 */
static int preview(struct session *s, struct setting *set, int n)
{
	struct alloc_scratch sc;
	struct wl_measure m[2];
	struct wl_params p;
	char why[512];
	int i;

	workload_defaults(WL_FILES, &p);
	if (alloc_scratch_make(s->live, s->fs, &sc, why, sizeof(why))) {
		alloc_scratch_drop(&sc);
		out_error(s->out, "alloc set", 0, "--preview: %s; nothing "
			  "was changed", why);
		return CMD_FAIL;
	}
	for (i = 0; i < 2; i++) {
		apply(s, sc.live, set, n, !i);
		if (workload_measure(sc.live, sc.fs, &p, &m[i], why,
				     sizeof(why))) {
			alloc_scratch_drop(&sc);
			out_error(s->out, "alloc set", 0, "%s", why);
			return CMD_FAIL;
		}
	}
	alloc_scratch_drop(&sc);
	if (!sink_is_json(s->out))
		out_printf(s->out, "On a scratch filesystem of %llu blocks "
			   "made like %s (nothing written to it, its "
			   "tunables unchanged):\n",
			   (unsigned long long)sc.blocks, s->live->mnt);
	else
		json_bool(s->out, "scratch", 1);
	if (!sink_is_json(s->out)) {
		out_printf(s->out, "Preview: %u files of %llu KiB by %u "
			   "threads, before and after", p.files,
			   (unsigned long long)(p.size >> 10), p.threads);
		for (i = 0; i < n; i++)
			out_printf(s->out, "%s %s=%s (now %s)", i ? "," : "",
				   set[i].name, set[i].value, set[i].old);
		out_printf(s->out, "\n");
		out_printf(s->out, "  %-28s %12s %12s\n", "", "before",
			   "after");
	} else {
		json_arr_begin(s->out, "settings");
		for (i = 0; i < n; i++) {
			json_obj_begin(s->out, NULL);
			json_str(s->out, "name", set[i].name);
			json_str(s->out, "value", set[i].value);
			json_str(s->out, "old", set[i].old);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
		json_bool(s->out, "traced", m[0].traced && m[1].traced);
		json_obj_begin(s->out, "compare");
	}
	compare_row(s, "seconds", "seconds", m[0].seconds, m[1].seconds,
		    "%.3f");
	compare_row(s, "extents per file", "extents_per_file",
		    (double)m[0].extents / m[0].files,
		    (double)m[1].extents / m[1].files, "%.2f");
	compare_row(s, "groups touched", "groups_touched", m[0].groups,
		    m[1].groups, "%.0f");
	if (m[0].traced && m[1].traced) {
		compare_row(s, "allocations", "allocations",
			    (double)m[0].alloc.allocs,
			    (double)m[1].alloc.allocs, "%.0f");
		compare_row(s, "allocations at goal", "at_goal",
			    (double)m[0].alloc.at_goal,
			    (double)m[1].alloc.at_goal, "%.0f");
		compare_row(s, "mean distance from goal",
			    "mean_distance",
			    m[0].alloc.mean_distance,
			    m[1].alloc.mean_distance, "%.1f");
		compare_row(s, "flex groups touched",
			    "flex_groups_touched", m[0].alloc.flexes,
			    m[1].alloc.flexes, "%.0f");
	}
	if (sink_is_json(s->out))
		json_obj_end(s->out);
	else if (!m[0].traced)
		out_printf(s->out, "(allocations not recorded: %s)\n",
			   m[0].why_untraced);
	return CMD_OK;
}

int alloc_set(struct session *s, int argc, char **argv)
{
	struct setting set[32], saved[64];
	int n = 0, nsaved = 0, other = 0, prev = 0, i, j;
	char path[PATH_MAX + 64];
	errcode_t err;

	for (i = 2; i < argc; i++) {
		const struct tunable *t;
		char *eq = strchr(argv[i], '=');

		if (!strcmp(argv[i], "--preview")) {
			prev = 1;
			continue;
		}
		if (!strcmp(argv[i], "--json"))
			continue;
		if (!eq || n == 32) {
			out_error(s->out, "alloc", 0, "Usage: alloc set "
				  "NAME=VALUE ... [--preview]");
			return CMD_FAIL;
		}
		*eq = 0;
		t = tunable_find(argv[i]);
		if (!t || !t->writable) {
			out_error(s->out, "alloc set", 0, "%s is not a "
				  "tunable e2layout may change (see alloc "
				  "tunables)", argv[i]);
			return CMD_FAIL;
		}
		if (!eq[1] || strspn(eq + 1, "0123456789") != strlen(eq + 1) ||
		    strlen(eq + 1) > 20) {
			out_error(s->out, "alloc set", 0, "%s: the value must "
				  "be a whole number, not \"%s\"", t->name,
				  eq + 1);
			return CMD_FAIL;
		}
		set[n].name = t->name;
		snprintf(set[n].value, sizeof(set[n].value), "%s", eq + 1);
		err = live_sysfs_read(s->live, t->name, set[n].old,
				      sizeof(set[n].old));
		if (err) {
			out_error(s->out, "alloc set", err, "while reading "
				  "/sys/fs/ext4/%s/%s", s->live->sysname,
				  t->name);
			return CMD_FAIL;
		}
		n++;
	}
	if (!n) {
		out_error(s->out, "alloc", 0, "Usage: alloc set NAME=VALUE "
			  "... [--preview]");
		return CMD_FAIL;
	}
	if (prev)
		return preview(s, set, n);

	/* remember the oldest value of each name: revert goes back there */
	state_path(s->live, path, sizeof(path));
	state_read(path, s->live, saved, 32, &nsaved, &other);
	if (other)
		nsaved = 0;	/* a stale file of another mount */
	for (i = 0; i < n; i++) {
		for (j = 0; j < nsaved && strcmp(saved[j].name, set[i].name);
		     j++)
			;
		if (j == nsaved)
			saved[nsaved++] = set[i];
	}
	err = state_write(path, s->live, saved, nsaved);
	if (err) {
		out_error(s->out, "alloc set", err, "while recording the old "
			  "values in %s (nothing changed)", path);
		return CMD_FAIL;
	}
	for (i = 0; i < n; i++) {
		err = live_sysfs_write(s->live, set[i].name, set[i].value);
		if (err) {
			out_error(s->out, "alloc set", err, "while writing %s "
				  "to /sys/fs/ext4/%s/%s", set[i].value,
				  s->live->sysname, set[i].name);
			return CMD_FAIL;
		}
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, set[i].name);
			json_str(s->out, "old", set[i].old);
			json_str(s->out, "new", set[i].value);
			json_obj_end(s->out);
		} else {
			out_printf(s->out, "%s: %s -> %s\n", set[i].name,
				   set[i].old, set[i].value);
		}
	}
	if (!sink_is_json(s->out))
		out_printf(s->out, "Old values kept in %s (alloc revert "
			   "restores them)\n", path);
	else
		json_str(s->out, "state_file", path);
	return CMD_OK;
}

int alloc_revert(struct session *s)
{
	struct setting saved[64];
	char path[PATH_MAX + 64], cur[64];
	int n, other, i, failed = 0;
	errcode_t err;

	state_path(s->live, path, sizeof(path));
	err = state_read(path, s->live, saved, 64, &n, &other);
	if (err == ENOENT) {
		out_printf(s->out, "Nothing to revert (no %s)\n", path);
		return CMD_OK;
	}
	if (err) {
		out_error(s->out, "alloc revert", err, "while reading %s",
			  path);
		return CMD_FAIL;
	}
	if (other) {
		out_error(s->out, "alloc revert", 0, "%s was written for "
			  "another mount of %s; not applying it", path,
			  s->live->sysname);
		return CMD_FAIL;
	}
	for (i = 0; i < n; i++) {
		if (live_sysfs_read(s->live, saved[i].name, cur, sizeof(cur)))
			cur[0] = 0;
		err = live_sysfs_write(s->live, saved[i].name, saved[i].old);
		if (err) {
			out_error(s->out, "alloc revert", err, "while writing "
				  "%s to /sys/fs/ext4/%s/%s", saved[i].old,
				  s->live->sysname, saved[i].name);
			failed = 1;
			continue;
		}
		if (sink_is_json(s->out)) {
			json_obj_begin(s->out, saved[i].name);
			json_str(s->out, "old", cur);
			json_str(s->out, "new", saved[i].old);
			json_obj_end(s->out);
		} else {
			out_printf(s->out, "%s: %s -> %s\n", saved[i].name,
				   cur, saved[i].old);
		}
	}
	if (failed)
		return CMD_FAIL;
	unlink(path);
	return CMD_OK;
}

