/* lab_trace.c - the facts of a saved `alloc watch --json` trace, a live
 * lab's evidence: which filesystem was traced (its UUID) and where the
 * file the traced command wrote (the inode given the most blocks) began.
 * The trace is NAME.json beside the checked image. */
#include "lab_int.h"
#include "lab_state.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_INODES	256

struct tino {
	unsigned long long ino, blocks, first, group;
	int have_first;
};

/* The number after key inside [p, end), or -1 (ULLONG_MAX). */
static unsigned long long num_after(const char *p, const char *end,
				    const char *key)
{
	const char *k = strstr(p, key);

	if (!k || k >= end)
		return ~0ULL;
	return strtoull(k + strlen(key), NULL, 10);
}

static char *slurp(const char *path)
{
	struct strbuf sb = {0};
	char buf[65536];
	size_t n;
	FILE *f = lab_fopen_regular(path);

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < (64 << 20))
		strbuf_add(&sb, buf, n);
	fclose(f);
	if (!sb.buf)
		strbuf_add(&sb, "", 0);
	return sb.buf;
}

const char *lab_fact_trace(const char *image, const char *name,
			   const char *field, struct lab_fact *f)
{
	struct tino v[TRACE_INODES], *best = NULL;
	const char *p, *end, *slash = strrchr(image, '/'), *msg = NULL;
	char path[4096], *text;
	size_t n = 0, i;

	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return "a trace is named by letters, digits, . _ -";
	snprintf(path, sizeof(path), "%.*s%s.json",
		 slash ? (int)(slash - image + 1) : 0, image, name);
	text = slurp(path);
	if (!text)
		return "no such saved trace (alloc watch --json ... > "
		       "NAME.json beside the image)";
	if (!strcmp(field, "uuid")) {
		p = strstr(text, "\"uuid\":\"");
		if (!p || !(end = strchr(p + 8, '"'))) {
			msg = "the trace names no filesystem";
			goto out;
		}
		strbuf_reset(&f->s);
		strbuf_add(&f->s, p + 8, end - p - 8);
		f->isnum = 0;
		goto out;
	}
	p = strstr(text, "\"allocations\":[");
	for (; p && (p = strstr(p, "{\"inode\":")); p = end) {
		unsigned long long ino, lblk, len, blk, grp;

		end = strchr(p, '}');
		if (!end)
			break;
		ino = num_after(p, end, "\"inode\":");
		lblk = num_after(p, end, "\"logical\":");
		len = num_after(p, end, "\"length\":");
		blk = num_after(p, end, "\"block\":");
		grp = num_after(p, end, "\"group\":");
		if (ino == ~0ULL || len == ~0ULL || blk == ~0ULL)
			continue;
		for (i = 0; i < n && v[i].ino != ino; i++)
			;
		if (i == n) {
			if (n == TRACE_INODES)
				continue;
			memset(&v[n++], 0, sizeof(*v));
			v[i].ino = ino;
		}
		v[i].blocks += len;
		if (lblk == 0 && !v[i].have_first) {
			v[i].first = blk;
			v[i].group = grp;
			v[i].have_first = 1;
		}
	}
	for (i = 0; i < n; i++)
		if (v[i].have_first && (!best || v[i].blocks > best->blocks))
			best = &v[i];
	if (!best) {
		msg = "the trace records no file's first block";
		goto out;
	}
	if (!strcmp(field, "first"))
		strbuf_reset(&f->s), f->n = best->first;
	else if (!strcmp(field, "group"))
		strbuf_reset(&f->s), f->n = best->group;
	else if (!strcmp(field, "inode"))
		strbuf_reset(&f->s), f->n = best->ino;
	else if (!strcmp(field, "blocks"))
		strbuf_reset(&f->s), f->n = best->blocks;
	else {
		msg = "unknown trace field";
		goto out;
	}
	f->isnum = 1;
	strbuf_printf(&f->s, "%llu", f->n);
out:
	free(text);
	return msg;
}
