/* owner_probe.c - the owners of a few blocks without the whole index: one
 * inode scan that keeps only the runs touching those blocks' clusters, then
 * the same lookup the full index answers with. */
#include "owner_int.h"
#include "owner_order.h"
#include "bitmap_group.h"
#include "fs_probe.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

static int probe_cmp(const void *a, const void *b)
{
	const struct owner_probe *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The clusters of blks, sorted and merged; *np ranges. */
static errcode_t probe_ranges(ext2_filsys fs, const blk64_t *blks, size_t n,
			      struct owner_probe **out, size_t *np)
{
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(fs);
	blk64_t total = ext2fs_blocks_count(fs->super);
	struct owner_probe *p;
	size_t i, o = 0;

	p = malloc((n ? n : 1) * sizeof(*p));
	if (!p)
		return ENOMEM;
	for (i = 0; i < n; i++) {
		p[i].start = blks[i] - blks[i] % ratio;
		p[i].end = p[i].start + ratio;
		if (p[i].end > total)
			p[i].end = total;
	}
	qsort(p, n, sizeof(*p), probe_cmp);
	for (i = 0; i < n; i++) {
		/* overlapping (one cluster asked twice), not adjacent:
		 * each block its own range, for the early stop */
		if (o && p[i].start < p[o - 1].end) {
			if (p[i].end > p[o - 1].end)
				p[o - 1].end = p[i].end;
			continue;
		}
		p[o++] = p[i];
	}
	*out = p;
	*np = o;
	return 0;
}

/*
 * Lets the probe scan stop once every asked block has an owner: a block
 * of group metadata or a special inode has one already; a block free in
 * the bitmap never gets one, so a scan asked about one reads every inode
 * (a damaged filesystem's inode may still claim it).  Bigalloc keeps the
 * whole scan: a cluster's slack is told by its owner's other blocks.
 */
static errcode_t probe_early_stop(ext2_filsys fs, struct owner_index *idx)
{
	size_t k, m;

	if (EXT2FS_CLUSTER_RATIO(fs) != 1 || !idx->nprobe)
		return 0;
	idx->probe_found = calloc(idx->nprobe, 1);
	if (!idx->probe_found)
		return ENOMEM;
	idx->probe_left = idx->nprobe;
	for (k = 0; k < idx->nprobe; k++) {
		m = orun_find(&idx->meta, idx->probe[k].start);
		if (m < idx->meta.n &&
		    orun_start(&idx->meta.v[m]) <= idx->probe[k].start) {
			idx->probe_found[k] = 1;
			idx->probe_left--;
		}
	}
	return 0;
}

#define PROBE_MAP_BITS (1U << 21)	/* 256 KiB at most */
#define PROBE_MAP_MIN 16		/* ranges that call for the map */

/* The bucket map of idx's probe ranges (the caller frees it). */
static errcode_t probe_map(ext2_filsys fs, struct owner_index *idx,
			   uint64_t **out)
{
	blk64_t total = ext2fs_blocks_count(fs->super), b;
	unsigned shift = 0;
	uint64_t *map;
	size_t k;

	while ((total >> shift) >= PROBE_MAP_BITS)
		shift++;
	map = calloc((total >> shift) / 64 + 1, sizeof(*map));
	if (!map)
		return ENOMEM;
	for (k = 0; k < idx->nprobe; k++)
		for (b = idx->probe[k].start >> shift;
		     b <= (idx->probe[k].end - 1) >> shift; b++)
			map[b / 64] |= 1ULL << (b % 64);
	idx->probe_map = map;
	idx->probe_shift = shift;
	*out = map;
	return 0;
}

/* The group of block b, for a block the bitmap covers (b >= the first data
 * block). */
static dgrp_t bit_group(ext2_filsys fs, blk64_t b)
{
	return (dgrp_t)((EXT2FS_B2C(fs, b) -
			 EXT2FS_B2C(fs, fs->super->s_first_data_block)) /
			EXT2_CLUSTERS_PER_GROUP(fs->super));
}

/*
 * Reads the block bitmaps of the groups idx's probe ranges lie in, and
 * only those, as a load of the whole bitmap would have them (on 16,384
 * groups the whole load was two thirds of `owner B`).  A block below the
 * first data block has no bit (the queries call it in use, unknown).
 */
static errcode_t probe_bits(ext2_filsys fs, struct owner_index *idx)
{
	blk64_t fdb = fs->super->s_first_data_block;
	size_t n = bitmap_group_bytes(fs), k, ng = 0, cap = 0;
	ext2fs_block_bitmap um = NULL;
	unsigned char *tmp = NULL;
	dgrp_t *gv = NULL, *t, g, last;
	errcode_t err;

	for (k = 0; k < idx->nprobe; k++) {
		if (idx->probe[k].end <= fdb)
			continue;
		g = bit_group(fs, idx->probe[k].start < fdb ? fdb :
			      idx->probe[k].start);
		last = bit_group(fs, idx->probe[k].end - 1);
		if (ng && gv[ng - 1] >= g)	/* sorted: seen already */
			g = gv[ng - 1] + 1;
		for (; g <= last && g < fs->group_desc_count; g++) {
			if (ng == cap) {
				cap = cap ? 2 * cap : 16;
				t = realloc(gv, cap * sizeof(*gv));
				if (!t) {
					err = ENOMEM;
					goto out;
				}
				gv = t;
			}
			gv[ng++] = g;
		}
	}
	err = 0;
	if (!ng)
		goto out;
	idx->pbits = malloc(ng * n);
	tmp = malloc(n);
	err = ENOMEM;
	if (!idx->pbits || !tmp)
		goto out;
	err = bitmap_group_uninit_marks(fs, &um);
	for (k = 0; !err && k < ng; k++)
		err = bitmap_group_read(fs, gv[k], um, idx->pbits + k * n,
					tmp);
out:
	if (!err && ng) {
		idx->pgroup = gv;
		idx->npgroup = ng;
	} else {
		free(gv);
	}
	if (um)
		ext2fs_free_block_bitmap(um);
	free(tmp);
	return err;
}

/*
 * The one-owner probe's stop, before the scan: a block free in the
 * bitmap has its answer (free: on a consistent filesystem no inode claims
 * it), so it does not keep the scan reading every inode.
 */
static void probe_settle_free(ext2_filsys fs, struct owner_index *idx,
			      int part)
{
	blk64_t fdb = fs->super->s_first_data_block, z;
	size_t k;
	int used;

	for (k = 0; idx->probe_found && k < idx->nprobe; k++) {
		if (idx->probe_found[k] || idx->probe[k].start < fdb)
			continue;
		used = part ? owner_probe_find(fs, idx, idx->probe[k].start,
					       idx->probe[k].end, 0, &z) != 0 :
		       ext2fs_test_block_bitmap2(fs->block_map,
						 idx->probe[k].start);
		if (!used) {
			idx->probe_found[k] = 1;
			idx->probe_left--;
		}
	}
}

#define ORDER_MAX 64	/* blocks beyond which their groups are most of them:
			 * inode order, with its readahead */

/*
 * The one-owner probe's order: the inode tables likeliest to own the
 * blocks still without an answer first (owner_order.c), so that the stop
 * comes after a few groups; *ord is the caller's to free.
 */
static errcode_t probe_set_order(ext2_filsys fs, struct owner_index *idx,
				 dgrp_t **ord)
{
	blk64_t *want;
	size_t k, n = 0;
	errcode_t err;

	*ord = NULL;
	if (!idx->probe_found || !idx->probe_left || !idx->scan ||
	    idx->probe_left > ORDER_MAX ||
	    (fs->flags & EXT2_FLAG_IMAGE_FILE))
		return 0;
	want = malloc(idx->probe_left * sizeof(*want));
	if (!want)
		return ENOMEM;
	for (k = 0; k < idx->nprobe; k++)
		if (!idx->probe_found[k] && n < idx->probe_left)
			want[n++] = idx->probe[k].start;
	err = owner_probe_order(fs, want, n, ord);
	free(want);
	if (err)
		return err;
	idx->porder = *ord;
	idx->nporder = fs->group_desc_count;
	idx->porder_at = 0;
	if (ext2fs_inode_scan_goto_blockgroup(idx->scan, (*ord)[0]))
		idx->porder = NULL;	/* inode order, then */
	return 0;
}

errcode_t owner_probe_find(ext2_filsys fs, const struct owner_index *idx,
			   blk64_t a, blk64_t b, int set, blk64_t *z)
{
	blk64_t c0 = EXT2FS_B2C(fs, fs->super->s_first_data_block);
	blk64_t cpg = EXT2_CLUSTERS_PER_GROUP(fs->super), c, i, at;
	size_t n = bitmap_group_bytes(fs), lo, hi, mid;
	int bit;
	dgrp_t g;

	if (b <= a || b - 1 < fs->super->s_first_data_block)
		return ENOENT;
	if (a < fs->super->s_first_data_block)
		a = fs->super->s_first_data_block;
	for (c = EXT2FS_B2C(fs, a); c <= EXT2FS_B2C(fs, b - 1); c++) {
		g = (dgrp_t)((c - c0) / cpg);
		i = (c - c0) % cpg;
		for (lo = 0, hi = idx->npgroup; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (idx->pgroup[mid] < g)
				lo = mid + 1;
			else
				hi = mid;
		}
		/* a group not read (no probe range in it): in use */
		bit = lo < idx->npgroup && idx->pgroup[lo] == g ?
		      (idx->pbits[lo * n + i / 8] >> (i % 8)) & 1 : 1;
		if (bit == !!set) {
			at = EXT2FS_C2B(fs, c);
			*z = at < a ? a : at;
			return 0;
		}
	}
	return ENOENT;
}

int owner_probe_groups_only(const struct session *s)
{
	return s->fs && !owner_index_complete(s) &&
	       !(s->loaded & NEED_BLOCK_BITMAP) &&
	       !(s->flags & SESSION_CATASTROPHIC) &&
	       bitmap_group_usable(s->fs);
}

/* Will the answers' paths come from a walk of the tree (more files than
 * owner_find_paths_near takes)?  Then their directories are asked for. */
static int walk_names(ext2_filsys fs, const struct owner_run *runs, size_t n)
{
	size_t i, files = 0;

	for (i = 0; i < n && files <= OWNER_NEAR_MAX; i++)
		files += owner_near_counts(fs, runs[i].ino);
	return files > OWNER_NEAR_MAX;
}

/* The answers, and with claims every claim (NULL: the first only). */
static errcode_t lookup(struct session *s, const blk64_t *blks, size_t n,
			struct owner_run *runs, struct owner_claim **claims,
			size_t *nclaims)
{
	struct owner_probe *probe = NULL;
	struct owner_index *idx = NULL;
	uint64_t *map = NULL;
	dgrp_t *ord = NULL;
	errcode_t err;
	size_t i;
	int done = 0, part;

	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	for (i = 0; i < n; i++)
		if (blks[i] >= ext2fs_blocks_count(s->fs->super))
			return EXT2_ET_BAD_BLOCK_NUM;
	if (owner_index_complete(s)) {
		err = owner_scan_begin(s);
		if (!err)
			err = owner_idx_lookup_many(s->fs, s->owners, blks, n,
						    runs);
		if (!err && claims)
			err = owner_idx_claims(s->fs, s->owners, blks, n,
					       claims, nclaims);
		return err;
	}
	/* the whole bitmap only where it is loaded or cannot be read a group
	 * at a time */
	part = owner_probe_groups_only(s);
	err = part ? 0 : session_need(s, NEED_BLOCK_BITMAP);
	if (err)
		return err;
	err = probe_ranges(s->fs, blks, n, &probe, &i);
	if (err)
		return err;
	err = owner_idx_open(s->fs, s->device, OKEEP_PROBE, 0, &idx);
	if (err)
		goto out;
	idx->probe = probe;
	idx->nprobe = i;
	err = part ? probe_bits(s->fs, idx) : 0;
	if (err)
		goto out;
	/* a few ranges: a search is as quick as the map */
	err = idx->nprobe >= PROBE_MAP_MIN ? probe_map(s->fs, idx, &map) : 0;
	if (err)
		goto out;
	/* every claim: the scan reads every inode (a claimed block may
	 * have a second claimant further on) */
	err = claims ? 0 : probe_early_stop(s->fs, idx);
	if (err)
		goto out;
	/* one owner a block: free blocks answered by the bitmap, and the
	 * likeliest inode tables read first */
	if (!claims) {
		probe_settle_free(s->fs, idx, part);
		err = probe_set_order(s->fs, idx, &ord);
		if (err)
			goto out;
	}
	/* more blocks than the parent chains name: the owners' paths may
	 * come from a walk of the tree, which the directories the scan
	 * walks serve */
	if (idx->nprobe > OWNER_NEAR_MAX && !fs_probe_metadata_only(s->fs))
		owner_dirs_begin(s->fs, idx);
	while (!err && !done)
		err = owner_idx_step(s->fs, idx, 65536, &done);
	if (!err)
		err = owner_idx_lookup_many(s->fs, idx, blks, n, runs);
	if (!err && claims)
		err = owner_idx_claims(s->fs, idx, blks, n, claims, nclaims);
	if (!err && walk_names(s->fs, runs, n))
		owner_dirs_ask(s->fs, s->device, idx);
out:
	owner_index_free(idx);
	free(probe);
	free(map);
	free(ord);
	return err;
}

errcode_t owner_lookup_blocks(struct session *s, const blk64_t *blks,
			      size_t n, struct owner_run *runs)
{
	return lookup(s, blks, n, runs, NULL, NULL);
}

errcode_t owner_lookup_all(struct session *s, const blk64_t *blks, size_t n,
			   struct owner_run *runs, struct owner_claim **claims,
			   size_t *nclaims)
{
	size_t i, c, m;
	errcode_t err;

	*claims = NULL;
	*nclaims = 0;
	err = lookup(s, blks, n, runs, claims, nclaims);
	if (err) {
		free(*claims);
		*claims = NULL;
		*nclaims = 0;
		return err;
	}
	/*
	 * A block claimed more than once: its first claim is the answer.
	 * So it is when the lookup names another owner than its one claim
	 * (unowned, or a bigalloc cluster's slack): the binary search
	 * assumes runs that do not overlap, and a cross-link nearby can hide
	 * the one run that holds the block.
	 */
	for (c = 0; c < *nclaims; c = m) {
		for (m = c; m < *nclaims && (*claims)[m].k == (*claims)[c].k;
		     m++)
			;
		i = (*claims)[c].k;
		if (m - c > 1 || runs[i].cls != (*claims)[c].run.cls ||
		    runs[i].ino != (*claims)[c].run.ino)
			runs[i] = (*claims)[c].run;
	}
	return 0;
}
