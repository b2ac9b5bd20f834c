/* lab.c - parses a .lab text (compiled in, or a trainer's file loaded at
 * run time; help/labs/README.md describes the format) and rejects at load
 * what could only fail later: unknown keys, recipe steps and facts. */
#include "lab.h"
#include "help.h"
#include "lab_choice.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim(char *p)
{
	char *e;

	while (isspace((unsigned char)*p))
		p++;
	e = p + strlen(p);
	while (e > p && isspace((unsigned char)e[-1]))
		*--e = 0;
	return p;
}

static char *rtrim(char *p)
{
	char *e = p + strlen(p);

	while (e > p && isspace((unsigned char)e[-1]))
		*--e = 0;
	return p;
}

static const char *const lab_keys[] = {
	"name", "title", "needs", "goal", "step", "hint", "recipe", "check",
	"claim", "solution", "choice", NULL
};

/* Every key, recipe step, check and claim known: a lab that loads can be
 * built and checked. */
static errcode_t lab_lint(const struct lab *lab, struct sink *out)
{
	const struct lab_line *ll;
	const char *why, *const *k, *key;
	char *line, word[32];
	size_t i;

	for (i = 0; i < lab->n; i++) {
		ll = &lab->l[i];
		why = NULL;
		for (k = lab_keys; *k && strcmp(*k, ll->key); k++)
			;
		if (!*k) {
			why = "unknown key";
		} else if (strlen(ll->val) > 1000 &&
			   strcmp(ll->key, "goal") && strcmp(ll->key, "step") &&
			   strcmp(ll->key, "hint") && strcmp(ll->key, "solution")) {
			why = "longer than 1000 characters";
		} else if (!strcmp(ll->key, "check") ||
			   !strcmp(ll->key, "claim")) {
			why = lab_check_known(ll->val);
		} else if (!strcmp(ll->key, "recipe")) {
			line = lab_recipe_expand(ll->val, 1, lab->name, out);
			if (!line)
				return EXT2_ET_INVALID_ARGUMENT;
			if (sscanf(line, "%31s", word) != 1 ||
			    !lab_recipe_step_known(word))
				why = "unknown recipe step";
			free(line);
		}
		if (why) {
			out_error(out, "lab", 0, "%s.lab line %d: %s: %s: %s",
				  lab->name, ll->lineno, ll->key, ll->val,
				  why);
			return EXT2_ET_INVALID_ARGUMENT;
		}
	}
	why = lab_choice_lint(lab, &key);
	if (why) {
		out_error(out, "lab", 0, "%s.lab: choice[%s]: %s", lab->name,
			  key, why);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	return 0;
}

static errcode_t lab_parse(struct lab *lab, struct sink *out)
{
	char *p = lab->buf, *nl, *colon, *br, *v;
	struct lab_line *ll;
	int lineno = 0;
	size_t cap = 0;

	for (; p && *p; p = nl) {
		nl = strchr(p, '\n');
		if (nl)
			*nl++ = 0;
		lineno++;
		if (*p == '#' || !*trim(p))
			continue;
		if ((*p == ' ' || *p == '\t') && lab->n) {
			/* A continuation: joined to the previous value. */
			ll = &lab->l[lab->n - 1];
			v = ll->val + strlen(ll->val);
			*v = '\n';	/* the NUL left by the split */
			memmove(v + 1, trim(p), strlen(trim(p)) + 1);
			continue;
		}
		colon = strchr(p, ':');
		if (!colon || colon == p) {
			out_error(out, "lab", 0, "%s.lab line %d: expected "
				  "\"key: value\"", lab->name, lineno);
			return EXT2_ET_INVALID_ARGUMENT;
		}
		*colon = 0;
		if (lab->n == cap) {
			cap = cap ? cap * 2 : 32;
			ll = realloc(lab->l, cap * sizeof(*ll));
			if (!ll)
				return ENOMEM;
			lab->l = ll;
		}
		ll = &lab->l[lab->n++];
		ll->lineno = lineno;
		ll->tag = (char *)"";
		br = strchr(p, '[');
		if (br) {
			*br++ = 0;
			ll->tag = br;
			br = strchr(br, ']');
			if (br)
				*br = 0;
		}
		ll->key = trim(p);
		/* a goal keeps its indentation past the one space after the
		 * colon: its items and their continuations line up as written */
		v = colon + 1;
		if (*v == ' ')
			v++;
		ll->val = strcmp(ll->key, "goal") ? trim(v) : rtrim(v);
	}
	lab->title = lab_get(lab, "title", "", 0);
	if (!lab->title || !lab_get(lab, "goal", "", 0)) {
		out_error(out, "lab", 0, "%s.lab has no title or no goal",
			  lab->name);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	v = (char *)lab_get(lab, "needs", "", 0);
	lab->live = v && strstr(v, "live");
	lab->mount = v && strstr(v, "mount");
	return lab_lint(lab, out);
}

static errcode_t lab_from_text(char *text, const char *name,
			       struct lab *lab, struct sink *out)
{
	errcode_t err;

	memset(lab, 0, sizeof(*lab));
	lab->buf = text;
	lab->name = strdup(name);
	if (!lab->buf || !lab->name) {
		lab_free(lab);
		return ENOMEM;
	}
	err = lab_parse(lab, out);
	if (err)
		lab_free(lab);
	return err;
}

/* A whole text file (at most 1 MiB); NULL with errno. */
static char *slurp(const char *path)
{
	char *buf = NULL;
	size_t n = 0, cap = 0, got;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	do {
		if (n + 4097 > cap) {
			char *nb;

			cap = cap ? cap * 2 : 8192;
			nb = cap > (1 << 20) ? NULL : realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = EFBIG;
				return NULL;
			}
			buf = nb;
		}
		got = fread(buf + n, 1, 4096, f);
		n += got;
	} while (got);
	fclose(f);
	buf[n] = 0;
	return buf;
}

/* A compiled-in lab's text, which help/gen_help.sh stored in rot13: a new
 * string (free()), NULL when out of memory. */
static char *unrot(const char *text)
{
	char *t = strdup(text), *p;

	for (p = t; p && *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
			*p = (char)((*p & 32) | ((((*p & 31) - 1 + 13) % 26) + 1) |
				    64);
	return t;
}

errcode_t lab_load_file(const char *path, struct lab *lab, struct sink *out)
{
	const char *base = strrchr(path, '/');
	char name[64], *text;
	size_t n;

	memset(lab, 0, sizeof(*lab));
	base = base ? base + 1 : path;
	n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".lab"))
		n -= 4;
	if (!n || n >= sizeof(name))
		return EXT2_ET_INVALID_ARGUMENT;
	snprintf(name, sizeof(name), "%.*s", (int)n, base);
	text = slurp(path);
	if (!text)
		return errno ? errno : EIO;
	return lab_from_text(text, name, lab, out);
}

errcode_t lab_load(const char *name, struct lab *lab, struct sink *out)
{
	const char *dir = getenv("E2LAYOUT_LABS"), *text;
	char path[4096];
	errcode_t err;

	memset(lab, 0, sizeof(*lab));
	if (!*name || strchr(name, '/') || !strcmp(name, ".."))
		return ENOENT;
	if (dir && *dir) {
		snprintf(path, sizeof(path), "%s/%s.lab", dir, name);
		err = lab_load_file(path, lab, out);
		if (err != ENOENT)
			return err;
	}
	text = help_find("labs", name);
	if (!text)
		return ENOENT;
	return lab_from_text(unrot(text), name, lab, out);
}

void lab_free(struct lab *lab)
{
	free(lab->name);
	free(lab->buf);
	free(lab->l);
	memset(lab, 0, sizeof(*lab));
}

const char *lab_get(const struct lab *lab, const char *key, const char *tag,
		    size_t i)
{
	size_t k;

	for (k = 0; k < lab->n; k++)
		if (!strcmp(lab->l[k].key, key) &&
		    (!tag || !strcmp(lab->l[k].tag, tag)) && i-- == 0)
			return lab->l[k].val;
	return NULL;
}

void lab_describe(const struct lab *lab, struct strbuf *sb)
{
	const char *v, *p, *ask = NULL, *next, *key;
	size_t i;

	strbuf_printf(sb, "Lab %s: %s%s\n\nGoal:\n", lab->name, lab->title,
		      lab->live ? " (needs a live system)" : lab->mount ?
		      " (needs root and a loop mount)" : "");
	for (i = 0; (v = lab_get(lab, "goal", "", i)); i++) {
		strbuf_printf(sb, "  %s\n", v);
		if (!ask && lab_choice_asks(lab, v, &key))
			ask = v;
		/* a question's own lines (indented deeper) first, then its
		 * choices in this trainee's order */
		next = lab_get(lab, "goal", "", i + 1);
		if (ask && !(next && !lab_choice_asks(lab, next, &key) &&
			     strspn(next, " ") > strspn(ask, " ") + 2)) {
			lab_choice_describe(lab, ask, sb);
			ask = NULL;
		}
	}
	strbuf_printf(sb, "\nSteps:\n");
	for (i = 0; (v = lab_get(lab, "step", "", i)); i++) {
		strbuf_printf(sb, "  %zu. ", i + 1);
		for (p = v; *p; p++) {
			strbuf_add(sb, p, 1);
			if (*p == '\n')
				strbuf_add(sb, "     ", 5);
		}
		strbuf_add(sb, "\n", 1);
	}
	for (i = 0; lab_get(lab, "hint", "", i); i++)
		;
	strbuf_printf(sb, "\n%zu hint(s): e2layout lab hint %s [N].  When "
		      "done: e2layout lab check %s IMAGE\n", i, lab->name,
		      lab->name);
}

