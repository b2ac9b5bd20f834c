/* exp_hist.c - counting a tracepoint by key inside the kernel: a histogram
 * trigger (hist:keys=...) cannot lose events the way a ring buffer can; its
 * "hist" file is read back here.  Used where the kernel has them
 * (CONFIG_HIST_TRIGGERS), the ring buffer otherwise. */
#include "exp_trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs_dl.h"	/* libtracefs, its calls through a table */

/* Keys printed as a kernel symbol. */
static int sym_key(const char *k)
{
	return !strcmp(k, "ip") || !strcmp(k, "caller") ||
	       !strcmp(k, "call_site");
}

int expt_hist_available(const char *sys, const char *ev)
{
	const char *no = getenv("E2LAYOUT_NO_HIST");

	if (no && *no && strcmp(no, "0"))
		return 0;
	return tracefs_event_file_exists(NULL, sys, ev, "hist");
}

void expt_hist_trigger(const struct exp_event_spec *s, int filter, __u64 kdev,
		       char *out, size_t len)
{
	size_t used;
	unsigned k;

	used = (size_t)snprintf(out, len, "hist:keys=");
	for (k = 0; k < s->nkeys && used < len; k++)
		used += (size_t)snprintf(out + used, len - used, "%s%s%s",
					 k ? "," : "", s->keys[k],
					 sym_key(s->keys[k]) ? ".sym" : "");
	if (!s->nkeys && used < len)	/* a total only: key on the cpu */
		used += (size_t)snprintf(out + used, len - used, "common_cpu");
	if (used < len)
		used += (size_t)snprintf(out + used, len - used,
					 ":size=65536");
	if (filter && used < len)
		snprintf(out + used, len - used, " if dev == %llu",
			 (unsigned long long)kdev);
}

/* The value of key "name: " in [p, end), up to ", NEXT: " or end, trimmed
 * and, for a symbol ("[ffffffff81234567] ext4_dirty_inode"), the name. */
static const char *key_value(const char *p, const char *end, const char *name,
			     const char *next, int sym, char *out, size_t n)
{
	char pat[48];
	const char *v, *stop = end, *q;
	size_t len;

	snprintf(pat, sizeof(pat), "%s: ", name);
	v = strstr(p, pat);
	if (!v || v >= end)
		return NULL;
	v += strlen(pat);
	if (next) {
		snprintf(pat, sizeof(pat), ", %s: ", next);
		q = strstr(v, pat);
		if (q && q < end)
			stop = q;
	}
	while (v < stop && *v == ' ')
		v++;
	if (sym && *v == '[') {
		q = memchr(v, ']', (size_t)(stop - v));
		if (q)
			v = q + 1;
		while (v < stop && *v == ' ')
			v++;
		for (q = v; q < stop && *q != ' ' && *q != '+'; q++)
			;
		stop = q;
	}
	while (stop > v && stop[-1] == ' ')
		stop--;
	len = (size_t)(stop - v) < n - 1 ? (size_t)(stop - v) : n - 1;
	memcpy(out, v, len);
	out[len] = 0;
	return stop;
}

int expt_hist_parse(const char *text, const struct exp_event_spec *s,
		    struct exp_event_count *out, unsigned long long *dropped)
{
	const char *line, *nl, *close, *hc, *p;
	unsigned long long d;
	int entries = 0, totals = 0;
	unsigned k;

	*dropped = 0;
	for (line = text; line && *line; line = nl ? nl + 1 : NULL) {
		char tuple[128], one[96];
		unsigned long count;
		size_t used = 0;

		nl = strchr(line, '\n');
		if ((p = strstr(line, "Dropped:")) && (!nl || p < nl) &&
		    sscanf(p, "Dropped: %llu", &d) == 1) {
			*dropped += d;
			continue;
		}
		if (!strncmp(line, "Totals:", 7))
			totals = 1;
		if (strncmp(line, "{ ", 2))
			continue;
		hc = strstr(line, "} hitcount:");
		if (!hc || (nl && hc > nl) ||
		    sscanf(hc, "} hitcount: %lu", &count) != 1)
			return -1;
		close = hc;
		tuple[0] = 0;
		for (k = 0, p = line + 2; k < s->nkeys; k++) {
			p = key_value(p, close, s->keys[k], k + 1 < s->nkeys ?
				      s->keys[k + 1] : NULL,
				      sym_key(s->keys[k]), one, sizeof(one));
			if (!p)
				return -1;
			if (expt_tally_add(&out->by_key[k], one, count))
				return -1;
			used += (size_t)snprintf(tuple + used, sizeof(tuple) -
						 used, "%s%s", k ? " " : "",
						 one);
			if (used >= sizeof(tuple))
				used = sizeof(tuple) - 1;
		}
		if (s->nkeys > 1 && expt_tally_add(&out->by_tuple, tuple,
						   count))
			return -1;
		out->total += count;
		entries++;
	}
	return entries || totals ? 0 : -1;
}
