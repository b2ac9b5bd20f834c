/* exp_report.c - what an experiment says: per metric each side's mean and
 * standard deviation, the difference with its 95% interval, p-value and a
 * plain verdict, the smallest effect these runs can see, a text plot of the
 * runs, and the kernel's counters side by side; or all of it as JSON. */
#include "exp_report_int.h"
#include "exp_run.h"
#include "exp_trace.h"
#include "math_dl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PLOT_WIDTH	48

static struct row *row_get(struct table *t, const char *name, int counter,
			   int higher, size_t runs)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!strcmp(t->r[i].name, name))
			return &t->r[i];
	if (t->n == t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 16;
		struct row *nr = realloc(t->r, ncap * sizeof(*nr));

		if (!nr)
			return NULL;
		t->r = nr;
		t->cap = ncap;
	}
	memset(&t->r[t->n], 0, sizeof(t->r[0]));
	snprintf(t->r[t->n].name, sizeof(t->r[0].name), "%s", name);
	t->r[t->n].counter = counter;
	t->r[t->n].higher_better = higher;
	t->r[t->n].v[0] = calloc(runs ? runs : 1, sizeof(double));
	t->r[t->n].v[1] = calloc(runs ? runs : 1, sizeof(double));
	if (!t->r[t->n].v[0] || !t->r[t->n].v[1]) {
		free(t->r[t->n].v[0]);
		free(t->r[t->n].v[1]);
		return NULL;
	}
	return &t->r[t->n++];
}

static void add(struct table *t, const char *name, int counter, int higher,
		size_t runs, int side, double v)
{
	struct row *r = row_get(t, name, counter, higher, runs);

	if (r && r->n[side] < runs)
		r->v[side][r->n[side]++] = v;
}

static void build(const struct exp_config *c, struct table *t)
{
	size_t runs = c->runs, i, k;
	int s;

	for (s = 0; s < 2; s++)
		for (i = 0; i < c->side[s].nruns; i++) {
			const struct exp_run *r = &c->side[s].runs[i];

			for (k = 0; k < r->nm; k++)
				add(t, r->m[k].name, 0, r->m[k].higher_better,
				    runs, s, r->m[k].value);
		}
	for (s = 0; s < 2; s++)
		for (i = 0; i < c->side[s].nruns; i++) {
			const struct exp_counters *x = &c->side[s].runs[i].c;

			if (x->have_jbd2)
				add(t, "jbd2_commits", 1, 0, runs, s,
				    (double)x->jbd2_commits);
			if (!x->have_io)
				continue;
			add(t, "jbd2_blocks", 1, 0, runs, s,
			    (double)x->jbd2_blocks);
			add(t, "io_requests", 1, 0, runs, s,
			    (double)x->io_requests);
			add(t, "io_seeks", 1, 0, runs, s, (double)x->io_seeks);
			add(t, "journal_breaks", 1, 0, runs, s,
			    (double)x->journal_breaks);
		}
	for (i = 0; i < t->n; i++)
		t->r[i].ok = !exps_compare(t->r[i].v[0], t->r[i].n[0],
					   t->r[i].v[1], t->r[i].n[1],
					   &t->r[i].cmp);
}

static void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		free(t->r[i].v[0]);
		free(t->r[i].v[1]);
	}
	free(t->r);
}

static double mean_b_of(const struct row *r)
{
	double m, sd;

	exps_mean_sd(r->v[1], r->n[1], &m, &sd);
	return m;
}

/* "B is faster by 8-15%", "no difference detectable (...)". */
void expr_verdict(const struct row *r, char *out, size_t len)
{
	const struct exps_cmp *c = &r->cmp;
	double lo = fabs(c->ci_lo), hi = fabs(c->ci_hi), t;
	const char *what;

	if (!r->ok) {
		if (r->n[0] < 2 || r->n[1] < 2)
			snprintf(out, len, "not compared (fewer than two runs "
				 "a side)");
		else if (mean_b_of(r) == 0)
			snprintf(out, len, "0 in every run on both sides");
		else
			snprintf(out, len, "0 on A, %.4g on B on average (no "
				 "percentage of 0)", mean_b_of(r));
		return;
	}
	if (c->sd_a == 0 && c->sd_b == 0 && c->diff == 0) {
		snprintf(out, len, "the same in every run on both sides");
		return;
	}
	if (!c->significant) {
		snprintf(out, len, "no difference detectable (these runs see "
			 "only effects beyond +-%.1f%%)", c->mde_pct);
		return;
	}
	if (lo > hi) {
		t = lo;
		lo = hi;
		hi = t;
	}
	if (r->counter)
		what = c->diff > 0 ? "more" : "fewer";
	else if (r->higher_better)
		what = c->diff > 0 ? "faster" : "slower";
	else
		what = c->diff < 0 ? "faster" : "slower";
	if (r->counter)
		snprintf(out, len, "B has %s, by %.1f-%.1f%%", what, lo, hi);
	else
		snprintf(out, len, "B is %s by %.1f-%.1f%%", what, lo, hi);
}

#define STRIP_WIDTH	20

/* The runs of a row on one line, A's as 'A', B's as 'B', both as '*',
 * from the smallest value on the left to the largest on the right. */
static void strip(const struct row *r, char out[STRIP_WIDTH + 3])
{
	double lo = INFINITY, hi = -INFINITY;
	size_t i;
	int s;

	memset(out, ' ', STRIP_WIDTH + 2);
	out[0] = '|';
	out[STRIP_WIDTH + 1] = '|';
	out[STRIP_WIDTH + 2] = 0;
	for (s = 0; s < 2; s++)
		for (i = 0; i < r->n[s]; i++) {
			lo = mdl_fmin(lo, r->v[s][i]);
			hi = mdl_fmax(hi, r->v[s][i]);
		}
	if (!(hi >= lo))
		return;
	for (s = 0; s < 2; s++)
		for (i = 0; i < r->n[s]; i++) {
			int x = hi > lo ? (int)mdl_lround((r->v[s][i] - lo) /
				(hi - lo) * (STRIP_WIDTH - 1)) :
				STRIP_WIDTH / 2;
			char *c = &out[1 + x], me = s ? 'B' : 'A';

			*c = *c == ' ' || *c == me ? me : '*';
		}
}

static void plot(struct sink *o, const struct row *r)
{
	double lo = INFINITY, hi = -INFINITY;
	char line[PLOT_WIDTH + 1];
	double mean, sd;
	size_t i;
	int s;

	for (s = 0; s < 2; s++)
		for (i = 0; i < r->n[s]; i++) {
			lo = mdl_fmin(lo, r->v[s][i]);
			hi = mdl_fmax(hi, r->v[s][i]);
		}
	if (!(hi >= lo))
		return;
	out_printf(o, "  %-22s %-12.6g%*s%12.6g\n", r->name, lo,
		   PLOT_WIDTH - 22, "", hi);
	for (s = 0; s < 2; s++) {
		memset(line, ' ', PLOT_WIDTH);
		line[PLOT_WIDTH] = 0;
		for (i = 0; i < r->n[s]; i++) {
			int x = hi > lo ? (int)mdl_lround((r->v[s][i] -
				lo) / (hi - lo) * (PLOT_WIDTH - 1)) :
				PLOT_WIDTH / 2;
			char *p = &line[x];

			*p = *p == ' ' ? 'o' : *p == 'o' ? '2' :
			     *p < '9' ? (char)(*p + 1) : '9';
		}
		exps_mean_sd(r->v[s], r->n[s], &mean, &sd);
		out_printf(o, "  %-22s |%s| mean %.6g\n", s ? "B" : "A", line,
			   mean);
	}
}

static double mean_of(const struct exp_side *sd,
		      unsigned long long (*get)(const struct exp_counters *))
{
	double sum = 0;
	size_t i;

	for (i = 0; i < sd->nruns; i++)
		sum += (double)get(&sd->runs[i].c);
	return sd->nruns ? sum / (double)sd->nruns : 0;
}

#define GETTER(f) \
	static unsigned long long get_##f(const struct exp_counters *c) \
	{ return c->f; }
GETTER(jbd2_commits)
GETTER(jbd2_blocks)
GETTER(io_requests)
GETTER(io_bytes)
GETTER(io_reads)
GETTER(io_writes)
GETTER(io_sequential)
GETTER(io_seeks)
GETTER(journal_writes)
GETTER(journal_breaks)
GETTER(lost)

static const struct {
	const char *label;
	unsigned long long (*get)(const struct exp_counters *);
	int io;
} counter_rows[] = {
	{ "jbd2 commits", get_jbd2_commits, 0 },
	{ "jbd2 blocks logged", get_jbd2_blocks, 1 },
	{ "block requests", get_io_requests, 1 },
	{ "  bytes", get_io_bytes, 1 },
	{ "  reads", get_io_reads, 1 },
	{ "  writes", get_io_writes, 1 },
	{ "  sequential", get_io_sequential, 1 },
	{ "  seeking", get_io_seeks, 1 },
	{ "journal writes", get_journal_writes, 1 },
	{ "journal breaks", get_journal_breaks, 1 },
	{ "records lost", get_lost, 1 },
};

static void text_counters(const struct exp_config *c, struct sink *o)
{
	const struct exp_side *a = &c->side[0], *b = &c->side[1];
	double sa, sb;
	size_t i, k;
	int have_io = a->nruns && a->runs[0].c.have_io;
	int cls, s;

	out_printf(o, "\nCounters (mean per run)       %14s %14s\n", "A", "B");
	for (i = 0; i < sizeof(counter_rows) / sizeof(counter_rows[0]); i++) {
		if (counter_rows[i].io && !have_io)
			continue;
		out_printf(o, "  %-26s %14.1f %14.1f\n", counter_rows[i].label,
			   mean_of(a, counter_rows[i].get),
			   mean_of(b, counter_rows[i].get));
	}
	if (!have_io) {
		out_printf(o, "  (block requests not recorded: %s)\n",
			   a->nruns ? (a->runs[0].c.why_not[0] ?
				       a->runs[0].c.why_not :
				       "--no-counters") : "no runs");
		return;
	}
	sa = sb = 0;
	for (i = 0; i < a->nruns; i++)
		sa += a->runs[i].c.io_mean_seek / (double)a->nruns;
	for (i = 0; i < b->nruns; i++)
		sb += b->runs[i].c.io_mean_seek / (double)b->nruns;
	out_printf(o, "  %-26s %14.1f %14.1f\n", "mean seek (sectors)", sa, sb);
	sa = sb = 0;
	for (i = 0; i < a->nruns; i++)
		sa += a->runs[i].c.jbd2_commit_us / (double)a->nruns;
	for (i = 0; i < b->nruns; i++)
		sb += b->runs[i].c.jbd2_commit_us / (double)b->nruns;
	out_printf(o, "  %-26s %14.1f %14.1f\n", "avg commit time (us)", sa,
		   sb);
	out_printf(o, "  requests by owner:\n");
	for (cls = 0; cls < OWN_CLASS_MAX; cls++) {
		double m[2] = { 0, 0 };

		for (s = 0; s < 2; s++)
			for (i = 0; i < c->side[s].nruns; i++)
				m[s] += (double)c->side[s].runs[i].c.
					io_by_owner[cls] /
					(double)c->side[s].nruns;
		if (m[0] > 0 || m[1] > 0)
			out_printf(o, "    %-24s %14.1f %14.1f\n",
				   owner_class_name((enum owner_class)cls),
				   m[0], m[1]);
	}
	for (k = 0; k < c->nevents; k++) {
		const struct exp_event_spec *e = &c->events[k];
		unsigned key;

		double ta = 0, tb = 0;

		for (i = 0; i < a->nruns; i++)
			ta += (double)a->runs[i].c.ev[k].total /
			      (double)a->nruns;
		for (i = 0; i < b->nruns; i++)
			tb += (double)b->runs[i].c.ev[k].total /
			      (double)b->nruns;
		out_printf(o, "  %-26s %14.1f %14.1f\n", e->event, ta, tb);
		for (key = 0; key < e->nkeys; key++)
			for (s = 0; s < 2; s++) {
				const struct exp_tally *t;

				if (!c->side[s].nruns)
					continue;
				t = &c->side[s].runs[0].c.ev[k].by_key[key];
				out_printf(o, "    %s run 1, by %s:", s ? "B" :
					   "A", e->keys[key]);
				for (i = 0; i < t->n && i < 4; i++)
					out_printf(o, " %s %lu%s", t->e[i].key,
						   t->e[i].count, i + 1 < t->n
						   && i < 3 ? "," : "");
				out_printf(o, "%s\n", t->n > 4 ? ", ..." : "");
			}
	}
}

void expr_describe(const struct exp_config *c, char *out, size_t len)
{
	const struct exp_workload *w = &c->wl;

	switch (w->kind) {
	case EXP_WL_SMALLCREATE:
		snprintf(out, len, "smallcreate: %u directories x %u files of "
			 "%llu bytes, each fsync'd", w->dirs, w->files,
			 (unsigned long long)w->size);
		break;
	case EXP_WL_RANDWRITE:
		snprintf(out, len, "randwrite: %u 4 KiB O_DSYNC writes into "
			 "a %s file of %llu bytes%s", w->ops, w->overwrite ?
			 "written" : "fallocated",
			 (unsigned long long)w->size, w->overwrite_b ?
			 " (B: a written one)" : "");
		break;
	case EXP_WL_PARALLEL:
		snprintf(out, len, "parallel: %u threads appending %llu bytes "
			 "each to their own file", w->threads,
			 (unsigned long long)w->size);
		break;
	case EXP_WL_CREATEREADDELETE:
		snprintf(out, len, "createreaddelete: %u files of %llu bytes "
			 "created, read back cold, deleted", w->files,
			 (unsigned long long)w->size);
		break;
	case EXP_WL_DBENCH:
		snprintf(out, len, "dbench: %s clients for %u s", w->arg,
			 w->seconds);
		break;
	default:
		snprintf(out, len, "%s %s", exp_workload_name(w->kind),
			 w->arg ? w->arg : "");
	}
}

static void text_report(const struct exp_config *c, struct table *t)
{
	struct sink *o = c->out;
	char v[256], d[256];
	size_t i;
	int s;

	expr_describe(c, d, sizeof(d));
	out_printf(o, "Experiment: %s\n%u runs per side, %s, each on a fresh "
		   "copy, fresh loop mount, caches dropped\n", d, c->runs,
		   c->keep_order ? "in order" : "interleaved A B B A");
	for (s = 0; s < 2; s++)
		out_printf(o, "  %s  %s  (mount options: %s)\n",
			   c->side[s].name, c->change && s ?
			   "(A with the change)" : c->side[s].image,
			   c->side[s].mount_opts && *c->side[s].mount_opts ?
			   c->side[s].mount_opts : "-");
	if (c->change)
		out_printf(o, "  change: %s (made through a plan, applied "
			   "with an undo file, verified)\n", c->change);
	out_printf(o, "\n%-24s %12s %10s %12s %10s %8s %17s %8s   %-*s\n",
		   "metric", "A mean", "sd", "B mean", "sd", "delta%",
		   "95% CI of delta%", "p", STRIP_WIDTH + 2,
		   "runs (low .. high)");
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->r[i];
		char ci[256], st[STRIP_WIDTH + 3];

		if (!r->ok) {
			expr_verdict(r, ci, sizeof(ci));
			out_printf(o, "%-24s %s\n", r->name, ci);
			continue;
		}
		snprintf(ci, sizeof(ci), "[%+.1f, %+.1f]", r->cmp.ci_lo,
			 r->cmp.ci_hi);
		strip(r, st);
		out_printf(o, "%-24s %12.6g %10.4g %12.6g %10.4g %+8.1f %17s "
			   "%8.4f %s %s\n", r->name, r->cmp.mean_a, r->cmp.sd_a,
			   r->cmp.mean_b, r->cmp.sd_b, r->cmp.delta_pct, ci,
			   r->cmp.p, r->cmp.significant ? "*" : " ", st);
	}
	out_printf(o, "\nVerdict:\n");
	for (i = 0; i < t->n; i++) {
		const struct row *r = &t->r[i];
		unsigned need;

		expr_verdict(r, v, sizeof(v));
		out_printf(o, "  %-22s %s\n", r->name, v);
		if (!r->ok || r->counter)
			continue;
		need = exps_runs_needed(&r->cmp, c->detect_pct);
		if (need > c->runs)
			out_printf(o, "  %-22s to see +-%.1f%%: about %u runs "
				   "per side\n", "", c->detect_pct, need);
	}
	out_printf(o, "\nRuns (each o is one run; 2-9 runs in one place):\n");
	for (i = 0; i < t->n; i++)
		if (!t->r[i].counter)
			plot(o, &t->r[i]);
	text_counters(c, o);
}

void exp_report(struct exp_config *c)
{
	struct table t = { 0 };
	size_t i, e, key;
	int s;

	/* the tallies are read in count order from here on */
	for (s = 0; s < 2; s++)
		for (i = 0; i < c->side[s].nruns; i++)
			for (e = 0; e < c->nevents; e++) {
				struct exp_event_count *ev =
					&c->side[s].runs[i].c.ev[e];

				for (key = 0; key < EXP_MAX_KEYS; key++)
					expt_tally_sort(&ev->by_key[key]);
				expt_tally_sort(&ev->by_tuple);
			}
	build(c, &t);
	if (sink_is_json(c->out))
		expr_json(c, &t);
	else
		text_report(c, &t);
	table_free(&t);
}
