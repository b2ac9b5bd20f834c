/* demo.c - `e2layout mkdemo`: writes the demo ext4 image with libext2fs
 * alone, laid out as `mke2fs -t ext4 -G 512` would; the tree and the journal
 * come from demo_files.c and demo_journal.c. */
#include "demo.h"
#include "demo_int.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEMO_EPOCH	1577836800ULL		/* 2020-01-01 00:00:00 UTC */
#define DEMO_SPAN	(3ULL * 365 * 86400)	/* times fall in 2020-2022 */

uint64_t demo_rand(struct demo *d)
{
	uint64_t z = (d->rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

unsigned demo_rand_range(struct demo *d, unsigned lo, unsigned hi)
{
	return lo + (unsigned)(demo_rand(d) % (hi - lo + 1));
}

errcode_t demo_find_free(struct demo *d, blk64_t goal, blk64_t want,
			 struct demo_run *run)
{
	ext2_filsys fs = d->fs;
	blk64_t end = ext2fs_blocks_count(fs->super) - 1, start, used;
	errcode_t err;

	if (goal < fs->super->s_first_data_block || goal > end)
		goal = fs->super->s_first_data_block;
	err = ext2fs_find_first_zero_block_bitmap2(fs->block_map, goal, end,
						   &start);
	if (err == ENOENT && goal > fs->super->s_first_data_block)
		err = ext2fs_find_first_zero_block_bitmap2(fs->block_map,
				fs->super->s_first_data_block, end, &start);
	if (err)
		return err == ENOENT ? EXT2_ET_BLOCK_ALLOC_FAIL : err;
	if (want > end - start + 1)
		want = end - start + 1;
	err = ext2fs_find_first_set_block_bitmap2(fs->block_map, start,
						  start + want - 1, &used);
	run->start = start;
	run->len = err ? want : used - start;
	return 0;
}

/* Fills the 16 bytes of a version-4 UUID from the generator. */
static void demo_uuid(struct demo *d, __u8 *uuid)
{
	uint64_t a = demo_rand(d), b = demo_rand(d);

	memcpy(uuid, &a, 8);
	memcpy(uuid + 8, &b, 8);
	uuid[6] = (uuid[6] & 0x0f) | 0x40;
	uuid[8] = (uuid[8] & 0x3f) | 0x80;
}

const struct demo_geom demo_default_geom = {
	.blocks = DEMO_BLOCKS,
	.log_block_size = 2,
	.inode_ratio = DEMO_INODE_RATIO,
	.log_flex = DEMO_LOG_FLEX,
};

static errcode_t demo_init(struct demo *d, const char *path,
			   const struct demo_geom *geom)
{
	struct ext2_super_block param;
	struct ext2_super_block *sb;
	ext2_filsys fs;
	errcode_t err;
	dgrp_t g;

	memset(&param, 0, sizeof(param));
	ext2fs_blocks_count_set(&param, geom->blocks);
	ext2fs_r_blocks_count_set(&param, geom->blocks * 5 / 100);
	param.s_log_block_size = geom->log_block_size;
	param.s_log_cluster_size = geom->log_block_size + geom->cluster_bits;
	param.s_rev_level = EXT2_DYNAMIC_REV;
	param.s_inode_size = 256;
	param.s_inodes_count = (geom->blocks << (10 + geom->log_block_size)) /
			       geom->inode_ratio;
	param.s_log_groups_per_flex = geom->log_flex;
	param.s_desc_size = EXT2_MIN_DESC_SIZE_64BIT;
	param.s_default_mount_opts = EXT2_DEFM_XATTR_USER | EXT2_DEFM_ACL;
	ext2fs_set_feature_xattr(&param);
	ext2fs_set_feature_resize_inode(&param);
	ext2fs_set_feature_dir_index(&param);
	ext2fs_set_feature_filetype(&param);
	ext2fs_set_feature_extents(&param);
	ext2fs_set_feature_64bit(&param);
	ext2fs_set_feature_flex_bg(&param);
	ext2fs_set_feature_sparse_super(&param);
	ext2fs_set_feature_large_file(&param);
	ext2fs_set_feature_huge_file(&param);
	ext2fs_set_feature_dir_nlink(&param);
	ext2fs_set_feature_extra_isize(&param);
	ext2fs_set_feature_metadata_csum(&param);
	if (geom->features && e2p_edit_feature(geom->features,
					    &param.s_feature_compat, NULL)) {
		out_error(d->log, "mkdemo", 0, "bad feature list: %s",
			  geom->features);
		return EXT2_ET_INVALID_ARGUMENT;
	}
	if (!ext2fs_has_feature_flex_bg(&param))
		param.s_log_groups_per_flex = 0;
	/* bigalloc: allocation in clusters of 2^cluster_bits blocks (as
	 * mke2fs -O bigalloc -C); a cluster size needs the feature. */
	if (geom->cluster_bits)
		ext2fs_set_feature_bigalloc(&param);
	else if (ext2fs_has_feature_bigalloc(&param)) {
		out_error(d->log, "mkdemo", 0, "bigalloc needs a cluster size "
			  "larger than the block size");
		return EXT2_ET_INVALID_ARGUMENT;
	}

	err = ext2fs_initialize(path, EXT2_FLAG_64BITS, &param,
				unix_io_manager, &d->fs);
	if (err) {
		out_error(d->log, "mkdemo", err, "while setting up %s", path);
		return err;
	}
	fs = d->fs;
	sb = fs->super;
	fs->now = DEMO_EPOCH + demo_rand(d) % DEMO_SPAN;
	sb->s_mkfs_time = sb->s_wtime = sb->s_lastcheck = fs->now;
	sb->s_max_mnt_count = -1;
	sb->s_checkinterval = 0;
	demo_uuid(d, sb->s_uuid);
	demo_uuid(d, (__u8 *)sb->s_hash_seed);
	sb->s_def_hash_version = EXT2_HASH_HALF_MD4;
	sb->s_flags |= EXT2_FLAGS_SIGNED_HASH;
	sb->s_checksum_type = EXT2_CRC32C_CHKSUM;
	if (!sb->s_min_extra_isize)
		sb->s_min_extra_isize = sb->s_want_extra_isize =
			sizeof(struct ext2_inode_large) -
			EXT2_GOOD_OLD_INODE_SIZE;
	ext2fs_init_csum_seed(fs);

	err = ext2fs_allocate_tables(fs);
	/* bigalloc: the tables were placed block by block; from here on
	 * the bitmap is one bit per cluster, as the kernel reads it */
	if (!err && ext2fs_has_feature_bigalloc(sb))
		err = ext2fs_convert_subcluster_bitmap(fs, &fs->block_map);
	if (err) {
		out_error(d->log, "mkdemo", err, "while allocating tables");
		return err;
	}
	/* The file was created empty: its inode tables read as zeros. */
	for (g = 0; g < fs->group_desc_count; g++) {
		ext2fs_bg_flags_set(fs, g, EXT2_BG_INODE_ZEROED);
		ext2fs_group_desc_csum_set(fs, g);
	}
	return 0;
}

/* Root, lost+found, the reserved inodes, the bad-block and resize inodes. */
static errcode_t demo_base(struct demo *d)
{
	ext2_filsys fs = d->fs;
	badblocks_list bb = NULL;
	struct ext2_inode inode;
	const char *what;
	ext2_ino_t ino;
	errcode_t err;
	char *zero;

	what = "while writing the reserved inodes";
	err = ext2fs_get_memzero(EXT2_INODE_SIZE(fs->super), &zero);
	if (err)
		goto out;
	for (ino = 1; ino < EXT2_FIRST_INO(fs->super) && !err; ino++)
		err = ext2fs_write_inode_full(fs, ino,
					      (struct ext2_inode *)zero,
					      EXT2_INODE_SIZE(fs->super));
	ext2fs_free_mem(&zero);
	if (err)
		goto out;
	what = "while creating the root directory";
	err = ext2fs_mkdir(fs, EXT2_ROOT_INO, EXT2_ROOT_INO, 0);
	if (err)
		goto out;
	what = "while creating /lost+found";
	err = ext2fs_mkdir(fs, EXT2_ROOT_INO, 0, "lost+found");
	if (!err)
		err = ext2fs_lookup(fs, EXT2_ROOT_INO, "lost+found", 10, 0,
				    &ino);
	while (!err) {
		err = ext2fs_read_inode(fs, ino, &inode);
		if (err || EXT2_I_SIZE(&inode) >= 16384)
			break;
		err = ext2fs_expand_dir(fs, ino);
	}
	if (err)
		goto out;
	for (ino = EXT2_ROOT_INO + 1; ino < EXT2_FIRST_INO(fs->super); ino++)
		ext2fs_inode_alloc_stats2(fs, ino, +1, 0);
	what = "while creating the bad-block inode";
	ext2fs_mark_inode_bitmap2(fs->inode_map, EXT2_BAD_INO);
	ext2fs_inode_alloc_stats2(fs, EXT2_BAD_INO, +1, 0);
	err = ext2fs_badblocks_list_create(&bb, 0);
	if (!err)
		err = ext2fs_update_bb_inode(fs, bb);
	ext2fs_badblocks_list_free(bb);
	if (err)
		goto out;
	what = "while creating the resize inode";
	err = ext2fs_create_resize_inode(fs);
out:
	if (err)
		out_error(d->log, "mkdemo", err, "%s", what);
	return err;
}

/* Creates (or empties) path as a sparse file of the demo's size. */
static errcode_t demo_create_file(struct demo *d, const char *path,
				  uint64_t bytes, int *existed)
{
	struct stat st;
	int fd, mount_flags = 0;

	*existed = 0;
	if (d->no_replace) {
		/* one atomic step: nothing that exists is ever opened */
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
		if (fd < 0 && errno == EEXIST) {
			if (!lstat(path, &st) && !S_ISREG(st.st_mode))
				out_error(d->log, "mkdemo", 0, "%s exists and "
					  "is not a regular file; not "
					  "overwriting it", path);
			else
				out_error(d->log, "mkdemo", 0, "%s exists; "
					  "not replacing it (mkdemo --force %s "
					  "replaces a regular file)", path,
					  path);
			return EEXIST;
		}
		if (fd < 0)
			return errno;
		goto size;
	}
	if (lstat(path, &st) == 0) {
		/* a link is not followed: what it names is not ours */
		if (!S_ISREG(st.st_mode)) {
			out_error(d->log, "mkdemo", 0, "%s exists and is not "
				  "a regular file; not overwriting it", path);
			return EEXIST;
		}
		if (!ext2fs_check_if_mounted(path, &mount_flags) &&
		    (mount_flags & EXT2_MF_MOUNTED)) {
			out_error(d->log, "mkdemo", 0, "%s is mounted; not "
				  "overwriting it", path);
			return EXT2_ET_FILE_RO;
		}
		*existed = 1;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return errno;
size:
	if (ftruncate(fd, bytes) < 0) {
		int e = errno;

		close(fd);
		return e;
	}
	if (close(fd) < 0)
		return errno;
	return 0;
}

errcode_t demo_begin(struct demo *d, const char *path,
		     const struct demo_geom *g, int *existed)
{
	errcode_t err;

	d->rng = d->seed * 0x2545f4914f6cdd1dULL + 0x6a09e667f3bcc909ULL;
	err = demo_create_file(d, path, g->blocks << (10 + g->log_block_size),
			       existed);
	if (err)
		return err;
	err = demo_init(d, path, g);
	if (!err)
		err = demo_base(d);
	return err;
}

/* bigalloc: each group's free count is in clusters, and the libext2fs
 * calls that allocated part of a cluster counted it in blocks; count the
 * free clusters of the bitmap again, group by group. */
static void demo_count_clusters(ext2_filsys fs)
{
	blk64_t c, first, last, free_total = 0;
	unsigned long long nfree;
	dgrp_t g;

	for (g = 0; g < fs->group_desc_count; g++) {
		first = EXT2FS_B2C(fs, ext2fs_group_first_block2(fs, g));
		last = EXT2FS_B2C(fs, ext2fs_group_last_block2(fs, g));
		for (nfree = 0, c = first; c <= last; c++)
			if (!ext2fs_fast_test_block_bitmap2(fs->block_map,
						EXT2FS_C2B(fs, c)))
				nfree++;
		ext2fs_bg_free_blocks_count_set(fs, g, nfree);
		ext2fs_group_desc_csum_set(fs, g);
		free_total += nfree;
	}
	ext2fs_free_blocks_count_set(fs->super, EXT2FS_C2B(fs, free_total));
	ext2fs_mark_super_dirty(fs);
}

errcode_t demo_end(struct demo *d, const char *path, errcode_t err)
{
	if (!err && ext2fs_has_feature_bigalloc(d->fs->super))
		demo_count_clusters(d->fs);
	if (!err) {
		err = ext2fs_set_gdt_csum(d->fs);
		if (err)
			out_error(d->log, "mkdemo", err, "while setting group "
				  "checksums");
	}
	if (!err) {
		err = ext2fs_close_free(&d->fs);
		if (err)
			out_error(d->log, "mkdemo", err, "while writing %s",
				  path);
	}
	if (d->fs)
		ext2fs_free(d->fs);
	d->fs = NULL;
	ext2fs_free_mem(&d->buf);
	if (err)
		unlink(path);	/* never leave a half-written image behind */
	return err;
}

errcode_t demo_make(const char *path, unsigned long seed, int force,
		    struct sink *log)
{
	struct demo d;
	errcode_t err;
	int existed = 0;

	memset(&d, 0, sizeof(d));
	d.log = log;
	d.seed = seed;
	d.no_replace = !force;
	err = demo_begin(&d, path, &demo_default_geom, &existed);
	if (err && !d.fs)
		return err;
	if (!err)
		err = demo_journal(&d);
	if (!err)
		err = demo_files(&d);
	err = demo_end(&d, path, err);
	if (err)
		return err;
	out_printf(log, "mkdemo: wrote %s: 1 GiB ext4 (sparse), seed %lu, "
		   "%u files in %llu KiB of blocks, journal in %u extents%s\n",
		   path, seed, d.files,
		   (unsigned long long)(d.data_bytes / 1024),
		   d.journal_extents,
		   existed ? " (replaced the existing file)" : "");
	return 0;
}
