/* man.h - the e2layout(8) manual page, made at build time by
 * help/gen_man.sh (without running e2layout) and compiled in; a front
 * end's, not core's. */
#ifndef E2L_MAN_H
#define E2L_MAN_H

#include "sink.h"

/* The page (roff), byte for byte the file the build installs
 * (build/gen/man_page.c, generated from build/gen/e2layout.SECTION). */
extern const char help_man_page[];

/* Writes the manual page to out, as installed. */
void help_write_man(struct sink *out);

#endif
