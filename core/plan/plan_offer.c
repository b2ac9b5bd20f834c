/* plan_offer.c - how an operation's plan ends: kept and shown, and on a -w
 * session applied at once with an undo file and verified (plan_offer); the
 * same apply for `apply` (plan_apply_verify). */
#include "cmd.h"
#include "plan.h"
#include "quota_update.h"
#include "undo_guard.h"

#include <errno.h>
#include <stdlib.h>

int plan_apply_verify(struct session *s, struct plan *p, struct plan *loaded,
		      const struct apply_opts *o)
{
	const char *undo = o->undo;
	int no_undo = o->no_undo;
	char *undo_alloc = NULL;
	size_t listed = s->n_undo_files;
	int rc = CMD_FAIL;
	struct plan *q;
	errcode_t err;

	if (s->undo_file) {
		undo = s->undo_file;	/* -z: the session already records */
		if (undo_path_room(s, "apply", undo, undo_plan_worst(s->fs, p)))
			goto out;
	} else if (!no_undo && !undo) {
		undo = undo_alloc = undo_path_default(s);
		if (!undo) {
			out_error(s->out, "apply", ENOMEM, "while naming the "
				  "undo file");
			goto out;
		}
	}
	if (no_undo)
		undo = NULL;
	/* the undo file of an earlier apply records these writes too */
	if (!undo && s->apply_undo &&
	    undo_path_room(s, "apply", undo_guard_path(s->apply_undo),
			   undo_plan_worst(s->fs, p)))
		goto out;
	err = plan_apply(s, p, s->undo_file ? NULL : undo, o);
	session_invalidate(s);	/* owners moved, even on failure */
	if (err)
		goto out;
	if (p->repack)
		out_printf(s->out, "applied the %s plan\n", p->kind);
	else
		out_printf(s->out, "applied the %s plan for inode %u\n",
			   p->kind, p->ino);
	rc = CMD_OK;
	if (undo && !s->undo_file && s->n_undo_files == listed)
		rc = CMD_FAIL;	/* asked for, and not usable: said so */
	else if (undo) {
		char *cmd = undo_restore_cmd(undo, s->device);

		out_printf(s->out, "undo file: %s (restore with: %s)\n", undo,
			   cmd ? cmd : "e2undo");
		free(cmd);
	}
	if (sink_is_json(s->out))
		json_str(s->out, "undo_file", rc == CMD_OK ? undo : NULL);
	for (q = p; q; q = q->next)
		if (plan_verify(s, q))
			rc = CMD_FAIL;
out:
	if (p == s->plan && rc == CMD_OK) {
		plan_free(s->plan);
		s->plan = NULL;
	}
	plan_free(loaded);
	free(undo_alloc);
	return rc;
}

int plan_offer(struct session *s, struct plan *p, int shown,
	       const struct apply_opts *o)
{
	static const struct apply_opts none;
	struct plan *q;

	/* before it is shown or kept: a refused plan goes (the blocks it
	 * touches checked against the owners, the quota records found) */
	if (plan_guard(s, p, p->kind) || quota_check_plan(s, p->kind, p)) {
		if (p == s->plan)
			s->plan = NULL;
		plan_free(p);
		return CMD_FAIL;
	}
	if (p != s->plan) {
		plan_free(s->plan);
		s->plan = p;
	}
	if (!shown)
		for (q = p; q; q = q->next)
			plan_show(s, q);
	/* (a -w session whose disk changed under it is read-only now:
	 * apply says why) */
	if (s->plan_only ||
	    (!(s->fs->flags & EXT2_FLAG_RW) && !s->fs_changed)) {
		if (!sink_is_json(s->out))
			out_printf(s->out, "Nothing is written yet: %s"
				   "`plan save FILE` keeps the plan.\n",
				   s->fs->flags & EXT2_FLAG_RW ?
				   "`apply` carries the plan out, " :
				   "this session is read-only (open with -w "
				   "to apply); ");
		return CMD_OK;
	}
	return plan_apply_verify(s, p, NULL, o ? o : &none);
}
