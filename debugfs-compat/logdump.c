/* logdump.c - debugfs's logdump: walks the jbd2 journal (internal,
 * from the superblock's backup copy of its block map, or an external
 * file) from its start, decoding the big-endian descriptor, commit and
 * revoke blocks itself (libext2fs installs no journal decoder). */
#include "cmd.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static unsigned be32(const unsigned char *p)
{
	return (unsigned)p[0] << 24 | p[1] << 16 | p[2] << 8 | p[3];
}

static void lg_printf(struct lg *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void lg_printf(struct lg *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (l->file)
		vfprintf(l->file, fmt, ap);
	else
		out_vprintf(l->s->out, fmt, ap);
	va_end(ap);
}

static int lg_read(struct lg *l, const char *who, ext2_loff_t off,
		   unsigned char *buf, unsigned size)
{
	unsigned got = 0;
	errcode_t err;
	ssize_t n;

	if (!l->jfile) {
		if (lseek(l->fd, off, SEEK_SET) < 0) {
			out_error(l->s->out, who, errno,
				  "while seeking in reading journal");
			return -1;
		}
		n = read(l->fd, buf, size);
		if (n < 0) {
			out_error(l->s->out, who, errno,
				  "while reading journal");
			return -1;
		}
		got = n;
	} else {
		err = ext2fs_file_llseek(l->jfile, off, EXT2_SEEK_SET, NULL);
		if (err) {
			out_error(l->s->out, who, err,
				  "while seeking in reading journal");
			return -1;
		}
		err = ext2fs_file_read(l->jfile, buf, size, &got);
		if (err) {
			out_error(l->s->out, who, err,
				  "while reading journal");
			return -1;
		}
	}
	if (got != size) {
		out_error(l->s->out, who, 0, "short read (read %u, expected "
			  "%u) while reading journal", got, size);
		return -1;
	}
	return 0;
}

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

static unsigned lg_wrap(struct lg *l, unsigned blk)
{
	if (blk >= l->maxlen)
		blk -= l->maxlen - l->first;
	return blk;
}

/* debugfs's -c dump: native-endian words, then the bytes. */
static void lg_hexdump(struct lg *l, const unsigned char *buf)
{
	unsigned i, j;
	int w;

	for (i = 0; i < l->bs; i += 16) {
		lg_printf(l, "    %04x:  ", i);
		for (j = 0; j < 16; j += 4) {
			memcpy(&w, buf + i + j, 4);
			lg_printf(l, "%08x ", w);
		}
		for (j = 0; j < 16; j++) {
			unsigned char c = buf[i + j];

			lg_printf(l, "%c", c < ' ' || c >= 127 ? '.' : c);
		}
		lg_printf(l, "\n");
	}
}

static void lg_metadata(struct lg *l, unsigned jblk, unsigned fsblk,
			unsigned flags, unsigned seq)
{
	unsigned char *buf;
	struct ext2_inode *inode;
	struct ext2_super_block *sb;
	unsigned off, i, first, prev, cur;
	int start;

	if (sink_is_json(l->s->out)) {
		json_obj_begin(l->s->out, NULL);
		json_u64(l->s->out, "fs_block", fsblk);
		json_u64(l->s->out, "journal_block", jblk);
		json_u64(l->s->out, "flags", flags);
		json_u64(l->s->out, "sequence", seq);
		json_obj_end(l->s->out);
	}
	if (!(l->all || fsblk == l->block || fsblk == l->iblock ||
	      fsblk == l->bitmap))
		return;
	lg_printf(l, "  FS block %u logged at ", fsblk);
	if (!l->all)
		lg_printf(l, "sequence %u, ", seq);
	lg_printf(l, "journal block %u (flags 0x%x)\n", jblk, flags);
	if (!(l->contents && l->all) && fsblk != l->block &&
	    fsblk != l->bitmap && fsblk != l->iblock)
		return;
	buf = malloc(l->bs);
	if (!buf)
		return;
	if (lg_read(l, "logdump", (ext2_loff_t)jblk * l->bs, buf, l->bs))
		goto out;
	if (fsblk == l->bitmap) {
		sb = l->s->fs->super;
		off = (l->block - sb->s_first_data_block) %
		      sb->s_blocks_per_group;
		lg_printf(l, "    (block bitmap for block %llu: block is %s)\n",
			  (unsigned long long)l->block,
			  ext2fs_test_bit(off, buf) ? "SET" : "CLEAR");
	}
	if (fsblk == l->iblock) {
		/* the inode itself is not decoded here (see help) */
		lg_printf(l, "    (inode block for inode %u):\n", l->ino);
		inode = (struct ext2_inode *)(buf + l->ioffset);
		lg_printf(l, "    Blocks:  ");
		first = prev = 0;
		start = -1;
		for (i = 0; i < EXT2_NDIR_BLOCKS; i++) {
			cur = inode->i_block[i];
			if (start >= 0 && cur == prev + 1) {
				prev = cur;
				continue;
			}
			if (start >= 0 && first)
				lg_printf(l, "(%d+%u): %u ", start,
					  i - start, first);
			start = i;
			first = prev = cur;
		}
		if (start >= 0 && first)
			lg_printf(l, "(%d+%u): %u ", start, i - start, first);
		if (inode->i_block[EXT2_IND_BLOCK])
			lg_printf(l, "(IND): %u ",
				  inode->i_block[EXT2_IND_BLOCK]);
		if (inode->i_block[EXT2_DIND_BLOCK])
			lg_printf(l, "(DIND): %u ",
				  inode->i_block[EXT2_DIND_BLOCK]);
		if (inode->i_block[EXT2_TIND_BLOCK])
			lg_printf(l, "(TIND): %u ",
				  inode->i_block[EXT2_TIND_BLOCK]);
		lg_printf(l, "\n");
	}
	if (l->contents)
		lg_hexdump(l, buf);
out:
	free(buf);
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

static unsigned le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
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

static void lg_journal(struct lg *l)
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

static void lg_usage(struct session *s, const char *who)
{
	out_errtext(s->out, "%s: Usage: logdump [-acsOS] [-n<num_trans>] "
		    "[-b<block>] [-i<filespec>]\n\t[-f<journal_file>] "
		    "[output_file]\n", who);
}

static int lg_open_internal(struct lg *l, int use_sb, char **argv)
{
	struct ext2_super_block *es = l->s->fs->super;
	struct ext2_inode inode;
	errcode_t err;

	if (use_sb) {
		if (es->s_jnl_backup_type != EXT3_JNL_BACKUP_BLOCKS) {
			out_error(l->s->out, argv[0], 0,
				  "no journal backup in super block\n");
			return -1;
		}
		memset(&inode, 0, sizeof(inode));
		memcpy(inode.i_block, es->s_jnl_blocks, EXT2_N_BLOCKS * 4);
		inode.i_size_high = es->s_jnl_blocks[15];
		inode.i_size = es->s_jnl_blocks[16];
		inode.i_links_count = 1;
		inode.i_mode = LINUX_S_IFREG | 0600;
	} else if (dfs_read_inode(l->s, es->s_journal_inum, &inode,
				  argv[0])) {
		return -1;
	}
	err = ext2fs_file_open2(l->s->fs, es->s_journal_inum, &inode, 0,
				&l->jfile);
	if (err) {
		out_error(l->s->out, argv[0], err, "while opening ext2 file");
		return -1;
	}
	return 0;
}

static int do_logdump(struct session *s, int argc, char **argv)
{
	const char *ispec = NULL, *jfn = NULL;
	struct ext2_super_block *es;
	struct lg l;
	int c, use_sb = 0, super = 0, ret = CMD_FAIL;
	unsigned grp, off, ipb;
	char *end;

	memset(&l, 0, sizeof(l));
	l.s = s;
	l.cmd = argv[0];
	l.fd = -1;
	l.descriptors = 1;
	l.counts = -1;
	l.block = l.bitmap = l.iblock = ANY_BLOCK;
	while ((c = dfs_getopt(s, argc, argv, "ab:ci:f:OsSn:")) != -1) {
		switch (c) {
		case 'a':
			l.all++;
			break;
		case 'b':
			l.block = strtoul(optarg, &end, 0);
			if (*end) {
				out_error(s->out, argv[0], 0,
					  "Bad block number - %s", optarg);
				return CMD_FAIL;
			}
			l.descriptors = 0;
			break;
		case 'c':
			l.contents++;
			break;
		case 'f':
			jfn = optarg;
			break;
		case 'i':
			ispec = optarg;
			l.descriptors = 0;
			break;
		case 'O':
			l.old++;
			break;
		case 's':
			use_sb++;
			break;
		case 'S':
			super++;
			break;
		case 'n':
			l.counts = strtol(optarg, &end, 10);
			if (*end) {
				out_error(s->out, argv[0], 0,
					  "Bad log counts number - %s", optarg);
				return CMD_FAIL;
			}
			break;
		default:
			lg_usage(s, argv[0]);
			return CMD_FAIL;
		}
	}
	if (optind != argc && optind != argc - 1) {
		lg_usage(s, argv[0]);
		return CMD_FAIL;
	}
	if (ispec) {
		if (dfs_check_open(s, argv[0]))
			return CMD_FAIL;
		l.ino = dfs_string_to_inode(s, ispec);
		if (!l.ino)
			return CMD_FAIL;
		es = s->fs->super;
		grp = (l.ino - 1) / es->s_inodes_per_group;
		off = (l.ino - 1) % es->s_inodes_per_group;
		ipb = s->fs->blocksize / sizeof(struct ext2_inode);
		l.iblock = ext2fs_inode_table_loc(s->fs, grp) + off / ipb;
		l.ioffset = (off % ipb) * sizeof(struct ext2_inode);
		out_printf(s->out, "Inode %u is at group %u, block %llu, "
			   "offset %u\n", l.ino, grp,
			   (unsigned long long)l.iblock, l.ioffset);
	}
	if (optind == argc - 1) {
		l.file = fopen(argv[optind], "w");
		if (!l.file) {
			out_error(s->out, argv[0], errno, "while opening %s "
				  "for logdump", argv[optind]);
			return CMD_FAIL;
		}
	}
	if (l.block != ANY_BLOCK && s->fs) {
		es = s->fs->super;
		grp = (l.block - es->s_first_data_block) /
		      es->s_blocks_per_group;
		l.bitmap = grp < s->fs->group_desc_count ?
			   ext2fs_block_bitmap_loc(s->fs, grp) : ANY_BLOCK;
	}
	if (!jfn && dfs_check_open(s, argv[0]))
		goto out;
	if (jfn) {
		l.fd = open(jfn, O_RDONLY, 0);
		if (l.fd < 0) {
			out_error(s->out, argv[0], errno,
				  "while opening %s for logdump", jfn);
			goto out;
		}
	} else if (s->fs->super->s_journal_inum) {
		if (lg_open_internal(&l, use_sb, argv))
			goto out;
	} else {
		out_error(s->out, argv[0], 0, "filesystem has no journal");
		goto out;
	}
	if (super) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = l.file ? l.file : sink_stream_begin(s->out, &text,
							       &len);
		unsigned char sbuf[1024];

		/* the journal superblock, listed by libe2p */
		if (f && !lg_read(&l, argv[0], 0, sbuf, 1024)) {
			e2p_list_journal_super(f, (char *)sbuf,
					       s->fs ? s->fs->blocksize : 1024,
					       0);
			fputc('\n', f);
		}
		if (f && !l.file)
			sink_stream_end(s->out, f, &text, &len);
	}
	json_u64(s->out, "journal_inode", s->fs ? s->fs->super->s_journal_inum
						: 0);
	lg_journal(&l);
	ret = CMD_OK;
out:
	if (l.jfile)
		ext2fs_file_close(l.jfile);
	if (l.fd >= 0)
		close(l.fd);
	if (l.file)
		fclose(l.file);
	return ret;
}

const struct cmd_entry cmd_logdump = {
	.name = "logdump",
	.synopsis = "logdump [-acsOS] [-n num_trans] [-b block] [-i filespec] "
		    "[-f journal_file] [output_file]",
	.summary = "Dump the contents of the journal",
	.options = "-a -c -s -O -S -n -b -i -f --json",
	.flags = CMD_DEBUGFS | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_logdump,
};
