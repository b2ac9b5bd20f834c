/* dfs_wr.c - the pieces the debugfs-compatible write requests share: link,
 * unlink and kill an inode as debugfs does, with its messages. */
#include "dfs_wr.h"
#include "dfs_util.h"

#include <string.h>

int dfs_wr_begin(struct session *s, const char *who)
{
	if (session_need(s, NEED_BITMAPS))
		return dfs_not_loaded(s, who);
	session_invalidate(s);
	if (s->now)
		s->fs->now = s->now;
	return 0;
}

__u32 dfs_wr_time(struct session *s)
{
	return s->fs->now ? (__u32)s->fs->now : (__u32)session_now(s);
}

int dfs_wr_file_type(unsigned mode)
{
	if (LINUX_S_ISREG(mode))
		return EXT2_FT_REG_FILE;
	if (LINUX_S_ISDIR(mode))
		return EXT2_FT_DIR;
	if (LINUX_S_ISCHR(mode))
		return EXT2_FT_CHRDEV;
	if (LINUX_S_ISBLK(mode))
		return EXT2_FT_BLKDEV;
	if (LINUX_S_ISLNK(mode))
		return EXT2_FT_SYMLINK;
	if (LINUX_S_ISFIFO(mode))
		return EXT2_FT_FIFO;
	if (LINUX_S_ISSOCK(mode))
		return EXT2_FT_SOCK;
	return 0;
}

int dfs_wr_write_inode(struct session *s, ext2_ino_t ino,
		       struct ext2_inode *inode, const char *cmd)
{
	errcode_t err = ext2fs_write_inode(s->fs, ino, inode);

	if (err) {
		out_error(s->out, cmd, err, "while writing inode %u", ino);
		return 1;
	}
	return 0;
}

int dfs_wr_make_link(struct session *s, char *source, char *dest)
{
	struct ext2_inode inode;
	ext2_ino_t ino, dir;
	char *base, *cp, *name;
	errcode_t err;

	ino = dfs_string_to_inode(s, source);
	if (!ino)
		return 1;
	base = strrchr(source, '/');
	base = base ? base + 1 : source;
	/* an existing destination is the directory to link into */
	if (!ext2fs_namei(s->fs, s->root, s->cwd, dest, &dir)) {
		name = base;
	} else {
		cp = strrchr(dest, '/');
		if (cp) {
			*cp = 0;
			dir = dfs_string_to_inode(s, dest);
			if (!dir)
				return 1;
			name = cp + 1;
		} else {
			dir = s->cwd;
			name = dest;
		}
	}
	if (dfs_read_inode(s, ino, &inode, source))
		return 1;
	err = dfs_wr_name_check(name);
	if (!err)
		err = ext2fs_link(s->fs, dir, name, ino,
				  dfs_wr_file_type(inode.i_mode));
	if (err)
		out_error(s->out, "make_link", err, NULL);
	return err ? 1 : 0;
}

errcode_t dfs_wr_name_check(const char *name)
{
	return strlen(name) > EXT2_NAME_LEN ? ENAMETOOLONG : 0;
}

errcode_t dfs_wr_parent(struct session *s, char **path, ext2_ino_t *parent)
{
	char *cp = strrchr(*path, '/');
	errcode_t err;

	*parent = s->cwd;
	if (!cp)
		return 0;
	*cp = 0;
	err = ext2fs_namei(s->fs, s->root, s->cwd, *path, parent);
	if (!err)
		*path = cp + 1;
	return err;
}

int dfs_wr_resolve(struct session *s, const char *cmd, const char *path,
		   ext2_ino_t *ino, struct ext2_inode *inode)
{
	errcode_t err = ext2fs_namei(s->fs, s->root, s->cwd, path, ino);

	if (err) {
		out_error(s->out, cmd, err, "while trying to resolve filename");
		return 1;
	}
	return dfs_read_inode(s, *ino, inode, cmd);
}

void dfs_wr_unlink_by_name(struct session *s, char *filename)
{
	char *base = strrchr(filename, '/');
	ext2_ino_t dir;
	errcode_t err;

	if (base) {
		*base++ = 0;
		dir = dfs_string_to_inode(s, filename);
		if (!dir)
			return;
	} else {
		dir = s->cwd;
		base = filename;
	}
	err = ext2fs_unlink(s->fs, dir, base, 0, 0);
	if (err)
		out_error(s->out, "unlink_file_by_name", err, NULL);
}

struct release {
	blk64_t last_cluster;
};

static int release_block(ext2_filsys fs, blk64_t *blocknr,
			 e2_blkcnt_t blockcnt, blk64_t ref_block,
			 int ref_offset, void *priv)
{
	struct release *r = priv;
	blk64_t cluster = EXT2FS_B2C(fs, *blocknr);

	(void)blockcnt;
	(void)ref_block;
	(void)ref_offset;
	if (cluster == r->last_cluster)
		return 0;
	r->last_cluster = cluster;
	ext2fs_block_alloc_stats2(fs, *blocknr, -1);
	return 0;
}

void dfs_wr_kill_inode(struct session *s, ext2_ino_t ino)
{
	struct ext2_inode inode;
	struct release r = {0};

	if (dfs_read_inode(s, ino, &inode, NULL))
		return;
	inode.i_dtime = dfs_wr_time(s);
	if (dfs_wr_write_inode(s, ino, &inode, NULL))
		return;
	if (ext2fs_inode_has_valid_blocks2(s->fs, &inode))
		ext2fs_block_iterate3(s->fs, ino, BLOCK_FLAG_READ_ONLY, NULL,
				      release_block, &r);
	out_printf(s->out, "\n");
	ext2fs_inode_alloc_stats2(s->fs, ino, -1,
				  LINUX_S_ISDIR(inode.i_mode));
}

size_t dfs_wr_parse_c_string(char *str)
{
	static const char esc[] = "a\ab\bf\fn\nt\tv\v";
	char *to = str, *from = str;
	const char *e;
	int v, d;

	for (; *from && *from != '"'; from++) {
		if (*from != '\\' || !from[1]) {
			*to++ = *from;
			continue;
		}
		from++;
		e = strchr(esc, *from);
		if (e && ((e - esc) & 1) == 0) {
			*to++ = e[1];
		} else if (*from == 'x') {
			v = dfs_hex_digit(from[1]);
			if (v < 0) {
				*to++ = 'x';
				continue;
			}
			from++;
			d = dfs_hex_digit(from[1]);
			if (d < 0) {
				/* as debugfs: one digit is not an escape */
				*to++ = 'x';
				from--;
				continue;
			}
			from++;
			*to++ = (char)(v * 16 + d);
		} else if (*from >= '0' && *from <= '9') {
			v = *from - '0';
			if (from[1] >= '0' && from[1] <= '9') {
				v = v * 8 + (*++from - '0');
				if (from[1] >= '0' && from[1] <= '9')
					v = v * 8 + (*++from - '0');
			}
			*to++ = (char)v;
		} else {
			*to++ = *from;
		}
	}
	*to = 0;
	return to - str;
}
