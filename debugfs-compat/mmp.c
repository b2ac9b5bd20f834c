/* mmp.c - debugfs's dump_mmp: the multi-mount protection block (its
 * sequence, last update, node and device), read by libext2fs. */
#include "cmd.h"
#include "dfs_util.h"

#include <stdlib.h>
#include <time.h>

static int do_dump_mmp(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	struct mmp_struct *m;
	unsigned long long blk;
	char when[64];
	struct tm tm;
	time_t t;
	errcode_t err;
	char *end;

	if (argc > 1) {
		blk = strtoull(argv[1], &end, 0);
		if (!blk) {
			out_errtext(s->out, "%s: invalid MMP block '%s' given\n",
				    argv[0], argv[1]);
			return CMD_FAIL;
		}
	} else {
		blk = fs->super->s_mmp_block;
	}
	if (!blk) {
		out_errtext(s->out, "%s: MMP: not active on this filesystem.\n",
			    argv[0]);
		return CMD_FAIL;
	}
	/* kept in the handle, as debugfs does; ext2fs_free frees it */
	if (!fs->mmp_buf) {
		err = ext2fs_get_mem(fs->blocksize, &fs->mmp_buf);
		if (err) {
			out_error(s->out, argv[0], err,
				  "allocating MMP buffer.\n");
			return CMD_FAIL;
		}
	}
	m = fs->mmp_buf;
	err = ext2fs_mmp_read(fs, blk, fs->mmp_buf);
	if (err) {
		out_error(s->out, argv[0], err, "reading MMP block %llu.\n",
			  blk);
		return CMD_FAIL;
	}
	t = m->mmp_time;
	if (!localtime_r(&t, &tm) || !asctime_r(&tm, when))
		snprintf(when, sizeof(when), "(invalid time)\n");
	out_printf(s->out, "block_number: %llu\n",
		   (unsigned long long)fs->super->s_mmp_block);
	out_printf(s->out, "update_interval: %d\n",
		   fs->super->s_mmp_update_interval);
	out_printf(s->out, "check_interval: %d\n", m->mmp_check_interval);
	out_printf(s->out, "sequence: %08x\n", m->mmp_seq);
	out_printf(s->out, "time: %llu -- %s",
		   (unsigned long long)m->mmp_time, when);
	out_printf(s->out, "node_name: %.*s\n",
		   (int)sizeof(m->mmp_nodename), (char *)m->mmp_nodename);
	out_printf(s->out, "device_name: %.*s\n",
		   (int)sizeof(m->mmp_bdevname), (char *)m->mmp_bdevname);
	out_printf(s->out, "magic: 0x%x\n", m->mmp_magic);
	out_printf(s->out, "checksum: 0x%08x\n", m->mmp_checksum);
	return CMD_OK;
}

const struct cmd_entry cmd_dump_mmp = {
	.name = "dump_mmp",
	.synopsis = "dump_mmp [mmp_block]",
	.summary = "Dump the multi-mount protection block",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS,
	.run = do_dump_mmp,
};
