/* owner_query.c - answering ownership questions from the index (see
 * owner.h): the runs over a block range, one block's owner, class counts
 * and one inode's runs.  Binary searches over the index plus bitmap range
 * searches for free and unowned space; nothing here scans inodes. */
#include "owner_int.h"

#include <stdlib.h>
#include <string.h>

/* Group metadata (superblock .. inode table) is kept per group served. */
static int group_class(int cls)
{
	return cls >= OWN_SUPER && cls <= OWN_ITABLE;
}

size_t orun_find(const struct orun_vec *v, blk64_t pos)
{
	size_t lo = 0, hi = v->n;

	if (v->maxend) {	/* runs overlap: the first reaching past pos */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (v->maxend[mid] <= pos)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo;
	}
	while (lo < hi) {	/* first run starting after pos */
		size_t mid = lo + (hi - lo) / 2;

		if (orun_start(&v->v[mid]) <= pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && orun_end(&v->v[lo - 1]) > pos)
		return lo - 1;
	return lo;
}

/* Does the logical block grow along the run (file data)? */
static int lblk_advances(const struct owner_run *r)
{
	return r->ino && r->cls != OWN_MAPPING && r->cls != OWN_XATTR &&
	       !group_class(r->cls);
}

struct emitter {
	ext2_filsys fs;
	int (*fn)(const struct owner_run *run, void *arg);
	void *arg;
	struct owner_run last;
	int have_last, stop;
	blk64_t from;		/* runs before it are only remembered */
	const struct owner_index *part;	/* its groups' bitmaps, not
					   fs->block_map (a probe) */
	struct owner_bits *bits;	/* the disk's bitmap a group at a
					   time, not fs->block_map */
};

static void emit(struct emitter *e, const struct owner_run *r)
{
	struct owner_run c;

	if (e->stop || !r->len)
		return;
	e->last = *r;
	e->have_last = 1;
	if (r->start + r->len <= e->from)
		return;
	if (r->start < e->from) {	/* clip a run begun before the range */
		c = *r;
		c.len -= e->from - r->start;
		if (lblk_advances(&c))
			c.lblk += e->from - r->start;
		c.start = e->from;
		e->stop = e->fn(&c, e->arg);
		return;
	}
	e->stop = e->fn(r, e->arg);
}

static dgrp_t group_of(ext2_filsys fs, blk64_t b)
{
	if (b < fs->super->s_first_data_block)
		return 0;
	return ext2fs_group_of_blk2(fs, b);
}

void orun_to_run(ext2_filsys fs, const struct orun *r, blk64_t a, blk64_t b,
		 struct owner_run *out)
{
	struct owner_run o = {0};
	blk64_t off = a - orun_start(r), unit;

	o.start = a;
	o.len = b - a;
	o.cls = r->cls;
	if (group_class(r->cls)) {
		unit = owner_group_unit(fs, r->cls);
		o.group = r->ino + (unit ? off / unit : 0);
	} else {
		o.ino = r->ino;
		o.lblk = r->lblk;
		if (lblk_advances(&o))
			o.lblk += off;
		o.group = group_of(fs, a);
	}
	*out = o;
}

static void emit_orun(struct emitter *e, const struct orun *r, blk64_t a,
		      blk64_t b)
{
	struct owner_run o;

	orun_to_run(e->fs, r, a, b, &o);
	emit(e, &o);
}

static void emit_plain(struct emitter *e, blk64_t a, blk64_t b,
		       enum owner_class cls)
{
	struct owner_run o = {0};

	o.start = a;
	o.len = b - a;
	o.cls = cls;
	o.group = group_of(e->fs, a);
	emit(e, &o);
}

static int group_uninit(ext2_filsys fs, dgrp_t g)
{
	return ext2fs_has_group_desc_csum(fs) &&
	       ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT);
}

static void emit_free(struct emitter *e, blk64_t a, blk64_t b)
{
	while (a < b && !e->stop) {
		dgrp_t g = group_of(e->fs, a);
		int un = group_uninit(e->fs, g);
		blk64_t t = ext2fs_group_last_block2(e->fs, g) + 1;

		while (t < b && group_uninit(e->fs, group_of(e->fs, t)) == un)
			t = ext2fs_group_last_block2(e->fs,
						     group_of(e->fs, t)) + 1;
		if (t > b)
			t = b;
		emit_plain(e, a, t, un ? OWN_UNINIT : OWN_FREE);
		a = t;
	}
}

/* Used blocks without a run.  With bigalloc, the rest of a cluster that
 * a run partly covers belongs to the run's owner (before or after it). */
static void emit_used(struct emitter *e, blk64_t a, blk64_t b,
		      const struct orun *next)
{
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(e->fs), t, c;
	struct owner_run o;

	if (ratio > 1 && e->have_last && a % ratio &&
	    e->last.start + e->last.len == a &&
	    e->last.cls != OWN_FREE && e->last.cls != OWN_UNINIT &&
	    e->last.cls != OWN_UNKNOWN) {
		t = (a | (ratio - 1)) + 1;
		if (t > b)
			t = b;
		o = e->last;
		if (lblk_advances(&o))
			o.lblk += o.len;
		o.start = a;
		o.len = t - a;
		emit(e, &o);
		a = t;
	}
	c = b;
	if (ratio > 1 && next && b % ratio && orun_start(next) == b) {
		c = b - b % ratio;
		if (c < a)
			c = a;
	}
	if (a < c)
		emit_plain(e, a, c, OWN_UNKNOWN);
	if (c < b) {
		orun_to_run(e->fs, next, b, b + 1, &o);
		o.start = c;
		o.len = b - c;
		if (lblk_advances(&o))
			o.lblk = o.lblk >= o.len ? o.lblk - o.len : 0;
		emit(e, &o);
	}
}

/* The first block of [a, b) in use (set) or free: 0 and *z, else
 * nonzero. */
static int gap_find(struct emitter *e, blk64_t a, blk64_t b, int set,
		    blk64_t *z)
{
	ext2fs_block_bitmap bm = e->fs->block_map;

	if (e->part)
		return owner_probe_find(e->fs, e->part, a, b, set, z) != 0;
	if (e->bits)	/* a read error: as if none, the run used */
		return owner_bits_find(e->fs, e->bits, a, b, set, z) != 0;
	if (set)
		return ext2fs_find_first_set_block_bitmap2(bm, a, b - 1, z);
	return ext2fs_find_first_zero_block_bitmap2(bm, a, b - 1, z);
}

/* The space between runs, from the block bitmap. */
static void emit_gap(struct emitter *e, blk64_t a, blk64_t b,
		     const struct orun *next)
{
	blk64_t fdb = e->fs->super->s_first_data_block, z;

	if (a < fdb) {
		emit_plain(e, a, b < fdb ? b : fdb, OWN_UNKNOWN);
		a = fdb;
	}
	while (a < b && !e->stop) {
		if (gap_find(e, a, b, 0, &z))
			z = b;
		if (z < a)
			z = a;
		if (z > a) {
			emit_used(e, a, z, z == b ? next : NULL);
			a = z;
			continue;
		}
		if (gap_find(e, a, b, 1, &z))
			z = b;
		if (z <= a)	/* cannot happen; never loop */
			z = a + 1;
		emit_free(e, a, z);
		a = z;
	}
}

/* idx_for_range; from, when given: the runs of idx->files positioned (as
 * fpack_at) at first, used when first starts its cluster (else the runs
 * are searched from the cluster's start). */
static errcode_t range_from(ext2_filsys fs, struct owner_index *idx,
			    blk64_t first, blk64_t count,
			    int (*fn)(const struct owner_run *run, void *arg),
			    void *arg, const struct fpack_it *from)
{
	struct emitter e = {0};
	const struct orun_vec *mv;
	const struct orun *nr;
	static const struct fpack none;
	struct fpack_it j = {.v = &none};
	blk64_t pos = first, end, total, next, rend;
	size_t i;
	errcode_t err;

	total = ext2fs_blocks_count(fs->super);
	end = first + count;
	if (end < first || end > total)
		end = total;
	if (first >= end)
		return 0;
	e.fs = fs;
	e.fn = fn;
	e.arg = arg;
	e.from = first;
	e.part = idx->npgroup ? idx : NULL;
	e.bits = fs->block_map ? NULL : idx->bits;
	/* With bigalloc, start at the cluster so that its slack is known. */
	pos -= pos % EXT2FS_CLUSTER_RATIO(fs);
	mv = &idx->meta;
	if (from && pos == first) {
		j = *from;
	} else if (idx->complete) {
		err = owner_files(idx, &j.v);
		if (err)
			return err;
		fpack_at(&j, pos);
	}
	i = orun_find(mv, pos);
	while (pos < end && !e.stop) {
		while (i < mv->n && orun_end(&mv->v[i]) <= pos)
			i++;
		while (j.ok && orun_end(&j.r) <= pos)
			fpack_next(&j);
		next = end;
		if (i < mv->n && orun_start(&mv->v[i]) < next)
			next = orun_start(&mv->v[i]);
		if (i < mv->n && next <= pos) {
			rend = orun_end(&mv->v[i]);
			rend = rend < end ? rend : end;
			emit_orun(&e, &mv->v[i], pos, rend);
			pos = rend;
			continue;
		}
		if (j.ok && orun_start(&j.r) <= pos) {
			rend = orun_end(&j.r);
			rend = rend < next ? rend : next;
			emit_orun(&e, &j.r, pos, rend);
			pos = rend;
			continue;
		}
		nr = i < mv->n && orun_start(&mv->v[i]) == next ?
		     &mv->v[i] : NULL;
		if (j.ok && orun_start(&j.r) < next) {
			next = orun_start(&j.r);
			nr = &j.r;
		}
		emit_gap(&e, pos, next, nr);
		pos = next;
	}
	return 0;
}

/* owner_for_range over idx (its file runs only once it is complete). */
static errcode_t idx_for_range(ext2_filsys fs, struct owner_index *idx,
			       blk64_t first, blk64_t count,
			       int (*fn)(const struct owner_run *run,
					 void *arg),
			       void *arg)
{
	return range_from(fs, idx, first, count, fn, arg, NULL);
}

errcode_t owner_for_range(struct session *s, blk64_t first, blk64_t count,
			  int (*fn)(const struct owner_run *run, void *arg),
			  void *arg)
{
	errcode_t err = owner_scan_begin(s);

	if (err)
		return err;
	return idx_for_range(s->fs, s->owners, first, count, fn, arg);
}

static int lookup_one(const struct owner_run *run, void *arg)
{
	*(struct owner_run *)arg = *run;
	return 1;
}

/* Where a lookup's runs iterator stands: at, once positioned (by fpack_at
 * or fpack_seek) for block pos. */
struct lookup_it {
	struct fpack_it it;
	int at;
	blk64_t pos;
};

/* owner_idx_lookup with li: moved on from where it stands when that is
 * at or before blk, else searched afresh. */
static errcode_t lookup_at(ext2_filsys fs, struct owner_index *idx,
			   blk64_t blk, struct owner_run *run,
			   struct lookup_it *li)
{
	struct fpack_it *it = &li->it;
	struct emitter e = {.fs = fs, .fn = lookup_one, .arg = run};
	errcode_t err;
	size_t k;

	if (blk >= ext2fs_blocks_count(fs->super))
		return EXT2_ET_BAD_BLOCK_NUM;
	/* A whole stored run when there is one; else what the bitmap says. */
	k = orun_find(&idx->meta, blk);
	if (k < idx->meta.n && orun_start(&idx->meta.v[k]) <= blk) {
		emit_orun(&e, &idx->meta.v[k], orun_start(&idx->meta.v[k]),
			  orun_end(&idx->meta.v[k]));
		return 0;
	}
	if (idx->complete) {
		if (li->at && li->pos <= blk) {
			fpack_seek(it, blk);
		} else {
			err = owner_files(idx, &it->v);
			if (err)
				return err;
			fpack_at(it, blk);
		}
		li->at = 1;
		li->pos = blk;
		if (it->ok && orun_start(&it->r) <= blk) {
			emit_orun(&e, &it->r, orun_start(&it->r),
				  orun_end(&it->r));
			return 0;
		}
	}
	memset(run, 0, sizeof(*run));
	/* To the end of its cluster, so that bigalloc slack finds its
	 * owner; the first run reported starts at blk (the runs' iterator,
	 * at blk, serves when blk starts its cluster). */
	return range_from(fs, idx, blk, EXT2FS_CLUSTER_RATIO(fs) -
			  blk % EXT2FS_CLUSTER_RATIO(fs), lookup_one, run,
			  idx->complete ? it : NULL);
}

errcode_t owner_idx_lookup(ext2_filsys fs, struct owner_index *idx,
			   blk64_t blk, struct owner_run *run)
{
	struct lookup_it li = {.at = 0};

	return lookup_at(fs, idx, blk, run, &li);
}

errcode_t owner_idx_lookup_many(ext2_filsys fs, struct owner_index *idx,
				const blk64_t *blks, size_t n,
				struct owner_run *runs)
{
	struct lookup_it li = {.at = 0};
	errcode_t err = 0;
	size_t i;

	for (i = 0; i < n && !err; i++)
		err = lookup_at(fs, idx, blks[i], &runs[i], &li);
	return err;
}

errcode_t owner_lookup(struct session *s, blk64_t blk, struct owner_run *run)
{
	errcode_t err = owner_scan_begin(s);

	if (err)
		return err;
	return owner_idx_lookup(s->fs, s->owners, blk, run);
}

static int count_fn(const struct owner_run *run, void *arg)
{
	blk64_t *counts = arg;

	counts[run->cls] += run->len;
	return 0;
}

errcode_t owner_class_counts(struct session *s, blk64_t first, blk64_t count,
			     blk64_t counts[OWN_CLASS_MAX])
{
	return owner_for_range(s, first, count, count_fn, counts);
}

static int run_cmp_lblk(const void *a, const void *b)
{
	const struct owner_run *x = a, *y = b;

	if (x->lblk != y->lblk)
		return x->lblk < y->lblk ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

errcode_t owalk_read(ext2_filsys fs, ext2_ino_t ino, enum owner_class cls,
		     struct owalk *w, struct orun_vec *v)
{
	struct ext2_inode inode;
	errcode_t err;

	if (!fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (!ino || ino > fs->super->s_inodes_count)
		return EXT2_ET_BAD_INODE_NUM;
	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	if (cls == OWN_CLASS_MAX)
		cls = ino == fs->super->s_journal_inum ? OWN_JOURNAL :
		      LINUX_S_ISDIR(inode.i_mode) ? OWN_DIR :
		      owner_special_ino(fs, ino) ? OWN_OTHER : OWN_FILE;
	memset(w, 0, sizeof(*w));
	w->fs = fs;
	w->out = v;
	owalk_inode(w, ino, &inode, cls);
	return 0;
}

errcode_t owner_inode_runs(struct session *s, ext2_ino_t ino,
			   struct owner_run **runs, size_t *nruns)
{
	struct orun_vec v = {0};
	struct owner_run *out = NULL;
	struct owalk w;
	errcode_t err;
	size_t k;

	*runs = NULL;
	*nruns = 0;
	err = owalk_read(s->fs, ino, OWN_CLASS_MAX, &w, &v);
	if (err)
		return err;
	err = w.err;
	if (!err && v.n) {
		out = calloc(v.n, sizeof(*out));
		if (!out)
			err = ENOMEM;
	}
	for (k = 0; !err && k < v.n; k++) {
		out[k].start = orun_start(&v.v[k]);
		out[k].len = v.v[k].len;
		out[k].cls = v.v[k].cls;
		out[k].ino = ino;
		out[k].lblk = v.v[k].lblk;
		out[k].group = group_of(s->fs, out[k].start);
	}
	if (!err && v.n) {
		qsort(out, v.n, sizeof(*out), run_cmp_lblk);
		*runs = out;
		*nruns = v.n;
	}
	free(v.v);
	return err;
}
