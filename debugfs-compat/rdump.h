/* rdump.h - what dump, cat and rdump share (debugfs-compat/dump.c), and the
 * check that keeps rdump from writing outside its target directory. */
#ifndef E2L_RDUMP_H
#define E2L_RDUMP_H

#include <stdbool.h>
#include <stddef.h>

#include "session.h"

/*
 * Whether a directory entry's name (len bytes, not NUL-terminated) may be
 * created under the host directory rdump writes to: not empty, not "." or
 * "..", no '/', no NUL and no control character.  debugfs 1.47.0 checks
 * none of this (e2fsprogs issue 272).
 */
bool rdump_name_safe(const char *name, size_t len);

/*
 * Copies inode ino's contents to host descriptor fd (fd < 0: to the sink,
 * as `cat` does), with debugfs's messages under cmd; with preserve, gives
 * outname the inode's permissions, owner and times afterwards.
 */
void dump_inode_to_fd(struct session *s, const char *cmd, ext2_ino_t ino,
		      int fd, int preserve, const char *outname);

/* Gives name (or fd) the inode's permission bits, owner and times. */
void dump_fix_perms(struct session *s, const char *cmd,
		    const struct ext2_inode *inode, int fd, const char *name);

#endif
