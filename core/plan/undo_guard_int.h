/* undo_guard_int.h - what the two writers of e2layout's undo files share
 * (undo_guard.c: libext2fs's undo manager through our channels; undo_writer.c:
 * e2layout's own writer of the same format for apply, on the session's
 * channel through undo_layer.c): the guard's state, the header's layout and
 * the superblock copy that follows the device. */
#ifndef E2L_UNDO_GUARD_INT_H
#define E2L_UNDO_GUARD_INT_H

#include "undo_guard.h"

#include <sys/types.h>

/*
 * The e2undo file (E2UNDO02, lib/ext2fs/undo_io.c and misc/e2undo.c): a
 * 512-byte header at offset 0, a copy of the device's superblock (its
 * magic inverted) at super_offset undo blocks, then key blocks and the
 * saved data.  e2undo replays only when the header's checksum holds, the
 * copy equals the device's superblock and its crc is the header's sb_crc;
 * a header without the "finished" state makes it mark the filesystem for
 * checking afterwards (so the result is no longer the old image).
 */
#define UH_SIZE		512
#define UH_SUPER	16	/* __le64: where the superblock copy is */
#define UH_BLKSIZE	32	/* __le32: the undo file's block size */
#define UH_FS_BLKSIZE	36	/* __le32: the unit of the keys' fsblk */
#define UH_SB_CRC	40	/* __le32: crc32c of the superblock */
#define UH_STATE	44	/* __le32: E2UNDO_STATE_* */
#define UH_CRC		508	/* __le32: crc32c of the bytes before it */
#define UH_FINISHED	0x1
#define SB_OFFSET	1024
#define SB_SIZE		1024
#define SB_MAGIC	56	/* s_magic's offset in the superblock */
#define SB_LOG_BSIZE	24	/* s_log_block_size */

struct undo_writer;	/* undo_writer.c: what apply's file holds */
struct uw_layer;	/* undo_writer.c: the channel it records */

struct undo_guard {
	int fd;			/* the undo file, created by us */
	int devfd;		/* the device, read-only: its superblock */
	char *path;		/* as the operator named it */
	char *token;		/* the name the undo manager opens */
	errcode_t err;		/* first failed write; later ones refused */
	int stale;		/* the superblock copy could not follow */
	int have_hdr, have_sb;
	unsigned char hdr[UH_SIZE];	/* as last written, sealed */
	unsigned char sb[SB_SIZE];	/* the superblock the file holds */
	unsigned long long sb_off;
	long fault;		/* E2L_FAULT_UNDO_WRITES=k: the k-th fails */
	unsigned long long fs_offset;	/* IMAGE?offset=N: where the fs is */
	struct undo_writer *w;	/* apply's own writer (NULL: libext2fs's) */
	struct uw_layer *layer;	/* the channel it records, or NULL */
	unsigned long dev_writes;	/* writes that went to the device */
};


/* Little-endian fields of the header and key blocks. */
__u32 ug_get32(const unsigned char *p);
void ug_put32(unsigned char *p, __u32 v);
unsigned long long ug_get64(const unsigned char *p);
void ug_put64(unsigned char *p, unsigned long long v);
/* pwrite(2) of all len bytes at off, retried; errno or ENOSPC. */
errcode_t ug_put_at(int fd, const void *buf, size_t len, off_t off);
/* Fills in g->hdr's sb_crc, fs_block_size, state (complete) and crc. */
void ug_seal_header(struct undo_guard *g);
/* Seals g->hdr and writes it at offset 0 (not counted as a fault). */
errcode_t ug_put_header(struct undo_guard *g);
/* Writes sb's copy (magic inverted) at g->sb_off and keeps it in g->sb. */
errcode_t ug_put_sb(struct undo_guard *g, const unsigned char *sb);
/* Reads the device's superblock (at the filesystem's offset): 1 if read. */
int ug_dev_sb(struct undo_guard *g, unsigned char *sb);
/* The copy and header follow the device's superblock when it changed;
 * g->stale when they cannot. */
void ug_follow_sb(struct undo_guard *g);
/* The guard libext2fs's undo manager records into (-z), or NULL. */
struct undo_guard *ug_active(void);
/* The backing manager libext2fs's undo manager is set up with
 * (undo_channels.c): it opens the active guard's file as our own channel
 * and the device as unix I/O whose writes the guard follows. */
io_manager ug_backing_manager(void);
/* Apply's writer of g (undo_writer.c): made with the guard, freed with it
 * (after the channel it recorded is closed or handed over). */
errcode_t uw_new(struct undo_guard *g);
/* The data write apply's writer has in flight, finished (before the file
 * is synced or closed; a failure is the guard's err). */
void uw_settle(struct undo_guard *g);
void uw_free(struct undo_guard *g);
/* The file's header, superblock copy and preimage, before it records. */
errcode_t uw_begin(struct undo_guard *g);
/* Before bytes [off, off + len) of the filesystem are written: what they
 * hold saved in g's file (0), or why the write must not be made. */
errcode_t uw_save(struct undo_guard *g, unsigned long long off,
		  unsigned long long len);
/* After a write of [off, off + len) (0, 0: a flush, flushed when it
 * succeeded): the superblock copy follows the device's. */
void uw_follow(struct undo_guard *g, unsigned long long off,
	       unsigned long long len, int flushed);
/* After a write reached the device: E2L_FAULT_DEV_WRITES=N's N-th write
 * cuts the file back to what its last fdatasync made durable, as a power
 * loss would, and ends the process (exit 86) - the crash sweeps' point. */
void uw_dev_wrote(struct undo_guard *g);
/* g records on after prev: the device writes left to the crash go on. */
void uw_fault_from(struct undo_guard *g, const struct undo_guard *prev);
/* undo_layer.c: g is freed; no reopen may attach it any more. */
void uw_layer_forget(struct undo_guard *g);

#endif
