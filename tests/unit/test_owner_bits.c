/* test_owner_bits.c - the owner index reads the block bitmap from the disk a
 * group at a time when the session has not loaded it (owner_bits.c): it
 * leaves the bitmap unloaded, its runs and map counts are the loaded
 * bitmap's, and a bitmap loaded and changed in memory afterwards (a
 * shell's setb) is what it answers from; each group's summary of its used
 * blocks answers as its bits do. */
#include "testlib.h"
#include "owner_int.h"
#include "session.h"

#include <stdlib.h>
#include <string.h>

#define CELLS 300

/* What the index says of the whole filesystem: its runs (folded into a
 * sum) and a map row's counts. */
struct answer {
	unsigned long long runs, sum;
	blk64_t row[CELLS][OWN_CLASS_MAX];
	blk64_t whole[OWN_CLASS_MAX];
};

static int fold(const struct owner_run *r, void *arg)
{
	struct answer *a = arg;

	a->runs++;
	a->sum = a->sum * 1000003ULL + r->start * 31 + r->len * 7 +
		 (unsigned long long)r->cls * 131 + r->ino;
	return 0;
}

static void answer(struct tsession *t, struct answer *a)
{
	blk64_t total = ext2fs_blocks_count(t->s.fs->super);
	blk64_t bpc = total / CELLS + 1;

	memset(a, 0, sizeof(*a));
	assert_int_equal(owner_for_range(&t->s, 0, total, fold, a), 0);
	assert_int_equal(owner_class_counts_row(&t->s, 0, bpc, total, CELLS,
						a->row), 0);
	assert_int_equal(owner_class_counts(&t->s, 0, total, a->whole), 0);
}

static void same(const char *img, const char *what, const struct answer *a,
		 const struct answer *b)
{
	int i, k;

	if (a->runs != b->runs || a->sum != b->sum)
		fail_msg("%s %s: %llu runs (sum %llx), loaded %llu (%llx)",
			 img, what, a->runs, a->sum, b->runs, b->sum);
	for (i = 0; i < CELLS; i++)
		for (k = 0; k < OWN_CLASS_MAX; k++)
			if (a->row[i][k] != b->row[i][k])
				fail_msg("%s %s: cell %d %s %llu, loaded %llu",
					 img, what, i, owner_class_key(k),
					 (unsigned long long)a->row[i][k],
					 (unsigned long long)b->row[i][k]);
	for (k = 0; k < OWN_CLASS_MAX; k++)
		assert_int_equal(a->whole[k], b->whole[k]);
}

/* The first free block past the first data block, and how many follow. */
static blk64_t free_spot(ext2_filsys fs, blk64_t *len)
{
	blk64_t total = ext2fs_blocks_count(fs->super), a = 0, z = 0;

	assert_int_equal(ext2fs_find_first_zero_block_bitmap2(
		fs->block_map, fs->super->s_first_data_block, total - 1, &a),
		0);
	if (ext2fs_find_first_set_block_bitmap2(fs->block_map, a, total - 1,
						&z))
		z = total;
	*len = z - a < 100 ? z - a : 100;
	return a;
}

static void check_image(const char *img, int streams)
{
	struct tsession t, l;
	struct answer *a = calloc(3, sizeof(*a));
	blk64_t spot, len, before[OWN_CLASS_MAX] = {0}, c[OWN_CLASS_MAX];
	int k;

	assert_non_null(a);
	tl_open(&t, img);
	assert_int_equal(owner_index_build(&t.s), 0);
	/* the index built and asked without the whole bitmap in memory */
	answer(&t, &a[0]);
	if (streams) {
		assert_null(t.s.fs->block_map);
		assert_false(t.s.loaded & NEED_BLOCK_BITMAP);
		assert_non_null(t.s.owners->bits);
		assert_true(owner_bitmap_from_disk(&t.s));
	}
	/* the same answers as from the loaded bitmap */
	tl_open(&l, img);
	assert_int_equal(session_need(&l.s, NEED_BLOCK_BITMAP), 0);
	assert_int_equal(owner_index_build(&l.s), 0);
	assert_null(l.s.owners->bits);
	assert_false(owner_bitmap_from_disk(&l.s));
	answer(&l, &a[1]);
	same(img, "from the disk", &a[0], &a[1]);
	tl_close(&l);
	/* loaded and changed in memory (as setb would): the index answers
	 * from the loaded bitmap, not the disk's */
	assert_int_equal(session_need(&t.s, NEED_BLOCK_BITMAP), 0);
	assert_false(owner_bitmap_from_disk(&t.s));
	spot = free_spot(t.s.fs, &len);
	assert_int_equal(owner_class_counts(&t.s, spot, len, before), 0);
	assert_int_equal(before[OWN_FREE] + before[OWN_UNINIT], len);
	ext2fs_mark_block_bitmap_range2(t.s.fs->block_map, spot, len);
	memset(c, 0, sizeof(c));
	assert_int_equal(owner_class_counts(&t.s, spot, len, c), 0);
	assert_int_equal(c[OWN_UNKNOWN], len);
	answer(&t, &a[2]);
	for (k = 0; k < OWN_CLASS_MAX; k++) {
		blk64_t want = a[0].whole[k];

		if (k == OWN_UNKNOWN)
			want += len;
		else
			want -= before[k];
		assert_int_equal(a[2].whole[k], want);
	}
	tl_close(&t);
	free(a);
}

/* Blocks in use among blocks i..j-1 of group g, from its bits. */
static blk64_t used_in(ext2_filsys fs, struct owner_bits *ob, dgrp_t g,
		       blk64_t i, blk64_t j)
{
	blk64_t first = ext2fs_group_first_block2(fs, g), n = 0, k;
	unsigned char *buf = malloc((size_t)(j - i) / 8 + 2);

	assert_non_null(buf);
	if (j > i)
		assert_int_equal(owner_bits_range(fs, ob, first + i,
						  (size_t)(j - i), buf), 0);
	for (k = 0; k < j - i; k++)
		n += (buf[k / 8] >> (k % 8)) & 1;
	free(buf);
	return n;
}

/*
 * The group summary's answers (owner_bits_used_quick) are the bits' own:
 * every group's whole range (always answered), the ranges before, from
 * and around its first and last block in use, and some at random; a
 * range it cannot tell (inside the used span) is left unanswered.
 */
static void check_summary(const char *img)
{
	struct tsession t;
	struct owner_bits *ob;
	ext2_filsys fs;
	blk64_t len, i, j, used, cut[8], all;
	unsigned long long r = 0x9e3779b97f4a7c15ULL;
	int a, b, told = 0, untold = 0;
	dgrp_t g;

	tl_open(&t, img);
	fs = t.s.fs;
	assert_int_equal(owner_bits_open(fs, 1, &ob), 0);
	for (g = 0; g < fs->group_desc_count; g++) {
		len = ext2fs_group_last_block2(fs, g) -
		      ext2fs_group_first_block2(fs, g) + 1;
		all = used_in(fs, ob, g, 0, len);
		assert_true(owner_bits_used_quick(ob, g, 0, len, &used));
		assert_int_equal(used, all);
		/* the used span's bounds, found from the bits */
		for (i = 0; i < len && !used_in(fs, ob, g, i, i + 1); i++)
			;
		for (j = len; j > i && !used_in(fs, ob, g, j - 1, j); j--)
			;
		cut[0] = 0;
		cut[1] = i;
		cut[2] = i + (i < len);
		cut[3] = j > 0 ? j - 1 : 0;
		cut[4] = j;
		cut[5] = len;
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		cut[6] = (r >> 33) % (len + 1);
		r = r * 6364136223846793005ULL + 1442695040888963407ULL;
		cut[7] = (r >> 33) % (len + 1);
		for (a = 0; a < 8; a++)
			for (b = 0; b < 8; b++) {
				if (cut[a] > cut[b])
					continue;
				if (!owner_bits_used_quick(ob, g, cut[a],
							   cut[b], &used)) {
					untold++;
					continue;
				}
				told++;
				if (used != used_in(fs, ob, g, cut[a], cut[b]))
					fail_msg("%s group %u [%llu, %llu): "
						 "%llu used, the summary "
						 "says %llu", img, g,
						 (unsigned long long)cut[a],
						 (unsigned long long)cut[b],
						 (unsigned long long)
						 used_in(fs, ob, g, cut[a],
							 cut[b]),
						 (unsigned long long)used);
			}
	}
	assert_true(told > 0);
	assert_true(untold > 0);
	owner_bits_free(ob);
	tl_close(&t);
}

static void t_summary(void **state)
{
	(void)state;
	check_summary("ext4");
	check_summary("ext2-1k");
	check_summary("noflex");
	check_summary("metabg");
}

static void t_ext2_1k(void **state) { (void)state; check_image("ext2-1k", 1); }
static void t_ext3(void **state) { (void)state; check_image("ext3", 1); }
static void t_ext4(void **state) { (void)state; check_image("ext4", 1); }
static void t_bigalloc(void **state)
{
	(void)state;
	check_image("bigalloc", 0);	/* loads its cluster bitmap */
}
static void t_inline(void **state) { (void)state; check_image("inline", 1); }
static void t_metabg(void **state) { (void)state; check_image("metabg", 1); }
static void t_noflex(void **state) { (void)state; check_image("noflex", 1); }
static void t_mmp64k(void **state) { (void)state; check_image("mmp64k", 1); }

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
		cmocka_unit_test(t_summary),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
