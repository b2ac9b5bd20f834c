/* lab.c - the training labs' front door: parses a compiled-in .lab text
 * (help/labs/README.md describes the format) and runs `e2layout lab list |
 * show | hint | start | check`. */
#include "lab.h"
#include "help.h"

#include <ctype.h>
#include <errno.h>
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
		ll->val = trim(colon + 1);
	}
	lab->title = lab_get(lab, "title", "", 0);
	if (!lab->title || !lab_get(lab, "goal", "", 0)) {
		out_error(out, "lab", 0, "%s.lab has no title or no goal",
			  lab->name);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	v = (char *)lab_get(lab, "needs", "", 0);
	lab->live = v && strstr(v, "live");
	return 0;
}

errcode_t lab_load(const char *name, struct lab *lab, struct sink *out)
{
	const char *text = help_find("labs", name);
	errcode_t err;

	memset(lab, 0, sizeof(*lab));
	if (!text)
		return ENOENT;
	lab->buf = strdup(text);
	if (!lab->buf)
		return ENOMEM;
	lab->name = name;
	err = lab_parse(lab, out);
	if (err)
		lab_free(lab);
	return err;
}

void lab_free(struct lab *lab)
{
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
	const char *v;
	size_t i;

	strbuf_printf(sb, "Lab %s: %s%s\n\nGoal:\n", lab->name, lab->title,
		      lab->live ? " (needs a live system)" : "");
	for (i = 0; (v = lab_get(lab, "goal", "", i)); i++)
		strbuf_printf(sb, "  %s\n", v);
	strbuf_printf(sb, "\nSteps:\n");
	for (i = 0; (v = lab_get(lab, "step", "", i)); i++) {
		const char *p;

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

static void lab_list(struct sink *out)
{
	const struct help_doc *d;
	struct lab lab;

	for (d = help_docs; d->kind; d++) {
		if (strcmp(d->kind, "labs"))
			continue;
		if (lab_load(d->name, &lab, out))
			continue;
		out_printf(out, "%-10s %s%s\n", d->name, lab.title,
			   lab.live ? "  [needs a live system: root, a "
				      "loop mount, tracing]" : "");
		lab_free(&lab);
	}
}

static void lab_usage(struct sink *out)
{
	out_errtext(out, "Usage: e2layout lab list\n"
			 "       e2layout lab show NAME\n"
			 "       e2layout lab start NAME [DIR]\n"
			 "       e2layout lab check NAME IMAGE "
			 "[--answers FILE]\n"
			 "       e2layout lab hint NAME [N]\n");
}

static int lab_hint(const struct lab *lab, const char *n, struct sink *out)
{
	const char *h;
	char *end;
	long i, all = !n;

	if (n) {
		i = strtol(n, &end, 10);
		if (*end || i < 1) {
			out_error(out, "lab", 0, "bad hint number: %s", n);
			return 2;
		}
		h = lab_get(lab, "hint", "", i - 1);
		if (!h) {
			out_error(out, "lab", 0, "lab %s has no hint %ld",
				  lab->name, i);
			return 1;
		}
		out_printf(out, "Hint %ld: %s\n", i, h);
		return 0;
	}
	for (i = 0; all && (h = lab_get(lab, "hint", "", i)); i++)
		out_printf(out, "Hint %ld: %s\n", i + 1, h);
	return 0;
}

int lab_cli(int argc, char **argv, struct sink *out, int interactive,
	    char **tui_image, char **tui_text)
{
	struct strbuf sb = {0};
	const char *answers = NULL;
	char *img = NULL;
	struct lab lab;
	errcode_t err;
	int rc = 2, i, nargs = 0;
	char *args[4];

	*tui_image = *tui_text = NULL;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--answers") && i + 1 < argc)
			answers = argv[++i];
		else if (nargs < 4)
			args[nargs++] = argv[i];
		else
			nargs = 5;
	}
	if (nargs == 1 && !strcmp(args[0], "list")) {
		lab_list(out);
		return 0;
	}
	if (nargs < 2 || nargs > 3 || (strcmp(args[0], "show") &&
	    strcmp(args[0], "hint") && strcmp(args[0], "check") &&
	    strcmp(args[0], "start"))) {
		lab_usage(out);
		return 2;
	}
	err = lab_load(args[1], &lab, out);
	if (err == ENOENT) {
		out_error(out, "lab", 0, "no lab named %s (e2layout lab list "
			  "shows them)", args[1]);
		return 2;
	}
	if (err)
		return 1;
	if (!strcmp(args[0], "show") && nargs == 2) {
		lab_describe(&lab, &sb);
		out_printf(out, "%s", sb.buf);
		rc = 0;
	} else if (!strcmp(args[0], "hint")) {
		rc = lab_hint(&lab, nargs == 3 ? args[2] : NULL, out);
	} else if (!strcmp(args[0], "check") && nargs == 3) {
		rc = lab_check(&lab, args[2], answers, out);
	} else if (!strcmp(args[0], "start")) {
		err = lab_build(&lab, nargs == 3 ? args[2] : ".", &img, out);
		if (err) {
			rc = 1;
			goto out;
		}
		lab_describe(&lab, &sb);
		if (interactive) {
			/* The scenario is a scratch image: the TUI may change
			 * it (a live lab's image gets mounted: read-only). */
			rc = lab.live ? -1 : -2;
			*tui_image = img;
			*tui_text = sb.buf;
			lab_free(&lab);
			return rc;
		}
		out_printf(out, "Scenario written to %s\n\n%s", img, sb.buf);
		rc = 0;
	} else {
		lab_usage(out);
	}
out:
	free(img);
	strbuf_free(&sb);
	lab_free(&lab);
	return rc;
}
