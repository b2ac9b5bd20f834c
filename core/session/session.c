/* session.c - opening and closing a filesystem safely (what the commands
 * need is loaded when they first need it: session_load.c). */
#include "session.h"
#include "e2l_err.h"
#include "fs_probe.h"
#include "fs_source.h"
#include "gdt_loc.h"
#include "journal_ext.h"
#include "jtrans.h"
#include "live.h"
#include "live_defrag.h"
#include "owner.h"
#include "plan.h"
#include "undo_guard.h"

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void session_init(struct session *s, struct sink *out)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
	s->lock_fd = -1;
	s->source_fd = -1;
	e2l_err_init();
}

const char *session_prog(const struct session *s)
{
	return s->debugfs ? "debugfs" : "e2layout";
}

const char *session_name(const struct session *s)
{
	return s->source_name ? s->source_name : s->device;
}

time_t session_now(const struct session *s)
{
	return s->now ? s->now : time(NULL);
}

/* Refuses to write where a write could lose data; prints why. */
static errcode_t check_writable(struct session *s, const char *device)
{
	if (s->mount_flags & EXT2_MF_MOUNTED) {
		out_error(s->out, session_prog(s), 0,
			  "%s is mounted%s%s; refusing to open it read-write "
			  "(the kernel owns it: writing could corrupt it)",
			  device, s->mount_point[0] ? " on " : "",
			  s->mount_point);
		return EBUSY;
	}
	if (s->mount_flags & EXT2_MF_BUSY)
		return session_lock_busy(s, device);
	return 0;
}

/*
 * After a superblock-only open: can the descriptors be read?  Without
 * meta_bg they are one run, and reading its last block proves the run is
 * inside the image; with meta_bg they are scattered, so the whole table is
 * read now.  A failure makes the caller open the usual way, so that a
 * broken image is refused at open exactly as before.  A plain regular file
 * (no ?offset=) long enough to hold that block can read it: its size says
 * so without the read (a cold seek on a large image; the request that needs
 * the table reads it whole, and reports a read error then).
 */
static int group_desc_readable(ext2_filsys fs)
{
	struct stat st;
	blk64_t last;
	char *buf;
	errcode_t err;

	if (ext2fs_has_feature_meta_bg(fs->super))
		return session_load_group_desc(fs) == 0;
	if (!fs->desc_blocks)
		return 1;
	last = gdt_block_loc(fs, fs->desc_blocks - 1);
	if (fs->device_name && !strchr(fs->device_name, '?') &&
	    !stat(fs->device_name, &st) && S_ISREG(st.st_mode) &&
	    st.st_size > 0 &&
	    (unsigned long long)st.st_size / fs->blocksize > last)
		return 1;
	if (ext2fs_get_mem(fs->blocksize, &buf))
		return 0;
	err = io_channel_read_blk64(fs->io, last, 1, buf);
	ext2fs_free_mem(&buf);
	return err == 0;
}

/*
 * What libext2fs's -w open does on an MMP filesystem (take its MMP block,
 * waiting as MMP says), after keeping the block as it was found: an undo
 * file puts that back, not the "in use" the session leaves there while it
 * writes (undo_guard_preimage).
 */
static errcode_t mmp_take(struct session *s)
{
	ext2_filsys fs = s->fs;
	blk64_t blk = fs->super->s_mmp_block;
	unsigned char *buf = NULL;
	errcode_t err;

	fs->flags &= ~EXT2_FLAG_SKIP_MMP;
	if (!ext2fs_has_feature_mmp(fs->super))
		return 0;
	if (blk >= fs->super->s_first_data_block &&
	    blk < ext2fs_blocks_count(fs->super)) {
		buf = malloc(fs->blocksize);
		if (buf && io_channel_read_blk64(fs->io, blk, 1, buf)) {
			free(buf);
			buf = NULL;	/* ext2fs_mmp_start says why */
		}
	}
	err = ext2fs_mmp_start(fs);
	if (err) {
		free(buf);
		fs->flags |= EXT2_FLAG_SKIP_MMP;
		ext2fs_mmp_stop(fs);	/* its descriptor only */
		return err;
	}
	free(s->mmp_found);
	s->mmp_found = buf;
	s->mmp_found_blk = blk;
	return 0;
}

static errcode_t open_device(struct session *s, const char *device,
			     unsigned flags, const char *undo_file,
			     blk64_t superblock, unsigned blocksize)
{
	int open_flags = EXT2_FLAG_SOFTSUPP_FEATURES | EXT2_FLAG_64BITS |
			 s->extra_open_flags;
	io_manager io = unix_io_manager;
	char dev[PATH_MAX], mnt[PATH_MAX];
	bool is_mnt = false;
	int take_mmp = 0;
	struct stat st;
	errcode_t err;

	if (s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS; /* caller's bug */
	if (!stat(device, &st) && S_ISDIR(st.st_mode)) {
		/* a mount point names its filesystem; any other directory
		 * is a mistake, never "the disk below it" */
		err = live_device_of_dir(device, dev, sizeof(dev), mnt,
					 sizeof(mnt), &is_mnt);
		if (err) {
			out_error(s->out, session_prog(s), 0, "%s is a "
				  "directory on no mounted ext2/3/4 filesystem",
				  device);
			return err;
		}
		if (!is_mnt) {
			out_error(s->out, session_prog(s), 0, "%s is a directory "
				  "but not a mount point; give the mount point "
				  "%s or the device %s", device, mnt, dev);
			return EXT2_ET_BAD_DEVICE_NAME;
		}
		device = dev;
	}
	if (superblock && !blocksize) {
		out_error(s->out, device, 0,
			  "if you specify the superblock, you must also "
			  "specify the block size");
		return EINVAL;
	}

	err = ext2fs_check_mount_point(device, &s->mount_flags,
				       s->mount_point, sizeof(s->mount_point));
	if (err) {
		s->mount_flags = 0;
		s->mount_point[0] = 0;
	}
	if (flags & SESSION_CATASTROPHIC) {
		/* debugfs 1.47.0 keeps -w in catastrophic mode */
		if ((flags & SESSION_RW) && !s->debugfs) {
			out_error(s->out, device, 0,
				  "opening read-only because of catastrophic "
				  "mode");
			flags &= ~SESSION_RW;
		}
		open_flags |= EXT2_FLAG_SKIP_MMP | EXT2_FLAG_IGNORE_SB_ERRORS;
	}
	/*
	 * Read-only from the primary superblock: the descriptors (8 MiB on
	 * 16 TiB) are not read at open; libext2fs reads the block holding a
	 * descriptor when one is asked for, and session_need(NEED_GROUP_DESC)
	 * reads the whole table.  libext2fs's threaded bitmap reading is only
	 * enabled once the table is in memory (the on-demand block is one
	 * static buffer).  An e2image file keeps its descriptors right after
	 * its superblock, not where s_first_data_block says (which is where
	 * the on-demand reads look), so it is read whole.
	 */
	if (!(flags & SESSION_RW) && !superblock && !s->debugfs &&
	    !(open_flags & EXT2_FLAG_IMAGE_FILE))
		open_flags |= EXT2_FLAG_SUPER_ONLY;
	else
		open_flags |= EXT2_FLAG_THREADS;
	/* libext2fs writes an e2image file's blocks (and -d's data) at their
	 * filesystem offsets, over the dump's header and tables: debugfs
	 * 1.47.0 -i -w destroys the file, so neither personality opens it */
	if ((flags & SESSION_RW) && (open_flags & EXT2_FLAG_IMAGE_FILE)) {
		out_error(s->out, session_prog(s), 0, "%s: an e2image file "
			  "opens read-only (a write would land over the "
			  "dump's own header and tables); to change the "
			  "filesystem, open the original, or convert the dump "
			  "(e2image -r %s RAW) and open RAW -w", device, device);
		return E2L_ERR_UNSAFE;
	}
	if (flags & SESSION_RW) {
		err = check_writable(s, device);
		if (!err)
			err = session_lock(s, device);
		if (err)
			return err;
		open_flags |= EXT2_FLAG_RW;
		/* taken after the open, once its block is read (mmp_take) */
		if (!(open_flags & EXT2_FLAG_SKIP_MMP))
			take_mmp = 1;
		open_flags |= EXT2_FLAG_SKIP_MMP;
	} else if (s->mount_flags & EXT2_MF_MOUNTED) {
		if (!s->debugfs)	/* debugfs says nothing */
			out_error(s->out, "e2layout", 0, "warning: %s is "
				  "mounted; what is shown is the on-disk "
				  "state, which may lag the kernel's", device);
		if (s->mount_point[0] &&
		    live_attach(s->mount_point, &s->live))
			s->live = NULL;	/* no kernel view; on-disk only */
	}

	/* debugfs sets up (and announces) an undo file read-only too; it
	 * is a new file only, written so that it always restores */
	if (undo_file && ((flags & SESSION_RW) || s->debugfs)) {
		err = undo_guard_open(s, session_prog(s), device, undo_file, 0,
				      &s->undo_guard);
		if (err) {
			live_free(s->live);
			s->live = NULL;
			session_unlock(s);
			return err;
		}
		io = undo_io_manager;
		if (s->debugfs)
			out_printf(s->out, "Overwriting existing filesystem; "
				   "this can be undone using the command:\n"
				   "    e2undo %s %s\n\n", undo_file, device);
	}

	for (;;) {
		err = ext2fs_open(device, open_flags, superblock, blocksize,
				  io, &s->fs);
		if (err == EXT2_ET_SB_CSUM_INVALID &&
		    !(open_flags & EXT2_FLAG_IGNORE_CSUM_ERRORS)) {
			out_printf(s->out, "Checksum errors in superblock!  "
					   "Retrying...\n");
			open_flags |= EXT2_FLAG_IGNORE_CSUM_ERRORS;
			continue;
		}
		break;
	}
	if (!err && (open_flags & EXT2_FLAG_SUPER_ONLY) &&
	    !group_desc_readable(s->fs)) {
		/* let a full open report the problem as it would have */
		ext2fs_close_free(&s->fs);
		open_flags &= ~EXT2_FLAG_SUPER_ONLY;
		open_flags |= EXT2_FLAG_THREADS;
		err = ext2fs_open(device, open_flags, superblock, blocksize,
				  io, &s->fs);
	}
	if (!err && !s->debugfs) {
		err = fs_bound_check(s, s->fs, device, flags);
		if (err) {
			ext2fs_close_free(&s->fs);
			s->fs = NULL;
			live_free(s->live);
			s->live = NULL;
			session_unlock(s);
			undo_guard_discard(&s->undo_guard);
			return err;
		}
	}
	if (!err && take_mmp) {
		err = mmp_take(s);
		if (err)
			ext2fs_close_free(&s->fs);
	}
	if (err) {
		s->fs = NULL;
		live_free(s->live);
		s->live = NULL;
		session_unlock(s);
		out_error(s->out, s->open_who ? s->open_who : session_prog(s),
			  err, "while trying to open %s", device);
		undo_guard_discard(&s->undo_guard);
		if (err == EXT2_ET_BAD_MAGIC)
			fs_probe_report(s->out, device);
		if (err == EXT2_ET_MAGIC_E2IMAGE && !s->debugfs)
			fs_source_not_e2image(s, device);
		return err;
	}
	/* before any write: records e2undo puts back where they were */
	err = s->undo_guard ? undo_guard_pin(s->fs) : 0;
	if (err) {
		out_error(s->out, session_prog(s), err, "while setting up the "
			  "undo file %s", undo_file);
		ext2fs_close_free(&s->fs);
		live_free(s->live);
		s->live = NULL;
		session_unlock(s);
		undo_guard_discard(&s->undo_guard);
		return err;
	}
	s->fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	/*
	 * A filesystem that needs journal recovery opens -w too: journal_run
	 * is what recovers it.  Layout plans refuse it when they are applied
	 * (plan_apply.c's check_safe).  debugfs reads the bitmaps now and
	 * gives the filesystem up when they cannot be read.
	 */
	if (s->debugfs && !(flags & SESSION_CATASTROPHIC)) {
		err = ext2fs_read_bitmaps(s->fs);
		if (err) {
			out_error(s->out, device, err,
				  "while reading allocation bitmaps");
			ext2fs_close_free(&s->fs);
			live_free(s->live);
			s->live = NULL;
			session_unlock(s);
			undo_guard_discard(&s->undo_guard);
			return err;
		}
	}

	s->device = strdup(device);
	s->undo_file = undo_file ? strdup(undo_file) : NULL;
	s->flags = flags;
	s->root = s->cwd = EXT2_ROOT_INO;
	s->loaded = s->fs->block_map && s->fs->inode_map ? NEED_BITMAPS : 0;
	s->rbtree_loaded = s->loaded;	/* read as debugfs reads them */
	return 0;
}

/*
 * A journal device (mke2fs -O journal_dev) holds no filesystem to open:
 * what it holds is told instead (its layout and users), and the open
 * fails.
 */
static errcode_t show_journal_device(struct session *s, const char *device)
{
	struct e2l_journal j = {.ext_user = -1};
	char u[37], users[96];
	errcode_t err;

	err = journal_ext_read(device, &j);
	if (err) {
		out_error(s->out, "e2layout", err, "while reading the journal "
			  "device %s", device);
		journal_release(&j);
		return err;
	}
	if (journal_user(&j, 0, u))
		snprintf(users, sizeof(users), "no filesystem");
	else if (j.sb_nr_users > JBD2_USERS_MAX)
		snprintf(users, sizeof(users), "UUID %s and others (a damaged "
			 "count of %u users)", u, (unsigned)j.sb_nr_users);
	else if (j.sb_nr_users > 1)
		snprintf(users, sizeof(users), "UUID %s and %u more", u,
			 (unsigned)j.sb_nr_users - 1);
	else
		snprintf(users, sizeof(users), "UUID %s", u);
	out_error(s->out, "e2layout", 0, "%s: this is an ext4 journal device "
		  "used by %s (mke2fs -O journal_dev); it holds a journal, "
		  "not a filesystem: open the filesystem (with --journal-dev "
		  "%s) to see it with its journal", device, users, device);
	journal_ext_print(s, &j);
	journal_release(&j);
	return E2L_ERR_BAD_ARGUMENT;
}

/* The last apply's undo file, once nothing more is written: finished,
 * and said so when it cannot restore. */
static errcode_t seal_apply_undo(struct session *s)
{
	char *path;
	errcode_t e;

	if (!s->apply_undo)
		return 0;
	path = strdup(undo_guard_path(s->apply_undo));
	e = undo_guard_close(&s->apply_undo, NULL, NULL);
	if (e)
		out_error(s->out, "e2layout", e, "while writing the undo file "
			  "%s: it cannot restore %s; run e2fsck -fn on it",
			  path ? path : "", s->device);
	free(path);
	return e;
}

errcode_t session_open(struct session *s, const char *device, unsigned flags,
		       const char *undo_file, blk64_t superblock,
		       unsigned blocksize)
{
	struct fs_head head;
	char *open_as = NULL;
	errcode_t err = 0;

	if (s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS; /* caller's bug */
	/* the file of an apply whose reopen failed: nothing more goes in */
	if (s->apply_undo && seal_apply_undo(s))
		s->failed = 1;
	/* a qcow2 dump or a partitioned disk: what to open instead (debugfs
	 * opens the named file as it is; so does -s) */
	if (!s->debugfs && s->partition &&
	    (s->extra_open_flags & EXT2_FLAG_IMAGE_FILE)) {
		out_error(s->out, "e2layout", 0, "--partition does not apply "
			  "to an e2image file (-i): e2image dumps one "
			  "filesystem, not a disk");
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (!s->debugfs && !superblock &&
	    !(s->extra_open_flags & EXT2_FLAG_IMAGE_FILE)) {
		/* one read of the first bytes serves both questions */
		fs_head_read(device, &head, 1);
		if (journal_ext_is_sb(head.b, head.n))
			return show_journal_device(s, device);
		err = fs_source_resolve(s, device, &head, flags, &open_as);
	}
	if (!err)
		err = open_device(s, open_as ? open_as : device, flags,
				  undo_file, superblock, blocksize);
	if (err)
		fs_source_release(s);
	free(open_as);
	return err;
}

void session_invalidate(struct session *s)
{
	owner_index_free(s->owners);
	s->owners = NULL;
}

/* Frees the debugfs sub-modes' state, which belongs to one handle. */
static void submodes_close(struct session *s)
{
	if (s->extent) {
		ext2fs_extent_free(s->extent);
		s->extent = NULL;
		free(s->extent_prompt);
		s->extent_prompt = NULL;
	}
	jt_session_free(s->journal);
	s->journal = NULL;
	s->no_bitmaps = false;
}

errcode_t session_reopen(struct session *s, io_manager io, int open_flags,
			 unsigned blocksize, unsigned need, unsigned how)
{
	errcode_t err = 0, e;

	session_invalidate(s);
	submodes_close(s);
	if (s->fs && (how & REOPEN_DISCARD))
		ext2fs_free(s->fs);
	else if (s->fs)	/* a close that fails still frees */
		err = ext2fs_close_free(&s->fs);
	s->fs = NULL;
	s->loaded = 0;
	if (s->apply_undo)	/* recording from the open on */
		io = undo_guard_manager(s->apply_undo);
	e = ext2fs_open(s->device, open_flags, 0, blocksize, io, &s->fs);
	if (e) {
		s->fs = NULL;
		return err ? err : e;
	}
	s->fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;
	e = need ? session_need(s, need) : 0;
	return err ? err : e;
}

errcode_t session_close(struct session *s)
{
	errcode_t err = 0, e;

	plan_free(s->plan);
	s->plan = NULL;
	undo_list_free(s);
	free(s->mmp_found);
	s->mmp_found = NULL;
	if (!s->fs) {
		err = seal_apply_undo(s);
		session_unlock(s);
		return err;
	}
	session_invalidate(s);
	submodes_close(s);
	/* as debugfs: dirty bitmaps are written (or refused, read-only) */
	if (s->fs->flags & EXT2_FLAG_IB_DIRTY) {
		e = ext2fs_write_inode_bitmap(s->fs);
		if (e) {
			out_error(s->out, "ext2fs_write_inode_bitmap",
				  e, NULL);
			err = e;
		}
	}
	if (s->fs->flags & EXT2_FLAG_BB_DIRTY) {
		e = ext2fs_write_block_bitmap(s->fs);
		if (e) {
			out_error(s->out, "ext2fs_write_block_bitmap",
				  e, NULL);
			err = e;
		}
	}
	e = ext2fs_close_free(&s->fs);
	if (e) {
		out_error(s->out, "ext2fs_close", e, NULL);
		err = e;
	}
	e = seal_apply_undo(s);	/* after the close's last write */
	if (e)
		err = e;
	if (s->undo_guard) {
		e = undo_guard_close(&s->undo_guard, NULL, NULL);
		if (e) {
			out_error(s->out, "e2layout", e, "while writing the "
				  "undo file %s: it cannot restore %s; run "
				  "e2fsck -fn on it", s->undo_file, s->device);
			err = e;
		}
	}
	ldf_plan_free(s->live_plan);
	s->live_plan = NULL;
	live_free(s->live);
	s->live = NULL;
	free(s->device);
	free(s->undo_file);
	s->device = s->undo_file = NULL;
	fs_source_release(s);
	s->loaded = 0;
	session_unlock(s);	/* after the last write */
	s->fs_changed = s->wrote = false;
	return err;
}
