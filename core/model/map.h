/* map.h - the layout map: the device cut into cells of equal block ranges,
 * each with its mix of owner classes, for the `map` command and the TUI. */
#ifndef E2L_MAP_H
#define E2L_MAP_H

#include "owner.h"

struct map_cell {
	blk64_t first, count;		/* the blocks the cell covers */
	enum owner_class dominant;	/* most blocks, ties to metadata;
					   free (or uninit) whenever free
					   blocks are at least as many as
					   any used class's: free space is
					   never hidden */
	blk64_t counts[OWN_CLASS_MAX];
	double free_frac;		/* free+uninit share, 0..1 */
};

/* Cuts [first, first+count) into ncells cells (the last may be shorter). */
errcode_t map_cells(struct session *s, blk64_t first, blk64_t count,
		    unsigned ncells, struct map_cell *cells);

#endif
