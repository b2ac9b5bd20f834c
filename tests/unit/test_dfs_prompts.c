/* test_dfs_prompts.c - modify_inode through a sink with and without input
 * (the TUI has none: every field must stay), checked with the real debugfs,
 * and init_filesys making an open, writable filesystem. */
#include "testlib.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const *answers;	/* the fake user's lines */

static char *feed(void *ctx, char *buf, int size)
{
	(void)ctx;
	if (!answers || !*answers)
		return NULL;
	snprintf(buf, size, "%s\n", *answers++);
	return buf;
}

/* A read-write copy of image NAME; the path is malloc'd. */
static char *rw_copy(const char *name)
{
	char *dir = tl_sh("mktemp -d | tr -d '\\n'"), *path;

	assert_true(asprintf(&path, "%s/fs.img", dir) > 0);
	free(tl_sh("cp %s %s", tl_image(name), path));
	free(dir);
	return path;
}

static void drop_copy(char *path)
{
	free(tl_sh("rm -rf \"$(dirname %s)\"", path));
	free(path);
}

static void open_rw(struct tsession *t, const char *path)
{
	char line[300];

	tl_open_path(t, path, SINK_TEXT);
	assert_int_equal(tl_run(t, "close"), CMD_OK);
	snprintf(line, sizeof(line), "open -w %s", path);
	assert_int_equal(tl_run(t, line), CMD_OK);
}

static void test_mi_answers(void **state)
{
	static const char *const mine[] = {"0100600", "", "", "12345", "xyz",
					   NULL};
	struct tsession t;
	char *path = rw_copy("ext4"), *dbg;

	(void)state;
	open_rw(&t, path);
	t.sink.read_line = feed;
	answers = mine;
	assert_int_equal(tl_run(&t, "mi /home/user/blob"), CMD_OK);
	assert_non_null(strstr(t.out.buf,
			       "                          Mode    [0100644] "));
	assert_non_null(strstr(t.out.buf, "Triple Indirect Block    [0] "));
	assert_non_null(strstr(t.err.buf, "mi: Bad value - xyz"));
	tl_close(&t);
	dbg = tl_sh("debugfs -R 'stat /home/user/blob' %s 2>/dev/null", path);
	assert_non_null(strstr(dbg, "Mode:  0600"));
	assert_non_null(strstr(dbg, "Size: 12345\n"));
	free(dbg);
	drop_copy(path);
}

/* No input (the TUI's sink): every field is kept, the inode unchanged. */
static void test_mi_no_input(void **state)
{
	struct tsession t;
	char *path = rw_copy("ext2-1k"), *before, *after;

	(void)state;
	before = tl_sh("debugfs -R 'id /etc/conf3' %s 2>/dev/null", path);
	open_rw(&t, path);
	assert_null(t.sink.read_line);
	assert_int_equal(tl_run(&t, "modify_inode /etc/conf3"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "Direct Block #11    [0] "));
	assert_int_equal(t.err.len, 0);
	tl_close(&t);
	after = tl_sh("debugfs -R 'id /etc/conf3' %s 2>/dev/null", path);
	assert_string_equal(before, after);
	free(before);
	free(after);
	drop_copy(path);
}

static void test_init_filesys(void **state)
{
	struct tsession t;
	char *path = rw_copy("ext2-1k"), line[300], *dbg;

	(void)state;
	tl_open_path(&t, path, SINK_TEXT);
	snprintf(line, sizeof(line), "init_filesys %s 2048", path);
	assert_int_equal(tl_run(&t, line), CMD_FAIL);	/* still open */
	assert_int_equal(tl_run(&t, "close"), CMD_OK);
	assert_int_equal(tl_run(&t, line), CMD_OK);
	assert_int_equal(tl_run(&t, "params"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "Open mode: read-write"));
	assert_int_equal(tl_run(&t, "ffb 2"), CMD_OK);
	tl_close(&t);
	dbg = tl_sh("dumpe2fs -h %s 2>/dev/null", path);
	assert_non_null(strstr(dbg, "Block count:              2048\n"));
	free(dbg);
	drop_copy(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mi_answers),
		cmocka_unit_test(test_mi_no_input),
		cmocka_unit_test(test_init_filesys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
