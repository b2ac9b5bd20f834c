/* dfs_requests.h - debugfs's own request table, kept as data (see
 * dfs_requests.c) for `lr` and for naming requests e2layout lacks. */
#ifndef E2L_DFS_REQUESTS_H
#define E2L_DFS_REQUESTS_H

struct dfs_request {
	const char *names;	/* "dump_extents, extents, ex" */
	const char *desc;
};

/* NULL-terminated, in debugfs's order. */
extern const struct dfs_request dfs_requests[];

/* The extent sub-mode's table (debugfs-compat/extent_inode.c), which lr lists
 * before help/lr/quit while an extent handle is open. */
extern const struct dfs_request dfs_extent_requests[];

/* The request whose names include name, or NULL. */
const struct dfs_request *dfs_request_find(const char *name);

#endif
