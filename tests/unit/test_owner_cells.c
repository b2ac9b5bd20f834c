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
	const struct fpack *fv;
	struct fpack *files = &idx->files;
	struct fpack_it it;
	struct orun r;
	size_t k;
	int i;

	assert_int_equal(owner_files(idx, &fv), 0);
	for (i = 0; i < 60 && fv->n; i++) {
		memset(&r, 0, sizeof(r));
		if (i % 3 == 0) {	/* on an existing run's start */
			assert_int_equal(owner_files(idx, &fv), 0);
			it.v = fv;
			fpack_at(&it, 0);
			for (k = rnd() % fv->n; k && it.ok; k--)
				fpack_next(&it);
			assert_true(it.ok);
			r = it.r;
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
		assert_int_equal(fpack_push(files, &r), 0);
		idx->files_sorted = 0;
	}
}

/* A row of cells in one walk (owner_class_counts_row, the map's) gives
 * each cell the counts owner_class_counts gives it alone. */
static void row_same(struct tsession *t, const char *img, const char *when,
		     blk64_t pos, blk64_t bpc, int n)
{
	blk64_t total = ext2fs_blocks_count(t->s.fs->super), b;
	blk64_t c[OWN_CLASS_MAX];
	blk64_t (*row)[OWN_CLASS_MAX] = calloc((size_t)n, sizeof(*row));
	int i, k;

	assert_non_null(row);
	assert_int_equal(owner_class_counts_row(&t->s, pos, bpc, total, n,
						row), 0);
	for (i = 0, b = pos; i < n && b < total; i++, b += bpc) {
		memset(c, 0, sizeof(c));
		assert_int_equal(owner_class_counts(&t->s, b, bpc, c), 0);
		for (k = 0; k < OWN_CLASS_MAX; k++)
			if (c[k] != row[i][k])
				fail_msg("%s %s: row cell %d of %llu from "
					 "%llu: %s %llu alone, %llu in the "
					 "row", img, when, i,
					 (unsigned long long)bpc,
					 (unsigned long long)pos,
					 owner_class_key(k),
					 (unsigned long long)c[k],
					 (unsigned long long)row[i][k]);
	}
	free(row);
}

/* The counts of the cells of a map add up to the whole range's: a cell
 * that starts inside a long run sees that run's owner, however many
 * shorter runs start between it and the cell (cross-links). */
static void cells_add_up(struct tsession *t, const char *img,
			 const char *when)
{
	static const blk64_t sizes[] = {1, 7, 64, 1000, 4096};
	blk64_t total = ext2fs_blocks_count(t->s.fs->super), bpc, b, pos;
	blk64_t whole[OWN_CLASS_MAX], sum[OWN_CLASS_MAX];
	size_t i, cells;
	int k;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		bpc = sizes[i];
		/* a window of at most 4000 cells, from the middle */
		pos = total / 2 - total / 2 % bpc;
		if (pos > bpc * 2000)
			pos -= bpc * 2000;
		else
			pos = 0;
		memset(whole, 0, sizeof(whole));
		memset(sum, 0, sizeof(sum));
		for (b = pos, cells = 0; b < total && cells < 4000;
		     b += bpc, cells++)
			assert_int_equal(owner_class_counts(&t->s, b, bpc,
							    sum), 0);
		row_same(t, img, when, pos, bpc, (int)cells);
		assert_int_equal(owner_class_counts(&t->s, pos, b - pos,
						    whole), 0);
		for (k = 0; k < OWN_CLASS_MAX; k++)
			if (whole[k] != sum[k])
				fail_msg("%s %s: cells of %llu from %llu: %s "
					 "%llu in all, %llu added up", img,
					 when, (unsigned long long)bpc,
					 (unsigned long long)pos,
					 owner_class_key(k),
					 (unsigned long long)whole[k],
					 (unsigned long long)sum[k]);
	}
}

/* A long file run and short ones starting inside it (ino 5 on the
 * shared start's blocks): the blocks past the short ones are the long
 * run's, for one block's owner as for the counts. */
static void add_long_over_short(struct tsession *t)
{
	struct owner_index *idx = t->s.owners;
	blk64_t total = ext2fs_blocks_count(t->s.fs->super);
	const struct fpack *fv;
	struct fpack *files = &idx->files;
	struct owner_run run;
	struct orun r;
	blk64_t s0 = total / 2 + 3, len = total - s0 < 3000 ? total - s0 : 3000;
	int i;

	assert_int_equal(owner_files(idx, &fv), 0);
	assert_true(len >= 60);
	memset(&r, 0, sizeof(r));
	orun_set_start(&r, s0);
	r.len = len;
	r.cls = OWN_FILE;
	r.ino = 4000;
	assert_int_equal(fpack_push(files, &r), 0);
	for (i = 0; i < 5; i++) {
		orun_set_start(&r, s0 + 10 + len / 6 * i);
		r.len = 2;
		r.ino = 4001 + i;
		assert_int_equal(fpack_push(files, &r), 0);
	}
	idx->files_sorted = 0;
	/* no metadata there on these images: the long run owns it */
	assert_int_equal(owner_lookup(&t->s, s0 + len - 1, &run), 0);
	if (run.cls == OWN_FILE || run.cls == OWN_MAPPING)
		assert_int_equal(run.ino, 4000);
	else if (run.cls == OWN_FREE || run.cls == OWN_UNINIT ||
		 run.cls == OWN_UNKNOWN)
		fail_msg("block %llu, inside inode 4000's run: %s",
			 (unsigned long long)(s0 + len - 1),
			 owner_class_key(run.cls));
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
	/* a clean filesystem's runs never overlap: frun_find's fast path */
	{
		const struct fpack *fv;

		assert_int_equal(owner_files(t.s.owners, &fv), 0);
		assert_false(fv->overlap);
	}
	cells_add_up(&t, img, "after the scan");
	add_overlaps(&t);
	same_counts(&t, img, "with overlapping runs");
	cells_add_up(&t, img, "with overlapping runs");
	add_long_over_short(&t);
	cells_add_up(&t, img, "with a long run over short ones");
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
