/* lab_htree.h - indexed directories in the labs: the `names` recipe step
 * and the dir()/dirent() facts (labs/lab_htree.c). */
#ifndef E2L_LAB_HTREE_H
#define E2L_LAB_HTREE_H

#include <ext2fs/ext2fs.h>

#include "sink.h"

struct demo;

/*
 * `names DIR count=N`: makes the empty directory dir (whose ".." is
 * parent) an htree directory and fills it with count empty files of
 * seeded maildir-like names (path is DIR, for their content tags).
 */
errcode_t lab_step_names(struct demo *d, ext2_ino_t dir, ext2_ino_t parent,
			 const char *path, unsigned long count);

/* dir(PATH).indexed (0/1), .depth (the htree's indirect levels: 0 when
 * the root points at leaves), .blocks (its size in blocks) into *n; NULL,
 * or why not. */
const char *lab_fact_dir(ext2_filsys fs, const char *path,
			 const char *field, unsigned long long *n);

/* dirent(/DIR/NAME).hash and .minor (the name's htree hash with this
 * filesystem's seed and hash version, "0x%08x" text, as debugfs's
 * dx_hash and htree print it), .leaf (the directory's logical block that
 * holds the name: a number); into s (and *n, *isnum); NULL, or why not. */
const char *lab_fact_dirent(ext2_filsys fs, const char *path,
			    const char *field, struct strbuf *s,
			    unsigned long long *n, int *isnum);

#endif
