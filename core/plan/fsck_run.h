/* fsck_run.h - running the real e2fsck -fn on a device (no shell, stdin
 * /dev/null, output bounded), with its progress (-C FD) and the first lines
 * in which it reports a problem. */
#ifndef E2L_FSCK_RUN_H
#define E2L_FSCK_RUN_H

#include <ext2fs/ext2fs.h>
#include <stddef.h>

#define FSCK_QUOTE_LINES	5	/* problem lines kept */
#define FSCK_LINE_MAX		200	/* bytes kept of each */

struct fsck_result {
	int status;		/* its exit status; -1 if it did not exit */
	int signal;		/* the signal that ended it, else 0 */
	int stalled;		/* killed after this many seconds without
				   progress ($E2LAYOUT_FSCK_STALL), else 0 */
	int nlines;		/* problem lines kept in line[] */
	char line[FSCK_QUOTE_LINES][FSCK_LINE_MAX];
};

/*
 * The e2fsck to run: $E2LAYOUT_E2FSCK when set (a path, or a name looked up
 * on PATH), else "e2fsck" on PATH.  Copies its path into path; ENOENT when
 * there is none.
 */
errcode_t fsck_find(char *path, size_t len);

/*
 * Runs prog -fn -C FD device (argv, never a shell) with stdin /dev/null
 * and waits for it.  progress (may be NULL) is called with 0..100 as the
 * passes advance.  r gets the exit status and the first problem lines of
 * its output: its banner, pass headings, answers ("Fix? no") and summary
 * are left out.  Output past 64 KiB is read and dropped.  Errors are for
 * failures to start it (pipe, fork); a program that cannot be executed
 * exits 127 with its reason in r->line[0].  An e2fsck whose progress gets no
 * further for $E2LAYOUT_FSCK_STALL seconds (300) is killed: r->stalled.
 */
errcode_t fsck_run(const char *prog, const char *device,
		   void (*progress)(void *ctx, int pct), void *ctx,
		   struct fsck_result *r);

#endif
