/* help.h - help text compiled from help/ (see help/gen_help.sh). */
#ifndef E2L_HELP_H
#define E2L_HELP_H

#include "sink.h"

struct help_doc {
	const char *kind;	/* "cmd" or "topics" */
	const char *name;	/* command or topic name */
	const char *text;
};

/* NULL-terminated; generated from help/cmd/ and help/topics/. */
extern const struct help_doc help_docs[];

/* The document of that kind and name, or NULL. */
const char *help_find(const char *kind, const char *name);

#endif
