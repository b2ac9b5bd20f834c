/* lab_htree.c - indexed (htree) directories for the labs: the recipe step
 * that builds one (`names DIR count=N`), and the facts read back from one
 * (dir(PATH).indexed/.depth/.blocks, dirent(PATH).hash/.leaf). */
#include "lab_htree.h"
#include "demo_int.h"

#include <stdio.h>
#include <string.h>

#define DX_ROOT_INFO	24	/* after the "." and ".." entries */
#define DX_ENTRIES	32	/* the root's count/limit, then its entries */

/* Turns the empty directory ino (parent: its "..") into an htree root
 * with one empty leaf, as the kernel does when a directory outgrows its
 * first block; ext2fs_link then adds to the tree and splits leaves. */
static errcode_t dx_start(ext2_filsys fs, ext2_ino_t dir, ext2_ino_t parent)
{
	struct ext2_dir_entry *de;
	struct ext2_inode inode;
	unsigned bs = fs->blocksize, tail = 0;
	unsigned char *buf = NULL;
	blk64_t pblk;
	errcode_t err;

	err = ext2fs_expand_dir(fs, dir);	/* logical block 1: the leaf */
	if (!err)
		err = ext2fs_bmap2(fs, dir, NULL, NULL, 0, 0, NULL, &pblk);
	if (!err)
		err = ext2fs_get_memzero(bs, &buf);
	if (err)
		goto out;
	if (ext2fs_has_feature_metadata_csum(fs->super))
		tail = sizeof(struct ext2_dx_tail);
	de = (void *)buf;
	de->inode = dir;
	ext2fs_dirent_set_name_len(de, 1);
	ext2fs_dirent_set_file_type(de, EXT2_FT_DIR);
	de->name[0] = '.';
	de->rec_len = 12;
	de = (void *)(buf + 12);
	de->inode = parent;
	ext2fs_dirent_set_name_len(de, 2);
	ext2fs_dirent_set_file_type(de, EXT2_FT_DIR);
	de->name[0] = de->name[1] = '.';
	err = ext2fs_set_rec_len(fs, bs - 12, de);
	if (err)
		goto out;
	{
		struct ext2_dx_root_info *ri = (void *)(buf + DX_ROOT_INFO);
		struct ext2_dx_countlimit *cl = (void *)(buf + DX_ENTRIES);
		struct ext2_dx_entry *ent = (void *)cl;

		ri->hash_version = fs->super->s_def_hash_version;
		ri->info_length = sizeof(*ri);
		ri->indirect_levels = 0;
		cl->limit = ext2fs_cpu_to_le16((bs - DX_ENTRIES - tail) /
					       sizeof(*ent));
		cl->count = ext2fs_cpu_to_le16(1);
		ent[0].block = ext2fs_cpu_to_le32(1);
	}
	err = ext2fs_write_dir_block4(fs, pblk, buf, 0, dir);
	if (!err)
		err = ext2fs_read_inode(fs, dir, &inode);
	if (!err) {
		inode.i_flags |= EXT2_INDEX_FL;
		err = ext2fs_write_inode(fs, dir, &inode);
	}
out:
	ext2fs_free_mem(&buf);
	return err;
}

errcode_t lab_step_names(struct demo *d, ext2_ino_t dir, ext2_ino_t parent,
			 const char *path, unsigned long count)
{
	struct demo_file f;
	char name[64], full[320];
	unsigned long i;
	errcode_t err;

	err = dx_start(d->fs, dir, parent);
	for (i = 0; !err && i < count; i++) {
		/* maildir-like names: a time, a unique part, a host */
		snprintf(name, sizeof(name), "%llu.M%luP%u.mx%u",
			 (unsigned long long)(d->fs->now - i * 37), i,
			 demo_rand_range(d, 1000, 99999),
			 demo_rand_range(d, 1, 9));
		snprintf(full, sizeof(full), "%s/%s", path, name);
		err = demo_file_begin(d, dir, name, full, 0, &f);
		if (!err)
			err = demo_file_end(d, &f);
	}
	return err;
}

/* Reads the htree root of dir: its depth, or why it has none. */
static const char *dx_root(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode *inode, unsigned *levels)
{
	struct ext2_dx_root_info *ri;
	unsigned char *buf = NULL;
	const char *why = NULL;
	blk64_t pblk;

	if (ext2fs_read_inode(fs, dir, inode))
		return "cannot read the directory's inode";
	if (!LINUX_S_ISDIR(inode->i_mode))
		return "not a directory";
	*levels = 0;
	if (!(inode->i_flags & EXT2_INDEX_FL))
		return NULL;
	if (ext2fs_bmap2(fs, dir, inode, NULL, 0, 0, NULL, &pblk) || !pblk ||
	    ext2fs_get_mem(fs->blocksize, &buf) ||
	    io_channel_read_blk64(fs->io, pblk, 1, buf)) {
		why = "cannot read the htree root";
		goto out;
	}
	ri = (void *)(buf + DX_ROOT_INFO);
	if (ri->info_length != sizeof(*ri) || ri->indirect_levels > 2)
		why = "the htree root is damaged";
	else
		*levels = ri->indirect_levels;
out:
	ext2fs_free_mem(&buf);
	return why;
}

const char *lab_fact_dir(ext2_filsys fs, const char *path,
			 const char *field, unsigned long long *n)
{
	struct ext2_inode inode;
	ext2_ino_t ino;
	unsigned levels;
	const char *why;

	if (ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, path, &ino))
		return "no such directory";
	why = dx_root(fs, ino, &inode, &levels);
	if (why)
		return why;
	if (!strcmp(field, "indexed")) {
		*n = !!(inode.i_flags & EXT2_INDEX_FL);
	} else if (!strcmp(field, "depth")) {
		if (!(inode.i_flags & EXT2_INDEX_FL))
			return "not an indexed directory";
		*n = levels;
	} else if (!strcmp(field, "blocks")) {
		*n = EXT2_I_SIZE(&inode) / fs->blocksize;
	} else {
		return "unknown dir field";
	}
	return NULL;
}

/* The logical block of dir that holds name, by reading every block. */
static const char *leaf_of(ext2_filsys fs, ext2_ino_t dir,
			   struct ext2_inode *inode, const char *name,
			   blk64_t *leaf)
{
	size_t len = strlen(name);
	unsigned char *buf = NULL;
	blk64_t nblk = EXT2_I_SIZE(inode) / fs->blocksize, b, pblk;
	const char *why = "no such name in the directory";
	unsigned off;

	if (ext2fs_get_mem(fs->blocksize, &buf))
		return "out of memory";
	for (b = 0; b < nblk; b++) {
		if (ext2fs_bmap2(fs, dir, inode, NULL, 0, b, NULL, &pblk) ||
		    !pblk ||
		    ext2fs_read_dir_block4(fs, pblk, buf, 0, dir))
			continue;
		for (off = 0; off + 8 <= fs->blocksize;) {
			struct ext2_dir_entry *de = (void *)(buf + off);
			unsigned rl;

			if (ext2fs_get_rec_len(fs, de, &rl) || rl < 8)
				break;
			if (de->inode && (size_t)ext2fs_dirent_name_len(de) == len &&
			    !memcmp(de->name, name, len)) {
				*leaf = b;
				why = NULL;
				goto out;
			}
			off += rl;
		}
	}
out:
	ext2fs_free_mem(&buf);
	return why;
}

const char *lab_fact_dirent(ext2_filsys fs, const char *path,
			    const char *field, struct strbuf *s,
			    unsigned long long *n, int *isnum)
{
	char parent[256];
	const char *name = strrchr(path, '/');
	struct ext2_inode inode;
	ext2_dirhash_t hash, minor;
	ext2_ino_t dir;
	unsigned levels;
	const char *why;
	blk64_t leaf;
	int version;

	if (!name || !name[1] || name - path >= (long)sizeof(parent))
		return "a dirent needs /DIR/NAME";
	snprintf(parent, sizeof(parent), "%.*s",
		 name == path ? 1 : (int)(name - path), path);
	name++;
	if (ext2fs_namei(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, parent, &dir))
		return "no such directory";
	why = dx_root(fs, dir, &inode, &levels);
	if (why)
		return why;
	*isnum = 0;
	if (!strcmp(field, "hash") || !strcmp(field, "minor")) {
		version = fs->super->s_def_hash_version;
		if (version <= EXT2_HASH_TEA &&
		    (fs->super->s_flags & EXT2_FLAGS_UNSIGNED_HASH))
			version += 3;
		if (ext2fs_dirhash2(version, name, strlen(name),
				    fs->encoding, 0, fs->super->s_hash_seed,
				    &hash, &minor))
			return "cannot hash the name";
		strbuf_printf(s, "0x%08x", field[0] == 'h' ? hash : minor);
		return NULL;
	}
	if (strcmp(field, "leaf"))
		return "unknown dirent field";
	why = leaf_of(fs, dir, &inode, name, &leaf);
	if (why)
		return why;
	*n = leaf;
	*isnum = 1;
	strbuf_printf(s, "%llu", (unsigned long long)leaf);
	return NULL;
}
