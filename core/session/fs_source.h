/* fs_source.h - what to open when the named file is not itself an ext2/3/4
 * filesystem: a qcow2 dump (converted) or a disk with a partition table
 * (one of its partitions). */
#ifndef E2L_FS_SOURCE_H
#define E2L_FS_SOURCE_H

#include "fs_head.h"
#include "session.h"

/*
 * Before session_open tries device, head its first bytes (fs_head_read):
 * when it holds no ext2/3/4 superblock
 * but a qcow2 image (e2image -Q) or a partition table, decides what to open
 * instead and says so on s->out:
 *  - qcow2: refused with SESSION_RW (E2L_ERR_UNSAFE); otherwise converted
 *    with the real "e2image -r" into a sparse temporary file, which is
 *    unlinked at once (so it goes on every exit, signals included) and kept
 *    open in s->source_fd; *open_as is "/proc/self/fd/N".
 *  - a partition table: the partition numbered s->partition (--partition
 *    N), or the only ext2/3/4 partition; *open_as is "DEVICE?offset=BYTES".
 *    With several and none named, lists them and returns
 *    E2L_ERR_BAD_ARGUMENT; a named one that does not exist, too.
 * *open_as is NULL (open device itself) when none of this applies; else a
 * malloc'd name the caller frees, and s->source_name says, for headers,
 * what it is.  s->partition set on a device without a partition table is
 * refused (E2L_ERR_BAD_ARGUMENT).
 */
errcode_t fs_source_resolve(struct session *s, const char *device,
			    const struct fs_head *head, unsigned flags,
			    char **open_as);

/*
 * After the open: the filesystem's blocks must fit what holds them, the
 * partition fs_source_resolve chose (or the one IMG?offset= starts) or a
 * block device.  When they do not: read-write, refused, saying both sizes
 * (E2L_ERR_UNSAFE: a write could land in the next partition); read-only, a
 * warning.  fs_bound.c.
 */
errcode_t fs_bound_check(struct session *s, ext2_filsys fs,
			 const char *device, unsigned flags);

/* After -i failed with EXT2_ET_MAGIC_E2IMAGE: says when device is a qcow2
 * image or a plain ext2/3/4 image instead (open it without -i). */
void fs_source_not_e2image(struct session *s, const char *device);

/* Closes what fs_source_resolve kept open (s->source_fd, s->source_name). */
void fs_source_release(struct session *s);

#endif
