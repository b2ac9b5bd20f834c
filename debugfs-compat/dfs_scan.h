/* dfs_scan.h - the inode scan icheck and ncheck share (dfs_scan.c). */
#ifndef E2L_DFS_SCAN_H
#define E2L_DFS_SCAN_H

#include "session.h"

/* Calls begin (when not NULL) once the scan has started, then visit for
 * every inode until it returns nonzero; errors are reported under cmd's
 * name.  0 when the scan ran to its end (or visit stopped it), 1 when it
 * could not. */
int dfs_scan_inodes(struct session *s, const char *cmd,
		    void (*begin)(struct session *s, void *arg),
		    int (*visit)(struct session *s, ext2_ino_t ino,
				 struct ext2_inode *inode, void *arg),
		    void *arg);

#endif
