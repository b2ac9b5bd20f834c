/* test_args.c - the layout editor's argument checks (core/session/args.c)
 * and the undo-file path checks and worst case (core/plan/undo_path.c), on the shared
 * ext4 image opened read-only. */
#include "testlib.h"
#include "args.h"
#include "e2l_err.h"
#include "plan.h"
#include "undo_guard.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_bytes(void **state)
{
	static const char *const bad[] = {
		"", "-1", "+1", "0x", "1e3", "1K1", "1 K", " 1", "0", "0K",
		"99999999999999999999", "18446744073709551616", "16777216T",
		"1KB", "1.5G", "K", NULL,
	};
	struct tsession t;
	__u64 v;
	int i;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(arg_bytes(&t.s, "x", "size", "4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(arg_bytes(&t.s, "x", "size", "0x10", &v), 0);
	assert_int_equal(v, 16);
	assert_int_equal(arg_bytes(&t.s, "x", "size", "3k", &v), 0);
	assert_int_equal(v, 3072);
	assert_int_equal(arg_bytes(&t.s, "x", "size", "16383T", &v), 0);
	assert_int_equal(v, 16383ULL << 40);
	assert_int_equal(arg_bytes(&t.s, "x", "size", "18446744073709551615",
				   &v), 0);
	assert_int_equal(v, ~0ULL);
	for (i = 0; bad[i]; i++) {
		v = 12345;
		assert_int_equal(arg_bytes(&t.s, "x", "size", bad[i], &v),
				 E2L_ERR_BAD_ARGUMENT);
		assert_int_equal(v, 12345);	/* untouched */
	}
	assert_non_null(strstr(t.err.buf, "x: Argument out of range size"));
	tl_close(&t);
}

static void test_placement(void **state)
{
	char a0[] = "op", a1[] = "--goal", a2[] = "16383", a3[] = "--start";
	char b2[] = "16384", g1[] = "--group", g2[] = "1", m[] = "--middle";
	char *argv[5];
	struct placement pl;
	struct tsession t;
	int i;

	(void)state;
	tl_open(&t, "ext4");
	argv[0] = a0, argv[1] = a1, argv[2] = a2, argv[3] = a3, argv[4] = NULL;
	memset(&pl, 0, sizeof(pl));
	i = 1;
	assert_int_equal(arg_placement(&t.s, "op", 4, argv, &i, PLACE_ALL,
				       &pl), 0);
	assert_int_equal(i, 2);
	assert_int_equal(pl.goal, 16383);
	i = 3;	/* a second placement option */
	assert_int_equal(arg_placement(&t.s, "op", 4, argv, &i, PLACE_ALL,
				       &pl), 1);
	assert_non_null(strstr(t.err.buf, "--goal and --start exclude"));
	/* not allowed: not ours */
	memset(&pl, 0, sizeof(pl));
	i = 3;
	assert_int_equal(arg_placement(&t.s, "op", 4, argv, &i, PLACE_GOAL,
				       &pl), -1);
	argv[2] = b2;	/* past the end */
	memset(&pl, 0, sizeof(pl));
	i = 1;
	assert_int_equal(arg_placement(&t.s, "op", 4, argv, &i, PLACE_ALL,
				       &pl), 1);
	argv[1] = g1, argv[2] = g2;	/* the image has one group */
	memset(&pl, 0, sizeof(pl));
	i = 1;
	assert_int_equal(arg_placement(&t.s, "op", 3, argv, &i, PLACE_ALL,
				       &pl), 1);
	assert_non_null(strstr(t.err.buf, "no group 1"));
	argv[1] = m;
	memset(&pl, 0, sizeof(pl));
	i = 1;
	assert_int_equal(arg_placement(&t.s, "op", 2, argv, &i, PLACE_ALL,
				       &pl), 0);
	assert_int_equal(pl.goal, 16384 / 2);
	tl_close(&t);
}

static void test_inode_and_names(void **state)
{
	static const char *const bad[] = {"<0>", "<-1>", "<4294967296>",
					  "<8193>", "<>", "<0x>", "<1x>", NULL};
	char n255[257], n256[258];
	struct tsession t;
	ext2_ino_t ino;
	int i;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(arg_inode(&t.s, "op", "<8192>", &ino), 0);
	assert_int_equal(ino, 8192);
	assert_int_equal(arg_inode(&t.s, "op", "<0x8>", &ino), 0);
	assert_int_equal(ino, 8);
	assert_int_equal(arg_inode(&t.s, "op", "/etc/conf1", &ino), 0);
	for (i = 0; bad[i]; i++)
		assert_int_equal(arg_inode(&t.s, "op", bad[i], &ino),
				 E2L_ERR_BAD_ARGUMENT);
	assert_int_not_equal(arg_inode(&t.s, "op", "/no/such", &ino), 0);
	memset(n255, 'n', 255);
	n255[255] = 0;
	memset(n256, 'n', 256);
	n256[256] = 0;
	assert_int_equal(arg_entry_name(n255), 0);
	assert_int_equal(arg_entry_name(n256), ENAMETOOLONG);
	assert_int_equal(arg_entry_name(""), EXT2_ET_INVALID_ARGUMENT);
	tl_close(&t);
}

static void test_undo_paths(void **state)
{
	char dir[] = "/tmp/e2l-undo-XXXXXX", path[64];
	const char *img = tl_image("ext4");
	struct tsession t;
	char *def;

	(void)state;
	assert_non_null(mkdtemp(dir));
	tl_open(&t, "ext4");
	/* the image itself, an existing file, a missing directory */
	assert_int_equal(undo_path_check(&t.s, "apply", img, img, 0),
			 E2L_ERR_UNDO_PATH);
	assert_non_null(strstr(t.err.buf, "it is the filesystem image"));
	snprintf(path, sizeof(path), "%s/f", dir);
	free(tl_sh("echo x > %s", path));
	assert_int_equal(undo_path_check(&t.s, "apply", img, path, 0),
			 E2L_ERR_UNDO_PATH);
	assert_non_null(strstr(t.err.buf, "a file of 2 bytes exists there"));
	snprintf(path, sizeof(path), "%s/no/f", dir);
	assert_int_equal(undo_path_check(&t.s, "apply", img, path, 0),
			 E2L_ERR_UNDO_PATH);
	/* a new name in a writable directory; no room for 2^60 bytes */
	snprintf(path, sizeof(path), "%s/new.e2undo", dir);
	assert_int_equal(undo_path_check(&t.s, "apply", img, path, 4096), 0);
	assert_int_equal(undo_path_check(&t.s, "apply", img, path, 1ULL << 60),
			 E2L_ERR_UNDO_PATH);
	assert_non_null(strstr(t.err.buf, "it may grow to"));
	assert_int_equal(access(path, F_OK), -1);	/* nothing created */
	/* the default name: beside the image, or in $E2LAYOUT_UNDO_DIR */
	setenv("E2LAYOUT_UNDO_DIR", dir, 1);
	def = undo_path_default(&t.s);
	assert_non_null(def);
	assert_int_equal(strncmp(def, dir, strlen(dir)), 0);
	assert_non_null(strstr(def, "/e2layout-ext4.img-"));
	free(def);
	unsetenv("E2LAYOUT_UNDO_DIR");
	/* a plan's worst case covers at least what it writes */
	assert_int_equal(tl_run(&t, "journal_relocate --start"), CMD_OK);
	assert_non_null(t.s.plan);
	assert_true(undo_plan_worst(t.s.fs, t.s.plan) >
		    t.s.plan->target_len * t.s.fs->blocksize);
	tl_close(&t);
	free(tl_sh("rm -rf %s", dir));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_inode_and_names),
		cmocka_unit_test(test_undo_paths),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
