/* rl_dl.c - loading GNU readline when the interactive shell starts and
 * filling the table its calls go through (see rl_dl.h). */
#define RL_DL_IMPL
#include "rl_dl.h"
#include "dynlib.h"

#include <string.h>

#define STR_(x) #x
#define STR(x) STR_(x)

/* Process-wide like the loader's own symbol table: written once, before the
 * shell's first call, and the same for every session. */
struct rl_dl rl_dl;

#define RL_DL_NAME(f) #f,
static const char *const names[] = {
	RL_DL_FUNCS(RL_DL_NAME) RL_DL_VARS(RL_DL_NAME)
};
#define RL_DL_N (sizeof(names) / sizeof(names[0]))

int rl_dl_load(char *why, size_t len)
{
	/* the major version this program was compiled against */
	static const char *const sonames[] = {
		"libreadline.so." STR(RL_VERSION_MAJOR), "libreadline.so", NULL,
	};
	void *addr[RL_DL_N];
	size_t i = 0;
	int err;

	if (rl_dl.readline)
		return 0;
	err = dynlib_open(sonames, names, addr, RL_DL_N, why, len);
	if (err)
		return err;
	/* POSIX: dlsym's address converts to a function pointer */
#define RL_DL_SET(f) memcpy(&rl_dl.f, &addr[i++], sizeof(void *));
	RL_DL_FUNCS(RL_DL_SET)
	RL_DL_VARS(RL_DL_SET)
	return 0;
}
