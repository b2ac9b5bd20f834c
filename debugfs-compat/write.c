/* write.c - debugfs's `write NATIVE NEW`: copies a host file into the
 * filesystem as a new regular file, holes kept sparse, as debugfs 1.47.0. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WR_BUFLEN 65536

/* Copies [start,end) of fd, skipping all-zero blocks (they stay holes). */
static errcode_t copy_range(ext2_filsys fs, int fd, ext2_file_t f,
			    off_t start, off_t end, char *buf,
			    const char *zero)
{
	unsigned bs = fs->blocksize, written;
	off_t off, pos;
	ssize_t got, len;
	char *p;
	errcode_t err;

	for (off = start; off < end; off += WR_BUFLEN) {
		got = pread(fd, buf, WR_BUFLEN, off);
		if (got < 0)
			return errno;
		for (pos = 0, p = buf; pos < got; pos += bs) {
			len = got - pos < (ssize_t)bs ? got - pos : bs;
			if (!memcmp(p, zero, len)) {
				p += len;
				continue;
			}
			err = ext2fs_file_lseek(f, off + pos, EXT2_SEEK_SET,
						NULL);
			if (err)
				return err;
			while (len > 0) {
				err = ext2fs_file_write(f, p, len, &written);
				if (err)
					return err;
				if (!written)
					return EIO;
				len -= written;
				p += written;
			}
		}
	}
	return 0;
}

/* Walks the data segments with SEEK_DATA/SEEK_HOLE when the host has them. */
static errcode_t copy_segments(ext2_filsys fs, int fd, off_t size,
			       ext2_file_t f, char *buf, const char *zero)
{
	off_t data = 0, hole, mask = fs->blocksize - 1;
	errcode_t err;

	while (data < size) {
		data = lseek(fd, data, SEEK_DATA);
		if (data < 0)
			return errno == ENXIO ? 0 : EXT2_ET_UNIMPLEMENTED;
		hole = lseek(fd, data, SEEK_HOLE);
		if (hole < 0)
			return EXT2_ET_UNIMPLEMENTED;
		/* rounded up as debugfs does, wrapping when a directory's
		 * hole is at LLONG_MAX (unsigned: defined, not UB) */
		err = copy_range(fs, fd, f, data & ~mask,
				 (off_t)(((uint64_t)hole + mask) &
					 ~(uint64_t)mask), buf, zero);
		if (err)
			return err;
		data = hole;
	}
	return 0;
}

static errcode_t copy_file(ext2_filsys fs, int fd, off_t size,
			   ext2_ino_t ino)
{
	char *buf = NULL, *zero = NULL;
	ext2_file_t f;
	errcode_t err, err2;

	err = ext2fs_file_open(fs, ino, EXT2_FILE_WRITE, &f);
	if (err)
		return err;
	buf = malloc(WR_BUFLEN);
	zero = calloc(1, fs->blocksize);
	if (!buf || !zero) {
		err = EXT2_ET_NO_MEMORY;
		goto out;
	}
	err = copy_segments(fs, fd, size, f, buf, zero);
	if (err == EXT2_ET_UNIMPLEMENTED)
		err = copy_range(fs, fd, f, 0, size, buf, zero);
out:
	free(buf);
	free(zero);
	err2 = ext2fs_file_close(f);
	return err ? err : err2;
}

/* The new inode as debugfs makes it: mode from the host, no owner. */
static errcode_t new_file_inode(struct session *s, ext2_ino_t ino,
				const struct stat *st)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	ext2_extent_handle_t h;
	errcode_t err;

	memset(&inode, 0, sizeof(inode));
	inode.i_mode = (st->st_mode & ~S_IFMT) | LINUX_S_IFREG;
	inode.i_atime = inode.i_ctime = inode.i_mtime = dfs_wr_time(s);
	inode.i_links_count = 1;
	err = ext2fs_inode_size_set(fs, &inode, st->st_size);
	if (err)
		return err;
	if (ext2fs_has_feature_inline_data(fs->super)) {
		inode.i_flags |= EXT4_INLINE_DATA_FL;
	} else if (ext2fs_has_feature_extents(fs->super)) {
		inode.i_flags &= ~EXT4_EXTENTS_FL;
		err = ext2fs_extent_open2(fs, ino, &inode, &h);
		if (err)
			return err;
		ext2fs_extent_free(h);
	}
	err = ext2fs_write_new_inode(fs, ino, &inode);
	if (!err && (inode.i_flags & EXT4_INLINE_DATA_FL))
		err = ext2fs_inline_data_init(fs, ino);
	return err;
}

static errcode_t write_file(struct session *s, const char *src, char *dest)
{
	ext2_filsys fs = s->fs;
	ext2_ino_t parent = s->cwd, ino;
	struct stat st;
	errcode_t err;
	int fd;

	fd = open(src, O_RDONLY);
	if (fd < 0) {
		err = errno;
		out_error(s->out, "do_write_internal", err,
			  "while opening \"%s\" to copy", src);
		return err;
	}
	if (fstat(fd, &st) < 0) {
		err = errno;
		goto out;
	}
	err = dfs_wr_parent(s, &dest, &parent);
	if (err) {
		out_error(s->out, dest, err, "while looking up \"%s\"", dest);
		goto out;
	}
	if (!ext2fs_namei(fs, s->root, parent, dest, &ino)) {
		err = EXT2_ET_FILE_EXISTS;
		goto out;
	}
	err = dfs_wr_name_check(dest);	/* before the inode is allocated */
	if (err)
		goto out;
	err = ext2fs_new_inode(fs, parent, 010755, 0, &ino);
	if (err)
		goto out;
	out_printf(s->out, "Allocated inode: %u\n", ino);
	err = ext2fs_link(fs, parent, dest, ino, EXT2_FT_REG_FILE);
	if (err == EXT2_ET_DIR_NO_SPACE) {
		err = ext2fs_expand_dir(fs, parent);
		if (!err)
			err = ext2fs_link(fs, parent, dest, ino,
					  EXT2_FT_REG_FILE);
	}
	if (err)
		goto out;
	if (ext2fs_test_inode_bitmap2(fs->inode_map, ino))
		out_error(s->out, "do_write_internal", 0,
			  "Warning: inode already set");
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	err = new_file_inode(s, ino, &st);
	if (!err)
		err = copy_file(fs, fd, st.st_size, ino);
out:
	close(fd);
	return err;
}

static int do_write(struct session *s, int argc, char **argv)
{
	errcode_t err;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	err = write_file(s, argv[1], argv[2]);
	if (err) {
		out_error(s->out, argv[0], err, NULL);
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_write = {
	.name = "write",
	.synopsis = "write <native file> <new file>",
	.summary = "Copy a file from your native filesystem",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_HOST_PATH,
	.run = do_write,
	.min_args = 3,
	.max_args = 3,
	.usage = "<native file> <new file>",
	.usage_name = "write",
};
