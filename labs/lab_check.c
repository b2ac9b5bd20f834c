/* lab_check.c - a lab's checks, a small declarative language: facts
 * (lab_fact.c) compared with numbers, with other facts, or with the
 * trainee's answers; `fsck clean` runs e2fsck -fn, `files kept` compares
 * every file with the fresh scenario, `unchanged FACT` compares a fact
 * with the fresh scenario's; before them all, the scenario check: the
 * image is the one this trainee's lab start built. */
#include "lab_int.h"
#include "lab_state.h"

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
	struct lab_images im;
	char *answers;		/* the answers file, or NULL */
	struct strbuf msg;	/* why the current check is not met */
};

/* No white space or quotes; case kept (paths are case-sensitive) unless
 * fold. */
static void squeeze(const char *in, char *out, size_t len, int fold)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		if (!isspace((unsigned char)*in) && *in != '"')
			out[n++] = fold ? tolower((unsigned char)*in) : *in;
	out[n] = 0;
}

/* Whether an answer equals a fact's text: as sets of numbers and ranges
 * when both are ("1-1" == "1"), as paths exactly, else without white
 * space and case. */
static int same_value(const char *a, const char *b)
{
	struct strbuf x = {0}, y = {0};
	char p[4096], q[4096];
	int eq;

	/* yes and no answer a question whose fact is 1 or 0 */
	squeeze(a, p, sizeof(p), 1);
	if (!strcmp(p, "yes") || !strcmp(p, "no")) {
		squeeze(b, q, sizeof(q), 1);
		return !strcmp(q, p[0] == 'y' ? "1" : "0");
	}
	if (!lab_norm_set(a, &x) && !lab_norm_set(b, &y)) {
		eq = !strcmp(x.buf, y.buf);
		goto out;
	}
	squeeze(a, p, sizeof(p), 0);
	squeeze(b, q, sizeof(q), 0);
	if (p[0] != '/' && q[0] != '/') {
		squeeze(a, p, sizeof(p), 1);
		squeeze(b, q, sizeof(q), 1);
	}
	eq = !strcmp(p, q);
out:
	strbuf_free(&x);
	strbuf_free(&y);
	return eq;
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

static int compare(unsigned long long a, const char *op,
		   unsigned long long b, int *met)
{
	if (!strcmp(op, "=="))
		*met = a == b;
	else if (!strcmp(op, "!="))
		*met = a != b;
	else if (!strcmp(op, "<="))
		*met = a <= b;
	else if (!strcmp(op, ">="))
		*met = a >= b;
	else if (!strcmp(op, "<"))
		*met = a < b;
	else if (!strcmp(op, ">"))
		*met = a > b;
	else
		return -1;
	return 0;
}

/* The operator of "LEFT OP RIGHT" outside brackets; its length in *n. */
static const char *find_cmp(const char *e, size_t *n)
{
	static const char *const ops[] = { "==", "!=", "<=", ">=", "<", ">" };
	int depth = 0, in_br = 0;
	size_t i, k;

	for (i = 0; e[i]; i++) {
		if (e[i] == '(')
			depth++;
		else if (e[i] == ')')
			depth--;
		else if (e[i] == '[')
			in_br = 1;
		else if (e[i] == ']')
			in_br = 0;
		if (depth || in_br || !i || e[i - 1] != ' ')
			continue;
		for (k = 0; k < 6; k++) {
			*n = strlen(ops[k]);
			if (!strncmp(e + i, ops[k], *n) && e[i + *n] == ' ')
				return e + i;
		}
	}
	return NULL;
}

/* LEFT OP RIGHT: numbers compared as numbers, anything else (sets,
 * layouts, checksums, UUIDs) with == and != as values. */
static int relation(struct ctx *c, const char *expr)
{
	struct lab_fact a = {{0}, 0, 0}, b = {{0}, 0, 0};
	char left[512], op[3];
	const char *o, *why;
	size_t n;
	int met = 0, rc = 1;

	o = find_cmp(expr, &n);
	if (!o || o - expr >= (long)sizeof(left)) {
		strbuf_printf(&c->msg, "not a check");
		return 2;
	}
	snprintf(left, sizeof(left), "%.*s", (int)(o - expr - 1), expr);
	snprintf(op, sizeof(op), "%.*s", (int)n, o);
	why = lab_fact_eval(&c->im, left, &a);
	if (!why)
		why = lab_fact_eval(&c->im, o + n + 1, &b);
	if (why) {
		strbuf_printf(&c->msg, "%s", why);
		goto out;
	}
	if (a.isnum && b.isnum) {
		compare(a.n, op, b.n, &met);
	} else if (!strcmp(op, "==") || !strcmp(op, "!=")) {
		met = same_value(a.s.buf ? a.s.buf : "",
				 b.s.buf ? b.s.buf : "") == !strcmp(op, "==");
	} else {
		strbuf_printf(&c->msg, "%s is not a number", a.isnum ?
			      o + n + 1 : left);
		goto out;
	}
	if (!met) {
		strbuf_printf(&c->msg, "%s is %s", left, a.s.buf ? a.s.buf :
			      "(nothing)");
		if (!isdigit((unsigned char)o[n + 1]))
			strbuf_printf(&c->msg, ", %s is %s", o + n + 1,
				      b.s.buf ? b.s.buf : "(nothing)");
	}
	rc = !met;
out:
	strbuf_free(&a.s);
	strbuf_free(&b.s);
	return rc;
}

static int check_answer(struct ctx *c, const char *key, const char *want)
{
	struct lab_fact f = {{0}, 0, 0};
	const char *why, *lit = want;
	char buf[512], text[512];
	int rc = 1;

	if (*want == '"') {
		squeeze(want, text, sizeof(text), 0);
		lit = text;
	} else {
		why = lab_fact_eval(&c->im, want, &f);
		if (why) {
			strbuf_printf(&c->msg, "%s", why);
			goto out;
		}
		lit = f.s.buf ? f.s.buf : "";
	}
	if (!answer_of(c, key, buf, sizeof(buf))) {
		strbuf_printf(&c->msg, "no answer (write \"%s = ...\" in the "
			      "answers file)", key);
		goto out;
	}
	if (!same_value(buf, lit)) {
		strbuf_printf(&c->msg, "\"%s\" is not right", buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_free(&f.s);
	return rc;
}

/* Runs one check; 0 met, 1 not met, 2 could not run (c->msg says why). */
static int one_check(struct ctx *c, const char *expr)
{
	char key[256], want[512], sub[1100];
	struct strbuf why = {0};
	const char *w;
	int n;

	if (!strcmp(expr, "fsck clean")) {
		n = run_fsck(c->image);
		if (n < 0) {
			strbuf_printf(&c->msg, "cannot run e2fsck");
			return 2;
		}
		if (n)
			strbuf_printf(&c->msg, "e2fsck -fn %s exits %d",
				      c->image, n);
		return n ? 1 : 0;
	}
	if (!strcmp(expr, "files kept")) {
		w = lab_files_kept(&c->im, &why);
		if (w)
			strbuf_printf(&c->msg, "%s", w);
		strbuf_free(&why);
		return w ? 1 : 0;
	}
	if (!strncmp(expr, "unchanged ", 10)) {
		snprintf(sub, sizeof(sub), "%s == [start]%s", expr + 10,
			 expr + 10);
		return relation(c, sub);
	}
	if (sscanf(expr, "answer %255s = %511[^\n]", key, want) == 2)
		return check_answer(c, key, want);
	if (sscanf(expr, "answered %255s", key) == 1) {
		if (answer_of(c, key, want, sizeof(want)) && *want)
			return 0;
		strbuf_printf(&c->msg, "no answer (write \"%s = ...\" in the "
			      "answers file)", key);
		return 1;
	}
	return relation(c, expr);
}

const char *lab_check_known(const char *line)
{
	char expr[512], key[256], want[512], left[512];
	const char *note = strstr(line, " -- "), *o, *why;
	size_t n;

	snprintf(expr, sizeof(expr), "%.*s",
		 (int)(note ? note - line : (long)strlen(line)), line);
	if (!strcmp(expr, "fsck clean") || !strcmp(expr, "files kept"))
		return NULL;
	if (!strncmp(expr, "unchanged ", 10))
		return lab_fact_known(expr + 10);
	if (sscanf(expr, "answer %255s = %511[^\n]", key, want) == 2)
		return *want == '"' ? NULL : lab_fact_known(want);
	if (sscanf(expr, "answered %255s", key) == 1)
		return NULL;
	o = find_cmp(expr, &n);
	if (!o || o - expr >= (long)sizeof(left))
		return "not a check (FACT OP FACT, answer KEY = FACT, fsck "
		       "clean, files kept, unchanged FACT)";
	snprintf(left, sizeof(left), "%.*s", (int)(o - expr - 1), expr);
	why = lab_fact_known(left);
	return why ? why : lab_fact_known(o + n + 1);
}

static char *read_file(const char *path)
{
	struct strbuf sb = {0};
	char buf[4096];
	size_t n;
	FILE *f = lab_fopen_regular(path);

	if (!f)
		return NULL;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0 && sb.len < (1 << 20))
		strbuf_add(&sb, buf, n);
	fclose(f);
	if (!sb.buf)
		strbuf_add(&sb, "", 0);
	return sb.buf ? sb.buf : strdup("");
}

/* One line of the account (text), or one element of "checks" (JSON). */
static void report(struct strbuf *js, struct sink *out, int json,
		   const char *expr, int rc, const char *msg, const char *note)
{
	if (json) {
		strbuf_printf(js, "%s{\"check\":",
			      js->buf[js->len - 1] == '[' ? "" : ",");
		json_quote(js, expr);
		strbuf_printf(js, ",\"met\":%s", rc ? "false" : "true");
		if (rc) {
			strbuf_printf(js, ",\"why\":");
			json_quote(js, msg ? msg : "");
			if (note) {
				strbuf_printf(js, ",\"note\":");
				json_quote(js, note);
			}
		}
		strbuf_add(js, "}", 1);
		return;
	}
	if (!rc) {
		out_printf(out, "  ok      %s\n", expr);
		return;
	}
	out_printf(out, "  %s %s: %s%s%s\n", rc == 2 ? "ERROR  " : "NOT MET",
		   expr, msg && *msg ? msg : "not met", note ? ": " : "",
		   note ? note : "");
}

/* The scenario check: a state file, for this lab, and the image's
 * identity (UUID, hash seed, mkfs time) equal to what the trainee's seed
 * builds.  0 met, 1 not (msg says why). */
static int scenario(struct ctx *c, struct lab *lab, struct lab_state *st,
		    struct strbuf *msg)
{
	static const char *const ids[] = {
		"fs.uuid", "fs.hash_seed", "fs.mkfs_time"
	};
	char *path = lab_path_beside(c->image, ".state"), sub[64];
	errcode_t err;
	size_t i;
	int rc = 1;

	if (!path)
		return 2;
	err = lab_state_read(path, st);
	if (err == ENOENT) {
		strbuf_printf(msg, "no lab state %s: the image was not made "
			      "by lab start (e2layout lab start %s DIR)", path,
			      lab->name);
		goto out;
	}
	if (err) {
		strbuf_printf(msg, "%s is not a lab state (lab start --force "
			      "writes a new one)", path);
		goto out;
	}
	if (strcmp(st->lab, lab->name)) {
		strbuf_printf(msg, "%s is the state of lab %s, not %s", path,
			      st->lab, lab->name);
		goto out;
	}
	/* lab start derives every seed from the lab and the trainee: a seed
	 * that is not this trainee's is another trainee's scenario, its state
	 * edited to name someone else. */
	if (st->seed != lab_seed_for(lab->name, st->trainee)) {
		strbuf_printf(msg, "%s was edited: its seed is not the one lab "
			      "start gives %s (another trainee's scenario?)",
			      path, st->trainee);
		goto out;
	}
	lab->seed = st->seed;
	snprintf(lab->trainee, sizeof(lab->trainee), "%s", st->trainee);
	for (i = 0; i < 3; i++) {
		snprintf(sub, sizeof(sub), "%s == [start]%s", ids[i], ids[i]);
		strbuf_reset(&c->msg);
		if (relation(c, sub)) {
			strbuf_printf(msg, "this is not the image lab start "
				      "built for %s (%s)", st->trainee,
				      c->msg.buf ? c->msg.buf : ids[i]);
			goto out;
		}
	}
	rc = 0;
out:
	free(path);
	return rc;
}

int lab_check_lines(struct lab *lab, const char *key, const char *image,
		    const char *answers, int json, struct sink *out)
{
	struct strbuf js = {0}, msg = {0};
	struct lab_state st;
	char *apath = NULL;
	struct ctx c;
	const char *v, *note;
	size_t i, n = 0;
	int r, bad = 0, broken = 0, uses_answers = 0;
	char expr[512];

	memset(&c, 0, sizeof(c));
	c.image = image;
	if (lab_images_open(&c.im, lab, image, out)) {
		lab_images_close(&c.im);
		return 2;
	}
	for (i = 0; (v = lab_get(lab, key, "", i)); i++)
		uses_answers |= !strncmp(v, "answer", 6);
	if (!answers && uses_answers)
		answers = apath = lab_path_beside(image, ".answers");
	if (answers) {
		c.answers = read_file(answers);
		if (!c.answers && !json)
			out_printf(out, "(no answers file %s)\n", answers);
	}
	r = scenario(&c, lab, &st, &msg);
	if (json) {
		strbuf_printf(&js, "{\"format_version\":%d,\"lab\":",
			      SINK_JSON_FORMAT_VERSION);
		json_quote(&js, lab->name);
		strbuf_printf(&js, ",\"image\":");
		json_quote(&js, image);
		strbuf_printf(&js, ",\"trainee\":");
		json_quote(&js, r ? "" : st.trainee);
		strbuf_printf(&js, ",\"checks\":[");
	} else {
		out_printf(out, "Lab %s: %s %s%s%s\n", lab->name,
			   strcmp(key, "check") ? "the claims of its text, on" :
			   "checking", image, r ? "" : " for ",
			   r ? "" : st.trainee);
	}
	snprintf(expr, sizeof(expr), "scenario");
	report(&js, out, json, expr, r, msg.buf, NULL);
	n++;
	bad += r != 0;
	for (i = 0; !r && (v = lab_get(lab, key, "", i)); i++) {
		note = strstr(v, " -- ");
		snprintf(expr, sizeof(expr), "%.*s",
			 (int)(note ? note - v : (long)strlen(v)), v);
		strbuf_reset(&c.msg);
		r = one_check(&c, expr);
		report(&js, out, json, expr, r, c.msg.buf,
		       note ? note + 4 : NULL);
		bad += r != 0;
		broken |= r == 2;
		r = 0;
		n++;
	}
	if (json) {
		strbuf_printf(&js, "],\"passed\":%s,\"failed\":%d}\n",
			      bad ? "false" : "true", bad);
		out_printf(out, "%s", js.buf);
	} else if (bad && strcmp(key, "check")) {
		out_printf(out, "%d of %zu claim(s) do not hold.\n", bad, n);
	} else if (bad) {
		out_printf(out, "Goal not met: %d of %zu check(s) fail.  "
			   "Hints: e2layout lab hint %s\n", bad, n, lab->name);
	} else if (strcmp(key, "check")) {
		out_printf(out, "All %zu claim(s) hold.\n", n);
	} else {
		out_printf(out, "Goal met: all %zu check(s) pass.\n", n);
	}
	free(c.answers);
	free(apath);
	strbuf_free(&c.msg);
	strbuf_free(&msg);
	strbuf_free(&js);
	lab_images_close(&c.im);
	return broken ? 2 : bad ? 1 : 0;
}

int lab_check(struct lab *lab, const char *image, const char *answers,
	      int json, struct sink *out)
{
	return lab_check_lines(lab, "check", image, answers, json, out);
}
