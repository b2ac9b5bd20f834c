/* plan_apply.c - runs a plan in a crash-safe order: copy the data to free
 * blocks and flush, then mark the new blocks in use, switch the inode and free
 * the old blocks - as one jbd2 transaction when the filesystem has a journal
 * (plan_journal.c), else in that order with flushes.  Optional undo file
 * (plan_apply_undo.c, undo_writer.c: e2undo's format) and fault injection
 * (E2L_FAULT_WRITES=k). */
#include "plan.h"
#include "e2l_err.h"
#include "io_layer.h"
#include "plan_apply_undo.h"
#include "quota_update.h"
#include "undo_guard.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The apply's context, installed on the filesystem's channel for the writes
 * (an io layer: the journal capture may sit above it): the progress the
 * session's hook is told and the fault injector (E2L_FAULT_WRITES=k: the
 * k-th write ends the process, as a crash would).
 */
struct apply_ctx {
	struct io_layer l;		/* first: found from the channel */
	long fault_left;
	struct session *s;
	unsigned long long done, total;
};

static errcode_t fault_write_blk64(io_channel ch, unsigned long long blk,
				   int count, const void *buf);

static struct apply_ctx *ctx_of(io_channel ch)
{
	return (struct apply_ctx *)io_layer_find(ch, fault_write_blk64);
}

static void prog_tick(struct apply_ctx *c, io_channel ch, int count)
{
	if (!c->s || !c->s->apply_progress)
		return;
	/* a negative count is a byte count */
	c->done += count < 0 ? ((unsigned long long)-count +
				ch->block_size - 1) / ch->block_size :
			       (unsigned long long)count;
	c->s->apply_progress(c->s->apply_progress_ctx, c->done, c->total);
}

static void prog_begin(struct apply_ctx *c, struct session *s,
		       const struct plan *p)
{
	size_t i;

	c->s = s;
	c->done = c->total = 0;
	for (; p; p = p->next)
		for (i = 0; i < p->nsteps; i++)
			if (p->steps[i].kind == STEP_COPY ||
			    p->steps[i].kind == STEP_WRITE_MAP ||
			    p->steps[i].kind == STEP_ZERO)
				c->total += p->steps[i].len;
}

static void fault_tick(struct apply_ctx *c)
{
	if (c->fault_left > 0 && --c->fault_left == 0)
		_exit(86);	/* a crash: no cleanup, no flush */
}

static errcode_t fault_write_blk(io_channel ch, unsigned long blk, int count,
				 const void *buf)
{
	struct apply_ctx *c = ctx_of(ch);
	errcode_t err = c->l.below->write_blk(ch, blk, count, buf);

	prog_tick(c, ch, count);
	fault_tick(c);
	return err;
}

static errcode_t fault_write_blk64(io_channel ch, unsigned long long blk,
				   int count, const void *buf)
{
	struct apply_ctx *c = ctx_of(ch);
	errcode_t err = c->l.below->write_blk64(ch, blk, count, buf);

	prog_tick(c, ch, count);
	fault_tick(c);
	return err;
}

static void fault_install(struct apply_ctx *c, ext2_filsys fs)
{
	const char *v = getenv("E2L_FAULT_WRITES");

	/*
	 * Always installed: without write_byte, libext2fs writes the primary
	 * superblock whole instead of patching changed bytes one by one, so
	 * a crash cannot tear it.
	 */
	c->fault_left = v && *v ? atol(v) : 0;
	io_layer_push(fs->io, &c->l);
	c->l.mgr.write_blk = fault_write_blk;
	c->l.mgr.write_blk64 = fault_write_blk64;
	c->l.mgr.write_byte = NULL;
}

static void fault_remove(struct apply_ctx *c, ext2_filsys fs)
{
	if (fs)
		io_layer_pop(fs->io, &c->l);
}

/* Reopens the session's filesystem read-write through io (undo or plain
 * unix), with its bitmaps. */
static errcode_t reopen(struct session *s, io_manager io)
{
	return session_reopen(s, io, EXT2_FLAG_RW | EXT2_FLAG_SOFTSUPP_FEATURES |
			      EXT2_FLAG_64BITS, 0, NEED_BITMAPS, 0);
}

static errcode_t copy_run(ext2_filsys fs, blk64_t src, blk64_t dst,
			  blk64_t len, char *buf, blk64_t chunk)
{
	blk64_t n;
	errcode_t err;

	while (len) {
		n = len < chunk ? len : chunk;
		err = io_channel_read_blk64(fs->io, src, n, buf);
		if (err)
			return err;
		err = io_channel_write_blk64(fs->io, dst, n, buf);
		if (err)
			return err;
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
}

static int cmp_grp(const void *a, const void *b)
{
	dgrp_t x = *(const dgrp_t *)a, y = *(const dgrp_t *)b;

	return x < y ? -1 : x > y;
}

static errcode_t zero_run(ext2_filsys fs, blk64_t dst, blk64_t len,
			  char *buf, blk64_t chunk)
{
	blk64_t n;
	errcode_t err;

	memset(buf, 0, chunk * fs->blocksize);
	for (; len; len -= n, dst += n) {
		n = len < chunk ? len : chunk;
		err = io_channel_write_blk64(fs->io, dst, n, buf);
		if (err)
			return err;
	}
	return 0;
}

/* A resized journal: s_maxlen (and the checksum) in the new copy of its
 * superblock, which is logical block 0 of the new run. */
static errcode_t patch_jsb(ext2_filsys fs, const struct plan *p, char *buf)
{
	blk64_t blk = p->new[0].pblk;
	__u32 *w = (__u32 *)buf, incompat;
	errcode_t err;

	if (p->new[0].lblk != 0)
		return EXT2_ET_INVALID_ARGUMENT;
	err = io_channel_read_blk64(fs->io, blk, 1, buf);
	if (err)
		return err;
	if (ext2fs_be32_to_cpu(w[0]) != 0xc03b3998U)
		return EXT2_ET_BAD_MAGIC;
	w[4] = ext2fs_cpu_to_be32(p->new_size_blocks);	/* s_maxlen */
	incompat = ext2fs_be32_to_cpu(w[10]);
	if (incompat & 0x18) {		/* CSUM_V2 | CSUM_V3 */
		w[0xfc / 4] = 0;
		w[0xfc / 4] = ext2fs_cpu_to_be32(ext2fs_crc32c_le(~0U,
					(unsigned char *)buf, 1024));
	}
	return io_channel_write_blk64(fs->io, blk, 1, buf);
}

/* Commits the groups touched by the steps of one kind (ALLOC or FREE). */
static errcode_t commit_kind(ext2_filsys fs, const struct plan *p,
			     enum plan_step_kind kind)
{
	dgrp_t *g = NULL, *ng, a, z;
	size_t n = 0, cap = 0, i, o;
	blk64_t first;
	errcode_t err;

	for (i = 0; i < p->nsteps; i++) {
		if (p->steps[i].kind != kind)
			continue;
		first = kind == STEP_ALLOC ? p->steps[i].dst : p->steps[i].src;
		a = ext2fs_group_of_blk2(fs, first);
		z = ext2fs_group_of_blk2(fs, first + p->steps[i].len - 1);
		for (; a <= z; a++) {
			if (n == cap) {
				cap = cap ? cap * 2 : 16;
				ng = realloc(g, cap * sizeof(*g));
				if (!ng) {
					free(g);
					return ENOMEM;
				}
				g = ng;
			}
			g[n++] = a;
		}
	}
	if (n)
		qsort(g, n, sizeof(*g), cmp_grp);
	for (i = 0, o = 0; i < n; i++)
		if (!o || g[o - 1] != g[i])
			g[o++] = g[i];
	err = plan_commit_groups(fs, g, o);
	free(g);
	return err;
}

static errcode_t do_switch(ext2_filsys fs, const struct plan *p)
{
	struct ext2_inode_large inode;
	__u32 iblock[EXT2_N_BLOCKS];
	char *meta = NULL;
	errcode_t err;

	err = plan_build_iblock(fs, p, iblock, &meta);
	free(meta);
	if (err)
		return err;
	err = ext2fs_read_inode_full(fs, p->ino, (struct ext2_inode *)&inode,
				     sizeof(inode));
	if (err)
		return err;
	memcpy(inode.i_block, iblock, sizeof(iblock));
	err = ext2fs_iblk_sub_blocks(fs, (struct ext2_inode *)&inode,
				     plan_units_old(fs, p));
	if (!err)
		err = ext2fs_iblk_add_blocks(fs, (struct ext2_inode *)&inode,
					     plan_units_new(fs, p));
	if (!err && p->new_size_blocks)
		err = ext2fs_inode_size_set(fs, (struct ext2_inode *)&inode,
					    p->new_size_blocks * fs->blocksize);
	if (!err && p->set_size > EXT2_I_SIZE(&inode))
		err = ext2fs_inode_size_set(fs, (struct ext2_inode *)&inode,
					    p->set_size);
	if (!err)	/* before the inode: a refusal writes nothing */
		err = quota_charge_switch(fs, p->ino, &inode);
	if (!err)
		err = ext2fs_write_inode_full(fs, p->ino,
					      (struct ext2_inode *)&inode,
					      sizeof(inode));
	if (err)
		return err;
	if (p->ino == fs->super->s_journal_inum &&
	    fs->super->s_jnl_backup_type == EXT3_JNL_BACKUP_BLOCKS) {
		memcpy(fs->super->s_jnl_blocks, iblock, sizeof(iblock));
		fs->super->s_jnl_blocks[15] = inode.i_size_high;
		fs->super->s_jnl_blocks[16] = inode.i_size;
		ext2fs_mark_super_dirty(fs);
	}
	return io_channel_flush(fs->io);
}

static errcode_t run_steps(ext2_filsys fs, const struct plan *p)
{
	blk64_t chunk = (4U << 20) / fs->blocksize;
	__u32 iblock[EXT2_N_BLOCKS];
	char *buf, *meta = NULL;
	errcode_t err = 0;
	size_t i, moff = 0;
	int journaled = plan_journal_usable(fs);

	buf = malloc(chunk * fs->blocksize);
	if (!buf)
		return ENOMEM;
	/* 1. Data (and new mapping blocks) into free blocks; flush. */
	for (i = 0; i < p->nsteps && !err; i++) {
		const struct plan_step *st = &p->steps[i];

		if (st->kind == STEP_COPY) {
			err = copy_run(fs, st->src, st->dst, st->len, buf,
				       chunk);
		} else if (st->kind == STEP_ZERO) {
			err = zero_run(fs, st->dst, st->len, buf, chunk);
		} else if (st->kind == STEP_WRITE_MAP) {
			/* mapping contents are in ascending block order */
			if (!meta)
				err = plan_build_iblock(fs, p, iblock, &meta);
			if (!err && moff + st->len > p->new_meta)
				err = EXT2_ET_INVALID_ARGUMENT;
			if (!err)
				err = io_channel_write_blk64(fs->io, st->dst,
					st->len, meta + moff * fs->blocksize);
			moff += st->len;
		}
	}
	if (!err && p->new_size_blocks)
		err = patch_jsb(fs, p, buf);
	free(buf);
	free(meta);
	if (!err)
		err = io_channel_flush(fs->io);
	/* 2-4 on a journaled filesystem: captured as one transaction. */
	if (!err && journaled)
		err = plan_journal_begin(fs, p, &journaled);
	/* 2. Mark the new run in use: bitmaps, descriptors, superblock. */
	for (i = 0; i < p->nsteps && !err; i++)
		if (p->steps[i].kind == STEP_ALLOC)
			ext2fs_block_alloc_stats_range(fs, p->steps[i].dst,
						       p->steps[i].len, +1);
	if (!err)
		err = commit_kind(fs, p, STEP_ALLOC);
	/* 3. Switch the inode: one inode-table block write; flush. */
	if (!err)
		err = do_switch(fs, p);
	/* 4. Release the old blocks. */
	for (i = 0; i < p->nsteps && !err; i++)
		if (p->steps[i].kind == STEP_FREE)
			ext2fs_block_alloc_stats_range(fs, p->steps[i].src,
						       p->steps[i].len, -1);
	if (!err)
		err = commit_kind(fs, p, STEP_FREE);
	if (journaled) {
		if (!err)
			err = plan_journal_end(fs);
		else
			plan_journal_abort(fs);
	}
	/* 5. Everything primary is consistent: refresh the backups. */
	if (!err) {
		fs->flags &= ~EXT2_FLAG_BB_DIRTY;
		err = ext2fs_flush(fs);
	}
	return err;
}

/* Runs fn(fs, p) with its writes to blocks in use captured into journal
 * transactions (when the filesystem has a journal): repack_flex (its copies
 * go to free blocks; each phase's descriptor switch is one transaction) and
 * prealloc's new file (inode, bitmap, directory entry: one transaction). */
static errcode_t run_journaled(ext2_filsys fs, struct plan *p,
			       errcode_t (*fn)(ext2_filsys, struct plan *))
{
	int journaled = plan_journal_usable(fs);
	errcode_t err = 0;

	if (journaled)
		err = plan_journal_begin(fs, NULL, &journaled);
	if (!err)
		err = fn(fs, p);
	if (journaled) {
		if (!err)
			err = plan_journal_end(fs);
		else
			plan_journal_abort(fs);
	}
	return err;
}

/* prealloc's new file, with no block allocated that the guard did not
 * check: a directory that must grow fails instead. */
static errcode_t create_checked(ext2_filsys fs, struct plan *p)
{
	struct plan_fence fence;
	errcode_t err;

	plan_fence_begin(fs, &fence);
	err = plan_create_file(fs, p);
	plan_fence_end(fs, &fence);
	return err;
}

/* The new file: rehearsed first on a copy whose writes go nowhere, so that
 * a directory that would have to grow is refused before anything is
 * written; then for real. */
static errcode_t create_fenced(struct session *s, struct plan *p)
{
	ext2_ino_t dir = p->ino;
	errcode_t err;

	err = plan_dry_run(s->fs, create_checked, p);
	p->ino = dir;
	if (!err)
		err = run_journaled(s->fs, p, create_checked);
	if (err == E2L_ERR_OWNER_CONFLICT)
		out_error(s->out, "apply", 0, "directory inode %u must grow to "
			  "hold %s, into a block this plan did not check; "
			  "refusing it", dir, p->create_name);
	return err;
}

static errcode_t repack(ext2_filsys fs, struct plan *p)
{
	return plan_repack_run(fs, p);
}

/* Refuses states in which writing is unsafe; prints why.  Returns
 * E2L_ERR_UNSAFE (E2L_ERR_STALE_PLAN when the disk changed under a
 * session, which then writes nothing more). */
static errcode_t check_safe(struct session *s)
{
	ext2_filsys fs = s->fs;
	int mf = 0;
	char mp[256] = "";

	if (s->fs_changed)
		return plan_gate(s, NULL, NULL);	/* says why */
	if (!(fs->flags & EXT2_FLAG_RW)) {
		out_error(s->out, "apply", 0, "the filesystem is open "
			  "read-only; reopen it with -w to apply a plan");
		return E2L_ERR_UNSAFE;
	}
	/* busy: the O_EXCL writer's lock is this session's own */
	if (!ext2fs_check_mount_point(s->device, &mf, mp, sizeof(mp)) &&
	    ((mf & EXT2_MF_MOUNTED) ||
	     ((mf & EXT2_MF_BUSY) && s->lock_fd < 0))) {
		out_error(s->out, "apply", 0, "%s is mounted or in use%s%s; "
			  "refusing to change its layout", s->device,
			  mp[0] ? " on " : "", mp);
		return E2L_ERR_UNSAFE;
	}
	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		out_error(s->out, "apply", 0, "the journal needs recovery; "
			  "run e2fsck first");
		return E2L_ERR_UNSAFE;
	}
	if (fs->super->s_state & EXT2_ERROR_FS) {
		out_error(s->out, "apply", 0, "the filesystem has errors "
			  "recorded (s_state); run e2fsck -f first");
		return E2L_ERR_UNSAFE;
	}
	if (!(fs->super->s_state & EXT2_VALID_FS)) {
		out_error(s->out, "apply", 0, "the filesystem was not cleanly "
			  "unmounted; run e2fsck -f first");
		return E2L_ERR_UNSAFE;
	}
	/* counters no filesystem can have (e2fsck -n lets some pass, and
	 * the apply's own arithmetic on them would make them worse) */
	if (ext2fs_free_blocks_count(fs->super) >
	    ext2fs_blocks_count(fs->super) ||
	    fs->super->s_free_inodes_count > fs->super->s_inodes_count) {
		out_error(s->out, "apply", 0, "the superblock counts more free "
			  "blocks or inodes (%llu, %u) than the filesystem has "
			  "(%llu, %u); run e2fsck -f first",
			  (unsigned long long)ext2fs_free_blocks_count(fs->super),
			  fs->super->s_free_inodes_count,
			  (unsigned long long)ext2fs_blocks_count(fs->super),
			  fs->super->s_inodes_count);
		return E2L_ERR_UNSAFE;
	}
	return 0;
}

errcode_t plan_apply(struct session *s, struct plan *p,
		     const char *undo_path, const struct apply_opts *o)
{
	struct apply_ctx ctx = {.s = NULL};
	struct undo_guard *guard = NULL;
	struct plan *q;
	errcode_t err = 0, e = 0, werr = 0;
	int recorded = 0;

	err = check_safe(s);
	if (!err)
		err = plan_gate(s, p, o);
	if (err)
		return err;
	for (q = p; q; q = q->next)
		if (plan_check_fp(s, q) || plan_check_sane(s, q))
			return E2L_ERR_STALE_PLAN;
	/* every plan of the chain, against the bitmap and the owners */
	err = plan_guard(s, p, "apply");
	if (!err)
		err = quota_check_plan(s, "apply", p);
	if (err)
		return err;
	if (undo_path && !s->undo_file) {
		err = apply_undo_begin(s, p, undo_path);
		if (err)
			return err;
		guard = s->apply_undo;
	}
	if (guard)
		err = undo_plan_presave(s->fs, p, guard);
	prog_begin(&ctx, s, p);
	fault_install(&ctx, s->fs);
	for (q = p; q && !err; q = q->next) {
		err = q->create_name[0] ? create_fenced(s, q) : 0;
		if (!err && q->create_name[0] && plan_used_in(s->fs,
				q->target, q->target + q->target_len - 1))
			err = EXT2_ET_BLOCK_ALLOC_FAIL;	/* the dir grew */
		if (!err)
			err = q->repack ? run_journaled(s->fs, q, repack) :
			      run_steps(s->fs, q);
	}
	fault_remove(&ctx, s->fs);
	if (s->apply_undo)	/* the file this session records into */
		e = undo_guard_state(s->apply_undo, &werr, &recorded);
	if (err) {
		out_error(s->out, "apply", err, "while applying the plan; the "
			  "filesystem holds the old or the new layout (run "
			  "e2fsck -fn to check)");
		/* What the failed steps left in memory (counters, bitmaps)
		 * must not reach the disk when the filesystem is closed: the
		 * disk holds what the ordered writes made, as after a crash;
		 * the session reopens it from there (still recording). */
		s->fs->flags &= ~(EXT2_FLAG_DIRTY | EXT2_FLAG_BB_DIRTY |
				  EXT2_FLAG_IB_DIRTY);
		if (!e && !werr && reopen(s, unix_io_manager))
			out_error(s->out, "apply", 0, "%s could not be "
				  "reopened; the session has no filesystem "
				  "open", s->device);
	}
	if (e || werr)
		apply_undo_failed(s);
	if (s->apply_undo && (err || e))
		apply_undo_verdict(s, undo_guard_path(s->apply_undo), guard != NULL,
			     !err, e, werr, recorded);
	/* the file counts (undo_list) only when it restores */
	if (guard && !e && undo_list_add(s, undo_path) && !err)
		err = ENOMEM;
	return err;
}
