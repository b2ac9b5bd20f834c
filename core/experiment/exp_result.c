/* exp_result.c - an experiment's --json output read back into a result the
 * TUI can show: every member checked for its type and range (the file is
 * hostile until checked), unknown members ignored. */
#include "exp_result.h"
#include "exp_json.h"
#include "e2l_err.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static errcode_t bad(char *why, size_t wlen, const char *what)
{
	snprintf(why, wlen, "not an experiment result: %s", what);
	return E2L_ERR_BAD_RESULT_FILE;
}

static void str_member(const struct expj *o, const char *key, char *out,
		       size_t len)
{
	const struct expj *v = expj_get_type(o, key, EXPJ_STR);

	snprintf(out, len, "%s", v ? v->str : "");
}

/* A number member; 0 (and *have 0) when absent or null. */
static double num_member(const struct expj *o, const char *key, int *have)
{
	const struct expj *v = expj_get_type(o, key, EXPJ_NUM);

	if (have)
		*have = v != NULL;
	return v ? v->num : 0;
}

static const struct {
	const char *key;
	enum expr_counter c;
} counter_keys[] = {
	{ "jbd2_blocks", EXPR_JBD2_BLOCKS },
	{ "io_requests", EXPR_IO_REQUESTS },
	{ "io_reads", EXPR_IO_READS },
	{ "io_writes", EXPR_IO_WRITES },
	{ "io_sequential", EXPR_IO_SEQUENTIAL },
	{ "io_seeks", EXPR_IO_SEEKS },
	{ "journal_writes", EXPR_JOURNAL_WRITES },
	{ "journal_breaks", EXPR_JOURNAL_BREAKS },
	{ "lost_events", EXPR_LOST },
};

static void counters(const struct expj *c, struct expr_run *r)
{
	const struct expj *own;
	size_t i;
	int cls;

	r->c[EXPR_JBD2_COMMITS] = num_member(c, "jbd2_commits", &r->have_jbd2);
	(void)num_member(c, "io_requests", &r->have_io);
	for (i = 0; i < sizeof(counter_keys) / sizeof(counter_keys[0]); i++)
		r->c[counter_keys[i].c] = num_member(c, counter_keys[i].key,
						     NULL);
	own = expj_get_type(c, "io_by_owner", EXPJ_OBJ);
	for (i = 0; own && i < own->n; i++) {
		if (own->kids[i].type != EXPJ_NUM)
			continue;
		for (cls = 0; cls < OWN_CLASS_MAX; cls++)
			if (!strcmp(own->keys[i],
				    owner_class_key((enum owner_class)cls)))
				r->c[EXPR_OWNER0 + cls] = own->kids[i].num;
	}
}

static errcode_t run(const struct expj *o, struct expr_run *r, char *why,
		     size_t wlen)
{
	const struct expj *m, *c;
	int have;
	size_t i;
	double idx;

	if (o->type != EXPJ_OBJ)
		return bad(why, wlen, "a run is not an object");
	r->seconds = num_member(o, "seconds", &have);
	if (!have || r->seconds < 0)
		return bad(why, wlen, "a run has no seconds");
	idx = num_member(o, "index", NULL);
	r->index = idx >= 0 && idx < 1e9 ? (unsigned)idx : 0;
	m = expj_get_type(o, "metrics", EXPJ_OBJ);
	if (!m)
		return bad(why, wlen, "a run has no metrics{}");
	for (i = 0; i < m->n && r->nm < EXP_MAX_METRICS; i++) {
		if (m->kids[i].type != EXPJ_NUM)
			continue;
		snprintf(r->mname[r->nm], EXP_NAME_LEN, "%s", m->keys[i]);
		r->mval[r->nm++] = m->kids[i].num;
	}
	c = expj_get_type(o, "counters", EXPJ_OBJ);
	if (c)
		counters(c, r);
	return 0;
}

static errcode_t side(const struct expj *o, struct expr_side *s, char *why,
		      size_t wlen)
{
	const struct expj *runs;
	errcode_t err;
	size_t i;

	if (o->type != EXPJ_OBJ)
		return bad(why, wlen, "a side is not an object");
	str_member(o, "name", s->name, sizeof(s->name));
	str_member(o, "image", s->image, sizeof(s->image));
	str_member(o, "mount_options", s->mount_opts, sizeof(s->mount_opts));
	runs = expj_get_type(o, "runs", EXPJ_ARR);
	if (!runs)
		return bad(why, wlen, "a side has no runs[]");
	if (runs->n > EXPR_MAX_RUNS)
		return bad(why, wlen, "more runs than any experiment makes");
	s->runs = calloc(runs->n ? runs->n : 1, sizeof(*s->runs));
	if (!s->runs)
		return ENOMEM;
	for (i = 0; i < runs->n; i++) {
		err = run(&runs->kids[i], &s->runs[i], why, wlen);
		if (err)
			return err;
		s->nruns++;
	}
	return 0;
}

static void comparison(const struct expj *o, struct expr_cmp *c)
{
	const struct expj *v, *ci;
	char kind[16];

	str_member(o, "metric", c->metric, sizeof(c->metric));
	str_member(o, "kind", kind, sizeof(kind));
	str_member(o, "verdict", c->verdict, sizeof(c->verdict));
	c->counter = !strcmp(kind, "counter");
	v = expj_get_type(o, "higher_is_better", EXPJ_BOOL);
	c->higher_better = v && v->b;
	v = expj_get_type(o, "significant", EXPJ_BOOL);
	c->significant = v && v->b;
	c->delta_pct = num_member(o, "delta_pct", &c->have);
	c->mean_a = num_member(o, "mean_a", NULL);
	c->sd_a = num_member(o, "sd_a", NULL);
	c->mean_b = num_member(o, "mean_b", NULL);
	c->sd_b = num_member(o, "sd_b", NULL);
	c->p = num_member(o, "p_value", NULL);
	c->detectable_pct = num_member(o, "detectable_pct", NULL);
	c->target_pct = num_member(o, "target_pct", NULL);
	c->runs_for_target = num_member(o, "runs_for_target", NULL);
	ci = expj_get_type(o, "ci95", EXPJ_ARR);
	if (ci && ci->n == 2 && ci->kids[0].type == EXPJ_NUM &&
	    ci->kids[1].type == EXPJ_NUM) {
		c->ci_lo = ci->kids[0].num;
		c->ci_hi = ci->kids[1].num;
	} else {
		c->have = 0;	/* no interval: not a usable comparison */
	}
}

static errcode_t result(const struct expj *doc, struct exp_result *r,
			char *why, size_t wlen)
{
	const struct expj *res = expj_get_type(doc, "result", EXPJ_OBJ);
	const struct expj *wl, *sides, *cmp;
	errcode_t err;
	size_t i;
	double n;

	if (!res)
		res = doc;
	if (res->type != EXPJ_OBJ)
		return bad(why, wlen, "the document is not an object");
	sides = expj_get_type(res, "sides", EXPJ_ARR);
	if (!sides)
		return bad(why, wlen, "no sides[] (is it experiment --json "
			   "output?)");
	if (sides->n != 2)
		return bad(why, wlen, "sides[] must hold two sides, A and B");
	wl = expj_get_type(res, "workload", EXPJ_OBJ);
	str_member(wl, "name", r->workload, sizeof(r->workload));
	str_member(wl, "description", r->description,
		   sizeof(r->description));
	str_member(res, "change", r->change, sizeof(r->change));
	n = num_member(res, "runs_per_side", NULL);
	r->runs_per_side = n >= 0 && n <= EXPR_MAX_RUNS ? (unsigned)n : 0;
	for (i = 0; i < 2; i++) {
		err = side(&sides->kids[i], &r->side[i], why, wlen);
		if (err)
			return err;
	}
	cmp = expj_get_type(res, "comparisons", EXPJ_ARR);
	if (!cmp)
		return bad(why, wlen, "no comparisons[]");
	if (cmp->n > EXPR_MAX_CMP)
		return bad(why, wlen, "more comparisons than metrics");
	r->cmp = calloc(cmp->n ? cmp->n : 1, sizeof(*r->cmp));
	if (!r->cmp)
		return ENOMEM;
	for (i = 0; i < cmp->n; i++) {
		if (cmp->kids[i].type != EXPJ_OBJ)
			return bad(why, wlen, "a comparison is not an object");
		comparison(&cmp->kids[i], &r->cmp[r->ncmp++]);
	}
	return 0;
}

errcode_t exp_result_parse(const char *text, size_t len,
			   struct exp_result *r, char *why, size_t wlen)
{
	struct expj *doc = NULL;
	errcode_t err;

	memset(r, 0, sizeof(*r));
	err = expj_parse(text, len, &doc, why, wlen);
	if (!err)
		err = result(doc, r, why, wlen);
	expj_free(doc);
	if (err)
		exp_result_free(r);
	return err;
}

errcode_t exp_result_load(const char *path, struct exp_result *r, char *why,
			  size_t wlen)
{
	char msg[256];
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	ssize_t n;
	errcode_t err = 0;
	int fd;

	memset(r, 0, sizeof(*r));
	e2l_err_init();
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		err = errno;
		snprintf(why, wlen, "%s: %s", path, strerror(err));
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(why, wlen, "%s: not a regular file", path);
		err = E2L_ERR_BAD_RESULT_FILE;
		goto out;
	}
	if ((unsigned long long)st.st_size > EXPR_MAX_FILE) {
		snprintf(why, wlen, "%s: larger than any experiment result "
			 "(%u MiB)", path, EXPR_MAX_FILE >> 20);
		err = E2L_ERR_BAD_RESULT_FILE;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		err = ENOMEM;
		snprintf(why, wlen, "%s: out of memory", path);
		goto out;
	}
	while (got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got == 0) {
		snprintf(why, wlen, "%s: empty", path);
		err = E2L_ERR_BAD_RESULT_FILE;
		goto out;
	}
	err = exp_result_parse(buf, got, r, msg, sizeof(msg));
	if (err)
		snprintf(why, wlen, "%s: %s", path, msg);
out:
	free(buf);
	close(fd);
	return err;
}

void exp_result_free(struct exp_result *r)
{
	free(r->side[0].runs);
	free(r->side[1].runs);
	free(r->cmp);
	memset(r, 0, sizeof(*r));
}

int expr_metric(const struct expr_run *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nm; i++)
		if (!strcmp(r->mname[i], name))
			return (int)i;
	return -1;
}
