/* test_owner_cells.c - the map's class counts (owner_class_counts_quick
 * once the scan has begun, owner_cells.c) against owner_class_counts over
 * the same ranges: cells of many sizes, odd ranges, before, during and after
 * the scan, and with overlapping runs and runs over free blocks added to the
 * index (a damaged filesystem's cross-links). */
#include "testlib.h"
#include "owner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long rnd_state = 88172645463325252ULL;

static unsigned long long rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return rnd_state;
}

static void same_range(struct tsession *t, const char *img, const char *when,
		       blk64_t first, blk64_t count)
{
	blk64_t a[OWN_CLASS_MAX] = {0}, b[OWN_CLASS_MAX] = {0};
	int k;

	assert_int_equal(owner_class_counts(&t->s, first, count, a), 0);
	assert_int_equal(owner_class_counts_quick(&t->s, first, count, b), 0);
	for (k = 0; k < OWN_CLASS_MAX; k++)
		if (a[k] != b[k])
			fail_msg("%s %s [%llu +%llu): %s %llu, the map's count "
				 "%llu", img, when, (unsigned long long)first,
				 (unsigned long long)count, owner_class_key(k),
				 (unsigned long long)a[k],
				 (unsigned long long)b[k]);
}

/* Every cell of a map of cell size bpc, then random and odd ranges. */
static void same_counts(struct tsession *t, const char *img, const char *when)
{
	static const blk64_t sizes[] = {1, 3, 8, 63, 64, 65, 1000, 4096};
	blk64_t total = ext2fs_blocks_count(t->s.fs->super), bpc, b;
	size_t i, cells;
	int r;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]) + 2; i++) {
		bpc = i < sizeof(sizes) / sizeof(sizes[0]) ? sizes[i] :
		      i == sizeof(sizes) / sizeof(sizes[0]) ? total / 997 + 1 :
		      total;
		cells = 0;
		/* at most ~4000 cells a size: the small ones from spots */
		for (b = 0; b < total && cells < 4000; b += bpc, cells++)
			same_range(t, img, when, b, bpc);
		for (b = total / 2; b < total && cells < 6000; b += bpc,
		     cells++)
			same_range(t, img, when, b, bpc);
	}
	for (r = 0; r < 3000; r++) {
		blk64_t first = rnd() % total;

		same_range(t, img, when, first, 1 + rnd() % (total / 8 + 1));
	}
	same_range(t, img, when, 0, total);
	same_range(t, img, when, 0, (blk64_t)-1);	/* past the end */
	same_range(t, img, when, total - 1, 100);
	same_range(t, img, when, total, 10);		/* nothing */
	same_range(t, img, when, 0, 0);
}

/* Runs a damaged filesystem gives: a file run over another's blocks, over
 * metadata and over free space, a shared start, one inside another. */
static void add_overlaps(struct tsession *t)
{
	struct owner_index *idx = t->s.owners;
	blk64_t total = ext2fs_blocks_count(t->s.fs->super), b;
	struct frun_vec *fv = owner_files(idx);
	struct orun r;
	int i;

	for (i = 0; i < 60 && fv->n; i++) {
		memset(&r, 0, sizeof(r));
		if (i % 3 == 0) {	/* on an existing run's start */
			frun_unpack(&fv->v[rnd() % fv->n], &r);
			r.ino += 1 + i;
			r.len = 1 + rnd() % 50;
		} else {		/* anywhere */
			b = rnd() % total;
			orun_set_start(&r, b);
			r.len = 1 + rnd() % 300;
			if (b + r.len > total)
				r.len = total - b;
			r.cls = i % 3 == 1 ? OWN_FILE : OWN_DIR;
			r.ino = 11 + i;
		}
		if (i % 5 == 0)
			r.cls = OWN_MAPPING;
		assert_int_equal(frun_push(fv, &r), 0);
	}
	idx->files_sorted = 0;
}

static void check_image(const char *img)
{
	struct tsession t;
	int done = 0, steps = 0;

	tl_open(&t, img);
	/* the scan begun, no inode walked yet */
	assert_int_equal(owner_scan_begin(&t.s), 0);
	same_counts(&t, img, "at the scan's start");
	while (!done && steps++ < 3)
		assert_int_equal(owner_scan_step(&t.s, 20, &done), 0);
	if (!done)
		same_counts(&t, img, "during the scan");
	while (!done)
		assert_int_equal(owner_scan_step(&t.s, 1000, &done), 0);
	assert_true(owner_index_complete(&t.s));
	same_counts(&t, img, "after the scan");
	add_overlaps(&t);
	same_counts(&t, img, "with overlapping runs");
	tl_close(&t);
}

static void t_ext2_1k(void **state) { (void)state; check_image("ext2-1k"); }
static void t_ext3(void **state) { (void)state; check_image("ext3"); }
static void t_ext4(void **state) { (void)state; check_image("ext4"); }
static void t_bigalloc(void **state) { (void)state; check_image("bigalloc"); }
static void t_inline(void **state) { (void)state; check_image("inline"); }
static void t_metabg(void **state) { (void)state; check_image("metabg"); }
static void t_noflex(void **state) { (void)state; check_image("noflex"); }
static void t_mmp64k(void **state) { (void)state; check_image("mmp64k"); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ext2_1k),
		cmocka_unit_test(t_ext3),
		cmocka_unit_test(t_ext4),
		cmocka_unit_test(t_bigalloc),
		cmocka_unit_test(t_inline),
		cmocka_unit_test(t_metabg),
		cmocka_unit_test(t_noflex),
		cmocka_unit_test(t_mmp64k),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
