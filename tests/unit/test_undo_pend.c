/* test_undo_pend.c - the undo layer's held writes (undo_pend.c): which
 * reads and direct writes overlap them (those drain them first, so that a
 * block's writes reach the device in their order and a read finds the
 * held bytes), a hole between two held writes that overlaps neither, the
 * size rule of libext2fs's counts, and the bound that forces a drain. */
#include "testlib.h"
#include "undo_pend.h"

#include <string.h>

static struct struct_io_channel ch4k = {.block_size = 4096};

static void test_bytes(void **state)
{
	(void)state;
	assert_true(uw_bytes(&ch4k, 3) == 3 * 4096ULL);
	assert_true(uw_bytes(&ch4k, -1024) == 1024ULL);	/* bytes */
	assert_true(uw_pend_holds(&ch4k, 16));		/* 64 KiB */
	assert_false(uw_pend_holds(&ch4k, 17));
	assert_true(uw_pend_holds(&ch4k, -(int)UW_PEND_LEN));
	assert_false(uw_pend_holds(&ch4k, -(int)UW_PEND_LEN - 1));
}

static void test_overlap(void **state)
{
	static unsigned char buf[4096];
	struct uw_pend p;

	(void)state;
	memset(&p, 0, sizeof(p));
	assert_false(uw_pend_over(&p, 0, 1ULL << 40));	/* none held */
	/* blocks 10 and 20 held: bytes [40960, 45056) and [81920, 86016) */
	assert_int_equal(uw_pend_add(&p, &ch4k, 10, 1, buf), 0);
	assert_int_equal(uw_pend_add(&p, &ch4k, 20, 1, buf), 0);
	assert_true(p.lo == 40960 && p.hi == 86016);
	assert_false(uw_pend_over(&p, 36864, 4096));	/* ends where it starts */
	assert_true(uw_pend_over(&p, 36865, 4096));	/* one byte in */
	assert_true(uw_pend_over(&p, 45055, 1));	/* its last byte */
	assert_false(uw_pend_over(&p, 45056, 4096));	/* just after */
	/* inside what they span, between them: neither */
	assert_false(uw_pend_over(&p, 49152, 32768));
	assert_true(uw_pend_over(&p, 49152, 32769));	/* reaches block 20 */
	assert_true(uw_pend_over(&p, 0, 1ULL << 30));	/* covers both */
	assert_false(uw_pend_over(&p, 86016, 4096));
	assert_false(uw_pend_full(&p));
	uw_pend_free(&p);
	assert_false(uw_pend_over(&p, 40960, 4096));	/* freed: none */
}

static void test_full(void **state)
{
	static unsigned char buf[UW_PEND_LEN];
	struct uw_pend p;
	unsigned i, n = UW_PEND_MAX / UW_PEND_LEN;

	(void)state;
	memset(&p, 0, sizeof(p));
	for (i = 0; i + 1 < n; i++) {
		assert_int_equal(uw_pend_add(&p, &ch4k, i * 16ULL, 16, buf), 0);
		assert_false(uw_pend_full(&p));
	}
	assert_int_equal(uw_pend_add(&p, &ch4k, i * 16ULL, 16, buf), 0);
	assert_true(uw_pend_full(&p));			/* 8 MiB held */
	assert_true(p.n == n && p.bytes == UW_PEND_MAX);
	uw_pend_free(&p);
	assert_true(p.n == 0 && p.bytes == 0 && !p.v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
