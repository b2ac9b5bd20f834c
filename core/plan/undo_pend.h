/* undo_pend.h - the undo layer's held writes (undo_pend.c): small writes
 * kept until the next flush, read or large write over them, then saved in
 * one batch and made in order. */
#ifndef E2L_UNDO_PEND_H
#define E2L_UNDO_PEND_H

#include <ext2fs/ext2fs.h>

#define UW_PEND_LEN	(64U << 10)	/* writes up to this are held */
#define UW_PEND_MAX	(8U << 20)	/* held bytes that force a drain */

struct undo_guard;

/* Bytes of an I/O of count: blocks, or -count bytes (libext2fs's rule). */
static inline unsigned long long uw_bytes(io_channel ch, long long count)
{
	return count < 0 ? (unsigned long long)-count :
			   (unsigned long long)count * ch->block_size;
}

struct uw_pw {
	unsigned long long blk;		/* as the write named it */
	int count;
	unsigned long long off, len;	/* in bytes of the filesystem */
	unsigned char *data;
};

struct uw_pend {
	struct uw_pw *v;
	size_t n, cap;
	unsigned long long bytes;
	unsigned long long lo, hi;	/* what they span, for a fast miss */
};

/* Whether a write of count (libext2fs's sign rule) is small enough. */
int uw_pend_holds(io_channel ch, int count);
/* Whether a held write overlaps bytes [off, off + len). */
int uw_pend_over(const struct uw_pend *p, unsigned long long off,
		 unsigned long long len);
/* Holds a copy of the write (blk, count, buf) on ch. */
errcode_t uw_pend_add(struct uw_pend *p, io_channel ch,
		      unsigned long long blk, int count, const void *buf);
/* Whether the held writes reached UW_PEND_MAX bytes. */
int uw_pend_full(const struct uw_pend *p);
/* Saves their old contents into g's file (one fdatasync), then makes the
 * writes through below, in order; none when the file cannot take them. */
errcode_t uw_pend_drain(struct uw_pend *p, struct undo_guard *g,
			io_channel ch, io_manager below);
void uw_pend_free(struct uw_pend *p);

#endif
