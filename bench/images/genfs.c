/* genfs.c - fills a freshly made ext4 image with NFILES files straight
 * through libext2fs (no mount, no host tree): directories of PER_DIR files
 * (default 1000) of 1 to 8 blocks each, every seventh file in 2 to 4
 * extents with gaps (free space and files both fragmented), extent trees
 * written in i_block.
 * spread=1 puts each directory (and its files and blocks) in its own
 * group, so that the files cover all the groups of a large filesystem.
 * Data blocks are allocated, never written (the image stays sparse).
 * Usage: genfs IMAGE NFILES SPREAD [PER_DIR] */
#include <ext2fs/ext2fs.h>
#include <ext2fs/ext3_extents.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void die(const char *what, errcode_t err)
{
	fprintf(stderr, "genfs: %s: %s\n", what, error_message(err));
	exit(1);
}

/* The first free block at or after *cur, len long; *cur moves past it. */
static blk64_t take(ext2_filsys fs, blk64_t *cur, unsigned len)
{
	blk64_t end = ext2fs_blocks_count(fs->super) - 1, b, e;

	for (;;) {
		if (*cur + len > end)
			*cur = fs->super->s_first_data_block;
		if (ext2fs_find_first_zero_block_bitmap2(fs->block_map, *cur,
							 end, &b))
			die("no free blocks", EXT2_ET_BLOCK_ALLOC_FAIL);
		if (b + len > end) {
			*cur = b + len;
			continue;
		}
		if (ext2fs_find_first_set_block_bitmap2(fs->block_map, b,
							b + len - 1, &e)) {
			ext2fs_block_alloc_stats_range(fs, b, len, +1);
			*cur = b + len;
			return b;
		}
		*cur = e + 1;
	}
}

static void add_file(ext2_filsys fs, ext2_ino_t dir, ext2_ino_t ino,
		     const char *name, blk64_t *cur, int frag)
{
	struct ext2_inode_large in;
	struct ext3_extent_header *eh;
	struct ext3_extent *ex;
	unsigned nblk = 1 + rnd(8), next = frag ? 2 + rnd(3) : 1, i, lb = 0;
	errcode_t err;

	if (next > nblk)
		nblk = next;
	memset(&in, 0, sizeof(in));
	in.i_mode = LINUX_S_IFREG | 0644;
	in.i_links_count = 1;
	in.i_atime = in.i_ctime = in.i_mtime = fs->now ? fs->now : 1700000000;
	in.i_flags = EXT4_EXTENTS_FL;
	eh = (struct ext3_extent_header *)in.i_block;
	eh->eh_magic = ext2fs_cpu_to_le16(EXT3_EXT_MAGIC);
	eh->eh_max = ext2fs_cpu_to_le16(4);
	eh->eh_entries = ext2fs_cpu_to_le16(next);
	ex = (struct ext3_extent *)(eh + 1);
	for (i = 0; i < next; i++) {
		unsigned len = i + 1 < next ? nblk / next : nblk - lb;
		blk64_t b = take(fs, cur, len);

		ex[i].ee_block = ext2fs_cpu_to_le32(lb);
		ex[i].ee_len = ext2fs_cpu_to_le16(len);
		ex[i].ee_start = ext2fs_cpu_to_le32((__u32)b);
		ex[i].ee_start_hi = ext2fs_cpu_to_le16((__u16)(b >> 32));
		lb += len;
		if (frag)
			*cur += 1 + rnd(3);	/* a gap: the next is apart */
	}
	in.i_size = (__u32)lb * fs->blocksize;
	ext2fs_iblk_set(fs, (struct ext2_inode *)&in, lb);
	err = ext2fs_write_new_inode(fs, ino, (struct ext2_inode *)&in);
	if (err)
		die("write inode", err);
	ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	for (;;) {
		err = ext2fs_link(fs, dir, name, ino, EXT2_FT_REG_FILE);
		if (err != EXT2_ET_DIR_NO_SPACE)
			break;
		err = ext2fs_expand_dir(fs, dir);
		if (err)
			die("expand dir", err);
	}
	if (err)
		die("link", err);
}

/* A free inode at or after from (wrapping). */
static ext2_ino_t free_ino(ext2_filsys fs, ext2_ino_t from)
{
	ext2_ino_t last = fs->super->s_inodes_count, ino;

	if (from < EXT2_FIRST_INODE(fs->super))
		from = EXT2_FIRST_INODE(fs->super);
	if (!ext2fs_find_first_zero_inode_bitmap2(fs->inode_map, from, last,
						  &ino))
		return ino;
	if (!ext2fs_find_first_zero_inode_bitmap2(fs->inode_map,
			EXT2_FIRST_INODE(fs->super), last, &ino))
		return ino;
	die("no free inodes", EXT2_ET_INODE_ALLOC_FAIL);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long nfiles, ndirs, d, f, done = 0, per_dir = 1000;
	ext2_filsys fs;
	errcode_t err;
	char name[64];
	int spread;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: genfs IMAGE NFILES SPREAD [PER_DIR]\n");
		return 2;
	}
	nfiles = strtoul(argv[2], NULL, 0);
	spread = atoi(argv[3]);
	if (argc == 5)
		per_dir = strtoul(argv[4], NULL, 0);
	if (!per_dir)
		per_dir = 1;
	err = ext2fs_open(argv[1], EXT2_FLAG_RW | EXT2_FLAG_64BITS, 0, 0,
			  unix_io_manager, &fs);
	if (err)
		die(argv[1], err);
	err = ext2fs_read_bitmaps(fs);
	if (err)
		die("read bitmaps", err);
	ndirs = (nfiles + per_dir - 1) / per_dir;
	for (d = 0; d < ndirs; d++) {
		dgrp_t g = spread ? (dgrp_t)((unsigned long long)d *
			   fs->group_desc_count / ndirs) : 0;
		blk64_t cur = spread ? ext2fs_group_first_block2(fs, g) :
			      0;
		ext2_ino_t dir, ino;
		static blk64_t flat;

		if (!spread)
			cur = flat;
		dir = free_ino(fs, spread ? g * fs->super->s_inodes_per_group
				   + 1 : 0);
		snprintf(name, sizeof(name), "d%05lu", d);
		err = ext2fs_mkdir(fs, EXT2_ROOT_INO, dir, name);
		if (err == EXT2_ET_DIR_NO_SPACE) {
			err = ext2fs_expand_dir(fs, EXT2_ROOT_INO);
			if (!err)
				err = ext2fs_mkdir(fs, EXT2_ROOT_INO, dir,
						   name);
		}
		if (err)
			die("mkdir", err);
		ino = dir;
		for (f = 0; f < per_dir && done < nfiles; f++, done++) {
			ino = free_ino(fs, ino + 1);
			snprintf(name, sizeof(name), "f%04lu-%lu", f, done);
			add_file(fs, dir, ino, name, &cur, done % 7 == 3);
		}
		if (!spread)
			flat = cur;
	}
	err = ext2fs_close_free(&fs);
	if (err)
		die("close", err);
	printf("%lu files in %lu directories%s\n", nfiles, ndirs,
	       spread ? ", spread over all groups" : "");
	return 0;
}
