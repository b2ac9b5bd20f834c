/* testlib.h - what the cmocka unit tests share: test images, a session that
 * captures its output in memory, and running the real e2fsprogs tools. */
#ifndef E2L_TESTLIB_H
#define E2L_TESTLIB_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmd.h"

/* A session whose output lands in out/err buffers. */
struct tsession {
	struct session s;
	struct sink sink;
	struct strbuf out, err;
};

/* Path of test image NAME ("ext4") under $E2L_IMAGES; static buffer. */
const char *tl_image(const char *name);

/* Opens image NAME read-only; fails the test on error. */
void tl_open(struct tsession *t, const char *name);
void tl_open_mode(struct tsession *t, const char *name, enum sink_mode mode);
/* Opens the image at path read-only; fails the test on error. */
void tl_open_path(struct tsession *t, const char *path, enum sink_mode mode);
void tl_close(struct tsession *t);

/* Runs one request; returns its status; output in t->out/t->err. */
int tl_run(struct tsession *t, const char *line);

/* Runs a shell command and returns its standard output (malloc'd). */
char *tl_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
