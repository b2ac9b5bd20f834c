/* plan_repack_occ.c - what stands in a repack_flex island besides the
 * groups' own metadata, by the owner index: metadata that cannot move
 * (the flex group cannot be packed there), or files to evacuate first. */
#include "plan_repack_int.h"
#include "owner.h"

#include <stdio.h>
#include <string.h>

static const struct repack_item *dind_item(const struct plan_repack *r)
{
	return r->nitems && r->items[r->nitems - 1].what == RP_DIND ?
	       &r->items[r->nitems - 1] : NULL;
}

/* What occupies the island besides the groups' own metadata. */
struct occ {
	struct session *s;
	const struct plan_repack *r;
	const struct plan *head, *upto;	/* moves before upto empty it */
	blk64_t dind;			/* moves out: not in the way */
	ext2_ino_t inos[8];
	size_t n;
	blk64_t files, fixed, first_bad, fixed_at;
	enum owner_class fixed_cls;
	ext2_ino_t fixed_ino;
};

static int occ_cb(const struct owner_run *run, void *arg)
{
	struct occ *o = arg;
	size_t i;

	switch (plan_evac_role(run, o->r->first, o->r->n)) {
	case EVAC_CLEAR:	/* free, or ours: it moves */
		return 0;
	case EVAC_INODE:
		if (o->head && run->ino &&
		    plan_chain_moves(o->head, o->upto, run->ino))
			return 0;	/* an earlier plan moves it out */
		/* fall through */
	case EVAC_XATTR:
		if (!o->files++ && !o->fixed)
			o->first_bad = run->start;
		o->files += run->len - 1;
		for (i = 0; i < o->n && o->inos[i] != run->ino; i++)
			;
		if (i == o->n && o->n < 8 && run->ino)
			o->inos[o->n++] = run->ino;
		return 0;
	case EVAC_RESIZE:
		if (o->dind && repack_in_cluster(o->s->fs, o->dind, run->start,
						 run->len))
			return 0;	/* moves out first (with its slack) */
		break;
	case EVAC_FIXED:
		break;
	}
	if (!o->fixed) {
		o->fixed_at = run->start;
		o->fixed_cls = run->cls;
		o->fixed_ino = run->ino;
	}
	o->fixed += run->len;
	return 0;
}

/* The rest of the island's first and last clusters (bigalloc): any
 * group's metadata may share them, nothing else. */
static int slack_cb(const struct owner_run *run, void *arg)
{
	if (run->cls >= OWN_SUPER && run->cls <= OWN_ITABLE)
		return 0;
	return occ_cb(run, arg);
}

static errcode_t occ_part(blk64_t start, blk64_t len, void *arg)
{
	struct occ *o = arg;
	blk64_t mask = EXT2FS_CLUSTER_MASK(o->s->fs);
	blk64_t head = start & ~mask, end = start + len;
	blk64_t tail = (end + mask) & ~mask;
	errcode_t err;

	err = owner_for_range(o->s, start, len, occ_cb, o);
	if (!err && head < start)
		err = owner_for_range(o->s, head, start - head, slack_cb, o);
	if (!err && end < tail)
		err = owner_for_range(o->s, end, tail - end, slack_cb, o);
	return err;
}

int repack_island_free(struct session *s, const struct plan_repack *r,
		       const struct plan *head, const struct plan *upto)
{
	const struct repack_item *d = dind_item(r);
	struct occ o = {0};
	char list[128] = "";
	size_t i, l;
	errcode_t err;

	o.r = r;
	o.head = head;
	o.upto = upto;
	o.dind = d ? d->from : 0;
	o.s = s;
	err = owner_index_build(s);
	if (!err)	/* (the group headers in it stay: not asked about) */
		err = repack_span_parts(s->fs, r->island, r->island_len,
					occ_part, &o);
	if (err) {
		out_error(s->out, "repack_flex", err, "while finding what "
			  "owns blocks %llu-%llu",
			  (unsigned long long)r->island,
			  (unsigned long long)(r->island + r->island_len - 1));
		return 0;
	}
	if (o.fixed) {
		out_error(s->out, "repack_flex", 0, "the island %llu-%llu "
			  "holds %llu blocks of metadata that cannot move "
			  "(first: %s%s at block %llu); this flex group cannot "
			  "be packed there",
			  (unsigned long long)r->island,
			  (unsigned long long)(r->island + r->island_len - 1),
			  (unsigned long long)o.fixed,
			  owner_class_name(o.fixed_cls),
			  o.fixed_cls == OWN_RSV_GDT ? " (reserved GDT blocks "
			  "of the resize inode)" : "",
			  (unsigned long long)o.fixed_at);
		return 0;
	}
	if (o.files) {
		for (i = 0; i < o.n; i++) {
			l = strlen(list);
			snprintf(list + l, sizeof(list) - l, "%s%u",
				 i ? ", " : "", o.inos[i]);
		}
		out_error(s->out, "repack_flex", 0, "the island %llu-%llu "
			  "holds %llu blocks of file data (inodes %s%s); free "
			  "it first with: evacuate %llu-%llu",
			  (unsigned long long)r->island,
			  (unsigned long long)(r->island + r->island_len - 1),
			  (unsigned long long)o.files, list,
			  o.n == 8 ? ", ..." : "",
			  (unsigned long long)o.first_bad,
			  (unsigned long long)(r->island + r->island_len - 1));
		return 0;
	}
	return 1;
}
