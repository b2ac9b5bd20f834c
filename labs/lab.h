/* lab.h - training labs: data in help/labs/NAME.lab (compiled into the
 * binary), parsed here; scenario recipes (lab_recipe.c) and checks
 * (lab_check.c) are small declarative languages interpreted by core code. */
#ifndef E2L_LAB_H
#define E2L_LAB_H

#include <ext2fs/ext2fs.h>

#include "sink.h"

/* One "key[tag]: value" entry of a .lab file (continuation lines, which
 * start with white space, are joined to value with a newline). */
struct lab_line {
	char *key, *tag, *val;
	int lineno;
};

struct lab {
	char *buf;		/* the parsed copy of the text */
	const char *name, *title;
	int live;		/* "needs: live": no offline check */
	struct lab_line *l;
	size_t n;
};

/* Loads the compiled-in lab name; EXT2_ET_INVALID_ARGUMENT with a message
 * on out when the text is malformed, ENOENT when there is no such lab. */
errcode_t lab_load(const char *name, struct lab *lab, struct sink *out);
void lab_free(struct lab *lab);
/* The i-th value (0-based) of key with tag ("" for none); NULL past the
 * end. */
const char *lab_get(const struct lab *lab, const char *key, const char *tag,
		    size_t i);

/* Writes the lab's title, goal and numbered steps (the lab panel). */
void lab_describe(const struct lab *lab, struct strbuf *sb);

/* Builds the scenario images: DIR/NAME.img (tag "") and DIR/NAME-TAG.img
 * for every other recipe tag.  *img gets the main image's path (free()). */
errcode_t lab_build(const struct lab *lab, const char *dir, char **img,
		    struct sink *out);
/* Builds one recipe (recipe lines with tag) into path. */
errcode_t lab_recipe_run(const struct lab *lab, const char *tag,
			 const char *path, struct sink *out);

/* Runs the checks against image (answers: a file of "KEY = VALUE" lines,
 * or NULL for IMAGE's name with .answers for .img).  Writes an account of
 * each check; returns 0 when all pass, 1 when one fails, 2 when the checks
 * could not run. */
/* flex(N).layout ("bb:A-B;ib:...;it:...") or, when packed, flex(N).packed
 * ("1" or "0") into sb; NULL, or why not. */
const char *lab_flex_layout(ext2_filsys fs, unsigned long flex, int packed,
			    struct strbuf *sb);
int lab_check(const struct lab *lab, const char *image, const char *answers,
	      struct sink *out);

/*
 * `e2layout lab ...`: list, show, hint, start, check.  Returns the exit
 * status, or for `start` on a terminal -2 (open the scenario read-write) or
 * -1 (read-only: a live lab, whose image gets mounted): then *tui_image and
 * *tui_text (free() both) name the image to open and the lab panel's text.
 */
int lab_cli(int argc, char **argv, struct sink *out, int interactive,
	    char **tui_image, char **tui_text);

#endif
