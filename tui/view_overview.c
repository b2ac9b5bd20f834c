/* view_overview.c - view 1: the device at a glance (size, block size,
 * features, mount and health state, counts, the journal's extent count, the
 * fragmentation score) above a small whole-device map with its legend. */
#include "tui_int.h"
#include "cols.h"
#include "fs_probe.h"
#include "live_reread.h"

#include <e2p/e2p.h>
#include <stdlib.h>
#include <string.h>

#include "flex.h"
#include "frag.h"
#include "journal.h"

/* The view's state: one per TUI, made and freed with it (tig's private
 * view state; see tui_view_state()). */
struct overview_state {
	int jloaded;
	struct e2l_journal j;
	unsigned frag_gen;	/* t->gen + 1 when computed */
	double score;
	int score_ok;
};

static struct overview_state *state(struct tui *t)
{
	return tui_view_state(t, &view_overview);
}

static void human(char *buf, size_t len, unsigned long long bytes)
{
	static const char units[] = "BKMGTPE";
	double v = bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %ciB" : "%.0f %c", v, units[u]);
}

static void features(ext2_filsys fs, char *buf, size_t len)
{
	const __u32 *words[3] = {&fs->super->s_feature_compat,
				 &fs->super->s_feature_incompat,
				 &fs->super->s_feature_ro_compat};
	size_t o = 0;
	int i, b;

	buf[0] = 0;
	for (i = 0; i < 3; i++)
		for (b = 0; b < 32; b++)
			if (*words[i] & (1U << b) && o < len)
				o += snprintf(buf + o, len - o, "%s%s",
					      o ? " " : "",
					      e2p_feature2string(i, 1U << b));
}

static void overview_init(struct tui *t)
{
	struct overview_state *st = state(t);

	memset(st, 0, sizeof(*st));
	st->jloaded = !journal_load(t->fs, &st->j);
}

static void overview_fini(struct tui *t)
{
	struct overview_state *st = state(t);

	if (st->jloaded)
		journal_release(&st->j);
	st->jloaded = 0;
}

static void frag_score(struct tui *t)
{
	struct overview_state *st = state(t);
	struct frag_files f;

	if (st->frag_gen == t->gen + 1 || !owner_index_complete(t->s))
		return;
	st->frag_gen = t->gen + 1;
	st->score_ok = !frag_files_get(t->s, 1, &f);
	if (st->score_ok) {
		st->score = f.score;
		frag_files_release(&f);
	}
}

static void overview_draw(struct tui *t, int y, int x, int h, int w)
{
	struct overview_state *st = state(t);

	ext2_filsys fs = t->fs;
	struct ext2_super_block *sb = fs->super;
	struct map_layout m;
	char a[128], b[64], feat[1024], state[256];
	blk64_t blocks = ext2fs_blocks_count(sb);
	blk64_t freeb = ext2fs_free_blocks_count(sb);
	__u64 freei;
	int row = y, lh, mh;
	size_t o = 0;
	struct fields f;

	human(a, sizeof(a), (unsigned long long)blocks * fs->blocksize);
	tui_text(t, row++, x, w, R_HEAD, "%s", session_name(t->s));
	fields_init(&f);
	fields_add(&f, 9, "", "size %s:", a);
	fields_add(&f, 8, " ", "%llu blocks of %u bytes%s",
		   (unsigned long long)blocks, fs->blocksize,
		   ext2fs_has_feature_bigalloc(sb) ? " (bigalloc clusters)" : "");
	fields_add(&f, 7, ", ", "%u inodes of %u bytes", sb->s_inodes_count,
		   EXT2_INODE_SIZE(sb));
	fields_add_text(&f, 2, 10, ", ", "label \"%.16s\"", sb->s_volume_name);
	fields_draw(t, &f, row++, x, w, R_NORMAL);
	features(fs, feat, sizeof(feat));
	tui_text(t, row++, x, w, R_NORMAL, "features: %s", feat);
	o += snprintf(state + o, sizeof(state) - o, "%s",
		      (sb->s_state & EXT2_VALID_FS) ? "clean" : "not clean");
	if (sb->s_state & EXT2_ERROR_FS || sb->s_error_count)
		o += snprintf(state + o, sizeof(state) - o, ", errors (%u "
			      "recorded)", sb->s_error_count);
	if (ext2fs_has_feature_journal_needs_recovery(sb))
		o += snprintf(state + o, sizeof(state) - o,
			      ", needs journal recovery");
	if (t->s->mount_flags & EXT2_MF_MOUNTED)
		o += snprintf(state + o, sizeof(state) - o, ", mounted%s%s%s",
			      t->s->mount_point[0] ? " on " : "",
			      t->s->mount_point,
			      (t->s->mount_flags & EXT2_MF_READONLY) ?
			      " read-only" : "");
	else
		o += snprintf(state + o, sizeof(state) - o, ", not mounted");
	snprintf(state + o, sizeof(state) - o, "; opened %s%s",
		 (fs->flags & EXT2_FLAG_RW) ? "read-write" : "read-only",
		 fs_probe_metadata_only(fs) ? "; an e2image file: metadata "
		 "only, no file, directory or journal block content" : "");
	tui_text(t, row++, x, w,
		 (sb->s_state & EXT2_ERROR_FS) ? R_ERROR : R_NORMAL,
		 "state: %s", state);
	freei = sb->s_free_inodes_count;
	if (t->s->live)	/* the superblock's totals lag on a mount */
		live_desc_free(fs, &freeb, &freei);
	human(a, sizeof(a), (unsigned long long)freeb * fs->blocksize);
	/* the free counts stay longest, the inode total with them: the
	 * share and the reserved count go first */
	fields_init(&f);
	fields_add(&f, 9, "", "blocks: %llu free", (unsigned long long)freeb);
	fields_add(&f, 4, " ", "(%s, %.1f%%)", a,
		   blocks ? freeb * 100.0 / blocks : 0.0);
	fields_add(&f, 3, ", ", "%llu reserved",
		   (unsigned long long)ext2fs_r_blocks_count(sb));
	fields_add(&f, 8, ";  ", "inodes: %llu free of %u",
		   (unsigned long long)freei, sb->s_inodes_count);
	if (t->s->live)
		fields_add(&f, 2, " ", "(group descriptors)");
	fields_draw(t, &f, row++, x, w, R_NORMAL);
	fields_init(&f);
	fields_add(&f, 9, "", "groups: %u", fs->group_desc_count);
	fields_add(&f, 5, " ", "of %u blocks, %u inodes each",
		   sb->s_blocks_per_group, sb->s_inodes_per_group);
	fields_add(&f, 7, ";  ", "flex groups: %lu", flex_count(fs));
	fields_add(&f, 6, " ", "of %lu groups", flex_groups_per(fs));
	fields_draw(t, &f, row++, x, w, R_NORMAL);
	if (!st->jloaded || !st->j.present)
		snprintf(a, sizeof(a), "none");
	else if (st->j.external)
		snprintf(a, sizeof(a), "external, UUID %s", st->j.ext_uuid);
	else {
		human(b, sizeof(b), st->j.size_bytes);
		snprintf(a, sizeof(a), "inode <%u>, %s in %u extent(s)",
			 st->j.ino, b, st->j.next);
	}
	tui_text(t, row++, x, w, R_NORMAL, "journal: %s", a);
	frag_score(t);
	if (st->score_ok)
		snprintf(a, sizeof(a), "%.1f / 100 (0 is perfect)", st->score);
	else
		snprintf(a, sizeof(a), "%s", t->scanning ?
			 "waiting for the owner scan" : "not available");
	fields_init(&f);
	fields_add(&f, 9, "", "fragmentation score: %s", a);
	fields_add(&f, 8, ";  ", "owner scan: %s", owner_index_complete(t->s) ?
		   "complete" : t->scanning ? "running" : "incomplete");
	fields_draw(t, &f, row++, x, w, R_NORMAL);
	row++;
	lh = mapw_legend(t, 0, x, w, 0);
	mh = y + h - row - lh - 1;
	if (mh < 1)
		return;
	fields_init(&f);
	fields_add(&f, 9, "", "Whole device");
	if (t->nhl)
		fields_add_text(&f, 8, 12, ", ", "highlighted: %s", t->hl_what);
	fields_add(&f, 3, " ", "(2 for the group map)");
	fields_draw(t, &f, row++, x, w, R_HEAD);
	mapw_fit(t, &m, w, mh);
	m.cursor = 0;
	mapw_draw(t, &m, row, x, mh, w);
	mapw_legend(t, y + h - lh, x, w, 1);
	snprintf(t->status, sizeof(t->status), "%s  |  %llu blocks per "
		 "cell; click a cell or press 2 for the group map",
		 session_name(t->s), (unsigned long long)m.bpc);
}

static int overview_key(struct tui *t, enum tui_action a, int ch)
{
	(void)ch;
	if (a == ACT_ENTER) {
		tui_goto_view(t, 1);
		return 1;
	}
	return 0;
}

const struct tui_view view_overview = {
	.state_size = sizeof(struct overview_state),
	.name = "overview",
	.title = "Overview",
	.init = overview_init,
	.draw = overview_draw,
	.key = overview_key,
	.fini = overview_fini,
	.keys = NULL,
};
