/* test_uchar.c - the prompt's UTF-8 helpers on hostile bytes: invalid and
 * cut sequences are never taken as characters, the cursor steps keep a
 * combining mark with its base, widths follow wcwidth (CJK 2, marks 0), and
 * a common prefix is trimmed to a whole character. */
#include "testlib.h"
#include "uchar.h"

#include <locale.h>
#include <string.h>

#include "uchar.c"

static int setup(void **state)
{
	(void)state;
	return setlocale(LC_ALL, "C.UTF-8") ? 0 : -1;
}

static void test_decode_refuses(void **state)
{
	static const char *const bad[] = {
		"\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x80\x80",
		"\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
		"\xc3", "\xe6\xbc", "\xc3\x41", "\xff",
	};
	unsigned cp = 0;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(uc_decode(bad[i], strlen(bad[i]), &cp), 0);
	assert_int_equal(uc_decode("\xc3\xa4", 2, &cp), 2);
	assert_int_equal(cp, 0xe4);
	assert_int_equal(uc_decode("\xe6\xbc\xa2", 3, &cp), 3);
	assert_int_equal(cp, 0x6f22);
	assert_int_equal(uc_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
	assert_int_equal(cp, 0x1f600);
	/* the bytes are there but n says they are not */
	assert_int_equal(uc_decode("\xc3\xa4", 1, &cp), 0);
}

static void test_steps_and_width(void **state)
{
	/* a, e + U+0301, 漢, z */
	const char *s = "ae\xcc\x81\xe6\xbc\xa2z";
	int len = (int)strlen(s);

	(void)state;
	assert_int_equal(uc_next(s, len, 0, 1), 1);
	assert_int_equal(uc_next(s, len, 1, 1), 4);	/* é whole */
	assert_int_equal(uc_next(s, len, 4, 1), 7);
	assert_int_equal(uc_next(s, len, 7, 1), 8);
	assert_int_equal(uc_prev(s, len, 8, 1), 7);
	assert_int_equal(uc_prev(s, len, 7, 1), 4);
	assert_int_equal(uc_prev(s, len, 4, 1), 1);
	assert_int_equal(uc_prev(s, len, 1, 1), 0);
	assert_int_equal(uc_width(s, 0, len, 1), 5);	/* 1 + 1 + 2 + 1 */
	/* without UTF-8 every byte is a character */
	assert_int_equal(uc_next(s, len, 1, 0), 2);
	assert_int_equal(uc_width(s, 0, len, 0), len);
	/* a stray byte is a character of its own, width 1 */
	assert_int_equal(uc_next("\xa4x", 2, 0, 1), 1);
	assert_int_equal(uc_width("\xa4x", 0, 2, 1), 2);
}

static void test_trim(void **state)
{
	(void)state;
	/* "xö" and "xü" share x and 0xC3: the prefix is x */
	assert_int_equal(uc_trim("x\xc3\xb6" "a", 2, 1), 1);
	assert_int_equal(uc_trim("x\xc3\xb6" "a", 3, 1), 3);
	assert_int_equal(uc_trim("\xe6\xbc\xa2", 2, 1), 0);
	assert_int_equal(uc_trim("\xe6\xbc\xa2", 2, 0), 2);
	/* a bad byte counts on its own */
	assert_int_equal(uc_trim("\xff" "a", 1, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decode_refuses),
		cmocka_unit_test(test_steps_and_width),
		cmocka_unit_test(test_trim),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
