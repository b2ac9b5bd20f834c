/* logdump_int.h - what the parts of debugfs's logdump share: the jbd2
 * constants, the walk's state, and the functions between reading the
 * journal (logdump_read.c), decoding its blocks (logdump_decode.c) and
 * printing what they log (logdump_print.c). */
#ifndef E2L_LOGDUMP_INT_H
#define E2L_LOGDUMP_INT_H

#include "cmd.h"

#include <stdio.h>

#define JMAGIC		0xc03b3998U
#define JT_DESCRIPTOR	1
#define JT_COMMIT	2
#define JT_SB_V1	3
#define JT_SB_V2	4
#define JT_REVOKE	5
#define JI_64BIT	0x02
#define JI_CSUM_V2	0x08
#define JI_CSUM_V3	0x10
#define JF_SAME_UUID	0x2
#define JF_LAST_TAG	0x8
#define J_DEFAULT_FC	256
#define ANY_BLOCK	((blk64_t)-1)

struct lg {
	struct session *s;
	const char *cmd;
	FILE *file;		/* output_file, or NULL for the sink */
	int all, old, contents, descriptors;
	long long counts;
	blk64_t block, bitmap, iblock;
	unsigned ioffset;
	ext2_ino_t ino;
	/* the journal: an ext2 file or a host file descriptor */
	ext2_file_t jfile;
	int fd;
	unsigned bs, maxlen, first;
	unsigned char jsb[1024];
};

/* big- and little-endian 32-bit words of the on-disk structures */
static inline unsigned be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static inline unsigned le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
}

/* Reads size bytes at byte off of the journal into buf; says why and
 * returns -1 when it cannot (a short read too), 0 otherwise. */
int lg_read(struct lg *l, const char *who, ext2_loff_t off,
	    unsigned char *buf, unsigned size);

/* The journal block after blk's wrap-around: past the end, back to the
 * first log block. */
unsigned lg_wrap(struct lg *l, unsigned blk);

/* Opens the internal journal (its inode, or with use_sb the superblock's
 * backup of its block map) as l->jfile; says why and returns -1 when it
 * cannot. */
int lg_open_internal(struct lg *l, int use_sb, char **argv);

/* Prints to the output file, else to the session's sink. */
void lg_printf(struct lg *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One block a descriptor tag logs (journal block jblk, filesystem block
 * fsblk): its line, and with -b/-i/-c what it holds (the block's bit in a
 * logged bitmap, the inode's block map, a hex dump); a JSON entry too. */
void lg_metadata(struct lg *l, unsigned jblk, unsigned fsblk,
		 unsigned flags, unsigned seq);

/* Walks the journal from its superblock's start, as debugfs does: each
 * descriptor, commit and revoke block until the sequence breaks, then the
 * fast-commit area. */
void lg_journal(struct lg *l);

#endif
