/* test_jtrans.c - the jbd2 transaction writer and replay (core/jtrans*.c)
 * on a copy of the ext4 test image: every tag format, descriptor blocks
 * that overflow, escaped blocks, revokes, the size bound the editor relies
 * on, and refusals. */
#include "testlib.h"
#include "jtrans.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOME	6000	/* fs blocks 6000.. receive the replayed data */

static ext2_filsys open_copy(char *path)
{
	ext2_filsys fs = NULL;
	char *r;

	snprintf(path, 64, "/tmp/e2l-jtrans-%d.img", (int)getpid());
	r = tl_sh("cp '%s' '%s' && echo ok", tl_image("ext4"), path);
	assert_string_equal(r, "ok\n");
	free(r);
	assert_int_equal(ext2fs_open(path, EXT2_FLAG_RW | EXT2_FLAG_64BITS,
				     0, 0, unix_io_manager, &fs), 0);
	return fs;
}

/* Block i: a pattern, every third one beginning with the jbd2 magic. */
static void fill(size_t i, unsigned char *buf, unsigned bs)
{
	memset(buf, (int)(i * 7 + 1), bs);
	if (i % 3 == 0) {
		buf[0] = 0xc0;
		buf[1] = 0x3b;
		buf[2] = 0x39;
		buf[3] = 0x98;
	}
}

static errcode_t data_fn(void *ctx, size_t i, unsigned char *buf)
{
	fill(i, buf, *(unsigned *)ctx);
	return 0;
}

static void one_format(ext2_filsys fs, __u32 incompat, __u32 compat,
		       size_t n)
{
	struct jt_journal j;
	struct jt_tx t;
	struct timeval tv = { 1700000000, 5 };
	unsigned bs = fs->blocksize;
	unsigned char *want = malloc(bs), *got = malloc(bs);
	blk64_t *list = calloc(n, sizeof(*list));
	unsigned long replayed;
	size_t i;

	assert_non_null(want);
	assert_non_null(got);
	assert_non_null(list);
	assert_int_equal(jt_open_inode(fs, &j), 0);
	j.incompat = incompat | E2L_JFEAT_INCOMPAT_REVOKE;
	j.compat = compat;
	j.sb[0x50] = E2L_JBD2_CRC32C_CHKSUM;	/* as journal_open -c sets */
	jt_reseed(&j);
	for (i = 0; i < n; i++)
		list[i] = HOME + i;
	jt_tx_begin(&t, &j, j.sequence, j.first, 0);
	assert_int_equal(jt_tx_blocks(&t, list, n, data_fn, &bs), 0);
	assert_int_equal(jt_tx_commit(&t, &tv), 0);
	/* the editor checks room with this bound */
	assert_true(t.block - t.start <= jt_tx_size(&j, n));
	j.start = j.first;
	assert_int_equal(jt_write_sb(&j), 0);
	assert_int_equal(jt_recover(&j, &replayed), 0);
	assert_int_equal(replayed, n);
	assert_int_equal(j.start, 0);
	assert_int_equal(j.failed_commit, 0);
	for (i = 0; i < n; i++) {
		fill(i, want, bs);
		assert_int_equal(io_channel_read_blk64(fs->io, HOME + i, 1,
						       got), 0);
		assert_memory_equal(want, got, bs);
	}
	jt_close(&j);
	free(list);
	free(want);
	free(got);
}

static void test_formats(void **state)
{
	static const __u32 inc[] = {
		0, E2L_JFEAT_INCOMPAT_64BIT, E2L_JFEAT_INCOMPAT_CSUM_V2,
		E2L_JFEAT_INCOMPAT_CSUM_V2 | E2L_JFEAT_INCOMPAT_64BIT,
		E2L_JFEAT_INCOMPAT_CSUM_V3,
		E2L_JFEAT_INCOMPAT_CSUM_V3 | E2L_JFEAT_INCOMPAT_64BIT,
	};
	static const size_t sizes[] = { 1, 3, 254, 255, 600 };
	char path[64];
	ext2_filsys fs = open_copy(path);
	size_t a, b;

	(void)state;
	for (a = 0; a < sizeof(inc) / sizeof(inc[0]); a++)
		for (b = 0; b < sizeof(sizes) / sizeof(sizes[0]); b++)
			one_format(fs, inc[a], 0, sizes[b]);
	one_format(fs, 0, E2L_JFEAT_COMPAT_CHECKSUM, 300);	/* v1 */
	ext2fs_close_free(&fs);
	unlink(path);
}

static void test_revoke(void **state)
{
	char path[64];
	ext2_filsys fs = open_copy(path);
	struct jt_journal j;
	struct jt_tx t;
	struct timeval tv = { 1700000000, 0 };
	unsigned bs = fs->blocksize;
	blk64_t list[2] = { HOME, HOME + 1 }, rev = HOME + 1;
	unsigned char *old = malloc(bs), *got = malloc(bs);
	unsigned long replayed;
	__u32 seq;

	(void)state;
	assert_int_equal(io_channel_read_blk64(fs->io, HOME + 1, 1, old), 0);
	assert_int_equal(jt_open_inode(fs, &j), 0);
	j.incompat |= E2L_JFEAT_INCOMPAT_REVOKE;
	seq = j.sequence;
	jt_tx_begin(&t, &j, seq, j.first, 0);
	assert_int_equal(jt_tx_blocks(&t, list, 2, data_fn, &bs), 0);
	assert_int_equal(jt_tx_commit(&t, &tv), 0);
	jt_tx_begin(&t, &j, seq + 1, t.block, 0);
	assert_int_equal(jt_tx_revokes(&t, &rev, 1), 0);
	assert_int_equal(jt_tx_commit(&t, &tv), 0);
	j.start = j.first;
	assert_int_equal(jt_write_sb(&j), 0);
	assert_int_equal(jt_recover(&j, &replayed), 0);
	assert_int_equal(replayed, 1);
	assert_int_equal(j.sequence, seq + 3);
	assert_int_equal(io_channel_read_blk64(fs->io, HOME + 1, 1, got), 0);
	assert_memory_equal(old, got, bs);
	/* a block past the filesystem is refused */
	list[0] = ext2fs_blocks_count(fs->super);
	jt_tx_begin(&t, &j, j.sequence, j.first, 0);
	assert_int_equal(jt_tx_blocks(&t, list, 1, data_fn, &bs),
			 EXT2_ET_BAD_BLOCK_NUM);
	assert_int_equal(jt_tx_revokes(&t, list, 1), EXT2_ET_BAD_BLOCK_NUM);
	jt_close(&j);
	/* a journal whose block 0 is no journal superblock */
	{
		struct e2l_jextent r = { 0, 1, 2000 };

		assert_int_not_equal(jt_open(fs, &r, 1, &j), 0);
	}
	free(old);
	free(got);
	ext2fs_close_free(&fs);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_revoke),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
