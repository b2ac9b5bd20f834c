/* test_quota_tree.c - the quota tree reader (qt_open, qt_check, qt_find)
 * on images made with the real mke2fs and e2fsck: every record found as
 * debugfs lists it; damaged files (magic, version, size, pointers out of
 * range, loops, shared branches, counts, duplicate and unreachable records,
 * unmapped blocks, random garbage) refused without a crash or a write. */
#include "quota_fixture.h"
#include "e2l_err.h"
#include "quota_update.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every record debugfs lists for type is found with its usage, and the
 * walk counts exactly as many. */
static void check_all(const char *name, int type)
{
	ext2_filsys fs = qfx_open(qfx_img(name), 0);
	unsigned long long space, inodes;
	struct qt_file qf;
	struct qt_rec r;
	__u32 nrecs, listed = 0;
	char *out, *line;
	unsigned id;
	int found;

	assert_int_equal(qt_open(fs, type, &qf), 0);
	assert_int_equal(qt_check(&qf, &nrecs), 0);
	out = tl_sh("debugfs -R 'lq %s' %s 2>/dev/null", qt_type_name(type),
		    qfx_img(name));
	for (line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		if (sscanf(line, "%u %llu %*d %*d %llu", &id, &space,
			   &inodes) != 3)
			continue;
		listed++;
		assert_int_equal(qt_find(&qf, id, &r, &found), 0);
		assert_true(found);
		assert_int_equal(r.id, id);
		assert_int_equal(r.curspace, space);
		assert_int_equal(r.curinodes, inodes);
	}
	free(out);
	assert_true(listed > QFX_NFILES);	/* the files and root's id 0 */
	assert_int_equal(nrecs, listed);
	/* an id nobody has */
	assert_int_equal(qt_find(&qf, 4242, &r, &found), 0);
	assert_false(found);
	ext2fs_close_free(&fs);
}

static void test_walk(void **state)
{
	int t;

	(void)state;
	for (t = 0; t < QT_NTYPES; t++) {
		check_all("q1k", t);
		check_all("q4k", t);
	}
}

static const struct {
	const char *why;	/* in qf.why after qt_open or qt_check */
	int at_open;		/* refused by qt_open already */
	const char *find_why;	/* after qt_find of the id (NULL: it finds
				   nothing, without an error) */
} dmg[D_MAX] = {
	[D_MAGIC] = {"bad magic", 1, "bad magic"},
	[D_VERSION] = {"format version 2", 1, "format version 2"},
	[D_NBLOCKS] = {"declares", 1, "declares"},
	[D_RANGE] = {"outside 2..", 0, "outside 2.."},
	[D_ROOTREF] = {"outside 2..", 0, "outside 2.."},
	[D_LOOP] = {"reached twice", 0, "a loop"},
	[D_COUNT] = {"says it holds", 0, "says it holds"},
	[D_DUP] = {"twice", 0, "twice"},
	[D_UNREACHED] = {"does not reach", 0, NULL},
	[D_TREE_AS_DATA] = {"both a tree block and a data block", 0,
			    "points back"},
	[D_UNMAPPED] = {"not mapped", 0, "not mapped"},
};

static void test_damage(void **state)
{
	char path[128], *out;
	struct qt_file qf;
	struct qt_rec r;
	ext2_filsys fs;
	__u32 id = qfx_uid(5);
	int d, found;
	errcode_t err;

	(void)state;
	snprintf(path, sizeof(path), "%s/d.img", qfx_dir);
	for (d = 0; d < D_MAX; d++) {
		free(tl_sh("cp %s %s", qfx_img("q1k"), path));
		fs = qfx_open(path, 0);		/* it walks clean first */
		assert_int_equal(qt_open(fs, QT_USR, &qf), 0);
		assert_int_equal(qt_check(&qf, NULL), 0);
		ext2fs_close_free(&fs);
		qfx_damage(path, d, id);
		fs = qfx_open(path, 0);
		err = qt_open(fs, QT_USR, &qf);
		if (dmg[d].at_open) {
			assert_int_equal(err, E2L_ERR_QUOTA);
		} else {
			assert_int_equal(err, 0);
			assert_int_equal(qt_check(&qf, NULL), E2L_ERR_QUOTA);
		}
		if (!strstr(qf.why, dmg[d].why) ||
		    !strstr(qf.why, "user quota file (inode 3) is damaged"))
			fail_msg("damage %d: %s", d, qf.why);
		if (!dmg[d].at_open) {
			err = qt_find(&qf, id, &r, &found);
			assert_int_equal(err, dmg[d].find_why ?
					 E2L_ERR_QUOTA : 0);
			if (err && !strstr(qf.why, dmg[d].find_why))
				fail_msg("damage %d, find: %s", d, qf.why);
			if (!err)
				assert_false(found);
		}
		/* the other ids' files are untouched */
		assert_int_equal(qt_open(fs, QT_GRP, &qf), 0);
		assert_int_equal(qt_check(&qf, NULL), 0);
		ext2fs_close_free(&fs);
		/* a charge against the damaged file refuses, writing
		 * nothing (the copy keeps its bytes) */
		if (dmg[d].find_why) {
			struct ext2_inode_large in;

			free(tl_sh("cp %s %s.before", path, path));
			fs = qfx_open(path, 1);
			memset(&in, 0, sizeof(in));
			in.i_uid = id & 0xffff;
			in.osd2.linux2.l_i_uid_high = id >> 16;
			in.i_extra_isize = 32;
			assert_int_equal(quota_charge(fs, 20, &in, 4096, 0),
					 E2L_ERR_QUOTA);
			ext2fs_close_free(&fs);
			out = tl_sh("cmp %s %s.before && echo same", path,
				    path);
			assert_string_equal(out, "same\n");
			free(out);
		}
	}
}

/* Random bytes over random quota blocks: every call returns (0, the quota
 * code or a libext2fs code), never crashes (the sanitizer build checks
 * reads), and nothing is ever found outside the file. */
static void test_garbage(void **state)
{
	unsigned char b[QT_BLK];
	char path[128];
	struct qt_file qf;
	struct qt_rec r;
	ext2_filsys fs;
	int round, k, found;
	__u32 nb, q;

	(void)state;
	srand(12);
	snprintf(path, sizeof(path), "%s/g.img", qfx_dir);
	free(tl_sh("cp %s %s", qfx_img("q4k"), path));
	fs = qfx_open(path, 0);
	qfx_blk_io(fs, QT_PRJ, 0, b, 0);
	nb = qfx_get32(b + 20);	/* the blocks it maps (before the damage) */
	ext2fs_close_free(&fs);
	assert_true(nb > 4);
	for (round = 0; round < 150; round++) {
		fs = qfx_open(path, 1);
		q = round % 10 ? 1 + rand() % (nb - 1) : 0;
		qfx_blk_io(fs, QT_PRJ, q, b, 0);
		for (k = 0; k < 1 + rand() % 6; k++)
			b[rand() % (q ? QT_BLK : 24)] = rand();
		qfx_blk_io(fs, QT_PRJ, q, b, 1);
		if (qt_open(fs, QT_PRJ, &qf) == 0) {
			(void)qt_check(&qf, NULL);
			for (k = 1; k <= 8; k++)
				if (qt_find(&qf, qfx_prj(k), &r, &found) == 0 &&
				    found) {
					assert_int_equal(r.id, qfx_prj(k));
					assert_true(r.blk > 1 &&
						    r.blk < qf.nblocks);
				}
		}
		ext2fs_close_free(&fs);
		if (round % 30 == 29)	/* a fresh file now and then */
			free(tl_sh("cp %s %s", qfx_img("q4k"), path));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_garbage),
	};

	e2l_err_init();
	return cmocka_run_group_tests(tests, qfx_setup, qfx_teardown);
}
