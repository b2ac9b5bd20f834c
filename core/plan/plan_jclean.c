/* plan_jclean.c - the check before a plan moves the journal inode's blocks:
 * the journal is internal, clean and its superblock readable. */
#include "plan.h"

#include <stdlib.h>

int plan_journal_clean(struct session *s, ext2_ino_t ino, int want_resize)
{
	ext2_filsys fs = s->fs;
	__u32 *jsb;	/* big-endian words: magic @0, s_start @28 */
	blk64_t pblk = 0;
	char *buf;
	errcode_t err;
	int bad = 1;

	if (ext2fs_has_feature_journal_needs_recovery(fs->super)) {
		out_error(s->out, "journal_relocate", 0, "the journal needs "
			  "recovery; run e2fsck first");
		return 0;
	}
	buf = malloc(fs->blocksize);
	if (!buf)
		return 0;
	err = ext2fs_bmap2(fs, ino, NULL, NULL, 0, 0, NULL, &pblk);
	if (!err && pblk)
		err = io_channel_read_blk64(fs->io, pblk, 1, buf);
	jsb = (__u32 *)buf;
	if (err || !pblk)
		out_error(s->out, "journal_relocate", err, "while reading the "
			  "journal superblock");
	else if (ext2fs_be32_to_cpu(jsb[0]) != 0xc03b3998U)
		out_error(s->out, "journal_relocate", 0, "the journal "
			  "superblock is damaged (bad magic)");
	else if (want_resize && (ext2fs_be32_to_cpu(jsb[10]) & 0x20))
		out_error(s->out, "journal_relocate", 0, "the journal has a "
			  "fast-commit area; --size cannot resize it yet");
	else if (jsb[7])
		out_error(s->out, "journal_relocate", 0, "the journal is not "
			  "empty (s_start != 0): it needs recovery first");
	else
		bad = 0;
	free(buf);
	return !bad;
}
