/* trace_fs.h - tracefs plumbing shared by the live recordings (trace.c,
 * io_trace.c): the mount point, an instance's control files, its losses. */
#ifndef E2L_TRACE_FS_H
#define E2L_TRACE_FS_H

#include <ext2fs/ext2fs.h>

/* The tracefs mount point that has instances/, or NULL when none does. */
const char *trace_tracefs_root(void);

/* Writes val into dir/file (truncating it): 0 or an errno. */
errcode_t trace_put(const char *dir, const char *file, const char *val);

/* Events the ring buffer of instance dir overwrote or dropped, over
 * every CPU (0 when its per_cpu stats cannot be read). */
unsigned long trace_lost_events(const char *dir);

#endif
