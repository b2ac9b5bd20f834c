/* exp_change.c - side B of `experiment A --change REQUEST`: a copy of A
 * changed through the normal plan path (the request makes the plan, apply
 * checks it, writes it as a jbd2 transaction with an undo file, verifies). */
#include "exp_run.h"
#include "exp_loop.h"
#include "cmd.h"
#include "e2l_err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

errcode_t exp_make_change(const char *a, const char *dst, const char *undo,
			  const char *change, struct strbuf *log, char *why,
			  size_t len)
{
	char *apply = NULL, *plan = NULL;
	struct session s;
	struct sink out;
	errcode_t err;

	err = expl_copy(a, dst, why, len);
	if (err)
		return err;
	apply = malloc(strlen(undo) + 32);
	plan = malloc(strlen(change) + 8);
	if (!apply || !plan) {
		err = ENOMEM;
		goto out;
	}
	/* the path is ours (the work directory), quoted for the splitter */
	sprintf(apply, "apply --undo \"%s\"", undo);
	/* "plan REQUEST" only makes the plan (in a -w session the request
	 * alone would apply it at once, with an undo file of its choosing) */
	sprintf(plan, "%s%s", strncmp(change, "plan ", 5) ? "plan " : "",
		change);
	sink_init_cb(&out, SINK_TEXT, exp_sink_to_strbuf, log);
	session_init(&s, &out);
	err = session_open(&s, dst, SESSION_RW, NULL, 0, 0);
	if (!err) {
		/* "journal relocate" runs journal_relocate, as typed */
		if (cmd_run_line(&s, plan) != CMD_OK)
			err = E2L_ERR_BAD_ARGUMENT;
		else if (cmd_run_line(&s, apply) != CMD_OK)
			err = E2L_ERR_UNSAFE;
		if (session_close(&s) && !err)
			err = EIO;
	}
	sink_free(&out);
	if (err)
		snprintf(why, len, "the change \"%s\" could not be made on a "
			 "copy of %s%s", change, a, log->len ?
			 " (what it said is above)" : "");
out:
	free(apply);
	free(plan);
	if (err)
		unlink(dst);
	return err;
}
