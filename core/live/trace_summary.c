/* trace_summary.c - what a recording of the allocator says about placement:
 * distances from the goals, the groups and flex groups touched. */
#include "trace.h"

#include <stdlib.h>
#include <string.h>

dgrp_t trace_group(ext2_filsys fs, blk64_t blk)
{
	blk64_t first = fs->super->s_first_data_block;

	if (blk < first)
		return 0;
	return (dgrp_t)((blk - first) / EXT2_BLOCKS_PER_GROUP(fs->super));
}

dgrp_t trace_flex(ext2_filsys fs, dgrp_t group)
{
	if (!ext2fs_has_feature_flex_bg(fs->super))
		return group;
	return group >> fs->super->s_log_groups_per_flex;
}

void trace_summarize(ext2_filsys fs, const struct trace_rec *rec,
		     struct trace_summary *sum)
{
	dgrp_t ng = fs->group_desc_count, lastflex = (dgrp_t)~0U;
	double total = 0;
	size_t i;
	unsigned char *g = calloc(ng ? ng : 1, 1);

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < rec->nallocs; i++) {
		const struct trace_alloc *a = &rec->allocs[i];
		blk64_t d = a->block > a->goal ? a->block - a->goal
					       : a->goal - a->block;
		dgrp_t grp = trace_group(fs, a->block);

		sum->allocs++;
		sum->blocks += a->len;
		if (!d)
			sum->at_goal++;
		total += (double)d;
		if (d > sum->max_distance)
			sum->max_distance = d;
		if (g && grp < ng && !g[grp]) {
			g[grp] = 1;
			sum->groups++;
		}
	}
	if (sum->allocs)
		sum->mean_distance = total / (double)sum->allocs;
	for (i = 0; g && i < ng; i++) {
		dgrp_t fl = trace_flex(fs, (dgrp_t)i);

		if (g[i] && fl != lastflex) {
			sum->flexes++;
			lastflex = fl;
		}
	}
	free(g);
}
