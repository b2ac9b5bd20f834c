/* exp_json.h - a small strict JSON reader for the files e2layout reads back
 * (an experiment's --json result): a tree of values, bounded in depth and
 * size, every string made safe to show on a terminal. */
#ifndef E2L_EXP_JSON_H
#define E2L_EXP_JSON_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

#define EXPJ_MAX_DEPTH	32
#define EXPJ_MAX_NODES	(4u << 20)

enum expj_type { EXPJ_NULL, EXPJ_BOOL, EXPJ_NUM, EXPJ_STR, EXPJ_ARR,
		 EXPJ_OBJ };

struct expj {
	enum expj_type type;
	int b;			/* EXPJ_BOOL */
	double num;		/* EXPJ_NUM: always finite */
	char *str;		/* EXPJ_STR: no control characters */
	size_t n;		/* EXPJ_ARR, EXPJ_OBJ: members */
	struct expj *kids;	/* their values */
	char **keys;		/* EXPJ_OBJ: their names */
};

/*
 * Parses len bytes of text (one JSON value, nothing after it but white
 * space) into *out (free it with expj_free).  0, or E2L_ERR_BAD_RESULT_FILE
 * with why saying what is wrong and at which byte, or ENOMEM.  Control
 * characters a string spells with \u escapes become '?'.
 */
errcode_t expj_parse(const char *text, size_t len, struct expj **out,
		     char *why, size_t wlen);
void expj_free(struct expj *v);

/* The member key of object v, or NULL (v not an object, key missing). */
const struct expj *expj_get(const struct expj *v, const char *key);
/* The same, only when it has type t. */
const struct expj *expj_get_type(const struct expj *v, const char *key,
				 enum expj_type t);

#endif
