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

struct owner_index;	/* core/owner.c */
struct plan;		/* core/plan.h: the editor's current plan */
struct live_info;	/* core/live.c */
struct undo_guard;	/* core/undo_guard.h */

struct session {
	ext2_filsys fs;		/* NULL when no filesystem is open */
	char *device;
	unsigned flags;
	char *undo_file;	/* -z FILE, or NULL */
	struct undo_guard *undo_guard;	/* -z: how it is written */
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
	struct live_info *live;	/* mounted, opened read-only: the kernel's
				 * view is available (core/live.h) */
	int failed;		/* any command failed (for the exit status) */
	/* debugfs's extent sub-mode (extent_open): the open handle, or NULL */
	ext2_extent_handle_t extent;
	ext2_ino_t extent_ino;
	char *extent_prompt;
	/* set by the open request: more EXT2_FLAG_* bits for ext2fs_open and
	 * the program name its errors carry (NULL: "e2layout") */
	int extra_open_flags;
	const char *open_who;
	bool quit;		/* quit requested */
	/* plan_apply's progress (the TUI's bar), or NULL: called after each
	 * write with the blocks written so far and about how many it will
	 * write in all (done may pass total: bitmaps, descriptors). */
	void (*apply_progress)(void *ctx, unsigned long long done,
			       unsigned long long total);
	void *apply_progress_ctx;
};

/* Prepares an empty session writing to out. */
void session_init(struct session *s, struct sink *out);

/*
 * Opens device (or the device mounted on directory device) with the
 * SESSION_* flags; a mounted filesystem opened read-only is live (s->live).
 * Read-only unless SESSION_RW.
 * Refuses SESSION_RW (EXT2_ET_RO_FILSYS... see session.c) on a mounted
 * filesystem or one needing journal recovery; on refusal or failure the
 * reason goes to s->out as an error and the session stays closed.
 * undo_file, when set, routes every write through libext2fs's undo manager.
 */
errcode_t session_open(struct session *s, const char *device, unsigned flags,
		       const char *undo_file, blk64_t superblock,
		       unsigned blocksize);

/* Closes the filesystem (writing it back when opened -w) and frees models. */
errcode_t session_close(struct session *s);

/*
 * Makes sure the NEED_* models are loaded.  Cheap when they already are.
 * Commands declare what they need in their cmd_entry; the dispatcher calls
 * this, so handlers rarely do.
 */
errcode_t session_need(struct session *s, unsigned need);

/* The time debugfs-style commands treat as "now". */
time_t session_now(const struct session *s);

/* Frees everything built from the filesystem's contents (after a write). */
void session_invalidate(struct session *s);

#endif
