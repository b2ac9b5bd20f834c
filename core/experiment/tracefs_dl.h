/* tracefs_dl.h - the libtracefs and libtraceevent functions the experiment
 * counters use, through a table that tracefs_dl_load fills with dlopen when
 * counters are first asked for (expt_available): no other request loads
 * them.  exp_trace_int.h includes this after their headers; each name below
 * then means the table's entry. */
#ifndef E2L_TRACEFS_DL_H
#define E2L_TRACEFS_DL_H

#include <event-parse.h>
#include <stddef.h>
#include <tracefs.h>

#define TRACEFS_DL_FUNCS(X) X(tracefs_event_enable) \
	X(tracefs_event_file_exists) X(tracefs_event_file_read) \
	X(tracefs_event_file_write) X(tracefs_instance_alloc) \
	X(tracefs_instance_create) X(tracefs_instance_destroy) \
	X(tracefs_instance_exists) X(tracefs_instance_file_read) \
	X(tracefs_instance_file_write) X(tracefs_instance_free) \
	X(tracefs_iterate_raw_events) X(tracefs_local_events_system) \
	X(tracefs_trace_off) X(tracefs_trace_on) X(tracefs_tracing_dir) \
	X(tep_find_event_by_name) X(tep_find_field) X(tep_find_function) \
	X(tep_free) X(tep_read_number_field)

struct tracefs_dl {
#define TRACEFS_DL_ENTRY(f) __typeof__(f) *f;
	TRACEFS_DL_FUNCS(TRACEFS_DL_ENTRY)
#undef TRACEFS_DL_ENTRY
};

/* The table: filled once, by the first tracefs_dl_load that succeeds. */
extern struct tracefs_dl tracefs_dl;

/* Loads libtracefs and the libtraceevent it needs (once) and fills the
 * table.  0, or ENOENT with why saying what is missing. */
int tracefs_dl_load(char *why, size_t len);

#ifndef TRACEFS_DL_IMPL
#define tracefs_event_enable (tracefs_dl.tracefs_event_enable)
#define tracefs_event_file_exists (tracefs_dl.tracefs_event_file_exists)
#define tracefs_event_file_read (tracefs_dl.tracefs_event_file_read)
#define tracefs_event_file_write (tracefs_dl.tracefs_event_file_write)
#define tracefs_instance_alloc (tracefs_dl.tracefs_instance_alloc)
#define tracefs_instance_create (tracefs_dl.tracefs_instance_create)
#define tracefs_instance_destroy (tracefs_dl.tracefs_instance_destroy)
#define tracefs_instance_exists (tracefs_dl.tracefs_instance_exists)
#define tracefs_instance_file_read (tracefs_dl.tracefs_instance_file_read)
#define tracefs_instance_file_write (tracefs_dl.tracefs_instance_file_write)
#define tracefs_instance_free (tracefs_dl.tracefs_instance_free)
#define tracefs_iterate_raw_events (tracefs_dl.tracefs_iterate_raw_events)
#define tracefs_local_events_system (tracefs_dl.tracefs_local_events_system)
#define tracefs_trace_off (tracefs_dl.tracefs_trace_off)
#define tracefs_trace_on (tracefs_dl.tracefs_trace_on)
#define tracefs_tracing_dir (tracefs_dl.tracefs_tracing_dir)
#define tep_find_event_by_name (tracefs_dl.tep_find_event_by_name)
#define tep_find_field (tracefs_dl.tep_find_field)
#define tep_find_function (tracefs_dl.tep_find_function)
#define tep_free (tracefs_dl.tep_free)
#define tep_read_number_field (tracefs_dl.tep_read_number_field)
#endif

#endif
