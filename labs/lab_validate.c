/* lab_validate.c - `lab validate FILE|NAME`: a lab is fit to teach when it
 * loads (every key, step and fact known), its scenario builds clean for
 * several trainees, each claim: its text makes holds on every one of
 * them, and its checks fail on a fresh scenario (it cannot be passed by
 * doing nothing). */
#include "lab.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void collect(void *c, enum sink_chan ch, const char *b, size_t n)
{
	(void)ch;
	strbuf_add(c, b, n);
}

static int remove_one(const char *path, const struct stat *sb, int flag,
		      struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (flag == FTW_DP || flag == FTW_DNR)
		rmdir(path);
	else
		unlink(path);
	return 0;	/* go on: remove what can be removed */
}

/* Removes the tree under top, whatever a scenario left in it (images,
 * state, answers, undo files); links are removed, never followed. */
static void remove_tree(const char *top)
{
	nftw(top, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int lab_validate(struct lab *lab, int seeds, struct sink *out)
{
	const char *tmp = getenv("TMPDIR");
	char top[1024], dir[1100], trainee[32], *img = NULL;
	struct strbuf log = {0};
	struct sink cap;
	size_t claims = 0;
	int k, r, bad = 0;

	while (lab_get(lab, "claim", "", claims))
		claims++;
	snprintf(top, sizeof(top), "%s/e2l-validate-XXXXXX",
		 tmp && *tmp && strlen(tmp) < 900 ? tmp : "/tmp");
	if (!mkdtemp(top)) {
		out_error(out, "lab", errno, "while making %s", top);
		return 2;
	}
	out_printf(out, "Lab %s: loads (every key, recipe step and fact is "
		   "known); %zu claim(s)\n", lab->name, claims);
	for (k = 1; k <= seeds; k++) {
		snprintf(trainee, sizeof(trainee), "validate-%d", k);
		snprintf(dir, sizeof(dir), "%s/%d", top, k);
		if (lab_start(lab, dir, trainee, 1, &img, out)) {
			out_printf(out, "  trainee %s: the scenario does not "
				   "build\n", trainee);
			bad++;
			remove_tree(dir);
			continue;
		}
		/* What the text claims, on this trainee's scenario. */
		out_printf(out, "  trainee %s (seed %llu):\n", trainee,
			   (unsigned long long)lab->seed);
		r = lab_check_lines(lab, "claim", img, NULL, 0, out);
		bad += r != 0;
		/* Nothing done: some check must fail. */
		strbuf_reset(&log);
		sink_init_cb(&cap, SINK_TEXT, collect, &log);
		r = lab_check(lab, img, "/dev/null", 0, &cap);
		sink_free(&cap);
		if (r != 1) {
			out_printf(out, "  the checks %s on the fresh scenario"
				   ": the lab passes without work or cannot "
				   "be checked:\n%s", r ? "cannot run" :
				   "all pass", log.buf ? log.buf : "");
			bad++;
		} else {
			out_printf(out, "  the fresh scenario fails its "
				   "checks, as it must\n");
		}
		remove_tree(dir);
		free(img);
		img = NULL;
	}
	remove_tree(top);
	strbuf_free(&log);
	out_printf(out, bad ? "Lab %s is not valid: %d problem(s).\n" :
		   "Lab %s is valid.\n", lab->name, bad);
	return bad ? 1 : 0;
}
