/* plan_check.c - a plan checked against the filesystem before it is shown,
 * kept or applied: every block number inside it, each plan's inode of the
 * kind its plan says, and each plan exactly the one e2layout builds now for
 * its inode and target.  A loaded plan's refusal names its line. */
#include "plan_repack_int.h"
#include "plan_file_int.h"
#include "e2l_err.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct ck {
	struct session *s;
	const char *who;
	const struct plan *p;
	size_t index, count;	/* p's place in the chain, its length */
	int stale;		/* the fingerprint no longer matches */
};

static errcode_t refuse(struct ck *c, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static errcode_t refuse(struct ck *c, unsigned line, const char *fmt, ...)
{
	const struct plan_lines *l = c->p->lines;
	struct strbuf msg = {0};
	va_list ap;

	va_start(ap, fmt);
	strbuf_vprintf(&msg, fmt, ap);
	va_end(ap);
	if (l && c->stale)
		out_error(c->s->out, c->who, 0, "%s, line %u: %s; the "
			  "filesystem changed since the plan was made: make "
			  "the plan again", l->path, line ? line : l->first,
			  msg.buf);
	else if (l)
		out_error(c->s->out, c->who, 0, "%s, line %u: %s; the plan "
			  "file is damaged or was edited: refusing it",
			  l->path, line ? line : l->first, msg.buf);
	else
		out_error(c->s->out, c->who, 0, "%s; make the plan again",
			  msg.buf);
	strbuf_free(&msg);
	return l && !c->stale ? E2L_ERR_BAD_PLAN_FILE : E2L_ERR_STALE_PLAN;
}

static unsigned field(const struct ck *c, enum plan_field f)
{
	return c->p->lines ? c->p->lines->field[f] : 0;
}

/* [start, start+len) inside the filesystem's blocks; len 0 means 1. */
static errcode_t inside(struct ck *c, unsigned line, const char *what,
			blk64_t start, blk64_t len)
{
	ext2_filsys fs = c->s->fs;
	blk64_t first = fs->super->s_first_data_block;
	blk64_t total = ext2fs_blocks_count(fs->super);

	if (!len)
		len = 1;
	if (start >= first && start < total && len <= total - start)
		return 0;
	return refuse(c, line, "%s %llu-%llu is outside the filesystem "
		      "(blocks %llu-%llu)", what, (unsigned long long)start,
		      (unsigned long long)(start + len - 1),
		      (unsigned long long)first,
		      (unsigned long long)(total - 1));
}

/* Would plan_check_fp refuse?  (Silently: it only colours messages.) */
static int fp_differs(ext2_filsys fs, const struct plan *p)
{
	struct plan_fp now;

	if (plan_fingerprint(fs, p->ino, &now))
		return 1;
	if (p->chained)
		return now.generation != p->fp.generation ||
		       now.ctime != p->fp.ctime ||
		       now.map_hash != p->fp.map_hash;
	return now.wtime != p->fp.wtime || now.mtime != p->fp.mtime ||
	       now.mnt_count != p->fp.mnt_count ||
	       now.free_blocks != p->fp.free_blocks ||
	       now.free_inodes != p->fp.free_inodes ||
	       now.generation != p->fp.generation ||
	       now.ctime != p->fp.ctime || now.map_hash != p->fp.map_hash;
}

static errcode_t check_bounds(struct ck *c)
{
	const struct plan *p = c->p;
	const struct plan_lines *l = p->lines;
	const struct plan_step *st;
	errcode_t err = 0;
	size_t i;

	err = inside(c, field(c, PF_TARGET), "the target run", p->target,
		     p->target_len);
	for (i = 0; !err && i < p->nold; i++)
		err = inside(c, plan_line_of(l ? l->old : NULL, i),
			     "the old run", p->old[i].pblk, p->old[i].len);
	for (i = 0; !err && i < p->nold_meta; i++)
		err = inside(c, plan_line_of(l ? l->old_meta : NULL, i),
			     "the old mapping block", p->old_meta[i], 1);
	for (i = 0; !err && i < p->nnew; i++)
		err = inside(c, plan_line_of(l ? l->new : NULL, i),
			     "the new run", p->new[i].pblk, p->new[i].len);
	for (i = 0; !err && i < p->nsteps; i++) {
		unsigned line = plan_line_of(l ? l->steps : NULL, i);

		st = &p->steps[i];
		if (st->kind >= STEP_KIND_MAX)
			return refuse(c, line, "an unknown step");
		if (st->kind == STEP_COPY || st->kind == STEP_FREE ||
		    st->kind == STEP_WRITE_MAP)
			err = inside(c, line, "the step's source", st->src,
				     st->len);
		if (!err && st->kind != STEP_FREE)
			err = inside(c, line, "the step's destination",
				     st->dst, st->len);
	}
	return err;
}

/* The plan's inode exists and is of the kind its plan says. */
static errcode_t check_inode(struct ck *c)
{
	ext2_filsys fs = c->s->fs;
	const struct plan *p = c->p;
	unsigned line = field(c, PF_INO);
	struct ext2_inode inode;
	ext2_ino_t found;
	errcode_t err;

	if (!p->ino || p->ino > fs->super->s_inodes_count)
		return refuse(c, line, "inode %u does not exist (the "
			      "filesystem has %u)", p->ino,
			      fs->super->s_inodes_count);
	err = ext2fs_read_inode(fs, p->ino, &inode);
	if (err)
		return refuse(c, line, "inode %u cannot be read (%s)", p->ino,
			      error_message(err));
	if (!inode.i_links_count || inode.i_dtime)
		return refuse(c, line, "inode %u is not in use", p->ino);
	if (!strcmp(p->kind, "journal_relocate") &&
	    (p->ino != fs->super->s_journal_inum ||
	     !ext2fs_has_feature_journal(fs->super)))
		return refuse(c, line, "a journal_relocate plan for inode %u, "
			      "which is not the internal journal", p->ino);
	if (strcmp(p->kind, "journal_relocate") && p->new_size_blocks)
		return refuse(c, field(c, PF_NEW_SIZE), "only a journal is "
			      "resized");
	if (!strcmp(p->kind, "defrag") && (!LINUX_S_ISREG(inode.i_mode) ||
					   p->ino < EXT2_FIRST_INO(fs->super)))
		return refuse(c, line, "a defrag plan for inode %u, which is "
			      "not a regular file", p->ino);
	if (strcmp(p->kind, "prealloc"))
		return 0;
	if (!p->create_name[0]) {
		if (!LINUX_S_ISREG(inode.i_mode) ||
		    !(inode.i_flags & EXT4_EXTENTS_FL))
			return refuse(c, line, "a prealloc plan for inode %u, "
				      "which is not an extent-mapped regular "
				      "file", p->ino);
		return 0;
	}
	if (!LINUX_S_ISDIR(inode.i_mode))
		return refuse(c, line, "a prealloc plan creating a file in "
			      "inode %u, which is not a directory", p->ino);
	if (!ext2fs_lookup(fs, p->ino, p->create_name,
			   strlen(p->create_name), NULL, &found))
		return refuse(c, field(c, PF_CREATE), "the directory already "
			      "holds %s (inode %u)", p->create_name, found);
	return 0;
}

/* Each moving item's temporary place is where plan_build_repack puts one:
 * exactly the items in the island's way have one. */
static errcode_t check_repack(struct ck *c)
{
	ext2_filsys fs = c->s->fs;
	const struct plan_repack *r = c->p->repack;
	const unsigned *lines = c->p->lines ? c->p->lines->ritems : NULL;
	const struct repack_item *it;
	errcode_t err = 0;
	size_t i;
	int way;

	if (r->n)
		err = inside(c, field(c, PF_REPACK), "the island", r->island,
			     r->island_len);
	for (i = 0; !err && i < r->nitems; i++) {
		unsigned line = plan_line_of(lines, i);

		it = &r->items[i];
		if (it->what == RP_DIND ? it->g != 0 :
		    it->g >= fs->group_desc_count)
			return refuse(c, line, "no group %u", it->g);
		err = inside(c, line, "the item's blocks", it->from, it->len);
		if (!err)
			err = inside(c, line, "the item's new place", it->to,
				     it->len);
		if (!err && it->tmp)
			err = inside(c, line, "the item's temporary place",
				     it->tmp, it->len);
		if (err || !r->n)
			continue;
		way = it->what != RP_DIND && it->from != it->to &&
		      repack_overlaps(it->from, it->len, r->island,
				      r->island_len);
		if (way != !!it->tmp)
			return refuse(c, line, "group %u's %s %s", it->g,
				      repack_what_name[it->what % RP_KINDS],
				      way ? "is in the island's way but has no "
				      "temporary place" : "has a temporary "
				      "place it does not need");
		if (it->from != repack_item_loc(fs, it->g, it->what))
			return refuse(c, line, "group %u's %s is not at block "
				      "%llu", it->g,
				      repack_what_name[it->what % RP_KINDS],
				      (unsigned long long)it->from);
	}
	if (!err && !r->n && r->nitems == 1 &&
	    r->items[0].from != repack_item_loc(fs, 0, RP_DIND))
		err = refuse(c, plan_line_of(lines, 0), "the resize inode's "
			     "double-indirect block is not at %llu",
			     (unsigned long long)r->items[0].from);
	if (!err && plan_repack_sane(c->s, c->p))
		err = c->p->lines ? E2L_ERR_BAD_PLAN_FILE : E2L_ERR_STALE_PLAN;
	return err;
}

static void quiet_cb(void *ctx, enum sink_chan chan, const char *buf,
		     size_t len)
{
	(void)ctx;
	(void)chan;
	(void)buf;
	(void)len;
}

/* The plan e2layout builds now for p's inode with p's target as the goal
 * (*q NULL when it would build none), built without a word of output. */
static errcode_t rebuild(struct session *s, const struct plan *p,
			 struct plan **q)
{
	struct sink quiet, *out = s->out;
	errcode_t err;

	sink_init_cb(&quiet, SINK_TEXT, quiet_cb, NULL);
	s->out = &quiet;
	if (!strcmp(p->kind, "prealloc"))
		err = plan_build_prealloc(s, p->ino, p->create_name[0] ?
					  p->create_name : NULL, p->set_size,
					  p->target, q);
	else
		err = plan_build_move(s, p->kind, p->ino, p->target,
				      p->new_size_blocks, q);
	s->out = out;
	sink_free(&quiet);
	return err;
}

static int ext_eq(const struct plan_ext *a, const struct plan_ext *b)
{
	return a->lblk == b->lblk && a->pblk == b->pblk && a->len == b->len &&
	       !a->uninit == !b->uninit;
}

/* The first entry of two lists that differs (n when they are equal). */
#define FIRST_DIFF(a, na, b, nb, eq, i) do { \
	for (i = 0; i < (na) && i < (nb) && eq(&(a)[i], &(b)[i]); i++) \
		; \
} while (0)

static int step_eq(const struct plan_step *a, const struct plan_step *b)
{
	return a->kind == b->kind && a->src == b->src && a->dst == b->dst &&
	       a->len == b->len;
}

static int blk_eq(const blk64_t *a, const blk64_t *b)
{
	return *a == *b;
}

/* Line of entry i of a list of n (past the end: the plan's last line). */
static unsigned entry_line(const struct ck *c, const unsigned *lines,
			   size_t i, size_t n)
{
	if (!c->p->lines)
		return 0;
	return i < n ? plan_line_of(lines, i) : c->p->lines->last;
}

static errcode_t compare(struct ck *c, const struct plan *q)
{
	const struct plan *p = c->p;
	const struct plan_lines *l = p->lines;
	size_t i;

	FIRST_DIFF(p->old, p->nold, q->old, q->nold, ext_eq, i);
	if (i < p->nold)
		return refuse(c, entry_line(c, l ? l->old : NULL, i, p->nold),
			      "inode %u does not map logical block %llu at "
			      "block %llu (%llu blocks) as the plan records",
			      p->ino, (unsigned long long)p->old[i].lblk,
			      (unsigned long long)p->old[i].pblk,
			      (unsigned long long)p->old[i].len);
	if (i < q->nold)
		return refuse(c, entry_line(c, NULL, i, p->nold), "inode %u "
			      "maps %zu runs, the plan records %zu", p->ino,
			      q->nold, p->nold);
	FIRST_DIFF(p->old_meta, p->nold_meta, q->old_meta, q->nold_meta,
		   blk_eq, i);
	if (i < p->nold_meta || i < q->nold_meta)
		return refuse(c, entry_line(c, l ? l->old_meta : NULL, i,
					    p->nold_meta),
			      "inode %u's mapping blocks are not the ones the "
			      "plan records (it has %zu, the plan %zu)",
			      p->ino, q->nold_meta, p->nold_meta);
	if (q->target != p->target || q->target_len != p->target_len ||
	    q->extents != p->extents || q->new_meta != p->new_meta)
		return refuse(c, field(c, q->target_len != p->target_len ||
				       q->target != p->target ? PF_TARGET :
				       q->extents != p->extents ? PF_EXTENTS :
				       PF_NEW_META),
			      "the plan for inode %u at block %llu takes %llu "
			      "blocks (%llu for mapping, %s) here, not %llu "
			      "(%llu, %s)", p->ino,
			      (unsigned long long)p->target,
			      (unsigned long long)q->target_len,
			      (unsigned long long)q->new_meta,
			      q->extents ? "extents" : "block map",
			      (unsigned long long)p->target_len,
			      (unsigned long long)p->new_meta,
			      p->extents ? "extents" : "block map");
	if (q->dir_blocks[0] != p->dir_blocks[0] ||
	    q->dir_blocks[1] != p->dir_blocks[1])
		return refuse(c, field(c, PF_DIR_BLOCKS), "the blocks the "
			      "directory grows into are not the ones e2layout "
			      "reserves for it here (%llu %llu, the plan %llu "
			      "%llu)", (unsigned long long)q->dir_blocks[0],
			      (unsigned long long)q->dir_blocks[1],
			      (unsigned long long)p->dir_blocks[0],
			      (unsigned long long)p->dir_blocks[1]);
	FIRST_DIFF(p->new, p->nnew, q->new, q->nnew, ext_eq, i);
	if (i < p->nnew || i < q->nnew)
		return refuse(c, entry_line(c, l ? l->new : NULL, i, p->nnew),
			      "the new mapping differs from the one e2layout "
			      "makes for inode %u at block %llu (new run %zu)",
			      p->ino, (unsigned long long)p->target, i + 1);
	FIRST_DIFF(p->steps, p->nsteps, q->steps, q->nsteps, step_eq, i);
	if (i < p->nsteps || i < q->nsteps) {
		const struct plan_step *w = i < q->nsteps ? &q->steps[i] :
					    NULL;

		if (!w)
			return refuse(c, entry_line(c, l ? l->steps : NULL, i,
						    p->nsteps),
				      "a step more than the plan for inode %u "
				      "has", p->ino);
		return refuse(c, entry_line(c, l ? l->steps : NULL, i,
					    p->nsteps),
			      "step %zu should be \"step %s %llu %llu %llu\" "
			      "for inode %u (what e2layout plans at block "
			      "%llu)", i + 1, plan_step_name(w->kind),
			      (unsigned long long)w->src,
			      (unsigned long long)w->dst,
			      (unsigned long long)w->len, p->ino,
			      (unsigned long long)p->target);
	}
	return 0;
}

/* p is exactly the plan e2layout builds for its inode at its target. */
static errcode_t check_rebuild(struct ck *c)
{
	const struct plan *p = c->p;
	struct plan *q = NULL;
	errcode_t err;

	if (plan_used_in(c->s->fs, p->target, p->target + p->target_len - 1))
		return refuse(c, field(c, PF_TARGET), "the target run "
			      "%llu-%llu is not free in the block bitmap",
			      (unsigned long long)p->target,
			      (unsigned long long)(p->target + p->target_len -
						   1));
	err = rebuild(c->s, p, &q);
	if (err || !q) {
		plan_free(q);
		return refuse(c, field(c, PF_KIND), "e2layout makes no %s "
			      "plan for inode %u at block %llu now%s%s",
			      p->kind, p->ino, (unsigned long long)p->target,
			      err ? ": " : "", err ? error_message(err) : "");
	}
	err = compare(c, q);
	plan_free(q);
	return err;
}

/* What the switch will do to i_blocks, rehearsed on a copy of the inode
 * (after the plan was found to match its mapping): a damaged count would
 * fail the switch half-way through the apply. */
static errcode_t check_iblocks(struct ck *c)
{
	ext2_filsys fs = c->s->fs;
	const struct plan *p = c->p;
	struct ext2_inode inode;

	if (p->create_name[0])
		return 0;	/* the inode is the directory */
	if (ext2fs_read_inode(fs, p->ino, &inode) ||
	    ext2fs_iblk_sub_blocks(fs, &inode, plan_units_old(fs, p)) ||
	    ext2fs_iblk_add_blocks(fs, &inode, plan_units_new(fs, p))) {
		out_error(c->s->out, c->who, E2L_ERR_UNSAFE, "(inode %u's "
			  "block count, i_blocks, does not cover what it maps: "
			  "the filesystem is damaged); run e2fsck -f first",
			  p->ino);
		return E2L_ERR_UNSAFE;
	}
	return 0;
}

static int cmp_ino(const void *a, const void *b)
{
	ext2_ino_t x = *(const ext2_ino_t *)a, y = *(const ext2_ino_t *)b;

	return x < y ? -1 : x > y;
}

/* No inode is moved twice by one chain. */
static errcode_t check_unique(struct session *s, const struct plan *p,
			      size_t n, const char *who)
{
	ext2_ino_t *inos = malloc(n * sizeof(*inos));
	const struct plan *q;
	errcode_t err = 0;
	size_t i = 0;

	if (!inos)
		return ENOMEM;
	for (q = p; q; q = q->next)
		if (!q->repack)
			inos[i++] = q->ino;
	qsort(inos, i, sizeof(*inos), cmp_ino);
	for (n = 1; n < i; n++)
		if (inos[n] == inos[n - 1]) {
			out_error(s->out, who, 0, "the chain moves inode %u "
				  "twice%s%s; refusing it", inos[n],
				  p->lines ? " in " : "",
				  p->lines ? p->lines->path : "");
			err = p->lines ? E2L_ERR_BAD_PLAN_FILE
				       : E2L_ERR_STALE_PLAN;
			break;
		}
	free(inos);
	return err;
}

errcode_t plan_check_fs(struct session *s, const struct plan *p,
			const char *who)
{
	struct ck c = {s, who, NULL, 0, 0, 0};
	const struct plan *q;
	char uuid[37];
	errcode_t err = 0;
	int i;

	for (q = p; q; q = q->next)
		c.count++;
	for (i = 0; i < 16; i++)
		snprintf(uuid + 2 * i, 3, "%02x", s->fs->super->s_uuid[i]);
	for (q = p; q && !err; q = q->next, c.index++) {
		c.p = q;
		c.stale = 0;
		if (strcmp(q->fp.uuid, uuid)) {
			c.stale = 1;
			return refuse(&c, field(&c, PF_FP), "the plan was made "
				      "for another filesystem (UUID %s, this "
				      "one is %s)", q->fp.uuid, uuid);
		}
		c.stale = q->lines && fp_differs(s->fs, q);
		if (q->repack) {
			err = check_repack(&c);
			continue;
		}
		err = check_bounds(&c);
		if (!err)
			err = check_inode(&c);
		if (!err)
			err = check_rebuild(&c);
		if (!err)
			err = check_iblocks(&c);
	}
	if (!err && c.count > 1)
		err = check_unique(s, p, c.count, who);
	return err;
}
