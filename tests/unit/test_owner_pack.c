/* test_owner_pack.c - the packed file runs (owner_pack*.c) against the
 * 12-byte reference (frun_push, frun_sort, frun_find, frun_unpack) on the
 * runs of a 20 TiB filesystem: a file in every group, block numbers past
 * 2^32, runs longer than FRUN_MAX_LEN, logical blocks of every size,
 * cross-links, shared and duplicated runs, pushes out of order, runs added
 * after the sort; with the buckets by range and with one; runs pushed in
 * order, the buckets the sort takes as they are; runs in order but a few,
 * those merged in; fpack_seek on ascending positions as fpack_at. */
#include "testlib.h"
#include "owner_int.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#define TIB20 (20ULL << 28)	/* 20 TiB in 4 KiB blocks: past 2^32 */
#define GROUP 32768ULL

static const int classes[4] = {OWN_MAPPING, OWN_FILE, OWN_DIR, OWN_XATTR};

struct both {
	struct fpack p;
	struct frun_vec ref;
	blk64_t sum;		/* of the pieces' starts, for fpack_each */
	size_t pieces;
};

static void put(struct both *b, blk64_t start, blk64_t len, uint32_t ino,
		uint32_t lblk, int cls)
{
	struct orun r;
	blk64_t s = start, l = len;

	memset(&r, 0, sizeof(r));
	orun_set_start(&r, start);
	r.len = (uint32_t)len;
	r.ino = ino;
	r.lblk = lblk;
	r.cls = (uint8_t)cls;
	assert_int_equal(fpack_push(&b->p, &r), 0);
	assert_int_equal(frun_push(&b->ref, &r), 0);
	while (l) {
		blk64_t n = l < FRUN_MAX_LEN ? l : FRUN_MAX_LEN;

		b->sum += s;
		b->pieces++;
		s += n;
		l -= n;
	}
}

/* The runs of a damaged 20 TiB filesystem. */
static void fill(struct both *b)
{
	blk64_t g, ngroups = TIB20 / GROUP, s, len;
	uint32_t ino = 12;
	int i;

	for (g = 0; g < ngroups; g++) {	/* a small file in every group */
		s = g * GROUP + 1000 + rnd() % 30000;
		put(b, s, 1 + rnd() % 5, ino++, 0, OWN_FILE);
		if (g % 97 == 0)	/* a directory elsewhere: out of order */
			put(b, rnd() % TIB20, 1, ino++, 0, OWN_DIR);
	}
	for (i = 0; i < 2000; i++) {	/* big files, long runs */
		s = rnd() % (TIB20 - 300000);
		len = 1 + rnd() % (i % 4 ? 200 : 200000);
		put(b, s, len, 5000000 + i, (uint32_t)(rnd() % 4 ? rnd() % 20 :
			rnd() % 0xfff00000ULL), classes[1 + i % 2]);
		if (i % 7 == 0)		/* its extent tree block */
			put(b, s + len + 3, 1, 5000000 + i, 0, OWN_MAPPING);
	}
	for (i = 0; i < 3000; i++) {	/* cross-links and duplicates */
		s = rnd() % (TIB20 - 100000);
		len = 1 + rnd() % 70000;
		put(b, s, len, 7000000 + i, (uint32_t)rnd(), OWN_FILE);
		switch (i % 4) {
		case 0:		/* another inode inside it */
			put(b, s + rnd() % len, 1 + rnd() % 40, 7100000 + i,
			    (uint32_t)rnd() % 9, OWN_FILE);
			break;
		case 1:		/* exactly again, the same inode */
			put(b, s, len, 7000000 + i, (uint32_t)rnd(), OWN_FILE);
			break;
		case 2:		/* a shared xattr block */
			put(b, s + len, 1, 7200000 + i, 0, OWN_XATTR);
			put(b, s + len, 1, 7300000 + i, 0, OWN_XATTR);
			break;
		default:	/* at the very end of the filesystem */
			put(b, TIB20 - 1 - rnd() % 10, 1, 3 + i, 0, OWN_DIR);
		}
	}
}

static int sum_run(const struct orun *r, void *arg)
{
	blk64_t *s = ((blk64_t *)arg);

	s[0] += orun_start(r);
	s[1]++;
	return 0;
}

static void same_run(const struct orun *a, const struct orun *b, size_t i)
{
	if (orun_start(a) != orun_start(b) || a->len != b->len ||
	    a->ino != b->ino || a->cls != b->cls || a->lblk != b->lblk)
		fail_msg("run %zu: packed %llu+%u ino %u cls %d lblk %u, "
			 "reference %llu+%u ino %u cls %d lblk %u", i,
			 (unsigned long long)orun_start(a), a->len, a->ino,
			 a->cls, a->lblk, (unsigned long long)orun_start(b),
			 b->len, b->ino, b->cls, b->lblk);
}

/* fpack_seek on ascending positions (steps inside a run, to the next
 * runs, jumps over many, repeats) finds what frun_find does, as fpack_at. */
static void seek_compare(struct both *b)
{
	struct fpack_it it = {.v = &b->p};
	struct orun r;
	size_t k, n = b->ref.n;
	blk64_t pos = 0, step;
	int j, at = 0;

	for (j = 0; j < 60000 && pos < TIB20 + 10; j++) {
		switch (rnd() % 4) {
		case 0:
			step = 0;
			break;
		case 1:
			step = 1 + rnd() % 8;
			break;
		case 2:
			step = rnd() % 70000;
			break;
		default:
			step = rnd() % (TIB20 / 4000);
		}
		pos += step;
		k = frun_find(&b->ref, pos);
		if (at)
			fpack_seek(&it, pos);
		else
			fpack_at(&it, pos);
		at = 1;
		if (k == n) {
			if (it.ok)
				fail_msg("seek to %llu: a run where the "
					 "reference has none",
					 (unsigned long long)pos);
			continue;
		}
		if (!it.ok)
			fail_msg("seek to %llu: no run where the reference "
				 "has %zu", (unsigned long long)pos, k);
		frun_unpack(&b->ref, &b->ref.v[k], &r);
		same_run(&it.r, &r, k);
	}
	assert_true(j > 1000);
}

/* The packed index, sorted, holds the reference's runs in its order, and
 * fpack_at finds what frun_find does. */
static void compare(struct both *b)
{
	struct fpack_it it = {.v = &b->p};
	struct orun r;
	size_t i, k, n;
	blk64_t pos;
	int j;

	frun_sort(&b->ref);
	assert_int_equal(fpack_sort(&b->p), 0);
	assert_int_equal(b->p.n, b->ref.n);
	assert_int_equal(b->p.overlap, b->ref.overlap);
	assert_true(b->p.overlap);
	for (fpack_at(&it, 0), i = 0; it.ok; fpack_next(&it), i++) {
		assert_true(i < b->ref.n);
		frun_unpack(&b->ref, &b->ref.v[i], &r);
		same_run(&it.r, &r, i);
	}
	assert_int_equal(i, b->ref.n);
	n = b->ref.n;
	for (j = 0; j < 40000; j++) {
		if (j % 2) {	/* by a run: its start, inside, its end */
			i = rnd() % n;
			pos = frun_start(&b->ref.v[i]) +
			      rnd() % (frun_len(&b->ref.v[i]) + 2);
			pos -= pos && j % 3 == 0;
		} else {
			pos = rnd() % (TIB20 + 10);
		}
		k = frun_find(&b->ref, pos);
		it.v = &b->p;
		fpack_at(&it, pos);
		if (k == n) {
			if (it.ok)
				fail_msg("at %llu: a run where the reference "
					 "has none", (unsigned long long)pos);
			continue;
		}
		assert_true(it.ok);
		frun_unpack(&b->ref, &b->ref.v[k], &r);
		same_run(&it.r, &r, k);
	}
	seek_compare(b);
}

static void run_case(int nbuckets)
{
	struct both b;
	blk64_t raw[2] = {0, 0};

	memset(&b, 0, sizeof(b));
	fpack_init(&b.p, TIB20, nbuckets);
	fill(&b);
	/* before the sort, every piece pushed, duplicates too */
	assert_int_equal(fpack_each(&b.p, sum_run, raw), 0);
	assert_int_equal(raw[1], b.pieces);
	assert_true(raw[0] == b.sum);
	compare(&b);
	/* runs added after the sort: sorted again with the rest */
	put(&b, TIB20 / 2, 40000, 99, 12345, OWN_FILE);
	put(&b, TIB20 / 2 + 7, 3, 98, 0, OWN_DIR);
	put(&b, 5, 1, 97, 8, OWN_FILE);
	assert_false(b.p.sorted);
	compare(&b);
	fpack_free(&b.p);
	free(b.ref.v);
	free(b.ref.lx);
}

static void t_buckets(void **state)
{
	(void)state;
	run_case(FPACK_BUCKETS);
}

static void t_one_bucket(void **state)
{
	(void)state;
	run_case(1);
}

/* Every run of the sorted index as the reference's, fpack_at as
 * frun_find, the overlap flag as the reference's (either way). */
static void compare_any(struct both *b)
{
	struct fpack_it it = {.v = &b->p};
	struct orun r;
	size_t i, k, n;
	blk64_t pos;
	int j;

	frun_sort(&b->ref);
	assert_int_equal(fpack_sort(&b->p), 0);
	assert_int_equal(b->p.n, b->ref.n);
	assert_int_equal(b->p.overlap, b->ref.overlap);
	for (fpack_at(&it, 0), i = 0; it.ok; fpack_next(&it), i++) {
		assert_true(i < b->ref.n);
		frun_unpack(&b->ref, &b->ref.v[i], &r);
		same_run(&it.r, &r, i);
	}
	assert_int_equal(i, b->ref.n);
	n = b->ref.n;
	for (j = 0; j < 20000; j++) {
		i = rnd() % n;
		pos = frun_start(&b->ref.v[i]) +
		      rnd() % (frun_len(&b->ref.v[i]) + 2);
		pos -= pos && j % 3 == 0;
		k = frun_find(&b->ref, pos);
		fpack_at(&it, pos);
		if (k == n) {
			assert_false(it.ok);
			continue;
		}
		assert_true(it.ok);
		frun_unpack(&b->ref, &b->ref.v[k], &r);
		same_run(&it.r, &r, k);
	}
}

/*
 * Runs pushed in order, as a scan of a tidy filesystem pushes them: each
 * bucket taken as it was pushed (many blocks, many pages each).  A long
 * run at the end of a bucket's range reaches into the next bucket (its
 * blocks' furthest ends are its end; with cross set, the next bucket's
 * first run starts inside it: an overlap only the buckets together show;
 * cross 2: a run pushed after the next bucket's starts inside it, an
 * overlap in its own bucket); with mixed set, one bucket is pushed out of
 * order among the tidy ones.
 */
static void in_order_case(int cross, int mixed)
{
	struct both b;
	blk64_t span, s;
	uint32_t ino = 12;
	int k, i;

	memset(&b, 0, sizeof(b));
	fpack_init(&b.p, TIB20, FPACK_BUCKETS);
	span = (blk64_t)1 << b.p.shift;		/* a bucket's blocks */
	for (k = 0; k < 40; k++) {
		s = (blk64_t)k * span;
		for (i = 0; i < 900; i++) {	/* 14 blocks, 1-2 pages */
			put(&b, s, 1 + rnd() % 5, ino++, 0,
			    classes[1 + i % 2]);
			s += 6 + rnd() % (i % 50 ? 8 : 300000);
		}
		if (k % 5 == 0)		/* into the next bucket and past */
			put(&b, (blk64_t)(k + 1) * span - 100,
			    cross ? 30000 : 50, ino++, 0,
			    OWN_FILE);
		else if (k % 5 == 1 && cross == 2)	/* inside that run */
			put(&b, (blk64_t)k * span - 1 - rnd() % 3, 1, ino++,
			    0, OWN_DIR);
	}
	if (mixed)
		for (i = 0; i < 300; i++)
			put(&b, 7 * span + rnd() % (span / 2), 1, ino++, 0,
			    OWN_DIR);
	for (k = 0; k < FPACK_BUCKETS; k++)
		assert_int_equal(b.p.b[k].mixed, mixed && k == 7);
	compare_any(&b);
	if (!mixed)	/* the mixed bucket's runs may overlap or not */
		assert_int_equal(b.p.overlap, cross != 0);
	/* pushed again after the sort: all sorted again */
	put(&b, 3 * span + 17, 2, 99, 0, OWN_FILE);
	compare_any(&b);
	fpack_free(&b.p);
	free(b.ref.v);
	free(b.ref.lx);
}

static void t_in_order(void **state)
{
	(void)state;
	in_order_case(0, 0);
	in_order_case(1, 0);
	in_order_case(2, 0);
	in_order_case(0, 1);
	in_order_case(2, 1);
}

/*
 * Runs in order but for a few below their bucket's last (a directory block
 * put back in a gap, as a spread filesystem's scan pushes them): kept aside
 * and merged in by the sort, the bucket not sorted whole, the result the
 * reference's; among them duplicates of runs in the blocks with another
 * logical block (inline and past FRUN_LBLK_ESC: the least kept), of each
 * other, and a shared xattr block.  Bucket 9 strays too often: sorted
 * whole, its strays with it.
 */
static void t_strays(void **state)
{
	struct both b;
	blk64_t span, s, base, back[64], raw[2] = {0, 0};
	uint32_t ino = 12, bino[64], lb;
	int k, i, nb;

	(void)state;
	memset(&b, 0, sizeof(b));
	fpack_init(&b.p, TIB20, FPACK_BUCKETS);
	span = (blk64_t)1 << b.p.shift;
	for (k = 0; k < 10; k++) {
		s = base = (blk64_t)k * span + 50;
		for (i = 0, nb = 0; i < 900; i++) {
			lb = i % 3 ? 0 : 7 + (uint32_t)(rnd() % 100000);
			put(&b, s, 1 + i % 4, ino, lb, classes[1 + i % 2]);
			if (nb < 64 && i % 13 == 0) {
				back[nb] = s;
				bino[nb++] = ino;
			}
			ino++;
			s += 6 + rnd() % 9;
			if (i % (k == 9 ? 5 : 60) != (k == 9 ? 4 : 59))
				continue;
			/* a lone dip into an earlier gap */
			put(&b, base + 5 + rnd() % (s - base - 10) / 8 * 8 + 5,
			    1, ino++, 0, OWN_DIR);
			/* a run of the blocks again, its logical block not */
			lb = i % 120 == 59 ? 3 : 9 + (uint32_t)(rnd() % 50);
			put(&b, back[nb - 1], 1 + (13 * (nb - 1)) % 4,
			    bino[nb - 1], lb, classes[1 + (13 * (nb - 1)) % 2]);
			put(&b, back[nb - 1], 1 + (13 * (nb - 1)) % 4,
			    bino[nb - 1], lb + 1,
			    classes[1 + (13 * (nb - 1)) % 2]);
		}
		put(&b, s, 1, ino, 0, OWN_XATTR);	/* shared, aside */
		put(&b, s + 1, 2, ino + 1, 0, OWN_FILE);
		put(&b, s, 1, ino + 2, 0, OWN_XATTR);
		ino += 3;
	}
	for (k = 0; k < 10; k++) {
		assert_int_equal(b.p.b[k].mixed, k == 9);
		assert_true(b.p.b[k].stray.n > 0);
	}
	assert_int_equal(fpack_each(&b.p, sum_run, raw), 0);
	assert_int_equal(raw[1], b.pieces);
	assert_true(raw[0] == b.sum);
	compare_any(&b);
	fpack_free(&b.p);
	free(b.ref.v);
	free(b.ref.lx);
}

/* What the format cannot hold is refused, as frun_push refuses it. */
static void t_overflow(void **state)
{
	struct fpack p;
	struct orun r;

	(void)state;
	fpack_init(&p, TIB20, FPACK_BUCKETS);
	memset(&r, 0, sizeof(r));
	r.len = 1;
	r.cls = OWN_FREE;
	assert_int_equal(fpack_push(&p, &r), EOVERFLOW);
	r.cls = OWN_FILE;
	orun_set_start(&r, 1ULL << FRUN_START_BITS);
	assert_int_equal(fpack_push(&p, &r), EOVERFLOW);
	assert_int_equal(p.n, 0);
	fpack_free(&p);
}

/* Strays that are shared-xattr runs of one block, one of them apart from
 * the others in the sorted order (a file's run of the same start between
 * them): the merge keeps what sorting the whole bucket keeps (it dropped
 * the xattr claim the stray-only sort saw beside another). */
static void t_xattr_strays(void **state)
{
	struct both b;
	blk64_t span, base;
	int i;

	(void)state;
	memset(&b, 0, sizeof(b));
	fpack_init(&b.p, TIB20, FPACK_BUCKETS);
	span = (blk64_t)1 << b.p.shift;
	base = 3 * span;
	for (i = 0; i < 100; i++)
		put(&b, base + 100 + 10 * (blk64_t)i, 2, 1000 + (uint32_t)i, 0,
		    OWN_FILE);
	put(&b, base + 100, 1, 1005, 0, OWN_XATTR);
	put(&b, base + 100, 1, 900, 0, OWN_XATTR);
	put(&b, base + 100, 1, 1500, 0, OWN_XATTR);
	assert_true(b.p.b[3].stray.n == 3 && !b.p.b[3].mixed);
	compare_any(&b);
	fpack_free(&b.p);
	free(b.ref.v);
	free(b.ref.lx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_buckets),
		cmocka_unit_test(t_one_bucket),
		cmocka_unit_test(t_in_order),
		cmocka_unit_test(t_strays),
		cmocka_unit_test(t_xattr_strays),
		cmocka_unit_test(t_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
