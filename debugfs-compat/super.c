/* super.c - debugfs's show_super_stats/stats (libe2p's listing, then one
 * block per group) and feature/features (list, or edit under -w). */
#include "cmd.h"
#include "dfs_util.h"

#include <e2p/e2p.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

/* The per-group lines (393,263 of them on 16 TiB) are formatted by hand
 * into a chunk that goes to the sink when nearly full: no stdio stream, no
 * printf per field, no whole-output buffer. */
struct chunk {
	struct sink *out;
	size_t len;
	char buf[65536];
};

static void chunk_flush(struct chunk *c)
{
	if (c->len)
		out_write(c->out, c->buf, c->len);
	c->len = 0;
}

static void put(struct chunk *c, const char *str, size_t n)
{
	memcpy(c->buf + c->len, str, n);
	c->len += n;
}

#define PUTS(c, lit) put((c), (lit), sizeof(lit) - 1)

/* Decimal, right-aligned to width (as %*llu with a small width). */
static void put_u64(struct chunk *c, unsigned long long v, int width)
{
	char tmp[24], *p = tmp + sizeof(tmp);

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	while (tmp + sizeof(tmp) - p < width)
		*--p = ' ';
	put(c, p, tmp + sizeof(tmp) - p);
}

static void put_hex4(struct chunk *c, unsigned v)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[8];
	int n = 0, shift;

	for (shift = 12; shift > 0 && !(v >> shift); shift -= 4)
		;
	if (shift < 12)
		shift = 12;	/* %04x */
	for (; shift >= 0; shift -= 4)
		tmp[n++] = hex[(v >> shift) & 15];
	put(c, tmp, n);
}

static void stats_group_text(struct session *s, struct chunk *c, dgrp_t g,
			     const char *units, int gdt_csum)
{
	ext2_filsys fs = s->fs;
	__u32 fb = ext2fs_bg_free_blocks_count(fs, g);
	__u32 fi = ext2fs_bg_free_inodes_count(fs, g);
	__u32 ud = ext2fs_bg_used_dirs_count(fs, g);
	int first = 1;

	if (c->len > sizeof(c->buf) - 512)
		chunk_flush(c);
	PUTS(c, " Group ");
	put_u64(c, g, 2);
	PUTS(c, ": block bitmap at ");
	put_u64(c, ext2fs_block_bitmap_loc(fs, g), 0);
	PUTS(c, ", inode bitmap at ");
	put_u64(c, ext2fs_inode_bitmap_loc(fs, g), 0);
	PUTS(c, ", inode table at ");
	put_u64(c, ext2fs_inode_table_loc(fs, g), 0);
	PUTS(c, "\n           ");
	put_u64(c, fb, 0);
	PUTS(c, " free ");
	put(c, units, strlen(units));
	if (fb != 1)
		PUTS(c, "s");
	PUTS(c, ", ");
	put_u64(c, fi, 0);
	if (fi != 1)
		PUTS(c, " free inodes, ");
	else
		PUTS(c, " free inode, ");
	put_u64(c, ud, 0);
	if (ud != 1)
		PUTS(c, " used directories");
	else
		PUTS(c, " used directory");
	if (gdt_csum) {
		__u32 unused = ext2fs_bg_itable_unused(fs, g);

		PUTS(c, ", ");
		put_u64(c, unused, 0);
		if (unused != 1)
			PUTS(c, " unused inodes\n");
		else
			PUTS(c, " unused inode\n");
	} else {
		PUTS(c, "\n");
	}
	if (ext2fs_bg_flags_test(fs, g, EXT2_BG_INODE_UNINIT)) {
		PUTS(c, "           [Inode not init");
		first = 0;
	}
	if (ext2fs_bg_flags_test(fs, g, EXT2_BG_BLOCK_UNINIT)) {
		if (first)
			PUTS(c, "           [");
		else
			PUTS(c, ", ");
		PUTS(c, "Block not init");
		first = 0;
	}
	if (gdt_csum) {
		if (first)
			PUTS(c, "           [");
		else
			PUTS(c, ", ");
		PUTS(c, "Checksum 0x");
		put_hex4(c, ext2fs_bg_checksum(fs, g));
		first = 0;
	}
	if (!first)
		PUTS(c, "]\n");
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
	/* all descriptors in one read (on failure they still come one
	 * block at a time on demand) */
	(void)session_need(s, NEED_GROUP_DESC);
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
	sink_stream_end(s->out, f, &buf, &len);
	if (!header_only) {
		struct chunk *ck = malloc(sizeof(*ck));

		if (!ck) {
			out_error(s->out, argv[0], ENOMEM, "while formatting");
			return CMD_FAIL;
		}
		ck->out = s->out;
		ck->len = 0;
		gdt_csum = ext2fs_has_group_desc_csum(fs);
		for (g = 0; g < fs->group_desc_count; g++)
			stats_group_text(s, ck, g, units, gdt_csum);
		chunk_flush(ck);
		free(ck);
	}
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
	.flags = CMD_NEEDS_FS | CMD_DEBUGFS | CMD_JSON | CMD_FEW_GROUPS,
	.run = do_features,
};
