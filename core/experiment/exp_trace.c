/* exp_trace.c - recording a run through libtracefs: an instance of our own
 * (instances/e2layout-exp-PID) set up with block_rq_issue, jbd2_run_stats
 * and the chosen events filtered on the run's device (histogram triggers or
 * BPF counters where they can), and torn down; reading the records back is
 * exp_trace_read.c's, counting them exp_counts.c's. */
#include "exp_trace_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

errcode_t expt_available(const struct exp_config *c, char *why, size_t len)
{
	static const char *const base[][2] = {
		{ "block", "block_rq_issue" }, { "jbd2", "jbd2_run_stats" },
	};
	const char *dir;
	char p[PATH_MAX];
	unsigned i;

	if (geteuid() != 0) {
		snprintf(why, len, "the counters need root (tracefs)");
		return EPERM;
	}
	/* loaded here, by the counters alone: no other request pays for it */
	if (tracefs_dl_load(why, len))
		return ENOENT;
	dir = tracefs_tracing_dir();
	if (!dir) {
		snprintf(why, len, "tracefs is not mounted (mount -t tracefs "
			 "nodev /sys/kernel/tracing)");
		return ENOENT;
	}
	for (i = 0; i < 2 + c->nevents; i++) {
		const char *sys = i < 2 ? base[i][0] : c->events[i - 2].system;
		const char *ev = i < 2 ? base[i][1] : c->events[i - 2].event;

		snprintf(p, sizeof(p), "%s/events/%s/%s/format", dir, sys, ev);
		if (access(p, R_OK)) {
			snprintf(why, len, "the kernel has no %s:%s tracepoint "
				 "(%s)", sys, ev, p);
			return ENOENT;
		}
	}
	return 0;
}
const char *expt_sym_of(const struct exp_tracer *t, unsigned long long a)
{
	return tep_find_function(t->tep, a);
}

static int getenv_set(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

errcode_t expt_open(struct exp_tracer **tp, const struct exp_config *c,
		    char *why, size_t len)
{
	const char *sys[EXP_MAX_EVENTS + 3];
	char nobpf[256];
	struct exp_tracer *t;
	struct tep_event *e;
	unsigned i, n = 0, j;
	errcode_t err;

	*tp = NULL;
	err = expt_available(c, why, len);
	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return ENOMEM;
	t->c = c;
	sys[n++] = "block";
	sys[n++] = "jbd2";
	for (i = 0; i < c->nevents; i++) {
		for (j = 0; j < n && strcmp(sys[j], c->events[i].system); j++)
			;
		if (j == n)
			sys[n++] = c->events[i].system;
	}
	sys[n] = NULL;
	t->tep = tracefs_local_events_system(NULL, sys);
	if (!t->tep) {
		snprintf(why, len, "libtracefs could not read the event "
			 "formats of tracefs");
		free(t);
		return EIO;
	}
	e = tep_find_event_by_name(t->tep, "block", "block_rq_issue");
	t->rq_id = e ? e->id : -1;
	e = tep_find_event_by_name(t->tep, "jbd2", "jbd2_run_stats");
	t->jbd2_id = e ? e->id : -1;
	for (i = 0; i < c->nevents; i++) {
		e = tep_find_event_by_name(t->tep, c->events[i].system,
					   c->events[i].event);
		t->ev_id[i] = e ? e->id : -1;
		t->hist[i] = expt_hist_available(c->events[i].system,
						 c->events[i].event);
		kcount_init(&t->kc[i]);
		/* no histograms: a BPF program counts in the kernel instead,
		 * for up to two numeric keys (E2LAYOUT_NO_HIST: neither) */
		t->bpf[i] = !t->hist[i] && c->events[i].nkeys <= 2 &&
			    !getenv_set("E2LAYOUT_NO_HIST") &&
			    !kcount_available(nobpf, sizeof(nobpf));
		if (!e) {
			snprintf(why, len, "no format for %s:%s",
				 c->events[i].system, c->events[i].event);
			expt_close(t);
			return ENOENT;
		}
	}
	*tp = t;
	return 0;
}

/* Detaches the BPF counters. */
static void unbpf(struct exp_tracer *t)
{
	unsigned i;

	for (i = 0; i < t->c->nevents; i++)
		kcount_close(&t->kc[i]);
}

/* Starts the BPF counter of event i: 0, or an errno with why set. */
static errcode_t bpf_begin(struct exp_tracer *t, unsigned i, __u64 kdev,
			   char *why, size_t len)
{
	const struct exp_event_spec *sp = &t->c->events[i];
	const char *keys[2] = { sp->keys[0], sp->keys[1] };
	struct tep_event *e = tep_find_event_by_name(t->tep, sp->system,
						     sp->event);
	char ev[128];
	unsigned k;

	for (k = 0; k < sp->nkeys; k++) {
		struct tep_format_field *f = e ? tep_find_field(e, keys[k])
					       : NULL;

		if (!f || (f->flags & TEP_FIELD_IS_STRING) || f->size > 8) {
			snprintf(why, len, "%s:%s: field %s is not a number "
				 "of 8 bytes or fewer (the BPF counter keys "
				 "on numbers)", sp->system, sp->event,
				 keys[k]);
			return EINVAL;
		}
	}
	snprintf(ev, sizeof(ev), "%s/%s", sp->system, sp->event);
	return kcount_open(&t->kc[i], tracefs_tracing_dir(), ev, kdev, keys,
			   (int)sp->nkeys, NULL, 65536, why, len);
}

/* Reads the BPF counter of event i into out. */
static errcode_t bpf_end(struct exp_tracer *t, unsigned i,
			 struct exp_counters *out)
{
	const struct exp_event_spec *sp = &t->c->events[i];
	struct exp_event_count *ev = &out->ev[i];
	struct kcount_row *rows = NULL;
	size_t n = 0, r;
	__u64 dropped = 0;
	errcode_t err;
	unsigned k;

	err = kcount_read(&t->kc[i], &rows, &n, &dropped);
	if (err)
		return err;
	ev->bpf = 1;
	out->lost += dropped;
	for (r = 0; r < n && !err; r++) {
		char tuple[128] = "", one[96];
		size_t used = 0;

		for (k = 0; k < sp->nkeys; k++) {
			const char *sym = NULL;

			if (!strcmp(sp->keys[k], "ip") ||
			    !strcmp(sp->keys[k], "caller") ||
			    !strcmp(sp->keys[k], "call_site"))
				sym = expt_sym_of(t, rows[r].key[k]);
			if (sym)
				snprintf(one, sizeof(one), "%s", sym);
			else if (!strcmp(sp->keys[k], "dev"))
				snprintf(one, sizeof(one), "%llu,%llu",
					 (unsigned long long)rows[r].key[k] >>
					 20, (unsigned long long)
					 rows[r].key[k] & 0xfffff);
			else
				snprintf(one, sizeof(one), "%llu",
					 (unsigned long long)rows[r].key[k]);
			if (expt_tally_add(&ev->by_key[k], one,
					   (unsigned long)rows[r].hits))
				err = ENOMEM;
			used += (size_t)snprintf(tuple + used, sizeof(tuple) -
						 used, "%s%s", k ? " " : "",
						 one);
			if (used >= sizeof(tuple))
				used = sizeof(tuple) - 1;
		}
		if (sp->nkeys > 1 && expt_tally_add(&ev->by_tuple, tuple,
						    (unsigned long)rows[r].hits))
			err = ENOMEM;
		ev->total += (unsigned long)rows[r].hits;
	}
	free(rows);
	return err;
}

/* Removes the histogram triggers set in the instance. */
static void untrigger(struct exp_tracer *t)
{
	char undo[264];
	unsigned i;

	for (i = 0; i < t->c->nevents; i++) {
		if (!t->trig[i][0])
			continue;
		snprintf(undo, sizeof(undo), "!%s", t->trig[i]);
		tracefs_event_file_write(t->inst, t->c->events[i].system,
					 t->c->events[i].event, "trigger",
					 undo);
		t->trig[i][0] = 0;
	}
}

void expt_close(struct exp_tracer *t)
{
	if (!t)
		return;
	if (t->inst) {
		untrigger(t);
		unbpf(t);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
	}
	free(t->reqs);
	if (t->tep)
		tep_free(t->tep);
	free(t);
}

const char *expt_instance_dir(const struct exp_tracer *t)
{
	return t && t->inst ? t->dir : "";
}

/* Enables sys:ev in the instance, filtered on the device when it has one. */
static errcode_t enable(struct exp_tracer *t, const char *sys, const char *ev,
			__u64 kdev, char *why, size_t len)
{
	struct tep_event *e = tep_find_event_by_name(t->tep, sys, ev);
	char filt[64];

	snprintf(filt, sizeof(filt), "dev == %llu", (unsigned long long)kdev);
	if (e && tep_find_field(e, "dev") &&
	    tracefs_event_file_write(t->inst, sys, ev, "filter", filt) < 0) {
		snprintf(why, len, "cannot filter %s:%s on the device: %s",
			 sys, ev, strerror(errno));
		return errno ? errno : EIO;
	}
	if (tracefs_event_enable(t->inst, sys, ev)) {
		snprintf(why, len, "cannot enable %s:%s: %s", sys, ev,
			 strerror(errno));
		return errno ? errno : EIO;
	}
	return 0;
}

errcode_t expt_begin(struct exp_tracer *t, __u64 kdev, char *why, size_t len)
{
	errcode_t err;
	unsigned i;

	snprintf(t->name, sizeof(t->name), "e2layout-exp-%ld", (long)getpid());
	if (tracefs_instance_exists(t->name)) {
		/* a run of ours that was killed left it: take it over */
		struct tracefs_instance *old = tracefs_instance_alloc(NULL,
								      t->name);

		if (old) {
			tracefs_instance_destroy(old);
			tracefs_instance_free(old);
		}
	}
	t->inst = tracefs_instance_create(t->name);
	if (!t->inst) {
		snprintf(why, len, "cannot create the tracing instance %s: %s",
			 t->name, strerror(errno));
		return errno ? errno : EIO;
	}
	snprintf(t->dir, sizeof(t->dir), "%s/instances/%s",
		 tracefs_tracing_dir(), t->name);
	tracefs_trace_off(t->inst);
	/* per CPU, ours alone: a small run fits many times over */
	tracefs_instance_file_write(t->inst, "buffer_size_kb", "16384");
	err = enable(t, "block", "block_rq_issue", kdev, why, len);
	if (!err)
		err = enable(t, "jbd2", "jbd2_run_stats", kdev, why, len);
	for (i = 0; !err && i < t->c->nevents; i++) {
		const struct exp_event_spec *sp = &t->c->events[i];
		struct tep_event *e;

		/* a key BPF cannot count on: the ring buffer counts it */
		if (t->bpf[i] && bpf_begin(t, i, kdev, why, len))
			t->bpf[i] = 0;
		if (t->bpf[i])
			continue;
		if (!t->hist[i]) {
			err = enable(t, sp->system, sp->event, kdev, why, len);
			continue;
		}
		/* counted in the kernel: nothing goes through the buffer */
		e = tep_find_event_by_name(t->tep, sp->system, sp->event);
		expt_hist_trigger(sp, e && tep_find_field(e, "dev"), kdev,
				  t->trig[i], sizeof(t->trig[i]));
		if (tracefs_event_file_write(t->inst, sp->system, sp->event,
					     "trigger", t->trig[i]) < 0) {
			snprintf(why, len, "cannot set the histogram trigger "
				 "\"%s\" on %s:%s: %s", t->trig[i],
				 sp->system, sp->event, strerror(errno));
			err = errno ? errno : EIO;
		}
	}
	if (!err && tracefs_trace_on(t->inst)) {
		snprintf(why, len, "cannot turn tracing on in %s", t->name);
		err = EIO;
	}
	if (err) {
		untrigger(t);
		unbpf(t);
		tracefs_instance_destroy(t->inst);
		tracefs_instance_free(t->inst);
		t->inst = NULL;
	}
	return err;
}
errcode_t expt_end(struct exp_tracer *t, struct exp_counters *out,
		   struct expt_req **reqs, size_t *nreqs, char *why,
		   size_t len)
{
	errcode_t err = 0;
	unsigned i;

	*reqs = NULL;
	*nreqs = 0;
	if (!t->inst)
		return EINVAL;
	tracefs_trace_off(t->inst);
	t->out = out;
	t->nreqs = 0;
	t->oom = 0;
	err = expt_read_records(t, why, len);
	for (i = 0; i < t->c->nevents; i++) {
		const struct exp_event_spec *sp = &t->c->events[i];
		unsigned long long dropped = 0;
		char *text;

		if (t->bpf[i]) {
			if (!err && bpf_end(t, i, out)) {
				snprintf(why, len, "cannot read the BPF count "
					 "of %s:%s", sp->system, sp->event);
				err = EIO;
			}
			continue;
		}
		if (!t->hist[i])
			continue;
		out->ev[i].hist = 1;
		text = tracefs_event_file_read(t->inst, sp->system, sp->event,
					       "hist", NULL);
		if (!err && (!text || expt_hist_parse(text, sp, &out->ev[i],
						      &dropped))) {
			snprintf(why, len, "cannot read the histogram of "
				 "%s:%s", sp->system, sp->event);
			err = EIO;
		}
		out->lost += dropped;
		free(text);
	}
	untrigger(t);
	unbpf(t);
	tracefs_instance_destroy(t->inst);
	tracefs_instance_free(t->inst);
	t->inst = NULL;
	if (err)
		return err;
	expt_take_reqs(t, reqs, nreqs);
	return 0;
}
