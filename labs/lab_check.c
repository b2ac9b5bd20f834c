/* lab_check.c - a lab's checks, a small declarative language: facts
 * (lab_fact.c) compared with numbers, with other facts, or with the
 * trainee's answers; `fsck clean` runs e2fsck -fn. */
#include "lab_int.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

struct ctx {
	const char *image;
	struct sink *out;	/* the account */
	struct lab_images im;
	char *answers;		/* the answers file, or NULL */
};

/* Lower case, no white space: "32768, 98304" == "32768,98304". */
static void normalize(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		if (!isspace((unsigned char)*in) && *in != '"')
			out[n++] = tolower((unsigned char)*in);
	out[n] = 0;
}

/* The trainee's answer to key, or NULL. */
static const char *answer_of(struct ctx *c, const char *key, char *buf,
			     size_t len)
{
	const char *p, *eq, *nl;
	size_t k = strlen(key);

	for (p = c->answers; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, key, k))
			continue;
		eq = p + k;
		while (*eq == ' ' || *eq == '\t')
			eq++;
		if (*eq != '=' && *eq != ':')
			continue;
		for (eq++; *eq == ' ' || *eq == '\t'; eq++)
			;
		snprintf(buf, len, "%.*s", (int)((nl ? nl : eq + strlen(eq)) -
						 eq), eq);
		return buf;
	}
	return NULL;
}

static int run_fsck(const char *image)
{
	char *argv[] = { (char *)"e2fsck", (char *)"-fn", (char *)image, NULL };
	posix_spawn_file_actions_t fa;
	int status = -1;
	pid_t pid;

	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "e2fsck", &fa, NULL, argv, environ) == 0 &&
	    waitpid(pid, &status, 0) != pid)
		status = -1;
	posix_spawn_file_actions_destroy(&fa);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* FACT == FACT, FACT != FACT: the two values as text (white space and
 * case aside), e.g. this image's layout against a companion image's. */
static int fact_vs_fact(struct ctx *c, const char *expr, const char *k1,
			const char *op, const char *k2, const char *note)
{
	struct lab_fact a = {{0}, 0, 0}, b = {{0}, 0, 0};
	char x[4096], y[4096];
	const char *why;
	int met = 0, rc = 1;

	why = lab_fact_eval(&c->im, k1, &a);
	if (!why)
		why = lab_fact_eval(&c->im, k2, &b);
	if (!why && strcmp(op, "==") && strcmp(op, "!="))
		why = "unknown comparison";
	if (why) {
		out_printf(c->out, "  NOT MET %s: %s\n", expr, why);
		goto out;
	}
	normalize(a.s.buf ? a.s.buf : "", x, sizeof(x));
	normalize(b.s.buf ? b.s.buf : "", y, sizeof(y));
	met = !strcmp(x, y) == !strcmp(op, "==");
	if (met)
		out_printf(c->out, "  ok      %s\n", expr);
	else
		out_printf(c->out, "  NOT MET %s: %s is %s, %s is %s%s%s\n",
			   expr, k1, x, k2, y, note ? ": " : "",
			   note ? note : "");
	rc = !met;
out:
	strbuf_free(&a.s);
	strbuf_free(&b.s);
	return rc;
}

/* Runs one check; 0 met, 1 not met (the account says why), 2 broken. */
static int one_check(struct ctx *c, const char *line)
{
	char expr[256], key[256], want[512], got[512], buf[512], op[3] = "";
	struct lab_fact f = {{0}, 0, 0}, rf = {{0}, 0, 0};
	const char *why, *note, *lit;
	char *end;
	unsigned long long v;
	int rc = 2, met = 0, n;

	note = strstr(line, " -- ");
	snprintf(expr, sizeof(expr), "%.*s",
		 (int)(note ? note - line : (long)strlen(line)), line);
	note = note ? note + 4 : NULL;
	if (!strcmp(expr, "fsck clean")) {
		n = run_fsck(c->image);
		if (n < 0) {
			out_printf(c->out, "  ERROR   fsck clean: cannot run "
				   "e2fsck\n");
			return 2;
		}
		out_printf(c->out, n ? "  NOT MET fsck clean: e2fsck -fn %s "
			   "exits %d%s%s\n" : "  ok      fsck clean\n",
			   c->image, n, note ? ": " : "", note ? note : "");
		return n ? 1 : 0;
	}
	if (sscanf(expr, "answer %255s = %511[^\n]", key, want) == 2) {
		lit = want;
		if (*want != '"') {
			why = lab_fact_eval(&c->im, want, &f);
			if (why)
				goto broken;
			lit = f.s.buf ? f.s.buf : "";
		}
		normalize(lit, want, sizeof(want));
		if (!answer_of(c, key, buf, sizeof(buf))) {
			out_printf(c->out, "  NOT MET answer %s: no answer "
				   "(write \"%s = ...\" in the answers "
				   "file)%s%s\n", key, key, note ? ": " : "",
				   note ? note : "");
			rc = 1;
			goto out;
		}
		normalize(buf, got, sizeof(got));
		met = !strcmp(got, want);
		if (met)
			out_printf(c->out, "  ok      answer %s\n", key);
		else
			out_printf(c->out, "  NOT MET answer %s: \"%s\" is "
				   "not right%s%s\n", key, buf,
				   note ? ": " : "", note ? note : "");
		rc = !met;
		goto out;
	}
	if (sscanf(expr, "%255s %2[=!] %511s", key, op, want) == 3 &&
	    !isdigit((unsigned char)want[0]))
		return fact_vs_fact(c, expr, key, op, want, note);
	if (sscanf(expr, "%255s %2[=!<>] %511[^\n]", key, op, want) != 3) {
		why = "not a check";
		goto broken;
	}
	why = lab_fact_eval(&c->im, key, &f);
	if (!why) {
		/* The right side: a number, or a fact (group_first(5)). */
		v = strtoull(want, &end, 10);
		if (end == want || *end) {
			why = lab_fact_eval(&c->im, want, &rf);
			v = rf.n;
			if (!why && !rf.isnum)
				why = "not a number";
		}
	}
	if (why)
		goto broken;
	if (!f.isnum) {
		why = "not a number";
		goto broken;
	}
	if (!strcmp(op, "=="))
		met = f.n == v;
	else if (!strcmp(op, "!="))
		met = f.n != v;
	else if (!strcmp(op, "<="))
		met = f.n <= v;
	else if (!strcmp(op, ">="))
		met = f.n >= v;
	else if (!strcmp(op, "<"))
		met = f.n < v;
	else if (!strcmp(op, ">"))
		met = f.n > v;
	else {
		why = "unknown comparison";
		goto broken;
	}
	if (met)
		out_printf(c->out, "  ok      %s\n", expr);
	else
		out_printf(c->out, "  NOT MET %s: it is %llu%s%s%s%s%s\n",
			   expr, f.n, rf.isnum ? " (the right side is " : "",
			   rf.isnum ? rf.s.buf : "", rf.isnum ? ")" : "",
			   note ? ": " : "", note ? note : "");
	rc = !met;
	goto out;
broken:
	out_printf(c->out, "  NOT MET %s: %s\n", expr, why);
	rc = 1;
out:
	strbuf_free(&f.s);
	strbuf_free(&rf.s);
	return rc;
}

static char *read_file(const char *path)
{
	struct strbuf sb = {0};
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < (1 << 20))
		strbuf_add(&sb, buf, n);
	fclose(f);
	if (!sb.buf)
		strbuf_add(&sb, "", 0);
	return sb.buf ? sb.buf : strdup("");
}

int lab_check(const struct lab *lab, const char *image, const char *answers,
	      struct sink *out)
{
	char apath[4096];
	struct ctx c;
	const char *v;
	size_t i, n;
	int r, bad = 0, broken = 0, uses_answers = 0;

	memset(&c, 0, sizeof(c));
	c.image = image;
	c.out = out;
	if (lab_images_open(&c.im, lab, image, out)) {
		lab_images_close(&c.im);
		return 2;
	}
	for (i = 0; (v = lab_get(lab, "check", "", i)); i++)
		uses_answers |= !strncmp(v, "answer ", 7);
	if (!answers && uses_answers) {
		n = strlen(image);
		if (n > 4 && !strcmp(image + n - 4, ".img"))
			n -= 4;
		snprintf(apath, sizeof(apath), "%.*s.answers", (int)n, image);
		answers = apath;
	}
	if (answers) {
		c.answers = read_file(answers);
		if (!c.answers)
			out_printf(out, "(no answers file %s)\n", answers);
	}
	out_printf(out, "Lab %s: checking %s\n", lab->name, image);
	for (i = 0; (v = lab_get(lab, "check", "", i)); i++) {
		r = one_check(&c, v);
		bad += r != 0;
		broken |= r == 2;
	}
	if (!i)
		out_printf(out, "  (this lab has no checks)\n");
	if (bad)
		out_printf(out, "Goal not met: %d of %zu check(s) fail.  "
			   "Hints: e2layout lab hint %s\n", bad, i, lab->name);
	else
		out_printf(out, "Goal met: all %zu check(s) pass.\n", i);
	free(c.answers);
	lab_images_close(&c.im);
	return broken ? 2 : bad ? 1 : 0;
}
