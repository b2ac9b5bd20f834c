/* undo_writer_int.h - what apply's undo writer (undo_writer.c) shares with
 * its presave running ahead of the apply (undo_ahead.c): the writer's state
 * and the steps that append and commit records. */
#ifndef E2L_UNDO_WRITER_INT_H
#define E2L_UNDO_WRITER_INT_H

#include "undo_guard_int.h"

#include <aio.h>

/*
 * The file: the header in undo block 0, the superblock copy in block 1, the
 * first key block in block 2; then each key block is followed by the data
 * of its keys (each rounded up to whole undo blocks) and, when it is full,
 * by the next key block - the order e2undo walks.  A key block holds
 * UW_KPB keys after its 16-byte head (magic, crc32c of the block with the
 * crc zeroed, reserved); a key is fsblk (in the header's fs_block_size),
 * the crc32c of its data and its size in bytes, at most UW_KEYMAX.
 */
#define UW_BLK		4096U	/* the undo block size */
#define UW_KEYMAX	(512U * UW_BLK)	/* e2undo's longest key */
#define UW_KEY		16U
#define UW_KPB		(UW_BLK / UW_KEY - 1)
#define UW_KEYMAGIC	0xCADECADEU
#define UH_KEYS		8	/* __le64: num_keys */
#define UH_KEYOFF	24	/* __le64: the first key block */
#define UH_COMPAT	48	/* __le32: f_compat */
#define UH_FSOFF	64	/* __le64: fs_offset */
#define UH_FS_OFFSET	0x1	/* f_compat: fs_offset holds */

struct uw_run {
	unsigned long long start, len;	/* in granules */
};

/* What one undo file holds (one per guard, whatever channels it records
 * in turn: a block saved once is never saved again). */
struct undo_writer {
	struct undo_guard *g;
	unsigned long long gran;	/* bytes per granule: the fs block */
	struct uw_run *runs;		/* saved, sorted, apart */
	size_t nruns, cap;
	/* the runs as the last commit left them, kept from the first mark
	 * after it (snap_ok) until the next one: what the file is sure to
	 * restore when that commit fails */
	struct uw_run *snap;
	size_t nsnap, snapcap;
	int snap_ok;
	unsigned char keyb[UW_BLK];	/* the key block being filled */
	size_t nkeys;			/* keys in keyb */
	unsigned long long key_blk;	/* where keyb goes */
	unsigned long long next_blk;	/* the next free undo block */
	unsigned long long num_keys;
	unsigned long long size;	/* bytes the file must span */
	unsigned char *buf;		/* old contents, UW_KEYMAX bytes,
					 * aligned to UW_BLK for O_DIRECT */
	/* the data's own way into the file: the same file opened again
	 * with O_DIRECT (-1: none, all writes buffered through g->fd), and
	 * the one write in flight on it, from abuf (the other buffer) */
	int dfd;
	unsigned char *abuf;
	struct aiocb cb;
	int inflight;
	size_t alen, afull;		/* its bytes before, after rounding */
	/* E2L_FAULT_UNDO_DIRECT=k: the k-th direct write is made misaligned
	 * (the kernel refuses it: EINVAL), to show the buffered way after */
	long dfault;
	size_t buf_zeros;		/* its first bytes known zero */
	size_t zcrc_len;		/* crc32c of that many zeros: */
	__u32 zcrc;			/* (a hole's keys are all alike) */
	int isreg;			/* the device is a file: holes */
	int sb_dirty;			/* a write covered the superblock */
	/* what the file restores [pre_off, pre_off + pre_len) of the
	 * filesystem to, instead of what the device holds then */
	unsigned char *pre;
	unsigned long long pre_off;
	size_t pre_len;
	struct uw_ahead *ahead;		/* the presave running ahead, or NULL */
	/* E2L_FAULT_DEV_WRITES=N: the device writes left before a crash,
	 * and what the file held at its last fdatasync (all a power loss
	 * is sure to leave), which the crash cuts it back to */
	long dev_left;
	unsigned long long dur_size, dur_keys, dur_key_blk;
	unsigned char dur_keyb[UW_BLK];
};

/* The header and the superblock copy, before the first record. */
errcode_t uw_start(struct undo_writer *w);
/* Saves every granule of bytes [off, off + len) of the filesystem not saved
 * yet, uncommitted (*added: some were). */
errcode_t uw_save_range(struct undo_writer *w, unsigned long long off,
			unsigned long long len, int *added);
/* The records so far become what the file restores; then durable. */
errcode_t uw_commit(struct undo_writer *w);
/* undo_runs.c: granules [a, a + n) marked saved, i the first run ending
 * at or after a (runs stay sorted and apart; the runs as the last commit
 * left them are kept first); after a failure, only what the last commit
 * made durable counts (uw_unsnap); the first run that ends after granule
 * a; whether granules [a, b) are all saved. */
errcode_t uw_mark(struct undo_writer *w, size_t i, unsigned long long a,
		  unsigned long long n);
void uw_unsnap(struct undo_writer *w);
size_t uw_find(const struct undo_writer *w, unsigned long long a);
int uw_saved(const struct undo_writer *w, unsigned long long a,
	     unsigned long long b);
/* qsort's order of struct undo_span: by offset. */
int uw_cmp_span(const void *a, const void *b);

/*
 * undo_ahead.c: the presave of a whole plan in a thread of its own, which
 * commits every UW_AHEAD_STEP bytes, so that the apply's writes begin as
 * soon as what they cover is durable instead of after the whole batch.
 * While it runs it alone touches the writer and the file; the apply's side
 * calls only uw_ahead_wait, and uw_ahead_join before anything else.
 */
#define UW_AHEAD_STEP	(16ULL << 20)
/* Starts saving spans sp[0..n) (sorted, then merged here; not kept):
 * 0 when the thread runs (or all is saved already), EAGAIN when there is
 * no thread to be had (or E2L_UNDO_NO_AHEAD=1), else an error. */
errcode_t uw_ahead_start(struct undo_writer *w, struct undo_span *sp,
			 size_t n);
/* Before bytes [off, off + len) are written: 1 when the presave covers
 * them and they are durable now (waited for); 0 when it does not cover
 * them, or stopped before them: it has then finished (joined), and the
 * writer is the caller's again. */
int uw_ahead_wait(struct undo_writer *w, unsigned long long off,
		  unsigned long long len);
/* The presave finished (all saved, or its error in g->err) and gone. */
void uw_ahead_join(struct undo_writer *w);
/* The presave stopped at its next commit and gone (a simulated crash);
 * the writer's durable state put back to the published one the last
 * write let through relied on.  The rest of the writer no longer agrees
 * with it: only the crash's cut-back and _exit may follow. */
void uw_ahead_stop(struct undo_writer *w);

#endif
