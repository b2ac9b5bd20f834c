/* genfiles.c - fills a directory with N files of mixed sizes, aged by
 * deletes and interleaved appends, for the benchmark's "300,000 files" image.
 * Built and run by bench/images/files.sh.  Usage:
 *   genfiles DIR NFILES SEED [--data]
 * Without --data the blocks are fallocate(2)d (allocated, unwritten: a real
 * layout for the extent readers, almost no host disk); with --data one byte
 * is written per 4 KiB block (for a tree that mke2fs -d will copy). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PER_DIR	1000

static uint64_t rng_state;

static uint32_t rnd(void)
{
	/* xorshift64*: deterministic for a given seed */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)((rng_state * 2685821657736338717ULL) >> 32);
}

static uint32_t rnd_range(uint32_t lo, uint32_t hi)
{
	return lo + rnd() % (hi - lo + 1);
}

/* Final size in bytes: mostly one block, some a few, few large. */
static off_t pick_size(void)
{
	uint32_t p = rnd() % 1000, blocks;

	if (p < 720)
		blocks = 1;
	else if (p < 920)
		blocks = rnd_range(2, 4);
	else if (p < 997)
		blocks = rnd_range(5, 16);
	else
		blocks = rnd_range(17, 256);
	return (off_t)(blocks - 1) * 4096 + rnd_range(1, 4096);
}

static int grow(const char *path, off_t from, off_t to, int data)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644), rc = 0;
	off_t off;

	if (fd < 0)
		return errno;
	if (to > from) {
		if (data) {
			for (off = from; off < to && !rc; off += 4096)
				if (pwrite(fd, "x", 1, off) != 1)
					rc = errno;
			if (!rc && ftruncate(fd, to))
				rc = errno;
		} else {
			rc = posix_fallocate(fd, from, to - from);
		}
	}
	if (close(fd) && !rc)
		rc = errno;
	return rc;
}

static void name(char *buf, size_t len, const char *dir, unsigned i)
{
	snprintf(buf, len, "%s/d%03u/f%06u", dir, i / PER_DIR, i);
}

int main(int argc, char **argv)
{
	unsigned nfiles, total, i, j, ndirs;
	off_t *size, *have;
	char *alive;
	char path[4096];
	int data, rc;

	if (argc < 4) {
		fprintf(stderr, "usage: genfiles DIR NFILES SEED [--data]\n");
		return 2;
	}
	nfiles = strtoul(argv[2], NULL, 0);
	rng_state = strtoull(argv[3], NULL, 0) * 0x9E3779B97F4A7C15ULL + 1;
	data = argc > 4 && !strcmp(argv[4], "--data");
	total = nfiles + nfiles / 5;	/* one in six is deleted again */
	ndirs = (total + PER_DIR - 1) / PER_DIR;
	size = calloc(total, sizeof(*size));
	have = calloc(total, sizeof(*have));
	alive = calloc(total, 1);
	if (!size || !have || !alive)
		return 1;
	for (i = 0; i < ndirs; i++) {
		snprintf(path, sizeof(path), "%s/d%03u", argv[1], i);
		if (mkdir(path, 0755) && errno != EEXIST) {
			perror(path);
			return 1;
		}
	}
	/* 1: create every file at about half its size, directories taken in
	 * turn so that their allocations interleave. */
	for (j = 0; j < PER_DIR; j++) {
		for (i = j; i < total; i += PER_DIR) {
			size[i] = pick_size();
			have[i] = size[i] > 4096 ? (size[i] / 2 + 4095) & ~4095
						 : size[i];
			name(path, sizeof(path), argv[1], i);
			rc = grow(path, 0, have[i], data);
			if (rc) {
				fprintf(stderr, "%s: %s\n", path, strerror(rc));
				return 1;
			}
			alive[i] = 1;
		}
	}
	/* 2: age: delete one file in six, at random. */
	for (j = 0; j < total - nfiles; ) {
		i = rnd() % total;
		if (!alive[i])
			continue;
		name(path, sizeof(path), argv[1], i);
		if (unlink(path)) {
			perror(path);
			return 1;
		}
		alive[i] = 0;
		j++;
	}
	/* 3: append the rest of every file in a random order, in two steps,
	 * into the holes the deletes left. */
	for (j = 0; j < 2 * total; j++) {
		i = rnd() % total;
		if (!alive[i] || have[i] >= size[i])
			continue;
		off_t to = j < total ? have[i] + (size[i] - have[i]) / 2
				     : size[i];
		name(path, sizeof(path), argv[1], i);
		rc = grow(path, have[i], to, data);
		if (rc) {
			fprintf(stderr, "%s: %s\n", path, strerror(rc));
			return 1;
		}
		have[i] = to;
	}
	for (i = 0; i < total; i++) {
		if (!alive[i] || have[i] >= size[i])
			continue;
		name(path, sizeof(path), argv[1], i);
		rc = grow(path, have[i], size[i], data);
		if (rc) {
			fprintf(stderr, "%s: %s\n", path, strerror(rc));
			return 1;
		}
	}
	free(size);
	free(have);
	free(alive);
	return 0;
}
