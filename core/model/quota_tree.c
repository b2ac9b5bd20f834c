/* quota_tree.c - the v2r1 quota file: header, radix tree and data blocks,
 * read through the quota inode's mapping and the filesystem's io channel,
 * every pointer and count checked before it is followed or trusted. */
#include "quota_tree.h"
#include "e2l_err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define QT_TREEOFF	1	/* the root's block; 0 is the header */
#define QT_DEPTH	4	/* tree levels above the data blocks */
#define QT_REFS		(QT_BLK / 4)

enum { KIND_NONE, KIND_TREE, KIND_DATA };

static const char *const type_names[QT_NTYPES] = {"user", "group",
						  "project"};

const char *qt_type_name(int type)
{
	return type >= 0 && type < QT_NTYPES ? type_names[type] : "unknown";
}

ext2_ino_t qt_inum(const struct ext2_super_block *sb, int type)
{
	switch (type) {
	case QT_USR:
		return sb->s_usr_quota_inum;
	case QT_GRP:
		return sb->s_grp_quota_inum;
	case QT_PRJ:
		return sb->s_prj_quota_inum;
	}
	return 0;
}

__u64 qt_le(const unsigned char *p, int n)
{
	__u64 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static void put_le(unsigned char *p, int n, __u64 v)
{
	int i;

	for (i = 0; i < n; i++, v >>= 8)
		p[i] = v & 0xff;
}

static errcode_t damaged(struct qt_file *qf, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Records what is wrong with the file; returns E2L_ERR_QUOTA. */
static errcode_t damaged(struct qt_file *qf, const char *fmt, ...)
{
	va_list ap;
	int n;

	n = snprintf(qf->why, sizeof(qf->why), "the %s quota file (inode "
		     "%u) is damaged: ", qt_type_name(qf->type), qf->ino);
	if (n > 0 && (size_t)n < sizeof(qf->why)) {
		va_start(ap, fmt);
		vsnprintf(qf->why + n, sizeof(qf->why) - n, fmt, ap);
		va_end(ap);
	}
	return E2L_ERR_QUOTA;
}

/* The filesystem block holding quota block q, and q's offset in it. */
static errcode_t locate(struct qt_file *qf, __u32 q, blk64_t *pblk,
			unsigned *off)
{
	ext2_filsys fs = qf->fs;
	__u64 byte = (__u64)q * QT_BLK;
	int flags = 0;
	errcode_t err;

	*off = byte % fs->blocksize;
	*pblk = 0;
	err = ext2fs_bmap2(fs, qf->ino, &qf->inode, NULL, 0,
			   byte / fs->blocksize, &flags, pblk);
	if (err)
		return err;
	if (!*pblk || (flags & BMAP_RET_UNINIT) ||
	    *pblk < fs->super->s_first_data_block ||
	    *pblk >= ext2fs_blocks_count(fs->super))
		return damaged(qf, "its block %u is not mapped to a written "
			       "block", q);
	return 0;
}

/* Reads quota block q into out (QT_BLK bytes). */
static errcode_t read_qblk(struct qt_file *qf, __u32 q, unsigned char *out)
{
	unsigned char *buf;
	blk64_t pblk;
	unsigned off;
	errcode_t err;

	err = locate(qf, q, &pblk, &off);
	if (err)
		return err;
	buf = malloc(qf->fs->blocksize);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	err = io_channel_read_blk64(qf->fs->io, pblk, 1, buf);
	if (!err)
		memcpy(out, buf + off, QT_BLK);
	free(buf);
	return err;
}

errcode_t qt_open(ext2_filsys fs, int type, struct qt_file *qf)
{
	static const __u32 magic[QT_NTYPES] = {0xd9c01f11, 0xd9c01927,
					       0xd9c03f14};
	unsigned char b[QT_BLK];
	__u64 size;
	errcode_t err;

	memset(qf, 0, sizeof(*qf));
	qf->fs = fs;
	qf->type = type;
	if (type < 0 || type >= QT_NTYPES)
		return EXT2_ET_INVALID_ARGUMENT;
	qf->ino = qt_inum(fs->super, type);
	if (!qf->ino || qf->ino > fs->super->s_inodes_count)
		return damaged(qf, "the superblock names an inode outside "
			       "the filesystem");
	err = ext2fs_read_inode(fs, qf->ino, &qf->inode);
	if (err)
		return err;
	if (!LINUX_S_ISREG(qf->inode.i_mode) || !qf->inode.i_links_count ||
	    (qf->inode.i_flags & EXT4_INLINE_DATA_FL))
		return damaged(qf, "it is not a regular file in use");
	size = EXT2_I_SIZE(&qf->inode);
	if (size < 2 * QT_BLK)
		return damaged(qf, "%llu bytes is too short for a header and "
			       "a tree root", (unsigned long long)size);
	err = read_qblk(qf, 0, b);
	if (err)
		return err;
	if (qt_le(b, 4) != magic[type])
		return damaged(qf, "bad magic 0x%08llx (a %s quota file has "
			       "0x%08x)", (unsigned long long)qt_le(b, 4),
			       qt_type_name(type), magic[type]);
	if (qt_le(b + 4, 4) != 1)
		return damaged(qf, "format version %llu (only version 1, "
			       "v2r1, is known)",
			       (unsigned long long)qt_le(b + 4, 4));
	qf->bgrace = qt_le(b + 8, 4);
	qf->igrace = qt_le(b + 12, 4);
	qf->nblocks = qt_le(b + 20, 4);
	if (qf->nblocks < 2 || qf->nblocks > size / QT_BLK ||
	    qf->nblocks > QT_MAX_BLOCKS)
		return damaged(qf, "its header declares %u blocks in a file "
			       "of %llu bytes", qf->nblocks,
			       (unsigned long long)size);
	return 0;
}

int qt_rec_used(const unsigned char *p)
{
	int i;

	for (i = 0; i < QT_REC; i++)
		if (p[i])
			return 1;
	return 0;
}

static const unsigned char *rec_at(const unsigned char *b, unsigned slot)
{
	return b + QT_DHDR + slot * QT_REC;
}

/* Checks a data block's header count against its used records, and that
 * their ids are distinct; *n gets the count. */
static errcode_t data_parse(struct qt_file *qf, __u32 blk,
			    const unsigned char *b, unsigned *n)
{
	unsigned entries = qt_le(b + 8, 2), i, j, cnt = 0;

	for (i = 0; i < QT_PER_BLK; i++) {
		if (!qt_rec_used(rec_at(b, i)))
			continue;
		for (j = 0; j < i; j++)
			if (qt_rec_used(rec_at(b, j)) &&
			    qt_le(rec_at(b, j), 4) == qt_le(rec_at(b, i), 4))
				return damaged(qf, "data block %u holds id "
					       "%llu twice", blk,
					       (unsigned long long)
					       qt_le(rec_at(b, i), 4));
		cnt++;
	}
	if (entries != cnt)
		return damaged(qf, "data block %u says it holds %u records "
			       "but holds %u", blk, entries, cnt);
	*n = cnt;
	return 0;
}

/* id's slot in data block b, or -1. */
static int data_slot(const unsigned char *b, __u32 id)
{
	unsigned i;

	for (i = 0; i < QT_PER_BLK; i++)
		if (qt_rec_used(rec_at(b, i)) && qt_le(rec_at(b, i), 4) == id)
			return i;
	return -1;
}

struct walk {
	struct qt_file *qf;
	unsigned char *kind;	/* per quota block: KIND_* */
	unsigned char *left;	/* a data block's records not reached yet */
	__u32 nrecs;
	__u32 cached;		/* the data block in buf (0: none) */
	unsigned char buf[QT_BLK];
};

static errcode_t walk_data(struct walk *w, __u32 blk, __u32 id)
{
	unsigned char *b = w->buf;
	unsigned n;
	errcode_t err;

	if (w->kind[blk] == KIND_TREE)
		return damaged(w->qf, "block %u is both a tree block and a "
			       "data block", blk);
	/* neighbouring ids share a data block: read it once for them */
	if (w->cached != blk) {
		w->cached = 0;
		err = read_qblk(w->qf, blk, b);
		if (err)
			return err;
		w->cached = blk;
	}
	if (w->kind[blk] == KIND_NONE) {
		err = data_parse(w->qf, blk, b, &n);
		if (err)
			return err;
		w->kind[blk] = KIND_DATA;
		w->left[blk] = n;
		w->nrecs += n;
	}
	if (data_slot(b, id) < 0)
		return damaged(w->qf, "the tree leads id %u to data block %u, "
			       "which has no record of it", id, blk);
	if (!w->left[blk])
		return damaged(w->qf, "data block %u is reached more often "
			       "than it has records", blk);
	w->left[blk]--;
	return 0;
}

/* Depth-first over tree block blk at depth (0: the root); prefix is the id
 * bits its position stands for.  Recursion is QT_DEPTH deep at most. */
static errcode_t walk_tree(struct walk *w, __u32 blk, int depth,
			   __u32 prefix)
{
	unsigned char b[QT_BLK];
	__u32 ref, id;
	errcode_t err;
	unsigned i;

	if (w->kind[blk] != KIND_NONE)
		return damaged(w->qf, "block %u is reached twice from the "
			       "tree (a loop or a shared branch)", blk);
	w->kind[blk] = KIND_TREE;
	err = read_qblk(w->qf, blk, b);
	if (err)
		return err;
	for (i = 0; i < QT_REFS; i++) {
		ref = qt_le(b + i * 4, 4);
		if (!ref)
			continue;
		if (ref <= QT_TREEOFF || ref >= w->qf->nblocks)
			return damaged(w->qf, "tree block %u points to block "
				       "%u, outside 2..%u", blk, ref,
				       w->qf->nblocks - 1);
		id = prefix << 8 | i;
		err = depth + 1 < QT_DEPTH ? walk_tree(w, ref, depth + 1, id) :
		      walk_data(w, ref, id);
		if (err)
			return err;
	}
	return 0;
}

errcode_t qt_check(struct qt_file *qf, __u32 *nrecs)
{
	struct walk w;
	errcode_t err;
	__u32 i;

	memset(&w, 0, sizeof(w));
	w.qf = qf;
	w.kind = calloc(qf->nblocks, 1);
	w.left = calloc(qf->nblocks, 1);
	err = w.kind && w.left ? walk_tree(&w, QT_TREEOFF, 0, 0) :
	      EXT2_ET_NO_MEMORY;
	for (i = 0; i < qf->nblocks && !err; i++)
		if (w.kind[i] == KIND_DATA && w.left[i])
			err = damaged(qf, "data block %u holds %u records the "
				      "tree does not reach", i, w.left[i]);
	if (!err && nrecs)
		*nrecs = w.nrecs;
	free(w.kind);
	free(w.left);
	return err;
}

void qt_rec_decode(const unsigned char *p, struct qt_rec *r)
{
	r->id = qt_le(p, 4);
	r->ihard = qt_le(p + 8, 8);
	r->isoft = qt_le(p + 16, 8);
	r->curinodes = qt_le(p + 24, 8);
	r->bhard = qt_le(p + 32, 8);
	r->bsoft = qt_le(p + 40, 8);
	r->curspace = qt_le(p + 48, 8);
	r->btime = qt_le(p + 56, 8);
	r->itime = qt_le(p + 64, 8);
}

static void rec_encode(unsigned char *p, const struct qt_rec *r)
{
	put_le(p, 4, r->id);
	put_le(p + 4, 4, 0);
	put_le(p + 8, 8, r->ihard);
	put_le(p + 16, 8, r->isoft);
	put_le(p + 24, 8, r->curinodes);
	put_le(p + 32, 8, r->bhard);
	put_le(p + 40, 8, r->bsoft);
	put_le(p + 48, 8, r->curspace);
	put_le(p + 56, 8, r->btime);
	put_le(p + 64, 8, r->itime);
	/* An all-zero record reads as a free slot: mark it used, as the
	 * kernel and e2fsprogs do. */
	if (!qt_rec_used(p))
		put_le(p + 64, 8, 1);
}

errcode_t qt_find(struct qt_file *qf, __u32 id, struct qt_rec *r,
		  int *found)
{
	__u32 path[QT_DEPTH + 1], blk = QT_TREEOFF, ref;
	unsigned char b[QT_BLK];
	unsigned n;
	int depth, k, slot;
	errcode_t err;

	*found = 0;
	memset(r, 0, sizeof(*r));
	path[0] = blk;
	for (depth = 0; depth < QT_DEPTH; depth++) {
		err = read_qblk(qf, blk, b);
		if (err)
			return err;
		ref = qt_le(b + ((id >> ((QT_DEPTH - 1 - depth) * 8)) & 0xff) *
			    4, 4);
		if (!ref)
			return 0;
		if (ref <= QT_TREEOFF || ref >= qf->nblocks)
			return damaged(qf, "tree block %u points to block %u, "
				       "outside 2..%u", blk, ref,
				       qf->nblocks - 1);
		for (k = 0; k <= depth; k++)
			if (path[k] == ref)
				return damaged(qf, "tree block %u points back "
					       "to block %u (a loop)", blk,
					       ref);
		path[depth + 1] = blk = ref;
	}
	err = read_qblk(qf, blk, b);
	if (!err)
		err = data_parse(qf, blk, b, &n);
	if (err)
		return err;
	slot = data_slot(b, id);
	if (slot < 0)
		return damaged(qf, "the tree leads id %u to data block %u, "
			       "which has no record of it", id, blk);
	qt_rec_decode(rec_at(b, slot), r);
	r->blk = blk;
	r->slot = slot;
	*found = 1;
	return 0;
}

errcode_t qt_write(struct qt_file *qf, const struct qt_rec *r)
{
	unsigned char *buf, *p;
	blk64_t pblk;
	unsigned off;
	errcode_t err;

	if (r->blk <= QT_TREEOFF || r->blk >= qf->nblocks ||
	    r->slot >= QT_PER_BLK)
		return EXT2_ET_INVALID_ARGUMENT;
	err = locate(qf, r->blk, &pblk, &off);
	if (err)
		return err;
	buf = malloc(qf->fs->blocksize);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	err = io_channel_read_blk64(qf->fs->io, pblk, 1, buf);
	if (err)
		goto out;
	p = buf + off + QT_DHDR + r->slot * QT_REC;
	if (!qt_rec_used(p) || qt_le(p, 4) != r->id) {
		err = damaged(qf, "the record of id %u left its slot", r->id);
		goto out;
	}
	rec_encode(p, r);
	err = io_channel_write_blk64(qf->fs->io, pblk, 1, buf);
out:
	free(buf);
	return err;
}
