/* journal.c - the journal model (see journal.h): the internal journal's data
 * runs and mapping blocks, the external journal's identity, and the few
 * fields of the (big-endian) jbd2 superblock that we show. */
#include "journal.h"
#include "fs_probe.h"

#include <e2p/e2p.h>
#include <stdlib.h>
#include <string.h>

#define JBD2_MAGIC		0xc03b3998U
#define JBD2_SB_V1		3
#define JBD2_SB_V2		4
#define JBD2_DEFAULT_FC_BLOCKS	256
#define JBD2_USERS_OFF		0x100

struct jctx {
	struct e2l_journal *j;
	unsigned cap_ext, cap_map;
	errcode_t err;
};

static errcode_t add_map(struct jctx *c, blk64_t blk)
{
	struct e2l_journal *j = c->j;
	blk64_t *nv;

	if (j->nmap == c->cap_map) {
		unsigned cap = c->cap_map ? c->cap_map * 2 : 8;

		nv = realloc(j->map_blocks, cap * sizeof(*nv));
		if (!nv)
			return EXT2_ET_NO_MEMORY;
		j->map_blocks = nv;
		c->cap_map = cap;
	}
	j->map_blocks[j->nmap++] = blk;
	return 0;
}

/* Appends a data run, extending the last one when it continues it both
 * logically and physically. */
static errcode_t add_run(struct jctx *c, blk64_t lblk, blk64_t pblk,
			 blk64_t len)
{
	struct e2l_journal *j = c->j;
	struct e2l_jextent *last, *nv;

	j->data_blocks += len;
	if (j->next) {
		last = &j->ext[j->next - 1];
		if (last->lblk + last->len == lblk &&
		    last->pblk + last->len == pblk) {
			last->len += len;
			return 0;
		}
	}
	if (j->next == c->cap_ext) {
		unsigned cap = c->cap_ext ? c->cap_ext * 2 : 8;

		nv = realloc(j->ext, cap * sizeof(*nv));
		if (!nv)
			return EXT2_ET_NO_MEMORY;
		j->ext = nv;
		c->cap_ext = cap;
	}
	j->ext[j->next].lblk = lblk;
	j->ext[j->next].pblk = pblk;
	j->ext[j->next].len = len;
	j->next++;
	return 0;
}

static errcode_t load_extents(ext2_filsys fs, struct ext2_inode *inode,
			      struct jctx *c)
{
	ext2_extent_handle_t h = NULL;
	struct ext2fs_extent e;
	errcode_t err;
	int op = EXT2_EXTENT_ROOT;

	err = ext2fs_extent_open2(fs, c->j->ino, inode, &h);
	if (err)
		return err;
	for (;;) {
		err = ext2fs_extent_get(h, op, &e);
		op = EXT2_EXTENT_NEXT;
		if (err == EXT2_ET_EXTENT_NO_NEXT) {
			err = 0;
			break;
		}
		if (err)
			goto out;
		if (!(e.e_flags & EXT2_EXTENT_FLAGS_LEAF)) {
			if (e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT)
				continue;
			err = add_map(c, e.e_pblk);
		} else if (e.e_len) {
			c->j->nentries++;
			err = add_run(c, e.e_lblk, e.e_pblk, e.e_len);
		}
		if (err)
			goto out;
	}
out:
	ext2fs_extent_free(h);
	return err;
}

static int block_cb(ext2_filsys fs, blk64_t *blocknr, e2_blkcnt_t blockcnt,
		    blk64_t ref_blk, int ref_offset, void *priv)
{
	struct jctx *c = priv;

	(void)fs;
	(void)ref_blk;
	(void)ref_offset;
	if (blockcnt < 0)
		c->err = add_map(c, *blocknr);
	else
		c->err = add_run(c, blockcnt, *blocknr, 1);
	return c->err ? BLOCK_ABORT : 0;
}

static __u32 be32(const unsigned char *p)
{
	return (__u32)p[0] << 24 | (__u32)p[1] << 16 | (__u32)p[2] << 8 | p[3];
}

/* Reads logical block 0 of the journal and decodes the fields we show. */
static errcode_t load_super(ext2_filsys fs, struct e2l_journal *j)
{
	errcode_t err;

	if (!j->next || j->ext[0].lblk != 0)
		return 0;
	j->sb_pblk = j->ext[0].pblk;
	if (j->sb_pblk >= ext2fs_blocks_count(fs->super) ||
	    fs->blocksize < 1024)
		return 0;
	if (fs_probe_metadata_only(fs)) {
		j->sb_absent = 1;
		return 0;
	}
	err = ext2fs_get_mem(fs->blocksize, &j->sb_raw);
	if (err)
		return err;
	err = io_channel_read_blk64(fs->io, j->sb_pblk, 1, j->sb_raw);
	if (err) {
		ext2fs_free_mem(&j->sb_raw);
		return err;
	}
	j->sb_raw_len = fs->blocksize;
	journal_decode_super(j);
	return 0;
}

void journal_decode_super(struct e2l_journal *j)
{
	const unsigned char *b = (const unsigned char *)j->sb_raw;

	j->sb_valid = 0;
	if (!b || j->sb_raw_len < 1024)
		return;
	j->sb_blocktype = be32(b + 0x04);
	if (be32(b) != JBD2_MAGIC || (j->sb_blocktype != JBD2_SB_V1 &&
				      j->sb_blocktype != JBD2_SB_V2))
		return;
	j->sb_valid = 1;
	j->sb_blocksize = be32(b + 0x0c);
	j->sb_maxlen = be32(b + 0x10);
	j->sb_first = be32(b + 0x14);
	j->sb_sequence = be32(b + 0x18);
	j->sb_start = be32(b + 0x1c);
	j->sb_errno = be32(b + 0x20);
	if (j->sb_blocktype == JBD2_SB_V2) {
		j->sb_feature_compat = be32(b + 0x24);
		j->sb_feature_incompat = be32(b + 0x28);
		j->sb_feature_ro_compat = be32(b + 0x2c);
		j->sb_nr_users = be32(b + 0x40);
		j->sb_checksum_type = b[0x50];
		j->sb_num_fc_blocks = be32(b + 0x54);
		j->sb_head = be32(b + 0x58);
		j->sb_checksum = be32(b + 0xfc);
	}
	e2p_uuid_to_str((void *)(b + 0x30), j->sb_uuid);
}

errcode_t journal_load(ext2_filsys fs, struct e2l_journal *j)
{
	struct ext2_super_block *sb = fs->super;
	struct ext2_inode inode;
	struct jctx c;
	errcode_t err;

	memset(j, 0, sizeof(*j));
	if (!ext2fs_has_feature_journal(sb))
		return 0;
	j->present = 1;
	if (!sb->s_journal_inum) {
		j->external = 1;
		e2p_uuid_to_str(sb->s_journal_uuid, j->ext_uuid);
		j->ext_dev = sb->s_journal_dev;
		j->ext_user = -1;
		return 0;
	}
	j->ino = sb->s_journal_inum;
	err = ext2fs_read_inode(fs, j->ino, &inode);
	if (err)
		goto out;
	j->size_bytes = EXT2_I_SIZE(&inode);
	memset(&c, 0, sizeof(c));
	c.j = j;
	if (inode.i_flags & EXT4_EXTENTS_FL) {
		j->uses_extents = 1;
		err = load_extents(fs, &inode, &c);
	} else {
		err = ext2fs_block_iterate3(fs, j->ino, BLOCK_FLAG_READ_ONLY,
					    NULL, block_cb, &c);
		if (!err)
			err = c.err;
		j->nentries = j->next;
	}
	if (err)
		goto out;
	err = load_super(fs, j);
out:
	if (err)
		journal_release(j);
	return err;
}

void journal_release(struct e2l_journal *j)
{
	if (!j)
		return;
	free(j->ext);
	free(j->map_blocks);
	free(j->ext_path);
	j->ext_path = NULL;
	ext2fs_free_mem(&j->sb_raw);
	j->ext = NULL;
	j->map_blocks = NULL;
	j->next = j->nmap = 0;
	j->sb_raw_len = 0;
}

int journal_csum_version(const struct e2l_journal *j)
{
	if (j->sb_feature_incompat & E2L_JFEAT_INCOMPAT_CSUM_V3)
		return 3;
	if (j->sb_feature_incompat & E2L_JFEAT_INCOMPAT_CSUM_V2)
		return 2;
	if (j->sb_feature_compat & E2L_JFEAT_COMPAT_CHECKSUM)
		return 1;
	return 0;
}

__u32 journal_fc_blocks(const struct e2l_journal *j)
{
	/* mke2fs reserves the area (s_num_fc_blks) before the kernel turns
	 * the feature on; with the feature on, 0 means the default. */
	if (j->sb_num_fc_blocks)
		return j->sb_num_fc_blocks;
	if (j->sb_feature_incompat & E2L_JFEAT_INCOMPAT_FAST_COMMIT)
		return JBD2_DEFAULT_FC_BLOCKS;
	return 0;
}

/* The UUID of journal user i (0-based), or -1 when there is none. */
int journal_user(const struct e2l_journal *j, unsigned i, char out[37])
{
	if (!j->sb_valid || !j->sb_raw || i >= j->sb_nr_users ||
	    i >= JBD2_USERS_MAX ||
	    JBD2_USERS_OFF + 16 * (i + 1) > j->sb_raw_len)
		return -1;
	e2p_uuid_to_str(j->sb_raw + JBD2_USERS_OFF + 16 * i, out);
	return 0;
}

unsigned journal_tag_bytes(__u32 incompat)
{
	unsigned n = 12;	/* blocknr, csum16, flags16, blocknr_high */

	if (incompat & E2L_JFEAT_INCOMPAT_CSUM_V3)
		return 16;	/* blocknr, flags32, blocknr_high, csum32 */
	if (incompat & E2L_JFEAT_INCOMPAT_CSUM_V2)
		n += 2;
	return incompat & E2L_JFEAT_INCOMPAT_64BIT ? n : n - 4;
}
