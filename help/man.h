/* man.h - the e2layout(1) manual page, rendered from the command table and
 * help/ (man.c); a front end's, not core's. */
#ifndef E2L_MAN_H
#define E2L_MAN_H

#include "sink.h"

/* Writes the e2layout(1) manual page (roff) to out. */
void help_write_man(struct sink *out);

#endif
