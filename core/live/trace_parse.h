/* trace_parse.h - the allocator stream's decoder (trace_parse.c), shared by
 * the recording's reads (trace.c).  Not an API outside core/live. */
#ifndef E2L_TRACE_PARSE_H
#define E2L_TRACE_PARSE_H

#include "trace.h"

/* Adds one line of trace text to r: an allocation (joined with the last
 * mballoc record of its inode, kept in pend), a request, a dirty hit. */
void trace_parse_line(struct trace_rec *r, const char *line,
		      struct trace_pending *pend, size_t *npend);

/* Without kernel counters: the totals and the allocations by inode from
 * the allocations the stream holds. */
void trace_inodes_from_stream(struct trace_rec *r);

/* Compacts r's dirty hash table and sorts it by count, largest first. */
void trace_dirty_sort(struct trace_rec *r);

#endif
