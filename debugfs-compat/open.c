/* open.c - debugfs's session requests: open_filesys and close_filesys
 * inside a session, and set_current_time. */
#include "cmd.h"
#include "dfs_open.h"
#include "dfs_util.h"
#include "e2l_err.h"

#include <e2p/e2p.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void open_usage(struct session *s, const char *who)
{
	out_errtext(s->out, "%s: Usage: open [-s superblock] [-b blocksize] "
		    "[-d image_filename] [-c] [-i] [-f] [-e] [-D] [-w] "
		    "<device>\n", who);
}

/*
 * -d names the device with the e2image file's data blocks: when it holds an
 * ext2/3/4 superblock, it must be this filesystem's (a mistyped -d would
 * show another filesystem's blocks as this one's content).  A data source
 * without a superblock (a copy of the data alone) is taken as it is.
 */
static int data_source_matches(struct session *s,
			       const struct dfs_open_args *a, io_channel io)
{
	struct ext2_super_block sb;
	char want[37], got[37];

	io_channel_set_blksize(io, SUPERBLOCK_OFFSET);
	if (io_channel_read_blk64(io, 1, -(int)sizeof(sb), &sb) ||
	    ext2fs_le16_to_cpu(sb.s_magic) != EXT2_SUPER_MAGIC ||
	    !memcmp(sb.s_uuid, s->fs->super->s_uuid, sizeof(sb.s_uuid)))
		return 1;
	e2p_uuid_to_str(sb.s_uuid, got);
	e2p_uuid_to_str(s->fs->super->s_uuid, want);
	out_error(s->out, "e2layout", 0, "%s is not this filesystem's data "
		  "source: its superblock has UUID %s, the e2image file's is "
		  "%s", a->data_source, got, want);
	return 0;
}

errcode_t dfs_open_filesystem(struct session *s,
			      const struct dfs_open_args *a)
{
	io_channel data_io = NULL;
	errcode_t e;

	if (a->superblock && !a->blocksize) {
		out_error(s->out, a->device, 0, "if you specify the "
			  "superblock, you must also specify the block size");
		return EINVAL;
	}
	/* -w with -s would rewrite the primary superblock from the backup;
	 * debugfs 1.47.0 allows it, so its personality does too */
	if (!s->debugfs && session_refuse_rw_backup_sb(s->out, "open",
			a->device, a->flags, a->superblock, a->blocksize))
		return EINVAL;
	if (a->data_source) {
		if (!(a->extra & EXT2_FLAG_IMAGE_FILE)) {
			out_error(s->out, a->device, 0, "The -d option is only "
				  "valid when reading an e2image file");
			return EINVAL;
		}
		e = unix_io_manager->open(a->data_source, 0, &data_io);
		if (e) {
			out_error(s->out, a->data_source, 0,
				  "while opening data source");
			return e;
		}
	}
	s->extra_open_flags = a->extra;
	s->open_who = a->who;
	e = session_open(s, a->device, a->flags, a->undo, a->superblock,
			 a->blocksize);
	s->extra_open_flags = 0;
	s->open_who = NULL;
	s->now = 0;
	if (e) {
		if (data_io)
			io_channel_close(data_io);
		return e;
	}
	if (data_io && !s->debugfs && !data_source_matches(s, a, data_io)) {
		io_channel_close(data_io);
		session_close(s);
		return E2L_ERR_BAD_ARGUMENT;
	}
	if (data_io) {
		e = ext2fs_set_data_io(s->fs, data_io);
		if (e) {
			out_error(s->out, a->device, e,
				  "while setting data source");
			io_channel_close(data_io);
			session_close(s);
			return e;
		}
		/* debugfs 1.47.0 leaves the data source at 1 KiB blocks, so
		 * on other block sizes every data block it reads is the wrong
		 * one (and its personality keeps that); e2layout reads them
		 * at the filesystem's block size */
		if (!s->debugfs)
			io_channel_set_blksize(data_io, s->fs->blocksize);
	}
	return 0;
}

static int do_open(struct session *s, int argc, char **argv)
{
	struct dfs_open_args a = {.who = "debugfs"};
	int c, err;

	while ((c = dfs_getopt(s, argc, argv, "iwfecb:s:d:Dz:")) != -1) {
		switch (c) {
		case 'i':
			a.extra |= EXT2_FLAG_IMAGE_FILE;
			break;
		case 'w':
			a.flags |= SESSION_RW;
			break;
		case 'f':
			a.extra |= EXT2_FLAG_FORCE;
			break;
		case 'e':
			a.extra |= EXT2_FLAG_EXCLUSIVE;
			break;
		case 'c':
			a.flags |= SESSION_CATASTROPHIC;
			break;
		case 'd':
			a.data_source = optarg;
			break;
		case 'D':
			a.extra |= EXT2_FLAG_DIRECT_IO;
			break;
		case 'z':
			a.undo = optarg;
			break;
		case 'b':
			a.blocksize = dfs_parse_ulong(s, optarg, argv[0],
						      "block size", &err);
			if (err)
				return CMD_FAIL;
			break;
		case 's':
			if (dfs_strtoblk2(s, argv[0], optarg,
					  "superblock block number",
					  &a.superblock))
				return CMD_FAIL;
			break;
		default:
			open_usage(s, argv[0]);
			return CMD_FAIL;
		}
	}
	if (optind != argc - 1) {
		open_usage(s, argv[0]);
		return CMD_FAIL;
	}
	if (dfs_check_notopen(s, argv[0]))
		return CMD_FAIL;
	a.device = argv[optind];
	return dfs_open_filesystem(s, &a) ? CMD_FAIL : CMD_OK;
}

static const char *const open_aliases[] = {"open", NULL};
const struct cmd_entry cmd_open_filesys = {
	.name = "open_filesys",
	.aliases = open_aliases,
	.synopsis = "open_filesys [-s superblock -b blocksize] [-c] [-w] "
		    "[-i] [-f] [-e] [-D] [-d data_source] [-z undo_file] "
		    "device",
	.summary = "Open a filesystem (after close)",
	.options = "-s -b -c -w -i -f -e -D -d",
	.flags = CMD_DEBUGFS,
	.complete = COMPLETE_HOST_PATH,
	.run = do_open,
};

/* Closes the filesystem; the list of undo files the session's applies
 * wrote stays (the shell names them at exit, whatever was opened since). */
static errcode_t close_keep_list(struct session *s)
{
	char **files = s->undo_files;
	size_t n = s->n_undo_files;
	errcode_t err;

	s->undo_files = NULL;
	s->n_undo_files = 0;
	err = session_close(s);
	s->undo_files = files;
	s->n_undo_files = n;
	return err;
}

static int do_close(struct session *s, int argc, char **argv)
{
	int c;

	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	while ((c = dfs_getopt(s, argc, argv, "a")) != -1) {
		if (c != 'a')
			goto usage;
		s->fs->flags &= ~EXT2_FLAG_MASTER_SB_ONLY;
	}
	if (argc > optind) {
usage:
		out_error(s->out, NULL, 0, "Usage: close_filesys [-a]");
		return CMD_FAIL;
	}
	s->now = 0;
	return close_keep_list(s) ? CMD_FAIL : CMD_OK;
}

static const char *const close_aliases[] = {"close", NULL};
const struct cmd_entry cmd_close_filesys = {
	.name = "close_filesys",
	.aliases = close_aliases,
	.synopsis = "close_filesys [-a]",
	.summary = "Close the filesystem (-a: write all superblock copies)",
	.options = "-a",
	.flags = CMD_DEBUGFS,
	.run = do_close,
};

static int do_set_current_time(struct session *s, int argc, char **argv)
{
	long long now;

	(void)argc;	/* counted by the dispatcher */
	now = dfs_parse_time(argv[1]);
	if (now == -1) {
		out_error(s->out, argv[0], 0,
			  "Couldn't parse argument as a time: %s\n", argv[1]);
		return CMD_FAIL;
	}
	out_printf(s->out, "Setting current time to %s\n",
		   dfs_time_to_string(now));
	s->now = now;
	s->fs->now = now;	/* libext2fs stamps s_wtime and inodes with it */
	return CMD_OK;
}

const struct cmd_entry cmd_set_current_time = {
	.name = "set_current_time",
	.synopsis = "set_current_time time",
	.summary = "Set the time requests take as now (YYYYMMDD[HHMM[SS]], "
		   "@SECONDS)",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS,
	.run = do_set_current_time,
	.min_args = 2,
	.max_args = 2,
	.usage = "<time>",
};
