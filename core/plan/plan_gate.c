/* plan_gate.c - what apply confirms before its first write: that the disk
 * still holds the filesystem the plan was made from (superblock, group
 * descriptors and block bitmap reread from the device), and that the
 * filesystem is known to be consistent (checked by e2fsck since it was last
 * written, or e2fsck -fn finds nothing now).  See help/topics/plans.txt. */
#include "plan.h"
#include "e2l_err.h"
#include "fsck_run.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define RUN_BLOCKS	256	/* bitmap blocks read at once */

static __u64 sb_time(__u32 lo, __u8 hi)
{
	return (__u64)lo | ((__u64)hi << 32);
}

/* A second, read-only look at the device through a fresh channel (the
 * session's own may cache what it read before). */
static errcode_t disk_open(struct session *s, ext2_filsys *dp)
{
	int flags = EXT2_FLAG_64BITS | EXT2_FLAG_SOFTSUPP_FEATURES |
		    (s->fs->flags & EXT2_FLAG_IGNORE_CSUM_ERRORS);

	return ext2fs_open(s->device, flags, 0, 0, unix_io_manager, dp);
}

/*
 * Which field of the on-disk superblock differs from the session's copy,
 * or NULL.  Its own unwritten changes (dirty) touch the counters and the
 * state, so then only the stamps that every writer's close moves are
 * compared.
 */
static const char *super_differs(struct ext2_super_block *m,
				 struct ext2_super_block *d, int dirty)
{
	if (memcmp(m->s_uuid, d->s_uuid, sizeof(m->s_uuid)))
		return "the UUID";
	if (m->s_wtime != d->s_wtime || m->s_wtime_hi != d->s_wtime_hi)
		return "the last write time (s_wtime)";
	if (m->s_mtime != d->s_mtime || m->s_mtime_hi != d->s_mtime_hi)
		return "the last mount time (s_mtime)";
	if (m->s_mnt_count != d->s_mnt_count)
		return "the mount count";
	if (m->s_lastcheck != d->s_lastcheck ||
	    m->s_lastcheck_hi != d->s_lastcheck_hi)
		return "the last check time (s_lastcheck)";
	if (m->s_kbytes_written != d->s_kbytes_written)
		return "the lifetime writes (s_kbytes_written)";
	if (m->s_blocks_count != d->s_blocks_count ||
	    m->s_blocks_count_hi != d->s_blocks_count_hi)
		return "the block count";
	if (dirty)
		return NULL;
	if (ext2fs_free_blocks_count(m) != ext2fs_free_blocks_count(d))
		return "the free blocks count";
	if (m->s_free_inodes_count != d->s_free_inodes_count)
		return "the free inodes count";
	if (m->s_state != d->s_state)
		return "the state";
	return NULL;
}

/* A group whose on-disk bitmap block holds nothing to compare. */
static int no_bitmap(ext2_filsys fs, dgrp_t g)
{
	blk64_t b = ext2fs_block_bitmap_loc(fs, g);

	return (ext2fs_has_group_desc_csum(fs) &&
		ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT)) ||
	       !b || b >= ext2fs_blocks_count(fs->super);
}

/* 1 when group g's bits in the session's bitmap differ from disk (its
 * on-disk bitmap block); mem has room for a block. */
static int group_bits_differ(ext2_filsys fs, dgrp_t g, const char *disk,
			     char *mem)
{
	blk64_t cpg = EXT2_CLUSTERS_PER_GROUP(fs->super);
	blk64_t itr = EXT2FS_B2C(fs, fs->super->s_first_data_block) +
		      (blk64_t)g * cpg;
	blk64_t nbits = cpg, rem;
	unsigned char mask;

	if (g == fs->group_desc_count - 1) {
		rem = (ext2fs_blocks_count(fs->super) -
		       fs->super->s_first_data_block) %
		      EXT2_BLOCKS_PER_GROUP(fs->super);
		if (rem)
			nbits = EXT2FS_NUM_B2C(fs, rem);
	}
	if (ext2fs_get_block_bitmap_range2(fs->block_map, itr, cpg, mem))
		return 1;
	if (memcmp(mem, disk, nbits / 8))
		return 1;
	mask = (1u << (nbits % 8)) - 1;
	return (nbits % 8) && ((mem[nbits / 8] ^ disk[nbits / 8]) & mask);
}

/*
 * Which part of the on-disk group table or block bitmap differs from the
 * session's (what names it, up to len bytes), 0 when none.  Bitmap blocks
 * are read in runs of up to RUN_BLOCKS and compared group by group, so
 * memory stays small on any size of filesystem.
 */
static errcode_t groups_differ(ext2_filsys fs, ext2_filsys d, char *what,
			       size_t len)
{
	dgrp_t g, n, i;
	blk64_t start;
	char *buf = NULL, *mem = NULL;
	errcode_t err;

	what[0] = 0;
	if (d->group_desc_count != fs->group_desc_count ||
	    d->blocksize != fs->blocksize) {
		snprintf(what, len, "the group count");
		return 0;
	}
	for (g = 0; g < fs->group_desc_count; g++) {
		if (ext2fs_block_bitmap_loc(fs, g) !=
		    ext2fs_block_bitmap_loc(d, g) ||
		    ext2fs_inode_bitmap_loc(fs, g) !=
		    ext2fs_inode_bitmap_loc(d, g) ||
		    ext2fs_inode_table_loc(fs, g) !=
		    ext2fs_inode_table_loc(d, g) ||
		    ext2fs_bg_flags(fs, g) != ext2fs_bg_flags(d, g) ||
		    ext2fs_bg_free_blocks_count(fs, g) !=
		    ext2fs_bg_free_blocks_count(d, g) ||
		    ext2fs_bg_free_inodes_count(fs, g) !=
		    ext2fs_bg_free_inodes_count(d, g)) {
			snprintf(what, len, "the descriptor of group %u", g);
			return 0;
		}
	}
	if (!fs->block_map)
		return 0;	/* nothing was planned from a bitmap */
	err = ext2fs_get_array(RUN_BLOCKS, fs->blocksize, &buf);
	if (!err)
		err = ext2fs_get_mem(fs->blocksize, &mem);
	for (g = 0; !err && g < fs->group_desc_count; g += n) {
		n = 1;
		if (no_bitmap(fs, g))
			continue;
		start = ext2fs_block_bitmap_loc(fs, g);
		while (g + n < fs->group_desc_count && n < RUN_BLOCKS &&
		       !no_bitmap(fs, g + n) &&
		       ext2fs_block_bitmap_loc(fs, g + n) == start + n)
			n++;
		err = io_channel_read_blk64(d->io, start, n, buf);
		for (i = 0; !err && i < n; i++)
			if (group_bits_differ(fs, g + i,
					      buf + (size_t)i * fs->blocksize,
					      mem)) {
				snprintf(what, len, "the block bitmap of "
					 "group %u", g + i);
				goto out;
			}
	}
out:
	ext2fs_free_mem(&buf);
	ext2fs_free_mem(&mem);
	return err;
}

/* Refuses: the disk changed under the session.  From now on the session
 * writes nothing: its view is stale, and writing it back (its bitmaps, its
 * superblock at close) would undo the other writer's work. */
static errcode_t refuse_stale(struct session *s, const char *what)
{
	ext2_filsys fs = s->fs;
	int dirty = fs->flags & (EXT2_FLAG_DIRTY | EXT2_FLAG_BB_DIRTY |
				 EXT2_FLAG_IB_DIRTY);

	out_error(s->out, "apply", 0, "the filesystem changed on disk since "
		  "the plan was made (by another program?)%s%s%s; make the "
		  "plan again in a new session: this one writes nothing more%s "
		  "(close it and open %s again)", what ? ": " : "",
		  what ? what : "", what ? " differs from what this session "
		  "read" : "", dirty ? ", its own unwritten changes "
		  "are dropped" : "", s->device);
	s->fs_changed = true;
	fs->flags &= ~(EXT2_FLAG_RW | EXT2_FLAG_DIRTY | EXT2_FLAG_CHANGED |
		       EXT2_FLAG_BB_DIRTY | EXT2_FLAG_IB_DIRTY);
	return E2L_ERR_STALE_PLAN;
}

/*
 * Whether the session wrote since it opened the filesystem: through the
 * superblock, the bitmaps or an inode (libext2fs's CHANGED flag), or any
 * block through its channel.  With MMP the channel itself writes the MMP
 * block at open, so only the flag counts there.
 */
static int session_wrote(struct session *s)
{
	ext2_filsys fs = s->fs;
	io_stats st = NULL;

	if (s->wrote || (fs->flags & (EXT2_FLAG_CHANGED | EXT2_FLAG_DIRTY |
				      EXT2_FLAG_BB_DIRTY |
				      EXT2_FLAG_IB_DIRTY)))
		return 1;
	if (ext2fs_has_feature_mmp(fs->super))
		return 0;
	if (!fs->io->manager->get_stats ||
	    fs->io->manager->get_stats(fs->io, &st) || !st)
		return 1;	/* cannot tell: assume it did */
	return st->bytes_written > 0;
}

/*
 * Writes the session's pending changes (bitmaps, descriptors, superblock
 * of debugfs-style requests, blocks in the channel's cache), so that e2fsck
 * and the apply see what the plan saw.  The chain's fingerprints follow
 * the new write time: the session's own write does not make them stale.
 */
static errcode_t flush_own(struct session *s, struct plan *p)
{
	__u32 before = s->fs->super->s_wtime;
	errcode_t err = 0;
	struct plan *q;

	if (s->fs->flags & EXT2_FLAG_IB_DIRTY)
		err = ext2fs_write_inode_bitmap(s->fs);
	if (!err && (s->fs->flags & EXT2_FLAG_BB_DIRTY))
		err = ext2fs_write_block_bitmap(s->fs);
	if (!err && (s->fs->flags & EXT2_FLAG_DIRTY))
		err = ext2fs_flush(s->fs);
	if (!err)
		err = io_channel_flush(s->fs->io);
	if (err) {
		out_error(s->out, "apply", err, "while writing this session's "
			  "own changes to %s before checking it", s->device);
		return err;
	}
	for (q = p; q; q = q->next)
		if (q->fp.wtime == before)
			q->fp.wtime = s->fs->super->s_wtime;
	return 0;
}

/* Whether this session holds the filesystem's MMP block. */
static int holds_mmp(ext2_filsys fs)
{
	return ext2fs_has_feature_mmp(fs->super) &&
	       (fs->flags & EXT2_FLAG_RW) && !(fs->flags & EXT2_FLAG_SKIP_MMP);
}

/*
 * e2fsck will not check a filesystem whose MMP block says it is being
 * checked, which is what a -w open makes it say: the block is released
 * for the check (the writer's lock still keeps local writers out) and
 * taken again after it, which waits as every MMP open does.
 */
static errcode_t mmp_release(struct session *s)
{
	errcode_t err;

	if (!holds_mmp(s->fs))
		return 0;
	err = ext2fs_mmp_stop(s->fs);
	if (err)
		out_error(s->out, "apply", err, "while releasing the MMP block "
			  "of %s for e2fsck", s->device);
	return err;
}

/* Takes the MMP block again after the check; when another node took it
 * meanwhile, the session writes nothing more (1). */
static int mmp_retake(struct session *s)
{
	errcode_t err;

	if (!holds_mmp(s->fs))
		return 0;
	err = ext2fs_mmp_start(s->fs);
	if (!err)
		return 0;
	out_error(s->out, "apply", err, "while taking the MMP block of %s "
		  "again after e2fsck (is another node using it?)", s->device);
	refuse_stale(s, "the MMP block");
	return 1;
}

/* Runs e2fsck -fn; 0 when it reports nothing. */
static errcode_t run_fsck(struct session *s)
{
	char prog[4096];
	struct fsck_result r;
	errcode_t err;
	int i;

	if (fsck_find(prog, sizeof(prog))) {
		out_error(s->out, "apply", 0, "cannot check %s: %s not found "
			  "(apply runs e2fsck -fn before changing a filesystem "
			  "not checked since it was last written; put e2fsck "
			  "on PATH or name it in E2LAYOUT_E2FSCK)", s->device,
			  getenv("E2LAYOUT_E2FSCK") &&
			  *getenv("E2LAYOUT_E2FSCK") ?
			  getenv("E2LAYOUT_E2FSCK") : "e2fsck");
		return E2L_ERR_NOT_CLEAN;
	}
	out_printf(s->out, "checking the filesystem (e2fsck -fn %s) before "
		   "changing it...\n", s->device);
	err = mmp_release(s);
	if (err)
		return err;
	err = fsck_run(prog, s->device, s->check_progress,
		       s->check_progress_ctx, &r);
	if (mmp_retake(s))
		return E2L_ERR_STALE_PLAN;
	if (err) {
		out_error(s->out, "apply", err, "while running %s", prog);
		return err;
	}
	if (r.status == 0)
		return 0;
	if (r.stalled)
		out_error(s->out, "apply", 0, "%s -fn %s made no progress for "
			  "%d seconds and was stopped (e2fsck loops on some "
			  "damaged filesystems; E2LAYOUT_FSCK_STALL sets the "
			  "limit); refusing to change the layout of a "
			  "filesystem not known to be consistent", prog,
			  s->device, r.stalled);
	else if (r.signal)
		out_error(s->out, "apply", 0, "%s -fn %s was killed by signal "
			  "%d; refusing to change the layout of a filesystem "
			  "not known to be consistent", prog, s->device,
			  r.signal);
	else if (r.status == 127 && !r.nlines)
		out_error(s->out, "apply", 0, "could not run %s; refusing to "
			  "change the layout of a filesystem not known to be "
			  "consistent", prog);
	else
		out_error(s->out, "apply", 0, "e2fsck -fn found problems on "
			  "%s (exit status %d); refusing to change its layout: "
			  "run e2fsck -f %s first.%s", s->device, r.status,
			  s->device, r.nlines ? "  It reported:" : "");
	for (i = 0; i < r.nlines; i++)
		out_errtext(s->out, "    %s\n", r.line[i]);
	return E2L_ERR_NOT_CLEAN;
}

errcode_t plan_gate(struct session *s, struct plan *p,
		    const struct apply_opts *o)
{
	ext2_filsys d = NULL;
	int dirty = s->fs->flags & (EXT2_FLAG_DIRTY | EXT2_FLAG_BB_DIRTY |
				    EXT2_FLAG_IB_DIRTY);
	int wrote = session_wrote(s);
	const char *what = NULL;
	char where[64] = "";
	__u64 last, wtime, mtime;
	int suspect, image;
	struct stat st;
	errcode_t err;

	if (s->fs_changed)
		return refuse_stale(s, NULL);
	/* 1. the disk still holds what the session read */
	err = disk_open(s, &d);
	if (err) {
		out_error(s->out, "apply", err, "while rereading %s from disk",
			  s->device);
		return refuse_stale(s, "its superblock or group descriptors");
	}
	what = super_differs(s->fs->super, d->super, dirty);
	if (!what && !dirty) {
		err = groups_differ(s->fs, d, where, sizeof(where));
		if (err)
			out_error(s->out, "apply", err, "while rereading the "
				  "block bitmap of %s", s->device);
		if (!err && where[0])
			what = where;
	}
	last = sb_time(d->super->s_lastcheck, d->super->s_lastcheck_hi);
	wtime = sb_time(d->super->s_wtime, d->super->s_wtime_hi);
	mtime = sb_time(d->super->s_mtime, d->super->s_mtime_hi);
	/* what else makes resize2fs insist on a check first */
	suspect = ext2fs_free_blocks_count(d->super) >
		  ext2fs_blocks_count(d->super) ||
		  d->super->s_free_inodes_count > d->super->s_inodes_count ||
		  d->super->s_last_orphan ||
		  !(d->super->s_state & EXT2_VALID_FS) ||
		  (d->super->s_state & EXT2_ERROR_FS);
	/* an image file's modification time is a write time too, and
	 * moves with writes that leave the superblock alone (an inode
	 * edited in place, dd) */
	image = !stat(s->device, &st) && S_ISREG(st.st_mode);
	if (image && (__u64)st.st_mtime > last)
		suspect = 1;
	ext2fs_close_free(&d);
	if (err)
		return err;
	if (what)
		return refuse_stale(s, what);

	/* 2. its own pending writes, so that e2fsck sees what apply will */
	if (wrote) {
		err = flush_own(s, p);
		if (err)
			return err;
	}

	/* 3. known to be consistent: resize2fs's rule, or e2fsck -fn */
	s->wrote = true;	/* from here on the apply may write */
	if (!wrote && !suspect && last >= wtime && last >= mtime) {
		out_printf(s->out, "the filesystem was checked since it was "
			   "last written or mounted (s_lastcheck%s): no e2fsck "
			   "run needed\n", image ? " and the image file's "
			   "modification time" : "");
		return 0;
	}
	if (o && o->no_fsck) {
		out_error(s->out, "apply", 0, "warning: --no-fsck: e2fsck -fn "
			  "is not run, so nothing but the plan's own blocks is "
			  "checked before %s is changed", s->device);
		return 0;
	}
	return run_fsck(s);
}
