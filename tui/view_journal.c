/* view_journal.c - view 4: the journal superblock, the journal's extents
 * with their gaps and distance from the nearest metadata island, how
 * contiguous it is, and a whole-device map with the journal highlighted. */
#include "tui_int.h"
#include "cols.h"

#include <stdlib.h>
#include <string.h>

#include "flex.h"
#include "journal.h"
#include "journal_ext.h"

/* The view's state: one per TUI, made and freed with it (tig's private
 * view state; see tui_view_state()). */
struct journal_state {
	int loaded;
	errcode_t err;
	struct e2l_journal j;
	int sel, top;
	int list_y, list_h;	/* where the list was drawn, for clicks */
};

static struct journal_state *state(struct tui *t)
{
	return tui_view_state(t, &view_journal);
}

static const struct tui_key journal_keys[] = {
	{'\n', "Enter", ACT_ENTER, "show the selected extent on the group map"},
	{0, NULL, ACT_NONE, NULL},
};

static void journal_init(struct tui *t)
{
	struct journal_state *st = state(t);

	memset(st, 0, sizeof(*st));
	st->err = journal_load(t->fs, &st->j);
	if (!st->err && st->j.external)
		(void)journal_ext_find(t->s, &st->j);	/* shown as found */
	st->loaded = !st->err;
}

static void journal_fini(struct tui *t)
{
	struct journal_state *st = state(t);

	if (st->loaded)
		journal_release(&st->j);
	st->loaded = 0;
}

static void set_highlight(struct tui *t)
{
	struct journal_state *st = state(t);
	struct tui_range *r;
	unsigned i, n = st->j.next + st->j.nmap;

	if (!strcmp(t->hl_what, "journal") || !n)
		return;
	r = calloc(n, sizeof(*r));
	if (!r)
		return;
	for (i = 0; i < st->j.next; i++) {
		r[i].start = st->j.ext[i].pblk;
		r[i].len = st->j.ext[i].len;
	}
	for (i = 0; i < st->j.nmap; i++) {
		r[st->j.next + i].start = st->j.map_blocks[i];
		r[st->j.next + i].len = 1;
	}
	tui_set_highlight(t, r, n, "journal");
	free(r);
}

/* Blocks between the extent and the nearest metadata island of its flex
 * group (0 when adjacent). */
static blk64_t meta_distance(struct tui *t, const struct e2l_jextent *e)
{
	dgrp_t g = ext2fs_group_of_blk2(t->fs, e->pblk);
	unsigned long fx = g / flex_groups_per(t->fs);
	blk64_t best = ~0ULL, d, end = e->pblk + e->len;
	struct e2l_flex f;
	unsigned i;

	if (flex_get(t->fs, fx, &f))
		return best;
	for (i = 0; i < f.nislands; i++) {
		blk64_t is = f.islands[i].start, ie = is + f.islands[i].len;

		d = ie <= e->pblk ? e->pblk - ie : is >= end ? is - end : 0;
		if (d < best)
			best = d;
	}
	flex_release(&f);
	return best;
}

static const char *jfeatures(const struct journal_state *st, char *buf,
			     size_t len)
{
	static const char *const incompat[] = {"revoke", "64bit",
		"async_commit", "csum_v2", "csum_v3", "fast_commit"};
	size_t o = 0;
	int b;

	buf[0] = 0;
	for (b = 0; b < 6; b++)
		if (st->j.sb_feature_incompat & (1U << b))
			o += snprintf(buf + o, len - o, "%s%s", o ? " " : "",
				      incompat[b]);
	if (st->j.sb_feature_compat & 1)
		snprintf(buf + o, len - o, "%schecksum", o ? " " : "");
	return buf[0] ? buf : "(none)";
}

/* The extents' columns: the distance to metadata, the gap before and the
 * group go first; the physical blocks and lengths stay longest. */
enum { J_NUM, J_LOGICAL, J_PHYSICAL, J_LENGTH, J_GROUP, J_GAP, J_META,
       J_NCOLS };
static const struct col_spec ext_cols[J_NCOLS] = {
	[J_NUM]		= {"#", COL_NUM, 5, 0},
	[J_LOGICAL]	= {"logical", COL_NUM, 7, 0},
	[J_PHYSICAL]	= {"physical", COL_NUM, 9, 0},
	[J_LENGTH]	= {"length", COL_NUM, 8, 0},
	[J_GROUP]	= {"group", COL_NUM, 4, 0},
	[J_GAP]		= {"gap before", COL_NUM, 3, 0},
	[J_META]	= {"to metadata", COL_NUM, 2, 0},
};

static void journal_draw(struct tui *t, int y, int x, int h, int w)
{
	struct journal_state *st = state(t);
	struct e2l_journal *j = &st->j;
	struct tui_sel sel = {.kind = SEL_JOURNAL};
	struct map_layout m;
	char feat[128], c[J_GAP][48];
	const char *cells[J_NCOLS];
	blk64_t contig = 0, biggest = 0, maxl = 0, maxp = 0, gap, dist;
	int row = y, i, mh, lh = 2, d, cx, cw;
	unsigned k;
	struct fields fl;
	struct cols tc;

	if (!st->loaded) {
		tui_text(t, row, x, w, R_ERROR, "journal: %s",
			 error_message(st->err));
		return;
	}
	if (!j->present) {
		tui_text(t, row, x, w, R_HEAD, "This filesystem has no "
			 "journal (has_journal is not set).");
		return;
	}
	if (j->external) {
		tui_text(t, row++, x, w, R_HEAD, "External journal on device "
			 "%#x, UUID %s", j->ext_dev, j->ext_uuid);
		tui_text(t, row++, x, w, R_NORMAL, "Its blocks are on another "
			 "device: nothing of it is on this map.");
		if (!j->ext_path || j->ext_mismatch) {
			tui_text(t, row, x, w, R_NORMAL, "%s", j->ext_mismatch ?
				 "The device named is not this journal." :
				 "Its device was not found by UUID; name it "
				 "with --journal-dev PATH.");
			return;
		}
		tui_text(t, row++, x, w, R_NORMAL, "Device %s (%s): %llu "
			 "blocks of %u bytes", j->ext_path, j->ext_how,
			 (unsigned long long)j->ext_blocks, j->ext_blocksize);
		tui_text(t, row++, x, w, R_NORMAL, "Journal superblock at "
			 "block %llu; log blocks %u-%u (%u blocks)",
			 (unsigned long long)j->sb_pblk, j->sb_first,
			 j->sb_maxlen ? j->sb_maxlen - 1 : 0,
			 j->sb_maxlen > j->sb_first ?
			 j->sb_maxlen - j->sb_first : 0);
		tui_text(t, row, x, w, R_NORMAL, "%u user(s)%s",
			 j->sb_nr_users, j->ext_user >= 0 ?
			 ", this filesystem among them" :
			 "; this filesystem is not among them");
		return;
	}
	set_highlight(t);
	sel.ino = j->ino;
	tui_select(t, &sel);	/* what the editor (e) works on */
	for (k = 0; k < j->next; k++) {
		if (j->ext[k].len > biggest)
			biggest = j->ext[k].len;
		if (j->ext[k].lblk > maxl)
			maxl = j->ext[k].lblk;
		if (j->ext[k].pblk + j->ext[k].len > maxp)
			maxp = j->ext[k].pblk + j->ext[k].len;
		if (k && j->ext[k].pblk == j->ext[k - 1].pblk +
						j->ext[k - 1].len)
			contig++;
	}
	fields_init(&fl);
	fields_add(&fl, 9, "", "Journal inode <%u>:", j->ino);
	fields_add(&fl, 6, " ", "%llu bytes,",
		   (unsigned long long)j->size_bytes);
	fields_add(&fl, 8, " ", "%llu blocks in %u extent(s),",
		   (unsigned long long)j->data_blocks, j->next);
	fields_add(&fl, 5, " ", "%u mapping block(s);", j->nmap);
	fields_add(&fl, 7, " ", "largest extent %llu blocks;",
		   (unsigned long long)biggest);
	fields_add(&fl, 4, " ", "%llu of %u joins physically adjacent",
		   (unsigned long long)contig, j->next ? j->next - 1 : 0);
	fields_draw(t, &fl, row++, x, w, R_HEAD);
	if (j->sb_valid) {
		fields_init(&fl);
		fields_add(&fl, 9, "", "superblock: v%d",
			   j->sb_blocktype == 4 ? 2 : 1);
		fields_add(&fl, 3, ", ", "block size %u", j->sb_blocksize);
		fields_add(&fl, 8, ", ", "%u blocks", j->sb_maxlen);
		fields_add(&fl, 2, ", ", "first %u", j->sb_first);
		fields_add(&fl, 6, ", ", "sequence %u", j->sb_sequence);
		fields_add(&fl, 7, ", ", "start %u%s", j->sb_start,
			   j->sb_start ? " (needs recovery)" : " (empty)");
		fields_add(&fl, 5, ", ", "errno %d", (int)j->sb_errno);
		fields_add(&fl, 2, ", ", "users %u", j->sb_nr_users);
		fields_add(&fl, 4, ", ", "fast-commit blocks %u",
			   j->sb_num_fc_blocks);
		fields_add_text(&fl, 1, 12, ", ", "features %s",
				jfeatures(st, feat, sizeof(feat)));
		fields_add(&fl, 0, ", ", "uuid %s", j->sb_uuid);
		fields_draw(t, &fl, row++, x, w, R_NORMAL);
	} else if (j->sb_absent)
		tui_text(t, row++, x, w, R_DIM, "the journal superblock is "
			 "not in this e2image file (it holds the metadata "
			 "only)");
	else
		tui_text(t, row++, x, w, R_ERROR, "the journal superblock "
			 "is not valid");
	cols_init(&tc, ext_cols, J_NCOLS);
	cols_want_num(&tc, J_NUM, j->next);
	cols_want_num(&tc, J_LOGICAL, maxl);
	d = cols_digits(maxp > ext2fs_blocks_count(t->fs->super) ? maxp :
			ext2fs_blocks_count(t->fs->super));
	if (2 * d + 1 > tc.want[J_PHYSICAL])
		tc.want[J_PHYSICAL] = 2 * d + 1;
	cols_want_num(&tc, J_LENGTH, biggest);
	cols_want_num(&tc, J_GROUP, t->fs->group_desc_count);
	if (d + 1 > tc.want[J_GAP])
		tc.want[J_GAP] = d + 1;	/* "-N": an overlap */
	if (d > tc.want[J_META])
		tc.want[J_META] = d;
	cols_fit(&tc, w);
	cols_head(t, &tc, row++, x, R_DIM);
	for (i = 0; i < J_GAP; i++)
		cells[i] = c[i];
	mh = h / 3;
	if (mh < 3)
		mh = 3;
	st->list_y = row;
	st->list_h = h - (row - y) - mh - lh - 1;
	if (st->list_h < 1)
		st->list_h = 1;
	if (st->sel >= (int)j->next)
		st->sel = j->next ? j->next - 1 : 0;
	if (st->sel < st->top)
		st->top = st->sel;
	if (st->sel >= st->top + st->list_h)
		st->top = st->sel - st->list_h + 1;
	for (i = 0; i < st->list_h && st->top + i < (int)j->next; i++) {
		const struct e2l_jextent *e = &j->ext[st->top + i];
		char gapbuf[24], distbuf[24];

		k = st->top + i;
		if (k == 0) {
			snprintf(gapbuf, sizeof(gapbuf), "-");
		} else {
			const struct e2l_jextent *p = &j->ext[k - 1];

			gap = e->pblk - (p->pblk + p->len);
			if (e->pblk >= p->pblk + p->len)
				snprintf(gapbuf, sizeof(gapbuf), "%llu",
					 (unsigned long long)gap);
			else
				snprintf(gapbuf, sizeof(gapbuf), "-%llu",
					 (unsigned long long)(p->pblk + p->len -
							      e->pblk));
		}
		dist = cols_at(&tc, J_META, &cx, &cw) ? meta_distance(t, e) :
		       ~0ULL;	/* (a flex group read: only when shown) */
		if (dist == ~0ULL)
			snprintf(distbuf, sizeof(distbuf), "?");
		else
			snprintf(distbuf, sizeof(distbuf), "%llu",
				 (unsigned long long)dist);
		snprintf(c[J_NUM], sizeof(c[J_NUM]), "%u", k);
		snprintf(c[J_LOGICAL], sizeof(c[J_LOGICAL]), "%llu",
			 (unsigned long long)e->lblk);
		snprintf(c[J_PHYSICAL], sizeof(c[J_PHYSICAL]), "%llu-%llu",
			 (unsigned long long)e->pblk,
			 (unsigned long long)(e->pblk + e->len - 1));
		snprintf(c[J_LENGTH], sizeof(c[J_LENGTH]), "%llu",
			 (unsigned long long)e->len);
		snprintf(c[J_GROUP], sizeof(c[J_GROUP]), "%u",
			 ext2fs_group_of_blk2(t->fs, e->pblk));
		cells[J_GAP] = gapbuf;
		cells[J_META] = distbuf;
		cols_row(t, &tc, st->list_y + i, x,
			 (int)k == st->sel ? R_SELECT : R_NORMAL, cells);
	}
	if (j->next && (t->cur < j->ext[st->sel].pblk ||
			t->cur >= j->ext[st->sel].pblk + j->ext[st->sel].len))
		t->cur = j->ext[st->sel].pblk;
	row = y + h - mh - lh;
	mapw_fit(t, &m, w, mh);
	m.cursor = 1;
	mapw_draw(t, &m, row, x, mh, w);
	mapw_legend(t, y + h - lh, x, w, 1);
}

static int journal_key(struct tui *t, enum tui_action a, int ch)
{
	struct journal_state *st = state(t);
	int n = st->j.next;

	switch (a) {
	case ACT_UP:
		if (st->sel > 0)
			st->sel--;
		break;
	case ACT_DOWN:
		if (st->sel < n - 1)
			st->sel++;
		break;
	case ACT_PGUP:
		st->sel = st->sel > st->list_h ? st->sel - st->list_h : 0;
		break;
	case ACT_PGDN:
		st->sel = st->sel + st->list_h < n ? st->sel + st->list_h :
						  (n ? n - 1 : 0);
		break;
	case ACT_HOME:
		st->sel = 0;
		break;
	case ACT_END:
		st->sel = n ? n - 1 : 0;
		break;
	case ACT_ENTER:
		if (n)
			tui_jump(t, 1, st->j.ext[st->sel].pblk);
		break;
	case ACT_NONE:
		if (ch == KEY_MOUSE && t->mouse_y >= st->list_y &&
		    t->mouse_y < st->list_y + st->list_h &&
		    st->top + t->mouse_y - st->list_y < n)
			st->sel = st->top + t->mouse_y - st->list_y;
		break;
	default:
		return 0;
	}
	if (n)
		t->cur = st->j.ext[st->sel].pblk;
	return 1;
}

const struct tui_view view_journal = {
	.state_size = sizeof(struct journal_state),
	.name = "journal",
	.title = "Journal",
	.init = journal_init,
	.draw = journal_draw,
	.key = journal_key,
	.fini = journal_fini,
	.keys = journal_keys,
};
