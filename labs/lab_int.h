/* lab_int.h - shared between the lab check language (lab_check.c) and the
 * facts it reads from images (lab_fact.c); not for other modules. */
#ifndef E2L_LAB_INT_H
#define E2L_LAB_INT_H

#include "lab.h"
#include "session.h"

struct lab_fact {
	struct strbuf s;	/* the value as text */
	unsigned long long n;
	int isnum;
};

/* The images a lab's facts may name: the checked one, a companion
 * "NAME-TAG.img" ([TAG]), and the fresh scenario ([start]) rebuilt from
 * the recipe into a temporary file the first time a fact asks for it. */
struct lab_images {
	const struct lab *lab;
	const char *image;
	struct sink quiet;	/* errors of helper sessions */
	struct session main, other, start;
	char other_tag[32];
	char start_path[64];	/* "" until built */
};

errcode_t lab_images_open(struct lab_images *im, const struct lab *lab,
			  const char *image, struct sink *out);
void lab_images_close(struct lab_images *im);

/*
 * Evaluates a fact ("journal.extents", "[start]frag.worst",
 * "file([start]frag.worst).extents", "A - B"...) into f; NULL on success,
 * else why it could not.  f->s must start empty or reset.
 */
const char *lab_fact_eval(struct lab_images *im, const char *e,
			  struct lab_fact *f);

#endif
