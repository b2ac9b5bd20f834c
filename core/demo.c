/* demo.c - the built-in demo image (being written; see demo.h). */
#include "demo.h"

#include <errno.h>

errcode_t demo_make(const char *path, unsigned long seed, struct sink *log)
{
	(void)path;
	(void)seed;
	out_error(log, "mkdemo", 0, "not available in this build yet");
	return ENOSYS;
}
