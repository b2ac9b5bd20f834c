/* plan_guard.c - the block-ownership guard: before a plan is shown, kept
 * or applied, every block it will write must be free in the bitmap and
 * claimed by nobody in the owner index, and every block it frees must be
 * claimed by what moves alone.  The bitmap alone is not trusted: a flipped
 * bit must not let a plan overwrite a file, a backup superblock or a GDT. */
#include "plan_repack_int.h"
#include "plan_guard_int.h"
#include "owner.h"
#include "e2l_err.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One range the guard asks about, and what it expects there. */
enum role {
	R_WRITE,	/* allocated, copied into, zeroed, mapping written */
	R_FREE,		/* released: claimed by the expected owner */
	R_ISLAND	/* repack's island: free, or the moving metadata */
};

struct gq {
	enum role role;
	size_t plan;		/* index in the chain */
	ext2_ino_t ino;		/* R_FREE: the owning inode, or 0 */
	int cls;		/* R_FREE of group metadata: its class */
	dgrp_t group, ngroups;	/* ... and group(s) */
	blk64_t dind;		/* R_ISLAND: the resize inode's block */
	const struct plan *pl;	/* R_ISLAND: its plan, whose chain's earlier
				   moves may empty the island */
	blk64_t own, own_len;	/* the range asked about, before it grew to
				   whole clusters (bigalloc) */
	ext2_filsys fs;
};

struct guard {
	struct session *s;
	struct owner_query *q;
	struct gq *g;
	size_t n, cap;
	struct guard_cover *cov;	/* R_FREE blocks claimed as expected */
	size_t ncov, capcov;
	struct guard_report rep;
	errcode_t err;
	struct gq island_q;	/* what island_part queues */
};

static int push_q(struct guard *gd, blk64_t start, blk64_t len,
		  struct gq g)
{
	ext2_filsys fs = gd->s->fs;
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs), end;

	if (!len)
		return 0;
	/* with bigalloc a cluster is the unit: all of it or none */
	g.own = start;
	g.own_len = len;
	g.fs = fs;
	end = (start + len + mask) & ~mask;
	start &= ~mask;
	if (gd->n == gd->cap) {
		size_t cap = gd->cap ? gd->cap * 2 : 64;
		struct owner_query *q = realloc(gd->q, cap * sizeof(*q));
		struct gq *ng;

		if (!q)
			return gd->err = ENOMEM;
		gd->q = q;
		ng = realloc(gd->g, cap * sizeof(*ng));
		if (!ng)
			return gd->err = ENOMEM;
		gd->g = ng;
		gd->cap = cap;
	}
	gd->q[gd->n] = (struct owner_query){start, end - start};
	gd->g[gd->n++] = g;
	return 0;
}

static errcode_t island_part(blk64_t start, blk64_t len, void *arg)
{
	struct guard *gd = arg;

	return push_q(gd, start, len, gd->island_q);
}

static int item_class(int what)
{
	return what == RP_BB ? OWN_BBITMAP : what == RP_IB ? OWN_IBITMAP :
	       what == RP_IT ? OWN_ITABLE : OWN_OTHER;
}

static void collect_repack(struct guard *gd, const struct plan *p, size_t k)
{
	const struct plan_repack *r = p->repack;
	const struct repack_item *it;
	struct gq g = {R_WRITE, k, 0, 0, 0, 0, 0, NULL, 0, 0, NULL};
	size_t i;

	if (r->n) {
		g.role = R_ISLAND;
		g.group = r->first;
		g.ngroups = r->n;
		g.pl = p;
		for (i = 0; i < r->nitems; i++)
			if (r->items[i].what == RP_DIND)
				g.dind = r->items[i].from;
		/* the group headers in it stay: not asked about */
		gd->island_q = g;
		repack_span_parts(gd->s->fs, r->island, r->island_len,
				  island_part, gd);
	}
	for (i = 0; i < r->nitems; i++) {
		it = &r->items[i];
		if (it->from == it->to && !it->tmp)
			continue;	/* stays where it is */
		g = (struct gq){R_WRITE, k, 0, 0, 0, 0, 0, NULL, 0, 0, NULL};
		if (it->tmp)
			push_q(gd, it->tmp, it->len, g);
		if (it->what == RP_DIND)
			push_q(gd, it->to, it->len, g);
		/* (a final place in the island: R_ISLAND above) */
		g.role = R_FREE;
		g.cls = item_class(it->what);
		if (it->what == RP_DIND) {
			g.ino = EXT2_RESIZE_INO;
		} else {
			g.group = it->g;
			g.ngroups = 1;
		}
		push_q(gd, it->from, it->len, g);
	}
}

static void collect(struct guard *gd, const struct plan *p, size_t k)
{
	struct gq w = {R_WRITE, k, 0, 0, 0, 0, 0, NULL, 0, 0, NULL};
	struct gq f = {R_FREE, k, p->ino, 0, 0, 0, 0, NULL, 0, 0, NULL};
	const struct plan_step *st;
	size_t i;

	if (p->repack) {
		collect_repack(gd, p, k);
		return;
	}
	push_q(gd, p->target, p->target_len, w);
	/* prealloc: the blocks its directory may grow into */
	for (i = 0; i < 2; i++)
		if (p->dir_blocks[i])
			push_q(gd, p->dir_blocks[i], 1, w);
	for (i = 0; i < p->nsteps; i++) {
		st = &p->steps[i];
		switch (st->kind) {
		case STEP_COPY:
		case STEP_ZERO:
		case STEP_WRITE_MAP:
		case STEP_ALLOC:
			if (st->dst >= p->target && st->len <= p->target_len &&
			    st->dst - p->target <= p->target_len - st->len)
				break;	/* in the target: asked */
			push_q(gd, st->dst, st->len, w);
			break;
		case STEP_FREE:
			push_q(gd, st->src, st->len, f);
			break;
		default:
			break;
		}
	}
}

static int group_cls(int cls)
{
	return cls >= OWN_SUPER && cls <= OWN_ITABLE;
}

/* Is run what the range expects to find (the thing that moves)? */
static int expected(const struct gq *g, const struct owner_run *run)
{
	/* bigalloc: the rest of a repack range's clusters may hold other
	 * groups' metadata, which shares clusters (it stays: apply frees a
	 * cluster only when no metadata is left in it) */
	if ((g->role == R_ISLAND || (g->role == R_FREE && g->ngroups)) &&
	    group_cls(run->cls) &&
	    !repack_overlaps(run->start, run->len, g->own, g->own_len))
		return 1;
	if (g->role == R_ISLAND && g->pl && g->pl->head && run->ino &&
	    (run->cls == OWN_FILE || run->cls == OWN_DIR ||
	     run->cls == OWN_MAPPING || run->cls == OWN_JOURNAL) &&
	    plan_chain_moves(g->pl->head, g->pl, run->ino))
		return 1;	/* an earlier plan of the chain moves it out */
	if (g->role == R_ISLAND)
		return ((run->cls == OWN_BBITMAP || run->cls == OWN_IBITMAP ||
			 run->cls == OWN_ITABLE) && run->group >= g->group &&
			run->group - g->group < g->ngroups) ||
		       (g->dind && run->cls == OWN_OTHER &&
			run->ino == EXT2_RESIZE_INO &&
			repack_in_cluster(g->fs, g->dind, run->start,
					  run->len));
	if (g->ngroups)
		return (int)run->cls == g->cls && run->group >= g->group &&
		       run->group - g->group < g->ngroups;
	return !group_cls(run->cls) && run->ino == g->ino &&
	       (g->ino != EXT2_RESIZE_INO || run->cls == OWN_OTHER);
}

static int add_cover(struct guard *gd, size_t k, blk64_t start, blk64_t len)
{
	if (gd->ncov == gd->capcov) {
		size_t cap = gd->capcov ? gd->capcov * 2 : 64;
		struct guard_cover *c = realloc(gd->cov, cap * sizeof(*c));

		if (!c)
			return gd->err = ENOMEM;
		gd->cov = c;
		gd->capcov = cap;
	}
	gd->cov[gd->ncov++] = (struct guard_cover){k, start, len};
	return 0;
}

static int claim_cb(size_t k, const struct owner_run *run, void *arg)
{
	struct guard *gd = arg;
	const struct gq *g = &gd->g[k];

	if (g->role != R_WRITE && expected(g, run)) {
		if (g->role == R_FREE)
			return add_cover(gd, k, run->start, run->len);
		return 0;
	}
	return guard_conflict(&gd->rep, g->role == R_WRITE ? GC_WRITE_OWNED :
			      g->role == R_FREE ? GC_FREE_SHARED :
			      GC_ISLAND_OWNED, run->start, run->len, run,
			      g->plan, g->ino) ? (gd->err = ENOMEM) : 0;
}

/* Blocks to be written that the bitmap marks in use. */
static void check_bitmap(struct guard *gd)
{
	ext2fs_block_bitmap bm = gd->s->fs->block_map;
	blk64_t a, b, u, z, last;
	size_t k;

	for (k = 0; k < gd->n && !gd->err; k++) {
		if (gd->g[k].role != R_WRITE)
			continue;
		a = gd->q[k].start;
		last = a + gd->q[k].len - 1;
		for (b = a; b <= last; b = z) {
			if (ext2fs_find_first_set_block_bitmap2(bm, b, last,
								&u))
				break;
			if (ext2fs_find_first_zero_block_bitmap2(bm, u, last,
								 &z))
				z = last + 1;
			if (guard_conflict(&gd->rep, GC_WRITE_USED, u, z - u,
					   NULL, gd->g[k].plan, 0))
				gd->err = ENOMEM;
		}
	}
}

static int cover_cmp(const void *a, const void *b)
{
	const struct guard_cover *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Every block (cluster) to be freed is claimed by what moves, once. */
static void check_cover(struct guard *gd)
{
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(gd->s->fs);
	blk64_t pos, raw, end, s, e, cs;
	size_t k, c = 0;

	if (gd->ncov)
		qsort(gd->cov, gd->ncov, sizeof(*gd->cov), cover_cmp);
	for (k = 0; k < gd->n && !gd->err; k++) {
		if (gd->g[k].role != R_FREE)
			continue;
		pos = raw = gd->q[k].start;	/* pos: clusters covered */
		end = pos + gd->q[k].len;
		while (c < gd->ncov && gd->cov[c].k < k)
			c++;
		for (; c < gd->ncov && gd->cov[c].k == k && !gd->err; c++) {
			s = gd->cov[c].start;
			e = s + gd->cov[c].len;
			if (s < raw && guard_conflict(&gd->rep, GC_FREE_TWICE,
					s, (e < raw ? e : raw) - s, NULL,
					gd->g[k].plan, gd->g[k].ino))
				gd->err = ENOMEM;
			/* bigalloc: the rest of a claimed cluster is the
			 * owner's slack */
			cs = s - s % ratio;
			if (cs > pos && guard_conflict(&gd->rep,
					GC_FREE_UNCLAIMED, pos, cs - pos, NULL,
					gd->g[k].plan, gd->g[k].ino))
				gd->err = ENOMEM;
			if (e > raw)
				raw = e;
			e += (ratio - e % ratio) % ratio;
			if (e > pos)
				pos = e;
		}
		if (pos < end && !gd->err &&
		    guard_conflict(&gd->rep, GC_FREE_UNCLAIMED, pos,
				   end - pos, NULL, gd->g[k].plan,
				   gd->g[k].ino))
			gd->err = ENOMEM;
	}
}

struct foot {
	blk64_t start, end;
	size_t plan;
	int role;
};

static int foot_cmp(const void *a, const void *b)
{
	const struct foot *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* No other plan of a chain writes into a repack's island (the repack
 * fills all of it). */
static void check_islands(struct guard *gd)
{
	size_t i, j;

	for (i = 0; i < gd->n && !gd->err; i++) {
		const struct owner_query *a = &gd->q[i];

		if (gd->g[i].role != R_ISLAND)
			continue;
		for (j = 0; j < gd->n && !gd->err; j++) {
			const struct owner_query *b = &gd->q[j];
			blk64_t s, e;

			if (gd->g[j].role != R_WRITE ||
			    gd->g[j].plan == gd->g[i].plan ||
			    !repack_overlaps(a->start, a->len, b->start,
					     b->len))
				continue;
			s = a->start > b->start ? a->start : b->start;
			e = a->start + a->len < b->start + b->len ?
			    a->start + a->len : b->start + b->len;
			if (guard_conflict(&gd->rep, GC_CHAIN_WRITE, s, e - s,
					   NULL, gd->g[j].plan, 0))
				gd->err = ENOMEM;
		}
	}
}

/* No two plans of a chain write the same block, and no block is freed
 * twice (by one plan or two). */
static void check_overlaps(struct guard *gd)
{
	struct foot *f = malloc((gd->n + 1) * sizeof(*f));
	size_t i, m = 0, lw = 0, lf = 0;
	int have_w = 0, have_f = 0;

	if (!f) {
		gd->err = ENOMEM;
		return;
	}
	for (i = 0; i < gd->n; i++)
		if (gd->g[i].role == R_FREE && gd->g[i].ngroups)
			/* group metadata: freed by the block (bigalloc:
			 * items sharing a cluster each free their part) */
			f[m++] = (struct foot){gd->g[i].own, gd->g[i].own +
					       gd->g[i].own_len, gd->g[i].plan,
					       gd->g[i].role};
		else if (gd->g[i].role != R_ISLAND)
			f[m++] = (struct foot){gd->q[i].start, gd->q[i].start +
					       gd->q[i].len, gd->g[i].plan,
					       gd->g[i].role};
	qsort(f, m, sizeof(*f), foot_cmp);
	for (i = 0; i < m && !gd->err; i++) {
		size_t *last = f[i].role == R_WRITE ? &lw : &lf;
		int *have = f[i].role == R_WRITE ? &have_w : &have_f;
		struct foot *o = &f[*last];

		/* writes overlap within a plan (the target holds its
		 * steps); frees never do */
		if (*have && o->end > f[i].start &&
		    (f[i].role == R_FREE || o->plan != f[i].plan) &&
		    guard_conflict(&gd->rep, f[i].role == R_WRITE ?
				   GC_CHAIN_WRITE : GC_FREE_TWICE, f[i].start,
				   (o->end < f[i].end ? o->end : f[i].end) -
				   f[i].start, NULL, f[i].plan, 0))
			gd->err = ENOMEM;
		if (!*have || f[i].end > o->end)
			*last = i;
		*have = 1;
	}
	free(f);
}

struct rsz {
	ext2_filsys fs;
	blk64_t dind, bad;
};

/* Is b one of the reserved GDT blocks (primary or a backup)? */
static int rsv_gdt_blk(ext2_filsys fs, blk64_t b)
{
	blk64_t super, old_desc, new_desc, first;

	if (b < fs->super->s_first_data_block ||
	    b >= ext2fs_blocks_count(fs->super))
		return 0;
	ext2fs_super_and_bgd_loc2(fs, ext2fs_group_of_blk2(fs, b), &super,
				  &old_desc, &new_desc, NULL);
	first = old_desc + fs->desc_blocks;
	return old_desc && b >= first &&
	       b < first + fs->super->s_reserved_gdt_blocks;
}

static int rsz_cb(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		  blk64_t ref_blk, int ref_offset, void *priv)
{
	struct rsz *r = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt == BLOCK_COUNT_DIND ? *blocknr == r->dind :
	    rsv_gdt_blk(r->fs, *blocknr))
		return 0;
	r->bad = *blocknr;
	return BLOCK_ABORT;
}

/*
 * The owner index takes the resize inode's blocks to be the reserved GDT
 * blocks (and its double-indirect block); a resize inode that maps anything
 * else (a damaged one, or one beside meta_bg, which e2fsck calls
 * incompatible) makes ownership unknowable.
 */
static int resize_inode_sane(struct session *s, const char *who)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	struct rsz r = {fs, 0, 0};
	errcode_t err;

	if (!ext2fs_has_feature_resize_inode(fs->super))
		return 1;
	err = ext2fs_read_inode(fs, EXT2_RESIZE_INO, &inode);
	if (!err && ext2fs_has_feature_meta_bg(fs->super))
		err = E2L_ERR_UNSAFE;
	r.dind = inode.i_block[EXT2_DIND_BLOCK];
	if (!err && r.dind)
		err = ext2fs_block_iterate3(fs, EXT2_RESIZE_INO,
					    BLOCK_FLAG_READ_ONLY, NULL, rsz_cb,
					    &r);
	if (!err && !r.bad)
		return 1;
	if (r.bad)
		out_error(s->out, who, E2L_ERR_UNSAFE, "(the resize inode maps "
			  "block %llu, which is not a reserved GDT block: who "
			  "owns what is unknown); run e2fsck -f first",
			  (unsigned long long)r.bad);
	else
		out_error(s->out, who, err == E2L_ERR_UNSAFE ? err : 0,
			  "(%s%s): the resize inode cannot be trusted; run "
			  "e2fsck -f first", err == E2L_ERR_UNSAFE ? "resize_"
			  "inode beside meta_bg" : "while reading it: ",
			  err == E2L_ERR_UNSAFE ? "" : error_message(err));
	return 0;
}

errcode_t plan_guard(struct session *s, const struct plan *p,
		     const char *who)
{
	struct guard gd = {0};
	unsigned long bad = 0, unreadable = 0;
	const struct plan *q;
	size_t k;
	errcode_t err;

	err = plan_check_fs(s, p, who);
	if (err)
		return err;
	err = session_need(s, NEED_BLOCK_BITMAP);
	if (!err)
		err = owner_trust(s, &bad, &unreadable);
	if (err) {
		out_error(s->out, who, err, "while finding who owns each "
			  "block (the owner scan)");
		return err;
	}
	if (bad || unreadable) {
		out_error(s->out, who, E2L_ERR_UNSAFE, "(the owner scan "
			  "skipped %lu corrupt inode%s and %lu unreadable "
			  "inode-table block%s: which blocks they own is "
			  "unknown, so no block can be known to be free); run "
			  "e2fsck -f on the filesystem first", bad,
			  bad == 1 ? "" : "s", unreadable,
			  unreadable == 1 ? "" : "s");
		return E2L_ERR_UNSAFE;
	}
	if (!resize_inode_sane(s, who))
		return E2L_ERR_UNSAFE;
	gd.s = s;
	for (q = p, k = 0; q && !gd.err; q = q->next, k++)
		collect(&gd, q, k);
	if (!gd.err)
		gd.err = owner_claims(s, gd.q, gd.n, claim_cb, &gd);
	if (!gd.err)
		check_bitmap(&gd);
	if (!gd.err)
		check_cover(&gd);
	if (!gd.err)
		check_overlaps(&gd);
	if (!gd.err)
		check_islands(&gd);
	err = gd.err;
	if (err)
		out_error(s->out, who, err, "while checking who owns the "
			  "plan's blocks");
	else if (gd.rep.n)
		err = guard_report(s, &gd.rep, p, who);
	guard_report_free(&gd.rep);
	free(gd.q);
	free(gd.g);
	free(gd.cov);
	return err;
}

static errcode_t fence_alloc(ext2_filsys fs, blk64_t goal, blk64_t *ret)
{
	(void)fs;
	(void)goal;
	(void)ret;
	return E2L_ERR_OWNER_CONFLICT;
}

static errcode_t fence_range(ext2_filsys fs, int flags, blk64_t goal,
			     blk64_t len, blk64_t *pblk, blk64_t *plen)
{
	(void)fs;
	(void)flags;
	(void)goal;
	(void)len;
	(void)pblk;
	(void)plen;
	return E2L_ERR_OWNER_CONFLICT;
}

void plan_fence_begin(ext2_filsys fs, struct plan_fence *f)
{
	ext2fs_set_alloc_block_callback(fs, fence_alloc, &f->alloc);
	ext2fs_set_new_range_callback(fs, fence_range, &f->range);
}

void plan_fence_end(ext2_filsys fs, const struct plan_fence *f)
{
	ext2fs_set_alloc_block_callback(fs, f->alloc, NULL);
	ext2fs_set_new_range_callback(fs, f->range, NULL);
}
