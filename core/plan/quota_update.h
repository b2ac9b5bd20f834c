/* quota_update.h - keeps the quota files right when a plan changes an
 * inode's block count (defrag, evacuate, prealloc) or creates an inode
 * (prealloc's new file): checked when the plan is made and again before it
 * is applied, charged inside the apply's journal transaction. */
#ifndef E2L_QUOTA_UPDATE_H
#define E2L_QUOTA_UPDATE_H

#include <ext2fs/ext2fs.h>

struct plan;
struct session;

/* Whether e2fsck counts ino in the quota files (its pass 1 rule): the
 * root and every ordinary inode, except the project quota file, the orphan
 * file and xattr-value inodes (charged to their users by value size). */
int quota_counts(ext2_filsys fs, ext2_ino_t ino,
		 const struct ext2_inode_large *inode);

/* inode's id for quota type t (enum qt_type): uid, gid or project id (0
 * when the inode has no room for one). */
__u32 quota_id(ext2_filsys fs, const struct ext2_inode_large *inode, int t);

/* Sets the owner of a new file in directory dir as the kernel would: uid
 * 0, the directory's group when it is set-group-ID, its project when it
 * has the project-inherit flag. */
errcode_t quota_new_owner(ext2_filsys fs, ext2_ino_t dir,
			  struct ext2_inode_large *inode);

/*
 * Adds space bytes (may be negative) and inodes to inode's record in each
 * quota file the superblock names, through fs->io (inside an active
 * capture the writes join the transaction).  Nothing is written unless
 * every record was found and stays in range: E2L_ERR_QUOTA when a file is
 * damaged or lacks the record.  A no-op for inodes quota does not count.
 */
errcode_t quota_charge(ext2_filsys fs, ext2_ino_t ino,
		       const struct ext2_inode_large *inode, __s64 space,
		       int inodes);

/* apply's switch: charges the change of i_blocks from ino's inode as
 * libext2fs reads it now (before the write) to after. */
errcode_t quota_charge_switch(ext2_filsys fs, ext2_ino_t ino,
			      const struct ext2_inode_large *after);

/*
 * Whether every quota change of p's chain can be made: each quota file it
 * will touch walks clean (qt_check) and holds the record of every id
 * involved, with room for the change.  Prints why not (as who) and
 * returns E2L_ERR_QUOTA; e2layout does not add records, so an id without
 * one (only possible for prealloc's new file) is refused.
 */
errcode_t quota_check_plan(struct session *s, const char *who,
			   const struct plan *p);

#endif
