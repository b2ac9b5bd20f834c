/* dfs_wr.h - helpers shared by the debugfs-compatible write requests
 * (write, mkdir, rm, link...): what debugfs's own make_link, unlink and
 * kill_file do, with its messages. */
#ifndef E2L_DFS_WR_H
#define E2L_DFS_WR_H

#include "session.h"

/*
 * Gets the filesystem ready for a write request: both bitmaps loaded (debugfs
 * reads them when it opens), derived models dropped, and libext2fs's clock
 * set from set_current_time.  Returns 0, or 1 after printing why not.
 */
int dfs_wr_begin(struct session *s, const char *who);

/* The time debugfs stamps new inodes and deletions with. */
__u32 dfs_wr_time(struct session *s);

/* The directory entry file type for an inode mode (0 when unknown). */
int dfs_wr_file_type(unsigned mode);

/* Writes an inode: "CMD: ERR while writing inode N" on failure. */
int dfs_wr_write_inode(struct session *s, ext2_ino_t ino,
		       struct ext2_inode *inode, const char *cmd);

/*
 * A new directory entry's name: ENAMETOOLONG past EXT2_NAME_LEN (255)
 * bytes, which libext2fs would copy past its buffers (debugfs 1.47.0
 * crashes or leaves a damaged directory); 0 otherwise.  Checked before
 * anything is allocated, so the request fails as if libext2fs had.
 */
errcode_t dfs_wr_name_check(const char *name);

/*
 * Splits *path at its last '/' (writing a NUL there) and looks the part
 * before it up into *parent, leaving *path at the name after it; without
 * a '/', *parent is the cwd and *path stays.  0, or the lookup's error
 * with *path the directory that was not found (for the caller's message,
 * which differs by request in debugfs).
 */
errcode_t dfs_wr_parent(struct session *s, char **path, ext2_ino_t *parent);

/* Resolves path ("CMD: ERR while trying to resolve filename") and reads
 * its inode: 0, or 1 after printing why not (debugfs's rm and rmdir). */
int dfs_wr_resolve(struct session *s, const char *cmd, const char *path,
		   ext2_ino_t *ino, struct ext2_inode *inode);

/* debugfs's make_link: links source (a file spec) as dest.  Returns 0, or
 * 1 after printing why not. */
int dfs_wr_make_link(struct session *s, char *source, char *dest);

/* debugfs's unlink_file_by_name (filename is cut at its last '/'). */
void dfs_wr_unlink_by_name(struct session *s, char *filename);

/* debugfs's kill_file_by_inode: sets dtime, frees blocks and the inode. */
void dfs_wr_kill_inode(struct session *s, ext2_ino_t ino);

/* Decodes C escapes in place, stopping at a '"'; returns the length. */
size_t dfs_wr_parse_c_string(char *str);

#endif
