/* lab_int.h - shared between the lab check language (lab_check.c), the
 * fact language (lab_fact.c) and the fact families it reads from images
 * (lab_fact_fs.c, lab_fact_file.c); not for other modules. */
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
/* NULL when e is a well-formed expression of known facts, else why not
 * (nothing is read: lab load and lab validate). */
const char *lab_fact_known(const char *e);
/* trace(NAME).field of NAME.json beside image (uuid, first, group,
 * inode, blocks of the file the traced command wrote); NULL or why not. */
const char *lab_fact_trace(const char *image, const char *name,
			   const char *field, struct lab_fact *f);
/* What a fact names: its image's session (NULL for facts read beside
 * the image), its name ("file", "groups", "journal"), its numeric
 * argument or path and its field ("" when none). */
struct lab_fact_arg {
	struct lab_images *im;
	struct session *s;
	const char *name, *field, *path;
	unsigned long long n;
};

/* f becomes the number n. */
void lab_fact_num(struct lab_fact *f, unsigned long long n);
/* Adds ",A-B" (or ",A" when len is 1) to f's text. */
void lab_fact_range(struct lab_fact *f, blk64_t a, blk64_t len);

/*
 * The fact families: each reads its fact into f (which starts empty, not
 * a number) and returns NULL, or why it cannot.  The superblock's numbers
 * and fs.FIELD (lab_fact_fs.c); GROUPFACT(G) and group_of(B); owner(B);
 * journal.FIELD; flex(N).FIELD; file(P).FIELD, inode(N).FIELD, deleted,
 * frag.worst[.extents] (lab_fact_file.c).
 */
const char *lab_fact_super(const struct lab_fact_arg *a, struct lab_fact *f);
const char *lab_fact_group(const struct lab_fact_arg *a, struct lab_fact *f);
const char *lab_fact_owner(const struct lab_fact_arg *a, struct lab_fact *f);
const char *lab_fact_journal(const struct lab_fact_arg *a,
			     struct lab_fact *f);
const char *lab_fact_flex(const struct lab_fact_arg *a, struct lab_fact *f);
const char *lab_fact_file(const struct lab_fact_arg *a, struct lab_fact *f);
const char *lab_fact_inode(const struct lab_fact_arg *a, struct lab_fact *f);
const char *lab_fact_deleted(const struct lab_fact_arg *a,
			     struct lab_fact *f);
const char *lab_fact_worst(const struct lab_fact_arg *a, struct lab_fact *f);

/* exp(NAME).field of NAME.json beside image, a saved experiment --json
 * result: bound, same, runs, change, workload, mount, METRIC.significant,
 * .mean_a, .mean_b, .ci_zero, .verdict; NULL or why not. */
const char *lab_fact_exp(const char *image, const char *name,
			 const char *field, struct lab_fact *f);
/* 1 when field[0..n) is a field exp(NAME) has. */
int lab_exp_field_ok(const char *field, size_t n);

/* A 64-bit checksum of a file's content and size, as 16 hex digits. */
errcode_t lab_file_sum(ext2_filsys fs, ext2_ino_t ino, char out[17]);

/* "files kept": every regular file of the fresh scenario is in the
 * checked image at the same path with the same content; NULL, or why not
 * (the first file that is missing or changed). */
const char *lab_files_kept(struct lab_images *im, struct strbuf *why);

/*
 * The recipe's kernel steps ("kernel mkdir /PATH", "kernel write /PATH
 * size=BYTES", n lines) on the finished image img: loop-mounted in a
 * temporary directory, done through the kernel, unmounted.  EPERM with a
 * message naming where when not root or the mount is refused.
 */
errcode_t lab_kernel_steps(const char *img, char **lines, int n,
			   uint64_t seed, const char *where, struct sink *out);

/* Canonical text of a set of numbers and ranges ("3,1-2, 5-5" ->
 * "1-3,5"): 0, or -1 when in is not such a set. */
int lab_norm_set(const char *in, struct strbuf *out);

#endif
