/* journal_relocate.c - `journal_relocate [--goal B | --group G | --middle |
 * --start] [--size BLOCKS]`: a plan that moves the internal journal into one
 * contiguous run, previewed and kept as the session's current plan for
 * `apply` (defrag.c and evacuate.c are its siblings). */
#include "args.h"
#include "cmd.h"
#include "dfs_util.h"
#include "e2l_err.h"
#include "owner.h"
#include "plan.h"

#include <ctype.h>
#include <e2p/e2p.h>
#include <stdlib.h>
#include <string.h>

/* --size N: N blocks, or N bytes with K, M, G or T; 1024 to 2^32 - 1
 * blocks, and no more than the free blocks could hold. */
static int parse_jsize(struct session *s, const char *who, const char *str,
		       blk64_t *size)
{
	ext2_filsys fs = s->fs;
	size_t len = strlen(str);
	unsigned long long v;
	__u64 bytes;

	if (len && isalpha((unsigned char)str[len - 1])) {
		if (arg_bytes(s, who, "--size", str, &bytes))
			return 1;
		v = bytes / fs->blocksize;
	} else if (arg_number(s, who, "--size", str, &v)) {
		return 1;
	}
	if (v < 1024 || v >= (1ULL << 32)) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "--size %s: %llu "
			  "blocks; a journal has 1024 to 4294967295 blocks",
			  str, v);
		return 1;
	}
	if (v > ext2fs_free_blocks_count(fs->super)) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "--size %s: %llu "
			  "blocks, and the filesystem has %llu free", str, v,
			  (unsigned long long)ext2fs_free_blocks_count(
				fs->super));
		return 1;
	}
	*size = v;
	return 0;
}

static int do_journal_relocate(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	struct placement pl = {ext2fs_blocks_count(fs->super) / 2, NULL};
	blk64_t size = 0;
	ext2_ino_t ino = fs->super->s_journal_inum;
	struct plan *p;
	int i, r, sized = 0;
	struct apply_opts ao;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	for (i = 1; i < argc; i++) {
		r = arg_placement(s, argv[0], argc, argv, &i, PLACE_ALL, &pl);
		if (r > 0)
			return CMD_FAIL;
		if (!r)
			continue;
		if (!strcmp(argv[i], "--size") && i + 1 < argc && !sized) {
			if (parse_jsize(s, argv[0], argv[++i], &size))
				return CMD_FAIL;
			sized = 1;
			continue;
		}
		out_error(s->out, argv[0], 0, "Usage: journal_relocate "
			  "[--goal BLOCK | --group G | --middle | --start] "
			  "[--size BLOCKS]");
		return CMD_FAIL;
	}
	if (ext2fs_has_feature_journal(fs->super) && !ino) {
		char uuid[37];

		e2p_uuid_to_str(fs->super->s_journal_uuid, uuid);
		out_error(s->out, argv[0], 0, "the journal is external (on "
			  "the journal device with UUID %s): its blocks are "
			  "on that device, not in this filesystem, so there "
			  "is nothing here to move; to have an internal "
			  "journal instead, tune2fs -O ^has_journal then "
			  "tune2fs -J size=MB", uuid);
		return CMD_FAIL;
	}
	if (!ext2fs_has_feature_journal(fs->super) || !ino) {
		out_error(s->out, argv[0], 0, "the filesystem has no internal "
			  "journal");
		return CMD_FAIL;
	}
	if (size) {
		struct ext2_inode ji;

		if (!ext2fs_read_inode(fs, ino, &ji) &&
		    EXT2_I_SIZE(&ji) == size * fs->blocksize)
			size = 0;	/* the size it has: a plain move */
	}
	if (!plan_journal_clean(s, ino, size != 0))
		return CMD_FAIL;
	if (plan_build_move(s, "journal_relocate", ino, pl.goal, size, &p))
		return CMD_FAIL;
	return plan_offer(s, p, 0, &ao);
}

const struct cmd_entry cmd_journal_relocate = {
	.name = "journal_relocate",
	.synopsis = "journal_relocate [--goal BLOCK | --group G | --middle | "
		    "--start] [--size BLOCKS]",
	.summary = "Plan moving the internal journal into one contiguous run",
	.options = "--goal --group --middle --start --size",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON,
	.run = do_journal_relocate,
};
