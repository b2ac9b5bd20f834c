/* plan_guard_report.c - how the ownership guard says no: the conflicting
 * block ranges in block order, each with what the plan would do there and
 * who else owns them (class, inode, path), at most ten lines. */
#include "plan_guard_int.h"
#include "e2l_err.h"

#include <stdlib.h>
#include <string.h>

#define GUARD_MAX_RECS	(1UL << 20)	/* kept; the rest are counted */
#define GUARD_LINES	10

static int same_owner(const struct guard_rec *a, const struct guard_rec *b)
{
	if (a->has_owner != b->has_owner)
		return 0;
	return !a->has_owner || (a->owner.cls == b->owner.cls &&
				 a->owner.ino == b->owner.ino &&
				 a->owner.group == b->owner.group);
}

/* b continues or overlaps a (b starting at or after a), same story. */
static int mergeable(const struct guard_rec *a, const struct guard_rec *b)
{
	return a->why == b->why && a->plan == b->plan && a->ino == b->ino &&
	       same_owner(a, b) && b->start >= a->start &&
	       b->start <= a->start + a->len;
}

static void merge_into(struct guard_rec *a, const struct guard_rec *b)
{
	if (b->start + b->len > a->start + a->len)
		a->len = b->start + b->len - a->start;
}

int guard_conflict(struct guard_report *r, enum guard_why why, blk64_t start,
		   blk64_t len, const struct owner_run *owner, size_t plan,
		   ext2_ino_t ino)
{
	struct guard_rec rec = {start, len, why, owner != NULL, {0}, plan,
				ino};
	struct guard_rec *v;

	if (!len)
		return 0;
	if (owner)
		rec.owner = *owner;
	if (r->n && mergeable(&r->v[r->n - 1], &rec)) {
		merge_into(&r->v[r->n - 1], &rec);
		return 0;
	}
	if (r->n >= GUARD_MAX_RECS) {
		r->dropped++;
		return 0;
	}
	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;

		v = realloc(r->v, cap * sizeof(*v));
		if (!v)
			return -1;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = rec;
	return 0;
}

/* By story (why, plan, owner), then block: what merges is adjacent. */
static int rec_cmp(const void *a, const void *b)
{
	const struct guard_rec *x = a, *y = b;

	if (x->why != y->why)
		return (int)x->why - (int)y->why;
	if (x->plan != y->plan)
		return x->plan < y->plan ? -1 : 1;
	if (x->has_owner != y->has_owner)
		return x->has_owner - y->has_owner;
	if (x->owner.cls != y->owner.cls)
		return (int)x->owner.cls - (int)y->owner.cls;
	if (x->owner.ino != y->owner.ino)
		return x->owner.ino < y->owner.ino ? -1 : 1;
	if (x->owner.group != y->owner.group)
		return x->owner.group < y->owner.group ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int start_cmp(const void *a, const void *b)
{
	const struct guard_rec *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->why != y->why)
		return (int)x->why - (int)y->why;
	if (x->owner.ino != y->owner.ino)
		return x->owner.ino < y->owner.ino ? -1 : 1;
	return (int)x->owner.cls - (int)y->owner.cls;
}

/* Merges the ranges of one story that overlap or continue each other,
 * then puts them in block order. */
static void tidy(struct guard_report *r)
{
	size_t i, o = 0;

	qsort(r->v, r->n, sizeof(*r->v), rec_cmp);
	for (i = 0; i < r->n; i++) {
		if (o && mergeable(&r->v[o - 1], &r->v[i])) {
			merge_into(&r->v[o - 1], &r->v[i]);
			continue;
		}
		r->v[o++] = r->v[i];
	}
	r->n = o;
	qsort(r->v, r->n, sizeof(*r->v), start_cmp);
}

static int named_ino(ext2_filsys fs, const struct owner_run *o)
{
	return (o->cls == OWN_FILE || o->cls == OWN_DIR) && o->ino &&
	       (o->ino == EXT2_ROOT_INO || o->ino >= EXT2_FIRST_INO(fs->super));
}

/* What owns o, in a few words, into sb. */
static void describe(struct session *s, const struct owner_run *o,
		     const char *path, struct strbuf *sb)
{
	ext2_filsys fs = s->fs;

	switch (o->cls) {
	case OWN_SUPER:
		if (o->start < fs->super->s_first_data_block)
			strbuf_printf(sb, "the boot block");
		else if (o->group)
			strbuf_printf(sb, "the backup superblock of group %u",
				      o->group);
		else
			strbuf_printf(sb, "the primary superblock");
		return;
	case OWN_GDT:
		strbuf_printf(sb, "the group descriptors (the copy in group "
			      "%u)", o->group);
		return;
	case OWN_RSV_GDT:
		strbuf_printf(sb, "the reserved GDT blocks of group %u",
			      o->group);
		return;
	case OWN_BBITMAP:
	case OWN_IBITMAP:
	case OWN_ITABLE:
		strbuf_printf(sb, "the %s of group %u",
			      owner_class_name(o->cls), o->group);
		return;
	case OWN_OTHER:
		if (!o->ino) {
			strbuf_printf(sb, "the MMP block");
			return;
		}
		if (o->ino == EXT2_RESIZE_INO) {
			strbuf_printf(sb, "the resize inode's double-indirect "
				      "block (inode 7)");
			return;
		}
		strbuf_printf(sb, "inode %u (a special inode: quota, bad "
			      "blocks, orphan file...)", o->ino);
		return;
	case OWN_JOURNAL:
		strbuf_printf(sb, "the journal (inode %u)", o->ino);
		return;
	case OWN_MAPPING:
		strbuf_printf(sb, "the extent tree or indirect blocks of inode "
			      "%u", o->ino);
		return;
	case OWN_XATTR:
		strbuf_printf(sb, "the extended-attribute block of inode %u",
			      o->ino);
		return;
	default:
		strbuf_printf(sb, "inode %u%s%s%s, %s", o->ino,
			      path ? " (" : "", path ? path : "",
			      path ? ")" : "", owner_class_name(o->cls));
	}
}

static void one_line(struct session *s, const struct guard_rec *r,
		     const char *path, int chain)
{
	struct strbuf sb = {0}, who = {0};

	if (r->len == 1)
		strbuf_printf(&sb, "  block %llu", (unsigned long long)r->start);
	else
		strbuf_printf(&sb, "  blocks %llu-%llu",
			      (unsigned long long)r->start,
			      (unsigned long long)(r->start + r->len - 1));
	if (chain)
		strbuf_printf(&sb, " (plan %zu of the chain)", r->plan + 1);
	if (r->has_owner)
		describe(s, &r->owner, path, &who);
	switch (r->why) {
	case GC_WRITE_OWNED:
		strbuf_printf(&sb, ": the plan writes there, but they belong "
			      "to %s", who.buf);
		break;
	case GC_WRITE_USED:
		strbuf_printf(&sb, ": the plan writes there, but the block "
			      "bitmap marks them in use");
		break;
	case GC_FREE_SHARED:
		if (r->ino)
			strbuf_printf(&sb, ": the plan frees them from inode "
				      "%u, but %s claims them too", r->ino,
				      who.buf);
		else
			strbuf_printf(&sb, ": the plan frees them after moving "
				      "the metadata there, but %s claims them "
				      "too", who.buf);
		break;
	case GC_FREE_UNCLAIMED:
		strbuf_printf(&sb, ": the plan frees them as %s%u's, but the "
			      "owner scan finds no such claim",
			      r->ino ? "inode " : "item ", r->ino);
		break;
	case GC_FREE_TWICE:
		strbuf_printf(&sb, ": the plan would free them twice (mapped "
			      "twice, or freed by two steps)");
		break;
	case GC_ISLAND_OWNED:
		strbuf_printf(&sb, ": in the island the plan packs into, but "
			      "they belong to %s", who.buf);
		break;
	case GC_CHAIN_WRITE:
		strbuf_printf(&sb, ": written by two plans of the chain");
		break;
	default:
		break;
	}
	out_errtext(s->out, "%s\n", sb.buf);
	strbuf_free(&sb);
	strbuf_free(&who);
}

errcode_t guard_report(struct session *s, struct guard_report *r,
		       const struct plan *p, const char *who)
{
	ext2_ino_t want[GUARD_LINES], parent[GUARD_LINES];
	char *path[GUARD_LINES] = {0};
	size_t i, nw = 0, shown;
	unsigned long long more;
	int chain = p->next != NULL;

	tidy(r);
	shown = r->n < GUARD_LINES ? r->n : GUARD_LINES;
	for (i = 0; i < shown; i++)
		if (r->v[i].has_owner && named_ino(s->fs, &r->v[i].owner))
			want[nw++] = r->v[i].owner.ino;
	memset(parent, 0, sizeof(parent));
	if (nw)
		owner_find_parents(s->fs, want, parent, nw); /* best effort */
	for (i = 0, nw = 0; i < shown; i++) {
		const struct owner_run *o = &r->v[i].owner;

		if (!r->v[i].has_owner || !named_ino(s->fs, o))
			continue;
		if (o->ino == EXT2_ROOT_INO)
			ext2fs_get_pathname(s->fs, EXT2_ROOT_INO, 0, &path[i]);
		else if (parent[nw])
			ext2fs_get_pathname(s->fs, parent[nw], o->ino,
					    &path[i]);
		nw++;
	}
	out_error(s->out, who, E2L_ERR_OWNER_CONFLICT, "(%zu block range%s; "
		  "the plan is refused and nothing was written):",
		  r->n + (size_t)r->dropped, r->n + r->dropped == 1 ? "" : "s");
	for (i = 0; i < shown; i++)
		one_line(s, &r->v[i], path[i], chain);
	more = r->n - shown + r->dropped;
	if (more)
		out_errtext(s->out, "  and %llu more\n", more);
	out_errtext(s->out, "%s: the block bitmap and the owners of these "
		    "blocks disagree: the filesystem is damaged; run e2fsck -f "
		    "on %s before changing its layout\n", who,
		    s->device ? s->device : "it");
	for (i = 0; i < shown; i++)
		ext2fs_free_mem(&path[i]);
	return E2L_ERR_OWNER_CONFLICT;
}

void guard_report_free(struct guard_report *r)
{
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}
