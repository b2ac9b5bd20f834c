/* trace_fs.h - tracefs plumbing shared by the live recordings (trace.c,
 * io_trace.c): the mount point, an instance's control files and events,
 * its trace_pipe read line by line, its losses. */
#ifndef E2L_TRACE_FS_H
#define E2L_TRACE_FS_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

/* The tracefs mount point that has instances/, or NULL when none does. */
const char *trace_tracefs_root(void);

/* Writes val into dir/file (truncating it): 0 or an errno. */
errcode_t trace_put(const char *dir, const char *file, const char *val);

/* Whether the tracepoints sys:events[] (NULL-terminated) can be used:
 * 0 with *root the tracefs mount point, or an errno with why set to a
 * sentence (what, e.g. "watching block I/O", needs root; tracefs is not
 * mounted; the kernel lacks one of the tracepoints). */
errcode_t trace_fs_ready(const char *what, const char *sys,
			 const char *const *events, const char **root,
			 char *why, size_t len);

/* Creates the instance directory dir (one already there is taken over):
 * 0, or an errno with why set. */
errcode_t trace_instance_make(const char *dir, char *why, size_t len);

/* Sets the filter of event sys:ev in instance dir and enables it: 0, or
 * an errno with why set. */
errcode_t trace_event_on(const char *dir, const char *sys, const char *ev,
			 const char *filt, char *why, size_t len);

/* Turns tracing and every event sys:events[] of instance dir off (best
 * effort). */
void trace_events_off(const char *dir, const char *sys,
		      const char *const *events);

/*
 * Reads what the non-blocking trace_pipe fd holds, at most max_bytes,
 * into buf (size bytes, *llen of them a partial line kept from the last
 * call), calling fn on each complete line (NUL-terminated, without its
 * newline); a line longer than buf is dropped.  0 when the pipe has no
 * more for now, or an errno.
 */
errcode_t trace_pipe_read(int fd, char *buf, size_t size, size_t *llen,
			  size_t max_bytes,
			  void (*fn)(char *line, void *arg), void *arg);

/* Events the ring buffer of instance dir overwrote or dropped, over
 * every CPU (0 when its per_cpu stats cannot be read). */
unsigned long trace_lost_events(const char *dir);

#endif
