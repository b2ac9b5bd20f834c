/* test_fs_readahead.c - the readahead accumulator (fs_readahead.c): ranges
 * that touch or overlap the stretch gathered make one hint, any other
 * starts a new one; no descriptor, nothing at all. */
#include "testlib.h"
#include "fs_readahead.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* a struct_ext2_filsys with the one field fs_ra_use reads */
static ext2_filsys fake_fs(struct struct_ext2_filsys *f)
{
	memset(f, 0, sizeof(*f));
	f->blocksize = 4096;
	return f;
}

static void t_merges_touching(void **state)
{
	struct struct_ext2_filsys f;
	struct fs_ra ra;
	int fd = open("/dev/null", O_RDONLY);

	(void)state;
	assert_true(fd >= 0);
	fs_ra_use(&ra, fake_fs(&f), fd);
	fs_ra_add(&ra, 10, 1);
	fs_ra_add(&ra, 11, 1);		/* touching */
	fs_ra_add(&ra, 11, 3);		/* overlapping, further */
	fs_ra_add(&ra, 12, 1);		/* inside */
	assert_int_equal(ra.hints, 0);
	assert_int_equal(ra.start, 10);
	assert_int_equal(ra.end, 14);
	fs_ra_add(&ra, 15, 2);		/* a gap: the first stretch sent */
	assert_int_equal(ra.hints, 1);
	assert_int_equal(ra.start, 15);
	fs_ra_add(&ra, 3, 1);		/* before: a stretch of its own */
	assert_int_equal(ra.hints, 2);
	fs_ra_add(&ra, 4, 0);		/* empty: nothing */
	assert_int_equal(ra.start, 3);
	assert_int_equal(ra.end, 4);
	fs_ra_flush(&ra);
	assert_int_equal(ra.hints, 3);
	fs_ra_flush(&ra);		/* nothing gathered: no hint */
	assert_int_equal(ra.hints, 3);
	fs_ra_close(&ra);		/* not its descriptor: left open */
	assert_int_equal(close(fd), 0);
}

static void t_no_descriptor(void **state)
{
	struct struct_ext2_filsys f;
	struct fs_ra ra;

	(void)state;
	/* no device: fs_probe_readahead_fd gives none */
	fs_ra_open(&ra, fake_fs(&f), NULL);
	assert_true(ra.fd < 0);
	fs_ra_add(&ra, 10, 5);
	fs_ra_flush(&ra);
	assert_int_equal(ra.hints, 0);
	assert_false(fs_ra_cached(&ra, 10));
	fs_ra_close(&ra);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_merges_touching),
		cmocka_unit_test(t_no_descriptor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
