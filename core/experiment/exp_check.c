/* exp_check.c - an image is fit to be measured before any copy of it is
 * mounted: no external journal (the kernel would write the real device),
 * no journal waiting for recovery, no recorded error, and (unless
 * --no-check) nothing e2fsck -fn reports, since the kernel would mount a
 * damaged copy (or replay its journal) and time that instead. */
#include "exp_run.h"
#include "e2l_err.h"
#include "fsck_run.h"

#include <stdio.h>
#include <string.h>

/* The superblock's own word on the image: 0 when fit. */
static errcode_t check_super(const char *name, const char *image, char *why,
			     size_t len)
{
	struct strbuf msgs = { 0 };
	struct session s;
	struct sink quiet;
	errcode_t err;
	ext2_filsys fs;

	err = exp_open_quiet(&s, &quiet, &msgs, image, why, len);
	if (err)
		goto out;
	fs = s.fs;
	if (ext2fs_has_feature_journal(fs->super) &&
	    !fs->super->s_journal_inum) {
		snprintf(why, len, "%s (%s) has an external journal (device "
			 "%u:%u): the kernel would open that device, not a "
			 "copy, and write to the real journal of another "
			 "filesystem; an experiment runs on images with an "
			 "internal journal or none", name, image,
			 fs->super->s_journal_dev >> 8,
			 fs->super->s_journal_dev & 0xff);
		err = E2L_ERR_NOT_CLEAN;
	} else if (ext2fs_has_feature_journal_dev(fs->super)) {
		snprintf(why, len, "%s (%s) is an external journal device, "
			 "not a filesystem", name, image);
		err = E2L_ERR_NOT_CLEAN;
	} else if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		snprintf(why, len, "%s (%s) needs journal recovery: every "
			 "run's mount would replay its journal first, so the "
			 "runs would not measure this filesystem (recover it "
			 "with e2fsck first)", name, image);
		err = E2L_ERR_NOT_CLEAN;
	} else if ((fs->super->s_state & EXT2_ERROR_FS) ||
		   !(fs->super->s_state & EXT2_VALID_FS)) {
		snprintf(why, len, "%s (%s) is marked %s in its superblock: "
			 "the kernel would mount a damaged filesystem (run "
			 "e2fsck on it first)", name, image,
			 fs->super->s_state & EXT2_ERROR_FS ?
			 "with errors" : "not clean");
		err = E2L_ERR_NOT_CLEAN;
	}
	session_close(&s);
out:
	sink_free(&quiet);
	strbuf_free(&msgs);
	return err;
}

errcode_t exp_check_image(const char *name, const char *image, int fsck,
			  char *why, size_t len)
{
	char prog[4096];
	struct fsck_result r;
	errcode_t err;

	err = check_super(name, image, why, len);
	if (err || !fsck)
		return err;
	if (fsck_find(prog, sizeof(prog))) {
		snprintf(why, len, "cannot check %s: e2fsck not found (put it "
			 "on PATH, name it in E2LAYOUT_E2FSCK, or --no-check)",
			 image);
		return E2L_ERR_NOT_CLEAN;
	}
	memset(&r, 0, sizeof(r));
	err = fsck_run(prog, image, NULL, NULL, &r);
	if (err) {
		snprintf(why, len, "cannot run %s on %s: %s", prog, image,
			 error_message(err));
		return err;
	}
	if (r.status == 0)
		return 0;
	if (r.stalled || r.signal || r.status < 0)
		snprintf(why, len, "%s -fn %s did not finish (%s): refusing "
			 "to mount copies of a filesystem not known to be "
			 "consistent (--no-check skips this)", prog, image,
			 r.stalled ? "no progress" : "killed");
	else
		snprintf(why, len, "%s (%s) is not clean: e2fsck -fn exits %d"
			 "%s%s; the kernel would mount a damaged copy and the "
			 "runs would time that (repair a copy with e2fsck -fy, "
			 "or --no-check to measure it anyway)", name, image,
			 r.status, r.nlines ? ": " : "",
			 r.nlines ? r.line[0] : "");
	return E2L_ERR_NOT_CLEAN;
}
