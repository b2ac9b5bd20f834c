/* lab_state.c - reads and writes a trainee's lab state (NAME.state next to
 * the scenario image) and derives the scenario's seed from the lab and
 * the trainee. */
#include "lab_state.h"
#include "e2l_err.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;	/* a separator */
}

uint64_t lab_seed_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

uint64_t lab_seed_for(const char *lab, const char *trainee)
{
	uint64_t h = fnv(0xcbf29ce484222325ULL, "e2layout-lab");

	h = lab_seed_mix(fnv(fnv(h, lab), trainee));
	return h ? h : 1;
}

uint64_t lab_seed_tag(uint64_t seed, const char *tag)
{
	if (!*tag)
		return seed;
	return lab_seed_mix(fnv(seed ^ 0x5851f42d4c957f2dULL, tag));
}

int lab_trainee_ok(const char *name)
{
	size_t n = strlen(name), i;

	if (!n || n > 63)
		return -1;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) &&
		    !strchr("._@-", name[i]))
			return -1;
	return 0;
}

char *lab_path_beside(const char *image, const char *ext)
{
	size_t n = strlen(image);
	char *p;

	if (n > 4 && !strcmp(image + n - 4, ".img"))
		n -= 4;
	p = malloc(n + strlen(ext) + 1);
	if (p) {
		memcpy(p, image, n);
		strcpy(p + n, ext);
	}
	return p;
}

errcode_t lab_state_write(const char *path, const struct lab_state *st)
{
	size_t n = strlen(path) + 8;
	char *tmp = malloc(n);
	errcode_t err = 0;
	FILE *f;

	if (!tmp)
		return ENOMEM;
	snprintf(tmp, n, "%s.new", path);
	f = fopen(tmp, "w");
	if (!f) {
		err = errno;
		goto out;
	}
	fprintf(f, "# e2layout lab state: written by lab start, read by lab "
		"check\nlab = %s\ntrainee = %s\nseed = %llu\nstarted = %s\n",
		st->lab, st->trainee, (unsigned long long)st->seed,
		st->started);
	if (fclose(f))
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err)
		unlink(tmp);
out:
	free(tmp);
	return err;
}

/* "key = value" into buf (len); 0 when found. */
static int field(const char *line, const char *key, char *buf, size_t len)
{
	size_t k = strlen(key);
	const char *v;
	size_t n;

	if (strncmp(line, key, k))
		return -1;
	for (v = line + k; *v == ' ' || *v == '\t'; v++)
		;
	if (*v++ != '=')
		return -1;
	while (*v == ' ' || *v == '\t')
		v++;
	n = strcspn(v, "\r\n");
	if (n >= len)
		return -1;
	memcpy(buf, v, n);
	buf[n] = 0;
	return 0;
}

FILE *lab_fopen_regular(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode) ||
	    fcntl(fd, F_SETFL, 0) || !(f = fdopen(fd, "r"))) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	return f;
}

errcode_t lab_state_read(const char *path, struct lab_state *st)
{
	char line[256], seed[32] = "";
	int have = 0;
	char *end;
	FILE *f;

	memset(st, 0, sizeof(*st));
	f = lab_fopen_regular(path);
	if (!f)
		return errno == EINVAL ? E2L_ERR_BAD_ARGUMENT : errno;
	while (fgets(line, sizeof(line), f)) {
		if (!field(line, "lab", st->lab, sizeof(st->lab)))
			have |= 1;
		else if (!field(line, "trainee", st->trainee,
				sizeof(st->trainee)))
			have |= 2;
		else if (!field(line, "seed", seed, sizeof(seed)))
			have |= 4;
		else
			field(line, "started", st->started,
			      sizeof(st->started));
	}
	fclose(f);
	errno = 0;
	st->seed = strtoull(seed, &end, 10);
	if (have != 7 || errno || end == seed || *end || !st->seed ||
	    lab_trainee_ok(st->trainee))
		return E2L_ERR_BAD_ARGUMENT;
	return 0;
}
