/* owner_walk.c - one inode's map (its extent tree, block map or inline
 * extents) walked into merged runs, with its fragmentation counted. */
#include "owner_int.h"
#include "fs_probe.h"

#include <ext2fs/ext3_extents.h>

#include <stdlib.h>
#include <string.h>

void owalk_flush(struct owalk *w)
{
	errcode_t err = 0;

	if (!w->cur.len)
		return;
	if (w->idx)
		err = owner_keep_run(w->idx, &w->cur);
	else if (w->out)
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

/* A leaf extent (from the tree or straight from i_block). */
static void owalk_leaf(struct owalk *w, blk64_t pblk, blk64_t lblk,
		       blk64_t len)
{
	if (!len)
		return;
	owalk_add(w, pblk, len, lblk, w->data_cls);
	w->extents++;
	w->data_blocks += len;
	if (len > w->longest)
		w->longest = len;
}

/*
 * A tree of depth 0 (most files: up to 4 extents in i_block) read in
 * place, with the checks libext2fs makes on such a root (magic, entries
 * within eh_max, eh_max 2..4); anything else returns 0 and goes through
 * the extent API, which reports it the same way as before.
 */
static int owalk_inline_extents(struct owalk *w, struct ext2_inode *inode)
{
	const struct ext3_extent_header *eh = (const void *)inode->i_block;
	const struct ext3_extent *ex = (const void *)(eh + 1);
	unsigned entries, max, i;
	__u16 len;

	if (ext2fs_le16_to_cpu(eh->eh_magic) != EXT3_EXT_MAGIC ||
	    eh->eh_depth)
		return 0;
	entries = ext2fs_le16_to_cpu(eh->eh_entries);
	max = ext2fs_le16_to_cpu(eh->eh_max);
	if (entries > max || max > 4 || max < 2)
		return 0;
	for (i = 0; i < entries; i++, ex++) {
		if (++w->steps > w->max_steps) {
			w->bad = 1;
			break;
		}
		len = ext2fs_le16_to_cpu(ex->ee_len);
		if (len > EXT_INIT_MAX_LEN)
			len -= EXT_INIT_MAX_LEN;
		owalk_leaf(w, ext2fs_le32_to_cpu(ex->ee_start) +
			   ((blk64_t)ext2fs_le16_to_cpu(ex->ee_start_hi) << 32),
			   ext2fs_le32_to_cpu(ex->ee_block), len);
	}
	return 1;
}

static void owalk_extents(struct owalk *w, struct ext2_inode *inode)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	int op = EXT2_EXTENT_ROOT;
	errcode_t err;

	if (owalk_inline_extents(w, inode))
		return;
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
		owalk_leaf(w, e.e_pblk, e.e_lblk, e.e_len);
	}
	ext2fs_extent_free(h);
}

int owalk_block(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
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

static void walk_dir_noted(struct owalk *w, ext2_ino_t ino,
			   struct ext2_inode *inode);

void owalk_inode(struct owalk *w, ext2_ino_t ino, struct ext2_inode *inode,
		 enum owner_class cls)
{
	blk64_t acl = ext2fs_file_acl_block(w->fs, inode);
	blk64_t iblocks = ext2fs_get_stat_i_blocks(w->fs, inode);

	if (cls == OWN_DIR && w->idx && w->idx->dirs) {	/* its runs noted */
		walk_dir_noted(w, ino, inode);
		return;
	}
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
	w->absent = 0;
	if (!ext2fs_inode_has_valid_blocks2(w->fs, inode))
		goto out;
	if (fs_probe_metadata_only(w->fs) && owalk_image(w, inode))
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

/*
 * A directory of a probe scan that notes the directories' runs (for their
 * readahead, owner_dirs.c): walked into a vector of its own, then each run
 * noted and kept as the scan keeps any.  The same runs and counts; here,
 * once an inode, not in owalk_flush, which owalk_add inlines (a test there
 * for every run cost every scan a tenth of its walk).  Out of line: inlined,
 * it had owalk_inode save registers for every inode.
 */
static __attribute__((noinline)) void
walk_dir_noted(struct owalk *w, ext2_ino_t ino, struct ext2_inode *inode)
{
	struct owner_index *idx = w->idx;
	struct orun_vec *out = w->out, v = {0};
	errcode_t err;
	size_t i;

	w->idx = NULL;		/* owalk_inode walks it as any, then */
	w->out = &v;
	owalk_inode(w, ino, inode, OWN_DIR);
	w->idx = idx;
	w->out = out;
	for (i = 0; i < v.n && !w->err; i++) {
		owner_dirs_note(idx, &v.v[i]);
		err = owner_keep_run(idx, &v.v[i]);
		if (err)
			w->err = err;
	}
	free(v.v);
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
