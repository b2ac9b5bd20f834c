/* test_owner_runs.c - the compact structures behind the ownership index:
 * 12-byte runs (packing, splitting, the 44-bit limit, the logical blocks
 * kept beside them), their in-place sort against qsort of the same runs,
 * the metadata runs' lookup when they overlap, and the bounded heap of
 * the worst files
 * against a full sort. */
#include "testlib.h"
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252ULL;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void mkrun(struct orun *r, blk64_t start, blk64_t len, int cls,
		  ext2_ino_t ino, blk64_t lblk)
{
	memset(r, 0, sizeof(*r));
	orun_set_start(r, start);
	r->len = len;
	r->cls = cls;
	r->ino = ino;
	r->lblk = lblk;
}

static void t_pack(void **state)
{
	struct frun_vec v = {0};
	struct orun r, u;

	(void)state;
	assert_int_equal(sizeof(struct frun), 12);
	/* a 44-bit start, every class, lengths to the limit, a logical
	 * block beyond the run's bits */
	mkrun(&r, (1ULL << 44) - 70000, 32768, OWN_DIR, 4000000000U,
	      4000000001U);
	assert_int_equal(frun_push(&v, &r), 0);
	mkrun(&r, 12, 1, OWN_XATTR, 5, 0);
	assert_int_equal(frun_push(&v, &r), 0);
	mkrun(&r, 13, 2, OWN_FILE, 6, 6);	/* the last inline one */
	assert_int_equal(frun_push(&v, &r), 0);
	assert_int_equal(v.n, 3);
	assert_int_equal(v.nlx, 1);
	frun_unpack(&v, &v.v[0], &u);
	assert_int_equal(orun_start(&u), (1ULL << 44) - 70000);
	assert_int_equal(u.len, 32768);
	assert_int_equal(u.cls, OWN_DIR);
	assert_int_equal(u.ino, 4000000000U);
	assert_int_equal(u.lblk, 4000000001U);
	frun_unpack(&v, &v.v[1], &u);
	assert_int_equal(u.cls, OWN_XATTR);
	assert_int_equal(u.lblk, 0);
	frun_unpack(&v, &v.v[2], &u);
	assert_int_equal(u.lblk, 6);
	assert_int_equal(u.len, 2);
	/* longer runs become pieces; data advance their logical block,
	 * mapping runs keep theirs */
	v.n = 0;
	mkrun(&r, 1000, 3 * 32768ULL + 10, OWN_FILE, 9, 100);
	assert_int_equal(frun_push(&v, &r), 0);
	assert_int_equal(v.n, 4);
	frun_unpack(&v, &v.v[3], &u);
	assert_int_equal(orun_start(&u), 1000 + 3 * 32768ULL);
	assert_int_equal(u.len, 10);
	assert_int_equal(u.lblk, 100 + 3 * 32768ULL);
	v.n = 0;
	mkrun(&r, 1000, 70000, OWN_MAPPING, 9, 100);
	assert_int_equal(frun_push(&v, &r), 0);
	frun_unpack(&v, &v.v[1], &u);
	assert_int_equal(u.lblk, 100);
	/* beyond 44 bits, or a class a scanned inode never has */
	mkrun(&r, 1ULL << 44, 1, OWN_FILE, 9, 0);
	assert_int_equal(frun_push(&v, &r), EOVERFLOW);
	mkrun(&r, 5, 1, OWN_JOURNAL, 8, 0);
	assert_int_equal(frun_push(&v, &r), EOVERFLOW);
	free(v.v);
	free(v.lx);
}

/* The full order of the runs as pushed (wide: the logical block known). */
static int ref_cmp(const void *a, const void *b)
{
	const struct orun p = *(const struct orun *)a;
	const struct orun q = *(const struct orun *)b;

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

/* A start for run i of n: random in [base, base + span), or with near
 * ascending as a scan in inode order gives them, with runs out of place
 * (a directory block elsewhere, a few extents of one file elsewhere, a
 * dip back to an earlier block, starts repeated). */
static blk64_t case_start(size_t i, size_t n, blk64_t base, blk64_t span,
			  int near)
{
	static blk64_t far;
	static unsigned burst;

	if (!near)
		return base + next_rand() % span;
	if (burst) {
		burst--;
		return base + (far += 1 + next_rand() % 8) % span;
	}
	switch (next_rand() % (unsigned)near) {
	case 0:		/* a spike or a dip anywhere */
		return base + next_rand() % span;
	case 1:		/* a file's extents in another place */
		far = next_rand() % span;
		burst = next_rand() % (near >= 100 ? 4 : 40);
		return base + far;
	case 2:		/* the same start again soon */
		return base + (blk64_t)((double)(i ? i - 1 : 0) * span / n);
	}
	return base + (blk64_t)((double)i * span / n);
}

/* Sorts n runs drawn from a start range of span blocks (near: see
 * case_start; with shared, a share of them on one start: a shared xattr
 * block) both ways. */
static void sort_case(size_t n, blk64_t base, blk64_t span, int shared,
		      int near)
{
	static const int cls[4] = {OWN_MAPPING, OWN_FILE, OWN_DIR, OWN_XATTR};
	struct frun_vec v = {0};
	struct orun *ref, r;
	size_t i, o = 0;

	ref = malloc((n ? n : 1) * sizeof(*ref));
	assert_non_null(ref);
	for (i = 0; i < n; i++) {
		int c = cls[next_rand() % 4];
		blk64_t st = case_start(i, n, base, span, near);

		if (shared && i % 3 == 0) {
			st = base;
			c = OWN_XATTR;
		}
		mkrun(&r, st, 1 + next_rand() % 40, c,
		      1 + next_rand() % 500, next_rand() % 1000);
		if (c == OWN_XATTR) {
			r.len = 1;
			r.lblk = 0;
		}
		ref[i] = r;
		assert_int_equal(frun_push(&v, &r), 0);
	}
	qsort(ref, n, sizeof(*ref), ref_cmp);
	/* the reference dedup: exact duplicates, shared xattr blocks */
	for (i = 0; i < n; i++) {
		struct orun p, q = ref[i];

		if (o) {
			p = ref[o - 1];
			if (orun_start(&p) == orun_start(&q) &&
			    p.len == q.len && p.cls == q.cls &&
			    (q.cls == OWN_XATTR || p.ino == q.ino))
				continue;
		}
		ref[o++] = ref[i];
	}
	frun_sort(&v);
	assert_int_equal(v.n, o);
	for (i = 0; i < o; i++) {
		frun_unpack(&v, &v.v[i], &r);
		if (orun_start(&r) != orun_start(&ref[i]) ||
		    r.len != ref[i].len || r.cls != ref[i].cls ||
		    r.ino != ref[i].ino || r.lblk != ref[i].lblk)
			fail_msg("n=%zu base=%llu: run %zu differs", n,
				 (unsigned long long)base, i);
	}
	for (i = 0; i + 1 < o; i++)
		assert_true(frun_start(&v.v[i]) <= frun_start(&v.v[i + 1]));
	if (o) {
		blk64_t pos = frun_start(&v.v[o / 2]), p2;
		int k;

		/* the first run over pos: every one before it ends by pos
		 * (with overlapping runs, not always the last to start) */
		for (k = 0; k < 2; k++) {
			p2 = pos + (blk64_t)k * 17;
			i = frun_find(&v, p2);
			assert_true(i <= o);
			if (i < o && frun_start(&v.v[i]) <= p2)
				assert_true(frun_end(&v.v[i]) > p2);
			else
				assert_true(i == o || frun_start(&v.v[i]) > p2);
			while (i-- > 0)
				assert_true(frun_end(&v.v[i]) <= p2);
		}
		if (!v.overlap) {	/* then the last run starting there */
			i = frun_find(&v, pos);
			assert_true(frun_start(&v.v[i]) == pos);
			assert_true(i + 1 == o ||
				    frun_start(&v.v[i + 1]) > pos);
		}
	}
	free(ref);
	free(v.v);
	free(v.lx);
}

static void t_sort(void **state)
{
	(void)state;
	sort_case(0, 0, 1, 0, 0);
	sort_case(1, 5, 1, 0, 0);
	sort_case(31, 100, 50, 0, 0);
	sort_case(5000, 0, 1ULL << 20, 0, 0);
	sort_case(20000, 1ULL << 40, 1ULL << 43, 0, 0);
	sort_case(20000, (1ULL << 44) - (1ULL << 33), 1ULL << 33, 1, 0);
	sort_case(3000, 7, 3, 1, 0);	/* almost all starts equal */
	/* almost sorted (the scan's usual order): a few out of place, then
	 * more and more of them, up to too many for the side buffer */
	sort_case(100, 0, 1000, 0, 1000);
	sort_case(50000, 0, 1ULL << 24, 0, 1000);
	sort_case(50000, 1ULL << 30, 1ULL << 24, 0, 300);
	sort_case(50000, 0, 1ULL << 24, 0, 50);
	sort_case(50000, 0, 1ULL << 24, 0, 12);
	sort_case(50000, 0, 1ULL << 24, 0, 4);
	sort_case(50000, 0, 40000, 0, 3);
}

/* orun_find on n metadata runs against a look at every run: the first run
 * over pos, every one before it ending by pos, else the first after pos.
 * long_every: one run in that many is long (a group's inode table, a
 * journal) and the runs after it start inside it (a damaged image's
 * bitmap placed in another group's inode table). */
static void meta_find_case(size_t n, blk64_t span, unsigned long_every)
{
	struct orun_vec v = {0};
	struct orun r;
	blk64_t pos, end = 0;
	size_t i, k, want;
	int overlap = 0;

	for (i = 0; i < n; i++) {
		blk64_t len = 1 + next_rand() % 4;

		if (long_every && next_rand() % long_every == 0)
			len = 1 + next_rand() % (span / 4 + 1);
		mkrun(&r, next_rand() % span, len, OWN_BBITMAP + next_rand() % 3,
		      next_rand() % 100, 0);
		assert_int_equal(orun_push(&v, &r), 0);
	}
	orun_sort(&v);
	assert_int_equal(orun_index(&v), 0);
	for (i = 0; i < v.n; i++) {
		if (orun_start(&v.v[i]) < end)
			overlap = 1;
		if (orun_end(&v.v[i]) > end)
			end = orun_end(&v.v[i]);
	}
	for (k = 0; k < 4 * n + 8; k++) {
		pos = span < 4 * n && k < span + 8 ? k
						   : next_rand() % (span + 8);
		for (want = 0; want < v.n; want++)
			if (orun_end(&v.v[want]) > pos)
				break;
		i = orun_find(&v, pos);
		if (i != want)
			fail_msg("n=%zu span=%llu pos=%llu: run %zu, not %zu", n,
				 (unsigned long long)span,
				 (unsigned long long)pos, i, want);
	}
	assert_int_equal(v.maxend != NULL, overlap);
	free(v.v);
	free(v.maxend);
}

static void t_meta_find(void **state)
{
	struct orun_vec v = {0};
	struct orun r;

	(void)state;
	/* group 0's inode table 5-20, group 2's block bitmap moved to 10:
	 * blocks 11-20 are still the inode table's */
	mkrun(&r, 3, 1, OWN_BBITMAP, 0, 0);
	assert_int_equal(orun_push(&v, &r), 0);
	mkrun(&r, 5, 16, OWN_ITABLE, 0, 0);
	assert_int_equal(orun_push(&v, &r), 0);
	mkrun(&r, 10, 1, OWN_BBITMAP, 2, 0);
	assert_int_equal(orun_push(&v, &r), 0);
	mkrun(&r, 2050, 1, OWN_IBITMAP, 2, 0);
	assert_int_equal(orun_push(&v, &r), 0);
	orun_sort(&v);
	assert_int_equal(orun_index(&v), 0);
	assert_int_equal(orun_start(&v.v[orun_find(&v, 10)]), 5);
	assert_int_equal(orun_start(&v.v[orun_find(&v, 12)]), 5);
	assert_int_equal(orun_start(&v.v[orun_find(&v, 20)]), 5);
	assert_int_equal(orun_start(&v.v[orun_find(&v, 21)]), 2050);
	assert_int_equal(orun_find(&v, 2051), 4);
	assert_non_null(v.maxend);
	free(v.v);
	free(v.maxend);
	/* disjoint runs keep no ends; overlapping ones, short and long */
	meta_find_case(1, 10, 0);
	meta_find_case(200, 100000, 0);
	meta_find_case(300, 400, 0);
	meta_find_case(2000, 50000, 20);
	meta_find_case(2000, 5000, 3);
}

static void t_top(void **state)
{
	struct owner_index idx;
	struct owner_filefrag *all, f;
	size_t n = 5000, k, i, j;

	(void)state;
	all = calloc(n, sizeof(*all));
	assert_non_null(all);
	for (k = 1; k <= 1200; k = k * 7 + 3) {
		memset(&idx, 0, sizeof(idx));
		idx.topmax = k;
		for (i = 0; i < n; i++) {
			f.ino = 11 + i;
			f.ideal = 1 + next_rand() % 3;
			f.extents = f.ideal + 1 + next_rand() % 20;
			f.blocks = next_rand() % 64;
			all[i] = f;
			assert_int_equal(owner_top_offer(&idx, &f), 0);
		}
		owner_top_trim(&idx);
		assert_int_equal(idx.nfrag, k < n ? k : n);
		for (i = 1; i < n; i++)	/* insertion sort, worst first */
			for (j = i; j && owner_worse(&all[j], &all[j - 1]) < 0;
			     j--) {
				f = all[j];
				all[j] = all[j - 1];
				all[j - 1] = f;
			}
		/* the kept set is exactly the k worst */
		for (i = 0; i < idx.nfrag; i++) {
			for (j = 0; j < idx.nfrag; j++)
				if (idx.frag[j].ino == all[i].ino)
					break;
			if (j == idx.nfrag)
				fail_msg("top %zu: the %zu-th worst is missing",
					 k, i);
		}
		free(idx.frag);
	}
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_pack),
		cmocka_unit_test(t_sort),
		cmocka_unit_test(t_meta_find),
		cmocka_unit_test(t_top),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
