/* test_owner.c - the ownership index against the real tools: icheck for
 * the owning inode of sampled blocks, dumpe2fs for metadata locations, and
 * the superblock's free count for the class totals. */
#include "testlib.h"
#include "owner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sample {
	blk64_t *b;
	size_t n, cap;
};

static void add(struct sample *s, blk64_t b)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 1024;
		s->b = realloc(s->b, s->cap * sizeof(*s->b));
		assert_non_null(s->b);
	}
	s->b[s->n++] = b;
}

/* Checks one dumpe2fs location "WHAT at A[-B]" in line as class cls. */
static void check_loc(struct tsession *t, struct sample *smp,
		      const char *line, const char *what, int cls)
{
	const char *p = strstr(line, what);
	unsigned long long a, b;
	struct owner_run r;
	int n;

	if (!p)
		return;
	n = sscanf(p + strlen(what), "%llu-%llu", &a, &b);
	if (n < 1)
		return;
	if (n < 2)
		b = a;
	assert_int_equal(owner_lookup(&t->s, a, &r), 0);
	if ((int)r.cls != cls)
		fail_msg("block %llu: %s, dumpe2fs says %s", a,
			 owner_class_name(r.cls), what);
	assert_int_equal(owner_lookup(&t->s, b, &r), 0);
	if ((int)r.cls != cls)
		fail_msg("block %llu: %s, dumpe2fs says %s", b,
			 owner_class_name(r.cls), what);
	add(smp, a);
	add(smp, b);
	if (b + 1 < ext2fs_blocks_count(t->s.fs->super))
		add(smp, b + 1);
}

static void check_dumpe2fs(struct tsession *t, const char *img,
			   struct sample *smp)
{
	char *out = tl_sh("dumpe2fs %s 2>/dev/null", tl_image(img));
	char *line, *save = NULL;
	int lines = 0;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "  ", 2))
			continue;
		lines++;
		check_loc(t, smp, line, "superblock at ", OWN_SUPER);
		check_loc(t, smp, line, "Group descriptors at ", OWN_GDT);
		check_loc(t, smp, line, "Group descriptor at ", OWN_GDT);
		check_loc(t, smp, line, "Reserved GDT blocks at ",
			  OWN_RSV_GDT);
		check_loc(t, smp, line, "Block bitmap at ", OWN_BBITMAP);
		check_loc(t, smp, line, "Inode bitmap at ", OWN_IBITMAP);
		check_loc(t, smp, line, "Inode table at ", OWN_ITABLE);
	}
	assert_true(lines > 0);
	free(out);
}

static void add_file_blocks(struct sample *smp, const char *img,
			    const char *file)
{
	char *out = tl_sh("debugfs -R 'blocks %s' %s 2>/dev/null", file,
			  tl_image(img));
	char *p = out, *end;
	unsigned long long b;

	for (;;) {
		b = strtoull(p, &end, 10);
		if (end == p)
			break;
		add(smp, b);
		p = end;
	}
	free(out);
}

/* One icheck call for all the sampled blocks. */
static void check_icheck(struct tsession *t, const char *img,
			 struct sample *smp)
{
	struct strbuf req = {0};
	unsigned ratio = EXT2FS_CLUSTER_RATIO(t->s.fs);
	char *out, *line, *save = NULL;
	unsigned long long b;
	struct owner_run r;
	size_t i, seen = 0;
	unsigned ino;

	strbuf_printf(&req, "debugfs -R 'icheck");
	for (i = 0; i < smp->n; i++)
		strbuf_printf(&req, " %llu", (unsigned long long)smp->b[i]);
	strbuf_printf(&req, "' %s 2>/dev/null", tl_image(img));
	out = tl_sh("%s", req.buf);
	strbuf_free(&req);
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%llu", &b) != 1)
			continue;
		seen++;
		assert_int_equal(owner_lookup(&t->s, b, &r), 0);
		if (sscanf(line, "%*u\t%u", &ino) == 1) {
			if (r.cls == OWN_RSV_GDT && ino == EXT2_RESIZE_INO)
				continue;
			if (r.ino != ino)
				fail_msg("%s block %llu: owner %s inode %u, "
					 "icheck says inode %u", img, b,
					 owner_class_name(r.cls), r.ino, ino);
			continue;
		}
		/* Not found by icheck: not a file block, except the unused
		 * tail of a bigalloc cluster. */
		if (r.ino && ratio == 1 && r.cls != OWN_OTHER)
			fail_msg("%s block %llu: owner inode %u (%s), icheck "
				 "finds none", img, b, r.ino,
				 owner_class_name(r.cls));
	}
	assert_int_equal(seen, smp->n);
	free(out);
}

static void check_counts(struct tsession *t)
{
	blk64_t counts[OWN_CLASS_MAX] = {0}, total = 0, used = 0;
	ext2_filsys fs = t->s.fs;
	int i;

	assert_int_equal(owner_class_counts(&t->s, 0, ext2fs_blocks_count(
						fs->super), counts), 0);
	for (i = 0; i < OWN_CLASS_MAX; i++)
		total += counts[i];
	for (i = OWN_SUPER; i < OWN_CLASS_MAX; i++)
		used += counts[i];
	assert_int_equal(total, ext2fs_blocks_count(fs->super));
	assert_int_equal(counts[OWN_FREE] + counts[OWN_UNINIT],
			 ext2fs_free_blocks_count(fs->super));
	assert_int_equal(used, ext2fs_blocks_count(fs->super) -
			 ext2fs_free_blocks_count(fs->super));
	/* A clean image leaks nothing. */
	assert_int_equal(counts[OWN_UNKNOWN], 0);
}

static void check_image(const char *img)
{
	struct tsession t;
	struct sample smp = {0};
	blk64_t b, total, step;
	int done = 0;

	tl_open(&t, img);
	/* Before the scan: metadata and free space are exact already. */
	assert_int_equal(owner_scan_begin(&t.s), 0);
	assert_false(owner_index_complete(&t.s));
	check_dumpe2fs(&t, img, &smp);
	while (!done)
		assert_int_equal(owner_scan_step(&t.s, 50, &done), 0);
	assert_true(owner_index_complete(&t.s));
	assert_int_equal(owner_bad_inodes(&t.s), 0);
	total = ext2fs_blocks_count(t.s.fs->super);
	step = total / 300 + 1;
	for (b = 0; b < total; b += step)
		add(&smp, b);
	add(&smp, total - 1);
	add_file_blocks(&smp, img, "/var/log/messages");
	add_file_blocks(&smp, img, "/usr/share/doc/big.txt");
	add_file_blocks(&smp, img, "/home/user/sparse");
	add_file_blocks(&smp, img, "/manyfiles");
	check_icheck(&t, img, &smp);
	check_counts(&t);
	free(smp.b);
	tl_close(&t);
}

static void t_ext2_1k(void **state) { (void)state; check_image("ext2-1k"); }
static void t_ext4(void **state) { (void)state; check_image("ext4"); }
static void t_bigalloc(void **state) { (void)state; check_image("bigalloc"); }
static void t_inline(void **state) { (void)state; check_image("inline"); }
static void t_metabg(void **state) { (void)state; check_image("metabg"); }

/* The owner and map requests work and fail as they should. */
static void t_commands(void **state)
{
	struct tsession t;

	(void)state;
	tl_open(&t, "ext4");
	assert_int_equal(tl_run(&t, "owner 0 1 2000"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "0: superblock, group 0"));
	assert_non_null(strstr(t.out.buf, "(/home/user/blob)"));
	assert_int_equal(tl_run(&t, "owner 99999999"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "owner abc"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "owner"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "map --width 16 g0"), CMD_OK);
	assert_non_null(strstr(t.out.buf, "Legend"));
	assert_int_equal(tl_run(&t, "map 0-100"), CMD_OK);
	assert_int_equal(tl_run(&t, "map g9999"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "map 5-1"), CMD_FAIL);
	assert_int_equal(tl_run(&t, "map --width 0"), CMD_FAIL);
	tl_close(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_ext2_1k),
		cmocka_unit_test(t_ext4),
		cmocka_unit_test(t_bigalloc),
		cmocka_unit_test(t_inline),
		cmocka_unit_test(t_metabg),
		cmocka_unit_test(t_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
