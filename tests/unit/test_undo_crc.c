/* test_undo_crc.c - the undo writer's crc32c (SSE4.2 where the CPU has it)
 * gives ext2fs_crc32c_le's value, which e2undo checks every key block and
 * saved block against: at every length 0-300 and alignment 0-7, from the
 * seed ~0 and from others (a crc continued over a second buffer), and over
 * a block of 2 MiB (the longest key); and around the three-lane path's
 * edges (three lanes of 4096 bytes, joined), at every alignment. */
#include "testlib.h"
#include "crc32c_fast.h"

#include <stdlib.h>
#include <string.h>

static unsigned char *random_buf(size_t n, unsigned int seed)
{
	unsigned char *p = malloc(n);
	size_t i;

	assert_non_null(p);
	for (i = 0; i < n; i++) {
		seed = seed * 1103515245U + 12345U;
		p[i] = (unsigned char)(seed >> 16);
	}
	return p;
}

static void test_lengths(void **state)
{
	unsigned char *b = random_buf(320, 7);
	size_t len, al;

	(void)state;
	for (al = 0; al < 8; al++)
		for (len = 0; len <= 300; len++)
			assert_int_equal(crc32c_fast(~0U, b + al, len),
					 ext2fs_crc32c_le(~0U, b + al, len));
	free(b);
}

static void test_seeds(void **state)
{
	static const __u32 seeds[] = { 0, 1, 0x12345678U, 0xdeadbeefU };
	unsigned char *b = random_buf(4096, 11);
	__u32 whole;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		assert_int_equal(crc32c_fast(seeds[i], b, 4096),
				 ext2fs_crc32c_le(seeds[i], b, 4096));
	/* continued: the same as over the whole */
	whole = ext2fs_crc32c_le(~0U, b, 4096);
	assert_int_equal(crc32c_fast(crc32c_fast(~0U, b, 1000), b + 1000,
				     3096), whole);
	free(b);
}

static void test_long(void **state)
{
	size_t n = 2U << 20;
	unsigned char *b = random_buf(n, 3);

	(void)state;
	assert_int_equal(crc32c_fast(~0U, b, n), ext2fs_crc32c_le(~0U, b, n));
	memset(b, 0, n);
	assert_int_equal(crc32c_fast(~0U, b, n), ext2fs_crc32c_le(~0U, b, n));
	free(b);
}

static void test_lanes(void **state)
{
	static const size_t lens[] = { 3 * 4096 - 1, 3 * 4096, 3 * 4096 + 1,
				       3 * 4096 + 7, 6 * 4096, 6 * 4096 + 4095,
				       9 * 4096 + 13 };
	unsigned char *b = random_buf(9 * 4096 + 64, 5);
	size_t i, al;

	(void)state;
	for (al = 0; al < 8; al++)
		for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
			assert_int_equal(crc32c_fast(~0U, b + al, lens[i]),
					 ext2fs_crc32c_le(~0U, b + al, lens[i]));
			assert_int_equal(crc32c_fast(0x9e3779b9U, b + al,
						     lens[i]),
					 ext2fs_crc32c_le(0x9e3779b9U, b + al,
							  lens[i]));
		}
	/* one bit flipped in each lane changes the sum as the table does */
	for (i = 0; i < 3; i++) {
		b[i * 4096 + 100] ^= 0x10;
		assert_int_equal(crc32c_fast(~0U, b, 3 * 4096),
				 ext2fs_crc32c_le(~0U, b, 3 * 4096));
	}
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lengths),
		cmocka_unit_test(test_seeds),
		cmocka_unit_test(test_long),
		cmocka_unit_test(test_lanes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
