/* jtrans.h - jbd2 transactions written into an internal journal with
 * libext2fs I/O only: descriptor blocks with block tags, revoke blocks,
 * commit blocks, the journal superblock, and a replay of committed
 * transactions (recovery).  Formats: help/topics/journal.txt. */
#ifndef E2L_JTRANS_H
#define E2L_JTRANS_H

#include "journal.h"

#include <sys/time.h>

/* One journal: where its logical blocks lie, and its superblock. */
struct jt_journal {
	ext2_filsys fs;
	io_channel io;			/* the log's device: fs->io, or an
					 * external journal's own channel */
	int own_io;			/* io is ours to close */
	blk64_t io_blocks;		/* blocks on io (log blocks bound) */
	__u32 sb_lblk;			/* the journal superblock's block: 0
					 * inside fs, 1 or 2 on a device */
	struct e2l_jextent *runs;	/* logical -> physical (own copy) */
	unsigned nruns;
	unsigned char *sb;		/* the superblock block, bs bytes */
	__u32 bs, maxlen, first, sequence, start;
	__u32 compat, incompat;
	int version;			/* 1 or 2 (superblock V1 or V2) */
	__u32 seed;			/* crc32c of the journal's UUID */
	__u32 failed_commit;		/* recovery: a commit whose checksum
					 * failed (0: none) */
	int bad_pass;			/* recovery: a later pass (1, 2) that
					 * ended at bad_pass_seq, not at
					 * bad_pass_end (EIO) */
	__u32 bad_pass_seq, bad_pass_end;
};

/* Loads a journal whose data runs are given (block 0 = its superblock);
 * checks the superblock as e2fsprogs does before writing to it. */
errcode_t jt_open(ext2_filsys fs, const struct e2l_jextent *runs,
		  unsigned nruns, struct jt_journal *j);
/* The internal journal of fs (s_journal_inum). */
errcode_t jt_open_inode(ext2_filsys fs, struct jt_journal *j);
/*
 * An external journal: the journal device (or file) named path, opened
 * read-write when fs is, checked as e2fsprogs checks it before using it
 * (an ext2 superblock with journal_dev, the UUID fs names in
 * s_journal_uuid, its checksum): EXT2_ET_LOAD_EXT_JOURNAL when it is not
 * fs's journal.  Log block numbers are the device's own.
 */
errcode_t jt_open_external(ext2_filsys fs, const char *path,
			   struct jt_journal *j);
/*
 * fs's journal as debugfs finds it: a journal UUID in the superblock means
 * an external journal, at ext_path when given, else the device libblkid
 * finds by that UUID or by s_journal_dev; no UUID means the inode
 * (EXT2_ET_BAD_INODE_NUM without s_journal_inum).
 */
errcode_t jt_open_fs(ext2_filsys fs, const char *ext_path,
		     struct jt_journal *j);
void jt_close(struct jt_journal *j);
errcode_t jt_bmap(const struct jt_journal *j, __u32 lblk, blk64_t *pblk);
int jt_csum_v23(const struct jt_journal *j);
/* Stores sequence, start and the features into the superblock, sets its
 * checksum (v2, v3) and writes it. */
errcode_t jt_write_sb(struct jt_journal *j);
void jt_sb_update(struct jt_journal *j);	/* the same, not written */
/* Seeds the checksums after a change of features or UUID. */
void jt_reseed(struct jt_journal *j);

/* Gives block i of a transaction's data (bs bytes into buf). */
typedef errcode_t (*jt_data_fn)(void *ctx, size_t i, unsigned char *buf);

/* debugfs 1.47.0's byte layout: the first tag's UUID lands 12 tags past
 * the tag (a pointer-arithmetic slip), and the commit time's seconds are
 * a 32-bit big-endian value in the first half of the 64-bit field.
 * Recovery reads both layouts alike. */
#define JT_QUIRK_DEBUGFS	1

struct jt_tx {
	struct jt_journal *j;
	__u32 tid, start, block;	/* block: the next log block */
	int quirks;
};

void jt_tx_begin(struct jt_tx *t, struct jt_journal *j, __u32 tid,
		 __u32 start, int quirks);
/* Descriptor block(s), then the n data blocks (tags for list[]). */
errcode_t jt_tx_blocks(struct jt_tx *t, const blk64_t *list, size_t n,
		       jt_data_fn get, void *ctx);
/* Revoke block(s) for list[]. */
errcode_t jt_tx_revokes(struct jt_tx *t, const blk64_t *list, size_t n);
/* The commit block (checksums per the journal's features). */
errcode_t jt_tx_commit(struct jt_tx *t, const struct timeval *tv);
/* Log blocks a transaction of n data blocks and r revokes may take
 * (debugfs's estimate, which leaves a gap before the next one). */
__u32 jt_tx_guess(const struct jt_journal *j, size_t n, size_t r);
/* Log blocks such a transaction takes exactly (one descriptor per tag
 * block, the data, one commit; no revokes). */
__u32 jt_tx_size(const struct jt_journal *j, size_t n);

/*
 * Replays the committed transactions from s_start (scan, revoke, replay
 * passes as jbd2 recovery does; a commit whose checksum fails ends the
 * scan and sets s_errno) into their home blocks, flushes, and marks the
 * journal empty (s_start 0, s_sequence the next transaction) without
 * flushing that write.  Also when nothing is to be replayed.  *replayed
 * counts blocks written home.
 */
errcode_t jt_recover(struct jt_journal *j, unsigned long *replayed);

#endif
