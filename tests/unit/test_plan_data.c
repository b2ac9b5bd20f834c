/* test_plan_data.c - what the TUI's plan screen reads from the engine: the
 * stats and before/after map strips of a plan (plan_get_stats,
 * plan_map_strip, checked against the plan's own steps and the block
 * bitmap), and the apply progress hook (session apply_progress) on a copy
 * of an image opened -w. */
#include "testlib.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_stats_and_strips(void **state)
{
	struct tsession t;
	struct plan_stats ps;
	const struct plan *p;
	blk64_t rd = 0, wr = 0, b;
	char line[64];
	size_t i;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(tl_run(&t, "plan journal relocate --middle"), CMD_OK);
	p = t.s.plan;
	assert_non_null(p);
	for (i = 0; i < p->nsteps; i++) {
		if (p->steps[i].kind == STEP_COPY)
			rd += p->steps[i].len;
		if (p->steps[i].kind == STEP_COPY ||
		    p->steps[i].kind == STEP_WRITE_MAP ||
		    p->steps[i].kind == STEP_ZERO)
			wr += p->steps[i].len;
	}
	plan_get_stats(p, &ps);
	assert_int_equal(ps.read, rd);
	assert_int_equal(ps.written, wr);
	assert_true(ps.lo <= p->target);
	assert_true(ps.hi >= p->target + p->target_len);
	for (i = 0; i < p->nold; i++) {
		assert_true(ps.lo <= p->old[i].pblk);
		assert_true(ps.hi >= p->old[i].pblk + p->old[i].len);
	}
	/* one block a cell: after, the new run is all X; before, it is free */
	b = p->target_len < 60 ? p->target_len : 60;
	plan_map_strip(t.s.fs, p, 1, p->target, 1, b, line);
	for (i = 0; i < b; i++)
		assert_int_equal(line[i], 'X');
	plan_map_strip(t.s.fs, p, 0, p->target, 1, b, line);
	for (i = 0; i < b; i++)
		assert_int_equal(line[i], '.');
	/* before, the journal's first block is X; after, it is not */
	plan_map_strip(t.s.fs, p, 0, p->old[0].pblk, 1, 1, line);
	assert_int_equal(line[0], 'X');
	plan_map_strip(t.s.fs, p, 1, p->old[0].pblk, 1, 1, line);
	assert_int_not_equal(line[0], 'X');
	/* past the end of the filesystem: blank */
	plan_map_strip(t.s.fs, p, 0, ext2fs_blocks_count(t.s.fs->super) - 1,
		       1, 3, line);
	assert_int_equal(line[1], ' ');
	assert_int_equal(line[2], ' ');
	assert_int_equal(line[3], 0);
	tl_close(&t);
}

struct prog {
	int calls;
	unsigned long long done, total;
	int backwards;
};

static void on_progress(void *ctx, unsigned long long done,
			unsigned long long total)
{
	struct prog *pr = ctx;

	if (done < pr->done)
		pr->backwards = 1;
	pr->calls++;
	pr->done = done;
	pr->total = total;
}

static void test_progress_hook(void **state)
{
	char path[] = "/tmp/e2l-plandata-XXXXXX", line[128];
	struct tsession t;
	struct prog pr = {0};
	blk64_t copy = 0;
	size_t i;
	char *out;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	free(tl_sh("cp --sparse=always %s %s", tl_image("ext4"), path));
	tl_open_path(&t, path, SINK_TEXT);
	assert_int_equal(tl_run(&t, "close_filesys"), CMD_OK);
	snprintf(line, sizeof(line), "open_filesys -w %s", path);
	assert_int_equal(tl_run(&t, line), CMD_OK);
	assert_int_equal(tl_run(&t, "plan journal relocate --middle"), CMD_OK);
	assert_non_null(t.s.plan);
	for (i = 0; i < t.s.plan->nsteps; i++)
		if (t.s.plan->steps[i].kind == STEP_COPY)
			copy += t.s.plan->steps[i].len;
	t.s.apply_progress = on_progress;
	t.s.apply_progress_ctx = &pr;
	assert_int_equal(tl_run(&t, "apply --no-undo"), CMD_OK);
	t.s.apply_progress = NULL;
	assert_true(pr.calls > 0);
	assert_false(pr.backwards);
	assert_int_equal(pr.total, copy);
	assert_true(pr.done >= pr.total);	/* plus metadata */
	tl_close(&t);
	out = tl_sh("e2fsck -fn %s >/dev/null 2>&1; echo $?", path);
	assert_string_equal(out, "0\n");
	free(out);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stats_and_strips),
		cmocka_unit_test(test_progress_hook),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
