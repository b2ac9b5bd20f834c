/* dynlib.h - an optional shared library loaded when a face of e2layout first
 * needs it (dlopen), its functions and variables found by name. */
#ifndef E2L_DYNLIB_H
#define E2L_DYNLIB_H

#include <stddef.h>

/*
 * The start of every run pays for each library the program links: opening,
 * mapping and relocating it, and on a cold cache reading it.  ncurses (the
 * full-screen view), readline (the interactive shell) and libtracefs with
 * libtraceevent (the experiment counters) are needed by one face each, so
 * each of those faces loads its library here, through a table of its own.
 *
 * Opens the first of sonames (NULL-terminated) that loads and finds the n
 * symbols names[0..n-1] in it (or the libraries it needs), their addresses
 * in addr[].  Returns 0, or ENOENT with why saying which library or symbol
 * is missing (and nothing kept loaded).  The library stays loaded for the
 * rest of the process: the pointers into it are the caller's.
 */
int dynlib_open(const char *const *sonames, const char *const *names,
		void **addr, size_t n, char *why, size_t len);

#endif
