/* test_flex.c - the flex-group model against dumpe2fs: the islands of each
 * flex group cover exactly the bitmaps and inode tables dumpe2fs lists for
 * its groups, its counters are their sums; and the `flex` request. */
#include "testlib.h"
#include "flex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const images[] = {
	"ext2-1k", "ext3", "ext4", "bigalloc", "metabg", "inline", "noflex",
	NULL
};

static char tmpdir[] = "/tmp/e2l-flex-XXXXXX";
static char many[300];	/* 64 groups, flex size 16, 1 KiB blocks */
static char small[300];	/* flex size 4, 20 groups: a short last flex */
static char split[300];	/* flex size 64: tables split around backups */

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(many, sizeof(many), "%s/many.img", tmpdir);
	snprintf(small, sizeof(small), "%s/small.img", tmpdir);
	snprintf(split, sizeof(split), "%s/split.img", tmpdir);
	free(tl_sh("MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default -t ext4 "
		   "-b 1024 -g 1024 -G 64 -I 128 -N 16384 -O extent,flex_bg,"
		   "resize_inode %s 64M >/dev/null 2>&1", split));
	free(tl_sh("MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default -t ext4 "
		   "-b 1024 -g 1024 -N 2048 -O extent,flex_bg,^resize_inode "
		   "%s 64M >/dev/null 2>&1", many));
	free(tl_sh("MKE2FS_CONFIG=/dev/null mke2fs -q -F -T default -t ext4 "
		   "-b 1024 -g 1024 -G 4 -O extent,flex_bg,resize_inode "
		   "%s 20M >/dev/null 2>&1", small));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(tl_sh("rm -rf %s", tmpdir));
	return 0;
}

/* Per group, what dumpe2fs lists. */
struct dgrp {
	unsigned long long bb, ib, it_a, it_b;
	unsigned long long fb, fi, dirs;
};

static struct dgrp *parse_dumpe2fs(const char *path, unsigned ngroups,
				   unsigned long *flex_size)
{
	struct dgrp *v = calloc(ngroups, sizeof(*v));
	char *out = tl_sh("dumpe2fs %s 2>/dev/null", path), *line, *save;
	unsigned long long a, b, c;
	unsigned grp = ~0U, n;

	assert_non_null(v);
	*flex_size = 1;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "Flex block group size: %lu", flex_size) == 1)
			continue;
		if (sscanf(line, "Group %u: (Blocks %llu-%llu)", &n, &a,
			   &b) == 3) {
			assert_true(n < ngroups);
			grp = n;
			continue;
		}
		if (grp == ~0U)
			continue;
		if (sscanf(line, " Block bitmap at %llu", &a) == 1)
			v[grp].bb = a;
		else if (sscanf(line, " Inode bitmap at %llu", &a) == 1)
			v[grp].ib = a;
		else if (sscanf(line, " Inode table at %llu-%llu", &a,
				&b) == 2) {
			v[grp].it_a = a;
			v[grp].it_b = b;
		} else if (sscanf(line, " %llu free %*s %llu free inodes, "
				  "%llu directories", &a, &b, &c) == 3) {
			v[grp].fb = a;
			v[grp].fi = b;
			v[grp].dirs = c;
		}
	}
	free(out);
	return v;
}

static void mark(unsigned char *map, unsigned long long a,
		 unsigned long long b, unsigned long long *count)
{
	for (; a <= b; a++)
		if (!map[a]) {
			map[a] = 1;
			(*count)++;
		}
}

static void compare_image(const char *path)
{
	struct tsession t;
	ext2_filsys fs;
	struct dgrp *d;
	unsigned char *map;
	unsigned long per, n;
	struct e2l_flex fx;
	unsigned long long want, have, fb, fi, dirs, b;
	unsigned i, g;

	tl_open_path(&t, path, SINK_TEXT);
	fs = t.s.fs;
	d = parse_dumpe2fs(path, fs->group_desc_count, &per);
	if (!ext2fs_has_feature_flex_bg(fs->super))
		per = 1;
	assert_int_equal(flex_groups_per(fs), per);
	assert_int_equal(flex_count(fs),
			 (fs->group_desc_count + per - 1) / per);
	map = calloc(ext2fs_blocks_count(fs->super), 1);
	assert_non_null(map);
	for (n = 0; n < flex_count(fs); n++) {
		assert_int_equal(flex_get(fs, n, &fx), 0);
		assert_int_equal(fx.first_group, n * per);
		want = fb = fi = dirs = 0;
		for (g = fx.first_group; g <= fx.last_group; g++) {
			mark(map, d[g].bb, d[g].bb, &want);
			mark(map, d[g].ib, d[g].ib, &want);
			mark(map, d[g].it_a, d[g].it_b, &want);
			fb += d[g].fb;
			fi += d[g].fi;
			dirs += d[g].dirs;
		}
		assert_int_equal(g, n + 1 < flex_count(fs) ?
				 (n + 1) * per : fs->group_desc_count);
		/* Islands: sorted, disjoint, not touching, all metadata. */
		have = 0;
		for (i = 0; i < fx.nislands; i++) {
			if (i)
				assert_true(fx.islands[i].start >
					    fx.islands[i - 1].start +
					    fx.islands[i - 1].len);
			for (b = fx.islands[i].start;
			     b < fx.islands[i].start + fx.islands[i].len; b++) {
				assert_int_equal(map[b], 1);
				map[b] = 0;	/* leaves the map clean */
			}
			have += fx.islands[i].len;
		}
		assert_int_equal(have, want);
		assert_int_equal(fx.free_blocks, fb);
		assert_int_equal(fx.free_inodes, fi);
		assert_int_equal(fx.used_dirs, dirs);
		flex_release(&fx);
	}
	assert_int_equal(flex_get(fs, flex_count(fs), &fx),
			 EXT2_ET_INVALID_ARGUMENT);
	free(map);
	free(d);
	tl_close(&t);
}

static void test_images(void **state)
{
	int i;

	(void)state;
	for (i = 0; images[i]; i++)
		compare_image(tl_image(images[i]));
	compare_image(many);
	compare_image(small);
	compare_image(split);
}

static void test_layout(void **state)
{
	struct tsession t;
	struct e2l_flex fx;

	(void)state;
	tl_open_path(&t, many, SINK_TEXT);
	assert_int_equal(flex_groups_per(t.s.fs), 16);
	assert_int_equal(flex_count(t.s.fs), 4);
	assert_int_equal(flex_get(t.s.fs, 1, &fx), 0);
	assert_int_equal(fx.first_group, 16);
	assert_int_equal(fx.last_group, 31);
	assert_true(fx.nislands >= 1);
	flex_release(&fx);
	tl_close(&t);
	tl_open_path(&t, small, SINK_TEXT);
	assert_int_equal(flex_count(t.s.fs), 5);
	assert_int_equal(flex_get(t.s.fs, 4, &fx), 0);
	assert_int_equal(fx.first_group, 16);
	assert_int_equal(fx.last_group, t.s.fs->group_desc_count - 1);
	flex_release(&fx);
	tl_close(&t);
	tl_open_path(&t, split, SINK_TEXT);
	assert_int_equal(flex_get(t.s.fs, 0, &fx), 0);
	assert_true(fx.nislands >= 2);
	flex_release(&fx);
	tl_close(&t);
}

static void test_request(void **state)
{
	struct tsession t;

	(void)state;
	tl_open_path(&t, many, SINK_TEXT);
	assert_int_equal(tl_run(&t, "flex"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "16 groups per flex group"));
	assert_non_null(strstr(t.out.buf, "16-31"));
	assert_int_equal(tl_run(&t, "flex 4"), CMD_FAIL);
	assert_non_null(strstr(t.err.buf, "out of range"));
	assert_int_equal(tl_run(&t, "flex x"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "flex -1"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "flex 1 2"), CMD_FAIL);
	tl_close(&t);

	tl_open(&t, "noflex");
	assert_int_equal(tl_run(&t, "flex"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "flex_bg is not enabled"));
	tl_close(&t);

	tl_open_path(&t, many, SINK_JSON);
	assert_int_equal(tl_run(&t, "flex 1"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "\"flex_bg\":true,"
				"\"groups_per_flex\":16,\"flex_count\":4"));
	assert_non_null(strstr(t.out.buf, "{\"flex_group\":1,"
				"\"first_group\":16,\"last_group\":31,"));
	assert_non_null(strstr(t.out.buf, "\"islands\":[{\"start\":"));
	assert_non_null(strstr(t.out.buf, "\"status\":0"));
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_images),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_request),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
