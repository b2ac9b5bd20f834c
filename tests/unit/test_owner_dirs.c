/* test_owner_dirs.c - the directory runs a probe scan gathers for its
 * readahead (owner_dirs.c): only directory runs, within the budget, and
 * nothing more (no crash) once short of memory has made it give up. */
#include "testlib.h"
#include "owner_int.h"

#include <stdlib.h>
#include <string.h>

static struct orun run(blk64_t start, uint32_t len, int cls)
{
	struct orun r;

	memset(&r, 0, sizeof(r));
	orun_set_start(&r, start);
	r.len = len;
	r.cls = (uint8_t)cls;
	r.ino = 12;
	return r;
}

/* a struct_ext2_filsys with the one field owner_dirs_begin reads */
static ext2_filsys fake_fs(struct struct_ext2_filsys *f)
{
	memset(f, 0, sizeof(*f));
	f->blocksize = 4096;
	return f;
}

static void t_gathers_dirs(void **state)
{
	struct struct_ext2_filsys f;
	struct owner_index idx;
	struct orun d = run(1000, 3, OWN_DIR), x = run(2000, 5, OWN_FILE);

	(void)state;
	memset(&idx, 0, sizeof(idx));
	owner_dirs_begin(fake_fs(&f), &idx);
	assert_non_null(idx.dirs);
	owner_dirs_note(&idx, &d);
	owner_dirs_note(&idx, &x);
	assert_int_equal(idx.dirs->n, 1);
	assert_int_equal(idx.dirs_blocks, 3);
	/* the budget: 16-256 MiB, a sixteenth of the memory between */
	assert_true(idx.dirs_max >= (16u << 20) / 4096);
	assert_true(idx.dirs_max <= (256u << 20) / 4096);
	/* past the budget: not gathered */
	d = run(5000, (uint32_t)idx.dirs_max, OWN_DIR);
	owner_dirs_note(&idx, &d);
	assert_int_equal(idx.dirs->n, 1);
	owner_dirs_free(&idx);
	assert_null(idx.dirs);
}

/* Given up (a push failed, the vector freed) in the middle of one
 * directory's runs: its next runs are not gathered, and nothing crashes
 * (they were pushed into the freed, NULL vector). */
static void t_given_up(void **state)
{
	struct struct_ext2_filsys f;
	struct owner_index idx;
	struct orun d = run(1000, 3, OWN_DIR);

	(void)state;
	memset(&idx, 0, sizeof(idx));
	owner_dirs_begin(fake_fs(&f), &idx);
	owner_dirs_free(&idx);
	owner_dirs_note(&idx, &d);
	assert_null(idx.dirs);
	owner_dirs_ask(&f, "/nonexistent", &idx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_gathers_dirs),
		cmocka_unit_test(t_given_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
