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
 * Creates the undo file path of device (after undo_path_check) with
 * O_CREAT|O_EXCL|O_NOFOLLOW and makes libext2fs's undo manager record into
 * that file, and no other, through a channel of e2layout's: each record is
 * written straight to the file, its header always says complete, and its
 * copy of the superblock follows the device's, so that wherever the writes
 * stop (an error, a kill, a crash of e2layout) `e2undo PATH DEVICE` puts
 * the device back byte for byte.  Then open the filesystem with
 * undo_io_manager (a session's -z file) or undo_guard_manager(g) (apply's
 * own writer); one guard at a time per process (libext2fs's undo settings
 * and the managers' open are process-wide).  Prints why not, naming the
 * undo file.
 */
errcode_t undo_guard_open(struct session *s, const char *who,
			  const char *device, const char *path,
			  unsigned long long worst_bytes,
			  struct undo_guard **gp);

/*
 * The io manager apply opens the filesystem with to record into g's file
 * (undo_writer.c): e2layout's own writer of the e2undo format over unix
 * I/O.  Before each write reaches the device, the old contents of the
 * blocks it covers that were not saved yet are read in runs of up to 2 MiB,
 * appended with their keys (zeros as holes in the file), the key block and
 * header rewritten and the file made durable (fdatasync); its superblock
 * copy follows the device's as undo_guard_open's does.  NULL without g.
 */
io_manager undo_guard_manager(struct undo_guard *g);

/*
 * After the undo channel is closed (the filesystem closed or reopened
 * without it): frees the guard and says what the file is worth.  Returns 0
 * when it restores the device byte for byte; otherwise the error that made
 * it stale.  *write_err (may be NULL) gets the first failed write to the
 * undo file (after which no unrecorded write reached the device), or 0;
 * *recorded (may be NULL) whether it holds a header at all (without one,
 * nothing was written to the device).
 */
errcode_t undo_guard_close(struct undo_guard **gp, errcode_t *write_err,
			   int *recorded);

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
