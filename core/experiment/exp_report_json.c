/* exp_report_json.c - an experiment's result as JSON: the workload, each
 * side's runs with their metrics and counters, and the comparisons (see
 * help/cmd/experiment.txt for the members). */
#include "exp_report_int.h"
#include "exp_trace.h"

#define TOP_KEYS	20

static void json_tally(struct sink *o, const char *key,
		       const struct exp_tally *t)
{
	unsigned long long rest = 0;
	size_t i;

	json_obj_begin(o, key);
	json_u64(o, "distinct", t->n);
	json_arr_begin(o, "top");
	for (i = 0; i < t->n; i++) {
		if (i >= TOP_KEYS) {
			rest += t->e[i].count;
			continue;
		}
		json_obj_begin(o, NULL);
		json_str(o, "key", t->e[i].key);
		json_u64(o, "count", t->e[i].count);
		json_obj_end(o);
	}
	json_arr_end(o);
	json_u64(o, "others", rest);
	json_obj_end(o);
}

static void json_counters(const struct exp_config *c, struct sink *o,
			  const struct exp_counters *x)
{
	unsigned k, key;
	int cls;

	json_obj_begin(o, "counters");
	if (x->have_jbd2) {
		json_u64(o, "jbd2_commits", x->jbd2_commits);
		json_double(o, "jbd2_commit_us", x->jbd2_commit_us);
	} else {
		json_null(o, "jbd2_commits");
	}
	if (x->have_io) {
		json_u64(o, "jbd2_blocks", x->jbd2_blocks);
		json_u64(o, "jbd2_traced_commits", x->jbd2_traced_commits);
		json_u64(o, "io_requests", x->io_requests);
		json_u64(o, "io_bytes", x->io_bytes);
		json_u64(o, "io_reads", x->io_reads);
		json_u64(o, "io_writes", x->io_writes);
		json_u64(o, "io_flushes", x->io_flushes);
		json_u64(o, "io_sequential", x->io_sequential);
		json_u64(o, "io_seeks", x->io_seeks);
		json_double(o, "io_mean_seek_sectors", x->io_mean_seek);
		json_obj_begin(o, "io_by_owner");
		for (cls = 0; cls < OWN_CLASS_MAX; cls++)
			if (x->io_by_owner[cls])
				json_u64(o, owner_class_key(
					(enum owner_class)cls),
					x->io_by_owner[cls]);
		json_obj_end(o);
		json_obj_begin(o, "io_bytes_by_owner");
		for (cls = 0; cls < OWN_CLASS_MAX; cls++)
			if (x->io_bytes_by_owner[cls])
				json_u64(o, owner_class_key(
					(enum owner_class)cls),
					x->io_bytes_by_owner[cls]);
		json_obj_end(o);
		json_u64(o, "journal_writes", x->journal_writes);
		json_u64(o, "journal_breaks", x->journal_breaks);
		json_u64(o, "lost_events", x->lost);
		json_obj_begin(o, "events");
		for (k = 0; k < c->nevents; k++) {
			json_obj_begin(o, c->events[k].event);
			json_str(o, "counted_by", x->ev[k].hist ?
				 "histogram trigger" : x->ev[k].bpf ?
				 "bpf" : "ring buffer");
			json_u64(o, "total", x->ev[k].total);
			json_obj_begin(o, "by");
			for (key = 0; key < c->events[k].nkeys; key++)
				json_tally(o, c->events[k].keys[key],
					   &x->ev[k].by_key[key]);
			json_obj_end(o);
			if (c->events[k].nkeys > 1)
				json_tally(o, "by_tuple", &x->ev[k].by_tuple);
			json_obj_end(o);
		}
		json_obj_end(o);
	}
	json_obj_end(o);
}

void expr_json(const struct exp_config *c, const struct table *t)
{
	struct sink *o = c->out;
	char v[256], d[256];
	size_t i, k;
	int s;

	expr_describe(c, d, sizeof(d));
	json_obj_begin(o, "workload");
	json_str(o, "name", exp_workload_name(c->wl.kind));
	json_str(o, "description", d);
	json_obj_end(o);
	json_u64(o, "runs_per_side", c->runs);
	json_bool(o, "interleaved", !c->keep_order);
	if (c->change)
		json_str(o, "change", c->change);
	else
		json_null(o, "change");
	json_arr_begin(o, "sides");
	for (s = 0; s < 2; s++) {
		const struct exp_side *sd = &c->side[s];

		json_obj_begin(o, NULL);
		json_str(o, "name", sd->name);
		json_str(o, "image", c->change && s ? NULL : sd->image);
		json_str(o, "mount_options", sd->mount_opts ? sd->mount_opts :
			 "");
		if (c->wl.kind == EXP_WL_RANDWRITE)
			json_bool(o, "overwrite", c->wl.overwrite ||
				  (s && c->wl.overwrite_b));
		json_arr_begin(o, "runs");
		for (i = 0; i < sd->nruns; i++) {
			const struct exp_run *r = &sd->runs[i];

			json_obj_begin(o, NULL);
			json_u64(o, "index", r->index);
			json_double(o, "seconds", r->seconds);
			json_obj_begin(o, "metrics");
			for (k = 0; k < r->nm; k++)
				json_double(o, r->m[k].name, r->m[k].value);
			json_obj_end(o);
			json_counters(c, o, &r->c);
			json_obj_end(o);
		}
		json_arr_end(o);
		json_obj_end(o);
	}
	json_arr_end(o);
	json_arr_begin(o, "comparisons");
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->r[i];

		json_obj_begin(o, NULL);
		json_str(o, "metric", r->name);
		json_str(o, "kind", r->counter ? "counter" : "metric");
		json_bool(o, "higher_is_better", r->higher_better);
		if (r->ok) {
			json_double(o, "mean_a", r->cmp.mean_a);
			json_double(o, "sd_a", r->cmp.sd_a);
			json_double(o, "mean_b", r->cmp.mean_b);
			json_double(o, "sd_b", r->cmp.sd_b);
			json_double(o, "delta_pct", r->cmp.delta_pct);
			json_arr_begin(o, "ci95");
			json_double(o, NULL, r->cmp.ci_lo);
			json_double(o, NULL, r->cmp.ci_hi);
			json_arr_end(o);
			json_double(o, "p_value", r->cmp.p);
			json_bool(o, "significant", r->cmp.significant);
			json_double(o, "detectable_pct", r->cmp.mde_pct);
			json_double(o, "target_pct", c->detect_pct);
			json_u64(o, "runs_for_target",
				 exps_runs_needed(&r->cmp, c->detect_pct));
		} else {
			json_null(o, "delta_pct");
			json_null(o, "ci95");
			json_null(o, "p_value");
			json_bool(o, "significant", 0);
		}
		expr_verdict(r, v, sizeof(v));
		json_str(o, "verdict", v);
		json_obj_end(o);
	}
	json_arr_end(o);
}

