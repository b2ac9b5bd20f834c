/* plan_parse.c - reading a saved plan as untrusted input: every line is
 * checked (known keyword, whole numbers that fit, lengths > 0 without
 * overflow, runs in order, bounded counts and line lengths); the first bad
 * line is refused with its number and what is wrong.  The checks against
 * the filesystem come after, in plan_check.c. */
#include "plan_repack_int.h"
#include "plan_file_int.h"
#include "e2l_err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
	FILE *f;
	unsigned lineno;
	size_t entries, plans;
	char *why;
	size_t whylen;
};

static int bad(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct reader *r, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(r->why, r->whylen, "line %u: ", r->lineno);
	if (n < 0 || (size_t)n >= r->whylen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(r->why + n, r->whylen - n, fmt, ap);
	va_end(ap);
	return -1;
}

int plan_tok_num(const char *tok, unsigned long long max,
		 unsigned long long *v, char *why, size_t whylen)
{
	unsigned long long x = 0;
	const char *c;

	if (!*tok) {
		snprintf(why, whylen, "a number is missing");
		return -1;
	}
	for (c = tok; *c; c++) {
		if (*c < '0' || *c > '9') {
			snprintf(why, whylen, "bad number \"%.24s\" (decimal "
				 "digits only, no sign)", tok);
			return -1;
		}
		if ((unsigned)(*c - '0') > max ||
		    x > (max - (unsigned)(*c - '0')) / 10) {
			snprintf(why, whylen, "number %.24s%s is too large "
				 "(at most %llu here)", tok,
				 strlen(tok) > 24 ? "..." : "", max);
			return -1;
		}
		x = x * 10 + (unsigned)(*c - '0');
	}
	*v = x;
	return 0;
}

/*
 * Reads one line into buf (without its newline).  1: a line, 0: end of
 * file, -1: refused (too long, or bytes that are not text).
 */
static int read_line(struct reader *r, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	c = getc(r->f);
	if (c == EOF)
		return 0;
	r->lineno++;
	for (; c != EOF && c != '\n'; c = getc(r->f)) {
		if (n + 1 >= size)
			return bad(r, "longer than %zu bytes", size - 1);
		if (c < 0x20 || c == 0x7f)
			return bad(r, "binary data (byte 0x%02x at column "
				   "%zu): not a plan file", c, n + 1);
		buf[n++] = c;
	}
	buf[n] = 0;
	return 1;
}

static int split(char *line, char **tok)
{
	int n = 0;
	char *c = line;

	while (*c) {
		while (*c == ' ')
			*c++ = 0;
		if (!*c)
			break;
		if (n == PLAN_MAX_TOKENS)
			return -1;
		tok[n++] = c;
		while (*c && *c != ' ')
			c++;
	}
	return n;
}

/* Grows *arr (n used, elements of size) at powers of two. */
static int grow(void **arr, size_t n, size_t size)
{
	void *a;

	if (n & (n - 1))
		return 0;
	a = realloc(*arr, (n ? n * 2 : 1) * size);
	if (!a)
		return -1;
	*arr = a;
	return 0;
}

/* Numbers tok[1..ntok) into v[], each at most max[i]. */
static int nums(struct reader *r, char **tok, int ntok, int want,
		const unsigned long long *max, unsigned long long *v,
		const char *usage)
{
	char why[96];
	int i;

	if (ntok != want + 1)
		return bad(r, "\"%s\" takes %d number%s (%s), not %d", tok[0],
			   want, want == 1 ? "" : "s", usage, ntok - 1);
	for (i = 0; i < want; i++)
		if (plan_tok_num(tok[i + 1], max[i], &v[i], why, sizeof(why)))
			return bad(r, "%s: %s", tok[0], why);
	return 0;
}

static const char *const kinds[] = {"journal_relocate", "defrag", "evacuate",
				    "prealloc", "repack_flex", "resize_block",
				    NULL};

static int once(struct reader *r, struct plan *p, enum plan_field f,
		const char *word)
{
	if (p->lines->field[f])
		return bad(r, "a second \"%s\" line (the first is line %u)",
			   word, p->lines->field[f]);
	p->lines->field[f] = r->lineno;
	return 0;
}

static int entry(struct reader *r)
{
	if (++r->entries > PLAN_MAX_ENTRIES)
		return bad(r, "more than %lu entries: a plan this large is "
			   "refused", PLAN_MAX_ENTRIES);
	return 0;
}

/* A run line: "old|new LBLK PBLK LEN UNINIT", in logical order. */
static int run_line(struct reader *r, struct plan_ext **v, size_t *n,
		    unsigned **lines, char **tok, int ntok)
{
	static const unsigned long long max[4] = {
		PLAN_LBLK_LIMIT - 1, PLAN_BLK_LIMIT - 1, PLAN_LBLK_LIMIT, 1};
	unsigned long long x[4];
	struct plan_ext *last = *n ? &(*v)[*n - 1] : NULL;

	if (nums(r, tok, ntok, 4, max, x, "LBLK PBLK LEN UNINIT") ||
	    entry(r))
		return -1;
	if (!x[2])
		return bad(r, "a run of length 0");
	if (x[0] + x[2] > PLAN_LBLK_LIMIT || x[1] + x[2] > PLAN_BLK_LIMIT)
		return bad(r, "the run ends past the largest block number");
	if (last && x[0] < last->lblk + last->len)
		return bad(r, "runs out of logical order, or overlapping "
			   "(logical block %llu, the run before ends at "
			   "%llu)", x[0],
			   (unsigned long long)(last->lblk + last->len));
	if (grow((void **)v, *n, sizeof(**v)) ||
	    grow((void **)lines, *n, sizeof(**lines)))
		return bad(r, "out of memory");
	(*lines)[*n] = r->lineno;
	(*v)[(*n)++] = (struct plan_ext){x[0], x[1], x[2], (int)x[3]};
	return 0;
}

static int step_line(struct reader *r, struct plan *p, char **tok, int ntok)
{
	static const unsigned long long max[4] = {
		PLAN_BLK_LIMIT - 1, PLAN_BLK_LIMIT - 1, PLAN_BLK_LIMIT - 1, 0};
	unsigned long long x[3];
	int k;

	if (ntok != 5)
		return bad(r, "\"step\" takes a kind and 3 numbers (KIND SRC "
			   "DST LEN)");
	for (k = 0; k < STEP_KIND_MAX; k++)
		if (!strcmp(tok[1], plan_step_name(k)))
			break;
	if (k == STEP_KIND_MAX)
		return bad(r, "unknown step kind \"%.24s\"", tok[1]);
	if (nums(r, tok + 1, ntok - 1, 3, max, x, "SRC DST LEN") || entry(r))
		return -1;
	if (k == STEP_SWITCH ? x[0] || x[2] : !x[2])
		return bad(r, k == STEP_SWITCH ? "a switch step has no source "
			   "and no length" : "a step of length 0");
	if (x[0] + x[2] > PLAN_BLK_LIMIT || x[1] + x[2] > PLAN_BLK_LIMIT)
		return bad(r, "the step ends past the largest block number");
	if ((k == STEP_ALLOC || k == STEP_ZERO) && x[0])
		return bad(r, "an %s step has no source block", tok[1]);
	if (k == STEP_FREE && x[1])
		return bad(r, "a free step has no destination block");
	if (k == STEP_WRITE_MAP && x[0] != x[1])
		return bad(r, "a write-map step's source and destination "
			   "differ");
	if (grow((void **)&p->steps, p->nsteps, sizeof(*p->steps)) ||
	    grow((void **)&p->lines->steps, p->nsteps, sizeof(unsigned)))
		return bad(r, "out of memory");
	p->lines->steps[p->nsteps] = r->lineno;
	p->steps[p->nsteps++] = (struct plan_step){k, x[0], x[1], x[2]};
	return 0;
}

static int fp_line(struct reader *r, struct plan *p, char **tok, int ntok)
{
	static const unsigned long long max[8] = {
		UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX,
		PLAN_BLK_LIMIT, UINT32_MAX, UINT32_MAX};
	unsigned long long x[8];
	const char *u = ntok == 10 ? tok[9] : "";
	size_t i;

	if (ntok != 10)
		return bad(r, "\"fp\" takes 8 numbers and a UUID, not %d "
			   "fields", ntok - 1);
	if (once(r, p, PF_FP, "fp") ||
	    nums(r, tok, 9, 8, max, x, "the fingerprint"))
		return -1;
	for (i = 0; u[i]; i++)
		if (!((u[i] >= '0' && u[i] <= '9') ||
		      (u[i] >= 'a' && u[i] <= 'f')))
			break;
	if (i != 32 || u[i])
		return bad(r, "bad UUID \"%.40s\" (32 hex digits)", u);
	p->fp = (struct plan_fp){(__u32)x[0], (__u32)x[1], (__u32)x[2],
				 (__u32)x[3], (__u32)x[4], x[5], x[6],
				 (__u32)x[7], ""};
	memcpy(p->fp.uuid, u, 33);
	return 0;
}

/* One scalar "WORD N" line into *out. */
static int scalar(struct reader *r, struct plan *p, enum plan_field f,
		  char **tok, int ntok, unsigned long long max,
		  unsigned long long *out)
{
	if (once(r, p, f, tok[0]))
		return -1;
	return nums(r, tok, ntok, 1, &max, out, "a number");
}

static int create_line(struct reader *r, struct plan *p, const char *name)
{
	size_t len = strlen(name);

	if (once(r, p, PF_CREATE, "create"))
		return -1;
	if (!len || len >= sizeof(p->create_name) || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return bad(r, "bad file name to create (1 to %zu bytes, no "
			   "'/', not . or ..)", sizeof(p->create_name) - 1);
	memcpy(p->create_name, name, len + 1);
	return 0;
}

static int parse_line(struct reader *r, struct plan *p, char *line)
{
	char *tok[PLAN_MAX_TOKENS], *rest;
	unsigned long long x[2];
	static const unsigned long long tmax[2] = {PLAN_BLK_LIMIT - 1,
						   PLAN_BLK_LIMIT};
	char why[128];
	int ntok, k;

	if (!strncmp(line, "create ", 7)) {
		rest = line + 7;
		return create_line(r, p, rest);
	}
	ntok = split(line, tok);
	if (ntok < 0)
		return bad(r, "too many fields");
	if (!ntok)
		return bad(r, "an empty line");
	k = plan_repack_parse(p, tok, ntok, r->lineno, why, sizeof(why));
	if (k < 0)
		return bad(r, "%s", why);
	if (k > 0) {
		if (!strcmp(tok[0], "repack"))
			return once(r, p, PF_REPACK, "repack");
		return entry(r);
	}
	if (!strcmp(tok[0], "kind")) {
		if (once(r, p, PF_KIND, "kind"))
			return -1;
		for (k = 0; kinds[k]; k++)
			if (ntok == 2 && !strcmp(tok[1], kinds[k]))
				break;
		if (!kinds[k])
			return bad(r, "unknown plan kind \"%.32s\"",
				   ntok > 1 ? tok[1] : "");
		snprintf(p->kind, sizeof(p->kind), "%s", kinds[k]);
		return 0;
	}
	if (!strcmp(tok[0], "ino")) {
		if (scalar(r, p, PF_INO, tok, ntok, UINT32_MAX, x))
			return -1;
		p->ino = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "extents")) {
		if (scalar(r, p, PF_EXTENTS, tok, ntok, 1, x))
			return -1;
		p->extents = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "chained")) {
		if (scalar(r, p, PF_CHAINED, tok, ntok, 1, x))
			return -1;
		p->chained = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "new_meta")) {
		if (scalar(r, p, PF_NEW_META, tok, ntok, PLAN_LBLK_LIMIT, x))
			return -1;
		p->new_meta = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "new_size")) {
		if (scalar(r, p, PF_NEW_SIZE, tok, ntok, UINT32_MAX, x))
			return -1;
		p->new_size_blocks = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "set_size")) {
		if (scalar(r, p, PF_SET_SIZE, tok, ntok, INT64_MAX, x))
			return -1;
		if (!x[0])
			return bad(r, "set_size 0");
		p->set_size = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "dir_blocks")) {	/* prealloc's directory */
		if (once(r, p, PF_DIR_BLOCKS, "dir_blocks") ||
		    nums(r, tok, ntok, 2, tmax, x, "BLOCK BLOCK"))
			return -1;
		if (!x[0] || !x[1] || x[0] == x[1])
			return bad(r, "dir_blocks names two different blocks");
		p->dir_blocks[0] = x[0];
		p->dir_blocks[1] = x[1];
		return 0;
	}
	if (!strcmp(tok[0], "target")) {
		if (once(r, p, PF_TARGET, "target") ||
		    nums(r, tok, ntok, 2, tmax, x, "START LEN"))
			return -1;
		if (x[0] + x[1] > PLAN_BLK_LIMIT)
			return bad(r, "the target run ends past the largest "
				   "block number");
		p->target = x[0];
		p->target_len = x[1];
		return 0;
	}
	if (!strcmp(tok[0], "fp"))
		return fp_line(r, p, tok, ntok);
	if (!strcmp(tok[0], "old"))
		return run_line(r, &p->old, &p->nold, &p->lines->old, tok,
				ntok);
	if (!strcmp(tok[0], "new"))
		return run_line(r, &p->new, &p->nnew, &p->lines->new, tok,
				ntok);
	if (!strcmp(tok[0], "oldmeta")) {
		x[1] = PLAN_BLK_LIMIT - 1;
		if (nums(r, tok, ntok, 1, &x[1], x, "BLOCK") || entry(r))
			return -1;
		if (grow((void **)&p->old_meta, p->nold_meta,
			 sizeof(*p->old_meta)) ||
		    grow((void **)&p->lines->old_meta, p->nold_meta,
			 sizeof(unsigned)))
			return bad(r, "out of memory");
		p->lines->old_meta[p->nold_meta] = r->lineno;
		p->old_meta[p->nold_meta++] = x[0];
		return 0;
	}
	if (!strcmp(tok[0], "step"))
		return step_line(r, p, tok, ntok);
	return bad(r, "unknown line \"%.32s%s\"", tok[0],
		   strlen(tok[0]) > 32 ? "..." : "");
}

static int is_repack_kind(const struct plan *p)
{
	return !strcmp(p->kind, "repack_flex") ||
	       !strcmp(p->kind, "resize_block");
}

/* A plan is complete: its one-of-a-kind lines, and what its kind needs. */
static int complete(struct reader *r, struct plan *p, size_t index)
{
	static const char *const need[] = {
		[PF_KIND] = "kind", [PF_INO] = "ino", [PF_EXTENTS] = "extents",
		[PF_TARGET] = "target", [PF_NEW_META] = "new_meta",
		[PF_NEW_SIZE] = "new_size", [PF_CHAINED] = "chained",
		[PF_FP] = "fp"};
	const struct plan_lines *l = p->lines;
	int f;

	for (f = 0; f < PF_SET_SIZE; f++)
		if (!l->field[f])
			return bad(r, "the plan that ends here has no \"%s\" "
				   "line", need[f]);
	if (p->chained != (index > 0))
		return bad(r, "\"chained %d\" on plan %zu of the chain "
			   "(line %u): only the later plans of a chain are "
			   "chained", p->chained, index + 1,
			   l->field[PF_CHAINED]);
	if (is_repack_kind(p)) {
		if (!p->repack || !p->repack->nitems)
			return bad(r, "a %s plan without its repack and ritem "
				   "lines", p->kind);
		if (p->nold || p->nold_meta || p->nnew || p->nsteps ||
		    p->ino || l->field[PF_SET_SIZE] || l->field[PF_CREATE])
			return bad(r, "a %s plan with lines of an inode's "
				   "plan (ino, old, new, step, create...)",
				   p->kind);
		if ((p->repack->n != 0) != !strcmp(p->kind, "repack_flex"))
			return bad(r, "a %s plan whose repack line says %u "
				   "groups", p->kind, p->repack->n);
		return 0;
	}
	if (p->repack)
		return bad(r, "repack lines in a %s plan", p->kind);
	if (!p->ino || !p->nnew || !p->nsteps || !p->target_len)
		return bad(r, "the %s plan that ends here lacks its inode, its "
			   "new runs, its target or its steps", p->kind);
	if ((l->field[PF_SET_SIZE] || l->field[PF_CREATE]) !=
	    !strcmp(p->kind, "prealloc") ||
	    (l->field[PF_CREATE] && !l->field[PF_SET_SIZE]))
		return bad(r, "set_size and create lines belong to prealloc "
			   "plans (and a prealloc plan has a set_size)");
	return 0;
}

/* The shape of a chain: one plan of any kind, or evacuate's (an optional
 * resize_block first, then evacuate plans), or repack_flex --all's
 * (evacuate and repack_flex plans). */
static int chain_shape(struct reader *r, struct plan *first, size_t n)
{
	struct plan *p;
	size_t i;

	if (n == 1)
		return 0;
	for (p = first, i = 0; p; p = p->next, i++) {
		if (!strcmp(p->kind, "evacuate") ||
		    !strcmp(p->kind, "repack_flex") ||
		    (i == 0 && !strcmp(p->kind, "resize_block")))
			continue;
		r->lineno = p->lines->field[PF_KIND];
		return bad(r, "a %s plan inside a chain of %zu plans (chains "
			   "are evacuate's and repack_flex --all's)", p->kind,
			   n);
	}
	return 0;
}

static struct plan *new_plan(struct reader *r, const char *path)
{
	struct plan *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->lines = calloc(1, sizeof(*p->lines));
	if (p->lines)
		p->lines->path = strdup(path);
	if (!p->lines || !p->lines->path) {
		plan_free(p);
		return NULL;
	}
	p->lines->first = r->lineno + 1;
	return p;
}

errcode_t plan_load(const char *path, struct plan **pp, char *why,
		    size_t whylen)
{
	struct reader r = {0};
	struct plan *first = NULL, *p = NULL;
	char line[PLAN_LINE_MAX];
	int k, ended = 0, rc = -1;
	errcode_t err;

	*pp = NULL;
	r.why = why;
	r.whylen = whylen;
	r.f = fopen(path, "r");
	if (!r.f) {
		err = errno;
		snprintf(why, whylen, "%s", strerror(err));
		return err;
	}
	k = read_line(&r, line, sizeof(line));
	if (k <= 0 || strcmp(line, PLAN_MAGIC)) {
		if (k >= 0) {
			r.lineno = 1;
			bad(&r, "not an e2layout plan (the first line is not "
			    "\"%s\")", PLAN_MAGIC);
		}
		goto out;
	}
	first = p = new_plan(&r, path);
	if (!p) {
		bad(&r, "out of memory");
		goto out;
	}
	r.plans = 1;
	while ((k = read_line(&r, line, sizeof(line))) > 0) {
		if (ended) {
			bad(&r, "more lines after \"end\" (line %u)", ended);
			goto out;
		}
		if (!strcmp(line, "end") || !strcmp(line, "next")) {
			p->lines->last = r.lineno;
			if (complete(&r, p, r.plans - 1))
				goto out;
			if (line[0] == 'e') {
				ended = r.lineno;
				continue;
			}
			if (++r.plans > PLAN_MAX_PLANS) {
				bad(&r, "more than %lu plans in one file",
				    PLAN_MAX_PLANS);
				goto out;
			}
			p = p->next = new_plan(&r, path);
			if (!p) {
				bad(&r, "out of memory");
				goto out;
			}
			continue;
		}
		if (parse_line(&r, p, line))
			goto out;
	}
	if (k < 0)
		goto out;
	if (!ended) {
		bad(&r, "the file ends without its \"end\" line (truncated?)");
		goto out;
	}
	if (chain_shape(&r, first, r.plans))
		goto out;
	plan_chain_link(first);
	rc = 0;
out:
	fclose(r.f);
	if (rc) {
		plan_free(first);
		return E2L_ERR_BAD_PLAN_FILE;
	}
	*pp = first;
	return 0;
}

void plan_lines_free(struct plan_lines *l)
{
	if (!l)
		return;
	free(l->path);
	free(l->old);
	free(l->old_meta);
	free(l->new);
	free(l->steps);
	free(l->ritems);
	free(l);
}
