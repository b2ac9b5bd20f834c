/* undo_guard.h - where e2layout's undo files go and how they are written:
 * a path that cannot hurt (undo_path.c) and a file that stays restorable
 * at every moment of an apply (undo_guard.c). */
#ifndef E2L_UNDO_GUARD_H
#define E2L_UNDO_GUARD_H

#include "session.h"

struct plan;
struct undo_guard;

/*
 * Checks that path is a safe name for a new undo file of device (the
 * image or device being opened or open): nothing exists there (no file, no
 * symbolic link, dangling or not, no device node; the device or image
 * itself, through any name, is said so),
 * and its directory exists, is a directory, is writable and has room for
 * worst_bytes (0: no room check).  Prints why not, naming the undo file
 * (who: the request), and returns E2L_ERR_UNDO_PATH; 0 when it is safe.
 */
errcode_t undo_path_check(struct session *s, const char *who,
			  const char *device, const char *path,
			  unsigned long long worst_bytes);

/*
 * Checks that the filesystem holding the existing undo file path (the
 * session's -z file) has room for worst_bytes more.  Prints why not and
 * returns E2L_ERR_UNDO_PATH.
 */
errcode_t undo_path_room(struct session *s, const char *who,
			 const char *path, unsigned long long worst_bytes);

/*
 * The default undo file name for the session's device: in
 * $E2LAYOUT_UNDO_DIR, else beside an image file (in /var/tmp for a device),
 * e2layout-NAME-YYYYmmdd-HHMMSS.e2undo, with -2, -3... added until the name
 * is free.  Returns a malloc'd path, or NULL when out of memory.
 */
char *undo_path_default(struct session *s);

/*
 * The most bytes the undo file of plan p (the whole chain) can grow to:
 * every block the plan writes and the metadata apply rewrites (bitmaps,
 * descriptors and their backups, the inode, the journal's transaction),
 * each rounded to whole undo records, plus the file's header and index.
 */
unsigned long long undo_plan_worst(ext2_filsys fs, const struct plan *p);

/*
 * Before plan p (the whole chain) is applied through the channel g records:
 * the old contents of every block its data steps write (copies, zeros,
 * mapping blocks) saved by undo_guard_presave_ahead, while the apply goes
 * on behind it.
 */
errcode_t undo_plan_presave(ext2_filsys fs, const struct plan *p,
			    struct undo_guard *g);

/*
 * Creates the undo file path of device (after undo_path_check) with
 * O_CREAT|O_EXCL|O_NOFOLLOW and makes libext2fs's undo manager record into
 * that file, and no other, through a channel of e2layout's: each record is
 * written straight to the file, its header always says complete, and its
 * copy of the superblock follows the device's, so that wherever the writes
 * stop (an error, a kill, a crash of e2layout) `e2undo PATH DEVICE` puts
 * the device back byte for byte.  Then open the filesystem with
 * undo_io_manager (a session's -z file); one such guard at a time per
 * process (libext2fs's undo settings are process-wide).  Prints why not,
 * naming the undo file.
 */
errcode_t undo_guard_open(struct session *s, const char *who,
			  const char *device, const char *path,
			  unsigned long long worst_bytes,
			  struct undo_guard **gp);

/*
 * The same new file for apply's own writer (undo_writer.c), which records
 * a channel once undo_guard_attach puts it there.  Prints why not.
 */
errcode_t undo_guard_new(struct session *s, const char *who,
			 const char *device, const char *path,
			 unsigned long long worst_bytes,
			 struct undo_guard **gp);

/* Bytes [off, off + len) of the filesystem. */
struct undo_span {
	unsigned long long off, len;
};

/*
 * Before an apply writes: the old contents of every span (sorted here, in
 * place) saved in g's file in large sequential reads and writes, and the
 * file made durable once, so that the writes through the channel g
 * records find them saved.  After undo_guard_attach; on an error the
 * device is unchanged and g's file still restores what it recorded.
 */
errcode_t undo_guard_presave(struct undo_guard *g, struct undo_span *sp,
			     size_t n);

/*
 * The same, run ahead of the apply: returns once a thread of its own saves
 * the spans in order (sp is not kept), committing every 16 MiB; each write
 * through the channel then waits only until what it covers is durable
 * (any other use of the file waits for the whole presave).  An error of
 * the presave is g's file's: the writes it did not cover are refused, and
 * the file restores every write made.
 */
errcode_t undo_guard_presave_ahead(struct undo_guard *g,
				   struct undo_span *sp, size_t n);

/*
 * What g's file restores bytes [off, off + len) of the filesystem to, when
 * they are written, instead of what the device holds then: the MMP block
 * as the session found it, before its -w open took it (the block the
 * device holds while a session writes says "in use", never a state to put
 * back).  Before undo_guard_attach.
 */
errcode_t undo_guard_preimage(struct undo_guard *g, unsigned long long off,
			      const void *data, size_t len);

/*
 * Starts g's file (its header, the superblock copy, the preimage recorded)
 * after flushing ch, and from then on every write through ch has the old
 * contents it covers saved in the file first, until ch is closed; a
 * session reopening meanwhile opens with undo_guard_manager(g).  When
 * another guard recorded ch until now, it records no more and is returned
 * in *prev for the caller to close: nothing reached the device between
 * the two files, so they restore one after the other.  On an error
 * nothing changed (a *prev keeps recording).
 */
errcode_t undo_guard_attach(struct undo_guard *g, io_channel ch,
			    struct undo_guard **prev);

/*
 * The io manager a session that records into g (attached) reopens its
 * filesystem with: unix I/O, its writes recorded into g from the open on
 * (the MMP block libext2fs's open writes included).  NULL without g's
 * writer.  One opening at a time per process (an io manager's open has no
 * context pointer).
 */
io_manager undo_guard_manager(struct undo_guard *g);

/*
 * Flushes the channel g records (if any) and finishes g there: every later
 * write through that channel is refused (E2L_ERR_UNDO_SEALED), so that
 * nothing changes the device behind the file.  undo_guard_close does it.
 */
void undo_guard_detach(struct undo_guard *g);

/*
 * What g's file is worth now, while it may still record: 0 when it
 * restores the device byte for byte, else the error that made it stale;
 * *write_err the first failed write to it (after which only blocks it
 * holds already, never the superblock, may change), *recorded whether it
 * holds a header.
 */
errcode_t undo_guard_state(struct undo_guard *g, errcode_t *write_err,
			   int *recorded);

/*
 * The command that restores device (the session's name: IMAGE?offset=N
 * included) from the undo file path: "e2undo [-o N] PATH IMAGE", which
 * e2undo can open.  malloc'd, or NULL when out of memory.
 */
char *undo_restore_cmd(const char *path, const char *device);

/*
 * After the filesystem it recorded is closed (a channel still recording is
 * finished first, undo_guard_detach): frees the guard and says what the
 * file is worth.  Returns 0
 * when it restores the device byte for byte; otherwise the error that made
 * it stale.  *write_err (may be NULL) gets the first failed write to the
 * undo file (after which no unrecorded write reached the device), or 0;
 * *recorded (may be NULL) whether it holds a header at all (without one,
 * nothing was written to the device).
 */
errcode_t undo_guard_close(struct undo_guard **gp, errcode_t *write_err,
			   int *recorded);

/*
 * For an open that failed: closes the guard as undo_guard_close does and,
 * when nothing was written to the device through it, removes the file it
 * created (O_EXCL: always a new one of ours), so that a failed open leaves
 * no undo file behind.  A file that may hold a record (a write reached the
 * device) or that its path no longer names is kept.
 */
errcode_t undo_guard_discard(struct undo_guard **gp);

/*
 * Fixes the record size of the undo channel fs was just opened through
 * (undo_io_manager), before anything is written: 32 KiB chunks (as mke2fs
 * asks; far fewer index entries than one per block), or the block size
 * when it is larger.  Left alone, the undo manager takes the channel's
 * block size of its first write, which is 1024 when that write is the
 * primary superblock, and a 1 KiB record size on a larger-block filesystem
 * puts every record at the start of its block when e2undo replays it (the
 * guard refuses to record so; nothing is written then).
 */
errcode_t undo_guard_pin(ext2_filsys fs);

/* The path an open guard records into (as the operator named it). */
const char *undo_guard_path(const struct undo_guard *g);

/* The session's list of undo files its applies wrote (session.h). */
errcode_t undo_list_add(struct session *s, const char *path);
void undo_list_free(struct session *s);
/*
 * At the end of an interactive session (the TUI, the shell): each undo
 * file the session wrote and the e2undo command for it, newest first (the
 * order to run them in), on the error channel.  Nothing when none.
 */
void undo_list_report(struct session *s);

#endif
