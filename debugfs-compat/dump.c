/* dump.c - debugfs's host-side requests: dump_inode/dump copies a
 * file's contents out to a host file, cat to the output (rdump is in
 * rdump.c, lcd in lcd.c). */
#include "cmd.h"
#include "dfs_util.h"
#include "rdump.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

/* Only the permission bits travel, as in debugfs (no set-id, no sticky). */
static mode_t host_mode(__u16 mode)
{
	return mode & 0777;
}

void dump_fix_perms(struct session *s, const char *cmd,
		      const struct ext2_inode *inode, int fd,
		      const char *name)
{
	struct timeval tv[2];
	int r;

	r = fd >= 0 ? fchmod(fd, host_mode(inode->i_mode))
		    : chmod(name, host_mode(inode->i_mode));
	if (r == -1)
		out_error(s->out, cmd, errno,
			  "while setting permissions of %s", name);
	r = fd >= 0 ? fchown(fd, inode_uid(*inode), inode_gid(*inode))
		    : chown(name, inode_uid(*inode), inode_gid(*inode));
	if (r == -1)
		out_error(s->out, cmd, errno,
			  "while changing ownership of %s", name);
	tv[0].tv_sec = inode->i_atime;
	tv[0].tv_usec = 0;
	tv[1].tv_sec = inode->i_mtime;
	tv[1].tv_usec = 0;
	if (utimes(name, tv) == -1)
		out_error(s->out, cmd, errno, "while setting times of %s",
			  name);
}

void dump_inode_to_fd(struct session *s, const char *cmd, ext2_ino_t ino,
		      int fd, int preserve, const char *outname)
{
	struct ext2_inode inode;
	unsigned int got, bs = s->fs->blocksize;
	ext2_file_t file;
	errcode_t err;
	char *buf;
	ssize_t n;

	if (dfs_read_inode(s, ino, &inode, cmd))
		return;
	err = ext2fs_file_open(s->fs, ino, 0, &file);
	if (err) {
		out_error(s->out, cmd, err, "while opening ext2 file");
		return;
	}
	buf = malloc(bs);
	if (!buf) {
		out_error(s->out, cmd, EXT2_ET_NO_MEMORY,
			  "while allocating memory");
		ext2fs_file_close(file);
		return;
	}
	for (;;) {
		err = ext2fs_file_read(file, buf, bs, &got);
		if (err)
			out_error(s->out, cmd, err, "while reading ext2 file");
		if (got == 0)
			break;
		if (fd < 0) {
			out_write(s->out, buf, got);
			continue;
		}
		n = write(fd, buf, got);
		if (n < 0 || (unsigned)n != got)
			out_error(s->out, cmd, errno, "while writing file");
	}
	free(buf);
	err = ext2fs_file_close(file);
	if (err) {
		out_error(s->out, cmd, err, "while closing ext2 file");
		return;
	}
	if (preserve)
		dump_fix_perms(s, "dump_file", &inode, fd, outname);
}

static int dump_usage(struct session *s, char **argv)
{
	out_error(s->out, argv[0], 0,
		  "Usage: dump_inode [-p] <file> <output_file>");
	return CMD_FAIL;
}

static int do_dump(struct session *s, int argc, char **argv)
{
	int c, fd, preserve = 0;
	ext2_ino_t ino;
	const char *out_fn;

	cmd_reset_getopt();
	while ((c = dfs_getopt(s, argc, argv, "p")) != -1) {
		if (c != 'p')
			return dump_usage(s, argv);
		preserve++;
	}
	if (optind != argc - 2)
		return dump_usage(s, argv);
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	out_fn = argv[optind + 1];
	ino = dfs_string_to_inode(s, argv[optind]);
	if (!ino)
		return CMD_FAIL;
	fd = open(out_fn, O_CREAT | O_WRONLY | O_TRUNC, 0666);
	if (fd < 0) {
		out_error(s->out, argv[0], errno,
			  "while opening %s for dump_inode", out_fn);
		return CMD_FAIL;
	}
	dump_inode_to_fd(s, argv[0], ino, fd, preserve, out_fn);
	if (close(fd) != 0) {
		out_error(s->out, argv[0], errno,
			  "while closing %s for dump_inode", out_fn);
		return CMD_FAIL;
	}
	return CMD_OK;
}

static const char *const dump_aliases[] = {"dump", NULL};
const struct cmd_entry cmd_dump_inode = {
	.name = "dump_inode",
	.aliases = dump_aliases,
	.synopsis = "dump_inode [-p] <file> <output_file>",
	.summary = "Dump an inode out to a file on the host",
	.options = "-p",
	.flags = CMD_DEBUGFS,
	.complete = COMPLETE_PATH,
	.run = do_dump,
};

static int do_cat(struct session *s, int argc, char **argv)
{
	ext2_ino_t ino;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino))
		return CMD_FAIL;
	dump_inode_to_fd(s, argv[0], ino, -1, 0, NULL);
	return CMD_OK;
}

const struct cmd_entry cmd_cat = {
	.name = "cat",
	.synopsis = "cat <file>",
	.summary = "Dump an inode out to the output",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS,
	.complete = COMPLETE_PATH,
	.run = do_cat,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};
