/* journal.h - the journal model: the internal journal inode's extents and
 * mapping blocks, or the external journal's identity, and the journal
 * superblock's fields. */
#ifndef E2L_JOURNAL_H
#define E2L_JOURNAL_H

#include <ext2fs/ext2fs.h>

struct e2l_jextent {
	blk64_t lblk, pblk, len;	/* physically contiguous data run */
};

struct e2l_journal {
	int present;			/* has_journal set */
	int external;			/* journal on another device */
	ext2_ino_t ino;			/* internal: the journal inode */
	char ext_uuid[37];		/* external: the device's UUID */
	__u32 ext_dev;			/* external: s_journal_dev */
	/* external, once its device is found (journal_ext.h) */
	char *ext_path;			/* the device, or NULL */
	const char *ext_how;		/* how it was found */
	unsigned ext_blocksize;		/* the device's block size */
	blk64_t ext_blocks;		/* and its size in blocks */
	char ext_label[17];
	int ext_user;			/* this fs among the users, -1 none */
	int ext_mismatch;		/* the device named is another
					 * journal (or no journal) */
	blk64_t size_bytes;		/* i_size of the journal inode */
	blk64_t data_blocks;		/* blocks mapped */
	struct e2l_jextent *ext;	/* data runs in logical order */
	unsigned next;
	blk64_t *map_blocks;		/* extent-tree or indirect blocks */
	unsigned nmap;
	int uses_extents;
	unsigned nentries;		/* leaf extent entries (extent-mapped)
					 * or data runs (block-mapped) */
	/* From the journal superblock (block 0 of the journal). */
	int sb_valid;
	int sb_absent;			/* not read: a metadata-only e2image
					 * file does not hold it */
	__u32 sb_blocktype, sb_blocksize, sb_maxlen, sb_first;
	__u32 sb_sequence, sb_start, sb_errno;
	__u32 sb_feature_compat, sb_feature_incompat, sb_feature_ro_compat;
	__u32 sb_nr_users, sb_num_fc_blocks;
	__u8 sb_checksum_type;
	char sb_uuid[37];
	__u32 sb_head, sb_checksum;
	blk64_t sb_pblk;		/* where the journal superblock lies */
	char *sb_raw;			/* the journal superblock block, or
					 * NULL (for e2p_list_journal_super) */
	unsigned sb_raw_len;
};

/* jbd2 feature bits we name (the kernel's values). */
#define E2L_JFEAT_COMPAT_CHECKSUM	0x00000001
#define E2L_JFEAT_INCOMPAT_REVOKE	0x00000001
#define E2L_JFEAT_INCOMPAT_64BIT	0x00000002
#define E2L_JFEAT_INCOMPAT_ASYNC_COMMIT	0x00000004
#define E2L_JFEAT_INCOMPAT_CSUM_V2	0x00000008
#define E2L_JFEAT_INCOMPAT_CSUM_V3	0x00000010
#define E2L_JFEAT_INCOMPAT_FAST_COMMIT	0x00000020

/* jbd2 on-disk constants (big-endian fields). */
#define E2L_JBD2_MAGIC			0xc03b3998U
#define E2L_JBD2_DESCRIPTOR		1
#define E2L_JBD2_COMMIT			2
#define E2L_JBD2_SB_V1			3
#define E2L_JBD2_SB_V2			4
#define E2L_JBD2_REVOKE			5
#define E2L_JBD2_FLAG_ESCAPE		0x1	/* block tag flags */
#define E2L_JBD2_FLAG_SAME_UUID		0x2
#define E2L_JBD2_FLAG_DELETED		0x4
#define E2L_JBD2_FLAG_LAST_TAG		0x8
#define E2L_JBD2_CRC32_CHKSUM		1	/* commit h_chksum_type (v1) */
#define E2L_JBD2_CRC32C_CHKSUM		4	/* s_checksum_type (v2, v3) */

/* Bytes of one block tag for the journal's incompat features. */
unsigned journal_tag_bytes(__u32 incompat);

/* Checksum version the journal uses: 0 none, 1, 2 or 3. */
int journal_csum_version(const struct e2l_journal *j);
/* Fast-commit blocks reserved at the journal's end (0 when none). */
__u32 journal_fc_blocks(const struct e2l_journal *j);
/* Writes the UUID of journal user i (0-based) to out; -1 when none. */
int journal_user(const struct e2l_journal *j, unsigned i, char out[37]);
/* the most users a journal superblock lists (JBD2_USERS_MAX) */
#define JBD2_USERS_MAX		48

/* Decodes the jbd2 superblock in j->sb_raw (j->sb_raw_len bytes) into the
 * sb_* fields; sb_valid says whether it is one. */
void journal_decode_super(struct e2l_journal *j);

/* Loads the journal model.  A filesystem without a journal gives present=0
 * and returns 0. */
errcode_t journal_load(ext2_filsys fs, struct e2l_journal *j);
void journal_release(struct e2l_journal *j);

#endif
