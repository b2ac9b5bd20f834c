/* cmd_relocate.c - `journal_relocate`, `defrag` and `evacuate`: plans that
 * move inodes' blocks into contiguous free runs (evacuate: every inode out
 * of a block range), previewed and kept as the session's current plan for
 * `apply`. */
#include "args.h"
#include "cmd.h"
#include "dfs_util.h"
#include "e2l_err.h"
#include "owner.h"
#include "plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <e2p/e2p.h>
#include <string.h>

/* The journal must be internal and clean (nothing to replay). */
static int journal_clean(struct session *s, ext2_ino_t ino, int want_resize)
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
	if (!journal_clean(s, ino, size != 0))
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

static int do_defrag(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	struct ext2_inode inode;
	const char *file = NULL;
	struct placement pl = {~0ULL, NULL};
	ext2_ino_t ino;
	struct plan *p;
	int i, r;
	struct apply_opts ao;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	for (i = 1; i < argc; i++) {
		r = arg_placement(s, argv[0], argc, argv, &i, PLACE_ALL, &pl);
		if (r > 0)
			return CMD_FAIL;
		if (!r)
			continue;
		if (argv[i][0] == '-' || file) {
			out_error(s->out, argv[0], 0, "Usage: defrag FILE "
				  "[--goal BLOCK | --group G]");
			return CMD_FAIL;
		}
		file = argv[i];
	}
	if (!file) {
		out_error(s->out, argv[0], 0, "Usage: defrag FILE [--goal "
			  "BLOCK | --group G]");
		return CMD_FAIL;
	}
	if (arg_inode(s, argv[0], file, &ino) ||
	    dfs_read_inode(s, ino, &inode, argv[0]))
		return CMD_FAIL;
	if (!LINUX_S_ISREG(inode.i_mode) || ino < EXT2_FIRST_INO(fs->super)) {
		out_error(s->out, argv[0], 0, "%s is not a regular file", file);
		return CMD_FAIL;
	}
	if (inode.i_flags & EXT4_INLINE_DATA_FL) {
		out_error(s->out, argv[0], 0, "%s keeps its data inline in "
			  "the inode; there is nothing to defragment", file);
		return CMD_FAIL;
	}
	if (!pl.opt)
		pl.goal = ext2fs_group_first_block2(fs,
				ext2fs_group_of_ino(fs, ino));
	if (plan_build_move(s, "defrag", ino, pl.goal, 0, &p))
		return CMD_FAIL;
	if (p->nold <= 1 && p->nold_meta <= p->new_meta) {
		out_printf(s->out, "%s is already in one contiguous run; "
			   "nothing to do\n", file);
		plan_free(p);
		return CMD_OK;
	}
	return plan_offer(s, p, 0, &ao);
}

const struct cmd_entry cmd_defrag = {
	.name = "defrag",
	.synopsis = "defrag FILE|<ino> [--goal BLOCK | --group G]",
	.summary = "Plan moving a file's blocks into one contiguous run",
	.options = "--goal --group --middle --start",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BBITMAP | CMD_JSON,
	.complete = COMPLETE_PATH,
	.run = do_defrag,
};

/* What owns the range evacuate is asked to empty. */
struct evac {
	ext2_ino_t *inos;
	size_t n, cap;
	blk64_t fixed, xattr, dind;	/* dind: the resize inode's block */
	int oom;
};

static int evac_cb(const struct owner_run *run, void *arg)
{
	struct evac *e = arg;
	ext2_ino_t *ni;
	size_t i;

	switch (run->cls) {
	case OWN_FREE:
	case OWN_UNINIT:
		return 0;
	case OWN_FILE:
	case OWN_DIR:
	case OWN_MAPPING:
	case OWN_JOURNAL:
		if (!run->ino)
			break;
		for (i = 0; i < e->n; i++)
			if (e->inos[i] == run->ino)
				return 0;
		if (e->n == e->cap) {
			e->cap = e->cap ? e->cap * 2 : 16;
			ni = realloc(e->inos, e->cap * sizeof(*ni));
			if (!ni) {
				e->oom = 1;
				return 1;
			}
			e->inos = ni;
		}
		e->inos[e->n++] = run->ino;
		return 0;
	case OWN_XATTR:
		e->xattr += run->len;
		return 0;
	case OWN_OTHER:		/* the resize inode's block can move */
		if (run->ino == EXT2_RESIZE_INO && run->len == 1 && !e->dind) {
			e->dind = run->start;
			return 0;
		}
		break;
	default:
		break;
	}
	e->fixed += run->len;
	return 0;
}

/* FIRST-LAST (or FIRST LAST): blocks inside the filesystem, in order. */
static int parse_range(struct session *s, const char *who, int argc,
		       char **argv, blk64_t *first, blk64_t *last)
{
	unsigned long long a, b;
	char *dash, *copy = NULL;
	int bad = 1;

	if (argc == 2 && (dash = strchr(argv[1], '-')) != NULL &&
	    dash != argv[1] && (copy = strdup(argv[1])) != NULL) {
		copy[dash - argv[1]] = 0;
		bad = arg_number(s, who, "FIRST", copy, &a) ||
		      arg_number(s, who, "LAST", dash + 1, &b);
	} else if (argc == 3) {
		bad = arg_number(s, who, "FIRST", argv[1], &a) ||
		      arg_number(s, who, "LAST", argv[2], &b);
	} else {
		out_error(s->out, who, 0, "Usage: evacuate FIRST-LAST (blocks "
			  "within the filesystem, FIRST <= LAST)");
	}
	free(copy);
	if (bad)
		return 1;
	if (arg_block_in_fs(s, who, "FIRST", a) ||
	    arg_block_in_fs(s, who, "LAST", b))
		return 1;
	if (a > b) {
		out_error(s->out, who, E2L_ERR_BAD_ARGUMENT, "%llu-%llu: FIRST "
			  "is after LAST", a, b);
		return 1;
	}
	*first = a;
	*last = b;
	return 0;
}

static int do_evacuate(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	ext2fs_block_bitmap saved = NULL;
	struct plan *chain = NULL, **tail = &chain, *p;
	struct evac e = {0};
	blk64_t first, last, moved = 0;
	errcode_t err;
	size_t i;
	int rc = CMD_FAIL;
	struct apply_opts ao;

	if (plan_take_apply_opts(s, &argc, argv, &ao))
		return CMD_FAIL;

	if (parse_range(s, argv[0], argc, argv, &first, &last))
		return CMD_FAIL;
	err = owner_index_build(s);
	if (!err)
		err = owner_for_range(s, first, last - first + 1, evac_cb, &e);
	if (err || e.oom) {
		out_error(s->out, argv[0], err ? err : ENOMEM, "while finding "
			  "what owns blocks %llu-%llu",
			  (unsigned long long)first, (unsigned long long)last);
		goto out;
	}
	if (e.fixed || e.xattr) {
		out_error(s->out, argv[0], 0, "blocks %llu-%llu hold %llu "
			  "blocks of metadata that cannot move (superblocks, "
			  "descriptors, bitmaps, inode tables, reserved or "
			  "extended-attribute blocks); choose another range",
			  (unsigned long long)first, (unsigned long long)last,
			  (unsigned long long)(e.fixed + e.xattr));
		goto out;
	}
	if (!e.n && !e.dind) {
		out_printf(s->out, "blocks %llu-%llu are already free\n",
			   (unsigned long long)first, (unsigned long long)last);
		rc = CMD_OK;
		goto out;
	}
	/* Plan every move with the range (and earlier targets) held. */
	err = ext2fs_copy_bitmap(fs->block_map, &saved);
	if (err)
		goto out;
	ext2fs_mark_block_bitmap_range2(fs->block_map, first,
					last - first + 1);
	if (e.dind) {	/* first, to the first free block after the range */
		if (plan_build_dind_move(s, last + 1, &p)) {
			out_error(s->out, argv[0], 0, "no free block for the "
				  "resize inode's double-indirect block");
			goto restore;
		}
		ext2fs_mark_block_bitmap2(fs->block_map,
					  p->repack ? plan_dind_target(p) : 0);
		moved++;
		*tail = p;
		tail = &p->next;
	}
	for (i = 0; i < e.n; i++) {
		if (e.inos[i] == fs->super->s_journal_inum &&
		    !journal_clean(s, e.inos[i], 0))
			goto restore;
		if (plan_build_move(s, "evacuate", e.inos[i], last + 1, 0, &p))
			goto restore;
		p->chained = i > 0 || e.dind;
		ext2fs_mark_block_bitmap_range2(fs->block_map, p->target,
						p->target_len);
		moved += p->target_len;
		*tail = p;
		tail = &p->next;
	}
	rc = CMD_OK;
restore:
	ext2fs_free_block_bitmap(fs->block_map);
	fs->block_map = saved;
	if (rc != CMD_OK)
		goto out;
	rc = CMD_FAIL;
	if (plan_guard(s, chain, argv[0]))	/* before it is shown */
		goto out;
	for (p = chain; p; p = p->next)
		plan_show(s, p);
	out_printf(s->out, "evacuate %llu-%llu: %zu inode%s to move, %llu "
		   "blocks\n", (unsigned long long)first,
		   (unsigned long long)last, e.n, e.n == 1 ? "" : "s",
		   (unsigned long long)moved);
	if (e.dind)
		out_printf(s->out, "(and the resize inode's double-indirect "
			   "block)\n");
	rc = plan_offer(s, chain, 1, &ao);
	chain = NULL;
out:
	plan_free(chain);
	free(e.inos);
	return rc;
}

const struct cmd_entry cmd_evacuate = {
	.name = "evacuate",
	.synopsis = "evacuate FIRST-LAST",
	.summary = "Plan moving every file out of a block range",
	.flags = CMD_NEEDS_FS | CMD_NEEDS_BITMAPS | CMD_JSON,
	.run = do_evacuate,
};
