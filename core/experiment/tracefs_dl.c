/* tracefs_dl.c - loading libtracefs (and libtraceevent) when experiment
 * counters are first asked for, and filling the table their calls go
 * through (see tracefs_dl.h). */
#define TRACEFS_DL_IMPL
#include "tracefs_dl.h"
#include "dynlib.h"

#include <string.h>

/* Process-wide like the loader's own symbol table: written once, before the
 * first counter is set up, and the same for every session. */
struct tracefs_dl tracefs_dl;

#define TRACEFS_DL_NAME(f) #f,
static const char *const names[] = {
	TRACEFS_DL_FUNCS(TRACEFS_DL_NAME)
};
#define TRACEFS_DL_N (sizeof(names) / sizeof(names[0]))

int tracefs_dl_load(char *why, size_t len)
{
	/* libtracefs 1.x, which finds libtraceevent itself: the tep_
	 * functions are looked up through it */
	static const char *const sonames[] = {
		"libtracefs.so.1", "libtracefs.so", NULL,
	};
	void *addr[TRACEFS_DL_N];
	size_t i = 0;
	int err;

	if (tracefs_dl.tracefs_tracing_dir)
		return 0;
	err = dynlib_open(sonames, names, addr, TRACEFS_DL_N, why, len);
	if (err)
		return err;
	/* POSIX: dlsym's address converts to a function pointer */
#define TRACEFS_DL_SET(f) memcpy(&tracefs_dl.f, &addr[i++], sizeof(void *));
	TRACEFS_DL_FUNCS(TRACEFS_DL_SET)
	return 0;
}
