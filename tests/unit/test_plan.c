/* test_plan.c - the plan engine without writing: plans built read-only on
 * the shared images, their save/load round trip, the fingerprint check, the
 * mapping-block arithmetic and the ext2-style indirect layout. */
#include "testlib.h"
#include "plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_build_and_roundtrip(void **state)
{
	char path[] = "/tmp/e2l-plan-XXXXXX", why[128];
	struct tsession t;
	struct plan *p, *q;
	size_t i;
	int fd;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(tl_run(&t, "journal_relocate --start"), CMD_OK);
	p = t.s.plan;
	assert_non_null(p);
	assert_int_equal(p->ino, 8);
	assert_true(p->extents);
	assert_int_equal(p->nnew, 1);
	assert_int_equal(plan_used_in(t.s.fs, p->target,
				      p->target + p->target_len - 1), 0);
	assert_int_equal(plan_check_fp(&t.s, p), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(plan_save(p, path), 0);
	assert_int_equal(plan_load(path, &q, why, sizeof(why)), 0);
	assert_string_equal(q->kind, p->kind);
	assert_int_equal(q->target, p->target);
	assert_int_equal(q->nold, p->nold);
	assert_int_equal(q->nsteps, p->nsteps);
	for (i = 0; i < p->nsteps; i++) {
		assert_int_equal(q->steps[i].kind, p->steps[i].kind);
		assert_int_equal(q->steps[i].len, p->steps[i].len);
	}
	assert_memory_equal(&q->fp, &p->fp, sizeof(p->fp));
	/* A changed fingerprint is refused. */
	q->fp.free_blocks++;
	assert_int_not_equal(plan_check_fp(&t.s, q), 0);
	assert_non_null(strstr(t.err.buf, "changed since"));
	plan_free(q);
	/* Damaged files are refused with a reason. */
	free(tl_sh("printf 'e2layout-plan 1\\nkind x\\n' > %s", path));
	assert_int_not_equal(plan_load(path, &q, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "line 2: unknown plan kind \"x\""));
	free(tl_sh("printf 'garbage\\n' > %s", path));
	assert_int_not_equal(plan_load(path, &q, why, sizeof(why)), 0);
	assert_non_null(strstr(why, "line 1: not an e2layout plan"));
	unlink(path);
	/* JSON preview. */
	assert_int_equal(tl_run(&t, "plan show --json"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "\"extents_after\":1"));
	/* apply needs -w, with a clear reason. */
	assert_int_equal(tl_run(&t, "apply"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "with -w"));
	tl_close(&t);
}

static void test_meta_needed(void **state)
{
	struct plan_ext r[6];
	struct tsession t;
	ext2_filsys fs;
	size_t i;

	(void)state;
	tl_open(&t, "ext2-1k");	/* 1 KiB blocks: 256 pointers a block */
	fs = t.s.fs;
	for (i = 0; i < 6; i++)
		r[i] = (struct plan_ext){i * 10, 1000 + i * 10, 5, 0};
	assert_int_equal(plan_meta_needed(fs, 1, r, 4), 0);
	assert_int_equal(plan_meta_needed(fs, 1, r, 5), 1);
	/* 84 extents a 1 KiB block: 4 full leaves fit under the root; one
	 * more extent needs an index block; 4*84*84 + 1 a third level */
	assert_int_equal(plan_meta_needed(fs, 1, r, 4 * 84), 4);
	assert_int_equal(plan_meta_needed(fs, 1, r, 4 * 84 + 1), 5 + 1);
	assert_int_equal(plan_meta_needed(fs, 1, r, 4 * 84 * 84 + 1),
			 4 * 84 + 1 + 5 + 1);
	assert_int_equal(plan_meta_needed(fs, 1, r, (size_t)1 << 40), ~0ULL);
	/* direct only; then IND; then DIND + 2 IND below it */
	r[0] = (struct plan_ext){0, 100, 12, 0};
	assert_int_equal(plan_meta_needed(fs, 0, r, 1), 0);
	r[0].len = 13;
	assert_int_equal(plan_meta_needed(fs, 0, r, 1), 1);
	r[0].len = 12 + 256 + 257;
	assert_int_equal(plan_meta_needed(fs, 0, r, 1), 1 + 1 + 2);
	tl_close(&t);
}

static void test_indirect_layout(void **state)
{
	struct plan_ext old = {0, 5000, 12 + 256 + 10, 0};
	struct plan_indirect ind;
	struct tsession t;
	__u32 *ib;

	(void)state;
	tl_open(&t, "ext2-1k");
	assert_int_equal(plan_indirect_layout(t.s.fs, &old, 1, 2000, &ind), 0);
	/* data 0-11, IND, data 12-267, DIND, IND, data 268-277 */
	assert_int_equal(ind.nmeta, 3);
	assert_int_equal(ind.metas[0], 2012);
	assert_int_equal(ind.metas[1], 2013 + 256);
	assert_int_equal(ind.metas[2], 2014 + 256);
	assert_int_equal(ind.iblock[0], 2000);
	assert_int_equal(ind.iblock[EXT2_IND_BLOCK], 2012);
	assert_int_equal(ind.iblock[EXT2_DIND_BLOCK], 2013 + 256);
	ib = (__u32 *)ind.meta;
	assert_int_equal(ib[0], 2013);
	ib = (__u32 *)(ind.meta + 2 * t.s.fs->blocksize);
	assert_int_equal(ib[9], 2015 + 256 + 9);
	assert_int_equal(ind.nruns, 3);
	plan_indirect_release(&ind);
	tl_close(&t);
}

/* On bigalloc the bitmap holds clusters: a range that starts or ends inside
 * a used cluster counts only the blocks of the range, never the rest of
 * the cluster. */
static void test_used_in_mid_cluster(void **state)
{
	struct tsession t;
	ext2_filsys fs;
	blk64_t c = 0, r;

	(void)state;
	tl_open(&t, "bigalloc");
	fs = t.s.fs;
	r = EXT2FS_CLUSTER_RATIO(fs);
	assert_true(r > 2);
	assert_int_equal(ext2fs_read_block_bitmap(fs), 0);
	/* the first used cluster from block r on (block 0's holds the
	 * superblock) */
	assert_int_equal(ext2fs_find_first_set_block_bitmap2(fs->block_map, r,
		ext2fs_blocks_count(fs->super) - 1, &c), 0);
	assert_int_equal(plan_used_in(fs, c, c + r - 1), r);
	assert_int_equal(plan_used_in(fs, c + 1, c + r - 1), r - 1);
	assert_int_equal(plan_used_in(fs, c + 1, c + 1), 1);
	assert_int_equal(plan_used_in(fs, c + r - 1, c + r - 1), 1);
	assert_int_equal(plan_used_in(fs, c + 1, c + r), r - 1 +
		(ext2fs_test_block_bitmap2(fs->block_map, c + r) ? 1 : 0));
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_and_roundtrip),
		cmocka_unit_test(test_meta_needed),
		cmocka_unit_test(test_indirect_layout),
		cmocka_unit_test(test_used_in_mid_cluster),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
