/* demo_files.c - the demo's directory tree and files.  Every file's content
 * is the stream of lines "e2layout-demo seed=S PATH NNNNNNNNNN\n" (line
 * number, ten digits, from 0) cut to the file's size; sizes are fixed (see
 * help/cmd/mkdemo.txt), so tests can rebuild any file independently. */
#include "demo_int.h"

#include <stdio.h>
#include <string.h>

#define DEMO_CHUNK	64	/* blocks of data generated at a time */

/* Fills buf with n bytes of f's content from byte offset off. */
static void demo_content(const struct demo_file *f, uint64_t off, char *buf,
			 size_t n)
{
	size_t linelen = f->taglen + 12, col, k;
	uint64_t line = off / linelen, v;
	char l[160];
	int i;

	col = off % linelen;
	memcpy(l, f->tag, f->taglen);
	l[f->taglen] = ' ';
	l[linelen - 1] = '\n';
	while (n) {
		for (v = line, i = 10; i > 0; i--, v /= 10)
			l[f->taglen + i] = '0' + v % 10;
		k = linelen - col;
		if (k > n)
			k = n;
		memcpy(buf, l + col, k);
		buf += k;
		n -= k;
		col = 0;
		line++;
	}
}

static errcode_t demo_link(ext2_filsys fs, ext2_ino_t dir, const char *name,
			   ext2_ino_t ino, int type)
{
	errcode_t err = ext2fs_link(fs, dir, name, ino, type);

	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, dir);
		if (!err)
			err = ext2fs_link(fs, dir, name, ino, type);
	}
	return err;
}

errcode_t demo_file_begin(struct demo *d, ext2_ino_t dir, const char *name,
			  const char *path, uint64_t size,
			  struct demo_file *f)
{
	ext2_filsys fs = d->fs;
	errcode_t err;

	memset(f, 0, sizeof(*f));
	f->size = size;
	snprintf(f->tag, sizeof(f->tag), "e2layout-demo seed=%lu %s",
		 d->seed, path);
	f->taglen = strlen(f->tag);
	err = ext2fs_new_inode(fs, dir, LINUX_S_IFREG | 0644, 0, &f->ino);
	if (err)
		return err;
	err = demo_link(fs, dir, name, f->ino, EXT2_FT_REG_FILE);
	if (err)
		return err;
	ext2fs_inode_alloc_stats2(fs, f->ino, +1, 0);
	f->inode.i_mode = LINUX_S_IFREG | 0644;
	f->inode.i_links_count = 1;
	f->inode.i_flags = EXT4_EXTENTS_FL;
	f->inode.i_mtime = f->inode.i_atime = f->inode.i_ctime =
		fs->now - demo_rand_range(d, 0, 90 * 86400);
	err = ext2fs_write_new_inode(fs, f->ino, &f->inode);
	if (!err)
		err = ext2fs_read_inode(fs, f->ino, &f->inode);
	if (!err) {
		/* Opening the tree writes an empty header into i_block. */
		ext2_extent_handle_t h;

		err = ext2fs_extent_open2(fs, f->ino, &f->inode, &h);
		if (!err)
			ext2fs_extent_free(h);
	}
	d->files++;
	return err;
}

errcode_t demo_file_put(struct demo *d, struct demo_file *f, blk64_t lblk,
			blk64_t pblk, blk64_t count, int allocated)
{
	ext2_filsys fs = d->fs;
	uint64_t off, end;
	blk64_t i, n, p, c0, c1;
	errcode_t err;

	if (!count)
		return 0;
	if (!d->buf) {
		err = ext2fs_get_mem(DEMO_CHUNK * fs->blocksize, &d->buf);
		if (err)
			return err;
	}
	/* Whole clusters (one block each without bigalloc): those the run
	 * touches, less the one the file's previous run ended in. */
	c0 = EXT2FS_B2C(fs, pblk);
	c1 = EXT2FS_B2C(fs, pblk + count - 1);
	if (f->blocks && f->end && EXT2FS_B2C(fs, f->end - 1) == c0)
		c0++;
	if (!allocated && c0 <= c1)
		ext2fs_block_alloc_stats_range(fs, EXT2FS_C2B(fs, c0),
			(blk_t)EXT2FS_C2B(fs, c1 - c0 + 1), +1);
	for (i = 0; i < count; i += n) {
		n = count - i < DEMO_CHUNK ? count - i : DEMO_CHUNK;
		off = (lblk + i) * fs->blocksize;
		end = off + n * fs->blocksize;
		memset(d->buf, 0, n * fs->blocksize);
		if (off < f->size)
			demo_content(f, off, d->buf,
				     (end < f->size ? end : f->size) - off);
		err = io_channel_write_blk64(fs->io, pblk + i, n, d->buf);
		if (err)
			return err;
	}
	for (i = 0; i < count; i++) {
		p = pblk + i;
		err = ext2fs_bmap2(fs, f->ino, &f->inode, NULL, BMAP_SET,
				   lblk + i, NULL, &p);
		if (err)
			return err;
	}
	err = c0 <= c1 ? ext2fs_iblk_add_blocks(fs, &f->inode, c1 - c0 + 1) :
	      0;
	f->blocks += count;
	f->end = pblk + count;
	d->data_bytes += count * fs->blocksize;
	if (lblk + count > f->next_lblk)
		f->next_lblk = lblk + count;
	return err;
}

errcode_t demo_file_end(struct demo *d, struct demo_file *f)
{
	errcode_t err = ext2fs_inode_size_set(d->fs, &f->inode, f->size);

	if (!err)
		err = ext2fs_write_inode(d->fs, f->ino, &f->inode);
	return err;
}

static blk64_t nblocks(struct demo *d, uint64_t size)
{
	return (size + d->fs->blocksize - 1) / d->fs->blocksize;
}

/* A file written front to back from the first free blocks after goal. */
static errcode_t demo_plain(struct demo *d, ext2_ino_t dir, const char *path,
			    uint64_t size, blk64_t goal)
{
	const char *name = strrchr(path, '/') + 1;
	struct demo_file f;
	struct demo_run r;
	blk64_t left = nblocks(d, size);
	errcode_t err;

	err = demo_file_begin(d, dir, name, path, size, &f);
	while (!err && left) {
		err = demo_find_free(d, goal, left, &r);
		if (!err)
			err = demo_file_put(d, &f, f.next_lblk, r.start,
					    r.len, 0);
		goal = r.start + r.len;
		left -= err ? 0 : r.len;
	}
	if (!err)
		err = demo_file_end(d, &f);
	return err;
}

/*
 * Files written side by side in small chunks (a database's tables, two
 * logs appended in turn), so each ends up in many extents.
 */
static errcode_t demo_interleaved(struct demo *d, ext2_ino_t dir,
				  const char *const *paths,
				  const uint64_t *sizes, int n,
				  unsigned chunk_lo, unsigned chunk_hi,
				  blk64_t goal)
{
	struct demo_file f[8];
	struct demo_run r;
	blk64_t left[8], busy = 1;
	errcode_t err = 0;
	int i;

	for (i = 0; i < n && !err; i++) {
		err = demo_file_begin(d, dir, strrchr(paths[i], '/') + 1,
				      paths[i], sizes[i], &f[i]);
		left[i] = nblocks(d, sizes[i]);
	}
	while (!err && busy) {
		busy = 0;
		for (i = 0; i < n && !err; i++) {
			blk64_t want = demo_rand_range(d, chunk_lo, chunk_hi);

			if (!left[i])
				continue;
			busy = 1;
			err = demo_find_free(d, goal, want < left[i] ? want :
					     left[i], &r);
			if (!err)
				err = demo_file_put(d, &f[i], f[i].next_lblk,
						    r.start, r.len, 0);
			if (!err) {
				left[i] -= r.len;
				goal = r.start + r.len;
			}
		}
	}
	for (i = 0; i < n && !err; i++)
		err = demo_file_end(d, &f[i]);
	return err;
}

/* A sparse file: a few mapped runs far apart, holes in between. */
static errcode_t demo_sparse(struct demo *d, ext2_ino_t dir, const char *path,
			     blk64_t goal)
{
	static const blk64_t at[] = { 0, 1024, 4096, 20000 };
	struct demo_file f;
	struct demo_run r;
	errcode_t err;
	unsigned i;

	err = demo_file_begin(d, dir, strrchr(path, '/') + 1, path,
			      (20000 + 4) * 4096ULL, &f);
	for (i = 0; i < sizeof(at) / sizeof(at[0]) && !err; i++) {
		err = demo_find_free(d, goal, 4, &r);
		if (!err)
			err = demo_file_put(d, &f, at[i], r.start, r.len, 0);
		goal = r.start + 64;
	}
	if (!err)
		err = demo_file_end(d, &f);
	return err;
}

/* The filler runs kept from the journal's construction, as one file. */
static errcode_t demo_wedged(struct demo *d, ext2_ino_t dir, const char *path)
{
	struct demo_file f;
	uint64_t size = 0;
	errcode_t err;
	int i;

	for (i = 0; i < d->nkept; i++)
		size += d->kept[i].len * d->fs->blocksize;
	err = demo_file_begin(d, dir, strrchr(path, '/') + 1, path, size, &f);
	for (i = 0; i < d->nkept && !err; i++)
		err = demo_file_put(d, &f, f.next_lblk, d->kept[i].start,
				    d->kept[i].len, 1);
	if (!err)
		err = demo_file_end(d, &f);
	return err;
}

/* Makes the directory at path (its parent must exist). */
static errcode_t demo_dir(struct demo *d, const char *path)
{
	const char *name = strrchr(path, '/') + 1;
	char parent[64];
	ext2_ino_t dir;
	errcode_t err;

	snprintf(parent, sizeof(parent), "%.*s", (int)(name - path), path);
	err = ext2fs_namei(d->fs, EXT2_ROOT_INO, EXT2_ROOT_INO, parent, &dir);
	if (err)
		return err;
	err = ext2fs_mkdir(d->fs, dir, 0, name);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(d->fs, dir);
		if (!err)
			err = ext2fs_mkdir(d->fs, dir, 0, name);
	}
	return err;
}

#define KIB	1024ULL
#define MIB	(1024ULL * 1024)

enum demo_kind { PLAIN, LOGS, TABLES, WEDGED, LINK, SPARSE };

/* The files, in the order they are written; goal is a group number. */
static const struct demo_entry {
	enum demo_kind kind;
	const char *path;
	uint64_t size;
	dgrp_t group;
} demo_tree[] = {
	{ PLAIN, "/etc/hostname", 17, 0 },
	{ PLAIN, "/etc/motd", 0, 0 },
	{ PLAIN, "/etc/fstab", 310, 0 },
	{ PLAIN, "/etc/passwd", 1210, 0 },
	{ PLAIN, "/etc/ssh/sshd_config", 3300, 0 },
	{ PLAIN, "/usr/share/doc/README", 40000, 0 },
	{ LOGS, "/var/log", 0, 1 },
	{ PLAIN, "/var/log/dmesg", 90000, 1 },
	{ WEDGED, "/var/cache/wedged.bin", 0, 0 },
	{ PLAIN, "/home/alice/notes.txt", 2500, 2 },
	{ PLAIN, "/home/alice/photos/img_0001.jpg", 350000, 2 },
	{ PLAIN, "/home/alice/photos/img_0002.jpg", 1200 * KIB + 5, 2 },
	{ PLAIN, "/home/alice/archive.tar", 24 * MIB, 6 },
	{ LINK, "/home/alice/todo", 0, 0 },
	{ PLAIN, "/home/bob/.profile", 800, 2 },
	{ TABLES, "/srv/db", 0, 5 },
	{ PLAIN, "/srv/db/big.db", 8 * MIB, 5 },
	{ SPARSE, "/srv/db/sparse.idx", 0, 5 },
};

static const char *const demo_dirs[] = {
	"/etc", "/etc/ssh", "/var", "/var/log", "/var/cache", "/home",
	"/home/alice", "/home/alice/photos", "/home/bob", "/srv", "/srv/db",
	"/usr", "/usr/share", "/usr/share/doc",
};

static const char *const demo_logs[] = { "/var/log/syslog",
					 "/var/log/auth.log" };
static const uint64_t demo_log_sizes[] = { 3 * MIB + 1234, 1 * MIB + 77 };
static const char *const demo_tables[] = {
	"/srv/db/table-a.db", "/srv/db/table-b.db",
	"/srv/db/table-c.db", "/srv/db/table-d.db" };
static const uint64_t demo_table_sizes[] = { 2 * MIB, 2 * MIB, 3 * MIB / 2,
					     1 * MIB };

static errcode_t demo_entry(struct demo *d, const struct demo_entry *e)
{
	blk64_t goal = ext2fs_group_first_block2(d->fs, e->group);
	const char *name = strrchr(e->path, '/') + 1;
	char parent[64];
	ext2_ino_t dir;
	errcode_t err;

	snprintf(parent, sizeof(parent), "%.*s", (int)(name - e->path),
		 e->path);
	err = ext2fs_namei(d->fs, EXT2_ROOT_INO, EXT2_ROOT_INO,
			   e->kind == LOGS || e->kind == TABLES ? e->path :
			   parent, &dir);
	if (err)
		return err;
	switch (e->kind) {
	case PLAIN:
		return demo_plain(d, dir, e->path, e->size, goal);
	case LOGS:
		return demo_interleaved(d, dir, demo_logs, demo_log_sizes, 2,
					2, 6, goal);
	case TABLES:
		return demo_interleaved(d, dir, demo_tables, demo_table_sizes,
					4, 4, 16, goal);
	case WEDGED:
		return demo_wedged(d, dir, e->path);
	case LINK:
		return ext2fs_symlink(d->fs, dir, 0, name, "notes.txt");
	case SPARSE:
		return demo_sparse(d, dir, e->path, goal + 8192);
	}
	return EXT2_ET_INVALID_ARGUMENT;
}

errcode_t demo_files(struct demo *d)
{
	errcode_t err = 0;
	size_t i;

	for (i = 0; i < sizeof(demo_dirs) / sizeof(demo_dirs[0]); i++) {
		err = demo_dir(d, demo_dirs[i]);
		if (err) {
			out_error(d->log, "mkdemo", err, "while making %s",
				  demo_dirs[i]);
			return err;
		}
	}
	for (i = 0; i < sizeof(demo_tree) / sizeof(demo_tree[0]); i++) {
		err = demo_entry(d, &demo_tree[i]);
		if (err) {
			out_error(d->log, "mkdemo", err, "while writing %s",
				  demo_tree[i].path);
			return err;
		}
	}
	return 0;
}
