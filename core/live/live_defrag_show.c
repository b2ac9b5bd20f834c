/* live_defrag_show.c - previews a live defrag plan as offline plans are
 * previewed: extent counts before and after and a before/after map strip,
 * the "after" being the donor's real blocks and the map's other users the
 * kernel's own (GETFSMAP over the strip's range). */
#include "live_defrag.h"
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fsmap.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAP_CELLS 64

/* Free runs in [lo, hi) as the kernel knows them (blocks). */
struct free_runs {
	blk64_t *start, *len;
	size_t n, cap;
};

static errcode_t free_runs_get(const struct live_info *l, unsigned bs,
			       blk64_t lo, blk64_t hi, struct free_runs *fr)
{
	enum { BATCH = 256 };
	struct fsmap_head *h;
	errcode_t err = 0;
	unsigned i;
	int fd, done = 0;

	memset(fr, 0, sizeof(*fr));
	fd = open(l->mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	h = calloc(1, fsmap_sizeof(BATCH));
	if (!h) {
		close(fd);
		return ENOMEM;
	}
	h->fmh_count = BATCH;
	h->fmh_keys[0].fmr_device = (__u32)l->dev;
	h->fmh_keys[0].fmr_physical = (__u64)lo * bs;
	h->fmh_keys[1].fmr_device = (__u32)l->dev;
	h->fmh_keys[1].fmr_physical = (__u64)hi * bs - 1;
	h->fmh_keys[1].fmr_owner = ~0ULL;
	h->fmh_keys[1].fmr_offset = ~0ULL;
	h->fmh_keys[1].fmr_flags = ~0U;
	while (!done) {
		if (ioctl(fd, FS_IOC_GETFSMAP, h) < 0) {
			err = errno;
			break;
		}
		if (!h->fmh_entries)
			break;
		for (i = 0; i < h->fmh_entries; i++) {
			struct fsmap *r = &h->fmh_recs[i];

			if (r->fmr_flags & FMR_OF_LAST)
				done = 1;
			if (!(r->fmr_flags & FMR_OF_SPECIAL_OWNER) ||
			    r->fmr_owner != FMR_OWN_FREE)
				continue;
			if (fr->n == fr->cap) {
				size_t c = fr->cap ? fr->cap * 2 : 64;
				blk64_t *a = realloc(fr->start, c * sizeof(*a));
				blk64_t *b;

				if (!a) {
					err = ENOMEM;
					goto out;
				}
				fr->start = a;
				b = realloc(fr->len, c * sizeof(*b));
				if (!b) {
					err = ENOMEM;
					goto out;
				}
				fr->len = b;
				fr->cap = c;
			}
			fr->start[fr->n] = r->fmr_physical / bs;
			fr->len[fr->n++] = r->fmr_length / bs;
		}
		fsmap_advance(h);
	}
out:
	free(h);
	close(fd);
	return err;
}

static blk64_t overlap(blk64_t a, blk64_t alen, blk64_t b, blk64_t blen)
{
	blk64_t lo = a > b ? a : b;
	blk64_t hi = a + alen < b + blen ? a + alen : b + blen;

	return hi > lo ? hi - lo : 0;
}

static blk64_t ext_in(const struct live_extent *e, size_t n, unsigned bs,
		      blk64_t first, blk64_t len)
{
	blk64_t sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum += overlap(e[i].physical / bs,
			       (e[i].length + bs - 1) / bs, first, len);
	return sum;
}

/* One strip: X the file (before: now; after: its donor's blocks), # used
 * by others, . free, ' ' past the end. */
static void strip(ext2_filsys fs, const struct ldf_file *f, unsigned bs,
		  const struct free_runs *fr, int after, blk64_t lo,
		  blk64_t per, unsigned cells, char *line)
{
	blk64_t end = ext2fs_blocks_count(fs->super);
	unsigned c;
	size_t i;

	for (c = 0; c < cells; c++) {
		blk64_t first = lo + c * per, len, used, old, donor, mine;
		long long others;

		if (first >= end) {
			line[c] = ' ';
			continue;
		}
		len = first + per > end ? end - first : per;
		used = len;
		for (i = 0; i < fr->n; i++)
			used -= overlap(fr->start[i], fr->len[i], first, len);
		old = ext_in(f->before, f->nbefore, bs, first, len);
		donor = ext_in(f->after, f->nafter, bs, first, len);
		others = (long long)used - (long long)old - (long long)donor;
		mine = after ? donor : old;
		line[c] = mine ? 'X' : others > 0 ? '#' : '.';
	}
	line[cells] = 0;
}

static void range_of(const struct live_extent *e, size_t n, unsigned bs,
		     blk64_t *lo, blk64_t *hi)
{
	size_t i;

	for (i = 0; i < n; i++) {
		blk64_t a = e[i].physical / bs;
		blk64_t b = a + (e[i].length + bs - 1) / bs;

		if (a < *lo)
			*lo = a;
		if (b > *hi)
			*hi = b;
	}
}

static void show_map(struct session *s, const struct ldf_file *f,
		     unsigned bs)
{
	char before[MAP_CELLS + 1], after[MAP_CELLS + 1];
	blk64_t lo = ~0ULL, hi = 0, per;
	struct free_runs fr;
	unsigned cells;

	range_of(f->before, f->nbefore, bs, &lo, &hi);
	range_of(f->after, f->nafter, bs, &lo, &hi);
	if (hi <= lo)
		return;
	per = (hi - lo + MAP_CELLS - 1) / MAP_CELLS;
	if (!per)
		per = 1;
	cells = (unsigned)((hi - lo + per - 1) / per);
	if (free_runs_get(s->live, bs, lo, hi, &fr)) {
		free(fr.start);
		free(fr.len);
		memset(&fr, 0, sizeof(fr));	/* all shown as used */
	}
	strip(s->fs, f, bs, &fr, 0, lo, per, cells, before);
	strip(s->fs, f, bs, &fr, 1, lo, per, cells, after);
	free(fr.start);
	free(fr.len);
	plan_show_map(s, lo, hi, per, "X this file, # other used, . free; "
		      "the kernel's map", before, after);
}

static void show_file(struct session *s, const struct ldf_plan *p,
		      const struct ldf_file *f)
{
	unsigned bs = p->blocksize;
	int goal = p->goal.kind != LDF_GOAL_NONE;

	if (sink_is_json(s->out)) {
		json_obj_begin(s->out, NULL);
		json_str(s->out, "path", f->path);
		json_u64(s->out, "inode", f->ino);
		json_u64(s->out, "size", (__u64)f->size);
		json_u64(s->out, "blocks", f->data_blocks);
		json_u64(s->out, "extents_before", f->nbefore);
		json_u64(s->out, "runs_before", f->runs_before);
		if (f->nafter) {
			json_u64(s->out, "extents_after", f->nafter);
			json_u64(s->out, "runs_after", f->runs_after);
			json_u64(s->out, "donor_group", f->after_group);
			json_str(s->out, "donor_dir", f->donor_dir);
			json_u64(s->out, "donor_dir_group",
				 f->donor_dir_group);
		}
		json_bool(s->out, "move", !f->dropped);
		if (f->dropped)
			json_str(s->out, "why", f->why);
		if (f->result[0])
			json_str(s->out, "result", f->result);
		if (f->nbefore && f->nafter)
			show_map(s, f, bs);
		json_obj_end(s->out);
		return;
	}
	out_printf(s->out, "Live plan: defrag %s", f->path);
	if (f->data_blocks)
		out_printf(s->out, " (inode %llu, %llu blocks)",
			   (unsigned long long)f->ino,
			   (unsigned long long)f->data_blocks);
	out_printf(s->out, "\n");
	if (f->nbefore)
		out_printf(s->out, "  extents: %zu before, ", f->nbefore);
	if (f->nbefore && f->nafter)
		out_printf(s->out, "%zu after; physical runs: %zu before, %zu "
			   "after\n", f->nafter, f->runs_before,
			   f->runs_after);
	else if (f->nbefore)
		out_printf(s->out, "no donor; physical runs: %zu\n",
			   f->runs_before);
	if (f->nafter) {
		out_printf(s->out, "  donor: an unlinked file in %s (its inode "
			   "in group %u), fallocated by the kernel: mostly in "
			   "group %u\n", f->donor_dir, f->donor_dir_group,
			   f->after_group);
		if (goal && f->after_group != p->goal.group)
			out_printf(s->out, "  the kernel placed it in group %u, "
				   "not in goal group %u (userspace can only "
				   "ask through the directory)\n",
				   f->after_group, p->goal.group);
	}
	if (f->dropped)
		out_printf(s->out, "  left alone: %s\n", f->why);
	if (f->nbefore && f->nafter)
		show_map(s, f, bs);
}

void ldf_show(struct session *s, const struct ldf_plan *p)
{
	__u64 blocks = 0;
	size_t i, moving = ldf_movable(p);

	for (i = 0; i < p->n; i++)
		if (!p->f[i].dropped)
			blocks += p->f[i].data_blocks;
	if (sink_is_json(s->out)) {
		json_str(s->out, "kind", "live_defrag");
		json_str(s->out, "mount_point", s->live->mnt);
		if (p->goal.kind != LDF_GOAL_NONE)
			json_u64(s->out, "goal_group", p->goal.group);
		json_u64(s->out, "files", p->n);
		json_u64(s->out, "files_to_move", moving);
		json_u64(s->out, "blocks_to_move", blocks);
		json_arr_begin(s->out, "plan");
		for (i = 0; i < p->n; i++)
			show_file(s, p, &p->f[i]);
		json_arr_end(s->out);
		return;
	}
	for (i = 0; i < p->n; i++)
		show_file(s, p, &p->f[i]);
	out_printf(s->out, "Live defrag of %s: %zu file%s, %zu to move "
		   "(%llu blocks), %zu left alone\n", s->live->mnt, p->n,
		   p->n == 1 ? "" : "s", moving, (unsigned long long)blocks,
		   p->n - moving);
}
