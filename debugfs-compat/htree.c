/* htree.c - debugfs's htree_dump (the hash index of a directory, node
 * by node, with every leaf entry's hash), dx_hash (a name's hash) and
 * dirsearch (a linear search of a directory's blocks for a name). */
#include "cmd.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

struct ht_state {
	struct session *s;
	ext2_ino_t ino;
	struct ext2_inode *inode;
	int hash_alg;
};

static unsigned ht_le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

static unsigned ht_le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned)p[3] << 24;
}

static void ht_leaf(struct ht_state *st, blk64_t lblk, char *buf)
{
	struct session *s = st->s;
	struct sink *o = s->out;
	unsigned bs = s->fs->blocksize, off = 0, rec_len, nlen;
	struct ext2_dir_entry *d;
	ext2_dirhash_t hash, minor;
	char item[EXT2_NAME_LEN + 64];
	int col = 0, len;
	blk64_t pblk;
	errcode_t err;

	err = ext2fs_bmap2(s->fs, st->ino, st->inode, NULL, 0, lblk, NULL,
			   &pblk);
	if (err) {
		out_error(o, "htree_dump_leaf_node", err,
			  "while mapping logical block %llu\n",
			  (unsigned long long)lblk);
		return;
	}
	out_printf(o, "Reading directory block %llu, phys %llu\n",
		   (unsigned long long)lblk, (unsigned long long)pblk);
	err = ext2fs_read_dir_block4(s->fs, pblk, buf, 0, st->ino);
	if (err) {
		out_error(o, "htree_dump_leaf_node", err,
			  "while reading block %llu (%llu)\n",
			  (unsigned long long)lblk, (unsigned long long)pblk);
		return;
	}
	json_obj_begin(o, NULL);
	json_u64(o, "logical", lblk);
	json_u64(o, "physical", pblk);
	json_arr_begin(o, "entries");
	while (off < bs) {
		d = (struct ext2_dir_entry *)(buf + off);
		err = ext2fs_get_rec_len(s->fs, d, &rec_len);
		if (err) {
			out_error(o, "htree_dump_leaf_inode", err,
				  "while getting rec_len for block %lu",
				  (unsigned long)lblk);
			break;
		}
		nlen = ext2fs_dirent_name_len(d);
		if (off + rec_len > bs || rec_len < 8 || rec_len % 4 ||
		    nlen + 8 > rec_len) {
			out_printf(o, "Corrupted directory block (%llu)!\n",
				   (unsigned long long)lblk);
			break;
		}
		if (off == bs - 12 && !d->inode && rec_len == 12 && !nlen &&
		    ext2fs_dirent_file_type(d) == EXT2_DIR_NAME_LEN_CSUM >> 8 &&
		    ext2fs_has_feature_metadata_csum(s->fs->super)) {
			snprintf(item, sizeof(item),
				 "leaf block checksum: 0x%08x  ",
				 ht_le32((unsigned char *)d + 8));
		} else {
			err = ext2fs_dirhash2(st->hash_alg, d->name, nlen,
					      s->fs->encoding,
					      st->inode->i_flags &
					      EXT4_CASEFOLD_FL,
					      s->fs->super->s_hash_seed,
					      &hash, &minor);
			if (err)
				out_error(o, "htree_dump_leaf_node", err,
					  "while calculating hash");
			snprintf(item, sizeof(item), "%u 0x%08x-%08x (%u) "
				 "%.*s   ", d->inode, hash, minor, rec_len,
				 (int)nlen, d->name);
			json_obj_begin(o, NULL);
			json_u64(o, "inode", d->inode);
			json_u64(o, "hash", hash);
			json_u64(o, "minor_hash", minor);
			json_u64(o, "rec_len", rec_len);
			json_str(o, "name", item + strlen(item) - nlen - 3);
			json_obj_end(o);
		}
		len = strlen(item);
		if (col + len > 80) {
			out_printf(o, "\n");
			col = 0;
		}
		out_printf(o, "%s", item);
		col += len;
		off += rec_len;
	}
	json_arr_end(o);
	json_obj_end(o);
	out_printf(o, "\n");
}

static void ht_node(struct ht_state *st, const unsigned char *ent,
		    unsigned avail, __u32 crc, int root, char *buf, int level);

/* The checksum an index block should carry, as debugfs asks libext2fs for
 * it (-1 after saying why there is none); root: the root block, else
 * the index block at lblk. */
static __u32 ht_crc(struct ht_state *st, char *block, int root,
		    blk64_t lblk)
{
	char where[64];
	__u32 crc;
	errcode_t err;

	err = ext2fs_dx_csum(st->s->fs, st->ino,
			     (struct ext2_dir_entry *)block, &crc, NULL);
	if (!err)
		return crc;
	if (root)
		snprintf(where, sizeof(where), "htree root");
	else
		snprintf(where, sizeof(where), "logical block %llu",
			 (unsigned long long)lblk);
	out_error(st->s->out, "htree_dump_int_block", err,
		  "while calculating checksum for %s\n", where);
	return (__u32)-1;
}

static void ht_int_block(struct ht_state *st, blk64_t lblk, char *buf,
			 int level)
{
	struct session *s = st->s;
	char *child;
	blk64_t pblk;
	errcode_t err;

	child = malloc(s->fs->blocksize);
	if (!child) {
		out_printf(s->out, "Couldn't allocate child block.\n");
		return;
	}
	err = ext2fs_bmap2(s->fs, st->ino, st->inode, NULL, 0, lblk, NULL,
			   &pblk);
	if (err) {
		out_error(s->out, "htree_dump_int_block", err,
			  "while mapping logical block %llu\n",
			  (unsigned long long)lblk);
		goto out;
	}
	err = io_channel_read_blk64(s->fs->io, pblk, 1, buf);
	if (err) {
		out_error(s->out, "htree_dump_int_block", err,
			  "while reading block %llu\n",
			  (unsigned long long)lblk);
		goto out;
	}
	ht_node(st, (unsigned char *)buf + 8, s->fs->blocksize - 8,
		ht_crc(st, buf, 0, lblk), 0, child, level);
out:
	free(child);
}

/* One index node: its entries, then each child in turn.  root: the
 * entries follow the root's 8-byte info directly (debugfs then counts the
 * root's 32 bytes before them). */
static void ht_node(struct ht_state *st, const unsigned char *ent,
		    unsigned avail, __u32 crc, int root, char *buf, int level)
{
	struct sink *o = st->s->out;
	unsigned count = ht_le16(ent + 2), limit = ht_le16(ent), i, hash;
	long rest = (long)st->s->fs->blocksize - (long)limit * 8 -
		    (root ? 32 : 8);
	__u32 have;

	out_printf(o, "Number of entries (count): %d\n", count);
	out_printf(o, "Number of entries (limit): %d\n", limit);
	/* the dx tail (reserved, checksum) fills what the entries leave */
	if (ext2fs_has_feature_metadata_csum(st->s->fs->super) &&
	    rest == 8 && (unsigned long)limit * 8 + 8 <= avail) {
		have = ht_le32(ent + limit * 8 + 4);
		out_printf(o, "Checksum: 0x%08x", have);
		if (have != crc)
			out_printf(o, " --- EXPECTED: 0x%08x", crc);
		out_printf(o, "\n");
	}
	if (count * 8 > avail)
		count = avail / 8;
	for (i = 0; i < count; i++) {
		hash = i ? ht_le32(ent + i * 8) : 0;
		out_printf(o, "Entry #%d: Hash 0x%08x%s, block %u\n", i, hash,
			   (hash & 1) ? " (**)" : "", ht_le32(ent + i * 8 + 4));
	}
	out_printf(o, "\n");
	for (i = 0; i < count; i++) {
		unsigned blk = ht_le32(ent + i * 8 + 4);

		out_printf(o, "Entry #%d: Hash 0x%08x, block %u\n", i,
			   i ? ht_le32(ent + i * 8) : 0, blk);
		if (level)
			ht_int_block(st, blk, buf, level - 1);
		else
			ht_leaf(st, blk, buf);
	}
	out_printf(o, "---------------------\n");
}

static int do_htree(struct session *s, int argc, char **argv)
{
	struct ext2_inode inode;
	struct ht_state st;
	unsigned char *root;
	char *buf = NULL;
	unsigned bs = s->fs->blocksize, ilen;
	blk64_t blk;
	ext2_ino_t ino;
	errcode_t err;
	int ret = CMD_FAIL;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino))
		return CMD_FAIL;
	if (dfs_read_inode(s, ino, &inode, argv[1]))
		return CMD_FAIL;
	if (!LINUX_S_ISDIR(inode.i_mode)) {
		out_error(s->out, argv[0], 0, "Not a directory");
		return CMD_FAIL;
	}
	if (!(inode.i_flags & EXT2_INDEX_FL)) {
		out_error(s->out, argv[0], 0, "Not a hash-indexed directory");
		return CMD_FAIL;
	}
	buf = malloc(2 * bs);
	if (!buf) {
		out_error(s->out, argv[0], 0, "Couldn't allocate htree buffer");
		return CMD_FAIL;
	}
	err = ext2fs_bmap2(s->fs, ino, &inode, NULL, 0, 0, NULL, &blk);
	if (err) {
		out_error(s->out, "do_htree_block", err,
			  "while mapping logical block 0\n");
		goto out;
	}
	err = io_channel_read_blk64(s->fs->io, blk, 1, buf);
	if (err) {
		out_error(s->out, argv[0], err, "Error reading root node");
		goto out;
	}
	root = (unsigned char *)buf + 24;
	out_printf(s->out, "Root node dump:\n");
	out_printf(s->out, "\t Reserved zero: %u\n", ht_le32(root));
	out_printf(s->out, "\t Hash Version: %d\n", root[4]);
	out_printf(s->out, "\t Info length: %d\n", root[5]);
	out_printf(s->out, "\t Indirect levels: %d\n", root[6]);
	out_printf(s->out, "\t Flags: %#x\n", root[7]);
	json_u64(s->out, "inode", ino);
	json_u64(s->out, "hash_version", root[4]);
	json_u64(s->out, "indirect_levels", root[6]);
	json_arr_begin(s->out, "leaves");
	st.s = s;
	st.ino = ino;
	st.inode = &inode;
	st.hash_alg = root[4];
	if (st.hash_alg <= EXT2_HASH_TEA &&
	    (s->fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
		st.hash_alg += 3;
	ilen = root[5];
	if (24 + ilen + 8 <= bs)
		ht_node(&st, root + ilen, bs - 24 - ilen,
			ht_crc(&st, buf, 1, 0), ilen == 8,
			buf + bs, root[6]);
	json_arr_end(s->out);
	ret = CMD_OK;
out:
	free(buf);
	return ret;
}

static const char *const htree_aliases[] = {"htree", NULL};
const struct cmd_entry cmd_htree_dump = {
	.name = "htree_dump",
	.aliases = htree_aliases,
	.synopsis = "htree_dump file",
	.summary = "Dump the hash index of a directory",
	.options = "--json",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_OPEN_FIRST,
	.complete = COMPLETE_PATH,
	.run = do_htree,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};

/* uuid_parse's format: 8-4-4-4-12 hex digits. */
static int ht_parse_uuid(const char *str, unsigned char out[16])
{
	int i, n = 0;
	char hex[3] = {0};

	if (strlen(str) != 36)
		return -1;
	for (i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (str[i] != '-')
				return -1;
			continue;
		}
		if (!strchr("0123456789abcdefABCDEF", str[i]) || !str[i])
			return -1;
	}
	for (i = 0; i < 36; i += 2) {
		if (str[i] == '-')
			i++;
		hex[0] = str[i];
		hex[1] = str[i + 1];
		out[n++] = strtoul(hex, NULL, 16);
	}
	return 0;
}

static int do_dx_hash(struct session *s, int argc, char **argv)
{
	const struct ext2fs_nls_table *charset = NULL;
	ext2_dirhash_t hash, minor;
	__u32 seed[4] = {0, 0, 0, 0};
	int c, version = 0, flags = 0, enc;
	errcode_t err;

	while ((c = dfs_getopt(s, argc, argv, "h:s:ce:")) != -1) {
		switch (c) {
		case 'h':
			version = e2p_string2hash(optarg);
			if (version < 0)
				version = atoi(optarg);
			break;
		case 's':
			if (ht_parse_uuid(optarg, (unsigned char *)seed)) {
				out_errtext(s->out, "Invalid UUID format: "
					    "%s\n", optarg);
				return CMD_FAIL;
			}
			break;
		case 'c':
			flags = EXT4_CASEFOLD_FL;
			break;
		case 'e':
			enc = e2p_str2encoding(optarg);
			if (enc < 0) {
				out_errtext(s->out, "Invalid encoding: %s\n",
					    optarg);
				return CMD_FAIL;
			}
			charset = ext2fs_load_nls_table(enc);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1) {
usage:
		out_error(s->out, argv[0], 0, "usage: dx_hash [-h hash_alg] "
			  "[-s hash_seed] [-c] [-e encoding] filename");
		return CMD_FAIL;
	}
	err = ext2fs_dirhash2(version, argv[optind], strlen(argv[optind]),
			      charset, flags, seed, &hash, &minor);
	if (err) {
		out_error(s->out, argv[0], err, "while calculating hash");
		return CMD_FAIL;
	}
	out_printf(s->out, "Hash of %s is 0x%0x (minor 0x%0x)\n",
		   argv[optind], hash, minor);
	return CMD_OK;
}

static const char *const hash_aliases[] = {"hash", NULL};
const struct cmd_entry cmd_dx_hash = {
	.name = "dx_hash",
	.aliases = hash_aliases,
	.synopsis = "dx_hash [-h hash_alg] [-s hash_seed] [-c] [-e encoding] "
		    "filename",
	.summary = "Calculate the directory hash of a file name",
	.options = "-h -s -c -e",
	.flags = CMD_DEBUGFS,
	.run = do_dx_hash,
};

struct ds_state {
	struct session *s;
	const char *name;
	size_t len;
	char *buf;
};

static int ds_block(ext2_filsys fs, blk64_t *blk, e2_blkcnt_t cnt,
		    blk64_t ref, int refoff, void *priv)
{
	struct ds_state *st = priv;
	struct ext2_dir_entry *d;
	unsigned off = 0, rec_len;
	errcode_t err;

	(void)ref;
	(void)refoff;
	if (cnt < 0)
		return 0;
	err = io_channel_read_blk64(fs->io, *blk, 1, st->buf);
	if (err) {
		out_error(st->s->out, "search_dir_block", err,
			  "while reading block %lu", (unsigned long)*blk);
		return BLOCK_ABORT;
	}
	while (off < fs->blocksize) {
		d = (struct ext2_dir_entry *)(st->buf + off);
		err = ext2fs_get_rec_len(fs, d, &rec_len);
		if (err) {
			out_error(st->s->out, "htree_dump_leaf_inode", err,
				  "while getting rec_len for block %lu",
				  (unsigned long)*blk);
			return BLOCK_ABORT;
		}
		if (d->inode && st->len == (d->name_len & 0xFF) &&
		    off + 8 + st->len <= fs->blocksize &&
		    !strncmp(st->name, d->name, st->len)) {
			out_printf(st->s->out, "Entry found at logical block "
				   "%lld, phys %llu, offset %u\n",
				   (long long)cnt, (unsigned long long)*blk,
				   off);
			out_printf(st->s->out, "offset %u\n", off);
			return BLOCK_ABORT;
		}
		if (!rec_len)
			return BLOCK_ABORT;	/* corrupt: would loop */
		off += rec_len;
	}
	return 0;
}

static int do_dirsearch(struct session *s, int argc, char **argv)
{
	struct ds_state st;
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	ino = dfs_string_to_inode(s, argv[1]);
	if (!ino)
		return CMD_FAIL;
	st.buf = malloc(s->fs->blocksize);
	if (!st.buf) {
		out_error(s->out, "dirsearch", 0, "Couldn't allocate buffer");
		return CMD_FAIL;
	}
	st.s = s;
	st.name = argv[2];
	st.len = strlen(argv[2]);
	ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
			      ds_block, &st);
	free(st.buf);
	return CMD_OK;
}

const struct cmd_entry cmd_dirsearch = {
	.name = "dirsearch",
	.synopsis = "dirsearch dir filename",
	.summary = "Search a directory's blocks for a name",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_OPEN_FIRST | CMD_USAGE_BARE,
	.complete = COMPLETE_PATH,
	.run = do_dirsearch,
	.min_args = 3,
	.max_args = 3,
	.usage = "dir filename",
	.usage_name = "dirsearch",
};
