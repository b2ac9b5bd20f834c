/* dfs_open.h - opening a filesystem as debugfs's open_filesystem does, for
 * the open request and for both personalities' command lines. */
#ifndef E2L_DFS_OPEN_H
#define E2L_DFS_OPEN_H

#include "session.h"

struct dfs_open_args {
	const char *device;
	const char *data_source;	/* -d FILE (with -i), or NULL */
	const char *undo;		/* -z FILE, or NULL */
	unsigned flags;			/* SESSION_* (-w, -c) */
	int extra;			/* more EXT2_FLAG_* bits: -i, -n, -D,
					   -f, -e */
	blk64_t superblock;		/* -s (needs -b) */
	unsigned long blocksize;	/* -b */
	const char *who;		/* the name open errors carry; NULL:
					   the personality's */
};

/*
 * debugfs's checks in debugfs's order (a superblock needs a block size, -d
 * needs -i, the data source must open), then session_open and the data
 * source attached.  Each failure is reported on s->out; returns 0 with the
 * filesystem open, or the error with the session closed.
 */
errcode_t dfs_open_filesystem(struct session *s,
			      const struct dfs_open_args *a);

#endif
