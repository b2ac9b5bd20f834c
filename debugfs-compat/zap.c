/* zap.c - debugfs's zap_block/zap: fill part of a block with a byte
 * pattern, or flip one bit in it (a block of a file with -f). */
#include "cmd.h"
#include "dfs_blk.h"
#include "dfs_util.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static int zap_usage(struct session *s)
{
	out_error(s->out, NULL, 0, "Usage:\tzap_block [-f file] [-o offset] "
		  "[-l length] [-p pattern] block_num");
	out_error(s->out, NULL, 0, "\tzap_block [-f file] [-b bit] "
		  "block_num");
	return CMD_FAIL;
}

static int do_zap(struct session *s, int argc, char **argv)
{
	int c, err, bs = s->fs->blocksize;
	int offset = -1, length = -1, bit = -1;
	unsigned long pattern = 0;
	const char *file = NULL;
	unsigned char *buf;
	errcode_t e;
	blk64_t block;

	cmd_reset_getopt();
	while ((c = dfs_getopt(s, argc, argv, "b:f:l:o:p:")) != -1) {
		switch (c) {
		case 'f':
			file = optarg;
			break;
		case 'b':
			bit = (int)dfs_parse_ulong(s, optarg, argv[0], "bit",
						   &err);
			if (err)
				return CMD_FAIL;
			if (bit >= bs * 8) {
				out_error(s->out, argv[0], 0, "The bit to flip "
					  "must be within a %d block\n", bs);
				return CMD_FAIL;
			}
			break;
		case 'p':
			pattern = dfs_parse_ulong(s, optarg, argv[0],
						  "pattern", &err);
			if (err)
				return CMD_FAIL;
			if (pattern >= 256) {
				out_error(s->out, argv[0], 0, "The fill "
					  "pattern must be an 8-bit value\n");
				return CMD_FAIL;
			}
			break;
		case 'o':
			offset = (int)dfs_parse_ulong(s, optarg, argv[0],
						      "offset", &err);
			if (err)
				return CMD_FAIL;
			if (offset >= bs) {
				out_error(s->out, argv[0], 0, "The offset must "
					  "be within a %d block\n", bs);
				return CMD_FAIL;
			}
			break;
		case 'l':
			length = (int)dfs_parse_ulong(s, optarg, argv[0],
						      "length", &err);
			if (err)
				return CMD_FAIL;
			break;
		default:
			return zap_usage(s);
		}
	}
	if (bit > 0 && offset > 0) {
		out_error(s->out, argv[0], 0,
			  "The -o and -b options can not be mixed.");
		return CMD_FAIL;
	}
	if (offset < 0)
		offset = 0;
	if (length < 0)
		length = bs - offset;
	if ((long)offset + length > bs) {
		/* sic: debugfs's words */
		out_error(s->out, argv[0], 0,
			  "The specified length is too bug\n");
		return CMD_FAIL;
	}
	if (argc != optind + 1)
		return zap_usage(s);
	block = dfs_parse_ulonglong(s, argv[optind], argv[0], "block", &err);
	if (err)
		return CMD_FAIL;
	if (dfs_blk_read(s, argv[0], file, &block, &buf))
		return CMD_FAIL;
	if (bit >= 0)
		buf[bit / 8] ^= 1 << (bit % 8);
	else if (length > 0)
		memset(buf + offset, (int)pattern, length);
	session_invalidate(s);
	e = io_channel_write_blk64(s->fs->io, block, 1, buf);
	if (e)
		out_error(s->out, argv[0], e, "while write block %llu\n",
			  (unsigned long long)block);
	free(buf);
	return e ? CMD_FAIL : CMD_OK;
}

static const char *const zap_aliases[] = {"zap", NULL};
const struct cmd_entry cmd_zap_block = {
	.name = "zap_block",
	.aliases = zap_aliases,
	.synopsis = "zap_block [-f FILE] [-o OFFSET] [-l LENGTH] [-p "
		    "PATTERN] BLOCK | zap_block [-f FILE] [-b BIT] BLOCK",
	.summary = "Fill part of a block with a pattern, or flip one bit",
	.options = "-f -o -l -p -b",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_RW | CMD_DEBUGFS,
	.complete = COMPLETE_PATH,
	.run = do_zap,
};
