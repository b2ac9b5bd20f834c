/* quota_tree.h - the v2r1 quota file format (a 4-level radix tree of 1 KiB
 * blocks over 72-byte little-endian records): found, checked and patched in
 * place through libext2fs.  e2layout's own reader: the installed libext2fs
 * headers carry no quota library. */
#ifndef E2L_QUOTA_TREE_H
#define E2L_QUOTA_TREE_H

#include <ext2fs/ext2fs.h>

enum qt_type { QT_USR, QT_GRP, QT_PRJ, QT_NTYPES };

#define QT_BLK		1024	/* a quota block */
#define QT_REC		72	/* a v2r1 record */
#define QT_DHDR		16	/* a data block's header */
#define QT_PER_BLK	((QT_BLK - QT_DHDR) / QT_REC)	/* 14 */
#define QT_MAX_BLOCKS	(1U << 24)	/* 16 GiB: larger is not plausible */

/* One record (a dquot) and where it lives. */
struct qt_rec {
	__u32 id;
	__u64 ihard, isoft, curinodes;
	__u64 bhard, bsoft;		/* in 1 KiB units */
	__u64 curspace;			/* bytes */
	__u64 btime, itime;		/* grace deadlines, 0 when none */
	__u32 blk;			/* the quota block holding it */
	unsigned slot;			/* its index there */
};

/* An opened quota file (no resources held: nothing to close). */
struct qt_file {
	ext2_filsys fs;
	int type;
	ext2_ino_t ino;
	struct ext2_inode inode;
	__u32 nblocks;			/* dqi_blocks */
	__u32 bgrace, igrace;		/* seconds */
	char why[192];			/* what is wrong, after E2L_ERR_QUOTA */
};

/* The n-byte little-endian number at p. */
__u64 qt_le(const unsigned char *p, int n);
/* 1 when the QT_REC-byte record at p is in use (not all zeros). */
int qt_rec_used(const unsigned char *p);
/* Decodes the record at p into r (its place, blk and slot, untouched). */
void qt_rec_decode(const unsigned char *p, struct qt_rec *r);

/* "user", "group", "project". */
const char *qt_type_name(int type);
/* The superblock's quota inode of type (0: that type is off). */
ext2_ino_t qt_inum(const struct ext2_super_block *sb, int type);

/* Opens the quota file of type: its inode (a regular file mapped without
 * holes), the header (magic of the type, version 1) and the size it
 * declares.  E2L_ERR_QUOTA with qf->why when damaged; other codes from
 * libext2fs (an unreadable inode or block). */
errcode_t qt_open(ext2_filsys fs, int type, struct qt_file *qf);

/* Walks the whole tree, each block at most once: every pointer inside the
 * file, no block reached twice as a tree block or both as a tree and a data
 * block, every data block's record count right, its ids distinct, and each
 * record reached from the tree exactly once, under its own id.  *nrecs (may
 * be NULL) counts the records.  E2L_ERR_QUOTA with qf->why on damage. */
errcode_t qt_check(struct qt_file *qf, __u32 *nrecs);

/* Finds id's record along its path (bounded, loop-checked): 0 with *found
 * set (r filled when found); E2L_ERR_QUOTA with qf->why on damage. */
errcode_t qt_find(struct qt_file *qf, __u32 id, struct qt_rec *r,
		  int *found);

/* Writes r back into its slot: one read-modify-write of the filesystem
 * block through fs->io (so an active capture takes it into the journal
 * transaction).  Refuses (E2L_ERR_QUOTA) when the slot no longer holds
 * r->id. */
errcode_t qt_write(struct qt_file *qf, const struct qt_rec *r);

#endif
