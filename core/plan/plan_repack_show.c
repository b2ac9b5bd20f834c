/* plan_repack_show.c - the preview of a repack_flex plan (every move, the
 * blocks read and written, a before/after map of the island and the old
 * places) and of a plan moving only the resize inode's block. */
#include "plan_repack_int.h"

/* Map cell letter for blocks [a, a+len) with items at from (or to). */
static char cell(ext2_filsys fs, const void *arg, int after, blk64_t a,
		 blk64_t len)
{
	static const char let[] = "BITR";
	const struct plan_repack *r = arg;
	blk64_t loc;
	size_t i;
	int mine = 0;

	for (i = 0; i < r->nitems; i++) {
		loc = after ? r->items[i].to : r->items[i].from;
		if (repack_overlaps(loc, r->items[i].len, a, len))
			return let[r->items[i].what];
		mine |= repack_overlaps(r->items[i].from, r->items[i].len,
					a, len);
	}
	if (mine)	/* an old place, freed */
		return plan_used_in(fs, a, a + len - 1) > len / 2 ? '#' : '.';
	return plan_used_in(fs, a, a + len - 1) ? '#' : '.';
}

static void show_dind(struct session *s, const struct plan *p)
{
	const struct repack_item *it = p->repack->items;

	if (sink_is_json(s->out)) {
		json_str(s->out, "kind", p->kind);
		json_u64(s->out, "from", it->from);
		json_u64(s->out, "to", it->to);
		return;
	}
	out_printf(s->out, "Plan: move the resize inode's double-indirect "
		   "block %llu -> %llu (the reserved GDT blocks it lists stay "
		   "where they are)\n", (unsigned long long)it->from,
		   (unsigned long long)it->to);
}

void plan_repack_show(struct session *s, const struct plan *p)
{
	const struct plan_repack *r = p->repack;
	ext2_filsys fs = s->fs;
	blk64_t rd = 0, lo = r->island, hi = r->island + r->island_len, per;
	char before[PLAN_MAP_CELLS + 1], after[PLAN_MAP_CELLS + 1];
	unsigned cells;
	size_t i;

	if (!r->n) {
		show_dind(s, p);
		return;
	}

	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (it->from == it->to)
			continue;
		rd += it->len * (it->tmp ? 2 : 1);
		if (it->from < lo)
			lo = it->from;
		if (it->from + it->len > hi)
			hi = it->from + it->len;
		if (it->to + it->len > hi)
			hi = it->to + it->len;
	}
	cells = plan_map_cells(lo, hi, &per);
	plan_strip(fs, cell, r, 0, lo, per, cells, before);
	plan_strip(fs, cell, r, 1, lo, per, cells, after);
	if (sink_is_json(s->out)) {
		json_str(s->out, "kind", p->kind);
		json_u64(s->out, "flex_group", r->flex);
		json_u64(s->out, "groups_per_flex", 1U << r->log_flex);
		json_u64(s->out, "first_group", r->first);
		json_u64(s->out, "groups", r->n);
		json_u64(s->out, "island", r->island);
		json_u64(s->out, "island_len", r->island_len);
		json_u64(s->out, "blocks_read", rd);
		json_u64(s->out, "blocks_written", rd);
		json_arr_begin(s->out, "moves");
		for (i = 0; i < r->nitems; i++) {
			json_obj_begin(s->out, NULL);
			json_u64(s->out, "group", r->items[i].g);
			json_str(s->out, "what",
				 repack_what_name[r->items[i].what]);
			json_u64(s->out, "from", r->items[i].from);
			json_u64(s->out, "via", r->items[i].tmp);
			json_u64(s->out, "to", r->items[i].to);
			json_u64(s->out, "len", r->items[i].len);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
		plan_show_map(s, lo, hi, per, NULL, before, after);
		return;
	}
	out_printf(s->out, "Plan: repack_flex of flex group %lu (groups "
		   "%u-%u, %u groups per flex group", r->flex, r->first,
		   r->first + r->n - 1, 1U << r->log_flex);
	if (r->set_flex && !ext2fs_has_feature_flex_bg(s->fs->super))
		out_printf(s->out, "; flex_bg is off: chose %u, and sets "
			   "flex_bg and s_log_groups_per_flex=%d",
			   1U << r->log_flex, r->log_flex);
	else if (r->set_flex)
		out_printf(s->out, "; sets s_log_groups_per_flex=%d (it was "
			   "%u)", r->log_flex,
			   s->fs->super->s_log_groups_per_flex);
	out_printf(s->out, ")\n");
	out_printf(s->out, "  island: blocks %llu-%llu (%llu blocks): block "
		   "bitmaps, inode bitmaps, inode tables\n",
		   (unsigned long long)r->island,
		   (unsigned long long)(r->island + r->island_len - 1),
		   (unsigned long long)r->island_len);
	out_printf(s->out, "  blocks read: %llu, blocks written: %llu (plus "
		   "bitmaps, group descriptors and superblock)\n",
		   (unsigned long long)rd, (unsigned long long)rd);
	out_printf(s->out, "Moves:\n");
	for (i = 0; i < r->nitems; i++) {
		const struct repack_item *it = &r->items[i];

		if (it->what == RP_DIND) {	/* applied before the rest */
			out_printf(s->out, "  first: the resize inode's "
				   "double-indirect block %llu-%llu -> %llu "
				   "(the reserved GDT blocks stay)\n",
				   (unsigned long long)it->from,
				   (unsigned long long)it->from,
				   (unsigned long long)it->to);
			continue;
		}
		out_printf(s->out, "  %3zu. group %u %-12s %llu-%llu ", i + 1,
			   it->g, repack_what_name[it->what],
			   (unsigned long long)it->from,
			   (unsigned long long)(it->from + it->len - 1));
		if (it->from == it->to)
			out_printf(s->out, "stays\n");
		else if (it->tmp)
			out_printf(s->out, "-> %llu (meanwhile) -> %llu-%llu\n",
				   (unsigned long long)it->tmp,
				   (unsigned long long)it->to,
				   (unsigned long long)(it->to + it->len - 1));
		else
			out_printf(s->out, "-> %llu-%llu\n",
				   (unsigned long long)it->to,
				   (unsigned long long)(it->to + it->len - 1));
	}
	plan_show_map(s, lo, hi, per, "B/I/T block bitmaps, inode bitmaps, "
		      "inode tables; R the resize inode's block; # other "
		      "used; . free", before, after);
}

