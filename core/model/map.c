/* map.c - the layout map (see map.h): one pass over the ownership runs of a
 * range, spread over cells of equal block ranges. */
#include "map.h"

#include <string.h>

struct fill {
	struct map_cell *cells;
	unsigned ncells;
	blk64_t first, size;
};

static int fill_fn(const struct owner_run *r, void *arg)
{
	struct fill *f = arg;
	blk64_t b = r->start, end = r->start + r->len, c, cend;

	while (b < end) {
		c = (b - f->first) / f->size;
		if (c >= f->ncells)
			break;
		cend = f->first + (c + 1) * f->size;
		if (cend > end)
			cend = end;
		f->cells[c].counts[r->cls] += cend - b;
		b = cend;
	}
	return 0;
}

/*
 * The class most blocks of the cell belong to.  Free space is never hidden:
 * when free and uninit blocks together are at least as many as those of
 * any single used class, the cell is free (or uninit, if those are most).
 * Ties between used classes go to the lower class (metadata first).
 */
static enum owner_class dominant(const struct map_cell *c)
{
	blk64_t freeb = c->counts[OWN_FREE] + c->counts[OWN_UNINIT], best = 0;
	enum owner_class cls = OWN_FREE;
	int i;

	for (i = OWN_SUPER; i < OWN_CLASS_MAX; i++)
		if (c->counts[i] > best) {
			best = c->counts[i];
			cls = i;
		}
	if (freeb && freeb >= best)
		return c->counts[OWN_UNINIT] > c->counts[OWN_FREE] ?
		       OWN_UNINIT : OWN_FREE;
	return cls;
}

errcode_t map_cells(struct session *s, blk64_t first, blk64_t count,
		    unsigned ncells, struct map_cell *cells)
{
	struct fill f;
	blk64_t total;
	errcode_t err;
	unsigned i;

	if (!s->fs)
		return EXT2_ET_MAGIC_EXT2FS_FILSYS;
	if (!ncells)
		return EXT2_ET_INVALID_ARGUMENT;
	total = ext2fs_blocks_count(s->fs->super);
	if (first >= total)
		return EXT2_ET_BAD_BLOCK_NUM;
	if (count > total - first)
		count = total - first;
	memset(cells, 0, ncells * sizeof(*cells));
	f.cells = cells;
	f.ncells = ncells;
	f.first = first;
	f.size = (count + ncells - 1) / ncells;
	if (!f.size)
		f.size = 1;
	for (i = 0; i < ncells; i++) {
		blk64_t off = (blk64_t)i * f.size;

		cells[i].first = first + (off < count ? off : count);
		cells[i].count = off < count ? (count - off < f.size ?
						count - off : f.size) : 0;
	}
	err = owner_for_range(s, first, count, fill_fn, &f);
	if (err)
		return err;
	for (i = 0; i < ncells; i++) {
		cells[i].dominant = dominant(&cells[i]);
		cells[i].free_frac = cells[i].count ?
			(double)(cells[i].counts[OWN_FREE] +
				 cells[i].counts[OWN_UNINIT]) / cells[i].count :
			0;
	}
	return 0;
}
