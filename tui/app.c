/* app.c - the full-screen inspector (being written; see tui.h). */
#include "tui.h"

#include <stdio.h>

int tui_main(struct session *s, const char *keys)
{
	(void)s;
	(void)keys;
	fprintf(stderr, "e2layout: the full-screen view is not in this build "
			"yet; use \"e2layout shell IMAGE\"\n");
	return 1;
}
