/* modify_inode.c - debugfs's modify_inode (mi): prompts for each field of
 * an inode with its current value and reads the replacement, one line per
 * field, from the sink's input (the standard input, which is also where
 * `-f -` reads the script: the answers are then the script's next lines). */
#include "cmd.h"
#include "dfs_util.h"
#include "dfs_wr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mi_fmt { MI_OCT, MI_DEC, MI_UL, MI_HEX };

/* Shows "PROMPT    [VALUE] " and returns the answer as a number in *v:
 * 0 when one was given, 1 to keep the field (no answer, a blank line or a
 * bad value, which is reported as debugfs does). */
static int mi_ask(struct session *s, const char *who, const char *prompt,
		  enum mi_fmt fmt, unsigned long cur, unsigned long *v)
{
	char buf[200], *end;
	size_t n;

	switch (fmt) {
	case MI_OCT:
		snprintf(buf, sizeof(buf), "0%o", (unsigned)cur);
		break;
	case MI_DEC:
		snprintf(buf, sizeof(buf), "%d", (int)cur);
		break;
	case MI_UL:
		snprintf(buf, sizeof(buf), "%lu", cur);
		break;
	case MI_HEX:
		snprintf(buf, sizeof(buf), "0x%x", (unsigned)cur);
		break;
	}
	out_printf(s->out, "%30s    [%s] ", prompt, buf);
	if (!sink_read_line(s->out, buf, sizeof(buf)))
		return 1;
	n = strlen(buf);
	if (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	if (!buf[0])
		return 1;
	*v = strtoul(buf, &end, 0);
	if (*end) {
		out_error(s->out, who, 0, "Bad value - %s", buf);
		return 1;
	}
	return 0;
}

static void mi_u8(struct session *s, const char *who, const char *prompt,
		  enum mi_fmt fmt, __u8 *val)
{
	unsigned long v;

	if (!mi_ask(s, who, prompt, fmt, *val, &v))
		*val = v;
}

static void mi_u16(struct session *s, const char *who, const char *prompt,
		   enum mi_fmt fmt, __u16 *val)
{
	unsigned long v;

	if (!mi_ask(s, who, prompt, fmt, *val, &v))
		*val = v;
}

static void mi_u32(struct session *s, const char *who, const char *prompt,
		   enum mi_fmt fmt, __u32 *val)
{
	unsigned long v;

	if (!mi_ask(s, who, prompt, fmt, *val, &v))
		*val = v;
}

static int do_modify_inode(struct session *s, int argc, char **argv)
{
	static const char *const blk_names[] = {
		"Indirect Block", "Double Indirect Block",
		"Triple Indirect Block" };
	struct ext2_inode in;
	const char *w;
	char name[32];
	ext2_ino_t ino;
	int os, i;

	(void)argc;	/* counted by the dispatcher */
	if (dfs_arg_inode(s, argv[1], &ino))
		return CMD_FAIL;
	w = argv[0];
	os = s->fs->super->s_creator_os;
	if (dfs_read_inode(s, ino, &in, argv[1]))
		return CMD_FAIL;
	mi_u16(s, w, "Mode", MI_OCT, &in.i_mode);
	mi_u16(s, w, "User ID", MI_DEC, &in.i_uid);
	mi_u16(s, w, "Group ID", MI_DEC, &in.i_gid);
	mi_u32(s, w, "Size", MI_UL, &in.i_size);
	mi_u32(s, w, "Creation time", MI_DEC, &in.i_ctime);
	mi_u32(s, w, "Modification time", MI_DEC, &in.i_mtime);
	mi_u32(s, w, "Access time", MI_DEC, &in.i_atime);
	mi_u32(s, w, "Deletion time", MI_DEC, &in.i_dtime);
	mi_u16(s, w, "Link count", MI_DEC, &in.i_links_count);
	if (os == EXT2_OS_LINUX)
		mi_u16(s, w, "Block count high", MI_UL,
		       &in.osd2.linux2.l_i_blocks_hi);
	mi_u32(s, w, "Block count", MI_UL, &in.i_blocks);
	mi_u32(s, w, "File flags", MI_HEX, &in.i_flags);
	mi_u32(s, w, "Generation", MI_HEX, &in.i_generation);
	mi_u32(s, w, "File acl", MI_DEC, &in.i_file_acl);
	mi_u32(s, w, "High 32bits of size", MI_DEC, &in.i_size_high);
	if (os == EXT2_OS_HURD)
		mi_u32(s, w, "Translator Block", MI_DEC,
		       &in.osd1.hurd1.h_i_translator);
	mi_u32(s, w, "Fragment address", MI_DEC, &in.i_faddr);
	if (os == EXT2_OS_HURD) {
		mi_u8(s, w, "Fragment number", MI_DEC,
		      &in.osd2.hurd2.h_i_frag);
		mi_u8(s, w, "Fragment size", MI_DEC,
		      &in.osd2.hurd2.h_i_fsize);
	}
	for (i = 0; i < EXT2_NDIR_BLOCKS; i++) {
		snprintf(name, sizeof(name), "Direct Block #%d", i);
		mi_u32(s, w, name, MI_DEC, &in.i_block[i]);
	}
	for (i = 0; i < 3; i++)
		mi_u32(s, w, blk_names[i], MI_DEC,
		       &in.i_block[EXT2_IND_BLOCK + i]);
	session_invalidate(s);
	return dfs_wr_write_inode(s, ino, &in, argv[1]) ? CMD_FAIL : CMD_OK;
}

static const char *const mi_aliases[] = {"mi", NULL};
const struct cmd_entry cmd_modify_inode = {
	.name = "modify_inode",
	.aliases = mi_aliases,
	.synopsis = "modify_inode <file>",
	.summary = "Modify an inode field by field, answering prompts",
	.flags = CMD_DEBUGFS | CMD_NEEDS_FS | CMD_NEEDS_RW,
	.complete = COMPLETE_PATH,
	.run = do_modify_inode,
	.min_args = 2,
	.max_args = 2,
	.usage = "<file>",
};
