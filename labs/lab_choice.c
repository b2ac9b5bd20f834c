/* lab_choice.c - a lab's multiple-choice questions: choice[KEY]: lines,
 * the right one first in the .lab, shown lettered in an order drawn from
 * the trainee's seed, so that the right letter differs between trainees
 * and is never a constant a check could give away. */
#include "lab_choice.h"
#include "lab_state.h"

#include <ctype.h>
#include <string.h>

/* The choices of key: their count (at most LAB_CHOICES_MAX), the i-th
 * one's text in v[i], in the .lab's order (the right one first). */
static size_t choices(const struct lab *lab, const char *key,
		      const char *v[LAB_CHOICES_MAX])
{
	size_t n = 0;

	while (n < LAB_CHOICES_MAX && (v[n] = lab_get(lab, "choice", key, n)))
		n++;
	return n;
}

size_t lab_choice_order(const struct lab *lab, const char *key,
			size_t order[LAB_CHOICES_MAX])
{
	const char *v[LAB_CHOICES_MAX];
	uint64_t h = 0xcbf29ce484222325ULL ^ lab->seed;
	size_t n = choices(lab, key, v), i, j, t;
	const char *p;

	for (p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	for (i = 0; i < n; i++)
		order[i] = i;
	/* Fisher-Yates on the seed and the key */
	for (i = n; i > 1; i--) {
		h = lab_seed_mix(h + 0x9e3779b97f4a7c15ULL);
		j = h % i;
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	return n;
}

char lab_choice_letter(const struct lab *lab, const char *key)
{
	size_t order[LAB_CHOICES_MAX], n = lab_choice_order(lab, key, order);
	size_t i;

	for (i = 0; i < n; i++)
		if (order[i] == 0)
			return (char)('a' + i);
	return 0;
}

size_t lab_choice_asks(const struct lab *lab, const char *line,
		       const char **key)
{
	const char *p = line, *k;
	char name[32];
	size_t n;

	while (*p == ' ')
		p++;
	k = p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	n = p - k;
	if (!n || n >= sizeof(name) || strncmp(p, " = ", 3))
		return 0;
	memcpy(name, k, n);
	name[n] = 0;
	if (!lab_get(lab, "choice", name, 0))
		return 0;
	*key = k;
	return n;
}

void lab_choice_describe(const struct lab *lab, const char *line,
			 struct strbuf *sb)
{
	const char *v[LAB_CHOICES_MAX], *key, *p;
	size_t order[LAB_CHOICES_MAX], n, i, kl = lab_choice_asks(lab, line, &key);
	char name[32];

	if (!kl)
		return;
	memcpy(name, key, kl);
	name[kl] = 0;
	choices(lab, name, v);
	n = lab_choice_order(lab, name, order);
	for (i = 0; i < n; i++) {
		strbuf_printf(sb, "  %*s  %c. ", (int)(key - line), "",
			      (int)('a' + i));
		for (p = v[order[i]]; *p; p++) {
			strbuf_add(sb, p, 1);
			if (*p == '\n')
				strbuf_printf(sb, "  %*s     ",
					      (int)(key - line), "");
		}
		strbuf_add(sb, "\n", 1);
	}
}

const char *lab_choice_lint(const struct lab *lab, const char **bad)
{
	const char *v[LAB_CHOICES_MAX], *g, *key;
	char want[48];
	size_t i, k, n;
	int asked, checked;

	for (i = 0; i < lab->n; i++) {
		if (strcmp(lab->l[i].key, "choice"))
			continue;
		*bad = lab->l[i].tag;
		if (!*lab->l[i].tag)
			return "choice needs a key: choice[KEY]: TEXT";
		if (strlen(lab->l[i].tag) >= 32)
			return "the choice's key is too long";
		n = choices(lab, lab->l[i].tag, v);
		if (n < 2 || lab_get(lab, "choice", lab->l[i].tag, n))
			return "a question needs 2 to 6 choices";
		asked = checked = 0;
		for (k = 0; (g = lab_get(lab, "goal", "", k)); k++)
			if (lab_choice_asks(lab, g, &key) == strlen(lab->l[i].tag) &&
			    !strncmp(key, lab->l[i].tag, strlen(lab->l[i].tag)))
				asked = 1;
		snprintf(want, sizeof(want), "choice(%s)", lab->l[i].tag);
		for (k = 0; (g = lab_get(lab, "check", "", k)); k++)
			if (strstr(g, want))
				checked = 1;
		if (!asked)
			return "no goal: line asks for this key (\"KEY = a|b|c\")";
		if (!checked)
			return "no check: line reads choice(KEY)";
	}
	return NULL;
}
