/* lab_class.c - `lab class DIR`: the roster of a class, one directory per
 * trainee under DIR, each holding the scenarios lab start built there:
 * who passed which lab, who has not, and what looks copied (a state
 * naming another trainee, or two trainees on one scenario). */
#include "lab.h"
#include "lab_state.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct entry {
	char who[256];		/* the trainee's directory */
	struct lab_state st;
	int rc;			/* lab check's status */
	char first[512];	/* the first check not met */
	int passed, total;
};

static void collect(void *c, enum sink_chan ch, const char *b, size_t n)
{
	(void)ch;
	strbuf_add(c, b, n);
}

/* Runs lab check quietly; fills the counts and the first failure. */
static void grade(const char *img, struct entry *e, struct sink *out)
{
	struct strbuf log = {0};
	struct sink cap;
	struct lab lab;
	const char *p, *nl;

	e->rc = 2;
	if (lab_load(e->st.lab, &lab, out)) {
		snprintf(e->first, sizeof(e->first), "no lab %s", e->st.lab);
		return;
	}
	sink_init_cb(&cap, SINK_TEXT, collect, &log);
	e->rc = lab_check(&lab, img, NULL, 0, &cap);
	sink_free(&cap);
	for (p = log.buf; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (!strncmp(p, "  ok ", 5))
			e->passed++, e->total++;
		else if (!strncmp(p, "  NOT MET ", 10) ||
			 !strncmp(p, "  ERROR ", 8)) {
			if (!e->first[0])
				snprintf(e->first, sizeof(e->first), "%.*s",
					 (int)((nl ? nl : p + strlen(p)) - p -
					       10), p + 10);
			e->total++;
		}
	}
	strbuf_free(&log);
	lab_free(&lab);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* The entries of one trainee's directory. */
static int scan_trainee(const char *dir, const char *who, struct entry **v,
			size_t *n, size_t *cap, struct sink *out)
{
	struct dirent **names = NULL;
	struct strbuf path = {0}, img = {0};
	int k, m = scandir(dir, &names, NULL, by_name);
	size_t len;

	for (k = 0; k < m; k++) {
		const char *f = names[k]->d_name;

		len = strlen(f);
		if (len > 6 && !strcmp(f + len - 6, ".state")) {
			struct entry *e;

			if (*n == *cap) {
				struct entry *nv;

				*cap = *cap ? *cap * 2 : 16;
				nv = realloc(*v, *cap * sizeof(**v));
				if (!nv)
					break;
				*v = nv;
			}
			e = &(*v)[*n];
			memset(e, 0, sizeof(*e));
			snprintf(e->who, sizeof(e->who), "%s", who);
			strbuf_reset(&path);
			strbuf_printf(&path, "%s/%s", dir, f);
			if (lab_state_read(path.buf, &e->st)) {
				snprintf(e->st.lab, sizeof(e->st.lab), "%.*s",
					 (int)(len - 6), f);
				snprintf(e->first, sizeof(e->first), "bad "
					 "state file");
				e->rc = 2;
			} else {
				strbuf_reset(&img);
				strbuf_printf(&img, "%s/%.*s.img", dir,
					      (int)(len - 6), f);
				grade(img.buf, e, out);
			}
			(*n)++;
		}
	}
	for (k = 0; k < m; k++)
		free(names[k]);
	free(names);
	strbuf_free(&path);
	strbuf_free(&img);
	return 0;
}

int lab_class(const char *dir, int json, struct sink *out)
{
	struct dirent **names = NULL;
	struct entry *v = NULL;
	size_t n = 0, cap = 0, i, j, passed = 0;
	struct strbuf js = {0}, path = {0};
	char note[600];
	struct stat sb;
	int k, m = scandir(dir, &names, NULL, by_name);

	if (m < 0) {
		out_error(out, "lab", errno, "while reading %s", dir);
		return 2;
	}
	for (k = 0; k < m; k++) {
		strbuf_reset(&path);
		strbuf_printf(&path, "%s/%s", dir, names[k]->d_name);
		if (names[k]->d_name[0] != '.' && !stat(path.buf, &sb) &&
		    S_ISDIR(sb.st_mode))
			scan_trainee(path.buf, names[k]->d_name, &v, &n, &cap,
				     out);
		free(names[k]);
	}
	free(names);
	if (json)
		strbuf_printf(&js, "{\"format_version\":%d,\"class\":",
			      SINK_JSON_FORMAT_VERSION);
	if (json)
		json_quote(&js, dir);
	if (json)
		strbuf_printf(&js, ",\"entries\":[");
	else
		out_printf(out, "%-16s %-10s %-8s %s\n", "TRAINEE", "LAB",
			   "RESULT", "NOTES");
	for (i = 0; i < n; i++) {
		struct entry *e = &v[i];

		note[0] = 0;
		if (e->rc == 0)
			passed++;
		if (e->st.trainee[0] && strcmp(e->st.trainee, e->who))
			snprintf(note, sizeof(note), "started as %s; ",
				 e->st.trainee);
		for (j = 0; j < n; j++)
			if (j != i && e->st.seed && v[j].st.seed ==
			    e->st.seed && !strcmp(v[j].st.lab, e->st.lab) &&
			    strcmp(v[j].who, e->who)) {
				snprintf(note + strlen(note), sizeof(note) -
					 strlen(note), "same scenario as %s; ",
					 v[j].who);
				break;
			}
		if (e->rc)
			snprintf(note + strlen(note), sizeof(note) -
				 strlen(note), "%s", e->first);
		else if (strlen(note) >= 2)
			note[strlen(note) - 2] = 0;	/* the last "; " */
		if (json) {
			strbuf_printf(&js, "%s{\"trainee\":", i ? "," : "");
			json_quote(&js, e->who);
			strbuf_printf(&js, ",\"lab\":");
			json_quote(&js, e->st.lab);
			strbuf_printf(&js, ",\"passed\":%s,\"checks_met\":%d,"
				      "\"checks\":%d,\"notes\":",
				      e->rc ? "false" : "true", e->passed,
				      e->total);
			json_quote(&js, note);
			strbuf_add(&js, "}", 1);
		} else {
			out_printf(out, "%-16s %-10s %-8s %d/%d %s\n", e->who,
				   e->st.lab, e->rc == 0 ? "passed" :
				   e->rc == 1 ? "not yet" : "error", e->passed,
				   e->total, note);
		}
	}
	if (json) {
		strbuf_printf(&js, "],\"passed\":%zu,\"total\":%zu}\n", passed,
			      n);
		out_printf(out, "%s", js.buf);
	} else {
		out_printf(out, "%zu of %zu scenario(s) passed.\n", passed, n);
	}
	strbuf_free(&js);
	strbuf_free(&path);
	free(v);
	return 0;
}
