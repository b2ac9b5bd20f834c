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
	blk64_t i, n, p;
	errcode_t err;

	if (!d->buf) {
		err = ext2fs_get_mem(DEMO_CHUNK * fs->blocksize, &d->buf);
		if (err)
			return err;
	}
	if (!allocated)
		ext2fs_block_alloc_stats_range(fs, pblk, count, +1);
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
	err = ext2fs_iblk_add_blocks(fs, &f->inode, count);
	f->blocks += count;
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

static errcode_t demo_dir(struct demo *d, ext2_ino_t parent, const char *name,
			  ext2_ino_t *ino)
{
	errcode_t err = ext2fs_mkdir(d->fs, parent, 0, name);

	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(d->fs, parent);
		if (!err)
			err = ext2fs_mkdir(d->fs, parent, 0, name);
	}
	if (!err)
		err = ext2fs_lookup(d->fs, parent, name, strlen(name), 0, ino);
	return err;
}

#define KIB	1024ULL
#define MIB	(1024ULL * 1024)

errcode_t demo_files(struct demo *d)
{
	static const char *const logs[] = { "/var/log/syslog",
					    "/var/log/auth.log" };
	static const uint64_t log_sizes[] = { 3 * MIB + 1234, 1 * MIB + 77 };
	static const char *const tables[] = {
		"/srv/db/table-a.db", "/srv/db/table-b.db",
		"/srv/db/table-c.db", "/srv/db/table-d.db" };
	static const uint64_t table_sizes[] = { 2 * MIB, 2 * MIB, 3 * MIB / 2,
						 1 * MIB };
	ext2_filsys fs = d->fs;
	ext2_ino_t etc, ssh, var, vlog, cache, home, alice, photos, bob, srv,
		   db, usr, share, doc;
	blk64_t g1 = ext2fs_group_first_block2(fs, 1);
	blk64_t g2 = ext2fs_group_first_block2(fs, 2);
	blk64_t g5 = ext2fs_group_first_block2(fs, 5);
	blk64_t g6 = ext2fs_group_first_block2(fs, 6);
	errcode_t err;
	const ext2_ino_t R = EXT2_ROOT_INO;

	err = demo_dir(d, R, "etc", &etc);
	if (!err) err = demo_dir(d, etc, "ssh", &ssh);
	if (!err) err = demo_dir(d, R, "var", &var);
	if (!err) err = demo_dir(d, var, "log", &vlog);
	if (!err) err = demo_dir(d, var, "cache", &cache);
	if (!err) err = demo_dir(d, R, "home", &home);
	if (!err) err = demo_dir(d, home, "alice", &alice);
	if (!err) err = demo_dir(d, alice, "photos", &photos);
	if (!err) err = demo_dir(d, home, "bob", &bob);
	if (!err) err = demo_dir(d, R, "srv", &srv);
	if (!err) err = demo_dir(d, srv, "db", &db);
	if (!err) err = demo_dir(d, R, "usr", &usr);
	if (!err) err = demo_dir(d, usr, "share", &share);
	if (!err) err = demo_dir(d, share, "doc", &doc);
	if (err) {
		out_error(d->log, "mkdemo", err, "while making directories");
		return err;
	}

	err = demo_plain(d, etc, "/etc/hostname", 17, 0);
	if (!err) err = demo_plain(d, etc, "/etc/motd", 0, 0);
	if (!err) err = demo_plain(d, etc, "/etc/fstab", 310, 0);
	if (!err) err = demo_plain(d, etc, "/etc/passwd", 1210, 0);
	if (!err) err = demo_plain(d, ssh, "/etc/ssh/sshd_config", 3300, 0);
	if (!err) err = demo_plain(d, doc, "/usr/share/doc/README", 40000, 0);
	if (!err) err = demo_interleaved(d, vlog, logs, log_sizes, 2, 2, 6,
					 g1);
	if (!err) err = demo_plain(d, vlog, "/var/log/dmesg", 90000, g1);
	if (!err) err = demo_wedged(d, cache, "/var/cache/wedged.bin");
	if (!err) err = demo_plain(d, alice, "/home/alice/notes.txt", 2500, g2);
	if (!err) err = demo_plain(d, photos, "/home/alice/photos/img_0001.jpg",
				   350000, g2);
	if (!err) err = demo_plain(d, photos, "/home/alice/photos/img_0002.jpg",
				   1200 * KIB + 5, g2);
	if (!err) err = demo_plain(d, alice, "/home/alice/archive.tar",
				   24 * MIB, g6);
	if (!err) err = ext2fs_symlink(fs, alice, 0, "todo", "notes.txt");
	if (!err) err = demo_plain(d, bob, "/home/bob/.profile", 800, g2);
	if (!err) err = demo_interleaved(d, db, tables, table_sizes, 4, 4, 16,
					 g5);
	if (!err) err = demo_plain(d, db, "/srv/db/big.db", 8 * MIB, g5);
	if (!err) err = demo_sparse(d, db, "/srv/db/sparse.idx", g5 + 8192);
	if (err)
		out_error(d->log, "mkdemo", err, "while writing the files");
	return err;
}
