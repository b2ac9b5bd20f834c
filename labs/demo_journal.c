/* demo_journal.c - the demo's journal, fragmented on purpose: small filler
 * runs leave holes in the middle of the filesystem, the jbd2 journal is
 * created into them (as the 2008 `mkfs -G 512` report saw it split), then
 * every other filler is freed and the rest are kept for one file. */
#include "demo_int.h"

#include <string.h>

#define DEMO_FILLERS	DEMO_MAX_RUNS

static errcode_t count_extents(ext2_filsys fs, ext2_ino_t ino, unsigned *n)
{
	ext2_extent_handle_t h;
	struct ext2fs_extent e;
	errcode_t err;
	int op = EXT2_EXTENT_ROOT;

	*n = 0;
	err = ext2fs_extent_open(fs, ino, &h);
	if (err)
		return err;
	while (!(err = ext2fs_extent_get(h, op, &e))) {
		op = EXT2_EXTENT_NEXT;
		if ((e.e_flags & EXT2_EXTENT_FLAGS_LEAF) &&
		    !(e.e_flags & EXT2_EXTENT_FLAGS_SECOND_VISIT))
			(*n)++;
	}
	ext2fs_extent_free(h);
	return err == EXT2_ET_EXTENT_NO_NEXT ? 0 : err;
}

errcode_t demo_journal(struct demo *d)
{
	ext2_filsys fs = d->fs;
	struct ext2fs_journal_params jp;
	struct demo_run fill[DEMO_FILLERS];
	blk64_t region, pos, end, covered = 0;
	const char *what;
	errcode_t err;
	int i, n = 0;

	what = "while sizing the journal";
	err = ext2fs_get_journal_params(&jp, fs);
	if (err)
		goto out;

	/* Group 4 of 8 (mid-disk, no superblock backup), as mke2fs aims. */
	region = ext2fs_group_first_block2(fs, fs->group_desc_count / 2);
	end = ext2fs_group_last_block2(fs, fs->group_desc_count - 1);
	pos = region;
	what = "while placing the journal's fillers";
	while (covered < jp.num_journal_blocks + 2048 && n < DEMO_FILLERS) {
		blk64_t hole = demo_rand_range(d, 560, 960);
		blk64_t len = demo_rand_range(d, 8, 48);

		if (pos + hole + len > end) {
			err = EXT2_ET_BLOCK_ALLOC_FAIL;
			goto out;
		}
		pos += hole;
		if (!ext2fs_test_block_bitmap_range2(fs->block_map, pos,
						     len)) {
			err = EXT2_ET_BLOCK_ALLOC_FAIL;
			goto out;
		}
		ext2fs_block_alloc_stats_range(fs, pos, len, +1);
		fill[n].start = pos;
		fill[n++].len = len;
		pos += len;
		covered += hole;
	}

	what = "while creating the journal";
	err = ext2fs_add_journal_inode3(fs, &jp, region,
					EXT2_MKJOURNAL_LAZYINIT |
					EXT2_MKJOURNAL_NO_MNT_CHECK);
	if (err)
		goto out;
	what = "while reading the journal's extents";
	err = count_extents(fs, EXT2_JOURNAL_INO, &d->journal_extents);
	if (err)
		goto out;

	/* Free every other filler; the others become /var/cache/wedged.bin. */
	for (i = 0; i < n; i++) {
		if (i % 2 == 0)
			ext2fs_block_alloc_stats_range(fs, fill[i].start,
						       fill[i].len, -1);
		else
			d->kept[d->nkept++] = fill[i];
	}
out:
	if (err)
		out_error(d->log, "mkdemo", err, "%s", what);
	return err;
}
