/* bench.c - `bench files|randwrite` on a mounted filesystem: a
 * built-in workload, timed, with its allocations recorded, printed as one
 * table row so runs before and after a change line up. */
#include "cmd.h"
#include "workload.h"

#include <stdlib.h>
#include <string.h>

static int usage(struct session *s)
{
	out_error(s->out, "bench", 0, "Usage: bench files [--files N] "
		  "[--size S] [--threads K] [--label L] | bench randwrite "
		  "[--size S] [--ops N] [--label L]");
	return CMD_FAIL;
}

static int uint_arg(const char *v, unsigned *out)
{
	char *end;
	unsigned long n = strtoul(v, &end, 10);

	if (end == v || *end || !n || n > 1000000)
		return -1;
	*out = (unsigned)n;
	return 0;
}

static int do_bench(struct session *s, int argc, char **argv)
{
	struct wl_params p;
	struct wl_measure m;
	const char *label = "-";
	char why[512];
	double rate;
	size_t j;
	int i, bad = 0, files;

	if (argc < 2 || (strcmp(argv[1], "files") &&
			 strcmp(argv[1], "randwrite")))
		return usage(s);
	if (!s->live) {
		out_error(s->out, argv[0], 0, "bench runs on a mounted "
			  "filesystem (live mode: e2layout /dev/X or "
			  "e2layout /mount/point)");
		return CMD_FAIL;
	}
	workload_defaults(!strcmp(argv[1], "files") ? WL_FILES : WL_RANDWRITE,
			  &p);
	for (i = 2; i < argc && !bad; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(argv[i], "--json"))
			continue;
		if (!v)
			return usage(s);
		if (!strcmp(argv[i], "--files") && p.kind == WL_FILES)
			bad = uint_arg(v, &p.files);
		else if (!strcmp(argv[i], "--threads") && p.kind == WL_FILES)
			bad = uint_arg(v, &p.threads) || p.threads > 64;
		else if (!strcmp(argv[i], "--ops") && p.kind == WL_RANDWRITE)
			bad = uint_arg(v, &p.ops);
		else if (!strcmp(argv[i], "--size"))
			bad = workload_parse_size(v, &p.size) ||
			      (p.kind == WL_RANDWRITE && p.size < 4096);
		else if (!strcmp(argv[i], "--label"))
			label = v;
		else
			return usage(s);
		i++;
	}
	if (bad) {
		out_error(s->out, "bench", 0, "bad value for %s: %s",
			  argv[i - 2], argv[i - 1]);
		return CMD_FAIL;
	}
	if (workload_measure(s->live, s->fs, &p, &m, why, sizeof(why))) {
		out_error(s->out, "bench", 0, "%s", why);
		return CMD_FAIL;
	}
	files = p.kind == WL_FILES;
	rate = m.seconds > 0 ? (files ? m.files : p.ops) / m.seconds : 0;
	if (sink_is_json(s->out)) {
		json_str(s->out, "workload", workload_name(p.kind));
		json_str(s->out, "label", label);
		json_u64(s->out, "files", m.files);
		json_u64(s->out, "size", p.size);
		json_u64(s->out, "threads", p.threads);
		json_u64(s->out, "ops", p.ops);
		json_double(s->out, "seconds", m.seconds);
		json_double(s->out, "mib_per_second", m.seconds > 0 ?
			    (double)m.bytes / 1048576.0 / m.seconds : 0);
		json_double(s->out, files ? "files_per_second" :
			    "ops_per_second", rate);
		json_u64(s->out, "extents", m.extents);
		json_u64(s->out, "groups_touched", m.groups);
		json_bool(s->out, "traced", m.traced);
		if (m.traced) {
			json_u64(s->out, "allocations", m.alloc.allocs);
			json_u64(s->out, "at_goal", m.alloc.at_goal);
			json_double(s->out, "mean_distance",
				    m.alloc.mean_distance);
			json_u64(s->out, "flex_groups_touched",
				 m.alloc.flexes);
			json_u64(s->out, "lost_events", m.lost);
			json_bool(s->out, "counted_in_kernel",
				  m.dirty_counted);
			json_u64(s->out, "mark_inode_dirty", m.dirty);
			json_arr_begin(s->out, "mark_inode_dirty_by_caller");
			for (j = 0; j < m.ncallers; j++) {
				json_obj_begin(s->out, NULL);
				json_str(s->out, "caller", m.callers[j].name);
				json_u64(s->out, "count", m.callers[j].count);
				json_obj_end(s->out);
			}
			json_arr_end(s->out);
		}
		return CMD_OK;
	}
	out_printf(s->out, "%-10s %-12s %8s %9s %9s %8s %7s %6s %6s %7s "
		   "%9s\n", "workload", "label", "seconds", "MiB/s",
		   files ? "files/s" : "ops/s",
		   "extents", "ext/f", "groups", "allocs", "atgoal",
		   "mean-dist");
	out_printf(s->out, "%-10s %-12s %8.3f %9.1f %9.0f %8zu %7.2f %6u ",
		   workload_name(p.kind), label, m.seconds,
		   m.seconds > 0 ? (double)m.bytes / 1048576.0 / m.seconds : 0,
		   rate, m.extents, (double)m.extents / m.files, m.groups);
	if (m.traced)
		out_printf(s->out, "%6zu %7zu %9.1f\n", m.alloc.allocs,
			   m.alloc.at_goal, m.alloc.mean_distance);
	else
		out_printf(s->out, "%6s %7s %9s\n", "-", "-", "-");
	if (!m.traced)
		out_printf(s->out, "(allocations not recorded: %s)\n",
			   m.why_untraced);
	if (m.lost)
		out_printf(s->out, "(warning: %lu trace events lost)\n",
			   m.lost);
	if (!m.traced)
		return CMD_OK;
	out_printf(s->out, "mark_inode_dirty: %lu (%s)", m.dirty,
		   m.dirty_counted ? "counted in the kernel"
				   : "from the event stream");
	for (j = 0; j < m.ncallers && j < 4; j++)
		out_printf(s->out, "%s %lu %s", j ? "," : ":",
			   m.callers[j].count, m.callers[j].name);
	out_printf(s->out, "\n");
	return CMD_OK;
}

const struct cmd_entry cmd_bench = {
	.name = "bench",
	.synopsis = "bench files [--files N] [--size S] [--threads K] "
		    "[--label L] | bench randwrite [--size S] [--ops N] "
		    "[--label L]",
	.summary = "Time a built-in workload on a mounted filesystem and "
		   "record its allocations",
	.options = "files randwrite --files --size --threads --ops --label",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_bench,
};
