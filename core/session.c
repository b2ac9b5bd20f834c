/* session.c - opening and closing a filesystem safely, and loading what the
 * commands need only when they first need it. */
#include "session.h"
#include "live.h"
#include "owner.h"
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void session_init(struct session *s, struct sink *out)
{
	memset(s, 0, sizeof(*s));
	s->out = out;
}

time_t session_now(const struct session *s)
{
	return s->now ? s->now : time(NULL);
}

/* Refuses to write where a write could lose data; prints why. */
static errcode_t check_writable(struct session *s, const char *device)
{
	if (s->mount_flags & EXT2_MF_MOUNTED) {
		out_error(s->out, "e2layout", 0,
			  "%s is mounted%s%s; refusing to open it read-write "
			  "(the kernel owns it: writing could corrupt it)",
			  device, s->mount_point[0] ? " on " : "",
			  s->mount_point);
		return EBUSY;
	}
	if (s->mount_flags & EXT2_MF_BUSY) {
		out_error(s->out, "e2layout", 0,
			  "%s is in use by the system; refusing to open it "
			  "read-write", device);
		return EBUSY;
	}
	return 0;
}

errcode_t session_open(struct session *s, const char *device, unsigned flags,
		       const char *undo_file, blk64_t superblock,
		       unsigned blocksize)
{
	int open_flags = EXT2_FLAG_SOFTSUPP_FEATURES | EXT2_FLAG_64BITS |
			 EXT2_FLAG_THREADS | s->extra_open_flags;
	io_manager io = unix_io_manager;
	char dev[PATH_MAX];
	struct stat st;
	errcode_t err;

	if (s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS; /* caller's bug */
	if (!stat(device, &st) && S_ISDIR(st.st_mode)) {
		/* a mount point (or any directory of a mounted ext*) */
		err = live_device_of_dir(device, dev, sizeof(dev));
		if (err) {
			out_error(s->out, "e2layout", 0, "%s is a directory on "
				  "no mounted ext2/3/4 filesystem", device);
			return err;
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
		if (flags & SESSION_RW) {
			out_error(s->out, device, 0,
				  "opening read-only because of catastrophic "
				  "mode");
			flags &= ~SESSION_RW;
		}
		open_flags |= EXT2_FLAG_SKIP_MMP | EXT2_FLAG_IGNORE_SB_ERRORS;
	}
	if (flags & SESSION_RW) {
		err = check_writable(s, device);
		if (err)
			return err;
		open_flags |= EXT2_FLAG_RW;
		if (undo_file) {
			err = set_undo_io_backing_manager(unix_io_manager);
			if (!err)
				err = set_undo_io_backup_file((char *)undo_file);
			if (err) {
				out_error(s->out, undo_file, err,
					  "while setting up the undo file");
				return err;
			}
			io = undo_io_manager;
		}
	} else if (s->mount_flags & EXT2_MF_MOUNTED) {
		out_error(s->out, "e2layout", 0,
			  "warning: %s is mounted; what is shown is the "
			  "on-disk state, which may lag the kernel's", device);
		if (s->mount_point[0] &&
		    live_attach(s->mount_point, &s->live))
			s->live = NULL;	/* no kernel view; on-disk only */
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
	if (err) {
		s->fs = NULL;
		live_free(s->live);
		s->live = NULL;
		out_error(s->out, s->open_who ? s->open_who : "e2layout", err,
			  "while trying to open %s", device);
		return err;
	}
	s->fs->default_bitmap_type = EXT2FS_BMAP64_RBTREE;

	if ((flags & SESSION_RW) &&
	    ext2fs_has_feature_journal_needs_recovery(s->fs->super)) {
		out_error(s->out, "e2layout", 0,
			  "%s needs journal recovery; refusing to open it "
			  "read-write (run e2fsck first)", device);
		ext2fs_close_free(&s->fs);
		live_free(s->live);
		s->live = NULL;
		return EXT2_ET_FILE_RO;
	}

	s->device = strdup(device);
	s->undo_file = undo_file ? strdup(undo_file) : NULL;
	s->flags = flags;
	s->root = s->cwd = EXT2_ROOT_INO;
	s->loaded = 0;
	return 0;
}

void session_invalidate(struct session *s)
{
	owner_index_free(s->owners);
	s->owners = NULL;
}

errcode_t session_close(struct session *s)
{
	errcode_t err = 0, e;

	plan_free(s->plan);
	s->plan = NULL;
	if (!s->fs)
		return 0;
	session_invalidate(s);
	if (s->extent) {
		ext2fs_extent_free(s->extent);
		s->extent = NULL;
		free(s->extent_prompt);
		s->extent_prompt = NULL;
	}
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
	live_free(s->live);
	s->live = NULL;
	free(s->device);
	free(s->undo_file);
	s->device = s->undo_file = NULL;
	s->loaded = 0;
	return err;
}

errcode_t session_need(struct session *s, unsigned need)
{
	errcode_t err;

	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	need &= ~s->loaded;
	if (!need)
		return 0;
	if (s->flags & SESSION_CATASTROPHIC)
		return EXT2_ET_NO_BLOCK_BITMAP;
	/*
	 * TODO(perf): load per group on demand (most groups of a large
	 * filesystem are BLOCK_UNINIT); the API already lets callers say
	 * what they need so that this can change without touching them.
	 */
	if (need & NEED_INODE_BITMAP) {
		err = ext2fs_read_inode_bitmap(s->fs);
		if (err)
			return err;
		s->loaded |= NEED_INODE_BITMAP;
	}
	if (need & NEED_BLOCK_BITMAP) {
		err = ext2fs_read_block_bitmap(s->fs);
		if (err)
			return err;
		s->loaded |= NEED_BLOCK_BITMAP;
	}
	return 0;
}
