/* edit.c - the layout editor inside the TUI: the selection (the journal, a
 * file, a block range, a flex group), the operation menu for it with its
 * number and size prompts (curses only), the plan built read-only through
 * the shell's own request dispatcher, and applying it: typed `yes`, a
 * progress bar fed by the engine, the undo file and the verification shown,
 * then every view reloaded.  edit_draw.c draws these screens. */
#include "tui_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "flex.h"
#include "live_defrag.h"
#include "plan.h"

static const struct edit_op edit_ops[] = {
	{SEL_JOURNAL, "relocate the journal to the start of the filesystem",
	 "journal relocate", "--start", IN_NONE, -1},
	{SEL_JOURNAL, "relocate the journal to the middle of the filesystem",
	 "journal relocate", "--middle", IN_NONE, -1},
	{SEL_JOURNAL, "relocate the journal into group G...",
	 "journal relocate", "--group", IN_GROUP, -1},
	{SEL_JOURNAL, "relocate the journal at block B... (Enter: the cursor)",
	 "journal relocate", "--goal", IN_BLOCK, -1},
	{SEL_FILE, "defrag: one contiguous run, the best fit near its inode",
	 "defrag", NULL, IN_NONE, 0},
	{SEL_FILE, "defrag into group G...", "defrag", "--group", IN_GROUP, 0},
	{SEL_FILE, "defrag at block B... (Enter: the cursor)", "defrag",
	 "--goal", IN_BLOCK, 0},
	{SEL_FILE, "live defrag through the kernel: a donor beside the file",
	 "defrag", NULL, IN_NONE, 1},
	{SEL_FILE, "live defrag through the kernel, donor asked in group G...",
	 "defrag", "--group", IN_GROUP, 1},
	{SEL_FILE, "prealloc: unwritten extents up to SIZE...", "prealloc",
	 NULL, IN_SIZE, 0},
	{SEL_RANGE, "evacuate: move every file block out of the range",
	 "evacuate", NULL, IN_NONE, -1},
	{SEL_FLEX, "repack-flex: its bitmaps and inode tables in one island",
	 "repack_flex", NULL, IN_NONE, -1},
};

void tui_select(struct tui *t, const struct tui_sel *sel)
{
	t->sel = *sel;
}

void tui_select_file(struct tui *t, ext2_ino_t ino, const char *path)
{
	struct tui_sel sel = {.kind = SEL_FILE, .ino = ino};

	if (ino == t->fs->super->s_journal_inum)
		sel.kind = SEL_JOURNAL;
	if (path)
		snprintf(sel.path, sizeof(sel.path), "%s", path);
	tui_select(t, &sel);
}

void edit_sel_text(struct tui *t, const struct tui_sel *s, char *buf,
		   size_t len)
{
	unsigned long per, last;

	switch (s->kind) {
	case SEL_JOURNAL:
		snprintf(buf, len, "the journal, inode <%u>", s->ino);
		break;
	case SEL_FILE:
		snprintf(buf, len, "file <%u>%s%s", s->ino, s->path[0] ?
			 " " : "", s->path);
		break;
	case SEL_RANGE:
		snprintf(buf, len, "blocks %llu-%llu (%llu blocks)",
			 (unsigned long long)s->first,
			 (unsigned long long)s->last,
			 (unsigned long long)(s->last - s->first + 1));
		break;
	case SEL_FLEX:
		/* t->s->fs: also drawn while applying (t->fs stale) */
		if (!t->s->fs) {
			snprintf(buf, len, "flex group %lu", s->flex);
			break;
		}
		per = flex_groups_per(t->s->fs);
		last = (s->flex + 1) * per - 1;
		if (last >= t->s->fs->group_desc_count)
			last = t->s->fs->group_desc_count - 1;
		snprintf(buf, len, "flex group %lu (groups %lu-%lu)", s->flex,
			 s->flex * per, last);
		break;
	default:
		snprintf(buf, len, "nothing");
	}
}

int edit_active(const struct tui *t)
{
	return t->edit && t->edit->mode != ED_CLOSED;
}

static void emsg(struct tui_edit *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void emsg(struct tui_edit *e, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->msg_err = err;
}

void edit_open(struct tui *t)
{
	struct tui_edit *e = t->edit;
	size_t i;

	if (t->sel.kind == SEL_NONE) {
		tui_message(t, 1, "editor: select something first: the "
			    "journal (4), a file (6, 5 or /<12>), a block "
			    "range (v twice on the map, 2) or a flex group "
			    "(3)");
		return;
	}
	if (!e) {
		e = t->edit = calloc(1, sizeof(*e));
		if (!e)
			return;
		e->in = prompt_new();
		if (!e->in) {
			free(e);
			t->edit = NULL;
			return;
		}
	}
	e->sel = t->sel;
	if (e->sel.kind == SEL_FILE && !e->sel.path[0])
		tui_inode_path(t, e->sel.ino, e->sel.path,
			       sizeof(e->sel.path));
	e->nops = 0;
	for (i = 0; i < sizeof(edit_ops) / sizeof(edit_ops[0]); i++)
		if (edit_ops[i].kind == e->sel.kind &&
		    (edit_ops[i].live < 0 ||
		     edit_ops[i].live == (t->s->live != NULL)) &&
		    e->nops < (int)(sizeof(e->ops) / sizeof(e->ops[0])))
			e->ops[e->nops++] = &edit_ops[i];
	e->menu_sel = 0;
	e->msg[0] = 0;
	e->mode = ED_MENU;
}

void edit_free(struct tui *t)
{
	if (!t->edit)
		return;
	prompt_free(t->edit->in);
	strbuf_free(&t->edit->out);
	free(t->edit);
	t->edit = NULL;
}

void edit_close(struct tui *t)
{
	ldf_plan_free(t->s->live_plan);	/* a live plan's donors go back */
	t->s->live_plan = NULL;
	t->edit->mode = ED_CLOSED;
	if (t->edit->overlay)
		tui_set_highlight(t, NULL, 0, NULL);
	t->edit->overlay = 0;
}

/* "plan CMD [OBJECT] [OPT [VALUE]]" for the chosen operation. */
static int compose(struct tui *t, const struct edit_op *op,
		   const char *value)
{
	struct tui_edit *e = t->edit;
	char obj[600] = "", path[512], *q;
	const char *p;
	size_t o;

	switch (e->sel.kind) {
	case SEL_FILE:
		if (op->input != IN_SIZE && op->live != 1) {
			snprintf(obj, sizeof(obj), " <%u>", e->sel.ino);
			break;
		}
		/* prealloc names the file by its path */
		snprintf(path, sizeof(path), "%s", e->sel.path);
		if (!path[0])
			tui_inode_path(t, e->sel.ino, path, sizeof(path));
		if (!path[0]) {
			emsg(e, 1, "%s needs the file's path: select it in the "
			     "files view (6)", op->cmd);
			return -1;
		}
		o = snprintf(obj, sizeof(obj), " \"");
		for (p = path; *p && o + 3 < sizeof(obj); p++) {
			if (*p == '"')
				obj[o++] = '"';
			obj[o++] = *p;
		}
		obj[o++] = '"';
		obj[o] = 0;
		break;
	case SEL_RANGE:
		snprintf(obj, sizeof(obj), " %llu-%llu",
			 (unsigned long long)e->sel.first,
			 (unsigned long long)e->sel.last);
		break;
	case SEL_FLEX:
		snprintf(obj, sizeof(obj), " %lu", e->sel.flex);
		break;
	default:
		break;
	}
	snprintf(e->request, sizeof(e->request), "plan %s%s%s%s%s%s",
		 op->cmd, obj, op->opt ? " " : "", op->opt ? op->opt : "",
		 value ? " " : "", value ? value : "");
	/* nothing typed may add words to the request */
	for (q = e->request; *q; q++)
		if (*q == ';' || *q == '\n')
			*q = ' ';
	return 0;
}

/* Builds the plan read-only (`plan OP ...`); the plan screen or why not. */
static void build(struct tui *t, const struct edit_op *op, const char *value)
{
	struct tui_edit *e = t->edit;
	int rc;

	e->msg[0] = 0;
	if (compose(t, op, value)) {
		e->mode = ED_MENU;
		return;
	}
	plan_free(t->s->plan);
	t->s->plan = NULL;
	ldf_plan_free(t->s->live_plan);
	t->s->live_plan = NULL;
	strbuf_reset(&e->out);
	t->capture = &e->out;
	rc = tui_run_request(t, e->request);
	t->capture = NULL;
	t->msg[0] = 0;	/* the editor shows the engine's words itself */
	e->step_sel = e->step_top = 0;
	e->overlay = 0;
	if (rc == CMD_OK && (t->s->plan || t->s->live_plan)) {
		e->mode = ED_PLAN;
		return;
	}
	if (rc == CMD_OK && !e->out.len)
		strbuf_printf(&e->out, "(nothing to do: the layout already "
			      "is what this operation would make)\n");
	e->mode = ED_ERROR;
}

static void choose(struct tui *t)
{
	struct tui_edit *e = t->edit;
	const struct edit_op *op = e->ops[e->menu_sel];
	dgrp_t g = ext2fs_group_of_blk2(t->fs, t->cur);

	switch (op->input) {
	case IN_NONE:
		build(t, op, NULL);
		return;
	case IN_GROUP:
		snprintf(e->input_label, sizeof(e->input_label), "group "
			 "(0-%u; Enter alone: %u, the cursor's): ",
			 t->fs->group_desc_count - 1, g);
		break;
	case IN_BLOCK:
		snprintf(e->input_label, sizeof(e->input_label), "goal block "
			 "(Enter alone: %llu, the cursor): ",
			 (unsigned long long)t->cur);
		break;
	case IN_SIZE:
		snprintf(e->input_label, sizeof(e->input_label), "size "
			 "(bytes, or with K, M or G, as 64M): ");
		break;
	}
	prompt_reset(e->in);
	e->mode = ED_INPUT;
}

static void input_done(struct tui *t)
{
	struct tui_edit *e = t->edit;
	const struct edit_op *op = e->ops[e->menu_sel];
	const char *line = prompt_line(e->in);
	char value[64];

	while (*line == ' ')
		line++;
	if (*line) {
		snprintf(value, sizeof(value), "%.*s",
			 (int)strcspn(line, " \t\""), line);
	} else if (op->input == IN_GROUP) {
		snprintf(value, sizeof(value), "%u",
			 ext2fs_group_of_blk2(t->fs, t->cur));
	} else if (op->input == IN_BLOCK) {
		snprintf(value, sizeof(value), "%llu",
			 (unsigned long long)t->cur);
	} else {
		emsg(e, 1, "prealloc needs a size");
		e->mode = ED_MENU;
		return;
	}
	build(t, op, value);
}

/* The overlay: the plan's old blocks (1) or its new run (2) lit on the
 * whole-device map. */
static void overlay_set(struct tui *t)
{
	struct tui_edit *e = t->edit;
	const struct plan *p;
	struct tui_range *r;
	size_t n = 0, k = 0, i;

	if (!e->overlay) {
		tui_set_highlight(t, NULL, 0, NULL);
		return;
	}
	for (p = t->s->plan; p; p = p->next)
		n += e->overlay == 1 ? p->nold + p->nold_meta : 1;
	r = calloc(n ? n : 1, sizeof(*r));
	if (!r)
		return;
	for (p = t->s->plan; p; p = p->next) {
		if (e->overlay == 2) {
			r[k].start = p->target;
			r[k++].len = p->target_len;
			continue;
		}
		for (i = 0; i < p->nold; i++) {
			r[k].start = p->old[i].pblk;
			r[k++].len = p->old[i].len;
		}
		for (i = 0; i < p->nold_meta; i++) {
			r[k].start = p->old_meta[i];
			r[k++].len = 1;
		}
	}
	tui_set_highlight(t, r, k, e->overlay == 1 ? "plan: before" :
			  "plan: after");
	free(r);
}

static void on_progress(void *ctx, unsigned long long done,
			unsigned long long total)
{
	struct tui *t = ctx;
	struct tui_edit *e = t->edit;
	int pct;

	if (!total)
		total = done;	/* metadata only (prealloc) */
	pct = !total ? 0 : done >= total ? 100 : (int)(done * 100 / total);

	e->prog_done = done;
	e->prog_total = total;
	if (pct == e->prog_pct)
		return;
	e->prog_pct = pct;
	edit_draw(t);
	refresh();
}

/* The consistency check before the writes (e2fsck -fn), 0..100. */
static void on_check(void *ctx, int pct)
{
	struct tui *t = ctx;

	t->edit->check_pct = pct;
	edit_draw(t);
	refresh();
}

static void apply(struct tui *t)
{
	struct tui_edit *e = t->edit;
	int rc;

	if (e->overlay) {
		e->overlay = 0;
		overlay_set(t);
	}
	e->mode = ED_APPLYING;
	e->prog_pct = -1;
	e->check_pct = -1;
	e->prog_done = e->prog_total = 0;
	edit_draw(t);
	refresh();
	t->scanning = 0;	/* the owner index goes with the old layout */
	t->s->apply_progress = on_progress;
	t->s->apply_progress_ctx = t;
	t->s->check_progress = on_check;
	t->s->check_progress_ctx = t;
	strbuf_reset(&e->out);
	t->capture = &e->out;
	rc = tui_run_request(t, "apply");
	t->capture = NULL;
	t->s->apply_progress = NULL;
	t->s->apply_progress_ctx = NULL;
	t->s->check_progress = NULL;
	t->s->check_progress_ctx = NULL;
	t->msg[0] = 0;
	e->ok = rc == CMD_OK;
	tui_reload(t);		/* the maps show the new layout */
	e->mode = ED_RESULT;
}

static void ask_apply(struct tui *t)
{
	struct tui_edit *e = t->edit;

	if (t->s->live && t->s->live_plan) {	/* through the kernel */
		prompt_reset(e->in);
		e->msg[0] = 0;
		e->mode = ED_CONFIRM;
		return;
	}
	if (t->s->live) {
		emsg(e, 1, "%s is mounted: the editor never writes to a "
		     "mounted filesystem (unmount it, then e2layout -w %s)",
		     t->s->device, t->s->device);
		return;
	}
	if (t->s->fs_changed) {
		emsg(e, 1, "%s changed on disk under this session (another "
		     "program wrote to it): nothing more is written; quit and "
		     "reopen it to make the plan again", t->s->device);
		return;
	}
	if (!(t->s->fs->flags & EXT2_FLAG_RW)) {
		emsg(e, 1, "read-only session, nothing written: to apply, "
		     "quit and reopen with e2layout -w %s (:plan save FILE "
		     "keeps the plan)", t->s->device);
		return;
	}
	prompt_reset(e->in);
	e->msg[0] = 0;
	e->mode = ED_CONFIRM;
}

static void plan_move(struct tui *t, enum tui_action a)
{
	struct tui_edit *e = t->edit;
	int page = t->rows > 16 ? t->rows - 12 : 4;

	switch (a) {
	case ACT_UP: e->step_sel--; break;
	case ACT_DOWN: e->step_sel++; break;
	case ACT_PGUP: e->step_sel -= page; break;
	case ACT_PGDN: e->step_sel += page; break;
	case ACT_HOME: e->step_sel = 0; break;
	case ACT_END: e->step_sel = 1 << 30; break;
	default: break;
	}
	if (e->step_sel < 0)
		e->step_sel = 0;	/* the upper end is clamped on drawing */
}

static void plan_key(struct tui *t, enum tui_action a)
{
	struct tui_edit *e = t->edit;

	switch (a) {
	case ACT_APPLY:
		ask_apply(t);
		break;
	case ACT_OVERLAY:
		e->overlay = (e->overlay + 1) % 3;
		overlay_set(t);
		break;
	case ACT_CANCEL:
	case ACT_BACK:
		if (e->overlay) {
			e->overlay = 0;
			overlay_set(t);
		}
		e->mode = ED_MENU;
		break;
	case ACT_QUIT:
		edit_close(t);
		break;
	default:
		plan_move(t, a);
	}
}

void edit_key(struct tui *t, int ch)
{
	struct tui_edit *e = t->edit;
	enum tui_action a = tui_key_lookup(tui_edit_keys, ch);
	int r;

	if (!a)
		a = tui_key_lookup(tui_global_keys, ch);
	if (e->mode == ED_INPUT || e->mode == ED_CONFIRM) {
		r = prompt_key(t, e->in, ch);
		if (r == 0)
			return;
		if (e->mode == ED_INPUT) {
			if (r > 0)
				input_done(t);
			else
				e->mode = ED_MENU;
			return;
		}
		if (r > 0 && !strcmp(prompt_line(e->in), "yes")) {
			apply(t);
			return;
		}
		e->mode = ED_PLAN;
		emsg(e, 1, "cancelled: nothing was written (only yes, typed "
		     "in full, applies)");
		return;
	}
	if (e->mode != ED_MENU)
		e->msg[0] = 0;
	switch (e->mode) {
	case ED_MENU:
		if (ch >= '1' && ch <= '9' && ch - '1' < e->nops) {
			e->menu_sel = ch - '1';
			choose(t);
		} else if (a == ACT_UP && e->menu_sel > 0) {
			e->menu_sel--;
		} else if (a == ACT_DOWN && e->menu_sel < e->nops - 1) {
			e->menu_sel++;
		} else if (a == ACT_ENTER && e->nops) {
			choose(t);
		} else if (a == ACT_CANCEL || a == ACT_QUIT || a == ACT_BACK) {
			edit_close(t);
		}
		break;
	case ED_ERROR:
		if (a == ACT_QUIT)
			edit_close(t);
		else if (a == ACT_CANCEL || a == ACT_ENTER || a == ACT_BACK)
			e->mode = ED_MENU;
		break;
	case ED_PLAN:
		plan_key(t, a);
		break;
	case ED_RESULT:
		if (a == ACT_QUIT || a == ACT_CANCEL || a == ACT_ENTER)
			edit_close(t);
		break;
	default:
		break;
	}
}
