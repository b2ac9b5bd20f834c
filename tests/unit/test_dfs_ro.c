/* test_dfs_ro.c - the JSON results of filefrag, ea_list and lsdel checked
 * against what the real debugfs prints on the dfs1k test image. */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

static unsigned long long after(const char *s, const char *pat)
{
	const char *p = strstr(s, pat);

	if (!p)
		fail_msg("no '%s' in: %s", pat, s);
	return strtoull(p + strlen(pat), NULL, 10);
}

static int count(const char *s, const char *pat)
{
	int n = 0;

	while ((s = strstr(s, pat))) {
		n++;
		s += strlen(pat);
	}
	return n;
}

static void test_filefrag_json(void **state)
{
	const char *files[] = {"/x/data", "/x/small", "/big"};
	struct tsession t;
	char line[128], pat[160];
	char *dbg;

	(void)state;
	tl_open_mode(&t, "dfs1k", SINK_JSON);
	for (size_t i = 0; i < 3; i++) {
		snprintf(line, sizeof(line), "filefrag -d %s", files[i]);
		strbuf_reset(&t.out);
		assert_int_equal(tl_run(&t, line), CMD_OK);
		dbg = tl_sh("debugfs -R '%s' %s 2>/dev/null", line,
			    tl_image("dfs1k"));
		snprintf(pat, sizeof(pat), "%s: ", files[i]);
		assert_int_equal(after(t.out.buf, "\"contiguous_extents\":"),
				 after(dbg, pat));
		free(dbg);
		/* the first run starts where debugfs maps block 0 */
		dbg = tl_sh("debugfs -R 'bmap %s 0' %s 2>/dev/null", files[i],
			    tl_image("dfs1k"));
		assert_int_equal(after(t.out.buf, "\"logical\":0,\"physical\":"),
				 strtoull(dbg, NULL, 10));
		free(dbg);
	}
	assert_int_equal(tl_run(&t, "filefrag /nope"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "filefrag a b"), CMD_FAIL);
	tl_close(&t);
}

static void test_ea_list_json(void **state)
{
	struct tsession t;
	char name[64], pat[128];
	unsigned long size;
	char *dbg, *line;
	int n = 0;

	(void)state;
	tl_open_mode(&t, "dfs1k", SINK_JSON);
	assert_int_equal(tl_run(&t, "ea_list /x/small"), CMD_OK);
	dbg = tl_sh("debugfs -R 'ea_list /x/small' %s 2>/dev/null",
		    tl_image("dfs1k"));
	for (line = strtok(dbg, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "  %63s (%lu)", name, &size) != 2)
			continue;
		snprintf(pat, sizeof(pat), "\"name\":\"%s\",\"size\":%lu",
			 name, size);
		assert_non_null(strstr(t.out.buf, pat));
		n++;
	}
	free(dbg);
	assert_int_equal(n, 3);
	assert_int_equal(count(t.out.buf, "\"name\":"), n);
	assert_non_null(strstr(t.out.buf, "\"value\":\"bar\""));
	assert_non_null(strstr(t.out.buf, "\"hex\":\"010203\""));
	assert_int_equal(tl_run(&t, "ea_list"), CMD_FAIL);
	tl_close(&t);
}

static void test_lsdel_json(void **state)
{
	struct tsession t;
	char *dbg, *p;

	(void)state;
	tl_open_mode(&t, "dfs1k", SINK_JSON);
	assert_int_equal(tl_run(&t, "lsdel"), CMD_OK);
	dbg = tl_sh("debugfs -R lsdel %s 2>/dev/null", tl_image("dfs1k"));
	p = strstr(dbg, " deleted inodes found.");
	assert_non_null(p);
	while (p > dbg && p[-1] != '\n')
		p--;
	assert_true(strtol(p, NULL, 10) > 0);
	assert_int_equal(count(t.out.buf, "\"dtime\":"), strtol(p, NULL, 10));
	free(dbg);
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filefrag_json),
		cmocka_unit_test(test_ea_list_json),
		cmocka_unit_test(test_lsdel_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
