/* test_inode_cmds.c - the inode commands' JSON results checked against what
 * the real debugfs prints, their exit statuses, and their lazy loading. */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>

/* The unsigned number after "key": in a JSON text; fails when absent. */
static unsigned long long json_num(const char *json, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\":", key);
	p = strstr(json, pat);
	if (!p)
		fail_msg("no %s in %s", key, json);
	return strtoull(p + strlen(pat), NULL, 10);
}

/* The number after label in debugfs's text; fails when absent. */
static unsigned long long text_num(const char *text, const char *label)
{
	const char *p = strstr(text, label);

	if (!p)
		fail_msg("no '%s' in debugfs output: %s", label, text);
	return strtoull(p + strlen(label), NULL, 0);
}

static void test_stat_json(void **state)
{
	const char *files[] = {"/home/user/blob", "/usr/share/doc/big.txt",
			       "/home/user/sparse", "<7>"};
	const char *images[] = {"ext4", "ext2-1k"};
	struct tsession t;
	char line[128];
	char *dbg;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		tl_open_mode(&t, images[i], SINK_JSON);
		for (size_t j = 0; j < 4; j++) {
			snprintf(line, sizeof(line), "stat %s", files[j]);
			assert_int_equal(tl_run(&t, line), CMD_OK);
			dbg = tl_sh("debugfs -R '%s' %s 2>/dev/null", line,
				    tl_image(images[i]));
			assert_int_equal(json_num(t.out.buf, "inode"),
					 text_num(dbg, "Inode: "));
			assert_int_equal(json_num(t.out.buf, "size"),
					 text_num(dbg, "Size: "));
			assert_int_equal(json_num(t.out.buf, "links"),
					 text_num(dbg, "Links: "));
			assert_int_equal(json_num(t.out.buf, "blockcount"),
					 text_num(dbg, "Blockcount: "));
			assert_int_equal(json_num(t.out.buf, "ctime"),
					 text_num(dbg, "ctime: "));
			free(dbg);
		}
		/* the first run of the blob starts where debugfs's does */
		assert_int_equal(tl_run(&t, "stat /home/user/blob"), CMD_OK);
		dbg = tl_sh("debugfs -R 'bmap /home/user/blob 0' %s "
			    "2>/dev/null", tl_image(images[i]));
		assert_non_null(strstr(t.out.buf, "\"logical\":0,"));
		assert_int_equal(json_num(strstr(t.out.buf, "\"logical\":0,"),
					  "physical"), strtoull(dbg, NULL, 10));
		free(dbg);
		/* stat reads no bitmap */
		assert_int_equal(t.s.loaded, 0);
		tl_close(&t);
	}
}

static void test_ex_json(void **state)
{
	struct tsession t;
	const char *p;
	char *dbg, *q;
	int rows = 0, n = 0;

	(void)state;
	tl_open_mode(&t, "ext4", SINK_JSON);
	assert_int_equal(tl_run(&t, "ex <8>"), CMD_OK);
	dbg = tl_sh("debugfs -R 'ex <8>' %s 2>/dev/null", tl_image("ext4"));
	/* each table row's physical start matches a JSON entry, in order */
	p = t.out.buf;
	for (q = strchr(dbg, '\n'); q && q[1]; q = strchr(q + 1, '\n')) {
		unsigned long long lo, lhi, phys;
		int lvl, depth, e, ne;

		if (sscanf(q + 1, "%d/%d %d/%d %llu - %llu %llu", &lvl, &depth,
			   &e, &ne, &lo, &lhi, &phys) != 7)
			continue;
		rows++;
		p = strstr(p, "\"physical\":");
		assert_non_null(p);
		assert_int_equal(strtoull(p + 11, NULL, 10), phys);
		p++;
	}
	assert_true(rows >= 1);
	for (p = t.out.buf; (p = strstr(p, "\"physical\":")); p++)
		n++;
	assert_int_equal(n, rows);
	free(dbg);
	assert_int_equal(t.s.loaded, 0);
	tl_close(&t);
}

static void test_statuses(void **state)
{
	struct tsession t;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(tl_run(&t, "stat <2>"), CMD_OK);
	assert_int_equal(tl_run(&t, "stat /nothere"), CMD_FAIL);
	assert_string_equal(t.err.buf, "/nothere: File not found by "
				       "ext2_lookup \n");
	assert_int_equal(tl_run(&t, "stat"), CMD_FAIL);
	assert_string_equal(t.err.buf, "stat: Usage: stat <file>\n");
	assert_int_equal(tl_run(&t, "stat <0>"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "ex"), CMD_FAIL);
	assert_int_equal(t.s.loaded, 0);
	assert_int_equal(tl_run(&t, "bmap /home/user/blob x"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "bmap /home/user/blob 3 7"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "features ^has_journal"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "stats -x"), CMD_FAIL);
	assert_string_equal(t.err.buf, "stats: invalid option -- 'x'\n"
				       "stats: Usage: show_super_stats [-h]\n");
	assert_int_equal(tl_run(&t, "imap <0>"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "testb 0"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "ffb x"), CMD_FAIL);
	/* the bitmap commands load only the bitmap they read */
	assert_int_equal(tl_run(&t, "testi <2>"), CMD_OK);
	assert_int_equal(t.s.loaded & NEED_INODE_BITMAP, NEED_INODE_BITMAP);
	assert_int_equal(tl_run(&t, "testb 1 2"), CMD_OK);
	assert_int_equal(t.s.loaded, NEED_BITMAPS);
	assert_int_equal(tl_run(&t, "ffb 2"), CMD_OK);
	assert_int_equal(tl_run(&t, "ffi"), CMD_OK);
	tl_close(&t);

	tl_open(&t, "ext2-1k");
	assert_int_equal(tl_run(&t, "testi <2>"), CMD_OK);
	assert_int_equal(t.s.loaded, NEED_INODE_BITMAP);
	tl_close(&t);

	tl_open(&t, "ext2-1k");
	assert_int_equal(tl_run(&t, "ex /home/user/blob"), CMD_FAIL);
	assert_string_equal(t.err.buf, "/home/user/blob: does not uses "
				       "extent block maps\n");
	assert_int_equal(tl_run(&t, "testb 5 2"), CMD_OK);
	assert_int_equal(t.s.loaded, NEED_BLOCK_BITMAP);
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_json),
		cmocka_unit_test(test_ex_json),
		cmocka_unit_test(test_statuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
