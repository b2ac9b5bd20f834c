/* plan.c - building plans read-only: an inode's current mapping, the
 * filesystem fingerprint, free-run search and the "move an inode into one
 * contiguous run" plan that journal_relocate and defrag share. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#define EXT_MAX_INIT	32768
#define EXT_MAX_UNINIT	32767

void plan_free(struct plan *p)
{
	struct plan *next;

	for (; p; p = next) {	/* a loop: a chain may be long */
		next = p->next;
		free(p->old);
		free(p->new);
		free(p->old_meta);
		free(p->steps);
		plan_repack_free(p->repack);
		plan_lines_free(p->lines);
		free(p);
	}
}

const char *plan_step_name(enum plan_step_kind k)
{
	static const char *const names[] = {"copy", "write-map", "allocate",
					    "switch", "free", "zero"};

	return k < STEP_KIND_MAX ? names[k] : "?";
}

struct mapacc {
	struct plan_ext *runs;
	size_t n, cap;
	blk64_t *meta;
	size_t nmeta, capmeta;
	errcode_t err;
};

static int add_run(struct mapacc *a, blk64_t lblk, blk64_t pblk, blk64_t len,
		   int uninit)
{
	struct plan_ext *r, *last = a->n ? &a->runs[a->n - 1] : NULL;

	if (last && last->lblk + last->len == lblk &&
	    last->pblk + last->len == pblk && last->uninit == uninit) {
		last->len += len;
		return 0;
	}
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 16;
		r = realloc(a->runs, a->cap * sizeof(*r));
		if (!r)
			return a->err = ENOMEM;
		a->runs = r;
	}
	a->runs[a->n++] = (struct plan_ext){lblk, pblk, len, uninit};
	return 0;
}

static int add_meta(struct mapacc *a, blk64_t blk)
{
	blk64_t *m;

	if (a->nmeta == a->capmeta) {
		a->capmeta = a->capmeta ? a->capmeta * 2 : 16;
		m = realloc(a->meta, a->capmeta * sizeof(*m));
		if (!m)
			return a->err = ENOMEM;
		a->meta = m;
	}
	a->meta[a->nmeta++] = blk;
	return 0;
}

static int iter_cb(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		   blk64_t ref_blk, int ref_offset, void *priv)
{
	struct mapacc *a = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0)
		return add_meta(a, *blocknr) ? BLOCK_ABORT : 0;
	return add_run(a, blockcnt, *blocknr, 1, 0) ? BLOCK_ABORT : 0;
}

static errcode_t read_extents(ext2_filsys fs, ext2_ino_t ino,
			      struct ext2_inode *inode, struct mapacc *a)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	errcode_t err;
	int op = EXT2_EXTENT_ROOT;

	err = ext2fs_extent_open2(fs, ino, inode, &h);
	if (err)
		return err;
	for (;;) {
		err = ext2fs_extent_get(h, op, &e);
		op = EXT2_EXTENT_NEXT;
		if (err == EXT2_ET_EXTENT_NO_NEXT || err == EXT2_ET_NO_CURRENT_NODE) {
			err = 0;
			break;
		}
		if (err)
			break;
		if (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
			continue;
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			if (add_meta(a, e.e_pblk))
				break;
			continue;
		}
		if (e.e_len && add_run(a, e.e_lblk, e.e_pblk, e.e_len,
				       !!(e.e_flags & EXT2_EXTENT_FLAGS_UNINIT)))
			break;
	}
	ext2fs_extent_free(h);
	return err ? err : a->err;
}

errcode_t plan_read_map(ext2_filsys fs, ext2_ino_t ino, int *extents,
			struct plan_ext **runs, size_t *nruns,
			blk64_t **meta, size_t *nmeta)
{
	struct ext2_inode inode;
	struct mapacc a = {0};
	errcode_t err;

	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	if (inode.i_flags & EXT4_INLINE_DATA_FL)
		return EXT2_ET_INLINE_DATA_CANT_ITERATE;
	*extents = !!(inode.i_flags & EXT4_EXTENTS_FL);
	if (*extents)
		err = read_extents(fs, ino, &inode, &a);
	else
		err = ext2fs_block_iterate3(fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
					    iter_cb, &a);
	if (!err)
		err = a.err;
	if (err) {
		free(a.runs);
		free(a.meta);
		return err;
	}
	*runs = a.runs;
	*nruns = a.n;
	*meta = a.meta;
	*nmeta = a.nmeta;
	return 0;
}

static __u32 fnv(__u32 h, const void *data, size_t len)
{
	const unsigned char *p = data;

	while (len--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

errcode_t plan_fingerprint(ext2_filsys fs, ext2_ino_t ino, struct plan_fp *fp)
{
	struct ext2_inode inode;
	struct plan_ext *runs = NULL;
	blk64_t *meta = NULL;
	size_t n = 0, nm = 0, i;
	int ext;
	errcode_t err;

	memset(fp, 0, sizeof(*fp));
	fp->wtime = fs->super->s_wtime;
	fp->mtime = fs->super->s_mtime;
	fp->mnt_count = fs->super->s_mnt_count;
	fp->free_blocks = ext2fs_free_blocks_count(fs->super);
	fp->free_inodes = fs->super->s_free_inodes_count;
	for (i = 0; i < 16; i++)
		snprintf(fp->uuid + 2 * i, 3, "%02x", fs->super->s_uuid[i]);
	if (!ino)
		return 0;	/* repack_flex: the filesystem only */
	err = ext2fs_read_inode(fs, ino, &inode);
	if (err)
		return err;
	fp->generation = inode.i_generation;
	fp->ctime = inode.i_ctime;
	err = plan_read_map(fs, ino, &ext, &runs, &n, &meta, &nm);
	if (err)
		return err;
	fp->map_hash = 2166136261u;
	for (i = 0; i < n; i++) {	/* fields, not padding */
		fp->map_hash = fnv(fp->map_hash, &runs[i].lblk, 8);
		fp->map_hash = fnv(fp->map_hash, &runs[i].pblk, 8);
		fp->map_hash = fnv(fp->map_hash, &runs[i].len, 8);
		fp->map_hash = fnv(fp->map_hash, &runs[i].uninit, 4);
	}
	for (i = 0; i < nm; i++)
		fp->map_hash = fnv(fp->map_hash, &meta[i], sizeof(meta[i]));
	free(runs);
	free(meta);
	return 0;
}

int plan_check_fp(struct session *s, const struct plan *p)
{
	struct plan_fp now;
	errcode_t err;

	err = plan_fingerprint(s->fs, p->ino, &now);
	if (err) {
		out_error(s->out, "apply", err, "while reading inode %u",
			  p->ino);
		return 1;
	}
	if (strcmp(now.uuid, p->fp.uuid)) {
		out_error(s->out, "apply", 0, "the plan was made for another "
			  "filesystem (UUID differs); refusing to apply it");
		return 1;
	}
	if (p->chained && now.generation == p->fp.generation &&
	    now.ctime == p->fp.ctime && now.map_hash == p->fp.map_hash)
		return 0;	/* a later plan of a chain: its inode only */
	if (now.wtime != p->fp.wtime || now.mtime != p->fp.mtime ||
	    now.mnt_count != p->fp.mnt_count ||
	    now.free_blocks != p->fp.free_blocks ||
	    now.free_inodes != p->fp.free_inodes ||
	    now.generation != p->fp.generation || now.ctime != p->fp.ctime ||
	    now.map_hash != p->fp.map_hash) {
		out_error(s->out, "apply", 0, "the filesystem changed since "
			  "the plan was made (write time, counters or inode "
			  "%u differ); make the plan again", p->ino);
		return 1;
	}
	return 0;
}

errcode_t plan_find_free(ext2_filsys fs, blk64_t goal, blk64_t len,
			 blk64_t *start, blk64_t *largest)
{
	blk64_t first = fs->super->s_first_data_block;
	blk64_t end = ext2fs_blocks_count(fs->super) - 1;
	blk64_t b, z, u, from[2], to[2];
	int pass;

	*largest = 0;
	/* bigalloc: runs start on a cluster (the bitmap's searches hand back
	 * their start when it lies inside a free cluster) */
	goal = EXT2FS_C2B(fs, EXT2FS_NUM_B2C(fs, goal));
	first = EXT2FS_C2B(fs, EXT2FS_NUM_B2C(fs, first));
	if (goal < first || goal > end)
		goal = first;
	from[0] = goal; to[0] = end;
	from[1] = first; to[1] = goal > first ? goal - 1 : first;
	for (pass = 0; pass < 2; pass++) {
		b = from[pass];
		while (b <= to[pass]) {
			if (ext2fs_find_first_zero_block_bitmap2(fs->block_map,
						b, to[pass], &z))
				break;
			if (ext2fs_find_first_set_block_bitmap2(fs->block_map,
						z, end, &u))
				u = end + 1;
			if (u - z > *largest)
				*largest = u - z;
			if (u - z >= len) {
				*start = z;
				return 0;
			}
			b = u;
		}
		if (goal == first)
			break;
	}
	return EXT2_ET_BLOCK_ALLOC_FAIL;
}

/* Distinct indirect blocks of one level needed by runs within a region. */
static blk64_t count_level(const struct plan_ext *runs, size_t n,
			   blk64_t base, blk64_t span, blk64_t unit)
{
	blk64_t cnt = 0, last = ~0ULL, a, b, i0, i1;
	size_t i;

	for (i = 0; i < n; i++) {
		a = runs[i].lblk;
		b = runs[i].lblk + runs[i].len;	/* exclusive */
		if (b <= base || a >= base + span)
			continue;
		if (a < base)
			a = base;
		if (b > base + span)
			b = base + span;
		i0 = (a - base) / unit;
		i1 = (b - 1 - base) / unit;
		cnt += i1 - i0 + 1 - (i0 == last);
		last = i1;
	}
	return cnt;
}

/* Blocks of each level of the most compact extent tree over n extents:
 * level[0] leaves, level[1] the index blocks above them...; returns the
 * number of levels (0: the extents fit in the inode). */
int plan_tree_levels(ext2_filsys fs, size_t n, blk64_t level[8])
{
	blk64_t per = (fs->blocksize - 12) / 12, c = n;
	int l = 0;

	while (c > 4 && l < 8) {
		c = (c + per - 1) / per;
		level[l++] = c;
	}
	return c > 4 ? -1 : l;
}

blk64_t plan_meta_needed(ext2_filsys fs, int extents,
			 const struct plan_ext *runs, size_t n)
{
	blk64_t apb = fs->blocksize / 4, m = 0, level[8];
	blk64_t b1 = EXT2_NDIR_BLOCKS, b2 = b1 + apb, b3 = b2 + apb * apb;
	int l;

	if (extents) {
		l = plan_tree_levels(fs, n, level);
		if (l < 0 || l > 5)	/* the kernel reads depth <= 5 */
			return ~0ULL;
		while (l > 0)
			m += level[--l];
		return m;
	}
	m += count_level(runs, n, b1, apb, apb);
	m += count_level(runs, n, b2, apb * apb, apb * apb);
	m += count_level(runs, n, b2, apb * apb, apb);
	m += count_level(runs, n, b3, apb * apb * apb, apb * apb * apb);
	m += count_level(runs, n, b3, apb * apb * apb, apb * apb);
	m += count_level(runs, n, b3, apb * apb * apb, apb);
	return m;
}

blk64_t plan_clusters(ext2_filsys fs, const struct plan_ext *runs, size_t n,
		      blk64_t lo, blk64_t hi)
{
	int b = fs->cluster_ratio_bits;
	blk64_t cnt = 0, last = ~0ULL, c0, c1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!runs[i].len || runs[i].pblk < lo ||
		    runs[i].pblk + runs[i].len > hi)
			continue;
		c0 = runs[i].pblk >> b;
		c1 = (runs[i].pblk + runs[i].len - 1) >> b;
		cnt += c1 - c0 + 1 - (c0 == last);
		last = c1;
	}
	return cnt;
}

blk64_t plan_meta_blk(ext2_filsys fs, const struct plan *p, blk64_t k)
{
	return p->target + p->target_len -
	       ((p->new_meta - k) << fs->cluster_ratio_bits);
}

blk64_t plan_units_old(ext2_filsys fs, const struct plan *p)
{
	return plan_clusters(fs, p->old, p->nold, 0, ~0ULL) + p->nold_meta;
}

blk64_t plan_units_new(ext2_filsys fs, const struct plan *p)
{
	return plan_clusters(fs, p->new, p->nnew, 0, ~0ULL) + p->new_meta;
}
