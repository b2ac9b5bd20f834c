/* exp_trace.c - recording a run through libtracefs: an instance of our own
 * (instances/e2layout-exp-PID) with block_rq_issue, jbd2_run_stats and the
 * chosen events filtered on the run's device; read back raw after the run
 * (libtraceevent decodes the fields), every dropped record counted. */
#include "exp_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "kcount.h"

struct exp_tracer {
	const struct exp_config *c;
	struct tep_handle *tep;
	struct tracefs_instance *inst;
	char name[64];
	char dir[PATH_MAX];	/* the instance's directory while recording */
	int rq_id, jbd2_id, ev_id[EXP_MAX_EVENTS];
	int hist[EXP_MAX_EVENTS];	/* counted by a histogram trigger */
	int bpf[EXP_MAX_EVENTS];	/* counted by a BPF program */
	struct kcount kc[EXP_MAX_EVENTS];
	char trig[EXP_MAX_EVENTS][256];	/* its text, to remove it */
	/* the recording being read */
	struct exp_counters *out;
	struct expt_req *reqs;
	size_t nreqs, rcap;
	int oom;
};

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

/* The kernel function holding address a: libtracefs loaded the kernel's
 * symbols (/proc/kallsyms) into the tep handle with the event formats. */
static const char *sym_of(const struct exp_tracer *t, unsigned long long a)
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
				sym = sym_of(t, rows[r].key[k]);
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

static unsigned long long num(struct tep_event *e, struct tep_record *r,
			      const char *name)
{
	struct tep_format_field *f = tep_find_field(e, name);
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, r->data, &v);
	return v;
}

int expt_tally_add(struct exp_tally *t, const char *key, unsigned long n)
{
	size_t i, h = 5381;
	const char *p;

	if ((t->n + 1) * 2 > t->cap) {
		size_t ncap = t->cap ? t->cap * 2 : 64, j;
		struct exp_count *ne = calloc(ncap, sizeof(*ne));

		if (!ne)
			return -1;
		for (j = 0; j < t->cap; j++) {
			if (!t->e[j].count)
				continue;
			for (h = 5381, p = t->e[j].key; *p; p++)
				h = h * 33 + (unsigned char)*p;
			for (i = h & (ncap - 1); ne[i].count;
			     i = (i + 1) & (ncap - 1))
				;
			ne[i] = t->e[j];
		}
		free(t->e);
		t->e = ne;
		t->cap = ncap;
	}
	for (h = 5381, p = key; *p; p++)
		h = h * 33 + (unsigned char)*p;
	for (i = h & (t->cap - 1); t->e[i].count && strcmp(t->e[i].key, key);
	     i = (i + 1) & (t->cap - 1))
		;
	if (!t->e[i].count) {
		snprintf(t->e[i].key, sizeof(t->e[i].key), "%s", key);
		t->n++;
	}
	t->e[i].count += n;
	return 0;
}

/* The text of one key field of a record. */
static void key_text(struct exp_tracer *t, struct tep_event *e,
		     struct tep_record *r, const char *key, char *out,
		     size_t len)
{
	struct tep_format_field *f = tep_find_field(e, key);
	unsigned long long v = 0;
	const char *s;

	if (!f) {
		snprintf(out, len, "?");
		return;
	}
	if (f->flags & TEP_FIELD_IS_STRING) {
		int off = f->offset, sz = f->size;

		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			unsigned int dl;

			memcpy(&dl, (char *)r->data + f->offset, sizeof(dl));
			off = (int)(dl & 0xffff) + ((f->flags &
				TEP_FIELD_IS_RELATIVE) ? f->offset + f->size
						       : 0);
			sz = (int)(dl >> 16);
		}
		if (off < 0 || sz < 0 || off + sz > r->size)
			sz = 0;
		snprintf(out, len, "%.*s", sz, (char *)r->data + off);
		return;
	}
	tep_read_number_field(f, r->data, &v);
	if ((!strcmp(key, "ip") || !strcmp(key, "caller") ||
	     !strcmp(key, "call_site")) && (s = sym_of(t, v)))
		snprintf(out, len, "%s", s);
	else if (!strcmp(key, "dev"))
		snprintf(out, len, "%llu,%llu", v >> 20, v & 0xfffff);
	else
		snprintf(out, len, "%llu", v);
}

static int on_record(struct tep_event *e, struct tep_record *r, int cpu,
		     void *arg)
{
	struct exp_tracer *t = arg;
	struct exp_counters *o = t->out;
	unsigned i, k;

	(void)cpu;
	if (r->missed_events)
		o->lost += r->missed_events > 0 ?
			   (unsigned long long)r->missed_events : 1;
	if (e->id == t->rq_id) {
		struct expt_req *q;
		char rwbs[12];

		if (t->nreqs == t->rcap) {
			size_t ncap = t->rcap ? t->rcap * 2 : 4096;
			struct expt_req *n = realloc(t->reqs,
						     ncap * sizeof(*n));

			if (!n) {
				t->oom = 1;
				return 1;
			}
			t->reqs = n;
			t->rcap = ncap;
		}
		q = &t->reqs[t->nreqs++];
		key_text(t, e, r, "rwbs", rwbs, sizeof(rwbs));
		q->ts = r->ts;
		q->sector = num(e, r, "sector");
		q->nr_sector = (unsigned)num(e, r, "nr_sector");
		q->write = strchr(rwbs, 'W') != NULL;
		q->flush = strchr(rwbs, 'F') != NULL;
		return 0;
	}
	if (e->id == t->jbd2_id) {
		o->jbd2_traced_commits++;
		o->jbd2_blocks += num(e, r, "blocks_logged");
		return 0;
	}
	for (i = 0; i < t->c->nevents; i++) {
		const struct exp_event_spec *s = &t->c->events[i];
		char tuple[128] = "", one[96];
		size_t used = 0;

		if (e->id != t->ev_id[i])
			continue;
		o->ev[i].total++;
		for (k = 0; k < s->nkeys; k++) {
			key_text(t, e, r, s->keys[k], one, sizeof(one));
			if (expt_tally_add(&o->ev[i].by_key[k], one, 1))
				t->oom = 1;
			used += (size_t)snprintf(tuple + used, sizeof(tuple) -
						 (used < sizeof(tuple) ? used :
						  sizeof(tuple)), "%s%s",
						 k ? " " : "", one);
			if (used >= sizeof(tuple))
				used = sizeof(tuple) - 1;
		}
		if (s->nkeys > 1 &&
		    expt_tally_add(&o->ev[i].by_tuple, tuple, 1))
			t->oom = 1;
	}
	return 0;
}

static int req_cmp(const void *a, const void *b)
{
	const struct expt_req *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Records the ring buffer overwrote, from each CPU's stats. */
static unsigned long long overruns(struct tracefs_instance *inst)
{
	unsigned long long total = 0, v;
	char f[64], *text, *p;
	long cpu, ncpu = sysconf(_SC_NPROCESSORS_CONF);

	for (cpu = 0; cpu < ncpu; cpu++) {
		snprintf(f, sizeof(f), "per_cpu/cpu%ld/stats", cpu);
		text = tracefs_instance_file_read(inst, f, NULL);
		if (!text)
			continue;
		p = strstr(text, "overrun:");
		if (p && sscanf(p, "overrun: %llu", &v) == 1)
			total += v;
		p = strstr(text, "dropped events:");
		if (p && sscanf(p, "dropped events: %llu", &v) == 1)
			total += v;
		free(text);
	}
	return total;
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
	if (tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, on_record,
				       t) < 0) {
		snprintf(why, len, "reading the trace of %s failed", t->name);
		err = EIO;
	} else if (t->oom) {
		snprintf(why, len, "out of memory reading the trace");
		err = ENOMEM;
	}
	out->lost += overruns(t->inst);
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
	qsort(t->reqs, t->nreqs, sizeof(*t->reqs), req_cmp);
	*reqs = t->reqs;
	*nreqs = t->nreqs;
	t->reqs = NULL;
	t->rcap = t->nreqs = 0;
	return 0;
}

errcode_t expt_jbd2_info(const char *devname, unsigned long long *commits,
			 double *commit_us)
{
	char p[128], line[256];
	unsigned long long us, n = 0;
	FILE *f;
	int got = 0;

	snprintf(p, sizeof(p), "/proc/fs/jbd2/%s-8/info", devname);
	f = fopen(p, "r");
	if (!f)
		return errno;
	*commit_us = 0;
	while (fgets(line, sizeof(line), f)) {
		int end = 0;

		/* sscanf counts a number read before a mismatch: only a
		 * whole match (%n reached) is the line we want */
		if (sscanf(line, "%llu transactions%n", &n, &end) == 1 &&
		    end) {
			*commits = n;
			got = 1;
			continue;
		}
		end = 0;
		if (sscanf(line, " %lluus average transaction commit time%n",
			   &us, &end) == 1 && end)
			*commit_us = (double)us;
	}
	fclose(f);
	return got ? 0 : EINVAL;
}

void expt_analyze(const struct expt_req *r, size_t n, unsigned blocksize,
		  enum owner_class (*cls)(void *arg, blk64_t blk), void *arg,
		  struct exp_counters *o)
{
	unsigned long long prev_end = 0, jend = 0, seek_sum = 0;
	unsigned spb = blocksize / 512;
	int have_prev = 0, have_j = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		enum owner_class c;

		if (!r[i].nr_sector) {
			o->io_flushes += r[i].flush;
			continue;
		}
		o->io_requests++;
		o->io_bytes += (unsigned long long)r[i].nr_sector * 512;
		if (r[i].write)
			o->io_writes++;
		else
			o->io_reads++;
		if (have_prev) {
			if (r[i].sector == prev_end) {
				o->io_sequential++;
			} else {
				o->io_seeks++;
				seek_sum += r[i].sector > prev_end ?
					    r[i].sector - prev_end :
					    prev_end - r[i].sector;
			}
		}
		prev_end = r[i].sector + r[i].nr_sector;
		have_prev = 1;
		c = cls ? cls(arg, r[i].sector / (spb ? spb : 1)) : OWN_UNKNOWN;
		o->io_by_owner[c]++;
		o->io_bytes_by_owner[c] += (unsigned long long)r[i].nr_sector *
					   512;
		if (c == OWN_JOURNAL && r[i].write) {
			o->journal_writes++;
			if (have_j && r[i].sector != jend)
				o->journal_breaks++;
			jend = r[i].sector + r[i].nr_sector;
			have_j = 1;
		}
	}
	o->io_mean_seek = o->io_seeks ? (double)seek_sum / o->io_seeks : 0;
	o->have_io = 1;
}

static int count_cmp(const void *a, const void *b)
{
	const struct exp_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->key, y->key);
}

void expt_tally_sort(struct exp_tally *t)
{
	size_t i, k = 0;

	for (i = 0; i < t->cap; i++)
		if (t->e[i].count)
			t->e[k++] = t->e[i];
	if (k)
		qsort(t->e, k, sizeof(*t->e), count_cmp);
	t->n = k;
	t->cap = k;	/* no longer a hash table */
}

void expt_tally_free(struct exp_tally *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}

void expt_counters_free(struct exp_counters *c)
{
	unsigned i, k;

	for (i = 0; i < EXP_MAX_EVENTS; i++) {
		for (k = 0; k < EXP_MAX_KEYS; k++)
			expt_tally_free(&c->ev[i].by_key[k]);
		expt_tally_free(&c->ev[i].by_tuple);
	}
}
