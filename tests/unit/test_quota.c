/* test_quota.c - the quota tree reader and the charge, on images made with
 * the real mke2fs (quota files written by the real e2fsck): every record
 * found as debugfs lists it, damaged files (magic, version, size, pointers
 * out of range, loops, shared branches, counts, duplicate and unreachable
 * records, unmapped blocks, random garbage) refused without a crash or a
 * write, and charges that e2fsck -fn then agrees with. */
#include "testlib.h"
#include "e2l_err.h"
#include "plan.h"
#include "quota_tree.h"
#include "quota_update.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NFILES	120	/* ids: 9 data blocks, several tree branches */

static char dir[64];

/* uid/gid/project of file fN, spread over every byte of the id. */
static __u32 uid_of(int i)
{
	return i * 70001U;
}

static __u32 prj_of(int i)
{
	return i * 16777259U;
}

/* Makes NAME.img with block size bs: NFILES empty files with their own
 * owners, the quota files rebuilt by e2fsck -fy. */
static void mkimg(const char *name, int bs)
{
	char *out, script[96];
	FILE *f;
	int i;

	snprintf(script, sizeof(script), "%s/setup", dir);
	f = fopen(script, "w");
	assert_non_null(f);
	for (i = 1; i <= NFILES; i++)
		fprintf(f, "write /dev/null f%d\nsif f%d uid %u\n"
			"sif f%d gid %u\nsif f%d projid %u\n", i, i, uid_of(i),
			i, i * 3, i, prj_of(i));
	fprintf(f, "write /etc/services data\n");	/* some blocks */
	fclose(f);
	out = tl_sh("cd %s && mke2fs -q -F -t ext4 -b %d -I 256 -N 512 "
		    "-O quota,project -E quotatype=usrquota:grpquota:prjquota "
		    "%s.img 8M >/dev/null 2>&1 && debugfs -w -f setup %s.img "
		    ">/dev/null 2>&1; e2fsck -fy %s.img >/dev/null 2>&1; "
		    "e2fsck -fn %s.img >/dev/null 2>&1 && echo clean",
		    dir, bs, name, name, name, name);
	assert_string_equal(out, "clean\n");
	free(out);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/e2l-quota-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	mkimg("q1k", 1024);
	mkimg("q4k", 4096);
	return 0;
}

static int teardown(void **state)
{
	char *out;

	(void)state;
	out = tl_sh("rm -rf %s", dir);
	free(out);
	return 0;
}

static const char *img(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s.img", dir, name);
	return path;
}

static ext2_filsys open_fs(const char *path, int rw)
{
	ext2_filsys fs = NULL;

	assert_int_equal(ext2fs_open(path, (rw ? EXT2_FLAG_RW : 0) |
				     EXT2_FLAG_64BITS, 0, 0, unix_io_manager,
				     &fs), 0);
	return fs;
}

/* Every record debugfs lists for type is found with its usage, and the
 * walk counts exactly as many. */
static void check_all(const char *name, int type)
{
	ext2_filsys fs = open_fs(img(name), 0);
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
		    img(name));
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
	assert_true(listed > NFILES);	/* the files and root's id 0 */
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

/* Reads (or writes) quota block q of the type's file on an open fs. */
static void qblk_io(ext2_filsys fs, int type, __u32 q, unsigned char *b,
		    int wr)
{
	ext2_ino_t ino = qt_inum(fs->super, type);
	unsigned char *buf = malloc(fs->blocksize);
	blk64_t pblk = 0;
	unsigned off = q * QT_BLK % fs->blocksize;

	assert_non_null(buf);
	assert_int_equal(ext2fs_bmap2(fs, ino, NULL, NULL, 0,
				      (blk64_t)q * QT_BLK / fs->blocksize,
				      NULL, &pblk), 0);
	assert_true(pblk != 0);
	assert_int_equal(io_channel_read_blk64(fs->io, pblk, 1, buf), 0);
	if (wr) {
		memcpy(buf + off, b, QT_BLK);
		assert_int_equal(io_channel_write_blk64(fs->io, pblk, 1, buf),
				 0);
	} else {
		memcpy(b, buf + off, QT_BLK);
	}
	free(buf);
}

static __u32 get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

static void put32(unsigned char *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* The quota blocks on id's path: path[0] the root .. path[4] its data. */
static void path_of(ext2_filsys fs, int type, __u32 id, __u32 path[5])
{
	unsigned char b[QT_BLK];
	int d;

	path[0] = 1;
	for (d = 0; d < 4; d++) {
		qblk_io(fs, type, path[d], b, 0);
		path[d + 1] = get32(b + ((id >> ((3 - d) * 8)) & 0xff) * 4);
		assert_true(path[d + 1] > 1);
	}
}

enum damage {
	D_MAGIC, D_VERSION, D_NBLOCKS, D_RANGE, D_ROOTREF, D_LOOP, D_COUNT,
	D_DUP, D_UNREACHED, D_TREE_AS_DATA, D_UNMAPPED, D_MAX
};

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

/* Damages a copy of q1k's user quota file on id's path. */
static void damage(const char *path, enum damage d, __u32 id)
{
	ext2_filsys fs = open_fs(path, 1);
	unsigned char b[QT_BLK];
	struct ext2_inode inode;
	__u32 p[5], nb;

	path_of(fs, QT_USR, id, p);
	qblk_io(fs, QT_USR, 0, b, 0);
	nb = get32(b + 20);
	switch (d) {
	case D_MAGIC:
		put32(b, 0xdeadbeef);
		qblk_io(fs, QT_USR, 0, b, 1);
		break;
	case D_VERSION:
		put32(b + 4, 2);
		qblk_io(fs, QT_USR, 0, b, 1);
		break;
	case D_NBLOCKS:
		put32(b + 20, 0x7fffffff);
		qblk_io(fs, QT_USR, 0, b, 1);
		break;
	case D_UNMAPPED:
		/* a file that claims 8 more blocks than it maps, the root
		 * pointing into them */
		assert_int_equal(ext2fs_read_inode(fs, qt_inum(fs->super,
					QT_USR), &inode), 0);
		inode.i_size += 8 * QT_BLK;
		assert_int_equal(ext2fs_write_inode(fs, qt_inum(fs->super,
					QT_USR), &inode), 0);
		put32(b + 20, nb + 8);
		qblk_io(fs, QT_USR, 0, b, 1);
		qblk_io(fs, QT_USR, 1, b, 0);
		put32(b + ((id >> 24) & 0xff) * 4, nb + 4);
		qblk_io(fs, QT_USR, 1, b, 1);
		break;
	case D_RANGE:
		qblk_io(fs, QT_USR, p[1], b, 0);
		put32(b + ((id >> 16) & 0xff) * 4, nb + 5);
		qblk_io(fs, QT_USR, p[1], b, 1);
		break;
	case D_ROOTREF:
		qblk_io(fs, QT_USR, p[2], b, 0);
		put32(b + ((id >> 8) & 0xff) * 4, 1);
		qblk_io(fs, QT_USR, p[2], b, 1);
		break;
	case D_LOOP:		/* depth 2 points back at depth 1 */
		qblk_io(fs, QT_USR, p[2], b, 0);
		put32(b + ((id >> 8) & 0xff) * 4, p[1]);
		qblk_io(fs, QT_USR, p[2], b, 1);
		break;
	case D_TREE_AS_DATA:	/* depth 3 names a tree block as data */
		qblk_io(fs, QT_USR, p[3], b, 0);
		put32(b + (id & 0xff) * 4, p[2]);
		qblk_io(fs, QT_USR, p[3], b, 1);
		break;
	case D_UNREACHED:	/* the record stays, its pointer goes */
		qblk_io(fs, QT_USR, p[3], b, 0);
		put32(b + (id & 0xff) * 4, 0);
		qblk_io(fs, QT_USR, p[3], b, 1);
		break;
	case D_COUNT:
		qblk_io(fs, QT_USR, p[4], b, 0);
		b[8]++;
		qblk_io(fs, QT_USR, p[4], b, 1);
		break;
	case D_DUP: {		/* another record takes id's id */
		int i, mine = -1, other = -1;

		qblk_io(fs, QT_USR, p[4], b, 0);
		for (i = 0; i < QT_PER_BLK; i++) {
			__u32 rid = get32(b + QT_DHDR + i * QT_REC);

			if (rid == id)
				mine = i;
			else if (rid && other < 0)
				other = i;
		}
		assert_true(mine >= 0 && other >= 0);
		put32(b + QT_DHDR + other * QT_REC, id);
		qblk_io(fs, QT_USR, p[4], b, 1);
		break;
	}
	case D_MAX:
		break;
	}
	ext2fs_close_free(&fs);
}

static void test_damage(void **state)
{
	char path[128], *out;
	struct qt_file qf;
	struct qt_rec r;
	ext2_filsys fs;
	__u32 id = uid_of(5);
	int d, found;
	errcode_t err;

	(void)state;
	snprintf(path, sizeof(path), "%s/d.img", dir);
	for (d = 0; d < D_MAX; d++) {
		free(tl_sh("cp %s %s", img("q1k"), path));
		fs = open_fs(path, 0);		/* it walks clean first */
		assert_int_equal(qt_open(fs, QT_USR, &qf), 0);
		assert_int_equal(qt_check(&qf, NULL), 0);
		ext2fs_close_free(&fs);
		damage(path, d, id);
		fs = open_fs(path, 0);
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
			fs = open_fs(path, 1);
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
	snprintf(path, sizeof(path), "%s/g.img", dir);
	free(tl_sh("cp %s %s", img("q4k"), path));
	fs = open_fs(path, 0);
	qblk_io(fs, QT_PRJ, 0, b, 0);
	nb = get32(b + 20);	/* the blocks it maps (before the damage) */
	ext2fs_close_free(&fs);
	assert_true(nb > 4);
	for (round = 0; round < 150; round++) {
		fs = open_fs(path, 1);
		q = round % 10 ? 1 + rand() % (nb - 1) : 0;
		qblk_io(fs, QT_PRJ, q, b, 0);
		for (k = 0; k < 1 + rand() % 6; k++)
			b[rand() % (q ? QT_BLK : 24)] = rand();
		qblk_io(fs, QT_PRJ, q, b, 1);
		if (qt_open(fs, QT_PRJ, &qf) == 0) {
			(void)qt_check(&qf, NULL);
			for (k = 1; k <= 8; k++)
				if (qt_find(&qf, prj_of(k), &r, &found) == 0 &&
				    found) {
					assert_int_equal(r.id, prj_of(k));
					assert_true(r.blk > 1 &&
						    r.blk < qf.nblocks);
				}
		}
		ext2fs_close_free(&fs);
		if (round % 30 == 29)	/* a fresh file now and then */
			free(tl_sh("cp %s %s", img("q4k"), path));
	}
}

/* Which inodes quota counts, and under which ids. */
static void test_counts(void **state)
{
	ext2_filsys fs = open_fs(img("q4k"), 0);
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
	__u32 id = uid_of(7);
	int found;

	(void)state;
	snprintf(path, sizeof(path), "%s/c.img", dir);
	free(tl_sh("cp %s %s", img("q4k"), path));
	fs = open_fs(path, 1);
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
	out = gq(path, "project", prj_of(7));
	assert_string_equal(out, "8192 2\n");
	free(out);
	/* e2fsck sees the charge (nothing owns those bytes)... */
	out = tl_sh("e2fsck -fn %s 2>&1 | grep -c 'Usage inconsistent'", path);
	assert_string_equal(out, "3\n");
	free(out);
	/* ...and agrees again once it is taken back */
	fs = open_fs(path, 1);
	assert_int_equal(quota_charge(fs, ino, &in, -8192, -1), 0);
	/* a reserved inode is not charged at all */
	assert_int_equal(quota_charge(fs, EXT2_JOURNAL_INO, &in, 4096, 0), 0);
	ext2fs_close_free(&fs);
	out = tl_sh("e2fsck -fn %s >/dev/null 2>&1 && echo clean", path);
	assert_string_equal(out, "clean\n");
	free(out);

	/* Refusals write nothing: an id without a record, usage below 0. */
	free(tl_sh("cp %s %s.before", path, path));
	fs = open_fs(path, 1);
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
	fs = open_fs(path, 1);
	assert_int_equal(qt_open(fs, QT_USR, &qf), 0);
	assert_int_equal(qt_find(&qf, id, &r, &found), 0);
	assert_true(found);
	qblk_io(fs, QT_USR, r.blk, b, 0);
	b[QT_DHDR + r.slot * QT_REC + 40] = 4;	/* dqb_bsoftlimit */
	qblk_io(fs, QT_USR, r.blk, b, 1);
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
	snprintf(path, sizeof(path), "%s/p.img", dir);
	free(tl_sh("cp %s %s", img("q1k"), path));
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
	damage(path, D_COUNT, uid_of(5));
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
		   img("q1k"), path, path, path, path, path));
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
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_charge),
		cmocka_unit_test(test_check_plan),
	};

	e2l_err_init();
	return cmocka_run_group_tests(tests, setup, teardown);
}
