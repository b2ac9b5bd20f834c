/* dynlib.c - opening an optional shared library and finding its symbols
 * (see dynlib.h). */
#include "dynlib.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>

int dynlib_open(const char *const *sonames, const char *const *names,
		void **addr, size_t n, char *why, size_t len)
{
	const char *err;
	void *h = NULL;
	size_t i;

	snprintf(why, len, "cannot load %s", sonames[0]);
	for (i = 0; sonames[i] && !h; i++) {
		h = dlopen(sonames[i], RTLD_NOW | RTLD_LOCAL);
		err = h ? NULL : dlerror();
		/* the first name's reason: the one this program was built for */
		if (!h && i == 0 && err)
			snprintf(why, len, "cannot load %s (%s)", sonames[0],
				 err);
	}
	if (!h)
		return ENOENT;
	for (i = 0; i < n; i++) {
		dlerror();
		addr[i] = dlsym(h, names[i]);
		if (!addr[i]) {
			snprintf(why, len, "%s has no symbol %s", sonames[0],
				 names[i]);
			dlclose(h);
			return ENOENT;
		}
	}
	return 0;
}
