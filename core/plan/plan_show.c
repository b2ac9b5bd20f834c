/* plan_show.c - previews a plan: every step, blocks read and written, free
 * space needed, extent counts before and after, and a before/after text map
 * of the affected block range.  Text or JSON. */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

static blk64_t overlap(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen)
{
	blk64_t lo = a > b ? a : b;
	blk64_t hi = a + alen < b + blen ? a + alen : b + blen;

	return hi > lo ? hi - lo : 0;
}

static blk64_t old_in(const struct plan *p, blk64_t first, blk64_t len)
{
	blk64_t n = 0;
	size_t i;

	for (i = 0; i < p->nold; i++)
		n += overlap(p->old[i].pblk, p->old[i].len, first, len);
	for (i = 0; i < p->nold_meta; i++)
		n += overlap(p->old_meta[i], 1, first, len);
	return n;
}

/* Blocks of [first, first + len) the plan's steps free. */
static blk64_t freed_in(const struct plan *p, blk64_t first, blk64_t len)
{
	blk64_t n = 0;
	size_t i;

	for (i = 0; i < p->nsteps; i++)
		if (p->steps[i].kind == STEP_FREE)
			n += overlap(p->steps[i].src, p->steps[i].len, first,
				     len);
	return n;
}

unsigned plan_map_cells(blk64_t lo, blk64_t hi, blk64_t *per)
{
	*per = (hi - lo + PLAN_MAP_CELLS - 1) / PLAN_MAP_CELLS;
	if (!*per)
		*per = 1;
	return (hi - lo + *per - 1) / *per;
}

void plan_strip(ext2_filsys fs, plan_cell_fn *cell, const void *arg,
		int after, blk64_t lo, blk64_t per, unsigned cells, char *line)
{
	blk64_t first, end = ext2fs_blocks_count(fs->super);
	unsigned c;

	for (c = 0; c < cells; c++) {
		first = lo + c * per;
		line[c] = first >= end ? ' ' : cell(fs, arg, after, first,
				first + per > end ? end - first : per);
	}
	line[cells] = 0;
}

/* A move's cell: X the inode (its old blocks before; after, the new run
 * and what the plan keeps of the old: prealloc keeps every extent). */
static char move_cell(ext2_filsys fs, const void *arg, int after,
		      blk64_t first, blk64_t len)
{
	const struct plan *p = arg;
	blk64_t mine, used, freed;

	used = plan_used_in(fs, first, first + len - 1);
	mine = old_in(p, first, len);
	used -= mine;	/* others' blocks */
	if (after) {
		freed = freed_in(p, first, len);
		mine = overlap(p->target, p->target_len, first, len) +
		       (mine > freed ? mine - freed : 0);
	}
	return mine ? 'X' : used ? '#' : '.';
}

void plan_map_strip(ext2_filsys fs, const struct plan *p, int after,
		    blk64_t lo, blk64_t per, unsigned cells, char *line)
{
	plan_strip(fs, move_cell, p, after, lo, per, cells, line);
}

void plan_get_stats(const struct plan *p, struct plan_stats *st)
{
	blk64_t rd = 0, wr = 0, lo = p->target, hi = p->target + p->target_len;
	size_t i;

	for (i = 0; i < p->nsteps; i++) {
		if (p->steps[i].kind == STEP_COPY) {
			rd += p->steps[i].len;
			wr += p->steps[i].len;
		} else if (p->steps[i].kind == STEP_WRITE_MAP ||
			   p->steps[i].kind == STEP_ZERO) {
			wr += p->steps[i].len;
		}
	}
	for (i = 0; i < p->nold; i++) {
		if (p->old[i].pblk < lo)
			lo = p->old[i].pblk;
		if (p->old[i].pblk + p->old[i].len > hi)
			hi = p->old[i].pblk + p->old[i].len;
	}
	for (i = 0; i < p->nold_meta; i++) {
		if (p->old_meta[i] < lo)
			lo = p->old_meta[i];
		if (p->old_meta[i] + 1 > hi)
			hi = p->old_meta[i] + 1;
	}
	st->read = rd;
	st->written = wr;
	st->lo = lo;
	st->hi = hi;
}


/* The inode a plan that creates its file (prealloc of a new name) will
 * give it: apply allocates with ext2fs_new_inode from the same bitmap (the
 * session's, with its unwritten changes), in the same directory (p->ino),
 * so the preview can name it; 0 when the plan's file exists or the bitmap
 * cannot be read. */
static ext2_ino_t plan_new_file_ino(struct session *s, const struct plan *p)
{
	ext2_ino_t ino;

	if (!p->create_name[0] || session_need(s, NEED_INODE_BITMAP) ||
	    ext2fs_new_inode(s->fs, p->ino, LINUX_S_IFREG | 0644, 0, &ino))
		return 0;
	return ino;
}

void plan_show(struct session *s, const struct plan *p)
{
	ext2_filsys fs = s->fs;
	ext2_ino_t newino;
	struct plan_stats ps;
	blk64_t rd, wr, lo, hi, per;
	char before[PLAN_MAP_CELLS + 1], after[PLAN_MAP_CELLS + 1];
	unsigned cells;
	size_t i;

	if (p->repack) {
		plan_repack_show(s, p);
		return;
	}
	plan_get_stats(p, &ps);
	rd = ps.read;
	wr = ps.written;
	lo = ps.lo;
	hi = ps.hi;
	cells = plan_map_cells(lo, hi, &per);
	plan_map_strip(fs, p, 0, lo, per, cells, before);
	plan_map_strip(fs, p, 1, lo, per, cells, after);

	newino = plan_new_file_ino(s, p);
	if (sink_is_json(s->out)) {
		json_str(s->out, "kind", p->kind);
		json_u64(s->out, "inode", newino ? newino : p->ino);
		if (p->create_name[0])
			json_u64(s->out, "directory", p->ino);
		json_str(s->out, "mapping", p->extents ? "extents" : "blocks");
		json_u64(s->out, "extents_before", p->nold);
		json_u64(s->out, "extents_after", p->nnew);
		json_u64(s->out, "mapping_blocks_before", p->nold_meta);
		json_u64(s->out, "mapping_blocks_after", p->new_meta);
		json_u64(s->out, "target", p->target);
		json_u64(s->out, "target_len", p->target_len);
		json_u64(s->out, "free_needed", p->target_len);
		json_u64(s->out, "blocks_read", rd);
		json_u64(s->out, "blocks_written", wr);
		json_arr_begin(s->out, "steps");
		for (i = 0; i < p->nsteps; i++) {
			json_obj_begin(s->out, NULL);
			json_str(s->out, "op", plan_step_name(p->steps[i].kind));
			json_u64(s->out, "src", p->steps[i].src);
			json_u64(s->out, "dst", p->steps[i].dst);
			json_u64(s->out, "len", p->steps[i].len);
			json_obj_end(s->out);
		}
		json_arr_end(s->out);
		plan_show_map(s, lo, hi, per, NULL, before, after);
		return;
	}
	if (p->create_name[0])
		out_printf(s->out, "Plan: %s of a new file, inode %u, in "
			   "directory inode %u (%s-mapped)\n", p->kind, newino,
			   p->ino, p->extents ? "extent" : "block");
	else
		out_printf(s->out, "Plan: %s of inode %u (%s-mapped)\n",
			   p->kind, p->ino, p->extents ? "extent" : "block");
	out_printf(s->out, "  %s: %zu before, %zu after; mapping blocks: "
		   "%zu before, %llu after\n", p->extents ? "extents" :
		   "data runs (split by indirect blocks)", p->nold, p->nnew,
		   p->nold_meta,
		   (unsigned long long)p->new_meta);
	out_printf(s->out, "  new run: blocks %llu-%llu (%llu blocks); free "
		   "space needed: %llu blocks\n", (unsigned long long)p->target,
		   (unsigned long long)(p->target + p->target_len - 1),
		   (unsigned long long)p->target_len,
		   (unsigned long long)p->target_len);
	out_printf(s->out, "  blocks read: %llu, blocks written: %llu (plus "
		   "the inode, bitmaps, group descriptors and superblock)\n",
		   (unsigned long long)rd, (unsigned long long)wr);
	out_printf(s->out, "Steps:\n");
	for (i = 0; i < p->nsteps; i++) {
		const struct plan_step *st = &p->steps[i];
		unsigned long long a = st->src, b = st->dst, l = st->len;

		out_printf(s->out, "  %3zu. %-9s ", i + 1,
			   plan_step_name(st->kind));
		switch (st->kind) {
		case STEP_COPY:
			out_printf(s->out, "%llu-%llu -> %llu-%llu (%llu "
				   "blocks)\n", a, a + l - 1, b, b + l - 1, l);
			break;
		case STEP_WRITE_MAP:
		case STEP_ALLOC:
		case STEP_ZERO:
			out_printf(s->out, "%llu-%llu (%llu blocks)\n", b,
				   b + l - 1, l);
			break;
		case STEP_SWITCH:
			out_printf(s->out, "inode %u to the new mapping\n",
				   newino ? newino : p->ino);
			break;
		default:
			out_printf(s->out, "%llu-%llu (%llu blocks)\n", a,
				   a + l - 1, l);
		}
	}
	plan_show_map(s, lo, hi, per, "X this inode, # other used, . free",
		      before, after);
}

void plan_show_chain(struct session *s, const struct plan *p)
{
	if (!p->next) {
		plan_show(s, p);
		return;
	}
	json_arr_begin(s->out, "plans");
	for (; p; p = p->next) {
		json_obj_begin(s->out, NULL);
		plan_show(s, p);
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
}

void plan_show_map(struct session *s, blk64_t lo, blk64_t hi, blk64_t per,
		   const char *legend, const char *before, const char *after)
{
	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, "map");
		json_u64(s->out, "first", lo);
		json_u64(s->out, "blocks_per_cell", per);
		json_str(s->out, "before", before);
		json_str(s->out, "after", after);
		json_obj_end(s->out);
		return;
	}
	out_printf(s->out, "Map of blocks %llu-%llu, %llu block%s per cell "
		   "(%s):\n", (unsigned long long)lo,
		   (unsigned long long)(hi - 1), (unsigned long long)per,
		   per == 1 ? "" : "s", legend);
	out_printf(s->out, "  before: %s\n  after:  %s\n", before, after);
}
