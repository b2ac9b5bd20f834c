/* test_owner_sort.c - the owner index's in-place sort (frun_sort: the
 * nearly-sorted pass with its side buffer, the radix sort it falls back
 * to) against qsort and the same dedup, over many shapes of input: sorted,
 * reversed, n/16 - 1, n/16 and n/16 + 1 runs out of place, spikes and
 * dips, exact duplicates, equal starts with different owners, the sizes
 * at the thresholds and a large one. */
#include "testlib.h"
#include "owner_int.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static const int classes[4] = {OWN_MAPPING, OWN_FILE, OWN_DIR, OWN_XATTR};

/* The vector whose table of logical blocks ref_cmp unpacks with. */
static const struct frun_vec *ref_vec;

/* The full order of owner_int.h, on the unpacked fields. */
static int ref_cmp(const void *a, const void *b)
{
	struct orun p, q;

	frun_unpack(ref_vec, a, &p);
	frun_unpack(ref_vec, b, &q);
	if (orun_start(&p) != orun_start(&q))
		return orun_start(&p) < orun_start(&q) ? -1 : 1;
	if (p.ino != q.ino)
		return p.ino < q.ino ? -1 : 1;
	if (p.cls != q.cls)
		return p.cls < q.cls ? -1 : 1;
	if (p.len != q.len)
		return p.len < q.len ? -1 : 1;
	return p.lblk < q.lblk ? -1 : p.lblk > q.lblk;
}

/* A run at start (its other fields from the generator; few distinct
 * values when dup: exact duplicates and equal keys with other owners). */
static void put(struct frun_vec *v, blk64_t start, int dup)
{
	struct orun r;

	memset(&r, 0, sizeof(r));
	orun_set_start(&r, start);
	r.cls = classes[rnd() % 4];
	r.len = 1 + rnd() % (dup ? 2 : 40);
	r.ino = 1 + rnd() % (dup ? 3 : 100000);
	r.lblk = rnd() % (dup ? 2 : 100000);
	assert_int_equal(frun_push(v, &r), 0);
}

/* Sorts v with frun_sort and checks it against qsort + dedup. */
static void check(struct frun_vec *v, const char *what)
{
	size_t n = v->n, i, o = 0;
	struct frun *ref = malloc((n ? n : 1) * sizeof(*ref));

	assert_non_null(ref);
	if (n)
		memcpy(ref, v->v, n * sizeof(*ref));
	ref_vec = v;
	frun_lblk_sort(v);	/* as the scan leaves it */
	qsort(ref, n, sizeof(*ref), ref_cmp);
	for (i = 0; i < n; i++) {
		struct orun p, q;

		frun_unpack(v, &ref[i], &q);
		if (o) {
			frun_unpack(v, &ref[o - 1], &p);
			if (orun_start(&p) == orun_start(&q) &&
			    p.len == q.len && p.cls == q.cls &&
			    (q.cls == OWN_XATTR || p.ino == q.ino))
				continue;
		}
		ref[o++] = ref[i];
	}
	frun_sort(v);
	if (v->n != o)
		fail_msg("%s (n=%zu): %zu runs kept, qsort keeps %zu", what, n,
			 v->n, o);
	for (i = 0; i < o; i++)
		if (memcmp(&v->v[i], &ref[i], sizeof(*ref)))
			fail_msg("%s (n=%zu): run %zu differs from qsort's",
				 what, n, i);
	free(ref);
	free(v->v);
	free(v->lx);
	memset(v, 0, sizeof(*v));
}

/* n ascending starts from base, step apart (0: all equal). */
static void ascending(struct frun_vec *v, size_t n, blk64_t base,
		      blk64_t step, int dup)
{
	size_t i;

	for (i = 0; i < n; i++)
		put(v, base + i * step, dup);
}

/* k of v's runs, at distinct random places, moved to a random start in
 * [0, span): spikes above what follows and dips below what precedes. */
static void displace(struct frun_vec *v, size_t k, blk64_t span)
{
	size_t i, p;
	blk64_t s;

	for (i = 0; i < k && v->n; i++) {
		p = rnd() % v->n;
		s = rnd() % span;
		v->v[p].start_lo = (uint32_t)s;
		v->v[p].w = (v->v[p].w & ~(0xfffU << 15)) |
			    (uint32_t)((s >> 32) & 0xfff) << 15;
	}
}

static void t_small(void **state)
{
	struct frun_vec v = {0};
	size_t n;
	int rep;

	(void)state;
	check(&v, "empty");
	for (n = 1; n <= 130; n++) {
		for (rep = 0; rep < 20; rep++) {
			size_t i;

			for (i = 0; i < n; i++)
				put(&v, rnd() % (rep < 10 ? 4 : 1000), rep & 1);
			check(&v, "small random");
		}
		ascending(&v, n, 10, 1, 0);
		check(&v, "small sorted");
		ascending(&v, n, 10, 0, 1);
		check(&v, "small equal starts");
	}
}

static void t_shapes(void **state)
{
	static const size_t sizes[] = {64, 65, 100, 1000, 4095, 4096, 4097,
				       16384, 65536, 100003};
	struct frun_vec v = {0};
	size_t s, n, i, k;
	int d;

	(void)state;
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		n = sizes[s];
		ascending(&v, n, 0, 3, 0);
		check(&v, "sorted");
		for (i = 0; i < n; i++)		/* reversed */
			put(&v, (blk64_t)(n - i) * 5, 0);
		check(&v, "reversed");
		ascending(&v, n, 1ULL << 40, 0, 1);
		check(&v, "one start, few owners");
		ascending(&v, n, 77, 1, 1);
		check(&v, "sorted, duplicates");
		for (i = 0; i < n; i++)		/* organ pipe */
			put(&v, i < n / 2 ? i : n - i, 0);
		check(&v, "organ pipe");
		for (i = 0; i < n; i++)		/* two sequences interleaved */
			put(&v, (i & 1) ? i : i + n, 0);
		check(&v, "interleaved");
		for (i = 0; i < n; i++)		/* sawtooth of 17 */
			put(&v, (i / 17) * 17 + 16 - i % 17, 0);
		check(&v, "sawtooth");
		for (i = 0; i < n; i++)		/* 30 up, one deep dip */
			put(&v, i % 31 == 30 ? i / 2 : i, 0);
		check(&v, "deep dips");
		/* around the side buffer's limit: n/16 - 1 .. n/16 + 1 */
		for (d = -1; d <= 1; d++) {
			k = n / 16 + d;
			ascending(&v, n, 1000, 2, 0);
			displace(&v, k, 2 * n + 2000);
			check(&v, "n/16 +- 1 out of place");
			ascending(&v, n, 1000, 2, 1);
			displace(&v, k, 2 * n + 2000);
			check(&v, "n/16 +- 1 out of place, duplicates");
			/* the out-of-place ones all at the end, or start */
			ascending(&v, n - k, 1000, 2, 0);
			for (i = 0; i < k; i++)
				put(&v, rnd() % (2 * n), 0);
			check(&v, "n/16 +- 1 appended");
			for (i = 0; i < k; i++)
				put(&v, 2 * n + 5000 + rnd() % n, 0);
			ascending(&v, n - k, 1000, 2, 0);
			check(&v, "n/16 +- 1 prepended");
		}
		/* starts that differ only in their high bits, or low byte,
		 * at the 44-bit limit */
		for (i = 0; i < n; i++)
			put(&v, (rnd() % 4) << 42 | (rnd() % 3), 0);
		check(&v, "high bits");
		for (i = 0; i < n; i++)
			put(&v, ((1ULL << 44) - 65536) | (rnd() & 0xff), 0);
		check(&v, "low byte, top of range");
		for (i = 0; i < n; i++)
			put(&v, rnd() & ((1ULL << 44) - 65536 - 1), 0);
		check(&v, "random 44-bit");
	}
}

static void t_huge(void **state)
{
	struct frun_vec v = {0};
	size_t n = 600000;

	(void)state;
	ascending(&v, n, 4096, 7, 0);
	displace(&v, n / 16 - 1, 7 * n);
	check(&v, "huge, nearly sorted");
	ascending(&v, n, 4096, 7, 0);
	displace(&v, n / 16 + 1, 7 * n);
	check(&v, "huge, just too many out of place");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_small),
		cmocka_unit_test(t_shapes),
		cmocka_unit_test(t_huge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
