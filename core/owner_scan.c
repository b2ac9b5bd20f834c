/* owner_scan.c - the one inode scan behind the ownership index: walks each
 * inode's extent tree or block map into merged runs and gathers per-file
 * fragmentation, a bounded number of inodes per step. */
#include "owner_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

errcode_t orun_push(struct orun_vec *vec, const struct orun *r)
{
	if (vec->n == vec->cap) {
		size_t cap = vec->cap ? vec->cap + vec->cap / 2 : 256;
		struct orun *v = realloc(vec->v, cap * sizeof(*v));

		if (!v)
			return ENOMEM;
		vec->v = v;
		vec->cap = cap;
	}
	vec->v[vec->n++] = *r;
	return 0;
}

static int orun_cmp(const void *a, const void *b)
{
	const struct orun *x = a, *y = b;
	blk64_t sx = orun_start(x), sy = orun_start(y);

	if (sx != sy)
		return sx < sy ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	return (int)x->cls - (int)y->cls;
}

/* Sorts, drops exact duplicates (a shared xattr block is kept for its
 * first inode) and gives memory back. */
void orun_sort(struct orun_vec *vec)
{
	size_t i, o = 0;
	struct orun *v;

	if (!vec->n)
		return;
	qsort(vec->v, vec->n, sizeof(*vec->v), orun_cmp);
	for (i = 0; i < vec->n; i++) {
		if (o && orun_start(&vec->v[o - 1]) == orun_start(&vec->v[i]) &&
		    vec->v[o - 1].len == vec->v[i].len &&
		    vec->v[o - 1].cls == vec->v[i].cls)
			continue;
		vec->v[o++] = vec->v[i];
	}
	vec->n = o;
	v = realloc(vec->v, o * sizeof(*v));
	if (v) {
		vec->v = v;
		vec->cap = o;
	}
}

void owalk_flush(struct owalk *w)
{
	errcode_t err;

	if (!w->cur.len)
		return;
	err = orun_push(w->out, &w->cur);
	if (err)
		w->err = err;
	w->cur.len = 0;
}

/* Adds [pblk, pblk+len) at logical block lblk with class cls. */
static void owalk_add(struct owalk *w, blk64_t pblk, blk64_t len,
		      blk64_t lblk, enum owner_class cls)
{
	blk64_t total = ext2fs_blocks_count(w->fs->super);
	struct orun *c = &w->cur;

	if (!len)
		return;
	if (pblk < w->fs->super->s_first_data_block || pblk >= total ||
	    len > total - pblk) {
		w->bad = 1;
		return;
	}
	if (c->len && c->cls == cls && orun_end(c) == pblk &&
	    (blk64_t)c->len + len <= UINT32_MAX &&
	    (cls == OWN_MAPPING || (blk64_t)c->lblk + c->len == lblk)) {
		c->len += len;
		return;
	}
	owalk_flush(w);
	while (len > UINT32_MAX) {	/* cannot happen with ext4 extents */
		orun_set_start(c, pblk);
		c->len = UINT32_MAX;
		c->cls = cls;
		c->ino = w->ino;
		c->lblk = (uint32_t)lblk;
		owalk_flush(w);
		pblk += UINT32_MAX;
		lblk += UINT32_MAX;
		len -= UINT32_MAX;
	}
	orun_set_start(c, pblk);
	c->len = len;
	c->cls = cls;
	c->ino = w->ino;
	c->lblk = (uint32_t)lblk;
	c->pad = 0;
}

static void owalk_extents(struct owalk *w, struct ext2_inode *inode)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	err = ext2fs_extent_open2(w->fs, w->ino, inode, &h);
	if (err) {
		w->bad = 1;
		return;
	}
	for (;;) {
		err = ext2fs_extent_get(h, op, &e);
		op = EXT2_EXTENT_NEXT;
		if (err) {
			if (err != EXT2_ET_EXTENT_NO_NEXT &&
			    err != EXT2_ET_NO_CURRENT_NODE)
				w->bad = 1;
			break;
		}
		if (++w->steps > w->max_steps) {
			w->bad = 1;
			break;
		}
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			if (!(e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT))
				owalk_add(w, e.e_pblk, 1, e.e_lblk,
					  OWN_MAPPING);
			continue;
		}
		if (!e.e_len)
			continue;
		owalk_add(w, e.e_pblk, e.e_len, e.e_lblk, w->data_cls);
		w->extents++;
		w->data_blocks += e.e_len;
		if (e.e_len > w->longest)
			w->longest = e.e_len;
	}
	ext2fs_extent_free(h);
}

static int owalk_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		       blk64_t ref_blk, int ref_offset, void *priv)
{
	struct owalk *w = priv;
	blk64_t b = *blocknr;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (++w->steps > w->max_steps) {
		w->bad = 1;
		return BLOCK_ABORT;
	}
	if (blockcnt < 0) {
		owalk_add(w, b, 1, 0, OWN_MAPPING);
		if (w->phys_end == b)
			w->phys_end = b + 1;
		return 0;
	}
	owalk_add(w, b, 1, blockcnt, w->data_cls);
	w->data_blocks++;
	/* A physically contiguous run may step over its own indirect
	 * blocks (they are reported just before the data they map). */
	if (w->cur_ext && b == w->phys_end) {
		w->cur_ext++;
	} else {
		w->extents++;
		w->cur_ext = 1;
	}
	if (w->cur_ext > w->longest)
		w->longest = w->cur_ext;
	w->phys_end = b + 1;
	return 0;
}

void owalk_inode(struct owalk *w, ext2_ino_t ino, struct ext2_inode *inode,
		 enum owner_class cls)
{
	blk64_t acl = ext2fs_file_acl_block(w->fs, inode);
	blk64_t iblocks = ext2fs_get_stat_i_blocks(w->fs, inode);

	w->ino = ino;
	w->data_cls = cls;
	w->cur.len = 0;
	w->data_blocks = w->extents = w->longest = 0;
	w->cur_ext = w->phys_end = 0;
	w->steps = 0;
	/* Bounds a corrupted map: no inode has more entries than blocks. */
	w->max_steps = 2 * (iblocks / (w->fs->blocksize / 512)) + 64;
	w->bad = 0;
	if (acl)
		owalk_add(w, acl, 1, 0, OWN_XATTR);
	if (!ext2fs_inode_has_valid_blocks2(w->fs, inode))
		goto out;
	if (inode->i_flags & EXT4_EXTENTS_FL) {
		owalk_extents(w, inode);
	} else if (ext2fs_block_iterate3(w->fs, ino, BLOCK_FLAG_READ_ONLY,
					 NULL, owalk_block, w)) {
		w->bad = 1;
	}
out:
	owalk_flush(w);
}

int owner_special_ino(ext2_filsys fs, ext2_ino_t ino)
{
	struct ext2_super_block *sb = fs->super;

	if (ino == EXT2_ROOT_INO)
		return 0;
	if (ino < EXT2_FIRST_INODE(sb))
		return 1;
	return ino == sb->s_journal_inum || ino == sb->s_usr_quota_inum ||
	       ino == sb->s_grp_quota_inum || ino == sb->s_prj_quota_inum ||
	       ino == sb->s_orphan_file_inum;
}

errcode_t owner_scan_step(struct session *s, unsigned max_inodes, int *done)
{
	struct owner_index *idx;
	struct ext2_inode *inode;
	struct owalk w;
	ext2_ino_t ino;
	unsigned n;
	errcode_t err;
	int isize;

	*done = 0;
	err = owner_scan_begin(s);
	if (err)
		return err;
	idx = s->owners;
	if (idx->complete) {
		*done = 1;
		return 0;
	}
	isize = EXT2_INODE_SIZE(s->fs->super);
	inode = (struct ext2_inode *)idx->inode_buf;
	memset(&w, 0, sizeof(w));
	w.fs = s->fs;
	w.out = &idx->files;
	for (n = 0; n < max_inodes; n++) {
		err = ext2fs_get_next_inode_full(idx->scan, &ino, inode, isize);
		if (err == EXT2_ET_BAD_BLOCK_IN_INODE_TABLE ||
		    (err && err != EXT2_ET_INODE_CSUM_INVALID &&
		     err != EXT2_ET_INODE_IS_GARBAGE)) {
			/* Unreadable inode table: skip, but never loop. */
			if (++idx->scan_errors > 100000)
				ino = 0;
			else
				continue;
		} else if (err == EXT2_ET_INODE_IS_GARBAGE) {
			idx->bad_inodes++;
			continue;
		}
		if (!ino)
			break;
		idx->last_ino = ino;
		if (!inode->i_links_count || inode->i_dtime ||
		    owner_special_ino(s->fs, ino))
			continue;
		owalk_inode(&w, ino, inode, LINUX_S_ISDIR(inode->i_mode) ?
			    OWN_DIR : OWN_FILE);
		if (w.err)
			return w.err;
		if (w.bad)
			idx->bad_inodes++;
		if (!w.data_blocks)
			continue;
		err = owner_note_file(idx, ino, &w);
		if (err)
			return err;
	}
	if (n < max_inodes) {
		ext2fs_close_inode_scan(idx->scan);
		idx->scan = NULL;
		free(idx->inode_buf);
		idx->inode_buf = NULL;
		orun_sort(&idx->files);
		idx->complete = 1;
		*done = 1;
	}
	return 0;
}

/* Adds one file's fragmentation to the counters. */
errcode_t owner_note_file(struct owner_index *idx, ext2_ino_t ino,
			  const struct owalk *w)
{
	struct owner_fstats *st = &idx->fstats;
	blk64_t ideal = (w->data_blocks + OWNER_MAX_EXTENT_BLOCKS - 1) /
			OWNER_MAX_EXTENT_BLOCKS;
	blk64_t kept = ideal * w->longest;
	struct owner_filefrag *f;

	st->files++;
	st->total_blocks += w->data_blocks;
	st->total_extents += w->extents;
	st->total_ideal += ideal;
	if (kept < w->data_blocks)
		st->displaced += w->data_blocks - kept;
	if (w->extents <= ideal)
		return 0;
	st->fragmented++;
	if (idx->nfrag == idx->capfrag) {
		size_t cap = idx->capfrag ? idx->capfrag * 2 : 64;

		f = realloc(idx->frag, cap * sizeof(*f));
		if (!f)
			return ENOMEM;
		idx->frag = f;
		idx->capfrag = cap;
	}
	f = &idx->frag[idx->nfrag++];
	f->ino = ino;
	f->extents = w->extents > UINT32_MAX ? UINT32_MAX : w->extents;
	f->blocks = w->data_blocks;
	f->ideal = ideal;
	return 0;
}
