/* plan_file_int.h - what the plan-file reader (plan_parse.c), the repack
 * lines (plan_repack_run.c) and the checks of a loaded plan (plan_check.c)
 * share: the limits, the strict number reader, and where each entry of a
 * loaded plan was read, so that a refusal can name its line. */
#ifndef E2L_PLAN_FILE_INT_H
#define E2L_PLAN_FILE_INT_H

#include "plan.h"

#define PLAN_MAGIC	"e2layout-plan 1"
#define PLAN_LINE_MAX	512		/* bytes, newline included */
#define PLAN_MAX_ENTRIES (1UL << 22)	/* old/new/step/... lines */
#define PLAN_MAX_PLANS	(1UL << 17)	/* plans in one chain */
#define PLAN_MAX_TOKENS	12
#define PLAN_BLK_LIMIT	(1ULL << 48)	/* ext4 block numbers */
#define PLAN_LBLK_LIMIT	(1ULL << 32)	/* logical block numbers */

/* The one-of-a-kind lines of a plan. */
enum plan_field {
	PF_KIND, PF_INO, PF_EXTENTS, PF_TARGET, PF_NEW_META, PF_NEW_SIZE,
	PF_CHAINED, PF_FP, PF_SET_SIZE, PF_CREATE, PF_REPACK, PF_DIR_BLOCKS,
	PF_MAX
};

struct plan_lines {
	char *path;			/* the file it was read from */
	unsigned first, last;		/* its first line, its next/end */
	unsigned field[PF_MAX];		/* 0: the line is absent */
	unsigned *old, *old_meta, *new, *steps, *ritems;
};

/* Parses a whole decimal token (digits only: no sign, no spaces, no
 * base prefix) of at most max; 0, or -1 with why set. */
int plan_tok_num(const char *tok, unsigned long long max,
		 unsigned long long *v, char *why, size_t whylen);

/*
 * plan_repack_run.c: one line of a repack plan, already split into tokens.
 * 1: it was a repack line (parsed), 0: not one, -1: bad (why set).
 */
int plan_repack_parse(struct plan *p, char **tok, int ntok, unsigned lineno,
		      char *why, size_t whylen);

/* The line of entry i of one of a loaded plan's lists (0 if unknown). */
static inline unsigned plan_line_of(const unsigned *lines, size_t i)
{
	return lines ? lines[i] : 0;
}

#endif
