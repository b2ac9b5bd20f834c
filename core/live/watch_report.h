/* watch_report.h - printing what `alloc watch` recorded: the totals, the
 * hottest inodes or callers of mark_inode_dirty (exact when counted in the
 * kernel), allocations by inode, and each allocation, with paths. */
#ifndef E2L_WATCH_REPORT_H
#define E2L_WATCH_REPORT_H

#include "session.h"
#include "trace.h"

/* What the hottest table is keyed by (--by). */
enum watch_by { WATCH_BY_INODE, WATCH_BY_CALLER, WATCH_BY_INODE_CALLER };

/* Parses "inode", "caller" or "inode,caller" (either order); -1 if bad. */
int watch_by_parse(const char *s, enum watch_by *by);

/*
 * Prints r (text or JSON through s->out): the summary, the top rows of
 * the hottest table keyed by `by`, the top inodes by allocations, and the
 * first `limit` allocations.  Paths are looked up on the mount.
 */
void watch_report(struct session *s, const struct trace_rec *r,
		  enum watch_by by, size_t top, size_t limit);

#endif
