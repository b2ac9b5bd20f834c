/* test_groups.c - the group model against dumpe2fs: every group's block
 * range, superblock, GDT, reserved GDT, bitmaps, inode table, counters and
 * flags on every test image plus a few made here (meta_bg with many groups,
 * sparse_super2, 1 KiB bigalloc, resize_inode with 1 KiB blocks); and the
 * `groups` request's errors and JSON. */
#include "testlib.h"
#include "groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const images[] = {
	"ext2-1k", "ext3", "ext4", "bigalloc", "metabg", "inline", "noflex",
	NULL
};

/* Extra layouts the shared images lack, made with the real mke2fs. */
static const char *const extra[][3] = {
	{ "metabg-many", "-t ext4 -b 1024 -g 1024 -N 2048 -O extent,flex_bg,"
	  "metadata_csum,64bit,meta_bg,^resize_inode,sparse_super", "64M" },
	{ "ss2", "-t ext4 -b 4096 -g 1024 -N 2048 -O extent,flex_bg,"
	  "sparse_super2,^resize_inode -E num_backup_sb=2", "64M" },
	{ "bigalloc-1k", "-t ext4 -b 1024 -C 4096 -O extent,bigalloc,"
	  "flex_bg,^resize_inode", "64M" },
	{ "rsv-1k", "-t ext4 -b 1024 -O extent,flex_bg,resize_inode,"
	  "uninit_bg,^metadata_csum", "40M" },
	{ NULL, NULL, NULL }
};

static char tmpdir[] = "/tmp/e2l-groups-XXXXXX";

static const char *extra_path(const char *name)
{
	static char path[256];

	snprintf(path, sizeof(path), "%s/%s.img", tmpdir, name);
	return path;
}

static int setup(void **state)
{
	int i;

	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	for (i = 0; extra[i][0]; i++)
		free(tl_sh("MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default "
			   "%s %s %s >/dev/null 2>&1", extra[i][1],
			   extra_path(extra[i][0]), extra[i][2]));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(tl_sh("rm -rf %s", tmpdir));
	return 0;
}

/* What dumpe2fs says about one group. */
struct want {
	int seen;
	unsigned long long first, last, sb, gdt_a, gdt_b, rsv_a, rsv_b;
	int has_sb, has_gdt, has_rsv, meta;
	unsigned long long bb, ib, it_a, it_b;
	unsigned fb, fi, dirs;
	int csum, iu, bu, iz;
};

static void check_group(ext2_filsys fs, dgrp_t grp, const struct want *w,
			const char *img)
{
	struct e2l_group g;

	assert_int_equal(groups_get(fs, grp, &g), 0);
	if (!w->seen)
		fail_msg("%s: dumpe2fs shows no group %u", img, grp);
	assert_int_equal(g.group, grp);
	assert_int_equal(g.first, w->first);
	assert_int_equal(g.last, w->last);
	assert_int_equal(g.has_super, w->has_sb);
	if (w->has_sb)
		assert_int_equal(g.super_blk, w->sb);
	assert_int_equal(!!g.gdt_count, w->has_gdt);
	if (w->has_gdt) {
		assert_int_equal(g.gdt_first, w->gdt_a);
		assert_int_equal(g.gdt_first + g.gdt_count - 1, w->gdt_b);
		assert_int_equal(g.meta_bg_desc, w->meta);
	}
	assert_int_equal(!!g.rsv_count, w->has_rsv);
	if (w->has_rsv) {
		assert_int_equal(g.rsv_first, w->rsv_a);
		assert_int_equal(g.rsv_first + g.rsv_count - 1, w->rsv_b);
	}
	assert_int_equal(g.block_bitmap, w->bb);
	assert_int_equal(g.inode_bitmap, w->ib);
	assert_int_equal(g.inode_table, w->it_a);
	assert_int_equal(g.inode_table + g.inode_table_blocks - 1, w->it_b);
	assert_int_equal(g.bb_group, ext2fs_group_of_blk2(fs, w->bb));
	assert_int_equal(g.it_group, ext2fs_group_of_blk2(fs, w->it_a));
	assert_int_equal(g.free_blocks, w->fb);
	assert_int_equal(g.free_inodes, w->fi);
	assert_int_equal(g.used_dirs, w->dirs);
	assert_int_equal(!!(g.flags & EXT2_BG_INODE_UNINIT), w->iu);
	assert_int_equal(!!(g.flags & EXT2_BG_BLOCK_UNINIT), w->bu);
	assert_int_equal(!!(g.flags & EXT2_BG_INODE_ZEROED), w->iz);
	/* Intact images: the checksum verifies wherever one is kept. */
	assert_int_equal(g.csum, w->csum ? 1 : -1);
}

/* Parses one line of dumpe2fs's per-group listing into *w. */
static void parse_line(const char *l, struct want *w)
{
	unsigned long long a, b;
	const char *p;

	if ((p = strstr(l, "superblock at ")) &&
	    sscanf(p, "superblock at %llu", &a) == 1) {
		w->has_sb = 1;
		w->sb = a;
	}
	if ((p = strstr(l, "Group descriptors at ")) &&
	    sscanf(p, "Group descriptors at %llu-%llu", &a, &b) == 2) {
		w->has_gdt = 1;
		w->gdt_a = a;
		w->gdt_b = b;
	} else if ((p = strstr(l, "Group descriptor at ")) &&
		   sscanf(p, "Group descriptor at %llu", &a) == 1) {
		w->has_gdt = w->meta = 1;
		w->gdt_a = w->gdt_b = a;
	}
	if (sscanf(l, " Reserved GDT blocks at %llu-%llu", &a, &b) == 2) {
		w->has_rsv = 1;
		w->rsv_a = a;
		w->rsv_b = b;
	}
	if (sscanf(l, " Block bitmap at %llu", &a) == 1)
		w->bb = a;
	if (sscanf(l, " Inode bitmap at %llu", &a) == 1)
		w->ib = a;
	if (sscanf(l, " Inode table at %llu-%llu", &a, &b) == 2) {
		w->it_a = a;
		w->it_b = b;
	}
	if (sscanf(l, " %u free blocks, %u free inodes, %u director",
		   &w->fb, &w->fi, &w->dirs) == 3 ||
	    sscanf(l, " %u free clusters, %u free inodes, %u director",
		   &w->fb, &w->fi, &w->dirs) == 3)
		return;
}

/* Compares every group of the image at path with dumpe2fs's listing. */
static void compare_image(const char *path)
{
	struct tsession t;
	char *out = tl_sh("dumpe2fs %s 2>/dev/null", path), *line, *save;
	struct want w;
	unsigned grp = 0, next, ngroups = 0;
	unsigned long long a, b;
	int in_group = 0;

	tl_open_path(&t, path, SINK_TEXT);
	memset(&w, 0, sizeof(w));
	for (line = strtok_r(out, "\n", &save);; line = strtok_r(NULL, "\n",
								  &save)) {
		if (!line || sscanf(line, "Group %u: (Blocks %llu-%llu)",
				    &next, &a, &b) == 3) {
			if (in_group) {
				check_group(t.s.fs, grp, &w, path);
				ngroups++;
			}
			if (!line)
				break;
			memset(&w, 0, sizeof(w));
			grp = next;
			w.first = a;
			w.last = b;
			w.seen = in_group = 1;
			w.csum = strstr(line, " csum 0x") != NULL;
			w.iu = strstr(line, "INODE_UNINIT") != NULL;
			w.bu = strstr(line, "BLOCK_UNINIT") != NULL;
			w.iz = strstr(line, "ITABLE_ZEROED") != NULL;
			continue;
		}
		if (in_group)
			parse_line(line, &w);
	}
	assert_int_equal(ngroups, t.s.fs->group_desc_count);
	assert_int_equal(groups_of_block(t.s.fs, 0) == GROUPS_NONE,
			 t.s.fs->super->s_first_data_block != 0);
	assert_int_equal(groups_of_block(t.s.fs, ext2fs_blocks_count(
				 t.s.fs->super)), GROUPS_NONE);
	assert_int_equal(groups_get(t.s.fs, ngroups, &(struct e2l_group){0}),
			 EXT2_ET_INVALID_ARGUMENT);
	free(out);
	tl_close(&t);
}

static void test_shared_images(void **state)
{
	int i;

	(void)state;
	for (i = 0; images[i]; i++)
		compare_image(tl_image(images[i]));
}

static void test_extra_images(void **state)
{
	int i;

	(void)state;
	for (i = 0; extra[i][0]; i++)
		compare_image(extra_path(extra[i][0]));
}

/* The images made here really have the layouts they are meant to test. */
static void test_extra_layouts(void **state)
{
	struct tsession t;
	struct e2l_group g;
	dgrp_t grp;
	int meta = 0, outside = 0, rsv = 0;

	(void)state;
	tl_open_path(&t, extra_path("metabg-many"), SINK_TEXT);
	assert_true(t.s.fs->group_desc_count >= 64);
	for (grp = 0; grp < t.s.fs->group_desc_count; grp++) {
		assert_int_equal(groups_get(t.s.fs, grp, &g), 0);
		meta += g.meta_bg_desc;
		outside += g.bb_group != grp;
	}
	assert_true(meta >= 8);
	assert_true(outside > 0);
	tl_close(&t);
	tl_open_path(&t, extra_path("rsv-1k"), SINK_TEXT);
	assert_int_equal(t.s.fs->super->s_first_data_block, 1);
	for (grp = 0; grp < t.s.fs->group_desc_count; grp++) {
		assert_int_equal(groups_get(t.s.fs, grp, &g), 0);
		rsv += g.rsv_count != 0;
	}
	assert_true(rsv >= 2);
	tl_close(&t);
}

static void test_request(void **state)
{
	struct tsession t;
	char *p;
	int rows = 0;

	(void)state;
	tl_open_path(&t, extra_path("metabg-many"), SINK_TEXT);
	assert_int_equal(tl_run(&t, "groups"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "sb 1, meta-gdt 2-2"));
	assert_non_null(strstr(t.out.buf, "(g16)"));
	assert_int_equal(tl_run(&t, "groups 3"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "backup 3073"));
	assert_int_equal(tl_run(&t, "groups 5-2"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "bad group range"));
	assert_int_equal(tl_run(&t, "groups 64"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "out of range"));
	assert_int_equal(tl_run(&t, "groups 1-x"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "groups -1"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "groups 99999999999999"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "groups 1 2"), CMD_FAIL);
	tl_close(&t);

	tl_open_path(&t, extra_path("metabg-many"), SINK_JSON);
	assert_int_equal(tl_run(&t, "groups 2-9"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "\"command\":\"groups\""));
	assert_non_null(strstr(t.out.buf, "\"status\":0"));
	assert_non_null(strstr(t.out.buf, "\"group_count\":64"));
	assert_non_null(strstr(t.out.buf, "\"groups\":[[2,2049,3072,null,"));
	for (p = t.out.buf; (p = strstr(p, "],[")); p++)
		rows++;
	assert_int_equal(rows + 1, 8);
	assert_int_equal(t.out.buf[t.out.len - 1], '\n');
	assert_int_equal(tl_run(&t, "groups 70"), CMD_FAIL);
	assert_non_null(strstr(t.out.buf, "\"status\":1"));
	assert_non_null(strstr(t.out.buf, "\"errors\":[\"groups: group 70"));
	/* A large result is streamed and still one valid line. */
	assert_int_equal(tl_run(&t, "groups"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "[63,64513,65535,"));
	assert_non_null(strstr(t.out.buf, "]]},\"status\":0") ||
			strstr(t.out.buf, "\"status\":0,\"result\":{"));
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shared_images),
		cmocka_unit_test(test_extra_images),
		cmocka_unit_test(test_extra_layouts),
		cmocka_unit_test(test_request),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
