/* lab_set.c - sets of numbers and ranges in a canonical form, so that an
 * answer "1-1" equals the fact "1" and "98304, 32768" equals
 * "32768,98304". */
#include "lab_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct span {
	unsigned long long a, b;
};

static int by_start(const void *x, const void *y)
{
	const struct span *p = x, *q = y;

	return p->a < q->a ? -1 : p->a > q->a;
}

static const char *number(const char *p, unsigned long long *v)
{
	char *end;

	while (isspace((unsigned char)*p))
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	errno = 0;
	*v = strtoull(p, &end, 10);
	if (errno)
		return NULL;
	while (isspace((unsigned char)*end))
		end++;
	return end;
}

int lab_norm_set(const char *in, struct strbuf *out)
{
	struct span *v = NULL, *nv;
	size_t n = 0, cap = 0, i;
	const char *p = in;
	int rc = -1;

	while (isspace((unsigned char)*p))
		p++;
	if (!*p)
		return -1;
	while (*p) {
		struct span s;

		p = number(p, &s.a);
		if (!p)
			goto out;
		s.b = s.a;
		if (*p == '-') {
			p = number(p + 1, &s.b);
			if (!p || s.b < s.a)
				goto out;
		}
		if (*p == ',')
			p++;
		else if (*p)
			goto out;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto out;
			v = nv;
		}
		v[n++] = s;
	}
	qsort(v, n, sizeof(*v), by_start);
	for (i = 0; i < n; i++) {
		struct span s = v[i];

		/* Overlapping or adjacent spans are one range. */
		while (i + 1 < n && v[i + 1].a <= s.b + 1) {
			if (v[i + 1].b > s.b)
				s.b = v[i + 1].b;
			i++;
		}
		strbuf_printf(out, "%s%llu", out->len ? "," : "", s.a);
		if (s.b > s.a)
			strbuf_printf(out, "-%llu", s.b);
	}
	rc = 0;
out:
	free(v);
	return rc;
}
