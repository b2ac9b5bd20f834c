/* lab.h - training labs: data in help/labs/NAME.lab (compiled into the
 * binary), parsed here; scenario recipes (lab_recipe.c) and checks
 * (lab_check.c) are small declarative languages interpreted by core code. */
#ifndef E2L_LAB_H
#define E2L_LAB_H

#include <ext2fs/ext2fs.h>
#include <stdint.h>

#include "sink.h"

/* One "key[tag]: value" entry of a .lab file (continuation lines, which
 * start with white space, are joined to value with a newline). */
struct lab_line {
	char *key, *tag, *val;
	int lineno;
};

struct lab {
	char *buf;		/* the parsed copy of the text */
	char *name;		/* own copy */
	const char *title;
	int live;		/* "needs: live": no offline check */
	int mount;		/* "needs: mount": its recipe mounts */
	struct lab_line *l;
	size_t n;
	/* The scenario: its seed (from the trainee's lab state, 0 before
	 * one is known) picks the recipe's {choices}, UUIDs and contents. */
	uint64_t seed;
	char trainee[64];
};

/* Loads lab name: DIR/name.lab when $E2LAYOUT_LABS names a directory
 * holding it, else the compiled-in one; EXT2_ET_INVALID_ARGUMENT with a
 * message on out when the text is malformed (an unknown key, recipe step
 * or fact), ENOENT when there is no such lab. */
errcode_t lab_load(const char *name, struct lab *lab, struct sink *out);
/* Loads a .lab file by path (lab validate, --labs). */
errcode_t lab_load_file(const char *path, struct lab *lab, struct sink *out);
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

/* Expands a recipe line's seeded choices ({A|B}, {LO..HI[:STEP]}); a new
 * string (free()), or NULL with a message naming where on out. */
char *lab_recipe_expand(const char *line, uint64_t seed, const char *where,
			struct sink *out);

/* The recipe steps that damage a scenario (lab_damage.c): delete PATH,
 * corrupt links PATH N | free_blocks N | bitmap PATH, dirty_journal PATH. */
errcode_t lab_step_delete(ext2_filsys fs, const char *path);
errcode_t lab_step_corrupt(ext2_filsys fs, char **w, int n);
errcode_t lab_step_dirty_journal(ext2_filsys fs, const char *path);

/* 1 when word is a recipe step (mkfs, journal, file, ...). */
int lab_recipe_step_known(const char *word);

/* flex(N).layout ("bb:A-B;ib:...;it:...") or, when packed, flex(N).packed
 * ("1" or "0") into sb; NULL, or why not. */
const char *lab_flex_layout(ext2_filsys fs, unsigned long flex, int packed,
			    struct strbuf *sb);

/*
 * Runs the checks against image (answers: a file of "KEY = VALUE" lines,
 * or NULL for IMAGE's name with .answers for .img): first the scenario
 * check (IMAGE's lab state, NAME.state, names this lab and the image is
 * the one its seed builds: lab->seed and lab->trainee are set from it),
 * then the lab's.  Writes an account of each check (json: one JSON
 * object); returns 0 when all pass, 1 when one fails, 2 when the checks
 * could not run.
 */
int lab_check(struct lab *lab, const char *image, const char *answers,
	      int json, struct sink *out);
/* The same with the lines of key ("claim": the facts a lab's text
 * states, lab validate). */
int lab_check_lines(struct lab *lab, const char *key, const char *image,
		    const char *answers, int json, struct sink *out);
/* NULL when a check: line is well-formed with known facts, else why. */
const char *lab_check_known(const char *line);

/* Builds lab's scenario in dir for trainee (NULL: $USER, else a random
 * name): refuses an existing DIR/NAME.img unless force, which also
 * removes the old answers, state and undo files.  *img: the image. */
errcode_t lab_start(struct lab *lab, const char *dir, const char *trainee,
		    int force, char **img, struct sink *out);

/* lab validate: every fact and step known (at load), and for seeds
 * trainees: the scenario builds clean, every claim: holds on it and some
 * check fails on it.  0 when valid. */
int lab_validate(struct lab *lab, int seeds, struct sink *out);

/* lab class DIR: who passed what, from the trainees' directories. */
int lab_class(const char *dir, int json, struct sink *out);

/*
 * `e2layout lab ...`: list, show, hint, start, check, validate, reset,
 * class.  Returns the exit status, or for `start` on a terminal -2 (open
 * the scenario read-write) or -1 (read-only: a live lab, whose image gets
 * mounted): then *tui_image and *tui_text (free() both) name the image to
 * open and the lab panel's text.
 */
int lab_cli(int argc, char **argv, struct sink *out, int interactive,
	    char **tui_image, char **tui_text);

#endif
