/* jtrans.c - writes jbd2 transactions (descriptor, data, revoke and commit
 * blocks) into an internal journal and keeps its superblock, with libext2fs
 * I/O only; see jtrans.h.  Replay lives in jtrans_replay.c. */
#include "jtrans.h"
#include "fs_probe.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define JSB_CHECKSUM_OFF	0xfc
#define JSB_SIZE		1024
#define KNOWN_INCOMPAT		0x3f	/* revoke .. fast_commit */
#define DESC_HDR		12
#define REVOKE_HDR		16

static __u32 get32(const unsigned char *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

static void put32(unsigned char *p, __u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static void put16(unsigned char *p, unsigned v)
{
	p[0] = v >> 8;
	p[1] = v;
}

int jt_csum_v23(const struct jt_journal *j)
{
	return !!(j->incompat & (E2L_JFEAT_INCOMPAT_CSUM_V2 |
				 E2L_JFEAT_INCOMPAT_CSUM_V3));
}

void jt_reseed(struct jt_journal *j)
{
	j->seed = ext2fs_crc32c_le(~0U, j->sb + 0x30, 16);
}

static __u32 sb_csum(const struct jt_journal *j)
{
	unsigned char tmp[JSB_SIZE];

	memcpy(tmp, j->sb, JSB_SIZE);
	memset(tmp + JSB_CHECKSUM_OFF, 0, 4);
	return ext2fs_crc32c_le(~0U, tmp, JSB_SIZE);
}

errcode_t jt_bmap(const struct jt_journal *j, __u32 lblk, blk64_t *pblk)
{
	unsigned i;

	for (i = 0; i < j->nruns; i++) {
		const struct e2l_jextent *r = &j->runs[i];

		if (lblk >= r->lblk && lblk < r->lblk + r->len) {
			*pblk = r->pblk + (lblk - r->lblk);
			return 0;
		}
	}
	return EXT2_ET_BAD_BLOCK_NUM;
}

static blk64_t runs_end(const struct jt_journal *j)
{
	blk64_t end = 0;
	unsigned i;

	for (i = 0; i < j->nruns; i++)
		if (j->runs[i].lblk + j->runs[i].len > end)
			end = j->runs[i].lblk + j->runs[i].len;
	return end;
}

static errcode_t check_sb(struct jt_journal *j)
{
	const unsigned char *b = j->sb;
	__u32 type = get32(b + 4);

	if (get32(b) != E2L_JBD2_MAGIC)
		return EXT2_ET_BAD_INODE_NUM;	/* as e2fsprogs says it */
	if (type == E2L_JBD2_SB_V1)
		j->version = 1;
	else if (type == E2L_JBD2_SB_V2)
		j->version = 2;
	else if (type >= E2L_JBD2_DESCRIPTOR && type <= E2L_JBD2_REVOKE)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	else
		return EXT2_ET_JOURNAL_UNSUPP_VERSION;
	if (j->version == 2) {
		if (get32(b + 0x40) > 1)
			return EXT2_ET_JOURNAL_UNSUPP_VERSION;
		j->compat = get32(b + 0x24);
		j->incompat = get32(b + 0x28);
		if (j->incompat & ~KNOWN_INCOMPAT)
			return EXT2_ET_UNSUPP_FEATURE;
		if (get32(b + 0x2c))
			return EXT2_ET_RO_UNSUPP_FEATURE;
	}
	if ((j->incompat & E2L_JFEAT_INCOMPAT_CSUM_V2) &&
	    (j->incompat & E2L_JFEAT_INCOMPAT_CSUM_V3))
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	if (jt_csum_v23(j) && ((j->compat & E2L_JFEAT_COMPAT_CHECKSUM) ||
			       b[0x50] != E2L_JBD2_CRC32C_CHKSUM ||
			       get32(b + JSB_CHECKSUM_OFF) != sb_csum(j)))
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	jt_reseed(j);
	if (get32(b + 0x0c) != j->bs)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	if (get32(b + 0x10) < j->maxlen)
		j->maxlen = get32(b + 0x10);
	else if (get32(b + 0x10) > j->maxlen)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	j->sequence = get32(b + 0x18);
	j->start = get32(b + 0x1c);
	j->first = get32(b + 0x14);
	if (j->first < 1 || j->first >= j->maxlen)
		return EXT2_ET_CORRUPT_JOURNAL_SB;
	return 0;
}

/* Loads a journal whose log lives on io (io_blocks blocks), its
 * superblock at logical block sb_lblk; closes io when it is ours and the
 * journal is not usable. */
static errcode_t open_on(ext2_filsys fs, io_channel io, int own_io,
			 blk64_t io_blocks, __u32 sb_lblk,
			 const struct e2l_jextent *runs, unsigned nruns,
			 struct jt_journal *j)
{
	blk64_t pblk;
	errcode_t err;

	memset(j, 0, sizeof(*j));
	j->fs = fs;
	j->io = io;
	j->own_io = own_io;
	j->io_blocks = io_blocks;
	j->sb_lblk = sb_lblk;
	j->bs = fs->blocksize;
	if (j->bs < JSB_SIZE) {
		err = EXT2_ET_CORRUPT_JOURNAL_SB;
		goto out;
	}
	j->runs = malloc((nruns ? nruns : 1) * sizeof(*runs));
	j->sb = calloc(1, j->bs);
	if (!j->runs || !j->sb) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	memcpy(j->runs, runs, nruns * sizeof(*runs));
	j->nruns = nruns;
	j->maxlen = runs_end(j);
	err = jt_bmap(j, j->sb_lblk, &pblk);
	if (!err && pblk >= j->io_blocks)
		err = EXT2_ET_BAD_BLOCK_NUM;
	if (!err)
		err = io_channel_read_blk64(j->io, pblk, 1, j->sb);
	if (!err)
		err = check_sb(j);
out:
	if (err)
		jt_close(j);
	return err;
}

errcode_t jt_open(ext2_filsys fs, const struct e2l_jextent *runs,
		  unsigned nruns, struct jt_journal *j)
{
	return open_on(fs, fs->io, 0, ext2fs_blocks_count(fs->super), 0,
		       runs, nruns, j);
}

errcode_t jt_open_inode(ext2_filsys fs, struct jt_journal *j)
{
	struct e2l_journal jm;
	errcode_t err;

	memset(j, 0, sizeof(*j));
	if (!ext2fs_has_feature_journal(fs->super))
		return EXT2_ET_NO_JOURNAL;
	if (!fs->super->s_journal_inum)
		return EXT2_ET_LOAD_EXT_JOURNAL;
	err = journal_load(fs, &jm);
	if (err)
		return err;
	if (jm.size_bytes / fs->blocksize < 1024) {
		journal_release(&jm);
		return EXT2_ET_JOURNAL_TOO_SMALL;
	}
	j->maxlen = jm.size_bytes / fs->blocksize;
	/* jt_open keeps maxlen when the runs cover it */
	{
		struct jt_journal tmp;

		memset(&tmp, 0, sizeof(tmp));
		err = jt_open(fs, jm.ext, jm.next, &tmp);
		if (!err && tmp.maxlen > j->maxlen)
			tmp.maxlen = j->maxlen;
		*j = tmp;
	}
	journal_release(&jm);
	return err;
}

/* The external journal's ext2 superblock: a journal device, the one fs
 * names, intact.  Its block count is the journal's length. */
static errcode_t check_ext_super(ext2_filsys fs, io_channel io,
				 __u32 sb_blk, blk64_t *blocks)
{
	struct ext2_super_block *js;
	unsigned char *buf;
	errcode_t err;

	buf = malloc(fs->blocksize);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	err = io_channel_read_blk64(io, sb_blk, 1, buf);
	if (err)
		goto out;
	js = (struct ext2_super_block *)(sb_blk ? buf :
					 buf + SUPERBLOCK_OFFSET);
#ifdef WORDS_BIGENDIAN
	if (js->s_magic == ext2fs_swab16(EXT2_SUPER_MAGIC))
		ext2fs_swap_super(js);
#endif
	err = EXT2_ET_LOAD_EXT_JOURNAL;
	if (js->s_magic != EXT2_SUPER_MAGIC ||
	    !ext2fs_has_feature_journal_dev(js) ||
	    memcmp(js->s_uuid, fs->super->s_journal_uuid, 16))
		goto out;
	if (ext2fs_has_feature_metadata_csum(js) &&
	    ext2fs_crc32c_le(~0U, (unsigned char *)js,
			     offsetof(struct ext2_super_block, s_checksum)) !=
	    ext2fs_le32_to_cpu(js->s_checksum))
		goto out;
	*blocks = ext2fs_blocks_count(js);
	err = 0;
out:
	free(buf);
	return err;
}

errcode_t jt_open_external(ext2_filsys fs, const char *path,
			   struct jt_journal *j)
{
	struct e2l_jextent run;
	io_channel io;
	blk64_t blocks = 0;
	/* the ext2 superblock's block, the journal's just after it */
	__u32 sb_blk = ext2fs_journal_sb_start(fs->blocksize) - 1;
	errcode_t err;

	memset(j, 0, sizeof(*j));
	err = unix_io_manager->open(path, fs->flags & EXT2_FLAG_RW ?
				    IO_FLAG_RW : 0, &io);
	if (err)
		return err;
	err = io_channel_set_blksize(io, fs->blocksize);
	if (!err)
		err = check_ext_super(fs, io, sb_blk, &blocks);
	if (err) {
		io_channel_close(io);
		return err;
	}
	if (blocks > 0xffffffffULL)
		blocks = 0xffffffffULL;
	memset(&run, 0, sizeof(run));
	run.len = blocks;	/* the device's blocks are the log's */
	return open_on(fs, io, 1, blocks, sb_blk + 1, &run, 1, j);
}

static int uuid_is_zero(const __u8 *u)
{
	int i;

	for (i = 0; i < 16; i++)
		if (u[i])
			return 0;
	return 1;
}

errcode_t jt_open_fs(ext2_filsys fs, const char *ext_path,
		     struct jt_journal *j)
{
	char *found = NULL;
	errcode_t err;

	memset(j, 0, sizeof(*j));
	if (uuid_is_zero(fs->super->s_journal_uuid)) {
		if (!fs->super->s_journal_inum)
			return EXT2_ET_BAD_INODE_NUM;
		return jt_open_inode(fs, j);
	}
	if (!ext_path)
		ext_path = found = fs_probe_journal_dev(fs);
	if (!ext_path)
		return EXT2_ET_LOAD_EXT_JOURNAL;
	err = jt_open_external(fs, ext_path, j);
	free(found);
	return err;
}

void jt_close(struct jt_journal *j)
{
	if (j->own_io && j->io)
		io_channel_close(j->io);
	j->io = NULL;
	j->own_io = 0;
	free(j->runs);
	free(j->sb);
	j->runs = NULL;
	j->sb = NULL;
	j->nruns = 0;
}

void jt_sb_update(struct jt_journal *j)
{
	put32(j->sb + 0x18, j->sequence);
	put32(j->sb + 0x1c, j->start);
	if (j->version == 2) {
		put32(j->sb + 0x24, j->compat);
		put32(j->sb + 0x28, j->incompat);
	}
	if (jt_csum_v23(j))
		put32(j->sb + JSB_CHECKSUM_OFF, sb_csum(j));
}

errcode_t jt_write_sb(struct jt_journal *j)
{
	blk64_t pblk;
	errcode_t err;

	jt_sb_update(j);
	err = jt_bmap(j, j->sb_lblk, &pblk);
	if (!err)
		err = io_channel_write_blk64(j->io, pblk, 1, j->sb);
	return err;
}

static errcode_t write_log(struct jt_journal *j, __u32 lblk,
			   const unsigned char *buf)
{
	blk64_t pblk;
	errcode_t err = jt_bmap(j, lblk, &pblk);

	if (!err && (lblk >= j->maxlen || pblk >= j->io_blocks))
		err = EXT2_ET_BAD_BLOCK_NUM;
	if (!err)
		err = io_channel_write_blk64(j->io, pblk, 1, buf);
	return err;
}

/* crc32c over a whole block, with its 4-byte checksum slot at off zero. */
static void set_block_csum(struct jt_journal *j, unsigned char *buf,
			   unsigned off)
{
	memset(buf + off, 0, 4);
	put32(buf + off, ext2fs_crc32c_le(j->seed, buf, j->bs));
}

void jt_tx_begin(struct jt_tx *t, struct jt_journal *j, __u32 tid,
		 __u32 start, int quirks)
{
	t->j = j;
	t->tid = tid;
	t->start = t->block = start;
	t->quirks = quirks;
}

static void header(unsigned char *buf, __u32 type, __u32 tid)
{
	put32(buf, E2L_JBD2_MAGIC);
	put32(buf + 4, type);
	put32(buf + 8, tid);
}

errcode_t jt_tx_blocks(struct jt_tx *t, const blk64_t *list, size_t n,
		       jt_data_fn get, void *ctx)
{
	struct jt_journal *j = t->j;
	unsigned csz = jt_csum_v23(j) ? 4 : 0, tagp = DESC_HDR, tb, flags;
	unsigned char *desc, *data, *tag;
	__u32 desc_blk, c;
	unsigned char seq[4];
	errcode_t err = 0;
	size_t i;

	if (!n)
		return 0;
	desc = calloc(1, j->bs);
	data = calloc(1, j->bs);
	if (!desc || !data) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	header(desc, E2L_JBD2_DESCRIPTOR, t->tid);
	desc_blk = t->block++;
	for (i = 0; i < n; i++) {
		err = get(ctx, i, data);
		if (err)
			goto out;
		tb = journal_tag_bytes(j->incompat);
		if (tagp + tb > j->bs - csz) {	/* full: out it goes */
			if (csz)
				set_block_csum(j, desc, j->bs - 4);
			err = write_log(j, desc_blk, desc);
			if (err)
				goto out;
			tagp = DESC_HDR;
			desc_blk = t->block++;
		}
		if (list[i] >= ext2fs_blocks_count(j->fs->super)) {
			err = EXT2_ET_BAD_BLOCK_NUM;
			goto out;
		}
		tag = desc + tagp;
		put32(tag, list[i] & 0xffffffffU);
		flags = 0;
		if (tagp != DESC_HDR) {
			flags |= E2L_JBD2_FLAG_SAME_UUID;
		} else {
			memcpy(tag + (t->quirks & JT_QUIRK_DEBUGFS ?
				      12 * tb : tb), j->sb + 0x30, 16);
			tb += 16;
		}
		if (i == n - 1)
			flags |= E2L_JBD2_FLAG_LAST_TAG;
		if (get32(data) == E2L_JBD2_MAGIC) {
			memset(data, 0, 4);
			flags |= E2L_JBD2_FLAG_ESCAPE;
		}
		put16(tag + 6, flags);
		if (j->incompat & E2L_JFEAT_INCOMPAT_64BIT)
			put32(tag + 8, list[i] >> 32);
		if (csz) {
			put32(seq, t->tid);
			c = ext2fs_crc32c_le(j->seed, seq, 4);
			c = ext2fs_crc32c_le(c, data, j->bs);
			if (j->incompat & E2L_JFEAT_INCOMPAT_CSUM_V3)
				put32(tag + 12, c);
			else
				put16(tag + 4, c & 0xffff);
		}
		err = write_log(j, t->block, data);
		if (err)
			goto out;
		t->block++;
		tagp += tb;
	}
	if (tagp != DESC_HDR) {
		if (csz)
			set_block_csum(j, desc, j->bs - 4);
		err = write_log(j, desc_blk, desc);
	}
out:
	free(desc);
	free(data);
	return err;
}

errcode_t jt_tx_revokes(struct jt_tx *t, const blk64_t *list, size_t n)
{
	struct jt_journal *j = t->j;
	unsigned csz = jt_csum_v23(j) ? 4 : 0, off = REVOKE_HDR;
	unsigned sz = j->incompat & E2L_JFEAT_INCOMPAT_64BIT ? 8 : 4;
	unsigned char *buf;
	errcode_t err = 0;
	size_t i;

	if (!n)
		return 0;
	buf = calloc(1, j->bs);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	header(buf, E2L_JBD2_REVOKE, t->tid);
	for (i = 0; i < n; i++) {
		if (off + sz > j->bs - csz) {
			put32(buf + 12, off);
			if (csz)
				set_block_csum(j, buf, j->bs - 4);
			err = write_log(j, t->block, buf);
			if (err)
				goto out;
			off = REVOKE_HDR;
			t->block++;
		}
		if (list[i] >= ext2fs_blocks_count(j->fs->super)) {
			err = EXT2_ET_BAD_BLOCK_NUM;
			goto out;
		}
		if (sz == 8) {
			put32(buf + off, list[i] >> 32);
			put32(buf + off + 4, list[i] & 0xffffffffU);
		} else {
			put32(buf + off, list[i]);
		}
		off += sz;
	}
	put32(buf + 12, off);
	if (csz)
		set_block_csum(j, buf, j->bs - 4);
	err = write_log(j, t->block, buf);
	if (!err)
		t->block++;
out:
	free(buf);
	return err;
}

errcode_t jt_tx_commit(struct jt_tx *t, const struct timeval *tv)
{
	struct jt_journal *j = t->j;
	unsigned char *buf, *rd = NULL;
	__u32 crc = ~0U, b;
	blk64_t pblk;
	errcode_t err = 0;

	buf = calloc(1, j->bs);
	if (!buf)
		return EXT2_ET_NO_MEMORY;
	header(buf, E2L_JBD2_COMMIT, t->tid);
	if (j->compat & E2L_JFEAT_COMPAT_CHECKSUM) {
		/* v1: crc32_be over every block of the transaction */
		rd = malloc(j->bs);
		if (!rd) {
			err = EXT2_ET_NO_MEMORY;
			goto out;
		}
		for (b = t->start; b < t->block; b++) {
			err = jt_bmap(j, b, &pblk);
			if (!err)
				err = io_channel_read_blk64(j->io, pblk, 1,
							    rd);
			if (err)
				goto out;
			crc = ext2fs_crc32_be(crc, rd, j->bs);
		}
		buf[12] = E2L_JBD2_CRC32_CHKSUM;
		buf[13] = 4;
		put32(buf + 16, crc);
	}
	if (t->quirks & JT_QUIRK_DEBUGFS) {
		put32(buf + 48, tv->tv_sec);
	} else {
		put32(buf + 48, (__u64)tv->tv_sec >> 32);
		put32(buf + 52, tv->tv_sec);
	}
	put32(buf + 56, tv->tv_usec * 1000);
	if (jt_csum_v23(j)) {
		buf[12] = buf[13] = 0;
		set_block_csum(j, buf, 16);
	}
	err = write_log(j, t->block, buf);
	if (!err)
		t->block++;
out:
	free(rd);
	free(buf);
	return err;
}

__u32 jt_tx_guess(const struct jt_journal *j, size_t n, size_t r)
{
	unsigned bs = j->bs - (jt_csum_v23(j) ? 4 : 0);
	unsigned sz = j->incompat & E2L_JFEAT_INCOMPAT_64BIT ? 8 : 4;
	__u32 ret = 1;

	ret += r * sz / bs;
	bs = j->bs - 16 - (jt_csum_v23(j) ? 4 : 0);
	ret += n * journal_tag_bytes(j->incompat) / bs;
	return ret + n;
}

__u32 jt_tx_size(const struct jt_journal *j, size_t n)
{
	unsigned room = j->bs - DESC_HDR - (jt_csum_v23(j) ? 4 : 0);
	unsigned tb = journal_tag_bytes(j->incompat);
	/* the first tag of each descriptor carries a 16-byte UUID */
	unsigned per = (room - 16) / tb;

	if (!n)
		return 1;
	return (n + per - 1) / per + n + 1;
}
