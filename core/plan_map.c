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

static errcode_t build_extents(ext2_filsys fs, const struct plan *p,
			       __u32 *iblock, char *meta)
{
	struct ext3_extent_header *h = (void *)iblock, *lh;
	struct ext3_extent_idx *ix;
	struct ext3_extent *x;
	size_t per = (fs->blocksize - 12) / 12, i, k, n;
	blk64_t base = p->target + p->target_len - p->new_meta, leaf;
	errcode_t err;

	if (!p->new_meta) {
		put_header(h, p->nnew, 4, 0);
		x = (void *)(h + 1);
		for (i = 0; i < p->nnew; i++)
			put_extent(&x[i], &p->new[i]);
		return 0;
	}
	put_header(h, p->new_meta, 4, 1);
	ix = (void *)(h + 1);
	for (k = 0; k < p->new_meta; k++) {
		leaf = base + k;
		lh = (void *)(meta + k * fs->blocksize);
		n = p->nnew - k * per < per ? p->nnew - k * per : per;
		put_header(lh, n, per, 0);
		x = (void *)(lh + 1);
		for (i = 0; i < n; i++)
			put_extent(&x[i], &p->new[k * per + i]);
		memset(&ix[k], 0, sizeof(ix[k]));
		ix[k].ei_block = ext2fs_cpu_to_le32(p->new[k * per].lblk);
		ix[k].ei_leaf = ext2fs_cpu_to_le32(leaf & 0xffffffff);
		ix[k].ei_leaf_hi = ext2fs_cpu_to_le16(leaf >> 32);
		err = ext2fs_extent_block_csum_set(fs, p->ino, lh);
		if (err)
			return err;
	}
	return 0;
}

struct indctx {
	ext2_filsys fs;
	char *meta;
	blk64_t base, next, max;
};

/* The indirect block a slot points to, allocating it on first use. */
static __u32 *ind_get(struct indctx *c, __u32 *slot)
{
	blk64_t b;

	if (!*slot) {
		if (c->next >= c->max)
			return NULL;
		*slot = ext2fs_cpu_to_le32(c->base + c->next++);
	}
	b = ext2fs_le32_to_cpu(*slot) - c->base;
	return (__u32 *)(c->meta + b * c->fs->blocksize);
}

static errcode_t build_indirect(ext2_filsys fs, const struct plan *p,
				__u32 *iblock, char *meta)
{
	struct indctx c = {fs, meta, p->target + p->target_len - p->new_meta,
			   0, p->new_meta};
	blk64_t apb = fs->blocksize / 4, l, pb, j;
	__u32 *t, *d, *in;
	size_t i;

	for (i = 0; i < p->nnew; i++) {
		for (j = 0; j < p->new[i].len; j++) {
			l = p->new[i].lblk + j;
			pb = p->new[i].pblk + j;
			if (pb >> 32)
				return EXT2_ET_BLOCK_ALLOC_FAIL;
			if (l < EXT2_NDIR_BLOCKS) {
				iblock[l] = ext2fs_cpu_to_le32(pb);
				continue;
			}
			l -= EXT2_NDIR_BLOCKS;
			if (l < apb) {
				in = ind_get(&c, &iblock[EXT2_IND_BLOCK]);
			} else if ((l -= apb) < apb * apb) {
				d = ind_get(&c, &iblock[EXT2_DIND_BLOCK]);
				in = d ? ind_get(&c, &d[l / apb]) : NULL;
			} else {
				l -= apb * apb;
				t = ind_get(&c, &iblock[EXT2_TIND_BLOCK]);
				d = t ? ind_get(&c, &t[l / (apb * apb)]) : NULL;
				in = d ? ind_get(&c, &d[(l / apb) % apb]) : NULL;
			}
			if (!in)
				return EXT2_ET_BLOCK_ALLOC_FAIL;
			in[l % apb] = ext2fs_cpu_to_le32(pb);
		}
	}
	return c.next == c.max ? 0 : EXT2_ET_BLOCK_ALLOC_FAIL;
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
	err = p->extents ? build_extents(fs, p, iblock, meta)
			 : build_indirect(fs, p, iblock, meta);
	if (err) {
		free(meta);
		return err;
	}
	*meta_buf = meta;
	return 0;
}
