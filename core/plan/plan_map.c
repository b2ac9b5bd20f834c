/* plan_map.c - encodes a plan's new mapping: the inode's i_block (an extent
 * root or direct/indirect pointers) and the mapping blocks placed at the end
 * of the target run (extent leaves or indirect blocks). */
#include "plan.h"

#include <ext2fs/ext3_extents.h>
#include <stdlib.h>
#include <string.h>

static void put_extent(struct ext3_extent *x, const struct plan_ext *e)
{
	x->ee_block = ext2fs_cpu_to_le32(e->lblk);
	x->ee_len = ext2fs_cpu_to_le16(e->len + (e->uninit ? 32768 : 0));
	x->ee_start = ext2fs_cpu_to_le32(e->pblk & 0xffffffff);
	x->ee_start_hi = ext2fs_cpu_to_le16(e->pblk >> 32);
}

static void put_header(struct ext3_extent_header *h, unsigned entries,
		       unsigned max, unsigned depth)
{
	memset(h, 0, sizeof(*h));
	h->eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
	h->eh_entries = ext2fs_cpu_to_le16(entries);
	h->eh_max = ext2fs_cpu_to_le16(max);
	h->eh_depth = ext2fs_cpu_to_le16(depth);
}

static void put_index(struct ext3_extent_idx *ix, blk64_t lblk, blk64_t blk)
{
	memset(ix, 0, sizeof(*ix));
	ix->ei_block = ext2fs_cpu_to_le32(lblk);
	ix->ei_leaf = ext2fs_cpu_to_le32(blk & 0xffffffff);
	ix->ei_leaf_hi = ext2fs_cpu_to_le16(blk >> 32);
}

/*
 * The most compact tree: full leaves in logical order, then full index
 * blocks level by level, up to a root of at most 4 entries in the inode.
 * Tree block k (leaves first, then each level above) is meta block k.
 */
static errcode_t build_extents(ext2_filsys fs, const struct plan *p,
			       __u32 *iblock, char *meta)
{
	struct ext3_extent_header *h = (void *)iblock, *nh;
	struct ext3_extent *x;
	size_t per = (fs->blocksize - 12) / 12, i, j, n;
	blk64_t level[8], base = 0, below = 0, total = 0, *first;
	int depth, l;
	errcode_t err = 0;

	depth = plan_tree_levels(fs, p->nnew, level);
	for (l = 0; l < depth; l++)
		total += level[l];
	if (depth < 0 || total != p->new_meta)
		return EXT2_ET_INVALID_ARGUMENT;
	if (!depth) {
		put_header(h, p->nnew, 4, 0);
		x = (void *)(h + 1);
		for (i = 0; i < p->nnew; i++)
			put_extent(&x[i], &p->new[i]);
		return 0;
	}
	/* first[k]: the first logical block under tree block k */
	first = malloc(total * sizeof(*first));
	if (!first)
		return ENOMEM;
	for (l = 0; l < depth && !err; l++) {
		for (j = 0; j < level[l] && !err; j++) {
			nh = (void *)(meta + (base + j) * fs->blocksize);
			n = l ? level[l - 1] : p->nnew;
			n = n - j * per < per ? n - j * per : per;
			put_header(nh, n, per, l);
			for (i = 0; i < n; i++) {
				size_t c = j * per + i;

				if (!l)
					put_extent((struct ext3_extent *)
						   (nh + 1) + i, &p->new[c]);
				else
					put_index((struct ext3_extent_idx *)
						  (nh + 1) + i,
						  first[below + c],
						  plan_meta_blk(fs, p,
								below + c));
			}
			first[base + j] = l ? first[below + j * per] :
					  p->new[j * per].lblk;
			err = ext2fs_extent_block_csum_set(fs, p->ino, nh);
		}
		below = base;
		base += level[l];
	}
	if (!err) {
		put_header(h, level[depth - 1], 4, depth);
		for (j = 0; j < level[depth - 1]; j++)
			put_index((struct ext3_extent_idx *)(h + 1) + j,
				  first[below + j],
				  plan_meta_blk(fs, p, below + j));
	}
	free(first);
	return err;
}

/* Block-mapped layout state: a cursor through the target run that hands
 * out indirect blocks just before the data they map, as ext2 allocates. */
struct indctx {
	ext2_filsys fs;
	blk64_t cur;
	char *meta;		/* contents, in allocation order */
	blk64_t *metas;		/* their block numbers, ascending */
	size_t nmeta, cap;
	struct plan_ext *runs;
	size_t nruns, rcap;
	int oom;
};

static __u32 *ind_get(struct indctx *c, __u32 *slot)
{
	size_t bs = c->fs->blocksize, lo = 0, hi = c->nmeta, mid;
	blk64_t b;

	if (!*slot) {
		char *old = c->meta;
		size_t off = (char *)slot - old;
		int inside = old && (char *)slot >= old &&
			     off < c->nmeta * bs;

		if (c->nmeta == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 8;
			char *m = realloc(c->meta, cap * bs);
			blk64_t *ms = m ? realloc(c->metas, cap * sizeof(*ms))
					: NULL;

			if (m)
				c->meta = m;
			if (!ms) {
				c->oom = 1;
				return NULL;
			}
			c->metas = ms;
			c->cap = cap;
			if (inside)	/* the slot moved with the buffer */
				slot = (__u32 *)(c->meta + off);
		}
		memset(c->meta + c->nmeta * bs, 0, bs);
		c->metas[c->nmeta++] = c->cur;
		*slot = ext2fs_cpu_to_le32(c->cur++);
	}
	b = ext2fs_le32_to_cpu(*slot);
	while (lo < hi) {	/* *slot may point into a realloc'd buffer */
		mid = (lo + hi) / 2;
		if (c->metas[mid] < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (__u32 *)(c->meta + lo * bs);
}

static int add_data(struct indctx *c, blk64_t lblk, blk64_t pblk)
{
	struct plan_ext *r = c->nruns ? &c->runs[c->nruns - 1] : NULL;

	if (r && r->lblk + r->len == lblk && r->pblk + r->len == pblk) {
		r->len++;
		return 0;
	}
	if (c->nruns == c->rcap) {
		c->rcap = c->rcap ? c->rcap * 2 : 16;
		r = realloc(c->runs, c->rcap * sizeof(*r));
		if (!r)
			return -1;
		c->runs = r;
	}
	c->runs[c->nruns++] = (struct plan_ext){lblk, pblk, 1, 0};
	return 0;
}

/* The slot array of the indirect block at *slot (NULL on failure). */
#define IND(c, slot) ind_get(c, slot)

errcode_t plan_indirect_layout(ext2_filsys fs, const struct plan_ext *old,
			       size_t nold, blk64_t target,
			       struct plan_indirect *out)
{
	struct indctx c = {.fs = fs, .cur = target};
	blk64_t apb = fs->blocksize / 4, l, j, lb;
	__u32 *t, *d, *in, *ib = out->iblock, tmp;
	size_t i;

	memset(out->iblock, 0, sizeof(out->iblock));
	for (i = 0; i < nold; i++) {
		for (j = 0; j < old[i].len; j++) {
			lb = l = old[i].lblk + j;
			in = NULL;
			if (l < EXT2_NDIR_BLOCKS) {
				in = &tmp;
			} else if ((l -= EXT2_NDIR_BLOCKS) < apb) {
				in = IND(&c, &ib[EXT2_IND_BLOCK]);
			} else if ((l -= apb) < apb * apb) {
				d = IND(&c, &ib[EXT2_DIND_BLOCK]);
				in = d ? IND(&c, &d[l / apb]) : NULL;
			} else {
				l -= apb * apb;
				t = IND(&c, &ib[EXT2_TIND_BLOCK]);
				d = t ? IND(&c, &t[l / (apb * apb)]) : NULL;
				in = d ? IND(&c, &d[(l / apb) % apb]) : NULL;
			}
			if (!in || c.cur >> 32 || add_data(&c, lb, c.cur))
				goto fail;
			if (in == &tmp)
				ib[lb] = ext2fs_cpu_to_le32(c.cur);
			else
				in[l % apb] = ext2fs_cpu_to_le32(c.cur);
			c.cur++;
		}
	}
	out->runs = c.runs;
	out->nruns = c.nruns;
	out->metas = c.metas;
	out->nmeta = c.nmeta;
	out->meta = c.meta;
	return 0;
fail:
	free(c.runs);
	free(c.metas);
	free(c.meta);
	return c.oom ? ENOMEM : EXT2_ET_BLOCK_ALLOC_FAIL;
}

errcode_t plan_build_iblock(ext2_filsys fs, const struct plan *p,
			    __u32 iblock[EXT2_N_BLOCKS], char **meta_buf)
{
	char *meta = NULL;
	errcode_t err;

	memset(iblock, 0, EXT2_N_BLOCKS * sizeof(__u32));
	*meta_buf = NULL;
	if (p->new_meta) {
		meta = calloc(p->new_meta, fs->blocksize);
		if (!meta)
			return ENOMEM;
	}
	if (p->extents) {
		err = build_extents(fs, p, iblock, meta);
	} else {
		struct plan_indirect ind;

		struct plan_ext whole = {0, 0, p->new_size_blocks, 0};

		/* the same source as plan_build_move laid out */
		err = p->new_size_blocks ?
		      plan_indirect_layout(fs, &whole, 1, p->target, &ind) :
		      plan_indirect_layout(fs, p->old, p->nold, p->target,
					   &ind);
		if (!err && ind.nmeta != p->new_meta)
			err = EXT2_ET_BLOCK_ALLOC_FAIL;
		if (!err) {
			memcpy(iblock, ind.iblock, sizeof(ind.iblock));
			if (ind.nmeta)
				memcpy(meta, ind.meta,
				       ind.nmeta * fs->blocksize);
		}
		plan_indirect_release(&ind);
	}
	if (err) {
		free(meta);
		return err;
	}
	*meta_buf = meta;
	return 0;
}

void plan_indirect_release(struct plan_indirect *ind)
{
	free(ind->runs);
	free(ind->metas);
	free(ind->meta);
	ind->runs = NULL;
	ind->metas = NULL;
	ind->meta = NULL;
}
