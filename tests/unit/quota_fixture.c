/* quota_fixture.c - the quota unit tests' images (made with the real
 * mke2fs, quota files written by the real e2fsck) and the raw access to
 * their quota blocks that the damage and charge tests need. */
#include "quota_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char qfx_dir[64];

/* uid and project of file fN (its gid: 3 N), over every byte of the id. */
__u32 qfx_uid(int i)
{
	return i * 70001U;
}

__u32 qfx_prj(int i)
{
	return i * 16777259U;
}

/* Makes NAME.img with block size bs: QFX_NFILES empty files with their own
 * owners, the quota files rebuilt by e2fsck -fy. */
static void mkimg(const char *name, int bs)
{
	char *out, script[96];
	FILE *f;
	int i;

	snprintf(script, sizeof(script), "%s/setup", qfx_dir);
	f = fopen(script, "w");
	assert_non_null(f);
	for (i = 1; i <= QFX_NFILES; i++)
		fprintf(f, "write /dev/null f%d\nsif f%d uid %u\n"
			"sif f%d gid %u\nsif f%d projid %u\n", i, i, qfx_uid(i),
			i, i * 3, i, qfx_prj(i));
	fprintf(f, "write /etc/services data\n");	/* some blocks */
	fclose(f);
	out = tl_sh("cd %s && mke2fs -q -F -t ext4 -b %d -I 256 -N 512 "
		    "-O quota,project -E quotatype=usrquota:grpquota:prjquota "
		    "%s.img 8M >/dev/null 2>&1 && debugfs -w -f setup %s.img "
		    ">/dev/null 2>&1; e2fsck -fy %s.img >/dev/null 2>&1; "
		    "e2fsck -fn %s.img >/dev/null 2>&1 && echo clean",
		    qfx_dir, bs, name, name, name, name);
	assert_string_equal(out, "clean\n");
	free(out);
}

int qfx_setup(void **state)
{
	(void)state;
	snprintf(qfx_dir, sizeof(qfx_dir), "/tmp/e2l-quota-XXXXXX");
	if (!mkdtemp(qfx_dir))
		return -1;
	mkimg("q1k", 1024);
	mkimg("q4k", 4096);
	return 0;
}

int qfx_teardown(void **state)
{
	char *out;

	(void)state;
	out = tl_sh("rm -rf %s", qfx_dir);
	free(out);
	return 0;
}

const char *qfx_img(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s.img", qfx_dir, name);
	return path;
}

ext2_filsys qfx_open(const char *path, int rw)
{
	ext2_filsys fs = NULL;

	assert_int_equal(ext2fs_open(path, (rw ? EXT2_FLAG_RW : 0) |
				     EXT2_FLAG_64BITS, 0, 0, unix_io_manager,
				     &fs), 0);
	return fs;
}

/* Reads (or writes) quota block q of the type's file on an open fs. */
void qfx_blk_io(ext2_filsys fs, int type, __u32 q, unsigned char *b,
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

__u32 qfx_get32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (__u32)p[3] << 24;
}

void qfx_put32(unsigned char *p, __u32 v)
{
	p[0] = v;
	p[1] = v >> 8;
	p[2] = v >> 16;
	p[3] = v >> 24;
}

/* The quota blocks on id's path: path[0] the root .. path[4] its data. */
void qfx_path_of(ext2_filsys fs, int type, __u32 id, __u32 path[5])
{
	unsigned char b[QT_BLK];
	int d;

	path[0] = 1;
	for (d = 0; d < 4; d++) {
		qfx_blk_io(fs, type, path[d], b, 0);
		path[d + 1] = qfx_get32(b + ((id >> ((3 - d) * 8)) & 0xff) * 4);
		assert_true(path[d + 1] > 1);
	}
}

/* Damages a copy of q1k's user quota file on id's path. */
void qfx_damage(const char *path, enum qfx_damage d, __u32 id)
{
	ext2_filsys fs = qfx_open(path, 1);
	unsigned char b[QT_BLK];
	struct ext2_inode inode;
	__u32 p[5], nb;

	qfx_path_of(fs, QT_USR, id, p);
	qfx_blk_io(fs, QT_USR, 0, b, 0);
	nb = qfx_get32(b + 20);
	switch (d) {
	case D_MAGIC:
		qfx_put32(b, 0xdeadbeef);
		qfx_blk_io(fs, QT_USR, 0, b, 1);
		break;
	case D_VERSION:
		qfx_put32(b + 4, 2);
		qfx_blk_io(fs, QT_USR, 0, b, 1);
		break;
	case D_NBLOCKS:
		qfx_put32(b + 20, 0x7fffffff);
		qfx_blk_io(fs, QT_USR, 0, b, 1);
		break;
	case D_UNMAPPED:
		/* a file that claims 8 more blocks than it maps, the root
		 * pointing into them */
		assert_int_equal(ext2fs_read_inode(fs, qt_inum(fs->super,
					QT_USR), &inode), 0);
		inode.i_size += 8 * QT_BLK;
		assert_int_equal(ext2fs_write_inode(fs, qt_inum(fs->super,
					QT_USR), &inode), 0);
		qfx_put32(b + 20, nb + 8);
		qfx_blk_io(fs, QT_USR, 0, b, 1);
		qfx_blk_io(fs, QT_USR, 1, b, 0);
		qfx_put32(b + ((id >> 24) & 0xff) * 4, nb + 4);
		qfx_blk_io(fs, QT_USR, 1, b, 1);
		break;
	case D_RANGE:
		qfx_blk_io(fs, QT_USR, p[1], b, 0);
		qfx_put32(b + ((id >> 16) & 0xff) * 4, nb + 5);
		qfx_blk_io(fs, QT_USR, p[1], b, 1);
		break;
	case D_ROOTREF:
		qfx_blk_io(fs, QT_USR, p[2], b, 0);
		qfx_put32(b + ((id >> 8) & 0xff) * 4, 1);
		qfx_blk_io(fs, QT_USR, p[2], b, 1);
		break;
	case D_LOOP:		/* depth 2 points back at depth 1 */
		qfx_blk_io(fs, QT_USR, p[2], b, 0);
		qfx_put32(b + ((id >> 8) & 0xff) * 4, p[1]);
		qfx_blk_io(fs, QT_USR, p[2], b, 1);
		break;
	case D_TREE_AS_DATA:	/* depth 3 names a tree block as data */
		qfx_blk_io(fs, QT_USR, p[3], b, 0);
		qfx_put32(b + (id & 0xff) * 4, p[2]);
		qfx_blk_io(fs, QT_USR, p[3], b, 1);
		break;
	case D_UNREACHED:	/* the record stays, its pointer goes */
		qfx_blk_io(fs, QT_USR, p[3], b, 0);
		qfx_put32(b + (id & 0xff) * 4, 0);
		qfx_blk_io(fs, QT_USR, p[3], b, 1);
		break;
	case D_COUNT:
		qfx_blk_io(fs, QT_USR, p[4], b, 0);
		b[8]++;
		qfx_blk_io(fs, QT_USR, p[4], b, 1);
		break;
	case D_DUP: {		/* another record takes id's id */
		int i, mine = -1, other = -1;

		qfx_blk_io(fs, QT_USR, p[4], b, 0);
		for (i = 0; i < QT_PER_BLK; i++) {
			__u32 rid = qfx_get32(b + QT_DHDR + i * QT_REC);

			if (rid == id)
				mine = i;
			else if (rid && other < 0)
				other = i;
		}
		assert_true(mine >= 0 && other >= 0);
		qfx_put32(b + QT_DHDR + other * QT_REC, id);
		qfx_blk_io(fs, QT_USR, p[4], b, 1);
		break;
	}
	case D_MAX:
		break;
	}
	ext2fs_close_free(&fs);
}
