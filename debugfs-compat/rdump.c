/* rdump.c - debugfs's rdump: copies directory trees out to the host,
 * but refuses entry names that would land outside the target directory
 * (debugfs 1.47.0 does not, e2fsprogs issue 272). */
#include "cmd.h"
#include "dfs_util.h"
#include "rdump.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool rdump_name_safe(const char *name, size_t len)
{
	size_t i;

	if (len == 0 || (len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (c == '/' || c < 0x20 || c == 0x7f)
			return false;
	}
	return true;
}

/* The name with unprintable bytes as \xNN, for the refusal message. */
static void quote_name(char *dst, const char *name, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = name[i];

		if (c < 0x20 || c == 0x7f || c == '\\') {
			*dst++ = '\\';
			*dst++ = 'x';
			*dst++ = hex[c >> 4];
			*dst++ = hex[c & 15];
		} else {
			*dst++ = c;
		}
	}
	*dst = 0;
}

struct rdump_ctx {
	struct session *s;
	const char *dir;	/* host directory being filled */
	int *refused;		/* set when an entry was not dumped */
};

static void rdump_symlink(struct session *s, ext2_ino_t ino,
			  struct ext2_inode *inode, const char *fullname)
{
	unsigned int got, left = EXT2_I_SIZE(inode);
	ext2_file_t file;
	errcode_t err;
	char *buf, *p;

	/* a corrupted size must not become a huge allocation */
	if (left > 65536) {
		out_error(s->out, "rdump", EFBIG, "while reading symlink");
		return;
	}
	buf = calloc(1, left + 1);
	if (!buf) {
		out_error(s->out, "rdump", errno,
			  "while allocating for symlink");
		return;
	}
	if (ext2fs_is_fast_symlink(inode)) {
		strncpy(buf, (char *)inode->i_block,
			left < sizeof(inode->i_block) ? left
						      : sizeof(inode->i_block));
	} else {
		err = ext2fs_file_open(s->fs, ino, 0, &file);
		if (err) {
			out_error(s->out, "rdump", err,
				  "while opening symlink");
			goto out;
		}
		for (p = buf; left; left -= got, p += got) {
			err = ext2fs_file_read(file, p, left, &got);
			if (err) {
				out_error(s->out, "rdump", err,
					  "while reading symlink");
				ext2fs_file_close(file);
				goto out;
			}
			if (!got)
				break;
		}
		err = ext2fs_file_close(file);
		if (err)
			out_error(s->out, "rdump", err,
				  "while closing symlink");
	}
	if (symlink(buf, fullname) == -1)
		out_error(s->out, "rdump", errno,
			  "while creating symlink %s -> %s", buf, fullname);
out:
	free(buf);
}

static int rdump_dirent(struct ext2_dir_entry *de, int offset, int bs,
			char *blockbuf, void *priv);

static void rdump_inode(struct session *s, ext2_ino_t ino,
			struct ext2_inode *inode, const char *name,
			const char *root, int *refused)
{
	struct rdump_ctx sub = { s, NULL, refused };
	char *fullname;
	errcode_t err;
	int fd;

	if (asprintf(&fullname, "%s/%s", root, name) < 0) {
		out_error(s->out, "rdump", errno, "while allocating memory");
		return;
	}
	if (LINUX_S_ISLNK(inode->i_mode)) {
		rdump_symlink(s, ino, inode, fullname);
	} else if (LINUX_S_ISREG(inode->i_mode)) {
		/* never through a symlink an earlier entry planted */
		fd = open(fullname, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW,
			  S_IRWXU);
		if (fd == -1) {
			out_error(s->out, "rdump", errno, "while opening %s",
				  fullname);
			goto out;
		}
		dump_inode_to_fd(s, "rdump", ino, fd, 1, fullname);
		if (close(fd) != 0)
			out_error(s->out, "rdump", errno, "while closing %s",
				  fullname);
	} else if (LINUX_S_ISDIR(inode->i_mode) && strcmp(name, ".") &&
		   strcmp(name, "..")) {
		/* "/" itself fills the target directory */
		if (*name && mkdir(fullname, S_IRWXU) == -1) {
			out_error(s->out, "rdump", errno,
				  "while making directory %s", fullname);
			goto out;
		}
		sub.dir = fullname;
		err = ext2fs_dir_iterate(s->fs, ino, 0, NULL, rdump_dirent,
					 &sub);
		if (err)
			out_error(s->out, "rdump", err, "while dumping %s",
				  fullname);
		dump_fix_perms(s, "rdump", inode, -1, fullname);
	}
	/* devices, sockets and FIFOs are not dumped */
out:
	free(fullname);
}

static int rdump_dirent(struct ext2_dir_entry *de, int offset, int bs,
			char *blockbuf, void *priv)
{
	struct rdump_ctx *c = priv;
	struct session *s = c->s;
	size_t len = ext2fs_dirent_name_len(de);
	char name[EXT2_NAME_LEN + 1], shown[4 * EXT2_NAME_LEN + 1];
	struct ext2_inode inode;

	(void)offset;
	(void)bs;
	(void)blockbuf;
	memcpy(name, de->name, len);
	name[len] = 0;
	if (dfs_read_inode(s, de->inode, &inode, name))
		return 0;
	/* the real "." and ".." are skipped quietly, as debugfs does */
	if (LINUX_S_ISDIR(inode.i_mode) &&
	    (!strcmp(name, ".") || !strcmp(name, "..")))
		return 0;
	if (!rdump_name_safe(de->name, len)) {
		quote_name(shown, de->name, len);
		out_error(s->out, "rdump", 0,
			  "refusing to dump entry \"%s\" (inode %u) of %s: "
			  "the name would write outside that directory",
			  shown, de->inode, c->dir);
		*c->refused = 1;
		return 0;
	}
	rdump_inode(s, de->inode, &inode, name, c->dir, c->refused);
	return 0;
}

static int do_rdump(struct session *s, int argc, char **argv)
{
	struct ext2_inode inode;
	const char *dest, *base;
	struct stat st;
	ext2_ino_t ino;
	int i, failed = 0;

	dest = argv[argc - 1];
	if (stat(dest, &st) == -1) {
		out_error(s->out, "rdump", errno, "while statting %s", dest);
		return CMD_FAIL;
	}
	if (!S_ISDIR(st.st_mode)) {
		out_error(s->out, "rdump", 0, "%s is not a directory", dest);
		return CMD_FAIL;
	}
	for (i = 1; i < argc - 1; i++) {
		ino = dfs_string_to_inode(s, argv[i]);
		if (!ino || dfs_read_inode(s, ino, &inode, argv[i])) {
			failed = 1;
			continue;
		}
		base = strrchr(argv[i], '/');
		base = base ? base + 1 : argv[i];
		rdump_inode(s, ino, &inode, base, dest, &failed);
	}
	return failed ? CMD_FAIL : CMD_OK;
}

const struct cmd_entry cmd_rdump = {
	.name = "rdump",
	.synopsis = "rdump <directory>... <native directory>",
	.summary = "Dump directories recursively to the host, refusing "
		   "entry names that would escape the target",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS,
	.complete = COMPLETE_PATH,
	.run = do_rdump,
	.min_args = 3,
	.max_args = INT_MAX,
	.usage = "<directory>... <native directory>",
	.usage_name = "rdump",
};
