/* fuzz_common.h - what both libFuzzer harnesses share: a seed image copied
 * into a memfd, and a session on it whose output goes nowhere. */
#ifndef E2L_FUZZ_COMMON_H
#define E2L_FUZZ_COMMON_H

#include "cmd.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct fuzz_seed {
	unsigned char *data;
	size_t len;
};

static void fuzz_discard(void *ctx, enum sink_chan chan, const char *buf,
			 size_t len)
{
	(void)ctx;
	(void)chan;
	(void)buf;
	(void)len;
}

/* Loads $E2L_FUZZ_SEED (a small image made by tests/fuzz/run_fuzz.sh). */
static void fuzz_load_seed(struct fuzz_seed *seed)
{
	const char *path = getenv("E2L_FUZZ_SEED");
	FILE *f;
	long n;

	if (!path)
		path = "build/fuzz/seed.img";
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0) {
		fprintf(stderr, "fuzz: cannot read seed image %s "
			"(set E2L_FUZZ_SEED)\n", path);
		exit(2);
	}
	rewind(f);
	seed->len = n;
	seed->data = malloc(n);
	if (!seed->data || fread(seed->data, 1, n, f) != (size_t)n) {
		fprintf(stderr, "fuzz: cannot read seed image %s\n", path);
		exit(2);
	}
	fclose(f);
}

/*
 * A memfd holding the seed with data written over its start; *path names
 * it for libext2fs.  Returns the fd (close it when done) or -1.
 */
static int fuzz_image_fd(const struct fuzz_seed *seed, const uint8_t *data,
			 size_t size, char *path, size_t pathlen)
{
	int fd = memfd_create("e2l-fuzz", 0);

	if (fd < 0)
		return -1;
	if (size > seed->len)
		size = seed->len;
	if (write(fd, data, size) != (ssize_t)size ||
	    write(fd, seed->data + size, seed->len - size) !=
	    (ssize_t)(seed->len - size)) {
		close(fd);
		return -1;
	}
	snprintf(path, pathlen, "/proc/self/fd/%d", fd);
	return fd;
}

#endif
