/* plan_apply_undo.c - an apply's undo file: started (an earlier apply's
 * finished), the session stopped from writing when it failed, and what it
 * can still restore said plainly. */
#include "plan_apply_undo.h"
#include "e2l_err.h"
#include "undo_guard.h"

#include <stdlib.h>
#include <string.h>

/* What the undo file can still do after an apply that failed (applied:
 * 0) or whose undo file failed (applied: 1), said plainly; own: the file
 * is this apply's (else an earlier apply's, still recording). */
void apply_undo_verdict(struct session *s, const char *path, int own,
			int applied, errcode_t stale, errcode_t werr,
			int recorded)
{
	int jnl = s->fs && ext2fs_has_feature_journal(s->fs->super);
	char *cmd = undo_restore_cmd(path, s->device);

	if (!recorded)	/* every write waits for its record first */
		out_error(s->out, "apply", werr, "%s%s: nothing was written to "
			  "%s (the undo file holds nothing; remove it)",
			  werr ? "while starting the undo file " :
			  "the undo file ", path, s->device);
	else if (!stale)
		out_error(s->out, "apply", 0, "the undo file %s %srecords "
			  "every block written before the failure: `%s` puts %s "
			  "back as it was before %s%s", path,
			  werr ? "could not be written further, but " : "",
			  cmd ? cmd : "e2undo", s->device, own ? "this apply" :
			  "the apply that started it", werr ? "; this session "
			  "writes nothing more" : "");
	else if (applied)
		out_error(s->out, "apply", stale, "while writing the undo file "
			  "%s: it is incomplete and cannot restore %s (the new "
			  "layout is in place)", path, s->device);
	else
		out_error(s->out, "apply", stale, "while writing the undo file "
			  "%s: it is incomplete and cannot restore %s; %s: run "
			  "e2fsck -fy %s", path, s->device,
			  jnl ? "the journal keeps the filesystem consistent" :
			  "the filesystem holds the old or the new layout",
			  s->device);
	free(cmd);
}

/*
 * Starts recording the session's writes into a new undo file at undo_path
 * (undo_writer.c): from now to the filesystem's close, every write through
 * its channel goes into it.  The file of an earlier apply, recording until
 * now, is finished here.  Prints why not.
 */
errcode_t apply_undo_begin(struct session *s, const struct plan *p,
			   const char *undo_path)
{
	struct undo_guard *g = NULL, *prev = NULL;
	errcode_t err, e;

	err = undo_guard_new(s, "apply", s->device, undo_path,
			     undo_plan_worst(s->fs, p), &g);
	if (err)
		return err;
	/* the MMP block goes back as the session found it */
	err = s->mmp_found ? undo_guard_preimage(g, s->mmp_found_blk *
			(unsigned long long)s->fs->blocksize, s->mmp_found,
			s->fs->blocksize) : 0;
	if (!err)
		err = undo_guard_attach(g, s->fs->io, &prev);
	/* (an earlier file whose channel is gone: finished all the same) */
	if (!err && !prev)
		prev = s->apply_undo;
	if (err) {
		undo_guard_close(&g, NULL, NULL);
		out_error(s->out, "apply", err, "while starting the undo file "
			  "%s: nothing was written to %s (the undo file holds "
			  "nothing; remove it)", undo_path, s->device);
		return err;
	}
	if (prev) {
		const char *pp = undo_guard_path(prev);
		char *path = pp ? strdup(pp) : NULL;

		e = undo_guard_close(&prev, NULL, NULL);
		if (e)
			out_error(s->out, "apply", e, "while finishing the undo "
				  "file %s of an earlier apply: it cannot "
				  "restore %s", path ? path : "", s->device);
		free(path);
	}
	s->apply_undo = g;
	return 0;
}

/*
 * The undo file failed (a write to it, or its superblock copy): nothing it
 * does not cover may reach the device, so the session writes nothing more.
 * The MMP block, saved in the file when it started, is released first.
 */
void apply_undo_failed(struct session *s)
{
	ext2_filsys fs = s->fs;

	if (!fs)
		return;
	if (ext2fs_has_feature_mmp(fs->super) && (fs->flags & EXT2_FLAG_RW) &&
	    !(fs->flags & EXT2_FLAG_SKIP_MMP))
		ext2fs_mmp_stop(fs);
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY | EXT2_FLAG_CHANGED |
		       EXT2_FLAG_BB_DIRTY | EXT2_FLAG_IB_DIRTY);
	fs->flags |= EXT2_FLAG_SKIP_MMP;
}
