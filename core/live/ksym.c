/* ksym.c - /proc/kallsyms read once into a sorted table of text symbols,
 * searched by address (the nearest symbol at or below it). */
#include "ksym.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_addr(const void *x, const void *y)
{
	const struct ksym *a = x, *b = y;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

errcode_t ksym_load(struct ksym_table *t)
{
	size_t cap = 0, ncap = 0, used = 0;
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f;

	memset(t, 0, sizeof(*t));
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return errno;
	while (fgets(line, sizeof(line), f)) {
		size_t l;

		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 ||
		    !addr || (type != 't' && type != 'T'))
			continue;
		l = strlen(name) + 1;
		if (t->n == cap) {
			size_t c = cap ? cap * 2 : 4096;
			struct ksym *s = realloc(t->syms, c * sizeof(*s));

			if (!s)
				goto nomem;
			t->syms = s;
			cap = c;
		}
		if (used + l > ncap) {
			size_t c = ncap ? ncap * 2 : 65536;
			char *s = realloc(t->names, c);

			if (!s)
				goto nomem;
			t->names = s;
			ncap = c;
		}
		memcpy(t->names + used, name, l);
		t->syms[t->n].addr = addr;
		/* an offset until the storage stops moving */
		t->syms[t->n].name = (char *)(unsigned long)used;
		t->n++;
		used += l;
	}
	fclose(f);
	for (cap = 0; cap < t->n; cap++)
		t->syms[cap].name = t->names + (unsigned long)t->syms[cap].name;
	qsort(t->syms, t->n, sizeof(*t->syms), by_addr);
	return 0;
nomem:
	fclose(f);
	ksym_free(t);
	return ENOMEM;
}

const char *ksym_name(const struct ksym_table *t, __u64 addr)
{
	size_t lo = 0, hi = t->n;

	if (!t->n || addr < t->syms[0].addr)
		return NULL;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	return t->syms[lo].name;
}

void ksym_free(struct ksym_table *t)
{
	free(t->syms);
	free(t->names);
	memset(t, 0, sizeof(*t));
}
