/* tui_exp.h - the experiment's state in the TUI, shared by the run in a
 * child process (exp_child.c) and the result panel (view_exp.c). */
#ifndef E2L_TUI_EXP_H
#define E2L_TUI_EXP_H

#include <sys/types.h>

#include <ext2fs/ext2fs.h>

#include "exp_result.h"

struct tui_exp {
	struct exp_result res;
	int have;			/* res holds a result */
	char src[PATH_MAX + 16];	/* the file it came from, or "run" */
	int shown, top;			/* the panel is up; its scroll */
	int lines;			/* lines the panel had last drawn */
	/* A run in progress: `e2layout experiment ... --json` with its
	 * standard output in a temporary file, its progress lines on a
	 * pipe.  pid 0 when none. */
	pid_t pid;
	int errfd;
	char out[PATH_MAX];
	char buf[1024];
	size_t blen;
	char progress[256];		/* its last progress line */
	char last_err[512];		/* its last other line */
	unsigned done, total;		/* runs */
	__u64 kdev;			/* the current run's loop device */
	char dev[32];			/* "loop3"; "" between runs */
	double started;
	int cancelling;
};

#endif
