/* exp_trace_read.c - reading a run's recording back: each raw record
 * decoded by libtraceevent into the counters (block requests, jbd2's logged
 * blocks, the chosen events by key), and the records the buffer lost. */
#include "exp_trace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long num(struct tep_event *e, struct tep_record *r,
			      const char *name)
{
	struct tep_format_field *f = tep_find_field(e, name);
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, r->data, &v);
	return v;
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
	     !strcmp(key, "call_site")) && (s = expt_sym_of(t, v)))
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

errcode_t expt_read_records(struct exp_tracer *t, char *why, size_t len)
{
	errcode_t err = 0;

	if (tracefs_iterate_raw_events(t->tep, t->inst, NULL, 0, on_record,
				       t) < 0) {
		snprintf(why, len, "reading the trace of %s failed", t->name);
		err = EIO;
	} else if (t->oom) {
		snprintf(why, len, "out of memory reading the trace");
		err = ENOMEM;
	}
	t->out->lost += overruns(t->inst);
	return err;
}

void expt_take_reqs(struct exp_tracer *t, struct expt_req **reqs,
		    size_t *nreqs)
{
	qsort(t->reqs, t->nreqs, sizeof(*t->reqs), req_cmp);
	*reqs = t->reqs;
	*nreqs = t->nreqs;
	t->reqs = NULL;
	t->rcap = t->nreqs = 0;
}
