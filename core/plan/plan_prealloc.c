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

/* Where new unwritten extents go: a logical cluster the file already holds
 * keeps its physical cluster (bigalloc), any other takes the next cluster
 * of the run at target.  With one block a cluster every hole block is new. */
struct layout {
	ext2_filsys fs;
	struct plan *p;
	size_t cap;
	blk64_t next_pc;	/* the next unused cluster of the run */
	blk64_t new_lc, new_pc;	/* the last logical cluster given one */
	blk64_t prev_lc, prev_pc, next_lc, next_pc_old; /* old neighbours */
	int last_hole;		/* the last extent pushed is a hole's */
};

/* Adds hole [l, l+len) as unwritten extents, cluster by cluster. */
static int add_hole(struct layout *ly, blk64_t l, blk64_t len)
{
	int bits = ly->fs->cluster_ratio_bits;
	blk64_t mask = EXT2FS_CLUSTER_MASK(ly->fs), lc, pc, n, pblk;
	struct plan_ext *last;

	while (len) {
		lc = l >> bits;
		n = ((lc + 1) << bits) - l;
		if (n > len)
			n = len;
		if (lc == ly->prev_lc) {
			pc = ly->prev_pc;
		} else if (lc == ly->next_lc) {
			pc = ly->next_pc_old;
		} else {
			if (lc != ly->new_lc) {
				ly->new_lc = lc;
				ly->new_pc = ly->next_pc++;
			}
			pc = ly->new_pc;
		}
		pblk = (pc << bits) | (l & mask);
		last = ly->p->nnew ? &ly->p->new[ly->p->nnew - 1] : NULL;
		if (ly->last_hole && last->lblk + last->len == l &&
		    last->pblk + last->len == pblk &&
		    last->len + n <= EXT_MAX_UNINIT) {
			last->len += n;
		} else {
			if (n > EXT_MAX_UNINIT)	/* one block a cluster */
				n = EXT_MAX_UNINIT;
			if (push_ext(&ly->p->new, &ly->p->nnew, &ly->cap,
				     (struct plan_ext){l, pblk, n, 1}))
				return -1;
			ly->last_hole = 1;
		}
		l += n;
		len -= n;
	}
	return 0;
}

/* The new mapping with holes placed from target (cluster-aligned): the old
 * extents kept, the holes between them.  *units: the clusters of the run
 * the holes take; *holes: the hole blocks. */
static errcode_t lay_out(ext2_filsys fs, struct plan *p, blk64_t nblocks,
			 blk64_t target, blk64_t *units, blk64_t *holes)
{
	int bits = fs->cluster_ratio_bits;
	struct layout ly = {fs, p, 0, target >> bits, ~0ULL, 0, ~0ULL, 0,
			    ~0ULL, 0, 0};
	blk64_t l = 0, n, off, end;
	size_t i;

	free(p->new);
	p->new = NULL;
	p->nnew = 0;
	*holes = 0;
	for (i = 0; i < p->nold; i++) {
		const struct plan_ext *o = &p->old[i];

		ly.next_lc = o->lblk >> bits;
		ly.next_pc_old = o->pblk >> bits;
		if (o->lblk > l && l < nblocks) {
			end = o->lblk < nblocks ? o->lblk : nblocks;
			*holes += end - l;
			if (add_hole(&ly, l, end - l))
				return ENOMEM;
		}
		for (off = 0; off < o->len; off += n) {	/* keep, split */
			n = o->len - off > 32768 ? 32768 : o->len - off;
			if (o->uninit && n > EXT_MAX_UNINIT)
				n = EXT_MAX_UNINIT;
			if (push_ext(&p->new, &p->nnew, &ly.cap,
				     (struct plan_ext){o->lblk + off,
						       o->pblk + off, n,
						       o->uninit}))
				return ENOMEM;
		}
		ly.last_hole = 0;
		ly.prev_lc = (o->lblk + o->len - 1) >> bits;
		ly.prev_pc = (o->pblk + o->len - 1) >> bits;
		ly.next_lc = ~0ULL;
		if (o->lblk + o->len > l)
			l = o->lblk + o->len;
	}
	if (l < nblocks) {
		*holes += nblocks - l;
		if (add_hole(&ly, l, nblocks - l))
			return ENOMEM;
	}
	*units = ly.next_pc - (target >> bits);
	return 0;
}

/* Bigalloc: the file's mapping keeps every block's offset in its cluster
 * and maps each logical cluster into one physical cluster (as e2fsck
 * requires); anything else is refused before a plan is made. */
static int clusters_consistent(ext2_filsys fs, const struct plan *p,
			       blk64_t *bad_lblk)
{
	int bits = fs->cluster_ratio_bits;
	blk64_t mask = EXT2FS_CLUSTER_MASK(fs);
	size_t i;

	for (i = 0; i < p->nold; i++) {
		const struct plan_ext *o = &p->old[i], *q = i ? o - 1 : NULL;

		*bad_lblk = o->lblk;
		if ((o->lblk & mask) != (o->pblk & mask))
			return 0;
		if (q && (q->lblk + q->len - 1) >> bits == o->lblk >> bits &&
		    (q->pblk + q->len - 1) >> bits != o->pblk >> bits)
			return 0;
	}
	return 1;
}

/* Bigalloc: frees the cluster of each old tree block (each once); one
 * shared with data the file keeps is refused (*shared set). */
static errcode_t free_meta_clusters(ext2_filsys fs, struct plan *p,
				    int *shared)
{
	int bits = fs->cluster_ratio_bits;
	blk64_t c, ratio = EXT2FS_CLUSTER_RATIO(fs);
	size_t i, j;
	struct plan_step *ns;

	*shared = 0;
	for (i = 0; i < p->nold_meta; i++) {
		c = p->old_meta[i] >> bits;
		for (j = 0; j < p->nold; j++)
			if (p->old[j].pblk >> bits <= c &&
			    (p->old[j].pblk + p->old[j].len - 1) >> bits >= c)
				*shared = 1;
		for (j = 0; j < i; j++)
			if (p->old_meta[j] >> bits == c)
				*shared = 1;
		if (*shared)
			return 0;
		ns = realloc(p->steps, (p->nsteps + 1) * sizeof(*ns));
		if (!ns)
			return ENOMEM;
		p->steps = ns;
		p->steps[p->nsteps++] = (struct plan_step){STEP_FREE,
			c << bits, 0, ratio};
	}
	return 0;
}

errcode_t plan_build_prealloc(struct session *s, ext2_ino_t ino,
			      const char *name, __u64 size, blk64_t goal,
			      struct plan **pp)
{
	ext2_filsys fs = s->fs;
	blk64_t nblocks = size / fs->blocksize + !!(size % fs->blocksize);
	blk64_t ratio = EXT2FS_CLUSTER_RATIO(fs);
	blk64_t holes, units, target, largest, mapped = 0, k;
	struct plan *p;
	size_t i;
	errcode_t err;
	int fits = 1, shared = 0, nothing = 0;

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
	if (ratio > 1 && !clusters_consistent(fs, p, &k)) {
		out_error(s->out, "prealloc", E2L_ERR_UNSAFE, "inode %u: the "
			  "extent at logical block %llu breaks bigalloc's "
			  "cluster mapping (run e2fsck)", ino,
			  (unsigned long long)k);
		err = E2L_ERR_UNSAFE;
		goto out;
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
	err = lay_out(fs, p, nblocks, 0, &units, &holes);
	if (err)
		goto out;
	p->new_meta = holes ? plan_meta_needed(fs, 1, p->new, p->nnew) : 0;
	if (p->new_meta == ~0ULL) {
		out_error(s->out, "prealloc", 0, "the file would need an "
			  "extent tree deeper than 5 levels");
		err = EXT2_ET_UNIMPLEMENTED;
		goto out;
	}
	if (!holes || !(units + p->new_meta)) {
		/* (bigalloc: the holes lie in clusters the file holds) */
		out_printf(s->out, "the first %llu bytes are already "
			   "allocated%s; nothing to do\n",
			   (unsigned long long)size, holes ? " (in clusters "
			   "the file holds)" : "");
		nothing = 1;
		goto out;
	}
	p->target_len = (units + p->new_meta) * ratio;
	err = plan_find_free(fs, goal, p->target_len, &target, &largest);
	if (err) {
		out_error(s->out, "prealloc", 0, "no free run of %llu blocks "
			  "(the largest has %llu)",
			  (unsigned long long)p->target_len,
			  (unsigned long long)largest);
		goto out;
	}
	p->target = target;
	err = lay_out(fs, p, nblocks, target, &units, &holes);
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
	/* tree blocks: one a cluster at the run's end (see plan_meta_blk) */
	if (p->new_meta && ratio == 1)
		STEP(STEP_WRITE_MAP, plan_meta_blk(fs, p, 0),
		     plan_meta_blk(fs, p, 0), p->new_meta);
	for (k = 0; ratio > 1 && k < p->new_meta; k++)
		STEP(STEP_WRITE_MAP, plan_meta_blk(fs, p, k),
		     plan_meta_blk(fs, p, k), 1);
	STEP(STEP_ALLOC, 0, target, p->target_len);
	STEP(STEP_SWITCH, 0, target, 0);
	for (i = 0; ratio == 1 && i < p->nold_meta; i++)
		STEP(STEP_FREE, p->old_meta[i], 0, 1);
#undef STEP
	if (ratio > 1)
		err = free_meta_clusters(fs, p, &shared);
	if (!err && shared) {
		out_error(s->out, "prealloc", E2L_ERR_UNSAFE, "inode %u: an "
			  "extent tree block shares its cluster with data; "
			  "not replacing that tree", ino);
		err = E2L_ERR_UNSAFE;
	}
	if (!err)
		err = plan_fingerprint(fs, ino, &p->fp);
out:
	if (err || nothing) {
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

	/* the handle's own bitmap when it has one: rereading it from disk
	 * would drop the session's unwritten allocations (a debugfs-style
	 * write earlier in the session) and hand out their inode again */
	err = fs->inode_map ? 0 : ext2fs_read_inode_bitmap(fs);
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
