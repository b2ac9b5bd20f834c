/* cmd_super.c - debugfs's show_super_stats/stats (libe2p's listing, then one
 * block per group) and feature/features (list, or edit under -w). */
#include "cmd.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

static void stats_group_text(struct session *s, FILE *f, dgrp_t g,
			     const char *units, int gdt_csum)
{
	ext2_filsys fs = s->fs;
	__u32 fb = ext2fs_bg_free_blocks_count(fs, g);
	__u32 fi = ext2fs_bg_free_inodes_count(fs, g);
	__u32 ud = ext2fs_bg_used_dirs_count(fs, g);
	int first = 1;

	fprintf(f, " Group %2d: block bitmap at %llu, inode bitmap at %llu, "
		   "inode table at %llu\n"
		   "           %u free %s%s, %u free %s, %u used %s%s",
		g, (unsigned long long)ext2fs_block_bitmap_loc(fs, g),
		(unsigned long long)ext2fs_inode_bitmap_loc(fs, g),
		(unsigned long long)ext2fs_inode_table_loc(fs, g),
		fb, units, fb != 1 ? "s" : "",
		fi, fi != 1 ? "inodes" : "inode",
		ud, ud != 1 ? "directories" : "directory",
		gdt_csum ? ", " : "\n");
	if (gdt_csum) {
		__u32 unused = ext2fs_bg_itable_unused(fs, g);

		fprintf(f, "%u unused %s\n", unused,
			unused != 1 ? "inodes" : "inode");
	}
	if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT)) {
		fputs("           [Inode not init", f);
		first = 0;
	}
	if (ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT)) {
		fputs(first ? "           [" : ", ", f);
		fputs("Block not init", f);
		first = 0;
	}
	if (gdt_csum) {
		fprintf(f, "%sChecksum 0x%04x", first ? "           [" : ", ",
			ext2fs_bg_checksum(fs, g));
		first = 0;
	}
	if (!first)
		fputs("]\n", f);
}

static void stats_json(struct session *s, unsigned dirs, int header_only)
{
	ext2_filsys fs = s->fs;
	struct ext2_super_block *sb = fs->super;
	char label[EXT2_LABEL_LEN + 1];
	dgrp_t g;

	memcpy(label, sb->s_volume_name, EXT2_LABEL_LEN);
	label[EXT2_LABEL_LEN] = 0;
	json_str(s->out, "volume_name", label);
	json_str(s->out, "uuid", e2p_uuid2str(sb->s_uuid));
	json_u64(s->out, "block_size", fs->blocksize);
	json_u64(s->out, "cluster_size", EXT2_CLUSTER_SIZE(sb));
	json_u64(s->out, "blocks_count", ext2fs_blocks_count(sb));
	json_u64(s->out, "free_blocks_count", ext2fs_free_blocks_count(sb));
	json_u64(s->out, "inodes_count", sb->s_inodes_count);
	json_u64(s->out, "free_inodes_count", sb->s_free_inodes_count);
	json_u64(s->out, "inode_size", EXT2_INODE_SIZE(sb));
	json_u64(s->out, "first_data_block", sb->s_first_data_block);
	json_u64(s->out, "blocks_per_group", sb->s_blocks_per_group);
	json_u64(s->out, "inodes_per_group", sb->s_inodes_per_group);
	json_u64(s->out, "group_count", fs->group_desc_count);
	json_u64(s->out, "directories", dirs);
	json_arr_begin(s->out, "features");
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 32; j++)
			if ((&sb->s_feature_compat)[i] & (1U << j))
				json_str(s->out, NULL,
					 e2p_feature2string(i, 1U << j));
	json_arr_end(s->out);
	if (header_only)
		return;
	json_arr_begin(s->out, "groups");
	for (g = 0; g < fs->group_desc_count; g++) {
		json_obj_begin(s->out, NULL);
		json_u64(s->out, "group", g);
		json_u64(s->out, "block_bitmap",
			 ext2fs_block_bitmap_loc(fs, g));
		json_u64(s->out, "inode_bitmap",
			 ext2fs_inode_bitmap_loc(fs, g));
		json_u64(s->out, "inode_table", ext2fs_inode_table_loc(fs, g));
		json_u64(s->out, "free_blocks",
			 ext2fs_bg_free_blocks_count(fs, g));
		json_u64(s->out, "free_inodes",
			 ext2fs_bg_free_inodes_count(fs, g));
		json_u64(s->out, "used_dirs", ext2fs_bg_used_dirs_count(fs, g));
		json_u64(s->out, "itable_unused",
			 ext2fs_bg_itable_unused(fs, g));
		json_bool(s->out, "inode_uninit",
			  ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT));
		json_bool(s->out, "block_uninit",
			  ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT));
		json_u64(s->out, "checksum", ext2fs_bg_checksum(fs, g));
		json_obj_end(s->out);
	}
	json_arr_end(s->out);
}

static int do_stats(struct session *s, int argc, char **argv)
{
	ext2_filsys fs = s->fs;
	const char *units = "block";
	int c, header_only = 0, gdt_csum;
	unsigned dirs = 0;
	size_t len;
	char *buf;
	dgrp_t g;
	FILE *f;

	while ((c = dfs_getopt(s, argc, argv, "h")) != -1) {
		if (c != 'h')
			goto usage;
		header_only++;
	}
	if (optind != argc)
		goto usage;
	if (dfs_check_open(s, argv[0]))
		return CMD_FAIL;
	if (ext2fs_has_feature_bigalloc(fs->super))
		units = "cluster";
	f = sink_stream_begin(s->out, &buf, &len);
	if (!f) {
		out_error(s->out, argv[0], errno, "while starting output");
		return CMD_FAIL;
	}
	list_super2(fs->super, f);
	if (ext2fs_has_feature_metadata_csum(fs->super) &&
	    !ext2fs_superblock_csum_verify(fs, fs->super)) {
		__u32 saved = fs->super->s_checksum;

		ext2fs_superblock_csum_set(fs, fs->super);
		fprintf(f, "Expected Checksum:        0x%08x\n",
			fs->super->s_checksum);
		fs->super->s_checksum = saved;
	}
	for (g = 0; g < fs->group_desc_count; g++)
		dirs += ext2fs_bg_used_dirs_count(fs, g);
	fprintf(f, "Directories:              %u\n", dirs);
	if (!header_only) {
		gdt_csum = ext2fs_has_group_desc_csum(fs);
		for (g = 0; g < fs->group_desc_count; g++)
			stats_group_text(s, f, g, units, gdt_csum);
	}
	sink_stream_end(s->out, f, &buf, &len);
	if (sink_is_json(s->out))
		stats_json(s, dirs, header_only);
	return CMD_OK;
usage:
	out_errtext(s->out, "%s: Usage: show_super_stats [-h]\n", argv[0]);
	return CMD_FAIL;
}

static const char *const stats_aliases[] = {"stats", NULL};
const struct cmd_entry cmd_show_super_stats = {
	.name = "show_super_stats",
	.aliases = stats_aliases,
	.synopsis = "show_super_stats [-h]",
	.summary = "Show superblock statistics and the group descriptors",
	.options = "-h",
	.flags = CMD_DEBUGFS | CMD_JSON,
	.run = do_stats,
};

static void print_features(struct session *s)
{
	__u32 *mask = &s->fs->super->s_feature_compat;
	int printed = 0;

	out_printf(s->out, "Filesystem features:");
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 32; j++)
			if (mask[i] & (1U << j)) {
				out_printf(s->out, " %s",
					   e2p_feature2string(i, 1U << j));
				printed++;
			}
	out_printf(s->out, "%s\n", printed ? "" : "(none)");
	if (sink_is_json(s->out)) {
		json_arr_begin(s->out, "features");
		for (int i = 0; i < 3; i++)
			for (int j = 0; j < 32; j++)
				if (mask[i] & (1U << j))
					json_str(s->out, NULL,
						 e2p_feature2string(i,
								    1U << j));
		json_arr_end(s->out);
	}
}

static int do_features(struct session *s, int argc, char **argv)
{
	int i, status = CMD_OK;

	if (argc != 1 && dfs_check_rw(s, argv[0]))
		return CMD_FAIL;
	for (i = 1; i < argc; i++) {
		if (e2p_edit_feature2(argv[i], &s->fs->super->s_feature_compat,
				      NULL, 0, NULL, NULL)) {
			out_error(s->out, argv[0], 0, "Unknown feature: %s\n",
				  argv[i]);
			status = CMD_FAIL;
		} else {
			ext2fs_mark_super_dirty(s->fs);
			session_invalidate(s);
		}
	}
	print_features(s);
	return status;
}

static const char *const features_aliases[] = {"features", NULL};
const struct cmd_entry cmd_feature = {
	.name = "feature",
	.aliases = features_aliases,
	.synopsis = "feature [[-]FEATURE ...]",
	.summary = "List the filesystem features; set or clear them under -w",
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON,
	.run = do_features,
};
