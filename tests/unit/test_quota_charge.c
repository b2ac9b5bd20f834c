/* test_quota_charge.c - which inodes quota counts and under which ids, the
 * charge of a plan's blocks to the quota files (e2fsck -fn agrees with it,
 * a refusal writes nothing, grace times start and stop) and the plan-time
 * check that refuses a plan whose charge cannot be made. */
#include "quota_fixture.h"
#include "e2l_err.h"
#include "plan.h"
#include "quota_update.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Which inodes quota counts, and under which ids. */
static void test_counts(void **state)
{
	ext2_filsys fs = qfx_open(qfx_img("q4k"), 0);
	struct ext2_inode_large in;

	(void)state;
	memset(&in, 0, sizeof(in));
	assert_true(quota_counts(fs, EXT2_ROOT_INO, &in));
	assert_false(quota_counts(fs, EXT2_JOURNAL_INO, &in));
	assert_false(quota_counts(fs, EXT2_RESIZE_INO, &in));
	assert_false(quota_counts(fs, 3, &in));
	assert_true(quota_counts(fs, EXT2_FIRST_INODE(fs->super), &in));
	assert_true(fs->super->s_prj_quota_inum >= EXT2_FIRST_INODE(fs->super));
	assert_false(quota_counts(fs, fs->super->s_prj_quota_inum, &in));
	in.i_flags = EXT4_EA_INODE_FL;
	assert_false(quota_counts(fs, 20, &in));
	in.i_uid = 0x1171;
	in.osd2.linux2.l_i_uid_high = 1;
	in.i_gid = 7;
	in.i_projid = 99;
	assert_int_equal(quota_id(fs, &in, QT_USR), 70001);
	assert_int_equal(quota_id(fs, &in, QT_GRP), 7);
	assert_int_equal(quota_id(fs, &in, QT_PRJ), 0);	/* no room */
	in.i_extra_isize = 32;
	assert_int_equal(quota_id(fs, &in, QT_PRJ), 99);
	ext2fs_close_free(&fs);
}

static ext2_ino_t ino_of(ext2_filsys fs, const char *name)
{
	ext2_ino_t ino = 0;

	assert_int_equal(ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, name,
				      &ino), 0);
	return ino;
}

/* "space inodes" of id per debugfs gq. */
static char *gq(const char *path, const char *type, __u32 id)
{
	return tl_sh("debugfs -R 'gq %s %u' %s 2>/dev/null | awk 'NR == 2 "
		     "{ print $2, $5 }'", type, id, path);
}

static void test_charge(void **state)
{
	struct ext2_inode_large in;
	struct qt_file qf;
	struct qt_rec r;
	char path[128], *out;
	ext2_filsys fs;
	ext2_ino_t ino;
	unsigned char b[QT_BLK];
	__u32 id = qfx_uid(7);
	int found;

	(void)state;
	snprintf(path, sizeof(path), "%s/c.img", qfx_dir);
	free(tl_sh("cp %s %s", qfx_img("q4k"), path));
	fs = qfx_open(path, 1);
	ino = ino_of(fs, "f7");
	assert_int_equal(ext2fs_read_inode_full(fs, ino,
			(struct ext2_inode *)&in, sizeof(in)), 0);
	assert_int_equal(quota_charge(fs, ino, &in, 8192, 1), 0);
	ext2fs_close_free(&fs);
	out = gq(path, "user", id);
	assert_string_equal(out, "8192 2\n");
	free(out);
	out = gq(path, "group", 21);
	assert_string_equal(out, "8192 2\n");
	free(out);
	out = gq(path, "project", qfx_prj(7));
	assert_string_equal(out, "8192 2\n");
	free(out);
	/* e2fsck sees the charge (nothing owns those bytes)... */
	out = tl_sh("e2fsck -fn %s 2>&1 | grep -c 'Usage inconsistent'", path);
	assert_string_equal(out, "3\n");
	free(out);
	/* ...and agrees again once it is taken back */
	fs = qfx_open(path, 1);
	assert_int_equal(quota_charge(fs, ino, &in, -8192, -1), 0);
	/* a reserved inode is not charged at all */
	assert_int_equal(quota_charge(fs, EXT2_JOURNAL_INO, &in, 4096, 0), 0);
	ext2fs_close_free(&fs);
	out = tl_sh("e2fsck -fn %s >/dev/null 2>&1 && echo clean", path);
	assert_string_equal(out, "clean\n");
	free(out);

	/* Refusals write nothing: an id without a record, usage below 0. */
	free(tl_sh("cp %s %s.before", path, path));
	fs = qfx_open(path, 1);
	in.i_uid = 4242;
	in.osd2.linux2.l_i_uid_high = 0;
	assert_int_equal(quota_charge(fs, ino, &in, 4096, 0), E2L_ERR_QUOTA);
	in.i_uid = id & 0xffff;
	in.osd2.linux2.l_i_uid_high = id >> 16;
	assert_int_equal(quota_charge(fs, ino, &in, -4096, 0), E2L_ERR_QUOTA);
	ext2fs_close_free(&fs);
	out = tl_sh("cmp %s %s.before && echo same", path, path);
	assert_string_equal(out, "same\n");
	free(out);

	/* Grace: passing a soft limit starts the clock, going under it
	 * stops it (the limit set by hand: 4 KiB for the user). */
	fs = qfx_open(path, 1);
	assert_int_equal(qt_open(fs, QT_USR, &qf), 0);
	assert_int_equal(qt_find(&qf, id, &r, &found), 0);
	assert_true(found);
	qfx_blk_io(fs, QT_USR, r.blk, b, 0);
	b[QT_DHDR + r.slot * QT_REC + 40] = 4;	/* dqb_bsoftlimit */
	qfx_blk_io(fs, QT_USR, r.blk, b, 1);
	assert_int_equal(quota_charge(fs, ino, &in, 8192, 0), 0);
	assert_int_equal(qt_find(&qf, id, &r, &found), 0);
	assert_int_equal(r.bsoft, 4);
	assert_true(r.btime >= (__u64)time(NULL));
	assert_int_equal(quota_charge(fs, ino, &in, -8192, 0), 0);
	assert_int_equal(qt_find(&qf, id, &r, &found), 0);
	assert_int_equal(r.btime, 0);
	assert_int_equal(r.curspace, 0);
	ext2fs_close_free(&fs);
}

/* The plan-time check: a plan growing a file whose quota file is damaged,
 * and a new file whose owner has no record, are refused with reasons. */
static void test_check_plan(void **state)
{
	struct tsession t;
	struct plan *p;
	char path[128];

	(void)state;
	snprintf(path, sizeof(path), "%s/p.img", qfx_dir);
	free(tl_sh("cp %s %s", qfx_img("q1k"), path));
	p = calloc(1, sizeof(*p));
	assert_non_null(p);
	snprintf(p->kind, sizeof(p->kind), "defrag");
	p->new_meta = 1;	/* one mapping block more */
	tl_open_path(&t, path, SINK_TEXT);
	p->ino = ino_of(t.s.fs, "f5");
	assert_int_equal(quota_check_plan(&t.s, "defrag", p), 0);
	p->ino = EXT2_JOURNAL_INO;	/* not counted: nothing to check */
	assert_int_equal(quota_check_plan(&t.s, "defrag", p), 0);
	p->ino = ino_of(t.s.fs, "f5");
	tl_close(&t);
	qfx_damage(path, D_COUNT, qfx_uid(5));
	tl_open_path(&t, path, SINK_TEXT);
	assert_int_equal(quota_check_plan(&t.s, "defrag", p), E2L_ERR_QUOTA);
	assert_non_null(strstr(t.err.buf, "defrag: The quota files could not "
			       "be updated because the user quota file"));
	assert_non_null(strstr(t.err.buf, "run e2fsck -f"));
	tl_close(&t);

	/* root's and lost+found's uid changed: e2fsck drops user 0's record;
	 * a new file (uid 0) cannot be counted */
	free(tl_sh("cp %s %s && debugfs -w -R 'sif / uid 5' %s >/dev/null "
		   "2>&1 && debugfs -w -R 'sif /lost+found uid 5' %s "
		   ">/dev/null 2>&1 && debugfs -w -R 'sif /data uid 5' %s "
		   ">/dev/null 2>&1; e2fsck -fy %s >/dev/null 2>&1",
		   qfx_img("q1k"), path, path, path, path, path));
	tl_open_path(&t, path, SINK_TEXT);
	p->ino = EXT2_ROOT_INO;
	snprintf(p->create_name, sizeof(p->create_name), "new");
	assert_int_equal(quota_check_plan(&t.s, "prealloc", p),
			 E2L_ERR_QUOTA);
	assert_non_null(strstr(t.err.buf, "no record for id 0, the owner "
			       "the new file would get"));
	tl_close(&t);
	plan_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_charge),
		cmocka_unit_test(test_check_plan),
	};

	e2l_err_init();
	return cmocka_run_group_tests(tests, qfx_setup, qfx_teardown);
}
