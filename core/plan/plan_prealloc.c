/* plan_prealloc.c - the prealloc plan: unwritten extents over the holes of
 * a file's first SIZE bytes in one contiguous free run, keeping its existing
 * extents, and (at apply time) creating the file first when it is new. */
#include "e2l_err.h"
#include "plan.h"
#include "quota_update.h"

#include <ext2fs/ext3_extents.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define EXT_MAX_UNINIT	32767

static int push_ext(struct plan_ext **v, size_t *n, size_t *cap,
		    struct plan_ext e)
{
	struct plan_ext *nv;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 16;
		nv = realloc(*v, *cap * sizeof(*nv));
		if (!nv)
			return -1;
		*v = nv;
	}
	(*v)[(*n)++] = e;
	return 0;
}

/* Adds hole [l, l+len) as unwritten extents at *cur, split at the limit. */
static int add_hole(struct plan *p, size_t *cap, blk64_t l, blk64_t len,
		    blk64_t *cur)
{
	blk64_t n;

	while (len) {
		n = len > EXT_MAX_UNINIT ? EXT_MAX_UNINIT : len;
		if (push_ext(&p->new, &p->nnew, cap,
			     (struct plan_ext){l, *cur, n, 1}))
			return -1;
		l += n;
		*cur += n;
		len -= n;
	}
	return 0;
}

/* The new mapping with holes placed from target; returns blocks used. */
static errcode_t lay_out(struct plan *p, blk64_t nblocks, blk64_t target,
			 blk64_t *holes)
{
	blk64_t l = 0, cur = target, n, off;
	size_t cap = 0, i;

	free(p->new);
	p->new = NULL;
	p->nnew = 0;
	for (i = 0; i < p->nold; i++) {
		const struct plan_ext *o = &p->old[i];

		if (o->lblk > l && l < nblocks &&
		    add_hole(p, &cap, l, (o->lblk < nblocks ? o->lblk
							    : nblocks) - l,
			     &cur))
			return ENOMEM;
		for (off = 0; off < o->len; off += n) {	/* keep, split */
			n = o->len - off > 32768 ? 32768 : o->len - off;
			if (o->uninit && n > EXT_MAX_UNINIT)
				n = EXT_MAX_UNINIT;
			if (push_ext(&p->new, &p->nnew, &cap,
				     (struct plan_ext){o->lblk + off,
						       o->pblk + off, n,
						       o->uninit}))
				return ENOMEM;
		}
		if (o->lblk + o->len > l)
			l = o->lblk + o->len;
	}
	if (l < nblocks && add_hole(p, &cap, l, nblocks - l, &cur))
		return ENOMEM;
	*holes = cur - target;
	return 0;
}

errcode_t plan_build_prealloc(struct session *s, ext2_ino_t ino,
			      const char *name, __u64 size, blk64_t goal,
			      struct plan **pp)
{
	ext2_filsys fs = s->fs;
	blk64_t nblocks = size / fs->blocksize + !!(size % fs->blocksize);
	blk64_t holes, target, largest, mapped = 0;
	struct plan *p;
	size_t cap = 0, i;
	errcode_t err;
	int fits = 1;

	*pp = NULL;
	/* extents map 32-bit logical blocks */
	if (nblocks > (1ULL << 32)) {
		out_error(s->out, "prealloc", E2L_ERR_BAD_ARGUMENT, "%llu "
			  "bytes: past the largest file of this filesystem "
			  "(2^32 blocks of %u bytes)", (unsigned long long)size,
			  fs->blocksize);
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (!ext2fs_has_feature_extents(fs->super)) {
		out_error(s->out, "prealloc", 0, "unwritten extents need the "
			  "extent feature (ext4)");
		return EXT2_ET_UNSUPP_FEATURE;
	}
	if (EXT2FS_CLUSTER_RATIO(fs) > 1) {
		out_error(s->out, "prealloc", 0, "bigalloc filesystems are "
			  "not supported by prealloc yet");
		return EXT2_ET_UNIMPLEMENTED;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return ENOMEM;
	snprintf(p->kind, sizeof(p->kind), "prealloc");
	p->ino = ino;
	p->extents = 1;
	p->set_size = size;
	if (name) {
		snprintf(p->create_name, sizeof(p->create_name), "%s", name);
	} else {
		err = plan_read_map(fs, ino, &p->extents, &p->old, &p->nold,
				    &p->old_meta, &p->nold_meta);
		if (!err && !p->extents)
			err = EXT2_ET_INODE_NOT_EXTENT;
		if (err) {
			out_error(s->out, "prealloc", err, "while reading "
				  "inode %u", ino);
			goto out;
		}
	}
	/* Refused before any layout work (lay_out's memory grows with the
	 * holes): more hole blocks than the filesystem has free. */
	for (i = 0; i < p->nold; i++)
		if (p->old[i].lblk < nblocks)
			mapped += p->old[i].lblk + p->old[i].len > nblocks ?
				  nblocks - p->old[i].lblk : p->old[i].len;
	holes = nblocks - mapped;
	if (holes > ext2fs_free_blocks_count(fs->super)) {
		out_error(s->out, "prealloc", E2L_ERR_BAD_ARGUMENT, "%llu "
			  "bytes need %llu free blocks and the filesystem has "
			  "%llu", (unsigned long long)size,
			  (unsigned long long)holes,
			  (unsigned long long)ext2fs_free_blocks_count(
				fs->super));
		err = E2L_ERR_BAD_ARGUMENT;
		goto out;
	}
	err = lay_out(p, nblocks, 0, &holes);
	if (err)
		goto out;
	if (!holes) {
		out_printf(s->out, "the first %llu bytes are already "
			   "allocated; nothing to do\n",
			   (unsigned long long)size);
		goto out;
	}
	p->new_meta = plan_meta_needed(fs, 1, p->new, p->nnew);
	if (p->new_meta == ~0ULL) {
		out_error(s->out, "prealloc", 0, "the file would need an "
			  "extent tree deeper than 5 levels");
		err = EXT2_ET_UNIMPLEMENTED;
		goto out;
	}
	p->target_len = holes + p->new_meta;
	err = plan_find_free(fs, goal, p->target_len, &target, &largest);
	if (err) {
		out_error(s->out, "prealloc", 0, "no free run of %llu blocks "
			  "(the largest has %llu)",
			  (unsigned long long)p->target_len,
			  (unsigned long long)largest);
		goto out;
	}
	p->target = target;
	err = lay_out(p, nblocks, target, &holes);
	if (err)
		goto out;
	/* a directory without room for the entry grows: into blocks the
	 * plan names, outside the new run */
	if (name)
		err = plan_dir_fits(fs, ino, name, &fits);
	if (!err && !fits)
		err = plan_dir_reserve(fs, p, ino);
	if (err) {
		out_error(s->out, "prealloc", err, "while finding room for %s "
			  "in directory %u", name, ino);
		goto out;
	}
#define STEP(k, a, b, l) do { \
	struct plan_step *ns = realloc(p->steps, (p->nsteps + 1) * sizeof(*ns)); \
	if (!ns) { err = ENOMEM; goto out; } \
	p->steps = ns; p->steps[p->nsteps++] = (struct plan_step){k, a, b, l}; \
} while (0)
	if (p->new_meta)
		STEP(STEP_WRITE_MAP, target + holes, target + holes,
		     p->new_meta);
	STEP(STEP_ALLOC, 0, target, p->target_len);
	STEP(STEP_SWITCH, 0, target, 0);
	for (cap = 0; cap < p->nold_meta; cap++)
		STEP(STEP_FREE, p->old_meta[cap], 0, 1);
#undef STEP
	err = plan_fingerprint(fs, ino, &p->fp);
out:
	if (err || !holes) {
		plan_free(p);
		return err;
	}
	*pp = p;
	return 0;
}

/* Charges the growth of directory dir (its inode was before). */
static errcode_t charge_dir(ext2_filsys fs, ext2_ino_t dir,
			    const struct ext2_inode_large *before)
{
	struct ext2_inode_large after;
	errcode_t err;

	err = ext2fs_read_inode_full(fs, dir, (struct ext2_inode *)&after,
				     sizeof(after));
	if (err)
		return err;
	return quota_charge(fs, dir, &after, 512 *
		((__s64)ext2fs_get_stat_i_blocks(fs, (struct ext2_inode *)&after) -
		 (__s64)ext2fs_get_stat_i_blocks(fs,
			(struct ext2_inode *)(uintptr_t)before)), 0);
}

errcode_t plan_create_file(ext2_filsys fs, struct plan *p)
{
	struct ext2_inode_large inode, dinode;
	struct ext3_extent_header eh;
	ext2_ino_t dir = p->ino, ino;
	errcode_t err;
	__u32 now = time(NULL);

	err = ext2fs_read_inode_bitmap(fs);
	if (!err)
		err = ext2fs_new_inode(fs, dir, LINUX_S_IFREG | 0644, 0, &ino);
	if (err)
		return err;
	memset(&inode, 0, sizeof(inode));
	inode.i_mode = LINUX_S_IFREG | 0644;
	inode.i_links_count = 1;
	inode.i_atime = inode.i_ctime = inode.i_mtime = now;
	inode.i_flags = EXT4_EXTENTS_FL;
	/* an empty extent root */
	memset(&eh, 0, sizeof(eh));
	eh.eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
	eh.eh_max = ext2fs_cpu_to_le16(4);
	memcpy(inode.i_block, &eh, sizeof(eh));
	if (EXT2_INODE_SIZE(fs->super) > EXT2_GOOD_OLD_INODE_SIZE)
		inode.i_extra_isize = sizeof(struct ext2_inode_large) -
				      EXT2_GOOD_OLD_INODE_SIZE;
	/* the owner the kernel would give it, counted in the quota files
	 * before anything is written (a refusal leaves no trace) */
	err = quota_new_owner(fs, dir, &inode);
	if (!err)
		err = ext2fs_read_inode_full(fs, dir,
					     (struct ext2_inode *)&dinode,
					     sizeof(dinode));
	if (!err)
		err = quota_charge(fs, ino, &inode, 0, 1);
	if (err)
		return err;
	/* inode first (a free slot), then the bitmap, then the name */
	err = ext2fs_write_new_inode(fs, ino, (struct ext2_inode *)&inode);
	/* (that writes the first 128 bytes, zeroing the rest: the project
	 * id goes in over them) */
	if (!err && inode.i_projid) {
		inode.i_crtime = now;
		err = ext2fs_write_inode_full(fs, ino,
					      (struct ext2_inode *)&inode,
					      sizeof(inode));
	}
	if (err)
		return err;
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	err = ext2fs_write_inode_bitmap(fs);
	if (!err)
		err = ext2fs_flush(fs);
	if (!err)
		err = plan_dir_link(fs, p, ino);
	if (!err)	/* the directory may have grown */
		err = charge_dir(fs, dir, &dinode);
	if (!err)
		err = io_channel_flush(fs->io);
	if (!err)
		p->ino = ino;
	return err;
}
