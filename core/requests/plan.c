/* plan.c - the session's current plan: `plan show|save|load|drop` and
 * `apply [FILE]`, which applies it with an undo file and verifies it. */
#include "cmd.h"
#include "plan.h"
#include "live_defrag.h"
#include "quota_update.h"
#include "undo_guard.h"

#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static void json_cb(void *ctx, enum sink_chan chan, const char *buf,
		    size_t len)
{
	struct session *s = ctx;

	if (chan == SINK_OUT)
		out_write(s->out, buf, len);
	else
		out_errtext(s->out, "%.*s", (int)len, buf);
}

/* `plan show --json` in a text session: one JSON document of its own. */
static void show_json(struct session *s, int argc, char **argv)
{
	struct session t = *s;
	struct sink js;

	sink_init_cb(&js, SINK_JSON, json_cb, s);
	t.out = &js;
	sink_command_begin(&js, argc, argv);
	plan_show_chain(&t, s->plan);
	sink_command_end(&js, CMD_OK, argc, argv);
	sink_free(&js);
}

/*
 * On a live session plan and apply are dispatched without the on-disk
 * bitmaps (CMD_LIVE_KERNEL: a live defrag plan needs none, and on a mounted
 * filesystem they may not even read back consistently); whatever works on
 * an offline plan loads the block bitmap here first.  0, or 1 after saying
 * why it cannot be read.
 */
static int need_bitmap(struct session *s, const char *who)
{
	errcode_t err;

	if (!s->live)
		return 0;	/* the dispatcher loaded it */
	err = session_need(s, NEED_BLOCK_BITMAP);
	if (err)
		out_error(s->out, who, err, "while reading allocation "
			  "bitmaps");
	return err != 0;
}

/* `plan OP ARGS`: an operation that makes a plan (CMD_PLAN_OP), through the
 * dispatcher's checks, building without applying. */
static int plan_operation(struct session *s, int argc, char **argv)
{
	const struct cmd_entry *c;
	int rc, words;

	c = cmd_lookup(argc - 1, argv + 1, &words);
	if (!c || !(c->flags & CMD_PLAN_OP)) {
		out_error(s->out, "plan", 0, "Usage: plan [show [--json] | "
			  "save FILE | load FILE | drop | OPERATION ARGS...] "
			  "(operations: journal relocate, defrag, evacuate, "
			  "prealloc)");
		return CMD_FAIL;
	}
	argv[words] = (char *)c->name;
	s->plan_only = true;
	rc = cmd_run_entry(s, c, argc - words, argv + words);
	s->plan_only = false;
	return rc;
}

static int do_plan(struct session *s, int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : "show";
	struct plan *p;
	char why[256];
	errcode_t err;

	if (!strcmp(sub, "load") && argc == 3) {
		if (need_bitmap(s, "plan"))
			return CMD_FAIL;
		err = plan_load(argv[2], &p, why, sizeof(why));
		if (err) {
			out_error(s->out, "plan", 0, "%s: %s; refusing it",
				  argv[2], why);
			return CMD_FAIL;
		}
		if (plan_guard(s, p, "plan")) {
			plan_free(p);
			return CMD_FAIL;
		}
		plan_free(s->plan);
		s->plan = p;
		if (p->repack)
			out_printf(s->out, "loaded a %s plan from %s\n",
				   p->kind, argv[2]);
		else
			out_printf(s->out, "loaded a %s plan for inode %u "
				   "from %s\n", p->kind, p->ino, argv[2]);
		return CMD_OK;
	}
	if (!strcmp(sub, "drop") && argc == 2) {
		plan_free(s->plan);
		s->plan = NULL;
		ldf_plan_free(s->live_plan);	/* its donors go */
		s->live_plan = NULL;
		return CMD_OK;
	}
	if (strcmp(sub, "show") && strcmp(sub, "save"))
		return plan_operation(s, argc, argv);
	if (!s->plan && s->live_plan && !strcmp(sub, "show")) {
		ldf_show(s, s->live_plan);
		return CMD_OK;
	}
	if (s->plan && need_bitmap(s, "plan"))
		return CMD_FAIL;
	if (!s->plan) {
		out_error(s->out, "plan", 0, "there is no current plan (make "
			  "one with journal_relocate or defrag, or plan load "
			  "FILE)");
		return CMD_FAIL;
	}
	if (!strcmp(sub, "save")) {
		if (argc != 3) {
			out_error(s->out, "plan", 0, "Usage: plan save FILE");
			return CMD_FAIL;
		}
		err = plan_save(s->plan, argv[2]);
		if (err) {
			out_error(s->out, "plan", err, "while writing %s",
				  argv[2]);
			return CMD_FAIL;
		}
		out_printf(s->out, "plan saved to %s\n", argv[2]);
		return CMD_OK;
	}
	if (argc == 3 && !strcmp(argv[2], "--json") && !sink_is_json(s->out))
		show_json(s, argc, argv);
	else if (argc <= 2 || (argc == 3 && !strcmp(argv[2], "--json")))
		plan_show_chain(s, s->plan);
	else {
		out_error(s->out, "plan", 0, "Usage: plan show [--json]");
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_plan = {
	.name = "plan",
	.synopsis = "plan [show [--json] | save FILE | load FILE | drop | "
		    "OPERATION ARGS...]",
	.summary = "Preview, save or load the current layout plan",
	.options = "show save load drop --json",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON |
		 CMD_LIVE_KERNEL,	/* live: need_bitmap() when needed */
	.complete = COMPLETE_HOST_PATH,
	.run = do_plan,
};

static int do_apply(struct session *s, int argc, char **argv)
{
	struct plan *loaded = NULL, *p;
	const char *file = NULL;
	struct apply_opts ao;
	int i;
	char why[256];
	errcode_t err;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;
	if (argc == 1 && !s->plan && s->live_plan)	/* through the kernel */
		return ldf_apply_current(s);
	if (need_bitmap(s, "apply"))
		return CMD_FAIL;
	for (i = 1; i < argc; i++) {
		if (argv[i][0] != '-' && !file)
			file = argv[i];
		else {
			out_error(s->out, "apply", 0, "Usage: apply [FILE] "
				  "[--no-undo | --undo UNDOFILE] [--no-fsck]");
			return CMD_FAIL;
		}
	}
	if (file) {
		err = plan_load(file, &loaded, why, sizeof(why));
		if (err) {
			out_error(s->out, "apply", 0, "%s: %s; refusing it",
				  file, why);
			return CMD_FAIL;
		}
		if (plan_guard(s, loaded, "apply")) {
			plan_free(loaded);
			return CMD_FAIL;
		}
	}
	p = loaded ? loaded : s->plan;
	if (!p) {
		out_error(s->out, "apply", 0, "there is no current plan; make "
			  "one first (journal_relocate, defrag) or name a plan "
			  "file");
		return CMD_FAIL;
	}
	return plan_apply_verify(s, p, loaded, &ao);
}

int plan_take_apply_opts(struct session *s, int *argc, char **argv,
			 struct apply_opts *o)
{
	int i, j;

	memset(o, 0, sizeof(*o));
	for (i = j = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--no-undo")) {
			o->no_undo = 1;
			continue;
		}
		if (!strcmp(argv[i], "--no-fsck")) {
			o->no_fsck = 1;
			continue;
		}
		if (!strcmp(argv[i], "--undo")) {
			if (i + 1 >= *argc) {
				out_error(s->out, argv[0], 0,
					  "--undo needs a file name");
				return 1;
			}
			o->undo = argv[++i];
			continue;
		}
		argv[j++] = argv[i];
	}
	argv[j] = NULL;
	*argc = j;
	return 0;
}

const struct cmd_entry cmd_apply = {
	.name = "apply",
	.synopsis = "apply [FILE] [--no-undo | --undo UNDOFILE] [--no-fsck]",
	.summary = "Apply the current (or a saved) plan safely, then verify",
	.options = "--no-undo --undo --no-fsck",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON |
		 CMD_LIVE_KERNEL,	/* live: need_bitmap() when needed */
	.complete = COMPLETE_HOST_PATH,
	.run = do_apply,
};
