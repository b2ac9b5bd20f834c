/* logdump.c - debugfs's logdump request: its options, the journal it
 * opens (internal, from the superblock's backup copy of its block map, or
 * an external file) and where it prints; the walk reads
 * (logdump_read.c), decodes (logdump_decode.c) and prints
 * (logdump_print.c). */
#include "logdump_int.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void lg_usage(struct session *s, const char *who)
{
	out_errtext(s->out, "%s: Usage: logdump [-acsOS] [-n<num_trans>] "
		    "[-b<block>] [-i<filespec>]\n\t[-f<journal_file>] "
		    "[output_file]\n", who);
}

static int do_logdump(struct session *s, int argc, char **argv)
{
	const char *ispec = NULL, *jfn = NULL;
	struct ext2_super_block *es;
	struct lg l;
	int c, use_sb = 0, super = 0, ret = CMD_FAIL;
	unsigned grp, off, ipb;
	char *end;

	memset(&l, 0, sizeof(l));
	l.s = s;
	l.cmd = argv[0];
	l.fd = -1;
	l.descriptors = 1;
	l.counts = -1;
	l.block = l.bitmap = l.iblock = ANY_BLOCK;
	while ((c = dfs_getopt(s, argc, argv, "ab:ci:f:OsSn:")) != -1) {
		switch (c) {
		case 'a':
			l.all++;
			break;
		case 'b':
			l.block = strtoul(optarg, &end, 0);
			if (*end) {
				out_error(s->out, argv[0], 0,
					  "Bad block number - %s", optarg);
				return CMD_FAIL;
			}
			l.descriptors = 0;
			break;
		case 'c':
			l.contents++;
			break;
		case 'f':
			jfn = optarg;
			break;
		case 'i':
			ispec = optarg;
			l.descriptors = 0;
			break;
		case 'O':
			l.old++;
			break;
		case 's':
			use_sb++;
			break;
		case 'S':
			super++;
			break;
		case 'n':
			l.counts = strtol(optarg, &end, 10);
			if (*end) {
				out_error(s->out, argv[0], 0,
					  "Bad log counts number - %s", optarg);
				return CMD_FAIL;
			}
			break;
		default:
			lg_usage(s, argv[0]);
			return CMD_FAIL;
		}
	}
	if (optind != argc && optind != argc - 1) {
		lg_usage(s, argv[0]);
		return CMD_FAIL;
	}
	if (ispec) {
		if (dfs_check_open(s, argv[0]))
			return CMD_FAIL;
		l.ino = dfs_string_to_inode(s, ispec);
		if (!l.ino)
			return CMD_FAIL;
		es = s->fs->super;
		grp = (l.ino - 1) / es->s_inodes_per_group;
		off = (l.ino - 1) % es->s_inodes_per_group;
		ipb = s->fs->blocksize / sizeof(struct ext2_inode);
		l.iblock = ext2fs_inode_table_loc(s->fs, grp) + off / ipb;
		l.ioffset = (off % ipb) * sizeof(struct ext2_inode);
		out_printf(s->out, "Inode %u is at group %u, block %llu, "
			   "offset %u\n", l.ino, grp,
			   (unsigned long long)l.iblock, l.ioffset);
	}
	if (optind == argc - 1) {
		l.file = fopen(argv[optind], "w");
		if (!l.file) {
			out_error(s->out, argv[0], errno, "while opening %s "
				  "for logdump", argv[optind]);
			return CMD_FAIL;
		}
	}
	if (l.block != ANY_BLOCK && s->fs) {
		es = s->fs->super;
		grp = (l.block - es->s_first_data_block) /
		      es->s_blocks_per_group;
		l.bitmap = grp < s->fs->group_desc_count ?
			   ext2fs_block_bitmap_loc(s->fs, grp) : ANY_BLOCK;
	}
	if (!jfn && dfs_check_open(s, argv[0]))
		goto out;
	if (jfn) {
		l.fd = open(jfn, O_RDONLY, 0);
		if (l.fd < 0) {
			out_error(s->out, argv[0], errno,
				  "while opening %s for logdump", jfn);
			goto out;
		}
	} else if (s->fs->super->s_journal_inum) {
		if (lg_open_internal(&l, use_sb, argv))
			goto out;
	} else {
		out_error(s->out, argv[0], 0, "filesystem has no journal");
		goto out;
	}
	if (super) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = l.file ? l.file : sink_stream_begin(s->out, &text,
							       &len);
		unsigned char sbuf[1024];

		/* the journal superblock, listed by libe2p */
		if (f && !lg_read(&l, argv[0], 0, sbuf, 1024)) {
			e2p_list_journal_super(f, (char *)sbuf,
					       s->fs ? s->fs->blocksize : 1024,
					       0);
			fputc('\n', f);
		}
		if (f && !l.file)
			sink_stream_end(s->out, f, &text, &len);
	}
	json_u64(s->out, "journal_inode", s->fs ? s->fs->super->s_journal_inum
						: 0);
	lg_journal(&l);
	ret = CMD_OK;
out:
	if (l.jfile)
		ext2fs_file_close(l.jfile);
	if (l.fd >= 0)
		close(l.fd);
	if (l.file)
		fclose(l.file);
	return ret;
}

const struct cmd_entry cmd_logdump = {
	.name = "logdump",
	.synopsis = "logdump [-acsOS] [-n num_trans] [-b block] [-i filespec] "
		    "[-f journal_file] [output_file]",
	.summary = "Dump the contents of the journal",
	.options = "-a -c -s -O -S -n -b -i -f --json",
	.flags = CMD_DEBUGFS | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_logdump,
};
