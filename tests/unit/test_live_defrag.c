/* test_live_defrag.c - the pure parts of live defrag: SHA-256 against the
 * FIPS 180-4 example digests (fed in awkward pieces), and how FIEMAP lists
 * are counted in physically contiguous runs. */
#include "testlib.h"
#include "live_defrag.h"
#include "sha256.h"

#include <stdlib.h>
#include <string.h>

static void digest(const char *data, size_t len, size_t piece, char hex[65])
{
	struct sha256 c;
	unsigned char d[32];
	size_t off, n;

	assert_int_equal(sha256_init(&c), 0);
	for (off = 0; off < len; off += n) {
		n = len - off < piece ? len - off : piece;
		sha256_update(&c, data + off, n);
	}
	assert_int_equal(sha256_final(&c, d), 0);
	sha256_hex(d, hex);
}

static void test_sha256(void **state)
{
	static const size_t pieces[] = {1, 3, 55, 56, 63, 64, 65, 1000};
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnop"
			  "nopq";
	char hex[65], *mil;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pieces) / sizeof(pieces[0]); i++) {
		digest("", 0, pieces[i], hex);
		assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb924"
				    "27ae41e4649b934ca495991b7852b855");
		digest("abc", 3, pieces[i], hex);
		assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223"
				    "b00361a396177a9cb410ff61f20015ad");
		digest(two, strlen(two), pieces[i], hex);
		assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039"
				    "a33ce45964ff2167f6ecedd419db06c1");
	}
	mil = malloc(1000000);
	assert_non_null(mil);
	memset(mil, 'a', 1000000);
	digest(mil, 1000000, 4093, hex);
	assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			    "f1809a48a497200e046d39ccc7112cd0");
	free(mil);
	/* the probe a live move makes before its first move */
	assert_int_equal(sha256_check(), 0);
}

static void test_runs(void **state)
{
	/* logical, physical, length (bytes) */
	const struct live_extent e[] = {
		{0, 4096, 8192, 0},		/* run 1 */
		{8192, 12288, 4096, 0},		/* continues it */
		{12288, 40960, 4096, 0},	/* run 2: elsewhere */
		{20480, 45056, 4096, 0},	/* run 3: after a hole */
		{24576, 49152, 4096, 1},	/* continues run 3 */
	};

	(void)state;
	assert_int_equal(ldf_runs(e, 0), 0);
	assert_int_equal(ldf_runs(e, 1), 1);
	assert_int_equal(ldf_runs(e, 2), 1);
	assert_int_equal(ldf_runs(e, 3), 2);
	assert_int_equal(ldf_runs(e, 5), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256),
		cmocka_unit_test(test_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
