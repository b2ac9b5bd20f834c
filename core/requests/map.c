/* map.c - `map [--width N] [--rows N] [RANGE]`: a text picture of the
 * layout, one letter per cell for the class that dominates it. */
#include "cmd.h"
#include "fs_probe.h"
#include "map.h"
#include "owner.h"
#include "dfs_util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int parse_num(const char *str, unsigned long long *v)
{
	char *end;

	if (!*str || *str == '-' || *str == '+')
		return 1;
	errno = 0;
	*v = strtoull(str, &end, 0);
	return errno || *end;
}

/* "A-B", "A" or "gN"; fills [*first, *first + *count). */
static int parse_range(struct session *s, const char *arg, blk64_t *first,
		       blk64_t *count)
{
	blk64_t total = ext2fs_blocks_count(s->fs->super);
	unsigned long long a, b;
	char buf[64], *dash;

	if (arg[0] == 'g') {
		if (parse_num(arg + 1, &a) || a >= s->fs->group_desc_count)
			return 1;
		*first = ext2fs_group_first_block2(s->fs, a);
		*count = ext2fs_group_last_block2(s->fs, a) - *first + 1;
		if (a == 0 && *first)	/* the boot block of 1k filesystems */
			*first = 0, *count += 1;
		return 0;
	}
	if (strlen(arg) >= sizeof(buf))
		return 1;
	strcpy(buf, arg);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = 0;
	if (parse_num(buf, &a))
		return 1;
	b = a;
	if (dash && parse_num(dash, &b))
		return 1;
	if (b < a || a >= total)
		return 1;
	if (b >= total)
		b = total - 1;
	*first = a;
	*count = b - a + 1;
	return 0;
}

static void print_legend(struct session *s, const blk64_t *totals)
{
	int i;

	out_printf(s->out, "Legend (blocks in range):\n");
	for (i = 0; i < OWN_CLASS_MAX; i++)
		if (totals[i])
			out_printf(s->out, "  %c  %-22s %llu\n",
				   owner_class_letter(i), owner_class_name(i),
				   (unsigned long long)totals[i]);
}

static void print_json(struct session *s, const struct map_cell *cells,
		       unsigned n, const blk64_t *totals)
{
	unsigned i;
	int k;

	json_arr_begin(s->out, "cells");
	for (i = 0; i < n; i++) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "first", cells[i].first);
		json_u64(s->out, "count", cells[i].count);
		json_str(s->out, "dominant", owner_class_key(cells[i].dominant));
		json_double(s->out, "free_frac", cells[i].free_frac);
		json_obj_begin(s->out, "counts");
		for (k = 0; k < OWN_CLASS_MAX; k++)
			if (cells[i].counts[k])
				json_u64(s->out, owner_class_key(k),
					 cells[i].counts[k]);
		json_obj_end(s->out);
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
	json_obj_begin(s->out, "totals");
	for (k = 0; k < OWN_CLASS_MAX; k++)
		json_u64(s->out, owner_class_key(k), totals[k]);
	json_obj_end(s->out);
}

static int do_map(struct session *s, int argc, char **argv)
{
	unsigned long long width = 64, rows = 32, v;
	blk64_t first = 0, count = ext2fs_blocks_count(s->fs->super), size;
	blk64_t totals[OWN_CLASS_MAX] = {0};
	struct map_cell *cells = NULL;
	const char *range = NULL;
	unsigned n, i;
	errcode_t err;
	char *line;
	int a, k;

	/* the dispatcher's bitmap check, unless the index reads the bitmap
	 * from the disk a group at a time */
	if (!owner_bitmap_from_disk(s) &&
	    dfs_check_loaded(s, argv[0], NEED_BLOCK_BITMAP))
		return CMD_FAIL;
	for (a = 1; a < argc; a++) {
		if ((!strcmp(argv[a], "--width") || !strcmp(argv[a], "-w") ||
		     !strcmp(argv[a], "--rows")) && a + 1 < argc) {
			if (parse_num(argv[a + 1], &v) || !v || v > 4096) {
				out_error(s->out, argv[0], 0,
					  "bad number for %s: %s", argv[a],
					  argv[a + 1]);
				return CMD_FAIL;
			}
			if (!strcmp(argv[a], "--rows"))
				rows = v;
			else
				width = v;
			a++;
		} else if (argv[a][0] != '-' && !range) {
			range = argv[a];
		} else {
			out_error(s->out, argv[0], 0, "Usage: map [--width N] "
				  "[--rows N] [FIRST-LAST|FIRST|gGROUP]");
			return CMD_FAIL;
		}
	}
	if (range && parse_range(s, range, &first, &count)) {
		out_error(s->out, argv[0], 0, "bad range %s (use FIRST-LAST, "
			  "a block, or gN for group N)", range);
		return CMD_FAIL;
	}
	err = owner_index_build(s);
	if (err) {
		out_error(s->out, argv[0], err, "while scanning inodes");
		return CMD_FAIL;
	}
	size = (count + width * rows - 1) / (width * rows);
	n = (count + size - 1) / size;
	cells = calloc(n, sizeof(*cells));
	line = malloc(width + 1);
	if (!cells || !line) {
		out_error(s->out, argv[0], ENOMEM, NULL);
		free(cells);
		free(line);
		return CMD_FAIL;
	}
	err = map_cells(s, first, count, n, cells);
	if (err) {
		out_error(s->out, argv[0], err, "while mapping blocks");
		goto out;
	}
	for (i = 0; i < n; i++)
		for (k = 0; k < OWN_CLASS_MAX; k++)
			totals[k] += cells[i].counts[k];
	if (sink_is_json(s->out)) {
		json_u64(s->out, "first", first);
		json_u64(s->out, "count", count);
		json_u64(s->out, "blocks_per_cell", size);
		json_u64(s->out, "width", width);
		print_json(s, cells, n, totals);
	}
	out_printf(s->out, "Blocks %llu-%llu, %llu block%s per cell\n",
		   (unsigned long long)first,
		   (unsigned long long)(first + count - 1),
		   (unsigned long long)size, size == 1 ? "" : "s");
	for (i = 0; i < n; i += width) {
		for (k = 0; k < (int)width && i + k < n; k++)
			line[k] = owner_class_letter(cells[i + k].dominant);
		line[k] = 0;
		out_printf(s->out, "%12llu %s\n",
			   (unsigned long long)cells[i].first, line);
	}
	print_legend(s, totals);
	if (fs_probe_metadata_only(s->fs)) {
		out_printf(s->out, "This is an e2image file: it holds the "
			   "superblock, descriptors, bitmaps and inode tables "
			   "only.\nThe other classes are placed from the "
			   "inodes; their blocks' content is not in it.\n");
		if (owner_absent_inodes(s))
			out_printf(s->out, "%lu inode(s) keep their block map "
				   "in blocks it does not hold: their blocks "
				   "are \"used, owner unknown\".\n",
				   owner_absent_inodes(s));
	}
out:
	free(cells);
	free(line);
	return err ? CMD_FAIL : CMD_OK;
}

const struct cmd_entry cmd_map = {
	.name = "map",
	.synopsis = "map [--width N] [--rows N] [FIRST-LAST|BLOCK|gGROUP]",
	.summary = "Draw the layout: one letter per cell for its main owner",
	.options = "--width --rows",
	.flags = CMD_NEEDS_FS | CMD_JSON,
	.run = do_map,
};
