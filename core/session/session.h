/* session.h - one open filesystem and everything the commands share about
 * it: the libext2fs handle, cwd/root, flags, the output sink and the lazily
 * built models.  No globals: a test may hold two sessions at once. */
#ifndef E2L_SESSION_H
#define E2L_SESSION_H

#include <ext2fs/ext2fs.h>
#include <stdbool.h>
#include <time.h>

#include "sink.h"

/* Open flags. */
#define SESSION_RW		0x0001	/* -w: open read-write */
#define SESSION_CATASTROPHIC	0x0002	/* -c: ignore bitmaps, sb errors */
#define SESSION_FORCE_UNDO	0x0004	/* an undo file is wanted */

/* Models a command may ask for (session_need). */
#define NEED_BLOCK_BITMAP	0x0001
#define NEED_INODE_BITMAP	0x0002
#define NEED_BITMAPS		(NEED_BLOCK_BITMAP | NEED_INODE_BITMAP)
/* Every group descriptor in memory (a read-only session opens with the
 * superblock only and reads descriptors one block at a time on demand;
 * commands walking all groups ask for the whole table in one read). */
#define NEED_GROUP_DESC		0x0004

struct owner_index;	/* core/model/owner.c */
struct plan;		/* core/plan/plan.h: the editor's current plan */
struct live_info;	/* core/live/live.c */
struct undo_guard;	/* core/plan/undo_guard.h */
struct ldf_plan;	/* core/live/live_defrag.h */
struct jt_session;	/* core/plan/jtrans.h: debugfs's open journal */

struct session {
	ext2_filsys fs;		/* NULL when no filesystem is open */
	char *device;
	unsigned flags;
	char *undo_file;	/* -z FILE, or NULL */
	struct undo_guard *undo_guard;	/* -z: how it is written */
	/* the undo file of the session's last apply, still recording: every
	 * write to the device from that apply to the filesystem's close (a
	 * request, a reopen, the close itself) goes into it (undo_guard.h);
	 * an apply with a new undo file takes over from it */
	struct undo_guard *apply_undo;
	/* a -w open of an MMP filesystem: its MMP block as found, before the
	 * session took it (what an undo file puts back), or NULL */
	unsigned char *mmp_found;
	blk64_t mmp_found_blk;
	char **undo_files;	/* "e2undo FILE DEVICE" for each undo file
				 * an apply wrote (undo_guard.h) */
	size_t n_undo_files;
	ext2_ino_t root, cwd;
	struct sink *out;
	int mount_flags;	/* EXT2_MF_* from ext2fs_check_mount_point */
	char mount_point[256];
	time_t now;		/* set_current_time; 0 means the real clock */
	unsigned loaded;	/* NEED_* bits already satisfied */
	struct owner_index *owners;	/* built on first use */
	struct plan *plan;	/* current layout plan, or NULL */
	bool plan_only;		/* `plan OP`: build and show, never apply */
	bool debugfs_bitmaps;	/* bitmaps load as debugfs loads them (its
				   rbtree, whose answers on a damaged bitmap
				   debugfs's requests must match); set by the
				   dispatcher for debugfs's requests and in
				   the debugfs personality */
	unsigned rbtree_loaded;	/* NEED_*_BITMAP bits loaded as an rbtree
				   (the others are bit arrays) */
	struct live_info *live;	/* mounted, opened read-only: the kernel's
				 * view is available (core/live/live.h) */
	struct ldf_plan *live_plan;	/* live defrag's current plan (its
					 * donors held open), or NULL */
	int failed;		/* any command failed (for the exit status) */
	/* debugfs's extent sub-mode (extent_open): the open handle, or NULL */
	ext2_extent_handle_t extent;
	ext2_ino_t extent_ino;
	char *extent_prompt;
	/* debugfs's journal sub-mode (journal_open .. journal_close): the
	 * open journal, or NULL; closed with the filesystem */
	struct jt_session *journal;
	/* journal_run reopened the filesystem without its bitmaps, as
	 * debugfs does: bitmap-needing journal requests refuse until the
	 * filesystem is opened again */
	bool no_bitmaps;
	/* set by the open request: more EXT2_FLAG_* bits for ext2fs_open and
	 * the program name its errors carry (NULL: "e2layout") */
	int extra_open_flags;
	const char *open_who;
	bool quit;		/* quit requested */
	/* The personality, decided once by main.c: false is e2layout's own
	 * (its names, its exit statuses); true is debugfs 1.47.0's (run as
	 * "debugfs" or with --debugfs: debugfs's messages, open semantics
	 * and exit statuses; see help/topics/debugfs.txt).  Checks that
	 * only e2layout makes (e.g. refusing -w with -s) skip it. */
	bool debugfs;
	/* debugfs personality: the requests come from its listener (the
	 * shell or a pipe), whose message for an unknown request differs
	 * from -R's and -f's */
	bool listening;
	unsigned unknown;	/* lines debugfs's request library could not
				   run (no such request, a failed "!"):
				   debugfs's -R and -f exit statuses */
	/* plan_apply's progress (the TUI's bar), or NULL: called after each
	 * write with the blocks written so far and about how many it will
	 * write in all (done may pass total: bitmaps, descriptors). */
	void (*apply_progress)(void *ctx, unsigned long long done,
			       unsigned long long total);
	void *apply_progress_ctx;
	/* the consistency check before an apply (e2fsck -fn, plan_gate.c):
	 * called with its progress, 0 to 100, or NULL */
	void (*check_progress)(void *ctx, int pct);
	void *check_progress_ctx;
	/* -w: the writer's lock, held from open to close (session_lock.c):
	 * a flock'ed descriptor of the image or an O_EXCL one of the block
	 * device; -1 when none */
	int lock_fd;
	/* the filesystem changed on disk under this -w session (another
	 * writer): it applies and writes nothing more (plan_gate.c) */
	bool fs_changed;
	/* this session wrote (or let an apply write) since it opened: the
	 * next apply runs e2fsck -fn whatever s_lastcheck says */
	bool wrote;
	/* what was opened when the named file is not ext2/3/4 itself
	 * (fs_source.h): --partition N (0: none named), the name headers
	 * show ("disk.img partition 2 (GPT, ...)"), and the descriptor of a
	 * qcow2 image's unlinked raw copy (-1: none) */
	int partition;
	char *source_name;
	int source_fd;
	/* the chosen partition's number and size in bytes (0: no partition,
	 * or IMG?offset= not at a partition's start), which the filesystem
	 * must fit for -w (fs_bound_check) */
	int source_part;
	unsigned long long source_bytes;
	/* --journal-dev PATH: the external journal's device, or NULL (then
	 * found by its UUID through libblkid) */
	const char *journal_dev;
};

/* Prepares an empty session writing to out. */
void session_init(struct session *s, struct sink *out);

/*
 * Opens device (or the device mounted on directory device) with the
 * SESSION_* flags; a mounted filesystem opened read-only is live (s->live).
 * Read-only unless SESSION_RW.
 * Refuses SESSION_RW (EBUSY) on a mounted filesystem; one needing journal
 * recovery opens (journal_run recovers it; layout plans refuse it at
 * apply).  On refusal or failure the reason goes to s->out as an error
 * and the session stays closed.  undo_file, when set, routes every write
 * through libext2fs's undo manager.  In the debugfs personality the open
 * is debugfs's: -c keeps -w, the bitmaps are read at once (a failure
 * closes the filesystem again), an undo file is announced and kept even
 * read-only.
 */
errcode_t session_open(struct session *s, const char *device, unsigned flags,
		       const char *undo_file, blk64_t superblock,
		       unsigned blocksize);

/* Closes the filesystem (writing it back when opened -w) and frees models. */
errcode_t session_close(struct session *s);

/* session_reopen's how. */
#define REOPEN_DISCARD	0x0001	/* free the old handle without writing it
				 * back (its changes are already on disk) */

/*
 * Replaces the session's filesystem handle by a new one on the same device,
 * opened with open_flags (EXT2_FLAG_*) and blocksize (0: found) through io
 * (unix_io_manager, or undo_io_manager set up by the caller; while an
 * apply's undo file records, always through it); everything
 * else (device, lock, undo files, plan) stays.  What belonged to the old
 * handle goes first: the models, the extent sub-mode's handle, the open
 * journal.  The old handle is closed (written back) unless how has
 * REOPEN_DISCARD; need (NEED_*) is loaded after the open.  Returns the
 * first error (a failed close still reopens); on a failed open s->fs is
 * NULL.  Prints nothing.
 */
errcode_t session_reopen(struct session *s, io_manager io, int open_flags,
			 unsigned blocksize, unsigned need, unsigned how);

/*
 * One writer at a time (session_lock.c).  session_lock takes the exclusive
 * lock of a -w session on device: flock(LOCK_EX|LOCK_NB) on an image file,
 * an O_EXCL open of a block device (which keeps out e2fsck -fy, mount and
 * other exclusive openers too).  When another holds it, prints who (when
 * /proc tells) and returns E2L_ERR_LOCKED.  session_unlock releases it.
 */
errcode_t session_lock(struct session *s, const char *device);
void session_unlock(struct session *s);
/* Prints that device is held exclusively by another program (when it can,
 * which one) and returns E2L_ERR_LOCKED. */
errcode_t session_lock_busy(struct session *s, const char *device);

/*
 * The refusal of -w with -s (a backup superblock): opened that way,
 * libext2fs rewrites the primary superblock and the descriptors from the
 * backup when it closes.  True (after printing why, with a pointer to
 * e2fsck -b) when flags ask for -w and superblock is set.  The command line
 * (main.c) and the open request (open.c) call it; a personality that
 * must behave as debugfs does may skip the call.
 */
bool session_refuse_rw_backup_sb(struct sink *out, const char *who,
				 const char *device, unsigned flags,
				 blk64_t superblock, unsigned blocksize);

/*
 * Makes sure the NEED_* models are loaded.  Cheap when they already are.
 * Commands declare what they need in their cmd_entry; the dispatcher calls
 * this, so handlers rarely do.
 */
/* Makes the next bitmaps fs allocates (of bits bits) a bit array when that
 * is at most 16 MiB, else an rbtree. */
void session_bitmap_type(ext2_filsys fs, unsigned long long bits);
errcode_t session_need(struct session *s, unsigned need);
/* Reads every descriptor block into fs->group_desc (after a
 * superblock-only open), as ext2fs_open would have: contiguous blocks in
 * one read.  0 at once when they are loaded. */
errcode_t session_load_group_desc(ext2_filsys fs);

/* The bitmap type (EXT2FS_BMAP64_*) the current request wants for
 * which (NEED_INODE_BITMAP or NEED_BLOCK_BITMAP): debugfs's rbtree for
 * debugfs's requests, else a bit array up to 16 MiB. */
int session_bitmap_want(const struct session *s, unsigned which);
/* Records that which was just loaded in fs->default_bitmap_type. */
void session_bitmap_loaded(struct session *s, unsigned which);
/* Rebuilds each loaded bitmap of need whose type is not the one the current
 * request wants, keeping its bits (unwritten changes included). */
errcode_t session_bitmaps_retype(struct session *s, unsigned need);

/* What the session shows as its filesystem's name: s->source_name when
 * it opened a partition or a converted qcow2, else s->device. */
const char *session_name(const struct session *s);

/* The program's name in messages: "debugfs" or "e2layout". */
const char *session_prog(const struct session *s);

/* The time debugfs-style commands treat as "now". */
time_t session_now(const struct session *s);

/* Frees everything built from the filesystem's contents (after a write). */
void session_invalidate(struct session *s);

#endif
