/* jtrans_replay.c - jbd2 recovery with libext2fs I/O: finds the committed
 * transactions from s_start, collects their revoke records, writes every
 * unrevoked journaled block home, then marks the journal empty. */
#include "jtrans.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

enum { PASS_SCAN, PASS_REVOKE, PASS_REPLAY };

struct revoked {
	blk64_t blk;
	__u32 seq;
};

struct rc {
	struct jt_journal *j;
	unsigned char *buf, *data;
	struct revoked *rv;
	size_t nrv, caprv;
	__u32 end;		/* first sequence not committed */
	__u32 crc;		/* v1: crc32_be of the transaction so far */
	unsigned long replayed;
};

static __u32 get32(const unsigned char *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static __u32 wrap(const struct jt_journal *j, __u32 b)
{
	if (b >= j->maxlen)
		b -= j->maxlen - j->first;
	return b;
}

static errcode_t read_log(struct jt_journal *j, __u32 lblk, unsigned char *b)
{
	blk64_t pblk;
	errcode_t err = jt_bmap(j, lblk, &pblk);

	if (!err && pblk >= j->io_blocks)
		err = EXT2_ET_BAD_BLOCK_NUM;
	if (!err)
		err = io_channel_read_blk64(j->io, pblk, 1, b);
	return err;
}

/* A block with its checksum slot at off: does the crc32c match? */
static int csum_ok(struct jt_journal *j, unsigned char *b, unsigned off)
{
	__u32 want = get32(b + off), got;
	unsigned char save[4];

	if (!jt_csum_v23(j))
		return 1;
	memcpy(save, b + off, 4);
	memset(b + off, 0, 4);
	if (off == 16)		/* commit: type and size bytes too */
		b[12] = b[13] = 0;
	got = ext2fs_crc32c_le(j->seed, b, j->bs);
	memcpy(b + off, save, 4);
	return got == want;
}

static __u32 revoked_seq(const struct rc *c, blk64_t blk, int *found)
{
	size_t i;

	for (i = 0; i < c->nrv; i++)
		if (c->rv[i].blk == blk) {
			*found = 1;
			return c->rv[i].seq;
		}
	*found = 0;
	return 0;
}

static errcode_t add_revokes(struct rc *c, const unsigned char *b, __u32 seq)
{
	unsigned sz = c->j->incompat & E2L_JFEAT_INCOMPAT_64BIT ? 8 : 4;
	unsigned off = 16, count = get32(b + 12), k;
	struct revoked *nv;
	blk64_t blk;
	int found;

	if (count > c->j->bs)
		return 0;
	for (; off + sz <= count; off += sz) {
		blk = get32(b + off);
		if (sz == 8)
			blk = blk << 32 | get32(b + off + 4);
		revoked_seq(c, blk, &found);
		if (found) {
			for (k = 0; k < c->nrv; k++)
				if (c->rv[k].blk == blk &&
				    (int)(seq - c->rv[k].seq) > 0)
					c->rv[k].seq = seq;
			continue;
		}
		if (c->nrv == c->caprv) {
			c->caprv = c->caprv ? c->caprv * 2 : 64;
			nv = realloc(c->rv, c->caprv * sizeof(*nv));
			if (!nv)
				return EXT2_ET_NO_MEMORY;
			c->rv = nv;
		}
		c->rv[c->nrv].blk = blk;
		c->rv[c->nrv++].seq = seq;
	}
	return 0;
}

/* Replays (or counts) the tags of one descriptor block; *next is the log
 * block after the descriptor on entry, after its data on return. */
static errcode_t tags(struct rc *c, int pass, __u32 seq, __u32 *next)
{
	struct jt_journal *j = c->j;
	unsigned tb = journal_tag_bytes(j->incompat);
	unsigned csz = jt_csum_v23(j) ? 4 : 0, tagp = 12, flags;
	const unsigned char *tag;
	unsigned char sq[4];
	blk64_t home;
	__u32 rseq, cs;
	errcode_t err;
	int found;

	while (tagp + tb <= j->bs - csz) {
		tag = c->buf + tagp;
		flags = tag[6] << 8 | tag[7];
		home = get32(tag);
		if (j->incompat & E2L_JFEAT_INCOMPAT_64BIT)
			home |= (blk64_t)get32(tag + 8) << 32;
		if (pass == PASS_SCAN &&
		    (j->compat & E2L_JFEAT_COMPAT_CHECKSUM)) {
			err = read_log(j, *next, c->data);
			if (err)
				return err;
			c->crc = ext2fs_crc32_be(c->crc, c->data, j->bs);
		}
		if (pass == PASS_REPLAY) {
			rseq = revoked_seq(c, home, &found);
			if (found && (int)(rseq - seq) >= 0)
				goto skip;
			err = read_log(j, *next, c->data);
			if (err)
				return err;
			if (csz) {
				sq[0] = seq >> 24;
				sq[1] = seq >> 16;
				sq[2] = seq >> 8;
				sq[3] = seq;
				cs = ext2fs_crc32c_le(j->seed, sq, 4);
				cs = ext2fs_crc32c_le(cs, c->data, j->bs);
				if (j->incompat & E2L_JFEAT_INCOMPAT_CSUM_V3 ?
				    cs != get32(tag + 12) :
				    (cs & 0xffff) != (unsigned)(tag[4] << 8 |
								tag[5]))
					goto skip;	/* a torn block */
			}
			if (flags & E2L_JBD2_FLAG_ESCAPE) {
				c->data[0] = 0xc0;
				c->data[1] = 0x3b;
				c->data[2] = 0x39;
				c->data[3] = 0x98;
			}
			if (home >= ext2fs_blocks_count(j->fs->super))
				return EXT2_ET_BAD_BLOCK_NUM;
			err = io_channel_write_blk64(j->fs->io, home, 1,
						     c->data);
			if (err)
				return err;
			c->replayed++;
		}
skip:
		*next = wrap(j, *next + 1);
		tagp += tb;
		if (!(flags & E2L_JBD2_FLAG_SAME_UUID))
			tagp += 16;
		if (flags & E2L_JBD2_FLAG_LAST_TAG)
			break;
	}
	return 0;
}

/* v1 (compat checksum): the commit's crc32_be of the descriptor and data
 * blocks, or no checksum at all. */
static int v1_ok(const struct rc *c)
{
	const unsigned char *b = c->buf;
	__u32 found = get32(b + 16);

	if (!(c->j->compat & E2L_JFEAT_COMPAT_CHECKSUM))
		return 1;
	return (found == c->crc && b[12] == E2L_JBD2_CRC32_CHKSUM &&
		b[13] == 4) || (!b[12] && !b[13] && !found);
}

static errcode_t pass(struct rc *c, int pass)
{
	struct jt_journal *j = c->j;
	__u32 seq = j->sequence, blk = j->start, type;
	errcode_t err;

	for (;;) {
		if (pass != PASS_SCAN && (int)(seq - c->end) >= 0)
			break;
		err = read_log(j, blk, c->buf);
		if (err)
			return pass == PASS_SCAN ? 0 : err;
		if (get32(c->buf) != E2L_JBD2_MAGIC ||
		    get32(c->buf + 8) != seq)
			break;
		type = get32(c->buf + 4);
		blk = wrap(j, blk + 1);
		if (type == E2L_JBD2_DESCRIPTOR) {
			if (pass == PASS_SCAN && !csum_ok(j, c->buf,
							  j->bs - 4))
				break;
			if (pass == PASS_SCAN)
				c->crc = ext2fs_crc32_be(c->crc, c->buf, j->bs);
			err = tags(c, pass, seq, &blk);
			if (err)
				return err;
		} else if (type == E2L_JBD2_COMMIT) {
			if (pass == PASS_SCAN && (!csum_ok(j, c->buf, 16) ||
						  !v1_ok(c))) {
				j->failed_commit = seq;
				break;
			}
			c->crc = ~0U;
			seq++;
		} else if (type == E2L_JBD2_REVOKE) {
			if (pass == PASS_SCAN && !csum_ok(j, c->buf,
							  j->bs - 4))
				break;
			if (pass == PASS_REVOKE) {
				err = add_revokes(c, c->buf, seq);
				if (err)
					return err;
			}
		} else {
			break;
		}
	}
	if (pass == PASS_SCAN) {
		c->end = seq;
	} else if (seq != c->end && !c->j->bad_pass) {
		/* the passes disagree (the replay overwrote the log) */
		c->j->bad_pass = pass;
		c->j->bad_pass_seq = seq;
		c->j->bad_pass_end = c->end;
	}
	return 0;
}

errcode_t jt_recover(struct jt_journal *j, unsigned long *replayed)
{
	struct rc c;
	errcode_t err = 0, e;

	memset(&c, 0, sizeof(c));
	c.j = j;
	c.crc = ~0U;
	j->failed_commit = 0;
	j->bad_pass = 0;
	*replayed = 0;
	if (!j->start) {
		j->sequence++;	/* as jbd2 does for a clean journal */
		goto done;
	}
	c.buf = malloc(j->bs);
	c.data = malloc(j->bs);
	if (!c.buf || !c.data) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	err = pass(&c, PASS_SCAN);
	if (!err)
		err = pass(&c, PASS_REVOKE);
	if (!err)
		err = pass(&c, PASS_REPLAY);
	if (err)
		goto out;
	if (j->bad_pass)
		err = EIO;	/* (e2fsprogs then keeps s_sequence) */
	else
		j->sequence = c.end + 1;
done:
	e = io_channel_flush(j->fs->io);
	if (!e && j->io != j->fs->io)
		e = io_channel_flush(j->io);
	if (e) {
		err = e;
		goto out;
	}
	j->start = 0;
	if (j->failed_commit)	/* -EINVAL in s_errno, as jbd2 records it */
		memcpy(j->sb + 0x20, "\xff\xff\xff\xea", 4);
	e = jt_write_sb(j);	/* (left to the caller to flush) */
	if (!err)
		err = e;
	*replayed = c.replayed;
out:
	free(c.buf);
	free(c.data);
	free(c.rv);
	return err;
}
