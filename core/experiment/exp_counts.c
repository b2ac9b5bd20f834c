/* exp_counts.c - counting what a run recorded: tallies by key, jbd2's
 * /proc info, and the block requests' sequential, seeking, owner-class and
 * journal-break counts. */
#include "exp_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
