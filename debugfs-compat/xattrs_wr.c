/* xattrs_wr.c - debugfs's ea_set and ea_rm: set or remove extended
 * attributes of an inode through libext2fs's xattr handle. */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_usage(struct session *s, const char *cmd)
{
	out_printf(s->out, "Usage:\t%s [-r] <file> <attr> <value>\n", cmd);
	out_printf(s->out, "\t%s -f <value_file> [-r] <file> <attr>\n", cmd);
}

/* *quiet is set when debugfs would fail without a word (no handle). */
static errcode_t set_attr(struct session *s, ext2_ino_t ino, unsigned flags,
			  const char *name, const char *val, size_t len,
			  int *quiet)
{
	struct ext2_xattr_handle *h;
	errcode_t err, err2;

	err = ext2fs_xattrs_open(s->fs, ino, &h);
	*quiet = err != 0;
	if (err)
		return err;
	err = ext2fs_xattrs_flags(h, &flags, NULL);
	if (!err)
		err = ext2fs_xattrs_read(h);
	if (!err)
		err = ext2fs_xattr_set(h, name, val, len);
	if (!err)
		err = ext2fs_xattrs_write(h);
	err2 = ext2fs_xattrs_close(&h);
	(void)err2;
	return err;
}

static int do_ea_set(struct session *s, int argc, char **argv)
{
	int c, quiet = 0, status = CMD_FAIL;
	unsigned flags = 0;
	char *buf = NULL, *val;
	FILE *fp = NULL;
	size_t len;
	ext2_ino_t ino;
	errcode_t err;

	while ((c = dfs_getopt(s, argc, argv, "f:r")) != -1) {
		switch (c) {
		case 'f':
			if (fp)
				fclose(fp);
			fp = fopen(optarg, "r");
			if (!fp) {
				out_errtext(s->out, "%s: %s\n", optarg,
					    strerror(errno));
				return CMD_FAIL;
			}
			break;
		case 'r':
			flags |= XATTR_HANDLE_FLAG_RAW;
			break;
		default:
			set_usage(s, argv[0]);
			goto out;
		}
	}
	if (!(fp && optind == argc - 2) && !(!fp && optind == argc - 3)) {
		set_usage(s, argv[0]);
		goto out;
	}
	if (dfs_check_open(s, argv[0]) || dfs_check_rw(s, argv[0]) ||
	    dfs_wr_begin(s, argv[0]))
		goto out;
	ino = dfs_string_to_inode(s, argv[optind]);
	if (!ino)
		goto out;
	if (fp) {
		buf = malloc(s->fs->blocksize);
		if (!buf) {
			err = EXT2_ET_NO_MEMORY;
			goto fail;
		}
		len = fread(buf, 1, s->fs->blocksize, fp);
		val = buf;
	} else {
		val = argv[optind + 2];
		len = dfs_wr_parse_c_string(val);
	}
	err = set_attr(s, ino, flags, argv[optind + 1], val, len, &quiet);
	if (!err)
		status = CMD_OK;
	if (!err || quiet)
		goto out;
fail:
	out_error(s->out, argv[0], err, "while setting extended attribute");
out:
	if (fp)
		fclose(fp);
	free(buf);
	return status;
}

const struct cmd_entry cmd_ea_set = {
	.name = "ea_set",
	.synopsis = "ea_set [-r] <file> <attr> <value> | ea_set -f "
		    "<value_file> [-r] <file> <attr>",
	.summary = "Set an extended attribute of an inode",
	.options = "-f -r",
	/* counts after its options: checks the filesystem itself */
	.flags = CMD_DEBUGFS | CMD_WRITES,
	.complete = COMPLETE_PATH,
	.run = do_ea_set,
};

static int do_ea_rm(struct session *s, int argc, char **argv)
{
	struct ext2_xattr_handle *h;
	ext2_ino_t ino;
	errcode_t err;
	int i;

	if (dfs_wr_begin(s, argv[0]))
		return CMD_FAIL;
	ino = dfs_string_to_inode(s, argv[1]);
	if (!ino)
		return CMD_FAIL;
	if (ext2fs_xattrs_open(s->fs, ino, &h))
		return CMD_FAIL;
	err = ext2fs_xattrs_read(h);
	for (i = 2; !err && i < argc; i++)
		err = ext2fs_xattr_remove(h, argv[i]);
	if (!err)
		err = ext2fs_xattrs_write(h);
	ext2fs_xattrs_close(&h);
	if (err) {
		out_error(s->out, argv[0], err,
			  "while removing extended attribute");
		return CMD_FAIL;
	}
	return CMD_OK;
}

const struct cmd_entry cmd_ea_rm = {
	.name = "ea_rm",
	.synopsis = "ea_rm <file> <attrs>...",
	.summary = "Remove an extended attribute of an inode",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_USAGE_STDOUT,
	.complete = COMPLETE_PATH,
	.run = do_ea_rm,
	.min_args = 3,
	.max_args = INT_MAX,
	.usage = "<file> <attrs>...",
};
