/* alloc_tune.h - `alloc tunables|set|revert` (core/live/alloc_tune.c),
 * called by the alloc request (core/requests/alloc.c) on a live session. */
#ifndef E2L_ALLOC_TUNE_H
#define E2L_ALLOC_TUNE_H

#include "cmd.h"

int alloc_tunables(struct session *s);
/* argv[0] "alloc", argv[1] "set", then NAME=VALUE... [--preview]. */
int alloc_set(struct session *s, int argc, char **argv);
int alloc_revert(struct session *s);

#endif
