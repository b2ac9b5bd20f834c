/* lab_start.c - `lab start`: builds a trainee's scenario (the seed comes
 * from the lab and the trainee's name) and records it in NAME.state;
 * never over a scenario that may be worked, unless forced, and then
 * without the old answers, state and undo files. */
#include "lab.h"
#include "lab_state.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A random trainee name when nobody is named ("anon-" and 8 hex digits). */
static void random_trainee(char *buf, size_t len)
{
	unsigned int v = 0;
	int fd = open("/dev/urandom", O_RDONLY);

	if (fd < 0 || read(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		v = (unsigned)time(NULL) ^ (unsigned)getpid() << 16;
	if (fd >= 0)
		close(fd);
	snprintf(buf, len, "anon-%08x", v);
}

/* Removes what a worked scenario leaves: answers, state, the companion
 * images and the undo files e2layout wrote for its images (beside them,
 * or in $E2LAYOUT_UNDO_DIR).  Says what it removed. */
static void clear_worked(const struct lab *lab, const char *dir,
			 struct sink *out)
{
	const char *udir = getenv("E2LAYOUT_UNDO_DIR");
	char pat[4096];
	glob_t g;
	size_t i;
	int k;

	for (k = 0; k < 4; k++) {
		if (k >= 2 && (!udir || !*udir || !strcmp(udir, dir)))
			break;
		/* NAME.img's and the companions' NAME-TAG.img's */
		snprintf(pat, sizeof(pat), "%s/e2layout-%s%s.img-*.e2undo",
			 k >= 2 ? udir : dir, lab->name, k & 1 ? "-*" : "");
		if (glob(pat, 0, NULL, &g))
			continue;
		for (i = 0; i < g.gl_pathc; i++)
			if (!unlink(g.gl_pathv[i]))
				out_printf(out, "lab start: removed %s\n",
					   g.gl_pathv[i]);
		globfree(&g);
	}
	for (k = 0; k < 2; k++) {
		snprintf(pat, sizeof(pat), "%s/%s%s", dir, lab->name,
			 k ? ".answers" : ".state");
		if (!unlink(pat))
			out_printf(out, "lab start: removed %s\n", pat);
	}
}

/* mkdir -p dir; 0 or errno. */
static int make_dirs(const char *dir)
{
	char buf[4096], *p;

	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0755) && errno != EEXIST)
			return errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return errno;
	return 0;
}

errcode_t lab_start(struct lab *lab, const char *dir, const char *trainee,
		    int force, char **img, struct sink *out)
{
	char path[4096], name[64], *state = NULL;
	struct lab_state st;
	struct stat sb;
	errcode_t err;
	time_t now = time(NULL);

	*img = NULL;
	if (!trainee || !*trainee)
		trainee = getenv("USER");
	if (trainee && *trainee && lab_trainee_ok(trainee)) {
		out_error(out, "lab", 0, "bad trainee name \"%s\" (letters, "
			  "digits, . _ @ -, at most 63)", trainee);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (trainee && *trainee)
		snprintf(name, sizeof(name), "%s", trainee);
	else
		random_trainee(name, sizeof(name));
	err = make_dirs(dir);
	if (err) {
		out_error(out, "lab", err, "while making %s", dir);
		return err;
	}
	snprintf(path, sizeof(path), "%s/%s.img", dir, lab->name);
	if (!lstat(path, &sb)) {
		if (!force) {
			out_error(out, "lab", 0, "%s exists: a scenario that "
				  "may be worked; lab start --force %s %s "
				  "builds a new one (its answers, state and "
				  "undo files go too), lab reset asks first",
				  path, lab->name, dir);
			return EEXIST;
		}
		if (!S_ISREG(sb.st_mode)) {
			out_error(out, "lab", 0, "%s is not a regular file; "
				  "not replacing it", path);
			return EEXIST;
		}
		clear_worked(lab, dir, out);
	}
	lab->seed = lab_seed_for(lab->name, name);
	snprintf(lab->trainee, sizeof(lab->trainee), "%s", name);
	err = lab_build(lab, dir, img, out);
	if (err)
		return err;
	memset(&st, 0, sizeof(st));
	snprintf(st.lab, sizeof(st.lab), "%s", lab->name);
	snprintf(st.trainee, sizeof(st.trainee), "%s", name);
	st.seed = lab->seed;
	strftime(st.started, sizeof(st.started), "%Y-%m-%dT%H:%M:%SZ",
		 gmtime(&now));
	state = lab_path_beside(*img, ".state");
	err = state ? lab_state_write(state, &st) : ENOMEM;
	if (err) {
		out_error(out, "lab", err, "while writing %s", state ? state :
			  "the lab state");
		unlink(*img);
		free(*img);
		*img = NULL;
	}
	free(state);
	return err;
}
