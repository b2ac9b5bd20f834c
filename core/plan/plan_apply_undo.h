/* plan_apply_undo.h - an apply's undo file (plan_apply_undo.c), for
 * plan_apply. */
#ifndef E2L_PLAN_APPLY_UNDO_H
#define E2L_PLAN_APPLY_UNDO_H

#include "plan.h"

/*
 * Starts recording the session's writes into a new undo file at undo_path
 * (s->apply_undo): from now to the filesystem's close, every write through
 * its channel goes into it.  The file of an earlier apply, recording until
 * now, is finished here.  Prints why not.
 */
errcode_t apply_undo_begin(struct session *s, const struct plan *p,
			   const char *undo_path);

/* The undo file failed: the session writes nothing more (its MMP block
 * released first). */
void apply_undo_failed(struct session *s);

/* What the undo file at path can still do after an apply that failed
 * (applied: 0) or whose undo file failed (applied: 1); own: the file is
 * this apply's; stale, werr, recorded: undo_guard_state's. */
void apply_undo_verdict(struct session *s, const char *path, int own,
			int applied, errcode_t stale, errcode_t werr,
			int recorded);

#endif
