/* test_exp_result.c - reading an experiment's result back: the strict JSON
 * reader (escapes, numbers, nesting, trailing text, every way to be
 * malformed refused), the result model (members by type, the envelope or
 * the bare result), and the live I/O model (heat that fades; block trace
 * lines decoded onto blocks, a partition's offset, other devices and
 * flushes ignored). */
#include "testlib.h"
#include "e2l_err.h"
#include "exp_json.h"
#include "exp_result.h"
#include "io_heat.h"
#include "io_trace.h"

#include <stdlib.h>
#include <string.h>

static errcode_t parse(const char *text, struct expj **v)
{
	char why[256];

	return expj_parse(text, strlen(text), v, why, sizeof(why));
}

static void t_json_values(void **state)
{
	struct expj *v;
	const struct expj *m;

	(void)state;
	assert_int_equal(parse(" {\"a\": [1, -2.5e1, true, null, \"x\"],"
			       "\"b\": {}} ", &v), 0);
	m = expj_get_type(v, "a", EXPJ_ARR);
	assert_non_null(m);
	assert_int_equal(m->n, 5);
	assert_true(m->kids[0].num == 1);
	assert_true(m->kids[1].num == -25);
	assert_int_equal(m->kids[2].type, EXPJ_BOOL);
	assert_true(m->kids[2].b);
	assert_int_equal(m->kids[3].type, EXPJ_NULL);
	assert_string_equal(m->kids[4].str, "x");
	assert_non_null(expj_get_type(v, "b", EXPJ_OBJ));
	assert_null(expj_get_type(v, "b", EXPJ_ARR));
	assert_null(expj_get(v, "c"));
	assert_null(expj_get(&m->kids[0], "a"));	/* not an object */
	expj_free(v);
}

static void t_json_strings(void **state)
{
	struct expj *v;

	(void)state;
	/* UTF-8 from \u, a surrogate pair, and controls defused */
	assert_int_equal(parse("\"\\u00e9\\ud83d\\ude00\\u001b[31m\\n\\\"\"",
			       &v), 0);
	assert_string_equal(v->str, "\xc3\xa9\xf0\x9f\x98\x80?[31m?\"");
	expj_free(v);
	assert_int_equal(parse("\"\\u0000\\ud800x\"", &v), 0);
	assert_string_equal(v->str, "??x");	/* NUL, a lone surrogate */
	expj_free(v);
	assert_int_equal(parse("\"a\tb\"", &v), E2L_ERR_BAD_RESULT_FILE);
	assert_int_equal(parse("\"abc", &v), E2L_ERR_BAD_RESULT_FILE);
	assert_int_equal(parse("\"\\q\"", &v), E2L_ERR_BAD_RESULT_FILE);
	assert_int_equal(parse("\"\\u12\"", &v), E2L_ERR_BAD_RESULT_FILE);
	assert_int_equal(parse("\"\\", &v), E2L_ERR_BAD_RESULT_FILE);
	assert_null(v);
}

/* A string reaches the screen: C1 controls (U+0080..U+009F, CSI is
 * U+009B), DEL and bytes that are not UTF-8 become '?', escaped or raw. */
static void t_json_screen(void **state)
{
	struct expj *v;

	(void)state;
	assert_int_equal(parse("\"a\\u009b2Jb\\u0085\\u007f\"", &v), 0);
	assert_string_equal(v->str, "a?2Jb??");
	expj_free(v);
	assert_int_equal(parse("\"\xc2\x9b" "2J\x7f\x9b" "1m\"", &v), 0);
	assert_string_equal(v->str, "??2J??1m");	/* a ? a byte */
	expj_free(v);
	/* overlong, a surrogate, past U+10FFFF, cut short; then good text */
	assert_int_equal(parse("\"\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"
			       "\xe2\x82\"", &v), 0);
	assert_string_equal(v->str, "???????????");	/* a ? a byte */
	expj_free(v);
	assert_int_equal(parse("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"",
			       &v), 0);
	assert_string_equal(v->str, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	expj_free(v);
}

static void t_json_malformed(void **state)
{
	static const char *const bad[] = {
		"", "   ", "{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "[1 2]",
		"01", "1.", "1e", "-", "1e999", "-1e400", "tru", "nul",
		"{} x", "[1]]", "{1:2}", "+1", ".5", "NaN", "Infinity",
	};
	char deep[200];
	struct expj *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		v = (struct expj *)1;
		assert_int_equal(parse(bad[i], &v), E2L_ERR_BAD_RESULT_FILE);
		assert_null(v);
	}
	memset(deep, '[', sizeof(deep) - 1);
	deep[sizeof(deep) - 1] = 0;
	assert_int_equal(parse(deep, &v), E2L_ERR_BAD_RESULT_FILE);
	/* nesting up to the limit is fine */
	memset(deep, 0, sizeof(deep));
	memset(deep, '[', EXPJ_MAX_DEPTH);
	memset(deep + EXPJ_MAX_DEPTH, ']', EXPJ_MAX_DEPTH);
	assert_int_equal(parse(deep, &v), 0);
	expj_free(v);
}

#define DOC(sides, cmp) "{\"format_version\":1,\"result\":{\"workload\":" \
	"{\"name\":\"smallcreate\",\"description\":\"d\"},\"runs_per_side\":2," \
	"\"change\":null,\"sides\":" sides ",\"comparisons\":" cmp "}}"
#define RUN(s) "{\"index\":1,\"seconds\":" s ",\"metrics\":{\"seconds\":" s \
	",\"files_per_second\":10},\"counters\":{\"jbd2_commits\":16," \
	"\"io_requests\":53,\"journal_breaks\":2,\"io_by_owner\":" \
	"{\"journal\":32,\"nosuch\":5,\"file\":\"x\"}}}"
#define SIDES "[{\"name\":\"A\",\"image\":\"a.img\",\"mount_options\":\"\"," \
	"\"runs\":[" RUN("0.5") "," RUN("0.7") "]},{\"name\":\"B\"," \
	"\"image\":null,\"runs\":[" RUN("0.25") "]}]"
#define CMP "[{\"metric\":\"seconds\",\"kind\":\"metric\"," \
	"\"higher_is_better\":false,\"mean_a\":0.6,\"sd_a\":0.1," \
	"\"mean_b\":0.25,\"sd_b\":0,\"delta_pct\":-58.3,\"ci95\":[-70,-40]," \
	"\"p_value\":0.01,\"significant\":true,\"detectable_pct\":12," \
	"\"target_pct\":5,\"runs_for_target\":9,\"verdict\":\"B is faster\"}," \
	"{\"metric\":\"journal_breaks\",\"delta_pct\":null,\"ci95\":null," \
	"\"verdict\":\"2 in every run\"}]"

static errcode_t result(const char *text, struct exp_result *r, char *why)
{
	return exp_result_parse(text, strlen(text), r, why, 256);
}

static void t_result(void **state)
{
	struct exp_result r;
	char why[256];

	(void)state;
	assert_int_equal(result(DOC(SIDES, CMP), &r, why), 0);
	assert_string_equal(r.workload, "smallcreate");
	assert_int_equal(r.runs_per_side, 2);
	assert_string_equal(r.change, "");
	assert_int_equal(r.side[0].nruns, 2);
	assert_int_equal(r.side[1].nruns, 1);
	assert_string_equal(r.side[1].image, "");
	assert_true(r.side[0].runs[1].seconds == 0.7);
	assert_int_equal(expr_metric(&r.side[0].runs[0], "files_per_second"),
			 1);
	assert_int_equal(expr_metric(&r.side[0].runs[0], "nosuch"), -1);
	assert_true(r.side[0].runs[0].have_jbd2 && r.side[0].runs[0].have_io);
	assert_true(r.side[0].runs[0].c[EXPR_JBD2_COMMITS] == 16);
	assert_true(r.side[0].runs[0].c[EXPR_JOURNAL_BREAKS] == 2);
	assert_true(r.side[0].runs[0].c[EXPR_OWNER0 + OWN_JOURNAL] == 32);
	assert_true(r.side[0].runs[0].c[EXPR_OWNER0 + OWN_FILE] == 0);
	assert_int_equal(r.ncmp, 2);
	assert_true(r.cmp[0].have && r.cmp[0].significant);
	assert_true(r.cmp[0].ci_lo == -70 && r.cmp[0].ci_hi == -40);
	assert_string_equal(r.cmp[0].verdict, "B is faster");
	assert_false(r.cmp[1].have);
	exp_result_free(&r);
	/* the bare result member is accepted too */
	assert_int_equal(result("{\"sides\":" SIDES ",\"comparisons\":[]}", &r,
				why), 0);
	exp_result_free(&r);
}

static void t_result_hostile(void **state)
{
	static const char *const bad[][2] = {
		{ "[]", "not an object" },
		{ "{\"result\":{}}", "no sides" },
		{ DOC("\"x\"", CMP), "no sides" },
		{ DOC("[{\"runs\":[]}]", CMP), "two sides" },
		{ DOC("[1,2]", CMP), "side is not an object" },
		{ DOC("[{\"name\":\"A\"},{\"name\":\"B\"}]", CMP), "no runs" },
		{ DOC("[{\"runs\":[{\"metrics\":{}}]},{\"runs\":[]}]", CMP),
		  "no seconds" },
		{ DOC("[{\"runs\":[{\"seconds\":-1,\"metrics\":{}}]},"
		      "{\"runs\":[]}]", CMP), "no seconds" },
		{ DOC("[{\"runs\":[{\"seconds\":1}]},{\"runs\":[]}]", CMP),
		  "no metrics" },
		{ DOC(SIDES, "{}"), "no comparisons" },
		{ DOC(SIDES, "[3]"), "comparison is not an object" },
	};
	struct exp_result r;
	char why[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(result(bad[i][0], &r, why),
				 E2L_ERR_BAD_RESULT_FILE);
		if (!strstr(why, bad[i][1]))
			fail_msg("%s: \"%s\" does not say \"%s\"", bad[i][0],
				 why, bad[i][1]);
		assert_null(r.side[0].runs);
		assert_null(r.cmp);
	}
	assert_int_equal(exp_result_load("/nonexistent/r.json", &r, why,
					 sizeof(why)), ENOENT);
	assert_int_equal(exp_result_load("/", &r, why, sizeof(why)),
			 E2L_ERR_BAD_RESULT_FILE);
	assert_non_null(strstr(why, "not a regular file"));
}

static void t_heat(void **state)
{
	struct io_heat h;
	double rd, wr;

	(void)state;
	assert_int_equal(io_heat_init(&h, 1000), 0);
	io_heat_add(&h, 100, 10, 1, 10.0);
	io_heat_add(&h, 500, 1, 0, 11.0);
	io_heat_add(&h, 2000, 5, 1, 11.0);	/* past the device */
	io_heat_add(&h, 995, 50, 0, 11.0);	/* clipped at its end */
	assert_int_equal(h.writes, 2);
	assert_int_equal(h.reads, 2);
	assert_int_equal(h.outside, 1);
	io_heat_cell(&h, 0, 100, 10.0, 3.0, &rd, &wr);
	assert_true(rd == 0 && wr == 0);
	io_heat_cell(&h, 90, 20, 10.0, 3.0, &rd, &wr);
	assert_true(rd == 0 && wr == 1);
	io_heat_cell(&h, 90, 20, 11.5, 3.0, &rd, &wr);	/* fading */
	assert_true(wr > 0.49 && wr < 0.51);
	io_heat_cell(&h, 90, 20, 13.0, 3.0, &rd, &wr);	/* faded */
	assert_true(wr == 0);
	io_heat_cell(&h, 500, 1, 11.0, 3.0, &rd, &wr);
	assert_true(rd == 1 && wr == 0);
	io_heat_cell(&h, 999, 1, 11.0, 3.0, &rd, &wr);
	assert_true(rd == 1);
	io_heat_cell(&h, 5000, 1, 11.0, 3.0, &rd, &wr);
	assert_true(rd == 0 && wr == 0);
	io_heat_free(&h);
	/* a device larger than the buckets: one bucket per 2^k blocks */
	assert_int_equal(io_heat_init(&h, 1ULL << 32), 0);
	assert_true(h.nbuckets <= IO_HEAT_MAX_BUCKETS);
	io_heat_add(&h, (1ULL << 32) - 1, 1, 1, 1.0);
	io_heat_cell(&h, (1ULL << 32) - 1, 1, 1.0, 3.0, &rd, &wr);
	assert_true(wr == 1);
	io_heat_free(&h);
}

static void t_trace_line(void **state)
{
	struct io_trace it;
	struct io_heat h;
	double rd, wr;

	(void)state;
	memset(&it, 0, sizeof(it));
	it.kdev = (7ULL << 20) | 3;
	it.sect_per_blk = 8;
	assert_int_equal(io_heat_init(&h, 4096), 0);
	assert_int_equal(io_trace_line(&it, "  kworker/u8:1-123 [001] ..... "
		"100.0: block_rq_issue: 7,3 WS 8192 () 800 + 16 be,0,4 "
		"[kworker/u8:1]", &h, 5.0), 1);
	assert_int_equal(io_trace_line(&it, " <idle>-0 [000] d.h1. 100.1: "
		"block_rq_complete: 7,3 R () 1604 + 8 be,0,4 [0]", &h, 5.0),
		1);
	/* another device, a flush, no sectors, another event: ignored */
	assert_int_equal(io_trace_line(&it, "x: block_rq_issue: 7,4 W 4096 () "
		"8 + 8 [a]", &h, 5.0), 0);
	assert_int_equal(io_trace_line(&it, "x: block_rq_issue: 7,3 FF 0 () "
		"0 + 0 [a]", &h, 5.0), 0);
	assert_int_equal(io_trace_line(&it, "x: block_rq_insert: 7,3 W 4096 "
		"() 8 + 8 [a]", &h, 5.0), 0);
	assert_int_equal(io_trace_line(&it, "garbage", &h, 5.0), 0);
	assert_int_equal(it.issued, 1);
	assert_int_equal(it.completed, 1);
	io_heat_cell(&h, 100, 2, 5.0, 3.0, &rd, &wr);	/* 800/8, 16 sectors */
	assert_true(wr == 1);
	io_heat_cell(&h, 102, 1, 5.0, 3.0, &rd, &wr);
	assert_true(wr == 0 && rd == 0);
	io_heat_cell(&h, 200, 2, 5.0, 3.0, &rd, &wr);	/* 1604: blocks
							   200 and 201 */
	assert_true(rd == 1);
	io_heat_cell(&h, 201, 1, 5.0, 3.0, &rd, &wr);
	assert_true(rd == 1);
	/* a partition starting at sector 2048 of its disk */
	it.start = 2048;
	io_heat_free(&h);
	assert_int_equal(io_heat_init(&h, 4096), 0);
	assert_int_equal(io_trace_line(&it, "x: block_rq_issue: 7,3 W 4096 () "
		"2056 + 8 [a]", &h, 5.0), 1);
	io_heat_cell(&h, 1, 1, 5.0, 3.0, &rd, &wr);
	assert_true(wr == 1);
	assert_int_equal(io_trace_line(&it, "x: block_rq_issue: 7,3 W 4096 () "
		"8 + 8 [a]", &h, 5.0), 1);	/* before the partition */
	assert_int_equal(h.writes, 1);
	io_heat_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_json_values),
		cmocka_unit_test(t_json_strings),
		cmocka_unit_test(t_json_screen),
		cmocka_unit_test(t_json_malformed),
		cmocka_unit_test(t_result),
		cmocka_unit_test(t_result_hostile),
		cmocka_unit_test(t_heat),
		cmocka_unit_test(t_trace_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
