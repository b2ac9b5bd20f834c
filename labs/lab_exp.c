/* lab_exp.c - the facts of a saved `experiment --json` result, a lab's
 * evidence of a measurement: which images it ran on (bound to the checked
 * one), its runs, change, workload and mount options, and per metric its
 * verdict, significance, means and whether the 95% interval holds 0.
 * The result is NAME.json beside the checked image. */
#include "lab_int.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const exp_metric_fields[] = {
	"significant", "mean_a", "mean_b", "ci_zero", "verdict", NULL
};

int lab_exp_field_ok(const char *field, size_t n)
{
	static const char *const plain[] = {
		"bound", "same", "runs", "change", "workload", "mount", NULL
	};
	const char *const *p;
	const char *dot = memchr(field, '.', n);
	size_t k;

	for (p = plain; *p; p++)
		if (strlen(*p) == n && !strncmp(*p, field, n))
			return 1;
	if (!dot || dot == field)
		return 0;
	for (k = 0; k < (size_t)(dot - field); k++)
		if (!isalnum((unsigned char)field[k]) && field[k] != '_')
			return 0;
	for (p = exp_metric_fields; *p; p++)
		if (strlen(*p) == n - (dot - field) - 1 &&
		    !strncmp(*p, dot + 1, strlen(*p)))
			return 1;
	return 0;
}

/* The text of the regular file path (at most 64 MiB read), NULL when
 * there is none; *notreg when path is something else (a FIFO would block
 * a plain open: it is opened without waiting, and refused). */
static char *slurp(const char *path, int *notreg)
{
	struct strbuf sb = {0};
	char buf[65536];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_NONBLOCK);

	*notreg = 0;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*notreg = 1;
		close(fd);
		return NULL;
	}
	while (sb.len < (64 << 20) &&
	       (n = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	close(fd);
	if (!sb.buf)
		strbuf_add(&sb, "", 0);
	return sb.buf;
}

/* The JSON string value after "key": in [p, end) into out (no escapes
 * are decoded: paths and verdicts are plain); 1 for a string, 0 for null
 * or absent. */
static int str_after(const char *p, const char *end, const char *key,
		     struct strbuf *out)
{
	const char *k = strstr(p, key), *q;

	if (!k || k >= end)
		return 0;
	k += strlen(key);
	if (*k != '"')
		return 0;
	for (q = k + 1; q < end && *q != '"'; q++)
		if (*q == '\\' && q + 1 < end)
			q++;
	if (q >= end)
		return 0;
	strbuf_reset(out);
	strbuf_add(out, k + 1, q - k - 1);
	/* it is shown: no control byte (C0, DEL, C1 as UTF-8 or alone) */
	for (q = out->buf; *q; q++) {
		unsigned char c = (unsigned char)*q;

		if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) ||
		    (c == 0xc2 && (unsigned char)q[1] >= 0x80 &&
		     (unsigned char)q[1] < 0xa0))
			out->buf[q - out->buf] = '?';
	}
	return 1;
}

/* Is side path p (relative paths are taken from the result's directory)
 * the checked image? */
static int same_file(const char *dir, const char *p, const char *image)
{
	char a[PATH_MAX], b[PATH_MAX], full[PATH_MAX * 2];

	snprintf(full, sizeof(full), "%s%s", *p == '/' ? "" : dir, p);
	return realpath(full, a) && realpath(image, b) && !strcmp(a, b);
}

/* bound: every side's image (a B that --change made has none) is the
 * checked image, and at least A names one; same: both sides name it. */
static const char *exp_sides(const char *text, const char *dir,
			     const char *image, int want_same,
			     struct lab_fact *f)
{
	const char *p = strstr(text, "\"sides\":["), *end;
	struct strbuf path = {0};
	int named = 0, all = 1;

	end = p ? strstr(p, "\"comparisons\":") : NULL;
	if (!end)
		return "the result has no sides";
	for (p = strstr(p, "\"image\":"); p && p < end;
	     p = strstr(p + 8, "\"image\":"))
		if (str_after(p, end, "\"image\":", &path)) {
			named++;
			all &= same_file(dir, path.buf, image);
		}
	strbuf_free(&path);
	lab_fact_num(f, want_same ? named == 2 && all : named >= 1 && all);
	return NULL;
}

/* The comparison object of metric m: [*b, *e). */
static const char *find_metric(const char *text, const char *m,
			       const char **b, const char **e)
{
	char key[96];
	const char *p;

	snprintf(key, sizeof(key), "{\"metric\":\"%s\",", m);
	p = strstr(text, "\"comparisons\":[");
	p = p ? strstr(p, key) : NULL;
	if (!p)
		return "the result compares no such metric";
	*b = p;
	*e = strchr(p, '}');
	return *e ? NULL : "a comparison does not end";
}

static const char *exp_metric(const char *text, const char *field,
			      struct lab_fact *f)
{
	const char *dot = strchr(field, '.'), *b, *e, *k, *why;
	char m[64];
	double lo, hi, v;

	snprintf(m, sizeof(m), "%.*s", (int)(dot - field), field);
	why = find_metric(text, m, &b, &e);
	if (why)
		return why;
	field = dot + 1;
	if (!strcmp(field, "verdict")) {
		if (!str_after(b, e, "\"verdict\":", &f->s))
			return "the comparison has no verdict";
		f->isnum = 0;
		return NULL;
	}
	if (!strcmp(field, "significant")) {
		k = strstr(b, "\"significant\":");
		if (!k || k >= e)
			return "the comparison says nothing of significance";
		lab_fact_num(f, !strncmp(k + 14, "true", 4));
		return NULL;
	}
	if (!strcmp(field, "ci_zero")) {
		k = strstr(b, "\"ci95\":[");
		if (!k || k >= e || sscanf(k + 8, "%lf,%lf", &lo, &hi) != 2)
			return "the comparison has no interval";
		lab_fact_num(f, lo <= 0 && hi >= 0);
		return NULL;
	}
	/* mean_a, mean_b: rounded to a whole number */
	k = strstr(b, field[5] == 'a' ? "\"mean_a\":" : "\"mean_b\":");
	if (!k || k >= e || sscanf(k + 9, "%lf", &v) != 1 || !isfinite(v) ||
	    v < 0 || v >= 1e19)
		return "the comparison has no such mean";
	lab_fact_num(f, (unsigned long long)(v + 0.5));
	return NULL;
}

const char *lab_fact_exp(const char *image, const char *name,
			 const char *field, struct lab_fact *f)
{
	const char *slash = strrchr(image, '/'), *msg = NULL, *p;
	char path[8192], dir[4096], *text;
	int notreg;

	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._-", *p))
			return "a result is named by letters, digits, . _ -";
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - image + 1) :
		 0, image);
	snprintf(path, sizeof(path), "%s%s.json", dir, name);
	text = slurp(path, &notreg);
	if (!text && notreg)
		return "the saved result is not a regular file";
	if (!text)
		return "no such saved result (experiment ... --json > "
		       "NAME.json beside the image)";
	if (!strstr(text, "\"command\":\"experiment\"")) {
		msg = "not the result of an experiment";
		goto out;
	}
	strbuf_reset(&f->s);
	f->isnum = 0;
	if (!strcmp(field, "bound") || !strcmp(field, "same")) {
		msg = exp_sides(text, dir, image, field[0] == 's', f);
	} else if (!strcmp(field, "runs")) {
		p = strstr(text, "\"runs_per_side\":");
		if (p)
			lab_fact_num(f, strtoull(p + 16, NULL, 10));
		else
			msg = "the result has no runs_per_side";
	} else if (!strcmp(field, "change")) {
		p = strstr(text, "\"change\":");
		if (p)
			str_after(p, p + strlen(p), "\"change\":", &f->s);
		else
			msg = "the result has no change";
	} else if (!strcmp(field, "workload")) {
		p = strstr(text, "\"workload\":{");
		if (!p || !str_after(p, p + strlen(p), "\"name\":", &f->s))
			msg = "the result names no workload";
	} else if (!strcmp(field, "mount")) {
		p = strstr(text, "\"sides\":[");
		if (!p || !str_after(p, p + strlen(p), "\"mount_options\":",
				     &f->s))
			msg = "side A has no mount options";
	} else if (strchr(field, '.')) {
		msg = exp_metric(text, field, f);
	} else {
		msg = "unknown exp field";
	}
out:
	free(text);
	return msg;
}
