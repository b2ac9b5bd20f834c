/* curses_dl.c - loading ncurses when the full-screen view starts and
 * filling the table its calls go through (see curses_dl.h). */
#define CURSES_DL_IMPL
#include "curses_dl.h"
#include "dynlib.h"

#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* Process-wide like the loader's own symbol table: written once, before the
 * view's first call, and the same for every session. */
struct curses_dl curses_dl;

#define CURSES_DL_NAME(f) #f,
static const char *const names[] = {
	CURSES_DL_FUNCS(CURSES_DL_NAME) CURSES_DL_VARS(CURSES_DL_NAME)
};
#define CURSES_DL_N (sizeof(names) / sizeof(names[0]))

int curses_dl_load(char *why, size_t len)
{
	/* the wide-character library this program was compiled against */
	static const char *const sonames[] = {
		"libncursesw.so." STR(NCURSES_VERSION_MAJOR), "libncursesw.so",
		NULL,
	};
	void *addr[CURSES_DL_N];
	size_t i = 0;
	int err;

	if (curses_dl.newterm)
		return 0;
	err = dynlib_open(sonames, names, addr, CURSES_DL_N, why, len);
	if (err)
		return err;
	/* POSIX: dlsym's address converts to a function pointer */
#define CURSES_DL_SET(f) memcpy(&curses_dl.f, &addr[i++], sizeof(void *));
	CURSES_DL_FUNCS(CURSES_DL_SET)
	CURSES_DL_VARS(CURSES_DL_SET)
	return 0;
}
