/* logdump_decode.c - logdump's decoding of the big-endian jbd2 blocks
 * (libext2fs installs no journal decoder): the journal superblock, the
 * descriptor, commit and revoke blocks of the log, and the fast-commit
 * area's tags. */
#include "logdump_int.h"

#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

static const char *lg_type_name(unsigned t)
{
	switch (t) {
	case JT_DESCRIPTOR:
		return "descriptor block";
	case JT_COMMIT:
		return "commit block";
	case JT_SB_V1:
		return "V1 superblock";
	case JT_SB_V2:
		return "V2 superblock";
	case JT_REVOKE:
		return "revoke table";
	}
	return "unrecognised type";
}

static unsigned lg_descriptor(struct lg *l, const unsigned char *buf,
			      unsigned blk, unsigned seq)
{
	unsigned incompat = be32(l->jsb + 40), tag_size, csum = 0;
	unsigned off = 12, fsblk, flags;

	if (incompat & JI_CSUM_V3) {
		tag_size = 16;
	} else {
		tag_size = 12;
		if (incompat & JI_CSUM_V2)
			tag_size += 2;
		if (!(incompat & JI_64BIT))
			tag_size -= 4;
	}
	if (incompat & (JI_CSUM_V2 | JI_CSUM_V3))
		csum = 4;
	if (l->all)
		lg_printf(l, "Dumping descriptor block, sequence %u, at "
			  "block %u:\n", seq, blk);
	blk = lg_wrap(l, blk + 1);
	do {
		const unsigned char *tag = buf + off;

		off += tag_size;
		if (off > l->bs - csum)
			break;
		fsblk = be32(tag);
		flags = tag[6] << 8 | tag[7];
		if (!(flags & JF_SAME_UUID))
			off += 16;
		lg_metadata(l, blk, fsblk, flags, seq);
		blk = lg_wrap(l, blk + 1);
	} while (!(flags & JF_LAST_TAG));
	return blk;
}

static void lg_revoke(struct lg *l, const unsigned char *buf, unsigned blk,
		      unsigned seq)
{
	unsigned size = (be32(l->jsb + 40) & JI_64BIT) ? 8 : 4;
	unsigned off = 16, max = be32(buf + 12);
	unsigned long long rb;

	if (l->all)
		lg_printf(l, "Dumping revoke block, sequence %u, at block "
			  "%u:\n", seq, blk);
	if (max > l->bs) {
		/* debugfs says so (ending in a backspace, not a newline),
		 * then reads the whole block; a corrupt count must not
		 * overrun it. */
		lg_printf(l, "Revoke block's r_count invalid: %u\b", max);
		max = l->bs;
	}
	while (off < max && off + size <= l->bs) {
		rb = be32(buf + off);
		if (size == 8)
			rb = rb << 32 | be32(buf + off + 4);
		if (sink_is_json(l->s->out)) {
			json_obj_begin(l->s->out, NULL);
			json_u64(l->s->out, "fs_block", rb);
			json_u64(l->s->out, "journal_block", blk);
			json_u64(l->s->out, "sequence", seq);
			json_obj_end(l->s->out);
		}
		if (l->all || rb == l->block) {
			lg_printf(l, "  Revoke FS block %llu", rb);
			if (l->all)
				lg_printf(l, "\n");
			else
				lg_printf(l, " at block %u, sequence %u\n",
					  blk, seq);
		}
		off += size;
	}
}

static const char *lg_tag_name(unsigned tag)
{
	static const char *const names[] = {NULL, "ADD_RANGE", "DEL_RANGE",
		"CREAT_DENTRY", "ADD_ENTRY", "DEL_ENTRY", "INODE", "PAD",
		"TAIL", "HEAD"};

	return tag >= 1 && tag <= 9 ? names[tag] : "ERROR";
}

/* One fast-commit block; returns 1 when the area ends here. */
static int lg_fc_block(struct lg *l, const unsigned char *buf, unsigned tid)
{
	unsigned off = 0, tag, len, ee_len;
	const unsigned char *v;
	int done = 0;

	while (off + 4 <= l->bs) {
		tag = buf[off] | buf[off + 1] << 8;
		len = buf[off + 2] | buf[off + 3] << 8;
		v = buf + off + 4;
		if (tag >= 1 && tag <= 9 && off + 4 + len > l->bs)
			break;	/* a value running off the block */
		switch (tag) {
		case 1:
			ee_len = v[8] | v[9] << 8;
			if (ee_len > 32768)
				ee_len -= 32768;
			lg_printf(l, "tag %s, inode %d, lblk %u, pblk %llu, "
				  "len %lu\n", lg_tag_name(tag),
				  (int)le32(v), le32(v + 4),
				  (unsigned long long)le32(v + 12) +
				  ((unsigned long long)(v[10] | v[11] << 8)
				   << 32), (unsigned long)ee_len);
			break;
		case 2:
			lg_printf(l, "tag %s, inode %d, lblk %d, len %d\n",
				  lg_tag_name(tag), (int)le32(v),
				  (int)le32(v + 4), (int)le32(v + 8));
			break;
		case 3:
		case 4:
		case 5:
			/* debugfs shows one byte past the name (the next
			 * tag's first byte, up to a NUL): so do we, within
			 * the block. */
			lg_printf(l, "tag %s, parent %d, ino %d, name \"%.*s\"\n",
				  lg_tag_name(tag), (int)le32(v),
				  (int)le32(v + 4), len > 8 ? (int)len - 8 +
				  (off + 4 + len < l->bs) : 0, v + 8);
			break;
		case 6:
			lg_printf(l, "tag %s, inode %d\n", lg_tag_name(tag),
				  (int)le32(v));
			break;
		case 7:
			lg_printf(l, "tag %s\n", lg_tag_name(tag));
			break;
		case 8:
			lg_printf(l, "tag %s, tid %d\n", lg_tag_name(tag),
				  (int)le32(v));
			if (!l->old && le32(v) < tid)
				return 1;
			break;
		case 9:
			lg_printf(l, "\n*** Fast Commit Area ***\n");
			lg_printf(l, "tag %s, features 0x%x, tid %d\n",
				  lg_tag_name(tag), le32(v), (int)le32(v + 4));
			if (!l->old && le32(v + 4) < tid)
				return 1;
			break;
		default:
			done = 1;
			break;
		}
		off += 4 + len;
	}
	return done;
}

void lg_journal(struct lg *l)
{
	unsigned char *head, *buf = NULL;
	unsigned blk = 0, seq, magic, type, tid, nfc;
	struct ext2_super_block *sb;
	unsigned long long total;
	long long commits = 0;
	int no_magic = 0;
	struct stat st;
	errcode_t err;

	l->bs = 1024;
	head = malloc(2048);
	if (!head || lg_read(l, l->cmd, 0, head, 2048))
		goto out;
	sb = (struct ext2_super_block *)(head + 1024);
	if (be32(head) != JMAGIC && sb->s_magic == EXT2_SUPER_MAGIC &&
	    ext2fs_has_feature_journal_dev(sb)) {
		const unsigned char *u = sb->s_uuid;

		l->bs = EXT2_BLOCK_SIZE(sb);
		blk = l->bs == 1024 ? 2 : 1;
		lg_printf(l, "Ext2 superblock header found.\n");
		if (l->all) {
			lg_printf(l, "\tuuid=%02x%02x%02x%02x-%02x%02x-%02x%02x-"
				  "%02x%02x-%02x%02x%02x%02x%02x%02x\n", u[0],
				  u[1], u[2], u[3], u[4], u[5], u[6], u[7],
				  u[8], u[9], u[10], u[11], u[12], u[13],
				  u[14], u[15]);
			lg_printf(l, "\tblocksize=%d\n", l->bs);
			lg_printf(l, "\tjournal data size %lu\n",
				  (unsigned long)ext2fs_blocks_count(sb));
		}
	}
	if (lg_read(l, l->cmd, (ext2_loff_t)blk * l->bs, l->jsb, 1024))
		goto out;
	if (be32(l->jsb) != JMAGIC) {
		lg_printf(l, "Journal superblock magic number invalid!\n");
		goto out;
	}
	l->bs = be32(l->jsb + 12);
	if (l->bs < 1024 || l->bs > EXT2_MAX_BLOCK_SIZE ||
	    (l->bs & (l->bs - 1))) {
		lg_printf(l, "Journal block size invalid: %u (%u)\n", l->bs,
			  l->bs);
		goto out;
	}
	tid = be32(l->jsb + 24);
	blk = be32(l->jsb + 28);
	l->first = be32(l->jsb + 20);
	if (l->jfile) {
		err = ext2fs_file_get_lsize(l->jfile, &total);
		if (err) {
			out_error(l->s->out, "dump_journal", err,
				  "while getting journal inode size");
			goto out;
		}
	} else {
		if (fstat(l->fd, &st) < 0) {
			out_error(l->s->out, "dump_journal", errno,
				  "while getting journal inode size");
			goto out;
		}
		total = st.st_size;
	}
	total /= l->bs;
	l->maxlen = be32(l->jsb + 16);
	if (l->maxlen > total)
		l->maxlen = total;
	lg_printf(l, "Journal starts at block %u, transaction %u\n", blk, tid);
	buf = malloc(l->bs);
	if (!buf)
		goto out;
	json_arr_begin(l->s->out, "blocks");
	if (!blk) {
		if (!l->old)
			goto fc;
		blk = 1;
	}
	for (;;) {
		if (l->old && l->counts != -1 && commits >= l->counts)
			break;
		if (lg_read(l, l->cmd, (ext2_loff_t)blk * l->bs, buf, l->bs))
			break;
		magic = be32(buf);
		if (magic == JMAGIC && no_magic)
			no_magic = 1;
		type = be32(buf + 4);
		seq = be32(buf + 8);
		if (magic != JMAGIC) {
			if (!no_magic) {
				no_magic = 1;
				lg_printf(l, "No magic number at block %u: "
					  "end of journal.\n", blk);
			}
			/* -O -n goes on past it; a whole lap without a
			 * header ends it (debugfs would loop forever) */
			if (l->old && l->counts != -1 &&
			    ++no_magic <= (int)l->maxlen) {
				blk = lg_wrap(l, blk + 1);
				continue;
			}
			break;
		}
		if (seq != tid) {
			lg_printf(l, "Found sequence %u (not %u) at block %u: "
				  "end of journal.\n", seq, tid, blk);
			if (!l->old)
				break;
		}
		if (l->descriptors)
			lg_printf(l, "Found expected sequence %u, type %u (%s) "
				  "at block %u\n", seq, type,
				  lg_type_name(type), blk);
		if (sink_is_json(l->s->out)) {
			json_obj_begin(l->s->out, NULL);
			json_u64(l->s->out, "journal_block", blk);
			json_u64(l->s->out, "sequence", seq);
			json_str(l->s->out, "type", lg_type_name(type));
			json_arr_begin(l->s->out, type == JT_REVOKE ?
				       "revoked" : "logged");
		}
		if (type == JT_DESCRIPTOR) {
			blk = lg_descriptor(l, buf, blk, tid);
		} else if (type == JT_COMMIT) {
			commits++;
			tid++;
			blk = lg_wrap(l, blk + 1);
		} else if (type == JT_REVOKE) {
			lg_revoke(l, buf, blk, tid);
			blk = lg_wrap(l, blk + 1);
		} else {
			lg_printf(l, "Unexpected block type %u at block %u.\n",
				  type, blk);
		}
		if (sink_is_json(l->s->out)) {
			json_arr_end(l->s->out);
			json_obj_end(l->s->out);
		}
		if (type < JT_DESCRIPTOR || type > JT_REVOKE ||
		    type == JT_SB_V1 || type == JT_SB_V2)
			break;
	}
fc:
	json_arr_end(l->s->out);
	nfc = be32(l->jsb + 0x54);
	if (!nfc)
		nfc = J_DEFAULT_FC;
	for (blk = l->maxlen - nfc + 1; blk <= l->maxlen; blk++) {
		if (lg_read(l, l->cmd, (ext2_loff_t)blk * l->bs, buf, l->bs))
			break;
		if (lg_fc_block(l, buf, tid) && !l->old)
			break;
	}
out:
	free(buf);
	free(head);
}
