/* lab_state.h - a trainee's lab state: NAME.state next to NAME.img says
 * which lab, which trainee and which seed built the scenario. */
#ifndef E2L_LAB_STATE_H
#define E2L_LAB_STATE_H

#include "lab.h"

#include <stdio.h>

struct lab_state {
	char lab[64];
	char trainee[64];
	uint64_t seed;
	char started[32];	/* UTC, ISO 8601 */
};

/* The seed of lab for trainee: a hash of both, so that two trainees get
 * different scenarios and one trainee the same one again. */
uint64_t lab_seed_for(const char *lab, const char *trainee);
/* A 64-bit finalizer (splitmix64's): every bit of z stirs every bit of
 * the result. */
uint64_t lab_seed_mix(uint64_t z);
/* The seed a companion image's tag gets (its own UUID and contents). */
uint64_t lab_seed_tag(uint64_t seed, const char *tag);
/* 0 when name is a usable trainee name ([A-Za-z0-9._@-], 1..63). */
int lab_trainee_ok(const char *name);

/* IMAGE with .img replaced by ext (".state", ".answers"); free(). */
char *lab_path_beside(const char *image, const char *ext);

/* Opens path for reading if it is a regular file (a trainee's FIFO or
 * device in its place must not block lab check or lab class): NULL with
 * errno set otherwise (EINVAL for what is not a regular file). */
FILE *lab_fopen_regular(const char *path);

/* Writes the state file path (atomically: a temporary file renamed). */
errcode_t lab_state_write(const char *path, const struct lab_state *st);
/* Reads it: ENOENT when there is none, E2L_ERR_BAD_ARGUMENT when it is
 * not a lab state (nor a regular file). */
errcode_t lab_state_read(const char *path, struct lab_state *st);

#endif
