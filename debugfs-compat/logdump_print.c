/* logdump_print.c - logdump's printing: its output (a file or the sink),
 * and what a logged block holds when asked (a bitmap's bit, an inode's
 * block map, a hex dump). */
#include "logdump_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void lg_printf(struct lg *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (l->file)
		vfprintf(l->file, fmt, ap);
	else
		out_vprintf(l->s->out, fmt, ap);
	va_end(ap);
}

/* debugfs's -c dump: native-endian words, then the bytes. */
static void lg_hexdump(struct lg *l, const unsigned char *buf)
{
	unsigned i, j;
	int w;

	for (i = 0; i < l->bs; i += 16) {
		lg_printf(l, "    %04x:  ", i);
		for (j = 0; j < 16; j += 4) {
			memcpy(&w, buf + i + j, 4);
			lg_printf(l, "%08x ", w);
		}
		for (j = 0; j < 16; j++) {
			unsigned char c = buf[i + j];

			lg_printf(l, "%c", c < ' ' || c >= 127 ? '.' : c);
		}
		lg_printf(l, "\n");
	}
}

void lg_metadata(struct lg *l, unsigned jblk, unsigned fsblk,
			unsigned flags, unsigned seq)
{
	unsigned char *buf;
	struct ext2_inode *inode;
	struct ext2_super_block *sb;
	unsigned off, i, first, prev, cur;
	int start;

	if (sink_is_json(l->s->out)) {
		json_obj_begin(l->s->out, NULL);
		json_u64(l->s->out, "fs_block", fsblk);
		json_u64(l->s->out, "journal_block", jblk);
		json_u64(l->s->out, "flags", flags);
		json_u64(l->s->out, "sequence", seq);
		json_obj_end(l->s->out);
	}
	if (!(l->all || fsblk == l->block || fsblk == l->iblock ||
	      fsblk == l->bitmap))
		return;
	lg_printf(l, "  FS block %u logged at ", fsblk);
	if (!l->all)
		lg_printf(l, "sequence %u, ", seq);
	lg_printf(l, "journal block %u (flags 0x%x)\n", jblk, flags);
	if (!(l->contents && l->all) && fsblk != l->block &&
	    fsblk != l->bitmap && fsblk != l->iblock)
		return;
	buf = malloc(l->bs);
	if (!buf)
		return;
	if (lg_read(l, "logdump", (ext2_loff_t)jblk * l->bs, buf, l->bs))
		goto out;
	if (fsblk == l->bitmap) {
		sb = l->s->fs->super;
		off = (l->block - sb->s_first_data_block) %
		      sb->s_blocks_per_group;
		lg_printf(l, "    (block bitmap for block %llu: block is %s)\n",
			  (unsigned long long)l->block,
			  ext2fs_test_bit(off, buf) ? "SET" : "CLEAR");
	}
	if (fsblk == l->iblock) {
		/* the inode itself is not decoded here (see help) */
		lg_printf(l, "    (inode block for inode %u):\n", l->ino);
		inode = (struct ext2_inode *)(buf + l->ioffset);
		lg_printf(l, "    Blocks:  ");
		first = prev = 0;
		start = -1;
		for (i = 0; i < EXT2_NDIR_BLOCKS; i++) {
			cur = inode->i_block[i];
			if (start >= 0 && cur == prev + 1) {
				prev = cur;
				continue;
			}
			if (start >= 0 && first)
				lg_printf(l, "(%d+%u): %u ", start,
					  i - start, first);
			start = i;
			first = prev = cur;
		}
		if (start >= 0 && first)
			lg_printf(l, "(%d+%u): %u ", start, i - start, first);
		if (inode->i_block[EXT2_IND_BLOCK])
			lg_printf(l, "(IND): %u ",
				  inode->i_block[EXT2_IND_BLOCK]);
		if (inode->i_block[EXT2_DIND_BLOCK])
			lg_printf(l, "(DIND): %u ",
				  inode->i_block[EXT2_DIND_BLOCK]);
		if (inode->i_block[EXT2_TIND_BLOCK])
			lg_printf(l, "(TIND): %u ",
				  inode->i_block[EXT2_TIND_BLOCK]);
		lg_printf(l, "\n");
	}
	if (l->contents)
		lg_hexdump(l, buf);
out:
	free(buf);
}
